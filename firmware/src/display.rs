//! The SSD1306 over I2C, pushing only what changed.
//!
//! [`Display`] wraps the `ssd1306` 0.10 driver in `BasicMode`, so this module decides the
//! addressing: it keeps the [`Frame`] the panel holds, compares a new frame with it
//! ([`screens::diff_regions`]) and, for each changed rectangle, sets the controller's column and
//! page window (`0x21`, `0x22`) then sends just those bytes (horizontal addressing mode wraps
//! them page by page). A clock tick costs tens of bytes, not the 1 KiB of a full frame.
//!
//! [`CountingI2c`] is a bus that only counts (and optionally records) what would go on the wire;
//! tests use it to hold each screen change to a byte budget (see the firmware README).

use core::cell::RefCell;
use core::convert::Infallible;
use std::rc::Rc;
use std::vec::Vec;

use embedded_hal::i2c::{ErrorType, I2c, Operation, SevenBitAddress};
use ssd1306::mode::{BasicMode, DisplayConfig};
use ssd1306::prelude::{DisplayRotation, DisplaySize128x64, I2CInterface};
use ssd1306::{I2CDisplayInterface, Ssd1306};

use crate::screens::{self, Frame, Region};
use crate::ui::Screen;

/// The SSD1306's usual I2C address (SA0 low); the other is `0x3D`.
pub const DEFAULT_ADDRESS: u8 = 0x3C;

/// Why the display could not be updated, and what to do about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DisplayError {
    /// A write on I2C was not acknowledged. Check the display's power and SDA/SCL wiring, that
    /// I2C is enabled (`dtparam=i2c_arm=on` in `config.txt`), and its address (`i2cdetect -y 1`
    /// shows 3c or 3d). The next update resends the whole screen.
    Bus,
    /// The driver refused the request; this is a bug in the umpire, not the wiring. Report it
    /// with the screen that was being shown.
    Driver,
}

impl core::fmt::Display for DisplayError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            DisplayError::Bus => f.write_str(
                "the OLED did not answer on I2C: check its power, SDA/SCL wiring, that I2C is \
                 enabled, and its address (0x3C or 0x3D)",
            ),
            DisplayError::Driver => {
                f.write_str("the OLED driver refused a request: a bug, please report it")
            }
        }
    }
}

impl std::error::Error for DisplayError {}

impl From<display_interface::DisplayError> for DisplayError {
    fn from(e: display_interface::DisplayError) -> Self {
        match e {
            display_interface::DisplayError::BusWriteError => DisplayError::Bus,
            _ => DisplayError::Driver,
        }
    }
}

/// How changed bytes are grouped into pushes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PushPlan {
    /// A few rectangles chosen for the fewest bytes on the wire ([`screens::diff_regions`]).
    #[default]
    Rectangles,
    /// One bounding box around every change ([`screens::diff`]).
    BoundingBox,
}

/// What one update sent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pushed {
    /// Rectangles pushed (0 when nothing changed).
    pub regions: usize,
    /// Frame bytes sent, without protocol overhead.
    pub data_bytes: usize,
}

/// The driver type underneath: the `ssd1306` crate in `BasicMode` over I2C.
pub type Driver<I2C> = Ssd1306<I2CInterface<I2C>, DisplaySize128x64, BasicMode>;

/// A 128x64 SSD1306 on I2C that is sent only the bytes that changed.
pub struct Display<I2C> {
    driver: Driver<I2C>,
    /// What the panel holds, when known.
    shown: Option<Frame>,
    plan: PushPlan,
    /// Whether [`Display::init`] has run since the last bus error: pushes rely on horizontal
    /// addressing, and a panel that browned out or was re-plugged has lost it (and its charge
    /// pump), so every failed write clears this and the next update re-initialises. The pixel
    /// pushes are private and reached only through [`Display::show`], which checks it: no frame
    /// can be sent to a panel that has not been initialised.
    ready: bool,
}

impl<I2C> core::fmt::Debug for Display<I2C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Display")
            .field("shown_known", &self.shown.is_some())
            .field("plan", &self.plan)
            .finish_non_exhaustive()
    }
}

impl<I2C: I2c> Display<I2C> {
    /// A display at [`DEFAULT_ADDRESS`]. Call [`Display::init`] next.
    pub fn new(i2c: I2C) -> Self {
        Self::with_address(i2c, DEFAULT_ADDRESS)
    }

    /// A display at `address` (0x3C or 0x3D), mounted pins at the top.
    pub fn with_address(i2c: I2C, address: u8) -> Self {
        let interface = I2CDisplayInterface::new_custom_address(i2c, address);
        Self {
            driver: Ssd1306::new(interface, DisplaySize128x64, DisplayRotation::Rotate0),
            shown: None,
            plan: PushPlan::default(),
            ready: false,
        }
    }

    /// Chooses how changes are grouped into pushes.
    pub fn set_plan(&mut self, plan: PushPlan) {
        self.plan = plan;
    }

