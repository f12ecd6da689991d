//! The sensing model: scans, tag reads and presses in; board events out.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::debounce::{ScanCell, ScanRule};
use super::{
    BoardEvent, ButtonPress, Millis, Occupancy, Place, SensedCell, SensingFault, SensorInput,
    SensorLayout, TagFailure, TagRead, TagUid,
};

/// The timing of the sensing model. The defaults suit reed switches scanned at 100 Hz; every
/// field can be tuned per board (stronger magnets, bigger squares, slower hands) in the
/// `[sensing]` section of the umpire's configuration file, which checks each value and the
/// combinations that cannot work ([`crate::config`]; the service's pipeline is built with it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SensingConfig {
    /// Consecutive scans that must agree before a switch's new reading is believed (0 counts
    /// as 1).
    ///
    /// Default 3: `docs/hardware.md` §3 recommends 2-3 equal samples at 100 Hz (reed bounce
    /// is under 1 ms, so this is mostly against electrical noise); Millennium boards use 2-5
    /// scans and Certabo a 3-frame vote. At 100 Hz a change is believed 20 ms after the first
    /// scan that saw it.
    pub debounce_samples: u8,
    /// How long, first to last, those scans must span, in ms.
    ///
    /// Default 4: `docs/hardware.md` §3, 2-3 identical samples at least 2 ms apart. It
    /// only matters when scans come in a burst (a scanner catching up); at 100 Hz three scans
    /// span 20 ms anyway.
    pub debounce_span_ms: u32,
    /// How long a believed change must hold before it is reported, and how long the board must
    /// be quiet before [`BoardEvent::Settled`], in ms.
    ///
    /// Default 150. `docs/hardware.md` §3 asks for at least 50 ms (jes/autopatzer) and up to about
    /// 100 ms for sliding pieces; the mature boards wait longer (OpenChess 125 ms, DGT's 200 ms
    /// average delay, picochess drivers 350 ms), and sliding pieces registering intermediate
    /// squares is the most common complaint about them. A piece slid at a slow 15 cm/s keeps a
    /// reed closed for roughly its 15-20 mm pull-in zone, about 100-130 ms (an estimate;
    /// measure it on the real board): 150 ms drops that pass-over and still reports a placed
    /// piece 170 ms after it lands (with the 20 ms debounce). A deliberate lift-and-replace (the
    /// select gesture) takes far longer and is reported. A landing the referee finds
    /// unmistakable is reported sooner (see [`SensingConfig::decide_early`]).
    pub settle_ms: u32,
    /// How long after a piece is placed on a cell with a tag reader its [`BoardEvent::Placed`]
    /// may wait for the read, in ms. Reads that finish later arrive as [`BoardEvent::TagRead`].
    ///
    /// Default 300: a 7-byte UID takes about 12 ms on a muxed antenna and 25-30 ms on common
    /// modules (`docs/hardware.md` §5), but a PN532 sometimes needs over 100 ms and an
    /// MFRC522 stalls for 300 ms now and then. Reads normally finish inside the settle window,
    /// so this only delays placements whose read is slow or lost.
    pub tag_wait_ms: u32,
    /// Raw changes of one switch, none of them [`SensingConfig::settle_ms`] apart, after which
    /// it is reported as [`SensingFault::Chattering`] (0: never).
    ///
    /// Default 8: a piece slid over a square changes it twice, a nudged piece four times or so;
    /// eight changes with no quiet moment is a fault, not a hand.
    pub chatter_limit: u8,
    /// Whether a landing may be reported before its settle window is over, when whoever reads
    /// the board says the changes waiting make an unmistakable decision
    /// ([`Sensing::early_ready`], [`Sensing::settle_now`]).
    ///
    /// Default `true`: a plain move is then decided at the scan that believes the landing
    /// (20 ms after touch-down at 100 Hz) instead of 170 ms after it. `false` keeps every
    /// change waiting out [`SensingConfig::settle_ms`]. Missing from an older file, it is on.
    #[serde(default = "early_default")]
    pub decide_early: bool,
}

fn early_default() -> bool {
    SensingConfig::DEFAULT.decide_early
}

