### What a turn says besides the answer.

turn-voice-fallback = La voce scelta non parla questa lingua; parla la voce locale.
turn-filler = Un attimo, per favore.
turn-speak-again = Non ho capito niente. Per favore, parla di nuovo.
