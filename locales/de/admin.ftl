### Das Verwaltungsfeld: was die Person liest, die das Gateway betreibt.

## Die Beschriftungen

admin-login-name = Anmeldename
admin-shown-name = Name, wie ihn die Leute sehen
admin-display-name = Anzeigename
admin-language = Sprache
admin-web-searches-per-day-0-unlimited = Websuchen pro Tag (0 = unbegrenzt)
admin-requests-per-day-empty-global = Anfragen pro Tag (leer = global)
admin-alarm-cooldown-minutes-empty-global-0 = Sperrzeit nach einem Alarm in Minuten (leer = global, 0 = aus)
admin-patience-at-pauses-auto-learned-from = Geduld bei Pausen (auto = aus den Pausen der Person gelernt; quick, normal, patient oder ms von 200 bis 5000)
admin-full-name = Vollständiger Name
admin-street = Straße
admin-postal-code = Postleitzahl
admin-city = Ort
admin-mobile = Mobiltelefon
admin-landline-or-handset-in-the-house = Festnetz oder Mobilteil im Haus
admin-birth-date = Geburtsdatum
admin-medical-notes = Medizinische Hinweise
admin-contact-e-mails-comma-separated = E-Mail-Adressen der Kontaktpersonen (durch Kommas getrennt)
admin-contact-phones-comma-separated = Telefonnummern der Kontaktpersonen (durch Kommas getrennt)
admin-daily-check-in-window = Zeitfenster der täglichen Nachfrage
admin-away-until = Abwesend bis
admin-home-assistant-satellite = Home-Assistant-Satellit
admin-reach-by-in-order-page-house = Erreichen über, der Reihe nach (page, house_line, phone, home_assistant; leer = die Seite, sonst das Mobilteil, sonst das Mobiltelefon)
admin-what = Was
admin-when = Wann
admin-repeat = Wiederholen
admin-backend = Backend
admin-model = Modell
admin-section = Abschnitt
admin-written = Geschrieben
admin-spoken = Gesprochen
admin-admin = Admin
admin-web-search = Websuche
admin-may-send-the-location = Darf den Standort senden
admin-users = Personen
admin-create-user = Person anlegen
admin-languages = Sprachen
admin-pace = Tempo
admin-actions = Aktionen
admin-allowed-languages = Erlaubte Sprachen
admin-emergency-profile = Notfallprofil
admin-care = Betreuung
admin-save-preferences = Einstellungen speichern
admin-add-memories = Dinge zum Merken hinzufügen
admin-reminders = Erinnerungen
admin-set-reminder = Erinnerung setzen
admin-check-in-and-care-log = Nachfrage und Betreuungsprotokoll
admin-channel = Kanal
admin-status = Status
admin-detail = Einzelheiten
admin-runtime-settings = Laufzeit-Einstellungen
admin-key = Schlüssel
admin-effective = Wirksam
admin-override = Überschreiben
admin-language-model = Sprachmodell
admin-switch-backend = Backend wechseln
admin-restart-the-gateway = Gateway neu starten
admin-pronunciation-lexicon = Aussprache-Lexikon
admin-save-entry = Eintrag speichern
admin-source = Quelle
admin-emergency-events = Notfälle
admin-time = Zeit
admin-category = Kategorie
admin-user = Person
admin-confirmed-by = Bestätigt von
admin-provider-health = Zustand der Anbieter
admin-stage = Stufe
admin-provider = Anbieter
admin-state = Zustand
admin-last-error = Letzter Fehler
admin-since = Seit
admin-median-p90-ms = Median / p90 ms
admin-errors-last-hour = Fehler (letzte Stunde)
admin-latency = Wartezeiten
admin-stage-last-day = Stufe (letzter Tag)
admin-median-ms = Median ms
admin-p90-ms = p90 ms
admin-usage = Nutzung
admin-requests-today = Anfragen heute
admin-this-month = Diesen Monat
admin-cost-this-month = Kosten diesen Monat
admin-per-request = Pro Anfrage
admin-total-cost = Kosten gesamt
admin-conversations = Gespräche
admin-live-log = Live-Protokoll
admin-once = einmal
admin-every-day = täglich
admin-every-weekday = werktags
admin-preset-memories-one-per-line = Was sich der Assistent von Anfang an merkt (eines pro Zeile)
admin-conversation = Gespräch
admin-administration = Verwaltung
admin-assistant = Assistent

