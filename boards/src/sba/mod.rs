//! Sa Belle Alliance (the rulebook *Sa Belle Alliance aka Battle of Waterloo*): a game of corps
//! cards, boxes and tracks.
//!
//! Each phase the phasing player activates one card (a corps, the Grand Battery, Blücher's
//! Prussians, Wellington's once-a-game general advance), possibly with Napoleon once a game;
//! chance rolls the die ([`Action::Roll`]); the card's table gives casualties and morale losses;
//! the umpire moves the division markers to the casualty tracks, asks the owner where a casualty
//! comes from when the targeted corps is empty ([`Action::TakeFrom`]), and calls every rout test
//! (again a chance roll). The French phase, the Allied phase, then the time phase make a turn;
//! the game ends when an army routs.
//!
//! - [`SaBelleAlliance`]: the whole state; implements [`Game`](crate::Game).
//! - [`CardSet`]: the cards and tracks as data, from a TOML file ([`EXAMPLE_CARDS`] is ours,
//!   not the publisher's).
//! - [`View`]: what a seat sees. Nothing in this game is secret, so it is the public state.
//! - [`Options`]: the card set and the named rulings (listed in `boards/README.md`).
//!
//! ```
//! use boards::sba::{Action, CardSet, Face, Options, SaBelleAlliance, FRENCH};
//! use boards::{Actor, Game};
//!
//! let cards = CardSet::example();
//! let guard = cards.card_id("Imperial Guard").unwrap();
//! let orange = cards.card_id("I Corps (Orange)").unwrap();
//! let mut game = SaBelleAlliance::start(Options::new(cards), ()).unwrap();
//! assert_eq!(game.to_act(), Actor::Seat(FRENCH));
//! game.play(&Action::activate(guard, 0, Some(orange))).unwrap();
//! assert_eq!(game.to_act(), Actor::Chance);
//! game.play(&Action::Roll(Face::new(6).unwrap())).unwrap();
//! // The Guard's table starts at 2: a 6 reads its fifth row, AC2 AM1.
//! assert_eq!(game.divisions(orange), 4 - 2);
//! assert_eq!(game.to_act(), Actor::Seat(boards::sba::ALLIED));
//! ```

mod army;
mod cards;
mod game;
#[cfg(feature = "std")]
mod parse;
mod phase;
mod view;

pub use army::{seat_name, seat_of, Army, ALLIED, FRENCH};
pub use cards::{
    ActionId, ArmyTracks, Card, CardAction, CardId, CardProblem, CardSet, Condition, Control,
    ControlId, Effects, Mark, Modifier, TimeTrack, EXAMPLE_CARDS, MAX_ACTIONS, MAX_CARDS,
    MAX_CASUALTY_BOXES, MAX_CONTROLS, MAX_DIVISIONS,
};
pub use game::{Action, Event, Face, Illegal, Outcome, SaBelleAlliance};
pub use phase::{EndReason, Phase, RoutHow};
pub use view::View;

use serde::Serialize;

/// The card set and the named rulings where the rulebook is silent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Options {
    /// The cards and tracks.
    pub cards: CardSet,
    /// Ruling: every casualty placed in an RT box calls its own rout test (`true`), or an army
    /// tests once per action however many of its casualties land in RT boxes (`false`, the
    /// default: the phase sequence has one step "rout tests if required" after the effects are
    /// recorded).
    pub rout_test_per_casualty: bool,
}

impl Options {
    /// `cards` with the default rulings.
    pub fn new(cards: CardSet) -> Options {
        Options {
            cards,
            rout_test_per_casualty: false,
        }
    }
}
