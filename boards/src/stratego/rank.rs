//! Ranks, pieces and the two variants' armies.

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::Seat;

/// A Stratego rank. The discriminant is the rank's strength for the ten fighting ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum Rank {
    /// Spy (1): defeats the Marshal, but only when she attacks.
    Spy = 1,
    /// Scout (2): moves any distance in a straight line over empty squares.
    Scout = 2,
    /// Miner (3): the only rank that defuses a Bomb.
    Miner = 3,
    /// Sergeant (4).
    Sergeant = 4,
    /// Lieutenant (5).
    Lieutenant = 5,
    /// Captain (6).
    Captain = 6,
    /// Major (7).
    Major = 7,
    /// Colonel (8).
    Colonel = 8,
    /// General (9).
    General = 9,
    /// Marshal (10), the highest rank.
    Marshal = 10,
    /// Bomb: never moves; destroys any attacker but a Miner and stays.
    Bomb = 11,
    /// Flag: never moves; capturing it wins.
    Flag = 12,
}

impl Rank {
    /// Every rank, weakest fighting rank first, then Bomb and Flag.
    pub const ALL: [Rank; 12] = [
        Rank::Spy,
        Rank::Scout,
        Rank::Miner,
        Rank::Sergeant,
        Rank::Lieutenant,
        Rank::Captain,
        Rank::Major,
        Rank::Colonel,
        Rank::General,
        Rank::Marshal,
        Rank::Bomb,
        Rank::Flag,
    ];

    /// The rank with this code (its discriminant, 1..=12).
    pub const fn from_code(code: u8) -> Option<Rank> {
        if code >= 1 && code <= 12 {
            Some(Rank::ALL[code as usize - 1])
        } else {
            None
        }
    }

    /// The discriminant, 1..=12.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// Whether pieces of this rank ever move (Bombs and the Flag never do).
    pub const fn is_movable(self) -> bool {
        !matches!(self, Rank::Bomb | Rank::Flag)
    }

    /// One character: `F` Flag, `B` Bomb, `S` Spy, `2`..`9`, `M` Marshal.
    pub const fn to_char(self) -> char {
        match self {
            Rank::Flag => 'F',
            Rank::Bomb => 'B',
            Rank::Spy => 'S',
            Rank::Marshal => 'M',
            r => (b'0' + r as u8) as char,
        }
    }

    /// The rank written by [`Rank::to_char`] (case-insensitive letters; `1` is the Spy, `0` or
    /// `T` the Marshal, as some boards print them).
    pub fn from_char(c: char) -> Option<Rank> {
        Some(match c.to_ascii_uppercase() {
            'F' => Rank::Flag,
            'B' => Rank::Bomb,
            'S' | '1' => Rank::Spy,
            'M' | 'T' | '0' => Rank::Marshal,
            d @ '2'..='9' => Rank::from_code(d as u8 - b'0')?,
            _ => return None,
        })
    }

    /// The rank's name, singular.
    pub const fn name(self) -> &'static str {
        match self {
            Rank::Spy => "Spy",
            Rank::Scout => "Scout",
            Rank::Miner => "Miner",
            Rank::Sergeant => "Sergeant",
            Rank::Lieutenant => "Lieutenant",
            Rank::Captain => "Captain",
            Rank::Major => "Major",
            Rank::Colonel => "Colonel",
            Rank::General => "General",
            Rank::Marshal => "Marshal",
            Rank::Bomb => "Bomb",
            Rank::Flag => "Flag",
        }
    }

    /// The rank's name, plural.
    pub const fn plural(self) -> &'static str {
        match self {
            Rank::Spy => "Spies",
            Rank::Scout => "Scouts",
            Rank::Miner => "Miners",
            Rank::Sergeant => "Sergeants",
            Rank::Lieutenant => "Lieutenants",
            Rank::Captain => "Captains",
            Rank::Major => "Majors",
            Rank::Colonel => "Colonels",
            Rank::General => "Generals",
            Rank::Marshal => "Marshals",
            Rank::Bomb => "Bombs",
            Rank::Flag => "Flags",
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: whose it is and its rank. Only the umpire knows both for every piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    /// The seat that owns it.
    pub owner: Seat,
    /// Its rank.
    pub rank: Rank,
}

/// Classic Stratego or Stratego Duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Variant {
    /// 40 pieces each on the four rows nearest each player.
    Classic,
    /// "Stratego Duel: for new players": 10 pieces each, anywhere in the first three rows.
    Duel,
}

impl Variant {
    /// How many pieces of `rank` each player has.
    pub const fn count(self, rank: Rank) -> u8 {
        match self {
            // "1x Marshal, 1x General, 2x Colonel, 3x Major, 4x Captain, 4x Lieutenant,
            //  4x Sergeant, 5x Miner, 8x Scout, 1x Spy, 1x Flag, 6x Bomb"
            Variant::Classic => match rank {
                Rank::Marshal | Rank::General | Rank::Spy | Rank::Flag => 1,
                Rank::Colonel => 2,
                Rank::Major => 3,
                Rank::Captain | Rank::Lieutenant | Rank::Sergeant => 4,
                Rank::Miner => 5,
                Rank::Scout => 8,
                Rank::Bomb => 6,
            },
            // "#10 Marshal (1), #9 General (1), #3 Miner (2), #2 Scout (2), Spy (1), Bomb (2),
            //  Flag (1)"
            Variant::Duel => match rank {
                Rank::Marshal | Rank::General | Rank::Spy | Rank::Flag => 1,
                Rank::Miner | Rank::Scout | Rank::Bomb => 2,
                _ => 0,
            },
        }
    }

    /// Pieces per player: 40 or 10.
    pub const fn army_size(self) -> u8 {
        match self {
            Variant::Classic => 40,
            Variant::Duel => 10,
        }
    }

    /// Rows of set-up zone per player: 4 ("four lines of ten") or 3 ("the 30 squares of their
    /// first three rows").
    pub const fn setup_rows(self) -> u8 {
        match self {
            Variant::Classic => 4,
            Variant::Duel => 3,
        }
    }

    /// A short name: `classic` or `duel`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::Duel => "duel",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Variant::Classic => "Stratego Original",
            Variant::Duel => "Stratego Duel",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn armies_add_up() {
        // "32 men + 1 spy + 6 bombs + 1 flag = 40 Bluecoats."
        let total: u32 = Rank::ALL
            .iter()
            .map(|&r| u32::from(Variant::Classic.count(r)))
            .sum();
        assert_eq!(total, 40);
        let duel: u32 = Rank::ALL
            .iter()
            .map(|&r| u32::from(Variant::Duel.count(r)))
            .sum();
        assert_eq!(duel, 10);
    }

    #[test]
    fn rank_chars_round_trip() {
        for r in Rank::ALL {
            assert_eq!(Rank::from_char(r.to_char()), Some(r));
            assert_eq!(Rank::from_code(r.code()), Some(r));
        }
        assert_eq!(Rank::from_char('x'), None);
        assert_eq!(Rank::from_code(0), None);
        assert_eq!(Rank::from_code(13), None);
    }
}
