//! Simulated hardware: a reed board, an I2C bus with an OLED on it, and an MFRC522 on SPI, all
//! implementing the same traits the real drivers run on, with faults a builder meets (a stuck or
//! dead switch, a shorted row, an unplugged sensor cable, a missing chip, a missing display, an
//! unanswering reader). `umpire doctor
//! --simulated` and `umpire calibrate --simulated` run against these; so do their tests.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::convert::Infallible;
use std::fmt;
use std::rc::Rc;

use embedded_hal::digital::{self, OutputPin};
use embedded_hal::i2c::{self, I2c, Operation as I2cOperation};
use embedded_hal::spi::{self, Operation as SpiOperation, SpiDevice};

use crate::drivers::nfc::{crc_a, Register};
use crate::drivers::reed_matrix::{CellMap, OccupancyScanner};
use crate::drivers::shift_chain::ChainCheck;
use crate::sensing::{Occupancy, SensedCell, TagUid};

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

/// The tags standing on the simulated board, by cell: what every simulated reader's field
/// holds when its region covers the cell. Shared ([`Rc`]) between the readers and whoever moves
/// the pieces.
#[derive(Clone, Debug, Default)]
pub struct SimTags(Rc<RefCell<BTreeMap<u16, TagUid>>>);

impl SimTags {
    /// No tags anywhere.
    pub fn new() -> SimTags {
        SimTags::default()
    }

    /// Puts a piece tagged `uid` on `cell`, or lifts the piece there (`None`).
    pub fn set(&self, cell: SensedCell, uid: Option<TagUid>) {
        let mut tags = self.0.borrow_mut();
        match uid {
            Some(uid) => tags.insert(cell.number(), uid),
            None => tags.remove(&cell.number()),
        };
    }

    /// The tags on `cells`.
    fn on(&self, cells: &[SensedCell]) -> Vec<TagUid> {
        let tags = self.0.borrow();
        cells
            .iter()
            .filter_map(|c| tags.get(&c.number()).copied())
            .collect()
    }
}

/// A fault of a simulated reader, as a builder meets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReaderFault {
    /// Not there, or no power: VersionReg reads 0x00.
    Absent,
    /// A clone chip (VersionReg 0x88): works.
    Clone,
    /// MOSI not connected: reads answer, writes are lost, so init never takes and the antenna
    /// stays off.
    IgnoresWrites,
    /// The oscillator never starts (no crystal, RST held low through a bad joint): CommandReg's
    /// PowerDown never clears.
    StuckInReset,
}

/// Where a simulated tag is in the ISO/IEC 14443-3 state machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TagState {
    Idle,
    /// Woken, taking part in anticollision at cascade level (0-based).
    Ready(usize),
    Active,
    Halt,
}

/// A simulated MFRC522 on SPI: a register file, a FIFO, the commands the driver uses (soft
/// reset, soft power-down, Transceive) and ISO/IEC 14443-3 type A tags in its field (REQA,
/// WUPA, bitwise anticollision with CollReg, SELECT with CRC_A, HLTA). Its field is on only
/// when TxControlReg switches both drivers on and the chip is not powered down, and the chip's
/// timer only reports "no answer" once TModeReg and TReloadReg are set: so a reader nobody
/// initialised reads no tag, as on the bench.
#[derive(Clone, Debug)]
pub struct SimMfrc522 {
    registers: [u8; 64],
    fault: Option<ReaderFault>,
    fifo: Vec<u8>,
    tags: SimTags,
    region: Vec<SensedCell>,
    states: BTreeMap<TagUid, TagState>,
    field_was_on: bool,
}

/// Register reset values the simulation cares about (datasheet section 9).
const RESET_VALUES: [(Register, u8); 3] = [
    (Register::Command, 0x20),
    (Register::TxControl, 0x80),
    (Register::Control, 0x10),
];

