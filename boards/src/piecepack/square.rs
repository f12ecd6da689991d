//! The 8x10 map and its layout data: objectives, the Prussian entry squares, the turn track.

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::decode::OutOfRange;
use crate::game::Problems;

/// Rows A-H.
pub const ROWS: u8 = 8;
/// Columns 1-10.
pub const COLS: u8 = 10;
/// How many squares.
pub const SQUARES: usize = 80;

/// A square of the map, written `A-3`: row A-H from the Allied side, column 1-10 from the Allied
/// player's right. "The rightmost square on the Allied side of the map is A-1 and the rightmost
/// square on the French side is H-10." Decodes only from an index below [`SQUARES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8")]
pub struct Square(u8);

impl TryFrom<u8> for Square {
    type Error = OutOfRange;

    fn try_from(i: u8) -> Result<Square, OutOfRange> {
        Square::from_index(usize::from(i)).ok_or(OutOfRange::new(
            "a piecepack square index",
            i,
            "0 to 79",
        ))
    }
}

impl Square {
    /// The square in `row` (0 = A) and `col` (0 = column 1), if on the map.
    pub const fn new(row: u8, col: u8) -> Option<Square> {
        if row < ROWS && col < COLS {
            Some(Square(row * COLS + col))
        } else {
            None
        }
    }

    /// Like [`Square::new`] for constants: `at(b'A', 3)` is A-3. Off-map names give A-1.
    pub const fn at(row: u8, column: u8) -> Square {
        match Square::new(row.wrapping_sub(b'A'), column.wrapping_sub(1)) {
            Some(s) => s,
            None => Square(0),
        }
    }

    /// The square with this index (row * 10 + column - 1), if on the map.
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < SQUARES {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Index from 0 to 79 (H-10).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Row from 0 (A) to 7 (H).
    pub const fn row(self) -> u8 {
        self.0 / COLS
    }

    /// Column from 0 (column 1) to 9 (column 10).
    pub const fn col(self) -> u8 {
        self.0 % COLS
    }

    /// Every square, A-1 first, row by row.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }

    /// Parses `A-3`, `A3` or `a3`.
    pub fn parse(s: &str) -> Option<Square> {
        let s = s.trim();
        let mut chars = s.chars();
        let row = chars.next()?.to_ascii_uppercase();
        if !row.is_ascii_uppercase() {
            return None;
        }
        let rest = chars.as_str();
        let rest = rest.strip_prefix('-').unwrap_or(rest);
        let col: u8 = rest.parse().ok()?;
        Square::new((row as u8).wrapping_sub(b'A'), col.checked_sub(1)?)
    }

    /// Steps between the two squares along rows and columns.
    pub const fn distance(self, other: Square) -> u8 {
        self.row().abs_diff(other.row()) + self.col().abs_diff(other.col())
    }

    /// King-move steps between the two squares (diagonal steps allowed).
    pub const fn king_distance(self, other: Square) -> u8 {
        let dr = self.row().abs_diff(other.row());
        let dc = self.col().abs_diff(other.col());
        if dr > dc {
            dr
        } else {
            dc
        }
    }

    /// Steps between the two squares: [`king_distance`](Square::king_distance) when
    /// `diagonals`, else [`distance`](Square::distance).
    pub const fn steps(self, other: Square, diagonals: bool) -> u8 {
        if diagonals {
            self.king_distance(other)
        } else {
            self.distance(other)
        }
    }

    /// The squares next to this one: sharing a side, or also a corner when `diagonals`.
    pub fn neighbours(self, diagonals: bool) -> impl Iterator<Item = Square> {
        const STEPS: [(i8, i8); 8] = [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ];
        let n = if diagonals { 8 } else { 4 };
        STEPS[..n].iter().filter_map(move |&(dr, dc)| {
            Square::new(
                self.row().checked_add_signed(dr)?,
                self.col().checked_add_signed(dc)?,
            )
        })
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", (b'A' + self.row()) as char, self.col() + 1)
    }
}

/// A set of squares: bit `i` is the square with index `i`. Decodes only with no bit at or
/// above [`SQUARES`] set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u128")]
pub struct SquareSet(pub u128);

/// The bits of a [`SquareSet`] that are squares.
const SQUARE_BITS: u128 = (1 << SQUARES) - 1;

impl TryFrom<u128> for SquareSet {
    type Error = OutOfRange;

    fn try_from(bits: u128) -> Result<SquareSet, OutOfRange> {
        if bits & !SQUARE_BITS == 0 {
            Ok(SquareSet(bits))
        } else {
            Err(OutOfRange::new(
                "a piecepack square set",
                bits,
                "bits 0 to 79 only",
            ))
        }
    }
}

impl SquareSet {
    /// No squares.
    pub const EMPTY: SquareSet = SquareSet(0);

