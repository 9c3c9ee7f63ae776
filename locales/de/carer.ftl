# Die Betreuungsübersicht (/carer): wer Sie zuerst braucht, steht oben.
carer-title = Betreuung
carer-assistant = Assistent
carer-none = Noch niemand ist Ihnen zugeordnet. Eine Administratorin trägt Sie als betreuende Person ein.
carer-alarm = Hat um { $time } um Hilfe gerufen; noch kümmert sich niemand
carer-looked = Hat um { $time } um Hilfe gerufen; { $who } kümmert sich
carer-checkin = Hat sich heute noch nicht gemeldet (fällig { $time })
carer-missed = { $count ->
        [one] 1 Erinnerung nicht bestätigt
       *[other] { $count } Erinnerungen nicht bestätigt
    }
carer-soon = Erinnerung um { $time }
carer-well = Alles in Ordnung
carer-acknowledge = Ich kümmere mich
carer-acknowledged = Sie kümmern sich um den Hilferuf von { $name }.
