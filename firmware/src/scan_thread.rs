//! The scan thread: the board's switches (and the buttons) read on the scan grid by a thread of
//! their own, so that nothing the referee's side does (an OLED push over I2C, a journal
//! `fdatasync` on the SD card, NFC reads, an LED send) delays a scan.
//!
//! [`ScanThread`] owns the sensor and the buttons. On every slot of its [`ScanSchedule`] it
//! scans, polls the buttons, stamps both with the slot's clock and queues them; the service
//! ([`crate::service::Service::step`]) takes every queued scan, oldest first, and feeds each to
//! the pipeline at its own time, exactly as if it had scanned then. Nothing is coalesced: the
//! debounce counts consecutive scans, so every scan reaches it.
//!
//! The queue is bounded ([`QUEUE_SECONDS`] of scans). A service stalled for longer than that
//! (a hung SD card) makes the thread wait for room instead of dropping a scan; the slots it
//! misses are then counted in [`Scanned::missed`] and logged, as on one thread. Dropping the
//! handle stops the thread and waits for it.
//!
//! It implements [`Scanner`] so that it stands where any sensor stands ([`crate::service::Hardware`]):
//! [`Scanner::scan`] waits for the next fresh scan (what the boot's majority of seven reads),
//! [`Scanner::take_scans`] hands over the queue.

use std::collections::VecDeque;
use std::fmt;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::inputs::{ButtonSource, Scanned, Scanner};
use crate::schedule::{ScanRateError, ScanSchedule};
use crate::sensing::{Millis, Occupancy};

/// How many seconds of scans the queue holds before the thread waits for the service.
pub const QUEUE_SECONDS: u32 = 2;

/// The longest the thread sleeps at a time, so that a stop is seen soon.
const MAX_SLEEP: Duration = Duration::from_millis(10);

/// How long [`Scanner::scan`] waits for a fresh scan before it says the thread is not scanning.
const FRESH_SCAN_WAIT: Duration = Duration::from_secs(2);

/// Why the scan thread could not start.
#[derive(Debug)]
pub enum ScanThreadError {
    /// The scan rate is one the schedule cannot keep.
    Rate(ScanRateError),
    /// The system would not start a thread.
    Spawn(io::Error),
}

impl fmt::Display for ScanThreadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScanThreadError::Rate(e) => write!(f, "{e}"),
            ScanThreadError::Spawn(e) => write!(
                f,
                "the scan thread could not be started ({e}): the system is short of memory or \
                 threads; restart the service, and reboot if it persists"
            ),
        }
    }
}

impl std::error::Error for ScanThreadError {}

/// What the thread and the handle share.
struct Shared {
    queue: Mutex<VecDeque<Scanned>>,
    /// Signalled when a scan is queued and when the service takes the queue.
    changed: Condvar,
    stop: AtomicBool,
    capacity: usize,
}

impl Shared {
    fn queue(&self) -> MutexGuard<'_, VecDeque<Scanned>> {
        // The queue holds plain data: a panic elsewhere cannot leave it half-changed.
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The handle of a running scan thread (see the [module docs](self)).
pub struct ScanThread {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl fmt::Debug for ScanThread {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScanThread")
            .field("queued", &self.shared.queue().len())
            .finish_non_exhaustive()
    }
}

impl ScanThread {
    /// Starts scanning `scanner` (and polling `buttons`) `hz` times a second, on the grid from
    /// now, stamping each scan with the milliseconds since `epoch` (the service's clock).
    ///
    /// # Errors
    /// `hz` is a rate the schedule cannot keep, or no thread could be started.
    pub fn spawn(
        scanner: Box<dyn Scanner + Send>,
        buttons: Option<Box<dyn ButtonSource + Send>>,
        hz: u32,
        epoch: Instant,
    ) -> Result<ScanThread, ScanThreadError> {
        let capacity = usize::try_from(hz.saturating_mul(QUEUE_SECONDS)).unwrap_or(usize::MAX);
        ScanThread::with_capacity(scanner, buttons, hz, epoch, capacity)
    }

    /// As [`ScanThread::spawn`], with a queue of `capacity` scans.
    fn with_capacity(
        mut scanner: Box<dyn Scanner + Send>,
        mut buttons: Option<Box<dyn ButtonSource + Send>>,
        hz: u32,
        epoch: Instant,
        capacity: usize,
    ) -> Result<ScanThread, ScanThreadError> {
        let clock = move || Millis(u64::try_from(epoch.elapsed().as_millis()).unwrap_or(u64::MAX));
        let mut schedule = ScanSchedule::new(clock(), hz).map_err(ScanThreadError::Rate)?;
        let capacity = capacity.max(1);
        let shared = Arc::new(Shared {
            queue: Mutex::new(VecDeque::with_capacity(capacity)),
            changed: Condvar::new(),
            stop: AtomicBool::new(false),
            capacity,
        });
        let theirs = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("umpire-scan".into())
            .spawn(move || {
                let shared = theirs;
                while !shared.stop.load(Ordering::Relaxed) {
                    let now = clock();
                    if let Some(due) = schedule.poll(now) {
                        let scanned = Scanned {
                            at: now,
                            occupied: scanner.scan(),
                            buttons: buttons.as_mut().map(|b| b.poll(now)),
                            missed: due.missed,
                        };
                        let mut queue = shared.queue();
                        while queue.len() >= shared.capacity && !shared.stop.load(Ordering::Relaxed)
                        {
                            // Full: wait for the service rather than drop a scan.
                            queue = shared
                                .changed
                                .wait_timeout(queue, MAX_SLEEP)
                                .unwrap_or_else(PoisonError::into_inner)
                                .0;
                        }
                        queue.push_back(scanned);
                        drop(queue);
                        shared.changed.notify_all();
                    }
                    let slot = epoch + Duration::from_millis(schedule.next_due().0);
                    let wait = slot.saturating_duration_since(Instant::now());
                    std::thread::sleep(wait.min(MAX_SLEEP));
                }
            })
            .map_err(ScanThreadError::Spawn)?;
        Ok(ScanThread {
            shared,
            thread: Some(thread),
        })
    }
}

impl Scanner for ScanThread {
    /// A scan the thread began after this call (the scans queued before are dropped: this is
    /// how the boot reads the board as it stands, before the service takes the queue). The
    /// first scan queued after the call may have begun before it, so the second is taken.
    fn scan(&mut self) -> Result<Occupancy, String> {
        let mut queue = self.shared.queue();
        queue.clear();
        self.shared.changed.notify_all();
        let mut taken = None;
        for _ in 0..2 {
            queue = self
                .shared
                .changed
                .wait_timeout_while(queue, FRESH_SCAN_WAIT, |q| q.is_empty())
                .unwrap_or_else(PoisonError::into_inner)
                .0;
            taken = queue.pop_front();
            if taken.is_none() {
                break;
            }
        }
        match taken {
            Some(scanned) => scanned.occupied,
            None => Err(format!(
                "the scan thread took no scan in {} s: restart the service",
                FRESH_SCAN_WAIT.as_secs()
            )),
        }
    }

