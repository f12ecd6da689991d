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
pub use waterloo::{BoardLayout, LayoutSource, WaterlooAction, WaterlooArmy, WaterlooTable};

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

/// The records a new journal of `kind` begins with, right after its header: a Stratego:
/// Waterloo game's layout, its whole text ([`Record::Layout`]); a Sa Belle Alliance game's
/// card file and map layout, their whole texts ([`Record::SbaFiles`]).
pub(crate) fn opening_records(kind: GameKind) -> Vec<Record> {
    match kind {
        GameKind::Waterloo { choice } => vec![Record::Layout {
            source: choice.layout.source().to_string(),
            text: choice.layout.text().to_string(),
        }],
        GameKind::Sba { choice } => {
            let (cards, layout) = (choice.set.cards_file(), choice.set.layout_file());
            vec![Record::SbaFiles {
                cards_source: cards.source.clone(),
                cards: cards.text.clone(),
                layout_source: layout.source.clone(),
                layout: layout.text.clone(),
            }]
        }
        GameKind::Stratego { .. } | GameKind::Piecepack { .. } => Vec::new(),
    }
}

/// The card set and map a journal's first record holds, if it holds them, with the files
/// they were read from.
///
/// # Errors
/// The recorded files do not read with this build.
fn recorded_sba(records: &[Record]) -> Result<Option<sba::SbaSet>, RebuildError> {
    let Some(Record::SbaFiles {
        cards_source,
        cards,
        layout_source,
        layout,
    }) = records.first()
    else {
        return Ok(None);
    };
    let file = |source: &String, text: &String| sba::SbaFile {
        source: source.clone(),
        text: text.clone(),
    };
    sba::SbaSet::read(file(cards_source, cards), file(layout_source, layout))
        .map(Some)
        .map_err(|problems| RebuildError::Record {
            index: 0,
            problem: format!(
                "the journal's Sa Belle Alliance files do not read with this build: {}",
                problems
                    .iter()
                    .map(|(what, line, m)| format!("{what} line {line}: {m}"))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        })
}

/// The layout a journal's first record holds, if it holds one: the board, where it was read,
/// and its text.
///
/// # Errors
/// The recorded layout does not read with this build.
fn recorded_layout(
    records: &[Record],
) -> Result<Option<(boards::waterloo::Layout, &str, &str)>, RebuildError> {
    let Some(Record::Layout { source, text }) = records.first() else {
        return Ok(None);
    };
    boards::waterloo::Layout::parse(text)
        .map(|layout| Some((layout, source.as_str(), text.as_str())))
        .map_err(|problems| RebuildError::Record {
            index: 0,
            problem: format!(
                "the journal's Waterloo layout does not read with this build: {problems}"
            ),
        })
}

/// The game of a journal whose header says `kind`, on the umpire's files now, to resume:
/// a Waterloo journal that recorded its layout resumes only on the same board, a Sa Belle
/// Alliance journal that recorded its files only on the same cards and map (a journal written
/// before files were recorded resumes on the umpire's).
///
/// # Errors
/// [`RebuildError::OtherLayout`] or [`RebuildError::OtherSbaFile`]: the game began on other
/// files, with what to do; or the recorded files do not read.
pub fn resumable_kind(kind: GameKind, records: &[Record]) -> Result<GameKind, RebuildError> {
    if let GameKind::Sba { choice } = kind {
        let Some(began) = recorded_sba(records)? else {
            return Ok(kind);
        };
        let now = choice.set;
        let (key, was, is) = if began.data().cards != now.data().cards {
            ("cards", began.cards_file(), now.cards_file())
        } else if began.data().layout != now.data().layout {
            ("layout", began.layout_file(), now.layout_file())
        } else {
            return Ok(kind);
        };
        return Err(RebuildError::OtherSbaFile {
            key,
            began: was.source.clone(),
            now: is.source.clone(),
        });
    }
    let (GameKind::Waterloo { choice }, Some((began, source, _))) =
        (kind, recorded_layout(records)?)
    else {
        return Ok(kind);
    };
    if began == *choice.layout.layout() {
        return Ok(kind);
    }
    Err(RebuildError::OtherLayout {
        began: source.to_string(),
        now: choice.layout.source().to_string(),
    })
}

/// The game of a journal whose header says `kind`, to replay: on the layout (Waterloo) or
/// the cards and map (Sa Belle Alliance) the journal recorded when there are some (no file
/// needed), else on `kind`'s.
///
/// # Errors
/// The recorded files do not read with this build.
pub fn journaled_kind(kind: GameKind, records: &[Record]) -> Result<GameKind, RebuildError> {
    if matches!(kind, GameKind::Sba { .. }) {
        if let Some(set) = recorded_sba(records)? {
            return Ok(kind.on_sba(set));
        }
    }
    Ok(match recorded_layout(records)? {
        Some((layout, _, text)) => {
            kind.on_layout(BoardLayout::keep(layout, text, LayoutSource::Journal))
        }
        None => kind,
    })
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

/// The journal of a game of `kind` told for people, on the layout the journal recorded when it
/// recorded one ([`journaled_kind`]).
///
/// # Errors
/// The first record that cannot be trusted.
pub fn record(kind: GameKind, records: &[Record]) -> Result<TableRecord, RebuildError> {
    let kind = journaled_kind(kind, records)?;
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
