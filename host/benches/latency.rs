//! Touch-down to decision over recorded games: how long after a piece lands the umpire decides,
//! in simulated scan time (scans every 10 ms, the default sensing timing), and what replaying
//! a game through the pipeline costs on this machine.
//!
//! Workload: one seeded bot game of Stratego Classic (200 moves) and of the first variant of
//! every table game on the menu (60 actions), recorded as the simulated board fed the pipeline
//! ([`host::latency::recorded_games`]). The distribution (median, 95th percentile, max) is
//! printed before the timing; it is a property of the logic in scan time, the same on every
//! machine, and `umpire-sim latency` prints it too. Run with
//! `cargo bench -p umpire-host --bench latency`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use firmware::sensing::SensingConfig;
use host::latency::{recorded_games, touchdown_latencies, Distribution};
use host::sim::{Sensed, SCAN_MS};

fn latency(c: &mut Criterion) {
    let games = recorded_games(1).expect("the recorded games play");
    let sensing = SensingConfig::default();
    let mut all = Vec::new();
    for game in &games {
        let samples = touchdown_latencies(game, sensing);
        if let Some(d) = Distribution::of(&samples) {
            println!("{}: {d}", game.name);
        }
        all.extend(samples);
    }
    let d = Distribution::of(&all).expect("the games answered touch-downs");
    println!(
        "touch-down to decision, {} games, scans every {SCAN_MS} ms, simulated scan time: {d}",
        games.len()
    );
    let scans: usize = games
        .iter()
        .map(|g| {
            g.inputs
                .iter()
                .filter(|i| !matches!(i, Sensed::Tag(_)))
                .count()
        })
        .sum();
    let mut group = c.benchmark_group("latency");
    group.throughput(Throughput::Elements(scans as u64));
    group.sample_size(10);
    group.bench_function("replay_recorded_games_and_time_touch_downs", |b| {
        b.iter(|| {
            black_box(
                games
                    .iter()
                    .map(|g| touchdown_latencies(g, sensing).len())
                    .sum::<usize>(),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, latency);
criterion_main!(benches);
