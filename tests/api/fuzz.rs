//! Property-based fuzzing of the doors that read a stranger's bytes, in the suite: the upload decoder (mutated
//! real files of every format, random bytes behind every container's signature, WAV headers with odd rates and
//! channel counts), the Wyoming frame reader, the AudioSocket message reader and the parser of Twilio's Media
//! Streams messages. Each property runs a fixed, modest number of cases, so that the module takes seconds in a
//! debug build; the long run of the decoder is `examples/decode_fuzz.rs`.
//!
//! The readers are given in-memory streams, which never wait: a reader's future that is not ready at once
//! would be a reader waiting for bytes that are already there.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use futures_util::FutureExt;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{Index, select};
use serde_json::{Map, Value, json};
use voice_gateway::phone::audiosocket::{Message, read_message, write_message};
use voice_gateway::phone::twilio::{Received, parse_message};
use voice_gateway::providers::audio::Pcm;
use voice_gateway::providers::decode::{Container, DecodeError, decode};
use voice_gateway::providers::g711;
use voice_gateway::wyoming::codec::{CodecError, Event, Limits, VERSION, read_event};

/// The longest upload decoded, in seconds: the gateway's default `MAX_AUDIO_SECONDS`.
const MAX_SECONDS: u32 = 600;
/// How long one decode may take here. The fixtures are 1.5 s of speech and decode in milliseconds even in a
/// debug build; the decoder's own budget is 30 s, so a file near this bound is one that makes it work a
/// thousand times its size.
const DECODE_BOUND: Duration = Duration::from_secs(10);
/// The highest rate and the most channels a decoded upload is kept at (`Narrow` in `providers/decode.rs`).
const KEPT_RATE: u32 = 48_000;
const KEPT_CHANNELS: u16 = 2;

/// `cases` cases of a property.
fn cases(cases: u32) -> ProptestConfig {
    ProptestConfig::with_cases(cases)
}

/// The result of a future over in-memory streams, which never has to wait.
fn now<F: Future>(future: F) -> F::Output {
    future.now_or_never().expect("a reader of an in-memory stream waited")
}

// ---- The upload decoder ----

/// The files of `tests/fixtures/formats` (every upload format, and the telephone's raw audio), by name.
fn fixtures() -> &'static [(String, Vec<u8>)] {
    static FILES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/formats");
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x != "md"))
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().to_string();
                (name, std::fs::read(&p).unwrap())
            })
            .collect();
        files.sort();
        assert!(files.len() >= 11, "the fixtures of every format: {files:?}");
        files
    })
}

/// A place in a file: in its first 64 bytes (where the headers and length fields are) or anywhere.
#[derive(Debug, Clone)]
pub struct At {
    head: bool,
    at: Index,
}

impl At {
    fn of(&self, len: usize) -> usize {
        self.at.index(if self.head { len.min(64) } else { len })
    }
}

fn at() -> impl Strategy<Value = At> {
    (any::<bool>(), any::<Index>()).prop_map(|(head, at)| At { head, at })
}

/// One change to a file, as a broken transfer or a hostile client makes it.
#[derive(Debug, Clone)]
pub enum Mutation {
    /// One bit flipped.
    Flip(At, u8),
    /// The file cut off.
    Truncate(At),
    /// Junk inserted.
    Splice(At, Vec<u8>),
    /// A piece of the file repeated elsewhere in it.
    Repeat { from: At, len: usize, to: At },
    /// Bytes overwritten: a length or a header field made huge, zero or random.
    Overwrite(At, Vec<u8>),
}

pub fn mutation() -> impl Strategy<Value = Mutation> {
    let junk = prop_oneof![
        Just(vec![0xFF; 4]),
        Just(vec![0x7F, 0xFF, 0xFF, 0xFF]),
        Just(vec![0; 4]),
        vec(any::<u8>(), 1..8),
    ];
    prop_oneof![
        (at(), 0u8..8).prop_map(|(at, bit)| Mutation::Flip(at, bit)),
        at().prop_map(Mutation::Truncate),
        (at(), vec(any::<u8>(), 1..64)).prop_map(|(at, junk)| Mutation::Splice(at, junk)),
        (at(), 1usize..512, at()).prop_map(|(from, len, to)| Mutation::Repeat { from, len, to }),
        (at(), junk).prop_map(|(at, junk)| Mutation::Overwrite(at, junk)),
    ]
}

