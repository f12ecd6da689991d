//! The `umpire` configuration file: the game, the board, and how the board is wired to the Pi.
//!
//! A TOML file (default `/etc/umpire/umpire.toml`, installed from `firmware/debian/umpire.toml`)
//! shaped like the project's pin map (`schematics/pinmap.toml`): the same sections, the same
//! keys, a plain BCM GPIO number where the pin map has a signal. Every setting is checked and
//! every problem is reported at once with the line it is on and how to fix it, so a builder
//! editing the file on a Pi sees the whole list, not one error per restart.
//!
//! ```toml
//! [game]
//! name = "classic"          # classic | duel | waterloo | piecepack | sa-belle-alliance | napoleon
//! # variant = "expert"      # all but classic and duel: a variant as the menu names it
//! rules = "isf"             # isf | plain (Stratego Original and Duel)
//!
//! [waterloo]                # optional: the board's data file (default: the shipped one)
//! layout = "waterloo-layout.txt"   # relative: in this file's folder
//!
//! [sba]                     # optional: Sa Belle Alliance's data files (default: the shipped ones)
//! cards = "my-cards.toml"   # the card set (boards/src/sba/example-cards.toml's shape)
//! layout = "sba-layout.txt" # which sensed square is each box's space
//!
//! [napoleon]                # optional: Napoléon 1815's data files (default: the shipped ones)
//! map = "napoleon-map.txt"  # towns, roads, rivers, set-up areas, supply cities, terrain pool
//! order_of_battle = "oob.txt"   # the 58 blocks
//! turns = "turns.txt"       # the turn track
//! layout = "napoleon-layout.txt"   # which sensed squares are each town's slots, the battle boards
//! reveal_on_contact = false # true: 6.2.4's option, a block in battle seen once it fires or fights
//!
//! [board]
//! columns = 12
//! rows = 10
//! scan_hz = 200             # 100 to 1000
//! # cells = ["a1..l1", "l2..a2", "-", "a3"]   # input -> square, when wired in another order
//!
//! [[board.tray]]            # off-board tray slots, sensed on the inputs after the squares
//! kind = "reserve"          # reserve | staging | withdrawn | eliminated
//! seat = 1                  # 1 (Red, Allied) or 2
//! slots = 10
//!
//! [sensing]                 # optional: the sensing model's timing, a key left out its default
//! settle_ms = 150           # 50 to 750: how long a change must hold before it is reported
//! # also debounce_samples, debounce_span_ms, tag_wait_ms, chatter_limit, decide_early
//!
//! [sensor]
//! kind = "shift_chain"      # shift_chain | matrix | gpio_matrix | expanders | simulated
//!
//! [sensor.shift_chain]      # 74HC165s on SPI, one input per square
//! bus = "spi0"
//! chip_select = "ce1"
//! chips = 15                # square chips (the check chip that ends the chain not counted)
//! spi_hz = 1_000_000
//! load = 24
//!
//! [sensor.matrix]           # a diode matrix, rows and columns on two PCF8575s
//! bus = "i2c1"
//! rows = 10
//! columns = 12
//! row_expander = 0x20
//! column_expander = 0x21
//!
//! # [sensor.gpio_matrix]    rows = [pins], columns = [pins], active_low, settle_us
//! # [sensor.expanders]      bus = "i2c1", addresses = [0x20, ...]: one PCF8575 input a square
//!
//! [i2c1]
//! device = "/dev/i2c-1"
//! [spi0]
//! device = "/dev/spidev0"   # + ".0" for CE0, ".1" for CE1
//!
//! [oled]
//! bus = "i2c1"
//! address = 0x3C
//!
//! [buttons]
//! ok = 5
//! back = 6
//! die = 13
//!
//! [buzzer]
//! drive = 12
//!
//! [nfc]                     # optional: without it pieces are set up by groups
//! enabled = true
//! bus = "spi0"
//! chip_select = "ce0"       # enables the 74HC154 chip-select decoder
//! spi_hz = 1_000_000
//! reset = 25                # every module's NRSTPD (active low)
//! address = [17, 27, 22, 23] # decoder A0-A3: reader n is decoder output n
//! # tags = "tags.txt"       # each piece's or block's tag, registered once: `04:A2:1B:7C block
//!                           # NAPOLEON`, `04:A2:1B:7D piece red Scout` a line
//!
//! [[nfc.reader]]            # one MFRC522 module; the squares over its antenna
//! cells = ["a1", "b1"]
//! [[nfc.reader]]
//! cells = ["c1", "d1"]
//!
//! [journal]
//! dir = "/var/lib/umpire"
//!
//! [leds]                    # optional WS2812B guidance: one LED per square and tray slot
//! enabled = false           # off unless set to true
//! bus = "spi1"              # a bus of its own: only MOSI is wired (GPIO 20 on spi1)
//! chip_select = "ce0"       # names the device node (/dev/spidev1.0); not wired to the chain
//! brightness = 32           # 1 to 64 of 255 (64: the hard cap)
//! order = "serpentine"      # cells | serpentine: how the strip runs (default: the pin map's)
//!
//! [web]                     # optional phone pages (see crate::web): off unless enabled
//! enabled = false
//! port = 8080               # 1024 to 65535: the service user may not bind below 1024
//! url = "http://umpire.local:8080"  # optional: the address the phones open, for the OLED's
//!                           # codes; without it the Pi's address on the local network is found
//! ```
//!
//! Every `[sensor.*]` sub-section present is checked, but only the one `kind` names is wired:
//! its pins, bus devices and addresses take part in the checks that no GPIO is used twice (the
//! Pi's fixed bus pins included: I2C1 is GPIO 2/3, SPI0 GPIO 9/10/11 with CE0 = 8 and CE1 = 7,
//! SPI1 GPIO 19/20/21 with CE0-CE2 = 18/17/16), that no two SPI devices share a chip select and
//! that no two I2C devices share an address.

use std::fmt;
use std::path::{Path, PathBuf};

use boards::Seat;
use toml_span::value::{Table, ValueInner};

use crate::display::DEFAULT_ADDRESS;
use crate::drivers::shift_chain::{read_time_ns, ChainOrder, OrderError};
use crate::referee::games::{self, MenuEntry};
use crate::referee::{BeyondTheBoard, MenuStart, RefereeConfig, SetupMode};
use crate::sensing::{
    LayoutSetup, SensedCell, SensingConfig, TrayKind, MAX_CELLS, MAX_COLUMNS, MAX_ROWS,
};

use crate::drivers::leds::{Brightness, HARD_MAX_BRIGHTNESS};
use crate::guidance::LedOrder;

use crate::drivers::expander::{
    bank_scan_time_ns, matrix_scan_time_ns, DEFAULT_SETTLE_NS, FIRST_ADDRESS, LAST_ADDRESS,
    PINS_PER_CHIP,
};
use crate::drivers::reed_matrix::{scans_per_second, CellMap, CellMapError};

/// Which game the umpire referees at start-up (the menu can change it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameName {
    /// Stratego Original.
    Classic,
    /// Stratego Duel.
    Duel,
    /// Stratego: Waterloo.
    Waterloo,
    /// Piecepack at Waterloo.
    Piecepack,
    /// Sa Belle Alliance.
    Sba,
    /// Napoléon 1815.
    Napoleon,
}

impl GameName {
    /// Every game, as `[game] name` writes it.
    pub const ALL: [(GameName, &'static str); 6] = [
        (GameName::Classic, "classic"),
        (GameName::Duel, "duel"),
        (GameName::Waterloo, "waterloo"),
        (GameName::Piecepack, "piecepack"),
        (GameName::Sba, "sa-belle-alliance"),
        (GameName::Napoleon, "napoleon"),
    ];

    /// The game's entry on the game menu (Stratego Original and Duel first, then the table
    /// games in [`games::menu`] order).
    pub fn menu_entry(self) -> usize {
        match self {
            GameName::Classic => 0,
            GameName::Duel => 1,
            GameName::Waterloo => 2,
            GameName::Piecepack => 3,
            GameName::Sba => 4,
            GameName::Napoleon => 5,
        }
    }

    /// The game's variants as the menu names them, with its entries set up by NFC tags when
    /// `nfc_readers` ([`games::menu_entries`]; none for Stratego, whose second menu lists the
    /// set-up methods).
    pub fn variants(self, nfc_readers: bool) -> Vec<String> {
        self.entries(nfc_readers)
            .into_iter()
            .map(|(label, _, _)| label)
            .collect()
    }

    /// The game's entries on its variant menu.
    fn entries(self, nfc_readers: bool) -> Vec<MenuEntry> {
        let table = games::menu_entries(nfc_readers);
        self.menu_entry()
            .checked_sub(2)
            .and_then(|i| table.into_iter().nth(i))
            .map(|(_, entries)| entries)
            .unwrap_or_default()
    }

    /// The game as `[game] name` writes it.
    pub fn name(self) -> &'static str {
        GameName::ALL[self.menu_entry()].1
    }
}

/// `text` in lower case with every run of other characters than letters and digits made one
/// `-`: how a menu label is written on a command line (`expert-where-are-the-prussians`).
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// Which repetition rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesName {
    /// ISF: two-squares and more-squares rules on.
    Isf,
    /// The rulebook's plain text: both off.
    Plain,
}

/// An I2C bus on the 40-pin header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum I2cBus {
    /// I2C1: SDA GPIO 2, SCL GPIO 3 (`/dev/i2c-1`).
    I2c1,
}

impl I2cBus {
    /// The kernel's bus number (`/dev/i2c-N`, `i2cdetect -y N`).
    pub fn number(self) -> u8 {
        match self {
            I2cBus::I2c1 => 1,
        }
    }

    /// The name used in the configuration (`"i2c1"`).
    pub fn name(self) -> &'static str {
        match self {
            I2cBus::I2c1 => "i2c1",
        }
    }

    /// The bus's fixed pins, with their names.
    pub fn pins(self) -> [(u8, &'static str); 2] {
        match self {
            I2cBus::I2c1 => [(2, "SDA"), (3, "SCL")],
        }
    }
}

/// An SPI bus on the 40-pin header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SpiBus {
    /// SPI0: MISO GPIO 9, MOSI 10, SCLK 11; CE0 8, CE1 7.
    Spi0,
    /// SPI1 (`dtoverlay=spi1-3cs`): MISO GPIO 19, MOSI 20, SCLK 21; CE0 18, CE1 17, CE2 16.
    Spi1,
}

impl SpiBus {
    /// The name used in the configuration (`"spi0"`).
    pub fn name(self) -> &'static str {
        match self {
            SpiBus::Spi0 => "spi0",
            SpiBus::Spi1 => "spi1",
        }
    }

    /// The bus's fixed data and clock pins, with their names.
    pub fn pins(self) -> [(u8, &'static str); 3] {
        match self {
            SpiBus::Spi0 => [(9, "MISO"), (10, "MOSI"), (11, "SCLK")],
            SpiBus::Spi1 => [(19, "MISO"), (20, "MOSI"), (21, "SCLK")],
        }
    }

    /// The GPIO of chip select `cs` on this bus, if the bus has it.
    pub fn chip_select_pin(self, cs: ChipSelect) -> Option<u8> {
        match (self, cs) {
            (SpiBus::Spi0, ChipSelect::Ce0) => Some(8),
            (SpiBus::Spi0, ChipSelect::Ce1) => Some(7),
            (SpiBus::Spi0, ChipSelect::Ce2) => None,
            (SpiBus::Spi1, ChipSelect::Ce0) => Some(18),
            (SpiBus::Spi1, ChipSelect::Ce1) => Some(17),
            (SpiBus::Spi1, ChipSelect::Ce2) => Some(16),
        }
    }

    /// Every chip select the bus has, with its GPIO (SPI0: CE0 and CE1, the two the kernel
    /// holds once the bus is on).
    pub fn chip_select_pins(self) -> impl Iterator<Item = (ChipSelect, u8)> {
        [ChipSelect::Ce0, ChipSelect::Ce1, ChipSelect::Ce2]
            .into_iter()
            .filter_map(move |cs| Some((cs, self.chip_select_pin(cs)?)))
    }
}

/// A hardware chip-select line of an SPI bus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ChipSelect {
    /// CE0.
    Ce0,
    /// CE1.
    Ce1,
    /// CE2 (SPI1 only).
    Ce2,
}

impl ChipSelect {
    /// The line's number (`/dev/spidevB.N`).
    pub fn number(self) -> u8 {
        match self {
            ChipSelect::Ce0 => 0,
            ChipSelect::Ce1 => 1,
            ChipSelect::Ce2 => 2,
        }
    }
}

/// An SPI device: bus, chip select and clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpiConfig {
    /// The bus.
    pub bus: SpiBus,
    /// Its chip-select line.
    pub chip_select: ChipSelect,
    /// Clock in Hz.
    pub spi_hz: u32,
}

