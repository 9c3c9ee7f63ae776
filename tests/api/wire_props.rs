//! Property tests over the wire of every telephone and Wyoming door: the numbers a peer sends (huge,
//! negative, beyond 64 bits, not numbers at all), headers repeated and missing. Every parser and state
//! machine must come back with an answer or a refusal, never a panic, and its work stays within the
//! bounds the door sets.

use std::net::SocketAddr;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use voice_gateway::phone::audiosocket::read_message;
use voice_gateway::phone::twilio::{Received, parse_message};
use voice_gateway::sip::message::Message;
use voice_gateway::sip::rtp::{Packet, Reorder};
use voice_gateway::sip::sdp::Offer;
use voice_gateway::wyoming::codec::{Limits, read_event};

/// Numbers as a peer may write them.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        select(vec![
            "0",
            "1",
            "-1",
            "90",
            "1800",
            "2147483647",
            "2147483648",
            "4294967295",
            "4294967296",
            "9223372036854775807",
            "-9223372036854775808",
            "18446744073709551615",
            "18446744073709551616",
            "99999999999999999999999999999999",
            "1e9",
            "0x10",
            "",
            " ",
            "+5",
            "3.5",
            "NaN",
        ])
        .prop_map(str::to_string),
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
    ]
}

/// A header line with a number in it, as SIP's numeric headers are written.
fn numeric_header() -> impl Strategy<Value = String> {
    let name = select(vec![
        "Content-Length",
        "l",
        "CSeq",
        "Max-Forwards",
        "Session-Expires",
        "x",
        "Min-SE",
        "Expires",
        "RSeq",
    ]);
    (
        name,
        number(),
        select(vec!["", " INVITE", ";refresher=uac", ";refresher=uas"]),
    )
        .prop_map(|(name, n, tail)| format!("{name}: {n}{tail}"))
}

/// An INVITE whose required headers may be missing and whose numeric ones are anything, repeated.
fn invite() -> impl Strategy<Value = String> {
    let required = [
        "Via: SIP/2.0/UDP 127.0.0.1:5062;branch=z9hG4bKprop",
        "From: <sip:611@127.0.0.1>;tag=p1",
        "To: <sip:assistant@127.0.0.1>",
        "Call-ID: prop-1",
        "CSeq: 1 INVITE",
    ];
    (vec(any::<bool>(), 5), vec(numeric_header(), 0..8), any::<bool>()).prop_map(move |(kept, numbers, body)| {
        let mut lines = vec!["INVITE sip:assistant@127.0.0.1 SIP/2.0".to_string()];
        lines.extend(
            required
                .iter()
                .zip(kept)
                .filter(|(_, k)| *k)
                .map(|(h, _)| h.to_string()),
        );
        lines.extend(numbers);
        let body = if body { "v=0\r\n" } else { "" };
        format!("{}\r\n\r\n{body}", lines.join("\r\n"))
    })
}

/// An offer whose ports, payload types and packet times are anything.
fn offer() -> impl Strategy<Value = String> {
    (number(), vec(number(), 1..5), number(), number()).prop_map(|(port, types, ptime, mapped)| {
        format!(
            "v=0\r\no=h 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio {port} RTP/AVP {}\r\n\
             a=rtpmap:{mapped} PCMA/8000\r\na=ptime:{ptime}\r\na=maxptime:{ptime}\r\na=rtpmap:8 PCMA/8000\r\n",
            types.join(" ")
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn sip_requests_with_any_numbers_are_read_or_refused_and_answered_without_a_panic(text in invite()) {
        if let Ok(request) = Message::parse(text.as_bytes()) {
            let checked = request.check_request();
            if let Some((n, _)) = request.cseq() {
                prop_assert!(n < 1 << 31, "a CSeq beyond 2^31 is no CSeq");
            }
            // Whatever was read is answered with a response that reads back, a To tag on it.
            let response = request.response(400, "Bad Request", None);
            if checked.is_ok() {
                let read = Message::parse(&response.to_bytes()).expect("the response reads back");
                prop_assert!(read.header("To").is_some_and(|to| to.contains(";tag=")));
            }
        }
    }

    #[test]
    fn offers_with_any_ports_and_payload_types_are_answered_or_refused(sdp in offer()) {
        if let Ok(offer) = Offer::parse(&sdp) {
            prop_assert!(offer.payload_type < 128, "RTP's payload type has seven bits");
            let local: SocketAddr = "127.0.0.1:40000".parse().unwrap();
            let answer = offer.answer(local, (u64::MAX, u64::MAX));
            prop_assert!(Offer::parse_answer(&answer).is_ok(), "{answer}");
        }
        let _ = Offer::parse_answer(&sdp);
    }

    #[test]
    fn rtp_of_any_bytes_is_read_or_dropped_and_reordering_any_numbers_gives_each_packet_once(
        bytes in vec(any::<u8>(), 0..400),
        numbers in vec(any::<u16>(), 1..200),
    ) {
        if let Some(packet) = Packet::parse(&bytes) {
            prop_assert!(packet.payload.len() <= bytes.len());
        }
        // Each packet carries its own mark (its SSRC): none may come back twice, whatever the numbers.
        let mut reorder = Reorder::new();
        let mut given = std::collections::HashSet::new();
        for (mark, sequence) in numbers.iter().enumerate() {
            let packet = Packet { payload_type: 8, marker: false, sequence: *sequence, timestamp: u32::MAX, ssrc: mark as u32, payload: vec![0xd5; 160] };
            for out in reorder.push(packet) {
                prop_assert!(given.insert(out.ssrc), "packet {} given back twice", out.ssrc);
            }
        }
    }

    #[test]
    fn audiosocket_frames_of_any_length_are_read_within_their_sixteen_bits(bytes in vec(any::<u8>(), 0..2048)) {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async {
            let mut reader = bytes.as_slice();
            while let Ok(Some(message)) = read_message(&mut reader).await {
                assert!(message.payload.len() <= usize::from(u16::MAX));
            }
        });
    }

    #[test]
    fn twilio_media_numbered_anything_moves_the_order_only_forward(at in number(), reached in any::<u64>()) {
        let text = format!(
            r#"{{"event":"media","sequenceNumber":"{at}","media":{{"payload":"1dXV1Q=="}}}}"#
        );
        for sequence in [reached, 0, u64::MAX] {
            if let Received::Audio(_, next) = parse_message(&text, sequence) {
                prop_assert!(next > sequence || (sequence == u64::MAX && next == u64::MAX));
            }
        }
    }

    #[test]
    fn wyoming_frames_with_any_lengths_are_refused_before_they_are_read(
        data in number(), payload in number(), extra in vec(any::<u8>(), 0..64),
    ) {
        let header = format!(
            r#"{{"type":"audio-chunk","data_length":{data},"payload_length":{payload}}}"#
        );
        let mut frame = header.into_bytes();
        frame.push(b'\n');
        frame.extend(extra);
        let limits = Limits { header: 1024, data: 256, payload: 4096 };
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async {
            let mut reader = frame.as_slice();
            if let Ok(Some(event)) = read_event(&mut reader, limits).await {
                assert!(event.payload.len() <= limits.payload);
            }
        });
    }
}
