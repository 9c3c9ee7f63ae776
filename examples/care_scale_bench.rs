//! Care at the scale of a care service (issue 63), on PostgreSQL with two instances in one process (run by
//! hand, not in CI): 10,000 people with a daily reminder (due tomorrow) and a check-in each; then `--due`
//! of them with a reminder falling due in the same minute, each with a page open on one of the instances
//! (half on each), delivered by both instances' schedulers looking at once (the clock passed in). It reports
//! the process's memory, the table rows PostgreSQL read per scheduler look with nothing due and with the
//! minute's reminders due, and the time from the look to the `reminder` event on each page (p50, p99).
//!
//! ```sh
//! eval "$(scripts/postgres.sh start)"
//! cargo run --release --example care_scale_bench -- --url "$TEST_DATABASE_URL" [--people 10000 --due 1000]
//! ```

#[path = "common/memory.rs"]
mod memory;

use memory::rss_mib_of;
use std::sync::Arc;
use std::time::{Duration, Instant};

use voice_gateway::App;
use voice_gateway::config::Settings;
use voice_gateway::store::reminders::NewReminder;
use voice_gateway::store::users::NewUser;
use voice_gateway::store::{Pool, Store, now_ms};

fn arg(args: &[String], name: &str) -> Option<String> {
    args.windows(2).find(|w| w[0] == name).map(|w| w[1].clone())
}

fn settings(url: &str, instance: &str) -> Settings {
    let env = std::collections::HashMap::from([
        ("DATABASE_URL".to_string(), url.to_string()),
        ("INSTANCE_ID".to_string(), instance.to_string()),
        ("WYOMING_ZEROCONF".to_string(), "false".to_string()),
        ("TIMEZONE".to_string(), "Europe/Berlin".to_string()),
    ]);
    Settings::from_lookup(&|k| env.get(k).cloned()).expect("settings")
}

/// Rows PostgreSQL read from care's tables so far (sequential and by index).
async fn rows_read(store: &Store) -> i64 {
    let Pool::Postgres(pool) = &store.pool else {
        panic!("the bench runs on PostgreSQL")
    };
    // Each connection flushes its statistics at most once a second while busy, and within ten seconds once
    // idle: wait for all of them, so that a count holds what happened before it and nothing else.
    tokio::time::sleep(Duration::from_millis(11_000)).await;
    sqlx::query("SELECT pg_stat_clear_snapshot()")
        .execute(pool)
        .await
        .expect("snapshot");
    let (n,): (i64,) = sqlx::query_as(
        "SELECT CAST(COALESCE(SUM(COALESCE(seq_tup_read, 0) + COALESCE(idx_tup_fetch, 0)), 0) AS BIGINT) \
         FROM pg_stat_user_tables WHERE relname IN ('reminders', 'checkins', 'care_outbox', 'care_presence')",
    )
    .fetch_one(pool)
    .await
    .expect("statistics");
    n
}

/// One scheduler look at `now` on `app`: reminders, check-ins, notices.
async fn look(app: &Arc<App>, now: i64) -> usize {
    let reminders = voice_gateway::care::schedule::due(app, now).await.expect("reminders");
    let checkins = voice_gateway::care::checkin::due(app, now).await.expect("check-ins");
    voice_gateway::care::outbox::due(app, now).await.expect("notices");
    reminders + checkins
}

