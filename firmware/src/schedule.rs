//! The scan loop's one clock: scan `k` is due at `start + k x 1000 / hz` ms, a fixed grid from
//! the start, whatever each step costs.
//!
//! A step that runs late (a full OLED redraw, a journal sync, NFC reads) does not push the later
//! scans back: the next scan is still the next slot of the grid. A step late by more than a
//! period skips the slots it missed and says how many ([`Due::missed`]); it never scans in a
//! burst to catch up (the board has not changed in between, and a burst would make the loop
//! later still), and the next slot is always after the time polled. The grid counts in
//! milliseconds with the rate's remainder carried, so 150 Hz scans exactly 150 times a second
//! (slots 6 or 7 ms apart), not 1000 / 6 = 166.
//!
//! No clock inside: the time is passed in, so the schedule is tested by stepping time.
//!
//! ```
//! use firmware::schedule::{Due, ScanSchedule};
//! use firmware::sensing::Millis;
//!
//! let mut scans = ScanSchedule::new(Millis(0), 100).unwrap();
//! assert_eq!(scans.poll(Millis(3)), Some(Due { slot: Millis(0), missed: 0 }));
//! assert_eq!(scans.poll(Millis(9)), None);
//! // A late step scans once, in the grid's slot: the next is still at 20, not 23.
//! assert_eq!(scans.poll(Millis(13)), Some(Due { slot: Millis(10), missed: 0 }));
//! assert_eq!(scans.next_due(), Millis(20));
//! // A stall of 45 ms: one scan, four slots missed, the next slot after it.
//! assert_eq!(scans.poll(Millis(65)), Some(Due { slot: Millis(60), missed: 4 }));
//! assert_eq!(scans.next_due(), Millis(70));
//! ```

use std::fmt;

use crate::sensing::Millis;

/// The fastest scan rate: the service's clock counts milliseconds, so two scans cannot be due
/// in one millisecond.
pub const MAX_SCAN_HZ: u32 = 1000;

/// A scan rate the schedule cannot keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanRateError {
    /// No scans at all.
    Zero,
    /// More scans a second than the millisecond clock can tell apart.
    TooFast {
        /// The rate asked for.
        hz: u32,
    },
}

impl fmt::Display for ScanRateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScanRateError::Zero => write!(
                f,
                "a scan rate of 0 Hz never scans: set [board] scan_hz to 100 or more"
            ),
            ScanRateError::TooFast { hz } => write!(
                f,
                "a scan rate of {hz} Hz is faster than the service's millisecond clock: set \
                 [board] scan_hz to {MAX_SCAN_HZ} or less"
            ),
        }
    }
}

impl std::error::Error for ScanRateError {}

/// A scan the schedule says to take now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Due {
    /// The slot this scan fills: the latest at or before the time polled.
    pub slot: Millis,
    /// Slots since the last scan that got none, because the loop was late by more than a
    /// period; they are skipped, not made up.
    pub missed: u64,
}

/// Scans on a fixed grid from a start time (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScanSchedule {
    start: Millis,
    hz: u32,
    /// The index of the next slot to scan.
    next: u64,
}

impl ScanSchedule {
    /// A schedule of `hz` scans a second whose first slot is `start`.
    ///
    /// # Errors
    /// `hz` is 0 or above [`MAX_SCAN_HZ`].
    pub fn new(start: Millis, hz: u32) -> Result<ScanSchedule, ScanRateError> {
        match hz {
            0 => Err(ScanRateError::Zero),
            hz if hz > MAX_SCAN_HZ => Err(ScanRateError::TooFast { hz }),
            hz => Ok(ScanSchedule { start, hz, next: 0 }),
        }
    }

    /// Scans a second.
    pub fn hz(&self) -> u32 {
        self.hz
    }

    /// When the next scan is due: a slot of the grid, after every time polled so far.
    pub fn next_due(&self) -> Millis {
        self.slot(self.next)
    }

