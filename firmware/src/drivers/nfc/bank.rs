//! Several MFRC522 modules, each under its own region of the board, one awake at a time.
//!
//! - [`ReaderBank`]: maps each sensed cell to the reader under its region, wakes that reader
//!   (the others stay in soft power-down, so one antenna field is on and the 3.3 V budget
//!   holds), lists every tag in its field ([`Mfrc522Ready::inventory`]) and answers with the
//!   one tag that was **not** there at the region's previous read: the piece just placed. The
//!   lists are voted on like single reads ([`Voting`]).
//! - [`SelectDecoder`] and [`DecodedDevice`]: the modules share one SPI bus and one kernel chip
//!   select (CE0), which enables a 74HC154 (or 74HC138) decoder; GPIO address lines pick the
//!   decoder output, which drives one module's NSS (SDA) low. Each [`DecodedDevice`] is an
//!   embedded-hal [`SpiDevice`] that sets the address before each transaction, so every module
//!   gets its own [`Mfrc522`](super::Mfrc522) and its own initialisation.
//!
//! Why the diff: a module's PCB antenna reaches tags over about its own footprint, larger than
//! one square, so a region holds several pieces and their tags all answer; the occupancy sensor
//! says *where* a piece was placed and the reader only has to say *which* tag is new there.
//! A lift takes the lifted piece's tag (the one identified on that cell) out of the region's
//! baseline ([`ReaderBank::lifted`]), so a piece moved within its region, or gone and back,
//! reads as new again. What it still cannot tell: a piece standing since start-up, never
//! identified, moved within its region reads as [`TagFailure::NotNew`] (tags answered, none
//! new), which says nothing of whether a piece stands there; an empty field is
//! [`TagFailure::NoTag`].

use core::cell::RefCell;
use core::fmt;
use std::rc::Rc;

use embedded_hal::delay::DelayNs;
use embedded_hal::digital::OutputPin;
use embedded_hal::spi::{self, Operation, SpiDevice};

use super::mfrc522::{Error, Mfrc522Ready};
use super::reader::{vote, Voting};
use crate::sensing::{Millis, SensedCell, SensorInput, TagFailure, TagRead, TagUid};

/// A reader a [`ReaderBank`] can drive: sleep, wake, list the tags in its field.
pub trait BankReader {
    /// Why an operation failed; says what to check and which [`TagFailure`] it is.
    type Error: fmt::Display + Into<TagFailure>;

    /// Leaves soft power-down (the field comes on at the next inventory).
    ///
    /// # Errors
    /// A reader fault.
    fn wake(&mut self) -> Result<(), Self::Error>;

    /// Enters soft power-down: the field goes off.
    ///
    /// # Errors
    /// A reader fault.
    fn power_down(&mut self) -> Result<(), Self::Error>;

    /// Every tag in the field.
    ///
    /// # Errors
    /// A reader fault or a garbled answer.
    fn inventory(&mut self) -> Result<Vec<TagUid>, Self::Error>;
}

impl<SPI: SpiDevice, D: DelayNs> BankReader for Mfrc522Ready<SPI, D> {
    type Error = Error<SPI::Error>;

    fn wake(&mut self) -> Result<(), Self::Error> {
        Mfrc522Ready::wake(self)
    }

    fn power_down(&mut self) -> Result<(), Self::Error> {
        Mfrc522Ready::power_down(self)
    }

    fn inventory(&mut self) -> Result<Vec<TagUid>, Self::Error> {
        Mfrc522Ready::inventory(self)
    }
}

/// Why a bank's regions were refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BankError {
    /// No readers.
    NoReaders,
    /// Reader `reader` (0-based) has no cells.
    EmptyRegion {
        /// The reader.
        reader: usize,
    },
    /// `cell` is in the regions of two readers.
    CellTwice {
        /// The cell.
        cell: SensedCell,
        /// The first reader (0-based).
        first: usize,
        /// The second.
        second: usize,
    },
}

