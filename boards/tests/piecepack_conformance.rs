//! Random-game conformance suite for Piecepack at Waterloo (OpenSpiel's `RandomSimTest`,
//! shakmaty's `legals_are_legal`).
//!
//! Thousands of seeded games from random legal deployments, each played to its end with
//! uniformly random legal actions and dice sampled from `chance_outcomes`. After every action
//! it checks that
//! - the legal-action list and the legality check agree (every listed action passes `check`, no
//!   duplicates; on sampled positions, every action of the whole action space passes `check`
//!   exactly when it is listed), and chance acts exactly when `chance_outcomes` is not empty,
//! - pieces are conserved (each of the 23 is on the map once, eliminated, or a waiting
//!   Prussian) and every square keeps the stacking limits and holds one side only,
//! - neither seat's view shows an enemy value that no combat has revealed, and every revealed
//!   one is shown — judged against a tracker that learns only from the public combat events —
//!   and neither seat is told an event naming such a piece (`Outcome::visible_to`);
//!
//! and at the end that replaying the action list through the checked path reproduces every
//! intermediate state exactly.

mod support;
use support::action_space;

use std::collections::HashSet;

use boards::game::replay;
use boards::piecepack::{
    Action, EliminationLimit, Event, Holding, Illegal, Options, Outcome, Phase, Position, Seen,
    Setup, Square, Unit, Units, ALLIES, FRENCH,
};
use boards::{Actor, Game, Status};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// No game can be longer: ten turns of at most a few hundred actions each.
const SAFETY_CAP: usize = 20_000;

fn near(options: &Options, a: Square, b: Square) -> u8 {
    a.steps(b, options.diagonals)
}

/// Puts each of `units` on a random one of `squares` where it may stack with what is `taken`;
/// false when one has nowhere left to go.
fn deploy(
    taken: &mut Vec<(Unit, Square)>,
    units: impl IntoIterator<Item = Unit>,
    squares: &[Square],
    rng: &mut Pcg64Mcg,
) -> bool {
    for u in units {
        let fits: Vec<Square> = squares
            .iter()
            .copied()
            .filter(|&s| {
                !taken
                    .iter()
                    .any(|&(v, t)| t == s && (v.kind() == u.kind() || v.side() != u.side()))
            })
            .collect();
        let Some(&s) = fits.choose(rng) else {
            return false;
        };
        taken.push((u, s));
    }
    true
}

/// A random deployment that keeps every set-up rule (retried until one fits).
fn random_setup(options: &Options, rng: &mut Pcg64Mcg) -> Setup {
    let l = options.layout;
    loop {
        let mut taken: Vec<(Unit, Square)> = vec![(Unit::HougoumontGarrison, l.hougoumont)];
        let allied_squares: Vec<Square> = Square::all()
            .filter(|&s| {
                near(options, s, l.hougoumont) <= 1 || near(options, s, l.la_haye_sainte) <= 1
            })
            .collect();
        let allied_units = [
            Unit::Wellington,
            Unit::Cooke,
            Unit::Picton,
            Unit::Clinton,
            Unit::DutchBelgians,
            Unit::Uxbridge,
        ];
        if !deploy(&mut taken, allied_units, &allied_squares, rng) {
            continue;
        }
        let allies = taken.clone();
        let french_squares: Vec<Square> = Square::all()
            .filter(|&s| near(options, s, l.plancenoit) <= 2)
            .filter(|&s| {
                !allies
                    .iter()
                    .any(|&(_, a)| a == s || near(options, a, s) == 1)
            })
            .collect();
        let french_units = Unit::ALL.into_iter().filter(|u| u.side() == FRENCH);
        if !deploy(&mut taken, french_units, &french_squares, rng) {
            continue;
        }
        let (allies, french) = taken.split_at(7);
        return Setup {
            allies: allies.to_vec(),
            french: french.to_vec(),
        };
    }
}

