//! Touch-down to decision: how long after a piece lands the umpire decides, in simulated scan
//! time.
//!
//! A recorded game (the sensed inputs a [`SimTable`](crate::sim::SimTable) fed the firmware's
//! pipeline, scans every [`SCAN_MS`](crate::sim::SCAN_MS)) is replayed into a fresh
//! [`Pipeline`]. Each scan that reads a switch closed that the scan before read open is a
//! touch-down; the first decision that changes the screen for the hands after it (a move, a
//! battle, an action, a correction, the hands' steps done, a refusal, a ghost named), before the
//! hands change anything else, is the answer to it. Its latency is the time between the two
//! inputs' stamps: the scan time the firmware sees, not wall-clock time (what the pipeline
//! spends per input is the `pipeline` benchmark's figure, and the OLED push comes on top).
//!
//! Run it with `umpire-sim latency` (the figure in the README) or the `latency` benchmark.

use std::fmt;

use boards::stratego::Variant;
use boards::Actor;
use firmware::journal::MemStore;
use firmware::pipeline::Pipeline;
use firmware::referee::{Decision, Referee, RefereeConfig, SeededChance};
use firmware::sensing::{Millis, Occupancy, Sensing, SensingConfig, SensorLayout};

use crate::demo::{run_with_frames, Demo, Error};
use crate::sim::{Sensed, SimBoard};
use crate::table::TableGameEntry;

/// A recorded game: what to replay it into, and its inputs.
#[derive(Clone, Debug)]
pub struct Recorded {
    /// What it is ("Stratego Classic, seed 1").
    pub name: String,
    /// The board it was played on.
    pub layout: SensorLayout,
    /// The referee's settings it was played with.
    pub config: RefereeConfig,
    /// The seed of the referee's chance.
    pub seed: u64,
    /// Every input the simulated board fed the pipeline.
    pub inputs: Vec<Sensed>,
}

impl Recorded {
    /// A fresh pipeline, with the sensing timing `sensing`, that these inputs play the game
    /// through again.
    pub fn pipeline(&self, sensing: SensingConfig) -> Pipeline<MemStore, SeededChance> {
        let referee = Referee::new(self.config.clone(), SeededChance::new(self.seed), || {
            Ok(MemStore::new())
        });
        Pipeline::new(Sensing::new(self.layout.clone(), sensing), referee)
    }
}

/// Whether `decision` answers a piece put down: something the hands wait to read.
fn answers(decision: &Decision) -> bool {
    match decision {
        Decision::Moved { .. }
        | Decision::Battle(_)
        | Decision::MoveCorrected { .. }
        | Decision::HandsDone
        | Decision::Refused { .. }
        | Decision::WrongPiece { .. }
        | Decision::Ghost { .. } => true,
        Decision::Acted { actor, .. } => matches!(actor, Actor::Seat(_)),
        _ => false,
    }
}

/// Replays `game` with the sensing timing `sensing` and returns the latency of every answered
/// touch-down, in ms of scan time, in the order they happened.
pub fn touchdown_latencies(game: &Recorded, sensing: SensingConfig) -> Vec<u64> {
    let mut pipeline = game.pipeline(sensing);
    let mut seen = Occupancy::EMPTY;
    let mut touched: Option<Millis> = None;
    let mut out = Vec::new();
    let mut inputs = game.inputs.iter().peekable();
    while let Some(input) = inputs.next() {
        let (at, decisions) = match input {
            Sensed::Frame(frame) => {
                let rose = frame.occupied.iter().any(|c| !seen.contains(c));
                let fell = seen.iter().any(|c| !frame.occupied.contains(c));
                if rose {
                    touched = Some(frame.at);
                } else if fell {
                    touched = None;
                }
                seen = frame.occupied;
                let mut tags = Vec::new();
                while let Some(Sensed::Tag(t)) = inputs.peek() {
                    tags.push(*t);
                    inputs.next();
                }
                let decisions =
                    pipeline.scan(frame.at, frame.occupied, |_| std::mem::take(&mut tags));
                (frame.at, decisions)
            }
            Sensed::Tag(_) => continue,
            Sensed::Press(p) => {
                touched = None;
                (p.at, pipeline.press(p.at, p.button))
            }
            Sensed::Hold(p) => {
                touched = None;
                (p.at, pipeline.hold(p.at, p.button))
            }
            Sensed::Tick(at) => (*at, pipeline.idle(*at)),
        };
        if let Some(t) = touched {
            if decisions.iter().any(answers) {
                out.push(at.since(t));
                touched = None;
            }
        }
    }
    out
}

