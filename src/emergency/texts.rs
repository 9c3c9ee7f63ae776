//! Every text of the help function in the eight UI languages, in one table: the answers to a press, the
//! e-mail dossier, the SMS, the spoken call and the acknowledgement page. A language is a `Texts` value, so a
//! missing key does not compile; the tests check that every language keeps every placeholder of English.
//! Placeholders are `{name}`-style and filled by [`fill`].

/// The texts of one language.
#[derive(Debug)]
pub struct Texts {
    /// Twilio's `<Say language>` code of the call.
    pub voice: &'static str,
    /// Answer: at least one person was reached.
    pub alerted: &'static str,
    /// Answer: nobody is set up to be told.
    pub no_recipients: &'static str,
    /// Answer: every channel tried failed.
    pub delivery_failed: &'static str,
    /// Answer inside the window, the alarm reached people: `{minutes}`, `{who}`.
    pub cooldown_reached: &'static str,
    /// Answer inside the window, the alarm reached nobody: `{minutes}`.
    pub cooldown_nobody: &'static str,
    /// Answer while the window's alarm is still being sent.
    pub cooldown_sending: &'static str,
    /// Added when contacts confirmed having seen the alarm: `{who}`.
    pub seen_by: &'static str,
    /// Channel names in a list of who was reached.
    pub by_email: &'static str,
    /// See `by_email`.
    pub by_sms: &'static str,
    /// See `by_email`.
    pub by_call: &'static str,
    /// E-mail subject: `{name}`.
    pub subject: &'static str,
    /// E-mail subject of the escalation: `{name}`.
    pub reminder_subject: &'static str,
    /// First line of the e-mail: `{name}`.
    pub intro: &'static str,
    /// First line of the escalation e-mail: `{name}`, `{minutes}`.
    pub reminder_intro: &'static str,
    /// The acknowledgement link in the e-mail: `{link}`.
    pub confirm_line: &'static str,
    /// Dossier label.
    pub name: &'static str,
    /// Dossier label.
    pub address: &'static str,
    /// Dossier label.
    pub phone: &'static str,
    /// Dossier label.
    pub birth_date: &'static str,
    /// Dossier label.
    pub medical_notes: &'static str,
    /// Dossier label.
    pub coordinates: &'static str,
    /// Dossier label.
    pub map: &'static str,
    /// Dossier label.
    pub accuracy: &'static str,
    /// Dossier label.
    pub fix_time: &'static str,
    /// Dossier label, followed by the device's reason.
    pub position_unavailable: &'static str,
    /// Dossier line when the person did not consent to sharing the position.
    pub position_not_shared: &'static str,
    /// Dossier label.
    pub triggered_from: &'static str,
    /// A field without a value.
    pub unknown: &'static str,
    /// Medical notes without a value.
    pub none: &'static str,
    /// The device gave neither a position nor a reason.
    pub not_reported: &'static str,
    /// Device kind.
    pub mobile_device: &'static str,
    /// Device kind.
    pub computer: &'static str,
    /// Device kind.
    pub unknown_device: &'static str,
    /// Last line of the e-mail.
    pub call_112: &'static str,
    /// The SMS: `{name}`, `{address}`, `{phones}`.
    pub sms: &'static str,
    /// The escalation SMS: `{name}`, `{address}`, `{phones}`.
    pub sms_reminder: &'static str,
    /// Appended to the SMS: `{link}` (map).
    pub sms_location: &'static str,
    /// Appended to the SMS: `{link}` (acknowledgement).
    pub sms_confirm: &'static str,
    /// The call: `{name}`, `{address}`.
    pub call: &'static str,
    /// Said before the call text of an escalation.
    pub call_reminder: &'static str,
    /// The call asks for the key press.
    pub call_press_1: &'static str,
    /// Said after the callee pressed 1: `{name}`.
    pub call_thanks: &'static str,
    /// Title of the acknowledgement page.
    pub ack_title: &'static str,
    /// The page before confirming: `{name}`, `{time}`.
    pub ack_question: &'static str,
    /// The page's button.
    pub ack_button: &'static str,
    /// The page after confirming: `{name}`.
    pub ack_thanks: &'static str,
    /// The page's advice: `{name}`.
    pub ack_hint: &'static str,
    /// On the help page while a channel's check fails: `{channels}` (names as in `by_email`).
    pub path_down: &'static str,
    /// After `path_down`, the channels that still work: `{channels}`.
    pub path_still: &'static str,
    /// On the help page while no channel of the person works.
    pub path_none: &'static str,
    /// Under the help button while the person's help reaches nobody: no contact is set up.
    pub nobody_yet: &'static str,
}

/// The texts a person reads and hears in `lang`, in the form of address they chose (`informal`: "du" in
/// German; the other languages' texts keep one form).
pub fn for_person(lang: &str, informal: bool) -> &'static Texts {
    match lang {
        "de" if informal => &DE_DU,
        _ => texts(lang),
    }
}

/// The texts of a language code; English for any other.
pub fn texts(lang: &str) -> &'static Texts {
    match lang {
        "de" => &DE,
        "fr" => &FR,
        "es" => &ES,
        "it" => &IT,
        "nl" => &NL,
        "pl" => &PL,
        "pt" => &PT,
        _ => &EN,
    }
}

