//! The recognition of the utterance being heard, started while it is spoken: at each pause the listener hands
//! over the audio so far and it is transcribed (one pass at a time: pauses during a pass make one more pass
//! after it, over everything), so that when the turn ends its transcript is ready or under way. A final
//! transcript over the same audio as the last pass is that pass's, without another call. The text of each
//! pause is there for the end-of-turn decision to read ([`Recognition::pause_text`]).
//!
//! Whole passes, not pieces: transcribing only what followed the last pause, with the text before it as the
//! prompt, was measured with the zero-setup Whisper (`scripts/stt-compare.py`, `docs/decisions.md`): it lost
//! German words (word error rate 28.7 % → 37.9–41.4 %) and saved little, since every call pays for the
//! encoder's whole window however short the piece.

use std::sync::Arc;

use tokio::sync::{mpsc, watch};

use super::events::Options;
use super::turn::{EarlyTranscript, VoiceContext};
use crate::app::App;
use crate::error::ApiError;
use crate::providers::stt::{self, SpeechEvent};
use crate::providers::{ProviderError, ProviderId, Stage};
use crate::store::users::User;
use crate::turn::prefetch::Prefetch;

enum Command {
    Audio(Vec<i16>),
    Pause,
    /// Speech went on after the pause.
    Speaking,
}

/// The latest pass: the samples it covered, its text, and the language of the turn (the route's, whose
/// words the end-of-turn decision reads).
#[derive(Debug, Clone, Default)]
struct Pass {
    covered: usize,
    text: String,
    language: String,
}

fn failed(err: &ProviderError) -> ApiError {
    ApiError::Internal(format!("the recognition of the utterance failed: {err}"))
}

/// A running recognition of one utterance. Dropping it cancels it.
pub struct Recognition {
    commands: mpsc::UnboundedSender<Command>,
    passes: watch::Receiver<Pass>,
    /// Samples handed over.
    pushed: usize,
    /// A pause was handed over and no speech followed it yet.
    paused: bool,
    task: EarlyTranscript,
}

impl Recognition {
    /// Starts recognising an utterance of mono audio at `rate` with the route of the turn it will become;
    /// with `answer_early`, the answer to a pause's transcript starts while the pause lasts
    /// ([`crate::turn::prefetch`]), and goes with the final transcript when no speech followed.
    pub fn start(app: Arc<App>, user: User, options: Options, rate: u32, answer_early: bool) -> Self {
        let (commands, mut input) = mpsc::unbounded_channel();
        let (tell, passes) = watch::channel(Pass::default());
        let task = tokio::spawn(async move {
            let cx = VoiceContext::of(&app, &user, &options).await?;
            if let Some(wait) = app.breakers.closed_in(Stage::Stt, cx.route.stt.name()) {
                // The recogniser is failing: the turn transcribes the whole utterance along its fallbacks.
                let again = wait.as_secs();
                return Err(ApiError::Internal(format!("the recogniser is skipped for {again} s")));
            }
            let language = crate::turn::speech::forced_language(&cx.eff, &cx.route);
            tell.send_modify(|p| p.language = cx.route.language.clone());
            let mut stream = stt::open(app.providers.stt.get(cx.route.stt), rate, language);
            // Samples pushed; the samples the running pass covers; a pause came during it; no more audio comes.
            let (mut pushed, mut running, mut again, mut ended) = (0usize, None::<usize>, false, false);
            // Silence since the last pause; the answer started on it, and the samples it heard.
            let (mut silent, mut early, mut answered_at) = (false, None::<Prefetch>, 0usize);
            while !ended || running.is_some() {
                tokio::select! {
                    command = input.recv(), if !ended => match command {
                        Some(Command::Audio(samples)) => {
                            pushed += samples.len();
                            stream.push(&samples);
                            early = None;
                        }
                        Some(Command::Speaking) => {
                            silent = false;
                            early = None;
                        }
                        Some(Command::Pause) => {
                            silent = true;
                            match running {
                                Some(_) => again = true,
                                None => {
                                    stream.flush();
                                    running = Some(pushed);
                                }
                            }
                        }
                        None => ended = true,
                    },
                    event = stream.next(), if running.is_some() => match event {
                        Some(Ok(SpeechEvent::Interim(heard))) => {
                            let covered = running.take().unwrap_or_default();
                            if std::mem::take(&mut again) && pushed > covered {
                                stream.flush();
                                running = Some(pushed);
                            } else if answer_early && silent && covered == pushed {
                                early = cx.answer_early(&app, &user, &options, &heard);
                                answered_at = pushed;
                            }
                            tell.send_modify(|p| {
                                p.covered = covered;
                                p.text = heard.text;
                            });
                        }
                        Some(Ok(SpeechEvent::Final(heard))) => return Ok((heard, None)),
                        Some(Err(err)) => return Err(failed(&err)),
                        None => return Err(ApiError::Internal("the recognition ended early".into())),
                    },
                }
            }
            let heard = stream.finish().await.map_err(|err| failed(&err))?;
            Ok((heard, early.filter(|_| answered_at == pushed)))
        });
        Self {
            commands,
            passes,
            pushed: 0,
            paused: false,
            task: EarlyTranscript::new(task),
        }
    }

    /// More audio of the utterance.
    pub fn push(&mut self, samples: &[i16]) {
        self.pushed += samples.len();
        let _ = self.commands.send(Command::Audio(samples.to_vec()));
    }

    /// Samples handed over so far (the listener's buffer from its start).
    pub fn pushed(&self) -> usize {
        self.pushed
    }

    /// The audio pushed so far ends in a pause: it is transcribed.
    pub fn pause(&mut self) {
        self.paused = true;
        let _ = self.commands.send(Command::Pause);
    }

    /// Speech goes on after the pause: an answer started on it stops.
    pub fn speaking(&mut self) {
        if std::mem::take(&mut self.paused) {
            let _ = self.commands.send(Command::Speaking);
        }
    }

    /// The text of all the audio handed over, and the turn's language, once transcribed; `None` when the
    /// recognition failed. Cancel-safe.
    pub async fn pause_text(&mut self) -> Option<(String, String)> {
        let pushed = self.pushed;
        let pass = self.passes.wait_for(|p| p.covered >= pushed).await.ok()?;
        Some((pass.text.clone(), pass.language.clone()))
    }

    /// The utterance ended with the audio pushed: its final transcript, which the turn waits for.
    pub fn finish(self) -> EarlyTranscript {
        self.task
    }
}
