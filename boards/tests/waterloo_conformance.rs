//! Random-game conformance suite for Stratego: Waterloo (OpenSpiel's `RandomSimTest`).
//!
//! Seeded games of every version and scenario, each played to its end with uniformly random
//! legal actions and chance outcomes sampled by their weights from `chance_outcomes`. After every
//! action it checks that
//! - every listed action passes `check`, the list has no duplicates, and random actions (moves,
//!   attacks, fire, entries between random squares) pass `check` exactly when listed;
//! - `to_act`, `status` and the chance list agree;
//! - pieces are conserved: board + reserve + held back + off the board + eliminated + undrawn
//!   Prussians = the army;
//! - neither seat's view shows an enemy unit the rules have not revealed, and every revealed one
//!   is shown — judged against a tracker that learns only from the public events; its own line
//!   of retreat is shown, never the enemy's (the `View` type has no field for it);
//!
//! and at the end that replaying the action list through the checked path reproduces every
//! state exactly.

use std::collections::HashSet;

use boards::game::replay;
use boards::geometry::grid::{Cell, Dir};
use boards::waterloo::{
    Action, Army, Card, CardPlay, ChanceAction, DieFace, EndReason, Event, Options, Phase,
    PursuitEvent, Seen, Setup, Unit, Version, Waterloo, ALLIED, FRENCH,
};
use boards::{Actor, Game, Status};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

const SAFETY_CAP: usize = 200_000;

#[derive(Default)]
struct Tally {
    games: usize,
    actions: usize,
    dice: usize,
    frenzies: usize,
    withdrawals: usize,
    prussians: usize,
    fires: usize,
    pursuits: usize,
    cards: usize,
    reasons: Vec<(String, usize)>,
}

impl Tally {
    fn end(&mut self, s: &Status<EndReason>) {
        let k = match s {
            Status::Won { winner, reason } => format!("{winner:?} {reason:?}"),
            Status::Drawn { reason } => format!("draw {reason:?}"),
            Status::Ongoing => "ongoing".into(),
        };
        match self.reasons.iter_mut().find(|(r, _)| *r == k) {
            Some((_, n)) => *n += 1,
            None => self.reasons.push((k, 1)),
        }
    }
}

fn sample_chance(g: &Waterloo, rng: &mut Pcg64Mcg) -> Action {
    let outs = g.chance_outcomes();
    assert!(!outs.is_empty(), "chance to act with no outcomes");
    let total: u32 = outs.iter().map(|(_, w)| *w).sum();
    let mut r = rng.random_range(0..total);
    for (a, w) in &outs {
        if r < *w {
            return *a;
        }
        r -= w;
    }
    outs[0].0
}

fn random_action(g: &Waterloo, rng: &mut Pcg64Mcg) -> Action {
    let l = &g.options().layout;
    let cell = |rng: &mut Pcg64Mcg| {
        Cell::new(
            rng.random_range(0..l.columns + 1),
            rng.random_range(0..l.rows + 1),
        )
    };
    let dir = Dir::ALL[rng.random_range(0..4)];
    match rng.random_range(0..14) {
        0 => Action::Move {
            from: cell(rng),
            to: cell(rng),
        },
        1 => Action::Attack {
            from: cell(rng),
            to: cell(rng),
            dir,
        },
        2 => Action::Fire {
            from: cell(rng),
            at: cell(rng),
            tile: rng.random(),
        },
        3 => Action::Enter {
            unit: Unit::ALL[rng.random_range(0..Unit::ALL.len())],
            to: cell(rng),
        },
        4 => Action::TakeOff { from: cell(rng) },
        5 => Action::Frenzy { at: cell(rng) },
        6 => Action::PlayCard(match rng.random_range(0..5) {
            0 => CardPlay::Reconnaissance { at: cell(rng) },
            1 => CardPlay::Initiative,
            2 => CardPlay::CombinedAttack,
            3 => CardPlay::FightingSpirit { on: cell(rng) },
            _ => CardPlay::GrandBattery { at: cell(rng) },
        }),
        7 => Action::Draft(Card::ALL[rng.random_range(0..5)]),
        8 => Action::Pursue {
            cavalry: Unit::ALL[rng.random_range(0..Unit::ALL.len())],
            target: cell(rng),
        },
        9 => Action::Charge {
            cavalry: Unit::ALL[rng.random_range(0..Unit::ALL.len())],
            target: Unit::ALL[rng.random_range(0..Unit::ALL.len())],
        },
        10 => Action::Save { from: cell(rng) },
        11 => Action::Decline,
        12 => Action::EndTurn,
        _ => Action::Chance(ChanceAction::Die(DieFace::ALL[rng.random_range(0..6)])),
    }
}

