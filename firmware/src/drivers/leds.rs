//! A chain of WS2812B RGB LEDs (one per square and per tray slot), driven over an SPI bus's
//! MOSI line: the umpire's LED guidance ([`crate::guidance`]).
//!
//! # The encoding
//! A WS2812B reads one bit per 1.25 µs period: a high pulse of about 0.4 µs is a 0, of about
//! 0.8 µs a 1 (the datasheet's T0H and T1H, each ±150 ns), then low for the rest of the period.
//! Clocked at [`SPI_HZ`] (2.4 MHz, 417 ns a bit), **each LED bit is three SPI bits**: `100` for
//! a 0 (417 ns high) and `110` for a 1 (833 ns high), so one period is exactly 1.25 µs. A
//! colour byte is 24 SPI bits, three whole bytes ([`encode_byte`]), and an LED's 24 bits (green,
//! red, blue: the WS2812B's **GRB** order, each MSB first) are 9 SPI bytes.
//!
//! A frame is [`RESET_BYTES`] zero bytes (320 µs low: the reset gap, longer than the 280 µs the
//! newer WS2812B need to latch), the LEDs' bytes from LED 0 (nearest the Pi) on, and another
//! reset gap that latches them. The leading gap makes a frame start clean whatever the line did
//! before (a MOSI that idled high between transfers).
//!
//! Only MOSI is wired (through a 74AHCT125 to 5 V, `schematics/leds.svg`): the chain has no
//! chip select, so it needs **an SPI bus of its own** (SPI1 on the Pi), never one shared with
//! the NFC reader or the shift chain, whose traffic it would read as colours. This driver takes
//! an [`SpiBus`] (the whole bus, no chip select) for that reason.
//!
//! # Brightness
//! Every colour is scaled by the configured brightness, itself at most [`HARD_MAX_BRIGHTNESS`]
//! (64 of 255, a quarter): a lit board must not dazzle, nor draw more than its 5 V supply gives.
//! Computed, not measured: at 20 mA per colour channel at full brightness (a commonly quoted
//! figure), one LED at full white draws 60 mA, so 132 LEDs at the hard cap draw at most
//! 132 x 60 mA x 64/255 = 2.0 A, and the guidance lights a handful at a time.
//!
//! # Typestate
//! [`LedChain::new`] owns the bus and sends nothing; only [`LedChain::init`] (which switches
//! every LED off, whatever a power-up glitch lit) returns the [`LedChainReady`] that shows
//! colours. An uninitialised chain cannot be written:
//!
//! ```compile_fail
//! use embedded_hal_mock::eh1::spi::Mock;
//! use firmware::drivers::leds::{Brightness, LedChain, Rgb};
//!
//! let mut chain = LedChain::new(Mock::<u8>::new(&[]), 4, Brightness::new(32)?);
//! chain.show(&[Rgb::WHITE; 4]); // only LedChainReady shows colours
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Example
//! ```
//! use embedded_hal_mock::eh1::spi::{Mock, Transaction};
//! use firmware::drivers::leds::{encode_frame, Brightness, LedChain, Rgb};
//!
//! let dark = encode_frame(&[Rgb::OFF; 2], Brightness::FULL);
//! let lit = encode_frame(&[Rgb::OFF, Rgb::new(0, 64, 0)], Brightness::FULL);
//! let mut spi = Mock::new(&[
//!     Transaction::write_vec(dark),
//!     Transaction::flush(),
//!     Transaction::write_vec(lit),
//!     Transaction::flush(),
//! ]);
//! let chain = LedChain::new(spi.clone(), 2, Brightness::FULL);
//! let mut chain = chain.init()?;
//! chain.show(&[Rgb::OFF, Rgb::new(0, 64, 0)])?;
//! spi.done();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use embedded_hal::spi::SpiBus;
use serde::{Deserialize, Serialize};

