//! Changing the sample rate of 16-bit speech, in a stream or of a whole clip: a polyphase windowed-sinc filter
//! (Blackman window, 16 zero crossings a side, cut-off at 45 % of the lower rate), so nothing above the new
//! Nyquist frequency folds back as noise. The Realtime protocol speaks 24 kHz both ways, the detectors hear
//! 16 kHz, and the engines speak at their own rates.

/// Zero crossings of the sinc on each side of its centre.
const ZERO_CROSSINGS: usize = 16;

/// A stream's converter from one rate to another; it keeps the input its filter still needs.
#[derive(Debug, Clone)]
pub struct Resampler {
    up: usize,
    down: usize,
    /// The filter at the up-sampled rate, `2·half + 1` taps.
    taps: Vec<f32>,
    half: usize,
    /// Input not yet fully used, starting at input index `start`.
    input: Vec<f32>,
    start: usize,
    /// Output samples made so far.
    made: usize,
}

impl Resampler {
    /// A converter from `from` Hz to `to` Hz (both above 0).
    pub fn new(from: u32, to: u32) -> Self {
        let common = gcd(from.max(1), to.max(1));
        let (up, down) = ((to.max(1) / common) as usize, (from.max(1) / common) as usize);
        // At the up-sampled rate, the cut-off in cycles per sample.
        let cutoff = 0.45 / up.max(down) as f64;
        let half = (ZERO_CROSSINGS as f64 / (2.0 * cutoff)).ceil() as usize;
        let len = 2 * half + 1;
        let taps = (0..len)
            .map(|n| {
                let x = n as f64 - half as f64;
                let sinc = if x == 0.0 {
                    2.0 * cutoff
                } else {
                    (2.0 * std::f64::consts::PI * cutoff * x).sin() / (std::f64::consts::PI * x)
                };
                let phase = 2.0 * std::f64::consts::PI * n as f64 / (len - 1) as f64;
                let blackman = 0.42 - 0.5 * phase.cos() + 0.08 * (2.0 * phase).cos();
                // Up-sampling inserts zeros: the filter's gain of `up` restores the level.
                (sinc * blackman * up as f64) as f32
            })
            .collect();
        Self {
            up,
            down,
            taps,
            half,
            input: Vec::new(),
            start: 0,
            made: 0,
        }
    }

    /// Converts the next piece of the stream; the output lags the input by half the filter (about a
    /// millisecond), which [`Self::finish`] gives back.
    pub fn push(&mut self, samples: &[i16]) -> Vec<i16> {
        self.input.extend(samples.iter().map(|&s| f32::from(s)));
        self.drain(self.start + self.input.len())
    }

    /// The rest of the stream: the output still held back by the filter.
    pub fn finish(&mut self) -> Vec<i16> {
        let end = self.start + self.input.len();
        let pad = self.half / self.up + 1;
        self.input.extend(std::iter::repeat_n(0.0, pad));
        let total = (end * self.up).div_ceil(self.down);
        let mut out = self.drain(end + pad);
        out.truncate(total.saturating_sub(self.made - out.len()));
        out
    }

    /// Every output sample whose filter window lies within the first `available` input samples.
    fn drain(&mut self, available: usize) -> Vec<i16> {
        let mut out = Vec::new();
        loop {
            // Output `m` is the filter centred at up-sampled time `m·down`.
            let t = self.made * self.down;
            let last_input = (t + self.half) / self.up;
            if last_input >= available {
                break;
            }
            let first_input = t.saturating_sub(self.half).div_ceil(self.up);
            let mut sum = 0.0f32;
            for i in first_input..=last_input {
                // Tap index of input i: its up-sampled time relative to the window's start.
                let tap = i * self.up + self.half - t;
                if let (Some(x), Some(h)) = (
                    i.checked_sub(self.start).and_then(|k| self.input.get(k)),
                    self.taps.get(tap),
                ) {
                    sum += x * h;
                }
            }
            out.push(sum.round().clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16);
            self.made += 1;
        }
        // Input before the next window is no longer needed.
        let keep_from = (self.made * self.down).saturating_sub(self.half).div_ceil(self.up);
        if keep_from > self.start {
            let drop = (keep_from - self.start).min(self.input.len());
            self.input.drain(..drop);
            self.start += drop;
        }
        out
    }
}

/// A whole clip at another rate.
pub fn resample(samples: &[i16], from: u32, to: u32) -> Vec<i16> {
    if from == to {
        return samples.to_vec();
    }
    let mut resampler = Resampler::new(from, to);
    let mut out = resampler.push(samples);
    out.extend(resampler.finish());
    out
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sine(rate: u32, hz: f64, seconds: f64) -> Vec<i16> {
        let n = (f64::from(rate) * seconds) as usize;
        (0..n)
            .map(|i| (8000.0 * (2.0 * std::f64::consts::PI * hz * i as f64 / f64::from(rate)).sin()) as i16)
            .collect()
    }

    /// Crossings of zero upwards per second: the frequency of a pure tone.
    fn frequency(samples: &[i16], rate: u32) -> f64 {
        let ups = samples.windows(2).filter(|w| w[0] < 0 && w[1] >= 0).count();
        ups as f64 * f64::from(rate) / samples.len() as f64
    }

    fn peak(samples: &[i16]) -> u16 {
        samples[200..samples.len() - 200]
            .iter()
            .map(|s| s.unsigned_abs())
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn resampling_keeps_pitch_length_and_loudness() {
        for (from, to) in [(22_050, 24_000), (16_000, 24_000), (48_000, 24_000), (24_000, 16_000)] {
            let out = resample(&sine(from, 440.0, 1.0), from, to);
            assert_eq!(out.len(), to as usize, "{from} -> {to}");
            assert!(
                (frequency(&out, to) - 440.0).abs() < 3.0,
                "{from} -> {to}: {} Hz",
                frequency(&out, to)
            );
            assert!(
                (7800..=8200).contains(&peak(&out)),
                "{from} -> {to}: peak {}",
                peak(&out)
            );
        }
        // A tone above the new Nyquist frequency is removed, not folded back into the speech band.
        let high = resample(&sine(48_000, 15_000.0, 0.5), 48_000, 24_000);
        assert!(peak(&high) < 100, "{}", peak(&high));
    }

    #[test]
    fn a_stream_in_pieces_gives_the_same_samples_as_the_whole() {
        let tone = sine(24_000, 300.0, 0.7);
        let whole = resample(&tone, 24_000, 16_000);
        let mut stream = Resampler::new(24_000, 16_000);
        let mut pieces = Vec::new();
        for chunk in tone.chunks(487) {
            pieces.extend(stream.push(chunk));
        }
        pieces.extend(stream.finish());
        assert_eq!(pieces, whole);
    }
}
