//! The `umpire` configuration file: the game, the wiring and pin map, the buses and their speeds.
//!
//! A TOML file (default `/etc/umpire/umpire.toml`). Every setting is checked and every problem
//! is reported at once with the line it is on and how to fix it, so a builder editing the file
//! on a Pi sees the whole list, not one error per restart. Pins are BCM GPIO numbers.
//!
//! ```toml
//! [game]
//! name = "classic"          # classic | duel
//! rules = "isf"             # isf | plain
//!
//! [board]
//! columns = 10
//! rows = 10
//! scan_hz = 200             # at least 100
//!
//! [sensor]
//! kind = "matrix"           # matrix | shift-chain | pcf8575 | simulated
//! rows = [5, 6, 12, 13, 16, 19, 20, 21, 26, 4]
//! columns = [17, 27, 22, 23, 24, 25, 14, 15, 18, 0]
//! active_low = true
//! settle_us = 10
//!
//! [display]
//! i2c_bus = 1
//! address = 0x3C
//! speed_hz = 400000
//!
//! [buttons]
//! ok = ...
//! ```

use std::collections::BTreeSet;
use std::fmt;
use std::path::PathBuf;

use toml_span::value::{Table, ValueInner};

/// Which game the umpire referees at start-up (the menu can change it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameName {
    /// Stratego Original.
    Classic,
    /// Stratego Duel.
    Duel,
}

/// Which repetition rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesName {
    /// ISF: two-squares and more-squares rules on.
    Isf,
    /// The rulebook's plain text: both off.
    Plain,
}

/// An SPI device: bus, chip select and clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpiConfig {
    /// SPI bus (0 or 1 on a Pi's header).
    pub bus: u8,
    /// Chip-select line of that bus.
    pub chip_select: u8,
    /// Clock in Hz.
    pub speed_hz: u32,
}

/// How occupancy is sensed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SensorConfig {
    /// A reed-switch diode matrix: rows driven one at a time, columns read.
    Matrix {
        /// Row drive pins.
        rows: Vec<u8>,
        /// Column sense pins.
        columns: Vec<u8>,
        /// Whether a closed switch reads low.
        active_low: bool,
        /// Settle time after selecting a row, in microseconds.
        settle_us: u32,
    },
    /// A 74HC165 chain read over SPI, one input per square.
    ShiftChain {
        /// The SPI device.
        spi: SpiConfig,
        /// The parallel-load (SH/LD) pin.
        load_pin: u8,
        /// Chips in the chain (8 inputs each).
        chips: u8,
        /// Whether a closed switch reads low.
        active_low: bool,
    },
    /// PCF8575 I2C expanders, 16 inputs each.
    Pcf8575 {
        /// The I2C bus.
        i2c_bus: u8,
        /// One address per chip, 0x20-0x27.
        addresses: Vec<u8>,
        /// Bus clock in Hz.
        speed_hz: u32,
    },
    /// No hardware: the simulated board (for `umpire doctor` and `calibrate` on a laptop).
    Simulated,
}

/// The SSD1306 OLED.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DisplayConfig {
    /// The I2C bus.
    pub i2c_bus: u8,
    /// 0x3C or 0x3D.
    pub address: u8,
    /// Bus clock in Hz.
    pub speed_hz: u32,
}

/// The MFRC522 reader and its antenna multiplexer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NfcConfig {
    /// The SPI device.
    pub spi: SpiConfig,
    /// The reader's reset pin, if wired.
    pub reset_pin: Option<u8>,
    /// Multiplexer address lines, least significant first.
    pub mux_pins: Vec<u8>,
}

/// The buttons and the optional buzzer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ButtonsConfig {
    /// OK.
    pub ok: u8,
    /// Back / Undo.
    pub back: u8,
    /// Die.
    pub die: u8,
    /// Buzzer pin, if fitted.
    pub buzzer: Option<u8>,
}

