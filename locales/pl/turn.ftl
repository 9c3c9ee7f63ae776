### What a turn says besides the answer.

turn-voice-fallback = Wybrany głos nie mówi w tym języku; mówi głos lokalny.
turn-filler = Chwileczkę.
turn-speak-again = Nic nie zrozumiałem. Proszę powiedz to jeszcze raz.
