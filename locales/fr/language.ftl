### The language itself.

# The language of Twilio's <Say> for calls in this language.
language-twilio-voice = fr-FR
language-name = Français
