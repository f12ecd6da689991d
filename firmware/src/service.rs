//! The `umpire run` service: the scan loop that turns the board's hardware into a refereed
//! game, generic over the hardware so it runs the same on the Pi and on the simulated board.
//!
//! Each [`Service::step`] scans when a scan is due, or takes the scans a scan thread took (see
//! *Scans keep their rate* below; on a fixed grid that does not drift either way, see
//! [`crate::schedule`]; a step late by more than a period skips the missed scans and counts
//! them in [`Step::missed_scans`]), polls the buttons, reads tags only for the
//! cells whose occupancy just changed, runs everything through the [`Pipeline`], and pushes the
//! screen to the OLED when it changed (only the changed bytes; see [`crate::display`]). What it
//! logs is the screen's text, which is public by construction: no log line can carry a secret.
//!
//! Hardware trouble is logged once when it starts and once when it clears ([`Faults`]). A
//! screen the OLED did not take is sent again on later steps, with a bounded back-off, until it
//! takes (the display re-initialises the panel first); every minute the panel is set up and
//! redrawn whole anyway, for a panel that browned out without a failed write. While the sensors
//! fail, the OLED shows a [`Screen::Fault`] instead of the game.
//!
//! Buttons reach the referee when they come up (a short press) or once they have been held for
//! the long-press time (a held press, [`Pipeline::hold`]): a press must wait to know which it
//! is. The buzzer, if fitted, beeps what the referee decided ([`beep_for`]).
//!
//! Journals live in one owner-only folder, one file per game (`game-0001.umpj`, ...). At boot
//! the newest one is resumed if its game is unfinished, on the board as the sensing model
//! boots on it ([`crate::pipeline::boot`]: the pieces standing are no new placements, their
//! tags are read once); the umpire then shows which squares differ from the journaled board. A damaged newest journal never stops the start: the OLED
//! offers to resume its intact part or to start a new game (see [`crate::journal`], *At boot*).
//!
//! # Scans keep their rate whatever the buses cost
//! The OLED push (a full redraw is about 1.2 KB on I2C, some 28 ms at 400 kHz, computed), the
//! journal's `fdatasync` (10-100+ ms on an SD card), the NFC reads (one per changed cell) and the
//! LED send all run in the step, and a scan taken by the step waits for them. So `umpire run`
//! reads the switches and the buttons on a thread of their own ([`crate::scan_thread`]): it
//! scans on the grid and queues each scan with its time, and [`Service::step`] feeds every
//! queued scan to the pipeline at its own time, in order ([`Scanner::take_scans`]). A plain
//! scanner (the simulator, most tests) is still read by the step itself, on the step's clock.
//!
//! Why this and not the other ways round:
//! - **Nothing on the slow side changes, so nothing is lost and every fault is reported as
//!   before.** The referee, the journal, the NFC reads, the OLED and the LEDs stay on one
//!   thread, in the order they always had: a record is written and synced before the screen,
//!   the buzzer or the LEDs tell the players anything, so a power cut leaves the same files as
//!   ever (a torn tail of an action never announced; `tests/boot_recovery.rs`). A journal sync
//!   handed to a writer thread would let the referee announce before the record is durable, or
//!   hold the screen back for it, and a failed sync would surface after the referee had moved
//!   on; an OLED push cut into slices per step would still leave the sync and the reads.
//! - **The scans the pipeline sees are the ones the hands made**, each at its time, none
//!   coalesced (the debounce counts consecutive scans): a slow step delays the decisions by
//!   what the buses cost, never the sampling, and a lift and a placement inside a slow step are
//!   still seen apart and in order. The tags of a changed cell are read when its scan is
//!   processed: late by the same delay (a few hundred ms at most on the slowest buses
//!   measured); a piece lifted again within it reads as no tag, as one lifted before a read
//!   always has.
//! - **Bounded**: the thread's worst gap is one period plus its wake-up (`tests/service_gap.rs`
//!   measures it over buses far slower than real ones). The queue holds
//!   [`QUEUE_SECONDS`](crate::scan_thread::QUEUE_SECONDS) of scans; a step stalled longer than
//!   that (a hung card) makes the thread wait rather than drop a scan, and the slots it then
//!   misses are counted in [`Step::missed_scans`] and logged.
//!
//! The buttons ride with the scans for the same reason: polled on the scan thread, a tap
//! shorter than a slow step is still seen.

use std::borrow::Cow;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use embedded_hal::digital::OutputPin;
use embedded_hal::i2c::I2c;

use crate::display::Display;
use crate::drivers::buttons::{BeepPattern, ButtonEvent, Buzzer};
use crate::drivers::nfc::{BankReader, ReaderBank};
use crate::faults::{Backoff, Faults};
use crate::inputs::{ButtonSource, Scanner};
use crate::journal::{keep_copy, set_aside, FileStore, HeaderError, JournalError};
use crate::pipeline::{boot, Pipeline};
use crate::referee::{screen_text, Chance, Decision, Referee, RefereeConfig, ResumeError};
use crate::schedule::{ScanRateError, ScanSchedule};
use crate::screens;
use crate::sensing::{
    Button, ButtonPress, Millis, Occupancy, OccupancyFrame, Place, SensedCell, Sensing,
    SensingConfig, SensorInput, SensorLayout,
};
use crate::ui::Screen;

