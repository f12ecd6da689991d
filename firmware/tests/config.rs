//! The configuration file: a good file reads back exactly; the shipped default configuration
//! parses and wires what the pin map says; every kind of mistake is reported with its line and
//! how to fix it, all of them at once.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use firmware::config::{
    BusDevices, ButtonsConfig, ChipSelect, Config, GameName, I2cBus, NfcConfig, OledConfig,
    RulesName, SensorConfig, SpiBus, SpiConfig,
};
use firmware::sensing::{SensedCell, SensingConfig};

/// A 10x10 board on the PCF8575 matrix, NFC on SPI0 CE1, every optional part fitted.
const GOOD: &str = r#"# A 10x10 Stratego board: the PCF8575 matrix, NFC on SPI0, the rest from the pin map.
[game]
name = "duel"
rules = "plain"

[board]
columns = 10
rows = 10
scan_hz = 150

[sensor]
kind = "matrix"

[sensor.matrix]
bus = "i2c1"
rows = 10
columns = 10
row_expander = 0x22
column_expander = 0x23

[i2c1]
device = "/dev/i2c-7"
baudrate_hz = 100_000

[spi0]
device = "/dev/spidev9"

[oled]
bus = "i2c1"
address = 0x3D

[buttons]
ok = 5
back = 6
die = 13

[buzzer]
drive = 12

[nfc]
enabled = true
bus = "spi0"
chip_select = "ce1"
spi_hz = 4_000_000
reset = 25
address = [17, 27, 22]

[[nfc.reader]]
cells = ["a1", "b1"]

[[nfc.reader]]
cells = ["c1", "d1", "c2"]

[journal]
dir = "/tmp/umpire-journals"
"#;

/// Buttons for the small test files that need them.
const BUTTONS: &str = "[buttons]\nok = 5\nback = 6\ndie = 13\n";

fn problems(text: &str) -> Vec<(usize, String)> {
    match Config::parse(text) {
        Ok(c) => panic!("expected problems, got {c:?}"),
        Err(p) => p.0.into_iter().map(|p| (p.line, p.message)).collect(),
    }
}