impl SensingConfig {
    /// The defaults, as a constant.
    pub const DEFAULT: SensingConfig = SensingConfig {
        debounce_samples: 3,
        debounce_span_ms: 4,
        settle_ms: 150,
        tag_wait_ms: 300,
        chatter_limit: 8,
        decide_early: true,
    };

    fn scan_rule(&self) -> ScanRule {
        ScanRule {
            samples: self.debounce_samples,
            span_ms: self.debounce_span_ms,
            quiet_ms: self.settle_ms,
            chatter_limit: self.chatter_limit,
        }
    }
}

impl Default for SensingConfig {
    fn default() -> Self {
        SensingConfig::DEFAULT
    }
}

/// What is known of a placed piece's tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TagSlot {
    /// Nothing yet.
    Unread,
    /// Read.
    Read(TagUid),
    /// The driver reported a failure.
    Failed { at: Millis, failure: TagFailure },
}

/// One cell: its scan filter and what has been reported of it.
#[derive(Clone, Copy, Debug)]
struct Track {
    scan: ScanCell,
    /// The occupancy last reported in a Lifted or Placed event.
    reported: bool,
    /// When the debounced reading last changed.
    since: Millis,
    /// The tag of the piece standing here since `since`.
    tag: TagSlot,
}

impl Track {
    const NEW: Track = Track {
        scan: ScanCell::NEW,
        reported: false,
        since: Millis(0),
        tag: TagSlot::Unread,
    };

    /// Whether the debounced reading differs from the reported one.
    fn pending(&self) -> bool {
        self.scan.stable() != self.reported
    }
}

/// Work the model has scheduled, in the order it is done when due at the same time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Due {
    Cell(SensedCell),
    Settled,
    Button,
}

/// The sensing model: a pure, deterministic function from timestamped [`SensorInput`]s to
/// [`BoardEvent`]s.
///
/// Feed it every scan, tag read and button press with [`Sensing::feed`], and call
/// [`Sensing::tick`] when nothing arrives, so waiting events come out on time. The events do
/// not depend on how often `tick` is called.
///
/// # The rules
/// - **Debounce.** A switch's reading is believed after [`SensingConfig::debounce_samples`]
///   agreeing scans spanning [`SensingConfig::debounce_span_ms`]; the change happens, for
///   everything below, at the scan that completed the count.
/// - **Settle.** A believed change is reported ([`BoardEvent::Lifted`] or
///   [`BoardEvent::Placed`], with `at` = when it was believed) once it has held for
///   [`SensingConfig::settle_ms`]. A change undone before then is dropped without a word.
///   So a piece lifted and put back within the window, or slid across a square (closing its
///   switch briefly), reports nothing for that square; a slide from A over B to C reports
///   `Lifted A`, `Placed C`. A piece that rests on B for the whole window has stopped there:
///   `Placed B`, then `Lifted B` when it moves on.
/// - **Quiet board.** Once at least one change has been reported, nothing is waiting to be
///   reported and no believed change has happened for the settle window,
///   [`BoardEvent::Settled`] gives the whole reported board. Lifts of two pieces close together
///   (an attack: own piece, then the enemy) come out as two `Lifted` in the order they
///   happened, then one `Settled`.
/// - **Tags.** When a piece is believed placed on a cell with a reader,
///   [`Sensing::tag_reads_wanted`] lists the cell until a read result is fed. Its `Placed`
///   waits for the result (at most [`SensingConfig::tag_wait_ms`] from the placement) and
///   carries the UID; a failed or missing read gives `Placed` with no tag followed by
///   [`BoardEvent::TagFailed`]. Reads of a piece already reported come out as
///   [`BoardEvent::TagRead`] or `TagFailed`; reads of a cell that has emptied meanwhile are
///   stale and dropped.
/// - **Early.** When the board's reader finds the changes waiting unmistakable
///   ([`Sensing::early_ready`] at a scan that believed a landing, then [`Sensing::settle_now`]),
///   they are reported at once, with `Settled`, instead of after the window (see the [module
///   docs](super), *Deciding early*). The model never does this by itself.
/// - **Buttons** come out once every change believed before the press is reported or dropped.
/// - **Faults.** A switch changing [`SensingConfig::chatter_limit`] times without a quiet gap
///   is reported once as [`SensingFault::Chattering`], and stops holding back `Settled` and
///   buttons until it changes again after a quiet gap; its changes are still reported if they
///   hold for the window. A piece on an unmapped sensor, a tag read on one, and an input
///   stamped before an earlier one are faults too. No input makes the model panic.
/// - **Start.** [`Sensing::new`] starts with an empty board: the pieces already standing are
///   reported as `Placed` (and their tags wanted) once the first scans have held for the window,
///   and many of those reads will miss [`SensingConfig::tag_wait_ms`] (they arrive as `TagRead`
///   later). A model brought up by [`crate::pipeline::boot`] starts believing the board as it
///   stood at boot, its tags read once: only changes after boot are reported.
///
/// ```
/// use firmware::sensing::{
///     BoardEvent, LayoutSetup, Millis, Occupancy, OccupancyFrame, Sensing, SensingConfig,
/// };
///
/// let layout = LayoutSetup::grid(5, 1).validate()?;
/// let mut sensing = Sensing::new(layout, SensingConfig::default());
/// let mut events = Vec::new();
/// for t in (0..=200).step_by(10) {
///     let occupied = Occupancy::from_marks(".X...")?;
///     events.extend(sensing.feed(OccupancyFrame { at: Millis(t), occupied }));
/// }
/// // Believed at 20 ms (the third scan), reported at 170 ms, with the board settled.
/// assert!(matches!(events[..], [
///     BoardEvent::Placed { at: Millis(20), tag: None, .. },
///     BoardEvent::Settled { at: Millis(170), .. },
/// ]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Sensing {
    layout: SensorLayout,
    config: SensingConfig,
    cells: Vec<Track>,
    /// The latest time seen.
    now: Millis,
    /// When a believed change last happened on a switch that was not chattering.
    last_change: Millis,
    /// When the last Lifted or Placed was due.
    last_report: Millis,
    /// Whether something was reported since the last Settled.
    unsettled: bool,
    /// Presses waiting for earlier changes to be reported.
    buttons: VecDeque<ButtonPress>,
}