pub fn mutate(file: &[u8], mutations: &[Mutation]) -> Vec<u8> {
    let mut out = file.to_vec();
    for mutation in mutations {
        if out.is_empty() {
            break;
        }
        match mutation {
            Mutation::Flip(at, bit) => {
                let at = at.of(out.len());
                out[at] ^= 1 << bit;
            }
            Mutation::Truncate(at) => out.truncate(at.of(out.len())),
            Mutation::Splice(at, junk) => {
                let at = at.of(out.len());
                out.splice(at..at, junk.iter().copied());
            }
            Mutation::Repeat { from, len, to } => {
                let from = from.of(out.len());
                let piece = out[from..(from + len).min(out.len())].to_vec();
                let to = to.of(out.len());
                out.splice(to..to, piece);
            }
            Mutation::Overwrite(at, junk) => {
                let at = at.of(out.len());
                out[at..].iter_mut().zip(junk).for_each(|(byte, junk)| *byte = *junk);
            }
        }
    }
    out
}

/// Decodes `bytes` as an upload and checks what its client is told: within a bounded time, a refusal
/// ([`DecodeError::Unrecognised`] exactly when no container's signature starts it), or audio the gateway can
/// hold — at 1 to 48 kHz, mono or stereo, in whole frames, at most [`MAX_SECONDS`] long.
fn decoded(bytes: &[u8]) -> Result<Result<Pcm, DecodeError>, TestCaseError> {
    let started = Instant::now();
    let result = decode(bytes, None, MAX_SECONDS);
    let took = started.elapsed();
    prop_assert!(took < DECODE_BOUND, "{} bytes took {:?} to decode", bytes.len(), took);
    let unrecognised = matches!(result, Err(DecodeError::Unrecognised));
    prop_assert_eq!(unrecognised, Container::sniff(bytes).is_none(), "{:?}", result);
    if let Ok(pcm) = &result {
        prop_assert!(
            (1_000..=KEPT_RATE).contains(&pcm.sample_rate),
            "rate {}",
            pcm.sample_rate
        );
        prop_assert!((1..=KEPT_CHANNELS).contains(&pcm.channels), "channels {}", pcm.channels);
        prop_assert_eq!(pcm.samples.len() % usize::from(pcm.channels), 0, "whole frames");
        // The last packet may pass the limit before the decoder stops, and the resampler keeps a little.
        let most = (MAX_SECONDS as usize + 1) * pcm.sample_rate as usize * usize::from(pcm.channels);
        prop_assert!(pcm.samples.len() <= most, "{} samples", pcm.samples.len());
    }
    Ok(result)
}

/// The first bytes of every container the decoder recognises.
const SIGNATURES: [&[u8]; 9] = [
    b"RIFF\x24\x00\x00\x00WAVE",
    b"fLaC",
    b"OggS",
    &[0x1A, 0x45, 0xDF, 0xA3],
    b"\x00\x00\x00\x20ftypM4A ",
    b"ID3",
    &[0xFF, 0xF1],
    &[0xFF, 0xFB],
    b"",
];

proptest! {
    #![proptest_config(cases(48))]

    /// A broken or hostile upload of any format is refused or decoded to audio the gateway can hold, in
    /// bounded time, never taking the request down.
    #[test]
    fn mutated_files_of_every_format_are_refused_or_decoded_to_speech_audio(
        mutations in vec(mutation(), 1..4),
    ) {
        for (name, file) in fixtures() {
            let input = mutate(file, &mutations);
            let _ = decoded(&input).map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
        }
    }

    /// Random bytes behind every container's signature (and behind none) reach the container's parser and
    /// come back as a refusal or bounded audio.
    #[test]
    fn random_bytes_behind_every_signature_are_refused_or_bounded(
        tails in vec(vec(any::<u8>(), 0..2048), SIGNATURES.len()),
    ) {
        for (signature, tail) in SIGNATURES.iter().zip(&tails) {
            let input = [*signature, tail.as_slice()].concat();
            let _ = decoded(&input)?;
        }
    }
}

/// A WAV file as a WAV writer makes it, at any rate and channel count, 16-bit PCM, perhaps damaged.
#[derive(Debug, Clone)]
struct Wav {
    rate: u32,
    channels: u16,
    data: Vec<u8>,
    damage: Option<Damage>,
}

/// One field of a WAV file that is not what a writer would make it.
#[derive(Debug, Clone)]
enum Damage {
    /// Another format tag (3 is float, 0xFFFE extensible, which needs a longer `fmt ` chunk).
    Format(u16),
    /// Other bits per sample.
    Bits(u16),
    /// Byte rate and block alignment that do not follow from the other fields.
    Derived(u32, u16),
    /// A data chunk length that is not the data's (and a RIFF length that follows it, wrapping).
    DataSize(u32),
    /// Half a sample at the end.
    Ragged,
    /// The file cut off.
    Cut(Index),
}

impl Wav {
    fn field<T>(&self, pick: impl Fn(&Damage) -> Option<T>, otherwise: T) -> T {
        self.damage.as_ref().and_then(pick).unwrap_or(otherwise)
    }

