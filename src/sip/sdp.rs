//! The session description of a call (RFC 4566, offer and answer by RFC 3264): where the caller wants its
//! audio, which codec the gateway takes of those offered, and which way the audio flows (a call on hold is
//! offered `sendonly` or `inactive`, RFC 3264 §8.4; or, as RFC 2543 had it, to the address 0.0.0.0).

// Numbers from the wire are read here: no arithmetic may overflow or panic, whatever they are.
#![deny(clippy::arithmetic_side_effects)]

use std::net::{IpAddr, SocketAddr};

/// The codecs the gateway speaks, best first: G.722 carries the 16 kHz band German recognition needs; A-law
/// (Europe's telephone network) before µ-law.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    G722,
    Pcma,
    Pcmu,
}

impl Codec {
    /// The static RTP payload type (RFC 3551).
    pub fn payload_type(self) -> u8 {
        match self {
            Codec::G722 => 9,
            Codec::Pcma => 8,
            Codec::Pcmu => 0,
        }
    }

    /// The rate of the audio it carries (G.722's RTP clock is 8 kHz for history's sake, RFC 3551 §4.5.2).
    pub fn audio_rate(self) -> u32 {
        match self {
            Codec::G722 => 16_000,
            Codec::Pcma | Codec::Pcmu => 8_000,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Codec::G722 => "G722",
            Codec::Pcma => "PCMA",
            Codec::Pcmu => "PCMU",
        }
    }

    fn by_name(name: &str) -> Option<Self> {
        [Codec::G722, Codec::Pcma, Codec::Pcmu]
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name))
    }
}

/// Which way audio flows, as the side that wrote the description sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    #[default]
    SendRecv,
    SendOnly,
    RecvOnly,
    Inactive,
}

impl Direction {
    fn by_name(name: &str) -> Option<Self> {
        Some(match name {
            "sendrecv" => Self::SendRecv,
            "sendonly" => Self::SendOnly,
            "recvonly" => Self::RecvOnly,
            "inactive" => Self::Inactive,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Self::SendRecv => "sendrecv",
            Self::SendOnly => "sendonly",
            Self::RecvOnly => "recvonly",
            Self::Inactive => "inactive",
        }
    }

    /// The direction of the answer to an offer of this one (RFC 3264 §6.1).
    pub fn answered(self) -> Self {
        match self {
            Self::SendOnly => Self::RecvOnly,
            Self::RecvOnly => Self::SendOnly,
            other => other,
        }
    }

    /// Whether the side that wrote it sends audio.
    pub fn sends(self) -> bool {
        matches!(self, Self::SendRecv | Self::SendOnly)
    }

    /// Whether the side that wrote it takes audio.
    pub fn receives(self) -> bool {
        matches!(self, Self::SendRecv | Self::RecvOnly)
    }
}

/// What the caller offered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    /// Where the caller receives audio.
    pub media: SocketAddr,
    /// The codec taken, and its payload type as offered.
    pub codec: Codec,
    pub payload_type: u8,
    /// The payload type of RFC 4733 telephone events, when offered.
    pub events: Option<u8>,
    /// Which way its writer wants the audio to flow.
    pub direction: Direction,
}

/// Why an offer cannot be taken: the 488's reason.
pub type Refusal = &'static str;

/// The gateway's offer for a call it places: every codec it speaks, best first, and telephone events (a
/// contact confirms an alarm by pressing 1).
pub fn offer(local: SocketAddr, session: u64) -> String {
    let codecs = [Codec::G722, Codec::Pcma, Codec::Pcmu];
    let formats: Vec<String> = codecs.iter().map(|c| c.payload_type().to_string()).collect();
    let mut attributes: String = codecs
        .iter()
        .map(|c| format!("a=rtpmap:{} {}/8000\r\n", c.payload_type(), c.name()))
        .collect();
    attributes.push_str(&format!(
        "a=rtpmap:{EVENTS} telephone-event/8000\r\na=fmtp:{EVENTS} 0-16\r\n"
    ));
    let formats = format!("{} {EVENTS}", formats.join(" "));
    description(local, (session, session), &formats, &attributes, Direction::SendRecv)
}