fn listed(text: &str) -> String {
    problems(text)
        .iter()
        .map(|(line, m)| format!("{line}: {m}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn manifest(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

#[test]
fn a_good_file_reads_back_exactly() {
    let c = Config::parse(GOOD).unwrap();
    let nfc_spi = SpiConfig {
        bus: SpiBus::Spi0,
        chip_select: ChipSelect::Ce1,
        spi_hz: 4_000_000,
    };
    let expected = Config {
        game: GameName::Duel,
        variant: None,
        waterloo_layout: None,
        sba_cards: None,
        sba_layout: None,
        napoleon: Default::default(),
        napoleon_reveal_on_contact: false,
        rules: RulesName::Plain,
        columns: 10,
        rows: 10,
        scan_hz: 150,
        trays: Vec::new(),
        sensing: SensingConfig::DEFAULT,
        sensor: SensorConfig::Matrix {
            bus: I2cBus::I2c1,
            rows: 10,
            columns: 10,
            row_expander: 0x22,
            column_expander: 0x23,
        },
        buses: BusDevices {
            i2c1: PathBuf::from("/dev/i2c-7"),
            i2c1_hz: 100_000,
            spi0: PathBuf::from("/dev/spidev9"),
            spi1: PathBuf::from("/dev/spidev1"),
        },
        oled: Some(OledConfig {
            bus: I2cBus::I2c1,
            address: 0x3D,
        }),
        buttons: Some(ButtonsConfig {
            ok: 5,
            back: 6,
            die: 13,
        }),
        buzzer: Some(12),
        nfc: Some(NfcConfig {
            spi: nfc_spi,
            reset: Some(25),
            address: vec![17, 27, 22],
            readers: vec![
                vec![SensedCell::new(0), SensedCell::new(1)],
                vec![SensedCell::new(2), SensedCell::new(3), SensedCell::new(12)],
            ],
            tags: None,
        }),
        nfc_tags_ignored: None,
        journal_dir: PathBuf::from("/tmp/umpire-journals"),
        cells: None,
        leds: None,
        web: None,
    };
    assert_eq!(c, expected);
    assert_eq!(c.spi_path(nfc_spi), Path::new("/dev/spidev9.1"));
    assert_eq!(c.i2c_path(I2cBus::I2c1), Path::new("/dev/i2c-7"));
    // I2C1 (2), SPI0 (3 + CE1), buttons (3), buzzer, reset and 3 decoder address lines.
    let pins = c.gpio_pins();
    assert_eq!(pins.len(), 14, "{pins:?}");
    let numbers: BTreeSet<u8> = pins.iter().map(|p| p.0).collect();
    assert_eq!(numbers.len(), 14, "no pin twice: {pins:?}");
    assert!(pins.contains(&(2, "I2C1 SDA".into())), "{pins:?}");
    assert!(pins.contains(&(7, "SPI0 CE1 (MFRC522)".into())), "{pins:?}");
    assert!(pins.contains(&(22, "NFC decoder address A2".into())));
    // Tag reads happen on the readers' squares only.
    assert_eq!(
        c.layout_setup().tag_readers,
        [0, 1, 2, 3, 12].map(SensedCell::new).to_vec()
    );
}

/// Every signal of the pin map: dotted path -> GPIO.
fn pinmap_signals(value: &toml_span::Value<'_>, path: &str, out: &mut Vec<(String, u8)>) {
    let Some(table) = value.as_table() else {
        return;
    };
    if let Some(gpio) = table.get("gpio").and_then(|g| g.as_integer()) {
        out.push((path.to_string(), u8::try_from(gpio).unwrap()));
        return;
    }
    for (key, v) in table {
        let p = if path.is_empty() {
            key.name.to_string()
        } else {
            format!("{path}.{}", key.name)
        };
        pinmap_signals(v, &p, out);
    }
}

/// The pin map's NFC decoder address lines, A0 first.
fn nfc_address(map: &toml_span::Value<'_>) -> Vec<u8> {
    map.pointer("/nfc/address")
        .and_then(|v| v.as_array())
        .expect("[nfc] address in the pin map")
        .iter()
        .map(|s| {
            let gpio = s
                .as_table()
                .and_then(|t| t.get("gpio"))
                .and_then(|g| g.as_integer());
            u8::try_from(gpio.expect("a GPIO signal")).unwrap()
        })
        .collect()
}

#[test]
fn the_shipped_default_configuration_parses_and_wires_the_pin_map() {
    let text = std::fs::read_to_string(manifest("debian/umpire.toml")).unwrap();
    let map_text = std::fs::read_to_string(manifest("../schematics/pinmap.toml")).unwrap();
    let map = toml_span::parse(&map_text).unwrap();
    let mut signals = Vec::new();
    pinmap_signals(&map, "", &mut signals);
    let gpio = |path: &str| -> u8 {
        signals
            .iter()
            .find(|s| s.0 == path)
            .unwrap_or_else(|| panic!("pin map lacks {path}"))
            .1
    };
    let int = |pointer: &str| map.pointer(pointer).and_then(|v| v.as_integer()).unwrap();

    let c = Config::parse(&text).unwrap_or_else(|p| panic!("{p}"));
    assert!(!text.contains("does not read this file"));
    assert_eq!(i64::from(c.columns), int("/board/columns"));
    assert_eq!(i64::from(c.rows), int("/board/rows"));
    assert!(c.scan_hz >= 100);

    // The chosen sensor: the 74HC165 chain on SPI0 CE1, as the pin map wires it.
    let SensorConfig::ShiftChain {
        spi, load, chips, ..
    } = c.sensor
    else {
        panic!("the default sensor is the shift chain: {:?}", c.sensor)
    };
    assert_eq!(load, gpio("sensor.shift_chain.load"));
    assert_eq!(i64::from(chips), int("/sensor/shift_chain/chips"));
    assert_eq!(spi.spi_hz as i64, int("/sensor/shift_chain/spi_hz"));
    assert_eq!(
        SpiBus::Spi0.chip_select_pin(spi.chip_select),
        Some(gpio("spi0.ce1"))
    );
    assert_eq!(c.spi_path(spi), Path::new("/dev/spidev0.1"));

    // NFC is off by default: pieces are set up by groups. Its wiring is there, as the pin map
    // has it, and the commented reader example turns it on.
    assert_eq!(c.nfc, None, "set-up by groups without NFC is the default");
    let with_nfc = text
        .replace("enabled = false", "enabled = true")
        .replace("# [[nfc.reader]]\n# cells", "[[nfc.reader]]\ncells");
    let nfc = Config::parse(&with_nfc)
        .unwrap_or_else(|p| panic!("{p}"))
        .nfc
        .expect("the commented example turns NFC on");
    assert_eq!(nfc.reset, Some(gpio("nfc.reset")));
    assert_eq!(
        SpiBus::Spi0.chip_select_pin(nfc.spi.chip_select),
        Some(gpio("spi0.ce0"))
    );
    assert_eq!(nfc.address, nfc_address(&map));
    assert!(nfc.readers.len() <= 1 << nfc.address.len());
    assert!(i64::try_from(nfc.readers.len()).unwrap() <= int("/nfc/readers"));
    let buttons = c.buttons.unwrap();
    assert_eq!(
        [buttons.ok, buttons.back, buttons.die],
        [
            gpio("buttons.ok"),
            gpio("buttons.back"),
            gpio("buttons.die")
        ]
    );
    assert_eq!(c.buzzer, Some(gpio("buzzer.drive")));
    assert_eq!(
        c.oled.map(|o| i64::from(o.address)),
        Some(int("/oled/address"))
    );
    assert_eq!(
        c.i2c_path(I2cBus::I2c1),
        Path::new(map.pointer("/i2c1/device").unwrap().as_str().unwrap())
    );

    // With this sensor and NFC on, every pin of the pin map is wired, bus pins included, and no
    // other.
    let full = Config::parse(&with_nfc).unwrap();
    let wired: BTreeSet<u8> = full.gpio_pins().iter().map(|p| p.0).collect();
    let mut mapped: BTreeSet<u8> = signals.iter().map(|s| s.1).collect();
    mapped.extend(nfc_address(&map));
    assert_eq!(wired, mapped, "{:?}", full.gpio_pins());
    assert_eq!(full.gpio_pins().len(), mapped.len(), "no pin twice");

    // The other option of the schematics: the matrix on the two PCF8575s.
    let matrix = Config::parse(&text.replace("kind = \"shift_chain\"", "kind = \"matrix\""))
        .unwrap_or_else(|p| panic!("{p}"));
    assert_eq!(
        matrix.sensor,
        SensorConfig::Matrix {
            bus: I2cBus::I2c1,
            rows: u8::try_from(int("/sensor/matrix/rows")).unwrap(),
            columns: u8::try_from(int("/sensor/matrix/columns")).unwrap(),
            row_expander: u8::try_from(int("/sensor/matrix/row_expander")).unwrap(),
            column_expander: u8::try_from(int("/sensor/matrix/column_expander")).unwrap(),
        }
    );
    let matrix_pins: BTreeSet<u8> = matrix.gpio_pins().iter().map(|p| p.0).collect();
    assert!(!matrix_pins.contains(&gpio("sensor.shift_chain.load")));
    assert!(!matrix_pins.contains(&gpio("spi0.ce1")));

    // And without NFC (the default) no NFC pin is wired.
    assert!(!c.gpio_pins().iter().any(|p| p.0 == gpio("nfc.reset")));
}

#[test]
fn every_problem_is_listed_with_its_line() {
    let text = GOOD
        .replace("scan_hz = 150", "scan_hz = 50")
        .replace("column_expander = 0x23", "column_expander = 0x22")
        .replace("address = 0x3D", "adress = 0x3D")
        .replace("die = 13", "die = 17")
        .replace("chip_select = \"ce1\"", "chip_select = \"ce2\"")
        .replace("\"c2\"", "\"c11\"");
    let got = problems(&text);
    let lines: Vec<usize> = got.iter().map(|g| g.0).collect();
    assert_eq!(lines, [9, 19, 30, 43, 46, 52], "{got:#?}");
    assert!(got[0].1.contains("scan at 100 Hz or faster"), "{got:?}");
    assert!(
        got[1].1.contains(
            "[sensor.matrix] row_expander and [sensor.matrix] column_expander both answer at 0x22"
        ),
        "{got:?}"
    );
    assert!(
        got[2].1.contains("unknown setting `adress` in [oled]") && got[2].1.contains("address"),
        "{got:?}"
    );
    assert!(
        got[3].1.contains("spi0 has only \"ce0\" and \"ce1\""),
        "{got:?}"
    );
    assert!(
        got[5]
            .1
            .contains("\"c11\" is not a square of this 10x10 board"),
        "{got:?}"
    );
    assert!(
        got[4]
            .1
            .contains("GPIO 17 is used twice, by [buttons] die and by [nfc] address A0"),
        "{got:?}"
    );
    // Every message says how to fix it.
    assert!(got.iter().all(|g| g.1.contains(':')), "{got:?}");
}

#[test]
fn bus_pins_chip_selects_and_addresses_are_not_free() {
    // GPIO 2 is I2C1 SDA while the OLED is on I2C1; the reader and the chain share CE0, whose
    // pin (GPIO 8) is also a button.
    let text = r#"
[sensor]
kind = "shift_chain"
[sensor.shift_chain]
bus = "spi0"
chip_select = "ce0"
chips = 13
load = 2
[oled]
bus = "i2c1"
[nfc]
bus = "spi0"
chip_select = "ce0"
address = [17, 27, 22, 23]
[[nfc.reader]]
cells = ["a1"]
[buttons]
ok = 5
back = 6
die = 8
"#;
    let all = listed(text);
    assert!(
        all.contains("[sensor.shift_chain] and [nfc] share SPI0 CE0"),
        "{all}"
    );
    assert!(
        all.contains("GPIO 2 is used twice") && all.contains("I2C1 SDA"),
        "{all}"
    );
    assert!(all.contains("GPIO 8 is used twice"), "{all}");

    // SPI0 on for the chain on CE1 alone: the kernel holds CE0 (GPIO 8) too, so a button wired
    // there never reads.
    let text = "[sensor]\nkind = \"shift_chain\"\n[sensor.shift_chain]\nbus = \"spi0\"\n\
                chip_select = \"ce1\"\nchips = 13\nload = 25\n\
                [buttons]\nok = 8\nback = 6\ndie = 13\n";
    let all = listed(text);
    assert!(
        all.contains("GPIO 8 is used twice, by [buttons] ok and by SPI0 CE0 (the kernel holds it once SPI0 is on)"),
        "{all}"
    );
    // Without anything on SPI0, GPIO 8 is free (Option C's matrix uses it), and SPI0 stays off.
    let text = "[sensor]\nkind = \"expanders\"\n[sensor.expanders]\nbus = \"i2c1\"\n\
                addresses = [0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27]\n\
                [buttons]\nok = 8\nback = 6\ndie = 13\n";
    let config = Config::parse(text).expect("GPIO 8 is free with SPI0 unused");
    assert!(
        !config.boot_needs().spi0,
        "`umpire setup` leaves SPI0 off, so the button's pin stays a GPIO"
    );

    // SPI1's fixed pins and its CE2.
    let text = "[sensor]\nkind = \"shift_chain\"\n[sensor.shift_chain]\nbus = \"spi1\"\n\
                chip_select = \"ce2\"\nchips = 13\nload = 24\n[buzzer]\ndrive = 19\n\
                [buttons]\nok = 16\nback = 6\ndie = 13\n";
    let all = listed(text);
    assert!(
        all.contains("GPIO 19 is used twice") && all.contains("SPI1 MISO"),
        "{all}"
    );
    assert!(
        all.contains("GPIO 16 is used twice") && all.contains("SPI1 CE2"),
        "{all}"
    );

    // Two expanders at one address; an OLED at an address an SSD1306 never has.
    let text = format!(
        "[sensor]\nkind = \"expanders\"\n[sensor.expanders]\nbus = \"i2c1\"\n\
         addresses = [0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x21]\n\
         [oled]\nbus = \"i2c1\"\naddress = 0x27\n{BUTTONS}"
    );
    let got = problems(&text);
    assert_eq!(got.len(), 2, "{got:#?}");
    assert!(got[0].1.contains("both answer at 0x21 on i2c1"), "{got:?}");
    assert_eq!(got[0].0, 5);
    assert!(got[1].1.contains("0x3C or 0x3D"), "{got:?}");
    assert_eq!(got[1].0, 8);
}

#[test]
fn tray_slots_are_sensed_after_the_squares_and_counted_against_the_sensor() {
    // A Waterloo board: 120 squares and 34 tray slots on a chain of 20 74HC165s (160 inputs).
    let text = concat!(
        "[board]\ncolumns = 12\nrows = 10\n",
        "[[board.tray]]\nkind = \"reserve\"\nseat = 1\nslots = 10\n",
        "[[board.tray]]\nkind = \"reserve\"\nseat = 2\nslots = 14\n",
        "[[board.tray]]\nkind = \"staging\"\nseat = 1\nslots = 6\n",
        "[[board.tray]]\nkind = \"withdrawn\"\nseat = 1\nslots = 4\n",
        "[sensor]\nkind = \"shift_chain\"\n[sensor.shift_chain]\nbus = \"spi0\"\nchip_select = \"ce1\"\nchips = 20\nload = 24\n",
        "[buttons]\nok = 5\nback = 6\ndie = 13\n"
    );
    let c = Config::parse(text).unwrap();
    assert_eq!(c.trays.len(), 4);
    let layout = c.layout_setup();
    assert_eq!(layout.cell_count, 154);
    let last = layout.places.last().unwrap().1;
    assert_eq!(last.to_string(), "seat 1 withdrawn slot 4");
    // 19 chips are 152 inputs: two short.
    let short = listed(&text.replace("chips = 20", "chips = 19"));
    assert!(
        short.contains("19 chips give 152 inputs but the board senses 154 places"),
        "{short}"
    );
    // Every tray problem, each with its line.
    let bad = listed(concat!(
        "[board]\n",
        "[[board.tray]]\nkind = \"pantry\"\nseat = 3\nslots = 0\ncolour = 1\n",
        "[[board.tray]]\nkind = \"reserve\"\nseat = 1\n",
        "[sensor]\nkind = \"simulated\"\n"
    ));
    for expected in [
        "3: [board.tray] kind = \"pantry\" is not known",
        "4: [board.tray] seat = 3 is out of range",
        "5: [board.tray] slots = 0 is out of range",
        "6: unknown setting `colour` in [[board.tray]]",
        "[board.tray] needs `slots = ...`",
    ] {
        assert!(bad.contains(expected), "{expected}\n{bad}");
    }
}

#[test]
fn a_small_sensor_is_named_with_what_to_add() {
    let board = "[board]\ncolumns = 12\nrows = 10\n";
    let check = |sensor: &str, expected: &str| {
        let all = listed(&format!("{board}{sensor}{BUTTONS}"));
        assert!(all.contains(expected), "{expected}\n{all}");
    };
    check(
        "[sensor]\nkind = \"expanders\"\n[sensor.expanders]\nbus = \"i2c1\"\naddresses = [0x20, 0x21, 0x22]\n",
        "3 expanders give 48 inputs but the board senses 120 places: add 5 more",
    );
    check(
        "[sensor]\nkind = \"shift_chain\"\n[sensor.shift_chain]\nbus = \"spi0\"\nchip_select = \"ce1\"\nchips = 13\nload = 24\n",
        "13 chips give 104 inputs but the board senses 120 places: chain 15 chips",
    );
    check(
        "[sensor]\nkind = \"matrix\"\n[sensor.matrix]\nbus = \"i2c1\"\nrows = 10\ncolumns = 8\nrow_expander = 0x20\ncolumn_expander = 0x21\n",
        "a 10x8 matrix senses 80 places but the board senses 120",
    );
    check(
        "[sensor]\nkind = \"gpio_matrix\"\n[sensor.gpio_matrix]\nrows = [4, 17]\ncolumns = [22, 23]\n",
        "a 2x2 matrix senses 4 places but the board senses 120",
    );
    // NFC: more readers than the address lines reach, a square under two readers, a square
    // off the board, a reader without squares, no readers at all.
    let nfc = "[sensor]\nkind = \"simulated\"\n[nfc]\nbus = \"spi0\"\nchip_select = \"ce0\"\n";
    check(
        &format!(
            "{nfc}address = [17]\n[[nfc.reader]]\ncells = [\"a1\"]\n[[nfc.reader]]\n\
             cells = [\"b1\"]\n[[nfc.reader]]\ncells = [\"c1\"]\n"
        ),
        "[nfc] has 3 readers but 1 address lines reach only 2 decoder outputs: list 2 lines",
    );
    check(
        &format!(
            "{nfc}address = [17]\n[[nfc.reader]]\ncells = [\"a1\", \"b1\"]\n[[nfc.reader]]\n\
             cells = [\"b1\"]\n"
        ),
        "b1 is under NFC readers 1 and 2: give each square one reader",
    );
    check(
        &format!("{nfc}[[nfc.reader]]\ncells = [\"m1\"]\n"),
        "\"m1\" is not a square of this 12x10 board (write \"a1\" to \"l10\")",
    );
    check(
        &format!("{nfc}[[nfc.reader]]\ncells = []\n"),
        "NFC reader 1 has no squares",
    );
    check(nfc, "[nfc] needs its readers: one [[nfc.reader]]");
    check(
        &format!("{nfc}address = [17, 27, 22, 23, 24]\n[[nfc.reader]]\ncells = [\"a1\"]\n"),
        "[nfc] address has 5 lines: a 74HC154 takes at most 4",
    );
    // A scan rate the expanders cannot keep up with on a slow bus.
    let all = listed(concat!(
        "[board]\ncolumns = 12\nrows = 10\nscan_hz = 500\n[sensor]\nkind = \"matrix\"\n[sensor.matrix]\nbus = \"i2c1\"\nrows = 10\ncolumns = 12\nrow_expander = 0x20\ncolumn_expander = 0x21\n[i2c1]\nbaudrate_hz = 100_000\n",
        "[buttons]\nok = 5\nback = 6\ndie = 13\n"
    ));
    assert!(
        all.contains("4: [board] scan_hz = 500 is faster than the expanders can be read"),
        "{all}"
    );
    // 6.09 ms on the wire and 10 row settle delays of 50 µs: 6.59 ms, 151 scans a second.
    assert!(all.contains("at most 151 scans a second"), "{all}");
    // A rate the service's millisecond clock cannot keep (the scan schedule refuses it too).
    let all = listed(&GOOD.replace("scan_hz = 150", "scan_hz = 2000"));
    assert!(
        all.contains(
            "9: [board] scan_hz = 2000 is too fast: the service's clock counts milliseconds, so \
             scan at 1000 Hz or slower (100 to 1000)"
        ),
        "{all}"
    );
    // Far out of bounds, either way: the one problem, with the bounds that hold (not a range
    // wider than they are, nor a read time that suggests a rate over the bound would do).
    for (v, words) in [
        (
            "-5",
            "is too slow: scan at 100 Hz or faster so a quick move is not missed",
        ),
        ("5000", "is too fast"),
    ] {
        let all = listed(&GOOD.replace("scan_hz = 150", &format!("scan_hz = {v}")));
        assert_eq!(all.lines().count(), 1, "{all}");
        assert!(
            all.contains(&format!("scan_hz = {v} {words}")) && all.ends_with("(100 to 1000)"),
            "{all}"
        );
    }
}

#[test]
fn only_the_chosen_sensor_is_wired_but_every_sub_section_is_checked() {
    // The GPIO matrix is not chosen: its pins may overlap the buttons, but its typo is found.
    let text = format!(
        "[sensor]\nkind = \"simulated\"\n[sensor.gpio_matrix]\nrows = [5, 6]\ncolumns = [13]\n\
         [sensor.matrix]\nbus = \"i2c1\"\nrows = 2\ncolumns = 2\nrow_expander = 0x50\n\
         column_expander = 0x21\n{BUTTONS}"
    );
    let got = problems(&text);
    assert_eq!(got.len(), 1, "{got:#?}");
    assert_eq!(got[0].0, 10);
    assert!(got[0].1.contains("a PCF8575 answers at 0x20 to 0x27"));
    // The chosen kind needs its sub-section.
    let got = problems(&format!("[sensor]\nkind = \"expanders\"\n{BUTTONS}"));
    assert_eq!(got.len(), 1, "{got:#?}");
    assert_eq!(got[0].0, 1);
    assert!(got[0].1.contains("needs a [sensor.expanders] section"));
    // A disabled reader is checked for types but wires nothing and needs no multiplexer.
    let c = Config::parse(&format!(
        "[sensor]\nkind = \"simulated\"\n[nfc]\nenabled = false\nbus = \"spi0\"\n\
         chip_select = \"ce0\"\nreset = 5\n{BUTTONS}"
    ))
    .unwrap();
    assert_eq!(c.nfc, None);
    let c = Config::parse("[sensor]\nkind = \"simulated\"\n[nfc]\nenabled = false\n").unwrap();
    assert_eq!(c.nfc, None);
    let got = problems("[sensor]\nkind = \"simulated\"\n[nfc]\nenabled = false\nbus = 0\n");
    assert_eq!(got.len(), 1, "{got:#?}");
    assert!(got[0].1.contains("[nfc] bus must be a string"), "{got:?}");
}

#[test]
fn type_errors_and_unknown_sections_are_reported_not_panicked() {
    let text = "[game]\nname = 3\n[sensor]\nkind = \"laser\"\n[wifi]\nssid = \"x\"\n\
                [board]\ncolumns = \"ten\"\n[buzzer]\ndrive = 40\n[nfc]\nenabled = \"yes\"\n\
                [oled]\nbus = \"i2c3\"\n[sensor.extra]\n";
    let got = problems(text);
    let lines: Vec<usize> = got.iter().map(|g| g.0).collect();
    assert_eq!(lines, [2, 4, 5, 8, 10, 11, 11, 11, 12, 14, 15], "{got:#?}");
    assert!(got[0]
        .1
        .contains("[game] name must be a string, not an integer"));
    assert!(got[1]
        .1
        .contains("\"laser\" is not known: use one of \"shift_chain\""));
    assert!(got[2].1.contains("unknown section or setting `wifi`"));
    assert!(got[3]
        .1
        .contains("[board] columns must be a whole number, not a string"));
    assert!(got[4].1.contains("drive = 40 is not a header pin"));
    // What [nfc] lacks is reported at its header, the bad value on its own line.
    assert!(got[5].1.contains("[nfc] needs `bus = ...`"), "{got:?}");
    assert!(
        got[6].1.contains("[nfc] needs `chip_select = ...`"),
        "{got:?}"
    );
    assert!(
        got[7]
            .1
            .contains("[nfc] needs its readers: one [[nfc.reader]]"),
        "{got:?}"
    );
    assert!(got[8]
        .1
        .contains("[nfc] enabled must be true or false, not a string"));
    assert!(got[9]
        .1
        .contains("bus = \"i2c3\" is not known: use one of \"i2c1\""));
    assert!(got[10].1.contains("unknown setting `extra` in [sensor]"));
}

#[test]
fn broken_toml_names_its_line() {
    let got = problems("[game]\nname = \"classic\n");
    assert_eq!(got.len(), 1);
    assert!(got[0].1.contains("not valid TOML"), "{got:?}");
    assert_eq!(got[0].0, 2);
    let got = problems("[board]\nrows = 10\n[board]\n");
    assert!(got[0].1.contains("not valid TOML"), "{got:?}");
}

#[test]
fn a_simulated_board_needs_no_wiring() {
    let c = Config::parse("[sensor]\nkind = \"simulated\"\n").unwrap();
    assert_eq!(c.sensor, SensorConfig::Simulated);
    assert_eq!(c.buttons, None);
    assert_eq!(c.nfc, None);
    assert!(c.gpio_pins().is_empty());
    assert_eq!((c.columns, c.rows, c.scan_hz), (10, 10, 200));
    // Without a sensor section nothing is assumed.
    let got = problems("[game]\nname = \"classic\"\n");
    assert!(got[0].1.contains("no [sensor] section"), "{got:?}");
    // Real hardware needs buttons.
    let got = problems(
        "[sensor]\nkind = \"gpio_matrix\"\n[sensor.gpio_matrix]\nrows = [4, 17, 27, 22, 23, 24, 25, 26, 16, 20]\ncolumns = [21, 19, 18, 12, 9, 10, 11, 8, 7, 2]\n",
    );
    assert_eq!(got.len(), 1, "{got:#?}");
    assert!(got[0].1.contains("no [buttons] section"));
    // ... even when the sensor's own section has problems, and a sensor that is not a section
    // is reported once.
    let got = problems("[sensor]\nkind = \"matrix\"\n[sensor.matrix]\nbus = \"i2c1\"\n");
    let all: Vec<&str> = got.iter().map(|g| g.1.as_str()).collect();
    assert!(
        all.iter().any(|m| m.contains("no [buttons] section")),
        "{all:?}"
    );
    assert!(
        all.iter().any(|m| m.contains("needs `row_expander = ...`")),
        "{all:?}"
    );
    let got = problems("sensor = 3\n");
    assert_eq!(got.len(), 1, "{got:#?}");
    assert!(got[0]
        .1
        .contains("`sensor` must be a section [sensor], not an integer"));
}

#[test]
fn arbitrary_text_never_panics() {
    let shipped = std::fs::read_to_string(manifest("debian/umpire.toml")).unwrap();
    let mut seed = 0x1234_5678_u64;
    for len in 0..600 {
        let mut s = String::new();
        for _ in 0..len % 60 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            s.push(b"[]=\"\n #abc0x1,{}.-sensorkindmatrixnfcmux"[(seed % 40) as usize] as char);
        }
        let _ = Config::parse(&s);
        let _ = Config::parse(&GOOD[..len.min(GOOD.len())]);
        let cut = (len * 7).min(shipped.len());
        if shipped.is_char_boundary(cut) {
            let _ = Config::parse(&shipped[..cut]);
        }
    }
}

/// `[game] name` takes every game of the menu, each table game with its variants as the menu
/// names them, and the menu highlights the configured one. The old code refused `"waterloo"`
/// and `"piecepack"`.
#[test]
fn every_game_of_the_menu_can_be_the_configured_one() {
    use firmware::config::slug;
    use firmware::referee::games;
    let sim = "[sensor]\nkind = \"simulated\"\n";
    let table = games::menu();
    // Every table game of the menu has a name, with its variants in the menu's order.
    assert_eq!(GameName::ALL.len(), 2 + table.len());
    for (i, (title, variants)) in table.iter().enumerate() {
        let (game, _) = GameName::ALL[2 + i];
        let labels: Vec<&str> = variants.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(game.variants(false), labels, "{title}");
    }
    for (game, name) in GameName::ALL {
        let c = Config::parse(&format!("[game]\nname = \"{name}\"\n{sim}")).unwrap();
        assert_eq!((c.game, c.menu_start().game), (game, game.menu_entry()));
        for (n, label) in game.variants(false).iter().enumerate() {
            // As the menu writes it, or as a command line does.
            for written in [label.clone(), slug(label)] {
                let text = format!("[game]\nname = \"{name}\"\nvariant = \"{written}\"\n{sim}");
                let c = Config::parse(&text).unwrap();
                assert_eq!(c.variant.as_deref(), Some(label.as_str()));
                assert_eq!(c.menu_start().variant, n, "{written}");
            }
        }
    }
    // A name that is no game lists them all.
    let got = listed(&format!("[game]\nname = \"chess\"\n{sim}"));
    assert!(
        got.contains(
            "2: [game] name = \"chess\" is not known: use one of \"classic\", \"duel\", \
             \"waterloo\", \"piecepack\", \"sa-belle-alliance\" or \"napoleon\""
        ),
        "{got}"
    );
    // A variant that is not on the menu lists the game's variants.
    let got = listed(&format!(
        "[game]\nname = \"waterloo\"\nvariant = \"advanced\"\n{sim}"
    ));
    assert!(
        got.contains("3: [game] variant = \"advanced\" is not on the waterloo menu: use one of \"basic\", \"standard\", \"expert\""),
        "{got}"
    );
    // Stratego has no variants: the line does nothing, so it is refused, naming every game
    // whose menu has variants (the old words named Waterloo and Piecepack only).
    for name in ["classic", "duel"] {
        let got = listed(&format!(
            "[game]\nname = \"{name}\"\nvariant = \"expert\"\n{sim}"
        ));
        assert_eq!(
            got,
            format!(
                "3: [game] variant applies to \"waterloo\", \"piecepack\", \
                 \"sa-belle-alliance\" or \"napoleon\" only; \"{name}\" has no variants (its \
                 menu chooses how to set up): remove the line"
            )
        );
    }
    // A mistyped name is the one problem: its variant is not judged against Stratego, where
    // the umpire would otherwise fall back, and the builder is not told to remove a good line.
    for name in ["Waterloo", "sba"] {
        let got = listed(&format!(
            "[game]\nname = \"{name}\"\nvariant = \"basic\"\n{sim}"
        ));
        assert_eq!(
            got,
            format!(
                "2: [game] name = \"{name}\" is not known: use one of \"classic\", \"duel\", \
                 \"waterloo\", \"piecepack\", \"sa-belle-alliance\" or \"napoleon\""
            )
        );
    }
}

/// `[game] name` and `variant` on a simulated board with NFC readers under a1 and b1, with
/// `nfc` (`enabled = false`, say) first in `[nfc]`.
fn game_with_nfc(name: &str, variant: &str, nfc: &str) -> String {
    format!(
        "[game]\nname = \"{name}\"\nvariant = \"{variant}\"\n[sensor]\nkind = \"simulated\"\n\
         [nfc]\n{nfc}bus = \"spi0\"\nchip_select = \"ce0\"\n[[nfc.reader]]\ncells = [\"a1\", \"b1\"]\n"
    )
}

/// Napoléon's `variant` on the board of [`game_with_nfc`].
fn napoleon_with_nfc(variant: &str, nfc: &str) -> String {
    game_with_nfc("napoleon", variant, nfc)
}

/// With NFC readers configured, `[game] variant` names Napoléon's entries set up by tags as
/// the menu does, and the menu highlights the one named; without readers (no `[nfc]`, or
/// `enabled = false`) such a variant is refused on its line with both fixes. The old code
/// looked the variant up on the menu without its entries set up by tags and refused every
/// one as not on the menu.
#[test]
fn a_variant_set_up_by_tags_needs_the_readers() {
    use firmware::config::slug;
    use firmware::referee::games;
    let napoleon = GameName::Napoleon;
    let (_, entries) = games::menu_entries(true)
        .into_iter()
        .find(|(title, _)| *title == games::napoleon::TITLE)
        .unwrap();
    assert_eq!(napoleon.variants(true).len(), entries.len());
    let tagged: Vec<(usize, &String)> = entries
        .iter()
        .enumerate()
        .filter(|(_, (_, _, setup))| *setup == firmware::referee::SetupMode::Tags)
        .map(|(n, (label, _, _))| (n, label))
        .collect();
    assert_eq!(tagged.len(), napoleon.variants(false).len());
    for (n, label) in tagged {
        for written in [label.clone(), slug(label)] {
            let c = Config::parse(&napoleon_with_nfc(&written, "")).unwrap();
            assert_eq!(c.variant.as_deref(), Some(label.as_str()), "{written}");
            assert!(c.nfc_readers());
            assert_eq!(c.menu_start().variant, n, "{written}");
            assert_eq!(c.referee_config().menu_start, c.menu_start());
            assert!(c.referee_config().nfc_readers);
        }
    }
    // No readers: the line is named with both ways out.
    let wanted = "2-players-historical-set-up-nfc-tags";
    let fix = format!(
        "3: [game] variant = \"{wanted}\" sets napoleon up by NFC tags, which the menu offers \
         only with NFC readers under the board: configure them in [nfc] (enabled = true, one \
         [[nfc.reader]] for each module), or use variant = \"2-players-historical-set-up\" to set \
         it up without tags"
    );
    let without = format!("[game]\nname = \"napoleon\"\nvariant = \"{wanted}\"\n");
    assert_eq!(
        listed(&format!("{without}[sensor]\nkind = \"simulated\"\n")),
        fix
    );
    assert_eq!(listed(&napoleon_with_nfc(wanted, "enabled = false\n")), fix);
    // Readers wanted but their section has a problem: that problem alone, not the variant.
    let broken =
        napoleon_with_nfc(wanted, "").replace("chip_select = \"ce0\"", "chip_select = \"ce7\"");
    let got = listed(&broken);
    assert!(
        got.contains("chip_select") && !got.contains("variant"),
        "{got}"
    );
    // A name on neither menu lists the entries offered, those set up by tags with readers.
    let got = listed(&napoleon_with_nfc("4 players", ""));
    assert!(
        got.contains("\"3-players-own-set-up\", \"2-players-historical-set-up-nfc-tags\""),
        "{got}"
    );
}

/// A configuration without `[oled]` works but the players would see nothing: a warning with
/// the fix. The old code reported it "fine".
#[test]
fn a_configuration_without_a_display_is_a_warning() {
    let c = Config::parse("[sensor]\nkind = \"simulated\"\n").unwrap();
    let warnings = c.warnings();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].problem.contains("no [oled] section")
            && warnings[0].problem.contains("the players see nothing"),
        "{warnings:?}"
    );
    assert!(warnings[0].fix.contains("address = 0x3C"), "{warnings:?}");
    // With a display, and in the shipped file: no warning.
    assert!(Config::parse(GOOD).unwrap().warnings().is_empty());
    let shipped = std::fs::read_to_string(manifest("debian/umpire.toml")).unwrap();
    assert!(Config::parse(&shipped).unwrap().warnings().is_empty());
}

