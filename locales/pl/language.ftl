### The language itself.

# The language of Twilio's <Say> for calls in this language.
language-twilio-voice = pl-PL
language-name = Polski
