//! The board as data: every physical detail the rulebook we hold does not give, read from an
//! editable `key: value` file and validated with every problem reported with its line.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use super::sides::{Flank, ALLIED, FRENCH};
use super::units::Army;
use crate::geometry::grid::{Cell, Dir};
use crate::{BySeat, Problems, Seat};

/// The default layout, embedded: 12 x 10, the guesses documented line by line.
pub const DEFAULT_LAYOUT: &str = include_str!("layout.txt");

/// The kind of a terrain tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TileKind {
    /// A building (Hougoumont, La Haye): fortified when all its squares are held.
    Building,
    /// A hill (Mont St Jean).
    Hill,
    /// A village (Plancenoit, Expert game).
    Village,
    /// Mud (extra scenario).
    Mud,
}

impl TileKind {
    fn parse(s: &str) -> Option<TileKind> {
        Some(match s {
            "building" => TileKind::Building,
            "hill" => TileKind::Hill,
            "village" => TileKind::Village,
            "mud" => TileKind::Mud,
            _ => return None,
        })
    }
}

/// A terrain tile on the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Tile {
    /// What it is.
    pub kind: TileKind,
    /// Its name in the layout file (`hougoumont`).
    pub name: String,
    /// The squares it covers.
    pub cells: Vec<Cell>,
}

/// The physical board: size, set-up rows, Prussian entry, lines of retreat, artillery facing and
/// terrain tiles.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Layout {
    /// Number of columns.
    pub columns: u8,
    /// Number of rows.
    pub rows: u8,
    /// Set-up rows on each side.
    pub setup_rows: u8,
    /// The squares the Prussians come on, in the order they are filled.
    pub prussian_entry: Vec<Cell>,
    /// Each seat's three lines of retreat, by [`Flank`] (left, centre, right).
    pub retreat: BySeat<[Vec<Cell>; 3]>,
    /// The way the artillery of each army faces: French, Allied, Prussian.
    pub facing: [Dir; 3],
    /// Terrain tiles (used in the Standard and Expert games).
    pub tiles: Vec<Tile>,
}

/// One problem in a layout file, with the line it is on (0 when it is about the whole file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayoutProblem {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl fmt::Display for LayoutProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

fn army_index(army: Army) -> usize {
    match army {
        Army::French => 0,
        Army::Allied => 1,
        Army::Prussian => 2,
    }
}

impl Layout {
    /// The way `army`'s artillery faces.
    pub fn facing(&self, army: Army) -> Dir {
        self.facing[army_index(army)]
    }

    /// Whether `c` lies on the board.
    pub fn contains(&self, c: Cell) -> bool {
        c.col < self.columns && c.row < self.rows
    }

    /// The number of squares.
    pub fn cells(&self) -> usize {
        usize::from(self.columns) * usize::from(self.rows)
    }

    /// Row-major index of an on-board cell.
    pub fn index(&self, c: Cell) -> usize {
        usize::from(c.row) * usize::from(self.columns) + usize::from(c.col)
    }

    /// The cell at a row-major index.
    pub fn cell(&self, i: usize) -> Cell {
        let w = usize::from(self.columns);
        Cell::new((i % w) as u8, (i / w) as u8)
    }

    /// The neighbour of `c` in direction `d`, if on the board.
    pub fn step(&self, c: Cell, d: Dir) -> Option<Cell> {
        let (dc, dr) = d.delta();
        let n = Cell::new(c.col.checked_add_signed(dc)?, c.row.checked_add_signed(dr)?);
        self.contains(n).then_some(n)
    }

    /// Whether `c` is in `seat`'s set-up rows.
    pub fn in_setup_rows(&self, seat: Seat, c: Cell) -> bool {
        if seat == ALLIED {
            c.row < self.setup_rows
        } else {
            c.row >= self.rows - self.setup_rows
        }
    }

    /// `seat`'s home (back) row, where reserves and regenerated pieces come on.
    pub fn home_row(&self, seat: Seat) -> u8 {
        if seat == ALLIED {
            0
        } else {
            self.rows - 1
        }
    }

    /// The tile covering `c`, if any.
    pub fn tile_at(&self, c: Cell) -> Option<(usize, &Tile)> {
        self.tiles
            .iter()
            .enumerate()
            .find(|(_, t)| t.cells.contains(&c))
    }

    /// The shipped layout ([`DEFAULT_LAYOUT`], compiled in): the board of the simulator, the
    /// tests and an umpire configured with no layout file. A layout file given by a player is
    /// read with [`Layout::parse`], whose every problem stops the game: never this one instead.
    ///
    /// # Panics
    /// Only when the compiled-in file itself is broken, a defect the tests catch
    /// (`the_default_layout_parses`): no layout is ever made up in its place.
    pub fn standard() -> Layout {
        match Layout::parse(DEFAULT_LAYOUT) {
            Ok(l) => l,
            Err(p) => panic!("boards/src/waterloo/layout.txt, compiled in, is broken: {p}"),
        }
    }