/// What a button gesture means to the referee: a press, or a press held for the long-press
/// time (see [`crate::drivers::buttons`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gesture {
    /// Pressed and released before the long-press time.
    Press(ButtonPress),
    /// Still held at the long-press time.
    Hold(ButtonPress),
}

/// Turns the driver's press, long-press and release events into [`Gesture`]s: a press counts
/// when the button comes up, unless it was held long enough to count as held first (then its
/// release is nothing). A driver with no long-press time gives only presses.
#[derive(Clone, Debug, Default)]
pub struct Gestures {
    down: Vec<Button>,
}

impl Gestures {
    /// The gesture `event` completes, if any.
    pub fn feed(&mut self, event: &ButtonEvent) -> Option<Gesture> {
        match *event {
            ButtonEvent::Pressed(p) => {
                if !self.down.contains(&p.button) {
                    self.down.push(p.button);
                }
                None
            }
            ButtonEvent::LongPress(p) => self.lift(p.button).then_some(Gesture::Hold(p)),
            ButtonEvent::Released { at, button, .. } => self
                .lift(button)
                .then_some(Gesture::Press(ButtonPress { at, button })),
        }
    }

    fn lift(&mut self, button: Button) -> bool {
        let before = self.down.len();
        self.down.retain(|&b| b != button);
        self.down.len() != before
    }
}

/// The buzzer, or anything that beeps.
pub trait BeepSink {
    /// Starts `pattern` at `now`, cutting off what was playing.
    ///
    /// # Errors
    /// The pin could not be driven; the message says what to check.
    fn play(&mut self, pattern: BeepPattern, now: Millis) -> Result<(), String>;

    /// Moves the pattern on to `now` (call every step: the beeps are timed by it).
    ///
    /// # Errors
    /// As [`BeepSink::play`].
    fn tick(&mut self, now: Millis) -> Result<(), String>;
}

impl<P: OutputPin> BeepSink for Buzzer<P> {
    fn play(&mut self, pattern: BeepPattern, now: Millis) -> Result<(), String> {
        Buzzer::play(self, pattern, now).map_err(|e| e.to_string())
    }

    fn tick(&mut self, now: Millis) -> Result<(), String> {
        Buzzer::tick(self, now).map_err(|e| e.to_string())
    }
}

/// The beep for what the referee decided, the most urgent first: a refusal or anything the
/// hands must put right (one long beep), a battle, a game over or a takeback offer (three
/// beeps), an accepted step (two short). The same refusal beep for every refusal, so the sound
/// tells the table no more than the screen.
pub fn beep_for(decisions: &[Decision]) -> Option<BeepPattern> {
    let rank = |d: &Decision| match d {
        Decision::Refused { .. }
        | Decision::WrongPiece { .. }
        | Decision::SetupProblems(_)
        | Decision::JournalFailed(_)
        | Decision::TagProblem(_) => Some((3, BeepPattern::Refuse)),
        Decision::Battle(_) | Decision::GameOver { .. } | Decision::TakebackOffered { .. } => {
            Some((2, BeepPattern::Alert))
        }
        Decision::Moved { .. }
        | Decision::Acted { .. }
        | Decision::GameStarted
        | Decision::Deployed(_)
        | Decision::GroupPlaced { .. }
        | Decision::TookBack { .. }
        | Decision::MoveCorrected { .. } => Some((1, BeepPattern::Confirm)),
        _ => None,
    };
    decisions
        .iter()
        .filter_map(rank)
        .max_by_key(|(r, _)| *r)
        .map(|(_, p)| p)
}

/// Tag identities for the cells the sensing model asks about.
pub trait TagSource {
    /// One read result per cell in `cells`.
    fn read(&mut self, cells: &[SensedCell], now: Millis) -> Vec<SensorInput>;

    /// The scan found `cells` emptied: a reader that identifies a piece by the tag new in its
    /// field forgets the tags it identified there. Reads nothing.
    fn lifted(&mut self, _cells: &[SensedCell]) {}

    /// What is wrong with the readers after the last [`TagSource::read`], for the log (a
    /// reader that does not answer); `None` when they answered.
    fn fault(&self) -> Option<String> {
        None
    }
}

impl<R: BankReader> TagSource for ReaderBank<R> {
    fn read(&mut self, cells: &[SensedCell], now: Millis) -> Vec<SensorInput> {
        self.read_cells(cells, now)
    }

    fn lifted(&mut self, cells: &[SensedCell]) {
        for &cell in cells {
            ReaderBank::lifted(self, cell);
        }
    }

