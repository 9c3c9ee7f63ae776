//! Zero-setup local engines: when nobody configured a language model or a transcription service, the gateway
//! sets up a Python virtual environment under its data folder, fetches models (see `engines/engines.py`),
//! starts llama.cpp's server and a faster-whisper service on free loopback ports, and points the providers at
//! them. The engines live as long as the returned [`Engines`]: dropping it (Ctrl-C, SIGTERM) stops them.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::process::{Child, Command};

use crate::config::Settings;
use crate::config::keys::Key;
use crate::providers::{LlmId, ProviderId, ServedModel, SttId, TtsId};

/// The Python side, written next to the virtual environment at every start.
const SCRIPT: &str = include_str!("../engines/engines.py");
/// What the virtual environment holds; a change reinstalls.
const REQUIREMENTS: &[&str] = &["xllamacpp==2026.10.11549", "faster-whisper==1.2.1", "piper-tts==1.8.0"];
/// How long an engine may take to answer after its start.
/// pip's whole report of the first start, in the engines folder.
const INSTALL_LOG: &str = "install.log";
const READY_TIMEOUT: Duration = Duration::from_secs(180);

/// The running engines; dropping this stops them.
pub struct Engines {
    children: Vec<(&'static str, Child)>,
}

impl Engines {
    /// Which engines run, for the start-up message.
    pub fn names(&self) -> Vec<&'static str> {
        self.children.iter().map(|(name, _)| *name).collect()
    }
}

/// Why an engine could not be set up: says what is missing and how to get it.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct EngineError(String);

fn missing(what: impl Into<String>) -> EngineError {
    EngineError(what.into())
}

/// Sets up and starts the engines the settings leave unconfigured, and points the settings at them.
/// Returns `None` when nothing needs to run (`ENGINES=off`, or every stage configured).
pub async fn start(settings: &mut Settings) -> Result<Option<Engines>, EngineError> {
    let needs_llm =
        !settings.engines.llm_configured && settings.runtime_env[&Key::DefaultLlmProvider] == LlmId::Local.as_str();
    let needs_stt = wants_whisper(settings);
    if settings.engines.mode == "off" {
        for gap in unconfigured(settings) {
            tracing::warn!("{gap}");
        }
        return Ok(None);
    }
    check_espeak(settings).await;
    if !needs_llm && !needs_stt {
        return Ok(None);
    }
    let dir = absolute(&settings.engines.dir);
    tokio::fs::create_dir_all(&dir)
        .await
        .map_err(|e| missing(format!("cannot create {}: {e}", dir.display())))?;
    // Two gateways starting at once on one engines folder (two instances, or tests) take turns setting it up.
    let setting_up = lock_folder(&dir).await?;
    let path = dir.join("engines.py");
    tokio::fs::write(&path, SCRIPT)
        .await
        .map_err(|e| missing(format!("cannot write {}: {e}", path.display())))?;
    let script = Script {
        python: venv(&dir).await?,
        path,
        gpu_mask: settings.engines.cuda_visible_devices(),
    };
    // Unless WHISPER_MODEL names a size, the engines choose by hardware (small on a GPU, base on a CPU) and say so.
    let size = if settings.engines.whisper_model_explicit {
        settings.providers.whisper_model.clone()
    } else {
        "auto".to_string()
    };
    let Prepared {
        gguf,
        whisper,
        voices,
        model_name,
        languages,
    } = prepare(&script, &dir, &size).await?;
    drop(setting_up);

    let mut started = Started {
        script: &script,
        dir: &dir,
        children: Vec::new(),
    };
    if needs_llm {
        started.llm(settings, gguf, model_name, languages).await?;
    }
    if needs_stt {
        started.stt(settings, whisper).await?;
    }
    if let Some(voices) = voices.filter(|_| !settings.engines.tts_configured) {
        started.tts(settings, voices).await?;
    }
    Ok(Some(Engines {
        children: started.children,
    }))
}

/// The engines started so far, from the script in the engines folder.
struct Started<'a> {
    script: &'a Script,
    dir: &'a Path,
    children: Vec<(&'static str, Child)>,
}

