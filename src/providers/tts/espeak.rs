//! espeak-ng, run as a child process: the text goes in on stdin (never as an argument, so no text can pass
//! for an option), WAV comes out on stdout. Its streaming WAV header carries placeholder sizes; they are
//! rewritten before the audio leaves the gateway.

use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, Command};
use tokio::sync::mpsc;

use super::{Offered, Speech, SpeechRequest, SpeechStream, Tts, TtsId};
use crate::providers::Build;
use crate::providers::ProviderError;
use crate::providers::audio::{Pcm, fix_wav_sizes, to_mono, wav_stream_start};
use crate::providers::registry::{Capabilities, Cost, Engine, Setup};

const ID: &str = TtsId::Espeak.as_str();
/// espeak-ng's sample rate.
const SAMPLE_RATE: u32 = 22_050;
/// Bytes read from espeak-ng at a time: about 0.1 s of speech.
const CHUNK_BYTES: usize = 4410;
/// Longest a synthesis may take (espeak-ng needs about 40 ms per sentence).
const TIMEOUT: Duration = Duration::from_secs(30);

/// The espeak-ng engine.
pub struct Espeak {
    program: String,
    languages: Vec<String>,
}

/// The registry's builder.
pub(super) fn build(b: &Build<'_>) -> Arc<dyn Tts> {
    Arc::new(Espeak {
        program: std::env::var("ESPEAK_PROGRAM").unwrap_or_else(|_| "espeak-ng".into()),
        languages: b.languages.iter().map(|l| l.to_string()).collect(),
    })
}

impl Engine for Espeak {
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            configured: true,
            streaming: true,
            local: true,
            languages: self.languages.clone(),
            voices: self.languages.clone(),
            sample_rates: vec![SAMPLE_RATE],
            cost: Cost::Free,
        }
    }

    fn setup(&self) -> Setup {
        Setup {
            configured: Some(true),
            ..Setup::default()
        }
    }
}

impl Espeak {
    /// Starts espeak-ng on the text: WAV comes out on its stdout as it is produced.
    fn start(&self, request: &SpeechRequest<'_>) -> Result<Child, ProviderError> {
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
        Ok(child)
    }
}

/// Reads espeak-ng's WAV from its stdout and sends its samples as they come, mixed to mono; a failure (a
/// non-zero exit, a timeout) ends the stream with an error.
async fn pump(
    mut child: Child,
    tx: mpsc::Sender<Result<Vec<i16>, ProviderError>>,
    mut head: Vec<u8>,
    data_start: usize,
) {
    let channels = wav_stream_start(&head).ok().flatten().map_or(1, |(_, c, _)| c);
    let mut carry = head.split_off(data_start);
    let Some(mut stdout) = child.stdout.take() else {
        return;
    };
    let mut buf = vec![0u8; CHUNK_BYTES];
    let deadline = tokio::time::Instant::now() + TIMEOUT;
    loop {
        if !carry.is_empty() {
            let whole = carry.len() - carry.len() % (2 * usize::from(channels));
            let rest = carry.split_off(whole);
            let pcm = Pcm::from_le_bytes(&carry, SAMPLE_RATE).map(|mut p| {
                p.channels = channels;
                to_mono(p).samples
            });
            carry = rest;
            if let Ok(samples) = pcm
                && !samples.is_empty()
                && tx.send(Ok(samples)).await.is_err()
            {
                return; // the listener is gone; dropping the child stops espeak-ng
            }
        }
        match tokio::time::timeout_at(deadline, stdout.read(&mut buf)).await {
            Ok(Ok(0)) => break,
            Ok(Ok(n)) => carry.extend_from_slice(&buf[..n]),
            Ok(Err(e)) => {
                let _ = tx.send(Err(ProviderError::failed(ID, e.to_string()))).await;
                return;
            }
            Err(_) => {
                let _ = tx.send(Err(ProviderError::failed(ID, "timed out"))).await;
                return;
            }
        }
    }
    if let Err(e) = finished(child).await {
        let _ = tx.send(Err(e)).await;
    }
}

/// Waits for espeak-ng to exit; a failure carries what it wrote on stderr.
async fn finished(child: Child) -> Result<(), ProviderError> {
    let output = tokio::time::timeout(TIMEOUT, child.wait_with_output())
        .await
        .map_err(|_| ProviderError::failed(ID, "timed out"))?
        .map_err(|e| ProviderError::failed(ID, e.to_string()))?;
    if output.status.success() {
        return Ok(());
    }
    let reason = String::from_utf8_lossy(&output.stderr);
    Err(ProviderError::failed(
        ID,
        reason.trim().chars().take(200).collect::<String>(),
    ))
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
    /// A voice for each language: espeak-ng's voices are named by their language.
    fn offered(&self, _: Option<&str>) -> Vec<Offered> {
        self.languages
            .iter()
            .map(|language| Offered {
                voice: language.clone(),
                label: format!("espeak-ng ({language})"),
                languages: vec![language.clone()],
            })
            .collect()
    }

    fn language_of_voice(&self, voice: &str) -> Option<String> {
        Some(voice.to_string())
    }

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
        let child = self.start(request)?;
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

    #[tracing::instrument(skip_all, fields(provider = ID, chars = request.text.len()))]
    async fn stream(&self, request: &SpeechRequest<'_>) -> Option<Result<SpeechStream, ProviderError>> {
        Some(self.stream_now(request).await)
    }
}

impl Espeak {
    /// Starts espeak-ng and waits for its WAV header (a failure before any audio is returned here); the
    /// samples then flow through the stream as espeak-ng writes them.
    async fn stream_now(&self, request: &SpeechRequest<'_>) -> Result<SpeechStream, ProviderError> {
        let mut child = self.start(request)?;
        let Some(stdout) = child.stdout.as_mut() else {
            return Err(ProviderError::failed(ID, "espeak-ng has no output"));
        };
        let mut head = Vec::with_capacity(CHUNK_BYTES);
        let mut buf = vec![0u8; 512];
        let (sample_rate, data_start) = loop {
            if let Some((rate, _, start)) =
                wav_stream_start(&head).map_err(|e| ProviderError::failed(ID, e.to_string()))?
            {
                break (rate, start);
            }
            let n = tokio::time::timeout(TIMEOUT, stdout.read(&mut buf))
                .await
                .map_err(|_| ProviderError::failed(ID, "timed out"))?
                .map_err(|e| ProviderError::failed(ID, e.to_string()))?;
            if n == 0 {
                // It ended before any audio: its exit status and stderr say why.
                finished(child).await?;
                return Err(ProviderError::failed(ID, "espeak-ng wrote no audio"));
            }
            head.extend_from_slice(&buf[..n]);
        };
        let (tx, rx) = mpsc::channel(8);
        tokio::spawn(pump(child, tx, head, data_start));
        Ok(SpeechStream::new(sample_rate, rx))
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