    fn fault(&self) -> Option<String> {
        self.last_fault().map(str::to_string)
    }
}

/// The OLED, or anything that shows screens.
pub trait ScreenSink {
    /// Shows page `page` of `screen` (wrapping round; most screens have one).
    ///
    /// # Errors
    /// The display did not take it; the message says what to check.
    fn show(&mut self, screen: &Screen, page: usize) -> Result<(), String>;

    /// Forgets the panel's state: the next [`ScreenSink::show`] sets it up and draws it whole.
    fn reset(&mut self) {}
}

impl<I: I2c> ScreenSink for Display<I> {
    fn show(&mut self, screen: &Screen, page: usize) -> Result<(), String> {
        self.show_page(screen, page)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    fn reset(&mut self) {
        Display::reset(self);
    }
}

impl<S: ScreenSink + ?Sized> ScreenSink for Box<S> {
    fn show(&mut self, screen: &Screen, page: usize) -> Result<(), String> {
        (**self).show(screen, page)
    }

    fn reset(&mut self) {
        (**self).reset();
    }
}

/// The journal folder: one file per game, numbered (`game-0001.umpj`, ...), owner-only.
#[derive(Clone, Debug)]
pub struct JournalDir {
    dir: PathBuf,
    /// A simulated slow card's extra time per sync, for new games' files.
    slow_sync: Option<std::time::Duration>,
}

impl JournalDir {
    /// The folder `dir`, created if missing (mode 0700, like any parent it creates), and made
    /// owner-only if it was not: the journals hold both secret set-ups.
    ///
    /// # Errors
    /// The folder cannot be created or its mode set.
    pub fn open(dir: impl Into<PathBuf>) -> io::Result<JournalDir> {
        let dir = dir.into();
        private_dir(&dir)?;
        Ok(JournalDir {
            dir,
            slow_sync: None,
        })
    }

    /// The same folder on a simulated slow card: each new game's file takes `delay` more per
    /// sync ([`FileStore::with_slow_sync`]).
    #[must_use]
    pub fn with_slow_sync(mut self, delay: std::time::Duration) -> JournalDir {
        self.slow_sync = Some(delay);
        self
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The journals, oldest first.
    ///
    /// # Errors
    /// The folder cannot be read.
    pub fn games(&self) -> io::Result<Vec<PathBuf>> {
        let mut games: Vec<(u64, PathBuf)> = numbered_files(&self.dir)?
            .into_iter()
            .filter(|(_, _, journal)| *journal)
            .map(|(n, path, _)| (n, path))
            .collect();
        games.sort();
        Ok(games.into_iter().map(|(_, p)| p).collect())
    }

    /// A maker of new game files, numbered after the newest.
    pub fn maker(&self) -> impl FnMut() -> io::Result<FileStore> + 'static {
        let dir = self.dir.clone();
        let slow_sync = self.slow_sync;
        move || {
            let taken: Vec<u64> = numbered_files(&dir)?
                .into_iter()
                .map(|(n, _, _)| n)
                .collect();
            let store = FileStore::create(dir.join(game_file_name(next_number(&taken))))?;
            Ok(match slow_sync {
                Some(delay) => store.with_slow_sync(delay),
                None => store,
            })
        }
    }
}

/// The name of game `n`'s journal.
fn game_file_name(n: u64) -> String {
    format!("game-{n:04}.umpj")
}

/// The number for a new game: one after the highest taken, so games sort in the order they were
/// played; if that would overflow (someone named a file `game-18446744073709551615.umpj`), the
/// lowest free number, which always exists because a folder cannot hold 2^64 files.
fn next_number(taken: &[u64]) -> u64 {
    match taken.iter().max() {
        None => 1,
        Some(&max) => max.checked_add(1).unwrap_or_else(|| {
            let taken: std::collections::BTreeSet<u64> = taken.iter().copied().collect();
            (1..).find(|n| !taken.contains(n)).unwrap_or(1)
        }),
    }
}

/// Every numbered file in `dir`, in no particular order: each with its number and whether it is
/// a journal (`game-N.umpj`) or a copy kept beside one (`game-N.umpj.damaged-K`), whose number
/// is taken too so that no new game is confused with it.
fn numbered_files(dir: &Path) -> io::Result<Vec<(u64, PathBuf, bool)>> {
    Ok(fs::read_dir(dir)?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let path = e.path();
            let (n, journal) = game_number(&path)?;
            Some((n, path, journal))
        })
        .collect())
}

fn game_number(path: &Path) -> Option<(u64, bool)> {
    let name = path.file_name()?.to_str()?;
    let (number, rest) = name.strip_prefix("game-")?.split_once(".umpj")?;
    let journal = rest.is_empty();
    if !journal && !rest.starts_with(".damaged-") {
        return None;
    }
    Some((number.parse().ok()?, journal))
}

