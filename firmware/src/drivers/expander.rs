//! PCF8575 16-bit I/O expanders on I2C: one reed switch per pin, up to eight chips a bus
//! ([`Pcf8575Bank`]), or a diode matrix with its rows on one chip and its columns on another
//! ([`Pcf8575Matrix`], the schematics' option A).
//!
//! # Wiring
//! Each chip's A0-A2 pins give it an address from 0x20 to 0x27, so one bus holds eight chips
//! (128 inputs). Mind the neighbours: an MCP23017 uses the same range, and a PN532 NFC reader
//! on I2C sits at 0x24, so skip 0x24 if one shares the bus; the SSD1306 (0x3C/0x3D) does not
//! collide. With [`ActiveLevel::Low`] (the default) each reed closes its pin to ground: the
//! PCF8575's weak internal high (a 30-300 µA current source) is the pull-up, so no resistors
//! are needed. [`ActiveLevel::High`] suits sensors that drive their output high.
//!
//! # The chip
//! The PCF8575 has no registers: its pins are quasi-bidirectional. Writing a 1 to a pin turns
//! on the weak high, which makes it an input that anything can pull low; writing 0 drives it
//! low. So [`Pcf8575Bank::new`] writes `0xFF 0xFF` to every chip once, and a read is the
//! address and two bytes, nothing else: `I2c::read` of 2 bytes. The first byte is port 0
//! (P07..P00, MSB first), the second port 1 (P17..P10). The chip's power-on state is also all
//! high, so a chip that browns out and resets still reads correctly.
//!
//! Plain `I2c::read`/`I2c::write` are single operations, so the rppal pitfall with multi-
//! operation `I2c::transaction`s (no repeated START, `docs/hardware.md` §4) does not apply.
//!
//! # Numbering
//! Chips are numbered in the order their addresses are given; **input `16 * chip + n` is pin
//! P0n for n < 8 and P1(n-8) for n >= 8**. Input `i` reads cell `i` unless a [`CellMap`] says
//! otherwise.
//!
//! # Timing (computed)
//! A read is about 29 SCL clocks (address + 2 bytes): 72 µs at 400 kHz, so eight chips take
//! about 0.6 ms on the wire plus one syscall each: far inside a 10 ms (100 Hz) scan period.
//!
//! The MCP23017 is not supported: its GPA7/GPB7 must not be inputs (Microchip errata), which
//! leaves only 14 inputs per chip and 112 per bus, fewer than a 12x10 board needs.
//!
//! # Example
//! ```
//! use embedded_hal_mock::eh1::i2c::{Mock as I2c, Transaction as Tx};
//! use firmware::drivers::expander::{ExpanderConfig, Pcf8575Bank};
//!
//! let i2c = I2c::new(&[
//!     Tx::write(0x20, vec![0xFF, 0xFF]),        // init: every pin an input
//!     Tx::read(0x20, vec![0b1111_1011, 0xFF]), // P02 pulled low by a reed
//! ]);
//! let mut bank = Pcf8575Bank::new(i2c, ExpanderConfig::new([0x20]))?;
//! assert_eq!(bank.scan()?.to_marks(4), "..X.");
//! bank.release().done();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use embedded_hal::delay::DelayNs;
use embedded_hal::i2c::I2c;

pub use super::reed_matrix::{ActiveLevel, CellMap, CellMapError, OccupancyScanner};
use crate::sensing::Occupancy;

/// The first PCF8575 address (A2 = A1 = A0 = 0).
pub const FIRST_ADDRESS: u8 = 0x20;
/// The last PCF8575 address (A2 = A1 = A0 = 1).
pub const LAST_ADDRESS: u8 = 0x27;
/// Inputs per chip.
pub const PINS_PER_CHIP: usize = 16;

/// Which PCF8575s a [`Pcf8575Bank`] reads, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpanderConfig {
    /// The chips' 7-bit addresses (0x20-0x27), chip 0 first.
    pub addresses: Vec<u8>,
    /// The level a closed reed puts on its pin.
    pub active: ActiveLevel,
    /// Which cell each input reads (`16 * chip + pin`); `None` maps input `i` to cell `i`.
    pub cells: Option<CellMap>,
}

impl ExpanderConfig {
    /// Active-low chips at `addresses`, input `i` reading cell `i`.
    pub fn new(addresses: impl Into<Vec<u8>>) -> ExpanderConfig {
        ExpanderConfig {
            addresses: addresses.into(),
            active: ActiveLevel::Low,
            cells: None,
        }
    }
}

/// Several PCF8575s on one I2C bus `I`, read as one block of inputs.
#[derive(Debug)]
pub struct Pcf8575Bank<I> {
    i2c: I,
    addresses: Vec<u8>,
    active: ActiveLevel,
    cells: CellMap,
    pins: Vec<u16>,
}

