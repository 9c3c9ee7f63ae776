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
