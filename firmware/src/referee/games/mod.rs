//! The [`TableGame`] adapters of the games played through the generic referee, and the menu
//! entries that start them.

pub mod piecepack;
pub mod waterloo;

use std::collections::BTreeSet;

use boards::waterloo::Version;
use serde::{Deserialize, Serialize};

use self::piecepack::PiecepackTable;
use super::record::{GameKind, RebuildError, Record};
use super::table::session::AnySession;
use super::table::{rebuild_table, table_record, Session, TableGame, TableRecord};
use crate::sensing::{LayoutSetup, Place};

pub use waterloo::{WaterlooAction, WaterlooArmy, WaterlooTable};

/// What the Waterloo menu chose: the version and the scenarios (the board is the default
/// layout, and the rulings the rulebook's numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WaterlooChoice {
    /// Basic, Standard or Expert.
    pub version: Version,
    /// "Start the battle early!".
    pub early_start: bool,
    /// "Where are the Prussians?".
    pub prussians_uncertain: bool,
    /// The mud tiles.
    pub mud: bool,
}

/// The table games on the game menu: each game's name and its variants, each a journal
/// header's [`GameKind`].
pub fn menu() -> Vec<(&'static str, Vec<(String, GameKind)>)> {
    let waterloo = |version, early_start, prussians_uncertain| GameKind::Waterloo {
        choice: WaterlooChoice {
            version,
            early_start,
            prussians_uncertain,
            mud: false,
        },
    };
    vec![
        (
            "Stratego: Waterloo",
            vec![
                ("Basic".to_string(), waterloo(Version::Basic, false, false)),
                (
                    "Standard".to_string(),
                    waterloo(Version::Standard, false, false),
                ),
                (
                    "Expert".to_string(),
                    waterloo(Version::Expert, false, false),
                ),
                (
                    "Basic, start the battle early".to_string(),
                    waterloo(Version::Basic, true, false),
                ),
                (
                    "Standard, start the battle early".to_string(),
                    waterloo(Version::Standard, true, false),
                ),
                (
                    "Expert, start the battle early".to_string(),
                    waterloo(Version::Expert, true, false),
                ),
                (
                    "Expert, where are the Prussians?".to_string(),
                    waterloo(Version::Expert, false, true),
                ),
            ],
        ),
        (piecepack::TITLE, piecepack::variants()),
    ]
}

/// The sensed places a game of `kind` needs (`None` for Stratego, whose board is a 10x10
/// grid of squares).
pub fn layout(kind: GameKind) -> Option<LayoutSetup> {
    match kind {
        GameKind::Waterloo { choice } => Some(WaterlooTable::layout(choice)),
        GameKind::Piecepack { options } => Some(PiecepackTable::layout(options)),
        GameKind::Stratego { .. } => None,
    }
}

/// A new session of `kind`; `None` for Stratego Original and Duel (the referee plays those
/// itself).
pub(crate) fn new_session(kind: GameKind) -> Option<Box<dyn AnySession>> {
    match kind {
        GameKind::Waterloo { choice } => Some(Box::new(Session::<WaterlooTable>::new(choice))),
        GameKind::Piecepack { options } => Some(Box::new(Session::<PiecepackTable>::new(options))),
        GameKind::Stratego { .. } => None,
    }
}

/// The journal of a table game of `kind` told for people (`None` for Stratego).
///
/// # Errors
/// The first record that cannot be trusted.
pub fn record(kind: GameKind, records: &[Record]) -> Result<Option<TableRecord>, RebuildError> {
    match kind {
        GameKind::Waterloo { choice } => table_record::<WaterlooTable>(choice, records).map(Some),
        GameKind::Piecepack { options } => {
            table_record::<PiecepackTable>(options, records).map(Some)
        }
        GameKind::Stratego { .. } => Ok(None),
    }
}

/// The session of `kind` rebuilt from its journal's records, with the board as sensed now.
///
/// # Errors
/// The first record that cannot be trusted.
pub(crate) fn resume_session(
    kind: GameKind,
    records: &[Record],
    sensed: &BTreeSet<Place>,
) -> Result<Option<Box<dyn AnySession>>, RebuildError> {
    match kind {
        GameKind::Waterloo { choice } => {
            let rebuilt = rebuild_table::<WaterlooTable>(choice, records)?;
            Ok(Some(Box::new(Session::resume(choice, rebuilt, sensed))))
        }
        GameKind::Piecepack { options } => {
            let rebuilt = rebuild_table::<PiecepackTable>(options, records)?;
            Ok(Some(Box::new(Session::resume(options, rebuilt, sensed))))
        }
        GameKind::Stratego { .. } => Ok(None),
    }
}
