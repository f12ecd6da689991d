//! Where pieces can be: the kinds of map the five games use.
//!
//! - [`grid`]: squares on a rectangle, some blocked (Stratego, Waterloo, Piecepack).
//! - [`roads`]: towns joined by roads of different kinds (Napoleon's campaign map).
//! - [`tracks`]: named boxes and numbered tracks (Sa Belle Alliance; turn and morale tracks).
//! - [`stack`]: several pieces on one location, with a per-kind limit (Piecepack).

pub mod grid;
pub mod roads;
pub mod stack;
pub mod tracks;
