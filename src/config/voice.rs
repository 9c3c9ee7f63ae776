//! The voice area: the streaming channels, the voice detector and the end-of-turn model, and their limits.

use std::path::{Path, PathBuf};

use super::env::{ConfigError, Source};

/// The streaming channels and hearing a speaker: origins, idle timeout, filler, voice activity detection, end
/// of turn, utterance and connection limits.
#[derive(Debug)]
pub struct VoiceSettings {
    /// `WS_ALLOWED_ORIGINS`: browser origins besides the gateway's own that may open a WebSocket.
    pub allowed_origins: Vec<String>,
    /// `WS_IDLE_TIMEOUT_SECONDS`: a connection without frames and without a running turn is closed after this.
    pub idle_timeout_secs: u64,
    /// `FILLER_AFTER_MS`: a filler phrase is sent when the first token takes longer (0 = never).
    pub filler_after_ms: u64,
    /// `VAD_THRESHOLD`: RMS level (16-bit samples) above which a 20 ms frame counts as speech.
    pub vad_threshold: u32,
    /// `VAD_MIN_SPEECH_MS`: speech needed before an utterance can end.
    pub vad_min_speech_ms: u32,
    /// `VAD_SILENCE_MS`: trailing silence that ends an utterance.
    pub vad_silence_ms: u32,
    /// `VAD_ENGINE`: `auto` (Silero when its runtime and model are there, else energy), `silero` or `energy`.
    pub vad_engine: String,
    /// `VAD_SPEECH_PROBABILITY`: Silero's probability at which a window is speech.
    pub vad_speech_probability: f32,
    /// `ONNXRUNTIME_LIB`: the ONNX Runtime library (default: the engines folder's `onnxruntime/`).
    pub onnxruntime_lib: PathBuf,
    /// `SILERO_VAD_MODEL`: the Silero VAD model (default: the engines folder's `models/silero_vad.onnx`).
    pub silero_vad_model: PathBuf,
    /// `TURN_ENGINE`: `auto` (Smart Turn when its runtime and model are there, else the fixed silence),
    /// `smart-turn` or `silence`.
    pub turn_engine: String,
    /// `SMART_TURN_MODEL`: the Smart Turn model (default: the engines folder's `models/smart-turn-v3.2-cpu.onnx`).
    pub smart_turn_model: PathBuf,
    /// `TURN_CHECK_MS`: silence after which Smart Turn is asked whether the turn is complete.
    pub turn_check_ms: u32,
    /// `TURN_MAX_SILENCE_MS`: silence that ends a turn Smart Turn found incomplete.
    pub turn_max_silence_ms: u32,
    /// `TURN_COMPLETE_PROBABILITY`: Smart Turn's probability at which a turn counts as complete.
    pub turn_complete_probability: f32,
    /// `TURN_RESUME_MS`: speech that begins this soon after the last word of a question, while its answer
    /// has not been heard for long, continues that question (0 = never).
    pub turn_resume_ms: u32,
    /// `BARGE_IN_MIN_SPEECH_MS`: speech that interrupts a running answer on `/ws/voice` (0 = never); shorter
    /// sounds during an answer (a cough, "mhm") are ignored.
    pub barge_in_min_speech_ms: u32,
    /// `STT_EARLY_MS`: silence after which an utterance is transcribed while the end of the turn is still being
    /// awaited (0 = only once it ended); speech that goes on drops that transcription.
    pub stt_early_ms: u32,
    /// `FIRST_CLAUSE_WORDS`: a spoken answer's first sentence is spoken up to its first clause boundary after
    /// this many words (0: whole sentences only).
    pub first_clause_words: usize,
    /// `PREEMPTIVE_GENERATION`: the model starts on the transcript of a pause before the end of the turn is
    /// certain; speech that goes on stops it.
    pub preemptive_generation: bool,
    /// `HELP_CONFIRM_SECONDS`: how long the answer to "shall I alert your contacts?" may take before the
    /// alarm goes out anyway.
    pub help_confirm_secs: u64,
    /// `MAX_UTTERANCE_SECONDS`: longest utterance buffered on `/ws/voice`.
    pub max_utterance_secs: u32,
    /// `MAX_VOICE_CONNECTIONS`: open `/ws/voice` connections of everybody together.
    pub max_voice_connections: usize,
    /// `VOICE_CONNECTIONS_PER_USER`: open `/ws/voice` connections of one user.
    pub voice_connections_per_user: usize,
    /// `AUDIO_BUFFER_BUDGET_BYTES`: audio all voice connections may buffer together.
    pub audio_buffer_budget_bytes: usize,
}