/// Every language with its texts, for the tests and the language list.
pub static LANGUAGES: &[(&str, &Texts)] = &[
    ("en", &EN),
    ("de", &DE),
    ("fr", &FR),
    ("es", &ES),
    ("it", &IT),
    ("nl", &NL),
    ("pl", &PL),
    ("pt", &PT),
];

/// Replaces each `{key}` of the template by its value.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (key, value) in values {
        out = out.replace(&format!("{{{key}}}"), value);
    }
    out
}

static EN: Texts = Texts {
    voice: "en-US",
    alerted: "Help is on the way: your contacts have been notified.",
    no_recipients: "Nobody is set up to be notified. Please call the emergency number 112 yourself.",
    delivery_failed: "The notification failed. Please call the emergency number 112 yourself.",
    cooldown_reached: "The alarm was raised {minutes} minutes ago and reached {who}. If it is urgent, call the emergency number 112.",
    cooldown_nobody: "The alarm of {minutes} minutes ago reached nobody. Please call the emergency number 112 yourself.",
    cooldown_sending: "The alarm is being sent right now. If it is urgent, call the emergency number 112.",
    seen_by: "Seen and confirmed by {who}.",
    by_email: "e-mail",
    by_sms: "SMS",
    by_call: "call",
    subject: "EMERGENCY: {name} pressed the help button",
    reminder_subject: "REMINDER – EMERGENCY: nobody has confirmed the alarm of {name} yet",
    intro: "{name} asked for help through the voice assistant. Please get in touch at once or send help.",
    reminder_intro: "Nobody has confirmed this alarm yet. {name} asked for help {minutes} minutes ago through the voice assistant. Please get in touch at once or send help.",
    confirm_line: "Please confirm that you have seen this alarm: {link}",
    name: "Name",
    address: "Address",
    phone: "Phone",
    birth_date: "Date of birth",
    medical_notes: "Medical notes",
    coordinates: "Coordinates",
    map: "Map",
    accuracy: "Accuracy",
    fix_time: "Time of the fix",
    position_unavailable: "Position unavailable",
    position_not_shared: "Position: not shared (no consent)",
    triggered_from: "Triggered from",
    unknown: "unknown",
    none: "none",
    not_reported: "not reported",
    mobile_device: "mobile device",
    computer: "computer",
    unknown_device: "unknown device",
    call_112: "If you cannot help, call the emergency number 112.",
    sms: "EMERGENCY: {name} needs help. Address: {address}. Phone: {phones}.",
    sms_reminder: "REMINDER, nobody has confirmed yet. EMERGENCY: {name} needs help. Address: {address}. Phone: {phones}.",
    sms_location: "Location: {link}",
    sms_confirm: "Seen it? Confirm: {link}",
    call: "Attention, emergency. {name} pressed the help button. Address: {address}. Details are in the text message and the e-mail.",
    call_reminder: "Reminder: nobody has confirmed this emergency yet.",
    call_press_1: "Press 1 to confirm that you have seen this alarm.",
    call_thanks: "Thank you. {name} can now see that you have seen the alarm.",
    ack_title: "Emergency alarm",
    ack_question: "{name} pressed the help button at {time}.",
    ack_button: "I have seen the alarm",
    ack_thanks: "Thank you. {name} now knows that you have seen the alarm.",
    ack_hint: "Please get in touch with {name} or send help. If you cannot help, call the emergency number 112.",
    path_down: "Alerts by {channels} cannot be sent right now.",
    path_still: "Alerts by {channels} still work.",
    nobody_yet: "Help reaches nobody yet – please add a contact. In an emergency, call the emergency number 112 yourself.",
    path_none: "No alert can be sent right now. In an emergency, please call the emergency number 112 yourself.",
};

