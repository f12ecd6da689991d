//! The `umpire run` service loop on simulated hardware: choose a game with the buttons, set up
//! by rank groups, play a move, cut the power, and resume from the journal on disk — with the
//! differing squares named when the board was touched while the power was off.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use boards::stratego::{Deployment, Rank, Square, Variant, BLUE, RED};
use firmware::drivers::buttons::{BeepPattern, ButtonEvent};
use firmware::drivers::reed_matrix::OccupancyScanner;
use firmware::inputs::ButtonSource;
use firmware::inputs::Scanner;
use firmware::referee::{Decision, RefereeConfig, SeededChance};
use firmware::sensing::{
    Button, ButtonPress, LayoutSetup, Millis, SensedCell, SensingConfig, SensorLayout,
};
use firmware::service::{BeepSink, Hardware, JournalDir, ScreenSink, Service};
use firmware::sim::SimBoard;
use firmware::ui::Screen;

#[derive(Clone)]
struct SharedBoard(Rc<RefCell<SimBoard>>);
impl Scanner for SharedBoard {
    fn scan(&mut self) -> Result<firmware::sensing::Occupancy, String> {
        self.0
            .borrow_mut()
            .read_occupancy()
            .map_err(|e| e.to_string())
    }
}

/// What the simulated buttons do on one poll.
#[derive(Clone, Copy)]
enum Act {
    Down(Button),
    Held(Button),
    Up(Button),
}

/// Buttons that play a script of acts, one per poll, as the debounced driver reports them.
#[derive(Clone, Default)]
struct Presses(Rc<RefCell<VecDeque<Act>>>);
impl Presses {
    fn tap(&self, button: Button) {
        self.0
            .borrow_mut()
            .extend([Act::Down(button), Act::Up(button)]);
    }

    fn hold(&self, button: Button) {
        self.0
            .borrow_mut()
            .extend([Act::Down(button), Act::Held(button), Act::Up(button)]);
    }
}
impl ButtonSource for Presses {
    fn poll(&mut self, now: Millis) -> Result<Vec<ButtonEvent>, String> {
        let press = |button| ButtonPress { at: now, button };
        Ok(self
            .0
            .borrow_mut()
            .pop_front()
            .map(|act| match act {
                Act::Down(b) => ButtonEvent::Pressed(press(b)),
                Act::Held(b) => ButtonEvent::LongPress(press(b)),
                Act::Up(button) => ButtonEvent::Released {
                    at: now,
                    button,
                    held_ms: 10,
                },
            })
            .into_iter()
            .collect())
    }
}

#[derive(Clone, Default)]
struct Beeps(Rc<RefCell<Vec<BeepPattern>>>);
impl BeepSink for Beeps {
    fn play(&mut self, pattern: BeepPattern, _: Millis) -> Result<(), String> {
        self.0.borrow_mut().push(pattern);
        Ok(())
    }
    fn tick(&mut self, _: Millis) -> Result<(), String> {
        Ok(())
    }
}

#[derive(Clone, Default)]
struct Shown(Rc<RefCell<Vec<Screen>>>);
impl ScreenSink for Shown {
    fn show(&mut self, screen: &Screen, _page: usize) -> Result<(), String> {
        self.0.borrow_mut().push(screen.clone());
        Ok(())
    }
}

struct Rig {
    board: Rc<RefCell<SimBoard>>,
    presses: Presses,
    shown: Shown,
    beeps: Beeps,
    service: Service<SeededChance>,
    now: u64,
    decisions: Vec<Decision>,
}

fn cell(s: Square) -> SensedCell {
    SensedCell::new(s.index() as u16)
}

