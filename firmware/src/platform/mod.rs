//! The platform edge: opening the hardware a [`Config`](crate::config::Config) describes.
//!
//! Everything above this module is generic over embedded-hal 1.0 traits; this is the only place
//! that names a concrete backend, and only with the `pi` feature (module `pi`). Without it the
//! `umpire` binary runs against the simulated hardware in [`crate::sim`].

use std::fmt;

use crate::drivers::reed_matrix::OccupancyScanner;
use crate::sensing::Occupancy;

#[cfg(feature = "pi")]
pub mod pi;

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
    fn take_scans(&mut self) -> Option<Vec<crate::scan_thread::Scanned>> {
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

/// Why hardware could not be opened.
#[derive(Debug)]
pub struct OpenError {
    /// What was being opened ("GPIO 17", "/dev/i2c-1").
    pub what: String,
    /// The backend's message.
    pub cause: String,
    /// What to do.
    pub fix: &'static str,
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot open {}: {} ({})",
            self.what, self.cause, self.fix
        )
    }
}

impl std::error::Error for OpenError {}
