//! SIPp as the router (`tests/sipp/router_*.xml` and `registrar_*.xml`, written from RFC 3261 and 3581): the
//! alarm's branches, with the contact's telephone behind it (a busy contact and one who never answers handed to
//! Twilio with `EMERGENCY_CALL_VIA=both`, a contact who presses 1 as SIP INFO while the callers of
//! `SIP_MAX_CALLS` fill the line), and a registrar that redirects the REGISTER and sees the telephone behind a
//! NAT.
//!
//! Ignored by a plain `cargo test`: it needs SIPp (`scripts/test.sh` installs it).

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::json;

use crate::common::{As, eventually, free_port, spawn_app};
use crate::emergency::{CALL, Setup, delivery_states, form, press, profile, setup};
use crate::sipp::{Run, calls_taken, sipp_with};

/// The router: SIPp waiting with `scenario` on a free port, which grants the gateway's registration and
/// plays the contact's telephone for its alarm call; it ends after the two.
fn router(scenario: &'static str) -> (u16, tokio::task::JoinHandle<Run>) {
    let port = free_port();
    let run = tokio::spawn(async move {
        let local = port.to_string();
        sipp_with(scenario, "u1", &["-m", "2", "-p", &local]).await
    });
    (port, run)
}

/// A gateway registered with the router at `port`, taking callers from loopback as its guest, with Anna and
/// `contact` as her contact's telephone; its SIP address.
async fn house(port: u16, contact: &str, extra: &[(&str, &str)]) -> (Setup, SocketAddr) {
    let sip = SocketAddr::from(([127, 0, 0, 1], free_port()));
    let (registrar, address) = (format!("127.0.0.1:{port}"), sip.to_string());
    let mut env = vec![
        ("SIP_REGISTRAR", registrar.as_str()),
        ("SIP_USER", "assistant"),
        ("SIP_PASSWORD", "line-secret"),
        ("SIP_ADDR", address.as_str()),
        ("SIP_ALLOWED_FROM", "127.0.0.1"),
        ("PHONE_UNKNOWN_CALLERS", "guest"),
        ("DEFAULT_TTS_PROVIDER", "espeak"),
        ("EMERGENCY_CHANNEL_TIMEOUT_SECONDS", "15"),
        ("EMERGENCY_ESCALATION_MINUTES", "0"),
    ];
    env.extend_from_slice(extra);
    let mut prefs = profile();
    prefs["emergency_contact_phones"] = json!([contact]);
    let s = setup(None, &env, prefs).await;
    eventually("the line registered", 40, || async {
        let health = s.app.get("/api/admin/providers", As::AdminKey).await;
        (health.body["lines"][0]["state"] == "registered").then_some(())
    })
    .await;
    (s, sip)
}

/// The contact's call handed to Twilio, and the alarm's call delivery recorded as delivered.
async fn called_through_twilio(s: &Setup, alarm: &str) {
    let calls = eventually("the call handed to Twilio", 30, || async {
        let calls = s.twilio.requests(CALL);
        (!calls.is_empty()).then_some(calls)
    })
    .await;
    assert_eq!(form(&calls[0])["To"], "+491709999999");
    eventually("the call recorded as delivered", 10, || async {
        let states = delivery_states(&s.app, alarm).await;
        states.contains(&("call".into(), "delivered".into())).then_some(())
    })
    .await;
}

#[tokio::test]
#[ignore = "needs SIPp; scripts/test.sh installs it and runs this"]
async fn a_busy_contact_on_the_house_line_is_called_through_twilio() {
    let (port, router) = router("router_busy");
    let (s, _) = house(port, "+491709999999", &[("EMERGENCY_CALL_VIA", "both")]).await;

    let r = press(&s, None).await;

    // The SMS reached the contact at once; the call went to the house line first.
    assert_eq!(r.body["status"], "alerted", "{}", r.body);
    let run = router.await.unwrap();
    assert!(run.passed, "{}", run.report);
    called_through_twilio(&s, r.body["alarm_id"].as_str().unwrap()).await;
}

