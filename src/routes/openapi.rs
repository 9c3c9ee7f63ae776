//! `GET /openapi.json`: the API description, generated from one table of endpoints.
//!
//! A test walks [`ENDPOINTS`] against the running router, so an endpoint described here but not served (or
//! served under another path) fails the build.

use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Map, Value, json};

use crate::app::AppState;

/// Who may call an endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// No credentials needed.
    Public,
    /// Any authenticated user (everyone when AUTH_ENABLED is false).
    User,
    /// Admins: admin key, admin flag or ADMIN_USERS.
    Admin,
}

/// One described endpoint: method, path, access, summary, request body schema (if any), success status.
pub type Endpoint = (
    &'static str,
    &'static str,
    Access,
    &'static str,
    Option<&'static str>,
    u16,
);

use Access::{Admin, Public, User};

/// Every endpoint the gateway serves.
pub const ENDPOINTS: &[Endpoint] = &[
    ("get", "/health", Public, "Liveness and database state", None, 200),
    (
        "get",
        "/api/config",
        Public,
        "Effective non-secret configuration, available options and voice menu (cached 30 s)",
        None,
        200,
    ),
    ("get", "/openapi.json", Public, "This API description", None, 200),
    (
        "get",
        "/",
        Public,
        "The web page; `?k=<token>` stores the personal link in the cookie and redirects without it",
        None,
        200,
    ),
    (
        "get",
        "/login",
        Public,
        "Starts the single-sign-on login (redirects to /api/login)",
        None,
        303,
    ),
    (
        "get",
        "/api/login",
        Public,
        "Behind the SSO proxy: issues a token in cookie va_token and redirects to /",
        None,
        303,
    ),
    (
        "get",
        "/api/me",
        User,
        "The caller with is_admin, prefs and sso_logout_url",
        None,
        200,
    ),
    ("get", "/api/me/prefs", User, "The caller's prefs", None, 200),
    (
        "put",
        "/api/me/prefs",
        User,
        "Merges prefs (null removes a key); admin-only keys give 403",
        Some("Prefs"),
        200,
    ),
    (
        "post",
        "/api/chat",
        User,
        "One turn: the answer as text, its semantic result (sentences, citations, language, providers, \
         tts_fallback, notice) and the spoken answer (base64 WAV) unless text_only; `?debug` adds history_len \
         and memories_len",
        Some("ChatRequest"),
        200,
    ),
    (
        "post",
        "/api/speak",
        User,
        "Speaks text (through the text pipeline); answers audio/wav, with X-TTS-Provider and X-TTS-Fallback",
        Some("SpeakRequest"),
        200,
    ),
    (
        "post",
        "/api/transcribe",
        User,
        "Transcribes audio sent as the body: audio/wav (16-bit PCM) or raw 16-bit mono PCM (audio/L16; \
         rate=16000 or application/octet-stream with ?sample_rate=); ?language= and ?provider= choose; \
         answers {text, language}",
        None,
        200,
    ),
    (
        "get",
        "/ws/chat",
        User,
        "WebSocket (token in ?token=, cookie or header; ?session_id= optional): send {text, stream, audio_stream, \
         provider, model, voice, language, text_only, session_id} or {type: interrupt}; events ack, token, filler, \
         notice, semantic, audio (+ binary WAV), interrupted, error, done",
        None,
        101,
    ),
    (
        "get",
        "/ws/voice",
        User,
        "WebSocket: {type: start, vad, sample_rate, language, voice, …}, binary 16-bit PCM frames, {type: end, …} \
         (end options win), {type: interrupt}; events transcript, then as /ws/chat",
        None,
        101,
    ),
    (
        "post",
        "/api/emergency",
        User,
        "The help button: alerts the emergency contacts by e-mail, SMS and call (no quota); inside the cooldown \
         retries the channels of an alarm that reached nobody; answers status (alerted, no_recipients, \
         delivery_failed, cooldown), notified, notify_ready, minutes_ago, remaining_seconds, message, alarm_id",
        Some("EmergencyPress"),
        200,
    ),
    (
        "get",
        "/api/emergency/status",
        User,
        "Cooldown state (minutes_ago, remaining_seconds), notify_ready, the newest alarm (id, at, status, \
         escalation_due_at, escalated_at), acknowledged and acknowledged_by [{contact, at, via}]",
        None,
        200,
    ),
    (
        "get",
        "/api/emergency/ack/{token}",
        Public,
        "A contact's acknowledgement link (from the alarm's e-mail or SMS, valid 24 h): an HTML page with the \
         alarm and a confirm button; 404 for a wrong or expired link",
        None,
        200,
    ),
    (
        "post",
        "/api/emergency/ack/{token}",
        Public,
        "Confirms having seen the alarm (cancels the pending reminder); answers an HTML thank-you page; a second \
         use changes nothing; 404 for a wrong or expired link",
        None,
        200,
    ),
    (
        "post",
        "/api/emergency/call/{id}",
        Public,
        "Twilio's <Gather> callback of an alarm call (form fields, X-Twilio-Signature required, else 403): \
         Digits=1 confirms; answers TwiML",
        None,
        200,
    ),
    (
        "get",
        "/api/admin/emergencies",
        Admin,
        "The newest 500 sends (alarms, retries, reminders): time, category (outcome or escalated), user, \
         channel results, acknowledged, acknowledged_by",
        None,
        200,
    ),
    ("get", "/api/me/memories", User, "The caller's memories", None, 200),
    (
        "post",
        "/api/me/memories",
        User,
        "Adds a memory",
        Some("MemoryText"),
        201,
    ),
    (
        "delete",
        "/api/me/memories/{memory_id}",
        User,
        "Deletes one of the caller's memories",
        None,
        200,
    ),
    (
        "get",
        "/api/sessions",
        User,
        "The caller's sessions, most recent first",
        None,
        200,
    ),
    (
        "post",
        "/api/sessions",
        User,
        "Creates a session (optional title and route overrides)",
        Some("SessionBody"),
        201,
    ),
    (
        "get",
        "/api/sessions/{session_id}",
        User,
        "A session with its messages; another user's session gives 403",
        None,
        200,
    ),
    (
        "put",
        "/api/sessions/{session_id}",
        User,
        "Changes title or route overrides",
        Some("SessionBody"),
        200,
    ),
    (
        "delete",
        "/api/sessions/{session_id}",
        User,
        "Deletes a session and its messages",
        None,
        200,
    ),
    ("get", "/api/devices", User, "The caller's devices", None, 200),
    (
        "post",
        "/api/devices",
        User,
        "Registers a device",
        Some("DeviceBody"),
        201,
    ),
    (
        "put",
        "/api/devices/{device_id}",
        User,
        "Renames a device",
        Some("DeviceName"),
        200,
    ),
    (
        "delete",
        "/api/devices/{device_id}",
        User,
        "Removes a device",
        None,
        200,
    ),
    (
        "get",
        "/api/admin/users",
        Admin,
        "Users with is_admin, allowed_languages, web_search_enabled and profile",
        None,
        200,
    ),
    (
        "post",
        "/api/admin/users",
        Admin,
        "Creates a user; the answer holds the token once",
        Some("NewUser"),
        201,
    ),
    (
        "put",
        "/api/admin/users/{user_id}",
        Admin,
        "Sets the display name",
        Some("DisplayName"),
        200,
    ),
    (
        "delete",
        "/api/admin/users/{user_id}",
        Admin,
        "Deletes a user and all of their data (400 for the anonymous user)",
        None,
        200,
    ),
    (
        "post",
        "/api/admin/users/{user_id}/token",
        Admin,
        "Issues a new token; the old ones stop working at once",
        None,
        200,
    ),
    (
        "get",
        "/api/admin/users/{user_id}/memories",
        Admin,
        "A user's memories",
        None,
        200,
    ),
    (
        "post",
        "/api/admin/users/{user_id}/memories",
        Admin,
        "Presets memories (`text` or `texts`)",
        Some("PresetMemories"),
        201,
    ),
    (
        "get",
        "/api/admin/users/{user_id}/prefs",
        Admin,
        "A user's prefs",
        None,
        200,
    ),
    (
        "put",
        "/api/admin/users/{user_id}/prefs",
        Admin,
        "Merges a user's prefs, admin-only keys included",
        Some("Prefs"),
        200,
    ),
    (
        "put",
        "/api/admin/users/{user_id}/admin",
        Admin,
        "Sets the persistent admin flag",
        Some("AdminFlag"),
        200,
    ),
    (
        "delete",
        "/api/admin/users/{user_id}/history",
        Admin,
        "Deletes a user's sessions and messages only",
        None,
        200,
    ),
    (
        "get",
        "/api/metrics",
        Admin,
        "Metrics as JSON; Prometheus text with ?format=prometheus or Accept: text/plain (HTTP requests and latency \
         per route template, stage timings, fallbacks, provider errors, quota rejections, emergency_total, \
         emergency_retries_total, emergency_acknowledgements_total, emergency_escalations_total, \
         WebSocket connections)",
        None,
        200,
    ),
    (
        "get",
        "/api/admin/models",
        Admin,
        "Model presets (id, label, note, values, default) and the active LLM (provider, model, active_index)",
        None,
        200,
    ),
    (
        "post",
        "/api/admin/models/select",
        Admin,
        "Applies a preset ({preset: id}); the default preset removes the model overrides; audit-logged",
        Some("PresetChoice"),
        200,
    ),
    (
        "get",
        "/api/admin/{provider}/models",
        Admin,
        "Live model list of an LLM provider (cloud or local), cached 10 minutes",
        None,
        200,
    ),
    (
        "get",
        "/api/admin/llm/status",
        Admin,
        "Local backend, model, reachability, loaded and available models, GPU load, service state",
        None,
        200,
    ),
    (
        "post",
        "/api/admin/llm/backend",
        Admin,
        "Switches the local backend (ollama or llamacpp) and model; 422 when invalid or missing, 409 while \
         another switch runs; audit-logged including rejections",
        Some("BackendChoice"),
        200,
    ),
    (
        "post",
        "/api/admin/gateway/restart",
        Admin,
        "Restarts the gateway (RESTART_COMMAND, or re-execution); answers first; audit-logged",
        None,
        200,
    ),
    (
        "get",
        "/api/admin/status",
        Admin,
        "Gateway status: version, uptime, provider configuration without secrets, GPUs, runtime metrics",
        None,
        200,
    ),
    (
        "get",
        "/api/admin/stats",
        Admin,
        "Usage per user: requests today and this month, monthly cost, average cost per request, total",
        None,
        200,
    ),
    (
        "get",
        "/api/admin/conversations",
        Admin,
        "Users with their numbers of sessions and messages",
        None,
        200,
    ),
    (
        "get",
        "/api/admin/conversations/{user_id}",
        Admin,
        "A user's sessions",
        None,
        200,
    ),
    (
        "get",
        "/api/admin/conversations/{user_id}/{session_id}",
        Admin,
        "A session's transcript; audit-logged",
        None,
        200,
    ),
    (
        "get",
        "/api/admin/db-export",
        Admin,
        "A consistent SQLite snapshot of the database as a download; audit-logged",
        None,
        200,
    ),
    (
        "get",
        "/api/admin/log",
        Admin,
        "WebSocket: the live service log, one text frame per line (slow readers get a note of dropped lines)",
        None,
        101,
    ),
    (
        "get",
        "/api/admin/audit",
        Admin,
        "The newest 500 audit entries",
        None,
        200,
    ),
    (
        "get",
        "/api/admin/request-headers",
        Admin,
        "Headers as the gateway sees them (also `?key=` or X-Admin-Key)",
        None,
        200,
    ),
    (
        "get",
        "/api/admin/login",
        Public,
        "Behind the SSO proxy: rotates an admin's token into the cookie; others 403",
        None,
        303,
    ),
    (
        "get",
        "/api/admin/config",
        Admin,
        "All 16 runtime keys with override, environment and effective value",
        None,
        200,
    ),
    (
        "get",
        "/api/admin/config/{key}",
        Admin,
        "One runtime key: {key, value, effective}",
        None,
        200,
    ),
    (
        "put",
        "/api/admin/config/{key}",
        Admin,
        "Sets an override (audit-logged); unknown key 404, invalid value 422",
        Some("ConfigValue"),
        200,
    ),
    (
        "delete",
        "/api/admin/config/{key}",
        Admin,
        "Removes an override (audit-logged)",
        None,
        200,
    ),
    (
        "get",
        "/api/admin/lexicon/{lang}",
        Admin,
        "Pronunciation lexicon of a language: sections with builtin and custom entries",
        None,
        200,
    ),
    (
        "put",
        "/api/admin/lexicon/{lang}/{section}",
        Admin,
        "Adds or replaces an entry (section abbreviations, units or terms)",
        Some("LexiconEntry"),
        200,
    ),
    (
        "delete",
        "/api/admin/lexicon/{lang}/{section}",
        Admin,
        "Deletes a custom entry: `?key=<key>`; built-in entries come back",
        None,
        200,
    ),
];

