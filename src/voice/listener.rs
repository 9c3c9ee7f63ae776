//! Hearing one speaker, whatever the channel: the samples (mono, at the channel's rate) go into a buffer within
//! the voice budget, the voice detector follows the speech in them, and the end of an utterance is found by
//! Smart Turn (at a pause of `TURN_CHECK_MS`, is the turn complete?) together with the words said so far
//! (a fragment ending in "of the" is not complete, [`words`]), or by the detector's silence. The utterance is
//! transcribed while it is spoken ([`Recognition`]): at every pause of `STT_EARLY_MS` the audio so far is
//! transcribed, so that the answer does not wait for the recogniser and the words of the pause can be read;
//! speech that goes on drops Smart Turn's check. The listener says what it heard ([`Heard`]); the channel
//! decides what that means on its wire.
//!
//! A pause may be no end: speech that begins within `TURN_RESUME_MS` of the last word of an utterance the
//! model answers may continue it ([`Heard::Resumed`]); when the conversation agrees, the listener
//! [joins](Listener::join) the two, and the utterance that ends is the whole question, transcribed as one. The
//! first check of a pause waits for the person's patience ([`Pace`]).

use std::sync::Arc;
use std::time::Duration;

use super::events::Options;
use super::recognition::Recognition;
use super::turn::EarlyTranscript;
use crate::app::App;
use crate::listen::budget::AudioBuffer;
use crate::listen::end_of_turn::{TurnCheck, Verdict};
use crate::listen::pace::Pace;
use crate::listen::smart_turn::SmartTurn;
use crate::listen::vad::{Vad, VadConfig, VadEvent};
use crate::listen::words;
use crate::metrics::TURN_CHECKS_TOTAL;
use crate::providers::audio::Pcm;
use crate::store::users::User;

/// Silence kept after the speech of an utterance for its last pass (Whisper hears a word's end better with a
/// little of it).
const KEEP_SILENCE_MS: u32 = 150;

/// The pause put between the two parts of a joined question (the real one may be long; the recogniser needs
/// only to hear that a phrase ended).
const JOIN_SILENCE_MS: u32 = 200;

/// How the end of an utterance is found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Detection {
    /// Silence that ends an utterance when Smart Turn does not decide it (`None`: `VAD_SILENCE_MS`).
    pub silence_ms: Option<u32>,
    /// Smart Turn decides complete turns, where its model runs (at 16 kHz).
    pub smart_turn: bool,
    /// The longest pause of a turn Smart Turn found incomplete (`None`: `TURN_MAX_SILENCE_MS`).
    pub max_silence_ms: Option<u32>,
    /// The gateway's model answers the utterances: with `PREEMPTIVE_GENERATION` the answer starts on the
    /// transcript of a pause, before the turn is known to end there.
    pub answered: bool,
}

impl Detection {
    /// The gateway's own rule: the detector, and Smart Turn where it runs.
    pub fn standard() -> Self {
        Self {
            smart_turn: true,
            ..Self::default()
        }
    }

    /// ... for utterances the gateway's model answers.
    pub fn answered(self) -> Self {
        Self { answered: true, ..self }
    }
}

/// The probability at which Smart Turn is sure enough of a complete turn to end it before the person's
/// patience: halfway from `TURN_COMPLETE_PROBABILITY` to certainty (0.75 for the default 0.5).
fn sure(probability: f32) -> f32 {
    (1.0 + probability) / 2.0
}

