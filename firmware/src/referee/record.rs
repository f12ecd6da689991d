//! What the referee journals: a header naming the game
//! ([`Header`](crate::referee::Header), beside the games it names in
//! [`games`](crate::referee::games)), then one record per set-up, action (a chance outcome is
//! an action) and takeback. Every game's records are read back by the one journal reader,
//! [`rebuild_table`](crate::referee::table::rebuild_table). This file names no game's
//! adapter: the adapters write these records, so it stands below them.
//!
//! postcard is not self-describing: variant order *is* the encoding. Enums here and the
//! header's only grow at the end; a change that breaks them bumps [`SCHEMA`].
//!
//! # The journal's promise
//! A game journaled by this build resumes and replays in every later build of the same
//! [`SCHEMA`]; a journal of another schema is refused by name with what to do. When Stratego
//! moved from its own state machine onto the generic table referee, its journal kept its own
//! records ([`Record::Deployed`], [`Record::Move`], [`Record::Takeback`]): the Stratego adapter
//! writes and reads them through [`TableGame::army_record`](crate::referee::table::TableGame::army_record)
//! and [`TableGame::read_record`](crate::referee::table::TableGame::read_record), so the bytes are
//! the same and the schema stayed 1. Bumping it would have refused every game in progress on an
//! upgrade for no gain; the golden journals recorded before the move (`tests/recorded/schema-1/`)
//! still resume into the position the replay rebuilds (`tests/referee_schema.rs`).
//!
//! [`SCHEMA`] names the encoding of the header, the records and every game's armies and actions
//! inside them. It is the header's first field, read before anything else ([`check_schema`]), so
//! a journal of another layout is refused by name, never misread. The golden journals in
//! `tests/recorded/schema-N/` pin the encoding: `tests/referee_schema.rs` fails when a journaled type's
//! bytes change while [`SCHEMA`] does not.

use core::fmt;

use boards::stratego::{Deployment, Move};
use boards::Seat;
use serde::{Deserialize, Serialize};

use crate::journal::header_payload;

/// The version of the header and record schema below, and of every journaled game type inside
/// them. This build reads only journals of this schema.
pub const SCHEMA: u16 = 1;

/// How the armies are set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SetupMode {
    /// Without NFC: each seat places its army rank group by rank group and presses OK after
    /// each; the umpire learns ranks from which squares filled.
    RankGroups,
    /// With NFC: every piece carries a registered tag, read as it is placed.
    Tags,
}

/// The schema a journal's header declares, read on its own before the rest is decoded; `None`
/// when the header is too damaged to say (decoding it then says why).
pub fn journal_schema(journal: &[u8]) -> Option<u16> {
    let payload = header_payload(journal).ok()?;
    postcard::take_from_bytes::<u16>(payload)
        .ok()
        .map(|(schema, _)| schema)
}

/// Refuses a journal written with another schema than [`SCHEMA`], by name, before its header
/// and records are decoded (they would not decode, or decode into something else).
///
/// # Errors
/// [`RebuildError::OtherSchema`]. A header too damaged to name its schema passes: decoding it
/// reports the damage.
pub fn check_schema(journal: &[u8]) -> Result<(), RebuildError> {
    match journal_schema(journal) {
        Some(found) if found != SCHEMA => Err(RebuildError::OtherSchema { found }),
        _ => Ok(()),
    }
}

/// One journal record. Written and synced before the players are told. Encoded as the
/// private `wire` record, which keeps every variant ever written in its place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "wire::Record", into = "wire::Record")]
pub enum Record {
    /// A seat's army, validated.
    Deployed {
        /// Whose.
        seat: Seat,
        /// Where each rank stands.
        deployment: Deployment,
    },
    /// An action accepted by the rules (a move or an attack).
    Move(Move),
    /// The players confirmed putting the board back to the position after `to_ply` moves.
    Takeback {
        /// Moves that remain played.
        to_ply: u32,
    },
    /// A chance outcome: index `outcome` of `of` equally weighted entries. Written by nothing
    /// (Stratego has no chance; the table games journal theirs as [`Record::Action`]) and
    /// refused on rebuild; kept because variant order is the encoding.
    Chance {
        /// The index drawn.
        outcome: u32,
        /// How many there were.
        of: u32,
    },
    /// A table game's seat army (Waterloo, Piecepack), postcard-encoded as the game's
    /// [`TableGame::Army`](crate::referee::table::TableGame::Army).
    Army {
        /// Whose.
        seat: Seat,
        /// The encoded army.
        army: Vec<u8>,
    },
    /// A table game's action or chance outcome, postcard-encoded as the game's
    /// [`TableGame::Action`](crate::referee::table::TableGame::Action).
    Action(Vec<u8>),
    /// The data files a game began on (a Stratego: Waterloo board layout; a Sa Belle
    /// Alliance card file and map layout; Napoléon's map, order of battle, turn track and
    /// layout), written first, right after the header: a resumed
    /// game must be on the same files, and a replay needs none. One record for every game
    /// with data files; journals that hold the two records it replaced (`Layout`, `SbaFiles`)
    /// read as this one.
    Files(Vec<GameFile>),
}

/// One data file a game began on, as read ([`Record::Files`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameFile {
    /// The file's key in its game's configuration section: `layout` (`[waterloo] layout`,
    /// `[sba] layout`, `[napoleon] layout`), `cards` (`[sba] cards`), `map`,
    /// `order_of_battle`, `turns` (`[napoleon]`).
    pub key: String,
    /// Where it was read: a file's path, or the words for the shipped file (for the words
    /// only).
    pub source: String,
    /// The file's whole text, as read.
    pub text: String,
}