impl Started<'_> {
    /// Starts `args` of the script as `name`, logging to `log` in the folder, and waits until `ready` (a path
    /// on its port) answers; its address.
    async fn spawn(
        &mut self,
        name: &'static str,
        args: &[&str],
        log: &str,
        ready: &str,
    ) -> Result<String, EngineError> {
        let port = free_port()?.to_string();
        let args: Vec<&str> = args.iter().copied().chain(["--port", &port]).collect();
        let child = self.script.spawn(&args, &self.dir.join(log))?;
        self.children.push((name, child));
        let url = format!("http://127.0.0.1:{port}");
        wait_ready(&format!("{url}{ready}"), &mut self.children, &self.dir.join(log)).await?;
        Ok(url)
    }

    /// llama.cpp's server with the GGUF found, as the local language model.
    async fn llm(
        &mut self,
        settings: &mut Settings,
        gguf: Option<String>,
        name: String,
        languages: Option<Vec<String>>,
    ) -> Result<(), EngineError> {
        let gguf = gguf.ok_or_else(|| {
            missing(format!(
                "no language model: put a GGUF file into {}/models, or set LOCAL_LLM_URL to your own server",
                self.dir.display()
            ))
        })?;
        let alias = settings.runtime_env[&Key::LocalLlmModel].clone();
        let url = self
            .spawn(
                "llama.cpp",
                &["llm", "--model", &gguf, "--alias", &alias],
                "llm.log",
                "/v1/models",
            )
            .await?;
        settings.providers.local_llm_url = format!("{url}/v1");
        settings.providers.local_llm_backend = "llamacpp".into();
        settings.providers.served_model = Some(ServedModel { name, alias, languages });
        Ok(())
    }

    /// faster-whisper with `WHISPER_MODEL_PATH` or the model found, as the `whisper` engine; it takes the place
    /// of an `openai` service nobody configured.
    async fn stt(&mut self, settings: &mut Settings, whisper: Option<String>) -> Result<(), EngineError> {
        let whisper = settings
            .providers
            .whisper_model_path
            .clone()
            .or(whisper)
            .ok_or_else(|| {
                missing(format!(
                    "no Whisper model: put a CTranslate2 Whisper model into {}/models/whisper-base, set \
                 WHISPER_MODEL_PATH to one, or set OPENAI_STT_URL",
                    self.dir.display()
                ))
            })?;
        let window = settings.engines.whisper_window_secs.to_string();
        let compute = settings.providers.whisper_compute_type.clone();
        let args = [
            "stt",
            "--model-dir",
            &whisper,
            "--window",
            &window,
            "--compute-type",
            &compute,
        ];
        let url = self.spawn("faster-whisper", &args, "stt.log", "/health").await?;
        let p = &mut settings.providers;
        p.whisper_url = Some(format!("{url}/v1"));
        let chosen = Path::new(&whisper)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("whisper-base");
        p.whisper_model = chosen.trim_start_matches("whisper-").to_string();
        if replaces_openai(settings) {
            settings
                .runtime_env
                .insert(Key::DefaultSttProvider, SttId::Whisper.to_string());
        }
        Ok(())
    }

    /// Piper's server with the voices found; it speaks its languages, espeak-ng the others (`TTS_FALLBACK`).
    async fn tts(&mut self, settings: &mut Settings, voices: String) -> Result<(), EngineError> {
        let url = self
            .spawn("Piper", &["tts", "--voices", &voices], "tts.log", "/health")
            .await?;
        settings.providers.piper_url = Some(format!("{url}/v1"));
        settings.providers.piper_voice_dir = Some(voices);
        settings
            .runtime_env
            .insert(Key::DefaultTtsProvider, TtsId::Piper.to_string());
        Ok(())
    }
}

/// Whether the engines run Whisper: `whisper` is the default or a fallback, or the default is an `openai`
/// service nobody configured (the engines' Whisper then takes its place).
fn wants_whisper(settings: &Settings) -> bool {
    settings.runtime_env[&Key::DefaultSttProvider] == SttId::Whisper.as_str()
        || settings.fallbacks.stt.contains(&SttId::Whisper)
        || replaces_openai(settings)
}

