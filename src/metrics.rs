//! What happened since start, kept in memory for `/api/metrics`: counters, gauges and latency histograms,
//! each a series of a name and labels, rendered as JSON or in the Prometheus text exposition format.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;

use serde::Serialize;

/// Series `http_requests_total`.
pub const HTTP_REQUESTS_TOTAL: &str = "http_requests_total";
/// Series `http_request_duration_seconds`.
pub const HTTP_REQUEST_DURATION_SECONDS: &str = "http_request_duration_seconds";
/// Series `stage_duration_seconds`.
pub const STAGE_DURATION_SECONDS: &str = "stage_duration_seconds";
/// Series `voice_stage_seconds`.
pub const VOICE_STAGE_SECONDS: &str = "voice_stage_seconds";
/// Series `llm_preemptive_total`: answers started before the end of the turn (`outcome` `started`, `used`).
pub const LLM_PREEMPTIVE_TOTAL: &str = "llm_preemptive_total";
/// Series `answers_cut_total`: answers the gateway ended early, by `why` (`length`, `repetition`).
pub const ANSWERS_CUT_TOTAL: &str = "answers_cut_total";
/// Series `connections_refused_total`: connections closed at once because their door was full, by `door`.
pub const CONNECTIONS_REFUSED_TOTAL: &str = "connections_refused_total";
/// Series `provider_state`: each provider's circuit breaker, 0 closed, 1 half open, 2 open.
pub const PROVIDER_STATE: &str = "provider_state";
/// Series `provider_calls_total`: each provider's calls by `outcome` (`ok`, `failed`, `skipped` while open).
pub const PROVIDER_CALLS_TOTAL: &str = "provider_calls_total";
/// Series `help_check_failures_total`: failed checks of the help path, by `check` (`mail`, `twilio`, `webhook`).
pub const HELP_CHECK_FAILURES_TOTAL: &str = "help_check_failures_total";
/// Series `phone_calls_total`: each call once, by `line` (`sip`, `twilio`, `audiosocket`), `outcome`
/// (`refused`, `failed`, `hung_up`, `ended`) and `reason` (`busy`, `voice_limit`, `caller`, `goodbye`, …).
pub const PHONE_CALLS_TOTAL: &str = "phone_calls_total";
/// Series `fallback_total`.
pub const FALLBACK_TOTAL: &str = "fallback_total";
/// Series `provider_errors_total`.
pub const PROVIDER_ERRORS_TOTAL: &str = "provider_errors_total";
/// Series `tts_language_fallback_total`.
pub const TTS_LANGUAGE_FALLBACK_TOTAL: &str = "tts_language_fallback_total";
/// Series `quota_rejections_total`.
pub const QUOTA_REJECTIONS_TOTAL: &str = "quota_rejections_total";
/// Series `emergency_total`.
pub const EMERGENCY_TOTAL: &str = "emergency_total";
/// Series `emergency_cooldowns_ended_total`.
pub const EMERGENCY_COOLDOWNS_ENDED_TOTAL: &str = "emergency_cooldowns_ended_total";
/// Series `emergency_acknowledgements_total`.
pub const EMERGENCY_ACKNOWLEDGEMENTS_TOTAL: &str = "emergency_acknowledgements_total";
/// Series `emergency_escalations_total`.
pub const EMERGENCY_ESCALATIONS_TOTAL: &str = "emergency_escalations_total";
/// Series `gateway_info`: 1, labelled with the instance and the version.
pub const GATEWAY_INFO: &str = "gateway_info";
/// Series `voice_continuations_total`: speech after a pause joined to the question it continued, by `channel`.
pub const VOICE_CONTINUATIONS_TOTAL: &str = "voice_continuations_total";
/// Series `turn_checks_total`: Smart Turn's checks of a pause, by `outcome`: `started` (each asked), `complete`,
/// `incomplete`, `failed` (each verdict taken); started but never taken were dropped when speech went on.
pub const TURN_CHECKS_TOTAL: &str = "turn_checks_total";
/// Series `sip_calls_ended_total`: SIP calls the gateway ended because the other side was gone, by `reason`
/// (`no_audio`: no RTP for `RTP_TIMEOUT_SECONDS`; `no_ack`: its 200 never acknowledged; `session_expired`: a
/// session timer ran out unrefreshed).
pub const SIP_CALLS_ENDED_TOTAL: &str = "sip_calls_ended_total";
/// Counter `sip_connections_refused_total{why}`: allowed addresses' TCP connections to the SIP door refused
/// their place (`address`: beyond the address's share; `door`: the door's places taken).
pub const SIP_CONNECTIONS_REFUSED_TOTAL: &str = "sip_connections_refused_total";
/// Counter `auth_failures_total{kind}`: credentials that matched nothing, by kind (admin_key, bearer, cookie,
/// link, ack, care).
pub const AUTH_FAILURES_TOTAL: &str = "auth_failures_total";
/// Counter `auth_blocked_total`: waits an address was made to start for failing too often.
pub const AUTH_BLOCKED_TOTAL: &str = "auth_blocked_total";
/// Series `turn_check_probability`: what Smart Turn said of each pause's turn being complete (its sum over its
/// count is their mean).
pub const TURN_CHECK_PROBABILITY: &str = "turn_check_probability";
/// Counter `purged_rows_total{kind}`: rows the retention purge deleted, by kind of data.
pub const PURGED_ROWS_TOTAL: &str = "purged_rows_total";
/// Counter `task_failures_total{door}`: call and connection tasks that failed (a panic), each ending its call
/// as a hang-up would.
pub const TASK_FAILURES_TOTAL: &str = "task_failures_total";
/// Series `voice_turn_patience_seconds`: the patience in use at the end of each answered utterance.
pub const VOICE_TURN_PATIENCE_SECONDS: &str = "voice_turn_patience_seconds";
/// Series `ws_connections`.
pub const WS_CONNECTIONS: &str = "ws_connections";
/// Series `reminders_total`: reminders and timers by `event` (set, delivered, unreachable, confirmed, missed) and
/// `channel` (a confirmation on the person's behalf: `carer` or `admin`).
pub const REMINDERS_TOTAL: &str = "reminders_total";
/// Series `checkins_total`: daily check-ins by `event` (ok, away, asked, missed, held).
pub const CHECKINS_TOTAL: &str = "checkins_total";

