//! Piecepack at Waterloo (the rules *Piecepack at Waterloo*, Seth Owen, 2008).
//!
//! An 8x10 map: rows A-H from the Allied side, columns 1-10 from the Allied player's right
//! ([`Square`], written `A-3`). Four objective coins, the Prussian entry squares and the turn
//! track along row G are layout data ([`Layout`], default [`Layout::STANDARD`]). The French
//! (11 pieces) move first; the Allies have 12, five of them Prussians who arrive later.
//!
//! - [`Position`]: the whole truth, every hidden value included; implements
//!   [`Game`](crate::Game). Start it from an untrusted [`Setup`] (every problem at once).
//! - [`View`]: what one seat sees. A different type from the position: an enemy coin shows its
//!   suit, and its value only once revealed in combat.
//! - [`Outcome`]: what an action did, as a list of [`Event`]s (the whole truth);
//!   [`Outcome::visible_to`] keeps what a seat may be told.
//! - [`Options`]: the rulings below that a table may want to play otherwise.
//!
//! # How play proceeds
//! Each turn: French move, French combat, Allied move, Allied combat, Allied reinforcement,
//! advance the turn marker. Every step is an explicit [`Phase`] so [`Game::to_act`](crate::Game::to_act) and
//! [`Game::legal_actions`](crate::Game::legal_actions) are always defined:
//! - **Movement**: the side moves pieces one at a time ([`Action::Move`] names the piece, so the
//!   umpire knows which piece of a stack was lifted) and ends with [`Action::EndMovement`].
//! - **Designation**: every piece of the side that starts the combat phase next to an enemy
//!   points at one neighbouring enemy square ([`Action::Designate`]).
//! - **Resolution**: the attacker picks which designated square to fight next
//!   ([`Action::Resolve`]).
//! - **Rolling**: chance rolls the dice one at a time ([`Action::Roll`]; the attacker's dice
//!   first, then the defender's). One die per chance action keeps
//!   [`Game::chance_outcomes`](crate::Game::chance_outcomes) at six equally likely faces and the journal exact; dice read
//!   off physical piecepack dice are entered as the same actions.
//! - **Elimination**, **Retreat**, **Advance**: the victor's choices after a decided combat.
//! - **Reinforcement**: the Allies bring on Prussians ([`Action::Enter`]), then
//!   [`Action::EndReinforcement`]. The turn marker then advances by itself.
//!
//! # Rulings
//! Where the rules text is silent or ambiguous; named options say which can be switched.
//! 1. **Prussian arrival** ([`Options::prussians_from_turn`], default 5; entry squares
//!    [`Layout::prussian_entry`], default A-10 to D-10, the Allied half of the Allied-left edge,
//!    where the Prussians came from). From that turn on, in each Allied reinforcement phase the
//!    Allies may place any of the waiting black pieces on entry squares free of French pieces,
//!    within stacking limits; they may hold some back. Pieces that enter move from the next
//!    Allied movement phase.
//! 2. **The base die** ([`Options::base_die`], default on): the text says "Roll one combat die
//!    plus additional dice"; the worked example rolls only the extra dice (three French, four
//!    Allied). [`Options::WORKED_EXAMPLE`] turns the base die off to reproduce it.
//! 3. **Next to** means sharing a side ([`Options::diagonals`], default off); "within two
//!    squares" counts steps in the same way, and every move is a chain of such steps.
//! 4. **Pinned pieces**: "begin a turn next to an enemy piece" is judged when the side's
//!    movement phase begins. Each piece moves at most once per movement phase.
//! 5. **Whole stacks defend**: an attack designated at a piece is an attack on its square, and
//!    every piece there defends (the worked example: attacking Hougoumont, the garrison, the
//!    Dutch-Belgians and Wellington all take part). All attacks on one square are one combat.
//! 6. **Attacks that fall away**: when a combat is resolved, its attackers are the designated
//!    pieces still next to the square and its defenders the enemy pieces on it now; with none
//!    of either it is cancelled. Pieces on one square may attack different squares.
//! 7. **Supporting dice**: "one per friendly piece not being attacked by any enemy piece that is
//!    next to an attacking piece" counts each defending-side piece once, on a square that no
//!    attack of this phase targets, next to any attacker in this combat.
//! 8. **Doubling** is applied by the umpire to the largest numerical results, which is always
//!    the player's best choice: the doubled total is all a doubling changes.
//! 9. **Elimination limit** ([`Options::elimination_limit`], default
//!    [`EliminationLimit::HighestDie`]): "the highest number rolled among the winning dice"; a
//!    symbol is no number, so a roll of only symbols eliminates nothing. Only pieces with a
//!    numerical value (2-5 or blank = 0) can be chosen: the example names only the Old Guard and
//!    the cavalry, not the leaders or the Guard artillery
//!    ([`Options::eliminate_leaders_and_symbols`], default off, counts those as 0 instead).
//!    The elimination comes before the retreats, as in the example.
//! 10. **Retreats**: each losing piece moves exactly two steps, ending two squares away, through
//!     squares free of the victor's pieces, neither square next to a victor's piece other than
//!     a lone leader (a leader alone on its square), into a square with room. The victor
//!     chooses the piece and the square one at a time; a piece with no such retreat is
//!     eliminated.
//! 11. **Objectives** ([`Options::holding`], default [`Holding::Captured`]): an objective is
//!     captured by the side that last had a piece on it and stays theirs until the enemy
//!     enters it. At the start the Allies hold Mont St Jean, Hougoumont and La Haye Sainte and
//!     the French Plancenoit. Victory is checked after every action.
//! 12. **Revealed values stay revealed**: the players saw them in combat; a seat's view keeps
//!     showing them. Moving two squares shows a piece to be cavalry or a leader, as on the
//!     table; the view does not add that.
//! 13. **Time**: the marker starts on the first track square in turn 1; after the last turn
//!     (G-10, turn 10) it leaves the map and the game ends: the French have failed, the Allies
//!     win.