/// Creates `dir` (and missing parents) owner-only, and makes an existing `dir` owner-only.
#[cfg(unix)]
fn private_dir(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    let mode = fs::metadata(dir)?.permissions().mode();
    if mode & 0o077 != 0 {
        fs::set_permissions(dir, fs::Permissions::from_mode(mode & 0o700))?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn private_dir(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir)
}

/// Why the service could not start.
#[derive(Debug)]
pub enum StartError {
    /// The journal folder could not be read.
    Journal(io::Error),
    /// The scan rate is one the scan schedule cannot keep.
    ScanRate(ScanRateError),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Journal(e) => write!(
                f,
                "the journal folder cannot be used ({e}): check [journal] dir and that the \
                 service user may write there"
            ),
            StartError::ScanRate(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for StartError {}

/// The referee for the newest journal at `path`: its game resumed if it is unfinished and in
/// play, the recovery choice if a record is damaged, or the game menu with a word on what was
/// found if nothing can be resumed (the file is then moved aside, never deleted).
fn resume_newest<C: Chance>(
    config: RefereeConfig,
    chance: &mut impl FnMut() -> C,
    journals: &JournalDir,
    path: &Path,
    sensed: Vec<Place>,
    now: Millis,
) -> Referee<FileStore, C> {
    let name = file_name(path);
    let opened = FileStore::open(path).map_err(|source| {
        ResumeError::Journal(JournalError::Io {
            doing: "open",
            source,
        })
    });
    let resumed = opened.and_then(|store| {
        Referee::resume(
            config.clone(),
            chance(),
            journals.maker(),
            store,
            sensed.clone(),
            now,
        )
    });
    let error = match resumed {
        Ok((referee, _)) if !referee.is_over() && referee.in_play() => return referee,
        // A finished game (or one that never got past set-up): start afresh.
        Ok(_) => return Referee::new(config, chance(), journals.maker()),
        Err(ResumeError::Journal(JournalError::Corrupt { .. })) => {
            let copy_of = path.to_path_buf();
            let recovered = FileStore::open(path)
                .map_err(|source| {
                    ResumeError::Journal(JournalError::Io {
                        doing: "open",
                        source,
                    })
                })
                .and_then(|store| {
                    Referee::recover(
                        config.clone(),
                        chance(),
                        journals.maker(),
                        store,
                        move || keep_copy(&copy_of).map(|copy| file_name(&copy)),
                        sensed,
                        now,
                    )
                });
            match recovered {
                Ok(referee) => return referee,
                Err(e) => e,
            }
        }
        Err(e) => e,
    };
    // Nothing to resume: say what was found, and move the file aside so the next boot does not
    // find it again.
    let found = match &error {
        ResumeError::Journal(JournalError::Header(
            HeaderError::Empty | HeaderError::Truncated { .. },
        )) => "never begun: the power went as it was created".to_string(),
        other => format!("cannot be resumed: {other}"),
    };
    // A file that could not be read (a passing I/O error) may be whole: it stays where it is,
    // and the next start tries it again. Anything else is moved aside, never deleted.
    let detail = if matches!(error, ResumeError::Journal(JournalError::Io { .. })) {
        format!("{name} left in place: the next start tries it again")
    } else if let ResumeError::Rebuild(crate::referee::RebuildError::OtherFile { key, .. }) = &error
    {
        // Whole, on other data files: with the file put back, the next start resumes it.
        format!("{name} left in place: the next start on its {key} resumes it")
    } else {
        match set_aside(path) {
            Ok(aside) => format!("Kept as {}", file_name(&aside)),
            Err(e) => format!("{name} could not be moved aside ({e})"),
        }
    };
    Referee::nothing_to_resume(config, chance(), journals.maker(), found, detail)
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// What a service step did.
#[derive(Debug, Default)]
pub struct Step {
    /// The referee's decisions.
    pub decisions: Vec<Decision>,
    /// The new screen's text, when the screen changed (safe to log).
    pub screen: Option<String>,
    /// Hardware trouble worth logging: a fault of a part (a scan, the buttons, the display,
    /// the buzzer) when it starts and when it clears, never once per failed attempt.
    pub trouble: Vec<String>,
    /// Scans skipped because the step came later than a whole period after the last scan
    /// (a slow OLED push, a journal sync, NFC reads), or, with a scan thread, because that
    /// thread woke late or waited for room in its queue; 0 on time.
    pub missed_scans: u64,
}

/// The service's OLED and what it keeps about it, borrowed for one push.
struct OledOut<'a> {
    sink: Option<&'a mut Box<dyn ScreenSink>>,
    /// What the OLED last took (the screen and its page), if it took it.
    on: &'a mut Option<(Screen, usize)>,
    pager: &'a mut screens::Pager,
    retry: &'a mut Backoff,
    refresh: &'a mut Millis,
}

impl OledOut<'_> {
    /// Sends `wanted` when it differs from what the OLED took, or is due again after a failure
    /// (with back-off) or for the periodic refresh.
    fn push(self, wanted: &Screen, now: Millis, faults: &mut Faults, trouble: &mut Vec<String>) {
        let Some(oled) = self.sink else {
            return;
        };
        if now >= *self.refresh {
            *self.refresh = now.plus(OLED_REFRESH_MS);
            oled.reset();
            *self.on = None;
        }
        if !self.retry.due(now.0) {
            return;
        }
        let page = self.pager.page(wanted, now.0);
        if self
            .on
            .as_ref()
            .is_some_and(|(s, p)| *p == page && s == wanted)
        {
            return;
        }
        match oled.show(wanted, page) {
            Ok(()) => {
                self.retry.succeeded();
                trouble.extend(faults.set(OLED, None));
                *self.on = Some((wanted.clone(), page));
            }
            Err(e) => {
                self.retry.failed(now.0);
                trouble.extend(faults.set(OLED, Some(&e)));
                *self.on = None;
            }
        }
    }
}

/// The parts whose faults the running service tracks.
const SENSORS: &str = "sensors";
const BUTTONS: &str = "buttons";
const OLED: &str = "OLED";
const BUZZER: &str = "buzzer";
const NFC: &str = "NFC readers";
const LEDS: &str = "LEDs";
const WEB: &str = "phone pages";

/// How often the OLED is set up and redrawn whole even without an error: a panel that browned
/// out may come back dark without ever refusing a write. A full frame and the init sequence are
/// about 1.2 KB, some 25 ms at 400 kHz (computed), once a minute.
pub const OLED_REFRESH_MS: u32 = 60_000;

/// The running umpire: hardware in, pipeline, screen out.
pub struct Service<C: Chance> {
    pipeline: Pipeline<FileStore, C>,
    scanner: Box<dyn Scanner>,
    buttons: Option<Box<dyn ButtonSource>>,
    tags: Option<Box<dyn TagSource>>,
    oled: Option<Box<dyn ScreenSink>>,
    scans: ScanSchedule,
    /// The cells the last good scan read occupied (to tell the tag readers what emptied).
    last_scan: Occupancy,
    buzzer: Option<Box<dyn BeepSink>>,
    gestures: Gestures,
    faults: Faults,
    /// What the boot decided and found wrong (a tag reader that did not answer), told with
    /// the first step.
    booting: Step,
    /// What the OLED last took (the screen and its page), if it took it.
    on_oled: Option<(Screen, usize)>,
    /// Which page of the wanted screen is due.
    pager: screens::Pager,
    oled_retry: Backoff,
    oled_refresh: Millis,
    /// The LED guidance, if fitted and enabled (`[leds]`).
    leds: Option<crate::guidance::LedGuidance>,
    /// Whether the LEDs last followed the sensors' fault (`Some(true)`) or the game.
    on_leds_fault: Option<bool>,
    /// The latest time fed to the pipeline (scans from a scan thread never go back before it).
    fed: Millis,
    /// The phone pages' publisher, if `[web]` is enabled.
    web: Option<crate::web::Publisher>,
    /// The seats' phone codes handed out on the OLED, with the phone pages.
    handout: Option<crate::web::handout::Handout>,
}

impl<C: Chance> fmt::Debug for Service<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Service")
            .field("screen", self.pipeline.screen())
            .field("scan_hz", &self.scans.hz())
            .finish_non_exhaustive()
    }
}