/// What the listener heard in new samples.
#[derive(Debug)]
pub enum Heard {
    /// Speech began, `at_ms` into the input.
    SpeechStarted { at_ms: u64 },
    /// Speech long enough (`BARGE_IN_MIN_SPEECH_MS`) to interrupt the answer that is running.
    BargeIn,
    /// Speech (`VAD_MIN_SPEECH_MS` of it, `BARGE_IN_MIN_SPEECH_MS` over a running answer) began `gap_ms` after
    /// the last word of the last utterance: it may
    /// continue that question. The conversation decides ([`super::Conversation::resume`]); when it does, the
    /// channel [joins](Listener::join) them and tells its client, else it is new speech as any other.
    Resumed { gap_ms: u32 },
    /// The utterance is over: the next question.
    Utterance(Utterance),
    /// A sound too short to be a question (a click; a cough or an "mhm" while an answer runs), ending
    /// `end_ms` into the input: neither an interruption nor a question, and dropped.
    Ignored { end_ms: u64 },
    /// The utterance grew longer than `MAX_UTTERANCE_SECONDS` and was dropped.
    TooLong { seconds: u32 },
    /// Everybody's audio together is at `AUDIO_BUFFER_BUDGET_BYTES`: the connection should end.
    OverBudget,
}

/// An utterance to answer.
#[derive(Debug)]
pub struct Utterance {
    /// Its audio, mono.
    pub audio: Pcm,
    /// Its transcription, started while the end of the turn was awaited.
    pub early: Option<EarlyTranscript>,
    /// Where it ends in the input, in ms.
    pub end_ms: u64,
    /// The silence heard after its last speech when it was found over (zero when the channel ended it).
    pub silence: Duration,
    /// The speaker's pace, when the listener found the end (the conversation teaches it).
    pub pace: Option<Pace>,
}

/// The last utterance, kept while speech that follows may continue it.
struct Previous {
    /// Its audio up to a little after its last word (the whole question, when it was joined itself).
    audio: AudioBuffer,
    /// Where its last word ended in the input, in samples.
    last_word: usize,
}

/// One speaker's audio, followed utterance by utterance.
pub struct Listener {
    app: Arc<App>,
    user: User,
    /// The options the utterance is transcribed with.
    options: Options,
    rate: u32,
    samples: AudioBuffer,
    /// `None`: utterances end when the channel says so.
    vad: Option<Vad>,
    /// The fixed silence that ends an utterance when Smart Turn fails.
    fixed_silence_ms: u32,
    /// The detector's silence that ends an utterance as the detection set it, before the person's patience
    /// lengthens it ([`Listener::longest_pause_ms`]).
    detector_silence_ms: u32,
    /// The person's patience lengthens the detector's silence (the client set none of its own).
    patient: bool,
    /// The answer may start at a pause ([`Detection::answered`]).
    answer_early: bool,
    /// Early answers are held back for now ([`Listener::hold_early_answers`]).
    early_held: bool,
    /// The utterance's recognition, from its first pause on.
    recognition: Option<Recognition>,
    /// The speech heard (ms) when the recognition was last handed a pause.
    paused_at_speech_ms: Option<u32>,
    /// Smart Turn found the turn complete; the words of the pause are awaited before it ends.
    reading_words: bool,
    /// Smart Turn's check of the current pause.
    check: Option<TurnCheck>,
    /// The silence at which the current pause was last checked, in ms.
    checked_at_ms: u32,
    turn_model: Option<Arc<SmartTurn>>,
    /// Samples heard since the listener began, for positions in the input.
    total: usize,
    /// The speech being followed was reported.
    speaking: bool,
    /// The speaker's pace, when the model answers the utterances ([`Detection::answered`]): then a pause may
    /// also be continued.
    pace: Option<Pace>,
    /// The last utterance, while speech may still continue it.
    previous: Option<Previous>,
    /// The speech being followed began this many ms after the last utterance's last word (not reported yet).
    resuming: Option<u32>,
    /// The earlier part of the question the speech being followed continues, and a short pause.
    prefix: Option<AudioBuffer>,
}

