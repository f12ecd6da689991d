//! A reed-switch matrix on GPIO: row pins driven one at a time, column pins read.
//!
//! # Wiring
//! One reed switch and one series diode per square, between its row and its column. With
//! [`ActiveLevel::Low`] (the default) the columns have pull-ups (the Pi's internal 50-65 kΩ or,
//! better, external 10 kΩ), the selected row is driven low, and a closed switch pulls its
//! column low through the diode (cathode towards the row). With [`ActiveLevel::High`]
//! everything is mirrored: pull-downs, the selected row driven high. Drive the rows through
//! [`OpenDrainRow`] (the Pi backend does): a deselected row is then released, not driven to the
//! other level, so a diode fitted backwards cannot short two pins (see [`OpenDrainRow`]).
//!
//! # Why the diodes are needed (ghosting)
//! Without diodes, current can flow backwards through closed switches. If three corners of a
//! rectangle are closed, (r1,c1), (r1,c2) and (r2,c2), then while r2 is selected its column c1
//! is pulled through (r2,c2) -> column c2 -> (r1,c2) -> row r1 -> (r1,c1): the fourth corner
//! (r2,c1) reads closed though it is empty. On a game board dozens of squares are occupied, so
//! such rectangles are everywhere. Worse, with push-pull row drive the same path shorts the
//! selected row to an unselected one (one driven low, the other high) through two switches.
//! One diode per square blocks the backwards step, so every square reads true and rows can
//! never fight.
//!
//! # Settling, and the Raspberry Pi 5 read-after-write hazard
//! After a row is selected its columns need time to move: the pull-up and the wiring
//! capacitance (about 100 pF) make an RC of 5-6.5 µs with the internal pull-ups (5τ ≈ 30 µs),
//! about 1 µs with external 10 kΩ ones. [`MatrixConfig::settle_ns`] waits that long with the
//! [`DelayNs`] the driver owns before reading the columns.
//!
//! The Pi 5 adds a second hazard. Its GPIOs sit in the RP1 chip behind PCIe: a register write
//! is *posted* (the CPU does not wait for it to land) and the kernel found that a later MMIO
//! read of a GPIO register can overtake earlier writes inside the BCM2712 (raspberrypi/linux
//! PR #6279). So a column read issued right after "select row 3" can sample the columns before
//! row 3 is selected, or while row 2 still is: pieces vanish or appear a row away, a silently
//! wrong board. (The tests model this with writes that land late: without a delay or a
//! read-back the scan reads an empty board.) Two fixes, both offered here:
//! - **A settle delay** of a few microseconds or more: by the time the delay ends the posted
//!   write has long landed (a PCIe round trip is around a microsecond), and the RC above needs
//!   the wait anyway. The default 50 µs covers both.
//! - **A read-back** ([`ReedMatrix::scan_with_read_back`], for `StatefulOutputPin` rows): the
//!   driver asks the row pin its level before reading any column. A read of the register just
//!   written returns only once that write has landed (PCIe does not let a read pass an
//!   earlier posted write to the same target), and the column reads are issued only after it
//!   returns, so they see the new row. This is the fix `docs/hardware.md` §2 recommends,
//!   and the Pi backend scans this way ([`WithReadBack`]), with the delay as well;
//!   like all of this module it is unmeasured on a real Pi 5 (an open question there). It only
//!   helps if the HAL really reads the register: one that answers `is_set_low` from a cached
//!   value gives no ordering, and then only the delay protects you. A read-back that disagrees
//!   with the level just driven is reported as [`Error::RowReadBack`] (a row shorted to the
//!   other rail, or a pin that is not an output).
//!
//! # Scan time (computed, not measured)
//! [`scan_time_ns`] counts per row one write to select, one to deselect, the settle delay and
//! one read per column. For 12 rows x 10 columns:
//!
//! | GPIO op | settle | extra | one scan | scans/s |
//! |---|---|---|---|---|
//! | 250 ns (Pi 3/4, pessimistic) | 20 µs | | 276 µs | 3623 |
//! | 250 ns | 50 µs (default) | | 636 µs | 1572 |
//! | 250 ns | 50 µs | + 100 µs sleep overshoot per delay (a `thread::sleep` delay, assumed) | 1.836 ms | 544 |
//! | 1 µs (Pi 5, pessimistic; the notes say ~200 ns paced) | 10 µs | + 1 µs read-back per row | 276 µs | 3623 |
//!
//! Every case leaves most of a 10 ms (100 Hz) period idle; the tests check these numbers.
//!
//! # Example
//! ```
//! use embedded_hal_mock::eh1::delay::NoopDelay;
//! use embedded_hal_mock::eh1::digital::{Mock as Pin, State, Transaction as Tx};
//! use firmware::drivers::reed_matrix::{MatrixConfig, ReedMatrix};
//!
//! // One row, two columns, active low: the row idles high and is pulled low to scan it.
//! let row = Pin::new(&[Tx::set(State::High), Tx::set(State::Low), Tx::set(State::High)]);
//! let columns = [Pin::new(&[Tx::get(State::Low)]), Pin::new(&[Tx::get(State::High)])];
//! let mut matrix = ReedMatrix::new([row], columns, NoopDelay::new(), MatrixConfig::default())?;
//! assert_eq!(matrix.scan()?.to_marks(2), "X.");
//! let (mut rows, mut columns, _) = matrix.release();
//! rows.iter_mut().chain(&mut columns).for_each(|pin| pin.done());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use embedded_hal::delay::DelayNs;
use embedded_hal::digital::{ErrorType, InputPin, OutputPin, PinState, StatefulOutputPin};

use crate::sensing::{Occupancy, SensedCell, MAX_CELLS};

/// Which electrical level means "active": a closed switch on an input, a selected row on a
/// matrix output. Shared by every driver in [`crate::drivers`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ActiveLevel {
    /// Active low: pull-ups, and a closed reed switch pulls the input to ground.
    #[default]
    Low,
    /// Active high: pull-downs, and a closed switch connects the input to 3.3 V.
    High,
}

impl ActiveLevel {
    /// The pin state that means active.
    pub const fn active_state(self) -> PinState {
        match self {
            ActiveLevel::Low => PinState::Low,
            ActiveLevel::High => PinState::High,
        }
    }

    /// The pin state that means inactive.
    pub const fn inactive_state(self) -> PinState {
        match self {
            ActiveLevel::Low => PinState::High,
            ActiveLevel::High => PinState::Low,
        }
    }

    /// Whether an input reading `high` is active.
    pub const fn is_active(self, high: bool) -> bool {
        match self {
            ActiveLevel::Low => !high,
            ActiveLevel::High => high,
        }
    }
}

