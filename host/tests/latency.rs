//! Touch-down to decision over recorded games, in simulated scan time: the figure the README
//! gives (`umpire-sim latency`), held to the 60 ms the issue asks for. A property of the logic
//! in scan time, not a wall-clock measurement, so it does not flake.

use firmware::sensing::SensingConfig;
use host::latency::{recorded_games, touchdown_latencies, Distribution};

/// Every answered touch-down of a seeded game of each game on the menu (moves, battles' hand
/// steps, pieces off stacks, corrections) is decided within 60 ms of the first scan that saw
/// the piece land. The same recordings with the old timing (`decide_early: false`, every
/// change waiting out the 150 ms settle window) take 170 ms: this test fails on that code.
#[test]
fn every_touch_down_of_the_recorded_games_is_decided_within_60_ms() {
    let games = recorded_games(1).expect("the recorded games play");
    assert!(games.len() >= 4, "Stratego and every table game");
    let mut all = Vec::new();
    for game in &games {
        let samples = touchdown_latencies(game, SensingConfig::default());
        assert!(
            samples.len() >= 20,
            "{}: {} touch-downs",
            game.name,
            samples.len()
        );
        let d = Distribution::of(&samples).expect("touch-downs");
        assert!(d.max <= 60, "{}: {d}", game.name);
        all.extend(samples);
    }
    let d = Distribution::of(&all).expect("touch-downs");
    assert!(d.max <= 60, "{d}");
    let old = SensingConfig {
        decide_early: false,
        ..SensingConfig::default()
    };
    let slow: Vec<u64> = games
        .iter()
        .flat_map(|g| touchdown_latencies(g, old))
        .collect();
    let d = Distribution::of(&slow).expect("touch-downs");
    assert!(d.median >= 170, "the settle window decides at 170 ms: {d}");
}
