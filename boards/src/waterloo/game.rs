//! The whole truth of a game of Waterloo, its action generator and its rules.

use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use super::cards::Card;
use super::layout::TileKind;
use super::phase::{EndReason, Phase};
use super::setup::{army_of, held_back, Setup, SetupProblem};
use super::sides::{seat_name, Flank, ALLIED, FRENCH};
use super::units::{seat_of, Army, Class, Placed, Unit};
use super::view::{Seen, View};
use super::{Options, Version};
use crate::game::{Actor, Game, Problems, Status};
use crate::geometry::grid::{Cell, Dir};
use crate::{BySeat, Seat};

/// A face of the battle die: a colour, and a frenzy `+` or a withdrawal `R`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DieFace {
    /// Blue (French) wins.
    Blue,
    /// Red/Black (Allied, Prussian) wins.
    Red,
    /// Blue wins and attacks on in frenzy.
    BluePlus,
    /// Red/Black wins and attacks on in frenzy.
    RedPlus,
    /// Blue wins; the Red/Black piece withdraws off the board.
    BlueR,
    /// Red/Black wins; the Blue piece withdraws off the board.
    RedR,
}

impl DieFace {
    /// All six faces, one each (our ruling).
    pub const ALL: [DieFace; 6] = [
        DieFace::Blue,
        DieFace::Red,
        DieFace::BluePlus,
        DieFace::RedPlus,
        DieFace::BlueR,
        DieFace::RedR,
    ];

    /// The seat whose colour came up.
    pub const fn winner(self) -> Seat {
        match self {
            DieFace::Blue | DieFace::BluePlus | DieFace::BlueR => FRENCH,
            _ => ALLIED,
        }
    }

    /// A `+` face.
    pub const fn frenzy(self) -> bool {
        matches!(self, DieFace::BluePlus | DieFace::RedPlus)
    }

    /// An `R` face.
    pub const fn withdraws(self) -> bool {
        matches!(self, DieFace::BlueR | DieFace::RedR)
    }
}

impl fmt::Display for DieFace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DieFace::Blue => "Blue",
            DieFace::Red => "Red",
            DieFace::BluePlus => "Blue +",
            DieFace::RedPlus => "Red +",
            DieFace::BlueR => "Blue R",
            DieFace::RedR => "Red R",
        })
    }
}

/// Playing a card, with its choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CardPlay {
    /// Look at the enemy pieces in the 2x2 block whose lower-left square is `at`.
    Reconnaissance {
        /// The block's lower-left square.
        at: Cell,
    },
    /// The next moves of up to three different pieces are free.
    Initiative,
    /// The next attack of an infantry, of a cavalry and fire of an artillery are free.
    CombinedAttack,
    /// +1 strength to the piece on `on` for the rest of the turn.
    FightingSpirit {
        /// The piece.
        on: Cell,
    },
    /// The artillery on `at` and all artillery adjoining it (in a connected group) fire free.
    GrandBattery {
        /// One artillery of the battery.
        at: Cell,
    },
}

impl CardPlay {
    /// The card played.
    pub const fn card(self) -> Card {
        match self {
            CardPlay::Reconnaissance { .. } => Card::Reconnaissance,
            CardPlay::Initiative => Card::Initiative,
            CardPlay::CombinedAttack => Card::CombinedAttack,
            CardPlay::FightingSpirit { .. } => Card::FightingSpirit,
            CardPlay::GrandBattery { .. } => Card::GrandBattery,
        }
    }
}

/// A card being carried out.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
enum Effect {
    Initiative {
        left: u8,
        moved: Vec<Cell>,
    },
    Combined {
        infantry: bool,
        cavalry: bool,
        artillery: bool,
    },
    Battery {
        guns: Vec<Cell>,
    },
}

/// A chance outcome, supplied from outside (the umpire's entropy, or a test's seed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ChanceAction {
    /// The battle die (also rolled for "Where are the Prussians?").
    Die(DieFace),
    /// A line-of-retreat card for the seat drawing.
    Retreat(Flank),
    /// The next Prussian drawn, unseen, from the pool.
    Prussian(Unit),
}

/// Something a player, or chance, does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Move a piece to an empty square (one action).
    Move {
        /// Where it stands.
        from: Cell,
        /// Where it goes.
        to: Cell,
    },
    /// Attack the enemy piece on `to`, the last step made in direction `dir` (one action; ends
    /// the action). The attacker first moves to the square next to `to`.
    Attack {
        /// Where the attacker stands.
        from: Cell,
        /// The attacked piece.
        to: Cell,
        /// The direction of the final step, into `to`.
        dir: Dir,
    },
    /// Fire the artillery on `from` at the piece on `at`, or, with `tile`, at the building or
    /// village on `at` (one action).
    Fire {
        /// The artillery.
        from: Cell,
        /// The target square.
        at: Cell,
        /// Fire at the tile (building, village) rather than at the unit.
        tile: bool,
    },
    /// Bring a reserve, withdrawn or regenerated piece onto an empty home-row square (withdrawn
    /// Prussians: the Allied home row) (one action).
    Enter {
        /// Which piece.
        unit: Unit,
        /// Where.
        to: Cell,
    },
    /// Take weakened heavy cavalry off the board to regain its strength (no action).
    TakeOff {
        /// Where it stands.
        from: Cell,
    },
    /// End the turn, forfeiting any actions left (ruling: allowed).
    EndTurn,
    /// The Pursuit: the victor's `cavalry` (set aside) cuts down the defeated infantry or
    /// artillery on `target` (one action).
    Pursue {
        /// The pursuing cavalry (or commander).
        cavalry: Unit,
        /// The defeated piece on the board.
        target: Cell,
    },
    /// The Pursuit: `cavalry` attacks the enemy cavalry `target`, both set aside; on a draw the
    /// victor's cavalry wins (one action).
    Charge {
        /// The attacking cavalry.
        cavalry: Unit,
        /// The enemy cavalry.
        target: Unit,
    },
    /// The Pursuit: the defeated player takes one of their infantry or artillery off the board,
    /// saved (one action).
    Save {
        /// The piece.
        from: Cell,
    },
    /// A chance outcome.
    Chance(ChanceAction),
    /// Play a manoeuvre card: at the start of the turn (Fighting spirit at any point of it), one a
    /// turn, one action (Fighting spirit also in defence, free).
    PlayCard(CardPlay),
    /// The card draft: take this card from the stack (the first pick of a turn is kept, the
    /// second discarded), or from the discard pile when the Prussians arrive.
    Draft(Card),
    /// Decline to play Fighting spirit in defence.
    Decline,
    /// A frenzy in a building: attack the piece on `at` in it.
    Frenzy {
        /// The piece attacked.
        at: Cell,
    },
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Move { from, to } => write!(f, "{from}-{to}"),
            Action::Attack { from, to, .. } => write!(f, "{from}x{to}"),
            Action::Fire { from, at, tile } => {
                write!(
                    f,
                    "{from} fires at {at}{}",
                    if tile { " (tile)" } else { "" }
                )
            }
            Action::Enter { unit, to } => write!(f, "{unit} enters on {to}"),
            Action::TakeOff { from } => write!(f, "{from} off to regain strength"),
            Action::EndTurn => f.write_str("end of turn"),
            Action::Pursue { cavalry, target } => write!(f, "{cavalry} pursues {target}"),
            Action::Charge { cavalry, target } => write!(f, "{cavalry} charges {target}"),
            Action::Save { from } => write!(f, "{from} saved"),
            Action::PlayCard(p) => write!(f, "plays {}", p.card()),
            Action::Draft(c) => write!(f, "takes {c}"),
            Action::Decline => f.write_str("declines"),
            Action::Frenzy { at } => write!(f, "frenzy into {at}"),
            Action::Chance(ChanceAction::Die(d)) => write!(f, "die: {d}"),
            Action::Chance(ChanceAction::Retreat(fl)) => write!(f, "line of retreat: {fl}"),
            Action::Chance(ChanceAction::Prussian(u)) => write!(f, "Prussian drawn: {u}"),
        }
    }
}

/// How one battle was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BattleResult {
    /// The attacker won on strength (or a commander-in-chief attacked, or artillery was taken
    /// in the flank or rear).
    AttackerWon,
    /// The defender won on strength (or it was artillery attacked from the front).
    DefenderWon,
    /// Equal strength: the battle die decides (see the following events).
    Die,
}

/// A battle: both pieces are revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BattleReport {
    /// The attacker's square (next to the defender) and unit.
    pub attacker: (Cell, Unit),
    /// The defender's square and unit.
    pub defender: (Cell, Unit),
    /// Their strengths in this battle.
    pub strengths: (u8, u8),
    /// A frenzied attack ("+").
    pub frenzy: bool,
    /// How it was decided.
    pub result: BattleResult,
}

/// One thing that happened, in order. Secret events (a line of retreat, a Prussian drawn) are
/// for the seat the rules show them to; [`View`] is what the other seat may see.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Event {
    /// A piece moved.
    Moved {
        /// From.
        from: Cell,
        /// To.
        to: Cell,
    },
    /// A battle was fought; both pieces are revealed.
    Battle(BattleReport),
    /// The die was rolled.
    Rolled(DieFace),
    /// A piece was eliminated (and is shown).
    Eliminated {
        /// Where it stood.
        cell: Cell,
        /// What it was.
        unit: Unit,
    },
    /// A piece withdrew off the board ("R").
    Withdrawn {
        /// Where it stood.
        cell: Cell,
        /// What it was.
        unit: Unit,
    },
    /// Heavy cavalry lost 1 strength after a charge.
    Weakened {
        /// Where it stands.
        cell: Cell,
    },
    /// Artillery fired.
    Fired {
        /// The artillery.
        from: Cell,
        /// The target.
        at: Cell,
    },
    /// A building or village took a hit; `left` is what remains of its strength.
    TileHit {
        /// The tile's index in the layout.
        tile: usize,
        /// Strength left (0: destroyed and taken off).
        left: u8,
    },
    /// A piece came onto the board (the unit is for its owner only).
    Entered {
        /// Where.
        to: Cell,
        /// What (secret from the opponent).
        unit: Unit,
    },
    /// Heavy cavalry was taken off to regain strength.
    TakenOff {
        /// Where it stood.
        from: Cell,
    },
    /// A seat drew its line of retreat (secret from the opponent).
    RetreatDrawn {
        /// Whose.
        seat: Seat,
        /// Which.
        flank: Flank,
    },
    /// "Where are the Prussians?" decided.
    PrussiansDecided {
        /// Whether they come.
        coming: bool,
    },
    /// A Prussian came onto an entry square (the unit is for the Allied player only).
    PrussianArrived {
        /// Where.
        to: Cell,
        /// What.
        unit: Unit,
    },
    /// The 14 held-back French pieces join the reserve (11:00, "Start the battle early!").
    HeldBackJoin,
    /// A seat's turn began.
    TurnBegan {
        /// Whose.
        seat: Seat,
        /// The game turn (1 = 11:00).
        turn: i16,
        /// Actions in this turn.
        actions: u8,
    },
    /// An Expert retreat: the Pursuit begins with `victor` to act.
    PursuitBegan {
        /// The victor of the battle.
        victor: Seat,
    },
    /// A card was played.
    CardPlayed {
        /// By whom.
        seat: Seat,
        /// What.
        play: CardPlay,
    },
    /// Reconnaissance showed an enemy piece to the card player (secret from nobody else: the
    /// owner knows it).
    Reconnoitred {
        /// Where.
        cell: Cell,
        /// What.
        unit: Unit,
    },
    /// A card changed hands in the draft (`kept`: into the seat's hand; else discarded).
    Drafted {
        /// Who chose.
        seat: Seat,
        /// The card.
        card: Card,
        /// Kept, or discarded.
        kept: bool,
    },
    /// In the Pursuit, a piece was cut down, saved, or a cavalry charge decided.
    Pursuit(PursuitEvent),
    /// The game ended.
    Ended(Status<EndReason>),
}