/// Which sensed cell each raw input of a driver is: input `i` (a matrix position, a shift
/// register bit, an expander pin; each driver documents its numbering) reads cell
/// `cell(i)`, or nothing when the input is not wired to a square.
///
/// Built checked: no cell beyond [`MAX_CELLS`] (it would silently never be seen) and no cell
/// read by two inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellMap {
    cells: Vec<Option<SensedCell>>,
}

impl CellMap {
    /// Input `i` reads cell `i`, for `inputs` inputs.
    ///
    /// # Errors
    /// [`CellMapError::CellOutOfRange`] if `inputs` exceeds [`MAX_CELLS`].
    pub fn identity(inputs: usize) -> Result<CellMap, CellMapError> {
        CellMap::from_table(
            (0..inputs)
                .map(|i| Some(SensedCell::new(u16::try_from(i).unwrap_or(u16::MAX))))
                .collect(),
        )
    }

    /// Input `i` reads `table[i]` (`None`: not wired to a cell).
    ///
    /// # Errors
    /// A cell at or beyond [`MAX_CELLS`], or a cell named by two inputs.
    pub fn from_table(table: Vec<Option<SensedCell>>) -> Result<CellMap, CellMapError> {
        let mut seen: Vec<Option<usize>> = vec![None; MAX_CELLS];
        for (input, cell) in table.iter().enumerate() {
            let Some(cell) = cell else { continue };
            let Some(slot) = seen.get_mut(cell.index()) else {
                return Err(CellMapError::CellOutOfRange { input, cell: *cell });
            };
            if let Some(first_input) = *slot {
                return Err(CellMapError::DuplicateCell {
                    cell: *cell,
                    first_input,
                    second_input: input,
                });
            }
            *slot = Some(input);
        }
        Ok(CellMap { cells: table })
    }

    /// How many inputs the map covers.
    pub fn inputs(&self) -> usize {
        self.cells.len()
    }

    /// The cell input `input` reads, if any.
    pub fn cell(&self, input: usize) -> Option<SensedCell> {
        self.cells.get(input).copied().flatten()
    }

    /// The cells of the active inputs, as an [`Occupancy`].
    pub fn occupancy(&self, mut active: impl FnMut(usize) -> bool) -> Occupancy {
        let mut occupied = Occupancy::EMPTY;
        for (input, cell) in self.cells.iter().enumerate() {
            if let Some(cell) = cell {
                if active(input) {
                    occupied.insert(*cell);
                }
            }
        }
        occupied
    }

    pub(crate) fn check_inputs(&self, expected: usize) -> Result<(), CellMapError> {
        if self.cells.len() == expected {
            Ok(())
        } else {
            Err(CellMapError::WrongLength {
                expected,
                got: self.cells.len(),
            })
        }
    }
}

/// Why a [`CellMap`] cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellMapError {
    /// A cell number the sensing model cannot hold.
    CellOutOfRange {
        /// The input naming it.
        input: usize,
        /// The cell.
        cell: SensedCell,
    },
    /// Two inputs name the same cell.
    DuplicateCell {
        /// The cell.
        cell: SensedCell,
        /// The first input naming it.
        first_input: usize,
        /// The second input naming it.
        second_input: usize,
    },
    /// The map does not cover exactly the driver's inputs.
    WrongLength {
        /// How many inputs the driver has.
        expected: usize,
        /// How many the map covers.
        got: usize,
    },
}

impl fmt::Display for CellMapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CellMapError::CellOutOfRange { input, cell } => write!(
                f,
                "input {input} is mapped to {cell}, but cells are numbered below {MAX_CELLS}: \
                 fix the cell map"
            ),
            CellMapError::DuplicateCell {
                cell,
                first_input,
                second_input,
            } => write!(
                f,
                "inputs {first_input} and {second_input} are both mapped to {cell}: each cell \
                 has one switch, fix the cell map"
            ),
            CellMapError::WrongLength { expected, got } => write!(
                f,
                "the cell map covers {got} inputs but the driver has {expected}: give one \
                 entry per input (None for an unwired one)"
            ),
        }
    }
}

impl std::error::Error for CellMapError {}

/// A driver that reads every occupancy switch at once. Implemented by the matrix, the shift
/// register chain and the expanders, so the service scans any of them alike (through
/// [`crate::inputs::Scanner`], on the [`crate::schedule`] grid).
pub trait OccupancyScanner {
    /// The driver's error.
    type Error;

    /// Reads every switch once.
    ///
    /// # Errors
    /// The driver's bus or pin failed.
    fn read_occupancy(&mut self) -> Result<Occupancy, Self::Error>;
}

/// The computed time of one matrix scan, in nanoseconds: per row one write to select, one to
/// deselect, `settle_ns`, and one read per column, each GPIO access taking `gpio_op_ns`.
pub const fn scan_time_ns(rows: u32, columns: u32, settle_ns: u32, gpio_op_ns: u32) -> u64 {
    let per_row = 2 * gpio_op_ns as u64 + settle_ns as u64 + columns as u64 * gpio_op_ns as u64;
    rows as u64 * per_row
}

/// How many scans of `scan_time_ns` fit in a second (`u64::MAX` for a zero-length scan).
pub const fn scans_per_second(scan_time_ns: u64) -> u64 {
    match 1_000_000_000u64.checked_div(scan_time_ns) {
        Some(rate) => rate,
        None => u64::MAX,
    }
}

/// How a [`ReedMatrix`] is wired and timed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatrixConfig {
    /// The level that selects a row and that a closed switch puts on its column.
    pub active: ActiveLevel,
    /// How long to wait after selecting a row before reading the columns (see the module docs);
    /// 0 skips the delay.
    pub settle_ns: u32,
    /// Which cell each position reads, with position = `row * columns + column`; `None` maps
    /// position `i` to cell `i`.
    pub cells: Option<CellMap>,
}

impl Default for MatrixConfig {
    /// Active low, 50 µs settle (enough for the Pi's internal pull-ups and the Pi 5's posted
    /// writes), row-major cells.
    fn default() -> Self {
        MatrixConfig {
            active: ActiveLevel::Low,
            settle_ns: 50_000,
            cells: None,
        }
    }
}

/// The raw state of every switch of one matrix scan, before cells are mapped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwitchGrid {
    rows: usize,
    columns: usize,
    closed: Vec<bool>,
}

impl SwitchGrid {
    /// A grid of open switches.
    pub fn new(rows: usize, columns: usize) -> SwitchGrid {
        SwitchGrid {
            rows,
            columns,
            closed: vec![false; rows * columns],
        }
    }