impl SimMfrc522 {
    /// A reader whose VersionReg reads `version` (0x92 genuine v2, 0x88 clone, 0x00 absent),
    /// with no tags in reach.
    pub fn new(version: u8) -> SimMfrc522 {
        let mut sim = SimMfrc522 {
            registers: [0u8; 64],
            fault: None,
            fifo: Vec::new(),
            tags: SimTags::new(),
            region: Vec::new(),
            states: BTreeMap::new(),
            field_was_on: false,
        };
        sim.registers[usize::from(Register::Version.address())] = version;
        sim.reset_registers();
        sim
    }

    /// A genuine v2.0 reader under `region`, seeing the tags of `tags` there, with `fault`.
    pub fn under(region: &[SensedCell], tags: SimTags, fault: Option<ReaderFault>) -> SimMfrc522 {
        let version = match fault {
            Some(ReaderFault::Absent) => 0x00,
            Some(ReaderFault::Clone) => 0x88,
            _ => 0x92,
        };
        let mut sim = SimMfrc522::new(version);
        sim.fault = fault;
        sim.tags = tags;
        sim.region = region.to_vec();
        sim.reset_registers();
        sim
    }

    fn reset_registers(&mut self) {
        let version = self.reg(Register::Version);
        self.registers = [0u8; 64];
        self.set(Register::Version, version);
        for (reg, value) in RESET_VALUES {
            self.set(reg, value);
        }
        if self.fault == Some(ReaderFault::StuckInReset) {
            self.set(Register::Command, 0x30);
        }
        self.fifo.clear();
    }

    fn reg(&self, reg: Register) -> u8 {
        self.registers[usize::from(reg.address())]
    }

    fn set(&mut self, reg: Register, value: u8) {
        self.registers[usize::from(reg.address())] = value;
    }

    /// Whether the antenna field is on: drivers on, not powered down, a chip that answers.
    fn field_on(&self) -> bool {
        self.reg(Register::TxControl) & 0x03 == 0x03
            && self.reg(Register::Command) & 0x10 == 0
            && self.fault != Some(ReaderFault::Absent)
    }

    /// Tags lose power when the field goes off and wake in IDLE when it comes back.
    fn track_field(&mut self) {
        let on = self.field_on();
        if on != self.field_was_on {
            self.states.clear();
        }
        self.field_was_on = on;
    }

    /// The tags in the field, each with its state.
    fn in_field(&self) -> Vec<(TagUid, TagState)> {
        if !self.field_on() {
            return Vec::new();
        }
        self.tags
            .on(&self.region)
            .into_iter()
            .map(|uid| (uid, *self.states.get(&uid).unwrap_or(&TagState::Idle)))
            .collect()
    }

    fn write(&mut self, reg: usize, value: u8) {
        if self.fault == Some(ReaderFault::IgnoresWrites) {
            return;
        }
        match reg {
            r if r == usize::from(Register::Command.address()) => {
                if value & 0x0F == 0x0F {
                    self.reset_registers();
                } else {
                    let stuck = self.fault == Some(ReaderFault::StuckInReset);
                    self.set(
                        Register::Command,
                        (value & 0x1F) | 0x20 | if stuck { 0x10 } else { 0 },
                    );
                }
            }
            r if r == usize::from(Register::ComIrq.address()) => self.set(Register::ComIrq, 0),
            r if r == usize::from(Register::FifoData.address()) => self.fifo.push(value),
            r if r == usize::from(Register::FifoLevel.address()) => {
                if value & 0x80 != 0 {
                    self.fifo.clear();
                }
            }
            r if r == usize::from(Register::BitFraming.address()) => {
                self.set(Register::BitFraming, value & 0x7F);
                let transceiving = self.reg(Register::Command) & 0x0F == 0x0C;
                if value & 0x80 != 0 && transceiving {
                    self.transceive(value & 0x7F);
                }
            }
            r => self.registers[r & 0x3F] = value,
        }
        self.track_field();
    }

    fn read(&mut self, reg: usize) -> u8 {
        if self.fault == Some(ReaderFault::Absent) {
            return 0x00;
        }
        match reg {
            r if r == usize::from(Register::FifoData.address()) => {
                if self.fifo.is_empty() {
                    0
                } else {
                    self.fifo.remove(0)
                }
            }
            r if r == usize::from(Register::FifoLevel.address()) => {
                u8::try_from(self.fifo.len()).unwrap_or(0x7F)
            }
            r => self.registers[r & 0x3F],
        }
    }

