//! What an alarm says: the person's profile from the prefs, the position, and the texts of every channel in
//! the person's language (the phrasebook's `help` area).

use crate::prefs::Prefs;

use crate::phrasebook::{Words, phrase};

/// The emergency profile and the moment's facts.
#[derive(Debug, Clone)]
pub struct Dossier {
    /// The person's language, which the contacts are told in.
    pub lang: String,
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
    /// The kind of device and its platform.
    pub device: String,
    /// How help was asked: the subject, the first line, the call and the page say it.
    pub way: super::Way,
    /// The person's own words, when they typed or said them.
    pub said: Option<String>,
    /// Whether this alarm calls anybody: only then are contacts told to confirm with the 1 on a call.
    pub calls: bool,
    /// The person's time zone (IANA name): times are told on their clock, named.
    pub zone: String,
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

/// What a contact's copy of the alarm carries besides the dossier.
#[derive(Debug, Clone, Copy, Default)]
pub struct Personal<'a> {
    /// The contact's acknowledgement link.
    pub link: Option<&'a str>,
    /// For a reminder: minutes since the alarm was raised.
    pub reminder: Option<i64>,
}

impl Dossier {
    /// The profile of the prefs; `fallback_name` when no full name is set.
    pub fn from_prefs(prefs: &Prefs, fallback_name: &str, lang: &str) -> Self {
        let text = |v: &Option<String>| Prefs::text(v).to_string();
        let name = Some(text(&prefs.full_name))
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| fallback_name.to_string());
        Self {
            lang: lang.to_string(),
            name,
            street: text(&prefs.street),
            postal_code: text(&prefs.postal_code),
            city: text(&prefs.city),
            phone_mobile: text(&prefs.phone_mobile),
            phone_landline: text(&prefs.phone_landline),
            birth_date: text(&prefs.birth_date),
            medical_notes: text(&prefs.medical_notes),
            position: Position::NoConsent,
            device: String::new(),
            way: super::Way::Button,
            said: None,
            calls: false,
            zone: "UTC".into(),
        }
    }

    /// Street, postal code and city on one line; "unknown" when nothing is set.
    pub fn address(&self) -> String {
        let place = format!("{} {}", self.postal_code, self.city).trim().to_string();
        join_or(&[&self.street, &place], &self.words().get("help-unknown"))
    }

    fn phones(&self) -> String {
        join_or(
            &[&self.phone_mobile, &self.phone_landline],
            &self.words().get("help-unknown"),
        )
    }

    /// The words of the alarm: the person's language, the contacts addressed formally.
    pub fn words(&self) -> Words<'_> {
        Words::formal(&self.lang)
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
    pub fn subject(&self, copy: Personal) -> String {
        let id = if copy.reminder.is_some() {
            "help-reminder-subject"
        } else {
            "help-subject"
        };
        self.words().with(
            id,
            &[("name", self.name.as_str().into()), ("way", self.way.name().into())],
        )
    }

    /// The e-mail: the full dossier, the contact's acknowledgement link, the 112 advice.
    pub fn email_body(&self, copy: Personal) -> String {
        let t = self.words();
        let label = |id: &str| t.get(id);
        let name = ("name", self.name.as_str().into());
        let intro = match copy.reminder {
            Some(minutes) => t.with("help-reminder-intro", &[name, ("minutes", minutes.into())]),
            None => t.with("help-intro", &[name, ("way", self.way.name().into())]),
        };
        let mut lines = vec![intro];
        lines.extend(self.said_line());
        lines.push(String::new());
        if let Some(link) = copy.link {
            lines.push(t.with("help-confirm-line", &[("link", link.into())]));
            // A link to the gateway's own loopback opens nothing on the contact's phone (a carer at the same
            // machine may still use it): they are told how to confirm instead, by the 1 only where calls exist.
            if super::checks::local_address(link) {
                let id = if self.calls {
                    "help-confirm-unreachable"
                } else {
                    "help-confirm-direct"
                };
                lines.push(t.with(id, &[("name", self.name.as_str().into())]));
            }
            lines.push(String::new());
        }
        lines.extend([
            format!("{}: {}", label("help-name"), self.name),
            format!("{}: {}", label("help-address"), self.address()),
            format!("{}: {}", label("help-phone"), self.phones()),
            format!(
                "{}: {}",
                label("help-birth-date"),
                or(&self.birth_date, &label("help-unknown"))
            ),
            format!(
                "{}: {}",
                label("help-medical-notes"),
                or(&self.medical_notes, &label("help-none"))
            ),
        ]);
        match &self.position {
            Position::Fix {
                latitude,
                longitude,
                accuracy,
                timestamp,
            } => {
                lines.push(format!("{}: {latitude:.6}, {longitude:.6}", label("help-coordinates")));
                if let Some(link) = self.map_link() {
                    lines.push(format!("{}: {link}", label("help-map")));
                }
                if let Some(acc) = accuracy {
                    lines.push(format!("{}: {acc:.0} m", label("help-accuracy")));
                }
                if let Some(at) = timestamp.and_then(|ms| format_time(ms, &self.zone)) {
                    lines.push(format!("{}: {at}", label("help-fix-time")));
                }
            }
            Position::Unavailable(reason) => lines.push(format!("{}: {reason}", label("help-position-unavailable"))),
            Position::NoConsent => lines.push(label("help-position-not-shared")),
        }
        lines.push(format!("{}: {}", label("help-triggered-from"), self.device));
        lines.push(String::new());
        lines.push(label("help-call-112"));
        lines.join("\n")
    }

    /// "Anna Muster schrieb: „Hilfe, ich bin gestürzt“": the person's own words, when there are some.
    pub fn said_line(&self) -> Option<String> {
        let said = self.said.as_deref().filter(|s| !s.is_empty())?;
        Some(self.words().with(
            "help-said",
            &[
                ("name", self.name.as_str().into()),
                ("way", self.way.name().into()),
                ("words", said.into()),
            ],
        ))
    }

    /// The SMS: name, address, phones, map link, the contact's acknowledgement link.
    pub fn sms(&self, copy: Personal) -> String {
        let t = self.words();
        let id = if copy.reminder.is_some() {
            "help-sms-reminder"
        } else {
            "help-sms"
        };
        let mut sms = t.with(
            id,
            &[
                ("name", self.name.as_str().into()),
                ("address", self.address().into()),
                ("phones", self.phones().into()),
            ],
        );
        if let Some(link) = self.map_link() {
            sms.push(' ');
            sms.push_str(&t.with("help-sms-location", &[("link", link.into())]));
        }
        if let Some(link) = copy.link {
            sms.push(' ');
            sms.push_str(&t.with("help-sms-confirm", &[("link", link.into())]));
        }
        sms
    }

    /// What the call says: name and home address, no address of a web page or coordinates.
    pub fn call_text(&self, copy: Personal) -> String {
        let t = self.words();
        let text = t.with(
            "help-call",
            &[
                ("name", self.name.as_str().into()),
                ("address", self.address().into()),
                ("way", self.way.name().into()),
            ],
        );
        match copy.reminder {
            Some(_) => format!("{} {text}", t.get("help-call-reminder")),
            None => text,
        }
    }

    /// The call as TwiML: the text said twice in the person's language, inside a `<Gather>` that posts a
    /// pressed 1 to `callback` (the acknowledgement of the call).
    pub fn twiml(&self, copy: Personal, callback: Option<&str>) -> String {
        let voice = phrase(&self.lang, "language-twilio-voice");
        let say = |text: &str| format!("<Say language=\"{voice}\">{}</Say>", xml_escape(text));
        let message = say(&self.call_text(copy));
        match callback {
            Some(url) => format!(
                "<Response><Gather numDigits=\"1\" action=\"{}\" method=\"POST\" timeout=\"10\">{message}\
                 <Pause length=\"1\"/>{message}{}</Gather></Response>",
                xml_escape(url),
                say(&self.words().get("help-call-press-1"))
            ),
            None => format!("<Response>{message}<Pause length=\"1\"/>{message}</Response>"),
        }
    }

    /// TwiML that thanks the callee for pressing 1.
    pub fn twiml_thanks(lang: &str, name: &str) -> String {
        format!(
            "<Response><Say language=\"{}\">{}</Say></Response>",
            phrase(lang, "language-twilio-voice"),
            xml_escape(&Words::formal(lang).with("help-call-thanks", &[("name", name.into())]))
        )
    }
}

