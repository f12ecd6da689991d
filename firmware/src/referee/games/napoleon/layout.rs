//! Napoléon's physical board as data: which sensed square is each slot beside a town of the
//! map, each zone, reserve and terrain spot of the battle boards, and each eliminated-block
//! tray slot. Read from a layout file ([`DEFAULT_LAYOUT`], or an owner's) against the campaign's
//! map and order of battle, every problem at once with its line.
//!
//! A town, a zone or a reserve is an *area*: a few squares, each holding one block. The sensing
//! layer needs nothing more than its squares (as Sa Belle Alliance's boxes): which square makes
//! which area is this file's, and the adapter's to read.

use std::collections::BTreeMap;
use std::fmt;

use boards::geometry::roads::TownId;
use boards::napoleon::battle::{Side, Wing, Zone};
use boards::napoleon::{Army, Campaign};

use super::super::squares::{self, SquareFile, SquareLine};
use crate::sensing::{LayoutSetup, Place};

#[cfg(test)]
mod tests;

/// The shipped layout: a 26 x 31 grid holding the default map's 39 towns, two battle boards
/// and the three armies' eliminated trays.
pub const DEFAULT_LAYOUT: &str = include_str!("layout.txt");

/// Battle boards a layout may have (the game has two, 3.1; a third allows a third battle).
pub const MAX_BOARDS: u8 = 4;

/// The places of one battle board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BattleBoard {
    /// Each zone's spaces, in [`Zone::ALL`]'s order (the attacker's half first).
    zones: [Vec<Place>; 6],
    /// Each side's reserve: the attacker's, then the defender's.
    reserves: [Vec<Place>; 2],
    /// Each zone's terrain spot, in [`Zone::ALL`]'s order.
    terrain: [Place; 6],
}

impl BattleBoard {
    /// The spaces of `zone`.
    pub fn zone(&self, zone: Zone) -> &[Place] {
        let i = Zone::ALL.iter().position(|z| *z == zone).unwrap_or(0);
        &self.zones[i]
    }

    /// The spaces of `side`'s reserve.
    pub fn reserve(&self, side: Side) -> &[Place] {
        &self.reserves[side_index(side)]
    }

    /// The terrain spot of `zone`.
    pub fn terrain(&self, zone: Zone) -> Place {
        let i = Zone::ALL.iter().position(|z| *z == zone).unwrap_or(0);
        self.terrain[i]
    }

    fn places(&self) -> impl Iterator<Item = Place> + '_ {
        self.zones
            .iter()
            .flatten()
            .chain(self.reserves.iter().flatten())
            .chain(&self.terrain)
            .copied()
    }
}

const fn side_index(side: Side) -> usize {
    match side {
        Side::Attacker => 0,
        Side::Defender => 1,
    }
}

const fn army_index(army: Army) -> usize {
    match army {
        Army::French => 0,
        Army::AngloDutch => 1,
        Army::Prussian => 2,
    }
}

/// What one place of the layout is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spot {
    /// Slot `slot` (from 0) of a town of the map.
    Town {
        /// The town.
        town: TownId,
        /// The slot, from 0.
        slot: u8,
    },
    /// Space `slot` of a zone of battle board `board` (from 0).
    Zone {
        /// The board, from 0.
        board: u8,
        /// The zone.
        zone: Zone,
        /// The space, from 0.
        slot: u8,
    },
    /// Space `slot` of a side's reserve on battle board `board`.
    Reserve {
        /// The board, from 0.
        board: u8,
        /// Whose reserve.
        side: Side,
        /// The space, from 0.
        slot: u8,
    },
    /// The terrain spot of a zone of battle board `board`.
    Terrain {
        /// The board, from 0.
        board: u8,
        /// The zone.
        zone: Zone,
    },
    /// Slot `slot` of `army`'s eliminated tray.
    Eliminated {
        /// Whose tray.
        army: Army,
        /// The slot, from 0.
        slot: u8,
    },
}

/// Which sensed square is each slot of the table. Built only by [`NapoleonLayout::parse`]
/// against a campaign, so every town of the map has its slots (at least its historical blocks),
/// every battle board every area, every army a tray slot per block, each square once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NapoleonLayout {
    columns: u8,
    rows: u8,
    /// Each town's slots, by town index.
    towns: Vec<Vec<Place>>,
    /// The battle boards, from board 1.
    boards: Vec<BattleBoard>,
    /// Each army's eliminated tray, by army.
    eliminated: [Vec<Place>; 3],
    /// What each place is.
    spots: BTreeMap<Place, Spot>,
}

/// A layout's problems, each with its line (0: the file as a whole) and its fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutProblems(pub Vec<(usize, String)>);