impl Sensing {
    /// A model of the board `layout`, starting empty at time 0. It tracks the inputs the
    /// scanner reads ([`SensorLayout::cell_count`]) and any other seen closed, not all
    /// [`MAX_CELLS`](super::MAX_CELLS): a scan costs what the board has, so a small board pays
    /// nothing for the largest one the model allows.
    pub fn new(layout: SensorLayout, config: SensingConfig) -> Sensing {
        Sensing {
            cells: vec![Track::NEW; usize::from(layout.cell_count())],
            layout,
            config,
            now: Millis(0),
            last_change: Millis(0),
            last_report: Millis(0),
            unsettled: false,
            buttons: VecDeque::new(),
        }
    }

    /// A model of the board `layout` that starts at `at` believing, and having reported, a
    /// piece on every mapped cell of `occupied`, with the tag results in `reads` (a cell with
    /// a reader and no result is not asked again: its piece is no new placement). What
    /// [`crate::pipeline::boot`] brings up on the board as it stands.
    pub(crate) fn standing(
        layout: SensorLayout,
        config: SensingConfig,
        at: Millis,
        occupied: &Occupancy,
        reads: &[TagRead],
    ) -> Sensing {
        let mut sensing = Sensing::new(layout, config);
        sensing.now = at;
        sensing.last_change = at;
        sensing.last_report = at;
        for cell in occupied.iter() {
            if sensing.layout.place(cell).is_none() {
                // An unmapped input is heard (and reported) by the first scans, as ever.
                continue;
            }
            let tag = reads
                .iter()
                .rev()
                .find(|r| r.cell == cell)
                .map_or(TagSlot::Unread, |r| match r.result {
                    Ok(uid) => TagSlot::Read(uid),
                    Err(failure) => TagSlot::Failed { at: r.at, failure },
                });
            if let Some(t) = sensing.cells.get_mut(cell.index()) {
                *t = Track {
                    scan: ScanCell::CLOSED,
                    reported: true,
                    since: at,
                    tag,
                };
            }
        }
        sensing
    }

