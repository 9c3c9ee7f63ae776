//! Each person's pace: how long a pause may last before their turn is taken as over. A person who pauses
//! mid-sentence and goes on (a continuation joined to the question that was cut off,
//! [`crate::voice::conversation`])
//! teaches the gateway to wait longer for them; turns that end cleanly shorten the wait slowly back. The
//! patience learned is kept per user in the database ([`crate::store::pace`]), so it survives restarts and
//! follows the person to every channel and device; the prefs key `turn_patience` (`auto`, `quick`, `normal`,
//! `patient` or milliseconds) sets it by hand.
//!
//! The patience is the silence after which Smart Turn is first asked whether the turn is complete (never less
//! than `TURN_CHECK_MS`, never more than `TURN_MAX_SILENCE_MS`): a complete turn ends there, so a quick speaker
//! at the default waits no longer than before, and a slow one is not answered in the middle of a pause.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, Weak};

use crate::config::voice::VoiceSettings;
use crate::store::Store;
use crate::store::pace::Lengthen;

/// `normal`: a pause of most people between two phrases of one sentence.
pub const NORMAL_MS: u32 = 800;
/// `patient`: people who search for words.
pub const PATIENT_MS: u32 = 1600;
/// The longest patience the prefs may set (`turn_patience` in ms), honoured whatever `TURN_MAX_SILENCE_MS`
/// says: that bounds what is learned, not what a person asked for.
pub const SET_MAX_MS: u32 = 5000;
/// The longest a new connection waits for the stored pace before it hears its first audio (which waits in the
/// socket meanwhile, nothing lost). Long enough for a database under load: at 500 ms a loaded CI machine cut a
/// person who had set 4 s of patience at the default pause of their first question.
const READ_WAIT: std::time::Duration = std::time::Duration::from_secs(2);
/// A continuation lengthens the patience by this at least...
const STEP_MS: i64 = 200;
/// ... and to the pause it took plus this, so that the same pause is waited out next time.
const MARGIN_MS: i64 = 300;

/// The patience set in the prefs (`turn_patience`): none or `auto` is the learned one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    Auto,
    Fixed(u32),
}

impl Setting {
    /// Reads the prefs value (checked when it was stored); `quick` is the shortest wait there is.
    pub fn parse(value: Option<&str>) -> Self {
        match value.map(str::trim) {
            None | Some("" | "auto") => Self::Auto,
            Some("quick") => Self::Fixed(0),
            Some("normal") => Self::Fixed(NORMAL_MS),
            Some("patient") => Self::Fixed(PATIENT_MS),
            Some(ms) => ms.parse().map_or(Self::Auto, Self::Fixed),
        }
    }
}

/// One person's pace as a listener uses it; cheap to clone (the listener reads, the conversation teaches).
#[derive(Clone)]
pub struct Pace(Arc<Inner>);

struct Inner {
    store: Store,
    /// The shortest and the longest patience: `TURN_CHECK_MS` and `TURN_MAX_SILENCE_MS`.
    bounds: (u32, u32),
    user_id: String,
    /// The patience in use, in ms.
    in_use: AtomicU32,
    /// What is stored was read (or could not be).
    loaded: tokio::sync::watch::Sender<bool>,
}

impl std::fmt::Debug for Pace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pace")
            .field("patience_ms", &self.patience_ms())
            .finish()
    }
}

/// The paces of the people with a voice connection open on this instance: every connection of a person shares
/// one, so what one channel learns holds on the others at once, and a new connection need not wait for the
/// database while another is open.
#[derive(Default)]
pub struct Paces(Mutex<HashMap<String, Weak<Inner>>>);

impl std::fmt::Debug for Paces {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Paces")
    }
}

impl Paces {
    /// The person's prefs changed (their `turn_patience`): a connection of theirs that is open takes the new
    /// patience before the change is answered, and so does a new one that shares its pace.
    pub async fn changed(&self, user_id: &str) {
        let open = self
            .0
            .lock()
            .ok()
            .and_then(|open| open.get(user_id).and_then(Weak::upgrade));
        if let Some(inner) = open {
            let pace = Pace(inner);
            if let Some((setting, learned)) = pace.read().await {
                pace.apply(setting, learned);
            }
        }
    }
}