fn or<'a>(value: &'a str, empty: &'a str) -> &'a str {
    if value.is_empty() { empty } else { value }
}

fn join_or(parts: &[&str], empty: &str) -> String {
    let parts: Vec<&str> = parts.iter().copied().filter(|p| !p.is_empty()).collect();
    if parts.is_empty() {
        empty.to_string()
    } else {
        parts.join(", ")
    }
}

/// A time on the clock of the time zone named `zone`, named: "2026-12-06 15:04 (Europe/Berlin)".
pub fn format_time(ms: i64, zone: &str) -> Option<String> {
    let at = jiff::Timestamp::from_millisecond(ms).ok()?;
    let tz = crate::zones::zone(Some(zone), None);
    let name = crate::zones::zone_name(&tz);
    Some(format!("{} ({name})", at.to_zoned(tz).strftime("%Y-%m-%d %H:%M")))
}

/// Escapes text for XML and HTML.
pub fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anna() -> Dossier {
        let mut d = Dossier::from_prefs(&Prefs::default(), "Anna Muster", "de");
        d.street = "Hauptstr. 5".into();
        d.postal_code = "20095".into();
        d.city = "Hamburg".into();
        d.phone_mobile = "+491701234567".into();
        d.position = Position::Fix {
            latitude: 53.55,
            longitude: 9.99,
            accuracy: Some(12.0),
            timestamp: Some(0),
        };
        d.device = "mobile (Android)".into();
        d
    }

    #[test]
    fn subject_first_line_and_call_say_how_help_was_asked() {
        let mut d = anna();
        assert_eq!(
            d.subject(Personal::default()),
            "NOTFALL: Anna Muster hat mit dem Hilfe-Knopf Hilfe gerufen"
        );
        d.way = crate::emergency::Way::Spoken;
        assert_eq!(
            d.subject(Personal::default()),
            "NOTFALL: Anna Muster hat per Sprache Hilfe gerufen"
        );
        d.way = crate::emergency::Way::Key;
        assert!(
            d.call_text(Personal::default())
                .contains("mit der Hilfe-Taste am Telefon Hilfe gerufen")
        );
        d.way = crate::emergency::Way::Typed;
        assert!(
            d.email_body(Personal::default())
                .starts_with("Anna Muster hat über den Sprachassistenten schriftlich")
        );
        for lang in crate::config::languages() {
            d.lang = lang.to_string();
            assert!(!d.subject(Personal::default()).contains('{'), "{lang}");
        }
    }

    #[test]
    fn beside_a_link_a_contact_cannot_open_the_mail_says_how_to_confirm() {
        let d = anna();
        let local = Personal {
            link: Some("http://127.0.0.1:8080/api/emergency/ack/abc"),
            reminder: None,
        };
        let mail = d.email_body(local);
        assert!(!mail.contains("mit der 1"), "no key without calls: {mail}");
        assert!(mail.contains("melden Sie sich direkt bei Anna Muster"), "{mail}");
        let called = Dossier {
            calls: true,
            ..d.clone()
        };
        let mail = called.email_body(local);
        assert!(mail.contains("bestätigen Sie mit der 1"), "{mail}");
        let public = Personal {
            link: Some("https://hilfe.example.org/api/emergency/ack/abc"),
            reminder: None,
        };
        assert!(
            d.email_body(public)
                .contains("https://hilfe.example.org/api/emergency/ack/abc")
        );
    }

    #[test]
    fn the_call_names_person_and_address_but_no_link_or_coordinates() {
        let d = anna();
        let call = d.call_text(Personal::default());
        assert!(call.contains("Anna Muster") && call.contains("Hauptstr. 5, 20095 Hamburg"));
        assert!(!call.contains("http") && !call.contains("53.5"));
        assert!(
            d.twiml(Personal::default(), None)
                .starts_with("<Response><Say language=\"de-DE\">")
        );
    }

    #[test]
    fn the_call_asks_for_a_1_that_posts_to_the_callback() {
        let twiml = anna().twiml(
            Personal::default(),
            Some("https://gw.example/api/emergency/call/x?a=1&b=2"),
        );
        assert!(
            twiml.starts_with(
                "<Response><Gather numDigits=\"1\" action=\"https://gw.example/api/emergency/call/x?a=1&amp;b=2\""
            ),
            "{twiml}"
        );
        assert!(twiml.contains("Drücken Sie die 1") && twiml.ends_with("</Gather></Response>"));
    }

    #[test]
    fn sms_is_compact_with_the_map_link_and_the_confirmation_link() {
        let link = "https://gw.example/api/emergency/ack/0123456789012345678901234567890123456789abc";
        let sms = anna().sms(Personal {
            link: Some(link),
            reminder: None,
        });
        assert!(sms.contains("+491701234567") && sms.contains("openstreetmap.org/?mlat=53.550000"));
        assert!(sms.ends_with(link), "{sms}");
        assert!(sms.chars().count() < 320, "{}", sms.len());
    }

    #[test]
    fn a_reminder_says_that_nobody_has_confirmed_yet() {
        let d = anna();
        let copy = Personal {
            link: None,
            reminder: Some(3),
        };
        assert!(d.subject(copy).starts_with("ERINNERUNG"));
        assert!(d.email_body(copy).contains("vor 3 Minuten"));
        assert!(d.call_text(copy).starts_with("Erinnerung"));
    }

    #[test]
    fn markup_in_names_is_escaped_in_twiml() {
        let d = Dossier::from_prefs(&Prefs::default(), "A <b> & \"C\"", "en");
        assert!(
            d.twiml(Personal::default(), None)
                .contains("A &lt;b&gt; &amp; &quot;C&quot;")
        );
    }
}
