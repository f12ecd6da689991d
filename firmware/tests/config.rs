//! The configuration file: a good file reads back exactly; every kind of mistake is reported
//! with its line and how to fix it, all of them at once.

use firmware::config::{Config, GameName, RulesName, SensorConfig};

const GOOD: &str = r#"# A 10x10 Stratego board wired as a diode matrix.
[game]
name = "duel"
rules = "plain"

[board]
columns = 10
rows = 10
scan_hz = 200

[sensor]
kind = "matrix"
rows = [5, 6, 12, 13, 16, 19, 20, 21, 26, 4]
columns = [17, 27, 22, 23, 24, 25, 14, 15, 18, 0]
active_low = true
settle_us = 10

[display]
i2c_bus = 1
address = 0x3C
speed_hz = 400000

[buttons]
ok = 1
back = 7
die = 8

[journal]
dir = "/tmp/umpire-journals"
"#;

fn lines(text: &str) -> Vec<(usize, String)> {
    match Config::parse(text) {
        Ok(c) => panic!("expected problems, got {c:?}"),
        Err(p) => p.0.into_iter().map(|p| (p.line, p.message)).collect(),
    }
}

#[test]
fn a_good_file_reads_back_exactly() {
    let c = Config::parse(GOOD).unwrap();
    assert_eq!(c.game, GameName::Duel);
    assert_eq!(c.rules, RulesName::Plain);
    assert_eq!((c.columns, c.rows, c.scan_hz), (10, 10, 200));
    let SensorConfig::Matrix {
        rows,
        columns,
        active_low,
        settle_us,
    } = &c.sensor
    else {
        panic!("matrix expected")
    };
    assert_eq!(rows.len() * columns.len(), 100);
    assert!(*active_low);
    assert_eq!(*settle_us, 10);
    assert_eq!(c.display.unwrap().address, 0x3C);
    assert_eq!(c.buttons.unwrap().die, 8);
    assert_eq!(c.journal_dir.to_str(), Some("/tmp/umpire-journals"));
    assert_eq!(c.gpio_pins().len(), 23);
}

#[test]
fn every_problem_is_listed_with_its_line() {
    let text = GOOD
        .replace("scan_hz = 200", "scan_hz = 20")
        .replace("address = 0x3C", "address = 0x50")
        .replace("die = 8", "die = 5")
        .replace("settle_us = 10", "settle_us = 10\nspeed = 3");
    let got = lines(&text);
    assert_eq!(got.len(), 4, "{got:#?}");
    // Sorted by line.
    assert!(got.windows(2).all(|w| w[0].0 <= w[1].0));
    assert!(got[0].1.contains("scan at 100 Hz or faster"), "{got:?}");
    assert_eq!(got[0].0, 9);
    assert!(
        got[1].1.contains("unknown setting `speed` in [sensor]"),
        "{got:?}"
    );
    assert_eq!(got[1].0, 17);
    assert!(got[2].1.contains("0x3C or 0x3D"), "{got:?}");
    assert!(got[3].1.contains("GPIO 5 is used twice"), "{got:?}");
    assert!(got[3].1.contains("matrix row") && got[3].1.contains("[buttons] die"));
}

#[test]
fn bus_pins_and_chip_selects_are_not_free() {
    // GPIO 2 is I2C1 SDA while the display is on bus 1; the reader and the chain share CE0.
    let text = r#"
[sensor]
kind = "shift-chain"
spi_bus = 0
chip_select = 0
load_pin = 2
chips = 13

[nfc]
spi_bus = 0
chip_select = 0
mux_pins = [17, 27, 22, 23, 24, 25, 26]

[display]
i2c_bus = 1

[buttons]
ok = 5
back = 6
die = 13
"#;
    let got = lines(text);
    let all = got
        .iter()
        .map(|g| g.1.clone())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(all.contains("share SPI0 CE0"), "{all}");
    assert!(
        all.contains("GPIO 2 is used twice") && all.contains("I2C bus 1 SDA"),
        "{all}"
    );
    assert!(all.contains("GPIO 8 is used twice"), "{all}");
}

#[test]
fn a_small_sensor_is_named_with_what_to_add() {
    let text = r#"
[board]
columns = 12
rows = 10
[sensor]
kind = "pcf8575"
i2c_bus = 1
addresses = [0x20, 0x21, 0x20]
"#;
    let got = lines(text);
    let all = got
        .iter()
        .map(|g| g.1.clone())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(all.contains("listed twice"), "{all}");
    assert!(
        all.contains("give 48 inputs but the board has 120 squares: add 5 more"),
        "{all}"
    );
    assert!(all.contains("no [buttons] section"), "{all}");
}

#[test]
fn type_errors_and_unknown_sections_are_reported_not_panicked() {
    let text = "[game]\nname = 3\n[sensor]\nkind = \"laser\"\n[wifi]\nssid = \"x\"\n";
    let got = lines(text);
    assert_eq!(got.len(), 3, "{got:#?}");
    assert!(got[0].1.contains("must be a string, not an integer") && got[0].0 == 2);
    assert_eq!(got[1].0, 4);
    assert!(got[1].1.contains("\"laser\" is not known"));
    assert!(got
        .iter()
        .any(|g| g.1.contains("unknown section or setting `wifi`")));
}

#[test]
fn broken_toml_names_its_line() {
    let got = lines("[game]\nname = \"classic\n");
    assert_eq!(got.len(), 1);
    assert!(got[0].1.contains("not valid TOML"), "{got:?}");
    assert_eq!(got[0].0, 2);
}

#[test]
fn a_simulated_board_needs_no_wiring() {
    let c = Config::parse("[sensor]\nkind = \"simulated\"\n").unwrap();
    assert_eq!(c.sensor, SensorConfig::Simulated);
    assert!(c.gpio_pins().is_empty());
}

#[test]
fn arbitrary_text_never_panics() {
    let mut seed = 0x1234_5678_u64;
    for len in 0..400 {
        let mut s = String::new();
        for _ in 0..len % 60 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            s.push(b"[]=\"\n #abc0x1,{}.-sensorkindmatrix"[(seed % 34) as usize] as char);
        }
        let _ = Config::parse(&s);
        let _ = Config::parse(&GOOD[..len.min(GOOD.len())]);
    }
}
