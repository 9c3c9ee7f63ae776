//! What reminders cost and how late they come, on SQLite (run by hand, not in CI):
//! (a) 10,000 scheduled reminders (100 people with 100 each, due tomorrow): the time to store them, the database
//!     file, the process's memory before and after, a gateway's start on that database, and one scheduler look
//!     when nothing is due (what the scheduler reads every tick: the query plan names the index it searches);
//! (b) the time from a reminder's due time to its `reminder` event on the person's open page, for reminders
//!     due 0.3 s apart, through the gateway's own scheduler.
//!
//! ```sh
//! cargo run --release --example reminder_bench [-- --people 100 --each 100 --due 20]
//! ```

#[path = "common/memory.rs"]
mod memory;

use memory::rss_mib_of;
use std::time::{Duration, Instant};

use voice_gateway::App;
use voice_gateway::config::Settings;
use voice_gateway::store::reminders::NewReminder;
use voice_gateway::store::users::NewUser;
use voice_gateway::store::{Store, now_ms};

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    args.windows(2)
        .find(|w| w[0] == name)
        .and_then(|w| w[1].parse().ok())
        .unwrap_or(default)
}

fn settings(db: &std::path::Path) -> Settings {
    let env = std::collections::HashMap::from([
        ("DB_PATH".to_string(), db.display().to_string()),
        ("WYOMING_ZEROCONF".to_string(), "false".to_string()),
        ("TIMEZONE".to_string(), "Europe/Berlin".to_string()),
    ]);
    Settings::from_lookup(&|k| env.get(k).cloned()).expect("settings")
}

/// A person of that name.
async fn person(store: &Store, name: &str) -> voice_gateway::store::users::User {
    let new = NewUser {
        name,
        display_name: "",
        is_admin: false,
        external_id: None,
        token_hash: None,
    };
    store.create_user(new).await.expect("user")
}

fn new_reminder(text: &str, due_at: i64) -> NewReminder<'_> {
    NewReminder {
        text,
        due_at,
        time_zone: "Europe/Berlin",
        repeat_rule: None,
        confirm: false,
        timer: false,
        created_by: "admin",
    }
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (people, each, due_count) = (
        arg(&args, "--people", 100),
        arg(&args, "--each", 100),
        arg(&args, "--due", 20),
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("gateway.db");
    let store = Store::open(&db).await.expect("store");
    let before = rss_mib_of("self");

    // (a) Many reminders waiting.
    let started = Instant::now();
    let tomorrow = now_ms() + 86_400_000;
    for p in 0..people {
        let user = person(&store, &format!("person{p}")).await;
        for n in 0..each {
            let text = format!("Erinnerung {n}");
            let r = new_reminder(&text, tomorrow + (n as i64) * 60_000);
            store.add_reminder(&user.id, &r, 10_000).await.expect("reminder");
        }
    }
    let stored = started.elapsed();
    let total = people * each;
    let file_mib = std::fs::metadata(&db).map_or(0, |m| m.len()) as f64 / 1_048_576.0
        + std::fs::metadata(dir.path().join("gateway.db-wal")).map_or(0, |m| m.len()) as f64 / 1_048_576.0;
    let started = Instant::now();
    let reopened = Store::open(&db).await.expect("store");
    let app = App::new(settings(&db), reopened);
    let start = started.elapsed();
    let after = rss_mib_of("self");
    let looks = 200;
    let started = Instant::now();
    for _ in 0..looks {
        let n = voice_gateway::care::schedule::due(&app, now_ms())
            .await
            .expect("a look");
        assert_eq!(n, 0);
        voice_gateway::care::checkin::due(&app, now_ms()).await.expect("a look");
    }
    let look = started.elapsed() / looks;
    let voice_gateway::store::Pool::Sqlite(pool) = &app.store.pool else {
        unreachable!("the bench runs on SQLite")
    };
    let plan: Vec<(i64, i64, i64, String)> = sqlx::query_as(
        "EXPLAIN QUERY PLAN UPDATE reminders SET state = 'delivering' WHERE (state = 'scheduled' AND due_at <= 1) \
         OR (state = 'delivering' AND attempt_at IS NOT NULL AND attempt_at <= 1)",
    )
    .fetch_all(pool)
    .await
    .expect("plan");
    println!("| what | value |\n|---|---|");
    println!(
        "| reminders stored | {total} ({people} people × {each}) in {:.1} s |",
        stored.as_secs_f64()
    );
    println!("| database file (with its log) | {file_mib:.1} MiB |");
    println!("| memory of the process before → after (the store opened twice) | {before:.0} → {after:.0} MiB |");
    println!(
        "| a gateway's store and state opened on them | {:.0} ms |",
        start.as_secs_f64() * 1000.0
    );
    println!(
        "| one scheduler look with nothing due (reminders and check-ins) | {:.2} ms |",
        look.as_secs_f64() * 1000.0
    );
    let plan: Vec<String> = plan.into_iter().map(|p| p.3).collect();
    println!("| what a look reads (query plan) | {} |", plan.join("; "));

    // (b) Due to the page.
    let user = person(&app.store, "erika").await;
    let mut page = app.notify.subscribe(&user.id);
    let first = now_ms() + 1500;
    let mut due_at = std::collections::HashMap::new();
    for n in 0..due_count {
        let at = first + (n as i64) * 300;
        let r = app
            .store
            .add_reminder(&user.id, &new_reminder("Tabletten", at), 10_000)
            .await
            .expect("reminder")
            .expect("room for it");
        due_at.insert(r.id, at);
    }
    let scheduler = tokio::spawn(voice_gateway::care::schedule::run(app.clone()));
    let mut late = Vec::new();
    for _ in 0..due_count {
        let event = tokio::time::timeout(Duration::from_secs(30), page.next())
            .await
            .expect("an event within 30 s")
            .expect("an event");
        let due = due_at[event["id"].as_str().unwrap()];
        late.push((now_ms() - due) as f64);
    }
    scheduler.abort();
    late.sort_by(f64::total_cmp);
    let at = |q: f64| late[((late.len() - 1) as f64 * q).round() as usize];
    println!(
        "| due → `reminder` event on the open page ({due_count} reminders 0.3 s apart) | median {:.0} ms, p90 {:.0} ms, max {:.0} ms |",
        at(0.5),
        at(0.9),
        at(1.0)
    );
}
