//! RTP (RFC 3550) as a call needs it: packets in and out, the codec's samples, a small reordering buffer,
//! telephone events (RFC 4733) and the sender reports of RTCP.

// Numbers from the wire are read here: no arithmetic may overflow or panic, whatever they are.
#![deny(clippy::arithmetic_side_effects)]

use std::collections::BTreeMap;

use ezk_g722::libg722::Bitrate;
use ezk_g722::libg722::decoder::Decoder as G722Decoder;
use ezk_g722::libg722::encoder::Encoder as G722Encoder;

use super::sdp::Codec;
use crate::providers::g711;

/// One RTP packet's header fields the call uses, and its payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packet {
    pub payload_type: u8,
    pub marker: bool,
    pub sequence: u16,
    pub timestamp: u32,
    pub ssrc: u32,
    pub payload: Vec<u8>,
}

impl Packet {
    /// Reads a datagram; `None` for anything that is not an RTP version 2 packet with a whole header.
    pub fn parse(bytes: &[u8]) -> Option<Self> {
        if bytes.len() < 12 || bytes[0] >> 6 != 2 {
            return None;
        }
        let csrc = usize::from(bytes[0] & 0x0f);
        // At most 12 + 4·15 + 4 + 4·65535: no overflow, and `get` bounds every read.
        let mut start = 12usize.saturating_add(csrc.saturating_mul(4));
        if bytes[0] & 0x10 != 0 {
            // A header extension: its length in 32-bit words after its own 4 bytes.
            let words = bytes.get(start.saturating_add(2)..start.saturating_add(4))?;
            let length = usize::from(u16::from_be_bytes([words[0], words[1]])).saturating_mul(4);
            start = start.saturating_add(4).saturating_add(length);
        }
        let mut end = bytes.len();
        if bytes[0] & 0x20 != 0 {
            end = end.checked_sub(usize::from(*bytes.last()?))?;
        }
        Some(Self {
            payload_type: bytes[1] & 0x7f,
            marker: bytes[1] & 0x80 != 0,
            sequence: u16::from_be_bytes([bytes[2], bytes[3]]),
            timestamp: u32::from_be_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]),
            ssrc: u32::from_be_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]),
            payload: bytes.get(start..end)?.to_vec(),
        })
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(self.payload.len().saturating_add(12));
        bytes.push(0x80);
        bytes.push(self.payload_type | if self.marker { 0x80 } else { 0 });
        bytes.extend_from_slice(&self.sequence.to_be_bytes());
        bytes.extend_from_slice(&self.timestamp.to_be_bytes());
        bytes.extend_from_slice(&self.ssrc.to_be_bytes());
        bytes.extend_from_slice(&self.payload);
        bytes
    }
}

/// Samples to a codec's payload and back, with the state G.722 keeps between packets.
pub enum Coder {
    G722(Box<G722Encoder>, Box<G722Decoder>),
    Pcma,
    Pcmu,
}

impl Coder {
    pub fn new(codec: Codec) -> Self {
        match codec {
            // 64 kbit/s, 16 kHz, one code word a byte: what RTP's G722/8000 means.
            Codec::G722 => Coder::G722(
                Box::new(G722Encoder::new(Bitrate::Mode1_64000, false, false)),
                Box::new(G722Decoder::new(Bitrate::Mode1_64000, false, false)),
            ),
            Codec::Pcma => Coder::Pcma,
            Codec::Pcmu => Coder::Pcmu,
        }
    }

    pub fn encode(&mut self, samples: &[i16]) -> Vec<u8> {
        match self {
            Coder::G722(encoder, _) => encoder.encode(samples),
            Coder::Pcma => samples.iter().map(|&s| g711::alaw_from(s)).collect(),
            Coder::Pcmu => samples.iter().map(|&s| g711::ulaw_from(s)).collect(),
        }
    }

    pub fn decode(&mut self, payload: &[u8]) -> Vec<i16> {
        match self {
            Coder::G722(_, decoder) => decoder.decode(payload),
            Coder::Pcma => payload.iter().map(|&b| g711::alaw_to(b)).collect(),
            Coder::Pcmu => payload.iter().map(|&b| g711::ulaw_to(b)).collect(),
        }
    }
}

/// Packets that may come out of order, given back in order: a packet waits until `DEPTH` later ones came
/// (60 ms at 20 ms a packet), and a late one after its successors were given back is dropped.
pub struct Reorder {
    waiting: BTreeMap<u64, Packet>,
    /// The extended number of the last packet given back.
    last: Option<u64>,
}

const DEPTH: usize = 3;

impl Reorder {
    pub fn new() -> Self {
        Self {
            waiting: BTreeMap::new(),
            last: None,
        }
    }

    /// Takes a packet and gives back those now due, in order.
    pub fn push(&mut self, packet: Packet) -> Vec<Packet> {
        let number = self.extend(packet.sequence);
        if self.last.is_some_and(|last| number <= last) {
            return Vec::new();
        }
        self.waiting.insert(number, packet);
        let mut due = Vec::new();
        while self.waiting.len() > DEPTH
            || self
                .waiting
                .first_key_value()
                .is_some_and(|(&n, _)| self.last.is_some_and(|l| Some(n) == l.checked_add(1)))
        {
            let Some((n, packet)) = self.waiting.pop_first() else {
                break;
            };
            self.last = Some(n);
            due.push(packet);
        }
        due
    }