impl Pace {
    /// The pace of the user `user_id`: a connection of theirs that is open (in `paces`) has it; else the
    /// default at once, and what is stored as soon as it is read.
    pub fn of(paces: &Paces, store: &Store, voice: &VoiceSettings, user_id: &str) -> Self {
        let Ok(mut open) = paces.0.lock() else {
            return Self::load(store, voice, user_id);
        };
        if let Some(inner) = open.get(user_id).and_then(Weak::upgrade) {
            return Self(inner);
        }
        open.retain(|_, pace| pace.strong_count() > 0);
        let pace = Self::load(store, voice, user_id);
        open.insert(user_id.to_string(), Arc::downgrade(&pace.0));
        pace
    }

    fn load(store: &Store, voice: &VoiceSettings, user_id: &str) -> Self {
        let pace = Self(Arc::new(Inner {
            store: store.clone(),
            bounds: bounds(voice),
            user_id: user_id.to_string(),
            in_use: AtomicU32::new(voice.turn_check_ms),
            loaded: tokio::sync::watch::Sender::new(false),
        }));
        pace.refresh();
        pace
    }

    /// Waits (a moment at most) until what is stored was read, so that a connection's first question is
    /// judged with the person's own patience.
    pub async fn ready(&self) {
        let mut loaded = self.0.loaded.subscribe();
        let _ = tokio::time::timeout(READ_WAIT, loaded.wait_for(|loaded| *loaded)).await;
    }

    /// The silence after which the end of a turn is first judged, in ms.
    pub fn patience_ms(&self) -> u32 {
        self.0.in_use.load(Ordering::Relaxed)
    }

    /// How long after a question's last word speech may still continue it: `resume_ms` (`TURN_RESUME_MS`),
    /// longer for a person whose patience is long, so that their pauses may be joined too.
    pub fn resume_window_ms(&self, resume_ms: u32) -> u32 {
        resume_window_ms(resume_ms, self.patience_ms())
    }

    /// The person went on after a pause of `gap_ms`: the patience grows enough to wait it out.
    pub fn joined(&self, gap_ms: u32) {
        self.learn(Some(gap_ms));
    }

    /// A turn ended cleanly: the patience shrinks a little back toward the default.
    pub fn clean(&self) {
        self.learn(None);
    }

    /// Learns from a continuation after a pause of `gap` (`None`: a clean turn) unless the prefs set the
    /// patience by hand, then reads what is in use now (the prefs may have changed since).
    fn learn(&self, gap: Option<u32>) {
        let pace = self.clone();
        tokio::spawn(async move {
            let Some((setting, _)) = pace.read().await else {
                return;
            };
            let (store, user_id) = (&pace.0.store, &pace.0.user_id);
            let (base, max) = pace.bounds();
            let learned = match (setting, gap) {
                (Setting::Fixed(_), _) => Ok(None),
                (Setting::Auto, Some(gap_ms)) => {
                    let by = Lengthen {
                        start: i64::from(base),
                        step: STEP_MS,
                        floor: i64::from(gap_ms) + MARGIN_MS,
                        max: i64::from(max),
                    };
                    store.pace_joined(user_id, by).await.map(Some)
                }
                (Setting::Auto, None) => store.pace_clean(user_id, i64::from(base)).await,
            };
            match learned {
                Ok(Some(patience)) => pace.set(patience),
                Ok(None) => pace.apply(setting, None),
                Err(err) => tracing::error!(%err, "learning a pace failed"),
            }
        });
    }

    /// Reads the prefs and what was learned into the patience in use.
    fn refresh(&self) {
        let pace = self.clone();
        tokio::spawn(async move {
            if let Some((setting, learned)) = pace.read().await {
                pace.apply(setting, learned);
            }
            pace.0.loaded.send_replace(true);
        });
    }

