//! The MFRC522 reader IC over SPI: registers, the init sequence, and ISO/IEC 14443-3 type A
//! requests, anticollision and select, with a short no-tag timeout.
//!
//! See the [module docs](super) for why this is written here rather than taken from the
//! `mfrc522` crate, and for the timing figures.

use core::fmt;

use embedded_hal::delay::DelayNs;
use embedded_hal::spi::SpiDevice;

use super::crc::{crc_a, crc_a_ok};
use crate::sensing::{TagFailure, TagUid};

/// The MFRC522 registers this driver uses (datasheet MFRC522 rev. 3.9, section 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Register {
    /// Starts and stops commands; bit 4 (PowerDown) is set until a soft reset has finished.
    Command = 0x01,
    /// Interrupt request bits: TxIRq, RxIRq, IdleIRq, HiAlertIRq, LoAlertIRq, ErrIRq, TimerIRq.
    ComIrq = 0x04,
    /// Error bits of the last command: WrErr, TempErr, BufferOvfl, CollErr, CRCErr, ParityErr,
    /// ProtocolErr.
    Error = 0x06,
    /// The 64-byte FIFO buffer's input and output.
    FifoData = 0x09,
    /// Bytes in the FIFO (bits 6..0); writing bit 7 (FlushBuffer) empties it.
    FifoLevel = 0x0A,
    /// Bits 2..0 (RxLastBits): valid bits in the last received byte, 0 meaning all eight.
    Control = 0x0C,
    /// Bit 7 (StartSend) starts a Transceive; bits 2..0 (TxLastBits) make a short frame.
    BitFraming = 0x0D,
    /// General transmit and receive settings, among them the CRC coprocessor's preset.
    Mode = 0x11,
    /// Antenna driver pins TX1 and TX2 (bits 0 and 1).
    TxControl = 0x14,
    /// Bit 6 (Force100ASK): the 100 % ASK modulation ISO/IEC 14443 type A needs.
    TxAsk = 0x15,
    /// Timer mode (bit 7, TAuto) and the high 4 bits of the timer prescaler.
    TMode = 0x2A,
    /// The low 8 bits of the timer prescaler.
    TPrescaler = 0x2B,
    /// The timer reload value, high byte.
    TReloadHigh = 0x2C,
    /// The timer reload value, low byte.
    TReloadLow = 0x2D,
    /// Bit-collision position: bits 4..0 CollPos (1-32, 0 meaning 32), bit 5 CollPosNotValid.
    Coll = 0x0E,
    /// The chip's type and version: 0x91 (v1.0), 0x92 (v2.0), 0x88 on common clones.
    Version = 0x37,
}

impl Register {
    /// The register's 6-bit address.
    pub const fn address(self) -> u8 {
        self as u8
    }

    /// The SPI address byte that reads the register: `1aaaaaa0` (datasheet 8.1.2.3).
    pub const fn read_byte(self) -> u8 {
        ((self.address() << 1) & 0x7E) | 0x80
    }

    /// The SPI address byte that writes the register: `0aaaaaa0`.
    pub const fn write_byte(self) -> u8 {
        (self.address() << 1) & 0x7E
    }
}

/// MFRC522 commands written to [`Register::Command`].
mod command {
    /// Stop whatever runs.
    pub const IDLE: u8 = 0x00;
    /// Send the FIFO on air, then receive into the FIFO.
    pub const TRANSCEIVE: u8 = 0x0C;
    /// Reset the chip's registers.
    pub const SOFT_RESET: u8 = 0x0F;
}

/// Register bits.
mod bits {
    /// CommandReg: the soft reset is still running (the oscillator not yet up).
    pub const POWER_DOWN: u8 = 0x10;
    /// ComIrqReg: a frame was received.
    pub const RX_IRQ: u8 = 0x20;
    /// ComIrqReg: the command ended by itself.
    pub const IDLE_IRQ: u8 = 0x10;
    /// ComIrqReg: the timer ran out (no answer).
    pub const TIMER_IRQ: u8 = 0x01;
    /// ComIrqReg: written to clear all seven request bits.
    pub const CLEAR_ALL_IRQS: u8 = 0x7F;
    /// ErrorReg: the chip overheated and switched the antenna drivers off.
    pub const TEMP_ERR: u8 = 0x40;
    /// ErrorReg: a bit collision (more than one tag answered differently).
    pub const COLL_ERR: u8 = 0x08;
    /// ErrorReg: FIFO overflow, CRC, parity or protocol error: a garbled frame.
    pub const FRAME_ERRS: u8 = 0x17;
    /// FIFOLevelReg: empty the FIFO.
    pub const FLUSH_BUFFER: u8 = 0x80;
    /// FIFOLevelReg: the byte count.
    pub const FIFO_COUNT: u8 = 0x7F;
    /// ControlReg: valid bits of the last received byte (0 = all).
    pub const RX_LAST_BITS: u8 = 0x07;
    /// BitFramingReg: start the transmission of a Transceive.
    pub const START_SEND: u8 = 0x80;
    /// TxControlReg: both antenna drivers (TX1, TX2) on.
    pub const ANTENNA_ON: u8 = 0x03;
    /// CollReg: CollPos, the first collided bit (1-32, 0 meaning 32).
    pub const COLL_POS: u8 = 0x1F;
    /// CollReg: no collision position could be given.
    pub const COLL_POS_NOT_VALID: u8 = 0x20;
}

