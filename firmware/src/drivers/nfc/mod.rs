//! NFC identity reads of the ISO/IEC 14443A tag (an NTAG21x, 7-byte UID) under a piece.
//!
//! - [`crc_a`]: the ISO/IEC 14443-3 CRC_A, in software.

mod crc;

pub use crc::{crc_a, crc_a_ok};