/// The distribution of touch-down-to-decision times over some games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Distribution {
    /// Touch-downs answered.
    pub count: usize,
    /// The median, in ms.
    pub median: u64,
    /// The 95th percentile (nearest rank), in ms.
    pub p95: u64,
    /// The longest, in ms.
    pub max: u64,
}

impl Distribution {
    /// The distribution of `samples` (ms); `None` when there are none.
    pub fn of(samples: &[u64]) -> Option<Distribution> {
        let mut sorted = samples.to_vec();
        sorted.sort_unstable();
        let n = sorted.len();
        let rank = |p: usize| sorted.get((n * p).div_ceil(100).max(1) - 1).copied();
        Some(Distribution {
            count: n,
            median: rank(50)?,
            p95: rank(95)?,
            max: *sorted.last()?,
        })
    }
}

impl fmt::Display for Distribution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} touch-downs: median {} ms, 95th percentile {} ms, max {} ms",
            self.count, self.median, self.p95, self.max
        )
    }
}

/// A Stratego Classic demo game between two bots, seeded `seed`, stopped after `moves` moves,
/// recorded.
///
/// # Errors
/// The demo's [`Error`] (a bug in the bots, the hands or the referee).
pub fn stratego_game(seed: u64, moves: u32) -> Result<Recorded, Error> {
    let demo = Demo {
        quiet: true,
        max_moves: moves,
        ..Demo::new(Variant::Classic, seed)
    };
    let played = run_with_frames(&demo, None, &mut std::io::sink())?;
    let layout = SimBoard::stratego(false)
        .map_err(|p| Error::Table(format!("the simulated board's layout: {p}")))?
        .layout()
        .clone();
    Ok(Recorded {
        name: format!("Stratego Classic, seed {seed}"),
        layout,
        config: RefereeConfig {
            isf_rules: demo.rules == crate::demo::Rules::Isf,
            ..RefereeConfig::default()
        },
        seed,
        inputs: played.inputs,
    })
}

/// A table game (`entry`) between two random bots, seeded `seed`, stopped after `actions`
/// actions, recorded.
///
/// # Errors
/// The demo's [`Error`] (a bug in the bots, the hands or the referee).
pub fn table_game(entry: &TableGameEntry, seed: u64, actions: u32) -> Result<Recorded, Error> {
    let played = crate::table::demo(entry, seed, actions, true, None, &mut std::io::sink())?;
    let layout = SensorLayout::new(entry.layout())
        .map_err(|p| Error::Table(format!("the simulated board's layout: {p}")))?;
    Ok(Recorded {
        name: format!("{}: {}, seed {seed}", entry.name, entry.variant),
        layout,
        config: entry.referee_config(),
        seed,
        inputs: played.inputs,
    })
}

/// The recorded games the README's figure is measured over: `per_game` seeds of Stratego
/// Classic (200 moves each) and of the first variant of every table game on the menu (60
/// actions each).
///
/// # Errors
/// A game that could not be played (a bug).
pub fn recorded_games(per_game: u64) -> Result<Vec<Recorded>, Error> {
    let mut games = Vec::new();
    for seed in 1..=per_game {
        games.push(stratego_game(seed, 200)?);
    }
    for (name, variants) in firmware::referee::games::menu() {
        let Some((label, kind)) = variants.first() else {
            continue;
        };
        let entry = TableGameEntry {
            name: name.to_string(),
            variant: label.clone(),
            kind: *kind,
        };
        for seed in 1..=per_game {
            games.push(table_game(&entry, seed, 60)?);
        }
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_distribution_takes_nearest_ranks() {
        let d = Distribution::of(&[30, 10, 20, 40]).unwrap();
        assert_eq!((d.count, d.median, d.p95, d.max), (4, 20, 40, 40));
        let many: Vec<u64> = (1..=100).collect();
        let d = Distribution::of(&many).unwrap();
        assert_eq!((d.median, d.p95, d.max), (50, 95, 100));
        assert_eq!(Distribution::of(&[]), None);
    }
}
