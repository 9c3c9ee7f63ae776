### What a turn says besides the answer.

turn-voice-fallback = La voz elegida no habla este idioma; habla la voz local.
turn-filler = Un momento, por favor.
turn-speak-again = No he entendido nada. Por favor, habla otra vez.
