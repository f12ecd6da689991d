//! Random-game conformance suite for the Napoléon campaign (OpenSpiel's `RandomSimTest`).
//!
//! Seeded games on the default data, for two and three players, from the historical set-up and
//! from random legal set-ups, each played with uniformly random legal actions and chance
//! outcomes sampled by their weights. After every action it checks that
//! - every listed action passes `check`, the list has no duplicates, and random actions (any
//!   block along random paths, any phase's action) pass `check` exactly when listed;
//! - `to_act`, `status` and the chance list agree;
//! - a block's strength never rises and an eliminated block never comes back;
//! - every seat's view shows its own blocks as they are and every other block only as a count
//!   per town and army, the counts adding up to the truth; on a battle board another seat's
//!   block shows its type and strength only as the rules show it, judged from the board and
//!   the events (set up, on a wing, in woods only in combat or having fired, in a skirmish
//!   only once shown), never from the view's own marks; reinforcements and a drawn terrain
//!   block only to their own seat and side;
//!
//! and at the end that replaying the action list through the checked path reproduces the game
//! exactly, and that every action reads back from its journal encoding. The default run (160
//! games for each number of players, 54 onslaughts and 800 melees of worn-out armies: 2,028
//! campaigns, 515,775 actions, checking every position, about 25 seconds of CPU in the test
//! profile) is a seeded
//! sample that reaches every victory condition of section 10, and checks it does (the
//! aggressive games attack and take supply cities whenever they can; in the onslaughts the
//! French attack and fire whenever they can while the Allies wait; in the melees every block is
//! printed at strength 1, so the last Allied army now and then falls in the same turn as the
//! French, `LastAllyFellWithTheFrench`); `NAPOLEON_GAMES=n` plays `n` games each, `n / 3` onslaughts and `5 n`
//! melees, and `NAPOLEON_SEED=n` plays another seed's games.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use boards::game::replay;
use boards::napoleon::battle::{BattleAction, BattleEvent, BlockView, Place, Side, Step};
use boards::napoleon::TerrainKind;
use boards::napoleon::{
    Action, Army, BlockId, Campaign, EndReason, Event, Napoleon, Options, Placement, Players, Setup,
};
use boards::sba::Face;
use boards::{Actor, Game, Seat, Status};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Actions after which a game is abandoned as too long (none should come near).
const SAFETY_CAP: usize = 200_000;

