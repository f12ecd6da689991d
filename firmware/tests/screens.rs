//! The OLED screens: golden images, drawing bounds, and what each screen change costs on I2C.
//!
//! Golden images live in `firmware/tests/screens/*.png`, each pixel of the 128x64 screen drawn as
//! a 4x4 block (512x256, 8-bit grey: lit pixels white) so they can be read in any image viewer.
//! When a screen changes on purpose, re-bless them all with one command:
//!
//! ```text
//! UMPIRE_BLESS=1 cargo test -p umpire-firmware --test screens
//! ```
//!
//! On a mismatch the test writes the new rendering next to the golden as `NAME.actual.png` and
//! fails naming both files.

use std::path::{Path, PathBuf};

use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_hal_mock::eh1::i2c::{Mock as I2cMock, Transaction};
use firmware::display::{CountingI2c, Display, PushPlan, Tally};
use firmware::screens::{self, Frame, Region, HEIGHT, WIDTH};
use firmware::ui::{ClockTime, Difference, Screen, StatusLine};

/// Each screen pixel becomes a SCALE x SCALE block in the PNG.
const SCALE: usize = 4;

fn stratego_status(elapsed_s: u32) -> StatusLine {
    StatusLine {
        turn: 34,
        clock: None,
        to_act: "Red".into(),
        actions_left: None,
        reinforcements_in: None,
        elapsed_s,
        limit_s: None,
    }
}

fn waterloo_status(elapsed_s: u32) -> StatusLine {
    StatusLine {
        turn: 12,
        clock: Some(ClockTime {
            hour: 16,
            minute: 30,
        }),
        to_act: "French".into(),
        actions_left: Some(3),
        reinforcements_in: Some(1),
        elapsed_s,
        limit_s: Some(300),
    }
}

fn diffs(n: usize) -> Vec<Difference> {
    let all = [
        ("e4", "empty"),
        ("e5", "Red piece"),
        ("b6", "Blue Scout"),
        ("reserve 3", "Blue Marshal"),
        ("j10", "empty"),
        ("a1", "Red piece"),
        ("c7", "Blue piece"),
        ("d2", "empty"),
        ("h9", "Red Bomb"),
    ];
    all.iter()
        .cycle()
        .take(n)
        .map(|(place, belongs)| Difference {
            place: (*place).into(),
            belongs: (*belongs).into(),
            at: None,
        })
        .collect()
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_string()).collect()
}