/// German, addressing everyone as "Sie", as the page does.
const GERMAN: Texts = Texts {
    voice: "de-DE",
    alerted: "Hilfe ist unterwegs: Ihre Kontaktpersonen wurden benachrichtigt.",
    no_recipients: "Ihre Hilfe erreicht noch niemanden: Es ist keine Kontaktperson eingetragen. Rufen Sie bitte selbst den Notruf 112 an.",
    delivery_failed: "Die Benachrichtigung ist fehlgeschlagen. Rufen Sie bitte selbst den Notruf 112 an.",
    cooldown_reached: "Der Alarm wurde vor {minutes} Minuten ausgelöst und hat {who} erreicht. Wenn es dringend ist, rufen Sie den Notruf 112 an.",
    cooldown_nobody: "Der Alarm vor {minutes} Minuten hat niemanden erreicht. Rufen Sie bitte selbst den Notruf 112 an.",
    cooldown_sending: "Der Alarm wird gerade gesendet. Wenn es dringend ist, rufen Sie den Notruf 112 an.",
    seen_by: "Gesehen und bestätigt von {who}.",
    by_email: "E-Mail",
    by_sms: "SMS",
    by_call: "Anruf",
    subject: "NOTFALL: {name} hat den Hilfe-Knopf gedrückt",
    reminder_subject: "ERINNERUNG – NOTFALL: niemand hat den Alarm von {name} bisher bestätigt",
    intro: "{name} hat über den Sprachassistenten Hilfe angefordert. Bitte melden Sie sich sofort oder schicken Sie Hilfe.",
    reminder_intro: "Niemand hat diesen Alarm bisher bestätigt. {name} hat vor {minutes} Minuten über den Sprachassistenten Hilfe angefordert. Bitte melden Sie sich sofort oder schicken Sie Hilfe.",
    confirm_line: "Bitte bestätigen Sie, dass Sie diesen Alarm gesehen haben: {link}",
    name: "Name",
    address: "Adresse",
    phone: "Telefon",
    birth_date: "Geburtsdatum",
    medical_notes: "Medizinische Hinweise",
    coordinates: "Koordinaten",
    map: "Karte",
    accuracy: "Genauigkeit",
    fix_time: "Zeitpunkt der Ortung",
    position_unavailable: "Standort nicht verfügbar",
    position_not_shared: "Standort: nicht freigegeben",
    triggered_from: "Ausgelöst von",
    unknown: "unbekannt",
    none: "keine",
    not_reported: "keine Angabe",
    mobile_device: "Mobilgerät",
    computer: "Computer",
    unknown_device: "unbekanntes Gerät",
    call_112: "Wenn Sie nicht helfen können, rufen Sie den Notruf 112 an.",
    sms: "NOTFALL: {name} braucht Hilfe. Adresse: {address}. Tel: {phones}.",
    sms_reminder: "ERINNERUNG, noch niemand hat bestätigt. NOTFALL: {name} braucht Hilfe. Adresse: {address}. Tel: {phones}.",
    sms_location: "Ort: {link}",
    sms_confirm: "Gesehen? Bestätigen: {link}",
    call: "Achtung, Notfall. {name} hat den Hilfe-Knopf gedrückt. Adresse: {address}. Einzelheiten stehen in der SMS und in der E-Mail.",
    call_reminder: "Erinnerung: Niemand hat diesen Notfall bisher bestätigt.",
    call_press_1: "Drücken Sie die 1, um zu bestätigen, dass Sie den Alarm gehört haben.",
    call_thanks: "Danke. {name} sieht jetzt, dass Sie den Alarm bemerkt haben.",
    ack_title: "Notfall-Alarm",
    ack_question: "{name} hat um {time} den Hilfe-Knopf gedrückt.",
    ack_button: "Ich habe den Alarm gesehen",
    ack_thanks: "Danke. {name} weiß jetzt, dass Sie den Alarm gesehen haben.",
    ack_hint: "Bitte melden Sie sich bei {name} oder schicken Sie Hilfe. Wenn Sie nicht helfen können, rufen Sie den Notruf 112 an.",
    path_down: "Alarme per {channels} können gerade nicht gesendet werden.",
    path_still: "Alarme per {channels} gehen weiterhin.",
    nobody_yet: "Hilfe erreicht noch niemanden – bitte eine Kontaktperson eintragen. Im Notfall rufen Sie selbst den Notruf 112 an.",
    path_none: "Gerade kann kein Alarm gesendet werden. Rufen Sie im Notfall bitte selbst den Notruf 112 an.",
};

/// German for a person who chose "du" (`form_of_address` `informal`): what the person reads and hears; the
/// contacts are addressed as "Sie" all the same.
static DE_DU: Texts = Texts {
    alerted: "Hilfe ist unterwegs: deine Kontaktpersonen wurden benachrichtigt.",
    no_recipients: "Deine Hilfe erreicht noch niemanden: Es ist keine Kontaktperson eingetragen. Ruf bitte selbst den Notruf 112 an.",
    delivery_failed: "Die Benachrichtigung ist fehlgeschlagen. Ruf bitte selbst den Notruf 112 an.",
    cooldown_reached: "Der Alarm wurde vor {minutes} Minuten ausgelöst und hat {who} erreicht. Wenn es dringend ist, ruf den Notruf 112 an.",
    cooldown_nobody: "Der Alarm vor {minutes} Minuten hat niemanden erreicht. Ruf bitte selbst den Notruf 112 an.",
    cooldown_sending: "Der Alarm wird gerade gesendet. Wenn es dringend ist, ruf den Notruf 112 an.",
    nobody_yet: "Hilfe erreicht noch niemanden – bitte eine Kontaktperson eintragen. Im Notfall ruf selbst den Notruf 112 an.",
    path_none: "Gerade kann kein Alarm gesendet werden. Ruf im Notfall bitte selbst den Notruf 112 an.",
    ..GERMAN
};

static DE: Texts = GERMAN;

// Further languages follow this line (fr, es, it, nl, pl, pt).

