//! The [`TableGame`] adapters of every game the referee plays, the menu entries that start
//! them, and the journal header that names one ([`GameKind`], [`Header`]).

pub mod napoleon;
pub mod piecepack;
pub mod sba;
mod squares;
pub mod stratego;
pub mod waterloo;

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use self::napoleon::NapoleonTable;
use self::piecepack::PiecepackTable;
use self::sba::SbaTable;
use self::stratego::{StrategoChoice, StrategoTable};
use super::record::{GameFile, RebuildError, Record, SetupMode, SCHEMA};
use super::table::session::AnySession;
use super::table::{rebuild_table, table_record, Session, TableGame, TableRebuilt, TableRecord};
use crate::sensing::{LayoutSetup, Place};

pub use waterloo::{
    BoardLayout, LayoutSource, WaterlooAction, WaterlooArmy, WaterlooChoice, WaterlooTable,
};

/// The game a journal holds: its header's game, each variant carrying its adapter's choice
/// (here, above the adapters, so that the journal's records below them name none). Encoded
/// by postcard like the records ([`SCHEMA`]): variants only grow at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameKind {
    /// Stratego Original or Duel, with its rule options.
    Stratego {
        /// Variant and repetition rules.
        options: boards::stratego::Options,
    },
    /// Stratego: Waterloo, as chosen from the menu.
    Waterloo {
        /// Version and scenarios.
        choice: WaterlooChoice,
    },
    /// Piecepack at Waterloo, with its rulings.
    Piecepack {
        /// The named rulings.
        options: boards::piecepack::Options,
    },
    /// Sa Belle Alliance, on the card set and map layout the umpire was started with.
    Sba {
        /// The card set and layout (not journaled).
        choice: sba::SbaChoice,
    },
    /// Napoléon 1815, on the campaign and layout files the umpire was started with.
    Napoleon {
        /// Two or three players, the historical set-up or the players' own (the files are
        /// not journaled here but in the first record).
        choice: napoleon::NapoleonChoice,
    },
}

/// The journal header: fixed when the game is chosen. Decodes only with `schema` equal to
/// [`SCHEMA`]: the rest of another schema's bytes means something else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "HeaderSetup")]
pub struct Header {
    /// [`SCHEMA`] when written. Always the first field, in every schema.
    pub schema: u16,
    /// The game and its options.
    pub game: GameKind,
    /// How the armies are set up.
    pub setup: SetupMode,
}

/// A [`Header`] as decoded, before its schema is checked: the same fields, the same encoding.
#[derive(Deserialize)]
#[serde(rename = "Header")]
struct HeaderSetup {
    schema: u16,
    game: GameKind,
    setup: SetupMode,
}

impl TryFrom<HeaderSetup> for Header {
    type Error = RebuildError;

    fn try_from(h: HeaderSetup) -> Result<Header, RebuildError> {
        if h.schema != SCHEMA {
            return Err(RebuildError::OtherSchema { found: h.schema });
        }
        Ok(Header {
            schema: h.schema,
            game: h.game,
            setup: h.setup,
        })
    }
}

/// The games on the game menu after Stratego Original and Duel (whose entries are the set-up
/// methods): each game's name and its variants, each a journal header's [`GameKind`].
pub fn menu() -> Vec<(&'static str, Vec<(String, GameKind)>)> {
    fn each<C>(
        variants: Vec<(String, C)>,
        kind: impl Fn(C) -> GameKind,
    ) -> Vec<(String, GameKind)> {
        variants
            .into_iter()
            .map(|(label, choice)| (label, kind(choice)))
            .collect()
    }
    vec![
        (
            waterloo::TITLE,
            each(waterloo::variants(), |choice| GameKind::Waterloo { choice }),
        ),
        (
            piecepack::TITLE,
            each(piecepack::variants(), |options| GameKind::Piecepack {
                options,
            }),
        ),
        (
            sba::TITLE,
            each(sba::variants(), |choice| GameKind::Sba { choice }),
        ),
        (
            napoleon::TITLE,
            each(napoleon::variants(), |choice| GameKind::Napoleon { choice }),
        ),
    ]
}

/// A table game's menu entry: its label, the game and how it is set up.
pub type MenuEntry = (String, GameKind, SetupMode);

/// The table games' menus as the umpire shows them: [`menu`], each variant set up by rank
/// groups, and with NFC readers under the board (`nfc_readers`) each variant that may be set
/// up by tags ([`TableGame::tag_setup`]: Napoléon's) offered again, set up by tags
/// ([`by_tags`]). The game menu and `[game] variant` both read it.
pub fn menu_entries(nfc_readers: bool) -> Vec<(&'static str, Vec<MenuEntry>)> {
    menu()
        .into_iter()
        .map(|(name, variants)| {
            let tagged: Vec<MenuEntry> = variants
                .iter()
                .filter(|(_, kind)| nfc_readers && has_tag_setup(*kind))
                .map(|(label, kind)| (by_tags(label), *kind, SetupMode::Tags))
                .collect();
            let entries = variants
                .into_iter()
                .map(|(label, kind)| (label, kind, SetupMode::RankGroups))
                .chain(tagged)
                .collect();
            (name, entries)
        })
        .collect()
}

