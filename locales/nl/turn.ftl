### What a turn says besides the answer.

turn-voice-fallback = De gekozen stem spreekt deze taal niet; de lokale stem spreekt.
turn-filler = Een ogenblik, alstublieft.
turn-speak-again = Ik heb niets verstaan. Wil je het nog eens zeggen?