fn check_lists(pos: &Position, space: Option<&[Action]>, ctx: &str) {
    let legal = pos.legal_actions();
    let set: HashSet<Action> = legal.iter().copied().collect();
    assert_eq!(set.len(), legal.len(), "{ctx}: duplicate legal actions");
    for a in &legal {
        if let Err(e) = pos.check(a) {
            panic!("{ctx}: listed {a:?} fails check: {e}");
        }
    }
    let chance = pos.chance_outcomes();
    match pos.to_act() {
        Actor::Chance => {
            let c: HashSet<Action> = chance.iter().map(|(a, _)| *a).collect();
            assert_eq!(c, set, "{ctx}: chance outcomes differ from the legal list");
            assert!(chance.iter().all(|(_, w)| *w > 0));
        }
        Actor::Seat(_) => {
            assert!(chance.is_empty(), "{ctx}: chance outcomes when a seat acts");
            assert!(!legal.is_empty(), "{ctx}: a seat to act with no action");
        }
        Actor::Nobody => {
            assert!(legal.is_empty(), "{ctx}: actions after the end");
            assert!(!pos.status().is_ongoing());
        }
    }
    if let Some(space) = space {
        for a in space {
            assert_eq!(
                pos.check(a).is_ok(),
                set.contains(a),
                "{ctx}: check and the list disagree on {a:?}"
            );
            // A referee's "could this piece make the move, as the table sees the coins" holds
            // for every legal move: the moves it offers the table for a hidden coin always
            // include the one the coin can make. It differs from the rules only on room.
            if let Action::Move { unit, to } = *a {
                let could = pos.could_move_like(unit, unit, to);
                if set.contains(a) {
                    assert!(could, "{ctx}: legal {a:?} is not one the table could see");
                } else if could {
                    assert!(
                        matches!(pos.check(a), Err(Illegal::NoRoom(..))),
                        "{ctx}: {a:?} refused for another reason than room: {:?}",
                        pos.check(a)
                    );
                }
            }
        }
    }
}

fn check_conservation(pos: &Position, ctx: &str) {
    let mut seen = [0u8; 23];
    for s in Square::all() {
        let here: Vec<Unit> = pos.pieces_on(s).collect();
        assert!(here.len() <= 3, "{ctx}: {s} over-full");
        for (i, u) in here.iter().enumerate() {
            seen[u.index()] += 1;
            assert_eq!(pos.square_of(*u), Some(s), "{ctx}: {u:?} misplaced");
            for v in &here[..i] {
                assert_ne!(u.kind(), v.kind(), "{ctx}: {s} stacks two of a kind");
                assert_eq!(u.side(), v.side(), "{ctx}: {s} holds both sides");
            }
        }
    }
    for u in Unit::ALL {
        let off = u8::from(pos.eliminated().contains(u)) + u8::from(pos.waiting().contains(u));
        assert_eq!(seen[u.index()] + off, 1, "{ctx}: {u:?} not conserved");
        if pos.waiting().contains(u) {
            assert!(u.is_prussian(), "{ctx}: {u:?} waiting");
        }
    }
}

fn check_views(pos: &Position, revealed: Units, ctx: &str) {
    for seat in [FRENCH, ALLIES] {
        let view = pos.view(seat);
        assert_eq!(view.seat(), seat);
        assert_eq!(view.to_act(), pos.to_act());
        assert_eq!(view.eliminated(), pos.eliminated());
        for (s, seen) in view.squares() {
            let truth: Vec<Unit> = pos.pieces_on(s).collect();
            assert_eq!(seen.len(), truth.len(), "{ctx}: {s} piece count");
            for (seen, &u) in seen.iter().zip(&truth) {
                check_seen(seat, *seen, u, revealed, ctx);
            }
        }
        let waiting: Vec<Unit> = pos.waiting().iter().collect();
        assert_eq!(view.waiting().len(), waiting.len());
        for (seen, &u) in view.waiting().iter().zip(&waiting) {
            check_seen(seat, *seen, u, revealed, ctx);
        }
        if let Some(c) = view.combat() {
            for u in c.attackers.iter().chain(c.defenders.iter()) {
                assert!(revealed.contains(u), "{ctx}: combat shows unrevealed {u:?}");
            }
        }
    }
}

