### Pflege: Erinnerungen, Timer und die tägliche Nachfrage, und der Hinweis an die Kontaktpersonen (kein Notruf).

## Uhrzeit und Tag.

care-time = { $minute ->
    [0] { $hour } Uhr
   *[other] { $hour }:{ $mm } Uhr
}
care-at = um { care-time }
care-weekday = { $day ->
    [1] Montag
    [2] Dienstag
    [3] Mittwoch
    [4] Donnerstag
    [5] Freitag
    [6] Samstag
   *[7] Sonntag
}
care-weekdays = { $day ->
    [1] montags
    [2] dienstags
    [3] mittwochs
    [4] donnerstags
    [5] freitags
    [6] samstags
   *[7] sonntags
}
care-month = { $month ->
    [1] Januar
    [2] Februar
    [3] März
    [4] April
    [5] Mai
    [6] Juni
    [7] Juli
    [8] August
    [9] September
    [10] Oktober
    [11] November
   *[12] Dezember
}
care-day = { $when ->
    [today] heute
    [tomorrow] morgen, { $weekday },
    [after-tomorrow] übermorgen, { $weekday },
    [this-week] am { $weekday }
   *[later] am { $weekday }, dem { $date }. { $month },
}
care-every-day = jeden Tag
care-every-weekday = werktags
care-on-days = { $days }
care-and = { $first } und { $last }
care-hours = { $count ->
    [one] { $count } Stunde
   *[other] { $count } Stunden
}
care-minutes = { $count ->
    [one] { $count } Minute
   *[other] { $count } Minuten
}
care-seconds = { $count ->
    [one] { $count } Sekunde
   *[other] { $count } Sekunden
}
care-of = { $kind ->
    [infinitive] daran, { $text }
   *[other] an { $text }
}

## Antworten.

care-set-once = Gut, ich erinnere { $form ->
    [informal] dich
   *[formal] Sie
} { $day } { $at } { $what }.
care-set-repeating = Gut, ich erinnere { $form ->
    [informal] dich
   *[formal] Sie
} { $repeats } { $at } { $what }, zum ersten Mal { $day }.
care-skipped = { $hour }:{ $mm } Uhr gibt es an dem Tag nicht, die Uhren werden vorgestellt; es wird { $at }.
care-timer = Der Timer läuft: { $length }, bis { $time }.
care-no-time = { $form ->
    [informal] Wann soll ich dich erinnern? Sag zum Beispiel: morgen um 8 Uhr.
   *[formal] Wann soll ich Sie erinnern? Sagen Sie zum Beispiel: morgen um 8 Uhr.
}
care-no-clock = { $form ->
    [informal] Um wie viel Uhr? Sag zum Beispiel: um halb zehn.
   *[formal] Um wie viel Uhr? Sagen Sie zum Beispiel: um halb zehn.
}
care-passed = { $form ->
    [informal] Diese Zeit ist schon vorbei. Wann soll ich dich erinnern?
   *[formal] Diese Zeit ist schon vorbei. Wann soll ich Sie erinnern?
}
care-timer-how-long = Wie lange soll der Timer laufen?
care-remind-of-what = { $form ->
    [informal] Woran soll ich dich erinnern?
   *[formal] Woran soll ich Sie erinnern?
}
care-item = { $when } { $at } { $what }
care-list = { $form ->
    [informal] { $count ->
        [0] Du hast keine Erinnerungen.
        [one] Du hast eine Erinnerung: { $items }.
       *[other] Du hast { $count } Erinnerungen: { $items }.
    }
   *[formal] { $count ->
        [0] Sie haben keine Erinnerungen.
        [one] Sie haben eine Erinnerung: { $items }.
       *[other] Sie haben { $count } Erinnerungen: { $items }.
    }
}
care-timer-stopped = Gut, der Timer ist gestoppt.
care-cancelled = Gut, die Erinnerung { $what } ist gelöscht.
care-not-found = Ich habe keine passende Erinnerung gefunden.
care-full = { $form ->
    [informal] Du hast schon { $count ->
        [one] eine Erinnerung
       *[other] { $count } Erinnerungen
    }. Bitte lösch zuerst eine.
   *[formal] Sie haben schon { $count ->
        [one] eine Erinnerung
       *[other] { $count } Erinnerungen
    }. Bitte löschen Sie zuerst eine.
}

## Wenn es so weit ist.

care-timer-done = { $form ->
    [informal] Die Zeit ist um: dein Timer ist abgelaufen.
   *[formal] Die Zeit ist um: Ihr Timer ist abgelaufen.
}
care-due = Erinnerung: { $text }.
care-done = Danke, erledigt: { $text }.
care-call-ask = { $form ->
    [informal] Sag ja oder drück die 1.
   *[formal] Sagen Sie ja oder drücken Sie die 1.
}
care-press-1 = { $form ->
    [informal] Drück die 1 für ja.
   *[formal] Drücken Sie die 1 für ja.
}
care-missed-while-down = Während der Assistent nicht lief, ist { $form ->
    [informal] deine
   *[formal] Ihre
} Erinnerung von { $hour }:{ $mm } Uhr ausgefallen: { $text }.

## Die tägliche Nachfrage.

care-checkin-question = { $part ->
    [morning] Guten Morgen!
    [day] Guten Tag!
   *[evening] Guten Abend!
} { $form ->
    [informal] Ist bei dir alles in Ordnung?
   *[formal] Ist bei Ihnen alles in Ordnung?
}
care-checkin-thanks = { $form ->
    [informal] Schön, das freut mich. Ich wünsche dir einen guten Tag.
   *[formal] Schön, das freut mich. Ich wünsche Ihnen einen guten Tag.
}

## Der Hinweis an die Kontaktpersonen und seine Bestätigungsseite.

care-notice-not-alarm = Dies ist kein Notruf.
care-notice-check = Vielleicht ist alles in Ordnung. Bitte melden Sie sich bei { $name }.
care-notice-subject = Hinweis (kein Notruf): { $name } hat eine Erinnerung nicht bestätigt
care-notice-missed = { $name } hat die Erinnerung „{ $text }“ von { $hour }:{ $mm } Uhr nicht bestätigt, obwohl sie { $count }-mal kam.
care-checkin-subject = Hinweis (kein Notruf): { $name } hat sich heute nicht gemeldet
care-checkin-missed = { $name } hat sich heute bis { $hour }:{ $mm } Uhr nicht gemeldet { $asked ->
    [yes] und auf die Nachfrage nicht geantwortet
   *[no] und war auch auf Nachfrage nicht zu erreichen
}.
care-ack-line = Wenn Sie sich darum kümmern, sagen Sie es hier: { $link }
care-board-line = Ihre Bewohner auf der Betreuungsübersicht: { $link }
care-ack-title = Hinweis (kein Notruf)
care-ack-button = Ich kümmere mich darum
care-ack-thanks = Danke. Es ist vermerkt, dass Sie sich kümmern.

# The text of a reminder set as an alarm clock ("Stell einen Wecker für sieben Uhr").
care-alarm-text = Wecker