impl<I: I2c> Pcf8575Bank<I> {
    /// Takes the bus, checks the addresses, and writes `0xFFFF` to every chip to make all its
    /// pins inputs.
    ///
    /// # Errors
    /// [`Error::NoChips`], [`Error::AddressOutOfRange`], [`Error::DuplicateAddress`] or
    /// [`Error::CellMap`] for a bad configuration (checked before the bus is touched);
    /// [`Error::Init`] naming the first chip that did not take the write.
    pub fn new(mut i2c: I, config: ExpanderConfig) -> Result<Self, Error<I::Error>> {
        let addresses = config.addresses;
        if addresses.is_empty() {
            return Err(Error::NoChips);
        }
        for (i, &address) in addresses.iter().enumerate() {
            if !(FIRST_ADDRESS..=LAST_ADDRESS).contains(&address) {
                return Err(Error::AddressOutOfRange { address });
            }
            if addresses[..i].contains(&address) {
                return Err(Error::DuplicateAddress { address });
            }
        }
        let inputs = addresses.len() * PINS_PER_CHIP;
        let cells = match config.cells {
            Some(cells) => cells,
            None => CellMap::identity(inputs).map_err(Error::CellMap)?,
        };
        cells.check_inputs(inputs).map_err(Error::CellMap)?;
        for &address in &addresses {
            i2c.write(address, &[0xFF, 0xFF])
                .map_err(|source| Error::Init { address, source })?;
        }
        Ok(Pcf8575Bank {
            i2c,
            pins: vec![0xFFFF; addresses.len()],
            addresses,
            active: config.active,
            cells,
        })
    }

    /// Reads every chip: per chip the pin levels as a word, bit `n` = P0n for n < 8 and
    /// P1(n-8) for n >= 8 (a set bit reads high). For calibration screens;
    /// [`Pcf8575Bank::scan`] maps them.
    ///
    /// # Errors
    /// [`Error::Read`] naming the first chip that did not answer.
    pub fn read_pins(&mut self) -> Result<&[u16], Error<I::Error>> {
        for (address, pins) in self.addresses.iter().zip(self.pins.iter_mut()) {
            let mut bytes = [0u8; 2];
            self.i2c
                .read(*address, &mut bytes)
                .map_err(|source| Error::Read {
                    address: *address,
                    source,
                })?;
            *pins = u16::from_le_bytes(bytes);
        }
        Ok(&self.pins)
    }

    /// Reads every chip and maps the active pins to cells.
    ///
    /// # Errors
    /// As [`Pcf8575Bank::read_pins`].
    pub fn scan(&mut self) -> Result<Occupancy, Error<I::Error>> {
        self.read_pins()?;
        let Pcf8575Bank {
            pins,
            active,
            cells,
            ..
        } = self;
        Ok(cells.occupancy(|input| {
            let high = pins
                .get(input / PINS_PER_CHIP)
                .is_some_and(|word| word & (1 << (input % PINS_PER_CHIP)) != 0);
            active.is_active(high)
        }))
    }

    /// Gives the bus back.
    pub fn release(self) -> I {
        self.i2c
    }
}

impl<I: I2c> OccupancyScanner for Pcf8575Bank<I> {
    type Error = Error<I::Error>;

    fn read_occupancy(&mut self) -> Result<Occupancy, Self::Error> {
        self.scan()
    }
}

/// How a [`Pcf8575Matrix`] is wired: a reed-and-diode matrix whose rows sit on one PCF8575 and
/// whose columns sit on another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatrixConfig {
    /// The row expander's address (rows on P00.. in order: row `r` is pin `r`).
    pub row_address: u8,
    /// The column expander's address (column `c` is pin `c`).
    pub column_address: u8,
    /// Rows wired, 1 to 16.
    pub rows: usize,
    /// Columns wired, 1 to 16.
    pub columns: usize,
    /// Which cell each matrix position reads (input `r * columns + c`); `None` maps it to cell
    /// `r * columns + c`.
    pub cells: Option<CellMap>,
    /// How long to wait after selecting a row before reading the columns, so lines released
    /// by the last row have risen (see [`Pcf8575Matrix`], "Settling"); 0 skips the delay.
    pub settle_ns: u32,
}

/// The default settle time of a [`Pcf8575Matrix`] row: 50 µs, computed (not measured) to cover
/// a long line rising on the PCF8575's weak high alone (about 31 µs, see [`Pcf8575Matrix`]).
pub const DEFAULT_SETTLE_NS: u32 = 50_000;

/// The computed time for a line of `capacitance_pf` to rise from 0 V to the PCF8575's V_IH
/// (0.7 x 3.3 V = 2.31 V), in nanoseconds: with `pull_up_ohms` = 0 on the chip's weak current
/// source of `weak_high_ua` alone (t = C x V / I), otherwise through that external pull-up
/// (t = R x C x ln(3.3 / (3.3 - 2.31)) = 1.204 R C; the weak source only helps).
pub const fn rise_time_ns(capacitance_pf: u64, pull_up_ohms: u64, weak_high_ua: u64) -> u64 {
    if pull_up_ohms == 0 {
        // C [pF] x 2310 mV / I [µA] = ns.
        match (capacitance_pf * 2310).checked_div(weak_high_ua) {
            Some(ns) => ns,
            None => u64::MAX,
        }
    } else {
        // R [Ω] x C [pF] = ps; x 1.204 / 1000 = ns.
        pull_up_ohms * capacitance_pf * 1204 / 1_000_000
    }
}

