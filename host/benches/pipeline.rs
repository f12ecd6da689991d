//! The umpire's whole pipeline per sensed input: an occupancy frame (or a tick, a button press)
//! in, through the sensing model and the referee, the decision and the OLED screen out, drawn
//! into a frame buffer and diffed against the last one for the bytes to push.
//!
//! Workload: the sensed inputs of complete simulated demo games (scans every 10 ms around each
//! change, set-up by rank groups, every move by lifting and placing), replayed into a fresh
//! pipeline. Run with `cargo bench -p umpire-host --bench pipeline`. The table games' group
//! (`-- table_pipeline`) also times the settled boards alone: the inputs that decide an action
//! from the board, the costliest the umpire handles.

use std::hint::black_box;
use std::time::{Duration, Instant};

use boards::stratego::Variant;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use firmware::journal::{decode, MemStore};
use firmware::pipeline::Pipeline;
use firmware::referee::{Decision, GameKind, Header, Record, Referee, RefereeConfig, SeededChance};
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

/// The battles a Napoléon journal's campaign begins (0 for another game's journal): its
/// actions replayed by the rules.
fn napoleon_battles(journal: &[u8]) -> usize {
    use boards::napoleon::{Event, Napoleon, Players, Setup};
    use boards::Game;
    use firmware::referee::games::napoleon::{NapoleonAction, NapoleonSet};
    let Ok(recovered) = decode::<Header, Record>(journal) else {
        return 0;
    };
    if !matches!(recovered.header.game, GameKind::Napoleon { .. }) {
        return 0;
    }
    let options =
        boards::napoleon::Options::new(NapoleonSet::shipped().campaign().clone(), Players::Two);
    let mut game = Napoleon::start(options, Setup::Historical).expect("the historical set-up");
    let mut battles = 0;
    for r in recovered.records {
        if let Record::Action(bytes) = r {
            let a: NapoleonAction = postcard::from_bytes(&bytes).expect("an action");
            let events = game.play(&a.action).expect("a legal action");
            battles += events
                .iter()
                .filter(|e| matches!(e, Event::BattleBegan { .. }))
                .count();
        }
    }
    battles
}

/// Replays `game` into a fresh pipeline as [`feed_recorded`] does, timing every input; the
/// time of each input that decided a settled board (a scan, or the tick ending the settle
/// window, whose decisions play an action: the board matched against every legal gesture),
/// with the action it played in the table's words.
fn settled_boards(layout: &SensorLayout, game: &Recorded) -> Vec<(Duration, String)> {
    let referee = Referee::new(
        RefereeConfig::default(),
        SeededChance::new(game.seed),
        || Ok(MemStore::new()),
    );
    let mut p = Pipeline::new(
        Sensing::new(layout.clone(), SensingConfig::default()),
        referee,
    );
    let mut decided = Vec::new();
    let mut inputs = game.inputs.iter().peekable();
    while let Some(input) = inputs.next() {
        let start = Instant::now();
        let out = match input {
            Sensed::Frame(frame) => {
                let mut tags = Vec::new();
                while let Some(Sensed::Tag(t)) = inputs.peek() {
                    tags.push(*t);
                    inputs.next();
                }
                p.scan(frame.at, frame.occupied, |_| std::mem::take(&mut tags))
            }
            Sensed::Tick(at) => p.idle(*at),
            // Buttons decide no board.
            Sensed::Press(b) => {
                p.press(b.at, b.button);
                continue;
            }
            Sensed::Hold(b) => {
                p.hold(b.at, b.button);
                continue;
            }
            Sensed::Tag(_) => continue,
        };
        let took = start.elapsed();
        let acted = out.iter().find_map(|d| match d {
            Decision::Acted { action, .. } => Some(action.clone()),
            _ => None,
        });
        if let Some(action) = acted {
            decided.push((took, action));
        }
    }
    decided
}

/// The table games' demos: complete games of Stratego: Waterloo (Standard) and Piecepack at
/// Waterloo, and two Napoléon campaigns (two players, historical set-up) to their results,
/// battles included, each replayed into a fresh pipeline on the game's own layout. Per game:
/// every sensed input to its decision, and the settled boards alone (the costliest inputs: a
/// board that completes a gesture, matched against every legal action and played).
fn table_pipeline(c: &mut Criterion) {
    let mut group = c.benchmark_group("table_pipeline");
    group.sample_size(10);
    for (name, game, variant, seeds) in [
        ("waterloo", "stratego-waterloo", "standard", 1..=3),
        ("piecepack", "piecepack", "rules-as-written", 1..=3),
        ("napoleon", "napoleon", "2-players-historical-set-up", 1..=2),
    ] {
        let entry = host::table::find_game(game, Some(variant)).expect("on the menu");
        let layout = entry.layout().validate().expect("valid");
        let games: Vec<Recorded> = seeds
            .map(|seed| {
                let played = host::table::demo(&entry, seed, 3000, true, None, &mut Vec::new())
                    .expect("demo plays");
                let battles = napoleon_battles(&played.journal);
                println!(
                    "{name} seed {seed}: {} actions, {} inputs, {battles} Napoleon battles, {:?}",
                    played.actions,
                    played.inputs.len(),
                    played.result
                );
                Recorded {
                    seed,
                    inputs: played.inputs,
                }
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
        // The settled boards: each input's own time, the fastest of five replays, to name the
        // costliest; then criterion's figure for them all.
        let mut fastest: Vec<(Duration, String)> = Vec::new();
        for _ in 0..5 {
            let times: Vec<(Duration, String)> = games
                .iter()
                .flat_map(|g| settled_boards(&layout, g))
                .collect();
            if fastest.is_empty() {
                fastest = times;
            } else {
                assert_eq!(times.len(), fastest.len(), "the replays decide alike");
                for (f, (t, _)) in fastest.iter_mut().zip(times) {
                    f.0 = f.0.min(t);
                }
            }
        }
        let mut sorted = fastest.clone();
        sorted.sort();
        let settled = sorted.len();
        let mean = sorted.iter().map(|(t, _)| *t).sum::<Duration>() / settled.max(1) as u32;
        println!(
            "{name}: {settled} settled boards decided; each its fastest of 5 replays: mean {mean:?}, \
             median {:?}, 99th percentile {:?}, worst {:?}",
            sorted[settled / 2].0,
            sorted[settled * 99 / 100].0,
            sorted[settled - 1].0
        );
        // The costliest, named: where to look when the worst figure moves.
        for (took, action) in sorted.iter().rev().take(3) {
            println!("  {took:?}: {action}");
        }
        group.throughput(Throughput::Elements(settled as u64));
        group.bench_function(format!("{name}_settled_board_decided"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    for g in &games {
                        total += settled_boards(&layout, g)
                            .iter()
                            .map(|(t, _)| *t)
                            .sum::<Duration>();
                    }
                }
                total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, pipeline, table_pipeline);
criterion_main!(benches);
