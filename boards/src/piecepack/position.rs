//! The position: the whole truth of a game, the set-up check, and the rules.

use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use super::combat::{Combat, Tally};
use super::phase::{EndReason, Phase};
use super::square::{Layout, LayoutProblem, Square, SquareSet, SQUARES};
use super::unit::{Face, Kind, Stacking, Unit, Units, UNITS};
use super::view::{Seen, View};
use super::{side_name, EliminationLimit, Holding, Options, ALLIES, FRENCH};
use crate::game::{Actor, Game, Problems, Status};
use crate::geometry::stack::{Stack, StackProblem};
use crate::Seat;

/// What may stand on one square: one regular piece, one symbol piece, one leader.
type Pile = Stack<Unit, 3>;

/// Something a side, or chance, does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Movement: `unit` moves to `to` (along any legal path).
    Move {
        /// The piece lifted (naming it tells which piece of a stack moves).
        unit: Unit,
        /// Where it is put down.
        to: Square,
    },
    /// Movement: the side has moved all it wants to.
    EndMovement,
    /// Designation: `unit` attacks the enemy pieces on `target`.
    Designate {
        /// The attacking piece.
        unit: Unit,
        /// The neighbouring enemy square it points at.
        target: Square,
    },
    /// Resolution: fight the attack on `target` next.
    Resolve {
        /// A designated target.
        target: Square,
    },
    /// Chance: one combat die shows this face.
    Roll(Face),
    /// Elimination: the victor eliminates this losing piece, or (`None`) none.
    Eliminate(Option<Unit>),
    /// Retreat: the victor retreats this losing piece to `to`, two squares away.
    Retreat {
        /// The losing piece.
        unit: Unit,
        /// Where it ends.
        to: Square,
    },
    /// Advance: the victorious attacker moves this attacking piece into the emptied square,
    /// or (`None`) stays.
    Advance(Option<Unit>),
    /// Reinforcement: a waiting Prussian comes on at `at`.
    Enter {
        /// The Prussian piece.
        unit: Unit,
        /// An entry square.
        at: Square,
    },
    /// Reinforcement: no more Prussians come on this turn.
    EndReinforcement,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move { unit, to } => write!(f, "{} to {to}", unit.piece_name()),
            Action::EndMovement => f.write_str("end of movement"),
            Action::Designate { unit, target } => {
                write!(f, "{} attacks {target}", unit.piece_name())
            }
            Action::Resolve { target } => write!(f, "resolve the attack on {target}"),
            Action::Roll(face) => write!(f, "die: {face}"),
            Action::Eliminate(Some(u)) => write!(f, "eliminate {}", u.piece_name()),
            Action::Eliminate(None) => f.write_str("eliminate nothing"),
            Action::Retreat { unit, to } => write!(f, "{} retreats to {to}", unit.piece_name()),
            Action::Advance(Some(u)) => write!(f, "{} advances", u.piece_name()),
            Action::Advance(None) => f.write_str("no advance"),
            Action::Enter { unit, at } => write!(f, "{} enters at {at}", unit.piece_name()),
            Action::EndReinforcement => f.write_str("end of reinforcement"),
        }
    }
}

