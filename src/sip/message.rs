//! SIP messages (RFC 3261 §7): a start line, headers, and a body whose length `Content-Length` gives. Parsed
//! leniently (any header is kept as text, compact names are understood) and checked for what a transaction
//! needs before it is used; written with the `Content-Length` of the body.

// Numbers from the wire are read here: no arithmetic may overflow or panic, whatever they are.
#![deny(clippy::arithmetic_side_effects)]

use std::fmt::Write as _;

/// The largest message read or written: a UDP datagram's worth (RFC 3261 §18.1.1 keeps requests far below).
pub const MAX_MESSAGE: usize = 64 * 1024;
/// The most header lines a message may have.
const MAX_HEADERS: usize = 128;

/// A request's method and Request-URI, or a response's status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    Request { method: String, uri: String },
    Response { code: u16, reason: String },
}

/// One SIP message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub start: Start,
    /// Headers in their order, names as sent (compact names expanded).
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// Why bytes are not a SIP message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Not even a start line: nobody to answer.
    #[error("not a SIP message: {0}")]
    Garbage(&'static str),
    /// A message, but broken: a request gets 400 with this reason, answered from what could be read of it.
    #[error("{0}")]
    Malformed(String, Option<Box<Message>>),
}

/// The full name of a compact header name (RFC 3261 §7.3.3).
fn full_name(name: &str) -> &str {
    match name.to_ascii_lowercase().as_str() {
        "i" => "Call-ID",
        "m" => "Contact",
        "e" => "Content-Encoding",
        "l" => "Content-Length",
        "c" => "Content-Type",
        "f" => "From",
        "s" => "Subject",
        "k" => "Supported",
        "t" => "To",
        "v" => "Via",
        _ => name,
    }
}

impl Message {
    /// A request with no headers yet.
    pub fn request(method: &str, uri: &str) -> Self {
        Self {
            start: Start::Request {
                method: method.into(),
                uri: uri.into(),
            },
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    /// Reads one message from a datagram (or a stream's framed bytes).
    pub fn parse(bytes: &[u8]) -> Result<Self, ParseError> {
        if bytes.len() > MAX_MESSAGE {
            return Err(malformed("message too large", None));
        }
        let end = find(bytes, b"\r\n\r\n").ok_or(ParseError::Garbage("no end of headers"))?;
        let head = std::str::from_utf8(&bytes[..end]).map_err(|_| ParseError::Garbage("headers are not UTF-8"))?;
        let mut lines = head.split("\r\n");
        let mut message = Self {
            start: start_line(lines.next().unwrap_or_default())?,
            headers: Vec::new(),
            body: Vec::new(),
        };
        for line in lines {
            if let Err(why) = message.read_header(line) {
                return Err(malformed(why, Some(message)));
            }
        }
        let rest = bytes.get(end.saturating_add(4)..).unwrap_or_default();
        let length = match message.header("Content-Length").map(digits) {
            Some(Some(length)) => length,
            Some(None) => return Err(malformed("Content-Length is not a number", Some(message))),
            None => rest.len(),
        };
        if length > rest.len() {
            return Err(malformed("the body is shorter than Content-Length", Some(message)));
        }
        message.body = rest[..length].to_vec();
        Ok(message)
    }

    /// Adds one header line (or the continuation of a folded one).
    fn read_header(&mut self, line: &str) -> Result<(), &'static str> {
        if line.starts_with([' ', '\t']) {
            let last = self.headers.last_mut().ok_or("a folded first header")?;
            last.1.push(' ');
            last.1.push_str(line.trim());
            return Ok(());
        }
        let (name, value) = line.split_once(':').ok_or("a header without a colon")?;
        let name = name.trim();
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_graphic()) {
            return Err("a header name that is not a token");
        }
        if self.headers.len() == MAX_HEADERS {
            return Err("too many headers");
        }
        self.headers
            .push((full_name(name).to_string(), value.trim().to_string()));
        Ok(())
    }

    /// The first value of a header (names compared without case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Every value of a header, comma-separated values of one line included as one.
    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.headers
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Adds a header at the end.
    pub fn push(&mut self, name: &str, value: impl Into<String>) -> &mut Self {
        self.headers.push((name.to_string(), value.into()));
        self
    }

    /// The request's method, or for a response its CSeq's.
    pub fn method(&self) -> &str {
        match &self.start {
            Start::Request { method, .. } => method,
            Start::Response { .. } => self.cseq().map_or("", |(_, m)| m),
        }
    }

    /// The response's status code.
    /// A response's status as a person reads it: `403 Forbidden` (empty for a request).
    pub fn status(&self) -> String {
        match &self.start {
            Start::Response { code, reason } => format!("{code} {reason}").trim().to_string(),
            Start::Request { .. } => String::new(),
        }
    }

    pub fn code(&self) -> Option<u16> {
        match self.start {
            Start::Response { code, .. } => Some(code),
            Start::Request { .. } => None,
        }
    }

