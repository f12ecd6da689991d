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
//!
//! After a restart, [`boot`] brings the sensing model up on the board as it stands before any
//! referee hears of it: the referee resumes from the journal with [`Booted::places`], and
//! [`Booted::pipeline`] joins the two. The `umpire run` service and the simulator both boot
//! this way, so a piece that stood at boot never reaches a resumed referee as a new placement.

use crate::journal::Store;
use crate::referee::{Chance, Decision, Referee};
use crate::sensing::{
    BoardEvent, Button, ButtonPress, Millis, Occupancy, OccupancyFrame, Place, SensedCell, Sensing,
    SensingConfig, SensorInput, SensorLayout, TagFailure, TagRead,
};
use crate::ui::Screen;

/// How many raw scans [`boot`] takes; a cell counts as occupied when most of those that
/// answered read it.
pub const BOOT_SCANS: usize = 7;

/// A sensing model brought up on the board as it stood at boot, before any referee heard of
/// it (see [`boot`]).
#[derive(Clone, Debug)]
pub struct Booted {
    sensing: Sensing,
}

/// Brings a sensing model up on the board as it stands: takes [`BOOT_SCANS`] raw scans from
/// `scan` (`None`: the scan failed), counts a cell occupied when most of the scans that
/// answered read it, reads once through `read_tags` the tags of the pieces standing on cells
/// with a reader, and starts the model believing that board (at the latest time stamped). The
/// referee resumes with [`Booted::places`]; [`Booted::pipeline`] then joins the two.
///
/// Why a vote and not the model's own debounce and settle window: those need real time to
/// pass between scans, and the service starts within one step (it owns no clock). A switch
/// that misreads in a few of the back-to-back scans (electrical noise at power-up) is
/// outvoted; anything that changes after boot (a switch read wrong by most of the scans, a
/// hand still moving a piece) is reported by the model's own filters from the first scans on,
/// as any change is.
pub fn boot(
    layout: SensorLayout,
    config: SensingConfig,
    mut scan: impl FnMut() -> Option<OccupancyFrame>,
    read_tags: impl FnOnce(&[SensedCell]) -> Vec<SensorInput>,
) -> Booted {
    let mut counts = [0u8; crate::sensing::MAX_CELLS];
    let mut answered = 0u8;
    let mut at = Millis(0);
    for _ in 0..BOOT_SCANS {
        if let Some(frame) = scan() {
            answered += 1;
            at = at.max(frame.at);
            for cell in frame.occupied.iter() {
                if let Some(n) = counts.get_mut(cell.index()) {
                    *n += 1;
                }
            }
        }
    }
    let occupied = Occupancy::from_cells(
        counts
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0 && u16::from(n) * 2 > u16::from(answered))
            .filter_map(|(i, _)| u16::try_from(i).ok().map(SensedCell::new)),
    );
    let wanted: Vec<SensedCell> = layout
        .places_in(&occupied)
        .map(|(cell, _)| cell)
        .filter(|&cell| layout.has_tag_reader(cell))
        .collect();
    let mut reads: Vec<TagRead> = Vec::new();
    if !wanted.is_empty() {
        for input in read_tags(&wanted) {
            // Only the answers for the cells asked about; anything else says nothing here.
            if let SensorInput::Tag(read) = input {
                if wanted.contains(&read.cell) {
                    at = at.max(read.at);
                    reads.push(read);
                }
            }
        }
    }
    Booted {
        sensing: Sensing::standing(layout, config, at, &occupied, &reads),
    }
}

impl Booted {
    /// The places occupied at boot, for [`Referee::resume`] and [`Referee::recover`].
    pub fn places(&self) -> Vec<Place> {
        let standing = self.sensing.reported();
        self.sensing
            .layout()
            .places_in(&standing)
            .map(|(_, place)| place)
            .collect()
    }

    /// The cells occupied at boot.
    pub fn standing(&self) -> Occupancy {
        self.sensing.reported()
    }

    /// When the boot's last scan or read was taken: the time to resume the referee at.
    pub fn at(&self) -> Millis {
        self.sensing.now()
    }

