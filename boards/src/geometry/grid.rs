//! Rectangular boards of squares, some of them blocked (lakes, off-map corners).

use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use crate::decode::OutOfRange;

/// A square of a grid: column and row, both from 0.
///
/// Row 0 is the first seat's home edge; column 0 is on the first seat's left. Written as a file
/// letter and a rank number from 1: `a1` is column 0, row 0. Decodes only as [`Cell::parse`]
/// reads: a column below [`Cell::FILES`], a row below [`Cell::RANKS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "CellSetup")]
pub struct Cell {
    /// Column from the first seat's left, from 0.
    pub col: u8,
    /// Row from the first seat's home edge, from 0.
    pub row: u8,
}

/// A [`Cell`] as decoded, before its range check: the same fields, the same encoding.
#[derive(Deserialize)]
#[serde(rename = "Cell")]
struct CellSetup {
    col: u8,
    row: u8,
}

impl TryFrom<CellSetup> for Cell {
    type Error = OutOfRange;

    fn try_from(c: CellSetup) -> Result<Cell, OutOfRange> {
        if c.col >= Cell::FILES {
            return Err(OutOfRange::new(
                "a grid column",
                c.col,
                "0 to 25: files a to z",
            ));
        }
        if u16::from(c.row) >= u16::from(Cell::RANKS) {
            return Err(OutOfRange::new(
                "a grid row",
                c.row,
                "0 to 254: ranks 1 to 255",
            ));
        }
        Ok(Cell::new(c.col, c.row))
    }
}

impl Cell {
    /// Columns a grid may have: one file letter `a`-`z` each. Every board of this crate is far
    /// smaller (12 x 10 at most).
    pub const FILES: u8 = 26;
    /// Rows a grid may have: rank numbers 1 to 255.
    pub const RANKS: u8 = 255;

    /// The cell at `col`, `row`.
    pub const fn new(col: u8, row: u8) -> Cell {
        Cell { col, row }
    }

    /// Parses `a1`-style names: a file letter (`a`-`z`) then a rank number from 1 to 255. (Whether
    /// it is on a board is the board's question.)
    pub fn parse(s: &str) -> Option<Cell> {
        let mut chars = s.chars();
        let file = chars.next()?.to_ascii_lowercase();
        if !file.is_ascii_lowercase() {
            return None;
        }
        let rank: u8 = chars.as_str().parse().ok()?;
        if rank == 0 {
            return None;
        }
        Some(Cell::new(file as u8 - b'a', rank - 1))
    }
}

/// `a1`; a cell made by hand beyond the letters (never decoded or parsed) shows its numbers,
/// `col 30 row 256`, rather than a wrong name.
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rank = u16::from(self.row) + 1;
        if self.col < Cell::FILES {
            write!(f, "{}{rank}", char::from(b'a' + self.col))
        } else {
            write!(f, "col {} row {rank}", u16::from(self.col) + 1)
        }
    }
}

/// One of the four orthogonal directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dir {
    /// Towards higher rows (away from the first seat).
    Up,
    /// Towards lower rows.
    Down,
    /// Towards lower columns.
    Left,
    /// Towards higher columns.
    Right,
}

impl Dir {
    /// All four, in a fixed order.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// Column and row step.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::Up => (0, 1),
            Dir::Down => (0, -1),
            Dir::Left => (-1, 0),
            Dir::Right => (1, 0),
        }
    }

    /// The other way along the same line.
    pub const fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }
}

/// A `width` x `height` board where some cells may be blocked. Decodes only with 1 to
/// [`Cell::FILES`] columns, 1 to [`Cell::RANKS`] rows and one blocked flag per cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "GridSetup")]
pub struct Grid {
    width: u8,
    height: u8,
    blocked: Vec<bool>,
}

/// A [`Grid`] as decoded, before its checks: the same fields, the same encoding.
#[derive(Deserialize)]
#[serde(rename = "Grid")]
struct GridSetup {
    width: u8,
    height: u8,
    blocked: Vec<bool>,
}

impl TryFrom<GridSetup> for Grid {
    type Error = OutOfRange;

    fn try_from(g: GridSetup) -> Result<Grid, OutOfRange> {
        if g.width == 0 || g.width > Cell::FILES {
            return Err(OutOfRange::new("a grid width", g.width, "1 to 26"));
        }
        // A `u8` height is at most `Cell::RANKS` rows.
        if g.height == 0 {
            return Err(OutOfRange::new("a grid height", g.height, "1 to 255"));
        }
        let cells = usize::from(g.width) * usize::from(g.height);
        if g.blocked.len() != cells {
            return Err(OutOfRange::new(
                "a grid's count of blocked flags",
                g.blocked.len() as u64,
                "one per cell, width x height",
            ));
        }
        Ok(Grid {
            width: g.width,
            height: g.height,
            blocked: g.blocked,
        })
    }
}

impl Grid {
    /// An open board of `width` columns and `height` rows.
    pub fn new(width: u8, height: u8) -> Grid {
        Grid {
            width,
            height,
            blocked: alloc::vec![false; usize::from(width) * usize::from(height)],
        }
    }

    /// The same board with `cells` blocked. Cells off the board are ignored.
    #[must_use]
    pub fn with_blocked(mut self, cells: impl IntoIterator<Item = Cell>) -> Grid {
        for c in cells {
            if let Some(i) = self.index(c) {
                self.blocked[i] = true;
            }
        }
        self
    }

