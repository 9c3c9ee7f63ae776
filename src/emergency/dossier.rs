//! What an alarm says: the person's profile from the prefs, the position, and the texts of every channel in
//! German or English (other languages fall back to English).

use serde_json::{Map, Value};

/// The emergency profile and the moment's facts.
#[derive(Debug, Clone, Default)]
pub struct Dossier {
    /// `de` or `en`.
    pub lang: &'static str,
    /// Full name, else the display name.
    pub name: String,
    /// Street and house number.
    pub street: String,
    /// Postal code.
    pub postal_code: String,
    /// City.
    pub city: String,
    /// Mobile phone.
    pub phone_mobile: String,
    /// Landline.
    pub phone_landline: String,
    /// YYYY-MM-DD.
    pub birth_date: String,
    /// Free text.
    pub medical_notes: String,
    /// The position, only with location consent.
    pub position: Position,
    /// `mobile` or `desktop`, and the platform.
    pub device: String,
}

/// Where the person is, as far as known and allowed.
#[derive(Debug, Clone, Default)]
pub enum Position {
    /// A fix from the device.
    Fix {
        /// Degrees.
        latitude: f64,
        /// Degrees.
        longitude: f64,
        /// Metres.
        accuracy: Option<f64>,
        /// When the fix was taken, epoch ms.
        timestamp: Option<i64>,
    },
    /// No fix: the device's reason.
    Unavailable(String),
    /// The person has not consented to sending the location.
    #[default]
    NoConsent,
}

fn text(prefs: &Map<String, Value>, key: &str) -> String {
    prefs.get(key).and_then(Value::as_str).unwrap_or("").trim().to_string()
}

