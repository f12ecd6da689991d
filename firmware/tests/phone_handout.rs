//! The OLED hands each seat its phone code, seat by seat, through the running service: the
//! OLED is a simulated SSD1306 panel fed by the real display driver, and the QR code is
//! decoded from the panel's memory. A seat's code appears only after that seat's OK; the
//! other seat's token is never on the panel meanwhile; no token reaches the log, the public
//! page or any screen before its seat asked; a piece moved while a code is up closes it and is
//! handled as ever; with the pages off no phone screen appears. All of it fails on the code
//! before the hand-out (no screen ever held a seat's link).

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::net::Ipv4Addr;
use std::rc::Rc;

use firmware::display::{Display, DEFAULT_ADDRESS};
use firmware::drivers::buttons::ButtonEvent;
use firmware::inputs::ButtonSource;
use firmware::referee::{screen_text, Decision, RefereeConfig, SeededChance, PHONE_PAGES};
use firmware::screens::{HEIGHT, WIDTH};
use firmware::sensing::{
    Button, ButtonPress, LayoutSetup, Millis, SensedCell, SensingConfig, SensorLayout,
};
use firmware::service::{Hardware, JournalDir, ScreenSink, Service};
use firmware::sim::{SimBoard, SimI2c};
use firmware::ui::Screen;
use firmware::web::handout::Handout;
use firmware::web::link::{Address, Origin};
use firmware::web::{Publisher, Slot};

/// The simulated board; while `.1` is set every scan fails (the sensors' fault).
struct Board(Rc<RefCell<SimBoard>>, Rc<Cell<bool>>);
impl firmware::inputs::Scanner for Board {
    fn scan(&mut self) -> Result<firmware::sensing::Occupancy, String> {
        if self.1.get() {
            return Err("the switch matrix does not answer".into());
        }
        Ok(self.0.borrow_mut().read())
    }
}

/// Buttons that report the queued events, one a poll, stamped by it.
#[derive(Clone, Default)]
struct Script(Rc<RefCell<VecDeque<(bool, Button)>>>);
impl ButtonSource for Script {
    fn poll(&mut self, now: Millis) -> Result<Vec<ButtonEvent>, String> {
        Ok(self
            .0
            .borrow_mut()
            .pop_front()
            .map(|(down, button)| match down {
                true => ButtonEvent::Pressed(ButtonPress { at: now, button }),
                false => ButtonEvent::Released {
                    at: now,
                    button,
                    held_ms: 10,
                },
            })
            .into_iter()
            .collect())
    }
}

