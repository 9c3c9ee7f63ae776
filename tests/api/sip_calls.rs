//! Calls from the house's handsets: Debian's kamailio as the router, baresip as the handsets (its file as the
//! microphone, what it hears recorded), the gateway with the real engines, all inside a network namespace of
//! the test's own (baresip puts its machine's network address in its offer, never loopback).
//!
//! Ignored by a plain `cargo test`: it needs kamailio, baresip, `unshare`, `ip` and the engines
//! (`scripts/test.sh` installs and fetches them).

use std::path::Path;

use serde_json::Value;

use voice_gateway::providers::audio::{Pcm, parse_wav, to_mono};

use crate::common::in_namespace;
use crate::sip::kamailio_config;

const BIN: &str = env!("CARGO_BIN_EXE_voice-gateway");

/// Inside the namespace: the router (kamailio on 10.77.0.1:5060) and the gateway registered with it as
/// `assistant` (SIP on 10.77.0.1:5070, HTTP on 127.0.0.1:8080 with the admin key `calls-admin-key-0123`), both stopped
/// when the script ends; `api METHOD PATH [JSON]` asks the gateway as an admin.
pub const ROUTER_AND_GATEWAY: &str = r#"
cd "$DATA"
# The router, the gateway (and its engines) and the telephones end with the script, whatever ends it.
trap 'kill $(jobs -p) 2>/dev/null; wait' EXIT
/usr/sbin/kamailio -f "$DATA/kamailio.cfg" -DD -E -Y "$DATA" > "$DATA/kamailio.log" 2>&1 &
for _ in $(seq 50); do grep -q "SO_RCVBUF is finally" "$DATA/kamailio.log" && break; sleep 0.1; done
DB_PATH="$DATA/gateway.db" LISTEN_ADDR=127.0.0.1:8080 ADMIN_API_KEY=calls-admin-key-0123 \
  SIP_REGISTRAR=10.77.0.1:5060 SIP_USER=assistant SIP_PASSWORD=line-secret SIP_ADDR=10.77.0.1:5070 \
  SIP_RTP_PORTS=41000-41019 "$GATEWAY" > "$DATA/gateway.log" 2>&1 &
for _ in $(seq 1800); do grep -q "SIP registered" "$DATA/gateway.log" && break; sleep 0.5; done
api() {
  python3 - "$@" <<'PY'
import http.client, json, sys
c = http.client.HTTPConnection("127.0.0.1", 8080, timeout=120)
body = sys.argv[3] if len(sys.argv) > 3 else None
c.request(sys.argv[1], sys.argv[2], body, {"X-Admin-Key": "calls-admin-key-0123", "Content-Type": "application/json"})
print(c.getresponse().read().decode())
PY
}
# A handset of the house: name, codecs, its microphone's file, its account, whom it dials. What it hears is
# recorded in $DATA/name/heard; baresip quits only on a timer, so it is stopped once its call ended.
handset() {
  phone_config "$1" "$2" "$3" 0
  echo "$4" > "$DATA/$1/accounts"
  baresip -f "$DATA/$1" -e "/dial $5" -t 90 > "$DATA/$1.log" 2>&1 &
  local pid=$!
  for _ in $(seq 900); do
    grep -qaE "terminated|session closed" "$DATA/$1.log" && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.1
  done
  kill $pid 2>/dev/null; wait $pid 2>/dev/null || true
}
# A telephone's configuration: name, codecs, its microphone's file, and the port of its console (0: none).
phone_config() {
  mkdir -p "$DATA/$1/heard"
  {
    echo "poll_method epoll"; echo "sip_listen ${LISTEN:-10.77.0.2}:0"
    echo "audio_player aubridge,nil"; echo "audio_alert aubridge,nil"; echo "audio_source aufile,$3"
    echo "snd_path $DATA/$1/heard"; echo "module_path /usr/lib/baresip/modules"
    for codec in $2; do echo "module $codec.so"; done
    echo "module aufile.so"; echo "module aubridge.so"; echo "module sndfile.so"; echo "module stdio.so"
    if [ "$4" != 0 ]; then echo "cons_listen 10.77.0.2:$4"; echo "module cons.so"; fi
    echo "module_tmp account.so"; echo "module_app menu.so"
  } > "$DATA/$1/config"
}
# Transcribes the first recording of what telephone NAME heard (in LANGUAGE, English if not given).
heard() {
  python3 - "$1" "${2:-en}" <<'PY'
import glob, http.client, json, os, sys
files = sorted(glob.glob(f"{os.environ['DATA']}/{sys.argv[1]}/heard/*-dec.wav"))
if files:
    c = http.client.HTTPConnection("127.0.0.1", 8080, timeout=120)
    c.request("POST", f"/api/transcribe?language={sys.argv[2]}", open(files[0], "rb").read(), {"Content-Type": "audio/wav"})
    print(json.loads(c.getresponse().read()).get("text"))
PY
}
"#;

