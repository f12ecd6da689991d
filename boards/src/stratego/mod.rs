//! Classic Stratego and Stratego Duel (the rulebook *Stratego: Rules of the Game, as told by the
//! Bluecoat Lieutenant*; our rulings in the root `README.md`, "Stratego rulings").
//!
//! The board is 10x10 with two 2x2 lakes (files c-d and g-h, ranks 5-6). Red sits at rank 1 and
//! moves first; Blue sits at rank 10. Squares are written `a1`..`j10` from Red's side; a move is
//! `a4-a5` and an attack `a4xa5`.
//!
//! - [`Position`]: the whole truth, every rank included; implements [`Game`](crate::Game).
//! - [`Deployment`] / [`Setup`]: untrusted set-ups, validated with every problem at once.
//! - [`View`]: what one seat sees. It is a different type from the position and holds an enemy
//!   rank only once the rules have revealed it (a battle, or a Scout moving more than one square).
//! - [`Options`]: the variant and the switchable two-squares and more-squares rules.

mod end;
mod position;
mod rank;
mod setup;
mod square;
mod view;
mod zobrist;

pub use end::EndReason;
pub use position::{Battle, BattleResult, Illegal, Move, MoveList, Outcome, Position, MAX_MOVES};
pub use rank::{Piece, Rank, Variant};
pub use setup::{Deployment, DiagramProblem, ParseProblem, Setup, SetupProblem};
pub use square::Square;
pub use view::{EnemyPiece, Seen, View};

use crate::Seat;
use serde::{Deserialize, Serialize};

/// Red: sits at rank 1 and moves first ("The Redcoats will make the first move").
pub const RED: Seat = Seat::FIRST;
/// Blue: sits at rank 10 and moves second.
pub const BLUE: Seat = Seat::SECOND;

/// The name of a Stratego seat: "Red" or "Blue".
pub fn seat_name(seat: Seat) -> &'static str {
    if seat == RED {
        "Red"
    } else {
        "Blue"
    }
}

/// The parameters of a game: the variant and the rules that forbid endless repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Options {
    /// Classic (40 pieces each) or Duel (10 pieces each).
    pub variant: Variant,
    /// The two-squares rule: a piece may not move more than this many times in a row between the
    /// same two squares (ISF 10.1: 3; attacks count). `None` turns the rule off.
    pub two_squares: Option<u8>,
    /// The more-squares rule: a player continuously chasing may not make a chasing move that
    /// recreates a position of the chase (ISF 11).
    pub more_squares: bool,
}

impl Options {
    /// The given variant under the rulebook's code of conduct, counted as the ISF counts it:
    /// two-squares limit 3 ("they cannot travel more than three times back and forth between the
    /// same two places"), more-squares on ("we do not chase endlessly after the same enemy").
    pub const fn isf(variant: Variant) -> Options {
        Options {
            variant,
            two_squares: Some(3),
            more_squares: true,
        }
    }

    /// The given variant with both repetition rules off: a house rule (the rulebook's code of
    /// conduct forbids both), and the benchmark workload.
    pub const fn plain(variant: Variant) -> Options {
        Options {
            variant,
            two_squares: None,
            more_squares: false,
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options::isf(Variant::Classic)
    }
}