/// The payload type of telephone events in the gateway's offers.
const EVENTS: u8 = 101;

/// A description of audio at `local`; `(session, version)` of its origin line, the version one higher each
/// time the description changes in a call.
fn description(
    local: SocketAddr,
    (session, version): (u64, u64),
    formats: &str,
    attributes: &str,
    direction: Direction,
) -> String {
    let ip = local.ip();
    let family = if ip.is_ipv4() { "IP4" } else { "IP6" };
    format!(
        "v=0\r\no=voice-gateway {session} {version} IN {family} {ip}\r\ns=voice-gateway\r\nc=IN {family} {ip}\r\n\
         t=0 0\r\nm=audio {} RTP/AVP {formats}\r\n{attributes}a=ptime:20\r\na={}\r\n",
        local.port(),
        direction.name()
    )
}

/// What a description says of its first audio stream, as read line by line.
#[derive(Default)]
struct Described {
    session_addr: Option<IpAddr>,
    media_addr: Option<IpAddr>,
    /// The stream's port and payload types.
    audio: Option<(u16, Vec<u8>)>,
    /// `a=rtpmap`: payload type and encoding.
    maps: Vec<(u8, String)>,
    session_direction: Option<Direction>,
    media_direction: Option<Direction>,
}

impl Described {
    fn of(sdp: &str) -> Result<Self, Refusal> {
        let mut read = Self::default();
        for line in sdp.lines().map(str::trim) {
            let Some((kind, value)) = line.split_once('=') else {
                continue;
            };
            match kind {
                "c" => {
                    let addr = value
                        .split_whitespace()
                        .nth(2)
                        .and_then(|a| a.split('/').next()?.parse().ok());
                    if read.audio.is_some() {
                        read.media_addr = read.media_addr.or(addr);
                    } else {
                        read.session_addr = addr;
                    }
                }
                "m" if read.audio.is_some() => break, // only the first audio stream
                "m" => read.media(value)?,
                "a" if read.audio.is_none() => {
                    read.session_direction = Direction::by_name(value).or(read.session_direction);
                }
                "a" => read.attribute(value)?,
                _ => {}
            }
        }
        Ok(read)
    }

    /// An `m=` line: the first audio stream's port and formats.
    fn media(&mut self, value: &str) -> Result<(), Refusal> {
        let mut fields = value.split_whitespace();
        if fields.next() != Some("audio") {
            return Ok(());
        }
        let port = fields.next().and_then(|p| p.split('/').next()?.parse().ok());
        let _proto = fields.next();
        // RTP's payload type has seven bits (RFC 3550 §5.1): a larger number is no format.
        let formats = fields
            .filter_map(|f| f.parse().ok())
            .filter(|&pt: &u8| pt < 128)
            .collect();
        self.audio = Some((port.ok_or("a media port that is not a number")?, formats));
        Ok(())
    }

    /// An `a=` line of the audio stream: its direction or an `rtpmap`.
    fn attribute(&mut self, value: &str) -> Result<(), Refusal> {
        self.media_direction = Direction::by_name(value).or(self.media_direction);
        if let Some(map) = value.strip_prefix("rtpmap:") {
            let (pt, encoding) = map.split_once(' ').ok_or("a broken rtpmap")?;
            if let Ok(pt) = pt.parse() {
                self.maps.push((pt, encoding.to_string()));
            }
        }
        Ok(())
    }

    /// The encoding a payload type is mapped to.
    fn name_of(&self, pt: u8) -> Option<String> {
        self.maps
            .iter()
            .find(|(p, _)| *p == pt)
            .map(|(_, e)| e.split('/').next().unwrap_or_default().to_string())
    }

    /// The codec of a payload type: its mapping, else the static one (RFC 3551).
    fn codec_of(&self, pt: u8) -> Option<Codec> {
        match self.name_of(pt) {
            Some(name) => Codec::by_name(&name),
            None => [Codec::G722, Codec::Pcma, Codec::Pcmu]
                .into_iter()
                .find(|c| c.payload_type() == pt),
        }
    }