/// `[web] url` naming another port than `[web] port`: the codes would point where the umpire
/// does not listen (unless a proxy forwards it), a warning naming both ports.
#[test]
fn a_web_url_with_another_port_is_a_warning() {
    let web = |url: &str| format!("{GOOD}\n[web]\nenabled = true\nport = 8080\nurl = \"{url}\"\n");
    let c = Config::parse(&web("http://umpire.local:9090")).unwrap();
    let warnings = c.warnings();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].problem.contains("port 9090") && warnings[0].problem.contains("port = 8080"),
        "{warnings:?}"
    );
    assert!(warnings[0].fix.contains(":8080"), "{warnings:?}");
    let same = Config::parse(&web("http://umpire.local:8080")).unwrap();
    assert!(same.warnings().is_empty(), "{:?}", same.warnings());
}

/// `[waterloo] layout` names the board's data file; the shipped configuration names the
/// shipped copy beside it, which is the compiled-in layout, and it reads.
#[test]
fn the_waterloo_layout_file_is_configured_and_shipped() {
    use firmware::game_data::waterloo_layout;
    use firmware::referee::games::BoardLayout;
    let shipped_path = manifest("debian/umpire.toml");
    let shipped = Config::parse(&std::fs::read_to_string(&shipped_path).unwrap()).unwrap();
    assert_eq!(
        shipped.waterloo_layout.as_deref(),
        Some(Path::new("waterloo-layout.txt"))
    );
    assert_eq!(
        std::fs::read_to_string(manifest("debian/waterloo-layout.txt")).unwrap(),
        boards::waterloo::DEFAULT_LAYOUT,
        "firmware/debian/waterloo-layout.txt must be a copy of boards/src/waterloo/layout.txt"
    );
    assert_eq!(
        waterloo_layout(&shipped, &shipped_path).unwrap(),
        BoardLayout::shipped()
    );
    let got = listed("[waterloo]\nlayout = \"\"\n[sensor]\nkind = \"simulated\"\n");
    assert!(got.contains("2: [waterloo] layout is empty"), "{got}");
    let got = listed("[waterloo]\nfile = \"x\"\n[sensor]\nkind = \"simulated\"\n");
    assert!(
        got.contains("unknown setting `file` in [waterloo]"),
        "{got}"
    );
}