/// How occupancy is sensed: `[sensor] kind` and its sub-section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SensorConfig {
    /// `shift_chain`: 74HC165s read over SPI, one input per square.
    ShiftChain {
        /// The SPI device.
        spi: SpiConfig,
        /// The parallel-load (SH/LD) pin.
        load: u8,
        /// Chips in the chain (8 inputs each).
        chips: u8,
        /// Whether a closed switch reads low (default true).
        active_low: bool,
    },
    /// `matrix`: a reed-and-diode matrix with its rows on one PCF8575 and its columns on
    /// another (the schematics' option A; driver
    /// [`Pcf8575Matrix`](crate::drivers::expander::Pcf8575Matrix)).
    Matrix {
        /// The I2C bus of both expanders.
        bus: I2cBus,
        /// Rows wired (1-16), on row expander pins P00...
        rows: u8,
        /// Columns wired (1-16), on column expander pins P00...
        columns: u8,
        /// The row expander's address (0x20-0x27).
        row_expander: u8,
        /// The column expander's address (0x20-0x27).
        column_expander: u8,
    },
    /// `gpio_matrix`: a reed-and-diode matrix on GPIO pins, rows driven one at a time, columns
    /// read (driver [`ReedMatrix`](crate::drivers::reed_matrix::ReedMatrix)).
    GpioMatrix {
        /// Row drive pins.
        rows: Vec<u8>,
        /// Column sense pins.
        columns: Vec<u8>,
        /// Whether a closed switch reads low.
        active_low: bool,
        /// Settle time after selecting a row, in microseconds.
        settle_us: u32,
    },
    /// `expanders`: PCF8575s with one reed per input, 16 a chip (driver
    /// [`Pcf8575Bank`](crate::drivers::expander::Pcf8575Bank)).
    Expanders {
        /// The I2C bus.
        bus: I2cBus,
        /// One address per chip, 0x20-0x27, chip 0 first.
        addresses: Vec<u8>,
    },
    /// `simulated`: no hardware (for `umpire doctor` and `calibrate` on a laptop).
    Simulated,
}

/// The device files of the buses (`[i2c1]`, `[spi0]`, `[spi1]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BusDevices {
    /// `[i2c1] device`, default `/dev/i2c-1`.
    pub i2c1: PathBuf,
    /// `[i2c1] baudrate_hz`: the clock set in `/boot/firmware/config.txt`
    /// (`i2c_arm_baudrate`), used to check the scan rate; default 400000.
    pub i2c1_hz: u32,
    /// `[spi0] device`, default `/dev/spidev0` (CE`n` is `/dev/spidev0.n`).
    pub spi0: PathBuf,
    /// `[spi1] device`, default `/dev/spidev1`.
    pub spi1: PathBuf,
}

impl Default for BusDevices {
    fn default() -> Self {
        BusDevices {
            i2c1: PathBuf::from("/dev/i2c-1"),
            i2c1_hz: 400_000,
            spi0: PathBuf::from("/dev/spidev0"),
            spi1: PathBuf::from("/dev/spidev1"),
        }
    }
}

/// The SSD1306 OLED (`[oled]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OledConfig {
    /// The I2C bus.
    pub bus: I2cBus,
    /// 0x3C or 0x3D.
    pub address: u8,
}

/// The NFC readers (`[nfc]` with `enabled = true`): MFRC522 modules sharing one SPI bus and
/// chip select through a decoder, each under a region of squares
/// ([`ReaderBank`](crate::drivers::nfc::ReaderBank)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NfcConfig {
    /// The SPI device (its chip select enables the decoder).
    pub spi: SpiConfig,
    /// The modules' common reset pin (NRSTPD, active low), if wired.
    pub reset: Option<u8>,
    /// The decoder's address lines, A0 first; empty with a single module on the chip select.
    pub address: Vec<u8>,
    /// Each reader's region (`[[nfc.reader]] cells`): reader `n` is on decoder output `n`.
    pub readers: Vec<Vec<SensedCell>>,
    /// The owner's tags file (`[nfc] tags`, relative: in the configuration's folder): each
    /// piece's or block's tag, registered once ([`crate::referee::TagRegistry::parse`],
    /// read at start by [`crate::game_data::tag_registry`]). `None`: no tag registered.
    pub tags: Option<PathBuf>,
}

impl NfcConfig {
    /// Every cell some reader covers, reader by reader.
    pub fn cells(&self) -> Vec<SensedCell> {
        self.readers.iter().flatten().copied().collect()
    }
}

/// The three buttons (`[buttons]`; pressed = low).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ButtonsConfig {
    /// OK.
    pub ok: u8,
    /// Back / Undo.
    pub back: u8,
    /// Die.
    pub die: u8,
}

impl Config {
    /// The referee's settings this file fixes: the rules, the game menu's highlight and its
    /// entries set up by tags, Napoléon's 6.2.4 option. The service adds what it reads and opens at start (the board,
    /// the games' data files, the registered tags, the phone pages).
    pub fn referee_config(&self) -> RefereeConfig {
        RefereeConfig {
            isf_rules: self.rules == RulesName::Isf,
            menu_start: self.menu_start(),
            nfc_readers: self.nfc_readers(),
            napoleon_reveal_on_contact: self.napoleon_reveal_on_contact,
            ..RefereeConfig::default()
        }
    }

    /// The game menu's entries the configured game and variant highlight.
    pub fn menu_start(&self) -> MenuStart {
        let variant = self.variant.as_ref().and_then(|v| {
            self.game
                .variants(self.nfc_readers())
                .iter()
                .position(|label| label == v)
        });
        MenuStart {
            game: self.game.menu_entry(),
            variant: variant.unwrap_or(0),
        }
    }

    /// NFC readers are under the board (`[nfc]` enabled, with its `[[nfc.reader]]`s): the
    /// game menu offers Napoléon's set-up by tags
    /// ([`RefereeConfig::nfc_readers`](crate::referee::RefereeConfig::nfc_readers)).
    pub fn nfc_readers(&self) -> bool {
        self.nfc.is_some()
    }

    /// The `[sensing]` settings that differ from the defaults, as the file writes them
    /// (`settle_ms = 300`), in [`SENSING_KEYS`] order; empty when the timing is the default.
    pub fn sensing_changes(&self) -> Vec<String> {
        let (s, d) = (&self.sensing, &SensingConfig::DEFAULT);
        let values = [
            (
                s.debounce_samples.to_string(),
                d.debounce_samples.to_string(),
            ),
            (
                s.debounce_span_ms.to_string(),
                d.debounce_span_ms.to_string(),
            ),
            (s.settle_ms.to_string(), d.settle_ms.to_string()),
            (s.tag_wait_ms.to_string(), d.tag_wait_ms.to_string()),
            (s.chatter_limit.to_string(), d.chatter_limit.to_string()),
            (s.decide_early.to_string(), d.decide_early.to_string()),
        ];
        SENSING_KEYS
            .iter()
            .zip(values)
            .filter(|(_, (set, default))| set != default)
            .map(|(key, (set, _))| format!("{key} = {set}"))
            .collect()
    }

    /// The sensing timing in a few words, for `check-config` and `doctor`: `"the defaults"`,
    /// or what [`Config::sensing_changes`] lists and `"(the rest default)"`.
    pub fn sensing_summary(&self) -> String {
        let changes = self.sensing_changes();
        if changes.is_empty() {
            "the defaults".into()
        } else if changes.len() == SENSING_KEYS.len() {
            changes.join(", ")
        } else {
            format!("{} (the rest default)", changes.join(", "))
        }
    }

    /// The warning when the game `[game] name` names is among `beyond`, the games this board
    /// cannot play ([`crate::game_data::games_beyond_the_board`]): the menu opens on it, and
    /// refuses it when chosen.
    pub fn game_beyond_the_board(&self, beyond: &[BeyondTheBoard]) -> Option<ConfigWarning> {
        let entry = self.game.menu_entry();
        let game = beyond.iter().find(|b| b.entry == entry)?;
        Some(ConfigWarning {
            problem: format!(
                "[game] name = \"{}\": {} cannot be played on this board, so the menu refuses \
                 it when chosen",
                self.game.name(),
                game.game
            ),
            fix: format!("name another game, or: {}", game.fix),
        })
    }

    /// What works but is worth a warning: the umpire runs, though the players may miss
    /// something.
    pub fn warnings(&self) -> Vec<ConfigWarning> {
        let mut out = Vec::new();
        if self.oled.is_none() {
            out.push(ConfigWarning {
                problem: "no [oled] section: the umpire runs, but the players see nothing (no \
                          verdict, no refusal, no fault)"
                    .into(),
                fix: "add [oled] with bus = \"i2c1\" and address = 0x3C (the pin map's)".into(),
            });
        }
        if let Some(tags) = &self.nfc_tags_ignored {
            out.push(ConfigWarning {
                problem: format!(
                    "[nfc] tags = \"{}\" but [nfc] is disabled: the tags file is not read, so \
                     no piece or block is known by its tag",
                    tags.display()
                ),
                fix: "when the readers are fitted, set enabled = true in [nfc]; else remove the \
                      tags line"
                    .into(),
            });
        }
        if let Some(web) = &self.web {
            if let Some(url) = web.url.as_ref().filter(|u| u.port() != web.port) {
                out.push(ConfigWarning {
                    problem: format!(
                        "[web] url = \"{url}\" names port {} but [web] port = {}: the phones' \
                         codes reach the umpire only through something forwarding {} to {}",
                        url.port(),
                        web.port,
                        url.port(),
                        web.port
                    ),
                    fix: format!(
                        "write the same port in both (url = \"http://<host>:{}\"), unless a \
                         proxy forwards it",
                        web.port
                    ),
                });
            }
        }
        out
    }

    /// How many places the board senses: its squares and its tray slots.
    pub fn places(&self) -> usize {
        usize::from(self.columns) * usize::from(self.rows)
            + self.trays.iter().map(|t| usize::from(t.2)).sum::<usize>()
    }

    /// The board's sensed places: the squares row by row from a1, then each tray's slots in
    /// the file's order; NFC tag reads on the squares of the `[[nfc.reader]]` regions when
    /// NFC is fitted.
    pub fn layout_setup(&self) -> LayoutSetup {
        let mut setup = LayoutSetup::grid(self.columns, self.rows);
        if let Some(nfc) = &self.nfc {
            setup.tag_readers = nfc.cells();
        }
        for &(kind, seat, slots) in &self.trays {
            setup = setup.with_tray(kind, seat, slots);
        }
        setup
    }
}

/// Napoléon 1815's data files as `[napoleon]` names them; each `None` is the shipped one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NapoleonPaths {
    /// `[napoleon] map`: the strategic map.
    pub map: Option<PathBuf>,
    /// `[napoleon] order_of_battle`: the blocks.
    pub order_of_battle: Option<PathBuf>,
    /// `[napoleon] turns`: the turn track.
    pub turns: Option<PathBuf>,
    /// `[napoleon] layout`: the physical board.
    pub layout: Option<PathBuf>,
}

impl NapoleonPaths {
    /// The section's keys.
    pub const KEYS: [&'static str; 4] = ["map", "order_of_battle", "turns", "layout"];

    /// The path `key` names, if set (`None` for a key the section does not have).
    pub fn get(&self, key: &str) -> Option<&Path> {
        match key {
            "map" => self.map.as_deref(),
            "order_of_battle" => self.order_of_battle.as_deref(),
            "turns" => self.turns.as_deref(),
            "layout" => self.layout.as_deref(),
            _ => None,
        }
    }

    fn get_mut(&mut self, key: &str) -> Option<&mut Option<PathBuf>> {
        match key {
            "map" => Some(&mut self.map),
            "order_of_battle" => Some(&mut self.order_of_battle),
            "turns" => Some(&mut self.turns),
            "layout" => Some(&mut self.layout),
            _ => None,
        }
    }

    /// Whether every file is the shipped one.
    pub fn all_shipped(&self) -> bool {
        Self::KEYS.iter().all(|k| self.get(k).is_none())
    }
}

/// The whole configuration, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The game at start-up (`[game] name`): highlighted on the game menu.
    pub game: GameName,
    /// Its variant as the menu names it (`[game] variant`, table games only): highlighted on
    /// the game's variant menu. `None`: the first.
    pub variant: Option<String>,
    /// The Stratego: Waterloo board layout file (`[waterloo] layout`; a relative path is in
    /// the configuration file's folder); `None`: the shipped layout. Read when the service
    /// starts ([`crate::game_data::waterloo_layout`]): a broken file stops it with every
    /// problem.
    pub waterloo_layout: Option<PathBuf>,
    /// Sa Belle Alliance's card file (`[sba] cards`, relative as above); `None`: the example
    /// set. Read with the layout when the service starts ([`crate::game_data::sba_set`]).
    pub sba_cards: Option<PathBuf>,
    /// Sa Belle Alliance's map layout file (`[sba] layout`); `None`: the shipped layout.
    pub sba_layout: Option<PathBuf>,
    /// Napoléon 1815's data files (`[napoleon]`, relative as above), each `None`: the shipped
    /// one. Read and checked together by [`crate::game_data::napoleon_set`].
    pub napoleon: NapoleonPaths,
    /// `[napoleon] reveal_on_contact`: Napoléon is played with 6.2.4's option, a block in
    /// battle seen only once it fires or fights (default off). Journaled with each game: a
    /// game resumes with the option it began with.
    pub napoleon_reveal_on_contact: bool,
    /// Its rules (`[game] rules`).
    pub rules: RulesName,
    /// Board columns (`[board] columns`).
    pub columns: u8,
    /// Board rows (`[board] rows`).
    pub rows: u8,
    /// Scans per second (`[board] scan_hz`).
    pub scan_hz: u32,
    /// Off-board tray slots (`[[board.tray]]`), sensed on the inputs after the squares, in
    /// order: (kind, seat, slots).
    pub trays: Vec<(TrayKind, Seat, u8)>,
    /// The sensing model's timing (`[sensing]`, every key optional: one left out is
    /// [`SensingConfig::DEFAULT`]'s), for the pipeline the service runs.
    pub sensing: SensingConfig,
    /// How occupancy is sensed.
    pub sensor: SensorConfig,
    /// The buses' device files.
    pub buses: BusDevices,
    /// The OLED, if fitted.
    pub oled: Option<OledConfig>,
    /// The buttons (required on hardware; the simulated board may leave them out).
    pub buttons: Option<ButtonsConfig>,
    /// The buzzer's drive pin (`[buzzer] drive`, active high), if fitted.
    pub buzzer: Option<u8>,
    /// The NFC reader, if fitted and enabled.
    pub nfc: Option<NfcConfig>,
    /// `[nfc] tags` given while `[nfc]` is disabled: the file is not read (a warning says so).
    pub nfc_tags_ignored: Option<PathBuf>,
    /// Where game journals are kept (`[journal] dir`).
    pub journal_dir: PathBuf,
    /// `[board] cells`: the cell each sensor input reads, input 0 first (`None`: an input wired
    /// to no square), when the builder wired the inputs in another order than the schematic's.
    /// `None`: the schematic's order.
    pub cells: Option<Vec<Option<SensedCell>>>,
    /// The LED guidance chain (`[leds]`), if fitted and enabled (off by default).
    pub leds: Option<LedsConfig>,
    /// The phone pages' server (`[web]`), if enabled (off by default).
    pub web: Option<WebConfig>,
}

