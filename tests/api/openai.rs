//! `/v1` on the wire: the event stream's exact form, errors in OpenAI's shape on every kind of bad request,
//! the client's conversation trimmed like a session's history, and a provider failing mid-answer.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{As, TestApp};
use crate::fakes::{CHAT, Fake, Reply, token_chunks, tokens, tool_call};

fn conversation(turns: usize) -> Vec<Value> {
    let mut messages = Vec::new();
    for i in 0..turns {
        messages.push(json!({"role": "user", "content": format!("question {i}")}));
        messages.push(json!({"role": "assistant", "content": format!("answer {i}")}));
    }
    messages.push(
        json!({"role": "user", "content": [{"type": "text", "text": "last"}, {"type": "text", "text": "question"}]}),
    );
    messages
}

/// The `data:` payloads of an event stream, in order.
fn events(body: &str) -> Vec<String> {
    body.lines()
        .filter_map(|l| l.strip_prefix("data: ").or_else(|| l.strip_prefix("data:")))
        .map(|d| d.trim().to_string())
        .collect()
}

#[tokio::test]
async fn a_streamed_answer_is_chunks_then_done_and_the_conversation_is_trimmed_like_history() {
    let llm = Fake::answering(&["Sure", ", here."]).await;
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .env(&[("HISTORY_MAX_MESSAGES", "4"), ("MEMORY_EXTRACTION_ENABLED", "false")])
        .user("cleo")
        .await;
    let req = app
        .request(Method::POST, "/v1/chat/completions", As::Bearer(&token))
        .json(&json!({"model": "local", "messages": conversation(5), "stream": true}));
    let res = req.send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    let data = events(&res.text().await.unwrap());
    assert_eq!(data.last().map(String::as_str), Some("[DONE]"));
    let chunks: Vec<Value> = data[..data.len() - 1]
        .iter()
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    let deltas: Vec<&Value> = chunks.iter().map(|c| &c["choices"][0]["delta"]).collect();
    assert_eq!(deltas[0], &json!({"role": "assistant", "content": ""}));
    assert_eq!(deltas[1], &json!({"content": "Sure"}));
    assert_eq!(deltas[2], &json!({"content": ", here."}));
    assert_eq!(chunks.last().unwrap()["choices"][0]["finish_reason"], "stop");
    assert!(
        chunks.iter().all(|c| c.get("usage").is_none()),
        "no usage without include_usage"
    );

    // Ten earlier messages, of which the last four follow the system message, then the question's text parts.
    let asked = llm.requests(CHAT)[0].json();
    let texts: Vec<&str> = asked["messages"].as_array().unwrap()[1..]
        .iter()
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        ["question 3", "answer 3", "question 4", "answer 4", "last\nquestion"]
    );
}

