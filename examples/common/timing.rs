//! Timing shared by the phrasebook's benchmarks (`phrase_bench`, `care_words_bench`).

use std::time::Instant;

/// `--rounds N` from the command line, else `default`.
pub fn rounds(default: usize) -> usize {
    std::env::args()
        .skip_while(|a| a != "--rounds")
        .nth(1)
        .and_then(|r| r.parse().ok())
        .unwrap_or(default)
}

/// The median of `rounds` timings of `say`, in nanoseconds, after a warm-up.
pub fn median_ns(rounds: usize, mut say: impl FnMut() -> String) -> u128 {
    let mut total = 0;
    for _ in 0..rounds / 10 {
        total += say().len();
    }
    let mut times: Vec<u128> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            total += std::hint::black_box(say()).len();
            start.elapsed().as_nanos()
        })
        .collect();
    assert!(total > 0);
    times.sort_unstable();
    times[times.len() / 2]
}