/// `[napoleon]` names each of Napoléon's four data files; an empty path or a key the section
/// does not have is a problem on its line, with what to write instead.
#[test]
fn napoleon_files_are_named_in_their_own_section() {
    let c = Config::parse(
        "[sensor]\nkind = \"simulated\"\n[napoleon]\nmap = \"my-map.txt\"\nturns = \"t.txt\"\n",
    )
    .unwrap();
    assert_eq!(c.napoleon.map, Some(PathBuf::from("my-map.txt")));
    assert_eq!(c.napoleon.turns, Some(PathBuf::from("t.txt")));
    assert_eq!(c.napoleon.order_of_battle, None);
    assert_eq!(c.napoleon.layout, None);
    assert!(!c.napoleon.all_shipped());
    let err = Config::parse(
        "[sensor]\nkind = \"simulated\"\n[napoleon]\nmap = \" \"\noob = \"blocks.txt\"\n",
    )
    .unwrap_err();
    let lines: Vec<usize> = err.0.iter().map(|p| p.line).collect();
    assert_eq!(lines, vec![4, 5], "{err}");
    assert!(
        err.0[0].message.contains("[napoleon] map is empty"),
        "{err}"
    );
    assert!(err.0[1].message.contains("order_of_battle"), "{err}");
}

/// `[napoleon] reveal_on_contact = true` offers 6.2.4's option to the Napoléon game chosen at
/// the table (the referee's settings carry it); off when left out, and a value that is not
/// true or false is refused on its line, saying what to write. Fails on the old code: the
/// section knew no such key.
#[test]
fn napoleon_reveal_on_contact_is_a_yes_or_no_on_its_line() {
    let on = Config::parse(
        "[sensor]\nkind = \"simulated\"\n[napoleon]\nmap = \"m.txt\"\nreveal_on_contact = true\n",
    )
    .unwrap_or_else(|p| panic!("{p}"));
    assert!(on.napoleon_reveal_on_contact);
    assert!(on.referee_config().napoleon_reveal_on_contact);
    assert_eq!(on.napoleon.map, Some(PathBuf::from("m.txt")));
    for text in [
        "[sensor]\nkind = \"simulated\"\n[napoleon]\nreveal_on_contact = false\n",
        "[sensor]\nkind = \"simulated\"\n[napoleon]\n",
        "[sensor]\nkind = \"simulated\"\n",
    ] {
        let off = Config::parse(text).unwrap_or_else(|p| panic!("{p}"));
        assert!(!off.napoleon_reveal_on_contact, "{text}");
        assert!(!off.referee_config().napoleon_reveal_on_contact, "{text}");
    }
    for (value, found) in [("\"yes\"", "a string"), ("1", "an integer")] {
        let got = listed(&format!(
            "[sensor]\nkind = \"simulated\"\n[napoleon]\nturns = \"t.txt\"\n\
             reveal_on_contact = {value}\n"
        ));
        assert_eq!(
            got,
            format!("5: [napoleon] reveal_on_contact must be true or false, not {found}"),
        );
    }
    // Misspelt, it is an unknown setting that names the key.
    let got = listed("[sensor]\nkind = \"simulated\"\n[napoleon]\nreveal_on_contacts = true\n");
    assert!(
        got.starts_with("4: unknown setting `reveal_on_contacts` in [napoleon]")
            && got.contains("reveal_on_contact"),
        "{got}"
    );
}