/// What happened in one action of the Pursuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PursuitEvent {
    /// A defeated piece on the board was cut down.
    CutDown {
        /// Where it stood.
        cell: Cell,
        /// What it was.
        unit: Unit,
    },
    /// A defeated piece was taken off the board, saved.
    Saved {
        /// Where it stood.
        cell: Cell,
    },
    /// Cavalry against cavalry: the loser is eliminated.
    Charge {
        /// The attacking unit.
        attacker: Unit,
        /// The attacked unit.
        defender: Unit,
        /// Whether the attacker won.
        attacker_won: bool,
    },
}

/// What a played action did: the events in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Everything that happened.
    pub events: Vec<Event>,
}

/// Why an action was refused, with the fix in its message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Illegal {
    /// The game is over.
    GameOver,
    /// Chance must act now (roll the die, draw a card): no player action.
    AwaitingChance,
    /// A player must act now: not a chance outcome.
    NotChance,
    /// The chance outcome is not possible now.
    ImpossibleChance,
    /// A square is off the board.
    OffBoard(Cell),
    /// No piece there.
    Empty(Cell),
    /// The piece is not yours.
    NotYours(Cell),
    /// Prussians act only from their arrival, and the Allied split of actions: at least one
    /// Allied and one Prussian action.
    Split {
        /// True when the refused action was Prussian.
        prussian: bool,
    },
    /// The target square is not empty.
    Occupied(Cell),
    /// The piece cannot reach the square this action (too far, blocked, not straight).
    CannotReach {
        /// The piece.
        from: Cell,
        /// The target.
        to: Cell,
    },
    /// There is no enemy piece to attack there.
    NoEnemy(Cell),
    /// Artillery fires; it does not attack by moving.
    ArtilleryDoesNotCharge(Cell),
    /// Not an artillery piece.
    NotArtillery(Cell),
    /// The target is not in the artillery's line of fire.
    NotInLineOfFire {
        /// The artillery.
        from: Cell,
        /// The target.
        at: Cell,
    },
    /// Light infantry is immune to artillery fire.
    ImmuneToFire(Cell),
    /// No such piece is waiting off the board, or it may not come back yet.
    NotReady(Unit),
    /// Pieces come on at the home row (withdrawn Prussians: the Allied one).
    NotEntrySquare(Cell),
    /// Only weakened heavy cavalry may be taken off, after the opponent could counter-charge.
    CannotTakeOff(Cell),
    /// Cavalry, commanders and artillery may not enter or attack a building.
    Building(Cell),
    /// Artillery may not move onto mud.
    Mud(Cell),
    /// In the Pursuit only cavalry pursue, charge, and the defeated save their pieces.
    Pursuit,
    /// No actions are left this turn (a card's free actions aside): end the turn.
    NoActionsLeft,
    /// The card cannot be played now (not held, not at the start of the turn, one a turn, or
    /// a bad choice).
    Card(Card),
    /// Not a draft or defence decision now.
    NotNow,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Illegal::GameOver => f.write_str("the game is over"),
            Illegal::AwaitingChance => {
                f.write_str("the umpire must roll or draw first: wait for it")
            }
            Illegal::NotChance => f.write_str("it is a player's turn, not a roll or draw"),
            Illegal::ImpossibleChance => f.write_str("that roll or draw is not possible now"),
            Illegal::OffBoard(c) => write!(f, "{c} is off the board"),
            Illegal::Empty(c) => write!(f, "there is no piece on {c}"),
            Illegal::NotYours(c) => write!(f, "the piece on {c} is not yours: use your own"),
            Illegal::Split { prussian: true } => f.write_str(
                "Prussians cannot act yet, or must leave the Allies one action",
            ),
            Illegal::Split { prussian: false } => {
                f.write_str("leave one action this turn for the Prussians")
            }
            Illegal::Occupied(c) => write!(f, "{c} is not empty: one piece per square"),
            Illegal::CannotReach { from, to } => write!(
                f,
                "the piece on {from} cannot reach {to} in one action (check its move and the pieces in the way)"
            ),
            Illegal::NoEnemy(c) => write!(f, "there is no enemy piece on {c} to attack"),
            Illegal::ArtilleryDoesNotCharge(c) => {
                write!(f, "the artillery on {c} fires, it does not attack: use Fire")
            }
            Illegal::NotArtillery(c) => write!(f, "the piece on {c} is not artillery"),
            Illegal::NotInLineOfFire { from, at } => write!(
                f,
                "{at} is not in the line of fire of the artillery on {from} (straight ahead, range 3, nothing in between)"
            ),
            Illegal::ImmuneToFire(c) => {
                write!(f, "the piece on {c} is light infantry, immune to artillery fire")
            }
            Illegal::NotReady(u) => write!(
                f,
                "no {u} can come onto the board now (none off the board, or it left this turn)"
            ),
            Illegal::NotEntrySquare(c) => write!(
                f,
                "{c} is not a free square of your back row"
            ),
            Illegal::CannotTakeOff(c) => write!(
                f,
                "the piece on {c} cannot be taken off: only weakened heavy cavalry, after the opponent could counter-charge"
            ),
            Illegal::Building(c) => write!(
                f,
                "{c} is in a building: cavalry, commanders and artillery may not enter or attack it"
            ),
            Illegal::Mud(c) => write!(f, "{c} is mud: artillery cannot move onto it"),
            Illegal::NoActionsLeft => {
                f.write_str("no actions left this turn: end the turn")
            }
            Illegal::Card(c) => write!(
                f,
                "{c} cannot be played now: cards are played from your hand at the start of your turn (Fighting spirit later too), one a turn"
            ),
            Illegal::NotNow => f.write_str("that choice is not asked for now"),
            Illegal::Pursuit => f.write_str(
                "in the pursuit: the victor's cavalry pursues or charges, the defeated charge or save pieces; or end the turn",
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Illegal {}

/// A piece waiting off the board after a withdrawal or to regain strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
struct OffBoard {
    unit: Unit,
    /// The first half-turn it may come back.
    ready_at: u32,
}

/// A battle waiting for the die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
struct PendingBattle {
    att: Cell,
    def: Cell,
    dir: Dir,
    friendly: bool,
    frenzy: bool,
}

/// The Expert game's Pursuit.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct Pursuit {
    pub(crate) victor: Seat,
    /// Each seat's cavalry set aside, with its 'weakened' blocks (public).
    pub(crate) cavalry: BySeat<Vec<(Unit, u8)>>,
    /// Pieces set aside that take no part: commanders-in-chief, saved pieces.
    pub(crate) aside: BySeat<Vec<Unit>>,
    /// Whether the victor pursued or charged this turn.
    acted: bool,
}

/// A game of Stratego: Waterloo: the whole truth, every secret included. Show a seat only its
/// [`View`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waterloo {
    pub(crate) options: Options,
    pub(crate) board: Vec<Option<Placed>>,
    pub(crate) reserve: BySeat<Vec<Unit>>,
    held: Vec<Unit>,
    off: BySeat<Vec<OffBoard>>,
    pub(crate) dead: BySeat<Vec<Unit>>,
    /// Pieces counted as lost before the position began ([`Waterloo::from_position`]).
    lost_before: BySeat<u8>,
    pub(crate) pool: Vec<Unit>,
    pub(crate) prussians_coming: Option<bool>,
    pub(crate) retreat: BySeat<Option<Flank>>,
    /// Strength left of each tile (buildings and villages), by layout index.
    pub(crate) tile_strength: Vec<u8>,
    /// The owner of each building, by layout index.
    pub(crate) tile_owner: Vec<Option<Seat>>,
    pub(crate) half: u32,
    pub(crate) current: Seat,
    pub(crate) actions: u8,
    pub(crate) used: u8,
    prussian_used: u8,
    allied_used: u8,
    drawn_this_turn: u8,
    /// Whether this Allied turn holds the Prussian fourth action.
    prussian_bonus: bool,
    battle: Option<PendingBattle>,
    pub(crate) pursuit: Option<Pursuit>,
    /// The draft stack, each seat's hand, the discard pile (all public: the draft is open).
    pub(crate) stack: Vec<Card>,
    pub(crate) hands: BySeat<Vec<Card>>,
    pub(crate) discard: Vec<Card>,
    draft_keep: bool,
    prussian_cards: u8,
    card_played: bool,
    effect: Option<Effect>,
    /// A frenzy in a building awaiting its target: the winner's square, the tile, the line.
    frenzy_from: Option<(Cell, usize, Dir)>,
    pub(crate) phase: Phase,
    pub(crate) status: Status<EndReason>,
}

const NONE: u32 = u32::MAX;

impl Waterloo {
    /// The piece on `c`, if any.
    pub fn piece_at(&self, c: Cell) -> Option<Placed> {
        if !self.options.layout.contains(c) {
            return None;
        }
        self.board[self.options.layout.index(c)]
    }

    fn get(&self, c: Cell) -> Option<Placed> {
        if !self.options.layout.contains(c) {
            return None;
        }
        self.board[self.options.layout.index(c)]
    }

    fn set(&mut self, c: Cell, p: Option<Placed>) {
        let i = self.options.layout.index(c);
        self.board[i] = p;
    }

