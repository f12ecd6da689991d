//! The journal: appending a game's records, and resuming a 1,000-action game after a power cut.
//!
//! - `append_1000_moves/memory`: encoding, framing and checksumming 1,000 move records into an
//!   in-memory store: the CPU cost.
//! - `append_1000_moves/file_synced`: the same into a file on this machine's disk with
//!   `sync_data` after every record, as the umpire does before it announces a result. The
//!   figure is this machine's disk, not a Pi's SD card.
//! - `resume_1000_moves`: `Referee::resume` from the journal of a 1,000-move game: decode, check
//!   every record, replay every move through the rules, compare with the sensed board.
//!
//! Run with `cargo bench -p umpire-firmware --bench journal`.

use std::hint::black_box;

use boards::stratego::{Move, MoveList, Options, Position, Setup, Variant, BLUE, RED};
use boards::Game;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use firmware::journal::{FileStore, JournalWriter, MemStore};
use firmware::referee::{
    GameKind, Header, Record, Referee, RefereeConfig, SeededChance, SetupMode, SCHEMA,
};
use firmware::sensing::{Millis, Place};

/// A seeded random game of at least 1,000 moves (plain rules), its set-up and moves.
fn long_game() -> (Setup, Vec<Move>, Position) {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    loop {
        let setup = Setup::shuffled(Variant::Classic, &mut next);
        let Ok(mut pos) = Position::start(Options::plain(Variant::Classic), setup.clone()) else {
            continue;
        };
        let mut moves = Vec::new();
        let mut list = MoveList::new();
        while moves.len() < 1000 {
            pos.legal_moves_into(&mut list);
            if list.is_empty() {
                break;
            }
            let m = list[next(list.len())];
            pos.play_unchecked(&m);
            moves.push(m);
        }
        if moves.len() == 1000 {
            return (setup, moves, pos);
        }
    }
}

fn records(setup: &Setup, moves: &[Move]) -> Vec<Record> {
    let mut out = vec![
        Record::Deployed {
            seat: RED,
            deployment: setup.deployments[RED].clone(),
        },
        Record::Deployed {
            seat: BLUE,
            deployment: setup.deployments[BLUE].clone(),
        },
    ];
    out.extend(moves.iter().map(|&m| Record::Move(m)));
    out
}

fn header() -> Header {
    Header {
        schema: SCHEMA,
        game: GameKind::Stratego {
            options: Options::plain(Variant::Classic),
        },
        setup: SetupMode::RankGroups,
    }
}

fn journal(c: &mut Criterion) {
    let (setup, moves, end) = long_game();
    let records = records(&setup, &moves);
    let mut group = c.benchmark_group("append_1000_moves");
    group.sample_size(10);
    group.bench_function("memory", |b| {
        b.iter(|| {
            let mut w = JournalWriter::<MemStore, Record>::create(MemStore::new(), &header())
                .expect("create");
            for r in &records {
                w.append(r).expect("append");
            }
            black_box(w.len_bytes())
        })
    });
    let dir = std::env::temp_dir().join(format!("umpire-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut n = 0u32;
    group.bench_function("file_synced", |b| {
        b.iter_batched(
            || {
                n += 1;
                let path = dir.join(format!("game-{n}.umpj"));
                let _ = std::fs::remove_file(&path);
                FileStore::create(&path).expect("file")
            },
            |store| {
                let mut w =
                    JournalWriter::<FileStore, Record>::create(store, &header()).expect("create");
                for r in &records {
                    w.append(r).expect("append");
                }
                black_box(w.len_bytes())
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);

    let mut w =
        JournalWriter::<MemStore, Record>::create(MemStore::new(), &header()).expect("create");
    for r in &records {
        w.append(r).expect("append");
    }
    let bytes = w.into_store().into_bytes();
    let sensed: Vec<Place> = end.pieces().map(|(s, _)| Place::Square(s.cell())).collect();
    c.bench_function("resume_1000_moves", |b| {
        b.iter(|| {
            let (referee, decisions) = Referee::resume(
                RefereeConfig {
                    isf_rules: false,
                    ..RefereeConfig::default()
                },
                SeededChance::new(1),
                || Ok(MemStore::new()),
                MemStore::from_bytes(bytes.clone()),
                sensed.iter().copied(),
                Millis(0),
            )
            .expect("resumes");
            assert_eq!(referee.position().map(Position::ply), Some(1000));
            black_box(decisions.len())
        })
    });
}

criterion_group!(benches, journal);
criterion_main!(benches);