    /// Switches the panel on in horizontal addressing mode. Its memory then holds whatever it
    /// held, so the next [`Display::show`] sends a whole frame.
    ///
    /// # Errors
    /// [`DisplayError::Bus`] if the panel does not answer.
    pub fn init(&mut self) -> Result<(), DisplayError> {
        self.shown = None;
        self.ready = false;
        self.driver.init()?;
        self.ready = true;
        Ok(())
    }

    /// Makes the panel show `frame`, sending only the bytes that differ from what it shows now
    /// (everything, the first time or after an error). Runs [`Display::init`] first if it has
    /// not run.
    ///
    /// # Errors
    /// [`DisplayError::Bus`] if a write fails; the next call then resends the whole frame.
    pub fn show(&mut self, frame: &Frame) -> Result<Pushed, DisplayError> {
        if !self.ready {
            self.init()?;
        }
        let regions = match &self.shown {
            None => std::vec![Region::FULL],
            Some(old) => match self.plan {
                PushPlan::Rectangles => screens::diff_regions(old, frame),
                PushPlan::BoundingBox => screens::diff(old, frame).into_iter().collect(),
            },
        };
        // Until every region is through, the panel's content is unknown.
        self.shown = None;
        let mut pushed = Pushed::default();
        for region in &regions {
            if let Err(e) = self.push(frame, region) {
                // The panel may have lost power: set it up again before the next frame.
                self.ready = false;
                return Err(e);
            }
            pushed.regions += 1;
            pushed.data_bytes += region.bytes();
        }
        self.shown = Some(frame.clone());
        Ok(pushed)
    }

    /// Renders the first page of `screen` and shows it (see [`Display::show`]).
    ///
    /// # Errors
    /// As [`Display::show`].
    pub fn show_screen(&mut self, screen: &Screen) -> Result<Pushed, DisplayError> {
        self.show_page(screen, 0)
    }

    /// Renders page `page` of `screen` (wrapping round) and shows it.
    ///
    /// # Errors
    /// As [`Display::show`].
    pub fn show_page(&mut self, screen: &Screen, page: usize) -> Result<Pushed, DisplayError> {
        self.show(&screens::render_page(screen, page))
    }

    /// The frame the panel holds, if known.
    pub fn shown(&self) -> Option<&Frame> {
        self.shown.as_ref()
    }

    /// Forgets what the panel shows, so the next update sends a whole frame (after the panel
    /// was power-cycled, for instance).
    pub fn forget(&mut self) {
        self.shown = None;
    }

    /// Forgets the panel's set-up and content: the next update runs the init sequence and
    /// sends a whole frame. For a panel that may have browned out without a failed write.
    pub fn reset(&mut self) {
        self.shown = None;
        self.ready = false;
    }

    /// Switches the panel off (dark; its memory is kept), as the service does when it stops,
    /// so a stopped umpire never shows a stale screen. The next update re-initialises.
    ///
    /// # Errors
    /// [`DisplayError::Bus`] if the panel does not answer.
    pub fn blank(&mut self) -> Result<(), DisplayError> {
        self.reset();
        self.driver.set_display_on(false)?;
        Ok(())
    }

    /// Gives the bus back.
    pub fn release(self) -> I2C {
        self.driver.release().release()
    }

    fn push(&mut self, frame: &Frame, region: &Region) -> Result<(), DisplayError> {
        // The driver takes pixel rows for pages (it divides by 8) and exclusive ends.
        let start = (region.first_column, region.first_page * 8);
        let end = (
            region.last_column.saturating_add(1),
            (region.last_page + 1).saturating_mul(8),
        );
        self.driver.set_draw_area(start, end)?;
        self.driver.draw(&frame.region_bytes(region))?;
        Ok(())
    }
}

/// One recorded I2C write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Write {
    /// The 7-bit device address.
    pub address: u8,
    /// The bytes after the address.
    pub bytes: Vec<u8>,
}

/// What a [`CountingI2c`] has seen so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Transactions (each one a start, an address byte, its bytes and a stop).
    pub transactions: usize,
    /// Bytes written, not counting address bytes.
    pub bytes_written: usize,
    /// Bytes read.
    pub bytes_read: usize,
    /// Every write, when recording.
    pub writes: Vec<Write>,
}

impl Tally {
    /// Bytes on the wire, address bytes included.
    pub fn wire_bytes(&self) -> usize {
        self.transactions + self.bytes_written + self.bytes_read
    }

    /// SCL clock cycles: 9 per byte (8 bits and the acknowledge) plus about 2 per transaction
    /// for start and stop.
    pub fn scl_clocks(&self) -> usize {
        9 * self.wire_bytes() + 2 * self.transactions
    }

    /// Microseconds on the wire at `scl_hz`, without the host's gaps between transactions.
    pub fn micros_at(&self, scl_hz: u32) -> u64 {
        if scl_hz == 0 {
            return u64::MAX;
        }
        (self.scl_clocks() as u64 * 1_000_000).div_ceil(u64::from(scl_hz))
    }
}

