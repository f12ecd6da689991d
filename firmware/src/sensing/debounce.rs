//! Scan-level filtering of one switch: debounce and chatter detection.

use super::Millis;

/// The scan-level rules, taken from [`SensingConfig`](super::SensingConfig).
#[derive(Clone, Copy, Debug)]
pub(super) struct ScanRule {
    /// Consecutive scans that must agree on a new reading (0 counts as 1).
    pub samples: u8,
    /// How long, first to last, those scans must span.
    pub span_ms: u32,
    /// A gap this long between two changes of the raw reading starts a new count of changes.
    pub quiet_ms: u32,
    /// Raw changes without such a gap that make the switch chattering (0: never).
    pub chatter_limit: u8,
}

/// What one scan did to a switch's filtered state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ScanOutcome {
    /// The debounced reading changed.
    pub flipped: bool,
    /// The switch has just been found chattering.
    pub chatter_started: bool,
}

/// The scan-level state of one switch.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ScanCell {
    /// The last raw reading.
    raw: bool,
    /// The debounced reading.
    stable: bool,
    /// How many consecutive scans have read the opposite of `stable`.
    run: u8,
    /// When the first of those scans was taken.
    run_start: Millis,
    /// Raw changes since the last quiet gap.
    changes: u8,
    /// When the raw reading last changed.
    last_change: Option<Millis>,
    /// Whether the switch has changed `chatter_limit` times without a quiet gap.
    chattering: bool,
}

impl ScanCell {
    /// A switch never scanned: open, no history.
    pub const NEW: ScanCell = ScanCell {
        raw: false,
        stable: false,
        run: 0,
        run_start: Millis(0),
        changes: 0,
        last_change: None,
        chattering: false,
    };

    /// A switch already read closed and believed so, with no history: a piece that stood on it
    /// at boot (see [`Sensing::standing`](super::Sensing::standing)).
    pub const CLOSED: ScanCell = ScanCell {
        raw: true,
        stable: true,
        ..ScanCell::NEW
    };

    /// The debounced reading: whether a piece stands on the switch.
    pub fn stable(&self) -> bool {
        self.stable
    }

    /// Whether the switch chatters: it changed too often without a quiet gap, and has not
    /// changed since after one.
    pub fn chattering(&self) -> bool {
        self.chattering
    }

    /// Takes one scan's reading of the switch.
    pub fn sample(&mut self, raw: bool, at: Millis, rule: &ScanRule) -> ScanOutcome {
        let mut out = ScanOutcome::default();
        if raw != self.raw {
            self.raw = raw;
            if self
                .last_change
                .is_some_and(|last| at.since(last) >= u64::from(rule.quiet_ms))
            {
                self.changes = 0;
                self.chattering = false;
            }
            self.changes = self.changes.saturating_add(1);
            self.last_change = Some(at);
            if rule.chatter_limit > 0 && self.changes >= rule.chatter_limit && !self.chattering {
                self.chattering = true;
                out.chatter_started = true;
            }
        }
        if raw == self.stable {
            self.run = 0;
        } else {
            if self.run == 0 {
                self.run_start = at;
            }
            self.run = self.run.saturating_add(1);
            if self.run >= rule.samples.max(1)
                && at.since(self.run_start) >= u64::from(rule.span_ms)
            {
                self.stable = raw;
                self.run = 0;
                out.flipped = true;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULE: ScanRule = ScanRule {
        samples: 3,
        span_ms: 4,
        quiet_ms: 150,
        chatter_limit: 8,
    };

    /// Feeds `(time, reading)` scans; returns the times at which the debounced reading flipped.
    fn flips(cell: &mut ScanCell, rule: &ScanRule, scans: &[(u64, bool)]) -> Vec<u64> {
        scans
            .iter()
            .filter(|&&(t, raw)| cell.sample(raw, Millis(t), rule).flipped)
            .map(|&(t, _)| t)
            .collect()
    }

    #[test]
    fn a_reading_is_believed_after_three_agreeing_scans() {
        let mut c = ScanCell::default();
        let got = flips(
            &mut c,
            &RULE,
            &[(0, true), (10, true), (20, true), (30, true)],
        );
        assert_eq!(got, [20]);
        assert!(c.stable());
    }

    #[test]
    fn a_bounce_restarts_the_count() {
        let mut c = ScanCell::default();
        let scans = [(0, true), (10, false), (20, true), (30, true), (40, true)];
        assert_eq!(flips(&mut c, &RULE, &scans), [40]);
    }

    #[test]
    fn scans_bunched_inside_a_bounce_are_not_enough() {
        // Three agreeing scans 1 ms apart span 2 ms < 4 ms: wait for a later one.
        let mut c = ScanCell::default();
        let scans = [(0, true), (1, true), (2, true), (3, true), (4, true)];
        assert_eq!(flips(&mut c, &RULE, &scans), [4]);
    }

    #[test]
    fn one_sample_and_no_span_believe_every_scan() {
        let rule = ScanRule {
            samples: 0,
            span_ms: 0,
            ..RULE
        };
        let mut c = ScanCell::default();
        assert_eq!(
            flips(&mut c, &rule, &[(0, true), (1, false), (2, false)]),
            [0, 1]
        );
    }

    #[test]
    fn chatter_is_flagged_once_and_cleared_by_a_quiet_gap() {
        let mut c = ScanCell::default();
        let mut started = Vec::new();
        for i in 0..20u64 {
            if c.sample(i % 2 == 0, Millis(i * 10), &RULE).chatter_started {
                started.push(i * 10);
            }
        }
        // The 8th change (at 70 ms) makes it chatter; no second report while it goes on.
        assert_eq!(started, [70]);
        assert!(c.chattering());
        assert!(!c.stable(), "alternating readings never pass the debounce");
        // The last change is at 190 ms (to empty); the next, at 400 ms, starts afresh.
        assert!(!c.sample(true, Millis(400), &RULE).chatter_started);
        assert!(!c.chattering());
    }
}
