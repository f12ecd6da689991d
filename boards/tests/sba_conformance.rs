//! Random-game conformance suite for Sa Belle Alliance (OpenSpiel's `RandomSimTest`).
//!
//! Seeded games with the example card set, each played to its end with uniformly random legal
//! actions and die faces sampled by their weights from `chance_outcomes`. After every action it
//! checks that
//! - every listed action passes `check`, the list has no duplicates, and random actions (any
//!   card, action, target, Napoleon or not; any box to take from; a pass; a die face) pass
//!   `check` exactly when listed; every 16th position, the whole action space is checked so;
//! - `to_act`, `status` and the chance list agree;
//! - markers are conserved: for each card, its box + its waiting markers + its markers on the
//!   two casualty tracks = its divisions and reserve at the start;
//! - every event has its words (`announce`); morale and the time marker stay on their tracks;
//!   a casualty track never holds more than its boxes; both seats' views show the state as it is;
//!
//! and at the end that the game ended (every way of routing, and the stalemate draw of a sparse
//! card set, is reached over the suite), and that replaying the action list through the checked path reproduces every state
//! exactly.

use boards::game::replay;
use boards::sba::{
    Action, ActionId, CardId, CardSet, EndReason, Event, Face, Options, RoutHow, SaBelleAlliance,
    ALLIED, FRENCH, MAX_CARDS,
};
use boards::{Actor, Game, Status};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

mod sba_common;
use sba_common::{card, set_text};

const SAFETY_CAP: usize = 5_000;

#[derive(Default)]
struct Tally {
    games: usize,
    actions: usize,
    tests: usize,
    take_from: usize,
    counters: usize,
    napoleon: usize,
    captures: usize,
    time: usize,
    passes: usize,
    unsupplied: usize,
    ends: Vec<(String, usize)>,
}