    /// Sets the switch at (`row`, `column`); ignored outside the grid.
    pub fn set_closed(&mut self, row: usize, column: usize, closed: bool) {
        if row < self.rows && column < self.columns {
            if let Some(c) = self.closed.get_mut(row * self.columns + column) {
                *c = closed;
            }
        }
    }

    /// The cells of the closed switches, position `row * columns + column` mapped by `cells`.
    pub fn to_occupancy(&self, cells: &CellMap) -> Occupancy {
        cells.occupancy(|i| self.closed.get(i).copied().unwrap_or(false))
    }
}

/// A diode matrix of reed switches: `R` row outputs, `C` column inputs, `D` the settle delay.
/// Rows and columns must share one error type `E` (they do on every Pi HAL).
#[derive(Debug)]
pub struct ReedMatrix<R, C, D> {
    rows: Vec<R>,
    columns: Vec<C>,
    delay: D,
    active: ActiveLevel,
    settle_ns: u32,
    cells: CellMap,
}

impl<R, C, D, E> ReedMatrix<R, C, D>
where
    R: OutputPin<Error = E>,
    C: InputPin<Error = E>,
    D: DelayNs,
{
    /// Takes the pins (an array or a `Vec`, row 0 and column 0 first) and drives every row
    /// inactive, so no row is selected until a scan.
    ///
    /// # Errors
    /// [`Error::NoPins`] without a row or a column, [`Error::CellMap`] for a map that does not
    /// cover `rows x columns` positions or cannot be built, [`Error::Row`] if a row cannot be
    /// driven.
    pub fn new(
        rows: impl Into<Vec<R>>,
        columns: impl Into<Vec<C>>,
        delay: D,
        config: MatrixConfig,
    ) -> Result<Self, Error<E>> {
        let mut rows = rows.into();
        let columns = columns.into();
        if rows.is_empty() || columns.is_empty() {
            return Err(Error::NoPins {
                rows: rows.len(),
                columns: columns.len(),
            });
        }
        let positions = rows.len() * columns.len();
        let cells = match config.cells {
            Some(cells) => cells,
            None => CellMap::identity(positions).map_err(Error::CellMap)?,
        };
        cells.check_inputs(positions).map_err(Error::CellMap)?;
        for (row, pin) in rows.iter_mut().enumerate() {
            pin.set_state(config.active.inactive_state())
                .map_err(|source| Error::Row { row, source })?;
        }
        Ok(ReedMatrix {
            rows,
            columns,
            delay,
            active: config.active,
            settle_ns: config.settle_ns,
            cells,
        })
    }

    /// How many rows.
    pub fn rows(&self) -> usize {
        self.rows.len()
    }

    /// How many columns.
    pub fn columns(&self) -> usize {
        self.columns.len()
    }

    /// The computed time of one [`ReedMatrix::scan`] if each GPIO access takes `gpio_op_ns`.
    pub fn scan_time_ns(&self, gpio_op_ns: u32) -> u64 {
        scan_time_ns(
            u32::try_from(self.rows.len()).unwrap_or(u32::MAX),
            u32::try_from(self.columns.len()).unwrap_or(u32::MAX),
            self.settle_ns,
            gpio_op_ns,
        )
    }

    /// Reads every switch: for each row in turn, select it, wait the settle time, read every
    /// column, deselect it.
    ///
    /// # Errors
    /// [`Error::Row`] or [`Error::Column`] naming the pin that failed. The failing row is
    /// deselected (best effort) before returning, so the next scan starts clean.
    pub fn read_switches(&mut self) -> Result<SwitchGrid, Error<E>> {
        self.read_grid(|_, _| Ok(true))
    }

    /// Reads every switch and maps them to cells: the occupied cells of the board.
    ///
    /// # Errors
    /// As [`ReedMatrix::read_switches`].
    pub fn scan(&mut self) -> Result<Occupancy, Error<E>> {
        let grid = self.read_switches()?;
        Ok(grid.to_occupancy(&self.cells))
    }

    /// Gives the pins and the delay back, the rows left inactive.
    pub fn release(self) -> (Vec<R>, Vec<C>, D) {
        (self.rows, self.columns, self.delay)
    }

    fn read_grid(
        &mut self,
        mut confirm: impl FnMut(&mut R, ActiveLevel) -> Result<bool, E>,
    ) -> Result<SwitchGrid, Error<E>> {
        let ReedMatrix {
            rows,
            columns,
            delay,
            active,
            settle_ns,
            ..
        } = self;
        let active = *active;
        let mut grid = SwitchGrid::new(rows.len(), columns.len());
        for (row, pin) in rows.iter_mut().enumerate() {
            pin.set_state(active.active_state())
                .map_err(|source| Error::Row { row, source })?;
            let mut read_row = || -> Result<(), Error<E>> {
                if !confirm(pin, active).map_err(|source| Error::Row { row, source })? {
                    return Err(Error::RowReadBack { row });
                }
                if *settle_ns > 0 {
                    delay.delay_ns(*settle_ns);
                }
                for (column, input) in columns.iter_mut().enumerate() {
                    let high = input
                        .is_high()
                        .map_err(|source| Error::Column { column, source })?;
                    grid.set_closed(row, column, active.is_active(high));
                }
                Ok(())
            };
            let outcome = read_row();
            let deselected = pin
                .set_state(active.inactive_state())
                .map_err(|source| Error::Row { row, source });
            outcome?;
            deselected?;
        }
        Ok(grid)
    }
}

impl<R, C, D, E> ReedMatrix<R, C, D>
where
    R: StatefulOutputPin<Error = E>,
    C: InputPin<Error = E>,
    D: DelayNs,
{
    /// As [`ReedMatrix::read_switches`], but each selected row is read back before the settle
    /// delay, which orders the column reads after the row write on a Pi 5 (see the module
    /// docs). The delay still runs; set a short one for the RC settle alone.
    ///
    /// # Errors
    /// As [`ReedMatrix::read_switches`], and [`Error::RowReadBack`] when a row does not read
    /// back as the level just driven.
    pub fn read_switches_with_read_back(&mut self) -> Result<SwitchGrid, Error<E>> {
        self.read_grid(|pin, active| match active {
            ActiveLevel::Low => pin.is_set_low(),
            ActiveLevel::High => pin.is_set_high(),
        })
    }

    /// As [`ReedMatrix::scan`], reading each row back (see
    /// [`ReedMatrix::read_switches_with_read_back`]).
    ///
    /// # Errors
    /// As [`ReedMatrix::read_switches_with_read_back`].
    pub fn scan_with_read_back(&mut self) -> Result<Occupancy, Error<E>> {
        let grid = self.read_switches_with_read_back()?;
        Ok(grid.to_occupancy(&self.cells))
    }
}

