//! Personal links: the address a token opens, and that address as a QR code to scan with the person's phone
//! (SVG for the admin panel, text for the terminal). A link is a credential: it goes to the admin who asked for
//! it, never into a log.

use axum::http::HeaderMap;
use axum::http::header::HOST;
use qrcode::{Color, EcLevel, QrCode};

use crate::config::{Settings, TlsMode};
use crate::tls::{host_of, is_loopback_host, local_ca};

/// The personal link of `token` at `base` (`https://host:port`).
pub fn personal(base: &str, token: &str) -> String {
    format!("{}/?k={token}", base.trim_end_matches('/'))
}

/// Where people open the gateway, as an admin's request at `headers` (over TLS or not) sees it: `PUBLIC_URL`
/// when set; with HTTPS on, its port under the name the admin used, or, when that name is this machine's own
/// (`localhost`), under the machine's first network address, which a phone can reach; else the admin's own
/// address.
pub fn base(settings: &Settings, headers: &HeaderMap, over_tls: bool) -> String {
    if let Some(url) = &settings.emergency.public_url {
        return url.trim_end_matches('/').to_string();
    }
    let host_header = headers.get(HOST).and_then(|h| h.to_str().ok()).unwrap_or_default();
    let host = host_of(host_header);
    if settings.tls.mode == TlsMode::Off {
        return format!("http://{host_header}");
    }
    let port = settings.tls.https_addr.port();
    if over_tls && !host_header.is_empty() {
        return format!("https://{host_header}");
    }
    let host = if is_loopback_host(&host) && settings.tls.https_addr.ip().is_unspecified() {
        let (_, addresses) = local_ca::this_machine(None);
        addresses
            .iter()
            .find(|ip| ip.is_ipv4() && !ip.is_loopback())
            .map_or(host, |ip| ip.to_string())
    } else {
        host
    };
    format!("https://{host}:{port}")
}

/// `text` as a QR code in SVG: dark squares on white, a quiet zone of four modules, scalable to any size.
pub fn svg(text: &str) -> Option<String> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M).ok()?;
    let width = code.width();
    let colors = code.to_colors();
    let mut path = String::new();
    // One rectangle for each run of dark modules in a row keeps the drawing small.
    for y in 0..width {
        let mut x = 0;
        while x < width {
            if colors[y * width + x] == Color::Dark {
                let start = x;
                while x < width && colors[y * width + x] == Color::Dark {
                    x += 1;
                }
                path.push_str(&format!("M{} {}h{}v1h-{}z", start + 4, y + 4, x - start, x - start));
            } else {
                x += 1;
            }
        }
    }
    let size = width + 8;
    Some(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {size} {size}\" shape-rendering=\"crispEdges\" \
         role=\"img\" aria-label=\"QR code of the personal link\"><rect width=\"{size}\" height=\"{size}\" \
         fill=\"#fff\"/><path fill=\"#000\" d=\"{path}\"/></svg>"
    ))
}

/// `text` as a QR code of text blocks for a terminal (two modules a character row), dark on light.
pub fn terminal(text: &str) -> Option<String> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::L).ok()?;
    Some(
        code.render::<qrcode::render::unicode::Dense1x2>()
            .dark_color(qrcode::render::unicode::Dense1x2::Light)
            .light_color(qrcode::render::unicode::Dense1x2::Dark)
            .quiet_zone(true)
            .build(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_svg_is_a_square_of_runs_with_a_quiet_zone() {
        let drawing = svg("https://192.0.2.7:8443/?k=abc").unwrap();
        assert!(drawing.starts_with("<svg") && drawing.contains("viewBox=\"0 0 "));
        assert!(
            drawing.contains("M4 4h7v1h-7z"),
            "the top-left finder starts with a run of seven"
        );
        assert!(terminal("https://192.0.2.7:8443/?k=abc").unwrap().lines().count() > 10);
    }
}
