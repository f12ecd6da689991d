//! The wiring is consistent: `schematics/pinmap.toml` uses every Raspberry Pi pin at most once and
//! respects the Pi's fixed bus pins, its devices do not collide on a bus, every signal drawn in
//! the diagrams (`schematics/*.svg`) is the one the pin map names, and the firmware's default
//! configuration (`firmware/debian/umpire.toml`, installed as `/etc/umpire/umpire.toml`) gives
//! the same pins. An alternative build (`[[alternative]]`, option C: the matrix straight on GPIO,
//! without NFC) may share pins only with the sections it is built instead of, and its pins must
//! form a `gpio_matrix` configuration the firmware accepts.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use toml::{Table, Value};

/// BCM GPIO number -> physical pin on the 40-pin header (every Pi since the B+).
const HEADER: [(i64, i64); 28] = [
    (0, 27),
    (1, 28),
    (2, 3),
    (3, 5),
    (4, 7),
    (5, 29),
    (6, 31),
    (7, 26),
    (8, 24),
    (9, 21),
    (10, 19),
    (11, 23),
    (12, 32),
    (13, 33),
    (14, 8),
    (15, 10),
    (16, 36),
    (17, 11),
    (18, 12),
    (19, 35),
    (20, 38),
    (21, 40),
    (22, 15),
    (23, 16),
    (24, 18),
    (25, 22),
    (26, 37),
    (27, 13),
];

/// The power rails on the header and their pins.
const POWER: [(&str, &[i64]); 3] = [
    ("3V3", &[1, 17]),
    ("5V", &[2, 4]),
    ("GND", &[6, 9, 14, 20, 25, 30, 34, 39]),
];

/// The Pi's fixed bus pins: I2C1 and SPI0 are wired to these GPIOs in silicon.
const FIXED: [(&str, i64); 11] = [
    ("i2c1.sda", 2),
    ("i2c1.scl", 3),
    ("spi0.mosi", 10),
    ("spi0.miso", 9),
    ("spi0.sclk", 11),
    ("spi0.ce0", 8),
    ("spi0.ce1", 7),
    ("spi1.mosi", 20),
    ("spi1.miso", 19),
    ("spi1.sclk", 21),
    ("spi1.ce0", 18),
];

/// Settings in the default configuration that choose between options rather than name wiring.
const CONFIG_ONLY: [&str; 5] = [
    "sensor.kind",
    "nfc.enabled",
    "board.scan_hz",
    "leds.enabled",
    "leds.brightness",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the workspace")
        .to_path_buf()
}

fn load(relative: &str) -> Table {
    let path = root().join(relative);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.parse()
        .unwrap_or_else(|e| panic!("{} is not valid TOML: {e}", path.display()))
}

fn pinmap() -> Table {
    load("schematics/pinmap.toml")
}

/// One GPIO signal of the pin map: a table with `name`, `gpio` and `header`.
#[derive(Debug)]
struct Signal {
    path: String,
    name: String,
    gpio: i64,
    header: i64,
}

fn signals(map: &Table) -> Vec<Signal> {
    fn walk(prefix: &str, table: &Table, out: &mut Vec<Signal>) {
        for (key, value) in table {
            let path = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            let inner = match value {
                Value::Table(inner) => inner,
                // A list of signals (`rows = [{ name, gpio, header }, ...]`): element i is `key.i`.
                // (`[[reserved]]` entries have a gpio but no name: they are not signals.)
                Value::Array(items)
                    if items
                        .iter()
                        .all(|i| i.as_table().is_some_and(|t| t.contains_key("name"))) =>
                {
                    for (i, item) in items.iter().enumerate() {
                        if let Value::Table(item) = item {
                            let mut one = Table::new();
                            one.insert(i.to_string(), Value::Table(item.clone()));
                            walk(&path, &one, out);
                        }
                    }
                    continue;
                }
                _ => continue,
            };
            if let Some(gpio) = inner.get("gpio") {
                let field = |f: &str| {
                    inner
                        .get(f)
                        .unwrap_or_else(|| panic!("pin map: {path} has a gpio but no {f}"))
                };
                out.push(Signal {
                    name: field("name").as_str().expect("name is a string").to_owned(),
                    gpio: gpio.as_integer().expect("gpio is an integer"),
                    header: field("header").as_integer().expect("header is an integer"),
                    path,
                });
            } else {
                walk(&path, inner, out);
            }
        }
    }
    let mut out = Vec::new();
    walk("", map, &mut out);
    out
}

