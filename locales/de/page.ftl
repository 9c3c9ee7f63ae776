### The page's labels and messages (the assistant's page in the browser).

page-settings = Einstellungen
page-device-speech-hint = Antworten mit der Stimme dieses Geräts
page-large-text = Große Schrift
page-pace = Wenn ich Pausen mache
page-pace-auto = Mein Tempo lernen
page-pace-quick = Schnell antworten
page-pace-normal = Kurz warten
page-pace-patient = Auf mich warten
page-auto-voice = Automatisch: { $voice }
page-auto-voice-plain = Automatisch
page-needs-https = Das Mikrofon funktioniert nur unter der sicheren Adresse.
page-open-secure = Sichere Adresse öffnen
page-trust-device = Zuerst dieses Gerät einrichten
page-needs-tls = Das Mikrofon funktioniert nur unter einer sicheren Adresse (https), die dieser Assistent noch nicht anbietet. Bitten Sie die Person, die ihn betreibt, HTTPS einzuschalten (die Einstellung TLS=auto).
page-mic-denied = Sie haben das Mikrofon nicht erlaubt. Erlauben Sie es in den Website-Einstellungen des Browsers (das Symbol neben der Adresse) und drücken Sie dann erneut auf Sprechen.
page-language = Sprache
page-voice = Stimme
page-device-speech = Auf diesem Gerät sprechen
page-logout = Abmelden
page-question = Ihre Frage
page-type-here = Frage eintippen
page-send = Senden
page-speak = Sprechen
page-stop = Stopp
page-new-conversation = Neues Gespräch
page-delete-conversation = Gespräch löschen
page-memories = Was sich der Assistent merkt
page-add-memory = Hinzufügen
page-new-memory = Etwas zum Merken
page-help = Hilfe
page-help-confirm = Jetzt Hilfe rufen? Ihre Kontaktpersonen werden alarmiert.
page-help-confirm-unreachable = Rufen Sie im Notfall bitte selbst den Notruf 112 an: Ihre Hilfe erreicht gerade niemanden. Trotzdem alarmieren?
page-help-yes = Ja, alarmieren
page-cancel = Abbrechen
page-sending = Alarm wird gesendet…
page-listening = Ich höre zu… sprechen Sie einfach.
page-thinking = Einen Moment…
page-heard = Sie sagten
page-ready = Bereit.
page-quota = Das Tageslimit ist erreicht. Um Mitternacht geht es weiter.
page-provider-failed = Der Assistent kann gerade nicht antworten. Bitte gleich noch einmal versuchen.
page-busy = Der Assistent ist gerade ausgelastet. Bitte gleich noch einmal versuchen.
page-not-heard = Es war nichts zu hören. Bitte noch einmal sagen.
page-too-long = Das war zu lang am Stück. Bitte noch einmal sagen, in kürzeren Sätzen.
page-lost = Die Verbindung ist unterbrochen. Neuer Versuch…
page-offline-since = Keine Verbindung seit { $time } – Angaben können veraltet sein
page-reconnected = Wieder verbunden.
page-no-mic = Das Mikrofon kann hier nicht benutzt werden. Bitte erlauben oder die Frage eintippen.
page-sources = Quellen
page-cooldown = Der Alarm wurde gerade erst ausgelöst.
page-confirm-delete = Dieses Gespräch löschen?
page-seen-by = Gesehen und bestätigt von { $who }.
page-error = Etwas ist schiefgegangen
page-guest = Gast
page-admin = Verwaltung
page-reminders = Erinnerungen
page-reminder = Erinnerung
page-reminder-done = Erledigt
page-reminder-ok = OK
page-reminder-delete = Löschen
page-timer-over = Die Zeit ist um.
page-no-reminders = Keine Erinnerungen.
page-checkin-title = Tägliche Nachfrage
page-checkin-question = Ist bei Ihnen alles in Ordnung?
page-checkin-fine = Mir geht es gut
page-checkin-help = Ich brauche Hilfe
page-reminder-missed = Verpasst, während der Assistent nicht lief

page-signin-switch = Sie sind in diesem Browser als { $current } angemeldet. Als { $new } fortfahren?
page-signin-switch-yes = Als { $new } fortfahren
page-signin-switch-no = Als { $current } bleiben
page-signin-invalid-link = Dieser persönliche Link gilt nicht (mehr). Bitten Sie um einen neuen.
page-signin-no-access = Sie haben noch keinen persönlichen Zugang.
page-signin-button = Anmelden
page-signin-api = Die API ist unter <a href="/openapi.json">/openapi.json</a> beschrieben.
page-signin-not-admin = Das Verwaltungsfeld ist für die Menschen, die voice-gateway betreiben, und Sie sind als jemand anderes angemeldet. <a href="/">Zurück zum Assistenten</a>. Wenn Sie es betreiben, öffnen Sie Ihren eigenen Admin-Link (in <code>admin-link.txt</code> neben der Datenbank) einmal in diesem Browser.
page-signin-insecure-link = Mit diesem persönlichen Link können Sie sich unter dieser Adresse nicht anmelden: Browser behalten die Anmeldung nur unter einer sicheren Adresse (https) oder auf dem Rechner des Gateways selbst, und diese Adresse ist einfaches http. Bitten Sie die Person, die voice-gateway betreibt, HTTPS einzuschalten (die Einstellung <code>TLS=auto</code>, erklärt unter „Phones and tablets“ in der README), und öffnen Sie Ihren Link dann unter der https-Adresse, die dort genannt wird. Das Mikrofon braucht diese Adresse ebenfalls.
page-signin-how = Die Anmeldung mit Namen braucht einen Single-Sign-on-Proxy vor voice-gateway, und diese Installation hat keinen. Stattdessen hat jede Person einen persönlichen Link (er endet auf <code>/?k=</code> und einen langen Code): Bitten Sie die Person, die voice-gateway betreibt, um Ihren und öffnen Sie ihn einmal auf jedem Ihrer Geräte; sie bleiben angemeldet. Wer es betreibt, findet den eigenen Link in <code>admin-link.txt</code> neben der Datenbank und erstellt Links für andere im Verwaltungsfeld.
page-cared-for-by = Betreut von { $names }
page-notify-carers = Auch meine Betreuer benachrichtigen, wenn ich um Hilfe rufe oder eine Erinnerung nicht bestätige
page-share-with-carers = Meine Betreuer dürfen die Liste meiner Gespräche sehen (nie, was gesagt wurde)
