### The language itself.

# The language of Twilio's <Say> for calls in this language.
language-twilio-voice = en-US
# The language's own name, in the language itself: what the language menus show.
language-name = English
