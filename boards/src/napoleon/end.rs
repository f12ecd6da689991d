//! Why a game of Napoléon ended ([`EndReason`], rulebook 10) and which side won by it: the game
//! decides it, and a seat's view shows it.

use core::fmt;

use serde::{Deserialize, Serialize};

use super::army::Army;

/// Why the game ended (10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndReason {
    /// Both Allied armies are defeated, the French not (10.1: "De Fransen winnen indien ze
    /// beide geallieerde legers verslaan").
    AlliesDefeated,
    /// The French, undefeated, hold two supply cities after the last French turn (10.1).
    SupplyCitiesHeld,
    /// The French are defeated, the Allies not both (10.2).
    FrenchDefeated,
    /// The last turn passed without a French victory (10.2).
    TimeRanOut,
    /// All three armies are defeated at once: the French win (10.1: "De Fransen winnen ook
    /// indien alle drie legers gelijktijdig zouden worden verslagen"), though the Allies have
    /// destroyed the 12 French units of 10.2. Last, so journals written before it still read.
    AllDefeated,
    /// Ruling: one Allied army fell in an earlier turn, the other in the same turn as the
    /// French. The rulebook names all three falling at once (10.1) but not this; the French
    /// have defeated both Allied armies (10.1) just as the Allies destroyed 12 French units
    /// (10.2), and we rule as for all three at once: the French win.
    LastAllyFellWithTheFrench,
}

impl EndReason {
    /// The first army of the side that won: the French, or for the Allies the Anglo-Dutch
    /// (whose seat [`Status::Won`](crate::Status) names); [`EndReason::winning_armies`] lists
    /// the whole side.
    pub const fn winner(self) -> Army {
        match self {
            EndReason::AlliesDefeated
            | EndReason::SupplyCitiesHeld
            | EndReason::AllDefeated
            | EndReason::LastAllyFellWithTheFrench => Army::French,
            EndReason::FrenchDefeated | EndReason::TimeRanOut => Army::AngloDutch,
        }
    }

    /// Every army of the side that won: the French alone, or both Allied armies (10.2: "De
    /// geallieerden winnen").
    pub const fn winning_armies(self) -> &'static [Army] {
        match self {
            EndReason::AlliesDefeated
            | EndReason::SupplyCitiesHeld
            | EndReason::AllDefeated
            | EndReason::LastAllyFellWithTheFrench => &[Army::French],
            EndReason::FrenchDefeated | EndReason::TimeRanOut => {
                &[Army::AngloDutch, Army::Prussian]
            }
        }
    }

    /// Whether the Allies won.
    pub const fn allies_won(self) -> bool {
        self.winner().is_allied()
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::AlliesDefeated => "the French defeated both Allied armies",
            EndReason::SupplyCitiesHeld => "the French hold two supply cities",
            EndReason::FrenchDefeated => "the Allies defeated the French",
            EndReason::TimeRanOut => "time ran out: the Allies win",
            EndReason::AllDefeated => "all three armies fell at once: the French win",
            EndReason::LastAllyFellWithTheFrench => {
                "the last Allied army fell with the French: the French win"
            }
        })
    }
}