/// The handsets: Oma's `611` (G.722 and G.711), the kitchen's `612` (G.711 only), the hallway's analog
/// adapter calling the gateway directly over TCP from an address of `SIP_ALLOWED_FROM`, and a stranger
/// calling it directly. The output is what each saw.
const SCRIPT: &str = r#"
oma=$(api POST /api/admin/users '{"name": "oma", "display_name": "Oma"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
api PUT "/api/admin/users/$oma/prefs" '{"caller_numbers": ["611"]}' > /dev/null
handset oma "g722 g711" "$Q16" "<sip:611@10.77.0.1:5060>;auth_pass=oma-secret" "sip:assistant@10.77.0.1:5060"
handset kitchen "g711" "$Q8" "<sip:612@10.77.0.1:5060>;auth_pass=kitchen-secret" "sip:assistant@10.77.0.1:5060"
ip addr add 10.77.0.3/24 dev v1
LISTEN=10.77.0.3 handset hallway "g711" "$Q8" "<sip:hallway@10.77.0.3>;regint=0" "sip:assistant@10.77.0.1:5070;transport=tcp"
handset stranger "g711" "$Q8" "<sip:stranger@10.77.0.2>;regint=0" "sip:assistant@10.77.0.1:5070"
HEARD_OMA=$(heard oma) HEARD_KITCHEN=$(heard kitchen) HEARD_HALLWAY=$(heard hallway) python3 - <<'PY'
import json, os, re, sqlite3
data = os.environ["DATA"]
hallway = re.search(r"terminated \(duration: (\d+) sec", open(f"{data}/hallway.log", errors="replace").read())
db = sqlite3.connect(f"{data}/gateway.db")
rows = db.execute("select u.name, m.role, m.text from messages m join users u on u.id = m.user_id order by m.rowid")
log = open(f"{data}/gateway.log").read()
print(json.dumps({
    "messages": [list(r) for r in rows],
    "heard": {name: os.environ[f"HEARD_{name.upper()}"] for name in ["oma", "kitchen", "hallway"]},
    "calls": [[line.split(f'{field}="')[1].split('"')[0] for field in ["codec", "transport"]]
              for line in log.splitlines() if "a SIP call" in line],
    "stranger": open(f"{data}/stranger.log", errors="replace").read(),
    "hallway_seconds": int(hallway.group(1)) if hallway else None,
}))
PY
"#;

#[tokio::test]
#[ignore = "needs kamailio, baresip, a user network namespace and the engines; scripts/test.sh runs it"]
async fn handsets_of_the_house_call_the_assistant_over_the_router_in_g722_and_g711() {
    let data = tempfile::tempdir().unwrap();
    let accounts = [
        ("assistant", "line-secret"),
        ("611", "oma-secret"),
        ("612", "kitchen-secret"),
    ];
    // The question, as each handset's microphone sends it: G.722 takes 16 kHz, G.711 8 kHz.
    let question = question_wav(data.path());
    let env = [
        ("Q16", question.0.as_str()),
        ("Q8", question.1.as_str()),
        ("SIP_ALLOWED_FROM", "10.77.0.3"),
    ];
    let seen = in_the_house(data.path(), &accounts, SCRIPT, &env).await;

    // Oma's handset offered G.722 first, the kitchen's and the adapter's only G.711: each got the best it
    // offered; the adapter's call came over TCP.
    let calls = serde_json::json!([["G722", "udp"], ["PCMA", "udp"], ["PCMA", "tcp"]]);
    assert_eq!(seen["calls"], calls, "{seen}");
    // Oma is known by her handset's internal number: the question and the answer are in her history.
    let messages = seen["messages"].as_array().unwrap();
    let oma: Vec<&Value> = messages.iter().filter(|m| m[0] == "oma").collect();
    assert!(
        oma.iter()
            .any(|m| m[1] == "user" && m[2].as_str().unwrap().to_lowercase().contains("capital")),
        "{seen}"
    );
    assert!(
        oma.iter()
            .any(|m| m[1] == "assistant" && m[2].as_str().unwrap().contains("Paris")),
        "{seen}"
    );
    // The kitchen's number is nobody's: refused, as PHONE_UNKNOWN_CALLERS says by default; nothing stored.
    assert!(messages.iter().all(|m| m[0] == "oma"), "{seen}");
    // What Oma heard is speech: the greeting ("Hello, Oma. How can I help?", her name is too short for
    // Whisper base to be sure of) and the answer ("The capital of France is Paris.", whose last word Whisper
    // base, on a loaded machine, has heard as "Perz").
    let heard = seen["heard"]["oma"].as_str().unwrap_or_default().to_lowercase();
    assert!(
        heard.contains("how can i help") && (heard.contains("paris") || heard.contains("the capital of")),
        "{seen}"
    );
    let kitchen = seen["heard"]["kitchen"].as_str().unwrap_or_default().to_lowercase();
    assert!(kitchen.contains("not set up"), "the kitchen heard the refusal: {seen}");
    // The adapter's call over TCP, too (the hallway is nobody's number), and ended with a BYE on the
    // connection it came on.
    let hallway = seen["heard"]["hallway"].as_str().unwrap_or_default().to_lowercase();
    assert!(hallway.contains("not set up"), "the hallway heard the refusal: {seen}");
    assert!(seen["hallway_seconds"].as_u64().is_some_and(|s| s < 20), "{seen}");
    // A direct call from an address outside SIP_ALLOWED_FROM is forbidden.
    assert!(seen["stranger"].as_str().unwrap().contains("403 Forbidden"), "{seen}");
}

/// Oma's A-law handset with a caller who pauses after an unfinished phrase, and Opa's, in German, to the
/// English-only offline model. The output is what the gateway stored and counted and what Opa heard.
const PAUSE_AND_NOTICE: &str = r#"
oma=$(api POST /api/admin/users '{"name": "oma", "display_name": "Oma"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
api PUT "/api/admin/users/$oma/prefs" '{"caller_numbers": ["611"]}' > /dev/null
opa=$(api POST /api/admin/users '{"name": "opa", "display_name": "Opa"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
api PUT "/api/admin/users/$opa/prefs" '{"caller_numbers": ["612"], "language": "de"}' > /dev/null
handset oma "g711" "$PAUSED" "<sip:611@10.77.0.1:5060>;auth_pass=oma-secret" "sip:assistant@10.77.0.1:5060"
handset opa "g711" "$GERMAN" "<sip:612@10.77.0.1:5060>;auth_pass=opa-secret" "sip:assistant@10.77.0.1:5060"
METRICS=$(api GET "/api/metrics?format=prometheus") HEARD_OPA=$(heard opa de) python3 - <<'PY'
import json, os, sqlite3
db = sqlite3.connect(f"{os.environ['DATA']}/gateway.db")
rows = db.execute("select u.name, m.role, m.text from messages m join users u on u.id = m.user_id order by m.rowid")
log = open(f"{os.environ['DATA']}/gateway.log").read()
print(json.dumps({
    "messages": [list(r) for r in rows],
    "codecs": [line.split('codec="')[1].split('"')[0] for line in log.splitlines() if "a SIP call" in line],
    "continuations": [l for l in os.environ["METRICS"].splitlines()
                      if l.startswith("voice_continuations_total") and float(l.rsplit(" ", 1)[1]) > 0],
    "heard_opa": os.environ["HEARD_OPA"],
}))
PY
"#;

#[tokio::test]
#[ignore = "needs kamailio, baresip, a user network namespace and the engines; scripts/test.sh runs it"]
async fn on_an_a_law_handset_a_pause_stays_inside_the_question_and_a_german_caller_hears_why_english_comes() {
    use crate::voice_detection::{COMPLETE, INCOMPLETE, pcm};
    let data = tempfile::tempdir().unwrap();
    let accounts = [
        ("assistant", "line-secret"),
        ("611", "oma-secret"),
        ("612", "opa-secret"),
    ];
    // After the greeting, the broken-off phrase, 1.5 s of thinking, the rest (espeak-ng, 16 kHz fixtures),
    // sent by the handset in A-law at 8 kHz.
    let silence = |seconds: f64| vec![0i16; (16_000.0 * seconds) as usize];
    let paused = Pcm {
        sample_rate: 16_000,
        samples: [
            silence(6.0),
            pcm(INCOMPLETE),
            silence(1.5),
            pcm(COMPLETE),
            silence(25.0),
        ]
        .concat(),
        channels: 1,
    };
    let paused_path = data.path().join("paused-8000.wav");
    std::fs::write(&paused_path, paused.resampled(8_000).to_wav()).unwrap();
    let german = spoken_wav_in(data.path(), "german", "de", &[(6.0, "Wie spät ist es jetzt?")], 25.0);
    let env = [("PAUSED", paused_path.to_str().unwrap()), ("GERMAN", german.1.as_str())];
    let seen = in_the_house(data.path(), &accounts, PAUSE_AND_NOTICE, &env).await;

    assert_eq!(seen["codecs"], serde_json::json!(["PCMA", "PCMA"]), "{seen}");
    // Smart Turn heard the phrase unfinished on the 8 kHz line: one question, both parts in it, and not a turn
    // ended at the pause and joined afterwards (with the fixed silence it is).
    let asked: Vec<String> = seen["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m[0] == "oma" && m[1] == "user")
        .map(|m| m[2].as_str().unwrap().to_lowercase())
        .collect();
    assert_eq!(asked.len(), 1, "{seen}");
    assert!(
        asked[0].contains("like to know") && asked[0].contains("capital"),
        "{seen}"
    );
    assert_eq!(seen["continuations"], serde_json::json!([]), "{seen}");
    // Opa heard, in German, that the model cannot answer in German ("Das Sprachmodell … kann kein Deutsch: Die
    // Antwort kommt wohl auf Englisch oder ergibt keinen Sinn. …"). Whisper base hears espeak-ng's German
    // through A-law with many words wrong, never the same ones ("kein" as "keinen", "Deutsch" as "Neutsch",
    // "Antwort" as "Ansatz"): the notice's own word, and two more of its words.
    let heard = seen["heard_opa"].as_str().unwrap_or_default().to_lowercase();
    let words = ["kein", "eutsch", "antwort", "englisch", "sinn"];
    let found = words.iter().filter(|w| heard.contains(*w)).count();
    assert!(heard.contains("modell") && found >= 2, "{seen}");
}

/// Opa's telephone is Linphone's console client (Debian's `linphone-cli`), registered with the router as
/// `615`: it calls the assistant, asks its question from a file, puts the call on hold, resumes it and hangs
/// up. The output is what the gateway stored and logged and what Linphone said of its call.
const LINPHONE: &str = r#"
opa=$(api POST /api/admin/users '{"name": "opa", "display_name": "Opa"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
api PUT "/api/admin/users/$opa/prefs" '{"caller_numbers": ["615"]}' > /dev/null
mkdir -p "$DATA/linphone"
: > "$DATA/linphone/rc"
{
  # Its SIP port is set by command (linphonec reads no port from an empty configuration: none at all).
  echo "soundcard use files"; echo "ports sip 5094"; sleep 1
  echo "register sip:615@10.77.0.1 sip:10.77.0.1 linphone-secret"; sleep 3
  echo "call sip:assistant@10.77.0.1"; sleep 2
  echo "play $Q8"; sleep 20
  echo "pause"; sleep 4
  echo "resume"; sleep 4
  echo "terminate"; sleep 2
  echo "quit"
} | HOME="$DATA/linphone" linphonec -c "$DATA/linphone/rc" > "$DATA/linphone.log" 2>&1
python3 - <<'PY'
import json, os, sqlite3
data = os.environ["DATA"]
db = sqlite3.connect(f"{data}/gateway.db")
rows = db.execute("select u.name, m.role, m.text from messages m join users u on u.id = m.user_id order by m.rowid")
log = open(f"{data}/gateway.log").read()
print(json.dumps({
    "messages": [list(r) for r in rows],
    "calls": [line.split('codec="')[1].split('"')[0] for line in log.splitlines() if "a SIP call" in line and "codec=" in line],
    "changed": [line.split("direction=")[1].split()[0] for line in log.splitlines() if "audio changed" in line],
    "linphone": open(f"{data}/linphone.log", errors="replace").read()[-4000:],
}))
PY
"#;

#[tokio::test]
#[ignore = "needs kamailio, linphone-cli, a user network namespace and the engines; scripts/test.sh runs it"]
async fn a_linphone_caller_is_answered_held_and_resumed() {
    let data = tempfile::tempdir().unwrap();
    let accounts = [("assistant", "line-secret"), ("615", "linphone-secret")];
    let question = question_wav(data.path());
    let env = [("Q8", question.1.as_str())];
    let seen = in_the_house(data.path(), &accounts, LINPHONE, &env).await;

    // Linphone's call reached the assistant, which answered Opa's question.
    assert_eq!(seen["calls"].as_array().map(Vec::len), Some(1), "{seen}");
    let messages = seen["messages"].as_array().unwrap();
    assert!(
        messages
            .iter()
            .any(|m| m[0] == "opa" && m[1] == "user" && m[2].as_str().unwrap().to_lowercase().contains("capital")),
        "{seen}"
    );
    // Its hold went to the gateway as an offer to only send (or nothing), its resume as both ways again.
    let changed: Vec<&str> = seen["changed"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c.as_str())
        .collect();
    assert!(matches!(changed.first(), Some(&"SendOnly" | &"Inactive")), "{seen}");
    assert_eq!(changed.last(), Some(&"SendRecv"), "{seen}");
    // Linphone saw its call held by the gateway's answer, and its audio set up again on resuming.
    let linphone = seen["linphone"].as_str().unwrap().to_lowercase();
    assert!(
        linphone.contains("is now paused") && linphone.contains("resuming call"),
        "{seen}"
    );
    assert_eq!(linphone.matches("media streams established").count(), 2, "{seen}");
}

/// Opa calls the assistant from Linphone's console client (`615`), and once the greeting has begun types the help
/// key 0 and, after the question and its keys, 1 (Linphone sends both as RFC 4733 events). His contact is the
/// neighbour's `616`, whom the house line then calls (nobody answers there in this test). The output is what the
/// store and the gateway's log saw.
const LINPHONE_HELP_KEY: &str = r#"
opa=$(api POST /api/admin/users '{"name": "opa", "display_name": "Opa"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
api PUT "/api/admin/users/$opa/prefs" '{"caller_numbers": ["615"], "emergency_contact_phones": ["616"], "language": "de"}' > /dev/null
mkdir -p "$DATA/linphone/.local/share/linphone"
: > "$DATA/linphone/rc"
{
  echo "soundcard use files"; echo "ports sip 5094"; sleep 1
  echo "register sip:615@10.77.0.1 sip:10.77.0.1 linphone-secret"; sleep 3
  echo "call sip:assistant@10.77.0.1"
  for _ in $(seq 300); do grep -qa "Media streams established" "$DATA/linphone.log" && break; sleep 0.1; done
  sleep 2; echo "0"
  for _ in $(seq 300); do grep -q "the help key was pressed on a call" "$DATA/gateway.log" && break; sleep 0.1; done
  sleep 8; echo "1"
  for _ in $(seq 300); do grep -q "help on a call" "$DATA/gateway.log" && break; sleep 0.1; done
  sleep 1; echo "terminate"; sleep 1
  echo "quit"
} | HOME="$DATA/linphone" linphonec -c "$DATA/linphone/rc" > "$DATA/linphone.log" 2>&1
python3 - <<'PY'
import json, os, sqlite3
data = os.environ["DATA"]
db = sqlite3.connect(f"{data}/gateway.db")
log = open(f"{data}/gateway.log").read()
print(json.dumps({
    "alarms": [json.loads(r[0]) for r in db.execute("select press from emergency_alarms")],
    "asked": "the help key was pressed on a call" in log,
    "log": log[-3000:],
}))
PY
"#;

#[tokio::test]
#[ignore = "needs kamailio, linphone-cli, a user network namespace and the engines; scripts/test.sh runs it"]
async fn a_linphone_caller_reaches_the_help_question_with_the_key_0_and_its_1_raises_the_alarm() {
    let data = tempfile::tempdir().unwrap();
    let accounts = [
        ("assistant", "line-secret"),
        ("615", "linphone-secret"),
        ("616", "neighbour-secret"),
    ];
    let seen = in_the_house(data.path(), &accounts, LINPHONE_HELP_KEY, &[]).await;

    assert_eq!(seen["asked"], true, "the key started the help question: {seen}");
    let alarms = seen["alarms"].as_array().unwrap();
    assert_eq!(alarms.len(), 1, "the 1 raised one alarm: {seen}");
    assert_eq!(
        (&alarms[0]["way"], &alarms[0]["platform"]),
        (&serde_json::json!("key"), &serde_json::json!("telephone")),
        "{seen}"
    );
}

/// Runs `script` after [`ROUTER_AND_GATEWAY`] in a network namespace of its own, in `data`, with a kamailio that
/// knows `accounts`, the gateway with the real engines, and `env`; answers the JSON the script printed (the
/// gateway's log is in the failure's message).
pub async fn in_the_house(data: &Path, accounts: &[(&str, &str)], script: &str, env: &[(&str, &str)]) -> Value {
    let config = kamailio_config("10.77.0.1:5060", accounts, 3600);
    std::fs::write(data.join("kamailio.cfg"), config).unwrap();
    let out = in_namespace(&format!("{ROUTER_AND_GATEWAY}{script}"))
        .current_dir(data)
        .env("GATEWAY", BIN)
        .env("DATA", data)
        .env("ENGINES_DIR", concat!(env!("CARGO_MANIFEST_DIR"), "/target/engines"))
        .env("WYOMING_ZEROCONF", "false")
        .env("LLM_TEMPERATURE", "0")
        .env("MEMORY_EXTRACTION_ENABLED", "false")
        .env("WEB_SEARCH_ENABLED", "false")
        .envs(env.iter().copied())
        .output()
        .await
        .expect("unshare runs");
    let log = || std::fs::read_to_string(data.join("gateway.log")).unwrap_or_default();
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        log()
    );
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", String::from_utf8_lossy(&out.stdout), log()))
}

/// "What is the capital of France?" in espeak-ng's voice, after 6 s (the greeting) and followed by 45 s of
/// silence (the handset hangs up at its file's end), at 16 kHz and at 8 kHz: the paths of both files.
fn question_wav(dir: &std::path::Path) -> (String, String) {
    spoken_wav(dir, "question", &[(6.0, "What is the capital of France?")], 45.0)
}

/// Speech in espeak-ng's voice, each text starting `at` seconds after the previous one ended (the first
/// after the start), followed by `tail` seconds of silence, at 16 kHz and at 8 kHz: the paths of both files.
pub fn spoken_wav(dir: &std::path::Path, name: &str, texts: &[(f64, &str)], tail: f64) -> (String, String) {
    spoken_wav_in(dir, name, "en", texts, tail)
}

/// [`spoken_wav`] in espeak-ng's `voice`.
fn spoken_wav_in(dir: &std::path::Path, name: &str, voice: &str, texts: &[(f64, &str)], tail: f64) -> (String, String) {
    let mut samples = Vec::new();
    let mut rate = 22_050;
    for (i, (at, text)) in texts.iter().enumerate() {
        let spoken = dir.join(format!("{name}-{i}.wav"));
        let ok = std::process::Command::new("espeak-ng")
            .args(["-v", voice, "-w", spoken.to_str().unwrap(), text])
            .status()
            .expect("espeak-ng (scripts/test.sh installs it)");
        assert!(ok.success());
        let speech = to_mono(parse_wav(&std::fs::read(&spoken).unwrap()).unwrap());
        rate = speech.sample_rate;
        samples.extend(vec![0i16; (f64::from(rate) * at) as usize]);
        samples.extend(&speech.samples);
    }
    samples.extend(vec![0i16; (f64::from(rate) * tail) as usize]);
    let padded = Pcm {
        sample_rate: rate,
        samples,
        channels: 1,
    };
    let [wide, narrow] = [16_000, 8_000].map(|to| {
        let path = dir.join(format!("{name}-{to}.wav"));
        std::fs::write(&path, padded.resampled(to).to_wav()).unwrap();
        path.to_string_lossy().into_owned()
    });
    (wide, narrow)
}