    fn file(&self) -> Vec<u8> {
        let format = self.field(|d| if let Damage::Format(f) = d { Some(*f) } else { None }, 1);
        let bits = self.field(|d| if let Damage::Bits(b) = d { Some(*b) } else { None }, 16);
        let align = (bits / 8).wrapping_mul(self.channels);
        let (byte_rate, align) = self.field(
            |d| {
                if let Damage::Derived(r, a) = d {
                    Some((*r, *a))
                } else {
                    None
                }
            },
            (self.rate.wrapping_mul(u32::from(align)), align),
        );
        let mut data = self.data.clone();
        if let Some(Damage::Ragged) = self.damage {
            data.push(0x7F);
        }
        let data_size = self.field(
            |d| if let Damage::DataSize(n) = d { Some(*n) } else { None },
            data.len() as u32,
        );
        let mut out = Vec::new();
        out.extend_from_slice(b"RIFF");
        out.extend_from_slice(&36u32.wrapping_add(data_size).to_le_bytes());
        out.extend_from_slice(b"WAVEfmt ");
        out.extend_from_slice(&16u32.to_le_bytes());
        out.extend_from_slice(&format.to_le_bytes());
        out.extend_from_slice(&self.channels.to_le_bytes());
        out.extend_from_slice(&self.rate.to_le_bytes());
        out.extend_from_slice(&byte_rate.to_le_bytes());
        out.extend_from_slice(&align.to_le_bytes());
        out.extend_from_slice(&bits.to_le_bytes());
        out.extend_from_slice(b"data");
        out.extend_from_slice(&data_size.to_le_bytes());
        out.extend_from_slice(&data);
        if let Some(Damage::Cut(cut)) = &self.damage {
            out.truncate(cut.index(out.len()));
        }
        out
    }

    /// Whole frames of audio at a rate and channel count the gateway takes.
    fn fits(&self) -> bool {
        self.damage.is_none()
            && (1_000..=96_000).contains(&self.rate)
            && (1..=8).contains(&self.channels)
            && !self.data.is_empty()
    }
}

fn wav() -> impl Strategy<Value = Wav> {
    let rate = prop_oneof![
        3 => select(vec![
            0, 1, 999, 1_000, 7_999, 8_000, 11_025, 16_000, 22_050, 44_100, 48_000, 48_001, 88_200, 96_000,
            96_001, 192_000, 384_000, u32::MAX,
        ]),
        1 => any::<u32>(),
    ];
    let channels = prop_oneof![3 => 0u16..=9, 1 => 0u16..=255];
    let damage = prop_oneof![
        select(vec![3u16, 0xFFFE, 0, 2]).prop_map(Damage::Format),
        prop_oneof![select(vec![0u16, 8, 24, 32, 64]), any::<u16>()].prop_map(Damage::Bits),
        (any::<u32>(), any::<u16>()).prop_map(|(rate, align)| Damage::Derived(rate, align)),
        prop_oneof![Just(u32::MAX), Just(0), 0u32..1 << 20].prop_map(Damage::DataSize),
        Just(Damage::Ragged),
        any::<Index>().prop_map(Damage::Cut),
    ];
    (rate, channels, 0usize..64, any::<u64>(), prop::option::of(damage)).prop_map(
        |(rate, channels, frames, seed, damage)| {
            let align = 2 * usize::from(channels).max(1);
            // Noise from a seed: cheaper than a generated vector of up to 64 frames of 255 channels.
            let mut state = seed | 1;
            let data = (0..frames * align)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state as u8
                })
                .collect();
            Wav {
                rate,
                channels,
                data,
                damage,
            }
        },
    )
}

