//! `umpire doctor` and `umpire calibrate`: checking the hardware a configuration describes.
//!
//! Both are generic over the same embedded-hal traits and scanner trait as the drivers, so they
//! run unchanged against the real board and the simulated one ([`crate::sim`]).
//!
//! - [`check_display`]: does an SSD1306 acknowledge at its address?
//! - [`check_display_link`]: does the OLED take whole frames, or does it drop off the bus now
//!   and then (lost and back)?
//! - [`check_expander`]: does a PCF8575 answer a read at its address?
//! - [`check_reader`]: for each NFC reader of the bank: is it there (VersionReg), which chip,
//!   does it initialise (its settings read back, antenna on), and does it list its field?
//! - [`check_sensors`]: on an empty board, which squares and tray slots read occupied (stuck
//!   closed, a piece left behind), which flicker, and, as the board is wired ([`Wiring`]), a
//!   matrix's whole rows or columns (a shorted line, a reversed diode) or a 74HC165 or PCF8575
//!   whose every switch reads (the chip or its supply).
//! - [`check_leds`]: lights each LED of the guidance chain in turn, for the builder to watch
//!   that each lights under its own place, in the pin map's order.
//! - [`Calibration`]: live, which squares and tray slots read occupied now and which have been
//!   seen at least once, so a builder can walk a piece over every place of a new board (or every
//!   place one game uses: [`SensedBoard::only`]) and see the ones that never light.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use embedded_hal::delay::DelayNs;
use embedded_hal::i2c::I2c;
use embedded_hal::spi::SpiDevice;

use crate::drivers::leds::{LedChain, Rgb};
use crate::drivers::nfc::mfrc522::{ChipVersion, Error as NfcError, Mfrc522};
use crate::guidance::LedMap;
use crate::sensing::{LayoutSetup, Occupancy, Place, SensedCell, TagUid};

/// One result of a check: fine, a warning, or a problem with its fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// How bad it is.
    pub severity: Severity,
    /// What was checked ("display", "square e4").
    pub subject: String,
    /// What was found.
    pub detail: String,
    /// What to do about it (empty when fine).
    pub fix: String,
}

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Works.
    Ok,
    /// Works, but worth a look.
    Warning,
    /// Does not work: the umpire cannot be trusted until it is fixed.
    Problem,
}

impl Finding {
    fn ok(subject: impl Into<String>, detail: impl Into<String>) -> Finding {
        Finding {
            severity: Severity::Ok,
            subject: subject.into(),
            detail: detail.into(),
            fix: String::new(),
        }
    }

