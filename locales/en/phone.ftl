### What the telephone lines say by themselves.

# The greeting when a call of a person the gateway knows starts: $name.
phone-greeting-named = Hello { $name }. How can I help?
# The greeting when a guest's call starts.
phone-greeting = Hello. How can I help?
# The goodbye before the line hangs up.
phone-goodbye = Goodbye.
# The goodbye when nobody spoke for PHONE_SILENCE_SECONDS.
phone-silence = I can't hear anything, so I'll hang up now. Call again any time. Goodbye.
# The refusal of a number no user has.
phone-refusal = This number is not set up for this voice assistant. Goodbye.
# What the line says when a turn failed (the reason is in the log).
phone-sorry = Sorry, that didn't work. Please try again in a moment.
# Said when the caller spoke longer than MAX_UTTERANCE_SECONDS without a pause.
phone-too-long = That was too long for me to take in at once. Please ask again in shorter sentences.
# Said in a call's greeting once a day per caller: the key that starts the help question ($key: the digit, or phone-key-star / phone-key-hash).
phone-help-key = For help, press { $key } at any time.
# Said after the help question on a telephone: the keys that answer it.
phone-help-keys = Press 1 for yes or 2 for no.
# The help key's name when it is * or #.
phone-key-star = the star key
phone-key-hash = the hash key
