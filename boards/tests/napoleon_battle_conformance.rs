//! Seeded random battles of Napoléon played to their end: the legal list and `check` agree
//! after every action, chance weights are exact and positive, strengths only fall, no view holds
//! an enemy block the rules keep hidden, a player places a hit only between equals or among
//! hidden blocks (and the latter only under 6.2.4's option), every battle ends, every action
//! reads back from its journal encoding, and replay from the action list is exact.

use std::collections::{BTreeMap, BTreeSet};

use boards::napoleon::battle::{
    Approach, Battle, BattleAction, BattleActor, BattleEvent, BattleOptions, BattleSetup,
    BattleView, BlockView, Fate, Place, Side, Step, Target, Unit, Zone,
};
use boards::napoleon::{Army, BlockId, Map, OrderOfBattle, TerrainKind};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// The battles played; each is bounded, so the whole run stays within a few seconds in the
/// test profile (boards are optimised there). Every battle's seed is its number, so more
/// battles only add games.
const BATTLES: u64 = 1_000;
/// No battle may need more actions than this.
const MAX_ACTIONS: usize = 20_000;

fn data() -> (Map, OrderOfBattle) {
    let map = Map::standard().expect("the default map is valid");
    let oob = OrderOfBattle::standard(&map).expect("the default order of battle is valid");
    (map, oob)
}

/// A random battle: a random town, random sides of random strength, random neighbours.
fn random_setup(rng: &mut Pcg64, map: &Map, oob: &OrderOfBattle) -> BattleSetup {
    let towns: Vec<_> = map.graph().towns().map(|(id, _)| id).collect();
    let town = towns[rng.random_range(0..towns.len())];
    let french_attack = rng.random_bool(0.5);
    let mut french: Vec<(BlockId, u8)> = oob
        .army(Army::French)
        .map(|(id, b)| (id, b.strength))
        .collect();
    let mut allied: Vec<(BlockId, u8)> = oob
        .blocks()
        .filter(|(_, b)| b.army.is_allied())
        .filter(|(_, b)| {
            // Sometimes only one Allied army, sometimes both.
            b.army == Army::AngloDutch || rng.random_bool(0.5)
        })
        .map(|(id, b)| (id, b.strength))
        .collect();
    shuffle(rng, &mut french);
    shuffle(rng, &mut allied);
    // Now and then one camp brings only its guns, which cannot hold woods (ruling R23).
    if rng.random_bool(0.1) {
        let pool = if rng.random_bool(0.5) {
            &mut french
        } else {
            &mut allied
        };
        pool.retain(|&(id, _)| oob.block(id).is_some_and(|b| b.kind.is_artillery()));
    }
    let take = |pool: &mut Vec<(BlockId, u8)>, n: usize, rng: &mut Pcg64| -> Vec<Unit> {
        let n = n.min(pool.len());
        pool.drain(..n)
            .map(|(block, max)| Unit {
                block,
                strength: rng.random_range(1..=max),
            })
            .collect()
    };
    let big = |rng: &mut Pcg64| {
        if rng.random_bool(0.2) {
            rng.random_range(1..=2)
        } else {
            rng.random_range(3..=9)
        }
    };
    let (na, nd) = (big(rng), big(rng));
    let (attackers, defenders, mut att_pool, mut def_pool) = if french_attack {
        let a = take(&mut french, na, rng);
        let d = take(&mut allied, nd, rng);
        (a, d, french, allied)
    } else {
        let a = take(&mut allied, na, rng);
        let d = take(&mut french, nd, rng);
        (a, d, allied, french)
    };
    let mut approaches = Vec::new();
    let neighbours: Vec<_> = map.graph().neighbours(town).collect();
    for n in neighbours {
        let held_by = match rng.random_range(0..3) {
            0 => None,
            1 => Some(Side::Attacker),
            _ => Some(Side::Defender),
        };
        let battle = rng.random_bool(0.1);
        let reinforcements = match held_by {
            Some(Side::Attacker) if !battle => {
                let k = rng.random_range(0..=3);
                take(&mut att_pool, k, rng)
            }
            Some(Side::Defender) if !battle => {
                let k = rng.random_range(0..=3);
                take(&mut def_pool, k, rng)
            }
            _ => Vec::new(),
        };
        approaches.push(Approach {
            town: n.town,
            held_by,
            attacked_from: held_by != Some(Side::Defender) && rng.random_bool(0.6),
            battle,
            reinforcements,
        });
    }
    BattleSetup {
        town,
        attackers,
        defenders,
        approaches,
        options: BattleOptions {
            reveal_on_contact: rng.random_bool(0.3),
            hill_for_defenders_only: rng.random_bool(0.3),
            ..BattleOptions::default()
        },
        terrain_elsewhere: Vec::new(),
        one_allied_player: rng.random_bool(0.5),
    }
}

