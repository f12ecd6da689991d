//! A daisy chain of 74HC165 parallel-in/serial-out shift registers, read over SPI.
//!
//! One input per square, so no matrix, no diodes and no ghosting: 15 chips read 120 squares.
//!
//! # Wiring
//! - Every chip's CP (clock) to SCLK; the *last* chip's Q7 to MISO; each chip's Q7 to the next
//!   chip's DS, and the first chip's DS tied to ground. MOSI is not used.
//! - Every chip's PL (SH/LD, parallel load, active low) to one GPIO: the `load` pin here.
//! - CE (clock enable, active low) to the SPI chip select, so the chain only shifts while this
//!   driver has the bus; or to ground if the bus is the chain's alone.
//! - SPI mode 0, MSB first, any clock the wiring takes (1 MHz is plenty).
//! - With [`ActiveLevel::Low`] (the default) each input has a pull-up (10 kΩ) and its reed
//!   closes to ground; with [`ActiveLevel::High`], a pull-down and a reed to 3.3 V.
//!
//! # A read
//! The `load` pin is pulsed low (PL low copies the eight inputs of every chip into its
//! register; the pulse lasts at least [`ShiftChainConfig::load_pulse_ns`], the 74HC165 needs
//! about 20 ns at 4.5 V and more at 3.3 V) and back high (shift mode). Then one
//! `SpiDevice::read` clocks out `ceil(inputs / 8)` bytes.
//!
//! # Bit order
//! Chips are numbered from 0, the first in the chain (DS to ground) to the last (Q7 to MISO);
//! their inputs A..H are numbered 0..7. **Input `i` is chip `i / 8`, pin `A + i % 8`.** The
//! last chip's bits come out first, and each chip shifts out H first, so **the first byte read
//! is the last chip, and its most significant bit is input H**: input `i` is bit `i % 8` of
//! byte `chips - 1 - i / 8` (see [`input_is_high`]). Input `i` reads cell `i` unless a
//! [`CellMap`] says otherwise.
//!
//! # The rppal in-place transfer pitfall
//! rppal's `SimpleHalSpiDevice` maps `Operation::TransferInPlace(buf)` to a read-only transfer,
//! so spidev clocks out zeros instead of `buf` (hardware notes 2.5; rpi-pal#6 is the same bug).
//! Drivers that send a command with `transfer_in_place` (the `mfrc522` crate's register reads)
//! break on it. This driver is safe on any backend: it only uses `SpiDevice::read`, whose
//! outgoing bytes are don't-care by definition (the 74HC165 has no data input on the SPI side,
//! MOSI is unconnected), and never `transfer_in_place`.
//!
//! # Read time (computed)
//! [`read_time_ns`]: 120 inputs = 15 bytes = 120 clocks, 120 µs at 1 MHz, plus one ioctl and
//! two GPIO writes: thousands of reads per second, far above the 100 Hz scan rate.
//!
//! # Example
//! ```
//! use embedded_hal_mock::eh1::delay::NoopDelay;
//! use embedded_hal_mock::eh1::digital::{Mock as Pin, State, Transaction as PinTx};
//! use embedded_hal_mock::eh1::spi::{Mock as Spi, Transaction as SpiTx};
//! use firmware::drivers::shift_chain::{ShiftChain, ShiftChainConfig};
//!
//! // Two chips, 16 squares, reeds to ground: square 15 (last chip, input H) is occupied.
//! let spi = Spi::new(&[
//!     SpiTx::transaction_start(),
//!     SpiTx::read_vec(vec![0b0111_1111, 0xFF]),
//!     SpiTx::transaction_end(),
//! ]);
//! let load = Pin::new(&[
//!     PinTx::set(State::High), // shift mode at start
//!     PinTx::set(State::Low),  // latch the inputs
//!     PinTx::set(State::High),
//! ]);
//! let mut chain = ShiftChain::new(spi, load, NoopDelay::new(), ShiftChainConfig::new(16))?;
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

pub use super::reed_matrix::{ActiveLevel, CellMap, CellMapError, OccupancyScanner};
use crate::sensing::Occupancy;

