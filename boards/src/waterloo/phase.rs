//! What a game waits for ([`Phase`]) and why it ended ([`EndReason`]): the game keeps them, and a
//! seat's view shows them.

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::Seat;

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// Chance: a line-of-retreat card for this seat.
    DrawRetreat(Seat),
    /// Chance: "Where are the Prussians?" die.
    PrussianDie,
    /// Chance: the next Prussian drawn.
    PrussianDraw,
    /// Chance: the battle die.
    BattleDie,
    /// The card draft: this seat takes a card (keep or discard).
    Draft(Seat),
    /// The Allied player takes cards from the discard pile as the Prussians arrive.
    PrussianCards,
    /// The attacked piece's owner may play Fighting spirit in defence.
    Defence(Seat),
    /// A frenzy in a building: the winner's owner chooses which piece in it to attack.
    FrenzyChoice(Seat),
    /// The seat to play acts.
    Act,
    /// The game is over.
    Over,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndReason {
    /// Two units on the loser's line of retreat.
    LinesOfRetreat,
    /// The loser has lost both commander and commander-in-chief (no actions left).
    NoCommanders,
    /// The loser's commander-in-chief was captured (Standard; Expert: Napoleon).
    CommanderInChief,
    /// Nightfall: the turn limit of [`Options::last_turn`](super::Options::last_turn).
    Nightfall,
    /// Expert: after the Pursuit, a casualty difference of 3 or less: indecisive (a draw).
    Indecisive,
    /// Expert: after the Pursuit, a difference of 4 to 9: a minor victory.
    MinorVictory,
    /// Expert: after the Pursuit, a difference of 10 or more: a major victory.
    MajorVictory,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::LinesOfRetreat => "the lines of retreat were severed",
            EndReason::NoCommanders => "the commander and commander-in-chief were lost",
            EndReason::CommanderInChief => "the commander-in-chief was captured",
            EndReason::Nightfall => "night fell",
            EndReason::Indecisive => "the pursuit was indecisive",
            EndReason::MinorVictory => "a minor victory after the pursuit",
            EndReason::MajorVictory => "a major victory after the pursuit",
        })
    }
}