/// Values written by [`Mfrc522::init`], with the timeout they make.
pub mod init_values {
    /// TModeReg: TAuto (the timer starts at the end of every transmission and stops when an
    /// answer starts), prescaler high nibble 0.
    pub const T_MODE: u8 = 0x80;
    /// TPrescalerReg: 169, so the timer ticks at 13.56 MHz / (2 x 169 + 1) = 40 kHz (25 us).
    pub const T_PRESCALER: u8 = 0xA9;
    /// TReloadReg high byte.
    pub const T_RELOAD_HIGH: u8 = 0x00;
    /// TReloadReg low byte: 79, so the timer runs out after 80 ticks = 2.0 ms.
    pub const T_RELOAD_LOW: u8 = 0x4F;
    /// TxASKReg: Force100ASK.
    pub const TX_ASK: u8 = 0x40;
    /// ModeReg: TxWaitRF, MFIN active high, CRC coprocessor preset 0x6363 (the CRC_A preset).
    pub const MODE: u8 = 0x3D;
    /// The no-answer timeout these values give, in microseconds:
    /// (2 x 169 + 1) x (79 + 1) / 13.56 MHz = 2000 us.
    pub const TIMEOUT_US: u32 = 2_000;
    /// TModeReg, TPrescalerReg, TReloadReg high and low as init leaves them, read back to check
    /// the settings took.
    pub const TIMER: [u8; 4] = [T_MODE, T_PRESCALER, T_RELOAD_HIGH, T_RELOAD_LOW];
}

/// Polls of ComIrqReg before the driver gives up on the chip ever reporting an answer or a
/// timeout. With [`POLL_INTERVAL_US`] between polls that is at least 5 ms, two and a half times
/// the chip's own 2 ms timeout, whatever the SPI clock.
pub const MAX_POLLS: u32 = 100;

// The poll bound outlasts the chip's own no-answer timeout two and a half times.
const _: () = assert!(MAX_POLLS * POLL_INTERVAL_US >= init_values::TIMEOUT_US * 5 / 2);

/// The pause between two polls of ComIrqReg.
pub const POLL_INTERVAL_US: u32 = 50;

/// Polls of CommandReg, 1 ms apart, waiting for PowerDown to clear after a soft reset or a wake
/// from soft power-down (at most 50 ms).
pub const MAX_RESET_POLLS: u32 = 50;

/// The fixed wait after a hard reset (NRSTPD released, or power applied) before the first SPI
/// access. The datasheet (8.8.3) gives the start-up as the crystal's own start-up time plus
/// t_d = 1024 / 27.12 MHz = 37.74 us and leaves the crystal's time to the crystal; 27.12 MHz
/// crystals start in a few milliseconds, so 50 ms is a wide margin (computed, not measured).
/// After it [`Mfrc522::init`] still polls PowerDown, so a slow crystal is waited for, bounded.
pub const HARD_RESET_WAIT_MS: u32 = 50;

/// The unmodulated field a tag gets before the first request after the field comes on: ISO/IEC
/// 14443-3 lets a tag take up to 5 ms, the reader must wait at least 5.1 ms
/// (`docs/hardware.md` §5).
pub const FIELD_ON_GUARD_US: u32 = 5_100;

/// ISO/IEC 14443-3 type A commands and their frame parameters.
mod iso14443a {
    /// REQA, sent as a 7-bit short frame: wakes tags in the IDLE state.
    pub const REQA: u8 = 0x26;
    /// WUPA, sent as a 7-bit short frame: wakes tags in IDLE and HALT.
    pub const WUPA: u8 = 0x52;
    /// BitFramingReg TxLastBits for a short frame.
    pub const SHORT_FRAME_BITS: u8 = 0x07;
    /// SEL codes of cascade levels 1, 2 and 3.
    pub const SEL: [u8; 3] = [0x93, 0x95, 0x97];
    /// NVB for ANTICOLLISION: 2 bytes sent, no UID bits known.
    pub const NVB_ANTICOLLISION: u8 = 0x20;
    /// NVB for SELECT: 7 bytes sent (SEL, NVB, 4 UID bytes, BCC), CRC_A follows.
    pub const NVB_SELECT: u8 = 0x70;
    /// The cascade tag: the first UID byte of a level that is not the last.
    pub const CASCADE_TAG: u8 = 0x88;
    /// SAK bit 2: the UID is not complete, go on to the next cascade level.
    pub const SAK_CASCADE: u8 = 0x04;
    /// HLTA with its CRC_A (50 00 57 CD).
    pub const HLTA: [u8; 4] = [0x50, 0x00, 0x57, 0xCD];
}

/// The most tags [`Mfrc522Ready::inventory`] lists in one field: far more than the pieces that
/// stand over one reader's antenna.
pub const MAX_TAGS_IN_FIELD: usize = 12;

/// How long the field stays off before an inventory so every tag in it loses power and starts
/// again in IDLE, where REQA wakes it (5 ms, the field-reset time NXP's reader library uses).
pub const FIELD_RESET_OFF_US: u32 = 5_000;

/// The largest frame the driver sends or expects back, in bytes.
const MAX_FRAME: usize = 16;

/// A bit-oriented answer: up to 5 bytes, the valid bits of the last, and CollReg when bits
/// collided.
struct Received {
    bytes: [u8; 5],
    len: usize,
    last_bits: u8,
    collision: Option<u8>,
}

/// The chip's answer in VersionReg.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChipVersion {
    /// 0x91: an NXP MFRC522 version 1.0.
    V1_0,
    /// 0x92: an NXP MFRC522 version 2.0.
    V2_0,
    /// 0x88: a common clone (FM17522 and the like); works, often with a shorter range.
    Clone,
    /// Any other value but 0x00 and 0xFF: something answers, but not a known MFRC522.
    Unknown(u8),
}

impl ChipVersion {
    /// The chip version VersionReg `value` stands for, or `None` when it is 0x00 or 0xFF: what
    /// a bus with nothing answering reads.
    pub const fn from_register(value: u8) -> Option<ChipVersion> {
        match value {
            0x00 | 0xFF => None,
            0x91 => Some(ChipVersion::V1_0),
            0x92 => Some(ChipVersion::V2_0),
            0x88 => Some(ChipVersion::Clone),
            other => Some(ChipVersion::Unknown(other)),
        }
    }
}