    /// The pipeline of this sensing model and `referee`, and what the referee decided on
    /// hearing the board. A referee resumed or recovering with [`Booted::places`] knows the
    /// pieces standing: it hears only the tags read on them, as reads ([`BoardEvent::TagRead`],
    /// [`BoardEvent::TagFailed`]), never as new placements (so it knows the pieces carry
    /// tags, and a square that closes with no tag after the restart is no landing). One that
    /// starts afresh at the game menu ([`Referee::new`], [`Referee::nothing_to_resume`])
    /// hears each standing piece placed, with its tag, then the board settled, as a fresh
    /// sensing model would have told it.
    pub fn pipeline<S: Store, C: Chance>(
        self,
        referee: Referee<S, C>,
    ) -> (Pipeline<S, C>, Vec<Decision>) {
        let at = self.sensing.now();
        let layout = self.sensing.layout();
        let standing = self.sensing.reported();
        let known = referee.sensed().clone();
        let mut events = Vec::new();
        let mut board_changed = false;
        for (cell, place) in layout.iter() {
            let occupied = standing.contains(cell);
            if known.contains(&place) && !occupied {
                board_changed = true;
                events.push(BoardEvent::Lifted { cell, place, at });
            } else if occupied && known.contains(&place) {
                match self.sensing.tag_of(cell) {
                    Some(Ok(uid)) => events.push(BoardEvent::TagRead {
                        cell,
                        place,
                        at,
                        uid,
                    }),
                    Some(Err(failure)) => events.push(BoardEvent::TagFailed {
                        cell,
                        place,
                        at,
                        failure,
                    }),
                    None => {}
                }
            } else if occupied {
                board_changed = true;
                let read = self.sensing.tag_of(cell);
                events.push(BoardEvent::Placed {
                    cell,
                    place,
                    at,
                    tag: read.and_then(Result::ok),
                });
                let failure = match read {
                    Some(Err(failure)) => Some(failure),
                    None if layout.has_tag_reader(cell) => Some(TagFailure::TimedOut),
                    _ => None,
                };
                if let Some(failure) = failure {
                    events.push(BoardEvent::TagFailed {
                        cell,
                        place,
                        at,
                        failure,
                    });
                }
            }
        }
        if board_changed {
            events.push(BoardEvent::Settled {
                at,
                occupancy: standing,
            });
        }
        let mut pipeline = Pipeline::new(self.sensing, referee);
        let decisions = pipeline.handle(&events);
        (pipeline, decisions)
    }
}

/// Sensing model plus referee, with the last screen handed to the display.
#[derive(Debug)]
pub struct Pipeline<S: Store, C: Chance> {
    sensing: Sensing,
    referee: Referee<S, C>,
    shown: Option<Screen>,
}

impl<S: Store, C: Chance> Pipeline<S, C> {
    /// The pipeline over `sensing` and `referee`, the referee told the sensing model's timing
    /// (its settle window is also how long a slide decided at once may be carried on into an
    /// attack). After a restart, boot with [`boot`] and [`Booted::pipeline`] instead, so the
    /// referee is not told of the standing pieces anew.
    pub fn new(sensing: Sensing, mut referee: Referee<S, C>) -> Pipeline<S, C> {
        referee.reported_by(sensing.config());
        Pipeline {
            sensing,
            referee,
            shown: None,
        }
    }

