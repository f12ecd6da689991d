//! CRC_A, the 16-bit CRC of ISO/IEC 14443-3 type A frames, computed in software.
//!
//! Parameters (ISO/IEC 14443-3 Annex B): the CCITT polynomial x^16 + x^12 + x^5 + 1 processed
//! least significant bit first (reflected polynomial `0x8408`), initial value `0x6363`, no final
//! XOR. The CRC is sent low byte first. The MFRC522 can compute it too (its CalcCRC command), but
//! that costs a command, a poll loop and two register reads over SPI per frame; in software it is a
//! few instructions and needs no chip to test.

/// The CRC_A of `data`, in the order it is sent on air: low byte first.
pub fn crc_a(data: &[u8]) -> [u8; 2] {
    let mut crc: u16 = 0x6363;
    for &byte in data {
        // The byte-wise form of the reflected CCITT CRC from ISO/IEC 14443-3 Annex B.
        let mut ch = byte ^ crc.to_le_bytes()[0];
        ch ^= ch << 4;
        let ch = u16::from(ch);
        crc = (crc >> 8) ^ (ch << 8) ^ (ch << 3) ^ (ch >> 4);
    }
    crc.to_le_bytes()
}

/// Whether `frame` ends in the CRC_A of the bytes before it (a frame shorter than the CRC does
/// not).
pub fn crc_a_ok(frame: &[u8]) -> bool {
    match frame.len().checked_sub(2) {
        Some(split) => {
            let (data, crc) = frame.split_at(split);
            crc_a(data) == crc
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_iso_14443_3_annex_b_examples() {
        // Annex B: 0x00 0x00 gives 0x1EA0, 0x12 0x34 gives 0xCF26, both sent low byte first.
        assert_eq!(crc_a(&[0x00, 0x00]), [0xA0, 0x1E]);
        assert_eq!(crc_a(&[0x12, 0x34]), [0x26, 0xCF]);
    }

    #[test]
    fn matches_the_halt_frame_every_reader_sends() {
        // HLTA is 50 00 57 CD on air.
        assert_eq!(crc_a(&[0x50, 0x00]), [0x57, 0xCD]);
        assert!(crc_a_ok(&[0x50, 0x00, 0x57, 0xCD]));
        assert!(!crc_a_ok(&[0x50, 0x00, 0x57, 0xCE]));
        assert!(!crc_a_ok(&[0x57]));
        assert!(!crc_a_ok(&[]));
    }

    #[test]
    fn the_crc_of_nothing_is_the_initial_value() {
        assert_eq!(crc_a(&[]), [0x63, 0x63]);
        assert!(crc_a_ok(&[0x63, 0x63]));
    }
}
