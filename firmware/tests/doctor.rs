//! `umpire doctor` and `umpire calibrate` against the simulated board: each fault a builder can
//! meet is found and named with its fix; a healthy board passes.

use std::convert::Infallible;

use firmware::doctor::{
    check_display, check_expander, check_reader, check_sensors, has_problems, BoardShape,
    Calibration, CalibrationEvent, Finding, Severity,
};
use firmware::drivers::nfc::mfrc522::Mfrc522;
use firmware::drivers::reed_matrix::OccupancyScanner;
use firmware::sensing::{SensedCell, TagUid};
use firmware::sim::{NoDelay, ReaderFault, SimBoard, SimI2c, SimMfrc522, SimTags, SwitchFault};

const SHAPE: BoardShape = BoardShape {
    columns: 10,
    rows: 10,
};

fn cell(name: &str) -> SensedCell {
    let col = u16::from(name.as_bytes()[0] - b'a');
    let row: u16 = name[1..].parse().unwrap();
    SensedCell::new((row - 1) * 10 + col)
}

fn doctor(board: &mut SimBoard) -> Vec<firmware::doctor::Finding> {
    check_sensors(&SHAPE.into(), 50, || board.read_occupancy())
}

#[test]
fn a_healthy_board_passes() {
    let mut board = SimBoard::new(10, 10);
    let f = doctor(&mut board);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].severity, Severity::Ok);
    assert!(!has_problems(&f));
}

#[test]
fn a_stuck_switch_is_a_problem_named_by_its_square() {
    let mut board = SimBoard::new(10, 10).with_fault(SwitchFault::StuckClosed(cell("e4")));
    let f = doctor(&mut board);
    assert!(has_problems(&f));
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].subject, "square e4");
    assert!(f[0].fix.contains("stuck closed"));
}

#[test]
fn a_flickering_switch_is_a_warning() {
    let mut board = SimBoard::new(10, 10).with_fault(SwitchFault::Flickering(cell("j10")));
    let f = doctor(&mut board);
    assert!(!has_problems(&f));
    assert_eq!(f[0].severity, Severity::Warning);
    assert_eq!(f[0].subject, "square j10");
    assert!(f[0].detail.contains("12 of 50"), "{}", f[0].detail);
}

#[test]
fn a_shorted_row_is_one_finding_not_ten() {
    let mut board = SimBoard::new(10, 10)
        .with_fault(SwitchFault::ShortedRow(2))
        .with_fault(SwitchFault::StuckClosed(cell("a1")));
    let f = doctor(&mut board);
    assert_eq!(f.len(), 2, "{f:#?}");
    assert_eq!(f[0].subject, "row 3");
    assert!(f[0].fix.contains("diode"));
    assert_eq!(f[1].subject, "square a1");
}

#[test]
fn a_failing_scan_is_reported_with_its_message() {
    let f = check_sensors(&SHAPE.into(), 5, || {
        Err::<firmware::sensing::Occupancy, _>("SPI bus 0 is busy")
    });
    assert!(has_problems(&f));
    assert!(f[0].detail.contains("SPI bus 0 is busy"));
}

#[test]
fn the_display_must_answer_at_its_address() {
    let mut bus = SimI2c::with_devices([0x3C]);
    let ok = check_display(&mut bus, 1, 0x3C);
    assert_eq!(ok.severity, Severity::Ok);
    assert_eq!(bus.bytes_written, 2);
    let missing = check_display(&mut bus, 1, 0x3D);
    assert_eq!(missing.severity, Severity::Problem);
    assert!(missing.fix.contains("i2cdetect -y 1"));
}

