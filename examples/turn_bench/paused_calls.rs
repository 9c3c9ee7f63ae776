//! `--suite pauses --line L`: the paused sets over a telephone line, to compare with `/ws/voice`. Each item is
//! one call on that line (the phone's guest, in the item's language), asked as [`super::pauses`] asks it on
//! `/ws/voice` but without its events: a caller only hears. What the gateway made of it is read from what it
//! stored and counted: the caller's messages of the call (more than one: the question was answered in halves),
//! and its `voice_continuations_total` (the turn ended in the pause and was joined by the continuation).
//! Interruptions are left out (they need the answer's events to time the speech over it).

use std::future::Future;

use super::pauses::{Item, WHOLE_WER, metrics, spread};
use super::{Measure, errors, prometheus};

/// What became of one paused question on the line.
struct Call {
    set: String,
    /// Turns that ended inside the question and were joined by the continuation.
    joined: usize,
    /// Answers to half a sentence: caller messages beyond the first.
    halves: usize,
    /// One stored question holding the whole (word error rate within [`WHOLE_WER`]).
    whole: bool,
    first_audio_ms: Option<f64>,
}

/// The sum of the gateway's `voice_continuations_total` over its channels.
async fn continuations(port: u16) -> f64 {
    prometheus(port)
        .await
        .lines()
        .filter(|l| l.starts_with("voice_continuations_total"))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

/// Calls once per paused question with `ask` (language, 16 kHz audio, call number) and reports per item and per
/// set.
pub async fn run<F, Fut>(port: u16, items: Vec<Item>, ask: F)
where
    F: Fn(String, Vec<i16>, usize) -> Fut,
    Fut: Future<Output = Measure>,
{
    println!("| set | speaker | pause ms | text | stored questions | joined | whole | first audio ms |");
    println!("|---|---|---|---|---|---|---|---|");
    let mut calls = Vec::new();
    for (n, item) in items.iter().filter(|it| it.interruption.is_none()).enumerate() {
        let before = continuations(port).await;
        let m = ask(item.lang.clone(), item.pcm.clone(), 1000 + n).await;
        let joined = (continuations(port).await - before).round() as usize;
        let (wrong, words) = errors(&item.text.replace('|', " "), &m.heard);
        let call = Call {
            set: item.set.clone(),
            joined,
            halves: m.transcripts.saturating_sub(1),
            whole: m.transcripts == 1 && wrong as f64 <= WHOLE_WER * words as f64,
            first_audio_ms: m.audio_ms,
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            item.set,
            item.speaker,
            item.pause,
            item.text.replace('|', "‖"),
            m.heard.trim(),
            call.joined,
            if call.whole { "yes" } else { "no" },
            call.first_audio_ms.map_or("–".into(), |v| format!("{v:.0}")),
        );
        calls.push(call);
    }
    println!(
        "\n| set | questions | answers to half a sentence | turns ended in the pause, joined | one stored question = whole question | end of speech → first audio, median / p90 ms |"
    );
    println!("|---|---|---|---|---|---|");
    for set in ["real", "en", "de", "complete"] {
        let of_set: Vec<&Call> = calls.iter().filter(|c| c.set == set).collect();
        if of_set.is_empty() {
            continue;
        }
        let sum = |f: &dyn Fn(&Call) -> usize| of_set.iter().map(|c| f(c)).sum::<usize>();
        println!(
            "| {set} | {} | {} | {} | {} of {} | {} |",
            of_set.len(),
            sum(&|c| c.halves),
            sum(&|c| c.joined),
            sum(&|c| usize::from(c.whole)),
            of_set.len(),
            spread(of_set.iter().filter_map(|c| c.first_audio_ms).collect()),
        );
    }
    metrics(port).await;
}
