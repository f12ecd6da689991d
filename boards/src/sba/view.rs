//! What a seat sees. Sa Belle Alliance keeps nothing secret: every marker, track and die roll
//! is on the table, so a seat's view is the public state, copied into its own type.
//!
//! The type is here; it is built by `View::new` in `game.rs`, beside the state it reads
//! (the game names this view as its `Game::View`, so this file stands below the game).

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::army::Army;
use super::cards::{control_in, used_in, CardId, ControlId};
use super::phase::{EndReason, Phase};
use crate::{BySeat, Seat, Status};

/// One seat's view of the game: everything on the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub(super) seat: Seat,
    pub(super) turn: u16,
    pub(super) phasing: Seat,
    pub(super) phase: Phase,
    pub(super) time: u8,
    pub(super) time_name: String,
    pub(super) divisions: Vec<u8>,
    pub(super) waiting: Vec<u8>,
    pub(super) casualties: BySeat<Vec<CardId>>,
    pub(super) morale: BySeat<i16>,
    pub(super) control: Vec<Army>,
    pub(super) used: Vec<bool>,
    pub(super) napoleon_used: bool,
    pub(super) last: Option<(Seat, CardId)>,
    pub(super) status: Status<EndReason>,
}

impl View {
    /// The seat this view is for.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The turn, from 1.
    pub fn turn(&self) -> u16 {
        self.turn
    }

    /// The phasing player.
    pub fn phasing(&self) -> Seat {
        self.phasing
    }

    /// Where the game stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The time marker's box and its name.
    pub fn time(&self) -> (u8, &str) {
        (self.time, &self.time_name)
    }

    /// Division markers in `card`'s box.
    pub fn divisions(&self, card: CardId) -> u8 {
        self.divisions.get(card.index()).copied().unwrap_or(0)
    }

    /// Division markers of `card` still waiting to arrive.
    pub fn waiting(&self, card: CardId) -> u8 {
        self.waiting.get(card.index()).copied().unwrap_or(0)
    }

    /// `seat`'s casualty track, top to bottom.
    pub fn casualties(&self, seat: Seat) -> &[CardId] {
        &self.casualties[seat]
    }

    /// `seat`'s morale.
    pub fn morale(&self, seat: Seat) -> i16 {
        self.morale[seat]
    }

    /// Whose marker is in control box `c`.
    pub fn control(&self, c: ControlId) -> Option<Army> {
        control_in(&self.control, c)
    }

    /// Whether the once-a-game `card` has been used.
    pub fn used(&self, card: CardId) -> bool {
        used_in(&self.used, card)
    }

    /// Whether Napoleon has been used.
    pub fn napoleon_used(&self) -> bool {
        self.napoleon_used
    }

    /// The last action taken, for counter attacks.
    pub fn last_action(&self) -> Option<(Seat, CardId)> {
        self.last
    }

    /// Whether the game goes on, and if not how it ended.
    pub fn status(&self) -> Status<EndReason> {
        self.status
    }
}