impl fmt::Display for BankError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BankError::NoReaders => f.write_str("the NFC bank has no readers: list them in [nfc]"),
            BankError::EmptyRegion { reader } => write!(
                f,
                "NFC reader {} has no squares: give each [[nfc.reader]] its cells",
                reader + 1
            ),
            BankError::CellTwice {
                cell,
                first,
                second,
            } => write!(
                f,
                "{cell} is under NFC readers {} and {}: give each square one reader",
                first + 1,
                second + 1
            ),
        }
    }
}

impl std::error::Error for BankError {}

/// Readers under regions of the board, read by the diff of what is in their fields.
///
/// ```
/// use firmware::drivers::nfc::{BankReader, ReaderBank, Voting};
/// use firmware::sensing::{SensedCell, TagFailure, TagUid};
///
/// /// A reader whose field holds `tags`.
/// struct Field(Vec<TagUid>);
/// impl BankReader for Field {
///     type Error = TagFailure;
///     fn wake(&mut self) -> Result<(), TagFailure> { Ok(()) }
///     fn power_down(&mut self) -> Result<(), TagFailure> { Ok(()) }
///     fn inventory(&mut self) -> Result<Vec<TagUid>, TagFailure> { Ok(self.0.clone()) }
/// }
///
/// let old = TagUid::new(&[4, 1, 2, 3, 4, 5, 6])?;
/// let new = TagUid::new(&[4, 9, 9, 9, 9, 9, 9])?;
/// let region = vec![SensedCell::new(0), SensedCell::new(1)];
/// let mut bank = ReaderBank::new(vec![(Field(vec![old]), region)], Voting::DEFAULT)?;
/// bank.start(); // what is there now is the baseline
/// bank.readers_mut()[0].0 .0.push(new); // a piece is placed on cell 1
/// assert_eq!(bank.read_cell(SensedCell::new(1)), Ok(new));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Only initialised readers make a bank that reads: uninitialised ones do not compile.
///
/// ```compile_fail
/// use embedded_hal_mock::eh1::delay::NoopDelay;
/// use embedded_hal_mock::eh1::spi::Mock;
/// use firmware::drivers::nfc::{Mfrc522, ReaderBank, Voting};
/// use firmware::sensing::SensedCell;
///
/// let reader = Mfrc522::new(Mock::<u8>::new(&[]), NoopDelay::new());
/// let mut bank = ReaderBank::new(vec![(reader, vec![SensedCell::new(0)])], Voting::DEFAULT)
///     .unwrap(); // Mfrc522 is not a BankReader: only Mfrc522Ready is
/// let _ = bank.read_cell(SensedCell::new(0));
/// ```
#[derive(Debug)]
pub struct ReaderBank<R> {
    readers: Vec<R>,
    regions: Vec<Vec<SensedCell>>,
    /// The tags in each reader's field at its last read (the baseline of the next).
    present: Vec<Vec<TagUid>>,
    /// The tag identified on each cell, until a piece is lifted from it.
    on_cell: std::collections::BTreeMap<SensedCell, TagUid>,
    voting: Voting,
    last_fault: Option<String>,
}

impl<R: BankReader> ReaderBank<R> {
    /// A bank of `readers`, each with the cells of its region, voting by `voting`. Nothing is
    /// sent until [`ReaderBank::start`] or the first read.
    ///
    /// # Errors
    /// No readers, a reader without cells, a cell under two readers.
    pub fn new(readers: Vec<(R, Vec<SensedCell>)>, voting: Voting) -> Result<Self, BankError> {
        if readers.is_empty() {
            return Err(BankError::NoReaders);
        }
        let (readers, regions): (Vec<R>, Vec<Vec<SensedCell>>) = readers.into_iter().unzip();
        for (i, region) in regions.iter().enumerate() {
            if region.is_empty() {
                return Err(BankError::EmptyRegion { reader: i });
            }
            for &cell in region {
                if let Some(first) = regions[..i].iter().position(|r| r.contains(&cell)) {
                    return Err(BankError::CellTwice {
                        cell,
                        first,
                        second: i,
                    });
                }
            }
        }
        let present = vec![Vec::new(); readers.len()];
        Ok(ReaderBank {
            readers,
            regions,
            present,
            on_cell: std::collections::BTreeMap::new(),
            voting,
            last_fault: None,
        })
    }