#[test]
fn an_expander_must_answer_at_its_address() {
    let mut bus = SimI2c::with_devices([0x20, 0x3C]);
    let ok = check_expander(
        &mut bus,
        1,
        0x20,
        "matrix rows",
        "[sensor.matrix] row_expander",
    );
    assert_eq!(ok.severity, Severity::Ok, "{ok}");
    assert_eq!(ok.subject, "expander 0x20 (matrix rows)");
    assert!(ok.detail.contains("ports read 0xffff"), "{ok}");
    assert_eq!(bus.bytes_written, 0, "a check only reads");
    let missing = check_expander(
        &mut bus,
        1,
        0x21,
        "matrix columns",
        "[sensor.matrix] column_expander",
    );
    assert_eq!(missing.severity, Severity::Problem);
    assert_eq!(missing.subject, "expander 0x21 (matrix columns)");
    assert!(missing
        .detail
        .contains("nothing answers at 0x21 on I2C bus 1"));
    assert!(missing.fix.contains("i2cdetect -y 1") && missing.fix.contains("A0-A2"));
    assert!(
        missing.fix.contains("[sensor.matrix] column_expander"),
        "{missing}"
    );
}

/// Checks one simulated reader under a1 b1 with `fault`, a tag standing on b1.
fn check_one(fault: Option<ReaderFault>) -> Vec<Finding> {
    let region = [cell("a1"), cell("b1")];
    let tags = SimTags::new();
    tags.set(
        cell("b1"),
        Some(TagUid::new(&[4, 1, 2, 3, 4, 5, 6]).unwrap()),
    );
    let chip = SimMfrc522::under(&region, tags, fault);
    check_reader(1, "a1 b1", Mfrc522::new(chip, NoDelay))
}

#[test]
fn a_healthy_reader_is_initialised_and_lists_its_field() {
    let found = check_one(None);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].severity, Severity::Ok);
    assert_eq!(found[0].subject, "NFC reader 1 (a1 b1)");
    assert!(
        found[0].detail.contains("initialised and answering"),
        "{found:?}"
    );
    assert!(found[0].detail.contains("1 tag in its field"), "{found:?}");
}

/// Finding of the issue: `doctor` only read the version register, so a reader that was never
/// initialised (antenna off, no timer) passed. Each fault now has its own finding and fix.
#[test]
fn each_reader_fault_is_named_with_its_fix() {
    let absent = check_one(Some(ReaderFault::Absent));
    assert_eq!(absent.len(), 1);
    assert_eq!(absent[0].severity, Severity::Problem);
    assert!(absent[0]
        .detail
        .contains("absent: its VersionReg reads 0x00"));
    assert!(absent[0].fix.contains("MISO") && absent[0].fix.contains("Y0"));

    let clone = check_one(Some(ReaderFault::Clone));
    assert_eq!(clone[0].severity, Severity::Warning);
    assert!(clone[0].detail.contains("clone"));
    assert_eq!(
        clone[1].severity,
        Severity::Ok,
        "a clone still works: {clone:?}"
    );

    let uninit = check_one(Some(ReaderFault::IgnoresWrites));
    assert_eq!(uninit.len(), 1);
    assert_eq!(uninit[0].severity, Severity::Problem);
    assert!(uninit[0].detail.contains("not initialised"), "{uninit:?}");
    assert!(uninit[0].detail.contains("antenna is off"), "{uninit:?}");
    assert!(uninit[0].fix.contains("MOSI"), "{uninit:?}");

    let reset = check_one(Some(ReaderFault::StuckInReset));
    assert_eq!(reset[0].severity, Severity::Problem);
    assert!(
        reset[0].detail.contains("never came out of reset"),
        "{reset:?}"
    );
    assert!(reset[0].fix.contains("RST") && reset[0].fix.contains("crystal"));
}

#[test]
fn an_unknown_chip_is_a_warning() {
    let found = check_reader(1, "a1", Mfrc522::new(SimMfrc522::new(0x12), NoDelay));
    assert_eq!(found[0].severity, Severity::Warning);
    assert!(found[0].detail.contains("0x12"));
}

#[test]
fn calibration_walk_finds_the_dead_square() {
    let mut board = SimBoard::new(10, 10).with_fault(SwitchFault::Dead(cell("c7")));
    let mut cal = Calibration::new(SHAPE);
    let mut first_seen = 0;
    for i in 0..100 {
        board.clear();
        board.set_piece(SensedCell::new(i), true);
        let events = cal.update(
            board
                .read_occupancy()
                .unwrap_or_else(|e: Infallible| match e {}),
        );
        first_seen += events
            .iter()
            .filter(|e| matches!(e, CalibrationEvent::FirstSeen(_)))
            .count();
    }
    assert_eq!(first_seen, 99);
    assert_eq!(cal.never_seen(), vec!["c7".to_string()]);
    let grid = cal.grid();
    assert!(grid.starts_with("10 o o o o o o o o o # \n"), "{grid}");
    assert!(grid.contains(" 7 o o . o"), "{grid}");
}

