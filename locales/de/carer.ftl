# Die Betreuungsübersicht (/carer): wer Sie zuerst braucht, steht oben.
carer-title = Betreuung
carer-assistant = Assistent
carer-none = Noch niemand ist Ihnen zugeordnet. Eine Administratorin trägt Sie als betreuende Person ein.
carer-alarm = Hat um { $time } um Hilfe gerufen; noch kümmert sich niemand
carer-looked = Hat um { $time } um Hilfe gerufen; { $who } kümmert sich
carer-checkin = Hat sich heute noch nicht gemeldet (fällig { $time })
carer-checkin-missed = Hat sich bis { $time } nicht gemeldet; noch kümmert sich niemand
carer-checkin-looked = Hat sich bis { $time } nicht gemeldet; { $who } kümmert sich
carer-acknowledged-checkin = Sie kümmern sich darum, dass { $name } sich nicht gemeldet hat.
carer-missed = { $count ->
        [one] 1 Erinnerung nicht bestätigt
       *[other] { $count } Erinnerungen nicht bestätigt
    }
carer-soon = Erinnerung um { $time }
carer-well = Alles in Ordnung
carer-acknowledge = Ich kümmere mich
carer-acknowledged-alarm = Sie kümmern sich um den Hilferuf von { $name }.
carer-acknowledged-notice = Sie kümmern sich um den Hinweis zu { $name }.
carer-notice = Die Kontakte wurden um { $time } benachrichtigt: { $about }
carer-call = { $name } anrufen
# Die tägliche Zusammenfassung für Betreuende (carer_summary_at).
carer-summary-subject = Ihre Bewohner heute, { $date }
carer-summary-intro = So ist der Tag für die Menschen in Ihrer Betreuung verlaufen: oben, wer Sie braucht, darunter, um wen sich schon jemand gekümmert hat:
carer-summary-alarm = hat um { $time } um Hilfe gerufen
carer-summary-answered = hat sich beim täglichen Nachfragen gemeldet
carer-summary-silent = hat sich beim täglichen Nachfragen nicht gemeldet
carer-summary-confirmed = { $count ->
        [one] 1 Erinnerung bestätigt
       *[other] { $count } Erinnerungen bestätigt
    }
carer-summary-confirmed-by-carers = { $count ->
        [one] 1 Erinnerung von der Pflege bestätigt
       *[other] { $count } Erinnerungen von der Pflege bestätigt
    }
carer-summary-open = noch hat sich niemand darum gekümmert
carer-summary-looked-after = darum gekümmert hat sich: { $names }
carer-summary-quiet = nichts Besonderes
carer-day = Der letzte Tag
carer-day-quiet = Nichts am letzten Tag.
carer-day-alarm = Hilferuf: { $status ->
        [alerted] Kontakte benachrichtigt
        [no_recipients] niemand zu benachrichtigen
        [delivery_failed] Benachrichtigung fehlgeschlagen
       *[other] wird gesendet
    }
carer-day-alarm-open = noch kümmert sich niemand
carer-day-alarm-looked = { $who } kümmert sich
carer-mine = Meine E-Mail und die tägliche Zusammenfassung
carer-email = E-Mail (Hinweise, Hilferufe, die Zusammenfassung)
carer-summary-time = Tägliche Zusammenfassung um (leer = keine)
carer-save = Speichern
carer-mine-saved = Gespeichert.
carer-window = Zeitfenster der täglichen Nachfrage
carer-away-until = Abwesend bis
carer-time-zone = Zeitzone
carer-plan-saved = Die Nachfrage für { $name } ist gespeichert.
