//! Piecepack at Waterloo at the table: the rules of [`boards::piecepack`] played through the
//! generic [`Session`](crate::referee::table::Session).
//!
//! # The table
//! The 8x10 map is a grid of sensed squares named as the rulebook names them, row letter then
//! column number (`e4` is the rulebook's E-4): [`LayoutSetup::grid`]`(8, 10)`, one cell per
//! square. Beside it, five *Prussian staging slots* ([`TrayKind::PrussianStaging`] of the
//! Allies) hold the waiting black pieces: which slot holds which Prussian is set up behind the
//! screen, so the French learn a Prussian's value only in combat, and an entry is a slide from
//! a slot. The objective coins and the turn marker carry no magnet (they are not sensed; the
//! status line keeps the turn). Eliminated pieces leave the table.
//!
//! Pieces sharing a square are **stacked**: coins in a pile in the order they arrived, the pawn
//! standing on top (a coin joining a stack goes under the pawn). The rules keep each square's
//! pieces in arrival order, so the table derives the physical order of every stack from the
//! position; its own bookkeeping is only which slot holds which waiting Prussian.
//!
//! # Set-up
//! One group per piece, in the rulebook's order ([`set_up_pieces`]): the Allies first set aside the five black
//! pieces on the staging slots, place the garrison in Hougoumont, then the other six red
//! pieces; then the French, the Guard first. Each group names the piece for its owner behind
//! the screen, and where the rules let it go ("Allies: place Wellington (Red Pawn) on or next
//! to Hougoumont (e4) or La Haye Sainte (g3), then press OK"). A piece put onto a piece
//! already placed counts once that square is lifted and put back during the step. Each piece is
//! judged the moment it goes down, alone and beside the pieces placed before it
//! ([`TableGame::may_place_among`]: a stack over its limits, a French piece next to an Allied
//! one, two Prussians on one slot), and refused with the fix naming the square and the
//! player's own piece; taken off a stack and put on a free square, it counts there. Each army
//! is still checked alone ([`TableGame::army`]), then both by the rules
//! ([`TableGame::start`]), every problem with its fix.
//!
//! # Gestures
//! Reed switches see a square, not a piece: taking a coin off a stack leaves the square
//! occupied, and a coin put onto a stack closes no switch. So:
//! - **Move to an empty square**: lift the piece and put it down there. From a stack, take the
//!   piece off (the square stays occupied) or lift the whole stack, put the moving piece down
//!   and the rest back; the umpire then knows the destination only, and when several pieces
//!   could have made the move it asks which, in a menu of public labels.
//! - **Move onto a friendly square** (joining a stack): lift your piece *and* the pieces it
//!   joins, and put them down together. Lifting two of your own squares in movement means
//!   nothing else; when either square's pieces could have joined the other's, as the table
//!   sees the coins (a coin that could be cavalry could come from two squares away), the
//!   umpire asks which.
//! - **Designate an attack** (the rulebook's "pointing the line on each piece"): lift the
//!   attacking piece and the enemy piece it attacks, then put both back; or lift and put back
//!   the attacker, then lift the target. A stack of attackers asks which of them.
//! - **Retreat** (the victor moves the loser), **advance** and **Prussian entry** are the same
//!   slides as a move, checked by the rules: a wrong retreat is refused with the fix.
//! - **Buttons**: OK opens the menu of what is taken by button: end of movement, the next
//!   attack to resolve, the elimination, no advance, end of reinforcement, designations
//!   (besides their gesture) and, when dice are due, the six faces of a physical piecepack
//!   die. The Die button rolls the combat die for the side whose die is due.
//!
//! # With NFC
//! Each piece's tag is learned as its group is placed ([`TableGame::army_tagged`]) and
//! journaled with the army. In play, a gesture that could be several pieces' moves is
//! narrowed to the piece whose tag was read on the square it arrived on, so a coin taken off
//! a stack needs no menu; where no registered tag was read the menu asks as without NFC.
//!
//! # Public labels
//! The OLED faces both players. A piece is named by where it stands, never by its value
//! until combat revealed it: `e4 top coin`, `e4 bottom coin`, `e4 coin` (the only coin
//! there), a pawn by its leader (`e4 Wellington`: pawns are known by colour), a Prussian by
//! its slot (`Prussian slot 2`). A coin in the combat being fought is named by its face
//! (`e4 Red Star 2`); once that combat is over it is a coin again (the rulebook lets enemy
//! pieces be examined "only ... during combat").
//! Menus list their entries in that public order (square, then top to bottom), never in an
//! order that follows the pieces' values. Refusals say why without naming a value ("no room
//! on e5: one regular coin, one symbol coin and one pawn per square"); that a move was refused
//! is itself public, as a referee's "no" is at any table. Combat reveals its pieces, so the
//! combat, its dice, the elimination and the retreats name them.
//!
//! # Announcements
//! Each combat lists both sides' pieces and dice when it begins; each die as it is rolled;
//! the result with both totals ([`Screen::Battle`]); then what the victor must do ("the
//! French retreat the Red Pawn from e4 two squares"). The status line carries the turn of the
//! track, the side to act and the phase.

use std::collections::BTreeMap;

use boards::geometry::grid::Cell;
use boards::piecepack::{
    side_name, Action, Combat, EliminationLimit, Event, Face, Illegal, Options, Phase, Position,
    Setup, SetupProblem, Square, Suit, Unit, ALLIES, FRENCH,
};
use boards::{Actor, BySeat, Game, Seat, Status};
use serde::{Deserialize, Serialize};

use crate::referee::table::{Gesture, Group, Named, Placing, TableGame};
use crate::referee::tags::TagRegistry;
use crate::sensing::{LayoutSetup, Place, TagUid, TrayKind};
use crate::ui::{Screen, StatusLine};

/// The game's name on the menu.
pub const TITLE: &str = "Piecepack at Waterloo";

/// How many Prussian staging slots the table has: one per black piece.
pub const STAGING_SLOTS: u8 = 5;

/// The variants on the menu: the rules as written, and the worked example's dice.
pub fn variants() -> Vec<(String, Options)> {
    vec![
        ("Rules as written".to_string(), Options::STANDARD),
        ("Extra dice only".to_string(), Options::WORKED_EXAMPLE),
    ]
}

/// The sensed place of a map square: `e4` is the rulebook's E-4.
pub fn place(square: Square) -> Place {
    Place::Square(Cell::new(square.row(), square.col()))
}

/// The map square a place senses, if it is one.
pub fn square_of(place: &Place) -> Option<Square> {
    match place {
        Place::Square(cell) => Square::new(cell.col, cell.row),
        Place::Tray { .. } => None,
    }
}

/// Prussian staging slot `slot` (from 0).
pub fn staging_slot(slot: u8) -> Place {
    Place::Tray {
        tray: TrayKind::PrussianStaging,
        seat: ALLIES,
        slot,
    }
}

fn slot_of(place: &Place) -> Option<u8> {
    match *place {
        Place::Tray {
            tray: TrayKind::PrussianStaging,
            seat,
            slot,
        } if seat == ALLIES && slot < STAGING_SLOTS => Some(slot),
        _ => None,
    }
}

/// One side's set-up as the groups placed it. Journaled.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Army {
    /// The pieces on the map, in the order they were placed (the order of each stack).
    pub placed: Vec<(Unit, Square)>,
    /// The Prussians set aside, each on its staging slot (the Allies only).
    pub staged: Vec<(Unit, u8)>,
    /// With NFC: each piece's tag, as read while its group was placed.
    pub tags: Vec<(Unit, TagUid)>,
}

/// The Allies' groups: "set aside the five black pieces ... Place the Red star symbol in
/// Hougoumont. Place the other six red pieces".
const ALLIED_ORDER: [Unit; 12] = [
    Unit::Blucher,
    Unit::Bulow,
    Unit::Pirch,
    Unit::Steinmetz,
    Unit::PrussianCavalry,
    Unit::HougoumontGarrison,
    Unit::Wellington,
    Unit::Cooke,
    Unit::Picton,
    Unit::Clinton,
    Unit::DutchBelgians,
    Unit::Uxbridge,
];

/// The French groups, in the order of battle.
const FRENCH_ORDER: [Unit; 11] = [
    Unit::Napoleon,
    Unit::OldGuard,
    Unit::YoungGuard,
    Unit::GuardCavalry,
    Unit::GuardArtillery,
    Unit::Ney,
    Unit::DErlon,
    Unit::Lobau,
    Unit::Reille,
    Unit::IICorps,
    Unit::FrenchCavalry,
];

/// `seat`'s pieces in the order the set-up asks for them, one group each: for the Allies the
/// five Prussians (each onto a staging slot), the Hougoumont garrison, then the other six red
/// pieces; for the French the order of battle, the Guard first.
pub fn set_up_pieces(seat: Seat) -> &'static [Unit] {
    if seat == ALLIES {
        &ALLIED_ORDER
    } else {
        &FRENCH_ORDER
    }
}

/// A short name from the order of battle.
fn short_name(unit: Unit) -> &'static str {
    match unit {
        Unit::Wellington => "Wellington",
        Unit::Cooke => "Cooke and Alten",
        Unit::Picton => "Picton",
        Unit::Clinton => "Clinton",
        Unit::DutchBelgians => "Dutch-Belgians",
        Unit::Uxbridge => "Uxbridge's cavalry",
        Unit::HougoumontGarrison => "Hougoumont garrison",
        Unit::Blucher => "Blucher",
        Unit::Bulow => "Bulow",
        Unit::Pirch => "Pirch",
        Unit::Steinmetz => "Steinmetz",
        Unit::PrussianCavalry => "Prussian cavalry",
        Unit::Napoleon => "Napoleon",
        Unit::OldGuard => "Old Guard",
        Unit::YoungGuard => "Young Guard",
        Unit::GuardCavalry => "Guard cavalry",
        Unit::GuardArtillery => "Guard artillery",
        Unit::Ney => "Ney",
        Unit::DErlon => "D'Erlon",
        Unit::Lobau => "Lobau",
        Unit::Reille => "Reille",
        Unit::IICorps => "II Corps",
        Unit::FrenchCavalry => "Cavalry corps",
    }
}

/// The piece as its owner knows it: "Wellington (Red Pawn)". Behind the screen only.
fn owner_name(unit: Unit) -> String {
    format!("{} ({})", short_name(unit), unit.piece_name())
}

