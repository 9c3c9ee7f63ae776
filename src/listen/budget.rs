//! The memory budget of `/ws/voice`: how many voice connections a user and everybody may hold, and how many
//! bytes of audio all of them may buffer together. Without it, 300 connections each buffering a long
//! utterance at 48 kHz took the process to 1.9 GB.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The limits and what is taken of them.
#[derive(Debug)]
pub struct VoiceBudget {
    /// `MAX_VOICE_CONNECTIONS`.
    max_connections: usize,
    /// `VOICE_CONNECTIONS_PER_USER`.
    per_user: usize,
    /// `AUDIO_BUFFER_BUDGET_BYTES`.
    max_bytes: usize,
    /// Open voice connections by user.
    connections: Mutex<HashMap<String, usize>>,
    /// Bytes of audio buffered by all connections.
    bytes: AtomicUsize,
}

/// Why a voice connection was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The user has `VOICE_CONNECTIONS_PER_USER` open.
    User,
    /// Everybody together has `MAX_VOICE_CONNECTIONS` open.
    Everybody,
}

/// A voice connection's place; given back when dropped.
#[derive(Debug)]
pub struct Seat {
    budget: Arc<VoiceBudget>,
    user: String,
}

impl VoiceBudget {
    /// A budget with these limits.
    pub fn new(max_connections: usize, per_user: usize, max_bytes: usize) -> Self {
        Self {
            max_connections,
            per_user,
            max_bytes,
            connections: Mutex::default(),
            bytes: AtomicUsize::new(0),
        }
    }

    /// Takes a place for a new voice connection of `user`.
    pub fn seat(self: &Arc<Self>, user: &str) -> Result<Seat, Refusal> {
        let mut open = self.connections.lock().map_err(|_| Refusal::Everybody)?;
        if open.values().sum::<usize>() >= self.max_connections {
            return Err(Refusal::Everybody);
        }
        let mine = open.entry(user.to_string()).or_default();
        if *mine >= self.per_user {
            return Err(Refusal::User);
        }
        *mine += 1;
        Ok(Seat {
            budget: self.clone(),
            user: user.to_string(),
        })
    }

    /// Reserves `n` more bytes of audio; false (and nothing reserved) when that would pass the budget.
    fn reserve(&self, n: usize) -> bool {
        self.bytes
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |taken| {
                taken.checked_add(n).filter(|total| *total <= self.max_bytes)
            })
            .is_ok()
    }

    fn release(&self, n: usize) {
        self.bytes.fetch_sub(n, Ordering::AcqRel);
    }

    /// Bytes buffered now.
    pub fn buffered(&self) -> usize {
        self.bytes.load(Ordering::Acquire)
    }
}

impl Drop for Seat {
    fn drop(&mut self) {
        if let Ok(mut open) = self.budget.connections.lock()
            && let Some(n) = open.get_mut(&self.user)
        {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.user);
            }
        }
    }
}

/// Bytes held in the budget on their way (a frame read and not yet heard); given back when dropped.
#[derive(Debug)]
pub struct Held {
    budget: Arc<VoiceBudget>,
    bytes: usize,
}

impl VoiceBudget {
    /// Holds `n` bytes until the guard is dropped; `None` when that would pass the budget.
    pub fn hold(self: &Arc<Self>, n: usize) -> Option<Held> {
        self.reserve(n).then(|| Held {
            budget: self.clone(),
            bytes: n,
        })
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.budget.release(self.bytes);
    }
}

/// A connection's audio buffer whose memory (its capacity) counts against the budget.
#[derive(Debug)]
pub struct AudioBuffer {
    budget: Arc<VoiceBudget>,
    samples: Vec<i16>,
    /// Bytes of this buffer counted in the budget.
    counted: usize,
}

impl AudioBuffer {
    /// An empty buffer.
    pub fn new(budget: Arc<VoiceBudget>) -> Self {
        Self {
            budget,
            samples: Vec::new(),
            counted: 0,
        }
    }

    /// The buffered samples.
    pub fn samples(&self) -> &[i16] {
        &self.samples
    }