    fn take_scans(&mut self) -> Option<Vec<Scanned>> {
        let scans: Vec<Scanned> = self.shared.queue().drain(..).collect();
        self.shared.changed.notify_all();
        Some(scans)
    }
}

impl Drop for ScanThread {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        self.shared.changed.notify_all();
        if let Some(thread) = self.thread.take() {
            // A thread that panicked has nothing left to hand over.
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sensing::SensedCell;
    use std::sync::atomic::AtomicU16;

    /// A scanner that reads the cell a shared number names as occupied, and counts its scans.
    #[derive(Clone, Default)]
    struct Counter {
        cell: Arc<AtomicU16>,
        scans: Arc<Mutex<u64>>,
    }
    impl Scanner for Counter {
        fn scan(&mut self) -> Result<Occupancy, String> {
            *self.scans.lock().unwrap() += 1;
            let cell = SensedCell::new(self.cell.load(Ordering::Relaxed));
            Ok(Occupancy::from_cells([cell]))
        }
    }

    #[test]
    fn every_scan_is_queued_in_order_with_its_time() {
        let counter = Counter::default();
        let mut thread =
            ScanThread::spawn(Box::new(counter.clone()), None, 1000, Instant::now()).unwrap();
        std::thread::sleep(Duration::from_millis(60));
        let scans = thread.take_scans().unwrap();
        // At least a few in 60 ms at 1 kHz, however late a loaded machine starts the thread.
        assert!(scans.len() >= 3, "{} scans in 60 ms at 1 kHz", scans.len());
        assert!(scans.windows(2).all(|w| w[0].at < w[1].at), "{scans:?}");
        assert!(scans
            .iter()
            .all(|s| s.occupied.is_ok() && s.buttons.is_none()));
        drop(thread);
        let after = *counter.scans.lock().unwrap();
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(
            *counter.scans.lock().unwrap(),
            after,
            "dropped: no more scans"
        );
    }

    /// A full queue is never cut: the thread waits for room, and the slots it waits through
    /// are counted as missed on the next scan.
    #[test]
    fn a_full_queue_waits_and_counts_the_missed_slots() {
        let counter = Counter::default();
        let mut thread =
            ScanThread::with_capacity(Box::new(counter), None, 1000, Instant::now(), 4).unwrap();
        std::thread::sleep(Duration::from_millis(60));
        let first = thread.take_scans().unwrap();
        assert_eq!(first.len(), 4, "the queue holds 4: {first:?}");
        assert!(first.windows(2).all(|w| w[0].at < w[1].at));
        std::thread::sleep(Duration::from_millis(20));
        let next = thread.take_scans().unwrap();
        // Nothing queued was cut: the scans go on in order after the first four.
        assert!(!next.is_empty() && next[0].at > first[3].at, "{next:?}");
        assert!(next.windows(2).all(|w| w[0].at < w[1].at), "{next:?}");
        // Every slot of the 1 kHz grid (one a millisecond) from the first to the last scan was
        // either scanned or counted missed, whatever the machine's load did to the timing.
        let all: Vec<&Scanned> = first.iter().chain(&next).collect();
        let accounted: u64 = all.iter().skip(1).map(|s| 1 + s.missed).sum();
        assert_eq!(accounted, all[all.len() - 1].at.0 - all[0].at.0, "{all:?}");
        // The queue stood full until the take: slots went by unscanned, and were counted.
        let missed: u64 = next.iter().map(|s| s.missed).sum();
        assert!(missed > 0, "slots missed while full: {next:?}");
    }

    /// `scan` (what the boot reads) is a scan taken after the call, not an old queued one.
    #[test]
    fn a_scan_asked_for_is_a_fresh_one() {
        let counter = Counter::default();
        let mut thread =
            ScanThread::spawn(Box::new(counter.clone()), None, 500, Instant::now()).unwrap();
        std::thread::sleep(Duration::from_millis(30));
        counter.cell.store(7, Ordering::Relaxed);
        let occupied = thread.scan().unwrap();
        assert_eq!(occupied, Occupancy::from_cells([SensedCell::new(7)]));
    }
}
