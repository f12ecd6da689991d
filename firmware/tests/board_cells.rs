//! `[board] cells`: a builder who wired the sensor inputs in another order than the schematic's
//! maps each input to its square; every mistake in the list is named with its line, and the
//! map reaches every kind of sensor.

use firmware::config::Config;
use firmware::drivers::reed_matrix::CellMap;
use firmware::sensing::SensedCell;

/// A 4 x 2 board on `sensor`, with `cells` in `[board]`.
fn file(cells: &str, sensor: &str) -> String {
    format!(
        "[board]\ncolumns = 4\nrows = 2\nscan_hz = 100\ncells = {cells}\n\n\
         [sensor]\n{sensor}\n\n[buttons]\nok = 5\nback = 6\ndie = 13\n"
    )
}

const CHAIN: &str = "kind = \"shift_chain\"\n[sensor.shift_chain]\nbus = \"spi0\"\n\
                     chip_select = \"ce1\"\nchips = 1\nload = 24";

fn problems(text: &str) -> Vec<(usize, String)> {
    match Config::parse(text) {
        Ok(c) => panic!("expected problems, got {c:?}"),
        Err(p) => p.0.into_iter().map(|p| (p.line, p.message)).collect(),
    }
}

fn cell(n: u16) -> Option<SensedCell> {
    Some(SensedCell::new(n))
}

