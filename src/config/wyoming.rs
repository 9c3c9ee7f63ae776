//! The Wyoming area: the Home Assistant channel, off unless an address is set.

use std::net::SocketAddr;

use super::env::{ConfigError, Source};

/// The Wyoming server Home Assistant talks to.
#[derive(Debug, Clone)]
pub struct WyomingSettings {
    /// `WYOMING_ADDR`: the TCP address of the Wyoming server; `None` = off.
    pub addr: Option<SocketAddr>,
    /// `WYOMING_USER`: the user name whose conversations, route, voice and quota Wyoming requests use; `None`
    /// = the anonymous user of `local-dev`.
    pub user: Option<String>,
    /// `WYOMING_ZEROCONF`: the server is announced by mDNS (`_wyoming._tcp`) so that Home Assistant discovers it.
    pub zeroconf: bool,
    /// `WYOMING_ZEROCONF_NAME`: the name it is announced under; `None` = the machine's host name.
    pub zeroconf_name: Option<String>,
}

impl WyomingSettings {
    /// Reads the area.
    pub(super) fn read(src: &Source) -> Result<Self, ConfigError> {
        let addr = src
            .var(
                "WYOMING_ADDR",
                "TCP address of the Wyoming server for Home Assistant, e.g. `0.0.0.0:10300` (unset: off)",
            )
            .address("0.0.0.0:10300")?;
        let user = src
            .var(
                "WYOMING_USER",
                "user name whose sessions, route, voice, prefs and quota Home Assistant's requests use",
            )
            .shown("(the anonymous user)")
            .raw();
        let zeroconf = src
            .var(
                "WYOMING_ZEROCONF",
                "announce the Wyoming server on the local network by mDNS (`_wyoming._tcp`), so Home Assistant discovers it",
            )
            .bool(true)?;
        let zeroconf_name = src
            .var(
                "WYOMING_ZEROCONF_NAME",
                "the name the Wyoming server is announced under",
            )
            .shown("(the host name)")
            .raw()
            .filter(|name| !name.trim().is_empty());
        Ok(Self {
            addr,
            user,
            zeroconf,
            zeroconf_name,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::Settings;

    fn read(pairs: &[(&str, &str)]) -> Result<Settings, super::ConfigError> {
        Settings::from_pairs(pairs)
    }

    #[test]
    fn off_unless_an_address_is_set() {
        let s = read(&[]).unwrap();
        assert!(s.wyoming.addr.is_none() && s.wyoming.user.is_none());
        let s = read(&[("WYOMING_ADDR", "0.0.0.0:10300"), ("WYOMING_USER", "kitchen")]).unwrap();
        assert_eq!(s.wyoming.addr.unwrap().port(), 10300);
        assert_eq!(s.wyoming.user.as_deref(), Some("kitchen"));
        assert_eq!(read(&[("WYOMING_ADDR", "10300")]).unwrap_err().var, "WYOMING_ADDR");
        assert!(s.wyoming.zeroconf, "announced unless switched off");
        let off = read(&[("WYOMING_ZEROCONF", "off"), ("WYOMING_ZEROCONF_NAME", "Kitchen")]).unwrap();
        assert!(!off.wyoming.zeroconf);
        assert_eq!(off.wyoming.zeroconf_name.as_deref(), Some("Kitchen"));
        assert_eq!(
            read(&[("WYOMING_ZEROCONF", "maybe")]).unwrap_err().var,
            "WYOMING_ZEROCONF"
        );
    }
}