/// "a10, b10, c10 and d10".
fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The set-up problem in the table's words, with its fix.
fn problem_text(options: &Options, problem: &SetupProblem) -> String {
    let at = |s: &Square| place(*s).to_string();
    let layout = &options.layout;
    match problem {
        SetupProblem::Layout(_) | SetupProblem::PrussianTurn(_) => problem.to_string(),
        SetupProblem::WrongSide(u) => format!(
            "{} belongs to the {}: leave it to them",
            owner_name(*u),
            side_name(u.side())
        ),
        SetupProblem::Twice(u) => format!("{} is placed twice: place it once", owner_name(*u)),
        SetupProblem::Missing(u) => format!("{} is not placed: place it", owner_name(*u)),
        SetupProblem::PrussianPlaced(u) => format!(
            "{} is Prussian: set it aside on a Prussian slot, it arrives later",
            owner_name(*u)
        ),
        SetupProblem::GarrisonOutside(s) => format!(
            "the Hougoumont garrison is on {}: place it in Hougoumont, {}",
            at(s),
            at(&layout.hougoumont)
        ),
        SetupProblem::FarFromStrongpoints(u, s) => format!(
            "{} on {} is too far: place it on or next to Hougoumont ({}) or La Haye Sainte ({})",
            owner_name(*u),
            at(s),
            at(&layout.hougoumont),
            at(&layout.la_haye_sainte)
        ),
        SetupProblem::FarFromPlancenoit(u, s) => format!(
            "{} on {} is too far: place it within two squares of Plancenoit ({})",
            owner_name(*u),
            at(s),
            at(&layout.plancenoit)
        ),
        SetupProblem::NextToAllies(u, s) => format!(
            "{} on {} is next to an Allied piece: move it away",
            owner_name(*u),
            at(s)
        ),
        SetupProblem::OnAllies(u, s) => format!(
            "{} on {} shares the square with Allied pieces: move it",
            owner_name(*u),
            at(s)
        ),
        SetupProblem::Stacking(s, _) => format!(
            "{}: too many pieces: one regular coin, one symbol coin and one pawn per square",
            at(s)
        ),
    }
}

/// Every Prussian on its own staging slot, and nothing else on the slots.
/// Where a set-up piece stands: on the map, or (a Prussian) on a Prussian slot.
enum Stand {
    Map(Square),
    Slot(u8),
}

/// Where `unit` may be set up on `at`.
///
/// # Errors
/// A Prussian on the map or a piece of the map on a slot, with the fix.
fn stands_on(unit: Unit, at: &Place) -> Result<Stand, String> {
    match (unit.is_prussian(), square_of(at), slot_of(at)) {
        (false, Some(s), _) => Ok(Stand::Map(s)),
        (true, _, Some(slot)) => Ok(Stand::Slot(slot)),
        (true, _, None) => Err(format!(
            "{} is on {}: Prussians wait off the map, on a Prussian slot",
            owner_name(unit),
            PiecepackTable::place_words(at)
        )),
        (false, None, _) => Err(format!(
            "{} is on {}: place it on the map",
            owner_name(unit),
            PiecepackTable::place_words(at)
        )),
    }
}

fn check_staged(staged: &[(Unit, u8)], problems: &mut Vec<String>) {
    let mut slots: BTreeMap<u8, Unit> = BTreeMap::new();
    for &(unit, slot) in staged {
        if !unit.is_prussian() {
            problems.push(format!(
                "{} is on a Prussian slot: place it on the map",
                owner_name(unit)
            ));
        } else if slot >= STAGING_SLOTS {
            problems.push(format!(
                "{} is on Prussian slot {}: there are {STAGING_SLOTS}",
                owner_name(unit),
                u16::from(slot) + 1
            ));
        } else if let Some(other) = slots.insert(slot, unit) {
            problems.push(format!(
                "{} shares Prussian slot {} with {}: give each its own slot",
                owner_name(unit),
                u16::from(slot) + 1,
                owner_name(other)
            ));
        }
    }
}

/// A game of Piecepack at Waterloo at the table: the rules' position, and which staging slot
/// holds each waiting Prussian. See the [module docs](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PiecepackTable {
    position: Position,
    /// The waiting Prussians' slots; a Prussian leaves its slot when it enters.
    staged: Vec<(Unit, u8)>,
    /// With NFC: the piece each tag was registered to in set-up.
    tags: BTreeMap<TagUid, Unit>,
    /// What the last action's announcement told the table besides its label (for the record).
    told: Vec<String>,
}

impl PiecepackTable {
    /// The rules' position (every secret: the umpire's eyes only).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The staging slot of a waiting Prussian.
    pub fn slot(&self, unit: Unit) -> Option<u8> {
        self.staged
            .iter()
            .find(|(u, _)| *u == unit)
            .map(|&(_, slot)| slot)
    }

    /// The pieces on `square` as they stand: coins bottom first in the order they arrived,
    /// then the pawn on top.
    pub fn stack(&self, square: Square) -> Vec<Unit> {
        self.pile(square).collect()
    }