/// The phone pages' server (`[web]`, see [`crate::web`]): listens on every address of the Pi.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebConfig {
    /// The TCP port.
    pub port: u16,
    /// `[web] url`: where the phones reach the Pi (`http://umpire.local:8080`), for the codes
    /// the OLED shows; `None`: found from the Pi's interfaces when a code is shown.
    pub url: Option<crate::web::link::Origin>,
}

impl WebConfig {
    /// How the seats' codes learn the Pi's address: `url`, or found on port `port`.
    pub fn address(&self) -> crate::web::link::Address {
        match &self.url {
            Some(origin) => crate::web::link::Address::Fixed(origin.clone()),
            None => crate::web::link::Address::Detect { port: self.port },
        }
    }
}

/// `[web] port` when not given.
pub const DEFAULT_WEB_PORT: u16 = 8080;

/// The WS2812B guidance chain (`[leds]`): on an SPI bus of its own, clocked at
/// [`crate::drivers::leds::SPI_HZ`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LedsConfig {
    /// The SPI device whose MOSI drives the chain (its chip select only names the device node).
    pub spi: SpiConfig,
    /// How bright lit LEDs are, capped.
    pub brightness: Brightness,
    /// How the chain runs over the places.
    pub order: LedOrder,
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

/// Something a configuration leaves out that the umpire can run without, though the players
/// may miss it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigWarning {
    /// What is missing and what that means at the table.
    pub problem: String,
    /// How to fix it.
    pub fix: String,
}

impl fmt::Display for ConfigWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}; fix: {}", self.problem, self.fix)
    }
}

/// Every problem found in a configuration file.
pub type ConfigProblems = boards::Problems<ConfigProblem>;

/// An SPI device's `bus` choices.
const SPI_BUSES: [&str; 2] = ["spi0", "spi1"];
/// An SPI device's `chip_select` choices.
const CHIP_SELECTS: [&str; 3] = ["ce0", "ce1", "ce2"];
/// An SPI device's `spi_hz` range.
const SPI_HZ: (i64, i64) = (10_000, 10_000_000);
/// `[i2c1] baudrate_hz`'s range.
const I2C_HZ: (i64, i64) = (10_000, 400_000);

/// Highest BCM GPIO number on the 40-pin header.
const MAX_GPIO: i64 = 27;

/// The sensor kinds, as written in `[sensor] kind`.
const KINDS: [&str; 5] = [
    "shift_chain",
    "matrix",
    "gpio_matrix",
    "expanders",
    "simulated",
];

/// The top-level sections.
const SECTIONS: &str = "[game], [board], [sensing], [sensor], [i2c1], [spi0], [spi1], [oled], \
     [buttons], [buzzer], [nfc], [journal], [waterloo], [leds], [sba], [napoleon], [web]";

struct Reader<'a> {
    text: &'a str,
    problems: Vec<ConfigProblem>,
    /// `[nfc] tags` read from a disabled `[nfc]`, for the warning.
    nfc_tags_ignored: Option<PathBuf>,
    /// `[nfc]` is there and enabled (read, whether or not it has problems).
    nfc_enabled: bool,
}

/// One GPIO used by the wiring, for the "used twice" check.
struct PinUse {
    pin: u8,
    at: usize,
    what: String,
}

/// One I2C device, for the address check.
struct I2cUse {
    bus: I2cBus,
    address: u8,
    at: usize,
    what: String,
}

/// One SPI device, for the chip-select check.
struct SpiUse {
    spi: SpiConfig,
    at: usize,
    what: String,
}

/// What the wiring uses: pins, I2C devices, SPI devices.
#[derive(Default)]
struct Uses {
    pins: Vec<PinUse>,
    i2c: Vec<I2cUse>,
    spi: Vec<SpiUse>,
}

impl Uses {
    fn pin(&mut self, pin: (u8, usize), what: impl Into<String>) {
        self.pins.push(PinUse {
            pin: pin.0,
            at: pin.1,
            what: what.into(),
        });
    }
}

