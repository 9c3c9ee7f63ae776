//! The house's telephone against SIPp (Debian's `sip-tester`), the SIP test tool routers' and PBXs' makers
//! test with: the scenarios of `tests/sipp/` (see its README), each over UDP and TCP, each asserting the
//! responses, their order and their content; and what the gateway made of them (one call, not two; calls
//! ended when their other side was gone, counted; their places freed).
//!
//! Ignored by a plain `cargo test`: it needs SIPp (`scripts/test.sh` installs it).

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use crate::common::{As, TestApp, free_port, spawn_app};

/// A telephone on a free port that takes callers from loopback as its guest, with `extra` settings, once it
/// listens.
pub(crate) async fn telephone(extra: &[(&str, &str)]) -> (TestApp, SocketAddr) {
    let sip = SocketAddr::from(([127, 0, 0, 1], free_port()));
    let address = sip.to_string();
    let mut env = vec![
        ("SIP_ADDR", address.as_str()),
        ("SIP_ALLOWED_FROM", "127.0.0.1"),
        ("PHONE_UNKNOWN_CALLERS", "guest"),
        ("DEFAULT_TTS_PROVIDER", "espeak"),
    ];
    env.extend_from_slice(extra);
    let app = spawn_app(&env).await;
    // The telephone starts beside the HTTP server: SIPp's first TCP connection must find it listening.
    crate::common::eventually("the telephone listening", 10, || async {
        tokio::net::TcpStream::connect(sip).await.is_ok().then_some(())
    })
    .await;
    (app, sip)
}

/// What SIPp made of a scenario.
pub(crate) struct Run {
    pub passed: bool,
    /// Its report and, when it failed, the messages it exchanged and its errors.
    pub report: String,
    pub took: Duration,
}

/// Runs `tests/sipp/<name>.xml` once against `sip` over `transport` (`u1`: UDP, `t1`: TCP).
async fn sipp(name: &str, sip: SocketAddr, transport: &str) -> Run {
    let port = free_port().to_string();
    let to = sip.to_string();
    sipp_with(name, transport, &[&to, "-m", "1", "-s", "assistant", "-p", &port]).await
}

/// A media port for SIPp whose neighbours are free too: it binds the port and the three above it (RTP and
/// RTCP of audio and video) and exits when one is taken, which a single free port does not promise.
fn free_media_ports() -> u16 {
    loop {
        let base = free_port();
        let free = |p: u16| std::net::UdpSocket::bind(("127.0.0.1", p)).is_ok();
        if base < u16::MAX - 4 && (base..base + 4).all(free) {
            return base;
        }
    }
}

/// Runs `tests/sipp/<name>.xml` over `transport` with `args` (the remote address or none for a scenario that
/// waits, `-m`, the local port `-p`), until it ends.
pub(crate) async fn sipp_with(name: &str, transport: &str, args: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let scenario = format!("{}/tests/sipp/{name}.xml", env!("CARGO_MANIFEST_DIR"));
    let (messages, errors) = (dir.path().join("messages.log"), dir.path().join("errors.log"));
    let began = Instant::now();
    let out = tokio::process::Command::new("sipp")
        .args(args)
        .args(["-sf", &scenario, "-t", transport, "-i", "127.0.0.1"])
        .args(["-mi", "127.0.0.1", "-mp", &free_media_ports().to_string()])
        .args(["-timeout", "150s", "-timeout_error", "-nostdin"])
        .args(["-trace_msg", "-message_file", messages.to_str().unwrap()])
        .args(["-trace_err", "-error_file", errors.to_str().unwrap()])
        .current_dir(dir.path())
        .kill_on_drop(true)
        .output()
        .await
        .expect("sipp runs (scripts/test.sh installs sip-tester)");
    let read = |path: &std::path::Path| std::fs::read_to_string(path).unwrap_or_default();
    Run {
        passed: out.status.success(),
        report: format!(
            "{name} over {transport}: {}\n{}\n--- errors\n{}\n--- messages\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .rev()
                .take(12)
                .collect::<Vec<_>>()
                .join("\n"),
            read(&errors),
            read(&messages)
        ),
        took: began.elapsed(),
    }
}

