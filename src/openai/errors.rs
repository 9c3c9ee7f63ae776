//! Errors on `/v1` in OpenAI's shape, `{"error": {"message", "type", "param", "code"}}`, which the SDKs turn into
//! their exception classes by status. The contract's body stays on every other path.
//!
//! The `/v1` handlers answer [`V1Error`] themselves. What answers before or instead of them (an extractor's
//! rejection, the fallback, a panic) answers the contract's error, whose typed [`ErrorDetail`] rides along in
//! the response's extensions; [`translate`] answers that in OpenAI's shape.

use axum::body::Body;
use axum::extract::Request;
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::error::{ApiError, ErrorDetail};

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

    /// The same error, naming the field at fault.
    pub fn param(mut self, field: &str) -> Self {
        self.body.error.param = Some(field.to_string());
        self
    }

    /// The error's body, also the last `data:` payload of an event stream that already began.
    pub fn into_body(self) -> OpenAiErrorBody {
        self.body
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

/// Middleware: a contract error answered on a `/v1` path (an extractor's rejection, the fallback, a panic) is
/// answered in OpenAI's shape instead, with the same status and headers; every other response passes untouched.
pub async fn translate(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let openai = path == "/v1" || path.starts_with("/v1/");
    let mut response = next.run(request).await;
    if !openai {
        return response;
    }
    let Some(error) = response.extensions_mut().remove::<ErrorDetail>() else {
        return response;
    };
    let (mut parts, _contract_body) = response.into_parts();
    // The handlers' own errors name the field at fault; a rejection's message does not say it reliably.
    let translated = V1Error::new(
        parts.status,
        openai_code(parts.status, &error.code),
        None,
        error.message,
    );
    let Ok(body) = serde_json::to_vec(&translated.body) else {
        return translated.into_response();
    };
    parts.headers.remove(CONTENT_LENGTH);
    parts
        .headers
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    Response::from_parts(parts, Body::from(body))
}

#[cfg(test)]
mod tests {
    use axum::Router;
    use axum::body::Body;
    use axum::http::header::RETRY_AFTER;
    use axum::routing::get;
    use serde_json::{Value, json};
    use tower_http::catch_panic::CatchPanicLayer;
    use tower_service::Service;

    use super::*;

    /// The answer of a router with the translation to a GET of `path`: status, `Retry-After`, body.
    async fn answer(path: &str) -> (u16, Option<String>, Value) {
        let mut app = Router::new()
            .route(
                "/v1/rejected",
                get(|| async { ([(RETRY_AFTER, "1")], ApiError::Validation("messages: bad".into())) }),
            )
            .route(
                "/v1/own",
                get(|| async { V1Error::new(StatusCode::NOT_FOUND, "model_not_found", Some("model"), "no") }),
            )
            .route("/v1/boom", get(boom))
            .route("/api/rejected", get(|| async { ApiError::Unauthorized }))
            .layer(CatchPanicLayer::custom(|_| {
                crate::error::error_response(StatusCode::INTERNAL_SERVER_ERROR, "internal", "internal error")
            }))
            .layer(axum::middleware::from_fn(translate));
        let request = Request::get(path).body(Body::empty()).unwrap();
        let response = app.call(request).await.unwrap();
        let status = response.status().as_u16();
        let retry = response
            .headers()
            .get(RETRY_AFTER)
            .map(|v| v.to_str().unwrap().to_string());
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 16).await.unwrap();
        (status, retry, serde_json::from_slice(&bytes).unwrap())
    }

    async fn boom() -> &'static str {
        panic!("a bug")
    }

    #[tokio::test]
    async fn contract_errors_on_v1_are_answered_in_openais_shape_and_others_pass() {
        let error = |message: &str, kind: &str, code: &str| json!({"error": {"message": message, "type": kind, "param": null, "code": code}});
        assert_eq!(
            answer("/v1/rejected").await,
            (
                422,
                Some("1".into()),
                error("messages: bad", "invalid_request_error", "invalid_request")
            ),
            "the status and headers stay"
        );
        assert_eq!(
            answer("/v1/boom").await,
            (500, None, error("internal error", "server_error", "internal"))
        );
        let own = answer("/v1/own").await;
        assert_eq!(
            own.2["error"]["param"], "model",
            "a handler's own error passes untouched"
        );
        let outside = answer("/api/rejected").await;
        assert_eq!(
            outside.2,
            json!({"error": {"status": 401, "code": "unauthorized", "message": "authentication required"}})
        );
    }
}