/// Whether the default is the `openai` service and nobody said where it is, so the engines' Whisper takes its
/// place.
fn replaces_openai(settings: &Settings) -> bool {
    settings.runtime_env[&Key::DefaultSttProvider] == SttId::Openai.as_str() && !settings.engines.stt_configured
}

/// The stages that nobody configured while the engines are off, each with how to configure it.
pub fn unconfigured(settings: &Settings) -> Vec<String> {
    let env = &settings.runtime_env;
    let p = &settings.providers;
    let mut gaps = Vec::new();
    match LlmId::parse(&env[&Key::DefaultLlmProvider]) {
        Ok(LlmId::Local) if !settings.engines.llm_configured => gaps.push(format!(
            "language model: LOCAL_LLM_URL is not set, so the gateway expects Ollama at {}; set LOCAL_LLM_URL to \
             your OpenAI-compatible server (llama.cpp, Ollama, vLLM), ENGINES=auto to have one set up, or \
             DEFAULT_LLM_PROVIDER=cloud with CLOUD_LLM_API_KEY",
            p.local_llm_url
        )),
        Ok(LlmId::Cloud) if p.cloud_llm_api_key.is_none() => gaps.push(
            "language model: DEFAULT_LLM_PROVIDER=cloud, but CLOUD_LLM_API_KEY is not set; set it, or \
             DEFAULT_LLM_PROVIDER=local with LOCAL_LLM_URL"
                .to_string(),
        ),
        _ => {}
    }
    match SttId::parse(&env[&Key::DefaultSttProvider]) {
        Ok(SttId::Openai) if !settings.engines.stt_configured && p.openai_stt_api_key.is_none() => gaps.push(format!(
            "speech to text: OPENAI_STT_URL is not set and there is no OPENAI_STT_API_KEY for {}; set \
             OPENAI_STT_URL to your OpenAI-compatible transcription server (faster-whisper-server, Speaches), \
             OPENAI_STT_API_KEY for OpenAI, or ENGINES=auto to have Whisper run here",
            p.openai_stt_url
        )),
        Ok(SttId::Whisper) => gaps.push(
            "speech to text: DEFAULT_STT_PROVIDER=whisper, but the gateway runs Whisper only with ENGINES=auto; set \
             it, or DEFAULT_STT_PROVIDER=openai with OPENAI_STT_URL"
                .to_string(),
        ),
        _ => {}
    }
    gaps
}

fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().map_or_else(|_| path.to_path_buf(), |cwd| cwd.join(path))
    }
}

/// espeak-ng speaks every language; without it only a cloud TTS is left, so say how to get it.
async fn check_espeak(settings: &Settings) {
    if settings.runtime_env[&Key::DefaultTtsProvider] != TtsId::Espeak.as_str()
        && !settings.fallbacks.tts.contains(&TtsId::Espeak)
    {
        return;
    }
    let found = Command::new("espeak-ng")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .await
        .is_ok_and(|s| s.success());
    if !found {
        tracing::warn!(
            "espeak-ng is not installed, so answers cannot be spoken: install it (sudo apt-get install espeak-ng) \
             or configure OPENAI_TTS_URL"
        );
    }
}

/// The virtual environment's Python, created and filled when needed (a marker file skips it next time).
async fn venv(dir: &Path) -> Result<PathBuf, EngineError> {
    let venv = dir.join("venv");
    let python = venv.join("bin").join("python");
    let marker = venv.join(".voice-gateway-requirements");
    let wanted = REQUIREMENTS.join("\n");
    if tokio::fs::read_to_string(&marker).await.ok().as_deref() == Some(wanted.as_str()) && python.exists() {
        return Ok(python);
    }
    if !python.exists() {
        tracing::info!(dir = %venv.display(), "creating the Python environment of the local engines");
        let made = Command::new("python3").args(["-m", "venv"]).arg(&venv).status().await;
        match made {
            Ok(s) if s.success() => {}
            Ok(_) => {
                return Err(missing(
                    "python3 cannot create a virtual environment: install python3-venv",
                ));
            }
            Err(_) => {
                return Err(missing(
                    "python3 is missing: install Python 3.9 or newer (sudo apt-get install python3 python3-venv)",
                ));
            }
        }
    }
    tracing::info!(
        "installing the local engines (llama.cpp server, faster-whisper, Piper); the first start takes a few minutes"
    );
    let log = dir.join(INSTALL_LOG);
    let mut pip = Command::new(&python);
    pip.args([
        "-m",
        "pip",
        "install",
        "--disable-pip-version-check",
        "--progress-bar",
        "off",
    ])
    .args(REQUIREMENTS);
    if !run_logged(pip, &log).await? {
        return Err(missing(format!(
            "pip could not install {} (no network to PyPI?; its report: {}); set LOCAL_LLM_URL and OPENAI_STT_URL to your own servers, or ENGINES=off",
            REQUIREMENTS.join(", "),
            log.display()
        )));
    }
    let _ = tokio::fs::write(&marker, wanted).await;
    Ok(python)
}

