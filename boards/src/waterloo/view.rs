//! What one seat may see: its own pieces, of the enemy the backs and whatever battles revealed
//! on the board (the Pursuit's set-aside cavalry by back alone), its own line of retreat, and
//! the public clock.
//!
//! The type is here; it is built by `View::new` in `game.rs`, beside the state it reads
//! (the game names this view as its `Game::View`, so this file stands below the game).

use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::cards::Card;
use super::phase::{EndReason, Phase};
use super::sides::Flank;
use super::units::{Back, Placed, Unit};
use crate::geometry::grid::Cell;
use crate::{Seat, Status};

/// A square as a seat sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Seen {
    /// Nothing there.
    Empty,
    /// One of the seat's own pieces (the Prussians, for the Allied player).
    Own(Placed),
    /// An enemy piece: its back, and its unit once revealed in battle.
    Enemy {
        /// The symbol and asterisk on the back.
        back: Back,
        /// The unit, only if revealed.
        unit: Option<Unit>,
        /// The 'weakened' blocks clicked on it (visible to all).
        weakened: u8,
    },
}

/// One seat's view: a different type from [`Waterloo`](super::Waterloo), built only by
/// [`Game::view`](crate::Game::view); it cannot hold an unrevealed enemy unit, the enemy's line
/// of retreat, the enemy's reserve units or pieces set aside in the Pursuit (their backs and
/// count only), or anything of the Prussian draw but its size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub(super) seat: Seat,
    pub(super) current: Seat,
    pub(super) phase: Phase,
    pub(super) turn: i16,
    pub(super) clock_minutes: i32,
    pub(super) actions: (u8, u8),
    pub(super) turns_until_prussians: Option<u16>,
    pub(super) prussians_decided: Option<bool>,
    pub(super) columns: u8,
    pub(super) board: Vec<Seen>,
    pub(super) line_of_retreat: Option<Flank>,
    pub(super) reserve: Vec<Unit>,
    pub(super) enemy_reserve: usize,
    pub(super) off_board: Vec<Unit>,
    pub(super) enemy_off_board: usize,
    pub(super) dead: [Vec<Unit>; 2],
    pub(super) prussians_undrawn: usize,
    pub(super) tile_strength: Vec<u8>,
    pub(super) tile_owner: Vec<Option<Seat>>,
    pub(super) pursuit_victor: Option<Seat>,
    pub(super) pursuit_cavalry: Vec<(Unit, u8)>,
    pub(super) enemy_pursuit_cavalry: Vec<(Back, u8)>,
    pub(super) set_aside: Vec<Unit>,
    pub(super) enemy_set_aside: usize,
    pub(super) hands: [Vec<Card>; 2],
    pub(super) status: Status<EndReason>,
}

impl View {
    /// The seat this view belongs to.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Whose turn it is.
    pub fn current(&self) -> Seat {
        self.current
    }

    /// What the game waits for.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The game turn (1 = 11:00).
    pub fn turn(&self) -> i16 {
        self.turn
    }

    /// The clock, in minutes after midnight.
    pub fn clock_minutes(&self) -> i32 {
        self.clock_minutes
    }

    /// Actions this turn, and how many are left.
    pub fn actions(&self) -> (u8, u8) {
        self.actions
    }

    /// Game turns until the Prussians arrive (`None`: they will not come).
    pub fn turns_until_prussians(&self) -> Option<u16> {
        self.turns_until_prussians
    }

    /// "Where are the Prussians?": `None` until the die decides.
    pub fn prussians_decided(&self) -> Option<bool> {
        self.prussians_decided
    }

    /// What this seat sees on `c`.
    pub fn at(&self, c: Cell) -> Seen {
        let i = usize::from(c.row) * usize::from(self.columns) + usize::from(c.col);
        self.board.get(i).copied().unwrap_or(Seen::Empty)
    }

    /// Every square with what this seat sees, row by row from a1.
    pub fn squares(&self) -> impl Iterator<Item = (Cell, Seen)> + '_ {
        let w = usize::from(self.columns.max(1));
        self.board
            .iter()
            .enumerate()
            .map(move |(i, s)| (Cell::new((i % w) as u8, (i / w) as u8), *s))
    }

    /// This seat's own line of retreat (never the enemy's).
    pub fn line_of_retreat(&self) -> Option<Flank> {
        self.line_of_retreat
    }

    /// This seat's reserve.
    pub fn reserve(&self) -> &[Unit] {
        &self.reserve
    }

    /// How many pieces the enemy holds in reserve (their units are secret).
    pub fn enemy_reserve(&self) -> usize {
        self.enemy_reserve
    }

    /// This seat's pieces waiting off the board.
    pub fn off_board(&self) -> &[Unit] {
        &self.off_board
    }

    /// How many enemy pieces wait off the board.
    pub fn enemy_off_board(&self) -> usize {
        self.enemy_off_board
    }

    /// Pieces `seat` has lost (public: they were shown when eliminated).
    pub fn dead(&self, seat: Seat) -> &[Unit] {
        &self.dead[seat.index()]
    }

    /// Prussians not yet drawn (their order is secret from both players).
    pub fn prussians_undrawn(&self) -> usize {
        self.prussians_undrawn
    }

    /// Strength left of each building and village, by layout tile index.
    pub fn tile_strength(&self) -> &[u8] {
        &self.tile_strength
    }

    /// The owner of each building, by layout tile index.
    pub fn tile_owner(&self) -> &[Option<Seat>] {
        &self.tile_owner
    }

    /// Expert: the victor of the Pursuit under way.
    pub fn pursuit_victor(&self) -> Option<Seat> {
        self.pursuit_victor
    }

    /// Expert: this seat's cavalry set aside for the Pursuit, with its 'weakened' blocks.
    pub fn pursuit_cavalry(&self) -> &[(Unit, u8)] {
        &self.pursuit_cavalry
    }

    /// Expert: the enemy's cavalry set aside for the Pursuit, as the table sees it: its backs
    /// and 'weakened' blocks. The rules set it aside next to the board, not face up; a unit
    /// revealed in an earlier battle is the seat's to remember.
    pub fn enemy_pursuit_cavalry(&self) -> &[(Back, u8)] {
        &self.enemy_pursuit_cavalry
    }

    /// Expert: this seat's pieces set aside that take no part in the Pursuit.
    pub fn set_aside(&self) -> &[Unit] {
        &self.set_aside
    }

    /// Expert: how many of the enemy's pieces are set aside and take no part in the Pursuit.
    pub fn enemy_set_aside(&self) -> usize {
        self.enemy_set_aside
    }

    /// `seat`'s manoeuvre cards (public: the draft is open, ruling).
    pub fn hand(&self, seat: Seat) -> &[Card] {
        &self.hands[seat.index()]
    }

    /// Whether the game goes on.
    pub fn status(&self) -> Status<EndReason> {
        self.status
    }
}