/// The service starts its referee on [`Config::referee_config`]: for every table game and
/// each of its variants (with readers, those set up by tags too), the game menu highlights
/// the game and OK highlights the configured variant on its menu. Fails on the old code: it
/// refused the variants set up by tags, and highlighted the first entry for any variant past
/// the game menu's length (Waterloo's seventh, "Expert, where are the Prussians?").
#[test]
fn the_menu_starts_on_every_configured_variant() {
    use firmware::journal::MemStore;
    use firmware::referee::{games, screen_text, Referee, SeededChance};
    use firmware::sensing::{BoardEvent, Button, Millis};
    let titles: Vec<&str> = games::menu().iter().map(|(title, _)| *title).collect();
    let mut checked = 0;
    for (i, (game, name)) in GameName::ALL.into_iter().skip(2).enumerate() {
        for label in game.variants(true) {
            let c = Config::parse(&game_with_nfc(name, &label, "")).unwrap();
            let mut referee = Referee::new(c.referee_config(), SeededChance::new(1), || {
                Ok(MemStore::new())
            });
            let menu = screen_text(referee.screen());
            assert!(menu.contains(&format!("> {}", titles[i])), "{menu}");
            referee.handle(&BoardEvent::Button {
                button: Button::Ok,
                at: Millis(100),
            });
            let menu = screen_text(referee.screen());
            assert!(menu.contains(&format!("> {label}")), "{name}: {menu}");
            checked += 1;
        }
    }
    let offered: usize = games::menu_entries(true).iter().map(|(_, e)| e.len()).sum();
    assert_eq!(checked, offered);
}