/// Upper bounds (seconds) of the latency histograms' buckets.
pub const BUCKETS: [f64; 17] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// Help texts of the series the gateway records.
const HELP: &[(&str, &str)] = &[
    (
        REMINDERS_TOTAL,
        "Reminders and timers by event (set, delivered, unreachable, confirmed, missed) and channel.",
    ),
    (
        CHECKINS_TOTAL,
        "Daily check-ins by event (ok, away, asked, missed, held).",
    ),
    (
        HTTP_REQUESTS_TOTAL,
        "HTTP requests by method, route template and status.",
    ),
    (
        HTTP_REQUEST_DURATION_SECONDS,
        "HTTP request latency by method and route template.",
    ),
    (STAGE_DURATION_SECONDS, "Time spent in a turn's stage (stt, llm, tts)."),
    (
        VOICE_STAGE_SECONDS,
        "Where a voice turn's wait goes, by stage (end_of_turn, transcription, first_token, first_sentence, \
         first_audio; total = the last speech to the first audio), channel and provider.",
    ),
    (
        FALLBACK_TOTAL,
        "Provider fallbacks by stage and the provider that failed.",
    ),
    (PROVIDER_ERRORS_TOTAL, "Provider failures by stage and provider."),
    (
        PROVIDER_CALLS_TOTAL,
        "Provider calls by stage, provider and outcome (ok, failed, skipped while its circuit breaker is open).",
    ),
    (
        PROVIDER_STATE,
        "Each provider's circuit breaker on this instance: 0 closed, 1 half open (probing), 2 open.",
    ),
    (
        HELP_CHECK_FAILURES_TOTAL,
        "Failed checks of the help function's channels (mail, twilio, webhook), which send nothing.",
    ),
    (
        LLM_PREEMPTIVE_TOTAL,
        "Answers started before the end of the turn (started) and taken by their turn (used).",
    ),
    (
        SIP_CONNECTIONS_REFUSED_TOTAL,
        "SIP TCP connections of allowed addresses refused their place: beyond the address's share (address) or the door's places taken (door).",
    ),
    (
        CONNECTIONS_REFUSED_TOTAL,
        "Connections closed at once because their door (wyoming, audiosocket) had all its places taken.",
    ),
    (
        ANSWERS_CUT_TOTAL,
        "Answers the gateway ended at a sentence's end with a closing: too long (length) or repeating itself (repetition).",
    ),
    (
        TTS_LANGUAGE_FALLBACK_TOTAL,
        "Turns spoken by the local voice because the chosen TTS lacks the language.",
    ),
    (
        QUOTA_REJECTIONS_TOTAL,
        "Requests refused because the daily quota was used up.",
    ),
    (EMERGENCY_TOTAL, "Alarms raised by the help function."),
    (
        VOICE_CONTINUATIONS_TOTAL,
        "Speech after a pause joined to the question it continued (the answer to the half was cancelled), by channel.",
    ),
    (
        TURN_CHECKS_TOTAL,
        "Smart Turn's checks of a pause: started, and the verdicts taken (complete, incomplete, failed).",
    ),
    (
        PURGED_ROWS_TOTAL,
        "Rows the retention purge deleted because they were older than their kind's RETENTION_*_DAYS, by kind.",
    ),
    (
        AUTH_FAILURES_TOTAL,
        "Credentials that matched nothing (admin key, bearer token, cookie, personal link, acknowledgement and care links), by kind.",
    ),
    (
        AUTH_BLOCKED_TOTAL,
        "Waits started by an address that failed too many credentials in a minute (then answered 429).",
    ),
    (
        TASK_FAILURES_TOTAL,
        "Call and connection tasks that failed, each ending its call as a hang-up would, by door.",
    ),
    (
        SIP_CALLS_ENDED_TOTAL,
        "SIP calls the gateway ended because the other side was gone (no audio, no ACK, session expired), by reason.",
    ),
    (
        VOICE_TURN_PATIENCE_SECONDS,
        "The pause after which a speaker's turn is first judged over (their patience), at each utterance's end.",
    ),
    (
        TURN_CHECK_PROBABILITY,
        "What Smart Turn said of each pause's turn being complete (0 to 1; the buckets are the latency ones).",
    ),
    (
        EMERGENCY_COOLDOWNS_ENDED_TOTAL,
        "Help cooldown windows an operator ended early, so that the next press sends at once.",
    ),
    (
        EMERGENCY_ACKNOWLEDGEMENTS_TOTAL,
        "Contacts who confirmed having seen an alarm (link or call).",
    ),
    (
        EMERGENCY_ESCALATIONS_TOTAL,
        "Reminders sent because nobody confirmed an alarm in time.",
    ),
    (
        PHONE_CALLS_TOTAL,
        "Phone calls, each once, by line, outcome (refused, failed, hung_up, ended) and its reason.",
    ),
    (WS_CONNECTIONS, "Open WebSocket connections by channel."),
    (
        GATEWAY_INFO,
        "This instance of the gateway (the metrics are per instance) and its version.",
    ),
];

