//! What the sensing model reports.
//!
//! These types go into the journal and over the wire (postcard), where enum variant order is the
//! encoding: add variants only at the end.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Button, Millis, Occupancy, Place, SensedCell, TagFailure, TagUid};

/// Something that happened on the board, after debounce and the settle window.
///
/// Events come out in the order they became certain. Their `at` is when the thing happened
/// (for a lift or placement: when the scan debounce believed it), which can be earlier than
/// events already emitted: a placement is only reported once it has held for the settle
/// window. Events with equal `at` happened in the same scan; their order (by cell number) means
/// nothing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BoardEvent {
    /// A piece left `place` and stayed away for the settle window.
    Lifted {
        /// The cell that emptied.
        cell: SensedCell,
        /// Its place.
        place: Place,
        /// When it emptied.
        at: Millis,
    },
    /// A piece arrived on `place` and stayed for the settle window.
    Placed {
        /// The cell that filled.
        cell: SensedCell,
        /// Its place.
        place: Place,
        /// When it filled.
        at: Millis,
        /// The tag read on it, if the cell has a reader and the read succeeded in time. When the
        /// read failed or was late, a [`BoardEvent::TagFailed`] follows at once.
        tag: Option<TagUid>,
    },
    /// Every change is reported and the board has been quiet for the settle window (chattering
    /// switches aside): `occupancy` is the whole board as reported. Comes after at least one
    /// [`BoardEvent::Lifted`] or [`BoardEvent::Placed`] since the last one.
    Settled {
        /// When the board became quiet.
        at: Millis,
        /// The occupied cells (mapped cells only), as the events so far have reported them.
        occupancy: Occupancy,
    },
    /// A tag read on a piece already reported as standing on `place`: a re-read, or a read that
    /// came too late for its [`BoardEvent::Placed`].
    TagRead {
        /// The cell read.
        cell: SensedCell,
        /// Its place.
        place: Place,
        /// When the read finished.
        at: Millis,
        /// The tag's UID. Whether it belongs to a registered piece is for the referee to say.
        uid: TagUid,
    },
    /// A piece's tag could not be read.
    TagFailed {
        /// The cell read.
        cell: SensedCell,
        /// Its place.
        place: Place,
        /// When the read failed (or was given up on).
        at: Millis,
        /// Why.
        failure: TagFailure,
    },
    /// A button was pressed. It is reported after every lift and placement the scan debounce
    /// believed before the press has been reported or dropped, so "place your pieces, then press
    /// OK" sees the last piece.
    Button {
        /// Which button.
        button: Button,
        /// When it was pressed.
        at: Millis,
    },
    /// A sensor or driver misbehaves; the board as reported is still right, but a player or the
    /// builder should fix the cause.
    Fault {
        /// When it was found.
        at: Millis,
        /// What is wrong.
        fault: SensingFault,
    },
}

impl BoardEvent {
    /// When the event happened.
    pub fn at(&self) -> Millis {
        match self {
            BoardEvent::Lifted { at, .. }
            | BoardEvent::Placed { at, .. }
            | BoardEvent::Settled { at, .. }
            | BoardEvent::TagRead { at, .. }
            | BoardEvent::TagFailed { at, .. }
            | BoardEvent::Button { at, .. }
            | BoardEvent::Fault { at, .. } => *at,
        }
    }
}

/// A misbehaving sensor or driver. The message says what to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SensingFault {
    /// A switch keeps changing with no quiet moment: a loose magnet, a marginal reed, a bad
    /// joint. Its changes no longer hold back [`BoardEvent::Settled`] or button presses; it is
    /// reported again only once it has been steady for the settle window.
    Chattering {
        /// The switch.
        cell: SensedCell,
        /// Its place.
        place: Place,
    },
    /// A sensor that the layout maps to no place reads a piece. Reported each time it closes,
    /// until it is found flickering.
    UnmappedInput {
        /// The sensor.
        cell: SensedCell,
    },
    /// The reader driver reported a read for a sensor that the layout maps to no place.
    TagReadOnUnmappedCell {
        /// The sensor.
        cell: SensedCell,
    },
    /// An input was stamped earlier than one already seen; it was taken as happening at the
    /// latest time seen.
    ClockWentBack {
        /// The input's time stamp.
        stamped: Millis,
        /// The latest time seen before it.
        latest: Millis,
    },
}

impl fmt::Display for SensingFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SensingFault::Chattering { cell, place } => write!(
                f,
                "the switch under {place} ({cell}) keeps flickering: check the piece's magnet and \
                 the switch's wiring"
            ),
            SensingFault::UnmappedInput { cell } => write!(
                f,
                "{cell} reads a piece, but the game has no place on that cell: a switch wired \
                 to the wrong input, or a piece off the places; `umpire calibrate --game` shows \
                 which"
            ),
            SensingFault::TagReadOnUnmappedCell { cell } => write!(
                f,
                "a tag was read on {cell}, which the layout gives no place: the reader's antenna \
                 numbering and the layout file disagree"
            ),
            SensingFault::ClockWentBack { stamped, latest } => write!(
                f,
                "an input was stamped {stamped}, before {latest}: the scanner's clock must \
                 never go back"
            ),
        }
    }
}
