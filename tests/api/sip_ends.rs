//! Every call on the house line ends well: no number a caller sends can crash or wedge a call, and a call
//! whose task fails is ended as a hang-up ends it (the BYE sent, its place and ports free, counted), while the
//! next call is answered. Over UDP from a handset the test plays itself, byte by byte.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::UdpSocket;

use crate::common::As;
use crate::sipp::counted;

/// A handset on loopback: its SIP socket, and its audio socket (what its offer names).
pub(crate) struct Handset {
    sip: UdpSocket,
    pub(crate) audio: UdpSocket,
    gateway: SocketAddr,
    call_id: String,
    /// The calling number (its From's user part).
    number: String,
}

impl Handset {
    pub(crate) async fn new(gateway: SocketAddr, call_id: &str) -> Self {
        Self::at("127.0.0.1", gateway, call_id).await
    }

    /// A handset at `address` (another loopback address: another device of the house).
    pub(crate) async fn at(address: &str, gateway: SocketAddr, call_id: &str) -> Self {
        Self {
            sip: UdpSocket::bind((address, 0)).await.unwrap(),
            audio: UdpSocket::bind((address, 0)).await.unwrap(),
            gateway,
            call_id: call_id.into(),
            number: "611".into(),
        }
    }

    /// This handset calling as `number`.
    pub(crate) fn calling_as(mut self, number: &str) -> Self {
        self.number = number.into();
        self
    }

    /// A request of this handset's call, with `extra` header lines and no body.
    fn request(&self, method: &str, cseq: &str, to_tag: &str, extra: &str) -> String {
        let (me, gw, id, n) = (
            self.sip.local_addr().unwrap(),
            self.gateway,
            &self.call_id,
            &self.number,
        );
        format!(
            "{method} sip:assistant@{gw} SIP/2.0\r\nVia: SIP/2.0/UDP {me};branch=z9hG4bK{method}{cseq}\r\n\
             From: <sip:{n}@{me}>;tag=h1\r\nTo: <sip:assistant@{gw}>{to_tag}\r\nCall-ID: {id}\r\n\
             CSeq: {cseq} {method}\r\nContact: <sip:{n}@{me}>\r\nMax-Forwards: 70\r\n{extra}"
        )
    }

    /// The INVITE with `extra` header lines and an A-law offer of this handset's audio socket.
    fn invite(&self, extra: &str) -> String {
        let port = self.audio.local_addr().unwrap().port();
        let sdp = format!(
            "v=0\r\no=h 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio {port} RTP/AVP 8\r\n"
        );
        let extra = format!(
            "{extra}Content-Type: application/sdp\r\nContent-Length: {}\r\n\r\n",
            sdp.len()
        );
        format!("{}{sdp}", self.request("INVITE", "1", "", &extra))
    }

    pub(crate) async fn send(&self, message: &str) {
        self.sip.send_to(message.as_bytes(), self.gateway).await.unwrap();
    }

    /// The next message that starts with `start` (within 10 s): another handset's retransmissions and
    /// provisional responses are passed over.
    pub(crate) async fn next(&self, start: &str) -> String {
        let mut buf = vec![0u8; 65_536];
        let wait = async {
            loop {
                let (n, _) = self.sip.recv_from(&mut buf).await.unwrap();
                let message = String::from_utf8_lossy(&buf[..n]).into_owned();
                if message.starts_with(start) {
                    return message;
                }
            }
        };
        tokio::time::timeout(Duration::from_secs(10), wait)
            .await
            .unwrap_or_else(|_| panic!("no {start} within 10 s"))
    }

    /// Sends the INVITE until its final response comes (the telephone may still be starting), which it
    /// returns: the 200 is acknowledged.
    pub(crate) async fn call(&self, extra: &str) -> String {
        let invite = self.invite(extra);
        let last = async {
            loop {
                let response = self.next("SIP/2.0 ").await;
                if !response.starts_with("SIP/2.0 100") {
                    return response;
                }
            }
        };
        tokio::pin!(last);
        for _ in 0..20 {
            self.send(&invite).await;
            if let Ok(last) = tokio::time::timeout(Duration::from_millis(500), &mut last).await {
                if last.starts_with("SIP/2.0 200") {
                    let ack = self.request("ACK", "1", &to_tag(&last), "Content-Length: 0\r\n\r\n");
                    self.send(&ack).await;
                }
                return last;
            }
        }
        panic!("the INVITE was never answered");
    }

