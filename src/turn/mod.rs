//! One conversational turn: route, quota, history, memories, the LLM (with web search as a tool), the text
//! pipeline, speech, storing the turn, cost accounting, and memory extraction in the background.
//!
//! REST handlers call [`run`] and wait for the outcome; streaming channels pass an event sender and receive
//! tokens and spoken sentences while the answer is written.

pub mod bound;
pub mod chat;
mod echo;
mod fallback;
pub mod languages;
pub mod ledger;
mod memory;
mod meter;
pub mod prefetch;
pub mod prompt;
pub mod quota;
pub mod search;
pub mod semantic;
pub mod speech;
pub mod translate;

use std::sync::Arc;

use serde_json::{Map, Value};
use tokio::sync::mpsc;

use crate::app::App;
use crate::config::keys::Key;
use crate::config::route::{Route, RouteLayer, resolve};
use crate::config::runtime::Effective;
use crate::error::{ApiError, Result};
use crate::prefs::Prefs;
use crate::providers::llm::{ChatMessage, ChatRequest};
use crate::providers::registry::{Engine, Engines};
use crate::providers::tts::Speech;
use crate::providers::{LlmId, ProviderError, ProviderId, SttId, TtsId};
use crate::store::sessions::Session;
use crate::store::users::User;
use crate::text::pipeline::Pipeline;
use prefetch::Prefetch;

/// The session if it exists and belongs to the caller; another user's answers exactly as an unknown one (404),
/// so that an id tells nobody whether it exists.
pub async fn owned(app: &App, user: &User, id: &str) -> Result<Session> {
    let session = app.store.session(id).await?;
    match session {
        Some(session) if session.user_id == user.id => Ok(session),
        Some(_) => {
            tracing::debug!(user = %user.name, "another user's session refused as unknown");
            Err(ApiError::NotFound("session"))
        }
        None => Err(ApiError::NotFound("session")),
    }
}

/// Longest question accepted, in characters (a spoken or typed turn is far shorter).
pub const MAX_TEXT_CHARS: usize = 4000;

/// What the caller asks for.
#[derive(Debug, Default)]
pub struct TurnRequest {
    /// The user's words.
    pub text: String,
    /// The session to continue; `None` = stateless.
    pub session: Option<Session>,
    /// The request layer of route resolution.
    pub layer: RouteLayer,
    /// Answer as text only (the device speaks it itself).
    pub text_only: bool,
    /// The caller speaks the answer sentence by sentence from [`TurnEvent::Sentence`]; no full audio is made.
    pub audio_stream: bool,
    /// The request was already counted against the quota (a voice turn counts before transcribing).
    pub precharged: bool,
    /// Earlier messages the client keeps itself (the OpenAI-compatible API), instead of a session's history:
    /// their system texts join the gateway's system message, the last `HISTORY_MAX_MESSAGES` others follow it.
    pub context: Vec<ChatMessage>,
    /// The answer, started before the turn was certain to end; used when the turn asks the same.
    pub prefetch: Option<Prefetch>,
    /// Notes what the turn writes, to take it back if the question turns out to be half of one.
    pub ledger: Option<ledger::Ledger>,
    /// The answer will be heard even without the gateway's audio (a spoken question, a satellite's own TTS): it
    /// is bounded for speech, as every answer with audio is.
    pub spoken: bool,
    /// The channel a person typed the words on (`chat`, `api`, `v1`, `realtime`): a typed turn goes through
    /// the help dialogue first ([`crate::emergency::typed`]). None for spoken words, which the voice channel's
    /// own dialogue heard.
    pub typed: Option<&'static str>,
    /// The connection's care dialogue: a bare yes confirms only a reminder it told, and the answer to its
    /// question for a missing part completes the request. None without a connection (`POST /api/chat`, `/v1`).
    pub care: Option<crate::care::dialogue::Dialogue>,
}

impl TurnRequest {
    /// Whether the answer will be heard: the gateway speaks it, or the question was spoken.
    fn heard(&self) -> bool {
        self.spoken || !self.text_only
    }
}