impl Dossier {
    /// The profile of the prefs; `fallback_name` when no full name is set.
    pub fn from_prefs(prefs: &Map<String, Value>, fallback_name: &str, lang: &str) -> Self {
        let name = Some(text(prefs, "full_name"))
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| fallback_name.to_string());
        Self {
            lang: if lang == "de" { "de" } else { "en" },
            name,
            street: text(prefs, "street"),
            postal_code: text(prefs, "postal_code"),
            city: text(prefs, "city"),
            phone_mobile: text(prefs, "phone_mobile"),
            phone_landline: text(prefs, "phone_landline"),
            birth_date: text(prefs, "birth_date"),
            medical_notes: text(prefs, "medical_notes"),
            ..Self::default()
        }
    }

    fn de(&self) -> bool {
        self.lang == "de"
    }

    /// Street, postal code and city on one line; "unknown" when nothing is set.
    pub fn address(&self) -> String {
        let place = format!("{} {}", self.postal_code, self.city).trim().to_string();
        let parts: Vec<&str> = [self.street.as_str(), place.as_str()]
            .into_iter()
            .filter(|p| !p.is_empty())
            .collect();
        if parts.is_empty() {
            self.unknown().to_string()
        } else {
            parts.join(", ")
        }
    }

    fn phones(&self) -> String {
        let parts: Vec<&str> = [self.phone_mobile.as_str(), self.phone_landline.as_str()]
            .into_iter()
            .filter(|p| !p.is_empty())
            .collect();
        if parts.is_empty() {
            self.unknown().to_string()
        } else {
            parts.join(", ")
        }
    }

    fn unknown(&self) -> &'static str {
        if self.de() { "unbekannt" } else { "unknown" }
    }

    /// An OpenStreetMap link to the fix.
    pub fn map_link(&self) -> Option<String> {
        match self.position {
            Position::Fix {
                latitude, longitude, ..
            } => Some(format!(
                "https://www.openstreetmap.org/?mlat={latitude:.6}&mlon={longitude:.6}#map=17/{latitude:.6}/{longitude:.6}"
            )),
            _ => None,
        }
    }

    /// Subject of the e-mail.
    pub fn subject(&self) -> String {
        if self.de() {
            format!("NOTFALL: {} hat den Hilfe-Knopf gedrückt", self.name)
        } else {
            format!("EMERGENCY: {} pressed the help button", self.name)
        }
    }

    /// The e-mail: the full dossier.
    pub fn email_body(&self) -> String {
        let de = self.de();
        let mut lines = vec![
            if de {
                format!(
                    "{} hat über den Sprachassistenten Hilfe angefordert. Bitte melde dich sofort oder schicke Hilfe.",
                    self.name
                )
            } else {
                format!(
                    "{} asked for help through the voice assistant. Please get in touch at once or send help.",
                    self.name
                )
            },
            String::new(),
            format!("Name: {}", self.name),
            format!("{}: {}", if de { "Adresse" } else { "Address" }, self.address()),
            format!("{}: {}", if de { "Telefon" } else { "Phone" }, self.phones()),
            format!(
                "{}: {}",
                if de { "Geburtsdatum" } else { "Date of birth" },
                or(&self.birth_date, self.unknown())
            ),
            format!(
                "{}: {}",
                if de { "Medizinische Hinweise" } else { "Medical notes" },
                or(&self.medical_notes, if de { "keine" } else { "none" })
            ),
        ];
        match &self.position {
            Position::Fix {
                latitude,
                longitude,
                accuracy,
                timestamp,
            } => {
                lines.push(format!(
                    "{}: {latitude:.6}, {longitude:.6}",
                    if de { "Koordinaten" } else { "Coordinates" }
                ));
                if let Some(link) = self.map_link() {
                    lines.push(format!("{}: {link}", if de { "Karte" } else { "Map" }));
                }
                if let Some(acc) = accuracy {
                    lines.push(format!("{}: {acc:.0} m", if de { "Genauigkeit" } else { "Accuracy" }));
                }
                if let Some(at) = timestamp.and_then(format_time) {
                    lines.push(format!(
                        "{}: {at}",
                        if de { "Zeitpunkt der Ortung" } else { "Time of the fix" }
                    ));
                }
            }
            Position::Unavailable(reason) => lines.push(format!(
                "{}: {reason}",
                if de {
                    "Standort nicht verfügbar"
                } else {
                    "Position unavailable"
                }
            )),
            Position::NoConsent => lines.push(
                if de {
                    "Standort: nicht freigegeben"
                } else {
                    "Position: not shared (no consent)"
                }
                .to_string(),
            ),
        }
        lines.push(format!(
            "{}: {}",
            if de { "Ausgelöst von" } else { "Triggered from" },
            self.device
        ));
        lines.push(String::new());
        lines.push(
            if de {
                "Wenn du nicht helfen kannst, ruf den Notruf 112 an."
            } else {
                "If you cannot help, call the emergency number 112."
            }
            .to_string(),
        );
        lines.join("\n")
    }

    /// The SMS: name, address, phones, map link.
    pub fn sms(&self) -> String {
        let mut sms = if self.de() {
            format!(
                "NOTFALL: {} braucht Hilfe. Adresse: {}. Tel: {}.",
                self.name,
                self.address(),
                self.phones()
            )
        } else {
            format!(
                "EMERGENCY: {} needs help. Address: {}. Phone: {}.",
                self.name,
                self.address(),
                self.phones()
            )
        };
        if let Some(link) = self.map_link() {
            sms.push_str(&format!(" {}: {link}", if self.de() { "Ort" } else { "Location" }));
        }
        sms
    }

    /// What the call says: name and home address, no address of a web page or coordinates.
    pub fn call_text(&self) -> String {
        if self.de() {
            format!(
                "Achtung, Notfall. {} hat den Hilfe-Knopf gedrückt. Adresse: {}. Einzelheiten stehen in der SMS und in der E-Mail.",
                self.name,
                self.address()
            )
        } else {
            format!(
                "Attention, emergency. {} pressed the help button. Address: {}. Details are in the text message and the e-mail.",
                self.name,
                self.address()
            )
        }
    }

    /// The call as TwiML: the text said twice in the person's language.
    pub fn twiml(&self) -> String {
        let voice_lang = if self.de() { "de-DE" } else { "en-US" };
        let say = format!("<Say language=\"{voice_lang}\">{}</Say>", xml_escape(&self.call_text()));
        format!("<Response>{say}<Pause length=\"1\"/>{say}</Response>")
    }
}

fn or<'a>(value: &'a str, empty: &'a str) -> &'a str {
    if value.is_empty() { empty } else { value }
}