static FR: Texts = Texts {
    voice: "fr-FR",
    alerted: "De l'aide arrive : vos contacts ont été prévenus.",
    no_recipients: "Personne n'est enregistré pour être prévenu. Veuillez appeler vous-même le numéro d'urgence 112.",
    delivery_failed: "L'envoi de l'alerte a échoué. Veuillez appeler vous-même le numéro d'urgence 112.",
    cooldown_reached: "L'alerte a été déclenchée il y a {minutes} minutes et a atteint {who}. Si c'est urgent, appelez le numéro d'urgence 112.",
    cooldown_nobody: "L'alerte d'il y a {minutes} minutes n'a atteint personne. Veuillez appeler vous-même le numéro d'urgence 112.",
    cooldown_sending: "L'alerte est en cours d'envoi. Si c'est urgent, appelez le numéro d'urgence 112.",
    seen_by: "Alerte vue et confirmée par {who}.",
    by_email: "e-mail",
    by_sms: "SMS",
    by_call: "appel",
    subject: "URGENCE : {name} a appuyé sur le bouton d'aide",
    reminder_subject: "RAPPEL – URGENCE : personne n'a encore confirmé l'alerte de {name}",
    intro: "{name} a demandé de l'aide via l'assistant vocal. Veuillez prendre contact immédiatement ou envoyer de l'aide.",
    reminder_intro: "Personne n'a encore confirmé cette alerte. {name} a demandé de l'aide il y a {minutes} minutes via l'assistant vocal. Veuillez prendre contact immédiatement ou envoyer de l'aide.",
    confirm_line: "Veuillez confirmer que vous avez vu cette alerte : {link}",
    name: "Nom",
    address: "Adresse",
    phone: "Téléphone",
    birth_date: "Date de naissance",
    medical_notes: "Informations médicales",
    coordinates: "Coordonnées géographiques",
    map: "Carte",
    accuracy: "Précision",
    fix_time: "Heure de la localisation",
    position_unavailable: "Position indisponible",
    position_not_shared: "Position : non partagée (pas de consentement)",
    triggered_from: "Déclenché depuis",
    unknown: "inconnu",
    none: "aucune",
    not_reported: "non indiqué",
    mobile_device: "appareil mobile",
    computer: "ordinateur",
    unknown_device: "appareil inconnu",
    call_112: "Si vous ne pouvez pas aider, appelez le numéro d'urgence 112.",
    sms: "URGENCE : {name} a besoin d'aide. Adresse : {address}. Tél : {phones}.",
    sms_reminder: "RAPPEL, personne n'a encore confirmé. URGENCE : {name} a besoin d'aide. Adresse : {address}. Tél : {phones}.",
    sms_location: "Position : {link}",
    sms_confirm: "Vu ? Confirmez : {link}",
    call: "Attention, urgence. {name} a appuyé sur le bouton d'aide. Adresse : {address}. Les détails se trouvent dans le SMS et dans l'e-mail.",
    call_reminder: "Rappel : personne n'a encore confirmé cette urgence.",
    call_press_1: "Appuyez sur 1 pour confirmer que vous avez pris connaissance de cette alerte.",
    call_thanks: "Merci. {name} peut maintenant voir que vous avez pris connaissance de l'alerte.",
    ack_title: "Alerte d'urgence",
    ack_question: "{name} a appuyé sur le bouton d'aide à {time}.",
    ack_button: "J'ai vu l'alerte",
    ack_thanks: "Merci. {name} sait maintenant que vous avez vu l'alerte.",
    ack_hint: "Veuillez prendre contact avec {name} ou envoyer de l'aide. Si vous ne pouvez pas aider, appelez le numéro d'urgence 112.",
    path_down: "Les alertes par {channels} ne peuvent pas être envoyées pour le moment.",
    path_still: "Les alertes par {channels} fonctionnent toujours.",
    nobody_yet: "L'alerte n'atteint encore personne – veuillez ajouter un contact. En cas d'urgence, appelez vous-même le 112.",
    path_none: "Aucune alerte ne peut être envoyée pour le moment. En cas d'urgence, veuillez appeler vous-même le numéro d'urgence 112.",
};

static ES: Texts = Texts {
    voice: "es-ES",
    alerted: "La ayuda está en camino: se ha avisado a sus contactos.",
    no_recipients: "No hay nadie configurado para recibir el aviso. Por favor, llame usted al número de emergencias 112.",
    delivery_failed: "No se ha podido enviar el aviso. Por favor, llame usted al número de emergencias 112.",
    cooldown_reached: "La alarma se activó hace {minutes} minutos y llegó a {who}. Si es urgente, llame al número de emergencias 112.",
    cooldown_nobody: "La alarma de hace {minutes} minutos no llegó a nadie. Por favor, llame usted al número de emergencias 112.",
    cooldown_sending: "La alarma se está enviando ahora mismo. Si es urgente, llame al número de emergencias 112.",
    seen_by: "Alarma vista y confirmada por {who}.",
    by_email: "correo electrónico",
    by_sms: "SMS",
    by_call: "llamada",
    subject: "EMERGENCIA: {name} ha pulsado el botón de ayuda",
    reminder_subject: "RECORDATORIO – EMERGENCIA: nadie ha confirmado todavía la alarma de {name}",
    intro: "{name} ha pedido ayuda a través del asistente de voz. Por favor, póngase en contacto de inmediato o envíe ayuda.",
    reminder_intro: "Nadie ha confirmado todavía esta alarma. {name} pidió ayuda hace {minutes} minutos a través del asistente de voz. Por favor, póngase en contacto de inmediato o envíe ayuda.",
    confirm_line: "Por favor, confirme que ha visto esta alarma: {link}",
    name: "Nombre",
    address: "Dirección",
    phone: "Teléfono",
    birth_date: "Fecha de nacimiento",
    medical_notes: "Notas médicas",
    coordinates: "Coordenadas",
    map: "Mapa",
    accuracy: "Precisión",
    fix_time: "Hora de la localización",
    position_unavailable: "Ubicación no disponible",
    position_not_shared: "Ubicación: no compartida (sin consentimiento)",
    triggered_from: "Activado desde",
    unknown: "desconocido",
    none: "ninguna",
    not_reported: "no indicado",
    mobile_device: "dispositivo móvil",
    computer: "ordenador",
    unknown_device: "dispositivo desconocido",
    call_112: "Si no puede ayudar, llame al número de emergencias 112.",
    sms: "EMERGENCIA: {name} necesita ayuda. Dirección: {address}. Tel: {phones}.",
    sms_reminder: "RECORDATORIO, nadie ha confirmado aún. EMERGENCIA: {name} necesita ayuda. Dirección: {address}. Tel: {phones}.",
    sms_location: "Ubicación: {link}",
    sms_confirm: "¿Lo ha visto? Confirme: {link}",
    call: "Atención, emergencia. {name} ha pulsado el botón de ayuda. Dirección: {address}. Encontrará los detalles en el SMS y en el correo electrónico.",
    call_reminder: "Recordatorio: nadie ha confirmado todavía esta emergencia.",
    call_press_1: "Pulse 1 para confirmar que ha recibido esta alarma.",
    call_thanks: "Gracias. {name} ya puede ver que usted ha recibido la alarma.",
    ack_title: "Alarma de emergencia",
    ack_question: "{name} pulsó el botón de ayuda a las {time}.",
    ack_button: "He visto la alarma",
    ack_thanks: "Gracias. {name} ya sabe que usted ha visto la alarma.",
    ack_hint: "Por favor, póngase en contacto con {name} o envíe ayuda. Si no puede ayudar, llame al número de emergencias 112.",
    path_down: "Los avisos por {channels} no se pueden enviar en este momento.",
    path_still: "Los avisos por {channels} siguen funcionando.",
    nobody_yet: "La ayuda aún no llega a nadie: añada un contacto, por favor. En caso de emergencia, llame usted mismo al 112.",
    path_none: "Ahora mismo no se puede enviar ningún aviso. En caso de emergencia, por favor, llame usted al número de emergencias 112.",
};