impl Reader<'_> {
    /// `[[board.tray]]` entries: kind, seat and slots each, every problem reported.
    fn trays(&mut self, board: &mut Table<'_>) -> Vec<(TrayKind, Seat, u8)> {
        let mut out = Vec::new();
        let Some(mut value) = board.remove("tray") else {
            return out;
        };
        let at = value.span.start;
        let ValueInner::Array(items) = value.take() else {
            self.problem(
                at,
                "[board] tray must be [[board.tray]] sections (kind, seat, slots)".to_string(),
            );
            return out;
        };
        for mut item in items {
            let item_at = item.span.start;
            let ValueInner::Table(mut t) = item.take() else {
                self.problem(
                    item_at,
                    "each [[board.tray]] is a section with kind, seat and slots".to_string(),
                );
                continue;
            };
            for k in t.keys() {
                if !["kind", "seat", "slots"].contains(&k.name.as_ref()) {
                    self.problem(
                        k.span.start,
                        format!(
                            "unknown setting `{}` in [[board.tray]]: check the spelling (known: \
                             kind, seat, slots)",
                            k.name
                        ),
                    );
                }
            }
            let section = ("board.tray", item_at);
            let kind = self.required_string(
                &mut t,
                "kind",
                section,
                &["reserve", "staging", "withdrawn", "eliminated"],
            );
            let seat = self.required_int(&mut t, "seat", section, (1, 2));
            let slots = self.required_int(&mut t, "slots", section, (1, 64));
            if let (Some((kind, _)), Some((seat, _)), Some((slots, _))) = (kind, seat, slots) {
                let kind = match kind.as_str() {
                    "reserve" => TrayKind::Reserve,
                    "staging" => TrayKind::PrussianStaging,
                    "withdrawn" => TrayKind::Withdrawn,
                    _ => TrayKind::Eliminated,
                };
                let seat = Seat::new(u8::try_from(seat - 1).unwrap_or(0));
                if out.iter().any(|(k, s, _)| *k == kind && *s == seat) {
                    self.problem(
                        item_at,
                        format!(
                            "a second [[board.tray]] for seat {}'s {kind} tray: give one entry \
                             all its slots",
                            seat.index() + 1
                        ),
                    );
                    continue;
                }
                out.push((kind, seat, u8::try_from(slots).unwrap_or(u8::MAX)));
            }
        }
        out
    }

    fn line_of(&self, offset: usize) -> usize {
        self.text
            .get(..offset.min(self.text.len()))
            .unwrap_or(self.text)
            .bytes()
            .filter(|&b| b == b'\n')
            .count()
            + 1
    }

    fn problem(&mut self, at: usize, message: String) {
        let line = self.line_of(at);
        self.problems.push(ConfigProblem { line, message });
    }

    /// Takes the sub-table `key` of `parent` (the section `[name]`), reporting keys it does not
    /// know.
    fn section<'de>(
        &mut self,
        parent: &mut Table<'de>,
        key: &str,
        name: &str,
        known: &[&str],
    ) -> Option<(Table<'de>, usize)> {
        let (value, at) = take(parent, key)?;
        match value {
            ValueInner::Table(t) => {
                for k in t.keys() {
                    if !known.contains(&k.name.as_ref()) {
                        self.problem(
                            k.span.start,
                            format!(
                                "unknown setting `{}` in [{name}]: check the spelling (known: {})",
                                k.name,
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
                        "`{key}` must be a section [{name}], not {}",
                        a(other.type_str())
                    ),
                );
                None
            }
        }
    }

    /// Reports `[section] key` holding a value of another type than `expected`.
    fn wrong_type<T>(
        &mut self,
        at: usize,
        section: &str,
        key: &str,
        expected: &str,
        found: &ValueInner<'_>,
    ) -> Option<T> {
        self.problem(
            at,
            format!(
                "[{section}] {key} must be {expected}, not {}",
                a(found.type_str())
            ),
        );
        None
    }

    fn int(
        &mut self,
        t: &mut Table<'_>,
        key: &str,
        section: &str,
        range: (i64, i64),
    ) -> Option<(i64, usize)> {
        let (v, at) = take(t, key)?;
        match v {
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
            other => self.wrong_type(at, section, key, "a whole number", &other),
        }
    }

    fn missing(&mut self, t: &Table<'_>, key: &str, section: (&str, usize), hint: &str) -> bool {
        if t.contains_key(key) {
            return false;
        }
        self.problem(
            section.1,
            format!("[{}] needs `{key} = ...` ({hint})", section.0),
        );
        true
    }

    fn required_int(
        &mut self,
        t: &mut Table<'_>,
        key: &str,
        section: (&str, usize),
        range: (i64, i64),
    ) -> Option<(i64, usize)> {
        if self.missing(t, key, section, &format!("{} to {}", range.0, range.1)) {
            return None;
        }
        self.int(t, key, section.0, range)
    }

    /// A pin: a BCM GPIO number 0 to 27.
    fn pin(&mut self, t: &mut Table<'_>, key: &str, section: &str) -> Option<(u8, usize)> {
        let (v, at) = take(t, key)?;
        match v {
            ValueInner::Integer(p) => match u8::try_from(p) {
                Ok(p) if i64::from(p) <= MAX_GPIO => Some((p, at)),
                _ => {
                    self.problem(
                        at,
                        format!(
                            "[{section}] {key} = {p} is not a header pin: use a BCM GPIO number \
                             0 to {MAX_GPIO}"
                        ),
                    );
                    None
                }
            },
            other => self.wrong_type(at, section, key, "a BCM GPIO number", &other),
        }
    }

    fn required_pin(
        &mut self,
        t: &mut Table<'_>,
        key: &str,
        section: (&str, usize),
    ) -> Option<(u8, usize)> {
        if self.missing(
            t,
            key,
            section,
            &format!("a BCM GPIO number 0 to {MAX_GPIO}"),
        ) {
            return None;
        }
        self.pin(t, key, section.0)
    }

    fn string(
        &mut self,
        t: &mut Table<'_>,
        key: &str,
        section: &str,
        choices: &[&str],
    ) -> Option<(String, usize)> {
        let (v, at) = take(t, key)?;
        match v {
            ValueInner::String(s) if choices.is_empty() || choices.contains(&s.as_ref()) => {
                Some((s.into_owned(), at))
            }
            ValueInner::String(s) => {
                self.problem(
                    at,
                    format!(
                        "[{section}] {key} = \"{s}\" is not known: use one of {}",
                        quoted(choices)
                    ),
                );
                None
            }
            other => self.wrong_type(at, section, key, "a string", &other),
        }
    }

    fn required_string(
        &mut self,
        t: &mut Table<'_>,
        key: &str,
        section: (&str, usize),
        choices: &[&str],
    ) -> Option<(String, usize)> {
        if self.missing(t, key, section, &quoted(choices)) {
            return None;
        }
        self.string(t, key, section.0, choices)
    }

    fn boolean(&mut self, t: &mut Table<'_>, key: &str, section: &str) -> Option<bool> {
        let (v, at) = take(t, key)?;
        match v {
            ValueInner::Boolean(b) => Some(b),
            other => self.wrong_type(at, section, key, "true or false", &other),
        }
    }

    /// A list of whole numbers in `range`, each with its position.
    fn list(
        &mut self,
        t: &mut Table<'_>,
        key: &str,
        section: &str,
        range: (i64, i64),
        what: &str,
    ) -> Option<(Vec<(i64, usize)>, usize)> {
        let (v, at) = take(t, key)?;
        match v {
            ValueInner::Array(items) => {
                let mut out = Vec::new();
                for mut item in items {
                    let item_at = item.span.start;
                    match item.take() {
                        ValueInner::Integer(n) if n >= range.0 && n <= range.1 => {
                            out.push((n, item_at));
                        }
                        _ => self
                            .problem(item_at, format!("[{section}] {key}: each entry is {what}")),
                    }
                }
                Some((out, at))
            }
            other => {
                let like = format!("a list like [{}, {}]", range.0, range.0 + 1);
                self.wrong_type(at, section, key, &like, &other)
            }
        }
    }

    /// A list that must be there: `hint` says what to write when it is not.
    fn required_list(
        &mut self,
        t: &mut Table<'_>,
        key: &str,
        section: (&str, usize),
        range: (i64, i64),
        hint: &str,
        what: &str,
    ) -> Option<(Vec<(i64, usize)>, usize)> {
        if self.missing(t, key, section, hint) {
            return None;
        }
        self.list(t, key, section.0, range, what)
    }

    fn i2c_bus(&mut self, t: &mut Table<'_>, section: (&str, usize)) -> Option<(I2cBus, usize)> {
        let (_, at) = self.required_string(t, "bus", section, &["i2c1"])?;
        Some((I2cBus::I2c1, at))
    }

    /// `bus`, `chip_select` and `spi_hz` of an SPI device.
    fn spi(&mut self, t: &mut Table<'_>, section: (&str, usize)) -> Option<(SpiConfig, usize)> {
        let bus = self.required_string(t, "bus", section, &SPI_BUSES);
        let cs = self.required_string(t, "chip_select", section, &CHIP_SELECTS);
        let spi_hz = self
            .int(t, "spi_hz", section.0, SPI_HZ)
            .map_or(1_000_000, |v| v.0 as u32);
        let (bus, _) = bus?;
        let (cs, cs_at) = cs?;
        let bus = if bus == "spi1" {
            SpiBus::Spi1
        } else {
            SpiBus::Spi0
        };
        let chip_select = match cs.as_str() {
            "ce2" => ChipSelect::Ce2,
            "ce1" => ChipSelect::Ce1,
            _ => ChipSelect::Ce0,
        };
        if bus.chip_select_pin(chip_select).is_none() {
            self.problem(
                cs_at,
                format!(
                    "[{}] chip_select = \"{cs}\": {} has only \"ce0\" and \"ce1\" (\"ce2\" is on \
                     spi1)",
                    section.0,
                    bus.name()
                ),
            );
            return None;
        }
        Some((
            SpiConfig {
                bus,
                chip_select,
                spi_hz,
            },
            cs_at,
        ))
    }

    /// PCF8575 addresses: 0x20-0x27, each once.
    fn expander_address(
        &mut self,
        t: &mut Table<'_>,
        key: &str,
        section: (&str, usize),
    ) -> Option<(u8, usize)> {
        if self.missing(t, key, section, "a PCF8575 address 0x20 to 0x27") {
            return None;
        }
        let (v, at) = take(t, key)?;
        match v {
            ValueInner::Integer(n) if (0x20..=0x27).contains(&n) => Some((n as u8, at)),
            _ => {
                self.problem(
                    at,
                    format!(
                        "[{}] {key}: a PCF8575 answers at 0x20 to 0x27 (set by its A0-A2 pins)",
                        section.0
                    ),
                );
                None
            }
        }
    }
}

impl Config {
    /// Reads and checks a configuration file's text.
    ///
    /// # Errors
    /// Every problem, each with its line and how to fix it, sorted by line.
    pub fn parse(text: &str) -> Result<Config, ConfigProblems> {
        let mut r = Reader {
            text,
            problems: Vec::new(),
            nfc_tags_ignored: None,
            nfc_enabled: false,
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
        let mut uses = Uses::default();

        // [game]
        let (mut game, mut rules, mut wanted_variant) = (GameName::Classic, RulesName::Isf, None);
        // A name refused above: its variant is not judged against a game nobody asked for.
        let mut name_refused = false;
        if let Some((mut t, _)) =
            r.section(&mut root, "game", "game", &["name", "rules", "variant"])
        {
            let names: Vec<&str> = GameName::ALL.iter().map(|g| g.1).collect();
            let before = r.problems.len();
            if let Some((name, _)) = r.string(&mut t, "name", "game", &names) {
                if let Some(g) = GameName::ALL.iter().find(|g| g.1 == name) {
                    game = g.0;
                }
            }
            name_refused = r.problems.len() > before;
            if let Some((name, _)) = r.string(&mut t, "rules", "game", &["isf", "plain"]) {
                rules = if name == "plain" {
                    RulesName::Plain
                } else {
                    RulesName::Isf
                };
            }
            // Checked once [nfc] is read: the entries set up by tags need its readers.
            wanted_variant = r.string(&mut t, "variant", "game", &[]);
        }

        // [waterloo]
        let mut waterloo_layout = None;
        if let Some((mut t, _)) = r.section(&mut root, "waterloo", "waterloo", &["layout"]) {
            if let Some((path, at)) = r.string(&mut t, "layout", "waterloo", &[]) {
                if path.trim().is_empty() {
                    r.problem(
                        at,
                        "[waterloo] layout is empty: give the layout file's path, or remove the \
                         line to use the shipped layout"
                            .into(),
                    );
                } else {
                    waterloo_layout = Some(PathBuf::from(path));
                }
            }
        }

        // [sba]
        let (mut sba_cards, mut sba_layout) = (None, None);
        if let Some((mut t, _)) = r.section(&mut root, "sba", "sba", &["cards", "layout"]) {
            for (key, slot) in [("cards", &mut sba_cards), ("layout", &mut sba_layout)] {
                if let Some((path, at)) = r.string(&mut t, key, "sba", &[]) {
                    if path.trim().is_empty() {
                        r.problem(
                            at,
                            format!(
                                "[sba] {key} is empty: give the file's path, or remove the line \
                                 to use the shipped one"
                            ),
                        );
                    } else {
                        *slot = Some(PathBuf::from(path));
                    }
                }
            }
        }

        // [napoleon]
        let mut napoleon = NapoleonPaths::default();
        let mut napoleon_reveal_on_contact = false;
        let mut napoleon_keys = NapoleonPaths::KEYS.to_vec();
        napoleon_keys.push("reveal_on_contact");
        if let Some((mut t, _)) = r.section(&mut root, "napoleon", "napoleon", &napoleon_keys) {
            napoleon_reveal_on_contact = r
                .boolean(&mut t, "reveal_on_contact", "napoleon")
                .unwrap_or(false);
            for key in NapoleonPaths::KEYS {
                if let Some((path, at)) = r.string(&mut t, key, "napoleon", &[]) {
                    if path.trim().is_empty() {
                        r.problem(
                            at,
                            format!(
                                "[napoleon] {key} is empty: give the file's path, or remove the \
                                 line to use the shipped one"
                            ),
                        );
                    } else if let Some(slot) = napoleon.get_mut(key) {
                        *slot = Some(PathBuf::from(path));
                    }
                }
            }
        }

        // [board]
        let (mut columns, mut rows, mut scan_hz, mut scan_at) = (10u8, 10u8, 200u32, 1usize);
        // A rate out of bounds is refused with its bounds, and not also timed against the sensor.
        let mut scan_refused = false;
        let mut board_at = 1;
        let mut trays = Vec::new();
        let mut cells_list = None;
        if let Some((mut t, at)) = r.section(
            &mut root,
            "board",
            "board",
            &["columns", "rows", "scan_hz", "tray", "cells"],
        ) {
            trays = r.trays(&mut t);
            cells_list = take(&mut t, "cells");
            scan_at = at;
            board_at = at;
            if let Some((v, _)) = r.int(&mut t, "columns", "board", (1, i64::from(MAX_COLUMNS))) {
                columns = v as u8;
            }
            if let Some((v, _)) = r.int(&mut t, "rows", "board", (1, i64::from(MAX_ROWS))) {
                rows = v as u8;
            }
            // Any whole number is read, so that one out of bounds gets the bound it crosses.
            if let Some((v, at)) = r.int(&mut t, "scan_hz", "board", (i64::MIN, i64::MAX)) {
                scan_at = at;
                let max = crate::schedule::MAX_SCAN_HZ;
                if v < 100 {
                    r.problem(
                        at,
                        format!(
                            "[board] scan_hz = {v} is too slow: scan at 100 Hz or faster so a \
                             quick move is not missed (100 to {max})"
                        ),
                    );
                } else if v > i64::from(max) {
                    r.problem(
                        at,
                        format!(
                            "[board] scan_hz = {v} is too fast: the service's clock counts \
                             milliseconds, so scan at {max} Hz or slower (100 to {max})"
                        ),
                    );
                }
                scan_refused = !(100..=i64::from(max)).contains(&v);
                scan_hz = v.clamp(1, i64::from(u32::MAX)) as u32;
            }
        }
        let squares = usize::from(columns) * usize::from(rows);
        let cells = squares + trays.iter().map(|t| usize::from(t.2)).sum::<usize>();
        if cells > MAX_CELLS {
            r.problem(
                board_at,
                format!(
                    "[board] columns x rows give {squares} squares and its trays {} slots, {cells} \
                     places, but a board senses at most {MAX_CELLS}: fewer tray slots, or fewer \
                     rows or columns",
                    cells - squares
                ),
            );
        }

        // [sensing]
        let sensing = r.sensing(&mut root);

        // [i2c1], [spi0], [spi1]
        let mut buses = BusDevices::default();
        if let Some((mut t, _)) = r.section(&mut root, "i2c1", "i2c1", &["device", "baudrate_hz"]) {
            if let Some((d, _)) = r.string(&mut t, "device", "i2c1", &[]) {
                buses.i2c1 = PathBuf::from(d);
            }
            if let Some((hz, _)) = r.int(&mut t, "baudrate_hz", "i2c1", I2C_HZ) {
                buses.i2c1_hz = hz as u32;
            }
        }
        for (name, slot) in [("spi0", &mut buses.spi0), ("spi1", &mut buses.spi1)] {
            if let Some((mut t, _)) = r.section(&mut root, name, name, &["device"]) {
                if let Some((d, _)) = r.string(&mut t, "device", name, &[]) {
                    *slot = PathBuf::from(d);
                }
            }
        }

        // [sensor]
        let (sensor, hardware) = r.sensor(&mut root, cells, &mut uses);
        let cell_list = cells_list.and_then(|(list, at)| {
            let shape = (columns, rows, cells);
            r.cell_list(list, at, shape, sensor_inputs(&sensor))
        });
        // A scan's computed bus time: (ns, ns at the bus's fastest clock the configuration
        // takes, what is read, on which bus at what clock, what to raise).
        let max_i2c = I2C_HZ.1 as u32;
        let i2c = |time: &dyn Fn(u32) -> u64| {
            let bus = format!("I2C at {} Hz", buses.i2c1_hz);
            let raise = "raise [i2c1] baudrate_hz (and i2c_arm_baudrate)";
            let times = (time(buses.i2c1_hz), time(max_i2c));
            Some((times, "the expanders", bus, raise.to_string()))
        };
        let scan = match &sensor {
            SensorConfig::Matrix { rows, .. } => i2c(&|hz| {
                matrix_scan_time_ns(u32::from(*rows), hz)
                    + u64::from(*rows) * u64::from(DEFAULT_SETTLE_NS)
            }),
            SensorConfig::Expanders { addresses, .. } => {
                i2c(&|hz| bank_scan_time_ns(addresses.len() as u32, hz))
            }
            SensorConfig::ShiftChain { spi, chips, .. } => {
                let inputs = usize::from(*chips) * 8;
                Some((
                    (
                        read_time_ns(inputs, spi.spi_hz),
                        read_time_ns(inputs, SPI_HZ.1 as u32),
                    ),
                    "the 74HC165 chain",
                    format!("SPI at {} Hz", spi.spi_hz),
                    "raise [sensor.shift_chain] spi_hz".to_string(),
                ))
            }
            _ => None,
        };
        if let (Some(((ns, ns_fastest), what, bus, raise)), false) = (scan, scan_refused) {
            let fastest = scans_per_second(ns);
            if u64::from(scan_hz) > fastest {
                // Raising the clock is a fix only if its highest value keeps the rate.
                let raise = if u64::from(scan_hz) <= scans_per_second(ns_fastest) {
                    format!(" or {raise}")
                } else {
                    String::new()
                };
                r.problem(
                    scan_at,
                    format!(
                        "[board] scan_hz = {scan_hz} is faster than {what} can be read: a scan \
                         takes {} µs on {bus}, so at most {fastest} scans a second; lower \
                         scan_hz{raise}",
                        ns / 1000,
                    ),
                );
            }
        }

        // [oled]
        let mut oled = None;
        if let Some((mut t, at)) = r.section(&mut root, "oled", "oled", &["bus", "address"]) {
            let bus = r.i2c_bus(&mut t, ("oled", at));
            let address = match r.int(&mut t, "address", "oled", (0, 0x7F)) {
                Some((a @ (0x3C | 0x3D), _)) => Some(a as u8),
                Some((a, a_at)) => {
                    r.problem(
                        a_at,
                        format!(
                            "[oled] address = {a:#04x}: an SSD1306 answers at 0x3C or 0x3D (the \
                             jumper on the back of the module)"
                        ),
                    );
                    None
                }
                None => Some(DEFAULT_ADDRESS),
            };
            if let (Some((bus, bus_at)), Some(address)) = (bus, address) {
                uses.i2c.push(I2cUse {
                    bus,
                    address,
                    at: bus_at,
                    what: "[oled]".into(),
                });
                oled = Some(OledConfig { bus, address });
            }
        }

        // [buttons]
        let mut buttons = None;
        if let Some((mut t, at)) =
            r.section(&mut root, "buttons", "buttons", &["ok", "back", "die"])
        {
            let mut get = |r: &mut Reader<'_>, key: &str| {
                let p = r.required_pin(&mut t, key, ("buttons", at));
                if let Some(p) = p {
                    uses.pin(p, format!("[buttons] {key}"));
                }
                p.map(|p| p.0)
            };
            let ok = get(&mut r, "ok");
            let back = get(&mut r, "back");
            let die = get(&mut r, "die");
            if let (Some(ok), Some(back), Some(die)) = (ok, back, die) {
                buttons = Some(ButtonsConfig { ok, back, die });
            }
        } else if hardware {
            r.problem(
                1,
                "no [buttons] section: the umpire needs ok, back and die buttons (BCM GPIO \
                 numbers; the pin map's are ok = 5, back = 6, die = 13)"
                    .into(),
            );
        }

        // [buzzer]
        let mut buzzer = None;
        if let Some((mut t, at)) = r.section(&mut root, "buzzer", "buzzer", &["drive"]) {
            if let Some(p) = r.required_pin(&mut t, "drive", ("buzzer", at)) {
                uses.pin(p, "[buzzer] drive");
                buzzer = Some(p.0);
            }
        }

        // [nfc]
        let nfc = r.nfc(&mut root, (columns, rows), &mut uses);
        let nfc_tags_ignored = r.nfc_tags_ignored.take();

        // [game] variant: an [nfc] enabled but with problems offers the entries set up by
        // tags once fixed, so its own problems are the ones to report.
        let variant = wanted_variant
            .filter(|_| !name_refused)
            .and_then(|(wanted, at)| r.variant(game, &wanted, at, nfc.is_some() || r.nfc_enabled));

        // [journal]
        let mut journal_dir = PathBuf::from("/var/lib/umpire");
        if let Some((mut t, _)) = r.section(&mut root, "journal", "journal", &["dir"]) {
            if let Some((dir, at)) = r.string(&mut t, "dir", "journal", &[]) {
                // An empty or relative folder would be looked for wherever the service was
                // started, not beside this file: each game journaled there, or a fault at start
                // naming no folder.
                if dir.trim().is_empty() {
                    r.problem(
                        at,
                        "[journal] dir is empty: give the folder's full path, like \
                         \"/var/lib/umpire\", or remove the line for that one"
                            .into(),
                    );
                } else if !Path::new(&dir).is_absolute() {
                    r.problem(
                        at,
                        format!(
                            "[journal] dir = \"{dir}\" is not a full path: the service would \
                             look for it in the folder it was started from; give it from /, \
                             like \"/var/lib/umpire\""
                        ),
                    );
                } else {
                    journal_dir = PathBuf::from(dir);
                }
            }
        }

        // [leds]
        let leds = r.leds(&mut root, &mut uses);

        // [web]
        let web = r.web(&mut root);

        for (key, value) in &root {
            r.problem(
                value.span.start.min(key.span.start),
                format!(
                    "unknown section or setting `{}`: the sections are {SECTIONS}",
                    key.name
                ),
            );
        }

        r.check_wiring(uses);

        if !r.problems.is_empty() {
            r.problems.sort_by_key(|p| p.line);
            return Err(boards::Problems(r.problems));
        }
        Ok(Config {
            game,
            variant,
            waterloo_layout,
            sba_cards,
            sba_layout,
            napoleon,
            napoleon_reveal_on_contact,
            rules,
            columns,
            rows,
            scan_hz,
            trays,
            sensing,
            sensor,
            buses,
            oled,
            buttons,
            buzzer,
            nfc,
            nfc_tags_ignored,
            journal_dir,
            cells: cell_list,
            leds,
            web,
        })
    }

    /// How many inputs the configured sensor has (`None` for the simulated board): 8 per
    /// 74HC165, 16 per PCF8575, one per matrix crossing.
    pub fn sensor_inputs(&self) -> Option<usize> {
        sensor_inputs(&self.sensor)
    }

    /// The `[board] cells` map for a driver with `inputs` inputs (inputs past the list read no
    /// square), or `None` when the configuration keeps the schematic's order.
    ///
    /// # Errors
    /// The list is longer than `inputs` (parsing refuses that for the configured sensor).
    pub fn cell_map(&self, inputs: usize) -> Result<Option<CellMap>, CellMapError> {
        let Some(list) = &self.cells else {
            return Ok(None);
        };
        if list.len() > inputs {
            return Err(CellMapError::WrongLength {
                expected: inputs,
                got: list.len(),
            });
        }
        let mut table = list.clone();
        table.resize(inputs, None);
        CellMap::from_table(table).map(Some)
    }

    /// The input -> cell map of a 74HC165 chain of `chips`: `[board] cells`, or the pin map's
    /// `order` gone on as it says over this board's places. The service, the simulated chain and
    /// `doctor`'s chip names all read the chain through this one map.
    ///
    /// # Errors
    /// [`ChainCellsError::Cells`] if `[board] cells` is longer than the chain's inputs,
    /// [`ChainCellsError::Order`] if the pin map's order cannot reach `chips` chips.
    pub fn chain_cells(
        &self,
        order: &ChainOrder,
        chips: usize,
    ) -> Result<CellMap, ChainCellsError> {
        match self.cell_map(chips * 8).map_err(ChainCellsError::Cells)? {
            Some(cells) => Ok(cells),
            None => order
                .cell_map(chips, self.places())
                .map_err(ChainCellsError::Order),
        }
    }

    /// The wires the configured occupancy sensor is read through, in words for a builder with
    /// a meter: "SPI0 MISO GPIO 9, SCLK GPIO 11, CE1 GPIO 7 and the load line on GPIO 24";
    /// `None` for the simulated board.
    pub fn sensor_wires(&self) -> Option<String> {
        let list = |pins: &[u8]| {
            let pins: Vec<String> = pins.iter().map(u8::to_string).collect();
            pins.join(", ")
        };
        match &self.sensor {
            SensorConfig::ShiftChain { spi, load, .. } => {
                let [(miso, _), _, (sclk, _)] = spi.bus.pins();
                let bus = spi.bus.name().to_uppercase();
                let cs = match spi.bus.chip_select_pin(spi.chip_select) {
                    Some(pin) => format!("CE{} GPIO {pin}", spi.chip_select.number()),
                    None => format!("CE{}", spi.chip_select.number()),
                };
                Some(format!(
                    "{bus} MISO GPIO {miso}, SCLK GPIO {sclk}, {cs} and the load line on GPIO \
                     {load}"
                ))
            }
            SensorConfig::Matrix { bus, .. } | SensorConfig::Expanders { bus, .. } => {
                let [(sda, _), (scl, _)] = bus.pins();
                let bus = bus.name().to_uppercase();
                Some(format!("{bus} SDA GPIO {sda}, SCL GPIO {scl}"))
            }
            SensorConfig::GpioMatrix { rows, columns, .. } => Some(format!(
                "rows on GPIO {}; columns on GPIO {}",
                list(rows),
                list(columns)
            )),
            SensorConfig::Simulated => None,
        }
    }

    /// Every GPIO this configuration wires, with what it is for: the fixed pins of the buses in
    /// use (SDA, SCL, MISO, MOSI, SCLK and each device's chip select) and every configured pin.
    pub fn gpio_pins(&self) -> Vec<(u8, String)> {
        let mut out = Vec::new();
        let mut i2c = Vec::new();
        let mut spi = Vec::new();
        match &self.sensor {
            SensorConfig::ShiftChain { spi: s, load, .. } => {
                spi.push((*s, "74HC165 chain"));
                out.push((*load, "74HC165 load".to_string()));
            }
            SensorConfig::Matrix { bus, .. } | SensorConfig::Expanders { bus, .. } => {
                i2c.push(*bus);
            }
            SensorConfig::GpioMatrix { rows, columns, .. } => {
                out.extend(rows.iter().map(|&p| (p, "matrix row".to_string())));
                out.extend(columns.iter().map(|&p| (p, "matrix column".to_string())));
            }
            SensorConfig::Simulated => {}
        }
        if let Some(o) = &self.oled {
            i2c.push(o.bus);
        }
        if let Some(nfc) = &self.nfc {
            spi.push((nfc.spi, "MFRC522"));
            out.extend(nfc.reset.map(|p| (p, "MFRC522 reset".to_string())));
            out.extend(
                nfc.address
                    .iter()
                    .enumerate()
                    .map(|(i, &p)| (p, format!("NFC decoder address A{i}"))),
            );
        }
        if let Some(leds) = &self.leds {
            spi.push((leds.spi, "LED chain"));
        }
        if let Some(b) = &self.buttons {
            out.push((b.ok, "button OK".into()));
            out.push((b.back, "button Back".into()));
            out.push((b.die, "button Die".into()));
        }
        out.extend(self.buzzer.map(|p| (p, "buzzer".to_string())));
        i2c.sort();
        i2c.dedup();
        for bus in i2c {
            for (p, name) in bus.pins() {
                out.push((p, format!("{} {name}", bus.name().to_uppercase())));
            }
        }
        let mut spi_buses: Vec<SpiBus> = spi.iter().map(|s| s.0.bus).collect();
        spi_buses.sort();
        spi_buses.dedup();
        for bus in spi_buses {
            for (p, name) in bus.pins() {
                out.push((p, format!("{} {name}", bus.name().to_uppercase())));
            }
        }
        for (s, what) in spi {
            if let Some(p) = s.bus.chip_select_pin(s.chip_select) {
                out.push((
                    p,
                    format!(
                        "{} CE{} ({what})",
                        s.bus.name().to_uppercase(),
                        s.chip_select.number()
                    ),
                ));
            }
        }
        out
    }

    /// Every SPI device the configuration uses: the sensor chain's, the NFC readers' and the
    /// LED chain's.
    pub fn spi_devices(&self) -> Vec<SpiConfig> {
        let mut out = Vec::new();
        if let SensorConfig::ShiftChain { spi, .. } = &self.sensor {
            out.push(*spi);
        }
        out.extend(self.nfc.as_ref().map(|n| n.spi));
        out.extend(self.leds.as_ref().map(|l| l.spi));
        out
    }

    /// What `umpire setup` sets in the Pi's boot configuration for this board: SPI0 on unless
    /// nothing is on it and a pin of it (GPIO 7-11) is wired to something else (Option C's
    /// matrix: the kernel's SPI driver would take the pin), SPI1's chip selects, and
    /// `force_eeprom_read=0` when a HAT ID pin (GPIO 0 or 1) is wired.
    pub fn boot_needs(&self) -> crate::setup::BootNeeds {
        let on_spi0 = self.spi_devices().iter().any(|d| d.bus == SpiBus::Spi0);
        let spi0_pins: Vec<u8> = SpiBus::Spi0
            .pins()
            .iter()
            .map(|(p, _)| *p)
            .chain(SpiBus::Spi0.chip_select_pins().map(|(_, p)| p))
            .collect();
        let wired = self.gpio_pins();
        crate::setup::BootNeeds {
            spi0: on_spi0 || !wired.iter().any(|(p, _)| spi0_pins.contains(p)),
            spi1_chip_selects: self.spi1_chip_selects(),
            no_eeprom_read: wired.iter().any(|(p, _)| *p <= 1),
        }
    }

    /// How many chip selects of SPI1 the configuration needs (`dtoverlay=spi1-Ncs`), none
    /// when nothing is on SPI1.
    pub fn spi1_chip_selects(&self) -> Option<u8> {
        self.spi_devices()
            .iter()
            .filter(|d| d.bus == SpiBus::Spi1)
            .map(|d| d.chip_select.number() + 1)
            .max()
    }

    /// The device file of I2C bus `bus` (`[i2c1] device`).
    pub fn i2c_path(&self, bus: I2cBus) -> &Path {
        match bus {
            I2cBus::I2c1 => &self.buses.i2c1,
        }
    }

    /// The device file of an SPI device: the bus's `device` and the chip select,
    /// `/dev/spidev0.1` for SPI0 CE1.
    pub fn spi_path(&self, spi: SpiConfig) -> PathBuf {
        let base = match spi.bus {
            SpiBus::Spi0 => &self.buses.spi0,
            SpiBus::Spi1 => &self.buses.spi1,
        };
        let mut path = base.as_os_str().to_owned();
        path.push(format!(".{}", spi.chip_select.number()));
        PathBuf::from(path)
    }
}

/// How many inputs `sensor` has (`None` for the simulated board).
fn sensor_inputs(sensor: &SensorConfig) -> Option<usize> {
    match sensor {
        SensorConfig::ShiftChain { chips, .. } => Some(usize::from(*chips) * 8),
        SensorConfig::Matrix { rows, columns, .. } => {
            Some(usize::from(*rows) * usize::from(*columns))
        }
        SensorConfig::GpioMatrix { rows, columns, .. } => Some(rows.len() * columns.len()),
        SensorConfig::Expanders { addresses, .. } => Some(addresses.len() * 16),
        SensorConfig::Simulated => None,
    }
}

impl Reader<'_> {
    /// `[board] cells`: input -> cell, each entry a square (`"a1"`), a run of squares in cell
    /// order (`"a1..l1"`, or backwards `"l2..a2"`), a cell number (a tray slot, after the
    /// squares) or `"-"` (an input wired to no square). Every cell must appear once, and the
    /// list may not be longer than the sensor's inputs.
    fn cell_list(
        &mut self,
        list: ValueInner<'_>,
        at: usize,
        (columns, rows, cells): (u8, u8, usize),
        inputs: Option<usize>,
    ) -> Option<Vec<Option<SensedCell>>> {
        let ValueInner::Array(items) = list else {
            return self.wrong_type(
                at,
                "board",
                "cells",
                "a list like [\"a1..l1\", \"l2..a2\", \"-\"]",
                &list,
            );
        };
        let squares = usize::from(columns) * usize::from(rows);
        let last = char::from(b'a' + columns.saturating_sub(1).min(25));
        // A tray slot's cell number only where the board has tray slots (none: "100 to 99").
        let slots = if cells > squares {
            format!(
                ", a tray slot's cell number {squares} to {} (or a run of them, \"{squares}..{}\")",
                cells - 1,
                cells - 1
            )
        } else {
            String::new()
        };
        let hint = format!(
            "each entry is a square a1 to {last}{rows}, a run like \"a1..{last}1\"{slots} or \
             \"-\" for an input wired to no square"
        );
        // A square ("a1"), or a cell number written as text ("120", as the list's other
        // entries are): the hint's tray slot numbers, quoted or not.
        let place = |text: &str| place_number(text, columns, rows, cells);
        let mut out: Vec<Option<SensedCell>> = Vec::new();
        let mut first_input: Vec<Option<(usize, usize)>> = vec![None; cells];
        let mut ok = true;
        for mut item in items {
            let item_at = item.span.start;
            let value = item.take();
            // The entry as the file writes it, for the problem: a list on one line has many.
            let written = match &value {
                ValueInner::String(s) => format!("\"{s}\""),
                ValueInner::Integer(n) => n.to_string(),
                _ => "an entry that is neither text nor a number".to_string(),
            };
            let entry: Option<Vec<Option<u16>>> = match value {
                ValueInner::String(s) if s == "-" => Some(vec![None]),
                ValueInner::String(s) => match s.split_once("..") {
                    Some((from, to)) => place(from).zip(place(to)).map(|(a, b)| {
                        if a <= b {
                            (a..=b).map(Some).collect()
                        } else {
                            (b..=a).rev().map(Some).collect()
                        }
                    }),
                    None => place(&s).map(|c| vec![Some(c)]),
                },
                ValueInner::Integer(n) if n >= 0 && (n as usize) < cells => {
                    Some(vec![Some(n as u16)])
                }
                _ => None,
            };
            let Some(entry) = entry else {
                self.problem(
                    item_at,
                    format!("[board] cells: {written} is no input's place here: {hint}"),
                );
                ok = false;
                continue;
            };
            for cell in entry {
                let input = out.len();
                if let Some(c) = cell {
                    let slot = &mut first_input[usize::from(c)];
                    if let Some((first, _)) = *slot {
                        let name = cell_name(c, columns, squares);
                        self.problem(
                            item_at,
                            format!(
                                "[board] cells: {name} is read by input {first} and again by \
                                 input {input}: each square has one switch, list it once"
                            ),
                        );
                        ok = false;
                    } else {
                        *slot = Some((input, item_at));
                    }
                }
                out.push(cell.map(SensedCell::new));
            }
        }
        if let Some(inputs) = inputs {
            if out.len() > inputs {
                self.problem(
                    at,
                    format!(
                        "[board] cells lists {} inputs but the sensor has {inputs}: remove \
                         entries, or add chips, rows or expanders",
                        out.len()
                    ),
                );
                ok = false;
            }
        }
        let missing: Vec<String> = (0..cells)
            .filter(|&c| first_input[c].is_none())
            .map(|c| cell_name(c as u16, columns, squares))
            .collect();
        if ok && !missing.is_empty() {
            let shown = missing
                .iter()
                .take(12)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ");
            self.problem(
                at,
                format!(
                    "[board] cells has {} entries but leaves {} of the {cells} places unread \
                     ({shown}{}): give every square (and tray slot) one input",
                    out.len(),
                    missing.len(),
                    if missing.len() > 12 { ", ..." } else { "" }
                ),
            );
            ok = false;
        }
        ok.then_some(out)
    }
}