impl Listener {
    /// A listener for mono audio of `rate`; without `detection` utterances end only by [`Listener::take_all`].
    pub fn new(app: Arc<App>, user: User, options: Options, rate: u32, detection: Option<Detection>) -> Self {
        let mut listener = Self {
            samples: AudioBuffer::new(app.voice_budget.clone()),
            app,
            user,
            options,
            rate,
            vad: None,
            fixed_silence_ms: 0,
            detector_silence_ms: 0,
            patient: false,
            answer_early: false,
            early_held: false,
            recognition: None,
            paused_at_speech_ms: None,
            reading_words: false,
            check: None,
            checked_at_ms: 0,
            turn_model: None,
            total: 0,
            speaking: false,
            pace: None,
            previous: None,
            resuming: None,
            prefix: None,
        };
        listener.detect(detection);
        listener
    }

    /// Changes how utterances end; the audio heard so far is kept and followed afresh.
    pub fn detect(&mut self, detection: Option<Detection>) {
        self.forget_recognition();
        self.forget_previous();
        let voice = &self.app.settings.voice;
        self.check = None;
        self.speaking = false;
        self.turn_model = None;
        let answered = detection.is_some_and(|d| d.answered);
        self.answer_early = answered && voice.preemptive_generation;
        let app = &self.app;
        self.pace = answered.then(|| {
            let known = self.pace.take();
            known.unwrap_or_else(|| Pace::of(&app.paces, &app.store, voice, &self.user.id))
        });
        self.vad = detection.map(|detection| {
            let mut config: VadConfig = voice.into();
            if let Some(ms) = detection.silence_ms {
                config.silence_ms = ms;
            }
            self.fixed_silence_ms = config.silence_ms;
            self.turn_model = (detection.smart_turn && self.rate == 16_000)
                .then(|| self.app.smart_turn.as_ref().ok().cloned())
                .flatten();
            if self.turn_model.is_some() {
                // The model ends complete turns early; the detector's silence is the longest pause.
                config.silence_ms = detection.max_silence_ms.unwrap_or(voice.turn_max_silence_ms);
            }
            self.detector_silence_ms = config.silence_ms;
            // A silence the client set itself (Realtime's `silence_duration_ms`) is kept as it asked.
            self.patient = detection.silence_ms.is_none();
            match &self.app.silero {
                Ok(model) => Vad::neural(config, self.rate, model),
                Err(_) => Vad::new(config, self.rate),
            }
        });
    }

    /// Waits (a moment at most) until the speaker's stored pace was read; call it before the first audio.
    pub async fn ready(&self) {
        if let Some(pace) = &self.pace {
            pace.ready().await;
        }
    }

    /// Whether Smart Turn decides the end of turns here.
    pub fn smart_turn_runs(&self) -> bool {
        self.turn_model.is_some()
    }

    /// The rate of the audio heard.
    pub fn rate(&self) -> u32 {
        self.rate
    }

    /// The options utterances are transcribed and answered with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Holds back answers started at a pause while `held`: while the help question waits, the next utterance is
    /// its answer, which no model may hear.
    pub fn hold_early_answers(&mut self, held: bool) {
        self.early_held = held;
    }

    /// Whether speech is being followed: it began, and its utterance has not ended yet.
    pub fn hears_speech(&self) -> bool {
        self.speaking
    }

