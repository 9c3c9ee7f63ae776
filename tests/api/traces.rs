//! Traces of a turn reach a real OTLP endpoint: the program, started as an operator starts it with
//! `OTEL_EXPORTER_OTLP_ENDPOINT`, exports its spans by OTLP/HTTP (protobuf) to a receiver in the test that
//! decodes them with the `opentelemetry-proto` messages.

use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State;
use axum::routing::post;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message;
use serde_json::json;

use crate::common::{eventually, free_port};
use crate::fakes::{CHAT, Fake, tokens};

const BIN: &str = env!("CARGO_BIN_EXE_voice-gateway");
const ADMIN_KEY: &str = "traces-admin-key-0123456789abcdef";

/// Spans received so far.
type Received = Arc<Mutex<Vec<Span>>>;

async fn receive(State(spans): State<Received>, body: Bytes) -> &'static str {
    let request = ExportTraceServiceRequest::decode(body).expect("a protobuf ExportTraceServiceRequest");
    let mut spans = spans.lock().unwrap();
    for resource in request.resource_spans {
        for scope in resource.scope_spans {
            spans.extend(scope.spans);
        }
    }
    ""
}

/// A span's attribute as text.
fn attribute(span: &Span, key: &str) -> Option<String> {
    let value = span
        .attributes
        .iter()
        .find(|a| a.key == key)?
        .value
        .as_ref()?
        .value
        .as_ref()?;
    Some(match value {
        Any::StringValue(s) => s.clone(),
        Any::IntValue(i) => i.to_string(),
        Any::BoolValue(b) => b.to_string(),
        other => format!("{other:?}"),
    })
}

#[tokio::test]
async fn a_turn_is_exported_as_a_trace_with_its_model_call_and_speech_and_no_words_or_secrets() {
    let spans: Received = Arc::default();
    let receiver = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let endpoint = format!("http://{}", receiver.local_addr().unwrap());
    let app = axum::Router::new()
        .route("/v1/traces", post(receive))
        .with_state(spans.clone());
    tokio::spawn(async move { axum::serve(receiver, app).await });
    let llm = Fake::start().await;
    llm.always(CHAT, tokens(&["It is ", "three degrees."]));

    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut child = Command::new(BIN)
        .current_dir(dir.path())
        .env("ENGINES", "off")
        .env("LISTEN_ADDR", format!("127.0.0.1:{port}"))
        .env("ADMIN_API_KEY", ADMIN_KEY)
        .env("LOCAL_LLM_URL", llm.v1())
        .env("DEFAULT_LLM_PROVIDER", "local")
        .env("DEFAULT_TTS_PROVIDER", "espeak")
        .env("MEMORY_EXTRACTION_ENABLED", "false")
        .env("WEB_SEARCH_ENABLED", "false")
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint)
        .env("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
        .env("OTEL_BSP_SCHEDULE_DELAY", "200")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    eventually("the gateway to start", 30, || async {
        client.get(format!("{base}/health")).send().await.is_ok()
    })
    .await;
    let created: serde_json::Value = client
        .post(format!("{base}/api/admin/users"))
        .header("x-admin-key", ADMIN_KEY)
        .json(&json!({"name": "anna"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = created["token"].as_str().unwrap().to_string();
    let answer = client
        .post(format!("{base}/api/chat"))
        .bearer_auth(&token)
        .json(&json!({"text": "How cold is it in Hamburg?"}))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);

    let got = eventually("the turn's trace", 20, || async {
        let spans = spans.lock().unwrap().clone();
        let has = |name: &str| spans.iter().any(|s| s.name == name);
        (has("turn") && has("llm") && has("speech")).then_some(spans)
    })
    .await;
    let _ = child.kill();
    let _ = child.wait();

    let find = |name: &str| got.iter().find(|s| s.name == name).unwrap();
    let (turn, llm_call, speech) = (find("turn"), find("llm"), find("speech"));
    assert_eq!(llm_call.trace_id, turn.trace_id, "one trace");
    assert_eq!(
        llm_call.parent_span_id, turn.span_id,
        "the model call is part of the turn"
    );
    assert_eq!(speech.parent_span_id, turn.span_id);
    assert_eq!(attribute(llm_call, "provider").as_deref(), Some("local"));
    assert!(attribute(llm_call, "model").is_some_and(|m| !m.is_empty()));
    assert_eq!(attribute(llm_call, "completion_tokens").as_deref(), Some("2"));
    assert_eq!(attribute(speech, "provider").as_deref(), Some("espeak"));
    assert!(attribute(speech, "chars").is_some());
    // Sizes and names only: nobody's words, token or key.
    for span in &got {
        for a in &span.attributes {
            let value = format!("{:?}", a.value);
            for secret in ["Hamburg", "three degrees", token.as_str(), ADMIN_KEY, "anna"] {
                assert!(!value.contains(secret), "{} of {} carries {secret:?}", a.key, span.name);
            }
        }
    }
}