/// `people` with a daily reminder due tomorrow and a check-in window ending tomorrow; the ids.
async fn populate(store: &Store, people: usize, run: &str) -> Vec<String> {
    let tomorrow = now_ms() + 86_400_000;
    let mut ids = Vec::with_capacity(people);
    for p in 0..people {
        let name = format!("{run}-{p}");
        let new = NewUser {
            name: &name,
            display_name: "",
            is_admin: false,
            external_id: None,
            token_hash: None,
        };
        let user = store.create_user(new).await.expect("user");
        let daily = NewReminder {
            text: "Tabletten",
            due_at: tomorrow,
            time_zone: "Europe/Berlin",
            repeat_rule: Some("FREQ=DAILY"),
            confirm: true,
            timer: false,
            created_by: "admin",
        };
        store.add_reminder(&user.id, &daily, 100).await.expect("reminder");
        store
            .plan_checkin(&user.id, Some((tomorrow - 3_600_000, tomorrow)))
            .await
            .expect("check-in");
        ids.push(user.id);
    }
    ids
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let url = arg(&args, "--url")
        .or_else(|| std::env::var("TEST_DATABASE_URL").ok())
        .expect("--url postgres://…");
    let people: usize = arg(&args, "--people").map_or(10_000, |n| n.parse().expect("--people"));
    let due: usize = arg(&args, "--due").map_or(1_000, |n| n.parse().expect("--due"));
    let store = Store::connect(&url, 32, Duration::from_secs(10)).await.expect("store");
    let run = format!("bench{}", now_ms());
    let memory_start = rss_mib_of("self");
    let started = Instant::now();
    let ids = populate(&store, people, &run).await;
    let populated = started.elapsed();
    let (a, b) = (
        App::new(settings(&url, "bench-a"), store.clone()),
        App::new(settings(&url, "bench-b"), store.clone()),
    );
    let _buses = (
        tokio::spawn(voice_gateway::bus::run(a.clone())),
        tokio::spawn(voice_gateway::bus::run(b.clone())),
    );
    let memory_populated = rss_mib_of("self");

    // Nothing due: what a look reads.
    let now = now_ms();
    let before = rows_read(&store).await;
    let looks = 20;
    for _ in 0..looks {
        assert_eq!(look(&a, now).await, 0);
    }
    let idle = (rows_read(&store).await - before) / looks;

    // `due` people with a reminder in the same minute, a page open on one instance or the other.
    let minute = now + 3_600_000;
    let mut pages = Vec::new();
    for (n, id) in ids.iter().take(due).enumerate() {
        let one = NewReminder {
            text: "Arzttermin",
            due_at: minute + (n as i64 % 60) * 1000,
            time_zone: "Europe/Berlin",
            repeat_rule: None,
            confirm: true,
            timer: false,
            created_by: "admin",
        };
        store.add_reminder(id, &one, 100).await.expect("reminder");
        pages.push((if n % 2 == 0 { &a } else { &b }).notify.subscribe(id));
    }
    // The pages are written down for the other instance.
    while store.presence_elsewhere(&ids[0], "bench-b", 0).await.expect("presence") == 0
        || store
            .presence_elsewhere(&ids[due - 1], "bench-a", 0)
            .await
            .expect("presence")
            == 0
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let before = rows_read(&store).await;
    let t0 = Instant::now();
    let arrivals = pages.into_iter().map(|mut page| async move {
        page.next().await.expect("an event");
        t0.elapsed()
    });
    let waiting = tokio::spawn(futures_util::future::join_all(arrivals));
    let (on_a, on_b) = tokio::join!(look(&a, minute + 60_000), look(&b, minute + 60_000));
    let mut times = waiting.await.expect("arrivals");
    let busy = rows_read(&store).await - before;
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)].as_millis();
    let memory_after = rss_mib_of("self");
    println!("| what | value |\n|---|---|");
    println!(
        "| people stored (user, daily reminder, check-in) | {people} in {:.1} s |",
        populated.as_secs_f64()
    );
    println!(
        "| memory: start → populated, two instances → after the minute | {memory_start:.0} → {memory_populated:.0} → {memory_after:.0} MiB |"
    );
    println!("| rows read per look, nothing due | {idle} |");
    println!(
        "| rows read by the two looks delivering the minute's {due} | {busy} ({:.1} per reminder) |",
        busy as f64 / due as f64
    );
    println!("| claimed by instance a / b | {on_a} / {on_b} |");
    println!(
        "| due → event on the page (either instance), p50 / p99 / max | {} / {} / {} ms |",
        at(0.5),
        at(0.99),
        at(1.0)
    );
    // This run's people go, with everything of theirs.
    let Pool::Postgres(pool) = &store.pool else {
        unreachable!()
    };
    sqlx::query("DELETE FROM users WHERE name LIKE $1")
        .bind(format!("{run}-%"))
        .execute(pool)
        .await
        .expect("clean up");
}
