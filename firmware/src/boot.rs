//! Boot: the OLED first, then everything else, retried until it works.
//!
//! The OLED is opened before anything else so that every start-up fault can be shown on it: a
//! configuration with problems, a sensor, the buttons or the NFC reader that cannot be opened,
//! a journal folder that cannot be used. Each fault is shown as a [`Screen::Fault`] with its fix
//! and logged once (see [`crate::faults`]); the umpire never exits for it, but opens everything
//! again with a bounded back-off and goes on to the game menu by itself once the fault is
//! fixed. Under systemd this means the unit never hits a start limit and the board is never
//! left blank.
//!
//! [`Umpire`] is the whole life of the service: starting (with faults) then running a
//! [`Service`]. What it opens comes from an opener function, so the start-up path runs the same
//! on the Pi (`umpire run`) and on simulated hardware in the tests.

use std::fmt;

use crate::faults::{Backoff, Faults};
use crate::platform::OpenError;
use crate::referee::{screen_text, Chance, RefereeConfig};
use crate::sensing::{Millis, SensingConfig, SensorLayout};
use crate::service::{BeepSink, Hardware, JournalDir, ScreenSink, Service, StartError, Step};
use crate::ui::Screen;

/// A fault that keeps the umpire from starting: the part, what is wrong, and the fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartFault {
    /// The part in a word or two ("Sensors", "Config", "NFC"), the screen's title.
    pub part: String,
    /// What is wrong.
    pub problem: String,
    /// How to fix it.
    pub fix: String,
}

impl StartFault {
    /// A fault of `part`.
    pub fn new(
        part: impl Into<String>,
        problem: impl Into<String>,
        fix: impl Into<String>,
    ) -> StartFault {
        StartFault {
            part: part.into(),
            problem: problem.into(),
            fix: fix.into(),
        }
    }

    /// `part` could not be opened.
    pub fn open(part: impl Into<String>, e: &OpenError) -> StartFault {
        StartFault::new(part, format!("{}: {}", e.what, e.cause), e.fix)
    }

    /// The screen for this fault, with `more` others behind it.
    pub fn screen(&self, more: usize) -> Screen {
        Screen::Fault {
            part: self.part.clone(),
            problem: self.problem.clone(),
            fix: self.fix.clone(),
            more: u16::try_from(more).unwrap_or(u16::MAX),
        }
    }
}

impl fmt::Display for StartFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} (fix: {})", self.part, self.problem, self.fix)
    }
}

impl From<StartError> for StartFault {
    fn from(e: StartError) -> StartFault {
        // A damaged journal is no start error: the OLED offers to resume its intact part.
        let (part, fix) = match &e {
            StartError::Journal(_) => (
                "Journal",
                "check [journal] dir and that the service user may write there",
            ),
            StartError::ScanRate(_) => (
                "Config",
                "set [board] scan_hz between 100 and 1000 (`umpire check-config`)",
            ),
        };
        StartFault::new(part, e.to_string(), fix)
    }
}

/// A screen opened when first needed, and again after it could not be opened: the OLED's bus
/// device may appear after the service starts (I2C enabled, the module loaded).
pub struct OpenOnDemand<S> {
    open: Box<dyn FnMut() -> Result<S, String>>,
    sink: Option<S>,
}

impl<S> OpenOnDemand<S> {
    /// A screen that `open` opens at the first show.
    pub fn new(open: impl FnMut() -> Result<S, String> + 'static) -> OpenOnDemand<S> {
        OpenOnDemand {
            open: Box::new(open),
            sink: None,
        }
    }
}

impl<S> fmt::Debug for OpenOnDemand<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpenOnDemand")
            .field("open", &self.sink.is_some())
            .finish_non_exhaustive()
    }
}

impl<S: ScreenSink> ScreenSink for OpenOnDemand<S> {
    fn show(&mut self, screen: &Screen, page: usize) -> Result<(), String> {
        if self.sink.is_none() {
            self.sink = Some((self.open)()?);
        }
        match self.sink.as_mut() {
            Some(sink) => sink.show(screen, page),
            None => Err("the OLED could not be opened".into()),
        }
    }

