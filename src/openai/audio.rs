//! `POST /v1/audio/speech` and `POST /v1/audio/transcriptions`: the gateway's speech and transcription in
//! OpenAI's shape, with the user's route, quota, text pipeline and fallback chains.
//!
//! Audio formats: speech answers `wav` (the default here; OpenAI's is mp3) or `pcm` (raw 16-bit little-endian
//! mono at 24 kHz, as OpenAI sends it); transcription takes a WAV file (16-bit PCM). Compressed formats (mp3,
//! opus, aac, flac, webm) are refused with a message naming the ones taken.

use axum::Json;
use axum::extract::multipart::{Multipart, MultipartRejection};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::errors::V1Error;
use crate::app::{App, AppState};
use crate::auth::CurrentUser;
use crate::auth::access::OPENAI;
use crate::config::route::Route;
use crate::error::{ApiError, AppJson};
use crate::providers::Stage;
use crate::providers::audio::{parse_wav, to_mono};
use crate::providers::decode::{self, Container};
use crate::providers::encode::{self, Format, OFFERED};
use crate::turn::prompt::language_name;
use crate::turn::{request_layer, speech};

/// OpenAI's voice names: meant for its TTS, and for any other engine the user's own voice.
const OPENAI_VOICES: [&str; 13] = [
    "alloy", "ash", "ballad", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer", "verse", "marin", "cedar",
];

/// The routes; uploads may be up to `audio_limit` bytes.
pub fn router(audio_limit: usize) -> OpenApiRouter<AppState> {
    let (schemas, paths, upload) = routes!(transcriptions);
    OpenApiRouter::new().routes(routes!(speech)).routes((
        schemas,
        paths,
        upload.layer(DefaultBodyLimit::max(audio_limit)),
    ))
}

/// The voice a client names, for the engine the route chose: OpenAI's voice names only for an engine that has
/// them; for any other engine they mean the user's own voice (the route's). Another name is checked like a
/// request's voice.
pub fn voice_for(app: &App, route: &Route, voice: Option<&str>) -> Result<Option<String>, ApiError> {
    let has_them = app.providers.tts.get(route.tts).has_openai_voices();
    match voice.map(str::trim).filter(|v| !v.is_empty()) {
        Some(v) if OPENAI_VOICES.contains(&v) && !has_them => Ok(route.voice.clone()),
        Some(v) => Ok(request_layer(&[("voice", Some(v))])?.voice),
        None => Ok(route.voice.clone()),
    }
}

/// Body of `POST /v1/audio/speech`. `speed` and `instructions` are accepted and not used.
#[derive(Debug, Deserialize, ToSchema)]
struct SpeechBody {
    /// A TTS provider (`espeak`, `piper`, `openai`); any other name (`tts-1`) keeps the user's.
    #[serde(default)]
    model: Option<String>,
    /// The text to speak; it goes through the text pipeline.
    input: String,
    /// A voice of the route's engine; OpenAI's names keep the user's voice unless the engine is `openai`.
    #[serde(default)]
    voice: Option<String>,
    /// `mp3` (default, as OpenAI's), `opus` (Ogg), `flac`, `wav` or `pcm` (16-bit, 24 kHz); `aac` is not offered.
    #[serde(default)]
    response_format: Option<String>,
}

/// Speaks text as OpenAI's speech endpoint does, through the gateway's text pipeline and TTS chain.
#[utoipa::path(post, path = "/v1/audio/speech", tag = OPENAI, request_body = SpeechBody, responses(
    (status = 200, description = "the audio", content((Vec<u8> = "audio/mpeg"), (Vec<u8> = "audio/ogg"), (Vec<u8> = "audio/flac"),
        (Vec<u8> = "audio/wav"), (Vec<u8> = "audio/pcm"))),
    (status = 400, description = "a response_format not offered"),
    (status = 429, description = "the daily quota is used up"), (status = 502, description = "every provider failed")))]
#[tracing::instrument(skip_all, fields(user = %caller.user.name))]
async fn speech(
    State(app): State<AppState>,
    caller: CurrentUser,
    AppJson(body): AppJson<SpeechBody>,
) -> Result<Response, V1Error> {
    let name = body.response_format.as_deref().unwrap_or("mp3");
    let Some(format) = Format::named(name) else {
        return Err(V1Error::new(
            StatusCode::BAD_REQUEST,
            "unsupported_response_format",
            Some("response_format"),
            format!("response_format {name:?} is not offered; use one of {OFFERED}"),
        ));
    };
    let provider = body.model.as_deref().filter(|m| Stage::Tts.parse(m).is_ok());
    let layer = request_layer(&[("tts_provider", provider)])?;
    let (eff, prefs, mut route) = speech::route_alone(&app, &caller.user, layer).await?;
    route.voice = voice_for(&app, &route, body.voice.as_deref())?;
    let said = speech::speak_along(&app, &caller.user, (&eff, &prefs, &route), &body.input).await?;
    let pcm = parse_wav(&said.speech.audio).map_err(|e| ApiError::Upstream(format!("TTS audio: {e}")))?;
    let audio = encode::speech(pcm, format).await.map_err(ApiError::Internal)?;
    let content_type = format.media_type();
    Ok(([(CONTENT_TYPE, HeaderValue::from_static(content_type))], audio).into_response())
}

