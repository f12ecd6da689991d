//! The `umpire run` service: the scan loop that turns the board's hardware into a refereed
//! game, generic over the hardware so it runs the same on the Pi and on the simulated board.
//!
//! Each [`Service::step`] scans when a scan is due, polls the buttons, reads tags only for the
//! cells whose occupancy just changed, runs everything through the [`Pipeline`], and pushes the
//! screen to the OLED when it changed (only the changed bytes; see [`crate::display`]). What it
//! logs is the screen's text, which is public by construction: no log line can carry a secret.
//!
//! Journals live in one owner-only folder, one file per game (`game-0001.umpj`, ...). At boot
//! the newest one is resumed if its game is unfinished; the umpire then shows which squares
//! differ from the journaled board. A damaged newest journal never stops the start: the OLED
//! offers to resume its intact part or to start a new game (see [`crate::journal`], *At boot*).

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use embedded_hal::digital::InputPin;
use embedded_hal::i2c::I2c;

use crate::display::Display;
use crate::drivers::buttons::{ButtonEvent, Buttons};
use crate::drivers::nfc::{BankReader, ReadTag, ReaderBank, TagReader};
use crate::journal::{keep_copy, set_aside, FileStore, HeaderError, JournalError};
use crate::pipeline::Pipeline;
use crate::platform::Scanner;
use crate::referee::{screen_text, Chance, Decision, Referee, RefereeConfig, ResumeError};
use crate::sensing::{
    ButtonPress, Millis, Occupancy, Place, SensedCell, Sensing, SensingConfig, SensorInput,
    SensorLayout,
};
use crate::ui::Screen;

/// Debounced button presses, from whatever reads the buttons.
pub trait ButtonSource {
    /// The presses confirmed by a poll at `now`.
    ///
    /// # Errors
    /// The pins could not be read; the message says which.
    fn poll(&mut self, now: Millis) -> Result<Vec<ButtonPress>, String>;
}

impl<P: InputPin> ButtonSource for Buttons<P> {
    fn poll(&mut self, now: Millis) -> Result<Vec<ButtonPress>, String> {
        Buttons::poll(self, now)
            .map(|events| events.iter().filter_map(ButtonEvent::press).collect())
            .map_err(|e| e.to_string())
    }
}

/// Tag identities for the cells the sensing model asks about.
pub trait TagSource {
    /// One read result per cell in `cells`.
    fn read(&mut self, cells: &[SensedCell], now: Millis) -> Vec<SensorInput>;
}

impl<R: ReadTag> TagSource for TagReader<R> {
    fn read(&mut self, cells: &[SensedCell], now: Millis) -> Vec<SensorInput> {
        self.read_cells(cells, now)
    }
}

impl<R: BankReader> TagSource for ReaderBank<R> {
    fn read(&mut self, cells: &[SensedCell], now: Millis) -> Vec<SensorInput> {
        self.read_cells(cells, now)
    }
}

/// The OLED, or anything that shows screens.
pub trait ScreenSink {
    /// Shows `screen`.
    ///
    /// # Errors
    /// The display did not take it; the message says what to check.
    fn show(&mut self, screen: &Screen) -> Result<(), String>;
}

