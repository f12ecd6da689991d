//! Which sensed cell is which place: squares of the board and slots of the off-board trays.

use std::collections::BTreeMap;
use std::fmt;

use boards::geometry::grid::Cell;
use boards::{BySeat, Problems, Seat};
use serde::{Deserialize, Serialize};

use super::occupancy::{Occupancy, SensedCell, MAX_CELLS};

/// An off-board area where pieces wait, each with numbered slots per seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum TrayKind {
    /// Pieces held back to enter play later (Waterloo reserves).
    Reserve,
    /// Prussians waiting to enter the board (Waterloo's timeline).
    PrussianStaging,
    /// Pieces taken out of play but not destroyed (withdrawn, routed).
    Withdrawn,
    /// Pieces lost in battle.
    Eliminated,
}

impl fmt::Display for TrayKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TrayKind::Reserve => "reserve",
            TrayKind::PrussianStaging => "Prussian staging",
            TrayKind::Withdrawn => "withdrawn",
            TrayKind::Eliminated => "eliminated",
        })
    }
}

/// Where a sensed piece stands, in game terms. Decodes only with a tray of one of a table's two
/// seats (the core's seats go up to Napoléon's third).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawPlace")]
pub enum Place {
    /// A square of the board.
    Square(Cell),
    /// A slot of an off-board tray: entering play is a move from here, leaving it a move to here.
    Tray {
        /// Which tray.
        tray: TrayKind,
        /// Whose tray.
        seat: Seat,
        /// The slot, from 0.
        slot: u8,
    },
}

/// A [`Place`] as decoded, before its seat is checked; the same variants in the same order.
#[derive(Deserialize)]
enum RawPlace {
    Square(Cell),
    Tray {
        tray: TrayKind,
        seat: Seat,
        slot: u8,
    },
}

impl TryFrom<RawPlace> for Place {
    type Error = boards::decode::OutOfRange;

    fn try_from(raw: RawPlace) -> Result<Place, Self::Error> {
        match raw {
            RawPlace::Square(cell) => Ok(Place::Square(cell)),
            RawPlace::Tray { tray, seat, slot } if seat.index() < BySeat::<()>::SEATS => {
                Ok(Place::Tray { tray, seat, slot })
            }
            RawPlace::Tray { seat, .. } => Err(boards::decode::OutOfRange::new(
                "a tray's seat",
                seat.index() as u8,
                "0 or 1: a table's trays belong to its two seats",
            )),
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Square(cell) => write!(f, "{cell}"),
            Place::Tray { tray, seat, slot } => {
                write!(f, "{seat} {tray} slot {}", u16::from(*slot) + 1)
            }
        }
    }
}

/// The most columns a board's grid is configured with (`[board] columns`): a square is named
/// by a letter, `a` to `z`.
pub const MAX_COLUMNS: u8 = Cell::FILES;

/// The most rows a board's grid is configured with (`[board] rows`): 26 x 32 squares leave
/// 192 of the [`MAX_CELLS`] inputs for tray slots. A game whose layout needs a larger grid is
/// played in the simulator.
pub const MAX_ROWS: u8 = 32;

/// An untrusted description of a board's sensors, as a layout file or a builder gives it;
/// [`LayoutSetup::validate`] turns it into a [`SensorLayout`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayoutSetup {
    /// How many inputs the scanner reads, numbered from 0. Inputs mapped to no place are wired
    /// but unused; a piece seen on one is reported as a fault.
    pub cell_count: u16,
    /// Which cell senses which place.
    pub places: Vec<(SensedCell, Place)>,
    /// The cells with an NFC antenna under them. A piece placed on one waits (briefly) for its tag
    /// to be read; elsewhere pieces are sensed by occupancy only.
    pub tag_readers: Vec<SensedCell>,
}

impl LayoutSetup {
    /// A `width` x `height` board of squares, one sensed cell each, numbered row by row from
    /// `a1`: cell `row * width + col` senses `Cell::new(col, row)` (the same order as
    /// [`boards::geometry::grid::Grid::index`]). 10x10 for Stratego, 12x10 for Waterloo.
    pub fn grid(width: u8, height: u8) -> LayoutSetup {
        let mut places = Vec::with_capacity(usize::from(width) * usize::from(height));
        for row in 0..height {
            for col in 0..width {
                let n = u16::from(row) * u16::from(width) + u16::from(col);
                places.push((SensedCell::new(n), Place::Square(Cell::new(col, row))));
            }
        }
        LayoutSetup {
            cell_count: u16::from(width) * u16::from(height),
            places,
            tag_readers: Vec::new(),
        }
    }

