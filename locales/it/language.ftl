### The language itself.

# The language of Twilio's <Say> for calls in this language.
language-twilio-voice = it-IT
language-name = Italiano