/// The menu's label of variant `label` set up by NFC tags.
pub fn by_tags(label: &str) -> String {
    format!("{label}, NFC tags")
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

/// The records a new journal of `kind` begins with, right after its header: the data files
/// the game is played on, their whole texts ([`Record::Files`]), when it has some.
pub(crate) fn opening_records(kind: GameKind) -> Vec<Record> {
    let files = kind.files();
    if files.is_empty() {
        Vec::new()
    } else {
        vec![Record::Files(files)]
    }
}

impl GameKind {
    /// The data files the game is played on, as a journal records them: a Stratego: Waterloo
    /// game's board layout (`layout`), a Sa Belle Alliance game's card file (`cards`) and map
    /// layout (`layout`), a Napoléon game's map, order of battle, turn track and layout (`map`,
    /// `order_of_battle`, `turns`, `layout`); none for the others.
    pub fn files(self) -> Vec<GameFile> {
        let file = |key: &str, source: String, text: &str| GameFile {
            key: key.to_string(),
            source,
            text: text.to_string(),
        };
        match self {
            GameKind::Waterloo { choice } => vec![file(
                "layout",
                choice.layout.source().to_string(),
                choice.layout.text(),
            )],
            GameKind::Sba { choice } => {
                let (cards, layout) = (choice.set.cards_file(), choice.set.layout_file());
                vec![
                    file("cards", cards.source.clone(), &cards.text),
                    file("layout", layout.source.clone(), &layout.text),
                ]
            }
            GameKind::Napoleon { choice } => {
                let files = choice.set.files();
                napoleon::NapoleonFileKey::ALL
                    .iter()
                    .map(|&k| {
                        let f = files.get(k);
                        file(k.key(), f.source.clone(), &f.text)
                    })
                    .collect()
            }
            GameKind::Stratego { .. } | GameKind::Piecepack { .. } => Vec::new(),
        }
    }

    /// The same game on its shipped data files.
    fn on_shipped_files(self) -> GameKind {
        self.on_layout(BoardLayout::shipped())
            .on_sba(sba::SbaSet::shipped())
            .on_napoleon(napoleon::NapoleonSet::shipped())
    }

    /// The game's name and configuration section, for the words about its data files.
    fn files_section(self) -> (&'static str, &'static str) {
        match self {
            GameKind::Waterloo { .. } => ("Waterloo", "waterloo"),
            GameKind::Sba { .. } => ("Sa Belle Alliance", "sba"),
            GameKind::Napoleon { .. } => ("Napoleon", "napoleon"),
            GameKind::Stratego { .. } => ("Stratego", "stratego"),
            GameKind::Piecepack { .. } => ("Piecepack", "piecepack"),
        }
    }

    /// The same game on the data files `files` (a journal's), read with this build.
    ///
    /// # Errors
    /// A file the game needs is missing, one it does not know is there, or one does not read.
    fn on_files(self, files: &[GameFile]) -> Result<GameKind, RebuildError> {
        let problem = |problem: String| RebuildError::Record { index: 0, problem };
        let (game, _) = self.files_section();
        let wanted = self.files();
        if let Some(extra) = files
            .iter()
            .find(|f| !wanted.iter().any(|w| w.key == f.key))
        {
            return Err(problem(format!(
                "the journal records a {game} file `{}` this build does not know",
                extra.key
            )));
        }
        let find = |key: &str| {
            files
                .iter()
                .find(|f| f.key == key)
                .ok_or_else(|| problem(format!("the journal records no {game} {key}")))
        };
        match self {
            GameKind::Waterloo { .. } => {
                let layout = find("layout")?;
                BoardLayout::read(&layout.text, LayoutSource::Journal)
                    .map(|layout| self.on_layout(layout))
                    .map_err(|problems| {
                        problem(format!(
                            "the journal's Waterloo layout does not read with this build: \
                             {problems}"
                        ))
                    })
            }
            GameKind::Sba { .. } => {
                let file = |f: &GameFile| sba::SbaFile {
                    source: f.source.clone(),
                    text: f.text.clone(),
                };
                sba::SbaSet::read(file(find("cards")?), file(find("layout")?))
                    .map(|set| self.on_sba(set))
                    .map_err(|problems| {
                        problem(format!(
                            "the journal's Sa Belle Alliance files do not read with this \
                             build: {problems}"
                        ))
                    })
            }
            GameKind::Napoleon { .. } => {
                let mut read = napoleon::NapoleonFiles::shipped();
                for key in napoleon::NapoleonFileKey::ALL {
                    let f = find(key.key())?;
                    *read.get_mut(key) = napoleon::NapoleonFile {
                        source: f.source.clone(),
                        text: f.text.clone(),
                    };
                }
                napoleon::NapoleonSet::read(read)
                    .map(|set| self.on_napoleon(set))
                    .map_err(|problems| {
                        problem(format!(
                            "the journal's Napoleon files do not read with this build: {problems}"
                        ))
                    })
            }
            GameKind::Stratego { .. } | GameKind::Piecepack { .. } => Ok(self),
        }
    }

    /// The key of the first data file on which `self` is played otherwise than `other` (the
    /// same game on other files), if any: files that read the same are the same, whatever
    /// their comments and wherever they were read.
    fn other_file(self, other: GameKind) -> Option<&'static str> {
        match (self, other) {
            (GameKind::Waterloo { choice: a }, GameKind::Waterloo { choice: b }) => {
                (a.layout != b.layout).then_some("layout")
            }
            (GameKind::Sba { choice: a }, GameKind::Sba { choice: b }) => {
                let (a, b) = (a.set.data(), b.set.data());
                if a.cards != b.cards {
                    Some("cards")
                } else {
                    (a.layout != b.layout).then_some("layout")
                }
            }
            (GameKind::Napoleon { choice: a }, GameKind::Napoleon { choice: b }) => {
                let (a, b) = (a.set.files(), b.set.files());
                napoleon::NapoleonFileKey::ALL
                    .into_iter()
                    .find(|&k| a.get(k).text != b.get(k).text)
                    .map(napoleon::NapoleonFileKey::key)
            }
            _ => None,
        }
    }
}

