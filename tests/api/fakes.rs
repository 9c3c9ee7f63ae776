//! Fake providers at the network boundary: a small HTTP server per test that speaks the providers' real wire
//! protocols (OpenAI-compatible SSE and JSON, multipart uploads, WAV, SearXNG/Tavily/Brave JSON), records every
//! request it gets, and answers from a script.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

/// A request the fake received.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub query: String,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Recorded {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.headers.get(name).and_then(|v| v.to_str().ok()).map(String::from)
    }

    /// The header of the WAV file inside a multipart upload: (sample rate, channels, bits, seconds).
    pub fn uploaded_wav(&self) -> (u32, u16, u16, f64) {
        let riff = self
            .body
            .windows(4)
            .position(|w| w == b"RIFF")
            .expect("a WAV file in the upload");
        let size = u32::from_le_bytes(self.body[riff + 4..riff + 8].try_into().unwrap()) as usize;
        wav_info(&self.body[riff..riff + 8 + size])
    }

    /// Whether this is a memory-extraction request (its system message asks for durable facts).
    pub fn is_extraction(&self) -> bool {
        self.json()["messages"][0]["content"]
            .as_str()
            .is_some_and(|s| s.contains("extract durable facts"))
    }
}

/// One scripted answer.
#[derive(Clone)]
pub enum Reply {
    /// `text/event-stream` with these `data:` payloads, then `data: [DONE]`.
    Sse(Vec<Value>),
    /// An event stream that sends these payloads and then breaks the connection.
    SseCut(Vec<Value>),
    /// A JSON document.
    Json(Value),
    /// An error status with a body.
    Status(u16, String),
    /// Raw bytes with a content type.
    Bytes(&'static str, Vec<u8>),
    /// Waits until the gate opens, then answers.
    Gated(Arc<Semaphore>, Box<Reply>),
    /// An event stream that sends `first`, waits for the gate, then sends `rest` and `[DONE]`. `closed` is set
    /// when the client drops the connection before the stream ended.
    SseHeld {
        first: Vec<Value>,
        gate: Arc<Semaphore>,
        rest: Vec<Value>,
        closed: Arc<AtomicBool>,
    },
}

/// Sets its flag when dropped before `done` was called: the stream's consumer went away.
struct DropFlag {
    flag: Arc<AtomicBool>,
    done: bool,
}

impl Drop for DropFlag {
    fn drop(&mut self) {
        if !self.done {
            self.flag.store(true, Ordering::SeqCst);
        }
    }
}

type Rule = (Box<dyn Fn(&Recorded) -> bool + Send + Sync>, Reply);

#[derive(Default)]
struct Script {
    queued: HashMap<String, VecDeque<Reply>>,
    always: HashMap<String, Reply>,
    rules: Vec<Rule>,
    seen: Vec<Recorded>,
}

/// A running fake provider.
#[derive(Clone)]
pub struct Fake {
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    script: Arc<Mutex<Script>>,
}

impl Fake {
    pub async fn start() -> Self {
        let script = Arc::new(Mutex::new(Script::default()));
        let app = axum::Router::new().fallback(handle).with_state(script.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self { base, script }
    }

    /// A fake language model whose every chat completion, once the ones a test queues are used, streams
    /// `parts` token by token: the answer most tests need.
    pub async fn answering(parts: &[&str]) -> Self {
        let llm = Self::start().await;
        llm.always(CHAT, tokens(parts));
        llm
    }

    /// The OpenAI-style base address (`…/v1`).
    pub fn v1(&self) -> String {
        format!("{}/v1", self.base)
    }

    /// Answers the next request to `path` with `reply` (queued in order).
    pub fn then(&self, path: &str, reply: Reply) -> &Self {
        let mut s = self.script.lock().unwrap();
        s.queued.entry(path.to_string()).or_default().push_back(reply);
        self
    }

    /// Answers every request to `path` with `reply` once its queue is empty.
    pub fn always(&self, path: &str, reply: Reply) -> &Self {
        self.script.lock().unwrap().always.insert(path.to_string(), reply);
        self
    }

    /// Answers the first request matching `rule` with `reply`, before any queue.
    pub fn when(&self, rule: impl Fn(&Recorded) -> bool + Send + Sync + 'static, reply: Reply) -> &Self {
        self.script.lock().unwrap().rules.push((Box::new(rule), reply));
        self
    }

    /// Requests received on a path, in order.
    pub fn requests(&self, path: &str) -> Vec<Recorded> {
        let s = self.script.lock().unwrap();
        s.seen.iter().filter(|r| r.path == path).cloned().collect()
    }

    /// Every request received.
    pub fn all_requests(&self) -> Vec<Recorded> {
        self.script.lock().unwrap().seen.clone()
    }
}

async fn handle(State(script): State<Arc<Mutex<Script>>>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, 64 * 1024 * 1024).await.unwrap_or_default();
    let recorded = Recorded {
        method: parts.method.to_string(),
        path: parts.uri.path().to_string(),
        query: parts.uri.query().unwrap_or("").to_string(),
        headers: parts.headers,
        body,
    };
    let reply = {
        let mut s = script.lock().unwrap();
        s.seen.push(recorded.clone());
        let rule = s.rules.iter().position(|(matches, _)| matches(&recorded));
        match rule {
            Some(i) => Some(s.rules.remove(i).1),
            None => s
                .queued
                .get_mut(&recorded.path)
                .and_then(VecDeque::pop_front)
                .or_else(|| s.always.get(&recorded.path).cloned()),
        }
    };
    match reply {
        Some(reply) => respond(reply).await,
        None => (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("no scripted reply for {}", recorded.path),
        )
            .into_response(),
    }
}

async fn respond(reply: Reply) -> Response {
    match reply {
        Reply::Sse(events) => {
            let mut text = String::new();
            for e in events {
                text.push_str(&format!("data: {e}\n\n"));
            }
            text.push_str("data: [DONE]\n\n");
            ([("content-type", "text/event-stream")], text).into_response()
        }
        Reply::SseCut(events) => {
            let mut chunks: Vec<Result<Bytes, std::io::Error>> = events
                .into_iter()
                .map(|e| Ok(Bytes::from(format!("data: {e}\n\n"))))
                .collect();
            chunks.push(Err(std::io::Error::other("connection cut")));
            // Paced, so the tokens really leave before the connection breaks.
            let stream = futures_util::stream::iter(chunks).then(|chunk| async {
                tokio::time::sleep(std::time::Duration::from_millis(30)).await;
                chunk
            });
            ([("content-type", "text/event-stream")], Body::from_stream(stream)).into_response()
        }
        Reply::Json(value) => axum::Json(value).into_response(),
        Reply::Status(code, body) => (StatusCode::from_u16(code).unwrap(), body).into_response(),
        Reply::Bytes(content_type, bytes) => ([("content-type", content_type)], bytes).into_response(),
        Reply::SseHeld {
            first,
            gate,
            rest,
            closed,
        } => {
            let (tx, rx) = tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(8);
            tokio::spawn(async move {
                let mut guard = DropFlag {
                    flag: closed,
                    done: false,
                };
                for e in first {
                    if tx.send(Ok(Bytes::from(format!("data: {e}\n\n")))).await.is_err() {
                        return;
                    }
                }
                tokio::select! {
                    _ = gate.acquire() => {}
                    () = tx.closed() => return,
                }
                for e in rest {
                    if tx.send(Ok(Bytes::from(format!("data: {e}\n\n")))).await.is_err() {
                        return;
                    }
                }
                let _ = tx.send(Ok(Bytes::from("data: [DONE]\n\n"))).await;
                guard.done = true;
            });
            let stream =
                futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|item| (item, rx)) });
            ([("content-type", "text/event-stream")], Body::from_stream(stream)).into_response()
        }
        Reply::Gated(gate, inner) => {
            let _permit = gate.acquire().await;
            Box::pin(respond(*inner)).await
        }
    }
}

