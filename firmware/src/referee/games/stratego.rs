//! Stratego Original and Duel at the table: the [`TableGame`] adapter over
//! [`boards::stratego::Position`].
//!
//! - **Set-up** by rank groups behind a screen (Red, then Blue: "Red: place 2 Bombs, then press
//!   OK"): a piece outside the seat's rows is refused as it is placed ("e5 is outside Red's rows
//!   1-4"), each group's count is checked at its OK, and a placed piece moved within the rows
//!   keeps its rank; or, with NFC tags registered to
//!   pieces, both armies in any order, each piece identified by its tag.
//! - **Moves** are slides (lift, put down; a Scout runs along its line), **attacks** lift both
//!   pieces in either order and hold them up for the attack hold; the battle says what the hands
//!   do. The journal keeps Stratego's own records ([`Record::Deployed`], [`Record::Move`]), so
//!   every journal of an earlier build reads the same.
//! - **Secrets**: the table is told a piece's rank only once the rules reveal it (a battle, a
//!   Scout seen moving far). Refusals are worded so they never name a hidden rank, and a lone
//!   piece of the side to move lifted is "in hand" whether or not it can move (a Bomb lifted
//!   looks like any other piece).

use std::collections::{BTreeMap, BTreeSet};

use boards::stratego::{
    seat_name, Battle, BattleResult, Deployment, EndReason, Illegal, Move, Options, Outcome, Piece,
    Position, Rank, Setup, Square, Variant, BLUE, RED,
};
use boards::{Actor, BySeat, Game, Seat, Status};

use crate::referee::decision::Decision;
use crate::referee::record::{Record, SetupMode};
use crate::referee::table::{Gesture, Group, Journaled, Named, TableGame, TableRebuilt};
use crate::referee::tags::TagRegistry;
use crate::sensing::{LayoutSetup, Place, TagUid};
use crate::ui::{Screen, StatusLine};

/// What the menu chose: the variant and rule options, and how the armies are set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StrategoChoice {
    /// Variant and repetition rules.
    pub options: Options,
    /// By rank groups or by tags.
    pub setup: SetupMode,
}

/// A Stratego game at the table: the position, its status (kept, since it costs a look at the
/// move list) and what the last move did.
#[derive(Clone, Debug)]
pub struct StrategoTable {
    position: Position,
    status: Status<EndReason>,
    last: Option<Outcome>,
}

impl StrategoTable {
    /// The position, with every rank (the umpire's eyes only).
    pub fn position(&self) -> &Position {
        &self.position
    }

    fn new(position: Position) -> StrategoTable {
        StrategoTable {
            status: position.status(),
            position,
            last: None,
        }
    }

    /// What the table may be told about the piece on `square`: "Red Scout" if its rank is
    /// public, else "Red piece".
    fn public_piece(&self, square: Square) -> String {
        match self.position.piece_at(square) {
            Some(p) if self.position.is_revealed(square) => {
                format!("{} {}", seat_name(p.owner), p.rank)
            }
            Some(p) => format!("{} piece", seat_name(p.owner)),
            None => "empty".to_string(),
        }
    }

    fn owner(&self, square: Square) -> Option<Seat> {
        self.position.piece_at(square).map(|p| p.owner)
    }

    /// The gesture that makes `mv`: a slide, or both pieces lifted for an attack.
    fn gesture(&self, mv: Move) -> Gesture {
        if self.position.piece_at(mv.to).is_some() {
            Gesture::lift_two(place(mv.from), place(mv.to))
        } else {
            Gesture::slide(place(mv.from), place(mv.to))
        }
    }

