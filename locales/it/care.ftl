### Assistenza: promemoria, timer e la domanda quotidiana, e l'avviso ai contatti (non è un allarme).

## L'ora e il giorno.

care-time = { $minute ->
    [0] { $hour }
   *[other] { $hour }:{ $mm }
}
care-at = { $hour ->
    [1] all'{ care-time }
   *[other] alle { care-time }
}
care-weekday = { $day ->
    [1] lunedì
    [2] martedì
    [3] mercoledì
    [4] giovedì
    [5] venerdì
    [6] sabato
   *[7] domenica
}
care-weekdays = { $day ->
    [1] lunedì
    [2] martedì
    [3] mercoledì
    [4] giovedì
    [5] venerdì
    [6] sabato
   *[7] domenica
}
care-month = { $month ->
    [1] gennaio
    [2] febbraio
    [3] marzo
    [4] aprile
    [5] maggio
    [6] giugno
    [7] luglio
    [8] agosto
    [9] settembre
    [10] ottobre
    [11] novembre
   *[12] dicembre
}
care-day = { $when ->
    [today] oggi
    [tomorrow] domani, { $weekday },
    [after-tomorrow] dopodomani, { $weekday },
    [this-week] { $weekday }
   *[later] { $weekday } { $date } { $month },
}
care-every-day = ogni giorno
care-every-weekday = dal lunedì al venerdì
care-on-days = ogni { $days }
care-and = { $first } e { $last }
care-hours = { $count ->
    [one] { $count } ora
   *[other] { $count } ore
}
care-minutes = { $count ->
    [one] { $count } minuto
   *[other] { $count } minuti
}
care-seconds = { $count ->
    [one] { $count } secondo
   *[other] { $count } secondi
}
care-of = { $kind ->
   *[other] { $text }
}

## Le risposte.

care-set-once = Va bene, glielo ricorderò { $day } { $at }: { $what }.
care-set-repeating = Va bene, glielo ricorderò { $repeats } { $at }: { $what }, la prima volta { $day }.
care-skipped = Le { $hour }:{ $mm } non esistono quel giorno, gli orologi vanno avanti; sarà { $at }.
care-timer = Timer avviato: { $length }, fino alle { $time }.
care-no-time = Quando devo ricordarglielo? Dica per esempio: domani alle 8.
care-no-clock = A che ora? Dica per esempio: alle nove e mezza.
care-passed = Quest'ora è già passata. Quando devo ricordarglielo?
care-timer-how-long = Quanto deve durare il timer?
care-remind-of-what = Che cosa devo ricordarle?
care-item = { $when } { $at }: { $what }
care-list = { $count ->
    [0] Non ha promemoria.
    [one] Ha un promemoria: { $items }.
   *[other] Ha { $count } promemoria: { $items }.
}
care-timer-stopped = Va bene, il timer è fermato.
care-cancelled = Va bene, il promemoria «{ $what }» è cancellato.
care-not-found = Non ho trovato nessun promemoria così.
care-full = Ha già { $count } promemoria. Per favore, ne cancelli prima uno.

## Quando è ora.

care-timer-done = Il tempo è scaduto: il suo timer è finito.
care-due = Promemoria: { $text }.
care-done = Grazie, fatto: { $text }.
care-call-ask = Dica sì o prema 1.
care-press-1 = Prema 1 per sì.
care-missed-while-down = Mentre l'assistente non era attivo, il suo promemoria delle { $hour }:{ $mm } è andato perso: { $text }.

## La domanda quotidiana.

care-checkin-question = { $part ->
    [morning] Buongiorno!
    [day] Buongiorno!
   *[evening] Buonasera!
} Va tutto bene?
care-checkin-thanks = Bene, mi fa piacere. Le auguro una buona giornata.

## L'avviso ai contatti e la sua pagina di conferma.

care-notice-not-alarm = Questo non è un allarme di emergenza.
care-notice-check = Forse va tutto bene. Per favore, si metta in contatto con { $name }.
care-notice-subject = Avviso (non è un allarme): { $name } non ha confermato un promemoria
care-notice-missed = { $name } non ha confermato il promemoria «{ $text }» delle { $hour }:{ $mm }, anche se è arrivato { $count ->
    [one] una volta
   *[other] { $count } volte
}.
care-checkin-subject = Avviso (non è un allarme): { $name } oggi non si è fatto sentire
care-checkin-missed = { $name } oggi non si è fatto sentire entro le { $time } { $asked ->
    [yes] e non ha risposto alla domanda
   *[no] e non è stato possibile raggiungerlo
}.
care-ack-line = Se se ne occupa lei, lo dica qui: { $link }
care-board-line = I suoi residenti sul quadro dell'assistenza: { $link }
care-ack-title = Avviso (non è un allarme)
care-ack-button = Me ne occupo io
care-ack-thanks = Grazie. È annotato che se ne occupa lei.

# The text of a reminder set as an alarm clock ("Stell einen Wecker für sieben Uhr").
care-alarm-text = sveglia