/// The route of the description.
pub fn router() -> Router<AppState> {
    Router::new().route("/openapi.json", get(|| async { Json(document()) }))
}

fn schemas() -> Value {
    let string = json!({"type": "string"});
    json!({
        "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "object",
            "required": ["status", "code", "message"],
            "properties": {"status": {"type": "integer"}, "code": {"type": "string"}, "message": {"type": "string"}}}}},
        "Prefs": {"type": "object", "description": "Any subset of: language, voice, voice_gender, stt_provider, llm_provider, \
            tts_provider, llm_model, web_search_enabled, full_name, street, postal_code, city, phone_mobile, phone_landline, \
            birth_date (YYYY-MM-DD), medical_notes, emergency_contacts (e-mail list), emergency_contact_phones (+ numbers), \
            location_consent; admin only: allowed_languages, web_search_daily_limit, daily_request_limit, \
            emergency_cooldown_minutes (\"\" or \"0\"..\"60\"). null removes a key.", "additionalProperties": true},
        "ChatRequest": {"type": "object", "required": ["text"], "properties": {"text": string, "session_id": string,
            "provider": {"description": "LLM provider: local or cloud", "type": "string"}, "model": string, "voice": string,
            "language": string, "stt_provider": string, "tts_provider": string, "text_only": {"type": "boolean"}}},
        "SpeakRequest": {"type": "object", "required": ["text"], "properties": {"text": string, "voice": string,
            "language": string, "provider": {"description": "TTS provider: espeak, piper or openai", "type": "string"}}},
        "EmergencyPress": {"type": "object", "properties": {
            "geo": {"type": "object", "required": ["latitude", "longitude"], "properties": {"latitude": {"type": "number"},
                "longitude": {"type": "number"}, "accuracy": {"type": "number", "description": "metres"},
                "timestamp": {"type": "integer", "description": "ms since the epoch"}}},
            "geo_error": string, "device": {"type": "object", "properties": {"mobile": {"type": "boolean"}, "platform": string}}}},
        "PresetChoice": {"type": "object", "properties": {"preset": string, "index": {"type": "integer"}}},
        "BackendChoice": {"type": "object", "required": ["backend", "model"], "properties": {
            "backend": {"enum": ["ollama", "llamacpp"]}, "model": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$"}}},
        "MemoryText": {"type": "object", "required": ["text"], "properties": {"text": string}},
        "PresetMemories": {"type": "object", "properties": {"text": string, "texts": {"type": "array", "items": string}}},
        "SessionBody": {"type": "object", "properties": {"title": string, "overrides": {"type": "object",
            "description": "stt_provider, llm_provider, tts_provider, llm_model, voice, language"}}},
        "DeviceBody": {"type": "object", "required": ["name"], "properties": {"name": string,
            "kind": {"enum": ["browser", "phone", "tablet", "speaker", "other"]}, "platform": string}},
        "DeviceName": {"type": "object", "required": ["name"], "properties": {"name": string}},
        "NewUser": {"type": "object", "required": ["name"], "properties": {"name": string, "display_name": string,
            "is_admin": {"type": "boolean"}, "external_id": string}},
        "DisplayName": {"type": "object", "required": ["display_name"], "properties": {"display_name": string}},
        "AdminFlag": {"type": "object", "required": ["is_admin"], "properties": {"is_admin": {"type": "boolean"}}},
        "LexiconEntry": {"type": "object", "required": ["key", "value"], "properties": {"key": {"type": "string", "maxLength": 64},
            "value": {"type": "string", "maxLength": 256, "description": "units may give \"singular|plural\""}}},
        "ConfigValue": {"type": "object", "required": ["value"], "properties": {"value": {"type": ["string", "number", "boolean"]}}},
    })
}

