//! The house's own telephone against a real registrar: Debian's kamailio (registrar with digest
//! authentication and user location, its configuration written here) on loopback ports, standing in for the
//! home router.

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use tokio::net::UdpSocket;

use crate::common::{As, TestApp, eventually, free_port, spawn_app};

/// A kamailio registrar on 127.0.0.1 (UDP), killed when dropped.
pub struct Kamailio {
    child: Child,
    pub port: u16,
    dir: tempfile::TempDir,
}

/// A registrar listening on `listen` (UDP) for `accounts` (user, password) that grants registrations of at
/// most `max_expires` seconds and relays calls to whoever registered, asking callers it knows for their
/// password as a router does.
pub fn kamailio_config(listen: &str, accounts: &[(&str, &str)], max_expires: u32) -> String {
    let passwords: String = accounts
        .iter()
        .map(|(user, password)| format!("        if ($fU == \"{user}\") {{ $var(pw) = \"{password}\"; }}\n"))
        .collect();
    format!(
        r#"#!KAMAILIO
debug=2
log_stderror=yes
children=2
listen=udp:{listen}
mpath="{MODULES}"
loadmodule "kex.so"
loadmodule "corex.so"
loadmodule "tm.so"
loadmodule "sl.so"
loadmodule "rr.so"
loadmodule "pv.so"
loadmodule "maxfwd.so"
loadmodule "usrloc.so"
loadmodule "registrar.so"
loadmodule "textops.so"
loadmodule "siputils.so"
loadmodule "xlog.so"
loadmodule "auth.so"
modparam("usrloc", "db_mode", 0)
modparam("registrar", "min_expires", 5)
modparam("registrar", "max_expires", {max_expires})

request_route {{
    if (!mf_process_maxfwd_header("10")) {{ sl_send_reply("483", "Too Many Hops"); exit; }}
    if (has_totag()) {{
        if (loose_route() || is_method("ACK|BYE|INFO|CANCEL")) {{ t_relay(); }}
        exit;
    }}
    if (is_method("CANCEL")) {{ if (t_check_trans()) {{ t_relay(); }} exit; }}
    if (is_method("REGISTER|INVITE")) {{
        $var(pw) = "";
{passwords}        if (!pv_auth_check("$fd", "$var(pw)", "0", "0")) {{ auth_challenge("$fd", "0"); exit; }}
        consume_credentials();
    }}
    if (is_method("REGISTER")) {{
        save("location");
        exit;
    }}
    if (is_method("INVITE")) {{ record_route(); }}
    if (!lookup("location")) {{ sl_send_reply("404", "Not Found"); exit; }}
    t_relay();
}}
"#
    )
}

/// Where Debian puts kamailio's modules.
const MODULES: &str = "/usr/lib/x86_64-linux-gnu/kamailio/modules/";

impl Kamailio {
    /// A registrar for `accounts` (user, password) that grants registrations of at most `max_expires` seconds
    /// and relays calls to whoever registered (proxy authentication for the callers it knows).
    pub async fn start(accounts: &[(&str, &str)], max_expires: u32) -> Self {
        let port = free_port();
        Self::run(
            port,
            kamailio_config(&format!("127.0.0.1:{port}"), accounts, max_expires),
        )
        .await
    }

    /// kamailio with `config`, which listens on `port`.
    async fn run(port: u16, config: String) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kamailio.cfg");
        std::fs::write(&path, config).unwrap();
        let log = std::fs::File::create(dir.path().join("log.txt")).unwrap();
        let child = Command::new("/usr/sbin/kamailio")
            .args([
                "-f",
                path.to_str().unwrap(),
                "-DD",
                "-E",
                "-Y",
                dir.path().to_str().unwrap(),
            ])
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("kamailio (scripts/test.sh installs it)");
        let kamailio = Self { child, port, dir };
        eventually("kamailio listens", 20, || async {
            kamailio.log().contains("SO_RCVBUF is finally")
        })
        .await;
        kamailio
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("log.txt")).unwrap_or_default()
    }

    pub fn addr(&self) -> SocketAddr {
        SocketAddr::from(([127, 0, 0, 1], self.port))
    }
}

