//! Classic Stratego speed: complete random games per second and legal-move lists per second.
//!
//! The workload (fixed seeds): each side's 40 pieces shuffled uniformly over its four home rows,
//! then uniformly random legal moves until the game ends or 2,000 plies. Move generation is timed
//! on 1,000 mid-game positions reached after 20-200 such plies. Each is measured with the
//! two-squares and more-squares rules off (`plain`, the target workload) and on (`isf`).
//!
//! Run with `cargo bench -p umpire-boards --bench stratego`; criterion prints elements per second
//! (games, or move lists).

use std::hint::black_box;

use boards::stratego::{MoveList, Options, Position, Setup, Variant};
use boards::Game;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

const GAMES_PER_ITER: u64 = 100;
const MAX_PLIES: usize = 2_000;
const POSITIONS: usize = 1_000;

/// Up to `plies` uniformly random legal moves from `pos`; returns how many were played (fewer
/// when the game ends first).
fn random_plies(
    pos: &mut Position,
    rng: &mut Pcg64Mcg,
    list: &mut MoveList,
    plies: usize,
) -> usize {
    for ply in 0..plies {
        pos.legal_moves_into(list);
        if list.is_empty() {
            return ply;
        }
        let m = list[rng.random_range(0..list.len())];
        pos.play_unchecked(&m);
    }
    plies
}

/// One random game from `rng`'s set-up to its end or `MAX_PLIES`; returns the plies played.
fn random_game(options: Options, rng: &mut Pcg64Mcg, list: &mut MoveList) -> usize {
    let setup = Setup::shuffled(options.variant, |n| rng.random_range(0..n));
    let Ok(mut pos) = Position::start(options, setup) else {
        unreachable!("a shuffled set-up is valid")
    };
    random_plies(&mut pos, rng, list, MAX_PLIES)
}

fn mid_game_positions(options: Options) -> Vec<Position> {
    let mut rng = Pcg64Mcg::seed_from_u64(2024);
    let mut list = MoveList::new();
    let mut out = Vec::with_capacity(POSITIONS);
    while out.len() < POSITIONS {
        let setup = Setup::shuffled(options.variant, |n| rng.random_range(0..n));
        let Ok(mut pos) = Position::start(options, setup) else {
            unreachable!("a shuffled set-up is valid")
        };
        let plies = rng.random_range(20..=200);
        if random_plies(&mut pos, &mut rng, &mut list, plies) == plies {
            out.push(pos);
        }
    }
    out
}

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_games");
    group.throughput(Throughput::Elements(GAMES_PER_ITER));
    for (name, options) in [
        ("plain", Options::plain(Variant::Classic)),
        ("isf", Options::isf(Variant::Classic)),
    ] {
        group.bench_function(name, |b| {
            let mut seed = 0u64;
            let mut list = MoveList::new();
            b.iter(|| {
                // Fresh seeds each iteration, the same sequence on every run.
                let mut rng = Pcg64Mcg::seed_from_u64(seed);
                seed += 1;
                let plies: usize = (0..GAMES_PER_ITER)
                    .map(|_| random_game(options, &mut rng, &mut list))
                    .sum();
                black_box(plies)
            });
        });
    }
    group.finish();
}

fn move_lists(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_move_lists");
    group.throughput(Throughput::Elements(POSITIONS as u64));
    for (name, options) in [
        ("plain", Options::plain(Variant::Classic)),
        ("isf", Options::isf(Variant::Classic)),
    ] {
        let positions = mid_game_positions(options);
        group.bench_function(name, |b| {
            let mut list = MoveList::new();
            b.iter(|| {
                let mut total = 0;
                for pos in &positions {
                    pos.legal_moves_into(&mut list);
                    total += list.len();
                }
                black_box(total)
            });
        });
    }
    group.finish();
}

criterion_group!(benches, games, move_lists);
criterion_main!(benches);
