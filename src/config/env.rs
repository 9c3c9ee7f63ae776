//! Reading typed values out of the environment, with errors that name the variable.

use std::cell::RefCell;

use secrecy::SecretString;

use super::profile::Profile;
use crate::providers::ProviderId;

/// A setting that could not be used; start-up stops with this message.
#[derive(Debug, thiserror::Error)]
#[error("invalid setting {var}: {message}")]
pub struct ConfigError {
    /// The environment variable at fault.
    pub var: String,
    /// What is wrong with its value.
    pub message: String,
}

impl ConfigError {
    pub(crate) fn new(var: &str, message: impl Into<String>) -> Self {
        Self {
            var: var.to_string(),
            message: message.into(),
        }
    }
}

/// One setting as its reading defines it: the README's table of settings is made from these.
#[derive(Debug, Clone)]
pub struct Documented {
    /// The environment variable.
    pub name: String,
    /// Its default under the profile read with (`None`: unset).
    pub default: Option<String>,
    /// What it does.
    pub meaning: String,
}

/// The environment as seen through a profile: an explicit variable wins over the profile's default.
pub(crate) struct Source<'a> {
    lookup: &'a dyn Fn(&str) -> Option<String>,
    pub profile: Profile,
    /// Every variable read, in the order of reading.
    pub documented: RefCell<Vec<Documented>>,
}

impl<'a> Source<'a> {
    pub fn new(lookup: &'a dyn Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let profile = match lookup("PROFILE").map(|v| v.trim().to_string()) {
            None => Profile::LocalDev,
            Some(v) if v.is_empty() => Profile::LocalDev,
            Some(v) => Profile::parse(&v).ok_or_else(|| {
                ConfigError::new(
                    "PROFILE",
                    format!("unknown profile {v:?}; expected local-dev, hybrid or cloud"),
                )
            })?,
        };
        let documented = RefCell::new(vec![Documented {
            name: "PROFILE".into(),
            default: Some(Profile::LocalDev.as_str().into()),
            meaning: "`local-dev`, `hybrid` or `cloud`: changes the defaults marked (profile)".into(),
        }]);
        Ok(Self {
            lookup,
            profile,
            documented,
        })
    }

    /// A variable of the machine's that is no setting of the gateway's (`LANG`): read, not documented.
    pub fn system(&self, name: &str) -> Option<String> {
        (self.lookup)(name)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    }

    /// The one definition of a setting: its variable and meaning; the reader called on it gives its type,
    /// default and validation.
    pub fn var(&self, name: impl Into<String>, meaning: impl Into<String>) -> Var<'_, 'a> {
        Var {
            src: self,
            name: name.into(),
            meaning: meaning.into(),
            profiles: [None; 3],
            shown: None,
        }
    }
}

/// A setting being read (see [`Source::var`]).
pub(crate) struct Var<'s, 'a> {
    src: &'s Source<'a>,
    name: String,
    meaning: String,
    /// Defaults under local-dev, hybrid and cloud, above the built-in one.
    profiles: [Option<&'static str>; 3],
    /// The default as the README states it, when it is computed from other settings.
    shown: Option<&'static str>,
}

impl Var<'_, '_> {
    /// Defaults of the profiles local-dev, hybrid and cloud (`None`: the reader's default).
    pub fn profiles(mut self, defaults: [Option<&'static str>; 3]) -> Self {
        self.profiles = defaults;
        self
    }

    /// How the README states a default computed from other settings.
    pub fn shown(mut self, default: &'static str) -> Self {
        self.shown = Some(default);
        self
    }

    /// A problem with this setting's value.
    pub fn error(&self, message: impl Into<String>) -> ConfigError {
        ConfigError::new(&self.name, message)
    }

    fn profile_default(&self) -> Option<&'static str> {
        self.profiles[self.src.profile as usize]
    }

    /// Records the setting with its default (read again, the later reading wins).
    fn document(&self, default: Option<String>) {
        let entry = Documented {
            name: self.name.clone(),
            default: self.shown.map(String::from).or(default),
            meaning: self.meaning.clone(),
        };
        let mut documented = self.src.documented.borrow_mut();
        match documented.iter_mut().find(|d| d.name == self.name) {
            Some(old) => *old = entry,
            None => documented.push(entry),
        }
    }