    /// Whether no audio is held.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// Hears new samples; `answering`: an answer is running (speech may interrupt it, short sounds are ignored).
    pub fn hear(&mut self, pcm: &[i16], answering: bool) -> Vec<Heard> {
        let limit = self.app.settings.voice.max_utterance_secs as usize * self.rate as usize;
        if self.samples.samples().len() + pcm.len() > limit {
            self.clear();
            let seconds = (limit / self.rate as usize) as u32;
            return vec![Heard::TooLong { seconds }];
        }
        if !self.samples.extend(pcm) {
            return vec![Heard::OverBudget];
        }
        self.total += pcm.len();
        self.forget_stale_previous();
        let longest = self.longest_pause_ms(self.detector_silence_ms);
        let Some(vad) = &mut self.vad else {
            return Vec::new();
        };
        vad.set_silence_ms(longest);
        let mut heard = Vec::new();
        match vad.update(self.samples.samples()) {
            VadEvent::Listening => {
                let (speech_ms, silence_ms) = (vad.speech_ms(), vad.silence_ms());
                if speech_ms > 0 && !self.speaking {
                    heard.push(self.started());
                }
                if silence_ms == 0 {
                    // The person speaks on: a check of the pause would judge too little, an answer started on
                    // it answers too little. The recognition goes on; the next pause is transcribed whole.
                    self.check = None;
                    self.reading_words = false;
                    if let Some(recognition) = &mut self.recognition {
                        recognition.speaking();
                    }
                } else if self.pause(silence_ms) {
                    let end = self.vad.as_mut().map_or(0, Vad::finish);
                    heard.push(self.end(end, answering));
                    return heard;
                }
                let voice = &self.app.settings.voice;
                let barge_in_ms = voice.barge_in_min_speech_ms;
                // Enough to be speech, not a click; over a running answer as much as a barge-in takes, so that
                // a cough or an "mhm" is no continuation either.
                let resume_ms = match answering {
                    true => barge_in_ms.max(voice.vad_min_speech_ms),
                    false => voice.vad_min_speech_ms,
                };
                if let Some(gap_ms) = self.resuming.filter(|_| speech_ms >= resume_ms) {
                    // The conversation decides whether it continues the question (a barge-in, if it does not,
                    // comes with the next frame).
                    self.resuming = None;
                    heard.push(Heard::Resumed { gap_ms });
                } else if answering && barge_in_ms > 0 && speech_ms >= barge_in_ms {
                    // The speech goes on being heard and becomes the next question when it ends.
                    heard.push(Heard::BargeIn);
                }
            }
            VadEvent::DropSilence(n) => {
                self.samples.drop_front(n);
                if self.recognition.is_some() {
                    // Only silence is dropped, before speech; a recognition of earlier audio is stale.
                    self.forget_recognition();
                }
            }
            VadEvent::Utterance(n) => {
                if !self.speaking {
                    heard.push(self.started());
                }
                heard.push(self.end(n, answering));
            }
        }
        if self.speaking && self.vad.as_ref().is_some_and(|vad| vad.speech_ms() == 0) {
            // The detector forgot a sound too short to be speech (a click): it ended without an utterance.
            self.speaking = false;
            heard.push(Heard::Ignored {
                end_ms: self.ms_at(self.total),
            });
        }
        heard
    }

    /// Speech began: where, in the input.
    fn started(&mut self) -> Heard {
        self.speaking = true;
        let vad = self.vad.as_ref();
        let unheard = self.samples.samples().len() - vad.map_or(0, Vad::analysed);
        let speech_ms = vad.map_or(0, Vad::speech_ms);
        let at = (self.total - unheard).saturating_sub(self.ms_samples(speech_ms));
        self.resuming = self.previous.as_ref().and_then(|previous| {
            let gap_ms = u32::try_from(self.ms_at(at.saturating_sub(previous.last_word))).unwrap_or(u32::MAX);
            (gap_ms <= self.resume_window_ms()).then_some(gap_ms)
        });
        if self.resuming.is_none() {
            self.forget_previous();
        }
        Heard::SpeechStarted { at_ms: self.ms_at(at) }
    }

    /// The speech being followed continues the last utterance (the conversation agreed to
    /// [`Heard::Resumed`]): the utterance that ends holds both, and is transcribed as one.
    pub fn join(&mut self) {
        let Some(Previous { mut audio, .. }) = self.previous.take() else {
            return;
        };
        let pause = vec![0; self.ms_samples(JOIN_SILENCE_MS)];
        if !audio.extend(&pause) {
            return;
        }
        self.prefix = Some(audio);
        // The recognition and Smart Turn start again at the next pause, over the whole question.
        self.forget_recognition();
        self.check = None;
    }

    /// Samples of the prefix (the joined question's earlier part).
    fn prefix_len(&self) -> usize {
        self.prefix.as_ref().map_or(0, |p| p.samples().len())
    }

    /// The prefix and then `samples`.
    fn joined(&self, samples: &[i16]) -> Vec<i16> {
        match &self.prefix {
            Some(prefix) => [prefix.samples(), samples].concat(),
            None => samples.to_vec(),
        }
    }

