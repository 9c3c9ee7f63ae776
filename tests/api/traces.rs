//! Traces of a turn reach a real OTLP endpoint: the program, started as an operator starts it with
//! `OTEL_EXPORTER_OTLP_ENDPOINT`, exports its spans by OTLP/HTTP (protobuf) or OTLP/gRPC to a receiver in the
//! test built on the `opentelemetry-proto` messages and service.

use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State;
use axum::routing::post;
use futures_util::{SinkExt, StreamExt};
use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{TraceService, TraceServiceServer};
use opentelemetry_proto::tonic::collector::trace::v1::{ExportTraceServiceRequest, ExportTraceServiceResponse};
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message as _;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

use crate::common::{eventually, free_port};
use crate::fakes::{CHAT, Fake, Reply, tokens};

/// The fake recogniser's endpoint.
const STT: &str = "/v1/audio/transcriptions";

const BIN: &str = env!("CARGO_BIN_EXE_voice-gateway");
const ADMIN_KEY: &str = "traces-admin-key-0123456789abcdef";

/// Spans received so far.
type Received = Arc<Mutex<Vec<Span>>>;

fn keep(spans: &Received, request: ExportTraceServiceRequest) {
    let mut spans = spans.lock().unwrap();
    for resource in request.resource_spans {
        for scope in resource.scope_spans {
            spans.extend(scope.spans);
        }
    }
}

/// OTLP/HTTP: `POST /v1/traces` with the protobuf body.
async fn receive(State(spans): State<Received>, body: Bytes) -> &'static str {
    keep(
        &spans,
        ExportTraceServiceRequest::decode(body).expect("a protobuf ExportTraceServiceRequest"),
    );
    ""
}

/// OTLP/gRPC: the collector's trace service.
struct Collector(Received);

#[tonic::async_trait]
impl TraceService for Collector {
    async fn export(
        &self,
        request: tonic::Request<ExportTraceServiceRequest>,
    ) -> Result<tonic::Response<ExportTraceServiceResponse>, tonic::Status> {
        keep(&self.0, request.into_inner());
        Ok(tonic::Response::new(ExportTraceServiceResponse::default()))
    }
}

/// A receiver of `protocol` (`http/protobuf` or `grpc`) on a free port: its address and what it received.
async fn receiver(protocol: &str) -> (String, Received) {
    let spans: Received = Arc::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    if protocol == "grpc" {
        let service = TraceServiceServer::new(Collector(spans.clone()));
        let incoming = tonic::transport::server::TcpIncoming::from(listener);
        tokio::spawn(
            tonic::transport::Server::builder()
                .add_service(service)
                .serve_with_incoming(incoming),
        );
    } else {
        let app = axum::Router::new()
            .route("/v1/traces", post(receive))
            .with_state(spans.clone());
        tokio::spawn(async move { axum::serve(listener, app).await });
    }
    (endpoint, spans)
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
async fn a_turn_is_exported_by_otlp_http_with_its_model_call_and_speech_and_no_words_or_secrets() {
    exported_turn("http/protobuf").await;
}

#[tokio::test]
async fn a_turn_is_exported_by_otlp_grpc_alike() {
    exported_turn("grpc").await;
}

/// A gateway exporting by `protocol` answers one question; its trace has the turn, the model call and the
/// speech, related, with providers, model and sizes, and no words, token or key.
async fn exported_turn(protocol: &str) {
    let (endpoint, spans) = receiver(protocol).await;
    let llm = Fake::start().await;
    llm.always(CHAT, tokens(&["It is ", "three degrees."]));
    let stt = Fake::start().await;
    stt.always(STT, Reply::Json(json!({"text": "How cold is it in Hamburg?"})));

    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut child = Command::new(BIN)
        .current_dir(dir.path())
        .env("ENGINES", "off")
        .env("LISTEN_ADDR", format!("127.0.0.1:{port}"))
        .env("ADMIN_API_KEY", ADMIN_KEY)
        .env("LOCAL_LLM_URL", llm.v1())
        .env("OPENAI_STT_URL", stt.v1())
        .env("DEFAULT_STT_PROVIDER", "openai")
        .env("DEFAULT_LLM_PROVIDER", "local")
        .env("DEFAULT_TTS_PROVIDER", "espeak")
        .env("MEMORY_EXTRACTION_ENABLED", "false")
        .env("WEB_SEARCH_ENABLED", "false")
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint)
        .env("OTEL_EXPORTER_OTLP_PROTOCOL", protocol)
        .env("OTEL_BSP_SCHEDULE_DELAY", "200")
        // The log's filter is the log's: a quieter log still exports every turn.
        .env("RUST_LOG", "warn")
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
    // The same question spoken over /ws/voice, ended by the client.
    let url = format!("ws://127.0.0.1:{port}/ws/voice?token={token}");
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.expect("handshake");
    let start = json!({"type": "start", "text_only": true});
    ws.send(Message::Text(start.to_string().into())).await.unwrap();
    let audio: Vec<u8> = (0..8000i16).flat_map(|i| ((i % 40 - 20) * 500).to_le_bytes()).collect();
    ws.send(Message::Binary(audio.into())).await.unwrap();
    ws.send(Message::Text(json!({"type": "end"}).to_string().into()))
        .await
        .unwrap();
    while let Some(Ok(frame)) = ws.next().await {
        if let Message::Text(text) = frame
            && text.contains(r#""type":"done""#)
        {
            break;
        }
    }

    let got = eventually("the turn's trace", 20, || async {
        let spans = spans.lock().unwrap().clone();
        let has = |name: &str| spans.iter().any(|s| s.name == name);
        (has("turn") && has("llm") && has("speech") && has("voice_turn") && has("transcription")).then_some(spans)
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
    // The spoken turn: the end of the turn and the transcription, then the turn, under one voice turn.
    let voice = find("voice_turn");
    let heard = find("transcription");
    assert_eq!(heard.parent_span_id, voice.span_id);
    assert_eq!(attribute(heard, "provider").as_deref(), Some("openai"));
    assert_eq!(attribute(heard, "audio_ms").as_deref(), Some("500"));
    let ended = got
        .iter()
        .find(|s| s.name == "end_of_turn")
        .expect("the end of the turn");
    assert_eq!(ended.parent_span_id, voice.span_id);
    assert!(
        got.iter()
            .any(|s| s.name == "turn" && s.parent_span_id == voice.span_id),
        "the spoken turn's answer is part of it"
    );
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
