//! NFC identity reads: an MFRC522 reader over SPI reading the factory UID of the ISO/IEC
//! 14443A tag (an NTAG21x, 7-byte UID) under a piece.
//!
//! - [`Mfrc522`]: the reader IC over any embedded-hal 1.0
//!   [`SpiDevice`](embedded_hal::spi::SpiDevice): register access, the
//!   init sequence, REQA/WUPA, anticollision and select through the cascade levels, HLTA.
//! - [`AntennaSelect`]: one reader, many antennas: [`AddressMux`] (an analogue multiplexer such
//!   as a CD74HC4067 or 74HC4051 on GPIO address lines) or [`EnableLines`] (one switch line per
//!   antenna), each mapping sensed cells to switch positions from a table and settling after a
//!   switch.
//! - [`TagReader`]: the front end. [`TagReader::read_cells`] reads only the cells the sensing
//!   model asks about ([`Sensing::tag_reads_wanted`]: cells where a piece was just placed),
//!   votes over a few attempts ([`Voting`], default 2 of at most 3) and returns
//!   [`SensorInput::Tag`] values to feed back.
//! - [`crc_a`]: the ISO/IEC 14443-3 CRC_A, in software.
//!
//! [`Sensing::tag_reads_wanted`]: crate::sensing::Sensing::tag_reads_wanted
//! [`SensorInput::Tag`]: crate::sensing::SensorInput::Tag
//!
//! # Why not the `mfrc522` crate
//! The `mfrc522` crate (0.8) works, but two things in it do not fit a reader that is asked about
//! one square at a time (notes/hardware.md 4.2 and 2.5):
//! - **A 25 ms wait on an empty antenna.** It programs the chip's timer to TPrescaler 0xA9 and
//!   TReload 1000, a 25 ms timeout for every transceive, and has no way to change it. Here the
//!   timer runs out after 2 ms ([`mfrc522::init_values`]), still more than ten times the longest
//!   wait for a tag's answer (see the timing below).
//! - **In-place SPI transfers.** It reads registers with `transfer_in_place([addr | 0x80, 0])`.
//!   rppal's embedded-hal `SpiDevice` maps an in-place transfer to a read-only spidev segment,
//!   so the chip is clocked zeros instead of the address and every register read returns
//!   register 0. This driver uses `transfer` with separate write and read buffers, which every
//!   HAL (rppal, rpi-pal, linux-embedded-hal) sends as written.
//!
//! It also computes CRC_A in software rather than with the chip's CalcCRC command, which saves
//! a command, a poll loop and two register reads per SELECT and is testable without a chip.
//!
//! # Timing (computed, not measured)
//! ISO/IEC 14443A at 106 kbit/s: 1 etu = 128 / 13.56 MHz = 9.44 us; a byte with parity is
//! 9 etu = 85 us.
//!
//! | step | on air | notes |
//! |---|---|---|
//! | WUPA + ATQA | ~0.37 ms | 7-bit frame, ~91 us frame delay, 2-byte answer |
//! | one cascade level (ANTICOLLISION + SELECT) | ~2.05 ms | hardware.md 4.3 |
//! | HLTA | ~0.36 ms + 2.0 ms | a tag never answers it, so the timeout runs out |
//! | no tag (WUPA unanswered) | ~0.1 ms + 2.0 ms | `mfrc522` crate: 25 ms |
//!
//! The timer starts at the end of each transmission and stops as an answer starts, so the
//! 2.0 ms timeout only has to cover the frame delay (~91 us): a 20-fold margin.
//!
//! A 7-byte NTAG UID ([`Mfrc522::read_uid`]): ~0.37 + 2 x 2.05 + 2.36 = **~6.8 ms on air**, plus
//! SPI traffic: each frame is 7 register writes, the ComIrqReg polls (overlapping the air time)
//! and 4 reads, so about 67 SPI transfers per UID besides the polls, each a spidev ioctl of
//! tens of microseconds on a Pi: expect **~9-10 ms per read**. Polls are
//! [`mfrc522::POLL_INTERVAL_US`] apart and bounded by [`mfrc522::MAX_POLLS`] (at least 5 ms) in
//! case the chip never reports.
//!
//! Per cell through [`TagReader`] with the default [`Voting`] (2 of at most 3):
//!
//! | case | reads | time |
//! |---|---|---|
//! | switch to another antenna | - | + 5.1 ms ([`DEFAULT_SETTLE_US`], the ISO 14443-3 field-on guard) |
//! | clean NTAG | 2 | ~20 ms |
//! | one flaky read | 3 | ~30 ms |
//! | empty antenna | 2 | ~5 ms (`mfrc522` crate: 2 x 25 ms) |
//!
//! So a move (one placement) is read in ~25 ms and an attack with both pieces put back in
//! ~50 ms: well inside the sensing model's 150 ms settle window and 300 ms tag wait.

pub mod bank;
mod crc;
pub mod mfrc522;
mod reader;

#[cfg(test)]
mod mfrc522_tests;

pub use bank::{
    start_bank, BankError, BankReader, DecodedDevice, DecodedError, DecoderError, ReaderBank,
    SelectDecoder, StartError,
};
pub use crc::{crc_a, crc_a_ok};
pub use mfrc522::{
    Atqa, ChipState, ChipVersion, Error, Garble, Mfrc522, Mfrc522Ready, Register, Selected,
};
pub use reader::{ReadTag, TagReader, Voting};