    fn bad(
        severity: Severity,
        subject: impl Into<String>,
        detail: impl Into<String>,
        fix: impl Into<String>,
    ) -> Finding {
        Finding {
            severity,
            subject: subject.into(),
            detail: detail.into(),
            fix: fix.into(),
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = match self.severity {
            Severity::Ok => "ok     ",
            Severity::Warning => "WARNING",
            Severity::Problem => "PROBLEM",
        };
        write!(f, "{mark} {}: {}", self.subject, self.detail)?;
        if !self.fix.is_empty() {
            write!(f, "\n        fix: {}", self.fix)?;
        }
        Ok(())
    }
}

/// How long [`check_leds`] keeps each LED lit, in ms: long enough to see which place glows.
pub const LED_STEP_MS: u32 = 250;

/// `doctor`'s LED step, the same on the Pi and in the simulation: the chain `leds` over the
/// board `setup` lays out, each LED lit in turn ([`check_leds`]) on the bus `open` gives for a
/// chain of that many LEDs. A layout that does not validate is a problem with its fix, never a
/// step silently skipped.
pub fn check_led_step<S: embedded_hal::spi::SpiBus, D: DelayNs>(
    setup: crate::sensing::LayoutSetup,
    leds: &crate::config::LedsConfig,
    open: impl FnOnce(usize) -> Result<S, Finding>,
    delay: &mut D,
    each: impl FnMut(usize, &str),
) -> Finding {
    let layout = match setup.validate() {
        Ok(layout) => layout,
        Err(p) => {
            return Finding::bad(
                Severity::Problem,
                "LED chain",
                format!("the board's layout: {p}"),
                "fix [board] in the configuration",
            )
        }
    };
    let map = LedMap::new(&layout, leds.order);
    let bus = match open(map.len()) {
        Ok(bus) => bus,
        Err(finding) => return finding,
    };
    let chain = LedChain::new(bus, map.len(), leds.brightness);
    let name = |i: usize| {
        map.place(i)
            .map_or_else(|| "no place".into(), |p| p.to_string())
    };
    check_leds(chain, &map, name, delay, each)
}

/// Switches the LED chain off, then lights each LED alone in turn (white, at the chain's capped
/// brightness) for [`LED_STEP_MS`], LED 0 first, calling `each` with its number and the place
/// `name` gives the map's place (so the builder can read along), and switches all off again.
/// The Pi cannot see the light: the finding says what to watch for.
pub fn check_leds<S: embedded_hal::spi::SpiBus, D: DelayNs>(
    chain: LedChain<S>,
    map: &LedMap,
    name: impl Fn(usize) -> String,
    delay: &mut D,
    mut each: impl FnMut(usize, &str),
) -> Finding {
    let subject = "LED chain";
    let fail = |e: &dyn fmt::Display| {
        Finding::bad(
            Severity::Problem,
            subject,
            format!("could not be driven: {e}"),
            "check [leds] bus in the configuration and that SPI1 is enabled: sudo umpire setup \
            (it adds dtoverlay=spi1-1cs to config.txt), then reboot",
        )
    };
    let mut chain = match chain.init() {
        Ok(chain) => chain,
        Err(e) => return fail(&e),
    };
    let mut colours = vec![Rgb::OFF; chain.len()];
    for i in 0..chain.len() {
        colours.iter_mut().for_each(|c| *c = Rgb::OFF);
        colours[i] = Rgb::WHITE;
        if let Err(e) = chain.show(&colours) {
            return fail(&e);
        }
        each(i, &name(i));
        delay.delay_ms(LED_STEP_MS);
    }
    if let Err(e) = chain.clear() {
        return fail(&e);
    }
    let first = if map.is_empty() {
        String::new()
    } else {
        format!(", from LED 0 under {}", name(0))
    };
    Finding::ok(
        subject,
        format!(
            "lit each of its {} LEDs in turn{first}: each must light white under its own place, \
            in order (one dark from there on: its data link; out of order: [leds] order)",
            chain.len()
        ),
    )
}

/// Names of a board's cells for messages: `a1` style for `columns` x `rows`, cell = row *
/// columns + column (row 0 = rank 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardShape {
    /// Columns.
    pub columns: u8,
    /// Rows.
    pub rows: u8,
}

impl BoardShape {
    /// Number of squares.
    pub fn cells(self) -> u16 {
        u16::from(self.columns) * u16::from(self.rows)
    }

    /// `e4` for the cell at column 4, row 3.
    pub fn name(self, cell: SensedCell) -> String {
        crate::config::square_name(cell, self.columns)
    }
}

/// The places `doctor` and `calibrate` check on a board of [`BoardShape`]: its squares, then the
/// tray slots sensed on the inputs after them (`[[board.tray]]`), each named as the players name
/// it ("e4", "seat 1 reserve slot 3"). [`SensedBoard::only`] narrows the places asked for to
/// those one game uses (`umpire calibrate --game`): a board wired for Napoléon's map has no
/// switch under the squares that are no slot of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SensedBoard {
    shape: BoardShape,
    /// How the switches are read, for the advice.
    wiring: Wiring,
    /// What each cell senses, by cell number.
    places: BTreeMap<u16, Place>,
    /// The cells a walk asks for: every place, or one game's.
    asked: BTreeSet<u16>,
    /// The game the places are narrowed to, as the menu names it.
    game: Option<&'static str>,
    /// The wires the sensor is read through ([`SensedBoard::read_through`]), for a failed scan.
    wires: Option<String>,
}

impl SensedBoard {
    /// Every place of `layout` (a configuration's [`LayoutSetup`]) on a grid of `shape`.
    pub fn new(shape: BoardShape, layout: &LayoutSetup) -> SensedBoard {
        let places: BTreeMap<u16, Place> = layout
            .places
            .iter()
            .map(|&(cell, place)| (cell.number(), place))
            .collect();
        SensedBoard {
            shape,
            wiring: Wiring::Matrix,
            asked: places.keys().copied().collect(),
            places,
            game: None,
            wires: None,
        }
    }

    /// The same board, read through `wires` ("SPI0 MISO GPIO 9, ..."): a scan that fails names
    /// them in its fix.
    #[must_use]
    pub fn read_through(mut self, wires: Option<String>) -> Self {
        self.wires = wires;
        self
    }

    /// The same board read as `wiring` says (a [`Wiring::Matrix`] unless told).
    #[must_use]
    pub fn wired(mut self, wiring: Wiring) -> Self {
        self.wiring = wiring;
        self
    }

    /// How the switches are read.
    pub fn wiring(&self) -> &Wiring {
        &self.wiring
    }

