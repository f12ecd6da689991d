//! Real journals of every game the referee plays, recorded from seeded random playouts through
//! the rules: the golden journals of `referee_schema.rs` and the corpus of `journal_fuzz.rs`.
//!
//! Each is what the referee writes: a [`Header`], then the armies (Stratego deployments, or a
//! table game's postcard-encoded army), then the actions (chance outcomes included) with one
//! takeback halfway.

#![allow(dead_code)] // Each test file uses its own part.

use boards::stratego::{Options, Position, Setup, Variant};
use boards::{Actor, Game};
use firmware::journal::{encode_header, encode_record};
use firmware::referee::games::napoleon::NapoleonTable;
use firmware::referee::games::piecepack::PiecepackTable;
use firmware::referee::games::sba::SbaTable;
use firmware::referee::games::{self, WaterlooTable};
use firmware::referee::table::TableGame;
use firmware::referee::{GameKind, Header, Record, SetupMode, SCHEMA};

/// A small, seeded generator (xorshift64*): the same seed records the same game.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// One recorded journal: its name, header and records.
#[derive(Clone, Debug)]
pub struct Recorded {
    /// `classic`, `duel`, `waterloo-expert-start-the-battle-early`, `piecepack-rules-as-written`.
    pub name: String,
    pub header: Header,
    pub records: Vec<Record>,
}

impl Recorded {
    /// The journal's bytes, as the referee's journal writer lays them out.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = encode_header(&self.header).expect("a header encodes");
        for r in &self.records {
            out.extend(encode_record(r).expect("a record encodes"));
        }
        out
    }
}

/// Every game and variant on the menu: Stratego Original and Duel, each Waterloo variant, each
/// Piecepack variant, Sa Belle Alliance, each Napoléon variant.
pub fn games() -> Vec<(String, GameKind)> {
    let mut out = vec![
        (
            "classic".to_string(),
            GameKind::Stratego {
                options: Options::isf(Variant::Classic),
            },
        ),
        (
            "duel".to_string(),
            GameKind::Stratego {
                options: Options::isf(Variant::Duel),
            },
        ),
    ];
    for (game, variants) in games::menu() {
        let family = if game.contains("Piecepack") {
            "piecepack"
        } else if game.contains("Sa Belle Alliance") {
            "sba"
        } else if game.contains("Napoleon") {
            "napoleon"
        } else {
            "waterloo"
        };
        for (label, kind) in variants {
            out.push((format!("{family}-{}", slug(&label)), kind));
        }
    }
    out
}

fn slug(label: &str) -> String {
    let mut s = String::new();
    for c in label.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.ends_with('-') {
            s.push('-');
        }
    }
    s.trim_matches('-').to_string()
}

/// The game `kind` played from seed `seed` for at most `actions` actions (fewer if it ends).
pub fn record(name: &str, kind: GameKind, seed: u64, actions: usize) -> Recorded {
    let mut rng = Rng::new(seed);
    let records = match kind {
        GameKind::Stratego { options } => stratego(options, &mut rng, actions),
        GameKind::Waterloo { choice } => table::<WaterlooTable>(choice, &mut rng, actions),
        GameKind::Piecepack { options } => table::<PiecepackTable>(options, &mut rng, actions),
        GameKind::Sba { choice } => table::<SbaTable>(choice, &mut rng, actions),
        GameKind::Napoleon { choice } => table::<NapoleonTable>(choice, &mut rng, actions),
    };
    Recorded {
        name: name.to_string(),
        header: Header {
            schema: SCHEMA,
            game: kind,
            setup: SetupMode::RankGroups,
        },
        records,
    }
}

/// Every game of [`games`], recorded from `seed` for at most `actions` actions.
pub fn all(seed: u64, actions: usize) -> Vec<Recorded> {
    games()
        .into_iter()
        .enumerate()
        .map(|(i, (name, kind))| record(&name, kind, seed.wrapping_add(i as u64), actions))
        .collect()
}

fn stratego(options: Options, rng: &mut Rng, actions: usize) -> Vec<Record> {
    let setup = Setup::shuffled(options.variant, |n| rng.below(n));
    let mut records: Vec<Record> = setup
        .deployments
        .iter()
        .map(|(seat, d)| Record::Deployed {
            seat,
            deployment: d.clone(),
        })
        .collect();
    let mut history = vec![Position::start(options, setup).expect("a shuffled set-up is legal")];
    for n in 0..actions {
        if n == actions / 2 && history.len() > 2 {
            let to_ply = history.len() as u32 - 3;
            history.truncate(to_ply as usize + 1);
            records.push(Record::Takeback { to_ply });
        }
        let mut position = history.last().expect("a position").clone();
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        position.play(&mv).expect("a legal move plays");
        records.push(Record::Move(mv));
        history.push(position);
    }
    records
}

fn table<T: TableGame>(choice: T::Choice, rng: &mut Rng, actions: usize) -> Vec<Record> {
    table_preferring::<T>(choice, rng, actions, |_| false)
}

