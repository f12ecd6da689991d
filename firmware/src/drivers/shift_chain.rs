//! A daisy chain of 74HC165 parallel-in/serial-out shift registers, read over SPI, with a check
//! chip at its far end so a broken chain is a named fault, never a board full of pieces.
//!
//! One input per square, so no matrix, no diodes and no ghosting: 15 chips read 120 squares.
//!
//! # Wiring (the schematics' option B, `schematics/sensor-shift-chain.svg`)
//! - Chips are numbered in the order their bytes are read: **chip 0 (U1) is the one whose Q7
//!   drives MISO** (through a 74HC125 that CE enables), and each next chip's Q7 feeds the DS of
//!   the chip before it. After the last square chip sits the **check chip**: its eight inputs
//!   are wired straight to 3.3 V or ground to read a fixed pattern, and its DS is tied to ground.
//! - Every chip's CP (clock) to SCLK, every chip's PL (SH/LD, parallel load, active low) to one
//!   GPIO (the `load` pin here), every chip's CE (clock enable) to ground. MOSI is not used.
//! - SPI mode 0, MSB first, any clock the wiring takes (1 MHz is plenty).
//! - With [`ActiveLevel::Low`] (the default) each input has a pull-up (10 kΩ) and its reed
//!   closes to ground; with [`ActiveLevel::High`], a pull-down and a reed to 3.3 V.
//!
//! # One source for the order
//! Which chip is nearest MISO and which squares each chip's inputs read is stated once, in
//! `schematics/pinmap.toml` (`[sensor.shift_chain] chain` and `check`). The diagram is drawn
//! from it, and this crate embeds the file ([`PIN_MAP`]) and builds the default input -> cell
//! map from it ([`ChainOrder::schematic`]); tests check both against it.
//!
//! # A read
//! The `load` pin is pulsed low (PL low copies the eight inputs of every chip into its
//! register; the pulse lasts at least [`ShiftChainConfig::load_pulse_ns`], the 74HC165 needs
//! about 20 ns at 4.5 V and more at 3.3 V) and back high (shift mode). Then one
//! `SpiDevice::read` clocks out one byte per square chip and two more: the check chip's pattern
//! and the byte past the far end (its DS, tied to ground: 0x00).
//!
//! # Bit order
//! Each chip shifts out H (D7) first, and SPI is MSB first, so **bit `n` of a chip's byte is
//! its input Dn** (A = D0 ... H = D7). **Input `i` is byte `i / 8` (chip `i / 8`, counted from
//! MISO), bit `i % 8`** (see [`input_is_high`]). Input `i` reads cell `i` unless a [`CellMap`]
//! says otherwise; the schematic's map is [`ChainOrder::cell_map`].
//!
//! # The chain check, and why this one
//! Each read must end with the check pattern ([`ChainCheck::pattern`], 0xB4 in the pin map) at
//! byte `chips` and the past-the-end byte ([`ChainCheck::past_end`], 0x00) at byte `chips + 1`;
//! anything else is [`Error::Chain`] and no occupancy is reported:
//! - **An unplugged cable or an unpowered chain**: MISO floats, or the buffer leaves it to a
//!   pull, and every byte reads 0x00 or 0xFF. Neither is the pattern: [`ChainFault::NoAnswer`].
//!   Without the check a floating-low MISO reads "every square occupied" on an active-low board.
//! - **A missing (bypassed) chip**: the pattern arrives one byte early and the byte where it
//!   should be is the 0x00 from past the end: [`ChainFault::WrongLength`] with the count found.
//! - **An extra chip**: the pattern arrives one byte late: [`ChainFault::WrongLength`] again.
//! - **A broken Q7 -> DS link or a wrong SPI mode or bit order**: the pattern is not where it
//!   should be ([`ChainFault::Garbled`]); 0xB4 reads 0x2D bit-reversed and 0x68 shifted by one
//!   bit, so neither passes.
//!
//! Tying only the far chip's DS to a known level (no check chip) catches a MISO floating to the
//! other level but not one floating to the same level (all 0x00 on a DS tied to ground reads as
//! a full board), and cannot see a missing chip: the bytes past the end read the tied level
//! wherever the end is. A pattern that is neither 0x00 nor 0xFF, placed before the tied DS, and
//! not equal to its own bit reversal or one-bit shift, catches all of the above for one chip
//! and one byte of SPI per read.
//!
//! # The rppal in-place transfer pitfall
//! rppal's `SimpleHalSpiDevice` maps `Operation::TransferInPlace(buf)` to a read-only transfer,
//! so spidev clocks out zeros instead of `buf` (`docs/hardware.md` §4; rpi-pal#6 is the same bug).
//! Drivers that send a command with `transfer_in_place` (the `mfrc522` crate's register reads)
//! break on it. This driver is safe on any backend: it only uses `SpiDevice::read`, whose
//! outgoing bytes are don't-care by definition (the 74HC165 has no data input on the SPI side,
//! MOSI is unconnected), and never `transfer_in_place`.
//!
//! # Read time (computed)
//! [`read_time_ns`]: 120 inputs = 15 bytes, plus the 2 check bytes = 136 clocks, 136 µs at
//! 1 MHz, plus one ioctl and two GPIO writes: thousands of reads per second, far above the
//! 100 Hz scan rate.
//!
//! # Example
//! ```
//! use embedded_hal_mock::eh1::delay::NoopDelay;
//! use embedded_hal_mock::eh1::digital::{Mock as Pin, State, Transaction as PinTx};
//! use embedded_hal_mock::eh1::spi::{Mock as Spi, Transaction as SpiTx};
//! use firmware::drivers::shift_chain::{ChainCheck, ShiftChain, ShiftChainConfig};
//!
//! // Two chips, 16 squares, reeds to ground: square 15 (chip 1, input H) is occupied. The
//! // check chip reads 0xB4, the byte past it 0x00.
//! let spi = Spi::new(&[
//!     SpiTx::transaction_start(),
//!     SpiTx::read_vec(vec![0xFF, 0b0111_1111, 0xB4, 0x00]),
//!     SpiTx::transaction_end(),
//! ]);
//! let load = Pin::new(&[
//!     PinTx::set(State::High), // shift mode at start
//!     PinTx::set(State::Low),  // latch the inputs
//!     PinTx::set(State::High),
//! ]);
//! let config = ShiftChainConfig::new(16, ChainCheck { pattern: 0xB4, past_end: 0x00 });
//! let mut chain = ShiftChain::new(spi, load, NoopDelay::new(), config)?;
//! assert_eq!(chain.scan()?.to_marks(16), "...............X");
//! let (mut spi, mut load, _) = chain.release();
//! spi.done();
//! load.done();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use embedded_hal::delay::DelayNs;
use embedded_hal::digital::OutputPin;
use embedded_hal::spi::SpiDevice;
use toml_span::value::{Table, ValueInner};