/// A builder walking a block over Napoléon's 26 x 31 map while another stands on a1 sees the
/// OLED follow the block walked, not the one left standing: the screen's window holds the
/// square that read a piece last, while it stands there and while it is lifted.
#[test]
fn calibration_follows_the_piece_walked_not_one_left_standing() {
    let shape = BoardShape {
        columns: 26,
        rows: 31,
    };
    let mut board = SimBoard::new(26, 31);
    let mut cal = Calibration::new(shape);
    board.set_piece(SensedCell::new(0), true);
    let z31 = 30 * 26 + 25;
    for walked in [z31 - 1, z31] {
        board.set_piece(SensedCell::new(walked), true);
        board.set_piece(SensedCell::new(walked - 1), false);
        cal.update(
            board
                .read_occupancy()
                .unwrap_or_else(|e: Infallible| match e {}),
        );
    }
    let screen = cal.screen("z31 on");
    let firmware::ui::Screen::Calibrate {
        occupied, focus, ..
    } = &screen
    else {
        panic!("{screen:?}");
    };
    assert_eq!((occupied.as_slice(), *focus), (&[0, z31][..], Some(z31)));
    let text = firmware::screens::screen_text(&screen);
    assert!(text.contains("k20-z31"), "{text}");
    // Lifted, on its way to the next place, the walked piece keeps the window: the screen does
    // not jump to the piece left on a1 and back.
    board.set_piece(SensedCell::new(z31), false);
    cal.update(
        board
            .read_occupancy()
            .unwrap_or_else(|e: Infallible| match e {}),
    );
    let screen = cal.screen("z31 off");
    let text = firmware::screens::screen_text(&screen);
    assert!(text.contains("k20-z31"), "{text}");
    // z31's square is outlined (seen), not filled.
    let frame = firmware::screens::render(&screen);
    assert!(frame.pixel(75, 2) && !frame.pixel(76, 3), "z31 is outlined");
    // Set down on b1, the piece takes the window with it.
    board.set_piece(SensedCell::new(1), true);
    cal.update(
        board
            .read_occupancy()
            .unwrap_or_else(|e: Infallible| match e {}),
    );
    let text = firmware::screens::screen_text(&cal.screen("b1 on"));
    assert!(text.contains("a1-p12"), "{text}");
}

