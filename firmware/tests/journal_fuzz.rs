//! Parse, don't trust: journals whose checksums are valid but whose payloads are not what this
//! build wrote must never panic the umpire.
//!
//! Real journals of every game (`recorded`) have their payloads mutated (bit flips, bytes
//! inserted or deleted, out-of-range values written at a position), are re-framed with fresh
//! checksums so the framing accepts them, and are then resumed as at boot and replayed as
//! `umpire-sim replay` does. Every outcome must be a game or a typed error; a panic fails the
//! test with its seed.
//!
//! The normal run is bounded (a few seconds; fewer iterations off x86_64, where CI runs the
//! tests under QEMU). A longer run: `UMPIRE_FUZZ_ITERS=200000 cargo test --release -p
//! umpire-firmware --test journal_fuzz -- --nocapture` (it prints the inputs tried per decoder);
//! `UMPIRE_FUZZ_SEED` picks another seed.

mod recorded;

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use boards::stratego::{Setup, Variant};
use boards::Game;
use firmware::journal::{decode, encode_header, encode_record, Corruption, MemStore, Tail};
use firmware::referee::{
    check_schema, rebuild, screen_text, GameKind, Header, Record, Referee, RefereeConfig,
    ResumeError, SeededChance, SetupMode, SCHEMA,
};
use firmware::sensing::Millis;
use recorded::{Recorded, Rng};
use serde::{Serialize, Serializer};

/// Iterations of the normal run: a few seconds here, less under QEMU.
fn iterations() -> usize {
    if let Some(n) = std::env::var("UMPIRE_FUZZ_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        return n;
    }
    if cfg!(target_arch = "x86_64") {
        1000
    } else {
        100
    }
}

fn seed() -> u64 {
    std::env::var("UMPIRE_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5EED)
}

/// A payload framed as it is: postcard writes each `u8` of a tuple as one byte.
struct Raw<'a>(&'a [u8]);

impl Serialize for Raw<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTuple;
        let mut t = s.serialize_tuple(self.0.len())?;
        for b in self.0 {
            t.serialize_element(b)?;
        }
        t.end()
    }
}

/// A journal as payloads: framed with valid checksums by [`Payloads::bytes`].
#[derive(Clone, Debug)]
struct Payloads {
    header: Vec<u8>,
    records: Vec<Vec<u8>>,
}

impl Payloads {
    fn of(journal: &Recorded) -> Payloads {
        Payloads {
            header: postcard::to_allocvec(&journal.header).expect("header"),
            records: journal
                .records
                .iter()
                .map(|r| postcard::to_allocvec(r).expect("record"))
                .collect(),
        }
    }

    fn bytes(&self) -> Vec<u8> {
        let mut out = encode_header(&Raw(&self.header)).expect("frames");
        for r in &self.records {
            out.extend(encode_record(&Raw(r)).expect("frames"));
        }
        out
    }
}

/// Values at the edges of the ranges journaled types allow (seats 2, Waterloo's 12 columns,
/// the 23 piecepack units, 26 grid letters, 80 and 100 squares, varint continuation bits...).
const EDGES: [u8; 24] = [
    0, 1, 2, 3, 5, 6, 10, 12, 13, 16, 17, 22, 23, 25, 26, 27, 79, 80, 99, 100, 122, 127, 128, 255,
];

/// One mutation of `payload`, described for the failure message.
fn mutate(payload: &mut Vec<u8>, rng: &mut Rng) -> String {
    let at = rng.below(payload.len() + 1);
    match rng.below(4) {
        0 if at < payload.len() => {
            let mask = 1u8 << rng.below(8);
            payload[at] ^= mask;
            format!("byte {at} ^= {mask:#04x}")
        }
        1 if at < payload.len() => {
            payload.remove(at);
            format!("byte {at} deleted")
        }
        2 => {
            let b = rng.next() as u8;
            payload.insert(at, b);
            format!("{b:#04x} inserted at {at}")
        }
        _ if at < payload.len() => {
            let v = EDGES[rng.below(EDGES.len())];
            payload[at] = v;
            format!("byte {at} = {v}")
        }
        _ => {
            let v = EDGES[rng.below(EDGES.len())];
            payload.push(v);
            format!("{v} appended")
        }
    }
}

/// How a mutated journal fared.
enum Fate {
    /// Resumed into a game (the mutation kept it legal, or hit a record after the damage).
    Resumed,
    /// Refused with a typed error, whose message says what to do.
    Refused,
}