    fn reset(&mut self) {
        if let Some(sink) = self.sink.as_mut() {
            sink.reset();
        }
    }
}

/// Everything the service needs, opened: made afresh at every start attempt.
pub struct Parts {
    /// Where the squares and tray slots are on the sensor.
    pub layout: SensorLayout,
    /// The sensing model's timing (the configuration's `[sensing]`).
    pub sensing: SensingConfig,
    /// The referee's options.
    pub referee: RefereeConfig,
    /// The journal folder.
    pub journals: JournalDir,
    /// The sensor, buttons and reader (the OLED is the boot's, opened before).
    pub hardware: Hardware,
    /// The buzzer, if fitted.
    pub buzzer: Option<Box<dyn BeepSink>>,
    /// The LED guidance chain, if fitted and enabled.
    pub leds: Option<crate::guidance::LedGuidance>,
    /// Scans a second.
    pub scan_hz: u32,
}

impl fmt::Debug for Parts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Parts")
            .field("sensing", &self.sensing)
            .field("hardware", &self.hardware)
            .field("buzzer", &self.buzzer.is_some())
            .field("scan_hz", &self.scan_hz)
            .finish_non_exhaustive()
    }
}

/// Opens the parts, or says every fault found (not only the first).
pub type Opener = Box<dyn FnMut() -> Result<Parts, Vec<StartFault>>>;

/// The first retry after a failed start, and the longest wait between two.
pub const RETRY_FIRST_MS: u64 = 500;
/// See [`RETRY_FIRST_MS`].
pub const RETRY_MAX_MS: u64 = 8_000;

/// The service's whole life: starting (showing faults, retrying) then running.
pub struct Umpire<C: Chance> {
    open: Opener,
    chance: Box<dyn FnMut() -> C>,
    oled: Option<Box<dyn ScreenSink>>,
    running: Option<Service<C>>,
    faults: Faults,
    retry: Backoff,
    /// Parts that failed at the last attempt (to log when they clear).
    failed_parts: Vec<String>,
    shown: Option<Screen>,
    /// Which page of the fault screen is due, the page the OLED took last, and when the last
    /// step ran (a fault screen with pages is turned between start attempts).
    pager: crate::screens::Pager,
    shown_page: usize,
    last_step: Millis,
    /// The phone pages' publisher, handed to the service when it starts.
    web: Option<crate::web::Publisher>,
    /// The phone codes' hand-out, for the service once it runs.
    handout: Option<crate::web::handout::Handout>,
}

impl<C: Chance> fmt::Debug for Umpire<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Umpire")
            .field("running", &self.running.is_some())
            .field("faults", &self.faults)
            .finish_non_exhaustive()
    }
}

impl<C: Chance> Umpire<C> {
    /// An umpire that shows on `oled` (opened first) and opens the rest with `open`; `chance`
    /// makes the referee's source of chance. Nothing is opened until the first step.
    pub fn new(
        oled: Option<Box<dyn ScreenSink>>,
        open: Opener,
        chance: impl FnMut() -> C + 'static,
    ) -> Umpire<C> {
        Umpire {
            open,
            chance: Box::new(chance),
            oled,
            running: None,
            faults: Faults::new(),
            retry: Backoff::new(RETRY_FIRST_MS, RETRY_MAX_MS),
            failed_parts: Vec::new(),
            shown: None,
            pager: crate::screens::Pager::default(),
            shown_page: 0,
            last_step: Millis(0),
            web: None,
            handout: None,
        }
    }

    /// Hands the seats their phone codes on the OLED ([`crate::web::handout`]), with the
    /// phone pages set by [`Umpire::set_web`].
    pub fn set_handout(&mut self, handout: Option<crate::web::handout::Handout>) {
        match self.running.as_mut() {
            Some(service) => service.set_handout(handout),
            None => self.handout = handout,
        }
    }