impl fmt::Display for ChipVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChipVersion::V1_0 => f.write_str("MFRC522 v1.0 (0x91)"),
            ChipVersion::V2_0 => f.write_str("MFRC522 v2.0 (0x92)"),
            ChipVersion::Clone => f.write_str("MFRC522 clone (0x88)"),
            ChipVersion::Unknown(v) => write!(f, "unknown reader chip (version 0x{v:02X})"),
        }
    }
}

/// The 2-byte answer of a tag to REQA or WUPA (ATQA), as received (low byte first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Atqa(pub [u8; 2]);

/// A tag selected through every cascade level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Selected {
    /// Its UID: 4, 7 or 10 bytes.
    pub uid: TagUid,
    /// Its last SAK (select acknowledge): 0x00 for NTAG21x, 0x08 for MIFARE Classic 1K.
    pub sak: u8,
}

/// How a tag's answer was garbled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Garble {
    /// The anticollision answer's check byte (BCC, the XOR of the four UID bytes) was wrong.
    BadBcc,
    /// The select acknowledge's CRC_A was wrong.
    BadCrc,
    /// The chip flagged a parity, protocol, CRC or FIFO overflow error (ErrorReg value).
    Framing {
        /// ErrorReg as read.
        error_reg: u8,
    },
    /// The answer had the wrong length.
    WrongLength {
        /// Bytes expected.
        expected: u8,
        /// Bytes in the FIFO.
        got: u8,
        /// Valid bits of the last byte (0 = all eight).
        last_bits: u8,
    },
    /// The cascade tag (0x88) and the SAK's "UID not complete" bit disagree, or a tag asked
    /// for a fourth cascade level.
    BadCascade,
}

impl fmt::Display for Garble {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Garble::BadBcc => f.write_str("the UID check byte (BCC) was wrong"),
            Garble::BadCrc => f.write_str("the select answer's CRC was wrong"),
            Garble::Framing { error_reg } => {
                write!(
                    f,
                    "the reader saw a framing error (ErrorReg 0x{error_reg:02X})"
                )
            }
            Garble::WrongLength {
                expected,
                got,
                last_bits,
            } => write!(
                f,
                "the answer had {got} bytes ({last_bits} bits in the last), not {expected}"
            ),
            Garble::BadCascade => f.write_str("the UID's cascade levels did not add up"),
        }
    }
}

/// What went wrong talking to the MFRC522 or to a tag through it.
///
/// [`Error::tag_failure`] says which [`TagFailure`] the sensing model is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error<E> {
    /// The SPI bus itself failed.
    Spi(E),
    /// VersionReg read 0x00 or 0xFF: nothing drives MISO.
    NotAnswering {
        /// The value read.
        version: u8,
    },
    /// The soft reset did not finish within [`MAX_RESET_POLLS`] ms.
    ResetTimeout,
    /// After init the timer or antenna registers do not read back as written: the chip did
    /// not take the settings (its state as read).
    NotInitialised(ChipState),
    /// Neither an answer nor the chip's own timeout was reported within [`MAX_POLLS`] polls.
    ChipStuck,
    /// The chip overheated and switched its antenna drivers off (ErrorReg TempErr).
    Overheated,
    /// No tag answered within the timeout.
    NoTag,
    /// More than one tag answered at once.
    Collision,
    /// A tag answered, but garbled.
    Garbled(Garble),
}

impl<E> Error<E> {
    /// What the sensing model is told when a read fails this way.
    pub const fn tag_failure(&self) -> TagFailure {
        match self {
            Error::NoTag => TagFailure::NoTag,
            Error::Collision => TagFailure::Collision,
            Error::Garbled(_) => TagFailure::Garbled,
            Error::Spi(_)
            | Error::NotAnswering { .. }
            | Error::ResetTimeout
            | Error::NotInitialised(_)
            | Error::ChipStuck
            | Error::Overheated => TagFailure::ReaderFault,
        }
    }

    /// Whether the reader, not the tag, is at fault (retrying will not help).
    pub const fn is_reader_fault(&self) -> bool {
        matches!(self.tag_failure(), TagFailure::ReaderFault)
    }
}

impl<E> From<Error<E>> for TagFailure {
    fn from(e: Error<E>) -> TagFailure {
        e.tag_failure()
    }
}

impl<E: embedded_hal::spi::Error> fmt::Display for Error<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Spi(e) => write!(
                f,
                "the SPI bus to the MFRC522 failed ({}): check that SPI is enabled and the \
                 SCK, MOSI, MISO and SDA (chip select) wires",
                e.kind()
            ),
            Error::NotAnswering { version } => write!(
                f,
                "the MFRC522 does not answer (version register reads 0x{version:02X}): check \
                 its 3.3 V power and ground, and the MISO and SDA (chip select) wires"
            ),
            Error::ResetTimeout => f.write_str(
                "the MFRC522 did not come out of reset: check its 3.3 V power, its RST pin \
                 (held high) and its crystal",
            ),
            Error::NotInitialised(state) => write!(
                f,
                "the MFRC522 did not take its settings (antenna {}, timer {}): it reads but \
                 ignores writes; check the MOSI wire (GPIO 10) and that nothing else drives it",
                if state.antenna_on { "on" } else { "off" },
                if state.timer_set { "set" } else { "not set" }
            ),
            Error::ChipStuck => f.write_str(
                "the MFRC522 never reported an answer or a timeout: check its power, and that \
                 nothing else shares its chip select",
            ),
            Error::Overheated => f.write_str(
                "the MFRC522 overheated and switched its antenna off: check the antenna and \
                 its wiring for a short, and let the reader cool",
            ),
            Error::NoTag => f.write_str(
                "no tag answered: check that the piece has a tag, stands centred on its \
                 square, and that the antenna is connected",
            ),
            Error::Collision => f.write_str(
                "more than one tag answered: keep one piece per square, and check that \
                 neighbouring antennas are not switched on together",
            ),
            Error::Garbled(g) => write!(
                f,
                "a tag answered garbled ({g}): lift the piece and put it back; if it keeps \
                 happening, check the antenna tuning and cable"
            ),
        }
    }
}