/// The SPI clock the encoding assumes: three SPI bits per 1.25 µs LED bit. The Pi divides its
/// core clock by an even number and rounds down, so set the bus to exactly this (spidev takes
/// it as the transfer speed); 2.4 MHz is 250 MHz / 104 (close: 2.404 MHz, within tolerance).
pub const SPI_HZ: u32 = 2_400_000;

/// SPI bytes of low line between frames: 96 bytes = 768 bits at [`SPI_HZ`] = 320 µs, above the
/// 280 µs reset (latch) time of current WS2812B parts.
pub const RESET_BYTES: usize = 96;

/// SPI bytes per LED: 24 colour bits, three SPI bits each.
pub const BYTES_PER_LED: usize = 9;

/// The hard cap on brightness, whatever the configuration says (64 of 255).
pub const HARD_MAX_BRIGHTNESS: u8 = 64;

/// The most LEDs a chain may have: one per sensed cell the sensing model handles.
pub const MAX_LEDS: usize = crate::sensing::MAX_CELLS;

/// The SPI pattern of an LED `0` bit (`100`) and a `1` bit (`110`).
const ZERO: u32 = 0b100;
const ONE: u32 = 0b110;

/// A colour as the guidance asks for it, before brightness.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rgb {
    /// Red, 0-255.
    pub r: u8,
    /// Green, 0-255.
    pub g: u8,
    /// Blue, 0-255.
    pub b: u8,
}

impl Rgb {
    /// Dark.
    pub const OFF: Rgb = Rgb::new(0, 0, 0);
    /// Full white.
    pub const WHITE: Rgb = Rgb::new(255, 255, 255);

    /// The colour `(r, g, b)`.
    pub const fn new(r: u8, g: u8, b: u8) -> Rgb {
        Rgb { r, g, b }
    }

    /// Whether the colour is dark.
    pub const fn is_off(self) -> bool {
        self.r == 0 && self.g == 0 && self.b == 0
    }

    /// This colour scaled by `brightness` (255 leaves it as it is).
    pub const fn scaled(self, brightness: Brightness) -> Rgb {
        const fn scale(c: u8, by: u8) -> u8 {
            // c * by / 255 fits a u8 since by <= 255.
            ((c as u16 * by as u16) / 255) as u8
        }
        Rgb::new(
            scale(self.r, brightness.0),
            scale(self.g, brightness.0),
            scale(self.b, brightness.0),
        )
    }
}

/// How bright the LEDs may be: 1 to [`HARD_MAX_BRIGHTNESS`] of 255, or [`Brightness::FULL`]
/// only for tests of the encoding (a frame's colours unscaled).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Brightness(u8);

impl Brightness {
    /// Colours as given: for tests of the bitstream and for `doctor`'s dim check colour.
    #[doc(hidden)]
    pub const FULL: Brightness = Brightness(255);

    /// The hard cap.
    pub const MAX: Brightness = Brightness(HARD_MAX_BRIGHTNESS);

    /// A brightness of `level` of 255.
    ///
    /// # Errors
    /// [`Error::Brightness`] when `level` is 0 (use `enabled = false` to switch the LEDs off)
    /// or above [`HARD_MAX_BRIGHTNESS`].
    pub const fn new(level: u8) -> Result<Brightness, Error<core::convert::Infallible>> {
        if level == 0 || level > HARD_MAX_BRIGHTNESS {
            Err(Error::Brightness(level))
        } else {
            Ok(Brightness(level))
        }
    }

    /// The level, of 255.
    pub const fn level(self) -> u8 {
        self.0
    }
}

/// The 24 SPI bits (three bytes, first sent first) of one colour byte, MSB first.
pub const fn encode_byte(byte: u8) -> [u8; 3] {
    let mut bits: u32 = 0;
    let mut i = 0;
    while i < 8 {
        let one = byte & (0x80 >> i) != 0;
        bits = (bits << 3) | if one { ONE } else { ZERO };
        i += 1;
    }
    [(bits >> 16) as u8, (bits >> 8) as u8, bits as u8]
}