/// A Waterloo board with its tray slots "on the inputs after the squares": `doctor` names a
/// stuck tray switch as the configuration names the slot, and a calibration walk asks for the
/// slots too. Before, both stopped at the last square, so a tray slot's switch was never
/// tested.
#[test]
fn doctor_and_calibrate_cover_the_tray_slots_after_the_squares() {
    use boards::seat::Seat;
    use firmware::doctor::SensedBoard;
    use firmware::sensing::{LayoutSetup, TrayKind};
    let shape = BoardShape {
        columns: 12,
        rows: 10,
    };
    let layout = LayoutSetup::grid(12, 10)
        .with_tray(TrayKind::Reserve, Seat::FIRST, 3)
        .with_tray(TrayKind::Reserve, Seat::SECOND, 2);
    let board = SensedBoard::new(shape, &layout);
    assert_eq!(board.cells(), 125);
    assert_eq!(board.name(SensedCell::new(121)), "seat 1 reserve slot 2");

    // doctor: a stuck switch under seat 2's first reserve slot (cell 123).
    let mut sim = SimBoard::new(12, 10).with_fault(SwitchFault::StuckClosed(SensedCell::new(123)));
    let found = check_sensors(&board, 20, || sim.read_occupancy());
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].severity, Severity::Problem);
    assert_eq!(found[0].subject, "seat 2 reserve slot 1");
    let mut healthy = SimBoard::new(12, 10);
    let found = check_sensors(&board, 20, || healthy.read_occupancy());
    assert!(
        found[0]
            .detail
            .contains("every square and tray slot reads empty"),
        "{found:?}"
    );

    // calibrate: the walk asks for 125 places; one slot left out is named.
    let mut cal = Calibration::new(board);
    let mut sim = SimBoard::new(12, 10);
    for i in (0..125).filter(|&i| i != 124) {
        sim.clear();
        sim.set_piece(SensedCell::new(i), true);
        let events = cal.update(
            sim.read_occupancy()
                .unwrap_or_else(|e: Infallible| match e {}),
        );
        if i == 121 {
            assert!(
                events.contains(&CalibrationEvent::On(
                    SensedCell::new(121),
                    "seat 1 reserve slot 2".into()
                )),
                "{events:?}"
            );
            // The OLED shows the tray the piece stands in: its 3 slots, slot 2 filled.
            let screen = cal.screen("seat 1 reserve slot 2 on");
            let firmware::ui::Screen::Calibrate {
                columns,
                rows,
                occupied,
                tray,
                ..
            } = &screen
            else {
                panic!("{screen:?}");
            };
            assert_eq!((*columns, *rows, occupied.as_slice()), (3, 1, &[1u16][..]));
            assert_eq!(tray.as_deref(), Some("seat 1 reserve"));
            let text = firmware::screens::screen_text(&screen);
            assert!(
                text.contains("seat 1") && text.contains("reserve"),
                "{text}"
            );
            // One row of three slots, centred on the 64 rows: y 29..33; slot 2 at x 5..9.
            let frame = firmware::screens::render(&screen);
            assert!(
                frame.pixel(6, 30) && frame.pixel(8, 32),
                "slot 2 is not filled"
            );
            assert!(
                frame.pixel(0, 29) && !frame.pixel(1, 30),
                "slot 1 (seen, not occupied) is not outlined"
            );
        }
    }
    sim.clear();
    cal.update(
        sim.read_occupancy()
            .unwrap_or_else(|e: Infallible| match e {}),
    );
    assert_eq!(cal.never_seen(), vec!["seat 2 reserve slot 2".to_string()]);
    // Each tray's slots on a line of their own, slot 1 first.
    let grid = cal.grid();
    assert!(grid.contains("seat 1 reserve: o o o \n"), "{grid}");
    assert!(grid.contains("seat 2 reserve: o . \n"), "{grid}");
    let firmware::ui::Screen::Calibrate {
        walked,
        places,
        tray,
        occupied,
        ..
    } = cal.screen("")
    else {
        panic!("not the calibrate screen");
    };
    assert_eq!((walked, places), (124, 125));
    // The piece walked last (seat 2's reserve slot 1) is lifted: the OLED keeps its tray, not
    // a jump back to the squares until the piece is set down again.
    assert_eq!(tray.as_deref(), Some("seat 2 reserve"));
    assert!(occupied.is_empty(), "{occupied:?}");
}

/// `umpire calibrate --game`: on a board wired for one game's places, the squares that are no
/// place of it are not asked for (blank on the grid, not drawn on the OLED), and a piece read on
/// one is named as a stray: a switch wired to the wrong input.
#[test]
fn a_walk_narrowed_to_a_game_asks_only_for_its_places() {
    use boards::geometry::grid::Cell;
    use firmware::doctor::SensedBoard;
    use firmware::sensing::Place;
    let shape = BoardShape {
        columns: 3,
        rows: 2,
    };
    // The game uses a1, b1 and c2 only.
    let uses = [Cell::new(0, 0), Cell::new(1, 0), Cell::new(2, 1)]
        .into_iter()
        .map(Place::Square)
        .collect();
    let board = SensedBoard::from(shape).only("Tiny", &uses);
    assert_eq!(board.game(), Some("Tiny"));
    let mut cal = Calibration::new(board);
    let mut sim = SimBoard::new(3, 2);
    for i in [0u16, 4] {
        sim.clear();
        sim.set_piece(SensedCell::new(i), true);
        cal.update(
            sim.read_occupancy()
                .unwrap_or_else(|e: Infallible| match e {}),
        );
    }
    sim.clear();
    cal.update(
        sim.read_occupancy()
            .unwrap_or_else(|e: Infallible| match e {}),
    );
    // b1 and c2 never read; c1 and a2 are no place and never read: blank; b2 read a piece: a
    // stray.
    assert_eq!(cal.never_seen(), vec!["b1".to_string(), "c2".to_string()]);
    assert_eq!(cal.strays(), vec!["b2".to_string()]);
    assert_eq!(cal.grid(), " 2   o . \n 1 o .   \n   a b c \n");
    let screen = cal.screen("b2 off");
    let firmware::ui::Screen::Calibrate {
        idle,
        walked,
        places,
        ..
    } = &screen
    else {
        panic!("{screen:?}");
    };
    assert_eq!(
        (idle.as_slice(), *walked, *places),
        (&[2u16, 3, 4][..], 1, 3)
    );
    // On the OLED (a 3 x 2 grid, 5-pixel pitch, centred: row 2 at y 27, row 1 at y 32), a2 is
    // blank where b1, still unseen, has its dot.
    let frame = firmware::screens::render(&screen);
    assert!(frame.pixel(6, 34), "b1's dot");
    assert!(
        (0..4).all(|x| (27..31).all(|y| !frame.pixel(x, y))),
        "a2, no place of the game, is drawn"
    );
    let text = firmware::screens::screen_text(&screen);
    assert!(text.contains("1/3"), "{text}");
}