    /// Every piece on the board with its square.
    pub fn pieces(&self) -> impl Iterator<Item = (Cell, Placed)> + '_ {
        self.board
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|p| (self.options.layout.cell(i), p)))
    }

    /// What the game waits for.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The seat whose turn it is.
    pub fn current(&self) -> Seat {
        self.current
    }

    /// The game turn: 1 is 11:00; "Start the battle early!" plays turns -2, -1 and 0 (9:30,
    /// 10:00, 10:30) first.
    pub fn turn(&self) -> i16 {
        let t = (self.half / 2) as i16 + 1;
        if self.options.early_start {
            t - 3
        } else {
            t
        }
    }

    /// The clock time of the current game turn, in minutes after midnight (11:00 + 30 minutes a
    /// turn).
    pub fn clock_minutes(&self) -> i32 {
        11 * 60 + 30 * (i32::from(self.turn()) - 1)
    }

    /// Actions in the current turn and how many are left.
    pub fn actions(&self) -> (u8, u8) {
        (self.actions, self.actions.saturating_sub(self.used))
    }

    /// Game turns until the Prussians arrive (0 once they have, `None` if they will not come).
    pub fn turns_until_prussians(&self) -> Option<u16> {
        if self.prussians_coming == Some(false) {
            return None;
        }
        let t = i32::from(self.options.prussian_turn) - i32::from(self.turn());
        Some(t.max(0) as u16)
    }

    /// The seat that plays first in each game turn.
    pub fn first_seat(&self) -> Seat {
        if self.options.early_start {
            FRENCH
        } else {
            ALLIED
        }
    }

    /// The line of retreat `seat` drew (secret from the opponent).
    pub fn line_of_retreat(&self, seat: Seat) -> Option<Flank> {
        self.retreat[seat]
    }

    /// Pieces of `seat` in reserve (never yet on the board).
    pub fn reserve(&self, seat: Seat) -> &[Unit] {
        &self.reserve[seat]
    }

    /// Pieces of `seat` waiting off the board (withdrawn, regaining strength).
    pub fn off_board(&self, seat: Seat) -> impl Iterator<Item = Unit> + '_ {
        self.off[seat].iter().map(|o| o.unit)
    }

    /// Pieces of `seat`'s armies eliminated so far.
    pub fn dead(&self, seat: Seat) -> &[Unit] {
        &self.dead[seat]
    }

    /// Pieces of `seat`'s armies eliminated in this game (not those counted lost before a
    /// position given to [`Waterloo::from_position`]).
    pub fn casualties(&self, seat: Seat) -> &[Unit] {
        let d = &self.dead[seat];
        &d[usize::from(self.lost_before[seat]).min(d.len())..]
    }

    /// Expert: the victor of the Pursuit under way, if any.
    pub fn pursuit_victor(&self) -> Option<Seat> {
        self.pursuit.as_ref().map(|p| p.victor)
    }

    /// Expert: `seat`'s cavalry set aside for the Pursuit, with its 'weakened' blocks.
    pub fn pursuit_cavalry(&self, seat: Seat) -> &[(Unit, u8)] {
        self.pursuit.as_ref().map_or(&[], |p| &p.cavalry[seat])
    }

    /// Expert: `seat`'s pieces set aside in the Pursuit that take no part (commanders-in-chief,
    /// saved pieces).
    pub fn set_aside(&self, seat: Seat) -> &[Unit] {
        self.pursuit.as_ref().map_or(&[], |p| &p.aside[seat])
    }

    /// French pieces held back ("Start the battle early!") until 11:00.
    pub fn held_back(&self) -> &[Unit] {
        &self.held
    }

    /// Prussians not yet drawn.
    pub fn prussian_pool(&self) -> &[Unit] {
        &self.pool
    }

    fn layout(&self) -> &super::Layout {
        &self.options.layout
    }

    fn tile_kind(&self, c: Cell) -> Option<(usize, TileKind)> {
        let (i, t) = self.layout().tile_at(c)?;
        if !self.options.uses(t.kind) {
            return None;
        }
        match t.kind {
            TileKind::Building | TileKind::Village if self.tile_strength[i] == 0 => None,
            k => Some((i, k)),
        }
    }

    fn is_building(&self, c: Cell) -> bool {
        matches!(self.tile_kind(c), Some((_, TileKind::Building)))
    }

    fn is_mud(&self, c: Cell) -> bool {
        matches!(self.tile_kind(c), Some((_, TileKind::Mud)))
    }

    fn is_hill(&self, c: Cell) -> bool {
        matches!(self.tile_kind(c), Some((_, TileKind::Hill)))
    }

    /// Whether `unit` may stand on `c` (buildings: infantry only; mud: no artillery).
    fn may_enter(&self, unit: Unit, c: Cell) -> bool {
        match self.tile_kind(c) {
            Some((_, TileKind::Building)) => unit.class().is_infantry(),
            Some((_, TileKind::Mud)) => unit.class() != Class::Artillery,
            _ => true,
        }
    }

    /// Whether the building of tile `i` is fortified by `seat`: every square held by its pieces.
    fn fortified_by(&self, i: usize, seat: Seat) -> bool {
        self.layout().tiles[i]
            .cells
            .iter()
            .all(|&c| self.get(c).is_some_and(|p| p.seat() == seat))
    }

    /// The strength of the piece on `c` in a battle; `defending_from` is the attacker's square
    /// when this piece is attacked.
    fn strength(&self, c: Cell, p: Placed, defending_from: Option<Cell>) -> u8 {
        let base = p.unit.strength().saturating_sub(p.weakened).max(1);
        let mut s = base + u8::from(p.spirited);
        let class = p.unit.class();
        if let Some((i, kind)) = self.tile_kind(c) {
            match kind {
                TileKind::Building if class.is_infantry() && self.fortified_by(i, p.seat()) => {
                    s += 1
                }
                TileKind::Village if class.is_infantry() => s += 1,
                // "Infantry pieces and Cavalry pieces on a hill get a +1 strength when attacked
                // by pieces on the ground"; commanders "are considered to be light Cavalry
                // units". A commander-in-chief has no strength to raise: attacked, he loses.
                TileKind::Hill
                    if (class.is_infantry() || class.is_cavalry())
                        && class != Class::CommanderInChief
                        && defending_from.is_some_and(|a| !self.is_hill(a)) =>
                {
                    s += 1
                }
                _ => {}
            }
        }
        s.min(6)
    }

    fn terrain_on(&self) -> bool {
        self.options.version != Version::Basic
    }

    /// The move of one piece: every empty square it may reach and every attack it may make.
    fn piece_actions(&self, from: Cell, out: &mut Vec<Action>) {
        let Some(p) = self.get(from) else { return };
        let seat = p.seat();
        let layout = self.layout();
        let class = p.unit.class();
        let forward = if seat == ALLIED { Dir::Up } else { Dir::Down };
        let back = forward.opposite();
        let on_mud = self.is_mud(from) && class != Class::LightInfantry;
        match class {
            Class::Artillery => {
                for d in Dir::ALL {
                    if let Some(n) = layout.step(from, d) {
                        if self.get(n).is_none() && self.may_enter(p.unit, n) {
                            out.push(Action::Move { from, to: n });
                        }
                    }
                }
            }
            Class::LightInfantry | Class::LineInfantry => {
                let range = if on_mud {
                    1
                } else if class == Class::LightInfantry {
                    3
                } else {
                    2
                };
                // Breadth-first over empty squares; mud stops all but light infantry. Boards
                // have at most 16 x 16 squares, so fixed arrays suffice.
                let mut depth = [u8::MAX; 256];
                let mut queue = [from; 256];
                let mut len = 1;
                depth[layout.index(from)] = 0;
                let mut k = 0;
                let mut attacks: Vec<(Cell, Dir)> = Vec::new();
                while k < len {
                    let c = queue[k];
                    k += 1;
                    let dc = depth[layout.index(c)];
                    let stuck = c != from && class != Class::LightInfantry && self.is_mud(c);
                    if dc >= range || stuck {
                        continue;
                    }
                    for d in Dir::ALL {
                        if on_mud && d == back {
                            continue;
                        }
                        let Some(nc) = layout.step(c, d) else {
                            continue;
                        };
                        match self.get(nc) {
                            None => {
                                let ni = layout.index(nc);
                                if depth[ni] == u8::MAX && self.may_enter(p.unit, nc) && len < 256 {
                                    depth[ni] = dc + 1;
                                    queue[len] = nc;
                                    len += 1;
                                    out.push(Action::Move { from, to: nc });
                                }
                            }
                            Some(q) if q.seat() != seat => {
                                if !attacks.contains(&(nc, d)) {
                                    attacks.push((nc, d));
                                }
                            }
                            Some(_) => {}
                        }
                    }
                }
                for (to, dir) in attacks {
                    out.push(Action::Attack { from, to, dir });
                }
            }
            _ => {
                // Cavalry, commanders, commanders-in-chief: one direction over empty squares.
                for d in Dir::ALL {
                    if on_mud && d == back {
                        continue;
                    }
                    let mut at = from;
                    while let Some(n) = layout.step(at, d) {
                        match self.get(n) {
                            None => {
                                if !self.may_enter(p.unit, n) {
                                    break;
                                }
                                out.push(Action::Move { from, to: n });
                                if on_mud || self.is_mud(n) {
                                    break;
                                }
                                at = n;
                            }
                            Some(q) => {
                                if q.seat() != seat && !self.is_building(n) {
                                    out.push(Action::Attack {
                                        from,
                                        to: n,
                                        dir: d,
                                    });
                                }
                                break;
                            }
                        }
                    }
                }
            }
        }
    }

    /// The targets of the artillery on `from`: (square, fire at the tile).
    fn fire_targets(&self, from: Cell, out: &mut Vec<Action>) {
        let Some(p) = self.get(from) else { return };
        let seat = p.seat();
        let layout = self.layout();
        let facing = layout.facing(p.unit.army());
        let on_hill = self.is_hill(from);
        let (range, dirs): (u8, &[Dir]) = if on_hill {
            (
                4,
                match facing {
                    Dir::Up | Dir::Down => &[facing, Dir::Left, Dir::Right][..],
                    _ => &[facing, Dir::Up, Dir::Down][..],
                },
            )
        } else {
            (3, core::slice::from_ref(&facing))
        };
        // The rulebook's "facing" slice only borrows a local; copy it out.
        let dirs: Vec<Dir> = dirs.to_vec();
        for d in dirs {
            let mut at = from;
            for _ in 0..range {
                let Some(n) = layout.step(at, d) else { break };
                at = n;
                let tile = self.tile_kind(n);
                let piece = self.get(n);
                match tile {
                    Some((_, TileKind::Building)) => {
                        // Fire always hits the building first.
                        out.push(Action::Fire {
                            from,
                            at: n,
                            tile: true,
                        });
                        if !on_hill {
                            break;
                        }
                        continue;
                    }
                    Some((_, TileKind::Village)) => {
                        out.push(Action::Fire {
                            from,
                            at: n,
                            tile: true,
                        });
                    }
                    _ => {}
                }
                if let Some(q) = piece {
                    if q.seat() != seat && self.fire_can_harm(from, n, q) {
                        out.push(Action::Fire {
                            from,
                            at: n,
                            tile: false,
                        });
                    }
                    if !on_hill {
                        break;
                    }
                }
            }
        }
    }

    fn fire_can_harm(&self, from: Cell, at: Cell, q: Placed) -> bool {
        q.unit.class() != Class::LightInfantry
            && !(q.unit.class() == Class::Artillery && self.is_hill(at) && !self.is_hill(from))
    }

    /// Off-board pieces of the seat to act that may come on now, and where.
    fn entries(&self, out: &mut Vec<Action>) {
        let seat = self.current;
        let mut units: Vec<Unit> = Vec::new();
        for &u in &self.reserve[seat] {
            if !units.contains(&u) {
                units.push(u);
            }
        }
        for o in &self.off[seat] {
            if o.ready_at <= self.half && !units.contains(&o.unit) {
                units.push(o.unit);
            }
        }
        for u in units {
            if !self.split_allows(u.army() == Army::Prussian) {
                continue;
            }
            for c in self.entry_squares(u) {
                out.push(Action::Enter { unit: u, to: c });
            }
        }
    }

    fn entry_squares(&self, u: Unit) -> Vec<Cell> {
        // Withdrawn Prussians too: "The Red/Black piece ... can be put back on the back row of
        // the game board" (the Allied player's; only arrivals use the Prussian flag).
        let layout = self.layout();
        let row = layout.home_row(seat_of(u.army()));
        (0..layout.columns)
            .map(|col| Cell::new(col, row))
            .filter(|&c| self.get(c).is_none() && self.may_enter(u, c))
            .collect()
    }

    /// Whether the Prussians are in the battle (the fourth Allied action).
    fn prussians_active(&self) -> bool {
        self.current == ALLIED
            && self.turn() >= self.options.prussian_turn as i16
            && self.prussians_coming != Some(false)
            && (self.pieces().any(|(_, p)| p.unit.army() == Army::Prussian)
                || self.off[ALLIED]
                    .iter()
                    .any(|o| o.unit.army() == Army::Prussian))
    }

    /// The split of the Allied actions: "at least one action must be carried out by the
    /// Prussians and one by the Allied forces" (ruling: neither side may take the last one the
    /// other would need; Prussians act only once arrived).
    fn split_allows(&self, prussian: bool) -> bool {
        if self.current != ALLIED {
            return !prussian;
        }
        if prussian && self.turn() < self.options.prussian_turn as i16 {
            return false;
        }
        if !self.prussians_active_cached() || self.actions < 2 {
            return true;
        }
        let cap = self.actions - 1;
        if prussian {
            self.prussian_used < cap
        } else {
            self.allied_used < cap
        }
    }

    fn prussians_active_cached(&self) -> bool {
        // Actions are counted at the start of the turn; the split follows that count.
        self.prussian_bonus
    }

    /// Every legal action of the seat to act (chance outcomes when chance acts).
    pub fn legal(&self) -> Vec<Action> {
        let mut out = Vec::new();
        match self.phase {
            Phase::Over => {}
            Phase::Act if self.pursuit.is_some() => self.pursuit_legal(&mut out),
            Phase::Act => {
                self.normal_legal(&mut out);
                self.card_plays(&mut out);
                if self.used >= self.actions {
                    out.retain(|a| self.free_under_effect(a) || self.reinstates_commander(a));
                }
                out.push(Action::EndTurn);
            }
            Phase::Draft(_) => {
                let mut cards = self.stack.clone();
                cards.dedup();
                out.extend(cards.into_iter().map(Action::Draft));
            }
            Phase::PrussianCards => {
                let mut cards = self.discard.clone();
                cards.sort();
                cards.dedup();
                out.extend(cards.into_iter().map(Action::Draft));
            }
            Phase::FrenzyChoice(_) => {
                out.extend(
                    self.frenzy_choices()
                        .into_iter()
                        .map(|at| Action::Frenzy { at }),
                );
            }
            Phase::Defence(_) => {
                if let Some(b) = self.battle {
                    out.push(Action::PlayCard(CardPlay::FightingSpirit { on: b.def }));
                }
                out.push(Action::Decline);
            }
            _ => {
                out = self.chance_list().into_iter().map(|(a, _)| a).collect();
            }
        }
        out
    }

    /// Moves, attacks, fire, entries and take-offs of the seat to act (no cards, no end of
    /// turn).
    fn normal_legal(&self, out: &mut Vec<Action>) {
        let seat = self.current;
        let mut mine = Vec::new();
        for (c, p) in self.pieces() {
            if p.seat() != seat || !self.split_allows(p.unit.army() == Army::Prussian) {
                continue;
            }
            mine.push((c, p));
        }
        for &(c, p) in &mine {
            self.piece_actions(c, out);
            if p.unit.class() == Class::Artillery {
                self.fire_targets(c, out);
            }
        }
        self.entries(out);
        for &(c, _) in &mine {
            if self.can_take_off(c) {
                out.push(Action::TakeOff { from: c });
            }
        }
    }

    fn can_take_off(&self, c: Cell) -> bool {
        let Some(p) = self.get(c) else { return false };
        p.seat() == self.current
            && p.unit.class() == Class::HeavyCavalry
            && p.weakened > 0
            && p.charged_at != NONE
            && self.half > p.charged_at.saturating_add(1)
    }

    fn chance_list(&self) -> Vec<(Action, u32)> {
        match self.phase {
            Phase::DrawRetreat(_) => Flank::ALL
                .into_iter()
                .zip(self.options.retreat_cards)
                .filter(|(_, w)| *w > 0)
                .map(|(f, w)| (Action::Chance(ChanceAction::Retreat(f)), w))
                .collect(),
            Phase::PrussianDie | Phase::BattleDie => DieFace::ALL
                .into_iter()
                .zip(self.options.die_weights)
                .filter(|(_, w)| *w > 0)
                .map(|(d, w)| (Action::Chance(ChanceAction::Die(d)), w))
                .collect(),
            Phase::PrussianDraw => {
                let mut out: Vec<(Action, u32)> = Vec::new();
                for &u in &self.pool {
                    let a = Action::Chance(ChanceAction::Prussian(u));
                    match out.iter_mut().find(|(x, _)| *x == a) {
                        Some((_, w)) => *w += 1,
                        None => out.push((a, 1)),
                    }
                }
                out
            }
            _ => Vec::new(),
        }
    }

    fn check_action(&self, action: &Action) -> Result<(), Illegal> {
        if self.phase == Phase::Over {
            return Err(Illegal::GameOver);
        }
        if let Action::Chance(c) = action {
            if self.phase == Phase::Act {
                return Err(Illegal::NotChance);
            }
            let a = Action::Chance(*c);
            return if self.chance_list().iter().any(|(x, _)| *x == a) {
                Ok(())
            } else {
                Err(Illegal::ImpossibleChance)
            };
        }
        match self.phase {
            Phase::Draft(_) | Phase::PrussianCards | Phase::Defence(_) | Phase::FrenzyChoice(_) => {
                return if self.legal().contains(action) {
                    Ok(())
                } else {
                    Err(Illegal::NotNow)
                };
            }
            Phase::Act => {}
            _ => return Err(Illegal::AwaitingChance),
        }
        if matches!(
            action,
            Action::Draft(_) | Action::Decline | Action::Frenzy { .. }
        ) {
            return Err(Illegal::NotNow);
        }
        if let Action::PlayCard(play) = action {
            let mut v = Vec::new();
            self.card_plays(&mut v);
            return if v.contains(action) {
                Ok(())
            } else {
                Err(Illegal::Card(play.card()))
            };
        }
        if self.pursuit.is_none()
            && self.used >= self.actions
            && *action != Action::EndTurn
            && !self.free_under_effect(action)
            && !self.reinstates_commander(action)
        {
            return Err(Illegal::NoActionsLeft);
        }
        let pursuit_action = matches!(
            action,
            Action::Pursue { .. } | Action::Charge { .. } | Action::Save { .. }
        );
        if self.pursuit.is_some() {
            if *action == Action::EndTurn {
                return Ok(());
            }
            let mut v = Vec::new();
            self.pursuit_legal(&mut v);
            return if v.contains(action) {
                Ok(())
            } else {
                Err(Illegal::Pursuit)
            };
        }
        if pursuit_action {
            return Err(Illegal::Pursuit);
        }
        let layout = self.layout();
        let own = |c: Cell| -> Result<Placed, Illegal> {
            if !layout.contains(c) {
                return Err(Illegal::OffBoard(c));
            }
            let p = self.get(c).ok_or(Illegal::Empty(c))?;
            if p.seat() != self.current {
                return Err(Illegal::NotYours(c));
            }
            let prussian = p.unit.army() == Army::Prussian;
            if !self.split_allows(prussian) {
                return Err(Illegal::Split { prussian });
            }
            Ok(p)
        };
        let listed = |from: Cell, to: Cell| {
            let mut v = Vec::new();
            self.piece_actions(from, &mut v);
            if v.contains(action) {
                Ok(())
            } else {
                Err(Illegal::CannotReach { from, to })
            }
        };
        match *action {
            Action::EndTurn => Ok(()),
            Action::Move { from, to } => {
                own(from)?;
                if !layout.contains(to) {
                    return Err(Illegal::OffBoard(to));
                }
                if self.get(to).is_some() {
                    return Err(Illegal::Occupied(to));
                }
                let p = self.get(from).ok_or(Illegal::Empty(from))?;
                if self.terrain_on() && self.is_building(to) && !p.unit.class().is_infantry() {
                    return Err(Illegal::Building(to));
                }
                if p.unit.class() == Class::Artillery && self.is_mud(to) {
                    return Err(Illegal::Mud(to));
                }
                listed(from, to)
            }
            Action::Attack { from, to, .. } => {
                let p = own(from)?;
                if !layout.contains(to) {
                    return Err(Illegal::OffBoard(to));
                }
                if p.unit.class() == Class::Artillery {
                    return Err(Illegal::ArtilleryDoesNotCharge(from));
                }
                match self.get(to) {
                    Some(q) if q.seat() != self.current => {}
                    _ => return Err(Illegal::NoEnemy(to)),
                }
                if p.unit.class().is_cavalry() && self.is_building(to) {
                    return Err(Illegal::Building(to));
                }
                listed(from, to)
            }
            Action::Fire { from, at, .. } => {
                let p = own(from)?;
                if p.unit.class() != Class::Artillery {
                    return Err(Illegal::NotArtillery(from));
                }
                if !layout.contains(at) {
                    return Err(Illegal::OffBoard(at));
                }
                if let Some(q) = self.get(at) {
                    if q.unit.class() == Class::LightInfantry
                        && q.seat() != self.current
                        && self.tile_kind(at).is_none()
                    {
                        return Err(Illegal::ImmuneToFire(at));
                    }
                }
                let mut v = Vec::new();
                self.fire_targets(from, &mut v);
                if v.contains(action) {
                    Ok(())
                } else {
                    Err(Illegal::NotInLineOfFire { from, at })
                }
            }
            Action::Enter { unit, to } => {
                if !layout.contains(to) {
                    return Err(Illegal::OffBoard(to));
                }
                let prussian = unit.army() == Army::Prussian;
                if seat_of(unit.army()) != self.current {
                    return Err(Illegal::NotReady(unit));
                }
                let ready = self.reserve[self.current].contains(&unit)
                    || self.off[self.current]
                        .iter()
                        .any(|o| o.unit == unit && o.ready_at <= self.half);
                if !ready {
                    return Err(Illegal::NotReady(unit));
                }
                if !self.split_allows(prussian) {
                    return Err(Illegal::Split { prussian });
                }
                if self.entry_squares(unit).contains(&to) {
                    Ok(())
                } else {
                    Err(Illegal::NotEntrySquare(to))
                }
            }
            Action::TakeOff { from } => {
                own(from)?;
                if self.can_take_off(from) {
                    Ok(())
                } else {
                    Err(Illegal::CannotTakeOff(from))
                }
            }
            Action::Chance(_) => Err(Illegal::NotChance),
            Action::Pursue { .. } | Action::Charge { .. } | Action::Save { .. } => {
                Err(Illegal::Pursuit)
            }
            Action::PlayCard(p) => Err(Illegal::Card(p.card())),
            Action::Draft(_) | Action::Decline | Action::Frenzy { .. } => Err(Illegal::NotNow),
        }
    }
}

