//! Sensing: from timestamped sensor readings to [`BoardEvent`]s.
//!
//! A board is a [`SensorLayout`]: numbered sensed cells (reed switches, one per square or tray
//! slot) mapped to game [`Place`]s. The scanner hands [`Sensing`] an [`OccupancyFrame`] per scan;
//! the NFC driver hands it [`TagRead`]s for the cells [`Sensing::tag_reads_wanted`] names; the
//! buttons hand it [`ButtonPress`]es. Out come [`BoardEvent`]s: a piece [`BoardEvent::Lifted`] or
//! [`BoardEvent::Placed`] (with its tag, when read), the board [`BoardEvent::Settled`], tag reads,
//! buttons, and [`BoardEvent::Fault`]s that say which sensor misbehaves.
//!
//! It is a pure function of its inputs: no clock, no I/O. Time arrives as [`Millis`] in every
//! input (and in [`Sensing::tick`]), so a scripted list of frames always gives the same events,
//! however often `tick` is called in between.
//!
//! Two filters stand between a switch and an event:
//! 1. **Scan debounce** (per sensor): a new reading is believed after it has been read on
//!    [`SensingConfig::debounce_samples`] consecutive scans spanning at least
//!    [`SensingConfig::debounce_span_ms`]. This removes contact bounce and electrical noise.
//! 2. **Settle window** (per place, then the whole board): a believed change is reported only
//!    once it has held for [`SensingConfig::settle_ms`]; a change undone within the window (a
//!    piece slid over a square, a piece nudged and let go, a piece lifted and put straight back)
//!    is never reported. [`BoardEvent::Settled`] follows once the whole board has been quiet
//!    for the window.
//!
//! See [`Sensing`] for the exact rules.

mod debounce;
mod event;
mod input;
mod layout;
mod model;
mod occupancy;

#[cfg(test)]
mod tests;

use core::fmt;

use serde::{Deserialize, Serialize};

pub use event::{BoardEvent, SensingFault};
pub use input::{
    Button, ButtonPress, OccupancyFrame, SensorInput, TagFailure, TagRead, TagUid, TagUidError,
};
pub use layout::{LayoutProblem, LayoutSetup, Place, SensedCell, SensorLayout, TrayKind};
pub use model::{Sensing, SensingConfig};
pub use occupancy::{MarksError, Occupancy, MAX_CELLS};

/// A moment, in milliseconds since an arbitrary start (the scanner's boot, say).
///
/// Inputs must carry non-decreasing times; an input stamped earlier than one already seen is
/// treated as happening at the latest time seen, and reported as a [`SensingFault`].
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