fn conserved(g: &Waterloo, ctx: &str) {
    for army in [Army::French, Army::Allied, Army::Prussian] {
        let seat = boards::waterloo::seat_of(army);
        let on_board = g.pieces().filter(|(_, p)| p.unit.army() == army).count();
        let of = |v: &mut dyn Iterator<Item = Unit>| v.filter(|u| u.army() == army).count();
        let total = on_board
            + of(&mut g.reserve(seat).iter().copied())
            + of(&mut g.held_back().iter().copied())
            + of(&mut g.off_board(seat))
            + of(&mut g.dead(seat).iter().copied())
            + of(&mut g.prussian_pool().iter().copied())
            + of(&mut g.pursuit_cavalry(seat).iter().map(|(u, _)| *u))
            + of(&mut g.set_aside(seat).iter().copied());
        assert_eq!(total, Unit::army_size(army), "{ctx}: {army} not conserved");
    }
}

fn check_views(g: &Waterloo, revealed: &[bool], ctx: &str) {
    let l = &g.options().layout;
    for seat in [ALLIED, FRENCH] {
        let v = g.view(seat);
        assert_eq!(v.line_of_retreat(), g.line_of_retreat(seat), "{ctx}");
        // The Pursuit: the seat's own set-aside pieces by unit, the enemy's by back and count.
        let enemy = seat.opponent();
        assert_eq!(v.pursuit_cavalry(), g.pursuit_cavalry(seat), "{ctx}");
        let backs: Vec<_> = g
            .pursuit_cavalry(enemy)
            .iter()
            .map(|&(u, w)| (u.back(), w))
            .collect();
        assert_eq!(v.enemy_pursuit_cavalry(), backs.as_slice(), "{ctx}");
        assert_eq!(v.set_aside(), g.set_aside(seat), "{ctx}");
        assert_eq!(v.enemy_set_aside(), g.set_aside(enemy).len(), "{ctx}");
        assert_eq!(v.turn(), g.turn());
        for (c, seen) in v.squares() {
            let truth = g.piece_at(c);
            match seen {
                Seen::Empty => assert!(truth.is_none(), "{ctx}: {c} shown empty"),
                Seen::Own(p) => {
                    let t = truth.unwrap_or_else(|| panic!("{ctx}: {c} own on empty"));
                    assert_eq!(t, p, "{ctx}: {c}");
                    assert_eq!(p.seat(), seat);
                }
                Seen::Enemy { back, unit, .. } => {
                    let t = truth.unwrap_or_else(|| panic!("{ctx}: {c} enemy on empty"));
                    assert_ne!(t.seat(), seat, "{ctx}: {c}");
                    assert_eq!(back, t.unit.back());
                    let i = l.index(c);
                    assert_eq!(
                        unit,
                        revealed[i].then_some(t.unit),
                        "{ctx}: {c} leaks or hides a unit"
                    );
                }
            }
        }
    }
}

