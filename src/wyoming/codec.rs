//! The Wyoming framing, as the reference library (`wyoming` 1.10 on PyPI, `wyoming/event.py`) reads and writes
//! it: a JSON header line (`type`, optional `data`, `data_length`, `payload_length`, `version`), then
//! `data_length` bytes of JSON merged over the header's `data`, then `payload_length` bytes of payload.
//!
//! Reading accepts both the inline form (`data` in the header) and the separate one; writing uses the separate
//! one, as the reference library does. Sizes are bounded, so a malformed or huge frame is an error (the server
//! closes that connection) rather than memory held for a stranger.

// Numbers from the wire are read here: no arithmetic may overflow or panic, whatever they are.
#![deny(clippy::arithmetic_side_effects)]

use serde_json::{Map, Value};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// The protocol version written into every header: the reference library's this codec follows.
pub const VERSION: &str = "1.10.2";

/// One event: its type, its data and its payload (audio).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Event {
    /// `describe`, `audio-chunk`, ...
    pub kind: String,
    /// The event's fields.
    pub data: Map<String, Value>,
    /// Raw bytes (PCM for `audio-chunk`); empty when none.
    pub payload: Vec<u8>,
}

impl Event {
    /// An event without data or payload.
    pub fn new(kind: &str) -> Self {
        Self {
            kind: kind.to_string(),
            ..Self::default()
        }
    }

    /// An event with data (a JSON object; anything else gives empty data).
    pub fn with(kind: &str, data: Value) -> Self {
        let data = match data {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        Self {
            kind: kind.to_string(),
            data,
            payload: Vec::new(),
        }
    }

    /// A text field of the data.
    pub fn text(&self, field: &str) -> Option<&str> {
        self.data.get(field).and_then(Value::as_str)
    }
}

/// Largest sizes of the parts of a frame read.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The header line, newline included.
    pub header: usize,
    /// The separate data.
    pub data: usize,
    /// The payload.
    pub payload: usize,
}

impl Default for Limits {
    /// A header and data of 64 KiB each (an `info` or a long `synthesize` is a few KiB) and a payload of 4 MiB
    /// (Home Assistant sends 10 ms of audio per chunk; a whole WAV file would still fit).
    fn default() -> Self {
        Self {
            header: 64 * 1024,
            data: 64 * 1024,
            payload: 4 * 1024 * 1024,
        }
    }
}

/// Why a frame could not be read; the connection cannot be trusted after any of these.
#[derive(Debug, thiserror::Error)]
pub enum CodecError {
    /// The connection failed, or ended inside a frame.
    #[error("connection: {0}")]
    Io(#[from] std::io::Error),
    /// The header line, the data or the payload is over its limit.
    #[error("{0} is over its limit of {1} bytes")]
    TooLarge(&'static str, usize),
    /// The header or the data is not what the protocol says.
    #[error("malformed {0}")]
    Malformed(String),
}

/// Reads the next event; `None` when the peer closed the connection between events.
pub async fn read_event<R: AsyncBufRead + Unpin>(reader: &mut R, limits: Limits) -> Result<Option<Event>, CodecError> {
    let mut line = Vec::new();
    let read = (&mut *reader)
        .take(limits.header as u64)
        .read_until(b'\n', &mut line)
        .await?;
    if read == 0 {
        return Ok(None);
    }
    if line.last() != Some(&b'\n') {
        if read >= limits.header {
            return Err(CodecError::TooLarge("the header line", limits.header));
        }
        return Err(std::io::Error::from(std::io::ErrorKind::UnexpectedEof).into());
    }
    let header: Value = serde_json::from_slice(&line).map_err(|e| CodecError::Malformed(format!("header: {e}")))?;
    let Value::Object(mut header) = header else {
        return Err(CodecError::Malformed("header: not a JSON object".into()));
    };
    let kind = match header.remove("type") {
        Some(Value::String(kind)) => kind,
        _ => return Err(CodecError::Malformed("header: no `type`".into())),
    };
    let mut data = match header.remove("data") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(data)) => data,
        Some(_) => return Err(CodecError::Malformed("header: `data` is not an object".into())),
    };
    let data_length = length(&header, "data_length")?;
    if data_length > limits.data {
        return Err(CodecError::TooLarge("the data", limits.data));
    }
    if data_length > 0 {
        let mut bytes = vec![0; data_length];
        reader.read_exact(&mut bytes).await?;
        let Value::Object(more) =
            serde_json::from_slice(&bytes).map_err(|e| CodecError::Malformed(format!("data: {e}")))?
        else {
            return Err(CodecError::Malformed("data: not a JSON object".into()));
        };
        data.extend(more);
    }
    let payload_length = length(&header, "payload_length")?;
    if payload_length > limits.payload {
        return Err(CodecError::TooLarge("the payload", limits.payload));
    }
    let mut payload = vec![0; payload_length];
    reader.read_exact(&mut payload).await?;
    Ok(Some(Event { kind, data, payload }))
}

