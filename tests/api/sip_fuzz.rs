//! Fuzzing the house's telephone, the door that reads the router's and any stranger's bytes.
//!
//! - The parsers are fed mutated real messages and must never panic: SIP messages, SDP offers and answers,
//!   and digest challenges. What they read must be answered with what they can read back.
//! - A running gateway is sent mutated requests over UDP and TCP from an allowed address, so that they get
//!   past the stranger's 403. It must go on answering, over both transports and over HTTP.

use std::net::SocketAddr;
use std::time::Duration;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use tokio::io::AsyncWriteExt;
use tokio::net::UdpSocket;
use voice_gateway::sip::digest::Challenge;
use voice_gateway::sip::message::Message;
use voice_gateway::sip::sdp::Offer;

use crate::common::{As, free_port, spawn_app};
use crate::fuzz::{Mutation, mutate, mutation};

/// A Fritz!Box's INVITE for a DECT handset's call, compact and folded headers included, with its offer.
const INVITE: &str = "INVITE sip:620@192.168.178.20:5060 SIP/2.0\r\n\
Via: SIP/2.0/UDP 192.168.178.1:5060;branch=z9hG4bK4F1E2D3C;rport\r\n\
f: <sip:**611@fritz.box>;tag=8A7B6C\r\n\
t: <sip:620@fritz.box>\r\n\
i: 5C4B3A29-1@192.168.178.1\r\n\
CSeq: 1 INVITE\r\n\
m: <sip:**611@192.168.178.1:5060>\r\n\
Max-Forwards: 70\r\n\
Record-Route: <sip:192.168.178.1;lr>\r\n\
Allow: INVITE, ACK, BYE, CANCEL, INFO,\r\n OPTIONS\r\n\
c: application/sdp\r\n\
l: 238\r\n\
\r\n\
v=0\r\n\
o=user 1 1 IN IP4 192.168.178.1\r\n\
s=call\r\n\
c=IN IP4 192.168.178.1\r\n\
t=0 0\r\n\
m=audio 7078 RTP/AVP 9 8 0 101\r\n\
a=rtpmap:9 G722/8000\r\n\
a=rtpmap:8 PCMA/8000\r\n\
a=rtpmap:0 PCMU/8000\r\n\
a=rtpmap:101 telephone-event/8000\r\n\
a=fmtp:101 0-15\r\n";

/// A registrar's challenge.
const CHALLENGE: &str = "SIP/2.0 401 Unauthorized\r\n\
Via: SIP/2.0/UDP 192.168.178.20:5060;branch=z9hG4bKreg1;rport=5060\r\n\
From: <sip:620@fritz.box>;tag=r1\r\nTo: <sip:620@fritz.box>;tag=box1\r\nCall-ID: reg-1\r\nCSeq: 2 REGISTER\r\n\
WWW-Authenticate: Digest realm=\"fritz.box\", nonce=\"AB12CD34\", algorithm=MD5, qop=\"auth\", opaque=\"x\"\r\n\
Content-Length: 0\r\n\r\n";

/// A handset's keypress by INFO.
const INFO: &str = "INFO sip:620@192.168.178.20:5060 SIP/2.0\r\n\
Via: SIP/2.0/UDP 192.168.178.1:5060;branch=z9hG4bKinfo;rport\r\n\
From: <sip:**611@fritz.box>;tag=8A7B6C\r\nTo: <sip:620@fritz.box>;tag=gw\r\nCall-ID: 5C4B3A29-1@192.168.178.1\r\n\
CSeq: 2 INFO\r\nContent-Type: application/dtmf-relay\r\nContent-Length: 22\r\n\r\nSignal=1\r\nDuration=160";

