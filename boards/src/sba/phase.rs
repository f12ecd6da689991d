//! Where a game stands ([`Phase`]) and why it ended ([`EndReason`], an army routed as
//! [`RoutHow`] says): the game keeps them, and a seat's view shows them.

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::Seat;

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// The phasing player chooses an action.
    Act,
    /// Chance rolls the action's die.
    Roll,
    /// This seat chooses the box a casualty comes from (the targeted one is empty).
    TakeFrom(Seat),
    /// Chance rolls this seat's rout test.
    RoutTest(Seat),
    /// The game is over.
    Over,
}

/// How an army routed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RoutHow {
    /// It failed a rout test: the roll beat its morale.
    Test,
    /// A casualty was placed in the casualty track's B box.
    CasualtyTrack,
    /// Its morale marker reached the B square.
    Morale,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndReason {
    /// The loser's army routed.
    Routed(RoutHow),
    /// Ruling: neither player can activate any card (a draw); the rulebook does not foresee it.
    Stalemate,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::Routed(RoutHow::Test) => "an army failed its rout test and routed",
            EndReason::Routed(RoutHow::CasualtyTrack) => {
                "an army's casualties reached the B box and it routed"
            }
            EndReason::Routed(RoutHow::Morale) => "an army's morale reached B and it routed",
            EndReason::Stalemate => "neither army can act any more",
        })
    }
}
