//! What the referee journals: a header naming the game, then one record per set-up, action
//! (a chance outcome is an action) and takeback; and [`rebuild`], which turns them back into
//! the game.
//!
//! postcard is not self-describing: variant order *is* the encoding. Enums here only grow at
//! the end; a change that breaks them bumps [`SCHEMA`].
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

use boards::stratego::{Deployment, Illegal, Move, Options, Outcome, Position, Setup};
use boards::{BySeat, Game, Problems, Seat};
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

/// The game a journal holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameKind {
    /// Stratego Original or Duel, with its rule options.
    Stratego {
        /// Variant and repetition rules.
        options: Options,
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
}

/// What the Waterloo menu chose: the version and the scenarios (the board is the default
/// layout, and the rulings the rulebook's numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WaterlooChoice {
    /// Basic, Standard or Expert.
    pub version: boards::waterloo::Version,
    /// "Start the battle early!".
    pub early_start: bool,
    /// "Where are the Prussians?".
    pub prussians_uncertain: bool,
    /// The mud tiles.
    pub mud: bool,
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

/// One journal record. Written and synced before the players are told.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
}

/// One step of a rebuilt game, for the replay record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A seat's army was placed.
    Deployed(Seat),
    /// Move number `number` (from 1) by `seat` and what it did.
    Played {
        /// The move number.
        number: u32,
        /// Who moved.
        seat: Seat,
        /// What happened (a battle reveals both ranks).
        outcome: Outcome,
    },
    /// The game went back to the position after `to_ply` moves.
    TookBack {
        /// Moves that remain played.
        to_ply: u32,
    },
}

/// A game rebuilt from its journal.
#[derive(Clone, Debug)]
pub struct Rebuilt {
    /// The header.
    pub header: Header,
    /// The seats' deployments journaled so far.
    pub deployments: BySeat<Option<Deployment>>,
    /// The game, once both armies are placed; `history[k]` is the position after `k` moves.
    pub history: Vec<Position>,
    /// What happened, in order.
    pub entries: Vec<Entry>,
}

impl Rebuilt {
    /// The current position, once both armies are placed.
    pub fn position(&self) -> Option<&Position> {
        self.history.last()
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
        }
    }
}

impl std::error::Error for RebuildError {}

/// Rebuilds the game from its journal, checking every record against the rules.
///
/// # Errors
/// The first record that cannot be trusted, or a header of another schema.
pub fn rebuild(header: Header, records: &[Record]) -> Result<Rebuilt, RebuildError> {
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
    let mut out = Rebuilt {
        header,
        deployments: BySeat::default(),
        history: Vec::new(),
        entries: Vec::new(),
    };
    for (index, record) in records.iter().enumerate() {
        let bad = |problem: String| RebuildError::Record { index, problem };
        match record {
            Record::Deployed { seat, deployment } => {
                if !out.history.is_empty() || seat.index() > 1 {
                    return Err(bad("a set-up after the game began".into()));
                }
                out.deployments[*seat] = Some(deployment.clone());
                out.entries.push(Entry::Deployed(*seat));
                if let BySeat([Some(red), Some(blue)]) = &out.deployments {
                    let position = start(options, red, blue)
                        .map_err(|p| RebuildError::Setup(p.to_string()))?;
                    out.history.push(position);
                }
            }
            Record::Move(mv) => {
                let Some(position) = out.history.last() else {
                    return Err(bad("a move before both armies were placed".into()));
                };
                let mut next = position.clone();
                let seat = next.to_move();
                let outcome = next
                    .play(mv)
                    .map_err(|e: Illegal| bad(format!("{mv}: {e}")))?;
                out.entries.push(Entry::Played {
                    number: next.ply(),
                    seat,
                    outcome,
                });
                out.history.push(next);
            }
            Record::Takeback { to_ply } => {
                if !take_back(&mut out.history, *to_ply) {
                    return Err(bad(format!("a takeback to move {to_ply}")));
                }
                out.entries.push(Entry::TookBack { to_ply: *to_ply });
            }
            Record::Chance { .. } => {
                return Err(bad("a chance outcome, but Stratego has no chance".into()));
            }
            Record::Army { .. } | Record::Action(_) => {
                return Err(bad("another game's record in a Stratego journal".into()));
            }
        }
    }
    Ok(out)
}

/// Goes back to the game after `to_ply` steps, where `history[k]` is the game after `k` steps
/// (Stratego moves, table-game actions): live and on rebuild. `false`, and `history` as it was,
/// when there is no such game.
pub(crate) fn take_back<G>(history: &mut Vec<G>, to_ply: u32) -> bool {
    let keep = usize::try_from(to_ply).unwrap_or(usize::MAX);
    if keep >= history.len() {
        return false;
    }
    history.truncate(keep + 1);
    true
}

/// Starts a Stratego game from two deployments.
pub(crate) fn start(
    options: Options,
    red: &Deployment,
    blue: &Deployment,
) -> Result<Position, Problems<boards::stratego::SetupProblem>> {
    Position::start(
        options,
        Setup {
            deployments: BySeat([red.clone(), blue.clone()]),
        },
    )
}