/// What happens during a turn, for streaming channels.
#[derive(Debug, Clone, PartialEq)]
pub enum TurnEvent {
    /// The turn passed its checks and the quota; the answer is being written along this route.
    Accepted(Route),
    /// A token of the answer as the LLM writes it.
    Token(String),
    /// A sentence of the answer, ready to be spoken (after the text pipeline).
    Sentence(String),
    /// A friendly system message (web search unavailable for a time-sensitive question).
    Notice(String),
    /// The help dialogue answered a typed turn (before [`TurnEvent::Accepted`]): `asked`, `declined` or the
    /// alarm's outcome, with its words.
    Help(crate::emergency::typed::Said),
}

/// The finished turn.
#[derive(Debug, Clone)]
pub struct TurnOutcome {
    /// The answer as the LLM wrote it.
    pub text: String,
    /// The help dialogue answered instead of the model: what it said ([`TurnEvent::Help`]).
    pub help: Option<crate::emergency::typed::Said>,
    /// The answer's spoken sentences.
    pub sentences: Vec<String>,
    /// Source addresses of the web results the answer used.
    pub citations: Vec<String>,
    /// The route the turn took.
    pub route: Route,
    /// LLM provider and model that answered (after any fallback).
    pub llm: (String, String),
    /// Providers that failed before one answered, as `stage:provider`.
    pub fallbacks: Vec<String>,
    /// The notice shown for a time-sensitive question without web search.
    pub notice: Option<String>,
    /// The spoken answer, unless text only.
    pub audio: Option<Speech>,
    /// The TTS provider that spoke.
    pub tts_provider: Option<TtsId>,
    /// The chosen cloud TTS could not speak the language, so the local voice spoke.
    pub tts_fallback: bool,
    /// History messages sent to the LLM.
    pub history_len: usize,
    /// Memories sent to the LLM.
    pub memories_len: usize,
    /// Tokens of the requests and of the answer, as the providers reported them (`None`: none did).
    pub usage: Option<TokenUsage>,
}

/// Tokens a turn's LLM requests used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TokenUsage {
    /// Tokens of the requests (a web-search round counts its own).
    pub prompt_tokens: u64,
    /// Tokens of the answer.
    pub completion_tokens: u64,
}

/// Optional event channel of a streaming caller.
pub type Events = Option<mpsc::UnboundedSender<TurnEvent>>;

fn emit(events: &Events, event: TurnEvent) {
    if let Some(tx) = events {
        let _ = tx.send(event);
    }
}

/// A provider failure as the client sees it: a voice or language the engine cannot use is the caller's
/// mistake (422); anything else is the provider's (502, naming it).
pub fn provider_error(err: ProviderError) -> ApiError {
    match err {
        ProviderError::Unusable(message) => ApiError::Validation(message),
        other => ApiError::Upstream(other.to_string()),
    }
}

/// Checks the question: not empty, not oversized.
pub fn check_text(text: &str) -> Result<&str> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::BadRequest {
            code: "empty_text",
            message: "text is empty: say or type something".into(),
        });
    }
    if text.chars().count() > MAX_TEXT_CHARS {
        return Err(ApiError::PayloadTooLarge);
    }
    Ok(text)
}

/// The user's route for this request: effective defaults < user prefs < session < request.
pub fn route_for(app: &App, eff: &Effective, prefs: &Prefs, request: &TurnRequest) -> Route {
    let base = RouteLayer {
        stt_provider: Some(eff.provider(Key::DefaultSttProvider)),
        llm_provider: Some(eff.provider(Key::DefaultLlmProvider)),
        tts_provider: Some(eff.provider(Key::DefaultTtsProvider)),
        llm_model: None,
        voice: None,
        language: Some(app.settings.turn.default_language.clone()),
    };
    let session = request
        .session
        .as_ref()
        .map(|s| RouteLayer::from_map(&s.overrides_map()))
        .unwrap_or_default();
    let layers = [base, prefs.route_layer(), session, request.layer.clone()];
    let mut route = resolve(&layers, prefs.allowed_languages());
    if local_only(app, prefs) {
        // Kept at home: a stage chosen in the cloud goes to a local engine of its stage where one is set up.
        route.local_only = true;
        route.stt = at_home(&app.providers.stt, route.stt);
        if at_home(&app.providers.llm, route.llm) != route.llm {
            route.llm = at_home(&app.providers.llm, route.llm);
            route.llm_model = None;
        }
        if at_home(&app.providers.tts, route.tts) != route.tts {
            route.tts = at_home(&app.providers.tts, route.tts);
            route.voice = None;
        }
    }
    route
}