    /// Whether the timer would run out and say so: TAuto and a reload value set.
    fn timer_running(&self) -> bool {
        self.reg(Register::TMode) & 0x80 != 0
            && (self.reg(Register::TReloadHigh) != 0 || self.reg(Register::TReloadLow) != 0)
    }

    /// Runs one Transceive of the FIFO with BitFramingReg `framing`.
    fn transceive(&mut self, framing: u8) {
        let frame = std::mem::take(&mut self.fifo);
        self.set(Register::Error, 0);
        self.set(Register::Control, 0x10);
        let answer = self.answer(&frame, framing);
        let irq = match answer {
            Some(bytes) => {
                self.fifo = bytes;
                0x64
            }
            None if self.timer_running() => 0x45,
            // An uninitialised timer never runs out: the driver gives up polling.
            None => 0x44,
        };
        self.set(Register::ComIrq, irq);
    }

    fn answer(&mut self, frame: &[u8], framing: u8) -> Option<Vec<u8>> {
        let tags = self.in_field();
        match *frame {
            [0x26] | [0x52] if framing & 0x07 == 7 => {
                let wupa = frame[0] == 0x52;
                let mut any = false;
                for (uid, state) in tags {
                    if state == TagState::Idle || (wupa && state == TagState::Halt) {
                        self.states.insert(uid, TagState::Ready(0));
                        any = true;
                    }
                }
                any.then(|| vec![0x44, 0x00])
            }
            [0x50, 0x00, ..] => {
                for (uid, state) in tags {
                    if state == TagState::Active {
                        self.states.insert(uid, TagState::Halt);
                    }
                }
                None
            }
            [sel @ (0x93 | 0x95 | 0x97), nvb, ref rest @ ..] => {
                let level = usize::from((sel - 0x93) / 2);
                let ready: Vec<TagUid> = tags
                    .iter()
                    .filter(|(_, s)| *s == TagState::Ready(level))
                    .map(|(u, _)| *u)
                    .collect();
                if nvb == 0x70 {
                    self.select(level, &ready, rest)
                } else {
                    self.anticollision(level, &ready, nvb, rest)
                }
            }
            _ => None,
        }
    }

    fn select(&mut self, level: usize, ready: &[TagUid], rest: &[u8]) -> Option<Vec<u8>> {
        let mut answer = None;
        for &uid in ready {
            let cl = cascade_level(uid, level);
            if rest.get(..5) == Some(&cl[..]) {
                let more = level + 1 < levels(uid);
                let sak = if more { 0x04 } else { 0x00 };
                self.states.insert(
                    uid,
                    if more {
                        TagState::Ready(level + 1)
                    } else {
                        TagState::Active
                    },
                );
                let [c0, c1] = crc_a(&[sak]);
                answer = Some(vec![sak, c0, c1]);
            } else {
                self.states.insert(uid, TagState::Idle);
            }
        }
        answer
    }

    fn anticollision(
        &mut self,
        level: usize,
        ready: &[TagUid],
        nvb: u8,
        rest: &[u8],
    ) -> Option<Vec<u8>> {
        let known = usize::from((nvb >> 4).saturating_sub(2)) * 8 + usize::from(nvb & 0x0F);
        let bit = |bytes: &[u8; 5], i: usize| (bytes[i / 8] >> (i % 8)) & 1;
        let sent = |i: usize| rest.get(i / 8).map(|b| (b >> (i % 8)) & 1);
        let candidates: Vec<[u8; 5]> = ready
            .iter()
            .map(|&uid| cascade_level(uid, level))
            .filter(|cl| (0..known).all(|i| sent(i) == Some(bit(cl, i))))
            .collect();
        let first = *candidates.first()?;
        let collision =
            (known..40).find(|&i| candidates.iter().any(|c| bit(c, i) != bit(&first, i)));
        let end = collision.map_or(5, |p| p / 8 + 1);
        if let Some(p) = collision {
            self.set(Register::Error, 0x08);
            self.set(Register::Coll, u8::try_from((p + 1) & 0x1F).unwrap_or(0));
        }
        Some(first.get(known / 8..end).unwrap_or_default().to_vec())
    }

