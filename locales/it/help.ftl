### The help function: the answers to a press, the e-mail dossier, the SMS, the spoken call and the
### acknowledgement page.

help-alerted = L'aiuto è in arrivo: i suoi contatti sono stati avvisati.
help-no-recipients = La sua richiesta di aiuto non raggiunge ancora nessuno: { $cause } Per favore, chiami direttamente il numero di emergenza 112.
help-delivery-failed = L'invio dell'avviso non è riuscito. Per favore, chiami direttamente il numero di emergenza 112.
help-cooldown-reached = L'allarme è stato attivato { $minutes } minuti fa e ha raggiunto { $who }. Se è urgente, chiami il numero di emergenza 112.
help-cooldown-nobody = L'allarme di { $minutes } minuti fa non ha raggiunto nessuno. Un nuovo allarme potrà essere inviato tra { $left ->
        [one] un minuto
       *[other] { $left } minuti
    }; chi si occupa dell'assistente può terminare prima questa attesa. Per favore, chiami direttamente il numero di emergenza 112.
help-cooldown-sending = L'allarme è in fase di invio proprio ora. Se è urgente, chiami il numero di emergenza 112.
help-seen-by = Visto e confermato da { $who }.
help-by-email = e-mail
help-by-sms = SMS
help-by-call = chiamata
help-subject = EMERGENZA: { $name } ha chiesto aiuto { help-how }
help-reminder-subject = PROMEMORIA – EMERGENZA: nessuno ha ancora confermato l'allarme di { $name }
help-intro = { $name } ha chiesto aiuto tramite l'assistente vocale, { help-how }. Per favore, si metta subito in contatto o mandi aiuto.
help-reminder-intro = Nessuno ha ancora confermato questo allarme. { $name } ha chiesto aiuto { $minutes } minuti fa tramite l'assistente vocale. Per favore, si metta subito in contatto o mandi aiuto.
help-confirm-line = Per favore, confermi di aver visto questo allarme: { $link }
help-name = Nome
help-address = Indirizzo
help-phone = Telefono
help-birth-date = Data di nascita
help-medical-notes = Note mediche
help-coordinates = Coordinate
help-map = Mappa
help-accuracy = Precisione
help-fix-time = Ora della localizzazione
help-position-unavailable = Posizione non disponibile
help-position-not-shared = Posizione: non condivisa (nessun consenso)
help-triggered-from = Attivato da
help-unknown = sconosciuto
help-none = nessuna
help-not-reported = non indicato
help-mobile-device = dispositivo mobile
help-computer = computer
help-unknown-device = dispositivo sconosciuto
help-call-112 = Se non può aiutare, chiami il numero di emergenza 112.
help-sms = EMERGENZA: { $name } ha bisogno di aiuto. Indirizzo: { $address }. Tel: { $phones }.
help-sms-reminder = PROMEMORIA, nessuno ha ancora confermato. EMERGENZA: { $name } ha bisogno di aiuto. Indirizzo: { $address }. Tel: { $phones }.
help-sms-location = Posizione: { $link }
help-sms-confirm = Visto? Confermi: { $link }
help-call = Attenzione, emergenza. { $name } ha chiesto aiuto { help-how }. Indirizzo: { $address }. I dettagli sono nell'SMS e nell'e-mail.
help-call-reminder = Promemoria: nessuno ha ancora confermato questa emergenza.
help-call-press-1 = Prema 1 per confermare di aver ricevuto questo allarme.
help-call-thanks = Grazie. Ora { $name } può vedere che Lei ha ricevuto l'allarme.
help-ack-title = Allarme di emergenza
help-ack-question = { $name } ha chiesto aiuto { help-how } alle { $time }.
help-ack-button = Ho visto l'allarme
help-ack-thanks = Grazie. Ora { $name } sa che Lei ha visto l'allarme.
help-ack-hint = Per favore, si metta in contatto con { $name } o mandi aiuto. Se non può aiutare, chiami il numero di emergenza 112.
help-path-down = Gli avvisi via { $channels } non possono essere inviati in questo momento.
help-path-still = Gli avvisi via { $channels } funzionano ancora.
help-path-none = Al momento non si può inviare nessun avviso. In caso di emergenza, per favore, chiami direttamente il numero di emergenza 112.
help-nobody-yet = L'aiuto non raggiunge ancora nessuno: aggiunga un contatto. In caso di emergenza chiami lei stesso il 112.
help-question = Devo avvisare i suoi contatti? Dica sì o no.
help-declined = Va bene, non avviso nessuno.
help-again = Non ho capito. Devo avvisare i suoi contatti? Dica sì o no.
help-cause-no-contact = Non è registrata nessuna persona di contatto.
help-cause-no-channel = I suoi contatti sono registrati, ma l'assistente non può raggiungerli: manca { $missing }.
help-missing-mail = l'invio di e-mail (server di posta)
help-missing-sms = l'invio di SMS
help-missing-calls = le chiamate telefoniche
help-nobody-channel = L'aiuto non raggiunge ancora nessuno: i suoi contatti sono registrati, ma manca { $missing }. Lo dica a chi si occupa dell'assistente. In caso di emergenza chiami lei stesso il 112.
help-last-failed = L'ultimo allarme non è stato consegnato a { $who }. Lo dica a chi si occupa dell'assistente.
help-confirm-unreachable = Il link qui sopra si apre solo a casa: questo gateway non è raggiungibile dall'esterno. Se riceve una chiamata, prema 1 per confermare; altrimenti contatti direttamente { $name }.
help-how = { $way ->
    [spoken] a voce
    [typed] per iscritto
    [key] con il tasto di aiuto del telefono
    [checkin] durante il controllo quotidiano
   *[button] con il pulsante di aiuto
}

help-reaches = Una richiesta di aiuto raggiunge ora { $who }.
help-reaches-by = { $who } via { $channels }
help-reaches-contacts = i contatti
help-reaches-carers = { $count ->
    [one] l'assistente
   *[other] gli assistenti
}
help-reaches-default = il contatto della casa
help-confirm-direct = Il link qui sopra si apre solo a casa: questo gateway non è raggiungibile dall'esterno. Contatti direttamente { $name }.
help-said = { $way ->
    [spoken] { $name } ha detto: «{ $words }»
   *[other] { $name } ha scritto: «{ $words }»
}

help-cooldown-again = Un nuovo allarme potrà essere inviato tra { $left ->
        [one] un minuto
       *[other] { $left } minuti
    }; chi si occupa dell’assistente può terminare prima questa attesa.