/// A length field of the header: absent or `null` is 0; anything but a whole number of bytes is malformed.
fn length(header: &Map<String, Value>, field: &str) -> Result<usize, CodecError> {
    match header.get(field) {
        None | Some(Value::Null) => Ok(0),
        Some(value) => value
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| CodecError::Malformed(format!("header: `{field}` is {value}"))),
    }
}

/// The bytes of an event as the reference library writes them: data separate, after the header.
pub fn encode(event: &Event) -> Vec<u8> {
    let mut header = Map::new();
    header.insert("type".into(), Value::from(event.kind.as_str()));
    header.insert("version".into(), Value::from(VERSION));
    let data = (!event.data.is_empty()).then(|| Value::Object(event.data.clone()).to_string());
    if let Some(data) = &data {
        header.insert("data_length".into(), Value::from(data.len()));
    }
    if !event.payload.is_empty() {
        header.insert("payload_length".into(), Value::from(event.payload.len()));
    }
    let mut bytes = Value::Object(header).to_string().into_bytes();
    bytes.push(b'\n');
    if let Some(data) = data {
        bytes.extend_from_slice(data.as_bytes());
    }
    bytes.extend_from_slice(&event.payload);
    bytes
}

/// Writes an event and flushes it.
pub async fn write_event<W: AsyncWrite + Unpin>(writer: &mut W, event: &Event) -> std::io::Result<()> {
    writer.write_all(&encode(event)).await?;
    writer.flush().await
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)]
mod tests {
    use super::*;
    use serde_json::json;

    const FIXTURE: &[u8] = include_bytes!("../../tests/fixtures/wyoming_events.bin");
    const EXPECTED: &str = include_str!("../../tests/fixtures/wyoming_events.json");

    async fn all(mut bytes: &[u8], limits: Limits) -> Result<Vec<Event>, CodecError> {
        let mut events = Vec::new();
        while let Some(event) = read_event(&mut bytes, limits).await? {
            events.push(event);
        }
        Ok(events)
    }

    fn expected() -> Vec<Event> {
        let seen: Value = serde_json::from_str(EXPECTED).unwrap();
        seen.as_array()
            .unwrap()
            .iter()
            .map(|e| Event {
                kind: e["type"].as_str().unwrap().to_string(),
                data: e["data"].as_object().unwrap().clone(),
                payload: hex_decode(e["payload_hex"].as_str().unwrap()),
            })
            .collect()
    }

    fn hex_decode(hex: &str) -> Vec<u8> {
        (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect()
    }

    #[tokio::test]
    async fn reads_what_the_reference_library_writes() {
        // Written by `tests/fixtures/wyoming_events.py` with `wyoming` 1.10.2, with the events as the library
        // itself read them back; includes an inline-data header and one with data both inline and separate.
        let events = all(FIXTURE, Limits::default()).await.unwrap();
        assert_eq!(events, expected());
        assert!(events.iter().any(|e| e.kind == "audio-chunk" && e.payload.len() == 640));
    }

    #[tokio::test]
    async fn writes_what_it_reads_back() {
        let events = expected();
        let bytes: Vec<u8> = events.iter().flat_map(encode).collect();
        assert_eq!(all(&bytes, Limits::default()).await.unwrap(), events);
        // The header carries no `data` of its own and names the version, as the reference library's does.
        let first = encode(&Event::with("transcript", json!({"text": "Grüß dich"})));
        let line: Value = serde_json::from_slice(&first[..first.iter().position(|&b| b == b'\n').unwrap()]).unwrap();
        assert_eq!(
            line,
            json!({"type": "transcript", "version": VERSION, "data_length": 22})
        );
    }

    #[tokio::test]
    async fn malformed_or_oversized_frames_are_errors() {
        let small = Limits {
            header: 64,
            data: 16,
            payload: 8,
        };
        let cases: [(&[u8], &str); 9] = [
            (b"not json\n", "malformed"),
            (b"[1, 2]\n", "malformed"),
            (b"{\"data\": {}}\n", "malformed"),
            (b"{\"type\": \"ping\", \"data_length\": -1}\n", "malformed"),
            (b"{\"type\": \"ping\", \"data_length\": 4}\n[1]\n", "malformed"),
            (b"{\"type\": \"ping\", \"data_length\": 17}\n", "over its limit"),
            (
                b"{\"type\": \"audio-chunk\", \"payload_length\": 9}\n123456789",
                "over its limit",
            ),
            (&[b' '; 65], "over its limit"),
            (
                b"{\"type\": \"audio-chunk\", \"payload_length\": 8}\n1234",
                "connection",
            ),
        ];
        for (bytes, error) in cases {
            let err = all(bytes, small).await.unwrap_err();
            assert!(
                err.to_string().contains(error),
                "{:?}: {err}",
                String::from_utf8_lossy(bytes)
            );
        }
        assert!(
            all(b"{\"type\": \"ping\"}", small).await.is_err(),
            "ended inside a header"
        );
        assert_eq!(all(b"", small).await.unwrap(), []);
    }
}
