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

use linux_embedded_hal::spidev::{SpiModeFlags, SpidevOptions};
use linux_embedded_hal::{Delay, I2cdev, SpidevDevice};
use rpi_pal::gpio::{Gpio, InputPin, OutputPin};

use super::{OpenError, Scanner};
use crate::config::{ButtonsConfig, Config, NfcConfig, SensorConfig, SpiConfig};
use crate::drivers::buttons::{Buttons, ButtonsConfig as DebounceConfig};
use crate::drivers::expander::{ExpanderConfig, Pcf8575Bank};
use crate::drivers::nfc::mfrc522::Mfrc522;
use crate::drivers::reed_matrix::{ActiveLevel, MatrixConfig, ReedMatrix};
use crate::drivers::shift_chain::{ShiftChain, ShiftChainConfig};
use crate::sensing::Button;

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

/// Opens `/dev/i2c-<bus>`.
///
/// # Errors
/// The device is missing or not accessible.
pub fn open_i2c(bus: u8) -> Result<I2cdev, OpenError> {
    let path = format!("/dev/i2c-{bus}");
    I2cdev::new(&path).map_err(|e| OpenError {
        what: path,
        cause: e.to_string(),
        fix: "enable I2C with raspi-config (Interface Options) and add the user to group i2c",
    })
}

/// Opens `/dev/spidev<bus>.<cs>` in mode 0 at the configured clock.
///
/// # Errors
/// The device is missing or not accessible.
pub fn open_spi(spi: SpiConfig) -> Result<SpidevDevice, OpenError> {
    let path = format!("/dev/spidev{}.{}", spi.bus, spi.chip_select);
    let fail = |e: &dyn std::fmt::Debug| OpenError {
        what: path.clone(),
        cause: format!("{e:?}"),
        fix: "enable SPI with raspi-config (Interface Options); for SPI1 add dtoverlay=spi1-3cs",
    };
    let mut dev = SpidevDevice::open(&path).map_err(|e| fail(&e))?;
    let options = SpidevOptions::new()
        .bits_per_word(8)
        .max_speed_hz(spi.speed_hz)
        .mode(SpiModeFlags::SPI_MODE_0)
        .build();
    dev.configure(&options).map_err(|e| fail(&e))?;
    Ok(dev)
}

fn scanner_error(what: &str, e: impl std::fmt::Display) -> OpenError {
    OpenError {
        what: what.into(),
        cause: e.to_string(),
        fix: "check the [sensor] section against the wiring",
    }
}

/// Opens the board's occupancy sensor as the configuration wires it.
///
/// # Errors
/// A pin or bus could not be opened, or the driver refused its set-up.
pub fn open_scanner(config: &Config) -> Result<Box<dyn Scanner>, OpenError> {
    match &config.sensor {
        SensorConfig::Matrix {
            rows,
            columns,
            active_low,
            settle_us,
        } => {
            let gpio = gpio()?;
            let rows = rows
                .iter()
                .map(|&n| output(&gpio, n))
                .collect::<Result<Vec<_>, _>>()?;
            let columns = columns
                .iter()
                .map(|&n| input(&gpio, n))
                .collect::<Result<Vec<_>, _>>()?;
            let matrix_config = MatrixConfig {
                active: if *active_low {
                    ActiveLevel::Low
                } else {
                    ActiveLevel::High
                },
                settle_ns: settle_us.saturating_mul(1000),
                cells: None,
            };
            let matrix = ReedMatrix::new(rows, columns, Delay, matrix_config)
                .map_err(|e| scanner_error("the reed matrix", e))?;
            Ok(Box::new(matrix))
        }
        SensorConfig::ShiftChain {
            spi,
            load_pin,
            chips,
            active_low,
        } => {
            let gpio = gpio()?;
            let mut chain_config = ShiftChainConfig::new(usize::from(*chips) * 8);
            chain_config.active = if *active_low {
                ActiveLevel::Low
            } else {
                ActiveLevel::High
            };
            let chain = ShiftChain::new(
                open_spi(*spi)?,
                output(&gpio, *load_pin)?,
                Delay,
                chain_config,
            )
            .map_err(|e| scanner_error("the 74HC165 chain", e))?;
            Ok(Box::new(chain))
        }
        SensorConfig::Pcf8575 {
            i2c_bus, addresses, ..
        } => {
            let bank =
                Pcf8575Bank::new(open_i2c(*i2c_bus)?, ExpanderConfig::new(addresses.clone()))
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

/// Opens the MFRC522 reader.
///
/// # Errors
/// The SPI device could not be opened.
pub fn open_reader(nfc: &NfcConfig) -> Result<Mfrc522<SpidevDevice, Delay>, OpenError> {
    Ok(Mfrc522::new(open_spi(nfc.spi)?, Delay))
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