fn observe(revealed: &mut [bool], g: &Waterloo, events: &[Event], tally: &mut Tally) {
    let l = &g.options().layout;
    for e in events {
        match *e {
            Event::Moved { from, to } => {
                revealed[l.index(to)] = revealed[l.index(from)];
                revealed[l.index(from)] = false;
            }
            Event::Battle(b) => {
                revealed[l.index(b.attacker.0)] = true;
                revealed[l.index(b.defender.0)] = true;
                if b.frenzy {
                    tally.frenzies += 1;
                }
            }
            Event::Eliminated { cell, .. } | Event::TakenOff { from: cell } => {
                revealed[l.index(cell)] = false
            }
            Event::Withdrawn { cell, .. } => {
                revealed[l.index(cell)] = false;
                tally.withdrawals += 1;
            }
            Event::Entered { to, .. } => revealed[l.index(to)] = false,
            Event::PrussianArrived { to, .. } => {
                revealed[l.index(to)] = false;
                tally.prussians += 1;
            }
            Event::Pursuit(PursuitEvent::CutDown { cell, .. } | PursuitEvent::Saved { cell }) => {
                revealed[l.index(cell)] = false;
                tally.pursuits += 1;
            }
            Event::Pursuit(_) => tally.pursuits += 1,
            Event::Reconnoitred { cell, .. } => revealed[l.index(cell)] = true,
            Event::CardPlayed { .. } => tally.cards += 1,
            Event::Rolled(_) => tally.dice += 1,
            Event::Fired { .. } => tally.fires += 1,
            _ => {}
        }
    }
}

fn run(name: &str, options: Options, games: u64, seed: u64) -> Tally {
    let mut tally = Tally::default();
    for n in 0..games {
        let mut rng = Pcg64Mcg::seed_from_u64(seed + n);
        let setup = Setup::random(&options, |k| rng.random_range(0..k));
        let mut g = Waterloo::start(options.clone(), setup.clone())
            .unwrap_or_else(|p| panic!("{name} game {n}: random set-up refused: {p}"));
        let mut revealed = vec![false; options.layout.cells()];
        let mut history = vec![g.clone()];
        let mut actions = Vec::new();
        conserved(&g, name);
        loop {
            let ctx = format!("{name} game {n} action {}", actions.len());
            assert!(actions.len() < SAFETY_CAP, "{ctx}: too long");
            let action = match g.to_act() {
                Actor::Nobody => {
                    assert!(!g.status().is_ongoing(), "{ctx}");
                    assert!(g.legal_actions().is_empty(), "{ctx}");
                    break;
                }
                Actor::Chance => {
                    assert!(g.status().is_ongoing());
                    let a = sample_chance(&g, &mut rng);
                    assert_eq!(g.check(&a), Ok(()), "{ctx}: chance {a}");
                    a
                }
                Actor::Seat(s) => {
                    assert!(g.status().is_ongoing());
                    assert!(g.chance_outcomes().is_empty());
                    let legal = g.legal_actions();
                    assert!(!legal.is_empty(), "{ctx}");
                    let mut listed = HashSet::with_capacity(legal.len());
                    for a in &legal {
                        assert_eq!(
                            g.check(a),
                            Ok(()),
                            "{ctx}: listed {a} refused\n{}",
                            g.diagram()
                        );
                        assert!(listed.insert(a), "{ctx}: {a} listed twice");
                        if let Action::Move { from, .. }
                        | Action::Attack { from, .. }
                        | Action::Fire { from, .. } = a
                        {
                            assert_eq!(g.piece_at(*from).map(|p| p.seat()), Some(s));
                        }
                    }
                    // The turn waits for a withdrawn commander exactly when his return is
                    // listed (outside the Pursuit, for a commander that has been on the board).
                    let commander = if s == ALLIED {
                        Unit::Uxbridge
                    } else {
                        Unit::Ney
                    };
                    if g.phase() == Phase::Act
                        && g.pursuit_victor().is_none()
                        && !g.reserve(s).contains(&commander)
                    {
                        let listed = legal
                            .iter()
                            .any(|a| matches!(a, Action::Enter { unit, .. } if *unit == commander));
                        assert_eq!(
                            g.reinstatement_open(),
                            listed,
                            "{ctx}: reinstatement_open disagrees with the list\n{}",
                            g.diagram()
                        );
                    }
                    if actions.len() % 7 == 0 {
                        for _ in 0..40 {
                            let a = random_action(&g, &mut rng);
                            assert_eq!(
                                g.check(&a).is_ok(),
                                legal.contains(&a),
                                "{ctx}: check and list disagree on {a}: {:?}\n{}",
                                g.check(&a),
                                g.diagram()
                            );
                        }
                    }
                    legal[rng.random_range(0..legal.len())]
                }
            };
            let outcome = g.play(&action).unwrap_or_else(|e| panic!("{ctx}: {e}"));
            observe(&mut revealed, &g, &outcome.events, &mut tally);
            actions.push(action);
            conserved(&g, &ctx);
            check_views(&g, &revealed, &ctx);
            if n % 8 == 0 {
                history.push(g.clone());
            }
        }
        tally.games += 1;
        tally.actions += actions.len();
        tally.end(&g.status());
        // Exact replay through the checked path.
        let replayed = replay::<Waterloo>(options.clone(), setup.clone(), &actions)
            .unwrap_or_else(|e| panic!("{name} game {n}: replay failed: {e}"));
        assert_eq!(replayed, g, "{name} game {n}: replay differs");
        if n % 8 == 0 {
            let mut r = Waterloo::start(options.clone(), setup).expect("valid");
            assert_eq!(r, history[0]);
            for (i, a) in actions.iter().enumerate() {
                r.play_unchecked(a);
                assert_eq!(r, history[i + 1], "{name} game {n}: state {i} differs");
            }
        }
    }
    eprintln!(
        "{name}: {} games, {} actions, {} dice, {} frenzies, {} withdrawals, {} Prussians, {} fires, {} pursuit actions, {} cards, ends {:?}",
        tally.games,
        tally.actions,
        tally.dice,
        tally.frenzies,
        tally.withdrawals,
        tally.prussians,
        tally.fires,
        tally.pursuits,
        tally.cards,
        tally.reasons
    );
    tally
}