static IT: Texts = Texts {
    voice: "it-IT",
    alerted: "L'aiuto è in arrivo: i suoi contatti sono stati avvisati.",
    no_recipients: "Non c'è nessuno impostato da avvisare. Per favore, chiami direttamente il numero di emergenza 112.",
    delivery_failed: "L'invio dell'avviso non è riuscito. Per favore, chiami direttamente il numero di emergenza 112.",
    cooldown_reached: "L'allarme è stato attivato {minutes} minuti fa e ha raggiunto {who}. Se è urgente, chiami il numero di emergenza 112.",
    cooldown_nobody: "L'allarme di {minutes} minuti fa non ha raggiunto nessuno. Per favore, chiami direttamente il numero di emergenza 112.",
    cooldown_sending: "L'allarme è in fase di invio proprio ora. Se è urgente, chiami il numero di emergenza 112.",
    seen_by: "Visto e confermato da {who}.",
    by_email: "e-mail",
    by_sms: "SMS",
    by_call: "chiamata",
    subject: "EMERGENZA: {name} ha premuto il pulsante di aiuto",
    reminder_subject: "PROMEMORIA – EMERGENZA: nessuno ha ancora confermato l'allarme di {name}",
    intro: "{name} ha chiesto aiuto tramite l'assistente vocale. Per favore, si metta subito in contatto o mandi aiuto.",
    reminder_intro: "Nessuno ha ancora confermato questo allarme. {name} ha chiesto aiuto {minutes} minuti fa tramite l'assistente vocale. Per favore, si metta subito in contatto o mandi aiuto.",
    confirm_line: "Per favore, confermi di aver visto questo allarme: {link}",
    name: "Nome",
    address: "Indirizzo",
    phone: "Telefono",
    birth_date: "Data di nascita",
    medical_notes: "Note mediche",
    coordinates: "Coordinate",
    map: "Mappa",
    accuracy: "Precisione",
    fix_time: "Ora della localizzazione",
    position_unavailable: "Posizione non disponibile",
    position_not_shared: "Posizione: non condivisa (nessun consenso)",
    triggered_from: "Attivato da",
    unknown: "sconosciuto",
    none: "nessuna",
    not_reported: "non indicato",
    mobile_device: "dispositivo mobile",
    computer: "computer",
    unknown_device: "dispositivo sconosciuto",
    call_112: "Se non può aiutare, chiami il numero di emergenza 112.",
    sms: "EMERGENZA: {name} ha bisogno di aiuto. Indirizzo: {address}. Tel: {phones}.",
    sms_reminder: "PROMEMORIA, nessuno ha ancora confermato. EMERGENZA: {name} ha bisogno di aiuto. Indirizzo: {address}. Tel: {phones}.",
    sms_location: "Posizione: {link}",
    sms_confirm: "Visto? Confermi: {link}",
    call: "Attenzione, emergenza. {name} ha premuto il pulsante di aiuto. Indirizzo: {address}. I dettagli sono nell'SMS e nell'e-mail.",
    call_reminder: "Promemoria: nessuno ha ancora confermato questa emergenza.",
    call_press_1: "Prema 1 per confermare di aver ricevuto questo allarme.",
    call_thanks: "Grazie. Ora {name} può vedere che Lei ha ricevuto l'allarme.",
    ack_title: "Allarme di emergenza",
    ack_question: "{name} ha premuto il pulsante di aiuto alle {time}.",
    ack_button: "Ho visto l'allarme",
    ack_thanks: "Grazie. Ora {name} sa che Lei ha visto l'allarme.",
    ack_hint: "Per favore, si metta in contatto con {name} o mandi aiuto. Se non può aiutare, chiami il numero di emergenza 112.",
    path_down: "Gli avvisi via {channels} non possono essere inviati in questo momento.",
    path_still: "Gli avvisi via {channels} funzionano ancora.",
    nobody_yet: "L'aiuto non raggiunge ancora nessuno: aggiunga un contatto. In caso di emergenza chiami lei stesso il 112.",
    path_none: "Al momento non si può inviare nessun avviso. In caso di emergenza, per favore, chiami direttamente il numero di emergenza 112.",
};