impl MatrixConfig {
    /// `rows` x `columns` on the expanders at `row_address` and `column_address`, row `r` and
    /// column `c` reading cell `r * columns + c`, [`DEFAULT_SETTLE_NS`] after each row.
    pub fn new(row_address: u8, column_address: u8, rows: usize, columns: usize) -> MatrixConfig {
        MatrixConfig {
            row_address,
            column_address,
            rows,
            columns,
            cells: None,
            settle_ns: DEFAULT_SETTLE_NS,
        }
    }
}

/// SCL clocks of one PCF8575 transaction of address + 2 data bytes: 9 clocks a byte (8 bits and
/// the acknowledge) plus about 2 for START and STOP.
pub const CLOCKS_PER_TRANSACTION: u64 = 3 * 9 + 2;

/// The computed wire time of one [`Pcf8575Matrix`] scan of `rows` rows at `i2c_hz`, in
/// nanoseconds: per row a 2-byte write to the row expander and a 2-byte read of the column
/// expander, then one write releasing every row. Kernel time between transactions and the
/// settle delays are not included (add `rows x settle_ns`).
pub const fn matrix_scan_time_ns(rows: u32, i2c_hz: u32) -> u64 {
    wire_time_ns(2 * rows as u64 + 1, i2c_hz)
}

/// The computed wire time of one [`Pcf8575Bank`] scan of `chips` chips at `i2c_hz`, in
/// nanoseconds: one 2-byte read per chip. Kernel time between transactions is not included.
pub const fn bank_scan_time_ns(chips: u32, i2c_hz: u32) -> u64 {
    wire_time_ns(chips as u64, i2c_hz)
}

/// The wire time of `transactions` PCF8575 transactions at `i2c_hz`, in nanoseconds
/// (`u64::MAX` at 0 Hz).
const fn wire_time_ns(transactions: u64, i2c_hz: u32) -> u64 {
    let clocks = transactions * CLOCKS_PER_TRANSACTION;
    match clocks
        .saturating_mul(1_000_000_000)
        .checked_div(i2c_hz as u64)
    {
        Some(ns) => ns,
        None => u64::MAX,
    }
}

/// A reed-switch diode matrix on two PCF8575s: the rows on one, driven one at a time, the
/// columns read from the other.
///
/// # Wiring
/// One reed switch and one diode per square between its row pin and its column pin, cathode
/// towards the row. The PCF8575's pins are quasi-bidirectional: a 1 is a weak pull-up
/// (30-300 µA), a 0 a strong low. So every column pin is written 1 once, at start-up, and
/// becomes an input held high by its weak pull-up; the row expander is written a word with only
/// the selected row's bit 0: that row is pulled low, the others float weakly high, and a closed
/// reed on the selected row pulls its column low through its diode (active low). The diodes stop
/// current flowing back through the unselected rows, so there is no ghosting. No resistors are
/// needed.
///
/// # Pull-ups on long lines
/// The PCF8575's high is weak: a current source of 30-300 µA (`docs/hardware.md` §1). A line that
/// a closed reed held low rises again only as fast as that source charges the wire. On a
/// hobbyist's board the row and column lines run the length of the board, so the schematic
/// adds an external 10 kΩ pull-up to 3.3 V on every row and column line (two bussed networks).
///
/// # Settling (computed, not measured)
/// After a row is selected, the previous row is released and its columns must rise before they
/// are read, or the previous row's pieces show on this row. Assumed line: 3 m of wire at about
/// 100 pF/m, 12 diodes at 4 pF and the pins: about 400 pF. [`rise_time_ns`]:
///
/// | pull-up | rise to V_IH (2.31 V) |
/// |---|---|
/// | the chip's weak high alone, 30 µA (the low end) | 400 pF x 2.31 V / 30 µA = 30.8 µs |
/// | external 10 kΩ (the schematic) | 1.204 x 10 kΩ x 400 pF = 4.8 µs |
///
/// [`MatrixConfig::settle_ns`] (default [`DEFAULT_SETTLE_NS`], 50 µs) is waited with the
/// driver's [`DelayNs`] after each row write, before the column read; it covers the weak-high
/// case with margin. The I2C read's own address byte (22.5 µs at 400 kHz) is not counted on:
/// when the chip samples its pins inside the read is not checked here. Ten rows add 0.5 ms to
/// the 1.5 ms scan.
///
/// # A scan
/// For each row `r`: write `!(1 << r)` (two bytes, P07..P00 then P17..P10) to the row expander,
/// wait the settle time, read two bytes from the column expander; a column bit that reads 0 is a closed reed at row
/// `r`, column `c`, input `r * columns + c`. After the last row, `0xFFFF` is written to the row
/// expander, so no row stays selected between scans. Every transfer is a single `I2c::write` or
/// `I2c::read`, so rppal's multi-operation transaction pitfall (`docs/hardware.md` §4) does not
/// apply.
///
/// # Scan time (computed, not measured)
/// Each transaction is address + 2 bytes = [`CLOCKS_PER_TRANSACTION`] (29) SCL clocks, 72.5 µs
/// at 400 kHz. A 10-row scan is 10 writes + 10 reads + 1 release = 21 transactions = 609 clocks
/// = **1.52 ms at 400 kHz** ([`matrix_scan_time_ns`]), at most 656 scans/s on the wire; at the
/// Pi's default 100 kHz it is 6.09 ms (164 scans/s). Allowing (an assumption, unmeasured) 50 µs
/// of kernel time per transaction adds 1.05 ms: 2.57 ms, about 389 scans/s at 400 kHz. Either
/// way 100 Hz (10 ms a scan) is met; set `i2c_arm_baudrate=400000` for headroom.
///
/// # Example
/// ```
/// use embedded_hal_mock::eh1::i2c::{Mock as I2c, Transaction as Tx};
/// use firmware::drivers::expander::{MatrixConfig, Pcf8575Matrix};
///
/// let i2c = I2c::new(&[
///     Tx::write(0x20, vec![0xFF, 0xFF]),          // rows: all released
///     Tx::write(0x21, vec![0xFF, 0xFF]),          // columns: all inputs
///     Tx::write(0x20, vec![0b1111_1110, 0xFF]),   // select row 0
///     Tx::read(0x21, vec![0b1111_1101, 0xFF]),    // column 1 pulled low
///     Tx::write(0x20, vec![0b1111_1101, 0xFF]),   // select row 1
///     Tx::read(0x21, vec![0xFF, 0xFF]),
///     Tx::write(0x20, vec![0xFF, 0xFF]),          // release every row
/// ]);
/// let delay = embedded_hal_mock::eh1::delay::NoopDelay::new();
/// let mut matrix = Pcf8575Matrix::new(i2c, delay, MatrixConfig::new(0x20, 0x21, 2, 3))?;
/// assert_eq!(matrix.scan()?.to_marks(6), ".X....");
/// matrix.release().done();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Pcf8575Matrix<I, D> {
    i2c: I,
    delay: D,
    settle_ns: u32,
    row_address: u8,
    column_address: u8,
    rows: usize,
    columns: usize,
    cells: CellMap,
}