    /// Takes every reader's baseline, one at a time (wake, inventory, power down), so that the
    /// pieces standing on the board at start-up are not taken for new ones. Returns the faults
    /// as (reader, message); a reader that failed starts from an empty baseline.
    pub fn start(&mut self) -> Vec<(usize, String)> {
        let mut faults = Vec::new();
        for i in 0..self.readers.len() {
            match self.list(i) {
                Ok(tags) => self.present[i] = tags,
                Err(e) => faults.push((i, e)),
            }
        }
        faults
    }

    /// Wakes reader `i`, lists its field, powers it down again.
    fn list(&mut self, i: usize) -> Result<Vec<TagUid>, String> {
        let reader = self.readers.get_mut(i).ok_or("no such reader")?;
        reader.wake().map_err(|e| e.to_string())?;
        let tags = reader.inventory().map_err(|e| e.to_string());
        let down = reader.power_down().map_err(|e| e.to_string());
        let tags = tags?;
        down?;
        Ok(tags)
    }

    /// The reader (0-based) whose region holds `cell`.
    pub fn reader_of(&self, cell: SensedCell) -> Option<usize> {
        self.regions.iter().position(|r| r.contains(&cell))
    }

    /// The readers with their regions: how a test changes what a simulated reader's field
    /// holds (as the [`ReaderBank`] example does).
    pub fn readers_mut(&mut self) -> Vec<(&mut R, &[SensedCell])> {
        self.readers
            .iter_mut()
            .zip(self.regions.iter().map(Vec::as_slice))
            .collect()
    }

    /// Gives back the readers.
    pub fn into_readers(self) -> Vec<R> {
        self.readers
    }

    /// A piece left `cell`: the tag identified there leaves its region's baseline, so the
    /// piece reads as new wherever in the region it is put down again. Sends nothing.
    pub fn lifted(&mut self, cell: SensedCell) {
        let (Some(uid), Some(i)) = (self.on_cell.remove(&cell), self.reader_of(cell)) else {
            return;
        };
        if let Some(before) = self.present.get_mut(i) {
            before.retain(|t| *t != uid);
        }
    }

    /// What the last reader fault said, for the log.
    pub fn last_fault(&self) -> Option<&str> {
        self.last_fault.as_deref()
    }

    /// Identifies the piece just placed on `cell`: wakes the reader of its region, lists its
    /// field up to [`Voting::attempts`] times, and takes the one tag not in the region's
    /// previous list; the list read becomes the next baseline. The reader is powered down
    /// after.
    ///
    /// # Errors
    /// [`TagFailure::NoTag`] when no tag answers at all, [`TagFailure::NotNew`] when tags
    /// answer but none is new (see the module docs), [`TagFailure::Collision`] when more than
    /// one is new (two pieces placed in
    /// one region at once), [`TagFailure::ReaderFault`] when the cell has no reader or the
    /// reader failed, as the [`Voting`] decides otherwise.
    pub fn read_cell(&mut self, cell: SensedCell) -> Result<TagUid, TagFailure> {
        let Some(i) = self.reader_of(cell) else {
            self.last_fault = Some(format!(
                "{cell} has no NFC reader under it: add it to a [[nfc.reader]] cells list"
            ));
            return Err(TagFailure::ReaderFault);
        };
        let (Some(reader), Some(before)) = (self.readers.get_mut(i), self.present.get_mut(i))
        else {
            return Err(TagFailure::ReaderFault);
        };
        if let Err(e) = reader.wake() {
            self.last_fault = Some(e.to_string());
            return Err(TagFailure::ReaderFault);
        }
        let mut latest: Option<Vec<TagUid>> = None;
        let result = vote(self.voting, &mut self.last_fault, || {
            let now = reader.inventory().map_err(Listing::Reader)?;
            let new: Vec<TagUid> = now
                .iter()
                .filter(|t| !before.contains(t))
                .copied()
                .collect();
            let empty = now.is_empty();
            latest = Some(now);
            match new[..] {
                [uid] => Ok(uid),
                [] if empty => Err(Listing::Empty),
                [] => Err(Listing::NothingNew),
                _ => Err(Listing::SeveralNew),
            }
        });
        if let Some(now) = latest {
            *before = now;
        }
        if let Ok(uid) = result {
            self.on_cell.retain(|_, t| *t != uid);
            self.on_cell.insert(cell, uid);
        }
        if let Err(e) = reader.power_down() {
            self.last_fault = Some(e.to_string());
            return Err(TagFailure::ReaderFault);
        }
        result
    }

