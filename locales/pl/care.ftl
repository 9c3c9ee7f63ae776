### Opieka: przypomnienia, minutniki i codzienne pytanie, oraz wiadomość do osób kontaktowych (nie alarm).

## Godzina i dzień.

# Said as one says it: "o ósmej", "do dwudziestej 30" (the hour's ordinal, the same form after "o" and "do").
care-time = { $hour ->
    [1] pierwszej
    [2] drugiej
    [3] trzeciej
    [4] czwartej
    [5] piątej
    [6] szóstej
    [7] siódmej
    [8] ósmej
    [9] dziewiątej
    [10] dziesiątej
    [11] jedenastej
    [12] dwunastej
    [13] trzynastej
    [14] czternastej
    [15] piętnastej
    [16] szesnastej
    [17] siedemnastej
    [18] osiemnastej
    [19] dziewiętnastej
    [20] dwudziestej
    [21] dwudziestej pierwszej
    [22] dwudziestej drugiej
    [23] dwudziestej trzeciej
   *[other] { $hour }:{ $mm }
}{ $minute ->
    [0] {""}
   *[other] { $hour ->
        [0] {""}
       *[other] {" "}{ $mm }
    }
}
care-at = o { care-time }
care-weekday = { $day ->
    [1] poniedziałek
    [2] wtorek
    [3] środa
    [4] czwartek
    [5] piątek
    [6] sobota
   *[7] niedziela
}
care-weekdays = { $day ->
    [1] w poniedziałki
    [2] we wtorki
    [3] w środy
    [4] w czwartki
    [5] w piątki
    [6] w soboty
   *[7] w niedziele
}
care-month = { $month ->
    [1] stycznia
    [2] lutego
    [3] marca
    [4] kwietnia
    [5] maja
    [6] czerwca
    [7] lipca
    [8] sierpnia
    [9] września
    [10] października
    [11] listopada
   *[12] grudnia
}
care-day = { $when ->
    [today] dzisiaj
    [tomorrow] jutro, { $weekday },
    [after-tomorrow] pojutrze, { $weekday },
    [this-week] { $weekday }
   *[later] { $weekday }, { $date } { $month },
}
care-every-day = codziennie
care-every-weekday = w dni robocze
care-on-days = { $days }
care-and = { $first } i { $last }
care-hours = { $count ->
    [one] { $count } godzina
    [few] { $count } godziny
   *[other] { $count } godzin
}
care-minutes = { $count ->
    [one] { $count } minuta
    [few] { $count } minuty
   *[other] { $count } minut
}
care-seconds = { $count ->
    [one] { $count } sekunda
    [few] { $count } sekundy
   *[other] { $count } sekund
}
care-of = { $kind ->
   *[other] { $text }
}

## Odpowiedzi.

care-set-once = Dobrze, przypomnę { $day } { $at }: { $what }.
care-set-repeating = Dobrze, przypomnę { $repeats } { $at }: { $what }, pierwszy raz { $day }.
care-skipped = Godziny { $hour }:{ $mm } tego dnia nie ma, zegary przestawia się do przodu; będzie { $at }.
care-timer = Minutnik działa: { $length }, do { $time }.
care-no-time = Kiedy mam przypomnieć? Proszę powiedzieć na przykład: jutro o 8:00.
care-no-clock = O której godzinie? Proszę powiedzieć na przykład: o wpół do dziesiątej.
care-passed = Ta godzina już minęła. Kiedy mam przypomnieć?
care-timer-how-long = Jak długo ma działać minutnik?
care-remind-of-what = O czym mam przypomnieć?
care-item = { $when } { $at }: { $what }
care-list = { $count ->
    [0] Nie ma żadnych przypomnień.
    [one] Jest jedno przypomnienie: { $items }.
    [few] Są { $count } przypomnienia: { $items }.
   *[other] Jest { $count } przypomnień: { $items }.
}
care-timer-stopped = Dobrze, minutnik jest zatrzymany.
care-cancelled = Dobrze, przypomnienie „{ $what }” jest usunięte.
care-not-found = Nie znalazłem takiego przypomnienia.
care-full = Jest już { $count } przypomnień. Proszę najpierw jedno usunąć.

## Kiedy nadejdzie pora.

care-timer-done = Czas minął: minutnik się skończył.
care-due = Przypomnienie: { $text }.
care-done = Dziękuję, zrobione: { $text }.
care-call-ask = Proszę powiedzieć tak albo nacisnąć 1.
care-press-1 = Proszę nacisnąć 1, aby powiedzieć tak.
care-missed-while-down = Gdy asystent nie działał, przepadło przypomnienie z godziny { $hour }:{ $mm }: { $text }.

## Codzienne pytanie.

care-checkin-question = { $part ->
    [morning] Dzień dobry!
    [day] Dzień dobry!
   *[evening] Dobry wieczór!
} Czy wszystko w porządku?
care-checkin-thanks = To dobrze, cieszę się. Życzę miłego dnia.

## Wiadomość do osób kontaktowych i jej strona potwierdzenia.

care-notice-not-alarm = To nie jest alarm.
care-notice-check = Być może wszystko jest w porządku. Proszę skontaktować się z: { $name }.
care-notice-subject = Informacja (nie alarm): { $name } nie potwierdził(a) przypomnienia
care-notice-missed = { $name } nie potwierdził(a) przypomnienia „{ $text }” z godziny { $hour }:{ $mm }, choć przyszło ono { $count } razy.
care-checkin-subject = Informacja (nie alarm): { $name } nie odezwał(a) się dzisiaj
care-checkin-missed = { $name } nie odezwał(a) się dzisiaj do { $time } { $asked ->
    [yes] i nie odpowiedział(a) na pytanie
   *[no] i nie można było się z nim/nią skontaktować
}.
care-ack-line = Jeśli się tym Państwo zajmą, proszę dać znać tutaj: { $link }
care-board-line = Państwa podopieczni na tablicy opieki: { $link }
care-ack-title = Informacja (nie alarm)
care-ack-button = Zajmę się tym
care-ack-thanks = Dziękujemy. Zanotowano, że się Państwo tym zajmują.

# The text of a reminder set as an alarm clock ("Stell einen Wecker für sieben Uhr").
care-alarm-text = budzik
