//! Napoléon battle speed: complete random battles per second and legal-action lists per second
//! in mid-battle.
//!
//! The workload (fixed seeds): the French attack Waterloo from Quatre Bras with ten blocks,
//! ten Anglo-Dutch blocks defend with four more waiting in Brussel; uniformly random legal
//! actions and chance outcomes (by weight) until the battle ends. Legal-action generation is
//! timed on 1,000 positions where an army acts, reached after 0-150 actions.
//!
//! Run with `cargo bench -p umpire-boards --bench napoleon_battle`.

use std::hint::black_box;

use boards::napoleon::battle::{
    Approach, Battle, BattleActor, BattleOptions, BattleSetup, Side, Unit,
};
use boards::napoleon::{Army, Map, OrderOfBattle};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

const BATTLES_PER_ITER: u64 = 20;
const POSITIONS: usize = 1_000;

struct Data {
    map: Map,
    oob: OrderOfBattle,
    setup: BattleSetup,
}

fn data() -> Data {
    let Ok(map) = Map::standard() else {
        unreachable!("the default map is valid")
    };
    let Ok(oob) = OrderOfBattle::standard(&map) else {
        unreachable!("the default order of battle is valid")
    };
    let town = |code: &str| match map.town(code) {
        Some(t) => t,
        None => unreachable!("{code} is on the map"),
    };
    let units = |army: Army, skip: usize, n: usize| -> Vec<Unit> {
        oob.army(army)
            .skip(skip)
            .take(n)
            .map(|(block, b)| Unit {
                block,
                strength: b.strength,
            })
            .collect()
    };
    let setup = BattleSetup {
        town: town("WAT"),
        attackers: units(Army::French, 0, 10),
        defenders: units(Army::AngloDutch, 0, 10),
        approaches: vec![
            Approach {
                town: town("QB"),
                held_by: Some(Side::Attacker),
                attacked_from: true,
                battle: false,
                reinforcements: units(Army::French, 10, 4),
            },
            Approach {
                town: town("BRU"),
                held_by: Some(Side::Defender),
                attacked_from: false,
                battle: false,
                reinforcements: units(Army::AngloDutch, 10, 4),
            },
        ],
        options: BattleOptions::default(),
        terrain_elsewhere: Vec::new(),
        one_allied_player: false,
    };
    Data { map, oob, setup }
}

fn new_battle(d: &Data) -> Battle {
    match Battle::new(&d.oob, &d.map, d.setup.clone()) {
        Ok(b) => b,
        Err(p) => unreachable!("the set-up is valid: {p}"),
    }
}

fn step(b: &mut Battle, rng: &mut Pcg64Mcg) -> bool {
    let action = match b.actor() {
        BattleActor::Over => return false,
        BattleActor::Chance => {
            let outs = b.chance_outcomes();
            let total: u32 = outs.iter().map(|&(_, w)| w).sum();
            let mut pick = rng.random_range(0..total);
            let mut chosen = outs[0].0;
            for &(a, w) in &outs {
                if pick < w {
                    chosen = a;
                    break;
                }
                pick -= w;
            }
            chosen
        }
        BattleActor::Army(_) => {
            let legal = b.legal_actions();
            legal[rng.random_range(0..legal.len())]
        }
    };
    b.play_unchecked(&action);
    true
}

fn benches(c: &mut Criterion) {
    let d = data();
    let mut group = c.benchmark_group("napoleon_battle");
    group.throughput(Throughput::Elements(BATTLES_PER_ITER));
    group.sample_size(20);
    group.bench_function("random_battles", |bench| {
        let mut seed = 0u64;
        bench.iter(|| {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            seed += 1;
            for _ in 0..BATTLES_PER_ITER {
                let mut b = new_battle(&d);
                while step(&mut b, &mut rng) {}
                black_box(&b);
            }
        });
    });
    let mut rng = Pcg64Mcg::seed_from_u64(1815);
    let mut positions = Vec::with_capacity(POSITIONS);
    while positions.len() < POSITIONS {
        let mut b = new_battle(&d);
        for _ in 0..rng.random_range(0..=150) {
            if !step(&mut b, &mut rng) {
                break;
            }
        }
        if matches!(b.actor(), BattleActor::Army(_)) {
            positions.push(b);
        }
    }
    group.throughput(Throughput::Elements(POSITIONS as u64));
    group.bench_function("legal_actions", |bench| {
        bench.iter(|| {
            for b in &positions {
                black_box(b.legal_actions());
            }
        });
    });
    group.finish();
}

criterion_group!(battle, benches);
criterion_main!(battle);
