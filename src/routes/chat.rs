//! `POST /api/chat` (a turn), `POST /api/speak` (text to audio) and `POST /api/transcribe` (audio to text).

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::header::{ACCEPT, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::openapi::USER;

use crate::app::{App, AppState};
use crate::auth::CurrentUser;
use crate::error::{ApiError, AppJson, AppQuery, Result};
use crate::providers::audio::{Pcm, parse_wav, to_mono};
use crate::providers::decode::{self, Container};
use crate::providers::encode::{self, Format};
use crate::providers::{SttId, TtsId};
use crate::turn::semantic::Semantic;
use crate::turn::{self, TurnOptions, TurnOutcome, TurnRequest, check_text, owned, request_layer, speech};

/// The routes; audio uploads may be up to `audio_limit` bytes.
pub fn router(audio_limit: usize) -> OpenApiRouter<AppState> {
    let (schemas, paths, upload) = routes!(transcribe);
    OpenApiRouter::new()
        .routes(routes!(chat))
        .routes(routes!(speak))
        .routes((schemas, paths, upload.layer(DefaultBodyLimit::max(audio_limit))))
}

/// Body of `POST /api/chat`.
#[derive(Debug, Deserialize, ToSchema)]
struct ChatBody {
    text: String,
    session_id: Option<String>,
    #[serde(flatten)]
    options: TurnOptions,
    #[serde(default)]
    text_only: bool,
}

/// Query of `POST /api/chat`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct ChatQuery {
    /// `?debug` (or `debug=true`) adds `history_len` and `memories_len`.
    debug: Option<String>,
}

/// The answer of a turn.
#[derive(Serialize, ToSchema)]
struct ChatAnswer {
    text: String,
    session_id: Option<String>,
    semantic: Semantic,
    /// The spoken answer, base64; null with `text_only`.
    audio: Option<String>,
    /// `wav`.
    audio_format: Option<&'static str>,
    /// With `?debug`: history messages sent to the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    history_len: Option<usize>,
    /// With `?debug`: memories sent to the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    memories_len: Option<usize>,
    /// The help dialogue answered a typed call for help (or the answer to its question) instead of the model:
    /// `asked`, `declined`, or the alarm's outcome (`alerted`, `no_recipients`, `delivery_failed`, `cooldown`).
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<String>,
}

/// One turn: the answer as text, its semantic result and the spoken answer (base64 WAV) unless text_only.
#[utoipa::path(post, path = "/api/chat", tag = USER, params(ChatQuery), request_body = ChatBody, responses(
    (status = 200, body = ChatAnswer), (status = 404, description = "no such session of the caller's (another user's answers the same)"),
    (status = 429, description = "the daily quota is used up"), (status = 502, description = "every provider failed")))]
#[tracing::instrument(skip_all, fields(user = %caller.user.name))]
async fn chat(
    State(app): State<AppState>,
    caller: CurrentUser,
    AppQuery(query): AppQuery<ChatQuery>,
    AppJson(body): AppJson<ChatBody>,
) -> Result<Json<ChatAnswer>> {
    check_text(&body.text)?;
    let layer = body.options.layer()?;
    let session = match &body.session_id {
        Some(id) => Some(owned(&app, &caller.user, id).await?),
        None => None,
    };
    let request = TurnRequest {
        text: body.text,
        session,
        layer,
        text_only: body.text_only,
        typed: Some("api"),
        ..TurnRequest::default()
    };
    let outcome = turn::run(&app.0, &caller.user, request, None).await?;
    let debug = query.debug.is_some_and(|d| d != "false" && d != "0");
    let mut said = answer(&outcome, body.session_id, debug);
    // A notice once per conversation, as a connection tells it: again only when what it says changes.
    if let (Some(session), Some(notice)) = (&said.session_id, &said.semantic.notice)
        && !crate::voice::phrases::first_in(session, notice)
    {
        said.semantic.notice = None;
    }
    Ok(Json(said))
}

/// The contract's answer shape.
fn answer(outcome: &TurnOutcome, session_id: Option<String>, debug: bool) -> ChatAnswer {
    ChatAnswer {
        text: outcome.text.clone(),
        session_id,
        semantic: Semantic::of(outcome, outcome.tts_fallback),
        audio: outcome
            .audio
            .as_ref()
            .map(|s| base64::engine::general_purpose::STANDARD.encode(&s.audio)),
        audio_format: outcome.audio.as_ref().map(|s| s.format),
        history_len: debug.then_some(outcome.history_len),
        memories_len: debug.then_some(outcome.memories_len),
        help: outcome.help.as_ref().map(|h| h.status.clone()),
    }
}

