//! Simulated hardware: a reed board, an I2C bus with an OLED on it, and an MFRC522 on SPI, all
//! implementing the same traits the real drivers run on, with faults a builder meets (a stuck or
//! dead switch, a shorted row, an unplugged sensor cable, a missing chip, a missing display, an
//! unanswering reader). `umpire doctor
//! --simulated` and `umpire calibrate --simulated` run against these; so do their tests.

use std::collections::BTreeSet;
use std::convert::Infallible;
use std::fmt;

use embedded_hal::digital::{self, OutputPin};
use embedded_hal::i2c::{self, I2c, Operation as I2cOperation};
use embedded_hal::spi::{self, Operation as SpiOperation, SpiDevice};

use crate::drivers::nfc::Register;
use crate::drivers::reed_matrix::{CellMap, OccupancyScanner};
use crate::drivers::shift_chain::ChainCheck;
use crate::sensing::{Occupancy, SensedCell};

/// A fault of one square's switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SwitchFault {
    /// Always reads occupied (a shorted or stuck-closed reed).
    StuckClosed(SensedCell),
    /// Never reads occupied (a broken reed, a cold solder joint).
    Dead(SensedCell),
    /// Reads occupied on every few scans even when empty (a loose joint).
    Flickering(SensedCell),
    /// Every switch of matrix row `row` reads occupied (a row line shorted to the active level).
    ShortedRow(u8),
}

/// A simulated board of reed switches, `columns` x `rows`, cell = row * columns + column.
#[derive(Clone, Debug)]
pub struct SimBoard {
    columns: u8,
    rows: u8,
    pieces: Occupancy,
    faults: BTreeSet<SwitchFault>,
    scans: u64,
}

impl SimBoard {
    /// An empty, healthy board.
    pub fn new(columns: u8, rows: u8) -> SimBoard {
        SimBoard {
            columns,
            rows,
            pieces: Occupancy::EMPTY,
            faults: BTreeSet::new(),
            scans: 0,
        }
    }

    /// The same board with `fault`.
    #[must_use]
    pub fn with_fault(mut self, fault: SwitchFault) -> SimBoard {
        self.faults.insert(fault);
        self
    }

    /// Puts a piece on (`true`) or lifts it from `cell`.
    pub fn set_piece(&mut self, cell: SensedCell, present: bool) {
        self.pieces.set(cell, present);
    }

    /// Lifts every piece.
    pub fn clear(&mut self) {
        self.pieces = Occupancy::EMPTY;
    }

    /// Columns and rows.
    pub fn size(&self) -> (u8, u8) {
        (self.columns, self.rows)
    }

    /// What one scan reads: the pieces, bent by the faults.
    pub fn read(&mut self) -> Occupancy {
        self.scans += 1;
        let mut seen = self.pieces;
        for fault in &self.faults {
            match *fault {
                SwitchFault::StuckClosed(c) => seen.insert(c),
                SwitchFault::Dead(c) => seen.remove(c),
                SwitchFault::Flickering(c) => {
                    if self.scans % 4 == 0 {
                        seen.insert(c);
                    }
                }
                SwitchFault::ShortedRow(r) => {
                    for col in 0..u16::from(self.columns) {
                        seen.insert(SensedCell::new(
                            u16::from(r) * u16::from(self.columns) + col,
                        ));
                    }
                }
            }
        }
        seen
    }
}

impl OccupancyScanner for SimBoard {
    type Error = Infallible;

    fn read_occupancy(&mut self) -> Result<Occupancy, Infallible> {
        Ok(self.read())
    }
}

/// The simulated I2C bus's error: nobody acknowledged the address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoAcknowledge(pub u8);

impl fmt::Display for NoAcknowledge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no device acknowledged address {:#04x}", self.0)
    }
}

impl i2c::Error for NoAcknowledge {
    fn kind(&self) -> i2c::ErrorKind {
        i2c::ErrorKind::NoAcknowledge(i2c::NoAcknowledgeSource::Address)
    }
}