/// `e4` for a square's cell, `cell 125` for a tray slot's.
fn cell_name(cell: u16, columns: u8, squares: usize) -> String {
    let columns = u16::from(columns.max(1));
    if usize::from(cell) >= squares {
        return format!("cell {cell}");
    }
    let (column, row) = (cell % columns, cell / columns);
    match u8::try_from(column) {
        Ok(c) if c < 26 => format!("{}{}", char::from(b'a' + c), row + 1),
        _ => format!("cell {cell}"),
    }
}

impl Reader<'_> {
    /// `[sensor]`: checks every sub-section present, wires the one `kind` names.
    /// Also says whether the kind is real hardware (so buttons are needed), even when its
    /// sub-section has problems.
    fn sensor(
        &mut self,
        root: &mut Table<'_>,
        cells: usize,
        uses: &mut Uses,
    ) -> (SensorConfig, bool) {
        let known = ["kind", "shift_chain", "matrix", "gpio_matrix", "expanders"];
        let present = root.contains_key("sensor");
        let Some((mut t, at)) = self.section(root, "sensor", "sensor", &known) else {
            if !present {
                self.problem(
                    1,
                    format!(
                        "no [sensor] section: add one with kind = {}",
                        quoted(&KINDS)
                    ),
                );
            }
            return (SensorConfig::Simulated, false);
        };
        let kind = self.required_string(&mut t, "kind", ("sensor", at), &KINDS);
        let kind = kind.as_ref().map(|k| k.0.as_str());
        let hardware = kind.is_some_and(|k| k != "simulated");
        let mut unused = Uses::default();
        let mut sensor = SensorConfig::Simulated;
        for sub in ["shift_chain", "matrix", "gpio_matrix", "expanders"] {
            let chosen = kind == Some(sub);
            let name = format!("sensor.{sub}");
            let present = t.contains_key(sub);
            let target = if chosen { &mut *uses } else { &mut unused };
            let parsed = match sub {
                "shift_chain" => self.shift_chain(&mut t, &name, cells, chosen, target),
                "matrix" => self.pcf_matrix(&mut t, &name, cells, chosen, target),
                "gpio_matrix" => self.gpio_matrix(&mut t, &name, cells, chosen, target),
                _ => self.expanders(&mut t, &name, cells, chosen, target),
            };
            if chosen {
                match parsed {
                    Some(s) => sensor = s,
                    None if present => {}
                    None => self.problem(
                        at,
                        format!("kind = \"{sub}\" needs a [{name}] section: add it"),
                    ),
                }
            }
        }
        (sensor, hardware)
    }

    fn shift_chain(
        &mut self,
        parent: &mut Table<'_>,
        name: &str,
        cells: usize,
        chosen: bool,
        uses: &mut Uses,
    ) -> Option<SensorConfig> {
        let known = [
            "bus",
            "chip_select",
            "chips",
            "spi_hz",
            "load",
            "active_low",
        ];
        let (mut t, at) = self.section(parent, "shift_chain", name, &known)?;
        let spi = self.spi(&mut t, (name, at));
        let load = self.required_pin(&mut t, "load", (name, at));
        let most = (MAX_CELLS / 8) as i64;
        let chips = self.required_int(&mut t, "chips", (name, at), (1, most));
        let active_low = self.boolean(&mut t, "active_low", name).unwrap_or(true);
        if let (Some((c, c_at)), true) = (chips, chosen) {
            // A board past MAX_CELLS is [board]'s problem: no chain could be long enough.
            if (c as usize) * 8 < cells && cells <= MAX_CELLS {
                self.problem(
                    c_at,
                    format!(
                        "[{name}] {c} chips give {} inputs but the board senses {cells} places: \
                         chain {} chips",
                        c * 8,
                        cells.div_ceil(8)
                    ),
                );
            }
        }
        let (spi, spi_at) = spi?;
        let load = load?;
        uses.spi.push(SpiUse {
            spi,
            at: spi_at,
            what: format!("[{name}]"),
        });
        uses.pin(load, format!("[{name}] load"));
        Some(SensorConfig::ShiftChain {
            spi,
            load: load.0,
            chips: chips?.0 as u8,
            active_low,
        })
    }

    fn pcf_matrix(
        &mut self,
        parent: &mut Table<'_>,
        name: &str,
        cells: usize,
        chosen: bool,
        uses: &mut Uses,
    ) -> Option<SensorConfig> {
        let known = ["bus", "rows", "columns", "row_expander", "column_expander"];
        let (mut t, at) = self.section(parent, "matrix", name, &known)?;
        let bus = self.i2c_bus(&mut t, (name, at));
        let rows = self.required_int(&mut t, "rows", (name, at), (1, 16));
        let columns = self.required_int(&mut t, "columns", (name, at), (1, 16));
        let row_expander = self.expander_address(&mut t, "row_expander", (name, at));
        let column_expander = self.expander_address(&mut t, "column_expander", (name, at));
        if let (Some((r, r_at)), Some((c, _)), true) = (rows, columns, chosen) {
            if (r * c) < cells as i64 {
                // Past 16 x 16 no rows or columns added would do: only the chain reaches.
                let fix = if cells > PINS_PER_CHIP * PINS_PER_CHIP {
                    ", and a matrix has at most 16 rows and 16 columns: use kind = \"shift_chain\""
                } else {
                    ": add rows or columns (up to 16 each)"
                };
                self.problem(
                    r_at,
                    format!(
                        "[{name}] a {r}x{c} matrix senses {} places but the board senses \
                         {cells}{fix}",
                        r * c
                    ),
                );
            }
        }
        let (bus, _) = bus?;
        let (row_expander, row_at) = row_expander?;
        let (column_expander, column_at) = column_expander?;
        uses.i2c.push(I2cUse {
            bus,
            address: row_expander,
            at: row_at,
            what: format!("[{name}] row_expander"),
        });
        uses.i2c.push(I2cUse {
            bus,
            address: column_expander,
            at: column_at,
            what: format!("[{name}] column_expander"),
        });
        Some(SensorConfig::Matrix {
            bus,
            rows: rows?.0 as u8,
            columns: columns?.0 as u8,
            row_expander,
            column_expander,
        })
    }

    fn gpio_matrix(
        &mut self,
        parent: &mut Table<'_>,
        name: &str,
        cells: usize,
        chosen: bool,
        uses: &mut Uses,
    ) -> Option<SensorConfig> {
        let known = ["rows", "columns", "active_low", "settle_us"];
        let (mut t, at) = self.section(parent, "gpio_matrix", name, &known)?;
        let mut pin_list = |key: &str| {
            let hint = "a list of BCM GPIO numbers like [5, 6]";
            let what = format!("a BCM GPIO number 0 to {MAX_GPIO}");
            self.required_list(&mut t, key, (name, at), (0, MAX_GPIO), hint, &what)
        };
        let rows = pin_list("rows");
        let columns = pin_list("columns");
        let active_low = self.boolean(&mut t, "active_low", name).unwrap_or(true);
        let settle_us = self
            .int(&mut t, "settle_us", name, (0, 10_000))
            .map_or(50, |v| v.0 as u32);
        let (rows, rows_at) = rows?;
        let (columns, _) = columns?;
        if chosen && rows.len() * columns.len() < cells {
            // The header's GPIO pins, split evenly between rows and columns, sense the most.
            let pins = (MAX_GPIO + 1) as usize;
            let most = (pins / 2) * (pins - pins / 2);
            let fix = if cells > most {
                format!(", and {pins} GPIO pins sense at most {most}: use kind = \"shift_chain\"")
            } else {
                ": add row or column pins".to_string()
            };
            self.problem(
                rows_at,
                format!(
                    "[{name}] a {}x{} matrix senses {} places but the board senses {cells}{fix}",
                    rows.len(),
                    columns.len(),
                    rows.len() * columns.len()
                ),
            );
        }
        for &(p, p_at) in &rows {
            uses.pin((p as u8, p_at), format!("[{name}] row"));
        }
        for &(p, p_at) in &columns {
            uses.pin((p as u8, p_at), format!("[{name}] column"));
        }
        Some(SensorConfig::GpioMatrix {
            rows: rows.iter().map(|p| p.0 as u8).collect(),
            columns: columns.iter().map(|p| p.0 as u8).collect(),
            active_low,
            settle_us,
        })
    }

    fn expanders(
        &mut self,
        parent: &mut Table<'_>,
        name: &str,
        cells: usize,
        chosen: bool,
        uses: &mut Uses,
    ) -> Option<SensorConfig> {
        let (mut t, at) = self.section(parent, "expanders", name, &["bus", "addresses"])?;
        let bus = self.i2c_bus(&mut t, (name, at));
        let addresses = self.required_list(
            &mut t,
            "addresses",
            (name, at),
            (0x20, 0x27),
            "like [0x20, 0x21]",
            "a PCF8575 address 0x20 to 0x27 (set by its A0-A2 pins)",
        );
        let (addresses, list_at) = addresses?;
        if chosen && addresses.len() * 16 < cells {
            // Eight addresses (0x20 to 0x27) are all a bus has: past them only the chain reaches.
            let chips = usize::from(LAST_ADDRESS - FIRST_ADDRESS) + 1;
            let fix = if cells > chips * PINS_PER_CHIP {
                ", and eight (0x20 to 0x27) are the most: use kind = \"shift_chain\"".to_string()
            } else {
                format!(": add {} more", cells.div_ceil(16) - addresses.len())
            };
            self.problem(
                list_at,
                format!(
                    "[{name}] {} expanders give {} inputs but the board senses {cells} \
                     places{fix}",
                    addresses.len(),
                    addresses.len() * 16,
                ),
            );
        }
        let (bus, _) = bus?;
        for &(a, a_at) in &addresses {
            uses.i2c.push(I2cUse {
                bus,
                address: a as u8,
                at: a_at,
                what: format!("[{name}] addresses"),
            });
        }
        Some(SensorConfig::Expanders {
            bus,
            addresses: addresses.iter().map(|a| a.0 as u8).collect(),
        })
    }

    /// `[game] variant = "wanted"` (on line `at`) of `game`: the menu's label it names, as
    /// the menu writes it or slugged, among the entries offered with `nfc_readers` or not.
    fn variant(
        &mut self,
        game: GameName,
        wanted: &str,
        at: usize,
        nfc_readers: bool,
    ) -> Option<String> {
        let entries = game.entries(nfc_readers);
        let named = |label: &str| slug(label) == slug(wanted);
        if let Some((label, _, _)) = entries.iter().find(|(label, _, _)| named(label)) {
            return Some(label.clone());
        }
        if entries.is_empty() {
            let with: Vec<&str> = GameName::ALL
                .iter()
                .filter(|(g, _)| !g.entries(false).is_empty())
                .map(|(_, name)| *name)
                .collect();
            self.problem(
                at,
                format!(
                    "[game] variant applies to {} only; \"{}\" has no variants (its menu \
                     chooses how to set up): remove the line",
                    quoted(&with),
                    game.name()
                ),
            );
            return None;
        }
        // An entry set up by tags, with no readers to offer it.
        let offered = game.entries(true);
        let tagged = offered
            .iter()
            .find(|(label, _, setup)| *setup == SetupMode::Tags && named(label));
        if let (false, Some((_, kind, _))) = (nfc_readers, tagged) {
            let untagged = entries
                .iter()
                .find(|(_, k, setup)| k == kind && *setup != SetupMode::Tags)
                .map_or_else(String::new, |(label, _, _)| {
                    format!(
                        ", or use variant = \"{}\" to set it up without tags",
                        slug(label)
                    )
                });
            self.problem(
                at,
                format!(
                    "[game] variant = \"{wanted}\" sets {} up by NFC tags, which the menu \
                     offers only with NFC readers under the board: configure them in [nfc] \
                     (enabled = true, one [[nfc.reader]] for each module){untagged}",
                    game.name()
                ),
            );
            return None;
        }
        let names: Vec<String> = entries.iter().map(|(label, _, _)| slug(label)).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        self.problem(
            at,
            format!(
                "[game] variant = \"{wanted}\" is not on the {} menu: use one of {}",
                game.name(),
                quoted(&names)
            ),
        );
        None
    }

    /// `[nfc]` and its `[[nfc.reader]]` entries: checked whenever present, wired when
    /// `enabled` (the default when the section is there).
    fn nfc(
        &mut self,
        root: &mut Table<'_>,
        (columns, rows): (u8, u8),
        uses: &mut Uses,
    ) -> Option<NfcConfig> {
        let known = [
            "enabled",
            "bus",
            "chip_select",
            "spi_hz",
            "reset",
            "address",
            "reader",
            "tags",
        ];
        let (mut t, at) = self.section(root, "nfc", "nfc", &known)?;
        let enabled = self.boolean(&mut t, "enabled", "nfc").unwrap_or(true);
        self.nfc_enabled = enabled;
        let tags = match self.string(&mut t, "tags", "nfc", &[]) {
            Some((path, at)) if path.trim().is_empty() => {
                self.problem(
                    at,
                    "[nfc] tags is empty: give the tags file's path, or remove the line".into(),
                );
                None
            }
            Some((path, _)) => Some(PathBuf::from(path)),
            None => None,
        };
        if !enabled {
            self.nfc_tags_ignored.clone_from(&tags);
        }
        let mut unused = Uses::default();
        let uses = if enabled { uses } else { &mut unused };
        // A disabled reader may leave its wiring out; what is there is still type-checked.
        let spi = if enabled || (t.contains_key("bus") && t.contains_key("chip_select")) {
            self.spi(&mut t, ("nfc", at))
        } else {
            self.string(&mut t, "bus", "nfc", &SPI_BUSES);
            self.string(&mut t, "chip_select", "nfc", &CHIP_SELECTS);
            self.int(&mut t, "spi_hz", "nfc", SPI_HZ);
            None
        };
        let reset = self.pin(&mut t, "reset", "nfc");
        if let Some(p) = reset {
            uses.pin(p, "[nfc] reset");
        }
        let mut address = Vec::new();
        let mut address_at = at;
        if let Some((lines, lines_at)) = self.list(
            &mut t,
            "address",
            "nfc",
            (0, MAX_GPIO),
            &format!("a BCM GPIO number 0 to {MAX_GPIO}"),
        ) {
            address_at = lines_at;
            if lines.len() > MAX_NFC_ADDRESS_LINES {
                self.problem(
                    lines_at,
                    format!(
                        "[nfc] address has {} lines: a 74HC154 takes at most \
                         {MAX_NFC_ADDRESS_LINES} (16 readers)",
                        lines.len()
                    ),
                );
            }
            for (i, &(p, p_at)) in lines.iter().enumerate() {
                let p = (p as u8, p_at);
                uses.pin(p, format!("[nfc] address A{i}"));
                address.push(p.0);
            }
        }
        let readers = self.nfc_readers(&mut t, at, (columns, rows), enabled);
        let (spi, spi_at) = spi?;
        uses.spi.push(SpiUse {
            spi,
            at: spi_at,
            what: "[nfc]".into(),
        });
        let readers = readers?;
        let reach = 1usize << address.len().min(MAX_NFC_ADDRESS_LINES);
        if readers.len() > reach {
            self.problem(
                address_at,
                format!(
                    "[nfc] has {} readers but {} address lines reach only {reach} decoder \
                     outputs: list {} lines in address (A0 first)",
                    readers.len(),
                    address.len(),
                    usize::BITS - (readers.len() - 1).leading_zeros()
                ),
            );
            return None;
        }
        enabled.then(|| NfcConfig {
            spi,
            reset: reset.map(|p| p.0),
            address,
            readers,
            tags,
        })
    }

    /// `[leds]`: off unless `enabled = true`; a bus of its own (the chain has no chip select
    /// and reads every byte on MOSI), a capped brightness, a chain order.
    fn leds(&mut self, root: &mut Table<'_>, uses: &mut Uses) -> Option<LedsConfig> {
        let known = ["enabled", "bus", "chip_select", "brightness", "order"];
        let (mut t, at) = self.section(root, "leds", "leds", &known)?;
        let enabled = self.boolean(&mut t, "enabled", "leds").unwrap_or(false);
        let bus = self.string(&mut t, "bus", "leds", &SPI_BUSES);
        let cs = self.string(&mut t, "chip_select", "leds", &CHIP_SELECTS);
        let brightness = match self.int(&mut t, "brightness", "leds", (0, 255)) {
            Some((level, level_at)) => match Brightness::new(level as u8) {
                Ok(b) => Some(b),
                Err(_) => {
                    self.problem(
                        level_at,
                        format!(
                            "[leds] brightness = {level}: use 1 to {HARD_MAX_BRIGHTNESS} (of \
                            255; {HARD_MAX_BRIGHTNESS} is the hard cap, a quarter of full, so \
                            the LEDs never dazzle nor overload their 5 V supply); to switch \
                            them off set enabled = false"
                        ),
                    );
                    None
                }
            },
            None => Brightness::new(DEFAULT_LED_BRIGHTNESS).ok(),
        };
        let order = match self.string(&mut t, "order", "leds", &["cells", "serpentine"]) {
            Some((o, _)) if o == "cells" => Some(LedOrder::Cells),
            Some(_) => Some(LedOrder::Serpentine),
            None => match LedOrder::schematic() {
                Ok(order) => Some(order),
                Err(e) => {
                    self.problem(at, format!("[leds] has no order and {e}"));
                    None
                }
            },
        };
        let bus_line = bus.as_ref().map_or(at, |b| b.1);
        let bus = match bus.as_ref().map(|b| b.0.as_str()) {
            Some("spi0") => SpiBus::Spi0,
            _ => SpiBus::Spi1,
        };
        let chip_select = match cs.as_ref().map(|c| c.0.as_str()) {
            Some("ce1") => ChipSelect::Ce1,
            Some("ce2") => ChipSelect::Ce2,
            _ => ChipSelect::Ce0,
        };
        if bus.chip_select_pin(chip_select).is_none() {
            self.problem(
                cs.map_or(at, |c| c.1),
                "[leds] chip_select = \"ce2\": spi0 has only \"ce0\" and \"ce1\"".into(),
            );
            return None;
        }
        let spi = SpiConfig {
            bus,
            chip_select,
            spi_hz: crate::drivers::leds::SPI_HZ,
        };
        if !enabled {
            return None;
        }
        uses.spi.push(SpiUse {
            spi,
            at: bus_line,
            what: LEDS.into(),
        });
        Some(LedsConfig {
            spi,
            brightness: brightness?,
            order: order?,
        })
    }

    /// `[sensing]`: the sensing model's timing, every key optional (one left out keeps
    /// [`SensingConfig::DEFAULT`]'s), each in a range that works on a board played by hands,
    /// and together within the referee's own timing: the settle window and the wait for a tag
    /// leave most of the attack hold ([`RefereeConfig::DEFAULT_ATTACK_HOLD_MS`]), and a tag
    /// wait, when given, is no shorter than the settle window.
    fn sensing(&mut self, root: &mut Table<'_>) -> SensingConfig {
        let mut out = SensingConfig::DEFAULT;
        let Some((mut t, _)) = self.section(root, "sensing", "sensing", &SENSING_KEYS) else {
            return out;
        };
        let default = SensingConfig::DEFAULT;
        let hold = RefereeConfig::DEFAULT_ATTACK_HOLD_MS;
        let longest = i64::from(MAX_SENSING_WAIT_MS);
        if let Some((n, _)) = self.sensing_int(&mut t, "debounce_samples", (1, 10), |n| {
            format!(
                "[sensing] debounce_samples = {n}: use 1 to 10 agreeing scans (1 believes every \
                 scan; at 100 Hz ten already hold every change back 90 ms, most of the 100 ms a \
                 move may take to be decided), or remove the line for {}",
                default.debounce_samples
            )
        }) {
            out.debounce_samples = n as u8;
        }
        if let Some((n, _)) = self.sensing_int(&mut t, "debounce_span_ms", (0, 50), |n| {
            format!(
                "[sensing] debounce_span_ms = {n}: use 0 to 50 ms (a reed's contacts bounce for \
                 under 1 ms; a longer span only holds back every change), or remove the line \
                 for {}",
                default.debounce_span_ms
            )
        }) {
            out.debounce_span_ms = n as u32;
        }
        let settle = (i64::from(MIN_SETTLE_MS), longest);
        if let Some((n, _)) = self.sensing_int(&mut t, "settle_ms", settle, |n| {
            if n < settle.0 {
                format!(
                    "[sensing] settle_ms = {n} is too short to drop a slid piece's pass-over: a \
                     piece slid across a square holds its switch closed for some 50 to 130 ms, \
                     and a nudge or a lift-and-replace would be reported too; use {} to {} \
                     (the default {} drops a slow slide's)",
                    settle.0, settle.1, default.settle_ms
                )
            } else {
                format!(
                    "[sensing] settle_ms = {n} is too long: a lift is heard only once the window \
                     is over, and the referee judges a gesture of lifts (an attack) {hold} ms \
                     after its last lift, so a brushed piece must have most of that left to be \
                     put back before anything is revealed; use {} to {} (half the hold)",
                    settle.0, settle.1
                )
            }
        }) {
            out.settle_ms = n as u32;
        }
        let settle_ms = out.settle_ms;
        let wait = (i64::from(settle_ms), longest);
        if let Some((n, _)) = self.sensing_int(&mut t, "tag_wait_ms", wait, |n| {
            if n < wait.0 {
                format!(
                    "[sensing] tag_wait_ms = {n} is shorter than the settle window (settle_ms = \
                     {settle_ms}): a placement is never reported before its window is over, so \
                     this wait would change nothing; give settle_ms or more (at most {longest}), \
                     or remove the line (the wait is then the longer of the two)"
                )
            } else {
                format!(
                    "[sensing] tag_wait_ms = {n} is too long: a piece put on a square with a \
                     reader is reported only once its tag is read or this wait is over, and the \
                     referee judges a gesture of lifts {hold} ms after its last lift, so the \
                     landing must be heard well before; use at most {longest} (half the hold), \
                     or remove the line for {}",
                    default.tag_wait_ms
                )
            }
        }) {
            out.tag_wait_ms = n as u32;
        }
        let chatter = (i64::from(MIN_CHATTER_LIMIT), 50);
        if let Some((n, at)) = self.sensing_int(&mut t, "chatter_limit", (0, chatter.1), |n| {
            let why = if n < 0 {
                "counts changes of a switch".to_string()
            } else {
                format!(
                    "is too many: a switch changing {} times with no quiet moment has flickered \
                     for half a second at least, a fault to report",
                    chatter.1
                )
            };
            format!(
                "[sensing] chatter_limit = {n} {why}; use {} to {}, 0 to never report a \
                 chattering switch, or remove the line for {}",
                chatter.0, chatter.1, default.chatter_limit
            )
        }) {
            if n > 0 && n < chatter.0 {
                self.problem(
                    at,
                    format!(
                        "[sensing] chatter_limit = {n} would report the hands as a fault: a \
                         piece slid over a square changes its switch twice and a nudged one \
                         four times or so; use {} to {}, 0 to never report a chattering switch, \
                         or remove the line for {}",
                        chatter.0, chatter.1, default.chatter_limit
                    ),
                );
            } else {
                out.chatter_limit = n as u8;
            }
        }
        if let Some(early) = self.boolean(&mut t, "decide_early", "sensing") {
            out.decide_early = early;
        }
        out
    }

    /// `[sensing] key`, a whole number in `range`; one outside it is reported with `fix`'s
    /// words (what it does, what to use).
    fn sensing_int(
        &mut self,
        t: &mut Table<'_>,
        key: &str,
        range: (i64, i64),
        fix: impl FnOnce(i64) -> String,
    ) -> Option<(i64, usize)> {
        let (v, at) = take(t, key)?;
        match v {
            ValueInner::Integer(n) if n >= range.0 && n <= range.1 => Some((n, at)),
            ValueInner::Integer(n) => {
                self.problem(at, fix(n));
                None
            }
            other => self.wrong_type(at, "sensing", key, "a whole number", &other),
        }
    }

    /// `[web]`: off unless `enabled = true`; a port the service user may bind.
    fn web(&mut self, root: &mut Table<'_>) -> Option<WebConfig> {
        let (mut t, _) = self.section(root, "web", "web", &["enabled", "port", "url"])?;
        let enabled = self.boolean(&mut t, "enabled", "web").unwrap_or(false);
        let port = match self.int(&mut t, "port", "web", (0, 65535)) {
            Some((p, _)) if p >= 1024 => u16::try_from(p).ok(),
            Some((p, at)) => {
                self.problem(
                    at,
                    format!(
                        "[web] port = {p}: use 1024 to 65535 (the umpire runs as its own user, \
                         which may not listen below 1024), e.g. port = {DEFAULT_WEB_PORT}"
                    ),
                );
                None
            }
            None => Some(DEFAULT_WEB_PORT),
        };
        let url = match self.string(&mut t, "url", "web", &[]) {
            Some((text, at)) => match crate::web::link::Origin::parse(&text) {
                Ok(origin) => Some(Some(origin)),
                Err(e) => {
                    self.problem(at, format!("[web] url = \"{text}\": {e}"));
                    None
                }
            },
            None => Some(None),
        };
        enabled.then_some(WebConfig {
            port: port?,
            url: url?,
        })
    }

    /// `[[nfc.reader]]`: each reader's `cells`, squares by name, none twice.
    fn nfc_readers(
        &mut self,
        t: &mut Table<'_>,
        at: usize,
        (columns, rows): (u8, u8),
        enabled: bool,
    ) -> Option<Vec<Vec<SensedCell>>> {
        let Some(mut value) = t.remove("reader") else {
            if enabled {
                self.problem(
                    at,
                    "[nfc] needs its readers: one [[nfc.reader]] with `cells = [\"a1\", ...]` \
                     per MFRC522 module, the squares over its antenna; or set enabled = false"
                        .into(),
                );
            }
            return None;
        };
        let value_at = value.span.start;
        let ValueInner::Array(items) = value.take() else {
            self.problem(
                value_at,
                "[nfc] reader must be [[nfc.reader]] sections, each with cells".into(),
            );
            return None;
        };
        if items.len() > 1 << MAX_NFC_ADDRESS_LINES {
            self.problem(
                value_at,
                format!(
                    "[nfc] has {} readers: at most {} fit one 74HC154 decoder",
                    items.len(),
                    1 << MAX_NFC_ADDRESS_LINES
                ),
            );
        }
        let mut readers: Vec<Vec<SensedCell>> = Vec::new();
        let mut ok = true;
        for (n, mut item) in items.into_iter().enumerate() {
            let item_at = item.span.start;
            let ValueInner::Table(mut r) = item.take() else {
                self.problem(
                    item_at,
                    "each [[nfc.reader]] is a section with cells".into(),
                );
                ok = false;
                continue;
            };
            for k in r.keys() {
                if k.name != "cells" {
                    self.problem(
                        k.span.start,
                        format!(
                            "unknown setting `{}` in [[nfc.reader]]: check the spelling \
                             (known: cells)",
                            k.name
                        ),
                    );
                }
            }
            if self.missing(
                &r,
                "cells",
                ("nfc.reader", item_at),
                "the squares over this module's antenna, like [\"a1\", \"b1\"]",
            ) {
                ok = false;
                continue;
            }
            let Some((v, cells_at)) = take(&mut r, "cells") else {
                continue;
            };
            let ValueInner::Array(names) = v else {
                self.problem(
                    cells_at,
                    "[[nfc.reader]] cells must be a list of squares like [\"a1\", \"b1\"]".into(),
                );
                ok = false;
                continue;
            };
            if names.is_empty() {
                self.problem(
                    cells_at,
                    format!(
                        "NFC reader {} has no squares: list the squares over its antenna",
                        n + 1
                    ),
                );
                ok = false;
            }
            let mut region = Vec::new();
            for mut name in names {
                let name_at = name.span.start;
                let cell = match name.take() {
                    ValueInner::String(s) => square_cell(&s, columns, rows).ok_or_else(|| {
                        format!(
                            "[[nfc.reader]] cells: \"{s}\" is not a square of this \
                             {columns}x{rows} board (write \"a1\" to \"{}{rows}\")",
                            char::from(b'a' + columns.saturating_sub(1).min(25))
                        )
                    }),
                    _ => Err("[[nfc.reader]] cells: each entry is a square like \"a1\"".into()),
                };
                match cell {
                    Ok(cell) => {
                        if let Some(other) = readers.iter().position(|r| r.contains(&cell)) {
                            self.problem(
                                name_at,
                                format!(
                                    "{} is under NFC readers {} and {}: give each square one \
                                     reader",
                                    square_name(cell, columns),
                                    other + 1,
                                    n + 1
                                ),
                            );
                            ok = false;
                        } else if region.contains(&cell) {
                            self.problem(
                                name_at,
                                format!(
                                    "{} is listed twice for NFC reader {}",
                                    square_name(cell, columns),
                                    n + 1
                                ),
                            );
                            ok = false;
                        } else {
                            region.push(cell);
                        }
                    }
                    Err(message) => {
                        self.problem(name_at, message);
                        ok = false;
                    }
                }
            }
            readers.push(region);
        }
        (ok && !readers.is_empty()).then_some(readers)
    }

    /// No GPIO twice (bus pins included), no shared chip select, no shared I2C address.
    fn check_wiring(&mut self, mut uses: Uses) {
        let mut i2c_buses: Vec<(I2cBus, usize)> = Vec::new();
        for d in &uses.i2c {
            if !i2c_buses.iter().any(|b| b.0 == d.bus) {
                i2c_buses.push((d.bus, d.at));
            }
        }
        for (bus, at) in i2c_buses {
            for (p, name) in bus.pins() {
                uses.pins.push(PinUse {
                    pin: p,
                    at,
                    what: format!("{} {name}", bus.name().to_uppercase()),
                });
            }
        }
        let mut spi_buses: Vec<(SpiBus, usize)> = Vec::new();
        for d in &uses.spi {
            if !spi_buses.iter().any(|b| b.0 == d.spi.bus) {
                spi_buses.push((d.spi.bus, d.at));
            }
        }
        for (bus, at) in &spi_buses {
            for (p, name) in bus.pins() {
                uses.pins.push(PinUse {
                    pin: p,
                    at: *at,
                    what: format!("{} {name}", bus.name().to_uppercase()),
                });
            }
        }
        // `dtparam=spi=on` gives the kernel both of SPI0's chip selects (spidev0.0 and 0.1),
        // used or not: a button or a matrix line there never reads.
        if let Some((_, at)) = spi_buses.iter().find(|(b, _)| *b == SpiBus::Spi0) {
            for (cs, p) in SpiBus::Spi0.chip_select_pins() {
                let used = uses
                    .spi
                    .iter()
                    .any(|d| d.spi.bus == SpiBus::Spi0 && d.spi.chip_select == cs);
                if !used {
                    uses.pins.push(PinUse {
                        pin: p,
                        at: *at,
                        what: format!(
                            "SPI0 CE{} (the kernel holds it once SPI0 is on)",
                            cs.number()
                        ),
                    });
                }
            }
        }
        for (i, d) in uses.spi.iter().enumerate() {
            let bus = d.spi.bus;
            let cs = d.spi.chip_select;
            if let Some(p) = bus.chip_select_pin(cs) {
                uses.pins.push(PinUse {
                    pin: p,
                    at: d.at,
                    what: format!(
                        "{} chip select ({} CE{})",
                        d.what,
                        bus.name().to_uppercase(),
                        cs.number()
                    ),
                });
            }
            if let Some(other) = uses.spi[..i]
                .iter()
                .find(|o| o.spi.bus == bus && o.spi.chip_select == cs)
            {
                self.problem(
                    d.at,
                    format!(
                        "{} and {} share {} CE{}: give each SPI device its own chip select",
                        other.what,
                        d.what,
                        bus.name().to_uppercase(),
                        cs.number()
                    ),
                );
            }
        }
        for (i, d) in uses.i2c.iter().enumerate() {
            if let Some(other) = uses.i2c[..i]
                .iter()
                .find(|o| o.bus == d.bus && o.address == d.address)
            {
                self.problem(
                    d.at,
                    format!(
                        "{} and {} both answer at {:#04x} on {}: give each I2C device its own \
                         address (a PCF8575's A0-A2 pins, the OLED's jumper)",
                        other.what,
                        d.what,
                        d.address,
                        d.bus.name()
                    ),
                );
            }
        }
        if let Some(leds) = uses.spi.iter().find(|d| d.what == LEDS) {
            if let Some(other) = uses
                .spi
                .iter()
                .find(|o| o.what != LEDS && o.spi.bus == leds.spi.bus)
            {
                self.problem(
                    leds.at,
                    format!(
                        "the LED chain shares {} with {}: it has no chip select and reads every \
                         byte on MOSI as colours; put it on a bus of its own ([leds] bus = \
                         \"{}\")",
                        leds.spi.bus.name(),
                        other.what,
                        match leds.spi.bus {
                            SpiBus::Spi0 => "spi1",
                            SpiBus::Spi1 => "spi0",
                        }
                    ),
                );
            }
        }
        let mut reported = Vec::new();
        for (i, a) in uses.pins.iter().enumerate() {
            if let Some(b) = uses.pins[..i].iter().find(|b| b.pin == a.pin) {
                if reported.contains(&(a.pin, a.at)) {
                    continue;
                }
                reported.push((a.pin, a.at));
                self.problem(
                    a.at.max(b.at),
                    format!(
                        "GPIO {} is used twice, by {} and by {}: move one of them to a free pin",
                        a.pin, b.what, a.what
                    ),
                );
            }
        }
    }
}

