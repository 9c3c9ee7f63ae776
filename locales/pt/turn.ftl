### What a turn says besides the answer.

turn-voice-fallback = A voz escolhida não fala esta língua; fala a voz local.
turn-filler = Um momento, por favor.
turn-speak-again = Não percebi nada. Por favor, fale outra vez.
