//! espeak-ng, run as a child process: the text goes in on stdin (never as an argument, so no text can pass
//! for an option), WAV comes out on stdout. Its streaming WAV header carries placeholder sizes; they are
//! rewritten before the audio leaves the gateway.

use std::process::Stdio;
use std::time::Duration;

use async_trait::async_trait;
use tokio::io::AsyncWriteExt;
use tokio::process::Command;

use super::{Speech, SpeechRequest, Tts};
use crate::providers::ProviderError;
use crate::providers::audio::fix_wav_sizes;

const ID: &str = "espeak";
/// Longest a synthesis may take (espeak-ng needs about 40 ms per sentence).
const TIMEOUT: Duration = Duration::from_secs(30);

/// The espeak-ng engine.
pub struct Espeak {
    program: String,
}

impl Default for Espeak {
    fn default() -> Self {
        Self {
            program: std::env::var("ESPEAK_PROGRAM").unwrap_or_else(|_| "espeak-ng".into()),
        }
    }
}

/// espeak-ng's voice for a language, with its female variant when asked for.
pub fn espeak_voice(language: &str, gender: Option<&str>) -> String {
    match gender {
        Some("female") => format!("{language}+f3"),
        _ => language.to_string(),
    }
}

/// Voice names as espeak-ng spells them: a language tag, optionally `+variant` (`de`, `en-us`, `en+f3`).
fn valid_voice(voice: &str) -> bool {
    let (tag, variant) = voice.split_once('+').unwrap_or((voice, ""));
    let tag_ok = (2..=12).contains(&tag.len())
        && tag.starts_with(|c: char| c.is_ascii_lowercase())
        && tag
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    let variant_ok = variant.len() <= 16 && variant.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    tag_ok && variant_ok
}

#[async_trait]
impl Tts for Espeak {
    fn speaks(&self, _: &str) -> bool {
        true
    }

    fn check_voice(&self, voice: &str, _: &str) -> Result<(), String> {
        if valid_voice(voice) {
            Ok(())
        } else {
            Err(format!(
                "{voice:?} is not an espeak-ng voice (for example \"de\", \"en-us\", \"en+f3\")"
            ))
        }
    }

    #[tracing::instrument(skip_all, fields(provider = ID, chars = request.text.len()))]
    async fn speak(&self, request: &SpeechRequest<'_>) -> Result<Speech, ProviderError> {
        let voice = match request.voice {
            Some(v) => v.to_string(),
            None => espeak_voice(request.language, request.gender),
        };
        let mut child = Command::new(&self.program)
            .args(["-v", &voice, "-b", "1", "--stdout"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| ProviderError::failed(ID, format!("could not start espeak-ng: {e}")))?;
        // Written from a task of its own: espeak-ng starts writing audio before it has read all the text, and
        // a full stdout pipe would otherwise block both sides.
        if let Some(mut stdin) = child.stdin.take() {
            let text = request.text.to_string();
            tokio::spawn(async move {
                let _ = stdin.write_all(text.as_bytes()).await;
            });
        }
        let output = tokio::time::timeout(TIMEOUT, child.wait_with_output())
            .await
            .map_err(|_| ProviderError::failed(ID, "timed out"))?
            .map_err(|e| ProviderError::failed(ID, e.to_string()))?;
        if !output.status.success() {
            let reason = String::from_utf8_lossy(&output.stderr);
            return Err(ProviderError::failed(
                ID,
                reason.trim().chars().take(200).collect::<String>(),
            ));
        }
        let audio = fix_wav_sizes(output.stdout).map_err(|e| ProviderError::failed(ID, e.to_string()))?;
        Ok(Speech { audio, format: "wav" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn voice_names_are_checked() {
        for ok in ["de", "en-us", "en+f3", "pt-br", "de+m3"] {
            assert!(valid_voice(ok), "{ok}");
        }
        for bad in ["", "-v", "de;rm", "EN", "de+f3+x", "a", "../etc"] {
            assert!(!valid_voice(bad), "{bad}");
        }
        assert_eq!(espeak_voice("de", Some("female")), "de+f3");
        assert_eq!(espeak_voice("en", None), "en");
    }
}