/// The hardware a service runs on.
pub struct Hardware {
    /// The occupancy sensor.
    pub scanner: Box<dyn Scanner>,
    /// The buttons, if fitted.
    pub buttons: Option<Box<dyn ButtonSource>>,
    /// The NFC reader, if fitted.
    pub tags: Option<Box<dyn TagSource>>,
    /// The OLED, if fitted.
    pub oled: Option<Box<dyn ScreenSink>>,
}

impl fmt::Debug for Hardware {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hardware")
            .field("buttons", &self.buttons.is_some())
            .field("tags", &self.tags.is_some())
            .field("oled", &self.oled.is_some())
            .finish_non_exhaustive()
    }
}

impl<C: Chance> Service<C> {
    /// Starts the umpire: resumes the newest unfinished game in `journals`, or opens the game
    /// menu. A newest journal that is damaged, empty or unreadable never stops the start: the
    /// OLED says what was found and offers what can be done (see [`Referee::recover`]).
    /// `sensing` times the sensing model the pipeline runs (the configuration's `[sensing]`;
    /// the referee hears its settle window too, see [`Pipeline::new`]). `chance` makes the
    /// referee's source of chance; `scan_hz` is the scan rate; `now` the time since boot.
    ///
    /// # Errors
    /// The journal folder cannot be read, or `scan_hz` is 0 or above
    /// [`MAX_SCAN_HZ`](crate::schedule::MAX_SCAN_HZ).
    // Each argument is a part opened or a setting read at start (see `boot::Parts`, which
    // holds them), none of which belongs with another.
    #[allow(clippy::too_many_arguments)]
    pub fn start(
        layout: SensorLayout,
        sensing: SensingConfig,
        config: RefereeConfig,
        mut chance: impl FnMut() -> C,
        journals: &JournalDir,
        mut hardware: Hardware,
        scan_hz: u32,
        now: Millis,
    ) -> Result<Service<C>, StartError> {
        let scans = ScanSchedule::new(now, scan_hz).map_err(StartError::ScanRate)?;
        let newest = journals.games().map_err(StartError::Journal)?.pop();
        let mut faults = Faults::new();
        // What the boot decided and found wrong, told with the first step.
        let mut booting = Step::default();
        let (pipeline, last_scan) = match newest {
            // No game to go on with: the referee starts at the menu knowing nothing of the
            // board, and the first scans tell it what stands there.
            None => {
                let sensing = Sensing::new(layout, sensing);
                let referee = Referee::new(config, chance(), journals.maker());
                (Pipeline::new(sensing, referee), Occupancy::EMPTY)
            }
            Some(path) => {
                // The sensing model comes up on the board as it stands (its tags read once),
                // and whichever referee the journal gives is joined to it.
                let scanner = &mut hardware.scanner;
                let tags = &mut hardware.tags;
                let mut read = false;
                let booted = boot(
                    layout,
                    sensing,
                    || {
                        scanner
                            .scan()
                            .ok()
                            .map(|occupied| OccupancyFrame { at: now, occupied })
                    },
                    |cells| match tags.as_mut() {
                        Some(reader) => {
                            read = true;
                            reader.read(cells, now)
                        }
                        None => Vec::new(),
                    },
                );
                if let (true, Some(reader)) = (read, hardware.tags.as_ref()) {
                    let fault = reader.fault();
                    booting.trouble.extend(faults.set(NFC, fault.as_deref()));
                }
                let standing = booted.standing();
                let referee =
                    resume_newest(config, &mut chance, journals, &path, booted.places(), now);
                let (pipeline, decisions) = booted.pipeline(referee);
                booting.decisions = decisions;
                (pipeline, standing)
            }
        };
        Ok(Service {
            pipeline,
            scanner: hardware.scanner,
            buttons: hardware.buttons,
            tags: hardware.tags,
            oled: hardware.oled,
            scans,
            last_scan,
            buzzer: None,
            gestures: Gestures::default(),
            faults,
            booting,
            on_oled: None,
            pager: screens::Pager::default(),
            oled_retry: Backoff::OUTPUT,
            oled_refresh: now.plus(OLED_REFRESH_MS),
            leds: None,
            on_leds_fault: None,
            fed: now,
            web: None,
            handout: None,
        })
    }