static NL: Texts = Texts {
    voice: "nl-NL",
    alerted: "Er komt hulp: uw contactpersonen zijn gewaarschuwd.",
    no_recipients: "Er is niemand ingesteld om te waarschuwen. Bel alstublieft zelf het alarmnummer 112.",
    delivery_failed: "Het waarschuwen is mislukt. Bel alstublieft zelf het alarmnummer 112.",
    cooldown_reached: "Het alarm is {minutes} minuten geleden gegeven en heeft {who} bereikt. Is het dringend? Bel dan het alarmnummer 112.",
    cooldown_nobody: "Het alarm van {minutes} minuten geleden heeft niemand bereikt. Bel alstublieft zelf het alarmnummer 112.",
    cooldown_sending: "Het alarm wordt op dit moment verstuurd. Is het dringend? Bel dan het alarmnummer 112.",
    seen_by: "Gezien en bevestigd door {who}.",
    by_email: "e-mail",
    by_sms: "sms",
    by_call: "oproep",
    subject: "NOODGEVAL: {name} heeft op de hulpknop gedrukt",
    reminder_subject: "HERINNERING – NOODGEVAL: niemand heeft het alarm van {name} nog bevestigd",
    intro: "{name} heeft via de spraakassistent om hulp gevraagd. Neem alstublieft meteen contact op of stuur hulp.",
    reminder_intro: "Niemand heeft dit alarm nog bevestigd. {name} heeft {minutes} minuten geleden via de spraakassistent om hulp gevraagd. Neem alstublieft meteen contact op of stuur hulp.",
    confirm_line: "Bevestig alstublieft dat u dit alarm hebt gezien: {link}",
    name: "Naam",
    address: "Adres",
    phone: "Telefoon",
    birth_date: "Geboortedatum",
    medical_notes: "Medische informatie",
    coordinates: "Coördinaten",
    map: "Kaart",
    accuracy: "Nauwkeurigheid",
    fix_time: "Tijdstip van de plaatsbepaling",
    position_unavailable: "Locatie niet beschikbaar",
    position_not_shared: "Locatie: niet gedeeld (geen toestemming)",
    triggered_from: "Geactiveerd vanaf",
    unknown: "onbekend",
    none: "geen",
    not_reported: "niet doorgegeven",
    mobile_device: "mobiel apparaat",
    computer: "computer",
    unknown_device: "onbekend apparaat",
    call_112: "Als u niet kunt helpen, bel dan het alarmnummer 112.",
    sms: "NOODGEVAL: {name} heeft hulp nodig. Adres: {address}. Tel: {phones}.",
    sms_reminder: "HERINNERING, nog niemand heeft bevestigd. NOODGEVAL: {name} heeft hulp nodig. Adres: {address}. Tel: {phones}.",
    sms_location: "Locatie: {link}",
    sms_confirm: "Gezien? Bevestig: {link}",
    call: "Let op, noodgeval. {name} heeft op de hulpknop gedrukt. Adres: {address}. De details staan in de sms en in de e-mail.",
    call_reminder: "Herinnering: niemand heeft dit noodgeval nog bevestigd.",
    call_press_1: "Druk op 1 om te bevestigen dat u dit alarm hebt ontvangen.",
    call_thanks: "Dank u. {name} kan nu zien dat u het alarm hebt ontvangen.",
    ack_title: "Noodalarm",
    ack_question: "{name} heeft om {time} op de hulpknop gedrukt.",
    ack_button: "Ik heb het alarm gezien",
    ack_thanks: "Dank u. {name} weet nu dat u het alarm hebt gezien.",
    ack_hint: "Neem alstublieft contact op met {name} of stuur hulp. Als u niet kunt helpen, bel dan het alarmnummer 112.",
    path_down: "Meldingen via {channels} kunnen nu niet worden verstuurd.",
    path_still: "Meldingen via {channels} werken nog.",
    nobody_yet: "Hulp bereikt nog niemand – voeg een contactpersoon toe. Bel in een noodgeval zelf het alarmnummer 112.",
    path_none: "Er kan nu geen melding worden verstuurd. Bel in een noodgeval alstublieft zelf het alarmnummer 112.",
};

