//! Where a game stands within a turn ([`Phase`]) and why it ended ([`EndReason`]): the position
//! keeps them, and a seat's view shows them.

use core::fmt;

use serde::{Deserialize, Serialize};

/// Where the game is within a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// The phasing side moves pieces.
    Movement,
    /// The phasing side points each piece next to an enemy at a target.
    Designation,
    /// The phasing side picks the next designated attack to resolve.
    Resolution,
    /// Chance rolls the combat dice, one at a time.
    Rolling,
    /// The victor may eliminate one losing piece.
    Elimination,
    /// The victor retreats the losing pieces.
    Retreat,
    /// The victorious attacker may move one attacking piece into the emptied square.
    Advance,
    /// The Allies may bring on Prussians.
    Reinforcement,
    /// The game is over.
    Over,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Movement => "movement",
            Phase::Designation => "combat: designating attacks",
            Phase::Resolution => "combat: choosing the next attack",
            Phase::Rolling => "combat: rolling dice",
            Phase::Elimination => "combat: elimination",
            Phase::Retreat => "combat: retreats",
            Phase::Advance => "combat: advance",
            Phase::Reinforcement => "reinforcement",
            Phase::Over => "game over",
        })
    }
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndReason {
    /// The French captured all three of their objectives.
    ObjectivesCaptured,
    /// The Allies captured Plancenoit.
    PlancenoitCaptured,
    /// Napoleon was eliminated.
    NapoleonEliminated,
    /// The turn marker left the map before the French took all their objectives.
    TimeUp,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::ObjectivesCaptured => "the French captured all three objectives",
            EndReason::PlancenoitCaptured => "the Allies captured Plancenoit",
            EndReason::NapoleonEliminated => "Napoleon was eliminated",
            EndReason::TimeUp => "the French failed to capture their objectives in time",
        })
    }
}