## Was das Feld bei der Arbeit sagt

admin-done = erledigt
admin-token-of = Token von { $name } (nur jetzt sichtbar, bitte gleich kopieren):
admin-personal-link = Persönlicher Link:
admin-qr-alt = QR-Code des persönlichen Links von { $name }: mit dem Telefon der Person scannen
admin-hide = Ausblenden
admin-edit = Bearbeiten
admin-edit-who = { $name } bearbeiten
admin-rename = Umbenennen
admin-rename-who = { $name } umbenennen
admin-new-token = Neues Token
admin-new-token-for = Neues Token für { $name }
admin-replace-tokens = Alle Tokens von { $name } ersetzen? Alte Links funktionieren dann nicht mehr.
admin-remove-admin = Adminrechte entziehen
admin-make-admin = Zum Admin machen
admin-delete = Löschen
admin-delete-who = { $name } löschen
admin-delete-confirm = { $name } mit allen Daten löschen?
admin-pace-learned = { $ms } ms, gelernt ({ $joined } zusammengeführt)
admin-pace-set = { $ms } ms ({ $setting })
admin-yes = ja
admin-on = an
admin-off = aus
admin-preferences-of = Einstellungen von { $name }
admin-checkin-plan = Nachfrage { $window } ({ $zone }), nächstes Zeitfenster endet { $ends }, { $state }
admin-not-planned = nicht geplant
admin-away-until-date = abwesend bis { $date }
admin-last-sign-of-life = letztes Lebenszeichen { $at }
admin-no-checkin = Keine tägliche Nachfrage.
admin-cancel = Absagen
admin-cancel-reminder = Erinnerung { $text } absagen
admin-cancel-reminder-confirm = Erinnerung „{ $text }“ absagen? Sie wird nicht mehr gebracht.
admin-no-reminders = Keine Erinnerungen.
admin-set = Setzen
admin-reset = Zurücksetzen
admin-answers-in = { $model } antwortet auf: { $languages }
admin-stage-end-of-turn = Ende der Äußerung
admin-stage-transcription = Endgültige Transkription
admin-stage-first-token = Erstes Token
admin-stage-first-sentence = Erster Satz
admin-stage-first-audio = Erstes Audio
admin-chart-label = Median der Wartezeit je Stufe, Stunde für Stunde; langsamste Stufe: { $stage }
admin-none-yet = noch keine
admin-chart-p90 = ein Strich markiert das p90 der ganzen Wartezeit
admin-no-turns = Kein Sprachdialog am letzten Tag.
admin-turns-summary = { $turns ->
        [one] 1 Sprachdialog
       *[other] { $turns } Sprachdialoge
    } am letzten Tag. Vom letzten Wort bis zum ersten Ton der Antwort: Median { $median } ms, p90 { $p90 } ms. Langsamste Stufe: { $stage }.
admin-whole-wait = Ganze Wartezeit
admin-working = funktioniert
admin-failing = gestört
admin-failing-skipped = gestört: übersprungen
admin-failing-retried = gestört: wird erneut versucht
admin-not-tried = noch nicht versucht
admin-not-reached = noch nicht erreicht
admin-tried-again-in = (neuer Versuch in { $seconds } s)
admin-check-now = Jetzt prüfen
admin-check-now-of = Jetzt prüfen: { $what }
admin-ended-no-audio = kein Ton
admin-ended-no-ack = Annahme nie bestätigt
admin-ended-session-expired = Sitzung nicht erneuert
admin-calls-ended = { $calls ->
        [one] 1 Anruf
       *[other] { $calls } Anrufe
    } beendet, die Gegenseite war weg (zuletzt: { $reason })
