//! The umpire on the Pi, as a library: sensing, the referee, screens, the journal and drivers.
//!
//! Everything here is generic over its inputs (timestamped sensor frames, embedded-hal 1.0
//! traits, `DrawTarget`s) so it runs unchanged against the simulator in `host` and the real board.
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used))]

pub mod boot;
pub mod config;
pub mod display;
pub mod doctor;
pub mod drivers;
pub mod faults;
pub mod game_data;
pub mod guidance;
pub mod inputs;
pub mod journal;
#[cfg(unix)]
pub mod notify;
pub mod pipeline;
pub mod platform;
pub mod referee;
pub mod scan_thread;
pub mod schedule;
pub mod screens;
pub mod sensing;
pub mod service;
pub mod setup;
pub mod sim;
pub mod ui;
pub mod web;