/// Counters without labels, exported with 0 from the start so that an alert rule sees them before the first
/// event (a labelled counter has no series until its labels are known).
const UNLABELLED_COUNTERS: &[&str] = &[
    QUOTA_REJECTIONS_TOTAL,
    EMERGENCY_TOTAL,
    EMERGENCY_COOLDOWNS_ENDED_TOTAL,
    EMERGENCY_ACKNOWLEDGEMENTS_TOTAL,
    EMERGENCY_ESCALATIONS_TOTAL,
];

/// A latency histogram.
#[derive(Debug, Clone, Default)]
struct Histogram {
    /// Observations at or below each bound of [`BUCKETS`] (not cumulative).
    buckets: [u64; BUCKETS.len()],
    sum: f64,
    count: u64,
}

type Series = (String, String);

#[derive(Debug, Default)]
struct Inner {
    counters: BTreeMap<Series, u64>,
    gauges: BTreeMap<Series, i64>,
    histograms: BTreeMap<Series, Histogram>,
}

/// The metrics at one moment, as `/api/metrics` shows them in JSON; series are named `name{label="value"}`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = MetricsSnapshot)]
pub struct Snapshot {
    /// Counters by series.
    pub counters: BTreeMap<String, u64>,
    /// Gauges by series.
    pub gauges: BTreeMap<String, i64>,
    /// Latency histograms by series.
    pub histograms: BTreeMap<String, HistogramView>,
}