    /// The same board asking only for the places `game` uses (`uses`); its other places are
    /// still read and named, but not asked for.
    #[must_use]
    pub fn only(mut self, game: &'static str, uses: &BTreeSet<Place>) -> Self {
        let places = &self.places;
        self.asked
            .retain(|c| places.get(c).is_some_and(|p| uses.contains(p)));
        self.game = Some(game);
        self
    }

    /// The grid's shape.
    pub fn shape(&self) -> BoardShape {
        self.shape
    }

    /// The game the places asked for are narrowed to.
    pub fn game(&self) -> Option<&'static str> {
        self.game
    }

    /// "square", or "square and tray slot" on a board with trays: what a message says every
    /// one of.
    pub fn kinds(&self) -> &'static str {
        if self.cells() > self.shape.cells() {
            "square and tray slot"
        } else {
            "square"
        }
    }

    /// How many cells the board reads: its squares and tray slots.
    pub fn cells(&self) -> u16 {
        let last = self.places.keys().next_back().map_or(0, |&c| c + 1);
        last.max(self.shape.cells())
    }

    /// The cells asked for, in cell order.
    pub fn asked(&self) -> impl Iterator<Item = SensedCell> + '_ {
        self.asked.iter().map(|&c| SensedCell::new(c))
    }

    /// Whether `cell` is asked for.
    pub fn is_asked(&self, cell: SensedCell) -> bool {
        self.asked.contains(&cell.number())
    }

    /// `e4` for a square, `seat 1 reserve slot 3` for a tray slot.
    pub fn name(&self, cell: SensedCell) -> String {
        match self.places.get(&cell.number()) {
            Some(place) => place.to_string(),
            None => self.shape.name(cell),
        }
    }

    /// What `cell` is read with for a walk's lines: its row of squares (`"row 3"`), or its
    /// tray (`"seat 1 reserve"`).
    pub fn group(&self, cell: SensedCell) -> String {
        match self.places.get(&cell.number()) {
            Some(Place::Tray { tray, seat, .. }) => format!("{seat} {tray}"),
            _ => format!(
                "row {}",
                cell.number() / u16::from(self.shape.columns.max(1)) + 1
            ),
        }
    }

    /// `cell`'s name on its line of a walk ([`SensedBoard::group`]): a square's name, or a tray
    /// slot's number ("3").
    pub fn name_in_group(&self, cell: SensedCell) -> String {
        match self.places.get(&cell.number()) {
            Some(Place::Tray { slot, .. }) => (u16::from(*slot) + 1).to_string(),
            _ => self.name(cell),
        }
    }

    /// The names of the places not asked for, in cell order: what a board wired for the game
    /// alone has no switch under.
    pub fn unasked(&self) -> Vec<String> {
        self.places
            .keys()
            .filter(|c| !self.asked.contains(c))
            .map(|&c| self.name(SensedCell::new(c)))
            .collect()
    }

    /// The tray slots, each tray's together, in cell order: (the tray's name, its cells).
    fn trays(&self) -> Vec<(String, Vec<SensedCell>)> {
        let mut out: Vec<(String, Vec<SensedCell>)> = Vec::new();
        for (&cell, place) in &self.places {
            if !matches!(place, Place::Tray { .. }) {
                continue;
            }
            let name = self.group(SensedCell::new(cell));
            match out.last_mut() {
                Some((last, cells)) if *last == name => cells.push(SensedCell::new(cell)),
                _ => out.push((name, vec![SensedCell::new(cell)])),
            }
        }
        out
    }

    /// The places a chip's inputs read, by their first and last ("a3 to h4"; one place by its
    /// name; none, "no place").
    pub fn span(&self, cells: &[SensedCell]) -> String {
        match cells {
            [] => "no place".to_string(),
            [only] => self.name(*only),
            [first, .., last] => format!("{} to {}", self.name(*first), self.name(*last)),
        }
    }

    /// "square e4" or "seat 1 reserve slot 3": the subject of a finding about `cell`.
    fn subject(&self, cell: SensedCell) -> String {
        match self.places.get(&cell.number()) {
            Some(Place::Tray { .. }) => self.name(cell),
            _ => format!("square {}", self.name(cell)),
        }
    }
}

/// How a board's switches are read, for what `doctor` and `calibrate` advise: a matrix's rows
/// and columns share lines (a shorted line lights a whole row; each switch has a diode); a
/// 74HC165 chain reads eight switches a chip; a PCF8575 expander reads sixteen, one a pin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wiring {
    /// A reed-and-diode matrix (`matrix`, `gpio_matrix`).
    Matrix,
    /// A 74HC165 chain: each chip's name ("U9", or "16" past the schematic's chips) and the
    /// cells its inputs read.
    Chain(Vec<(String, Vec<SensedCell>)>),
    /// PCF8575 expanders, one input per switch (`expanders`): each chip's address and the
    /// cells its sixteen pins read.
    Expanders(Vec<(u8, Vec<SensedCell>)>),
    /// One input per switch, grouped by nothing `doctor` knows.
    Direct,
}

