//! The OpenAI-compatible API under `/v1`, so that clients, SDKs and agent frameworks that speak OpenAI's protocol
//! use the gateway with a user's token as their API key: models, chat completions (streamed or whole), speech
//! and transcription. Each request is the user's: their route, memories, quota and costs. Errors on these paths
//! use OpenAI's shape ([`errors`]). [`realtime`] speaks OpenAI's Realtime protocol over WebSocket.

pub mod audio;
pub mod chat;
pub mod errors;
pub mod models;
pub mod realtime;

use utoipa_axum::router::OpenApiRouter;

use crate::app::AppState;

/// The `/v1` routes; audio uploads may be up to `audio_limit` bytes.
pub fn router(audio_limit: usize) -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(models::router())
        .merge(chat::router())
        .merge(audio::router(audio_limit))
        .merge(realtime::router())
}
