//! The Raspberry Pi backend (feature `pi`).
//!
//! - **GPIO: `rpi-pal`**, the maintained fork of rppal (rppal was retired on 2025-07-01). It
//!   reads and writes pins by memory-mapped registers with no system call, which the matrix
//!   scan needs: 12 rows x 10 columns at 100 Hz or more is thousands of pin operations a second.
//! - **I2C and SPI: `linux-embedded-hal`** (`/dev/i2c-N`, `/dev/spidevB.C`). rppal's
//!   embedded-hal SPI device sends zeros for in-place transfers, which breaks MFRC522 register
//!   reads, and its I2C `transaction` has no repeated start; linux-embedded-hal sends a whole
//!   transaction as one ioctl and maps in-place transfers correctly
//!   (`docs/hardware.md` §4).
//! - **Delays: `linux-embedded-hal`'s `Delay`** (thread sleep; the matrix driver's settle delay
//!   is short, and its documentation counts the sleep's overshoot).
//!
//! Nothing else in the workspace names these crates, so the backend can be swapped here alone.

use std::path::Path;

use linux_embedded_hal::spidev::{SpiModeFlags, SpidevOptions};
use linux_embedded_hal::{Delay, I2cdev, SpidevBus, SpidevDevice};
use rpi_pal::gpio::{Bias, Gpio, InputPin, IoPin, Mode, OutputPin};

use super::OpenError;
use crate::config::{ButtonsConfig, Config, NfcConfig, SensorConfig, SpiConfig};
use crate::drivers::buttons::{Buttons, ButtonsConfig as DebounceConfig};
use crate::drivers::expander::{
    ExpanderConfig, MatrixConfig as ExpanderMatrixConfig, Pcf8575Bank, Pcf8575Matrix,
};
use crate::drivers::nfc::mfrc522::{Mfrc522, Mfrc522Ready};
use crate::drivers::nfc::{start_bank, DecodedDevice, ReaderBank, SelectDecoder, Voting};
use crate::drivers::reed_matrix::{
    ActiveLevel, CellMap, MatrixConfig, OpenDrainRow, ReedMatrix, ReleasablePin, WithReadBack,
};
use crate::drivers::shift_chain::{ChainOrder, ShiftChain, ShiftChainConfig};
use crate::inputs::Scanner;
use crate::sensing::{Button, SensedCell};

fn gpio() -> Result<Gpio, OpenError> {
    Gpio::new().map_err(|e| OpenError {
        what: "the GPIO controller".into(),
        cause: e.to_string(),
        fix: "run on a Raspberry Pi, as root or as a user in the gpio group",
    })
}

fn pin(gpio: &Gpio, n: u8) -> Result<rpi_pal::gpio::Pin, OpenError> {
    gpio.get(n).map_err(|e| OpenError {
        what: format!("GPIO {n}"),
        cause: e.to_string(),
        fix: "check that no other program (or a device-tree overlay) holds the pin",
    })
}

fn input(gpio: &Gpio, n: u8) -> Result<InputPin, OpenError> {
    Ok(pin(gpio, n)?.into_input_pullup())
}

fn output(gpio: &Gpio, n: u8) -> Result<OutputPin, OpenError> {
    Ok(pin(gpio, n)?.into_output_high())
}

fn output_low(gpio: &Gpio, n: u8) -> Result<OutputPin, OpenError> {
    Ok(pin(gpio, n)?.into_output_low())
}

/// Opens an I2C bus's device file (`[i2c1] device`, `/dev/i2c-1`).
///
/// # Errors
/// The device is missing or not accessible.
pub fn open_i2c(path: &Path) -> Result<I2cdev, OpenError> {
    I2cdev::new(path).map_err(|e| OpenError {
        what: path.display().to_string(),
        cause: e.to_string(),
        fix: "enable I2C: `sudo umpire setup`, then reboot (and the user in group i2c)",
    })
}