#[test]
fn squares_runs_and_unwired_inputs_map_inputs_to_cells() {
    // Snake wiring on one PCF8575: row 1 left to right, an unwired pin, row 2 right to left.
    let expanders = "kind = \"expanders\"\n[sensor.expanders]\nbus = \"i2c1\"\naddresses = [0x20]";
    let c = Config::parse(&file(r#"["a1..d1", "-", "d2..a2"]"#, expanders)).unwrap();
    let expected = vec![
        cell(0),
        cell(1),
        cell(2),
        cell(3),
        None,
        cell(7),
        cell(6),
        cell(5),
        cell(4),
    ];
    assert_eq!(c.cells, Some(expected.clone()));
    assert_eq!(c.sensor_inputs(), Some(16));
    let map = c.cell_map(16).unwrap().unwrap();
    let mut table = expected;
    table.resize(16, None);
    assert_eq!(map, CellMap::from_table(table).unwrap());
    // A driver with fewer inputs than the list is refused, not truncated.
    assert!(c.cell_map(8).is_err());
    // Without the list the sensor keeps the schematic's order.
    let plain = file("[]", CHAIN).replace("cells = []\n", "");
    assert_eq!(Config::parse(&plain).unwrap().cell_map(8), Ok(None));
}

#[test]
fn every_problem_in_the_list_is_named_with_its_line() {
    let text = file(
        "[\n  \"a1\",\n  \"z9\",\n  \"b1\",\n  \"a1\",\n  \"c1..q1\",\n  7,\n]",
        CHAIN,
    );
    let found = problems(&text);
    let text_of = |line: usize| {
        found
            .iter()
            .filter(|(l, _)| *l == line)
            .map(|(_, m)| m.as_str())
            .collect::<Vec<_>>()
            .join(" | ")
    };
    assert!(text_of(7).contains("a square a1 to d2"), "{found:?}");
    assert!(
        text_of(9).contains("a1 is read by input 0 and again by input 2"),
        "{found:?}"
    );
    assert!(text_of(10).contains("a run like"), "{found:?}");
    // Line 7 is "z9", line 10 the bad run; the duplicate is on line 9.
    assert_eq!(found.len(), 3, "{found:?}");
}

/// A wrong entry is named as the file writes it (a list on one line holds many), and a board
/// without tray slots is not offered tray slots' cell numbers ("100 to 99").
#[test]
fn a_wrong_entry_is_named_and_no_tray_numbers_are_offered_without_trays() {
    let found = problems(&file(r#"["a1..d1", "a2..z2", 99]"#, CHAIN));
    let messages: Vec<&str> = found.iter().map(|(_, m)| m.as_str()).collect();
    assert_eq!(messages.len(), 2, "{found:?}");
    assert!(
        messages[0].contains("\"a2..z2\" is no input's place"),
        "{found:?}"
    );
    assert!(messages[1].contains("99 is no input's place"), "{found:?}");
    for m in &messages {
        assert!(!m.contains("tray slot"), "{m}");
        assert!(
            m.contains("a square a1 to d2, a run like \"a1..d1\" or \"-\""),
            "{m}"
        );
    }
    // With tray slots, their cell numbers are offered: 8 to 9 after the 8 squares.
    let trays = file(r#"["a1..d1", "a2..z2"]"#, CHAIN)
        + "\n[[board.tray]]\nkind = \"reserve\"\nseat = 1\nslots = 2\n";
    let found = problems(&trays);
    assert!(
        found
            .iter()
            .any(|(_, m)| m.contains("a tray slot's cell number 8 to 9")),
        "{found:?}"
    );
}

#[test]
fn a_list_too_long_or_leaving_squares_unread_is_refused() {
    // Nine entries for a chip of eight inputs.
    let long = file(r#"["a1..d1", "-", "a2..d2"]"#, CHAIN);
    let found = problems(&long);
    assert!(
        found
            .iter()
            .any(|(l, m)| *l == 5 && m.contains("lists 9 inputs but the sensor has 8")),
        "{found:?}"
    );
    // Squares left out.
    let short = file(r#"["a1..d1", "a2"]"#, CHAIN);
    let found = problems(&short);
    assert!(
        found
            .iter()
            .any(|(l, m)| *l == 5 && m.contains("leaves 3 of the 8 places unread (b2, c2, d2)")),
        "{found:?}"
    );
    // Not a list.
    let found = problems(&file("\"a1\"", CHAIN));
    assert!(found[0].1.contains("must be a list"), "{found:?}");
}

#[test]
fn every_sensor_kind_counts_its_inputs_for_the_map() {
    let kinds = [
        (CHAIN, 8),
        (
            "kind = \"matrix\"\n[sensor.matrix]\nbus = \"i2c1\"\nrows = 2\ncolumns = 4\n\
             row_expander = 0x20\ncolumn_expander = 0x21",
            8,
        ),
        (
            "kind = \"gpio_matrix\"\n[sensor.gpio_matrix]\nrows = [4, 17]\n\
             columns = [18, 27, 22, 23]",
            8,
        ),
        (
            "kind = \"expanders\"\n[sensor.expanders]\nbus = \"i2c1\"\naddresses = [0x20]",
            16,
        ),
    ];
    for (sensor, inputs) in kinds {
        let c = Config::parse(&file(r#"["d2..a1"]"#, sensor)).unwrap();
        assert_eq!(c.sensor_inputs(), Some(inputs), "{sensor}");
        let map = c.cell_map(inputs).unwrap().unwrap();
        assert_eq!(map.inputs(), inputs);
        assert_eq!(map.cell(0), cell(7), "{sensor}");
        assert_eq!(map.cell(7), cell(0), "{sensor}");
        assert_eq!(map.cell(8), None, "{sensor}");
        let expected: Vec<_> = (0..8u16).rev().map(cell).collect();
        let mut table = expected.clone();
        table.resize(inputs, None);
        assert_eq!(map, CellMap::from_table(table).unwrap());
    }
}

/// A square is a letter and a row number in digits: `a+1` (which `u8` would parse as row 1) and
/// `a 1` are refused with the line, not taken for a1.
#[test]
fn a_square_written_with_a_sign_or_a_space_is_refused() {
    for written in ["a+1", "a 1", "a1 "] {
        let text = file(&format!(r#"["{written}", "b1..d1", "d2..a2"]"#), CHAIN);
        let found = problems(&text);
        assert!(
            found
                .iter()
                .any(|(line, message)| *line == 5 && message.contains(&format!("\"{written}\""))),
            "{written}: {found:?}"
        );
    }
}

/// A tray slot's cell number is taken quoted as well as bare, alone or in a run: every other
/// entry of the list is text, so a builder writes `"8"`, and `"8..9"` for a tray's slots. The
/// hint offered exactly that range and then refused it.
#[test]
fn a_tray_slot_is_taken_quoted_bare_or_in_a_run() {
    let two_chips = CHAIN.replace("chips = 1", "chips = 2");
    let tray = "\n[[board.tray]]\nkind = \"reserve\"\nseat = 1\nslots = 2\n";
    for (cells, slots) in [
        (r#"["a1..d1", "d2..a2", "8", 9]"#, [cell(8), cell(9)]),
        (r#"["a1..d1", "d2..a2", "9..8"]"#, [cell(9), cell(8)]),
    ] {
        let text = file(cells, &two_chips) + tray;
        let config = Config::parse(&text).unwrap_or_else(|p| panic!("{cells}: {p}"));
        let map = config.cells.unwrap();
        assert_eq!(&map[8..], &slots, "{cells}");
    }
    // Past the last slot, or not a number, it is still refused with the range.
    let text = file(r#"["a1..d1", "d2..a2", "8", "10"]"#, &two_chips) + tray;
    let found = problems(&text);
    assert!(
        found
            .iter()
            .any(|(_, m)| m.contains("\"10\" is no input's place here")
                && m.contains("a tray slot's cell number 8 to 9 (or a run of them, \"8..9\")")),
        "{found:?}"
    );
}

#[test]
fn the_chain_reads_through_the_list_or_the_schematic_order() {
    use firmware::drivers::shift_chain::ChainOrder;
    let order = ChainOrder::schematic().unwrap();
    // With a list, the chain's inputs read the squares it names.
    let listed = Config::parse(&file(r#"["d2..a2", "a1..d1"]"#, CHAIN)).unwrap();
    let map = listed.chain_cells(&order, 1).unwrap();
    assert_eq!(map.cell(0), cell(7));
    assert_eq!(map.cell(4), cell(0));
    // Without one, the pin map's order over the board's 8 places: the same map the
    // schematic's order gives, which the service and the simulated chain both read.
    let plain = Config::parse(&file("[]", CHAIN).replace("cells = []\n", "")).unwrap();
    assert_eq!(
        plain.chain_cells(&order, 1).unwrap(),
        order.cell_map(1, 8).unwrap()
    );
    // A chain longer than the pin map describes, where it says no way to go on, is named as
    // the chain's problem, not the list's.
    let short = ChainOrder::from_pin_map(
        "[sensor.shift_chain]\nchain = [{ ref = \"U1\", first_cell = 0 }]\n\
         check = { ref = \"U2\", pattern = 0xB4, ds = \"GND\" }\n",
    )
    .unwrap();
    let e = plain.chain_cells(&short, 2).unwrap_err();
    assert_eq!(e.what(), "the 74HC165 chain");
    assert!(e.to_string().contains("map the extra inputs"), "{e}");
    // A list longer than the chain's inputs is the list's problem.
    let long = Config::parse(&file(r#"["a1..d1", "d2..a2"]"#, CHAIN)).unwrap();
    let e = long.chain_cells(&order, 0).unwrap_err();
    assert_eq!(e.what(), "[board] cells");
}