/// Outcome accumulation while an action is applied.
type Events = Vec<Event>;

impl Waterloo {
    fn new_game(options: Options, setup: &Setup) -> Waterloo {
        let layout = &options.layout;
        let mut board = alloc::vec![None; layout.cells()];
        let mut reserve: BySeat<Vec<Unit>> = BySeat::default();
        let mut held = Vec::new();
        for seat in [ALLIED, FRENCH] {
            for &(c, u) in &setup.placements[seat] {
                board[layout.index(c)] = Some(Placed::new(u));
            }
            for unit in Unit::of(army_of(seat)) {
                let placed = setup.placements[seat]
                    .iter()
                    .filter(|(_, u)| *u == unit)
                    .count();
                let hb = usize::from(held_back(&options, unit));
                for _ in 0..usize::from(unit.count()) - hb - placed {
                    reserve[seat].push(unit);
                }
                for _ in 0..hb {
                    held.push(unit);
                }
            }
        }
        let pool: Vec<Unit> = Unit::army_list(Army::Prussian).collect();
        let tiles = layout.tiles.len();
        let mut tile_strength = alloc::vec![0u8; tiles];
        for (i, t) in layout.tiles.iter().enumerate() {
            tile_strength[i] = match t.kind {
                TileKind::Building | TileKind::Village => 4,
                _ => 1,
            };
        }
        let first = if options.early_start { FRENCH } else { ALLIED };
        let mut g = Waterloo {
            prussians_coming: if options.prussians_uncertain {
                None
            } else {
                Some(true)
            },
            options,
            board,
            reserve,
            held,
            off: BySeat::default(),
            dead: BySeat::default(),
            lost_before: BySeat::default(),
            pool,
            retreat: BySeat::default(),
            tile_strength,
            tile_owner: alloc::vec![None; tiles],
            half: 0,
            current: first,
            actions: 0,
            used: 0,
            prussian_used: 0,
            allied_used: 0,
            drawn_this_turn: 0,
            prussian_bonus: false,
            battle: None,
            pursuit: None,
            stack: Vec::new(),
            hands: BySeat::default(),
            discard: Vec::new(),
            draft_keep: true,
            prussian_cards: 0,
            card_played: false,
            effect: None,
            frenzy_from: None,
            phase: Phase::Act,
            status: Status::Ongoing,
        };
        g.update_owners();
        if g.options.version != Version::Basic {
            // Our ruling: 15 manoeuvre cards, 3 of each kind.
            for (card, n) in Card::ALL.into_iter().zip(g.options.cards_per_kind) {
                for _ in 0..n {
                    g.stack.push(card);
                }
            }
        }
        let mut ev = Vec::new();
        if g.options.version == Version::Expert {
            g.next_draft(&mut ev);
        } else {
            g.phase = Phase::DrawRetreat(ALLIED);
        }
        g
    }

    /// Ownership flags: a side that holds every square of a building owns it.
    fn update_owners(&mut self) {
        for i in 0..self.layout().tiles.len() {
            let kind = self.layout().tiles[i].kind;
            if kind != TileKind::Building || !self.options.uses(kind) || self.tile_strength[i] == 0
            {
                continue;
            }
            for seat in [ALLIED, FRENCH] {
                if self.fortified_by(i, seat) {
                    self.tile_owner[i] = Some(seat);
                }
            }
        }
    }

