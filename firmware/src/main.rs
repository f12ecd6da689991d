//! `umpire`: the referee service on the Pi.
//!
//! The hardware backend lands with the Raspberry Pi issue; until then this binary says so and
//! points at the simulator, which runs the same referee against a simulated board.

use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!(
        "umpire {}: this build has no hardware backend yet.\n\
         To see the umpire referee a game on a laptop, run the simulator:\n    \
         cargo run --release -p umpire-host --bin umpire-sim -- demo classic --seed 1",
        env!("CARGO_PKG_VERSION")
    );
    ExitCode::from(2)
}