fn check_seen(seat: boards::Seat, seen: Seen, u: Unit, revealed: Units, ctx: &str) {
    match seen {
        Seen::Own { unit, revealed: r } => {
            assert_eq!(unit, u, "{ctx}");
            assert_eq!(u.side(), seat, "{ctx}");
            assert_eq!(r, revealed.contains(u), "{ctx}: revealed flag of {u:?}");
        }
        Seen::EnemyLeader(unit) => {
            assert_eq!(unit, u, "{ctx}");
            assert!(u.is_leader() && u.side() != seat, "{ctx}");
        }
        Seen::EnemyCoin { suit, unit } => {
            assert!(!u.is_leader() && u.side() != seat, "{ctx}");
            assert_eq!(suit, u.suit(), "{ctx}");
            // The secret: an enemy coin is named exactly when a combat has revealed it.
            assert_eq!(
                unit,
                revealed.contains(u).then_some(u),
                "{ctx}: {u:?} leaks or hides"
            );
        }
    }
}

/// What a seat is told never names an enemy coin that no combat has revealed (the combat that
/// reveals it is announced with it).
fn check_announcements(outcome: &Outcome, before: Units, ctx: &str) {
    let mut revealed = before;
    for e in &outcome.0 {
        if let Event::CombatBegan(c) = e {
            for u in c.attackers.iter().chain(c.defenders.iter()) {
                revealed.insert(u);
            }
        }
    }
    for seat in [FRENCH, ALLIES] {
        for e in outcome.visible_to(seat) {
            let named = match e {
                Event::Moved { unit, .. }
                | Event::Entered { unit, .. }
                | Event::Designated { unit, .. }
                | Event::Eliminated { unit, .. }
                | Event::Retreated { unit, .. }
                | Event::Advanced { unit, .. } => Some(unit),
                _ => None,
            };
            if let Some(u) = named {
                assert!(
                    u.side() == seat || u.is_leader() || revealed.contains(u),
                    "{ctx}: {e:?} told to {seat:?} names a hidden piece"
                );
            }
        }
    }
}

struct Stats {
    games: usize,
    actions: usize,
    combats: usize,
    wins: [[usize; 4]; 2],
}

/// A move towards the mover's goal (the French: the nearest objective they do not hold; the
/// Allies: Plancenoit), so that some games end by capture; `None` outside movement.
fn aimed_move(pos: &Position, legal: &[Action], rng: &mut Pcg64Mcg) -> Option<Action> {
    if pos.phase() != Phase::Movement {
        return None;
    }
    let l = pos.layout();
    let held = pos.holdings();
    let goals: Vec<Square> = if pos.phasing_side() == FRENCH {
        [
            (l.mont_st_jean, 0),
            (l.hougoumont, 2),
            (l.la_haye_sainte, 3),
        ]
        .into_iter()
        .filter(|&(_, i)| held[i] != Some(FRENCH))
        .map(|(s, _)| s)
        .collect()
    } else {
        vec![l.plancenoit]
    };
    let gain = |a: &Action| -> i32 {
        let Action::Move { unit, to } = *a else {
            return 0;
        };
        let Some(from) = pos.square_of(unit) else {
            return 0;
        };
        let d = |s: Square| {
            goals
                .iter()
                .map(|g| i32::from(s.distance(*g)))
                .min()
                .unwrap_or(0)
        };
        d(from) - d(to)
    };
    let best = legal.iter().map(gain).max()?;
    if best <= 0 {
        return Some(Action::EndMovement);
    }
    let top: Vec<Action> = legal.iter().copied().filter(|a| gain(a) == best).collect();
    top.choose(rng).copied()
}