    /// Number of columns.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> u8 {
        self.height
    }

    /// Whether `c` lies on the board.
    pub fn contains(&self, c: Cell) -> bool {
        c.col < self.width && c.row < self.height
    }

    /// Row-major index of `c`, if it is on the board.
    pub fn index(&self, c: Cell) -> Option<usize> {
        self.contains(c)
            .then(|| usize::from(c.row) * usize::from(self.width) + usize::from(c.col))
    }

    /// The cell at row-major index `i`.
    pub fn cell(&self, i: usize) -> Option<Cell> {
        (i < self.blocked.len()).then(|| {
            let w = usize::from(self.width);
            Cell::new((i % w) as u8, (i / w) as u8)
        })
    }

    /// Whether `c` is on the board and not blocked.
    pub fn is_open(&self, c: Cell) -> bool {
        self.index(c).is_some_and(|i| !self.blocked[i])
    }

    /// The neighbour of `c` in direction `d`, if it is on the board (blocked or not).
    pub fn step(&self, c: Cell, d: Dir) -> Option<Cell> {
        let (dc, dr) = d.delta();
        let n = Cell::new(c.col.checked_add_signed(dc)?, c.row.checked_add_signed(dr)?);
        self.contains(n).then_some(n)
    }

    /// The open orthogonal neighbours of `c`.
    pub fn neighbours(&self, c: Cell) -> impl Iterator<Item = Cell> + '_ {
        Dir::ALL
            .into_iter()
            .filter_map(move |d| self.step(c, d))
            .filter(|n| self.is_open(*n))
    }

    /// Every open cell, row by row.
    pub fn open_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.blocked.len())
            .filter(|&i| !self.blocked[i])
            .filter_map(|i| self.cell(i))
    }

    /// The open cells from `c` (excluded) in direction `d`, up to the first blocked cell or the
    /// edge.
    pub fn ray(&self, c: Cell, d: Dir) -> impl Iterator<Item = Cell> + '_ {
        let mut at = c;
        core::iter::from_fn(move || {
            let n = self.step(at, d)?;
            at = n;
            self.is_open(n).then_some(n)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    #[test]
    fn names_round_trip() {
        for name in ["a1", "j10", "l12"] {
            assert_eq!(
                Cell::parse(name).map(|c| c.to_string()).as_deref(),
                Some(name)
            );
        }
        assert_eq!(Cell::parse("a0"), None);
        assert_eq!(Cell::parse("z255"), Some(Cell::new(25, 254)));
        assert_eq!(Cell::parse("a256"), None);
        assert_eq!(Cell::parse("1a"), None);
        assert_eq!(Cell::parse(""), None);
    }

    /// A row of 255 once printed as `a0` in a release build (and panicked in a debug one).
    #[test]
    fn a_cell_shows_its_true_numbers_beyond_the_letters() {
        assert_eq!(Cell::new(0, 255).to_string(), "a256");
        assert_eq!(Cell::new(26, 0).to_string(), "col 27 row 1");
        assert_eq!(Cell::new(255, 255).to_string(), "col 256 row 256");
    }

    #[test]
    fn a_cell_beyond_the_letters_does_not_decode() {
        assert_eq!(postcard::from_bytes::<Cell>(&[11, 9]), Ok(Cell::new(11, 9)));
        assert!(postcard::from_bytes::<Cell>(&[26, 0]).is_err());
        assert!(postcard::from_bytes::<Cell>(&[0, 255]).is_err());
        use serde::de::value::{Error, SeqDeserializer};
        let decode = |v: Vec<u8>| {
            Cell::deserialize(SeqDeserializer::<_, Error>::new(v.into_iter()))
                .map_err(|e| e.to_string())
        };
        assert_eq!(decode(vec![3, 4]), Ok(Cell::new(3, 4)));
        assert_eq!(decode(vec![25, 254]), Ok(Cell::new(25, 254)));
        let err = decode(vec![0, 255]).unwrap_err();
        assert!(err.contains("a grid row 255 is out of range"), "{err}");
        let err = decode(vec![26, 0]).unwrap_err();
        assert!(err.contains("a grid column 26 is out of range"), "{err}");
    }

    #[test]
    fn a_grid_decodes_only_with_a_flag_per_cell() {
        let g = Grid::new(3, 2).with_blocked([Cell::new(1, 1)]);
        let bytes = postcard::to_allocvec(&g).unwrap();
        assert_eq!(postcard::from_bytes::<Grid>(&bytes), Ok(g));
        // Width 4 with six flags: `is_open` would index past them.
        let mut bad = bytes.clone();
        bad[0] = 4;
        assert!(postcard::from_bytes::<Grid>(&bad).is_err());
        bad[0] = 0;
        assert!(postcard::from_bytes::<Grid>(&bad).is_err());
    }

    #[test]
    fn blocked_cells_stop_rays_and_are_not_neighbours() {
        let g = Grid::new(4, 3).with_blocked([Cell::new(2, 0)]);
        let ray: Vec<_> = g.ray(Cell::new(0, 0), Dir::Right).collect();
        assert_eq!(ray, vec![Cell::new(1, 0)]);
        let n: Vec<_> = g.neighbours(Cell::new(1, 0)).collect();
        assert_eq!(n, vec![Cell::new(1, 1), Cell::new(0, 0)]);
        assert_eq!(g.open_cells().count(), 11);
        assert_eq!(g.step(Cell::new(0, 0), Dir::Down), None);
    }
}