fn games_per_config() -> usize {
    std::env::var("NAPOLEON_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(160)
}

fn block_id(n: u8) -> BlockId {
    postcard::from_bytes(&[n]).expect("a block id decodes from any byte but 255")
}

/// The default data with every block printed at strength 1, an order of battle an owner's
/// edited file may hold: every hit eliminates, so armies fall fast.
fn worn_campaign() -> Campaign {
    let oob: String = boards::napoleon::DEFAULT_ORDER_OF_BATTLE
        .lines()
        .map(|line| {
            let mut words: Vec<&str> = line.split_whitespace().collect();
            if words.first() == Some(&"block") && words.len() > 5 {
                words[5] = "1";
                words.join(" ")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    Campaign::parse(
        boards::napoleon::DEFAULT_MAP,
        &oob,
        boards::napoleon::DEFAULT_TURN_TRACK,
    )
    .expect("the worn order of battle is valid")
}

/// A random legal set-up: each army's blocks spread at random over its own towns, within the
/// caps (4.1, 4.2).
fn random_setup(c: &Campaign, rng: &mut Pcg64Mcg) -> Setup {
    placed_setup(c, rng)
}

/// A random legal set-up at full strength (4.1, 4.2).
fn placed_setup(c: &Campaign, rng: &mut Pcg64Mcg) -> Setup {
    let map = c.map();
    let mut allies = Vec::new();
    let mut french = Vec::new();
    for army in Army::ALL {
        let mut towns: Vec<_> = map.set_up_area(army).collect();
        towns.shuffle(rng);
        let cap = if army == Army::French { 12 } else { 4 };
        let mut counts = vec![0usize; towns.len()];
        for (_, b) in c.order_of_battle().army(army) {
            let i = loop {
                let i = rng.random_range(0..towns.len().min(6));
                if counts[i] < cap {
                    break i;
                }
            };
            counts[i] += 1;
            let p = Placement::new(&b.name, map.code(towns[i]).expect("a town"), b.strength);
            if army == Army::French {
                french.push(p);
            } else {
                allies.push(p);
            }
        }
    }
    Setup::Placed { allies, french }
}

fn sample_chance(g: &Napoleon, rng: &mut Pcg64Mcg) -> Action {
    let outs = g.chance_outcomes();
    assert!(!outs.is_empty(), "chance to act with no outcomes");
    let total: u32 = outs.iter().map(|(_, w)| *w).sum();
    let mut r = rng.random_range(0..total);
    for (a, w) in &outs {
        if r < *w {
            return a.clone();
        }
        r -= w;
    }
    outs[0].0.clone()
}

/// A random action of any phase, often plausible (a block along roads from its town).
fn random_action(g: &Napoleon, c: &Campaign, rng: &mut Pcg64Mcg) -> Action {
    let graph = c.map().graph();
    let towns = graph.town_count() as u16;
    let block = block_id(rng.random_range(0..c.order_of_battle().len() as u8 + 2));
    let town = boards::geometry::roads::TownId::new(rng.random_range(0..towns + 1));
    match rng.random_range(0..10) {
        0 => Action::EndMoves,
        1 => Action::ShowLeader(rng.random()),
        2 => Action::Die(Face::ALL[rng.random_range(0..6)]),
        3 => Action::Fight(town),
        4 => Action::Regroup { block, to: town },
        5 => Action::EndRegroup,
        6 => Action::SupplyLoss(block),
        _ => {
            let mut at = g.town_of(block).unwrap_or(town);
            let mut path = Vec::new();
            for _ in 0..rng.random_range(1..=4) {
                let next: Vec<_> = graph.neighbours(at).map(|n| n.town).collect();
                at = if next.is_empty() || rng.random_range(0..8) == 0 {
                    town
                } else {
                    next[rng.random_range(0..next.len())]
                };
                path.push(at);
            }
            Action::Move { block, path }
        }
    }
}

/// What the battles have shown the seats, tracked from the events alone (not from the views'
/// own `revealed` marks): the blocks that fired since they last moved (a block in woods is
/// seen once it fires, 6.2.4), those shown in the skirmish being fought (6.6), and the side
/// holding a terrain block it drew (6.2.1).
#[derive(Default)]
struct Shown {
    fired: BTreeSet<BlockId>,
    skirmish: BTreeSet<BlockId>,
    drawing: Option<Side>,
}

impl Shown {
    fn track(&mut self, events: &[Event]) {
        for e in events {
            match e {
                Event::BattleBegan { .. } => self.skirmish.clear(),
                Event::Battle(b) => match *b {
                    BattleEvent::Revealed { block, .. } => {
                        self.skirmish.insert(block);
                    }
                    BattleEvent::Fired { block, .. } => {
                        self.fired.insert(block);
                    }
                    BattleEvent::Moved { block, .. }
                    | BattleEvent::Deployed { block, .. }
                    | BattleEvent::Reinforced { block, .. } => {
                        self.fired.remove(&block);
                    }
                    BattleEvent::TerrainDrawn { side, .. } => self.drawing = Some(side),
                    BattleEvent::TerrainPlaced { .. } => self.drawing = None,
                    _ => {}
                },
                _ => {}
            }
        }
    }
}

/// No seat's battle view holds a block it does not command beyond what the rules show
/// (6.2.4, 6.6), judged from the board and the events: nothing before both sides have set
/// up; in a skirmish only the blocks shown, once both have chosen; in a battle only blocks on
/// a wing, in woods only while in combat or once fired. Waiting reinforcements are listed only
/// to their own seat, and a drawn terrain block only to its drawer's side.
fn check_battle_secrecy(g: &Napoleon, seat: Seat, shown: &Shown) {
    let Some(view) = g.view(seat).battle else {
        return;
    };
    let mine = |army: Army| g.options().commands(seat, army);
    let army_of = |block: BlockId| {
        g.options()
            .campaign
            .order_of_battle()
            .block(block)
            .map(|b| b.army)
    };
    for &(block, _) in &view.waiting {
        assert!(
            army_of(block).is_some_and(mine),
            "{seat} sees another seat's reinforcement"
        );
    }
    if view.drawn.is_some() {
        // The drawing side's camp, from the colours on the board; the seat must have blocks
        // of it in the battle, on the field or waiting to reinforce.
        let drawer = shown.drawing.expect("a terrain block is drawn");
        let camp = view.blocks.iter().find_map(|b| match *b {
            BlockView::Known { army, side, .. } | BlockView::Hidden { army, side, .. }
                if side == drawer =>
            {
                Some(army.is_allied())
            }
            _ => None,
        });
        let on_field = view.blocks.iter().any(
            |b| matches!(*b, BlockView::Known { army, side, .. } if mine(army) && side == drawer),
        );
        let waiting = view
            .waiting
            .iter()
            .any(|&(block, _)| army_of(block).map(|a| a.is_allied()) == camp);
        assert!(
            on_field || waiting,
            "{seat} sees the other side's drawn terrain"
        );
    }
    let place_of = |b: &BlockView| match *b {
        BlockView::Known { side, place, .. } | BlockView::Hidden { side, place, .. } => {
            (side, place)
        }
    };
    for b in &view.blocks {
        let BlockView::Known {
            block, army, place, ..
        } = *b
        else {
            continue;
        };
        if mine(army) {
            continue;
        }
        assert!(
            !matches!(view.step, Step::Terrain | Step::Deployment),
            "{seat} sees {army} block {block:?} before the battle starts"
        );
        if view.skirmish {
            assert!(
                shown.skirmish.contains(&block)
                    && matches!(
                        view.step,
                        Step::SkirmishFire | Step::Losses | Step::Rout | Step::Over
                    ),
                "{seat} sees {army} block {block:?} not shown in the skirmish"
            );
            continue;
        }
        let Some(Place::Zone(zone)) = place else {
            panic!("{seat} sees {army} block {block:?} in the reserve or not set up");
        };
        let woods = view
            .terrain
            .iter()
            .any(|&(z, k)| z == zone && k == TerrainKind::Woods);
        let (side, _) = place_of(b);
        let in_combat = view
            .blocks
            .iter()
            .any(|o| place_of(o) == (side.other(), Some(Place::Zone(zone))));
        assert!(
            !woods || in_combat || shown.fired.contains(&block),
            "{seat} sees {army} block {block:?} in woods, out of combat and not having fired"
        );
    }
}

/// Checks the invariants of one position.
fn check_position(g: &Napoleon, c: &Campaign, rng: &mut Pcg64Mcg, shown: &Shown) {
    let legal = g.legal_actions();
    let mut listed = HashSet::with_capacity(legal.len());
    for a in &legal {
        assert!(g.check(a).is_ok(), "listed {a:?} refused: {:?}", g.check(a));
        assert!(listed.insert(a), "{a:?} listed twice");
    }
    for _ in 0..8 {
        let a = random_action(g, c, rng);
        assert_eq!(g.check(&a).is_ok(), legal.contains(&a), "{a:?}");
    }
    match g.to_act() {
        Actor::Chance => {
            assert!(g.status().is_ongoing());
            assert!(!g.chance_outcomes().is_empty());
        }
        Actor::Seat(_) => {
            assert!(g.status().is_ongoing());
            assert!(g.chance_outcomes().is_empty());
            assert!(!legal.is_empty(), "a seat to act with nothing to do");
        }
        Actor::Nobody => assert!(!g.status().is_ongoing(), "nobody acts in a game going on"),
    }
    let seats = g.options().seats();
    for s in 0..seats {
        let seat = Seat::new(s as u8);
        let view = g.view(seat);
        let mut counts: BTreeMap<(u16, Army), u8> = BTreeMap::new();
        for (id, b) in c.order_of_battle().blocks() {
            let Some(town) = g.town_of(id) else { continue };
            if g.options().commands(seat, b.army) {
                let own = view
                    .own
                    .iter()
                    .find(|o| o.block == id)
                    .expect("an own block is in its view");
                assert_eq!((own.town, own.strength), (town, g.strength_of(id)));
            } else {
                *counts.entry((town.index() as u16, b.army)).or_default() += 1;
                assert!(
                    view.own.iter().all(|o| o.block != id),
                    "another seat's block shown face up"
                );
            }
        }
        let seen: BTreeMap<(u16, Army), u8> = view
            .others
            .iter()
            .map(|h| ((h.town.index() as u16, h.army), h.count))
            .collect();
        assert_eq!(seen, counts, "hidden blocks counted per town");
        // On a battle board, another seat's block shows its face only as the rules show it.
        check_battle_secrecy(g, seat, shown);
    }
}

/// Whether `action` moves a block into enemies or, for the French, into a supply city.
fn bold(g: &Napoleon, c: &Campaign, action: &Action) -> bool {
    let Action::Move { block, path } = action else {
        return false;
    };
    let (Some(&to), Some(mover)) = (path.last(), c.order_of_battle().block(*block)) else {
        return false;
    };
    c.map().supply_city(to).is_some() && !mover.army.is_allied()
        || g.blocks_in(to).any(|b| {
            c.order_of_battle()
                .block(b)
                .is_some_and(|b| b.army.is_allied() != mover.army.is_allied())
        })
}

/// How the seats choose among their legal actions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Style {
    /// Uniformly at random, ending moves now and then.
    Random,
    /// Both camps attack and take cities when they can.
    Aggressive,
    /// The French attack whenever they can; the Allies end their moves at once, waiting in
    /// their towns (battles stay random), so the French can beat both armies.
    Onslaught,
    /// Worn-out armies (every block printed at strength 1, [`worn_campaign`]): the French
    /// attack and fire whenever they can, the Allies wait and fire half the time, so armies
    /// fall fast and now and then all three in one turn (10.1).
    Melee,
}

fn play_game(
    options: Options,
    setup: Setup,
    style: Style,
    rng: &mut Pcg64Mcg,
    check_rng: &mut Pcg64Mcg,
    ends: &mut BTreeMap<String, usize>,
) {
    let c = options.campaign.clone();
    let mut g = Napoleon::start(options.clone(), setup.clone()).expect("a legal set-up");
    let mut actions = Vec::new();
    let mut events: Vec<Event> = Vec::new();
    let mut shown = Shown::default();
    let mut strength: Vec<u8> = (0..c.order_of_battle().len() as u8)
        .map(|i| g.strength_of(block_id(i)))
        .collect();
    while g.status().is_ongoing() {
        assert!(actions.len() < SAFETY_CAP, "the game runs on");
        check_position(&g, &c, check_rng, &shown);
        let action = match g.to_act() {
            Actor::Chance => sample_chance(&g, rng),
            Actor::Seat(_) => {
                let legal = g.legal_actions();
                assert!(
                    !legal.is_empty(),
                    "{:?} to act with nothing to do: {:?}",
                    g.to_act(),
                    g.view(Seat::FIRST).battle
                );
                let french =
                    matches!(g.to_act(), Actor::Seat(s) if g.options().commands(s, Army::French));
                let bold: Vec<&Action> = if style != Style::Random {
                    legal.iter().filter(|a| bold(&g, &c, a)).collect()
                } else {
                    Vec::new()
                };
                // Aggressive games attack and take cities when they can; all end their moves
                // now and then, so turns are not all long.
                let mut fire: Vec<&Action> = legal
                    .iter()
                    .filter(|a| matches!(a, Action::Battle(BattleAction::Fire { .. })))
                    .collect();
                if fire.is_empty() {
                    fire = legal
                        .iter()
                        .filter(|a| matches!(a, Action::Battle(BattleAction::Move { .. })))
                        .collect();
                }
                let done = Action::Battle(BattleAction::Done);
                let onslaught = style == Style::Onslaught;
                let melee = style == Style::Melee;
                // Onslaughts: the Allies wait and never fire; the French always fire or attack.
                // Melees: the French always fire or attack; the Allies wait in their towns and
                // fire half the time.
                let allied_fires = melee && !french && rng.random_bool(0.5);
                if melee && !fire.is_empty() && (french || allied_fires) {
                    fire[rng.random_range(0..fire.len())].clone()
                } else if melee && french && !bold.is_empty() {
                    bold[rng.random_range(0..bold.len())].clone()
                } else if melee && !french && legal.contains(&Action::EndMoves) {
                    Action::EndMoves
                } else if melee && !french && legal.contains(&done) {
                    done
                } else if onslaught && !french && legal.contains(&Action::EndMoves) {
                    Action::EndMoves
                } else if onslaught && !french && legal.contains(&done) {
                    done
                } else if onslaught && french && !fire.is_empty() {
                    fire[rng.random_range(0..fire.len())].clone()
                } else if !bold.is_empty() && (onslaught && french || rng.random_range(0..4) != 0) {
                    bold[rng.random_range(0..bold.len())].clone()
                } else if legal.contains(&Action::EndMoves) && rng.random_range(0..12) == 0 {
                    Action::EndMoves
                } else {
                    legal[rng.random_range(0..legal.len())].clone()
                }
            }
            Actor::Nobody => panic!("nobody acts in a game going on"),
        };
        let new = g.play(&action).expect("a listed action plays");
        shown.track(&new);
        events.extend(new);
        actions.push(action);
        for (i, s) in strength.iter_mut().enumerate() {
            let now = g.strength_of(block_id(i as u8));
            assert!(now <= *s, "block {i} grew from {s} to {now}");
            *s = now;
        }
    }
    check_position(&g, &c, check_rng, &shown);
    let reason = match g.status() {
        Status::Won { reason, .. } | Status::Drawn { reason } => reason,
        Status::Ongoing => unreachable!(),
    };
    *ends.entry(format!("{reason:?}")).or_default() += 1;
    // The winners are every seat of the winning side: both Allied seats with three players.
    let mut seats: Vec<Seat> = reason
        .winning_armies()
        .iter()
        .map(|&a| options.seat_of(a))
        .collect();
    seats.dedup();
    assert_eq!(g.winners(), seats, "{reason:?}");
    assert_eq!(
        g.winners().len(),
        1 + usize::from(reason.allies_won() && options.seats() == 3)
    );
    *ends.entry("actions".into()).or_default() += actions.len();
    *ends.entry("battle actions".into()).or_default() += actions
        .iter()
        .filter(|a| matches!(a, Action::Battle(_)))
        .count();
    *ends.entry("moves".into()).or_default() += actions
        .iter()
        .filter(|a| matches!(a, Action::Move { .. }))
        .count();
    // The journal: every action reads back from its encoding as itself.
    for a in &actions {
        let bytes = postcard::to_allocvec(a).expect("an action encodes");
        assert_eq!(
            postcard::from_bytes::<Action>(&bytes).as_ref(),
            Ok(a),
            "{a:?} does not read back"
        );
    }
    // And every event, the battles' with them.
    for e in &events {
        let bytes = postcard::to_allocvec(e).expect("an event encodes");
        assert_eq!(
            postcard::from_bytes::<Event>(&bytes).as_ref(),
            Ok(e),
            "{e:?} does not read back"
        );
    }
    let again = replay::<Napoleon>(options, setup, &actions).expect("the game replays");
    assert_eq!(again, g, "replay is exact");
}

#[test]
fn random_campaigns_keep_the_rules() {
    let c = Campaign::standard().expect("the default data");
    // The seed decides which games are played, so which endings the default run reaches.
    // Measured with the default 160 games a configuration (games ending AllDefeated /
    // AlliesDefeated / SupplyCitiesHeld / FrenchDefeated / TimeRanOut, melees included):
    // 1815: 4/32/12/1566/414. With 30 (380 campaigns), once the checks ran on every position
    // and the melees were added: 1815: 4/5/3/293/75, 1816: 3/5/1/302/69, 42: 0/2/3/302/73,
    // 2024: 0/3/2/295/80. 1815 reaches every ending, the rarest at least three times, so a
    // small change to the rules does not lose one by chance; all three armies falling in one
    // turn comes only from the melees. (Before, when the checks shared
    // the games' generator: 1815: -/3/3/9/65, 1818: -/1/3/12/64.) If a change loses one,
    // measure a few seeds again (`NAPOLEON_SEED`) and say so here.
    let seed = std::env::var("NAPOLEON_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1815);
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    // The checks draw from their own generator, so checking more positions does not change
    // which games are played.
    let mut check_rng = Pcg64Mcg::seed_from_u64(6_233);
    let mut ends = BTreeMap::new();
    for players in [Players::Two, Players::Three] {
        let options = Options::new(c.clone(), players);
        let games = games_per_config();
        // A third more games are onslaughts, which is where the French beat both armies.
        for n in 0..games + games.div_ceil(3) {
            let setup = if n % 2 == 0 {
                Setup::Historical
            } else {
                random_setup(&c, &mut rng)
            };
            let style = if n >= games {
                Style::Onslaught
            } else if n % 4 >= 2 {
                Style::Aggressive
            } else {
                Style::Random
            };
            play_game(
                options.clone(),
                setup,
                style,
                &mut rng,
                &mut check_rng,
                &mut ends,
            );
        }
    }
    // Melees, played after the other games so those stay as they were: worn-out armies fight
    // wherever they meet, which is where all three fall in one turn (10.1).
    let melees = 5 * games_per_config();
    let worn = worn_campaign();
    for players in [Players::Two, Players::Three] {
        let options = Options::new(worn.clone(), players);
        for _ in 0..melees {
            let setup = random_setup(&worn, &mut rng);
            play_game(
                options.clone(),
                setup,
                Style::Melee,
                &mut rng,
                &mut check_rng,
                &mut ends,
            );
        }
    }
    println!("ends: {ends:?}");
    // Every victory condition of section 10 is reached, by the default run too (it runs
    // seeded, so the same games reach them each time).
    // All three in one turn (`AllDefeated`) is not among them: in these games one Allied army
    // always falls first, and the melees end with the other falling beside the French
    // (`LastAllyFellWithTheFrench`); `the_allies_win_by_defeating_the_french_unless_all_fall_
    // together` reaches both.
    for reason in [
        EndReason::AlliesDefeated,
        EndReason::SupplyCitiesHeld,
        EndReason::FrenchDefeated,
        EndReason::TimeRanOut,
        EndReason::LastAllyFellWithTheFrench,
    ] {
        assert!(
            ends.contains_key(&format!("{reason:?}")),
            "{reason:?} never reached: {ends:?}"
        );
    }
}

/// A journal's Napoléon actions decode only with their numbers in range: a block number of 255
/// (no order of battle holds that many), a town number of 65535, a die face, a morale die or a
/// volley's hits outside 1-6, 1-6 and 0-4, an unknown wing, zone side or terrain. On the old
/// code `Action` could not be decoded at all.
#[test]
fn journaled_actions_read_back_and_refuse_out_of_range_values() {
    use boards::geometry::roads::TownId;
    use boards::napoleon::battle::{BattleAction, Place, Side, Target, Wing, Zone};
    use boards::napoleon::TerrainKind;

    let decode = |bytes: &[u8]| postcard::from_bytes::<Action>(bytes);
    let encode = |a: &Action| postcard::to_allocvec(a).expect("an action encodes");
    let good = [
        Action::Die(Face::ALL[5]),
        Action::Fight(TownId::new(3)),
        Action::SupplyLoss(block_id(57)),
        Action::Battle(BattleAction::Die(6)),
        Action::Battle(BattleAction::Hits(4)),
        Action::Battle(BattleAction::PlaceTerrain(Wing::Right)),
        Action::Battle(BattleAction::DrawTerrain(TerrainKind::Stream)),
        Action::Battle(BattleAction::Deploy {
            block: block_id(2),
            to: Place::Zone(Zone::new(Side::Defender, Wing::Right)),
        }),
        Action::Battle(BattleAction::Fire {
            block: block_id(2),
            at: Zone::new(Side::Attacker, Wing::Centre),
            target: Target::Square(block_id(9)),
        }),
    ];
    for a in &good {
        assert_eq!(decode(&encode(a)).as_ref(), Ok(a), "{a:?}");
    }
    // The last byte of each encoding set out of range.
    for (a, bad) in [
        (Action::Die(Face::ALL[0]), 0),
        (Action::Die(Face::ALL[0]), 7),
        (Action::SupplyLoss(block_id(0)), 255),
        (Action::Battle(BattleAction::Die(1)), 0),
        (Action::Battle(BattleAction::Die(1)), 7),
        (Action::Battle(BattleAction::Hits(0)), 5),
        (Action::Battle(BattleAction::PlaceTerrain(Wing::Left)), 3),
        (
            Action::Battle(BattleAction::DrawTerrain(TerrainKind::Woods)),
            4,
        ),
        (Action::Battle(BattleAction::TakeHit(block_id(0))), 255),
        (
            Action::Battle(BattleAction::Fire {
                block: block_id(0),
                at: Zone::new(Side::Attacker, Wing::Left),
                target: Target::Line,
            }),
            2,
        ),
    ] {
        let mut bytes = encode(&a);
        *bytes.last_mut().expect("not empty") = bad;
        assert!(decode(&bytes).is_err(), "{a:?} with {bad} decoded");
    }
    // A town number of 65535: postcard writes a u16 as a varint of three bytes.
    let mut bytes = encode(&Action::Fight(TownId::new(0)));
    bytes.truncate(1);
    bytes.extend([0xff, 0xff, 0x03]);
    assert!(decode(&bytes).is_err(), "town 65535 decoded");
    bytes.truncate(1);
    bytes.extend([0xfe, 0xff, 0x03]);
    assert_eq!(decode(&bytes), Ok(Action::Fight(TownId::new(65534))));
    // No variant past the last.
    assert!(decode(&[9]).is_err());
    assert!(decode(&[8, 15]).is_err());
}

/// A journal's Napoléon events decode only with their numbers in range: a turn of 0, a supply
/// loss of 0 or 10, a strength above 4, a volley of 0 or 5 dice, a hitting face of 0 or 7, hits
/// above 4, a strength after a hit above 3, a morale total of 0 or 9, a battle turn of 0, a
/// block number of 255, an unknown army or side. On the old code `Event` and `BattleEvent`
/// could not be decoded at all.
#[test]
fn journaled_events_read_back_and_refuse_out_of_range_values() {
    use boards::geometry::roads::TownId;
    use boards::napoleon::battle::{BattleEvent, Defeat, Ending, Side, Wing, Zone};
    use boards::napoleon::Mover;

    let decode = |bytes: &[u8]| postcard::from_bytes::<Event>(bytes);
    let encode = |e: &Event| postcard::to_allocvec(e).expect("an event encodes");
    let b = |e: BattleEvent| Event::Battle(e);
    let good = [
        Event::TurnBegan {
            turn: 23,
            mover: Mover::French,
            night: true,
        },
        Event::SupplyCut {
            city: TownId::new(4),
            army: Army::Prussian,
            loss: 2,
        },
        Event::BattleRefused {
            town: TownId::new(1),
            problems: "block #3 is given twice".into(),
        },
        Event::Ended(EndReason::TimeRanOut),
        Event::Ended(EndReason::AllDefeated),
        Event::Ended(EndReason::LastAllyFellWithTheFrench),
        Event::BattleNotUpdated {
            town: TownId::new(2),
        },
        b(BattleEvent::Fired {
            block: block_id(5),
            at: Zone::new(Side::Defender, Wing::Left),
            dice: 4,
            hits_on: 4,
        }),
        b(BattleEvent::Morale {
            block: block_id(5),
            total: 8,
            held: true,
        }),
        b(BattleEvent::Hit {
            block: block_id(5),
            strength: 0,
        }),
        b(BattleEvent::Over(Ending::Won {
            winner: Side::Attacker,
            how: Defeat::Routed,
        })),
        b(BattleEvent::TurnBegan {
            side: Side::Defender,
            turn: 40,
        }),
    ];
    for e in &good {
        assert_eq!(decode(&encode(e)).as_ref(), Ok(e), "{e:?}");
    }
    // The last byte of each encoding set out of range.
    let bad = [
        (
            Event::SupplyCut {
                city: TownId::new(4),
                army: Army::Prussian,
                loss: 2,
            },
            0,
        ),
        (
            Event::SupplyCut {
                city: TownId::new(4),
                army: Army::Prussian,
                loss: 2,
            },
            10,
        ),
        (Event::Defeated(Army::French), 3),
        // `LastAllyFellWithTheFrench`, the sixth ending, is the last.
        (Event::Ended(EndReason::AllDefeated), 6),
        (Event::SupplyLossTaken { block: block_id(0) }, 255),
        (
            b(BattleEvent::Revealed {
                block: block_id(0),
                strength: 1,
            }),
            5,
        ),
        (
            b(BattleEvent::Revealed {
                block: block_id(0),
                strength: 1,
            }),
            0,
        ),
        (
            b(BattleEvent::Fired {
                block: block_id(0),
                at: Zone::new(Side::Attacker, Wing::Left),
                dice: 1,
                hits_on: 1,
            }),
            0,
        ),
        (
            b(BattleEvent::Fired {
                block: block_id(0),
                at: Zone::new(Side::Attacker, Wing::Left),
                dice: 1,
                hits_on: 1,
            }),
            7,
        ),
        // A volley hits on at most 4 (F3 and one bonus): 5 and 6 are never written.
        (
            b(BattleEvent::Fired {
                block: block_id(0),
                at: Zone::new(Side::Attacker, Wing::Left),
                dice: 1,
                hits_on: 4,
            }),
            5,
        ),
        (
            b(BattleEvent::Fired {
                block: block_id(0),
                at: Zone::new(Side::Attacker, Wing::Left),
                dice: 1,
                hits_on: 4,
            }),
            6,
        ),
        (b(BattleEvent::Hits { hits: 0 }), 5),
        (
            b(BattleEvent::Hit {
                block: block_id(0),
                strength: 0,
            }),
            4,
        ),
        (b(BattleEvent::Rout(Side::Attacker)), 2),
    ];
    for (e, byte) in &bad {
        let mut bytes = encode(e);
        *bytes.last_mut().expect("not empty") = *byte;
        assert!(decode(&bytes).is_err(), "{e:?} with {byte} decoded");
        // The same bytes were a good event with the good value.
        assert_eq!(decode(&encode(e)).as_ref(), Ok(e));
    }
    // Fields before the last: a volley of 0 or 5 dice, a morale total of 0 or 9, turns of 0.
    let fired = |dice| {
        b(BattleEvent::Fired {
            block: block_id(0),
            at: Zone::new(Side::Attacker, Wing::Left),
            dice,
            hits_on: 2,
        })
    };
    let morale = |total| {
        b(BattleEvent::Morale {
            block: block_id(0),
            total,
            held: false,
        })
    };
    for (e, at, byte) in [
        (fired(1), 2, 0),
        (fired(1), 2, 5),
        (morale(1), 2, 0),
        (morale(1), 2, 9),
    ] {
        let mut bytes = encode(&e);
        let i = bytes.len() - at;
        bytes[i] = byte;
        assert!(decode(&bytes).is_err(), "{e:?} with {byte} decoded");
    }
    // A morale check holds exactly when its total reaches 4 (6.3.1): a mark that disagrees
    // with the total is refused (accepted on the old code).
    for (total, held) in [(4, false), (8, false), (3, true), (1, true)] {
        let e = b(BattleEvent::Morale {
            block: block_id(0),
            total,
            held,
        });
        assert!(decode(&encode(&e)).is_err(), "{e:?} decoded");
    }
    let turn = Event::TurnBegan {
        turn: 1,
        mover: Mover::Allies,
        night: false,
    };
    let mut bytes = encode(&turn);
    bytes[1] = 0;
    assert!(decode(&bytes).is_err(), "turn 0 decoded");
    let battle_turn = b(BattleEvent::TurnBegan {
        side: Side::Attacker,
        turn: 1,
    });
    let mut bytes = encode(&battle_turn);
    *bytes.last_mut().expect("not empty") = 0;
    assert!(decode(&bytes).is_err(), "battle turn 0 decoded");
    // No variant past the last: `BattleNotUpdated`, the 16th, is written as 15.
    assert_eq!(
        encode(&Event::BattleNotUpdated {
            town: TownId::new(0)
        })
        .first(),
        Some(&15)
    );
    assert!(decode(&[16]).is_err());
    assert!(decode(&[10, 19]).is_err());
}