pub use super::reed_matrix::{ActiveLevel, CellMap, CellMapError, OccupancyScanner};
use crate::sensing::{Occupancy, SensedCell};

/// The project's pin map (`schematics/pinmap.toml`), embedded at build time: the one source of
/// the chain's order ([`ChainOrder::schematic`]).
pub const PIN_MAP: &str = include_str!("../../../schematics/pinmap.toml");

/// How many bytes (chips) `inputs` inputs take: `ceil(inputs / 8)`.
pub const fn chips_for(inputs: usize) -> usize {
    inputs.div_ceil(8)
}

/// Whether input `input` reads high in `bytes`, the square chips' bytes of one read in the
/// order they were clocked in (byte 0 = chip 0, nearest MISO; bit `n` = input Dn). False for an
/// input the bytes do not cover.
pub fn input_is_high(bytes: &[u8], input: usize) -> bool {
    bytes
        .get(input / 8)
        .is_some_and(|byte| byte & (1 << (input % 8)) != 0)
}

/// The computed wire time of one read of `inputs` inputs at `spi_hz`, in nanoseconds: whole
/// bytes, plus the two check bytes (GPIO and syscall time not included).
pub const fn read_time_ns(inputs: usize, spi_hz: u32) -> u64 {
    let bits = (chips_for(inputs) as u64 + 2) * 8;
    match bits
        .saturating_mul(1_000_000_000)
        .checked_div(spi_hz as u64)
    {
        Some(ns) => ns,
        None => u64::MAX,
    }
}

/// What the end of a healthy chain reads: the check chip's wired pattern, then the byte clocked
/// in from its tied DS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainCheck {
    /// The check chip's byte (bit `n` = its input Dn, wired to 3.3 V for 1, ground for 0).
    pub pattern: u8,
    /// The byte past the far end: 0x00 with the check chip's DS tied to ground, 0xFF to 3.3 V.
    pub past_end: u8,
}

/// One square chip of the schematic's chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainChip {
    /// Its reference on the schematic ("U1").
    pub reference: String,
    /// The cell its input A (D0) reads; D0..D7 read `first_cell` .. `first_cell + 7`.
    pub first_cell: u16,
}

/// The chain as the pin map states it: the square chips in the order their bytes are read,
/// and the check chip at the far end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainOrder {
    chips: Vec<ChainChip>,
    /// Whether a longer chain goes on with the next cells (`longer = "next"`).
    goes_on: bool,
    check_reference: String,
    check: ChainCheck,
}

impl ChainOrder {
    /// The order in the embedded pin map ([`PIN_MAP`]).
    ///
    /// # Errors
    /// As [`ChainOrder::from_pin_map`] (a test keeps the embedded one valid).
    pub fn schematic() -> Result<ChainOrder, OrderError> {
        ChainOrder::from_pin_map(PIN_MAP)
    }

    /// Reads `[sensor.shift_chain] chain` and `check` from a pin map's text.
    ///
    /// # Errors
    /// [`OrderError::PinMap`] saying what is missing or malformed.
    pub fn from_pin_map(text: &str) -> Result<ChainOrder, OrderError> {
        let bad = |what: String| OrderError::PinMap(what);
        let mut root = pin_map_table(text).map_err(bad)?;
        let mut section = take_table(&mut root, "sensor")
            .and_then(|mut s| take_table(&mut s, "shift_chain"))
            .ok_or_else(|| bad("no [sensor.shift_chain] section".into()))?;
        let chain = match section.remove("chain").map(|mut v| v.take()) {
            Some(ValueInner::Array(items)) => items,
            _ => return Err(bad("[sensor.shift_chain] needs a `chain` list".into())),
        };
        let mut chips = Vec::new();
        for (k, mut item) in chain.into_iter().enumerate() {
            let ValueInner::Table(mut t) = item.take() else {
                return Err(bad(format!("chain[{k}] is not {{ ref, first_cell }}")));
            };
            let reference = take_str(&mut t, "ref")
                .ok_or_else(|| bad(format!("chain[{k}] needs a `ref` string")))?;
            let first_cell = take_int(&mut t, "first_cell")
                .and_then(|c| u16::try_from(c).ok())
                .ok_or_else(|| bad(format!("chain[{k}] needs a `first_cell` number")))?;
            chips.push(ChainChip {
                reference,
                first_cell,
            });
        }
        let goes_on = match take_str(&mut section, "longer").as_deref() {
            None => false,
            Some("next") => true,
            Some(other) => {
                return Err(bad(format!(
                    "longer = \"{other}\" is no way for a chain to go on: write \"next\" (each \
                     further chip reads the next eight cells) or remove the key"
                )))
            }
        };
        let mut check = take_table(&mut section, "check").ok_or_else(|| {
            bad("[sensor.shift_chain] needs `check = { ref, pattern, ds }`".into())
        })?;
        let check_reference =
            take_str(&mut check, "ref").ok_or_else(|| bad("check needs a `ref` string".into()))?;
        let pattern = take_int(&mut check, "pattern")
            .and_then(|p| u8::try_from(p).ok())
            .ok_or_else(|| bad("check needs a `pattern` byte".into()))?;
        let past_end = match take_str(&mut check, "ds").as_deref() {
            Some("GND") => 0x00,
            Some("3V3") => 0xFF,
            _ => return Err(bad("check needs `ds = \"GND\"` or `ds = \"3V3\"`".into())),
        };
        if pattern == past_end || pattern == !past_end {
            return Err(bad(format!(
                "check pattern 0x{pattern:02X} is what a floating MISO reads: use a mix of 1s \
                 and 0s such as 0xB4"
            )));
        }
        let order = ChainOrder {
            chips,
            goes_on,
            check_reference,
            check: ChainCheck { pattern, past_end },
        };
        // No cell named twice.
        order.cell_map(order.chips.len(), usize::MAX)?;
        Ok(order)
    }

