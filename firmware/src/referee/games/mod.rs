//! The [`TableGame`] adapters of every game the referee plays, and the menu entries that start
//! them.

pub mod piecepack;
pub mod sba;
pub mod stratego;
pub mod waterloo;

use std::collections::BTreeSet;

use boards::waterloo::Version;

use self::piecepack::PiecepackTable;
use self::sba::SbaTable;
use self::stratego::{StrategoChoice, StrategoTable};
use super::record::{GameKind, RebuildError, Record, SetupMode};
use super::table::session::AnySession;
use super::table::{rebuild_table, table_record, Session, TableGame, TableRecord};
use crate::sensing::{LayoutSetup, Place};

pub use super::record::WaterlooChoice;
pub use waterloo::{BoardLayout, WaterlooAction, WaterlooArmy, WaterlooTable};

/// The games on the game menu after Stratego Original and Duel (whose entries are the set-up
/// methods): each game's name and its variants, each a journal header's [`GameKind`].
pub fn menu() -> Vec<(&'static str, Vec<(String, GameKind)>)> {
    let waterloo = |version, early_start, prussians_uncertain| GameKind::Waterloo {
        choice: WaterlooChoice {
            version,
            early_start,
            prussians_uncertain,
            mud: false,
            layout: BoardLayout::shipped(),
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
        (sba::TITLE, sba::variants()),
    ]
}

impl GameKind {
    /// The same game on `layout` when it is Stratego: Waterloo (the others have no layout
    /// file yet).
    #[must_use]
    pub fn on_layout(self, layout: BoardLayout) -> GameKind {
        match self {
            GameKind::Waterloo { mut choice } => {
                choice.layout = layout;
                GameKind::Waterloo { choice }
            }
            other => other,
        }
    }
}

impl GameKind {
    /// The same game with the card set and map `set` when it is Sa Belle Alliance.
    #[must_use]
    pub fn on_sba(self, set: sba::SbaSet) -> GameKind {
        match self {
            GameKind::Sba { mut choice } => {
                choice.set = set;
                GameKind::Sba { choice }
            }
            other => other,
        }
    }
}

/// `$body` with `$t` the [`TableGame`] of `$kind` and `$choice` its choice, set up by `$setup`:
/// the one place that turns a journal header's [`GameKind`] into its adapter.
macro_rules! with_game {
    ($kind:expr, $setup:expr, |$t:ident, $choice:ident| $body:expr) => {
        match $kind {
            GameKind::Stratego { options } => {
                type $t = StrategoTable;
                let $choice = StrategoChoice {
                    options,
                    setup: $setup,
                };
                $body
            }
            GameKind::Waterloo { choice: $choice } => {
                type $t = WaterlooTable;
                $body
            }
            GameKind::Piecepack { options: $choice } => {
                type $t = PiecepackTable;
                $body
            }
            GameKind::Sba { choice: $choice } => {
                type $t = SbaTable;
                $body
            }
        }
    };
}

/// The sensed places a game of `kind` needs.
pub fn layout(kind: GameKind) -> LayoutSetup {
    with_game!(kind, SetupMode::RankGroups, |T, choice| T::layout(choice))
}

/// A new session of `kind`, set up by `setup`; `None` when the game has no such set-up.
pub(crate) fn new_session(kind: GameKind, setup: SetupMode) -> Option<Box<dyn AnySession>> {
    with_game!(kind, setup, |T, choice| match setup {
        SetupMode::RankGroups => Some(Box::new(Session::<T>::new(choice)) as Box<dyn AnySession>),
        SetupMode::Tags => Session::<T>::by_tags(choice).map(|s| Box::new(s) as _),
    })
}

/// The journal of a game of `kind` told for people.
///
/// # Errors
/// The first record that cannot be trusted.
pub fn record(kind: GameKind, records: &[Record]) -> Result<TableRecord, RebuildError> {
    with_game!(kind, SetupMode::RankGroups, |T, choice| table_record::<T>(
        choice, records
    ))
}

/// The session of `kind`, set up by `setup`, rebuilt from its journal's records, with the board
/// as sensed now.
///
/// # Errors
/// The first record that cannot be trusted.
pub(crate) fn resume_session(
    kind: GameKind,
    setup: SetupMode,
    records: &[Record],
    sensed: &BTreeSet<Place>,
) -> Result<Box<dyn AnySession>, RebuildError> {
    let by_tags = setup == SetupMode::Tags;
    with_game!(kind, setup, |T, choice| {
        let rebuilt = rebuild_table::<T>(choice, records)?;
        Ok(Box::new(Session::resume(choice, by_tags, rebuilt, sensed)))
    })
}