/// Configured with readers and a Napoléon variant set up by tags, OK, OK starts that game set
/// up by tags. The old code refused the file.
#[test]
fn ok_ok_starts_the_configured_variant_set_up_by_tags() {
    use firmware::journal::MemStore;
    use firmware::referee::games::napoleon::{NapoleonSet, TITLE};
    use firmware::referee::{
        screen_text, Decision, Referee, RefereeConfig, SeededChance, TagRegistry,
    };
    use firmware::sensing::{BoardEvent, Button, Millis, TagUid};
    let label = "3 players, own set-up, NFC tags";
    let c = Config::parse(&napoleon_with_nfc(label, "")).unwrap();
    // Every block's tag registered, as the owner's tags file would.
    let mut tags = TagRegistry::new();
    let set = NapoleonSet::shipped();
    for (i, (_, block)) in set.campaign().order_of_battle().blocks().enumerate() {
        let uid = TagUid::new(&[0x04, 0xB1, 0x0C, u8::try_from(i).unwrap()]).unwrap();
        tags.register_block(uid, &block.name);
    }
    let config = RefereeConfig {
        tags,
        ..c.referee_config()
    };
    let mut referee = Referee::new(config, SeededChance::new(1), || Ok(MemStore::new()));
    let mut ok = |at| {
        let out = referee.handle(&BoardEvent::Button {
            button: Button::Ok,
            at: Millis(at),
        });
        (out, screen_text(referee.screen()))
    };
    let (_, menu) = ok(100);
    assert!(menu.contains(&format!("> {label}")), "{menu}");
    let (out, _) = ok(200);
    assert!(
        out.contains(&Decision::GameChosen {
            game: format!("{TITLE}: {label}")
        }),
        "{out:?}"
    );
}