    /// The same layout with `slots` slots of `seat`'s `tray` on the next free cells, slot 0
    /// first.
    #[must_use]
    pub fn with_tray(mut self, tray: TrayKind, seat: Seat, slots: u8) -> LayoutSetup {
        for slot in 0..slots {
            let cell = SensedCell::new(self.cell_count);
            self.places.push((cell, Place::Tray { tray, seat, slot }));
            self.cell_count = self.cell_count.saturating_add(1);
        }
        self
    }

    /// The same layout with an NFC antenna under every mapped cell.
    #[must_use]
    pub fn with_tag_readers_everywhere(mut self) -> LayoutSetup {
        self.tag_readers = self.places.iter().map(|(cell, _)| *cell).collect();
        self
    }

    /// Checks the layout and builds it.
    ///
    /// # Errors
    /// Every problem found, all at once: too many cells, cells beyond `cell_count`, a cell
    /// mapped to two places, a place mapped to two cells, a tag reader on an unmapped cell.
    pub fn validate(self) -> Result<SensorLayout, Problems<LayoutProblem>> {
        SensorLayout::new(self)
    }
}

/// One problem with a [`LayoutSetup`]. The message says how to fix it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LayoutProblem {
    /// The layout maps no place at all.
    NoPlaces,
    /// More inputs than the sensing model handles.
    TooManyCells {
        /// The `cell_count` asked for.
        count: u16,
    },
    /// A place is mapped to a cell number the scanner does not have.
    CellOutOfRange {
        /// The cell number.
        cell: SensedCell,
        /// The place mapped to it.
        place: Place,
        /// The layout's `cell_count`.
        count: u16,
    },
    /// One cell is mapped to two places.
    CellMappedTwice {
        /// The cell.
        cell: SensedCell,
        /// The place it was first mapped to.
        first: Place,
        /// The place it was mapped to again.
        second: Place,
    },
    /// One place is mapped to two cells.
    PlaceMappedTwice {
        /// The place.
        place: Place,
        /// The cell first mapped to it.
        first: SensedCell,
        /// The cell mapped to it again.
        second: SensedCell,
    },
    /// A tag reader is listed on a cell that senses no place.
    TagReaderOnUnmappedCell {
        /// The cell.
        cell: SensedCell,
    },
}

impl fmt::Display for LayoutProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutProblem::NoPlaces => {
                f.write_str("the layout maps no places: list at least one square or tray slot")
            }
            LayoutProblem::TooManyCells { count } => write!(
                f,
                "the layout has {count} sensor inputs but at most {MAX_CELLS} are supported: \
                 lower cell_count"
            ),
            LayoutProblem::CellOutOfRange { cell, place, count } => write!(
                f,
                "{place} is on {cell}, but the scanner has only sensors 0 to {}: fix the \
                 number or raise cell_count",
                count.saturating_sub(1)
            ),
            LayoutProblem::CellMappedTwice {
                cell,
                first,
                second,
            } => write!(
                f,
                "{cell} is mapped to both {first} and {second}: give each place its own sensor"
            ),
            LayoutProblem::PlaceMappedTwice {
                place,
                first,
                second,
            } => write!(
                f,
                "{place} is mapped to both {first} and {second}: keep one of them"
            ),
            LayoutProblem::TagReaderOnUnmappedCell { cell } => write!(
                f,
                "a tag reader is listed on {cell}, which senses no place: map the sensor to a \
                 place or drop the reader"
            ),
        }
    }
}

impl std::error::Error for LayoutProblem {}

/// A validated map between sensed cells and places: each cell senses at most one place, each
/// place is sensed by at most one cell, and every cell is one the scanner reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SensorLayout {
    cell_count: u16,
    places: Vec<Option<Place>>,
    cells: BTreeMap<Place, SensedCell>,
    tag_readers: Occupancy,
}

