//! Antenna multiplexing: one reader, many antennas, one switched in at a time by GPIO.
//!
//! Two wirings, both mapping [`SensedCell`]s to switch positions from a table:
//! - [`AddressMux`]: an analogue multiplexer (CD74HC4067: 16 channels, 4 address lines;
//!   74HC4051: 8 channels, 3 lines) whose binary address lines are GPIO outputs, with an
//!   optional active-low enable pin for break-before-make switching.
//! - [`EnableLines`]: one GPIO per antenna driving its own switch (the MOSFET scheme of NXP
//!   AN11314), one line high at a time.
//!
//! After switching, both wait a settle time before the reader may talk: a tag on the newly
//! switched-in antenna only now gets its field, and ISO/IEC 14443-3 gives it up to 5 ms to
//! power up (the reader must hold an unmodulated field for at least 5.1 ms before REQA or
//! WUPA). So [`DEFAULT_SETTLE_US`] is 5.1 ms. Selecting the antenna already selected touches
//! no pin and waits for nothing, so the retries of one cell pay the settle time once.

use core::fmt;

use embedded_hal::delay::DelayNs;
use embedded_hal::digital::OutputPin;

use crate::sensing::SensedCell;

/// The settle time after switching antennas: the 5.1 ms unmodulated field ISO/IEC 14443-3
/// requires before the first request (hardware.md 4.3).
pub const DEFAULT_SETTLE_US: u32 = 5_100;

/// Something that switches the reader to the antenna under a cell.
pub trait AntennaSelect {
    /// Why switching failed.
    type Error: fmt::Display;

    /// Switches the reader to the antenna under `cell` and waits until a tag there can answer.
    ///
    /// # Errors
    /// The cell has no antenna, or the switch could not be set.
    fn select(&mut self, cell: SensedCell) -> Result<(), Self::Error>;
}

/// One antenna, always connected: every cell read is read through it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SingleAntenna;

impl AntennaSelect for SingleAntenna {
    type Error = core::convert::Infallible;

    fn select(&mut self, _cell: SensedCell) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// Why a switching table was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableError {
    /// No address or enable lines were given.
    NoLines,
    /// More than 8 address lines (channels are numbered by a byte).
    TooManyLines {
        /// Lines given.
        lines: usize,
    },
    /// A cell is mapped to a channel the switch does not have.
    ChannelOutOfRange {
        /// The cell.
        cell: SensedCell,
        /// Its channel in the table.
        channel: u8,
        /// How many channels the switch has.
        channels: u16,
    },
    /// A cell appears twice in the table.
    DuplicateCell(SensedCell),
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::NoLines => {
                f.write_str("the antenna switch has no GPIO lines: list them in the pin map")
            }
            TableError::TooManyLines { lines } => write!(
                f,
                "the antenna multiplexer has {lines} address lines, at most 8 are supported: \
                 check the pin map"
            ),
            TableError::ChannelOutOfRange {
                cell,
                channel,
                channels,
            } => write!(
                f,
                "{cell} is wired to antenna channel {channel}, but the switch has only \
                 {channels} (0 to {}): check the antenna table",
                channels.saturating_sub(1)
            ),
            TableError::DuplicateCell(cell) => write!(
                f,
                "{cell} appears twice in the antenna table: give each cell one channel"
            ),
        }
    }
}

impl std::error::Error for TableError {}

/// Why an antenna could not be switched in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MuxError<P> {
    /// The cell has no entry in the antenna table.
    NoAntenna(SensedCell),
    /// Setting a GPIO line failed.
    Pin(P),
}

impl<P: embedded_hal::digital::Error> fmt::Display for MuxError<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MuxError::NoAntenna(cell) => write!(
                f,
                "{cell} has no antenna in the antenna table: check the layout's tag readers \
                 against the antenna wiring"
            ),
            MuxError::Pin(e) => write!(
                f,
                "setting an antenna switch line failed ({}): check the GPIO wiring to the \
                 antenna multiplexer and that the pins are free",
                e.kind()
            ),
        }
    }
}

impl<P: embedded_hal::digital::Error> std::error::Error for MuxError<P> {}

/// Checks a table against a switch with `channels` positions.
fn check_table(table: &[(SensedCell, u8)], channels: u16) -> Result<(), TableError> {
    for (i, &(cell, channel)) in table.iter().enumerate() {
        if u16::from(channel) >= channels {
            return Err(TableError::ChannelOutOfRange {
                cell,
                channel,
                channels,
            });
        }
        if table.iter().take(i).any(|&(earlier, _)| earlier == cell) {
            return Err(TableError::DuplicateCell(cell));
        }
    }
    Ok(())
}

