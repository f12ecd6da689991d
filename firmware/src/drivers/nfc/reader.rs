//! The reader front end: read the cells the sensing model asks about, vote over a few
//! attempts, and hand back [`SensorInput::Tag`] values.

use core::fmt;

use embedded_hal::delay::DelayNs;
use embedded_hal::spi::SpiDevice;

use super::mfrc522::{Error, Mfrc522Ready};
use crate::sensing::{Millis, SensedCell, SensorInput, TagFailure, TagRead, TagUid};

/// A reader that can read the UID of the one tag on its antenna. Implemented by
/// [`Mfrc522Ready`], never by the uninitialised [`Mfrc522`](super::Mfrc522).
pub trait ReadTag {
    /// Why a read failed; it says what to check, and which [`TagFailure`] it is.
    type Error: fmt::Display + Into<TagFailure>;

    /// Reads the UID of the tag on the antenna, leaving the tag ready to be read again.
    ///
    /// # Errors
    /// No tag, more than one, a garbled answer, or a reader fault.
    fn read_tag(&mut self) -> Result<TagUid, Self::Error>;
}

impl<SPI: SpiDevice, D: DelayNs> ReadTag for Mfrc522Ready<SPI, D> {
    type Error = Error<SPI::Error>;

    /// [`Mfrc522Ready::read_uid`]: WUPA, select through the cascade levels, HLTA.
    fn read_tag(&mut self) -> Result<TagUid, Self::Error> {
        self.read_uid()
    }
}

/// How many reads of one cell to try, and how many must agree.
///
/// A UID is believed once `quorum` reads have returned it. Reading stops as soon as that
/// happens, or as soon as no UID can reach the quorum in the attempts left, so a clean tag costs
/// `quorum` reads and an empty antenna `attempts - quorum + 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Voting {
    /// Reads at most (0 counts as 1).
    pub attempts: u8,
    /// Agreeing reads needed (clamped to 1..=attempts).
    pub quorum: u8,
}

impl Voting {
    /// The default: 2 of at most 3 reads must agree. One flaky read (no answer, a garbled
    /// answer, a neighbour's tag) is outvoted; a clean NTAG costs 2 reads (about 20 ms), an
    /// empty antenna 2 timeouts (about 5 ms).
    pub const DEFAULT: Voting = Voting {
        attempts: 3,
        quorum: 2,
    };

    /// One read, believed as it is.
    pub const SINGLE: Voting = Voting {
        attempts: 1,
        quorum: 1,
    };

    /// The attempts and quorum actually used: attempts at least 1, quorum in 1..=attempts.
    pub fn effective(self) -> (u8, u8) {
        let attempts = self.attempts.max(1);
        (attempts, self.quorum.clamp(1, attempts))
    }
}

impl Default for Voting {
    fn default() -> Self {
        Voting::DEFAULT
    }
}

/// Failure kinds in order of precedence when attempts disagree and tie: the reader first (its
/// fault hides everything else), then collisions, garbles, a region with nothing new, and an
/// empty antenna last.
const PRECEDENCE: [TagFailure; 5] = [
    TagFailure::ReaderFault,
    TagFailure::Collision,
    TagFailure::Garbled,
    TagFailure::NotNew,
    TagFailure::NoTag,
];

/// Reads tags under sensed cells through one reader whose antenna every cell shares (an
/// identify pad, a test rig): reads, votes. A board with a reader under each region uses
/// [`ReaderBank`](super::ReaderBank).
///
/// ```
/// use firmware::drivers::nfc::{ReadTag, TagReader, Voting};
/// use firmware::sensing::{Millis, SensedCell, SensorInput, TagFailure, TagUid};
///
/// /// A reader that always finds the same tag.
/// struct Always(TagUid);
/// impl ReadTag for Always {
///     type Error = TagFailure;
///     fn read_tag(&mut self) -> Result<TagUid, TagFailure> {
///         Ok(self.0)
///     }
/// }
///
/// let uid = TagUid::new(&[0x04, 0xA2, 0x1B, 0x7C, 0x33, 0x5E, 0x80])?;
/// let mut reader = TagReader::new(Always(uid), Voting::DEFAULT);
/// let inputs = reader.read_cells(&[SensedCell::new(7)], Millis(1_000));
/// let [SensorInput::Tag(read)] = inputs[..] else { panic!("one tag read") };
/// assert_eq!((read.cell, read.result, read.at), (SensedCell::new(7), Ok(uid), Millis(1_000)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct TagReader<R> {
    reader: R,
    voting: Voting,
    last_fault: Option<String>,
}