fn lookup<'a>(table: &'a Table, path: &str) -> Option<&'a Value> {
    let mut parts = path.split('.');
    let mut value = table.get(parts.next()?)?;
    for part in parts {
        value = match value {
            Value::Array(items) => items.get(part.parse::<usize>().ok()?)?,
            _ => value.as_table()?.get(part)?,
        };
    }
    Some(value)
}

/// An alternative build (`[[alternative]]`): its signals may share a GPIO with the sections it
/// is built `instead_of`, and it may use the spare and reserved pins it lists; nothing else.
#[derive(Debug)]
struct Alternative {
    build: String,
    instead_of: Vec<String>,
    spare: BTreeSet<i64>,
    reserved: BTreeSet<i64>,
}

/// Whether the signal at `path` belongs to the section `section`.
fn under(path: &str, section: &str) -> bool {
    path == section
        || path
            .strip_prefix(section)
            .is_some_and(|rest| rest.starts_with('.'))
}

fn alternatives(map: &Table) -> Vec<Alternative> {
    let Some(items) = map.get("alternative") else {
        return Vec::new();
    };
    let items = items
        .as_array()
        .expect("[[alternative]] is a list of tables");
    items
        .iter()
        .map(|item| {
            let strings = |key: &str| -> Vec<String> {
                item.get(key)
                    .and_then(Value::as_array)
                    .unwrap_or_else(|| panic!("[[alternative]] lacks {key}"))
                    .iter()
                    .map(|v| v.as_str().expect("a section name").to_owned())
                    .collect()
            };
            let pins = |key: &str| -> BTreeSet<i64> {
                item.get(key)
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .map(|v| v.as_integer().expect("a GPIO number"))
                            .collect()
                    })
                    .unwrap_or_default()
            };
            let build = item
                .get("build")
                .and_then(Value::as_str)
                .expect("[[alternative]] build")
                .to_owned();
            assert!(
                lookup(map, &build).is_some(),
                "[[alternative]] build = {build}: no such section"
            );
            let instead_of = strings("instead_of");
            for section in &instead_of {
                assert!(
                    lookup(map, section).is_some(),
                    "[[alternative]] {build} instead_of {section}: no such section"
                );
                assert!(
                    !under(section, &build) && !under(&build, section),
                    "[[alternative]] {build} cannot be built instead of {section}, its own part"
                );
            }
            Alternative {
                build,
                instead_of,
                spare: pins("spare"),
                reserved: pins("reserved"),
            }
        })
        .collect()
}

/// The alternative build the signal at `path` belongs to, if any.
fn alternative_of<'a>(alternatives: &'a [Alternative], path: &str) -> Option<&'a Alternative> {
    alternatives.iter().find(|a| under(path, &a.build))
}

/// Whether two signals may share a GPIO: one belongs to an alternative build and the other to a
/// section that build is made instead of (they are never fitted together).
fn never_together(alternatives: &[Alternative], a: &Signal, b: &Signal) -> bool {
    let one_way = |x: &Signal, y: &Signal| {
        alternative_of(alternatives, &x.path)
            .is_some_and(|alt| alt.instead_of.iter().any(|s| under(&y.path, s)))
    };
    one_way(a, b) || one_way(b, a)
}

fn integers(map: &Table, key: &str) -> BTreeSet<i64> {
    match map.get(key) {
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| v.as_integer().expect("a GPIO number"))
            .collect(),
        _ => panic!("pin map: `{key}` should be a list of GPIO numbers"),
    }
}

fn reserved(map: &Table) -> BTreeMap<i64, String> {
    let Some(Value::Array(items)) = map.get("reserved") else {
        panic!("pin map: no [[reserved]] pins")
    };
    items
        .iter()
        .map(|item| {
            let gpio = item.get("gpio").and_then(Value::as_integer).expect("gpio");
            let why = item.get("why").and_then(Value::as_str).expect("why");
            (gpio, why.to_owned())
        })
        .collect()
}