    fn is_first_half(&self) -> bool {
        self.half % 2 == 0
    }

    /// Starts the turn of `self.current` at half-turn `self.half`: the 11:00 reinforcements,
    /// the Prussian die and draws, then the action count.
    fn begin_turn(&mut self, ev: &mut Events) {
        self.card_played = false;
        self.effect = None;
        for p in self.board.iter_mut().flatten() {
            p.spirited = false;
        }
        self.used = 0;
        self.prussian_used = 0;
        self.allied_used = 0;
        self.drawn_this_turn = 0;
        self.prussian_bonus = false;
        if let Some(last) = self.options.last_turn {
            if self.turn() > last as i16 && self.pursuit.is_some() {
                self.finish_pursuit(ev);
                return;
            }
            if self.turn() > last as i16 {
                self.finish(Status::Drawn {
                    reason: EndReason::Nightfall,
                });
                ev.push(Event::Ended(self.status));
                return;
            }
        }
        if self.options.early_start && self.turn() == 1 && self.is_first_half() {
            let held = core::mem::take(&mut self.held);
            if !held.is_empty() {
                self.reserve[FRENCH].extend(held);
                ev.push(Event::HeldBackJoin);
            }
        }
        self.continue_turn_start(ev);
    }

    fn prussian_die_due(&self) -> bool {
        self.current == ALLIED
            && self.options.prussians_uncertain
            && self.prussians_coming.is_none()
            && self.turn() >= 9
    }

    fn prussian_draw_due(&self) -> bool {
        self.current == ALLIED
            && self.prussians_coming == Some(true)
            && self.turn() >= self.options.prussian_turn as i16
            && self.drawn_this_turn < self.options.prussians_per_turn
            && !self.pool.is_empty()
            && self
                .layout()
                .prussian_entry
                .iter()
                .any(|&c| self.get(c).is_none())
    }

    fn continue_turn_start(&mut self, ev: &mut Events) {
        if let Some(p) = &mut self.pursuit {
            p.acted = false;
            let victor = p.victor;
            let seat = self.current;
            self.actions = self.pursuit_actions(seat);
            ev.push(Event::TurnBegan {
                seat,
                turn: self.turn(),
                actions: self.actions,
            });
            self.phase = Phase::Act;
            if !self.pursuit_open() || (self.actions == 0 && seat == victor) {
                self.finish_pursuit(ev);
            } else if self.actions == 0 {
                self.end_turn(ev);
            }
            return;
        }
        if self.prussian_die_due() {
            self.phase = Phase::PrussianDie;
            return;
        }
        if self.prussian_draw_due() {
            self.phase = Phase::PrussianDraw;
            return;
        }
        // "When the Prussians arrive on the 13th game turn the Allied player may also choose 2
        // cards from the discard deck."
        if self.options.version != Version::Basic
            && self.current == ALLIED
            && self.prussians_coming == Some(true)
            && self.turn() == self.options.prussian_turn as i16
            && self.prussian_cards < 2
            && !self.discard.is_empty()
        {
            self.phase = Phase::PrussianCards;
            return;
        }
        let seat = self.current;
        let on_board = |u: Unit| self.pieces().any(|(_, p)| p.unit == u);
        let (commander, cinc) = if seat == ALLIED {
            (Unit::Uxbridge, Unit::Wellington)
        } else {
            (Unit::Ney, Unit::Napoleon)
        };
        let (commander_on, cinc_on) = (on_board(commander), on_board(cinc));
        let mut actions: i16 = 3;
        if !commander_on {
            actions -= 1;
        }
        if !cinc_on {
            actions -= 2;
        }
        self.prussian_bonus = self.prussians_active();
        if self.prussian_bonus {
            actions += 1;
        }
        self.actions = actions.max(0) as u8;
        ev.push(Event::TurnBegan {
            seat,
            turn: self.turn(),
            actions: self.actions,
        });
        // A withdrawn commander is not lost ("not eliminated but withdraws"): he may be
        // reinstated, which is the action he is worth ("he/she will not lose that action").
        let withdrawn = self.off[seat].iter().any(|o| o.unit == commander);
        // The Prussian action does not count: the player has lost both all the same.
        let lost_both = !commander_on && !withdrawn && !cinc_on;
        if lost_both {
            // "the game is also lost if a player loses his commander and commander in chief,
            // because he will not be able to perform any actions anymore."
            self.finish(Status::Won {
                winner: seat.opponent(),
                reason: EndReason::NoCommanders,
            });
            ev.push(Event::Ended(self.status));
            return;
        }
        self.phase = Phase::Act;
    }

    fn finish(&mut self, status: Status<EndReason>) {
        self.status = status;
        self.phase = Phase::Over;
        self.battle = None;
    }

    fn end_turn(&mut self, ev: &mut Events) {
        if let Some(p) = &self.pursuit {
            // "Once the victorious player no longer has or wishes to use any more cavalry
            // pieces to continue the pursuit, the casualties on both sides are counted".
            if self.current == p.victor && !p.acted {
                self.finish_pursuit(ev);
                return;
            }
        }
        self.half += 1;
        self.current = self.current.opponent();
        self.begin_turn(ev);
    }

    /// After a complete action: victory checks, then the next action or turn.
    fn after_action(&mut self, ev: &mut Events) {
        self.update_owners();
        if let Some(status) = self.victory() {
            self.finish(status);
            ev.push(Event::Ended(status));
            return;
        }
        if let Some(loser) = self.retreat_forced() {
            self.begin_pursuit(loser, ev);
            return;
        }
        self.phase = Phase::Act;
        if self.used >= self.actions && !self.effect_open() && !self.reinstatement_open() {
            self.end_turn(ev);
        }
    }

    /// Whether the seat to act may still reinstate its withdrawn commander this turn (the
    /// turn waits for it, or for `EndTurn`, once its count of actions is used).
    pub fn reinstatement_open(&self) -> bool {
        let commander = self.own_commander();
        self.commander_ready(commander)
            && self.split_allows(commander.army() == Army::Prussian)
            && !self.entry_squares(commander).is_empty()
    }

    /// The commander of the seat to act: Uxbridge for the Allies, Ney for the French.
    fn own_commander(&self) -> Unit {
        if self.current == ALLIED {
            Unit::Uxbridge
        } else {
            Unit::Ney
        }
    }

    /// Whether `commander` is withdrawn and may come back now.
    fn commander_ready(&self, commander: Unit) -> bool {
        self.off[self.current]
            .iter()
            .any(|o| o.unit == commander && o.ready_at <= self.half)
    }

    /// Whether a card being carried out still offers a free action.
    fn effect_open(&self) -> bool {
        match &self.effect {
            None => false,
            Some(_) => {
                let mut v = Vec::new();
                self.normal_legal(&mut v);
                v.iter().any(|a| self.free_under_effect(a))
            }
        }
    }

    /// The draft: "The Allied player is allowed to choose a card which he wants to keep, and
    /// one for the discarded pile ... this goes on until both players have 4 cards".
    fn next_draft(&mut self, ev: &mut Events) {
        let (a, f) = (self.hands[ALLIED].len(), self.hands[FRENCH].len());
        if self.stack.is_empty() || (a >= 4 && f >= 4) {
            self.draft_keep = true;
            self.begin_turn(ev);
            return;
        }
        if self.draft_keep {
            let seat = if a <= f { ALLIED } else { FRENCH };
            self.phase = Phase::Draft(seat);
        }
    }

    /// Reinstating the seat's withdrawn commander: "If the player reinstates the Commander
    /// during his/her next turn, he/she will not lose that action. Returning the Commander does
    /// however cost an action." It is paid with the action he is worth, so it is open even when
    /// the turn's count (which left him out) is used up.
    fn reinstates_commander(&self, action: &Action) -> bool {
        let commander = self.own_commander();
        matches!(*action, Action::Enter { unit, .. } if unit == commander)
            && self.commander_ready(commander)
    }

    fn free_under_effect(&self, action: &Action) -> bool {
        match (&self.effect, *action) {
            (Some(Effect::Initiative { left, moved }), Action::Move { from, .. }) => {
                *left > 0 && !moved.contains(&from)
            }
            (
                Some(Effect::Combined {
                    infantry, cavalry, ..
                }),
                Action::Attack { from, .. },
            ) => self.get(from).is_some_and(|p| {
                (p.unit.class().is_infantry() && *infantry)
                    || (p.unit.class().is_cavalry() && *cavalry)
            }),
            (Some(Effect::Combined { artillery, .. }), Action::Fire { .. }) => *artillery,
            (Some(Effect::Battery { guns }), Action::Fire { from, .. }) => guns.contains(&from),
            _ => false,
        }
    }

    /// Uses up the card's free action `action`.
    fn consume_effect(&mut self, action: &Action) {
        let class = match *action {
            Action::Attack { from, .. } => self.get(from).map(|p| p.unit.class()),
            _ => None,
        };
        let done = match (&mut self.effect, *action) {
            (Some(Effect::Initiative { left, moved }), Action::Move { to, .. }) => {
                *left -= 1;
                moved.push(to);
                *left == 0
            }
            (
                Some(Effect::Combined {
                    infantry,
                    cavalry,
                    artillery,
                }),
                _,
            ) => {
                match class {
                    Some(c) if c.is_infantry() && *infantry => *infantry = false,
                    Some(c) if c.is_cavalry() && *cavalry => *cavalry = false,
                    _ => *artillery = false,
                }
                !*infantry && !*cavalry && !*artillery
            }
            (Some(Effect::Battery { guns }), Action::Fire { from, .. }) => {
                guns.retain(|g| *g != from);
                guns.is_empty()
            }
            _ => true,
        };
        if done {
            self.effect = None;
        }
    }

    /// The card plays open to the seat to act.
    fn card_plays(&self, out: &mut Vec<Action>) {
        if self.card_played
            || self.pursuit.is_some()
            || self.effect.is_some()
            || self.used >= self.actions
            || !self.split_allows(false)
        {
            return;
        }
        // "The cards, with the exception of 'Fighting spirit', must be played out at the start
        // of a player's turn": Fighting spirit may also come later in the turn.
        let at_start = self.used == 0;
        let seat = self.current;
        let layout = self.layout();
        let mut kinds: Vec<Card> = self.hands[seat].clone();
        kinds.sort();
        kinds.dedup();
        for card in kinds {
            if !at_start && card != Card::FightingSpirit {
                continue;
            }
            match card {
                Card::Reconnaissance => {
                    for row in 0..layout.rows - 1 {
                        for col in 0..layout.columns - 1 {
                            let at = Cell::new(col, row);
                            if self
                                .block(at)
                                .iter()
                                .any(|&c| self.get(c).is_some_and(|p| p.seat() != seat))
                            {
                                out.push(Action::PlayCard(CardPlay::Reconnaissance { at }));
                            }
                        }
                    }
                }
                Card::Initiative => out.push(Action::PlayCard(CardPlay::Initiative)),
                Card::CombinedAttack => out.push(Action::PlayCard(CardPlay::CombinedAttack)),
                Card::FightingSpirit => {
                    for (on, p) in self.pieces() {
                        if p.seat() == seat && Self::spirit_fits(p) {
                            out.push(Action::PlayCard(CardPlay::FightingSpirit { on }));
                        }
                    }
                }
                Card::GrandBattery => {
                    for (at, p) in self.pieces() {
                        if p.seat() == seat && p.unit.class() == Class::Artillery {
                            out.push(Action::PlayCard(CardPlay::GrandBattery { at }));
                        }
                    }
                }
            }
        }
    }

    fn block(&self, at: Cell) -> [Cell; 4] {
        [
            at,
            Cell::new(at.col + 1, at.row),
            Cell::new(at.col, at.row + 1),
            Cell::new(at.col + 1, at.row + 1),
        ]
    }

