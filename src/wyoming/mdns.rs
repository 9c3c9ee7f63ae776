//! Zeroconf for Home Assistant: the Wyoming server is announced by mDNS as `_wyoming._tcp.local.`, as the
//! reference servers announce themselves (`wyoming.zeroconf`), so that Home Assistant offers to add it without
//! an address typed in. Home Assistant then connects to the announced address and port and asks `describe`.
//! Off with `WYOMING_ZEROCONF=false`; a network without multicast only costs a warning.

use std::net::SocketAddr;

use mdns_sd::{IfKind, ServiceDaemon, ServiceInfo};

use crate::config::WyomingSettings;

/// The service type Home Assistant's Wyoming integration browses for.
pub const SERVICE_TYPE: &str = "_wyoming._tcp.local.";

/// The announcement, withdrawn when dropped (the server stops).
pub struct Announced {
    daemon: ServiceDaemon,
    fullname: String,
}

/// The service record of a Wyoming server bound to `addr`: the named address, or every address of the machine
/// (kept up to date) when it listens on all of them.
pub fn service(name: &str, host: &str, addr: SocketAddr) -> Result<ServiceInfo, mdns_sd::Error> {
    let host = format!("{host}.local.");
    let no_properties: &[(&str, &str)] = &[];
    if addr.ip().is_unspecified() {
        Ok(ServiceInfo::new(SERVICE_TYPE, name, &host, "", addr.port(), no_properties)?.enable_addr_auto())
    } else {
        ServiceInfo::new(SERVICE_TYPE, name, &host, addr.ip(), addr.port(), no_properties)
    }
}

/// Announces the server bound to `addr`, when the settings say so; none when switched off or not possible.
pub fn announce(settings: &WyomingSettings, addr: SocketAddr) -> Option<Announced> {
    if !settings.zeroconf {
        return None;
    }
    let host = host_name();
    let name = settings.zeroconf_name.clone().unwrap_or_else(|| host.clone());
    let announced = ServiceDaemon::new().and_then(|daemon| {
        // Home Assistant on another machine cannot reach the gateway's loopback address: never announce it.
        daemon.disable_interface(vec![IfKind::LoopbackV4, IfKind::LoopbackV6])?;
        let info = service(&name, &host, addr)?;
        let fullname = info.get_fullname().to_string();
        daemon.register(info)?;
        Ok(Announced { daemon, fullname })
    });
    match announced {
        Ok(announced) => {
            tracing::info!(name = %name, port = addr.port(), "Wyoming server announced by mDNS ({SERVICE_TYPE})");
            Some(announced)
        }
        Err(err) => {
            tracing::warn!(%err, "the Wyoming server could not be announced by mDNS; add it in Home Assistant by address");
            None
        }
    }
}

/// The machine's host name as mDNS wants it (one label), `voice-gateway` when it cannot be read.
fn host_name() -> String {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    let label: String = name
        .trim()
        .split('.')
        .next()
        .unwrap_or_default()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    if label.is_empty() {
        "voice-gateway".into()
    } else {
        label
    }
}

impl Drop for Announced {
    fn drop(&mut self) {
        // The goodbye packets go out from the daemon's own thread; nothing here waits for them.
        let _ = self.daemon.unregister(&self.fullname);
        let _ = self.daemon.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_record_names_the_type_home_assistant_browses_and_the_servers_port() {
        let info = service("Kitchen", "gateway", "192.168.1.20:10300".parse().unwrap()).unwrap();
        assert_eq!(info.get_type(), SERVICE_TYPE);
        assert_eq!(info.get_fullname(), "Kitchen._wyoming._tcp.local.");
        assert_eq!(info.get_hostname(), "gateway.local.");
        assert_eq!(info.get_port(), 10300);
        assert_eq!(info.get_addresses().len(), 1);
        assert!(!info.is_addr_auto());
        // On every address: the daemon fills them in from the machine's interfaces.
        let all = service("Kitchen", "gateway", "0.0.0.0:10300".parse().unwrap()).unwrap();
        assert!(all.is_addr_auto() && all.get_addresses().is_empty());
    }

    #[test]
    fn the_host_name_is_one_label() {
        let host = host_name();
        assert!(!host.is_empty() && !host.contains('.'), "{host}");
    }
}
