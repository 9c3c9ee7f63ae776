//! The one error type every handler returns, and the JSON extractor that turns bad bodies into it.
//!
//! Every REST error has the body fixed by the contract:
//! `{"error": {"status": <int>, "code": "<short_snake_case>", "message": "<text>"}}`.

use axum::Json;
use axum::extract::rejection::{BytesRejection, JsonRejection};
use axum::extract::{FromRequest, Request};
use axum::http::header::RETRY_AFTER;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

pub use crate::guesses::Credential;

/// Handlers return `Result<T>`; the error side becomes the contract's error body.
pub type Result<T, E = ApiError> = std::result::Result<T, E>;

/// The failures a client can meet. Internal causes are logged once and never sent.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed (bad JSON syntax, a forbidden action such as deleting the anonymous user).
    #[error("{message}")]
    BadRequest {
        /// Machine-readable reason.
        code: &'static str,
        /// What the client did wrong.
        message: String,
    },
    /// No or invalid credentials.
    #[error("authentication required")]
    Unauthorized,
    /// A credential that matched nothing: 401, or 404 for an acknowledgement link (which must not tell whether
    /// it ever existed). Counted against the caller's address ([`crate::guesses`]).
    #[error("{}", wrong_credential_message(*.0))]
    WrongCredential(Credential),
    /// The caller's address guessed too often and waits this long.
    #[error("too many failed sign-ins from this address; try again in {} s", .0.as_secs_f64().ceil())]
    Waiting(std::time::Duration),
    /// Authenticated, but not allowed.
    #[error("{0}")]
    Forbidden(String),
    /// The named thing does not exist (or is not the caller's to see).
    #[error("{0} not found")]
    NotFound(&'static str),
    /// The request's values are wrong as a whole (a frame, a form); the message says how.
    #[error("{0}")]
    Validation(String),
    /// One field has a wrong type or value: the body names it (`field`), so that a page says it in the reader's
    /// language; the message starts with it.
    #[error("{field}: {problem}")]
    Invalid {
        /// The field, as the request named it.
        field: String,
        /// What is wrong with it, in English.
        problem: String,
    },
    /// The body is larger than the limit.
    #[error("request body too large")]
    PayloadTooLarge,
    /// The audio decodes to more than `MAX_AUDIO_SECONDS`; the message says so.
    #[error("{0}")]
    AudioTooLong(String),
    /// The body did not arrive within `BODY_READ_TIMEOUT_SECONDS`.
    #[error("the request body did not arrive in time")]
    RequestTimeout,
    /// The daily quota is used up.
    #[error("{0}")]
    TooManyRequests(String),
    /// The same work for the same person runs already (an export); the message says what.
    #[error("{0}")]
    Busy(String),
    /// A provider failed; the message names it.
    #[error("{0}")]
    Upstream(String),
    /// The gateway is at a capacity limit; try again in a moment.
    #[error("{0}")]
    Overloaded(String),
    /// The `Accept` header names no format the endpoint offers; the message lists them.
    #[error("{0}")]
    NotAcceptable(String),
    /// The request conflicts with the current state.
    #[error("{0}")]
    Conflict(String),
    /// A bug or an unavailable store; the cause is logged, not sent.
    #[error("internal error")]
    Internal(String),
}

impl ApiError {
    /// A 422 whose message starts with the offending field.
    pub fn invalid(field: &str, problem: impl std::fmt::Display) -> Self {
        Self::Invalid {
            field: field.to_string(),
            problem: problem.to_string(),
        }
    }

    /// The HTTP status and the error code of the contract's body.
    pub fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            Self::BadRequest { code, .. } => (StatusCode::BAD_REQUEST, code),
            Self::Unauthorized => (StatusCode::UNAUTHORIZED, "unauthorized"),
            Self::WrongCredential(Credential::Ack | Credential::Care) => (StatusCode::NOT_FOUND, "not_found"),
            Self::WrongCredential(_) => (StatusCode::UNAUTHORIZED, "unauthorized"),
            Self::Waiting(_) => (StatusCode::TOO_MANY_REQUESTS, "too_many_attempts"),
            Self::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
            Self::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            Self::Validation(_) | Self::Invalid { .. } => (StatusCode::UNPROCESSABLE_ENTITY, "invalid_request"),
            Self::PayloadTooLarge => (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large"),
            Self::AudioTooLong(_) => (StatusCode::PAYLOAD_TOO_LARGE, "audio_too_long"),
            Self::RequestTimeout => (StatusCode::REQUEST_TIMEOUT, "request_timeout"),
            Self::TooManyRequests(_) => (StatusCode::TOO_MANY_REQUESTS, "quota_exceeded"),
            Self::Busy(_) => (StatusCode::TOO_MANY_REQUESTS, "busy"),
            Self::Upstream(_) => (StatusCode::BAD_GATEWAY, "provider_failed"),
            Self::Conflict(_) => (StatusCode::CONFLICT, "conflict"),
            Self::NotAcceptable(_) => (StatusCode::NOT_ACCEPTABLE, "not_acceptable"),
            Self::Overloaded(_) => (StatusCode::SERVICE_UNAVAILABLE, "overloaded"),
            Self::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }
}