impl<R, C, D, E> OccupancyScanner for ReedMatrix<R, C, D>
where
    R: OutputPin<Error = E>,
    C: InputPin<Error = E>,
    D: DelayNs,
{
    type Error = Error<E>;

    fn read_occupancy(&mut self) -> Result<Occupancy, Error<E>> {
        self.scan()
    }
}

/// A [`ReedMatrix`] whose [`OccupancyScanner`] scan reads each row back
/// ([`ReedMatrix::scan_with_read_back`]): how the Pi backend scans, so a Pi 5 reads the columns
/// only after the row write has landed, whatever the settle delay.
#[derive(Debug)]
pub struct WithReadBack<R, C, D>(pub ReedMatrix<R, C, D>);

impl<R, C, D, E> OccupancyScanner for WithReadBack<R, C, D>
where
    R: StatefulOutputPin<Error = E>,
    C: InputPin<Error = E>,
    D: DelayNs,
{
    type Error = Error<E>;

    fn read_occupancy(&mut self) -> Result<Occupancy, Error<E>> {
        self.0.scan_with_read_back()
    }
}

/// A pin that can drive a level or let go (an input with no pull: high impedance). What a
/// matrix row needs to be driven open-drain ([`OpenDrainRow`]); the Pi backend implements it
/// for rpi-pal's `IoPin`.
pub trait ReleasablePin: ErrorType {
    /// Drives the pin to `state`. Set the level before turning the output on, so the pin never
    /// drives the other level for an instant.
    fn drive(&mut self, state: PinState) -> Result<(), Self::Error>;

    /// Lets the pin go: an input, no pull-up or pull-down.
    fn release(&mut self) -> Result<(), Self::Error>;

    /// Reads the level on the pin (a real read of the pin, not a remembered value).
    fn level_is_high(&mut self) -> Result<bool, Self::Error>;
}

/// A matrix row driven open-drain: selected = driven to the active level, deselected =
/// released (high impedance), never driven to the inactive level.
///
/// Why: with push-pull rows (deselected rows driven high on an active-low matrix) one diode
/// fitted backwards shorts two Pi pins. With a reversed diode on row r1 and a correct one on row
/// r2 in the same column, both reeds closed, current flows from r1 (driven high) through the
/// reversed diode into the column and through the correct diode into r2 (driven low): two GPIO
/// outputs fighting, limited only by the pins' drive (tens of mA), every scan. Released rows
/// drive nothing, so the only current a fault can draw is a column's pull-up (about 66 µA with
/// the Pi's 50 kΩ); the reversed diode's square just reads wrong, which `umpire calibrate`
/// shows. The schematic adds nothing for this: no series resistor is needed when no row is ever
/// driven to the inactive level.
///
/// As an [`OutputPin`], setting the active level drives, setting the inactive level releases;
/// as a [`StatefulOutputPin`] it reads the pin's level back, which is what
/// [`ReedMatrix::scan_with_read_back`] needs.
#[derive(Debug)]
pub struct OpenDrainRow<P> {
    pin: P,
    active: ActiveLevel,
}

impl<P: ReleasablePin> OpenDrainRow<P> {
    /// Wraps `pin` for a matrix whose selected row is at `active`, and releases it.
    ///
    /// # Errors
    /// The pin could not be released.
    pub fn new(mut pin: P, active: ActiveLevel) -> Result<Self, P::Error> {
        pin.release()?;
        Ok(OpenDrainRow { pin, active })
    }

    /// Gives the pin back.
    pub fn into_inner(self) -> P {
        self.pin
    }

    fn set(&mut self, state: PinState) -> Result<(), P::Error> {
        if state == self.active.active_state() {
            self.pin.drive(state)
        } else {
            self.pin.release()
        }
    }
}

impl<P: ReleasablePin> ErrorType for OpenDrainRow<P> {
    type Error = P::Error;
}

impl<P: ReleasablePin> OutputPin for OpenDrainRow<P> {
    fn set_low(&mut self) -> Result<(), P::Error> {
        self.set(PinState::Low)
    }

    fn set_high(&mut self) -> Result<(), P::Error> {
        self.set(PinState::High)
    }
}

impl<P: ReleasablePin> StatefulOutputPin for OpenDrainRow<P> {
    fn is_set_high(&mut self) -> Result<bool, P::Error> {
        self.pin.level_is_high()
    }

    fn is_set_low(&mut self) -> Result<bool, P::Error> {
        self.pin.level_is_high().map(|high| !high)
    }
}

/// What went wrong with the matrix, and what to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error<E> {
    /// No row pins or no column pins were given.
    NoPins {
        /// How many row pins.
        rows: usize,
        /// How many column pins.
        columns: usize,
    },
    /// The cell map does not fit the matrix.
    CellMap(CellMapError),
    /// Driving a row pin failed.
    Row {
        /// The row (0 = the first pin given).
        row: usize,
        /// The HAL's error.
        source: E,
    },
    /// Reading a column pin failed.
    Column {
        /// The column (0 = the first pin given).
        column: usize,
        /// The HAL's error.
        source: E,
    },
    /// A row read back at the other level than the one just driven.
    RowReadBack {
        /// The row.
        row: usize,
    },
}

impl<E: fmt::Debug> fmt::Display for Error<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoPins { rows, columns } => write!(
                f,
                "a reed matrix needs at least one row and one column pin, got {rows} rows and \
                 {columns} columns: check the pin map"
            ),
            Error::CellMap(e) => write!(f, "reed matrix cell map: {e}"),
            Error::Row { row, source } => write!(
                f,
                "could not drive matrix row {row} ({source:?}): check its GPIO number in the pin \
                 map and that no other program or bus (I2C, SPI) has claimed the pin"
            ),
            Error::Column { column, source } => write!(
                f,
                "could not read matrix column {column} ({source:?}): check its GPIO number in \
                 the pin map and that no other program or bus (I2C, SPI) has claimed the pin"
            ),
            Error::RowReadBack { row } => write!(
                f,
                "matrix row {row} does not hold the level it is driven to: look for a short to \
                 3.3 V or ground on that row, or a diode fitted the wrong way round"
            ),
        }
    }
}

impl<E: fmt::Debug> std::error::Error for Error<E> {}

#[cfg(test)]
mod tests {
    use super::*;
    use embedded_hal_mock::eh1::delay::{CheckedDelay, Transaction as DelayTx};
    use embedded_hal_mock::eh1::digital::{Mock as PinMock, State, Transaction as PinTx};
    use embedded_hal_mock::eh1::MockError;