    /// The connected group of `seat`'s artillery containing `at`.
    fn battery(&self, at: Cell, seat: Seat) -> Vec<Cell> {
        let mut guns = alloc::vec![at];
        let mut k = 0;
        while k < guns.len() {
            let c = guns[k];
            k += 1;
            for d in Dir::ALL {
                if let Some(n) = self.layout().step(c, d) {
                    if !guns.contains(&n)
                        && self
                            .get(n)
                            .is_some_and(|p| p.seat() == seat && p.unit.class() == Class::Artillery)
                    {
                        guns.push(n);
                    }
                }
            }
        }
        guns
    }

    fn play_card(&mut self, play: CardPlay, ev: &mut Events) {
        let seat = self.current;
        if let Some(k) = self.hands[seat].iter().position(|&c| c == play.card()) {
            self.hands[seat].remove(k);
        }
        ev.push(Event::CardPlayed { seat, play });
        match play {
            CardPlay::Reconnaissance { at } => {
                for c in self.block(at) {
                    if let Some(mut p) = self.piece_at(c).filter(|p| p.seat() != seat) {
                        p.revealed = true;
                        self.set(c, Some(p));
                        ev.push(Event::Reconnoitred {
                            cell: c,
                            unit: p.unit,
                        });
                    }
                }
            }
            CardPlay::Initiative => {
                self.effect = Some(Effect::Initiative {
                    left: 3,
                    moved: Vec::new(),
                })
            }
            CardPlay::CombinedAttack => {
                self.effect = Some(Effect::Combined {
                    infantry: true,
                    cavalry: true,
                    artillery: true,
                })
            }
            CardPlay::FightingSpirit { on } => {
                if let Some(mut p) = self.get(on) {
                    p.spirited = true;
                    self.set(on, Some(p));
                }
            }
            CardPlay::GrandBattery { at } => {
                self.effect = Some(Effect::Battery {
                    guns: self.battery(at, seat),
                })
            }
        }
    }

    /// Expert: "If the French player manages to put two units on the Allied left flank or Allied
    /// right flank, this will lead to an Allied retreat" / "The occupation of the French left
    /// flank, centre or right flank will lead to a French retreat." Returns the seat retreating.
    fn retreat_forced(&self) -> Option<Seat> {
        if self.options.version != Version::Expert || self.pursuit.is_some() {
            return None;
        }
        for seat in [self.current, self.current.opponent()] {
            let enemy = seat.opponent();
            for f in Flank::ALL {
                if enemy == ALLIED && f == Flank::Centre {
                    continue;
                }
                let cells = &self.layout().retreat[enemy][f as usize];
                if self.count_on(cells, seat) >= 2 {
                    return Some(enemy);
                }
            }
        }
        None
    }

    fn begin_pursuit(&mut self, loser: Seat, ev: &mut Events) {
        let victor = loser.opponent();
        let mut p = Pursuit {
            victor,
            cavalry: BySeat::default(),
            aside: BySeat::default(),
            acted: false,
        };
        // "Both players take their remaining cavalry units off the board and set them aside"
        // ("including the cavalry reserves"); "Napoleon and Wellington are taken off the board
        // and set aside".
        for i in 0..self.board.len() {
            if let Some(piece) = self.board[i] {
                match piece.unit.class() {
                    Class::CommanderInChief => p.aside[piece.seat()].push(piece.unit),
                    c if c.is_cavalry() => {
                        p.cavalry[piece.seat()].push((piece.unit, piece.weakened))
                    }
                    _ => continue,
                }
                self.board[i] = None;
            }
        }
        for seat in [ALLIED, FRENCH] {
            let reserve = core::mem::take(&mut self.reserve[seat]);
            for u in reserve {
                if u.class().is_cavalry() {
                    p.cavalry[seat].push((u, 0));
                } else {
                    self.reserve[seat].push(u);
                }
            }
            let off = core::mem::take(&mut self.off[seat]);
            for o in off {
                if o.unit.class().is_cavalry() {
                    p.cavalry[seat].push((o.unit, 0));
                } else {
                    self.off[seat].push(o);
                }
            }
        }
        self.pursuit = Some(p);
        ev.push(Event::PursuitBegan { victor });
        // The victor begins.
        self.half += 1;
        self.current = victor;
        self.begin_turn(ev);
    }

    fn pursuit_actions(&self, seat: Seat) -> u8 {
        let Some(p) = &self.pursuit else { return 0 };
        let commanders = p.cavalry[seat]
            .iter()
            .filter(|(u, _)| u.class() == Class::Commander)
            .count();
        let cincs = p.aside[seat]
            .iter()
            .filter(|u| u.class() == Class::CommanderInChief)
            .count();
        u8::try_from(commanders + 2 * cincs).unwrap_or(u8::MAX)
    }

    /// Whether the victor can still pursue anything.
    fn pursuit_open(&self) -> bool {
        let Some(p) = &self.pursuit else { return false };
        let loser = p.victor.opponent();
        !p.cavalry[p.victor].is_empty()
            && (!p.cavalry[loser].is_empty()
                || self
                    .pieces()
                    .any(|(_, q)| q.seat() == loser && !q.unit.class().is_cavalry()))
    }

    /// "the casualties on both sides are counted": 0-3 indecisive, 4-9 minor, 10+ major.
    fn finish_pursuit(&mut self, ev: &mut Events) {
        let Some(p) = &self.pursuit else { return };
        let victor = p.victor;
        let lost = |s: Seat| self.dead[s].len() as i64;
        let diff = lost(victor.opponent()) - lost(victor);
        let status = if diff <= 3 {
            Status::Drawn {
                reason: EndReason::Indecisive,
            }
        } else if diff <= 9 {
            Status::Won {
                winner: victor,
                reason: EndReason::MinorVictory,
            }
        } else {
            Status::Won {
                winner: victor,
                reason: EndReason::MajorVictory,
            }
        };
        self.finish(status);
        ev.push(Event::Ended(status));
    }

    fn pursuit_legal(&self, out: &mut Vec<Action>) {
        let Some(p) = &self.pursuit else { return };
        let seat = self.current;
        let enemy = seat.opponent();
        let mut mine: Vec<Unit> = Vec::new();
        for (u, _) in &p.cavalry[seat] {
            if !mine.contains(u) {
                mine.push(*u);
            }
        }
        let mut theirs: Vec<Unit> = Vec::new();
        for (u, _) in &p.cavalry[enemy] {
            if !theirs.contains(u) {
                theirs.push(*u);
            }
        }
        for &cavalry in &mine {
            if seat == p.victor {
                for (c, q) in self.pieces() {
                    if q.seat() == enemy {
                        out.push(Action::Pursue { cavalry, target: c });
                    }
                }
            }
            for &target in &theirs {
                out.push(Action::Charge { cavalry, target });
            }
        }
        if seat != p.victor {
            for (c, q) in self.pieces() {
                if q.seat() == seat {
                    out.push(Action::Save { from: c });
                }
            }
        }
        out.push(Action::EndTurn);
    }

    /// The strongest piece of `unit` set aside by `seat`: its index and strength.
    fn strongest(&self, seat: Seat, unit: Unit) -> Option<(usize, u8)> {
        let p = self.pursuit.as_ref()?;
        p.cavalry[seat]
            .iter()
            .enumerate()
            .filter(|(_, (u, _))| *u == unit)
            .map(|(i, (u, w))| (i, u.strength().saturating_sub(*w).max(1)))
            .max_by_key(|&(i, s)| (s, usize::MAX - i))
    }

    fn apply_pursuit(&mut self, action: &Action, ev: &mut Events) {
        let seat = self.current;
        self.used += 1;
        match *action {
            Action::Pursue { cavalry, target } => {
                if let Some(q) = self.get(target) {
                    self.set(target, None);
                    self.dead[q.seat()].push(q.unit);
                    ev.push(Event::Pursuit(PursuitEvent::CutDown {
                        cell: target,
                        unit: q.unit,
                    }));
                }
                self.weaken_aside(seat, cavalry);
                if let Some(p) = &mut self.pursuit {
                    p.acted = true;
                }
            }
            Action::Charge { cavalry, target } => {
                let enemy = seat.opponent();
                if let (Some((ai, sa)), Some((di, sd))) =
                    (self.strongest(seat, cavalry), self.strongest(enemy, target))
                {
                    let victor = self.pursuit.as_ref().map(|p| p.victor);
                    // "If there's a draw, the cavalry of the victorious player always wins".
                    let attacker_won = sa > sd || (sa == sd && victor == Some(seat));
                    if let Some(p) = &mut self.pursuit {
                        if attacker_won {
                            p.cavalry[enemy].remove(di);
                            self.dead[enemy].push(target);
                            if let Some(e) = p.cavalry[seat].get_mut(ai) {
                                if e.0.class() == Class::HeavyCavalry && e.1 + 1 < e.0.strength() {
                                    e.1 += 1;
                                }
                            }
                        } else {
                            p.cavalry[seat].remove(ai);
                            self.dead[seat].push(cavalry);
                        }
                        if victor == Some(seat) {
                            p.acted = true;
                        }
                    }
                    ev.push(Event::Pursuit(PursuitEvent::Charge {
                        attacker: cavalry,
                        defender: target,
                        attacker_won,
                    }));
                }
            }
            Action::Save { from } => {
                if let Some(q) = self.get(from) {
                    self.set(from, None);
                    if let Some(p) = &mut self.pursuit {
                        p.aside[seat].push(q.unit);
                    }
                    ev.push(Event::Pursuit(PursuitEvent::Saved { cell: from }));
                }
            }
            _ => {}
        }
        if !self.pursuit_open() {
            self.finish_pursuit(ev);
            return;
        }
        if self.used >= self.actions {
            self.end_turn(ev);
        }
    }

    fn weaken_aside(&mut self, seat: Seat, unit: Unit) {
        let Some((i, _)) = self.strongest(seat, unit) else {
            return;
        };
        if let Some(p) = &mut self.pursuit {
            if let Some(e) = p.cavalry[seat].get_mut(i) {
                if e.0.class() == Class::HeavyCavalry && e.1 + 1 < e.0.strength() {
                    e.1 += 1;
                }
            }
        }
    }

    fn count_on(&self, cells: &[Cell], seat: Seat) -> usize {
        cells
            .iter()
            .filter(|&&c| self.get(c).is_some_and(|p| p.seat() == seat))
            .count()
    }

    fn victory(&self) -> Option<Status<EndReason>> {
        let version = self.options.version;
        // Commanders-in-chief.
        for seat in [self.current, self.current.opponent()] {
            let cinc = if seat == ALLIED {
                Unit::Wellington
            } else {
                Unit::Napoleon
            };
            if self.dead[seat].contains(&cinc) {
                let ends = match version {
                    Version::Basic => false,
                    Version::Standard => true,
                    Version::Expert => seat == FRENCH,
                };
                if ends {
                    return Some(Status::Won {
                        winner: seat.opponent(),
                        reason: EndReason::CommanderInChief,
                    });
                }
            }
        }
        // Lines of retreat: the side acting first is checked first.
        for seat in [self.current, self.current.opponent()] {
            let enemy = seat.opponent();
            let line = match version {
                Version::Expert => (enemy == ALLIED).then_some(Flank::Centre),
                _ => self.retreat[enemy],
            };
            if let Some(f) = line {
                let cells = &self.layout().retreat[enemy][f as usize];
                if self.count_on(cells, seat) >= 2 {
                    return Some(Status::Won {
                        winner: seat,
                        reason: EndReason::LinesOfRetreat,
                    });
                }
            }
        }
        None
    }

    fn eliminate(&mut self, c: Cell, ev: &mut Events) {
        if let Some(p) = self.get(c) {
            self.set(c, None);
            self.dead[p.seat()].push(p.unit);
            ev.push(Event::Eliminated {
                cell: c,
                unit: p.unit,
            });
        }
    }

