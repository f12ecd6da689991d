//! The service lights the LED chain from what the OLED shows: all off at the menu and during
//! set-up, the last move after a move, the differing square in red after a mismatch; a chain
//! that fails is a fault, reported once, and the service goes on.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use boards::stratego::{Deployment, Rank, Square, Variant, BLUE, RED};
use firmware::drivers::buttons::ButtonEvent;
use firmware::drivers::leds::Rgb;
use firmware::drivers::reed_matrix::OccupancyScanner;
use firmware::guidance::{LedGuidance, LedMap, LedOrder, LedSink, Palette};
use firmware::inputs::ButtonSource;
use firmware::inputs::Scanner;
use firmware::referee::{RefereeConfig, SeededChance};
use firmware::sensing::{
    Button, ButtonPress, LayoutSetup, Millis, Place, SensedCell, SensingConfig, SensorLayout,
};
use firmware::service::{Hardware, JournalDir, Service};
use firmware::sim::SimBoard;
use firmware::ui::Screen;

struct SharedBoard(Rc<RefCell<SimBoard>>);
impl Scanner for SharedBoard {
    fn scan(&mut self) -> Result<firmware::sensing::Occupancy, String> {
        self.0
            .borrow_mut()
            .read_occupancy()
            .map_err(|e| e.to_string())
    }
}

/// Buttons that report a script of (button, down) one per poll, stamped with the poll's time.
#[derive(Clone, Default)]
struct Taps(Rc<RefCell<VecDeque<(Button, bool)>>>);
impl ButtonSource for Taps {
    fn poll(&mut self, now: Millis) -> Result<Vec<ButtonEvent>, String> {
        Ok(self
            .0
            .borrow_mut()
            .pop_front()
            .map(|(button, down)| {
                if down {
                    ButtonEvent::Pressed(ButtonPress { at: now, button })
                } else {
                    ButtonEvent::Released {
                        at: now,
                        button,
                        held_ms: 10,
                    }
                }
            })
            .into_iter()
            .collect())
    }
}

/// A chain that records every frame it is sent, counts every send, and fails while `broken`
/// is set.
#[derive(Clone, Default)]
struct Chain {
    frames: Rc<RefCell<Vec<Vec<Rgb>>>>,
    sends: Rc<RefCell<usize>>,
    broken: Rc<RefCell<bool>>,
}
impl LedSink for Chain {
    fn show(&mut self, colours: &[Rgb]) -> Result<(), String> {
        *self.sends.borrow_mut() += 1;
        if *self.broken.borrow() {
            return Err("/dev/spidev1.0: broken pipe".into());
        }
        self.frames.borrow_mut().push(colours.to_vec());
        Ok(())
    }
}

struct Rig {
    board: Rc<RefCell<SimBoard>>,
    taps: Taps,
    chain: Chain,
    service: Service<SeededChance>,
    now: u64,
    trouble: Vec<String>,
}

impl Rig {
    fn run(&mut self, ms: u64) {
        for _ in 0..ms / 10 {
            self.now += 10;
            let step = self.service.step(Millis(self.now));
            self.trouble.extend(step.trouble);
        }
    }

    fn press(&mut self, button: Button) {
        self.taps
            .0
            .borrow_mut()
            .extend([(button, true), (button, false)]);
        self.run(300);
    }

    fn set(&mut self, square: &str, on: bool) {
        let s = Square::parse(square).unwrap();
        self.board
            .borrow_mut()
            .set_piece(SensedCell::new(s.index() as u16), on);
        self.run(400);
    }

    fn screen(&self) -> Screen {
        self.service.pipeline().screen().clone()
    }

    /// The places lit in the last frame the chain took, with their colours.
    fn lit(&self) -> Vec<(String, Rgb)> {
        let layout = SensorLayout::new(LayoutSetup::grid(10, 10)).unwrap();
        let map = LedMap::new(&layout, LedOrder::Serpentine);
        let frames = self.chain.frames.borrow();
        let last = frames.last().expect("a frame was sent");
        assert_eq!(last.len(), 100, "one colour per LED");
        last.iter()
            .enumerate()
            .filter(|(_, c)| !c.is_off())
            .map(|(i, c)| match map.place(i) {
                Some(Place::Square(cell)) => (cell.to_string(), *c),
                other => panic!("LED {i} lit over {other:?}"),
            })
            .collect()
    }
}