/// The whole SPI frame for `colours` (LED 0 first) at `brightness`: reset gap, GRB bits, reset
/// gap.
pub fn encode_frame(colours: &[Rgb], brightness: Brightness) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 * RESET_BYTES + colours.len() * BYTES_PER_LED);
    out.resize(RESET_BYTES, 0);
    for colour in colours {
        let c = colour.scaled(brightness);
        for byte in [c.g, c.r, c.b] {
            out.extend_from_slice(&encode_byte(byte));
        }
    }
    out.resize(out.len() + RESET_BYTES, 0);
    out
}

/// The computed wire time of a frame of `leds` LEDs at [`SPI_HZ`], in microseconds.
pub const fn frame_time_us(leds: usize) -> u64 {
    let bits = ((2 * RESET_BYTES + leds * BYTES_PER_LED) * 8) as u64;
    bits * 1_000_000 / SPI_HZ as u64
}

/// What went wrong with the LED chain; each message says what to check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error<SpiE> {
    /// A brightness of 0 or above the hard cap.
    Brightness(u8),
    /// [`LedChainReady::show`] was given another number of colours than the chain has LEDs.
    Length {
        /// LEDs in the chain.
        leds: usize,
        /// Colours given.
        given: usize,
    },
    /// Writing the SPI bus failed.
    Spi(SpiE),
}

impl<SpiE: fmt::Debug> fmt::Display for Error<SpiE> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Brightness(level) => write!(
                f,
                "LED brightness {level} is out of range: give 1 to {HARD_MAX_BRIGHTNESS} (of 255), \
                 or set enabled = false to switch the LEDs off"
            ),
            Error::Length { leds, given } => write!(
                f,
                "the LED chain has {leds} LEDs but {given} colours were given (a bug: please \
                 report it)"
            ),
            Error::Spi(e) => write!(
                f,
                "writing the LED chain over SPI failed ({e:?}): check that SPI1 is enabled \
                 (dtoverlay=spi1-1cs), that the device exists (/dev/spidev1.0) and that the \
                 service may open it (group spi)"
            ),
        }
    }
}

impl<SpiE: fmt::Debug> std::error::Error for Error<SpiE> {}

/// A WS2812B chain on its own SPI bus, not yet initialised: it only sends once
/// [`LedChain::init`] has switched every LED off.
#[derive(Debug)]
pub struct LedChain<SPI> {
    spi: SPI,
    leds: usize,
    brightness: Brightness,
}

impl<SPI: SpiBus> LedChain<SPI> {
    /// A chain of `leds` LEDs on `spi` (clocked at [`SPI_HZ`]); nothing is sent yet. More
    /// than [`MAX_LEDS`] are cut to that many.
    pub fn new(spi: SPI, leds: usize, brightness: Brightness) -> LedChain<SPI> {
        LedChain {
            spi,
            leds: leds.min(MAX_LEDS),
            brightness,
        }
    }

    /// Switches every LED off (a WS2812B may light at random on power-up) and returns the
    /// chain that shows colours.
    ///
    /// # Errors
    /// [`Error::Spi`] when the bus fails.
    pub fn init(mut self) -> Result<LedChainReady<SPI>, Error<SPI::Error>> {
        let frame = encode_frame(&vec![Rgb::OFF; self.leds], self.brightness);
        send(&mut self.spi, &frame)?;
        Ok(LedChainReady { chain: self })
    }

    /// Gives the bus back.
    pub fn release(self) -> SPI {
        self.spi
    }
}

fn send<SPI: SpiBus>(spi: &mut SPI, frame: &[u8]) -> Result<(), Error<SPI::Error>> {
    spi.write(frame).map_err(Error::Spi)?;
    // The frame's trailing reset gap must be on the wire before the next frame starts.
    spi.flush().map_err(Error::Spi)
}

