//! Uploads in the formats clients send: WAV in every common sample format, MP3, AAC in MP4/M4A (and raw ADTS),
//! FLAC and Ogg Vorbis, recognised from their first bytes (a declared type must agree with them) and decoded
//! with symphonia (pure Rust) to 16-bit PCM at the file's own rate. Opus in Ogg or WebM is taken apart by
//! symphonia and decoded by ropus ([`super::opus`]), at Opus' own 48 kHz.
//!
//! Decoding is bounded: a file that decodes to more than the caller's seconds stops there (a small file can
//! claim hours), the decoder has a time budget, and a decoder that panics on a broken file is an error like
//! any other. It is CPU work: callers run it on the blocking pool ([`decode_upload`]).

use std::io::Cursor;
use std::time::{Duration, Instant};

use symphonia::core::codecs::audio::well_known::CODEC_ID_OPUS;
use symphonia::core::codecs::audio::{AudioCodecParameters, AudioDecoder, AudioDecoderOptions};
use symphonia::core::errors::Error as Symphonia;
use symphonia::core::formats::probe::Hint;
use symphonia::core::formats::{FormatOptions, TrackType};
use symphonia::core::io::MediaSourceStream;
use symphonia::core::meta::MetadataOptions;
use symphonia::core::packet::Packet;

use super::audio::Pcm;
use super::opus;
use super::resample::Resampler;

/// What the gateway decodes, for messages.
pub const TAKEN: &str = "WAV (integer or float PCM), MP3, AAC in MP4/M4A, FLAC, Ogg Vorbis, Opus in Ogg or WebM";

/// How long one upload may take to decode.
const BUDGET: Duration = Duration::from_secs(30);

/// The containers recognised in an upload's first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container {
    Wav,
    Mp3,
    /// ISO MP4 (`.m4a`, `.mp4`): AAC.
    Mp4,
    /// Raw AAC frames with ADTS headers (`.aac`).
    Adts,
    Flac,
    Ogg,
    /// Matroska or WebM.
    Matroska,
}

impl Container {
    /// The container whose signature starts `bytes`.
    pub fn sniff(bytes: &[u8]) -> Option<Self> {
        let at = |offset: usize, magic: &[u8]| bytes.get(offset..offset + magic.len()) == Some(magic);
        Some(match bytes {
            _ if at(0, b"RIFF") && at(8, b"WAVE") => Self::Wav,
            _ if at(0, b"fLaC") => Self::Flac,
            _ if at(0, b"OggS") => Self::Ogg,
            _ if at(0, &[0x1A, 0x45, 0xDF, 0xA3]) => Self::Matroska,
            _ if at(4, b"ftyp") => Self::Mp4,
            _ if at(0, b"ID3") => Self::Mp3,
            // A frame sync: layer bits 00 are ADTS (AAC), the others MPEG audio.
            [0xFF, second, ..] if second & 0xF6 == 0xF0 => Self::Adts,
            [0xFF, second, ..] if second & 0xE0 == 0xE0 => Self::Mp3,
            _ => return None,
        })
    }

    /// The container a media type names; `None` for a type that names no audio container.
    pub fn of_media_type(mime: &str) -> Option<Self> {
        Some(match mime {
            "audio/wav" | "audio/x-wav" | "audio/wave" | "audio/vnd.wave" => Self::Wav,
            "audio/mpeg" | "audio/mp3" | "audio/mpga" | "audio/mpeg3" | "audio/x-mpeg" => Self::Mp3,
            "audio/mp4" | "audio/m4a" | "audio/x-m4a" | "video/mp4" => Self::Mp4,
            "audio/aac" | "audio/aacp" | "audio/x-aac" => Self::Adts,
            "audio/flac" | "audio/x-flac" => Self::Flac,
            "audio/ogg" | "audio/opus" | "application/ogg" | "audio/vorbis" => Self::Ogg,
            "audio/webm" | "video/webm" | "audio/x-matroska" | "video/x-matroska" => Self::Matroska,
            _ => return None,
        })
    }

    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Self::Wav => "WAV",
            Self::Mp3 => "MP3",
            Self::Mp4 => "MP4/M4A",
            Self::Adts => "AAC (ADTS)",
            Self::Flac => "FLAC",
            Self::Ogg => "Ogg",
            Self::Matroska => "WebM/Matroska",
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Self::Wav => "wav",
            Self::Mp3 => "mp3",
            Self::Mp4 => "m4a",
            Self::Adts => "aac",
            Self::Flac => "flac",
            Self::Ogg => "ogg",
            Self::Matroska => "webm",
        }
    }
}