    /// The move a gesture looks like, legal or not: a slide, or two pieces lifted, one of the
    /// side to move's and one not.
    fn shape(&self, gesture: &Gesture) -> Option<Move> {
        let mover = self.position.to_move();
        match (gesture.lifted.as_slice(), gesture.placed.as_slice()) {
            ([a], [b]) => Some(Move::new(square(a)?, square(b)?)),
            ([x, y], []) => {
                let (x, y) = (square(x)?, square(y)?);
                match (self.owner(x), self.owner(y)) {
                    (Some(a), b) if a == mover && b != Some(mover) => Some(Move::new(x, y)),
                    (a, Some(b)) if b == mover && a != Some(mover) => Some(Move::new(y, x)),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

impl TableRebuilt<StrategoTable> {
    /// The current position, once both armies are placed.
    pub fn position(&self) -> Option<&Position> {
        self.history.last().map(StrategoTable::position)
    }
}

fn place(square: Square) -> Place {
    Place::Square(square.cell())
}

fn square(place: &Place) -> Option<Square> {
    match place {
        Place::Square(cell) => Square::from_cell(*cell),
        Place::Tray { .. } => None,
    }
}

/// The rank groups in set-up order: the Flag and Bombs first, the Spy last.
fn rank_groups(variant: Variant) -> Vec<Rank> {
    Rank::ALL
        .iter()
        .rev()
        .copied()
        .filter(|&r| variant.count(r) > 0)
        .collect()
}

/// Whether the rules let `seat` set a piece up on `s` (asked of the rules' own check, so the
/// set-up rows are said in one place).
fn in_setup_rows(variant: Variant, seat: Seat, s: Square) -> bool {
    let mut one = Deployment::new();
    one.place(s, Rank::Flag);
    match one.validate(variant, seat) {
        Ok(()) => true,
        Err(problems) => !problems
            .as_slice()
            .iter()
            .any(|p| matches!(p, boards::stratego::SetupProblem::OutsideZone { .. })),
    }
}

fn group_noun(variant: Variant, rank: Rank) -> String {
    match variant.count(rank) {
        1 => format!("1 {}", rank.name()),
        n => format!("{n} {}", rank.plural()),
    }
}

/// The rules' reason for refusing `mv`, in words the whole table may read. While the moving
/// piece's rank is hidden, the words must hold for every rank it could have: what the board's
/// geometry refuses for any piece (a diagonal, a lake, one's own piece, a far square with
/// something in the way) is said as such; anything else only as "not a legal move", the same
/// for a Bomb that may not step as for a Sergeant that may not run ("cannot move" would say
/// Bomb or Flag, "one square at a time" would say not a Scout). The player who moved knows
/// their own piece; the hand steps say how to put the board back.
fn public_reason(position: &Position, mv: &Move, reason: &Illegal) -> String {
    if let Illegal::NotYours(_) = reason {
        return format!(
            "it is {}'s turn, not {}'s",
            seat_name(position.to_move()),
            seat_name(position.to_move().opponent())
        );
    }
    let hidden = position.piece_at(mv.from).is_some() && !position.is_revealed(mv.from);
    if hidden {
        return geometry(position, mv, reason).unwrap_or_else(|| NOT_LEGAL.to_string());
    }
    match reason {
        Illegal::Immovable(s) => format!("the piece on {s} cannot move: move another"),
        Illegal::TooFar => "that piece moves one square at a time".to_string(),
        other => other.to_string(),
    }
}

/// The refusal of a hidden piece's move that only its rank refuses.
const NOT_LEGAL: &str = "not a legal move";

/// Why the board refuses `mv` whatever the rank of the piece making it, if it does (a
/// repetition rule refusing a step is said as the rules say it: it counts moves the whole
/// table saw, and only a piece that moved can repeat): the words for a piece whose rank is
/// hidden. `None`: only the rank refuses it.
fn geometry(position: &Position, mv: &Move, reason: &Illegal) -> Option<String> {
    let (from, to) = (mv.from, mv.to);
    let own = |s: Square| position.piece_at(s).map(|p| p.owner) == Some(position.to_move());
    if from == to {
        return Some(Illegal::SameSquare(from).to_string());
    }
    if to.is_lake() {
        return Some(Illegal::Lake(to).to_string());
    }
    if own(to) {
        return Some(Illegal::OwnPiece(to).to_string());
    }
    if from.row() != to.row() && from.col() != to.col() {
        return Some(Illegal::NotStraight.to_string());
    }
    if from.is_adjacent(to) {
        return match reason {
            Illegal::TwoSquares(_) | Illegal::MoreSquares => Some(reason.to_string()),
            _ => None,
        };
    }
    // A far square: no piece goes there past something in the way; with the line clear, only
    // the rank (or, for a Scout, a repetition rule) refuses it.
    path_between(from, to)
        .into_iter()
        .find(|s| s.is_lake() || position.piece_at(*s).is_some())
        .map(|s| format!("{s} is in the way"))
}

/// The squares strictly between `from` and `to` on one row or column.
fn path_between(from: Square, to: Square) -> Vec<Square> {
    let (c0, r0, c1, r1) = (from.col(), from.row(), to.col(), to.row());
    let step = |a: u8, b: u8| -> i16 { (i16::from(b) - i16::from(a)).signum() };
    let (dc, dr) = (step(c0, c1), step(r0, r1));
    let mut out = Vec::new();
    let (mut c, mut r) = (i16::from(c0) + dc, i16::from(r0) + dr);
    while (c, r) != (i16::from(c1), i16::from(r1)) {
        match (u8::try_from(c), u8::try_from(r)) {
            (Ok(col), Ok(row)) => match Square::new(col, row) {
                Some(s) => out.push(s),
                None => break,
            },
            _ => break,
        }
        c += dc;
        r += dr;
    }
    out
}

fn battle_screen(battle: &Battle) -> Screen {
    let a = battle.attacker;
    let d = battle.defender;
    let att = format!("{} {}", seat_name(a.owner), a.rank);
    let def = format!("{} {}", seat_name(d.owner), d.rank);
    // The hands' steps are listed live by the session while the board owes them; once done,
    // the battle stands alone.
    let result = match battle.result {
        BattleResult::AttackerWon if d.rank == Rank::Flag => "the Flag is captured".to_string(),
        BattleResult::AttackerWon => format!("{} wins", a.rank),
        BattleResult::DefenderWon => format!("{} wins", d.rank),
        BattleResult::BothRemoved => "both removed".to_string(),
    };
    Screen::Battle {
        attacker: att,
        defender: def,
        result,
        after: Vec::new(),
        hands: Vec::new(),
        places: Default::default(),
    }
}

fn problems<P: std::fmt::Display>(problems: &boards::Problems<P>) -> Vec<String> {
    problems.as_slice().iter().map(|p| p.to_string()).collect()
}

impl TableGame for StrategoTable {
    type Choice = StrategoChoice;
    type Action = Move;
    type Army = Deployment;

    const STACKS: bool = false;

    fn title(choice: StrategoChoice) -> String {
        choice.options.variant.to_string()
    }

    fn layout(choice: StrategoChoice) -> LayoutSetup {
        let grid = LayoutSetup::grid(10, 10);
        match choice.setup {
            SetupMode::Tags => grid.with_tag_readers_everywhere(),
            SetupMode::RankGroups => grid,
        }
    }

    fn setup_order(_: StrategoChoice) -> [Seat; 2] {
        [RED, BLUE]
    }

    fn seat_name(seat: Seat) -> &'static str {
        seat_name(seat)
    }

    fn groups(choice: StrategoChoice, _: Seat) -> Vec<Group> {
        let variant = choice.options.variant;
        rank_groups(variant)
            .into_iter()
            .map(|rank| Group {
                label: group_noun(variant, rank),
                count: variant.count(rank),
                min: variant.count(rank),
                // Checked at the group's OK: a short group is put right while it is placed,
                // not after every later group.
                counted: true,
            })
            .collect()
    }

    fn may_place(
        choice: StrategoChoice,
        seat: Seat,
        _group: usize,
        at: &Place,
    ) -> Result<(), String> {
        // Every rank has the same set-up rows: the refusal names none.
        let variant = choice.options.variant;
        let Some(s) = square(at) else {
            return Err(format!(
                "{at} is not a square of the board: take the piece off"
            ));
        };
        if in_setup_rows(variant, seat, s) {
            return Ok(());
        }
        // The seat's rows as the rules give them: each row whose first square takes a piece.
        let rows: Vec<u8> = (0..10)
            .filter(|&r| Square::new(0, r).is_some_and(|q| in_setup_rows(variant, seat, q)))
            .map(|r| r + 1)
            .collect();
        let name = seat_name(seat);
        Err(match (rows.first(), rows.last()) {
            (Some(a), Some(b)) => {
                format!("{s} is outside {name}'s rows {a}-{b}: move it onto them")
            }
            _ => format!("{s} is outside {name}'s set-up rows: move it onto them"),
        })
    }

    fn army(
        choice: StrategoChoice,
        seat: Seat,
        filled: &[Vec<Place>],
    ) -> Result<Deployment, Vec<String>> {
        let variant = choice.options.variant;
        let mut deployment = Deployment::new();
        for (rank, places) in rank_groups(variant).into_iter().zip(filled) {
            for s in places.iter().filter_map(square) {
                deployment.place(s, rank);
            }
        }
        deployment
            .validate(variant, seat)
            .map(|()| deployment)
            .map_err(|p| problems(&p))
    }

    fn tag_setup(choice: StrategoChoice) -> Option<u16> {
        Some(u16::from(choice.options.variant.army_size()) * 2)
    }

    fn armies_from_tags(
        choice: StrategoChoice,
        registry: &TagRegistry,
        read: &BTreeMap<Place, TagUid>,
    ) -> Result<BySeat<Deployment>, Vec<String>> {
        let variant = choice.options.variant;
        let mut armies = BySeat::from_fn(|_| Deployment::new());
        let mut list = Vec::new();
        for (at, uid) in read {
            match (square(at), registry.get(uid)) {
                (Some(s), Some(Piece { owner, rank })) => armies[owner].place(s, rank),
                (None, _) => list.push(format!("{at}: not a square of the board: take it off")),
                (_, None) => list.push(format!(
                    "{at}: tag {uid} is not registered: lift it and put it back, or use another piece"
                )),
            }
        }
        for (seat, army) in armies.iter() {
            if let Err(p) = army.validate(variant, seat) {
                list.extend(problems(&p));
            }
        }
        if list.is_empty() {
            Ok(armies)
        } else {
            Err(list)
        }
    }

    fn army_places(army: &Deployment) -> Option<BTreeSet<Place>> {
        Some(army.placements.iter().map(|(s, _)| place(*s)).collect())
    }

    fn start(choice: StrategoChoice, armies: &BySeat<Deployment>) -> Result<Self, Vec<String>> {
        let setup = Setup {
            deployments: armies.clone(),
        };
        Position::start(choice.options, setup)
            .map(StrategoTable::new)
            .map_err(|p| problems(&p))
    }

    fn army_record(seat: Seat, army: &Deployment) -> Result<Record, String> {
        Ok(Record::Deployed {
            seat,
            deployment: army.clone(),
        })
    }

    fn action_record(action: &Move) -> Result<Record, String> {
        Ok(Record::Move(*action))
    }

    fn read_record(record: &Record) -> Result<Journaled<Self>, String> {
        match record {
            Record::Deployed { seat, deployment } => Ok(Journaled::Army(*seat, deployment.clone())),
            Record::Move(mv) => Ok(Journaled::Action(*mv)),
            Record::Takeback { to_ply } => Ok(Journaled::Takeback(*to_ply)),
            Record::Chance { .. } => Err("a chance outcome, but Stratego has no chance".into()),
            Record::Army { .. } | Record::Action(_) | Record::Files(_) => {
                Err("another game's record in a Stratego journal".into())
            }
        }
    }

    fn board(&self) -> BTreeMap<Place, String> {
        self.position
            .pieces()
            .map(|(s, _)| (place(s), self.public_piece(s)))
            .collect()
    }

    fn occupied(&self) -> BTreeSet<Place> {
        self.position.pieces().map(|(s, _)| place(s)).collect()
    }

    fn status_line(&self) -> StatusLine {
        StatusLine {
            turn: self.position.ply() + 1,
            to_act: seat_name(self.position.to_move()).to_string(),
            ..StatusLine::default()
        }
    }

    fn to_act(&self) -> Actor {
        if self.status.is_ongoing() {
            Actor::Seat(self.position.to_move())
        } else {
            Actor::Nobody
        }
    }

    fn result(&self) -> Option<(String, String)> {
        match &self.status {
            Status::Won { winner, reason } => {
                Some((format!("{} wins", seat_name(*winner)), reason.to_string()))
            }
            Status::Drawn { reason } => Some(("Draw".to_string(), reason.to_string())),
            Status::Ongoing => None,
        }
    }

    fn gestures(&self) -> Vec<(Gesture, Move)> {
        if !self.status.is_ongoing() {
            return Vec::new();
        }
        self.position
            .legal_moves()
            .iter()
            .map(|&mv| (self.gesture(mv), mv))
            .collect()
    }

    fn matching(&self, gesture: &Gesture) -> Vec<(Gesture, Move)> {
        // One move at most has a gesture's places: no need to list every legal move.
        let Some(mv) = self.shape(gesture) else {
            return Vec::new();
        };
        let made = self.gesture(mv);
        if made.lifted != gesture.lifted || made.placed != gesture.placed {
            return Vec::new();
        }
        if !self.status.is_ongoing() || self.position.check(&mv).is_err() {
            return Vec::new();
        }
        vec![(made, mv)]
    }

    fn in_hand(&self, place: &Place) -> bool {
        // Any piece of the side to move: whether it can move is the table's to find out only
        // by trying.
        square(place).and_then(|s| self.owner(s)) == Some(self.position.to_move())
    }

    fn choices(&self) -> Vec<(String, Move)> {
        Vec::new()
    }

    fn fits_tags(&self, action: &Move, tags: &[(Place, TagUid)], registry: &TagRegistry) -> bool {
        // The last tag read on the target names the piece that stands there now.
        let Some((_, uid)) = tags.iter().rev().find(|(p, _)| *p == place(action.to)) else {
            return true;
        };
        match (registry.get(uid), self.position.piece_at(action.from)) {
            (Some(read), Some(expected)) => read == expected,
            _ => true,
        }
    }

    fn held(&self, action: &Move) -> bool {
        self.position.piece_at(action.to).is_some()
    }

    fn shaped(&self, gesture: &Gesture) -> Vec<Move> {
        self.shape(gesture).into_iter().collect()
    }

    fn check(&self, action: &Move) -> Result<(), String> {
        self.position
            .check(action)
            .map_err(|reason| public_reason(&self.position, action, &reason))
    }

    fn insists(&self, action: &Move) -> bool {
        matches!(
            self.position.check(action),
            Err(Illegal::TwoSquares(_) | Illegal::MoreSquares)
        )
    }

    fn play(&mut self, action: &Move) -> Screen {
        let outcome = self.position.play_unchecked(action);
        self.status = self.position.status();
        self.last = Some(outcome);
        match outcome {
            Outcome::Moved(mv) => Screen::MoveAccepted {
                status: self.status_line(),
                mv: mv.to_string(),
                places: Default::default(),
            },
            Outcome::Battle(battle) => battle_screen(&battle),
        }
    }

    fn acted(&self, action: &Move, after: &Self) -> Decision {
        match after.last {
            Some(Outcome::Battle(battle)) => Decision::Battle(battle),
            _ => Decision::Moved {
                seat: self.position.to_move(),
                mv: *action,
            },
        }
    }

    fn revealed(&self, action: &Move) -> String {
        let named = |s: Square| {
            self.position
                .piece_at(s)
                .map(|p| format!("{} {}", seat_name(p.owner), p.rank))
        };
        match (named(action.from), named(action.to)) {
            (Some(a), Some(d)) => format!("{a} on {} attacks {d} on {}", action.from, action.to),
            (Some(a), None) => format!("{a} {action}"),
            _ => action.to_string(),
        }
    }

    fn told(&self) -> Vec<String> {
        match self.last {
            Some(Outcome::Battle(battle)) => vec![battle.to_string()],
            _ => Vec::new(),
        }
    }

    fn umpire_board(&self) -> BTreeMap<Place, Named> {
        self.position
            .pieces()
            .map(|(s, p)| {
                let owner = if p.owner == RED { 'r' } else { 'b' };
                let named = Named {
                    code: format!("{owner}{}", p.rank.to_char()),
                    name: format!("{} {}", seat_name(p.owner), p.rank),
                };
                (place(s), named)
            })
            .collect()
    }

    fn army_words(choice: StrategoChoice, seat: Seat, army: &Deployment) -> Vec<String> {
        army.to_text(choice.options.variant, seat)
            .lines()
            .map(str::to_string)
            .collect()
    }

    fn chance(&self) -> Vec<(Move, u32)> {
        Vec::new()
    }

    fn die_button(&self) -> bool {
        false
    }

    fn label(&self, action: &Move) -> String {
        action.to_string()
    }

    fn label_places(&self, action: &Move) -> crate::ui::Places {
        crate::ui::Places {
            moved: vec![place(action.from), place(action.to)],
            ..crate::ui::Places::default()
        }
    }

    fn prompt(&self) -> String {
        format!("{} to move", seat_name(self.position.to_move()))
    }

    fn turn_key(&self) -> u32 {
        self.position.ply()
    }

    fn seat_board(&self, seat: Seat) -> BTreeMap<Place, String> {
        self.position
            .pieces()
            .map(|(s, p)| {
                let name = if p.owner == seat {
                    format!("{} {}", seat_name(p.owner), p.rank)
                } else {
                    self.public_piece(s)
                };
                (place(s), name)
            })
            .collect()
    }

    fn sides(&self) -> BTreeMap<Place, Seat> {
        self.position
            .pieces()
            .map(|(s, p)| (place(s), p.owner))
            .collect()
    }

    fn sample_groups(
        choice: StrategoChoice,
        seat: Seat,
        roll: &mut dyn FnMut(u32) -> u32,
    ) -> Option<Vec<Vec<Place>>> {
        let variant = choice.options.variant;
        let deployment = Deployment::shuffled(variant, seat, |n| {
            usize::try_from(roll(u32::try_from(n).unwrap_or(u32::MAX))).unwrap_or(0)
        });
        Some(
            rank_groups(variant)
                .into_iter()
                .map(|rank| {
                    deployment
                        .placements
                        .iter()
                        .filter(|(_, r)| *r == rank)
                        .map(|(s, _)| place(*s))
                        .collect()
                })
                .collect(),
        )
    }
}
