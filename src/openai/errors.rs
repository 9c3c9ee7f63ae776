//! Errors on `/v1` in OpenAI's shape, `{"error": {"message", "type", "param", "code"}}`, which the SDKs turn into
//! their exception classes by status. The contract's body stays on every other path.

use axum::body::Body;
use axum::extract::Request;
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::Value;

use crate::error::ApiError;

/// Largest error body read back when translating one (the contract's bodies are a few hundred bytes).
const ERROR_BODY_LIMIT: usize = 64 * 1024;

/// OpenAI's error body.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct OpenAiErrorBody {
    /// What went wrong.
    pub error: OpenAiError,
}

/// The error itself.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct OpenAiError {
    /// A text for people.
    pub message: String,
    /// `invalid_request_error`, `insufficient_quota`, `server_error`, …
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The request field at fault, when one is.
    pub param: Option<String>,
    /// A stable code: the contract's code, or OpenAI's where clients test for it (`invalid_api_key`,
    /// `model_not_found`).
    pub code: Option<String>,
}

/// An error of a `/v1` handler.
#[derive(Debug)]
pub struct V1Error {
    status: StatusCode,
    body: OpenAiErrorBody,
}

impl V1Error {
    /// An error with OpenAI's own code and the field at fault.
    pub fn new(status: StatusCode, code: &str, param: Option<&str>, message: impl Into<String>) -> Self {
        Self {
            status,
            body: OpenAiErrorBody {
                error: OpenAiError {
                    message: message.into(),
                    kind: kind_of(status),
                    param: param.map(String::from),
                    code: Some(code.to_string()),
                },
            },
        }
    }

    /// The error as one `data:` payload of an event stream that already began.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(&self.body).unwrap_or_default()
    }
}

impl From<ApiError> for V1Error {
    fn from(err: ApiError) -> Self {
        let (status, code) = err.status_and_code();
        if let ApiError::Internal(cause) = &err {
            tracing::error!(%cause, "internal error");
        }
        let message = err.to_string();
        let param = message
            .split_once(": ")
            .filter(|(field, _)| status == StatusCode::UNPROCESSABLE_ENTITY && !field.contains(' '))
            .map(|(field, _)| field.to_string());
        Self::new(status, openai_code(status, code), param.as_deref(), message)
    }
}

impl IntoResponse for V1Error {
    fn into_response(self) -> Response {
        (self.status, axum::Json(self.body)).into_response()
    }
}

/// OpenAI's error type for a status.
fn kind_of(status: StatusCode) -> &'static str {
    match status.as_u16() {
        401 => "invalid_request_error",
        403 => "permission_error",
        404 => "invalid_request_error",
        429 => "insufficient_quota",
        503 => "overloaded_error",
        s if s >= 500 => "server_error",
        _ => "invalid_request_error",
    }
}

/// The code clients test for where OpenAI has one, else the contract's.
fn openai_code(status: StatusCode, code: &str) -> &str {
    match (status.as_u16(), code) {
        (401, _) => "invalid_api_key",
        (429, "quota_exceeded") => "insufficient_quota",
        _ => code,
    }
}

/// Middleware: a contract error body answered on a `/v1` path (an extractor's rejection, the fallback, a
/// panic) is rewritten in OpenAI's shape; every other response passes untouched.
pub async fn translate(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let openai = path == "/v1" || path.starts_with("/v1/");
    let response = next.run(request).await;
    let is_json = response
        .headers()
        .get(CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !openai || !is_json || !(response.status().is_client_error() || response.status().is_server_error()) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, ERROR_BODY_LIMIT).await else {
        return V1Error::from(ApiError::Internal("unreadable error body".into())).into_response();
    };
    let contract: Value = serde_json::from_slice(&bytes).unwrap_or_default();
    let detail = &contract["error"];
    if detail.get("type").is_some() || detail.get("code").is_none() {
        // Already OpenAI's shape, or not an error body at all.
        return Response::from_parts(parts, Body::from(bytes));
    }
    let code = detail["code"].as_str().unwrap_or("error");
    let message = detail["message"].as_str().unwrap_or("error");
    let translated = V1Error::new(parts.status, openai_code(parts.status, code), None, message);
    let body = serde_json::to_vec(&translated.body).unwrap_or_default();
    parts.headers.remove(CONTENT_LENGTH);
    parts
        .headers
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    Response::from_parts(parts, Body::from(body))
}