/// Why an upload could not be heard.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("the audio is in no format the gateway reads; it takes {TAKEN}")]
    Unrecognised,
    #[error("the file was declared {declared} but holds {}; it takes {TAKEN}", found.name())]
    Mismatch { declared: String, found: Container },
    #[error("the file holds {0}, which the gateway does not decode yet; it takes {TAKEN}")]
    Unsupported(String),
    #[error("the {} file is broken: {detail}", found.name())]
    Corrupt { found: Container, detail: String },
    #[error("the audio is longer than {0} s (MAX_AUDIO_SECONDS)")]
    TooLong(u32),
    #[error("the audio took too long to decode")]
    TooSlow,
    #[error("the file holds {0}; the gateway takes audio of at most 96 kHz and 8 channels")]
    Unfit(String),
}

impl From<DecodeError> for crate::error::ApiError {
    fn from(err: DecodeError) -> Self {
        let code = match err {
            DecodeError::TooLong(_) => return Self::AudioTooLong(err.to_string()),
            DecodeError::Corrupt { .. } | DecodeError::TooSlow => "invalid_audio",
            DecodeError::Unrecognised
            | DecodeError::Mismatch { .. }
            | DecodeError::Unsupported(_)
            | DecodeError::Unfit(_) => "unsupported_audio",
        };
        Self::BadRequest {
            code,
            message: err.to_string(),
        }
    }
}

/// Decodes an upload declared as `declared` (a media type; `None` when the client named none or a generic one)
/// to PCM, at most `max_seconds` long.
pub fn decode(bytes: &[u8], declared: Option<&str>, max_seconds: u32) -> Result<Pcm, DecodeError> {
    let found = Container::sniff(bytes).ok_or(DecodeError::Unrecognised)?;
    if let Some(declared) = declared
        && let Some(expected) = Container::of_media_type(declared)
        && expected != found
    {
        return Err(DecodeError::Mismatch {
            declared: declared.to_string(),
            found,
        });
    }
    let bytes = bytes.to_vec();
    // symphonia is safe Rust, but a decoder may still panic on a stream it did not expect: that is a broken file.
    std::panic::catch_unwind(move || decode_container(bytes, found, max_seconds)).unwrap_or_else(|_| {
        Err(DecodeError::Corrupt {
            found,
            detail: "the decoder gave up".into(),
        })
    })
}

/// [`decode`] on the blocking pool, for handlers.
pub async fn decode_upload(bytes: Vec<u8>, declared: Option<String>, max_seconds: u32) -> Result<Pcm, DecodeError> {
    tokio::task::spawn_blocking(move || decode(&bytes, declared.as_deref(), max_seconds))
        .await
        .unwrap_or(Err(DecodeError::TooSlow))
}

fn decode_container(bytes: Vec<u8>, found: Container, max_seconds: u32) -> Result<Pcm, DecodeError> {
    let corrupt = |err: Symphonia| DecodeError::Corrupt {
        found,
        detail: err.to_string(),
    };
    let started = Instant::now();
    let source = MediaSourceStream::new(Box::new(Cursor::new(bytes)), Default::default());
    let mut hint = Hint::new();
    hint.with_extension(found.extension());
    let mut format = symphonia::default::get_probe()
        .probe(&hint, source, FormatOptions::default(), MetadataOptions::default())
        .map_err(corrupt)?;
    let track = format
        .default_track(TrackType::Audio)
        .ok_or_else(|| DecodeError::Unsupported(format!("{} without an audio track", found.name())))?;
    let params = track
        .codec_params
        .as_ref()
        .and_then(|p| p.audio())
        .ok_or_else(|| DecodeError::Unsupported(format!("{} without audio parameters", found.name())))?
        .clone();
    let track_id = track.id;
    let mut codec = codec_for(&params, found)?;
    let mut samples: Vec<i16> = Vec::new();
    let mut packet_samples: Vec<i16> = Vec::new();
    let mut spec: Option<(u32, usize)> = None;
    let mut narrow: Option<Narrow> = None;
    loop {
        if started.elapsed() > BUDGET {
            return Err(DecodeError::TooSlow);
        }
        let packet = match format.next_packet() {
            Ok(Some(packet)) => packet,
            Ok(None) => break,
            // A file cut short ends where its data ends.
            Err(Symphonia::IoError(err)) if err.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(err) if samples.is_empty() => return Err(corrupt(err)),
            Err(_) => break,
        };
        if packet.track_id != track_id {
            continue;
        }
        packet_samples.clear();
        let decoded = match codec.push(&packet, &mut packet_samples) {
            Ok(decoded) => decoded,
            // One damaged packet: skip it, as players do.
            Err(Symphonia::DecodeError(_)) => continue,
            Err(err) => return Err(corrupt(err)),
        };
        let (rate, channels) = *spec.get_or_insert(decoded);
        if !(1_000..=MAX_RATE).contains(&rate) || !(1..=MAX_CHANNELS).contains(&channels) {
            return Err(DecodeError::Unfit(format!(
                "{} at {rate} Hz with {channels} channels",
                found.name()
            )));
        }
        if decoded != (rate, channels) {
            // A stray packet at another rate or channel count (a damaged header): drop it rather than mix it in.
            continue;
        }
        let narrow = narrow.get_or_insert_with(|| Narrow::new(rate, channels));
        narrow.push(&packet_samples, &mut samples);
        if samples.len() > narrow.limit(max_seconds) {
            return Err(DecodeError::TooLong(max_seconds));
        }
    }
    let mut narrow = narrow.ok_or_else(|| DecodeError::Corrupt {
        found,
        detail: "no audio could be decoded".into(),
    })?;
    narrow.finish(&mut samples);
    Ok(Pcm {
        sample_rate: narrow.rate,
        samples,
        channels: narrow.channels as u16,
    })
}

