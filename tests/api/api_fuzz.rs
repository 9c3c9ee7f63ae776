//! The described API against the running gateway, by property-based testing: Schemathesis generates requests
//! from `/openapi.json` (valid ones and invalid ones) and checks that no answer is a server error, that every
//! status and content type is described, and that every body matches its schema. The providers are fakes
//! speaking their real protocols, so a turn can succeed; espeak-ng speaks.
//!
//! Ignored by a plain `cargo test`: it needs Schemathesis and the OpenAPI validator, which `scripts/test.sh`
//! installs into `target/api-venv`.

use std::process::Stdio;

use serde_json::json;

use crate::common::{ADMIN_KEY, spawn_app};
use crate::fakes::{Fake, Reply};

const VENV: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/api-venv/bin");
/// Examples per operation and phase: enough to find what a fixed list of tests misses, few enough for CI.
const MAX_EXAMPLES: &str = "25";
/// A fixed seed, so that a failure is reproduced by the next run.
const SEED: &str = "20261123";

#[tokio::test]
#[ignore = "needs Schemathesis in target/api-venv; scripts/test.sh installs it and runs this"]
async fn generated_requests_get_described_answers_and_never_a_server_error() {
    // One fake answers as llama.cpp, Ollama and the cloud: a backend switch may pick either.
    let llm = Fake::answering(&["Fine, ", "thanks."]).await;
    llm.always("/v1/models", Reply::Json(json!({"data": [{"id": "smollm2"}]})));
    llm.always("/api/tags", Reply::Json(json!({"models": [{"name": "smollm2"}]})));
    llm.always("/api/ps", Reply::Json(json!({"models": []})));
    let stt = Fake::start().await;
    stt.always("/v1/audio/transcriptions", Reply::Json(json!({"text": "hello"})));
    let (llm_url, stt_url) = (llm.v1(), stt.v1());
    let app = spawn_app(&[
        ("LOCAL_LLM_URL", &llm_url),
        ("LLAMACPP_URL", &llm.base),
        ("OLLAMA_URL", &llm.base),
        ("CLOUD_LLM_URL", &llm_url),
        ("OPENAI_STT_URL", &stt_url),
        ("DEFAULT_STT_PROVIDER", "openai"),
        ("DAILY_REQUEST_LIMIT", "0"),
        ("MEMORY_EXTRACTION_ENABLED", "false"),
        // Its wrong tokens would make this address wait and leave the rest of the run to 429s.
        ("AUTH_FAILURES_PER_MINUTE", "1000000"),
    ])
    .await;
    let doc_url = app.url("/openapi.json");

    // The description itself is valid OpenAPI 3.1.
    let doc = reqwest::get(&doc_url).await.unwrap().bytes().await.unwrap();
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), &doc).unwrap();
    let valid = tokio::process::Command::new(format!("{VENV}/openapi-spec-validator"))
        .arg(file.path())
        .output()
        .await
        .expect("openapi-spec-validator in target/api-venv (scripts/test.sh installs it)");
    assert!(
        valid.status.success(),
        "{}{}",
        String::from_utf8_lossy(&valid.stdout),
        String::from_utf8_lossy(&valid.stderr)
    );

    // Schemathesis keeps a cache in `.schemathesis/` of the folder it runs in: a throwaway one, so that the run
    // leaves the checkout as it was (the fixed seed reproduces a failure without it).
    let scratch = tempfile::tempdir().unwrap();
    let run = tokio::process::Command::new(format!("{VENV}/st"))
        .current_dir(scratch.path())
        .args(["run", &doc_url, "--header", &format!("X-Admin-Key: {ADMIN_KEY}")])
        .args([
            "--checks",
            "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
        ])
        // It would stop this test's server; the binary test restarts the real program.
        .args(["--exclude-path", "/api/admin/gateway/restart"])
        // An event stream never ends: a case would wait for its body until the run's time-out.
        .args(["--exclude-path", "/api/admin/events"])
        .args(["--phases", "examples,coverage,fuzzing", "--max-examples", MAX_EXAMPLES])
        .args(["--seed", SEED, "--workers", "1", "--no-color"])
        .stdin(Stdio::null())
        .output()
        .await
        .expect("st in target/api-venv (scripts/test.sh installs it)");
    let report = String::from_utf8_lossy(&run.stdout);
    // The figures for the closing note: operations, generated cases, failures.
    let summary: Vec<&str> = report
        .lines()
        .filter(|l| l.contains("generated") || l.contains("Tested:") || l.contains("Selected:"))
        .collect();
    eprintln!("schemathesis: {}", summary.join(" | "));
    assert!(run.status.success(), "{report}{}", String::from_utf8_lossy(&run.stderr));
}