/// `[journal] dir` empty or relative is named with its line and the fix: check-config passed
/// both, and the service then looked for the folder wherever it was started (a fault naming no
/// folder for an empty one, the games journaled somewhere nobody looks for a relative one).
#[test]
fn a_journal_folder_empty_or_relative_is_refused_with_the_fix() {
    let with = |dir: &str| format!("[sensor]\nkind = \"simulated\"\n[journal]\ndir = \"{dir}\"\n");
    let got = problems(&with(""));
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, 4);
    assert!(got[0].1.contains("[journal] dir is empty"), "{got:?}");
    let got = problems(&with("journals"));
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0]
            .1
            .contains("[journal] dir = \"journals\" is not a full path"),
        "{got:?}"
    );
    let c = Config::parse(&with("/srv/umpire")).unwrap();
    assert_eq!(c.journal_dir, PathBuf::from("/srv/umpire"));
    let c = Config::parse("[sensor]\nkind = \"simulated\"\n").unwrap();
    assert_eq!(c.journal_dir, PathBuf::from("/var/lib/umpire"));
}

/// Napoléon's map is 26 x 31 squares: a board may have 26 columns (a to z) and 32 rows, on a
/// chain of up to 128 74HC165s (1,024 inputs, as many as the sensing layer takes). Past that
/// the configuration says which limit, never a fix it would refuse in turn ("chain 136
/// chips"). The old code refused 31 rows and more than 32 chips.
#[test]
fn a_board_may_be_as_large_as_napoleons_map_and_no_larger_than_the_sensing_layer() {
    let chain = |chips: u32| {
        format!(
            "[sensor]\nkind = \"shift_chain\"\n[sensor.shift_chain]\nbus = \"spi0\"\n\
             chip_select = \"ce1\"\nchips = {chips}\nload = 24\n{BUTTONS}"
        )
    };
    let map = format!("[board]\ncolumns = 26\nrows = 31\n{}", chain(101));
    let c = Config::parse(&map).unwrap();
    assert_eq!((c.columns, c.rows), (26, 31));
    assert_eq!(c.sensor_inputs(), Some(808));
    assert_eq!(c.layout_setup().cell_count, 806);

    let too_many = listed(&format!("[board]\ncolumns = 27\nrows = 33\n{}", chain(129)));
    assert!(
        too_many.contains("2: [board] columns = 27 is out of range: use 1 to 26"),
        "{too_many}"
    );
    assert!(
        too_many.contains("3: [board] rows = 33 is out of range: use 1 to 32"),
        "{too_many}"
    );
    assert!(
        too_many.contains("chips = 129 is out of range: use 1 to 128"),
        "{too_many}"
    );

    let trays: String = ["reserve", "withdrawn"]
        .iter()
        .flat_map(|kind| {
            [1, 2].map(|seat| {
                format!("[[board.tray]]\nkind = \"{kind}\"\nseat = {seat}\nslots = 64\n")
            })
        })
        .collect();
    let crowded = listed(&format!(
        "[board]\ncolumns = 26\nrows = 32\n{trays}{}",
        chain(128)
    ));
    assert_eq!(
        crowded,
        "1: [board] columns x rows give 832 squares and its trays 256 slots, 1088 places, but a \
         board senses at most 1024: fewer tray slots, or fewer rows or columns",
        "one problem, the board's"
    );
}

/// A board larger than a PCF8575 matrix (16 x 16), eight PCF8575 expanders (0x20 to 0x27) or a
/// GPIO matrix on the header's 28 pins can ever sense, now that a board may be 26 x 32, is told
/// to use the shift chain: never "add rows or columns (up to 16 each)", "add 43 more" expanders
/// or "add row or column pins", fixes the configuration would refuse in turn.
#[test]
fn a_board_past_what_a_matrix_or_the_expanders_can_sense_is_told_to_use_the_chain() {
    let board = "[board]\ncolumns = 26\nrows = 31\n";
    let matrix = listed(&format!(
        "{board}[sensor]\nkind = \"matrix\"\n[sensor.matrix]\nbus = \"i2c1\"\nrows = 16\n\
         columns = 16\nrow_expander = 0x20\ncolumn_expander = 0x21\n{BUTTONS}"
    ));
    assert!(!matrix.contains("add rows or columns"), "{matrix}");
    assert!(
        matrix.contains(
            "[sensor.matrix] a 16x16 matrix senses 256 places but the board senses 806, and a \
             matrix has at most 16 rows and 16 columns: use kind = \"shift_chain\""
        ),
        "{matrix}"
    );
    let expanders = listed(&format!(
        "{board}[sensor]\nkind = \"expanders\"\n[sensor.expanders]\nbus = \"i2c1\"\n\
         addresses = [0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27]\n{BUTTONS}"
    ));
    assert!(!expanders.contains("more"), "{expanders}");
    assert!(
        expanders.contains(
            "[sensor.expanders] 8 expanders give 128 inputs but the board senses 806 places, \
             and eight (0x20 to 0x27) are the most: use kind = \"shift_chain\""
        ),
        "{expanders}"
    );
    let gpio = listed(&format!(
        "{board}[sensor]\nkind = \"gpio_matrix\"\n[sensor.gpio_matrix]\nrows = [4, 17]\n\
         columns = [22, 23]\n{BUTTONS}"
    ));
    assert!(
        gpio.contains(
            "[sensor.gpio_matrix] a 2x2 matrix senses 4 places but the board senses 806, and 28 \
             GPIO pins sense at most 196: use kind = \"shift_chain\""
        ),
        "{gpio}"
    );
    // Within reach, the fix is still to add.
    let few = listed(&format!(
        "[board]\ncolumns = 12\nrows = 10\n[sensor]\nkind = \"expanders\"\n[sensor.expanders]\n\
         bus = \"i2c1\"\naddresses = [0x20]\n{BUTTONS}"
    ));
    assert!(few.contains("add 7 more"), "{few}");
}

