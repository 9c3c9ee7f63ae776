//! The phone area: calls through Twilio Media Streams (on when Twilio's auth token and `PUBLIC_URL` are set)
//! and Asterisk AudioSocket (off unless an address is set), who the callers are, and how long a call may be
//! silent.

use std::collections::HashMap;
use std::net::SocketAddr;

use super::env::{ConfigError, Source, Var};

/// What an unknown or withheld number gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnknownCallers {
    /// A polite refusal in the default language, and the call ends.
    Refuse,
    /// A conversation as the guest user, with a small daily quota and no memories.
    Guest,
}

/// The phone line.
#[derive(Debug, Clone)]
pub struct PhoneSettings {
    /// `PHONE_UNKNOWN_CALLERS`: `refuse` or `guest`.
    pub unknown_callers: UnknownCallers,
    /// `PHONE_GUEST_DAILY_REQUESTS`: the guest's requests per day.
    pub guest_daily_requests: u64,
    /// `PHONE_SILENCE_SECONDS`: a call in which nobody spoke for this long ends with a goodbye.
    pub silence_secs: u64,
    /// `PHONE_COST_PER_MINUTE`: what a started minute of a call costs, for the cost accounting.
    pub cost_per_minute: f64,
    /// `PHONE_COUNTRY_CODE`: the country calling code of the house's line (`49`), so that a number the router
    /// passes in national form (`040…`) is known in E.164; `None` = numbers as passed.
    pub country_code: Option<String>,
    /// `AUDIOSOCKET_ADDR`: the TCP address of the AudioSocket server; `None` = off.
    pub audiosocket_addr: Option<SocketAddr>,
    /// `AUDIOSOCKET_USER`: the user whose calls come through AudioSocket; `None` = the callers' policy.
    pub audiosocket_user: Option<String>,
    /// `AUDIOSOCKET_USERS`: dialplan UUIDs mapped to other users' names.
    pub audiosocket_users: HashMap<String, String>,
    /// `HELP_KEY`: the key that starts the help question at once during any call with the assistant (`0`;
    /// never `1` or `2`, which answer it).
    pub help_key: char,
}

impl PhoneSettings {
    /// Reads the area.
    pub(super) fn read(src: &Source) -> Result<Self, ConfigError> {
        let unknown_callers = match src
            .var(
                "PHONE_UNKNOWN_CALLERS",
                "what a call from a number no user has (or a withheld one) gets: `refuse` (a polite refusal, then the call ends) or `guest` (the guest user, with a small quota)",
            )
            .choice("refuse", &["refuse", "guest"])?
            .as_str()
        {
            "guest" => UnknownCallers::Guest,
            _ => UnknownCallers::Refuse,
        };
        let guest_daily_requests = src
            .var(
                "PHONE_GUEST_DAILY_REQUESTS",
                "requests per day of the phone's guest user (0: no limit)",
            )
            .ranged(10, 10_000)?
            .into();
        let silence_secs = src
            .var(
                "PHONE_SILENCE_SECONDS",
                "a call in which the caller said nothing for this long ends with a goodbye (not after an alarm)",
            )
            .ranged(30, 3600)?
            .max(5)
            .into();
        let cost_var = src.var(
            "PHONE_COST_PER_MINUTE",
            "the cost of each started minute of a call, added to the caller's costs",
        );
        let cost_per_minute: f64 = cost_var.number(0.0)?;
        if !(0.0..=100.0).contains(&cost_per_minute) {
            return Err(cost_var.error("expected a cost from 0 to 100"));
        }
        let audiosocket_addr = src
            .var(
                "AUDIOSOCKET_ADDR",
                "TCP address of the Asterisk AudioSocket server, e.g. `0.0.0.0:9092` (unset: off)",
            )
            .address("0.0.0.0:9092")?;
        let audiosocket_user = src
            .var(
                "AUDIOSOCKET_USER",
                "user name whose conversation an AudioSocket call is (unset: `PHONE_UNKNOWN_CALLERS` decides)",
            )
            .raw()
            .filter(|name| !name.trim().is_empty());
        let audiosocket_users = audiosocket_users(src.var(
            "AUDIOSOCKET_USERS",
            "dialplan UUIDs of other users' extensions, `uuid=name,uuid=name`",
        ))?;
        let country_code = country_code(src.var(
            "PHONE_COUNTRY_CODE",
            "the country calling code of the house's telephone line, e.g. `49`: a caller the router passes as `040…` or `0049…` is `+4940…`",
        ))?;
        let help_key = src
            .var(
                "HELP_KEY",
                "the key that starts the help question at once during a call with the assistant (1 answers it with yes, 2 with no)",
            )
            .choice("0", &["0", "3", "4", "5", "6", "7", "8", "9", "*", "#"])?
            .chars()
            .next()
            .unwrap_or('0');
        Ok(Self {
            help_key,
            country_code,
            unknown_callers,
            guest_daily_requests,
            silence_secs,
            cost_per_minute,
            audiosocket_addr,
            audiosocket_user,
            audiosocket_users,
        })
    }
}