/// Path of the chat completions endpoint under `/v1`.
pub const CHAT: &str = "/v1/chat/completions";

/// SSE chunks of an answer written token by token, then the finish chunk and a usage chunk.
/// A streamed answer that sends `first`, then holds until its gate opens, then sends `rest`; the gate, and
/// the flag that turns true when the gateway drops the request.
pub fn held(first: &[&str], rest: &[&str]) -> (Reply, Arc<tokio::sync::Semaphore>, Arc<AtomicBool>) {
    let gate = Arc::new(tokio::sync::Semaphore::new(0));
    let closed = Arc::new(AtomicBool::new(false));
    let reply = Reply::SseHeld {
        first: token_chunks(first),
        gate: gate.clone(),
        rest: ending(rest),
        closed: closed.clone(),
    };
    (reply, gate, closed)
}

pub fn tokens(parts: &[&str]) -> Reply {
    tokens_with_usage(parts, json!({"prompt_tokens": 12, "completion_tokens": parts.len()}))
}

/// Like [`tokens`], with this usage object in the final chunk.
pub fn tokens_with_usage(parts: &[&str], usage: Value) -> Reply {
    let mut events: Vec<Value> = parts
        .iter()
        .map(|t| json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": t}, "finish_reason": null}]}))
        .collect();
    events.push(
        json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
    );
    events.push(json!({"object": "chat.completion.chunk", "choices": [], "usage": usage}));
    Reply::Sse(events)
}

/// SSE chunks of a tool call whose arguments arrive in two pieces.
pub fn tool_call(name: &str, arguments: &str) -> Reply {
    // Split in two on a character boundary (the arguments stream in pieces, as a model sends them).
    let half = arguments
        .char_indices()
        .nth(arguments.chars().count() / 2)
        .map_or(0, |(i, _)| i);
    let (a, b) = arguments.split_at(half);
    Reply::Sse(vec![
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": name, "arguments": ""}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": a}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": b}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
    ])
}

