//! Reading typed values out of the environment, with errors that name the variable.

use super::profile::Profile;

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

/// Every variable read, with its default when unset (`None`: no value), in the order of reading.
pub type Defaults = Vec<(String, Option<String>)>;

/// The environment as seen through a profile: an explicit variable wins over the profile's default.
pub(crate) struct Source<'a> {
    lookup: &'a dyn Fn(&str) -> Option<String>,
    pub profile: Profile,
    /// Every variable read, with the default it has when unset (`None`: no value), in the order of reading:
    /// the README's table of settings is made from this.
    pub read: std::cell::RefCell<Defaults>,
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
        let read = std::cell::RefCell::new(vec![("PROFILE".into(), Some(Profile::LocalDev.as_str().into()))]);
        Ok(Self { lookup, profile, read })
    }

    /// Records that `var` was read and its default (a later, typed reading of it wins over a raw one).
    fn note(&self, var: &str, default: Option<String>) {
        let mut read = self.read.borrow_mut();
        match read.iter_mut().find(|(name, _)| name == var) {
            Some(entry) if default.is_some() => entry.1 = default,
            Some(_) => {}
            None => read.push((var.to_string(), default)),
        }
    }

    /// The trimmed value, or the profile's default; empty counts as unset.
    pub fn raw(&self, var: &str) -> Option<String> {
        self.note(var, self.profile.default_for(var).map(str::to_string));
        (self.lookup)(var)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .or_else(|| self.profile.default_for(var).map(str::to_string))
    }

    pub fn string(&self, var: &str, default: &str) -> String {
        let value = self.raw(var);
        self.note(var, Some(self.profile.default_for(var).unwrap_or(default).to_string()));
        value.unwrap_or_else(|| default.to_string())
    }

    pub fn bool(&self, var: &str, default: bool) -> Result<bool, ConfigError> {
        let value = self.raw(var);
        let profiled = self.profile.default_for(var).and_then(parse_bool);
        self.note(var, Some(profiled.unwrap_or(default).to_string()));
        match value {
            None => Ok(default),
            Some(v) => {
                parse_bool(&v).ok_or_else(|| ConfigError::new(var, format!("{v:?} is not a boolean (true/false)")))
            }
        }
    }

    pub fn number<T: std::str::FromStr + std::fmt::Display>(&self, var: &str, default: T) -> Result<T, ConfigError> {
        let value = self.raw(var);
        self.note(var, Some(default.to_string()));
        match value {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| ConfigError::new(var, format!("{v:?} is not a valid non-negative number"))),
        }
    }

    pub fn ranged(&self, var: &str, default: u32, max: u32) -> Result<u32, ConfigError> {
        let value = self.number(var, default)?;
        if value > max {
            return Err(ConfigError::new(var, format!("{value} is above the maximum {max}")));
        }
        Ok(value)
    }

    /// A comma list; blanks dropped.
    pub fn list(&self, var: &str) -> Vec<String> {
        self.raw(var)
            .map(|v| {
                v.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// One value out of a fixed set.
    pub fn choice(&self, var: &str, default: &str, allowed: &[&str]) -> Result<String, ConfigError> {
        let value = self.string(var, default);
        if allowed.contains(&value.as_str()) {
            Ok(value)
        } else {
            Err(ConfigError::new(
                var,
                format!("{value:?} is not one of {}", allowed.join(", ")),
            ))
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
