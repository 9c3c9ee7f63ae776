//! User preferences: which keys exist, who may set them, and how their values are checked.
//!
//! A change is a JSON object of some keys; `null` removes a key (back to the default). Values are stored in
//! canonical form (trimmed text, phone numbers without spaces, cooldown minutes as a string).

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::config::languages;
use crate::config::route::RouteLayer;
use crate::error::ApiError;
use crate::providers::{LlmId, ProviderId, Stage, SttId, TtsId};

/// One list of the preferences, from which the stored [`Prefs`], the [`PrefsChange`] of a write and the merge
/// are made.
macro_rules! preferences {
    ($($(#[$doc:meta])* $name:ident: $ty:ty,)*) => {
        /// A user's preferences; a key that is not set is `None` (the default applies) and is left out of the
        /// JSON.
        #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
        #[serde(default)]
        pub struct Prefs {
            $($(#[$doc])* #[serde(skip_serializing_if = "Option::is_none")] pub $name: Option<$ty>,)*
        }

        /// A checked change of preferences: `Some(Some(v))` sets a key, `Some(None)` (JSON `null`) removes
        /// it, `None` leaves it alone.
        #[derive(Debug, Clone, Default, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct PrefsChange {
            $(#[serde(deserialize_with = "present")] pub $name: Option<Option<$ty>>,)*
        }

        impl Prefs {
            /// The name of every preference.
            pub const KEYS: &[&str] = &[$(stringify!($name),)*];

            /// These prefs with `change` applied.
            pub fn apply(&mut self, change: PrefsChange) {
                $(if let Some(value) = change.$name {
                    self.$name = value;
                })*
            }
        }
    };
}

preferences! {
    /// The language of the answers (one of the eight).
    language: String,
    /// The TTS voice.
    voice: String,
    /// `female`, `male` or `""`.
    voice_gender: String,
    /// The speech-to-text provider.
    #[schema(value_type = Option<SttId>)]
    stt_provider: String,
    /// The language-model provider.
    #[schema(value_type = Option<LlmId>)]
    llm_provider: String,
    /// The text-to-speech provider.
    #[schema(value_type = Option<TtsId>)]
    tts_provider: String,
    llm_model: String,
    web_search_enabled: bool,
    full_name: String,
    street: String,
    postal_code: String,
    city: String,
    /// International format, `+` and digits.
    phone_mobile: String,
    phone_landline: String,
    /// `YYYY-MM-DD`.
    birth_date: String,
    medical_notes: String,
    /// E-mail addresses alerted by the help button.
    emergency_contacts: Vec<String>,
    /// Phone numbers texted and called by the help button.
    emergency_contact_phones: Vec<String>,
    /// Whether the help button may send the position.
    location_consent: bool,
    /// The page in large text with high contrast, on every device of the person.
    large_text: bool,
    /// Whether the person's carers may see the list of their conversations (titles and times, never what was
    /// said); off unless the person (or an admin) turns it on.
    share_with_carers: bool,
    /// Whether the person's words go only to providers on this machine or its network (`LOCAL_ONLY` is the
    /// default): a cloud model, recogniser or voice is replaced by a local one, or the turn is refused with a
    /// notice; no web search.
    local_only: bool,
    /// Days the person's conversations are kept, when fewer than the gateway keeps them
    /// (`RETENTION_CONVERSATIONS_DAYS`): 1 to 3650.
    conversation_retention_days: u64,
    /// Whether the person's carers are told what their contacts are told (care notices, calls for help);
    /// on unless turned off.
    notify_carers: bool,
    /// The person's own e-mail address: as a carer, where their residents' care notices, calls for help and
    /// the daily summary reach them.
    email: String,
    /// As a carer, when the daily summary of their residents' day is mailed ("18:00" in their own time zone);
    /// empty = none.
    carer_summary_at: String,
    /// How the gateway addresses the person where the language has two forms: `formal` (German "Sie", the
    /// default) or `informal` ("du").
    form_of_address: String,
    /// The IANA time zone reminders keep their times in ("Europe/Berlin"); empty = `TIMEZONE`, else the
    /// machine's.
    timezone: String,
    /// When a reminder is asked for a day without a time ("morgen an den Arzt"), it is set at this time of day
    /// ("09:00") and the answer says so; empty = the gateway asks "Um wie viel Uhr?".
    reminder_time: String,
    /// The daily check-in's window ("08:00-10:00", in the person's time zone); empty = no check-in.
    checkin_window: String,
    /// `YYYY-MM-DD`: the person is away through that day; no check-in until then.
    away_until: String,
    /// Where reminders and the check-in reach the person, in order: `page`, `house_line`, `phone`,
    /// `home_assistant` (announced on `ha_satellite`; only when named here); unset = the
    /// page when one is open, else the house line when `phone_landline` is an internal number, else
    /// `phone_mobile` by Twilio.
    reminder_via: Vec<String>,
    /// The person's Assist satellite in Home Assistant (`assist_satellite.kitchen`), where `home_assistant`
    /// announces reminders and the check-in.
    ha_satellite: String,
    /// How long a pause may last before the turn is taken as over: `auto` (learned from the person's pauses),
    /// `quick`, `normal`, `patient`, or milliseconds (200 to 5000) as a string.
    turn_patience: String,
    /// Admin only: the languages the user may use.
    allowed_languages: Vec<String>,
    /// Admin only: web searches per day, 0 = unlimited.
    web_search_daily_limit: u64,
    /// Admin only: requests per day, 0 = unlimited.
    daily_request_limit: u64,
    /// Admin only: `""` (the global setting) or whole minutes from 0 to 60.
    emergency_cooldown_minutes: String,
    /// Admin only: the phone numbers (E.164) whose calls are this user's; each number is one user's at most.
    caller_numbers: Vec<String>,
}

/// The channels a person may name in `reminder_via`, in the default order (see `care::reach`).
pub const REMINDER_CHANNELS: &[&str] = &["page", "house_line", "phone", "home_assistant"];

/// A field of a change that is present, `null` included.
pub(crate) fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

impl Prefs {
    /// The route layer these prefs hold.
    pub fn route_layer(&self) -> RouteLayer {
        let get = |v: &Option<String>| Some(Self::text(v)).filter(|s| !s.is_empty()).map(String::from);
        // Checked when they were stored; a provider that no longer exists has no say.
        fn id<I: ProviderId>(name: Option<String>) -> Option<I> {
            I::parse(&name?).ok()
        }
        RouteLayer {
            stt_provider: id(get(&self.stt_provider)),
            llm_provider: id(get(&self.llm_provider)),
            tts_provider: id(get(&self.tts_provider)),
            llm_model: get(&self.llm_model),
            voice: get(&self.voice),
            language: get(&self.language),
        }
    }

    /// The time zone the person set, if any.
    pub fn timezone(&self) -> Option<&str> {
        Some(Self::text(&self.timezone)).filter(|z| !z.is_empty())
    }

    /// Whether the person chose to be addressed informally (German "du").
    pub fn informal(&self) -> bool {
        self.form_of_address.as_deref() == Some("informal")
    }

    /// The languages an admin allows the user (empty = all).
    pub fn allowed_languages(&self) -> &[String] {
        self.allowed_languages.as_deref().unwrap_or_default()
    }

    /// A text pref, empty when not set.
    pub fn text(value: &Option<String>) -> &str {
        value.as_deref().unwrap_or("").trim()
    }
}

/// Checks a change of prefs (as [`validate`] does) and returns it typed.
pub fn change(changes: &Map<String, Value>, writer: Writer) -> Result<PrefsChange, ApiError> {
    let canonical = validate(changes, writer)?;
    // Every value is canonical now, so it reads as its type.
    serde_json::from_value(Value::Object(canonical)).map_err(|e| ApiError::Internal(format!("prefs: {e}")))
}

/// Who is writing prefs: users may not raise their own limits or change what the admin allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writer {
    /// The user, through `PUT /api/me/prefs`.
    User,
    /// An admin, through `PUT /api/admin/users/{id}/prefs`.
    Admin,
}

/// Keys only an admin may set.
pub const ADMIN_ONLY: &[&str] = &[
    "allowed_languages",
    "web_search_daily_limit",
    "daily_request_limit",
    "emergency_cooldown_minutes",
    "caller_numbers",
];

/// Route keys: a user's (or a session's) choice of providers, model, voice and language.
pub const ROUTE_KEYS: &[&str] = &[
    "stt_provider",
    "llm_provider",
    "tts_provider",
    "llm_model",
    "voice",
    "language",
];

/// Text fields of the emergency profile and their longest accepted length.
const PROFILE_TEXT: &[(&str, usize)] = &[
    ("full_name", 200),
    ("street", 200),
    ("postal_code", 20),
    ("city", 100),
    ("medical_notes", 4000),
];

/// Checks a change of prefs and returns it in canonical form; the 422 message names the first bad field.
pub fn validate(changes: &Map<String, Value>, writer: Writer) -> Result<Map<String, Value>, ApiError> {
    let mut out = Map::new();
    for (key, value) in changes {
        if writer == Writer::User && ADMIN_ONLY.contains(&key.as_str()) {
            return Err(ApiError::Forbidden(format!("{key} can only be set by an admin")));
        }
        let canonical = if value.is_null() {
            // Removing a preference that does not exist is as wrong as setting one.
            if !Prefs::KEYS.contains(&key.as_str()) {
                return Err(ApiError::invalid(key, "unknown preference"));
            }
            Value::Null
        } else {
            check(key, value)?
        };
        out.insert(key.clone(), canonical);
    }
    Ok(out)
}

/// Checks session route overrides (the route keys only).
pub fn validate_route(changes: &Map<String, Value>) -> Result<Map<String, Value>, ApiError> {
    let mut out = Map::new();
    for (key, value) in changes {
        if !ROUTE_KEYS.contains(&key.as_str()) {
            return Err(ApiError::invalid(
                key,
                format!("unknown override; expected one of {}", ROUTE_KEYS.join(", ")),
            ));
        }
        if !value.is_null() {
            out.insert(key.clone(), check(key, value)?);
        }
    }
    Ok(out)
}

fn check(key: &str, value: &Value) -> Result<Value, ApiError> {
    let bad = |problem: &str| ApiError::invalid(key, problem);
    match key {
        "allowed_languages" => {
            let list = string_list(key, value, 8)?;
            if list.is_empty() {
                return Err(bad("at least one language is required"));
            }
            for lang in &list {
                language(key, lang)?;
            }
            Ok(dedup(list))
        }
        "language" => Ok(Value::from(language(key, text(key, value, 8)?)?)),
        "web_search_enabled" | "location_consent" | "large_text" | "share_with_carers" | "notify_carers"
        | "local_only" => value
            .as_bool()
            .map(Value::from)
            .ok_or_else(|| bad("expected true or false")),
        "conversation_retention_days" => match value.as_u64() {
            Some(n @ 1..=3650) => Ok(Value::from(n)),
            _ => Err(bad("expected a whole number of days from 1 to 3650")),
        },
        "web_search_daily_limit" | "daily_request_limit" => match value.as_u64() {
            Some(n) if n <= 1_000_000 => Ok(Value::from(n)),
            _ => Err(bad("expected a whole number from 0 (unlimited) to 1000000")),
        },
        "emergency_cooldown_minutes" => cooldown(key, value),
        "turn_patience" => patience(key, value),
        "email" | "carer_summary_at" | "reminder_time" => carer(key, value),
        "timezone" => {
            let zone = text(key, value, 64)?;
            if zone.is_empty() || jiff::tz::TimeZone::get(&zone).is_ok() {
                Ok(Value::from(zone))
            } else {
                Err(bad("expected an IANA time zone such as \"Europe/Berlin\""))
            }
        }
        "form_of_address" => match text(key, value, 10)?.as_str() {
            f @ ("formal" | "informal") => Ok(Value::from(f)),
            _ => Err(bad("expected \"formal\" or \"informal\"")),
        },
        "voice_gender" => match text(key, value, 10)?.as_str() {
            g @ ("female" | "male" | "") => Ok(Value::from(g)),
            _ => Err(bad("expected \"female\", \"male\" or \"\"")),
        },
        "stt_provider" => provider(key, value, Stage::Stt),
        "llm_provider" => provider(key, value, Stage::Llm),
        "tts_provider" => provider(key, value, Stage::Tts),
        "llm_model" | "voice" => Ok(Value::from(text(key, value, 200)?)),
        _ => check_profile(key, value),
    }
}

/// [`check`] for what a carer sets for themselves: their own address and the daily summary's time.
fn carer(key: &str, value: &Value) -> Result<Value, ApiError> {
    match (key, text(key, value, 254)?) {
        (_, empty) if empty.is_empty() => Ok(Value::from(empty)),
        ("email", address) if is_email(&address) => Ok(Value::from(address)),
        ("email", address) => Err(ApiError::invalid(key, format!("{address:?} is not an e-mail address"))),
        (_, at) => jiff::civil::Time::strptime("%H:%M", &at)
            .map(|t| Value::from(t.strftime("%H:%M").to_string()))
            .map_err(|_| ApiError::invalid(key, "expected a time of day such as \"18:00\", or \"\" for none")),
    }
}

/// [`check`] for the person's profile: care, the telephone, contacts and the free texts.
fn check_profile(key: &str, value: &Value) -> Result<Value, ApiError> {
    let bad = |problem: &str| ApiError::invalid(key, problem);
    match key {
        "checkin_window" => {
            let window = text(key, value, 20)?;
            match crate::hours::Window::parse(&window) {
                _ if window.is_empty() => Ok(Value::from(window)),
                Some(w) if w.start < w.end => Ok(Value::from(w.to_string())),
                _ => Err(bad("expected a span of one day such as \"08:00-10:00\", or \"\" for none")),
            }
        }
        "reminder_via" => {
            let list = string_list(key, value, 4)?;
            if let Some(other) = list.iter().find(|c| !crate::prefs::REMINDER_CHANNELS.contains(&c.as_str())) {
                return Err(ApiError::invalid(
                    key,
                    format!("{other:?} is not a channel; expected {}", crate::prefs::REMINDER_CHANNELS.join(", ")),
                ));
            }
            Ok(dedup(list))
        }
        "birth_date" | "away_until" => {
            let date = text(key, value, 10)?;
            if date.is_empty() || chrono::NaiveDate::parse_from_str(&date, "%Y-%m-%d").is_ok() {
                Ok(Value::from(date))
            } else {
                Err(bad("expected a date as YYYY-MM-DD"))
            }
        }
        "phone_mobile" => Ok(Value::from(phone(key, &text(key, value, 32)?, true)?)),
        "ha_satellite" => {
            let entity = text(key, value, 100)?;
            let object = entity.strip_prefix("assist_satellite.").unwrap_or_default();
            let valid = !object.is_empty() && object.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            if entity.is_empty() || valid {
                Ok(Value::from(entity))
            } else {
                Err(bad("expected an Assist satellite's entity id such as \"assist_satellite.kitchen\""))
            }
        }
        // The landline may be the person's handset in the house (an internal number), which care calls.
        "phone_landline" => match text(key, value, 32)? {
            empty if empty.is_empty() => Ok(Value::from(empty)),
            number => caller_number(&number).map(Value::from).ok_or_else(|| {
                bad("a number in international format (+4930123456) or an internal number of the house's telephone system (**611, 11)")
            }),
        },
        "emergency_contacts" => {
            let list = string_list(key, value, 10)?;
            for address in &list {
                if !is_email(address) {
                    return Err(ApiError::invalid(key, format!("{address:?} is not an e-mail address")));
                }
            }
            Ok(dedup(list))
        }
        // An internal number is a contact in the house (the nurses' station, a handset upstairs), called over
        // the house's telephone.
        "emergency_contact_phones" | "caller_numbers" => {
            let list = string_list(key, value, 10)?;
            let canon: Option<Vec<String>> = list.iter().map(|p| caller_number(p)).collect();
            let canon = canon.ok_or_else(|| {
                ApiError::invalid(key, "a number in international format (+4930123456) or an internal number of the house's telephone system (**611, 11)")
            })?;
            Ok(dedup(canon))
        }
        _ => match PROFILE_TEXT.iter().find(|(name, _)| *name == key) {
            // A name or an address is one line: a newline in it would be more lines of the alarm mail, which
            // could pass for its headers.
            Some((name, max)) if *name != "medical_notes" => Ok(Value::from(line(key, value, *max)?)),
            Some((_, max)) => Ok(Value::from(text(key, value, *max)?)),
            None => Err(bad("unknown preference")),
        },
    }
}

fn text(key: &str, value: &Value, max: usize) -> Result<String, ApiError> {
    let s = value
        .as_str()
        .ok_or_else(|| ApiError::invalid(key, "expected a string"))?;
    if s.chars().count() > max {
        return Err(ApiError::invalid(key, format!("longer than {max} characters")));
    }
    if s.chars().any(|c| c.is_control() && c != '\n') {
        return Err(ApiError::invalid(key, "contains control characters"));
    }
    Ok(s.trim().to_string())
}

/// As [`text`], on one line.
fn line(key: &str, value: &Value, max: usize) -> Result<String, ApiError> {
    let s = text(key, value, max)?;
    if s.contains('\n') {
        return Err(ApiError::invalid(key, "must be one line"));
    }
    Ok(s)
}

fn string_list(key: &str, value: &Value, max: usize) -> Result<Vec<String>, ApiError> {
    let items = value
        .as_array()
        .ok_or_else(|| ApiError::invalid(key, "expected a list of strings"))?;
    if items.len() > max {
        return Err(ApiError::invalid(key, format!("at most {max} entries")));
    }
    items.iter().map(|v| text(key, v, 254)).collect()
}

fn dedup(mut list: Vec<String>) -> Value {
    let mut seen = std::collections::HashSet::new();
    list.retain(|s| seen.insert(s.clone()));
    Value::from(list)
}

fn language(key: &str, lang: impl AsRef<str>) -> Result<String, ApiError> {
    let lang = lang.as_ref();
    if languages().contains(&lang) {
        Ok(lang.to_string())
    } else {
        Err(ApiError::invalid(
            key,
            format!("{lang:?} is not one of {}", languages().join(", ")),
        ))
    }
}

fn provider(key: &str, value: &Value, stage: Stage) -> Result<Value, ApiError> {
    let id = text(key, value, 20)?;
    // Not trimmed: a stored id is used as it is written.
    match stage.parse(&id) {
        Ok(canonical) if canonical == id => Ok(Value::from(id)),
        _ => Err(ApiError::invalid(
            key,
            format!("{id:?} is not one of {}", stage.ids().join(", ")),
        )),
    }
}

/// `auto`, `quick`, `normal`, `patient`, or whole milliseconds from 200 to 5000 (a number is accepted too).
fn patience(key: &str, value: &Value) -> Result<Value, ApiError> {
    let raw = match value {
        Value::String(s) => s.trim().to_lowercase(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    };
    let named = ["auto", "quick", "normal", "patient"].contains(&raw.as_str());
    if named || raw.parse::<u32>().is_ok_and(|ms| (200..=5000).contains(&ms)) {
        Ok(Value::from(raw))
    } else {
        Err(ApiError::invalid(
            key,
            "expected \"auto\", \"quick\", \"normal\", \"patient\" or milliseconds from 200 to 5000",
        ))
    }
}

/// Empty = use the global setting; otherwise whole minutes 0 to 60 (a number is accepted too).
fn cooldown(key: &str, value: &Value) -> Result<Value, ApiError> {
    let raw = match value {
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    };
    let valid = raw.is_empty() && value.is_string() || raw.parse::<u8>().is_ok_and(|m| m <= 60);
    if valid {
        Ok(Value::from(raw))
    } else {
        Err(ApiError::invalid(
            key,
            "expected \"\" (use the global setting) or whole minutes from 0 to 60",
        ))
    }
}

/// International format: `+` then 7 to 15 digits; spaces, dashes, dots and parentheses are dropped.
fn phone(key: &str, raw: &str, empty_ok: bool) -> Result<String, ApiError> {
    if raw.is_empty() && empty_ok {
        return Ok(String::new());
    }
    let compact: String = raw
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '.' | '(' | ')' | '/'))
        .collect();
    let digits = compact.strip_prefix('+').unwrap_or_default();
    let valid =
        (7..=15).contains(&digits.len()) && digits.chars().all(|c| c.is_ascii_digit()) && !digits.starts_with('0');
    if valid {
        Ok(compact)
    } else {
        Err(ApiError::invalid(
            key,
            format!("{raw:?} is not a phone number in international format (+4930123456)"),
        ))
    }
}

/// A phone number in E.164 (`+` and 7 to 15 digits, spaces and dashes dropped), as callers are known by.
pub fn e164(raw: &str) -> Option<String> {
    phone("number", raw, false).ok()
}

/// A number a call comes from: E.164, or an internal number of the house's telephone system as a router
/// passes it (`**611` for a Fritz!Box handset, `11`, `620`: an optional `**` and 1 to 6 digits).
pub fn caller_number(raw: &str) -> Option<String> {
    let compact: String = raw.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
    let digits = compact.strip_prefix("**").unwrap_or(&compact);
    let internal = (1..=6).contains(&digits.len()) && digits.chars().all(|c| c.is_ascii_digit());
    if internal { Some(compact) } else { e164(raw) }
}

/// A plain check of an e-mail address: one `@`, a dotted domain, no spaces.
pub fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && s.len() <= 254
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains('@')
        && !s.chars().any(|c| c.is_whitespace() || c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_sets_removes_and_leaves_alone() {
        let mut prefs = Prefs {
            language: Some("de".into()),
            city: Some("Bern".into()),
            ..Prefs::default()
        };
        let body = serde_json::json!({"language": "en", "city": null, "daily_request_limit": 5});
        prefs.apply(change(body.as_object().unwrap(), Writer::Admin).unwrap());
        assert_eq!(prefs.language.as_deref(), Some("en"));
        assert_eq!(prefs.city, None, "null removes");
        assert_eq!(prefs.daily_request_limit, Some(5));
        let shown = serde_json::to_value(&prefs).unwrap();
        assert_eq!(
            shown,
            serde_json::json!({"language": "en", "daily_request_limit": 5}),
            "unset keys are left out"
        );
        let user = serde_json::json!({"daily_request_limit": 50});
        assert!(
            change(user.as_object().unwrap(), Writer::User).is_err(),
            "an admin-only key"
        );
    }
    use serde_json::json;

    fn one(key: &str, value: Value, writer: Writer) -> Result<Value, String> {
        let mut map = Map::new();
        map.insert(key.into(), value);
        validate(&map, writer)
            .map(|m| m[key].clone())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn values_are_canonical_or_refused_with_the_field_named() {
        let ok = [
            ("emergency_cooldown_minutes", json!("15"), json!("15")),
            ("emergency_cooldown_minutes", json!(""), json!("")),
            ("emergency_cooldown_minutes", json!(0), json!("0")),
            ("phone_mobile", json!("+49 170 123-4567"), json!("+491701234567")),
            ("allowed_languages", json!(["de", "de", "en"]), json!(["de", "en"])),
            ("birth_date", json!("1950-02-28"), json!("1950-02-28")),
            ("full_name", json!("  Erika Muster "), json!("Erika Muster")),
            ("turn_patience", json!(" Patient"), json!("patient")),
            ("turn_patience", json!(1200), json!("1200")),
            ("turn_patience", json!("auto"), json!("auto")),
            ("form_of_address", json!(" informal"), json!("informal")),
            ("timezone", json!("Europe/Berlin"), json!("Europe/Berlin")),
            ("timezone", json!(""), json!("")),
            (
                "medical_notes",
                json!("Diabetes\nPenicillin-Allergie"),
                json!("Diabetes\nPenicillin-Allergie"),
            ),
        ];
        for (key, input, want) in ok {
            assert_eq!(one(key, input, Writer::Admin).unwrap(), want, "{key}");
        }
        let bad = [
            ("emergency_cooldown_minutes", json!("61")),
            ("emergency_cooldown_minutes", json!("soon")),
            ("emergency_cooldown_minutes", json!(-1)),
            ("birth_date", json!("1950-02-30")),
            ("allowed_languages", json!([])),
            ("allowed_languages", json!(["xx"])),
            ("emergency_contacts", json!(["not-an-address"])),
            ("emergency_contact_phones", json!(["0301234"])),
            ("web_search_enabled", json!("yes")),
            ("favourite_colour", json!("blue")),
            ("turn_patience", json!("slow")),
            ("form_of_address", json!("du")),
            ("timezone", json!("Mars/Olympus")),
            ("turn_patience", json!(100)),
            ("turn_patience", json!("9000")),
            // A second line in a name or an address would be another line of the alarm mail.
            ("full_name", json!("Erika\nSubject: nichts passiert")),
            ("street", json!("Hauptstr. 5\r\nBcc: x@evil.example")),
            ("city", json!("Hamburg\u{7}")),
        ];
        for (key, input) in bad {
            let err = one(key, input, Writer::Admin).unwrap_err();
            assert!(err.starts_with(key), "{err}");
        }
    }

    #[test]
    fn users_cannot_set_admin_only_keys() {
        assert!(one("daily_request_limit", json!(1000), Writer::User).is_err());
        assert!(one("language", json!("de"), Writer::User).is_ok());
    }
}