impl<E: embedded_hal::spi::Error> std::error::Error for Error<E> {}

/// An MFRC522 on an SPI bus that has **not** been initialised: it can read and write registers
/// and say which chip it is, but it cannot read tags. [`Mfrc522::init`] consumes it and gives
/// back an [`Mfrc522Ready`], the only type that reads tags, so a reader whose antenna was
/// never switched on and whose timer never started cannot be handed to the service by mistake.
///
/// Register reads use [`SpiDevice::transfer`] with separate write and read buffers, never
/// `transfer_in_place`: rppal's embedded-hal `SpiDevice` turns an in-place transfer into a
/// read-only segment and clocks out zeros instead of the address byte (`docs/hardware.md` §4),
/// and a `Write` + `Read` pair leaves the byte sent during the read to the HAL. A transfer of
/// `[address, 0x00]` fixes every byte on MOSI, as the datasheet asks (address, then 0x00 to end
/// the read).
///
/// ```
/// use embedded_hal_mock::eh1::delay::NoopDelay;
/// use embedded_hal_mock::eh1::spi::{Mock, Transaction};
/// use firmware::drivers::nfc::{ChipVersion, Mfrc522};
///
/// // VersionReg (0x37) is read as the two bytes EE 00; the chip answers in the second.
/// let mut spi = Mock::new(&[
///     Transaction::transaction_start(),
///     Transaction::transfer(vec![0xEE, 0x00], vec![0x00, 0x92]),
///     Transaction::transaction_end(),
/// ]);
/// let mut reader = Mfrc522::new(spi.clone(), NoopDelay::new());
/// assert_eq!(reader.version(), Ok(ChipVersion::V2_0));
/// spi.done();
/// ```
///
/// Reading a tag needs the initialised type; an uninitialised reader does not compile:
///
/// ```compile_fail
/// use embedded_hal_mock::eh1::delay::NoopDelay;
/// use embedded_hal_mock::eh1::spi::Mock;
/// use firmware::drivers::nfc::Mfrc522;
///
/// let mut reader = Mfrc522::new(Mock::<u8>::new(&[]), NoopDelay::new());
/// let _ = reader.read_uid(); // only Mfrc522Ready reads UIDs
/// ```
#[derive(Debug)]
pub struct Mfrc522<SPI, D> {
    spi: SPI,
    delay: D,
}

/// What the registers of a chip say about its state, read without changing anything: for
/// `doctor`, which must tell a reader that was never initialised from one that was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChipState {
    /// CommandReg bit 4: the chip is in soft power-down (or its oscillator not yet up).
    pub powered_down: bool,
    /// TxControlReg bits 0 and 1 both set: the antenna drivers are on.
    pub antenna_on: bool,
    /// TModeReg, TPrescalerReg and TReloadReg hold the values [`Mfrc522::init`] writes.
    pub timer_set: bool,
}

impl ChipState {
    /// Whether the chip is set up as [`Mfrc522::init`] leaves it: awake, antenna on, timer set.
    pub const fn is_initialised(self) -> bool {
        !self.powered_down && self.antenna_on && self.timer_set
    }
}