impl Wiring {
    /// The chips whose every switch reading at once is the chip's fault: each one's name ("chip
    /// U1", "expander 0x21"), the cells it reads, and the fix.
    fn chips(&self) -> Vec<(String, &[SensedCell], &'static str)> {
        match self {
            Wiring::Chain(chips) => chips
                .iter()
                .map(|(name, read)| (format!("chip {name}"), read.as_slice(), CHAIN_CHIP_FIX))
                .collect(),
            Wiring::Expanders(chips) => chips
                .iter()
                .map(|(address, read)| {
                    (
                        format!("expander 0x{address:02X}"),
                        read.as_slice(),
                        EXPANDER_FIX,
                    )
                })
                .collect(),
            Wiring::Matrix | Wiring::Direct => Vec::new(),
        }
    }
}

const CHAIN_CHIP_FIX: &str = "the chip, not each switch: check its supply and ground pins, the \
     supply of its pull-up resistors and its solder joints, or replace it";

const EXPANDER_FIX: &str = "the expander, not each switch: check its VDD and ground pins and \
     its solder joints, and that nothing shorts its pins to the switches' ground line, or \
     replace it";

impl From<BoardShape> for SensedBoard {
    /// The squares of `shape`, no tray slots.
    fn from(shape: BoardShape) -> SensedBoard {
        SensedBoard::new(shape, &LayoutSetup::grid(shape.columns, shape.rows))
    }
}

/// Checks that an SSD1306 acknowledges at `address` by sending it a no-op command (0xE3).
pub fn check_display<I: I2c>(i2c: &mut I, bus: u8, address: u8) -> Finding
where
    I::Error: fmt::Debug,
{
    match i2c.write(address, &[0x00, 0xE3]) {
        Ok(()) => Finding::ok(
            "display",
            format!("an OLED answers at {address:#04x} on I2C bus {bus}"),
        ),
        Err(e) => Finding::bad(
            Severity::Problem,
            "display",
            format!("nothing answers at {address:#04x} on I2C bus {bus} ({e:?})"),
            format!(
                "check SDA to GPIO 2 and SCL to GPIO 3, VCC to 3.3 V and GND; check that I2C is \
                 enabled (`sudo umpire setup`); run `i2cdetect -y {bus}` and set \
                 [oled] address to what it shows (0x3C or 0x3D)"
            ),
        ),
    }
}

/// Sends `frames` whole frames to the OLED (two test cards in turn) and counts
/// the ones the bus refused: an OLED that drops off the bus now and then and comes back (a
/// loose header, a weak supply) is named with its fix. `between(i)` runs before frame `i`
/// (the simulated board unplugs and re-plugs its panel there). Each frame after a refusal is
/// sent after the whole init sequence, as the service does.
pub fn check_display_link<I: I2c>(
    display: &mut crate::display::Display<I>,
    frames: u32,
    mut between: impl FnMut(u32),
) -> Finding {
    let card = |detail: &str| {
        crate::screens::render(&crate::ui::Screen::Boot {
            version: "doctor".into(),
            detail: detail.into(),
        })
    };
    let (card, inverse) = (
        card("display link check"),
        card("checking the display link"),
    );
    let mut refused = 0u32;
    let mut last_ok = false;
    for i in 0..frames {
        between(i);
        // A whole frame each time: forget what the panel holds.
        display.forget();
        let frame = if i % 2 == 0 { &card } else { &inverse };
        last_ok = display.show(frame).is_ok();
        if !last_ok {
            refused += 1;
        }
    }
    let fix = "check the OLED's VCC, GND, SDA and SCL joints and its header, keep its cable \
               short, and check the 3.3 V supply (a brown-out drops it); the umpire sets the \
               panel up again each time, but the screen goes dark meanwhile";
    match (refused, last_ok) {
        (0, _) => Finding::ok(
            "display link",
            format!("{frames} whole frames sent, every one acknowledged"),
        ),
        (n, true) => Finding::bad(
            Severity::Warning,
            "display link",
            format!("the OLED was lost and came back: {n} of {frames} frames refused"),
            fix,
        ),
        (n, false) => Finding::bad(
            Severity::Problem,
            "display link",
            format!("the OLED stopped answering: {n} of {frames} frames refused, the last too"),
            fix,
        ),
    }
}

