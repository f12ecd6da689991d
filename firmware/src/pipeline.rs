//! The umpire's whole pipeline in one value: sensed frames in, the referee's decisions and the
//! OLED's screen out.
//!
//! ```text
//! occupancy frame ─▶ Sensing (debounce, settle, tag reads) ─▶ BoardEvents ─▶ Referee ─▶ Screen
//! ```
//!
//! Pure and step-wise: the caller owns the clock and the hardware. The `umpire run` service
//! calls [`Pipeline::scan`] at the scan rate with what the switches read and lets it ask the NFC
//! reader for the cells that just filled; the benchmarks and tests do the same with scripted
//! frames.

use crate::journal::Store;
use crate::referee::{Chance, Decision, Referee};
use crate::sensing::{
    BoardEvent, Button, ButtonPress, Millis, Occupancy, OccupancyFrame, SensedCell, Sensing,
    SensorInput,
};
use crate::ui::Screen;

/// Sensing model plus referee, with the last screen handed to the display.
#[derive(Debug)]
pub struct Pipeline<S: Store, C: Chance> {
    sensing: Sensing,
    referee: Referee<S, C>,
    shown: Option<Screen>,
}

impl<S: Store, C: Chance> Pipeline<S, C> {
    /// The pipeline over `sensing` and `referee`.
    pub fn new(sensing: Sensing, referee: Referee<S, C>) -> Pipeline<S, C> {
        Pipeline {
            sensing,
            referee,
            shown: None,
        }
    }

    /// One scan at `now`: feeds the frame, asks `read_tags` for the cells the model wants
    /// identified (only those whose occupancy just changed), and runs every resulting event
    /// and the referee's clock through the referee.
    pub fn scan(
        &mut self,
        now: Millis,
        occupied: Occupancy,
        mut read_tags: impl FnMut(&[SensedCell]) -> Vec<SensorInput>,
    ) -> Vec<Decision> {
        let mut events = self.sensing.feed(OccupancyFrame { at: now, occupied });
        let wanted = self.sensing.tag_reads_wanted();
        if !wanted.is_empty() {
            for input in read_tags(&wanted) {
                events.extend(self.sensing.feed(input));
            }
        }
        self.run(events, now)
    }

    /// Time passes with no scan (between scans, or while the board is quiet).
    pub fn idle(&mut self, now: Millis) -> Vec<Decision> {
        let events = self.sensing.tick(now);
        self.run(events, now)
    }

    /// A debounced button press at `now`.
    pub fn press(&mut self, now: Millis, button: Button) -> Vec<Decision> {
        let events = self.sensing.feed(ButtonPress { at: now, button });
        self.run(events, now)
    }

    /// A button held for the long-press time at `now` (see [`Referee::hold`]). The changes the
    /// sensing model already believes are reported first, as for a press.
    pub fn hold(&mut self, now: Millis, button: Button) -> Vec<Decision> {
        let mut out = self.idle(now);
        out.extend(self.referee.hold(button, now));
        out
    }

    fn run(&mut self, events: Vec<BoardEvent>, now: Millis) -> Vec<Decision> {
        let mut out = Vec::new();
        for event in &events {
            out.extend(self.referee.handle(event));
        }
        out.extend(self.referee.tick(now));
        out
    }

    /// The screen the referee shows now.
    pub fn screen(&self) -> &Screen {
        self.referee.screen()
    }

    /// The screen, if it changed since the last call (what to push to the OLED).
    pub fn new_screen(&mut self) -> Option<&Screen> {
        if self.shown.as_ref() == Some(self.referee.screen()) {
            return None;
        }
        self.shown = Some(self.referee.screen().clone());
        self.shown.as_ref()
    }

    /// The referee.
    pub fn referee(&self) -> &Referee<S, C> {
        &self.referee
    }

    /// The sensing model.
    pub fn sensing(&self) -> &Sensing {
        &self.sensing
    }
}