/// Every screen variant, with edge cases, by golden-file name.
fn examples() -> Vec<(&'static str, Screen)> {
    vec![
        (
            "boot",
            Screen::Boot {
                version: "0.1.0".into(),
                detail: "checking the board".into(),
            },
        ),
        (
            "choice",
            Screen::Choice {
                title: "Game".into(),
                entries: strings(&["Stratego Original", "Stratego Duel", "Stratego: Waterloo"]),
                selected: 1,
                secret: false,
            },
        ),
        (
            "choice_scrolled",
            Screen::Choice {
                title: "Waterloo rules".into(),
                entries: strings(&[
                    "Basic",
                    "Standard",
                    "Expert",
                    "Scenario: Hougoumont",
                    "Scenario: La Haye Sainte and the centre",
                    "Scenario: Plancenoit",
                    "Start the battle early",
                    "Custom",
                ]),
                selected: 4,
                secret: false,
            },
        ),
        (
            "setup",
            Screen::Setup {
                seat: "Red".into(),
                instruction: "Place 6 Bombs, then press OK".into(),
                placed: 4,
                needed: 6,
            },
        ),
        (
            "problems",
            Screen::Problems {
                title: "Red set-up".into(),
                problems: strings(&["no Flag: place it on your back rows", "9 Scouts (max 8)"]),
            },
        ),
        (
            "problems_many",
            Screen::Problems {
                title: "Layout file waterloo-12x10.toml".into(),
                problems: strings(&[
                    "line 3: unknown terrain 'swamp'; use wood, farm or hill",
                    "Prussian entry square m4 is off the board",
                    "line 9: two lakes overlap at e5",
                    "flank 4 is not a flank; use 1, 2 or 3",
                ]),
            },
        ),
        (
            "play_stratego",
            Screen::Play {
                status: stratego_status(83),
                prompt: "Red to move".into(),
            },
        ),
        (
            "play_waterloo",
            Screen::Play {
                status: waterloo_status(252),
                prompt: "lift the target".into(),
            },
        ),
        (
            "play_over_time",
            Screen::Play {
                status: waterloo_status(412),
                prompt: "French to act".into(),
            },
        ),
        (
            "play_long_prompt",
            Screen::Play {
                status: stratego_status(5),
                prompt:
                    "Put the Scout down on the square it stops on, or back on b4 to cancel the \
                         move, then wait for the board to settle before lifting another piece"
                        .into(),
            },
        ),
        (
            "move_accepted",
            Screen::MoveAccepted {
                status: stratego_status(91),
                mv: "b4-b6".into(),
                places: Default::default(),
            },
        ),
        (
            "illegal",
            Screen::Illegal {
                status: stratego_status(17),
                reason: "a4-b5: pieces move straight, never diagonally".into(),
                fix: "put the piece back on a4".into(),
                places: Default::default(),
            },
        ),
        (
            "illegal_waterloo_long",
            Screen::Illegal {
                status: waterloo_status(40),
                reason: "f6-f8: cavalry may not move through an enemy unit's square or across a \
                         river except at a bridge"
                    .into(),
                fix: "put the cavalry back on f6 and choose another path".into(),
                places: Default::default(),
            },
        ),
        (
            "battle",
            Screen::Battle {
                attacker: "Red Miner".into(),
                defender: "Blue Bomb".into(),
                result: "Miner wins".into(),
                after: Vec::new(),
                hands: strings(&["remove the Bomb from e5", "Red Miner to e5"]),
                places: Default::default(),
            },
        ),
        (
            "battle_long",
            Screen::Battle {
                attacker: "French Heavy Cavalry".into(),
                defender: "Allied Guard Infantry".into(),
                result: "both removed".into(),
                after: strings(&["French: one action left"]),
                hands: strings(&[
                    "remove the French Heavy Cavalry from f6",
                    "remove the Allied Guard Infantry from f7",
                ]),
                places: Default::default(),
            },
        ),
        (
            "told_fire",
            Screen::Told {
                status: waterloo_status(42),
                title: "h7 fires at h4".into(),
                lines: strings(&["hit: the Allied infantry* is eliminated"]),
                hands: strings(&["h4: take the piece off"]),
                places: Default::default(),
            },
        ),
        (
            "told_prussians",
            Screen::Told {
                status: waterloo_status(3),
                title: "Prussians arrive".into(),
                lines: strings(&["2 Prussians drawn in secret"]),
                hands: strings(&[
                    "a5: put the Prussian piece",
                    "a6: put the Prussian piece",
                    "staging 2: take the piece off",
                    "staging 5: take the piece off",
                ]),
                places: Default::default(),
            },
        ),
        (
            "die_roll",
            Screen::DieRoll {
                face: "Red+".into(),
                meaning: "Red wins the battle and may pursue".into(),
            },
        ),
        (
            "mismatch",
            Screen::Mismatch {
                differences: diffs(3),
            },
        ),
        (
            "mismatch_many",
            Screen::Mismatch {
                differences: diffs(9),
            },
        ),
        (
            "takeback",
            Screen::Takeback {
                moves_back: 2,
                to_move_number: 14,
            },
        ),
        (
            "game_over",
            Screen::GameOver {
                result: "Blue wins".into(),
                reason: "Red's Flag was captured".into(),
            },
        ),
        (
            "error",
            Screen::Error {
                message: "Square e4 reads occupied with no piece on it".into(),
                fix: "check the reed switch under e4, then press OK".into(),
            },
        ),
        (
            "calibrate",
            Screen::Calibrate {
                columns: 12,
                rows: 10,
                occupied: vec![3 * 12 + 4, 9 * 12 + 11],
                focus: None,
                seen: (0..60).chain([119]).collect(),
                idle: Vec::new(),
                walked: 61,
                places: 120,
                tray: None,
                note: "tag 04A1B2C3D4E580 on e4".into(),
            },
        ),
        (
            "recovery_damaged",
            Screen::Recovery {
                found: "36 of 37 moves intact".into(),
                detail: "Resume cuts the damage off (a copy is kept)".into(),
                entries: strings(&["Resume 36 moves", "New game"]),
                selected: 0,
            },
        ),
        (
            "recovery_nothing",
            Screen::Recovery {
                found: "never begun: the power went as it was created".into(),
                detail: "Kept as game-0007.umpj.damaged-1".into(),
                entries: strings(&["New game"]),
                selected: 0,
            },
        ),
        (
            "journal_full",
            Screen::Error {
                message: "the last step is not recorded: nothing is lost yet".into(),
                fix: "the SD card is full: free space on it, then press OK".into(),
            },
        ),
        (
            "fault_sensors",
            Screen::Fault {
                part: "Sensors".into(),
                problem: "/dev/spidev0.1 missing".into(),
                fix: "enable SPI: sudo umpire setup, then reboot".into(),
                more: 0,
            },
        ),
        (
            "fault_config_more",
            Screen::Fault {
                part: "Config line 42".into(),
                problem: "[buttons] ok: GPIO 13 is already [buttons] die".into(),
                fix: "fix the file (see `umpire check-config`); it is read again by itself".into(),
                more: 2,
            },
        ),
    ]
}

