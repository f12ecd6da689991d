//! Napoléon, the Waterloo campaign of 1815 (the rulebook *Napoléon*, in Dutch): the game's
//! data and its campaign rules.
//!
//! - [`Napoleon`]: the game ([`Game`](crate::Game)) for two or three players, with its
//!   [`Options`] (the named rulings), [`Setup`] and per-seat [`View`].
//! - [`Map`]: the strategic map ([`DEFAULT_MAP`]): towns and cities, which army sets up where,
//!   roads with their widths, limits and rivers, the Allied supply cities and the battle-board
//!   terrain pool. Its [`RoadMap`](crate::geometry::roads::RoadMap) is built from the file, so the
//!   file is the one source of the graph.
//! - [`OrderOfBattle`]: the 58 blocks ([`DEFAULT_ORDER_OF_BATTLE`]), checked against a map.
//! - [`TurnTrack`]: the time record ([`DEFAULT_TURN_TRACK`]): French and Allied turns, night
//!   turns, the last turn.
//!
//! Each is an editable text file, compiled in as the default and readable from any text at run
//! time, and reports every problem at once, each with its line ([`DataProblem`]). A
//! [`Campaign`] reads the three together and reports the problems of all three
//! ([`FileProblem`]: file and line).
//!
//! ```
//! use boards::napoleon::{Army, Map, OrderOfBattle, TurnTrack};
//!
//! let map = Map::standard().expect("the default map is valid");
//! let brussel = map.town("BRU").expect("Brussels is on the map");
//! assert_eq!(map.graph().neighbours(brussel).count(), 7);
//! let oob = OrderOfBattle::standard(&map).expect("the default order of battle is valid");
//! assert_eq!(oob.len(), 58);
//! assert_eq!(oob.leader(Army::Prussian).map(|b| b.name.as_str()), Some("BLUCHER"));
//! let track = TurnTrack::standard().expect("the default turn track is valid");
//! assert_eq!(track.len(), 23);
//!
//! let broken = Map::parse("town BRU ad city Brussel\nroad BRU WAT broad\n");
//! let problems = broken.expect_err("Waterloo is missing").to_string();
//! assert!(problems.contains("line 2: road BRU-WAT: no town WAT"));
//! ```
//!
#![doc = include_str!("README.md")]

mod army;
pub mod battle;
mod data;
mod end;
mod game;
mod map;
mod oob;
#[cfg(test)]
mod rules_tests;
mod turns;
mod view;

pub use end::EndReason;
pub use game::{
    defeat_threshold, groups_per_turn, Action, Event, Illegal, Napoleon, Options, Placement,
    Players, Setup, SetupProblem, SupplyLoss, ALLIED_SET_UP_CAP, FRENCH_SET_UP_CAP, SKIRMISH_BELOW,
    STRAGGLERS_ON, SUPPLY_CITIES_TO_WIN,
};
pub use view::{HiddenBlocks, OwnBlock, View};

pub use army::Army;
pub use battle::Battle;
pub use data::DataProblem;
pub use map::{
    Map, RoadKind, RoadLimits, SupplyCity, TerrainKind, TerrainPool, TownInfo, Width, DEFAULT_MAP,
};
pub use oob::{
    Block, BlockId, Corps, CorpsId, Firepower, OrderOfBattle, UnitType, DEFAULT_ORDER_OF_BATTLE,
};
pub use turns::{Mover, Turn, TurnTrack, DEFAULT_TURN_TRACK};

use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use crate::Problems;

/// Which of the three data files a problem is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DataFile {
    /// The map ([`DEFAULT_MAP`]).
    Map,
    /// The order of battle ([`DEFAULT_ORDER_OF_BATTLE`]).
    OrderOfBattle,
    /// The turn track ([`DEFAULT_TURN_TRACK`]).
    TurnTrack,
}

impl fmt::Display for DataFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DataFile::Map => "map",
            DataFile::OrderOfBattle => "order of battle",
            DataFile::TurnTrack => "turn track",
        })
    }
}

/// A problem in one of the three data files of a [`Campaign`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FileProblem {
    /// The file.
    pub file: DataFile,
    /// The problem, with its line in that file.
    pub problem: DataProblem,
}

impl fmt::Display for FileProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, {}", self.file, self.problem)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for FileProblem {}

/// The three data files of a campaign, read together: the map, the order of battle whose start
/// towns are on it, and the turn track.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Campaign {
    map: Map,
    order_of_battle: OrderOfBattle,
    turn_track: TurnTrack,
}

impl Campaign {
    /// The embedded defaults.
    ///
    /// # Errors
    /// None in practice: the embedded files are tested to be valid together.
    pub fn standard() -> Result<Campaign, Problems<FileProblem>> {
        Campaign::parse(DEFAULT_MAP, DEFAULT_ORDER_OF_BATTLE, DEFAULT_TURN_TRACK)
    }

    /// Reads the three files.
    ///
    /// # Errors
    /// Every problem of all three files at once, each with its file and line. When the map
    /// has problems, the order of battle is checked for everything but its start towns.
    pub fn parse(
        map: &str,
        order_of_battle: &str,
        turn_track: &str,
    ) -> Result<Campaign, Problems<FileProblem>> {
        let mut problems = Vec::new();
        let mut note = |file: DataFile, found: Vec<DataProblem>| {
            problems.extend(
                found
                    .into_iter()
                    .map(|problem| FileProblem { file, problem }),
            );
        };
        let map = Map::parse(map).map_err(|p| note(DataFile::Map, p.0)).ok();
        let order_of_battle = match &map {
            Some(map) => OrderOfBattle::parse(order_of_battle, map)
                .map_err(|p| note(DataFile::OrderOfBattle, p.0))
                .ok(),
            None => {
                note(
                    DataFile::OrderOfBattle,
                    OrderOfBattle::problems_without_map(order_of_battle),
                );
                None
            }
        };
        let turn_track = TurnTrack::parse(turn_track)
            .map_err(|p| note(DataFile::TurnTrack, p.0))
            .ok();
        match (map, order_of_battle, turn_track) {
            (Some(map), Some(order_of_battle), Some(turn_track)) if problems.is_empty() => {
                Ok(Campaign {
                    map,
                    order_of_battle,
                    turn_track,
                })
            }
            _ => Err(Problems(problems)),
        }
    }

    /// The map.
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// The order of battle; its start towns are on [`Campaign::map`].
    pub fn order_of_battle(&self) -> &OrderOfBattle {
        &self.order_of_battle
    }

    /// The turn track.
    pub fn turn_track(&self) -> &TurnTrack {
        &self.turn_track
    }
}