fn limited(mut o: Options) -> Options {
    o.last_turn = Some(150);
    o
}

/// The Standard game on a battlefield of one's own, with mud.
fn custom_mud() -> Options {
    let mut mud = limited(Options::new(Version::Standard));
    mud.mud = true;
    mud.layout = boards::waterloo::Layout::parse(
        "mud.a: e5 f5 e6 f6\nmud.b: i3 j3\nhill.left: b2 c2 b3 c3\nbuilding.farm: k8 l8 k9 l9\n",
    )
    .expect("custom layout");
    mud
}

fn ended(t: &Tally, what: &str) -> bool {
    t.reasons.iter().any(|(r, _)| r.contains(what))
}

// Thousands of games of each version and scenario, split into tests the harness runs in
// parallel.

#[test]
fn basic_random_games() {
    let t = run("basic", limited(Options::new(Version::Basic)), 1000, 1);
    assert!(t.frenzies > 0 && t.withdrawals > 0 && t.prussians > 0 && t.fires > 0);
    assert!(ended(&t, "LinesOfRetreat") && ended(&t, "NoCommanders"));
}

#[test]
fn basic_random_games_more() {
    let t = run(
        "basic (more)",
        limited(Options::new(Version::Basic)),
        1000,
        50_000,
    );
    assert!(t.frenzies > 0 && t.withdrawals > 0 && t.prussians > 0 && t.fires > 0);
}

#[test]
fn standard_random_games() {
    let t = run(
        "standard",
        limited(Options::new(Version::Standard)),
        2000,
        100_000,
    );
    assert!(t.frenzies > 0 && t.withdrawals > 0 && t.prussians > 0);
    assert!(ended(&t, "CommanderInChief"));
}

#[test]
fn expert_random_games() {
    let t = run(
        "expert",
        limited(Options::new(Version::Expert)),
        2000,
        200_000,
    );
    assert!(t.frenzies > 0 && t.withdrawals > 0 && t.prussians > 0);
    assert!(t.pursuits > 0, "the Pursuit happened");
    assert!(ended(&t, "CommanderInChief"));
}

#[test]
fn early_start_random_games() {
    let mut early = limited(Options::new(Version::Expert));
    early.early_start = true;
    let t = run("early start", early, 1000, 300_000);
    assert!(t.prussians > 0);
}

#[test]
fn where_are_the_prussians_random_games() {
    let mut uncertain = limited(Options::new(Version::Expert));
    uncertain.prussians_uncertain = true;
    run("where are the Prussians", uncertain, 1000, 400_000);
}

#[test]
fn mud_and_custom_battlefield_random_games() {
    run("mud and a custom battlefield", custom_mud(), 1000, 500_000);
}