fn start() -> Rig {
    let tmp = std::env::temp_dir().join(format!("umpire-leds-service-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let dir = JournalDir::open(&tmp).unwrap();
    let board = Rc::new(RefCell::new(SimBoard::new(10, 10)));
    let taps = Taps::default();
    let hardware = Hardware {
        scanner: Box::new(SharedBoard(board.clone())),
        buttons: Some(Box::new(taps.clone())),
        tags: None,
        oled: None,
    };
    let mut service = Service::start(
        SensorLayout::new(LayoutSetup::grid(10, 10)).unwrap(),
        SensingConfig::default(),
        RefereeConfig::default(),
        || SeededChance::new(7),
        &dir,
        hardware,
        100,
        Millis(0),
    )
    .unwrap();
    let chain = Chain::default();
    let layout = SensorLayout::new(LayoutSetup::grid(10, 10)).unwrap();
    service.set_leds(Some(LedGuidance::new(
        Box::new(chain.clone()),
        LedMap::new(&layout, LedOrder::Serpentine),
    )));
    let mut rig = Rig {
        board,
        taps,
        chain,
        service,
        now: 0,
        trouble: Vec::new(),
    };
    rig.run(500);
    rig
}

#[test]
fn the_service_lights_the_last_move_and_a_mismatch_and_reports_a_broken_chain() {
    let mut rig = start();
    assert_eq!(rig.lit(), vec![], "all off at the menu");
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
                .unwrap();
            for &(s, r) in &deployment.placements {
                if r == rank {
                    rig.set(&s.to_string(), true);
                }
            }
            rig.press(Button::Ok);
        }
        assert_eq!(rig.lit(), vec![], "all off during set-up");
    }
    let palette = Palette::default();
    // Red's Scout a3-a5: the last move lights for Blue, who looks up.
    rig.set("a3", false);
    rig.set("a5", true);
    assert_eq!(
        rig.lit(),
        vec![
            ("a3".to_string(), palette.last_move),
            ("a5".to_string(), palette.last_move)
        ],
        "{:?}",
        rig.screen()
    );
    // A piece knocked onto e5: after the mismatch time, e5 lights red.
    rig.set("e5", true);
    rig.run(3_500);
    assert!(
        matches!(rig.screen(), Screen::Mismatch { .. }),
        "{:?}",
        rig.screen()
    );
    assert!(rig.lit().contains(&("e5".to_string(), palette.mismatch)));
    assert!(rig.trouble.is_empty(), "{:?}", rig.trouble);
    // The chain fails: one fault line, the umpire goes on; it heals by itself.
    *rig.chain.broken.borrow_mut() = true;
    let sends = *rig.chain.sends.borrow();
    rig.set("e5", false);
    rig.run(1_000);
    let faults: Vec<&String> = rig.trouble.iter().filter(|t| t.contains("LEDs")).collect();
    assert_eq!(faults.len(), 1, "{:?}", rig.trouble);
    assert!(faults[0].contains("/dev/spidev1.0"), "{faults:?}");
    // Retried on the OLED's back-off (0.1, 0.2, 0.4, 0.8 s ...), not on each of the 140
    // steps since (the old code sent the whole chain again on every step).
    let retries = *rig.chain.sends.borrow() - sends;
    assert!((3..=5).contains(&retries), "{retries} sends in 1.4 s");
    *rig.chain.broken.borrow_mut() = false;
    rig.run(6_000);
    assert_eq!(
        rig.lit(),
        vec![
            ("a3".to_string(), palette.last_move),
            ("a5".to_string(), palette.last_move)
        ],
        "after the fault the chain shows the board again: {:?}",
        rig.screen()
    );
}
