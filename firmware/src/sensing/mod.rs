//! Sensing: from timestamped sensor readings to board events.
//!
//! A board is a [`SensorLayout`]: numbered sensed cells (reed switches, one per square or tray
//! slot) mapped to game [`Place`]s. A scan of the switches is an [`Occupancy`].

mod layout;
mod occupancy;

use core::fmt;

use serde::{Deserialize, Serialize};

pub use layout::{LayoutProblem, LayoutSetup, Place, SensedCell, SensorLayout, TrayKind};
pub use occupancy::{MarksError, Occupancy, MAX_CELLS};

/// A moment, in milliseconds since an arbitrary start (the scanner's boot, say).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Millis(pub u64);

impl Millis {
    /// `ms` milliseconds later, saturating at the end of time.
    #[must_use]
    pub const fn plus(self, ms: u32) -> Millis {
        Millis(self.0.saturating_add(ms as u64))
    }

    /// Milliseconds from `earlier` to `self`, or 0 if `earlier` is later.
    pub const fn since(self, earlier: Millis) -> u64 {
        self.0.saturating_sub(earlier.0)
    }
}

impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ms", self.0)
    }
}
