//! The desktop side of Umpire: the simulator and its tools.
//!
//! - [`bots`]: computer players that see only their own seat's view.
//! - [`demo`]: a whole seeded game between two bots, told move by move (`umpire-sim demo`).

pub mod bots;
pub mod demo;