    /// Fits the buzzer (the service beeps what the referee decides).
    pub fn set_buzzer(&mut self, buzzer: Option<Box<dyn BeepSink>>) {
        self.buzzer = buzzer;
    }

    /// Fits the LED guidance chain: it lights what the OLED shows, from the next step on.
    pub fn set_leds(&mut self, leds: Option<crate::guidance::LedGuidance>) {
        self.leds = leds;
    }

    /// Publishes each step's table to the phone pages' server ([`crate::web`]).
    pub fn set_web(&mut self, web: Option<crate::web::Publisher>) {
        self.web = web;
    }

    /// The phone pages' publisher, if fitted (its tokens, for the seats' addresses).
    pub fn web(&self) -> Option<&crate::web::Publisher> {
        self.web.as_ref()
    }

    /// Hands each seat its phone code on the OLED when a game's tokens are made and from the
    /// OK menu's "Phone pages" ([`crate::web::handout`]); needs the publisher
    /// ([`Service::set_web`]). While it is open it takes the buttons, never the scans.
    pub fn set_handout(&mut self, handout: Option<crate::web::handout::Handout>) {
        self.handout = handout;
    }

    /// The phone codes' hand-out, if fitted.
    pub fn handout(&self) -> Option<&crate::web::handout::Handout> {
        self.handout.as_ref()
    }

    /// Fits the OLED (after start: the boot keeps it to show faults until the service runs).
    pub fn set_oled(&mut self, oled: Option<Box<dyn ScreenSink>>) {
        self.oled = oled;
        self.on_oled = None;
    }