impl SensorLayout {
    /// Checks `setup` and builds the layout; the same as [`LayoutSetup::validate`].
    ///
    /// # Errors
    /// Every [`LayoutProblem`] found, all at once.
    pub fn new(setup: LayoutSetup) -> Result<SensorLayout, Problems<LayoutProblem>> {
        let mut problems = Vec::new();
        if setup.places.is_empty() {
            problems.push(LayoutProblem::NoPlaces);
        }
        let count = setup.cell_count;
        if usize::from(count) > MAX_CELLS {
            problems.push(LayoutProblem::TooManyCells { count });
        }
        let usable = usize::from(count).min(MAX_CELLS);
        let mut places: Vec<Option<Place>> = vec![None; usable];
        let mut cells = BTreeMap::new();
        for &(cell, place) in &setup.places {
            if cell.index() >= usize::from(count) {
                problems.push(LayoutProblem::CellOutOfRange { cell, place, count });
                continue;
            }
            let Some(slot) = places.get_mut(cell.index()) else {
                // Beyond MAX_CELLS but within cell_count: already reported as TooManyCells.
                continue;
            };
            if let Some(first) = *slot {
                problems.push(LayoutProblem::CellMappedTwice {
                    cell,
                    first,
                    second: place,
                });
                continue;
            }
            if let Some(&first) = cells.get(&place) {
                problems.push(LayoutProblem::PlaceMappedTwice {
                    place,
                    first,
                    second: cell,
                });
                continue;
            }
            *slot = Some(place);
            cells.insert(place, cell);
        }
        let mut tag_readers = Occupancy::EMPTY;
        for &cell in &setup.tag_readers {
            if places.get(cell.index()).copied().flatten().is_some() {
                tag_readers.insert(cell);
            } else if !problems.contains(&LayoutProblem::TagReaderOnUnmappedCell { cell }) {
                problems.push(LayoutProblem::TagReaderOnUnmappedCell { cell });
            }
        }
        Problems(problems).into_result(SensorLayout {
            cell_count: count,
            places,
            cells,
            tag_readers,
        })
    }

    /// How many inputs the scanner reads.
    pub fn cell_count(&self) -> u16 {
        self.cell_count
    }

    /// The place `cell` senses, if any.
    pub fn place(&self, cell: SensedCell) -> Option<Place> {
        self.places.get(cell.index()).copied().flatten()
    }

    /// The cell that senses `place`, if any.
    pub fn cell(&self, place: Place) -> Option<SensedCell> {
        self.cells.get(&place).copied()
    }

    /// Whether `cell` has an NFC antenna under it.
    pub fn has_tag_reader(&self, cell: SensedCell) -> bool {
        self.tag_readers.contains(cell)
    }

