//! Store guarantees the endpoints rely on.

use voice_gateway::store::usage::Counter;

use crate::common::spawn_app;

#[tokio::test]
async fn concurrent_counting_never_passes_the_limit() {
    let app = spawn_app(&[]).await;
    let (id, _) = app.create_user("counter").await;
    let tasks: Vec<_> = (0..40)
        .map(|_| {
            let store = app.store.clone();
            let id = id.clone();
            tokio::spawn(async move { store.count_within(Counter::Requests, &id, 10).await.unwrap() })
        })
        .collect();
    let mut granted = 0;
    for task in tasks {
        if task.await.unwrap().is_some() {
            granted += 1;
        }
    }
    assert_eq!(granted, 10);
    assert_eq!(app.store.count_today(Counter::Requests, &id).await.unwrap(), 10);
    assert_eq!(
        app.store.count_within(Counter::WebSearches, &id, 0).await.unwrap(),
        Some(1),
        "0 = unlimited"
    );
}

#[tokio::test]
async fn concurrent_memory_adds_never_pass_the_cap() {
    // As many connections as adds at once, so that on PostgreSQL they really run side by side.
    let app = spawn_app(&[("DATABASE_MAX_CONNECTIONS", "30")]).await;
    let (id, _) = app.create_user("rememberer").await;
    // Several rounds, each of many adds at once from a new cap: on PostgreSQL two adds that count before either
    // commits would both pass.
    for round in 1..=10u32 {
        let cap = round * 3;
        let start = std::sync::Arc::new(tokio::sync::Barrier::new(30));
        let tasks: Vec<_> = (0..30)
            .map(|i| {
                let (store, id, start) = (app.store.clone(), id.clone(), start.clone());
                tokio::spawn(async move {
                    start.wait().await;
                    store
                        .add_memory(&id, &format!("fact {round}.{i}"), "user", cap)
                        .await
                        .unwrap()
                })
            })
            .collect();
        for task in tasks {
            task.await.unwrap();
        }
        assert_eq!(
            app.store.memories(&id).await.unwrap().len(),
            cap as usize,
            "round {round}"
        );
    }
}

#[tokio::test]
async fn a_write_ahead_log_grown_under_a_long_reader_is_truncated_by_the_checkpoint() {
    let app = spawn_app(&[]).await;
    let (id, _) = app.create_user("writer").await;
    let wal = |app: &crate::common::TestApp| {
        let db: String = app.db_path().display().to_string();
        std::fs::metadata(format!("{db}-wal")).map_or(0, |m| m.len())
    };
    // A reader holding its snapshot keeps every checkpoint from resetting the log.
    let voice_gateway::store::Pool::Sqlite(pool) = &app.store.pool else {
        return; // the write-ahead log is SQLite's
    };
    let mut reader = pool.begin().await.unwrap();
    sqlx::query("SELECT COUNT(*) FROM memories")
        .execute(&mut *reader)
        .await
        .unwrap();
    let text = "x".repeat(4000);
    for _ in 0..1000 {
        app.store.add_memory(&id, &text, "user", 10_000).await.unwrap();
    }
    assert!(
        wal(&app) > 4 << 20,
        "the log grew while the reader held it: {}",
        wal(&app)
    );
    reader.rollback().await.unwrap();

    app.store.checkpoint_over(1 << 20).await.unwrap();

    assert_eq!(wal(&app), 0, "the log is emptied once the reader is gone");
    assert_eq!(app.store.memories(&id).await.unwrap().len(), 1000, "nothing lost");
}