static PL: Texts = Texts {
    voice: "pl-PL",
    alerted: "Pomoc jest w drodze: osoby kontaktowe zostały powiadomione.",
    no_recipients: "Nie ma nikogo, kogo można powiadomić. Proszę samodzielnie zadzwonić pod numer alarmowy 112.",
    delivery_failed: "Nie udało się wysłać powiadomienia. Proszę samodzielnie zadzwonić pod numer alarmowy 112.",
    cooldown_reached: "Alarm został uruchomiony {minutes} min temu i dotarł do: {who}. W pilnej sytuacji proszę zadzwonić pod numer alarmowy 112.",
    cooldown_nobody: "Alarm sprzed {minutes} min nie dotarł do nikogo. Proszę samodzielnie zadzwonić pod numer alarmowy 112.",
    cooldown_sending: "Alarm jest właśnie wysyłany. W pilnej sytuacji proszę zadzwonić pod numer alarmowy 112.",
    seen_by: "Alarm zauważony i potwierdzony przez: {who}.",
    by_email: "e-mail",
    by_sms: "SMS",
    by_call: "połączenie",
    subject: "NAGŁY WYPADEK: {name} – naciśnięto przycisk pomocy",
    reminder_subject: "PRZYPOMNIENIE – NAGŁY WYPADEK: {name} – nikt jeszcze nie potwierdził alarmu",
    intro: "{name} prosi o pomoc przez asystenta głosowego. Proszę natychmiast się skontaktować lub wysłać pomoc.",
    reminder_intro: "Nikt jeszcze nie potwierdził tego alarmu. {name} prosi o pomoc – wezwanie wysłano {minutes} min temu przez asystenta głosowego. Proszę natychmiast się skontaktować lub wysłać pomoc.",
    confirm_line: "Proszę potwierdzić odebranie tego alarmu: {link}",
    name: "Imię i nazwisko",
    address: "Adres",
    phone: "Telefon",
    birth_date: "Data urodzenia",
    medical_notes: "Informacje medyczne",
    coordinates: "Współrzędne",
    map: "Mapa",
    accuracy: "Dokładność",
    fix_time: "Czas ustalenia pozycji",
    position_unavailable: "Pozycja niedostępna",
    position_not_shared: "Pozycja: nieudostępniona (brak zgody)",
    triggered_from: "Źródło alarmu",
    unknown: "brak danych",
    none: "brak",
    not_reported: "nie podano",
    mobile_device: "urządzenie mobilne",
    computer: "komputer",
    unknown_device: "nieznane urządzenie",
    call_112: "Jeśli nie ma możliwości pomocy, proszę zadzwonić pod numer alarmowy 112.",
    sms: "NAGŁY WYPADEK: {name} potrzebuje pomocy. Adres: {address}. Tel.: {phones}.",
    sms_reminder: "PRZYPOMNIENIE, nikt jeszcze nie potwierdził. NAGŁY WYPADEK: {name} potrzebuje pomocy. Adres: {address}. Tel.: {phones}.",
    sms_location: "Lokalizacja: {link}",
    sms_confirm: "Odebrane? Proszę potwierdzić: {link}",
    call: "Uwaga, nagły wypadek. {name} prosi o pomoc – naciśnięto przycisk pomocy. Adres: {address}. Szczegóły są w wiadomości SMS i w e-mailu.",
    call_reminder: "Przypomnienie: nikt jeszcze nie potwierdził tego alarmu.",
    call_press_1: "Proszę nacisnąć 1, aby potwierdzić odebranie alarmu.",
    call_thanks: "Dziękujemy. {name} widzi teraz, że alarm został odebrany.",
    ack_title: "Wezwanie pomocy",
    ack_question: "{name}: naciśnięto przycisk pomocy o godz. {time}.",
    ack_button: "Potwierdzam odebranie alarmu",
    ack_thanks: "Dziękujemy. {name} wie już, że alarm został odebrany.",
    ack_hint: "Proszę skontaktować się z osobą {name} lub wysłać pomoc. Jeśli nie ma możliwości pomocy, proszę zadzwonić pod numer alarmowy 112.",
    path_down: "Powiadomień przez {channels} nie można teraz wysłać.",
    path_still: "Powiadomienia przez {channels} nadal działają.",
    nobody_yet: "Pomoc nie dociera jeszcze do nikogo – proszę dodać osobę kontaktową. W nagłym wypadku proszę samemu zadzwonić pod 112.",
    path_none: "Teraz nie można wysłać żadnego powiadomienia. W nagłym wypadku proszę samodzielnie zadzwonić pod numer alarmowy 112.",
};