/// The real display driver on a simulated panel, keeping each screen it was given.
struct Oled {
    display: Display<SimI2c>,
    shown: Rc<RefCell<Vec<Screen>>>,
}
impl ScreenSink for Oled {
    fn show(&mut self, screen: &Screen, page: usize) -> Result<(), String> {
        self.shown.borrow_mut().push(screen.clone());
        self.display
            .show_page(screen, page)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}

struct Rig {
    service: Service<SeededChance>,
    board: Rc<RefCell<SimBoard>>,
    scan_fails: Rc<Cell<bool>>,
    buttons: Script,
    bus: SimI2c,
    shown: Rc<RefCell<Vec<Screen>>>,
    log: Vec<String>,
    decisions: Vec<Decision>,
    slot: Option<std::sync::Arc<Slot>>,
    now: u64,
    tmp: std::path::PathBuf,
}

impl Rig {
    fn new(name: &str, web: bool) -> Rig {
        let tmp = std::env::temp_dir().join(format!("umpire-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        let journals = JournalDir::open(&tmp).unwrap();
        let board = Rc::new(RefCell::new(SimBoard::new(10, 10)));
        let scan_fails = Rc::new(Cell::new(false));
        let buttons = Script::default();
        let bus = SimI2c::default().with_panel(DEFAULT_ADDRESS);
        let shown = Rc::new(RefCell::new(Vec::new()));
        let mut service = Service::start(
            SensorLayout::new(LayoutSetup::grid(10, 10)).unwrap(),
            SensingConfig::default(),
            RefereeConfig {
                phone_pages: web,
                ..RefereeConfig::default()
            },
            || SeededChance::new(5),
            &journals,
            Hardware {
                scanner: Box::new(Board(Rc::clone(&board), Rc::clone(&scan_fails))),
                buttons: Some(Box::new(buttons.clone())),
                tags: None,
                oled: Some(Box::new(Oled {
                    display: Display::new(bus.clone()),
                    shown: Rc::clone(&shown),
                })),
            },
            100,
            Millis(0),
        )
        .unwrap();
        let slot = web.then(Slot::new);
        if let Some(slot) = &slot {
            service.set_web(Some(Publisher::new(std::sync::Arc::clone(slot))));
            let origin = Origin::lan(Ipv4Addr::new(192, 168, 1, 23), 8080);
            service.set_handout(Some(Handout::new(Address::Fixed(origin))));
        }
        let mut rig = Rig {
            service,
            board,
            scan_fails,
            buttons,
            bus,
            shown,
            log: Vec::new(),
            decisions: Vec::new(),
            slot,
            now: 0,
            tmp,
        };
        rig.run(100);
        rig
    }

    fn run(&mut self, ms: u64) {
        let end = self.now + ms;
        while self.now < end {
            self.now += 10;
            let step = self.service.step(Millis(self.now));
            // What the umpire logs: the new screens' words and the trouble.
            self.log.extend(step.screen);
            self.log.extend(step.trouble);
            self.decisions.extend(step.decisions);
        }
    }

    fn tap(&mut self, button: Button) {
        self.buttons
            .0
            .borrow_mut()
            .extend([(true, button), (false, button)]);
        self.run(100);
    }

    fn oled(&self) -> Screen {
        self.shown.borrow().last().cloned().unwrap()
    }

    /// The QR codes on the panel, decoded from its memory (page-major, bit 0 on top).
    fn codes_on_panel(&self) -> Vec<String> {
        let panel = self.bus.panel(DEFAULT_ADDRESS).unwrap();
        let ram = panel.visible().unwrap().to_vec();
        let (border, scale) = (8, 3);
        let (w, h) = ((WIDTH + 2 * border) * scale, (HEIGHT + 2 * border) * scale);
        let lit = |x: usize, y: usize| ram[(y / 8) * WIDTH + x] >> (y % 8) & 1 == 1;
        let mut image = rqrr::PreparedImage::prepare_from_greyscale(w, h, |x, y| {
            let (fx, fy) = (x / scale, y / scale);
            let inside =
                (border..border + WIDTH).contains(&fx) && (border..border + HEIGHT).contains(&fy);
            if inside && lit(fx - border, fy - border) {
                255
            } else {
                0
            }
        });
        image
            .detect_grids()
            .into_iter()
            .filter_map(|g| g.decode().ok().map(|(_, t)| t))
            .collect()
    }

    fn tokens(&self) -> Vec<(String, String)> {
        self.service
            .web()
            .unwrap()
            .tokens()
            .iter()
            .map(|t| (t.base32(), t.hex()))
            .collect()
    }

    /// Whether `text` holds either spelling of a token in `tokens`.
    fn holds(text: &str, token: &(String, String)) -> bool {
        text.contains(&token.0) || text.contains(&token.1)
    }

    /// Everything the table or the public page could read, as text: the log, the decisions,
    /// the public page's words.
    fn public_text(&self) -> String {
        let mut text = self.log.join("\n");
        text.push_str(&format!("{:?}", self.decisions));
        if let Some(slot) = &self.slot {
            let snapshot = slot.current();
            if let Some(public) = &snapshot.public {
                text.push_str(&public.screen.join(" "));
                text.push_str(&public.announcements.join(" "));
            }
        }
        text
    }
}

impl Drop for Rig {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.tmp);
    }
}

/// The whole hand-out at the start of a game: asked, shown on OK, hidden on OK, the next seat,
/// then the set-up screen.
#[test]
fn each_seats_code_shows_only_after_its_own_ok_and_decodes_to_its_address() {
    let mut rig = Rig::new("handout", true);
    // The game menu, then its variant: choosing starts the game (and makes its tokens).
    rig.tap(Button::Ok);
    rig.tap(Button::Ok);
    let tokens = rig.tokens();
    assert_eq!(tokens.len(), 2, "one token per seat");
    assert_eq!(
        rig.oled(),
        Screen::PhoneAsk {
            seat: "Red".into(),
            more: true
        }
    );
    assert_eq!(rig.codes_on_panel(), Vec::<String>::new());
    // Nothing shown so far holds either token.
    let before = rig.shown.borrow().len();
    for screen in rig.shown.borrow().iter() {
        let words = screen_text(screen);
        assert!(!tokens.iter().any(|t| Rig::holds(&words, t)), "{words}");
        assert!(!matches!(screen, Screen::PhoneCode { .. }));
    }

    // Red's OK: Red's code, and only Red's.
    rig.tap(Button::Ok);
    let red_url = format!("HTTP://192.168.1.23:8080/S/{}", tokens[0].0);
    assert_eq!(rig.codes_on_panel(), std::slice::from_ref(&red_url));
    let Screen::PhoneCode { seat, url } = rig.oled() else {
        panic!("{:?}", rig.oled())
    };
    assert_eq!((seat.as_str(), url.0.as_str()), ("Red", red_url.as_str()));
    assert!(!Rig::holds(&screen_text(&rig.oled()), &tokens[1]));
    assert_eq!(format!("{url:?}"), "SeatUrl(..)", "never in a Debug print");

    // OK hides it and asks Blue; Blue's code only after Blue's OK.
    rig.tap(Button::Ok);
    assert_eq!(
        rig.oled(),
        Screen::PhoneAsk {
            seat: "Blue".into(),
            more: false
        }
    );
    assert_eq!(rig.codes_on_panel(), Vec::<String>::new());
    let upto_blue = rig.shown.borrow().len();
    for screen in &rig.shown.borrow()[before..upto_blue] {
        assert!(!Rig::holds(&screen_text(screen), &tokens[1]), "{screen:?}");
    }
    // Blue's OK, once the question has been up a moment (a quicker OK is ignored).
    rig.run(firmware::web::handout::ASK_CALM_MS);
    rig.tap(Button::Ok);
    let blue_url = format!("HTTP://192.168.1.23:8080/S/{}", tokens[1].0);
    assert_eq!(rig.codes_on_panel(), [blue_url]);
    assert!(!Rig::holds(&screen_text(&rig.oled()), &tokens[0]));

    // OK after the last seat: the game's own screen, and OK is the referee's again.
    rig.tap(Button::Ok);
    assert!(
        matches!(rig.oled(), Screen::Setup { .. }),
        "{:?}",
        rig.oled()
    );
    assert_eq!(rig.tokens(), tokens, "the same game's tokens");
    let public = rig.public_text();
    for token in &tokens {
        assert!(
            !Rig::holds(&public, token),
            "a token reached the log or public page"
        );
    }
    assert!(!rig.decisions.contains(&Decision::PhonePages));
}

/// A code left up is hidden by itself after `CODE_SHOWN_MS`, as OK would (the next seat is
/// asked), so it is not there for whoever looks next.
#[test]
fn a_code_left_up_is_hidden_after_30_seconds() {
    let mut rig = Rig::new("handout-timeout", true);
    rig.tap(Button::Ok);
    rig.tap(Button::Ok);
    rig.tap(Button::Ok);
    assert!(matches!(rig.oled(), Screen::PhoneCode { .. }));
    rig.run(firmware::web::handout::CODE_SHOWN_MS - 1000);
    assert!(matches!(rig.oled(), Screen::PhoneCode { .. }), "still up");
    rig.run(1000);
    assert_eq!(rig.codes_on_panel(), Vec::<String>::new());
    assert_eq!(
        rig.oled(),
        Screen::PhoneAsk {
            seat: "Blue".into(),
            more: false
        }
    );
}

/// Die skips a seat, Back closes the hand-out; the buttons are the referee's again after.
#[test]
fn die_skips_a_seat_and_back_closes() {
    let mut rig = Rig::new("handout-skip", true);
    rig.tap(Button::Ok);
    rig.tap(Button::Ok);
    rig.tap(Button::Die);
    assert_eq!(
        rig.oled(),
        Screen::PhoneAsk {
            seat: "Blue".into(),
            more: false
        }
    );
    rig.tap(Button::Back);
    assert!(
        matches!(rig.oled(), Screen::Setup { .. }),
        "{:?}",
        rig.oled()
    );
    assert!(
        !rig.shown
            .borrow()
            .iter()
            .any(|s| matches!(s, Screen::PhoneCode { .. })),
        "no code was asked for"
    );
}

/// A piece put down while Red's code is up: the code is hidden at once and the placement is
/// the set-up's, counted as ever.
#[test]
fn a_piece_moved_while_a_code_is_up_closes_it_and_is_handled() {
    let mut rig = Rig::new("handout-move", true);
    rig.tap(Button::Ok);
    rig.tap(Button::Ok);
    rig.tap(Button::Ok);
    assert!(matches!(rig.oled(), Screen::PhoneCode { .. }));
    rig.board.borrow_mut().set_piece(SensedCell::new(0), true);
    rig.run(500);
    assert_eq!(rig.codes_on_panel(), Vec::<String>::new());
    match rig.oled() {
        Screen::Setup { placed, .. } => assert_eq!(placed, 1),
        other => panic!("{other:?}"),
    }
    // The hand-out stays closed: OK is the set-up's again (not a code).
    rig.tap(Button::Ok);
    assert!(!matches!(
        rig.oled(),
        Screen::PhoneCode { .. } | Screen::PhoneAsk { .. }
    ));
}

/// With the phone pages off, no phone screen ever: choosing a game goes straight to set-up.
#[test]
fn with_the_pages_off_no_phone_screen_appears() {
    let mut rig = Rig::new("handout-off", false);
    rig.tap(Button::Ok);
    rig.tap(Button::Ok);
    assert!(
        matches!(rig.oled(), Screen::Setup { .. }),
        "{:?}",
        rig.oled()
    );
    rig.tap(Button::Ok);
    assert!(rig
        .shown
        .borrow()
        .iter()
        .all(|s| !matches!(s, Screen::PhoneAsk { .. } | Screen::PhoneCode { .. })));
    assert!(!rig.decisions.iter().any(|d| matches!(
        d,
        Decision::MenuOpened { entries, .. } if entries.iter().any(|e| e == PHONE_PAGES)
    )));
}

/// OK, OK, OK at once (a bounce, an impatient press): Red's code, hidden, and the third OK,
/// meant for nothing, never puts Blue's code on the panel; Blue's own OK a moment later does.
/// Fails on the code before the calm (the third OK showed Blue's code).
#[test]
fn a_quick_double_ok_never_shows_the_next_seats_code() {
    let mut rig = Rig::new("handout-bounce", true);
    rig.tap(Button::Ok);
    rig.tap(Button::Ok);
    let tokens = rig.tokens();
    let blue_url = format!("HTTP://192.168.1.23:8080/S/{}", tokens[1].0);
    let before = rig.shown.borrow().len();
    // Three presses, one poll apart (10 ms), then some time for the screens.
    for _ in 0..3 {
        rig.buttons
            .0
            .borrow_mut()
            .extend([(true, Button::Ok), (false, Button::Ok)]);
    }
    rig.run(200);
    assert_eq!(
        rig.oled(),
        Screen::PhoneAsk {
            seat: "Blue".into(),
            more: false
        }
    );
    assert_eq!(rig.codes_on_panel(), Vec::<String>::new());
    // And taps 100 ms apart, as a hand would: Red's code, hidden, Blue's still not shown.
    let mut rig2 = Rig::new("handout-bounce-taps", true);
    rig2.tap(Button::Ok);
    rig2.tap(Button::Ok);
    let tokens2 = rig2.tokens();
    let before2 = rig2.shown.borrow().len();
    rig2.tap(Button::Ok);
    rig2.tap(Button::Ok);
    rig2.tap(Button::Ok);
    assert!(!rig2
        .codes_on_panel()
        .iter()
        .any(|c| c.contains(&tokens2[1].0)));
    for (r, from, blue) in [(&rig, before, &tokens[1]), (&rig2, before2, &tokens2[1])] {
        for screen in &r.shown.borrow()[from..] {
            assert!(!Rig::holds(&screen_text(screen), blue), "{screen:?}");
            assert!(
                !matches!(screen, Screen::PhoneCode { seat, .. } if seat == "Blue"),
                "Blue's code was shown"
            );
        }
    }
    // Die and Back still work at once; Blue's OK after the calm shows Blue's code.
    rig.run(firmware::web::handout::ASK_CALM_MS);
    rig.tap(Button::Ok);
    assert_eq!(rig.codes_on_panel(), [blue_url]);
    rig2.tap(Button::Back);
    assert!(
        matches!(rig2.oled(), Screen::Setup { .. }),
        "{:?}",
        rig2.oled()
    );
}

/// The sensors' fault takes the OLED while Red's code is up: the hand-out closes (the code is
/// hidden) and the buttons pressed meanwhile are not its (unseen, they would walk it on to
/// Blue's code); once the sensors work again the game's screen is back, no code. Fails on the
/// code before (the hand-out stayed open behind the fault and took the presses).
#[test]
fn a_sensors_fault_closes_the_handout_and_takes_no_button_for_it() {
    let mut rig = Rig::new("handout-fault", true);
    rig.tap(Button::Ok);
    rig.tap(Button::Ok);
    rig.tap(Button::Ok);
    assert!(matches!(rig.oled(), Screen::PhoneCode { .. }));
    rig.scan_fails.set(true);
    rig.run(500);
    assert!(
        matches!(rig.oled(), Screen::Fault { .. }),
        "{:?}",
        rig.oled()
    );
    assert!(
        !rig.service.handout().unwrap().is_open(),
        "closed by the fault"
    );
    // Presses under the fault: OK (would hide Red's code and ask Blue), then OK again once
    // Blue's question would take it.
    rig.tap(Button::Ok);
    rig.run(firmware::web::handout::ASK_CALM_MS);
    rig.tap(Button::Ok);
    assert!(!rig.service.handout().unwrap().is_open());
    rig.scan_fails.set(false);
    rig.run(500);
    assert!(
        !matches!(
            rig.oled(),
            Screen::PhoneCode { .. } | Screen::PhoneAsk { .. } | Screen::Fault { .. }
        ),
        "{:?}",
        rig.oled()
    );
    assert_eq!(rig.codes_on_panel(), Vec::<String>::new());
}
