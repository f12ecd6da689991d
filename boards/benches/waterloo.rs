//! Stratego: Waterloo speed: complete random games per second and legal-action lists per second.
//!
//! The workload (fixed seeds): random valid set-ups (`Setup::random`), then uniformly random
//! legal actions, chance outcomes sampled by weight, until the game ends or nightfall after game
//! turn 150. Legal-action generation is timed on 1,000 mid-game positions (seat to act) reached
//! after 20-400 such actions. Each is measured for the Basic, Standard and Expert games.
//!
//! Run with `cargo bench -p umpire-boards --bench waterloo`; criterion prints elements per second
//! (games, or action lists).

use std::hint::black_box;

use boards::waterloo::{Action, Options, Setup, Version, Waterloo};
use boards::{Actor, Game};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

const GAMES_PER_ITER: u64 = 10;
const POSITIONS: usize = 1_000;

fn options(version: Version) -> Options {
    let mut o = Options::new(version);
    o.last_turn = Some(150);
    o
}

fn step(g: &mut Waterloo, rng: &mut Pcg64Mcg) -> bool {
    let action: Action = match g.to_act() {
        Actor::Nobody => return false,
        Actor::Chance => {
            let outs = g.chance_outcomes();
            let total: u32 = outs.iter().map(|(_, w)| *w).sum();
            let mut r = rng.random_range(0..total);
            let mut pick = outs[0].0;
            for (a, w) in outs {
                if r < w {
                    pick = a;
                    break;
                }
                r -= w;
            }
            pick
        }
        Actor::Seat(_) => {
            let legal = g.legal_actions();
            legal[rng.random_range(0..legal.len())]
        }
    };
    g.play_unchecked(&action);
    true
}

fn new_game(options: &Options, rng: &mut Pcg64Mcg) -> Waterloo {
    let setup = Setup::random(options, |n| rng.random_range(0..n));
    let Ok(g) = Waterloo::start(options.clone(), setup) else {
        unreachable!("a random set-up is valid")
    };
    g
}

fn random_game(options: &Options, rng: &mut Pcg64Mcg) -> usize {
    let mut g = new_game(options, rng);
    let mut n = 0;
    while step(&mut g, rng) {
        n += 1;
    }
    n
}

fn mid_game_positions(options: &Options) -> Vec<Waterloo> {
    let mut rng = Pcg64Mcg::seed_from_u64(2024);
    let mut out = Vec::with_capacity(POSITIONS);
    while out.len() < POSITIONS {
        let mut g = new_game(options, &mut rng);
        let n = rng.random_range(20..=400);
        let mut alive = true;
        for _ in 0..n {
            if !step(&mut g, &mut rng) {
                alive = false;
                break;
            }
        }
        if alive && matches!(g.to_act(), Actor::Seat(_)) {
            out.push(g);
        }
    }
    out
}

const VERSIONS: [(&str, Version); 3] = [
    ("basic", Version::Basic),
    ("standard", Version::Standard),
    ("expert", Version::Expert),
];

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("waterloo_random_games");
    group.throughput(Throughput::Elements(GAMES_PER_ITER));
    group.sample_size(10);
    for (name, version) in VERSIONS {
        let options = options(version);
        group.bench_function(name, |b| {
            let mut seed = 0u64;
            b.iter(|| {
                let mut rng = Pcg64Mcg::seed_from_u64(seed);
                seed += 1;
                let actions: usize = (0..GAMES_PER_ITER)
                    .map(|_| random_game(&options, &mut rng))
                    .sum();
                black_box(actions)
            });
        });
    }
    group.finish();
}

fn action_lists(c: &mut Criterion) {
    let mut group = c.benchmark_group("waterloo_legal_action_lists");
    group.throughput(Throughput::Elements(POSITIONS as u64));
    group.sample_size(20);
    for (name, version) in VERSIONS {
        let positions = mid_game_positions(&options(version));
        group.bench_function(name, |b| {
            b.iter(|| {
                let total: usize = positions.iter().map(|g| g.legal_actions().len()).sum();
                black_box(total)
            });
        });
    }
    group.finish();
}

criterion_group!(benches, games, action_lists);
criterion_main!(benches);