proptest! {
    #![proptest_config(cases(128))]

    /// Whatever rate and channel count a WAV header claims, and however it is cut: a rate or a channel count
    /// beyond speech is refused with a message that says so before anything is decoded, and a file the
    /// gateway takes is decoded to at most 48 kHz in mono or stereo, sample for sample when it needs no
    /// narrowing.
    #[test]
    fn wav_headers_of_any_rate_and_channel_count_are_refused_or_narrowed(wav in wav()) {
        let file = wav.file();
        let result = decoded(&file)?;
        if file.len() < 12 {
            prop_assert_eq!(result, Err(DecodeError::Unrecognised));
            return Ok(());
        }
        if !(1_000..=96_000).contains(&wav.rate) || !(1..=8).contains(&wav.channels) {
            prop_assert!(result.is_err(), "{:?} was decoded", wav);
            if wav.damage.is_none() {
                // The gateway's own check says "at most 96 kHz and 8 channels"; a channel count the WAV
                // parser itself has no layout for (0, or over 26) is a broken file already.
                let refused = match &result {
                    Err(DecodeError::Unfit(_)) => true,
                    Err(DecodeError::Corrupt { .. }) => !(1..=8).contains(&wav.channels),
                    _ => false,
                };
                prop_assert!(refused, "{:?}: {:?}", wav, result);
            }
        }
        if wav.fits() {
            let pcm = result.map_err(|e| TestCaseError::fail(format!("{wav:?}: {e}")))?;
            let narrowed = wav.channels > 2 || wav.rate > KEPT_RATE;
            prop_assert_eq!(pcm.sample_rate, wav.rate.min(KEPT_RATE));
            prop_assert_eq!(pcm.channels, if narrowed { 1 } else { wav.channels });
            if !narrowed {
                let samples: Vec<i16> =
                    wav.data.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
                prop_assert_eq!(pcm.samples, samples);
            } else {
                // Mixed to mono, and resampled to 48 kHz when the rate is higher: as long, to a sample.
                let frames = wav.data.len() / (2 * usize::from(wav.channels));
                let expected = frames * pcm.sample_rate as usize / wav.rate as usize;
                let len = pcm.samples.len();
                prop_assert!(len.abs_diff(expected) <= 1, "{} samples of {} frames", len, frames);
            }
        }
    }
}

// ---- Wyoming ----

/// A length field of a Wyoming header as sent.
#[derive(Debug, Clone)]
enum Length {
    /// The true length (absent when 0, as the reference library writes it, or 0 written out).
    True { written: bool },
    /// A length larger than the limit (by one, or by far).
    Huge(u64),
    /// Not a whole number of bytes: negative, a fraction, text, a boolean, a list.
    Wrong(Value),
}

fn length() -> impl Strategy<Value = Length> {
    prop_oneof![
        4 => any::<bool>().prop_map(|written| Length::True { written }),
        2 => select(vec![0u64, 1 << 32, 1 << 40, i64::MAX as u64, u64::MAX]).prop_map(Length::Huge),
        1 => select(vec![json!(-1), json!(1.5), json!(1e30), json!("12"), json!(true), json!([1]), json!({"n": 1})])
            .prop_map(Length::Wrong),
    ]
}

impl Length {
    /// The field's value for a part of `len` bytes under `limit`; `None` for no field.
    fn value(&self, len: usize, limit: usize) -> Option<Value> {
        match self {
            Self::True { written } => (*written || len > 0).then(|| Value::from(len)),
            // Huge(0) is one past the limit.
            Self::Huge(0) => Some(Value::from(limit + 1)),
            Self::Huge(n) => Some(Value::from(*n)),
            Self::Wrong(value) => Some(value.clone()),
        }
    }
}

/// A Wyoming frame: an event, its data inline in the header or separate, and its length fields as sent.
#[derive(Debug, Clone)]
struct Frame {
    event: Event,
    inline: bool,
    data_length: Length,
    payload_length: Length,
}

impl Frame {
    fn bytes(&self, limits: Limits) -> Vec<u8> {
        let data = (!self.event.data.is_empty()).then(|| Value::Object(self.event.data.clone()).to_string());
        let mut header = Map::new();
        header.insert("type".into(), Value::from(self.event.kind.as_str()));
        header.insert("version".into(), Value::from(VERSION));
        let separate = if self.inline && data.is_some() {
            header.insert("data".into(), Value::Object(self.event.data.clone()));
            None
        } else {
            data
        };
        let data_len = separate.as_ref().map_or(0, String::len);
        if let Some(value) = self.data_length.value(data_len, limits.data) {
            header.insert("data_length".into(), value);
        }
        if let Some(value) = self.payload_length.value(self.event.payload.len(), limits.payload) {
            header.insert("payload_length".into(), value);
        }
        let mut bytes = Value::Object(header).to_string().into_bytes();
        bytes.push(b'\n');
        bytes.extend_from_slice(separate.unwrap_or_default().as_bytes());
        bytes.extend_from_slice(&self.event.payload);
        bytes
    }
}

fn text(len: std::ops::Range<usize>) -> impl Strategy<Value = String> {
    vec(any::<char>(), len).prop_map(String::from_iter)
}

fn frame() -> impl Strategy<Value = Frame> {
    let kind = prop_oneof![
        4 => select(vec!["audio-chunk", "audio-start", "audio-stop", "describe", "transcribe", "transcript",
            "synthesize", "synthesize-chunk", "run-pipeline", "ping"]).prop_map(String::from),
        1 => text(0..12),
    ];
    let value = prop_oneof![
        any::<i64>().prop_map(Value::from),
        text(0..24).prop_map(Value::from),
        any::<bool>().prop_map(Value::from),
        vec(any::<u8>(), 0..4).prop_map(Value::from),
    ];
    let data = vec((text(1..10), value), 0..4).prop_map(|pairs| pairs.into_iter().collect::<Map<_, _>>());
    let payload = prop_oneof![4 => vec(any::<u8>(), 0..256), 1 => vec(any::<u8>(), 256..2048)];
    (kind, data, payload, any::<bool>(), length(), length()).prop_map(
        |(kind, data, payload, inline, data_length, payload_length)| Frame {
            event: Event { kind, data, payload },
            inline,
            data_length,
            payload_length,
        },
    )
}