/// Opens an SPI device (`/dev/spidev<bus>.<cs>` from `[spi0] device`) in mode 0 at its clock.
///
/// # Errors
/// The device is missing or not accessible.
pub fn open_spi(config: &Config, spi: SpiConfig) -> Result<SpidevDevice, OpenError> {
    let path = config.spi_path(spi);
    let fail = |e: &dyn std::fmt::Debug| OpenError {
        what: path.display().to_string(),
        cause: format!("{e:?}"),
        fix: "enable SPI: `sudo umpire setup`, then reboot; for SPI1 add dtoverlay=spi1-3cs",
    };
    let mut dev = SpidevDevice::open(&path).map_err(|e| fail(&e))?;
    let options = SpidevOptions::new()
        .bits_per_word(8)
        .max_speed_hz(spi.spi_hz)
        .mode(SpiModeFlags::SPI_MODE_0)
        .build();
    dev.configure(&options).map_err(|e| fail(&e))?;
    Ok(dev)
}

/// Opens the LED chain's SPI bus (`[leds]`, `/dev/spidev1.0`) as a whole bus (the chain has no
/// chip select) in mode 0 at [`crate::drivers::leds::SPI_HZ`].
///
/// # Errors
/// The device is missing or not accessible.
pub fn open_led_bus(config: &Config, spi: SpiConfig) -> Result<SpidevBus, OpenError> {
    let path = config.spi_path(spi);
    let fail = |e: &dyn std::fmt::Debug| OpenError {
        what: path.display().to_string(),
        cause: format!("{e:?}"),
        fix: "enable SPI1: sudo umpire setup (it adds dtoverlay=spi1-1cs to config.txt), then \
              reboot (and the user in group spi)",
    };
    let mut bus = SpidevBus::open(&path).map_err(|e| fail(&e))?;
    let options = SpidevOptions::new()
        .bits_per_word(8)
        .max_speed_hz(crate::drivers::leds::SPI_HZ)
        .mode(SpiModeFlags::SPI_MODE_0)
        .build();
    bus.configure(&options).map_err(|e| fail(&e))?;
    Ok(bus)
}

/// Opens the LED chain of `[leds]`, switches every LED off, and wraps it as the service's
/// guidance.
///
/// # Errors
/// The bus is missing or the first (all-off) frame could not be sent.
pub fn open_led_chain(
    config: &Config,
    leds: &crate::config::LedsConfig,
) -> Result<crate::guidance::LedGuidance, OpenError> {
    let layout =
        crate::sensing::SensorLayout::new(config.layout_setup()).map_err(|p| OpenError {
            what: "the LED chain's places".into(),
            cause: p.to_string(),
            fix: "fix [board] and its tray slots in the configuration",
        })?;
    // Built once, here: the chain's length and which LED is which place, for as long as the
    // chain is open.
    let map = crate::guidance::LedMap::new(&layout, leds.order);
    let count = map.len();
    let bus = open_led_bus(config, leds.spi)?;
    let chain = crate::drivers::leds::LedChain::new(bus, count, leds.brightness)
        .init()
        .map_err(|e| OpenError {
            what: config.spi_path(leds.spi).display().to_string(),
            cause: e.to_string(),
            fix: "check that SPI1 is enabled (dtoverlay=spi1-1cs) and the service is in group spi",
        })?;
    Ok(crate::guidance::LedGuidance::new(Box::new(chain), map))
}

fn scanner_error(what: &str, e: impl std::fmt::Display) -> OpenError {
    OpenError {
        what: what.into(),
        cause: e.to_string(),
        fix: "check the [sensor] section against the wiring; `umpire doctor` checks each part",
    }
}