    /// The square chips, chip 0 (nearest MISO) first.
    pub fn chips(&self) -> &[ChainChip] {
        &self.chips
    }

    /// The check chip's reference ("U16").
    pub fn check_reference(&self) -> &str {
        &self.check_reference
    }

    /// What the end of the chain reads.
    pub fn check(&self) -> ChainCheck {
        self.check
    }

    /// The input -> cell map of the first `chips` chips on a board sensing `cells` cells:
    /// input `8 * k + n` reads chip `k`'s `first_cell + n`; inputs whose cell is `cells` or
    /// more are not wired to a square. Past the chips listed, a chain that goes on
    /// (`longer = "next"`) reads the next eight cells a chip, after the highest listed.
    ///
    /// # Errors
    /// [`OrderError::TooManyChips`] if the pin map describes fewer chips and says no way to go
    /// on; [`OrderError::CellMap`] if it names a cell twice.
    pub fn cell_map(&self, chips: usize, cells: usize) -> Result<CellMap, OrderError> {
        CellMap::from_table(self.table(chips, cells)?).map_err(OrderError::CellMap)
    }

    fn table(&self, chips: usize, cells: usize) -> Result<Vec<Option<SensedCell>>, OrderError> {
        if chips > self.chips.len() && !self.goes_on {
            return Err(OrderError::TooManyChips {
                configured: chips,
                described: self.chips.len(),
            });
        }
        let listed = &self.chips[..chips.min(self.chips.len())];
        let after = self
            .chips
            .iter()
            .map(|c| usize::from(c.first_cell) + 8)
            .max()
            .unwrap_or(0);
        let further = (0..chips.saturating_sub(self.chips.len())).map(|k| after + 8 * k);
        Ok(listed
            .iter()
            .map(|chip| usize::from(chip.first_cell))
            .chain(further)
            .flat_map(|first| (0..8).map(move |n| first + n))
            .map(|cell| {
                u16::try_from(cell)
                    .ok()
                    .filter(|_| cell < cells)
                    .map(SensedCell::new)
            })
            .collect())
    }
}

/// A pin map's text as its root table; the problem in words when it is not TOML. Shared by every
/// reader of the embedded pin map (the sensor chain here, the LED order in
/// [`crate::guidance::LedOrder`]).
pub(crate) fn pin_map_table(text: &str) -> Result<Table<'_>, String> {
    let mut root = toml_span::parse(text).map_err(|e| format!("not valid TOML: {e}"))?;
    match root.take() {
        ValueInner::Table(root) => Ok(root),
        _ => Err("not a table".into()),
    }
}

/// The table under `key`, taken out of `t`; `None` when missing or not a table.
pub(crate) fn take_table<'de>(t: &mut Table<'de>, key: &str) -> Option<Table<'de>> {
    match t.remove(key)?.take() {
        ValueInner::Table(inner) => Some(inner),
        _ => None,
    }
}

/// The string under `key`, taken out of `t`; `None` when missing or not a string.
pub(crate) fn take_str(t: &mut Table<'_>, key: &str) -> Option<String> {
    match t.remove(key)?.take() {
        ValueInner::String(s) => Some(s.into_owned()),
        _ => None,
    }
}

/// The integer under `key`, taken out of `t`; `None` when missing or not an integer.
pub(crate) fn take_int(t: &mut Table<'_>, key: &str) -> Option<i64> {
    match t.remove(key)?.take() {
        ValueInner::Integer(i) => Some(i),
        _ => None,
    }
}

/// Why the chain's order cannot be read from the pin map, or does not fit the configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrderError {
    /// The pin map's `[sensor.shift_chain]` is missing or malformed.
    PinMap(String),
    /// The configuration has more chips than the pin map's chain.
    TooManyChips {
        /// Chips configured.
        configured: usize,
        /// Chips the pin map describes.
        described: usize,
    },
    /// The pin map's chain names a cell twice (or one too large).
    CellMap(CellMapError),
}

impl fmt::Display for OrderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OrderError::PinMap(what) => write!(
                f,
                "the pin map's 74HC165 chain: {what}: fix [sensor.shift_chain] in \
                 schematics/pinmap.toml"
            ),
            OrderError::TooManyChips {
                configured,
                described,
            } => write!(
                f,
                "{configured} 74HC165 chips configured but the schematic's chain has \
                 {described}: map the extra inputs with [board] cells"
            ),
            OrderError::CellMap(e) => write!(f, "the pin map's 74HC165 chain: {e}"),
        }
    }
}

impl std::error::Error for OrderError {}

/// How a [`ShiftChain`] is wired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShiftChainConfig {
    /// How many square inputs are wired (`ceil(inputs / 8)` square chips, before the check
    /// chip); inputs beyond them in the last square chip are ignored.
    pub inputs: usize,
    /// The level a closed reed puts on its input.
    pub active: ActiveLevel,
    /// How long the load pin is held low; 0 skips the delay (the GPIO write pair itself is then
    /// the pulse, which may be too short on a Pi 5's posted writes).
    pub load_pulse_ns: u32,
    /// Which cell each input reads; `None` maps input `i` to cell `i`.
    pub cells: Option<CellMap>,
    /// What the check chip and the byte past it read.
    pub check: ChainCheck,
}

impl ShiftChainConfig {
    /// `inputs` active-low inputs ended by `check`, a 1 µs load pulse, input `i` reading cell
    /// `i`.
    pub fn new(inputs: usize, check: ChainCheck) -> ShiftChainConfig {
        ShiftChainConfig {
            inputs,
            active: ActiveLevel::Low,
            load_pulse_ns: 1_000,
            cells: None,
            check,
        }
    }
}