impl Drop for Kamailio {
    fn drop(&mut self) {
        // SIGTERM, so that the main process takes its worker processes with it.
        use rustix::process::{Pid, Signal, kill_process};
        if let Some(pid) = Pid::from_raw(self.child.id() as i32) {
            let _ = kill_process(pid, Signal::TERM);
        }
        let _ = self.child.wait();
    }
}

/// A gateway registering with `kamailio` as `user`, listening for SIP on a free loopback port.
async fn telephone(kamailio: &Kamailio, user: &str, password: &str) -> (TestApp, SocketAddr) {
    let sip = SocketAddr::from(([127, 0, 0, 1], free_port()));
    let app = spawn_app(&[
        ("SIP_REGISTRAR", &format!("127.0.0.1:{}", kamailio.port)),
        ("SIP_USER", user),
        ("SIP_PASSWORD", password),
        ("SIP_ADDR", &sip.to_string()),
    ])
    .await;
    (app, sip)
}

/// The SIP line as the admin panel shows it.
async fn line(app: &TestApp) -> Value {
    let health = app.get("/api/admin/providers", As::AdminKey).await;
    health.body["lines"][0].clone()
}

/// Sends `text` from `from` to `to` and returns the first answer (`None` after 3 s).
async fn exchange(from: &str, to: SocketAddr, text: &str) -> Option<String> {
    let socket = UdpSocket::bind(format!("{from}:0")).await.unwrap();
    socket.send_to(text.as_bytes(), to).await.unwrap();
    let mut buf = vec![0u8; 65536];
    let (n, _) = tokio::time::timeout(Duration::from_secs(3), socket.recv_from(&mut buf))
        .await
        .ok()?
        .ok()?;
    Some(String::from_utf8_lossy(&buf[..n]).into_owned())
}

/// An OPTIONS request for `uri`, sent from `from_ip`.
fn options(uri: &str, from_ip: &str, call_id: &str) -> String {
    format!(
        "OPTIONS {uri} SIP/2.0\r\nVia: SIP/2.0/UDP {from_ip}:5999;branch=z9hG4bK{call_id};rport\r\nMax-Forwards: 70\r\n\
         From: <sip:tester@{from_ip}>;tag=t1\r\nTo: <{uri}>\r\nCall-ID: {call_id}\r\nCSeq: 1 OPTIONS\r\n\
         Content-Length: 0\r\n\r\n"
    )
}

#[tokio::test]
#[ignore = "needs kamailio; scripts/test.sh installs it and runs this"]
async fn the_gateway_registers_with_the_router_refreshes_and_is_reached_through_it() {
    let kamailio = Kamailio::start(&[("assistant", "s3cret-line")], 10).await;
    let (app, _) = telephone(&kamailio, "assistant", "s3cret-line").await;

    // Registered, and renewed before the registrar's 10 s run out.
    eventually("the line is registered twice", 20, || async {
        let line = line(&app).await;
        line["state"] == "registered" && line["registrations"].as_u64() >= Some(2)
    })
    .await;
    let line = line(&app).await;
    assert_eq!(line["account"], format!("assistant@127.0.0.1:{}", kamailio.port));
    assert_eq!(line["detail"], "registered for 10 s");
    // The registrar knows where the gateway is: a request for its number reaches it through the registrar.
    let uri = format!("sip:assistant@127.0.0.1:{}", kamailio.port);
    let answer = exchange("127.0.0.1", kamailio.addr(), &options(&uri, "127.0.0.1", "reach-1")).await;
    let answer = answer.expect("an answer through the registrar");
    assert!(answer.starts_with("SIP/2.0 200 OK"), "{answer}");
    assert!(
        answer.contains("Allow: INVITE, ACK, CANCEL, BYE, OPTIONS, INFO"),
        "{answer}"
    );
    // The password went as a digest, never in the clear, and is in no log.
    assert!(!kamailio.log().contains("s3cret-line"));
}