    /// [`PiecepackTable::stack`] without collecting it.
    fn pile(&self, square: Square) -> impl Iterator<Item = Unit> + '_ {
        let coins = self.position.pieces_on(square).filter(|u| !u.is_leader());
        coins.chain(self.position.pieces_on(square).filter(|u| u.is_leader()))
    }

    /// Where `unit` physically stands: its square or its staging slot.
    pub fn place_of(&self, unit: Unit) -> Option<Place> {
        match self.position.square_of(unit) {
            Some(s) => Some(place(s)),
            None => self.slot(unit).map(staging_slot),
        }
    }

    /// Whether the table may name `unit`'s value now: a leader always (pawns are known by
    /// colour), a coin only while the combat it fights in is being fought. The rulebook:
    /// "Players can examine their own pieces at any time, but can only examine enemy pieces
    /// during combat", so once the combat is over its coins are symbol side up again, and no
    /// screen (a difference, a hand step, a menu) names their values.
    fn shown(&self, unit: Unit) -> bool {
        unit.is_leader()
            || self
                .position
                .combat()
                .is_some_and(|c| c.attackers.contains(unit) || c.defenders.contains(unit))
    }

    /// What the whole table may call the piece: a leader by name, a coin by its face while
    /// its combat is fought, else by its suit.
    fn public_name(&self, unit: Unit) -> &'static str {
        if unit.is_leader() {
            short_name(unit)
        } else if self.shown(unit) {
            unit.piece_name()
        } else {
            match unit.suit() {
                Suit::RedStar => "Red Star coin",
                Suit::BlackMoon => "Black Moon coin",
                Suit::GreenCrown => "Green Crown coin",
                Suit::BlueFleur => "Blue Fleur coin",
            }
        }
    }

    /// The piece by where it stands, in words the table may read: "e4 top coin",
    /// "e4 Wellington", "Prussian slot 2 coin".
    fn origin(&self, unit: Unit) -> String {
        let name = |u: Unit| {
            if self.shown(u) {
                self.public_name(u)
            } else {
                "coin"
            }
        };
        if let Some(s) = self.position.square_of(unit) {
            let coins: Vec<Unit> = self
                .stack(s)
                .into_iter()
                .filter(|u| !u.is_leader())
                .collect();
            let position = match coins.iter().position(|&u| u == unit) {
                Some(i) if coins.len() > 1 => {
                    if i + 1 == coins.len() {
                        "top "
                    } else {
                        "bottom "
                    }
                }
                _ => "",
            };
            return format!("{} {position}{}", place(s), name(unit));
        }
        match self.slot(unit) {
            Some(slot) => format!("Prussian slot {} {}", u16::from(slot) + 1, name(unit)),
            None => self.public_name(unit).to_string(),
        }
    }

    /// The piece as the hands see it: a pawn by its colour ("Red Pawn"), a coin as
    /// [`PiecepackTable::public_name`] says.
    fn physical_name(&self, unit: Unit) -> &'static str {
        if unit.is_leader() {
            unit.piece_name()
        } else {
            self.public_name(unit)
        }
    }

    /// The pieces on `square` in public words, bottom first ("Red Star coin and Red Pawn").
    fn describe(&self, square: Square) -> String {
        let count = self.position.pieces_on(square).count();
        let mut out = String::new();
        for (i, u) in self.pile(square).enumerate() {
            if i > 0 {
                out.push_str(if i + 1 == count { " and " } else { ", " });
            }
            out.push_str(self.physical_name(u));
        }
        out
    }

    /// The order a menu lists an action in: by where its piece stands, top of a stack first,
    /// then where it goes. Public, so the order tells nothing of a value.
    fn public_key(&self, action: &Action) -> (Option<Place>, usize, Option<Place>) {
        let depth = |u: Unit| {
            self.position
                .square_of(u)
                .map(|s| {
                    let height = self.position.pieces_on(s).count();
                    height - self.pile(s).position(|x| x == u).unwrap_or(0)
                })
                .unwrap_or(0)
        };
        match *action {
            Action::Move { unit, to }
            | Action::Retreat { unit, to }
            | Action::Designate { unit, target: to }
            | Action::Enter { unit, at: to } => (self.place_of(unit), depth(unit), Some(place(to))),
            Action::Advance(Some(unit)) | Action::Eliminate(Some(unit)) => {
                (self.place_of(unit), depth(unit), None)
            }
            Action::Resolve { target } => (Some(place(target)), 0, None),
            _ => (None, usize::MAX, None),
        }
    }

    /// The ways the hands move `unit` from where it stands to `to`.
    fn relocations(&self, unit: Unit, to: Square) -> Vec<Gesture> {
        let Some(from) = self.place_of(unit) else {
            return Vec::new();
        };
        let to_place = place(to);
        let alone = match self.position.square_of(unit) {
            Some(s) => self.position.pieces_on(s).count() == 1,
            None => true,
        };
        if self.position.pieces_on(to).next().is_some() {
            // Joining pieces already there: lift both and put them down together.
            vec![Gesture::lift_two(from, to_place)]
        } else if alone {
            vec![Gesture::slide(from, to_place)]
        } else {
            // From a stack: the piece taken off (the square stays occupied), or the whole
            // stack lifted, the piece put down and the rest still in hand.
            vec![
                Gesture {
                    lifted: Vec::new(),
                    placed: vec![to_place],
                    selected: None,
                },
                Gesture::slide(from, to_place),
            ]
        }
    }

    /// Which die is next in the combat: (side, number from 1, of how many).
    fn next_die(&self) -> Option<(Seat, u8, u8)> {
        let c = self.position.combat()?;
        let rolled = c.rolls.len();
        let attacker_dice = usize::from(c.dice[0]);
        if rolled < attacker_dice {
            Some((c.attacker, u8::try_from(rolled + 1).ok()?, c.dice[0]))
        } else {
            let k = u8::try_from(rolled - attacker_dice + 1).ok()?;
            Some((c.attacker.opponent(), k, c.dice[1]))
        }
    }

    /// The highest value the victor may eliminate, while an elimination waits.
    fn elimination_limit(&self) -> Option<u8> {
        let c = self.position.combat()?;
        let victor = c.victor?;
        let tallies = c.tallies();
        let win = &tallies[usize::from(victor != c.attacker)];
        match self.position.options().elimination_limit {
            EliminationLimit::HighestDie => win.highest_die,
            EliminationLimit::HighestResult => win.highest_result,
        }
    }

    /// What the side to act must do next, in public words.
    fn next_steps(&self) -> Vec<String> {
        let p = &self.position;
        let side = side_name(p.phasing_side());
        let actor = match p.to_act() {
            Actor::Seat(s) => side_name(s),
            Actor::Chance | Actor::Nobody => side,
        };
        match p.phase() {
            Phase::Movement => vec![
                format!("{side}: move a piece at a time; OK: end of movement"),
                "To stack two pieces, lift both".to_string(),
            ],
            Phase::Designation => {
                let n = p.undesignated().len();
                vec![format!(
                    "{side}: {n} must attack: lift each with its target, put both back"
                )]
            }
            Phase::Resolution => vec![format!(
                "{side}: OK: choose the attack to resolve ({} left)",
                p.pending_attacks().len()
            )],
            Phase::Rolling => match self.next_die() {
                Some((s, k, n)) => vec![format!(
                    "Die: roll {} die {k} of {n}; or OK: enter a die",
                    side_name(s)
                )],
                None => Vec::new(),
            },
            Phase::Elimination => {
                let limit = self.elimination_limit().unwrap_or(0);
                vec![format!(
                    "{actor}: OK: eliminate a losing piece worth {limit} or less, or none"
                )]
            }
            Phase::Retreat => {
                let Some(c) = p.combat() else {
                    return Vec::new();
                };
                c.retreating
                    .iter()
                    .filter_map(|u| {
                        let s = p.square_of(u)?;
                        Some(format!(
                            "the {actor} retreat {} from {} two squares",
                            self.public_name(u),
                            place(s)
                        ))
                    })
                    .collect()
            }
            Phase::Advance => {
                let target = p.combat().map(|c| place(c.target).to_string());
                vec![format!(
                    "{actor}: slide an attacker into {}, or OK: no advance",
                    target.unwrap_or_default()
                )]
            }
            Phase::Reinforcement => {
                let entries: Vec<String> = p
                    .layout()
                    .prussian_entry
                    .iter()
                    .map(|s| place(s).to_string())
                    .collect();
                vec![format!(
                    "Allies: slide Prussians onto {}; OK: done",
                    list(&entries)
                )]
            }
            Phase::Over => match self.result() {
                Some((winner, reason)) => vec![format!("{winner}: {reason}")],
                None => Vec::new(),
            },
        }
    }

    /// The rules' refusal in words the table may read: a piece not yet revealed is "that
    /// piece", and no reason tells its value.
    fn public_reason(&self, illegal: &Illegal) -> String {
        let at = |s: Square| place(s).to_string();
        let hidden_move = |s: Square| {
            format!(
                "that piece may not go to {}: too far, no way round the enemy, or no room (one \
                 regular coin, one symbol coin and one pawn per square)",
                at(s)
            )
        };
        match *illegal {
            Illegal::GameOver => "the game is over".to_string(),
            Illegal::WrongPhase(phase) => format!("not now: this is the {phase} phase"),
            Illegal::NotYours(_) => "that piece is the enemy's: use one of your own".to_string(),
            Illegal::OffMap(_) => "that piece is not on the map".to_string(),
            Illegal::AlreadyMoved(_) => {
                "that piece has moved already this turn: move another".to_string()
            }
            Illegal::Pinned(_) => {
                "that piece began the turn next to an enemy: only leaders may move away".to_string()
            }
            Illegal::SameSquare(s) => {
                format!(
                    "the piece is on {} already: put it on another square",
                    at(s)
                )
            }
            Illegal::EnemySquare(s) => format!(
                "enemy pieces stand on {}: never enter an enemy square (attacks are designated \
                 in the combat phase)",
                at(s)
            ),
            // A coin's reach is its value, which the table does not know: whether it is too
            // far, has no path or finds no room reads the same.
            Illegal::TooFar(u, s) | Illegal::NoPath(u, s) if !u.is_leader() => hidden_move(s),
            Illegal::NoRoom(s, _) => hidden_move(s),
            Illegal::TooFar(_, s) => format!("{} is out of that piece's reach", at(s)),
            Illegal::NoPath(_, s) => format!(
                "that piece cannot reach {}: it must stop next to an enemy and cannot pass \
                 enemy squares",
                at(s)
            ),
            Illegal::NotAttacking(_) => "that piece did not start the combat phase next to an \
                                         enemy: only those attack"
                .to_string(),
            Illegal::AlreadyDesignated(_) => {
                "that piece has its target already: point another".to_string()
            }
            Illegal::NotATarget(_, s) => {
                format!("{} is not an enemy square next to that piece", at(s))
            }
            Illegal::NoAttack(s) => format!("no attack on {} waits to be resolved", at(s)),
            Illegal::NotEliminable(u) => format!(
                "{} cannot be eliminated: choose a losing piece worth no more than the highest \
                 winning number, or none",
                self.public_name(u)
            ),
            Illegal::NotRetreating(u) => format!(
                "{} does not retreat: retreat a losing piece",
                self.public_name(u)
            ),
            Illegal::BadRetreat(u, s) => format!(
                "{} cannot retreat to {}: exactly two squares, not through or next to an enemy \
                 (a lone leader aside), onto a square with room",
                self.public_name(u),
                at(s)
            ),
            Illegal::NotAnAttacker(u) => format!(
                "{} did not attack here: advance an attacking piece, or none",
                self.public_name(u)
            ),
            Illegal::NotWaiting(u) => format!("{} is not a waiting Prussian", self.public_name(u)),
            Illegal::NotEntry(s) => {
                let entries: Vec<String> = self
                    .position
                    .layout()
                    .prussian_entry
                    .iter()
                    .map(|e| place(e).to_string())
                    .collect();
                format!(
                    "{} is not a Prussian entry square: use {}",
                    at(s),
                    list(&entries)
                )
            }
        }
    }

    /// One side of a combat: "French: Old Guard 5 ... (3 dice)".
    fn combat_side(&self, combat: &Combat, attacker: bool) -> String {
        let (seat, units, dice) = if attacker {
            (combat.attacker, combat.attackers, combat.dice[0])
        } else {
            (combat.attacker.opponent(), combat.defenders, combat.dice[1])
        };
        let names: Vec<&str> = units.iter().map(|u| self.public_name(u)).collect();
        let dice = if dice == 1 {
            "1 die".to_string()
        } else {
            format!("{dice} dice")
        };
        format!("{}: {} ({dice})", side_name(seat), names.join(", "))
    }

    /// A side's count: "French: 5 + dice 4 2 * = 16".
    fn tally_line(combat: &Combat, attacker: bool, total: u16) -> String {
        let (seat, units) = if attacker {
            (combat.attacker, combat.attackers)
        } else {
            (combat.attacker.opponent(), combat.defenders)
        };
        let values: Vec<String> = units
            .iter()
            .filter(|u| !u.is_leader())
            .map(|u| u.points().to_string())
            .collect();
        let dice: String = combat
            .dice_of(attacker)
            .iter()
            .map(|f| format!(" {}", f.to_char()))
            .collect();
        let values = if values.is_empty() {
            "0".to_string()
        } else {
            values.join(" ")
        };
        format!(
            "{}: {values} + dice{} = {total}",
            side_name(seat),
            if dice.is_empty() { " none" } else { &dice }
        )
    }

    fn objective_name(&self, square: Square) -> &'static str {
        let layout = self.position.layout();
        if square == layout.mont_st_jean {
            "Mont St Jean"
        } else if square == layout.plancenoit {
            "Plancenoit"
        } else if square == layout.hougoumont {
            "Hougoumont"
        } else {
            "La Haye Sainte"
        }
    }
}

impl PiecepackTable {
    /// A place as the players read it (the game's [`TableGame::place_name`], which needs no
    /// choice here).
    pub fn place_words(place: &Place) -> String {
        match slot_of(place) {
            Some(slot) => format!("Prussian slot {}", u16::from(slot) + 1),
            None => place.to_string(),
        }
    }
}

impl TableGame for PiecepackTable {
    type Choice = Options;
    type Action = Action;
    type Army = Army;

    fn title(_choice: Options) -> String {
        TITLE.to_string()
    }

    fn layout(_choice: Options) -> LayoutSetup {
        LayoutSetup::grid(8, 10).with_tray(TrayKind::PrussianStaging, ALLIES, STAGING_SLOTS)
    }

    /// The rulebook's worked-example deployment (legal on the standard layout), the Prussians
    /// on the staging slots in order; `roll` is not needed (one set-up serves every demo).
    fn sample_groups(
        choice: Options,
        seat: Seat,
        _roll: &mut dyn FnMut(u32) -> u32,
    ) -> Option<Vec<Vec<Place>>> {
        if choice.layout != Options::STANDARD.layout {
            return None;
        }
        let example = Setup::example();
        let placed = if seat == ALLIES {
            example.allies
        } else {
            example.french
        };
        let mut slot = 0u8;
        set_up_pieces(seat)
            .iter()
            .map(|&unit| {
                if unit.is_prussian() {
                    let at = staging_slot(slot);
                    slot = slot.saturating_add(1);
                    Some(vec![at])
                } else {
                    placed
                        .iter()
                        .find(|(u, _)| *u == unit)
                        .map(|&(_, s)| vec![place(s)])
                }
            })
            .collect()
    }

    fn setup_order(_choice: Options) -> [Seat; 2] {
        // "Allies deploy first ... French deploy second".
        [ALLIES, FRENCH]
    }