    /// `CSeq`'s number and method.
    /// A request's URI (empty for a response).
    pub fn uri(&self) -> &str {
        match &self.start {
            Start::Request { uri, .. } => uri,
            Start::Response { .. } => "",
        }
    }

    pub fn cseq(&self) -> Option<(u32, &str)> {
        let (number, method) = self.header("CSeq")?.split_once(char::is_whitespace)?;
        // RFC 3261 §8.1.1.5: less than 2**31, so that a dialog can always count on.
        let number = number.trim().parse().ok().filter(|&n: &u32| n < 1 << 31)?;
        Some((number, method.trim()))
    }

    /// The topmost Via's `branch`: the transaction's key (RFC 3261 §17.1.3).
    pub fn branch(&self) -> Option<&str> {
        param(self.header("Via")?, "branch")
    }

    /// What a request must carry to be answered at all (RFC 3261 §8.1.1): `Err` is the 400's reason.
    pub fn check_request(&self) -> Result<(), String> {
        for name in ["Via", "From", "To", "Call-ID", "CSeq"] {
            if self.header(name).is_none() {
                return Err(format!("missing {name}"));
            }
        }
        // RFC 3261 §20.22: a hop count, 0 to 255 in practice; the gateway only checks it is one.
        if let Some(hops) = self.header("Max-Forwards")
            && hops.trim().parse::<u8>().is_err()
        {
            return Err("Max-Forwards is not a hop count".into());
        }
        match self.cseq() {
            Some((_, method)) if method == self.method() => Ok(()),
            _ => Err("CSeq is not a number below 2^31 with the request's method".into()),
        }
    }

    /// A response to this request: its Via, From, To, Call-ID and CSeq. A To without a tag gets `to_tag`, or
    /// one of its own on every response but 100 (RFC 3261 §8.2.6.2: the caller tells a refusal's answerer by
    /// it).
    pub fn response(&self, code: u16, reason: &str, to_tag: Option<&str>) -> Message {
        let own = (to_tag.is_none() && code > 100).then(|| format!("{:016x}", rand::random::<u64>()));
        let to_tag = to_tag.or(own.as_deref());
        let mut response = Message {
            start: Start::Response {
                code,
                reason: reason.into(),
            },
            headers: Vec::new(),
            body: Vec::new(),
        };
        for (name, value) in &self.headers {
            let copied = ["Via", "From", "Call-ID", "CSeq", "Record-Route"]
                .iter()
                .any(|n| name.eq_ignore_ascii_case(n));
            if copied {
                response.headers.push((name.clone(), value.clone()));
            } else if name.eq_ignore_ascii_case("To") {
                let value = match to_tag {
                    Some(tag) if param(value, "tag").is_none() => format!("{value};tag={tag}"),
                    _ => value.clone(),
                };
                response.headers.push((name.clone(), value));
            }
        }
        response
    }

    /// The message as sent, with its `Content-Length`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut text = match &self.start {
            Start::Request { method, uri } => format!("{method} {uri} SIP/2.0\r\n"),
            Start::Response { code, reason } => format!("SIP/2.0 {code} {reason}\r\n"),
        };
        for (name, value) in self
            .headers
            .iter()
            .filter(|(n, _)| !n.eq_ignore_ascii_case("Content-Length"))
        {
            let _ = write!(text, "{name}: {value}\r\n");
        }
        let _ = write!(text, "Content-Length: {}\r\n\r\n", self.body.len());
        let mut bytes = text.into_bytes();
        bytes.extend_from_slice(&self.body);
        bytes
    }
}

fn malformed(why: &str, read: Option<Message>) -> ParseError {
    ParseError::Malformed(why.into(), read.map(Box::new))
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn start_line(line: &str) -> Result<Start, ParseError> {
    if let Some(status) = line.strip_prefix("SIP/2.0 ") {
        let (code, reason) = status.split_once(' ').unwrap_or((status, ""));
        let code: u16 = code
            .parse()
            .map_err(|_| ParseError::Garbage("a status that is not a number"))?;
        if !(100..700).contains(&code) {
            return Err(ParseError::Garbage("a status out of range"));
        }
        return Ok(Start::Response {
            code,
            reason: reason.into(),
        });
    }
    let mut parts = line.split(' ');
    match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some(method), Some(uri), Some("SIP/2.0"), None)
            if !method.is_empty() && method.bytes().all(|b| b.is_ascii_uppercase()) && !uri.is_empty() =>
        {
            Ok(Start::Request {
                method: method.into(),
                uri: uri.into(),
            })
        }
        _ => Err(ParseError::Garbage("not a SIP start line")),
    }
}

/// A `;name=value` parameter of a header value (outside its `<…>`), without quotes.
pub fn param<'a>(value: &'a str, name: &str) -> Option<&'a str> {
    let after = value.rfind('>').map_or(value, |at| &value[at..]);
    after.split(';').skip(1).find_map(|p| {
        let (n, v) = p.split_once('=').unwrap_or((p, ""));
        n.trim().eq_ignore_ascii_case(name).then(|| v.trim().trim_matches('"'))
    })
}