/// Whether a person's words stay on local providers: their `local_only` pref, else `LOCAL_ONLY`.
pub fn local_only(app: &App, prefs: &Prefs) -> bool {
    prefs.local_only.unwrap_or(app.settings.privacy.local_only)
}

/// `id` when its engine runs at home, else the first configured engine of the stage that does (else `id`,
/// which [`order`] then leaves out).
fn at_home<I: ProviderId, E: Engine + ?Sized>(engines: &Engines<I, E>, id: I) -> I {
    if engines.get(id).capabilities().local {
        return id;
    }
    engines
        .iter()
        .find(|(_, e)| {
            let c = e.capabilities();
            c.local && c.configured
        })
        .map_or(id, |(found, _)| found)
}

/// The engines a stage of `route` tries, `first` first then `fallbacks`: for a person whose words stay at
/// home, only those on this machine or its network.
pub fn order<I: ProviderId, E: Engine + ?Sized>(
    engines: &Engines<I, E>,
    route: &Route,
    first: I,
    fallbacks: &[I],
) -> Vec<I> {
    let order = crate::providers::chain(first, fallbacks);
    if !route.local_only {
        return order;
    }
    order
        .into_iter()
        .filter(|id| engines.get(*id).capabilities().local)
        .collect()
}

/// The notice, in the person's language, when a stage has no engine at home for a person whose words stay
/// there: nothing is sent anywhere else.
pub fn kept_at_home(route: &Route) -> ApiError {
    ApiError::Upstream(crate::phrasebook::phrase(&route.language, "turn-kept-at-home"))
}

/// The route options of a turn, the same in `POST /api/chat` and in the WebSocket frames.
#[derive(Debug, Clone, Default, serde::Deserialize, utoipa::ToSchema)]
pub struct TurnOptions {
    /// LLM provider: local or cloud (`llm_provider` is accepted too).
    #[serde(alias = "llm_provider")]
    #[schema(value_type = Option<LlmId>)]
    pub provider: Option<String>,
    /// LLM model.
    pub model: Option<String>,
    /// TTS voice.
    pub voice: Option<String>,
    /// Language; an unknown or disallowed one is clamped to an allowed one.
    pub language: Option<String>,
    /// STT provider.
    #[schema(value_type = Option<SttId>)]
    pub stt_provider: Option<String>,
    /// TTS provider.
    #[schema(value_type = Option<TtsId>)]
    pub tts_provider: Option<String>,
}

impl TurnOptions {
    /// The request layer of route resolution, checked like a session's overrides.
    pub fn layer(&self) -> Result<RouteLayer> {
        request_layer(&[
            ("llm_provider", self.provider.as_deref()),
            ("llm_model", self.model.as_deref()),
            ("voice", self.voice.as_deref()),
            ("language", self.language.as_deref()),
            ("stt_provider", self.stt_provider.as_deref()),
            ("tts_provider", self.tts_provider.as_deref()),
        ])
    }

    /// These options with `over`'s given values on top.
    pub fn merged(&self, over: &Self) -> Self {
        let pick = |o: &Option<String>, b: &Option<String>| o.clone().or_else(|| b.clone());
        Self {
            provider: pick(&over.provider, &self.provider),
            model: pick(&over.model, &self.model),
            voice: pick(&over.voice, &self.voice),
            language: pick(&over.language, &self.language),
            stt_provider: pick(&over.stt_provider, &self.stt_provider),
            tts_provider: pick(&over.tts_provider, &self.tts_provider),
        }
    }
}

/// The request layer of route resolution from a request's route options (key, value), checked like a
/// session's overrides, so a 422 names the field.
pub fn request_layer(fields: &[(&str, Option<&str>)]) -> Result<RouteLayer> {
    let map: Map<String, Value> = fields
        .iter()
        .filter(|(key, _)| *key != "language")
        .filter_map(|(key, value)| value.map(|v| (key.to_string(), Value::from(v))))
        .collect();
    let mut layer = RouteLayer::from_map(&crate::prefs::validate_route(&map)?);
    // A request's language is never refused: an unknown one (a device's `en-US`) is clamped like a disallowed
    // one, when the route is resolved.
    layer.language = fields
        .iter()
        .find(|(key, _)| *key == "language")
        .and_then(|(_, value)| *value)
        .map(String::from);
    Ok(layer)
}