/// The whole configuration, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The game at start-up.
    pub game: GameName,
    /// Its rules.
    pub rules: RulesName,
    /// Board columns.
    pub columns: u8,
    /// Board rows.
    pub rows: u8,
    /// Scans per second.
    pub scan_hz: u32,
    /// How occupancy is sensed.
    pub sensor: SensorConfig,
    /// The OLED, if fitted.
    pub display: Option<DisplayConfig>,
    /// The NFC reader, if fitted.
    pub nfc: Option<NfcConfig>,
    /// The buttons (required on hardware; ignored by the simulated board).
    pub buttons: Option<ButtonsConfig>,
    /// Where game journals are kept.
    pub journal_dir: PathBuf,
}

/// One problem in a configuration file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigProblem {
    /// 1-based line of the file.
    pub line: usize,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl fmt::Display for ConfigProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Every problem found in a configuration file.
pub type ConfigProblems = boards::Problems<ConfigProblem>;

/// Highest BCM GPIO number on the 40-pin header.
const MAX_GPIO: i64 = 27;

struct Reader<'a> {
    text: &'a str,
    problems: Vec<ConfigProblem>,
}

impl Reader<'_> {
    fn line_of(&self, offset: usize) -> usize {
        self.text[..offset.min(self.text.len())]
            .bytes()
            .filter(|&b| b == b'\n')
            .count()
            + 1
    }

    fn problem(&mut self, at: usize, message: String) {
        let line = self.line_of(at);
        self.problems.push(ConfigProblem { line, message });
    }

    /// Takes a sub-table, reporting keys the section does not know.
    fn section<'de>(
        &mut self,
        root: &mut Table<'de>,
        name: &str,
        known: &[&str],
    ) -> Option<(Table<'de>, usize)> {
        let mut value = root.remove(name)?;
        let at = value.span.start;
        match value.take() {
            ValueInner::Table(t) => {
                for key in t.keys() {
                    if !known.contains(&key.name.as_ref()) {
                        self.problem(
                            key.span.start,
                            format!(
                                "unknown setting `{}` in [{name}]: check the spelling (known: {})",
                                key.name,
                                known.join(", ")
                            ),
                        );
                    }
                }
                Some((t, at))
            }
            other => {
                self.problem(
                    at,
                    format!(
                        "`{name}` must be a section [{name}], not {}",
                        a(other.type_str())
                    ),
                );
                None
            }
        }
    }

    fn int(
        &mut self,
        t: &mut Table<'_>,
        key: &str,
        section: &str,
        range: (i64, i64),
    ) -> Option<(i64, usize)> {
        let mut v = t.remove(key)?;
        let at = v.span.start;
        match v.take() {
            ValueInner::Integer(i) if i >= range.0 && i <= range.1 => Some((i, at)),
            ValueInner::Integer(i) => {
                self.problem(
                    at,
                    format!(
                        "[{section}] {key} = {i} is out of range: use {} to {}",
                        range.0, range.1
                    ),
                );
                None
            }
            other => {
                self.problem(
                    at,
                    format!(
                        "[{section}] {key} must be a whole number, not {}",
                        a(other.type_str())
                    ),
                );
                None
            }
        }
    }

    fn required_int(
        &mut self,
        t: &mut Table<'_>,
        key: &str,
        section: (&str, usize),
        range: (i64, i64),
    ) -> Option<(i64, usize)> {
        if !t.contains_key(key) {
            self.problem(
                section.1,
                format!(
                    "[{}] needs `{key} = ...` ({} to {})",
                    section.0, range.0, range.1
                ),
            );
            return None;
        }
        self.int(t, key, section.0, range)
    }

    fn string(
        &mut self,
        t: &mut Table<'_>,
        key: &str,
        section: &str,
        choices: &[&str],
    ) -> Option<(String, usize)> {
        let mut v = t.remove(key)?;
        let at = v.span.start;
        match v.take() {
            ValueInner::String(s) if choices.is_empty() || choices.contains(&s.as_ref()) => {
                Some((s.into_owned(), at))
            }
            ValueInner::String(s) => {
                self.problem(
                    at,
                    format!(
                        "[{section}] {key} = \"{s}\" is not known: use one of {}",
                        choices.join(", ")
                    ),
                );
                None
            }
            other => {
                self.problem(
                    at,
                    format!(
                        "[{section}] {key} must be a string, not {}",
                        a(other.type_str())
                    ),
                );
                None
            }
        }
    }

    fn boolean(&mut self, t: &mut Table<'_>, key: &str, section: &str) -> Option<bool> {
        let mut v = t.remove(key)?;
        let at = v.span.start;
        match v.take() {
            ValueInner::Boolean(b) => Some(b),
            other => {
                self.problem(
                    at,
                    format!(
                        "[{section}] {key} must be true or false, not {}",
                        a(other.type_str())
                    ),
                );
                None
            }
        }
    }

    fn pins(
        &mut self,
        t: &mut Table<'_>,
        key: &str,
        section: &str,
    ) -> Option<(Vec<(u8, usize)>, usize)> {
        let mut v = t.remove(key)?;
        let at = v.span.start;
        match v.take() {
            ValueInner::Array(items) => {
                let mut pins = Vec::new();
                for mut item in items {
                    let item_at = item.span.start;
                    match item.take() {
                        ValueInner::Integer(p) if (0..=MAX_GPIO).contains(&p) => {
                            pins.push((p as u8, item_at));
                        }
                        _ => self.problem(
                            item_at,
                            format!(
                                "[{section}] {key}: each pin is a BCM GPIO number 0 to {MAX_GPIO}"
                            ),
                        ),
                    }
                }
                Some((pins, at))
            }
            other => {
                self.problem(
                    at,
                    format!(
                        "[{section}] {key} must be a list of pins like [5, 6], not {}",
                        a(other.type_str())
                    ),
                );
                None
            }
        }
    }
}