    /// Reads each of `cells` (see [`ReaderBank::read_cell`]), stamped `now`. Afterwards
    /// [`ReaderBank::last_fault`] says what went wrong in this batch, or nothing.
    pub fn read_cells(&mut self, cells: &[SensedCell], now: Millis) -> Vec<SensorInput> {
        self.last_fault = None;
        cells
            .iter()
            .map(|&cell| {
                SensorInput::Tag(TagRead {
                    at: now,
                    cell,
                    result: self.read_cell(cell),
                })
            })
            .collect()
    }
}

/// Why a bank of readers could not be started: which reader, and what it said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartError {
    /// The reader, 0-based (decoder output).
    pub reader: usize,
    /// What went wrong, with what to check.
    pub message: String,
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "NFC reader {}: {}", self.reader + 1, self.message)
    }
}

impl std::error::Error for StartError {}

/// Puts every reader in soft power-down, then initialises them one at a time
/// ([`Mfrc522::init`](super::Mfrc522::init): reset wait, settings, antenna on, read back) and
/// puts each back in soft power-down at once, so only one reader runs and one field is ever on,
/// builds the bank over their regions and takes each region's baseline. What the service reads
/// tags through: a [`ReaderBank`] of [`Mfrc522Ready`], never of uninitialised readers.
///
/// # Errors
/// The first reader that fails to initialise or to power down, or regions that overlap.
pub fn start_bank<SPI: SpiDevice, D: DelayNs>(
    readers: Vec<(super::Mfrc522<SPI, D>, Vec<SensedCell>)>,
    voting: Voting,
) -> Result<ReaderBank<Mfrc522Ready<SPI, D>>, StartError> {
    let mut readers = readers;
    for (i, (reader, _)) in readers.iter_mut().enumerate() {
        reader.power_down().map_err(|e| StartError {
            reader: i,
            message: e.to_string(),
        })?;
    }
    let mut ready = Vec::with_capacity(readers.len());
    for (i, (reader, region)) in readers.into_iter().enumerate() {
        let fail = |e: Error<SPI::Error>| StartError {
            reader: i,
            message: e.to_string(),
        };
        let mut reader = reader.init().map_err(fail)?;
        reader.power_down().map_err(fail)?;
        ready.push((reader, region));
    }
    let mut bank = ReaderBank::new(ready, voting).map_err(|e| StartError {
        reader: 0,
        message: e.to_string(),
    })?;
    if let Some((reader, message)) = bank.start().into_iter().next() {
        return Err(StartError { reader, message });
    }
    Ok(bank)
}

/// One listing's outcome when it does not name one new tag.
enum Listing<E> {
    Reader(E),
    /// No tag answered at all.
    Empty,
    /// Tags answered, all of them there before.
    NothingNew,
    SeveralNew,
}

impl<E: fmt::Display> fmt::Display for Listing<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Listing::Reader(e) => e.fmt(f),
            Listing::Empty => f.write_str("no tag in the region's field"),
            Listing::NothingNew => f.write_str("no new tag in the region's field"),
            Listing::SeveralNew => f.write_str("more than one new tag in the region's field"),
        }
    }
}

impl<E: Into<TagFailure>> From<Listing<E>> for TagFailure {
    fn from(l: Listing<E>) -> TagFailure {
        match l {
            Listing::Reader(e) => e.into(),
            Listing::Empty => TagFailure::NoTag,
            Listing::NothingNew => TagFailure::NotNew,
            Listing::SeveralNew => TagFailure::Collision,
        }
    }
}

/// One SPI bus and chip select shared by several modules through an address decoder (74HC154:
/// 4 lines, 16 outputs; 74HC138: 3 lines, 8): the kernel's chip select enables the decoder,
/// the address lines pick the output, and so the module.
#[derive(Debug)]
pub struct SelectDecoder<SPI, P> {
    spi: SPI,
    address: Vec<P>,
    selected: Option<u8>,
}