    /// The tag known of the piece standing on `cell`: its UID, why it could not be read, or
    /// `None` when nothing was read (or nothing stands there).
    pub(crate) fn tag_of(&self, cell: SensedCell) -> Option<Result<TagUid, TagFailure>> {
        let t = self.track(cell);
        if !t.scan.stable() {
            return None;
        }
        match t.tag {
            TagSlot::Unread => None,
            TagSlot::Read(uid) => Some(Ok(uid)),
            TagSlot::Failed { failure, .. } => Some(Err(failure)),
        }
    }

    /// The layout sensed.
    pub fn layout(&self) -> &SensorLayout {
        &self.layout
    }

    /// The timing in use.
    pub fn config(&self) -> &SensingConfig {
        &self.config
    }

    /// The latest time seen in an input or tick.
    pub fn now(&self) -> Millis {
        self.now
    }

    /// The occupied mapped cells as reported so far by `Lifted` and `Placed`.
    pub fn reported(&self) -> Occupancy {
        self.layout
            .iter()
            .map(|(cell, _)| cell)
            .filter(|c| self.track(*c).reported)
            .collect()
    }

    /// The cells whose tag the reader should read now: cells with a reader where a piece has
    /// just been placed (believed but not yet reported) and no read result has been fed. In
    /// the order the pieces arrived.
    pub fn tag_reads_wanted(&self) -> Vec<SensedCell> {
        let mut wanted: Vec<(Millis, SensedCell)> = self
            .layout
            .iter()
            .filter(|(cell, _)| self.layout.has_tag_reader(*cell))
            .filter_map(|(cell, _)| {
                let t = self.track(cell);
                (t.scan.stable() && !t.reported && t.tag == TagSlot::Unread)
                    .then_some((t.since, cell))
            })
            .collect();
        wanted.sort();
        wanted.into_iter().map(|(_, cell)| cell).collect()
    }

    /// The changes believed and not yet reported (switches found chattering aside), oldest
    /// first: `(place, lifted, when it was believed)`. What [`Sensing::settle_now`] would
    /// report.
    pub fn waiting(&self) -> Vec<(Place, bool, Millis)> {
        let mut waiting: Vec<(Millis, SensedCell, Place, bool)> = self
            .layout
            .iter()
            .filter_map(|(cell, place)| {
                let t = self.track(cell);
                (t.pending() && !t.scan.chattering()).then_some((
                    t.since,
                    cell,
                    place,
                    !t.scan.stable(),
                ))
            })
            .collect();
        waiting.sort();
        waiting
            .into_iter()
            .map(|(at, _, place, lifted)| (place, lifted, at))
            .collect()
    }

    /// Whether the changes waiting may be reported at once, if whoever reads the board finds
    /// them unmistakable ([`SensingConfig::decide_early`]): a landing is among them, the latest
    /// scan believed one of them (the landing, or the lift of a slide whose next square closed
    /// a moment first), and every change waiting is one [`Sensing::settle_now`] can report
    /// whole (no chattering switch, no placement on a reader cell, whose tag must be read
    /// first).
    pub fn early_ready(&self) -> bool {
        if !self.config.decide_early {
            return false;
        }
        let (mut landed, mut now) = (false, false);
        for (cell, _) in self.layout.iter() {
            let t = self.track(cell);
            if !t.pending() {
                continue;
            }
            if t.scan.chattering() || (t.scan.stable() && self.layout.has_tag_reader(cell)) {
                return false;
            }
            landed |= t.scan.stable();
            now |= t.since == self.now;
        }
        landed && now
    }

    /// Reports every change waiting now, without waiting out its settle window, then
    /// [`BoardEvent::Settled`] at the latest time seen, and any button press the changes held
    /// back. For a board whose reader found the waiting changes unmistakable (see
    /// [`Sensing::early_ready`]); a switch found chattering still waits for its window.
    pub fn settle_now(&mut self) -> Vec<BoardEvent> {
        let mut out = Vec::new();
        let now = self.now;
        let mut waiting: Vec<(Millis, SensedCell)> = self
            .layout
            .iter()
            .filter_map(|(cell, _)| {
                let t = self.track(cell);
                (t.pending() && !t.scan.chattering()).then_some((t.since, cell))
            })
            .collect();
        if waiting.is_empty() {
            return out;
        }
        waiting.sort();
        for (_, cell) in waiting {
            self.report(cell, now, &mut out);
        }
        self.unsettled = false;
        out.push(BoardEvent::Settled {
            at: now,
            occupancy: self.reported(),
        });
        self.run_due(now, &mut out);
        out
    }