/// A simulated I2C bus: devices at `present` addresses acknowledge and accept every write
/// (counted); reads return 0xFF.
#[derive(Clone, Debug, Default)]
pub struct SimI2c {
    present: BTreeSet<u8>,
    /// Bytes written so far, all addresses.
    pub bytes_written: usize,
}

impl SimI2c {
    /// A bus with devices at `addresses`.
    pub fn with_devices(addresses: impl IntoIterator<Item = u8>) -> SimI2c {
        SimI2c {
            present: addresses.into_iter().collect(),
            bytes_written: 0,
        }
    }
}

impl i2c::ErrorType for SimI2c {
    type Error = NoAcknowledge;
}

impl I2c for SimI2c {
    fn transaction(
        &mut self,
        address: u8,
        operations: &mut [I2cOperation<'_>],
    ) -> Result<(), NoAcknowledge> {
        if !self.present.contains(&address) {
            return Err(NoAcknowledge(address));
        }
        for op in operations {
            match op {
                I2cOperation::Write(bytes) => self.bytes_written += bytes.len(),
                I2cOperation::Read(buf) => buf.fill(0xFF),
            }
        }
        Ok(())
    }
}

/// A simulated MFRC522 on SPI that answers register reads from a register file (VersionReg
/// 0x37 holds `version`; 0x00 stands for a reader that is not wired).
#[derive(Clone, Debug)]
pub struct SimMfrc522 {
    registers: [u8; 64],
}

impl SimMfrc522 {
    /// A reader whose VersionReg reads `version` (0x92 genuine v2, 0x88 clone, 0x00 absent).
    pub fn new(version: u8) -> SimMfrc522 {
        let mut registers = [0u8; 64];
        registers[usize::from(Register::Version.address())] = version;
        SimMfrc522 { registers }
    }

    fn exchange(&mut self, tx: &[u8], rx: &mut [u8]) {
        // Byte 0 addresses a register: bit 7 set reads, clear writes; bits 6..1 the register.
        let Some(&first) = tx.first() else { return };
        let reg = usize::from((first >> 1) & 0x3F);
        if first & 0x80 != 0 {
            for slot in rx.iter_mut().skip(1) {
                *slot = self.registers[reg];
            }
        } else if let Some(&value) = tx.get(1) {
            self.registers[reg] = value;
        }
    }
}

impl spi::ErrorType for SimMfrc522 {
    type Error = Infallible;
}

impl SpiDevice for SimMfrc522 {
    fn transaction(&mut self, operations: &mut [SpiOperation<'_, u8>]) -> Result<(), Infallible> {
        for op in operations {
            match op {
                SpiOperation::Transfer(rx, tx) => self.exchange(tx, rx),
                SpiOperation::TransferInPlace(buf) => {
                    let tx = buf.to_vec();
                    self.exchange(&tx, buf);
                }
                SpiOperation::Write(tx) => self.exchange(tx, &mut []),
                SpiOperation::Read(buf) => buf.fill(0),
                SpiOperation::DelayNs(_) => {}
            }
        }
        Ok(())
    }
}

/// How the simulated 74HC165 chain's cable and chips are wired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainWiring {
    /// As the schematic shows.
    Healthy,
    /// The ribbon cable unplugged: MISO floats, and every bit reads `miso` (0x00 or 0xFF).
    Unplugged {
        /// The byte a floating MISO reads.
        miso: u8,
    },
    /// The last square chip left out, the chip before it wired straight to the check chip.
    MissingChip,
}

/// A simulated chain of 74HC165s on SPI, wired as the schematic shows: the square chips (input
/// `i` reads `cells.cell(i)`, active low: a piece reads 0), then the check chip's pattern and
/// the byte past its tied DS, all bent by a [`ChainWiring`] fault. [`SimChain::latch`] sets the
/// pieces the next read sees (what pulsing the load pin does on the real chain).
#[derive(Clone, Debug)]
pub struct SimChain {
    cells: CellMap,
    check: ChainCheck,
    wiring: ChainWiring,
    occupied: Occupancy,
}

impl SimChain {
    /// A chain reading `cells` (one entry per square input), ended by `check`.
    pub fn new(cells: CellMap, check: ChainCheck, wiring: ChainWiring) -> SimChain {
        SimChain {
            cells,
            check,
            wiring,
            occupied: Occupancy::EMPTY,
        }
    }