/// The decoder of a track's codec, once what the file says of its rate and channels was checked (before
/// anything is decoded).
fn codec_for(params: &AudioCodecParameters, found: Container) -> Result<Codec, DecodeError> {
    let unsupported = || DecodeError::Unsupported(format!("a codec in {} it has no decoder for", found.name()));
    let codec = if params.codec == CODEC_ID_OPUS {
        let head = params
            .extra_data
            .as_deref()
            .and_then(opus::Head::parse)
            .ok_or_else(|| {
                DecodeError::Unsupported(format!("Opus in {} without a mono or stereo OpusHead", found.name()))
            })?;
        Codec::Opus(
            Box::new(opus::StreamDecoder::new(head).map_err(|_| unsupported())?),
            head.channels.into(),
        )
    } else {
        let decoder = symphonia::default::get_codecs()
            .make_audio_decoder(params, &AudioDecoderOptions::default())
            .map_err(|_| unsupported())?;
        Codec::Symphonia(decoder)
    };
    if let Some(rate) = params.sample_rate
        && !(1_000..=MAX_RATE).contains(&rate)
    {
        return Err(DecodeError::Unfit(format!("{} at {rate} Hz", found.name())));
    }
    if let Some(channels) = params.channels.as_ref().map(|c| c.count())
        && channels > MAX_CHANNELS
    {
        return Err(DecodeError::Unfit(format!("{} with {channels} channels", found.name())));
    }
    Ok(codec)
}

/// The highest rate a file may have: twice the studio's 48 kHz. Speech needs a sixth of that, and a higher
/// rate only makes decoding slower and larger (a few KB of 384 kHz FLAC silence decode to gigabytes).
const MAX_RATE: u32 = 96_000;
/// The most channels a file may have (7.1).
const MAX_CHANNELS: usize = 8;
/// The highest rate kept: speech needs far less, and a higher one only multiplies memory.
const KEPT_RATE: u32 = 48_000;

/// Audio as it is kept while it streams in: mono or stereo up to 48 kHz as it is; more channels are mixed
/// down to mono and a higher rate is resampled to 48 kHz packet by packet, so that what is held is bounded by
/// seconds at 48 kHz in two channels at most, whatever the file claims.
struct Narrow {
    from_channels: usize,
    /// The rate and channels kept.
    rate: u32,
    channels: usize,
    resampler: Option<Resampler>,
    mixed: Vec<i16>,
}

impl Narrow {
    fn new(rate: u32, channels: usize) -> Self {
        let mono = channels > 2 || rate > KEPT_RATE;
        Self {
            from_channels: channels,
            rate: rate.min(KEPT_RATE),
            channels: if mono { 1 } else { channels },
            resampler: (rate > KEPT_RATE).then(|| Resampler::new(rate, KEPT_RATE)),
            mixed: Vec::new(),
        }
    }

    /// Appends one packet's interleaved samples, narrowed, to `out`.
    fn push(&mut self, interleaved: &[i16], out: &mut Vec<i16>) {
        if self.channels == self.from_channels && self.resampler.is_none() {
            out.extend_from_slice(interleaved);
            return;
        }
        self.mixed.clear();
        if self.channels == self.from_channels {
            self.mixed.extend_from_slice(interleaved);
        } else {
            let n = self.from_channels as i32;
            self.mixed.extend(
                interleaved
                    .chunks_exact(self.from_channels)
                    .map(|frame| (frame.iter().map(|&s| i32::from(s)).sum::<i32>() / n) as i16),
            );
        }
        match &mut self.resampler {
            Some(resampler) => out.extend(resampler.push(&self.mixed)),
            None => out.extend_from_slice(&self.mixed),
        }
    }