/// The URI of a name-addr (`"Anna" <sip:11@fritz.box>;tag=1` → `sip:11@fritz.box`).
pub fn uri_of(value: &str) -> &str {
    match (value.find('<'), value.find('>')) {
        (Some(open), Some(close)) if open < close => value.get(open.saturating_add(1)..close).unwrap_or_default(),
        _ => value.split(';').next().unwrap_or(value).trim(),
    }
}

/// The user part of a SIP URI (`sip:**611@fritz.box` → `**611`).
pub fn user_of(uri: &str) -> Option<&str> {
    let rest = uri
        .strip_prefix("sip:")
        .or_else(|| uri.strip_prefix("sips:"))
        .or_else(|| uri.strip_prefix("tel:"))?;
    let user = rest.split_once('@').map_or(rest, |(user, _)| user);
    let user = user.split([';', ':']).next()?;
    (!user.is_empty()).then_some(user)
}

/// A length as RFC 3261 writes it (`1*DIGIT`): digits only, so `+5` or `-0` is no number, though Rust's own
/// parse would take the sign; `None` also beyond `usize`.
pub fn digits(value: &str) -> Option<usize> {
    let value = value.trim();
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok()
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    const INVITE: &str = "INVITE sip:assistant@192.168.178.20:5060 SIP/2.0\r\n\
        v: SIP/2.0/UDP 192.168.178.1:5060;branch=z9hG4bK74bf9;rport\r\n\
        Max-Forwards: 70\r\n\
        f: \"Oma\" <sip:**611@fritz.box>;tag=9fxced76sl\r\n\
        t: <sip:assistant@fritz.box>\r\n\
        i: 3848276298220188511@192.168.178.1\r\n\
        CSeq: 1 INVITE\r\n\
        Subject: a folded\r\n  header\r\n\
        c: application/sdp\r\n\
        l: 4\r\n\r\nv=0\r\n";

    #[test]
    fn a_routers_invite_reads_with_compact_names_and_folded_lines() {
        let m = Message::parse(INVITE.as_bytes()).unwrap();
        assert_eq!(m.method(), "INVITE");
        assert_eq!(m.branch(), Some("z9hG4bK74bf9"));
        assert_eq!(m.header("from").map(uri_of), Some("sip:**611@fritz.box"));
        assert_eq!(user_of(uri_of(m.header("From").unwrap())), Some("**611"));
        assert_eq!(param(m.header("From").unwrap(), "tag"), Some("9fxced76sl"));
        assert_eq!(m.header("Subject"), Some("a folded header"));
        assert_eq!(m.body, b"v=0\r");
        assert_eq!(m.check_request(), Ok(()));
        // Its answer carries what identifies the transaction and dialog, with the gateway's tag.
        let ok = Message::parse(&m.response(200, "OK", Some("gw1")).to_bytes()).unwrap();
        assert_eq!(ok.code(), Some(200));
        assert_eq!(ok.branch(), Some("z9hG4bK74bf9"));
        assert_eq!(param(ok.header("To").unwrap(), "tag"), Some("gw1"));
        assert_eq!(ok.cseq(), Some((1, "INVITE")));
        assert_eq!(ok.header("Content-Length"), Some("0"));
    }

    #[test]
    fn broken_messages_are_told_apart_from_garbage() {
        assert!(matches!(Message::parse(b"\x00\x01 hello"), Err(ParseError::Garbage(_))));
        assert!(matches!(
            Message::parse(b"GET / HTTP/1.1\r\n\r\n"),
            Err(ParseError::Garbage(_))
        ));
        let short = INVITE.replace("l: 4", "l: 400");
        let Err(ParseError::Malformed(why, Some(read))) = Message::parse(short.as_bytes()) else {
            panic!("a body shorter than its length is malformed")
        };
        assert_eq!(why, "the body is shorter than Content-Length");
        assert_eq!(read.branch(), Some("z9hG4bK74bf9"), "what was read can be answered");
        // A length is digits only: a sign is no number (answered 400 with what was read).
        for length in ["+4", "-0", "4.0"] {
            let signed = INVITE.replace("l: 4", &format!("l: {length}"));
            let Err(ParseError::Malformed(why, Some(_))) = Message::parse(signed.as_bytes()) else {
                panic!("Content-Length {length} is no number")
            };
            assert_eq!(why, "Content-Length is not a number");
        }
        let no_call_id = INVITE.replace("i: 3848276298220188511@192.168.178.1\r\n", "");
        assert_eq!(
            Message::parse(no_call_id.as_bytes()).unwrap().check_request(),
            Err("missing Call-ID".into())
        );
        let many = format!("OPTIONS sip:x SIP/2.0\r\n{}\r\n", "X-A: 1\r\n".repeat(200));
        assert!(matches!(
            Message::parse(many.as_bytes()),
            Err(ParseError::Malformed(..))
        ));
    }
}
