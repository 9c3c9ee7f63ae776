//! Opus, the codec browsers record and phones carry: decoding uploads (Ogg or WebM) and live microphone
//! packets, and encoding answers as Ogg Opus (RFC 7845). ropus is a pure-Rust port of libopus (BSD), so the
//! gateway builds without a C toolchain or a system library. Both directions are CPU work: callers of the
//! whole-file functions run them on the blocking pool; one live packet is a few hundred microseconds.

use ogg::writing::{PacketWriteEndInfo, PacketWriter};
use ropus::{Application, Bitrate, Channels, DecodeMode, Decoder, Encoder, FrameDuration, Signal};

use super::audio::Pcm;

/// Opus' own clock: granule positions and pre-skip count 48 kHz samples whatever the coded rate.
const CLOCK: u32 = 48_000;
/// The longest Opus packet, 120 ms, in 48 kHz samples per channel.
const MAX_FRAME: usize = 5_760;
/// Answer audio: 24 kbit/s carries one voice clearly (Opus' own guidance for fullband speech).
const SPEECH_BITRATE: u32 = 24_000;
/// libopus' default is 10; WebRTC uses 5 to 9 for calls.
const COMPLEXITY: u8 = 7;
/// The rates Opus codes and decodes to; other rates are resampled to the next one up.
pub const RATES: [u32; 5] = [8_000, 12_000, 16_000, 24_000, 48_000];

/// What `OpusHead` (RFC 7845 §5.1) says about a stream: its channels and the samples to drop at its start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Head {
    pub channels: u8,
    pub pre_skip: u16,
}

impl Head {
    /// Reads an `OpusHead` packet (Ogg's first packet, WebM's CodecPrivate).
    pub fn parse(bytes: &[u8]) -> Option<Self> {
        if bytes.len() < 19 || &bytes[..8] != b"OpusHead" || bytes[8] >> 4 != 0 {
            return None;
        }
        let channels = bytes[9];
        // Mapping family 0 is mono or stereo; others carry a channel table the gateway does not read.
        (bytes[18] == 0 && (1..=2).contains(&channels)).then(|| Self {
            channels,
            pre_skip: u16::from_le_bytes([bytes[10], bytes[11]]),
        })
    }

    fn to_bytes(self, input_rate: u32) -> Vec<u8> {
        let mut head = b"OpusHead".to_vec();
        head.push(1);
        head.push(self.channels);
        head.extend_from_slice(&self.pre_skip.to_le_bytes());
        head.extend_from_slice(&input_rate.to_le_bytes());
        head.extend_from_slice(&0i16.to_le_bytes()); // output gain
        head.push(0); // mapping family: mono or stereo
        head
    }
}

/// Decodes a stream's packets, one at a time, to 16-bit PCM at 48 kHz, dropping the pre-skip.
pub struct StreamDecoder {
    decoder: Decoder,
    channels: usize,
    skip: usize,
    buffer: Vec<i16>,
}

impl StreamDecoder {
    pub fn new(head: Head) -> Result<Self, String> {
        let channels = if head.channels == 2 {
            Channels::Stereo
        } else {
            Channels::Mono
        };
        let decoder = Decoder::new(CLOCK, channels).map_err(|e| format!("Opus decoder: {e:?}"))?;
        Ok(Self {
            decoder,
            channels: usize::from(head.channels),
            skip: usize::from(head.pre_skip),
            buffer: vec![0; MAX_FRAME * usize::from(head.channels)],
        })
    }

    pub fn rate(&self) -> u32 {
        CLOCK
    }

    /// Appends one packet's interleaved samples to `out`; a damaged packet is an error for the caller to skip.
    pub fn push(&mut self, packet: &[u8], out: &mut Vec<i16>) -> Result<(), String> {
        if packet.is_empty() {
            return Err("an empty Opus packet".into());
        }
        let frames = self
            .decoder
            .decode(packet, &mut self.buffer, DecodeMode::Normal)
            .map_err(|e| format!("Opus packet: {e:?}"))?;
        let skipped = self.skip.min(frames);
        self.skip -= skipped;
        out.extend_from_slice(&self.buffer[skipped * self.channels..frames * self.channels]);
        Ok(())
    }
}

/// Decodes the raw Opus packets a live microphone sends (no container: one packet per message) to mono
/// 16-bit PCM at the rate the listener hears at.
pub struct LiveDecoder {
    decoder: Decoder,
    rate: u32,
    buffer: Vec<i16>,
}

impl LiveDecoder {
    /// `rate` is one of Opus' rates (8, 12, 16, 24 or 48 kHz).
    pub fn new(rate: u32) -> Result<Self, String> {
        let decoder = Decoder::new(rate, Channels::Mono).map_err(|e| format!("Opus decoder: {e:?}"))?;
        Ok(Self {
            decoder,
            rate,
            buffer: vec![0; MAX_FRAME * rate as usize / CLOCK as usize],
        })
    }

    /// One packet's samples. A packet the decoder chokes on is an error like a broken one, and the decoder
    /// starts afresh (what a packet from the network holds is the sender's choice).
    pub fn decode(&mut self, packet: &[u8]) -> Result<&[i16], String> {
        if packet.is_empty() {
            return Err("an empty Opus packet".into());
        }
        let (decoder, buffer) = (&mut self.decoder, &mut self.buffer);
        let decoded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            decoder.decode(packet, buffer, DecodeMode::Normal)
        }));
        let frames = match decoded {
            Ok(result) => result.map_err(|e| format!("not an Opus packet ({e:?})"))?,
            Err(_) => {
                *self = Self::new(self.rate)?;
                return Err("not an Opus packet (the decoder gave up)".into());
            }
        };
        Ok(&self.buffer[..frames])
    }
}