static PT: Texts = Texts {
    voice: "pt-PT",
    alerted: "A ajuda vem a caminho: os seus contactos foram avisados.",
    no_recipients: "Não há ninguém configurado para ser avisado. Por favor, ligue diretamente para o número de emergência 112.",
    delivery_failed: "O envio do aviso falhou. Por favor, ligue diretamente para o número de emergência 112.",
    cooldown_reached: "O alarme foi acionado há {minutes} minutos e chegou a {who}. Se for urgente, ligue para o número de emergência 112.",
    cooldown_nobody: "O alarme de há {minutes} minutos não chegou a ninguém. Por favor, ligue diretamente para o número de emergência 112.",
    cooldown_sending: "O alarme está a ser enviado neste momento. Se for urgente, ligue para o número de emergência 112.",
    seen_by: "Visto e confirmado por {who}.",
    by_email: "e-mail",
    by_sms: "SMS",
    by_call: "chamada",
    subject: "EMERGÊNCIA: {name} carregou no botão de ajuda",
    reminder_subject: "LEMBRETE – EMERGÊNCIA: ninguém confirmou ainda o alarme de {name}",
    intro: "{name} pediu ajuda através do assistente de voz. Por favor, entre em contacto imediatamente ou envie ajuda.",
    reminder_intro: "Ninguém confirmou ainda este alarme. {name} pediu ajuda há {minutes} minutos através do assistente de voz. Por favor, entre em contacto imediatamente ou envie ajuda.",
    confirm_line: "Por favor, confirme que viu este alarme: {link}",
    name: "Nome",
    address: "Morada",
    phone: "Telefone",
    birth_date: "Data de nascimento",
    medical_notes: "Notas médicas",
    coordinates: "Coordenadas",
    map: "Mapa",
    accuracy: "Precisão",
    fix_time: "Hora da localização",
    position_unavailable: "Localização indisponível",
    position_not_shared: "Localização: não partilhada (sem consentimento)",
    triggered_from: "Acionado a partir de",
    unknown: "desconhecido",
    none: "nenhuma",
    not_reported: "não indicado",
    mobile_device: "dispositivo móvel",
    computer: "computador",
    unknown_device: "dispositivo desconhecido",
    call_112: "Se não puder ajudar, ligue para o número de emergência 112.",
    sms: "EMERGÊNCIA: {name} precisa de ajuda. Morada: {address}. Tel: {phones}.",
    sms_reminder: "LEMBRETE, ninguém confirmou ainda. EMERGÊNCIA: {name} precisa de ajuda. Morada: {address}. Tel: {phones}.",
    sms_location: "Localização: {link}",
    sms_confirm: "Viu? Confirme: {link}",
    call: "Atenção, emergência. {name} carregou no botão de ajuda. Morada: {address}. Os detalhes estão na mensagem SMS e no e-mail.",
    call_reminder: "Lembrete: ninguém confirmou ainda esta emergência.",
    call_press_1: "Prima 1 para confirmar que recebeu este alarme.",
    call_thanks: "Obrigado. {name} já pode ver que o alarme foi recebido.",
    ack_title: "Alarme de emergência",
    ack_question: "{name} carregou no botão de ajuda às {time}.",
    ack_button: "Vi o alarme",
    ack_thanks: "Obrigado. {name} já sabe que o alarme foi visto.",
    ack_hint: "Por favor, entre em contacto com {name} ou envie ajuda. Se não puder ajudar, ligue para o número de emergência 112.",
    path_down: "Os avisos por {channels} não podem ser enviados neste momento.",
    path_still: "Os avisos por {channels} continuam a funcionar.",
    nobody_yet: "A ajuda ainda não chega a ninguém – adicione um contacto. Numa emergência, ligue você mesmo para o 112.",
    path_none: "Neste momento não é possível enviar nenhum aviso. Em caso de emergência, por favor, ligue diretamente para o número de emergência 112.",
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The `{…}` placeholders of a template, sorted.
    fn placeholders(template: &str) -> Vec<String> {
        let mut found: Vec<String> = template
            .split('{')
            .skip(1)
            .filter_map(|rest| rest.split_once('}').map(|(key, _)| key.to_string()))
            .collect();
        found.sort();
        found
    }

    /// Every text of a language, by field name (through its `Debug` form, so a new field is covered at once).
    fn fields(texts: &Texts) -> Vec<(String, String)> {
        let debug = format!("{texts:#?}");
        debug
            .lines()
            .filter_map(|line| {
                let (key, value) = line.trim().split_once(": ")?;
                let quoted = value.trim_end_matches(',').strip_prefix('"')?.strip_suffix('"')?;
                Some((key.to_string(), quoted.replace("\\\"", "\"")))
            })
            .collect()
    }

    #[test]
    fn all_eight_languages_have_every_text_with_the_placeholders_of_english() {
        let codes: Vec<&str> = LANGUAGES.iter().map(|(code, _)| *code).collect();
        assert_eq!(codes, ["en", "de", "fr", "es", "it", "nl", "pl", "pt"]);
        let english = fields(&EN);
        assert!(english.len() >= 45, "{}", english.len());
        for (code, texts) in LANGUAGES {
            let own = fields(texts);
            assert_eq!(own.len(), english.len(), "{code}");
            for ((key, text), (_, en)) in own.iter().zip(&english) {
                assert!(!text.trim().is_empty(), "{code}.{key} is empty");
                assert_eq!(placeholders(text), placeholders(en), "{code}.{key}: {text}");
            }
            assert!(std::ptr::eq(super::texts(code), *texts), "{code} is not selected");
        }
    }

    #[test]
    fn german_says_sie_unless_the_person_chose_du() {
        let du = [" du ", " dich ", " dein", " ruf ", "Ruf ", "Deine "];
        for (key, text) in fields(&DE) {
            assert!(!du.iter().any(|w| text.contains(w)), "de.{key} says du: {text}");
        }
        let informal = super::for_person("de", true);
        assert!(informal.alerted.contains("deine") && informal.no_recipients.contains("Ruf "));
        // The contacts are addressed as Sie all the same.
        assert_eq!(informal.ack_hint, DE.ack_hint);
        assert!(std::ptr::eq(super::for_person("de", false), &DE));
        assert!(std::ptr::eq(super::for_person("fr", true), &FR));
    }

    #[test]
    fn every_advice_to_call_for_help_names_112() {
        for (code, t) in LANGUAGES {
            for text in [
                t.no_recipients,
                t.delivery_failed,
                t.cooldown_nobody,
                t.cooldown_reached,
                t.call_112,
                t.nobody_yet,
                t.path_none,
            ] {
                assert!(text.contains("112"), "{code}: {text}");
            }
        }
    }

    #[test]
    fn placeholders_are_filled() {
        assert_eq!(
            fill("{name} at {time}", &[("name", "Anna"), ("time", "12:03")]),
            "Anna at 12:03"
        );
    }
}
