### What a turn says besides the answer.

turn-voice-fallback = Wybrany głos nie mówi w tym języku; mówi głos lokalny.
turn-filler = Chwileczkę.
turn-speak-again = Nic nie zrozumiałem. Proszę powiedz to jeszcze raz.
turn-cannot-answer = Model językowy { $model } nie mówi po polsku: odpowiedź będzie pewnie po angielsku albo bez sensu. Osoba, która prowadzi asystenta, może zainstalować model mówiący po polsku.
turn-closing = Na tym skończę. Proszę zapytać, jeśli chce Pan lub Pani wiedzieć więcej.
turn-search-used-up = Limit wyszukiwania w sieci na dziś się wyczerpał: moja odpowiedź może być nieaktualna.
turn-search-off = Wyszukiwanie w sieci jest wyłączone: moja odpowiedź może być nieaktualna.
