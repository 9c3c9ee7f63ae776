//! `--line sip-g722` and `--line sip-pcma`: each question is a call to the gateway's SIP telephone, as a
//! handset makes it: an INVITE offering only that codec, the ACK, the question in real time over RTP (G.722 at
//! 16 kHz, or A-law at 8 kHz, with the gateway's own coders), and a BYE once answered. The client measures from
//! the last voiced sample to the first answer audio after it (the gateway sends silence between answers, so
//! the first packet with sound counts); what was heard is read from the call's session, as for `--line twilio`.
//! The caller is the phone's guest, in the question's language; the call goes straight to the gateway on
//! loopback (`SIP_ALLOWED_FROM=127.0.0.1`), no router between.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use tokio::net::UdpSocket;
use voice_gateway::providers::resample::Resampler;
use voice_gateway::sip::message::Message;
use voice_gateway::sip::rtp::{Coder, Packet};
use voice_gateway::sip::sdp::{Codec, Offer};

use super::Measure;

/// The settings of the SIP line: the telephone on `sip`, callers from loopback taken, unknown ones as guests.
pub fn settings(sip: SocketAddr) -> Vec<(String, String)> {
    [
        ("SIP_ADDR", sip.to_string()),
        ("SIP_ALLOWED_FROM", "127.0.0.1".into()),
        ("SIP_RTP_PORTS", "42000-42099".into()),
        ("PHONE_UNKNOWN_CALLERS", "guest".into()),
        ("PHONE_GUEST_DAILY_REQUESTS", "0".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// The codec of a `--line` value.
pub fn codec(line: &str) -> Option<Codec> {
    match line {
        "sip-g722" => Some(Codec::G722),
        "sip-pcma" => Some(Codec::Pcma),
        _ => None,
    }
}

/// A request of the call's dialog.
fn request(method: &str, sip: SocketAddr, me: SocketAddr, call: usize, cseq: u32, to_tag: Option<&str>) -> Message {
    let mut m = Message::request(method, &format!("sip:assistant@{sip}"));
    let to = match to_tag {
        Some(tag) => format!("<sip:assistant@{sip}>;tag={tag}"),
        None => format!("<sip:assistant@{sip}>"),
    };
    m.push(
        "Via",
        format!("SIP/2.0/UDP {me};branch=z9hG4bKbench{call}{method}{cseq}"),
    )
    .push("Max-Forwards", "70")
    .push("From", format!("<sip:bench@{me}>;tag=bench{call}"))
    .push("To", to)
    .push("Call-ID", format!("bench-call-{call}"))
    .push("CSeq", format!("{cseq} {method}"))
    .push("Contact", format!("<sip:bench@{me}>"));
    m
}

/// The next message on `socket` within `wait`.
async fn next(socket: &UdpSocket, wait: Duration) -> Option<Message> {
    let mut buf = vec![0u8; 65536];
    let (n, _) = tokio::time::timeout(wait, socket.recv_from(&mut buf))
        .await
        .ok()?
        .ok()?;
    Message::parse(&buf[..n]).ok()
}

/// Calls, asks `pcm` (16 kHz) in `lang` with `codec`, and measures.
pub async fn ask(port: u16, sip: SocketAddr, pid: u32, lang: &str, pcm: &[i16], codec: Codec, call: usize) -> Measure {
    // The guest is made by the first unknown call (the warm-up's, in English).
    let known = super::phone::guest_if_any(port).await;
    if let Some(user) = &known {
        super::phone::set_language(port, user, lang).await;
    }
    let metered = super::phone::Metered::start(port, pid).await;
    let signalling = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let media = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let me = signalling.local_addr().unwrap();
    let pt = codec.payload_type();
    let mut invite = request("INVITE", sip, me, call, 1, None);
    invite.push("Content-Type", "application/sdp");
    invite.body = format!(
        "v=0\r\no=bench 1 1 IN IP4 127.0.0.1\r\ns=bench\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n\
         m=audio {} RTP/AVP {pt}\r\na=rtpmap:{pt} {}/8000\r\n",
        media.local_addr().unwrap().port(),
        codec.name()
    )
    .into_bytes();
    signalling.send_to(&invite.to_bytes(), sip).await.unwrap();
    let ok = loop {
        let answer = next(&signalling, Duration::from_secs(10))
            .await
            .expect("an answer to the INVITE");
        if answer.code() == Some(200) {
            break answer;
        }
    };
    let to_tag = voice_gateway::sip::message::param(ok.header("To").unwrap(), "tag")
        .unwrap()
        .to_string();
    let gateway = Offer::parse(&String::from_utf8_lossy(&ok.body))
        .expect("the gateway's answer")
        .media;
    let ack = request("ACK", sip, me, call, 1, Some(&to_tag));
    signalling.send_to(&ack.to_bytes(), sip).await.unwrap();

    // The question at the codec's rate, then 8 s of silence, in 20 ms packets in real time.
    let rate = codec.audio_rate() as usize;
    let mut samples = if rate == 16_000 {
        pcm.to_vec()
    } else {
        let mut narrow = Resampler::new(16_000, rate as u32);
        narrow.push(pcm).into_iter().chain(narrow.finish()).collect()
    };
    let frame = rate / 50;
    let speech_frames = samples.len().div_ceil(frame);
    samples.resize(speech_frames * frame + rate * 8, 0);
    let (last_tx, mut last_rx) = tokio::sync::oneshot::channel::<Instant>();
    // Sent from the offer's own port, as a handset does (symmetric RTP).
    let sender = {
        let socket = std::sync::Arc::new(media);
        let out = socket.clone();
        let task = tokio::spawn(async move {
            let mut coder = Coder::new(codec);
            let mut tick = tokio::time::interval(Duration::from_millis(20));
            let mut last_tx = Some(last_tx);
            for (i, chunk) in samples.chunks(frame).enumerate() {
                tick.tick().await;
                let packet = Packet {
                    payload_type: pt,
                    marker: i == 0,
                    sequence: i as u16,
                    timestamp: (i * 160) as u32,
                    ssrc: 0xbe4c,
                    payload: coder.encode(chunk),
                };
                let _ = out.send_to(&packet.to_bytes(), gateway).await;
                if i + 1 == speech_frames
                    && let Some(t) = last_tx.take()
                {
                    let _ = t.send(Instant::now());
                }
            }
        });
        (socket, task)
    };
    let (socket, task) = sender;
    let mut coder = Coder::new(codec);
    let mut last: Option<Instant> = None;
    let mut first_audio: Option<Instant> = None;
    let mut answered = false;
    let deadline = Instant::now() + Duration::from_secs(pcm.len() as u64 / 16_000 + 30);
    let mut buf = vec![0u8; 2048];
    while Instant::now() < deadline && !answered {
        if last.is_none() {
            last = last_rx.try_recv().ok();
        }
        let Ok(Ok((n, _))) = tokio::time::timeout(Duration::from_millis(100), socket.recv_from(&mut buf)).await else {
            continue;
        };
        let Some(packet) = Packet::parse(&buf[..n]) else {
            continue;
        };
        let sound = coder.decode(&packet.payload).iter().any(|s| s.unsigned_abs() > 300);
        if sound && first_audio.is_none() && last.is_some() {
            first_audio = Some(Instant::now());
        }
        if first_audio.is_some() && last.is_some_and(|l| l.elapsed() > Duration::from_millis(1500)) {
            answered = super::phone::answered(port).await;
        }
    }
    task.abort();
    let bye = request("BYE", sip, me, call, 2, Some(&to_tag));
    signalling.send_to(&bye.to_bytes(), sip).await.unwrap();
    let _ = next(&signalling, Duration::from_secs(2)).await;
    metered.measure(port, pid, last, first_audio).await
}