    fn withdraw(&mut self, c: Cell, ev: &mut Events) {
        if let Some(p) = self.get(c) {
            self.set(c, None);
            let seat = p.seat();
            // From the owner's next turn: the next half-turn it plays after this one.
            let ready_at = if seat == self.current {
                self.half + 2
            } else {
                self.half + 1
            };
            self.off[seat].push(OffBoard {
                unit: p.unit,
                ready_at,
            });
            ev.push(Event::Withdrawn {
                cell: c,
                unit: p.unit,
            });
        }
    }

    fn relocate(&mut self, from: Cell, to: Cell, ev: &mut Events) {
        if from != to {
            let p = self.get(from);
            self.set(from, None);
            self.set(to, p);
            ev.push(Event::Moved { from, to });
        }
    }

    fn weaken(&mut self, c: Cell, ev: &mut Events) {
        let half = self.half;
        if let Some(mut p) = self.get(c) {
            if p.unit.class() == Class::HeavyCavalry {
                if p.weakened + 1 < p.unit.strength() {
                    p.weakened += 1;
                    ev.push(Event::Weakened { cell: c });
                }
                p.charged_at = half;
                self.set(c, Some(p));
            }
        }
    }

    /// Fights the piece on `att` against the one on `def` (adjacent, `dir` from `att`).
    /// Returns true when the die is now awaited.
    fn fight(&mut self, att: Cell, def: Cell, dir: Dir, frenzy: bool, ev: &mut Events) -> bool {
        let (Some(a), Some(d)) = (self.get(att), self.get(def)) else {
            return false;
        };
        // "Exceptionally, this card can also be played as a defensive move when one of his
        // pieces is being attacked anytime during the game!"
        let owner = d.seat();
        if a.seat() != owner
            && self.hands[owner].contains(&Card::FightingSpirit)
            && Self::spirit_fits(d)
        {
            self.battle = Some(PendingBattle {
                att,
                def,
                dir,
                friendly: false,
                frenzy,
            });
            self.phase = Phase::Defence(owner);
            return true;
        }
        self.fight_now(att, def, dir, frenzy, ev)
    }

    fn spirit_fits(p: Placed) -> bool {
        !p.spirited && !matches!(p.unit.class(), Class::CommanderInChief | Class::Artillery)
    }

    fn fight_now(&mut self, att: Cell, def: Cell, dir: Dir, frenzy: bool, ev: &mut Events) -> bool {
        let (Some(mut a), Some(mut d)) = (self.get(att), self.get(def)) else {
            return false;
        };
        let friendly = a.seat() == d.seat();
        a.revealed = true;
        d.revealed = true;
        self.set(att, Some(a));
        self.set(def, Some(d));
        let sa = self.strength(att, a, None);
        let sd = self.strength(def, d, Some(att));
        let ac = a.unit.class();
        let dc = d.unit.class();
        let result = if dc == Class::Artillery {
            let facing = self.layout().facing(d.unit.army());
            if dir == facing.opposite() {
                // "If an enemy piece attacks an Artillery unit from the front, the enemy piece
                // in question will be eliminated."
                BattleResult::DefenderWon
            } else {
                BattleResult::AttackerWon
            }
        } else if ac == Class::CommanderInChief || dc == Class::CommanderInChief || sa > sd {
            // Commanders-in-chief "can destroy ALL units, but only if they attack. If they are
            // attacked however ... they will be eliminated".
            BattleResult::AttackerWon
        } else if sa < sd {
            BattleResult::DefenderWon
        } else {
            BattleResult::Die
        };
        ev.push(Event::Battle(BattleReport {
            attacker: (att, a.unit),
            defender: (def, d.unit),
            strengths: (sa, sd),
            frenzy,
            result,
        }));
        match result {
            BattleResult::AttackerWon => {
                self.eliminate(def, ev);
                self.relocate(att, def, ev);
                self.weaken(def, ev);
                false
            }
            BattleResult::DefenderWon => {
                self.eliminate(att, ev);
                false
            }
            BattleResult::Die => {
                self.battle = Some(PendingBattle {
                    att,
                    def,
                    dir,
                    friendly,
                    frenzy,
                });
                self.phase = Phase::BattleDie;
                true
            }
        }
    }

    /// Applies the die to the waiting battle; returns true if another die is awaited.
    fn resolve_die(&mut self, face: DieFace, ev: &mut Events) -> bool {
        ev.push(Event::Rolled(face));
        let Some(b) = self.battle.take() else {
            return false;
        };
        let (Some(a), Some(d)) = (self.get(b.att), self.get(b.def)) else {
            return false;
        };
        if b.friendly {
            // Ruling: between pieces of one side the die only says which one is eliminated:
            // the frenzied piece's colour keeps it (it takes the other's square).
            if face.winner() == a.seat() {
                self.eliminate(b.def, ev);
                self.relocate(b.att, b.def, ev);
                self.weaken(b.def, ev);
            } else {
                self.eliminate(b.att, ev);
            }
            return false;
        }
        let attacker_wins = face.winner() == a.seat();
        let (win, lose, fdir) = if attacker_wins {
            (b.att, b.def, b.dir)
        } else {
            (b.def, b.att, b.dir.opposite())
        };
        let _ = d;
        if face.withdraws() {
            self.withdraw(lose, ev);
        } else {
            self.eliminate(lose, ev);
        }
        // "The ... piece has gained a victory and may now take the place of the ... piece": it
        // does, unless it may not enter that square ("Cavalry pieces cannot enter nor attack a
        // building tile, this includes Commanders"): a cavalry defender beating infantry that
        // attacked out of a building stays where it is.
        let takes = self.get(win).is_some_and(|p| self.may_enter(p.unit, lose));
        let at = if takes {
            self.relocate(win, lose, ev);
            lose
        } else {
            win
        };
        if attacker_wins {
            self.weaken(at, ev);
        }
        if face.frenzy() {
            // "When a Battle die is rolled IN a building and a '+' (frenzy) has been rolled, the
            // victorious unit may choose which piece to attack in the building": a winner that
            // stands in it. (A defender that won its square in the building and took the
            // attacker's outside goes on along the line, as anywhere.)
            if let Some((i, TileKind::Building)) = self.tile_kind(b.def) {
                let cells = &self.layout().tiles[i].cells;
                let any = cells.iter().any(|&c| c != at && self.get(c).is_some());
                if any && cells.contains(&at) {
                    self.frenzy_from = Some((at, i, fdir));
                    self.phase = Phase::FrenzyChoice(face.winner());
                    return true;
                }
            }
            // A winner that stayed finds the square it would have taken empty: nothing happens.
            return self.frenzy(at, fdir, ev);
        }
        false
    }

    /// The pieces the frenzied winner in a building may attack.
    fn frenzy_choices(&self) -> Vec<Cell> {
        let Some((from, i, _)) = self.frenzy_from else {
            return Vec::new();
        };
        self.layout().tiles[i]
            .cells
            .iter()
            .copied()
            .filter(|&c| c != from && self.get(c).is_some())
            .collect()
    }

    fn frenzy_in_building(&mut self, at: Cell, ev: &mut Events) -> bool {
        let Some((from, _, line)) = self.frenzy_from.take() else {
            return false;
        };
        self.phase = Phase::Act;
        let dir = if at.col == from.col {
            if at.row > from.row {
                Dir::Up
            } else {
                Dir::Down
            }
        } else if at.row == from.row {
            if at.col > from.col {
                Dir::Right
            } else {
                Dir::Left
            }
        } else {
            line
        };
        self.fight(from, at, dir, true, ev)
    }

    /// The frenzied piece on `at` attacks the next piece in direction `dir`, friend or foe.
    fn frenzy(&mut self, at: Cell, dir: Dir, ev: &mut Events) -> bool {
        let Some(next) = self.layout().step(at, dir) else {
            return false;
        };
        if self.get(next).is_none() {
            return false;
        }
        let Some(p) = self.get(at) else { return false };
        // Cavalry never attacks into a building, not even in frenzy (ruling).
        if p.unit.class().is_cavalry() && self.is_building(next) {
            return false;
        }
        self.fight(at, next, dir, true, ev)
    }

    fn apply(&mut self, action: &Action, ev: &mut Events) {
        match *action {
            Action::Chance(c) => self.apply_chance(c, ev),
            Action::EndTurn => self.end_turn(ev),
            Action::Pursue { .. } | Action::Charge { .. } | Action::Save { .. } => {
                self.apply_pursuit(action, ev)
            }
            Action::Draft(card) => self.draft(card, ev),
            Action::Frenzy { at } => {
                if !self.frenzy_in_building(at, ev) {
                    self.after_action(ev);
                }
            }
            Action::Decline | Action::PlayCard(CardPlay::FightingSpirit { .. })
                if matches!(self.phase, Phase::Defence(_)) =>
            {
                if let (Action::PlayCard(play), Phase::Defence(seat)) = (*action, self.phase) {
                    if let Some(k) = self.hands[seat]
                        .iter()
                        .position(|&c| c == Card::FightingSpirit)
                    {
                        self.hands[seat].remove(k);
                    }
                    if let CardPlay::FightingSpirit { on } = play {
                        if let Some(mut p) = self.get(on) {
                            p.spirited = true;
                            self.set(on, Some(p));
                        }
                    }
                    ev.push(Event::CardPlayed { seat, play });
                }
                self.phase = Phase::Act;
                if let Some(b) = self.battle.take() {
                    if self.fight_now(b.att, b.def, b.dir, b.frenzy, ev) {
                        return;
                    }
                }
                self.after_action(ev);
            }
            Action::PlayCard(play) => {
                self.used += 1;
                if self.current == ALLIED {
                    self.allied_used += 1;
                }
                self.card_played = true;
                self.play_card(play, ev);
                self.after_action(ev);
            }
            Action::TakeOff { from } => {
                if let Some(p) = self.get(from) {
                    self.set(from, None);
                    let seat = p.seat();
                    self.off[seat].push(OffBoard {
                        unit: p.unit,
                        ready_at: self.half + 2,
                    });
                    ev.push(Event::TakenOff { from });
                }
                self.after_action(ev);
            }
            _ => {
                if self.free_under_effect(action) {
                    self.consume_effect(action);
                    match *action {
                        Action::Move { from, to } => self.relocate(from, to, ev),
                        Action::Attack { from, to, dir } => {
                            let att = self.layout().step(to, dir.opposite()).unwrap_or(from);
                            self.relocate(from, att, ev);
                            if self.fight(att, to, dir, false, ev) {
                                return;
                            }
                        }
                        Action::Fire { from, at, tile } => self.fire(from, at, tile, ev),
                        _ => {}
                    }
                    self.after_action(ev);
                    return;
                }
                // Anything else ends a card being carried out.
                self.effect = None;
                let prussian = match *action {
                    Action::Move { from, .. }
                    | Action::Attack { from, .. }
                    | Action::Fire { from, .. } => self
                        .get(from)
                        .is_some_and(|p| p.unit.army() == Army::Prussian),
                    Action::Enter { unit, .. } => unit.army() == Army::Prussian,
                    _ => false,
                };
                self.used += 1;
                if self.current == ALLIED {
                    if prussian {
                        self.prussian_used += 1;
                    } else {
                        self.allied_used += 1;
                    }
                }
                match *action {
                    Action::Move { from, to } => self.relocate(from, to, ev),
                    Action::Attack { from, to, dir } => {
                        let att = self.layout().step(to, dir.opposite()).unwrap_or(from);
                        self.relocate(from, att, ev);
                        if self.fight(att, to, dir, false, ev) {
                            return;
                        }
                    }
                    Action::Fire { from, at, tile } => self.fire(from, at, tile, ev),
                    Action::Enter { unit, to } => self.enter(unit, to, ev),
                    _ => {}
                }
                self.after_action(ev);
            }
        }
    }