/// The form of `POST /v1/audio/transcriptions`.
#[derive(ToSchema)]
#[allow(dead_code)]
struct TranscriptionForm {
    /// The audio: WAV (integer or float PCM), MP3, AAC in MP4/M4A, FLAC, Ogg Vorbis, Opus in Ogg or WebM,
    /// told by its bytes.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
    /// An STT provider (`whisper`, `openai`); any other name (`whisper-1`) keeps the user's.
    model: Option<String>,
    /// The language spoken (`en`).
    language: Option<String>,
    /// `json` (default), `text` or `verbose_json`.
    response_format: Option<String>,
}

/// What was heard.
#[derive(Serialize, ToSchema)]
struct Transcription {
    text: String,
}

/// What was heard, with its language (in English words, as OpenAI writes it) and duration.
#[derive(Serialize, ToSchema)]
struct VerboseTranscription {
    /// `transcribe`.
    task: &'static str,
    language: String,
    duration: f64,
    text: String,
    /// Always empty: the engines give no segments here.
    segments: Vec<String>,
}

/// Transcribes an audio file as OpenAI's transcription endpoint does, along the user's STT chain.
#[utoipa::path(post, path = "/v1/audio/transcriptions", tag = OPENAI,
    request_body(content = TranscriptionForm, content_type = "multipart/form-data"),
    responses((status = 200, body = Transcription, description = "`json`; `verbose_json` adds task, language, \
        duration and segments; `text` is plain text"),
        (status = 429, description = "the daily quota is used up"), (status = 502, description = "every provider failed")))]
#[tracing::instrument(skip_all, fields(user = %caller.user.name))]
async fn transcriptions(
    State(app): State<AppState>,
    caller: CurrentUser,
    form: Result<Multipart, MultipartRejection>,
) -> Result<Response, V1Error> {
    let form = read_form(form.map_err(|e| bad_form(&e.body_text()))?).await?;
    let Some(file) = form.file else {
        return Err(V1Error::new(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            Some("file"),
            "file is missing",
        ));
    };
    let format = form.response_format.as_deref().unwrap_or("json");
    if !matches!(format, "json" | "text" | "verbose_json") {
        return Err(V1Error::new(
            StatusCode::BAD_REQUEST,
            "unsupported_response_format",
            Some("response_format"),
            format!("response_format {format:?} is not supported; use json, text or verbose_json"),
        ));
    }
    // A type that names no audio container (clients guess it from the file name) leaves it to the bytes.
    let declared = form.file_type.filter(|t| Container::of_media_type(t).is_some());
    let audio = decode::decode_upload(file, declared, app.settings.limits.audio_secs)
        .await
        .map_err(|e| V1Error::from(ApiError::from(e)).param("file"))?;
    let audio = to_mono(audio);
    if audio.samples.is_empty() {
        return Err(V1Error::new(
            StatusCode::BAD_REQUEST,
            "empty_audio",
            Some("file"),
            "the audio holds no samples",
        ));
    }
    let provider = form.model.as_deref().filter(|m| Stage::Stt.parse(m).is_ok());
    let layer = request_layer(&[("stt_provider", provider), ("language", form.language.as_deref())])?;
    let (text, language, _) = speech::hear(&app, &caller.user, layer, &audio).await?;
    Ok(match format {
        "text" => (
            [(CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"))],
            text,
        )
            .into_response(),
        "verbose_json" => Json(VerboseTranscription {
            task: "transcribe",
            language: language_name(&language).to_ascii_lowercase(),
            duration: audio.duration_secs(),
            text,
            segments: Vec::new(),
        })
        .into_response(),
        _ => Json(Transcription { text }).into_response(),
    })
}

/// The fields of the form that are used; others (`prompt`, `temperature`, …) are read and dropped.
#[derive(Default)]
struct Form {
    file: Option<Vec<u8>>,
    /// The file part's declared type.
    file_type: Option<String>,
    model: Option<String>,
    language: Option<String>,
    response_format: Option<String>,
}

async fn read_form(mut multipart: Multipart) -> Result<Form, V1Error> {
    let mut form = Form::default();
    while let Some(field) = multipart.next_field().await.map_err(|e| bad_form(&e.body_text()))? {
        let name = field.name().unwrap_or_default().to_string();
        if name == "file" {
            form.file_type = field.content_type().map(str::to_ascii_lowercase);
            let bytes = field.bytes().await.map_err(|e| bad_form(&e.body_text()))?;
            form.file = Some(bytes.to_vec());
            continue;
        }
        let value = field.text().await.map_err(|e| bad_form(&e.body_text()))?;
        let value = Some(value.trim().to_string()).filter(|v| !v.is_empty());
        match name.as_str() {
            "model" => form.model = value,
            "language" => form.language = value,
            "response_format" => form.response_format = value,
            _ => {}
        }
    }
    Ok(form)
}

/// A form that cannot be read: too large (413) or not `multipart/form-data` (400).
fn bad_form(problem: &str) -> V1Error {
    if problem.contains("length limit") || problem.contains("too large") {
        return ApiError::PayloadTooLarge.into();
    }
    V1Error::new(
        StatusCode::BAD_REQUEST,
        "invalid_form",
        None,
        format!("send multipart/form-data with a file field: {problem}"),
    )
}