/// A latency histogram in the snapshot.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct HistogramView {
    /// Observations.
    pub count: u64,
    /// Their sum, in seconds.
    pub sum: f64,
    /// Their mean, in seconds (0 without observations).
    pub mean: f64,
    /// Observations at or below each bound (seconds), cumulative.
    pub buckets: BTreeMap<String, u64>,
}

/// The gateway's metrics.
#[derive(Debug)]
pub struct Metrics {
    inner: Mutex<Inner>,
}

impl Default for Metrics {
    fn default() -> Self {
        let mut inner = Inner::default();
        for name in UNLABELLED_COUNTERS {
            inner.counters.insert((name.to_string(), String::new()), 0);
        }
        Self {
            inner: Mutex::new(inner),
        }
    }
}

/// `k="v",…` with the exposition format's escaping.
fn labels(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| {
            let v = v.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n");
            format!("{k}=\"{v}\"")
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn series_name(name: &str, labels: &str) -> String {
    if labels.is_empty() {
        name.to_string()
    } else {
        format!("{name}{{{labels}}}")
    }
}

impl Metrics {
    fn with<R>(&self, f: impl FnOnce(&mut Inner) -> R) -> Option<R> {
        self.inner.lock().ok().map(|mut inner| f(&mut inner))
    }

    /// Adds one to a counter.
    pub fn incr(&self, name: &str, pairs: &[(&str, &str)]) {
        self.add(name, pairs, 1);
    }

    /// Adds `n` to a counter.
    pub fn add(&self, name: &str, pairs: &[(&str, &str)], n: u64) {
        let key = (name.to_string(), labels(pairs));
        self.with(|m| *m.counters.entry(key).or_default() += n);
    }

    /// Moves a gauge up or down.
    pub fn gauge_add(&self, name: &str, pairs: &[(&str, &str)], delta: i64) {
        let key = (name.to_string(), labels(pairs));
        self.with(|m| *m.gauges.entry(key).or_default() += delta);
    }

    /// Sets a gauge.
    pub fn gauge_set(&self, name: &str, pairs: &[(&str, &str)], value: i64) {
        let key = (name.to_string(), labels(pairs));
        self.with(|m| *m.gauges.entry(key).or_default() = value);
    }

    /// Records a duration in seconds.
    pub fn observe(&self, name: &str, pairs: &[(&str, &str)], seconds: f64) {
        let key = (name.to_string(), labels(pairs));
        self.with(|m| {
            let h = m.histograms.entry(key).or_default();
            if let Some(i) = BUCKETS.iter().position(|b| seconds <= *b) {
                h.buckets[i] += 1;
            }
            h.sum += seconds;
            h.count += 1;
        });
    }

    /// A counter's value by its series name (`name{k="v"}`), 0 when it never counted.
    pub fn get(&self, series: &str) -> u64 {
        self.with(|m| {
            m.counters
                .iter()
                .find(|((n, l), _)| series_name(n, l) == series)
                .map_or(0, |(_, v)| *v)
        })
        .unwrap_or(0)
    }

    /// Everything at this moment, for JSON: counters and gauges by series name, histograms with count, sum
    /// and buckets; `None` when the metrics are unreadable (a panic while recording).
    pub fn snapshot(&self) -> Option<Snapshot> {
        self.with(|m| {
            let histograms = m.histograms.iter().map(|((n, l), h)| {
                let mut cumulative = 0;
                let buckets = BUCKETS
                    .iter()
                    .zip(h.buckets)
                    .map(|(bound, count)| {
                        cumulative += count;
                        (bound.to_string(), cumulative)
                    })
                    .collect();
                let mean = if h.count == 0 { 0.0 } else { h.sum / h.count as f64 };
                let view = HistogramView {
                    count: h.count,
                    sum: h.sum,
                    mean,
                    buckets,
                };
                (series_name(n, l), view)
            });
            Snapshot {
                counters: m.counters.iter().map(|((n, l), v)| (series_name(n, l), *v)).collect(),
                gauges: m.gauges.iter().map(|((n, l), v)| (series_name(n, l), *v)).collect(),
                histograms: histograms.collect(),
            }
        })
    }

    /// The Prometheus text exposition format (version 0.0.4).
    pub fn to_prometheus(&self) -> String {
        self.with(|m| {
            let mut out = String::new();
            let mut names: Vec<(&str, &str)> = Vec::new();
            for (n, _) in m.counters.keys() {
                names.push((n, "counter"));
            }
            for (n, _) in m.gauges.keys() {
                names.push((n, "gauge"));
            }
            for (n, _) in m.histograms.keys() {
                names.push((n, "histogram"));
            }
            names.dedup();
            let mut done = std::collections::HashSet::new();
            for (name, kind) in names {
                if !done.insert(name) {
                    continue;
                }
                let help = HELP
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map_or("Gateway metric.", |(_, h)| h);
                let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
                match kind {
                    "counter" => {
                        for ((_, l), v) in m.counters.iter().filter(|((n, _), _)| n == name) {
                            let _ = writeln!(out, "{} {v}", series_name(name, l));
                        }
                    }
                    "gauge" => {
                        for ((_, l), v) in m.gauges.iter().filter(|((n, _), _)| n == name) {
                            let _ = writeln!(out, "{} {v}", series_name(name, l));
                        }
                    }
                    _ => {
                        for ((_, l), h) in m.histograms.iter().filter(|((n, _), _)| n == name) {
                            let sep = if l.is_empty() { "" } else { "," };
                            let mut cumulative = 0;
                            for (bound, count) in BUCKETS.iter().zip(h.buckets) {
                                cumulative += count;
                                let _ = writeln!(out, "{name}_bucket{{{l}{sep}le=\"{bound}\"}} {cumulative}");
                            }
                            let _ = writeln!(out, "{name}_bucket{{{l}{sep}le=\"+Inf\"}} {}", h.count);
                            let _ = writeln!(out, "{} {}", series_name(&format!("{name}_sum"), l), h.sum);
                            let _ = writeln!(out, "{} {}", series_name(&format!("{name}_count"), l), h.count);
                        }
                    }
                }
            }
            out
        })
        .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_are_named_with_their_labels() {
        let m = Metrics::default();
        m.incr("fallback_total", &[("stage", "llm"), ("from", "cloud")]);
        m.incr("fallback_total", &[("stage", "llm"), ("from", "cloud")]);
        m.incr("quota_rejections_total", &[]);
        assert_eq!(m.get("fallback_total{stage=\"llm\",from=\"cloud\"}"), 2);
        assert_eq!(m.get("quota_rejections_total"), 1);
    }

    #[test]
    fn histograms_are_cumulative_in_the_exposition() {
        let m = Metrics::default();
        m.observe("stage_duration_seconds", &[("stage", "tts")], 0.02);
        m.observe("stage_duration_seconds", &[("stage", "tts")], 3.0);
        m.observe("stage_duration_seconds", &[("stage", "tts")], 99.0);
        let text = m.to_prometheus();
        assert!(text.contains("# TYPE stage_duration_seconds histogram"));
        assert!(text.contains("stage_duration_seconds_bucket{stage=\"tts\",le=\"0.025\"} 1"));
        assert!(text.contains("stage_duration_seconds_bucket{stage=\"tts\",le=\"5\"} 2"));
        assert!(text.contains("stage_duration_seconds_bucket{stage=\"tts\",le=\"+Inf\"} 3"));
        assert!(text.contains("stage_duration_seconds_count{stage=\"tts\"} 3"));
        m.gauge_add("ws_connections", &[("channel", "chat")], 1);
        assert!(m.to_prometheus().contains("ws_connections{channel=\"chat\"} 1"));
        assert_eq!(
            serde_json::to_value(m.snapshot()).unwrap()["histograms"]["stage_duration_seconds{stage=\"tts\"}"]["count"],
            3
        );
    }

    #[test]
    fn unlabelled_counters_exist_with_zero_from_the_start() {
        let text = Metrics::default().to_prometheus();
        for name in UNLABELLED_COUNTERS {
            assert!(
                text.contains(&format!("# TYPE {name} counter\n{name} 0\n")),
                "{name}:\n{text}"
            );
        }
    }

    #[test]
    fn label_values_are_escaped() {
        assert_eq!(labels(&[("route", "a\"b\\c")]), "route=\"a\\\"b\\\\c\"");
    }
}
