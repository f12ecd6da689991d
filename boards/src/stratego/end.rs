//! How a game of Stratego ends ([`EndReason`]): the position decides it, and a seat's view shows
//! it.

use core::fmt;

use serde::{Deserialize, Serialize};

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndReason {
    /// The winner captured the opponent's Flag.
    FlagCaptured,
    /// The loser could not move or attack on their turn.
    NoMovesLeft,
    /// Neither player can move: a draw.
    NeitherCanMove,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::FlagCaptured => "the Flag was captured",
            EndReason::NoMovesLeft => "the other player cannot move",
            EndReason::NeitherCanMove => "neither player can move",
        })
    }
}
