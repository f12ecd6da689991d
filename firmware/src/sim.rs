//! Simulated hardware: a reed board, an I2C bus with an OLED on it, and an MFRC522 on SPI, all
//! implementing the same traits the real drivers run on, with faults a builder meets (a stuck or
//! dead switch, a shorted row, a missing display, an unanswering reader). `umpire doctor
//! --simulated` and `umpire calibrate --simulated` run against these; so do their tests.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::convert::Infallible;
use std::fmt;
use std::rc::Rc;

use embedded_hal::i2c::{self, I2c, Operation as I2cOperation};
use embedded_hal::spi::{self, Operation as SpiOperation, SpiDevice};

use crate::drivers::nfc::Register;
use crate::drivers::reed_matrix::OccupancyScanner;
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
/// (counted); reads return 0xFF. A device can be unplugged and plugged back while a driver holds
/// the bus ([`SimI2c::set_present`]: clones share the devices), and an SSD1306 on it can be
/// simulated down to its display memory ([`SimI2c::with_panel`], [`SimPanel`]).
#[derive(Clone, Debug, Default)]
pub struct SimI2c {
    wire: Rc<RefCell<Wire>>,
    /// Bytes written so far through this handle, all addresses.
    pub bytes_written: usize,
}

#[derive(Debug, Default)]
struct Wire {
    present: BTreeSet<u8>,
    panels: BTreeMap<u8, SimPanel>,
}

impl SimI2c {
    /// A bus with devices at `addresses`.
    pub fn with_devices(addresses: impl IntoIterator<Item = u8>) -> SimI2c {
        let wire = Wire {
            present: addresses.into_iter().collect(),
            panels: BTreeMap::new(),
        };
        SimI2c {
            wire: Rc::new(RefCell::new(wire)),
            bytes_written: 0,
        }
    }

    /// The same bus with an SSD1306 at `address` (present) whose display memory is simulated.
    #[must_use]
    pub fn with_panel(self, address: u8) -> SimI2c {
        {
            let mut wire = self.wire.borrow_mut();
            wire.present.insert(address);
            wire.panels.insert(address, SimPanel::powered_up());
        }
        self
    }

    /// Unplugs (`false`) or plugs back (`true`) the device at `address`, on every clone of this
    /// bus. A panel plugged back starts as from power-up: off, page addressing, memory garbage.
    pub fn set_present(&self, address: u8, present: bool) {
        let mut wire = self.wire.borrow_mut();
        if present {
            if wire.present.insert(address) {
                if let Some(panel) = wire.panels.get_mut(&address) {
                    *panel = SimPanel::powered_up();
                }
            }
        } else {
            wire.present.remove(&address);
        }
    }

    /// The simulated panel at `address`, as it is now.
    pub fn panel(&self, address: u8) -> Option<SimPanel> {
        self.wire.borrow().panels.get(&address).cloned()
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
        let mut wire = self.wire.borrow_mut();
        if !wire.present.contains(&address) {
            return Err(NoAcknowledge(address));
        }
        for op in operations {
            match op {
                I2cOperation::Write(bytes) => {
                    self.bytes_written += bytes.len();
                    if let Some(panel) = wire.panels.get_mut(&address) {
                        panel.write(bytes);
                    }
                }
                I2cOperation::Read(buf) => buf.fill(0xFF),
            }
        }
        Ok(())
    }
}

/// A simulated SSD1306 128x64: decodes the command and data stream the way the controller does
/// (display on/off, addressing mode, column and page windows, the write pointer wrapping in
/// horizontal mode) into its 1 KiB display memory, so a test can check what the panel shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimPanel {
    ram: Vec<u8>,
    on: bool,
    horizontal: bool,
    columns: (u8, u8),
    pages: (u8, u8),
    column: u8,
    page: u8,
    inits: u32,
}

impl SimPanel {
    /// As after power-up: display off, page addressing, memory holding garbage (0xA5).
    fn powered_up() -> SimPanel {
        SimPanel {
            ram: vec![0xA5; 1024],
            on: false,
            horizontal: false,
            columns: (0, 127),
            pages: (0, 7),
            column: 0,
            page: 0,
            inits: 0,
        }
    }

    /// Whether the panel is lit (0xAF received since power-up).
    pub fn is_on(&self) -> bool {
        self.on
    }

    /// How many times the addressing mode was set to horizontal (each init sequence does once).
    pub fn inits(&self) -> u32 {
        self.inits
    }

    /// The display memory, page by page, 128 column bytes each (the order of
    /// [`crate::screens::Frame::region_bytes`] for the whole screen).
    pub fn ram(&self) -> &[u8] {
        &self.ram
    }

    /// What a viewer sees: the memory while lit, nothing while off.
    pub fn visible(&self) -> Option<&[u8]> {
        self.on.then_some(self.ram.as_slice())
    }

    fn write(&mut self, bytes: &[u8]) {
        match bytes.split_first() {
            Some((0x00, command)) => self.command(command),
            Some((0x40, data)) => data.iter().for_each(|&b| self.data(b)),
            _ => {}
        }
    }

    fn command(&mut self, command: &[u8]) {
        let arg = |i: usize| command.get(i).copied().unwrap_or(0);
        match command.first() {
            Some(0xAE) => self.on = false,
            Some(0xAF) => self.on = true,
            Some(0x20) => {
                self.horizontal = arg(1) == 0;
                if self.horizontal {
                    self.inits += 1;
                }
            }
            Some(0x21) => {
                self.columns = (arg(1) & 0x7F, arg(2) & 0x7F);
                self.column = self.columns.0;
            }
            Some(0x22) => {
                self.pages = (arg(1) & 7, arg(2) & 7);
                self.page = self.pages.0;
            }
            _ => {}
        }
    }

    fn data(&mut self, byte: u8) {
        if let Some(slot) = self
            .ram
            .get_mut(usize::from(self.page) * 128 + usize::from(self.column))
        {
            *slot = byte;
        }
        if self.horizontal {
            if self.column >= self.columns.1 {
                self.column = self.columns.0;
                self.page = if self.page >= self.pages.1 {
                    self.pages.0
                } else {
                    self.page + 1
                };
            } else {
                self.column += 1;
            }
        } else {
            self.column = (self.column + 1) & 0x7F;
        }
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
