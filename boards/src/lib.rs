//! The games Umpire referees: geometry, pieces and rules.
//!
//! Pure by design: no I/O, no clock, no randomness. Time and chance arrive as inputs (a chance
//! outcome is an ordinary action), so every game replays exactly from its action list. See
//! [`game::Game`] for the shape all games share, [`stratego`] for classic Stratego and Duel,
//! [`piecepack`] for Piecepack at Waterloo, [`waterloo`] for Stratego: Waterloo, [`sba`] for Sa
//! Belle Alliance and [`napoleon`] for Napoléon's map, order of battle and turn track.
#![no_std]
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used))]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod decode;
pub mod game;
pub mod geometry;
pub mod napoleon;
pub mod piecepack;
pub mod sba;
pub mod seat;
pub mod stratego;
pub mod waterloo;

pub use game::{Actor, Game, Problems, Status};
pub use seat::{BySeat, Seat};