/// Resumes `bytes` as the umpire does at boot, shows its screen, and replays it as
/// `umpire-sim replay` does. Any error must be typed and say something.
fn resume_and_replay(bytes: &[u8]) -> Fate {
    let resumed = Referee::resume(
        RefereeConfig::default(),
        SeededChance::new(7),
        || Ok(MemStore::new()),
        MemStore::from_bytes(bytes.to_vec()),
        [],
        Millis(0),
    );
    let fate = match resumed {
        Ok((referee, _)) => {
            assert!(!screen_text(referee.screen()).is_empty());
            Fate::Resumed
        }
        Err(e) => {
            assert!(!e.to_string().is_empty(), "{e:?}");
            Fate::Refused
        }
    };
    // The replay path: schema, decode, rebuild (Stratego) or the table record.
    if check_schema(bytes).is_ok() {
        if let Ok(recovered) = decode::<Header, Record>(bytes) {
            let _ = recovered.tail.to_string();
            match recovered.header.game {
                GameKind::Stratego { .. } => {
                    if let Err(e) = rebuild(recovered.header, &recovered.records) {
                        assert!(!e.to_string().is_empty());
                    }
                }
                kind => {
                    if let Err(e) = firmware::referee::games::record(kind, &recovered.records) {
                        assert!(!e.to_string().is_empty());
                    }
                }
            }
        }
    }
    fate
}

fn family(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Stratego { .. } => "stratego",
        GameKind::Waterloo { .. } => "waterloo",
        GameKind::Piecepack { .. } => "piecepack",
        GameKind::Sba { .. } => "sba",
        GameKind::Napoleon { .. } => "napoleon",
    }
}

#[test]
fn mutated_payloads_of_real_journals_resume_or_are_refused_never_panic() {
    let iterations = iterations();
    let seed = seed();
    let mut corpus = recorded::all(seed, 40);
    // Waterloo journals as this build writes them: the board layout's text first.
    let laid: Vec<Recorded> = corpus
        .iter()
        .filter(|j| matches!(j.header.game, GameKind::Waterloo { .. }))
        .take(2)
        .map(|j| {
            let mut j = j.clone();
            j.name.push_str("-with-layout");
            j.records.insert(
                0,
                Record::Files(vec![firmware::referee::GameFile {
                    key: "layout".to_string(),
                    source: "the shipped layout".to_string(),
                    text: boards::waterloo::DEFAULT_LAYOUT.to_string(),
                }]),
            );
            j
        })
        .collect();
    corpus.extend(laid);
    for journal in &corpus {
        // The unmutated journals resume: the corpus is real.
        assert!(
            matches!(resume_and_replay(&journal.bytes()), Fate::Resumed),
            "{} does not resume",
            journal.name
        );
    }
    let payloads: Vec<Payloads> = corpus.iter().map(Payloads::of).collect();
    // Inputs tried per decoder, and how many of them resumed anyway.
    let mut tried: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut rng = Rng::new(seed);
    for i in 0..iterations {
        let g = rng.below(corpus.len());
        let journal = &corpus[g];
        let mut p = payloads[g].clone();
        let family = family(journal.header.game);
        // The decoder to feed, each equally often: the header, a whole record, and for a
        // table game the army or action inside a record (re-wrapped, so its own decoder sees
        // the damage).
        let targets: &[&str] = if family == "stratego" {
            &["header", "record"]
        } else {
            &["header", "record", "army", "action"]
        };
        let target = targets[rng.below(targets.len())];
        let (decoder, what) = if target == "header" {
            let m = mutate(&mut p.header, &mut rng);
            ("header".to_string(), format!("header: {m}"))
        } else {
            let of_target: Vec<usize> = (0..journal.records.len())
                .filter(|&r| match (&journal.records[r], target) {
                    (Record::Army { .. }, t) => t != "action",
                    (Record::Action(_), t) => t != "army",
                    _ => target == "record",
                })
                .collect();
            let r = of_target[rng.below(of_target.len())];
            match &journal.records[r] {
                Record::Army { seat, army } if target == "army" => {
                    let mut inner = army.clone();
                    let m = mutate(&mut inner, &mut rng);
                    p.records[r] = postcard::to_allocvec(&Record::Army {
                        seat: *seat,
                        army: inner,
                    })
                    .expect("record");
                    (format!("{family} army"), format!("record {r} army: {m}"))
                }
                Record::Action(action) if target == "action" => {
                    let mut inner = action.clone();
                    let m = mutate(&mut inner, &mut rng);
                    p.records[r] = postcard::to_allocvec(&Record::Action(inner)).expect("record");
                    (
                        format!("{family} action"),
                        format!("record {r} action: {m}"),
                    )
                }
                _ => {
                    let m = mutate(&mut p.records[r], &mut rng);
                    (format!("{family} record"), format!("record {r}: {m}"))
                }
            }
        };
        let bytes = p.bytes();
        let fate = catch_unwind(AssertUnwindSafe(|| resume_and_replay(&bytes)));
        let Ok(fate) = fate else {
            panic!(
                "iteration {i} (UMPIRE_FUZZ_SEED={seed}) panicked on {} with {what}",
                journal.name
            );
        };
        let entry = tried.entry(decoder).or_default();
        entry.0 += 1;
        if matches!(fate, Fate::Resumed) {
            entry.1 += 1;
        }
    }
    eprintln!("journal fuzz, seed {seed}, {iterations} inputs:");
    for (decoder, (n, resumed)) in &tried {
        eprintln!("  {decoder}: {n} inputs, {resumed} still resumed");
    }
    assert_eq!(tried.values().map(|(n, _)| n).sum::<usize>(), iterations);
}

