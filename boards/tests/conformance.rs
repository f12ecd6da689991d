//! Random-game conformance suite for classic Stratego and Duel (OpenSpiel's `RandomSimTest`,
//! shakmaty's `legals_are_legal`).
//!
//! Thousands of seeded games, each played to its end with uniformly random legal moves. After
//! every action it checks that
//! - the legal-action list and the legality check agree (every listed move passes `check`, no
//!   duplicates; on sampled positions, every straight-line move of every own piece passes
//!   `check` exactly when it is listed; random pairs of squares too),
//! - the status agrees with the list (ongoing exactly while moves remain),
//! - piece counts are conserved (on the board + removed in battle = the army),
//! - neither seat's view holds an enemy rank that the rules have not revealed, and every
//!   revealed one is shown — judged against an independent tracker that learns ranks only from
//!   the public outcomes (battles, Scouts seen moving far), not from the position;
//!
//! and at the end that replaying the action list through the checked path reproduces every
//! intermediate state exactly.
//!
//! 10,000 classic games under ISF rules, 2,000 with the repetition rules off, 2,000 Duel games.

use std::collections::HashSet;

use boards::game::replay;
use boards::stratego::{
    BattleResult, Move, Options, Outcome, Position, Rank, Seen, Setup, Square, Variant, BLUE, RED,
};
use boards::{Actor, Game, Seat, Status};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// No random game has come near this many plies (the longest seen is about 3,300).
const SAFETY_CAP: usize = 50_000;

/// What both players know from what they saw: public ranks, moved pieces, removed pieces.
struct Tracker {
    known: [Option<Rank>; 100],
    moved: [bool; 100],
    removed: [[u8; 13]; 2],
}

impl Tracker {
    fn new() -> Tracker {
        Tracker {
            known: [None; 100],
            moved: [false; 100],
            removed: [[0; 13]; 2],
        }
    }

    fn observe(&mut self, outcome: &Outcome) {
        match *outcome {
            Outcome::Moved(m) => {
                let (f, t) = (m.from.index(), m.to.index());
                let far = m.from.col().abs_diff(m.to.col()) + m.from.row().abs_diff(m.to.row()) > 1;
                self.known[t] = if far {
                    Some(Rank::Scout)
                } else {
                    self.known[f]
                };
                self.known[f] = None;
                self.moved[t] = true;
                self.moved[f] = false;
            }
            Outcome::Battle(b) => {
                let (f, t) = (b.mv.from.index(), b.mv.to.index());
                self.known[f] = None;
                self.moved[f] = false;
                let lose = |r: &mut [[u8; 13]; 2], seat: Seat, rank: Rank| {
                    r[seat.index()][usize::from(rank.code())] += 1
                };
                match b.result {
                    BattleResult::AttackerWon => {
                        self.known[t] = Some(b.attacker.rank);
                        self.moved[t] = true;
                        lose(&mut self.removed, b.defender.owner, b.defender.rank);
                    }
                    BattleResult::DefenderWon => {
                        self.known[t] = Some(b.defender.rank);
                        lose(&mut self.removed, b.attacker.owner, b.attacker.rank);
                    }
                    BattleResult::BothRemoved => {
                        self.known[t] = None;
                        self.moved[t] = false;
                        lose(&mut self.removed, b.attacker.owner, b.attacker.rank);
                        lose(&mut self.removed, b.defender.owner, b.defender.rank);
                    }
                }
            }
        }
    }
}

fn check_views(pos: &Position, tracker: &Tracker, ctx: &str) {
    for seat in [RED, BLUE] {
        let view = pos.view(seat);
        assert_eq!(view.seat(), seat);
        assert_eq!(view.to_move(), pos.to_move());
        for (s, seen) in view.squares() {
            let truth = pos.piece_at(s);
            let i = s.index();
            match seen {
                Seen::Lake => assert!(s.is_lake(), "{ctx}: {s} shown as a lake"),
                Seen::Empty => assert!(truth.is_none() && !s.is_lake(), "{ctx}: {s} shown empty"),
                Seen::Own { rank, revealed } => {
                    let p = truth.unwrap_or_else(|| panic!("{ctx}: {s} own piece on empty square"));
                    assert_eq!((p.owner, p.rank), (seat, rank), "{ctx}: {s}");
                    assert_eq!(
                        revealed,
                        tracker.known[i].is_some(),
                        "{ctx}: {s} revealed flag"
                    );
                }
                Seen::Enemy(e) => {
                    let p = truth.unwrap_or_else(|| panic!("{ctx}: {s} enemy on empty square"));
                    assert_eq!(p.owner, seat.opponent(), "{ctx}: {s}");
                    // The secret: an enemy rank is shown exactly when the public record has it.
                    assert_eq!(e.rank, tracker.known[i], "{ctx}: {s} leaks or hides a rank");
                    assert_eq!(e.has_moved, tracker.moved[i], "{ctx}: {s} moved flag");
                }
            }
        }
        for owner in [RED, BLUE] {
            for rank in Rank::ALL {
                assert_eq!(
                    view.lost(owner, rank),
                    tracker.removed[owner.index()][usize::from(rank.code())],
                    "{ctx}: lost {rank}"
                );
            }
        }
    }
}