/// A matrix row on rpi-pal: driven as an output, released as an input with no pull. The level
/// is written before the pin turns into an output, so it never drives the other level.
impl ReleasablePin for IoPin {
    fn drive(&mut self, state: embedded_hal::digital::PinState) -> Result<(), Self::Error> {
        match state {
            embedded_hal::digital::PinState::Low => IoPin::set_low(self),
            embedded_hal::digital::PinState::High => IoPin::set_high(self),
        }
        self.set_mode(Mode::Output);
        Ok(())
    }

    fn release(&mut self) -> Result<(), Self::Error> {
        self.set_mode(Mode::Input);
        self.set_bias(Bias::Off);
        Ok(())
    }

    fn level_is_high(&mut self) -> Result<bool, Self::Error> {
        Ok(IoPin::is_high(self))
    }
}

/// The `[board] cells` map for a sensor of `inputs` inputs, if the configuration has one.
fn configured_cells(config: &Config, inputs: usize) -> Result<Option<CellMap>, OpenError> {
    config
        .cell_map(inputs)
        .map_err(|e| scanner_error("[board] cells", e))
}

fn level(active_low: bool) -> ActiveLevel {
    if active_low {
        ActiveLevel::Low
    } else {
        ActiveLevel::High
    }
}

/// Opens the board's occupancy sensor as the configuration wires it: a 74HC165 chain
/// (`shift_chain`), a diode matrix on two PCF8575s (`matrix`), a diode matrix on GPIO pins
/// (`gpio_matrix`) or PCF8575s with one input per square (`expanders`).
///
/// # Errors
/// A pin or bus could not be opened, or the driver refused its set-up (an expander that does
/// not answer is named); `simulated` has no hardware to open.
pub fn open_scanner(config: &Config) -> Result<Box<dyn Scanner + Send>, OpenError> {
    match &config.sensor {
        SensorConfig::GpioMatrix {
            rows,
            columns,
            active_low,
            settle_us,
        } => {
            let gpio = gpio()?;
            let active = level(*active_low);
            // Open-drain rows: every row starts released, and a deselected row is never driven
            // (a reversed diode cannot short two pins; see OpenDrainRow).
            let rows = rows
                .iter()
                .map(|&n| {
                    let pin = pin(&gpio, n)?.into_io(Mode::Input);
                    OpenDrainRow::new(pin, active).map_err(|e| match e {})
                })
                .collect::<Result<Vec<_>, OpenError>>()?;
            let columns = columns
                .iter()
                .map(|&n| {
                    let p = pin(&gpio, n)?;
                    Ok(if *active_low {
                        p.into_input_pullup()
                    } else {
                        p.into_input_pulldown()
                    })
                })
                .collect::<Result<Vec<_>, OpenError>>()?;
            let matrix_config = MatrixConfig {
                active,
                settle_ns: settle_us.saturating_mul(1000),
                cells: configured_cells(config, rows.len() * columns.len())?,
            };
            let matrix = ReedMatrix::new(rows, columns, Delay, matrix_config)
                .map_err(|e| scanner_error("the reed matrix", e))?;
            // Each selected row is read back before the columns: on a Pi 5 a posted GPIO
            // write can land after a later read (see reed_matrix's module docs).
            Ok(Box::new(WithReadBack(matrix)))
        }
        SensorConfig::ShiftChain {
            spi,
            load,
            chips,
            active_low,
        } => {
            let gpio = gpio()?;
            let inputs = usize::from(*chips) * 8;
            // The chain's order and its check chip come from the pin map the schematic is
            // drawn from; [board] cells replaces the order for a board wired otherwise.
            let order = ChainOrder::schematic().map_err(|e| scanner_error("the pin map", e))?;
            let cells = config
                .chain_cells(&order, usize::from(*chips))
                .map_err(|e| scanner_error(e.what(), e))?;
            let mut chain_config = ShiftChainConfig::new(inputs, order.check());
            chain_config.active = level(*active_low);
            chain_config.cells = Some(cells);
            let chain = ShiftChain::new(
                open_spi(config, *spi)?,
                output(&gpio, *load)?,
                Delay,
                chain_config,
            )
            .map_err(|e| scanner_error("the 74HC165 chain", e))?;
            Ok(Box::new(chain))
        }
        SensorConfig::Matrix {
            bus,
            rows,
            columns,
            row_expander,
            column_expander,
        } => {
            let mut matrix_config = ExpanderMatrixConfig::new(
                *row_expander,
                *column_expander,
                usize::from(*rows),
                usize::from(*columns),
            );
            matrix_config.cells =
                configured_cells(config, usize::from(*rows) * usize::from(*columns))?;
            let matrix = Pcf8575Matrix::new(open_i2c(config.i2c_path(*bus))?, Delay, matrix_config)
                .map_err(|e| scanner_error("the PCF8575 matrix", e))?;
            Ok(Box::new(matrix))
        }
        SensorConfig::Expanders { bus, addresses } => {
            let mut bank_config = ExpanderConfig::new(addresses.clone());
            bank_config.cells = configured_cells(config, addresses.len() * 16)?;
            let bank = Pcf8575Bank::new(open_i2c(config.i2c_path(*bus))?, bank_config)
                .map_err(|e| scanner_error("the PCF8575 expanders", e))?;
            Ok(Box::new(bank))
        }
        SensorConfig::Simulated => Err(OpenError {
            what: "the simulated board".into(),
            cause: "kind = \"simulated\" has no hardware to open".into(),
            fix: "run `umpire --simulated`, or set [sensor] kind to your wiring",
        }),
    }
}