    /// One turn of the loop at `now`.
    pub fn step(&mut self, now: Millis) -> Step {
        let mut step = std::mem::take(&mut self.booting);
        let due = self.scans.poll(now);
        if let Some(scans) = self.scanner.take_scans() {
            // A scan thread scanned on its own grid: each scan at its own time, in order.
            let idle = scans.is_empty();
            for scanned in scans {
                // Never back in time: a scan stamped in the millisecond the last step idled.
                let at = scanned.at.max(self.fed);
                step.missed_scans += scanned.missed;
                self.take_scan(at, scanned.occupied, &mut step);
                if let Some(events) = scanned.buttons {
                    self.take_buttons(events, &mut step);
                }
            }
            if idle {
                step.decisions.extend(self.pipeline.idle(now.max(self.fed)));
            }
        } else if let Some(due) = due {
            step.missed_scans = due.missed;
            let scanned = self.scanner.scan();
            self.take_scan(now, scanned, &mut step);
        } else {
            step.decisions.extend(self.pipeline.idle(now));
        }
        // The sensors' fault takes the OLED: the phone codes cannot be shown, so the hand-out
        // closes (a code up is hidden) and takes no button unseen; "Phone pages" reopens it.
        if self.faults.is_active(SENSORS) {
            if let Some(handout) = self.handout.as_mut() {
                handout.close();
            }
        }
        if let Some(buttons) = self.buttons.as_mut() {
            let events = buttons.poll(now);
            self.take_buttons(events, &mut step);
        }
        self.fed = self.fed.max(now);
        if let Some(screen) = self.pipeline.new_screen() {
            step.screen = Some(screen_text(screen));
        }
        self.beep(&step.decisions, now, &mut step.trouble);
        // The wanted screen, worked out once and fed to the OLED and the LEDs alike.
        let wanted = Self::wanted_screen(&self.faults, &self.pipeline);
        let sensors_fault = self.faults.is_active(SENSORS);
        if let Some(web) = self.web.as_mut() {
            web.update(self.pipeline.referee(), &wanted);
            step.trouble.extend(self.faults.set(WEB, web.trouble()));
            if let Some(handout) = self.handout.as_mut() {
                let sensed = self.pipeline.referee().sensed();
                handout.follow(web, sensed);
                handout.tick(now);
                if step.decisions.contains(&Decision::PhonePages) {
                    handout.open(web, sensed);
                }
            }
        }
        // The phone codes cover the game's screen on the OLED only (never the LEDs, the public
        // page or the log), and never a sensors' fault.
        let code = self
            .handout
            .as_ref()
            .filter(|_| self.web.is_some() && !sensors_fault)
            .and_then(crate::web::handout::Handout::screen);
        let shown = code.as_ref().unwrap_or(&wanted);
        let oled = OledOut {
            sink: self.oled.as_mut(),
            on: &mut self.on_oled,
            pager: &mut self.pager,
            retry: &mut self.oled_retry,
            refresh: &mut self.oled_refresh,
        };
        oled.push(shown, now, &mut self.faults, &mut step.trouble);
        if let Some(leds) = self.leds.as_mut() {
            // The LEDs follow a new screen of the game, and the sensors' fault taking the
            // OLED or giving it back.
            let new = step.screen.is_some() || self.on_leds_fault != Some(sensors_fault);
            self.on_leds_fault = Some(sensors_fault);
            if let Some(result) = leds.update(&wanted, new, now) {
                step.trouble
                    .extend(self.faults.set(LEDS, result.err().as_deref()));
            }
        }
        step
    }

    /// Feeds one scan taken at `at` to the pipeline, reading tags where occupancy changed.
    fn take_scan(&mut self, at: Millis, scanned: Result<Occupancy, String>, step: &mut Step) {
        self.fed = at;
        let occupied = match scanned {
            Ok(occupied) => occupied,
            Err(e) => {
                step.trouble.extend(self.faults.set(SENSORS, Some(&e)));
                step.decisions.extend(self.pipeline.idle(at));
                return;
            }
        };
        step.trouble.extend(self.faults.set(SENSORS, None));
        if let Some(reader) = self.tags.as_mut() {
            let emptied: Vec<SensedCell> = self
                .last_scan
                .iter()
                .filter(|&c| !occupied.contains(c))
                .collect();
            if !emptied.is_empty() {
                reader.lifted(&emptied);
            }
        }
        self.last_scan = occupied;
        let tags = &mut self.tags;
        let mut read = false;
        let d = self.pipeline.scan(at, occupied, |cells| match tags {
            Some(reader) => {
                read = true;
                reader.read(cells, at)
            }
            None => Vec::new(),
        });
        step.decisions.extend(d);
        if let (true, Some(reader)) = (read, self.tags.as_ref()) {
            let fault = reader.fault();
            step.trouble.extend(self.faults.set(NFC, fault.as_deref()));
        }
    }

    /// Feeds what one poll of the buttons found to the referee, as gestures.
    fn take_buttons(&mut self, polled: Result<Vec<ButtonEvent>, String>, step: &mut Step) {
        match polled {
            Ok(events) => {
                step.trouble.extend(self.faults.set(BUTTONS, None));
                for event in &events {
                    let gesture = self.gestures.feed(event);
                    if let (Some(Gesture::Press(p) | Gesture::Hold(p)), Some(handout), Some(web)) =
                        (gesture, self.handout.as_mut(), self.web.as_ref())
                    {
                        // While the codes are handed out the buttons are theirs (never while
                        // the sensors' fault hides them: the hand-out is closed then).
                        if self.faults.is_active(SENSORS) {
                            handout.close();
                        }
                        if handout.press(p.button, web) {
                            continue;
                        }
                    }
                    match gesture {
                        Some(Gesture::Press(p)) => {
                            step.decisions.extend(self.pipeline.press(p.at, p.button));
                        }
                        Some(Gesture::Hold(p)) => {
                            step.decisions.extend(self.pipeline.hold(p.at, p.button));
                        }
                        None => {}
                    }
                }
            }
            Err(e) => step.trouble.extend(self.faults.set(BUTTONS, Some(&e))),
        }
    }