    /// The payload type and codec `pick` takes of `formats`.
    fn pick(&self, formats: &[u8], pick: Pick) -> Result<(u8, Codec), Refusal> {
        let found = match pick {
            Pick::Best => [Codec::G722, Codec::Pcma, Codec::Pcmu].into_iter().find_map(|wanted| {
                formats
                    .iter()
                    .find(|&&pt| self.codec_of(pt) == Some(wanted))
                    .map(|&pt| (pt, wanted))
            }),
            Pick::First => formats.iter().find_map(|&pt| Some((pt, self.codec_of(pt)?))),
            Pick::Same(codec) => formats
                .iter()
                .find(|&&pt| self.codec_of(pt) == Some(codec))
                .map(|&pt| (pt, codec)),
        };
        found.ok_or(match pick {
            Pick::Same(_) => "the call's codec is not offered again",
            _ => "none of G.722, A-law, µ-law offered",
        })
    }
}

/// Which codec of a description is taken.
#[derive(Clone, Copy)]
enum Pick {
    /// The gateway's best of an offer.
    Best,
    /// The first of an answer that the gateway speaks: the one the answerer sends.
    First,
    /// The call's own, in a new offer within the call (the audio goes on as agreed).
    Same(Codec),
}

impl Offer {
    /// Reads the first audio stream of an offer and takes the best codec it has.
    pub fn parse(sdp: &str) -> Result<Self, Refusal> {
        Self::read(sdp, Pick::Best)
    }

    /// Reads the answer to the gateway's offer: its first codec the gateway speaks.
    pub fn parse_answer(sdp: &str) -> Result<Self, Refusal> {
        Self::read(sdp, Pick::First)
    }

    /// Reads a new offer in a call that goes on in `codec` (a re-INVITE: hold, resume, a new address).
    pub fn parse_again(sdp: &str, codec: Codec) -> Result<Self, Refusal> {
        Self::read(sdp, Pick::Same(codec))
    }

    fn read(sdp: &str, pick: Pick) -> Result<Self, Refusal> {
        let read = Described::of(sdp)?;
        let (port, formats) = read.audio.clone().ok_or("no audio stream")?;
        let addr = read.media_addr.or(read.session_addr).ok_or("no connection address")?;
        if port == 0 {
            return Err("the audio stream is declined");
        }
        let (payload_type, codec) = read.pick(&formats, pick)?;
        let events = formats.iter().copied().find(|&pt| {
            read.name_of(pt)
                .is_some_and(|n| n.eq_ignore_ascii_case("telephone-event"))
        });
        // RFC 2543's hold: audio to nowhere.
        let nowhere = addr.is_unspecified().then_some(Direction::Inactive);
        Ok(Self {
            media: SocketAddr::new(addr, port),
            codec,
            payload_type,
            events,
            direction: nowhere
                .or(read.media_direction)
                .or(read.session_direction)
                .unwrap_or_default(),
        })
    }

    /// The answer: the gateway's audio at `local`, with the codec taken and telephone events when offered,
    /// flowing the way the offer asked; `origin` is the session and version of the gateway's description.
    pub fn answer(&self, local: SocketAddr, origin: (u64, u64)) -> String {
        let mut formats = self.payload_type.to_string();
        let mut attributes = format!("a=rtpmap:{} {}/8000\r\n", self.payload_type, self.codec.name());
        if let Some(pt) = self.events {
            formats.push_str(&format!(" {pt}"));
            attributes.push_str(&format!("a=rtpmap:{pt} telephone-event/8000\r\na=fmtp:{pt} 0-16\r\n"));
        }
        description(local, origin, &formats, &attributes, self.direction.answered())
    }
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    /// An offer as baresip sends it (Opus first, which the gateway does not take).
    const BARESIP: &str = "v=0\r\no=- 1 2 IN IP4 10.77.0.2\r\ns=-\r\nc=IN IP4 10.77.0.2\r\nt=0 0\r\n\
        m=audio 10004 RTP/AVP 96 9 0 8 101\r\na=rtpmap:96 opus/48000/2\r\na=rtpmap:9 G722/8000\r\n\
        a=rtpmap:0 PCMU/8000\r\na=rtpmap:8 PCMA/8000\r\na=rtpmap:101 telephone-event/8000\r\n\
        a=fmtp:101 0-15\r\na=sendrecv\r\n";