impl<I: I2c> ScreenSink for Display<I> {
    fn show(&mut self, screen: &Screen) -> Result<(), String> {
        self.show_screen(screen)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}

/// The journal folder: one file per game, numbered (`game-0001.umpj`, ...), owner-only.
#[derive(Clone, Debug)]
pub struct JournalDir {
    dir: PathBuf,
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
        Ok(JournalDir { dir })
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
        move || {
            let taken: Vec<u64> = numbered_files(&dir)?
                .into_iter()
                .map(|(n, _, _)| n)
                .collect();
            FileStore::create(dir.join(game_file_name(next_number(&taken))))
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
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Journal(e) => write!(
                f,
                "the journal folder cannot be used ({e}): check [journal] dir and that the \
                 service user may write there"
            ),
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
    let detail = match set_aside(path) {
        Ok(aside) => format!("Kept as {}", file_name(&aside)),
        Err(e) => format!("{name} could not be moved aside ({e})"),
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
    /// Hardware trouble worth logging (a failed scan, button read or display push).
    pub trouble: Vec<String>,
}

/// The running umpire: hardware in, pipeline, screen out.
pub struct Service<C: Chance> {
    pipeline: Pipeline<FileStore, C>,
    scanner: Box<dyn Scanner>,
    buttons: Option<Box<dyn ButtonSource>>,
    tags: Option<Box<dyn TagSource>>,
    oled: Option<Box<dyn ScreenSink>>,
    period_ms: u64,
    next_scan: Millis,
}

impl<C: Chance> fmt::Debug for Service<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Service")
            .field("screen", self.pipeline.screen())
            .field("period_ms", &self.period_ms)
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
    /// `chance` makes the referee's source of chance; `scan_hz` is the scan rate; `now` the
    /// time since boot.
    ///
    /// # Errors
    /// The journal folder cannot be read.
    pub fn start(
        layout: SensorLayout,
        config: RefereeConfig,
        mut chance: impl FnMut() -> C,
        journals: &JournalDir,
        mut hardware: Hardware,
        scan_hz: u32,
        now: Millis,
    ) -> Result<Service<C>, StartError> {
        let sensing = Sensing::new(layout.clone(), SensingConfig::default());
        let newest = journals.games().map_err(StartError::Journal)?.pop();
        let referee = match newest {
            None => Referee::new(config, chance(), journals.maker()),
            Some(path) => {
                // What stands on the board now: a few scans, majority per cell.
                let sensed = boot_scan(&mut *hardware.scanner, &layout);
                resume_newest(config, &mut chance, journals, &path, sensed, now)
            }
        };
        Ok(Service {
            pipeline: Pipeline::new(sensing, referee),
            scanner: hardware.scanner,
            buttons: hardware.buttons,
            tags: hardware.tags,
            oled: hardware.oled,
            period_ms: u64::from(1000 / scan_hz.max(1)).max(1),
            next_scan: now,
        })
    }

    /// One turn of the loop at `now`.
    pub fn step(&mut self, now: Millis) -> Step {
        let mut step = Step::default();
        if now >= self.next_scan {
            self.next_scan = Millis(now.0 + self.period_ms);
            match self.scanner.scan() {
                Ok(occupied) => {
                    let tags = &mut self.tags;
                    let d = self.pipeline.scan(now, occupied, |cells| match tags {
                        Some(reader) => reader.read(cells, now),
                        None => Vec::new(),
                    });
                    step.decisions.extend(d);
                }
                Err(e) => {
                    step.trouble.push(format!("scan failed: {e}"));
                    step.decisions.extend(self.pipeline.idle(now));
                }
            }
        } else {
            step.decisions.extend(self.pipeline.idle(now));
        }
        if let Some(buttons) = self.buttons.as_mut() {
            match buttons.poll(now) {
                Ok(presses) => {
                    for p in presses {
                        step.decisions.extend(self.pipeline.press(p.at, p.button));
                    }
                }
                Err(e) => step.trouble.push(format!("buttons: {e}")),
            }
        }
        if let Some(screen) = self.pipeline.new_screen() {
            step.screen = Some(screen_text(screen));
            if let Some(oled) = self.oled.as_mut() {
                if let Err(e) = oled.show(screen) {
                    step.trouble.push(format!("OLED: {e}"));
                }
            }
        }
        step
    }

    /// When the next scan is due.
    pub fn next_scan(&self) -> Millis {
        self.next_scan
    }

    /// The pipeline (sensing and referee).
    pub fn pipeline(&self) -> &Pipeline<FileStore, C> {
        &self.pipeline
    }
}

/// The places occupied at boot: seven raw scans, a cell counts when most of them read it.
fn boot_scan(scanner: &mut dyn Scanner, layout: &SensorLayout) -> Vec<Place> {
    let mut counts = [0u8; crate::sensing::MAX_CELLS];
    let mut good = 0u8;
    for _ in 0..7 {
        if let Ok(occ) = scanner.scan() {
            good += 1;
            for c in occ.iter() {
                if let Some(n) = counts.get_mut(c.index()) {
                    *n += 1;
                }
            }
        }
    }
    let occupied = Occupancy::from_cells(
        (0..crate::sensing::MAX_CELLS)
            .filter(|&i| counts[i] * 2 > good)
            .filter_map(|i| u16::try_from(i).ok().map(SensedCell::new)),
    );
    layout.places_in(&occupied).map(|(_, p)| p).collect()
}
