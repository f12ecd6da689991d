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
//!
//! # Deciding early
//! The settle window is there for boards the hands have not finished with: a piece slid over
//! a square on its way, a piece lifted and put straight back, an enemy piece brushed. Waiting it
//! out on every change put a plain move on the OLED 170 ms after the piece touched down (the
//! 20 ms debounce, then 150 ms). Most landings are not ambiguous at all, and only the referee,
//! which knows the expected board and the rules, can tell which. So with
//! [`SensingConfig::decide_early`] (on by default) the [pipeline](crate::pipeline) asks, at
//! each scan that believes a landing ([`Sensing::early_ready`]), whether the changes waiting
//! ([`Sensing::waiting`]) would be decided at once and beyond doubt
//! ([`Referee::decides_at_once`](crate::referee::Referee::decides_at_once)); if so they are
//! reported there and then, with the board settled ([`Sensing::settle_now`]), and the move is
//! decided 20 ms after touch-down instead of 170 ms. Unmistakable means the hand's gesture is
//! complete and has one reading: one piece gone and one landed where it was lifted to (a switch
//! closed after the lift), and exactly one legal action, not one held for the attack hold,
//! makes it; or the board is the expected one again (the hands' steps after a battle done); or
//! the piece that landed carries the last slide on (the carried-on correction below). Every
//! other board waits out the window as before: a second piece up (an enemy brushed or lifted
//! for an attack, two pieces in hand), a lone placement no rule explains, a refusal or menu on
//! the screen, a placement whose tag is still to be read.
//!
//! Why this and not a shorter window: a shorter window would report more pass-overs as
//! placements and more nudges as lifts everywhere, including on the ambiguous boards where a
//! brush could become an attack. Deciding early only where the board is unmistakable keeps the
//! window where it protects something, and what an early decision can get wrong is only a slide
//! that goes on: a piece slid across B on its way to C (its switch held closed past the
//! debounce) is read as the move A-B, and when it lands on C, with nothing else touched, the
//! referee's carried-on correction takes A-B back and plays A-C (both journaled), itself
//! decided at once. An enemy brushed on the way is a second lifted piece, so the board is not
//! unmistakable while it is up, and a brush put back within the window is never reported at
//! all: a brush is never an attack nor a move to the brushed square. A lift-and-replace keeps
//! the window on its lift (a nudge reports nothing; a deliberate lift is a select as before).
//! The cost of a correction is a takeback in the journal and, for the few frames of the
//! slide, the shorter move on the OLED; a move of a piece that may not go that far is refused
//! as the other side's move, and the player puts it back where it was read.

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
pub use layout::{
    LayoutProblem, LayoutSetup, Place, SensorLayout, TrayKind, MAX_COLUMNS, MAX_ROWS,
};
pub use model::{Sensing, SensingConfig};
pub use occupancy::{MarksError, Occupancy, SensedCell, MAX_CELLS};

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
