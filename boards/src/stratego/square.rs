//! Squares of the 10x10 board and the padded index the move generator uses.

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::decode::OutOfRange;
use crate::geometry::grid::Cell;

/// A square of the 10x10 board: `row * 10 + col`, with row 0 at Red's edge (rank 1) and column 0
/// on Red's left (file a). Decodes only from an index below 100.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8")]
pub struct Square(u8);

impl TryFrom<u8> for Square {
    type Error = OutOfRange;

    fn try_from(i: u8) -> Result<Square, OutOfRange> {
        Square::from_index(i).ok_or(OutOfRange::new("a Stratego square index", i, "0 to 99"))
    }
}

/// Width of the padded board: one guard column each side.
pub(crate) const PAD_W: usize = 12;
/// Cells of the padded board: 12x12, the 10x10 board in the middle.
pub(crate) const PAD_CELLS: usize = PAD_W * PAD_W;

const fn build_unpad() -> [u8; PAD_CELLS] {
    let mut t = [u8::MAX; PAD_CELLS];
    let mut i = 0;
    while i < 100 {
        t[(i / 10 + 1) * PAD_W + i % 10 + 1] = i as u8;
        i += 1;
    }
    t
}

/// Padded index to square index, `u8::MAX` off the board.
pub(crate) const UNPAD: [u8; PAD_CELLS] = build_unpad();

impl Square {
    /// The square at `col` (0 = file a) and `row` (0 = rank 1), if both are below 10.
    pub const fn new(col: u8, row: u8) -> Option<Square> {
        if col < 10 && row < 10 {
            Some(Square(row * 10 + col))
        } else {
            None
        }
    }

    /// The square with index `i` (0..100).
    pub const fn from_index(i: u8) -> Option<Square> {
        if i < 100 {
            Some(Square(i))
        } else {
            None
        }
    }

    /// Every square, a1 first, row by row.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..100).map(Square)
    }

    /// Index 0..100.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column, 0 = file a.
    pub const fn col(self) -> u8 {
        self.0 % 10
    }

    /// Row, 0 = rank 1 (Red's edge).
    pub const fn row(self) -> u8 {
        self.0 / 10
    }

    /// Whether this is one of the eight lake squares (c5, d5, g5, h5, c6, d6, g6, h6).
    pub const fn is_lake(self) -> bool {
        let (c, r) = (self.col(), self.row());
        (r == 4 || r == 5) && (c == 2 || c == 3 || c == 6 || c == 7)
    }

    /// As a grid cell.
    pub const fn cell(self) -> Cell {
        Cell::new(self.col(), self.row())
    }

    /// The square for a grid cell, if it is on the 10x10 board.
    pub const fn from_cell(c: Cell) -> Option<Square> {
        Square::new(c.col, c.row)
    }

    /// Parses `a1`..`j10`.
    pub fn parse(s: &str) -> Option<Square> {
        Cell::parse(s).and_then(Square::from_cell)
    }

    /// Squares one step apart orthogonally.
    pub fn is_adjacent(self, other: Square) -> bool {
        self.col().abs_diff(other.col()) + self.row().abs_diff(other.row()) == 1
    }

    /// The square with index `i`, which the caller knows is below 100.
    pub(crate) const fn from_index_unchecked(i: usize) -> Square {
        Square(i as u8)
    }

    pub(crate) const fn pad(self) -> usize {
        (self.0 as usize / 10 + 1) * PAD_W + self.0 as usize % 10 + 1
    }

    pub(crate) const fn from_pad(p: usize) -> Square {
        Square(UNPAD[p])
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col()) as char, self.row() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn padding_round_trips() {
        for s in Square::all() {
            assert_eq!(Square::from_pad(s.pad()), s);
            assert_eq!(Square::parse(&s.to_string()), Some(s));
        }
        assert_eq!(Square::parse("k1"), None);
        assert_eq!(Square::parse("a11"), None);
    }

    /// A journal whose move goes to `Square(122)` once panicked every boot: such an index no
    /// longer decodes.
    #[test]
    fn an_index_off_the_board_does_not_decode() {
        use crate::decode::testing::from_value;
        assert_eq!(from_value::<Square, u8>(99), Ok(Square(99)));
        let err = from_value::<Square, u8>(122).unwrap_err();
        assert!(
            err.contains("a Stratego square index 122 is out of range (0 to 99)"),
            "{err}"
        );
        assert!(postcard::from_bytes::<Square>(&[100]).is_err());
    }

    #[test]
    fn eight_lake_squares() {
        assert_eq!(Square::all().filter(|s| s.is_lake()).count(), 8);
        assert!(Square::parse("c5").is_some_and(Square::is_lake));
        assert!(Square::parse("h6").is_some_and(Square::is_lake));
        assert!(!Square::parse("e5").is_some_and(Square::is_lake));
    }
}