/// Terrain blocks lying on other battlefields (6.1): now and then a random part of the map's
/// pool, at times all of it (ruling R24). Drawn from its own generator, so the battles' other
/// random choices stay as they were.
fn random_elsewhere(seed: u64, map: &Map) -> Vec<TerrainKind> {
    let mut rng = Pcg64::seed_from_u64(seed ^ 0x5eed_7e77);
    if !rng.random_bool(0.4) {
        return Vec::new();
    }
    let mut all: Vec<TerrainKind> = TerrainKind::ALL
        .into_iter()
        .flat_map(|k| (0..map.terrain().count(k)).map(move |_| k))
        .collect();
    shuffle(&mut rng, &mut all);
    let n = rng.random_range(0..=all.len());
    all.truncate(n);
    all
}

/// Per terrain kind, the blocks a battle may still draw: the map's pool, less those on other
/// battlefields and those it drew.
fn terrain_left(map: &Map, elsewhere: &[TerrainKind], drawn: &[TerrainKind]) -> [u32; 4] {
    TerrainKind::ALL.map(|k| {
        let out = elsewhere.iter().chain(drawn).filter(|&&d| d == k).count();
        u32::from(map.terrain().count(k)) - out as u32
    })
}

fn shuffle<T>(rng: &mut Pcg64, v: &mut [T]) {
    for i in (1..v.len()).rev() {
        let j = rng.random_range(0..=i);
        v.swap(i, j);
    }
}

/// Candidate actions beyond the legal list, to check that `check` refuses exactly those.
fn candidates(
    rng: &mut Pcg64,
    blocks: &[BlockId],
    towns: &[boards::geometry::roads::TownId],
) -> Vec<BattleAction> {
    let block = blocks[rng.random_range(0..blocks.len())];
    let zone = Zone::ALL[rng.random_range(0..6)];
    let place = if rng.random_bool(0.3) {
        Place::Reserve
    } else {
        Place::Zone(zone)
    };
    let town = towns[rng.random_range(0..towns.len())];
    vec![
        BattleAction::Done,
        BattleAction::Move { block, to: place },
        BattleAction::Fire {
            block,
            at: zone,
            target: Target::Line,
        },
        BattleAction::Deploy { block, to: place },
        BattleAction::Retreat { block, to: town },
        BattleAction::Reinforce(block),
        BattleAction::TakeHit(block),
        BattleAction::Reveal(block),
        BattleAction::FormSquare(block),
        BattleAction::Occupy(block),
        BattleAction::PlaceTerrain(boards::napoleon::battle::Wing::Left),
        BattleAction::Die(rng.random_range(0..=7)),
        BattleAction::Hits(rng.random_range(0..=5)),
        BattleAction::DrawTerrain(TerrainKind::Woods),
    ]
}

/// Whether a block of `side` in `zone` is in combat: an enemy block stands there (truth view).
fn in_combat(truth: &BattleView, side: Side, zone: Zone) -> bool {
    truth.blocks.iter().any(|o| {
        matches!(*o, BlockView::Known { side: s, place: Some(Place::Zone(z)), .. }
            if s != side && z == zone)
    })
}

/// Each block of the truth view on a wing (a zone of the field), with its side and zone.
fn on_wings(truth: &BattleView) -> Vec<(BlockId, Side, Zone)> {
    truth
        .blocks
        .iter()
        .filter_map(|b| match *b {
            BlockView::Known {
                block,
                side,
                place: Some(Place::Zone(zone)),
                ..
            } => Some((block, side, zone)),
            _ => None,
        })
        .collect()
}

/// Whether `zone` holds woods.
fn woods(view: &BattleView, zone: Zone) -> bool {
    view.terrain
        .iter()
        .any(|&(z, k)| z == zone && k == TerrainKind::Woods)
}

/// The blocks the public view shows.
fn publicly_seen(battle: &Battle) -> BTreeSet<BlockId> {
    battle
        .view(None)
        .blocks
        .iter()
        .filter_map(|b| match *b {
            BlockView::Known { block, .. } => Some(block),
            BlockView::Hidden { .. } => None,
        })
        .collect()
}