fn limits() -> impl Strategy<Value = Limits> {
    prop_oneof![
        1 => Just(Limits::default()),
        2 => (16usize..1024, 0usize..512, 0usize..1024).prop_map(|(header, data, payload)| Limits {
            header,
            data,
            payload
        }),
    ]
}

/// Reads every event of `bytes`: each is within `limits` (its header line was, and the payload is), the
/// stream ends or breaks after at most one event per byte, and an empty stream is a closed connection.
fn read_all(bytes: &[u8], limits: Limits) -> Result<(Vec<Event>, Option<CodecError>), TestCaseError> {
    let mut reader = bytes;
    let mut events = Vec::new();
    loop {
        prop_assert!(events.len() <= bytes.len(), "more events than bytes");
        let before = reader.len();
        match now(read_event(&mut reader, limits)) {
            Ok(Some(event)) => {
                prop_assert!(
                    event.payload.len() <= limits.payload,
                    "a payload of {}",
                    event.payload.len()
                );
                prop_assert!(
                    before - reader.len() > event.payload.len(),
                    "the event's bytes were read"
                );
                events.push(event);
            }
            Ok(None) => {
                prop_assert!(
                    reader.is_empty(),
                    "a closed connection with {} bytes left",
                    reader.len()
                );
                return Ok((events, None));
            }
            Err(err) => return Ok((events, Some(err))),
        }
    }
}

proptest! {
    #![proptest_config(cases(256))]

    /// A frame as the reference library writes it is read back as it was sent; a data or payload length over
    /// its limit is refused before a byte of it is read (the stream does not hold it, so a reader that
    /// allocated and read first would fail at the end of the stream instead); a length that is no number of
    /// bytes is malformed.
    #[test]
    fn wyoming_frames_with_any_length_fields_are_read_or_refused_within_the_limits(
        frame in frame(),
        limits in limits(),
    ) {
        let bytes = frame.bytes(limits);
        let (events, err) = read_all(&bytes, limits)?;
        let header_len = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
        let first = match (events.first(), err) {
            (Some(event), _) => Ok(event),
            (None, Some(err)) => Err(err),
            (None, None) => return Err(TestCaseError::fail("nothing read")),
        };
        let data_len = if frame.inline || frame.event.data.is_empty() {
            0
        } else {
            Value::Object(frame.event.data.clone()).to_string().len()
        };
        if header_len > limits.header {
            prop_assert!(matches!(first, Err(CodecError::TooLarge("the header line", _))), "{:?}", first);
            return Ok(());
        }
        let refused = |length: &Length, len: usize, limit: usize| match length {
            Length::Wrong(_) => Some("malformed"),
            Length::Huge(_) => Some("over"),
            Length::True { .. } if len > limit => Some("over"),
            Length::True { .. } => None,
        };
        let expected = refused(&frame.data_length, data_len, limits.data)
            .map(|why| (why, "the data"))
            .or_else(|| {
                refused(&frame.payload_length, frame.event.payload.len(), limits.payload)
                    .map(|why| (why, "the payload"))
            });
        match expected {
            Some(("malformed", _)) => {
                prop_assert!(matches!(first, Err(CodecError::Malformed(_))), "{:?}", first);
            }
            Some((_, part)) => {
                let too_large = matches!(&first, Err(CodecError::TooLarge(what, _)) if *what == part);
                prop_assert!(too_large, "{} over its limit: {:?}", part, first);
            }
            None => {
                prop_assert_eq!(first.ok(), Some(&frame.event));
                prop_assert_eq!(events.len(), 1);
            }
        }
    }

    /// Frames broken in transit (flipped, cut, spliced, repeated) and random bytes are read as events
    /// within the limits or as an error that closes the connection; the reader never runs past the stream.
    #[test]
    fn broken_wyoming_frames_and_random_bytes_stay_within_the_limits(
        frames in vec(frame(), 1..4),
        mutations in vec(mutation(), 0..4),
        random in vec(any::<u8>(), 0..512),
        limits in limits(),
    ) {
        let stream: Vec<u8> = frames.iter().flat_map(|f| f.bytes(limits)).collect();
        read_all(&mutate(&stream, &mutations), limits)?;
        read_all(&random, limits)?;
        let mut line = random.clone();
        line.retain(|&b| b != b'\n');
        line.push(b'\n');
        read_all(&line, limits)?;
    }
}