impl<I: I2c, D: DelayNs> Pcf8575Matrix<I, D> {
    /// Takes the bus and the settle delay, checks the wiring, releases every row and makes every column an input
    /// (writes `0xFFFF` to both expanders, the row expander first).
    ///
    /// # Errors
    /// [`Error::AddressOutOfRange`], [`Error::DuplicateAddress`] (rows and columns on one
    /// chip), [`Error::MatrixSize`] or [`Error::CellMap`] for a bad configuration, checked
    /// before the bus is touched; [`Error::Init`] naming the expander that did not take the
    /// write.
    pub fn new(mut i2c: I, delay: D, config: MatrixConfig) -> Result<Self, Error<I::Error>> {
        for address in [config.row_address, config.column_address] {
            if !(FIRST_ADDRESS..=LAST_ADDRESS).contains(&address) {
                return Err(Error::AddressOutOfRange { address });
            }
        }
        if config.row_address == config.column_address {
            return Err(Error::DuplicateAddress {
                address: config.row_address,
            });
        }
        let (rows, columns) = (config.rows, config.columns);
        if !(1..=PINS_PER_CHIP).contains(&rows) || !(1..=PINS_PER_CHIP).contains(&columns) {
            return Err(Error::MatrixSize { rows, columns });
        }
        let inputs = rows * columns;
        let cells = match config.cells {
            Some(cells) => cells,
            None => CellMap::identity(inputs).map_err(Error::CellMap)?,
        };
        cells.check_inputs(inputs).map_err(Error::CellMap)?;
        for address in [config.row_address, config.column_address] {
            i2c.write(address, &[0xFF, 0xFF])
                .map_err(|source| Error::Init { address, source })?;
        }
        Ok(Pcf8575Matrix {
            i2c,
            delay,
            settle_ns: config.settle_ns,
            row_address: config.row_address,
            column_address: config.column_address,
            rows,
            columns,
            cells,
        })
    }

    /// Scans every row once and maps the closed reeds to cells.
    ///
    /// # Errors
    /// [`Error::Select`] if the row expander did not take a row word, [`Error::Read`] if the
    /// column expander did not answer; either names the address. A failed scan leaves a row
    /// selected; the next scan selects rows afresh.
    pub fn scan(&mut self) -> Result<Occupancy, Error<I::Error>> {
        let mut closed = vec![false; self.rows * self.columns];
        for row in 0..self.rows {
            let word = !(1u16 << row);
            self.i2c
                .write(self.row_address, &word.to_le_bytes())
                .map_err(|source| Error::Select {
                    address: self.row_address,
                    source,
                })?;
            if self.settle_ns > 0 {
                self.delay.delay_ns(self.settle_ns);
            }
            let mut bytes = [0u8; 2];
            self.i2c
                .read(self.column_address, &mut bytes)
                .map_err(|source| Error::Read {
                    address: self.column_address,
                    source,
                })?;
            let levels = u16::from_le_bytes(bytes);
            for (column, slot) in closed[row * self.columns..(row + 1) * self.columns]
                .iter_mut()
                .enumerate()
            {
                *slot = ActiveLevel::Low.is_active(levels & (1 << column) != 0);
            }
        }
        self.i2c
            .write(self.row_address, &[0xFF, 0xFF])
            .map_err(|source| Error::Select {
                address: self.row_address,
                source,
            })?;
        Ok(self
            .cells
            .occupancy(|input| closed.get(input).copied().unwrap_or(false)))
    }