    /// The same layout without the tiles of `kind` (the Basic game uses none).
    #[must_use]
    pub fn without(mut self, kind: TileKind) -> Layout {
        self.tiles.retain(|t| t.kind != kind);
        self
    }

    /// Reads a layout file over the defaults: each key given replaces its default; tiles given
    /// replace all default tiles.
    ///
    /// # Errors
    /// Every problem, each with its line: unknown keys, unreadable values, squares off the
    /// board, overlapping tiles, a key given twice.
    pub fn parse(text: &str) -> Result<Layout, Problems<LayoutProblem>> {
        let mut problems = Vec::new();
        let mut seen: Vec<(String, usize)> = Vec::new();
        let mut columns = (12u8, 0usize);
        let mut rows = (10u8, 0usize);
        let mut setup_rows = (4u8, 0usize);
        let mut entry: (Vec<Cell>, usize) = (Vec::new(), 0);
        let mut entry_given = false;
        let mut retreat: [[(Vec<Cell>, usize); 3]; 2] = Default::default();
        let mut retreat_given = [[false; 3]; 2];
        let mut facing = [(Dir::Down, 0usize), (Dir::Up, 0), (Dir::Up, 0)];
        let mut tiles: Vec<(Tile, usize)> = Vec::new();
        let mut tiles_given = false;
        let text_default = text.as_ptr() == DEFAULT_LAYOUT.as_ptr();
        // A file saved with a byte-order mark (Windows' Notepad) reads as without it; Windows
        // line ends are trimmed with each line.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);

        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let mut bad = |message: String| problems.push(LayoutProblem { line, message });
            let Some((key, value)) = content.split_once(':') else {
                bad(alloc::format!(
                    "'{content}' is not a `key: value` line: add a colon after the key"
                ));
                continue;
            };
            let key = key.trim();
            let value = value.trim();
            if let Some((_, first)) = seen.iter().find(|(k, _)| k == key) {
                bad(alloc::format!(
                    "'{key}' is given twice (first on line {first}): keep one"
                ));
                continue;
            }
            seen.push((String::from(key), line));
            let number = |bad: &mut dyn FnMut(String), lo: u8, hi: u8| -> Option<u8> {
                match value.parse::<u8>() {
                    Ok(n) if (lo..=hi).contains(&n) => Some(n),
                    _ => {
                        bad(alloc::format!(
                            "'{key}' must be a whole number from {lo} to {hi}, not '{value}'"
                        ));
                        None
                    }
                }
            };
            let squares = |bad: &mut dyn FnMut(String)| -> Vec<Cell> {
                let mut out = Vec::new();
                for token in value.split([' ', ',', '\t']).filter(|t| !t.is_empty()) {
                    match Cell::parse(token) {
                        Some(c) if !out.contains(&c) => out.push(c),
                        Some(c) => bad(alloc::format!(
                            "{c} is listed twice in '{key}': list it once"
                        )),
                        None if looks_like_square(token) => bad(alloc::format!(
                            "'{token}' in '{key}' is off the board: name a square within \
                             'columns' and 'rows'"
                        )),
                        None => bad(alloc::format!(
                            "'{token}' in '{key}' is not a square: write a file letter and a row number, like e5"
                        )),
                    }
                }
                if out.is_empty() {
                    bad(alloc::format!("'{key}' needs at least one square"));
                }
                out
            };
            match key {
                "columns" => {
                    if let Some(n) = number(&mut bad, 4, 16) {
                        columns = (n, line);
                    }
                }
                "rows" => {
                    if let Some(n) = number(&mut bad, 4, 16) {
                        rows = (n, line);
                    }
                }
                "setup_rows" => {
                    if let Some(n) = number(&mut bad, 1, 8) {
                        setup_rows = (n, line);
                    }
                }
                "prussian_entry" => {
                    entry = (squares(&mut bad), line);
                    entry_given = true;
                }
                _ => {
                    let parts: Vec<&str> = key.split('.').collect();
                    match parts.as_slice() {
                        ["retreat", side, flank] => {
                            let s = match *side {
                                "allied" => Some(ALLIED.index()),
                                "french" => Some(FRENCH.index()),
                                _ => None,
                            };
                            let f = Flank::parse(flank);
                            match (s, f) {
                                (Some(s), Some(f)) => {
                                    retreat[s][f as usize] = (squares(&mut bad), line);
                                    retreat_given[s][f as usize] = true;
                                }
                                _ => bad(alloc::format!(
                                    "'{key}' is not a line of retreat: write retreat.allied|french.left|centre|right"
                                )),
                            }
                        }
                        ["facing", army] => {
                            let a = match *army {
                                "french" => Some(0),
                                "allied" => Some(1),
                                "prussian" => Some(2),
                                _ => None,
                            };
                            let d = match value {
                                "up" => Some(Dir::Up),
                                "down" => Some(Dir::Down),
                                "left" => Some(Dir::Left),
                                "right" => Some(Dir::Right),
                                _ => None,
                            };
                            match (a, d) {
                                (Some(a), Some(d)) => facing[a] = (d, line),
                                (None, _) => bad(alloc::format!(
                                    "'{key}': the army must be french, allied or prussian"
                                )),
                                (_, None) => bad(alloc::format!(
                                    "'{key}' must be up, down, left or right, not '{value}'"
                                )),
                            }
                        }
                        [kind, name] if TileKind::parse(kind).is_some() => {
                            let Some(kind) = TileKind::parse(kind) else {
                                continue;
                            };
                            if !tiles_given && !text_default {
                                tiles_given = true;
                            }
                            tiles.push((
                                Tile {
                                    kind,
                                    name: String::from(*name),
                                    cells: squares(&mut bad),
                                },
                                line,
                            ));
                        }
                        _ => bad(alloc::format!(
                            "unknown key '{key}': use columns, rows, setup_rows, prussian_entry, retreat.<side>.<flank>, facing.<army>, or building/hill/village/mud.<name>"
                        )),
                    }
                }
            }
        }

