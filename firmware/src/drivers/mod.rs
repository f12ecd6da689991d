//! Drivers for the hardware under the board, generic over embedded-hal 1.0 traits.

pub mod nfc;