impl Rig {
    fn start(dir: &JournalDir, board: Rc<RefCell<SimBoard>>, now: u64) -> Rig {
        let presses = Presses::default();
        let shown = Shown::default();
        let layout = SensorLayout::new(LayoutSetup::grid(10, 10)).unwrap();
        let hardware = Hardware {
            scanner: Box::new(SharedBoard(board.clone())),
            buttons: Some(Box::new(presses.clone())),
            tags: None,
            oled: Some(Box::new(shown.clone())),
        };
        let beeps = Beeps::default();
        let mut service = Service::start(
            layout,
            SensingConfig::default(),
            RefereeConfig::default(),
            || SeededChance::new(7),
            dir,
            hardware,
            100,
            Millis(now),
        )
        .unwrap();
        service.set_buzzer(Some(Box::new(beeps.clone())));
        let mut rig = Rig {
            board,
            presses,
            shown,
            beeps,
            service,
            now,
            decisions: Vec::new(),
        };
        rig.run(500);
        rig
    }

    fn run(&mut self, ms: u64) {
        for _ in 0..ms / 10 {
            self.now += 10;
            let step = self.service.step(Millis(self.now));
            self.decisions.extend(step.decisions);
            assert!(step.trouble.is_empty(), "{:?}", step.trouble);
        }
    }

    fn press(&mut self, b: Button) {
        self.presses.tap(b);
        self.run(300);
    }

    fn set(&mut self, s: &str, on: bool) {
        self.board
            .borrow_mut()
            .set_piece(cell(Square::parse(s).unwrap()), on);
        self.run(400);
    }

    fn screen(&self) -> Screen {
        self.service.pipeline().screen().clone()
    }
}

/// A service under test the hands can set up: its screen, a piece put on a square.
trait Hands {
    fn screen(&self) -> Screen;
    fn put(&mut self, square: &str);
    fn press(&mut self, b: Button);
}

impl Hands for Rig {
    fn screen(&self) -> Screen {
        Rig::screen(self)
    }
    fn put(&mut self, square: &str) {
        self.set(square, true);
    }
    fn press(&mut self, b: Button) {
        Rig::press(self, b);
    }
}

/// Both Duel armies placed group by group as the set-up screens ask, each group confirmed
/// with OK: Red's, then Blue's.
fn place_duel_armies(hands: &mut impl Hands) {
    let red = Deployment::parse(
        Variant::Duel,
        RED,
        "2 3 9 3 M 2 . . . .\nS B . . . . . . . .\nF B . . . . . . . .",
    )
    .unwrap();
    let blue = Deployment::parse(
        Variant::Duel,
        BLUE,
        "F . . . . . . . . .\nB B S . . . . . . .\n3 2 9 M 2 3 . . . .",
    )
    .unwrap();
    for deployment in [&red, &blue] {
        for _group in 0..7 {
            let Screen::Setup { instruction, .. } = hands.screen() else {
                panic!("set-up expected: {:?}", hands.screen())
            };
            let rank = Rank::ALL
                .into_iter()
                .find(|r| instruction.contains(r.name()) || instruction.contains(r.plural()))
                .unwrap_or_else(|| panic!("{instruction}"));
            for &(s, r) in &deployment.placements {
                if r == rank {
                    hands.put(&s.to_string());
                }
            }
            hands.press(Button::Ok);
        }
    }
}