/// A chain of 74HC165s on an SPI device `S`, with the parallel-load pin `L` and a delay `D`
/// for the load pulse.
#[derive(Debug)]
pub struct ShiftChain<S, L, D> {
    spi: S,
    load: L,
    delay: D,
    active: ActiveLevel,
    load_pulse_ns: u32,
    cells: CellMap,
    check: ChainCheck,
    /// The chips the board's places are read from: up to the last input mapped to one (what a
    /// short chain is told it needs).
    needed: usize,
    /// One byte per square chip, then the check byte and the past-the-end byte.
    bytes: Vec<u8>,
}

impl<S, L, D> ShiftChain<S, L, D>
where
    S: SpiDevice,
    L: OutputPin,
    D: DelayNs,
{
    /// Takes the bus and the load pin, and drives the load pin high (shift mode).
    ///
    /// # Errors
    /// [`Error::NoInputs`], [`Error::CellMap`] for a map that does not cover `inputs` or
    /// cannot be built, [`Error::Load`] if the load pin cannot be driven.
    pub fn new(
        spi: S,
        mut load: L,
        delay: D,
        config: ShiftChainConfig,
    ) -> Result<Self, Error<S::Error, L::Error>> {
        if config.inputs == 0 {
            return Err(Error::NoInputs);
        }
        let cells = match config.cells {
            Some(cells) => cells,
            None => CellMap::identity(config.inputs).map_err(Error::CellMap)?,
        };
        cells.check_inputs(config.inputs).map_err(Error::CellMap)?;
        load.set_high().map_err(Error::Load)?;
        let needed = (0..cells.inputs())
            .rev()
            .find(|&i| cells.cell(i).is_some())
            .map_or(0, |last| last / 8 + 1);
        Ok(ShiftChain {
            spi,
            load,
            delay,
            active: config.active,
            load_pulse_ns: config.load_pulse_ns,
            cells,
            check: config.check,
            needed,
            bytes: vec![0; chips_for(config.inputs) + 2],
        })
    }

    /// How many square chips (the check chip not counted).
    pub fn chips(&self) -> usize {
        self.bytes.len() - 2
    }

    /// How many inputs.
    pub fn inputs(&self) -> usize {
        self.cells.inputs()
    }

    /// Latches every input, reads the chain and checks its end: the square chips' bytes in the
    /// order clocked in (byte 0 = chip 0, nearest MISO; bit `n` = input Dn). For calibration
    /// screens; [`ShiftChain::scan`] maps them.
    ///
    /// # Errors
    /// [`Error::Load`] if the load pin cannot be pulsed, [`Error::Spi`] if the read fails,
    /// [`Error::Chain`] if the check chip's pattern is not where it belongs.
    pub fn read_bytes(&mut self) -> Result<&[u8], Error<S::Error, L::Error>> {
        self.load.set_low().map_err(Error::Load)?;
        if self.load_pulse_ns > 0 {
            self.delay.delay_ns(self.load_pulse_ns);
        }
        self.load.set_high().map_err(Error::Load)?;
        self.spi.read(&mut self.bytes).map_err(Error::Spi)?;
        let chips = self.chips();
        match check_chain(&self.bytes, chips, self.needed, self.check) {
            Some(fault) => Err(Error::Chain(fault)),
            None => Ok(&self.bytes[..chips]),
        }
    }

    /// Reads every input and maps the active ones to cells.
    ///
    /// # Errors
    /// As [`ShiftChain::read_bytes`].
    pub fn scan(&mut self) -> Result<Occupancy, Error<S::Error, L::Error>> {
        self.read_bytes()?;
        let ShiftChain {
            bytes,
            active,
            cells,
            ..
        } = self;
        Ok(cells.occupancy(|input| active.is_active(input_is_high(bytes, input))))
    }

    /// The bus, for a simulated chain's pieces or a diagnostic.
    pub fn bus_mut(&mut self) -> &mut S {
        &mut self.spi
    }

    /// Gives the bus, the load pin and the delay back.
    pub fn release(self) -> (S, L, D) {
        (self.spi, self.load, self.delay)
    }
}

/// What is wrong with one read of a chain of `chips` square chips ended by `check`, if
/// anything: `bytes` holds `chips + 2` bytes as clocked in (see the module docs). `needed`: the
/// chips the board's places are read from (a short chain is told to fit them).
pub fn check_chain(
    bytes: &[u8],
    chips: usize,
    needed: usize,
    check: ChainCheck,
) -> Option<ChainFault> {
    let ends_at = |k: usize| {
        bytes.get(k) == Some(&check.pattern) && bytes.get(k + 1) == Some(&check.past_end)
    };
    if ends_at(chips) && bytes.len() == chips + 2 {
        return None;
    }
    if let Some(&level) = bytes.first() {
        if (level == 0x00 || level == 0xFF) && bytes.iter().all(|&b| b == level) {
            return Some(ChainFault::NoAnswer { level });
        }
    }
    // The pattern one or more bytes early (chips missing), or one byte late (a chip extra).
    if let Some(found) = (0..chips).rev().find(|&k| ends_at(k)) {
        return Some(ChainFault::WrongLength {
            expected: chips,
            found,
            needed,
        });
    }
    if bytes.get(chips + 1) == Some(&check.pattern) {
        return Some(ChainFault::WrongLength {
            expected: chips,
            found: chips + 1,
            needed,
        });
    }
    Some(ChainFault::Garbled {
        check: bytes.get(chips).copied().unwrap_or(0),
        past_end: bytes.get(chips + 1).copied().unwrap_or(0),
        expected: check,
    })
}

impl<S, L, D> OccupancyScanner for ShiftChain<S, L, D>
where
    S: SpiDevice,
    L: OutputPin,
    D: DelayNs,
{
    type Error = Error<S::Error, L::Error>;

    fn read_occupancy(&mut self) -> Result<Occupancy, Self::Error> {
        self.scan()
    }
}