/// Every edge value written at every byte of the last record of each game: the way the
/// `Square(122)` journal was found, done exhaustively for one record per game.
#[test]
fn edge_values_at_every_byte_of_each_games_last_record_never_panic() {
    // Under QEMU every third edge value only.
    let step = if cfg!(target_arch = "x86_64") { 1 } else { 3 };
    let mut tried = 0;
    for journal in recorded::all(seed(), 6) {
        let p = Payloads::of(&journal);
        let last = p.records.len() - 1;
        for at in 0..p.records[last].len() {
            for v in EDGES.into_iter().step_by(step) {
                let mut q = p.clone();
                q.records[last][at] = v;
                let bytes = q.bytes();
                let ok = catch_unwind(AssertUnwindSafe(|| resume_and_replay(&bytes)));
                assert!(
                    ok.is_ok(),
                    "{}: byte {at} of the last record = {v}",
                    journal.name
                );
                tried += 1;
            }
        }
    }
    eprintln!("edge values at every byte of each game's last record: {tried} inputs");
    assert!(tried > 0);
}

/// The journal that was found: 226 bytes, a classic game whose one move goes to `Square(122)`,
/// every checksum valid. The old code decoded the square and panicked indexing the board on
/// every boot; now the record does not decode and resuming reports it.
#[test]
fn the_226_byte_classic_journal_moving_to_square_122_is_refused_not_a_panic() {
    let setup = Setup::shuffled(Variant::Classic, |n| n / 2);
    let mut records: Vec<Record> = setup
        .deployments
        .iter()
        .map(|(seat, d)| Record::Deployed {
            seat,
            deployment: d.clone(),
        })
        .collect();
    let position =
        boards::stratego::Position::start(boards::stratego::Options::isf(Variant::Classic), setup)
            .expect("a legal set-up");
    let mv = position.legal_moves()[0];
    records.push(Record::Move(mv));
    let journal = Recorded {
        name: "classic".into(),
        header: Header {
            schema: SCHEMA,
            game: GameKind::Stratego {
                options: boards::stratego::Options::isf(Variant::Classic),
            },
            setup: SetupMode::RankGroups,
        },
        records,
    };
    let mut p = Payloads::of(&journal);
    // Record::Move is [variant 1, from, to]: the move now goes to square 122.
    assert_eq!(
        p.records[2],
        [1, mv.from.index() as u8, mv.to.index() as u8]
    );
    p.records[2][2] = 122;
    let bytes = p.bytes();
    assert_eq!(bytes.len(), 226);

    // The old code panicked here, on every boot, indexing the board with square 122.
    let resumed = Referee::resume(
        RefereeConfig::default(),
        SeededChance::new(7),
        || Ok(MemStore::new()),
        MemStore::from_bytes(bytes.clone()),
        [],
        Millis(0),
    );
    let Err(ResumeError::Journal(e)) = resumed else {
        panic!("resumed a journal with a square off the board");
    };
    let message = e.to_string();
    assert!(
        message.contains("record 2 at byte 211") && message.contains("out of range"),
        "{message}"
    );

    let recovered = decode::<Header, Record>(&bytes).expect("the header is intact");
    assert_eq!(recovered.records.len(), 2, "the two armies are trusted");
    assert_eq!(
        recovered.tail,
        Tail::Corrupt {
            offset: 211,
            index: 2,
            problem: Corruption::Undecodable(Some(postcard::Error::SerdeDeCustom)),
        }
    );
    assert!(recovered.tail.to_string().contains("out of range"));
}