#[test]
fn every_signal_is_on_its_header_pin() {
    let header: BTreeMap<i64, i64> = HEADER.into_iter().collect();
    let mut problems = Vec::new();
    for s in signals(&pinmap()) {
        match header.get(&s.gpio) {
            None => problems.push(format!(
                "{} ({}): GPIO{} is not on the 40-pin header (GPIO0-27)",
                s.name, s.path, s.gpio
            )),
            Some(&pin) if pin != s.header => problems.push(format!(
                "{} ({}): GPIO{} is header pin {pin}, not {}",
                s.name, s.path, s.gpio, s.header
            )),
            Some(_) => {}
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_pin_is_used_twice_and_every_pin_is_accounted_for() {
    let map = pinmap();
    let signals = signals(&map);
    assert!(signals.len() >= 20, "only {} signals found", signals.len());
    let alternatives = alternatives(&map);
    let mut problems = Vec::new();
    let mut by_gpio: BTreeMap<i64, Vec<&Signal>> = BTreeMap::new();
    let mut names = BTreeSet::new();
    for s in &signals {
        let users = by_gpio.entry(s.gpio).or_default();
        for other in users.iter() {
            if !never_together(&alternatives, s, other) {
                problems.push(format!(
                    "GPIO{} is used twice: {} ({}) and {} ({})",
                    s.gpio, other.name, other.path, s.name, s.path
                ));
            }
        }
        users.push(s);
        if !names.insert(&s.name) {
            problems.push(format!("the signal name {} is used twice", s.name));
        }
    }
    let reserved = reserved(&map);
    let spare = integers(&map, "spare");
    // An alternative build may take only the spare and reserved pins its entry lists, and every
    // pin it lists is one it uses.
    let allowed = |s: &Signal, gpio: i64, which: fn(&Alternative) -> &BTreeSet<i64>| {
        alternative_of(&alternatives, &s.path).is_some_and(|alt| which(alt).contains(&gpio))
    };
    for alt in &alternatives {
        for (kind, pins, pool) in [
            ("spare", &alt.spare, &spare),
            (
                "reserved",
                &alt.reserved,
                &reserved.keys().copied().collect(),
            ),
        ] {
            for gpio in pins {
                if !pool.contains(gpio) {
                    problems.push(format!(
                        "[[alternative]] {}: GPIO{gpio} is not a {kind} pin",
                        alt.build
                    ));
                }
                let used = by_gpio
                    .get(gpio)
                    .is_some_and(|users| users.iter().any(|s| under(&s.path, &alt.build)));
                if !used {
                    problems.push(format!(
                        "[[alternative]] {} takes {kind} GPIO{gpio} but does not use it",
                        alt.build
                    ));
                }
            }
        }
    }
    for (gpio, why) in &reserved {
        for s in by_gpio.get(gpio).into_iter().flatten() {
            if !allowed(s, *gpio, |a| &a.reserved) {
                problems.push(format!(
                    "{} uses GPIO{gpio}, which is reserved ({why})",
                    s.name
                ));
            }
        }
        if spare.contains(gpio) {
            problems.push(format!("GPIO{gpio} is both reserved and spare"));
        }
    }
    for gpio in &spare {
        for s in by_gpio.get(gpio).into_iter().flatten() {
            if !allowed(s, *gpio, |a| &a.spare) {
                problems.push(format!(
                    "GPIO{gpio} is listed as spare but {} uses it",
                    s.name
                ));
            }
        }
    }
    for (gpio, _) in HEADER {
        if !by_gpio.contains_key(&gpio) && !reserved.contains_key(&gpio) && !spare.contains(&gpio) {
            problems.push(format!("GPIO{gpio} is neither used, reserved nor spare"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_pis_fixed_bus_pins_are_respected() {
    let map = pinmap();
    let signals = signals(&map);
    let alternatives = alternatives(&map);
    let fixed: BTreeMap<i64, &str> = FIXED.iter().map(|&(path, gpio)| (gpio, path)).collect();
    for (path, gpio) in FIXED {
        let s = signals
            .iter()
            .find(|s| s.path == path)
            .unwrap_or_else(|| panic!("pin map lacks the bus pin {path}"));
        assert_eq!(s.gpio, gpio, "{path} is fixed to GPIO{gpio} by the Pi");
    }
    for s in &signals {
        if let Some(&bus_pin) = fixed.get(&s.gpio) {
            // An alternative build may use a bus's pins as GPIO only if it is built without that
            // bus (option C has no SPI device); the bus pins stay fixed for every other build.
            let bus_unused = alternative_of(&alternatives, &s.path)
                .is_some_and(|alt| alt.instead_of.iter().any(|b| under(bus_pin, b)));
            if bus_unused {
                continue;
            }
            assert_eq!(
                s.path, bus_pin,
                "{} uses GPIO{}, which is {bus_pin}",
                s.name, s.gpio
            );
        }
    }
}

#[test]
fn bus_devices_do_not_collide() {
    let map = pinmap();
    let int = |path: &str| {
        lookup(&map, path)
            .and_then(Value::as_integer)
            .unwrap_or_else(|| panic!("pin map lacks {path}"))
    };
    let str_at = |path: &str| {
        lookup(&map, path)
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("pin map lacks {path}"))
    };
    // I2C1: the OLED and the matrix option's two expanders.
    let i2c = [
        ("oled", int("oled.address")),
        ("matrix rows", int("sensor.matrix.row_expander")),
        ("matrix columns", int("sensor.matrix.column_expander")),
    ];
    for path in ["oled.bus", "sensor.matrix.bus"] {
        assert_eq!(str_at(path), "i2c1", "{path}");
    }
    let mut seen = BTreeMap::new();
    for (device, address) in i2c {
        assert!(
            (0x08..=0x77).contains(&address),
            "{device}: 0x{address:02X} is not a 7-bit I2C device address"
        );
        if let Some(other) = seen.insert(address, device) {
            panic!("{device} and {other} both answer at I2C address 0x{address:02X}");
        }
    }
    // SPI0: the NFC reader and the shift-register chain each have their own chip select.
    let spi0 = map["spi0"].as_table().expect("[spi0]");
    let mut selects = BTreeMap::new();
    for device in ["nfc", "sensor.shift_chain"] {
        assert_eq!(str_at(&format!("{device}.bus")), "spi0", "{device}.bus");
        let cs = str_at(&format!("{device}.chip_select"));
        assert!(spi0.contains_key(cs), "{device}: spi0 has no {cs}");
        if let Some(other) = selects.insert(cs, device) {
            panic!("{device} and {other} share SPI0 {cs}");
        }
    }
    // The NFC decoder's address lines reach every reader the pin map allows, and no more than a
    // 74HC154 has outputs.
    let squares = int("board.columns") * int("board.rows");
    let lines = lookup(&map, "nfc.address")
        .and_then(Value::as_array)
        .expect("nfc.address")
        .len();
    assert!(
        lines <= 4,
        "a 74HC154 has 4 address lines, nfc.address has {lines}"
    );
    assert_eq!(
        int("nfc.readers"),
        1 << lines,
        "nfc.readers = 2^(address lines)"
    );
    assert_eq!(int("sensor.shift_chain.chips") * 8, squares);
    assert_eq!(
        int("sensor.matrix.rows") * int("sensor.matrix.columns"),
        squares
    );
}

/// The text inside every `<text>` element of an SVG file, unescaped.
fn svg_texts(svg: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find("<text") {
        rest = &rest[start..];
        let open = rest.find('>').expect("unclosed <text>") + 1;
        let close = rest.find("</text>").expect("no </text>");
        out.push(
            rest[open..close]
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&apos;", "'")
                .replace("&amp;", "&"),
        );
        rest = &rest[close..];
    }
    out
}

/// Whether `text` mentions a numbered GPIO ("GPIO7"), as opposed to "GPIO" in prose.
fn names_a_gpio(text: &str) -> bool {
    text.match_indices("GPIO")
        .any(|(i, _)| text[i + 4..].starts_with(|c: char| c.is_ascii_digit()))
}

#[test]
fn every_signal_drawn_is_the_one_in_the_pin_map() {
    let map = pinmap();
    let signals = signals(&map);
    let reserved = reserved(&map);
    let spare = integers(&map, "spare");
    let header: BTreeMap<i64, i64> = HEADER.into_iter().collect();
    let mut drawn = BTreeSet::new();
    let mut problems = Vec::new();
    let mut files: Vec<PathBuf> = fs::read_dir(root().join("schematics"))
        .expect("schematics/")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "svg"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 5,
        "expected the five diagrams, found {files:?}"
    );
    for file in &files {
        let svg = fs::read_to_string(file).expect("readable SVG");
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let mut labels = 0;
        for text in svg_texts(&svg) {
            let parts: Vec<&str> = text.split(" · ").collect();
            let pin = |s: &str| s.strip_prefix("pin ").and_then(|n| n.parse::<i64>().ok());
            match parts.as_slice() {
                [signal, gpio, header_pin] if gpio.starts_with("GPIO") => {
                    labels += 1;
                    let gpio: i64 = gpio[4..].parse().expect("GPIO number");
                    let Some(header_pin) = pin(header_pin) else {
                        problems.push(format!("{name}: `{text}`: no header pin"));
                        continue;
                    };
                    if header.get(&gpio) != Some(&header_pin) {
                        problems.push(format!("{name}: `{text}`: GPIO{gpio} is not that pin"));
                    }
                    match *signal {
                        "RESERVED" if reserved.contains_key(&gpio) => {}
                        "SPARE" if spare.contains(&gpio) => {}
                        _ => match signals.iter().find(|s| s.name == *signal) {
                            Some(s) if s.gpio == gpio => {
                                drawn.insert(s.name.clone());
                            }
                            Some(s) => problems.push(format!(
                                "{name}: `{text}`: the pin map has {} on GPIO{}",
                                s.name, s.gpio
                            )),
                            None => problems
                                .push(format!("{name}: `{text}`: {signal} is not in the pin map")),
                        },
                    }
                }
                [rail, header_pin] if pin(header_pin).is_some() => {
                    labels += 1;
                    let header_pin = pin(header_pin).unwrap();
                    match POWER.iter().find(|(r, _)| r == rail) {
                        Some((_, pins)) if pins.contains(&header_pin) => {}
                        _ => problems.push(format!("{name}: `{text}`: not a {rail} pin")),
                    }
                }
                _ if names_a_gpio(&text) => problems.push(format!(
                    "{name}: `{text}` names a GPIO outside a `NAME · GPIOn · pin p` label"
                )),
                _ => {}
            }
        }
        if labels == 0 {
            problems.push(format!("{name}: no pin labels"));
        }
    }
    for s in &signals {
        if !drawn.contains(&s.name) {
            problems.push(format!("{} ({}) is in no diagram", s.name, s.path));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_default_configuration_matches_the_pin_map() {
    let map = pinmap();
    let config = load("firmware/debian/umpire.toml");
    let mut problems = Vec::new();

    // Every hardware setting in the configuration is what the pin map says.
    fn walk(prefix: &str, table: &Table, map: &Table, problems: &mut Vec<String>) {
        for (key, value) in table {
            let path = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            if let Value::Table(inner) = value {
                walk(&path, inner, map, problems);
                continue;
            }
            if CONFIG_ONLY.contains(&path.as_str()) {
                continue;
            }
            // A list of signals in the pin map is a list of GPIO numbers in the configuration.
            let gpios;
            let expected = match lookup(map, &path) {
                Some(Value::Table(signal)) if signal.contains_key("gpio") => &signal["gpio"],
                Some(Value::Array(items))
                    if items
                        .iter()
                        .all(|i| i.as_table().is_some_and(|t| t.contains_key("gpio"))) =>
                {
                    gpios = Value::Array(items.iter().map(|i| i["gpio"].clone()).collect());
                    &gpios
                }
                Some(other) => other,
                None => {
                    problems.push(format!("umpire.toml: {path} is not in the pin map"));
                    continue;
                }
            };
            if value != expected {
                problems.push(format!(
                    "umpire.toml: {path} = {value}, but the pin map says {expected}"
                ));
            }
        }
    }
    for (section, value) in &config {
        // Sections the pin map does not describe (the journal) are not wiring.
        if let (Some(_), Value::Table(inner)) = (map.get(section), value) {
            walk(section, inner, &map, &mut problems);
        }
    }

    // Every signal the firmware drives or reads is configured (bus pins are the kernel's), except
    // those of an alternative build the default configuration does not describe (option C
    // replaces the NFC the default build has; its configuration is checked on its own below).
    let alternatives = alternatives(&map);
    for s in signals(&map) {
        if s.path.starts_with("i2c1.") || s.path.starts_with("spi0.") || s.path.starts_with("spi1.")
        {
            continue;
        }
        if alternative_of(&alternatives, &s.path)
            .is_some_and(|alt| lookup(&config, &alt.build).is_none())
        {
            continue;
        }
        if lookup(&config, &s.path).is_none() {
            problems.push(format!(
                "umpire.toml lacks {} = {} ({})",
                s.path, s.gpio, s.name
            ));
        }
    }

    // The chosen sensor is one the pin map describes.
    let kind = lookup(&config, "sensor.kind").and_then(Value::as_str);
    let options = map["sensor"].as_table().expect("[sensor]");
    match kind {
        Some(kind) if options.contains_key(kind) => {}
        other => problems.push(format!(
            "umpire.toml: sensor.kind = {other:?}, not one of {:?}",
            options.keys().collect::<Vec<_>>()
        )),
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_journal_directory_is_the_units_state_directory() {
    let config = load("firmware/debian/umpire.toml");
    let unit = fs::read_to_string(root().join("firmware/debian/umpire.service")).expect("unit");
    let dir = lookup(&config, "journal.dir").and_then(Value::as_str);
    assert!(unit.lines().any(|l| l.trim() == "StateDirectory=umpire"));
    assert_eq!(dir, Some("/var/lib/umpire"), "StateDirectory=umpire");
}

/// The GPIO numbers of a list of signals in the pin map (`rows = [{ name, gpio, header }, ...]`).
fn gpio_list(map: &Table, path: &str) -> Vec<i64> {
    lookup(map, path)
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("pin map lacks the list {path}"))
        .iter()
        .map(|s| s["gpio"].as_integer().expect("gpio is an integer"))
        .collect()
}

#[test]
fn option_c_is_a_gpio_matrix_configuration_the_firmware_accepts() {
    let map = pinmap();
    let rows = gpio_list(&map, "sensor.gpio_matrix.rows");
    let columns = gpio_list(&map, "sensor.gpio_matrix.columns");
    assert_eq!((rows.len(), columns.len()), (10, 10), "option C is 10 x 10");
    let int = |path: &str| {
        lookup(&map, path)
            .and_then(Value::as_integer)
            .unwrap_or_else(|| panic!("pin map lacks {path}"))
    };
    let list = |pins: &[i64]| {
        pins.iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    // The option C build: the matrix, the OLED and the buttons; no NFC, no buzzer, no SPI.
    let text = format!(
        "[board]\ncolumns = {}\nrows = {}\nscan_hz = 200\n\n\
         [sensor]\nkind = \"gpio_matrix\"\n\n\
         [sensor.gpio_matrix]\nrows = [{}]\ncolumns = [{}]\n\n\
         [i2c1]\ndevice = \"/dev/i2c-1\"\n\n\
         [oled]\nbus = \"i2c1\"\naddress = {}\n\n\
         [buttons]\nok = {}\nback = {}\ndie = {}\n",
        columns.len(),
        rows.len(),
        list(&rows),
        list(&columns),
        int("oled.address"),
        int("buttons.ok.gpio"),
        int("buttons.back.gpio"),
        int("buttons.die.gpio"),
    );
    let config = firmware::config::Config::parse(&text)
        .unwrap_or_else(|e| panic!("the firmware rejects option C:\n{text}\n{e:?}"));
    let as_u8 = |pins: &[i64]| -> Vec<u8> {
        pins.iter()
            .map(|&p| u8::try_from(p).expect("a GPIO number"))
            .collect()
    };
    match &config.sensor {
        firmware::config::SensorConfig::GpioMatrix {
            rows: r,
            columns: c,
            active_low,
            ..
        } => {
            assert_eq!(r, &as_u8(&rows));
            assert_eq!(c, &as_u8(&columns));
            assert!(active_low, "rows driven low, columns pulled up");
        }
        other => panic!("kind = \"gpio_matrix\" parsed as {other:?}"),
    }
    assert!(config.nfc.is_none() && config.buzzer.is_none());
    let pins = config.gpio_pins();
    let matrix: BTreeSet<u8> = pins
        .iter()
        .filter(|(_, what)| what.starts_with("matrix "))
        .map(|(p, _)| *p)
        .collect();
    assert_eq!(matrix.len(), 20, "20 matrix pins: {pins:?}");
    let all: BTreeSet<u8> = pins.iter().map(|(p, _)| *p).collect();
    assert_eq!(all.len(), pins.len(), "a pin used twice: {pins:?}");
}

/// The texts of the shift chain's diagram.
fn chain_diagram() -> Vec<String> {
    let svg = fs::read_to_string(root().join("schematics/sensor-shift-chain.svg")).expect("svg");
    svg_texts(&svg)
}

/// The finding: the schematic called the chip next to MISO (U1) squares 0-7 while the driver
/// read the first byte as the last chip (a piece on a1 reported as cell 112). Now the order is
/// one fact in the pin map: the diagram labels every chip from it and the driver builds its
/// map from the same file (embedded at build time). A piece on each chip's input A, read
/// through the driver on an SPI mock, lands on the square the diagram names.
#[test]
fn the_chain_order_is_one_fact_for_the_pin_map_the_diagram_and_the_driver() {
    use embedded_hal_mock::eh1::digital::{Mock as Pin, State, Transaction as PinTx};
    use embedded_hal_mock::eh1::spi::{Mock as Spi, Transaction as SpiTx};
    use firmware::doctor::BoardShape;
    use firmware::drivers::shift_chain::{ChainOrder, ShiftChain, ShiftChainConfig};
    use firmware::sim::NoDelay;

    let map = pinmap();
    let int = |path: &str| lookup(&map, path).and_then(Value::as_integer).expect(path);
    let (columns, rows) = (int("board.columns"), int("board.rows"));
    let squares = usize::try_from(columns * rows).unwrap();
    let chips = usize::try_from(int("sensor.shift_chain.chips")).unwrap();
    let chain = lookup(&map, "sensor.shift_chain.chain")
        .and_then(Value::as_array)
        .expect("the pin map states the chain's order");
    assert_eq!(chain.len(), chips, "one chain entry per chip");

    // The embedded pin map is this file, and the driver reads the same order from it.
    let on_disk = fs::read_to_string(root().join("schematics/pinmap.toml")).unwrap();
    assert_eq!(firmware::drivers::shift_chain::PIN_MAP, on_disk);
    let order = ChainOrder::schematic().expect("the driver reads the pin map's chain");
    assert_eq!(order, ChainOrder::from_pin_map(&on_disk).unwrap());

    let shape = BoardShape {
        columns: u8::try_from(columns).unwrap(),
        rows: u8::try_from(rows).unwrap(),
    };
    let texts = chain_diagram();
    let mut covered = BTreeSet::new();
    for (k, entry) in chain.iter().enumerate() {
        let reference = entry["ref"].as_str().expect("ref");
        let first = u16::try_from(entry["first_cell"].as_integer().unwrap()).unwrap();
        assert_eq!(order.chips()[k].reference, reference);
        covered.extend(first..first + 8);
        // The diagram's label for this chip.
        let prefix = format!("{reference}: input A (D0) = ");
        let label = texts
            .iter()
            .find(|t| t.starts_with(&prefix))
            .unwrap_or_else(|| panic!("the diagram does not label {reference}"));
        let named_a = label[prefix.len()..].split(',').next().unwrap().to_string();

        // A piece on input A of chip k, read through the driver.
        let mut bytes = vec![0xFFu8; chips];
        bytes[k] = 0b1111_1110;
        bytes.extend([order.check().pattern, order.check().past_end]);
        let mut spi = Spi::new(&[
            SpiTx::transaction_start(),
            SpiTx::read_vec(bytes),
            SpiTx::transaction_end(),
        ]);
        let mut load = Pin::new(&[
            PinTx::set(State::High),
            PinTx::set(State::Low),
            PinTx::set(State::High),
        ]);
        let config = ShiftChainConfig {
            cells: Some(order.cell_map(chips, squares).unwrap()),
            ..ShiftChainConfig::new(chips * 8, order.check())
        };
        let mut driver = ShiftChain::new(spi.clone(), load.clone(), NoDelay, config).unwrap();
        let seen: Vec<String> = driver
            .scan()
            .unwrap()
            .iter()
            .map(|c| shape.name(c))
            .collect();
        assert_eq!(seen, [named_a], "{reference} input A");
        spi.done();
        load.done();
    }
    assert_eq!(
        covered,
        (0..u16::try_from(squares).unwrap()).collect(),
        "every square on exactly one chip input"
    );
    // U1 is the chip nearest MISO, and reads a1.
    assert!(texts
        .iter()
        .any(|t| t == "U1: input A (D0) = a1, H (D7) = h1"));
    // How a longer chain goes on (tray slots, a larger board) is one fact too: the pin map
    // states it, the diagram says it, and the driver reads the chip after the last one so.
    assert_eq!(
        lookup(&map, "sensor.shift_chain.longer").and_then(Value::as_str),
        Some("next")
    );
    let after = covered.iter().max().unwrap() + 1;
    let said = format!("reads the next 8 cells from cell {after} on");
    assert!(
        texts.iter().any(|t| t.contains(&said)),
        "the diagram lacks {said:?}"
    );
    let longer = order.cell_map(chips + 1, squares + 8).unwrap();
    assert_eq!(
        longer.cell(chips * 8 + 7),
        Some(firmware::sensing::SensedCell::new(after + 7))
    );
}

/// The check chip closing the chain: the pin map states its pattern and its tied DS, the
/// diagram draws them, and the driver checks what the pin map says.
#[test]
fn the_check_chip_is_drawn_and_checked_as_the_pin_map_states() {
    let map = pinmap();
    let check = lookup(&map, "sensor.shift_chain.check")
        .and_then(Value::as_table)
        .expect("the pin map states the check chip");
    let pattern = check["pattern"].as_integer().expect("pattern");
    let reference = check["ref"].as_str().expect("ref");
    assert_eq!(check["ds"].as_str(), Some("GND"));
    assert!(
        pattern != 0x00 && pattern != 0xFF,
        "a floating MISO must not pass"
    );
    let pattern = u8::try_from(pattern).unwrap();
    assert_ne!(
        pattern.reverse_bits(),
        pattern,
        "a wrong bit order must not pass"
    );
    let order = firmware::drivers::shift_chain::ChainOrder::schematic().unwrap();
    assert_eq!(order.check().pattern, pattern);
    assert_eq!(order.check().past_end, 0x00);
    assert_eq!(order.check_reference(), reference);
    let texts = chain_diagram();
    let drawn = format!("D7..D0 = {pattern:08b} = 0x{pattern:02X}");
    assert!(texts.contains(&drawn), "the diagram lacks {drawn:?}");
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with(&format!("then {reference}, the check chip"))),
        "the diagram names the check chip {reference}"
    );
    // The chain's chips and the check chip have their own references, the buffer the next.
    let chips = lookup(&map, "sensor.shift_chain.chips")
        .and_then(Value::as_integer)
        .unwrap();
    assert_eq!(reference, format!("U{}", chips + 1));
    assert!(
        texts.iter().any(|t| t == &format!("U{}", chips + 2)),
        "the 74HC125"
    );
}

/// The counts the docs give for Napoléon's map on a Pi are the shipped layout's: its sensed
/// slots (towns, battle boards and eliminated trays: one reed switch each), the grid's squares
/// left unwired, and the chain's chips. They were written as 611 slots and 195 unwired squares,
/// a count no version of the layout file had.
#[test]
fn the_docs_count_napoleons_slots_and_chips_from_the_shipped_layout() {
    use firmware::referee::games::napoleon::{NapoleonLayout, DEFAULT_LAYOUT};
    let campaign = boards::napoleon::Campaign::standard().expect("the default campaign");
    let layout = NapoleonLayout::parse(DEFAULT_LAYOUT, &campaign).expect("the shipped layout");
    let slots = layout.places().count();
    let (columns, rows) = layout.grid();
    let squares = usize::from(columns) * usize::from(rows);
    let chips = squares.div_ceil(8);
    let read = |relative: &str| {
        let text = fs::read_to_string(root().join(relative)).expect("readable");
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let (readme, schematics, bom) = (
        read("README.md"),
        read("schematics/README.md"),
        read("schematics/BOM.md"),
    );
    for (doc, text, said) in [
        (
            "README.md",
            &readme,
            format!(
                "its shipped layout's {slots} slots (towns, battle boards, eliminated trays) on \
                 a {columns} x {rows} grid read on a chain of {chips} 74HC165s"
            ),
        ),
        (
            "schematics/README.md",
            &schematics,
            format!(
                "{slots} of its {squares} squares are slots: towns, battle boards and \
                 eliminated trays"
            ),
        ),
        (
            "schematics/BOM.md",
            &bom,
            format!("a {columns} x {rows} grid whose {slots} slots"),
        ),
        (
            "schematics/BOM.md",
            &bom,
            format!(
                "| {slots} (+20 spare) | reed switches | one per slot; the grid's {} other \
                 squares stay unwired |",
                squares - slots
            ),
        ),
        (
            "schematics/BOM.md",
            &bom,
            format!(
                "| {} | 74HC165 | {chips} square chips ({} inputs: the grid's {squares} cells",
                chips + 1,
                chips * 8
            ),
        ),
    ] {
        assert!(text.contains(&said), "{doc} lacks {said:?}");
    }
}