/// `AUDIOSOCKET_USERS`: `uuid=name` pairs.
fn audiosocket_users(var: Var) -> Result<HashMap<String, String>, ConfigError> {
    let mut users = HashMap::new();
    for pair in var.list() {
        let Some((uuid, name)) = pair.split_once('=') else {
            return Err(var.error(format!("{pair:?} is not uuid=name")));
        };
        let uuid = uuid::Uuid::parse_str(uuid.trim()).map_err(|_| var.error(format!("{uuid:?} is not a UUID")))?;
        users.insert(uuid.to_string(), name.trim().to_string());
    }
    Ok(users)
}

/// `PHONE_COUNTRY_CODE`: 1 to 3 digits, not starting with 0 (a leading `+` is dropped).
fn country_code(var: Var) -> Result<Option<String>, ConfigError> {
    let code = var.raw().map(|c| c.trim_start_matches('+').to_string());
    if code
        .as_ref()
        .is_some_and(|c| !(1..=3).contains(&c.len()) || !c.chars().all(|d| d.is_ascii_digit()) || c.starts_with('0'))
    {
        return Err(var.error("expected a country calling code of 1 to 3 digits, e.g. 49"));
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::super::Settings;
    use super::UnknownCallers;

    fn read(pairs: &[(&str, &str)]) -> Result<Settings, super::ConfigError> {
        Settings::from_pairs(pairs)
    }

    #[test]
    fn refuses_unknown_callers_and_has_no_audiosocket_unless_set() {
        let s = read(&[]).unwrap().phone;
        assert_eq!(s.unknown_callers, UnknownCallers::Refuse);
        assert!(s.audiosocket_addr.is_none() && s.audiosocket_users.is_empty());
        assert_eq!(s.help_key, '0');
        assert_eq!(read(&[("HELP_KEY", "*")]).unwrap().phone.help_key, '*');
        let s = read(&[
            ("PHONE_UNKNOWN_CALLERS", "guest"),
            ("AUDIOSOCKET_ADDR", "127.0.0.1:9092"),
            ("AUDIOSOCKET_USERS", "40325EC2-5EFD-4BD3-805F-53576E581D13=oma"),
        ])
        .unwrap()
        .phone;
        assert_eq!(s.unknown_callers, UnknownCallers::Guest);
        assert_eq!(s.audiosocket_addr.unwrap().port(), 9092);
        assert_eq!(s.audiosocket_users["40325ec2-5efd-4bd3-805f-53576e581d13"], "oma");
        for (var, value) in [
            ("PHONE_UNKNOWN_CALLERS", "sometimes"),
            ("AUDIOSOCKET_USERS", "oma"),
            ("AUDIOSOCKET_USERS", "not-a-uuid=oma"),
            ("PHONE_COST_PER_MINUTE", "-1"),
            ("HELP_KEY", "1"),
            ("HELP_KEY", "00"),
        ] {
            assert_eq!(read(&[(var, value)]).unwrap_err().var, var);
        }
    }
}