/// Which pins something uses, for the conflict check.
struct PinUse {
    pin: u8,
    at: usize,
    what: String,
}

impl Config {
    /// Reads and checks a configuration file's text.
    ///
    /// # Errors
    /// Every problem, each with its line and how to fix it.
    pub fn parse(text: &str) -> Result<Config, ConfigProblems> {
        let mut r = Reader {
            text,
            problems: Vec::new(),
        };
        let mut root = match toml_span::parse(text) {
            Ok(mut v) => match v.take() {
                ValueInner::Table(t) => t,
                _ => Table::new(),
            },
            Err(e) => {
                let line = e
                    .line_info
                    .map_or_else(|| r.line_of(e.span.start), |(l, _)| l + 1);
                return Err(boards::Problems(vec![ConfigProblem {
                    line,
                    message: format!("this is not valid TOML: {e}"),
                }]));
            }
        };
        let mut pins: Vec<PinUse> = Vec::new();
        let mut i2c_buses: BTreeSet<u8> = BTreeSet::new();
        let mut spi_devices: Vec<(SpiConfig, usize, &str)> = Vec::new();

        // [game]
        let (mut game, mut rules) = (GameName::Classic, RulesName::Isf);
        if let Some((mut t, _)) = r.section(&mut root, "game", &["name", "rules"]) {
            if let Some((name, _)) = r.string(&mut t, "name", "game", &["classic", "duel"]) {
                game = if name == "duel" {
                    GameName::Duel
                } else {
                    GameName::Classic
                };
            }
            if let Some((name, _)) = r.string(&mut t, "rules", "game", &["isf", "plain"]) {
                rules = if name == "plain" {
                    RulesName::Plain
                } else {
                    RulesName::Isf
                };
            }
        }

        // [board]
        let (mut columns, mut rows, mut scan_hz) = (10u8, 10u8, 200u32);
        if let Some((mut t, _)) = r.section(&mut root, "board", &["columns", "rows", "scan_hz"]) {
            if let Some((v, _)) = r.int(&mut t, "columns", "board", (1, 16)) {
                columns = v as u8;
            }
            if let Some((v, _)) = r.int(&mut t, "rows", "board", (1, 16)) {
                rows = v as u8;
            }
            if let Some((v, at)) = r.int(&mut t, "scan_hz", "board", (1, 2000)) {
                if v < 100 {
                    r.problem(at, format!("[board] scan_hz = {v} is too slow: scan at 100 Hz or faster so a quick move is not missed"));
                }
                scan_hz = v as u32;
            }
        }
        let cells = usize::from(columns) * usize::from(rows);

        // [sensor]
        let mut sensor = SensorConfig::Simulated;
        match r.section(
            &mut root,
            "sensor",
            &["kind", "rows", "columns", "active_low", "settle_us", "spi_bus", "chip_select", "speed_hz", "load_pin", "chips", "i2c_bus", "addresses"],
        ) {
            None => r.problem(1, "no [sensor] section: add one with kind = \"matrix\", \"shift-chain\", \"pcf8575\" or \"simulated\"".into()),
            Some((mut t, at)) => {
                let has_kind = t.contains_key("kind");
                let kind = r.string(&mut t, "kind", "sensor", &["matrix", "shift-chain", "pcf8575", "simulated"]);
                match kind.as_ref().map(|(k, _)| k.as_str()) {
                    None if has_kind => {}
                    None => r.problem(at, "[sensor] needs kind = \"matrix\", \"shift-chain\", \"pcf8575\" or \"simulated\"".into()),
                    Some("matrix") => {
                        let row_pins = r.pins(&mut t, "rows", "sensor");
                        let col_pins = r.pins(&mut t, "columns", "sensor");
                        let active_low = r.boolean(&mut t, "active_low", "sensor").unwrap_or(true);
                        let settle_us = r.int(&mut t, "settle_us", "sensor", (0, 1000)).map_or(10, |v| v.0 as u32);
                        match (row_pins, col_pins) {
                            (Some((rp, rat)), Some((cp, _))) => {
                                if rp.len() * cp.len() < cells {
                                    r.problem(rat, format!("[sensor] a {}x{} matrix senses {} squares but the board has {cells}: add row or column pins", rp.len(), cp.len(), rp.len() * cp.len()));
                                }
                                for &(p, a) in &rp {
                                    pins.push(PinUse { pin: p, at: a, what: "[sensor] matrix row".into() });
                                }
                                for &(p, a) in &cp {
                                    pins.push(PinUse { pin: p, at: a, what: "[sensor] matrix column".into() });
                                }
                                sensor = SensorConfig::Matrix {
                                    rows: rp.iter().map(|p| p.0).collect(),
                                    columns: cp.iter().map(|p| p.0).collect(),
                                    active_low,
                                    settle_us,
                                };
                            }
                            _ => r.problem(at, "[sensor] a matrix needs rows = [pins] and columns = [pins]".into()),
                        }
                    }
                    Some("shift-chain") => {
                        let spi = spi_config(&mut r, &mut t, "sensor", at, 10_000_000);
                        let load = r.required_int(&mut t, "load_pin", ("sensor", at), (0, MAX_GPIO));
                        let chips = r.required_int(&mut t, "chips", ("sensor", at), (1, 32));
                        let active_low = r.boolean(&mut t, "active_low", "sensor").unwrap_or(true);
                        if let Some((c, cat)) = chips {
                            if (c as usize) * 8 < cells {
                                r.problem(cat, format!("[sensor] {c} chips give {} inputs but the board has {cells} squares: chain {} chips", c * 8, cells.div_ceil(8)));
                            }
                        }
                        if let (Some(spi), Some((load, lat)), Some((chips, _))) = (spi, load, chips) {
                            pins.push(PinUse { pin: load as u8, at: lat, what: "[sensor] load_pin".into() });
                            spi_devices.push((spi, at, "[sensor]"));
                            sensor = SensorConfig::ShiftChain { spi, load_pin: load as u8, chips: chips as u8, active_low };
                        }
                    }
                    Some("pcf8575") => {
                        let bus = r.required_int(&mut t, "i2c_bus", ("sensor", at), (0, 1));
                        let speed = r.int(&mut t, "speed_hz", "sensor", (10_000, 400_000)).map_or(400_000, |v| v.0 as u32);
                        let mut addresses = Vec::new();
                        if let Some(mut v) = t.remove("addresses") {
                            let vat = v.span.start;
                            if let ValueInner::Array(items) = v.take() {
                                for mut item in items {
                                    let iat = item.span.start;
                                    match item.take() {
                                        ValueInner::Integer(a) if (0x20..=0x27).contains(&a) => {
                                            if addresses.contains(&(a as u8)) {
                                                r.problem(iat, format!("[sensor] address {a:#04x} is listed twice: give each chip its own address with its A0-A2 pins"));
                                            }
                                            addresses.push(a as u8);
                                        }
                                        _ => r.problem(iat, "[sensor] a PCF8575 address is 0x20 to 0x27 (set by A0-A2)".into()),
                                    }
                                }
                            } else {
                                r.problem(vat, "[sensor] addresses must be a list like [0x20, 0x21]".into());
                            }
                        } else {
                            r.problem(at, "[sensor] pcf8575 needs addresses = [0x20, ...]".into());
                        }
                        if addresses.len() * 16 < cells && !addresses.is_empty() {
                            r.problem(at, format!("[sensor] {} expanders give {} inputs but the board has {cells} squares: add {} more", addresses.len(), addresses.len() * 16, cells.div_ceil(16) - addresses.len()));
                        }
                        if let Some((bus, _)) = bus {
                            i2c_buses.insert(bus as u8);
                            sensor = SensorConfig::Pcf8575 { i2c_bus: bus as u8, addresses, speed_hz: speed };
                        }
                    }
                    Some(_) => sensor = SensorConfig::Simulated,
                }
            }
        }

        // [display]
        let mut display = None;
        if let Some((mut t, at)) =
            r.section(&mut root, "display", &["i2c_bus", "address", "speed_hz"])
        {
            let bus = r.required_int(&mut t, "i2c_bus", ("display", at), (0, 1));
            let address = r
                .int(&mut t, "address", "display", (0, 0x7F))
                .map_or(0x3C, |v| v.0);
            if address != 0x3C && address != 0x3D {
                r.problem(at, format!("[display] address {address:#04x}: an SSD1306 answers at 0x3C or 0x3D (the jumper on the back of the module)"));
            }
            let speed = match r.int(&mut t, "speed_hz", "display", (10_000, 1_000_000)) {
                Some((v, vat)) if v > 400_000 => {
                    r.problem(vat, format!("[display] speed_hz = {v} is above the Pi's documented I2C maximum of 400000: use 400000"));
                    400_000
                }
                Some((v, _)) => v as u32,
                None => 400_000,
            };
            if let Some((bus, _)) = bus {
                i2c_buses.insert(bus as u8);
                display = Some(DisplayConfig {
                    i2c_bus: bus as u8,
                    address: address as u8,
                    speed_hz: speed,
                });
            }
        }

        // [nfc]
        let mut nfc = None;
        if let Some((mut t, at)) = r.section(
            &mut root,
            "nfc",
            &[
                "spi_bus",
                "chip_select",
                "speed_hz",
                "reset_pin",
                "mux_pins",
            ],
        ) {
            let spi = spi_config(&mut r, &mut t, "nfc", at, 10_000_000);
            let reset = r.int(&mut t, "reset_pin", "nfc", (0, MAX_GPIO));
            let mux = r.pins(&mut t, "mux_pins", "nfc").unwrap_or_default();
            if let Some((p, a)) = reset {
                pins.push(PinUse {
                    pin: p as u8,
                    at: a,
                    what: "[nfc] reset_pin".into(),
                });
            }
            for &(p, a) in &mux.0 {
                pins.push(PinUse {
                    pin: p,
                    at: a,
                    what: "[nfc] mux pin".into(),
                });
            }
            if mux.0.len() < 8 && (1usize << mux.0.len()) < cells {
                r.problem(mux.1.max(at), format!("[nfc] {} mux address lines reach {} antennas but the board has {cells} squares: add address lines", mux.0.len(), 1usize << mux.0.len()));
            }
            if let Some(spi) = spi {
                spi_devices.push((spi, at, "[nfc]"));
                nfc = Some(NfcConfig {
                    spi,
                    reset_pin: reset.map(|v| v.0 as u8),
                    mux_pins: mux.0.iter().map(|p| p.0).collect(),
                });
            }
        }

        // [buttons]
        let mut buttons = None;
        if let Some((mut t, at)) = r.section(&mut root, "buttons", &["ok", "back", "die", "buzzer"])
        {
            let has_buzzer = t.contains_key("buzzer");
            let mut get = |r: &mut Reader<'_>, key: &str| {
                let v = r.required_int(&mut t, key, ("buttons", at), (0, MAX_GPIO));
                if let Some((p, a)) = v {
                    pins.push(PinUse {
                        pin: p as u8,
                        at: a,
                        what: format!("[buttons] {key}"),
                    });
                }
                v.map(|v| v.0 as u8)
            };
            let ok = get(&mut r, "ok");
            let back = get(&mut r, "back");
            let die = get(&mut r, "die");
            let buzzer = if has_buzzer {
                get(&mut r, "buzzer")
            } else {
                None
            };
            if let (Some(ok), Some(back), Some(die)) = (ok, back, die) {
                buttons = Some(ButtonsConfig {
                    ok,
                    back,
                    die,
                    buzzer,
                });
            }
        } else if sensor != SensorConfig::Simulated {
            r.problem(
                1,
                "no [buttons] section: the umpire needs ok, back and die buttons (pins)".into(),
            );
        }