// ----- PNG ------------------------------------------------------------------------------------

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("screens")
}

/// The frame as 8-bit grey pixels, scaled.
fn to_grey(frame: &Frame) -> Vec<u8> {
    let (w, h) = (WIDTH * SCALE, HEIGHT * SCALE);
    let mut out = vec![0u8; w * h];
    for y in 0..h {
        for x in 0..w {
            if frame.pixel(x / SCALE, y / SCALE) {
                out[y * w + x] = 0xFF;
            }
        }
    }
    out
}

fn write_png(path: &Path, grey: &[u8]) {
    let file = std::fs::File::create(path).unwrap_or_else(|e| panic!("create {path:?}: {e}"));
    let mut encoder = png::Encoder::new(
        std::io::BufWriter::new(file),
        (WIDTH * SCALE) as u32,
        (HEIGHT * SCALE) as u32,
    );
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("png header");
    writer.write_image_data(grey).expect("png data");
}

fn read_png(path: &Path) -> Option<Vec<u8>> {
    let file = std::fs::File::open(path).ok()?;
    let decoder = png::Decoder::new(std::io::BufReader::new(file));
    let mut reader = decoder.read_info().ok()?;
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).ok()?;
    if info.color_type != png::ColorType::Grayscale
        || info.bit_depth != png::BitDepth::Eight
        || info.width as usize != WIDTH * SCALE
        || info.height as usize != HEIGHT * SCALE
    {
        return None;
    }
    buf.truncate(info.buffer_size());
    Some(buf)
}