/// A switch stuck closed on a square the game does not use reads to the end: it is stuck (or a
/// piece stands there), not a switch wired to the wrong input, and is not called a stray.
#[test]
fn a_stuck_switch_off_the_game_is_not_a_stray() {
    use boards::geometry::grid::Cell;
    use firmware::doctor::SensedBoard;
    use firmware::sensing::Place;
    let shape = BoardShape {
        columns: 3,
        rows: 2,
    };
    let uses = [Cell::new(0, 0)].into_iter().map(Place::Square).collect();
    let mut cal = Calibration::new(SensedBoard::from(shape).only("Tiny", &uses));
    let mut sim = SimBoard::new(3, 2).with_fault(SwitchFault::StuckClosed(SensedCell::new(3)));
    for _ in 0..2 {
        cal.update(
            sim.read_occupancy()
                .unwrap_or_else(|e: Infallible| match e {}),
        );
    }
    assert!(cal.strays().is_empty(), "{:?}", cal.strays());
    assert_eq!(cal.occupied().iter().count(), 1);
}

/// On a 74HC165 chain every switch of one chip reading closed is the chip (or its supply), told
/// once by the chip's name; a chain has no row or column lines, so a full row is no "row" fault.
/// On a matrix the same row is one row fault, as before.
#[test]
fn a_chain_chip_reading_every_switch_is_one_finding_and_a_chain_has_no_rows() {
    use firmware::doctor::{SensedBoard, Wiring};
    // U1 reads a1..h1, U2 i1, j1 and a2..f2 (a hand-made order).
    let chips = vec![
        ("U1".to_string(), (0..8).map(SensedCell::new).collect()),
        ("U2".to_string(), (8..16).map(SensedCell::new).collect()),
    ];
    let chain = SensedBoard::from(SHAPE).wired(Wiring::Chain(chips));
    let mut sim = SimBoard::new(10, 10);
    for c in 0..8 {
        sim = sim.with_fault(SwitchFault::StuckClosed(SensedCell::new(c)));
    }
    let found = check_sensors(&chain, 10, || sim.read_occupancy());
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].subject, "chip U1");
    assert!(
        found[0]
            .detail
            .contains("all 8 switches it reads (a1 to h1)"),
        "{found:?}"
    );
    // A whole row of a chain is ten switches, on two chips: U1's as one, i1 and j1 each.
    let mut sim = SimBoard::new(10, 10).with_fault(SwitchFault::ShortedRow(0));
    let found = check_sensors(&chain, 10, || sim.read_occupancy());
    let subjects: Vec<&str> = found.iter().map(|f| f.subject.as_str()).collect();
    assert_eq!(subjects, ["chip U1", "square i1", "square j1"], "{found:?}");
    let mut sim = SimBoard::new(10, 10).with_fault(SwitchFault::ShortedRow(0));
    let found = check_sensors(&SHAPE.into(), 10, || sim.read_occupancy());
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].subject, "row 1");
}
