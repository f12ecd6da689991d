//! Untrusted set-ups: both players' placements, validated with every problem listed.

use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use super::layout::TileKind;
use super::sides::{seat_name, ALLIED, FRENCH};
use super::units::{Army, Class, Unit};
use super::{Options, Version};
use crate::geometry::grid::Cell;
use crate::{BySeat, Seat};

/// Both players' placements: the input to [`Waterloo`](super::Waterloo)'s `Game::start`. Every
/// piece of the army not placed is in reserve (at most [`Options::max_reserve`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Each seat's pieces on the board: square and unit, in the order given.
    pub placements: BySeat<Vec<(Cell, Unit)>>,
}

/// The 14 French pieces held back in "Start the battle early!".
pub(crate) const HELD_BACK: [(Unit, u8); 7] = [
    (Unit::FrenchLightInfantry, 1),
    (Unit::FrenchLineInfantry, 5),
    (Unit::MiddleGuard, 2),
    (Unit::OldGuard, 1),
    (Unit::Cuirassiers, 2),
    (Unit::EmpressDragoons, 1),
    (Unit::FrenchArtillery, 2),
];

/// How many of `unit` are held back under `options`.
pub(crate) fn held_back(options: &Options, unit: Unit) -> u8 {
    if !options.early_start {
        return 0;
    }
    HELD_BACK
        .iter()
        .find(|(u, _)| *u == unit)
        .map_or(0, |(_, n)| *n)
}

/// The army a seat sets up.
pub(crate) fn army_of(seat: Seat) -> Army {
    if seat == ALLIED {
        Army::Allied
    } else {
        Army::French
    }
}

/// One problem with a set-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SetupProblem {
    /// A unit of another army (or a Prussian) was placed.
    WrongArmy {
        /// Whose placement.
        seat: Seat,
        /// The unit.
        unit: Unit,
    },
    /// A piece stands outside the player's four set-up rows.
    OutsideZone {
        /// Whose piece.
        seat: Seat,
        /// Where.
        cell: Cell,
    },
    /// Two pieces on one square.
    SquareTwice {
        /// Whose pieces.
        seat: Seat,
        /// The square.
        cell: Cell,
    },
    /// More pieces of a unit than the army has (or may place).
    TooMany {
        /// Whose army.
        seat: Seat,
        /// The unit.
        unit: Unit,
        /// How many were placed.
        placed: u8,
        /// How many may be.
        max: u8,
    },
    /// More than the allowed number of pieces left in reserve.
    TooManyInReserve {
        /// Whose army.
        seat: Seat,
        /// How many are left off the board.
        reserve: u8,
        /// The most allowed.
        max: u8,
    },
    /// A commander or commander-in-chief is not on the board.
    CommanderOffBoard {
        /// Whose.
        seat: Seat,
        /// Which.
        unit: Unit,
    },
    /// Cavalry, commanders and artillery may not stand in a building.
    BarredFromBuilding {
        /// Whose piece.
        seat: Seat,
        /// Where.
        cell: Cell,
        /// The piece.
        unit: Unit,
    },
    /// Artillery may not stand on mud.
    ArtilleryOnMud {
        /// Whose piece.
        seat: Seat,
        /// Where.
        cell: Cell,
    },
    /// Expert game: Hougoumont must hold exactly two Allied infantry at the start.
    HougoumontGarrison {
        /// How many Allied infantry stand in it.
        infantry: u8,
    },
}

impl SetupProblem {
    /// The seat whose set-up has this problem.
    pub fn seat(&self) -> Seat {
        match *self {
            SetupProblem::WrongArmy { seat, .. }
            | SetupProblem::OutsideZone { seat, .. }
            | SetupProblem::SquareTwice { seat, .. }
            | SetupProblem::TooMany { seat, .. }
            | SetupProblem::TooManyInReserve { seat, .. }
            | SetupProblem::CommanderOffBoard { seat, .. }
            | SetupProblem::BarredFromBuilding { seat, .. }
            | SetupProblem::ArtilleryOnMud { seat, .. } => seat,
            SetupProblem::HougoumontGarrison { .. } => ALLIED,
        }
    }
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = seat_name(self.seat());
        match *self {
            SetupProblem::WrongArmy { unit, .. } => {
                write!(f, "{name}: {unit} is not in the {name} army: take it off")
            }
            SetupProblem::OutsideZone { cell, .. } => write!(
                f,
                "{name}: {cell} is outside your four set-up rows: move the piece back"
            ),
            SetupProblem::SquareTwice { cell, .. } => {
                write!(f, "{name}: two pieces on {cell}: one square holds one piece")
            }
            SetupProblem::TooMany {
                unit, placed, max, ..
            } => write!(f, "{name}: {placed} {unit} placed (max {max})"),
            SetupProblem::TooManyInReserve { reserve, max, .. } => write!(
                f,
                "{name}: {reserve} pieces left in reserve (max {max}): place more"
            ),
            SetupProblem::CommanderOffBoard { unit, .. } => {
                write!(f, "{name}: {unit} must always be placed on the board")
            }
            SetupProblem::BarredFromBuilding { cell, unit, .. } => write!(
                f,
                "{name}: {unit} on {cell} may not stand in a building: only infantry may"
            ),
            SetupProblem::ArtilleryOnMud { cell, .. } => {
                write!(f, "{name}: artillery on {cell} may not stand on mud")
            }
            SetupProblem::HougoumontGarrison { infantry } => write!(
                f,
                "Allied: Hougoumont must hold two Allied infantry at the start (it holds {infantry})"
            ),
        }
    }
}