#[tokio::test]
#[ignore = "needs kamailio; scripts/test.sh installs it and runs this"]
async fn a_wrong_password_shows_as_failing_with_the_registrars_answer() {
    let kamailio = Kamailio::start(&[("assistant", "right")], 600).await;
    let (app, _) = telephone(&kamailio, "assistant", "wrong").await;
    eventually("the line is failing", 20, || async {
        line(&app).await["state"] == "failing"
    })
    .await;
    let line = line(&app).await;
    let detail = line["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("401") && detail.contains("wrong SIP_USER or SIP_PASSWORD"),
        "{detail}"
    );
    // Readiness is about answering questions, not about the telephone.
    assert_eq!(app.get("/health/ready", As::Nobody).await.status, 200);
}

#[tokio::test]
#[ignore = "needs kamailio; scripts/test.sh installs it and runs this"]
async fn strangers_get_403_even_for_broken_requests_the_registrars_400_and_garbage_nothing() {
    let kamailio = Kamailio::start(&[("assistant", "s3cret-line")], 600).await;
    let (app, sip) = telephone(&kamailio, "assistant", "s3cret-line").await;
    eventually("the line is registered", 20, || async {
        line(&app).await["state"] == "registered"
    })
    .await;

    // 127.0.0.2 is neither the registrar nor in SIP_ALLOWED_FROM.
    let stranger = exchange(
        "127.0.0.2",
        sip,
        &options("sip:assistant@127.0.0.1", "127.0.0.2", "s-1"),
    )
    .await;
    assert!(stranger.unwrap().starts_with("SIP/2.0 403"));
    let invite = options("sip:assistant@127.0.0.1", "127.0.0.2", "s-2").replace("OPTIONS", "INVITE");
    assert!(
        exchange("127.0.0.2", sip, &invite)
            .await
            .unwrap()
            .starts_with("SIP/2.0 403")
    );
    // A stranger's broken request is refused like any other of theirs: 403, nothing of the parser's reason.
    let broken =
        |from: &str, id: &str| options("sip:assistant@127.0.0.1", from, id).replace(&format!("Call-ID: {id}\r\n"), "");
    let answer = exchange("127.0.0.2", sip, &broken("127.0.0.2", "s-3")).await.unwrap();
    assert!(answer.starts_with("SIP/2.0 403 Forbidden\r\n"), "{answer}");
    // From the registrar's address, a request without its Call-ID is answered 400 with the reason.
    let answer = exchange("127.0.0.1", sip, &broken("127.0.0.1", "r-3")).await.unwrap();
    assert!(
        answer.starts_with("SIP/2.0 400 Bad Request (missing Call-ID)"),
        "{answer}"
    );
    // A body shorter than it says, too.
    let short =
        options("sip:assistant@127.0.0.1", "127.0.0.1", "r-4").replace("Content-Length: 0", "Content-Length: 99");
    let answer = exchange("127.0.0.1", sip, &short).await.unwrap();
    assert!(
        answer.starts_with("SIP/2.0 400 Bad Request (the body is shorter than Content-Length)"),
        "{answer}"
    );
    // Garbage gets no answer, and the telephone goes on serving.
    for garbage in ["\u{0}\u{1}\u{2}", "SIP/2.0 999 x\r\n\r\n", "HELLO\r\n\r\n"] {
        assert_eq!(exchange("127.0.0.2", sip, garbage).await, None, "{garbage:?}");
    }
    let uri = format!("sip:assistant@127.0.0.1:{}", kamailio.port);
    let answer = exchange("127.0.0.1", kamailio.addr(), &options(&uri, "127.0.0.1", "after")).await;
    assert!(answer.unwrap().starts_with("SIP/2.0 200 OK"));
}