/// An I2C bus that counts what would go on the wire and never fails; reads return zeros.
///
/// Clones share one tally, so a test can hand a clone to a [`Display`] and read the counts
/// from the original.
#[derive(Clone, Debug, Default)]
pub struct CountingI2c {
    tally: Rc<RefCell<Tally>>,
    record: bool,
}

impl CountingI2c {
    /// A bus that only counts.
    pub fn new() -> Self {
        Self::default()
    }

    /// A bus that also keeps every write in [`Tally::writes`].
    pub fn recording() -> Self {
        Self {
            record: true,
            ..Self::default()
        }
    }

    /// A copy of the counts so far.
    pub fn tally(&self) -> Tally {
        self.tally.borrow().clone()
    }

    /// Zeroes the counts and forgets recorded writes.
    pub fn reset(&self) {
        *self.tally.borrow_mut() = Tally::default();
    }
}

impl ErrorType for CountingI2c {
    type Error = Infallible;
}

impl I2c<SevenBitAddress> for CountingI2c {
    fn transaction(
        &mut self,
        address: u8,
        operations: &mut [Operation<'_>],
    ) -> Result<(), Self::Error> {
        let mut tally = self.tally.borrow_mut();
        tally.transactions += 1;
        for operation in operations {
            match operation {
                Operation::Write(bytes) => {
                    tally.bytes_written += bytes.len();
                    if self.record {
                        tally.writes.push(Write {
                            address,
                            bytes: bytes.to_vec(),
                        });
                    }
                }
                Operation::Read(buffer) => {
                    tally.bytes_read += buffer.len();
                    buffer.fill(0);
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::SimI2c;
    use crate::ui::Screen;

    fn screen(detail: &str) -> Frame {
        screens::render(&Screen::Boot {
            version: "1.0".into(),
            detail: detail.into(),
        })
    }

    /// The panel loses power mid-game and comes back: the next update re-initialises it (it is
    /// lit again) and sends the frame whole. On the old code the frame was resent without the
    /// init sequence, so a browned-out panel stayed dark (page addressing, display off).
    #[test]
    fn a_panel_that_lost_power_is_initialised_again_and_gets_the_whole_frame() {
        let bus = SimI2c::default().with_panel(DEFAULT_ADDRESS);
        let mut display = Display::new(bus.clone());
        let first = screen("one");
        display.show(&first).unwrap();
        let panel = bus.panel(DEFAULT_ADDRESS).unwrap();
        assert_eq!(
            panel.visible(),
            Some(first.region_bytes(&Region::FULL).as_slice())
        );
        assert_eq!(panel.inits(), 1);

        bus.set_present(DEFAULT_ADDRESS, false);
        let second = screen("two");
        assert_eq!(display.show(&second), Err(DisplayError::Bus));
        assert_eq!(display.show(&second), Err(DisplayError::Bus), "still gone");
        bus.set_present(DEFAULT_ADDRESS, true);
        display.show(&second).unwrap();
        let panel = bus.panel(DEFAULT_ADDRESS).unwrap();
        assert!(panel.is_on(), "the init sequence ran again");
        assert_eq!(panel.inits(), 1, "once since power came back");
        assert_eq!(
            panel.visible(),
            Some(second.region_bytes(&Region::FULL).as_slice()),
            "the whole frame arrived, not just the change"
        );
    }

    /// After an error during a push the panel content is unknown: the retry sends it whole.
    #[test]
    fn an_unchanged_frame_is_resent_whole_after_a_failure() {
        let bus = SimI2c::default().with_panel(DEFAULT_ADDRESS);
        let mut display = Display::new(bus.clone());
        let frame = screen("same");
        display.show(&frame).unwrap();
        bus.set_present(DEFAULT_ADDRESS, false);
        assert!(display.show(&frame).is_ok(), "no change, nothing sent");
        display.reset();
        assert_eq!(display.show(&frame), Err(DisplayError::Bus));
        bus.set_present(DEFAULT_ADDRESS, true);
        let pushed = display.show(&frame).unwrap();
        assert_eq!(pushed.data_bytes, screens::FRAME_BYTES);
        let panel = bus.panel(DEFAULT_ADDRESS).unwrap();
        assert_eq!(
            panel.visible(),
            Some(frame.region_bytes(&Region::FULL).as_slice())
        );
    }

    #[test]
    fn blank_switches_the_panel_off_and_the_next_update_lights_it() {
        let bus = SimI2c::default().with_panel(DEFAULT_ADDRESS);
        let mut display = Display::new(bus.clone());
        let frame = screen("x");
        display.show(&frame).unwrap();
        display.blank().unwrap();
        assert_eq!(bus.panel(DEFAULT_ADDRESS).unwrap().visible(), None);
        display.show(&frame).unwrap();
        assert!(bus.panel(DEFAULT_ADDRESS).unwrap().is_on());
    }
}
