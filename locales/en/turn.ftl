### What a turn says besides the answer.

# Told when the chosen voice cannot speak the language and the local voice speaks instead.
turn-voice-fallback = The chosen voice cannot speak this language; the local voice speaks instead.
# The reassuring phrase said while the answer's first words are slow to come.
turn-filler = One moment, please.
# The request to speak again after nothing was understood.
turn-speak-again = I didn't catch anything. Please say it again.