    /// The prefs' setting and the patience learned.
    async fn read(&self) -> Option<(Setting, Option<i64>)> {
        let store = &self.0.store;
        match (store.prefs(&self.0.user_id).await, store.pace(&self.0.user_id).await) {
            (Ok(prefs), Ok(learned)) => Some((
                Setting::parse(prefs.turn_patience.as_deref()),
                learned.map(|l| l.patience_ms),
            )),
            (Err(err), _) | (_, Err(err)) => {
                tracing::error!(%err, "reading a pace failed");
                None
            }
        }
    }

    fn bounds(&self) -> (u32, u32) {
        self.0.bounds
    }

    fn set(&self, ms: i64) {
        let (base, max) = self.0.bounds;
        self.0.in_use.store(clamped(ms, base, max), Ordering::Relaxed);
    }

    fn apply(&self, setting: Setting, learned: Option<i64>) {
        let (base, max) = self.0.bounds;
        let patience = clamped(setting.patience_ms(learned), base, setting.max_ms(max));
        self.0.in_use.store(patience, Ordering::Relaxed);
    }
}

impl Setting {
    /// The patience it gives, with what was `learned` (none: nothing yet, the default), before the bounds.
    fn patience_ms(self, learned: Option<i64>) -> i64 {
        match self {
            Self::Fixed(ms) => ms.into(),
            Self::Auto => learned.unwrap_or(0),
        }
    }

    /// The longest patience it may give: what a person set is honoured up to [`SET_MAX_MS`], what was learned
    /// stays within `learned_max` (`TURN_MAX_SILENCE_MS`).
    fn max_ms(self, learned_max: u32) -> u32 {
        match self {
            Self::Fixed(_) => learned_max.max(SET_MAX_MS),
            Self::Auto => learned_max,
        }
    }
}

/// The patience in use for a prefs value and what was learned, as the admin panel shows it.
pub fn in_use(voice: &VoiceSettings, setting: Option<&str>, learned: Option<i64>) -> u32 {
    let (base, max) = bounds(voice);
    let setting = Setting::parse(setting);
    clamped(setting.patience_ms(learned), base, setting.max_ms(max))
}

/// How long after a question's last word speech may continue it for a patience of `patience_ms`: the
/// patience and half of `resume_ms` (`TURN_RESUME_MS`), which is the shortest.
pub fn resume_window_ms(resume_ms: u32, patience_ms: u32) -> u32 {
    if resume_ms == 0 {
        return 0;
    }
    resume_ms.max(patience_ms.saturating_add(resume_ms / 2))
}

/// The shortest and the longest patience: `TURN_CHECK_MS` and `TURN_MAX_SILENCE_MS`.
fn bounds(voice: &VoiceSettings) -> (u32, u32) {
    (voice.turn_check_ms, voice.turn_max_silence_ms.max(voice.turn_check_ms))
}

fn clamped(ms: i64, base: u32, max: u32) -> u32 {
    u32::try_from(ms.max(0)).unwrap_or(u32::MAX).clamp(base, max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_read_as_the_prefs_write_them() {
        assert_eq!(Setting::parse(None), Setting::Auto);
        assert_eq!(Setting::parse(Some("auto")), Setting::Auto);
        assert_eq!(Setting::parse(Some("quick")), Setting::Fixed(0));
        assert_eq!(Setting::parse(Some("patient")), Setting::Fixed(PATIENT_MS));
        assert_eq!(Setting::parse(Some("1200")), Setting::Fixed(1200));
    }

    #[test]
    fn a_patience_set_by_hand_is_honoured_beyond_what_is_learned() {
        // TURN_CHECK_MS 200, TURN_MAX_SILENCE_MS 2000.
        let patience = |setting: Setting, learned| clamped(setting.patience_ms(learned), 200, setting.max_ms(2000));
        assert_eq!(patience(Setting::Fixed(4000), None), 4000, "set: up to 5 s");
        assert_eq!(
            patience(Setting::Auto, Some(4000)),
            2000,
            "learned: up to TURN_MAX_SILENCE_MS"
        );
        assert_eq!(resume_window_ms(2000, 4000), 5000);
        assert_eq!(resume_window_ms(2000, 500), 2000);
        assert_eq!(resume_window_ms(0, 4000), 0, "continuations off stay off");
    }
}