fn check_conservation(pos: &Position, tracker: &Tracker, variant: Variant, ctx: &str) {
    let mut on_board = [[0u8; 13]; 2];
    for (_, p) in pos.pieces() {
        on_board[p.owner.index()][usize::from(p.rank.code())] += 1;
    }
    for seat in [RED, BLUE] {
        for rank in Rank::ALL {
            let (i, r) = (seat.index(), usize::from(rank.code()));
            assert_eq!(
                on_board[i][r] + tracker.removed[i][r],
                variant.count(rank),
                "{ctx}: {rank} of seat {i} not conserved"
            );
            assert_eq!(pos.alive(seat, rank), on_board[i][r], "{ctx}: alive count");
        }
    }
}

/// Every straight-line move of every piece of the side to move, plus a few random pairs: `check`
/// must pass exactly for the listed moves.
fn check_universe(pos: &Position, legal: &[Move], rng: &mut Pcg64Mcg, full: bool, ctx: &str) {
    let mut candidates = Vec::new();
    if full {
        for (from, p) in pos.pieces() {
            if p.owner != pos.to_move() {
                continue;
            }
            for to in Square::all() {
                if to != from && (to.row() == from.row() || to.col() == from.col()) {
                    candidates.push(Move::new(from, to));
                }
            }
        }
    }
    for _ in 0..4 {
        let a = Square::from_index(rng.random_range(0..100)).expect("below 100");
        let b = Square::from_index(rng.random_range(0..100)).expect("below 100");
        candidates.push(Move::new(a, b));
    }
    for m in candidates {
        assert_eq!(
            pos.check(&m).is_ok(),
            legal.contains(&m),
            "{ctx}: list and check disagree on {m}: {:?}",
            pos.check(&m)
        );
    }
}

fn play_one(options: Options, seed: u64) -> usize {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let setup = Setup::shuffled(options.variant, |n| rng.random_range(0..n));
    let mut pos = Position::start(options, setup.clone()).expect("a shuffled set-up is valid");
    let mut history = vec![pos.clone()];
    let mut actions = Vec::new();
    let mut tracker = Tracker::new();
    loop {
        let ply = actions.len();
        let ctx = format!("{options:?} seed {seed} ply {ply}");
        assert!(ply < SAFETY_CAP, "{ctx}: game did not end");
        let legal = pos.legal_actions();
        let mut listed = HashSet::with_capacity(legal.len());
        for m in &legal {
            assert_eq!(pos.check(m), Ok(()), "{ctx}: listed move {m} refused");
            assert!(listed.insert(m), "{ctx}: {m} listed twice");
        }
        check_universe(&pos, &legal, &mut rng, ply % 16 == 0, &ctx);
        check_views(&pos, &tracker, &ctx);
        check_conservation(&pos, &tracker, options.variant, &ctx);
        let status = pos.status();
        if legal.is_empty() {
            assert!(!status.is_ongoing(), "{ctx}: no moves but ongoing");
            assert_eq!(pos.to_act(), Actor::Nobody);
            if let Status::Won { winner, .. } = status {
                assert!(winner == RED || winner == BLUE);
            }
            break;
        }
        assert_eq!(status, Status::Ongoing, "{ctx}");
        assert_eq!(pos.to_act(), Actor::Seat(pos.to_move()));
        let m = legal[rng.random_range(0..legal.len())];
        let outcome = pos
            .play(&m)
            .unwrap_or_else(|e| panic!("{ctx}: {m} refused: {e}"));
        tracker.observe(&outcome);
        actions.push(m);
        history.push(pos.clone());
    }

    // Replaying the action list through the checked path reproduces every state exactly.
    let mut again = Position::start(options, setup.clone()).expect("valid");
    assert_eq!(again, history[0]);
    for (i, m) in actions.iter().enumerate() {
        again.play(m).expect("replayed move is legal");
        assert_eq!(
            again,
            history[i + 1],
            "seed {seed}: replay differs after ply {}",
            i + 1
        );
    }
    let replayed = replay::<Position>(options, setup, &actions).expect("replay");
    assert_eq!(&replayed, history.last().expect("non-empty"));
    actions.len()
}

fn run(options: Options, seeds: std::ops::Range<u64>) {
    let games = seeds.end - seeds.start;
    let plies: usize = seeds.map(|seed| play_one(options, seed)).sum();
    eprintln!("{options:?}: {games} complete games, {plies} plies checked");
}

// Split into several tests so the test harness runs them in parallel.
#[test]
fn classic_isf_games_0() {
    run(Options::isf(Variant::Classic), 0..2500);
}

#[test]
fn classic_isf_games_1() {
    run(Options::isf(Variant::Classic), 2500..5000);
}

#[test]
fn classic_isf_games_2() {
    run(Options::isf(Variant::Classic), 5000..7500);
}

#[test]
fn classic_isf_games_3() {
    run(Options::isf(Variant::Classic), 7500..10_000);
}

#[test]
fn classic_plain_games() {
    run(Options::plain(Variant::Classic), 100_000..102_000);
}

#[test]
fn duel_isf_games() {
    run(Options::isf(Variant::Duel), 200_000..202_000);
}
