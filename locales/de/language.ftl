### The language itself.

# The language of Twilio's <Say> for calls in this language.
language-twilio-voice = de-DE
language-name = Deutsch
