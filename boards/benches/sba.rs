//! Sa Belle Alliance speed: complete random games per second, legal-action lists per second and
//! card files read per second.
//!
//! The workload (fixed seeds): the example card set, uniformly random legal actions and die
//! faces until an army routs. Legal-action generation is timed on 1,000 positions where a seat
//! acts, reached after 0-60 such actions. The card file read is the embedded example.
//!
//! Run with `cargo bench -p umpire-boards --bench sba`; criterion prints elements per second.

use std::hint::black_box;

use boards::sba::{Action, CardSet, Options, SaBelleAlliance, EXAMPLE_CARDS};
use boards::{Actor, Game};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

const GAMES_PER_ITER: u64 = 100;
const POSITIONS: usize = 1_000;

fn step(g: &mut SaBelleAlliance, rng: &mut Pcg64Mcg) -> bool {
    let action: Action = match g.to_act() {
        Actor::Nobody => return false,
        Actor::Chance => {
            let outs = g.chance_outcomes();
            outs[rng.random_range(0..outs.len())].0
        }
        Actor::Seat(_) => {
            let legal = g.legal_actions();
            legal[rng.random_range(0..legal.len())]
        }
    };
    g.play_unchecked(&action);
    true
}

fn new_game(options: &Options) -> SaBelleAlliance {
    let Ok(g) = SaBelleAlliance::start(options.clone(), ()) else {
        unreachable!("the set-up has no problems")
    };
    g
}

fn random_game(options: &Options, rng: &mut Pcg64Mcg) -> usize {
    let mut g = new_game(options);
    let mut n = 0;
    while step(&mut g, rng) {
        n += 1;
    }
    n
}

fn positions(options: &Options) -> Vec<SaBelleAlliance> {
    let mut rng = Pcg64Mcg::seed_from_u64(2024);
    let mut out = Vec::with_capacity(POSITIONS);
    while out.len() < POSITIONS {
        let mut g = new_game(options);
        for _ in 0..rng.random_range(0..=60) {
            if !step(&mut g, &mut rng) {
                break;
            }
        }
        if matches!(g.to_act(), Actor::Seat(_)) {
            out.push(g);
        }
    }
    out
}

fn benches(c: &mut Criterion) {
    let options = Options::new(CardSet::example());
    let mut group = c.benchmark_group("sba");
    group.throughput(Throughput::Elements(GAMES_PER_ITER));
    group.sample_size(20);
    group.bench_function("random_games", |b| {
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
    let positions = positions(&options);
    group.throughput(Throughput::Elements(POSITIONS as u64));
    group.bench_function("legal_action_lists", |b| {
        b.iter(|| {
            let total: usize = positions.iter().map(|g| g.legal_actions().len()).sum();
            black_box(total)
        });
    });
    group.throughput(Throughput::Elements(1));
    group.bench_function("card_file_read", |b| {
        b.iter(|| black_box(CardSet::parse(black_box(EXAMPLE_CARDS)).is_ok()));
    });
    group.finish();
}

criterion_group!(sba, benches);
criterion_main!(sba);