    /// Hangs up with a BYE: its answer.
    pub(crate) async fn bye(&self, ok: &str) -> String {
        self.send(&self.request("BYE", "2", &to_tag(ok), "Content-Length: 0\r\n\r\n"))
            .await;
        self.next("SIP/2.0 ").await
    }

    /// One A-law RTP packet of silence to where the gateway's answer `ok` wants the audio.
    async fn speak(&self, ok: &str, sequence: u16) {
        let port: u16 = header_line(ok, "m=audio ").split(' ').next().unwrap().parse().unwrap();
        let mut packet = vec![0x80, 8, (sequence >> 8) as u8, sequence as u8, 0, 0, 0, 160, 1, 2, 3, 4];
        packet.extend(std::iter::repeat_n(0xd5, 160));
        self.audio.send_to(&packet, ("127.0.0.1", port)).await.unwrap();
    }
}

/// The value of the line of `message` that starts with `name`.
fn header_line<'a>(message: &'a str, name: &str) -> &'a str {
    let line = message.lines().find(|l| l.starts_with(name));
    line.unwrap_or_else(|| panic!("no {name} in {message}"))[name.len()..].trim()
}

/// `;tag=…` of the To of a response.
fn to_tag(response: &str) -> String {
    let to = header_line(response, "To:");
    to[to.find(";tag=").expect("a To tag")..].to_string()
}

#[tokio::test]
async fn a_huge_session_interval_is_lowered_to_the_gateways_longest_and_the_callers_bye_ends_the_call() {
    let (app, sip) = crate::sipp::telephone(&[]).await;
    let asked = [
        ("18446744073709551615;refresher=uac", "7200;refresher=uac"),
        ("9223372036854775807;refresher=uas", "7200;refresher=uas"),
        ("99999999999999999999999999", "7200;refresher=uac"),
        ("1800;refresher=uac", "1800;refresher=uac"),
    ];
    for (n, (asked, agreed)) in asked.into_iter().enumerate() {
        let handset = Handset::new(sip, &format!("huge-{n}")).await;
        let ok = handset
            .call(&format!("Session-Expires: {asked}\r\nSupported: timer\r\n"))
            .await;
        assert!(ok.starts_with("SIP/2.0 200"), "{asked}: {ok}");
        assert_eq!(header_line(&ok, "Session-Expires:"), agreed, "{asked}");
        let bye = handset.bye(&ok).await;
        assert!(
            bye.starts_with("SIP/2.0 200 OK") && bye.contains("CSeq: 2 BYE"),
            "{asked}: {bye}"
        );
        // Over, its place given back (the guest has four): the next caller is not turned away.
        crate::common::eventually("the call over", 10, || async {
            counted(&app, "ws_connections{channel=\"phone\"}").await == 0.0
        })
        .await;
    }
    // The caller's Min-SE above the interval it asked for raises it (never below it, RFC 4028 §9).
    let handset = Handset::new(sip, "min-se").await;
    let ok = handset
        .call("Session-Expires: 600\r\nMin-SE: 900\r\nSupported: timer\r\n")
        .await;
    assert_eq!(header_line(&ok, "Session-Expires:"), "900;refresher=uac");
    handset.bye(&ok).await;
    assert_eq!(app.app.lines.failures().len(), 0, "no task failed");
}

#[tokio::test]
async fn numbers_that_are_no_numbers_or_beyond_their_range_are_refused_with_400_before_anything_starts() {
    let (app, sip) = crate::sipp::telephone(&[]).await;
    for (n, extra) in [
        "Session-Expires: -1\r\n",
        "Session-Expires: 1e9\r\n",
        "Session-Expires: 1800\r\nMin-SE: -90\r\n",
    ]
    .into_iter()
    .enumerate()
    {
        let handset = Handset::new(sip, &format!("bad-{n}")).await;
        let refused = handset.call(extra).await;
        assert!(refused.starts_with("SIP/2.0 400 Bad Request"), "{extra}: {refused}");
    }
    // A CSeq beyond 2^31 and a hop count beyond 255: the request itself is refused.
    for (n, (from, to)) in [
        ("CSeq: 1 INVITE", "CSeq: 4294967295 INVITE"),
        ("Max-Forwards: 70", "Max-Forwards: 99999"),
    ]
    .into_iter()
    .enumerate()
    {
        let handset = Handset::new(sip, &format!("range-{n}")).await;
        handset.send(&handset.invite("").replace(from, to)).await;
        let refused = handset.next("SIP/2.0 4").await;
        assert!(refused.starts_with("SIP/2.0 400 Bad Request"), "{to}: {refused}");
    }
    assert_eq!(crate::sipp::calls_taken(&app).await, 0, "no call was taken");
}

