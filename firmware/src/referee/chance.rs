//! Chance the umpire owns (a battle die, a card draw, a line of retreat): OS entropy in play, a
//! seed in tests. The outcome is journaled, never the seed alone (`docs/design.md`), so a game
//! replays from its journal whatever source rolled it.

use core::fmt;

/// A source of uniform random numbers.
pub trait Chance {
    /// A number uniformly drawn from `0..n` (0 when `n` is 0).
    ///
    /// # Errors
    /// [`ChanceError`] when the source cannot give a number (the OS entropy source failed).
    fn roll(&mut self, n: u32) -> Result<u32, ChanceError>;
}

/// The entropy source failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChanceError(pub String);

impl fmt::Display for ChanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the random source failed ({}): restart the umpire; if it persists, check the OS \
             entropy source (/dev/urandom)",
            self.0
        )
    }
}

impl std::error::Error for ChanceError {}

/// A seeded, reproducible source (SplitMix64): for tests, scenarios and the simulator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeededChance {
    state: u64,
}

impl SeededChance {
    /// The source fixed by `seed`: the same seed gives the same rolls.
    pub const fn new(seed: u64) -> SeededChance {
        SeededChance { state: seed }
    }

    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl Chance for SeededChance {
    fn roll(&mut self, n: u32) -> Result<u32, ChanceError> {
        uniform(n, || Ok(self.next_u64()))
    }
}

/// The operating system's entropy source (`getrandom`): what the umpire rolls with in play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OsChance;

impl Chance for OsChance {
    fn roll(&mut self, n: u32) -> Result<u32, ChanceError> {
        uniform(n, || {
            let mut bytes = [0u8; 8];
            getrandom::fill(&mut bytes).map_err(|e| ChanceError(e.to_string()))?;
            Ok(u64::from_le_bytes(bytes))
        })
    }
}

/// A uniform draw from `0..n` by rejection sampling, so no face is favoured.
fn uniform(n: u32, mut next: impl FnMut() -> Result<u64, ChanceError>) -> Result<u32, ChanceError> {
    if n <= 1 {
        return Ok(0);
    }
    let n = u64::from(n);
    // The largest multiple of n that fits: draws at or above it would favour low faces.
    let zone = u64::MAX - (u64::MAX % n);
    loop {
        let x = next()?;
        if x < zone {
            return Ok(u32::try_from(x % n).unwrap_or(0));
        }
    }
}

/// Picks one of `outcomes` with probability proportional to its weight, as
/// [`Game::chance_outcomes`](boards::Game::chance_outcomes) lists them; `None` when the list is
/// empty or every weight is 0.
///
/// # Errors
/// The source's [`ChanceError`].
pub fn pick_weighted<A: Clone>(
    chance: &mut (impl Chance + ?Sized),
    outcomes: &[(A, u32)],
) -> Result<Option<A>, ChanceError> {
    let total: u64 = outcomes.iter().map(|(_, w)| u64::from(*w)).sum();
    let Ok(total) = u32::try_from(total) else {
        return Ok(None);
    };
    if total == 0 {
        return Ok(None);
    }
    let mut r = chance.roll(total)?;
    for (a, w) in outcomes {
        if r < *w {
            return Ok(Some(a.clone()));
        }
        r -= w;
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_repeats_and_stays_in_range() {
        let mut a = SeededChance::new(7);
        let mut b = SeededChance::new(7);
        let xs: Vec<u32> = (0..100).map(|_| a.roll(6).unwrap()).collect();
        let ys: Vec<u32> = (0..100).map(|_| b.roll(6).unwrap()).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().all(|&x| x < 6));
        // Every face turns up in 100 rolls of a fair die.
        for face in 0..6 {
            assert!(xs.contains(&face), "face {face}");
        }
        assert_eq!(a.roll(0), Ok(0));
        assert_eq!(a.roll(1), Ok(0));
    }

    #[test]
    fn the_os_source_rolls_in_range() {
        let mut os = OsChance;
        for _ in 0..50 {
            assert!(os.roll(6).unwrap() < 6);
        }
    }

    #[test]
    fn weights_are_respected() {
        let mut c = SeededChance::new(1);
        let outcomes = [("never", 0), ("always", 3)];
        for _ in 0..20 {
            assert_eq!(pick_weighted(&mut c, &outcomes).unwrap(), Some("always"));
        }
        assert_eq!(pick_weighted::<u8>(&mut c, &[]).unwrap(), None);
        let mut counts = [0; 2];
        let two = [(0usize, 1), (1usize, 3)];
        for _ in 0..4000 {
            counts[pick_weighted(&mut c, &two).unwrap().unwrap()] += 1;
        }
        assert!((800..1200).contains(&counts[0]), "{counts:?}");
    }
}