/// Runs pip (or the script that runs it) with its report appended to `log`: the operator sees one line per
/// download, not the hundred and more lines of pip's resolution. Whether it succeeded.
async fn run_logged(mut command: Command, log: &Path) -> Result<bool, EngineError> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let mut file = tokio::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .await
        .map_err(|e| missing(format!("cannot open {}: {e}", log.display())))?;
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| missing(format!("pip could not run: {e}")))?;
    // Both of pip's streams, line by line, into one.
    let (lines, mut heard) = tokio::sync::mpsc::unbounded_channel();
    fn forward(
        from: impl tokio::io::AsyncRead + Unpin + Send + 'static,
        to: tokio::sync::mpsc::UnboundedSender<String>,
    ) {
        tokio::spawn(async move {
            let mut from = BufReader::new(from).lines();
            while let Ok(Some(line)) = from.next_line().await {
                let _ = to.send(line);
            }
        });
    }
    if let Some(out) = child.stdout.take() {
        forward(out, lines.clone());
    }
    if let Some(err) = child.stderr.take() {
        forward(err, lines);
    }
    let (mut downloads, mut last) = (0usize, std::collections::VecDeque::new());
    while let Some(line) = heard.recv().await {
        let _ = file.write_all(format!("{line}\n").as_bytes()).await;
        if let Some(what) = downloading(&line) {
            downloads += 1;
            tracing::info!("downloading {what}");
        }
        if last.len() == 10 {
            last.pop_front();
        }
        last.push_back(line);
    }
    let status = child
        .wait()
        .await
        .map_err(|e| missing(format!("pip could not run: {e}")))?;
    if status.success() {
        tracing::info!(downloads, report = %log.display(), "the local engines are installed");
    } else {
        let tail: Vec<String> = last.into_iter().collect();
        tracing::error!(report = %log.display(), "pip failed; its last words: {}", tail.join(" | "));
    }
    Ok(status.success())
}

/// The file and size of one of pip's download lines ("Downloading faster_whisper-1.2.1-py3-none-any.whl
/// (1.1 MB)"), without the address a newer pip may print instead of the file's name.
fn downloading(line: &str) -> Option<&str> {
    let what = line.trim().strip_prefix("Downloading ")?;
    Some(what.rsplit_once('/').map_or(what, |(_, file)| file))
}

/// What `engines.py prepare` found: the GGUF, the Whisper folder and the Piper voices' folder (each may be
/// missing), and the name and languages of the GGUF's model.
struct Prepared {
    gguf: Option<String>,
    whisper: Option<String>,
    voices: Option<String>,
    model_name: String,
    languages: Option<Vec<String>>,
}

/// `engines.py` and the venv's Python that runs it.
struct Script {
    python: PathBuf,
    path: PathBuf,
    /// `CUDA_VISIBLE_DEVICES` for the engines (from `GPUS`); `None` leaves the environment's.
    gpu_mask: Option<String>,
}

impl Script {
    /// `python engines.py`, seeing the GPUs that `GPUS` allows.
    fn command(&self) -> Command {
        let mut command = Command::new(&self.python);
        command.arg(&self.path);
        if let Some(mask) = &self.gpu_mask {
            command.env("CUDA_VISIBLE_DEVICES", mask);
        }
        command
    }