/// The blocks seen (6.2.4), read from the rule, not from the engine's flags: a block that
/// fired; under the option, one in combat on an open wing ("van zodra", from the moment it
/// is); and a block the public saw before an action stays seen while it is on an open wing,
/// moved there or not, until it goes into the reserve or woods ("Blokken die zichtbaar zijn
/// mogen opnieuw verticaal geplaatst worden wanneer ze geplaatst worden in de reserve of in
/// bossen"). In woods, a block seen only while it fought is hidden when the fight ends (6.2.1:
/// "die geen gevecht uitvoeren blijven verborgen"), so only firing carries there.
fn track_seen(
    seen: &mut BTreeMap<BlockId, bool>,
    before: &BTreeSet<BlockId>,
    events: &[BattleEvent],
    battle: &Battle,
    reveal_on_contact: bool,
) {
    let truth = battle.view_of(&Army::ALL);
    for e in events {
        match *e {
            BattleEvent::Fired { block, .. } => {
                seen.insert(block, true);
            }
            BattleEvent::Moved { block, to, .. } => {
                let hides = match to {
                    Place::Reserve => true,
                    Place::Zone(z) => woods(&truth, z),
                };
                if hides {
                    seen.insert(block, false);
                }
            }
            _ => {}
        }
    }
    if battle.is_skirmish() {
        return;
    }
    for (block, side, zone) in on_wings(&truth) {
        if woods(&truth, zone) {
            continue;
        }
        let contact = reveal_on_contact && in_combat(&truth, side, zone);
        if contact || before.contains(&block) {
            seen.insert(block, true);
        }
    }
}

/// No view names an enemy block the rules keep hidden: never in the reserve or before set-up;
/// in woods only in combat or once seen (6.2.4); with the option, only in combat or once seen
/// ([`track_seen`]).
fn check_views(battle: &Battle, seen: &BTreeMap<BlockId, bool>, reveal_on_contact: bool) {
    let truth = battle.view_of(&Army::ALL);
    for viewer in [
        None,
        Some(Army::French),
        Some(Army::AngloDutch),
        Some(Army::Prussian),
    ] {
        let view = battle.view(viewer);
        for b in &view.blocks {
            let BlockView::Known {
                block,
                army,
                side,
                place,
                ..
            } = *b
            else {
                continue;
            };
            if Some(army) == viewer {
                continue;
            }
            assert!(
                !matches!(
                    view.step,
                    boards::napoleon::battle::Step::Terrain
                        | boards::napoleon::battle::Step::Deployment
                ),
                "{viewer:?} sees an enemy block before the battle starts: {b:?}"
            );
            if battle.is_skirmish() {
                assert!(
                    matches!(
                        view.step,
                        boards::napoleon::battle::Step::SkirmishFire
                            | boards::napoleon::battle::Step::Losses
                            | boards::napoleon::battle::Step::Rout
                            | boards::napoleon::battle::Step::Over
                    ),
                    "a skirmish block is shown before both sides chose"
                );
                continue;
            }
            let Some(Place::Zone(zone)) = place else {
                panic!("{viewer:?} sees a block in the reserve or not set up: {b:?}");
            };
            let in_combat = in_combat(&truth, side, zone);
            if woods(&view, zone) || reveal_on_contact {
                assert!(
                    in_combat || seen.get(&block).copied().unwrap_or(false),
                    "{viewer:?} sees a hidden block in {zone}: {b:?}"
                );
            }
        }
    }
    // And every block the rules show, the public view shows: on an open wing always, or under
    // the option once seen or in combat; in woods once it fired or while in combat.
    let step = battle.step();
    if battle.is_skirmish() || matches!(step, Step::Terrain | Step::Deployment | Step::Over) {
        return;
    }
    let public = publicly_seen(battle);
    for (block, side, zone) in on_wings(&truth) {
        let known = seen.get(&block).copied().unwrap_or(false);
        let shown = if woods(&truth, zone) {
            in_combat(&truth, side, zone) || known
        } else {
            !reveal_on_contact || in_combat(&truth, side, zone) || known
        };
        assert!(
            !shown || public.contains(&block),
            "{step:?}: {block:?} of the {side:?} in {zone} is not shown"
        );
    }
}

fn strengths(battle: &Battle) -> BTreeMap<BlockId, u8> {
    battle
        .view_of(&Army::ALL)
        .blocks
        .iter()
        .filter_map(|b| match *b {
            BlockView::Known {
                block, strength, ..
            } => Some((block, strength)),
            BlockView::Hidden { .. } => None,
        })
        .collect()
}

