### The help function: the answers to a press, the e-mail dossier, the SMS, the spoken call and the
### acknowledgement page.

help-alerted = { $form ->
    [informal] Hilfe ist unterwegs: deine Kontaktpersonen wurden benachrichtigt.
   *[formal] Hilfe ist unterwegs: Ihre Kontaktpersonen wurden benachrichtigt.
}
help-no-recipients = { $form ->
    [informal] Deine Hilfe erreicht noch niemanden: { $cause } Ruf bitte selbst den Notruf 112 an.
   *[formal] Ihre Hilfe erreicht noch niemanden: { $cause } Rufen Sie bitte selbst den Notruf 112 an.
}
help-delivery-failed = { $form ->
    [informal] Die Benachrichtigung ist fehlgeschlagen. Ruf bitte selbst den Notruf 112 an.
   *[formal] Die Benachrichtigung ist fehlgeschlagen. Rufen Sie bitte selbst den Notruf 112 an.
}
help-cooldown-reached = { $form ->
    [informal] Der Alarm wurde vor { $minutes ->
        [one] einer Minute
       *[other] { $minutes } Minuten
    } ausgelöst und hat { $who } erreicht. Wenn es dringend ist, ruf den Notruf 112 an.
   *[formal] Der Alarm wurde vor { $minutes ->
        [one] einer Minute
       *[other] { $minutes } Minuten
    } ausgelöst und hat { $who } erreicht. Wenn es dringend ist, rufen Sie den Notruf 112 an.
}
help-cooldown-nobody = { $form ->
    [informal] Der Alarm vor { $minutes ->
        [one] einer Minute
       *[other] { $minutes } Minuten
    } hat niemanden erreicht. Ein neuer Alarm kann in { $left ->
        [one] einer Minute
       *[other] { $left } Minuten
    } gesendet werden; wer den Assistenten betreut, kann die Wartezeit früher beenden. Ruf bitte selbst den Notruf 112 an.
   *[formal] Der Alarm vor { $minutes ->
        [one] einer Minute
       *[other] { $minutes } Minuten
    } hat niemanden erreicht. Ein neuer Alarm kann in { $left ->
        [one] einer Minute
       *[other] { $left } Minuten
    } gesendet werden; wer den Assistenten betreut, kann die Wartezeit früher beenden. Rufen Sie bitte selbst den Notruf 112 an.
}
help-cooldown-sending = { $form ->
    [informal] Der Alarm wird gerade gesendet. Wenn es dringend ist, ruf den Notruf 112 an.
   *[formal] Der Alarm wird gerade gesendet. Wenn es dringend ist, rufen Sie den Notruf 112 an.
}
help-seen-by = Gesehen und bestätigt von { $who }.
help-by-email = E-Mail
help-by-sms = SMS
help-by-call = Anruf
help-subject = NOTFALL: { $name } hat { help-how } Hilfe gerufen
help-reminder-subject = ERINNERUNG – NOTFALL: niemand hat den Alarm von { $name } bisher bestätigt
help-intro = { $name } hat über den Sprachassistenten { help-how } Hilfe angefordert. Bitte melden Sie sich sofort oder schicken Sie Hilfe.
help-reminder-intro = Niemand hat diesen Alarm bisher bestätigt. { $name } hat vor { $minutes ->
        [one] einer Minute
       *[other] { $minutes } Minuten
    } über den Sprachassistenten Hilfe angefordert. Bitte melden Sie sich sofort oder schicken Sie Hilfe.