        // [journal]
        let mut journal_dir = PathBuf::from("/var/lib/umpire");
        if let Some((mut t, _)) = r.section(&mut root, "journal", &["dir"]) {
            if let Some((dir, _)) = r.string(&mut t, "dir", "journal", &[]) {
                journal_dir = PathBuf::from(dir);
            }
        }

        for (key, value) in &root {
            r.problem(
                value.span.start.min(key.span.start),
                format!("unknown section or setting `{}`: the sections are [game], [board], [sensor], [display], [nfc], [buttons], [journal]", key.name),
            );
        }

        // Fixed pins of the buses in use are not free for other wiring.
        for bus in &i2c_buses {
            let (sda, scl) = if *bus == 1 { (2, 3) } else { (0, 1) };
            pins.push(PinUse {
                pin: sda,
                at: 0,
                what: format!("I2C bus {bus} SDA"),
            });
            pins.push(PinUse {
                pin: scl,
                at: 0,
                what: format!("I2C bus {bus} SCL"),
            });
        }
        let spi_buses: BTreeSet<u8> = spi_devices.iter().map(|d| d.0.bus).collect();
        for bus in &spi_buses {
            let fixed: &[(u8, &str)] = if *bus == 0 {
                &[(9, "MISO"), (10, "MOSI"), (11, "SCLK")]
            } else {
                &[(19, "MISO"), (20, "MOSI"), (21, "SCLK")]
            };
            for &(p, name) in fixed {
                pins.push(PinUse {
                    pin: p,
                    at: 0,
                    what: format!("SPI bus {bus} {name}"),
                });
            }
        }
        for (spi, at, what) in &spi_devices {
            let ce = match (spi.bus, spi.chip_select) {
                (0, 0) => Some(8),
                (0, 1) => Some(7),
                (1, 0) => Some(18),
                (1, 1) => Some(17),
                (1, 2) => Some(16),
                _ => None,
            };
            match ce {
                Some(p) => pins.push(PinUse {
                    pin: p,
                    at: *at,
                    what: format!("{what} chip select (SPI{} CE{})", spi.bus, spi.chip_select),
                }),
                None => r.problem(
                    *at,
                    format!(
                        "{what} SPI bus {} has no chip select {}: SPI0 has CE0-CE1, SPI1 CE0-CE2",
                        spi.bus, spi.chip_select
                    ),
                ),
            }
        }
        for (i, a) in spi_devices.iter().enumerate() {
            for b in &spi_devices[..i] {
                if a.0.bus == b.0.bus && a.0.chip_select == b.0.chip_select {
                    r.problem(
                        a.1,
                        format!(
                            "{} and {} share SPI{} CE{}: give each device its own chip select",
                            b.2, a.2, a.0.bus, a.0.chip_select
                        ),
                    );
                }
            }
        }
        for (i, a) in pins.iter().enumerate() {
            if let Some(b) = pins[..i].iter().find(|b| b.pin == a.pin) {
                let at = if a.at != 0 { a.at } else { b.at };
                r.problem(
                    at,
                    format!(
                        "GPIO {} is used twice, by {} and by {}: move one of them to a free pin",
                        a.pin, b.what, a.what
                    ),
                );
            }
        }