    fn seat_name(seat: Seat) -> &'static str {
        side_name(seat)
    }

    /// A square as the rulebook names it (`e4`), a staging slot as the labels name it
    /// (`Prussian slot 2`): the sensing layer's "seat 2" means nothing at the table.
    fn place_name(_choice: Options, place: &Place) -> String {
        Self::place_words(place)
    }

    fn groups(choice: Options, seat: Seat) -> Vec<Group> {
        let layout = &choice.layout;
        let hougoumont = place(layout.hougoumont);
        set_up_pieces(seat)
            .iter()
            .map(|&u| {
                // Where the piece may go, as the rules set each side up: said before it goes
                // down, not only in the refusal of a wrong square.
                let label = if u.is_prussian() {
                    format!("{} on a Prussian slot", owner_name(u))
                } else if u == Unit::HougoumontGarrison {
                    format!("{} in Hougoumont, {hougoumont}", owner_name(u))
                } else if u.side() == ALLIES {
                    format!(
                        "{} on or next to Hougoumont ({hougoumont}) or La Haye Sainte ({})",
                        owner_name(u),
                        place(layout.la_haye_sainte)
                    )
                } else {
                    format!(
                        "{} within 2 squares of Plancenoit ({}), not next to the Allies",
                        owner_name(u),
                        place(layout.plancenoit)
                    )
                };
                Group {
                    label,
                    count: 1,
                    min: 1,
                    counted: true,
                }
            })
            .collect()
    }

    fn may_place(choice: Options, seat: Seat, group: usize, at: &Place) -> Result<(), String> {
        let Some(&unit) = set_up_pieces(seat).get(group) else {
            return Ok(());
        };
        let Stand::Map(square) = stands_on(unit, at)? else {
            return Ok(());
        };
        // The rules' problems of this one piece where it stands (the garrison outside
        // Hougoumont, a piece too far from its strongpoints); those between pieces (stacking,
        // next to the enemy) are `may_place_among`'s.
        let one = vec![(unit, square)];
        let setup = if seat == ALLIES {
            Setup {
                allies: one,
                french: Vec::new(),
            }
        } else {
            Setup {
                allies: Vec::new(),
                french: one,
            }
        };
        let Err(found) = Position::start(choice, setup) else {
            return Ok(());
        };
        let mine = found.as_slice().iter().find(|p| match p {
            SetupProblem::GarrisonOutside(s) => *s == square,
            SetupProblem::FarFromStrongpoints(u, s) | SetupProblem::FarFromPlancenoit(u, s) => {
                *u == unit && *s == square
            }
            _ => false,
        });
        match mine {
            Some(problem) => Err(problem_text(&choice, problem)),
            None => Ok(()),
        }
    }

    /// The piece alone ([`TableGame::may_place`]), then beside what went down before it: a
    /// Prussian on a slot another holds; on the map, whatever the rules' set-up check finds
    /// with the piece that it did not find without it (a stack over its limits, a French piece
    /// on or next to an Allied one), so the piece that joins is refused, never one standing.
    fn may_place_among(choice: Options, at: &Placing<'_, PiecepackTable>) -> Result<(), String> {
        Self::may_place(choice, at.seat, at.group, at.place)?;
        let order = set_up_pieces(at.seat);
        let Some(&unit) = order.get(at.group) else {
            return Ok(());
        };
        let before = at
            .earlier
            .iter()
            .filter_map(|(g, p)| order.get(*g).map(|&u| (u, p)));
        if let Some(slot) = slot_of(at.place) {
            return match before
                .clone()
                .find(|(u, p)| slot_of(p) == Some(slot) && *u != unit)
            {
                Some((other, _)) => Err(format!(
                    "{} shares Prussian slot {} with {}: put it on a free slot",
                    owner_name(unit),
                    u16::from(slot) + 1,
                    owner_name(other)
                )),
                None => Ok(()),
            };
        }
        let Some(square) = square_of(at.place) else {
            return Ok(());
        };
        let mut mine: Vec<(Unit, Square)> = before
            .filter(|(u, _)| !u.is_prussian() && *u != unit)
            .filter_map(|(u, p)| square_of(p).map(|s| (u, s)))
            .collect();
        let enemy: Vec<(Unit, Square)> = at.armies[at.seat.opponent()]
            .as_ref()
            .map(|a| a.placed.clone())
            .unwrap_or_default();
        let found = |mine: Vec<(Unit, Square)>| {
            let (allies, french) = if at.seat == ALLIES {
                (mine, enemy.clone())
            } else {
                (enemy.clone(), mine)
            };
            match Position::start(choice, Setup { allies, french }) {
                Ok(_) => Vec::new(),
                Err(problems) => problems.0,
            }
        };
        let without = found(mine.clone());
        mine.push((unit, square));
        let with = found(mine);
        let Some(problem) = with.iter().find(|p| !without.contains(p)) else {
            return Ok(());
        };
        Err(match problem {
            SetupProblem::Stacking(..) => format!(
                "no room on {} for {}: move it (one regular coin, one symbol coin, one pawn a \
                 square)",
                place(square),
                owner_name(unit)
            ),
            SetupProblem::NextToAllies(..) => {
                // Where the Allied pieces stand is public; what they are is not.
                let mut next: Vec<String> = enemy
                    .iter()
                    .filter(|(_, s)| s.steps(square, choice.diagonals) == 1)
                    .map(|(_, s)| place(*s).to_string())
                    .collect();
                next.sort();
                next.dedup();
                format!(
                    "{} on {} is next to the Allied piece on {}: move it away",
                    owner_name(unit),
                    place(square),
                    list(&next)
                )
            }
            other => problem_text(&choice, other),
        })
    }

    fn army(choice: Options, seat: Seat, filled: &[Vec<Place>]) -> Result<Army, Vec<String>> {
        let order = set_up_pieces(seat);
        let mut problems = Vec::new();
        if filled.len() != order.len() {
            problems.push(format!(
                "{} of {} pieces placed: place each piece, then press OK",
                filled.len(),
                order.len()
            ));
        }
        let mut army = Army::default();
        for (&unit, places) in order.iter().zip(filled) {
            let [at] = places.as_slice() else {
                problems.push(format!(
                    "{} took {} places: place it on one",
                    owner_name(unit),
                    places.len()
                ));
                continue;
            };
            match stands_on(unit, at) {
                Ok(Stand::Map(s)) => army.placed.push((unit, s)),
                Ok(Stand::Slot(slot)) => army.staged.push((unit, slot)),
                Err(problem) => problems.push(problem),
            }
        }
        check_staged(&army.staged, &mut problems);
        // The rules, this side alone: the other side's pieces are not placed yet, and a piece
        // whose place was wrong is reported above.
        let setup = if seat == ALLIES {
            Setup {
                allies: army.placed.clone(),
                french: Vec::new(),
            }
        } else {
            Setup {
                allies: Vec::new(),
                french: army.placed.clone(),
            }
        };
        if let Err(found) = Position::start(choice, setup) {
            problems.extend(
                found
                    .as_slice()
                    .iter()
                    .filter(|p| !matches!(p, SetupProblem::Missing(_)))
                    .map(|p| problem_text(&choice, p)),
            );
        }
        if problems.is_empty() {
            Ok(army)
        } else {
            Err(problems)
        }
    }

    /// Each piece's tag is the first tag read on its place while its group was placed that
    /// no earlier piece of the army has: a piece put on a stack may be read with those under
    /// it.
    fn army_tagged(
        choice: Options,
        seat: Seat,
        filled: &[Vec<Place>],
        tags: &[Vec<TagUid>],
    ) -> Result<Army, Vec<String>> {
        let mut army = Self::army(choice, seat, filled)?;
        for (&unit, read) in set_up_pieces(seat).iter().zip(tags) {
            let new = read
                .iter()
                .find(|uid| army.tags.iter().all(|(_, known)| known != *uid));
            if let Some(&uid) = new {
                army.tags.push((unit, uid));
            }
        }
        Ok(army)
    }

    fn start(choice: Options, armies: &BySeat<Army>) -> Result<PiecepackTable, Vec<String>> {
        let mut problems = Vec::new();
        let staged = armies[ALLIES].staged.clone();
        check_staged(&staged, &mut problems);
        if !armies[FRENCH].staged.is_empty() {
            problems
                .push("the French have no Prussian slots: place their pieces on the map".into());
        }
        for u in Unit::ALL.into_iter().filter(|u| u.is_prussian()) {
            if !staged.iter().any(|(s, _)| *s == u) {
                problems.push(format!(
                    "{} is not set aside: place it on a Prussian slot",
                    owner_name(u)
                ));
            }
        }
        let setup = Setup {
            allies: armies[ALLIES].placed.clone(),
            french: armies[FRENCH].placed.clone(),
        };
        // A tag read for two pieces identifies neither.
        let mut tags: BTreeMap<TagUid, Unit> = BTreeMap::new();
        let mut doubtful = Vec::new();
        for &(unit, uid) in armies[ALLIES].tags.iter().chain(&armies[FRENCH].tags) {
            if tags.insert(uid, unit).is_some() {
                doubtful.push(uid);
            }
        }
        for uid in doubtful {
            tags.remove(&uid);
        }
        match Position::start(choice, setup) {
            Ok(position) if problems.is_empty() => Ok(PiecepackTable {
                position,
                staged,
                tags,
                told: Vec::new(),
            }),
            Ok(_) => Err(problems),
            Err(found) => {
                problems.extend(found.as_slice().iter().map(|p| problem_text(&choice, p)));
                Err(problems)
            }
        }
    }

    fn board(&self) -> BTreeMap<Place, String> {
        let mut out: BTreeMap<Place, String> = Square::all()
            .filter(|&s| self.position.pieces_on(s).next().is_some())
            .map(|s| (place(s), self.describe(s)))
            .collect();
        for &(u, slot) in &self.staged {
            out.insert(staging_slot(slot), self.physical_name(u).to_string());
        }
        out
    }

    /// `seat`'s own pieces by name ("Wellington (Red Pawn)"), the enemy's as the table sees them.
    fn seat_board(&self, seat: Seat) -> BTreeMap<Place, String> {
        let name = |u: Unit| {
            if u.side() == seat {
                owner_name(u)
            } else {
                self.physical_name(u).to_string()
            }
        };
        let mut out: BTreeMap<Place, String> = Square::all()
            .filter(|&s| self.position.pieces_on(s).next().is_some())
            .map(|s| {
                let names: Vec<String> = self.pile(s).map(name).collect();
                (place(s), names.join(", "))
            })
            .collect();
        for &(u, slot) in &self.staged {
            out.insert(staging_slot(slot), name(u));
        }
        out
    }

    /// A square's pieces are one side's (a stack of both sides has no one side: left out).
    fn sides(&self) -> BTreeMap<Place, Seat> {
        let mut out = BTreeMap::new();
        for s in Square::all() {
            let mut sides = self.pile(s).map(Unit::side);
            if let Some(first) = sides.next() {
                if sides.all(|other| other == first) {
                    out.insert(place(s), first);
                }
            }
        }
        for &(u, slot) in &self.staged {
            out.insert(staging_slot(slot), u.side());
        }
        out
    }

    fn status_line(&self) -> StatusLine {
        let p = &self.position;
        let word = match p.phase() {
            Phase::Movement => "move",
            Phase::Designation => "attacks",
            Phase::Resolution => "combat",
            Phase::Rolling => "dice",
            Phase::Elimination => "eliminate",
            Phase::Retreat => "retreat",
            Phase::Advance => "advance",
            Phase::Reinforcement => "Prussians",
            Phase::Over => "game over",
        };
        let who = match (p.to_act(), self.next_die()) {
            (Actor::Seat(s), _) | (Actor::Chance, Some((s, _, _))) => side_name(s),
            _ => side_name(p.phasing_side()),
        };
        let to_act = if p.phase() == Phase::Over {
            word.to_string()
        } else {
            format!("{who} ({word})")
        };
        let from = p.options().prussians_from_turn;
        let reinforcements_in =
            (!p.waiting().is_empty() && p.turn() < from).then(|| from - p.turn());
        StatusLine {
            turn: u32::from(p.turn()),
            to_act,
            reinforcements_in,
            ..StatusLine::default()
        }
    }

    fn to_act(&self) -> Actor {
        self.position.to_act()
    }

    fn result(&self) -> Option<(String, String)> {
        match self.position.status() {
            Status::Ongoing => None,
            Status::Won { winner, reason } => {
                Some((format!("The {} win", side_name(winner)), reason.to_string()))
            }
            Status::Drawn { reason } => Some(("Draw".to_string(), reason.to_string())),
        }
    }

    fn gestures(&self) -> Vec<(Gesture, Action)> {
        let mut legal = self.position.legal_actions();
        legal.sort_by_cached_key(|a| self.public_key(a));
        let mut out = Vec::new();
        for action in legal {
            let gestures = match action {
                Action::Move { unit, to }
                | Action::Retreat { unit, to }
                | Action::Enter { unit, at: to } => self.relocations(unit, to),
                Action::Advance(Some(unit)) => match self.position.combat() {
                    Some(c) => self.relocations(unit, c.target),
                    None => Vec::new(),
                },
                Action::Designate { unit, target } => match self.position.square_of(unit) {
                    Some(s) => vec![
                        Gesture::lift_two(place(s), place(target)),
                        Gesture::select_then_lift(place(s), place(target)),
                    ],
                    None => Vec::new(),
                },
                _ => Vec::new(),
            };
            out.extend(gestures.into_iter().map(|g| (g.normalized(), action)));
        }
        out
    }

    fn choices(&self) -> Vec<(String, Action)> {
        match self.position.phase() {
            Phase::Rolling => Face::ALL
                .into_iter()
                .map(|f| (format!("die shows {f}"), Action::Roll(f)))
                .collect(),
            Phase::Retreat | Phase::Over => Vec::new(),
            _ => {
                // Everything but the slides, which the hands make.
                let mut legal: Vec<Action> = self
                    .position
                    .legal_actions()
                    .into_iter()
                    .filter(|a| {
                        !matches!(
                            a,
                            Action::Move { .. } | Action::Enter { .. } | Action::Retreat { .. }
                        )
                    })
                    .collect();
                legal.sort_by_cached_key(|a| self.public_key(a));
                legal.into_iter().map(|a| (self.label(&a), a)).collect()
            }
        }
    }

    /// A piece arriving on a square is the one whose tag was read there, when a registered
    /// tag was.
    fn fits_tags(&self, action: &Action, tags: &[(Place, TagUid)], _: &TagRegistry) -> bool {
        let (unit, to) = match *action {
            Action::Move { unit, to }
            | Action::Retreat { unit, to }
            | Action::Enter { unit, at: to } => (unit, to),
            Action::Advance(Some(unit)) => match self.position.combat() {
                Some(c) => (unit, c.target),
                None => return true,
            },
            _ => return true,
        };
        let mut read = tags
            .iter()
            .filter(|(at, _)| *at == place(to))
            .filter_map(|(_, uid)| self.tags.get(uid))
            .peekable();
        read.peek().is_none() || read.any(|&u| u == unit)
    }

    fn askable(
        &self,
        gesture: &Gesture,
        matching: &[(Gesture, Action)],
    ) -> Option<Vec<(Gesture, Action)>> {
        // In the movement phase a coin's hidden value decides where it can go (cavalry two
        // squares, the others one; a symbol coin stacks apart), so the pieces the table is asked
        // about are every one that could make the move were it any coin of its suit: the legal
        // moves alone would tell whether a coin still on a stack is cavalry.
        let p = &self.position;
        if p.phase() != Phase::Movement {
            return None;
        }
        let mut out = matching.to_vec();
        for action in self.shaped(gesture) {
            let Action::Move { unit, to } = action else {
                continue;
            };
            // A pawn's or a shown coin's moves are public: offered when legal (`matching`).
            if unit.is_leader() || self.shown(unit) {
                continue;
            }
            let could = Unit::ALL.iter().any(|&like| {
                like.suit() == unit.suit() && !like.is_leader() && p.could_move_like(unit, like, to)
            });
            if could && !out.iter().any(|(_, a)| *a == action) {
                out.push((gesture.clone(), action));
            }
        }
        // In the public order, so the order tells nothing either.
        out.sort_by_cached_key(|(_, a)| self.public_key(a));
        Some(out)
    }

    fn in_hand(&self, place: &Place) -> bool {
        // In the movement phase any square of the side moving may be lifted: whether a coin
        // can move, and where, is its hidden value's (cavalry moves two squares; a symbol
        // coin finds room on a stack a regular one does not), so a coin that cannot move,
        // lifted (to look at it, as its owner may), looks like one that can.
        let p = &self.position;
        p.phase() == Phase::Movement
            && square_of(place).is_some_and(|s| p.occupant(s) == Some(p.phasing_side()))
    }

    fn held(&self, action: &Action) -> bool {
        // Designating an attack lifts the enemy; a join lifts only one's own pieces.
        matches!(action, Action::Designate { .. })
    }

    fn shaped(&self, gesture: &Gesture) -> Vec<Action> {
        let p = &self.position;
        let on = |pl: &Place| -> Vec<Unit> {
            match square_of(pl) {
                Some(s) => self.stack(s),
                None => self
                    .staged
                    .iter()
                    .filter(|(_, slot)| Some(*slot) == slot_of(pl))
                    .map(|(u, _)| *u)
                    .collect(),
            }
        };
        let make = |unit: Unit, to: Square| -> Option<Action> {
            if self.slot(unit).is_some() {
                // A waiting Prussian only ever enters (refused, before its time, as such).
                return Some(Action::Enter { unit, at: to });
            }
            match p.phase() {
                Phase::Retreat => Some(Action::Retreat { unit, to }),
                Phase::Reinforcement => Some(Action::Enter { unit, at: to }),
                Phase::Advance if p.combat().is_some_and(|c| c.target == to) => {
                    Some(Action::Advance(Some(unit)))
                }
                // Anywhere else it is a move, refused as such ("not now: ... advance").
                Phase::Movement | Phase::Advance => Some(Action::Move { unit, to }),
                // A piece put on an enemy is an attack designated; one put on a square of no
                // enemy is a move after the movement, refused as such ("not now").
                Phase::Designation if p.occupant(to) == Some(p.phasing_side().opponent()) => {
                    Some(Action::Designate { unit, target: to })
                }
                Phase::Designation => Some(Action::Move { unit, to }),
                _ => None,
            }
        };
        let mut out = Vec::new();
        match (
            gesture.lifted.as_slice(),
            gesture.placed.as_slice(),
            gesture.selected,
        ) {
            // A slide: every piece on the origin, to the square it went to.
            ([from], [to], _) => {
                if let Some(to) = square_of(to) {
                    out.extend(on(from).into_iter().filter_map(|u| make(u, to)));
                }
            }
            // A piece off a stack onto an empty square: the nearest stacks of the side to
            // act.
            ([], [to], _) => {
                let (Some(to), Actor::Seat(side)) = (square_of(to), p.to_act()) else {
                    return out;
                };
                let mut stacks: Vec<Square> = Square::all()
                    .filter(|&s| {
                        s.distance(to) <= 3
                            && p.pieces_on(s).count() > 1
                            && p.occupant(s) == Some(side)
                    })
                    .collect();
                stacks.sort_by_key(|s| (s.distance(to), *s));
                for s in stacks {
                    out.extend(self.stack(s).into_iter().filter_map(|u| make(u, to)));
                }
            }
            // Two squares lifted: either one's pieces onto, or at, the other; the side to
            // act's own square first, so a refusal names the piece the player meant.
            ([a, b], [], _) => {
                let own = |pl: &Place| {
                    matches!((square_of(pl).and_then(|s| p.occupant(s)), p.to_act()),
                        (Some(o), Actor::Seat(side)) if o == side)
                };
                let pairs = if own(b) && !own(a) {
                    [(b, a), (a, b)]
                } else {
                    [(a, b), (b, a)]
                };
                for (from, to) in pairs {
                    if let Some(to) = square_of(to) {
                        out.extend(on(from).into_iter().filter_map(|u| make(u, to)));
                    }
                }
            }
            // Select, then lift an enemy target (one's own piece lifted is a gesture begun).
            ([target], [], Some(selected)) if p.phase() == Phase::Designation => {
                let enemy = p.phasing_side().opponent();
                if let Some(target) = square_of(target).filter(|&t| p.occupant(t) == Some(enemy)) {
                    out.extend(on(&selected).into_iter().filter_map(|u| make(u, target)));
                }
            }
            _ => {}
        }
        out
    }

    fn check(&self, action: &Action) -> Result<(), String> {
        self.position.check(action).map_err(|e| match (action, e) {
            (Action::Enter { .. }, Illegal::WrongPhase(_)) => format!(
                "not now: the Prussians enter in the Allied reinforcement phase, from turn {}",
                self.position.options().prussians_from_turn
            ),
            _ => self.public_reason(&e),
        })
    }

    fn play(&mut self, action: &Action) -> Screen {
        let before = self.clone();
        let label = self.label(action);
        let outcome = match self.position.play(action) {
            Ok(outcome) => outcome,
            Err(e) => {
                return Screen::Error {
                    message: format!("{label}: {}", before.public_reason(&e)),
                    fix: "put the pieces back as they were".to_string(),
                }
            }
        };
        if let Action::Enter { unit, .. } = action {
            self.staged.retain(|(u, _)| u != unit);
        }
        let mut lines = Vec::new();
        let mut combat: Option<Combat> = before.position.combat().cloned();
        let mut decided = None;
        for event in &outcome.0 {
            match event {
                Event::CombatBegan(c) => {
                    lines.push(format!("combat at {}", place(c.target)));
                    lines.push(self.combat_side(c, true));
                    lines.push(self.combat_side(c, false));
                    combat = Some(c.clone());
                }
                Event::AttackCancelled(s) => lines.push(format!(
                    "the attack on {} falls away: no attacker or defender is left",
                    place(*s)
                )),
                Event::Rolled { face, .. } => {
                    if let Some(c) = &mut combat {
                        c.rolls.push(*face);
                    }
                }
                Event::CombatDecided {
                    tallies, victor, ..
                } => {
                    if let Some(c) = &combat {
                        lines.push(Self::tally_line(c, true, tallies[0].total));
                        lines.push(Self::tally_line(c, false, tallies[1].total));
                        decided = Some((c.attacker, *tallies, *victor));
                    }
                }
                Event::Eliminated { unit, no_retreat } => {
                    let why = if *no_retreat { " (no retreat)" } else { "" };
                    // Named as its combat showed it, though the combat may be over now.
                    let mut line = format!("{} eliminated{why}", before.public_name(*unit));
                    // Off a stack the switch stays closed: the hand steps cannot say it.
                    if let Some(s) = before.position.square_of(*unit) {
                        if self.position.pieces_on(s).next().is_some() {
                            line.push_str(&format!(": take it off {}", place(s)));
                        }
                    }
                    lines.push(line);
                }
                Event::ObjectiveTaken { square, by } => lines.push(match by {
                    Some(side) => format!(
                        "the {} take {} ({})",
                        side_name(*side),
                        self.objective_name(*square),
                        place(*square)
                    ),
                    None => format!("{} is empty: nobody holds it", self.objective_name(*square)),
                }),
                Event::TurnBegan(turn) => {
                    let marker = self
                        .position
                        .layout()
                        .marker(*turn)
                        .map(|s| format!(": move the turn marker to {}", place(s)))
                        .unwrap_or_default();
                    lines.push(format!(
                        "turn {turn} of {}{marker}",
                        self.position.layout().turns
                    ));
                }
                Event::GameOver { winner, reason } => {
                    lines.push(format!("the {} win: {reason}", side_name(*winner)));
                }
                Event::PhaseBegan { .. }
                | Event::Moved { .. }
                | Event::Designated { .. }
                | Event::Retreated { .. }
                | Event::Advanced { .. }
                | Event::Entered { .. } => {}
            }
        }
        // What happened, for the record; what to do next is the prompt's.
        self.told.clone_from(&lines);
        lines.extend(self.next_steps());
        if let Some((attacker, tallies, victor)) = decided {
            let result = match victor {
                Some(v) => format!("the {} win", side_name(v)),
                None => "stalemate: no result".to_string(),
            };
            self.told.push(format!(
                "{} {} against {} {}: {result}",
                side_name(attacker),
                tallies[0].total,
                side_name(attacker.opponent()),
                tallies[1].total
            ));
            return Screen::Battle {
                attacker: format!("{} {}", side_name(attacker), tallies[0].total),
                defender: format!("{} {}", side_name(attacker.opponent()), tallies[1].total),
                result,
                after: Vec::new(),
                hands: lines,
                places: Default::default(),
            };
        }
        // A plain move: nothing happened beyond it, and the next steps are the prompt's.
        if matches!(action, Action::Move { .. }) && self.told.is_empty() {
            return Screen::MoveAccepted {
                status: self.status_line(),
                mv: label,
                places: Default::default(),
            };
        }
        Screen::Told {
            status: self.status_line(),
            title: label,
            lines,
            hands: Vec::new(),
            places: Default::default(),
        }
    }

    fn chance(&self) -> Vec<(Action, u32)> {
        self.position.chance_outcomes()
    }

    fn die_button(&self) -> bool {
        self.position.phase() == Phase::Rolling
    }

    fn label(&self, action: &Action) -> String {
        match *action {
            Action::Move { unit, to } => format!("{} to {}", self.origin(unit), place(to)),
            Action::EndMovement => "end of movement".to_string(),
            Action::Designate { unit, target } => {
                format!("{} attacks {}", self.origin(unit), place(target))
            }
            Action::Resolve { target } => format!("resolve {}", place(target)),
            Action::Roll(face) => match self.next_die() {
                Some((side, k, n)) => format!("{} die {k} of {n}: {face}", side_name(side)),
                None => format!("die: {face}"),
            },
            Action::Eliminate(Some(unit)) => format!("eliminate {}", self.origin(unit)),
            Action::Eliminate(None) => "eliminate none".to_string(),
            Action::Retreat { unit, to } => {
                format!("{} retreats to {}", self.origin(unit), place(to))
            }
            Action::Advance(Some(unit)) => {
                let target = self
                    .position
                    .combat()
                    .map(|c| place(c.target).to_string())
                    .unwrap_or_default();
                format!("{} advances to {target}", self.origin(unit))
            }
            Action::Advance(None) => "no advance".to_string(),
            Action::Enter { unit, at } => format!("{} enters at {}", self.origin(unit), place(at)),
            Action::EndReinforcement => "end of reinforcement".to_string(),
        }
    }

    fn label_places(&self, action: &Action) -> crate::ui::Places {
        // Where [`PiecepackTable::origin`] names the unit.
        let origin = |unit: Unit| {
            self.position
                .square_of(unit)
                .map(place)
                .or_else(|| self.slot(unit).map(staging_slot))
        };
        let moved = match *action {
            Action::Move { unit, to }
            | Action::Designate { unit, target: to }
            | Action::Retreat { unit, to }
            | Action::Enter { unit, at: to } => {
                origin(unit).into_iter().chain([place(to)]).collect()
            }
            Action::Resolve { target } => vec![place(target)],
            Action::Eliminate(Some(unit)) => origin(unit).into_iter().collect(),
            Action::Advance(Some(unit)) => origin(unit)
                .into_iter()
                .chain(self.position.combat().map(|c| place(c.target)))
                .collect(),
            Action::EndMovement
            | Action::Roll(_)
            | Action::Eliminate(None)
            | Action::Advance(None)
            | Action::EndReinforcement => Vec::new(),
        };
        crate::ui::Places {
            moved,
            ..crate::ui::Places::default()
        }
    }

    fn prompt(&self) -> String {
        let p = &self.position;
        // Several pieces to retreat: one sentence, each piece once, so the OLED holds them all.
        if let (Phase::Retreat, Some(c), Actor::Seat(actor)) = (p.phase(), p.combat(), p.to_act()) {
            let pieces: Vec<String> = c
                .retreating
                .iter()
                .filter_map(|u| {
                    let s = p.square_of(u)?;
                    Some(format!("{} on {}", self.public_name(u), place(s)))
                })
                .collect();
            if pieces.len() > 1 {
                return format!(
                    "{} retreat two squares: {}",
                    side_name(actor),
                    pieces.join(", ")
                );
            }
        }
        let mut steps = self.next_steps();
        if p.phase() == Phase::Movement {
            let turn = format!("Turn {} of {}", p.turn(), p.layout().turns);
            steps.insert(0, turn);
        }
        steps.join(". ")
    }

    fn turn_key(&self) -> u32 {
        let p = &self.position;
        u32::from(p.turn()) * 2 + u32::try_from(p.phasing_side().index()).unwrap_or(0)
    }

    fn revealed(&self, action: &Action) -> String {
        let label = self.label(action);
        let unit = match *action {
            Action::Move { unit, .. }
            | Action::Designate { unit, .. }
            | Action::Eliminate(Some(unit))
            | Action::Retreat { unit, .. }
            | Action::Advance(Some(unit))
            | Action::Enter { unit, .. } => unit,
            _ => return label,
        };
        format!("{label} ({}, {})", short_name(unit), unit.piece_name())
    }

    fn told(&self) -> Vec<String> {
        self.told.clone()
    }

    fn umpire_board(&self) -> BTreeMap<Place, Named> {
        let named = |units: &[Unit]| Named {
            code: units
                .iter()
                .map(|&u| piece_code(u))
                .collect::<Vec<_>>()
                .join("/"),
            name: units
                .iter()
                .map(|&u| owner_name(u))
                .collect::<Vec<_>>()
                .join(", "),
        };
        let mut out: BTreeMap<Place, Named> = Square::all()
            .filter(|&s| self.position.pieces_on(s).next().is_some())
            .map(|s| (place(s), named(&self.stack(s))))
            .collect();
        for &(u, slot) in &self.staged {
            out.insert(staging_slot(slot), named(&[u]));
        }
        out
    }

    fn army_words(_choice: Options, _seat: Seat, army: &Army) -> Vec<String> {
        let placed = army
            .placed
            .iter()
            .map(|&(u, s)| format!("{}: {}", owner_name(u), place(s)));
        let staged = army.staged.iter().map(|&(u, slot)| {
            format!(
                "{}: {}",
                owner_name(u),
                Self::place_words(&staging_slot(slot))
            )
        });
        placed.chain(staged).collect()
    }
}