/// The `[sensing]` keys: every field of [`SensingConfig`].
pub const SENSING_KEYS: [&str; 6] = [
    "debounce_samples",
    "debounce_span_ms",
    "settle_ms",
    "tag_wait_ms",
    "chatter_limit",
    "decide_early",
];

/// The shortest `[sensing] settle_ms`, in ms: the least stable time before a piece counts as
/// down that `docs/hardware.md` §3 recommends (jes/autopatzer's 50 ms); shorter, a slid piece's
/// pass-over, a nudge or a lift-and-replace is reported as a move.
pub const MIN_SETTLE_MS: u32 = 50;

/// The longest `[sensing] settle_ms` and `tag_wait_ms`, in ms: half the referee's attack hold
/// ([`RefereeConfig::DEFAULT_ATTACK_HOLD_MS`]), so a lift or a landing is heard with most of
/// the hold still ahead.
pub const MAX_SENSING_WAIT_MS: u32 = RefereeConfig::DEFAULT_ATTACK_HOLD_MS / 2;

/// The lowest `[sensing] chatter_limit` but 0 (never): a nudged piece changes its switch four
/// times or so, a hand and not a fault.
pub const MIN_CHATTER_LIMIT: u8 = 5;

/// The LED chain's name in the wiring checks.
const LEDS: &str = "[leds]";