impl<R: ReadTag> TagReader<R> {
    /// A front end reading through `reader`, voting by `voting`.
    pub fn new(reader: R, voting: Voting) -> Self {
        TagReader {
            reader,
            voting,
            last_fault: None,
        }
    }

    /// The voting rule in use.
    pub fn voting(&self) -> Voting {
        self.voting
    }

    /// What the last reader fault said, for the log: the
    /// [`TagFailure::ReaderFault`] handed to the sensing model carries no detail.
    pub fn last_fault(&self) -> Option<&str> {
        self.last_fault.as_deref()
    }

    /// Gives back the reader.
    pub fn into_inner(self) -> R {
        self.reader
    }

    /// Reads each of `cells` in turn (those [`Sensing::tag_reads_wanted`] names: cells whose
    /// occupancy just changed) and reports one [`SensorInput::Tag`] per cell, in the same order.
    ///
    /// Every read is stamped `now`: the reader has no clock, the reads take milliseconds (see
    /// the [module docs](super)), far below the settle window, and the sensing model only needs
    /// stamps that do not go backwards. Pass the time the cells were asked for.
    ///
    /// [`Sensing::tag_reads_wanted`]: crate::sensing::Sensing::tag_reads_wanted
    pub fn read_cells(&mut self, cells: &[SensedCell], now: Millis) -> Vec<SensorInput> {
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

    /// Reads `cell` up to [`Voting::attempts`] times.
    ///
    /// # Errors
    /// When no UID reached the quorum: [`TagFailure::Collision`] if two different UIDs were
    /// read (two tags in reach), [`TagFailure::Garbled`] if one UID was read too few times,
    /// otherwise the most frequent failure (ties go to the reader, then collisions, then
    /// garbles).
    pub fn read_cell(&mut self, _cell: SensedCell) -> Result<TagUid, TagFailure> {
        let reader = &mut self.reader;
        vote(self.voting, &mut self.last_fault, || reader.read_tag())
    }
}

/// Reads with `read` up to `voting.attempts` times and decides (see [`TagReader::read_cell`]);
/// the message of the last reader fault goes to `last_fault`.
pub(crate) fn vote<E: fmt::Display + Into<TagFailure>>(
    voting: Voting,
    last_fault: &mut Option<String>,
    mut read: impl FnMut() -> Result<TagUid, E>,
) -> Result<TagUid, TagFailure> {
    let (attempts, quorum) = voting.effective();
    let mut uids: Vec<(TagUid, u8)> = Vec::new();
    let mut failures = [0u8; PRECEDENCE.len()];
    for done in 1..=attempts {
        match read() {
            Ok(uid) => {
                let votes = match uids.iter_mut().find(|(u, _)| *u == uid) {
                    Some((_, votes)) => {
                        *votes += 1;
                        *votes
                    }
                    None => {
                        uids.push((uid, 1));
                        1
                    }
                };
                if votes >= quorum {
                    return Ok(uid);
                }
            }
            Err(e) => {
                let message = e.to_string();
                let failure: TagFailure = e.into();
                if failure == TagFailure::ReaderFault {
                    *last_fault = Some(message);
                }
                if let Some(i) = PRECEDENCE.iter().position(|f| *f == failure) {
                    if let Some(count) = failures.get_mut(i) {
                        *count += 1;
                    }
                }
            }
        }
        let best = uids.iter().map(|(_, votes)| *votes).max().unwrap_or(0);
        if best + (attempts - done) < quorum {
            break;
        }
    }
    Err(match uids.len() {
        0 => most_frequent(&failures),
        1 => TagFailure::Garbled,
        _ => TagFailure::Collision,
    })
}

/// The failure counted most often, ties going to the earlier in [`PRECEDENCE`].
fn most_frequent(counts: &[u8; PRECEDENCE.len()]) -> TagFailure {
    let mut best = (0u8, TagFailure::NoTag);
    for (count, failure) in counts.iter().zip(PRECEDENCE) {
        if *count > best.0 {
            best = (*count, failure);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use super::*;

    /// A scripted reader: hands out the listed outcomes in turn.
    struct Scripted {
        outcomes: VecDeque<Result<TagUid, TagFailure>>,
    }

    impl Scripted {
        fn new(outcomes: &[Result<TagUid, TagFailure>]) -> Self {
            Scripted {
                outcomes: outcomes.iter().copied().collect(),
            }
        }

        fn done(&self) {
            assert!(self.outcomes.is_empty(), "reads left: {:?}", self.outcomes);
        }
    }

    impl ReadTag for Scripted {
        type Error = TagFailure;
        fn read_tag(&mut self) -> Result<TagUid, TagFailure> {
            self.outcomes.pop_front().expect("one read too many")
        }
    }

    fn uid(last: u8) -> TagUid {
        TagUid::new(&[0x04, 0xA2, 0x1B, 0x7C, 0x33, 0x5E, last]).unwrap()
    }

    /// Reads one cell with `voting` over `outcomes`; all outcomes must be used.
    fn vote(voting: Voting, outcomes: &[Result<TagUid, TagFailure>]) -> Result<TagUid, TagFailure> {
        let mut reader = TagReader::new(Scripted::new(outcomes), voting);
        let result = reader.read_cell(SensedCell::new(0));
        reader.into_inner().done();
        result
    }

    use TagFailure::{Collision, Garbled, NoTag, ReaderFault};

    #[test]
    fn two_agreeing_reads_are_believed_without_a_third() {
        assert_eq!(vote(Voting::DEFAULT, &[Ok(uid(1)), Ok(uid(1))]), Ok(uid(1)));
    }

    #[test]
    fn two_of_three_agree_over_a_flaky_read() {
        assert_eq!(
            vote(Voting::DEFAULT, &[Ok(uid(1)), Err(Garbled), Ok(uid(1))]),
            Ok(uid(1))
        );
        assert_eq!(
            vote(Voting::DEFAULT, &[Err(NoTag), Ok(uid(1)), Ok(uid(1))]),
            Ok(uid(1))
        );
        // A neighbour's tag read once is outvoted.
        assert_eq!(
            vote(Voting::DEFAULT, &[Ok(uid(2)), Ok(uid(1)), Ok(uid(1))]),
            Ok(uid(1))
        );
    }

    #[test]
    fn two_different_tags_without_a_majority_are_a_collision() {
        assert_eq!(
            vote(Voting::DEFAULT, &[Ok(uid(1)), Ok(uid(2)), Err(NoTag)]),
            Err(Collision)
        );
    }

    #[test]
    fn one_read_of_three_is_not_enough() {
        assert_eq!(
            vote(Voting::DEFAULT, &[Ok(uid(1)), Err(NoTag), Err(NoTag)]),
            Err(Garbled)
        );
    }

    #[test]
    fn an_empty_antenna_costs_two_reads_not_three() {
        assert_eq!(vote(Voting::DEFAULT, &[Err(NoTag), Err(NoTag)]), Err(NoTag));
        assert_eq!(
            vote(Voting::DEFAULT, &[Err(Garbled), Err(NoTag)]),
            Err(Garbled),
            "a tie goes to the more telling failure"
        );
        assert_eq!(
            vote(Voting::DEFAULT, &[Err(ReaderFault), Err(ReaderFault)]),
            Err(ReaderFault)
        );
    }

    #[test]
    fn five_reads_need_three_votes() {
        let voting = Voting {
            attempts: 5,
            quorum: 3,
        };
        assert_eq!(
            vote(
                voting,
                &[Ok(uid(1)), Err(NoTag), Ok(uid(1)), Err(Garbled), Ok(uid(1))]
            ),
            Ok(uid(1))
        );
        assert_eq!(
            vote(voting, &[Err(NoTag), Err(NoTag), Err(Collision)]),
            Err(NoTag)
        );
    }

    #[test]
    fn single_reads_are_believed_and_odd_settings_are_clamped() {
        assert_eq!(vote(Voting::SINGLE, &[Ok(uid(3))]), Ok(uid(3)));
        assert_eq!(vote(Voting::SINGLE, &[Err(Collision)]), Err(Collision));
        let zero = Voting {
            attempts: 0,
            quorum: 0,
        };
        assert_eq!(zero.effective(), (1, 1));
        assert_eq!(vote(zero, &[Ok(uid(3))]), Ok(uid(3)));
        let impossible = Voting {
            attempts: 2,
            quorum: 9,
        };
        assert_eq!(impossible.effective(), (2, 2));
        assert_eq!(Voting::default(), Voting::DEFAULT);
    }

    #[test]
    fn read_cells_reports_every_cell_in_order_stamped_now() {
        let outcomes = [Ok(uid(1)), Ok(uid(1)), Err(NoTag), Err(NoTag)];
        let mut reader = TagReader::new(Scripted::new(&outcomes), Voting::DEFAULT);
        let cells = [SensedCell::new(14), SensedCell::new(3)];
        let inputs = reader.read_cells(&cells, Millis(5_000));
        assert_eq!(
            inputs,
            vec![
                SensorInput::Tag(TagRead {
                    at: Millis(5_000),
                    cell: SensedCell::new(14),
                    result: Ok(uid(1)),
                }),
                SensorInput::Tag(TagRead {
                    at: Millis(5_000),
                    cell: SensedCell::new(3),
                    result: Err(NoTag),
                }),
            ]
        );
        assert_eq!(reader.read_cells(&[], Millis(5_001)), vec![]);
        assert_eq!(reader.last_fault(), None);
        reader.into_inner().done();
    }

    #[test]
    fn feeds_the_sensing_model_the_reads_it_wants() {
        use crate::sensing::{
            BoardEvent, LayoutSetup, Occupancy, OccupancyFrame, Sensing, SensingConfig,
        };

        let layout = LayoutSetup::grid(5, 1)
            .with_tag_readers_everywhere()
            .validate()
            .unwrap();
        let mut sensing = Sensing::new(layout, SensingConfig::default());
        // A flaky first read, then two good ones: 2 of 3 agree.
        let outcomes = [Err(Garbled), Ok(uid(9)), Ok(uid(9))];
        let mut reader = TagReader::new(Scripted::new(&outcomes), Voting::DEFAULT);
        let mut events = Vec::new();
        for t in (0..=300).step_by(10) {
            let occupied = Occupancy::from_marks("..X..").unwrap();
            events.extend(sensing.feed(OccupancyFrame {
                at: Millis(t),
                occupied,
            }));
            let wanted = sensing.tag_reads_wanted();
            for input in reader.read_cells(&wanted, Millis(t)) {
                events.extend(sensing.feed(input));
            }
        }
        let placed: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                BoardEvent::Placed { cell, tag, .. } => Some((*cell, *tag)),
                _ => None,
            })
            .collect();
        assert_eq!(placed, vec![(SensedCell::new(2), Some(uid(9)))]);
        reader.into_inner().done();
    }

    #[test]
    fn reader_faults_are_kept_for_the_log() {
        let mut reader = TagReader::new(
            Scripted::new(&[Err(ReaderFault), Err(ReaderFault)]),
            Voting::DEFAULT,
        );
        assert_eq!(reader.read_cell(SensedCell::new(0)), Err(ReaderFault));
        assert!(reader.last_fault().unwrap().contains("wiring and power"));
        reader.into_inner().done();
    }
}
