//! Alarm calls over the house's telephone: Oma calls the assistant from her handset and calls for help. The
//! gateway calls her contacts through the router. The neighbour's telephone `613` answers by itself and
//! presses 1 (an RFC 4733 event), the daughter's `614` rejects the call, and the son's `615` rings and rings:
//! nobody is there. Oma is told that help is on the way as soon as the neighbour picked up, not once the son's
//! telephone gave up ringing. The setup is the calls test's:
//! kamailio, baresip and the real engines in a network namespace of the test's own.
//!
//! Ignored by a plain `cargo test`; `scripts/test.sh` runs it.

use crate::sip_calls::{in_the_house, spoken_wav};

/// The contacts wait for calls (each with a console to press keys and hang up by); Oma calls. The output is
/// what the store and the telephones saw.
const SCRIPT: &str = r#"
phone_config neighbour "g722 g711" "$SILENCE" 5555
echo "<sip:613@10.77.0.1:5060>;auth_pass=neighbour-secret;answermode=auto" > "$DATA/neighbour/accounts"
baresip -f "$DATA/neighbour" -t 150 > "$DATA/neighbour.log" 2>&1 &
neighbour=$!
phone_config daughter "g711" "$SILENCE" 5556
echo "<sip:614@10.77.0.1:5060>;auth_pass=daughter-secret" > "$DATA/daughter/accounts"
baresip -f "$DATA/daughter" -t 150 > "$DATA/daughter.log" 2>&1 &
daughter=$!
phone_config son "g711" "$SILENCE" 0
echo "<sip:615@10.77.0.1:5060>;auth_pass=son-secret" > "$DATA/son/accounts"
baresip -f "$DATA/son" -t 150 > "$DATA/son.log" 2>&1 &
son=$!
for _ in $(seq 100); do
  grep -qa "200 OK" "$DATA/neighbour.log" && grep -qa "200 OK" "$DATA/daughter.log" && grep -qa "200 OK" "$DATA/son.log" && break
  sleep 0.1