#[test]
fn the_service_plays_journals_and_resumes_after_a_power_cut() {
    let tmp = std::env::temp_dir().join(format!("umpire-service-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let dir = JournalDir::open(&tmp).unwrap();
    let board = Rc::new(RefCell::new(SimBoard::new(10, 10)));
    let mut rig = Rig::start(&dir, board.clone(), 0);
    assert!(
        matches!(rig.screen(), Screen::Choice { .. }),
        "{:?}",
        rig.screen()
    );
    // Duel, by rank groups.
    rig.press(Button::Die);
    rig.press(Button::Ok);
    rig.press(Button::Ok);
    place_duel_armies(&mut rig);
    assert!(
        rig.decisions.contains(&Decision::GameStarted),
        "{:?}",
        rig.decisions
    );
    // Red moves the Scout a3-a5 (by lifting and placing).
    rig.set("a3", false);
    rig.set("a5", true);
    assert!(
        rig.decisions
            .iter()
            .any(|d| matches!(d, Decision::Moved { .. })),
        "{:?}",
        rig.decisions
    );
    assert!(
        !rig.shown.0.borrow().is_empty(),
        "the OLED was given every screen"
    );
    assert!(
        rig.beeps.0.borrow().contains(&BeepPattern::Confirm),
        "the buzzer confirmed the set-up and the move: {:?}",
        rig.beeps.0.borrow()
    );
    let games = dir.games().unwrap();
    assert_eq!(games.len(), 1);
    let size = std::fs::metadata(&games[0]).unwrap().len();
    assert!(size > 50, "journal on disk: {size} bytes");

    // Power cut. While it is off, a hand knocks Blue's Marshal from d8 to d7.
    let now = rig.now;
    drop(rig);
    board
        .borrow_mut()
        .set_piece(cell(Square::parse("d8").unwrap()), false);
    board
        .borrow_mut()
        .set_piece(cell(Square::parse("d7").unwrap()), true);
    let rig = Rig::start(&dir, board.clone(), now + 60_000);
    let ply = rig.service.pipeline().referee().position().map(|p| p.ply());
    assert_eq!(ply, Some(1), "resumed after Red's move");
    let Screen::Mismatch { differences } = rig.screen() else {
        panic!(
            "the differing squares are shown at once: {:?}",
            rig.screen()
        )
    };
    let places: Vec<_> = differences.iter().map(|d| d.place.as_str()).collect();
    assert_eq!(places, ["d8", "d7"], "{differences:?}");
    assert_eq!(
        differences[0].belongs, "Blue piece",
        "no secret on the screen"
    );
    assert_eq!(
        dir.games().unwrap().len(),
        1,
        "the same game goes on in the same file"
    );
    std::fs::remove_dir_all(&tmp).ok();
}

// ----- boot, faults, the OLED -----------------------------------------------------------------

use std::cell::Cell;

use firmware::boot::{Parts, StartFault, Umpire};
use firmware::display::{Display, DEFAULT_ADDRESS};
use firmware::screens::{self, Region};
use firmware::sim::SimI2c;

/// A scanner that fails while `failing` is set.
#[derive(Clone)]
struct FlakyBoard {
    board: SharedBoard,
    failing: Rc<Cell<bool>>,
}
impl Scanner for FlakyBoard {
    fn scan(&mut self) -> Result<firmware::sensing::Occupancy, String> {
        if self.failing.get() {
            Err("the 74HC165 chain did not answer".into())
        } else {
            self.board.scan()
        }
    }
}

fn temp_journals(name: &str) -> (std::path::PathBuf, JournalDir) {
    let tmp = std::env::temp_dir().join(format!("umpire-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let dir = JournalDir::open(&tmp).unwrap();
    (tmp, dir)
}

/// What the simulated panel shows, or `None` while it is dark.
fn on_panel(bus: &SimI2c) -> Option<Vec<u8>> {
    bus.panel(DEFAULT_ADDRESS)
        .and_then(|p| p.visible().map(<[u8]>::to_vec))
}

fn pixels(screen: &Screen) -> Vec<u8> {
    screens::render(screen).region_bytes(&Region::FULL)
}

/// The sensor cannot be opened at boot: the OLED (opened first) shows the fault and its fix,
/// the fault is logged once, the umpire retries with back-off instead of exiting, and once the
/// sensor answers it goes on to the game menu by itself. On the old code `umpire run` exited
/// before the OLED was opened.
#[test]
fn boot_shows_a_fault_on_the_oled_and_starts_when_the_sensor_comes_back() {
    let (tmp, dir) = temp_journals("boot");
    let bus = SimI2c::default().with_panel(DEFAULT_ADDRESS);
    let sensor_ok = Rc::new(Cell::new(false));
    let attempts = Rc::new(Cell::new(0u32));
    let open = {
        let (sensor_ok, attempts) = (sensor_ok.clone(), attempts.clone());
        Box::new(move || {
            attempts.set(attempts.get() + 1);
            if !sensor_ok.get() {
                return Err(vec![
                    StartFault::new(
                        "Sensors",
                        "/dev/spidev0.1 missing",
                        "enable SPI: sudo umpire setup, then reboot",
                    ),
                    StartFault::new("NFC", "/dev/spidev0.0 missing", "the same"),
                ]);
            }
            let board = Rc::new(RefCell::new(SimBoard::new(10, 10)));
            Ok(Parts {
                layout: SensorLayout::new(LayoutSetup::grid(10, 10)).unwrap(),
                sensing: SensingConfig::default(),
                referee: RefereeConfig::default(),
                journals: dir.clone(),
                hardware: Hardware {
                    scanner: Box::new(SharedBoard(board)),
                    buttons: None,
                    tags: None,
                    oled: None,
                },
                buzzer: None,
                leds: None,
                scan_hz: 100,
            })
        })
    };
    let oled = Display::new(bus.clone());
    let mut umpire = Umpire::new(Some(Box::new(oled)), open, || SeededChance::new(3));
    let mut log = Vec::new();
    let mut t = 0;
    while t <= 10_000 {
        log.extend(umpire.step(Millis(t)).trouble);
        t += 10;
    }
    assert!(!umpire.is_running());
    let fault = Screen::Fault {
        part: "Sensors".into(),
        problem: "/dev/spidev0.1 missing".into(),
        fix: "enable SPI: sudo umpire setup, then reboot".into(),
        more: 1,
    };
    assert_eq!(
        on_panel(&bus),
        Some(pixels(&fault)),
        "the fault is on the OLED"
    );
    assert_eq!(log.len(), 2, "each fault logged once: {log:?}");
    assert!(log[0].contains("Sensors") && log[0].contains("sudo umpire setup"));
    // Back-off: at 0, 0.5, 1.5, 3.5 and 7.5 s, not at every step.
    assert_eq!(attempts.get(), 5);

    sensor_ok.set(true);
    let mut log = Vec::new();
    while !umpire.is_running() && t < 30_000 {
        log.extend(umpire.step(Millis(t)).trouble);
        t += 10;
    }
    assert!(umpire.is_running(), "started once the sensor answered");
    log.extend(umpire.step(Millis(t)).trouble);
    assert_eq!(log.len(), 2, "each fault's clearing logged once: {log:?}");
    let menu = umpire.service().unwrap().pipeline().screen().clone();
    assert!(matches!(menu, Screen::Choice { .. }), "{menu:?}");
    assert_eq!(
        on_panel(&bus),
        Some(pixels(&menu)),
        "the game menu is on the OLED"
    );
    std::fs::remove_dir_all(&tmp).ok();
}

fn service_on(dir: &JournalDir, hardware: Hardware) -> Service<SeededChance> {
    Service::start(
        SensorLayout::new(LayoutSetup::grid(10, 10)).unwrap(),
        SensingConfig::default(),
        RefereeConfig::default(),
        || SeededChance::new(7),
        dir,
        hardware,
        100,
        Millis(0),
    )
    .unwrap()
}

/// A sensor failing on every scan for ten seconds (1000 scans) is logged once, shown on the
/// OLED, and logged once more when it works again. On the old code every scan logged a line.
#[test]
fn a_sensor_failing_mid_game_is_logged_once_and_shown_until_it_works() {
    let (tmp, dir) = temp_journals("flaky");
    let failing = Rc::new(Cell::new(false));
    let board = FlakyBoard {
        board: SharedBoard(Rc::new(RefCell::new(SimBoard::new(10, 10)))),
        failing: failing.clone(),
    };
    let shown = Shown::default();
    let mut service = service_on(
        &dir,
        Hardware {
            scanner: Box::new(board),
            buttons: None,
            tags: None,
            oled: Some(Box::new(shown.clone())),
        },
    );
    let mut log = Vec::new();
    let mut run = |service: &mut Service<SeededChance>, from: u64, to: u64| {
        for t in (from..to).step_by(10) {
            log.extend(service.step(Millis(t)).trouble);
        }
    };
    run(&mut service, 0, 1_000);
    failing.set(true);
    run(&mut service, 1_000, 11_000);
    let last = shown.0.borrow().last().cloned().unwrap();
    assert!(
        matches!(&last, Screen::Fault { part, .. } if part == "Sensors"),
        "{last:?}"
    );
    failing.set(false);
    run(&mut service, 11_000, 12_000);
    assert_eq!(
        log,
        [
            "fault: sensors: the 74HC165 chain did not answer",
            "fault cleared: sensors works again"
        ]
    );
    let last = shown.0.borrow().last().cloned().unwrap();
    assert!(matches!(last, Screen::Choice { .. }), "{last:?}");
    std::fs::remove_dir_all(&tmp).ok();
}

/// The OLED is unplugged mid-game and plugged back: with no change of screen, the service
/// re-initialises it and sends the whole screen on a later step (with back-off, logged once
/// each way). On the old code a failed frame was not resent until the screen changed, and the
/// panel was never set up again.
#[test]
fn an_oled_that_comes_back_gets_the_whole_screen_without_a_screen_change() {
    let (tmp, dir) = temp_journals("oled");
    let bus = SimI2c::default().with_panel(DEFAULT_ADDRESS);
    let presses = Presses::default();
    let mut service = service_on(
        &dir,
        Hardware {
            scanner: Box::new(SharedBoard(Rc::new(RefCell::new(SimBoard::new(10, 10))))),
            buttons: Some(Box::new(presses.clone())),
            tags: None,
            oled: Some(Box::new(Display::new(bus.clone()))),
        },
    );
    let mut log = Vec::new();
    let mut t = 0;
    let mut run = |service: &mut Service<SeededChance>, ms: u64| {
        for _ in 0..ms / 10 {
            log.extend(service.step(Millis(t)).trouble);
            t += 10;
        }
    };
    run(&mut service, 500);
    assert_eq!(
        on_panel(&bus),
        Some(pixels(service.pipeline().screen())),
        "the menu is shown"
    );
    bus.set_present(DEFAULT_ADDRESS, false);
    presses.tap(Button::Die);
    run(&mut service, 3_000);
    bus.set_present(DEFAULT_ADDRESS, true);
    assert_eq!(on_panel(&bus), None, "a panel back from power-up is dark");
    run(&mut service, 6_000);
    assert_eq!(
        on_panel(&bus),
        Some(pixels(service.pipeline().screen())),
        "the whole screen, after the init sequence"
    );
    assert_eq!(log.len(), 2, "{log:?}");
    assert!(log[0].starts_with("fault: OLED"), "{log:?}");
    assert_eq!(log[1], "fault cleared: OLED works again");
    std::fs::remove_dir_all(&tmp).ok();
}

/// A held OK in the menu reaches the referee (as a press there); a button still down does
/// nothing yet. On the old code long presses were filtered out before the referee.
#[test]
fn held_buttons_reach_the_referee() {
    let (tmp, dir) = temp_journals("hold");
    let presses = Presses::default();
    let mut service = service_on(
        &dir,
        Hardware {
            scanner: Box::new(SharedBoard(Rc::new(RefCell::new(SimBoard::new(10, 10))))),
            buttons: Some(Box::new(presses.clone())),
            tags: None,
            oled: None,
        },
    );
    for t in (0..200).step_by(10) {
        service.step(Millis(t));
    }
    let menu = service.pipeline().screen().clone();
    presses.hold(Button::Ok);
    let mut decisions = Vec::new();
    for t in (200..400).step_by(10) {
        decisions.extend(service.step(Millis(t)).decisions);
    }
    let now = service.pipeline().screen().clone();
    assert!(
        matches!(now, Screen::Choice { .. }) && now != menu,
        "the held OK chose the game: {now:?}"
    );
    // Counted once: a second OK (on release) would have chosen the rules and started a game.
    assert!(
        !decisions
            .iter()
            .any(|d| matches!(d, Decision::GameChosen { .. })),
        "{decisions:?}"
    );
    std::fs::remove_dir_all(&tmp).ok();
}

/// A board that counts its scans.
struct CountingBoard {
    board: SharedBoard,
    scans: Rc<Cell<u32>>,
}
impl Scanner for CountingBoard {
    fn scan(&mut self) -> Result<firmware::sensing::Occupancy, String> {
        self.scans.set(self.scans.get() + 1);
        self.board.scan()
    }
}

/// A service on an empty simulated board whose scans are counted.
fn counted_service(name: &str) -> (std::path::PathBuf, Service<SeededChance>, Rc<Cell<u32>>) {
    let (tmp, dir) = temp_journals(name);
    let scans = Rc::new(Cell::new(0));
    let board = CountingBoard {
        board: SharedBoard(Rc::new(RefCell::new(SimBoard::new(10, 10)))),
        scans: scans.clone(),
    };
    let service = service_on(
        &dir,
        Hardware {
            scanner: Box::new(board),
            buttons: None,
            tags: None,
            oled: None,
        },
    );
    (tmp, service, scans)
}

/// Stepped the way `umpire run` steps it (asleep until `next_scan`, woken up to 4 ms late,
/// each step costing up to 4 ms more), the service scans 10,000 times in 10,000 periods at
/// 100 Hz, every `next_scan` a slot of the grid from the start (a multiple of 10 ms) after the
/// step. On the old code each scan was due a period after the late step before it: the
/// schedule drifted off the grid and about a sixth of the scans were lost.
#[test]
fn the_service_scans_on_a_fixed_grid_that_does_not_drift() {
    let (tmp, mut service, scans) = counted_service("grid");
    let mut seed = 0x2545_F491_4F6C_DD1D_u64;
    let mut jitter = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % 5
    };
    let mut now = 0;
    while now < 100_000 {
        let step = service.step(Millis(now));
        assert_eq!(step.missed_scans, 0, "at {now} ms");
        now += jitter();
        let next = service.next_scan();
        assert!(next > Millis(now), "{next} is not after {now} ms");
        assert_eq!(next.0 % 10, 0, "{next} is off the 10 ms grid");
        now = next.0 + jitter();
    }
    assert_eq!(scans.get(), 10_000);
    std::fs::remove_dir_all(&tmp).ok();
}

/// A step 57 ms after the last scan (a slow OLED push, a journal sync) scans once, says it
/// skipped four slots (10 to 40 ms), and the next scan is the grid's 60 ms: no burst of scans
/// to catch up. On the old code the late step was not reported and the next scan was at 67 ms.
#[test]
fn a_late_step_skips_the_missed_scans_and_says_how_many() {
    let (tmp, mut service, scans) = counted_service("late");
    assert_eq!(service.step(Millis(0)).missed_scans, 0);
    assert_eq!(scans.get(), 1);
    assert_eq!(service.step(Millis(57)).missed_scans, 4);
    assert_eq!(scans.get(), 2);
    assert_eq!(service.step(Millis(58)).missed_scans, 0);
    assert_eq!(scans.get(), 2, "no scan to catch up");
    assert_eq!(service.next_scan(), Millis(60));
    assert_eq!(service.step(Millis(60)).missed_scans, 0);
    assert_eq!(scans.get(), 3);
    std::fs::remove_dir_all(&tmp).ok();
}

/// A scan rate the millisecond clock cannot keep is a start fault that says the fix; the old
/// code started anyway, scanning at a rate it was not asked for (1 ms for 2000 Hz, 1 s for 0).
#[test]
fn a_scan_rate_the_schedule_cannot_keep_is_refused_at_start() {
    let (tmp, dir) = temp_journals("rate");
    for hz in [0, 2000] {
        let started = Service::start(
            SensorLayout::new(LayoutSetup::grid(10, 10)).unwrap(),
            SensingConfig::default(),
            RefereeConfig::default(),
            || SeededChance::new(7),
            &dir,
            Hardware {
                scanner: Box::new(SharedBoard(Rc::new(RefCell::new(SimBoard::new(10, 10))))),
                buttons: None,
                tags: None,
                oled: None,
            },
            hz,
            Millis(0),
        );
        let Err(e) = started else {
            panic!("{hz} Hz started");
        };
        let fault = StartFault::from(e);
        assert_eq!(fault.part, "Config");
        assert!(fault.problem.contains("[board] scan_hz"), "{fault:?}");
    }
    std::fs::remove_dir_all(&tmp).ok();
}

// ----- the configured sensing timing -----------------------------------------------------------

use boards::Seat;
use firmware::config::Config;

/// An umpire started the way `umpire run` starts one: from a configuration file's text, its
/// parts opened as `open_parts` opens them (the layout of `[board]`, the timing of
/// `[sensing]`, the referee's settings, the scan rate), then run by [`Umpire`] step by step
/// on simulated hardware: a fresh start, or the boot that resumes the newest journal.
struct Table {
    umpire: Umpire<SeededChance>,
    board: Rc<RefCell<SimBoard>>,
    presses: Presses,
    now: u64,
    /// Every decision, with the time of the step that made it.
    decisions: Vec<(u64, Decision)>,
}

impl Table {
    fn start(text: &str, dir: &JournalDir, board: Rc<RefCell<SimBoard>>, now: u64) -> Table {
        let config = Config::parse(text).unwrap_or_else(|p| panic!("{p}"));
        let presses = Presses::default();
        let open = {
            let (dir, board, presses) = (dir.clone(), board.clone(), presses.clone());
            Box::new(move || {
                Ok(Parts {
                    layout: SensorLayout::new(config.layout_setup()).unwrap(),
                    sensing: config.sensing,
                    referee: config.referee_config(),
                    journals: dir.clone(),
                    hardware: Hardware {
                        scanner: Box::new(SharedBoard(board.clone())),
                        buttons: Some(Box::new(presses.clone())),
                        tags: None,
                        oled: None,
                    },
                    buzzer: None,
                    leds: None,
                    scan_hz: config.scan_hz,
                })
            })
        };
        let mut table = Table {
            umpire: Umpire::new(None, open, || SeededChance::new(7)),
            board,
            presses,
            now,
            decisions: Vec::new(),
        };
        table.run(500);
        assert!(table.umpire.is_running(), "{:?}", table.umpire.faults());
        table
    }

    /// Steps the umpire every 10 ms (one scan at 100 Hz) for `ms`.
    fn run(&mut self, ms: u64) {
        for _ in 0..ms / 10 {
            self.now += 10;
            let step = self.umpire.step(Millis(self.now));
            let now = self.now;
            self.decisions
                .extend(step.decisions.into_iter().map(|d| (now, d)));
            assert!(step.trouble.is_empty(), "{:?}", step.trouble);
        }
    }

    fn service(&self) -> &Service<SeededChance> {
        self.umpire.service().expect("the umpire runs")
    }

    /// The timing of the sensing model the running pipeline reads the board with.
    fn sensing(&self) -> SensingConfig {
        *self.service().pipeline().sensing().config()
    }

    fn screen(&self) -> Screen {
        self.service().pipeline().screen().clone()
    }

    /// The hands put a piece on `s` or take it off, and the umpire runs `ms`.
    fn set(&mut self, s: &str, on: bool, ms: u64) {
        self.board
            .borrow_mut()
            .set_piece(cell(Square::parse(s).unwrap()), on);
        self.run(ms);
    }

    fn press(&mut self, b: Button) {
        self.presses.tap(b);
        self.run(300);
    }

    /// Whose piece stands on `s` as the referee knows the game.
    fn holds(&self, s: &str) -> Option<Seat> {
        let position = self.service().pipeline().referee().position()?;
        position
            .piece_at(Square::parse(s).unwrap())
            .map(|piece| piece.owner)
    }

    /// The moves decided so far, as `a3-a5`, each with when it was decided.
    fn moves(&self) -> Vec<(u64, String)> {
        self.decisions
            .iter()
            .filter_map(|(at, d)| match d {
                Decision::Moved { mv, .. } => Some((*at, mv.to_string())),
                _ => None,
            })
            .collect()
    }

    fn corrections(&self) -> Vec<(String, String)> {
        self.decisions
            .iter()
            .filter_map(|(_, d)| match d {
                Decision::MoveCorrected { was, now } => Some((was.clone(), now.clone())),
                _ => None,
            })
            .collect()
    }

    /// The configured game (a Duel, highlighted on the menu): OK, OK sets it up by rank
    /// groups, each group placed piece by piece.
    fn set_up_duel(&mut self) {
        self.press(Button::Ok);
        self.press(Button::Ok);
        place_duel_armies(self);
        assert!(
            self.decisions
                .iter()
                .any(|(_, d)| d == &Decision::GameStarted),
            "{:?}",
            self.decisions
        );
    }
}

impl Hands for Table {
    fn screen(&self) -> Screen {
        Table::screen(self)
    }
    fn put(&mut self, square: &str) {
        self.set(square, true, 800);
    }
    fn press(&mut self, b: Button) {
        Table::press(self, b);
    }
}

/// A builder whose slow slides registered the squares they crossed lengthens the settle window
/// in `[sensing]`, and the umpire started from that file reads the board with it, on a fresh
/// start and after a restart that resumes the game (the boot path). Red's Scout slides from a3
/// over a4 to a5, resting on a4 for 250 ms, with `decide_early = false` so that only the
/// window decides. A 400 ms window drops the pass-over: the move a3-a5, nothing corrected. A
/// 100 ms one reports it: the move a3-a4, decided once the lift of a3 has held for the window
/// (100 ms after it was believed), then corrected to a3-a5 when the Scout lands there. The old
/// code ran every pipeline with the default timing (150 ms, deciding early), whatever the
/// file said: both boards decided a3-a4 the moment a3's lift was believed, and corrected it.
#[test]
fn the_configured_settle_window_reaches_the_running_pipeline() {
    for (settle_ms, passed_over) in [(400, false), (100, true)] {
        let text = format!(
            "[game]\nname = \"duel\"\n[board]\nscan_hz = 100\n[sensor]\nkind = \"simulated\"\n\
             [sensing]\nsettle_ms = {settle_ms}\ndecide_early = false\n"
        );
        let configured = SensingConfig {
            settle_ms,
            decide_early: false,
            ..SensingConfig::DEFAULT
        };
        let (tmp, dir) = temp_journals(&format!("settle-{settle_ms}"));
        let board = Rc::new(RefCell::new(SimBoard::new(10, 10)));
        let mut table = Table::start(&text, &dir, board.clone(), 0);
        assert_eq!(table.sensing(), configured, "a fresh start");
        table.set_up_duel();

        // The power is cut and comes back: the umpire boots on the board and resumes.
        let now = table.now;
        drop(table);
        let mut table = Table::start(&text, &dir, board.clone(), now + 10_000);
        assert_eq!(table.sensing(), configured, "after the boot");
        assert_eq!(
            table
                .service()
                .pipeline()
                .referee()
                .position()
                .map(|p| p.ply()),
            Some(0),
            "resumed before Red's first move"
        );
        table.decisions.clear();

        // The slide: a4 closes while the Scout still touches a3, the Scout rests on a4, then
        // a5 closes a moment before a4 opens. Three scans 10 ms apart believe a change.
        table.set("a4", true, 30);
        let lift_believed = table.now + 10 + 20;
        table.set("a3", false, 250);
        table.set("a5", true, 30);
        table.set("a4", false, 1_500);
        let moves = table.moves();
        let corrections = table.corrections();
        if passed_over {
            assert_eq!(
                moves.first(),
                Some(&(lift_believed + u64::from(settle_ms), "a3-a4".to_string())),
                "{settle_ms} ms: {:?}",
                table.decisions
            );
            assert_eq!(
                corrections,
                [("a3-a4".to_string(), "a3-a5".to_string())],
                "{:?}",
                table.decisions
            );
        } else {
            let moves: Vec<&str> = moves.iter().map(|(_, m)| m.as_str()).collect();
            assert_eq!(moves, ["a3-a5"], "{settle_ms} ms: {:?}", table.decisions);
            assert_eq!(
                corrections,
                [],
                "the pass-over was never reported: {:?}",
                table.decisions
            );
        }
        assert_eq!(table.holds("a5"), Some(RED), "{:?}", table.decisions);
        assert!(table.holds("a3").is_none() && table.holds("a4").is_none());
        drop(table);
        std::fs::remove_dir_all(&tmp).ok();
    }
}