    const L: State = State::Low;
    const H: State = State::High;

    fn cell(n: u16) -> SensedCell {
        SensedCell::new(n)
    }

    fn done(rows: &mut [PinMock], cols: &mut [PinMock], delay: &mut CheckedDelay) {
        for p in rows.iter_mut().chain(cols.iter_mut()) {
            p.done();
        }
        delay.done();
    }

    /// A matrix with the default timing on clones of the mocks; the originals keep the
    /// expectations for [`done`].
    fn on_mocks(
        rows: &[PinMock],
        cols: &[PinMock],
        delay: &CheckedDelay,
    ) -> Result<ReedMatrix<PinMock, PinMock, CheckedDelay>, Error<MockError>> {
        ReedMatrix::new(
            rows.to_vec(),
            cols.to_vec(),
            delay.clone(),
            MatrixConfig::default(),
        )
    }

    /// Row pin script: set inactive at init, then per scan select/deselect.
    fn row_script(active: State, inactive: State, scans: usize) -> Vec<PinTx> {
        let mut tx = vec![PinTx::set(inactive)];
        for _ in 0..scans {
            tx.push(PinTx::set(active));
            tx.push(PinTx::set(inactive));
        }
        tx
    }

    #[test]
    fn a_scripted_three_by_two_scan_reads_each_row_in_turn() {
        // Active low. Closed switches: (0,1), (1,0), (2,0), (2,1).
        let mut rows = [
            PinMock::new(&row_script(L, H, 1)),
            PinMock::new(&row_script(L, H, 1)),
            PinMock::new(&row_script(L, H, 1)),
        ];
        let mut cols = [
            PinMock::new(&[PinTx::get(H), PinTx::get(L), PinTx::get(L)]),
            PinMock::new(&[PinTx::get(L), PinTx::get(H), PinTx::get(L)]),
        ];
        let mut delay = CheckedDelay::new(&[
            DelayTx::delay_ns(20_000),
            DelayTx::delay_ns(20_000),
            DelayTx::delay_ns(20_000),
        ]);
        let config = MatrixConfig {
            settle_ns: 20_000,
            ..MatrixConfig::default()
        };
        let mut m = ReedMatrix::new(rows.clone(), cols.clone(), delay.clone(), config).unwrap();
        let grid = m.read_switches().unwrap();
        // Closed: (0,1), (1,0), (2,0), (2,1), row by row.
        let occupied = grid.to_occupancy(&CellMap::identity(6).unwrap());
        assert_eq!(occupied.to_marks(6), ".XX.XX");
        done(&mut rows, &mut cols, &mut delay);
    }

    #[test]
    fn a_full_12_by_10_scan_selects_every_row_once_and_reads_every_column() {
        // A Waterloo-sized board: four set-up rows each side filled, two empty middle rows,
        // one piece in the middle.
        let board = Occupancy::from_marks(
            "XXXXXXXXXX XXXXXXXXXX XXXXXXXXXX XXXXXXXXXX \
             .......... ....X..... \
             XXXXXXXXXX XXXXXXXXXX XXXXXXXXXX XXXXXXXXXX \
             .......... ..........",
        )
        .unwrap();
        let (rows, columns) = (12, 10);
        let mut row_pins: Vec<PinMock> = (0..rows)
            .map(|_| PinMock::new(&row_script(L, H, 1)))
            .collect();
        let mut column_pins: Vec<PinMock> = (0..columns)
            .map(|c| {
                let reads: Vec<PinTx> = (0..rows)
                    .map(|r| {
                        let occupied = board.contains(cell((r * columns + c) as u16));
                        PinTx::get(if occupied { L } else { H })
                    })
                    .collect();
                PinMock::new(&reads)
            })
            .collect();
        let mut delay = CheckedDelay::new(&vec![DelayTx::delay_ns(50_000); rows]);
        let mut m = on_mocks(&row_pins, &column_pins, &delay).unwrap();
        assert_eq!(m.scan().unwrap(), board);
        assert_eq!(m.scan_time_ns(250), 636_000);
        done(&mut row_pins, &mut column_pins, &mut delay);
    }

    #[test]
    fn scan_maps_positions_to_cells_row_major_by_default() {
        // 2 rows x 3 columns, active low, one scan: (0,2) and (1,0) closed.
        let mut rows = [
            PinMock::new(&row_script(L, H, 1)),
            PinMock::new(&row_script(L, H, 1)),
        ];
        let mut cols = [
            PinMock::new(&[PinTx::get(H), PinTx::get(L)]),
            PinMock::new(&[PinTx::get(H), PinTx::get(H)]),
            PinMock::new(&[PinTx::get(L), PinTx::get(H)]),
        ];
        let mut delay = CheckedDelay::new(&[DelayTx::delay_ns(50_000), DelayTx::delay_ns(50_000)]);
        let mut m = on_mocks(&rows, &cols, &delay).unwrap();
        assert_eq!(m.scan().unwrap(), Occupancy::from_cells([cell(2), cell(3)]));
        drop(m.release());
        done(&mut rows, &mut cols, &mut delay);
    }

    #[test]
    fn a_mapping_table_renumbers_and_skips_unwired_positions() {
        // 1 row x 3 columns: position 0 -> cell 40, position 1 unwired, position 2 -> cell 7.
        let mut rows = [PinMock::new(&row_script(L, H, 1))];
        let mut cols = [
            PinMock::new(&[PinTx::get(L)]),
            PinMock::new(&[PinTx::get(L)]),
            PinMock::new(&[PinTx::get(L)]),
        ];
        let mut delay = CheckedDelay::new(&[]);
        let config = MatrixConfig {
            settle_ns: 0,
            cells: Some(CellMap::from_table(vec![Some(cell(40)), None, Some(cell(7))]).unwrap()),
            ..MatrixConfig::default()
        };
        let mut m = ReedMatrix::new(rows.clone(), cols.clone(), delay.clone(), config).unwrap();
        assert_eq!(
            m.scan().unwrap(),
            Occupancy::from_cells([cell(7), cell(40)])
        );
        done(&mut rows, &mut cols, &mut delay);
    }

