//! A compact set of sensed cells: which switches read a piece.

use core::fmt;

use serde::{Deserialize, Serialize};

/// The most sensed cells one board can have: 12x10 squares plus generous tray rows fit, and
/// Napoléon's map of 39 towns with their slots, two battle boards and three trays (806 cells
/// on its 26 x 31 grid).
pub const MAX_CELLS: usize = 1024;

/// [`MAX_CELLS`] in words, for a decoded cell number out of range.
const CELL_RANGE: &str = "0 to 1023";
const _: () = assert!(
    MAX_CELLS == 1024,
    "CELL_RANGE says 0 to MAX_CELLS - 1 in words"
);

/// One sensed cell: a reed switch (and maybe an NFC antenna), numbered by the scanner from 0.
/// Decodes only below [`MAX_CELLS`], the most the sensing model handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u16")]
pub struct SensedCell(u16);

impl TryFrom<u16> for SensedCell {
    type Error = boards::decode::OutOfRange;

    fn try_from(number: u16) -> Result<SensedCell, Self::Error> {
        if usize::from(number) < MAX_CELLS {
            Ok(SensedCell(number))
        } else {
            Err(boards::decode::OutOfRange::new(
                "a sensed cell number",
                number,
                CELL_RANGE,
            ))
        }
    }
}

impl SensedCell {
    /// The cell the scanner numbers `number`.
    pub const fn new(number: u16) -> SensedCell {
        SensedCell(number)
    }

    /// The scanner's number for this cell.
    pub const fn number(self) -> u16 {
        self.0
    }

    /// The number as an index, usable for arrays and bitsets.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for SensedCell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sensor {}", self.0)
    }
}

const WORDS: usize = MAX_CELLS / 64;

/// A set of sensed cells, as a bitset of [`MAX_CELLS`] bits: the occupied switches of one scan, or of the
/// settled board.
///
/// Cells at or beyond [`MAX_CELLS`] are never members: inserting one does nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Occupancy([u64; WORDS]);

impl Occupancy {
    /// No cell occupied.
    pub const EMPTY: Occupancy = Occupancy([0; WORDS]);

    /// The set of `cells`; cells at or beyond [`MAX_CELLS`] are left out.
    pub fn from_cells(cells: impl IntoIterator<Item = SensedCell>) -> Occupancy {
        let mut o = Occupancy::EMPTY;
        for c in cells {
            o.insert(c);
        }
        o
    }

    /// Reads a picture of marks, one per cell in cell order: `.` is empty, `X` (or `x`)
    /// occupied. Whitespace is skipped, so rows may be written on separate lines. Handy in tests
    /// and simulator scripts: `".X..X"` has cells 1 and 4 occupied.
    ///
    /// # Errors
    /// A character that is neither mark nor whitespace, or more than [`MAX_CELLS`] marks.
    pub fn from_marks(marks: &str) -> Result<Occupancy, MarksError> {
        let mut o = Occupancy::EMPTY;
        let mut n = 0usize;
        for (offset, ch) in marks.char_indices() {
            if ch.is_whitespace() {
                continue;
            }
            let occupied = match ch {
                '.' => false,
                'X' | 'x' => true,
                _ => return Err(MarksError::UnknownMark { mark: ch, offset }),
            };
            if n >= MAX_CELLS {
                return Err(MarksError::TooManyMarks);
            }
            if occupied {
                o.set_index(n, true);
            }
            n += 1;
        }
        Ok(o)
    }

    /// Whether `cell` is occupied.
    pub fn contains(&self, cell: SensedCell) -> bool {
        let i = cell.index();
        i < MAX_CELLS && self.0[i / 64] & (1 << (i % 64)) != 0
    }

    /// Marks `cell` occupied (ignored beyond [`MAX_CELLS`]).
    pub fn insert(&mut self, cell: SensedCell) {
        self.set(cell, true);
    }

    /// Marks `cell` empty.
    pub fn remove(&mut self, cell: SensedCell) {
        self.set(cell, false);
    }

    /// Marks `cell` occupied or empty (ignored beyond [`MAX_CELLS`]).
    pub fn set(&mut self, cell: SensedCell, occupied: bool) {
        self.set_index(cell.index(), occupied);
    }

    fn set_index(&mut self, i: usize, occupied: bool) {
        if let Some(word) = self.0.get_mut(i / 64) {
            let bit = 1u64 << (i % 64);
            if occupied {
                *word |= bit;
            } else {
                *word &= !bit;
            }
        }
    }