fn channel_in(table: &[(SensedCell, u8)], cell: SensedCell) -> Option<u8> {
    table.iter().find(|(c, _)| *c == cell).map(|&(_, ch)| ch)
}

/// An analogue multiplexer whose address lines are GPIO outputs (CD74HC4067, 74HC4051, ...).
///
/// Selecting channel `n` drives address line `i` (S0 first) to bit `i` of `n`. With an enable
/// pin (the chips' active-low E), the switch is turned off while the address changes and back
/// on after, so no other antenna is connected in between.
#[derive(Debug)]
pub struct AddressMux<P, D> {
    address: Vec<P>,
    enable: Option<P>,
    delay: D,
    table: Vec<(SensedCell, u8)>,
    settle_us: u32,
    selected: Option<u8>,
}

impl<P: OutputPin, D: DelayNs> AddressMux<P, D> {
    /// A multiplexer on `address` lines (S0 first) mapping cells to channels by `table`,
    /// settling [`DEFAULT_SETTLE_US`] after each switch. No pin is touched until the first
    /// [`AntennaSelect::select`].
    ///
    /// # Errors
    /// No or more than 8 address lines, a channel beyond `2^lines`, a cell listed twice.
    pub fn new(address: Vec<P>, delay: D, table: &[(SensedCell, u8)]) -> Result<Self, TableError> {
        if address.is_empty() {
            return Err(TableError::NoLines);
        }
        if address.len() > 8 {
            return Err(TableError::TooManyLines {
                lines: address.len(),
            });
        }
        check_table(table, 1 << address.len())?;
        Ok(AddressMux {
            address,
            enable: None,
            delay,
            table: table.to_vec(),
            settle_us: DEFAULT_SETTLE_US,
            selected: None,
        })
    }

    /// Uses `enable` as the chip's active-low enable: high while the address changes.
    #[must_use]
    pub fn with_enable(mut self, enable: P) -> Self {
        self.enable = Some(enable);
        self
    }

    /// Waits `settle_us` after each switch instead of [`DEFAULT_SETTLE_US`].
    #[must_use]
    pub fn with_settle_us(mut self, settle_us: u32) -> Self {
        self.settle_us = settle_us;
        self
    }

    /// The channel of `cell`'s antenna, if it has one.
    pub fn channel_of(&self, cell: SensedCell) -> Option<u8> {
        channel_in(&self.table, cell)
    }

    /// Gives back the address lines, the enable pin and the delay.
    pub fn release(self) -> (Vec<P>, Option<P>, D) {
        (self.address, self.enable, self.delay)
    }

    fn switch_to(&mut self, channel: u8) -> Result<(), P::Error> {
        if let Some(enable) = &mut self.enable {
            enable.set_high()?;
        }
        for (i, line) in self.address.iter_mut().enumerate() {
            if (channel >> i) & 1 == 1 {
                line.set_high()?;
            } else {
                line.set_low()?;
            }
        }
        if let Some(enable) = &mut self.enable {
            enable.set_low()?;
        }
        Ok(())
    }
}

impl<P: OutputPin, D: DelayNs> AntennaSelect for AddressMux<P, D> {
    type Error = MuxError<P::Error>;

    fn select(&mut self, cell: SensedCell) -> Result<(), Self::Error> {
        let channel = self.channel_of(cell).ok_or(MuxError::NoAntenna(cell))?;
        if self.selected == Some(channel) {
            return Ok(());
        }
        // Until every line is set the switch is in no known position.
        self.selected = None;
        self.switch_to(channel).map_err(MuxError::Pin)?;
        self.selected = Some(channel);
        self.delay.delay_us(self.settle_us);
        Ok(())
    }
}

/// One GPIO line per antenna switch (for example the MOSFETs of NXP AN11314), active high; the
/// table maps each cell to the index of its line.
///
/// The first selection drives every line (all low but one); after that only the old line goes
/// low and the new one high, in that order, so two antennas are never on together.
#[derive(Debug)]
pub struct EnableLines<P, D> {
    lines: Vec<P>,
    delay: D,
    table: Vec<(SensedCell, u8)>,
    settle_us: u32,
    selected: Option<u8>,
}

