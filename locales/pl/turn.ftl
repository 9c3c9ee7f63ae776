### What a turn says besides the answer.

turn-voice-fallback = Wybrany głos { $voice } nie mówi po polsku, więc mówi { $speaker }.
turn-voice-missing = { $engine } nie ma tu polskiego głosu, więc mówi { $speaker }. Osoba, która prowadzi asystenta, może go zainstalować.
turn-filler = Chwileczkę.
turn-speak-again = Nic nie zrozumiałem. Proszę powiedz to jeszcze raz.
turn-cannot-answer = Model językowy { $model } nie mówi po polsku: odpowiedź będzie pewnie po angielsku albo bez sensu. Osoba, która prowadzi asystenta, może zainstalować model mówiący po polsku.
turn-closing = Na tym skończę. Proszę zapytać, jeśli chce Pan lub Pani wiedzieć więcej.
turn-search-used-up = Limit wyszukiwania w sieci na dziś się wyczerpał: moja odpowiedź może być nieaktualna.
turn-search-off = Wyszukiwanie w sieci jest wyłączone: moja odpowiedź może być nieaktualna.
turn-kept-at-home = Pana/Pani słowa zostają na komputerze tej bramki, a żaden model tutaj nie może jeszcze na nie odpowiedzieć. Proszę poprosić osobę prowadzącą voice-gateway o lokalny model albo wyłączyć „Moje słowa zostają w domu”.