    /// The set of these squares.
    pub const fn of(squares: &[Square]) -> SquareSet {
        let mut bits = 0;
        let mut i = 0;
        while i < squares.len() {
            bits |= 1 << squares[i].0;
            i += 1;
        }
        SquareSet(bits)
    }

    /// Whether `square` is in the set. (A square's index is below 80, so the shift is in
    /// range: a `Square` cannot be made, or decoded, off the map.)
    pub const fn contains(self, square: Square) -> bool {
        self.0 & (1 << square.0) != 0
    }

    /// Adds `square`.
    pub fn insert(&mut self, square: Square) {
        self.0 |= 1 << square.0;
    }

    /// How many squares.
    pub const fn len(self) -> u32 {
        (self.0 & SQUARE_BITS).count_ones()
    }

    /// Whether it holds none.
    pub const fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The squares, A-1 first.
    pub fn iter(self) -> impl Iterator<Item = Square> {
        Square::all().filter(move |s| self.contains(*s))
    }
}

/// The most squares a turn track may have.
pub const MAX_TURNS: usize = 16;

/// The board geometry a physical edition may place differently: objectives, where the
/// Prussians enter, and the turn track. Check it against your map; validate a custom one with
/// [`Layout::validate`]. Decodes only when it validates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "LayoutSetup")]
pub struct Layout {
    /// Mont St Jean, a French objective (coin heads up). Rules: A-3.
    pub mont_st_jean: Square,
    /// Plancenoit, the Allied objective (coin heads up). Rules: G-7.
    pub plancenoit: Square,
    /// The fortified chateau of Hougoumont, a French objective (coin tails up). Rules: E-4.
    pub hougoumont: Square,
    /// The walled farm of La Haye Sainte, a French objective (coin tails up). Rules: G-3.
    pub la_haye_sainte: Square,
    /// Where the Prussians come on (ruling: the Allied half of the Allied-left edge,
    /// A-10 to D-10, the side the Prussians came from).
    pub prussian_entry: SquareSet,
    /// The turn track, first square first; `turns` of them are used. Rules: G-1 to G-10.
    pub turn_track: [Square; MAX_TURNS],
    /// How many turns the game lasts: the marker leaves the map after the last square.
    pub turns: u8,
}

/// A [`Layout`] as decoded, before [`Layout::validate`]: the same fields, the same encoding.
#[derive(Deserialize)]
#[serde(rename = "Layout")]
struct LayoutSetup {
    mont_st_jean: Square,
    plancenoit: Square,
    hougoumont: Square,
    la_haye_sainte: Square,
    prussian_entry: SquareSet,
    turn_track: [Square; MAX_TURNS],
    turns: u8,
}

impl TryFrom<LayoutSetup> for Layout {
    type Error = Problems<LayoutProblem>;

    fn try_from(s: LayoutSetup) -> Result<Layout, Problems<LayoutProblem>> {
        let layout = Layout {
            mont_st_jean: s.mont_st_jean,
            plancenoit: s.plancenoit,
            hougoumont: s.hougoumont,
            la_haye_sainte: s.la_haye_sainte,
            prussian_entry: s.prussian_entry,
            turn_track: s.turn_track,
            turns: s.turns,
        };
        layout.validate().map(|()| layout)
    }
}

impl Default for Layout {
    fn default() -> Layout {
        Layout::STANDARD
    }
}

/// One problem with a custom layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LayoutProblem {
    /// Two objectives share a square.
    SharedObjective(Square),
    /// No Prussian entry squares.
    NoEntry,
    /// The turn count is 0 or more than the track holds.
    Turns(u8),
    /// A square appears twice on the used part of the turn track.
    TrackRepeats(Square),
}