impl<P: OutputPin, D: DelayNs> EnableLines<P, D> {
    /// Switches on `lines` (at most 256) mapping cells to line indices by `table`, settling
    /// [`DEFAULT_SETTLE_US`] after each switch. No pin is touched until the first select.
    ///
    /// # Errors
    /// No lines or more than 256, a line index out of range, a cell listed twice.
    pub fn new(lines: Vec<P>, delay: D, table: &[(SensedCell, u8)]) -> Result<Self, TableError> {
        if lines.is_empty() {
            return Err(TableError::NoLines);
        }
        let count = u16::try_from(lines.len())
            .ok()
            .filter(|n| *n <= 256)
            .ok_or(TableError::TooManyLines { lines: lines.len() })?;
        check_table(table, count)?;
        Ok(EnableLines {
            lines,
            delay,
            table: table.to_vec(),
            settle_us: DEFAULT_SETTLE_US,
            selected: None,
        })
    }

    /// Waits `settle_us` after each switch instead of [`DEFAULT_SETTLE_US`].
    #[must_use]
    pub fn with_settle_us(mut self, settle_us: u32) -> Self {
        self.settle_us = settle_us;
        self
    }

    /// The line of `cell`'s antenna, if it has one.
    pub fn line_of(&self, cell: SensedCell) -> Option<u8> {
        channel_in(&self.table, cell)
    }

    /// Gives back the lines and the delay.
    pub fn release(self) -> (Vec<P>, D) {
        (self.lines, self.delay)
    }

    fn switch_to(&mut self, line: u8) -> Result<(), P::Error> {
        let target = usize::from(line);
        match self.selected {
            Some(old) => {
                if let Some(pin) = self.lines.get_mut(usize::from(old)) {
                    pin.set_low()?;
                }
            }
            None => {
                for (i, pin) in self.lines.iter_mut().enumerate() {
                    if i != target {
                        pin.set_low()?;
                    }
                }
            }
        }
        if let Some(pin) = self.lines.get_mut(target) {
            pin.set_high()?;
        }
        Ok(())
    }
}

impl<P: OutputPin, D: DelayNs> AntennaSelect for EnableLines<P, D> {
    type Error = MuxError<P::Error>;