/// Body of `POST /api/speak`.
#[derive(Debug, Deserialize, ToSchema)]
struct SpeakBody {
    text: String,
    voice: Option<String>,
    language: Option<String>,
    /// The TTS provider (`tts_provider` is accepted too).
    #[serde(alias = "tts_provider")]
    #[schema(value_type = Option<TtsId>)]
    provider: Option<String>,
    /// `wav` (16-bit PCM, the default), `mp3`, `opus` (Ogg) or `flac`; without it the `Accept` header chooses.
    #[schema(value_type = Option<SpeakFormat>)]
    format: Option<String>,
}

/// The formats `/api/speak` answers in.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code)]
enum SpeakFormat {
    Wav,
    Mp3,
    Opus,
    Flac,
}

const SPEAK_FORMATS: [Format; 4] = [Format::Wav, Format::Mp3, Format::Opus, Format::Flac];

/// Speaks text through the text pipeline; answers the audio itself, WAV unless the `format` field or the
/// `Accept` header asks for MP3, Ogg Opus or FLAC. `X-TTS-Provider` names the engine and
/// `X-TTS-Fallback: true` says the local voice stood in for one that cannot speak the language.
#[utoipa::path(post, path = "/api/speak", tag = USER, request_body = SpeakBody, responses(
    (status = 200, description = "the audio: WAV (16-bit PCM), MP3, Ogg Opus or FLAC", content(
        (Vec<u8> = "audio/wav"), (Vec<u8> = "audio/mpeg"), (Vec<u8> = "audio/ogg"), (Vec<u8> = "audio/flac")),
        headers(("x-tts-provider" = String, description = "the engine that spoke"),
        ("x-tts-fallback" = bool, description = "the local voice stood in"))),
    (status = 400, description = "a format not offered"),
    (status = 406, description = "the Accept header names no offered format"),
    (status = 429, description = "the daily quota is used up"), (status = 502, description = "every provider failed")))]
#[tracing::instrument(skip_all, fields(user = %caller.user.name))]
async fn speak(
    State(app): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    AppJson(body): AppJson<SpeakBody>,
) -> Result<Response> {
    check_text(&body.text)?;
    let offered = "wav, mp3, opus, flac";
    let format = match body.format.as_deref() {
        Some(name) => Format::named(name)
            .filter(|f| SPEAK_FORMATS.contains(f))
            .ok_or_else(|| ApiError::BadRequest {
                code: "unsupported_format",
                message: format!("format {name:?} is not offered; use one of {offered}"),
            })?,
        None => {
            let accept = headers.get(ACCEPT).and_then(|v| v.to_str().ok());
            encode::accepted(accept, &SPEAK_FORMATS, Format::Wav).ok_or_else(|| {
                ApiError::NotAcceptable(format!("the Accept header names no format offered: {offered}"))
            })?
        }
    };
    let layer = request_layer(&[
        ("tts_provider", body.provider.as_deref()),
        ("voice", body.voice.as_deref()),
        ("language", body.language.as_deref()),
    ])?;
    let said = speech::speak(&app, &caller.user, layer, &body.text).await?;
    let audio = if format == Format::Wav {
        said.speech.audio
    } else {
        let pcm = parse_wav(&said.speech.audio).map_err(|e| ApiError::Upstream(format!("TTS audio: {e}")))?;
        encode::speech(pcm, format).await.map_err(ApiError::Internal)?
    };
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(format.media_type()));
    if let Ok(v) = HeaderValue::from_str(said.provider.as_str()) {
        headers.insert("x-tts-provider", v);
    }
    headers.insert(
        "x-tts-fallback",
        HeaderValue::from_static(if said.language_fallback { "true" } else { "false" }),
    );
    Ok((StatusCode::OK, headers, audio).into_response())
}

/// Query of `POST /api/transcribe`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct TranscribeQuery {
    language: Option<String>,
    /// The STT provider.
    #[param(value_type = Option<SttId>)]
    provider: Option<String>,
    /// Sample rate of raw PCM bodies (default 16000).
    sample_rate: Option<u32>,
}

/// Audio bytes, as uploaded.
#[derive(ToSchema)]
#[schema(value_type = String, format = Binary)]
#[allow(dead_code)]
struct Audio(Vec<u8>);

/// What was heard.
#[derive(Serialize, ToSchema)]
struct Transcription {
    text: String,
    language: String,
    /// `stt:<id>` of each provider that failed before one answered.
    provider_fallbacks: Vec<String>,
    duration_seconds: f64,
}