    /// Gives the bus back.
    pub fn release(self) -> I {
        self.i2c
    }
}

impl<I: I2c, D: DelayNs> OccupancyScanner for Pcf8575Matrix<I, D> {
    type Error = Error<I::Error>;

    fn read_occupancy(&mut self) -> Result<Occupancy, Self::Error> {
        self.scan()
    }
}

/// What went wrong with the expanders, and what to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error<E> {
    /// No chip addresses were given.
    NoChips,
    /// An address outside 0x20-0x27.
    AddressOutOfRange {
        /// The address.
        address: u8,
    },
    /// An address given twice.
    DuplicateAddress {
        /// The address.
        address: u8,
    },
    /// The cell map does not fit the chips.
    CellMap(CellMapError),
    /// A chip did not take the write that makes its pins inputs.
    Init {
        /// The chip's address.
        address: u8,
        /// The HAL's error.
        source: E,
    },
    /// A matrix's size does not fit one expander for rows and one for columns.
    MatrixSize {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        columns: usize,
    },
    /// The row expander of a matrix did not take the word that selects a row.
    Select {
        /// The chip's address.
        address: u8,
        /// The HAL's error.
        source: E,
    },
    /// A chip did not answer a read.
    Read {
        /// The chip's address.
        address: u8,
        /// The HAL's error.
        source: E,
    },
}

impl<E: fmt::Debug> fmt::Display for Error<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoChips => {
                f.write_str("no PCF8575 addresses configured: list the expanders' addresses")
            }
            Error::AddressOutOfRange { address } => write!(
                f,
                "0x{address:02X} is not a PCF8575 address: they run from 0x20 to 0x27, set by \
                 the A0-A2 pins"
            ),
            Error::DuplicateAddress { address } => write!(
                f,
                "PCF8575 address 0x{address:02X} is listed twice: give each chip its own A0-A2 \
                 setting and list it once"
            ),
            Error::CellMap(e) => write!(f, "PCF8575 cell map: {e}"),
            Error::MatrixSize { rows, columns } => write!(
                f,
                "a {rows}-row x {columns}-column matrix does not fit two PCF8575s: each has 16 \
                 pins, so use 1 to 16 rows and 1 to 16 columns"
            ),
            Error::Init { address, source }
            | Error::Select { address, source }
            | Error::Read { address, source } => write!(
                f,
                "the PCF8575 at 0x{address:02X} did not answer ({source:?}): check its A0-A2 \
                 pins, SDA, SCL, 3.3 V and ground; `i2cdetect -y 1` should list 0x{address:02X}"
            ),
        }
    }
}