/// What a turn works with before it asks the model: nothing of it is counted or stored yet.
struct Prepared {
    eff: Effective,
    prefs: Prefs,
    route: Route,
    history_len: usize,
    memories_len: usize,
    messages: Vec<ChatMessage>,
    web: search::WebPlan,
}

/// Reads what the turn of `request` needs: settings, prefs, route, history, memories, the messages and the web
/// plan; refuses a question or a voice that cannot be used.
async fn prepare(app: &App, user: &User, request: &TurnRequest) -> Result<Prepared> {
    let settled = settle(app, user, request).await?;
    prepare_with(app, user, request, settled).await
}

/// The turn's effective settings, the user's prefs and the route.
async fn settle(app: &App, user: &User, request: &TurnRequest) -> Result<(Effective, Prefs, Route)> {
    check_text(&request.text)?;
    let eff = app.runtime.effective().await?;
    let prefs = app.store.prefs(&user.id).await?;
    let route = route_for(app, &eff, &prefs, request);
    Ok((eff, prefs, route))
}

/// [`prepare`] with the settings, prefs and route already read.
async fn prepare_with(
    app: &App,
    user: &User,
    request: &TurnRequest,
    (eff, prefs, route): (Effective, Prefs, Route),
) -> Result<Prepared> {
    let question = check_text(&request.text)?;
    if !request.text_only {
        speech::check_voice(app, &route)?;
    }
    let history = match &request.session {
        Some(s) => {
            app.store
                .recent_messages(&s.id, app.settings.limits.history_max_messages)
                .await?
        }
        None => Vec::new(),
    };
    let memories = if user.is_anonymous {
        Vec::new()
    } else {
        app.store.memories(&user.id).await?
    };
    let memories = prompt::memories_within(&memories, app.settings.memory.prompt_max_chars);
    let mut messages = vec![prompt::system_message(&eff, user, &memories, &route.language)];
    messages.extend(history.iter().map(|m| prompt::history_message(&m.role, &m.text)));
    prompt::add_context(
        &mut messages,
        &request.context,
        app.settings.limits.history_max_messages,
    );
    messages.push(prompt::user_message(question));
    let web = search::plan(app, &eff, &prefs, &user.id, question, &route.language).await?;
    Ok(Prepared {
        history_len: history.len(),
        memories_len: memories.len(),
        eff,
        prefs,
        route,
        messages,
        web,
    })
}

/// The first model request the turn of `request` would make, and to whom: what [`Prefetch`] asks early.
async fn first_request(app: &App, user: &User, request: &TurnRequest) -> Result<(LlmId, ChatRequest)> {
    let prep = prepare(app, user, request).await?;
    if quota::spent(app, &user.id, &prep.prefs, &prep.eff).await? {
        return Err(ApiError::TooManyRequests(
            "the daily limit of requests is reached".into(),
        ));
    }
    let provider = prep.route.llm;
    let ctx = chat::Context {
        app,
        eff: &prep.eff,
        user,
        web: &prep.web,
        route: &prep.route,
        limits: chat::limits(app, request.heard()),
    };
    let model = chat::model_for(&prep.eff, &prep.route, 0, provider);
    Ok((
        provider,
        chat::round_request(&ctx, (provider, &model), prep.messages, 0),
    ))
}

/// Runs one turn for `user` (exported as the trace's `turn` span: sizes, never the words).
#[tracing::instrument(target = "turn_trace", name = "turn", skip_all,
    fields(audio_stream = request.audio_stream, history = tracing::field::Empty, memories = tracing::field::Empty))]