/// Why an action was refused, with the fix in its message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Illegal {
    /// The game is over.
    GameOver,
    /// The action belongs to another phase; this is the phase now.
    WrongPhase(Phase),
    /// The piece belongs to the other side.
    NotYours(Unit),
    /// The piece is not on the map (eliminated, or a Prussian still waiting).
    OffMap(Unit),
    /// The piece has moved already this phase.
    AlreadyMoved(Unit),
    /// The piece began the turn next to an enemy and is no leader.
    Pinned(Unit),
    /// The move ends where it began.
    SameSquare(Square),
    /// Enemy pieces stand on the square.
    EnemySquare(Square),
    /// The square is further than the piece can go.
    TooFar(Unit, Square),
    /// Every way there passes an enemy square or stops next to an enemy first.
    NoPath(Unit, Square),
    /// The square has no room for the piece.
    NoRoom(Square, StackProblem<Kind>),
    /// The piece must not attack: it did not start the combat phase next to an enemy.
    NotAttacking(Unit),
    /// The piece has been given its target already.
    AlreadyDesignated(Unit),
    /// The target square is not next to the piece or holds no enemy.
    NotATarget(Unit, Square),
    /// No attack waits to be resolved on that square.
    NoAttack(Square),
    /// The piece cannot be eliminated: not on the losing side, or worth more than the highest
    /// winning number allows.
    NotEliminable(Unit),
    /// The piece has no retreat to wait for.
    NotRetreating(Unit),
    /// The square is not a legal retreat for the piece.
    BadRetreat(Unit, Square),
    /// The piece did not attack in this combat.
    NotAnAttacker(Unit),
    /// The piece is not a waiting Prussian.
    NotWaiting(Unit),
    /// The square is not a Prussian entry square.
    NotEntry(Square),
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::GameOver => f.write_str("the game is over"),
            Illegal::WrongPhase(p) => write!(f, "not now: this is the {p} phase"),
            Illegal::NotYours(u) => write!(f, "{} is the enemy's: use one of your own", u.piece_name()),
            Illegal::OffMap(u) => write!(f, "{} is not on the map: choose a piece on the map", u.piece_name()),
            Illegal::AlreadyMoved(u) => write!(f, "{} has moved already this turn: move another piece", u.piece_name()),
            Illegal::Pinned(u) => write!(
                f,
                "{} began the turn next to an enemy and cannot move (only leaders can): move another piece",
                u.piece_name()
            ),
            Illegal::SameSquare(s) => write!(f, "the piece is on {s} already: put it on another square"),
            Illegal::EnemySquare(s) => write!(f, "enemy pieces stand on {s}: pieces never enter or pass an enemy square"),
            Illegal::TooFar(u, s) => write!(
                f,
                "{s} is too far: {} moves {} square(s)",
                u.piece_name(),
                u.allowance()
            ),
            Illegal::NoPath(u, s) => write!(
                f,
                "{} cannot reach {s}: it must stop next to an enemy and cannot pass enemy squares",
                u.piece_name()
            ),
            Illegal::NoRoom(s, p) => write!(f, "no room on {s}: {p}"),
            Illegal::NotAttacking(u) => write!(
                f,
                "{} did not start the combat phase next to an enemy: only those pieces attack",
                u.piece_name()
            ),
            Illegal::AlreadyDesignated(u) => write!(f, "{} has its target already: point another piece", u.piece_name()),
            Illegal::NotATarget(u, s) => write!(
                f,
                "{} cannot attack {s}: point it at an enemy piece next to it",
                u.piece_name()
            ),
            Illegal::NoAttack(s) => write!(f, "no attack on {s} waits: resolve a designated attack"),
            Illegal::NotEliminable(u) => write!(
                f,
                "{} cannot be eliminated: choose a losing piece worth no more than the highest winning number, or none",
                u.piece_name()
            ),
            Illegal::NotRetreating(u) => write!(f, "{} does not retreat: retreat a losing piece", u.piece_name()),
            Illegal::BadRetreat(u, s) => write!(
                f,
                "{} cannot retreat to {s}: two squares, not through or next to an enemy (a lone leader aside), with room",
                u.piece_name()
            ),
            Illegal::NotAnAttacker(u) => write!(f, "{} did not attack here: advance an attacking piece, or none", u.piece_name()),
            Illegal::NotWaiting(u) => write!(f, "{} is not a waiting Prussian", u.piece_name()),
            Illegal::NotEntry(s) => write!(f, "{s} is not a Prussian entry square"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Illegal {}

/// Something that happened, for the referee to announce.
///
/// Events are the whole truth (a move names the piece): announce to a seat only what its
/// [`View`] shows, or [`Event::is_public`] events.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Event {
    /// A piece moved.
    Moved {
        /// The piece.
        unit: Unit,
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
    /// A side's phase began (movement, combat, reinforcement).
    PhaseBegan {
        /// The phasing side.
        side: Seat,
        /// The phase.
        phase: Phase,
    },
    /// An attack was designated.
    Designated {
        /// The attacker.
        unit: Unit,
        /// Its target square.
        target: Square,
    },
    /// A combat began: all its pieces are revealed.
    CombatBegan(Combat),
    /// A designated attack fell away: its attackers or defenders are gone.
    AttackCancelled(Square),
    /// A die was rolled.
    Rolled {
        /// Whose die: the attacker's or the defender's side.
        side: Seat,
        /// The face.
        face: Face,
    },
    /// A combat was decided.
    CombatDecided {
        /// The defending square.
        target: Square,
        /// The attacker's and the defender's tallies.
        tallies: [Tally; 2],
        /// The victor; `None` on a stalemate.
        victor: Option<Seat>,
    },
    /// A piece was eliminated.
    Eliminated {
        /// The piece.
        unit: Unit,
        /// True when it had no retreat; false when the victor chose it.
        no_retreat: bool,
    },
    /// A piece retreated.
    Retreated {
        /// The piece.
        unit: Unit,
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
    /// An attacking piece advanced into the defenders' square.
    Advanced {
        /// The piece.
        unit: Unit,
        /// The square.
        to: Square,
    },
    /// A Prussian came on.
    Entered {
        /// The piece.
        unit: Unit,
        /// The entry square.
        at: Square,
    },
    /// An objective changed hands.
    ObjectiveTaken {
        /// The objective.
        square: Square,
        /// Who holds it now; `None` when it is empty under [`Holding::Occupied`].
        by: Option<Seat>,
    },
    /// The turn marker advanced: this turn begins.
    TurnBegan(u8),
    /// The game ended.
    GameOver {
        /// The winner.
        winner: Seat,
        /// Why.
        reason: EndReason,
    },
}

impl Event {
    /// Whether both seats may be told this event as it stands. Moves and entries name a piece
    /// whose value may be secret; everything in a combat is revealed.
    pub fn is_public(&self) -> bool {
        !matches!(
            self,
            Event::Moved { .. } | Event::Entered { .. } | Event::Designated { .. }
        )
    }
}

/// What an action did, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome(pub Vec<Event>);

impl Outcome {
    /// The events `seat` may be told: the public ones and those about its own pieces. An
    /// enemy move or entry is left out (the seat sees it on the table, and in its [`View`]).
    pub fn visible_to(&self, seat: Seat) -> Vec<Event> {
        self.0
            .iter()
            .filter(|e| match e {
                Event::Moved { unit, .. }
                | Event::Entered { unit, .. }
                | Event::Designated { unit, .. } => unit.side() == seat,
                _ => true,
            })
            .cloned()
            .collect()
    }
}

/// An untrusted starting deployment: where each piece stands.
///
/// "Allies deploy first: set aside the five black pieces ... Place the Red star symbol in
/// Hougoumont. Place the other six red pieces on or next to Hougoumont and La Haye Saint within
/// stacking limits. French deploy second, within two squares of Plancenoit, but NOT next to any
/// Allied piece."
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The seven red pieces.
    pub allies: Vec<(Unit, Square)>,
    /// The eleven French pieces.
    pub french: Vec<(Unit, Square)>,
}

impl Setup {
    /// A legal deployment for the standard layout, close to the worked example: Wellington,
    /// the garrison and the Dutch-Belgians in Hougoumont, Picton in La Haye Sainte; Napoleon
    /// with the Old Guard and the Guard artillery in Plancenoit.
    pub fn example() -> Setup {
        let s = Square::at;
        Setup {
            allies: alloc::vec![
                (Unit::HougoumontGarrison, s(b'E', 4)),
                (Unit::Wellington, s(b'E', 4)),
                (Unit::DutchBelgians, s(b'E', 4)),
                (Unit::Picton, s(b'G', 3)),
                (Unit::Cooke, s(b'F', 3)),
                (Unit::Clinton, s(b'D', 4)),
                (Unit::Uxbridge, s(b'E', 5)),
            ],
            french: alloc::vec![
                (Unit::OldGuard, s(b'G', 7)),
                (Unit::Napoleon, s(b'G', 7)),
                (Unit::GuardArtillery, s(b'G', 7)),
                (Unit::YoungGuard, s(b'G', 6)),
                (Unit::DErlon, s(b'G', 5)),
                (Unit::Ney, s(b'G', 5)),
                (Unit::Lobau, s(b'F', 7)),
                (Unit::Reille, s(b'F', 6)),
                (Unit::IICorps, s(b'H', 7)),
                (Unit::GuardCavalry, s(b'G', 8)),
                (Unit::FrenchCavalry, s(b'F', 8)),
            ],
        }
    }
}

/// One problem with a set-up (or with the options it is played under).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SetupProblem {
    /// The layout is not usable.
    Layout(LayoutProblem),
    /// The Prussian arrival turn is not a turn of the game.
    PrussianTurn(u8),
    /// A piece is listed for the wrong side.
    WrongSide(Unit),
    /// A piece is placed twice.
    Twice(Unit),
    /// A piece is not placed.
    Missing(Unit),
    /// A Prussian is placed: they are set aside to arrive later.
    PrussianPlaced(Unit),
    /// The Hougoumont garrison is not in Hougoumont.
    GarrisonOutside(Square),
    /// A red piece is neither on nor next to Hougoumont or La Haye Sainte.
    FarFromStrongpoints(Unit, Square),
    /// A French piece is more than two squares from Plancenoit.
    FarFromPlancenoit(Unit, Square),
    /// A French piece is next to an Allied piece.
    NextToAllies(Unit, Square),
    /// A French piece is on an Allied square.
    OnAllies(Unit, Square),
    /// A square breaks the stacking limits.
    Stacking(Square, StackProblem<Kind>),
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupProblem::Layout(p) => write!(f, "layout: {p}"),
            SetupProblem::PrussianTurn(t) => {
                write!(f, "Prussians from turn {t}: choose a turn of the game")
            }
            SetupProblem::WrongSide(u) => write!(
                f,
                "{} belongs to the {}: list it with them",
                u.piece_name(),
                side_name(u.side())
            ),
            SetupProblem::Twice(u) => {
                write!(f, "{} is placed twice: place it once", u.piece_name())
            }
            SetupProblem::Missing(u) => write!(f, "{} is not placed: place it", u.piece_name()),
            SetupProblem::PrussianPlaced(u) => write!(
                f,
                "{} is Prussian: set it aside, it arrives as a reinforcement",
                u.piece_name()
            ),
            SetupProblem::GarrisonOutside(s) => write!(
                f,
                "the Hougoumont garrison is on {s}: place it in Hougoumont"
            ),
            SetupProblem::FarFromStrongpoints(u, s) => write!(
                f,
                "{} on {s} is too far: place it on or next to Hougoumont or La Haye Sainte",
                u.piece_name()
            ),
            SetupProblem::FarFromPlancenoit(u, s) => write!(
                f,
                "{} on {s} is too far: place it within two squares of Plancenoit",
                u.piece_name()
            ),
            SetupProblem::NextToAllies(u, s) => write!(
                f,
                "{} on {s} is next to an Allied piece: move it away",
                u.piece_name()
            ),
            SetupProblem::OnAllies(u, s) => write!(
                f,
                "{} on {s} shares the square with Allied pieces: move it",
                u.piece_name()
            ),
            SetupProblem::Stacking(s, p) => write!(f, "{s}: {p}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SetupProblem {}

/// A Piecepack at Waterloo position: the whole truth, every hidden value included. Show a seat
/// only its [`View`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    options: Options,
    board: [Pile; SQUARES],
    at: [Option<Square>; UNITS],
    eliminated: Units,
    waiting: Units,
    revealed: Units,
    /// Mont St Jean, Plancenoit, Hougoumont, La Haye Sainte.
    held: [Option<Seat>; 4],
    turn: u8,
    phase: Phase,
    /// The side whose movement or combat phase it is.
    side: Seat,
    moved: Units,
    pinned: Units,
    /// Pieces that must attack this combat phase.
    attackers: Units,
    designated: [Option<Square>; UNITS],
    targeted: SquareSet,
    resolved: SquareSet,
    combat: Option<Combat>,
    end: Option<(Seat, EndReason)>,
}

impl Position {
    fn empty(options: Options) -> Position {
        Position {
            options,
            board: [const { Stack::new() }; SQUARES],
            at: [None; UNITS],
            eliminated: Units::EMPTY,
            waiting: Units::EMPTY,
            revealed: Units::EMPTY,
            held: [Some(ALLIES), Some(FRENCH), Some(ALLIES), Some(ALLIES)],
            turn: 1,
            phase: Phase::Movement,
            side: FRENCH,
            moved: Units::EMPTY,
            pinned: Units::EMPTY,
            attackers: Units::EMPTY,
            designated: [None; UNITS],
            targeted: SquareSet::EMPTY,
            resolved: SquareSet::EMPTY,
            combat: None,
            end: None,
        }
    }

    fn check_options(options: &Options, problems: &mut Vec<SetupProblem>) {
        if let Err(p) = options.layout.validate() {
            problems.extend(p.0.into_iter().map(SetupProblem::Layout));
        }
        if options.prussians_from_turn == 0 || options.prussians_from_turn > options.layout.turns {
            problems.push(SetupProblem::PrussianTurn(options.prussians_from_turn));
        }
    }

    /// A position for studying a rule: exactly these pieces on the map, in `turn` at the start
    /// of `side`'s movement phase. Pieces not listed are off the map: Prussians waiting, the
    /// others eliminated. Only the stacking limits and the options are checked.
    ///
    /// # Errors
    /// Every problem with the options, pieces placed twice, and over-full squares.
    pub fn from_pieces(
        options: Options,
        pieces: &[(Unit, Square)],
        turn: u8,
        side: Seat,
    ) -> Result<Position, Problems<SetupProblem>> {
        let mut problems = Vec::new();
        Position::check_options(&options, &mut problems);
        if turn == 0 || turn > options.layout.turns {
            problems.push(SetupProblem::Layout(LayoutProblem::Turns(turn)));
        }
        let mut placed = Units::EMPTY;
        for &(u, _) in pieces {
            if placed.contains(u) {
                problems.push(SetupProblem::Twice(u));
            }
            placed.insert(u);
        }
        check_stacks(pieces, &mut problems);
        Problems(problems).into_result(())?;
        let mut p = Position::empty(options);
        for &(u, s) in pieces {
            p.place(u, s);
        }
        for u in Unit::ALL {
            if !placed.contains(u) {
                if u.is_prussian() {
                    p.waiting.insert(u);
                } else {
                    p.eliminated.insert(u);
                }
            }
        }
        p.turn = turn;
        p.update_holdings(&mut Vec::new());
        p.check_end(&mut Vec::new());
        if p.end.is_none() {
            p.begin_movement(side, &mut Vec::new());
        }
        Ok(p)
    }

    fn place(&mut self, unit: Unit, square: Square) {
        let _ = self.board[square.index()].push(unit);
        self.at[unit.index()] = Some(square);
    }

    fn lift(&mut self, unit: Unit) -> Option<Square> {
        let s = self.at[unit.index()].take()?;
        self.board[s.index()].take(|u| *u == unit);
        Some(s)
    }

    fn remove(&mut self, unit: Unit, no_retreat: bool, events: &mut Vec<Event>) {
        if self.lift(unit).is_some() {
            self.eliminated.insert(unit);
            events.push(Event::Eliminated { unit, no_retreat });
        }
    }

    // ----- Queries ---------------------------------------------------------------------------

    /// The layout in play.
    pub fn layout(&self) -> &Layout {
        &self.options.layout
    }

    /// The current turn, from 1.
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The side whose movement or combat phase it is (the Allies in reinforcement).
    pub fn phasing_side(&self) -> Seat {
        self.side
    }

    /// Where `unit` stands, if on the map.
    pub fn square_of(&self, unit: Unit) -> Option<Square> {
        self.at[unit.index()]
    }

    /// The pieces on `square`, bottom first.
    pub fn pieces_on(&self, square: Square) -> impl Iterator<Item = Unit> + '_ {
        self.board[square.index()].iter().copied()
    }

    /// Which side has pieces on `square`.
    pub fn occupant(&self, square: Square) -> Option<Seat> {
        self.board[square.index()].bottom().map(|u| u.side())
    }

    /// Pieces eliminated so far.
    pub fn eliminated(&self) -> Units {
        self.eliminated
    }

    /// Prussians still waiting to enter.
    pub fn waiting(&self) -> Units {
        self.waiting
    }

    /// Pieces whose values have been revealed in combat.
    pub fn revealed(&self) -> Units {
        self.revealed
    }

    /// Who holds each objective: Mont St Jean, Plancenoit, Hougoumont, La Haye Sainte.
    pub fn holdings(&self) -> [Option<Seat>; 4] {
        self.held
    }

    /// The combat being fought, if any.
    pub fn combat(&self) -> Option<&Combat> {
        self.combat.as_ref()
    }

    /// The target designated for each piece this combat phase.
    pub fn designation(&self, unit: Unit) -> Option<Square> {
        self.designated[unit.index()]
    }

    /// Designated targets not yet resolved.
    pub fn pending_attacks(&self) -> SquareSet {
        SquareSet(self.targeted.0 & !self.resolved.0)
    }

    /// Pieces that must attack this combat phase and have no target yet.
    pub fn undesignated(&self) -> Units {
        self.attackers
            .iter()
            .filter(|u| self.designated[u.index()].is_none())
            .collect()
    }

    /// Pieces pinned this movement phase (began it next to an enemy; not leaders).
    pub fn pinned(&self) -> Units {
        self.pinned
    }

    /// Pieces moved this movement phase.
    pub fn moved(&self) -> Units {
        self.moved
    }

    /// Whether `Move { unit, to }` could be legal, as the table sees the coins, were `unit`,
    /// where it stands, the piece `like` of its side: `like`'s movement allowance, `unit`'s
    /// square, whether it moved and whether it is pinned, and room at `to` judged by the suits
    /// of the coins there, not their kinds (a coin's kind, regular or symbol, is as hidden as
    /// its value). A referee that cannot tell a hidden coin from others of its suit asks this
    /// of each, so that which moves it offers the table tells nothing of any coin's value
    /// (cavalry moves two squares; a symbol coin stacks apart). Every legal move passes.
    pub fn could_move_like(&self, unit: Unit, like: Unit, to: Square) -> bool {
        let Some(from) = self.at[unit.index()] else {
            return false;
        };
        self.phase == Phase::Movement
            && unit.side() == self.side
            && like.side() == unit.side()
            && !self.moved.contains(unit)
            && !self.pinned.contains(unit)
            && from != to
            && self.reach_like(unit, like).contains(to)
            && self.could_have_room(to, like)
    }

    /// Whether `like` could find room on `to` as the table sees the coins there: their suits,
    /// not their kinds. A pawn needs no pawn there; a coin needs fewer than two coins there,
    /// and beside one coin a regular coin needs that one to be possibly the symbol coin (a
    /// suit that has one: "one regular piece, one symbol piece and one leader pawn").
    fn could_have_room(&self, to: Square, like: Unit) -> bool {
        if like.is_leader() {
            return self.pieces_on(to).all(|u| !u.is_leader());
        }
        let coins: Vec<Unit> = self.pieces_on(to).filter(|u| !u.is_leader()).collect();
        match coins.as_slice() {
            [] => true,
            [there] => {
                like.kind() == Kind::Symbol
                    || Unit::ALL
                        .iter()
                        .any(|u| u.suit() == there.suit() && u.kind() == Kind::Symbol)
            }
            _ => false,
        }
    }

    /// Whether `square` is next to a piece of `enemy`.
    fn next_to(&self, square: Square, enemy: Seat) -> bool {
        square
            .neighbours(self.options.diagonals)
            .any(|n| self.occupant(n) == Some(enemy))
    }

    /// Whether `square` is next to a piece of `enemy` other than a lone leader.
    fn next_to_blocking(&self, square: Square, enemy: Seat) -> bool {
        square.neighbours(self.options.diagonals).any(|n| {
            let pile = &self.board[n.index()];
            pile.bottom().is_some_and(|u| u.side() == enemy)
                && !(pile.len() == 1 && pile.iter().all(|u| u.is_leader()))
        })
    }

    fn room(&self, square: Square, unit: Unit) -> Result<(), StackProblem<Kind>> {
        self.board[square.index()].check(&Stacking, &unit)
    }

    /// Squares `unit` can reach this movement phase, ignoring stacking at the end.
    fn reach(&self, unit: Unit) -> SquareSet {
        self.reach_like(unit, unit)
    }

    /// Squares `unit` could reach this movement phase, from where it stands, were it the piece
    /// `like` (its movement allowance, whether it is a leader), ignoring stacking at the end.
    fn reach_like(&self, unit: Unit, like: Unit) -> SquareSet {
        let mut out = SquareSet::EMPTY;
        let Some(start) = self.at[unit.index()] else {
            return out;
        };
        let enemy = unit.side().opponent();
        let diag = self.options.diagonals;
        let mut frontier = SquareSet::EMPTY;
        frontier.insert(start);
        for _ in 0..like.allowance() {
            let mut next = SquareSet::EMPTY;
            for s in frontier.iter() {
                if s != start && !like.is_leader() && self.next_to(s, enemy) {
                    continue; // must stop here
                }
                for n in s.neighbours(diag) {
                    if self.occupant(n) != Some(enemy) {
                        next.insert(n);
                    }
                }
            }
            out.0 |= next.0;
            frontier = next;
        }
        out.0 &= !SquareSet::of(&[start]).0;
        out
    }

    /// Squares `unit` can retreat to now.
    fn retreats(&self, unit: Unit) -> SquareSet {
        let mut out = SquareSet::EMPTY;
        let Some(start) = self.at[unit.index()] else {
            return out;
        };
        let enemy = unit.side().opponent();
        let diag = self.options.diagonals;
        let ok = |s: Square| self.occupant(s) != Some(enemy) && !self.next_to_blocking(s, enemy);
        for a in start.neighbours(diag).filter(|&a| ok(a)) {
            for b in a.neighbours(diag) {
                if start.steps(b, diag) == 2 && ok(b) && self.room(b, unit).is_ok() {
                    out.insert(b);
                }
            }
        }
        out
    }

    fn can_enter(&self, at: Square, unit: Unit) -> bool {
        self.options.layout.prussian_entry.contains(at)
            && self.occupant(at) != Some(FRENCH)
            && self.room(at, unit).is_ok()
    }

    fn may_reinforce(&self) -> bool {
        self.turn >= self.options.prussians_from_turn
            && self.waiting.iter().any(|u| {
                self.options
                    .layout
                    .prussian_entry
                    .iter()
                    .any(|s| self.can_enter(s, u))
            })
    }

    /// The losing pieces the victor may eliminate now.
    fn eliminable(&self) -> Units {
        let Some(c) = &self.combat else {
            return Units::EMPTY;
        };
        let Some(victor) = c.victor else {
            return Units::EMPTY;
        };
        let tallies = c.tallies();
        let win = &tallies[usize::from(victor != c.attacker)];
        let limit = match self.options.elimination_limit {
            EliminationLimit::HighestDie => win.highest_die,
            EliminationLimit::HighestResult => win.highest_result,
        };
        let Some(limit) = limit else {
            return Units::EMPTY;
        };
        let losers = if victor == c.attacker {
            c.defenders
        } else {
            c.attackers
        };
        losers
            .iter()
            .filter(|u| self.at[u.index()].is_some())
            .filter(|u| {
                let n = match u.value().and_then(Face::number) {
                    Some(n) => Some(n),
                    None if self.options.eliminate_leaders_and_symbols => Some(0),
                    None => None,
                };
                n.is_some_and(|n| n <= limit)
            })
            .collect()
    }

    // ----- Phase changes ---------------------------------------------------------------------

    fn begin_movement(&mut self, side: Seat, events: &mut Vec<Event>) {
        self.side = side;
        self.phase = Phase::Movement;
        self.moved = Units::EMPTY;
        self.pinned = Unit::ALL
            .into_iter()
            .filter(|u| u.side() == side && !u.is_leader())
            .filter(|u| self.at[u.index()].is_some_and(|s| self.next_to(s, side.opponent())))
            .collect();
        events.push(Event::PhaseBegan {
            side,
            phase: Phase::Movement,
        });
    }

    fn begin_combat(&mut self, events: &mut Vec<Event>) {
        let side = self.side;
        self.attackers = Unit::ALL
            .into_iter()
            .filter(|u| u.side() == side)
            .filter(|u| self.at[u.index()].is_some_and(|s| self.next_to(s, side.opponent())))
            .collect();
        self.designated = [None; UNITS];
        self.targeted = SquareSet::EMPTY;
        self.resolved = SquareSet::EMPTY;
        self.combat = None;
        if self.attackers.is_empty() {
            self.after_combat(events);
        } else {
            self.phase = Phase::Designation;
            events.push(Event::PhaseBegan {
                side,
                phase: Phase::Designation,
            });
        }
    }

    /// Back to choosing an attack, or on to the next phase when none is left.
    fn next_attack(&mut self, events: &mut Vec<Event>) {
        self.combat = None;
        if self.pending_attacks().is_empty() {
            self.after_combat(events);
        } else {
            self.phase = Phase::Resolution;
        }
    }

    fn after_combat(&mut self, events: &mut Vec<Event>) {
        self.attackers = Units::EMPTY;
        self.designated = [None; UNITS];
        self.targeted = SquareSet::EMPTY;
        self.resolved = SquareSet::EMPTY;
        if self.side == FRENCH {
            self.begin_movement(ALLIES, events);
        } else if self.may_reinforce() {
            self.phase = Phase::Reinforcement;
            events.push(Event::PhaseBegan {
                side: ALLIES,
                phase: Phase::Reinforcement,
            });
        } else {
            self.end_turn(events);
        }
    }

    fn end_turn(&mut self, events: &mut Vec<Event>) {
        if self.turn >= self.options.layout.turns {
            self.finish(ALLIES, EndReason::TimeUp, events);
        } else {
            self.turn += 1;
            events.push(Event::TurnBegan(self.turn));
            self.begin_movement(FRENCH, events);
        }
    }

    fn finish(&mut self, winner: Seat, reason: EndReason, events: &mut Vec<Event>) {
        if self.end.is_none() {
            self.end = Some((winner, reason));
            self.phase = Phase::Over;
            self.combat = None;
            events.push(Event::GameOver { winner, reason });
        }
    }

    fn objectives(&self) -> [Square; 4] {
        let l = &self.options.layout;
        [l.mont_st_jean, l.plancenoit, l.hougoumont, l.la_haye_sainte]
    }

    fn update_holdings(&mut self, events: &mut Vec<Event>) {
        for (i, s) in self.objectives().into_iter().enumerate() {
            let now = match (self.occupant(s), self.options.holding) {
                (Some(side), _) => Some(side),
                (None, Holding::Captured) => self.held[i],
                (None, Holding::Occupied) => None,
            };
            if now != self.held[i] {
                self.held[i] = now;
                events.push(Event::ObjectiveTaken { square: s, by: now });
            }
        }
    }

    fn check_end(&mut self, events: &mut Vec<Event>) {
        if self.end.is_some() {
            return;
        }
        if self.eliminated.contains(Unit::Napoleon) {
            self.finish(ALLIES, EndReason::NapoleonEliminated, events);
        } else if self.held[1] == Some(ALLIES) {
            self.finish(ALLIES, EndReason::PlancenoitCaptured, events);
        } else if [0, 2, 3].iter().all(|&i| self.held[i] == Some(FRENCH)) {
            self.finish(FRENCH, EndReason::ObjectivesCaptured, events);
        }
    }

    // ----- Combat ----------------------------------------------------------------------------

    fn begin_resolution(&mut self, target: Square, events: &mut Vec<Event>) {
        self.resolved.insert(target);
        let side = self.side;
        let defender = side.opponent();
        let diag = self.options.diagonals;
        let attackers: Units = self
            .attackers
            .iter()
            .filter(|u| self.designated[u.index()] == Some(target))
            .filter(|u| self.at[u.index()].is_some_and(|s| s.neighbours(diag).any(|n| n == target)))
            .collect();
        let defenders: Units = if self.occupant(target) == Some(defender) {
            self.pieces_on(target).collect()
        } else {
            Units::EMPTY
        };
        if attackers.is_empty() || defenders.is_empty() {
            events.push(Event::AttackCancelled(target));
            self.next_attack(events);
            return;
        }
        let base = u8::from(self.options.base_die);
        let count = |set: Units, f: fn(Unit) -> bool| set.iter().filter(|u| f(*u)).count() as u8;
        let attack_dice = base
            + count(attackers, Unit::attack_die)
            + count(attackers, |u| u.kind() == Kind::Symbol);
        let supporters = Unit::ALL
            .into_iter()
            .filter(|u| u.side() == defender)
            .filter(|u| {
                self.at[u.index()].is_some_and(|s| {
                    !self.targeted.contains(s)
                        && attackers.iter().any(|a| {
                            self.at[a.index()].is_some_and(|sa| sa.neighbours(diag).any(|n| n == s))
                        })
                })
            })
            .count() as u8;
        let defence_dice = base
            + count(defenders, Unit::defence_die)
            + count(defenders, |u| u.kind() == Kind::Symbol)
            + supporters
            + u8::from(self.options.layout.is_fortified(target));
        for u in attackers.iter().chain(defenders.iter()) {
            self.revealed.insert(u);
        }
        let combat = Combat {
            target,
            attacker: side,
            attackers,
            defenders,
            dice: [attack_dice, defence_dice],
            rolls: Vec::new(),
            victor: None,
            retreating: Units::EMPTY,
        };
        events.push(Event::CombatBegan(combat.clone()));
        self.combat = Some(combat);
        self.phase = Phase::Rolling;
        self.after_roll(events);
    }

    /// Decides the combat once every die is rolled.
    fn after_roll(&mut self, events: &mut Vec<Event>) {
        let Some(c) = &mut self.combat else {
            return;
        };
        if c.rolls.len() < usize::from(c.dice[0]) + usize::from(c.dice[1]) {
            return;
        }
        let tallies = c.tallies();
        let victor = match tallies[0].total.cmp(&tallies[1].total) {
            core::cmp::Ordering::Greater => Some(c.attacker),
            core::cmp::Ordering::Less => Some(c.attacker.opponent()),
            core::cmp::Ordering::Equal => None,
        };
        c.victor = victor;
        c.retreating = match victor {
            Some(v) if v == c.attacker => c.defenders,
            Some(_) => c.attackers,
            None => Units::EMPTY,
        };
        events.push(Event::CombatDecided {
            target: c.target,
            tallies,
            victor,
        });
        if victor.is_none() {
            self.next_attack(events);
        } else if !self.eliminable().is_empty() {
            self.phase = Phase::Elimination;
        } else {
            self.settle_retreats(events);
        }
    }

    /// Eliminates losing pieces that have no retreat; asks the victor for the others.
    fn settle_retreats(&mut self, events: &mut Vec<Event>) {
        let Some(c) = &self.combat else {
            return;
        };
        let stuck: Vec<Unit> = c
            .retreating
            .iter()
            .filter(|u| self.at[u.index()].is_some() && self.retreats(*u).is_empty())
            .collect();
        for u in stuck {
            self.remove(u, true, events);
        }
        let Some(c) = &mut self.combat else {
            return;
        };
        c.retreating = c
            .retreating
            .iter()
            .filter(|u| self.at[u.index()].is_some())
            .collect();
        if !c.retreating.is_empty() {
            self.phase = Phase::Retreat;
            return;
        }
        let advance = c.victor == Some(c.attacker)
            && self.board[c.target.index()].is_empty()
            && c.attackers.iter().any(|u| self.at[u.index()].is_some());
        if advance {
            self.phase = Phase::Advance;
        } else {
            self.next_attack(events);
        }
    }

    fn victor(&self) -> Seat {
        self.combat
            .as_ref()
            .and_then(|c| c.victor)
            .unwrap_or(self.side)
    }

    fn after_action(&mut self, events: &mut Vec<Event>) {
        self.update_holdings(events);
        self.check_end(events);
    }
}