/// Checks that a PCF8575 expander answers at `address` on I2C bus `bus` by reading its two port
/// bytes (a read changes nothing on the chip). `role` says what it is for in messages
/// ("matrix rows", "a1 to d2"); `setting` is the configuration setting that gives the address
/// (`[sensor.matrix] row_expander`), which the fix names.
pub fn check_expander<I: I2c>(
    i2c: &mut I,
    bus: u8,
    address: u8,
    role: &str,
    setting: &str,
) -> Finding
where
    I::Error: fmt::Debug,
{
    let subject = format!("expander {address:#04x} ({role})");
    let mut ports = [0u8; 2];
    match i2c.read(address, &mut ports) {
        Ok(()) => Finding::ok(
            subject,
            format!(
                "a PCF8575 answers at {address:#04x} on I2C bus {bus} (ports read {:#06x})",
                u16::from_le_bytes(ports)
            ),
        ),
        Err(e) => Finding::bad(
            Severity::Problem,
            subject,
            format!("nothing answers at {address:#04x} on I2C bus {bus} ({e:?})"),
            format!(
                "check the expander's A0-A2 pins give {address:#04x}, SDA to GPIO 2, SCL to \
                 GPIO 3, VDD to 3.3 V and GND; run `i2cdetect -y {bus}`: it should list \
                 {:02x}, and {setting} must match what it shows",
                address
            ),
        ),
    }
}

/// Checks NFC reader `number` (1-based, decoder output `number - 1`) over the squares
/// `region`: is it there (VersionReg 0x00 or 0xFF: absent), which chip, does it initialise
/// (reset wait, settings read back, antenna on: otherwise "not initialised"), and can it list the
/// tags in its field. The reader is left in soft power-down (its field off).
pub fn check_reader<S: SpiDevice, D: DelayNs>(
    number: usize,
    region: &str,
    mut reader: Mfrc522<S, D>,
) -> Vec<Finding>
where
    S::Error: embedded_hal::spi::Error,
{
    let subject = format!("NFC reader {number} ({region})");
    let output = number.saturating_sub(1);
    let mut findings = Vec::new();
    let version = match reader.version() {
        Ok(v) => v,
        Err(NfcError::NotAnswering { version }) => {
            findings.push(Finding::bad(
                Severity::Problem,
                subject,
                format!("absent: its VersionReg reads {version:#04x}, nothing drives MISO"),
                format!(
                    "check the module's 3.3 V (not 5 V) and GND, its MISO through its 74HC125 \
                     gate to GPIO 9, and decoder output Y{output} to its SDA (NSS) and to that \
                     gate's enable; check that SPI is enabled (`sudo umpire setup`)"
                ),
            ));
            return findings;
        }
        Err(e) => {
            findings.push(Finding::bad(
                Severity::Problem,
                subject,
                format!("cannot be read: {e}"),
                "check that SPI is enabled and no other program holds the SPI device",
            ));
            return findings;
        }
    };
    let before = reader.state().ok();
    match version {
        ChipVersion::Clone => findings.push(Finding::bad(
            Severity::Warning,
            subject.clone(),
            "a clone MFRC522 answers (VersionReg 0x88)",
            "it works, often with a shorter range: if tags are missed, raise them closer to the \
             antenna or fit a genuine NXP module",
        )),
        ChipVersion::Unknown(v) => findings.push(Finding::bad(
            Severity::Warning,
            subject.clone(),
            format!("something answers with VersionReg {v:#04x}, not a known MFRC522"),
            format!("check that the module on decoder output Y{output} is an MFRC522"),
        )),
        ChipVersion::V1_0 | ChipVersion::V2_0 => {}
    }
    let mut ready = match reader.init() {
        Ok(ready) => ready,
        Err(NfcError::NotInitialised(state)) => {
            findings.push(Finding::bad(
                Severity::Problem,
                subject,
                format!(
                    "not initialised: after init its antenna is {} and its timer {} (it reads \
                     but ignores writes), so it can read no tag",
                    if state.antenna_on { "on" } else { "off" },
                    if state.timer_set { "set" } else { "not set" }
                ),
                "check the MOSI wire (GPIO 10) to the module and its solder joint, and that \
                 nothing else drives MOSI",
            ));
            return findings;
        }
        Err(NfcError::ResetTimeout) => {
            findings.push(Finding::bad(
                Severity::Problem,
                subject,
                "not initialised: it never came out of reset (CommandReg PowerDown stays set)",
                "check its RST pin is high (NFC_RST, GPIO 25), its 3.3 V supply and its \
                 27.12 MHz crystal",
            ));
            return findings;
        }
        Err(e) => {
            findings.push(Finding::bad(
                Severity::Problem,
                subject,
                format!("not initialised: {e}"),
                "see the message; run `umpire doctor` again after the fix",
            ));
            return findings;
        }
    };
    let was = match before {
        Some(s) if s.is_initialised() => "before: already set up",
        Some(_) => "before: antenna off, as after power-up",
        None => "before: state unreadable",
    };
    let listing = ready.wake().and_then(|()| ready.inventory());
    let _ = ready.power_down();
    match listing {
        Ok(tags) => findings.push(Finding::ok(
            subject,
            format!(
                "{version} initialised and answering: antenna on, 2 ms timer ({was}); {} tag{} \
                 in its field",
                tags.len(),
                if tags.len() == 1 { "" } else { "s" }
            ),
        )),
        Err(e) => findings.push(Finding::bad(
            Severity::Problem,
            subject,
            format!("initialised, but listing its field failed: {e}"),
            "check the antenna side of the module and that no metal lies over it",
        )),
    }
    findings
}

