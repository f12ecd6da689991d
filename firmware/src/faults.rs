//! A fault tracker: hardware trouble is logged once when it starts and once when it clears,
//! never once per scan (a sensor that fails at 200 Hz would otherwise write 200 lines a second
//! to the SD card).
//!
//! Each fault has a key (the part: "sensors", "OLED", "config") and a message. [`Faults::set`]
//! reports a part's state after every attempt and returns a line to log only on a change of
//! state: the fault started, its message changed (a different fault of the same part), or it
//! cleared.

use std::collections::BTreeMap;

/// The faults active now, by part.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    active: BTreeMap<String, String>,
}

impl Faults {
    /// No faults.
    pub fn new() -> Faults {
        Faults::default()
    }

    /// Records how `part` did: `Some(message)` failing, `None` working. Returns the line to log,
    /// only when the state changed.
    pub fn set(&mut self, part: &str, fault: Option<&str>) -> Option<String> {
        match fault {
            Some(message) => {
                if self.active.get(part).map(String::as_str) == Some(message) {
                    return None;
                }
                self.active.insert(part.to_string(), message.to_string());
                Some(format!("fault: {part}: {message}"))
            }
            None => self
                .active
                .remove(part)
                .map(|_| format!("fault cleared: {part} works again")),
        }
    }

    /// Replaces every fault of the parts named in `parts` by `now` (part, message): the lines
    /// for the faults that started or changed, then for those that cleared. Parts not in
    /// `parts` are left alone.
    pub fn set_all<'a>(
        &mut self,
        parts: impl IntoIterator<Item = &'a str>,
        now: &[(String, String)],
    ) -> Vec<String> {
        let mut lines: Vec<String> = now
            .iter()
            .filter_map(|(part, message)| self.set(part, Some(message)))
            .collect();
        for part in parts {
            if !now.iter().any(|(p, _)| p == part) {
                lines.extend(self.set(part, None));
            }
        }
        lines
    }

    /// Clears every fault, with a line for each.
    pub fn clear_all(&mut self) -> Vec<String> {
        let parts: Vec<String> = self.active.keys().cloned().collect();
        parts.iter().filter_map(|p| self.set(p, None)).collect()
    }

    /// Whether `part` is failing now.
    pub fn is_active(&self, part: &str) -> bool {
        self.active.contains_key(part)
    }

    /// The active faults, by part.
    pub fn active(&self) -> impl Iterator<Item = (&str, &str)> {
        self.active.iter().map(|(p, m)| (p.as_str(), m.as_str()))
    }
}

/// A bounded exponential back-off: the first retry after `first_ms`, each later one twice as
/// late, never more than `max_ms` apart. Success resets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backoff {
    first_ms: u64,
    max_ms: u64,
    delay_ms: u64,
    next: Option<u64>,
}

impl Backoff {
    /// The back-off for an output the players watch (the OLED, the LED chain): retried after
    /// 0.1 s, then 0.2, 0.4 ... at most 5 s apart, so a fixed cable is seen soon and a broken
    /// one costs a send every few seconds, not every step.
    pub const OUTPUT: Backoff = Backoff::new(100, 5_000);

    /// A back-off from `first_ms` doubling up to `max_ms`.
    pub const fn new(first_ms: u64, max_ms: u64) -> Backoff {
        Backoff {
            first_ms,
            max_ms,
            delay_ms: first_ms,
            next: None,
        }
    }

    /// Whether an attempt may be made at `now` (always, unless one failed and its delay runs).
    pub fn due(&self, now: u64) -> bool {
        self.next.is_none_or(|next| now >= next)
    }

    /// When the next attempt is due, if one failed.
    pub fn next(&self) -> Option<u64> {
        self.next
    }

    /// An attempt at `now` failed: the next waits the current delay, which then doubles.
    pub fn failed(&mut self, now: u64) {
        self.next = Some(now.saturating_add(self.delay_ms));
        self.delay_ms = self.delay_ms.saturating_mul(2).min(self.max_ms);
    }

    /// An attempt worked: no wait, and the delay starts again from the first.
    pub fn succeeded(&mut self) {
        self.next = None;
        self.delay_ms = self.first_ms;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sensor failing on every one of 1000 scans is logged once, and once when it works.
    #[test]
    fn a_fault_is_logged_once_when_it_starts_and_once_when_it_clears() {
        let mut faults = Faults::new();
        let lines: Vec<String> = (0..1000)
            .filter_map(|_| faults.set("sensors", Some("no answer on SPI")))
            .collect();
        assert_eq!(lines, ["fault: sensors: no answer on SPI"]);
        assert!(faults.is_active("sensors"));
        assert_eq!(
            faults.set("sensors", None).as_deref(),
            Some("fault cleared: sensors works again")
        );
        assert_eq!(faults.set("sensors", None), None, "cleared only once");
        assert!(!faults.is_active("sensors"));
    }

    #[test]
    fn a_different_fault_of_the_same_part_is_logged() {
        let mut faults = Faults::new();
        assert!(faults.set("OLED", Some("no answer")).is_some());
        assert!(faults.set("OLED", Some("no answer")).is_none());
        assert_eq!(
            faults.set("OLED", Some("bus missing")).as_deref(),
            Some("fault: OLED: bus missing")
        );
    }

    #[test]
    fn set_all_logs_new_and_cleared_faults_of_the_named_parts() {
        let mut faults = Faults::new();
        let now = vec![("sensors".to_string(), "gone".to_string())];
        assert_eq!(faults.set_all(["sensors", "NFC"], &now).len(), 1);
        assert!(faults.set_all(["sensors", "NFC"], &now).is_empty());
        let lines = faults.set_all(["sensors", "NFC"], &[]);
        assert_eq!(lines, ["fault cleared: sensors works again"]);
        faults.set("OLED", Some("x"));
        assert_eq!(faults.clear_all(), ["fault cleared: OLED works again"]);
    }

    #[test]
    fn the_back_off_doubles_to_its_bound_and_resets_on_success() {
        let mut b = Backoff::new(100, 1000);
        assert!(b.due(0));
        let mut at = 0;
        let mut gaps = Vec::new();
        for _ in 0..6 {
            b.failed(at);
            let next = b.next().unwrap();
            assert!(!b.due(next - 1));
            assert!(b.due(next));
            gaps.push(next - at);
            at = next;
        }
        assert_eq!(gaps, [100, 200, 400, 800, 1000, 1000]);
        b.succeeded();
        assert!(b.due(at));
        b.failed(at);
        assert_eq!(b.next(), Some(at + 100));
    }
}