/// The count of `series` with `label` in the gateway's metrics (0 when absent).
/// Waits until `series` counts `want` (a call's outcome is counted as its task ends, just after SIPp's end);
/// fails the test after 10 s.
pub(crate) async fn counts(app: &TestApp, series: &str, want: f64) {
    let what = format!("{series} at {want}");
    crate::common::eventually(&what, 10, || async {
        (counted(app, series).await == want).then_some(())
    })
    .await;
}

pub(crate) async fn counted(app: &TestApp, series: &str) -> f64 {
    let metrics = app.prometheus().await;
    metrics
        .lines()
        .filter(|l| l.starts_with(series))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

/// The phone guest's sessions: one per call taken.
pub(crate) async fn calls_taken(app: &TestApp) -> usize {
    let users = app.get("/api/admin/users", As::AdminKey).await.body;
    let Some(guest) = users.as_array().unwrap().iter().find(|u| u["name"] == "phone-guest") else {
        return 0;
    };
    let path = format!("/api/admin/conversations/{}", guest["id"].as_str().unwrap());
    let sessions = app.get(&path, As::AdminKey).await.body;
    sessions["sessions"].as_array().map_or(0, Vec::len)
}

#[tokio::test]
#[ignore = "needs SIPp; scripts/test.sh installs it and runs this"]
async fn a_call_is_held_resumed_refreshed_and_keyed_in_its_dialog_over_udp_and_tcp() {
    let (app, sip) = telephone(&[]).await;
    for transport in ["u1", "t1"] {
        let run = sipp("dialog", sip, transport).await;
        assert!(run.passed, "{}", run.report);
    }
    assert_eq!(calls_taken(&app).await, 2, "one call each");
}

#[tokio::test]
#[ignore = "needs SIPp; scripts/test.sh installs it and runs this"]
async fn the_help_key_on_the_house_line_asks_by_rfc_4733_or_info_and_1_alerts_2_calls_off() {
    let smtp = crate::smtp::SmtpServer::start(crate::smtp::Mode::Accept).await;
    let smtp_port = smtp.port.to_string();
    let (app, sip) = telephone(&[
        ("SMTP_HOST", "127.0.0.1"),
        ("SMTP_PORT", &smtp_port),
        ("SMTP_SECURITY", "none"),
        ("SMTP_FROM", "gateway@care.example"),
    ])
    .await;
    let (id, _) = app.create_user("erna_taste").await;
    let prefs = serde_json::json!({"caller_numbers": ["611"], "full_name": "Erna Schmidt",
        "emergency_contacts": ["tochter@family.example"], "language": "de", "emergency_cooldown_minutes": "0"});
    app.set_prefs(&id, prefs).await;
    let mut log = voice_gateway::logging::subscribe();

    // 0 by INFO asks, 2 as an RFC 4733 event calls it off: nobody is alerted.
    let run = sipp("help_key_off", sip, "u1").await;
    assert!(run.passed, "{}", run.report);
    crate::common::logged(&mut log, "the question called off by its key", 10, |line| {
        line.contains("erna_taste") && line.contains("declined")
    })
    .await;
    assert!(smtp.mails().is_empty(), "nobody is alerted");
    assert!(crate::phone::asked_by(&app, &id).await.is_empty());

    // 0 as an RFC 4733 event asks, 1 by INFO alerts the contacts.
    let run = sipp("help_key", sip, "t1").await;
    assert!(run.passed, "{}", run.report);
    crate::common::eventually("the alarm's mail", 10, || async {
        (!smtp.mails().is_empty()).then_some(())
    })
    .await;
    assert_eq!(smtp.mails()[0].recipients, ["tochter@family.example"]);
    assert_eq!(
        crate::phone::asked_by(&app, &id).await,
        [("key".to_string(), "telephone".to_string())]
    );
}

#[tokio::test]
#[ignore = "needs SIPp; scripts/test.sh installs it and runs this"]
async fn a_cancel_that_crosses_the_answer_leaves_the_call_alone_and_refusals_say_why() {
    let (app, sip) = telephone(&[]).await;
    for transport in ["u1", "t1"] {
        for scenario in ["cancel_after_answer", "refusals"] {
            let run = sipp(scenario, sip, transport).await;
            assert!(run.passed, "{}", run.report);
        }
    }
    // The refused INVITEs made no call.
    assert_eq!(calls_taken(&app).await, 2);
}

#[tokio::test]
#[ignore = "needs SIPp; scripts/test.sh installs it and runs this"]
async fn a_call_never_acknowledged_is_ended_with_a_bye_after_64_t1() {
    let (app, sip) = telephone(&[("RTP_TIMEOUT_SECONDS", "600")]).await;
    let (udp, tcp) = tokio::join!(sipp("no_ack", sip, "u1"), sipp("no_ack", sip, "t1"));
    for run in [&udp, &tcp] {
        assert!(run.passed, "{}", run.report);
        // 64·T1 = 32 s after the 200, within a few seconds.
        assert!(
            (31.0..40.0).contains(&run.took.as_secs_f64()),
            "{:?}\n{}",
            run.took,
            run.report
        );
    }
    counts(&app, "sip_calls_ended_total{reason=\"no_ack\"}", 2.0).await;
}

#[tokio::test]
#[ignore = "needs SIPp; scripts/test.sh installs it and runs this"]
async fn a_session_its_caller_stops_refreshing_is_ended_before_it_expires() {
    // The caller sends no audio and says nothing: neither the RTP timeout nor the call's goodbye to a silent
    // caller may end the call first.
    let (app, sip) = telephone(&[("RTP_TIMEOUT_SECONDS", "600"), ("PHONE_SILENCE_SECONDS", "600")]).await;
    let (udp, tcp) = tokio::join!(sipp("session_expires", sip, "u1"), sipp("session_expires", sip, "t1"));
    for run in [&udp, &tcp] {
        assert!(run.passed, "{}", run.report);
        // RFC 4028 §10: at 90 s less a third (30 s), before the 90 s are over.
        assert!(
            (58.0..75.0).contains(&run.took.as_secs_f64()),
            "{:?}\n{}",
            run.took,
            run.report
        );
    }
    counts(&app, "sip_calls_ended_total{reason=\"session_expired\"}", 2.0).await;
    let ended = "phone_calls_total{line=\"sip\",outcome=\"ended\",reason=\"session_expired\"}";
    // Each call once, as the gateway ended it.
    counts(&app, ended, 2.0).await;
}

#[tokio::test]
#[ignore = "needs SIPp; scripts/test.sh installs it and runs this"]
async fn a_session_the_caller_asks_the_gateway_to_refresh_is_refreshed_by_update_and_goes_on() {
    let (app, sip) = telephone(&[("RTP_TIMEOUT_SECONDS", "600"), ("PHONE_SILENCE_SECONDS", "600")]).await;
    let (udp, tcp) = tokio::join!(
        sipp("session_refreshed", sip, "u1"),
        sipp("session_refreshed", sip, "t1")
    );
    for run in [&udp, &tcp] {
        assert!(run.passed, "{}", run.report);
        // The UPDATE came at half the interval (45 s), and the caller's BYE right after ended the call.
        assert!(
            (44.0..55.0).contains(&run.took.as_secs_f64()),
            "{:?}\n{}",
            run.took,
            run.report
        );
    }
    let hung_up = "phone_calls_total{line=\"sip\",outcome=\"hung_up\",reason=\"caller\"}";
    // Each call once, as its caller ended it.
    counts(&app, hung_up, 2.0).await;
    assert_eq!(counted(&app, "sip_calls_ended_total").await, 0.0, "nothing expired");
}

#[tokio::test]
#[ignore = "needs SIPp; scripts/test.sh installs it and runs this"]
async fn a_caller_who_vanishes_is_hung_up_and_its_place_is_free_for_the_next() {
    // One call at a time: while the vanished caller held the line, the next caller would hear busy.
    let (app, sip) = telephone(&[("RTP_TIMEOUT_SECONDS", "3"), ("SIP_MAX_CALLS", "1")]).await;
    for transport in ["u1", "t1"] {
        let run = sipp("vanished", sip, transport).await;
        assert!(run.passed, "{}", run.report);
    }
    counts(&app, "sip_calls_ended_total{reason=\"no_audio\"}", 2.0).await;
    // The place is free at once: a call right after is answered, not refused busy.
    let run = sipp("cancel_after_answer", sip, "u1").await;
    assert!(run.passed, "{}", run.report);
}