/// Why a decoder was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecoderError {
    /// More outputs asked for than the address lines reach.
    TooManyOutputs {
        /// Outputs asked for.
        outputs: usize,
        /// Address lines.
        lines: usize,
    },
}

impl fmt::Display for DecoderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecoderError::TooManyOutputs { outputs, lines } => write!(
                f,
                "{outputs} NFC readers need more than the {lines} decoder address lines reach \
                 ({}): add address lines or remove readers",
                1usize << (*lines).min(16)
            ),
        }
    }
}

impl std::error::Error for DecoderError {}

impl<SPI: SpiDevice, P: OutputPin> SelectDecoder<SPI, P> {
    /// Splits `spi` into `outputs` devices, one per decoder output, addressed by `address`
    /// (A0 first). No pin is driven until the first transaction.
    ///
    /// # Errors
    /// More outputs than `2^lines`.
    pub fn split(
        spi: SPI,
        address: Vec<P>,
        outputs: usize,
    ) -> Result<Vec<DecodedDevice<SPI, P>>, DecoderError> {
        if address.len() >= usize::BITS as usize || outputs > 1usize << address.len() {
            return Err(DecoderError::TooManyOutputs {
                outputs,
                lines: address.len(),
            });
        }
        let bus = Rc::new(RefCell::new(SelectDecoder {
            spi,
            address,
            selected: None,
        }));
        Ok((0..outputs)
            .filter_map(|o| u8::try_from(o).ok())
            .map(|output| DecodedDevice {
                bus: Rc::clone(&bus),
                output,
            })
            .collect())
    }

    fn select(&mut self, output: u8) -> Result<(), P::Error> {
        if self.selected == Some(output) {
            return Ok(());
        }
        // Until every line is set the decoder points nowhere known.
        self.selected = None;
        for (i, line) in self.address.iter_mut().enumerate() {
            if (output >> i) & 1 == 1 {
                line.set_high()?;
            } else {
                line.set_low()?;
            }
        }
        self.selected = Some(output);
        Ok(())
    }
}

/// One module behind a [`SelectDecoder`]: an [`SpiDevice`] that points the decoder at its
/// output before each transaction. The address only changes while the kernel's chip select is
/// high (between transactions), so no module sees a half-set address while selected.
#[derive(Debug)]
pub struct DecodedDevice<SPI, P> {
    bus: Rc<RefCell<SelectDecoder<SPI, P>>>,
    output: u8,
}

/// A [`DecodedDevice`]'s error: the bus, or an address line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodedError<S, P> {
    /// The SPI bus failed.
    Spi(S),
    /// Setting a decoder address line failed.
    Pin(P),
    /// The shared bus was already in use (a transaction inside a transaction).
    Busy,
}

impl<S: spi::Error, P: fmt::Debug> spi::Error for DecodedError<S, P> {
    fn kind(&self) -> spi::ErrorKind {
        match self {
            DecodedError::Spi(e) => e.kind(),
            DecodedError::Pin(_) | DecodedError::Busy => spi::ErrorKind::ChipSelectFault,
        }
    }
}

impl<SPI: SpiDevice, P: OutputPin> spi::ErrorType for DecodedDevice<SPI, P> {
    type Error = DecodedError<SPI::Error, P::Error>;
}