// ---- AudioSocket ----

/// What an AudioSocket stream holds, read by hand: messages of a kind byte, a big-endian 16-bit length and
/// that many bytes; a header cut short ends the stream, a payload cut short is an error (`Err(())`).
fn audiosocket_model(mut bytes: &[u8]) -> (Vec<Message>, Result<(), ()>) {
    let mut messages = Vec::new();
    loop {
        let [kind, high, low, rest @ ..] = bytes else {
            return (messages, Ok(()));
        };
        let length = usize::from(u16::from_be_bytes([*high, *low]));
        if rest.len() < length {
            return (messages, Err(()));
        }
        messages.push(Message {
            kind: *kind,
            payload: rest[..length].to_vec(),
        });
        bytes = &rest[length..];
    }
}

/// Where every message header of a stream of whole messages starts.
fn headers(mut bytes: &[u8]) -> Vec<usize> {
    let (mut at, mut found) = (0, Vec::new());
    while let [_, high, low, ..] = bytes {
        found.push(at);
        let next = 3 + usize::from(u16::from_be_bytes([*high, *low]));
        at += next;
        bytes = &bytes[next.min(bytes.len())..];
    }
    found
}

proptest! {
    #![proptest_config(cases(256))]

    /// Asterisk's messages, valid, with their length fields rewritten, cut or followed by junk, and random
    /// streams: every message read is its header's kind and exactly its header's length (at most 64 KiB, all a
    /// 16-bit length can say), a stream cut inside a payload is an error, and nothing is read past the end.
    #[test]
    fn audiosocket_messages_are_exactly_their_headers_length(
        messages in vec((prop_oneof![select(vec![0x00u8, 0x01, 0x02, 0x03, 0x10, 0xff]), any::<u8>()],
            prop_oneof![8 => vec(any::<u8>(), 0..400), 1 => Just(vec![0x55; usize::from(u16::MAX)])]), 0..6),
        lengths in vec((any::<Index>(), any::<u16>()), 0..3),
        cut in prop::option::of(any::<Index>()),
        junk in vec(any::<u8>(), 0..8),
        random in vec(any::<u8>(), 0..1024),
    ) {
        let mut stream = Vec::new();
        for (kind, payload) in &messages {
            now(write_message(&mut stream, *kind, payload)).unwrap();
        }
        let starts = headers(&stream);
        for (which, length) in &lengths {
            if !starts.is_empty() {
                let at = starts[which.index(starts.len())];
                stream[at + 1..at + 3].copy_from_slice(&length.to_be_bytes());
            }
        }
        if let Some(cut) = cut {
            stream.truncate(cut.index(stream.len() + 1));
        }
        stream.extend_from_slice(&junk);
        for bytes in [&stream, &random] {
            let (expected, end) = audiosocket_model(bytes);
            let mut reader = bytes.as_slice();
            let mut read = Vec::new();
            let outcome = loop {
                match now(read_message(&mut reader)) {
                    Ok(Some(message)) => {
                        prop_assert!(message.payload.len() <= usize::from(u16::MAX));
                        read.push(message);
                    }
                    Ok(None) => break Ok(()),
                    Err(err) => {
                        prop_assert_eq!(err.kind(), std::io::ErrorKind::UnexpectedEof);
                        break Err(());
                    }
                }
                prop_assert!(read.len() <= bytes.len(), "more messages than bytes");
            };
            prop_assert_eq!(&read, &expected);
            prop_assert_eq!(outcome, end);
        }
        if lengths.is_empty() && cut.is_none() && junk.is_empty() {
            let sent: Vec<Message> =
                messages.into_iter().map(|(kind, payload)| Message { kind, payload }).collect();
            prop_assert_eq!(audiosocket_model(&stream), (sent, Ok(())), "what was written is read back");
        }
    }
}

/// A payload longer than a 16-bit length can say is refused by the writer rather than sent with a wrong
/// length that would desynchronise the stream.
#[test]
fn an_audiosocket_payload_beyond_64_kib_is_not_written() {
    let mut stream = Vec::new();
    assert!(now(write_message(&mut stream, 0x10, &vec![0; usize::from(u16::MAX) + 1])).is_err());
    assert!(stream.is_empty());
}

// ---- Twilio Media Streams ----