fn check_stacks(pieces: &[(Unit, Square)], problems: &mut Vec<SetupProblem>) {
    for s in Square::all() {
        let here: Vec<Unit> = pieces
            .iter()
            .filter(|(_, at)| *at == s)
            .map(|(u, _)| *u)
            .collect();
        if here.is_empty() {
            continue;
        }
        if let Err(p) = Pile::from_items(here.iter().copied(), &Stacking) {
            problems.extend(p.0.into_iter().map(|p| SetupProblem::Stacking(s, p)));
        }
        let allied = here.iter().any(|u| u.side() == ALLIES);
        if allied {
            for u in here.iter().filter(|u| u.side() == FRENCH) {
                problems.push(SetupProblem::OnAllies(*u, s));
            }
        }
    }
}

impl Game for Position {
    type Options = Options;
    type Setup = Setup;
    type SetupProblem = SetupProblem;
    type Action = Action;
    type Illegal = Illegal;
    type Outcome = Outcome;
    type View = View;
    type EndReason = EndReason;

    fn start(options: Options, setup: Setup) -> Result<Position, Problems<SetupProblem>> {
        let mut problems = Vec::new();
        Position::check_options(&options, &mut problems);
        let layout = options.layout;
        let near = |a: Square, b: Square| a.steps(b, options.diagonals);
        let mut placed = Units::EMPTY;
        for (side, list) in [(ALLIES, &setup.allies), (FRENCH, &setup.french)] {
            for &(u, s) in list.iter() {
                if u.side() != side {
                    problems.push(SetupProblem::WrongSide(u));
                    continue;
                }
                if placed.contains(u) {
                    problems.push(SetupProblem::Twice(u));
                    continue;
                }
                placed.insert(u);
                if u.is_prussian() {
                    problems.push(SetupProblem::PrussianPlaced(u));
                } else if u == Unit::HougoumontGarrison {
                    if s != layout.hougoumont {
                        problems.push(SetupProblem::GarrisonOutside(s));
                    }
                } else if side == ALLIES {
                    if near(s, layout.hougoumont) > 1 && near(s, layout.la_haye_sainte) > 1 {
                        problems.push(SetupProblem::FarFromStrongpoints(u, s));
                    }
                } else {
                    if near(s, layout.plancenoit) > 2 {
                        problems.push(SetupProblem::FarFromPlancenoit(u, s));
                    }
                    let touching = setup
                        .allies
                        .iter()
                        .any(|&(a, sa)| a.side() == ALLIES && sa != s && near(sa, s) == 1);
                    if touching {
                        problems.push(SetupProblem::NextToAllies(u, s));
                    }
                }
            }
        }
        for u in Unit::ALL {
            if !u.is_prussian() && !placed.contains(u) {
                problems.push(SetupProblem::Missing(u));
            }
        }
        let all: Vec<(Unit, Square)> = setup
            .allies
            .iter()
            .chain(setup.french.iter())
            .copied()
            .collect();
        check_stacks(&all, &mut problems);
        Problems(problems).into_result(())?;
        let mut p = Position::empty(options);
        for &(u, s) in &all {
            p.place(u, s);
        }
        p.waiting = Unit::ALL.into_iter().filter(|u| u.is_prussian()).collect();
        p.update_holdings(&mut Vec::new());
        p.check_end(&mut Vec::new());
        if p.end.is_none() {
            p.begin_movement(FRENCH, &mut Vec::new());
        }
        Ok(p)
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn to_act(&self) -> Actor {
        match self.phase {
            Phase::Over => Actor::Nobody,
            Phase::Rolling => Actor::Chance,
            Phase::Movement | Phase::Designation | Phase::Resolution => Actor::Seat(self.side),
            Phase::Elimination | Phase::Retreat | Phase::Advance => Actor::Seat(self.victor()),
            Phase::Reinforcement => Actor::Seat(ALLIES),
        }
    }

    fn status(&self) -> Status<EndReason> {
        match self.end {
            Some((winner, reason)) => Status::Won { winner, reason },
            None => Status::Ongoing,
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        match self.phase {
            Phase::Over => {}
            Phase::Movement => {
                for u in Unit::ALL {
                    if u.side() != self.side || self.moved.contains(u) || self.pinned.contains(u) {
                        continue;
                    }
                    for to in self.reach(u).iter() {
                        if self.room(to, u).is_ok() {
                            out.push(Action::Move { unit: u, to });
                        }
                    }
                }
                out.push(Action::EndMovement);
            }
            Phase::Designation => {
                let diag = self.options.diagonals;
                for u in self.undesignated().iter() {
                    if let Some(s) = self.at[u.index()] {
                        for target in s.neighbours(diag) {
                            if self.occupant(target) == Some(self.side.opponent()) {
                                out.push(Action::Designate { unit: u, target });
                            }
                        }
                    }
                }
            }
            Phase::Resolution => {
                out.extend(
                    self.pending_attacks()
                        .iter()
                        .map(|target| Action::Resolve { target }),
                );
            }
            Phase::Rolling => out.extend(Face::ALL.map(Action::Roll)),
            Phase::Elimination => {
                out.extend(self.eliminable().iter().map(|u| Action::Eliminate(Some(u))));
                out.push(Action::Eliminate(None));
            }
            Phase::Retreat => {
                if let Some(c) = &self.combat {
                    for u in c.retreating.iter() {
                        for to in self.retreats(u).iter() {
                            out.push(Action::Retreat { unit: u, to });
                        }
                    }
                }
            }
            Phase::Advance => {
                if let Some(c) = &self.combat {
                    out.extend(
                        c.attackers
                            .iter()
                            .filter(|u| self.at[u.index()].is_some())
                            .map(|u| Action::Advance(Some(u))),
                    );
                }
                out.push(Action::Advance(None));
            }
            Phase::Reinforcement => {
                for u in self.waiting.iter() {
                    for at in self.options.layout.prussian_entry.iter() {
                        if self.can_enter(at, u) {
                            out.push(Action::Enter { unit: u, at });
                        }
                    }
                }
                out.push(Action::EndReinforcement);
            }
        }
        out
    }

    fn chance_outcomes(&self) -> Vec<(Action, u32)> {
        if self.phase == Phase::Rolling {
            Face::ALL.iter().map(|&f| (Action::Roll(f), 1)).collect()
        } else {
            Vec::new()
        }
    }

    fn check(&self, action: &Action) -> Result<(), Illegal> {
        let phase = self.phase;
        if phase == Phase::Over {
            return Err(Illegal::GameOver);
        }
        let wrong = Err(Illegal::WrongPhase(phase));
        match *action {
            Action::Move { unit, to } => {
                if phase != Phase::Movement {
                    return wrong;
                }
                if unit.side() != self.side {
                    return Err(Illegal::NotYours(unit));
                }
                let Some(from) = self.at[unit.index()] else {
                    return Err(Illegal::OffMap(unit));
                };
                if self.moved.contains(unit) {
                    return Err(Illegal::AlreadyMoved(unit));
                }
                if self.pinned.contains(unit) {
                    return Err(Illegal::Pinned(unit));
                }
                if from == to {
                    return Err(Illegal::SameSquare(to));
                }
                if self.occupant(to) == Some(unit.side().opponent()) {
                    return Err(Illegal::EnemySquare(to));
                }
                if from.steps(to, self.options.diagonals) > unit.allowance() {
                    return Err(Illegal::TooFar(unit, to));
                }
                if !self.reach(unit).contains(to) {
                    return Err(Illegal::NoPath(unit, to));
                }
                self.room(to, unit).map_err(|p| Illegal::NoRoom(to, p))
            }
            Action::EndMovement => {
                if phase == Phase::Movement {
                    Ok(())
                } else {
                    wrong
                }
            }
            Action::Designate { unit, target } => {
                if phase != Phase::Designation {
                    return wrong;
                }
                if unit.side() != self.side {
                    return Err(Illegal::NotYours(unit));
                }
                if !self.attackers.contains(unit) {
                    return Err(Illegal::NotAttacking(unit));
                }
                if self.designated[unit.index()].is_some() {
                    return Err(Illegal::AlreadyDesignated(unit));
                }
                let next = self.at[unit.index()]
                    .is_some_and(|s| s.neighbours(self.options.diagonals).any(|n| n == target));
                if !next || self.occupant(target) != Some(self.side.opponent()) {
                    return Err(Illegal::NotATarget(unit, target));
                }
                Ok(())
            }
            Action::Resolve { target } => {
                if phase != Phase::Resolution {
                    return wrong;
                }
                if self.pending_attacks().contains(target) {
                    Ok(())
                } else {
                    Err(Illegal::NoAttack(target))
                }
            }
            Action::Roll(_) => {
                if phase == Phase::Rolling {
                    Ok(())
                } else {
                    wrong
                }
            }
            Action::Eliminate(choice) => {
                if phase != Phase::Elimination {
                    return wrong;
                }
                match choice {
                    Some(u) if !self.eliminable().contains(u) => Err(Illegal::NotEliminable(u)),
                    _ => Ok(()),
                }
            }
            Action::Retreat { unit, to } => {
                if phase != Phase::Retreat {
                    return wrong;
                }
                let retreating = self.combat.as_ref().map_or(Units::EMPTY, |c| c.retreating);
                if !retreating.contains(unit) {
                    return Err(Illegal::NotRetreating(unit));
                }
                if self.retreats(unit).contains(to) {
                    Ok(())
                } else {
                    Err(Illegal::BadRetreat(unit, to))
                }
            }
            Action::Advance(choice) => {
                if phase != Phase::Advance {
                    return wrong;
                }
                match choice {
                    Some(u) => {
                        let ok = self
                            .combat
                            .as_ref()
                            .is_some_and(|c| c.attackers.contains(u))
                            && self.at[u.index()].is_some();
                        if ok {
                            Ok(())
                        } else {
                            Err(Illegal::NotAnAttacker(u))
                        }
                    }
                    None => Ok(()),
                }
            }
            Action::Enter { unit, at } => {
                if phase != Phase::Reinforcement {
                    return wrong;
                }
                if !self.waiting.contains(unit) {
                    return Err(Illegal::NotWaiting(unit));
                }
                if !self.options.layout.prussian_entry.contains(at) {
                    return Err(Illegal::NotEntry(at));
                }
                if self.occupant(at) == Some(FRENCH) {
                    return Err(Illegal::EnemySquare(at));
                }
                self.room(at, unit).map_err(|p| Illegal::NoRoom(at, p))
            }
            Action::EndReinforcement => {
                if phase == Phase::Reinforcement {
                    Ok(())
                } else {
                    wrong
                }
            }
        }
    }

    fn play_unchecked(&mut self, action: &Action) -> Outcome {
        let mut events = Vec::new();
        let ev = &mut events;
        match *action {
            Action::Move { unit, to } => {
                if let Some(from) = self.lift(unit) {
                    self.place(unit, to);
                    self.moved.insert(unit);
                    ev.push(Event::Moved { unit, from, to });
                }
            }
            Action::EndMovement => self.begin_combat(ev),
            Action::Designate { unit, target } => {
                self.designated[unit.index()] = Some(target);
                self.targeted.insert(target);
                ev.push(Event::Designated { unit, target });
                if self.undesignated().is_empty() {
                    self.phase = Phase::Resolution;
                }
            }
            Action::Resolve { target } => self.begin_resolution(target, ev),
            Action::Roll(face) => {
                if let Some(c) = &mut self.combat {
                    let side = if c.rolls.len() < usize::from(c.dice[0]) {
                        c.attacker
                    } else {
                        c.attacker.opponent()
                    };
                    c.rolls.push(face);
                    ev.push(Event::Rolled { side, face });
                }
                self.after_roll(ev);
            }
            Action::Eliminate(choice) => {
                if let Some(u) = choice {
                    self.remove(u, false, ev);
                    if let Some(c) = &mut self.combat {
                        c.retreating.remove(u);
                    }
                }
                self.settle_retreats(ev);
            }
            Action::Retreat { unit, to } => {
                if let Some(from) = self.lift(unit) {
                    self.place(unit, to);
                    ev.push(Event::Retreated { unit, from, to });
                }
                if let Some(c) = &mut self.combat {
                    c.retreating.remove(unit);
                }
                self.settle_retreats(ev);
            }
            Action::Advance(choice) => {
                if let (Some(u), Some(c)) = (choice, &self.combat) {
                    let to = c.target;
                    self.lift(u);
                    self.place(u, to);
                    ev.push(Event::Advanced { unit: u, to });
                }
                self.next_attack(ev);
            }
            Action::Enter { unit, at } => {
                self.waiting.remove(unit);
                self.place(unit, at);
                ev.push(Event::Entered { unit, at });
                if !self.may_reinforce() {
                    self.end_turn(ev);
                }
            }
            Action::EndReinforcement => self.end_turn(ev),
        }
        self.after_action(ev);
        Outcome(events)
    }

    fn view(&self, seat: Seat) -> View {
        let seen = |u: Unit| {
            if u.side() == seat {
                Seen::Own {
                    unit: u,
                    revealed: self.revealed.contains(u),
                }
            } else if u.is_leader() {
                Seen::EnemyLeader(u)
            } else {
                Seen::EnemyCoin {
                    suit: u.suit(),
                    unit: self.revealed.contains(u).then_some(u),
                }
            }
        };
        let board = Square::all()
            .map(|s| self.pieces_on(s).map(seen).collect())
            .collect();
        let waiting = self.waiting.iter().map(seen).collect();
        let attacks = self
            .attackers
            .iter()
            .filter_map(|u| Some((self.at[u.index()]?, self.designated[u.index()]?)))
            .collect();
        View::new(super::view::Parts {
            seat,
            turn: self.turn,
            phase: self.phase,
            side: self.side,
            to_act: self.to_act(),
            board,
            waiting,
            eliminated: self.eliminated,
            held: self.held,
            attacks,
            pending: self.pending_attacks(),
            combat: self.combat.clone(),
            status: self.status(),
        })
    }
}