/// Scans an empty board `scans` times with `scan` and reports squares and tray slots that read
/// occupied, that flicker, and, as the board is wired, whole rows or columns of a matrix or
/// every switch of a chain's chip that read occupied.
pub fn check_sensors<E: fmt::Display>(
    board: &SensedBoard,
    scans: u32,
    mut scan: impl FnMut() -> Result<Occupancy, E>,
) -> Vec<Finding> {
    let shape = board.shape();
    let cells = board.cells();
    let mut counts = vec![0u32; usize::from(cells)];
    let mut done = 0u32;
    for _ in 0..scans.max(1) {
        match scan() {
            Ok(occ) => {
                done += 1;
                for c in occ.iter().filter(|c| c.number() < cells) {
                    counts[c.index()] += 1;
                }
            }
            Err(e) => {
                return vec![Finding::bad(
                    Severity::Problem,
                    "sensors",
                    format!("a scan failed: {e}"),
                    match &board.wires {
                        Some(wires) => format!(
                            "see the message: check the sensor's wires ({wires}) and the \
                             [sensor] section"
                        ),
                        None => "see the message: check the sensor wiring and the [sensor] \
                                 section"
                            .into(),
                    },
                )];
            }
        }
    }
    let mostly = |n: u32| n * 10 >= done * 9;
    let mut findings = Vec::new();
    let (cols, rows) = (u16::from(shape.columns), u16::from(shape.rows));
    let mut explained = vec![false; usize::from(cells)];
    // A chip all of whose switches read: the chip or its supply, not each switch.
    for (name, read, fix) in board.wiring().chips() {
        let line: Vec<SensedCell> = read
            .iter()
            .copied()
            .filter(|c| c.index() < counts.len())
            .collect();
        if line.len() > 1 && line.iter().all(|c| mostly(counts[c.index()])) {
            line.iter().for_each(|c| explained[c.index()] = true);
            findings.push(Finding::bad(
                Severity::Problem,
                name,
                format!(
                    "all {} switches it reads ({}) read occupied on an empty board",
                    line.len(),
                    board.span(&line)
                ),
                fix,
            ));
        }
    }
    let lines = *board.wiring() == Wiring::Matrix;
    for r in (0..rows).filter(|_| lines) {
        let line: Vec<usize> = (0..cols).map(|c| usize::from(r * cols + c)).collect();
        if cols > 1 && line.iter().all(|&i| mostly(counts[i])) {
            line.iter().for_each(|&i| explained[i] = true);
            findings.push(Finding::bad(
                Severity::Problem,
                format!("row {}", r + 1),
                "every square of the row reads occupied on an empty board".to_string(),
                "the row's drive line is shorted to a column or to ground, or a diode is \
                 reversed: check the row wire and the diodes along it",
            ));
        }
    }
    for c in (0..cols).filter(|_| lines) {
        let line: Vec<usize> = (0..rows).map(|r| usize::from(r * cols + c)).collect();
        if rows > 1 && line.iter().all(|&i| mostly(counts[i])) {
            line.iter().for_each(|&i| explained[i] = true);
            findings.push(Finding::bad(
                Severity::Problem,
                format!("column {}", char::from(b'a' + (c as u8 % 26))),
                "every square of the column reads occupied on an empty board".to_string(),
                "the column's sense line is shorted to ground (or to the active level): check \
                 the column wire and its pull-up",
            ));
        }
    }
    for i in 0..usize::from(cells) {
        if explained[i] || counts[i] == 0 {
            continue;
        }
        let subject = board.subject(SensedCell::new(i as u16));
        if mostly(counts[i]) {
            findings.push(Finding::bad(
                Severity::Problem,
                subject,
                "reads occupied on an empty board".to_string(),
                "take any piece off it; if it is empty, its reed switch is stuck closed or \
                 shorted: replace the switch or check its solder joints",
            ));
        } else {
            findings.push(Finding::bad(
                Severity::Warning,
                subject,
                format!("flickers: read occupied in {} of {done} scans", counts[i]),
                "check its solder joints and the wires to its switch",
            ));
        }
    }
    if findings.is_empty() {
        findings.push(Finding::ok(
            "sensors",
            format!(
                "{done} scans of an empty board: every {} reads empty",
                board.kinds()
            ),
        ));
    }
    findings
}

