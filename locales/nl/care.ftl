### Zorg: herinneringen, timers en de dagelijkse vraag, en het bericht aan de contactpersonen (geen alarm).

## De tijd en de dag.

care-time = { $minute ->
    [0] { $hour } uur
   *[other] { $hour }:{ $mm } uur
}
care-at = om { care-time }
care-weekday = { $day ->
    [1] maandag
    [2] dinsdag
    [3] woensdag
    [4] donderdag
    [5] vrijdag
    [6] zaterdag
   *[7] zondag
}
care-weekdays = { $day ->
    [1] maandag
    [2] dinsdag
    [3] woensdag
    [4] donderdag
    [5] vrijdag
    [6] zaterdag
   *[7] zondag
}
care-month = { $month ->
    [1] januari
    [2] februari
    [3] maart
    [4] april
    [5] mei
    [6] juni
    [7] juli
    [8] augustus
    [9] september
    [10] oktober
    [11] november
   *[12] december
}
care-day = { $when ->
    [today] vandaag
    [tomorrow] morgen, { $weekday },
    [after-tomorrow] overmorgen, { $weekday },
    [this-week] op { $weekday }
   *[later] op { $weekday } { $date } { $month },
}
care-every-day = elke dag
care-every-weekday = elke werkdag
care-on-days = elke { $days }
care-and = { $first } en { $last }
care-hours = { $count ->
    [one] { $count } uur
   *[other] { $count } uur
}
care-minutes = { $count ->
    [one] { $count } minuut
   *[other] { $count } minuten
}
care-seconds = { $count ->
    [one] { $count } seconde
   *[other] { $count } seconden
}
care-of = { $kind ->
   *[other] { $text }
}

## De antwoorden.

care-set-once = Goed, ik herinner u { $day } { $at } aan: { $what }.
care-set-repeating = Goed, ik herinner u { $repeats } { $at } aan: { $what }, de eerste keer { $day }.
care-skipped = { $hour }:{ $mm } uur bestaat die dag niet, de klok gaat vooruit; het wordt { $at }.
care-timer = De timer loopt: { $length }, tot { $time }.
care-no-time = Wanneer moet ik u herinneren? Zeg bijvoorbeeld: morgen om 8 uur.
care-no-clock = Hoe laat? Zeg bijvoorbeeld: om half tien.
care-passed = Die tijd is al voorbij. Wanneer moet ik u herinneren?
care-timer-how-long = Hoe lang moet de timer lopen?
care-remind-of-what = Waaraan moet ik u herinneren?
care-item = { $when } { $at }: { $what }
care-list = { $count ->
    [0] U hebt geen herinneringen.
    [one] U hebt één herinnering: { $items }.
   *[other] U hebt { $count } herinneringen: { $items }.
}
care-timer-stopped = Goed, de timer is gestopt.
care-cancelled = Goed, de herinnering "{ $what }" is gewist.
care-not-found = Ik heb zo'n herinnering niet gevonden.
care-full = U hebt al { $count } herinneringen. Wis er alstublieft eerst een.

## Als het zover is.

care-timer-done = De tijd is om: uw timer is afgelopen.
care-due = Herinnering: { $text }.
care-done = Dank u, gedaan: { $text }.
care-call-ask = Zeg ja of druk op 1.
care-press-1 = Druk op 1 voor ja.
care-missed-while-down = Terwijl de assistent niet draaide, is uw herinnering van { $hour }:{ $mm } uur gemist: { $text }.

## De dagelijkse vraag.

care-checkin-question = { $part ->
    [morning] Goedemorgen!
    [day] Goedemiddag!
   *[evening] Goedenavond!
} Is alles in orde?
care-checkin-thanks = Fijn, dat hoor ik graag. Ik wens u een fijne dag.

## Het bericht aan de contactpersonen en de bevestigingspagina.

care-notice-not-alarm = Dit is geen noodalarm.
care-notice-check = Misschien is alles in orde. Neem alstublieft contact op met { $name }.
care-notice-subject = Bericht (geen alarm): { $name } heeft een herinnering niet bevestigd
care-notice-missed = { $name } heeft de herinnering "{ $text }" van { $hour }:{ $mm } uur niet bevestigd, hoewel die { $count } keer kwam.
care-checkin-subject = Bericht (geen alarm): { $name } heeft zich vandaag niet gemeld
care-checkin-missed = { $name } heeft zich vandaag vóór { $time } niet gemeld { $asked ->
    [yes] en heeft op de vraag niet geantwoord
   *[no] en was ook niet te bereiken
}.
care-ack-line = Als u zich erover ontfermt, zeg het dan hier: { $link }
care-board-line = Uw bewoners op het zorgoverzicht: { $link }
care-ack-title = Bericht (geen alarm)
care-ack-button = Ik neem het op me
care-ack-thanks = Dank u. Er is genoteerd dat u het op u neemt.

# The text of a reminder set as an alarm clock ("Stell einen Wecker für sieben Uhr").
care-alarm-text = wekker
