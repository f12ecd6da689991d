//! The [`TableGame`] adapters of the games played through the generic
//! referee, and the menu entries that start them.

pub mod piecepack;

use std::collections::BTreeSet;

use boards::waterloo::Version;
use serde::{Deserialize, Serialize};

use self::piecepack::PiecepackTable;
use super::record::{GameKind, RebuildError, Record};
use super::table::session::AnySession;
use super::table::{rebuild_table, Session, TableGame};
use crate::sensing::{LayoutSetup, Place};

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
    vec![(piecepack::TITLE, piecepack::variants())]
}

/// The sensed places a game of `kind` needs (`None` for Stratego, whose board is a 10x10
/// grid of squares).
pub fn layout(kind: GameKind) -> Option<LayoutSetup> {
    match kind {
        GameKind::Stratego { .. } | GameKind::Waterloo { .. } => None,
        GameKind::Piecepack { options } => Some(PiecepackTable::layout(options)),
    }
}

/// A new session of `kind`; `None` for Stratego Original and Duel (the referee plays those
/// itself).
pub(crate) fn new_session(kind: GameKind) -> Option<Box<dyn AnySession>> {
    match kind {
        GameKind::Stratego { .. } | GameKind::Waterloo { .. } => None,
        GameKind::Piecepack { options } => Some(Box::new(Session::<PiecepackTable>::new(options))),
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
        GameKind::Stratego { .. } | GameKind::Waterloo { .. } => Ok(None),
        GameKind::Piecepack { options } => {
            let rebuilt = rebuild_table::<PiecepackTable>(options, records)?;
            Ok(Some(Box::new(Session::resume(options, rebuilt, sensed))))
        }
    }
}