/// Reads from `stream` until `done` holds for what was read, the connection ends, or 5 s pass.
async fn read_until(stream: &mut tokio::net::TcpStream, done: impl Fn(&str) -> bool) -> (String, bool) {
    use tokio::io::AsyncReadExt;
    let mut read = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let text = String::from_utf8_lossy(&read).into_owned();
        if done(&text) {
            return (text, false);
        }
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Ok(Ok(0) | Err(_)) => return (text, true),
            Ok(Ok(n)) => read.extend_from_slice(&buf[..n]),
            Err(_) => return (text, false),
        }
    }
}

/// A connection from `ip` to `to`, once the gateway listens there.
async fn connect_from(ip: &str, to: SocketAddr) -> tokio::net::TcpStream {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(format!("{ip}:0").parse().unwrap()).unwrap();
        match socket.connect(to).await {
            Ok(stream) => return stream,
            Err(err) if tokio::time::Instant::now() > deadline => panic!("{to}: {err}"),
            Err(_) => tokio::task::yield_now().await,
        }
    }
}

#[tokio::test]
async fn over_tcp_messages_are_framed_keep_alives_answered_and_strangers_refused() {
    use tokio::io::AsyncWriteExt;
    let sip = SocketAddr::from(([127, 0, 0, 1], free_port()));
    let _app = spawn_app(&[("SIP_ADDR", &sip.to_string()), ("SIP_ALLOWED_FROM", "127.0.0.1")]).await;
    let tcp = |text: String| text.replace("SIP/2.0/UDP", "SIP/2.0/TCP");
    let uri = "sip:assistant@127.0.0.1";

    // An adapter allowed to call: a keep-alive is answered, and two requests in one write get two answers,
    // each framed by its Content-Length.
    let mut adapter = connect_from("127.0.0.1", sip).await;
    adapter.write_all(b"\r\n\r\n").await.unwrap();
    assert_eq!(read_until(&mut adapter, |t| t == "\r\n").await, ("\r\n".into(), false));
    let two = tcp(options(uri, "127.0.0.1", "t-1") + &options(uri, "127.0.0.1", "t-2"));
    adapter.write_all(two.as_bytes()).await.unwrap();
    let (answers, closed) = read_until(&mut adapter, |t| t.matches("Content-Length: 0\r\n\r\n").count() == 2).await;
    assert!(!closed, "{answers}");
    assert_eq!(answers.matches("SIP/2.0 200 OK\r\n").count(), 2, "{answers}");
    assert!(
        answers.contains("Call-ID: t-1") && answers.contains("Call-ID: t-2"),
        "{answers}"
    );
    // What cannot be framed closes the connection.
    adapter
        .write_all(
            tcp(options(uri, "127.0.0.1", "t-3"))
                .replace("Content-Length: 0\r\n", "")
                .as_bytes(),
        )
        .await
        .unwrap();
    assert!(read_until(&mut adapter, |_| false).await.1, "closed");

    // A stranger's request is refused, and its connection closed.
    let mut stranger = connect_from("127.0.0.2", sip).await;
    stranger
        .write_all(tcp(options(uri, "127.0.0.2", "s-1")).as_bytes())
        .await
        .unwrap();
    let (answer, closed) = read_until(&mut stranger, |_| false).await;
    assert!(answer.starts_with("SIP/2.0 403 Forbidden\r\n") && closed, "{answer}");

    // The telephone goes on serving, over TCP and UDP.
    let mut again = connect_from("127.0.0.1", sip).await;
    again
        .write_all(tcp(options(uri, "127.0.0.1", "t-4")).as_bytes())
        .await
        .unwrap();
    let (answer, _) = read_until(&mut again, |t| t.ends_with("\r\n\r\n")).await;
    assert!(answer.starts_with("SIP/2.0 200 OK"), "{answer}");
    let answer = exchange("127.0.0.1", sip, &options(uri, "127.0.0.1", "u-1")).await;
    assert!(answer.unwrap().starts_with("SIP/2.0 200 OK"));
}