/// The contract's error body: `{"error": {"status", "code", "message"}}`.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[schema(as = Error)]
pub struct ErrorBody {
    /// What went wrong.
    pub error: ErrorDetail,
}

/// The error itself. Every error response also carries it in its extensions, so that a layer can answer the
/// same error in another shape (OpenAI's on `/v1`, [`crate::openai::errors`]) without reading the body back.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct ErrorDetail {
    /// The HTTP status, repeated.
    pub status: u16,
    /// A stable code (`invalid_request`, `quota_exceeded`, …).
    pub code: String,
    /// A text for people.
    pub message: String,
    /// The field a 422 is about, as the request named it (`emergency_contacts`); absent otherwise. Pages say
    /// the error in the reader's language by it and by `code`; `message` stays English.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

/// Builds the contract's error body for any status; also used by fallbacks and middleware.
pub fn error_response(status: StatusCode, code: &str, message: &str) -> Response {
    detail_response(ErrorDetail {
        status: status.as_u16(),
        code: code.to_string(),
        message: message.to_string(),
        field: None,
    })
}

/// The contract's error body of `error`, which also rides along in the response's extensions.
fn detail_response(error: ErrorDetail) -> Response {
    let status = StatusCode::from_u16(error.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = (status, Json(ErrorBody { error: error.clone() })).into_response();
    response.extensions_mut().insert(error);
    response
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        if let Self::Internal(cause) = &self {
            tracing::error!(%cause, "internal error");
        }
        let mut response = detail_response(ErrorDetail {
            status: status.as_u16(),
            code: code.to_string(),
            message: self.to_string(),
            field: match &self {
                Self::Invalid { field, .. } => Some(field.clone()),
                _ => None,
            },
        });
        match self {
            Self::WrongCredential(credential) => {
                response.extensions_mut().insert(credential);
            }
            Self::Waiting(wait) => {
                let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
                response.headers_mut().insert(RETRY_AFTER, HeaderValue::from(seconds));
            }
            _ => {}
        }
        response
    }
}

fn wrong_credential_message(credential: Credential) -> &'static str {
    match credential {
        Credential::Ack | Credential::Care => "acknowledgement link not found",
        _ => "authentication required",
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(err: sqlx::Error) -> Self {
        Self::Internal(format!("store: {err}"))
    }
}

/// `Json<T>` whose rejections (bad syntax, wrong types, missing content type, too large) use the contract body.
pub struct AppJson<T>(pub T);

impl<S, T> FromRequest<S> for AppJson<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(Self(value)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    if let JsonRejection::BytesRejection(unread) = rejection {
        return ApiError::from(unread);
    }
    let message = rejection.body_text();
    match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::PayloadTooLarge,
        StatusCode::UNPROCESSABLE_ENTITY => ApiError::Validation(message),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::BadRequest {
            code: "unsupported_media_type",
            message: "expected a JSON body with Content-Type: application/json".into(),
        },
        _ => ApiError::BadRequest {
            code: "malformed_json",
            message,
        },
    }
}

/// A body that could not be read: too large (413), too slow (408), or broken off (400).
impl From<BytesRejection> for ApiError {
    fn from(rejection: BytesRejection) -> Self {
        if timed_out(&rejection) {
            return Self::RequestTimeout;
        }
        match rejection.status() {
            StatusCode::PAYLOAD_TOO_LARGE => Self::PayloadTooLarge,
            _ => Self::BadRequest {
                code: "bad_body",
                message: rejection.body_text(),
            },
        }
    }
}

/// Whether the body timeout (`tower_http`'s) is among an error's causes.
fn timed_out(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(err);
    while let Some(e) = cause {
        if e.is::<tower_http::timeout::TimeoutError>() {
            return true;
        }
        cause = e.source();
    }
    false
}

/// `Query<T>` whose rejection (a value of the wrong type) is a 422 with the contract body.
pub struct AppQuery<T>(pub T);

impl<S, T> axum::extract::FromRequestParts<S> for AppQuery<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(Self(value)),
            Err(rejection) => Err(ApiError::Validation(rejection.body_text())),
        }
    }
}

/// A WebSocket route asked without a WebSocket handshake.
impl From<axum::extract::ws::rejection::WebSocketUpgradeRejection> for ApiError {
    fn from(rejection: axum::extract::ws::rejection::WebSocketUpgradeRejection) -> Self {
        ApiError::BadRequest {
            code: "websocket_expected",
            message: format!("this is a WebSocket endpoint: {}", rejection.body_text()),
        }
    }
}

/// An absent body (no `Content-Type`, or empty) is `None`; a present one must be valid JSON.
impl<S, T> axum::extract::OptionalFromRequest<S> for AppJson<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Option<Self>, Self::Rejection> {
        let headers = req.headers();
        let empty = headers
            .get(axum::http::header::CONTENT_LENGTH)
            .is_some_and(|v| v == "0");
        if empty || !headers.contains_key(axum::http::header::CONTENT_TYPE) {
            return Ok(None);
        }
        <Self as FromRequest<S>>::from_request(req, state).await.map(Some)
    }
}
