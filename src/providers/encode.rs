//! Speech in the formats clients ask for: MP3 (LAME), Ogg Opus (ropus), FLAC (flacenc, pure Rust), WAV and raw PCM, from the
//! mono PCM the TTS engines give. Encoding is CPU work: callers run it on the blocking pool.

use flacenc::component::BitRepr;
use flacenc::error::Verify;
use mp3lame_encoder::{Bitrate, Builder, FlushNoGap, MonoPcm, Quality};

use super::audio::{Pcm, to_mono};

/// The formats speech can be had in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Mp3,
    /// Opus in Ogg (RFC 7845).
    Opus,
    Flac,
    Wav,
    /// 16-bit little-endian samples without a header.
    Pcm,
}

/// The rate of raw `pcm`: OpenAI's 16-bit mono at 24 kHz.
pub const PCM_RATE: u32 = 24_000;

/// The formats offered, for messages.
pub const OFFERED: &str = "mp3, opus, flac, wav, pcm";

impl Format {
    /// The format of OpenAI's `response_format` name; `None` for one not offered.
    pub fn named(name: &str) -> Option<Self> {
        Some(match name {
            "mp3" => Self::Mp3,
            "opus" => Self::Opus,
            "flac" => Self::Flac,
            "wav" => Self::Wav,
            "pcm" => Self::Pcm,
            _ => return None,
        })
    }

    /// Its media type.
    pub fn media_type(self) -> &'static str {
        match self {
            Self::Mp3 => "audio/mpeg",
            Self::Opus => "audio/ogg",
            Self::Flac => "audio/flac",
            Self::Wav => "audio/wav",
            Self::Pcm => "audio/pcm",
        }
    }
}

/// The format an HTTP `Accept` header asks for among `offered`: the most preferred type it names, `default`
/// for a wildcard or no header, `None` when it accepts none of them.
pub fn accepted(accept: Option<&str>, offered: &[Format], default: Format) -> Option<Format> {
    let Some(accept) = accept.filter(|a| !a.trim().is_empty()) else {
        return Some(default);
    };
    let mut wanted: Vec<(f32, Option<Format>)> = accept
        .split(',')
        .filter_map(|item| {
            let mut parts = item.split(';');
            let mime = parts.next()?.trim().to_ascii_lowercase();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q=").and_then(|q| q.parse::<f32>().ok()))
                .next()
                .unwrap_or(1.0);
            let format = match mime.as_str() {
                "*/*" | "audio/*" => Some(default),
                "audio/mpeg" | "audio/mp3" => Some(Format::Mp3),
                "audio/ogg" | "audio/opus" => Some(Format::Opus),
                "audio/flac" | "audio/x-flac" => Some(Format::Flac),
                "audio/wav" | "audio/x-wav" | "audio/wave" => Some(Format::Wav),
                _ => None,
            };
            (q > 0.0).then_some((q, format.filter(|f| offered.contains(f))))
        })
        .collect();
    // The highest quality first; among equals, the order the client wrote.
    wanted.sort_by(|a, b| b.0.total_cmp(&a.0));
    wanted.into_iter().find_map(|(_, format)| format)
}

/// Speech in `format`, made mono (and raw `pcm` at [`PCM_RATE`]) on the blocking pool: encoding takes
/// milliseconds a second of speech, too long for the async threads.
pub async fn speech(pcm: Pcm, format: Format) -> Result<Vec<u8>, String> {
    tokio::task::spawn_blocking(move || {
        let pcm = to_mono(pcm);
        let pcm = if format == Format::Pcm {
            pcm.resampled(PCM_RATE)
        } else {
            pcm
        };
        encode(&pcm, format)
    })
    .await
    .map_err(|e| e.to_string())?
}

/// Mono speech in `format`.
pub fn encode(pcm: &Pcm, format: Format) -> Result<Vec<u8>, String> {
    match format {
        Format::Mp3 => mp3(pcm),
        Format::Opus => super::opus::ogg_opus(pcm),
        Format::Flac => flac(pcm),
        Format::Wav => Ok(pcm.to_wav()),
        Format::Pcm => Ok(pcm.to_le_bytes()),
    }
}