fn play_games(options: Options, games: u64, seed: u64, purpose: f64, stats: &mut Stats) {
    let space = action_space();
    for g in 0..games {
        let mut rng = Pcg64Mcg::seed_from_u64(seed.wrapping_mul(1_000_003) + g);
        let setup = random_setup(&options, &mut rng);
        let mut pos = Position::start(options, setup.clone())
            .unwrap_or_else(|p| panic!("game {g}: random set-up refused: {p}"));
        let mut revealed = Units::EMPTY;
        let mut history = vec![pos.clone()];
        let mut actions = Vec::new();
        let mut step = 0usize;
        while pos.status().is_ongoing() {
            let ctx = format!("seed {seed} game {g} step {step} ({:?})", pos.phase());
            let sample = (step % 97 == 0).then_some(space.as_slice());
            check_lists(&pos, sample, &ctx);
            check_conservation(&pos, &ctx);
            check_views(&pos, revealed, &ctx);
            let action = if pos.to_act() == Actor::Chance {
                let outcomes = pos.chance_outcomes();
                let total: u32 = outcomes.iter().map(|(_, w)| w).sum();
                let mut pick = rng.random_range(0..total);
                let mut chosen = outcomes[0].0;
                for (a, w) in outcomes {
                    if pick < w {
                        chosen = a;
                        break;
                    }
                    pick -= w;
                }
                chosen
            } else {
                let legal = pos.legal_actions();
                let aimed = (purpose > 0.0 && rng.random_bool(purpose))
                    .then(|| aimed_move(&pos, &legal, &mut rng))
                    .flatten();
                // End movement now and then so that not every piece moves every turn.
                if let Some(a) = aimed {
                    a
                } else if pos.phase() == Phase::Movement && rng.random_bool(0.15) {
                    Action::EndMovement
                } else {
                    legal[rng.random_range(0..legal.len())]
                }
            };
            let outcome = pos
                .play(&action)
                .unwrap_or_else(|e| panic!("{ctx}: {action:?} refused: {e}"));
            check_announcements(&outcome, revealed, &ctx);
            for e in &outcome.0 {
                if let Event::CombatBegan(c) = e {
                    stats.combats += 1;
                    for u in c.attackers.iter().chain(c.defenders.iter()) {
                        revealed.insert(u);
                    }
                }
            }
            actions.push(action);
            history.push(pos.clone());
            step += 1;
            assert!(step < SAFETY_CAP, "{ctx}: game too long");
        }
        let ctx = format!("seed {seed} game {g} end");
        check_lists(&pos, Some(&space), &ctx);
        check_conservation(&pos, &ctx);
        check_views(&pos, revealed, &ctx);
        // Exact replay, checked path: every intermediate state.
        let mut again = Position::start(options, setup.clone()).expect("set-up replays");
        for (i, a) in actions.iter().enumerate() {
            again
                .play(a)
                .unwrap_or_else(|e| panic!("{ctx}: replay {i}: {e}"));
            assert_eq!(again, history[i + 1], "{ctx}: replay diverged at {i}");
        }
        let replayed =
            replay::<Position>(options, setup, &actions).unwrap_or_else(|e| panic!("{ctx}: {e}"));
        assert_eq!(replayed, pos);
        stats.games += 1;
        stats.actions += actions.len();
        if let Status::Won { winner, reason } = pos.status() {
            stats.wins[winner.index()][reason as usize] += 1;
        }
    }
}

fn run(options: Options, games: u64, seed: u64, purpose: f64) -> Stats {
    let mut stats = Stats {
        games: 0,
        actions: 0,
        combats: 0,
        wins: [[0; 4]; 2],
    };
    play_games(options, games, seed, purpose, &mut stats);
    println!(
        "{games} games, {} actions, {} combats, wins French {:?} Allies {:?}",
        stats.actions, stats.combats, stats.wins[0], stats.wins[1]
    );
    stats
}

#[test]
fn random_games_under_the_standard_options() {
    let stats = run(Options::STANDARD, 2_000, 1, 0.0);
    assert!(
        stats.combats > stats.games,
        "too few combats to test anything"
    );
}

#[test]
fn random_games_as_the_worked_example_rolls() {
    run(Options::WORKED_EXAMPLE, 500, 2, 0.0);
}

#[test]
fn random_games_under_the_other_rulings() {
    let mut o = Options::STANDARD;
    o.diagonals = true;
    o.holding = Holding::Occupied;
    o.prussians_from_turn = 1;
    run(o, 300, 3, 0.0);
    let mut o = Options::STANDARD;
    o.elimination_limit = EliminationLimit::HighestResult;
    o.eliminate_leaders_and_symbols = true;
    run(o, 300, 4, 0.0);
}

/// Players who head for their objectives, so that every way of winning comes up.
#[test]
fn purposeful_games_end_every_way() {
    let stats = run(Options::STANDARD, 1_000, 5, 0.8);
    let [french, allies] = stats.wins;
    assert!(
        french[0] > 0,
        "no French capture of all three objectives: {french:?}"
    );
    assert!(
        allies[1] > 0 && allies[2] > 0 && allies[3] > 0,
        "{allies:?}"
    );
}