    /// Appends samples; false (and nothing appended) when the budget cannot hold them.
    pub fn extend(&mut self, more: &[i16]) -> bool {
        let needed = self.samples.len() + more.len();
        if needed > self.samples.capacity() {
            // Grow to what is needed, doubling at most, and count the new capacity before allocating it.
            let target = needed.max(self.samples.capacity() * 2).max(4096);
            let bytes = target * 2;
            let extra = bytes.saturating_sub(self.counted);
            let (target, extra) = if self.budget.reserve(extra) {
                (target, extra)
            } else {
                let exact = (needed * 2).saturating_sub(self.counted);
                if !self.budget.reserve(exact) {
                    return false;
                }
                (needed, exact)
            };
            self.samples.reserve_exact(target - self.samples.len());
            self.counted += extra;
        }
        self.samples.extend_from_slice(more);
        true
    }

    /// Drops the first `n` samples (silence before speech), giving memory back when most of it is unused.
    pub fn drop_front(&mut self, n: usize) {
        self.samples.drain(..n);
        self.shrink();
    }

    /// Takes the first `n` samples out (an utterance); what stays keeps its place in the budget.
    pub fn take_front(&mut self, n: usize) -> Vec<i16> {
        let taken: Vec<i16> = self.samples.drain(..n).collect();
        self.shrink();
        taken
    }

    /// Takes everything out and empties the buffer.
    pub fn take_all(&mut self) -> Vec<i16> {
        let taken = std::mem::take(&mut self.samples);
        self.give_back();
        taken
    }

    /// Empties the buffer.
    pub fn clear(&mut self) {
        self.samples = Vec::new();
        self.give_back();
    }

    /// Whether nothing is buffered.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    fn shrink(&mut self) {
        if self.samples.capacity() > 4 * self.samples.len().max(4096) {
            self.samples.shrink_to(self.samples.len() * 2);
            let now = self.samples.capacity() * 2;
            self.budget.release(self.counted.saturating_sub(now));
            self.counted = self.counted.min(now);
        }
    }

    fn give_back(&mut self) {
        self.budget.release(self.counted);
        self.counted = 0;
    }
}

impl Drop for AudioBuffer {
    fn drop(&mut self) {
        self.give_back();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_are_limited_per_user_and_in_all_and_come_back() {
        let budget = Arc::new(VoiceBudget::new(3, 2, 1 << 20));
        let a1 = budget.seat("a").unwrap();
        let _a2 = budget.seat("a").unwrap();
        assert_eq!(budget.seat("a").unwrap_err(), Refusal::User);
        let _b1 = budget.seat("b").unwrap();
        assert_eq!(budget.seat("c").unwrap_err(), Refusal::Everybody);
        drop(a1);
        assert!(budget.seat("c").is_ok());
    }

    #[test]
    fn buffers_count_their_memory_and_stop_at_the_budget() {
        let budget = Arc::new(VoiceBudget::new(10, 10, 100_000));
        let mut one = AudioBuffer::new(budget.clone());
        assert!(one.extend(&[1; 30_000]));
        assert!(
            budget.buffered() >= 60_000 && budget.buffered() <= 100_000,
            "{}",
            budget.buffered()
        );
        let mut two = AudioBuffer::new(budget.clone());
        assert!(!two.extend(&[1; 30_000]), "the budget is used up");
        assert!(two.is_empty());
        assert_eq!(one.take_all().len(), 30_000);
        assert_eq!(budget.buffered(), 0);
        assert!(two.extend(&[1; 30_000]));
        drop(two);
        assert_eq!(budget.buffered(), 0, "a dropped buffer gives its memory back");
    }

    #[test]
    fn dropping_most_of_a_buffer_gives_memory_back() {
        let budget = Arc::new(VoiceBudget::new(10, 10, 10_000_000));
        let mut buffer = AudioBuffer::new(budget.clone());
        assert!(buffer.extend(&[0; 1_000_000]));
        let before = budget.buffered();
        buffer.drop_front(999_000);
        assert!(budget.buffered() < before / 10, "{} of {before}", budget.buffered());
        assert_eq!(buffer.samples().len(), 1000);
    }
}
