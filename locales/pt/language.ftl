### The language itself.

# The language of Twilio's <Say> for calls in this language.
language-twilio-voice = pt-PT
language-name = Português