/// A fix time as local date and time with its offset.
fn format_time(ms: i64) -> Option<String> {
    let utc = chrono::DateTime::from_timestamp_millis(ms)?;
    Some(
        utc.with_timezone(&chrono::Local)
            .format("%Y-%m-%d %H:%M:%S %:z")
            .to_string(),
    )
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The answer's message in the person's language.
pub fn message(lang: &str, status: &str) -> String {
    let de = lang == "de";
    match (status, de) {
        ("alerted", true) => "Hilfe ist unterwegs: deine Kontaktpersonen wurden benachrichtigt.".into(),
        ("alerted", false) => "Help is on the way: your contacts have been notified.".into(),
        ("no_recipients", true) => {
            "Es ist niemand eingetragen, der benachrichtigt werden kann. Ruf bitte selbst den Notruf 112 an.".into()
        }
        ("no_recipients", false) => {
            "Nobody is set up to be notified. Please call the emergency number 112 yourself.".into()
        }
        (_, true) => "Die Benachrichtigung ist fehlgeschlagen. Ruf bitte selbst den Notruf 112 an.".into(),
        (_, false) => "The notification failed. Please call the emergency number 112 yourself.".into(),
    }
}

/// The answer to a press inside the window: what happened to the alarm that opened it. `reached` is `None`
/// while that alarm is still being sent, else the channels and recipients it reached (empty: nobody).
pub fn cooldown_message(lang: &str, minutes_ago: i64, reached: Option<&[(String, String)]>) -> String {
    let de = lang == "de";
    match reached {
        None if de => "Der Alarm wird gerade gesendet. Wenn es dringend ist, ruf den Notruf 112 an.".into(),
        None => "The alarm is being sent right now. If it is urgent, call the emergency number 112.".into(),
        Some([]) if de => {
            format!("Der Alarm vor {minutes_ago} Minuten hat niemanden erreicht. Ruf bitte selbst den Notruf 112 an.")
        }
        Some([]) => format!(
            "The alarm of {minutes_ago} minutes ago reached nobody. Please call the emergency number 112 yourself."
        ),
        Some(people) => {
            let who = people
                .iter()
                .map(|(channel, to)| format!("{to} ({})", channel_name(channel, de)))
                .collect::<Vec<_>>()
                .join(", ");
            if de {
                format!(
                    "Der Alarm wurde vor {minutes_ago} Minuten ausgelöst und hat {who} erreicht. \
                     Wenn es dringend ist, ruf den Notruf 112 an."
                )
            } else {
                format!(
                    "The alarm was raised {minutes_ago} minutes ago and reached {who}. \
                     If it is urgent, call the emergency number 112."
                )
            }
        }
    }
}

fn channel_name(channel: &str, de: bool) -> &'static str {
    match (channel, de) {
        ("email", true) => "E-Mail",
        ("email", false) => "e-mail",
        ("sms", _) => "SMS",
        (_, true) => "Anruf",
        (_, false) => "call",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anna() -> Dossier {
        Dossier {
            lang: "de",
            name: "Anna Muster".into(),
            street: "Hauptstr. 5".into(),
            postal_code: "20095".into(),
            city: "Hamburg".into(),
            phone_mobile: "+491701234567".into(),
            position: Position::Fix {
                latitude: 53.55,
                longitude: 9.99,
                accuracy: Some(12.0),
                timestamp: Some(0),
            },
            device: "mobile (Android)".into(),
            ..Dossier::default()
        }
    }

    #[test]
    fn the_call_names_person_and_address_but_no_link_or_coordinates() {
        let d = anna();
        let call = d.call_text();
        assert!(call.contains("Anna Muster") && call.contains("Hauptstr. 5, 20095 Hamburg"));
        assert!(!call.contains("http") && !call.contains("53.5"));
        assert!(d.twiml().starts_with("<Response><Say language=\"de-DE\">"));
    }

    #[test]
    fn sms_is_compact_with_the_map_link() {
        let sms = anna().sms();
        assert!(sms.contains("+491701234567") && sms.contains("openstreetmap.org/?mlat=53.550000"));
        assert!(sms.chars().count() < 320, "{}", sms.len());
    }

    #[test]
    fn markup_in_names_is_escaped_in_twiml() {
        let d = Dossier {
            name: "A <b> & \"C\"".into(),
            lang: "en",
            ..Dossier::default()
        };
        assert!(d.twiml().contains("A &lt;b&gt; &amp; &quot;C&quot;"));
    }
}