    /// Starts a service of the script, its output appended to `log`.
    fn spawn(&self, args: &[&str], log: &Path) -> Result<Child, EngineError> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .map_err(|e| missing(format!("cannot open {}: {e}", log.display())))?;
        let err = file.try_clone().map_err(|e| missing(e.to_string()))?;
        self.command()
            .args(args)
            .stdin(Stdio::null())
            .stdout(file)
            .stderr(err)
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| missing(format!("cannot start {}: {e}", args[0])))
    }
}

/// An exclusive lock on the engines folder while it is set up (the lock file stays; the lock goes with the
/// returned file).
async fn lock_folder(dir: &Path) -> Result<std::fs::File, EngineError> {
    let path = dir.join(".setting-up.lock");
    let file = std::fs::File::create(&path).map_err(|e| missing(format!("cannot create {}: {e}", path.display())))?;
    let locked = move || rustix::fs::flock(&file, rustix::fs::FlockOperation::LockExclusive).map(|()| file);
    tokio::task::spawn_blocking(locked)
        .await
        .map_err(|e| missing(e.to_string()))?
        .map_err(|e| missing(format!("cannot lock {}: {e}", path.display())))
}

/// Runs `engines.py prepare`.
async fn prepare(script: &Script, dir: &Path, whisper: &str) -> Result<Prepared, EngineError> {
    // Spawned rather than run with `output()`, which would capture stderr too: the Python side's progress
    // and its reasons for each fallback go there, and the operator should see them.
    let out = script
        .command()
        .args(["prepare", "--dir"])
        .arg(dir)
        .args(["--whisper", whisper])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| missing(format!("cannot run {}: {e}", script.path.display())))?
        .wait_with_output()
        .await
        .map_err(|e| missing(format!("cannot run {}: {e}", script.path.display())))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().last().unwrap_or("");
    let found: serde_json::Value =
        serde_json::from_str(line).map_err(|_| missing(format!("preparing the models failed: {line}")))?;
    let path = |key: &str| found[key].as_str().map(String::from);
    let languages = found["llm_languages"]
        .as_array()
        .map(|list| list.iter().filter_map(|l| l.as_str().map(String::from)).collect());
    Ok(Prepared {
        gguf: path("llm"),
        whisper: path("whisper"),
        voices: path("voices"),
        model_name: path("llm_name").unwrap_or_default(),
        languages,
    })
}

fn free_port() -> Result<u16, EngineError> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| missing(format!("no free port: {e}")))
}

/// Waits until `url` answers 200; fails with the end of the engine's log when it exits or takes too long.
async fn wait_ready(url: &str, children: &mut [(&'static str, Child)], log: &Path) -> Result<(), EngineError> {
    let http = reqwest::Client::new();
    let started = Instant::now();
    loop {
        if let Ok(r) = http.get(url).timeout(Duration::from_secs(2)).send().await
            && r.status().is_success()
        {
            return Ok(());
        }
        let exited = children
            .last_mut()
            .and_then(|(_, child)| child.try_wait().ok().flatten())
            .is_some();
        if exited || started.elapsed() > READY_TIMEOUT {
            let tail = std::fs::read_to_string(log).unwrap_or_default();
            let tail: Vec<&str> = tail.lines().rev().take(8).collect();
            let name = children.last().map_or("engine", |(n, _)| n);
            return Err(missing(format!(
                "{name} did not start (see {}): {}",
                log.display(),
                tail.into_iter().rev().collect::<Vec<_>>().join(" | ")
            )));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::downloading;

    #[test]
    fn a_download_is_told_by_its_file_and_size_and_nothing_else_of_pip_is() {
        let old = "  Downloading faster_whisper-1.2.1-py3-none-any.whl (1.1 MB)";
        assert_eq!(downloading(old), Some("faster_whisper-1.2.1-py3-none-any.whl (1.1 MB)"));
        let new = "Downloading https://files.pythonhosted.org/packages/ab/cd/av-15.0.0-cp311-manylinux.whl (39.6 MB)";
        assert_eq!(downloading(new), Some("av-15.0.0-cp311-manylinux.whl (39.6 MB)"));
        for quiet in [
            "Collecting faster-whisper==1.2.1",
            "  Using cached numpy-2.1.0.whl",
            "Installing collected packages: av",
        ] {
            assert_eq!(downloading(quiet), None, "{quiet}");
        }
    }
}