done
oma=$(api POST /api/admin/users '{"name": "oma", "display_name": "Oma"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
api PUT "/api/admin/users/$oma/prefs" '{"caller_numbers": ["611"], "full_name": "Erna Schmidt", "emergency_contact_phones": ["613", "614", "615"]}' > /dev/null
# The neighbour presses 1 once the alarm's words reach them; the daughter rejects the call when it rings.
(
  for _ in $(seq 1200); do grep -qa "incoming rtp for 'audio' established" "$DATA/neighbour.log" && break; sleep 0.1; done
  sleep 2; echo "/sndcode 1" > /dev/udp/10.77.0.2/5555
) &
(
  for _ in $(seq 1200); do grep -qa "Incoming call" "$DATA/daughter.log" && break; sleep 0.1; done
  echo "/hangup" > /dev/udp/10.77.0.2/5556
) &
handset oma "g722 g711" "$HELP" "<sip:611@10.77.0.1:5060>;auth_pass=oma-secret" "sip:assistant@10.77.0.1:5060"
for _ in $(seq 300); do grep -qa "terminated" "$DATA/neighbour.log" && break; sleep 0.1; done
# The son's telephone stops ringing when the gateway gives up (its CANCEL); then every delivery is recorded.
for _ in $(seq 300); do grep -qaE "terminated|cancel" "$DATA/son.log" && break; sleep 0.1; done
sleep 1
kill $neighbour $daughter $son 2>/dev/null; wait $neighbour $daughter $son 2>/dev/null
HEARD_OMA=$(heard oma) HEARD_NEIGHBOUR=$(heard neighbour) python3 - <<'PY'
import json, os, sqlite3
db = sqlite3.connect(f"{os.environ['DATA']}/gateway.db")
print(json.dumps({
    "deliveries": [list(r) for r in db.execute("select channel, recipient, state, error from emergency_deliveries order by recipient")],
    "acks": [list(r) for r in db.execute("select contact, via from emergency_acks where acknowledged_at is not null")],
    "heard": {"oma": os.environ["HEARD_OMA"], "neighbour": os.environ["HEARD_NEIGHBOUR"]},
}))
PY
"#;

#[tokio::test]
#[ignore = "needs kamailio, baresip, a user network namespace and the engines; scripts/test.sh runs it"]
async fn a_call_for_help_on_the_house_line_rings_the_contacts_and_a_1_confirms_the_alarm() {
    let data = tempfile::tempdir().unwrap();
    let accounts = [
        ("assistant", "line-secret"),
        ("611", "oma-secret"),
        ("613", "neighbour-secret"),
        ("614", "daughter-secret"),
        ("615", "son-secret"),
    ];
    // Oma, after the greeting: a call for help, then (after the question) her yes, then silence while the
    // gateway tells her what it did and who confirmed it.
    let help = spoken_wav(
        data.path(),
        "help",
        &[(6.0, "I have fallen and I can't get up."), (9.0, "Yes, please.")],
        40.0,
    );
    let silence = spoken_wav(data.path(), "silence", &[], 120.0);
    let env = [
        ("HELP", help.0.as_str()),
        ("SILENCE", silence.0.as_str()),
        ("EMERGENCY_CHANNEL_TIMEOUT_SECONDS", "20"),
        ("EMERGENCY_ESCALATION_MINUTES", "0"),
    ];
    let seen = in_the_house(data.path(), &accounts, SCRIPT, &env).await;

    // The neighbour picked up: delivered, and their 1 confirmed the alarm as Twilio's keypress does.
    // The daughter rejected the call: her delivery failed, saying so.
    let deliveries = seen["deliveries"].as_array().unwrap();
    assert_eq!(deliveries.len(), 3, "{seen}");
    assert_eq!(
        deliveries[0].as_array().unwrap()[..3],
        ["call", "613", "delivered"],
        "{seen}"
    );
    assert_eq!(
        deliveries[1].as_array().unwrap()[..3],
        ["call", "614", "failed"],
        "{seen}"
    );
    let why = deliveries[1][3].as_str().unwrap_or_default();
    assert!(why.starts_with("house line: busy (486"), "{seen}");
    // The son never picked up: the call was cancelled after the channel's 20 s and recorded as failed.
    assert_eq!(
        deliveries[2].as_array().unwrap()[..4],
        ["call", "615", "failed", "house line: no answer within 20 s"],
        "{seen}"
    );
    assert_eq!(seen["acks"], serde_json::json!([["613", "call"]]), "{seen}");
    // The neighbour heard the alarm (cut short by their 1) and the thanks, in the person's (English) voice
    // (under CI's load Whisper once dropped the thanks' first words, "Thank you.", and kept the rest).
    let neighbour = seen["heard"]["neighbour"].as_str().unwrap_or_default().to_lowercase();
    let thanked = neighbour.contains("thank") || neighbour.contains("seen the alarm");
    assert!(neighbour.contains("emergency") && thanked, "{seen}");
    // Oma was asked, heard that help is on the way, and that it was confirmed ("Seen and confirmed by 613";
    // who confirmed is asserted in the store above: the recognizer hears the number as "630" as often as not).
    let oma = seen["heard"]["oma"].as_str().unwrap_or_default().to_lowercase();
    assert!(
        oma.contains("alert") && oma.contains("on the way") && oma.contains("confirm"),
        "{seen}"
    );
}

/// The neighbour's telephone is Linphone's console client (Debian's `linphone-cli`), registered with the router
/// as `616` and answering by itself; its person types 1 once the alarm's words reach them (Linphone sends it as
/// an RFC 4733 event). Oma calls from her handset as above. The output is what the store and Linphone saw.
const LINPHONE_CONTACT: &str = r#"
# linphonec's core stays off (no registration, every call 503) unless the folder of its database exists.
mkdir -p "$DATA/linphone/.local/share/linphone"
: > "$DATA/linphone/rc"
{
  echo "soundcard use files"; echo "ports sip 5094"; echo "autoanswer enable"; sleep 1
  echo "register sip:616@10.77.0.1 sip:10.77.0.1 neighbour-secret"
  for _ in $(seq 1500); do grep -qa "Media streams established" "$DATA/linphone.log" && break; sleep 0.1; done
  sleep 3; echo "1"
  for _ in $(seq 600); do grep -qa "ended" "$DATA/linphone.log" && break; sleep 0.1; done
  echo "quit"
} | HOME="$DATA/linphone" linphonec -c "$DATA/linphone/rc" > "$DATA/linphone.log" 2>&1 &
linphone=$!
for _ in $(seq 100); do grep -qa "Registration on .* successful" "$DATA/linphone.log" && break; sleep 0.1; done
oma=$(api POST /api/admin/users '{"name": "oma", "display_name": "Oma"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
api PUT "/api/admin/users/$oma/prefs" '{"caller_numbers": ["611"], "emergency_contact_phones": ["616"]}' > /dev/null
handset oma "g722 g711" "$HELP" "<sip:611@10.77.0.1:5060>;auth_pass=oma-secret" "sip:assistant@10.77.0.1:5060"
wait $linphone 2>/dev/null
HEARD_OMA=$(heard oma) python3 - <<'PY'
import json, os, sqlite3
data = os.environ["DATA"]
db = sqlite3.connect(f"{data}/gateway.db")
print(json.dumps({
    "deliveries": [list(r) for r in db.execute("select channel, recipient, state, error from emergency_deliveries")],
    "acks": [list(r) for r in db.execute("select contact, via from emergency_acks where acknowledged_at is not null")],
    "oma": os.environ["HEARD_OMA"],
    "linphone": open(f"{data}/linphone.log", errors="replace").read()[-3000:],
}))
PY
"#;

#[tokio::test]
#[ignore = "needs kamailio, linphone-cli, baresip, a user network namespace and the engines; scripts/test.sh runs it"]
async fn a_linphone_contact_picks_up_the_alarm_call_and_its_1_confirms_the_alarm() {
    let data = tempfile::tempdir().unwrap();
    let accounts = [
        ("assistant", "line-secret"),
        ("611", "oma-secret"),
        ("616", "neighbour-secret"),
    ];
    let help = spoken_wav(
        data.path(),
        "help",
        &[(6.0, "I have fallen and I can't get up."), (9.0, "Yes, please.")],
        // Oma stays on the line a minute: under a full test run the neighbour's call and its 1 may take half.
        60.0,
    );
    let env = [("HELP", help.0.as_str()), ("EMERGENCY_ESCALATION_MINUTES", "0")];
    let seen = in_the_house(data.path(), &accounts, LINPHONE_CONTACT, &env).await;

    // Linphone answered the alarm call and its 1 reached the gateway as the neighbour's confirmation.
    let linphone = seen["linphone"].as_str().unwrap_or_default();
    assert!(linphone.contains("Media streams established"), "{seen}");
    assert_eq!(
        seen["deliveries"],
        serde_json::json!([["call", "616", "delivered", null]]),
        "{seen}"
    );
    assert_eq!(seen["acks"], serde_json::json!([["616", "call"]]), "{seen}");
    // Oma heard that help is on the way, then that it was confirmed.
    let oma = seen["oma"].as_str().unwrap_or_default().to_lowercase();
    assert!(oma.contains("on the way") && oma.contains("confirm"), "{seen}");
}