    /// The silence after which a pause is first judged: the speaker's patience, `TURN_CHECK_MS` at least.
    fn patience_ms(&self) -> u32 {
        let check_ms = self.app.settings.voice.turn_check_ms;
        self.pace
            .as_ref()
            .map_or(check_ms, |pace| pace.patience_ms().max(check_ms))
    }

    /// A pause of `silence_ms` after enough speech: the early transcription and Smart Turn's check start; true
    /// when the turn is over by the fixed silence because the check failed.
    fn pause(&mut self, silence_ms: u32) -> bool {
        let Some(vad) = &self.vad else {
            return false;
        };
        if !vad.has_enough_speech() {
            return false;
        }
        let voice = &self.app.settings.voice;
        if voice.stt_early_ms > 0 && silence_ms >= voice.stt_early_ms {
            // A pause: what was said up to it is transcribed now, while the end of the turn is awaited.
            self.hand_over_pause();
        }
        self.check_if_due(silence_ms);
        let failed = self.check.as_ref().and_then(TurnCheck::verdict) == Some(Verdict::Unknown);
        failed && silence_ms >= self.longest_pause_ms(self.fixed_silence_ms)
    }

    /// The longest pause of a turn for a detector's `silence_ms`: never shorter than the person's patience,
    /// so that a person who set 4 s is not cut at 2 s (whether or not Smart Turn runs).
    fn longest_pause_ms(&self, silence_ms: u32) -> u32 {
        match &self.pace {
            Some(pace) if self.patient => silence_ms.max(pace.patience_ms()),
            _ => silence_ms,
        }
    }

    /// Asks Smart Turn about the pause of `silence_ms` at TURN_CHECK_MS, at the person's patience and, while it
    /// finds the turn incomplete, again each time the pause has doubled: its judgement of the same words moves
    /// with the silence after them. Before the patience has passed, only a turn Smart Turn is sure of ends (a
    /// clearly complete question of a patient person is not made to wait for their patience).
    fn check_if_due(&mut self, silence_ms: u32) {
        let voice = &self.app.settings.voice;
        let patience = self.patience_ms();
        let due = match self.check.as_ref().map(TurnCheck::verdict) {
            None => silence_ms >= voice.turn_check_ms,
            Some(Some(Verdict::Incomplete)) if self.checked_at_ms < patience => silence_ms >= patience,
            Some(Some(Verdict::Incomplete)) => silence_ms >= 2 * self.checked_at_ms,
            Some(_) => false,
        };
        let threshold = match silence_ms < patience {
            true => sure(voice.turn_complete_probability),
            false => voice.turn_complete_probability,
        };
        let (Some(model), Some(vad)) = (self.turn_model.as_ref().filter(|_| due), &self.vad) else {
            return;
        };
        let samples = self.joined(&self.samples.samples()[..vad.analysed()]);
        self.check = Some(TurnCheck::start(model.clone(), samples, threshold));
        self.checked_at_ms = silence_ms;
        self.app.metrics.incr(TURN_CHECKS_TOTAL, &[("outcome", "started")]);
    }

    /// Hands the audio up to the current pause to the recognition (started with the first pause) to be
    /// transcribed, unless no speech came since the last one.
    fn hand_over_pause(&mut self) {
        let Some(vad) = &self.vad else {
            return;
        };
        let (speech_ms, heard) = (vad.speech_ms(), vad.analysed());
        let offset = self.prefix_len();
        let pushed = self.recognition.as_ref().map_or(0, |r| r.pushed() - offset);
        if self.paused_at_speech_ms == Some(speech_ms) || heard <= pushed {
            return;
        }
        let recognition = self.recognition.get_or_insert_with(|| {
            let (app, user, options) = (self.app.clone(), self.user.clone(), self.options.clone());
            let mut recognition =
                Recognition::start(app, user, options, self.rate, self.answer_early && !self.early_held);
            if let Some(prefix) = &self.prefix {
                recognition.push(prefix.samples());
            }
            recognition
        });
        recognition.push(&self.samples.samples()[pushed..heard]);
        recognition.pause();
        self.paused_at_speech_ms = Some(speech_ms);
    }