    #[test]
    fn active_high_drives_the_selected_row_high_and_reads_high_as_closed() {
        let mut rows = [
            PinMock::new(&row_script(H, L, 2)),
            PinMock::new(&row_script(H, L, 2)),
        ];
        // Two scans: first (0,0) closed, then (1,1) closed.
        let mut cols = [
            PinMock::new(&[PinTx::get(H), PinTx::get(L), PinTx::get(L), PinTx::get(L)]),
            PinMock::new(&[PinTx::get(L), PinTx::get(L), PinTx::get(L), PinTx::get(H)]),
        ];
        let mut delay = CheckedDelay::new(&vec![DelayTx::delay_ns(1_000); 4]);
        let config = MatrixConfig {
            active: ActiveLevel::High,
            settle_ns: 1_000,
            cells: None,
        };
        let mut m = ReedMatrix::new(rows.clone(), cols.clone(), delay.clone(), config).unwrap();
        assert_eq!(m.scan().unwrap().to_marks(4), "X...");
        assert_eq!(m.scan().unwrap().to_marks(4), "...X");
        done(&mut rows, &mut cols, &mut delay);
    }

    #[test]
    fn read_back_checks_each_row_before_the_settle_delay() {
        let mut rows = [
            PinMock::new(&[
                PinTx::set(H),
                PinTx::set(L),
                PinTx::get_state(L),
                PinTx::set(H),
            ]),
            PinMock::new(&[
                PinTx::set(H),
                PinTx::set(L),
                PinTx::get_state(L),
                PinTx::set(H),
            ]),
        ];
        let mut cols = [PinMock::new(&[PinTx::get(L), PinTx::get(H)])];
        let mut delay = CheckedDelay::new(&[DelayTx::delay_ns(2_000), DelayTx::delay_ns(2_000)]);
        let config = MatrixConfig {
            settle_ns: 2_000,
            ..MatrixConfig::default()
        };
        let mut m = ReedMatrix::new(rows.clone(), cols.clone(), delay.clone(), config).unwrap();
        assert_eq!(m.scan_with_read_back().unwrap().to_marks(2), "X.");
        done(&mut rows, &mut cols, &mut delay);
    }

    #[test]
    fn a_row_that_does_not_read_back_is_reported_and_deselected() {
        let mut rows = [PinMock::new(&[
            PinTx::set(H),
            PinTx::set(L),
            PinTx::get_state(H),
            PinTx::set(H),
        ])];
        let mut cols = [PinMock::new(&[])];
        let mut delay = CheckedDelay::new(&[]);
        let mut m = on_mocks(&rows, &cols, &delay).unwrap();
        let err = m.scan_with_read_back().unwrap_err();
        assert_eq!(err, Error::RowReadBack { row: 0 });
        assert!(err.to_string().contains("short"));
        done(&mut rows, &mut cols, &mut delay);
    }

    #[test]
    fn a_column_error_is_typed_and_the_row_is_deselected() {
        let broken = MockError::Io(std::io::ErrorKind::BrokenPipe);
        let mut rows = [
            PinMock::new(&row_script(L, H, 1)),
            PinMock::new(&row_script(L, H, 1)),
        ];
        let mut cols = [
            PinMock::new(&[PinTx::get(H), PinTx::get(H)]),
            PinMock::new(&[PinTx::get(H), PinTx::get(H).with_error(broken.clone())]),
        ];
        let mut delay = CheckedDelay::new(&vec![DelayTx::delay_ns(50_000); 2]);
        let mut m = on_mocks(&rows, &cols, &delay).unwrap();
        let err = m.scan().unwrap_err();
        assert_eq!(
            err,
            Error::Column {
                column: 1,
                source: broken
            }
        );
        assert!(err.to_string().contains("column 1"));
        done(&mut rows, &mut cols, &mut delay);
    }

    #[test]
    fn a_row_error_at_init_is_typed() {
        let busy = MockError::Io(std::io::ErrorKind::ResourceBusy);
        let mut rows = [
            PinMock::new(&[PinTx::set(H)]),
            PinMock::new(&[PinTx::set(H).with_error(busy.clone())]),
        ];
        let mut cols = [PinMock::new(&[])];
        let mut delay = CheckedDelay::new(&[]);
        let err = on_mocks(&rows, &cols, &delay).unwrap_err();
        assert_eq!(
            err,
            Error::Row {
                row: 1,
                source: busy
            }
        );
        assert!(err.to_string().contains("row 1"));
        done(&mut rows, &mut cols, &mut delay);
    }

    #[test]
    fn bad_shapes_and_maps_are_refused_before_touching_a_pin() {
        let mut rows = [PinMock::new(&[])];
        let mut cols = [PinMock::new(&[]), PinMock::new(&[])];
        let mut delay = CheckedDelay::new(&[]);
        let no_cols: [PinMock; 0] = [];
        assert_eq!(
            ReedMatrix::new(
                rows.clone(),
                no_cols,
                delay.clone(),
                MatrixConfig::default()
            )
            .unwrap_err(),
            Error::NoPins {
                rows: 1,
                columns: 0
            }
        );
        let config = MatrixConfig {
            cells: Some(CellMap::identity(3).unwrap()),
            ..MatrixConfig::default()
        };
        assert_eq!(
            ReedMatrix::new(rows.clone(), cols.clone(), delay.clone(), config).unwrap_err(),
            Error::CellMap(CellMapError::WrongLength {
                expected: 2,
                got: 3
            })
        );
        done(&mut rows, &mut cols, &mut delay);
    }

    #[test]
    fn cell_maps_refuse_duplicates_and_out_of_range_cells() {
        assert_eq!(
            CellMap::from_table(vec![Some(cell(3)), None, Some(cell(3))]),
            Err(CellMapError::DuplicateCell {
                cell: cell(3),
                first_input: 0,
                second_input: 2
            })
        );
        assert_eq!(
            CellMap::from_table(vec![Some(cell(MAX_CELLS as u16))]),
            Err(CellMapError::CellOutOfRange {
                input: 0,
                cell: cell(MAX_CELLS as u16)
            })
        );
        assert!(CellMap::identity(MAX_CELLS).is_ok());
        assert!(CellMap::identity(MAX_CELLS + 1).is_err());
        let map = CellMap::identity(4).unwrap();
        assert_eq!(map.inputs(), 4);
        assert_eq!(map.cell(3), Some(cell(3)));
        assert_eq!(map.cell(4), None);
    }

    #[test]
    fn the_computed_scan_rate_of_a_12_by_10_matrix_clears_100_hz() {
        // The table in the module docs.
        assert_eq!(scan_time_ns(12, 10, 20_000, 250), 276_000);
        assert_eq!(scans_per_second(276_000), 3623);
        assert_eq!(scan_time_ns(12, 10, 50_000, 250), 636_000);
        assert_eq!(scans_per_second(636_000), 1572);
        // A thread::sleep delay overshooting by 100 µs each time.
        assert_eq!(scan_time_ns(12, 10, 150_000, 250), 1_836_000);
        assert_eq!(scans_per_second(1_836_000), 544);
        // Pi 5: 1 µs per paced op, 10 µs settle, plus one 1 µs read-back per row.
        let pi5 = scan_time_ns(12, 10, 10_000, 1_000) + 12 * 1_000;
        assert_eq!(pi5, 276_000);
        for t in [276_000, 636_000, 1_836_000, pi5] {
            assert!(scans_per_second(t) >= 100);
        }
        assert_eq!(scans_per_second(0), u64::MAX);
    }