    /// One scan at `now`: feeds the frame, asks `read_tags` for the cells the model wants
    /// identified (only those whose occupancy just changed), and runs every resulting event
    /// and the referee's clock through the referee.
    ///
    /// When the scan completed a landing and the referee finds the changes waiting
    /// unmistakable ([`Referee::decides_at_once`]: a plain move, a slide carried on), they are
    /// reported at once ([`Sensing::settle_now`]) instead of after the settle window, so the
    /// move is decided at this scan (see the [sensing docs](crate::sensing), *Deciding early*).
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
        let mut out = self.handle(&events);
        if self.sensing.early_ready() && self.referee.decides_at_once(&self.sensing.waiting()) {
            let early = self.sensing.settle_now();
            out.extend(self.handle(&early));
        }
        out.extend(self.referee.tick(now));
        out
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
        let mut out = self.handle(&events);
        out.extend(self.referee.tick(now));
        out
    }

    fn handle(&mut self, events: &[BoardEvent]) -> Vec<Decision> {
        events.iter().flat_map(|e| self.referee.handle(e)).collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::MemStore;
    use crate::referee::{RefereeConfig, SeededChance};
    use crate::sensing::{LayoutSetup, TagUid};

    fn frame(at: u64, marks: &str) -> Option<OccupancyFrame> {
        Some(OccupancyFrame {
            at: Millis(at),
            occupied: Occupancy::from_marks(marks).unwrap(),
        })
    }

    fn layout(readers: bool) -> SensorLayout {
        let setup = LayoutSetup::grid(6, 1);
        if readers {
            setup.with_tag_readers_everywhere()
        } else {
            setup
        }
        .validate()
        .unwrap()
    }

    /// Boots on `scans` (one per scan taken, in order); also returns how many were taken.
    fn boot_on(scans: Vec<Option<OccupancyFrame>>) -> (Booted, usize) {
        let mut scans = scans.into_iter();
        let mut taken = 0;
        let booted = boot(
            layout(false),
            SensingConfig::default(),
            || {
                taken += 1;
                scans.next().flatten()
            },
            |_| panic!("no reader"),
        );
        (booted, taken)
    }

    /// A switch read closed by 3 of the 7 boot scans (cell 3) is noise; one read by 4 (cell 2)
    /// stands; an eighth scan is never taken. Failed
    /// scans do not vote: of the 3 that answered, 2 read cell 4. The boot takes the time of
    /// its last scan.
    #[test]
    fn a_switch_noisy_in_a_few_boot_scans_is_outvoted() {
        let (booted, taken) = boot_on(vec![
            frame(0, "XXX..."),
            frame(1, "XXX..."),
            frame(2, "XXX..."),
            frame(3, "XX.X.."),
            frame(4, "XX.X.."),
            frame(5, "XX.X.."),
            frame(6, "XXX..."),
            frame(7, "......"),
        ]);
        assert_eq!(taken, BOOT_SCANS);
        assert_eq!(booted.standing(), Occupancy::from_marks("XXX...").unwrap());
        assert_eq!(booted.at(), Millis(6));
        let (booted, _) = boot_on(vec![
            frame(0, "....X."),
            None,
            frame(2, "...XX."),
            None,
            None,
            frame(5, "......"),
            None,
        ]);
        assert_eq!(booted.standing(), Occupancy::from_marks("....X.").unwrap());
        assert_eq!(booted.at(), Millis(5));
    }

    /// The tags of the standing pieces are read once, at boot, and only theirs; an answer for
    /// a cell not asked about is ignored. After boot the model asks for no read and reports
    /// nothing while the board stands.
    #[test]
    fn boot_reads_the_standing_pieces_tags_once() {
        let uid = TagUid::new(&[4, 1, 2, 3]).unwrap();
        let mut asked = Vec::new();
        let booted = boot(
            layout(true),
            SensingConfig::default(),
            || frame(10, "X.X..."),
            |cells| {
                asked.extend_from_slice(cells);
                vec![
                    TagRead {
                        at: Millis(12),
                        cell: SensedCell::new(0),
                        result: Ok(uid),
                    }
                    .into(),
                    TagRead {
                        at: Millis(12),
                        cell: SensedCell::new(2),
                        result: Err(TagFailure::NoTag),
                    }
                    .into(),
                    TagRead {
                        at: Millis(99),
                        cell: SensedCell::new(4),
                        result: Ok(uid),
                    }
                    .into(),
                ]
            },
        );
        assert_eq!(asked, [SensedCell::new(0), SensedCell::new(2)]);
        assert_eq!(booted.at(), Millis(12));
        let mut sensing = booted.sensing;
        assert_eq!(sensing.tag_of(SensedCell::new(0)), Some(Ok(uid)));
        assert_eq!(sensing.tag_of(SensedCell::new(4)), None);
        for t in (20..=600).step_by(10) {
            let events = sensing.feed(frame(t, "X.X...").unwrap());
            assert_eq!(events, [], "at {t} ms");
            assert_eq!(sensing.tag_reads_wanted(), [], "at {t} ms");
        }
    }

    /// A referee starting afresh (no game to resume) knows nothing of the board: it hears each
    /// standing piece placed, with its tag, once; a resumed one (given the boot's places) hears
    /// no placement.
    #[test]
    fn only_a_referee_that_does_not_know_the_board_hears_it_placed() {
        let uid = TagUid::new(&[4, 1, 2, 3]).unwrap();
        let boot_on = || {
            boot(
                layout(true),
                SensingConfig::default(),
                || frame(10, "X.X..."),
                |cells| {
                    cells
                        .iter()
                        .map(|&cell| {
                            TagRead {
                                at: Millis(10),
                                cell,
                                result: Ok(uid),
                            }
                            .into()
                        })
                        .collect()
                },
            )
        };
        let booted = boot_on();
        let places = booted.places();
        assert_eq!(places.len(), 2);
        let fresh = Referee::new(RefereeConfig::default(), SeededChance::new(1), || {
            Ok(MemStore::new())
        });
        assert!(fresh.sensed().is_empty());
        let (mut pipeline, _) = booted.pipeline(fresh);
        let sensed: Vec<Place> = pipeline.referee().sensed().iter().copied().collect();
        assert_eq!(sensed, places);
        for t in (20..=600).step_by(10) {
            let occupied = Occupancy::from_marks("X.X...").unwrap();
            let decisions = pipeline.scan(Millis(t), occupied, |_| panic!("no read wanted"));
            assert_eq!(decisions, [], "at {t} ms");
        }
    }
}
