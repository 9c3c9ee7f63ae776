### What a turn says besides the answer.

turn-voice-fallback = Die gewählte Stimme spricht diese Sprache nicht; die lokale Stimme spricht.
turn-filler = Einen Moment, bitte.
turn-speak-again = Ich habe nichts verstanden. Bitte sprich noch einmal.
