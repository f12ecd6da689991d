//! The two seats ([`ALLIED`] and [`FRENCH`]) with their names, and the three flanks counted from a
//! player's own left ([`Flank`]), on which the lines of retreat lie.

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::Seat;

/// The Allied player (Red, and the Prussians): sits at row 1 and starts the battle.
pub const ALLIED: Seat = Seat::FIRST;
/// The French player (Blue): sits at the last row.
pub const FRENCH: Seat = Seat::SECOND;

/// The name of a seat: "Allied" or "French".
pub fn seat_name(seat: Seat) -> &'static str {
    if seat == ALLIED {
        "Allied"
    } else {
        "French"
    }
}

/// A flank, counted from the player's own left: grids 1-4, 5-8, 9-12.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Flank {
    /// Grids 1-4.
    Left,
    /// Grids 5-8.
    Centre,
    /// Grids 9-12.
    Right,
}

impl Flank {
    /// All three.
    pub const ALL: [Flank; 3] = [Flank::Left, Flank::Centre, Flank::Right];

    pub(super) fn parse(s: &str) -> Option<Flank> {
        Some(match s {
            "left" => Flank::Left,
            "centre" | "center" => Flank::Centre,
            "right" => Flank::Right,
            _ => return None,
        })
    }
}

impl fmt::Display for Flank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Flank::Left => "left flank",
            Flank::Centre => "centre",
            Flank::Right => "right flank",
        })
    }
}