    /// What the resampler still holds.
    fn finish(&mut self, out: &mut Vec<i16>) {
        if let Some(resampler) = &mut self.resampler {
            out.extend(resampler.finish());
        }
    }

    /// Samples kept for `seconds`.
    fn limit(&self, seconds: u32) -> usize {
        seconds as usize * self.rate as usize * self.channels
    }
}

/// The decoder for a file's audio track.
enum Codec {
    Symphonia(Box<dyn AudioDecoder>),
    Opus(Box<opus::StreamDecoder>, usize),
}

impl Codec {
    /// Appends one packet's interleaved samples to `out`, and says at which rate and with how many channels.
    fn push(&mut self, packet: &Packet, out: &mut Vec<i16>) -> Result<(u32, usize), Symphonia> {
        match self {
            Self::Symphonia(decoder) => {
                let audio = decoder.decode(packet)?;
                let start = out.len();
                out.resize(start + audio.samples_interleaved(), 0);
                audio.copy_to_slice_interleaved(&mut out[start..]);
                Ok((audio.spec().rate(), audio.spec().channels().count()))
            }
            Self::Opus(decoder, channels) => {
                let start = out.len();
                decoder
                    .push(&packet.data, out)
                    .map_err(|_| Symphonia::DecodeError("a damaged Opus packet"))?;
                // The last page's granule position ends the stream before the encoder's padding (RFC 7845).
                let trim = usize::try_from(packet.trim_end.get()).unwrap_or(usize::MAX);
                let keep = (out.len() - start) / *channels;
                out.truncate(start + keep.saturating_sub(trim) * *channels);
                Ok((decoder.rate(), *channels))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A WAV file of `samples` in format `format` (1 integer, 3 float) with `bits` per sample.
    fn wav(format: u16, bits: u16, rate: u32, data: &[u8]) -> Vec<u8> {
        wav_of(format, bits, (rate, 1), data)
    }

    /// A WAV file of interleaved `data` with `channels` at `rate`.
    fn wav_of(format: u16, bits: u16, (rate, channels): (u32, u16), data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(b"RIFF");
        out.extend_from_slice(&(36 + data.len() as u32).to_le_bytes());
        out.extend_from_slice(b"WAVEfmt ");
        out.extend_from_slice(&16u32.to_le_bytes());
        out.extend_from_slice(&format.to_le_bytes());
        out.extend_from_slice(&channels.to_le_bytes());
        out.extend_from_slice(&rate.to_le_bytes());
        out.extend_from_slice(&(rate * u32::from(bits / 8 * channels)).to_le_bytes());
        out.extend_from_slice(&(bits / 8 * channels).to_le_bytes());
        out.extend_from_slice(&bits.to_le_bytes());
        out.extend_from_slice(b"data");
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(data);
        out
    }

    #[test]
    fn containers_are_told_by_their_first_bytes() {
        assert_eq!(Container::sniff(b"RIFF\0\0\0\0WAVEfmt "), Some(Container::Wav));
        assert_eq!(Container::sniff(b"fLaC\0"), Some(Container::Flac));
        assert_eq!(Container::sniff(b"OggS\0"), Some(Container::Ogg));
        assert_eq!(
            Container::sniff(&[0x1A, 0x45, 0xDF, 0xA3, 1]),
            Some(Container::Matroska)
        );
        assert_eq!(Container::sniff(b"\0\0\0\x20ftypM4A "), Some(Container::Mp4));
        assert_eq!(Container::sniff(b"ID3\x04"), Some(Container::Mp3));
        assert_eq!(Container::sniff(&[0xFF, 0xFB, 0x90]), Some(Container::Mp3));
        assert_eq!(Container::sniff(&[0xFF, 0xF1, 0x50]), Some(Container::Adts));
        assert_eq!(Container::sniff(b"hello"), None);
        assert_eq!(Container::sniff(b""), None);
    }

    #[test]
    fn float_and_24_bit_wav_become_16_bit_pcm() {
        let half = 0.5f32.to_le_bytes().repeat(800);
        let pcm = decode(&wav(3, 32, 8_000, &half), Some("audio/wav"), 60).unwrap();
        assert_eq!((pcm.sample_rate, pcm.channels, pcm.samples.len()), (8_000, 1, 800));
        assert!(
            pcm.samples.iter().all(|&s| (16_383..=16_384).contains(&s)),
            "{:?}",
            &pcm.samples[..4]
        );
        // 24-bit: the top 16 bits of 0x400000 (a half) are 0x4000.
        let quarter = [0x00, 0x00, 0x20].repeat(1600);
        let pcm = decode(&wav(1, 24, 16_000, &quarter), None, 60).unwrap();
        assert_eq!(pcm.samples.len(), 1600);
        assert!(pcm.samples.iter().all(|&s| s == 0x2000), "{:?}", &pcm.samples[..4]);
    }

    #[test]
    fn wrong_declared_types_long_audio_and_garbage_are_refused_by_name() {
        let one_second = wav(1, 16, 8_000, &[0u8; 16_000]);
        let err = decode(&one_second, Some("audio/mpeg"), 60).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("the file was declared audio/mpeg but holds WAV; it takes {TAKEN}")
        );
        assert!(decode(&one_second, Some("application/octet-stream"), 60).is_ok());
        let long = wav(1, 16, 8_000, &vec![0u8; 16_000 * 3]);
        assert_eq!(decode(&long, None, 2), Err(DecodeError::TooLong(2)));
        assert_eq!(decode(b"not audio at all", None, 60), Err(DecodeError::Unrecognised));
        let mut cut = one_second.clone();
        cut.truncate(30);
        assert!(matches!(decode(&cut, None, 60), Err(DecodeError::Corrupt { .. })));
    }

    #[test]
    fn a_rate_or_channel_count_beyond_speech_is_refused_before_anything_is_decoded() {
        // Four bytes of data, but a header that claims 384 kHz: refused by the header alone.
        let high = wav(1, 16, 384_000, &[0; 4]);
        let err = decode(&high, None, 600).unwrap_err();
        assert_eq!(err, DecodeError::Unfit("WAV at 384000 Hz".into()));
        assert!(err.to_string().contains("at most 96 kHz and 8 channels"), "{err}");
    }

    #[test]
    fn more_channels_are_mixed_to_mono_and_a_higher_rate_resampled_as_they_stream() {
        // One second of 96 kHz in six channels, each a constant: kept as 48 kHz mono, their mean.
        let frame: Vec<u8> = [600i16, 1200, 1800, 2400, 3000, 3600]
            .iter()
            .flat_map(|s| s.to_le_bytes())
            .collect();
        let file = wav_of(1, 16, (96_000, 6), &frame.repeat(96_000));
        let pcm = decode(&file, None, 60).unwrap();
        assert_eq!((pcm.sample_rate, pcm.channels), (48_000, 1));
        assert!((47_900..=48_100).contains(&pcm.samples.len()), "{}", pcm.samples.len());
        assert!(pcm.samples[1_000..40_000].iter().all(|&s| (2_090..=2_110).contains(&s)));
        // Held as 48 kHz mono, the limit counts those samples: two seconds of it are too long for one.
        let two = wav_of(1, 16, (96_000, 6), &frame.repeat(2 * 96_000));
        assert_eq!(decode(&two, None, 1), Err(DecodeError::TooLong(1)));
    }

    /// The fixture in `name`, decoded.
    fn fixture(name: &str) -> Pcm {
        let path = format!("{}/tests/fixtures/formats/{name}", env!("CARGO_MANIFEST_DIR"));
        decode(&std::fs::read(&path).unwrap(), None, 60).unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    fn rms(pcm: &Pcm) -> f64 {
        let sum: f64 = pcm.samples.iter().map(|&s| f64::from(s).powi(2)).sum();
        (sum / pcm.samples.len().max(1) as f64).sqrt()
    }

    #[test]
    fn every_fixture_format_decodes_to_the_sentence() {
        let wav = fixture("sentence.wav");
        let (seconds, level) = (wav.duration_secs(), rms(&wav));
        for name in [
            "sentence.mp3",
            "sentence.m4a",
            "sentence.flac",
            "sentence.ogg",
            "sentence-f32.wav",
            "sentence-s24-stereo.wav",
            "sentence.opus",
            "sentence.webm",
        ] {
            let pcm = fixture(name);
            let got = pcm.duration_secs();
            // Encoders add a frame or two of padding.
            assert!((got - seconds).abs() < 0.15, "{name}: {got} s for {seconds} s");
            // The same speech at about the same level (at 8 kHz the hiss above 4 kHz is gone).
            let ratio = rms(&pcm) / level;
            assert!((0.6..1.25).contains(&ratio), "{name}: level {ratio} of the WAV's");
        }
    }
}