    #[test]
    fn the_driver_reports_its_own_scan_time() {
        let rows: Vec<PinMock> = (0..12).map(|_| PinMock::new(&[PinTx::set(H)])).collect();
        let cols: Vec<PinMock> = (0..10).map(|_| PinMock::new(&[])).collect();
        let m =
            ReedMatrix::new(rows, cols, CheckedDelay::new(&[]), MatrixConfig::default()).unwrap();
        assert_eq!((m.rows(), m.columns()), (12, 10));
        assert_eq!(m.scan_time_ns(250), 636_000);
        let (mut rows, mut cols, mut delay) = m.release();
        done(&mut rows, &mut cols, &mut delay);
    }

    /// An electrical model of a matrix, to check what the mocks cannot: that columns are read
    /// while their row (and only it) is selected. Active low. With `posted`, a pin write lands
    /// only when the next write is issued, a delay runs or a pin is read back: the Pi 5 hazard.
    mod model {
        use super::*;
        use core::convert::Infallible;
        use embedded_hal::digital::ErrorType;
        use std::cell::RefCell;
        use std::rc::Rc;

        #[derive(Debug)]
        pub struct Board {
            columns: usize,
            closed: Vec<bool>,
            diodes: bool,
            posted: bool,
            pub row_low: Vec<bool>,
            in_flight: Option<(usize, bool)>,
        }

        impl Board {
            fn land(&mut self) {
                if let Some((row, low)) = self.in_flight.take() {
                    self.row_low[row] = low;
                }
            }

            fn write(&mut self, row: usize, low: bool) {
                self.land();
                if self.posted {
                    self.in_flight = Some((row, low));
                } else {
                    self.row_low[row] = low;
                }
            }

            /// A column reads low if a low row reaches it through closed switches: directly
            /// with diodes, through any chain of closed switches without.
            fn column_low(&self, column: usize) -> bool {
                let rows = self.row_low.len();
                let closed = |r: usize, c: usize| self.closed[r * self.columns + c];
                if self.diodes {
                    return (0..rows).any(|r| self.row_low[r] && closed(r, column));
                }
                let mut seen_columns = vec![false; self.columns];
                let mut seen_rows = vec![false; rows];
                let mut todo = vec![column];
                seen_columns[column] = true;
                while let Some(c) = todo.pop() {
                    let reached: Vec<usize> = (0..rows)
                        .filter(|&r| closed(r, c) && !seen_rows[r])
                        .collect();
                    for r in reached {
                        seen_rows[r] = true;
                        for c2 in (0..self.columns).filter(|&c2| closed(r, c2)) {
                            if !seen_columns[c2] {
                                seen_columns[c2] = true;
                                todo.push(c2);
                            }
                        }
                    }
                }
                (0..rows).any(|r| seen_rows[r] && self.row_low[r])
            }
        }

        pub type Shared = Rc<RefCell<Board>>;

        pub fn board(rows: usize, marks: &str, diodes: bool, posted: bool) -> Shared {
            let o = Occupancy::from_marks(marks).unwrap();
            let columns = marks.split_whitespace().next().unwrap().len();
            Rc::new(RefCell::new(Board {
                columns,
                closed: (0..rows * columns)
                    .map(|i| o.contains(SensedCell::new(i as u16)))
                    .collect(),
                diodes,
                posted,
                row_low: vec![false; rows],
                in_flight: None,
            }))
        }

        #[derive(Debug)]
        pub struct Row(pub Shared, pub usize);
        #[derive(Debug)]
        pub struct Column(pub Shared, pub usize);
        #[derive(Debug)]
        pub struct Delay(pub Shared);

        impl ErrorType for Row {
            type Error = Infallible;
        }
        impl ErrorType for Column {
            type Error = Infallible;
        }
        impl OutputPin for Row {
            fn set_low(&mut self) -> Result<(), Infallible> {
                self.0.borrow_mut().write(self.1, true);
                Ok(())
            }
            fn set_high(&mut self) -> Result<(), Infallible> {
                self.0.borrow_mut().write(self.1, false);
                Ok(())
            }
        }
        impl StatefulOutputPin for Row {
            fn is_set_high(&mut self) -> Result<bool, Infallible> {
                let mut b = self.0.borrow_mut();
                b.land();
                Ok(!b.row_low[self.1])
            }
            fn is_set_low(&mut self) -> Result<bool, Infallible> {
                Ok(!self.is_set_high()?)
            }
        }
        impl InputPin for Column {
            fn is_high(&mut self) -> Result<bool, Infallible> {
                Ok(!self.0.borrow().column_low(self.1))
            }
            fn is_low(&mut self) -> Result<bool, Infallible> {
                Ok(self.0.borrow().column_low(self.1))
            }
        }
        impl DelayNs for Delay {
            fn delay_ns(&mut self, _: u32) {
                self.0.borrow_mut().land();
            }
        }

        pub fn matrix(
            board: &Shared,
            rows: usize,
            settle_ns: u32,
        ) -> ReedMatrix<Row, Column, Delay> {
            let columns = board.borrow().columns;
            ReedMatrix::new(
                (0..rows).map(|r| Row(board.clone(), r)).collect::<Vec<_>>(),
                (0..columns)
                    .map(|c| Column(board.clone(), c))
                    .collect::<Vec<_>>(),
                Delay(board.clone()),
                MatrixConfig {
                    settle_ns,
                    ..MatrixConfig::default()
                },
            )
            .unwrap()
        }
    }

    const CROWDED: &str = "XX.X X.XX .XX. XXXX";

    #[test]
    fn with_diodes_every_square_reads_true_however_crowded() {
        let board = model::board(4, CROWDED, true, false);
        let mut m = model::matrix(&board, 4, 1_000);
        assert_eq!(m.scan().unwrap(), Occupancy::from_marks(CROWDED).unwrap());
        // Every row is deselected after the scan.
        assert!(board.borrow().row_low.iter().all(|low| !low));
    }

    #[test]
    fn without_diodes_a_closed_rectangle_corner_ghosts() {
        // (0,0), (0,1), (1,0) closed; (1,1) empty but reads closed through the other three.
        let board = model::board(2, "XX X.", false, false);
        let mut m = model::matrix(&board, 2, 1_000);
        let grid = m.read_switches().unwrap();
        assert_eq!(
            grid.to_occupancy(&CellMap::identity(4).unwrap())
                .to_marks(4),
            "XXXX"
        );
    }

