//! The referee: turns [`BoardEvent`](crate::sensing::BoardEvent)s into actions, asks the rules,
//! journals what happened, and decides what the OLED says ([`Screen`](crate::ui::Screen)).
//!
//! It is pure and deterministic: input is [`Referee::handle`] (one sensed event) and
//! [`Referee::tick`] (time passing); output is typed [`Decision`]s plus the current
//! [`Referee::screen`]. Chance comes from a [`Chance`] (OS entropy in play, a seed in tests);
//! every record goes through a [`JournalWriter`](crate::journal::JournalWriter) and is synced
//! *before* the decision that tells the players is returned.
//!
//! # One referee for every game
//! Each stage lives in one place, the same for every game:
//!
//! | stage | where |
//! |---|---|
//! | sense (debounce, settle, tag reads) | [`crate::sensing`], composed with the referee in [`crate::pipeline`] |
//! | phases: game menu, the chosen game, boot recovery, journal retries, notices, turn clock | `phases.rs` ([`Referee`]) |
//! | set-up, gestures, takebacks, mismatch, hands, menus | [`table::Session`], generic over a [`table::TableGame`] |
//! | careless hands and faulty switches | `hands.rs`, read by the session |
//! | rules, words and secrets of each game | its adapter in [`games`]: [`games::stratego`], [`games::waterloo`], [`games::piecepack`] |
//! | journal records and their rebuild | `record.rs`, [`table::rebuild_table`] |
//! | screen text | [`crate::screens`]: the words the OLED draws ([`screen_text`]) |
//!
//! # Phases
//! 1. **Game select**: a [`Screen::Choice`](crate::ui::Screen::Choice) of games, then of
//!    variant (for Stratego Original and Duel: the set-up method). Die moves to the next entry,
//!    OK chooses, Back goes up a level. Choosing starts the journal and the game's session.
//! 2. **Set-up**, by groups behind a screen ([`SetupMode::RankGroups`]: "Red: place 6 Bombs,
//!    then press OK"; the places that filled since the last OK get that group; a piece put
//!    where its group may not go is refused as it settles, with the fix, and never counted; a
//!    placed piece moved to a free place is the correction, in its own group; after the last
//!    group what only the whole army shows is listed, with the way out; Back undoes a group), or, for Stratego and
//!    Napoléon (whose menu offers it with readers configured,
//!    [`RefereeConfig::nfc_readers`]), with NFC tags registered to pieces or blocks
//!    ([`SetupMode::Tags`]): both armies in any order, each piece's tag
//!    looked up in the [`TagRegistry`] as it is placed (one tag read on two squares is named,
//!    and neither square trusted until both are read again); OK lists the pieces not
//!    identified, then validates both armies.
//! 3. **Play**: see *Gestures* and the [table referee](table).
//! 4. **Over**: the result; OK starts a new game.
//!
//! # The expected board and gestures
//! The referee always knows the board it expects (the game's pieces on their places) and the
//! board sensed (from `Lifted`/`Placed`). Each time the sensed board settles it compares the two
//! (in Stratego's terms here; the [table referee](table) says it for every game):
//! - **Equal**: nothing to do. A piece lifted and put back is nothing.
//! - **Move**: one square emptied (A) and one filled (B): the move A-B.
//! - **Attack**: two squares emptied, one with a piece of the side to move (A), one with an enemy
//!   (B), in either order, both lifted in this gesture and held up for
//!   [`RefereeConfig::attack_hold_ms`] since the last lift: the attack A-B. Until the hold has
//!   passed the OLED only asks "A and B up: keep both up to act, or put back what you did not
//!   mean to lift" (see *Careless hands and faulty switches*). The umpire resolves it, shows the
//!   battle with what the hands must still do ("e5: put the Red Miner"), live, and waits until
//!   the board matches.
//! - **Piece in hand**: only one of the mover's pieces lifted, movable or not (a Bomb lifted
//!   looks like any piece): a gesture in progress.
//! - **Carried on**: the piece just moved (A-C, a hand that rested on C, or one decided early as
//!   it slid across C) is lifted from C and put on B before the other side touches anything,
//!   and A-B is legal: the move is corrected (journaled as a takeback and A-B). A piece put
//!   down with none lifted (a coin off a stack) and carried on is corrected the same way.
//! - **Takeback**: the sensed board equals an earlier position's: [`Screen::Takeback`](crate::ui::Screen::Takeback); OK
//!   confirms (journaled), Back declines and the differences are shown.
//! - With NFC, a move whose placed piece's tag names another piece than the one lifted is
//!   refused ("the piece put on e4 is not the one lifted from e3").
//! - A move or attack shape the rules refuse: [`Screen::Illegal`](crate::ui::Screen::Illegal) with the fix, at once.
//! - Anything else: after [`RefereeConfig::mismatch_after_ms`] with no match,
//!   [`Screen::Mismatch`](crate::ui::Screen::Mismatch) names each differing place and what belongs there.
//!
//! A legal continuation is preferred to a takeback when both fit (as picochess does). A game
//! whose hidden pieces decide which piece could make a move (Piecepack's coins) asks instead,
//! "Take back" among the "Which?" entries: preferring the legal move would tell the table
//! whether a hidden piece can make it.
//!
//! # Careless hands and faulty switches
//! Every game reads the hands through one tracker of the lifts and placements since the board last matched or an action was played, so that a brush or
//! a faulty switch never becomes an action nor reveals a secret:
//! - **No reveal by accident.** A gesture of lifts only that lifts another side's piece (an
//!   attack, a shot, a designation) is judged only once its pieces have stayed up for
//!   [`RefereeConfig::attack_hold_ms`] (1.5 s) since the last lift. Meanwhile the OLED asks a
//!   neutral question and nothing is refused, shown or journaled; a brushed piece put back
//!   cancels it. A deliberate attacker holds both pieces up while watching the OLED anyway; a
//!   brush is short. A piece whose difference the mismatch screen already named (a switch that
//!   failed open) is no lift of an attack. Moves are judged at once, and an unmistakable
//!   landing does not even wait out the settle window
//!   ([`Referee::decides_at_once`], [sensing: *Deciding early*](crate::sensing)): a brushed
//!   enemy up is a second lifted piece, so it keeps the board waiting.
//! - **Ghosts are not moves.** A place that reads a piece is where the lifted piece landed only
//!   if its switch closed after the lift (or within 150 ms before: a slide), its tag was read
//!   when it has a reader and the game's pieces carry tags, and it was not already named as
//!   wrong; otherwise it is named at once
//!   ([`Decision::Ghost`]) and nothing is played or refused. A ghost that closes after the lift
//!   on a board without readers cannot be told from a landing when it closes, and waiting would
//!   slow every move, so the move is played and stays correctable: when the piece in hand goes
//!   back on its square with the ghost still lit (one place more than there are pieces), the
//!   move is taken back (journaled) and the ghost named; when the ghost goes dark and the piece
//!   lands elsewhere, the carried-on correction applies.
//!
//! # Secrets
//! The OLED faces both players: a screen names a rank only when the rules have revealed it (a
//! battle, a Scout seen moving far). A refusal only a hidden rank makes reads the same for every
//! rank ("e4-e5: not a legal move"), and a missing piece is "Red piece" unless its rank is public.
//!
//! # Seams for other games
//! Places include off-board trays ([`Place::Tray`](crate::sensing::Place::Tray)), so entries from a tray are moves from a
//! place; [`pick_weighted`] draws chance outcomes (Waterloo's battle die), journaled as the
//! game's actions ([`Record::Action`]); the Die button rolls when the rules call for chance
//! ([`boards::Actor::Chance`]).

mod chance;
mod decision;
pub mod games;
mod hands;
mod phases;
mod record;
pub mod table;
mod tags;

#[cfg(test)]
mod tests;

pub use crate::screens::{screen_lines, screen_text};
pub use chance::{pick_weighted, Chance, ChanceError, OsChance, SeededChance};
pub use decision::{Decision, PHONE_PAGES};
pub use games::{rebuild, GameKind, Header, WaterlooChoice};
pub use phases::{BeyondTheBoard, MenuStart, Referee, RefereeConfig, ResumeError};
pub use record::SCHEMA;
pub use record::{check_schema, journal_schema};
pub use record::{GameFile, RebuildError, Record, SetupMode};
pub use tags::{Registered, TagRegistry};
