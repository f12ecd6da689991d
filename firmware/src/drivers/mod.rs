//! Drivers for the umpire's hardware, generic over embedded-hal 1.0 traits.
//!
//! Each driver owns its bus or pins (hand them back with `release`), returns a per-module
//! `Error` that says what to check in the wiring, and is tested against `embedded-hal-mock`
//! transaction lists. The Pi backend (rpi-pal, linux-embedded-hal) is chosen at the edge.

pub mod buttons;
pub mod expander;
pub mod leds;
pub mod nfc;
pub mod reed_matrix;
pub mod shift_chain;