/// How a read shows the chain to be broken (see the module docs for what each catches).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainFault {
    /// Every bit read the same level: nothing drives MISO.
    NoAnswer {
        /// The byte every read byte was (0x00 or 0xFF).
        level: u8,
    },
    /// The check chip's byte came after `found` square chips, not `expected`.
    WrongLength {
        /// Square chips configured.
        expected: usize,
        /// Square chips the check byte came after.
        found: usize,
        /// Square chips the board's places are read from (the last mapped input's chip).
        needed: usize,
    },
    /// The end of the chain read neither the check pattern nor a shifted copy of it.
    Garbled {
        /// What the check chip's byte read.
        check: u8,
        /// What the byte past the end read.
        past_end: u8,
        /// What they should read.
        expected: ChainCheck,
    },
}

impl fmt::Display for ChainFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChainFault::NoAnswer { level } => write!(
                f,
                "the sensor chain does not answer (every bit reads {}): check the ribbon cable \
                 between the Pi and the board (MISO GPIO 9, SCLK GPIO 11, the chip select and \
                 the load pin set in [sensor.shift_chain], 3V3 and GND), that the chain has \
                 power, and the 74HC125 buffer on MISO",
                if *level == 0 { 0 } else { 1 }
            ),
            ChainFault::WrongLength {
                expected,
                found,
                needed,
            } if found < expected => {
                write!(
                    f,
                    "the sensor chain is {} chip(s) short: the check chip answered after \
                     {found} square chips, not {expected}; look for a chip missing or bypassed \
                     (a Q7 wired to a DS two chips on)",
                    expected - found
                )?;
                // Fewer chips are a fix only if they still read every place.
                if found >= needed {
                    write!(
                        f,
                        ", or set [sensor.shift_chain] chips = {found} if the board has only \
                         {found}"
                    )
                } else {
                    write!(f, ": the board's places need {needed}")
                }
            }
            ChainFault::WrongLength {
                expected, found, ..
            } => write!(
                f,
                "the sensor chain is longer than configured: the check chip answered after \
                 {found} square chips, not {expected}; set [sensor.shift_chain] chips = {found} \
                 or check the wiring"
            ),
            ChainFault::Garbled {
                check,
                past_end,
                expected,
            } => write!(
                f,
                "the sensor chain's check chip read 0x{check:02X} then 0x{past_end:02X}, not \
                 0x{:02X} then 0x{:02X}: look for a broken Q7 -> DS link between two chips, a \
                 check chip input not tied to 3V3 or GND as the schematic shows, or a wrong SPI \
                 mode (mode 0, MSB first)",
                expected.pattern, expected.past_end
            ),
        }
    }
}

/// What went wrong with the shift register chain, and what to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error<SpiE, PinE> {
    /// The configuration has no inputs.
    NoInputs,
    /// The cell map does not fit the chain.
    CellMap(CellMapError),
    /// Driving the parallel-load (SH/LD) pin failed.
    Load(PinE),
    /// The SPI read failed.
    Spi(SpiE),
    /// The read did not end with the check chip's pattern: the chain is broken.
    Chain(ChainFault),
}

impl<SpiE: fmt::Debug, PinE: fmt::Debug> fmt::Display for Error<SpiE, PinE> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoInputs => f.write_str(
                "a 74HC165 chain needs at least one input: set the number of wired inputs",
            ),
            Error::CellMap(e) => write!(f, "74HC165 chain cell map: {e}"),
            Error::Load(e) => write!(
                f,
                "could not drive the 74HC165 load (SH/LD) pin ({e:?}): check its GPIO number in \
                 the pin map and that no other program has claimed it"
            ),
            Error::Spi(e) => write!(
                f,
                "reading the 74HC165 chain over SPI failed ({e:?}): check that SPI is enabled \
                 (dtparam=spi=on), that the device exists (/dev/spidev0.0) and that the service \
                 may open it (group spi)"
            ),
            Error::Chain(fault) => fault.fmt(f),
        }
    }
}