    #[test]
    fn posted_writes_without_a_delay_or_read_back_give_a_wrong_board() {
        let truth = Occupancy::from_marks(CROWDED).unwrap();
        // No settle delay: every column read overtakes the row write (the Pi 5 hazard).
        let board = model::board(4, CROWDED, true, true);
        let mut m = model::matrix(&board, 4, 0);
        assert_ne!(m.scan().unwrap(), truth);
        // A settle delay lets each write land before the columns are read.
        let board = model::board(4, CROWDED, true, true);
        let mut m = model::matrix(&board, 4, 10_000);
        assert_eq!(m.scan().unwrap(), truth);
        // So does reading each row back, even with no delay at all.
        let board = model::board(4, CROWDED, true, true);
        let mut m = model::matrix(&board, 4, 0);
        assert_eq!(m.scan_with_read_back().unwrap(), truth);
        // And a scanner can be told to read back.
        let board = model::board(4, CROWDED, true, true);
        let mut scanner = WithReadBack(model::matrix(&board, 4, 0));
        assert_eq!(scanner.read_occupancy().unwrap(), truth);
    }

    /// A two-row, one-column matrix on a bench that knows the circuit: row 0's diode is fitted
    /// backwards (anode to the row), row 1's correctly, and both reeds are closed. The bench
    /// records every moment one row drives high while the other drives low: through row 0's
    /// reversed diode, the column and row 1's diode, that is a short between two Pi pins.
    mod bench {
        use super::*;
        use std::cell::RefCell;
        use std::convert::Infallible;
        use std::rc::Rc;

        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Drive {
            High,
            Low,
            Released,
        }

        #[derive(Debug, Default)]
        pub struct Bench {
            rows: [Option<Drive>; 2],
            pub shorts: usize,
            pub driven_inactive: usize,
        }

        impl Bench {
            fn set(&mut self, row: usize, drive: Drive) {
                self.rows[row] = Some(drive);
                if drive == Drive::High {
                    self.driven_inactive += 1;
                }
                if self.rows == [Some(Drive::High), Some(Drive::Low)] {
                    self.shorts += 1;
                }
            }

            /// The column: pulled up, pulled low through row 1's diode when row 1 is low.
            fn column_high(&self) -> bool {
                self.rows[1] != Some(Drive::Low)
            }
        }

        #[derive(Debug)]
        pub struct Row(pub Rc<RefCell<Bench>>, pub usize);

        impl ErrorType for Row {
            type Error = Infallible;
        }

        /// Push-pull, as the rows were before: set_high drives high.
        impl OutputPin for Row {
            fn set_low(&mut self) -> Result<(), Infallible> {
                self.0.borrow_mut().set(self.1, Drive::Low);
                Ok(())
            }
            fn set_high(&mut self) -> Result<(), Infallible> {
                self.0.borrow_mut().set(self.1, Drive::High);
                Ok(())
            }
        }

        impl ReleasablePin for Row {
            fn drive(&mut self, state: PinState) -> Result<(), Infallible> {
                match state {
                    PinState::Low => self.set_low(),
                    PinState::High => self.set_high(),
                }
            }
            fn release(&mut self) -> Result<(), Infallible> {
                self.0.borrow_mut().set(self.1, Drive::Released);
                Ok(())
            }
            fn level_is_high(&mut self) -> Result<bool, Infallible> {
                Ok(self.0.borrow().rows[self.1] != Some(Drive::Low))
            }
        }

        #[derive(Debug)]
        pub struct Column(pub Rc<RefCell<Bench>>);

        impl ErrorType for Column {
            type Error = Infallible;
        }

        impl InputPin for Column {
            fn is_high(&mut self) -> Result<bool, Infallible> {
                Ok(self.0.borrow().column_high())
            }
            fn is_low(&mut self) -> Result<bool, Infallible> {
                Ok(!self.0.borrow().column_high())
            }
        }
    }

    use std::cell::RefCell;
    use std::rc::Rc;

    use crate::sim::NoDelay;

    /// The finding: push-pull rows (the old Pi backend) short two pins through one reversed
    /// diode on every scan. The bench shows it, so this test fails if rows are push-pull.
    #[test]
    fn push_pull_rows_short_two_pins_through_a_reversed_diode() {
        let bench = Rc::new(RefCell::new(bench::Bench::default()));
        let rows = [bench::Row(bench.clone(), 0), bench::Row(bench.clone(), 1)];
        let mut matrix = ReedMatrix::new(
            rows,
            [bench::Column(bench.clone())],
            NoDelay,
            MatrixConfig::default(),
        )
        .unwrap();
        matrix.scan().unwrap();
        assert!(bench.borrow().shorts > 0, "{:?}", bench.borrow());
    }

    #[test]
    fn open_drain_rows_never_drive_a_deselected_row_so_nothing_can_short() {
        let bench = Rc::new(RefCell::new(bench::Bench::default()));
        let rows = [0, 1]
            .map(|r| OpenDrainRow::new(bench::Row(bench.clone(), r), ActiveLevel::Low).unwrap());
        let mut matrix = ReedMatrix::new(
            rows,
            [bench::Column(bench.clone())],
            NoDelay,
            MatrixConfig::default(),
        )
        .unwrap();
        // Row 1's square reads; row 0's reversed diode makes its square dead, not a short.
        assert_eq!(matrix.scan().unwrap(), Occupancy::from_cells([cell(1)]));
        assert_eq!(
            matrix.scan_with_read_back().unwrap(),
            Occupancy::from_cells([cell(1)])
        );
        let bench = bench.borrow();
        assert_eq!((bench.shorts, bench.driven_inactive), (0, 0), "{bench:?}");
    }

    #[test]
    fn an_open_drain_row_drives_only_the_active_level_and_reads_the_pin_back() {
        let bench = Rc::new(RefCell::new(bench::Bench::default()));
        let mut high = OpenDrainRow::new(bench::Row(bench.clone(), 1), ActiveLevel::High).unwrap();
        high.set_low().unwrap(); // inactive: released
        assert!(high.is_set_high().unwrap());
        high.set_high().unwrap(); // active: driven high
        assert_eq!(bench.borrow().driven_inactive, 1);
        let mut low = OpenDrainRow::new(bench::Row(bench.clone(), 0), ActiveLevel::Low).unwrap();
        low.set_low().unwrap();
        assert!(low.is_set_low().unwrap());
        low.set_high().unwrap();
        assert!(!low.is_set_low().unwrap());
        drop(low.into_inner());
    }
}
