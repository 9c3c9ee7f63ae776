//! Operating views of the admin: gateway status, usage statistics, conversations, the database export and
//! the restart.

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Value, json};

use super::admin_users::audit;
use super::sessions::session_json;
use crate::app::AppState;
use crate::auth::Admin;
use crate::error::{ApiError, Result};

/// The routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/admin/status", get(status))
        .route("/api/admin/stats", get(stats))
        .route("/api/admin/conversations", get(conversations))
        .route("/api/admin/conversations/{user_id}", get(user_sessions))
        .route("/api/admin/conversations/{user_id}/{session_id}", get(transcript))
        .route("/api/admin/db-export", get(db_export))
        .route("/api/admin/gateway/restart", post(restart))
}

/// Version, uptime, provider configuration (addresses and whether keys are set, never the keys), GPUs and the
/// runtime metrics.
async fn status(State(app): State<AppState>, _admin: Admin) -> Result<Json<Value>> {
    let eff = app.runtime.effective().await?;
    let s = &app.settings;
    let p = &s.providers;
    Ok(Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "profile": s.profile.as_str(),
        "uptime_seconds": app.started_at.elapsed().as_secs(),
        "database": if app.store.ping().await { "ok" } else { "unavailable" },
        "auth_enabled": s.auth_enabled,
        "providers": {
            "stt": {"default": eff.get("default_stt_provider"), "fallbacks": s.fallbacks.stt,
                "openai": {"url": p.openai_stt_url, "model": p.openai_stt_model, "key_set": p.openai_stt_api_key.is_some()},
                "whisper": {"model_path": p.whisper_model_path, "built_in": false}},
            "llm": {"default": eff.get("default_llm_provider"), "fallbacks": s.fallbacks.llm,
                "local": {"backend": app.providers.local.name(), "url": app.providers.local.v1_url(),
                    "model": eff.get("local_llm_model")},
                "cloud": {"url": p.cloud_llm_url, "model": eff.get("cloud_llm_model"),
                    "key_set": p.cloud_llm_api_key.is_some()}},
            "tts": {"default": eff.get("default_tts_provider"), "fallbacks": s.fallbacks.tts,
                "openai": {"url": p.openai_tts_url, "model": p.openai_tts_model, "configured": p.openai_tts_configured,
                    "unsupported_languages": p.openai_tts_unsupported_languages},
                "piper": {"voice_dir": p.piper_voice_dir, "url": p.piper_url,
                    "voices": app.providers.piper.voices()}, "espeak": {"configured": true}},
            "web_search": {"provider": eff.get("web_search_provider"),
                "configured": app.providers.search.get(eff.get("web_search_provider")).is_some_and(|e| e.configured())},
        },
        "vad": match &app.silero {
            Ok(_) => json!({"engine": "silero", "model": s.ws.silero_vad_model, "setting": s.ws.vad_engine}),
            Err(why) => json!({"engine": "energy", "reason": why, "setting": s.ws.vad_engine}),
        },
        "turn": match &app.smart_turn {
            Ok(_) => json!({"engine": "smart-turn", "model": s.ws.smart_turn_model, "setting": s.ws.turn_engine,
                "check_ms": s.ws.turn_check_ms, "max_silence_ms": s.ws.turn_max_silence_ms}),
            Err(why) => json!({"engine": "silence", "reason": why, "setting": s.ws.turn_engine,
                "silence_ms": s.ws.vad_silence_ms}),
        },
        "emergency": {"smtp": s.smtp.host.is_some(), "twilio": s.emergency.twilio_configured(),
            "webhook": s.emergency.webhook_url.is_some()},
        "gpus": {"setting": s.gpus, "cuda_visible_devices": s.cuda_visible_devices().or_else(|| std::env::var("CUDA_VISIBLE_DEVICES").ok())},
        "metrics": app.metrics.to_json(),
    })))
}

