//! Seats at the table and values held per seat.

use core::fmt;
use core::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

use crate::decode::OutOfRange;

/// A player's place at the table, numbered in turn order from 0.
///
/// Two-player games use [`Seat::FIRST`] and [`Seat::SECOND`]; Napoléon has a third,
/// [`Seat::THIRD`], when the Allies are two players. What a seat is called (Red, French, ...)
/// belongs to each game. Decodes only below [`Seat::LIMIT`]; a two-player game's journal reader
/// refuses a third seat itself (its [`BySeat`] holds two), as the firmware's table session does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8")]
pub struct Seat(u8);

impl TryFrom<u8> for Seat {
    type Error = OutOfRange;

    fn try_from(index: u8) -> Result<Seat, OutOfRange> {
        if usize::from(index) < Seat::LIMIT {
            Ok(Seat(index))
        } else {
            Err(OutOfRange::new(
                "a seat",
                index,
                "0 to 2: no game has more than three seats",
            ))
        }
    }
}

impl Seat {
    /// The seat that acts first in a two-player game.
    pub const FIRST: Seat = Seat(0);
    /// The seat that acts second in a two-player game.
    pub const SECOND: Seat = Seat(1);
    /// The third seat: Napoléon's Prussian player when the Allies are two players (rulebook
    /// 11). Never a seat of a two-player game, nor an index of [`BySeat`].
    pub const THIRD: Seat = Seat(2);
    /// How many seats a decoded seat may index: the most any game has (Napoléon's three).
    /// Two-player games keep [`BySeat`], of length [`BySeat::SEATS`], and take only seats below
    /// that from their players and journals.
    pub const LIMIT: usize = 3;

    /// The seat with this turn-order index.
    pub const fn new(index: u8) -> Seat {
        Seat(index)
    }

    /// The turn-order index, usable to index arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The other seat of a two-player game (for [`Seat::FIRST`] and [`Seat::SECOND`] only).
    #[must_use]
    pub const fn opponent(self) -> Seat {
        Seat(self.0 ^ 1)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", u16::from(self.0) + 1)
    }
}

/// One value for each seat of a two-player game, indexed by [`Seat`].
///
/// Like shakmaty's `ByColor`: a pair you index by seat rather than two named fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BySeat<T>(pub [T; 2]);

impl<T> BySeat<T> {
    /// How many seats it holds: two. A seat at or beyond this (Napoléon's [`Seat::THIRD`]) is
    /// not one of its indexes; [`BySeat::get`] answers `None` for it.
    pub const SEATS: usize = 2;

    /// `seat`'s value, or `None` for a seat a two-player game does not have.
    pub fn get(&self, seat: Seat) -> Option<&T> {
        self.0.get(seat.index())
    }

    /// Builds the value of each seat from the seat.
    pub fn from_fn(mut f: impl FnMut(Seat) -> T) -> Self {
        BySeat(core::array::from_fn(|i| f(Seat(i as u8))))
    }

    /// The seats with their values, in turn order.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        self.0.iter().enumerate().map(|(i, v)| (Seat(i as u8), v))
    }

    /// Applies `f` to each seat's value.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> BySeat<U> {
        BySeat(self.0.map(f))
    }
}

impl<T> Index<Seat> for BySeat<T> {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.index()]
    }
}

impl<T> IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_swaps_the_two_seats() {
        assert_eq!(Seat::FIRST.opponent(), Seat::SECOND);
        assert_eq!(Seat::SECOND.opponent(), Seat::FIRST);
    }

    /// `BySeat` indexing with a decoded seat 2 would panic: it does not decode.
    #[test]
    fn a_seat_beyond_the_table_does_not_decode() {
        use crate::decode::testing::from_value;
        assert_eq!(from_value::<Seat, u8>(1), Ok(Seat::SECOND));
        assert_eq!(from_value::<Seat, u8>(2), Ok(Seat::THIRD));
        let err = from_value::<Seat, u8>(3).unwrap_err();
        assert!(err.contains("a seat 3 is out of range"), "{err}");
        assert!(postcard::from_bytes::<Seat>(&[255, 1]).is_err());
    }

    /// Napoléon's third seat decodes, but a two-player game's pair has no place for it.
    #[test]
    fn a_third_seat_is_no_index_of_a_pair() {
        let pair = BySeat([1, 2]);
        assert_eq!(pair.get(Seat::SECOND), Some(&2));
        assert_eq!(pair.get(Seat::THIRD), None);
        assert_eq!(BySeat::<u8>::SEATS, 2);
    }

    #[test]
    fn by_seat_indexes_in_turn_order() {
        let mut counts = BySeat::from_fn(|s| s.index() as u32 * 10);
        counts[Seat::SECOND] += 1;
        let seen: alloc::vec::Vec<_> = counts.iter().map(|(s, v)| (s.index(), *v)).collect();
        assert_eq!(seen, [(0, 0), (1, 11)]);
    }
}