/// The messages a handset on `socket` receives within `wait`, each as text.
async fn received(socket: &UdpSocket, wait: Duration) -> Vec<String> {
    let mut got = Vec::new();
    let mut buf = vec![0u8; 65536];
    while let Ok(Ok((n, _))) = tokio::time::timeout(wait, socket.recv_from(&mut buf)).await {
        got.push(String::from_utf8_lossy(&buf[..n]).into_owned());
    }
    got
}

#[tokio::test]
async fn a_request_sent_again_is_answered_again_and_never_served_twice() {
    let (app, sip) = crate::sipp::telephone(&[]).await;
    let handset = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let me = handset.local_addr().unwrap();
    let head = |method: &str, branch: &str, cseq: u32, to_tag: &str| {
        format!(
            "{method} sip:assistant@{sip} SIP/2.0\r\nVia: SIP/2.0/UDP {me};branch={branch}\r\n\
             From: <sip:611@{me}>;tag=h1\r\nTo: <sip:assistant@{sip}>{to_tag}\r\nCall-ID: again-1\r\n\
             CSeq: {cseq} {method}\r\nContact: <sip:611@{me}>\r\nMax-Forwards: 70\r\n"
        )
    };
    let sdp = format!(
        "v=0\r\no=h 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio {} RTP/AVP 8\r\n",
        me.port() + 1
    );
    let invite = format!(
        "{}Content-Type: application/sdp\r\nContent-Length: {}\r\n\r\n{sdp}",
        head("INVITE", "z9hG4bKinv1", 1, ""),
        sdp.len()
    );
    // Sent again every T1 until answered, as a handset does (the telephone may still be starting).
    let mut ok = None;
    for _ in 0..20 {
        handset.send_to(invite.as_bytes(), sip).await.unwrap();
        let first = received(&handset, Duration::from_millis(500)).await;
        ok = first.into_iter().find(|m| m.starts_with("SIP/2.0 200"));
        if ok.is_some() {
            break;
        }
    }
    let ok = ok.expect("the 200");
    // The 200 was lost: the handset sends its INVITE again, and gets the same 200, not a second call.
    handset.send_to(invite.as_bytes(), sip).await.unwrap();
    let again = received(&handset, Duration::from_millis(300)).await;
    assert!(
        again.iter().all(|m| m == &ok || m.starts_with("SIP/2.0 100")),
        "{again:?}"
    );
    assert!(again.contains(&ok), "{again:?}");
    let to_tag = ok.split("To: ").nth(1).unwrap().lines().next().unwrap();
    let to_tag = &to_tag[to_tag.find(";tag=").unwrap()..];
    let ack = format!("{}Content-Length: 0\r\n\r\n", head("ACK", "z9hG4bKack1", 1, to_tag));
    handset.send_to(ack.as_bytes(), sip).await.unwrap();
    // The BYE's 200 was lost: the BYE again gets 200 again, not 481.
    let bye = format!("{}Content-Length: 0\r\n\r\n", head("BYE", "z9hG4bKbye1", 2, to_tag));
    for _ in 0..2 {
        handset.send_to(bye.as_bytes(), sip).await.unwrap();
        let answers = received(&handset, Duration::from_millis(300)).await;
        let to_bye: Vec<&String> = answers.iter().filter(|m| m.contains("CSeq: 2 BYE")).collect();
        assert!(
            !to_bye.is_empty() && to_bye.iter().all(|m| m.starts_with("SIP/2.0 200 OK")),
            "{answers:?}"
        );
    }
    assert_eq!(crate::sipp::calls_taken(&app).await, 1, "one call");
}