impl<E: fmt::Debug> std::error::Error for Error<E> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sensing::SensedCell;
    use embedded_hal::i2c::ErrorKind;
    use embedded_hal::i2c::NoAcknowledgeSource;
    use embedded_hal_mock::eh1::i2c::{Mock as I2cMock, Transaction as I2cTx};

    use crate::sim::NoDelay;

    fn cells(ns: &[u16]) -> Occupancy {
        Occupancy::from_cells(ns.iter().map(|n| SensedCell::new(*n)))
    }

    fn init(addresses: &[u8]) -> Vec<I2cTx> {
        addresses
            .iter()
            .map(|a| I2cTx::write(*a, vec![0xFF, 0xFF]))
            .collect()
    }

    #[test]
    fn init_makes_every_pin_an_input_then_a_scan_reads_two_bytes_per_chip() {
        let mut tx = init(&[0x20, 0x21]);
        tx.extend([
            // Chip 0: P00 closed (port 0 bit 0 low).
            I2cTx::read(0x20, vec![0b1111_1110, 0xFF]),
            // Chip 1: P17 closed (port 1 bit 7 low) = input 16 + 15.
            I2cTx::read(0x21, vec![0xFF, 0b0111_1111]),
        ]);
        let mut i2c = I2cMock::new(&tx);
        let mut bank = Pcf8575Bank::new(i2c.clone(), ExpanderConfig::new([0x20, 0x21])).unwrap();
        assert_eq!(bank.scan().unwrap(), cells(&[0, 31]));
        i2c.done();
    }

    #[test]
    fn port_1_pins_follow_port_0_pins() {
        let mut tx = init(&[0x27]);
        tx.push(I2cTx::read(0x27, vec![0b0111_1111, 0b1111_1110]));
        tx.push(I2cTx::read(0x27, vec![0xFF, 0xFF]));
        let mut bank = Pcf8575Bank::new(I2cMock::new(&tx), ExpanderConfig::new([0x27])).unwrap();
        // P07 = input 7, P10 = input 8.
        assert_eq!(bank.read_pins().unwrap(), [0b1111_1110_0111_1111]);
        assert_eq!(bank.scan().unwrap(), Occupancy::EMPTY);
        let mut i2c = bank.release();
        i2c.done();
    }

    #[test]
    fn active_high_reads_set_bits_as_closed() {
        let mut tx = init(&[0x22]);
        tx.push(I2cTx::read(0x22, vec![0b0000_0101, 0b1000_0000]));
        let mut i2c = I2cMock::new(&tx);
        let config = ExpanderConfig {
            active: ActiveLevel::High,
            ..ExpanderConfig::new([0x22])
        };
        let mut bank = Pcf8575Bank::new(i2c.clone(), config).unwrap();
        assert_eq!(bank.scan().unwrap(), cells(&[0, 2, 15]));
        i2c.done();
    }

    #[test]
    fn a_cell_map_places_each_chip_where_the_layout_wants_it() {
        // Chip 0 (0x23) holds cells 16-31, chip 1 (0x20) holds cells 0-15; chip 1's P17 is unwired.
        let table = (0..32u16)
            .map(|i| match i {
                0..=15 => Some(SensedCell::new(16 + i)),
                31 => None,
                _ => Some(SensedCell::new(i - 16)),
            })
            .collect();
        let mut tx = init(&[0x23, 0x20]);
        tx.push(I2cTx::read(0x23, vec![0b1111_1110, 0xFF]));
        tx.push(I2cTx::read(0x20, vec![0b1111_1110, 0b0111_1111]));
        let mut i2c = I2cMock::new(&tx);
        let config = ExpanderConfig {
            cells: Some(CellMap::from_table(table).unwrap()),
            ..ExpanderConfig::new([0x23, 0x20])
        };
        let mut bank = Pcf8575Bank::new(i2c.clone(), config).unwrap();
        assert_eq!(bank.scan().unwrap(), cells(&[0, 16]));
        i2c.done();
    }

    #[test]
    fn a_chip_that_does_not_answer_is_named_in_the_error() {
        let nack = ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address);
        let mut tx = init(&[0x20, 0x21]);
        tx.push(I2cTx::read(0x20, vec![0xFF, 0xFF]));
        tx.push(I2cTx::read(0x21, vec![0xFF, 0xFF]).with_error(nack));
        let mut i2c = I2cMock::new(&tx);
        let mut bank = Pcf8575Bank::new(i2c.clone(), ExpanderConfig::new([0x20, 0x21])).unwrap();
        let err = bank.scan().unwrap_err();
        assert_eq!(
            err,
            Error::Read {
                address: 0x21,
                source: nack
            }
        );
        assert!(err.to_string().contains("i2cdetect -y 1` should list 0x21"));
        i2c.done();
    }

    #[test]
    fn a_chip_that_refuses_the_init_write_is_named() {
        let nack = ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address);
        let mut i2c = I2cMock::new(&[
            I2cTx::write(0x20, vec![0xFF, 0xFF]),
            I2cTx::write(0x26, vec![0xFF, 0xFF]).with_error(nack),
        ]);
        let err =
            Pcf8575Bank::new(i2c.clone(), ExpanderConfig::new([0x20, 0x26, 0x27])).unwrap_err();
        assert_eq!(
            err,
            Error::Init {
                address: 0x26,
                source: nack
            }
        );
        i2c.done();
    }

    #[test]
    fn bad_configurations_are_refused_before_the_bus_is_touched() {
        let mut i2c = I2cMock::new(&[]);
        let refuse = |config| Pcf8575Bank::new(i2c.clone(), config).unwrap_err();
        assert_eq!(refuse(ExpanderConfig::new([])), Error::NoChips);
        assert_eq!(
            refuse(ExpanderConfig::new([0x20, 0x38])),
            Error::AddressOutOfRange { address: 0x38 }
        );
        assert_eq!(
            refuse(ExpanderConfig::new([0x21, 0x22, 0x21])),
            Error::DuplicateAddress { address: 0x21 }
        );
        assert_eq!(
            refuse(ExpanderConfig {
                cells: Some(CellMap::identity(8).unwrap()),
                ..ExpanderConfig::new([0x20])
            }),
            Error::CellMap(CellMapError::WrongLength {
                expected: 16,
                got: 8
            })
        );
        assert!(Error::<ErrorKind>::AddressOutOfRange { address: 0x38 }
            .to_string()
            .contains("0x38"));
        i2c.done();
    }

    fn matrix_init() -> Vec<I2cTx> {
        vec![
            I2cTx::write(0x20, vec![0xFF, 0xFF]),
            I2cTx::write(0x21, vec![0xFF, 0xFF]),
        ]
    }

    #[test]
    fn a_matrix_releases_rows_and_columns_at_init() {
        let mut i2c = I2cMock::new(&matrix_init());
        Pcf8575Matrix::new(i2c.clone(), NoDelay, MatrixConfig::new(0x20, 0x21, 10, 12)).unwrap();
        i2c.done();
    }

    #[test]
    fn a_matrix_scan_selects_each_row_alone_and_reads_the_columns() {
        // 10 rows x 12 columns, the schematics' board. Closed: row 0 column 0, row 3 column 11,
        // row 9 column 8 (port 1 bit 0) and row 9 column 5. Column pins 12-15 are unwired and read
        // whatever they like: they must be ignored.
        let mut tx = matrix_init();
        for row in 0..10u16 {
            let word = !(1u16 << row);
            tx.push(I2cTx::write(0x20, word.to_le_bytes().to_vec()));
            let columns: u16 = match row {
                0 => !(1 << 0),
                3 => !(1 << 11),
                9 => !((1 << 8) | (1 << 5)),
                _ => 0xFFFF,
            } & 0x0FFF;
            tx.push(I2cTx::read(0x21, columns.to_le_bytes().to_vec()));
        }
        tx.push(I2cTx::write(0x20, vec![0xFF, 0xFF]));
        let mut i2c = I2cMock::new(&tx);
        let mut matrix =
            Pcf8575Matrix::new(i2c.clone(), NoDelay, MatrixConfig::new(0x20, 0x21, 10, 12))
                .unwrap();
        assert_eq!(
            matrix.read_occupancy().unwrap(),
            cells(&[0, 3 * 12 + 11, 9 * 12 + 5, 9 * 12 + 8])
        );
        // Row words go out low byte first: row 8 is port 1 bit 0.
        assert_eq!((!(1u16 << 8)).to_le_bytes(), [0xFF, 0b1111_1110]);
        i2c.done();
    }

    #[test]
    fn a_matrix_column_expander_that_does_not_answer_is_named() {
        let nack = ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address);
        let mut tx = matrix_init();
        tx.push(I2cTx::write(0x20, vec![0b1111_1110, 0xFF]));
        tx.push(I2cTx::read(0x21, vec![0xFF, 0xFF]).with_error(nack));
        let mut i2c = I2cMock::new(&tx);
        let mut matrix =
            Pcf8575Matrix::new(i2c.clone(), NoDelay, MatrixConfig::new(0x20, 0x21, 2, 2)).unwrap();
        let err = matrix.scan().unwrap_err();
        assert_eq!(
            err,
            Error::Read {
                address: 0x21,
                source: nack
            }
        );
        assert!(err.to_string().contains("should list 0x21"), "{err}");
        i2c.done();
    }

    #[test]
    fn a_matrix_row_expander_that_refuses_a_row_is_named() {
        let nack = ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address);
        let mut tx = matrix_init();
        tx.push(I2cTx::write(0x20, vec![0b1111_1110, 0xFF]).with_error(nack));
        let mut i2c = I2cMock::new(&tx);
        let mut matrix =
            Pcf8575Matrix::new(i2c.clone(), NoDelay, MatrixConfig::new(0x20, 0x21, 2, 2)).unwrap();
        assert_eq!(
            matrix.scan().unwrap_err(),
            Error::Select {
                address: 0x20,
                source: nack
            }
        );
        i2c.done();
    }

    #[test]
    fn a_matrix_expander_missing_at_init_is_named() {
        let nack = ErrorKind::NoAcknowledge(NoAcknowledgeSource::Address);
        let mut i2c = I2cMock::new(&[
            I2cTx::write(0x20, vec![0xFF, 0xFF]),
            I2cTx::write(0x21, vec![0xFF, 0xFF]).with_error(nack),
        ]);
        let err = Pcf8575Matrix::new(i2c.clone(), NoDelay, MatrixConfig::new(0x20, 0x21, 10, 12))
            .unwrap_err();
        assert_eq!(
            err,
            Error::Init {
                address: 0x21,
                source: nack
            }
        );
        i2c.done();
    }

    #[test]
    fn bad_matrix_wiring_is_refused_before_the_bus_is_touched() {
        let mut i2c = I2cMock::new(&[]);
        let refuse = |config| Pcf8575Matrix::new(i2c.clone(), NoDelay, config).unwrap_err();
        assert_eq!(
            refuse(MatrixConfig::new(0x20, 0x20, 10, 12)),
            Error::DuplicateAddress { address: 0x20 }
        );
        assert_eq!(
            refuse(MatrixConfig::new(0x20, 0x3C, 10, 12)),
            Error::AddressOutOfRange { address: 0x3C }
        );
        assert_eq!(
            refuse(MatrixConfig::new(0x20, 0x21, 17, 12)),
            Error::MatrixSize {
                rows: 17,
                columns: 12
            }
        );
        assert_eq!(
            refuse(MatrixConfig::new(0x20, 0x21, 0, 12)),
            Error::MatrixSize {
                rows: 0,
                columns: 12
            }
        );
        i2c.done();
    }

    #[test]
    fn a_full_matrix_scan_at_400_khz_is_well_over_100_hz() {
        // 21 transactions x 29 clocks = 609 clocks = 1.5225 ms at 400 kHz.
        assert_eq!(matrix_scan_time_ns(10, 400_000), 1_522_500);
        assert_eq!(1_000_000_000 / matrix_scan_time_ns(10, 400_000), 656);
        // With an assumed 50 us of kernel time per transaction: still about 389 Hz.
        let with_syscalls = matrix_scan_time_ns(10, 400_000) + 21 * 50_000;
        assert_eq!(1_000_000_000 / with_syscalls, 388);
        // Even at the Pi's default 100 kHz: 6.09 ms, 164 Hz.
        assert_eq!(matrix_scan_time_ns(10, 100_000), 6_090_000);
        assert!(1_000_000_000 / matrix_scan_time_ns(10, 100_000) >= 100);
        assert_eq!(matrix_scan_time_ns(10, 0), u64::MAX);
        assert_eq!(matrix_scan_time_ns(u32::MAX, 1), u64::MAX);
    }

    #[test]
    fn a_bank_scan_is_one_read_per_chip() {
        // 7 chips (a 10x10 board): 7 x 29 clocks = 203 clocks = 507.5 us at 400 kHz.
        assert_eq!(bank_scan_time_ns(7, 400_000), 507_500);
        assert_eq!(bank_scan_time_ns(7, 0), u64::MAX);
    }

    /// A bench for the settle time: an I2C bus with a row and a column expander whose column
    /// lines rise slowly. A column a piece on the previous row held low reads low until
    /// `rise_ns` after the next row write; time passes only in the delay (the bus is counted
    /// as instant, as the driver must not count on it).
    mod slow {
        use super::*;
        use std::cell::Cell;
        use std::rc::Rc;

        pub struct Bench {
            pub now: Rc<Cell<u64>>,
            pub rise_ns: u64,
            /// Closed reeds: (row, column).
            pub pieces: Vec<(usize, usize)>,
            selected: Option<usize>,
            previous: Option<usize>,
            selected_at: u64,
        }

        impl Bench {
            pub fn new(rise_ns: u64, pieces: Vec<(usize, usize)>) -> (Bench, Clock) {
                let now = Rc::new(Cell::new(0));
                let bench = Bench {
                    now: now.clone(),
                    rise_ns,
                    pieces,
                    selected: None,
                    previous: None,
                    selected_at: 0,
                };
                (bench, Clock(now))
            }

            fn low(&self, row: Option<usize>, column: usize) -> bool {
                row.is_some_and(|r| self.pieces.contains(&(r, column)))
            }
        }

        impl embedded_hal::i2c::ErrorType for Bench {
            type Error = ErrorKind;
        }

        impl I2c for Bench {
            fn transaction(
                &mut self,
                address: u8,
                operations: &mut [embedded_hal::i2c::Operation<'_>],
            ) -> Result<(), ErrorKind> {
                for op in operations {
                    match op {
                        embedded_hal::i2c::Operation::Write(bytes) if address == 0x20 => {
                            let word = u16::from_le_bytes([bytes[0], bytes[1]]);
                            self.previous = self.selected;
                            self.selected = (0..16).find(|r| word & (1 << r) == 0);
                            self.selected_at = self.now.get();
                        }
                        embedded_hal::i2c::Operation::Write(_) => {}
                        embedded_hal::i2c::Operation::Read(buf) => {
                            let settled = self.now.get() - self.selected_at >= self.rise_ns;
                            let mut word = 0xFFFFu16;
                            for column in 0..16 {
                                let held = !settled && self.low(self.previous, column);
                                if self.low(self.selected, column) || held {
                                    word &= !(1 << column);
                                }
                            }
                            buf.copy_from_slice(&word.to_le_bytes());
                        }
                    }
                }
                Ok(())
            }
        }

        /// The delay: moves the bench's clock on.
        pub struct Clock(Rc<Cell<u64>>);

        impl DelayNs for Clock {
            fn delay_ns(&mut self, ns: u32) {
                self.0.set(self.0.get() + u64::from(ns));
            }
        }
    }

    /// The rise times the module docs give, computed.
    #[test]
    fn a_long_line_rises_in_the_computed_time() {
        // 400 pF on the weak high alone at 30 µA: 30.8 µs; on 10 kΩ: 4.8 µs.
        assert_eq!(rise_time_ns(400, 0, 30), 30_800);
        assert_eq!(rise_time_ns(400, 10_000, 30), 4_816);
        assert_eq!(rise_time_ns(400, 0, 0), u64::MAX);
        const { assert!(DEFAULT_SETTLE_NS as u64 > 30_800) };
    }

    /// The finding: the matrix read the columns straight after selecting a row, so on long
    /// lines rising on the PCF8575's weak high, a piece on one row also showed on the next.
    /// Fails on the old code (no settle delay): it reads (1, 0) as well.
    #[test]
    fn a_column_released_by_the_last_row_is_read_only_after_it_has_risen() {
        let (bench, clock) = slow::Bench::new(rise_time_ns(400, 0, 30), vec![(0, 0), (2, 5)]);
        let mut matrix =
            Pcf8575Matrix::new(bench, clock, MatrixConfig::new(0x20, 0x21, 3, 12)).unwrap();
        assert_eq!(matrix.scan().unwrap(), cells(&[0, 2 * 12 + 5]));
        // Without the settle delay the same bench shows the ghost.
        let (bench, clock) = slow::Bench::new(rise_time_ns(400, 0, 30), vec![(0, 0), (2, 5)]);
        let config = MatrixConfig {
            settle_ns: 0,
            ..MatrixConfig::new(0x20, 0x21, 3, 12)
        };
        let mut matrix = Pcf8575Matrix::new(bench, clock, config).unwrap();
        assert_eq!(matrix.scan().unwrap(), cells(&[0, 12, 2 * 12 + 5]));
    }
}