/// `[leds] brightness` when not given (of 255).
const DEFAULT_LED_BRIGHTNESS: u8 = 32;

/// Address lines of the NFC chip-select decoder: a 74HC154 has 4 (16 outputs).
const MAX_NFC_ADDRESS_LINES: usize = 4;

/// The cell of square `name` ("a1": column a, row 1) on a `columns` x `rows` board.
pub fn square_cell(name: &str, columns: u8, rows: u8) -> Option<SensedCell> {
    square_number(name, columns, rows).map(SensedCell::new)
}

/// The cell number of a place as a builder writes it: a square (`"e4"`), or a cell number in
/// digits (`"120"`, a tray slot's after the squares) below `cells`.
pub fn place_number(text: &str, columns: u8, rows: u8, cells: usize) -> Option<u16> {
    square_number(text, columns, rows).or_else(|| {
        let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        let n: u16 = text.parse().ok().filter(|_| digits)?;
        (usize::from(n) < cells).then_some(n)
    })
}

/// The cell number of square `name` (`a1` is cell 0, `b1` cell 1, `a2` cell `columns`); `a01`,
/// `a+1` and squares off the board are `None`.
fn square_number(name: &str, columns: u8, rows: u8) -> Option<u16> {
    let mut chars = name.chars();
    let column = chars.next().filter(char::is_ascii_lowercase)? as u8 - b'a';
    let rest = chars.as_str();
    // Digits only: `a+1` or `a 1` is no square, though `u8` would parse "+1".
    if rest.starts_with('0') || !rest.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row: u8 = rest.parse().ok()?;
    (column < columns && (1..=rows).contains(&row))
        .then(|| u16::from(row - 1) * u16::from(columns) + u16::from(column))
}

