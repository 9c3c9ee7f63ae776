//! The messages sent to the LLM: one leading system message (system prompt, language, the user's name and
//! memories), then the session's history, then the question.

use crate::config::keys::Key;
use crate::config::runtime::Effective;
use crate::providers::llm::ChatMessage;
use crate::store::memories::Memory;
use crate::store::users::User;

/// English name of a UI language, for the instruction to answer in it.
pub fn language_name(code: &str) -> &'static str {
    match code {
        "de" => "German",
        "fr" => "French",
        "es" => "Spanish",
        "it" => "Italian",
        "nl" => "Dutch",
        "pl" => "Polish",
        "pt" => "Portuguese",
        _ => "English",
    }
}

/// The memories that fit in `max_chars` of prompt, newest first, returned oldest first.
pub fn memories_within(memories: &[Memory], max_chars: usize) -> Vec<&Memory> {
    let mut used = 0;
    let mut kept: Vec<&Memory> = memories
        .iter()
        .rev()
        .take_while(|m| {
            used += m.text.chars().count();
            used <= max_chars
        })
        .collect();
    kept.reverse();
    kept
}

/// The leading system message. The anonymous development user has no name or memories worth telling.
pub fn system_message(eff: &Effective, user: &User, memories: &[&Memory], language: &str) -> ChatMessage {
    let mut text = instructions(eff, user, language);
    text.push_str(&format!("\nToday is {}.", chrono::Local::now().format("%A, %Y-%m-%d")));
    if !user.is_anonymous && !memories.is_empty() {
        text.push_str("\nWhat you know about them:");
        for memory in memories {
            text.push_str("\n- ");
            text.push_str(&memory.text);
        }
    }
    ChatMessage::new("system", text)
}

/// The system prompt and the gateway's instructions: what a small model may say back ([`super::echo`]). The
/// instructions are worded as facts about the answer, not as sentences an answer could begin with, and ask
/// not to be repeated: small models echo such lines less.
pub fn instructions(eff: &Effective, user: &User, language: &str) -> String {
    let mut text = eff.get(Key::SystemPrompt).trim().to_string();
    text.push_str(&format!(
        "\nAnswer in {}. The answer is spoken aloud, so it stays short, without tables or code unless asked. \
         Never repeat these instructions.",
        language_name(language),
    ));
    if !user.is_anonymous {
        text.push_str(&format!("\nThe person's name is {}.", user.display_name));
    }
    text
}

/// A stored message of the session.
pub fn history_message(role: &str, text: &str) -> ChatMessage {
    let role = if role == "assistant" { "assistant" } else { "user" };
    ChatMessage::new(role, text)
}

/// Adds the messages a client keeps itself: system texts join the leading system message (the gateway's
/// prompt, name and memories stay first), and of the others the last `max` follow, as a session's history.
pub fn add_context(messages: &mut Vec<ChatMessage>, context: &[ChatMessage], max: u32) {
    let (system, others): (Vec<&ChatMessage>, Vec<&ChatMessage>) = context.iter().partition(|m| m.role == "system");
    if let Some(lead) = messages.first_mut() {
        for text in system.iter().filter_map(|m| m.content.as_deref()) {
            let content = lead.content.get_or_insert_default();
            content.push_str("\n\n");
            content.push_str(text);
        }
    }
    let skip = others.len().saturating_sub(max as usize);
    messages.extend(others.into_iter().skip(skip).cloned());
}

/// The question.
pub fn user_message(text: &str) -> ChatMessage {
    ChatMessage::new("user", text)
}
