//! What one seat may see: its own ranks, and of the enemy only what the rules have revealed.

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::end::EndReason;
use super::rank::Rank;
use super::setup::{seat_letter, write_grid};
use super::square::Square;
use crate::{BySeat, Seat, Status};

/// An enemy piece as a seat sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EnemyPiece {
    /// Its rank, only if revealed (in a battle, or a Scout seen moving more than one square).
    pub rank: Option<Rank>,
    /// Whether it has moved, so it is no Bomb or Flag.
    pub has_moved: bool,
}

/// A square as a seat sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Seen {
    /// Nothing there.
    Empty,
    /// A lake.
    Lake,
    /// One of the seat's own pieces.
    Own {
        /// Its rank.
        rank: Rank,
        /// Whether the opponent knows the rank.
        revealed: bool,
    },
    /// An enemy piece.
    Enemy(EnemyPiece),
}

/// One seat's view of a game: a different type from the position, built only by
/// [`Game::view`](crate::Game::view), holding no rank the rules keep from that seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    seat: Seat,
    to_move: Seat,
    ply: u32,
    board: Vec<Seen>,
    lost: BySeat<[u8; 13]>,
    status: Status<EndReason>,
}

impl View {
    pub(crate) fn new(
        seat: Seat,
        to_move: Seat,
        ply: u32,
        board: Vec<Seen>,
        lost: BySeat<[u8; 13]>,
        status: Status<EndReason>,
    ) -> View {
        View {
            seat,
            to_move,
            ply,
            board,
            lost,
            status,
        }
    }

    /// The seat this view belongs to.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The seat to move.
    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    /// Moves played so far.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// What stands on `square`.
    pub fn at(&self, square: Square) -> Seen {
        self.board
            .get(square.index())
            .copied()
            .unwrap_or(Seen::Empty)
    }

    /// Every square with what this seat sees there, a1 first.
    pub fn squares(&self) -> impl Iterator<Item = (Square, Seen)> + '_ {
        Square::all().zip(self.board.iter().copied())
    }

    /// How many pieces of `rank` `seat` has lost. Public: every removed piece was revealed in
    /// its battle.
    pub fn lost(&self, seat: Seat, rank: Rank) -> u8 {
        self.lost[seat][usize::from(rank.code())]
    }

    /// Whether the game goes on.
    pub fn status(&self) -> Status<EndReason> {
        self.status
    }

    /// The board as this seat sees it: own pieces as `rM`/`b2`, unknown enemies as `b?` (or
    /// `b*` once they have moved), revealed enemies with their rank.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        write_grid(&mut out, |s| match self.at(s) {
            Seen::Empty => ['.', '.'],
            Seen::Lake => ['~', '~'],
            Seen::Own { rank, .. } => [seat_letter(self.seat), rank.to_char()],
            Seen::Enemy(e) => [
                seat_letter(self.seat.opponent()),
                match (e.rank, e.has_moved) {
                    (Some(r), _) => r.to_char(),
                    (None, true) => '*',
                    (None, false) => '?',
                },
            ],
        });
        out
    }
}