impl Setup {
    /// Validates this set-up under `options`.
    ///
    /// # Errors
    /// Every problem found.
    pub(crate) fn validate(&self, options: &Options) -> Vec<SetupProblem> {
        let layout = &options.layout;
        let mut problems = Vec::new();
        for seat in [ALLIED, FRENCH] {
            let army = army_of(seat);
            let list = &self.placements[seat];
            let mut taken: Vec<Cell> = Vec::new();
            for &(cell, unit) in list {
                if unit.army() != army {
                    problems.push(SetupProblem::WrongArmy { seat, unit });
                    continue;
                }
                // Expert: "The Terrain tile Hougemont in the middle of the board ... is occupied
                // by two Allied Infantry pieces at the start of the game!"
                let garrison = options.version == Version::Expert
                    && seat == ALLIED
                    && unit.class().is_infantry()
                    && layout
                        .tiles
                        .iter()
                        .any(|t| t.name == "hougoumont" && t.cells.contains(&cell));
                if !layout.contains(cell) || !(garrison || layout.in_setup_rows(seat, cell)) {
                    problems.push(SetupProblem::OutsideZone { seat, cell });
                    continue;
                }
                if taken.contains(&cell) {
                    problems.push(SetupProblem::SquareTwice { seat, cell });
                    continue;
                }
                taken.push(cell);
                if let Some((_, tile)) = layout.tile_at(cell).filter(|(_, t)| options.uses(t.kind))
                {
                    match tile.kind {
                        TileKind::Building if !unit.class().is_infantry() => {
                            problems.push(SetupProblem::BarredFromBuilding { seat, cell, unit })
                        }
                        TileKind::Mud if unit.class() == Class::Artillery => {
                            problems.push(SetupProblem::ArtilleryOnMud { seat, cell })
                        }
                        _ => {}
                    }
                }
            }
            let mut reserve = 0u8;
            for unit in Unit::of(army) {
                let placed = list.iter().filter(|(_, u)| *u == unit).count();
                let placed = u8::try_from(placed).unwrap_or(u8::MAX);
                let max = unit.count() - held_back(options, unit);
                if placed > max {
                    problems.push(SetupProblem::TooMany {
                        seat,
                        unit,
                        placed,
                        max,
                    });
                } else {
                    reserve += max - placed;
                }
                if matches!(unit.class(), Class::Commander | Class::CommanderInChief) && placed == 0
                {
                    problems.push(SetupProblem::CommanderOffBoard { seat, unit });
                }
            }
            if reserve > options.max_reserve {
                problems.push(SetupProblem::TooManyInReserve {
                    seat,
                    reserve,
                    max: options.max_reserve,
                });
            }
        }
        if options.version == Version::Expert {
            if let Some(h) = layout.tiles.iter().find(|t| t.name == "hougoumont") {
                let infantry = self.placements[ALLIED]
                    .iter()
                    .filter(|(c, u)| h.cells.contains(c) && u.class().is_infantry())
                    .count();
                if infantry != 2 {
                    problems.push(SetupProblem::HougoumontGarrison {
                        infantry: infantry as u8,
                    });
                }
            }
        }
        problems
    }

    /// A random valid set-up: each army shuffled over its set-up rows with `reserve(seat)`
    /// pieces (not commanders) left in reserve, and in the Expert game two Allied line infantry
    /// in Hougoumont. `rng(n)` returns a number below `n`.
    pub fn random(options: &Options, mut rng: impl FnMut(usize) -> usize) -> Setup {
        let layout = &options.layout;
        let mut setup = Setup::default();
        for seat in [ALLIED, FRENCH] {
            let army = army_of(seat);
            let mut pieces: Vec<Unit> = Vec::new();
            for unit in Unit::of(army) {
                for _ in 0..unit.count() - held_back(options, unit) {
                    pieces.push(unit);
                }
            }
            // Shuffle, keep commanders, leave up to max_reserve off.
            for i in (1..pieces.len()).rev() {
                pieces.swap(i, rng(i + 1));
            }
            let mut cells: Vec<Cell> = (0..layout.cells())
                .map(|i| layout.cell(i))
                .filter(|&c| layout.in_setup_rows(seat, c))
                .collect();
            for i in (1..cells.len()).rev() {
                cells.swap(i, rng(i + 1));
            }
            let keep_off = rng(usize::from(options.max_reserve) + 1);
            let mut off = 0;
            let mut placed = Vec::new();
            if seat == ALLIED && options.version == Version::Expert {
                if let Some(h) = layout.tiles.iter().find(|t| t.name == "hougoumont") {
                    for &c in h.cells.iter().take(2) {
                        if let Some(k) = pieces.iter().position(|u| *u == Unit::BritishFoot) {
                            pieces.swap_remove(k);
                            cells.retain(|x| *x != c);
                            placed.push((c, Unit::BritishFoot));
                        }
                    }
                }
            }
            for unit in pieces {
                let commander = matches!(unit.class(), Class::Commander | Class::CommanderInChief);
                if !commander && off < keep_off {
                    off += 1;
                    continue;
                }
                let fits = |c: &Cell| match layout
                    .tile_at(*c)
                    .map(|(_, t)| t.kind)
                    .filter(|k| options.uses(*k))
                {
                    Some(TileKind::Building) => unit.class().is_infantry(),
                    Some(TileKind::Mud) => unit.class() != Class::Artillery,
                    _ => true,
                };
                match cells.iter().position(fits) {
                    Some(k) => placed.push((cells.swap_remove(k), unit)),
                    None => off += 1,
                }
            }
            setup.placements[seat] = placed;
        }
        setup
    }
}