/// What the gateway should make of Twilio's message `message` in a stream whose audio has reached
/// `sequence`, worked out from the JSON without the gateway's types.
fn twilio_model(message: &Value, sequence: u64) -> Received {
    let Some(object) = message.as_object() else {
        return Received::Malformed;
    };
    let text = |value: Option<&Value>| match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(()),
    };
    match object.get("event").and_then(Value::as_str) {
        Some("connected") => Received::Ignored,
        Some("dtmf") => match message["dtmf"]["digit"].as_str().map(str::as_bytes) {
            Some([key]) if key.is_ascii_digit() || matches!(key, b'*' | b'#') => Received::Key(char::from(*key)),
            _ => Received::Malformed,
        },
        Some("stop") => Received::Stop,
        Some("mark") => match message["mark"]["name"].as_str() {
            Some(name) => name.parse().map_or(Received::Ignored, Received::Played),
            None => Received::Malformed,
        },
        Some("media") => {
            let (Ok(at), Some(payload)) = (text(object.get("sequenceNumber")), message["media"]["payload"].as_str())
            else {
                return Received::Malformed;
            };
            let at = at.and_then(|at| at.parse::<u64>().ok());
            if at.is_some_and(|at| at <= sequence) {
                return Received::OutOfOrder;
            }
            match STANDARD.decode(payload.trim()) {
                Ok(bytes) if !bytes.is_empty() => Received::Audio(
                    bytes.iter().map(|&b| g711::ulaw_to(b)).collect(),
                    at.unwrap_or(sequence + 1),
                ),
                _ => Received::Malformed,
            }
        }
        _ => Received::Malformed,
    }
}

/// Twilio's messages, as its documentation shows them, with `bytes` of µ-law as a media payload.
fn twilio_message(kind: usize, bytes: &[u8], sequence: u64, mark: u64) -> Value {
    let stream_sid = "MZ18ad3ab5a668481ce02b83e7395059f0";
    match kind {
        0 => json!({"event": "connected", "protocol": "Call", "version": "1.0.0"}),
        1 => json!({"event": "start", "sequenceNumber": "1", "streamSid": stream_sid, "start": {
            "accountSid": "AC123", "streamSid": stream_sid, "callSid": "CA123", "tracks": ["inbound"],
            "customParameters": {"user": "u1", "token": "t"},
            "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": 8000, "channels": 1}}}),
        2 => json!({"event": "media", "sequenceNumber": sequence.to_string(), "streamSid": stream_sid, "media": {
            "track": "inbound", "chunk": "2", "timestamp": "5", "payload": STANDARD.encode(bytes)}}),
        3 => json!({"event": "mark", "sequenceNumber": sequence.to_string(), "streamSid": stream_sid,
            "mark": {"name": mark.to_string()}}),
        4 => json!({"event": "dtmf", "streamSid": stream_sid, "sequenceNumber": "5",
            "dtmf": {"track": "inbound_track", "digit": "1"}}),
        _ => json!({"event": "stop", "sequenceNumber": sequence.to_string(), "streamSid": stream_sid,
            "stop": {"accountSid": "AC123", "callSid": "CA123"}}),
    }
}

/// What replaces a field of a Twilio message: a wrong type, an empty or huge text, bad base64, numbers
/// outside a sequence number's range.
fn twilio_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        select(vec![
            Value::Null,
            json!(1),
            json!(-1),
            json!(1.5),
            json!(true),
            json!([]),
            json!({}),
            json!(""),
            json!("!!not base64!!"),
            json!("AAE"),
            json!(" //79 \n"),
            json!("0"),
            json!("-1"),
            json!("18446744073709551615"),
            json!("18446744073709551616"),
            json!("media"),
            json!("stop"),
        ]),
        text(0..16).prop_map(Value::from),
        (1usize..48_000).prop_map(|n| Value::from("A".repeat(n))),
    ]
}

/// A path to a field of a Twilio message (a top-level field, or one inside the object of one).
fn twilio_edit() -> impl Strategy<Value = (Index, Option<Index>, Option<Value>)> {
    (
        any::<Index>(),
        prop::option::of(any::<Index>()),
        prop::option::weighted(0.8, twilio_value()),
    )
}

/// Replaces (or, with `None`, removes) a field of `message` chosen by `edit`.
fn edit(message: &mut Value, (top, inner, value): &(Index, Option<Index>, Option<Value>)) {
    let Some(object) = message.as_object_mut() else {
        return;
    };
    let keys: Vec<String> = object.keys().cloned().collect();
    let key = &keys[top.index(keys.len())];
    let target = match (inner, object.get_mut(key.as_str())) {
        (Some(inner), Some(Value::Object(nested))) if !nested.is_empty() => {
            let keys: Vec<String> = nested.keys().cloned().collect();
            let key = keys[inner.index(keys.len())].clone();
            (nested, key)
        }
        _ => (object, key.clone()),
    };
    match value {
        Some(value) => {
            target.0.insert(target.1, value.clone());
        }
        None => {
            target.0.remove(&target.1);
        }
    }
}