/// A range of two free UDP ports (an even one and the next), for one call's RTP and RTCP.
fn two_free_ports() -> String {
    let free = |p: u16| std::net::UdpSocket::bind(("127.0.0.1", p)).is_ok();
    let port = (46_000..50_000)
        .step_by(2)
        .find(|&p| free(p) && free(p + 1))
        .expect("two free ports");
    format!("{port}-{}", port + 1)
}

#[tokio::test]
async fn a_call_whose_task_fails_is_hung_up_with_a_bye_counted_shown_and_its_place_taken_by_the_next() {
    // One place and one call's ports: the next call is answered only when the failed one gave both back.
    let ports = two_free_ports();
    let (app, sip) = crate::sipp::telephone(&[("SIP_MAX_CALLS", "1"), ("SIP_RTP_PORTS", &ports)]).await;
    let handset = Handset::new(sip, "fails-1").await;
    let ok = handset.call("").await;
    assert!(ok.starts_with("SIP/2.0 200"), "{ok}");
    app.app.faults.arm("sip");
    handset.speak(&ok, 1).await;
    let bye = handset.next("BYE ").await;
    assert!(bye.contains("Call-ID: fails-1"), "{bye}");
    assert_eq!(counted(&app, "task_failures_total{door=\"sip\"}").await, 1.0);
    let health = app.get("/api/admin/providers", As::AdminKey).await.body;
    let failures = &health["task_failures"][0];
    assert_eq!(
        (failures["door"].as_str(), failures["failures"].as_u64()),
        (Some("sip"), Some(1))
    );
    assert_eq!(failures["last_reason"], "a failure injected into the sip door");
    assert_eq!(
        counted(&app, "ws_connections{channel=\"phone\"}").await,
        0.0,
        "the call is closed"
    );
    // The next caller is answered and can hang up.
    // (A new handset each time: a refusal is remembered for the INVITE sent again.)
    let (next, taken) = crate::common::eventually("the place free again", 10, || async {
        let next = Handset::new(sip, "fails-2").await;
        let answer = next.call("").await;
        answer.starts_with("SIP/2.0 200").then_some((next, answer))
    })
    .await;
    let bye = next.bye(&taken).await;
    assert!(bye.starts_with("SIP/2.0 200 OK"), "{bye}");
}

#[tokio::test]
async fn a_refusal_whose_ack_is_lost_is_sent_again_with_its_tag_until_the_ack_and_then_never() {
    let (_app, sip) = crate::sipp::telephone(&[]).await;
    let handset = Handset::new(sip, "lost-488").await;
    // An offer of Opus only: 488, with a To tag (RFC 3261 §8.2.6.2).
    let opus = handset
        .invite("")
        .replace("RTP/AVP 8", "RTP/AVP 96\r\na=rtpmap:96 opus/48000/2");
    let opus = fix_length(&opus);
    // Sent until the telephone listens (it may still be starting), then never again.
    let mut first = None;
    for _ in 0..20 {
        handset.send(&opus).await;
        if let Ok(refused) = tokio::time::timeout(Duration::from_millis(400), handset.next("SIP/2.0 488")).await {
            first = Some(refused);
            break;
        }
    }
    let first = first.expect("the 488");
    let tag = to_tag(&first);
    // Not acknowledged: it comes again (Timer G), the same response.
    let again = handset.next("SIP/2.0 488").await;
    assert_eq!(again, first);
    let ack = handset
        .request("ACK", "1", &tag, "Content-Length: 0\r\n\r\n")
        .replace("branch=z9hG4bKACK1", "branch=z9hG4bKINVITE1");
    handset.send(&ack).await;
    // Acknowledged: nothing more within the next two retransmission intervals (1 s, 2 s).
    let mut buf = [0u8; 4096];
    let more = tokio::time::timeout(Duration::from_secs(4), handset.sip.recv_from(&mut buf)).await;
    assert!(
        more.is_err(),
        "{:?}",
        more.map(|r| String::from_utf8_lossy(&buf[..r.unwrap().0]).into_owned())
    );
}

