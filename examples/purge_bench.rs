//! The retention purge at the scale of a care service (issue 75; run by hand, not in CI): `--people` people
//! (10,000) with `--days` days (365) of history each (a message and a care log line a day, a conversation a
//! week, the daily counter, an alarm with its delivery a month, a look a week, the audit), made in the store
//! by SQL; then one purge with the default retention, as of now. It reports the rows of each kind and the
//! store's size before and after, the purge's time, and a turn's store work (history read, turn written) p50
//! and p90 when idle and while the purge runs.
//!
//! ```sh
//! cargo run --release --example purge_bench -- --db /tmp/purge.db            # SQLite
//! eval "$(scripts/postgres.sh start)"
//! cargo run --release --example purge_bench -- --url "$TEST_DATABASE_URL"   # PostgreSQL
//! ```

use std::sync::Arc;
use std::time::{Duration, Instant};

use voice_gateway::App;
use voice_gateway::config::Settings;
use voice_gateway::store::{Store, now_ms};
use voice_gateway::with_pool;

const DAY: i64 = 86_400_000;
/// The tables whose rows are reported.
const TABLES: [&str; 8] = [
    "messages",
    "sessions",
    "care_log",
    "usage",
    "emergency_alarms",
    "emergency_deliveries",
    "access_log",
    "audit_log",
];

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.windows(2).find(|w| w[0] == name).map(|w| w[1].clone())
}

/// The seeding statements: `$1` now, `$2` people, `$3` days; `day` turns a day count `d.i` into its date.
fn seeding(day: &str) -> Vec<String> {
    let people = "FROM bench_seq u JOIN bench_seq d ON d.i < $3 WHERE u.i < $2";
    vec![
        "INSERT INTO users (id, name, display_name, is_admin, is_anonymous, created_at) \
         SELECT 'u' || u.i, 'person' || u.i, '', FALSE, FALSE, $1 FROM bench_seq u WHERE u.i < $2 AND $3 > 0"
            .into(),
        format!(
            "INSERT INTO sessions (id, user_id, title, overrides, created_at, updated_at) SELECT 's' || u.i || '-' || d.i, \
             'u' || u.i, 'bench', '{{}}', $1 - d.i * 7 * {DAY}, $1 - d.i * 7 * {DAY} {people} AND d.i <= $3 / 7"
        ),
        format!(
            "INSERT INTO messages (id, session_id, user_id, role, text, created_at) SELECT 'm' || u.i || '-' || d.i, \
             's' || u.i || '-' || (d.i / 7), 'u' || u.i, 'user', 'Wie spät ist es?', $1 - d.i * {DAY} {people}"
        ),
        format!(
            "INSERT INTO care_log (id, user_id, what, channel, status, at) SELECT 'c' || u.i || '-' || d.i, 'u' || u.i, \
             'checkin', 'page', 'answered', $1 - d.i * {DAY} {people}"
        ),
        format!("INSERT INTO usage (user_id, day, count) SELECT 'u' || u.i, {day}, 3 {people}"),
        format!(
            "INSERT INTO emergency_alarms (id, user_id, created_at, status, lang, base_url, press) SELECT \
             'a' || u.i || '-' || d.i, 'u' || u.i, $1 - d.i * 30 * {DAY}, 'delivered', 'de', '', '{{}}' {people} AND d.i <= $3 / 30"
        ),
        "INSERT INTO emergency_deliveries (alarm_id, channel, recipient, state, updated_at) SELECT id, 'email', \
         'tochter@family.example', 'sent', created_at FROM emergency_alarms WHERE $1 > 0 AND $2 > 0 AND $3 > 0"
            .into(),
        format!(
            "INSERT INTO access_log (id, user_id, reader, what, at) SELECT 'l' || u.i || '-' || d.i, 'u' || u.i, \
             'admin-key', 'day', $1 - d.i * 7 * {DAY} {people} AND d.i <= $3 / 7"
        ),
        format!(
            "INSERT INTO audit_log (id, at, actor, action, target, detail) SELECT 'x' || d.i || '-' || u.i, \
             $1 - d.i * {DAY}, 'admin-key', 'user.prefs', 'u' || u.i, '{{}}' {people} AND u.i < 100"
        ),
    ]
}

