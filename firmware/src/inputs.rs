//! What the service reads the table through, whatever the wiring: a board [`Scanner`] (one
//! scan of every switch when asked, or every scan a [scan thread](crate::scan_thread) took,
//! each a [`Scanned`]) and a [`ButtonSource`]. The platform opens them
//! ([`crate::platform`]), the scan thread runs them on a thread of its own, the service reads
//! them ([`crate::service`]); none of the three imports another for them.

use std::fmt;

use embedded_hal::digital::InputPin;

use crate::drivers::buttons::{ButtonEvent, Buttons};
use crate::drivers::reed_matrix::OccupancyScanner;
use crate::sensing::{Millis, Occupancy};

/// A board scanner with its driver's error turned into a message: what `doctor`, `calibrate`
/// and the service loop need, whatever the wiring.
pub trait Scanner {
    /// Reads every switch once.
    ///
    /// # Errors
    /// The driver's message, which says what to check.
    fn scan(&mut self) -> Result<Occupancy, String>;

    /// For a scanner that scans on a thread of its own ([`crate::scan_thread::ScanThread`]):
    /// every scan taken since the last call, oldest first, each with its own time. `None` (the
    /// default): the scanner reads when [`Scanner::scan`] is called.
    fn take_scans(&mut self) -> Option<Vec<Scanned>> {
        None
    }
}

impl<T> Scanner for T
where
    T: OccupancyScanner,
    T::Error: fmt::Display,
{
    fn scan(&mut self) -> Result<Occupancy, String> {
        self.read_occupancy().map_err(|e| e.to_string())
    }
}

/// One slot's readings, as a [scan thread](crate::scan_thread::ScanThread) took them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scanned {
    /// The slot's time on the service's clock (milliseconds since the epoch given).
    pub at: Millis,
    /// What the sensor read, or its driver's message.
    pub occupied: Result<Occupancy, String>,
    /// What the buttons did, if the thread polls them (each event carries its own time).
    pub buttons: Option<Result<Vec<ButtonEvent>, String>>,
    /// Slots missed since the scan before (the thread was late, or waited for room).
    pub missed: u64,
}

/// Debounced button events, from whatever reads the buttons.
pub trait ButtonSource {
    /// What the buttons did, as confirmed by a poll at `now`.
    ///
    /// # Errors
    /// The pins could not be read; the message says which.
    fn poll(&mut self, now: Millis) -> Result<Vec<ButtonEvent>, String>;
}

impl<P: InputPin> ButtonSource for Buttons<P> {
    fn poll(&mut self, now: Millis) -> Result<Vec<ButtonEvent>, String> {
        Buttons::poll(self, now).map_err(|e| e.to_string())
    }
}
