//! Napoléon speed: legal-action lists per second in mid-game, and complete random campaigns
//! per second.
//!
//! The workload (fixed seeds): the default map, order of battle and turn track, two players,
//! the historical set-up; uniformly random legal actions and chance outcomes by weight.
//! Legal-action generation is timed on 200 positions where a seat acts, reached after 0-400
//! such actions (most of them moves, the largest lists).
//!
//! Run with `cargo bench -p umpire-boards --bench napoleon`; criterion prints elements per
//! second.

use std::hint::black_box;

use boards::napoleon::{Action, Campaign, Napoleon, Options, Players, Setup};
use boards::{Actor, Game};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

const POSITIONS: usize = 200;
const GAMES_PER_ITER: u64 = 2;

fn step(g: &mut Napoleon, rng: &mut Pcg64Mcg) -> bool {
    let action: Action = match g.to_act() {
        Actor::Nobody => return false,
        Actor::Chance => {
            let outs = g.chance_outcomes();
            let total: u32 = outs.iter().map(|(_, w)| *w).sum();
            let mut r = rng.random_range(0..total);
            let mut pick = outs[0].0.clone();
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
            // A seat with nothing to do is a fault the conformance suite reports; here it
            // only ends the game.
            if legal.is_empty() {
                return false;
            }
            legal[rng.random_range(0..legal.len())].clone()
        }
    };
    g.play_unchecked(&action);
    true
}

fn new_game(options: &Options) -> Napoleon {
    let Ok(g) = Napoleon::start(options.clone(), Setup::Historical) else {
        unreachable!("the historical set-up has no problems")
    };
    g
}

fn positions(options: &Options) -> Vec<Napoleon> {
    let mut rng = Pcg64Mcg::seed_from_u64(1815);
    let mut out = Vec::with_capacity(POSITIONS);
    while out.len() < POSITIONS {
        let mut g = new_game(options);
        for _ in 0..rng.random_range(0..=400) {
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

fn bench(c: &mut Criterion) {
    let Ok(campaign) = Campaign::standard() else {
        unreachable!("the default data is valid")
    };
    let options = Options::new(campaign, Players::Two);
    let mut group = c.benchmark_group("napoleon");
    let ps = positions(&options);
    group.throughput(Throughput::Elements(ps.len() as u64));
    group.bench_function("legal action lists", |b| {
        b.iter(|| {
            for g in &ps {
                black_box(g.legal_actions());
            }
        });
    });
    group.throughput(Throughput::Elements(GAMES_PER_ITER));
    group.sample_size(10);
    group.bench_function("random campaigns", |b| {
        let mut rng = Pcg64Mcg::seed_from_u64(22);
        b.iter(|| {
            for _ in 0..GAMES_PER_ITER {
                let mut g = new_game(&options);
                while step(&mut g, &mut rng) {}
                black_box(&g);
            }
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