    /// Whether a scan is due at `now`, and which: the latest slot at or before `now`. The next
    /// slot is then the first after `now`, so a late step never leads to a burst of scans.
    pub fn poll(&mut self, now: Millis) -> Option<Due> {
        if now < self.next_due() {
            return None;
        }
        let latest = self.latest_at(now).max(self.next);
        let due = Due {
            slot: self.slot(latest),
            missed: latest - self.next,
        };
        self.next = latest.saturating_add(1);
        Some(due)
    }

    /// Slot `k`: `start + floor(k x 1000 / hz)` ms, saturating at the end of time.
    fn slot(&self, k: u64) -> Millis {
        let offset = u128::from(k) * 1000 / u128::from(self.hz);
        Millis(u64::try_from(offset).map_or(u64::MAX, |o| self.start.0.saturating_add(o)))
    }

    /// The index of the latest slot at or before `now` (`now` at or after `start`):
    /// `floor(k x 1000 / hz) <= e` exactly when `k x 1000 < (e + 1) x hz`.
    fn latest_at(&self, now: Millis) -> u64 {
        let elapsed = u128::from(now.since(self.start));
        let k = ((elapsed + 1) * u128::from(self.hz) - 1) / 1000;
        u64::try_from(k).unwrap_or(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator for jitter (xorshift), so the tests need no crate.
    struct Jitter(u64);
    impl Jitter {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    /// The service's loop, modelled: it sleeps until the next slot, wakes up to `wake_ms`
    /// late, and its step costs up to `work_ms` more. Returns when each scan was taken.
    fn run_loop(
        hz: u32,
        periods: u64,
        wake_ms: u64,
        work_ms: u64,
        seed: u64,
    ) -> (ScanSchedule, Vec<Millis>) {
        let mut scans = ScanSchedule::new(Millis(1_000), hz).unwrap();
        let mut jitter = Jitter(seed);
        let mut taken = Vec::new();
        let mut now = Millis(1_000);
        let end = 1_000 + periods * 1000 / u64::from(hz);
        while now.0 < end {
            if let Some(due) = scans.poll(now) {
                assert_eq!(due.missed, 0, "a late wake-up under a period is no miss");
                taken.push(now);
                now = Millis(now.0 + jitter.below(work_ms + 1));
            }
            assert!(scans.next_due() > now, "the next slot is never in the past");
            let wake = scans.next_due().0.max(now.0 + 1);
            now = Millis(wake + jitter.below(wake_ms + 1));
        }
        (scans, taken)
    }

    /// Ten thousand periods at 100 Hz with the loop waking up to 4 ms late and each step
    /// costing up to 4 ms: every scan is taken within 4 ms of its own slot, so 10,000 periods
    /// give 10,000 scans. On the old `now + period` schedule each scan's lateness pushed every
    /// later one back: about a sixth fewer scans, the loop drifting by seconds (next test).
    #[test]
    fn the_grid_does_not_drift_over_thousands_of_jittery_periods() {
        let (scans, taken) = run_loop(100, 10_000, 4, 4, 0x9E37_79B9_7F4A_7C15);
        assert_eq!(taken.len(), 10_000);
        for (k, at) in taken.iter().enumerate() {
            let slot = 1_000 + 10 * k as u64;
            assert!(
                (slot..=slot + 4).contains(&at.0),
                "scan {k} at {at}, its slot at {slot} ms"
            );
        }
        assert_eq!(scans.next_due(), Millis(1_000 + 100_000));
    }

    /// The model of the old schedule drifts under the same jitter: the test above can fail.
    #[test]
    fn the_old_schedule_from_now_drifts_under_the_same_jitter() {
        let mut jitter = Jitter(0x9E37_79B9_7F4A_7C15);
        let (mut now, mut next, mut taken) = (1_000u64, 1_000u64, 0u32);
        while now < 1_000 + 100_000 {
            if now >= next {
                next = now + 10;
                taken += 1;
                now += jitter.below(5);
            }
            now = next.max(now + 1) + jitter.below(5);
        }
        assert!(taken < 9_000, "{taken} scans in 10,000 periods");
    }

    /// 150 Hz does not divide a second into whole milliseconds: the slots are 6 or 7 ms apart
    /// and a minute holds exactly 9,000 scans (a 6 ms period would scan 10,000 times).
    #[test]
    fn a_rate_that_does_not_divide_a_second_keeps_its_rate() {
        let (scans, taken) = run_loop(150, 9_000, 0, 0, 1);
        assert_eq!(taken.len(), 9_000);
        assert!(taken
            .windows(2)
            .all(|w| (6..=7).contains(&w[1].since(w[0]))));
        assert_eq!(scans.next_due(), Millis(1_000 + 60_000));
    }

    /// A step late by more than a period scans once, says how many slots it missed, and the
    /// next scan is the next slot after it: no burst, and on the grid again.
    #[test]
    fn missed_slots_are_counted_and_skipped_without_a_burst() {
        let mut scans = ScanSchedule::new(Millis(100), 200).unwrap();
        assert_eq!(scans.poll(Millis(99)), None, "nothing before the start");
        assert_eq!(
            scans.poll(Millis(100)),
            Some(Due {
                slot: Millis(100),
                missed: 0
            })
        );
        // A 27 ms OLED redraw: slots 105..=125 due, 125 scanned, 105 to 120 missed.
        assert_eq!(
            scans.poll(Millis(127)),
            Some(Due {
                slot: Millis(125),
                missed: 4
            })
        );
        assert_eq!(scans.poll(Millis(127)), None);
        assert_eq!(scans.poll(Millis(129)), None);
        assert_eq!(scans.next_due(), Millis(130));
        assert_eq!(
            scans.poll(Millis(130)),
            Some(Due {
                slot: Millis(130),
                missed: 0
            })
        );
        // Late by exactly a period: the slot it was late for is missed.
        assert_eq!(
            scans.poll(Millis(140)),
            Some(Due {
                slot: Millis(140),
                missed: 1
            })
        );
    }

    /// Over random stalls up to a second, every poll leaves the next slot after the time
    /// polled, and the scans plus the misses account for every slot passed.
    #[test]
    fn every_slot_is_scanned_or_counted_missed_and_none_is_scheduled_in_the_past() {
        for hz in [100, 150, 200, 333, 1000] {
            let mut scans = ScanSchedule::new(Millis(7), hz).unwrap();
            let mut jitter = Jitter(u64::from(hz) * 7919);
            let (mut now, mut taken, mut missed, mut last) = (7u64, 0u64, 0u64, 0u64);
            for _ in 0..5_000 {
                if let Some(due) = scans.poll(Millis(now)) {
                    assert!(due.slot <= Millis(now));
                    taken += 1;
                    missed += due.missed;
                    last = now;
                }
                assert!(scans.next_due() > Millis(now), "{hz} Hz at {now}");
                now += if jitter.below(50) == 0 {
                    jitter.below(1_000)
                } else {
                    jitter.below(8)
                };
            }
            // Every slot up to the last scan, counted one by one.
            let passed = (0..).take_while(|&k| scans.slot(k) <= Millis(last)).count();
            assert_eq!(taken + missed, passed as u64, "{hz} Hz");
        }
    }

    #[test]
    fn rates_the_clock_cannot_keep_are_refused_with_the_fix() {
        assert_eq!(ScanSchedule::new(Millis(0), 0), Err(ScanRateError::Zero));
        let too_fast = ScanSchedule::new(Millis(0), 1001).unwrap_err();
        assert_eq!(too_fast, ScanRateError::TooFast { hz: 1001 });
        assert!(too_fast.to_string().contains("scan_hz to 1000 or less"));
        let fastest = ScanSchedule::new(Millis(0), MAX_SCAN_HZ).unwrap();
        assert_eq!(fastest.hz(), MAX_SCAN_HZ);
    }

    /// The end of time saturates instead of overflowing.
    #[test]
    fn the_end_of_time_saturates() {
        let mut scans = ScanSchedule::new(Millis(u64::MAX - 5), 100).unwrap();
        assert!(scans.poll(Millis(u64::MAX - 5)).is_some());
        assert_eq!(scans.next_due(), Millis(u64::MAX));
        assert!(scans.poll(Millis(u64::MAX)).is_some());
        assert_eq!(scans.next_due(), Millis(u64::MAX));
    }
}
