//! The manoeuvre cards of the Standard and Expert games: the five kinds a hand holds ([`Card`]).
//! Playing one, with its choice, is an action of the game.

use core::fmt;

use serde::{Deserialize, Serialize};

/// A manoeuvre card (Standard and Expert games).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Card {
    /// Look at four adjoining enemy pieces.
    Reconnaissance,
    /// Move three pieces in one action.
    Initiative,
    /// Attack with one infantry, one cavalry and one artillery in one action.
    CombinedAttack,
    /// +1 strength to one piece; also playable in defence.
    FightingSpirit,
    /// All adjoining artillery fire once in one action.
    GrandBattery,
}

impl Card {
    /// The five kinds.
    pub const ALL: [Card; 5] = [
        Card::Reconnaissance,
        Card::Initiative,
        Card::CombinedAttack,
        Card::FightingSpirit,
        Card::GrandBattery,
    ];
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Card::Reconnaissance => "Reconnaissance",
            Card::Initiative => "Initiative",
            Card::CombinedAttack => "Combined attack",
            Card::FightingSpirit => "Fighting spirit",
            Card::GrandBattery => "Grand battery",
        })
    }
}