help-confirm-line = Bitte bestätigen Sie, dass Sie diesen Alarm gesehen haben: { $link }
help-name = Name
help-address = Adresse
help-phone = Telefon
help-birth-date = Geburtsdatum
help-medical-notes = Medizinische Hinweise
help-coordinates = Koordinaten
help-map = Karte
help-accuracy = Genauigkeit
help-fix-time = Zeitpunkt der Ortung
help-position-unavailable = Standort nicht verfügbar
help-position-not-shared = Standort: nicht freigegeben
help-triggered-from = Ausgelöst von
help-unknown = unbekannt
help-none = keine
help-not-reported = keine Angabe
help-mobile-device = Mobilgerät
help-computer = Computer
help-unknown-device = unbekanntes Gerät
help-call-112 = Wenn Sie nicht helfen können, rufen Sie den Notruf 112 an.
help-sms = NOTFALL: { $name } braucht Hilfe. Adresse: { $address }. Tel: { $phones }.
help-sms-reminder = ERINNERUNG, noch niemand hat bestätigt. NOTFALL: { $name } braucht Hilfe. Adresse: { $address }. Tel: { $phones }.
help-sms-location = Ort: { $link }
help-sms-confirm = Gesehen? Bestätigen: { $link }
help-call = Achtung, Notfall. { $name } hat { help-how } Hilfe gerufen. Adresse: { $address }. Einzelheiten stehen in der SMS und in der E-Mail.
help-call-reminder = Erinnerung: Niemand hat diesen Notfall bisher bestätigt.
help-call-press-1 = Drücken Sie die 1, um zu bestätigen, dass Sie den Alarm gehört haben.
help-call-thanks = Danke. { $name } sieht jetzt, dass Sie den Alarm bemerkt haben.
help-ack-title = Notfall-Alarm
help-ack-question = { $name } hat um { $time } { help-how } Hilfe gerufen.
help-ack-button = Ich habe den Alarm gesehen
help-ack-thanks = Danke. { $name } weiß jetzt, dass Sie den Alarm gesehen haben.
help-ack-hint = Bitte melden Sie sich bei { $name } oder schicken Sie Hilfe. Wenn Sie nicht helfen können, rufen Sie den Notruf 112 an.
help-path-down = Alarme per { $channels } können gerade nicht gesendet werden.
help-path-still = Alarme per { $channels } gehen weiterhin.
help-path-none = { $form ->
    [informal] Gerade kann kein Alarm gesendet werden. Ruf im Notfall bitte selbst den Notruf 112 an.
   *[formal] Gerade kann kein Alarm gesendet werden. Rufen Sie im Notfall bitte selbst den Notruf 112 an.
}
help-nobody-yet = { $form ->
    [informal] Hilfe erreicht noch niemanden – bitte eine Kontaktperson eintragen. Im Notfall ruf selbst den Notruf 112 an.
   *[formal] Hilfe erreicht noch niemanden – bitte eine Kontaktperson eintragen. Im Notfall rufen Sie selbst den Notruf 112 an.
}
help-question = { $form ->
    [informal] Soll ich deine Kontaktpersonen alarmieren? Sag bitte ja oder nein.
   *[formal] Soll ich Ihre Kontaktpersonen alarmieren? Sagen Sie bitte ja oder nein.
}
help-declined = In Ordnung, ich alarmiere niemanden.
help-again = { $form ->
    [informal] Das habe ich nicht verstanden. Soll ich deine Kontaktpersonen alarmieren? Sag bitte ja oder nein.
   *[formal] Das habe ich nicht verstanden. Soll ich Ihre Kontaktpersonen alarmieren? Sagen Sie bitte ja oder nein.
}
help-cause-no-contact = Es ist keine Kontaktperson eingetragen.
help-cause-no-channel = { $form ->
    [informal] Deine Kontaktpersonen sind eingetragen, aber der Assistent kann sie nicht erreichen: Es fehlt { $missing }.
   *[formal] Ihre Kontaktpersonen sind eingetragen, aber der Assistent kann sie nicht erreichen: Es fehlt { $missing }.
}
help-missing-mail = der E-Mail-Versand (Mailserver)
help-missing-sms = der SMS-Versand
help-missing-calls = die Anruf-Verbindung
help-nobody-channel = { $form ->
    [informal] Hilfe erreicht noch niemanden: Deine Kontaktpersonen sind eingetragen, aber es fehlt { $missing }. Sag es bitte der Person, die den Assistenten betreut. Im Notfall ruf selbst den Notruf 112 an.
   *[formal] Hilfe erreicht noch niemanden: Ihre Kontaktpersonen sind eingetragen, aber es fehlt { $missing }. Sagen Sie es bitte der Person, die den Assistenten betreut. Im Notfall rufen Sie selbst den Notruf 112 an.
}
help-last-failed = { $form ->
    [informal] Die letzte Benachrichtigung an { $who } konnte nicht zugestellt werden. Sag es bitte der Person, die den Assistenten betreut.
   *[formal] Die letzte Benachrichtigung an { $who } konnte nicht zugestellt werden. Sagen Sie es bitte der Person, die den Assistenten betreut.
}
help-confirm-unreachable = Der Link oben öffnet sich nur im Heimnetz: Dieses Gateway ist von außerhalb nicht erreichbar. Wenn Sie angerufen werden, bestätigen Sie mit der 1; sonst melden Sie sich bitte direkt bei { $name }.
help-how = { $way ->
    [spoken] per Sprache
    [typed] schriftlich
    [key] mit der Hilfe-Taste am Telefon
    [checkin] bei der täglichen Nachfrage
   *[button] mit dem Hilfe-Knopf
}

help-reaches = Ein Hilferuf erreicht jetzt { $who }.
help-reaches-by = { $who } per { $channels }
help-reaches-contacts = die Kontaktpersonen
help-reaches-carers = { $count ->
    [one] die Pflegekraft
   *[other] die Pflegekräfte
}
help-reaches-default = die Kontaktperson des Hauses
help-confirm-direct = Der Link oben öffnet sich nur im Heimnetz: Dieses Gateway ist von außerhalb nicht erreichbar. Bitte melden Sie sich direkt bei { $name }.
help-said = { $way ->
    [spoken] { $name } sagte: „{ $words }“
   *[other] { $name } schrieb: „{ $words }“
}

help-cooldown-again = Ein neuer Alarm kann in { $left ->
        [one] einer Minute
       *[other] { $left } Minuten
    } gesendet werden; wer den Assistenten betreut, kann die Wartezeit früher beenden.
