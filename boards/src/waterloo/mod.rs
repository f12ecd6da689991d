//! Stratego: Waterloo (the rulebook *Stratego: Waterloo, Rules of the game*; rulings in this
//! module's `README.md` and below).
//!
//! The Allied player ([`ALLIED`], Red, with the Prussians, Black) sits at row 1 and, in the
//! Basic, Standard and Expert games, moves first; the French player ([`FRENCH`], Blue) sits at
//! the last row. A game turn is the first player's turn then the second's; each turn holds three
//! actions (fewer without the commanders, four for the Allied once the Prussians are in).
//!
//! - [`Waterloo`]: the whole truth; implements [`Game`](crate::Game).
//! - [`Setup`]: untrusted deployments, validated with every problem at once.
//! - [`Layout`]: the board as data, read from an editable file ([`DEFAULT_LAYOUT`]).
//! - [`View`]: what one seat sees: a different type that holds no unrevealed enemy unit, no
//!   enemy line of retreat and nothing of the Prussian draw.
//! - [`Options`]: the game version, the scenarios and every named ruling.
//!
//! ```
//! use boards::waterloo::{Action, ChanceAction, Flank, Options, Setup, Waterloo, ALLIED};
//! use boards::{Actor, Game};
//!
//! let options = Options::basic();
//! let mut seed = 7usize;
//! let setup = Setup::random(&options, |n| {
//!     seed = seed.wrapping_mul(48271).wrapping_add(1);
//!     seed % n
//! });
//! let mut game = Waterloo::start(options, setup).expect("a random set-up is valid");
//! // The umpire draws both secret lines of retreat: chance actions from outside.
//! assert_eq!(game.to_act(), Actor::Chance);
//! game.play(&Action::Chance(ChanceAction::Retreat(Flank::Left))).unwrap();
//! game.play(&Action::Chance(ChanceAction::Retreat(Flank::Right))).unwrap();
//! assert_eq!(game.to_act(), Actor::Seat(ALLIED));
//! assert_eq!(game.actions(), (3, 3));
//! assert_eq!(game.clock_minutes(), 11 * 60);
//! // Each seat sees only its own line of retreat.
//! assert_eq!(game.view(ALLIED).line_of_retreat(), Some(Flank::Left));
//! ```
//!
#![doc = include_str!("README.md")]

mod cards;
mod game;
mod layout;
mod phase;
mod setup;
mod sides;
mod units;
mod view;

pub use cards::Card;
pub use game::{
    Action, BattleReport, BattleResult, CardPlay, ChanceAction, DieFace, Event, Illegal, Outcome,
    PursuitEvent, Waterloo,
};
pub use layout::{Layout, LayoutProblem, Tile, TileKind, DEFAULT_LAYOUT};
pub use phase::{EndReason, Phase};
pub use setup::{Setup, SetupProblem};
pub use sides::{seat_name, Flank, ALLIED, FRENCH};
pub use units::{seat_of, Arm, Army, Back, Class, Placed, Unit};
pub use view::{Seen, View};

use serde::{Deserialize, Serialize};

/// The version of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Version {
    /// Part I: a flat battlefield, lines of retreat drawn by card.
    Basic,
    /// Part II: terrain tiles, manoeuvre cards, capturing a commander-in-chief wins.
    Standard,
    /// Part III: fixed lines of retreat, flank occupations and the pursuit, Plancenoit.
    Expert,
}

/// The parameters of a game: version, scenarios, board and the named rulings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// Basic, Standard or Expert.
    pub version: Version,
    /// The board.
    pub layout: Layout,
    /// "Start the battle early!": three turns from 9:30, French first, 14 pieces held back.
    pub early_start: bool,
    /// "Where are the Prussians?": the die at turn 9 decides whether they come.
    pub prussians_uncertain: bool,
    /// The mud tiles of the layout are on the board (extra scenario; "Create your own
    /// battlefield" is a layout file with tiles wherever the players choose).
    pub mud: bool,
    /// Ruling: the game turn whose start brings the Prussians onto the board (the rulebook:
    /// "after the 12th turn", so 13).
    pub prussian_turn: u16,
    /// Ruling: how many Prussians come on at the start of each Allied turn from
    /// [`Options::prussian_turn`] while any remain (our ruling: 2, as the rulebook's first
    /// arrival).
    pub prussians_per_turn: u8,
    /// Ruling: the most pieces a player may keep in reserve at set-up (the rulebook: 10).
    pub max_reserve: u8,
    /// Weights of the battle die's faces in [`DieFace::ALL`] order (our ruling: one each).
    pub die_weights: [u32; 6],
    /// Manoeuvre cards of each kind in [`Card::ALL`] order (our ruling: 3 each, 15 in all).
    pub cards_per_kind: [u8; 5],
    /// Line-of-retreat cards of each flank per side, left, centre, right (our ruling: one each).
    pub retreat_cards: [u32; 3],
    /// Ruling: the game ends in a draw ("nightfall") after this game turn; `None` (the rulebook
    /// sets no limit) plays on.
    pub last_turn: Option<u16>,
}

impl Options {
    /// `version` on the default board with the rulebook's numbers and no scenario.
    pub fn new(version: Version) -> Options {
        Options {
            version,
            layout: Layout::standard(),
            early_start: false,
            prussians_uncertain: false,
            mud: false,
            prussian_turn: 13,
            prussians_per_turn: 2,
            max_reserve: 10,
            die_weights: [1; 6],
            cards_per_kind: [3; 5],
            retreat_cards: [1; 3],
            last_turn: None,
        }
    }

    /// Whether a tile of `kind` is in play: buildings and hills from the Standard game, the
    /// village (Plancenoit) in the Expert game, mud with [`Options::mud`].
    pub fn uses(&self, kind: TileKind) -> bool {
        match kind {
            TileKind::Building | TileKind::Hill => self.version != Version::Basic,
            TileKind::Village => self.version == Version::Expert,
            TileKind::Mud => self.mud,
        }
    }

    /// The Basic game.
    pub fn basic() -> Options {
        Options::new(Version::Basic)
    }
}

impl Default for Options {
    fn default() -> Options {
        Options::basic()
    }
}