    /// When [`Sensing::tick`] will next have something to report, if anything is waiting.
    #[cfg(test)]
    pub(crate) fn next_deadline(&self) -> Option<Millis> {
        self.next_due().map(|(at, _)| at)
    }

    /// Takes one input and returns the events it (and the passing of time up to it) caused.
    pub fn feed(&mut self, input: impl Into<SensorInput>) -> Vec<BoardEvent> {
        let input = input.into();
        let mut out = Vec::new();
        let at = self.advance_clock(input.at(), &mut out);
        self.run_due(at, &mut out);
        match input {
            SensorInput::Frame(frame) => self.apply_frame(at, &frame.occupied, &mut out),
            SensorInput::Tag(read) => self.apply_tag(at, read, &mut out),
            SensorInput::Button(press) => self.buttons.push_back(ButtonPress { at, ..press }),
        }
        self.run_due(at, &mut out);
        out
    }

    /// Lets time pass to `now` and returns the events that fell due.
    pub fn tick(&mut self, now: Millis) -> Vec<BoardEvent> {
        let mut out = Vec::new();
        let now = self.advance_clock(now, &mut out);
        self.run_due(now, &mut out);
        out
    }

    fn track(&self, cell: SensedCell) -> &Track {
        self.cells.get(cell.index()).unwrap_or(&Track::NEW)
    }

    /// Moves the clock to `at`, or reports a clock going back and stays put.
    fn advance_clock(&mut self, at: Millis, out: &mut Vec<BoardEvent>) -> Millis {
        if at < self.now {
            out.push(BoardEvent::Fault {
                at: self.now,
                fault: SensingFault::ClockWentBack {
                    stamped: at,
                    latest: self.now,
                },
            });
        } else {
            self.now = at;
        }
        self.now
    }

    /// When the change at `cell` is due to be reported.
    fn due_of(&self, cell: SensedCell, t: &Track) -> Millis {
        let wait =
            if t.scan.stable() && t.tag == TagSlot::Unread && self.layout.has_tag_reader(cell) {
                self.config.settle_ms.max(self.config.tag_wait_ms)
            } else {
                self.config.settle_ms
            };
        t.since.plus(wait)
    }

    /// Whether a change believed at or before `at` is still waiting to be reported on a switch
    /// that is not chattering.
    fn waiting_since(&self, at: Millis) -> bool {
        self.layout.iter().any(|(cell, _)| {
            let t = self.track(cell);
            t.pending() && !t.scan.chattering() && t.since <= at
        })
    }

    /// The earliest piece of scheduled work: cells (lowest number first), then Settled, then
    /// the oldest button press.
    fn next_due(&self) -> Option<(Millis, Due)> {
        let mut best: Option<(Millis, Due)> = None;
        let mut consider = |at: Millis, due: Due| {
            if best.is_none_or(|(b, _)| at < b) {
                best = Some((at, due));
            }
        };
        for (cell, _) in self.layout.iter() {
            let t = self.track(cell);
            if t.pending() {
                consider(self.due_of(cell, t), Due::Cell(cell));
            }
        }
        if self.unsettled && !self.waiting_since(self.now) {
            let quiet = self.last_change.plus(self.config.settle_ms);
            consider(quiet.max(self.last_report), Due::Settled);
        }
        if let Some(press) = self.buttons.front() {
            if !self.waiting_since(press.at) {
                consider(press.at.max(self.last_report), Due::Button);
            }
        }
        best
    }