/// The name ("a1") of `cell` on a board `columns` wide.
pub fn square_name(cell: SensedCell, columns: u8) -> String {
    let cols = u16::from(columns.max(1));
    let (col, row) = (cell.number() % cols, cell.number() / cols);
    match u8::try_from(col) {
        Ok(c) if c < 26 => format!("{}{}", char::from(b'a' + c), row + 1),
        _ => format!("cell {}", cell.number()),
    }
}

/// Takes `key` out of `t`, with where its value starts.
fn take<'de>(t: &mut Table<'de>, key: &str) -> Option<(ValueInner<'de>, usize)> {
    let mut v = t.remove(key)?;
    let at = v.span.start;
    Some((v.take(), at))
}

/// "a string", "an integer".
fn a(noun: &str) -> String {
    if noun.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {noun}")
    } else {
        format!("a {noun}")
    }
}

/// `"a", "b" or "c"`.
fn quoted(choices: &[&str]) -> String {
    let q: Vec<String> = choices.iter().map(|c| format!("\"{c}\"")).collect();
    match q.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => q.join(""),
    }
}

/// Why a 74HC165 chain's input -> cell map could not be made ([`Config::chain_cells`]).
#[derive(Debug)]
pub enum ChainCellsError {
    /// `[board] cells` does not fit the chain.
    Cells(CellMapError),
    /// The pin map's order does not reach the chips configured.
    Order(OrderError),
}

impl ChainCellsError {
    /// What could not be read: `[board] cells` or the chain's order.
    pub fn what(&self) -> &'static str {
        match self {
            ChainCellsError::Cells(_) => "[board] cells",
            ChainCellsError::Order(_) => "the 74HC165 chain",
        }
    }
}

impl fmt::Display for ChainCellsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChainCellsError::Cells(e) => e.fmt(f),
            ChainCellsError::Order(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ChainCellsError {}
