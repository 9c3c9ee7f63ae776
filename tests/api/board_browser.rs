//! The carers' board in a real browser (Debian's Chromium at 768 px, driven by `ui-tests/carer-board.mjs`):
//! everything that needs the carer is on the rows (two alarms of a day, a missed check-in after an alarm that was
//! looked after), the last day lists the calls for help, and a gateway that stops is said on every row within
//! 10 s and cleared when it is back, and so is a network that stops carrying anything (no error: the board's
//! own check notices). The board reaches the gateway through a door of the test's (a TCP forwarder), which the
//! test shuts and opens again (to the browser, the gateway stopped and came back) or freezes and thaws.
//! Ignored by a plain `cargo test`; `scripts/test.sh` runs it.

use std::net::SocketAddr;

use reqwest::Method;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::sync::watch;
use tokio::task::{JoinHandle, JoinSet};

use crate::checkin::{late_morning_zone, named_user, plan};
use crate::common::{As, TestApp, free_port, spawn_app};

/// A door in front of the gateway on a port of its own: open, it forwards each connection; shut, every
/// connection through it is cut and none is taken; frozen, it carries nothing and cuts nothing (a network that
/// stopped: no error reaches the browser).
struct Door {
    port: u16,
    to: SocketAddr,
    open: Option<JoinHandle<()>>,
    frozen: watch::Sender<bool>,
}