/// Whether any finding is a problem.
pub fn has_problems(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.severity == Severity::Problem)
}

/// What changed in one calibration step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CalibrationEvent {
    /// A square or tray slot started reading occupied: its cell and its name.
    On(SensedCell, String),
    /// A square or tray slot stopped reading occupied.
    Off(String),
    /// A square or tray slot read occupied for the first time this session.
    FirstSeen(String),
    /// A tag was read on a square.
    Tag(String, TagUid),
}

/// Live calibration: which squares and tray slots read occupied, and which have ever been seen.
#[derive(Clone, Debug)]
pub struct Calibration {
    board: SensedBoard,
    now: Occupancy,
    seen: Occupancy,
    /// The place that read a piece last, while it still does.
    latest: Option<SensedCell>,
    /// The place that read a piece last, lifted since or not: the OLED stays with the walk
    /// while the piece is in the air between two places.
    last: Option<SensedCell>,
    tags: BTreeMap<u16, TagUid>,
}

impl Calibration {
    /// A session on `board` (a [`BoardShape`] converts to its squares alone).
    pub fn new(board: impl Into<SensedBoard>) -> Calibration {
        Calibration {
            board: board.into(),
            now: Occupancy::EMPTY,
            seen: Occupancy::EMPTY,
            latest: None,
            last: None,
            tags: BTreeMap::new(),
        }
    }

    /// The board and the places it asks for.
    pub fn board(&self) -> &SensedBoard {
        &self.board
    }

    /// Takes one scan; returns what changed.
    pub fn update(&mut self, occupancy: Occupancy) -> Vec<CalibrationEvent> {
        let mut events = Vec::new();
        for i in 0..self.board.cells() {
            let cell = SensedCell::new(i);
            let (was, is) = (self.now.contains(cell), occupancy.contains(cell));
            if was == is {
                continue;
            }
            let name = self.board.name(cell);
            if is {
                self.latest = Some(cell);
                self.last = Some(cell);
                events.push(CalibrationEvent::On(cell, name.clone()));
                if !self.seen.contains(cell) {
                    self.seen.insert(cell);
                    events.push(CalibrationEvent::FirstSeen(name));
                }
            } else {
                events.push(CalibrationEvent::Off(name));
            }
        }
        self.now = occupancy;
        self.latest = self.latest.filter(|&c| occupancy.contains(c));
        events
    }

    /// Records a tag read on `cell`.
    pub fn tag(&mut self, cell: SensedCell, uid: TagUid) -> CalibrationEvent {
        self.tags.insert(cell.number(), uid);
        CalibrationEvent::Tag(self.board.name(cell), uid)
    }

    /// The mark of `cell`: `#` occupied now, `o` seen before, `.` never seen, and a blank for a
    /// place not asked for that never read a piece.
    fn mark(&self, cell: SensedCell) -> char {
        if self.now.contains(cell) {
            '#'
        } else if self.seen.contains(cell) {
            'o'
        } else if self.board.is_asked(cell) {
            '.'
        } else {
            ' '
        }
    }

    /// The board as text, top row first, then each tray's slots: `#` occupied now, `o` seen
    /// before, `.` never seen, blank where the game asked for has no place.
    pub fn grid(&self) -> String {
        let shape = self.board.shape();
        let mut out = String::new();
        for r in (0..u16::from(shape.rows)).rev() {
            out.push_str(&format!("{:>2} ", r + 1));
            for c in 0..u16::from(shape.columns) {
                out.push(self.mark(SensedCell::new(r * u16::from(shape.columns) + c)));
                out.push(' ');
            }
            out.push('\n');
        }
        out.push_str("   ");
        for c in 0..shape.columns {
            out.push(char::from(b'a' + c % 26));
            out.push(' ');
        }
        out.push('\n');
        for (tray, cells) in self.board.trays() {
            if cells.iter().all(|&c| self.mark(c) == ' ') {
                continue;
            }
            out.push_str(&format!("{tray}: "));
            for cell in cells {
                out.push(self.mark(cell));
                out.push(' ');
            }
            out.push('\n');
        }
        out
    }

