//! Speech in the formats clients ask for: MP3 (LAME), FLAC (flacenc, pure Rust), WAV and raw PCM, from the
//! mono PCM the TTS engines give. Encoding is CPU work: callers run it on the blocking pool.

use flacenc::component::BitRepr;
use flacenc::error::Verify;
use mp3lame_encoder::{Bitrate, Builder, FlushNoGap, MonoPcm, Quality};

use super::audio::Pcm;

/// The formats speech can be had in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Mp3,
    Flac,
    Wav,
    /// 16-bit little-endian samples without a header.
    Pcm,
}

/// The formats offered, for messages.
pub const OFFERED: &str = "mp3, flac, wav, pcm";

impl Format {
    /// The format of OpenAI's `response_format` name; `None` for one not offered.
    pub fn named(name: &str) -> Option<Self> {
        Some(match name {
            "mp3" => Self::Mp3,
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
            Self::Flac => "audio/flac",
            Self::Wav => "audio/wav",
            Self::Pcm => "audio/pcm",
        }
    }
}

/// Mono speech in `format`.
pub fn encode(pcm: &Pcm, format: Format) -> Result<Vec<u8>, String> {
    match format {
        Format::Mp3 => mp3(pcm),
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
    fn each_format_decodes_back_to_the_same_length() {
        let pcm = tone();
        for (format, container) in [
            (Format::Mp3, Container::Mp3),
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