/// Token chunks followed by the finish chunk (the end of an answer, for a held stream's rest).
pub fn ending(parts: &[&str]) -> Vec<Value> {
    let mut events = token_chunks(parts);
    events.push(json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}));
    events
}

/// Token chunks only (for a stream that will be cut).
pub fn token_chunks(parts: &[&str]) -> Vec<Value> {
    parts
        .iter()
        .map(|t| json!({"choices": [{"index": 0, "delta": {"content": t}}]}))
        .collect()
}

/// A non-streamed chat completion document.
pub fn completion(text: &str) -> Reply {
    Reply::Json(json!({
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 9, "completion_tokens": 4},
    }))
}

/// A short WAV of silence (16-bit mono, 24 kHz), as an OpenAI-compatible speech server returns it.
pub fn wav(samples: usize) -> Vec<u8> {
    wav_of(&vec![0; samples])
}

/// A WAV of these samples (16-bit mono, 24 kHz).
pub fn wav_of(samples: &[i16]) -> Vec<u8> {
    let data = samples.len() * 2;
    let mut out = Vec::new();
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data as u32).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&24_000u32.to_le_bytes());
    out.extend_from_slice(&48_000u32.to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&(data as u32).to_le_bytes());
    out.extend(samples.iter().flat_map(|s| s.to_le_bytes()));
    out
}

/// Reads a WAV header: (sample rate, channels, bits, seconds of audio).
pub fn wav_info(bytes: &[u8]) -> (u32, u16, u16, f64) {
    assert_eq!(&bytes[..4], b"RIFF", "not RIFF");
    assert_eq!(&bytes[8..12], b"WAVE", "not WAVE");
    let riff = u32::from_le_bytes(bytes[4..8].try_into().unwrap()) as usize;
    assert_eq!(riff + 8, bytes.len(), "RIFF size must match the file");
    let channels = u16::from_le_bytes(bytes[22..24].try_into().unwrap());
    let rate = u32::from_le_bytes(bytes[24..28].try_into().unwrap());
    let bits = u16::from_le_bytes(bytes[34..36].try_into().unwrap());
    assert_eq!(&bytes[36..40], b"data", "data chunk expected after fmt");
    let data = u32::from_le_bytes(bytes[40..44].try_into().unwrap()) as usize;
    assert_eq!(data + 44, bytes.len(), "data size must match the file");
    let seconds = data as f64 / f64::from(rate) / f64::from(channels) / (f64::from(bits) / 8.0);
    (rate, channels, bits, seconds)
}