impl<SPI, D> Mfrc522<SPI, D>
where
    SPI: SpiDevice,
    D: DelayNs,
{
    /// A driver for the chip on `spi`; it does nothing on the bus until called. After a hard
    /// reset (the NRSTPD line just released, or power just applied) wait
    /// [`HARD_RESET_WAIT_MS`] before the first access ([`Mfrc522::after_hard_reset`] does).
    pub fn new(spi: SPI, delay: D) -> Self {
        Mfrc522 { spi, delay }
    }

    /// A driver for a chip whose reset line was just released or whose power was just switched
    /// on: waits [`HARD_RESET_WAIT_MS`] for its oscillator before anything touches the bus.
    pub fn after_hard_reset(spi: SPI, mut delay: D) -> Self {
        delay.delay_ms(HARD_RESET_WAIT_MS);
        Mfrc522 { spi, delay }
    }

    /// Gives back the SPI device and the delay.
    pub fn release(self) -> (SPI, D) {
        (self.spi, self.delay)
    }

    /// Reads one register: a transfer of `[read address, 0x00]`, the value in the second byte.
    ///
    /// # Errors
    /// [`Error::Spi`] when the bus fails.
    pub fn read_register(&mut self, reg: Register) -> Result<u8, Error<SPI::Error>> {
        let mut answer = [0u8; 2];
        self.spi
            .transfer(&mut answer, &[reg.read_byte(), 0x00])
            .map_err(Error::Spi)?;
        Ok(answer[1])
    }

    /// Writes one register: `[write address, value]`.
    ///
    /// # Errors
    /// [`Error::Spi`] when the bus fails.
    pub fn write_register(&mut self, reg: Register, value: u8) -> Result<(), Error<SPI::Error>> {
        self.spi
            .write(&[reg.write_byte(), value])
            .map_err(Error::Spi)
    }

    /// Reads VersionReg (0x37).
    ///
    /// # Errors
    /// [`Error::NotAnswering`] when it reads 0x00 or 0xFF (no chip, no power, or MISO
    /// unconnected); [`Error::Spi`] when the bus fails.
    pub fn version(&mut self) -> Result<ChipVersion, Error<SPI::Error>> {
        let version = self.read_register(Register::Version)?;
        ChipVersion::from_register(version).ok_or(Error::NotAnswering { version })
    }

    /// Puts the chip in soft power-down (CommandReg PowerDown) before it is initialised: the
    /// bank does this to every module first, so that only the one being initialised draws its
    /// running current ([`Mfrc522::init`] wakes it with its soft reset).
    ///
    /// # Errors
    /// [`Error::Spi`] when the bus fails.
    pub fn power_down(&mut self) -> Result<(), Error<SPI::Error>> {
        self.write_register(Register::Command, command::IDLE | bits::POWER_DOWN)
    }

    /// Reads CommandReg, TxControlReg and the timer registers, changing nothing.
    ///
    /// # Errors
    /// [`Error::Spi`] when the bus fails.
    pub fn state(&mut self) -> Result<ChipState, Error<SPI::Error>> {
        let command = self.read_register(Register::Command)?;
        let tx_control = self.read_register(Register::TxControl)?;
        let timer = [
            self.read_register(Register::TMode)?,
            self.read_register(Register::TPrescaler)?,
            self.read_register(Register::TReloadHigh)?,
            self.read_register(Register::TReloadLow)?,
        ];
        Ok(ChipState {
            powered_down: command & bits::POWER_DOWN != 0,
            antenna_on: tx_control & bits::ANTENNA_ON == bits::ANTENNA_ON,
            timer_set: timer == init_values::TIMER,
        })
    }

    /// Waits for CommandReg's PowerDown bit to clear: the oscillator is up and a soft reset (or
    /// a wake from soft power-down) has finished. Polls 1 ms apart, at most
    /// [`MAX_RESET_POLLS`] times.
    fn wait_powered_up(&mut self) -> Result<(), Error<SPI::Error>> {
        for _ in 0..MAX_RESET_POLLS {
            self.delay.delay_ms(1);
            if self.read_register(Register::Command)? & bits::POWER_DOWN == 0 {
                return Ok(());
            }
        }
        Err(Error::ResetTimeout)
    }

    /// Checks the chip answers, soft-resets it and sets it up for ISO/IEC 14443A at 106 kbit/s
    /// with a 2 ms no-answer timeout, switches the antenna on, and reads the settings back.
    ///
    /// The sequence: read VersionReg; CommandReg = SoftReset; poll CommandReg (1 ms apart, at
    /// most [`MAX_RESET_POLLS`]) until PowerDown clears, which is the datasheet's signal that
    /// the oscillator runs and the reset is over (8.8.3: 1024 clocks, 37.74 us, after the
    /// crystal has started); TModeReg = 0x80, TPrescalerReg = 0xA9, TReloadReg = 0x004F (2 ms,
    /// see [`init_values`]); TxASKReg = 0x40 (100 % ASK); ModeReg = 0x3D (CRC preset 0x6363);
    /// set TX1 and TX2 in TxControlReg if they are not both on; then read the timer and
    /// TxControlReg back ([`Mfrc522::state`]).
    ///
    /// # Errors
    /// [`Error::NotAnswering`], [`Error::ResetTimeout`], [`Error::NotInitialised`] when the
    /// settings did not stick (MOSI not connected, a chip that ignores writes), [`Error::Spi`].
    pub fn init(mut self) -> Result<Mfrc522Ready<SPI, D>, Error<SPI::Error>> {
        // A chip that does not answer (or an empty socket) is refused before any write.
        self.version()?;
        self.write_register(Register::Command, command::SOFT_RESET)?;
        self.wait_powered_up()?;
        self.write_register(Register::TMode, init_values::T_MODE)?;
        self.write_register(Register::TPrescaler, init_values::T_PRESCALER)?;
        self.write_register(Register::TReloadHigh, init_values::T_RELOAD_HIGH)?;
        self.write_register(Register::TReloadLow, init_values::T_RELOAD_LOW)?;
        self.write_register(Register::TxAsk, init_values::TX_ASK)?;
        self.write_register(Register::Mode, init_values::MODE)?;
        let tx_control = self.read_register(Register::TxControl)?;
        if tx_control & bits::ANTENNA_ON != bits::ANTENNA_ON {
            self.write_register(Register::TxControl, tx_control | bits::ANTENNA_ON)?;
        }
        let state = self.state()?;
        if !state.is_initialised() {
            return Err(Error::NotInitialised(state));
        }
        Ok(Mfrc522Ready { chip: self })
    }
}

/// An MFRC522 that [`Mfrc522::init`] has reset, set up and verified: antenna on, 2 ms timer
/// running. Only this type reads tags.
#[derive(Debug)]
pub struct Mfrc522Ready<SPI, D> {
    chip: Mfrc522<SPI, D>,
}