/// Statuses particular to a route, besides those every route of its kind answers.
const ROUTE_STATUSES: &[(&str, &str, &[u16])] = &[
    ("post", "/api/chat", &[403, 429, 502]),
    ("post", "/api/speak", &[429, 502]),
    ("post", "/api/transcribe", &[400, 408, 413, 429, 502]),
    ("get", "/ws/chat", &[403]),
    ("get", "/ws/voice", &[403]),
    ("get", "/api/login", &[303, 401]),
    ("get", "/api/admin/login", &[303, 403]),
    ("get", "/", &[303]),
    ("post", "/api/admin/users", &[409]),
    ("delete", "/api/admin/users/{user_id}", &[400]),
    ("post", "/api/admin/users/{user_id}/memories", &[409]),
    ("post", "/api/me/memories", &[409]),
    ("post", "/api/devices", &[409]),
    ("post", "/api/admin/models/select", &[404]),
    ("get", "/api/admin/{provider}/models", &[502]),
    ("post", "/api/admin/llm/backend", &[409, 502]),
    ("post", "/api/emergency/call/{id}", &[403]),
];

/// Routes whose JSON body may be left out.
const OPTIONAL_BODIES: &[(&str, &str)] = &[("post", "/api/emergency"), ("post", "/api/sessions")];