/// One MFRC522 module: linux-embedded-hal's spidev (in-place transfers are sent correctly
/// there) behind the chip-select decoder, its address lines on rpi-pal output pins.
pub type Module = DecodedDevice<SpidevDevice, OutputPin>;

/// An initialised reader: the only kind the service reads tags through.
pub type Reader = Mfrc522Ready<Module, Delay>;

/// The NFC modules opened but not initialised, each with its region, and the reset line held
/// high: what `doctor` checks one by one and what [`open_nfc`] initialises.
pub struct NfcReaders {
    /// Reader `n` on decoder output `n`, with the cells over its antenna.
    pub readers: Vec<(Mfrc522<Module, Delay>, Vec<SensedCell>)>,
    /// The shared reset (NRSTPD) pin, driven high; dropping it lets the line go.
    pub reset: Option<OutputPin>,
}

impl std::fmt::Debug for NfcReaders {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NfcReaders")
            .field("readers", &self.readers.len())
            .field("reset", &self.reset)
            .finish()
    }
}

/// The NFC hardware, started: every reader initialised and in soft power-down, read one region
/// at a time, and the reset line held high for as long as this lives.
pub struct Nfc {
    /// The readers under their regions.
    pub tags: ReaderBank<Reader>,
    /// The reset (NRSTPD) pin, driven high; dropping it lets the line go.
    pub reset: Option<OutputPin>,
}

/// What `serve` reads tags through is a bank of initialised readers: this does not compile if
/// [`Nfc`] ever held uninitialised ones.
const _: fn(Nfc) -> ReaderBank<Mfrc522Ready<Module, Delay>> = |nfc| nfc.tags;

impl std::fmt::Debug for Nfc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The spidev device and the delay have no Debug of their own.
        f.debug_struct("Nfc")
            .field("reset", &self.reset)
            .finish_non_exhaustive()
    }
}

fn nfc_error(e: impl std::fmt::Display) -> OpenError {
    OpenError {
        what: "the NFC readers".into(),
        cause: e.to_string(),
        fix: "check [nfc] against the wiring; `umpire doctor` checks each reader",
    }
}

