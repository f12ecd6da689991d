//! The desktop side of Umpire: the simulator and its tools.
//!
//! - [`bots`]: computer players that see only their own seat's view.
//! - [`demo`]: a whole seeded game between two bots, played through the simulated sensors and
//!   the referee, told move by move (`umpire-sim demo`).
//! - [`latency`]: touch-down-to-decision times over recorded games, in simulated scan time.
//! - [`leds`]: the LED guidance on the simulated table, drawn as a text grid.
//! - [`play`]: the simulated table in the terminal, typed physical events (`umpire-sim play`).
//! - [`replay`]: a journaled game as a readable record, redacted while unfinished.
//! - [`scenario`]: scenario files of physical events and expectations (`umpire-sim check`).
//! - [`sim`]: the simulated table: pieces on reed switches, scanned through the firmware's
//!   sensing model into its referee.
//! - [`table`]: table games (Waterloo, Piecepack) on the simulated table: menus, group set-up,
//!   hands that play from the referee's legal gestures.

pub mod bots;
pub mod demo;
pub mod frames;
pub mod latency;
pub mod leds;
pub mod play;
pub mod replay;
pub mod scenario;
pub mod sim;
pub mod table;