/// A chain [`LedChain::init`] has switched off: only this type shows colours.
#[derive(Debug)]
pub struct LedChainReady<SPI> {
    chain: LedChain<SPI>,
}

impl<SPI: SpiBus> LedChainReady<SPI> {
    /// How many LEDs the chain has.
    pub fn len(&self) -> usize {
        self.chain.leds
    }

    /// Whether the chain has no LEDs.
    pub fn is_empty(&self) -> bool {
        self.chain.leds == 0
    }

    /// The brightness colours are scaled by.
    pub fn brightness(&self) -> Brightness {
        self.chain.brightness
    }

    /// Shows `colours` (LED 0 first), scaled by the chain's brightness.
    ///
    /// # Errors
    /// [`Error::Length`] when `colours` is not one per LED (nothing is sent), [`Error::Spi`].
    pub fn show(&mut self, colours: &[Rgb]) -> Result<(), Error<SPI::Error>> {
        if colours.len() != self.chain.leds {
            return Err(Error::Length {
                leds: self.chain.leds,
                given: colours.len(),
            });
        }
        let frame = encode_frame(colours, self.chain.brightness);
        send(&mut self.chain.spi, &frame)
    }

    /// Switches every LED off.
    ///
    /// # Errors
    /// [`Error::Spi`] when the bus fails.
    pub fn clear(&mut self) -> Result<(), Error<SPI::Error>> {
        self.show(&vec![Rgb::OFF; self.chain.leds])
    }

    /// Switches the LEDs off and gives the bus back.
    ///
    /// # Errors
    /// [`Error::Spi`] (with the bus lost) when switching off fails.
    pub fn release(mut self) -> Result<SPI, Error<SPI::Error>> {
        self.clear()?;
        Ok(self.chain.spi)
    }
}

/// Turns an SPI frame back into colours, as a WS2812B chain would read it: for tests (the
/// encoder's and the guidance's), and for `umpire-sim` to show what the wire carries.
pub mod decode {
    use super::{Rgb, BYTES_PER_LED, ONE, RESET_BYTES, ZERO};

