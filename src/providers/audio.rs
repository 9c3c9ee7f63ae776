//! 16-bit PCM audio and its WAV container: what the gateway accepts from clients and sends to STT, and what
//! it checks in the audio a TTS engine returns.

/// Mono 16-bit PCM with its sample rate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pcm {
    /// Samples per second.
    pub sample_rate: u32,
    /// Interleaved samples when `channels` > 1.
    pub samples: Vec<i16>,
    /// Number of channels.
    pub channels: u16,
}

impl Pcm {
    /// Reads raw little-endian 16-bit samples (an odd trailing byte is an error).
    pub fn from_le_bytes(bytes: &[u8], sample_rate: u32) -> Result<Self, AudioError> {
        if !bytes.len().is_multiple_of(2) {
            return Err(AudioError(
                "raw PCM must hold whole 16-bit samples (an even number of bytes)".into(),
            ));
        }
        let samples = bytes
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
        Ok(Self {
            sample_rate,
            samples,
            channels: 1,
        })
    }

    /// Playing time in seconds.
    pub fn duration_secs(&self) -> f64 {
        self.samples.len() as f64 / f64::from(self.channels.max(1)) / f64::from(self.sample_rate.max(1))
    }

    /// The samples in a WAV container.
    pub fn to_wav(&self) -> Vec<u8> {
        let data_len = (self.samples.len() * 2) as u32;
        let mut out = Vec::with_capacity(44 + data_len as usize);
        out.extend_from_slice(b"RIFF");
        out.extend_from_slice(&(36 + data_len).to_le_bytes());
        out.extend_from_slice(b"WAVEfmt ");
        out.extend_from_slice(&16u32.to_le_bytes());
        out.extend_from_slice(&1u16.to_le_bytes());
        out.extend_from_slice(&self.channels.to_le_bytes());
        out.extend_from_slice(&self.sample_rate.to_le_bytes());
        let block_align = self.channels * 2;
        out.extend_from_slice(&self.sample_rate.saturating_mul(u32::from(block_align)).to_le_bytes());
        out.extend_from_slice(&block_align.to_le_bytes());
        out.extend_from_slice(&16u16.to_le_bytes());
        out.extend_from_slice(b"data");
        out.extend_from_slice(&data_len.to_le_bytes());
        for s in &self.samples {
            out.extend_from_slice(&s.to_le_bytes());
        }
        out
    }
}

impl Pcm {
    /// The samples as raw little-endian 16-bit PCM (OpenAI's `pcm` format at 24 kHz).
    pub fn to_le_bytes(&self) -> Vec<u8> {
        self.samples.iter().flat_map(|s| s.to_le_bytes()).collect()
    }

    /// This audio, mixed to mono, at another sample rate (see [`super::resample`]).
    pub fn resampled(&self, rate: u32) -> Pcm {
        let mono = to_mono(self.clone());
        Pcm {
            samples: super::resample::resample(&mono.samples, mono.sample_rate, rate),
            sample_rate: rate,
            channels: 1,
        }
    }
}

/// Audio that is not what the gateway takes: the message says what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct AudioError(pub String);

/// Where the sample data of a WAV file lies, and its format.
struct WavLayout {
    format: u16,
    channels: u16,
    sample_rate: u32,
    bits: u16,
    data_start: usize,
    data_len: usize,
}

fn layout(bytes: &[u8]) -> Result<WavLayout, AudioError> {
    let bad = |what: &str| AudioError(format!("not a WAV file: {what}"));
    if bytes.len() < 12 || &bytes[..4] != b"RIFF" || &bytes[8..12] != b"WAVE" {
        return Err(bad("no RIFF/WAVE header"));
    }
    let mut pos = 12;
    let mut fmt = None;
    while pos + 8 <= bytes.len() {
        let id = &bytes[pos..pos + 4];
        let size = u32::from_le_bytes([bytes[pos + 4], bytes[pos + 5], bytes[pos + 6], bytes[pos + 7]]) as usize;
        let body = pos + 8;
        if id == b"fmt " {
            if size < 16 || body + 16 > bytes.len() {
                return Err(bad("short fmt chunk"));
            }
            let f = &bytes[body..body + 16];
            fmt = Some((
                u16::from_le_bytes([f[0], f[1]]),
                u16::from_le_bytes([f[2], f[3]]),
                u32::from_le_bytes([f[4], f[5], f[6], f[7]]),
                u16::from_le_bytes([f[14], f[15]]),
            ));
        } else if id == b"data" {
            let Some((format, channels, sample_rate, bits)) = fmt else {
                return Err(bad("data before fmt"));
            };
            // Streaming writers (espeak-ng --stdout) leave a placeholder size: the data runs to the end.
            let available = bytes.len() - body;
            let data_len = if size == 0 || size > available { available } else { size };
            return Ok(WavLayout {
                format,
                channels,
                sample_rate,
                bits,
                data_start: body,
                data_len: data_len - data_len % 2,
            });
        }
        pos = body.saturating_add(size + size % 2);
    }
    Err(bad("no data chunk"))
}