/// Carries what `from` sends to `to`, holding it while the door is frozen.
async fn carry(mut from: OwnedReadHalf, mut to: OwnedWriteHalf, mut frozen: watch::Receiver<bool>) {
    let mut buf = vec![0; 16 * 1024];
    while let Ok(n) = from.read(&mut buf).await {
        if n == 0 || frozen.wait_for(|f| !*f).await.is_err() || to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}

impl Door {
    async fn new(to: SocketAddr) -> Self {
        let mut door = Self {
            port: free_port(),
            to,
            open: None,
            frozen: watch::channel(false).0,
        };
        door.open().await;
        door
    }

    async fn open(&mut self) {
        let listener = TcpListener::bind(("127.0.0.1", self.port))
            .await
            .expect("the door's port");
        let (to, frozen) = (self.to, self.frozen.clone());
        self.open = Some(tokio::spawn(async move {
            // Dropped with this task when the door shuts: every connection through it is cut.
            let mut through = JoinSet::new();
            while let Ok((inside, _)) = listener.accept().await {
                let frozen = frozen.subscribe();
                through.spawn(async move {
                    let Ok(gateway) = tokio::net::TcpStream::connect(to).await else {
                        return;
                    };
                    let ((in_read, in_write), (gw_read, gw_write)) = (inside.into_split(), gateway.into_split());
                    tokio::join!(
                        carry(in_read, gw_write, frozen.clone()),
                        carry(gw_read, in_write, frozen)
                    );
                });
            }
        }));
    }

    async fn shut(&mut self) {
        if let Some(open) = self.open.take() {
            open.abort();
            let _ = open.await;
        }
    }
}

/// A resident of the carer's, in Europe/Berlin unless said otherwise: (id, token).
async fn resident(app: &TestApp, name: &str, display: &str, carer: &str) -> (String, String) {
    let (id, token) = named_user(app, name, display).await;
    app.set_prefs(&id, json!({"timezone": "Europe/Berlin"})).await;
    let set = format!("/api/admin/users/{id}/carers");
    let r = app
        .call(Method::PUT, &set, As::AdminKey, Some(json!({"carers": [carer]})))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    (id, token)
}

/// A call for help of `token`'s owner, the operator's "end the wait" first when `again`.
async fn calls_for_help(app: &TestApp, id: &str, token: &str, again: bool) -> serde_json::Value {
    if again {
        let path = format!("/api/admin/users/{id}/emergency/cooldown");
        let ended = app.call(Method::DELETE, &path, As::AdminKey, None).await;
        assert_eq!(ended.status, 200, "{}", ended.body);
    }
    let help = app.call(Method::POST, "/api/emergency", As::Bearer(token), None).await;
    assert!(help.status.is_success(), "{}", help.body);
    help.body
}

/// Hans called for help and Anna looked after it; then he leaves his check-in unanswered (asked, asked again).
async fn hans_misses_his_check_in_after_his_alarm_was_looked_after(
    app: &TestApp,
    anna_token: &str,
    hans: (&str, &str),
) {
    let (id, token) = hans;
    app.set_prefs(
        id,
        json!({"timezone": late_morning_zone(), "checkin_window": "09:00-14:00"}),
    )
    .await;
    calls_for_help(app, id, token, false).await;
    let row = app
        .get(&format!("/api/carer/residents/{id}/today"), As::Bearer(anna_token))
        .await
        .body;
    let ack = format!(
        "/api/carer/residents/{id}/alarms/{}/acknowledge",
        row["alarm"]["id"].as_str().unwrap()
    );
    let done = app.call(Method::POST, &ack, As::Bearer(anna_token), None).await;
    assert_eq!(done.status, 200, "{}", done.body);
    let (_, due_at) = plan(app, token).await;
    for minutes in [0, 11, 22] {
        let claimed = voice_gateway::care::checkin::due(&app.app, due_at + 1000 + minutes * 60_000).await;
        assert_eq!(claimed.unwrap(), 1, "after {minutes} minutes");
    }
}

#[tokio::test]
#[ignore = "needs Chromium and node; scripts/test.sh runs it"]
async fn the_board_shows_every_open_alarm_a_missed_check_in_and_the_last_days_calls_and_says_when_the_gateway_is_gone()
{
    let app = spawn_app(&[]).await;
    let (anna, anna_token) = named_user(&app, "anna", "Schwester Anna").await;
    app.set_prefs(&anna, json!({"language": "de"})).await;
    let erika = resident(&app, "erika", "Erika Muster", &anna).await;
    let hans = resident(&app, "hans", "Hans Braun", &anna).await;
    resident(&app, "otto", "Otto Meier", &anna).await;
    calls_for_help(&app, &erika.0, &erika.1, false).await;
    calls_for_help(&app, &erika.0, &erika.1, true).await;
    hans_misses_his_check_in_after_his_alarm_was_looked_after(&app, &anna_token, (&hans.0, &hans.1)).await;

    let mut door = Door::new(app.addr).await;
    let root = env!("CARGO_MANIFEST_DIR");
    let mut run = tokio::process::Command::new("node")
        .arg("ui-tests/carer-board.mjs")
        .current_dir(root)
        .env("BASE", format!("http://127.0.0.1:{}", door.port))
        .env("LINK", format!("/carer?k={anna_token}"))
        .env("ORDER", "erika:alarm,hans:checkin,otto:well")
        .env("SHOTS", format!("{root}/docs/screenshots"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("node runs (scripts/test.sh installs it)");
    let mut said = BufReader::new(run.stdout.take().unwrap()).lines();
    let mut tell = run.stdin.take().unwrap();
    // The script asks for the gateway to go and to come back; everything else it says is its report.
    while let Some(line) = said.next_line().await.unwrap() {
        println!("{line}");
        let answer = match line.as_str() {
            "stop the gateway" => {
                door.shut().await;
                "stopped\n"
            }
            "start the gateway" => {
                door.open().await;
                "started\n"
            }
            "freeze the network" => {
                door.frozen.send_replace(true);
                "frozen\n"
            }
            "thaw the network" => {
                door.frozen.send_replace(false);
                "thawed\n"
            }
            _ => continue,
        };
        tell.write_all(answer.as_bytes()).await.unwrap();
    }
    let done = run.wait().await.unwrap();
    assert!(done.success(), "carer-board.mjs failed");
}