    /// Waits for the verdict on the current pause (never, when none is asked): Smart Turn's, and when it finds
    /// the turn complete, the words up to the pause must agree ([`words::unfinished`]). Cancel-safe.
    pub async fn verdict(&mut self) -> Verdict {
        if !self.reading_words {
            let verdict = TurnCheck::decided(&mut self.check).await;
            let outcome = match verdict {
                Verdict::Complete => "complete",
                Verdict::Incomplete => "incomplete",
                Verdict::Unknown => "failed",
            };
            self.app.metrics.incr(TURN_CHECKS_TOTAL, &[("outcome", outcome)]);
            if let Some(p) = self.check.as_ref().and_then(TurnCheck::probability) {
                // The model's numbers move with the CPU's instructions: what it said is counted, for tuning
                // `TURN_COMPLETE_PROBABILITY` on this machine.
                self.app
                    .metrics
                    .observe(crate::metrics::TURN_CHECK_PROBABILITY, &[], f64::from(p));
            }
            if verdict != Verdict::Complete || self.app.settings.voice.stt_early_ms == 0 {
                return verdict;
            }
            // The words of this pause are read before the turn ends (they are the transcript the turn needs
            // anyway, when no speech follows).
            self.hand_over_pause();
            self.reading_words = true;
        }
        let said = match &mut self.recognition {
            Some(recognition) => recognition.pause_text().await,
            None => None,
        };
        self.reading_words = false;
        match said {
            Some((text, language)) if words::unfinished(&text, &language) => {
                tracing::debug!(%text, "the words are not finished; the turn goes on");
                Verdict::Incomplete
            }
            _ => Verdict::Complete,
        }
    }

    /// Acts on Smart Turn's verdict: a complete turn is over now; for an incomplete one the pause may already be
    /// long enough to ask again.
    pub fn decide(&mut self, verdict: Verdict, answering: bool) -> Option<Heard> {
        match verdict {
            Verdict::Complete => {
                let end = self.vad.as_mut()?.finish();
                Some(self.end(end, answering))
            }
            Verdict::Incomplete => {
                let silence_ms = self.vad.as_ref().map_or(0, Vad::silence_ms);
                self.check_if_due(silence_ms);
                None
            }
            Verdict::Unknown => None,
        }
    }