impl<SPI, D> Mfrc522Ready<SPI, D>
where
    SPI: SpiDevice,
    D: DelayNs,
{
    /// Treats `chip` as initialised without touching it: for tests of the read path only.
    #[cfg(test)]
    pub(crate) fn assume_initialised(chip: Mfrc522<SPI, D>) -> Self {
        Mfrc522Ready { chip }
    }

    /// Gives back the SPI device and the delay.
    pub fn release(self) -> (SPI, D) {
        self.chip.release()
    }

    /// Reads one register (see [`Mfrc522::read_register`]).
    ///
    /// # Errors
    /// [`Error::Spi`] when the bus fails.
    pub fn read_register(&mut self, reg: Register) -> Result<u8, Error<SPI::Error>> {
        self.chip.read_register(reg)
    }

    /// Writes one register (see [`Mfrc522::write_register`]).
    ///
    /// # Errors
    /// [`Error::Spi`] when the bus fails.
    pub fn write_register(&mut self, reg: Register, value: u8) -> Result<(), Error<SPI::Error>> {
        self.chip.write_register(reg, value)
    }

    /// Reads the chip's state (see [`Mfrc522::state`]).
    ///
    /// # Errors
    /// [`Error::Spi`] when the bus fails.
    pub fn state(&mut self) -> Result<ChipState, Error<SPI::Error>> {
        self.chip.state()
    }

    /// Puts the chip in soft power-down (CommandReg PowerDown): the antenna field goes off and
    /// the chip draws at most 10 uA (datasheet Table 1), keeping its registers. Used to keep
    /// every reader of a bank but one quiet.
    ///
    /// # Errors
    /// [`Error::Spi`] when the bus fails.
    pub fn power_down(&mut self) -> Result<(), Error<SPI::Error>> {
        self.write_register(Register::Command, command::IDLE | bits::POWER_DOWN)
    }

    /// Wakes the chip from soft power-down: clears PowerDown, polls until the chip reports it
    /// is up (1024 clocks, datasheet 8.8.1), then waits [`FIELD_ON_GUARD_US`], the unmodulated
    /// field a tag needs before it must answer (ISO/IEC 14443-3).
    ///
    /// # Errors
    /// [`Error::ResetTimeout`] when PowerDown never clears, [`Error::Spi`].
    pub fn wake(&mut self) -> Result<(), Error<SPI::Error>> {
        self.write_register(Register::Command, command::IDLE)?;
        self.chip.wait_powered_up()?;
        self.chip.delay.delay_us(FIELD_ON_GUARD_US);
        Ok(())
    }

    /// Sends REQA (0x26, 7 bits), which wakes tags in the IDLE state, and returns the ATQA.
    ///
    /// # Errors
    /// [`Error::NoTag`] when nothing answers within the timeout, [`Error::Collision`],
    /// [`Error::Garbled`], or a reader fault.
    pub fn reqa(&mut self) -> Result<Atqa, Error<SPI::Error>> {
        self.request(iso14443a::REQA)
    }

    /// Sends WUPA (0x52, 7 bits), which wakes tags in IDLE *and* HALT, and returns the ATQA.
    ///
    /// # Errors
    /// As [`Mfrc522Ready::reqa`].
    pub fn wupa(&mut self) -> Result<Atqa, Error<SPI::Error>> {
        self.request(iso14443a::WUPA)
    }

    fn request(&mut self, code: u8) -> Result<Atqa, Error<SPI::Error>> {
        let mut atqa = [0u8; 2];
        self.transceive(&[code], iso14443a::SHORT_FRAME_BITS, &mut atqa)?;
        Ok(Atqa(atqa))
    }

    /// Runs anticollision and select through as many cascade levels as the tag needs (one for
    /// a 4-byte UID, two for the 7-byte UID of an NTAG21x, three for 10 bytes), after a REQA or
    /// WUPA answered.
    ///
    /// Per level: ANTICOLLISION `[SEL, 0x20]` brings back 4 UID bytes and their BCC (checked);
    /// SELECT `[SEL, 0x70, 4 bytes, BCC, CRC_A]` brings back the SAK and its CRC_A (checked). A
    /// SAK with bit 2 set means the UID goes on; then the level's first byte must be the cascade
    /// tag 0x88 and only the other three belong to the UID.
    ///
    /// # Errors
    /// [`Error::Collision`] when two tags answer; [`Error::Garbled`] on a bad BCC, CRC or
    /// cascade; [`Error::NoTag`] when the tag went away; a reader fault.
    pub fn select(&mut self) -> Result<Selected, Error<SPI::Error>> {
        self.select_cascade(|reader, sel| {
            let mut answer = [0u8; 5];
            reader.transceive(&[sel, iso14443a::NVB_ANTICOLLISION], 0, &mut answer)?;
            let [u0, u1, u2, u3, bcc] = answer;
            if u0 ^ u1 ^ u2 ^ u3 != bcc {
                return Err(Error::Garbled(Garble::BadBcc));
            }
            Ok(answer)
        })
    }

    /// Through the cascade levels: `level` brings back a level's 4 UID bytes and BCC
    /// (ANTICOLLISION, plain or resolving), then SELECT brings back the SAK and its CRC_A
    /// (checked), which says whether the UID goes on.
    fn select_cascade(
        &mut self,
        mut level: impl FnMut(&mut Self, u8) -> Result<[u8; 5], Error<SPI::Error>>,
    ) -> Result<Selected, Error<SPI::Error>> {
        let mut uid = [0u8; TagUid::MAX_LEN];
        let mut len = 0;
        for sel in iso14443a::SEL {
            let [u0, u1, u2, u3, bcc] = level(self, sel)?;
            let [c0, c1] = crc_a(&[sel, iso14443a::NVB_SELECT, u0, u1, u2, u3, bcc]);
            let select = [sel, iso14443a::NVB_SELECT, u0, u1, u2, u3, bcc, c0, c1];
            let mut sak = [0u8; 3];
            self.transceive(&select, 0, &mut sak)?;
            if !crc_a_ok(&sak) {
                return Err(Error::Garbled(Garble::BadCrc));
            }
            let sak = sak[0];
            let more = sak & iso14443a::SAK_CASCADE != 0;
            if more != (u0 == iso14443a::CASCADE_TAG) {
                return Err(Error::Garbled(Garble::BadCascade));
            }
            let part: &[u8] = if more {
                &[u1, u2, u3]
            } else {
                &[u0, u1, u2, u3]
            };
            let dest = uid
                .get_mut(len..len + part.len())
                .ok_or(Error::Garbled(Garble::BadCascade))?;
            dest.copy_from_slice(part);
            len += part.len();
            if !more {
                let bytes = uid.get(..len).unwrap_or_default();
                let uid = TagUid::new(bytes).map_err(|_| Error::Garbled(Garble::BadCascade))?;
                return Ok(Selected { uid, sak });
            }
        }
        Err(Error::Garbled(Garble::BadCascade))
    }

    /// Sends HLTA (50 00 + CRC_A), which parks the selected tag in HALT, where REQA no longer
    /// wakes it (WUPA does). A tag does not answer HLTA, so this waits out the timeout.
    ///
    /// # Errors
    /// Only reader faults: any answer, or none, leaves nothing to do.
    pub fn halt(&mut self) -> Result<(), Error<SPI::Error>> {
        match self.transceive(&iso14443a::HLTA, 0, &mut []) {
            Err(e) if e.is_reader_fault() => Err(e),
            _ => Ok(()),
        }
    }

    /// Reads the UID of the one tag on the antenna: WUPA, anticollision and select through the
    /// cascade levels, then HLTA.
    ///
    /// WUPA rather than REQA and the closing HLTA make reads repeatable: a tag left selected
    /// would ignore the next request, and a halted one answers only WUPA.
    ///
    /// # Errors
    /// As [`Mfrc522Ready::wupa`] and [`Mfrc522Ready::select`].
    pub fn read_uid(&mut self) -> Result<TagUid, Error<SPI::Error>> {
        self.wupa()?;
        let selected = self.select()?;
        self.halt()?;
        Ok(selected.uid)
    }

    /// Lists the UIDs of every tag in the field, whatever their number (up to
    /// [`MAX_TAGS_IN_FIELD`]): switches the field off for [`FIELD_RESET_OFF_US`] and on again
    /// for [`FIELD_ON_GUARD_US`] so every tag starts in IDLE, then REQA, bitwise anticollision
    /// and select ([`Mfrc522Ready::select_resolving`]), and HLTA, until REQA finds no tag left
    /// awake. The field stays on.
    ///
    /// # Errors
    /// A reader fault, or a tag answering garbled (no half list is returned).
    pub fn inventory(&mut self) -> Result<Vec<TagUid>, Error<SPI::Error>> {
        let tx_control = self.read_register(Register::TxControl)?;
        self.write_register(Register::TxControl, tx_control & !bits::ANTENNA_ON)?;
        self.chip.delay.delay_us(FIELD_RESET_OFF_US);
        self.write_register(Register::TxControl, tx_control | bits::ANTENNA_ON)?;
        self.chip.delay.delay_us(FIELD_ON_GUARD_US);
        let mut found: Vec<TagUid> = Vec::new();
        while found.len() < MAX_TAGS_IN_FIELD {
            match self.reqa() {
                Ok(_) | Err(Error::Collision) => {}
                Err(Error::NoTag) => break,
                Err(e) => return Err(e),
            }
            let selected = self.select_resolving()?;
            self.halt()?;
            if !found.contains(&selected.uid) {
                found.push(selected.uid);
            }
        }
        Ok(found)
    }

    /// Anticollision and select through the cascade levels like [`Mfrc522Ready::select`], but
    /// when several tags answer it resolves the collision bit by bit (ISO/IEC 14443-3 6.5.3):
    /// the bits up to the first collided one are kept, that bit is set to 1, and ANTICOLLISION
    /// is sent again with those bits (NVB counting them, BitFramingReg RxAlign and TxLastBits
    /// set to the partial byte) until one tag is left, which is then selected.
    ///
    /// # Errors
    /// [`Error::Garbled`] on a bad BCC, CRC or cascade, or a collision the chip cannot place;
    /// [`Error::NoTag`] when the tags went away; a reader fault.
    pub fn select_resolving(&mut self) -> Result<Selected, Error<SPI::Error>> {
        self.select_cascade(Self::anticollision_level)
    }

    /// One cascade level's bitwise anticollision: the 4 UID bytes and BCC of one tag.
    fn anticollision_level(&mut self, sel: u8) -> Result<[u8; 5], Error<SPI::Error>> {
        let mut level = [0u8; 5];
        // Bits of the level's 32 UID bits known so far.
        let mut known: u8 = 0;
        // Each round learns at least one more bit, so 33 rounds always end.
        for _ in 0..=32 {
            let whole = usize::from(known / 8);
            let extra = known % 8;
            let partial = usize::from(extra > 0);
            let mut frame = [0u8; 7];
            frame[0] = sel;
            frame[1] = ((2 + known / 8) << 4) | extra;
            for (dest, byte) in frame.iter_mut().skip(2).zip(&level[..whole + partial]) {
                *dest = *byte;
            }
            let framing = (extra << 4) | extra;
            let answer = self.transceive_bits(&frame[..2 + whole + partial], framing)?;
            // The first byte back fills the partial byte from bit `extra` up.
            let keep = (1u8 << extra) - 1;
            for (i, byte) in answer.bytes[..answer.len].iter().enumerate() {
                let Some(dest) = level.get_mut(whole + i) else {
                    break;
                };
                *dest = if i == 0 {
                    (*dest & keep) | (byte & !keep)
                } else {
                    *byte
                };
            }
            match answer.collision {
                None => {
                    if whole + answer.len != 5 || answer.last_bits != 0 {
                        return Err(Error::Garbled(Garble::WrongLength {
                            expected: 5,
                            got: u8::try_from(whole + answer.len).unwrap_or(u8::MAX),
                            last_bits: answer.last_bits,
                        }));
                    }
                    let [u0, u1, u2, u3, bcc] = level;
                    if u0 ^ u1 ^ u2 ^ u3 != bcc {
                        return Err(Error::Garbled(Garble::BadBcc));
                    }
                    return Ok(level);
                }
                Some(coll) => {
                    let position = match coll & bits::COLL_POS {
                        0 => 32,
                        p => p,
                    };
                    if coll & bits::COLL_POS_NOT_VALID != 0 || position <= known {
                        return Err(Error::Collision);
                    }
                    // Keep the bits before the collision, take the tags whose bit is 1.
                    let bit = position - 1;
                    if let Some(byte) = level.get_mut(usize::from(bit / 8)) {
                        *byte |= 1 << (bit % 8);
                    }
                    known = position;
                }
            }
        }
        Err(Error::Collision)
    }

    /// Sends a bit-oriented frame (`framing` into BitFramingReg: RxAlign and TxLastBits) and
    /// returns what came back, collided or not.
    fn transceive_bits(&mut self, tx: &[u8], framing: u8) -> Result<Received, Error<SPI::Error>> {
        self.start_transceive(tx, framing)?;
        self.wait_for_answer()?;
        let error = self.read_register(Register::Error)?;
        if error & bits::TEMP_ERR != 0 {
            return Err(Error::Overheated);
        }
        let collision = if error & bits::COLL_ERR != 0 {
            Some(self.read_register(Register::Coll)?)
        } else {
            if error & bits::FRAME_ERRS != 0 {
                return Err(Error::Garbled(Garble::Framing { error_reg: error }));
            }
            None
        };
        let got = self.read_register(Register::FifoLevel)? & bits::FIFO_COUNT;
        let last_bits = self.read_register(Register::Control)? & bits::RX_LAST_BITS;
        let len = usize::from(got).min(5);
        let mut bytes = [0u8; 5];
        self.read_fifo(&mut bytes[..len])?;
        Ok(Received {
            bytes,
            len,
            last_bits,
            collision,
        })
    }

    /// The writes that start a Transceive of `tx` with BitFramingReg `framing`.
    fn start_transceive(&mut self, tx: &[u8], framing: u8) -> Result<(), Error<SPI::Error>> {
        self.write_register(Register::Command, command::IDLE)?;
        self.write_register(Register::ComIrq, bits::CLEAR_ALL_IRQS)?;
        self.write_register(Register::FifoLevel, bits::FLUSH_BUFFER)?;
        self.write_fifo(tx)?;
        self.write_register(Register::BitFraming, framing)?;
        self.write_register(Register::Command, command::TRANSCEIVE)?;
        self.write_register(Register::BitFraming, framing | bits::START_SEND)
    }

    /// Sends `tx` (its last byte cut to `tx_last_bits` bits when not 0) and receives exactly
    /// `rx.len()` whole bytes, polling ComIrqReg until the answer or the chip's timer.
    fn transceive(
        &mut self,
        tx: &[u8],
        tx_last_bits: u8,
        rx: &mut [u8],
    ) -> Result<(), Error<SPI::Error>> {
        self.start_transceive(tx, tx_last_bits)?;
        self.wait_for_answer()?;

        let error = self.read_register(Register::Error)?;
        if error & bits::TEMP_ERR != 0 {
            return Err(Error::Overheated);
        }
        if error & bits::COLL_ERR != 0 {
            return Err(Error::Collision);
        }
        if error & bits::FRAME_ERRS != 0 {
            return Err(Error::Garbled(Garble::Framing { error_reg: error }));
        }
        let got = self.read_register(Register::FifoLevel)? & bits::FIFO_COUNT;
        let last_bits = self.read_register(Register::Control)? & bits::RX_LAST_BITS;
        if usize::from(got) != rx.len() || last_bits != 0 {
            return Err(Error::Garbled(Garble::WrongLength {
                expected: u8::try_from(rx.len()).unwrap_or(u8::MAX),
                got,
                last_bits,
            }));
        }
        self.read_fifo(rx)
    }

    /// Polls ComIrqReg until a frame arrived or the chip's timer ran out.
    fn wait_for_answer(&mut self) -> Result<(), Error<SPI::Error>> {
        for _ in 0..MAX_POLLS {
            let irq = self.read_register(Register::ComIrq)?;
            if irq & (bits::RX_IRQ | bits::IDLE_IRQ) != 0 {
                return Ok(());
            }
            if irq & bits::TIMER_IRQ != 0 {
                return Err(Error::NoTag);
            }
            self.chip.delay.delay_us(POLL_INTERVAL_US);
        }
        Err(Error::ChipStuck)
    }

    /// Writes `data` into the FIFO in one SPI write: the address byte, then the bytes.
    fn write_fifo(&mut self, data: &[u8]) -> Result<(), Error<SPI::Error>> {
        let mut frame = [0u8; MAX_FRAME + 1];
        frame[0] = Register::FifoData.write_byte();
        let n = data.len().min(MAX_FRAME);
        for (dest, byte) in frame.iter_mut().skip(1).zip(data.iter().take(n)) {
            *dest = *byte;
        }
        self.chip
            .spi
            .write(frame.get(..=n).unwrap_or_default())
            .map_err(Error::Spi)
    }

    /// Reads `rx.len()` bytes from the FIFO in one SPI transfer: the read address once per
    /// byte, then 0x00; the bytes come back one position later.
    fn read_fifo(&mut self, rx: &mut [u8]) -> Result<(), Error<SPI::Error>> {
        if rx.is_empty() {
            return Ok(());
        }
        let n = rx.len().min(MAX_FRAME);
        let mut out = [0u8; MAX_FRAME + 1];
        for byte in out.iter_mut().take(n) {
            *byte = Register::FifoData.read_byte();
        }
        let mut answer = [0u8; MAX_FRAME + 1];
        let (Some(answer), Some(out)) = (answer.get_mut(..=n), out.get(..=n)) else {
            return Ok(());
        };
        self.chip.spi.transfer(answer, out).map_err(Error::Spi)?;
        for (dest, byte) in rx.iter_mut().zip(answer.iter().skip(1)) {
            *dest = *byte;
        }
        Ok(())
    }
}