    /// The occupied cells, in cell order (a word at a time: an empty board costs 16 tests).
    pub fn iter(&self) -> impl Iterator<Item = SensedCell> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            core::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let bit = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(SensedCell::new((w * 64 + bit) as u16))
            })
        })
    }

    /// The occupied cell of the highest number, if any.
    pub fn last(&self) -> Option<SensedCell> {
        let (w, word) = self.0.iter().enumerate().rev().find(|(_, w)| **w != 0)?;
        Some(SensedCell::new(
            (w * 64 + 63 - word.leading_zeros() as usize) as u16,
        ))
    }

    /// How many cells are occupied.
    pub fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether no cell is occupied.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    /// The picture of the first `len` cells, as read by [`Occupancy::from_marks`].
    pub fn to_marks(&self, len: usize) -> String {
        (0..len.min(MAX_CELLS))
            .map(|i| {
                if self.contains(SensedCell::new(i as u16)) {
                    'X'
                } else {
                    '.'
                }
            })
            .collect()
    }
}

impl FromIterator<SensedCell> for Occupancy {
    fn from_iter<I: IntoIterator<Item = SensedCell>>(iter: I) -> Self {
        Occupancy::from_cells(iter)
    }
}

/// Why a picture of marks could not be read as an [`Occupancy`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarksError {
    /// A character other than `.`, `X`, `x` or whitespace.
    UnknownMark {
        /// The character.
        mark: char,
        /// Its byte offset in the picture.
        offset: usize,
    },
    /// More marks than a board can have cells.
    TooManyMarks,
}

impl fmt::Display for MarksError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MarksError::UnknownMark { mark, offset } => write!(
                f,
                "unknown mark {mark:?} at byte {offset}: write '.' for an empty cell and 'X' for \
                 an occupied one"
            ),
            MarksError::TooManyMarks => write!(
                f,
                "more than {MAX_CELLS} marks: a board has at most {MAX_CELLS} sensed cells"
            ),
        }
    }
}

impl std::error::Error for MarksError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_round_trip_and_skip_whitespace() {
        let o = Occupancy::from_marks(".X..\n X.").unwrap();
        assert_eq!(
            o.iter().collect::<Vec<_>>(),
            [SensedCell::new(1), SensedCell::new(4)]
        );
        assert_eq!(o.count(), 2);
        assert_eq!(o.to_marks(6), ".X..X.");
        assert!(Occupancy::from_marks("....").unwrap().is_empty());
    }

    #[test]
    fn bad_marks_are_reported_with_their_place() {
        assert_eq!(
            Occupancy::from_marks("..o"),
            Err(MarksError::UnknownMark {
                mark: 'o',
                offset: 2
            })
        );
        let long = ".".repeat(MAX_CELLS + 1);
        assert_eq!(Occupancy::from_marks(&long), Err(MarksError::TooManyMarks));
        assert!(Occupancy::from_marks(&long[1..]).is_ok());
    }

    #[test]
    fn cells_beyond_the_capacity_are_never_members() {
        let mut o = Occupancy::EMPTY;
        let last = SensedCell::new(MAX_CELLS as u16 - 1);
        o.insert(last);
        o.insert(SensedCell::new(MAX_CELLS as u16));
        o.insert(SensedCell::new(u16::MAX));
        assert_eq!(o.iter().collect::<Vec<_>>(), [last]);
        assert!(!o.contains(SensedCell::new(MAX_CELLS as u16)));
        o.remove(last);
        assert!(o.is_empty());
    }

    #[test]
    fn iter_and_last_agree_with_contains_across_words() {
        let cells = [
            0u16,
            1,
            63,
            64,
            65,
            127,
            128,
            500,
            1000,
            MAX_CELLS as u16 - 1,
        ];
        let o = Occupancy::from_cells(cells.iter().map(|&c| SensedCell::new(c)));
        let every: Vec<SensedCell> = (0..MAX_CELLS as u16)
            .map(SensedCell::new)
            .filter(|&c| o.contains(c))
            .collect();
        assert_eq!(o.iter().collect::<Vec<_>>(), every);
        assert_eq!(every.len(), cells.len());
        assert_eq!(o.last(), Some(SensedCell::new(MAX_CELLS as u16 - 1)));
        assert_eq!(Occupancy::EMPTY.last(), None);
        assert_eq!(Occupancy::EMPTY.iter().count(), 0);
        let low = Occupancy::from_cells([SensedCell::new(3), SensedCell::new(70)]);
        assert_eq!(low.last(), Some(SensedCell::new(70)));
    }
}