    fn exchange(&mut self, tx: &[u8], rx: &mut [u8]) {
        // Byte 0 addresses a register: bit 7 set reads, clear writes; bits 6..1 the register.
        let Some(&first) = tx.first() else { return };
        let reg = usize::from((first >> 1) & 0x3F);
        if first & 0x80 != 0 {
            // Each following byte on MOSI is the next read address (FIFO reads repeat it).
            for (i, slot) in rx.iter_mut().enumerate().skip(1) {
                let at = tx.get(i - 1).map_or(reg, |b| usize::from((b >> 1) & 0x3F));
                *slot = self.read(at);
            }
        } else {
            for &value in tx.iter().skip(1) {
                self.write(reg, value);
            }
        }
    }
}

/// How many cascade levels `uid` takes: 1, 2 or 3.
fn levels(uid: TagUid) -> usize {
    match uid.as_bytes().len() {
        0..=4 => 1,
        5..=7 => 2,
        _ => 3,
    }
}

/// The 4 bytes and BCC `uid` answers at cascade `level` (the cascade tag 0x88 first on every
/// level but the last).
fn cascade_level(uid: TagUid, level: usize) -> [u8; 5] {
    let bytes = uid.as_bytes();
    let last = levels(uid) - 1;
    let start = level * 3;
    let mut out = [0u8; 5];
    if level < last {
        out[0] = 0x88;
        for (d, b) in out[1..4].iter_mut().zip(bytes.iter().skip(start)) {
            *d = *b;
        }
    } else {
        for (d, b) in out[..4].iter_mut().zip(bytes.iter().skip(start)) {
            *d = *b;
        }
    }
    out[4] = out[0] ^ out[1] ^ out[2] ^ out[3];
    out
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

/// A delay that returns at once: the simulated chips need no time.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoDelay;

impl embedded_hal::delay::DelayNs for NoDelay {
    fn delay_ns(&mut self, _: u32) {}
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

/// A simulated WS2812B chain on an SPI bus: it decodes every frame written to it as the LEDs
/// would read it, and keeps the colours they show. A frame the LEDs would misread (no reset
/// gap, a bad bit pattern, another LED count) is a bus error naming the fault.
#[derive(Clone, Debug, Default)]
pub struct SimLedChain {
    leds: usize,
    shown: Rc<RefCell<Vec<Vec<crate::drivers::leds::Rgb>>>>,
}

impl SimLedChain {
    /// A chain of `leds` LEDs.
    pub fn new(leds: usize) -> SimLedChain {
        SimLedChain {
            leds,
            shown: Rc::default(),
        }
    }

    /// Every frame the chain showed, in order, each LED 0 first.
    pub fn shown(&self) -> Vec<Vec<crate::drivers::leds::Rgb>> {
        self.shown.borrow().clone()
    }
}

impl spi::ErrorType for SimLedChain {
    type Error = spi::ErrorKind;
}

impl spi::SpiBus for SimLedChain {
    fn read(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
        Err(spi::ErrorKind::Other)
    }

    fn write(&mut self, frame: &[u8]) -> Result<(), Self::Error> {
        match crate::drivers::leds::decode::colours(frame) {
            Ok(colours) if colours.len() == self.leds => {
                self.shown.borrow_mut().push(colours);
                Ok(())
            }
            _ => Err(spi::ErrorKind::Other),
        }
    }

    fn transfer(&mut self, _: &mut [u8], _: &[u8]) -> Result<(), Self::Error> {
        Err(spi::ErrorKind::Other)
    }

    fn transfer_in_place(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
        Err(spi::ErrorKind::Other)
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drivers::shift_chain::{
        ChainFault, ChainOrder, Error, ShiftChain, ShiftChainConfig,
    };

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
                found: 14,
                needed: 15
            })
        );
    }
}