#[tokio::test]
async fn connections_strangers_hold_open_never_keep_an_allowed_handset_from_getting_through() {
    use tokio::io::AsyncWriteExt;
    let (_app, sip) = crate::sipp::telephone(&[("MAX_CONNECTIONS", "20")]).await;
    // A stranger opens three times as many idle connections as the whole budget, and keeps them.
    let mut strangers = Vec::new();
    for _ in 0..60 {
        strangers.push(connect_from("127.0.0.2", sip).await);
    }
    // Beyond its few places, a stranger's connections are closed at once.
    let mut closed = 0;
    for stranger in &mut strangers[20..] {
        let (_, gone) = read_until(stranger, |_| false).await;
        closed += usize::from(gone);
    }
    assert_eq!(closed, 40, "every stranger's connection beyond its places is closed");
    // The hallway's adapter still gets through, over TCP, and its call is answered.
    let mut adapter = connect_from("127.0.0.1", sip).await;
    let me = adapter.local_addr().unwrap();
    let sdp = "v=0\r\no=a 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio 9 RTP/AVP 8\r\n";
    let invite = format!(
        "INVITE sip:assistant@{sip};transport=tcp SIP/2.0\r\nVia: SIP/2.0/TCP {me};branch=z9hG4bKhall\r\n\
         From: <sip:hallway@{me}>;tag=a1\r\nTo: <sip:assistant@{sip}>\r\nCall-ID: hallway-1\r\nCSeq: 1 INVITE\r\n\
         Contact: <sip:hallway@{me};transport=tcp>\r\nMax-Forwards: 70\r\nContent-Type: application/sdp\r\n\
         Content-Length: {}\r\n\r\n{sdp}",
        sdp.len()
    );
    adapter.write_all(invite.as_bytes()).await.unwrap();
    let (answers, _) = read_until(&mut adapter, |t| t.contains("SIP/2.0 200 OK")).await;
    assert!(answers.contains("SIP/2.0 200 OK"), "{answers}");
    drop(strangers);
}

#[tokio::test]
#[ignore = "needs kamailio; scripts/test.sh installs it and runs this"]
async fn the_line_takes_the_routers_shortest_interval_and_comes_back_after_a_restart_by_itself() {
    // A router that refuses registrations shorter than 900 s (423 with Min-Expires, RFC 3261 §10.3), then
    // grants 10 s at most, and forgets everything when it restarts.
    let port = free_port();
    let accounts = [("assistant", "s3cret-line")];
    let config = || {
        kamailio_config(&format!("127.0.0.1:{port}"), &accounts, 10).replace(
            "    if (is_method(\"REGISTER\")) {\n        save(\"location\");",
            "    if (is_method(\"REGISTER\") && $(hdr(Expires){s.int}) < 900) {\n        \
             append_to_reply(\"Min-Expires: 900\\r\\n\");\n        sl_send_reply(\"423\", \"Interval Too Brief\");\n        \
             exit;\n    }\n    if (is_method(\"REGISTER\")) {\n        save(\"location\");",
        )
    };
    let kamailio = Kamailio::run(port, config()).await;
    let (app, _) = telephone(&kamailio, "assistant", "s3cret-line").await;
    eventually("the line is registered", 20, || async {
        line(&app).await["state"] == "registered"
    })
    .await;
    // Registered at all only by asking again for the 900 s the 423 named (granted 10, the router's most).
    assert_eq!(line(&app).await["detail"], "registered for 10 s");
    let before = line(&app).await["registrations"].as_u64().unwrap();

    // The router restarts: gone (its port free again), and back without the registration.
    drop(kamailio);
    eventually("the router gone", 10, || async {
        std::net::UdpSocket::bind(("127.0.0.1", port)).is_ok().then_some(())
    })
    .await;
    let kamailio = Kamailio::run(port, config()).await;
    // Within one of its intervals the line is registered again, and the router reaches the gateway.
    let uri = format!("sip:assistant@127.0.0.1:{port}");
    eventually("the router reaches the gateway again", 20, || async {
        let answer = exchange("127.0.0.1", kamailio.addr(), &options(&uri, "127.0.0.1", "back-1")).await;
        answer.is_some_and(|a| a.starts_with("SIP/2.0 200 OK")).then_some(())
    })
    .await;
    let line = line(&app).await;
    assert_eq!(line["state"], "registered", "{line}");
    assert!(line["registrations"].as_u64().unwrap() > before, "{line}");
}