/// Mono speech as an Ogg Opus file: 20 ms packets at 24 kbit/s, tuned for voice, ending exactly where the
/// speech ends (the last granule position trims the encoder's padding).
pub fn ogg_opus(pcm: &Pcm) -> Result<Vec<u8>, String> {
    let failed = |what: &str, e: &dyn std::fmt::Debug| format!("Opus {what}: {e:?}");
    let rate = RATES.into_iter().find(|&r| r >= pcm.sample_rate).unwrap_or(CLOCK);
    let pcm = if rate == pcm.sample_rate {
        pcm.clone()
    } else {
        pcm.resampled(rate)
    };
    let mut encoder = Encoder::builder(rate, Channels::Mono, Application::Voip)
        .bitrate(Bitrate::Bits(SPEECH_BITRATE))
        .signal(Signal::Voice)
        .complexity(COMPLEXITY)
        .frame_duration(FrameDuration::Ms20)
        .build()
        .map_err(|e| failed("setup", &e))?;
    let scale = (CLOCK / rate) as u64;
    let pre_skip = encoder.lookahead() as u64 * scale;
    let head = Head {
        channels: 1,
        pre_skip: pre_skip as u16,
    };

    let mut writer = PacketWriter::new(Vec::new());
    let serial = 0x766f_6963; // "voic": one stream per file, any serial will do
    let write = |w: &mut PacketWriter<Vec<u8>>, packet: Vec<u8>, end: PacketWriteEndInfo, granule: u64| {
        w.write_packet(packet, serial, end, granule)
            .map_err(|e| failed("page", &e))
    };
    write(
        &mut writer,
        head.to_bytes(pcm.sample_rate),
        PacketWriteEndInfo::EndPage,
        0,
    )?;
    let mut tags = b"OpusTags".to_vec();
    let vendor = b"voice-gateway";
    tags.extend_from_slice(&(vendor.len() as u32).to_le_bytes());
    tags.extend_from_slice(vendor);
    tags.extend_from_slice(&0u32.to_le_bytes());
    write(&mut writer, tags, PacketWriteEndInfo::EndPage, 0)?;

    let frame = rate as usize / 50;
    let total = pcm.samples.len() as u64 * scale + pre_skip;
    let chunks: Vec<&[i16]> = pcm.samples.chunks(frame).collect();
    let mut padded = vec![0i16; frame];
    let mut packet = [0u8; 1_500];
    let mut coded = 0u64;
    // The encoder looks ahead: a frame of silence after the speech lets its last samples out.
    let count = chunks.len() + 1;
    for i in 0..count {
        let input = match chunks.get(i) {
            Some(chunk) if chunk.len() == frame => *chunk,
            other => {
                padded.fill(0);
                if let Some(chunk) = other {
                    padded[..chunk.len()].copy_from_slice(chunk);
                }
                &padded
            }
        };
        let len = encoder.encode(input, &mut packet).map_err(|e| failed("encoding", &e))?;
        coded += frame as u64 * scale;
        let last = i + 1 == count;
        let end = if last {
            PacketWriteEndInfo::EndStream
        } else {
            PacketWriteEndInfo::NormalPacket
        };
        write(
            &mut writer,
            packet[..len].to_vec(),
            end,
            if last { total } else { coded },
        )?;
    }
    Ok(writer.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(rate: u32, seconds: f64) -> Pcm {
        let samples = (0..(f64::from(rate) * seconds) as usize)
            .map(|i| (8_000.0 * (2.0 * std::f64::consts::PI * 440.0 * i as f64 / f64::from(rate)).sin()) as i16)
            .collect();
        Pcm {
            sample_rate: rate,
            samples,
            channels: 1,
        }
    }

    #[test]
    fn a_head_is_read_back_and_foreign_heads_are_refused() {
        let head = Head {
            channels: 1,
            pre_skip: 312,
        };
        assert_eq!(Head::parse(&head.to_bytes(24_000)), Some(head));
        assert_eq!(Head::parse(b"OpusHead"), None);
        let mut surround = head.to_bytes(48_000);
        surround[18] = 1;
        assert_eq!(Head::parse(&surround), None);
    }

    #[test]
    fn live_packets_decode_to_their_frames_and_garbage_is_an_error() {
        let mut encoder = Encoder::builder(16_000, Channels::Mono, Application::Voip)
            .build()
            .unwrap();
        let pcm = tone(16_000, 0.02);
        let mut packet = [0u8; 1_500];
        let len = encoder.encode(&pcm.samples, &mut packet).unwrap();
        let mut live = LiveDecoder::new(16_000).unwrap();
        assert_eq!(live.decode(&packet[..len]).unwrap().len(), 320);
        assert!(live.decode(&[]).is_err());
        // A TOC byte asking for a frame longer than a packet may hold.
        assert!(live.decode(&[0xFF, 0xFF, 0xFF]).is_err());
    }

    #[test]
    fn speech_at_any_rate_becomes_ogg_opus_of_the_same_length() {
        for rate in [22_050, 24_000, 16_000] {
            let pcm = tone(rate, 1.3);
            let file = ogg_opus(&pcm).unwrap();
            assert_eq!(&file[..4], b"OggS");
            // 24 kbit/s: about 3 KB a second, a tenth of 16-bit PCM at 16 kHz.
            assert!((3_000..6_500).contains(&file.len()), "{rate} Hz: {} bytes", file.len());
            let back = crate::providers::decode::decode(&file, Some("audio/ogg"), 60).unwrap();
            assert_eq!(back.sample_rate, 48_000);
            let seconds = back.duration_secs();
            assert!((seconds - 1.3).abs() < 0.025, "{rate} Hz: {seconds} s");
        }
    }
}