/// Opens the NFC modules: pulses their shared reset line low for 1 ms and holds it high (a
/// hard reset, so every module starts from its power-up state), opens the SPI device whose
/// chip select enables the 74HC154, splits it by the decoder's address lines (reader `n` on
/// output `n`), and waits [`HARD_RESET_WAIT_MS`](crate::drivers::nfc::mfrc522::HARD_RESET_WAIT_MS)
/// once for the oscillators before any module is touched. Nothing is initialised.
///
/// # Errors
/// The SPI device or a pin could not be opened, or more readers than the address lines reach.
pub fn open_nfc_readers(config: &Config, nfc: &NfcConfig) -> Result<NfcReaders, OpenError> {
    let gpio = gpio()?;
    let reset = match nfc.reset {
        Some(n) => {
            let mut pin = output_low(&gpio, n)?;
            // NRSTPD low for at least 100 ns resets the chip (datasheet 8.8.2).
            std::thread::sleep(std::time::Duration::from_millis(1));
            pin.set_high();
            Some(pin)
        }
        None => None,
    };
    let spi = open_spi(config, nfc.spi)?;
    let address = nfc
        .address
        .iter()
        .map(|&n| output_low(&gpio, n))
        .collect::<Result<Vec<_>, _>>()?;
    let devices = SelectDecoder::split(spi, address, nfc.readers.len()).map_err(nfc_error)?;
    let readers = devices
        .into_iter()
        .zip(nfc.readers.iter().cloned())
        .enumerate()
        .map(|(i, (device, region))| {
            // One wait covers every module: they share the reset line and the supply.
            let chip = if i == 0 {
                Mfrc522::after_hard_reset(device, Delay)
            } else {
                Mfrc522::new(device, Delay)
            };
            (chip, region)
        })
        .collect();
    Ok(NfcReaders { readers, reset })
}

/// Opens and starts the NFC readers for the service ([`open_nfc_readers`], then
/// [`start_bank`]: each initialised, verified and put in soft power-down, each region's
/// baseline listed).
///
/// # Errors
/// As [`open_nfc_readers`], or a reader that does not initialise (named, with what to check).
pub fn open_nfc(config: &Config, nfc: &NfcConfig) -> Result<Nfc, OpenError> {
    let NfcReaders { readers, reset } = open_nfc_readers(config, nfc)?;
    let tags = start_bank(readers, Voting::DEFAULT).map_err(nfc_error)?;
    Ok(Nfc { tags, reset })
}

/// Opens the three buttons (pulled up, pressed = low).
///
/// # Errors
/// A pin could not be opened, or two buttons share one.
pub fn open_buttons(buttons: &ButtonsConfig) -> Result<Buttons<InputPin>, OpenError> {
    let gpio = gpio()?;
    let pins = [
        (Button::Ok, input(&gpio, buttons.ok)?),
        (Button::Back, input(&gpio, buttons.back)?),
        (Button::Die, input(&gpio, buttons.die)?),
    ];
    Buttons::new(pins, DebounceConfig::default()).map_err(|e| OpenError {
        what: "the buttons".into(),
        cause: e.to_string(),
        fix: "give each button its own pin in [buttons]",
    })
}

impl crate::service::TagSource for Nfc {
    fn read(
        &mut self,
        cells: &[SensedCell],
        now: crate::sensing::Millis,
    ) -> Vec<crate::sensing::SensorInput> {
        self.tags.read_cells(cells, now)
    }
}

/// Opens the buzzer's drive pin (`[buzzer] drive`, active high through its transistor), silent.
///
/// # Errors
/// The pin could not be opened.
pub fn open_buzzer(drive: u8) -> Result<crate::drivers::buttons::Buzzer<OutputPin>, OpenError> {
    let gpio = gpio()?;
    let pin = output_low(&gpio, drive)?;
    crate::drivers::buttons::Buzzer::new(pin, ActiveLevel::High).map_err(|e| OpenError {
        what: format!("the buzzer on GPIO {drive}"),
        cause: e.to_string(),
        fix: "check [buzzer] drive, or delete the [buzzer] section if no buzzer is fitted",
    })
}