/// How many bytes (chips) `inputs` inputs take: `ceil(inputs / 8)`.
pub const fn chips_for(inputs: usize) -> usize {
    inputs.div_ceil(8)
}

/// Whether input `input` reads high in `bytes`, the bytes of one read of the chain in the
/// order they were clocked in (see the module docs for the bit order). False for an input
/// the bytes do not cover.
pub fn input_is_high(bytes: &[u8], input: usize) -> bool {
    let chip = input / 8;
    let Some(byte_index) = bytes.len().checked_sub(1 + chip) else {
        return false;
    };
    bytes
        .get(byte_index)
        .is_some_and(|byte| byte & (1 << (input % 8)) != 0)
}

/// The computed wire time of one read of `inputs` inputs at `spi_hz`, in nanoseconds (whole
/// bytes are clocked; GPIO and syscall time not included).
pub const fn read_time_ns(inputs: usize, spi_hz: u32) -> u64 {
    let bits = chips_for(inputs) as u64 * 8;
    match bits
        .saturating_mul(1_000_000_000)
        .checked_div(spi_hz as u64)
    {
        Some(ns) => ns,
        None => u64::MAX,
    }
}

/// How a [`ShiftChain`] is wired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShiftChainConfig {
    /// How many inputs are wired (`ceil(inputs / 8)` chips); inputs beyond them in the last
    /// chip are ignored.
    pub inputs: usize,
    /// The level a closed reed puts on its input.
    pub active: ActiveLevel,
    /// How long the load pin is held low; 0 skips the delay (the GPIO write pair itself is then
    /// the pulse, which may be too short on a Pi 5's posted writes).
    pub load_pulse_ns: u32,
    /// Which cell each input reads; `None` maps input `i` to cell `i`.
    pub cells: Option<CellMap>,
}

