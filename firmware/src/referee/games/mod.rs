//! The [`TableGame`] adapters of every game the referee plays, and the menu entries that start
//! them.

pub mod piecepack;
pub mod stratego;
pub mod waterloo;

use std::collections::BTreeSet;

use boards::waterloo::Version;

use self::piecepack::PiecepackTable;
use self::stratego::{StrategoChoice, StrategoTable};
use super::record::{GameKind, RebuildError, Record, SetupMode};
use super::table::session::AnySession;
use super::table::{rebuild_table, table_record, Session, TableGame, TableRecord};
use crate::sensing::{LayoutSetup, Place};

pub use super::record::WaterlooChoice;
pub use waterloo::{WaterlooAction, WaterlooArmy, WaterlooTable};

/// The games on the game menu after Stratego Original and Duel (whose entries are the set-up
/// methods): each game's name and its variants, each a journal header's [`GameKind`].
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

/// The sensed places a game of `kind` needs.
pub fn layout(kind: GameKind) -> LayoutSetup {
    match kind {
        GameKind::Waterloo { choice } => WaterlooTable::layout(choice),
        GameKind::Piecepack { options } => PiecepackTable::layout(options),
        GameKind::Stratego { options } => StrategoTable::layout(StrategoChoice {
            options,
            setup: SetupMode::RankGroups,
        }),
    }
}

/// A new session of `kind`, set up by `setup`; `None` when the game has no such set-up.
pub(crate) fn new_session(kind: GameKind, setup: SetupMode) -> Option<Box<dyn AnySession>> {
    match (kind, setup) {
        (GameKind::Stratego { options }, setup) => {
            let choice = StrategoChoice { options, setup };
            match setup {
                SetupMode::RankGroups => Some(Box::new(Session::<StrategoTable>::new(choice))),
                SetupMode::Tags => Session::<StrategoTable>::by_tags(choice)
                    .map(|s| Box::new(s) as Box<dyn AnySession>),
            }
        }
        (_, SetupMode::Tags) => None,
        (GameKind::Waterloo { choice }, _) => Some(Box::new(Session::<WaterlooTable>::new(choice))),
        (GameKind::Piecepack { options }, _) => {
            Some(Box::new(Session::<PiecepackTable>::new(options)))
        }
    }
}

/// The journal of a game of `kind` told for people.
///
/// # Errors
/// The first record that cannot be trusted.
pub fn record(kind: GameKind, records: &[Record]) -> Result<TableRecord, RebuildError> {
    match kind {
        GameKind::Waterloo { choice } => table_record::<WaterlooTable>(choice, records),
        GameKind::Piecepack { options } => table_record::<PiecepackTable>(options, records),
        GameKind::Stratego { options } => table_record::<StrategoTable>(
            StrategoChoice {
                options,
                setup: SetupMode::RankGroups,
            },
            records,
        ),
    }
}

/// The session of `kind`, set up by `setup`, rebuilt from its journal's records, with the board
/// as sensed now.
///
/// # Errors
/// The first record that cannot be trusted, or a set-up the game does not have.
pub(crate) fn resume_session(
    kind: GameKind,
    setup: SetupMode,
    records: &[Record],
    sensed: &BTreeSet<Place>,
) -> Result<Box<dyn AnySession>, RebuildError> {
    let by_tags = setup == SetupMode::Tags;
    match kind {
        GameKind::Stratego { options } => {
            let choice = StrategoChoice { options, setup };
            let rebuilt = rebuild_table::<StrategoTable>(choice, records)?;
            Ok(Box::new(Session::resume(choice, by_tags, rebuilt, sensed)))
        }
        GameKind::Waterloo { choice } => {
            let rebuilt = rebuild_table::<WaterlooTable>(choice, records)?;
            Ok(Box::new(Session::resume(choice, by_tags, rebuilt, sensed)))
        }
        GameKind::Piecepack { options } => {
            let rebuilt = rebuild_table::<PiecepackTable>(options, records)?;
            Ok(Box::new(Session::resume(options, by_tags, rebuilt, sensed)))
        }
    }
}
