//! The house line holds against its own network (issue 78): with `SIP_ALLOWED_FROM` the whole network, one
//! device holding hundreds of idle TCP connections keeps only its share; the others' calls, over UDP and TCP,
//! are answered, and the holder's own beyond its share hear 503 with `Retry-After`, counted and named.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

use crate::common::{As, eventually};
use crate::sip_ends::Handset;
use crate::sipp::counted;

/// A TCP connection to `sip` from `address` (another device of the house on loopback).
async fn connect_from(address: &str, sip: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(address.parse().unwrap(), 0))?;
    socket.connect(sip).await
}

/// An INVITE over TCP from `stream`'s address, with an A-law offer.
fn invite_over_tcp(stream: &TcpStream, sip: SocketAddr, call_id: &str) -> String {
    let me = stream.local_addr().unwrap();
    let sdp = format!(
        "v=0\r\no=h 1 1 IN IP4 {ip}\r\ns=-\r\nc=IN IP4 {ip}\r\nt=0 0\r\nm=audio 49170 RTP/AVP 8\r\n",
        ip = me.ip()
    );
    format!(
        "INVITE sip:assistant@{sip};transport=tcp SIP/2.0\r\nVia: SIP/2.0/TCP {me};branch=z9hG4bK{call_id}\r\n\
         From: <sip:612@{me}>;tag=t1\r\nTo: <sip:assistant@{sip}>\r\nCall-ID: {call_id}\r\nCSeq: 1 INVITE\r\n\
         Contact: <sip:612@{me};transport=tcp>\r\nMax-Forwards: 70\r\nContent-Type: application/sdp\r\n\
         Content-Length: {}\r\n\r\n{sdp}",
        sdp.len()
    )
}

/// Sends `message` on `stream` and reads until a final response (or the end of the connection): what came.
async fn final_response(stream: &mut TcpStream, message: &str) -> String {
    if stream.write_all(message.as_bytes()).await.is_err() {
        return String::new();
    }
    let mut got = Vec::new();
    let mut chunk = [0u8; 4096];
    let read = async {
        loop {
            let text = String::from_utf8_lossy(&got).to_string();
            let finals = text
                .split("SIP/2.0 ")
                .skip(1)
                .any(|r| !r.starts_with("100") && !r.starts_with("180"));
            if finals {
                return text;
            }
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return text,
                Ok(n) => got.extend_from_slice(&chunk[..n]),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), read)
        .await
        .unwrap_or_default()
}

#[tokio::test]
async fn a_device_holding_three_hundred_idle_connections_keeps_its_share_and_the_house_still_calls() {
    voice_gateway::connections::raise_descriptor_limit();
    let extra = [
        ("SIP_ALLOWED_FROM", "127.0.0.0/8"),
        ("SIP_CONNECTIONS_PER_ADDRESS", "8"),
    ];
    let (app, sip) = crate::sipp::telephone(&extra).await;
    // The holder: a device of the network that opens 300 connections and says nothing on them.
    let mut held = Vec::new();
    for _ in 0..300 {
        if let Ok(stream) = connect_from("127.0.0.5", sip).await {
            held.push(stream);
        }
    }
    assert_eq!(held.len(), 300, "every connection was accepted by the system");
    let refused = eventually("the holder's connections beyond its share refused", 30, || async {
        let n = counted(&app, "sip_connections_refused_total{why=\"address\"}").await;
        (n >= 292.0).then_some(n)
    })
    .await;
    assert!(refused <= 292.0, "eight kept: {refused} refused");

    // Another handset of the house calls over UDP, and another over TCP: both are answered.
    let handset = Handset::at("127.0.0.6", sip, "share-udp").await;
    let ok = handset.call("").await;
    assert!(ok.starts_with("SIP/2.0 200"), "{ok}");
    assert!(handset.bye(&ok).await.starts_with("SIP/2.0 200"));
    let mut stream = connect_from("127.0.0.7", sip).await.unwrap();
    let invite = invite_over_tcp(&stream, sip, "share-tcp");
    let answer = final_response(&mut stream, &invite).await;
    assert!(answer.contains("SIP/2.0 200"), "the TCP call: {answer}");

    // The holder's own call beyond its share hears 503 with Retry-After (once the refusals being answered
    // have time for it).
    let busy = eventually("the holder's call answered 503", 20, || async {
        let mut stream = connect_from("127.0.0.5", sip).await.ok()?;
        let invite = invite_over_tcp(&stream, sip, "share-holder");
        let answer = final_response(&mut stream, &invite).await;
        answer.starts_with("SIP/2.0 503").then_some(answer)
    })
    .await;
    assert!(busy.contains("Retry-After:"), "{busy}");
    let health = app.get("/api/admin/providers", As::AdminKey).await.body;
    let named = &health["sip_refused"][0];
    assert_eq!(
        (named["address"].as_str(), named["why"].as_str()),
        (Some("127.0.0.5"), Some("address")),
        "{health}"
    );
    assert!(named["count"].as_u64().unwrap() >= 292, "{named}");
    drop(held);
}

