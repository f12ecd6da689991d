//! The umpire's whole pipeline per sensed input: an occupancy frame (or a tick, a button press)
//! in, through the sensing model and the referee, the decision and the OLED screen out, drawn
//! into a frame buffer and diffed against the last one for the bytes to push.
//!
//! Workload: the sensed inputs of complete simulated demo games (scans every 10 ms around each
//! change, set-up by rank groups, every move by lifting and placing), replayed into a fresh
//! pipeline. Run with `cargo bench -p umpire-host --bench pipeline`.

use std::hint::black_box;

use boards::stratego::Variant;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use firmware::journal::MemStore;
use firmware::pipeline::Pipeline;
use firmware::referee::{Referee, RefereeConfig, SeededChance};
use firmware::screens::{diff_regions, render, wire_bytes, Frame};
use firmware::sensing::{Sensing, SensingConfig, SensorLayout};
use host::demo::{run_with_frames, Demo};
use host::sim::{feed_recorded, Sensed, SimBoard};

struct Recorded {
    seed: u64,
    inputs: Vec<Sensed>,
}

/// Plays one recorded game; returns the bytes the OLED updates would cost.
fn replay(layout: &SensorLayout, game: &Recorded, draw: bool) -> usize {
    let referee = Referee::new(
        RefereeConfig::default(),
        SeededChance::new(game.seed),
        || Ok(MemStore::new()),
    );
    let mut pipeline = Pipeline::new(
        Sensing::new(layout.clone(), SensingConfig::default()),
        referee,
    );
    let mut shown = Frame::new();
    let mut bytes = 0;
    feed_recorded(&mut pipeline, &game.inputs, |p| {
        if let Some(screen) = p.new_screen() {
            if draw {
                let frame = render(screen);
                bytes += wire_bytes(&diff_regions(&shown, &frame));
                shown = frame;
            }
        }
    });
    bytes
}

fn pipeline(c: &mut Criterion) {
    let layout = SimBoard::stratego(false).expect("layout").layout().clone();
    let games: Vec<Recorded> = (1..=3)
        .map(|seed| Recorded {
            seed,
            inputs: run_with_frames(&Demo::new(Variant::Classic, seed), None, &mut Vec::new())
                .expect("demo plays")
                .inputs,
        })
        .collect();
    let inputs: usize = games.iter().map(|g| g.inputs.len()).sum();
    let mut group = c.benchmark_group("pipeline");
    group.throughput(Throughput::Elements(inputs as u64));
    group.sample_size(10);
    group.bench_function("sensed_input_to_decision", |b| {
        b.iter(|| {
            games
                .iter()
                .map(|g| replay(&layout, g, false))
                .sum::<usize>()
        })
    });
    group.bench_function("sensed_input_to_decision_and_oled_diff", |b| {
        b.iter(|| {
            black_box(
                games
                    .iter()
                    .map(|g| replay(&layout, g, true))
                    .sum::<usize>(),
            )
        })
    });
    group.finish();

    // Drawing and diffing alone, per screen change: the part of a decision's cost that only
    // arises when the OLED changes.
    let mut screens = Vec::new();
    for g in &games {
        let referee = Referee::new(RefereeConfig::default(), SeededChance::new(g.seed), || {
            Ok(MemStore::new())
        });
        let mut p = Pipeline::new(
            Sensing::new(layout.clone(), SensingConfig::default()),
            referee,
        );
        feed_recorded(&mut p, &g.inputs, |p| {
            if let Some(screen) = p.new_screen() {
                screens.push(screen.clone());
            }
        });
    }
    let mut group = c.benchmark_group("oled");
    group.throughput(Throughput::Elements(screens.len() as u64));
    group.bench_function("render_and_diff_per_screen_change", |b| {
        b.iter(|| {
            let mut shown = Frame::new();
            let mut bytes = 0;
            for screen in &screens {
                let frame = render(screen);
                bytes += wire_bytes(&diff_regions(&shown, &frame));
                shown = frame;
            }
            black_box(bytes)
        })
    });
    group.finish();
}

/// The same for the table games: complete demo games of Stratego: Waterloo (Standard)
/// and Piecepack at Waterloo, each replayed into a fresh pipeline on the game's own layout.
fn table_pipeline(c: &mut Criterion) {
    let mut group = c.benchmark_group("table_pipeline");
    group.sample_size(10);
    for (name, game, variant) in [
        ("waterloo", "stratego-waterloo", "standard"),
        ("piecepack", "piecepack", "rules-as-written"),
    ] {
        let entry = host::table::find_game(game, Some(variant)).expect("on the menu");
        let layout = entry.layout().validate().expect("valid");
        let games: Vec<Recorded> = (1..=3)
            .map(|seed| Recorded {
                seed,
                inputs: host::table::demo(&entry, seed, 3000, true, None, &mut Vec::new())
                    .expect("demo plays")
                    .inputs,
            })
            .collect();
        let inputs: usize = games.iter().map(|g| g.inputs.len()).sum();
        group.throughput(Throughput::Elements(inputs as u64));
        group.bench_function(format!("{name}_sensed_input_to_decision"), |b| {
            b.iter(|| {
                games
                    .iter()
                    .map(|g| replay(&layout, g, false))
                    .sum::<usize>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, pipeline, table_pipeline);
criterion_main!(benches);
