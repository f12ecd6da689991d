//! The `umpire run` service loop on simulated hardware: choose a game with the buttons, set up
//! by rank groups, play a move, cut the power, and resume from the journal on disk — with the
//! differing squares named when the board was touched while the power was off.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use boards::stratego::{Deployment, Rank, Square, Variant, BLUE, RED};
use firmware::drivers::buttons::{BeepPattern, ButtonEvent};
use firmware::drivers::reed_matrix::OccupancyScanner;
use firmware::platform::Scanner;
use firmware::referee::{Decision, RefereeConfig, SeededChance};
use firmware::sensing::{Button, ButtonPress, LayoutSetup, Millis, SensedCell, SensorLayout};
use firmware::service::{BeepSink, ButtonSource, Hardware, JournalDir, ScreenSink, Service};
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
    fn show(&mut self, screen: &Screen) -> Result<(), String> {
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
            let Screen::Setup { instruction, .. } = rig.screen() else {
                panic!("set-up expected: {:?}", rig.screen())
            };
            let rank = Rank::ALL
                .into_iter()
                .find(|r| instruction.contains(r.name()) || instruction.contains(r.plural()))
                .unwrap_or_else(|| panic!("{instruction}"));
            for &(s, r) in &deployment.placements {
                if r == rank {
                    rig.set(&s.to_string(), true);
                }
            }
            rig.press(Button::Ok);
        }
    }
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
