//! NFC identity reads: MFRC522 reader modules over SPI reading the factory UIDs of the ISO/IEC
//! 14443A tags (NTAG21x, 7-byte UIDs) under the pieces.
//!
//! - [`Mfrc522`]: the reader IC over any embedded-hal 1.0
//!   [`SpiDevice`](embedded_hal::spi::SpiDevice), **uninitialised**: register access, its
//!   version and state, and [`Mfrc522::init`] (soft reset, a bounded wait for the oscillator,
//!   the 2 ms timer, antenna on, read back). `init` consumes it and returns an
//!   [`Mfrc522Ready`], the only type that reads tags: REQA/WUPA, anticollision (bit by bit when
//!   several tags answer) and select through the cascade levels, HLTA, soft power-down, and
//!   [`Mfrc522Ready::inventory`], every tag in the field. A reader that was never initialised
//!   cannot be asked for a tag: that does not compile.
//! - [`ReaderBank`]: several modules, each flat under a region of one or two squares, one awake
//!   at a time (the others in soft power-down). A read of a cell lists the field of its
//!   region's reader and answers with the tag that was not there at the region's previous read:
//!   the piece just placed. [`start_bank`] initialises every reader and builds it; the service
//!   reads through it ([`TagSource`](crate::service::TagSource)).
//! - [`SelectDecoder`] and [`DecodedDevice`]: the modules share SPI0 and its CE0, which enables a
//!   74HC154; GPIO address lines pick the module (`schematics/nfc.svg`).
//! - [`Voting`]: how many reads of a cell the bank makes and how many must agree (default 2 of
//!   at most 3).
//! - [`crc_a`]: the ISO/IEC 14443-3 CRC_A, in software.
//!
//! # Why not the `mfrc522` crate
//! The `mfrc522` crate (0.8) works, but two things in it do not fit a reader that is asked about
//! one square at a time (`docs/hardware.md` §4 and §5):
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
//! | one cascade level (ANTICOLLISION + SELECT) | ~2.05 ms | `docs/hardware.md` §5 |
//! | HLTA | ~0.36 ms + 2.0 ms | a tag never answers it, so the timeout runs out |
//! | no tag (WUPA unanswered) | ~0.1 ms + 2.0 ms | `mfrc522` crate: 25 ms |
//!
//! The timer starts at the end of each transmission and stops as an answer starts, so the
//! 2.0 ms timeout only has to cover the frame delay (~91 us): a 20-fold margin.
//!
//! A 7-byte NTAG UID ([`Mfrc522Ready::read_uid`]): ~0.37 + 2 x 2.05 + 2.36 = **~6.8 ms on air**, plus
//! SPI traffic: each frame is 7 register writes, the ComIrqReg polls (overlapping the air time)
//! and 4 reads, so about 67 SPI transfers per UID besides the polls, each a spidev ioctl of
//! tens of microseconds on a Pi: expect **~9-10 ms per read**. Polls are
//! [`mfrc522::POLL_INTERVAL_US`] apart and bounded by [`mfrc522::MAX_POLLS`] (at least 5 ms) in
//! case the chip never reports.
//!
//! Per cell through [`ReaderBank`] with the default [`Voting`] (2 of at most 3 listings must
//! name the same new tag), computed, not measured: each listing cycles the field (off
//! [`mfrc522::FIELD_RESET_OFF_US`] = 5 ms so every tag restarts in IDLE, on
//! [`mfrc522::FIELD_ON_GUARD_US`] = 5.1 ms, the ISO 14443-3 guard), then reads each tag in the
//! field (~7 ms on air plus SPI, ~10 ms) and ends on one REQA timeout (~2.1 ms):
//!
//! | tags in the region's field | one listing | a placement (2 listings) |
//! |---|---|---|
//! | 1 (the new piece) | ~22 ms | ~45 ms |
//! | 3 | ~42 ms | ~85 ms |
//! | 4 (a full 2-square region with neighbours' tags in reach) | ~52 ms | ~105 ms |
//!
//! So a placement is identified within the sensing model's 300 ms tag wait even in a crowded
//! region.

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
pub use reader::Voting;