    /// The pieces the next read shows.
    pub fn latch(&mut self, occupied: Occupancy) {
        self.occupied = occupied;
    }

    /// The bytes a read of `len` bytes clocks in.
    fn bytes(&self, len: usize) -> Vec<u8> {
        let chips = self.cells.inputs().div_ceil(8);
        let mut squares = vec![0xFFu8; chips];
        for input in 0..self.cells.inputs() {
            if self
                .cells
                .cell(input)
                .is_some_and(|c| self.occupied.contains(c))
            {
                squares[input / 8] &= !(1 << (input % 8));
            }
        }
        let mut out = match self.wiring {
            ChainWiring::Healthy => squares,
            ChainWiring::Unplugged { miso } => return vec![miso; len],
            ChainWiring::MissingChip => {
                squares.pop();
                squares
            }
        };
        out.push(self.check.pattern);
        out.resize(len, self.check.past_end);
        out
    }
}

impl spi::ErrorType for SimChain {
    type Error = Infallible;
}

impl SpiDevice for SimChain {
    fn transaction(&mut self, operations: &mut [SpiOperation<'_, u8>]) -> Result<(), Infallible> {
        for op in operations {
            if let SpiOperation::Read(buf) = op {
                let bytes = self.bytes(buf.len());
                buf.copy_from_slice(&bytes);
            }
        }
        Ok(())
    }
}

/// A simulated output pin that goes nowhere (the chain's load pin).
#[derive(Clone, Copy, Debug, Default)]
pub struct SimPin;

impl digital::ErrorType for SimPin {
    type Error = Infallible;
}

impl OutputPin for SimPin {
    fn set_low(&mut self) -> Result<(), Infallible> {
        Ok(())
    }

    fn set_high(&mut self) -> Result<(), Infallible> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drivers::shift_chain::{
        ChainFault, ChainOrder, Error, ShiftChain, ShiftChainConfig,
    };

    #[derive(Debug)]
    struct NoDelay;
    impl embedded_hal::delay::DelayNs for NoDelay {
        fn delay_ns(&mut self, _: u32) {}
    }

    fn chain(wiring: ChainWiring) -> ShiftChain<SimChain, SimPin, NoDelay> {
        let order = ChainOrder::schematic().unwrap();
        let cells = order.cell_map(15, 120).unwrap();
        let bus = SimChain::new(cells.clone(), order.check(), wiring);
        let config = ShiftChainConfig {
            cells: Some(cells),
            ..ShiftChainConfig::new(120, order.check())
        };
        ShiftChain::new(bus, SimPin, NoDelay, config).unwrap()
    }

    #[test]
    fn the_simulated_chain_reads_through_the_real_driver() {
        let mut healthy = chain(ChainWiring::Healthy);
        let pieces = Occupancy::from_cells([SensedCell::new(0), SensedCell::new(119)]);
        healthy.bus_mut().latch(pieces);
        assert_eq!(healthy.scan().unwrap(), pieces);
    }

    #[test]
    fn an_unplugged_or_short_simulated_chain_is_a_named_fault() {
        for miso in [0x00, 0xFF] {
            let err = chain(ChainWiring::Unplugged { miso }).scan().unwrap_err();
            assert_eq!(err, Error::Chain(ChainFault::NoAnswer { level: miso }));
        }
        let err = chain(ChainWiring::MissingChip).scan().unwrap_err();
        assert_eq!(
            err,
            Error::Chain(ChainFault::WrongLength {
                expected: 15,
                found: 14
            })
        );
    }
}
