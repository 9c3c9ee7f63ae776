### The page's labels and messages (the assistant's page in the browser).

page-settings = Impostazioni
page-device-speech-hint = Risposte con la voce di questo dispositivo
page-large-text = Testo grande
page-pace = Quando faccio una pausa
page-pace-auto = Imparare il mio ritmo
page-pace-quick = Rispondere subito
page-pace-normal = Aspettare un attimo
page-pace-patient = Aspettarmi
page-auto-voice = Automatica: { $voice }
page-auto-voice-plain = Automatica
page-needs-https = Il microfono funziona solo all'indirizzo sicuro.
page-open-secure = Apri l'indirizzo sicuro
page-trust-device = Prima configura questo dispositivo
page-needs-tls = Il microfono funziona solo a un indirizzo sicuro (https), che questo assistente non offre ancora. Chiedi a chi lo gestisce di attivare HTTPS (l'impostazione TLS=auto).
page-mic-denied = Non hai consentito il microfono. Consentilo nelle impostazioni del sito del browser (l'icona accanto all'indirizzo), poi premi di nuovo Parla.
page-language = Lingua
page-voice = Voce
page-device-speech = Parla su questo dispositivo
page-logout = Esci
page-question = La tua domanda
page-type-here = Scrivi la tua domanda
page-send = Invia
page-speak = Parla
page-stop = Stop
page-new-conversation = Nuova conversazione
page-delete-conversation = Elimina conversazione
page-memories = Cosa ricorda l'assistente
page-add-memory = Aggiungi
page-new-memory = Qualcosa da ricordare
page-help = Aiuto
page-help-confirm = Chiedere aiuto ora? I tuoi contatti saranno avvisati.
page-help-confirm-unreachable = In caso di emergenza chiami lei stesso il 112: la sua richiesta di aiuto ora non raggiunge nessuno. Avvisare comunque i suoi contatti?
page-help-yes = Sì, avvisa
page-cancel = Annulla
page-sending = Invio dell'allarme…
page-listening = Ti ascolto… parla pure.
page-thinking = Un attimo…
page-heard = Hai detto
page-ready = Pronto.
page-quota = Il limite giornaliero è raggiunto. Riparte a mezzanotte.
page-provider-failed = L'assistente non può rispondere ora. Riprova tra poco.
page-busy = L'assistente è occupato. Riprovi tra poco.
page-not-heard = Non si è sentito niente. Per favore, lo ripeta.
page-too-long = Era troppo lungo tutto d'un fiato. Per favore, lo ripeta con frasi più brevi.
page-lost = Connessione persa. Nuovo tentativo…
page-offline-since = Nessuna connessione dalle { $time } – le informazioni potrebbero non essere aggiornate
page-reconnected = Di nuovo connesso.
page-no-mic = Il microfono non si può usare qui. Consentilo o scrivi la domanda.
page-sources = Fonti
page-cooldown = L'allarme è appena stato inviato.
page-confirm-delete = Eliminare questa conversazione?
page-seen-by = Visto e confermato da { $who }.
page-error = Qualcosa è andato storto
page-guest = Ospite
page-admin = Amministrazione
page-reminders = Promemoria
page-reminder = Promemoria
page-reminder-done = Fatto
page-reminder-ok = OK
page-reminder-delete = Elimina
page-timer-over = Il tempo è scaduto.
page-no-reminders = Nessun promemoria.
page-checkin-title = Controllo quotidiano
page-checkin-question = Va tutto bene?
page-checkin-fine = Sto bene
page-checkin-help = Ho bisogno di aiuto
page-reminder-missed = Perso mentre l’assistente non era attivo

page-signin-switch = In questo browser avete effettuato l’accesso come { $current }. Continuare come { $new }?
page-signin-switch-yes = Continuare come { $new }
page-signin-switch-no = Restare { $current }
page-signin-invalid-link = Questo link personale non è (più) valido. Chiedetene uno nuovo.
page-signin-no-access = Non avete ancora un accesso personale.
page-signin-button = Accedi
page-signin-api = L'API è descritta in <a href="/openapi.json">/openapi.json</a>.
page-signin-not-admin = Il pannello di amministrazione è per chi gestisce voice-gateway, e avete effettuato l'accesso come un'altra persona. <a href="/">Torna all'assistente</a>. Se lo gestite voi, aprite una volta in questo browser il vostro link di amministrazione (in <code>admin-link.txt</code>, accanto al database).
page-signin-insecure-link = Questo link personale non può farvi accedere a questo indirizzo: i browser conservano l'accesso solo su un indirizzo sicuro (https) o sulla macchina stessa del gateway, e questo indirizzo è http semplice. Chiedete a chi gestisce voice-gateway di attivare HTTPS (l'impostazione <code>TLS=auto</code>, spiegata in «Phones and tablets» nel suo README), poi aprite il vostro link all'indirizzo https indicato. Anche il microfono ha bisogno di quell'indirizzo.
page-signin-how = L'accesso con un nome richiede un proxy di single sign-on davanti a voice-gateway, e questa installazione non ne ha. Al suo posto ogni persona ha un link personale (finisce con <code>/?k=</code> e un codice lungo): chiedete il vostro a chi gestisce voice-gateway e apritelo una volta su ciascuno dei vostri dispositivi; l'accesso resta. Chi lo gestisce trova il proprio link in <code>admin-link.txt</code>, accanto al database, e crea i link per gli altri nel pannello di amministrazione.
page-cared-for-by = Assistito da { $names }
page-notify-carers = Avvisare anche loro quando chiedo aiuto o non confermo un promemoria
page-share-with-carers = Possono vedere l'elenco delle mie conversazioni (mai ciò che è stato detto)