impl fmt::Display for LayoutProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutProblem::SharedObjective(s) => {
                write!(f, "two objectives on {s}: give each its own square")
            }
            LayoutProblem::NoEntry => {
                f.write_str("no Prussian entry squares: name at least one edge square")
            }
            LayoutProblem::Turns(n) => {
                write!(f, "{n} turns: the track holds 1 to {MAX_TURNS}")
            }
            LayoutProblem::TrackRepeats(s) => {
                write!(f, "the turn track passes {s} twice: list each square once")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for LayoutProblem {}

impl Layout {
    /// The rules' layout: objectives at A-3, G-7, E-4 and G-3, the turn track G-1 to G-10
    /// (ten turns), and the Prussian entry squares of the ruling (A-10, B-10, C-10, D-10).
    pub const STANDARD: Layout = {
        let mut turn_track = [Square(0); MAX_TURNS];
        let mut c = 0;
        while c < 10 {
            turn_track[c] = Square::at(b'G', c as u8 + 1);
            c += 1;
        }
        Layout {
            mont_st_jean: Square::at(b'A', 3),
            plancenoit: Square::at(b'G', 7),
            hougoumont: Square::at(b'E', 4),
            la_haye_sainte: Square::at(b'G', 3),
            prussian_entry: SquareSet::of(&[
                Square::at(b'A', 10),
                Square::at(b'B', 10),
                Square::at(b'C', 10),
                Square::at(b'D', 10),
            ]),
            turn_track,
            turns: 10,
        }
    };

    /// The three French objectives.
    pub const fn french_objectives(&self) -> [Square; 3] {
        [self.mont_st_jean, self.hougoumont, self.la_haye_sainte]
    }

    /// Whether a defender on `square` rolls a die for the fortifications (Hougoumont, La Haye
    /// Sainte).
    pub fn is_fortified(&self, square: Square) -> bool {
        square == self.hougoumont || square == self.la_haye_sainte
    }

    /// Where the turn marker stands in `turn` (from 1), if on the map.
    pub fn marker(&self, turn: u8) -> Option<Square> {
        (turn >= 1 && turn <= self.turns)
            .then(|| self.turn_track.get(usize::from(turn - 1)).copied())
            .flatten()
    }

    /// Checks a custom layout.
    ///
    /// # Errors
    /// Every problem, at once.
    pub fn validate(&self) -> Result<(), Problems<LayoutProblem>> {
        let mut problems = alloc::vec::Vec::new();
        let objectives = [
            self.mont_st_jean,
            self.plancenoit,
            self.hougoumont,
            self.la_haye_sainte,
        ];
        for (i, s) in objectives.iter().enumerate() {
            if objectives[..i].contains(s) {
                problems.push(LayoutProblem::SharedObjective(*s));
            }
        }
        if self.prussian_entry.is_empty() {
            problems.push(LayoutProblem::NoEntry);
        }
        if self.turns == 0 || usize::from(self.turns) > MAX_TURNS {
            problems.push(LayoutProblem::Turns(self.turns));
        } else {
            let used = &self.turn_track[..usize::from(self.turns)];
            for (i, s) in used.iter().enumerate() {
                if used[..i].contains(s) {
                    problems.push(LayoutProblem::TrackRepeats(*s));
                }
            }
        }
        Problems(problems).into_result(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn names_follow_the_rules() {
        assert_eq!(Square::at(b'A', 1).to_string(), "A-1");
        assert_eq!(Square::at(b'H', 10).to_string(), "H-10");
        assert_eq!(Square::parse("g7"), Some(Square::at(b'G', 7)));
        assert_eq!(Square::parse("G-7"), Some(Square::at(b'G', 7)));
        assert_eq!(Square::parse("I-1"), None);
        assert_eq!(Square::parse("A-11"), None);
        assert_eq!(Square::parse("A-0"), None);
        assert!(Layout::STANDARD.validate().is_ok());
        assert_eq!(Layout::STANDARD.marker(1), Square::parse("G-1"));
        assert_eq!(Layout::STANDARD.marker(11), None);
    }

    #[test]
    fn squares_and_sets_off_the_map_do_not_decode() {
        use crate::decode::testing::from_value;
        assert_eq!(from_value::<Square, u8>(79), Ok(Square(79)));
        let err = from_value::<Square, u8>(80).unwrap_err();
        assert!(
            err.contains("a piecepack square index 80 is out of range"),
            "{err}"
        );
        // Index 200 once tested bit 72 (`1 << 200` wraps) in a release build.
        assert!(postcard::from_bytes::<Square>(&[200, 1]).is_err());
        assert_eq!(
            from_value::<SquareSet, u128>(SQUARE_BITS),
            Ok(SquareSet(SQUARE_BITS))
        );
        let err = from_value::<SquareSet, u128>(1 << 80).unwrap_err();
        assert!(err.contains("bits 0 to 79 only"), "{err}");
    }

    #[test]
    fn a_layout_decodes_only_when_it_validates() {
        let bytes = postcard::to_allocvec(&Layout::STANDARD).unwrap();
        assert_eq!(
            postcard::from_bytes::<Layout>(&bytes).unwrap(),
            Layout::STANDARD
        );
        // `turns` is the last byte: 17 turns would index past the 16-square track.
        let mut bad = bytes.clone();
        *bad.last_mut().unwrap() = 17;
        assert!(postcard::from_bytes::<Layout>(&bad).is_err());
        // Two objectives on one square.
        let mut shared = Layout::STANDARD;
        shared.plancenoit = shared.mont_st_jean;
        let bytes = postcard::to_allocvec(&shared).unwrap();
        assert!(postcard::from_bytes::<Layout>(&bytes).is_err());
    }
}