#[test]
fn random_battles_keep_every_rule_and_replay_exactly() {
    let (map, oob) = data();
    let all_blocks: Vec<BlockId> = oob.blocks().map(|(id, _)| id).collect();
    let all_towns: Vec<_> = map.graph().towns().map(|(id, _)| id).collect();
    let mut endings = BTreeMap::new();
    let mut total_actions = 0;
    // Battles begun with fewer than 3 terrain blocks left to draw.
    let mut dry = 0;
    // Hits among hidden blocks placed by their owner (ruling R25), and those of them with one
    // strongest block.
    let (mut hidden_hits, mut hidden_singles) = (0, 0);
    for seed in 0..BATTLES {
        let mut rng = Pcg64::seed_from_u64(seed);
        let mut setup = random_setup(&mut rng, &map, &oob);
        setup.terrain_elsewhere = random_elsewhere(seed, &map);
        let options = setup.options;
        let mut drawn: Vec<TerrainKind> = Vec::new();
        let mut battle = Battle::new(&oob, &map, setup.clone())
            .unwrap_or_else(|p| panic!("seed {seed}: the set-up is refused: {p}"));
        let mut actions = Vec::new();
        let mut seen = BTreeMap::new();
        let mut before = strengths(&battle);
        while battle.actor() != BattleActor::Over {
            assert!(
                actions.len() < MAX_ACTIONS,
                "seed {seed}: the battle does not end"
            );
            // While the battle goes on, someone can always act (ruling R23 ends the one
            // deadlock found: a side unable to fill its three wings at deployment).
            assert!(
                battle.result().is_none(),
                "seed {seed}: a result mid-battle"
            );
            let legal = battle.legal_actions();
            assert!(
                !legal.is_empty(),
                "seed {seed}: {:?} has nothing to do in {:?}",
                battle.actor(),
                battle.step()
            );
            if battle.actor() == BattleActor::Chance {
                assert!(
                    !battle.chance_outcomes().is_empty(),
                    "seed {seed}: chance has no outcomes"
                );
            }
            for a in &legal {
                assert_eq!(battle.check(a), Ok(()), "seed {seed}: legal {a:?} refused");
            }
            if battle.step() == Step::Losses {
                // A player places a hit between equals (6.4), or when it may fall on a block
                // hidden from the firer (ruling R25); only among the blocks it may fall on.
                let group = battle.hit_group();
                let takes: Vec<BlockId> = legal
                    .iter()
                    .filter_map(|a| match *a {
                        BattleAction::TakeHit(b) => Some(b),
                        _ => None,
                    })
                    .collect();
                assert_eq!(takes.len(), legal.len(), "seed {seed}: {legal:?}");
                assert!(
                    takes.iter().all(|b| group.contains(b)),
                    "seed {seed}: {takes:?} outside {group:?}"
                );
                assert!(
                    takes.len() > 1 || battle.hit_among_hidden(),
                    "seed {seed}: a single strongest block, every one seen, waits"
                );
                if battle.hit_among_hidden() {
                    // Without 6.2.4's option every block a hit may fall on is seen: in
                    // combat with the firer, or on an open wing (no guns fire into woods).
                    assert!(options.reveal_on_contact, "seed {seed}: a hidden hit");
                    hidden_hits += 1;
                    hidden_singles += usize::from(takes.len() == 1);
                }
            } else {
                assert!(battle.hit_group().is_empty() && !battle.hit_among_hidden());
            }
            for a in candidates(&mut rng, &all_blocks, &all_towns) {
                assert_eq!(
                    battle.check(&a).is_ok(),
                    legal.contains(&a),
                    "seed {seed}: check and the legal list disagree on {a:?}"
                );
            }
            let action = if battle.actor() == BattleActor::Chance {
                let outcomes = battle.chance_outcomes();
                assert!(outcomes.iter().all(|&(_, w)| w > 0));
                if battle.step() == Step::Terrain {
                    // 6.1, 6.2.1: each kind weighs the blocks of it left to draw, the other
                    // battlefields' and this battle's drawn ones out.
                    let left = terrain_left(&map, &setup.terrain_elsewhere, &drawn);
                    let expected: Vec<_> = TerrainKind::ALL
                        .into_iter()
                        .zip(left)
                        .filter(|&(_, n)| n > 0)
                        .map(|(k, n)| (BattleAction::DrawTerrain(k), n))
                        .collect();
                    assert_eq!(outcomes, expected, "seed {seed}: terrain weights");
                }
                let total: u32 = outcomes.iter().map(|&(_, w)| w).sum();
                let mut pick = rng.random_range(0..total);
                let mut chosen = outcomes[0].0;
                for &(a, w) in &outcomes {
                    if pick < w {
                        chosen = a;
                        break;
                    }
                    pick -= w;
                }
                chosen
            } else {
                // Lean towards fighting so battles are decided, not only stalemated.
                let fights: Vec<_> = legal
                    .iter()
                    .filter(|a| matches!(a, BattleAction::Fire { .. } | BattleAction::Move { .. }))
                    .collect();
                if !fights.is_empty() && rng.random_bool(0.6) {
                    *fights[rng.random_range(0..fights.len())]
                } else {
                    legal[rng.random_range(0..legal.len())]
                }
            };
            let bytes = postcard::to_allocvec(&action).expect("an action encodes");
            assert_eq!(
                postcard::from_bytes::<BattleAction>(&bytes),
                Ok(action),
                "seed {seed}: {action:?} does not read back from a journal"
            );
            let shown_before = publicly_seen(&battle);
            let events = battle.play(&action).expect("a legal action is accepted");
            actions.push(action);
            // 6.6: each player shows 1 to 4 blocks in a skirmish: the French player, the
            // Allied player with both armies (two players), or each Allied army's player.
            let shown: Vec<BlockId> = events
                .iter()
                .filter_map(|e| match *e {
                    BattleEvent::Revealed { block, .. } if battle.is_skirmish() => Some(block),
                    _ => None,
                })
                .collect();
            if !shown.is_empty() {
                let mut per_player: BTreeMap<(Side, Option<Army>), usize> = BTreeMap::new();
                for b in &shown {
                    let army = oob.block(*b).expect("a block of the order of battle").army;
                    let side = battle.side_of(army).expect("a side in the battle");
                    let apart = army.is_allied() && !setup.one_allied_player;
                    *per_player.entry((side, apart.then_some(army))).or_default() += 1;
                }
                assert!(
                    per_player.values().all(|&n| (1..=4).contains(&n)),
                    "seed {seed}: a skirmish shows {per_player:?}"
                );
                assert!(
                    per_player.keys().any(|k| k.0 == Side::Attacker)
                        && per_player.keys().any(|k| k.0 == Side::Defender),
                    "seed {seed}: a side shows nothing in a skirmish"
                );
            }
            track_seen(
                &mut seen,
                &shown_before,
                &events,
                &battle,
                options.reveal_on_contact,
            );
            drawn.extend(events.iter().filter_map(|e| match *e {
                BattleEvent::TerrainDrawn { kind, .. } => Some(kind),
                _ => None,
            }));
            check_views(&battle, &seen, options.reveal_on_contact);
            let after = strengths(&battle);
            for (block, s) in &after {
                if let Some(old) = before.get(block) {
                    assert!(s <= old, "seed {seed}: a strength rose");
                }
            }
            before = after;
        }
        // A battle draws 1 + 2 terrain blocks, as many as are left when the other battlefields
        // hold the rest (ruling R24); a skirmish none.
        let available: u32 = terrain_left(&map, &setup.terrain_elsewhere, &[])
            .iter()
            .sum();
        let draws = if battle.is_skirmish() {
            0
        } else {
            available.min(3) as usize
        };
        assert_eq!(drawn.len(), draws, "seed {seed}: terrain drawn");
        dry += usize::from(!battle.is_skirmish() && available < 3);
        let result = battle.result().expect("an ended battle has a result");
        for o in &result.blocks {
            assert_eq!(
                o.strength == 0,
                o.fate == Fate::Eliminated,
                "seed {seed}: {o:?}"
            );
        }
        *endings.entry(format!("{:?}", result.ending)).or_insert(0) += 1;
        total_actions += actions.len();
        let mut replay = Battle::new(&oob, &map, setup).expect("the set-up was accepted");
        for a in &actions {
            replay.play(a).expect("replay accepts every action");
        }
        assert_eq!(replay, battle, "seed {seed}: replay differs");
    }
    println!(
        "{endings:?}, {total_actions} actions, {dry} battles short of terrain, {hidden_hits} \
         hits among hidden blocks ({hidden_singles} with one strongest)"
    );
    assert!(endings.len() >= 4, "too few kinds of ending: {endings:?}");
    assert!(
        hidden_singles > 0,
        "no hit among hidden blocks with one strongest"
    );
    assert!(dry > 0, "no battle drew from a nearly empty terrain pool");
}