admin-help-reaches-nobody = Hilfe erreicht niemanden für: { $who }.
admin-links-unset = Hilfe: PUBLIC_URL ist nicht gesetzt, Kontaktpersonen können die Bestätigungslinks in Alarmen vielleicht nicht öffnen (sie zeigen auf { $address } oder die Adresse des Drückens). Bitte PUBLIC_URL setzen.
admin-links-local = Hilfe: PUBLIC_URL { $address } ist nur auf diesem Gerät erreichbar; keine Kontaktperson kann die Bestätigungslinks öffnen. Bitte PUBLIC_URL auf die Adresse setzen, unter der Kontaktpersonen das Gateway erreichen.
admin-alarms-cannot = Alarme können gerade nicht per { $id } gesendet werden: { $error }.
admin-care-notices-failing = { $count ->
    [one] Ein Pflege-Hinweis an Kontaktpersonen konnte wiederholt nicht gesendet werden und wird weiter versucht
   *[other] { $count } Pflege-Hinweise an Kontaktpersonen konnten wiederholt nicht gesendet werden und werden weiter versucht
}: { $error }
admin-telephone = Telefon
admin-telephone-calls = Telefonanrufe
admin-sip-refused = SIP-Verbindungen abgewiesen: { $list }
admin-sip-refused-one = { $address } { $count } ({ $why ->
        [address] über ihrem Anteil
       *[door] alle Plätze belegt
    })
admin-call-outcomes = { $hung_up } vom Anrufer aufgelegt, { $ended } vom Gateway beendet{ $ended_reason }, { $refused } abgewiesen{ $refused_reason }, { $failed } fehlgeschlagen
admin-last-reason = {" "}(zuletzt: { $reason })
admin-task-failures = { $failures ->
        [one] 1 Aufgabe fehlgeschlagen
       *[other] { $failures } Aufgaben fehlgeschlagen
    }, jeder Anruf wie bei einem Auflegen beendet (zuletzt: { $reason })
admin-not-tried-list = Noch nicht versucht (kein Aufruf und keine Prüfung hat sie erreicht): { $list }.
admin-providers-answer = Die eingerichteten Anbieter antworten.
admin-every-provider-works = Alle eingerichteten Anbieter funktionieren.
admin-failing-list = Gestört: { $list }.
admin-addresses-waiting = Zu viele falsche Anmeldungen, wartet: { $list }.
admin-error-rate = { $percent } % von { $calls }
admin-total = Gesamt
admin-estimated = ({ $amount } geschätzt)
admin-conversations-of = { $name } ({ $count } Gespräche)
admin-default = (Standard)
admin-restart-confirm = Das Gateway jetzt neu starten? Laufende Gespräche werden abgebrochen.
admin-ready = Bereit.
admin-error = Fehler

## Die Nachricht an den Betreiber, wenn ein Weg der Hilfe ausfällt oder wieder geht.

admin-notice-subject = voice-gateway: Der Weg der Hilfe hat sich geändert
admin-notice = voice-gateway { $instance }: Der Weg der Hilfe hat sich geändert: { $changes }. Siehe „Zustand der Anbieter“ im Admin-Bereich.
admin-notice-fails = { $channel } FÄLLT AUS: { $error }
admin-notice-works = { $channel } geht wieder
admin-help-person = { $name }: { $cause }
admin-help-cause = { $cause ->
    [no_contact] keine Kontaktperson eingetragen (Benutzer, Notfallkontakte)
    [no_channel] Kontaktpersonen eingetragen, aber kein Weg erreicht sie: { $missing } einrichten
    [channels_failing] jeder ihrer Wege besteht die Prüfung nicht ({ $channels })
    [some_failing] { $channels } bestehen die Prüfung nicht
    [last_delivery_failed] ihr letzter Alarm hat { $contacts } nicht erreicht
   *[none] Hilfe erreicht sie
}
admin-missing-mail_relay = den Mailserver (SMTP_HOST)
admin-missing-sms = SMS (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER)
admin-missing-calls = Anrufe (Twilio, oder die Hauslinie für ihre eigenen Nummern)
admin-help-last-press = ihr letzter Hilferuf hat niemanden erreicht
admin-help-end-wait = Wartezeit beenden (noch { $minutes } Min.), damit der nächste Hilferuf sofort sendet
admin-help-end-wait-done = Wartezeit von { $name } beendet
# After a press, while the person's cooldown window is open: $minutes left.
admin-help-window = ein Alarm hält den nächsten noch { $minutes } Min. zurück

## Die Pflegeansichten: Zeitzone, Erinnerungen, Nachfrage und Pflegeprotokoll einer Person.

