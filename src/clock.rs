//! Time arithmetic that cannot panic: `Instant + Duration` panics when the sum overflows, and a duration that
//! came from the wire (a session interval, a registration's expiry, a frame's length) can be anything. A
//! moment too far to represent is taken as "in thirty years", which every timer reads as never.

use std::time::Duration;

use tokio::time::Instant;

/// About thirty years: later than any call, registration or reminder lasts.
const FAR: Duration = Duration::from_secs(86_400 * 365 * 30);

/// `at` plus `wait`, or thirty years from `at` when the sum cannot be represented.
pub fn after(at: Instant, wait: Duration) -> Instant {
    at.checked_add(wait).or_else(|| at.checked_add(FAR)).unwrap_or(at)
}

/// `wait` from now (see [`after`]).
pub fn from_now(wait: Duration) -> Instant {
    after(Instant::now(), wait)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sum_too_large_is_thirty_years_away_and_never_a_panic() {
        let now = Instant::now();
        assert_eq!(after(now, Duration::from_secs(5)) - now, Duration::from_secs(5));
        assert_eq!(after(now, Duration::MAX) - now, FAR);
        assert_eq!(after(now, Duration::from_secs(u64::MAX)) - now, FAR);
        assert!(from_now(Duration::MAX) > now);
    }
}