/// Reads a WAV file of 16-bit integer PCM; any other encoding is refused with a message saying so.
pub fn parse_wav(bytes: &[u8]) -> Result<Pcm, AudioError> {
    let wav = layout(bytes)?;
    // 0xFFFE (extensible) carries PCM too when the sample size is 16 bits.
    if !(wav.format == 1 || wav.format == 0xFFFE) || wav.bits != 16 {
        return Err(AudioError(format!(
            "the WAV holds format {} with {} bits per sample; expected 16-bit integer PCM",
            wav.format, wav.bits
        )));
    }
    if !(1..=2).contains(&wav.channels) {
        return Err(AudioError(format!(
            "the WAV has {} channels; expected 1 or 2",
            wav.channels
        )));
    }
    if !(8_000..=96_000).contains(&wav.sample_rate) {
        return Err(AudioError(format!(
            "the WAV's sample rate is {} Hz; expected 8000 to 96000",
            wav.sample_rate
        )));
    }
    let mut pcm = Pcm::from_le_bytes(&bytes[wav.data_start..wav.data_start + wav.data_len], wav.sample_rate)?;
    pcm.channels = wav.channels;
    Ok(pcm)
}

/// The start of a WAV stream: its sample rate, channels and where the samples begin, once its header has
/// arrived (`None` while more bytes are needed).
pub fn wav_stream_start(bytes: &[u8]) -> Result<Option<(u32, u16, usize)>, AudioError> {
    match layout(bytes) {
        Ok(wav) if (wav.format == 1 || wav.format == 0xFFFE) && wav.bits == 16 => {
            Ok(Some((wav.sample_rate, wav.channels, wav.data_start)))
        }
        Ok(wav) => Err(AudioError(format!(
            "the WAV holds format {} with {} bits per sample; expected 16-bit integer PCM",
            wav.format, wav.bits
        ))),
        // A header is a few dozen bytes; past this it is not coming.
        Err(_) if bytes.len() < 4096 => Ok(None),
        Err(e) => Err(e),
    }
}

/// Mixes interleaved channels down to one.
pub fn to_mono(pcm: Pcm) -> Pcm {
    if pcm.channels <= 1 {
        return pcm;
    }
    let n = usize::from(pcm.channels);
    let samples = pcm
        .samples
        .chunks_exact(n)
        .map(|frame| (frame.iter().map(|&s| i32::from(s)).sum::<i32>() / n as i32) as i16)
        .collect();
    Pcm {
        sample_rate: pcm.sample_rate,
        samples,
        channels: 1,
    }
}

/// Rewrites the RIFF and data sizes of a WAV whose writer could not know them (a stream), so that every
/// player and parser reads it; other chunks are kept.
pub fn fix_wav_sizes(mut bytes: Vec<u8>) -> Result<Vec<u8>, AudioError> {
    let wav = layout(&bytes)?;
    let end = wav.data_start + wav.data_len;
    bytes.truncate(end);
    let riff = (end - 8) as u32;
    bytes[4..8].copy_from_slice(&riff.to_le_bytes());
    bytes[wav.data_start - 4..wav.data_start].copy_from_slice(&(wav.data_len as u32).to_le_bytes());
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(n: usize) -> Pcm {
        Pcm {
            sample_rate: 16_000,
            samples: (0..n).map(|i| (i as i16).wrapping_mul(300)).collect(),
            channels: 1,
        }
    }

    #[test]
    fn wav_round_trips() {
        let pcm = tone(1600);
        let wav = pcm.to_wav();
        assert_eq!(wav.len(), 44 + 3200);
        assert_eq!(parse_wav(&wav).unwrap(), pcm);
        assert!((pcm.duration_secs() - 0.1).abs() < 1e-9);
    }

    #[test]
    fn placeholder_sizes_are_repaired() {
        let mut wav = tone(100).to_wav();
        wav[4..8].copy_from_slice(&0x7fff_ffffu32.to_le_bytes());
        wav[40..44].copy_from_slice(&0x7fff_ffffu32.to_le_bytes());
        let fixed = fix_wav_sizes(wav).unwrap();
        assert_eq!(u32::from_le_bytes(fixed[40..44].try_into().unwrap()), 200);
        assert_eq!(u32::from_le_bytes(fixed[4..8].try_into().unwrap()), 36 + 200);
        assert_eq!(parse_wav(&fixed).unwrap().samples.len(), 100);
    }

    #[test]
    fn other_encodings_are_refused_with_a_reason() {
        let mut wav = tone(10).to_wav();
        wav[20..22].copy_from_slice(&3u16.to_le_bytes()); // IEEE float
        wav[34..36].copy_from_slice(&32u16.to_le_bytes());
        assert!(parse_wav(&wav).unwrap_err().0.contains("16-bit integer PCM"));
        assert!(parse_wav(b"ID3\x03 mp3 data here").unwrap_err().0.contains("not a WAV"));
        assert!(Pcm::from_le_bytes(&[1, 2, 3], 16_000).is_err());
    }

    #[test]
    fn headers_out_of_range_are_refused() {
        for (channels, rate, word) in [
            (1, 1u32 << 31, "sample rate"),
            (1, 4000, "sample rate"),
            (0, 16_000, "channels"),
            (3, 16_000, "channels"),
        ] {
            let mut wav = tone(10).to_wav();
            wav[22..24].copy_from_slice(&(channels as u16).to_le_bytes());
            wav[24..28].copy_from_slice(&rate.to_le_bytes());
            assert!(parse_wav(&wav).unwrap_err().0.contains(word), "{channels} {rate}");
        }
    }

    #[test]
    fn stereo_mixes_down() {
        let pcm = Pcm {
            sample_rate: 8000,
            samples: vec![100, 300, -100, -300],
            channels: 2,
        };
        assert_eq!(to_mono(pcm).samples, vec![200, -200]);
    }
}