impl<SpiE: fmt::Debug, PinE: fmt::Debug> std::error::Error for Error<SpiE, PinE> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sensing::SensedCell;
    use embedded_hal::spi::{ErrorKind, ErrorType, Operation};
    use embedded_hal_mock::eh1::delay::{CheckedDelay, Transaction as DelayTx};
    use embedded_hal_mock::eh1::digital::{Mock as PinMock, State, Transaction as PinTx};
    use embedded_hal_mock::eh1::spi::{Mock as SpiMock, Transaction as SpiTx};
    use embedded_hal_mock::eh1::MockError;

    /// The pin map's check: 0xB4 then 0x00.
    const CHECK: ChainCheck = ChainCheck {
        pattern: 0xB4,
        past_end: 0x00,
    };

    fn cells(ns: &[u16]) -> Occupancy {
        Occupancy::from_cells(ns.iter().map(|n| SensedCell::new(*n)))
    }

    /// The load pin: high at init, then a low-high pulse per read.
    fn load_script(reads: usize) -> Vec<PinTx> {
        let mut tx = vec![PinTx::set(State::High)];
        for _ in 0..reads {
            tx.push(PinTx::set(State::Low));
            tx.push(PinTx::set(State::High));
        }
        tx
    }

    /// One SpiDevice::read of `bytes`.
    fn spi_read(bytes: Vec<u8>) -> [SpiTx<u8>; 3] {
        [
            SpiTx::transaction_start(),
            SpiTx::read_vec(bytes),
            SpiTx::transaction_end(),
        ]
    }

    /// `squares` (the square chips' bytes) followed by a healthy chain's end.
    fn healthy(mut squares: Vec<u8>) -> Vec<u8> {
        squares.extend([CHECK.pattern, CHECK.past_end]);
        squares
    }

    /// Scans once with `bytes` on the wire for a chain configured with `chips` square chips.
    fn scan_once(chips: usize, bytes: Vec<u8>) -> Result<Occupancy, ChainFault> {
        let mut spi = SpiMock::new(&spi_read(bytes));
        let mut load = PinMock::new(&load_script(1));
        let config = ShiftChainConfig {
            load_pulse_ns: 0,
            ..ShiftChainConfig::new(chips * 8, CHECK)
        };
        let mut chain = ShiftChain::new(spi.clone(), load.clone(), NoDelay, config).unwrap();
        let out = chain.scan().map_err(|e| match e {
            Error::Chain(fault) => fault,
            other => panic!("not a chain fault: {other}"),
        });
        spi.done();
        load.done();
        out
    }

    use crate::sim::NoDelay;

    #[test]
    fn a_full_scan_of_two_chips_pulses_load_then_reads_the_chips_nearest_miso_first() {
        let mut spi = SpiMock::new(&spi_read(healthy(vec![0b1111_1110, 0b0111_1111])));
        let mut load = PinMock::new(&load_script(1));
        let mut delay = CheckedDelay::new(&[DelayTx::delay_ns(1_000)]);
        let mut chain = ShiftChain::new(
            spi.clone(),
            load.clone(),
            delay.clone(),
            ShiftChainConfig::new(16, CHECK),
        )
        .unwrap();
        assert_eq!((chain.chips(), chain.inputs()), (2, 16));
        // Active low: byte 0 (chip 0, nearest MISO) has its LSB (A = input 0) low; byte 1
        // (chip 1) has its MSB (H = input 15) low.
        assert_eq!(chain.scan().unwrap(), cells(&[0, 15]));
        spi.done();
        load.done();
        delay.done();
    }

    /// The finding: the schematic names U1 (Q7 to MISO) squares 0-7, but the driver read the
    /// first byte as the *last* chip, so a piece on square 0 (a1) was reported as cell 112.
    /// Fails on the old code: it reports 112 for every case below.
    #[test]
    fn a_piece_on_each_chips_input_a_lands_on_the_square_the_pin_map_names() {
        let order = ChainOrder::schematic().unwrap();
        assert_eq!(order.chips().len(), 15);
        assert_eq!(order.chips()[0].reference, "U1");
        for (k, chip) in order.chips().iter().enumerate() {
            let mut squares = vec![0xFF; 15];
            squares[k] = 0b1111_1110; // D0 (pin A) of chip k closed
            let mut spi = SpiMock::new(&spi_read(healthy(squares)));
            let mut load = PinMock::new(&load_script(1));
            let config = ShiftChainConfig {
                cells: Some(order.cell_map(15, 120).unwrap()),
                load_pulse_ns: 0,
                ..ShiftChainConfig::new(120, order.check())
            };
            let mut chain = ShiftChain::new(spi.clone(), load.clone(), NoDelay, config).unwrap();
            assert_eq!(
                chain.scan().unwrap(),
                cells(&[chip.first_cell]),
                "{} input A",
                chip.reference
            );
            spi.done();
            load.done();
        }
        // The schematic's U1 reads squares 0-7, U15 squares 112-119.
        assert_eq!(order.chips()[0].first_cell, 0);
        assert_eq!(order.chips()[14].first_cell, 112);
        assert_eq!(order.check(), CHECK);
        assert_eq!(order.check_reference(), "U16");
    }

    /// A longer chain goes on as the pin map says (`longer = "next"`): tray slots after the
    /// squares, or Napoléon's 26 x 31 map on 101 chips. The old code refused any chip past the
    /// fifteen drawn, so a Waterloo board with its trays wired on chips 16.. never started on a Pi.
    #[test]
    fn the_pin_maps_order_fits_smaller_boards_and_goes_on_for_longer_chains() {
        let order = ChainOrder::schematic().unwrap();
        // A 10 x 10 board: 13 chips, the last 4 inputs of U13 unwired.
        let map = order.cell_map(13, 100).unwrap();
        assert_eq!(map.inputs(), 104);
        assert_eq!(map.cell(99), Some(SensedCell::new(99)));
        assert_eq!(map.cell(100), None);
        // Waterloo's 120 squares and 34 tray slots: chip 16 reads cells 120-127, chip 20's D1
        // cell 153.
        let map = order.cell_map(20, 154).unwrap();
        assert_eq!(map.cell(120), Some(SensedCell::new(120)));
        assert_eq!(map.cell(8 * 19 + 1), Some(SensedCell::new(153)));
        assert_eq!(map.cell(8 * 19 + 2), None);
        // Napoléon's map, read through the driver: a block on D5 of the 101st chip is z31.
        let (chips, squares) = (101, 26 * 31);
        let map = order.cell_map(chips, squares).unwrap();
        let mut bytes = vec![0xFF; chips];
        bytes[100] = !(1 << 5);
        let mut spi = SpiMock::new(&spi_read(healthy(bytes)));
        let mut load = PinMock::new(&load_script(1));
        let config = ShiftChainConfig {
            cells: Some(map),
            load_pulse_ns: 0,
            ..ShiftChainConfig::new(chips * 8, order.check())
        };
        let mut chain = ShiftChain::new(spi.clone(), load.clone(), NoDelay, config).unwrap();
        assert_eq!(chain.scan().unwrap(), cells(&[805]));
        spi.done();
        load.done();

        // A pin map that says no way to go on refuses a longer chain, and names the fix.
        let short = "[sensor.shift_chain]\nchain = [{ ref = \"U1\", first_cell = 0 }]\n\
                     check = { ref = \"U2\", pattern = 0xB4, ds = \"GND\" }\n";
        let err = ChainOrder::from_pin_map(short)
            .unwrap()
            .cell_map(2, 16)
            .unwrap_err();
        assert_eq!(
            err,
            OrderError::TooManyChips {
                configured: 2,
                described: 1
            }
        );
        assert!(err.to_string().contains("[board] cells"), "{err}");
        let odd = short.replace("check =", "longer = \"sideways\"\ncheck =");
        let err = ChainOrder::from_pin_map(&odd).unwrap_err().to_string();
        assert!(err.contains("write \"next\""), "{err}");
    }

    #[test]
    fn a_malformed_pin_map_is_named() {
        let base = "[sensor.shift_chain]\nchain = [{ ref = \"U1\", first_cell = 0 }, \
                    { ref = \"U2\", first_cell = 8 }]\ncheck = { ref = \"U3\", pattern = 0xB4, \
                    ds = \"GND\" }\n";
        let order = ChainOrder::from_pin_map(base).unwrap();
        assert_eq!(
            order.cell_map(2, 16).unwrap(),
            CellMap::identity(16).unwrap()
        );
        let refuse = |text: &str| ChainOrder::from_pin_map(text).unwrap_err().to_string();
        assert!(refuse("[sensor]\n").contains("no [sensor.shift_chain]"));
        assert!(refuse(&base.replace("first_cell = 8", "first_cell = 4")).contains("both mapped"));
        assert!(refuse(&base.replace("0xB4", "0xFF")).contains("floating MISO"));
        assert!(refuse(&base.replace("0xB4", "0x00")).contains("floating MISO"));
        assert!(refuse(&base.replace("\"GND\"", "\"5V\"")).contains("ds = \"GND\""));
        assert!(refuse(&base.replace("ref = \"U3\", ", "")).contains("`ref`"));
        assert!(refuse("x = ").contains("not valid TOML"));
    }

    /// The finding: an unplugged cable read as 120 pieces. Fails on the old code (no check).
    #[test]
    fn an_unplugged_cable_is_a_named_fault_whether_miso_floats_low_or_high() {
        for level in [0x00, 0xFF] {
            let err = scan_once(15, vec![level; 17]).unwrap_err();
            assert_eq!(err, ChainFault::NoAnswer { level });
            let text = err.to_string();
            assert!(text.contains("does not answer"), "{text}");
            assert!(text.contains("ribbon cable"), "{text}");
        }
    }

    #[test]
    fn a_missing_chip_and_an_extra_chip_are_counted() {
        // 14 square chips on the wire for 15 configured: the check byte comes one early, and
        // the board happens to be full (0x00 bytes, active low) - still not a board of pieces.
        let mut bytes = healthy(vec![0x00; 14]);
        bytes.push(0x00);
        let err = scan_once(15, bytes).unwrap_err();
        assert_eq!(
            err,
            ChainFault::WrongLength {
                expected: 15,
                found: 14,
                needed: 15
            }
        );
        assert!(err.to_string().contains("1 chip(s) short"), "{err}");
        // Every input is a place: 14 chips would not read them, so they are not offered.
        assert!(
            err.to_string().ends_with(": the board's places need 15"),
            "{err}"
        );
        // 16 on the wire for 15 configured: the pattern comes one late.
        let mut bytes = vec![0xFF; 16];
        bytes.push(CHECK.pattern);
        let err = scan_once(15, bytes).unwrap_err();
        assert_eq!(
            err,
            ChainFault::WrongLength {
                expected: 15,
                found: 16,
                needed: 15
            }
        );
        assert!(err.to_string().contains("chips = 16"), "{err}");
    }

    /// A chain configured longer than its places need (100 squares on 15 chips: the last place
    /// is on chip 13) and found one chip short is told it may be set to 14; one that is short
    /// of its places is not (`check-config` would refuse the count).
    #[test]
    fn a_short_chain_is_offered_fewer_chips_only_if_they_read_every_place() {
        let faults = |needed| {
            let mut bytes = healthy(vec![0xFF; 14]);
            bytes.push(0x00);
            check_chain(&bytes, 15, needed, CHECK).unwrap()
        };
        let fewer = faults(13).to_string();
        assert!(
            fewer.contains("or set [sensor.shift_chain] chips = 14"),
            "{fewer}"
        );
        let short = faults(15).to_string();
        assert!(!short.contains("set [sensor.shift_chain]"), "{short}");
        // Through the driver: 100 cells on inputs 0..100 of 15 chips.
        let mut table: Vec<Option<SensedCell>> =
            (0..100).map(|c| Some(SensedCell::new(c))).collect();
        table.resize(120, None);
        let mut bytes = healthy(vec![0xFF; 14]);
        bytes.push(0x00);
        let mut spi = SpiMock::new(&spi_read(bytes));
        let mut load = PinMock::new(&load_script(1));
        let config = ShiftChainConfig {
            load_pulse_ns: 0,
            cells: Some(CellMap::from_table(table).unwrap()),
            ..ShiftChainConfig::new(120, CHECK)
        };
        let mut chain = ShiftChain::new(spi.clone(), load.clone(), NoDelay, config).unwrap();
        assert_eq!(
            chain.scan().unwrap_err(),
            Error::Chain(ChainFault::WrongLength {
                expected: 15,
                found: 14,
                needed: 13
            })
        );
        spi.done();
        load.done();
    }

    #[test]
    fn a_wrong_bit_order_a_one_bit_shift_or_a_broken_link_is_garbled() {
        // LSB-first SPI: 0xB4 reads 0x2D. Sampled a bit late: 0x68 (and the 0x00 after).
        for check in [0x2D, 0x68, 0xB5] {
            let mut bytes = vec![0xFF; 15];
            bytes.extend([check, 0x00]);
            let err = scan_once(15, bytes).unwrap_err();
            assert!(
                matches!(err, ChainFault::Garbled { check: c, .. } if c == check),
                "{err:?}"
            );
            assert!(err.to_string().contains("Q7 -> DS"), "{err}");
        }
    }

    #[test]
    fn a_good_chain_of_fifteen_reads_120_squares_in_one_transfer() {
        // Square 119 (chip 14 input H) and square 64 (chip 8 input A) occupied.
        let mut squares = vec![0xFF; 15];
        squares[14] = 0b0111_1111;
        squares[8] = 0b1111_1110;
        assert_eq!(scan_once(15, healthy(squares)), Ok(cells(&[64, 119])));
        assert_eq!(scan_once(15, healthy(vec![0xFF; 15])), Ok(Occupancy::EMPTY));
    }

    #[test]
    fn active_high_with_a_partial_last_chip_ignores_unwired_bits() {
        // 12 inputs: 2 chips, inputs 12-15 of the last chip unwired.
        let mut spi = SpiMock::new(&spi_read(healthy(vec![0b0000_0001, 0xFF])));
        let mut load = PinMock::new(&load_script(1));
        let mut delay = CheckedDelay::new(&[]);
        let config = ShiftChainConfig {
            active: ActiveLevel::High,
            load_pulse_ns: 0,
            ..ShiftChainConfig::new(12, CHECK)
        };
        let mut chain = ShiftChain::new(spi.clone(), load.clone(), delay.clone(), config).unwrap();
        assert_eq!(chain.scan().unwrap(), cells(&[0, 8, 9, 10, 11]));
        spi.done();
        load.done();
        delay.done();
    }

    #[test]
    fn a_cell_map_renumbers_inputs() {
        // 8 inputs wired in reverse; input 3 unwired.
        let table = (0..8u16)
            .map(|i| (i != 3).then(|| SensedCell::new(100 + 7 - i)))
            .collect();
        let mut spi = SpiMock::new(&spi_read(healthy(vec![0b1111_0110])));
        let mut load = PinMock::new(&load_script(1));
        let mut delay = CheckedDelay::new(&[DelayTx::delay_ns(1_000)]);
        let config = ShiftChainConfig {
            cells: Some(CellMap::from_table(table).unwrap()),
            ..ShiftChainConfig::new(8, CHECK)
        };
        let mut chain = ShiftChain::new(spi.clone(), load.clone(), delay.clone(), config).unwrap();
        // Inputs 0 and 3 read low (closed); 3 is unwired, 0 is cell 107.
        assert_eq!(chain.scan().unwrap(), cells(&[107]));
        spi.done();
        load.done();
        delay.done();
    }

    #[test]
    fn raw_bytes_are_available_for_calibration_without_the_check_bytes() {
        let mut spi = SpiMock::new(
            &[
                spi_read(healthy(vec![0xAA, 0x55])),
                spi_read(healthy(vec![0x00, 0xFF])),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>(),
        );
        let mut load = PinMock::new(&load_script(2));
        let mut delay = CheckedDelay::new(&[]);
        let config = ShiftChainConfig {
            load_pulse_ns: 0,
            ..ShiftChainConfig::new(16, CHECK)
        };
        let mut chain = ShiftChain::new(spi.clone(), load.clone(), delay.clone(), config).unwrap();
        assert_eq!(chain.read_bytes().unwrap(), [0xAA, 0x55]);
        assert_eq!(chain.read_bytes().unwrap(), [0x00, 0xFF]);
        spi.done();
        load.done();
        delay.done();
    }

    /// An SPI device whose every transfer fails, as a disconnected spidev would.
    #[derive(Debug)]
    struct BrokenSpi;

    impl ErrorType for BrokenSpi {
        type Error = ErrorKind;
    }

    impl SpiDevice for BrokenSpi {
        fn transaction(&mut self, _: &mut [Operation<'_, u8>]) -> Result<(), ErrorKind> {
            Err(ErrorKind::Other)
        }
    }

    #[test]
    fn an_spi_error_is_typed_after_the_load_pulse() {
        let mut load = PinMock::new(&load_script(1));
        let mut delay = CheckedDelay::new(&[DelayTx::delay_ns(1_000)]);
        let mut chain = ShiftChain::new(
            BrokenSpi,
            load.clone(),
            delay.clone(),
            ShiftChainConfig::new(8, CHECK),
        )
        .unwrap();
        let err = chain.scan().unwrap_err();
        assert_eq!(err, Error::Spi(ErrorKind::Other));
        assert!(err.to_string().contains("dtparam=spi=on"));
        load.done();
        delay.done();
    }

    #[test]
    fn a_load_pin_error_is_typed_and_no_spi_read_is_made() {
        let busy = MockError::Io(std::io::ErrorKind::ResourceBusy);
        let mut spi = SpiMock::new(&[]);
        let mut load = PinMock::new(&[
            PinTx::set(State::High),
            PinTx::set(State::Low).with_error(busy.clone()),
        ]);
        let mut delay = CheckedDelay::new(&[]);
        let mut chain = ShiftChain::new(
            spi.clone(),
            load.clone(),
            delay.clone(),
            ShiftChainConfig::new(8, CHECK),
        )
        .unwrap();
        let err = chain.scan().unwrap_err();
        assert_eq!(err, Error::Load(busy));
        assert!(err.to_string().contains("SH/LD"));
        spi.done();
        load.done();
        delay.done();
    }

    #[test]
    fn bad_configurations_are_refused_before_touching_a_pin() {
        let mut spi = SpiMock::new(&[]);
        let mut load = PinMock::new(&[]);
        let mut delay = CheckedDelay::new(&[]);
        let err = ShiftChain::new(
            spi.clone(),
            load.clone(),
            delay.clone(),
            ShiftChainConfig::new(0, CHECK),
        )
        .unwrap_err();
        assert_eq!(err, Error::NoInputs);
        let config = ShiftChainConfig {
            cells: Some(CellMap::identity(8).unwrap()),
            ..ShiftChainConfig::new(16, CHECK)
        };
        assert_eq!(
            ShiftChain::new(spi.clone(), load.clone(), delay.clone(), config).unwrap_err(),
            Error::CellMap(CellMapError::WrongLength {
                expected: 16,
                got: 8
            })
        );
        spi.done();
        load.done();
        delay.done();
    }

    #[test]
    fn bit_order_and_read_time() {
        // Three chips: byte 0 = chip 0, byte 2 = chip 2; bit n = input Dn.
        let bytes = [0b0000_0001, 0, 0b1000_0000];
        assert!(input_is_high(&bytes, 23)); // chip 2, H
        assert!(input_is_high(&bytes, 0)); // chip 0, A
        assert!(!input_is_high(&bytes, 7));
        assert!(!input_is_high(&bytes, 24)); // beyond the chain
        assert_eq!(chips_for(120), 15);
        assert_eq!(chips_for(121), 16);
        // 15 bytes + the check byte + the past-the-end byte = 136 clocks at 1 MHz.
        assert_eq!(read_time_ns(120, 1_000_000), 136_000);
        assert_eq!(read_time_ns(120, 0), u64::MAX);
    }
}
