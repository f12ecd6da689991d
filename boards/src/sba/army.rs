//! The two seats (French and Anglo-Allied, [`FRENCH`] and [`ALLIED`]), the three armies on the
//! cards and markers ([`Army`]), and which seat plays each.

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::Seat;

/// The French player: plays the first phase of each turn.
pub const FRENCH: Seat = Seat::FIRST;
/// The Anglo-Allied player, with Blücher's Prussians: plays the second phase.
pub const ALLIED: Seat = Seat::SECOND;

/// The name of a seat: "French" or "Anglo-Allied".
pub fn seat_name(seat: Seat) -> &'static str {
    if seat == FRENCH {
        "French"
    } else {
        "Anglo-Allied"
    }
}

/// Whose a card, a marker or a control box is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Army {
    /// Blue.
    French,
    /// Red.
    Allied,
    /// Black: Blücher's Prussians, played by the Anglo-Allied player.
    Prussian,
}

impl fmt::Display for Army {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Army::French => "French",
            Army::Allied => "Anglo-Allied",
            Army::Prussian => "Prussian",
        })
    }
}

/// The seat that plays `army`.
pub const fn seat_of(army: Army) -> Seat {
    match army {
        Army::French => FRENCH,
        Army::Allied | Army::Prussian => ALLIED,
    }
}