        // Fill what was not given from the defaults.
        if !text_default {
            let default = Layout::standard();
            if !entry_given {
                entry.0 = default.prussian_entry.clone();
            }
            for s in 0..2 {
                for f in 0..3 {
                    if !retreat_given[s][f] {
                        retreat[s][f].0 = default.retreat.0[s][f].clone();
                    }
                }
            }
            if !tiles_given {
                tiles = default.tiles.into_iter().map(|t| (t, 0)).collect();
            }
        }

        // Cross-checks, now that the size is known.
        let (w, h) = (columns.0, rows.0);
        if u16::from(setup_rows.0) * 2 > u16::from(h) {
            problems.push(LayoutProblem {
                line: setup_rows.1,
                message: alloc::format!(
                    "{} set-up rows on each side do not fit in {h} rows: lower setup_rows",
                    setup_rows.0
                ),
            });
        }
        let mut off_board = |cells: &[Cell], line: usize, what: &str| {
            for c in cells {
                if c.col >= w || c.row >= h {
                    let default = if line == 0 {
                        " (a default: give the key for your board)"
                    } else {
                        ""
                    };
                    problems.push(LayoutProblem {
                        line,
                        message: alloc::format!(
                            "{c} in {what} is off the {w} x {h} board{default}: use a square from a1 to {}",
                            Cell::new(w - 1, h - 1)
                        ),
                    });
                }
            }
        };
        off_board(&entry.0, entry.1, "prussian_entry");
        for s in &retreat {
            for (cells, line) in s {
                off_board(cells, *line, "a line of retreat");
            }
        }
        for (t, line) in &tiles {
            off_board(&t.cells, *line, &t.name);
        }
        for (i, (a, _)) in tiles.iter().enumerate() {
            for (b, line) in &tiles[i + 1..] {
                if let Some(c) = b.cells.iter().find(|c| a.cells.contains(c)) {
                    problems.push(LayoutProblem {
                        line: *line,
                        message: alloc::format!(
                            "tiles {} and {} overlap on {c}: move one",
                            a.name,
                            b.name
                        ),
                    });
                }
            }
        }
        if seen.is_empty() && problems.is_empty() {
            // An empty or emptied file (a copy cut short) would silently be the shipped board.
            problems.push(LayoutProblem {
                line: 0,
                message: String::from(
                    "the file has no `key: value` line: write the keys your board changes \
                     (e.g. `rows: 11`), or leave the file out to play on the shipped board",
                ),
            });
        }
        if !problems.is_empty() {
            return Err(Problems(problems));
        }
        let [[al, ac, ar], [fl, fc, fr]] = retreat;
        let mut r = BySeat::<[Vec<Cell>; 3]>::default();
        r[Seat::FIRST] = [al.0, ac.0, ar.0];
        r[Seat::SECOND] = [fl.0, fc.0, fr.0];
        Ok(Layout {
            columns: w,
            rows: h,
            setup_rows: setup_rows.0,
            prussian_entry: entry.0,
            retreat: r,
            facing: [facing[0].0, facing[1].0, facing[2].0],
            tiles: tiles.into_iter().map(|(t, _)| t).collect(),
        })
    }
}

impl Default for Layout {
    fn default() -> Layout {
        Layout::standard()
    }
}

/// Whether `token` has a square's shape (a lower-case file letter, then a row number) though no
/// board has it (`z99`): off the board, not misspelt.
fn looks_like_square(token: &str) -> bool {
    let mut chars = token.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && !chars.as_str().is_empty()
        && chars.as_str().bytes().all(|b| b.is_ascii_digit())
}