#[tokio::test]
#[ignore = "needs SIPp; scripts/test.sh installs it and runs this"]
async fn a_contact_who_never_answers_is_cancelled_after_the_ringing_time_and_called_through_twilio() {
    let (port, router) = router("router_no_answer");
    let (s, _) = house(port, "+491709999999", &[("EMERGENCY_CALL_VIA", "both")]).await;

    let r = press(&s, None).await;

    assert_eq!(r.body["status"], "alerted", "{}", r.body);
    let run = router.await.unwrap();
    assert!(run.passed, "{}", run.report);
    // It rang for the channel's 15 s before the CANCEL.
    assert!(run.took >= Duration::from_secs(15), "{:?}\n{}", run.took, run.report);
    called_through_twilio(&s, r.body["alarm_id"].as_str().unwrap()).await;
}

#[tokio::test]
#[ignore = "needs SIPp; scripts/test.sh installs it and runs this"]
async fn a_1_sent_as_sip_info_confirms_the_alarm_and_its_call_gets_out_while_callers_fill_the_line() {
    let (port, router) = router("router_keyed");
    let extra = [("EMERGENCY_CALL_VIA", "sip"), ("SIP_MAX_CALLS", "1")];
    let (s, sip) = house(port, "613", &extra).await;
    let gateway = sip.to_string();
    // One caller holds the only place of SIP_MAX_CALLS; the next hears busy.
    let held = {
        let (gateway, local) = (gateway.clone(), free_port().to_string());
        tokio::spawn(async move {
            sipp_with(
                "caller_held",
                "u1",
                &[&gateway, "-m", "1", "-s", "assistant", "-p", &local],
            )
            .await
        })
    };
    eventually("the first caller taken", 20, || async {
        (calls_taken(&s.app).await == 1).then_some(())
    })
    .await;
    let local = free_port().to_string();
    let busy = sipp_with(
        "caller_busy",
        "u1",
        &[&gateway, "-m", "1", "-s", "assistant", "-p", &local],
    )
    .await;
    assert!(busy.passed, "{}", busy.report);

    // Anna's contact is an internal number: the house line is the only way, and it gets out.
    let r = press(&s, None).await;

    assert_eq!(r.body["status"], "alerted", "{}", r.body);
    let run = router.await.unwrap();
    assert!(run.passed, "{}", run.report);
    let acks: Vec<(String, String)> = voice_gateway::with_pool!(s.app.store, pool => sqlx::query_as(
        "SELECT contact, via FROM emergency_acks WHERE acknowledged_at IS NOT NULL",
    )
    .fetch_all(pool)
    .await
    .unwrap());
    assert_eq!(acks, [("613".to_string(), "call".to_string())]);
    let held = held.await.unwrap();
    assert!(held.passed, "{}", held.report);
}

#[tokio::test]
#[ignore = "needs SIPp; scripts/test.sh installs it and runs this"]
async fn a_registrar_that_redirects_is_followed_and_a_nat_in_its_answer_is_registered_at_once() {
    let (moved, behind_nat) = (free_port().to_string(), free_port().to_string());
    let moved_to = format!("127.0.0.1:{behind_nat}");
    let nat = tokio::spawn(async move { sipp_with("registrar_nat", "u1", &["-m", "1", "-p", &behind_nat]).await });
    let redirect = {
        let (moved, moved_to) = (moved.clone(), moved_to.clone());
        tokio::spawn(async move {
            sipp_with(
                "registrar_moved",
                "u1",
                &["-m", "1", "-p", &moved, "-key", "moved_to", &moved_to],
            )
            .await
        })
    };
    let registrar = format!("127.0.0.1:{moved}");
    let sip = format!("127.0.0.1:{}", free_port());
    let app = spawn_app(&[
        ("SIP_REGISTRAR", &registrar),
        ("SIP_USER", "assistant"),
        ("SIP_PASSWORD", "line-secret"),
        ("SIP_ADDR", &sip),
    ])
    .await;

    // The 302 was followed, the NAT's address registered (SIPp checks the Contact and the old one dropped), and
    // the admin panel says both.
    for run in [redirect.await.unwrap(), nat.await.unwrap()] {
        assert!(run.passed, "{}", run.report);
    }
    let line = eventually("the line registered", 10, || async {
        let health = app.get("/api/admin/providers", As::AdminKey).await;
        let line = health.body["lines"][0].clone();
        (line["state"] == "registered").then_some(line)
    })
    .await;
    assert_eq!(
        line["detail"],
        format!(
            "registered for 600 s at {moved_to}, where the registrar's 302 sent it; the router sees this telephone at 127.0.0.2:5999"
        )
    );
}