#[tokio::test]
async fn bad_requests_on_v1_get_openai_errors_and_reach_no_provider() {
    let llm = Fake::answering(&["Hi."]).await;
    let (app, token, _) = TestApp::with().llm(&llm).user("dan").await;
    let post = |body: Value| {
        app.request(Method::POST, "/v1/chat/completions", As::Bearer(&token))
            .json(&body)
    };
    let cases = [
        (post(json!({"messages": []})), 400, "invalid_request", Some("messages")),
        (
            post(json!({"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]})),
            400,
            "invalid_request",
            Some("messages"),
        ),
        (
            post(json!({"messages": [{"role": "tool", "content": "x"}, {"role": "user", "content": "hi"}]})),
            400,
            "invalid_request",
            Some("messages[0].role"),
        ),
        (
            post(
                json!({"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}]}),
            ),
            400,
            "invalid_request",
            Some("messages[0].content"),
        ),
        (
            post(json!({"messages": [{"role": "user", "content": "  "}]})),
            400,
            "empty_text",
            None,
        ),
        (
            post(json!({"model": "mistral", "messages": [{"role": "user", "content": "hi"}]})),
            404,
            "model_not_found",
            Some("model"),
        ),
        (
            post(json!({"model": "local/", "messages": [{"role": "user", "content": "hi"}]})),
            404,
            "model_not_found",
            Some("model"),
        ),
        (post(json!({"messages": "hi"})), 422, "invalid_request", None),
        (
            app.request(Method::POST, "/v1/chat/completions", As::Bearer(&token))
                .header("content-type", "application/json")
                .body("{not json"),
            400,
            "malformed_json",
            None,
        ),
        (
            app.request(Method::GET, "/v1/models", As::Bearer("wrong")),
            401,
            "invalid_api_key",
            None,
        ),
        (
            app.request(Method::GET, "/v1/engines", As::Bearer(&token)),
            404,
            "not_found",
            None,
        ),
        (
            app.request(Method::POST, "/v1/audio/transcriptions", As::Bearer(&token))
                .header("content-type", "application/json")
                .body("{}"),
            400,
            "invalid_form",
            None,
        ),
        (
            app.request(Method::POST, "/v1/audio/transcriptions", As::Bearer(&token))
                .multipart(reqwest::multipart::Form::new().part(
                    "file",
                    reqwest::multipart::Part::bytes(b"ID3\x04mp3 data".to_vec()).file_name("a.mp3"),
                )),
            400,
            "invalid_audio",
            Some("file"),
        ),
        (
            app.request(Method::POST, "/v1/audio/transcriptions", As::Bearer(&token))
                .multipart(reqwest::multipart::Form::new().part(
                    "file",
                    reqwest::multipart::Part::bytes(b"no audio here".to_vec()).file_name("a.txt"),
                )),
            400,
            "unsupported_audio",
            Some("file"),
        ),
    ];
    for (req, status, code, param) in cases {
        let r = app.send(req).await;
        assert_eq!(r.status, status, "{}", r.body);
        let error = &r.body["error"];
        assert_eq!(error["code"], code, "{}", r.body);
        assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()), "{}", r.body);
        assert!(error["type"].is_string() && error.get("status").is_none(), "{}", r.body);
        if let Some(param) = param {
            assert_eq!(error["param"], param, "{}", r.body);
        }
    }
    assert!(llm.requests(CHAT).is_empty());
    // Outside /v1 the contract's body stays.
    let r = app.get("/api/nothing", As::Bearer(&token)).await;
    assert_eq!(r.body["error"]["status"], 404);
}

#[tokio::test]
async fn a_provider_failing_mid_answer_ends_the_stream_with_an_error_event() {
    let llm = Fake::start().await;
    llm.always(CHAT, Reply::SseCut(token_chunks(&["Half an ", "answer"])));
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .env(&[("MEMORY_EXTRACTION_ENABLED", "false")])
        .user("eva")
        .await;
    let res = app
        .request(Method::POST, "/v1/chat/completions", As::Bearer(&token))
        .json(&json!({"messages": [{"role": "user", "content": "hi"}], "stream": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let data = events(&res.text().await.unwrap());
    let payloads: Vec<Value> = data
        .iter()
        .filter(|d| *d != "[DONE]")
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    let text: String = payloads
        .iter()
        .filter_map(|p| p["choices"][0]["delta"]["content"].as_str())
        .collect();
    assert_eq!(text, "Half an answer");
    let last = payloads.last().unwrap();
    assert_eq!(last["error"]["type"], "server_error", "{last}");
    assert_eq!(last["error"]["code"], "provider_failed", "{last}");
}

#[tokio::test]
async fn a_used_up_quota_is_an_http_429_before_any_stream() {
    let llm = Fake::answering(&["Hi."]).await;
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .env(&[("DAILY_REQUEST_LIMIT", "1"), ("MEMORY_EXTRACTION_ENABLED", "false")])
        .user("finn")
        .await;
    let ask = || {
        app.request(Method::POST, "/v1/chat/completions", As::Bearer(&token))
            .json(&json!({"messages": [{"role": "user", "content": "hi"}], "stream": true}))
    };
    assert_eq!(app.send(ask()).await.status, 200);
    let r = app.send(ask()).await;
    assert_eq!(r.status, 429);
    assert_eq!(r.body["error"]["code"], "insufficient_quota");
    assert_eq!(llm.requests(CHAT).len(), 1);
}

#[tokio::test]
async fn web_search_is_the_gateways_tool_on_v1_too_and_counts_against_its_budget() {
    let llm = Fake::start().await;
    llm.then(CHAT, tool_call("web_search", r#"{"query": "weather Berlin"}"#));
    llm.then(CHAT, tokens(&["Sunny in Berlin."]));
    let search = Fake::start().await;
    search.then(
        "/search",
        Reply::Json(json!({"results": [{"url": "https://wetter.example/berlin", "title": "Berlin", "content": "Sunny, 21 °C"}]})),
    );
    let search_url = search.base.clone();
    let (app, token, id) = TestApp::with()
        .llm(&llm)
        .env(&[
            ("WEB_SEARCH_ENABLED", "true"),
            ("SEARXNG_URL", &search_url),
            ("MEMORY_EXTRACTION_ENABLED", "false"),
        ])
        .user("ida")
        .await;
    let r = app
        .call(
            Method::POST,
            "/v1/chat/completions",
            As::Bearer(&token),
            Some(
                json!({"model": "default", "messages": [{"role": "user", "content": "Weather in Berlin?"}],
                "tools": [{"type": "function", "function": {"name": "client_tool", "parameters": {}}}]}),
            ),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["choices"][0]["message"]["content"], "Sunny in Berlin.");
    let asked = llm.requests(CHAT);
    let first = asked[0].json();
    let tools: Vec<&str> = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["function"]["name"].as_str())
        .collect();
    assert_eq!(tools, ["web_search"], "the gateway's tool, not the client's");
    let result = asked[1].json()["messages"].as_array().unwrap().last().cloned().unwrap();
    assert!(result["content"].as_str().unwrap().contains("Sunny, 21 °C"));
    assert_eq!(app.rows_of("web_search_usage", &id).await, 1);
}

pub(crate) mod realtime {
    use futures_util::{SinkExt, StreamExt};
    use serde_json::{Value, json};
    use tokio_tungstenite::connect_async;
    use tokio_tungstenite::tungstenite::Message;
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    use tokio_tungstenite::tungstenite::http::HeaderValue;

    use crate::common::TestApp;
    use crate::fakes::{CHAT, Fake, Reply, ending, token_chunks, tokens};

    pub(crate) type Socket =
        tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

    pub(crate) async fn next_event(ws: &mut Socket) -> Value {
        loop {
            let message = tokio::time::timeout(std::time::Duration::from_secs(10), ws.next())
                .await
                .expect("an event in time")
                .expect("open")
                .expect("a frame");
            if let Message::Text(text) = message {
                return serde_json::from_str(&text).unwrap();
            }
        }
    }

    #[tokio::test]
    async fn a_browser_key_in_the_subprotocol_opens_a_session_and_bad_events_get_error_events() {
        let (app, token, _) = TestApp::with().user("gus").await;
        let url = format!("ws://{}/v1/realtime?model=default", app.addr);
        let mut request = url.clone().into_client_request().unwrap();
        let protocols = format!("realtime, openai-insecure-api-key.{token}");
        request
            .headers_mut()
            .insert("sec-websocket-protocol", HeaderValue::from_str(&protocols).unwrap());
        let (mut ws, answer) = connect_async(request).await.expect("handshake");
        assert_eq!(answer.headers()["sec-websocket-protocol"], "realtime");
        let created = next_event(&mut ws).await;
        assert_eq!(created["type"], "session.created");
        assert_eq!(
            created["session"]["audio"]["input"]["turn_detection"]["type"],
            "server_vad"
        );

        let cases = [
            (
                json!({"type": "input_audio_buffer.commit"}).to_string(),
                "input_audio_buffer_commit_empty",
            ),
            (
                json!({"type": "response.cancel"}).to_string(),
                "response_cancel_not_active",
            ),
            (json!({"type": "response.create"}).to_string(), "no_input"),
            (
                json!({"type": "input_audio_buffer.append", "audio": "%%%"}).to_string(),
                "invalid_audio",
            ),
            (
                json!({"type": "input_audio_buffer.append", "audio": "AA=="}).to_string(),
                "invalid_audio",
            ),
            (
                json!({"type": "session.update", "session": {"input_audio_format": "g722"}}).to_string(),
                "invalid_session",
            ),
            (
                json!({"type": "conversation.item.create", "item": {"type": "message", "role": "assistant"}})
                    .to_string(),
                "invalid_item",
            ),
            (
                json!({"type": "transcription_session.update"}).to_string(),
                "invalid_event",
            ),
            ("not json".to_string(), "invalid_event"),
        ];
        for (event, code) in cases {
            ws.send(Message::Text(event.clone().into())).await.unwrap();
            let answer = next_event(&mut ws).await;
            assert_eq!(answer["type"], "error", "{event}: {answer}");
            assert_eq!(answer["error"]["code"], code, "{event}: {answer}");
            assert_eq!(answer["error"]["type"], "invalid_request_error");
        }
        // The connection is still there.
        ws.send(Message::Text(
            json!({"type": "input_audio_buffer.clear"}).to_string().into(),
        ))
        .await
        .unwrap();
        assert_eq!(next_event(&mut ws).await["type"], "input_audio_buffer.cleared");
    }

    /// Opens `/v1/realtime` with a query as the user, with more headers: the socket and its `session.created`.
    pub(crate) async fn connect(
        app: &TestApp,
        token: &str,
        query: &str,
        headers: &[(&'static str, &'static str)],
    ) -> (Socket, Value) {
        let mut request = format!("ws://{}/v1/realtime{query}", app.addr)
            .into_client_request()
            .unwrap();
        let bearer = HeaderValue::from_str(&format!("Bearer {token}")).unwrap();
        request.headers_mut().insert("authorization", bearer);
        for (name, value) in headers {
            request.headers_mut().insert(*name, HeaderValue::from_static(value));
        }
        let (mut ws, _) = connect_async(request).await.expect("handshake");
        let created = next_event(&mut ws).await;
        assert_eq!(created["type"], "session.created");
        (ws, created)
    }

    /// PCM16 at 24 kHz, base64: a loud tone (speech to the energy detector) or silence.
    pub(crate) fn audio(seconds: f64, loud: bool) -> String {
        use base64::Engine;
        let n = (24_000.0 * seconds) as usize;
        let pcm: Vec<u8> = (0..n)
            .flat_map(|i| {
                let s = if loud {
                    (8000.0 * (i as f64 * 220.0 * std::f64::consts::TAU / 24_000.0).sin()) as i16
                } else {
                    0
                };
                s.to_le_bytes()
            })
            .collect();
        base64::engine::general_purpose::STANDARD.encode(pcm)
    }

    pub(crate) async fn send(ws: &mut Socket, event: Value) {
        ws.send(Message::Text(event.to_string().into())).await.unwrap();
    }

    #[tokio::test]
    async fn speech_during_an_answer_cancels_it_and_becomes_the_next_question() {
        let llm = Fake::start().await;
        let gate = std::sync::Arc::new(tokio::sync::Semaphore::new(0));
        let closed = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        llm.then(
            CHAT,
            Reply::SseHeld {
                first: token_chunks(&["Let me think about that. "]),
                gate,
                rest: ending(&["Done."]),
                closed: closed.clone(),
            },
        );
        llm.then(CHAT, tokens(&["Sure."]));
        let stt = Fake::start().await;
        stt.always("/v1/audio/transcriptions", Reply::Json(json!({"text": "wait"})));
        let (app, token, _) = TestApp::with()
            .llm(&llm)
            .stt(&stt)
            .env(&[("FILLER_AFTER_MS", "0"), ("MEMORY_EXTRACTION_ENABLED", "false")])
            .user("ivy")
            .await;
        let (mut ws, _) = connect(&app, &token, "", &[]).await;
        let add = json!({"type": "conversation.item.create", "item": {"type": "message", "role": "user",
            "content": [{"type": "input_text", "text": "Tell me something."}]}});
        send(&mut ws, add).await;
        send(&mut ws, json!({"type": "response.create"})).await;
        // Wait until the first sentence is spoken, then talk over it.
        loop {
            if next_event(&mut ws).await["type"] == "response.output_audio.delta" {
                break;
            }
        }
        send(
            &mut ws,
            json!({"type": "input_audio_buffer.append", "audio": audio(0.8, true)}),
        )
        .await;
        let mut types = Vec::new();
        let cancelled = loop {
            let event = next_event(&mut ws).await;
            types.push(event["type"].as_str().unwrap_or_default().to_string());
            if event["type"] == "response.done" {
                break event;
            }
        };
        assert_eq!(cancelled["response"]["status"], "cancelled", "{types:?}");
        assert!(
            types.contains(&"input_audio_buffer.speech_started".to_string()),
            "{types:?}"
        );
        // The rest of the speech ends the turn, which is answered.
        send(
            &mut ws,
            json!({"type": "input_audio_buffer.append", "audio": audio(1.2, false)}),
        )
        .await;
        let answered = loop {
            let event = next_event(&mut ws).await;
            if event["type"] == "response.done" {
                break event;
            }
        };
        assert_eq!(answered["response"]["status"], "completed");
        assert_eq!(answered["response"]["output"][0]["content"][0]["transcript"], "Sure.");
        assert!(
            closed.load(std::sync::atomic::Ordering::SeqCst),
            "the first answer's request was dropped"
        );
    }

    /// A typed question and `response.create`; the events up to `response.done`.
    async fn ask_in_text(ws: &mut Socket) -> Vec<Value> {
        let add = json!({"type": "conversation.item.create", "item": {"type": "message", "role": "user",
            "content": [{"type": "input_text", "text": "Say two words."}]}});
        send(ws, add).await;
        send(ws, json!({"type": "response.create"})).await;
        let mut events = Vec::new();
        loop {
            let event = next_event(ws).await;
            let done = event["type"] == "response.done";
            events.push(event);
            if done {
                return events;
            }
        }
    }

    #[tokio::test]
    async fn a_question_in_a_language_the_model_does_not_speak_brings_a_system_item_saying_so_once() {
        let llm = Fake::answering(&["A tulip is a flower."]).await;
        // Llama 3.2, as its preset knows it: no Dutch.
        let (app, token, id) = TestApp::with()
            .llm(&llm)
            .env(&[
                ("LOCAL_LLM_MODEL", "llama3.2:3b"),
                ("MEMORY_EXTRACTION_ENABLED", "false"),
            ])
            .user("jon")
            .await;
        app.set_prefs(&id, json!({"language": "nl"})).await;
        let (mut ws, _) = connect(&app, &token, "", &[]).await;
        send(
            &mut ws,
            json!({"type": "session.update", "session": {"output_modalities": ["text"]}}),
        )
        .await;
        next_event(&mut ws).await;

        let first = ask_in_text(&mut ws).await;
        let told: Vec<&Value> = first
            .iter()
            .filter(|e| e["type"] == "conversation.item.added" && e["item"]["role"] == "system")
            .collect();
        assert_eq!(told.len(), 1, "{first:?}");
        let item = &told[0]["item"];
        assert_eq!(item["type"], "message");
        assert_eq!(item["content"][0]["type"], "input_text");
        assert!(
            item["content"][0]["text"]
                .as_str()
                .unwrap()
                .starts_with("Het taalmodel Llama 3.2 3B (local) spreekt geen Nederlands"),
            "{item}"
        );
        // The beta protocol's name comes with it, as for every item.
        assert!(
            first
                .iter()
                .any(|e| e["type"] == "conversation.item.created" && e["item"]["role"] == "system")
        );
        let second = ask_in_text(&mut ws).await;
        assert!(
            !second.iter().any(|e| e["item"]["role"] == "system"),
            "told once in the session: {second:?}"
        );
    }

    #[tokio::test]
    async fn text_answers_come_as_text_deltas_and_the_quota_counts_each_response() {
        let llm = Fake::answering(&["Two ", "words."]).await;
        let (app, token, _) = TestApp::with()
            .llm(&llm)
            .env(&[("DAILY_REQUEST_LIMIT", "1"), ("MEMORY_EXTRACTION_ENABLED", "false")])
            .user("jon")
            .await;
        let (mut ws, _) = connect(&app, &token, "", &[]).await;
        send(
            &mut ws,
            json!({"type": "session.update", "session": {"output_modalities": ["text"]}}),
        )
        .await;
        let updated = next_event(&mut ws).await;
        assert_eq!(updated["session"]["output_modalities"], json!(["text"]));
        let first = ask_in_text(&mut ws).await;
        let deltas: String = first
            .iter()
            .filter(|e| e["type"] == "response.output_text.delta")
            .filter_map(|e| e["delta"].as_str())
            .collect();
        assert_eq!(deltas, "Two words.");
        assert!(first.iter().all(|e| e["type"] != "response.output_audio.delta"));
        assert!(
            first
                .iter()
                .any(|e| e["type"] == "response.output_text.done" && e["text"] == "Two words.")
        );
        assert_eq!(first.last().unwrap()["response"]["status"], "completed");
        let second = ask_in_text(&mut ws).await;
        let error = second.iter().find(|e| e["type"] == "error").expect("an error event");
        assert_eq!(error["error"]["type"], "insufficient_quota");
        assert_eq!(second.last().unwrap()["response"]["status"], "failed");
        assert_eq!(llm.requests(CHAT).len(), 1);
    }

    #[tokio::test]
    async fn too_long_audio_is_dropped_with_an_error_and_an_idle_connection_is_closed() {
        let (app, token, _) = TestApp::with()
            .env(&[("MAX_UTTERANCE_SECONDS", "1"), ("WS_IDLE_TIMEOUT_SECONDS", "1")])
            .user("kim")
            .await;
        let (mut ws, _) = connect(&app, &token, "", &[]).await;
        send(
            &mut ws,
            json!({"type": "session.update", "session": {"turn_detection": null}}),
        )
        .await;
        assert_eq!(next_event(&mut ws).await["type"], "session.updated");
        send(
            &mut ws,
            json!({"type": "input_audio_buffer.append", "audio": audio(0.8, true)}),
        )
        .await;
        send(
            &mut ws,
            json!({"type": "input_audio_buffer.append", "audio": audio(0.8, true)}),
        )
        .await;
        let error = next_event(&mut ws).await;
        assert_eq!(error["error"]["code"], "input_audio_too_long", "{error}");
        // The buffer was emptied: a commit has nothing to take.
        send(&mut ws, json!({"type": "input_audio_buffer.commit"})).await;
        assert_eq!(
            next_event(&mut ws).await["error"]["code"],
            "input_audio_buffer_commit_empty"
        );
        // Then a second of nothing: closed as idle.
        let closed = tokio::time::timeout(std::time::Duration::from_secs(5), async {
            loop {
                match ws.next().await {
                    Some(Ok(Message::Close(frame))) => return frame.map(|f| (u16::from(f.code), f.reason.to_string())),
                    Some(Ok(_)) => {}
                    _ => return None,
                }
            }
        })
        .await
        .expect("closed in time");
        assert_eq!(closed, Some((1000, "idle timeout".to_string())));
    }

    #[tokio::test]
    async fn a_client_of_the_beta_protocol_gets_its_event_names() {
        let llm = Fake::answering(&["Hello there."]).await;
        let (app, token, _) = TestApp::with()
            .llm(&llm)
            .env(&[("FILLER_AFTER_MS", "0"), ("MEMORY_EXTRACTION_ENABLED", "false")])
            .user("lou")
            .await;
        let (mut ws, created) = connect(&app, &token, "?model=local", &[("openai-beta", "realtime=v1")]).await;
        assert_eq!(created["session"]["input_audio_format"], "pcm16", "{created}");
        assert_eq!(created["session"]["turn_detection"]["type"], "server_vad");
        let events = ask_in_text(&mut ws).await;
        let types: Vec<&str> = events.iter().filter_map(|e| e["type"].as_str()).collect();
        for beta in [
            "response.audio_transcript.delta",
            "response.audio.delta",
            "response.audio.done",
            "response.audio_transcript.done",
            "conversation.item.created",
        ] {
            assert!(types.contains(&beta), "{beta} in {types:?}");
        }
        assert!(
            !types.iter().any(|t| t.starts_with("response.output_audio")),
            "{types:?}"
        );
        assert_eq!(events.last().unwrap()["response"]["status"], "completed");
    }

    #[tokio::test]
    async fn a_foreign_origin_a_wrong_token_or_an_unknown_model_is_refused_in_openai_shape() {
        let (app, token, _) = TestApp::with().user("hal").await;
        let refused = |path: String, token: String, origin: Option<&'static str>| {
            let mut request = format!("ws://{}{path}", app.addr).into_client_request().unwrap();
            let bearer = HeaderValue::from_str(&format!("Bearer {token}")).unwrap();
            request.headers_mut().insert("authorization", bearer);
            if let Some(origin) = origin {
                request.headers_mut().insert("origin", HeaderValue::from_static(origin));
            }
            async move {
                match connect_async(request).await.unwrap_err() {
                    tokio_tungstenite::tungstenite::Error::Http(response) => {
                        let body: Value =
                            serde_json::from_slice(response.body().as_deref().unwrap_or_default()).unwrap_or_default();
                        (
                            response.status().as_u16(),
                            body["error"]["code"].as_str().unwrap_or_default().to_string(),
                        )
                    }
                    other => panic!("{other}"),
                }
            }
        };
        let cases = [
            (
                refused("/v1/realtime".into(), token.clone(), Some("https://evil.example")).await,
                (403, "forbidden"),
            ),
            (
                refused("/v1/realtime".into(), "wrong".into(), None).await,
                (401, "invalid_api_key"),
            ),
            (
                refused("/v1/realtime?model=gpt-4o-realtime".into(), token.clone(), None).await,
                (404, "model_not_found"),
            ),
        ];
        for ((status, code), (want_status, want_code)) in cases {
            assert_eq!((status, code.as_str()), (want_status, want_code));
        }
    }
}