fn operation(access: Access, summary: &str, body: Option<&str>, status: u16, method: &str, path: &str) -> Value {
    let error = json!({"description": "error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}});
    let mut responses = Map::new();
    responses.insert(status.to_string(), json!({"description": "success"}));
    if access != Access::Public {
        responses.insert("401".into(), error.clone());
    }
    if access == Access::Admin {
        responses.insert("403".into(), error.clone());
    }
    if body.is_some() {
        responses.insert("400".into(), error.clone());
        responses.insert("422".into(), error.clone());
    }
    if body.is_some() {
        responses.insert("408".into(), error.clone());
        responses.insert("413".into(), error.clone());
    }
    if path.contains('{') {
        responses.insert("404".into(), error.clone());
    }
    // Every route answers 503 `overloaded` to a connection beyond the server's connection caps.
    responses.insert("503".into(), error.clone());
    let extra = ROUTE_STATUSES.iter().filter(|(m, p, _)| *m == method && *p == path);
    for code in extra.flat_map(|(_, _, codes)| codes.iter()) {
        let described = if *code == 303 {
            json!({"description": "redirect"})
        } else {
            error.clone()
        };
        responses.insert(code.to_string(), described);
    }
    let mut op = json!({"summary": summary, "responses": responses});
    op["security"] = match access {
        Access::Public => json!([]),
        Access::User => json!([{"bearer": []}, {"cookie": []}]),
        Access::Admin => json!([{"adminKey": []}, {"bearer": []}, {"cookie": []}]),
    };
    if let Some(schema) = body {
        let required = !OPTIONAL_BODIES.contains(&(method, path));
        op["requestBody"] = json!({"required": required, "content": {"application/json":
            {"schema": {"$ref": format!("#/components/schemas/{schema}")}}}});
    }
    let params: Vec<Value> = path
        .split('/')
        .filter_map(|seg| seg.strip_prefix('{')?.strip_suffix('}'))
        .map(|name| json!({"name": name, "in": "path", "required": true, "schema": {"type": "string"}}))
        .collect();
    if !params.is_empty() {
        op["parameters"] = Value::from(params);
    }
    op
}

/// The OpenAPI 3.1 document.
pub fn document() -> Value {
    let mut paths = Map::new();
    for (method, path, access, summary, body, status) in ENDPOINTS {
        let entry = paths.entry(path.to_string()).or_insert_with(|| json!({}));
        entry[*method] = operation(*access, summary, *body, *status, method, path);
    }
    json!({
        "openapi": "3.1.0",
        "info": {"title": "voice-gateway", "version": env!("CARGO_PKG_VERSION"),
            "description": "Self-hosted voice assistant gateway. Errors use the body in components/schemas/Error."},
        "paths": paths,
        "components": {
            "schemas": schemas(),
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "cookie": {"type": "apiKey", "in": "cookie", "name": "va_token"},
                "adminKey": {"type": "apiKey", "in": "header", "name": "X-Admin-Key"},
            },
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_status_and_optional_body_names_a_described_endpoint() {
        let described = |method: &str, path: &str| ENDPOINTS.iter().any(|e| e.0 == method && e.1 == path);
        for (method, path, _) in ROUTE_STATUSES {
            assert!(described(method, path), "{method} {path}");
        }
        for (method, path) in OPTIONAL_BODIES {
            assert!(described(method, path), "{method} {path}");
        }
    }
}