/// Requests per user today and this month, cost this month and in all, and the average cost per request.
async fn stats(State(app): State<AppState>, _admin: Admin) -> Result<Json<Value>> {
    let rows = app.store.usage_by_user().await?;
    let per_request = |cost: f64, requests: i64| if requests > 0 { cost / requests as f64 } else { 0.0 };
    let (mut requests, mut cost_month, mut cost_total) = (0i64, 0.0, 0.0);
    let users: Vec<Value> = rows
        .iter()
        .map(|r| {
            requests += r.requests_month;
            cost_month += r.cost_month;
            cost_total += r.cost_total;
            json!({"user_id": r.user_id, "name": r.name, "requests_today": r.requests_today,
                "requests_month": r.requests_month, "cost_month": r.cost_month,
                "avg_cost_per_request": per_request(r.cost_month, r.requests_month), "cost_total": r.cost_total})
        })
        .collect();
    Ok(Json(json!({
        "month": &crate::store::today()[..7],
        "users": users,
        "total": {"requests_month": requests, "cost_month": cost_month,
            "avg_cost_per_request": per_request(cost_month, requests), "cost_total": cost_total},
    })))
}

/// Every user with their number of sessions and messages.
async fn conversations(State(app): State<AppState>, _admin: Admin) -> Result<Json<Value>> {
    Ok(Json(json!(app.store.conversation_summaries().await?)))
}

/// One user's sessions.
async fn user_sessions(State(app): State<AppState>, _admin: Admin, Path(user_id): Path<String>) -> Result<Json<Value>> {
    let user = app
        .store
        .user_by_id(&user_id)
        .await?
        .ok_or(ApiError::NotFound("user"))?;
    let sessions = app.store.sessions(&user.id).await?;
    Ok(Json(json!({
        "user": {"id": user.id, "name": user.name, "display_name": user.display_name},
        "sessions": sessions.iter().map(session_json).collect::<Vec<_>>(),
    })))
}

/// One session's transcript. Reading someone's conversation is audited.
async fn transcript(
    State(app): State<AppState>,
    admin: Admin,
    Path((user_id, session_id)): Path<(String, String)>,
) -> Result<Json<Value>> {
    let session = app
        .store
        .session(&session_id)
        .await?
        .filter(|s| s.user_id == user_id)
        .ok_or(ApiError::NotFound("session"))?;
    let messages = app.store.messages(&session.id).await?;
    audit(
        &app,
        &admin,
        "conversation.read",
        &session.id,
        json!({"user_id": user_id}),
    )
    .await?;
    let mut body = session_json(&session);
    body["messages"] = json!(messages);
    Ok(Json(body))
}

/// A consistent snapshot of the database (`VACUUM INTO` a temporary file while writes go on), downloaded as
/// a file that the `sqlite3` tool opens.
async fn db_export(State(app): State<AppState>, admin: Admin) -> Result<Response> {
    let dir = tempfile::tempdir().map_err(|e| ApiError::Internal(format!("export folder: {e}")))?;
    let path = dir.path().join("export.db");
    app.store.snapshot_to(&path).await?;
    let bytes = tokio::fs::read(&path)
        .await
        .map_err(|e| ApiError::Internal(format!("reading the export: {e}")))?;
    audit(&app, &admin, "db.export", "database", json!({"bytes": bytes.len()})).await?;
    let name = format!("voice-gateway-{}.db", chrono::Local::now().format("%Y%m%d-%H%M%S"));
    Ok((
        [
            (CONTENT_TYPE, "application/vnd.sqlite3".to_string()),
            (CONTENT_DISPOSITION, format!("attachment; filename=\"{name}\"")),
        ],
        Body::from(bytes),
    )
        .into_response())
}

/// Answers first, then restarts: with `RESTART_COMMAND` that command runs detached (no shell, no user input in
/// it); without, the gateway stops serving gracefully and `main` executes itself again.
async fn restart(State(app): State<AppState>, admin: Admin) -> Result<Json<Value>> {
    let how = if app.settings.restart_command.is_some() {
        "command"
    } else {
        "re-exec"
    };
    audit(&app, &admin, "gateway.restart", "gateway", json!({"how": how})).await?;
    let state = app.clone();
    tokio::spawn(async move {
        // Let the answer leave first.
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        match &state.settings.restart_command {
            Some(parts) => {
                let spawned = std::process::Command::new(&parts[0])
                    .args(&parts[1..])
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .spawn();
                match spawned {
                    // Detached: it outlives this process when it restarts us; reap it in the background.
                    Ok(mut child) => {
                        let _ = tokio::task::spawn_blocking(move || child.wait()).await;
                    }
                    Err(err) => tracing::error!(%err, "the restart command could not be started"),
                }
            }
            None => {
                let _ = state.restart.send(true);
            }
        }
    });
    Ok(Json(json!({"restarting": true, "how": how})))
}
