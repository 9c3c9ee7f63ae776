//! The last day's voice turns, stage by stage (as [`crate::voice::stages`] measured them), for the admin
//! panel: hour by hour, the median and p90 of each stage, and the slowest stage. Kept in memory, per instance.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;
use utoipa::ToSchema;

/// The stages of a voice turn, in order; `total` (the whole wait) last.
pub const STAGES: [&str; 6] = [
    "end_of_turn",
    "transcription",
    "first_token",
    "first_sentence",
    "first_audio",
    "total",
];

/// The index of `total` in [`STAGES`].
pub const TOTAL: usize = 5;

/// The stages of the turns of the last day (at most [`Recent::CAPACITY`]), for the admin panel.
#[derive(Default)]
pub struct Recent(Mutex<VecDeque<(u64, [Option<f32>; STAGES.len()])>>);

const DAY: u64 = 24 * 3600;

fn unix_now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// Median and 90th percentile of a stage, in ms.
#[derive(Debug, Clone, Copy, Serialize, ToSchema, PartialEq)]
pub struct Spread {
    pub median_ms: f64,
    pub p90_ms: f64,
}

/// The turns of one hour.
#[derive(Debug, Serialize, ToSchema)]
pub struct Hour {
    /// Its start, in seconds since 1970.
    pub start: u64,
    /// Voice turns in it.
    pub turns: usize,
    /// Median and p90 per stage that was measured in it (by the names of [`STAGES`]).
    pub stages: BTreeMap<&'static str, Spread>,
}

/// The last day's latency, hour by hour and over the whole day.
#[derive(Debug, Serialize, ToSchema)]
pub struct Day {
    /// The 24 hours up to now, oldest first.
    pub hours: Vec<Hour>,
    /// The whole day: median and p90 per stage.
    pub stages: BTreeMap<&'static str, Spread>,
    /// Voice turns in the day.
    pub turns: usize,
    /// The stage with the longest median of the day (of those that add up to the total), if any turn ran.
    pub slowest_stage: Option<&'static str>,
}

impl Recent {
    /// Turns kept at most, whatever the day held.
    pub const CAPACITY: usize = 20_000;

    pub fn push(&self, seconds: [Option<f32>; STAGES.len()]) {
        let now = unix_now();
        if let Ok(mut turns) = self.0.lock() {
            while turns
                .front()
                .is_some_and(|(at, _)| *at + DAY < now || turns.len() >= Self::CAPACITY)
            {
                turns.pop_front();
            }
            turns.push_back((now, seconds));
        }
    }

    /// The last day, hour by hour.
    pub fn day(&self) -> Day {
        let now = unix_now();
        let turns: Vec<_> = self
            .0
            .lock()
            .map(|t| t.iter().filter(|(at, _)| at + DAY >= now).copied().collect())
            .unwrap_or_default();
        // Hour 23 is the last one, up to now.
        let hour_of = |at: u64| 23u64.checked_sub(now.saturating_sub(at) / 3600);
        let hours = (0..24)
            .map(|h| {
                let in_hour: Vec<_> = turns.iter().filter(|(at, _)| hour_of(*at) == Some(h)).collect();
                Hour {
                    start: now.saturating_sub(DAY) + h * 3600,
                    turns: in_hour.len(),
                    stages: spreads(in_hour.iter().map(|(_, s)| s)),
                }
            })
            .collect();
        let stages = spreads(turns.iter().map(|(_, s)| s));
        let slowest_stage = STAGES[..TOTAL]
            .iter()
            .filter_map(|name| stages.get(name).map(|s| (*name, s.median_ms)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(name, _)| name);
        Day {
            hours,
            stages,
            turns: turns.len(),
            slowest_stage,
        }
    }
}

/// Median and p90 of each stage over some turns (stages never measured in them are left out).
fn spreads<'a>(turns: impl Iterator<Item = &'a [Option<f32>; STAGES.len()]> + Clone) -> BTreeMap<&'static str, Spread> {
    STAGES
        .iter()
        .enumerate()
        .filter_map(|(i, name)| {
            let mut ms: Vec<f64> = turns
                .clone()
                .filter_map(|s| s[i])
                .map(|s| f64::from(s) * 1000.0)
                .collect();
            if ms.is_empty() {
                return None;
            }
            ms.sort_by(f64::total_cmp);
            let at = |p: f64| ms[((ms.len() - 1) as f64 * p).round() as usize];
            Some((
                *name,
                Spread {
                    median_ms: at(0.5).round(),
                    p90_ms: at(0.9).round(),
                },
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_gives_each_stage_its_median_and_p90_and_names_the_slowest() {
        let recent = Recent::default();
        for i in 0..10u8 {
            let ms = f32::from(i + 1) / 1000.0;
            recent.push([Some(ms), Some(10.0 * ms), Some(ms), None, Some(ms), Some(13.0 * ms)]);
        }
        let day = recent.day();
        assert_eq!(day.turns, 10);
        assert_eq!(day.hours.len(), 24);
        assert_eq!(day.hours[23].turns, 10, "this hour is the last");
        assert_eq!(
            day.stages["transcription"],
            Spread {
                median_ms: 60.0,
                p90_ms: 90.0
            }
        );
        assert!(!day.stages.contains_key("first_sentence"));
        assert_eq!(day.slowest_stage, Some("transcription"));
        assert_eq!(Recent::default().day().slowest_stage, None);
    }
}