    /// Every mapped cell with its place, in cell order.
    pub fn iter(&self) -> impl Iterator<Item = (SensedCell, Place)> + '_ {
        self.places
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|p| (SensedCell::new(i as u16), p)))
    }

    /// The places of the occupied cells of `occupancy`, in cell order; unmapped cells are left
    /// out.
    pub fn places_in<'a>(
        &'a self,
        occupancy: &'a Occupancy,
    ) -> impl Iterator<Item = (SensedCell, Place)> + 'a {
        occupancy
            .iter()
            .filter_map(|c| self.place(c).map(|p| (c, p)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Place {
        Place::Square(Cell::parse(name).unwrap())
    }

    /// A sensed cell or a place decodes only in range: what the journal and the sensing model
    /// index with.
    #[test]
    fn cells_and_places_out_of_range_do_not_decode() {
        use serde::de::value::{Error, U16Deserializer};
        use serde::de::IntoDeserializer;
        let cell = |n: u16| {
            let d: U16Deserializer<Error> = n.into_deserializer();
            SensedCell::deserialize(d).map_err(|e| e.to_string())
        };
        assert_eq!(cell(1023), Ok(SensedCell::new(1023)));
        let err = cell(1024).unwrap_err();
        assert!(
            err.contains("a sensed cell number 1024 is out of range") && err.contains("0 to 1023"),
            "{err}"
        );

        let tray = Place::Tray {
            tray: TrayKind::Withdrawn,
            seat: Seat::SECOND,
            slot: 7,
        };
        for place in [sq("l10"), tray] {
            let bytes = postcard::to_allocvec(&place).unwrap();
            assert_eq!(postcard::from_bytes::<Place>(&bytes), Ok(place));
        }
        // A square on column 30, a tray of seat 2, a fifth tray kind.
        for bad in [[0u8, 30, 0], [1, 2, 2], [1, 4, 0]] {
            assert!(postcard::from_bytes::<Place>(&bad).is_err(), "{bad:?}");
        }
        let err = postcard::from_bytes::<Place>(&[1, 2, 2, 0]).unwrap_err();
        assert_eq!(err, postcard::Error::SerdeDeCustom);
    }

    #[test]
    fn waterloo_grid_with_trays_maps_both_ways() {
        let layout = LayoutSetup::grid(12, 10)
            .with_tray(TrayKind::Reserve, Seat::FIRST, 14)
            .with_tray(TrayKind::PrussianStaging, Seat::SECOND, 12)
            .with_tray(TrayKind::Eliminated, Seat::FIRST, 20)
            .with_tray(TrayKind::Eliminated, Seat::SECOND, 20)
            .with_tray(TrayKind::Withdrawn, Seat::FIRST, 8)
            .validate()
            .unwrap();
        assert_eq!(layout.cell_count(), 120 + 14 + 12 + 20 + 20 + 8);
        assert_eq!(layout.place(SensedCell::new(0)), Some(sq("a1")));
        assert_eq!(layout.place(SensedCell::new(13)), Some(sq("b2")));
        assert_eq!(layout.cell(sq("l10")), Some(SensedCell::new(119)));
        let prussian = Place::Tray {
            tray: TrayKind::PrussianStaging,
            seat: Seat::SECOND,
            slot: 0,
        };
        assert_eq!(layout.cell(prussian), Some(SensedCell::new(134)));
        assert_eq!(layout.place(SensedCell::new(134)), Some(prussian));
        assert_eq!(prussian.to_string(), "seat 2 Prussian staging slot 1");
        assert_eq!(layout.place(SensedCell::new(250)), None);
        assert_eq!(layout.iter().count(), usize::from(layout.cell_count()));
    }

    #[test]
    fn stratego_grid_with_tag_readers() {
        let layout = LayoutSetup::grid(10, 10)
            .with_tag_readers_everywhere()
            .validate()
            .unwrap();
        assert_eq!(layout.cell_count(), 100);
        assert!(layout.has_tag_reader(SensedCell::new(99)));
        assert!(!layout.has_tag_reader(SensedCell::new(100)));
        let occ = Occupancy::from_cells([SensedCell::new(3), SensedCell::new(200)]);
        assert_eq!(
            layout.places_in(&occ).collect::<Vec<_>>(),
            [(SensedCell::new(3), sq("d1"))]
        );
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let setup = LayoutSetup {
            cell_count: 4,
            places: vec![
                (SensedCell::new(0), sq("a1")),
                (SensedCell::new(0), sq("b1")),
                (SensedCell::new(1), sq("a1")),
                (SensedCell::new(9), sq("c1")),
            ],
            tag_readers: vec![SensedCell::new(2), SensedCell::new(2)],
        };
        let problems = setup.validate().unwrap_err();
        assert_eq!(
            problems.as_slice(),
            [
                LayoutProblem::CellMappedTwice {
                    cell: SensedCell::new(0),
                    first: sq("a1"),
                    second: sq("b1")
                },
                LayoutProblem::PlaceMappedTwice {
                    place: sq("a1"),
                    first: SensedCell::new(0),
                    second: SensedCell::new(1)
                },
                LayoutProblem::CellOutOfRange {
                    cell: SensedCell::new(9),
                    place: sq("c1"),
                    count: 4
                },
                LayoutProblem::TagReaderOnUnmappedCell {
                    cell: SensedCell::new(2)
                },
            ]
        );
        assert_eq!(
            problems.to_string(),
            "4 problems: sensor 0 is mapped to both a1 and b1: give each place its own sensor; \
             a1 is mapped to both sensor 0 and sensor 1: keep one of them; \
             c1 is on sensor 9, but the scanner has only sensors 0 to 3: fix the number or \
             raise cell_count; \
             a tag reader is listed on sensor 2, which senses no place: map the sensor to a \
             place or drop the reader"
        );
    }

    #[test]
    fn empty_and_oversized_layouts_are_refused() {
        let problems = LayoutSetup::default().validate().unwrap_err();
        assert_eq!(problems.as_slice(), [LayoutProblem::NoPlaces]);

        // 26x40 squares: 1040 inputs. One problem, not 16 out-of-range cells.
        let problems = LayoutSetup::grid(26, 40).validate().unwrap_err();
        assert_eq!(
            problems.as_slice(),
            [LayoutProblem::TooManyCells { count: 1040 }]
        );
    }
}