/// Checks one result of [`parse_message`]: audio only from a media message, numbered after `sequence`, whose
/// payload is the base64 of exactly that µ-law audio; a mark only as the number its name is.
fn check_received(text: &str, sequence: u64, received: &Received) -> Result<(), TestCaseError> {
    let message: Option<Value> = serde_json::from_str(text).ok();
    match received {
        Received::Audio(samples, at) => {
            let message = message.ok_or_else(|| TestCaseError::fail("audio from a message that is not JSON"))?;
            prop_assert_eq!(message["event"].as_str(), Some("media"));
            prop_assert!(*at > sequence, "audio numbered {} after {}", at, sequence);
            let payload = message["media"]["payload"].as_str().unwrap_or_default();
            let bytes = STANDARD.decode(payload.trim()).unwrap_or_default();
            prop_assert!(!samples.is_empty());
            let expected: Vec<i16> = bytes.iter().map(|&b| g711::ulaw_to(b)).collect();
            prop_assert_eq!(samples, &expected);
        }
        Received::Played(mark) => {
            let message = message.ok_or_else(|| TestCaseError::fail("a mark from a message that is not JSON"))?;
            let name = mark.to_string();
            prop_assert_eq!(message["mark"]["name"].as_str(), Some(name.as_str()));
        }
        Received::Key(key) => {
            let message = message.ok_or_else(|| TestCaseError::fail("a key from a message that is not JSON"))?;
            prop_assert_eq!(message["event"].as_str(), Some("dtmf"));
            let digit = key.to_string();
            prop_assert_eq!(message["dtmf"]["digit"].as_str(), Some(digit.as_str()));
        }
        Received::Stop | Received::Ignored | Received::OutOfOrder | Received::Malformed => {}
    }
    Ok(())
}

/// The sequence numbers a stream can have reached: the start's, or any media's since.
fn sequence() -> impl Strategy<Value = u64> {
    prop_oneof![Just(0u64), 0u64..100, any::<u64>()]
}

proptest! {
    #![proptest_config(cases(256))]

    /// Twilio's messages with a field replaced by a wrong type, bad base64, a huge text or an odd sequence
    /// number, or removed: media becomes exactly the µ-law audio its payload holds, in order, or is dropped
    /// as malformed or out of order; a mark is played only under a number; stop ends the call.
    #[test]
    fn twilio_messages_with_any_field_changed_mean_what_their_json_says(
        kind in 0usize..6,
        bytes in prop_oneof![8 => vec(any::<u8>(), 0..200), 1 => vec(any::<u8>(), 30_000..45_000)],
        at in sequence(),
        mark in any::<u64>(),
        sequence in sequence(),
        edits in vec(twilio_edit(), 0..3),
    ) {
        let mut message = twilio_message(kind, &bytes, at, mark);
        let untouched = edits.is_empty();
        for e in &edits {
            edit(&mut message, e);
        }
        let text = message.to_string();
        let received = parse_message(&text, sequence);
        check_received(&text, sequence, &received)?;
        prop_assert_eq!(&received, &twilio_model(&message, sequence), "{}", text);
        if untouched && kind == 2 && at > sequence && !bytes.is_empty() {
            let audio: Vec<i16> = bytes.iter().map(|&b| g711::ulaw_to(b)).collect();
            prop_assert_eq!(received, Received::Audio(audio, at));
        }
    }

    /// Twilio's messages broken in transit (flipped, cut, spliced) and random text never panic the reader,
    /// and whatever they are read as still holds: audio is what its payload says, numbered after the last.
    #[test]
    fn broken_twilio_messages_and_random_text_are_dropped_or_read_as_they_say(
        kind in 0usize..6,
        bytes in vec(any::<u8>(), 0..200),
        mutations in vec(mutation(), 1..4),
        random in text(0..256),
        sequence in sequence(),
    ) {
        let valid = twilio_message(kind, &bytes, sequence.saturating_add(1), 7).to_string();
        let broken = String::from_utf8_lossy(&mutate(valid.as_bytes(), &mutations)).to_string();
        for text in [broken, random] {
            let received = parse_message(&text, sequence);
            check_received(&text, sequence, &received)?;
        }
    }
}

/// Media without a sequence number after media numbered with the largest number a sequence number can be
/// (`"18446744073709551615"`, in `start` or in a `media` message): the next number must not overflow, which in
/// a debug build panicked the call's reader and in a release build wrapped to 0 (found by the properties above).
#[test]
fn unnumbered_media_after_the_largest_sequence_number_is_heard() {
    let media = json!({"event": "media", "media": {"payload": STANDARD.encode([0xFFu8, 0x7F])}}).to_string();
    let received = parse_message(&media, u64::MAX);
    assert!(
        matches!(&received, Received::Audio(samples, _) if samples.len() == 2),
        "{received:?}"
    );
}