admin-time-zone = Zeitzone (leer = die des Gateways)
admin-in-zone = { $time } ({ $zone })
admin-placeholder-mobile = +49…
admin-placeholder-landline = +49… oder 611
admin-placeholder-checkin-window = 08:00-10:00
admin-placeholder-satellite = assist_satellite.kueche
admin-reminder-state = { $state ->
    [scheduled] geplant
    [delivering] zugestellt, noch nicht bestätigt
    [confirmed] bestätigt
    [missed] versäumt
    [done] erledigt
    [cancelled] gelöscht
   *[other] { $state }
}
admin-checkin-state = { $state ->
    [waiting] wartet auf das Ende des Zeitfensters
    [calling] fragt die Person
   *[other] { $state }
}
admin-reminder-line = { $when } { $text }{ $repeat }: { $state }
admin-reminder-last = , zuletzt: { $channel }, { $status }
admin-care-what = { $what ->
    [reminder] Erinnerung: { $text }
    [checkin] tägliche Nachfrage
    [notice] Pflegehinweis
    [alarm] Hilferuf
   *[other] { $what }
}
admin-care-channel = { $channel ->
    [page] Seite
    [house_line] Mobilteil im Haus
    [phone] Mobiltelefon
    [home_assistant] Home Assistant
    [mail] E-Mail
    [sms] SMS
    [api] Knopf auf der Seite
    [said] gesagt
    [link] Link
    [carer] Betreuer
    [admin] Administration
    [none] –
   *[other] { $channel }
}
admin-care-status = { $status ->
    [delivered] zugestellt
    [unreachable] nicht erreicht
    [held] zurückgehalten
    [failed] fehlgeschlagen
    [confirmed] bestätigt
    [answered] beantwortet
    [ok] alles gut
    [away] verreist
    [missed] versäumt
    [sent] gesendet
    [expired] aufgegeben
    [no_contacts] niemand zu benachrichtigen
    [acknowledged] kümmert sich
    [told] später gesagt
    [set] geändert
   *[other] { $status }
}
admin-note-quiet-hours = Ruhezeit
admin-note-no-channel = kein Weg: keine Seite offen und keine interne Nummer
admin-note-no-page-open = keine Seite und keine Sprachverbindung offen
admin-note-not-shown = { $count ->
    [one] 1 Verbindung hat sie erhalten, aber nicht binnen { $seconds } s angezeigt
   *[other] { $count } Verbindungen haben sie erhalten, keine hat sie binnen { $seconds } s angezeigt
}
admin-note-connections = { $count ->
    [one] 1 Verbindung
   *[other] { $count } Verbindungen
}
admin-note-no-landline = keine Festnetz- oder Mobilteilnummer
admin-note-answered-at = abgenommen an { $number }
admin-note-call-slow = der Anruf kam nicht rechtzeitig zustande
admin-note-no-satellite = kein Home-Assistant-Satellit
admin-note-announced = angesagt auf { $entity }
admin-note-no-mobile = keine Mobilnummer
admin-note-called-mobile = { $number } über Twilio angerufen
admin-note-twilio-slow = Twilio hat nicht rechtzeitig geantwortet
admin-note-sign-of-life = ein Lebenszeichen um { $clock } Uhr
admin-note-away-until = verreist bis { $date }
admin-note-down-at-window-end = das Gateway lief nicht, als das Zeitfenster um { $clock } Uhr endete
admin-note-no-answer = { $count ->
    [one] keine Antwort auf 1 Frage
   *[other] keine Antwort auf { $count } Fragen
}
admin-note-not-confirmed = { $count ->
    [one] nach 1 Zustellung nicht bestätigt
   *[other] nach { $count } Zustellungen nicht bestätigt
}
admin-note-late-while-down = { $minutes } Minuten zu spät: das Gateway lief nicht
admin-note-no-mail-contact = die Person hat keinen E-Mail-Kontakt
admin-note-by-carer = durch { $carer }
admin-note-by-admin = durch { $admin }
# Die Betreuer einer Person und was ihnen gesagt wird (im Bearbeiten-Teil).
admin-carers = Betreuer
admin-carers-names = Betreuer (Benutzernamen, durch Kommas getrennt; sie sehen die Betreuung dieser Person auf ihrer Übersicht)
admin-notify-carers = Betreuer erfahren, was die Kontakte erfahren
admin-share-with-carers = Betreuer dürfen die Liste der Gespräche sehen (nie, was gesagt wurde)
admin-own-email = Eigene E-Mail (als Betreuer: Hinweise und die tägliche Zusammenfassung)
admin-summary-at = Tägliche Zusammenfassung um (als Betreuer; leer = keine)
admin-carers-unknown = Keinen Benutzer { $names } gefunden; die Betreuer wurden nicht geändert