fn mutated() -> impl Strategy<Value = Vec<u8>> {
    let base = prop_oneof![Just(INVITE), Just(CHALLENGE), Just(INFO)];
    (base, vec(mutation(), 1..6))
        .prop_map(|(base, mutations): (&str, Vec<Mutation>)| mutate(base.as_bytes(), &mutations))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Whatever reads as a request is answered with a response that reads back with its Call-ID and CSeq.
    #[test]
    fn broken_messages_never_panic_and_what_reads_is_answered(bytes in mutated()) {
        let Ok(message) = Message::parse(&bytes) else { return Ok(()) };
        if message.code().is_none() {
            let _ = message.check_request();
            let answer = message.response(400, "Bad Request", Some("t"));
            let again = Message::parse(&answer.to_bytes()).expect("our own answer reads back");
            prop_assert_eq!(again.header("Call-ID"), message.header("Call-ID"));
            prop_assert_eq!(again.cseq(), message.cseq());
        }
        let _ = Offer::parse(&String::from_utf8_lossy(&message.body));
        for value in message.all("WWW-Authenticate") {
            if let Some(challenge) = Challenge::parse(value) {
                let _ = challenge.answer("620", &"secret".to_string().into(), "REGISTER", "sip:fritz.box", 1);
            }
        }
    }

    /// An offer that reads is answered with an answer that reads back with the same codec.
    #[test]
    fn broken_offers_never_panic_and_an_answer_reads_back(bytes in mutated()) {
        let sdp = String::from_utf8_lossy(&bytes);
        let sdp = sdp.split_once("\r\n\r\n").map_or(sdp.as_ref(), |(_, body)| body);
        let _ = Offer::parse_answer(sdp);
        if let Ok(offer) = Offer::parse(sdp) {
            let answer = offer.answer("192.168.178.20:40000".parse().unwrap(), (1, 1));
            let read = Offer::parse_answer(&answer).expect("our own answer reads back");
            prop_assert_eq!(read.codec, offer.codec);
        }
    }
}

/// A gateway whose SIP door takes 127.0.0.1's requests: its UDP and TCP address.
async fn telephone() -> (crate::common::TestApp, SocketAddr) {
    let sip = SocketAddr::from(([127, 0, 0, 1], free_port()));
    let app = spawn_app(&[
        ("SIP_ADDR", &sip.to_string()),
        ("SIP_ALLOWED_FROM", "127.0.0.1"),
        ("SIP_RTP_PORTS", "42000-42009"),
    ])
    .await;
    (app, sip)
}

/// Whether an OPTIONS over UDP is answered 200 within 5 s (the telephone still serves).
async fn still_answers(sip: SocketAddr) -> bool {
    let options = "OPTIONS sip:assistant@127.0.0.1 SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:5999;branch=z9hG4bKok\r\n\
        From: <sip:t@127.0.0.1>;tag=1\r\nTo: <sip:assistant@127.0.0.1>\r\nCall-ID: still\r\nCSeq: 1 OPTIONS\r\n\
        Content-Length: 0\r\n\r\n";
    let socket = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    socket.send_to(options.as_bytes(), sip).await.unwrap();
    let mut buf = vec![0u8; 65536];
    let answer = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            let (n, _) = socket.recv_from(&mut buf).await.unwrap();
            let text = String::from_utf8_lossy(&buf[..n]).into_owned();
            if text.contains("Call-ID: still") {
                return text;
            }
        }
    })
    .await;
    answer.is_ok_and(|a| a.starts_with("SIP/2.0 200 OK"))
}

#[tokio::test]
async fn a_telephone_sent_broken_sip_over_udp_and_tcp_goes_on_serving() {
    let (app, sip) = telephone().await;
    crate::common::eventually("the telephone listens", 10, || still_answers(sip)).await;
    let mut runner = TestRunner::deterministic();
    let messages: Vec<Vec<u8>> = (0..300)
        .map(|_| mutated().new_tree(&mut runner).unwrap().current())
        .collect();
    let socket = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    for message in &messages {
        socket.send_to(message, sip).await.unwrap();
    }
    // Over TCP: the same messages, a connection for every ten, each cut wherever it falls.
    for chunk in messages.chunks(10) {
        let Ok(mut stream) = tokio::net::TcpStream::connect(sip).await else {
            continue;
        };
        for message in chunk {
            if stream.write_all(message).await.is_err() {
                break;
            }
        }
    }
    assert!(
        still_answers(sip).await,
        "the telephone answers after 600 broken messages"
    );
    assert_eq!(app.get("/health", As::Nobody).await.status, 200);
}
