//! Automatic memory extraction: every `MEMORY_EXTRACTION_EVERY_N_TURNS` stored turns a background task asks the
//! LLM for durable facts about the user and keeps the new ones, up to `MEMORY_EXTRACTION_MAX`. It runs after
//! the answer is out, and a failure is only logged.

use std::sync::Arc;
use std::time::Duration;

use super::chat::default_model;
use super::prompt::language_name;
use crate::app::App;
use crate::config::keys::Key;
use crate::config::runtime::Effective;
use crate::providers::llm::{ChatMessage, ChatRequest, collect};
use crate::store::memories::Memory;
use crate::store::sessions::{Message, Session};
use crate::store::users::User;

/// Longest an extraction may run before it is given up.
const TIMEOUT: Duration = Duration::from_secs(120);
/// Longest fact kept, in characters.
const MAX_FACT_CHARS: usize = 300;

/// Starts an extraction in the background when this turn is the Nth.
pub async fn maybe_extract(app: &Arc<App>, user: &User, session: &Session, eff: &Effective) {
    let settings = &app.settings.memory;
    if !settings.enabled || user.is_anonymous {
        return;
    }
    let turns = match app.store.stored_turns(&user.id).await {
        Ok(n) => n,
        Err(err) => {
            tracing::error!(error = %err, "counting turns for memory extraction failed");
            return;
        }
    };
    if turns == 0 || turns % i64::from(settings.every_n_turns) != 0 {
        return;
    }
    // One extraction per user at a time, on all instances: two turns stored at once could both count the Nth.
    let lease = format!("memory-extraction:{}", user.id);
    let holder = format!("{}/{}", app.instance, crate::store::new_id());
    let lease_ms = i64::try_from(TIMEOUT.as_millis()).unwrap_or(i64::MAX);
    match app.store.claim_lease(&lease, &holder, lease_ms).await {
        Ok(true) => {}
        Ok(false) => return,
        Err(err) => {
            tracing::error!(error = %err, "claiming the memory extraction failed");
            return;
        }
    }
    let job = Job {
        app: Arc::clone(app),
        user: user.clone(),
        session_id: session.id.clone(),
        eff: eff.clone(),
    };
    let span = tracing::info_span!(target: crate::traces::TARGET, "memory_extraction", turns);
    tokio::spawn(tracing::Instrument::instrument(
        async move {
            let user = job.user.name.clone();
            let app = Arc::clone(&job.app);
            match tokio::time::timeout(TIMEOUT, job.run()).await {
                Ok(Ok(added)) => tracing::info!(%user, added, "memory extraction done"),
                Ok(Err(err)) => tracing::warn!(%user, error = %err, "memory extraction failed"),
                Err(_) => tracing::warn!(%user, "memory extraction timed out"),
            }
            if let Err(err) = app.store.release_lease(&lease, &holder).await {
                tracing::warn!(error = %err, "releasing the memory extraction lease failed; it expires by itself");
            }
        },
        span,
    ));
}

struct Job {
    app: Arc<App>,
    user: User,
    session_id: String,
    eff: Effective,
}

impl Job {
    async fn run(self) -> Result<usize, String> {
        let app = &self.app;
        let max = app.settings.memory.max.min(app.settings.memory.cap) as usize;
        let known = app.store.memories(&self.user.id).await.map_err(|e| e.to_string())?;
        if known.len() >= max {
            return Ok(0);
        }
        let window = app.settings.memory.every_n_turns.saturating_mul(2).max(2);
        let recent = app
            .store
            .recent_messages(&self.session_id, window)
            .await
            .map_err(|e| e.to_string())?;
        let provider = app
            .settings
            .memory
            .provider
            .unwrap_or_else(|| self.eff.provider(Key::DefaultLlmProvider));
        let engine = app.providers.llm.get(provider);
        let prefs = app.store.prefs(&self.user.id).await.unwrap_or_default();
        if super::local_only(app, &prefs) && !engine.capabilities().local {
            // Her words stay at home: what she said is not sent out to be remembered.
            return Ok(0);
        }
        let language = prefs
            .language
            .unwrap_or_else(|| app.settings.turn.default_language.clone());
        let (instruction, conversation) = prompt(&known, &recent, &language);
        let request = ChatRequest {
            model: default_model(&self.eff, provider),
            messages: vec![
                ChatMessage::new("system", instruction),
                ChatMessage::new("user", conversation),
            ],
            temperature: Some(0.0),
            tools: Vec::new(),
            max_tokens: Some(300),
        };
        let stream = engine.chat(request).await.map_err(|e| e.to_string())?;
        let (text, usage) = collect(stream).await.map_err(|e| e.to_string())?;
        if let Some(cost) = usage.and_then(|u| u.cost) {
            let _ = app.store.add_cost(&self.user.id, "llm", cost).await;
        }
        self.store_new(&known, &text, max).await
    }

    /// Stores the facts of `answer` that are not known yet, up to `max` memories; how many were stored.
    async fn store_new(&self, known: &[Memory], answer: &str, max: usize) -> Result<usize, String> {
        let mut seen: Vec<String> = known.iter().map(|m| m.text.to_lowercase()).collect();
        let mut added = 0;
        for fact in facts(answer) {
            if known.len() + added >= max {
                break;
            }
            if seen.contains(&fact.to_lowercase()) {
                continue;
            }
            let stored = self
                .app
                .store
                .add_memory(&self.user.id, &fact, "extraction", max as u32)
                .await
                .map_err(|e| e.to_string())?;
            if stored.is_none() {
                break;
            }
            seen.push(fact.to_lowercase());
            added += 1;
        }
        Ok(added)
    }
}

/// The extraction's instruction (in the user's language) and the conversation it reads: the facts known and
/// the recent messages.
fn prompt(known: &[Memory], recent: &[Message], language: &str) -> (String, String) {
    let mut conversation = String::from("Known facts:\n");
    for memory in known {
        conversation.push_str(&format!("- {}\n", memory.text));
    }
    conversation.push_str("\nConversation:\n");
    for message in recent {
        let who = if message.role == "assistant" {
            "Assistant"
        } else {
            "User"
        };
        conversation.push_str(&format!("{who}: {}\n", message.text));
    }
    let instruction = format!(
        "You extract durable facts about the user from a conversation: names, family, preferences, health, \
         routines, places. Only facts that will still be true next month, and only ones not already known. \
         Write each as one short sentence in {}, about the user in the third person, on its own line starting \
         with \"- \". If there is nothing new, answer NONE.",
        language_name(language)
    );
    (instruction, conversation)
}

/// The facts of the model's answer: list lines (`- `, `* `, `1. `), without NONE and without overlong ones.
fn facts(answer: &str) -> Vec<String> {
    answer
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            let item = line
                .strip_prefix("- ")
                .or_else(|| line.strip_prefix("* "))
                .or_else(|| {
                    line.split_once(". ")
                        .filter(|(n, _)| n.parse::<u32>().is_ok())
                        .map(|(_, rest)| rest)
                })?;
            let item = item.trim();
            let valid = (3..=MAX_FACT_CHARS).contains(&item.chars().count()) && !item.eq_ignore_ascii_case("none");
            valid.then(|| item.to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn facts_are_read_from_list_lines() {
        let answer =
            "Here you go:\n- Anna lives in Hamburg.\n* She likes green tea.\n2. Her dog is called Bello.\nNONE\n- x";
        assert_eq!(
            super::facts(answer),
            vec![
                "Anna lives in Hamburg.",
                "She likes green tea.",
                "Her dog is called Bello."
            ]
        );
        assert!(super::facts("NONE").is_empty());
    }
}