    /// The utterance in the first `n` samples ended; a short sound during an answer is dropped.
    fn end(&mut self, n: usize, answering: bool) -> Heard {
        self.check = None;
        self.reading_words = false;
        self.speaking = false;
        let barge_in_ms = self.app.settings.voice.barge_in_min_speech_ms;
        let speech_ms = self.vad.as_ref().map_or(u32::MAX, Vad::last_speech_ms);
        // The audio ends KEEP_SILENCE_MS after the speech: the rest of the silence is no work for the recogniser.
        let trailing_ms = self
            .vad
            .as_ref()
            .map_or(0, Vad::last_silence_ms)
            .saturating_sub(KEEP_SILENCE_MS);
        let last = n.saturating_sub(trailing_ms as usize * self.rate as usize / 1000);
        let offset = self.prefix_len();
        let early = self.recognition.take().map(|mut recognition| {
            let pushed = recognition.pushed() - offset;
            if self.paused_at_speech_ms != Some(speech_ms) && last > pushed {
                // Speech after the last pause: the final pass hears it too.
                recognition.push(&self.samples.samples()[pushed..last]);
            }
            recognition.finish()
        });
        self.forget_recognition();
        // The detector's silence, and the part of a frame heard after it.
        let silence_ms = self.vad.as_ref().map_or(0, Vad::last_silence_ms) as u64
            + self.ms_at(self.samples.samples().len().saturating_sub(n));
        let start = self.total - self.samples.samples().len();
        let samples = self.samples.take_front(n);
        let end_ms = self.ms_at(self.total - self.samples.samples().len());
        self.resuming = None;
        if answering && barge_in_ms > 0 && speech_ms < barge_in_ms {
            self.prefix = None;
            return Heard::Ignored { end_ms };
        }
        let samples = self.joined(&samples);
        let prefix = self.prefix_len();
        self.prefix = None;
        self.previous = None;
        if self.pace.is_some() {
            // Kept while speech that follows may continue it.
            let mut audio = AudioBuffer::new(self.app.voice_budget.clone());
            if audio.extend(&samples[..(prefix + last).min(samples.len())]) {
                let after_ms = self.vad.as_ref().map_or(0, Vad::last_silence_ms);
                let last_word = start + n.saturating_sub(self.ms_samples(after_ms));
                self.previous = Some(Previous { audio, last_word });
            }
        }
        if self.pace.is_some() {
            let patience = f64::from(self.patience_ms()) / 1000.0;
            self.app
                .metrics
                .observe(crate::metrics::VOICE_TURN_PATIENCE_SECONDS, &[], patience);
        }
        Heard::Utterance(Utterance {
            audio: self.pcm(samples),
            early,
            end_ms,
            silence: Duration::from_millis(silence_ms),
            pace: self.pace.clone(),
        })
    }

    /// Everything held, as an utterance the channel ended (none when nothing is held); the detector starts over.
    pub fn take_all(&mut self) -> Option<Utterance> {
        let samples = self.samples.take_all();
        let samples = if samples.is_empty() {
            samples
        } else {
            self.joined(&samples)
        };
        self.restart();
        (!samples.is_empty()).then(|| Utterance {
            audio: self.pcm(samples),
            early: None,
            end_ms: self.ms_at(self.total),
            silence: Duration::ZERO,
            pace: None,
        })
    }

    /// Forgets the audio held.
    pub fn clear(&mut self) {
        self.samples.clear();
        self.restart();
    }

    fn restart(&mut self) {
        if let Some(vad) = &mut self.vad {
            vad.reset();
        }
        self.forget_recognition();
        self.forget_previous();
        self.check = None;
        self.speaking = false;
    }

    /// The last utterance is let go once no speech can continue it any more (its audio counts in the budget).
    fn forget_stale_previous(&mut self) {
        let window = u64::from(self.resume_window_ms());
        let stale = |p: &Previous| self.ms_at(self.total.saturating_sub(p.last_word)) > window;
        if !self.speaking && self.previous.as_ref().is_some_and(stale) {
            self.previous = None;
        }
    }

    fn forget_previous(&mut self) {
        self.previous = None;
        self.resuming = None;
        self.prefix = None;
    }

    fn forget_recognition(&mut self) {
        self.recognition = None;
        self.paused_at_speech_ms = None;
        self.reading_words = false;
    }

    fn pcm(&self, samples: Vec<i16>) -> Pcm {
        Pcm {
            sample_rate: self.rate,
            samples,
            channels: 1,
        }
    }

    /// The longest pause after which speech may still continue the last utterance: `TURN_RESUME_MS`, half again
    /// as long after an unfinished phrase (the conversation applies the exact rule, [`super::Conversation::resume`]).
    fn resume_window_ms(&self) -> u32 {
        let resume_ms = self.app.settings.voice.turn_resume_ms;
        let resume_ms = self
            .pace
            .as_ref()
            .map_or(resume_ms, |pace| pace.resume_window_ms(resume_ms));
        resume_ms.saturating_mul(3) / 2
    }

    /// Samples in `ms`.
    fn ms_samples(&self, ms: u32) -> usize {
        ms as usize * self.rate as usize / 1000
    }

    /// The position of sample `n` of the input, in ms.
    fn ms_at(&self, n: usize) -> u64 {
        n as u64 * 1000 / u64::from(self.rate)
    }
}
