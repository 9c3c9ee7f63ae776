//! Web search as a tool of the LLM: whether it is offered this turn, the tool itself, the budget, and the
//! notice for a time-sensitive question that has to go without it.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::quota::limit;
use crate::app::App;
use crate::config::keys::Key;
use crate::config::runtime::Effective;
use crate::error::Result;
use crate::prefs::Prefs;
use crate::providers::SearchId;
use crate::providers::llm::Tool;
use crate::providers::search::{Search, SearchResult};
use crate::store::usage::Counter;

/// Name of the tool offered to the LLM.
pub const TOOL_NAME: &str = "web_search";

/// The web-search decision of one turn.
pub struct WebPlan {
    /// The engine, when the tool is offered.
    pub engine: Option<(String, Arc<dyn Search>)>,
    /// The user's daily budget (0 = unlimited).
    pub budget: u32,
    /// Shown to the user when a time-sensitive question cannot be searched.
    pub notice: Option<String>,
}

/// The tool definition sent to the LLM.
pub fn tool() -> Tool {
    Tool {
        name: TOOL_NAME,
        description: "Search the web for current information (news, weather, prices, opening hours, recent \
                      events). Returns titles, addresses and excerpts of the best results.",
        parameters: json!({
            "type": "object",
            "properties": {"query": {"type": "string", "description": "what to search for"}},
            "required": ["query"],
        }),
    }
}

/// Decides whether this turn may search: the user's (or global) switch, a configured engine, and budget left.
pub async fn plan(
    app: &App,
    eff: &Effective,
    prefs: &Prefs,
    user_id: &str,
    question: &str,
    language: &str,
) -> Result<WebPlan> {
    // A person whose words stay at home sends no question to a search engine.
    let enabled = prefs
        .web_search_enabled
        .unwrap_or_else(|| eff.flag(Key::WebSearchEnabled))
        && !super::local_only(app, prefs);
    let budget = limit(prefs.web_search_daily_limit, Key::WebSearchDailyLimit, eff);
    let id: SearchId = eff.provider(Key::WebSearchProvider);
    let engine = Some(app.providers.search.get(id)).filter(|e| e.configured()).cloned();
    let used_up = budget != 0 && app.store.count_today(Counter::WebSearches, user_id).await? >= i64::from(budget);
    let offered = enabled && engine.is_some() && !used_up;
    let notice = (!offered && is_time_sensitive(question)).then(|| {
        let id = if used_up && enabled {
            "turn-search-used-up"
        } else {
            "turn-search-off"
        };
        crate::phrasebook::phrase(language, id)
    });
    Ok(WebPlan {
        engine: if offered {
            engine.map(|e| (id.to_string(), e))
        } else {
            None
        },
        budget,
        notice,
    })
}

/// Runs a search the LLM asked for. One result set counts once against the budget, atomically; when the
/// budget ran out meanwhile the model is told so instead of getting results.
#[tracing::instrument(target = "turn_trace", name = "search", skip_all,
    fields(provider = tracing::field::Empty, results = tracing::field::Empty))]
pub async fn run_tool(
    app: &App,
    plan: &WebPlan,
    user_id: &str,
    arguments: &str,
    language: &str,
) -> (String, Vec<SearchResult>) {
    let Some((id, engine)) = &plan.engine else {
        return ("web search is not available".into(), Vec::new());
    };
    tracing::Span::current().record("provider", id.as_str());
    let query = serde_json::from_str::<SearchArgs>(arguments)
        .ok()
        .map(|args| args.query)
        .filter(|q| !q.trim().is_empty());
    let Some(query) = query else {
        return ("error: call web_search with {\"query\": \"...\"}".into(), Vec::new());
    };
    let results = match engine.search(&query, language).await {
        Ok(results) => results,
        Err(err) => {
            tracing::warn!(provider = %id, error = %err, "web search failed");
            app.metrics.incr(
                crate::metrics::PROVIDER_ERRORS_TOTAL,
                &[("stage", "search"), ("provider", id)],
            );
            return (format!("web search failed: {err}"), Vec::new());
        }
    };
    tracing::Span::current().record("results", results.len());
    match app.store.count_within(Counter::WebSearches, user_id, plan.budget).await {
        Ok(Some(_)) => {}
        Ok(None) => return ("the daily web-search budget is used up".into(), Vec::new()),
        Err(err) => tracing::error!(error = %err, "counting a web search failed"),
    }
    if let Err(err) = app.store.add_cost(user_id, "web_search", 0.0).await {
        tracing::error!(error = %err, "recording web-search usage failed");
    }
    let report = SearchReport {
        query: &query,
        results: results
            .iter()
            .map(|r| Hit {
                content: &r.snippet,
                title: &r.title,
                url: &r.url,
            })
            .collect(),
    };
    let text = serde_json::to_string(&report).unwrap_or_else(|err| format!("web search failed: {err}"));
    (text, results)
}

/// The arguments the model calls the tool with (as the tool's `parameters` describe them).
#[derive(Deserialize)]
struct SearchArgs {
    query: String,
}

/// What the model reads back from a search.
#[derive(Serialize)]
struct SearchReport<'a> {
    query: &'a str,
    results: Vec<Hit<'a>>,
}

/// One result for the model; the fields stay in this order, the order the model has always read them in.
#[derive(Serialize)]
struct Hit<'a> {
    content: &'a str,
    title: &'a str,
    url: &'a str,
}

/// Whether a question clearly asks about the present (weather, news, "today", "latest", …): a word of any
/// language's `{current}` list (`locales/<lang>/turn.sentences`).
pub fn is_time_sensitive(question: &str) -> bool {
    // Gathered once: the lists are read at start and do not change.
    static CURRENT: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let current = CURRENT.get_or_init(|| {
        let languages = crate::hearing::languages().into_iter();
        let lists = languages.filter_map(|lang| crate::hearing::entries(lang, "current"));
        lists.flatten().map(|e| e.lower.as_str()).collect()
    });
    let lower = question.to_lowercase();
    current.iter().any(|w| contains_word(&lower, w))
}

fn contains_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_sensitive_questions_are_recognised() {
        for q in [
            "Wie wird das Wetter heute?",
            "What's the latest news?",
            "Was gibt es aktuell Neues?",
            "Weather in Berlin",
            "Who won the match today?",
        ] {
            assert!(is_time_sensitive(q), "{q}");
        }
        for q in [
            "Wie hoch ist die Zugspitze?",
            "Tell me a joke",
            "Was ist heuteige",
            "newsletter ideas",
        ] {
            assert!(!is_time_sensitive(q), "{q}");
        }
    }
}