    /// Does every piece of scheduled work due by `now`, in order.
    fn run_due(&mut self, now: Millis, out: &mut Vec<BoardEvent>) {
        while let Some((at, due)) = self.next_due() {
            if at > now {
                break;
            }
            match due {
                Due::Cell(cell) => self.report(cell, at, out),
                Due::Settled => {
                    self.unsettled = false;
                    out.push(BoardEvent::Settled {
                        at,
                        occupancy: self.reported(),
                    });
                }
                Due::Button => {
                    if let Some(press) = self.buttons.pop_front() {
                        out.push(BoardEvent::Button {
                            button: press.button,
                            at: press.at,
                        });
                    }
                }
            }
        }
    }

    /// Reports the change at `cell`, due at `at`.
    fn report(&mut self, cell: SensedCell, at: Millis, out: &mut Vec<BoardEvent>) {
        let has_reader = self.layout.has_tag_reader(cell);
        let place = self.layout.place(cell);
        let Some(t) = self.cells.get_mut(cell.index()) else {
            return;
        };
        t.reported = t.scan.stable();
        self.last_report = at;
        self.unsettled = true;
        let Some(place) = place else {
            return;
        };
        if !t.reported {
            out.push(BoardEvent::Lifted {
                cell,
                place,
                at: t.since,
            });
            return;
        }
        let tag = match t.tag {
            TagSlot::Read(uid) => Some(uid),
            _ => None,
        };
        out.push(BoardEvent::Placed {
            cell,
            place,
            at: t.since,
            tag,
        });
        let failed = match t.tag {
            TagSlot::Failed { at, failure } => Some((at, failure)),
            TagSlot::Unread if has_reader => Some((at, TagFailure::TimedOut)),
            _ => None,
        };
        if let Some((at, failure)) = failed {
            out.push(BoardEvent::TagFailed {
                cell,
                place,
                at,
                failure,
            });
        }
    }

    /// Takes one scan.
    fn apply_frame(&mut self, at: Millis, occupied: &Occupancy, out: &mut Vec<BoardEvent>) {
        let rule = self.config.scan_rule();
        // An input beyond the layout's count that closes (a chain longer than configured) is
        // watched from then on, so it is reported as an unmapped input like any other.
        if let Some(last) = occupied.last() {
            if last.index() >= self.cells.len() {
                self.cells.resize(last.index() + 1, Track::NEW);
            }
        }
        for (i, t) in self.cells.iter_mut().enumerate() {
            let cell = SensedCell::new(i as u16);
            let place = self.layout.place(cell);
            let scan = t.scan.sample(occupied.contains(cell), at, &rule);
            let Some(place) = place else {
                // Once a flickering unused input is found chattering, it is heard no more.
                if scan.flipped && t.scan.stable() && !t.scan.chattering() {
                    out.push(BoardEvent::Fault {
                        at,
                        fault: SensingFault::UnmappedInput { cell },
                    });
                }
                continue;
            };
            if scan.chatter_started {
                out.push(BoardEvent::Fault {
                    at,
                    fault: SensingFault::Chattering { cell, place },
                });
            }
            if scan.flipped {
                // If the cell is back to its reported state, the pending change is dropped.
                t.since = at;
                t.tag = TagSlot::Unread;
                if !t.scan.chattering() {
                    self.last_change = at;
                }
            }
        }
    }

    /// Takes one tag read.
    fn apply_tag(&mut self, at: Millis, read: TagRead, out: &mut Vec<BoardEvent>) {
        let cell = read.cell;
        let (Some(place), Some(t)) = (self.layout.place(cell), self.cells.get_mut(cell.index()))
        else {
            out.push(BoardEvent::Fault {
                at,
                fault: SensingFault::TagReadOnUnmappedCell { cell },
            });
            return;
        };
        if !t.scan.stable() {
            // The piece left before the read finished: the read says nothing about the board.
            return;
        }
        if !t.reported {
            t.tag = match (read.result, t.tag) {
                (Ok(uid), _) => TagSlot::Read(uid),
                (Err(_), TagSlot::Read(uid)) => TagSlot::Read(uid),
                (Err(failure), _) => TagSlot::Failed { at, failure },
            };
            return;
        }
        out.push(match read.result {
            Ok(uid) => BoardEvent::TagRead {
                cell,
                place,
                at,
                uid,
            },
            Err(failure) => BoardEvent::TagFailed {
                cell,
                place,
                at,
                failure,
            },
        });
    }
}