    fn value(&self) -> Option<String> {
        (self.src.lookup)(&self.name)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .or_else(|| self.profile_default().map(str::to_string))
    }

    /// Read elsewhere (before the settings): documented only.
    pub fn read_elsewhere(&self) {
        self.document(None);
    }

    /// The trimmed value, or the profile's default; empty counts as unset.
    pub fn raw(&self) -> Option<String> {
        self.document(self.profile_default().map(str::to_string));
        self.value()
    }

    /// A socket address (`example` shows the form in the error), or `None` when unset.
    pub fn address(&self, example: &str) -> Result<Option<std::net::SocketAddr>, ConfigError> {
        self.raw()
            .map(|text| {
                text.parse()
                    .map_err(|_| self.error(format!("{text:?} is not an address like {example}")))
            })
            .transpose()
    }

    /// A secret: never shown, redacted in `Debug`.
    pub fn secret(mut self) -> Option<SecretString> {
        self.meaning.push_str(" (secret)");
        self.raw().map(SecretString::from)
    }

    pub fn string(&self, default: &str) -> String {
        self.document(Some(self.profile_default().unwrap_or(default).to_string()));
        self.value().unwrap_or_else(|| default.to_string())
    }

    pub fn bool(&self, default: bool) -> Result<bool, ConfigError> {
        let profiled = self.profile_default().and_then(parse_bool);
        self.document(Some(profiled.unwrap_or(default).to_string()));
        match self.value() {
            None => Ok(default),
            Some(v) => parse_bool(&v).ok_or_else(|| self.error(format!("{v:?} is not a boolean (true/false)"))),
        }
    }

    pub fn number<T: std::str::FromStr + std::fmt::Display>(&self, default: T) -> Result<T, ConfigError> {
        self.document(Some(default.to_string()));
        match self.value() {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| self.error(format!("{v:?} is not a valid non-negative number"))),
        }
    }

    /// A whole number up to `max`.
    pub fn ranged(&self, default: u32, max: u32) -> Result<u32, ConfigError> {
        let value = self.number(default)?;
        if value > max {
            return Err(self.error(format!("{value} is above the maximum {max}")));
        }
        Ok(value)
    }

    /// A number between 0 and 1.
    pub fn probability(&self, default: f32) -> Result<f32, ConfigError> {
        let value: f32 = self.number(default)?;
        if !(0.0..=1.0).contains(&value) {
            return Err(self.error(format!("{value} is not between 0 and 1")));
        }
        Ok(value)
    }

    /// A comma list of IP addresses or CIDR networks.
    pub fn networks(&self) -> Result<Vec<ipnet::IpNet>, ConfigError> {
        self.list()
            .iter()
            .map(|entry| {
                entry
                    .parse::<ipnet::IpNet>()
                    .or_else(|_| entry.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
                    .map_err(|_| self.error(format!("{entry:?} is neither an IP address nor a CIDR range")))
            })
            .collect()
    }

    /// A comma list; blanks dropped.
    pub fn list(&self) -> Vec<String> {
        self.raw()
            .map(|v| {
                v.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// A comma list of values out of a fixed set.
    pub fn subset(&self, allowed: &[&str]) -> Result<Vec<String>, ConfigError> {
        let list = self.list();
        match list.iter().find(|p| !allowed.contains(&p.as_str())) {
            Some(bad) => Err(self.error(format!("{bad:?} is not one of {}", allowed.join(", ")))),
            None => Ok(list),
        }
    }

    /// A comma list of provider ids of one stage (a wrong one is refused with the valid ones).
    pub fn providers<I: ProviderId>(&self) -> Result<Vec<I>, ConfigError> {
        self.list()
            .iter()
            .map(|name| I::parse(name).map_err(|e| self.error(e.to_string())))
            .collect()
    }

    /// One value out of a fixed set.
    pub fn choice(&self, default: &str, allowed: &[&str]) -> Result<String, ConfigError> {
        let value = self.string(default);
        if allowed.contains(&value.as_str()) {
            Ok(value)
        } else {
            Err(self.error(format!("{value:?} is not one of {}", allowed.join(", "))))
        }
    }
}

/// The spellings of a boolean accepted in settings and runtime overrides.
pub fn parse_bool(v: &str) -> Option<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Some(true),
        "false" | "0" | "no" | "off" => Some(false),
        _ => None,
    }
}