    #[test]
    fn the_best_codec_offered_is_taken_and_answered() {
        let offer = Offer::parse(BARESIP).unwrap();
        assert_eq!(offer.media, "10.77.0.2:10004".parse().unwrap());
        assert_eq!(
            (offer.codec, offer.payload_type, offer.events),
            (Codec::G722, 9, Some(101))
        );
        let answer = offer.answer("10.77.0.1:40000".parse().unwrap(), (7, 7));
        assert!(answer.contains("c=IN IP4 10.77.0.1\r\n"));
        assert!(answer.contains("m=audio 40000 RTP/AVP 9 101\r\n"));
        assert!(answer.contains("a=rtpmap:9 G722/8000\r\n"));
        assert!(answer.contains("a=sendrecv\r\n"));
        // Without G.722, A-law before µ-law, in the caller's order or not.
        let narrow = BARESIP.replace(" 9 0 8 101", " 0 8");
        assert_eq!(Offer::parse(&narrow).unwrap().codec, Codec::Pcma);
        assert_eq!(Offer::parse(&narrow).unwrap().events, None);
    }

    #[test]
    fn an_offer_to_hold_is_answered_the_other_way_and_a_new_one_keeps_the_calls_codec() {
        let held = BARESIP.replace("a=sendrecv", "a=sendonly");
        let offer = Offer::parse_again(&held, Codec::Pcma).unwrap();
        assert_eq!(
            (offer.codec, offer.payload_type, offer.direction),
            (Codec::Pcma, 8, Direction::SendOnly)
        );
        let answer = offer.answer("10.77.0.1:40000".parse().unwrap(), (7, 8));
        assert!(answer.contains("o=voice-gateway 7 8 IN IP4"), "{answer}");
        assert!(answer.contains("a=recvonly\r\n"), "{answer}");
        // Session-level, and the old way: to 0.0.0.0.
        let session = BARESIP
            .replace("t=0 0\r\n", "t=0 0\r\na=inactive\r\n")
            .replace("a=sendrecv\r\n", "");
        assert_eq!(Offer::parse(&session).unwrap().direction, Direction::Inactive);
        let nowhere = BARESIP.replace("c=IN IP4 10.77.0.2", "c=IN IP4 0.0.0.0");
        assert_eq!(Offer::parse(&nowhere).unwrap().direction, Direction::Inactive);
        assert!(!Direction::Inactive.sends() && Direction::SendOnly.sends() && !Direction::SendOnly.receives());
        // A codec the call does not have cannot be switched to.
        let other = BARESIP.replace(" 9 0 8 101", " 0");
        assert_eq!(
            Offer::parse_again(&other, Codec::Pcma),
            Err("the call's codec is not offered again")
        );
    }

    #[test]
    fn offers_the_gateway_cannot_take_say_why() {
        assert_eq!(
            Offer::parse(&BARESIP.replace(" 9 0 8 101", " 96")),
            Err("none of G.722, A-law, µ-law offered")
        );
        assert_eq!(
            Offer::parse(&BARESIP.replace("m=audio 10004", "m=audio 0")),
            Err("the audio stream is declined")
        );
        assert_eq!(Offer::parse("v=0\r\n"), Err("no audio stream"));
    }

    #[test]
    fn the_gateways_offer_lists_every_codec_and_its_answer_is_read_in_the_answerers_order() {
        let offer = offer("192.168.178.20:40002".parse().unwrap(), 9);
        assert!(offer.contains("m=audio 40002 RTP/AVP 9 8 0 101\r\n"), "{offer}");
        assert!(offer.contains("a=rtpmap:101 telephone-event/8000\r\n"));
        // Read as an offer, it is the gateway's own best; a handset that answers A-law first is sent A-law.
        assert_eq!(Offer::parse(&offer).unwrap().codec, Codec::G722);
        let answer = BARESIP.replace(" 96 9 0 8 101", " 8 9 101");
        let taken = Offer::parse_answer(&answer).unwrap();
        assert_eq!(
            (taken.codec, taken.payload_type, taken.events),
            (Codec::Pcma, 8, Some(101))
        );
    }
}
