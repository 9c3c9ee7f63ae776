//! Help in typed text: every typed turn of a person (the page's chat, `/ws/chat`, `POST /api/chat`,
//! `/v1/chat/completions`, Realtime's text input) goes through the same help dialogue as speech
//! ([`super::dialogue`]; the tolerant matcher, no second hearing: there is no audio). A call for help is
//! answered with the question, in the person's language and form of address; the alarm goes only on the
//! person's explicit yes (typed, a key typed alone, or the help button). Silence after the question sends
//! nothing: the specification's help is manual, and the question lapses after [`QUESTION_OPEN_MS`].
//!
//! The question is kept in the database (`help_questions`), not in a connection: the answer may come on another
//! text channel or instance, and is taken once.

use super::dialogue::{self, Help, Person, Reply};
use super::{Answer, Way};
use crate::app::App;
use crate::error::Result;
use crate::prefs::Prefs;
use crate::store::now_ms;
use crate::store::users::User;

/// How long a typed help question waits for its answer (5 minutes, the default cooldown): a "ja" typed later
/// is a question for the model again.
pub const QUESTION_OPEN_MS: i64 = 5 * 60 * 1000;

/// What the help dialogue said to a typed turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    /// `asked` (the question, or asked again), `declined`, or the alarm's outcome (`alerted`,
    /// `no_recipients`, `delivery_failed`, `cooldown`).
    pub status: String,
    /// The words, in the person's language and form of address.
    pub text: String,
}

/// The help dialogue's answer to the typed `text` of `user` on `channel` (its name, the device of an alarm),
/// in `language`; none when the text is a question for the model.
pub async fn hear(
    app: &App,
    user: &User,
    prefs: &Prefs,
    text: &str,
    (channel, language): (&str, &str),
) -> Result<Option<Said>> {
    let since = now_ms() - QUESTION_OPEN_MS;
    let state = if app.store.help_asked(&user.id, since).await? {
        Help::Asked
    } else {
        Help::Listening
    };
    if !dialogue::concerns_help(text, &[], language, state) {
        return Ok(None);
    }
    let person = Person::of(app, &user.id, prefs, language).await;
    let Some(reply) = dialogue::reply(text, &[], person, state) else {
        return Ok(None);
    };
    let said = match reply {
        Reply::Ask(question) => {
            if state == Help::Listening {
                tracing::warn!(user = %user.name, channel, "a typed call for help; asking whether to alert the contacts");
            }
            let first = (state == Help::Listening).then_some(text);
            app.store.ask_help(&user.id, channel, first).await?;
            Said {
                status: "asked".into(),
                text: question,
            }
        }
        Reply::Declined(words) => {
            app.store.settle_help(&user.id, 0).await?;
            tracing::info!(user = %user.name, channel, "a typed help question was answered with a no");
            Said {
                status: "declined".into(),
                text: words,
            }
        }
        // Nobody at all can be reached: told so and to call 112; nothing is sent, recorded or held back.
        Reply::Nobody(words) => {
            app.store.settle_help(&user.id, 0).await?;
            tracing::warn!(user = %user.name, channel, "a typed call for help reaches nobody; the person was told to call 112");
            Said {
                status: "no_recipients".into(),
                text: words,
            }
        }
        // A yes sent twice raises once (the cooldown's claim).
        Reply::Alarm => {
            let said = app.store.settle_help(&user.id, 0).await?;
            let answer: Answer = super::raise_said(app, user, (channel, Way::Typed, said), language).await?;
            Said {
                status: answer.status.into(),
                text: answer.message,
            }
        }
    };
    Ok(Some(said))
}

/// The help button pressed: the words of the typed question it answers, when one was open
/// ([`QUESTION_OPEN_MS`]); a lapsed one is closed too.
pub async fn answered(app: &App, user_id: &str) -> Result<Option<String>> {
    let open = app.store.settle_help(user_id, now_ms() - QUESTION_OPEN_MS).await?;
    if open.is_none() {
        app.store.settle_help(user_id, 0).await?;
    }
    Ok(open)
}

/// The person answered the typed question another way (the help button, or its dialog's no): it is no longer
/// open. The words it asked about when one was open.
pub async fn settle(app: &App, user_id: &str) -> Result<Option<String>> {
    Ok(app.store.settle_help(user_id, 0).await?)
}

#[cfg(test)]
mod tests {
    use crate::emergency::hearing::is_call_for_help;

    /// Per language of the typed corpus: the calls for help missed and the harmless sentences asked about, at
    /// most (measured with `cargo run --example typed_help_bench`). Issue 76 grew the corpus to about 50 of each
    /// per language, written apart from the phrases (first figures: docs/decisions.md); the phrases were then
    /// written for it: no call missed, no harmless sentence asked about.
    const CEILINGS: [(&str, (usize, usize)); 8] = [
        ("de", (0, 0)),
        ("en", (0, 0)),
        ("es", (0, 0)),
        ("fr", (0, 0)),
        ("it", (0, 0)),
        ("nl", (0, 0)),
        ("pl", (0, 0)),
        ("pt", (0, 0)),
    ];

    /// The typed corpus (`tests/fixtures/help_typed.tsv`): calls for help as frightened people type them, and
    /// harmless sentences with the same words, both ways within their ceilings.
    #[test]
    fn the_typed_corpus_stays_within_its_misses_and_needless_questions() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/help_typed.tsv");
        let corpus = std::fs::read_to_string(path).unwrap();
        for (language, (missed_at_most, asked_at_most)) in CEILINGS {
            let (mut missed, mut asked) = (Vec::new(), Vec::new());
            for line in corpus.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
                let [kind, lang, text] = line.splitn(3, '\t').collect::<Vec<_>>()[..] else {
                    panic!("not kind, language, text: {line}");
                };
                let heard = is_call_for_help(text, lang);
                match kind {
                    _ if lang != language => {}
                    "call" if !heard => missed.push(text),
                    "harmless" if heard => asked.push(text),
                    _ => {}
                }
            }
            assert!(missed.len() <= missed_at_most, "{language}: calls missed: {missed:?}");
            assert!(
                asked.len() <= asked_at_most,
                "{language}: harmless sentences asked about: {asked:?}"
            );
        }
    }
}
