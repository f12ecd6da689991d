//! Piecepack at Waterloo speed: complete random games per second and legal-action lists per
//! second.
//!
//! The workload (fixed seeds): the example deployment, then uniformly random legal actions
//! (ending movement with probability 0.15 at each movement choice) and uniformly random die
//! faces until the game ends. Action generation is timed on 1,000 positions reached after
//! 50-400 such actions.
//!
//! Run with `cargo bench -p umpire-boards --bench piecepack`.

use std::hint::black_box;

use boards::piecepack::{Action, Options, Phase, Position, Setup};
use boards::{Actor, Game};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

const GAMES_PER_ITER: u64 = 20;
const POSITIONS: usize = 1_000;

fn step(pos: &mut Position, rng: &mut Pcg64Mcg) -> bool {
    if !pos.status().is_ongoing() {
        return false;
    }
    let action = if pos.to_act() == Actor::Chance {
        let outcomes = pos.chance_outcomes();
        outcomes[rng.random_range(0..outcomes.len())].0
    } else if pos.phase() == Phase::Movement && rng.random_bool(0.15) {
        Action::EndMovement
    } else {
        let legal = pos.legal_actions();
        legal[rng.random_range(0..legal.len())]
    };
    pos.play_unchecked(&action);
    true
}

fn random_game(rng: &mut Pcg64Mcg) -> usize {
    let Ok(mut pos) = Position::start(Options::STANDARD, Setup::example()) else {
        unreachable!("the example deploys")
    };
    let mut n = 0;
    while step(&mut pos, rng) {
        n += 1;
    }
    n
}

fn positions() -> Vec<Position> {
    let mut rng = Pcg64Mcg::seed_from_u64(2024);
    let mut out = Vec::with_capacity(POSITIONS);
    while out.len() < POSITIONS {
        let Ok(mut pos) = Position::start(Options::STANDARD, Setup::example()) else {
            unreachable!("the example deploys")
        };
        let n = rng.random_range(50..=400);
        let mut alive = true;
        for _ in 0..n {
            alive = step(&mut pos, &mut rng);
            if !alive {
                break;
            }
        }
        if alive {
            out.push(pos);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("piecepack");
    group.throughput(Throughput::Elements(GAMES_PER_ITER));
    group.bench_function("random games", |b| {
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        b.iter(|| {
            for _ in 0..GAMES_PER_ITER {
                black_box(random_game(&mut rng));
            }
        })
    });
    let positions = positions();
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("legal action lists", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(p.legal_actions());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