# Fehler des Gateways in der Sprache der Lesenden: nach dem Feld, sonst nach dem Code (die Meldung der API
# bleibt Englisch für Betreiber).
admin-error-invalid_request = Ein Wert ist nicht gültig{ $field ->
        [none] .
       *[other] : { $field }.
    }
admin-error-conflict = Das gibt es schon, oder es wurde inzwischen geändert.
admin-error-not_found = Das gibt es nicht (mehr).
admin-error-forbidden = Dafür fehlt Ihnen die Berechtigung.
admin-error-unauthorized = Bitte melden Sie sich an.
admin-error-too_many_attempts = Zu viele Fehlversuche von hier; bitte warten Sie einen Moment.
admin-error-quota_exceeded = Das Kontingent für heute ist aufgebraucht.
admin-error-busy = Das läuft schon; bitte warten Sie, bis es fertig ist.
admin-error-payload_too_large = Das ist zu groß.
admin-error-provider_failed = Ein Dienst antwortet nicht.
admin-error-overloaded = Das Gateway ist gerade ausgelastet; bitte gleich noch einmal.
admin-error-internal = Ein Fehler im Gateway; Einzelheiten stehen im Protokoll.
admin-invalid-name = Anmeldename: 1 bis 64 Buchstaben, Ziffern oder . _ - @, ohne Leerzeichen (oder leer lassen, dann wird er aus dem Namen gebildet).
admin-invalid-display_name = Name: höchstens 100 Zeichen in einer Zeile.
admin-invalid-emergency_contacts = Kontaktpersonen: E-Mail-Adressen, durch Kommas getrennt (z. B. tochter@beispiel.de).
admin-invalid-emergency_contact_phones = Telefonnummern der Kontakte: international (+4930123456) oder eine interne Nummer (**611), durch Kommas getrennt.
admin-invalid-phone_mobile = Mobilnummer: international (+491701234567).
admin-invalid-phone_landline = Festnetz: international (+4930123456) oder eine interne Nummer (**611).
admin-invalid-birth_date = Geburtsdatum: Jahr-Monat-Tag, z. B. 1941-03-15.
admin-invalid-email = E-Mail: keine gültige Adresse (z. B. anna@beispiel.de).
admin-invalid-carer_summary_at = Zusammenfassung um: eine Uhrzeit wie 18:00, oder leer.
admin-invalid-reminder_time = Uhrzeit für Erinnerungen: eine Uhrzeit wie 09:00, oder leer.
admin-invalid-checkin_window = Nachfragen: ein Zeitfenster wie 08:00-10:00, oder leer.
admin-invalid-window = Nachfragen: ein Zeitfenster wie 08:00-10:00, oder leer.
admin-invalid-away_until = Abwesend bis: ein Datum, oder leer.
admin-invalid-timezone = Zeitzone: ein Name wie Europe/Berlin.
admin-invalid-time_zone = Zeitzone: ein Name wie Europe/Berlin.
admin-invalid-full_name = Vollständiger Name: zu lang oder mehrzeilig.
admin-invalid-street = Straße: zu lang oder mehrzeilig.
admin-invalid-postal_code = Postleitzahl: zu lang oder mehrzeilig.
admin-invalid-city = Ort: zu lang oder mehrzeilig.
admin-invalid-medical_notes = Medizinische Hinweise: zu lang.
admin-invalid-turn_patience = Geduld: auto, quick, normal, patient oder Millisekunden von 200 bis 5000.
admin-invalid-emergency_cooldown_minutes = Wartezeit nach einem Hilferuf: ganze Minuten von 0 bis 60, oder leer.
admin-invalid-daily_request_limit = Anfragen pro Tag: eine ganze Zahl ab 0.
admin-invalid-web_search_daily_limit = Websuchen pro Tag: eine ganze Zahl ab 0.
admin-invalid-carers = Betreuende: nur angelegte Personen, und niemand betreut sich selbst.
admin-invalid-text = Text: darf nicht leer sein.
admin-invalid-due_at = Zeitpunkt: Datum und Uhrzeit in der Zukunft.
admin-invalid-repeat = Wiederholung: täglich, werktags oder wöchentlich; ein Timer wiederholt sich nicht.
admin-invalid-reminder_via = Erinnern über: page, house_line, phone oder home_assistant, durch Kommas getrennt.
