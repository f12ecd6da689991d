//! The Raspberry Pi backend (feature `pi`).
//!
//! - **GPIO: `rpi-pal`**, the maintained fork of rppal (rppal was retired on 2025-07-01). It
//!   reads and writes pins by memory-mapped registers with no system call, which the matrix
//!   scan needs: 12 rows x 10 columns at 100 Hz or more is thousands of pin operations a second.
//! - **I2C and SPI: `linux-embedded-hal`** (`/dev/i2c-N`, `/dev/spidevB.C`). rppal's
//!   embedded-hal SPI device sends zeros for in-place transfers, which breaks MFRC522 register
//!   reads, and its I2C `transaction` has no repeated start; linux-embedded-hal sends a whole
//!   transaction as one ioctl and maps in-place transfers correctly
//!   (`notes/hardware.md` 2.5).
//! - **Delays: `linux-embedded-hal`'s `Delay`** (thread sleep; the matrix driver's settle delay
//!   is short, and its documentation counts the sleep's overshoot).
//!
//! Nothing else in the workspace names these crates, so the backend can be swapped here alone.

use std::path::Path;

use linux_embedded_hal::spidev::{SpiModeFlags, SpidevOptions};
use linux_embedded_hal::{Delay, I2cdev, SpidevDevice};
use rpi_pal::gpio::{Gpio, InputPin, OutputPin};

use super::{OpenError, Scanner};
use crate::config::{ButtonsConfig, Config, NfcConfig, SensorConfig, SpiConfig};
use crate::drivers::buttons::{Buttons, ButtonsConfig as DebounceConfig};
use crate::drivers::expander::{
    ExpanderConfig, MatrixConfig as ExpanderMatrixConfig, Pcf8575Bank, Pcf8575Matrix,
};
use crate::drivers::nfc::mfrc522::Mfrc522;
use crate::drivers::nfc::mux::{AddressMux, TableError};
use crate::drivers::nfc::{TagReader, Voting};
use crate::drivers::reed_matrix::{ActiveLevel, MatrixConfig, ReedMatrix};
use crate::drivers::shift_chain::{ShiftChain, ShiftChainConfig};
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

fn scanner_error(what: &str, e: impl std::fmt::Display) -> OpenError {
    OpenError {
        what: what.into(),
        cause: e.to_string(),
        fix: "check the [sensor] section against the wiring; `umpire doctor` checks each part",
    }
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
pub fn open_scanner(config: &Config) -> Result<Box<dyn Scanner>, OpenError> {
    match &config.sensor {
        SensorConfig::GpioMatrix {
            rows,
            columns,
            active_low,
            settle_us,
        } => {
            let gpio = gpio()?;
            let active = level(*active_low);
            let rows = rows
                .iter()
                .map(|&n| {
                    // Every row starts deselected.
                    if *active_low {
                        output(&gpio, n)
                    } else {
                        output_low(&gpio, n)
                    }
                })
                .collect::<Result<Vec<_>, _>>()?;
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
                cells: None,
            };
            let matrix = ReedMatrix::new(rows, columns, Delay, matrix_config)
                .map_err(|e| scanner_error("the reed matrix", e))?;
            Ok(Box::new(matrix))
        }
        SensorConfig::ShiftChain {
            spi,
            load,
            chips,
            active_low,
        } => {
            let gpio = gpio()?;
            let mut chain_config = ShiftChainConfig::new(usize::from(*chips) * 8);
            chain_config.active = level(*active_low);
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
            let matrix_config = ExpanderMatrixConfig::new(
                *row_expander,
                *column_expander,
                usize::from(*rows),
                usize::from(*columns),
            );
            let matrix = Pcf8575Matrix::new(open_i2c(config.i2c_path(*bus))?, matrix_config)
                .map_err(|e| scanner_error("the PCF8575 matrix", e))?;
            Ok(Box::new(matrix))
        }
        SensorConfig::Expanders { bus, addresses } => {
            let bank = Pcf8575Bank::new(
                open_i2c(config.i2c_path(*bus))?,
                ExpanderConfig::new(addresses.clone()),
            )
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

/// The MFRC522 on linux-embedded-hal's spidev (in-place transfers are sent correctly there).
pub type Reader = Mfrc522<SpidevDevice, Delay>;

/// The antenna multiplexer on rpi-pal output pins.
pub type Antennas = AddressMux<OutputPin, Delay>;

/// The NFC hardware, opened: the reader behind its antenna multiplexer, and the reader's reset
/// line held high (out of reset) for as long as this lives.
pub struct Nfc {
    /// The reader and the multiplexer, reading one square at a time.
    pub tags: TagReader<Reader, Antennas>,
    /// The reset (NRSTPD) pin, driven high; dropping it lets the line go.
    pub reset: Option<OutputPin>,
}

impl std::fmt::Debug for Nfc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The spidev device and the delay have no Debug of their own.
        f.debug_struct("Nfc")
            .field("reset", &self.reset)
            .finish_non_exhaustive()
    }
}

/// Opens the MFRC522 on its SPI device, drives its reset pin high, and opens the antenna
/// multiplexer: address lines `s0`-`s3` then `bank0`-`bank2` (least significant first, so
/// antenna channel = 16 * bank + channel), the active-low enable, and antenna channel `i`
/// under cell `i` for every square of the board.
///
/// # Errors
/// The SPI device or a pin could not be opened, or the channel table does not fit the lines.
pub fn open_nfc(config: &Config, nfc: &NfcConfig) -> Result<Nfc, OpenError> {
    let gpio = gpio()?;
    let reset = nfc.reset.map(|n| output(&gpio, n)).transpose()?;
    let reader = Mfrc522::new(open_spi(config, nfc.spi)?, Delay);
    let address = nfc
        .mux
        .address
        .iter()
        .map(|&n| output_low(&gpio, n))
        .collect::<Result<Vec<_>, _>>()?;
    let squares = u16::from(config.columns) * u16::from(config.rows);
    let table: Vec<(SensedCell, u8)> = (0..squares.min(nfc.mux.channels))
        .filter_map(|i| Some((SensedCell::new(i), u8::try_from(i).ok()?)))
        .collect();
    let mux_error = |e: TableError| OpenError {
        what: "the antenna multiplexer".into(),
        cause: e.to_string(),
        fix: "check [nfc.mux] channels and its address lines",
    };
    let mut antennas = AddressMux::new(address, Delay, &table).map_err(mux_error)?;
    if let Some(enable) = nfc.mux.enable {
        // Active low: high (every antenna off) until the first square is selected.
        antennas = antennas.with_enable(output(&gpio, enable)?);
    }
    Ok(Nfc {
        tags: TagReader::new(reader, antennas, Voting::DEFAULT),
        reset,
    })
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