pub async fn run(app: &Arc<App>, user: &User, mut request: TurnRequest, events: Events) -> Result<TurnOutcome> {
    let settled = settle(app, user, &request).await?;
    let here = answered_here(app, user, &mut request, &events, &settled).await?;
    // Any turn is a sign of life for the daily check-in; stored beside the turn, not before it (and after the
    // gateway read an answer to the check-in's question, which needs to know it is still asking).
    let (signer, user_id) = (app.clone(), user.id.clone());
    tokio::spawn(async move { crate::care::checkin::sign(&signer, &user_id).await });
    if let Some(outcome) = here {
        return Ok(outcome);
    }
    let Prepared {
        eff,
        prefs,
        route,
        history_len,
        memories_len,
        messages,
        web,
    } = prepare_with(app, user, &request, settled).await?;
    tracing::Span::current()
        .record("history", history_len)
        .record("memories", memories_len);
    if !request.precharged {
        quota::charge_request(app, &user.id, &prefs, &eff).await?;
        request.ledger.iter().for_each(|ledger| ledger.counted());
    }
    emit(&events, TurnEvent::Accepted(route.clone()));
    // What the person should know before the answer: the model does not speak their language, web search is
    // not there for a question about today, another voice speaks it.
    let notices: Vec<String> = languages::notice(app, &eff, &route)
        .into_iter()
        .chain(web.notice.clone())
        .chain(speech::voice_notice(app, &route).filter(|_| !request.text_only))
        .collect();
    for notice in &notices {
        emit(&events, TurnEvent::Notice(notice.clone()));
    }
    let lexicon = app.lexicon(&route.language).await?;
    let mut pipeline = Pipeline::new(&route.language, lexicon, eff.flag(Key::TtsNormalizationEnabled));
    if request.audio_stream {
        // Spoken sentence by sentence: the first audio need not wait for a long first sentence.
        pipeline = pipeline.first_clause(app.settings.voice.first_clause_words);
    }
    let ctx = chat::Context {
        app,
        eff: &eff,
        user,
        web: &web,
        route: &route,
        limits: chat::limits(app, request.heard()),
    };
    let answer = chat::answer(&ctx, messages, &pipeline, &events, request.prefetch.take()).await?;
    if let Some(cost) = answer.cost
        && let Err(err) = app.store.add_cost(&user.id, "llm", cost).await
    {
        tracing::error!(error = %err, "recording LLM cost failed");
    }

    let mut outcome = TurnOutcome {
        text: answer.text.trim().to_string(),
        help: None,
        sentences: answer.sentences,
        citations: answer.citations,
        llm: answer.llm,
        fallbacks: answer.fallbacks,
        notice: (!notices.is_empty()).then(|| notices.join(" ")),
        audio: None,
        tts_provider: None,
        tts_fallback: false,
        history_len,
        memories_len,
        usage: answer.usage,
        route,
    };
    speak_whole(app, (&eff, &prefs), &request, &mut outcome).await?;
    store(app, user, &request, &outcome.text, &eff).await?;
    Ok(outcome)
}

/// A typed call for help, or the answer to the help question, answered by the help dialogue
/// ([`crate::emergency::typed`]): never counted against the quota, never asked of the model. None for any
/// other turn.
async fn help_here(
    app: &Arc<App>,
    user: &User,
    request: &TurnRequest,
    events: &Events,
    settled: &(Effective, Prefs, Route),
) -> Result<Option<TurnOutcome>> {
    let Some(channel) = request.typed else {
        return Ok(None);
    };
    let (_, prefs, route) = settled;
    let heard = (channel, route.language.as_str());
    let Some(said) = crate::emergency::typed::hear(app, user, prefs, request.text.trim(), heard).await? else {
        return Ok(None);
    };
    emit(events, TurnEvent::Help(said.clone()));
    let mut outcome = said_here(app, user, request, events, settled, (said.text.clone(), "help")).await?;
    outcome.help = Some(said);
    Ok(Some(outcome))
}

/// A turn the gateway answers itself, the model not asked: a typed call for help ([`help_here`]), else a
/// request about reminders or timers ([`care_here`]). None for any other question.
async fn answered_here(
    app: &Arc<App>,
    user: &User,
    request: &mut TurnRequest,
    events: &Events,
    settled: &(Effective, Prefs, Route),
) -> Result<Option<TurnOutcome>> {
    match help_here(app, user, request, events, settled).await? {
        Some(outcome) => Ok(Some(outcome)),
        None => care_here(app, user, request, events, settled).await,
    }
}