    /// Publishes the running service's table to the phone pages' server ([`crate::web`]).
    pub fn set_web(&mut self, web: Option<crate::web::Publisher>) {
        match self.running.as_mut() {
            Some(service) => service.set_web(web),
            None => self.web = web,
        }
    }

    /// One turn at `now`: a start attempt when one is due, or a step of the running service.
    pub fn step(&mut self, now: Millis) -> Step {
        if let Some(service) = self.running.as_mut() {
            return service.step(now);
        }
        let mut step = Step::default();
        self.last_step = now;
        if !self.retry.due(now.0) {
            // Between attempts, a fault screen with pages turns them.
            if let (Some(screen), Some(oled)) = (self.shown.as_ref(), self.oled.as_mut()) {
                let page = self.pager.page(screen, now.0);
                if page != self.shown_page {
                    let shown = oled.show(screen, page);
                    step.trouble
                        .extend(self.faults.set("OLED", shown.err().as_deref()));
                    self.shown_page = page;
                }
            }
            return step;
        }
        let faults = match (self.open)() {
            Ok(parts) => {
                let started = Service::start(
                    parts.layout,
                    parts.sensing,
                    parts.referee,
                    &mut self.chance,
                    &parts.journals,
                    parts.hardware,
                    parts.scan_hz,
                    now,
                );
                match started {
                    Ok(mut service) => {
                        step.trouble.extend(self.faults.clear_all());
                        service.set_oled(self.oled.take());
                        service.set_buzzer(parts.buzzer);
                        service.set_leds(parts.leds);
                        service.set_web(self.web.take());
                        service.set_handout(self.handout.take());
                        let first = service.step(now);
                        step.decisions = first.decisions;
                        step.screen = first.screen;
                        step.trouble.extend(first.trouble);
                        self.running = Some(service);
                        self.retry.succeeded();
                        return step;
                    }
                    Err(e) => vec![StartFault::from(e)],
                }
            }
            Err(faults) => faults,
        };
        self.retry.failed(now.0);
        // One message per part (the first), so two faults of one part never take turns.
        let mut now_faults: Vec<(String, String)> = Vec::new();
        for f in &faults {
            if !now_faults.iter().any(|(p, _)| *p == f.part) {
                now_faults.push((f.part.clone(), format!("{} (fix: {})", f.problem, f.fix)));
            }
        }
        let parts: Vec<String> = self.failed_parts.clone();
        step.trouble.extend(
            self.faults
                .set_all(parts.iter().map(String::as_str), &now_faults),
        );
        self.failed_parts = faults.iter().map(|f| f.part.clone()).collect();
        let screen = faults.first().map_or_else(
            || StartFault::new("Start", "nothing opened", "a bug: report it").screen(0),
            |f| f.screen(faults.len() - 1),
        );
        if self.shown.as_ref() != Some(&screen) {
            step.screen = Some(screen_text(&screen));
        }
        if let Some(oled) = self.oled.as_mut() {
            // Sent at every attempt: a panel that missed it gets it with the next retry. A
            // fault that takes pages shows the one that is due.
            let page = self.pager.page(&screen, now.0);
            self.shown_page = page;
            let shown = oled.show(&screen, page);
            step.trouble
                .extend(self.faults.set("OLED", shown.err().as_deref()));
        }
        self.shown = Some(screen);
        step
    }

    /// The running service, once started.
    pub fn service(&self) -> Option<&Service<C>> {
        self.running.as_ref()
    }

    /// Whether the service runs (the start-up faults are all fixed).
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// When something is next due: the next scan, or the next start attempt.
    pub fn next_due(&self) -> Millis {
        match &self.running {
            Some(service) => service.next_scan(),
            None => {
                let retry = self.retry.next().unwrap_or(0);
                // A fault screen with pages is due again when its next page is.
                if self.shown.is_some() && self.pager.pages() > 1 {
                    Millis(retry.min(self.last_step.0 + crate::screens::PAGE_MS))
                } else {
                    Millis(retry)
                }
            }
        }
    }

    /// The faults active now, by part (while starting).
    pub fn faults(&self) -> &Faults {
        &self.faults
    }
}