impl VoiceSettings {
    /// Reads the area; the models' default paths lie in the engines folder.
    pub(super) fn read(src: &Source, engines_dir: &Path) -> Result<Self, ConfigError> {
        let in_engines = |var: &str, meaning: &str, shown: &'static str, path: &[&str]| {
            let default = path.iter().fold(engines_dir.to_path_buf(), |dir, part| dir.join(part));
            src.var(var, meaning).shown(shown).raw().map_or(default, PathBuf::from)
        };
        Ok(Self {
            allowed_origins: src.var("WS_ALLOWED_ORIGINS", "comma list of browser origins (`https://app.example`) allowed to open WebSockets besides the gateway's own").list(),
            idle_timeout_secs: src.var("WS_IDLE_TIMEOUT_SECONDS", "a WebSocket without frames and without a running turn is closed after this").ranged(300, 86_400)?.max(1).into(),
            filler_after_ms: src.var("FILLER_AFTER_MS", "a short reassuring phrase is sent when the first token takes longer (0 = never)").ranged(1500, 60_000)?.into(),
            vad_threshold: src.var("VAD_THRESHOLD", "RMS level of 16-bit samples above which a 20 ms frame counts as speech (`/ws/voice` with `vad`)").ranged(500, 32_767)?,
            vad_min_speech_ms: src.var("VAD_MIN_SPEECH_MS", "speech needed before silence can end an utterance").ranged(200, 10_000)?,
            vad_silence_ms: src.var("VAD_SILENCE_MS", "trailing silence that ends an utterance when Smart Turn does not decide it").ranged(700, 10_000)?.max(20),
            barge_in_min_speech_ms: src.var("BARGE_IN_MIN_SPEECH_MS", "speech that interrupts a running answer on `/ws/voice` (0 = never); shorter sounds are ignored").ranged(400, 10_000)?,
            stt_early_ms: src.var("STT_EARLY_MS", "silence after which what was said so far is transcribed while the end of the turn is awaited (0 = off); costs a call per pause with a paid STT").ranged(100, 10_000)?,
            first_clause_words: src.var("FIRST_CLAUSE_WORDS", "a spoken answer's first sentence is spoken up to its first `,` `;` or `:` once this many words precede it, so its audio starts sooner (0 = whole sentences)").ranged(4, 100)? as usize,
            preemptive_generation: src.var("PREEMPTIVE_GENERATION", "the model starts answering the transcript of a pause before the end of the turn is certain; speech that goes on stops it (a paid model bills what it wrote until then)").bool(true)?,
            vad_engine: src.var("VAD_ENGINE", "voice detector of every voice channel (`/ws/voice` with `vad`, Realtime, Wyoming, the phone lines): `auto` (Silero when its runtime and model are there, else energy), `silero`, `energy`").choice("auto", &["auto", "silero", "energy"])?,
            vad_speech_probability: src.var("VAD_SPEECH_PROBABILITY", "Silero's probability at which a 32 ms window counts as speech").probability(0.5)?,
            onnxruntime_lib: in_engines(
                "ONNXRUNTIME_LIB",
                "the ONNX Runtime library the neural models run on (the one in the PyPI `onnxruntime` wheel will do)",
                "ENGINES_DIR/onnxruntime/libonnxruntime.so",
                &["onnxruntime", "libonnxruntime.so"],
            ),
            silero_vad_model: in_engines(
                "SILERO_VAD_MODEL",
                "the Silero VAD model (fetched by the zero-setup engines)",
                "ENGINES_DIR/models/silero_vad.onnx",
                &["models", "silero_vad.onnx"],
            ),
            turn_engine: src.var("TURN_ENGINE", "end of turn on every voice channel (`/ws/voice` with `vad`, Realtime, Wyoming, the phone lines): `auto` (Smart Turn when its runtime and model are there, else the fixed `VAD_SILENCE_MS`), `smart-turn`, `silence`").choice("auto", &["auto", "smart-turn", "silence"])?,
            smart_turn_model: in_engines(
                "SMART_TURN_MODEL",
                "the Smart Turn v3 model, which hears whether a turn is complete (fetched by the zero-setup engines)",
                "ENGINES_DIR/models/smart-turn-v3.2-cpu.onnx",
                &["models", "smart-turn-v3.2-cpu.onnx"],
            ),
            turn_check_ms: src.var("TURN_CHECK_MS", "silence after which Smart Turn is asked whether the turn is complete; complete ends it at once").ranged(200, 10_000)?.max(20),
            turn_max_silence_ms: src.var("TURN_MAX_SILENCE_MS", "silence that ends a turn Smart Turn found incomplete (a thinking pause shorter than this is not cut)").ranged(2000, 10_000)?.max(20),
            turn_complete_probability: src.var("TURN_COMPLETE_PROBABILITY", "Smart Turn's probability at which a turn counts as complete").probability(0.5)?,
            turn_resume_ms: src.var("TURN_RESUME_MS", "speech that begins this soon (ms) after the last word of a question, before its answer was heard for long, continues the question: the answer stops and the whole is answered once (0 = never; half again as long after an unfinished phrase)").ranged(2000, 10_000)?,
            help_confirm_secs: src.var("HELP_CONFIRM_SECONDS", "after a call for help heard on a voice channel (`/ws/voice`, Realtime, Wyoming, a phone call), how long the answer to \"shall I alert your contacts?\" may take; without one the alarm goes out").ranged(20, 600)?.max(1).into(),
            max_utterance_secs: src.var("MAX_UTTERANCE_SECONDS", "longest utterance a voice channel buffers; a longer one is dropped (with an error event where the channel has events)").ranged(60, 600)?.max(1),
            max_voice_connections: src.var("MAX_VOICE_CONNECTIONS", "open `/ws/voice` connections of everybody, and the places of each raw voice door (Wyoming, AudioSocket; a quarter of them per address); beyond, an error event and close 1008, or a close").ranged(200, 100_000)?.max(1) as usize,
            voice_connections_per_user: src.var("VOICE_CONNECTIONS_PER_USER", "open `/ws/voice` connections of one user; beyond, an error event and close 1008").ranged(4, 1000)?.max(1)
                as usize,
            audio_buffer_budget_bytes: src.var("AUDIO_BUFFER_BUDGET_BYTES", "audio all voice connections may buffer together; a connection that would pass it is closed (1008)").number(256 * 1024 * 1024)?,
        })
    }
}