fn sample_chance(g: &SaBelleAlliance, rng: &mut Pcg64Mcg) -> Action {
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

fn random_action(rng: &mut Pcg64Mcg, cards: usize) -> Action {
    let card =
        |rng: &mut Pcg64Mcg| CardId::new(rng.random_range(0..(cards + 2).min(MAX_CARDS)) as u8);
    match rng.random_range(0..5) {
        0 => Action::Roll(Face::ALL[rng.random_range(0..6)]),
        1 => Action::TakeFrom(card(rng)),
        2 => Action::Pass,
        _ => Action::Activate {
            card: card(rng),
            action: ActionId::new(rng.random_range(0..4)),
            target: if rng.random_range(0..4) == 0 {
                None
            } else {
                Some(card(rng))
            },
            napoleon: rng.random(),
        },
    }
}

/// The whole action space over this set's cards and one beyond: every card, its first four
/// action numbers, every target or none, with and without Napoleon; every box to take from; a
/// pass; every die face.
fn action_space(cards: usize) -> Vec<Action> {
    let ids = || (0..=cards).map(|i| CardId::new(i as u8));
    let mut all = vec![Action::Pass];
    all.extend(Face::ALL.map(Action::Roll));
    all.extend(ids().map(Action::TakeFrom));
    for card in ids() {
        for k in 0..4 {
            for target in std::iter::once(None).chain(ids().map(Some)) {
                for napoleon in [false, true] {
                    all.push(Action::Activate {
                        card,
                        action: ActionId::new(k),
                        target,
                        napoleon,
                    });
                }
            }
        }
    }
    all
}

fn conserved(g: &SaBelleAlliance, ctx: &str) {
    let cards = g.options().cards.clone();
    for (id, card) in cards.ids() {
        let lost = [FRENCH, ALLIED]
            .iter()
            .map(|&s| g.casualties(s).iter().filter(|&&c| c == id).count())
            .sum::<usize>();
        assert_eq!(
            usize::from(g.divisions(id)) + usize::from(g.waiting(id)) + lost,
            usize::from(card.divisions) + usize::from(card.reserve),
            "{ctx}: markers of {} not conserved",
            card.name
        );
    }
    for s in [FRENCH, ALLIED] {
        let t = cards.tracks(s);
        assert!(
            (t.morale_broken..=t.morale_start).contains(&g.morale(s)),
            "{ctx}"
        );
        assert!(g.casualties(s).len() <= t.casualties.len(), "{ctx}");
        let v = g.view(s);
        assert_eq!(v.seat(), s);
        assert_eq!(v.morale(FRENCH), g.morale(FRENCH));
        assert_eq!(v.casualties(ALLIED), g.casualties(ALLIED));
        assert_eq!(v.phase(), g.phase());
        assert_eq!(v.status(), g.status());
        for (id, _) in cards.ids() {
            assert_eq!(v.divisions(id), g.divisions(id));
        }
    }
    assert!(usize::from(g.time()) < cards.time().boxes.len(), "{ctx}");
}

fn run(name: &str, options: Options, games: u64, seed: u64) -> Tally {
    let mut tally = Tally::default();
    let cards = options.cards.cards().len();
    let space = action_space(cards);
    for n in 0..games {
        let mut rng = Pcg64Mcg::seed_from_u64(seed + n);
        let mut g = SaBelleAlliance::start(options.clone(), ()).expect("no set-up problems");
        let mut history = vec![g.clone()];
        let mut actions = Vec::new();
        conserved(&g, name);
        loop {
            let ctx = format!("{name} game {n} action {}", actions.len());
            assert!(actions.len() < SAFETY_CAP, "{ctx}: too long");
            let legal = g.legal_actions();
            let action = match g.to_act() {
                Actor::Nobody => {
                    assert!(!g.status().is_ongoing(), "{ctx}");
                    assert!(legal.is_empty(), "{ctx}");
                    assert!(g.chance_outcomes().is_empty(), "{ctx}");
                    break;
                }
                Actor::Chance => {
                    assert!(g.status().is_ongoing());
                    assert!(legal.is_empty(), "{ctx}: players listed while chance acts");
                    let outs = g.chance_outcomes();
                    assert_eq!(outs.len(), 6, "{ctx}");
                    assert!(outs.iter().all(|(_, w)| *w == 1), "{ctx}: a fair die");
                    let a = sample_chance(&g, &mut rng);
                    assert_eq!(g.check(&a), Ok(()), "{ctx}: chance {a}");
                    a
                }
                Actor::Seat(_) => {
                    assert!(g.status().is_ongoing());
                    assert!(g.chance_outcomes().is_empty());
                    assert!(!legal.is_empty(), "{ctx}");
                    for (i, a) in legal.iter().enumerate() {
                        assert_eq!(g.check(a), Ok(()), "{ctx}: listed {a} refused");
                        assert!(!legal[..i].contains(a), "{ctx}: {a} listed twice");
                    }
                    legal[rng.random_range(0..legal.len())]
                }
            };
            if actions.len() % 16 == 3 {
                for a in &space {
                    let listed = legal.contains(a)
                        || (g.to_act() == Actor::Chance && matches!(a, Action::Roll(_)));
                    assert_eq!(g.check(a).is_ok(), listed, "{ctx}: {a}: {:?}", g.check(a));
                }
            }
            for _ in 0..12 {
                let a = random_action(&mut rng, cards);
                let listed = legal.contains(&a)
                    || (g.to_act() == Actor::Chance && matches!(a, Action::Roll(_)));
                assert_eq!(
                    g.check(&a).is_ok(),
                    listed,
                    "{ctx}: check and list disagree on {a}: {:?} ({})",
                    g.check(&a),
                    g.summary()
                );
            }
            if let Action::Activate { napoleon: true, .. } = action {
                tally.napoleon += 1;
            }
            if let Action::TakeFrom(_) = action {
                tally.take_from += 1;
            }
            if let Action::Activate {
                card, action: k, ..
            } = action
            {
                if options
                    .cards
                    .card(card)
                    .is_some_and(|c| c.actions[k.index()].counter)
                {
                    tally.counters += 1;
                }
            }
            let outcome = g.play(&action).unwrap_or_else(|e| panic!("{ctx}: {e}"));
            for e in &outcome.events {
                assert!(!g.announce(e).is_empty(), "{ctx}: {e:?} has no words");
                match e {
                    Event::RoutTest { .. } => tally.tests += 1,
                    Event::Captured { .. } => tally.captures += 1,
                    Event::TimeAdvanced { .. } => tally.time += 1,
                    Event::Passed(_) => tally.passes += 1,
                    Event::NoMarkerLeft(_) => tally.unsupplied += 1,
                    _ => {}
                }
            }
            actions.push(action);
            conserved(&g, &ctx);
            history.push(g.clone());
        }
        tally.games += 1;
        tally.actions += actions.len();
        let end = match g.status() {
            Status::Won { winner, reason } => format!("{winner:?} {reason:?}"),
            Status::Drawn { reason } => format!("draw {reason:?}"),
            Status::Ongoing => unreachable!(),
        };
        match tally.ends.iter_mut().find(|(r, _)| *r == end) {
            Some((_, k)) => *k += 1,
            None => tally.ends.push((end, 1)),
        }
        let replayed = replay::<SaBelleAlliance>(options.clone(), (), &actions)
            .unwrap_or_else(|e| panic!("{name} game {n}: replay failed: {e}"));
        assert_eq!(replayed, g, "{name} game {n}: replay differs");
        let mut r = SaBelleAlliance::start(options.clone(), ()).expect("valid");
        for (i, a) in actions.iter().enumerate() {
            r.play_unchecked(a);
            assert_eq!(r, history[i + 1], "{name} game {n}: state {i} differs");
        }
    }
    eprintln!(
        "{name}: {} games, {} actions, {} rout tests, {} casualty choices, {} counter attacks, \
         {} Napoleons, {} captures, {} time moves, {} passes, {} casualties not supplied, ends {:?}",
        tally.games,
        tally.actions,
        tally.tests,
        tally.take_from,
        tally.counters,
        tally.napoleon,
        tally.captures,
        tally.time,
        tally.passes,
        tally.unsupplied,
        tally.ends
    );
    tally
}

fn ended(t: &Tally, how: RoutHow) -> bool {
    let key = format!("{:?}", EndReason::Routed(how));
    t.ends.iter().any(|(r, _)| r.ends_with(&key))
}

#[test]
fn example_cards_random_games() {
    let t = run("example", Options::new(CardSet::example()), 1500, 1);
    assert!(t.tests > 0 && t.take_from > 0 && t.counters > 0 && t.napoleon > 0);
    assert!(t.captures > 0 && t.time > 0);
    for how in [RoutHow::Test, RoutHow::CasualtyTrack, RoutHow::Morale] {
        assert!(ended(&t, how), "no game ended by {how:?}");
    }
    for seat in ["Seat(0)", "Seat(1)"] {
        assert!(
            t.ends.iter().any(|(r, _)| r.starts_with(seat)),
            "{seat} never won"
        );
    }
}

#[test]
fn rout_test_per_casualty_random_games() {
    let mut o = Options::new(CardSet::example());
    o.rout_test_per_casualty = true;
    let t = run("a rout test per casualty", o, 1000, 100_000);
    assert!(t.tests > 0);
}

/// A small set whose games can also end with neither side able to act (the stalemate ruling),
/// with passes and casualties no box can supply.
fn sparse() -> String {
    set_text(
        3,
        r#""", "RT", "B""#,
        r#""", "", "B""#,
        3,
        &[
            card(
                "Ney",
                "french",
                "once = true",
                "Charge",
                None,
                r#""-", "-", "-", "-", "-", "AC1""#,
            ),
            card(
                "I Corps",
                "french",
                "divisions = 2",
                "Attack",
                Some(r#""Orange""#),
                r#""FC1", "-", "-", "-", "-", "AC1""#,
            ),
            card(
                "Orange",
                "allied",
                "divisions = 2",
                "Hold",
                Some(r#""I Corps""#),
                r#""AC1", "-", "-", "-", "-", "FC1""#,
            ),
            card(
                "Wellington",
                "allied",
                "once = true",
                "Advance",
                None,
                r#""-", "-", "-", "-", "FC1", "FC1""#,
            ),
        ],
    )
}

#[test]
fn sparse_cards_random_games_reach_every_end() {
    let set = CardSet::parse(&sparse()).unwrap_or_else(|p| panic!("{p}"));
    let t = run("sparse", Options::new(set), 500, 200_000);
    assert!(ended(&t, RoutHow::Test));
    assert!(t.passes > 0 && t.unsupplied > 0 && t.time > 0);
    assert!(
        t.ends.iter().any(|(r, _)| r == "draw Stalemate"),
        "no stalemate: {:?}",
        t.ends
    );
}