/// `message` with its Content-Length set to its body's length.
fn fix_length(message: &str) -> String {
    let (head, body) = message.split_once("\r\n\r\n").unwrap();
    let head: Vec<&str> = head.lines().filter(|l| !l.starts_with("Content-Length")).collect();
    format!("{}\r\nContent-Length: {}\r\n\r\n{body}", head.join("\r\n"), body.len())
}

#[tokio::test]
async fn a_refusal_of_an_options_whose_cseq_names_invite_is_sent_once_as_the_options_transaction_is() {
    let (_app, sip) = crate::sipp::telephone(&[]).await;
    let handset = Handset::new(sip, "cseq-1").await;
    // The start line says OPTIONS, the CSeq INVITE: refused 400 (RFC 3261 §8.1.1.5), once.
    let options = handset
        .request("OPTIONS", "1", "", "Content-Length: 0\r\n\r\n")
        .replace("CSeq: 1 OPTIONS", "CSeq: 1 INVITE");
    let mut refused = None;
    for _ in 0..20 {
        handset.send(&options).await;
        if let Ok(answer) = tokio::time::timeout(Duration::from_millis(400), handset.next("SIP/2.0 400")).await {
            refused = Some(answer);
            break;
        }
    }
    let refused = refused.expect("the 400");
    assert!(refused.contains("CSeq: 1 INVITE"), "{refused}");
    // An INVITE's refusal would come again after T1 (0.5 s) and 1.5 s: this one never does.
    let mut buf = [0u8; 4096];
    let more = tokio::time::timeout(Duration::from_secs(3), handset.sip.recv_from(&mut buf)).await;
    assert!(
        more.is_err(),
        "{:?}",
        more.map(|r| String::from_utf8_lossy(&buf[..r.unwrap().0]).into_owned())
    );
}

#[tokio::test]
async fn the_help_key_left_unanswered_is_told_to_the_contacts_as_the_key() {
    let smtp = crate::smtp::SmtpServer::start(crate::smtp::Mode::Accept).await;
    let port = smtp.port.to_string();
    let env = [
        ("SMTP_HOST", "127.0.0.1"),
        ("SMTP_PORT", port.as_str()),
        ("SMTP_SECURITY", "none"),
        ("HELP_CONFIRM_SECONDS", "2"),
    ];
    let (app, sip) = crate::sipp::telephone(&env).await;
    let (anna, _) = app.create_user("anna").await;
    let prefs = serde_json::json!({"full_name": "Anna Muster", "language": "de", "caller_numbers": ["+49 30 123456"],
        "emergency_contacts": ["tochter@family.example"]});
    app.set_prefs(&anna, prefs).await;
    let handset = Handset::new(sip, "key-1").await.calling_as("+4930123456");
    let ok = handset.call("").await;
    assert!(ok.starts_with("SIP/2.0 200"), "{ok}");
    // The help key, as a SIP INFO; the question it asks is left unanswered.
    let body = "Signal=0\r\nDuration=160\r\n";
    let extra = format!(
        "Content-Type: application/dtmf-relay\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    handset.send(&handset.request("INFO", "2", &to_tag(&ok), &extra)).await;
    assert!(handset.next("SIP/2.0 200").await.contains("CSeq: 2 INFO"));
    let mail = crate::common::eventually("the alarm's mail", 30, || async { smtp.mails().into_iter().next() }).await;
    assert_eq!(mail.recipients, ["tochter@family.example"]);
    let subject = mail.header("subject");
    assert!(subject.contains("mit der Hilfe-Taste am Telefon"), "{subject}");
    assert!(
        mail.body().contains("mit der Hilfe-Taste am Telefon"),
        "{}",
        mail.body()
    );
    let bye = handset.request("BYE", "3", &to_tag(&ok), "Content-Length: 0\r\n\r\n");
    handset.send(&bye).await;
}