impl fmt::Display for LayoutProblems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (line, m)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            if *line == 0 {
                f.write_str(m)?;
            } else {
                write!(f, "line {line}: {m}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for LayoutProblems {}

/// What a layout line names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Entry {
    Town(TownId),
    Zone(u8, Zone),
    Reserve(u8, Side),
    Terrain(u8, Zone),
    Eliminated(Army),
}

/// A board being read: each part as its line gave it.
#[derive(Default)]
struct Draft {
    zones: [Option<Vec<Place>>; 6],
    reserves: [Option<Vec<Place>>; 2],
    terrain: [Option<Place>; 6],
}

fn side_word(word: &str) -> Option<Side> {
    match word {
        "attacker" => Some(Side::Attacker),
        "defender" => Some(Side::Defender),
        _ => None,
    }
}

fn wing_word(word: &str) -> Option<Wing> {
    match word {
        "left" => Some(Wing::Left),
        "centre" => Some(Wing::Centre),
        "right" => Some(Wing::Right),
        _ => None,
    }
}

fn zone_index(zone: Zone) -> usize {
    Zone::ALL.iter().position(|z| *z == zone).unwrap_or(0)
}

/// A zone's words in the file ("attacker left").
pub(super) fn zone_words(zone: Zone) -> String {
    let side = match zone.half {
        Side::Attacker => "attacker",
        Side::Defender => "defender",
    };
    format!("{side} {}", zone.wing)
}

/// Reads the name of a line against `campaign`: what it names, or the problem.
fn entry(name: &str, campaign: &Campaign) -> Result<Entry, String> {
    let words: Vec<&str> = name.split_whitespace().collect();
    let map = campaign.map();
    match words.as_slice() {
        ["town", code] => map.town(code).map(Entry::Town).ok_or_else(|| {
            format!(
                "town {code}: no such town in the map: use a town's code as the map file \
                 spells it"
            )
        }),
        ["eliminated", army] => Army::parse(army)
            .map(Entry::Eliminated)
            .ok_or_else(|| format!("eliminated {army}: no such army: write french, ad or pr")),
        ["battle", n, side, rest @ ..] => {
            let board = match n.parse::<u8>() {
                Ok(b) if (1..=MAX_BOARDS).contains(&b) => b - 1,
                _ => {
                    return Err(format!(
                        "battle {n}: a board is numbered 1 to {MAX_BOARDS}: write e.g. \
                         \"battle 1 attacker left\""
                    ))
                }
            };
            let Some(side) = side_word(side) else {
                return Err(format!(
                    "battle {n} {side}: the side is attacker or defender"
                ));
            };
            match rest {
                ["reserve"] => Ok(Entry::Reserve(board, side)),
                [wing] | [wing, "terrain"] => {
                    let Some(wing) = wing_word(wing) else {
                        return Err(format!(
                            "battle {n}: \"{wing}\" is no wing: write left, centre, right or \
                             reserve"
                        ));
                    };
                    let zone = Zone::new(side, wing);
                    Ok(if rest.len() == 2 {
                        Entry::Terrain(board, zone)
                    } else {
                        Entry::Zone(board, zone)
                    })
                }
                _ => Err(format!(
                    "\"{name}\" is not a battle board's area: write \"battle N SIDE WING\", \
                     \"battle N SIDE reserve\" or \"battle N SIDE WING terrain\""
                )),
            }
        }
        _ => Err(format!(
            "\"{name}\" is no town, battle board area or eliminated tray: write \"town CODE\", \
             \"battle N SIDE WING\" or \"eliminated ARMY\""
        )),
    }
}

impl NapoleonLayout {
    /// Reads a layout file for `campaign`'s map and order of battle.
    ///
    /// # Errors
    /// Every problem, each with its line (0: the whole file) and how to fix it.
    pub fn parse(text: &str, campaign: &Campaign) -> Result<NapoleonLayout, LayoutProblems> {
        let map = campaign.map();
        let oob = campaign.order_of_battle();
        let SquareFile {
            columns,
            rows,
            lines,
            seen,
            mut problems,
        } = squares::read(text, "slot", "26x31", |n| entry(n, campaign)).map_err(LayoutProblems)?;
        let towns = map.graph().town_count();
        let mut town_slots: Vec<Option<Vec<Place>>> = vec![None; towns];
        let mut drafts: Vec<Draft> = (0..MAX_BOARDS).map(|_| Draft::default()).collect();
        let mut trays: [Option<Vec<Place>>; 3] = [None, None, None];
        for SquareLine {
            line,
            what,
            name,
            places,
        } in lines
        {
            match what {
                Entry::Town(town) => {
                    let historical = oob.blocks().filter(|(_, b)| b.start == town).count();
                    if places.is_empty() {
                        problems.push((line, format!("{name}: no slots: list its squares")));
                    } else if places.len() < historical {
                        problems.push((
                            line,
                            format!(
                                "{name}: {} slots, but {historical} blocks start there \
                                 historically (4.3): list at least {historical} squares",
                                places.len()
                            ),
                        ));
                    } else if places.len() > usize::from(u8::MAX) {
                        problems.push((line, format!("{name}: at most 255 slots")));
                    }
                    town_slots[town.index()] = Some(places);
                }
                Entry::Zone(board, zone) => {
                    if places.is_empty() {
                        problems.push((line, format!("{name}: no spaces: list its squares")));
                    }
                    drafts[usize::from(board)].zones[zone_index(zone)] = Some(places);
                }
                Entry::Reserve(board, side) => {
                    if places.is_empty() {
                        problems.push((line, format!("{name}: no spaces: list its squares")));
                    }
                    drafts[usize::from(board)].reserves[side_index(side)] = Some(places);
                }
                Entry::Terrain(board, zone) => match places.as_slice() {
                    [one] => drafts[usize::from(board)].terrain[zone_index(zone)] = Some(*one),
                    _ => problems.push((
                        line,
                        format!(
                            "{name}: a terrain spot is one square, not {}: give one",
                            places.len()
                        ),
                    )),
                },
                Entry::Eliminated(army) => {
                    let need = oob.army(army).count();
                    if places.len() < need {
                        problems.push((
                            line,
                            format!(
                                "{name}: {} slots for {need} blocks: list {need} squares, one \
                                 per block of the army",
                                places.len()
                            ),
                        ));
                    }
                    trays[army_index(army)] = Some(places);
                }
            }
        }
        for (id, town) in map.graph().towns() {
            if town_slots[id.index()].is_none() {
                let code = &town.info.code;
                problems.push((
                    0,
                    format!(
                        "town {code} ({}): no slots: add a line \"town {code}: SQUARES\"",
                        map.name(id).unwrap_or(code.as_str())
                    ),
                ));
            }
        }
        for army in Army::ALL {
            if trays[army_index(army)].is_none() {
                problems.push((
                    0,
                    format!(
                        "the {army} eliminated tray has no slots: add a line \"eliminated {}: \
                         SQUARES\"",
                        army.word()
                    ),
                ));
            }
        }
        // Boards 1 to the last one named, each whole.
        let used = drafts
            .iter()
            .rposition(|d| {
                d.zones.iter().any(Option::is_some)
                    || d.reserves.iter().any(Option::is_some)
                    || d.terrain.iter().any(Option::is_some)
            })
            .map_or(0, |i| i + 1);
        if used == 0 {
            problems.push((
                0,
                "no battle board: add the lines of \"battle 1\" (six zones, two reserves, six \
                 terrain spots)"
                    .into(),
            ));
        }
        let mut boards = Vec::new();
        for (b, draft) in drafts.into_iter().take(used).enumerate() {
            let n = b + 1;
            let mut missing = Vec::new();
            for zone in Zone::ALL {
                let words = zone_words(zone);
                if draft.zones[zone_index(zone)].is_none() {
                    missing.push(format!("\"battle {n} {words}\""));
                }
                if draft.terrain[zone_index(zone)].is_none()
                    && !seen.contains_key(&format!("battle {n} {words} terrain"))
                {
                    missing.push(format!("\"battle {n} {words} terrain\""));
                }
            }
            for side in ["attacker", "defender"] {
                let i = usize::from(side == "defender");
                if draft.reserves[i].is_none() {
                    missing.push(format!("\"battle {n} {side} reserve\""));
                }
            }
            if !missing.is_empty() {
                problems.push((
                    0,
                    format!(
                        "battle board {n} is missing {}: add them",
                        missing.join(", ")
                    ),
                ));
                continue;
            }
            let Draft {
                zones,
                reserves,
                terrain,
            } = draft;
            // A terrain line with a wrong count of squares is that line's problem.
            let (Some(terrain), Some(zones), Some(reserves)) = (
                terrain.iter().copied().collect::<Option<Vec<Place>>>(),
                zones.into_iter().collect::<Option<Vec<Vec<Place>>>>(),
                reserves.into_iter().collect::<Option<Vec<Vec<Place>>>>(),
            ) else {
                continue;
            };
            let (Ok(terrain), Ok(zones), Ok(reserves)) = (
                <[Place; 6]>::try_from(terrain),
                <[Vec<Place>; 6]>::try_from(zones),
                <[Vec<Place>; 2]>::try_from(reserves),
            ) else {
                continue;
            };
            boards.push(BattleBoard {
                zones,
                reserves,
                terrain,
            });
        }
        squares::verdict(problems, ()).map_err(LayoutProblems)?;
        let [french, ad, pr] = trays;
        let mut layout = NapoleonLayout {
            columns,
            rows,
            towns: town_slots
                .into_iter()
                .map(Option::unwrap_or_default)
                .collect(),
            boards,
            eliminated: [
                french.unwrap_or_default(),
                ad.unwrap_or_default(),
                pr.unwrap_or_default(),
            ],
            spots: BTreeMap::new(),
        };
        layout.spots = layout.index();
        Ok(layout)
    }

    /// What each place is.
    fn index(&self) -> BTreeMap<Place, Spot> {
        let mut spots = BTreeMap::new();
        let n = |i: usize| u8::try_from(i).unwrap_or(u8::MAX);
        for (t, slots) in self.towns.iter().enumerate() {
            let town = TownId::new(u16::try_from(t).unwrap_or(u16::MAX));
            for (slot, p) in slots.iter().enumerate() {
                spots.insert(
                    *p,
                    Spot::Town {
                        town,
                        slot: n(slot),
                    },
                );
            }
        }
        for (b, board) in self.boards.iter().enumerate() {
            let board_n = n(b);
            for (zone, places) in Zone::ALL.iter().zip(&board.zones) {
                for (slot, p) in places.iter().enumerate() {
                    spots.insert(
                        *p,
                        Spot::Zone {
                            board: board_n,
                            zone: *zone,
                            slot: n(slot),
                        },
                    );
                }
            }
            for (side, places) in [Side::Attacker, Side::Defender].iter().zip(&board.reserves) {
                for (slot, p) in places.iter().enumerate() {
                    spots.insert(
                        *p,
                        Spot::Reserve {
                            board: board_n,
                            side: *side,
                            slot: n(slot),
                        },
                    );
                }
            }
            for (zone, p) in Zone::ALL.iter().zip(&board.terrain) {
                spots.insert(
                    *p,
                    Spot::Terrain {
                        board: board_n,
                        zone: *zone,
                    },
                );
            }
        }
        for army in Army::ALL {
            for (slot, p) in self.eliminated[army_index(army)].iter().enumerate() {
                spots.insert(
                    *p,
                    Spot::Eliminated {
                        army,
                        slot: n(slot),
                    },
                );
            }
        }
        spots
    }

    /// The sensed places: every slot of the layout, on its grid.
    pub fn setup(&self) -> LayoutSetup {
        let mut setup = LayoutSetup::grid(self.columns, self.rows);
        setup.places.retain(|(_, p)| self.spots.contains_key(p));
        setup
    }

    /// The grid's columns and rows.
    pub fn grid(&self) -> (u8, u8) {
        (self.columns, self.rows)
    }

    /// The slots of `town`, in order (empty for a town of another map).
    pub fn town(&self, town: TownId) -> &[Place] {
        self.towns.get(town.index()).map_or(&[], Vec::as_slice)
    }

    /// The battle boards, from board 1.
    pub fn boards(&self) -> &[BattleBoard] {
        &self.boards
    }

    /// `army`'s eliminated tray, slot 0 first.
    pub fn eliminated(&self, army: Army) -> &[Place] {
        &self.eliminated[army_index(army)]
    }

    /// What `place` is; `None` off the layout.
    pub fn spot(&self, place: &Place) -> Option<Spot> {
        self.spots.get(place).copied()
    }

    /// Every place of the layout: towns, battle boards, trays.
    pub fn places(&self) -> impl Iterator<Item = Place> + '_ {
        self.towns
            .iter()
            .flatten()
            .copied()
            .chain(self.boards.iter().flat_map(BattleBoard::places))
            .chain(self.eliminated.iter().flatten().copied())
    }

    /// `place` as the players read it ("Bergen slot 2", "board 1 attacker left 3", "board 1
    /// defender reserve 2", "board 2 attacker right terrain", "French eliminated 4"), with
    /// the town names of `campaign`'s map; `None` off the layout.
    pub fn name(&self, campaign: &Campaign, place: &Place) -> Option<String> {
        Some(match self.spot(place)? {
            Spot::Town { town, slot } => {
                let name = campaign.map().name(town).unwrap_or("?");
                format!("{name} slot {}", slot + 1)
            }
            Spot::Zone { board, zone, slot } => {
                format!("board {} {} {}", board + 1, zone_words(zone), slot + 1)
            }
            Spot::Reserve { board, side, slot } => {
                format!("board {} {side} reserve {}", board + 1, slot + 1)
            }
            Spot::Terrain { board, zone } => {
                format!("board {} {} terrain", board + 1, zone_words(zone))
            }
            Spot::Eliminated { army, slot } => format!("{army} eliminated {}", slot + 1),
        })
    }
}