/// A piece's code in a diagram: its suit's letter (`R`ed Star, blac`K` Moon, `G`reen Crown,
/// `B`lue Fleur) and its face (`P`awn, a number, `*` the symbol, `-` blank).
fn piece_code(unit: Unit) -> String {
    let name = unit.piece_name();
    let suit = match name.split_whitespace().next() {
        Some("Red") => 'R',
        Some("Black") => 'K',
        Some("Green") => 'G',
        _ => 'B',
    };
    let face = match name.split_whitespace().last() {
        Some("Pawn") => "P",
        Some("symbol") => "*",
        Some("blank") => "-",
        Some(value) => value,
        None => "?",
    };
    format!("{suit}{face}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    fn p(name: &str) -> Place {
        place(sq(name))
    }

    /// A table around a position built from `pieces`, `side` to move in turn 1. Napoleon
    /// stands on h10 unless placed: without him the game is over.
    fn table(options: Options, pieces: &[(Unit, &str)], side: Seat) -> PiecepackTable {
        let mut pieces: Vec<(Unit, Square)> = pieces.iter().map(|&(u, s)| (u, sq(s))).collect();
        if !pieces.iter().any(|(u, _)| *u == Unit::Napoleon) {
            pieces.push((Unit::Napoleon, sq("h10")));
        }
        let position = Position::from_pieces(options, &pieces, 1, side).unwrap();
        let staged = position
            .waiting()
            .iter()
            .enumerate()
            .map(|(i, u)| (u, i as u8))
            .collect();
        PiecepackTable {
            position,
            staged,
            tags: BTreeMap::new(),
            told: Vec::new(),
        }
    }

    /// The actions a gesture means, as the session matches them.
    fn meaning(t: &PiecepackTable, g: &Gesture) -> Vec<(String, Action)> {
        t.gestures()
            .into_iter()
            .filter(|(x, _)| x.lifted == g.lifted && x.placed == g.placed && x.selected.is_none())
            .map(|(_, a)| (t.label(&a), a))
            .collect()
    }

    /// What the table is asked for `g`, by label, as the session asks it.
    fn asked(t: &PiecepackTable, g: &Gesture) -> Vec<String> {
        let g = g.clone().normalized();
        let matching = t.matching(&g);
        t.askable(&g, &matching)
            .unwrap_or(matching)
            .into_iter()
            .map(|(_, a)| t.label(&a))
            .collect()
    }

    /// Twins that differ only in which Green Crown coin stands alone on g6 (the Young Guard, a
    /// regular coin, or the Guard artillery, the symbol coin): lifting f6 (Ney and D'Erlon)
    /// and g6 together, the table is asked the same. D'Erlon's coin can join only the symbol
    /// coin ("one regular piece, one symbol piece and one leader pawn"), so asking by the
    /// rules' room would tell which coin g6 holds.
    #[test]
    fn which_piece_asks_the_same_whatever_the_coin_it_would_join() {
        let twin = |on_g6: Unit| {
            table(
                Options::STANDARD,
                &[
                    (Unit::Ney, "f6"),
                    (Unit::DErlon, "f6"),
                    (on_g6, "g6"),
                    (Unit::Wellington, "a1"),
                ],
                FRENCH,
            )
        };
        let join = Gesture::lift_two(p("f6"), p("g6"));
        let young = asked(&twin(Unit::YoungGuard), &join);
        let artillery = asked(&twin(Unit::GuardArtillery), &join);
        assert_eq!(young, artillery);
        assert!(young.contains(&"f6 coin to g6".to_string()), "{young:?}");
        // Picked where it cannot go, it is refused with the rule's public words.
        let t = twin(Unit::YoungGuard);
        let join_young = Action::Move {
            unit: Unit::DErlon,
            to: sq("g6"),
        };
        assert!(t.check(&join_young).is_err());
        assert!(twin(Unit::GuardArtillery).check(&join_young).is_ok());
    }

    fn placed_on(to: &str) -> Gesture {
        Gesture {
            lifted: Vec::new(),
            placed: vec![p(to)],
            selected: None,
        }
    }

    #[test]
    fn squares_are_named_as_the_rulebook_names_them() {
        // "the rightmost square on the Allied side of the map is A-1 and the rightmost square
        // on the French side is H-10."
        assert_eq!(p("A-1").to_string(), "a1");
        assert_eq!(p("H-10").to_string(), "h10");
        assert_eq!(p("E-4").to_string(), "e4");
        for s in Square::all() {
            assert_eq!(square_of(&place(s)), Some(s));
        }
        assert_eq!(square_of(&staging_slot(0)), None);
        assert_eq!(slot_of(&staging_slot(4)), Some(4));
        assert_eq!(slot_of(&staging_slot(5)), None);
        let layout = PiecepackTable::layout(Options::STANDARD)
            .validate()
            .unwrap();
        assert_eq!(layout.cell_count(), 80 + u16::from(STAGING_SLOTS));
        assert!(layout.cell(p("h10")).is_some());
        assert!(layout.cell(staging_slot(4)).is_some());
        // Hand steps and differences name a slot as the labels do.
        assert_eq!(PiecepackTable::place_words(&p("e4")), "e4");
        assert_eq!(
            PiecepackTable::place_words(&staging_slot(1)),
            "Prussian slot 2"
        );
    }

    #[test]
    fn the_groups_follow_the_rulebook() {
        // "Allies deploy first: set aside the five black pieces ... Place the Red star symbol
        // in Hougoumont. Place the other six red pieces".
        assert_eq!(
            PiecepackTable::setup_order(Options::STANDARD),
            [ALLIES, FRENCH]
        );
        let allies = PiecepackTable::groups(Options::STANDARD, ALLIES);
        let labels: Vec<&str> = allies.iter().map(|g| g.label.as_str()).collect();
        assert_eq!(labels.len(), 12);
        assert_eq!(labels[0], "Blucher (Black Pawn) on a Prussian slot");
        assert_eq!(
            labels[5],
            "Hougoumont garrison (Red Star symbol) in Hougoumont, e4"
        );
        // "Place the other six red pieces on or next to Hougoumont and La Haye Saint".
        assert_eq!(
            labels[6],
            "Wellington (Red Pawn) on or next to Hougoumont (e4) or La Haye Sainte (g3)"
        );
        assert!(allies.iter().all(|g| g.count == 1 && g.min == 1));
        let french = PiecepackTable::groups(Options::STANDARD, FRENCH);
        assert_eq!(french.len(), 11);
        // "French deploy second, within two squares of Plancenoit, but NOT next to any Allied
        // piece."
        assert_eq!(
            french[0].label,
            "Napoleon (Green Pawn) within 2 squares of Plancenoit (g7), not next to the Allies"
        );
    }

    fn filled(order: &[Unit], at: &[(Unit, Place)]) -> Vec<Vec<Place>> {
        order
            .iter()
            .map(|u| {
                at.iter()
                    .filter(|(x, _)| x == u)
                    .map(|(_, pl)| *pl)
                    .collect()
            })
            .collect()
    }

    fn example_allies() -> Vec<(Unit, Place)> {
        let mut at: Vec<(Unit, Place)> = Setup::example()
            .allies
            .iter()
            .map(|&(u, s)| (u, place(s)))
            .collect();
        at.extend(
            ALLIED_ORDER[..5]
                .iter()
                .enumerate()
                .map(|(i, &u)| (u, staging_slot(i as u8))),
        );
        at
    }

    #[test]
    fn an_army_is_built_from_its_groups_or_every_problem_is_listed() {
        let at = example_allies();
        let army =
            PiecepackTable::army(Options::STANDARD, ALLIES, &filled(&ALLIED_ORDER, &at)).unwrap();
        assert_eq!(army.staged.len(), 5);
        assert_eq!(army.placed.len(), 7);
        // The stack on e4 in the order it was built: garrison, Wellington, Dutch-Belgians.
        let e4: Vec<Unit> = army
            .placed
            .iter()
            .filter(|(_, s)| *s == sq("e4"))
            .map(|(u, _)| *u)
            .collect();
        assert_eq!(
            e4,
            [
                Unit::HougoumontGarrison,
                Unit::Wellington,
                Unit::DutchBelgians
            ]
        );

        // "Place the Red star symbol in Hougoumont. Place the other six red pieces on or next
        // to Hougoumont and La Haye Saint" and the Prussians set aside: all wrong at once.
        let mut wrong = at.clone();
        for (u, pl) in &mut wrong {
            match u {
                Unit::HougoumontGarrison => *pl = p("e5"),
                Unit::Cooke => *pl = p("a1"),
                Unit::Bulow => *pl = p("a10"),
                Unit::Uxbridge => *pl = staging_slot(1),
                Unit::Pirch => *pl = staging_slot(0),
                _ => {}
            }
        }
        let problems =
            PiecepackTable::army(Options::STANDARD, ALLIES, &filled(&ALLIED_ORDER, &wrong))
                .unwrap_err();
        assert_eq!(
            problems,
            [
                "Bulow (Black Moon 5) is on a10: Prussians wait off the map, on a Prussian slot",
                "Uxbridge's cavalry (Red Star blank) is on Prussian slot 2: place it on the map",
                "Pirch (Black Moon 4) shares Prussian slot 1 with Blucher (Black Pawn): give each \
                 its own slot",
                "the Hougoumont garrison is on e5: place it in Hougoumont, e4",
                "Cooke and Alten (Red Star 5) on a1 is too far: place it on or next to \
                 Hougoumont (e4) or La Haye Sainte (g3)",
            ]
        );
    }

    fn uid(n: u8) -> TagUid {
        TagUid::new(&[0x04, n]).unwrap()
    }

    #[test]
    fn with_nfc_each_piece_keeps_the_tag_first_read_for_it() {
        let at = example_allies();
        let order = filled(&ALLIED_ORDER, &at);
        // Wellington went onto the garrison: the reader saw the garrison's tag first.
        let mut tags: Vec<Vec<TagUid>> = (0..12).map(|i| vec![uid(i)]).collect();
        tags[6] = vec![uid(5), uid(6)];
        // The Dutch-Belgians' own tag was not read: only those under it.
        tags[10] = vec![uid(5), uid(6)];
        let army = PiecepackTable::army_tagged(Options::STANDARD, ALLIES, &order, &tags).unwrap();
        let known: BTreeMap<Unit, TagUid> = army.tags.iter().copied().collect();
        assert_eq!(known[&Unit::HougoumontGarrison], uid(5));
        assert_eq!(known[&Unit::Wellington], uid(6));
        assert_eq!(known.get(&Unit::DutchBelgians), None);
        assert_eq!(known.len(), 11);
    }

    #[test]
    fn a_tag_read_where_a_piece_arrived_tells_which_piece_moved() {
        let mut t = table(
            Options::STANDARD,
            &[
                (Unit::OldGuard, "g7"),
                (Unit::GuardArtillery, "g7"),
                (Unit::Wellington, "a1"),
            ],
            FRENCH,
        );
        t.tags.insert(uid(1), Unit::OldGuard);
        t.tags.insert(uid(2), Unit::GuardArtillery);
        let old_guard = Action::Move {
            unit: Unit::OldGuard,
            to: sq("g6"),
        };
        let artillery = Action::Move {
            unit: Unit::GuardArtillery,
            to: sq("g6"),
        };
        let read = [(p("g6"), uid(1))];
        assert!(t.fits_tags(&old_guard, &read, &TagRegistry::new()));
        assert!(!t.fits_tags(&artillery, &read, &TagRegistry::new()));
        // A tag read elsewhere, or a tag nobody registered, says nothing.
        for read in [[(p("g7"), uid(1))], [(p("g6"), uid(9))]] {
            assert!(
                t.fits_tags(&old_guard, &read, &TagRegistry::new())
                    && t.fits_tags(&artillery, &read, &TagRegistry::new())
            );
        }
    }

    #[test]
    fn both_armies_start_the_game_or_say_what_is_wrong() {
        let allied = PiecepackTable::army(
            Options::STANDARD,
            ALLIES,
            &filled(&ALLIED_ORDER, &example_allies()),
        )
        .unwrap();
        let french: Vec<(Unit, Place)> = Setup::example()
            .french
            .iter()
            .map(|&(u, s)| (u, place(s)))
            .collect();
        let ok = PiecepackTable::army(Options::STANDARD, FRENCH, &filled(&FRENCH_ORDER, &french))
            .unwrap();
        let table =
            PiecepackTable::start(Options::STANDARD, &BySeat([ok, allied.clone()])).unwrap();
        assert_eq!(table.position().phase(), Phase::Movement);
        assert_eq!(table.slot(Unit::Blucher), Some(0));
        // "French deploy second, within two squares of Plancenoit, but NOT next to any Allied
        // piece": with Picton on g4, next to La Haye Sainte, D'Erlon and Ney on g5 touch him.
        // Neither army alone can know; the game's start says it.
        let mut at = example_allies();
        for (u, pl) in &mut at {
            if *u == Unit::Picton {
                *pl = p("g4");
            }
        }
        let allied =
            PiecepackTable::army(Options::STANDARD, ALLIES, &filled(&ALLIED_ORDER, &at)).unwrap();
        let french =
            PiecepackTable::army(Options::STANDARD, FRENCH, &filled(&FRENCH_ORDER, &french))
                .unwrap();
        let problems =
            PiecepackTable::start(Options::STANDARD, &BySeat([french, allied])).unwrap_err();
        assert_eq!(
            problems,
            [
                "Ney (Blue Pawn) on g5 is next to an Allied piece: move it away",
                "D'Erlon (Blue Fleur 5) on g5 is next to an Allied piece: move it away",
            ]
        );
    }

    #[test]
    fn a_stack_is_coins_in_arrival_order_under_the_pawn() {
        // "One regular piece, one symbol piece and one leader pawn."
        let t = table(
            Options::STANDARD,
            &[
                (Unit::Napoleon, "g7"),
                (Unit::OldGuard, "g7"),
                (Unit::GuardArtillery, "g7"),
                (Unit::Wellington, "a1"),
            ],
            FRENCH,
        );
        assert_eq!(
            t.stack(sq("g7")),
            [Unit::OldGuard, Unit::GuardArtillery, Unit::Napoleon]
        );
        assert_eq!(t.origin(Unit::GuardArtillery), "g7 top coin");
        assert_eq!(t.origin(Unit::OldGuard), "g7 bottom coin");
        assert_eq!(t.origin(Unit::Napoleon), "g7 Napoleon");
        assert_eq!(
            t.board()[&p("g7")],
            "Green Crown coin, Green Crown coin and Green Pawn"
        );
    }

    #[test]
    fn a_piece_taken_off_a_stack_is_asked_for_by_position_never_by_value() {
        // The same stack built in the other order: the menu reads the same, top first; only
        // the pieces behind the entries differ.
        let menu = |first: Unit, second: Unit| {
            let t = table(
                Options::STANDARD,
                &[(first, "g7"), (second, "g7"), (Unit::Wellington, "a1")],
                FRENCH,
            );
            meaning(&t, &placed_on("g6"))
        };
        let a = menu(Unit::OldGuard, Unit::GuardArtillery);
        let b = menu(Unit::GuardArtillery, Unit::OldGuard);
        let labels = |m: &[(String, Action)]| m.iter().map(|(l, _)| l.clone()).collect::<Vec<_>>();
        assert_eq!(labels(&a), ["g7 top coin to g6", "g7 bottom coin to g6"]);
        assert_eq!(labels(&a), labels(&b));
        assert_eq!(
            a[0].1,
            Action::Move {
                unit: Unit::GuardArtillery,
                to: sq("g6")
            }
        );
        assert_eq!(
            b[0].1,
            Action::Move {
                unit: Unit::OldGuard,
                to: sq("g6")
            }
        );
    }

    #[test]
    fn gestures_for_moves_joins_designations_and_entries() {
        // "Pieces can move through friendly pieces but must stop when moving next to enemy
        // pieces." Here: a lone coin slides; joining a friendly square lifts both squares.
        let t = table(
            Options::STANDARD,
            &[
                (Unit::Lobau, "f7"),
                (Unit::Napoleon, "f6"),
                (Unit::Wellington, "a1"),
            ],
            FRENCH,
        );
        assert_eq!(
            meaning(&t, &Gesture::slide(p("f7"), p("f8"))),
            [(
                "f7 coin to f8".to_string(),
                Action::Move {
                    unit: Unit::Lobau,
                    to: sq("f8")
                }
            )]
        );
        let both = meaning(&t, &Gesture::lift_two(p("f7"), p("f6")));
        let labels: Vec<&str> = both.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(labels, ["f6 Napoleon to f7", "f7 coin to f6"]);
        // A single lift is a gesture in progress: nothing to refuse yet.
        assert!(t
            .shaped(&Gesture {
                lifted: vec![p("f7")],
                placed: Vec::new(),
                selected: None
            })
            .is_empty());

        // "Every piece that starts a combat phase next to an enemy piece must take part in a
        // combat": lift the attacker and its target, or select it and lift the target.
        let mut t = table(
            Options::STANDARD,
            &[(Unit::Lobau, "f7"), (Unit::Uxbridge, "e7")],
            FRENCH,
        );
        t.play(&Action::EndMovement);
        assert_eq!(t.position().phase(), Phase::Designation);
        let designate = Action::Designate {
            unit: Unit::Lobau,
            target: sq("e7"),
        };
        let gestures: Vec<Gesture> = t
            .gestures()
            .into_iter()
            .filter(|(_, a)| *a == designate)
            .map(|(g, _)| g)
            .collect();
        assert_eq!(
            gestures,
            [
                Gesture::lift_two(p("f7"), p("e7")),
                Gesture::select_then_lift(p("f7"), p("e7"))
            ]
        );
        assert_eq!(t.label(&designate), "f7 coin attacks e7");
    }

    #[test]
    fn refusals_tell_no_value() {
        let t = table(
            Options::STANDARD,
            &[
                (Unit::Lobau, "f7"),
                (Unit::Reille, "f6"),
                (Unit::Wellington, "a1"),
            ],
            FRENCH,
        );
        // "All other pieces move 1 square."
        let far = Action::Move {
            unit: Unit::Lobau,
            to: sq("f9"),
        };
        // A coin's reach is its hidden value: too far reads as no room does.
        assert_eq!(
            t.check(&far).unwrap_err(),
            "that piece may not go to f9: too far, no way round the enemy, or no room (one \
             regular coin, one symbol coin and one pawn per square)"
        );
        // "Normal stacking is one piece per square": the rules' reason names the kind; the
        // table's does not.
        let full = Action::Move {
            unit: Unit::Lobau,
            to: sq("f6"),
        };
        assert_eq!(
            t.check(&full).unwrap_err(),
            t.check(&far).unwrap_err().replace("f9", "f6")
        );
        let refused = t.shaped(&Gesture::lift_two(p("f7"), p("f6")));
        assert_eq!(refused.len(), 2);
        assert!(refused.iter().all(|a| t.check(a).is_err()));

        // An enemy piece lifted with one's own: the refusal is about one's own piece, never
        // "that piece is the enemy's" for the piece the player did not mean to move.
        let mut t = table(
            Options::STANDARD,
            &[
                (Unit::Lobau, "f7"),
                (Unit::Ney, "g5"),
                (Unit::Uxbridge, "e7"),
            ],
            FRENCH,
        );
        t.play(&Action::EndMovement);
        assert_eq!(t.position().phase(), Phase::Designation);
        let first = t.shaped(&Gesture::lift_two(p("g5"), p("e7")))[0];
        assert_eq!(
            t.check(&first).unwrap_err(),
            "that piece did not start the combat phase next to an enemy: only those attack"
        );
    }

    #[test]
    fn a_prussian_slid_on_before_its_time_is_told_when_it_may_enter() {
        let t = table(Options::STANDARD, &[(Unit::Wellington, "a1")], ALLIES);
        let early = t.shaped(&Gesture::slide(staging_slot(0), p("a10")));
        assert_eq!(early.len(), 1);
        assert_eq!(
            t.check(&early[0]).unwrap_err(),
            "not now: the Prussians enter in the Allied reinforcement phase, from turn 5"
        );
    }

    #[test]
    fn a_gesture_begun_is_not_refused_and_a_wrong_advance_is() {
        // "If the winning side is the attacker then one attacking piece can enter the
        // defending piece's square." Worked-example dice: Lobau (4) against Uxbridge's blank
        // with no dice on either side wins at once.
        let mut t = table(
            Options::WORKED_EXAMPLE,
            &[
                (Unit::Lobau, "f7"),
                (Unit::Reille, "f8"),
                (Unit::Uxbridge, "e7"),
            ],
            FRENCH,
        );
        t.play(&Action::EndMovement);
        // A piece selected earlier, then one's own piece lifted: the start of a designation.
        let begun = Gesture {
            lifted: vec![p("f8")],
            placed: Vec::new(),
            selected: Some(p("f7")),
        };
        assert!(t.shaped(&begun).is_empty());
        t.play(&Action::Designate {
            unit: Unit::Lobau,
            target: sq("e7"),
        });
        t.play(&Action::Resolve { target: sq("e7") });
        assert_eq!(t.position().phase(), Phase::Retreat);
        t.play(&Action::Retreat {
            unit: Unit::Uxbridge,
            to: sq("c7"),
        });
        assert_eq!(t.position().phase(), Phase::Advance);
        // Into the emptied square: the advance. Anywhere else: refused, saying why.
        assert_eq!(
            meaning(&t, &Gesture::slide(p("f7"), p("e7"))),
            [(
                "f7 Blue Fleur 4 advances to e7".to_string(),
                Action::Advance(Some(Unit::Lobau))
            )]
        );
        let wrong = t.shaped(&Gesture::slide(p("f7"), p("f6")));
        assert_eq!(
            t.check(&wrong[0]).unwrap_err(),
            "not now: this is the combat: advance phase"
        );
    }

    #[test]
    fn the_status_line_carries_the_turn_the_side_and_the_phase() {
        // "Place an unused marker in square G-1 and advance along the G row."
        let t = table(Options::STANDARD, &[(Unit::Wellington, "a1")], FRENCH);
        let status = t.status_line();
        assert_eq!(status.turn, 1);
        assert_eq!(status.to_act, "French (move)");
        // Ruling 1: the Prussians come from turn 5.
        assert_eq!(status.reinforcements_in, Some(4));
        assert!(
            t.prompt().starts_with("Turn 1 of 10. French: move"),
            "{}",
            t.prompt()
        );
        assert_eq!(t.turn_key(), 2);
    }

    /// The rulebook's combat example, played through the table.
    #[test]
    fn the_worked_example_is_announced_as_the_rulebook_counts_it() {
        // "Napoleon, the Old Guard and Guard artillery in one square and Ney and the cavalry
        // in a second square are attacking Hougoumont, which has the garrison, the
        // Dutch-Belgians and Wellington. Next to Ney but not being attacked, is the British
        // Cavalry."
        let mut t = table(
            Options::WORKED_EXAMPLE,
            &[
                (Unit::HougoumontGarrison, "e4"),
                (Unit::DutchBelgians, "e4"),
                (Unit::Wellington, "e4"),
                (Unit::Uxbridge, "e6"),
                (Unit::OldGuard, "f4"),
                (Unit::GuardArtillery, "f4"),
                (Unit::Napoleon, "f4"),
                (Unit::FrenchCavalry, "e5"),
                (Unit::Ney, "e5"),
            ],
            FRENCH,
        );
        t.play(&Action::EndMovement);
        for unit in [
            Unit::OldGuard,
            Unit::GuardArtillery,
            Unit::Napoleon,
            Unit::FrenchCavalry,
            Unit::Ney,
        ] {
            t.play(&Action::Designate {
                unit,
                target: sq("e4"),
            });
        }
        let Screen::Told { title, lines, .. } = t.play(&Action::Resolve { target: sq("e4") })
        else {
            panic!("not told");
        };
        assert_eq!(title, "resolve e4");
        // "The French combat value is "5" (Old Guard) plus the value of three dice ... The
        // Allied combat value is "2" (DB) plus the value of four dice".
        assert_eq!(
            lines[..3],
            [
                "combat at e4",
                "French: Napoleon, Green Crown 5, Green Crown symbol, Ney, Blue Fleur blank \
                 (3 dice)",
                "Allies: Wellington, Red Star 2, Red Star symbol (4 dice)",
            ]
        );
        // "Napoleon and his crew roll a "4," a "2" and a symbol ... Wellington's defenders
        // roll symbol, symbol, symbol and 5."
        let faces = [
            Face::Four,
            Face::Two,
            Face::Symbol,
            Face::Symbol,
            Face::Symbol,
            Face::Symbol,
        ];
        for face in faces {
            assert!(t.die_button());
            assert_eq!(t.to_act(), Actor::Chance);
            t.play(&Action::Roll(face));
        }
        assert_eq!(t.label(&Action::Roll(Face::Five)), "Allies die 4 of 4: 5");
        let Screen::Battle {
            attacker,
            defender,
            result,
            hands,
            ..
        } = t.play(&Action::Roll(Face::Five))
        else {
            panic!("no battle");
        };
        // "the French total is "16" ... The Allied total is a "14" so they lose."
        assert_eq!(attacker, "French 16");
        assert_eq!(defender, "Allies 14");
        assert_eq!(result, "the French win");
        assert_eq!(
            hands,
            [
                "French: 5 0 0 + dice 4 2 * = 16",
                "Allies: 2 0 + dice * * * 5 = 14",
                "French: OK: eliminate a losing piece worth 4 or less, or none",
            ]
        );
        // "the French can eliminate the DB @ and force Wellington and the Hougoumont garrison
        // to retreat two squares."
        let choices: Vec<String> = t.choices().into_iter().map(|(l, _)| l).collect();
        assert_eq!(choices, ["eliminate none", "eliminate e4 top Red Star 2"]);
        let Screen::Told { lines, .. } = t.play(&Action::Eliminate(Some(Unit::DutchBelgians)))
        else {
            panic!("not told");
        };
        assert_eq!(
            lines,
            [
                "Red Star 2 eliminated: take it off e4",
                "the French retreat Wellington from e4 two squares",
                "the French retreat Red Star symbol from e4 two squares",
            ]
        );
    }
}
