//! What one seat may see: its own pieces, and of the enemy the suits, the pawns, and only the
//! values revealed in combat.

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::combat::Combat;
use super::phase::{EndReason, Phase};
use super::square::{Square, SquareSet, COLS, ROWS};
use super::unit::{Suit, Unit, Units};
use crate::game::{Actor, Status};
use crate::Seat;

/// A piece as a seat sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Seen {
    /// One of the seat's own pieces.
    Own {
        /// Which.
        unit: Unit,
        /// Whether the enemy has seen its value in combat.
        revealed: bool,
    },
    /// An enemy leader pawn: its colour says who it is.
    EnemyLeader(Unit),
    /// An enemy coin, suit side up.
    EnemyCoin {
        /// The suit everyone sees.
        suit: Suit,
        /// Which piece it is, only once its value was revealed in combat.
        unit: Option<Unit>,
    },
}

/// Everything a view is built from (filled only by the position's `view`).
pub(crate) struct Parts {
    pub seat: Seat,
    pub turn: u8,
    pub phase: Phase,
    pub side: Seat,
    pub to_act: Actor,
    pub board: Vec<Vec<Seen>>,
    pub waiting: Vec<Seen>,
    pub eliminated: Units,
    pub held: [Option<Seat>; 4],
    pub attacks: Vec<(Square, Square)>,
    pub pending: SquareSet,
    pub combat: Option<Combat>,
    pub status: Status<EndReason>,
}

/// One seat's view of a game: a different type from the position, built only by
/// [`Game::view`](crate::Game::view). An enemy coin's value is not in it until combat reveals it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    seat: Seat,
    turn: u8,
    phase: Phase,
    side: Seat,
    to_act: Actor,
    board: Vec<Vec<Seen>>,
    waiting: Vec<Seen>,
    eliminated: Units,
    held: [Option<Seat>; 4],
    attacks: Vec<(Square, Square)>,
    pending: SquareSet,
    combat: Option<Combat>,
    status: Status<EndReason>,
}

impl View {
    pub(crate) fn new(p: Parts) -> View {
        View {
            seat: p.seat,
            turn: p.turn,
            phase: p.phase,
            side: p.side,
            to_act: p.to_act,
            board: p.board,
            waiting: p.waiting,
            eliminated: p.eliminated,
            held: p.held,
            attacks: p.attacks,
            pending: p.pending,
            combat: p.combat,
            status: p.status,
        }
    }

    /// The seat this view belongs to.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The turn, from 1.
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The side whose movement or combat phase it is.
    pub fn phasing_side(&self) -> Seat {
        self.side
    }

    /// Who acts next.
    pub fn to_act(&self) -> Actor {
        self.to_act
    }

    /// The pieces on `square`, bottom first, as this seat sees them.
    pub fn at(&self, square: Square) -> &[Seen] {
        self.board
            .get(square.index())
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Every square with what this seat sees there, A-1 first.
    pub fn squares(&self) -> impl Iterator<Item = (Square, &[Seen])> + '_ {
        Square::all().zip(self.board.iter().map(Vec::as_slice))
    }

    /// The Prussians still waiting off the map, as this seat sees them.
    pub fn waiting(&self) -> &[Seen] {
        &self.waiting
    }

    /// Eliminated pieces: public, every one was revealed in its combat.
    pub fn eliminated(&self) -> Units {
        self.eliminated
    }

    /// Who holds Mont St Jean, Plancenoit, Hougoumont and La Haye Sainte.
    pub fn holdings(&self) -> [Option<Seat>; 4] {
        self.held
    }

    /// Designated attacks this combat phase, as the lines on the pieces show them: the
    /// attacking piece's square and its target.
    pub fn attacks(&self) -> &[(Square, Square)] {
        &self.attacks
    }

    /// Designated targets not yet resolved.
    pub fn pending_attacks(&self) -> SquareSet {
        self.pending
    }

    /// The combat being fought: every piece in it is revealed.
    pub fn combat(&self) -> Option<&Combat> {
        self.combat.as_ref()
    }

    /// Whether the game goes on.
    pub fn status(&self) -> Status<EndReason> {
        self.status
    }

    /// The map as this seat sees it, row H at the top: each square shows its pieces, own
    /// pieces by value (`5`, `-` blank, `*` symbol, `L` leader), enemy coins as `?` until
    /// revealed, `.` for empty.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        for row in (0..ROWS).rev() {
            out.push((b'A' + row) as char);
            out.push(' ');
            for col in 0..COLS {
                let Some(s) = Square::new(row, col) else {
                    continue;
                };
                let cell: String = self
                    .at(s)
                    .iter()
                    .map(|seen| match seen {
                        Seen::Own { unit, .. }
                        | Seen::EnemyCoin {
                            unit: Some(unit), ..
                        } => unit.value().map_or('L', |v| v.to_char()),
                        Seen::EnemyLeader(_) => 'L',
                        Seen::EnemyCoin { unit: None, .. } => '?',
                    })
                    .collect();
                out.push_str(&alloc::format!(
                    "{:>4}",
                    if cell.is_empty() { "." } else { &cell }
                ));
            }
            out.push('\n');
        }
        out
    }
}
