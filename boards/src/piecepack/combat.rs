//! A combat ([`Combat`]): the square fought over, the pieces on each side, the dice rolled, and
//! each side's count ([`Tally`]). The position fights it; a seat's view shows it, every piece in
//! it revealed.

use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::square::Square;
use super::unit::{Face, Units};
use crate::Seat;

/// One side's count in a combat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Tally {
    /// Piece values plus dice, symbols doubling the largest numerical results.
    pub total: u16,
    /// The highest number rolled on this side's dice (a blank is 0; symbols are none).
    pub highest_die: Option<u8>,
    /// The highest single undoubled numerical result, piece values included.
    pub highest_result: Option<u8>,
}

impl Tally {
    /// Counts `pieces` and `dice`: "Symbol and blanks are considered "0"", "each symbol roll
    /// allows one numerical result ... to count double. No numerical result can be more than
    /// doubled and excess doubles are lost."
    pub fn count(pieces: Units, dice: &[Face]) -> Tally {
        let mut numbers: Vec<u8> = pieces
            .iter()
            .filter_map(|u| u.value().and_then(Face::number))
            .collect();
        let die_numbers = dice.iter().filter_map(|f| f.number());
        let highest_die = die_numbers.clone().max();
        numbers.extend(die_numbers);
        let highest_result = numbers.iter().copied().max();
        let doubles = dice.iter().filter(|f| **f == Face::Symbol).count();
        numbers.sort_unstable_by(|a, b| b.cmp(a));
        let base: u16 = numbers.iter().map(|&n| u16::from(n)).sum();
        let doubled: u16 = numbers.iter().take(doubles).map(|&n| u16::from(n)).sum();
        Tally {
            total: base + doubled,
            highest_die,
            highest_result,
        }
    }
}

/// The combat being fought: every piece in it is revealed to both sides.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Combat {
    /// The defending square.
    pub target: Square,
    /// The attacking side.
    pub attacker: Seat,
    /// The attacking pieces.
    pub attackers: Units,
    /// The defending pieces.
    pub defenders: Units,
    /// How many dice each side rolls: attacker, defender.
    pub dice: [u8; 2],
    /// The faces rolled so far, the attacker's dice first.
    pub rolls: Vec<Face>,
    /// The victor, once decided (`None` while rolling or after a stalemate).
    pub victor: Option<Seat>,
    /// The losing pieces still to retreat.
    pub retreating: Units,
}

impl Combat {
    /// The dice of one side so far: `attacker` true for the attacker's.
    pub fn dice_of(&self, attacker: bool) -> &[Face] {
        let split = usize::from(self.dice[0]).min(self.rolls.len());
        if attacker {
            &self.rolls[..split]
        } else {
            &self.rolls[split..]
        }
    }

    /// Both tallies, attacker first, from the dice rolled so far.
    pub fn tallies(&self) -> [Tally; 2] {
        [
            Tally::count(self.attackers, self.dice_of(true)),
            Tally::count(self.defenders, self.dice_of(false)),
        ]
    }
}