    /// Why a frame is not a valid WS2812B frame.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum DecodeError {
        /// The frame does not start with a full reset gap.
        NoLeadingReset,
        /// The frame does not end with a full reset gap (the LEDs would not latch).
        NoTrailingReset,
        /// The bytes between the gaps are not whole LEDs.
        PartialLed {
            /// Bytes between the gaps.
            bytes: usize,
        },
        /// A three-bit symbol is neither `100` nor `110` (a wrong clock or a corrupt frame).
        BadSymbol {
            /// The LED.
            led: usize,
            /// The bit of its 24, from 0.
            bit: usize,
            /// The three SPI bits found.
            symbol: u8,
        },
    }

    /// The colours a WS2812B chain reads from `frame` (as sent, brightness applied).
    ///
    /// # Errors
    /// A [`DecodeError`] naming the first fault.
    pub fn colours(frame: &[u8]) -> Result<Vec<Rgb>, DecodeError> {
        let (lead, rest) = frame
            .split_at_checked(RESET_BYTES)
            .ok_or(DecodeError::NoLeadingReset)?;
        if lead.iter().any(|b| *b != 0) {
            return Err(DecodeError::NoLeadingReset);
        }
        let body_len = rest
            .len()
            .checked_sub(RESET_BYTES)
            .ok_or(DecodeError::NoTrailingReset)?;
        let (body, tail) = rest.split_at(body_len);
        if tail.iter().any(|b| *b != 0) {
            return Err(DecodeError::NoTrailingReset);
        }
        if body.len() % BYTES_PER_LED != 0 {
            return Err(DecodeError::PartialLed { bytes: body.len() });
        }
        body.chunks(BYTES_PER_LED)
            .enumerate()
            .map(|(led, chunk)| {
                let mut channels = [0u8; 3];
                for (k, channel) in channels.iter_mut().enumerate() {
                    let three = &chunk[k * 3..k * 3 + 3];
                    let bits =
                        u32::from(three[0]) << 16 | u32::from(three[1]) << 8 | u32::from(three[2]);
                    for i in 0..8 {
                        let symbol = (bits >> (21 - 3 * i)) & 0b111;
                        let bit = match symbol {
                            ZERO => 0,
                            ONE => 1,
                            other => {
                                return Err(DecodeError::BadSymbol {
                                    led,
                                    bit: k * 8 + i,
                                    symbol: other as u8,
                                })
                            }
                        };
                        *channel = (*channel << 1) | bit;
                    }
                }
                let [g, r, b] = channels;
                Ok(Rgb::new(r, g, b))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::decode::{colours, DecodeError};
    use super::*;
    use embedded_hal_mock::eh1::spi::{Mock, Transaction};

    #[test]
    fn a_zero_bit_is_100_and_a_one_bit_is_110_msb_first() {
        assert_eq!(encode_byte(0x00), [0b1001_0010, 0b0100_1001, 0b0010_0100]);
        assert_eq!(encode_byte(0xFF), [0b1101_1011, 0b0110_1101, 0b1011_0110]);
        // 0x80: only the first LED bit is a 1.
        assert_eq!(encode_byte(0x80), [0b1101_0010, 0b0100_1001, 0b0010_0100]);
        // 0x01: only the last.
        assert_eq!(encode_byte(0x01), [0b1001_0010, 0b0100_1001, 0b0010_0110]);
    }

    #[test]
    fn every_frame_decodes_back_to_its_colours_in_grb_order() {
        let leds = [
            Rgb::new(255, 0, 0),
            Rgb::new(0, 255, 0),
            Rgb::new(0, 0, 255),
            Rgb::new(1, 128, 77),
            Rgb::OFF,
        ];
        let frame = encode_frame(&leds, Brightness::FULL);
        assert_eq!(frame.len(), 2 * RESET_BYTES + leds.len() * BYTES_PER_LED);
        assert_eq!(colours(&frame), Ok(leds.to_vec()));
        // Green is sent first: red's LED starts with eight zero bits then eight one bits.
        let first = &frame[RESET_BYTES..RESET_BYTES + 6];
        assert_eq!(first[..3], encode_byte(0));
        assert_eq!(first[3..], encode_byte(255));
        // Every byte value of every channel survives the round trip.
        let all: Vec<Rgb> = (0..=255u8)
            .map(|v| Rgb::new(v, 255 - v, v ^ 0x5A))
            .collect();
        assert_eq!(colours(&encode_frame(&all, Brightness::FULL)), Ok(all));
    }

    #[test]
    fn the_decoder_refuses_a_frame_a_chain_would_misread() {
        let good = encode_frame(&[Rgb::new(9, 8, 7)], Brightness::FULL);
        assert_eq!(colours(&good[1..]), Err(DecodeError::NoLeadingReset));
        assert_eq!(
            colours(&good[..good.len() - 1]),
            Err(DecodeError::NoTrailingReset)
        );
        let mut short = good.clone();
        short.remove(RESET_BYTES);
        assert_eq!(colours(&short), Err(DecodeError::PartialLed { bytes: 8 }));
        let mut corrupt = good;
        corrupt[RESET_BYTES] = 0xFF; // 111 is no symbol
        assert!(matches!(
            colours(&corrupt),
            Err(DecodeError::BadSymbol { led: 0, bit: 0, .. })
        ));
    }

    #[test]
    fn brightness_scales_every_channel_and_is_capped() {
        let half = Brightness::new(64).unwrap();
        let frame = encode_frame(&[Rgb::new(255, 128, 4)], half);
        assert_eq!(colours(&frame), Ok(vec![Rgb::new(64, 32, 1)]));
        assert_eq!(Brightness::new(0), Err(Error::Brightness(0)));
        assert_eq!(Brightness::new(65), Err(Error::Brightness(65)));
        assert_eq!(Brightness::MAX.level(), HARD_MAX_BRIGHTNESS);
        let message = Error::<()>::Brightness(200).to_string();
        assert!(message.contains("1 to 64") && message.contains("enabled = false"));
        // Even full white at the cap never reaches a quarter of full.
        let white = Rgb::WHITE.scaled(Brightness::MAX);
        assert!(white.r <= 64 && white.g <= 64 && white.b <= 64);
    }

    #[test]
    fn init_switches_every_led_off_then_show_sends_the_scaled_colours() {
        let brightness = Brightness::new(32).unwrap();
        let wanted = [Rgb::new(255, 0, 0), Rgb::OFF, Rgb::new(0, 0, 255)];
        let mut spi = Mock::new(&[
            Transaction::write_vec(encode_frame(&[Rgb::OFF; 3], brightness)),
            Transaction::flush(),
            Transaction::write_vec(encode_frame(&wanted, brightness)),
            Transaction::flush(),
            Transaction::write_vec(encode_frame(&[Rgb::OFF; 3], brightness)),
            Transaction::flush(),
        ]);
        let chain = LedChain::new(spi.clone(), 3, brightness);
        let mut chain = chain.init().unwrap();
        assert_eq!(chain.len(), 3);
        chain.show(&wanted).unwrap();
        // What went on the wire decodes to the colours at a brightness of 32 of 255.
        let sent = encode_frame(&wanted, brightness);
        assert_eq!(
            colours(&sent),
            Ok(vec![Rgb::new(32, 0, 0), Rgb::OFF, Rgb::new(0, 0, 32)])
        );
        let _spi = chain.release().unwrap();
        spi.done();
    }

    /// A bus that fails every write.
    #[derive(Debug)]
    struct BrokenBus;

    impl embedded_hal::spi::ErrorType for BrokenBus {
        type Error = embedded_hal::spi::ErrorKind;
    }

    impl SpiBus for BrokenBus {
        fn read(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
            Err(embedded_hal::spi::ErrorKind::Other)
        }
        fn write(&mut self, _: &[u8]) -> Result<(), Self::Error> {
            Err(embedded_hal::spi::ErrorKind::Other)
        }
        fn transfer(&mut self, _: &mut [u8], _: &[u8]) -> Result<(), Self::Error> {
            Err(embedded_hal::spi::ErrorKind::Other)
        }
        fn transfer_in_place(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
            Err(embedded_hal::spi::ErrorKind::Other)
        }
        fn flush(&mut self) -> Result<(), Self::Error> {
            Ok(())
        }
    }

    #[test]
    fn a_wrong_number_of_colours_sends_nothing_and_a_bus_error_is_typed() {
        let mut spi = Mock::new(&[
            Transaction::write_vec(encode_frame(&[Rgb::OFF; 2], Brightness::MAX)),
            Transaction::flush(),
        ]);
        let mut chain = LedChain::new(spi.clone(), 2, Brightness::MAX)
            .init()
            .unwrap();
        // Nothing reaches the mock: it expects no more transactions.
        assert_eq!(
            chain.show(&[Rgb::WHITE; 3]),
            Err(Error::Length { leds: 2, given: 3 })
        );
        spi.done();
        let err = LedChain::new(BrokenBus, 2, Brightness::MAX)
            .init()
            .unwrap_err();
        assert_eq!(err, Error::Spi(embedded_hal::spi::ErrorKind::Other));
        assert!(err.to_string().contains("/dev/spidev1.0"));
    }

    #[test]
    fn frame_time_is_computed_from_the_clock() {
        // 132 LEDs: (2 x 96 + 132 x 9) x 8 bits = 11040 bits at 2.4 MHz = 4600 us.
        assert_eq!(frame_time_us(132), 4600);
    }
}
