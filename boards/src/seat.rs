//! Seats at the table and values held per seat.

use core::fmt;
use core::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

/// A player's place at the table, numbered in turn order from 0.
///
/// Two-player games use [`Seat::FIRST`] and [`Seat::SECOND`]; Napoleon has three seats. What a
/// seat is called (Red, French, ...) belongs to each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Seat(u8);

impl Seat {
    /// The seat that acts first in a two-player game.
    pub const FIRST: Seat = Seat(0);
    /// The seat that acts second in a two-player game.
    pub const SECOND: Seat = Seat(1);

    /// The seat with this turn-order index.
    pub const fn new(index: u8) -> Seat {
        Seat(index)
    }

    /// The turn-order index, usable to index arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The other seat of a two-player game.
    #[must_use]
    pub const fn opponent(self) -> Seat {
        Seat(self.0 ^ 1)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0 + 1)
    }
}

/// One value for each seat of a two-player game, indexed by [`Seat`].
///
/// Like shakmaty's `ByColor`: a pair you index by seat rather than two named fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BySeat<T>(pub [T; 2]);

impl<T> BySeat<T> {
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

    #[test]
    fn by_seat_indexes_in_turn_order() {
        let mut counts = BySeat::from_fn(|s| s.index() as u32 * 10);
        counts[Seat::SECOND] += 1;
        let seen: alloc::vec::Vec<_> = counts.iter().map(|(s, v)| (s.index(), *v)).collect();
        assert_eq!(seen, [(0, 0), (1, 11)]);
    }
}