mod combat;
mod phase;
mod position;
mod square;
mod unit;
mod view;

pub use combat::{Combat, Tally};
pub use phase::{EndReason, Phase};
pub use position::{Action, Event, Illegal, Outcome, Position, Setup, SetupProblem};
pub use square::{Layout, LayoutProblem, Square, SquareSet, COLS, MAX_TURNS, ROWS, SQUARES};
pub use unit::{Face, Kind, Stacking, Suit, Unit, Units, UNITS};
pub use view::{Seen, View};

use serde::{Deserialize, Serialize};

use crate::Seat;

/// The French: they move first.
pub const FRENCH: Seat = Seat::FIRST;
/// The Allies: Wellington's army and the Prussians.
pub const ALLIES: Seat = Seat::SECOND;

/// "French" or "Allies".
pub fn side_name(seat: Seat) -> &'static str {
    if seat == FRENCH {
        "French"
    } else {
        "Allies"
    }
}

/// Which number limits the victor's elimination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EliminationLimit {
    /// "the highest number rolled among the winning dice" (the default).
    HighestDie,
    /// "the highest single undoubled numerical result", piece values included.
    HighestResult,
}

/// When an objective counts as captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Holding {
    /// Held by the side that last had a piece on it (the default).
    Captured,
    /// Held only while a piece of the side stands on it.
    Occupied,
}

/// The parameters of a game: the layout and the rulings a table may play otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Options {
    /// Objectives, entry squares, turn track.
    pub layout: Layout,
    /// Each side rolls one combat die besides the extra dice (ruling 2; default on).
    pub base_die: bool,
    /// The first turn in whose reinforcement phase the Prussians may enter (ruling 1; default
    /// 5).
    pub prussians_from_turn: u8,
    /// Which number limits the elimination (ruling 9).
    pub elimination_limit: EliminationLimit,
    /// Leaders and symbol pieces may be eliminated, counting as 0 (ruling 9; default off).
    pub eliminate_leaders_and_symbols: bool,
    /// Squares touching at a corner are next to each other too (ruling 3; default off).
    pub diagonals: bool,
    /// When an objective counts as captured (ruling 11).
    pub holding: Holding,
}

impl Options {
    /// The rules as written, with the documented defaults.
    pub const STANDARD: Options = Options {
        layout: Layout::STANDARD,
        base_die: true,
        prussians_from_turn: 5,
        elimination_limit: EliminationLimit::HighestDie,
        eliminate_leaders_and_symbols: false,
        diagonals: false,
        holding: Holding::Captured,
    };

    /// The standard options without the base die, as the worked combat example rolls.
    pub const WORKED_EXAMPLE: Options = Options {
        base_die: false,
        ..Options::STANDARD
    };
}

impl Default for Options {
    fn default() -> Options {
        Options::STANDARD
    }
}