impl ShiftChainConfig {
    /// `inputs` active-low inputs, a 1 µs load pulse, input `i` reading cell `i`.
    pub fn new(inputs: usize) -> ShiftChainConfig {
        ShiftChainConfig {
            inputs,
            active: ActiveLevel::Low,
            load_pulse_ns: 1_000,
            cells: None,
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
        Ok(ShiftChain {
            spi,
            load,
            delay,
            active: config.active,
            load_pulse_ns: config.load_pulse_ns,
            cells,
            bytes: vec![0; chips_for(config.inputs)],
        })
    }

    /// How many chips (bytes per read).
    pub fn chips(&self) -> usize {
        self.bytes.len()
    }

    /// How many inputs.
    pub fn inputs(&self) -> usize {
        self.cells.inputs()
    }

    /// Latches every input and reads the chain: the raw bytes in the order clocked in (first
    /// byte = last chip, MSB = input H). For calibration screens; [`ShiftChain::scan`] maps them.
    ///
    /// # Errors
    /// [`Error::Load`] if the load pin cannot be pulsed, [`Error::Spi`] if the read fails.
    pub fn read_bytes(&mut self) -> Result<&[u8], Error<S::Error, L::Error>> {
        self.load.set_low().map_err(Error::Load)?;
        if self.load_pulse_ns > 0 {
            self.delay.delay_ns(self.load_pulse_ns);
        }
        self.load.set_high().map_err(Error::Load)?;
        self.spi.read(&mut self.bytes).map_err(Error::Spi)?;
        Ok(&self.bytes)
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

    /// Gives the bus, the load pin and the delay back.
    pub fn release(self) -> (S, L, D) {
        (self.spi, self.load, self.delay)
    }
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

    #[test]
    fn a_full_scan_of_two_chips_pulses_load_then_reads_two_bytes_last_chip_first() {
        let mut spi = SpiMock::new(&spi_read(vec![0b0111_1111, 0b1111_1110]));
        let mut load = PinMock::new(&load_script(1));
        let mut delay = CheckedDelay::new(&[DelayTx::delay_ns(1_000)]);
        let mut chain = ShiftChain::new(
            spi.clone(),
            load.clone(),
            delay.clone(),
            ShiftChainConfig::new(16),
        )
        .unwrap();
        assert_eq!((chain.chips(), chain.inputs()), (2, 16));
        // Active low: byte 0 (the last chip, inputs 8-15) has its MSB (H = input 15) low;
        // byte 1 (the first chip) has its LSB (A = input 0) low.
        assert_eq!(chain.scan().unwrap(), cells(&[0, 15]));
        spi.done();
        load.done();
        delay.done();
    }

    #[test]
    fn active_high_with_a_partial_last_chip_ignores_unwired_bits() {
        // 12 inputs: 2 chips, inputs 12-15 of the last chip unwired.
        let mut spi = SpiMock::new(&spi_read(vec![0xFF, 0b0000_0001]));
        let mut load = PinMock::new(&load_script(1));
        let mut delay = CheckedDelay::new(&[]);
        let config = ShiftChainConfig {
            active: ActiveLevel::High,
            load_pulse_ns: 0,
            ..ShiftChainConfig::new(12)
        };
        let mut chain = ShiftChain::new(spi.clone(), load.clone(), delay.clone(), config).unwrap();
        assert_eq!(chain.scan().unwrap(), cells(&[0, 8, 9, 10, 11]));
        spi.done();
        load.done();
        delay.done();
    }

    #[test]
    fn fifteen_chips_read_120_squares_in_one_transfer() {
        // Square 119 (chip 14 input H = first byte MSB) and square 64 (chip 8 input A) occupied.
        let mut bytes = vec![0xFF; 15];
        bytes[0] = 0b0111_1111;
        bytes[15 - 1 - 8] = 0b1111_1110;
        let spi = SpiMock::new(&spi_read(bytes));
        let load = PinMock::new(&load_script(1));
        let delay = CheckedDelay::new(&[DelayTx::delay_ns(1_000)]);
        let mut chain = ShiftChain::new(spi, load, delay, ShiftChainConfig::new(120)).unwrap();
        assert_eq!(chain.scan().unwrap(), cells(&[64, 119]));
        // The released bus and pins are the same mocks.
        let (mut spi, mut load, mut delay) = chain.release();
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
        let mut spi = SpiMock::new(&spi_read(vec![0b1111_0110]));
        let mut load = PinMock::new(&load_script(1));
        let mut delay = CheckedDelay::new(&[DelayTx::delay_ns(1_000)]);
        let config = ShiftChainConfig {
            cells: Some(CellMap::from_table(table).unwrap()),
            ..ShiftChainConfig::new(8)
        };
        let mut chain = ShiftChain::new(spi.clone(), load.clone(), delay.clone(), config).unwrap();
        // Inputs 0 and 3 read low (closed); 3 is unwired, 0 is cell 107.
        assert_eq!(chain.scan().unwrap(), cells(&[107]));
        spi.done();
        load.done();
        delay.done();
    }

    #[test]
    fn raw_bytes_are_available_for_calibration() {
        let mut spi = SpiMock::new(
            &[spi_read(vec![0xAA, 0x55]), spi_read(vec![0x00, 0xFF])]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>(),
        );
        let mut load = PinMock::new(&load_script(2));
        let mut delay = CheckedDelay::new(&[]);
        let config = ShiftChainConfig {
            load_pulse_ns: 0,
            ..ShiftChainConfig::new(16)
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
            ShiftChainConfig::new(8),
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
            ShiftChainConfig::new(8),
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
            ShiftChainConfig::new(0),
        )
        .unwrap_err();
        assert_eq!(err, Error::NoInputs);
        let config = ShiftChainConfig {
            cells: Some(CellMap::identity(8).unwrap()),
            ..ShiftChainConfig::new(16)
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
        // Three chips: byte 0 = chip 2, byte 2 = chip 0.
        let bytes = [0b1000_0000, 0, 0b0000_0001];
        assert!(input_is_high(&bytes, 23)); // chip 2, H
        assert!(input_is_high(&bytes, 0)); // chip 0, A
        assert!(!input_is_high(&bytes, 7));
        assert!(!input_is_high(&bytes, 24)); // beyond the chain
        assert_eq!(chips_for(120), 15);
        assert_eq!(chips_for(121), 16);
        assert_eq!(read_time_ns(120, 1_000_000), 120_000);
        assert_eq!(read_time_ns(120, 0), u64::MAX);
    }
}