    /// What the OLED should show: the game (borrowed), or the sensors' fault while they fail.
    fn wanted_screen<'a>(faults: &Faults, pipeline: &'a Pipeline<FileStore, C>) -> Cow<'a, Screen> {
        match faults.active().find(|(part, _)| *part == SENSORS) {
            Some((_, problem)) => Cow::Owned(Screen::Fault {
                part: "Sensors".into(),
                problem: problem.into(),
                fix: "check the sensor cable and power; `umpire doctor` names the part".into(),
                more: 0,
            }),
            None => Cow::Borrowed(pipeline.screen()),
        }
    }

    fn beep(&mut self, decisions: &[Decision], now: Millis, trouble: &mut Vec<String>) {
        let Some(buzzer) = self.buzzer.as_mut() else {
            return;
        };
        let result = match beep_for(decisions) {
            Some(pattern) => buzzer.play(pattern, now),
            None => buzzer.tick(now),
        };
        trouble.extend(self.faults.set(BUZZER, result.err().as_deref()));
    }

    /// When the next scan is due: a slot of the fixed grid, always after the last step.
    pub fn next_scan(&self) -> Millis {
        self.scans.next_due()
    }

    /// The pipeline (sensing and referee).
    pub fn pipeline(&self) -> &Pipeline<FileStore, C> {
        &self.pipeline
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drivers::buttons::ActiveLevel;
    use embedded_hal_mock::eh1::digital::{Mock as PinMock, State, Transaction as PinTx};

    /// The service's buzzer, through [`BeepSink`]: a refused move sounds one 400 ms beep timed
    /// by the steps' clock (never by sleeping), the pin written only when it changes.
    #[test]
    fn a_refusal_beeps_once_for_400_ms_timed_by_the_steps() {
        let pin = PinMock::new(&[
            PinTx::set(State::Low),
            PinTx::set(State::High),
            PinTx::set(State::Low),
        ]);
        let mut buzzer: Box<dyn BeepSink> =
            Box::new(Buzzer::new(pin.clone(), ActiveLevel::High).unwrap());
        let started = [Decision::TakebackDeclined, Decision::GameStarted];
        assert_eq!(beep_for(&started), Some(BeepPattern::Confirm));
        buzzer.play(BeepPattern::Refuse, Millis(1000)).unwrap();
        for t in (1000..1400).step_by(10) {
            buzzer.tick(Millis(t)).unwrap();
        }
        buzzer.tick(Millis(1400)).unwrap();
        buzzer.tick(Millis(1500)).unwrap();
        drop(buzzer);
        let mut pin = pin;
        pin.done();
    }

    #[test]
    fn the_most_urgent_beep_wins_and_quiet_decisions_are_silent() {
        assert_eq!(beep_for(&[]), None);
        assert_eq!(beep_for(&[Decision::BoardMatches]), None);
        assert_eq!(
            beep_for(&[
                Decision::GameStarted,
                Decision::TakebackOffered { to_ply: 1 },
                Decision::TagProblem("e4".into()),
            ]),
            Some(BeepPattern::Refuse)
        );
        assert_eq!(
            beep_for(&[
                Decision::GameStarted,
                Decision::TakebackOffered { to_ply: 1 }
            ]),
            Some(BeepPattern::Alert)
        );
    }

    #[test]
    fn gestures_turn_driver_events_into_presses_and_holds() {
        let p = |t, button| ButtonPress {
            at: Millis(t),
            button,
        };
        let mut g = Gestures::default();
        assert_eq!(g.feed(&ButtonEvent::Pressed(p(0, Button::Ok))), None);
        let up = ButtonEvent::Released {
            at: Millis(90),
            button: Button::Ok,
            held_ms: 90,
        };
        assert_eq!(g.feed(&up), Some(Gesture::Press(p(90, Button::Ok))));
        assert_eq!(g.feed(&ButtonEvent::Pressed(p(100, Button::Back))), None);
        let long = ButtonEvent::LongPress(p(1600, Button::Back));
        assert_eq!(g.feed(&long), Some(Gesture::Hold(p(1600, Button::Back))));
        let up = ButtonEvent::Released {
            at: Millis(2000),
            button: Button::Back,
            held_ms: 1900,
        };
        assert_eq!(g.feed(&up), None, "the release of a hold is nothing");
    }
}