    fn draft(&mut self, card: Card, ev: &mut Events) {
        match self.phase {
            Phase::Draft(seat) => {
                if let Some(k) = self.stack.iter().position(|&c| c == card) {
                    self.stack.remove(k);
                }
                let kept = self.draft_keep;
                if kept {
                    self.hands[seat].push(card);
                } else {
                    self.discard.push(card);
                }
                ev.push(Event::Drafted { seat, card, kept });
                self.draft_keep = !kept || self.stack.is_empty();
                self.next_draft(ev);
            }
            Phase::PrussianCards => {
                if let Some(k) = self.discard.iter().position(|&c| c == card) {
                    self.discard.remove(k);
                }
                self.hands[ALLIED].push(card);
                self.prussian_cards += 1;
                ev.push(Event::Drafted {
                    seat: ALLIED,
                    card,
                    kept: true,
                });
                self.continue_turn_start(ev);
            }
            _ => {}
        }
    }

    /// Each seat's manoeuvre cards (public: the draft is open).
    pub fn hand(&self, seat: Seat) -> &[Card] {
        &self.hands[seat]
    }

    /// The cards left in the draft stack and the discard pile.
    pub fn card_piles(&self) -> (&[Card], &[Card]) {
        (&self.stack, &self.discard)
    }

    fn fire(&mut self, from: Cell, at: Cell, tile: bool, ev: &mut Events) {
        ev.push(Event::Fired { from, at });
        if tile {
            if let Some((i, _)) = self.tile_kind(at) {
                self.tile_strength[i] = self.tile_strength[i].saturating_sub(1);
                if self.tile_strength[i] == 0 {
                    self.tile_owner[i] = None;
                }
                ev.push(Event::TileHit {
                    tile: i,
                    left: self.tile_strength[i],
                });
            }
        } else {
            self.eliminate(at, ev);
        }
    }

    fn enter(&mut self, unit: Unit, to: Cell, ev: &mut Events) {
        let seat = seat_of(unit.army());
        if let Some(k) = self.reserve[seat].iter().position(|&u| u == unit) {
            self.reserve[seat].remove(k);
        } else if let Some(k) = self.off[seat]
            .iter()
            .position(|o| o.unit == unit && o.ready_at <= self.half)
        {
            self.off[seat].remove(k);
        }
        // Off the board a game turn: full strength again.
        self.set(to, Some(Placed::new(unit)));
        ev.push(Event::Entered { to, unit });
        let commander = if seat == ALLIED {
            Unit::Uxbridge
        } else {
            Unit::Ney
        };
        if unit == commander {
            // "If the player reinstates the Commander during his/her next turn, he/she will
            // not lose that action."
            self.actions += 1;
        }
    }

    fn apply_chance(&mut self, c: ChanceAction, ev: &mut Events) {
        match (self.phase, c) {
            (Phase::DrawRetreat(seat), ChanceAction::Retreat(f)) => {
                self.retreat[seat] = Some(f);
                ev.push(Event::RetreatDrawn { seat, flank: f });
                if seat == ALLIED {
                    self.phase = Phase::DrawRetreat(FRENCH);
                } else {
                    self.next_draft(ev);
                }
            }
            (Phase::PrussianDie, ChanceAction::Die(face)) => {
                ev.push(Event::Rolled(face));
                let coming = face.winner() == ALLIED;
                self.prussians_coming = Some(coming);
                ev.push(Event::PrussiansDecided { coming });
                self.continue_turn_start(ev);
            }
            (Phase::PrussianDraw, ChanceAction::Prussian(u)) => {
                if let Some(k) = self.pool.iter().position(|&x| x == u) {
                    self.pool.remove(k);
                }
                let free = self
                    .layout()
                    .prussian_entry
                    .iter()
                    .copied()
                    .find(|&c| self.get(c).is_none());
                if let Some(to) = free {
                    self.set(to, Some(Placed::new(u)));
                    ev.push(Event::PrussianArrived { to, unit: u });
                }
                self.drawn_this_turn += 1;
                self.continue_turn_start(ev);
            }
            (Phase::BattleDie, ChanceAction::Die(face)) if !self.resolve_die(face, ev) => {
                self.after_action(ev);
            }
            _ => {}
        }
    }

    /// The board as text, every unit shown (the umpire's eyes only): rows from the French side
    /// down, `a` for Allied, `f` French, `p` Prussian, then the unit code.
    pub fn diagram(&self) -> alloc::string::String {
        use core::fmt::Write as _;
        let layout = self.layout();
        let mut out = alloc::string::String::new();
        for row in (0..layout.rows).rev() {
            let _ = write!(out, "{:>2} ", row + 1);
            for col in 0..layout.columns {
                let c = Cell::new(col, row);
                match self.get(c) {
                    None => out.push_str(" .. "),
                    Some(p) => {
                        let tag = match p.unit.army() {
                            Army::French => 'f',
                            Army::Allied => 'a',
                            Army::Prussian => 'p',
                        };
                        let _ = write!(out, " {tag}{:<2}", p.unit.code());
                    }
                }
            }
            out.push('\n');
        }
        out
    }
}

impl Waterloo {
    /// A game from a position later in a battle (for tests, puzzles and resuming): pieces may
    /// stand anywhere on the board, Prussians included among the Allied placements; `reserve`
    /// lists each seat's pieces in reserve; every other piece counts as eliminated earlier
    /// (Prussians not placed are still to be drawn). No commander is required. The game then
    /// starts as usual (lines of retreat first).
    ///
    /// # Errors
    /// Every problem: squares off the board or taken twice, units of the wrong army, more of a
    /// unit than the army has.
    pub fn from_position(
        options: Options,
        placements: &BySeat<Vec<(Cell, Unit)>>,
        reserve: &BySeat<Vec<Unit>>,
    ) -> Result<Waterloo, Problems<SetupProblem>> {
        let mut problems = Vec::new();
        let mut taken: Vec<Cell> = Vec::new();
        for seat in [ALLIED, FRENCH] {
            for &(cell, unit) in &placements[seat] {
                if seat_of(unit.army()) != seat {
                    problems.push(SetupProblem::WrongArmy { seat, unit });
                } else if !options.layout.contains(cell) {
                    problems.push(SetupProblem::OutsideZone { seat, cell });
                } else if taken.contains(&cell) {
                    problems.push(SetupProblem::SquareTwice { seat, cell });
                } else {
                    taken.push(cell);
                }
            }
            for &unit in Unit::ALL {
                if seat_of(unit.army()) != seat {
                    continue;
                }
                let placed = placements[seat].iter().filter(|(_, u)| *u == unit).count()
                    + reserve[seat].iter().filter(|u| **u == unit).count();
                if placed > usize::from(unit.count())
                    || (reserve[seat].contains(&unit) && unit.army() == Army::Prussian)
                {
                    problems.push(SetupProblem::TooMany {
                        seat,
                        unit,
                        placed: u8::try_from(placed).unwrap_or(u8::MAX),
                        max: unit.count(),
                    });
                }
            }
        }
        if !problems.is_empty() {
            return Err(Problems(problems));
        }
        let mut plain = Setup::default();
        let mut prussians = Vec::new();
        for seat in [ALLIED, FRENCH] {
            for &(cell, unit) in &placements[seat] {
                if unit.army() == Army::Prussian {
                    prussians.push((cell, unit));
                } else {
                    plain.placements[seat].push((cell, unit));
                }
            }
        }
        let mut g = Waterloo::new_game(options, &plain);
        for seat in [ALLIED, FRENCH] {
            let mut kept = Vec::new();
            for &u in g.reserve[seat]
                .iter()
                .chain(g.held.iter().filter(|_| seat == FRENCH))
            {
                let wanted = reserve[seat].iter().filter(|x| **x == u).count();
                let have = kept.iter().filter(|x| **x == u).count();
                if have < wanted {
                    kept.push(u);
                } else {
                    g.dead[seat].push(u);
                }
            }
            g.reserve[seat] = kept;
        }
        g.held.clear();
        g.lost_before = g
            .dead
            .clone()
            .map(|d| u8::try_from(d.len()).unwrap_or(u8::MAX));
        for (cell, unit) in prussians {
            if let Some(k) = g.pool.iter().position(|&u| u == unit) {
                g.pool.remove(k);
            }
            g.set(cell, Some(Placed::new(unit)));
        }
        Ok(g)
    }
}

impl Game for Waterloo {
    type Options = Options;
    type Setup = Setup;
    type SetupProblem = SetupProblem;
    type Action = Action;
    type Illegal = Illegal;
    type Outcome = Outcome;
    type View = View;
    type EndReason = EndReason;

    fn start(options: Options, setup: Setup) -> Result<Waterloo, Problems<SetupProblem>> {
        let problems = setup.validate(&options);
        if !problems.is_empty() {
            return Err(Problems(problems));
        }
        Ok(Waterloo::new_game(options, &setup))
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn to_act(&self) -> Actor {
        match self.phase {
            Phase::Over => Actor::Nobody,
            Phase::Act => Actor::Seat(self.current),
            Phase::Draft(seat) | Phase::Defence(seat) | Phase::FrenzyChoice(seat) => {
                Actor::Seat(seat)
            }
            Phase::PrussianCards => Actor::Seat(ALLIED),
            _ => Actor::Chance,
        }
    }

    fn status(&self) -> Status<EndReason> {
        self.status
    }

    fn legal_actions(&self) -> Vec<Action> {
        self.legal()
    }

    fn chance_outcomes(&self) -> Vec<(Action, u32)> {
        self.chance_list()
    }

    fn check(&self, action: &Action) -> Result<(), Illegal> {
        self.check_action(action)
    }

    fn play_unchecked(&mut self, action: &Action) -> Outcome {
        let mut events = Vec::new();
        self.apply(action, &mut events);
        Outcome { events }
    }

    fn view(&self, seat: Seat) -> View {
        let board = self
            .board
            .iter()
            .map(|p| match p {
                None => Seen::Empty,
                Some(p) if p.seat() == seat => Seen::Own(*p),
                Some(p) => Seen::Enemy {
                    back: p.unit.back(),
                    unit: p.revealed.then_some(p.unit),
                    weakened: p.weakened,
                },
            })
            .collect();
        View::new(self, seat, board)
    }
}

// A seat's view is built here, beside the game whose state it reads: view.rs stands below the
// game, which names the view as its `Game::View`.
impl View {
    pub(crate) fn new(g: &Waterloo, seat: Seat, board: Vec<Seen>) -> View {
        let enemy = seat.opponent();
        View {
            seat,
            current: g.current(),
            // Whose card is being drawn is public; the card is not.
            phase: g.phase(),
            turn: g.turn(),
            clock_minutes: g.clock_minutes(),
            actions: g.actions(),
            turns_until_prussians: g.turns_until_prussians(),
            prussians_decided: g.prussians_coming,
            columns: g.options.layout.columns,
            board,
            line_of_retreat: g.line_of_retreat(seat),
            reserve: g.reserve(seat).to_vec(),
            enemy_reserve: g.reserve(enemy).len()
                + if enemy != ALLIED {
                    g.held_back().len()
                } else {
                    0
                },
            off_board: g.off_board(seat).collect(),
            enemy_off_board: g.off_board(enemy).count(),
            dead: [g.dead(Seat::FIRST).to_vec(), g.dead(Seat::SECOND).to_vec()],
            prussians_undrawn: g.prussian_pool().len(),
            tile_strength: g.tile_strength.clone(),
            tile_owner: g.tile_owner.clone(),
            pursuit_victor: g.pursuit_victor(),
            pursuit_cavalry: g.pursuit_cavalry(seat).to_vec(),
            enemy_pursuit_cavalry: g
                .pursuit_cavalry(enemy)
                .iter()
                .map(|&(u, weakened)| (u.back(), weakened))
                .collect(),
            set_aside: g.set_aside(seat).to_vec(),
            enemy_set_aside: g.set_aside(enemy).len(),
            hands: [g.hand(Seat::FIRST).to_vec(), g.hand(Seat::SECOND).to_vec()],
            status: g.status,
        }
    }
}

impl fmt::Display for Waterloo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.clock_minutes();
        write!(
            f,
            "turn {} ({:02}:{:02}), {} to act",
            self.turn(),
            m.div_euclid(60),
            m.rem_euclid(60),
            seat_name(self.current)
        )
    }
}