    fn select(&mut self, cell: SensedCell) -> Result<(), Self::Error> {
        let line = self.line_of(cell).ok_or(MuxError::NoAntenna(cell))?;
        if self.selected == Some(line) {
            return Ok(());
        }
        let result = self.switch_to(line);
        // After a failure the lines are in no known state: drive them all next time.
        self.selected = result.is_ok().then_some(line);
        result.map_err(MuxError::Pin)?;
        self.delay.delay_us(self.settle_us);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use embedded_hal_mock::eh1::delay::{CheckedDelay, NoopDelay, Transaction as DelayTx};
    use embedded_hal_mock::eh1::digital::{Mock as PinMock, State, Transaction as PinTx};
    use embedded_hal_mock::eh1::MockError;

    use super::*;

    fn cell(n: u16) -> SensedCell {
        SensedCell::new(n)
    }

    fn pin(states: &[State]) -> PinMock {
        let expected: Vec<PinTx> = states.iter().map(|s| PinTx::set(*s)).collect();
        PinMock::new(&expected)
    }

    use State::{High as H, Low as L};

    #[test]
    fn address_lines_carry_the_channel_in_binary_and_settle_after_each_switch() {
        // A CD74HC4067: S0..S3. Cell 12 on channel 5 (0101), cell 40 on channel 10 (1010),
        // cell 7 on channel 15 (1111). Reading 12, 12 again, 40, 7.
        let s0 = pin(&[H, L, H]);
        let s1 = pin(&[L, H, H]);
        let s2 = pin(&[H, L, H]);
        let s3 = pin(&[L, H, H]);
        let delay = CheckedDelay::new(&[
            DelayTx::delay_us(5_100),
            DelayTx::delay_us(5_100),
            DelayTx::delay_us(5_100),
        ]);
        let lines = vec![s0, s1, s2, s3];
        let table = [(cell(12), 5), (cell(40), 10), (cell(7), 15)];
        let mut mux = AddressMux::new(lines, delay, &table).unwrap();
        assert_eq!(mux.channel_of(cell(40)), Some(10));
        mux.select(cell(12)).unwrap();
        mux.select(cell(12)).unwrap(); // already there: no pin, no wait
        mux.select(cell(40)).unwrap();
        mux.select(cell(7)).unwrap();
        let (lines, enable, mut delay) = mux.release();
        assert!(enable.is_none());
        for mut line in lines {
            line.done();
        }
        delay.done();
    }

    #[test]
    fn the_enable_pin_is_off_while_the_address_changes() {
        // A 74HC4051 (S0..S2, active-low E): channel 3, then channel 4.
        let s0 = pin(&[H, L]);
        let s1 = pin(&[H, L]);
        let s2 = pin(&[L, H]);
        let enable = pin(&[H, L, H, L]);
        let delay = CheckedDelay::new(&[DelayTx::delay_us(200), DelayTx::delay_us(200)]);
        let table = [(cell(0), 3), (cell(1), 4)];
        let mut mux = AddressMux::new(vec![s0, s1, s2], delay, &table)
            .unwrap()
            .with_enable(enable)
            .with_settle_us(200);
        mux.select(cell(0)).unwrap();
        mux.select(cell(1)).unwrap();
        let (lines, enable, mut delay) = mux.release();
        for mut line in lines.into_iter().chain(enable) {
            line.done();
        }
        delay.done();
    }

    #[test]
    fn a_cell_without_an_antenna_touches_no_pin() {
        let mut mux = AddressMux::new(
            vec![pin(&[]), pin(&[])],
            CheckedDelay::new(&[]),
            &[(cell(1), 2)],
        )
        .unwrap();
        let err = mux.select(cell(9)).unwrap_err();
        assert_eq!(err, MuxError::NoAntenna(cell(9)));
        assert!(err.to_string().contains("sensor 9"));
        let (lines, _, mut delay) = mux.release();
        for mut line in lines {
            line.done();
        }
        delay.done();
    }

    #[test]
    fn a_failing_pin_is_reported_and_the_next_select_drives_every_line_again() {
        let failing = PinMock::new(&[
            PinTx::set(H).with_error(MockError::Io(std::io::ErrorKind::Other)),
            PinTx::set(H),
        ]);
        let s1 = pin(&[L]);
        let delay = CheckedDelay::new(&[DelayTx::delay_us(5_100)]);
        let mut mux = AddressMux::new(vec![failing, s1], delay, &[(cell(3), 1)]).unwrap();
        let err = mux.select(cell(3)).unwrap_err();
        assert!(matches!(err, MuxError::Pin(_)));
        assert!(err.to_string().contains("GPIO wiring"));
        mux.select(cell(3)).unwrap();
        let (lines, _, mut delay) = mux.release();
        for mut line in lines {
            line.done();
        }
        delay.done();
    }

    #[test]
    fn tables_that_do_not_fit_the_switch_are_refused() {
        let delay = NoopDelay::new;
        let no_lines: Vec<PinMock> = Vec::new();
        assert_eq!(
            AddressMux::new(no_lines, delay(), &[]).err(),
            Some(TableError::NoLines)
        );
        let mut lines = vec![pin(&[]), pin(&[]), pin(&[])];
        let err = AddressMux::new(lines.clone(), delay(), &[(cell(4), 8)])
            .err()
            .unwrap();
        assert_eq!(
            err,
            TableError::ChannelOutOfRange {
                cell: cell(4),
                channel: 8,
                channels: 8
            }
        );
        assert!(err.to_string().contains("0 to 7"));
        assert_eq!(
            AddressMux::new(lines.clone(), delay(), &[(cell(4), 1), (cell(4), 2)]).err(),
            Some(TableError::DuplicateCell(cell(4)))
        );
        assert_eq!(
            EnableLines::new(lines.clone(), delay(), &[(cell(4), 3)]).err(),
            Some(TableError::ChannelOutOfRange {
                cell: cell(4),
                channel: 3,
                channels: 3
            })
        );
        for line in &mut lines {
            line.done();
        }
        let mut nine: Vec<PinMock> = (0..9).map(|_| pin(&[])).collect();
        assert_eq!(
            AddressMux::new(nine.clone(), delay(), &[]).err(),
            Some(TableError::TooManyLines { lines: 9 })
        );
        for line in &mut nine {
            line.done();
        }
    }

    #[test]
    fn enable_lines_switch_one_antenna_on_at_a_time() {
        // Three antennas; cells 20, 21, 22 on lines 0, 1, 2. Select 21, then 20, then 20.
        let l0 = pin(&[L, H]);
        let l1 = pin(&[H, L]);
        let l2 = pin(&[L]);
        let delay = CheckedDelay::new(&[DelayTx::delay_us(5_100), DelayTx::delay_us(5_100)]);
        let table = [(cell(20), 0), (cell(21), 1), (cell(22), 2)];
        let mut lines = EnableLines::new(vec![l0, l1, l2], delay, &table).unwrap();
        assert_eq!(lines.line_of(cell(22)), Some(2));
        lines.select(cell(21)).unwrap();
        lines.select(cell(20)).unwrap();
        lines.select(cell(20)).unwrap();
        let (pins, mut delay) = lines.release();
        for mut p in pins {
            p.done();
        }
        delay.done();
    }

    #[test]
    fn a_single_antenna_reads_every_cell() {
        assert_eq!(SingleAntenna.select(cell(99)), Ok(()));
    }
}