        if !r.problems.is_empty() {
            r.problems.sort_by_key(|p| p.line);
            return Err(boards::Problems(r.problems));
        }
        Ok(Config {
            game,
            rules,
            columns,
            rows,
            scan_hz,
            sensor,
            display,
            nfc,
            buttons,
            journal_dir,
        })
    }

    /// Every GPIO pin this configuration wires, with what it is for (bus pins included).
    pub fn gpio_pins(&self) -> Vec<(u8, String)> {
        let mut out = Vec::new();
        match &self.sensor {
            SensorConfig::Matrix { rows, columns, .. } => {
                out.extend(rows.iter().map(|&p| (p, "matrix row".to_string())));
                out.extend(columns.iter().map(|&p| (p, "matrix column".to_string())));
            }
            SensorConfig::ShiftChain { load_pin, .. } => {
                out.push((*load_pin, "74HC165 load".into()))
            }
            SensorConfig::Pcf8575 { .. } | SensorConfig::Simulated => {}
        }
        if let Some(nfc) = &self.nfc {
            out.extend(nfc.reset_pin.map(|p| (p, "MFRC522 reset".to_string())));
            out.extend(
                nfc.mux_pins
                    .iter()
                    .map(|&p| (p, "antenna mux address".to_string())),
            );
        }
        if let Some(b) = &self.buttons {
            out.push((b.ok, "button OK".into()));
            out.push((b.back, "button Back".into()));
            out.push((b.die, "button Die".into()));
            out.extend(b.buzzer.map(|p| (p, "buzzer".to_string())));
        }
        out
    }
}

fn spi_config(
    r: &mut Reader<'_>,
    t: &mut Table<'_>,
    section: &str,
    at: usize,
    max_hz: i64,
) -> Option<SpiConfig> {
    let bus = r.required_int(t, "spi_bus", (section, at), (0, 1));
    let cs = r.required_int(t, "chip_select", (section, at), (0, 2));
    let speed = r
        .int(t, "speed_hz", section, (1_000, max_hz))
        .map_or(1_000_000, |v| v.0 as u32);
    Some(SpiConfig {
        bus: bus?.0 as u8,
        chip_select: cs?.0 as u8,
        speed_hz: speed,
    })
}

/// "a string", "an integer".
fn a(noun: &str) -> String {
    if noun.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {noun}")
    } else {
        format!("a {noun}")
    }
}