/// The journal encoding of [`Record`]: every variant ever written, in the order that is their
/// encoding. The records since folded into [`Record::Files`] are still read (journals written
/// by earlier builds of this schema resume and replay) and never written.
mod wire {
    use boards::stratego::{Deployment, Move};
    use boards::Seat;
    use serde::{Deserialize, Serialize};

    use super::GameFile;

    #[derive(Serialize, Deserialize)]
    #[serde(rename = "Record")]
    pub(super) enum Record {
        Deployed {
            seat: Seat,
            deployment: Deployment,
        },
        Move(Move),
        Takeback {
            to_ply: u32,
        },
        Chance {
            outcome: u32,
            of: u32,
        },
        Army {
            seat: Seat,
            army: Vec<u8>,
        },
        Action(Vec<u8>),
        /// Read only: a Waterloo game's layout, now a [`Record::Files`] of key `layout`.
        Layout {
            source: String,
            text: String,
        },
        /// Read only: a Sa Belle Alliance game's files, now a [`Record::Files`] of keys
        /// `cards` and `layout`.
        SbaFiles {
            cards_source: String,
            cards: String,
            layout_source: String,
            layout: String,
        },
        Files(Vec<GameFile>),
    }

    fn file(key: &str, source: String, text: String) -> GameFile {
        GameFile {
            key: key.to_string(),
            source,
            text,
        }
    }

    impl From<Record> for super::Record {
        fn from(r: Record) -> super::Record {
            use super::Record as R;
            match r {
                Record::Deployed { seat, deployment } => R::Deployed { seat, deployment },
                Record::Move(m) => R::Move(m),
                Record::Takeback { to_ply } => R::Takeback { to_ply },
                Record::Chance { outcome, of } => R::Chance { outcome, of },
                Record::Army { seat, army } => R::Army { seat, army },
                Record::Action(a) => R::Action(a),
                Record::Layout { source, text } => R::Files(vec![file("layout", source, text)]),
                Record::SbaFiles {
                    cards_source,
                    cards,
                    layout_source,
                    layout,
                } => R::Files(vec![
                    file("cards", cards_source, cards),
                    file("layout", layout_source, layout),
                ]),
                Record::Files(files) => R::Files(files),
            }
        }
    }

    impl From<super::Record> for Record {
        fn from(r: super::Record) -> Record {
            use super::Record as R;
            match r {
                R::Deployed { seat, deployment } => Record::Deployed { seat, deployment },
                R::Move(m) => Record::Move(m),
                R::Takeback { to_ply } => Record::Takeback { to_ply },
                R::Chance { outcome, of } => Record::Chance { outcome, of },
                R::Army { seat, army } => Record::Army { seat, army },
                R::Action(a) => Record::Action(a),
                R::Files(files) => Record::Files(files),
            }
        }
    }
}

/// Why a journal does not rebuild into a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RebuildError {
    /// The deployments are not playable.
    Setup(String),
    /// Record `index` (from 0) cannot follow the ones before it.
    Record {
        /// Its index.
        index: usize,
        /// Why.
        problem: String,
    },
    /// The journal was written with another schema than [`SCHEMA`]: its records mean
    /// something else to this build.
    OtherSchema {
        /// The schema in the journal's header.
        found: u16,
    },
    /// The game began on another data file than the umpire has now ([`Record::Files`]):
    /// resumed, it would be played on another board, with other cards, on another map.
    OtherFile {
        /// The game, for the words ("Waterloo", "Sa Belle Alliance").
        game: &'static str,
        /// Its configuration section ("waterloo", "sba").
        section: &'static str,
        /// The file's key in it ("layout", "cards").
        key: String,
        /// Where the file the game began on was read.
        began: String,
        /// Whether that was the shipped file (its text is the shipped one).
        began_shipped: bool,
        /// Where the umpire's file now was read.
        now: String,
    },
}

impl fmt::Display for RebuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RebuildError::Setup(_) => write!(
                f,
                "the journaled set-up is not playable: the file is damaged or from another \
                 build; start a new game"
            ),
            RebuildError::Record { index, .. } => write!(
                f,
                "journal record {index} does not follow from the game before it: the file is \
                 damaged; copy it away and start a new game"
            ),
            RebuildError::OtherSchema { found } => write!(
                f,
                "this journal was written by a build with another record layout (schema \
                 {found}, this build reads {SCHEMA}): replay it with that build, or start a new \
                 game"
            ),
            RebuildError::OtherFile { began, now, .. } if began == now => write!(
                f,
                "{now} was changed since this game began on it: put it back as it was, or \
                 start a new game"
            ),
            RebuildError::OtherFile {
                game,
                section,
                key,
                began_shipped: true,
                now,
                ..
            } => write!(
                f,
                "this game began on the shipped {game} {key}, not {now}: leave [{section}] {key} \
                 unset, or start a new game"
            ),
            RebuildError::OtherFile {
                game,
                section,
                key,
                began,
                now,
                ..
            } => write!(
                f,
                "this game began on the {game} {key} of {began}, not {now}: set [{section}] \
                 {key} to {began} as it was, or start a new game"
            ),
        }
    }
}

impl std::error::Error for RebuildError {}