/// Transcribes an audio file (WAV in any sample format, MP3, AAC in MP4/M4A or ADTS, FLAC, Ogg Vorbis, Opus in
/// Ogg or WebM; told by its bytes) or raw 16-bit little-endian mono PCM (`audio/L16`, or `application/octet-stream` that is no file).
#[utoipa::path(post, path = "/api/transcribe", tag = USER, params(TranscribeQuery),
    request_body(description = "an audio file (WAV, MP3, M4A/MP4, AAC, FLAC, Ogg Vorbis, Ogg or WebM Opus) with \
        its type (`audio/wav`, `audio/mpeg`, `audio/mp4`, `audio/aac`, `audio/flac`, `audio/ogg`, `audio/webm`) or as \
        `application/octet-stream`, or raw 16-bit PCM (`audio/L16`; `rate=` or `?sample_rate=`, default 16000)",
        content((Audio = "audio/wav"), (Audio = "audio/L16"), (Audio = "application/octet-stream"))),
    responses((status = 200, body = Transcription),
        (status = 400, description = "empty, broken or unsupported audio, a declared type the bytes contradict, \
            or a media type that is no audio"),
        (status = 408, description = "the upload was too slow"),
        (status = 413, description = "larger than AUDIO_LIMIT_BYTES, or longer than MAX_AUDIO_SECONDS"),
        (status = 429, description = "the daily quota is used up"), (status = 502, description = "every provider failed")))]
#[tracing::instrument(skip_all, fields(user = %caller.user.name))]
async fn transcribe(
    State(app): State<AppState>,
    caller: CurrentUser,
    AppQuery(query): AppQuery<TranscribeQuery>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Transcription>> {
    let body = body?;
    let audio = read_audio(&app, &headers, body.to_vec(), query.sample_rate).await?;
    let layer = request_layer(&[
        ("stt_provider", query.provider.as_deref()),
        ("language", query.language.as_deref()),
    ])?;
    let (text, language, fallbacks) = speech::hear(&app, &caller.user, layer, &audio).await?;
    Ok(Json(Transcription {
        text,
        language,
        provider_fallbacks: fallbacks,
        duration_seconds: audio.duration_secs(),
    }))
}

/// The upload as mono PCM: a file in any format [`decode`] reads (recognised from its bytes, and agreeing with
/// a declared audio type), or raw 16-bit PCM as `audio/L16` (or `application/octet-stream` that is no file).
async fn read_audio(app: &App, headers: &HeaderMap, body: Vec<u8>, sample_rate: Option<u32>) -> Result<Pcm> {
    let content_type = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    let mime = content_type.split(';').next().unwrap_or("").trim().to_string();
    if body.is_empty() {
        return Err(ApiError::BadRequest {
            code: "empty_audio",
            message: "the audio is empty".into(),
        });
    }
    let raw = matches!(mime.as_str(), "audio/l16" | "audio/pcm")
        || (matches!(mime.as_str(), "application/octet-stream" | "") && Container::sniff(&body).is_none());
    let pcm = if raw {
        let rate = rate_param(&content_type).or(sample_rate).unwrap_or(16_000);
        if !(8_000..=96_000).contains(&rate) {
            return Err(ApiError::invalid("sample_rate", "expected 8000 to 96000"));
        }
        Pcm::from_le_bytes(&body, rate).map_err(|e| ApiError::invalid("audio", e))?
    } else if mime.is_empty() || mime == "application/octet-stream" || Container::of_media_type(&mime).is_some() {
        let declared = Some(mime).filter(|m| !m.is_empty());
        decode::decode_upload(body, declared, app.settings.limits.audio_secs).await?
    } else {
        return Err(ApiError::BadRequest {
            code: "unsupported_media_type",
            message: format!(
                "{mime} is no audio type the gateway reads; send {} with its type (or application/octet-stream), or raw 16-bit PCM as audio/L16",
                decode::TAKEN
            ),
        });
    };
    let pcm = to_mono(pcm);
    if pcm.samples.is_empty() {
        return Err(ApiError::BadRequest {
            code: "empty_audio",
            message: "the audio holds no samples".into(),
        });
    }
    Ok(pcm)
}

/// `rate=` of an `audio/L16; rate=16000` content type.
fn rate_param(content_type: &str) -> Option<u32> {
    content_type
        .split(';')
        .skip(1)
        .find_map(|p| p.trim().strip_prefix("rate=").and_then(|r| r.trim().parse().ok()))
}
