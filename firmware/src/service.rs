//! The `umpire run` service: the scan loop that turns the board's hardware into a refereed
//! game, generic over the hardware so it runs the same on the Pi and on the simulated board.
//!
//! Each [`Service::step`] scans when a scan is due, polls the buttons, reads tags only for the
//! cells whose occupancy just changed, runs everything through the [`Pipeline`], and pushes the
//! screen to the OLED when it changed (only the changed bytes; see [`crate::display`]). What it
//! logs is the screen's text, which is public by construction: no log line can carry a secret.
//!
//! Journals live in one folder, one file per game (`game-0001.umpj`, ...). At boot the newest
//! one is resumed if its game is unfinished; the umpire then shows which squares differ from the
//! journaled board.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use embedded_hal::digital::InputPin;
use embedded_hal::i2c::I2c;

use crate::display::Display;
use crate::drivers::buttons::{ButtonEvent, Buttons};
use crate::drivers::nfc::{BankReader, ReadTag, ReaderBank, TagReader};
use crate::journal::FileStore;
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

/// The journal folder: one file per game, numbered.
#[derive(Clone, Debug)]
pub struct JournalDir {
    dir: PathBuf,
}

impl JournalDir {
    /// The folder `dir` (created if missing).
    ///
    /// # Errors
    /// The folder cannot be created.
    pub fn open(dir: impl Into<PathBuf>) -> io::Result<JournalDir> {
        let dir = dir.into();
        fs::create_dir_all(&dir)?;
        Ok(JournalDir { dir })
    }

    /// The journals, oldest first.
    ///
    /// # Errors
    /// The folder cannot be read.
    pub fn games(&self) -> io::Result<Vec<PathBuf>> {
        let mut games = numbered_games(&self.dir)?;
        games.sort();
        Ok(games.into_iter().map(|(_, p)| p).collect())
    }

    /// A maker of new game files, numbered after the newest.
    pub fn maker(&self) -> impl FnMut() -> io::Result<FileStore> + 'static {
        let dir = self.dir.clone();
        move || {
            let next = numbered_games(&dir)?
                .into_iter()
                .map(|(n, _)| n)
                .max()
                .map_or(1, |n| n + 1);
            FileStore::create(dir.join(format!("game-{next:04}.umpj")))
        }
    }
}

/// The game files in `dir`, each with its number, in no particular order.
fn numbered_games(dir: &Path) -> io::Result<Vec<(u32, PathBuf)>> {
    Ok(fs::read_dir(dir)?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let path = e.path();
            Some((game_number(&path)?, path))
        })
        .collect())
}

fn game_number(path: &Path) -> Option<u32> {
    let name = path.file_name()?.to_str()?;
    name.strip_prefix("game-")?
        .strip_suffix(".umpj")?
        .parse()
        .ok()
}

/// Why the service could not start.
#[derive(Debug)]
pub enum StartError {
    /// The journal folder or a journal file could not be used.
    Journal(io::Error),
    /// The newest journal could not be resumed.
    Resume {
        /// The file.
        path: PathBuf,
        /// Why.
        error: ResumeError,
    },
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Journal(e) => write!(
                f,
                "the journal folder cannot be used ({e}): check [journal] dir and that the \
                 service user may write there"
            ),
            StartError::Resume { path, error } => write!(
                f,
                "{} cannot be resumed ({error}): move it out of the journal folder to start a \
                 new game, and keep it for inspection with `umpire-sim replay`",
                path.display()
            ),
        }
    }
}

impl std::error::Error for StartError {}

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
    /// menu. `chance` makes the referee's source of chance; `scan_hz` is the scan rate; `now`
    /// the time since boot.
    ///
    /// # Errors
    /// The journal folder cannot be used, or the newest journal cannot be resumed.
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
                let store = FileStore::open(&path).map_err(StartError::Journal)?;
                let (referee, _) = Referee::resume(
                    config.clone(),
                    chance(),
                    journals.maker(),
                    store,
                    sensed,
                    now,
                )
                .map_err(|error| StartError::Resume { path, error })?;
                if referee.is_over() || !referee.in_play() {
                    // A finished game (or one that never got past set-up): start afresh.
                    Referee::new(config, chance(), journals.maker())
                } else {
                    referee
                }
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