/// Makes the history of `people` people over `days` days as of `now`.
async fn seed(store: &Store, now: i64, people: i64, days: i64) {
    let count = people.max(days) + 1;
    with_pool!(store, pool => {
        sqlx::query("CREATE TABLE bench_seq (i BIGINT PRIMARY KEY)").execute(pool).await.expect("seq");
        let fill = if store.is_sqlite() {
            "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $1) INSERT INTO bench_seq SELECT i FROM n"
        } else {
            "INSERT INTO bench_seq SELECT generate_series(0, $1 - 1)"
        };
        sqlx::query(fill).bind(count).execute(pool).await.expect("fill");
        let day = if store.is_sqlite() {
            "date(($1 - d.i * 86400000) / 1000, 'unixepoch', 'localtime')"
        } else {
            "to_char(to_timestamp(($1 - d.i * 86400000) / 1000), 'YYYY-MM-DD')"
        };
        for sql in seeding(day) {
            let started = Instant::now();
            let done = sqlx::query(&sql).bind(now).bind(people).bind(days).execute(pool).await.expect("seed");
            eprintln!("seeded {} rows in {:.1} s", done.rows_affected(), started.elapsed().as_secs_f64());
        }
        sqlx::query("DROP TABLE bench_seq").execute(pool).await.expect("drop");
    });
}

/// Rows of each reported table, and the store's size in MiB.
async fn census(store: &Store, db: Option<&str>) -> (Vec<i64>, f64) {
    let mut rows = Vec::new();
    for table in TABLES {
        let sql = format!("SELECT COUNT(*) FROM {table}");
        rows.push(with_pool!(store, pool => sqlx::query_scalar::<_, i64>(&sql).fetch_one(pool).await.expect("count")));
    }
    let bytes = match db {
        Some(path) => ["", "-wal"]
            .iter()
            .filter_map(|s| std::fs::metadata(format!("{path}{s}")).ok())
            .map(|m| m.len())
            .sum(),
        None => with_pool!(store, pool => sqlx::query_scalar::<_, i64>("SELECT pg_database_size(current_database())")
            .fetch_one(pool).await.expect("size")) as u64,
    };
    (rows, bytes as f64 / 1_048_576.0)
}

/// A turn's store work, `rounds` times until `stop`: the person's history read, the turn written. Its times
/// in milliseconds, sorted.
async fn turns(store: Store, stop: Arc<tokio::sync::Notify>, rounds: usize) -> Vec<f64> {
    let mut times = Vec::new();
    let stopped = stop.notified();
    tokio::pin!(stopped);
    for n in 0..rounds {
        let (user, session) = (format!("u{}", n % 1000), format!("s{}-0", n % 1000));
        let started = Instant::now();
        store.recent_messages(&session, 20).await.expect("history");
        store
            .store_turn(&session, &user, "Wie spät ist es?", "Gleich drei.")
            .await
            .expect("turn");
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        tokio::select! {
            () = &mut stopped => break,
            () = tokio::time::sleep(Duration::from_millis(20)) => {}
        }
    }
    times.sort_by(f64::total_cmp);
    times
}

fn percentiles(times: &[f64]) -> String {
    let at = |p: f64| times[((times.len() as f64 * p) as usize).min(times.len() - 1)];
    format!("p50 {:.1} ms, p90 {:.1} ms ({} turns)", at(0.5), at(0.9), times.len())
}

#[tokio::main]
async fn main() {
    let people: i64 = arg("--people").map_or(10_000, |p| p.parse().expect("--people"));
    let days: i64 = arg("--days").map_or(365, |d| d.parse().expect("--days"));
    let (db, url) = (arg("--db"), arg("--url"));
    let mut env = std::collections::HashMap::from([("WYOMING_ZEROCONF".to_string(), "false".to_string())]);
    match (&db, &url) {
        (Some(db), _) => env.insert("DB_PATH".into(), db.clone()),
        (_, Some(url)) => env.insert("DATABASE_URL".into(), url.clone()),
        _ => panic!("--db FILE (SQLite) or --url URL (PostgreSQL)"),
    };
    let settings = Settings::from_lookup(&|k| env.get(k).cloned()).expect("settings");
    let store = Store::from_settings(&settings).await.expect("store");
    let now = now_ms();
    seed(&store, now, people, days).await;
    let (before, size) = census(&store, db.as_deref()).await;
    println!("before: {TABLES:?} = {before:?}, {size:.0} MiB");
    let idle = turns(store.clone(), Arc::new(tokio::sync::Notify::new()), 200).await;
    println!("a turn's store work, idle: {}", percentiles(&idle));
    let app = App::new(settings, store.clone());
    let stop = Arc::new(tokio::sync::Notify::new());
    let during = tokio::spawn(turns(store.clone(), stop.clone(), usize::MAX));
    let started = Instant::now();
    let purged = voice_gateway::retention::purge_claimed(&app, now)
        .await
        .expect("purge")
        .expect("the lease");
    let took = started.elapsed();
    stop.notify_one();
    let during = during.await.expect("turns");
    println!(
        "purged in {:.1} s: {:?}",
        took.as_secs_f64(),
        purged.iter().map(|(k, n)| (k.as_str(), *n)).collect::<Vec<_>>()
    );
    println!("a turn's store work during the purge: {}", percentiles(&during));
    let (after, size) = census(&store, db.as_deref()).await;
    println!("after: {TABLES:?} = {after:?}, {size:.0} MiB (SQLite gives the pages back to its free list)");
}
