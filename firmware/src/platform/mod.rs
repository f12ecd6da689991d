//! The platform edge: opening the hardware a [`Config`](crate::config::Config) describes.
//!
//! Everything above this module is generic over embedded-hal 1.0 traits; this is the only place
//! that names a concrete backend, and only with the `pi` feature (module `pi`). Without it the
//! `umpire` binary runs against the simulated hardware in [`crate::sim`].

use std::fmt;

#[cfg(feature = "pi")]
pub mod pi;

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
