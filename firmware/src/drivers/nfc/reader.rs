//! Voting over a few reads of one cell: the rule [`ReaderBank`](super::ReaderBank) reads by,
//! so one flaky read (no answer, a garbled answer, a neighbour's tag) is outvoted.

use core::fmt;

use crate::sensing::{TagFailure, TagUid};

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

/// Reads with `read` up to `voting.attempts` times and decides: the UID `quorum` reads
/// agreed on; otherwise [`TagFailure::Collision`] if two different UIDs were read (two tags in
/// reach), [`TagFailure::Garbled`] if one UID was read too few times, else the most frequent
/// failure (ties go to the reader, then collisions, then garbles). The message of the last
/// reader fault goes to `last_fault`.
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
    use super::*;

    fn uid(last: u8) -> TagUid {
        TagUid::new(&[0x04, 0xA2, 0x1B, 0x7C, 0x33, 0x5E, last]).unwrap()
    }

    /// Votes with `voting` over reads returning `outcomes` in turn; all outcomes must be used.
    fn vote(voting: Voting, outcomes: &[Result<TagUid, TagFailure>]) -> Result<TagUid, TagFailure> {
        let mut left = outcomes.iter().copied();
        let result = super::vote(voting, &mut None, || {
            left.next().expect("one read too many")
        });
        assert_eq!(left.len(), 0, "reads left");
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
        let single = Voting {
            attempts: 1,
            quorum: 1,
        };
        assert_eq!(vote(single, &[Ok(uid(3))]), Ok(uid(3)));
        assert_eq!(vote(single, &[Err(Collision)]), Err(Collision));
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
    fn reader_faults_are_kept_for_the_log() {
        let mut last_fault = None;
        let result = super::vote(Voting::DEFAULT, &mut last_fault, || {
            Err::<TagUid, _>(ReaderFault)
        });
        assert_eq!(result, Err(ReaderFault));
        assert!(last_fault.unwrap().contains("wiring and power"));
    }
}