/// Reads responses from `stream` until `wanted` distinct INFO transactions are answered (or 60 s pass): the
/// CSeq numbers answered, and how many of the answers were 503 with `Retry-After`.
async fn answered_infos<R>(stream: &mut R, wanted: usize) -> (std::collections::HashSet<u32>, usize)
where
    R: tokio::io::AsyncRead + Unpin,
{
    let (mut seen, mut busy, mut text) = (std::collections::HashSet::new(), 0, String::new());
    let mut chunk = vec![0u8; 65_536];
    let read = async {
        while seen.len() < wanted {
            let Ok(n) = stream.read(&mut chunk).await else { break };
            if n == 0 {
                break;
            }
            text.push_str(&String::from_utf8_lossy(&chunk[..n]));
            // Whole responses only: each ends with its empty line (no bodies here).
            while let Some(end) = text.find("\r\n\r\n") {
                let response: String = text.drain(..end + 4).collect();
                let cseq = response
                    .lines()
                    .find_map(|l| l.strip_prefix("CSeq: ")?.strip_suffix(" INFO")?.parse().ok());
                if let Some(cseq) = cseq.filter(|_| !response.starts_with("SIP/2.0 1")) {
                    seen.insert(cseq);
                    busy += usize::from(response.starts_with("SIP/2.0 503") && response.contains("Retry-After:"));
                }
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(60), read).await;
    (seen, busy)
}

// On several threads, as the gateway runs: the handset's writing and reading go on beside the gateway.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_two_thousand_infos_in_a_call_gets_an_answer_to_each() {
    let (_app, sip) = crate::sipp::telephone(&[]).await;
    let mut stream = connect_from("127.0.0.1", sip).await.unwrap();
    let invite = invite_over_tcp(&stream, sip, "burst-1");
    let ok = final_response(&mut stream, &invite).await;
    assert!(ok.contains("SIP/2.0 200"), "{ok}");
    let ok = &ok[ok.find("SIP/2.0 200").unwrap()..];
    let to = ok.lines().find(|l| l.starts_with("To:")).unwrap().to_string();
    let me = stream.local_addr().unwrap();
    let request = |method: &str, cseq: u32| {
        format!(
            "{method} sip:assistant@{sip};transport=tcp SIP/2.0\r\nVia: SIP/2.0/TCP {me};branch=z9hG4bK{method}{cseq}\r\n\
             From: <sip:612@{me}>;tag=t1\r\n{to}\r\nCall-ID: burst-1\r\nCSeq: {cseq} {method}\r\nMax-Forwards: 70\r\n\
             Content-Length: 0\r\n\r\n"
        )
    };
    let ack = request("ACK", 1).replace("z9hG4bKACK1", "z9hG4bKburst-1");
    stream.write_all(ack.as_bytes()).await.unwrap();
    let burst: String = (2..2002).map(|cseq| request("INFO", cseq)).collect();
    // Written while the answers are read, as a handset would.
    let (mut reader, mut writer) = stream.into_split();
    let send = tokio::spawn(async move {
        writer.write_all(burst.as_bytes()).await.unwrap();
        writer
    });
    let (answered, busy) = answered_infos(&mut reader, 2000).await;
    let _writer = send.await.unwrap();
    let missing: Vec<u32> = (2..2002).filter(|c| !answered.contains(c)).take(10).collect();
    assert!(
        missing.is_empty(),
        "{} of 2000 answered ({busy} busy); unanswered: {missing:?}",
        answered.len()
    );
    println!("2000 INFOs: {} answered 200, {busy} 503 with Retry-After", 2000 - busy);
}