/// A request about reminders or timers, answered by the gateway itself ([`crate::care::asked`]): the answer
/// goes out as the model's would (its text, its sentences, its speech) and is stored with the question; no
/// model is asked. None for any other question.
async fn care_here(
    app: &Arc<App>,
    user: &User,
    request: &mut TurnRequest,
    events: &Events,
    settled: &(Effective, Prefs, Route),
) -> Result<Option<TurnOutcome>> {
    let (eff, prefs, route) = settled;
    let asker = crate::care::asked::Asker {
        user,
        prefs,
        by: if request.heard() { "voice" } else { "user" },
        dialogue: request.care.as_ref(),
    };
    let asked = crate::care::asked::answer(app, &asker, request.text.trim(), &route.language).await?;
    let Some(text) = asked else {
        return Ok(None);
    };
    if !request.precharged {
        quota::charge_request(app, &user.id, prefs, eff).await?;
        request.ledger.iter().for_each(|ledger| ledger.counted());
    }
    said_here(app, user, request, events, settled, (text, "reminders"))
        .await
        .map(Some)
}

/// The gateway's own answer `text` (by `who`: `reminders`, `help`) going out as the model's would: its
/// text, its sentences, its speech, stored with the question.
async fn said_here(
    app: &Arc<App>,
    user: &User,
    request: &TurnRequest,
    events: &Events,
    (eff, prefs, route): &(Effective, Prefs, Route),
    (text, who): (String, &str),
) -> Result<TurnOutcome> {
    emit(events, TurnEvent::Accepted(route.clone()));
    emit(events, TurnEvent::Token(text.clone()));
    let lexicon = app.lexicon(&route.language).await?;
    let mut spoken = Pipeline::new(&route.language, lexicon, eff.flag(Key::TtsNormalizationEnabled)).stream();
    let mut sentences = spoken.push(&text);
    sentences.extend(spoken.finish());
    for sentence in &sentences {
        emit(events, TurnEvent::Sentence(sentence.clone()));
    }
    let mut outcome = TurnOutcome {
        text,
        help: None,
        sentences,
        citations: Vec::new(),
        llm: ("gateway".into(), who.into()),
        fallbacks: Vec::new(),
        notice: None,
        audio: None,
        tts_provider: None,
        tts_fallback: false,
        history_len: 0,
        memories_len: 0,
        usage: None,
        route: route.clone(),
    };
    speak_whole(app, (eff, prefs), request, &mut outcome).await?;
    store(app, user, request, &outcome.text, eff).await?;
    Ok(outcome)
}

/// Speaks the whole answer as one piece of audio, unless the caller speaks it sentence by sentence or not at all.
async fn speak_whole(
    app: &App,
    (eff, prefs): (&Effective, &Prefs),
    request: &TurnRequest,
    outcome: &mut TurnOutcome,
) -> Result<()> {
    if request.text_only || request.audio_stream || outcome.sentences.is_empty() {
        return Ok(());
    }
    let said = speech::synthesize(app, eff, prefs, &outcome.route, &outcome.sentences.join(" ")).await?;
    outcome.fallbacks.extend(said.fallbacks);
    outcome.tts_provider = Some(said.provider);
    outcome.tts_fallback = said.language_fallback;
    outcome.audio = Some(said.speech);
    Ok(())
}

/// Stores the question and the answer in the request's session (when it has one, under the ids its ledger
/// was told), and lets the memory extraction look at the conversation. A spoken question the person may
/// still go on with is shown on their devices, and read for memories, only once it cannot be continued (and
/// never when it was: its ledger takes it back).
async fn store(app: &Arc<App>, user: &User, request: &TurnRequest, answer: &str, eff: &Effective) -> Result<()> {
    let Some(session) = &request.session else {
        return Ok(());
    };
    let ids = [crate::store::new_id(), crate::store::new_id()];
    if let Some(ledger) = &request.ledger {
        ledger.storing(&ids);
    }
    let open_for = request.ledger.as_ref().and_then(ledger::Ledger::open_for);
    let visible_at = open_for.map(|left| crate::store::now_ms() + left.as_millis() as i64);
    let turn = (request.text.trim(), answer);
    app.store
        .store_turn_as(&session.id, &user.id, turn, &ids, visible_at)
        .await?;
    match (open_for, &request.ledger) {
        (Some(left), Some(ledger)) => {
            let (app, user, session, eff, ledger) =
                (app.clone(), user.clone(), session.clone(), eff.clone(), ledger.clone());
            tokio::spawn(async move {
                tokio::time::sleep(left).await;
                if !ledger.taken_back() {
                    memory::maybe_extract(&app, &user, &session, &eff).await;
                }
            });
        }
        _ => memory::maybe_extract(app, user, session, eff).await,
    }
    Ok(())
}
