//! G.711 (ITU-T), the telephone network's 8 kHz audio: µ-law (North America, Japan) and A-law (Europe and the
//! rest), one byte a sample. The Realtime protocol offers both (`g711_ulaw`, `g711_alaw`), and telephone lines
//! carry them.

/// µ-law's bias, added before the segment is found.
const BIAS: i32 = 0x84;
/// The largest magnitude µ-law encodes.
const CLIP: i32 = 32_635;

/// One 16-bit sample as µ-law.
pub fn ulaw_from(sample: i16) -> u8 {
    let sign = if sample < 0 { 0x80 } else { 0 };
    let magnitude = i32::from(sample).abs().min(CLIP) + BIAS;
    // The segment: where the biased magnitude's top bit lies above bit 7 (the bias keeps it at 7 or more).
    let exponent = 31 - (magnitude >> 7).leading_zeros() as i32;
    let mantissa = (magnitude >> (exponent + 3)) & 0x0F;
    !(sign | (exponent << 4) as u8 | mantissa as u8)
}

/// One µ-law byte as a 16-bit sample.
pub fn ulaw_to(byte: u8) -> i16 {
    let byte = !byte;
    let exponent = i32::from((byte >> 4) & 0x07);
    let mantissa = i32::from(byte & 0x0F);
    let magnitude = (((mantissa << 3) + BIAS) << exponent) - BIAS;
    (if byte & 0x80 != 0 { -magnitude } else { magnitude }) as i16
}

/// One 16-bit sample as A-law.
pub fn alaw_from(sample: i16) -> u8 {
    let (sign, magnitude) = if sample >= 0 {
        (0x80u8, i32::from(sample) >> 3)
    } else {
        (0x00u8, (-i32::from(sample) - 1).max(0) >> 3)
    };
    let magnitude = magnitude.min(0x0FFF);
    let byte = if magnitude < 32 {
        (magnitude >> 1) as u8
    } else {
        let exponent = (31 - magnitude.leading_zeros()) as i32 - 4;
        ((exponent << 4) | ((magnitude >> exponent) & 0x0F)) as u8
    };
    (byte | sign) ^ 0x55
}

/// One A-law byte as a 16-bit sample.
pub fn alaw_to(byte: u8) -> i16 {
    let byte = byte ^ 0x55;
    let exponent = i32::from((byte >> 4) & 0x07);
    let mantissa = i32::from(byte & 0x0F);
    let magnitude = match exponent {
        0 => (mantissa << 4) + 8,
        _ => ((mantissa << 4) + 0x108) << (exponent - 1),
    };
    (if byte & 0x80 != 0 { magnitude } else { -magnitude }) as i16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn silence_and_the_extremes_have_their_standard_codes() {
        assert_eq!(ulaw_from(0), 0xFF);
        assert_eq!(ulaw_to(0xFF), 0);
        assert_eq!(ulaw_from(i16::MAX), 0x80);
        assert_eq!(ulaw_from(i16::MIN), 0x00);
        assert_eq!(alaw_from(0), 0xD5);
        assert_eq!(alaw_to(0xD5), 8);
        assert_eq!(alaw_from(i16::MAX), 0xAA);
        assert_eq!(alaw_from(i16::MIN), 0x2A);
    }

    #[test]
    fn every_code_decodes_and_encodes_back_to_itself() {
        for byte in 0..=255u8 {
            assert_eq!(alaw_from(alaw_to(byte)), byte, "A-law {byte:#04x}");
            // µ-law has two codes for zero (0x7F and 0xFF); the rest are their own.
            if byte != 0x7F {
                assert_eq!(ulaw_from(ulaw_to(byte)), byte, "µ-law {byte:#04x}");
            }
        }
    }

    #[test]
    fn a_sample_comes_back_within_its_step() {
        for sample in (-32_000i16..32_000).step_by(7) {
            let step = (i32::from(sample).abs() / 16).max(16);
            let u = i32::from(ulaw_to(ulaw_from(sample)));
            let a = i32::from(alaw_to(alaw_from(sample)));
            assert!((u - i32::from(sample)).abs() <= step, "µ-law {sample} → {u}");
            assert!((a - i32::from(sample)).abs() <= step, "A-law {sample} → {a}");
        }
    }
}