#[test]
fn screens_match_golden_images() {
    let bless = std::env::var_os("UMPIRE_BLESS").is_some_and(|v| v != "0");
    let dir = golden_dir();
    std::fs::create_dir_all(&dir).expect("golden dir");
    let mut failures = Vec::new();
    for (name, screen) in examples() {
        let grey = to_grey(&screens::render(&screen));
        let golden = dir.join(format!("{name}.png"));
        let actual = dir.join(format!("{name}.actual.png"));
        if bless {
            write_png(&golden, &grey);
            let _ = std::fs::remove_file(&actual);
            continue;
        }
        match read_png(&golden) {
            Some(expected) if expected == grey => {
                let _ = std::fs::remove_file(&actual);
            }
            found => {
                write_png(&actual, &grey);
                let why = if found.is_some() {
                    "differs"
                } else {
                    "is missing or unreadable"
                };
                failures.push(format!(
                    "{} {why}; see {}",
                    golden.display(),
                    actual.display()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} screen(s) changed:\n  {}\nIf the change is intended, re-bless with \
         `UMPIRE_BLESS=1 cargo test -p umpire-firmware --test screens`",
        failures.len(),
        failures.join("\n  ")
    );
}

// ----- bounds -------------------------------------------------------------------------------------

/// A target as large as the screen that refuses any pixel outside it.
struct Strict {
    outside: Vec<Point>,
}

impl OriginDimensions for Strict {
    fn size(&self) -> Size {
        Size::new(WIDTH as u32, HEIGHT as u32)
    }
}

impl DrawTarget for Strict {
    type Color = BinaryColor;
    type Error = core::convert::Infallible;
    fn draw_iter<I: IntoIterator<Item = Pixel<BinaryColor>>>(
        &mut self,
        pixels: I,
    ) -> Result<(), Self::Error> {
        for Pixel(p, _) in pixels {
            if p.x < 0 || p.y < 0 || p.x >= WIDTH as i32 || p.y >= HEIGHT as i32 {
                self.outside.push(p);
            }
        }
        Ok(())
    }
}

#[test]
fn no_screen_draws_outside_128x64() {
    let mut extreme = examples();
    extreme.push((
        "huge",
        Screen::Problems {
            title: "x".repeat(200),
            problems: vec!["y".repeat(500); 50],
        },
    ));
    extreme.push((
        "huge_play",
        Screen::Illegal {
            status: StatusLine {
                turn: u32::MAX,
                clock: Some(ClockTime {
                    hour: 23,
                    minute: 59,
                }),
                to_act: "Z".repeat(100),
                actions_left: Some(u8::MAX),
                reinforcements_in: Some(u8::MAX),
                elapsed_s: u32::MAX,
                limit_s: Some(0),
            },
            reason: "w ".repeat(300),
            fix: "f".repeat(300),
            places: Default::default(),
        },
    ));
    extreme.push((
        "empty_choice",
        Screen::Choice {
            title: String::new(),
            entries: Vec::new(),
            selected: 7,
            secret: false,
        },
    ));
    extreme.push((
        "empty_texts",
        Screen::Battle {
            attacker: String::new(),
            defender: String::new(),
            result: String::new(),
            after: Vec::new(),
            hands: Vec::new(),
            places: Default::default(),
        },
    ));
    for (name, screen) in extreme {
        let mut strict = Strict {
            outside: Vec::new(),
        };
        let Ok(()) = screens::draw(&screen, &mut strict);
        assert!(
            strict.outside.is_empty(),
            "{name} drew {} pixels outside the screen, e.g. {:?}",
            strict.outside.len(),
            strict.outside.first()
        );
    }
}

// ----- bytes on the wire ------------------------------------------------------------------

/// What the bus carries for the panel to go from `from` (or from unknown: a full frame) to `to`,
/// not counting the one-off init.
fn cost(from: Option<&Screen>, to: &Screen, plan: PushPlan) -> Tally {
    let bus = CountingI2c::new();
    let mut display = Display::new(bus.clone());
    display.set_plan(plan);
    display.init().expect("counting bus never fails");
    if let Some(from) = from {
        display.show_screen(from).expect("counting bus never fails");
    }
    bus.reset();
    display.show_screen(to).expect("counting bus never fails");
    bus.tally()
}

/// Typical transitions with the budget each must stay within (wire bytes, rectangles plan).
fn transitions() -> Vec<(&'static str, Option<Screen>, Screen, usize)> {
    let ex: std::collections::HashMap<_, _> = examples().into_iter().collect();
    let get = |n: &str| ex.get(n).cloned().expect("example");
    let play = get("play_stratego");
    let battle = get("battle");
    vec![
        ("full frame (first show)", None, get("boot"), 1162),
        ("boot -> choice", Some(get("boot")), get("choice"), 1150), // a wholly new screen (the menu now shows its buttons)
        (
            "choice: highlight down",
            Some(get("choice")),
            {
                let mut c = get("choice");
                if let Screen::Choice { selected, .. } = &mut c {
                    *selected = 2;
                }
                c
            },
            480,
        ),
        (
            "setup: one more placed",
            Some(get("setup")),
            {
                let mut s = get("setup");
                if let Screen::Setup { placed, .. } = &mut s {
                    *placed += 1;
                }
                s
            },
            150,
        ),
        (
            "play -> move accepted",
            Some(play.clone()),
            get("move_accepted"),
            480,
        ),
        ("play -> illegal", Some(play.clone()), get("illegal"), 1000),
        ("play -> battle", Some(play.clone()), battle.clone(), 1050),
        ("battle -> play", Some(battle), play.clone(), 1050),
        (
            "clock tick 01:23 -> 01:24",
            Some(play.clone()),
            Screen::Play {
                status: stratego_status(84),
                prompt: "Red to move".into(),
            },
            40,
        ),
        (
            "clock tick 04:59 -> 05:00",
            Some(get("play_waterloo")),
            Screen::Play {
                status: waterloo_status(300),
                prompt: "lift the target".into(),
            },
            60,
        ),
        (
            "over the limit 05:00 -> !05:01",
            Some(Screen::Play {
                status: waterloo_status(300),
                prompt: "lift the target".into(),
            }),
            Screen::Play {
                status: waterloo_status(301),
                prompt: "lift the target".into(),
            },
            80,
        ),
        ("play -> mismatch", Some(play.clone()), get("mismatch"), 900),
        (
            "play -> told (fire)",
            Some(get("play_waterloo")),
            get("told_fire"),
            1000,
        ),
        (
            "told: a hand step done",
            Some(get("told_prussians")),
            {
                let mut t = get("told_prussians");
                if let Screen::Told { hands, .. } = &mut t {
                    hands.remove(0);
                }
                t
            },
            800,
        ),
        (
            "mismatch: one fixed (3 -> 2)",
            Some(get("mismatch")),
            Screen::Mismatch {
                differences: diffs(3).into_iter().skip(1).collect(),
            },
            700,
        ),
    ]
}

#[test]
fn screen_changes_stay_within_their_i2c_budget() {
    println!(
        "| transition | rectangles: writes / wire bytes / us @400k | bounding box: writes / \
         wire bytes / us @400k |"
    );
    println!("|---|---|---|");
    let mut over = Vec::new();
    for (name, from, to, budget) in transitions() {
        let rects = cost(from.as_ref(), &to, PushPlan::Rectangles);
        let bbox = cost(from.as_ref(), &to, PushPlan::BoundingBox);
        println!(
            "| {name} | {} / {} / {} | {} / {} / {} |",
            rects.transactions,
            rects.wire_bytes(),
            rects.micros_at(400_000),
            bbox.transactions,
            bbox.wire_bytes(),
            bbox.micros_at(400_000)
        );
        assert!(
            rects.wire_bytes() <= bbox.wire_bytes(),
            "{name}: rectangles cost more than the bounding box"
        );
        if rects.wire_bytes() > budget {
            over.push(format!("{name}: {} > {budget}", rects.wire_bytes()));
        }
    }
    assert!(over.is_empty(), "over budget: {over:?}");
}

#[test]
fn showing_the_same_screen_again_sends_nothing() {
    let mut display = Display::new(CountingI2c::new());
    for (_, screen) in examples() {
        display
            .show_screen(&screen)
            .expect("counting bus never fails");
        let again = display
            .show_screen(&screen)
            .expect("counting bus never fails");
        assert_eq!(again.regions, 0);
    }
}

#[test]
fn a_full_frame_costs_what_the_hardware_notes_say() {
    // 64 data writes of 1 + 16 bytes and 2 window commands of 4 bytes, plus 66 address bytes.
    let bus = CountingI2c::new();
    let mut display = Display::new(bus.clone());
    display.init().expect("counting bus never fails");
    bus.reset();
    display
        .show(&Frame::new())
        .expect("counting bus never fails");
    let tally = bus.tally();
    assert_eq!(tally.transactions, 66);
    assert_eq!(tally.bytes_written, 64 * 17 + 2 * 4);
    assert_eq!(tally.wire_bytes(), Region::FULL.wire_bytes());
}

/// A panel lost and back costs the whole init sequence and one whole frame, nothing more: the
/// price of the service's recovery (and of its once-a-minute refresh).
#[test]
fn recovering_a_lost_panel_costs_one_init_and_one_full_frame() {
    let bus = CountingI2c::new();
    let mut display = Display::new(bus.clone());
    display.init().expect("counting bus never fails");
    let init = bus.tally();
    let frame = screens::render(&examples()[0].1);
    display.show(&frame).expect("counting bus never fails");
    display.reset();
    bus.reset();
    display.show(&frame).expect("counting bus never fails");
    let tally = bus.tally();
    assert_eq!(tally.transactions, init.transactions + 66);
    assert_eq!(
        tally.wire_bytes(),
        init.wire_bytes() + Region::FULL.wire_bytes()
    );
    println!(
        "recovery: {} writes, {} wire bytes, {} us at 400 kHz (computed)",
        tally.transactions,
        tally.wire_bytes(),
        tally.micros_at(400_000)
    );
}

// ----- the protocol, byte for byte ---------------------------------------------------------------

const ADDR: u8 = 0x3C;

fn command(bytes: &[u8]) -> Transaction {
    let mut v = vec![0x00];
    v.extend_from_slice(bytes);
    Transaction::write(ADDR, v)
}

fn data(bytes: &[u8]) -> Transaction {
    let mut v = vec![0x40];
    v.extend_from_slice(bytes);
    Transaction::write(ADDR, v)
}

#[test]
fn a_small_change_is_one_window_and_its_bytes() {
    let mut expected = vec![
        // init: display off, clock, multiplex 63, offset 0, start line 0, charge pump, horizontal
        // addressing, COM pins, segment remap + COM scan (rotation), contrast, precharge, VCOMH,
        // resume from RAM, normal (not inverted), no scrolling, display on.
        command(&[0xAE]),
        command(&[0xD5, 0x80]),
        command(&[0xA8, 0x3F]),
        command(&[0xD3, 0x00]),
        command(&[0x40]),
        command(&[0x8D, 0x14]),
        command(&[0x20, 0x00]),
        command(&[0xDA, 0x12]),
        command(&[0xA1]),
        command(&[0xC8]),
        command(&[0xD9, 0x21]),
        command(&[0x81, 0x5F]),
        command(&[0xDB, 0x40]),
        command(&[0xA4]),
        command(&[0xA6]),
        command(&[0x2E]),
        command(&[0xAF]),
        // first show: the whole (dark) frame
        command(&[0x21, 0, 127]),
        command(&[0x22, 0, 7]),
    ];
    expected.extend((0..64).map(|_| data(&[0; 16])));
    // then one lit pixel at (40, 20) and one at (42, 23): page 2, columns 40..=42.
    expected.extend([
        command(&[0x21, 40, 42]),
        command(&[0x22, 2, 2]),
        data(&[0x10, 0x00, 0x80]),
    ]);
    let mut i2c = I2cMock::new(&expected);
    let mut display = Display::new(i2c.clone());
    display.init().expect("init");
    let mut frame = Frame::new();
    display.show(&frame).expect("full frame");
    frame.set_pixel(40, 20, true);
    frame.set_pixel(42, 23, true);
    let pushed = display.show(&frame).expect("small change");
    assert_eq!(pushed.regions, 1);
    assert_eq!(pushed.data_bytes, 3);
    drop(display);
    i2c.done();
}

// ----- errors -----------------------------------------------------------------------------------

#[test]
fn a_missing_panel_is_a_bus_error_and_the_next_show_starts_over() {
    use firmware::display::DisplayError;
    use firmware::sim::SimI2c;

    // Nothing answers at 0x3D: the error says to check the bus.
    let mut display = Display::with_address(SimI2c::with_devices([0x3C]), 0x3D);
    let screen = &examples()[0].1;
    assert_eq!(display.show_screen(screen), Err(DisplayError::Bus));
    assert!(display.shown().is_none());
    assert!(DisplayError::Bus.to_string().contains("0x3C or 0x3D"));

    // A panel that answers: the first show sends init and a whole frame, the second nothing.
    let mut display = Display::new(SimI2c::with_devices([0x3C]));
    let first = display.show_screen(screen).expect("panel answers");
    assert_eq!(first.data_bytes, screens::FRAME_BYTES);
    let again = display.show_screen(screen).expect("panel answers");
    assert_eq!(again.regions, 0);
    assert!(display.release().bytes_written > screens::FRAME_BYTES);
}

/// The game over screen says the result and its reason whole, however long: "Anglo-Allied
/// victory" beside a reason too long for the page under the large result was cut to "Game over:
/// Anglo-Allied…" in the title bar. Each line as drawn, joined, gives back every word.
#[test]
fn the_game_over_screen_says_the_result_whole() {
    for (result, reason) in [
        ("Blue wins", "Red's Flag was captured"),
        (
            "Anglo-Allied victory",
            "an army's casualties reached the B box and it routed",
        ),
        (
            "Anglo-Allied victory",
            "an army failed its rout test and routed: French rout test 6+2 vs morale 5",
        ),
        ("Draw", "nightfall: neither side holds the field"),
    ] {
        let laid = screens::layout(&Screen::GameOver {
            result: result.into(),
            reason: reason.into(),
        });
        let drawn: Vec<String> = laid
            .pages
            .iter()
            .flat_map(|p| p.texts().map(|d| d.text.clone()).collect::<Vec<_>>())
            .collect();
        let all = drawn.join(" ");
        assert!(!all.contains('\u{2026}'), "cut: {drawn:?}");
        for words in [result, reason, "OK: new game"] {
            assert!(all.contains(words), "{words:?} is not whole in {drawn:?}");
        }
        assert!(drawn[0].starts_with("Game over"), "{drawn:?}");
    }
}

/// A set-up screen's title keeps its count whole whatever the seats are called: the players
/// read how many pieces the umpire has seen. Two-player Napoléon set up by tags was titled
/// "Allies and French set-up 12/58", cut off before its count.
#[test]
fn a_set_up_title_keeps_its_count_whole() {
    let title = |seat: &str, placed: u16, needed: u16| {
        let laid = screens::layout(&Screen::Setup {
            seat: seat.into(),
            instruction: "place both armies (tags are read), then press OK".into(),
            placed,
            needed,
        });
        let first = laid.pages[0].texts().next().map(|d| d.text.clone());
        first.unwrap_or_default()
    };
    assert_eq!(title("Red", 12, 40), "Red set-up 12/40");
    assert_eq!(title("Red and Blue", 12, 80), "Red and Blue set-up 12/80");
    assert_eq!(
        title("Allies and French", 12, 58),
        "Allies and French 12/58"
    );
    let long = title("Anglo-Dutch, Prussian and French", 123, 158);
    assert!(long.ends_with(" 123/158"), "{long}");
    assert!(long.starts_with("Anglo-Dutch"), "{long}");
}

/// A set-up screen whose words would run onto a second page above the progress bar gives them
/// the bar's row instead: pages turn on their own, and a player may miss the one with the
/// prompt. The longest Napoléon instructions with 6.2.4's note (three players: the Anglo-Dutch
/// placing Wellington in their own set-up, and every army set up by tags) are one page, whole,
/// the count still in the title; a short instruction keeps its bar.
#[test]
fn set_up_words_take_the_bar_row_rather_than_a_second_page() {
    use firmware::referee::games::napoleon::REVEAL_ON_CONTACT_NOTE;
    use firmware::screens::Mark;
    let setup = |seat: &str, instruction: &str, needed: u16| {
        screens::layout(&Screen::Setup {
            seat: seat.into(),
            instruction: instruction.into(),
            placed: 0,
            needed,
        })
    };
    let barred = |laid: &screens::Layout| {
        laid.pages
            .iter()
            .all(|p| p.marks.iter().any(|m| matches!(m, Mark::Outline(_))))
    };
    for (seat, instruction, needed, title) in [
        (
            "Anglo-Dutch",
            "Anglo-Dutch: place WELLINGTON (Anglo-Dutch) in a slot of an Anglo-Dutch town, then \
             press OK",
            1,
            "Anglo-Dutch set-up 0/1",
        ),
        (
            "All armies",
            "French, Anglo-Dutch and Prussian: place every army (tags are read), then press OK",
            58,
            "All armies set-up 0/58",
        ),
    ] {
        let noted = format!("{instruction}. {REVEAL_ON_CONTACT_NOTE}");
        let laid = setup(seat, &noted, needed);
        assert_eq!(laid.lines(), [title, noted.as_str()]);
        assert!(!barred(&laid));
    }
    let short = setup(
        "Anglo-Dutch",
        "Anglo-Dutch: press OK to check the set-up",
        1,
    );
    assert_eq!(short.pages.len(), 1);
    assert!(barred(&short));
}

/// A builder walking a block over Napoléon's 26 x 31 map sees on the OLED the part of the board
/// the block is on, its square filled, and which part it is: the old screen drew only a1 to
/// y12, so a block on z31 (or anywhere above row 12) never showed.
#[test]
fn calibrating_a_large_board_shows_the_window_holding_the_piece() {
    let (columns, rows) = (26u8, 31u8);
    let z31 = 30 * 26 + 25;
    let screen = |occupied: Vec<u16>| Screen::Calibrate {
        columns,
        rows,
        occupied,
        focus: None,
        seen: vec![z31],
        idle: Vec::new(),
        walked: 1,
        places: 806,
        tray: None,
        note: "z31 on".into(),
    };
    let frame = screens::render(&screen(vec![z31]));
    // The window k20-z31: z is its 16th column (x 75..78), row 31 its top row (y 2..5).
    for (x, y) in [(75, 2), (78, 5), (76, 3)] {
        assert!(frame.pixel(x, y), "z31's square at ({x}, {y}) is not lit");
    }
    // k20, the window's bottom-left square, is a dot: never seen.
    assert!(
        frame.pixel(1, 59) && !frame.pixel(0, 57),
        "k20 is not a dot"
    );
    let text = screens::screen_text(&screen(vec![z31]));
    assert!(text.contains("k20-z31"), "{text}");
    // With the piece off the board, the window is the first: a1-p12.
    let text = screens::screen_text(&screen(Vec::new()));
    assert!(text.contains("a1-p12"), "{text}");
    // A piece on a1 fills the first window's bottom-left square.
    let frame = screens::render(&screen(vec![0]));
    assert!(frame.pixel(0, 57) && frame.pixel(3, 60), "a1's square");
}

/// Every board the configuration takes (1 x 1 to 26 x 32), bare, with a piece on each corner,
/// the middle or a tray slot (a cell past the squares): the calibrate screen draws every mark on
/// the 128 x 64 OLED, the squares left of the text column, the piece's square filled (a tray
/// slot's none), and the text whole. A board of no columns or rows (a `Screen` built by hand)
/// draws without a panic.
#[test]
fn calibrating_any_board_draws_the_piece_and_nothing_off_screen_or_over_the_text() {
    use firmware::screens::Mark;
    let check = |columns: u8, rows: u8, occupied: Vec<u16>| {
        let squares = u16::from(columns) * u16::from(rows);
        let pieces = occupied.iter().filter(|&&c| c < squares).count();
        let screen = Screen::Calibrate {
            columns,
            rows,
            occupied: occupied.clone(),
            focus: None,
            seen: occupied.clone(),
            idle: Vec::new(),
            walked: 1,
            places: squares,
            tray: None,
            note: "tag 04A1B2C3D4E580 on z31".into(),
        };
        let layout = screens::layout(&screen);
        let (w, h) = (WIDTH as i32, HEIGHT as i32);
        let mut grid_right = -1;
        let mut text_left = w;
        let mut filled = 0;
        for mark in &layout.pages[0].marks {
            let (left, top, right, bottom) = match mark {
                Mark::Fill(r) | Mark::Outline(r) => {
                    filled += usize::from(matches!(mark, Mark::Fill(_)));
                    let br = r.bottom_right().unwrap();
                    grid_right = grid_right.max(br.x);
                    (r.top_left.x, r.top_left.y, br.x, br.y)
                }
                Mark::Dot(p) => {
                    grid_right = grid_right.max(p.x);
                    (p.x, p.y, p.x, p.y)
                }
                Mark::Text(d) => {
                    let b = d.bounds();
                    text_left = text_left.min(b.top_left.x);
                    let br = b.bottom_right().unwrap_or(b.top_left);
                    (b.top_left.x, b.top_left.y, br.x, br.y)
                }
                other => panic!("{columns}x{rows}: unexpected {other:?}"),
            };
            assert!(
                left >= 0 && top >= 0 && right < w && bottom < h,
                "{columns}x{rows} {occupied:?}: {mark:?} is off the screen"
            );
        }
        assert!(
            grid_right < text_left,
            "{columns}x{rows} {occupied:?}: the squares reach x {grid_right}, the text starts at {text_left}"
        );
        assert_eq!(
            filled, pieces,
            "{columns}x{rows} {occupied:?}: the piece's square is not drawn filled"
        );
    };
    for columns in 1..=26u8 {
        for rows in 1..=32u8 {
            let squares = u16::from(columns) * u16::from(rows);
            let last = squares - 1;
            let middle = (rows / 2) as u16 * u16::from(columns) + u16::from(columns / 2);
            let top_left = (u16::from(rows) - 1) * u16::from(columns);
            check(columns, rows, Vec::new());
            for cell in [0, u16::from(columns) - 1, top_left, middle, last, squares] {
                check(columns, rows, vec![cell]);
            }
        }
    }
    // Napoléon's map, a piece on every square in turn.
    for cell in 0..26 * 31 {
        check(26, 31, vec![cell]);
    }
    for (columns, rows) in [(0, 0), (0, 10), (12, 0)] {
        let screen = Screen::Calibrate {
            columns,
            rows,
            occupied: vec![0, 5],
            focus: None,
            seen: vec![0],
            idle: vec![1],
            walked: 1,
            places: 0,
            tray: None,
            note: "a1 on".into(),
        };
        let _ = screens::layout(&screen);
    }
}
