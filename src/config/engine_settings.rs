//! The engines area: the zero-setup local engines and the GPUs they may use.

use std::path::PathBuf;

use super::env::{ConfigError, Source, Var};

/// The local engines the gateway sets up and starts itself when nothing else is configured.
#[derive(Debug)]
pub struct EngineSettings {
    /// `GPUS`: `auto`, `none` or a comma list of device numbers.
    pub gpus: String,
    /// `ENGINES`: `auto` (default in local-dev) starts what is not configured, `off` starts nothing.
    pub mode: String,
    /// `ENGINES_DIR`: virtual environment, models and logs (default: `engines` beside the database).
    pub dir: PathBuf,
    /// `LOCAL_LLM_URL` was given: the user runs their own language model server.
    pub llm_configured: bool,
    /// `OPENAI_STT_URL` was given: the user runs their own transcription service.
    pub stt_configured: bool,
    /// `DEFAULT_TTS_PROVIDER` or `PIPER_URL` was given: the engines do not choose the voice.
    pub tts_configured: bool,
    /// `WHISPER_MODEL` was given: the engines fetch that size rather than choosing one for the hardware.
    pub whisper_model_explicit: bool,
    /// `WHISPER_WINDOW_SECONDS`: the audio window the local Whisper encodes for a short clip (30 = Whisper's own).
    pub whisper_window_secs: u32,
}

impl EngineSettings {
    /// Reads the area; `configured` tells whether a variable was given at all.
    pub(super) fn read(src: &Source, dir: PathBuf, configured: &dyn Fn(&str) -> bool) -> Result<Self, ConfigError> {
        let engines_dir = dir;
        Ok(Self {
            gpus: gpus(src.var("GPUS", "`auto`, `none` or a comma list of device numbers for local engines"))?,
            mode: src
                .var("ENGINES", "`auto`: at start, set up and run llama.cpp for the `local` model LOCAL_LLM_URL does not configure, faster-whisper as `whisper` (for an OPENAI_STT_URL nobody set, or when named) and Piper")
                .profiles([Some("auto"), None, None])
                .choice("off", &["auto", "off"])?,
            dir: engines_dir.clone(),
            llm_configured: configured("LOCAL_LLM_URL"),
            stt_configured: configured("OPENAI_STT_URL"),
            tts_configured: configured("DEFAULT_TTS_PROVIDER") || configured("PIPER_URL"),
            whisper_model_explicit: configured("WHISPER_MODEL"),
            whisper_window_secs: src.var("WHISPER_WINDOW_SECONDS", "audio window the local faster-whisper encodes for a clip of known language shorter than it (longer clips: just long enough); 30 = Whisper's own window, 0.6 s slower for a short question").ranged(15, 30)?.max(1),
        })
    }

    /// `CUDA_VISIBLE_DEVICES` for the engines' processes by `GPUS`: `none` hides every GPU, a list shows
    /// those devices, `auto` leaves the environment's (`None`). Given to each child rather than set on this
    /// process, where changing the environment is unsafe once threads run.
    pub fn cuda_visible_devices(&self) -> Option<String> {
        match self.gpus.as_str() {
            "auto" => None,
            "none" => Some(String::new()),
            list => Some(list.split(',').map(str::trim).collect::<Vec<_>>().join(",")),
        }
    }
}

fn gpus(var: Var) -> Result<String, ConfigError> {
    let value = var.string("auto");
    let valid = value == "auto"
        || value == "none"
        || value
            .split(',')
            .all(|d| !d.trim().is_empty() && d.trim().chars().all(|c| c.is_ascii_digit()));
    if valid {
        Ok(value)
    } else {
        Err(var.error(format!("{value:?} is not auto, none or a comma list of device numbers")))
    }
}