/// A scan rate the chain cannot keep even at the highest `spi_hz` the configuration takes
/// (10 MHz) is told to lower `scan_hz` only: raising `spi_hz` past 10 MHz would be refused in
/// turn. Within reach of a faster clock, both fixes are named.
#[test]
fn a_scan_rate_no_clock_can_keep_is_not_told_to_raise_the_clock() {
    let chain = |chips: u32, spi_hz: u32, scan_hz: u32| {
        format!(
            "[board]\ncolumns = 26\nrows = 31\nscan_hz = {scan_hz}\n[sensor]\n\
             kind = \"shift_chain\"\n[sensor.shift_chain]\nbus = \"spi0\"\nchip_select = \"ce1\"\n\
             chips = {chips}\nload = 24\nspi_hz = {spi_hz}\n{BUTTONS}"
        )
    };
    // A rate past the service's bound is told that bound alone: no read time that would say
    // 9615 scans a second (128 chips at 10 MHz) were fine.
    let past = listed(&chain(128, 10_000_000, 10_000));
    assert_eq!(
        past,
        "4: [board] scan_hz = 10000 is too fast: the service's clock counts milliseconds, so \
         scan at 1000 Hz or slower (100 to 1000)"
    );
    let slow = listed(&chain(128, 1_000_000, 1_000));
    assert!(
        slow.contains("lower scan_hz or raise [sensor.shift_chain] spi_hz"),
        "{slow}"
    );
}

/// A failed scan's fix names the wires of the configured sensor, as the configuration sets
/// them, so a builder with a meter knows which to follow.
#[test]
fn the_sensor_wires_are_named_as_configured() {
    let board = "[board]\ncolumns = 2\nrows = 2\n";
    let wires = |sensor: &str| {
        Config::parse(&format!("{board}{sensor}{BUTTONS}"))
            .unwrap()
            .sensor_wires()
    };
    assert_eq!(
        wires(
            "[sensor]\nkind = \"shift_chain\"\n[sensor.shift_chain]\nbus = \"spi1\"\n\
             chip_select = \"ce2\"\nchips = 1\nload = 25\n"
        )
        .as_deref(),
        Some("SPI1 MISO GPIO 19, SCLK GPIO 21, CE2 GPIO 16 and the load line on GPIO 25")
    );
    assert_eq!(
        wires(
            "[sensor]\nkind = \"expanders\"\n[sensor.expanders]\nbus = \"i2c1\"\n\
             addresses = [0x20]\n"
        )
        .as_deref(),
        Some("I2C1 SDA GPIO 2, SCL GPIO 3")
    );
    assert_eq!(
        wires(
            "[sensor]\nkind = \"gpio_matrix\"\n[sensor.gpio_matrix]\nrows = [4, 17]\n\
             columns = [22, 23]\n"
        )
        .as_deref(),
        Some("rows on GPIO 4, 17; columns on GPIO 22, 23")
    );
    assert_eq!(wires("[sensor]\nkind = \"simulated\"\n"), None);
}

/// An owner who edits a game's data file on the Pi starts from the shipped one: the package
/// installs a copy of every file the umpire embeds, the very text it embeds, in
/// /usr/share/umpire, and the shipped configuration says so beside each setting.
#[test]
fn the_package_ships_a_copy_of_every_embedded_game_data_file() {
    use firmware::referee::games::{napoleon, sba};
    let embedded = [
        ("napoleon-map.txt", boards::napoleon::DEFAULT_MAP),
        (
            "napoleon-oob.txt",
            boards::napoleon::DEFAULT_ORDER_OF_BATTLE,
        ),
        ("napoleon-turns.txt", boards::napoleon::DEFAULT_TURN_TRACK),
        ("napoleon-layout.txt", napoleon::DEFAULT_LAYOUT),
        ("sba-cards.toml", boards::sba::EXAMPLE_CARDS),
        ("sba-layout.txt", sba::DEFAULT_LAYOUT),
        ("waterloo-layout.txt", boards::waterloo::DEFAULT_LAYOUT),
    ];
    // The package's assets: ["source", "destination", "mode"], one a line.
    let cargo = std::fs::read_to_string(manifest("Cargo.toml")).unwrap();
    let assets: Vec<(String, String)> = cargo
        .lines()
        .filter_map(|line| {
            let inner = line.trim().strip_prefix("[\"")?.strip_suffix("],")?;
            let mut parts = inner.split("\", \"");
            Some((parts.next()?.to_string(), parts.next()?.to_string()))
        })
        .collect();
    let shipped_config = std::fs::read_to_string(manifest("debian/umpire.toml")).unwrap();
    for (name, text) in embedded {
        let destination = format!("usr/share/umpire/{name}");
        let source = assets
            .iter()
            .find(|(_, to)| *to == destination)
            .map(|(from, _)| from)
            .unwrap_or_else(|| panic!("the package does not ship /{destination}"));
        assert_eq!(
            std::fs::read_to_string(manifest(source)).unwrap(),
            text,
            "/{destination} ({source}) is not the text the umpire embeds"
        );
        assert!(
            shipped_config.contains(name),
            "the shipped umpire.toml does not point at /usr/share/umpire/{name}"
        );
    }
    // Nothing else is shipped there: a file there that is no embedded default would mislead.
    let shipped: Vec<&String> = assets
        .iter()
        .map(|(_, to)| to)
        .filter(|to| to.starts_with("usr/share/umpire/"))
        .collect();
    assert_eq!(shipped.len(), embedded.len(), "{shipped:?}");
}

/// What `umpire setup` sets follows from the configuration: Option C's matrix on GPIO (the
/// schematics' pins: SPI0's among its rows and columns, COL4 on GPIO 0) wants SPI0 off and no
/// HAT EEPROM probe; the shipped configuration (the 74HC165 chain on SPI0) wants SPI0 on and
/// the probe left alone.
#[test]
fn the_boot_configuration_follows_the_wiring() {
    let option_c = Config::parse(
        "[sensor]\nkind = \"gpio_matrix\"\n[sensor.gpio_matrix]\n\
         rows = [4, 17, 18, 27, 22, 23, 24, 10, 9, 25]\n\
         columns = [11, 8, 7, 0, 12, 19, 16, 26, 20, 21]\n\
         [oled]\nbus = \"i2c1\"\n[buttons]\nok = 5\nback = 6\ndie = 13\n",
    )
    .expect("Option C's wiring is a configuration the firmware accepts");
    assert_eq!(
        option_c.boot_needs(),
        firmware::setup::BootNeeds {
            spi0: false,
            spi1_chip_selects: None,
            no_eeprom_read: true,
        }
    );
    let shipped = Config::parse(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/debian/umpire.toml"))
            .unwrap(),
    )
    .expect("the shipped configuration");
    assert_eq!(shipped.boot_needs(), firmware::setup::BootNeeds::default());
}