/// A Napoléon game played from seed `seed` for at most `actions` actions as [`record`] plays
/// it, except that a battle's fire, whenever the rules allow one, is chosen three times in four:
/// whole battles of volleys and hits, which play by uniformly random choices rarely fights.
pub fn napoleon_battles(
    name: &str,
    choice: firmware::referee::games::napoleon::NapoleonChoice,
    seed: u64,
    actions: usize,
) -> Recorded {
    use boards::napoleon::battle::BattleAction;
    use boards::napoleon::Action;
    let mut rng = Rng::new(seed);
    let records = table_preferring::<NapoleonTable>(choice, &mut rng, actions, |a| {
        matches!(a.action, Action::Battle(BattleAction::Fire { .. }))
    });
    Recorded {
        name: name.to_string(),
        header: Header {
            schema: SCHEMA,
            game: GameKind::Napoleon { choice },
            setup: SetupMode::RankGroups,
        },
        records,
    }
}

/// [`table`], a seat choosing one of the legal actions `preferred` holds three times in four
/// when there are any (no action preferred: exactly [`table`]'s choices).
fn table_preferring<T: TableGame>(
    choice: T::Choice,
    rng: &mut Rng,
    actions: usize,
    preferred: impl Fn(&T::Action) -> bool,
) -> Vec<Record> {
    let mut records = Vec::new();
    let mut armies = boards::BySeat::default();
    for seat in T::setup_order(choice) {
        let mut roll = |n: u32| rng.below(n as usize) as u32;
        let groups = T::sample_groups(choice, seat, &mut roll).expect("the game samples set-ups");
        let army = T::army(choice, seat, &groups).expect("a sampled set-up is legal");
        records.push(Record::Army {
            seat,
            army: postcard::to_allocvec(&army).expect("an army encodes"),
        });
        armies[seat] = Some(army);
    }
    let armies = armies.map(|a| a.expect("both seats set up"));
    let mut history = vec![T::start(choice, &armies).expect("sampled armies start")];
    for n in 0..actions {
        if n == actions / 2 && history.len() > 2 {
            let to_ply = history.len() as u32 - 3;
            history.truncate(to_ply as usize + 1);
            records.push(Record::Takeback { to_ply });
        }
        let mut game = history.last().expect("a game").clone();
        if game.result().is_some() {
            break;
        }
        let action = match game.to_act() {
            Actor::Chance => {
                let outcomes = game.chance();
                let total: u64 = outcomes.iter().map(|(_, w)| u64::from(*w)).sum();
                if total == 0 {
                    break;
                }
                let mut at = rng.next() % total;
                let mut pick = None;
                for (a, w) in outcomes {
                    if at < u64::from(w) {
                        pick = Some(a);
                        break;
                    }
                    at -= u64::from(w);
                }
                pick.expect("a weighted pick")
            }
            Actor::Seat(_) => {
                let mut legal: Vec<T::Action> = game
                    .gestures()
                    .into_iter()
                    .map(|(_, a)| a)
                    .chain(game.choices().into_iter().map(|(_, a)| a))
                    .filter(|a| game.check(a).is_ok())
                    .collect();
                if legal.is_empty() {
                    break;
                }
                let favoured: Vec<usize> =
                    (0..legal.len()).filter(|&i| preferred(&legal[i])).collect();
                if !favoured.is_empty() && rng.below(4) > 0 {
                    legal.swap_remove(favoured[rng.below(favoured.len())])
                } else {
                    legal.swap_remove(rng.below(legal.len()))
                }
            }
            _ => break,
        };
        game.play(&action);
        records.push(Record::Action(
            postcard::to_allocvec(&action).expect("an action encodes"),
        ));
        history.push(game);
    }
    records
}

/// The records of a game's data files as the builds before `Record::Files` wrote them, in
/// their encoding: variants 6 (`Layout`) and 7 (`SbaFiles`) of the record enum. Journals of
/// this schema that hold them must still resume and replay.
#[derive(serde::Serialize)]
pub enum LegacyFiles {
    Deployed,
    Move,
    Takeback,
    Chance,
    Army,
    Action,
    /// A Waterloo game's board layout.
    Layout {
        source: String,
        text: String,
    },
    /// A Sa Belle Alliance game's card file and map layout.
    SbaFiles {
        cards_source: String,
        cards: String,
        layout_source: String,
        layout: String,
    },
}

impl Recorded {
    /// The journal's bytes with `first` written before its records, as the builds before
    /// `Record::Files` did.
    pub fn bytes_after(&self, first: &LegacyFiles) -> Vec<u8> {
        let mut out = encode_header(&self.header).expect("a header encodes");
        out.extend(encode_record(first).expect("a record encodes"));
        for r in &self.records {
            out.extend(encode_record(r).expect("a record encodes"));
        }
        out
    }
}
