//! CRC-32/ISO-HDLC (the zlib, PNG and Ethernet CRC), table-driven, with the table built at compile
//! time.
//!
//! Parameters: reflected polynomial `0xEDB88320`, initial value and final XOR `0xFFFF_FFFF`; the
//! check value of `b"123456789"` is `0xCBF4_3926`. It detects every error burst of up to 32 bits,
//! so any single damaged byte inside a checksummed span is always caught.

/// One entry per byte value: the CRC register after shifting that byte through it.
const TABLE: [u32; 256] = build_table();

const fn build_table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut n = 0;
    while n < 256 {
        let mut c = n as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        table[n] = c;
        n += 1;
    }
    table
}

/// The CRC-32/ISO-HDLC of `bytes`.
pub(crate) fn crc32(bytes: &[u8]) -> u32 {
    let mut c = 0xFFFF_FFFFu32;
    for &b in bytes {
        c = TABLE[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8);
    }
    c ^ 0xFFFF_FFFF
}

#[cfg(test)]
mod tests {
    use super::crc32;

    #[test]
    fn check_values() {
        assert_eq!(crc32(b""), 0);
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(
            crc32(b"The quick brown fox jumps over the lazy dog"),
            0x414F_A339
        );
    }
}