    /// The places asked for that never read a piece this session.
    pub fn never_seen(&self) -> Vec<String> {
        self.board
            .asked()
            .filter(|&c| !self.seen.contains(c))
            .map(|c| self.board.name(c))
            .collect()
    }

    /// The squares and slots that read a piece, then none, though the game asked for has no
    /// place there: with nothing put on them, a slot wired to the wrong input. (One that still
    /// reads is among the [`occupied`](Calibration::occupied): stuck, or a piece left there.)
    pub fn strays(&self) -> Vec<String> {
        self.seen
            .iter()
            .filter(|&c| c.number() < self.board.cells() && !self.board.is_asked(c))
            .filter(|&c| !self.now.contains(c))
            .map(|c| self.board.name(c))
            .collect()
    }

    /// Squares occupied now.
    pub fn occupied(&self) -> Occupancy {
        self.now
    }

    /// Squares seen at least once, as a bitset over cells.
    pub fn seen(&self) -> Occupancy {
        self.seen
    }

    /// The calibration screen for the OLED, with `note` (the latest event). A large board's
    /// window, or the tray drawn, is the one holding the place that read a piece last, lifted
    /// since or not: it follows the piece being walked, not one left standing elsewhere, and
    /// does not jump away while the piece is in the air. The count is of the places asked for;
    /// a square not asked for is left blank unless it reads, or has read, a piece.
    pub fn screen(&self, note: impl Into<String>) -> crate::ui::Screen {
        let shape = self.board.shape();
        // A piece read last in a tray: the tray, drawn as a grid of its slots.
        let in_tray = self.last.and_then(|latest| {
            self.board
                .trays()
                .into_iter()
                .find(|(_, cells)| cells.contains(&latest))
        });
        if let Some((name, cells)) = in_tray {
            return self.tray_screen(name, &cells, note.into());
        }
        let (walked, places) = self.walked();
        crate::ui::Screen::Calibrate {
            columns: shape.columns,
            rows: shape.rows,
            occupied: self.now.iter().map(SensedCell::number).collect(),
            focus: self.last.map(SensedCell::number),
            seen: self.seen().iter().map(SensedCell::number).collect(),
            idle: (0..shape.cells())
                .filter(|&c| !self.board.is_asked(SensedCell::new(c)))
                .collect(),
            walked,
            places,
            tray: None,
            note: note.into(),
        }
    }

    /// How many of the places asked for have read a piece, and how many are asked for.
    fn walked(&self) -> (u16, u16) {
        let asked = self.board.asked().count();
        let walked = self
            .board
            .asked()
            .filter(|&c| self.seen.contains(c))
            .count();
        let count = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
        (count(walked), count(asked))
    }

    /// The calibration screen of one tray, `cells` its slots from slot 1: cell `i` of the
    /// screen's grid is slot `i + 1`, 16 a row.
    fn tray_screen(&self, name: String, cells: &[SensedCell], note: String) -> crate::ui::Screen {
        let local = |pick: &dyn Fn(SensedCell) -> bool| -> Vec<u16> {
            (0u16..)
                .zip(cells)
                .filter(|(_, &c)| pick(c))
                .map(|(i, _)| i)
                .collect()
        };
        let latest = local(&|c| Some(c) == self.latest);
        let others = local(&|c| Some(c) != self.latest && self.now.contains(c));
        let slots = cells.len();
        let columns = u8::try_from(slots.min(16)).unwrap_or(16);
        let rows = u8::try_from(slots.div_ceil(16)).unwrap_or(u8::MAX);
        let (walked, places) = self.walked();
        crate::ui::Screen::Calibrate {
            columns,
            rows,
            occupied: latest.into_iter().chain(others).collect(),
            focus: None,
            seen: local(&|c| self.seen.contains(c)),
            idle: local(&|c| !self.board.is_asked(c))
                .into_iter()
                .chain(
                    u16::try_from(slots).unwrap_or(u16::MAX)..u16::from(columns) * u16::from(rows),
                )
                .collect(),
            walked,
            places,
            tray: Some(name),
            note,
        }
    }

    /// The last tag read on each square.
    pub fn tags(&self) -> impl Iterator<Item = (String, TagUid)> + '_ {
        self.tags
            .iter()
            .map(|(&c, &uid)| (self.board.name(SensedCell::new(c)), uid))
    }
}