/// MP3 at 64 kbit/s, plenty for one voice (LAME resamples rates MP3 does not have).
fn mp3(pcm: &Pcm) -> Result<Vec<u8>, String> {
    let failed = |what: &str, e: &dyn std::fmt::Display| format!("MP3 {what}: {e}");
    let mut builder = Builder::new().ok_or("MP3: LAME could not start")?;
    builder.set_num_channels(1).map_err(|e| failed("channels", &e))?;
    builder
        .set_sample_rate(pcm.sample_rate)
        .map_err(|e| failed("rate", &e))?;
    builder.set_brate(Bitrate::Kbps64).map_err(|e| failed("bit rate", &e))?;
    builder.set_quality(Quality::Good).map_err(|e| failed("quality", &e))?;
    let mut encoder = builder.build().map_err(|e| failed("setup", &e))?;
    let mut out = Vec::with_capacity(mp3lame_encoder::max_required_buffer_size(pcm.samples.len()));
    encoder
        .encode_to_vec(MonoPcm(pcm.samples.as_slice()), &mut out)
        .map_err(|e| failed("encoding", &e))?;
    encoder
        .flush_to_vec::<FlushNoGap>(&mut out)
        .map_err(|e| failed("encoding", &e))?;
    Ok(out)
}

/// FLAC, lossless, 16-bit.
fn flac(pcm: &Pcm) -> Result<Vec<u8>, String> {
    let config = flacenc::config::Encoder::default()
        .into_verified()
        .map_err(|e| format!("FLAC setup: {e:?}"))?;
    let samples: Vec<i32> = pcm.samples.iter().map(|&s| i32::from(s)).collect();
    let source = flacenc::source::MemSource::from_samples(&samples, 1, 16, pcm.sample_rate as usize);
    let stream = flacenc::encode_with_fixed_block_size(&config, source, config.block_size)
        .map_err(|e| format!("FLAC encoding: {e:?}"))?;
    let mut sink = flacenc::bitsink::ByteSink::new();
    stream.write(&mut sink).map_err(|e| format!("FLAC writing: {e:?}"))?;
    let mut out = sink.as_slice().to_vec();
    // STREAMINFO's smallest block size leaves out the last block (RFC 9639); flacenc counts it, and strict
    // readers then take the stream for one of variable block sizes. "fLaC", the block header, then the sizes.
    if out.len() >= 12 && &out[..4] == b"fLaC" {
        let largest = [out[10], out[11]];
        out[8..10].copy_from_slice(&largest);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::decode::{Container, decode};

    /// A second of a 440 Hz tone at 22 050 Hz, as a TTS engine gives speech.
    fn tone() -> Pcm {
        let samples = (0..22_050)
            .map(|i| (8_000.0 * (2.0 * std::f64::consts::PI * 440.0 * f64::from(i) / 22_050.0).sin()) as i16)
            .collect();
        Pcm {
            sample_rate: 22_050,
            samples,
            channels: 1,
        }
    }

    #[test]
    fn the_accept_header_picks_the_preferred_offered_format() {
        let offered = [Format::Mp3, Format::Opus, Format::Flac, Format::Wav];
        let pick = |accept| accepted(accept, &offered, Format::Wav);
        assert_eq!(pick(None), Some(Format::Wav));
        assert_eq!(pick(Some("*/*")), Some(Format::Wav));
        assert_eq!(pick(Some("audio/ogg")), Some(Format::Opus));
        assert_eq!(pick(Some("audio/ogg;q=0.5, audio/mpeg")), Some(Format::Mp3));
        assert_eq!(pick(Some("audio/aac, audio/flac;q=0.1")), Some(Format::Flac));
        assert_eq!(pick(Some("audio/mpeg;q=0, audio/wav")), Some(Format::Wav));
        assert_eq!(pick(Some("audio/aac")), None);
        assert_eq!(pick(Some("audio/pcm")), None);
    }

    #[test]
    fn each_format_decodes_back_to_the_same_length() {
        let pcm = tone();
        for (format, container) in [
            (Format::Mp3, Container::Mp3),
            (Format::Opus, Container::Ogg),
            (Format::Flac, Container::Flac),
            (Format::Wav, Container::Wav),
        ] {
            let bytes = encode(&pcm, format).unwrap();
            assert_eq!(Container::sniff(&bytes), Some(container), "{format:?}");
            let back = decode(&bytes, Some(format.media_type()), 60).unwrap();
            let seconds = back.duration_secs();
            assert!((seconds - 1.0).abs() < 0.1, "{format:?}: {seconds} s");
        }
        let flac = decode(&encode(&pcm, Format::Flac).unwrap(), None, 60).unwrap();
        assert_eq!(flac.samples, pcm.samples, "FLAC is lossless");
        // A second of one voice at 64 kbit/s: about 8 KB.
        let mp3 = encode(&pcm, Format::Mp3).unwrap();
        assert!((6_000..12_000).contains(&mp3.len()), "{} bytes", mp3.len());
        assert_eq!(encode(&pcm, Format::Pcm).unwrap().len(), 2 * 22_050);
    }
}