impl<SPI: SpiDevice, P: OutputPin> SpiDevice for DecodedDevice<SPI, P> {
    fn transaction(&mut self, operations: &mut [Operation<'_, u8>]) -> Result<(), Self::Error> {
        let mut bus = self.bus.try_borrow_mut().map_err(|_| DecodedError::Busy)?;
        bus.select(self.output).map_err(DecodedError::Pin)?;
        bus.spi.transaction(operations).map_err(DecodedError::Spi)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use embedded_hal_mock::eh1::digital::{Mock as PinMock, State, Transaction as PinTx};
    use embedded_hal_mock::eh1::spi::{Mock as SpiMock, Transaction as SpiTx};

    use super::*;

    fn uid(last: u8) -> TagUid {
        TagUid::new(&[0x04, 0x11, 0x22, 0x33, 0x44, 0x55, last]).unwrap()
    }

    fn cells(ns: &[u16]) -> Vec<SensedCell> {
        ns.iter().copied().map(SensedCell::new).collect()
    }

    /// A reader whose successive listings are scripted; it logs every call.
    #[derive(Debug, Default)]
    struct Script {
        listings: VecDeque<Result<Vec<TagUid>, TagFailure>>,
        log: Vec<&'static str>,
    }

    impl Script {
        fn new(listings: &[Result<Vec<TagUid>, TagFailure>]) -> Script {
            Script {
                listings: listings.iter().cloned().collect(),
                log: Vec::new(),
            }
        }
    }

    impl BankReader for Script {
        type Error = TagFailure;
        fn wake(&mut self) -> Result<(), TagFailure> {
            self.log.push("wake");
            Ok(())
        }
        fn power_down(&mut self) -> Result<(), TagFailure> {
            self.log.push("down");
            Ok(())
        }
        fn inventory(&mut self) -> Result<Vec<TagUid>, TagFailure> {
            self.log.push("list");
            self.listings.pop_front().expect("one listing too many")
        }
    }

    #[test]
    fn the_new_tag_in_the_region_is_the_piece_placed_and_only_its_reader_wakes() {
        let a = Script::new(&[
            Ok(vec![uid(1)]),
            Ok(vec![uid(1), uid(2)]),
            Ok(vec![uid(2), uid(1)]),
        ]);
        let b = Script::new(&[Ok(vec![])]);
        let mut bank = ReaderBank::new(
            vec![(a, cells(&[0, 1])), (b, cells(&[2, 3]))],
            Voting::DEFAULT,
        )
        .unwrap();
        assert!(bank.start().is_empty());
        assert_eq!(bank.read_cell(SensedCell::new(1)), Ok(uid(2)));
        let readers = bank.into_readers();
        assert_eq!(
            readers[0].log,
            ["wake", "list", "down", "wake", "list", "list", "down"]
        );
        assert_eq!(readers[1].log, ["wake", "list", "down"], "b only at start");
    }

    #[test]
    fn nothing_new_is_no_tag_and_two_new_tags_are_a_collision() {
        let a = Script::new(&[
            Ok(vec![uid(1)]),
            // A piece moved within the region: nothing new.
            Ok(vec![uid(1)]),
            Ok(vec![uid(1)]),
            // Two pieces placed at once.
            Ok(vec![uid(1), uid(2), uid(3)]),
            Ok(vec![uid(1), uid(2), uid(3)]),
            // Then one more: the baseline is the last listing.
            Ok(vec![uid(1), uid(2), uid(3), uid(4)]),
            Ok(vec![uid(1), uid(2), uid(3), uid(4)]),
        ]);
        let mut bank = ReaderBank::new(vec![(a, cells(&[0, 1, 2]))], Voting::DEFAULT).unwrap();
        bank.start();
        assert_eq!(bank.read_cell(SensedCell::new(0)), Err(TagFailure::NotNew));
        assert_eq!(
            bank.read_cell(SensedCell::new(1)),
            Err(TagFailure::Collision)
        );
        assert_eq!(bank.read_cell(SensedCell::new(2)), Ok(uid(4)));
    }

    /// The review's finding: a piece moved within its region, or gone and back, read as "no
    /// new tag" for ever (its tag stayed in the baseline), and the referee, taking that for a
    /// ghost, refused the move at every try. A lift now takes the piece's tag out of the
    /// baseline; an empty field is the only `NoTag`.
    #[test]
    fn a_piece_moved_within_its_region_or_back_into_it_is_read_again() {
        let a = Script::new(&[
            Ok(vec![]),
            // Placed on cell 0: new.
            Ok(vec![uid(1)]),
            Ok(vec![uid(1)]),
            // Lifted from 0 and put on 1, same region: new again.
            Ok(vec![uid(1)]),
            Ok(vec![uid(1)]),
            // Lifted from 1, gone a while (no read), back on 0: new again.
            Ok(vec![uid(1)]),
            Ok(vec![uid(1)]),
            // An empty field: no piece there at all.
            Ok(vec![]),
            Ok(vec![]),
        ]);
        let mut bank = ReaderBank::new(vec![(a, cells(&[0, 1]))], Voting::DEFAULT).unwrap();
        bank.start();
        assert_eq!(bank.read_cell(SensedCell::new(0)), Ok(uid(1)));
        bank.lifted(SensedCell::new(0));
        assert_eq!(bank.read_cell(SensedCell::new(1)), Ok(uid(1)));
        bank.lifted(SensedCell::new(1));
        assert_eq!(bank.read_cell(SensedCell::new(0)), Ok(uid(1)));
        bank.lifted(SensedCell::new(0));
        assert_eq!(bank.read_cell(SensedCell::new(1)), Err(TagFailure::NoTag));
    }

    #[test]
    fn a_cell_without_a_reader_and_a_failing_reader_are_reader_faults() {
        let a = Script::new(&[Err(TagFailure::ReaderFault), Err(TagFailure::ReaderFault)]);
        let mut bank = ReaderBank::new(vec![(a, cells(&[0]))], Voting::DEFAULT).unwrap();
        assert_eq!(
            bank.read_cell(SensedCell::new(5)),
            Err(TagFailure::ReaderFault)
        );
        assert!(bank.last_fault().unwrap().contains("[[nfc.reader]]"));
        assert_eq!(
            bank.read_cell(SensedCell::new(0)),
            Err(TagFailure::ReaderFault)
        );
    }

    #[test]
    fn regions_must_be_disjoint_and_not_empty() {
        let err = ReaderBank::new(
            vec![
                (Script::default(), cells(&[0, 1])),
                (Script::default(), cells(&[1])),
            ],
            Voting::DEFAULT,
        )
        .unwrap_err();
        assert_eq!(
            err,
            BankError::CellTwice {
                cell: SensedCell::new(1),
                first: 0,
                second: 1
            }
        );
        assert!(err.to_string().contains("readers 1 and 2"));
        assert_eq!(
            ReaderBank::new(vec![(Script::default(), vec![])], Voting::DEFAULT).unwrap_err(),
            BankError::EmptyRegion { reader: 0 }
        );
        assert_eq!(
            ReaderBank::<Script>::new(vec![], Voting::DEFAULT).unwrap_err(),
            BankError::NoReaders
        );
    }

    #[test]
    fn the_decoder_address_is_set_before_each_module_transaction_and_only_when_it_changes() {
        let spi = SpiMock::new(&[
            SpiTx::transaction_start(),
            SpiTx::write_vec(vec![0x02, 0x10]),
            SpiTx::transaction_end(),
            SpiTx::transaction_start(),
            SpiTx::write_vec(vec![0x02, 0x10]),
            SpiTx::transaction_end(),
            SpiTx::transaction_start(),
            SpiTx::write_vec(vec![0x02, 0x00]),
            SpiTx::transaction_end(),
        ]);
        // Output 2 (A0 low, A1 high), output 2 again (no pin), then output 1.
        let a0 = PinMock::new(&[PinTx::set(State::Low), PinTx::set(State::High)]);
        let a1 = PinMock::new(&[PinTx::set(State::High), PinTx::set(State::Low)]);
        let mut devices =
            SelectDecoder::split(spi.clone(), vec![a0.clone(), a1.clone()], 3).unwrap();
        assert_eq!(devices.len(), 3);
        devices[2].write(&[0x02, 0x10]).unwrap();
        devices[2].write(&[0x02, 0x10]).unwrap();
        devices[1].write(&[0x02, 0x00]).unwrap();
        drop(devices);
        for mut pin in [a0, a1] {
            pin.done();
        }
        let mut spi = spi;
        spi.done();
    }

    #[test]
    fn more_modules_than_the_address_lines_reach_are_refused() {
        let spi = SpiMock::new(&[]);
        let a0 = PinMock::new(&[]);
        let err = SelectDecoder::split(spi.clone(), vec![a0.clone()], 3).unwrap_err();
        assert_eq!(
            err,
            DecoderError::TooManyOutputs {
                outputs: 3,
                lines: 1
            }
        );
        assert!(err.to_string().contains("address lines"));
        let (mut spi, mut a0) = (spi, a0);
        spi.done();
        a0.done();
    }
}