    /// A 16-bit sequence number made 64-bit: the one closest to the last one given back.
    fn extend(&self, sequence: u16) -> u64 {
        let Some(last) = self.last.or_else(|| self.waiting.keys().next().copied()) else {
            return u64::from(sequence) + (1 << 16);
        };
        let base = last & !0xffff;
        [base.wrapping_sub(1 << 16), base, base.wrapping_add(1 << 16)]
            .into_iter()
            .map(|b| b | u64::from(sequence))
            .min_by_key(|&n| n.abs_diff(last))
            .unwrap_or(last)
    }
}

impl Default for Reorder {
    fn default() -> Self {
        Self::new()
    }
}

/// A telephone event's digit when its packet ends the event (RFC 4733 §2.3: the E bit); the end is sent
/// three times, so the caller keeps the last timestamp reported.
pub fn event_end(payload: &[u8]) -> Option<char> {
    let (&event, &flags) = (payload.first()?, payload.get(1)?);
    if flags & 0x80 == 0 {
        return None;
    }
    match event {
        0..=9 => char::from_digit(u32::from(event), 10),
        10 => Some('*'),
        11 => Some('#'),
        _ => None,
    }
}

/// An RTCP sender report with the CNAME's description (RFC 3550 §6.4.1, §6.5), as a compound packet.
pub fn sender_report(ssrc: u32, timestamp: u32, packets: u32, octets: u32, cname: &str) -> Vec<u8> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    // NTP time: seconds since 1900, and the fraction of a second in 32 bits.
    let seconds = now.as_secs().wrapping_add(2_208_988_800) as u32;
    let fraction = ((u64::from(now.subsec_nanos()) << 32) / 1_000_000_000) as u32;
    let mut out = vec![0x80, 200, 0, 6];
    for word in [ssrc, seconds, fraction, timestamp, packets, octets] {
        out.extend_from_slice(&word.to_be_bytes());
    }
    // SDES: one chunk with the CNAME, padded to a 32-bit boundary.
    let name = &cname.as_bytes()[..cname.len().min(255)];
    let mut chunk = ssrc.to_be_bytes().to_vec();
    chunk.extend_from_slice(&[1, name.len() as u8]);
    chunk.extend_from_slice(name);
    chunk.push(0);
    while !chunk.len().is_multiple_of(4) {
        chunk.push(0);
    }
    let words = (chunk.len() / 4) as u16;
    out.extend_from_slice(&[0x81, 202]);
    out.extend_from_slice(&words.to_be_bytes());
    out.extend_from_slice(&chunk);
    out
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    fn packet(sequence: u16) -> Packet {
        Packet {
            payload_type: 9,
            marker: false,
            sequence,
            timestamp: u32::from(sequence) * 160,
            ssrc: 7,
            payload: vec![1, 2, 3],
        }
    }

    #[test]
    fn a_packet_reads_back_as_written_and_broken_ones_do_not_read() {
        let p = packet(65_535);
        assert_eq!(Packet::parse(&p.to_bytes()), Some(p.clone()));
        assert_eq!(Packet::parse(&[0x80, 9, 0]), None, "a cut header");
        assert_eq!(Packet::parse(&[0x40; 20]), None, "version 1");
        let mut padded = p.to_bytes();
        padded[0] |= 0x20;
        padded.extend_from_slice(&[0, 0, 3]);
        assert_eq!(Packet::parse(&padded).unwrap().payload, [1, 2, 3]);
        let mut lying = p.to_bytes();
        lying[0] |= 0x20;
        lying.push(200);
        assert_eq!(Packet::parse(&lying), None, "padding longer than the packet");
    }

    #[test]
    fn packets_come_out_in_order_across_the_wrap_and_late_ones_are_dropped() {
        let mut reorder = Reorder::new();
        let mut out = Vec::new();
        for sequence in [65_534, 0, 65_535, 1, 3, 2, 4, 5, 6] {
            out.extend(reorder.push(packet(sequence)).into_iter().map(|p| p.sequence));
        }
        // The first waits for three more; then each comes as soon as its predecessor did.
        assert_eq!(out, [65_534, 65_535, 0, 1, 2, 3, 4, 5, 6]);
        assert!(reorder.push(packet(65_535)).is_empty(), "after its successors: dropped");
    }

    #[test]
    fn g722_and_g711_carry_a_tone() {
        let tone: Vec<i16> = (0..3200).map(|i| ((i as f32 * 0.2).sin() * 8000.0) as i16).collect();
        for codec in [Codec::G722, Codec::Pcma, Codec::Pcmu] {
            let mut coder = Coder::new(codec);
            let bytes: Vec<u8> = tone.chunks(320).flat_map(|c| coder.encode(c)).collect();
            let expected = if codec == Codec::G722 {
                tone.len() / 2
            } else {
                tone.len()
            };
            assert_eq!(bytes.len(), expected, "{codec:?}");
            let back: Vec<i16> = bytes.chunks(160).flat_map(|c| coder.decode(c)).collect();
            assert_eq!(back.len(), tone.len());
            // The codec's delay aside, the tone's energy comes back.
            let energy = |s: &[i16]| s.iter().map(|&x| f64::from(x).powi(2)).sum::<f64>() / s.len() as f64;
            let ratio = energy(&back[400..]) / energy(&tone[400..]);
            assert!((0.7..1.3).contains(&ratio), "{codec:?}: {ratio}");
        }
    }

    #[test]
    fn an_event_counts_at_its_end() {
        assert_eq!(event_end(&[1, 0x0a, 0, 160]), None, "still pressed");
        assert_eq!(event_end(&[1, 0x8a, 3, 32]), Some('1'));
        assert_eq!(event_end(&[11, 0x80, 0, 0]), Some('#'));
        let report = sender_report(7, 160, 1, 160, "gw");
        assert_eq!(report[1], 200);
        assert_eq!(report.len() % 4, 0);
    }
}
