//! Whisper's log-mel spectrogram of 8 s of 16 kHz audio (80 mel bands × 800 frames of 10 ms), the input of the
//! Smart Turn model. It follows the reference (`transformers.WhisperFeatureExtractor` with `chunk_length=8` and
//! `do_normalize`, as vendored by pipecat): the waveform is normalised to zero mean and unit variance, framed
//! with a periodic Hann window of 400 samples every 160 (reflect-padded at both ends), its power spectrum is
//! projected onto Slaney-normalised mel filters, and the log10 is clamped to 8 below its maximum and scaled by
//! (x + 4) / 4. A test compares it with the reference's numbers.

use std::sync::{Arc, OnceLock};

use realfft::{RealFftPlanner, RealToComplex};

/// Samples analysed: 8 s at 16 kHz.
pub const SAMPLES: usize = 128_000;
/// Mel bands.
pub const MELS: usize = 80;
/// Frames of 10 ms.
pub const FRAMES: usize = 800;
const N_FFT: usize = 400;
const HOP: usize = 160;
const BINS: usize = N_FFT / 2 + 1;
const RATE: f64 = 16_000.0;

/// The transform, window and filters, built once.
struct Analysis {
    fft: Arc<dyn RealToComplex<f64>>,
    window: Vec<f64>,
    /// Per mel band: its first frequency bin and its weights from there on (the filters are triangles).
    filters: Vec<(usize, Vec<f64>)>,
}

fn analysis() -> &'static Analysis {
    static ANALYSIS: OnceLock<Analysis> = OnceLock::new();
    ANALYSIS.get_or_init(|| Analysis {
        fft: RealFftPlanner::<f64>::new().plan_fft_forward(N_FFT),
        window: (0..N_FFT)
            .map(|n| 0.5 - 0.5 * (std::f64::consts::TAU * n as f64 / N_FFT as f64).cos())
            .collect(),
        filters: mel_filters(),
    })
}

/// The features of `audio` (16 kHz, in [-1, 1]; zero-padded at the end or cut to [`SAMPLES`]), mel band by
/// mel band: `MELS × FRAMES` values.
pub fn log_mel(audio: &[f32]) -> Vec<f32> {
    let analysis = analysis();
    let mut x: Vec<f64> = audio.iter().take(SAMPLES).map(|&s| f64::from(s)).collect();
    x.resize(SAMPLES, 0.0);
    let mean = x.iter().sum::<f64>() / SAMPLES as f64;
    let variance = x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / SAMPLES as f64;
    let scale = 1.0 / (variance + 1e-7).sqrt();
    x.iter_mut().for_each(|v| *v = (*v - mean) * scale);

    let pad = N_FFT / 2;
    let padded: Vec<f64> = (0..SAMPLES + 2 * pad)
        .map(|i| x[reflect(i as isize - pad as isize, SAMPLES)])
        .collect();
    let mut frame = analysis.fft.make_input_vec();
    let mut spectrum = analysis.fft.make_output_vec();
    let mut power = [0.0f64; BINS];
    let mut log = vec![0.0f64; MELS * FRAMES];
    for t in 0..FRAMES {
        let start = t * HOP;
        for ((f, &s), &w) in frame
            .iter_mut()
            .zip(&padded[start..start + N_FFT])
            .zip(&analysis.window)
        {
            *f = s * w;
        }
        // The buffers have the planned sizes, so the transform cannot fail.
        let _ = analysis.fft.process(&mut frame, &mut spectrum);
        for (p, c) in power.iter_mut().zip(&spectrum) {
            *p = c.norm_sqr();
        }
        for (m, (first, weights)) in analysis.filters.iter().enumerate() {
            let energy: f64 = weights.iter().zip(&power[*first..]).map(|(w, p)| w * p).sum();
            log[m * FRAMES + t] = energy.max(1e-10).log10();
        }
    }
    let floor = log.iter().copied().fold(f64::MIN, f64::max) - 8.0;
    log.iter().map(|&v| ((v.max(floor) + 4.0) / 4.0) as f32).collect()
}

/// Index of `i` in a signal of `len` reflected at both ends without repeating the edge (numpy's `reflect`).
fn reflect(i: isize, len: usize) -> usize {
    let last = len as isize - 1;
    let i = if i < 0 { -i } else { i };
    (if i > last { 2 * last - i } else { i }) as usize
}

fn hz_to_mel(hz: f64) -> f64 {
    if hz >= 1000.0 {
        15.0 + (hz / 1000.0).ln() * 27.0 / 6.4f64.ln()
    } else {
        3.0 * hz / 200.0
    }
}

fn mel_to_hz(mel: f64) -> f64 {
    if mel >= 15.0 {
        1000.0 * (6.4f64.ln() / 27.0 * (mel - 15.0)).exp()
    } else {
        200.0 * mel / 3.0
    }
}

/// Slaney-normalised triangular filters from 0 Hz to the Nyquist frequency.
fn mel_filters() -> Vec<(usize, Vec<f64>)> {
    let top = hz_to_mel(RATE / 2.0);
    let edges: Vec<f64> = (0..MELS + 2)
        .map(|i| mel_to_hz(top * i as f64 / (MELS + 1) as f64))
        .collect();
    let bin_hz = |k: usize| (RATE / 2.0) * k as f64 / (BINS - 1) as f64;
    (0..MELS)
        .map(|m| {
            let (lo, mid, hi) = (edges[m], edges[m + 1], edges[m + 2]);
            let norm = 2.0 / (hi - lo);
            let weights: Vec<f64> = (0..BINS)
                .map(|k| {
                    let f = bin_hz(k);
                    ((f - lo) / (mid - lo)).min((hi - f) / (hi - mid)).max(0.0) * norm
                })
                .collect();
            let first = weights.iter().position(|&w| w > 0.0).unwrap_or(0);
            let last = weights.iter().rposition(|&w| w > 0.0).unwrap_or(first);
            (first, weights[first..=last].to_vec())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reflection_does_not_repeat_the_edge() {
        assert_eq!([-2, -1, 0, 4, 5, 6].map(|i| reflect(i, 5)), [2, 1, 0, 4, 3, 2]);
    }

    #[test]
    fn filters_cover_the_spectrum_with_slaney_areas() {
        let filters = mel_filters();
        assert_eq!(filters.len(), MELS);
        // Each triangle's area in Hz is 1 under Slaney normalisation (within the bin spacing of 40 Hz).
        for (m, (_, weights)) in filters.iter().enumerate().skip(10) {
            let area: f64 = weights.iter().sum::<f64>() * 40.0;
            assert!((area - 1.0).abs() < 0.1, "band {m}: {area}");
        }
    }

    #[test]
    fn a_tone_lights_its_band_and_silence_is_flat() {
        let tone: Vec<f32> = (0..SAMPLES)
            .map(|i| (i as f32 / 16_000.0 * 1000.0 * std::f32::consts::TAU).sin() * 0.3)
            .collect();
        let features = log_mel(&tone);
        assert_eq!(features.len(), MELS * FRAMES);
        let band = |m: usize| features[m * FRAMES + 400];
        let loudest = (0..MELS).max_by(|&a, &b| band(a).total_cmp(&band(b))).unwrap();
        // 1 kHz is mel 15 of 0..45.25, band 15 / 45.25 * 81 - 1, about 26.
        assert!((25..=27).contains(&loudest), "{loudest}");
        let silent = log_mel(&[]);
        assert!(silent.iter().all(|&v| v == silent[0]));
    }
}