/// The data files a journal's first record holds, if it holds them.
fn recorded_files(records: &[Record]) -> Option<&[GameFile]> {
    match records.first() {
        Some(Record::Files(files)) => Some(files),
        _ => None,
    }
}

/// The game of a journal whose header says `kind`, on the umpire's files now, to resume: a
/// journal that recorded its data files resumes only on files that read the same (a journal
/// written before files were recorded resumes on the umpire's).
///
/// # Errors
/// [`RebuildError::OtherFile`]: the game began on other files, with what to do; or the
/// recorded files do not read.
pub fn resumable_kind(kind: GameKind, records: &[Record]) -> Result<GameKind, RebuildError> {
    let Some(files) = recorded_files(records) else {
        return Ok(kind);
    };
    let began = kind.on_files(files)?;
    let Some(key) = began.other_file(kind) else {
        return Ok(kind);
    };
    let of = |files: &[GameFile]| files.iter().find(|f| f.key == key).cloned();
    let (was, now, shipped) = (
        of(files),
        of(&kind.files()),
        of(&kind.on_shipped_files().files()),
    );
    let (game, section) = kind.files_section();
    Err(RebuildError::OtherFile {
        game,
        section,
        key: key.to_string(),
        began: was.as_ref().map(|f| f.source.clone()).unwrap_or_default(),
        began_shipped: was.zip(shipped).is_some_and(|(w, s)| w.text == s.text),
        now: now.map(|f| f.source).unwrap_or_default(),
    })
}

/// The game of a journal whose header says `kind`, to replay: on the data files the journal
/// recorded when there are some (no file needed), else on `kind`'s.
///
/// # Errors
/// The recorded files do not read with this build.
pub fn journaled_kind(kind: GameKind, records: &[Record]) -> Result<GameKind, RebuildError> {
    match recorded_files(records) {
        Some(files) => kind.on_files(files),
        None => Ok(kind),
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

    /// The same game with the campaign and layout `set` when it is Napoléon.
    #[must_use]
    pub fn on_napoleon(self, set: napoleon::NapoleonSet) -> GameKind {
        match self {
            GameKind::Napoleon { mut choice } => {
                choice.set = set;
                GameKind::Napoleon { choice }
            }
            other => other,
        }
    }

    /// The same game with 6.2.4's option `on` or off when it is Napoléon (`[napoleon]
    /// reveal_on_contact`): for a game chosen from the menu, never for one resumed (its
    /// header keeps the option it began with).
    #[must_use]
    pub fn on_napoleon_reveal_on_contact(self, on: bool) -> GameKind {
        match self {
            GameKind::Napoleon { mut choice } => {
                choice.reveal_on_contact = on;
                GameKind::Napoleon { choice }
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
            GameKind::Napoleon { choice } => {
                type $t = NapoleonTable;
                let $choice = napoleon::NapoleonChoice {
                    tags: $setup == SetupMode::Tags,
                    ..choice
                };
                $body
            }
        }
    };
}

/// Whether a game of `kind` may be set up by NFC tags ([`TableGame::tag_setup`]).
fn has_tag_setup(kind: GameKind) -> bool {
    with_game!(kind, SetupMode::Tags, |T, choice| T::tag_setup(choice)
        .is_some())
}

/// Rebuilds a Stratego game from its journal (header and records) through the one journal
/// reader, [`rebuild_table`], for the replay and for tests.
///
/// # Errors
/// A header of another schema or game, or the first record that cannot be trusted.
pub fn rebuild(
    header: Header,
    records: &[Record],
) -> Result<TableRebuilt<StrategoTable>, RebuildError> {
    if header.schema != SCHEMA {
        return Err(RebuildError::OtherSchema {
            found: header.schema,
        });
    }
    let GameKind::Stratego { options } = header.game else {
        return Err(RebuildError::Record {
            index: 0,
            problem: "not a Stratego Original or Duel journal".into(),
        });
    };
    let choice = StrategoChoice {
        options,
        setup: header.setup,
    };
    rebuild_table(choice, records)
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
