//! Napoléon's battle rules (rulebook sections 6, 7 and 8), one test per rule, each quoting the
//! Dutch rulebook with an English gloss; and section 6.3.3's worked cavalry example.

use boards::geometry::roads::TownId;
use boards::napoleon::battle::{
    Approach, Battle, BattleAction, BattleActor, BattleEvent, BattleIllegal, BattleOptions,
    BattleSetup, BlockView, Defeat, Ending, Fate, Place, SetupProblem, Side, Step, Target, Unit,
    Wing, Zone,
};
use boards::napoleon::{Army, BlockId, Map, OrderOfBattle, TerrainKind, DEFAULT_ORDER_OF_BATTLE};

use Side::{Attacker, Defender};
use TerrainKind::{Farm, Hill, Stream, Woods};
use Wing::{Centre, Left, Right};

/// A neighbouring town: its code, who holds it, whether the attacker came from it, and the
/// blocks there that may reinforce.
type Near<'a> = (&'a str, Option<Side>, bool, &'a [(&'a str, u8)]);

/// A battle under test, with the data it was built from.
struct Field {
    map: Map,
    oob: OrderOfBattle,
    battle: Battle,
}

fn map() -> Map {
    Map::standard().expect("the default map is valid")
}

fn town(map: &Map, code: &str) -> TownId {
    map.town(code)
        .unwrap_or_else(|| panic!("{code} is on the map"))
}

/// The zone `wing` of `side`'s half.
const fn z(side: Side, wing: Wing) -> Zone {
    Zone::new(side, wing)
}

/// The place `wing` of `side`'s half.
const fn at(side: Side, wing: Wing) -> Place {
    Place::Zone(z(side, wing))
}

impl Field {
    /// A battle at `town` on the default map, with the order of battle `oob_text`.
    fn with(
        oob_text: &str,
        town_code: &str,
        attackers: &[(&str, u8)],
        defenders: &[(&str, u8)],
        approaches: &[Near<'_>],
        options: BattleOptions,
    ) -> Field {
        let map = map();
        let oob = OrderOfBattle::parse(oob_text, &map).expect("the order of battle is valid");
        let unit = |&(name, strength): &(&str, u8)| Unit {
            block: oob.find(name).unwrap_or_else(|| panic!("no block {name}")),
            strength,
        };
        let setup = BattleSetup {
            town: town(&map, town_code),
            attackers: attackers.iter().map(unit).collect(),
            defenders: defenders.iter().map(unit).collect(),
            approaches: approaches
                .iter()
                .map(|&(code, held_by, attacked_from, units)| Approach {
                    town: town(&map, code),
                    held_by,
                    attacked_from,
                    battle: false,
                    reinforcements: units.iter().map(unit).collect(),
                })
                .collect(),
            options,
            terrain_elsewhere: Vec::new(),
            one_allied_player: false,
        };
        let battle = Battle::new(&oob, &map, setup).expect("the set-up is valid");
        Field { map, oob, battle }
    }

    /// A battle at Waterloo: the French attack from Quatre Bras (broad road); Brussel (broad)
    /// and Waver (narrow) are Anglo-Dutch, Nijvel is empty.
    fn waterloo(attackers: &[(&str, u8)], defenders: &[(&str, u8)]) -> Field {
        Field::waterloo_with(attackers, defenders, BattleOptions::default())
    }

    /// [`Field::waterloo`] under `options`.
    fn waterloo_with(
        attackers: &[(&str, u8)],
        defenders: &[(&str, u8)],
        options: BattleOptions,
    ) -> Field {
        Field::with(
            DEFAULT_ORDER_OF_BATTLE,
            "WAT",
            attackers,
            defenders,
            &[
                ("QB", Some(Attacker), true, &[]),
                ("BRU", Some(Defender), false, &[]),
                ("NIV", None, false, &[]),
                ("WAV", Some(Defender), false, &[]),
            ],
            options,
        )
    }

    fn id(&self, name: &str) -> BlockId {
        self.oob
            .find(name)
            .unwrap_or_else(|| panic!("no block {name}"))
    }

    fn town(&self, code: &str) -> TownId {
        town(&self.map, code)
    }

    /// Plays `action`, which must be legal.
    fn act(&mut self, action: BattleAction) -> Vec<BattleEvent> {
        let legal = self.battle.legal_actions();
        assert!(
            legal.contains(&action),
            "{action:?} is not legal now ({:?}, {:?}); legal: {legal:?}",
            self.battle.step(),
            self.battle.actor()
        );
        self.battle
            .play(&action)
            .expect("a legal action is accepted")
    }

    /// Draws and places the three terrain blocks: the attacker's, then the defender's two.
    fn terrain(&mut self, blocks: [(TerrainKind, Wing); 3]) {
        for (kind, wing) in blocks {
            self.act(BattleAction::DrawTerrain(kind));
            self.act(BattleAction::PlaceTerrain(wing));
        }
    }

    /// Quiet terrain: hills on wings where no artillery stands in these tests.
    fn plain(&mut self) {
        self.terrain([(Hill, Left), (Hill, Left), (Hill, Right)]);
    }

    fn deploy(&mut self, blocks: &[(&str, Place)]) {
        for &(name, to) in blocks {
            let block = self.id(name);
            self.act(BattleAction::Deploy { block, to });
        }
    }

    fn mv(&mut self, name: &str, to: Place) -> Vec<BattleEvent> {
        let block = self.id(name);
        self.act(BattleAction::Move { block, to })
    }

    fn fire(&mut self, name: &str, zone: Zone) -> Vec<BattleEvent> {
        let block = self.id(name);
        self.act(BattleAction::Fire {
            block,
            at: zone,
            target: Target::Line,
        })
    }

    fn done(&mut self) {
        self.act(BattleAction::Done);
    }

    /// Whether the public view shows the block's face.
    fn seen(&self, name: &str) -> bool {
        let id = self.id(name);
        self.battle
            .view(None)
            .blocks
            .iter()
            .any(|b| matches!(*b, BlockView::Known { block, .. } if block == id))
    }

    /// The truth about a block: its strength (0 once gone from the field).
    fn strength(&self, name: &str) -> u8 {
        let id = self.id(name);
        self.battle
            .view_of(&Army::ALL)
            .blocks
            .iter()
            .find_map(|b| match *b {
                BlockView::Known {
                    block, strength, ..
                } if block == id => Some(strength),
                _ => None,
            })
            .unwrap_or(0)
    }

    /// The dice and firepower of the volley now due.
    fn volley(&self) -> (u8, u8) {
        self.battle.view(None).volley.expect("a volley is due")
    }

    fn outcome(&self, name: &str) -> (Fate, u8) {
        let id = self.id(name);
        let result = self.battle.result().expect("the battle is over");
        let o = result
            .blocks
            .iter()
            .find(|o| o.block == id)
            .unwrap_or_else(|| panic!("{name} is not in the result"));
        (o.fate, o.strength)
    }
}

/// The usual French attackers and Anglo-Dutch defenders for the rule tests.
const FRENCH: &[(&str, u8)] = &[
    ("G-INF", 4),
    ("I-INF1", 4),
    ("II-INF1", 4),
    ("G-CAV", 3),
    ("1CC-CAV", 3),
];
const BRITISH: &[(&str, u8)] = &[
    ("WELLINGTON", 1),
    ("AR-5DIV", 4),
    ("AR-6DIV", 3),
    ("AI-1DIV", 4),
    ("AII-2DIV", 4),
];

/// Terrain and a plain deployment: the British Reserve corps with Wellington on their left,
/// I corps centre, II corps right; the French infantry one a wing, cavalry in reserve.
fn standard_field() -> Field {
    standard_field_with(BattleOptions::default())
}

/// [`standard_field`] under `options`.
fn standard_field_with(options: BattleOptions) -> Field {
    standard_field_on(options, [(Hill, Left), (Hill, Left), (Hill, Right)])
}

/// [`standard_field`] under `options`, with `terrain` drawn and placed (the attacker's block,
/// then the defender's two, each on its placer's own wing).
/// The standard field's deployment: Wellington and two divisions on the British left, one
/// division on each other wing; the Guard, I and II Corps' infantry on the French wings, two
/// cavalry blocks in the French reserve.
const STANDARD_DEPLOYMENT: [(&str, Place); 10] = [
    ("WELLINGTON", at(Defender, Left)),
    ("AR-5DIV", at(Defender, Left)),
    ("AR-6DIV", at(Defender, Left)),
    ("AI-1DIV", at(Defender, Centre)),
    ("AII-2DIV", at(Defender, Right)),
    ("G-INF", at(Attacker, Left)),
    ("I-INF1", at(Attacker, Centre)),
    ("II-INF1", at(Attacker, Right)),
    ("G-CAV", Place::Reserve),
    ("1CC-CAV", Place::Reserve),
];

fn standard_field_on(options: BattleOptions, terrain: [(TerrainKind, Wing); 3]) -> Field {
    let mut f = Field::waterloo_with(FRENCH, BRITISH, options);
    f.terrain(terrain);
    f.deploy(&STANDARD_DEPLOYMENT);
    f
}

/// The order of battle of 6.3.3's worked example: its four blocks at their printed figures
/// (the French 3F3 and 3F2 cavalry, the British 4F2 infantry and 4F1 cavalry), the three
/// leaders every order of battle holds (3.6.1), and the infantry that fill the other wings,
/// which a battle needs (6.2.2: "minstens 1 eenheid" on each wing).
const EXAMPLE_OOB: &str = "\
block NAPOLEON   french -    leader          1 F1 BEA
block FR-INF1    french I    infantry        4 F2 BEA
block FR-INF2    french I    infantry        4 F2 BEA
block FR-INF3    french II   infantry        4 F2 BEA
block FR-HEAVY   french 3CC  heavy-cavalry   3 F3 BEA
block FR-LIGHT   french 1CC  light-cavalry   3 F2 BEA
block BLUCHER    pr     -    leader          1 F1 NAM
block WELLINGTON ad     -    leader          1 F1 BRU
block BR-INF     ad     I    infantry        4 F2 BRU
block BR-CAV     ad     I    light-cavalry   4 F1 BRU
block BR-INF2    ad     II   infantry        4 F2 BRU
block BR-INF3    ad     II   infantry        4 F2 BRU
";

/// Exact weights of `dice` dice hitting on `fire` or less: `C(n,k) F^k (6-F)^(n-k)` for k hits.
fn weights(dice: u8, fire: u8) -> Vec<(BattleAction, u32)> {
    let dice = u32::from(dice);
    let fire = u32::from(fire);
    (0..=dice)
        .map(|k| {
            let choose = (0..k).fold(1, |c, i| c * (dice - i) / (i + 1));
            let hits = u8::try_from(k).expect("at most 4 dice");
            (
                BattleAction::Hits(hits),
                choose * fire.pow(k) * (6 - fire).pow(dice - k),
            )
        })
        .collect()
}

/// 6.3.3's worked example, reproduced exactly: "Voorbeeld: 3F3 en 3F2 cavalerie bewegen vanuit
/// de reserve om 4F2 infanterie en 4F1 cavalerie aan te vallen in de Britse linkse sector. De
/// Britse infanterie vuurt met 4F2 en de Britse cavalerie vuurt met 4F1 (geen schokeffect). In
/// de veronderstelling dat er tweemaal raak werd geschoten zal de Franse cavalerie vuren met
/// 2F4 en 2F3 (met schokeffect)." (3F3 and 3F2 cavalry move from the reserve to attack 4F2
/// infantry and 4F1 cavalry on the British left. The British infantry fires 4F2 and the
/// British cavalry 4F1, without shock. Supposing two hits, the French cavalry fires 2F4 and
/// 2F3, with shock.) With 6.4: "Elk raak schot wordt apart toegepast op de sterkste vijandelijke
/// eenheid in die positie. Indien twee of meerdere vijandelijke eenheden even sterk zijn beslist
/// de eigenaar" (each hit goes to the strongest enemy unit there; between equals the owner
/// decides).
///
/// The example is built from an order of battle holding its own blocks, among them a light
/// cavalry block printed F1: the data refused one before (light cavalry had to be F2), so this
/// test failed on the old code.
#[test]
fn the_cavalry_example_of_6_3_3() {
    let mut f = Field::with(
        EXAMPLE_OOB,
        "WAT",
        &[
            ("FR-INF1", 4),
            ("FR-INF2", 4),
            ("FR-INF3", 4),
            ("FR-HEAVY", 3),
            ("FR-LIGHT", 3),
        ],
        &[("BR-INF", 4), ("BR-CAV", 4), ("BR-INF2", 4), ("BR-INF3", 4)],
        &[("QB", Some(Attacker), true, &[])],
        BattleOptions::default(),
    );
    f.plain();
    f.deploy(&[
        ("BR-INF", at(Defender, Left)),
        ("BR-CAV", at(Defender, Left)),
        ("BR-INF2", at(Defender, Centre)),
        ("BR-INF3", at(Defender, Right)),
        ("FR-INF1", at(Attacker, Left)),
        ("FR-INF2", at(Attacker, Centre)),
        ("FR-INF3", at(Attacker, Right)),
        ("FR-HEAVY", Place::Reserve),
        ("FR-LIGHT", Place::Reserve),
    ]);
    // The 3F3 and 3F2 cavalry move from the reserve onto the British left: two moves each.
    for cav in ["FR-HEAVY", "FR-LIGHT"] {
        f.mv(cav, at(Attacker, Right));
        f.mv(cav, at(Defender, Left));
    }
    f.done();

    // The British turn: the infantry fires 4F2.
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::AngloDutch));
    f.fire("BR-INF", z(Defender, Left));
    assert_eq!(f.volley(), (4, 2));
    assert_eq!(f.battle.chance_outcomes(), weights(4, 2));
    assert_eq!(
        weights(4, 2).iter().map(|w| w.1).collect::<Vec<_>>(),
        [256, 512, 384, 128, 16]
    );
    f.act(BattleAction::Hits(1));
    // Both French cavalry are strength 3, the strongest there: the French player picks (6.4),
    // between those two and no other block.
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::French));
    let (heavy, light) = (f.id("FR-HEAVY"), f.id("FR-LIGHT"));
    assert_eq!(
        f.battle.legal_actions(),
        [BattleAction::TakeHit(heavy), BattleAction::TakeHit(light)]
    );
    f.act(BattleAction::TakeHit(heavy));
    assert_eq!((f.strength("FR-HEAVY"), f.strength("FR-LIGHT")), (2, 3));

    // The British cavalry fires 4F1: its printed firepower, no shock (it did not engage).
    f.fire("BR-CAV", z(Defender, Left));
    assert_eq!(f.volley(), (4, 1));
    assert_eq!(f.battle.chance_outcomes(), weights(4, 1));
    assert_eq!(
        weights(4, 1).iter().map(|w| w.1).collect::<Vec<_>>(),
        [625, 500, 150, 20, 1]
    );
    f.act(BattleAction::Hits(1));
    // The second hit goes to the strongest, now the light cavalry alone: no choice is asked.
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::AngloDutch));
    assert_eq!((f.strength("FR-HEAVY"), f.strength("FR-LIGHT")), (2, 2));
    f.done();

    // The French turn: two hits taken, the cavalry fires 2F4 and 2F3, with shock.
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::French));
    f.fire("FR-HEAVY", z(Defender, Left));
    assert_eq!(f.volley(), (2, 4));
    assert_eq!(
        f.battle.chance_outcomes(),
        [
            (BattleAction::Hits(0), 4),
            (BattleAction::Hits(1), 16),
            (BattleAction::Hits(2), 16)
        ]
    );
    f.act(BattleAction::Hits(0));
    f.fire("FR-LIGHT", z(Defender, Left));
    assert_eq!(f.volley(), (2, 3));
    assert_eq!(
        f.battle.chance_outcomes(),
        [
            (BattleAction::Hits(0), 9),
            (BattleAction::Hits(1), 18),
            (BattleAction::Hits(2), 9)
        ]
    );
    f.act(BattleAction::Hits(2));
    // Each hit to the strongest: the 4F2 infantry and the 4F1 cavalry are equal, so the
    // British player picks for the first; the second goes to the one left at 4.
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::AngloDutch));
    let (inf, cav) = (f.id("BR-INF"), f.id("BR-CAV"));
    assert_eq!(
        f.battle.legal_actions(),
        [BattleAction::TakeHit(inf), BattleAction::TakeHit(cav)]
    );
    f.act(BattleAction::TakeHit(cav));
    assert_eq!((f.strength("BR-INF"), f.strength("BR-CAV")), (3, 3));
}

/// 6.3.3: "Eenheden met een gewijzigde vuurkracht naar F0 kunnen niet vuren maar kunnen zelf
/// wel geraakt worden." (Units whose firepower is changed to F0 cannot fire, but can be hit.)
/// 6.5.1: cavalry attacking a square "verliest de +1 schok bonus en vuren -1" (loses its shock
/// and fires one lower), so 6.3.3's 4F1 cavalry is F0 at a square. And "Eenheden die zich in
/// reserve bevinden kunnen niet vuren" (units in the reserve cannot fire).
#[test]
fn f0_cannot_fire_but_is_hit_and_the_reserve_never_fires() {
    let (f, square) = the_cavalry_charges_a_square(EXAMPLE_OOB);
    // The cavalry is in combat and did not move this turn, but at F0 it cannot fire.
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::AngloDutch));
    assert!(!cavalry_fires(&f));
    assert_eq!(
        f.battle.check(&BattleAction::Fire {
            block: f.id("BR-CAV"),
            at: z(Attacker, Right),
            target: Target::Square(square),
        }),
        Err(BattleIllegal::CannotFire)
    );
    // The control: the same cavalry printed F2 is F1 at the square, and fires from the same
    // spot.
    let f2 = EXAMPLE_OOB.replace(
        "BR-CAV     ad     I    light-cavalry   4 F1",
        "BR-CAV     ad     I    light-cavalry   4 F2",
    );
    assert_ne!(f2, EXAMPLE_OOB);
    let (f, square) = the_cavalry_charges_a_square(&f2);
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::AngloDutch));
    assert!(cavalry_fires(&f));
    assert_eq!(
        f.battle.check(&BattleAction::Fire {
            block: f.id("BR-CAV"),
            at: z(Attacker, Right),
            target: Target::Square(square),
        }),
        Ok(())
    );
}

/// Whether the British cavalry may fire now.
fn cavalry_fires(f: &Field) -> bool {
    let id = f.id("BR-CAV");
    f.battle
        .legal_actions()
        .iter()
        .any(|a| matches!(a, BattleAction::Fire { block, .. } if *block == id))
}

/// 6.3.3's British cavalry (as `oob` prints it) charges a French square from the reserve and is
/// hit once; returns the battle at the British turn after, with the square's block.
fn the_cavalry_charges_a_square(oob: &str) -> (Field, BlockId) {
    let mut f = Field::with(
        oob,
        "WAT",
        &[
            ("FR-INF1", 4),
            ("FR-INF2", 4),
            ("FR-INF3", 4),
            ("FR-HEAVY", 3),
            ("FR-LIGHT", 3),
        ],
        &[("BR-INF", 4), ("BR-CAV", 4), ("BR-INF2", 4), ("BR-INF3", 4)],
        &[("QB", Some(Attacker), true, &[])],
        BattleOptions::default(),
    );
    f.plain();
    f.deploy(&[
        ("BR-INF", at(Defender, Left)),
        ("BR-CAV", Place::Reserve),
        ("BR-INF2", at(Defender, Centre)),
        ("BR-INF3", at(Defender, Right)),
        ("FR-INF1", at(Attacker, Left)),
        ("FR-INF2", at(Attacker, Centre)),
        ("FR-INF3", at(Attacker, Right)),
        ("FR-HEAVY", Place::Reserve),
        ("FR-LIGHT", Place::Reserve),
    ]);
    let fires = |f: &Field, name: &str| {
        let id = f.id(name);
        f.battle
            .legal_actions()
            .iter()
            .any(|a| matches!(a, BattleAction::Fire { block, .. } if *block == id))
    };
    // The French right forms a square; the reserve has no fire.
    let square = f.id("FR-INF3");
    f.act(BattleAction::FormSquare(square));
    assert!(!fires(&f, "FR-HEAVY") && !fires(&f, "FR-LIGHT"));
    f.done();
    // The British 4F1 cavalry charges the square from the reserve.
    f.mv("BR-CAV", at(Defender, Left));
    f.mv("BR-CAV", at(Attacker, Right));
    f.done();
    // The square fires and hits the cavalry: an F0 unit is hit like any other.
    f.fire("FR-INF3", z(Attacker, Right));
    f.act(BattleAction::Hits(1));
    assert_eq!(f.strength("BR-CAV"), 3);
    f.done();
    (f, square)
}

/// 6.3.3: "Eenheden die zich in reserve bevinden kunnen niet vuren" (units in the reserve
/// cannot fire), artillery too, though its long-range fire reaches other zones: foot artillery
/// in the reserve has no fire at all; moved to a wing, it fires at long range in its next turn.
/// And 6.3.2: foot artillery never engages (the infantry beside it may).
#[test]
fn foot_artillery_in_the_reserve_has_no_fire_until_it_moves_to_a_wing() {
    let oob = format!("{EXAMPLE_OOB}block FR-ART     french I    foot-artillery  3 F1 BEA\n");
    let mut f = Field::with(
        &oob,
        "WAT",
        &[
            ("FR-INF1", 4),
            ("FR-INF2", 4),
            ("FR-INF3", 4),
            ("FR-ART", 3),
        ],
        &[("BR-INF", 4), ("BR-INF2", 4), ("BR-INF3", 4)],
        &[("QB", Some(Attacker), true, &[])],
        BattleOptions::default(),
    );
    f.plain();
    f.deploy(&[
        ("BR-INF", at(Defender, Left)),
        ("BR-INF2", at(Defender, Centre)),
        ("BR-INF3", at(Defender, Right)),
        ("FR-INF1", at(Attacker, Left)),
        ("FR-INF2", at(Attacker, Centre)),
        ("FR-INF3", at(Attacker, Right)),
        ("FR-ART", Place::Reserve),
    ]);
    let art = f.id("FR-ART");
    let fires = |f: &Field| {
        f.battle
            .legal_actions()
            .iter()
            .any(|a| matches!(a, BattleAction::Fire { block, .. } if *block == art))
    };
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::French));
    assert!(!fires(&f), "the reserve never fires");
    assert_eq!(
        f.battle.check(&BattleAction::Fire {
            block: art,
            at: z(Defender, Centre),
            target: Target::Line,
        }),
        Err(BattleIllegal::CannotFire)
    );
    // To the centre: having moved, it fires no more this turn (6.3.3).
    f.mv("FR-ART", at(Attacker, Centre));
    assert!(!fires(&f));
    f.done();
    f.done();
    // Next turn, from its wing, it reaches the British centre at long range.
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::French));
    assert!(fires(&f));
    assert_eq!(
        f.battle.check(&BattleAction::Fire {
            block: art,
            at: z(Defender, Centre),
            target: Target::Line,
        }),
        Ok(())
    );
    // 6.3.2: foot artillery never engages: it may not step into the British centre, where
    // the infantry beside it may.
    let engage = |name: &str| BattleAction::Move {
        block: f.id(name),
        to: at(Defender, Centre),
    };
    assert!(f.battle.check(&engage("FR-ART")).is_err());
    assert_eq!(f.battle.check(&engage("FR-INF2")), Ok(()));
}

/// 6.5: "Vierkant formaties kunnen niet gevormd worden in bossen of in hoeves. Infanterie in
/// vierkant formatie heeft een +1 moreel." (Squares cannot be formed in woods or in farms;
/// infantry in square has +1 morale.)
#[test]
fn no_square_in_woods_or_a_farm_and_a_square_adds_one_to_morale() {
    let mut f = Field::waterloo(
        FRENCH,
        &[
            ("WELLINGTON", 1),
            ("AR-5DIV", 4),
            ("AR-6DIV", 3),
            ("AI-1DIV", 1),
            ("AII-2DIV", 4),
        ],
    );
    // Woods on the French left; a farm on the British left (its first infantry holds it).
    f.terrain([(Woods, Left), (Farm, Left), (Hill, Right)]);
    f.deploy(&STANDARD_DEPLOYMENT);
    let may_square = |f: &Field, name: &str| {
        f.battle
            .legal_actions()
            .contains(&BattleAction::FormSquare(f.id(name)))
    };
    // In the woods no square; on open ground one may form.
    assert!(!may_square(&f, "G-INF"));
    assert!(may_square(&f, "I-INF1"));
    f.done();
    // The farm's holder forms none; beside it in the same zone, outside the farm, AR-6DIV
    // may (the control: the zone is not what forbids it), and the centre does.
    assert!(!may_square(&f, "AR-5DIV"));
    assert!(may_square(&f, "AR-6DIV"));
    let centre = f.id("AI-1DIV");
    f.act(BattleAction::FormSquare(centre));
    f.done();
    // The French engage the square of strength 1.
    f.mv("I-INF1", at(Defender, Centre));
    f.done();
    // Its morale check: a die of 3 fails alone (1-3), but the square adds 1: 4 holds.
    assert_eq!(f.battle.step(), Step::Morale);
    let events = f.act(BattleAction::Die(3));
    assert!(events.contains(&BattleEvent::Morale {
        block: centre,
        total: 4,
        held: true
    }));
    assert_eq!(f.strength("AI-1DIV"), 1);
}

/// 6.3.3: "Om een eenheid te laten vuren werp men zoveel dobbelstenen als wordt aangegeven
/// door zijn huidige sterkte. Een raak shot wordt bepaald door een waarde kleiner of gelijk aan
/// de vuurkracht van die eenheid." (A unit fires as many dice as its current strength; a die
/// of its firepower or less hits.) And "Infanterie moet in gevecht zijn om te kunnen vuren."
/// (Infantry must be in combat to fire.)
#[test]
fn fire_rolls_one_die_per_strength_hitting_on_firepower_or_less() {
    let mut f = standard_field();
    let g_inf = f.id("G-INF");
    // Not in combat: no fire.
    assert!(!f
        .battle
        .legal_actions()
        .iter()
        .any(|a| matches!(a, BattleAction::Fire { block, .. } if *block == g_inf)));
    // The French left faces the British right.
    f.mv("G-INF", at(Defender, Right));
    f.done();
    f.fire("AII-2DIV", z(Defender, Right));
    assert_eq!(f.volley(), (4, 2));
    // 4 dice at F2: C(4,k) 2^k 4^(4-k), of 6^4.
    let weights: Vec<u32> = f.battle.chance_outcomes().iter().map(|&(_, w)| w).collect();
    assert_eq!(weights, vec![256, 512, 384, 128, 16]);
    assert_eq!(weights.iter().sum::<u32>(), 1296);
    f.act(BattleAction::Hits(3));
    assert_eq!(f.strength("G-INF"), 1);
}

/// 6.4: "Elk raak schot wordt apart toegepast op de sterkste vijandelijke eenheid in die
/// positie. Indien twee of meerdere vijandelijke eenheden even sterk zijn beslist de eigenaar
/// van die eenheden wie het rake schot incasseert" (Each hit goes to the strongest enemy unit
/// in the position; among equals, their owner decides.)
#[test]
fn hits_go_to_the_strongest_and_the_owner_picks_among_equals() {
    let mut f = standard_field();
    // The French centre and right engage the British left? No sideways: the French right faces
    // the British left.
    f.mv("II-INF1", at(Defender, Left));
    f.done();
    // II-INF1 alone at 4 takes the British hits, one by one, as the strongest.
    f.fire("AR-5DIV", z(Defender, Left));
    f.act(BattleAction::Hits(2));
    assert_eq!(f.strength("II-INF1"), 2);
    f.done();
    // French turn: II-INF1 fires twice... once: 2 hits on AR-5DIV (4) then a tie 3-3.
    f.fire("II-INF1", z(Defender, Left));
    f.act(BattleAction::Hits(2));
    assert_eq!(f.strength("AR-5DIV"), 3);
    // AR-5DIV and AR-6DIV are both 3: the Anglo-Dutch player picks, and only among them.
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::AngloDutch));
    let (a5, a6, w) = (f.id("AR-5DIV"), f.id("AR-6DIV"), f.id("WELLINGTON"));
    assert_eq!(
        f.battle.check(&BattleAction::TakeHit(w)),
        Err(BattleIllegal::NotStrongest)
    );
    assert_eq!(
        f.battle.legal_actions(),
        vec![BattleAction::TakeHit(a5), BattleAction::TakeHit(a6)]
    );
    f.act(BattleAction::TakeHit(a6));
    assert_eq!((f.strength("AR-5DIV"), f.strength("AR-6DIV")), (3, 2));
}

/// The British left of a battle under 6.2.4's option, fired at from across the field by the
/// French guns: AR-5DIV at 3 and AR-6DIV at `second`, both hidden from the French (not yet
/// in combat, never fired). One hit is rolled.
fn hidden_left_hit_once(second: u8) -> Field {
    let mut f = hidden_left(3, second);
    // The French right faces the British left: long range, 3 dice.
    f.fire("II-ART", z(Defender, Left));
    f.act(BattleAction::Hits(1));
    f
}

/// A battle under 6.2.4's option, deployed, the French to fight: AR-5DIV at `first` and
/// AR-6DIV at `second` on the British left, hidden from the French, across the field from the
/// French guns (II-ART on the French right).
fn hidden_left(first: u8, second: u8) -> Field {
    let mut f = Field::with(
        DEFAULT_ORDER_OF_BATTLE,
        "WAT",
        &[("G-INF", 4), ("I-INF1", 4), ("II-INF1", 4), ("II-ART", 3)],
        &[
            ("AR-5DIV", first),
            ("AR-6DIV", second),
            ("AI-1DIV", 4),
            ("AII-2DIV", 4),
        ],
        &[("QB", Some(Attacker), true, &[])],
        BattleOptions {
            reveal_on_contact: true,
            ..BattleOptions::default()
        },
    );
    f.plain();
    f.deploy(&[
        ("AR-5DIV", at(Defender, Left)),
        ("AR-6DIV", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Right)),
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
        ("II-ART", at(Attacker, Right)),
    ]);
    assert!(!f
        .battle
        .view(Some(Army::French))
        .blocks
        .iter()
        .any(|b| matches!(
            b,
            BlockView::Known {
                army: Army::AngloDutch,
                ..
            }
        )));
    f
}

/// Ruling R7 (fire that cannot take effect is not offered: long-range artillery never
/// eliminates, 6.4) read with 3.2 and 6.2.4's option: whether every block of a group is at
/// strength 1 is the owner's secret while the group is hidden, so the French guns may fire
/// across at it whatever the hidden strengths, and hits that cannot land are lost after the
/// roll. Before, the fire was offered only when a hidden block stood above 1, so the French
/// learned the hidden strengths without a shot (this test failed on the old code).
#[test]
fn long_range_fire_at_hidden_blocks_is_offered_whatever_their_strengths() {
    let fire = |f: &Field| BattleAction::Fire {
        block: f.id("II-ART"),
        at: z(Defender, Left),
        target: Target::Line,
    };
    let mut weak = hidden_left(1, 1);
    let strong = hidden_left(2, 1);
    for f in [&weak, &strong] {
        assert!(f.battle.legal_actions().contains(&fire(f)));
    }
    assert_eq!(
        weak.battle.view(Some(Army::French)),
        strong.battle.view(Some(Army::French))
    );
    weak.act(fire(&weak));
    let events = weak.act(BattleAction::Hits(1));
    assert!(events.contains(&BattleEvent::HitLost), "{events:?}");
    assert_eq!((weak.strength("AR-5DIV"), weak.strength("AR-6DIV")), (1, 1));
}

/// 6.4: "Elk raak schot wordt apart toegepast op de sterkste vijandelijke eenheid in die
/// positie. Indien twee of meerdere vijandelijke eenheden even sterk zijn beslist de eigenaar
/// van die eenheden wie het rake schot incasseert" (each hit to the strongest enemy unit there;
/// among equals, their owner decides); 3.2: "Dit voorkomt dat de spelers de type en sterkte
/// van de vijandelijke eenheden zien" (the blocks stand so that the players do not see the
/// enemy's types and strengths); and 6.2.4's option: "men kan ook alle eenheden pas zichtbaar
/// maken van zodra ze vuren of in gevechten verwikkeld zijn" (units may be revealed only once
/// they fire or are in combat).
///
/// A hit on two hidden blocks is placed by their owner whether one is the strongest or both
/// tie (ruling R25): only the strongest may take it, and the French, who fired, see the same
/// battle either way, before the pick and after it. Before, the single strongest took it at
/// once and only a tie waited for the owner, so this test failed on the old code (the first
/// twin's hit was placed at once and the French saw their own turn go on).
#[test]
fn a_hit_on_hidden_blocks_is_placed_by_their_owner_tie_or_not() {
    let mut one = hidden_left_hit_once(2);
    let mut tie = hidden_left_hit_once(3);
    let (a5, a6) = (one.id("AR-5DIV"), one.id("AR-6DIV"));
    for f in [&one, &tie] {
        assert_eq!(f.battle.step(), Step::Losses);
        assert_eq!(f.battle.actor(), BattleActor::Army(Army::AngloDutch));
        assert!(f.battle.hit_among_hidden());
        assert_eq!(f.battle.hit_group(), [a5, a6]);
    }
    // The firing side and the public see the same in both.
    for viewer in [Some(Army::French), None] {
        assert_eq!(one.battle.view(viewer), tie.battle.view(viewer));
    }
    // Only the strongest may take it: AR-5DIV alone, or either of two equals.
    assert_eq!(one.battle.legal_actions(), [BattleAction::TakeHit(a5)]);
    assert_eq!(
        one.battle.check(&BattleAction::TakeHit(a6)),
        Err(BattleIllegal::NotStrongest)
    );
    assert_eq!(
        tie.battle.legal_actions(),
        [BattleAction::TakeHit(a5), BattleAction::TakeHit(a6)]
    );
    one.act(BattleAction::TakeHit(a5));
    tie.act(BattleAction::TakeHit(a6));
    assert_eq!((one.strength("AR-5DIV"), one.strength("AR-6DIV")), (2, 2));
    assert_eq!((tie.strength("AR-5DIV"), tie.strength("AR-6DIV")), (3, 2));
    for viewer in [Some(Army::French), None] {
        assert_eq!(one.battle.view(viewer), tie.battle.view(viewer));
    }
    assert_eq!(one.battle.actor(), BattleActor::Army(Army::French));
    assert_eq!(one.battle.step(), Step::Fight);
    assert!(one.battle.hit_group().is_empty() && !one.battle.hit_among_hidden());
}

/// 6.2.4: units in woods stay hidden ("behalve de eenheden die zich in bossen [...] bevinden"),
/// and are seen while in combat; no gun fires into woods (6.2.1), so a hit in woods falls only
/// on blocks in combat with the firer, all seen. 6.4 then applies as printed (ruling R25 does
/// not arise): the one strongest block takes a hit at once, and the owner picks only between
/// equals. (This is the case the ruling leaves unchanged: a wait for every hit on two or more
/// blocks fails it.)
#[test]
fn a_hit_in_woods_falls_on_blocks_seen_in_combat_and_the_strongest_takes_it_at_once() {
    let mut f = Field::waterloo(
        FRENCH,
        &[
            ("AR-5DIV", 4),
            ("AR-6DIV", 3),
            ("AI-1DIV", 4),
            ("AII-2DIV", 4),
        ],
    );
    f.terrain([(Hill, Right), (Woods, Left), (Hill, Right)]);
    f.deploy(&[
        ("AR-5DIV", at(Defender, Left)),
        ("AR-6DIV", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Right)),
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
        ("G-CAV", Place::Reserve),
        ("1CC-CAV", Place::Reserve),
    ]);
    let british_seen = |f: &Field| {
        f.battle
            .view(Some(Army::French))
            .blocks
            .iter()
            .filter(|b| {
                matches!(b, BlockView::Known { army: Army::AngloDutch, place: Some(p), .. }
                    if *p == at(Defender, Left))
            })
            .count()
    };
    assert_eq!(british_seen(&f), 0);
    // The French right engages the British left in the woods: both British blocks are seen.
    f.mv("II-INF1", at(Defender, Left));
    assert_eq!(british_seen(&f), 2);
    f.done();
    f.done();
    // Two hits: the first to AR-5DIV at 4, the one strongest, at once; the second between
    // equals at 3, the owner's pick.
    f.fire("II-INF1", z(Defender, Left));
    f.act(BattleAction::Hits(2));
    assert_eq!((f.strength("AR-5DIV"), f.strength("AR-6DIV")), (3, 3));
    assert_eq!(f.battle.step(), Step::Losses);
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::AngloDutch));
    assert!(!f.battle.hit_among_hidden());
    let (a5, a6) = (f.id("AR-5DIV"), f.id("AR-6DIV"));
    assert_eq!(
        f.battle.legal_actions(),
        [BattleAction::TakeHit(a5), BattleAction::TakeHit(a6)]
    );
    f.act(BattleAction::TakeHit(a6));
    assert_eq!((f.strength("AR-5DIV"), f.strength("AR-6DIV")), (3, 2));
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::French));
}

/// 6.4: "Uitzondering: lange afstandsartillerie kan geen eenheden elimineren." (Long-range
/// artillery cannot eliminate units.) 6.3.3: long range reaches "de vijand die zich in de
/// tegenoverliggende sector bevindt op voorwaarde dat er zich in die sector geen bevriende
/// eenheden bevinden" (the enemy in the facing sector, if no friendly units are there).
#[test]
fn long_range_artillery_fires_across_but_cannot_eliminate() {
    let mut f = Field::waterloo(
        &[("G-INF", 4), ("I-INF1", 4), ("II-INF1", 4), ("II-ART", 3)],
        &[
            ("AR-5DIV", 2),
            ("AR-6DIV", 1),
            ("AI-1DIV", 4),
            ("AII-2DIV", 4),
        ],
    );
    f.terrain([(Farm, Left), (Farm, Centre), (Farm, Right)]);
    f.deploy(&[
        ("AR-5DIV", at(Defender, Left)),
        ("AR-6DIV", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Right)),
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
        ("II-ART", at(Attacker, Right)),
    ]);
    // The French right faces the British left: long range, F1, 3 dice.
    f.fire("II-ART", z(Defender, Left));
    assert_eq!(f.volley(), (3, 1));
    f.act(BattleAction::Hits(3));
    // First hit: AR-5DIV 2 -> 1; then every unit is at 1: the rest are lost.
    assert_eq!((f.strength("AR-5DIV"), f.strength("AR-6DIV")), (1, 1));
    f.done();
    f.done();
    // Now nothing there can lose a step: the long-range fire is not offered.
    let art = f.id("II-ART");
    assert_eq!(
        f.battle.check(&BattleAction::Fire {
            block: art,
            at: z(Defender, Left),
            target: Target::Line
        }),
        Err(BattleIllegal::CannotFire)
    );
    // With a friendly unit in the facing sector, no long range either.
    f.mv("II-INF1", at(Defender, Left));
    assert!(!f
        .battle
        .legal_actions()
        .iter()
        .any(|a| matches!(a, BattleAction::Fire { block, .. } if *block == art)));
}

/// 6.3.1: "Elke (slagveld) beurt start met een controle van het moreel van elke eenheid die in
/// gevechten verwikkeld is en slechts een sterkte heeft van 1. [...] 1-3: de eenheid verliest
/// het moreel. De eenheid moet zich losmaken van het gevecht [...] 4-6: de eenheid heeft nog
/// voldoende moreel" (Each battle turn starts with a morale die for each unit in combat at
/// strength 1: 1-3 it must disengage, 4-6 it holds.) 8.2: "Alle leiders die zich bekend maken
/// mogen +1 toevoegen aan de worp die het moreel controleert [...] voor alle eenheden die zich
/// in dezelfde zone bevinden" (A leader adds +1 for the units in his zone.)
#[test]
fn morale_checks_strength_one_units_in_combat_with_the_leaders_bonus() {
    let mut f = standard_field();
    // French right engages the British left, where Wellington stands.
    f.mv("II-INF1", at(Defender, Left));
    f.done();
    f.fire("AR-5DIV", z(Defender, Left));
    f.act(BattleAction::Hits(3));
    assert_eq!(f.strength("II-INF1"), 1);
    f.done();
    // French turn: II-INF1 checks its morale (no French leader): a 3 fails.
    assert_eq!(f.battle.actor(), BattleActor::Chance);
    assert_eq!(f.battle.chance_outcomes().len(), 6);
    let events = f.act(BattleAction::Die(3));
    let id = f.id("II-INF1");
    assert!(events.contains(&BattleEvent::Morale {
        block: id,
        total: 3,
        held: false
    }));
    // It must step back to a place without enemies: its own right.
    assert_eq!(
        f.battle.legal_actions(),
        vec![BattleAction::Move {
            block: id,
            to: at(Attacker, Right)
        }]
    );
    f.mv("II-INF1", at(Attacker, Right));
    // ... and does nothing else this turn.
    assert!(!f
        .battle
        .legal_actions()
        .iter()
        .any(|a| matches!(a, BattleAction::Fire { block, .. } | BattleAction::Move { block, .. } if *block == id)));
    // British units at 1 beside Wellington hold on a 3 (3 + 1).
    f.mv("G-INF", at(Defender, Right));
    f.done();
    f.fire("AII-2DIV", z(Defender, Right));
    f.act(BattleAction::Hits(0));
    f.done();
    f.fire("G-INF", z(Defender, Right));
    f.act(BattleAction::Hits(3));
    assert_eq!(f.strength("AII-2DIV"), 1);
    f.done();
    // British turn: AII-2DIV has no leader with it: a 3 fails.
    let events = f.act(BattleAction::Die(4));
    let a2 = f.id("AII-2DIV");
    assert!(events.contains(&BattleEvent::Morale {
        block: a2,
        total: 4,
        held: true
    }));
}

/// 8.2: the leader's +1 works for the units in his zone: "mogen +1 toevoegen aan de worp die
/// het moreel controleert en dit voor alle eenheden die zich in dezelfde zone bevinden"; and
/// 6.3.1: "Eenheden in vierkant formatie en artillerie te voet worden geëlimineerd." (Squares
/// and foot artillery that lose their morale are eliminated.)
#[test]
fn a_leader_lifts_morale_and_foot_artillery_that_breaks_is_lost() {
    let mut f = Field::waterloo(
        &[("G-INF", 4), ("I-INF1", 4), ("II-INF1", 4), ("II-ART", 1)],
        &[
            ("WELLINGTON", 1),
            ("AR-5DIV", 1),
            ("AI-1DIV", 4),
            ("AII-2DIV", 4),
        ],
    );
    f.plain();
    f.deploy(&[
        ("WELLINGTON", at(Defender, Left)),
        ("AR-5DIV", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Right)),
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
        ("II-ART", at(Attacker, Right)),
    ]);
    // Foot artillery cannot engage (6.3.2): "Artillerie te voet kan niet het gevecht aangaan."
    let art = f.id("II-ART");
    assert_eq!(
        f.battle.check(&BattleAction::Move {
            block: art,
            to: at(Defender, Left)
        }),
        Err(BattleIllegal::CannotGoThere)
    );
    f.done();
    // The British left, Wellington with it, engages the French right.
    f.mv("AR-5DIV", at(Attacker, Right));
    f.mv("WELLINGTON", at(Attacker, Right));
    f.done();
    // French turn: the foot artillery at 1 in combat breaks on a 2 and is eliminated.
    let events = f.act(BattleAction::Die(2));
    assert!(events.contains(&BattleEvent::Eliminated {
        block: art,
        side: Attacker
    }));
    // (The French fire, or a second idle turn would be a stalemate, 6.7.)
    f.fire("II-INF1", z(Attacker, Right));
    f.act(BattleAction::Hits(0));
    f.done();
    // British turn: AR-5DIV (1) beside Wellington holds on a 3 + 1; Wellington, not alone, is
    // not checked.
    let a5 = f.id("AR-5DIV");
    let events = f.act(BattleAction::Die(3));
    assert!(events.contains(&BattleEvent::Morale {
        block: a5,
        total: 4,
        held: true
    }));
    assert_eq!(f.battle.step(), Step::Fight);
}

/// 6.2.2: "Er moet steeds minstens 1 eenheid zijn op elk van de drie locaties. Gelijk welk
/// aantal eenheden mogen in reserve worden geplaatst." (At least one unit on each of the three
/// positions; any number in reserve.) 6.2.3: "Per locatie kunnen enkel eenheden opgesteld
/// worden die tot hetzelfde korps behoren. De eenheden van twee verschillende korpsen kunnen
/// opgesteld worden in een locatie waar er zich een leider bevindt." (One corps a position; two
/// where a leader stands.) The defender sets up first.
#[test]
fn deployment_fills_every_wing_and_keeps_corps_together() {
    let mut f = Field::waterloo(FRENCH, BRITISH);
    f.plain();
    assert_eq!(f.battle.step(), Step::Deployment);
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::AngloDutch));
    f.deploy(&[("AR-5DIV", at(Defender, Left))]);
    // I corps may not join the Reserve corps on the left without a leader there.
    let i1 = f.id("AI-1DIV");
    assert_eq!(
        f.battle.check(&BattleAction::Deploy {
            block: i1,
            to: at(Defender, Left)
        }),
        Err(BattleIllegal::CannotGoThere)
    );
    f.deploy(&[
        ("WELLINGTON", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Left)),
    ]);
    // Two blocks left, two empty wings: neither may go to the reserve.
    let a6 = f.id("AR-6DIV");
    assert_eq!(
        f.battle.check(&BattleAction::Deploy {
            block: a6,
            to: Place::Reserve
        }),
        Err(BattleIllegal::CannotGoThere)
    );
    // Nor on the other side's half.
    assert_eq!(
        f.battle.check(&BattleAction::Deploy {
            block: a6,
            to: at(Attacker, Left)
        }),
        Err(BattleIllegal::CannotGoThere)
    );
    f.deploy(&[
        ("AR-6DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Right)),
    ]);
    // Then the attacker.
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::French));
}

/// 6.2.1: "De aanvaller mag één (1) terreinblok trekken [...] De verdediger mag twee (2)
/// terreinblokken trekken en plaatst deze [...] op een van zijn drie locaties" (The attacker
/// draws one terrain block, the defender two, each placed on one of the drawer's own three
/// positions.) The draw is a chance action weighted by the blocks left in the pool.
#[test]
fn terrain_is_drawn_one_and_two_from_the_pool() {
    let mut f = Field::waterloo(FRENCH, BRITISH);
    assert_eq!(f.battle.step(), Step::Terrain);
    assert_eq!(
        f.battle.chance_outcomes(),
        vec![
            (BattleAction::DrawTerrain(Woods), 3),
            (BattleAction::DrawTerrain(Farm), 3),
            (BattleAction::DrawTerrain(Stream), 3),
            (BattleAction::DrawTerrain(Hill), 3)
        ]
    );
    f.act(BattleAction::DrawTerrain(Woods));
    // The defender does not see what the attacker drew; the attacker does.
    assert_eq!(f.battle.view(Some(Army::AngloDutch)).drawn, None);
    assert_eq!(f.battle.view(Some(Army::French)).drawn, Some(Woods));
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::French));
    f.act(BattleAction::PlaceTerrain(Left));
    f.act(BattleAction::DrawTerrain(Woods));
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::AngloDutch));
    f.act(BattleAction::PlaceTerrain(Right));
    // Two woods are out of the pool.
    assert_eq!(
        f.battle.chance_outcomes()[0],
        (BattleAction::DrawTerrain(Woods), 1)
    );
    f.act(BattleAction::DrawTerrain(Woods));
    // A wing holds one terrain block.
    assert_eq!(
        f.battle.check(&BattleAction::PlaceTerrain(Right)),
        Err(BattleIllegal::CannotGoThere)
    );
    f.act(BattleAction::PlaceTerrain(Centre));
    // The woods are gone from the pool.
    assert_eq!(f.battle.step(), Step::Deployment);
    assert_eq!(f.battle.view(None).terrain.len(), 3);
}

/// 6.1: "De verschillende veldslagen worden gelijktijdig uitgevochten" (the battles are fought
/// at the same time) and 6.2.1: "schudt je de terreinblokken" (the terrain blocks are shuffled
/// and drawn). Blocks lying on another battle board are not in the pool; when too few are left
/// the attacker draws first and the defender what remains, and with none the battle is set up
/// without terrain (ruling R24). Naming more blocks elsewhere than the map has is refused.
#[test]
fn terrain_on_other_battlefields_is_not_drawn() {
    let map = map();
    let oob = OrderOfBattle::standard(&map).expect("valid");
    let unit = |&(name, strength): &(&str, u8)| Unit {
        block: oob.find(name).expect("a block"),
        strength,
    };
    let setup = |elsewhere: Vec<TerrainKind>| BattleSetup {
        town: town(&map, "WAT"),
        attackers: FRENCH.iter().map(unit).collect(),
        defenders: BRITISH.iter().map(unit).collect(),
        approaches: vec![],
        options: BattleOptions::default(),
        terrain_elsewhere: elsewhere,
        one_allied_player: false,
    };
    let kinds = |list: &[(TerrainKind, usize)]| -> Vec<TerrainKind> {
        list.iter()
            .flat_map(|&(k, n)| std::iter::repeat_n(k, n))
            .collect()
    };
    // Two woods on another board: one left.
    let b = Battle::new(&oob, &map, setup(kinds(&[(Woods, 2)]))).expect("valid");
    assert_eq!(
        b.chance_outcomes(),
        vec![
            (BattleAction::DrawTerrain(Woods), 1),
            (BattleAction::DrawTerrain(Farm), 3),
            (BattleAction::DrawTerrain(Stream), 3),
            (BattleAction::DrawTerrain(Hill), 3)
        ]
    );
    // Eleven elsewhere: the attacker draws the last hill; the defender has none to draw.
    let most = kinds(&[(Woods, 3), (Farm, 3), (Stream, 3), (Hill, 2)]);
    let mut b = Battle::new(&oob, &map, setup(most)).expect("valid");
    assert_eq!(
        b.chance_outcomes(),
        vec![(BattleAction::DrawTerrain(Hill), 1)]
    );
    b.play(&BattleAction::DrawTerrain(Hill)).expect("drawn");
    assert_eq!(b.terrain_held(), [Hill]);
    b.play(&BattleAction::PlaceTerrain(Left)).expect("placed");
    assert_eq!(b.step(), Step::Deployment);
    assert_eq!(b.actor(), BattleActor::Army(Army::AngloDutch));
    assert_eq!(b.terrain_held(), [Hill]);
    // All twelve elsewhere: no terrain at all.
    let all = kinds(&[(Woods, 3), (Farm, 3), (Stream, 3), (Hill, 3)]);
    let b = Battle::new(&oob, &map, setup(all)).expect("valid");
    assert_eq!(b.step(), Step::Deployment);
    assert!(b.chance_outcomes().is_empty());
    assert!(b.terrain_held().is_empty());
    // A fourth woods does not exist.
    let problems = Battle::new(&oob, &map, setup(kinds(&[(Woods, 4)]))).expect_err("refused");
    assert_eq!(problems.0, [SetupProblem::TerrainElsewhere(Woods)]);
}

/// 6.2.1, woods: "Cavalerie vecht als F1 (geen schokeffect) in bossen en moet stoppen wanneer
/// die zich naar het terrein met het bos wil verplaatsen. Artillerie kan zich niet opstellen,
/// verplaatsen naar of vuren op een terrein met een bos. Eenheden op een terrein met een bos
/// die geen gevecht uitvoeren blijven verborgen" (Cavalry fights as F1 without shock in woods
/// and must stop on entering them; artillery cannot set up in, move into or fire at woods;
/// units in woods not fighting stay hidden.)
#[test]
fn woods_stop_cavalry_bar_artillery_and_hide_their_units() {
    let mut f = Field::waterloo(
        &[
            ("G-INF", 4),
            ("I-INF1", 4),
            ("II-INF1", 4),
            ("G-CAV", 3),
            ("II-ART", 3),
        ],
        BRITISH,
    );
    f.terrain([(Hill, Right), (Woods, Left), (Hill, Right)]);
    f.deploy(&[
        ("WELLINGTON", at(Defender, Left)),
        ("AR-5DIV", at(Defender, Left)),
        ("AR-6DIV", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Right)),
    ]);
    // The British left is woods: its blocks are hidden from the French.
    let view = f.battle.view(Some(Army::French));
    let hidden_left = view
        .blocks
        .iter()
        .filter(
            |b| matches!(b, BlockView::Hidden { place: Some(p), .. } if *p == at(Defender, Left)),
        )
        .count();
    assert_eq!(hidden_left, 3);
    f.deploy(&[
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
        ("II-ART", at(Attacker, Right)),
        ("G-CAV", Place::Reserve),
    ]);
    // After the reveal, the British left in woods stays hidden; the centre is shown.
    let view = f.battle.view(Some(Army::French));
    assert!(view.blocks.iter().any(|b| matches!(b,
        BlockView::Known { army: Army::AngloDutch, place: Some(p), .. } if *p == at(Defender, Centre))));
    assert!(!view.blocks.iter().any(|b| matches!(b,
        BlockView::Known { army: Army::AngloDutch, place: Some(p), .. } if *p == at(Defender, Left))));
    // The artillery facing the woods cannot fire at them.
    let art = f.id("II-ART");
    assert!(!f
        .battle
        .legal_actions()
        .iter()
        .any(|a| matches!(a, BattleAction::Fire { block, .. } if *block == art)));
    // The cavalry enters the woods and must stop there, and fights at F1 without shock.
    f.mv("G-CAV", at(Attacker, Right));
    f.mv("II-INF1", at(Defender, Left));
    f.done();
    f.done();
    f.mv("G-CAV", at(Defender, Left));
    let cav = f.id("G-CAV");
    assert!(!f
        .battle
        .legal_actions()
        .iter()
        .any(|a| matches!(a, BattleAction::Move { block, .. } if *block == cav)));
    f.done();
    f.done();
    // Now in combat, the British blocks in the woods are seen.
    assert!(f.battle.view(Some(Army::French)).blocks.iter().any(|b| matches!(b,
        BlockView::Known { army: Army::AngloDutch, place: Some(p), .. } if *p == at(Defender, Left))));
    f.fire("G-CAV", z(Defender, Left));
    assert_eq!(f.volley(), (3, 1));
}

/// The blocks the events name as revealed, with their strengths.
fn revealed_in(events: &[BattleEvent]) -> Vec<(BlockId, u8)> {
    events
        .iter()
        .filter_map(|e| match *e {
            BattleEvent::Revealed { block, strength } => Some((block, strength)),
            _ => None,
        })
        .collect()
}

/// Terrain with woods on the British left, then both sides set up but the last French block;
/// the British Reserve corps stands in the woods, the French cavalry in reserve.
fn all_but_the_last_deployed(options: BattleOptions) -> Field {
    let mut f = Field::with(
        DEFAULT_ORDER_OF_BATTLE,
        "WAT",
        FRENCH,
        BRITISH,
        &[("QB", Some(Attacker), true, &[])],
        options,
    );
    f.terrain([(Hill, Right), (Woods, Left), (Hill, Right)]);
    f.deploy(&[
        ("WELLINGTON", at(Defender, Left)),
        ("AR-5DIV", at(Defender, Left)),
        ("AR-6DIV", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Right)),
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
        ("G-CAV", Place::Reserve),
    ]);
    f
}

/// 6.2.4: "Vooraleer de slag begint maken beide spelers hun eenheden kenbaar (door ze plat te
/// leggen), behalve de eenheden die zich in bossen of in de reserve bevinden." (Before the
/// battle begins both players reveal their units by laying them flat, except those in woods
/// or in the reserve.) The last block set up begins the battle, and its events tell the table
/// which blocks to lay flat: each one on a wing outside the woods, none in woods or reserve.
#[test]
fn the_end_of_deployment_reveals_the_wing_blocks_outside_woods() {
    let mut f = all_but_the_last_deployed(BattleOptions::default());
    let block = f.id("1CC-CAV");
    let events = f.act(BattleAction::Deploy {
        block,
        to: Place::Reserve,
    });
    let mut revealed = revealed_in(&events);
    revealed.sort();
    let mut expected: Vec<(BlockId, u8)> = ["AI-1DIV", "AII-2DIV", "G-INF", "I-INF1", "II-INF1"]
        .iter()
        .map(|name| (f.id(name), 4))
        .collect();
    expected.sort();
    assert_eq!(revealed, expected);
    // What the events told is what the enemy now sees, no more.
    let british_known: Vec<BlockId> = f
        .battle
        .view(Some(Army::French))
        .blocks
        .iter()
        .filter_map(|b| match *b {
            BlockView::Known {
                block,
                army: Army::AngloDutch,
                ..
            } => Some(block),
            _ => None,
        })
        .collect();
    assert_eq!(british_known.len(), 2);
    assert!(british_known
        .iter()
        .all(|b| revealed.iter().any(|&(r, _)| r == *b)));
}

/// 6.2.4's option: "men kan ook alle eenheden pas zichtbaar maken van zodra ze vuren of in
/// gevechten verwikkeld zijn." (All units may instead be revealed only once they fire or are
/// in combat.) Under it the end of deployment lays nothing flat.
#[test]
fn under_the_reveal_on_contact_option_the_end_of_deployment_reveals_nothing() {
    let mut f = all_but_the_last_deployed(BattleOptions {
        reveal_on_contact: true,
        ..BattleOptions::default()
    });
    let block = f.id("1CC-CAV");
    let events = f.act(BattleAction::Deploy {
        block,
        to: Place::Reserve,
    });
    assert_eq!(revealed_in(&events), Vec::new());
}

/// 6.2.4: "Vooraleer de slag begint maken beide spelers hun eenheden kenbaar [...] behalve de
/// eenheden die zich in bossen of in de reserve bevinden. Blokken die zichtbaar zijn mogen
/// opnieuw verticaal geplaatst worden wanneer ze geplaatst worden in de reserve" (Before the
/// battle both sides reveal their units, except those in woods or the reserve; a revealed
/// block moved into the reserve is hidden again.)
#[test]
fn the_reserve_is_hidden_and_the_wings_revealed() {
    let mut f = standard_field();
    let view = f.battle.view(Some(Army::AngloDutch));
    // The French wings are known with type and strength; the two cavalry in reserve are not.
    let known = view
        .blocks
        .iter()
        .filter(|b| {
            matches!(
                b,
                BlockView::Known {
                    army: Army::French,
                    ..
                }
            )
        })
        .count();
    let hidden: Vec<_> = view
        .blocks
        .iter()
        .filter(|b| matches!(b, BlockView::Hidden { .. }))
        .collect();
    assert_eq!(known, 3);
    assert_eq!(
        hidden,
        vec![
            &BlockView::Hidden {
                army: Army::French,
                side: Attacker,
                place: Some(Place::Reserve)
            };
            2
        ]
    );
    // The French player sees all his own.
    let own = f.battle.view(Some(Army::French));
    assert_eq!(
        own.blocks
            .iter()
            .filter(|b| matches!(
                b,
                BlockView::Known {
                    army: Army::French,
                    ..
                }
            ))
            .count(),
        5
    );
    // A revealed block that regroups into the reserve is hidden again.
    f.mv("G-INF", Place::Reserve);
    let view = f.battle.view(Some(Army::AngloDutch));
    assert_eq!(
        view.blocks
            .iter()
            .filter(|b| matches!(b, BlockView::Hidden { .. }))
            .count(),
        3
    );
    // The public sees no more than the British do of the French.
    assert!(f.battle.view(None).blocks.iter().all(|b| !matches!(
        b,
        BlockView::Known {
            place: Some(Place::Reserve),
            ..
        }
    )));
}

/// 6.3.4: "Als laatste stap in iedere (slagveld) beurt mag de speler het slagveld versterken
/// met bevriende eenheden die zich in naburige steden of gemeenten bevinden op de strategische
/// kaart en die daar niet betrokken zijn bij een (andere) veldslag." (As the last step of every
/// battle turn a player may reinforce with friendly units in neighbouring towns that are not
/// in another battle there.) And "Zegevierende eenheden kunnen via de normale 2/1 limieten ook
/// andere naastliggende slagvelden versterken zelfs al hadden deze eenheden zich enkel
/// gehergroepeerd." (Victorious units may reinforce other neighbouring battles too.)
///
/// What may reinforce is read from the map at each battle turn, not fixed when the battle
/// began: held between its turns, the battle is resumed with its neighbouring towns as they
/// now stand, and a block that arrived there (a nearby battle's winner) may join. Before,
/// reinforcements were fixed at the start, so this test failed on the old code (there was no
/// way to bring a battle under way up to date).
#[test]
fn reinforcements_are_read_from_the_map_each_battle_turn() {
    let mut f = standard_field();
    f.battle.hold_between_rounds();
    // Not between battle turns yet: the battle cannot be resumed.
    assert!(f.battle.resume(&f.oob, &[]).is_err());
    f.mv("II-INF1", at(Defender, Left));
    f.done();
    // The British turn: Nijvel is empty and Waver holds nobody who may come.
    f.done();
    assert!(f.battle.is_between_rounds());
    assert_eq!(f.battle.actor(), BattleActor::Over);
    assert_eq!(f.battle.result(), None);

    // Meanwhile a battle at Nijvel was won by the French, and Waver's was won by the British.
    let near = |f: &Field, code: &str, held_by, units: &[(&str, u8)]| Approach {
        town: f.town(code),
        held_by,
        attacked_from: code == "QB",
        battle: false,
        reinforcements: units
            .iter()
            .map(|&(name, strength)| Unit {
                block: f.id(name),
                strength,
            })
            .collect(),
    };
    // A block already in the battle cannot be listed again, and a town the battle did not
    // begin with cannot be added: refused, the battle unchanged.
    for wrong in [
        near(&f, "NIV", Some(Attacker), &[("G-INF", 4)]),
        near(&f, "LIG", Some(Attacker), &[("III-INF1", 3)]),
        near(&f, "NIV", Some(Attacker), &[("AI-3DIV", 4)]),
    ] {
        assert!(f.battle.resume(&f.oob, &[wrong]).is_err());
    }
    assert!(f.battle.is_between_rounds());
    let approaches = [
        near(&f, "QB", Some(Attacker), &[]),
        near(&f, "BRU", Some(Defender), &[]),
        near(&f, "NIV", Some(Attacker), &[("III-INF1", 3)]),
        near(&f, "WAV", Some(Defender), &[("AI-3DIV", 4), ("AI-2NL", 3)]),
    ];
    let events = f
        .battle
        .resume(&f.oob, &approaches)
        .expect("the towns are the battle's own");
    assert!(events.contains(&BattleEvent::TurnBegan {
        side: Attacker,
        turn: 2
    }));
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::French));
    f.done();
    // The French reinforce from Nijvel.
    assert_eq!(f.battle.step(), Step::Reinforcement);
    let inf = f.id("III-INF1");
    let events = f.act(BattleAction::Reinforce(inf));
    assert!(events.contains(&BattleEvent::Reinforced {
        block: inf,
        side: Attacker,
        from: f.town("NIV"),
    }));
    // The British reinforce from Waver: one, its road being narrow.
    f.done();
    assert_eq!(f.battle.step(), Step::Reinforcement);
    let div = f.id("AI-3DIV");
    f.act(BattleAction::Reinforce(div));
    assert!(f.battle.is_between_rounds());
    // Next turn the map says Waver's other block has gone elsewhere: it is no longer offered.
    let approaches = [near(&f, "WAV", Some(Defender), &[])];
    f.battle
        .resume(&f.oob, &approaches)
        .expect("the towns are the battle's own");
    f.done();
    f.done();
    assert!(
        f.battle.is_between_rounds(),
        "no British reinforcement is left to offer"
    );
    assert_eq!(f.battle.view_of(&Army::ALL).waiting, []);
}

/// `Battle::resume` never makes a block twice nor takes a town twice: a block waiting at
/// Waver, listed next at Nijvel with Waver left out (so Waver's waiting blocks stay), would
/// wait in both towns; and a town given twice is refused as `Battle::new` refuses it. Both
/// were accepted on the old code, which only checked blocks already on the field.
#[test]
fn resuming_refuses_a_block_twice_and_a_town_twice() {
    let mut f = standard_field();
    f.battle.hold_between_rounds();
    let near = |f: &Field, code: &str, held_by, units: &[(&str, u8)]| Approach {
        town: f.town(code),
        held_by,
        attacked_from: code == "QB",
        battle: false,
        reinforcements: units
            .iter()
            .map(|&(name, strength)| Unit {
                block: f.id(name),
                strength,
            })
            .collect(),
    };
    let to_between = |f: &mut Field| {
        for _ in 0..6 {
            if f.battle.is_between_rounds() {
                return;
            }
            f.done();
        }
        panic!("the battle turns end");
    };
    f.mv("II-INF1", at(Defender, Left));
    to_between(&mut f);
    f.battle
        .resume(&f.oob, &[near(&f, "WAV", Some(Defender), &[("AI-2NL", 3)])])
        .expect("the towns are the battle's own");
    to_between(&mut f);
    let nl = f.id("AI-2NL");
    assert_eq!(f.battle.view_of(&Army::ALL).waiting.len(), 1);
    let twice = f
        .battle
        .resume(&f.oob, &[near(&f, "NIV", Some(Defender), &[("AI-2NL", 3)])])
        .expect_err("AI-2NL still waits at Waver");
    assert_eq!(twice.0, [SetupProblem::Duplicate(nl)]);
    let wav = f.town("WAV");
    let town_twice = f
        .battle
        .resume(
            &f.oob,
            &[
                near(&f, "WAV", Some(Defender), &[]),
                near(&f, "WAV", Some(Defender), &[]),
            ],
        )
        .expect_err("Waver is given twice");
    assert_eq!(town_twice.0, [SetupProblem::ApproachTwice(wav)]);
    // Refused, the battle is unchanged; listed with Waver given too, AI-2NL simply moves.
    assert!(f.battle.is_between_rounds());
    f.battle
        .resume(
            &f.oob,
            &[
                near(&f, "WAV", Some(Defender), &[]),
                near(&f, "NIV", Some(Defender), &[("AI-2NL", 3)]),
            ],
        )
        .expect("Waver's waiting blocks are replaced");
    assert_eq!(f.battle.view_of(&Army::ALL).waiting.len(), 1);
}

/// 6.3.4: "Versterkingen worden in de reserve geplaatst [...] Per (slagveld) beurt mag één (1)
/// eenheid het slagveld versterken voor elke smalle weg. Voor elke brede weg zijn dit er twee
/// (2)." (Reinforcements go to the reserve: one per narrow road, two per broad road, each
/// battle turn.)
#[test]
fn reinforcements_come_two_by_a_broad_road_and_one_by_a_narrow_one() {
    let mut f = Field::with(
        DEFAULT_ORDER_OF_BATTLE,
        "WAT",
        FRENCH,
        BRITISH,
        &[
            ("QB", Some(Attacker), true, &[]),
            (
                "BRU",
                Some(Defender),
                false,
                &[("AR-BK", 3), ("AR-NAS", 2), ("AR-ART", 3)],
            ),
            (
                "WAV",
                Some(Defender),
                false,
                &[("AI-3DIV", 4), ("AI-2NL", 3)],
            ),
        ],
        BattleOptions::default(),
    );
    f.plain();
    f.deploy(&STANDARD_DEPLOYMENT);
    // The French engage (an idle attacker would soon be stalemated, 6.7).
    f.mv("II-INF1", at(Defender, Left));
    f.done();
    // British turn: fight, then reinforce.
    f.done();
    assert_eq!(f.battle.step(), Step::Reinforcement);
    for name in ["AR-BK", "AR-NAS", "AI-3DIV"] {
        let b = f.id(name);
        f.act(BattleAction::Reinforce(b));
    }
    // Brussel's broad road has given 2, Waver's narrow road 1: nothing more can come this
    // turn, so the turn passes to the French.
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::French));
    let view = f.battle.view(Some(Army::AngloDutch));
    let bk = f.id("AR-BK");
    assert!(view.blocks.iter().any(|b| matches!(b,
        BlockView::Known { block, place: Some(Place::Reserve), .. } if *block == bk)));
    assert_eq!(view.waiting.len(), 2);
    // The French see none of them: hidden in the reserve.
    assert!(!f
        .battle
        .view(Some(Army::French))
        .blocks
        .iter()
        .any(|b| matches!(b,
        BlockView::Known { block, .. } if *block == bk)));
    f.fire("II-INF1", z(Defender, Left));
    f.act(BattleAction::Hits(0));
    f.done();
    // "usable next turn": in the British turn after it arrived, Brussel's AR-BK leaves the
    // reserve for the centre.
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::AngloDutch));
    let to_centre = BattleAction::Move {
        block: bk,
        to: at(Defender, Centre),
    };
    assert_eq!(f.battle.check(&to_centre), Ok(()));
    f.act(to_centre);
    // Then the rest may come.
    f.done();
    assert_eq!(f.battle.step(), Step::Reinforcement);
    let art = f.id("AR-ART");
    f.act(BattleAction::Reinforce(art));
}

/// 7: "Eenheden die zich niet verplaatsen of niet vuren tijdens een (veldslag) beurt kunnen
/// zich terugtrekken" (Units that neither move nor fire may retreat.) 7.1: "De aanvaller kan
/// zich enkel terugtrekken naar de locatie(s) van waaruit hij de aanval was begonnen [...] De
/// verdediger kan steeds terugtrekken naar alle locaties die niet in handen zijn van de
/// vijand." 7.2: "Per (slagveld) beurt kan een speler twee (2) eenheden terugtrekken via een
/// brede weg of één (1) eenheid via een smalle weg." 7.3: retreated units are disordered.
#[test]
fn retreats_follow_their_places_and_road_limits() {
    let mut f = standard_field();
    let (qb, bru, niv, wav) = (f.town("QB"), f.town("BRU"), f.town("NIV"), f.town("WAV"));
    let cav = f.id("G-CAV");
    // The attacker only to Quatre Bras, whence it came.
    let towns: Vec<TownId> = f
        .battle
        .legal_actions()
        .iter()
        .filter_map(|a| match *a {
            BattleAction::Retreat { block, to } if block == cav => Some(to),
            _ => None,
        })
        .collect();
    assert_eq!(towns, vec![qb]);
    f.act(BattleAction::Retreat { block: cav, to: qb });
    let c1 = f.id("1CC-CAV");
    f.act(BattleAction::Retreat { block: c1, to: qb });
    // The broad road has taken two this turn.
    let g = f.id("G-INF");
    assert_eq!(
        f.battle.check(&BattleAction::Retreat { block: g, to: qb }),
        Err(BattleIllegal::CannotRetreatThere)
    );
    f.done();
    // The defender: to any town the enemy does not hold (Brussel, Nijvel, Waver; not QB).
    let a2 = f.id("AII-2DIV");
    let towns: Vec<TownId> = f
        .battle
        .legal_actions()
        .iter()
        .filter_map(|a| match *a {
            BattleAction::Retreat { block, to } if block == a2 => Some(to),
            _ => None,
        })
        .collect();
    assert_eq!(towns, vec![bru, niv, wav]);
    // Waver's narrow road takes one a turn.
    f.act(BattleAction::Retreat { block: a2, to: wav });
    let a1 = f.id("AI-1DIV");
    assert_eq!(
        f.battle
            .check(&BattleAction::Retreat { block: a1, to: wav }),
        Err(BattleIllegal::CannotRetreatThere)
    );
    // A unit that moved may not retreat.
    f.mv("AI-1DIV", Place::Reserve);
    assert_eq!(
        f.battle
            .check(&BattleAction::Retreat { block: a1, to: bru }),
        Err(BattleIllegal::CannotRetreatThere)
    );
}

/// 7.4: "Een vlucht is een gedwongen terugtocht die onmiddellijk plaatsvindt van zodra er
/// minstens één (1) vijandelijke eenheid zich alleen in een van de zones op het slagveld bevindt
/// die aan de andere speler toebehoort." 7.4.1: "Alle eenheden (inclusief reserve eenheden)
/// zijn onderhevig aan verliezen [...] Sterkte -1 voor infanterie en artillerie te paard,
/// Sterkte -2 voor artillerie te voet, Sterkte -1 voor cavalerie maar enkel als die in gevecht
/// waren met vijandelijke cavalerie [...] leiders zijn niet onderhevig aan verliezen" and 7.4:
/// "Eenheden die niet kunnen teruggetrokken worden moeten geëlimineerd worden (naar keuze van
/// de speler die eigenaar is van de vluchtende eenheden)." (A rout happens at once when an enemy
/// unit stands alone in one of your zones; every unit, reserve included, loses strength by type;
/// road limits apply; units that cannot get away are eliminated, the owner choosing which.)
#[test]
fn a_rout_costs_strength_by_type_and_the_roads_decide_who_gets_away() {
    let mut f = Field::with(
        DEFAULT_ORDER_OF_BATTLE,
        "WAT",
        &[("G-INF", 4), ("I-INF1", 4), ("II-INF1", 4), ("G-CAV", 3)],
        &[
            ("WELLINGTON", 1),
            ("AR-5DIV", 1),
            ("AR-ART", 3),
            ("AC-LC", 2),
            ("AI-1DIV", 4),
            ("AII-2DIV", 4),
        ],
        &[
            ("QB", Some(Attacker), true, &[]),
            ("WAV", Some(Defender), false, &[]),
            ("BRU", Some(Defender), false, &[]),
        ],
        BattleOptions::default(),
    );
    f.plain();
    f.deploy(&[
        ("AR-5DIV", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Right)),
        ("WELLINGTON", Place::Reserve),
        ("AR-ART", Place::Reserve),
        ("AC-LC", Place::Reserve),
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
        ("G-CAV", Place::Reserve),
    ]);
    // The French right engages the British left held by one unit at strength 1 ...
    f.mv("II-INF1", at(Defender, Left));
    f.done();
    // ... which holds its morale and waits ...
    f.act(BattleAction::Die(6));
    f.done();
    // ... and falls to the French fire.
    f.fire("II-INF1", z(Defender, Left));
    let a5 = f.id("AR-5DIV");
    let events = f.act(BattleAction::Hits(1));
    assert!(events.contains(&BattleEvent::Eliminated {
        block: a5,
        side: Defender
    }));
    // II-INF1 stands alone in a British zone: the British rout at once.
    assert!(events.contains(&BattleEvent::Rout(Defender)));
    // Losses: infantry -1, foot artillery -2, cavalry not engaged with cavalry 0, leader 0.
    assert_eq!(f.strength("AI-1DIV"), 3);
    assert_eq!(f.strength("AII-2DIV"), 3);
    assert_eq!(f.strength("AR-ART"), 1);
    assert_eq!(f.strength("AC-LC"), 2);
    assert_eq!(f.strength("WELLINGTON"), 1);
    // Brussel (broad) takes 2, Waver (narrow) 1: five units, three get away; the owner picks.
    assert_eq!(f.battle.step(), Step::Rout);
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::AngloDutch));
    let (bru, wav) = (f.town("BRU"), f.town("WAV"));
    for (name, to) in [("WELLINGTON", bru), ("AI-1DIV", bru), ("AC-LC", wav)] {
        let block = f.id(name);
        f.act(BattleAction::Retreat { block, to });
    }
    assert_eq!(f.battle.actor(), BattleActor::Over);
    let result = f.battle.result().expect("over");
    assert_eq!(
        result.ending,
        Ending::Won {
            winner: Attacker,
            how: Defeat::Routed
        }
    );
    assert_eq!(f.outcome("WELLINGTON"), (Fate::Retreated(bru), 1));
    assert_eq!(f.outcome("AC-LC"), (Fate::Retreated(wav), 2));
    assert_eq!(f.outcome("AII-2DIV"), (Fate::Eliminated, 0));
    assert_eq!(f.outcome("AR-ART"), (Fate::Eliminated, 0));
    assert_eq!(f.outcome("G-CAV"), (Fate::Field, 3));
}

/// 6.6: "Indien een van de spelers minder dan drie (3) eenheden heeft in een locatie dan volgt
/// er geen veldslag maar een schermutseling. [...] Per ronde van schermutseling bepalen de
/// spelers welke eenheden zij onthullen (van 1 t.e.m. 4). Verdedigende eenheden vuren het eerst
/// en daarna de aanvallende eenheden. Eenheden die niet werden onthuld kunnen niet vuren maar
/// kunnen ook niet getroffen worden. [...] tijdens schermutselingen vuren cavalerie, artillerie
/// te paard en leiders met F2 terwijl infanterie en artillerie te voet vuren met F1. Na de
/// ronde schermutselingen moet de speler met het kleinst aantal eenheden (inclusief de reserve
/// eenheden) zich terugtrekken. Indien het aantal eenheden gelijk is moet de aanvaller zich
/// terugtrekken." (Fewer than 3 units on a side: a skirmish. Each side shows 1 to 4 units; the
/// defender's fire first; unshown units neither fire nor are hit; cavalry, horse artillery and
/// leaders fire F2, infantry and foot artillery F1; the side with fewer units retreats, the
/// attacker on a tie.)
#[test]
fn a_skirmish_is_one_round_and_the_smaller_side_retreats() {
    let mut f = Field::waterloo(
        &[("G-CAV", 3), ("G-INF", 4)],
        &[("AR-5DIV", 4), ("AC-HC", 4), ("AR-6DIV", 3)],
    );
    assert!(f.battle.is_skirmish());
    assert_eq!(f.battle.step(), Step::SkirmishReveal);
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::AngloDutch));
    // At least one must be shown.
    assert_eq!(
        f.battle.check(&BattleAction::Done),
        Err(BattleIllegal::NotFinished)
    );
    let (a5, hc) = (f.id("AR-5DIV"), f.id("AC-HC"));
    f.act(BattleAction::Reveal(a5));
    f.act(BattleAction::Reveal(hc));
    f.done();
    // The French do not see the British choice before making theirs.
    assert!(!f
        .battle
        .view(Some(Army::French))
        .blocks
        .iter()
        .any(|b| matches!(
            b,
            BlockView::Known {
                army: Army::AngloDutch,
                ..
            }
        )));
    let cav = f.id("G-CAV");
    f.act(BattleAction::Reveal(cav));
    f.done();
    // The defender fires first: infantry F1, cavalry F2.
    assert_eq!(f.volley(), (4, 1));
    f.act(BattleAction::Hits(1));
    assert_eq!(f.strength("G-CAV"), 2);
    assert_eq!(f.volley(), (4, 2));
    f.act(BattleAction::Hits(0));
    // Then the attacker's cavalry: F2, at its strength now.
    assert_eq!(f.volley(), (2, 2));
    f.act(BattleAction::Hits(2));
    // Both British 4s: the British pick.
    f.act(BattleAction::TakeHit(hc));
    assert_eq!(f.strength("AR-5DIV"), 3);
    assert_eq!(f.strength("AC-HC"), 3);
    // The French have fewer units: they retreat, to Quatre Bras.
    let qb = f.town("QB");
    assert_eq!(f.battle.step(), Step::Rout);
    f.act(BattleAction::Retreat { block: cav, to: qb });
    let g = f.id("G-INF");
    f.act(BattleAction::Retreat { block: g, to: qb });
    let result = f.battle.result().expect("over");
    assert_eq!(
        result.ending,
        Ending::Won {
            winner: Defender,
            how: Defeat::Skirmish
        }
    );
    assert_eq!(f.outcome("G-INF"), (Fate::Retreated(qb), 4));
}

/// 6.6: "Per ronde van schermutseling bepalen de spelers welke eenheden zij onthullen (van 1
/// t.e.m. 4)." (Each round of a skirmish the players decide which units they show, 1 to 4.)
/// With two players ("de andere speler neemt de leiding over de geallieerde (Engels-Nederlandse
/// en Pruisische) legers", Inleiding) one player commands both Allied armies: he shows 1 to 4
/// blocks in all, from either army, not 1 to 4 of each.
#[test]
fn one_allied_player_shows_one_to_four_blocks_in_all_in_a_skirmish() {
    let skirmish = || {
        let map = map();
        let oob = OrderOfBattle::standard(&map).expect("valid");
        let unit = |&(name, strength): &(&str, u8)| Unit {
            block: oob.find(name).unwrap_or_else(|| panic!("no block {name}")),
            strength,
        };
        let setup = BattleSetup {
            town: town(&map, "WAT"),
            attackers: [("G-CAV", 3), ("G-INF", 4)].iter().map(unit).collect(),
            defenders: [
                ("AR-5DIV", 4),
                ("AR-6DIV", 3),
                ("AI-1DIV", 4),
                ("PI-INF1", 4),
                ("PI-INF2", 4),
                ("PI-CAV", 3),
            ]
            .iter()
            .map(unit)
            .collect(),
            approaches: vec![Approach {
                town: town(&map, "QB"),
                held_by: Some(Attacker),
                attacked_from: true,
                battle: false,
                reinforcements: vec![],
            }],
            options: BattleOptions::default(),
            terrain_elsewhere: Vec::new(),
            one_allied_player: true,
        };
        let battle = Battle::new(&oob, &map, setup).expect("the set-up is valid");
        Field { map, oob, battle }
    };
    // Three Anglo-Dutch blocks shown leave the Allied player one Prussian block to show.
    let mut f = skirmish();
    assert!(f.battle.is_skirmish());
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::AngloDutch));
    for name in ["AR-5DIV", "AR-6DIV", "AI-1DIV"] {
        let block = f.id(name);
        f.act(BattleAction::Reveal(block));
    }
    f.done();
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::Prussian));
    // Already three shown: the Prussian blocks may stay hidden.
    assert_eq!(f.battle.check(&BattleAction::Done), Ok(()));
    let (p1, p2) = (f.id("PI-INF1"), f.id("PI-INF2"));
    f.act(BattleAction::Reveal(p1));
    assert!(f.battle.check(&BattleAction::Reveal(p2)).is_err());
    f.done();
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::French));
    // No Anglo-Dutch block shown: the Allied player shows his one to four among the Prussians.
    let mut f = skirmish();
    assert_eq!(f.battle.check(&BattleAction::Done), Ok(()));
    f.done();
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::Prussian));
    assert_eq!(
        f.battle.check(&BattleAction::Done),
        Err(BattleIllegal::NotFinished)
    );
    let p1 = f.id("PI-INF1");
    f.act(BattleAction::Reveal(p1));
    f.done();
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::French));
}

/// 6.6: "Indien het aantal eenheden gelijk is moet de aanvaller zich terugtrekken." (On equal
/// numbers the attacker retreats.)
#[test]
fn a_skirmish_between_equals_sends_the_attacker_back() {
    let mut f = Field::waterloo(&[("G-CAV", 3)], &[("AR-NAS", 1)]);
    let (cav, nas) = (f.id("G-CAV"), f.id("AR-NAS"));
    f.act(BattleAction::Reveal(nas));
    f.done();
    f.act(BattleAction::Reveal(cav));
    f.done();
    f.act(BattleAction::Hits(0));
    f.act(BattleAction::Hits(0));
    assert_eq!(f.battle.step(), Step::Rout);
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::French));
}

/// 6.7: "Een veldslag wordt een impasse wanneer de aanvaller weigert te vuren, aan te vallen of
/// zich terug te trekken gedurende twee van zijn opeenvolgende beurten nadat alle versterkingen
/// werden toegevoegd. In dat geval moet [...] de aanvaller onmiddellijk al zijn eenheden
/// terugtrekken." (If the attacker neither fires, attacks nor retreats in two turns in a row
/// once all reinforcements are in, the battle is a stalemate and the attacker withdraws all.)
#[test]
fn an_idle_attacker_ends_in_stalemate() {
    let mut f = Field::with(
        DEFAULT_ORDER_OF_BATTLE,
        "WAT",
        FRENCH,
        BRITISH,
        &[("QB", Some(Attacker), true, &[("I-INF2", 3)])],
        BattleOptions::default(),
    );
    f.plain();
    f.deploy(&STANDARD_DEPLOYMENT);
    // Turn 1: idle, but a reinforcement is still waiting, so it does not count.
    f.done();
    assert_eq!(f.battle.step(), Step::Reinforcement);
    f.done();
    f.done();
    // Turn 2: idle; the reinforcement comes in at its end, so this turn does not count.
    f.done();
    let i2 = f.id("I-INF2");
    f.act(BattleAction::Reinforce(i2));
    // Nothing more can come: the French turn ends by itself; the British one passes.
    f.done();
    // Turn 3: idle, the first with all reinforcements in.
    assert_eq!(f.battle.turn(), 3);
    f.done();
    f.done();
    assert_eq!(f.battle.step(), Step::Fight);
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::French));
    // Turn 4: idle again: stalemate, the attacker withdraws everything at once, without the
    // road limits of a rout (ruling R10), to Quatre Bras whence it came.
    f.done();
    assert_eq!(f.battle.step(), Step::Rout);
    let qb = f.town("QB");
    for name in ["G-INF", "I-INF1", "II-INF1", "G-CAV", "1CC-CAV", "I-INF2"] {
        let block = f.id(name);
        f.act(BattleAction::Retreat { block, to: qb });
    }
    let result = f.battle.result().expect("stalemate");
    assert_eq!(result.ending, Ending::Stalemate);
    assert_eq!(result.winner(), None);
    assert_eq!(f.outcome("G-INF"), (Fate::Retreated(qb), 4));
    assert_eq!(f.outcome("I-INF2"), (Fate::Retreated(qb), 3));
    assert_eq!(f.outcome("AR-5DIV"), (Fate::Field, 4));
}

/// 7: "Eenheden die in gevechten verwikkeld zijn tijdens hun terugtrekking zijn onderhevig aan
/// dezelfde verliezen als bij vluchten (zie 7.4.1)." with 6.7: "In dat geval moet - onder
/// normale omstandigheden - de aanvaller onmiddellijk al zijn eenheden terugtrekken." (Units
/// in combat when they retreat suffer the rout losses; a stalemated attacker withdraws all his
/// units.) The withdrawal after a stalemate is a retreat: a block still in combat pays the loss
/// of its type (infantry 1), a block out of combat nothing.
#[test]
fn a_stalemated_attacker_in_combat_pays_the_rout_loss_as_it_withdraws() {
    let mut f = Field::with(
        DEFAULT_ORDER_OF_BATTLE,
        "WAT",
        FRENCH,
        BRITISH,
        &[("QB", Some(Attacker), true, &[])],
        BattleOptions::default(),
    );
    f.plain();
    f.deploy(&STANDARD_DEPLOYMENT);
    // Turn 1: the Guard engages the British right; the British let it be.
    f.mv("G-INF", at(Defender, Right));
    f.done();
    f.done();
    // Turns 2 and 3: the French stand idle, the Guard still in combat: a stalemate.
    f.done();
    f.done();
    assert_eq!(f.battle.step(), Step::Fight);
    f.done();
    assert_eq!(f.battle.step(), Step::Rout);
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::French));
    // The Guard, in combat, has paid its infantry's loss; the blocks out of combat nothing.
    assert_eq!(f.strength("G-INF"), 3);
    let qb = f.town("QB");
    for name in ["G-INF", "I-INF1", "II-INF1", "G-CAV", "1CC-CAV"] {
        let block = f.id(name);
        f.act(BattleAction::Retreat { block, to: qb });
    }
    let result = f.battle.result().expect("stalemate");
    assert_eq!(result.ending, Ending::Stalemate);
    assert_eq!(f.outcome("G-INF"), (Fate::Retreated(qb), 3));
    assert_eq!(f.outcome("I-INF1"), (Fate::Retreated(qb), 4));
    assert_eq!(f.outcome("G-CAV"), (Fate::Retreated(qb), 3));
}

/// 6.5: "Infanterie eenheden kunnen tijdens gevechten vierkant formaties aannemen (dit vergt 1
/// beurt) maar kunnen dit nooit doen terwijl ze zich in de drie vijandelijke zones van het
/// slagveld bevinden." 6.5.1: "Cavalerie die de vierkant formatie aanvalt verliest de +1 schok
/// bonus en vuren -1 (F2 = F1). [...] Infanterie die naar vierkant formaties vuurt krijgt een
/// +1 bonus (F2 = F3)." (Infantry may form square, taking a turn, never in the enemy's zones.
/// Cavalry firing at a square loses its shock and fires one lower; infantry fires one higher.)
#[test]
fn squares_blunt_cavalry_and_draw_infantry_fire() {
    let mut f = standard_field();
    f.done();
    // The British right forms square.
    let a2 = f.id("AII-2DIV");
    f.act(BattleAction::FormSquare(a2));
    f.done();
    // French cavalry and infantry attack the square on the British right (facing the French
    // left).
    f.mv("G-CAV", at(Attacker, Left));
    f.mv("G-CAV", at(Defender, Right));
    f.mv("G-INF", at(Defender, Right));
    f.done();
    f.done();
    // The French turn: cavalry fires 3 dice at F3 - 1 = F2, no shock.
    let cav = f.id("G-CAV");
    assert!(!f.battle.legal_actions().contains(&BattleAction::Fire {
        block: cav,
        at: z(Defender, Right),
        target: Target::Line
    }));
    f.act(BattleAction::Fire {
        block: cav,
        at: z(Defender, Right),
        target: Target::Square(a2),
    });
    assert_eq!(f.volley(), (3, 2));
    f.act(BattleAction::Hits(0));
    let g = f.id("G-INF");
    f.act(BattleAction::Fire {
        block: g,
        at: z(Defender, Right),
        target: Target::Square(a2),
    });
    assert_eq!(f.volley(), (4, 3));
    f.act(BattleAction::Hits(0));
    // A square may not form in the enemy's zones.
    let f2 = &f;
    assert!(!f2
        .battle
        .legal_actions()
        .iter()
        .any(|a| matches!(a, BattleAction::FormSquare(b) if *b == g)));
}

/// 6.3.2: "Eenheden mogen zich niet diagonaal over het slagveld verplaatsen. [...] Laterale
/// (zijwaartse) bewegingen zijn niet toegestaan. [...] Een eenheid kan zich nooit losmaken van
/// een gevecht en opnieuw een gevecht aangaan (of vice versa) in eenzelfde beurt." (No diagonal
/// or sideways moves; never disengage and engage again, or the reverse, in one turn.)
#[test]
fn no_sideways_steps_and_no_engaging_after_disengaging() {
    let mut f = standard_field();
    let g = f.id("G-INF");
    // The French left may not step sideways to the centre, nor diagonally to the British centre.
    for to in [
        at(Attacker, Centre),
        at(Defender, Centre),
        at(Defender, Left),
    ] {
        assert_eq!(
            f.battle.check(&BattleAction::Move { block: g, to }),
            Err(BattleIllegal::CannotGoThere)
        );
    }
    // Cavalry engages and may not disengage in the same turn.
    f.mv("G-CAV", at(Attacker, Left));
    f.mv("G-CAV", at(Defender, Right));
    f.done();
    f.done();
    // Next turn: it disengages back and may not engage again.
    f.mv("G-CAV", at(Attacker, Left));
    let cav = f.id("G-CAV");
    assert_eq!(
        f.battle.check(&BattleAction::Move {
            block: cav,
            to: at(Defender, Right)
        }),
        Err(BattleIllegal::CannotGoThere)
    );
    // Moving means no fire this turn (6.3.3).
    f.mv("G-INF", at(Defender, Right));
    assert!(!f
        .battle
        .legal_actions()
        .iter()
        .any(|a| matches!(a, BattleAction::Fire { block, .. } if *block == g)));
}

/// 3.6.4 / 6.3.3: "Artillerie te paard kan 1 positie verplaatsen en vuren [...] de eerste keer
/// dat ze vuren" with canister (F1 = F2) at short range, then normal F1. (Horse artillery may
/// move one position and fire; artillery in combat gets +1 the first time it fires.)
#[test]
fn horse_artillery_moves_and_fires_with_canister_once() {
    let mut f = Field::waterloo(
        &[("G-INF", 4), ("I-INF1", 4), ("II-INF1", 4), ("1CC-HA", 2)],
        BRITISH,
    );
    f.plain();
    f.deploy(&[
        ("WELLINGTON", at(Defender, Left)),
        ("AR-5DIV", at(Defender, Left)),
        ("AR-6DIV", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Right)),
        ("G-INF", at(Attacker, Left)),
        ("1CC-HA", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
        ("I-INF1", Place::Reserve),
    ]);
    f.mv("1CC-HA", at(Defender, Centre));
    f.fire("1CC-HA", z(Defender, Centre));
    assert_eq!(f.volley(), (2, 2));
    f.act(BattleAction::Hits(0));
    f.done();
    f.done();
    f.fire("1CC-HA", z(Defender, Centre));
    assert_eq!(f.volley(), (2, 1));
}

/// 6.2.1, farm: "één infanterie-eenheid krijgt extra vuurkracht (F2 wordt F3). [...] Cavalerie
/// kan een versterkte hoeve niet aanvallen wat betekent dat zij bij de eenheid in de hoeve geen
/// treffers kunnen maken." (One infantry unit in a farm fires one higher; cavalry cannot hit
/// it.)
#[test]
fn a_farm_strengthens_its_infantry_and_shields_it_from_cavalry() {
    let mut f = Field::waterloo(
        &[("G-INF", 4), ("I-INF1", 4), ("II-INF1", 4), ("G-CAV", 3)],
        &[("AR-5DIV", 4), ("AI-1DIV", 4), ("AII-2DIV", 4)],
    );
    f.terrain([(Hill, Left), (Farm, Right), (Hill, Left)]);
    f.deploy(&[
        ("AR-5DIV", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Right)),
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
        ("G-CAV", Place::Reserve),
    ]);
    // The cavalry charges the farm on the British right: it has nothing it can hit there.
    f.mv("G-CAV", at(Attacker, Left));
    f.mv("G-CAV", at(Defender, Right));
    f.done();
    // The farm's infantry fires F3.
    f.fire("AII-2DIV", z(Defender, Right));
    assert_eq!(f.volley(), (4, 3));
    f.act(BattleAction::Hits(0));
    f.done();
    let cav = f.id("G-CAV");
    assert!(!f
        .battle
        .legal_actions()
        .iter()
        .any(|a| matches!(a, BattleAction::Fire { block, .. } if *block == cav)));
}

/// A refusal never names a block: asking to move an enemy block says only that it is not
/// yours.
#[test]
fn refusals_never_name_a_hidden_block() {
    let f = standard_field();
    let enemy = f.id("AR-5DIV");
    let err = f
        .battle
        .check(&BattleAction::Move {
            block: enemy,
            to: Place::Reserve,
        })
        .expect_err("not the French player's block");
    assert_eq!(err, BattleIllegal::NotYourBlock);
    let text = err.to_string();
    assert!(!text.contains("AR-5DIV") && !text.contains('#'), "{text}");
}

/// Bad set-ups are refused with every problem at once.
#[test]
fn bad_set_ups_list_every_problem() {
    let map = map();
    let oob = OrderOfBattle::standard(&map).expect("valid");
    let g = oob.find("G-INF").expect("G-INF");
    let a = oob.find("AR-5DIV").expect("AR-5DIV");
    let setup = BattleSetup {
        town: town(&map, "WAT"),
        attackers: vec![
            Unit {
                block: g,
                strength: 9,
            },
            Unit {
                block: a,
                strength: 1,
            },
        ],
        defenders: vec![Unit {
            block: a,
            strength: 1,
        }],
        approaches: vec![Approach {
            town: town(&map, "GHE"),
            held_by: None,
            attacked_from: true,
            battle: false,
            reinforcements: vec![],
        }],
        options: BattleOptions::default(),
        terrain_elsewhere: Vec::new(),
        one_allied_player: false,
    };
    let problems = Battle::new(&oob, &map, setup).expect_err("refused");
    let text = problems.to_string();
    assert!(text.starts_with("4 problems"), "{text}");
    assert!(text.contains("strength 9"), "{text}");
    assert!(text.contains("given twice"), "{text}");
    assert!(text.contains("all French or all Allied"), "{text}");
    assert!(text.contains("not joined"), "{text}");
}

/// 6.5.2: "Leiders en artillerie kunnen beschutting zoeken in een vierkant formatie op
/// voorwaarde dat ze zich nog niet hebben verplaatst of het vuur hebben geopend in die beurt.
/// [...] Eenheden die beschut worden in de vierkant formatie zijn niet onderhevig aan controles
/// op het moreel. De eenheid die beschut zit kan zelf niet vuren maar kan wel rake schoten
/// incasseren indien zij de sterkste [...] is [...] Eliminatie van de eenheid die beschut wordt
/// door de vierkant formatie elimineert ook de eenheid die in vierkant formatie stond." (A
/// leader or artillery that has not moved or fired may shelter in a square, one per square; it
/// is not checked for morale, cannot fire, takes hits when strongest, and its elimination takes
/// the square with it.)
#[test]
fn a_square_shelters_one_leader_or_gun_and_falls_with_it() {
    let mut f = Field::waterloo(
        FRENCH,
        &[
            ("WELLINGTON", 1),
            ("AR-5DIV", 1),
            ("AR-ART", 2),
            ("AI-1DIV", 4),
            ("AII-2DIV", 4),
        ],
    );
    f.plain();
    f.deploy(&[
        ("WELLINGTON", at(Defender, Right)),
        ("AR-5DIV", at(Defender, Right)),
        ("AR-ART", at(Defender, Right)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Left)),
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
        ("G-CAV", Place::Reserve),
        ("1CC-CAV", Place::Reserve),
    ]);
    f.done();
    let (sq, art, w) = (f.id("AR-5DIV"), f.id("AR-ART"), f.id("WELLINGTON"));
    f.act(BattleAction::FormSquare(sq));
    f.act(BattleAction::Shelter {
        block: art,
        square: sq,
    });
    // One shelter a square: Wellington cannot join.
    assert!(!f
        .battle
        .legal_actions()
        .iter()
        .any(|a| matches!(a, BattleAction::Shelter { block, .. } if *block == w)));
    f.done();
    // The French infantry attacks the British right (it faces the French left).
    f.mv("G-INF", at(Defender, Right));
    f.done();
    // British turn: the square at 1 checks morale with +1 (square) +1 (Wellington); the
    // sheltered gun is not checked. Wellington is not alone: not checked.
    let events = f.act(BattleAction::Die(1));
    assert!(events.contains(&BattleEvent::Morale {
        block: sq,
        total: 3,
        held: false
    }));
    // A square that loses its morale is eliminated.
    assert!(events.contains(&BattleEvent::Eliminated {
        block: sq,
        side: Defender
    }));
    // The gun it sheltered stays, unsheltered (ruling R12).
    assert_eq!(f.strength("AR-ART"), 2);
    assert_eq!(f.battle.step(), Step::Fight);
    f.done();
    // The square's group: the French fire at the gun, now in the line.
    f.fire("G-INF", z(Defender, Right));
    f.act(BattleAction::Hits(1));
    assert_eq!(f.strength("AR-ART"), 1);
}

/// 6.5.2, the other way round: "Eliminatie van de eenheid die beschut wordt door de vierkant
/// formatie elimineert ook de eenheid die in vierkant formatie stond." Hits on a square go to
/// the strongest of the square and its guest; the surplus is void (6.5.1).
#[test]
fn the_sheltered_units_fall_takes_the_square_and_surplus_hits_are_void() {
    let mut f = Field::waterloo(
        FRENCH,
        &[
            ("WELLINGTON", 1),
            ("AR-5DIV", 1),
            ("AR-ART", 2),
            ("AI-1DIV", 4),
            ("AII-2DIV", 4),
        ],
    );
    f.plain();
    f.deploy(&[
        ("WELLINGTON", at(Defender, Right)),
        ("AR-5DIV", at(Defender, Right)),
        ("AR-ART", at(Defender, Right)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Left)),
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
        ("G-CAV", Place::Reserve),
        ("1CC-CAV", Place::Reserve),
    ]);
    f.done();
    let (sq, art) = (f.id("AR-5DIV"), f.id("AR-ART"));
    f.act(BattleAction::FormSquare(sq));
    f.act(BattleAction::Shelter {
        block: art,
        square: sq,
    });
    f.done();
    f.mv("G-INF", at(Defender, Right));
    f.done();
    f.act(BattleAction::Die(6));
    f.done();
    // Infantry at a square fires one higher: 4 dice F3. Three hits: the gun (2) takes the
    // first, then gun and square are both 1: the British pick the gun, which takes the square
    // with it; the third hit is void.
    let g = f.id("G-INF");
    f.act(BattleAction::Fire {
        block: g,
        at: z(Defender, Right),
        target: Target::Square(sq),
    });
    assert_eq!(f.volley(), (4, 3));
    f.act(BattleAction::Hits(3));
    f.act(BattleAction::TakeHit(art));
    assert_eq!((f.strength("AR-ART"), f.strength("AR-5DIV")), (0, 0));
    assert_eq!(f.strength("WELLINGTON"), 1);
}

/// 6.2.1, stream: "Per (slagveld) beurt mogen zich niet meer dan 2 eenheden verplaatsen
/// doorheen de stroom om het gevecht aan te gaan of om zich los te maken van het gevecht [...]
/// artillerie te paard mag niet door de stroom waden." (At most 2 units cross a stream a battle
/// turn to engage or disengage; horse artillery may not wade it.)
#[test]
fn a_stream_lets_two_units_across_a_turn_and_no_horse_artillery() {
    let mut f = Field::waterloo(
        &[
            ("G-INF", 4),
            ("I-INF1", 4),
            ("I-INF2", 3),
            ("II-INF1", 4),
            ("II-INF2", 3),
            ("1CC-HA", 2),
        ],
        BRITISH,
    );
    // The British lay a stream on their right, which faces the French left.
    f.terrain([(Hill, Right), (Stream, Right), (Hill, Left)]);
    f.deploy(&[
        ("WELLINGTON", at(Defender, Left)),
        ("AR-5DIV", at(Defender, Left)),
        ("AR-6DIV", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Right)),
        ("1CC-HA", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
        ("G-INF", Place::Reserve),
        ("I-INF2", Place::Reserve),
        ("II-INF2", Place::Reserve),
    ]);
    let ha = f.id("1CC-HA");
    assert_eq!(
        f.battle.check(&BattleAction::Move {
            block: ha,
            to: at(Defender, Right)
        }),
        Err(BattleIllegal::CannotGoThere)
    );
    f.mv("G-INF", at(Attacker, Left));
    f.done();
    f.done();
    f.mv("G-INF", at(Defender, Right));
    f.mv("I-INF2", at(Attacker, Left));
    f.done();
    f.done();
    f.mv("I-INF2", at(Defender, Right));
    f.mv("II-INF2", at(Attacker, Left));
    f.done();
    f.done();
    // A fresh turn: G-INF and I-INF2 disengage back across: two crossings; no third.
    f.mv("G-INF", at(Attacker, Left));
    f.mv("I-INF2", at(Attacker, Left));
    let fresh = f.id("II-INF2");
    assert_eq!(
        f.battle.check(&BattleAction::Move {
            block: fresh,
            to: at(Defender, Right)
        }),
        Err(BattleIllegal::CannotGoThere)
    );
}

/// 6.2.1, hill: "Eén verdedigende artillerie-eenheid krijgt 1 extra vuurkracht (F1 wordt F2)
/// doch enkel voor de lange afstand." (The artillery holding a hill fires one higher, at long
/// range only.)
#[test]
fn a_hill_lifts_its_guns_long_range_fire() {
    let mut f = Field::waterloo(
        &[("G-INF", 4), ("I-INF1", 4), ("II-INF1", 4)],
        &[
            ("AR-5DIV", 4),
            ("AR-ART", 3),
            ("AI-1DIV", 4),
            ("AII-2DIV", 4),
        ],
    );
    f.terrain([(Farm, Left), (Hill, Left), (Farm, Right)]);
    f.deploy(&[
        ("AR-ART", at(Defender, Left)),
        ("AR-5DIV", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Right)),
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
    ]);
    f.done();
    // The British left faces the French right.
    f.fire("AR-ART", z(Attacker, Right));
    assert_eq!(f.volley(), (3, 2));
}

/// Ruling R20 and its option: 6.2.1's "Eén verdedigende artillerie-eenheid krijgt 1 extra
/// vuurkracht" (one defending artillery unit fires one higher) read by default as the artillery
/// that holds (defends) the hill, of either side, as 6.2.1 calls the holder "de eenheid die de
/// hoeve of de heuvel verdedigt"; `hill_for_defenders_only` reads it as the battle's defending
/// side only. The attacker's guns on the attacker's own hill: F2 by default, F1 with the option.
#[test]
fn the_hill_option_decides_whether_an_attackers_guns_gain_it() {
    for (defenders_only, fire) in [(false, 2), (true, 1)] {
        let mut f = Field::with(
            DEFAULT_ORDER_OF_BATTLE,
            "WAT",
            &[("I-ART", 2), ("I-INF1", 4), ("G-INF", 4), ("II-INF1", 4)],
            &[("AR-5DIV", 4), ("AI-1DIV", 4), ("AII-2DIV", 4)],
            &[
                ("QB", Some(Attacker), true, &[]),
                ("BRU", Some(Defender), false, &[]),
                ("NIV", None, false, &[]),
                ("WAV", Some(Defender), false, &[]),
            ],
            BattleOptions {
                hill_for_defenders_only: defenders_only,
                ..BattleOptions::default()
            },
        );
        // The attacker's hill on the French left; the defender's two farms.
        f.terrain([(Hill, Left), (Farm, Left), (Farm, Right)]);
        f.deploy(&[
            ("AR-5DIV", at(Defender, Left)),
            ("AI-1DIV", at(Defender, Centre)),
            ("AII-2DIV", at(Defender, Right)),
            ("I-ART", at(Attacker, Left)),
            ("I-INF1", at(Attacker, Left)),
            ("G-INF", at(Attacker, Centre)),
            ("II-INF1", at(Attacker, Right)),
        ]);
        // The French left faces the British right: long range.
        f.fire("I-ART", z(Defender, Right));
        assert_eq!(f.volley(), (2, fire), "defenders only: {defenders_only}");
    }
}

/// 6.2.4's option: "men kan ook alle eenheden pas zichtbaar maken van zodra ze vuren of in
/// gevechten verwikkeld zijn." (Units may instead be revealed only once they fire or are in
/// combat.)
#[test]
fn the_reveal_on_contact_option_keeps_the_wings_hidden_until_they_fight() {
    let mut f = standard_field_with(BattleOptions {
        reveal_on_contact: true,
        ..BattleOptions::default()
    });
    let british_known = |f: &Field| {
        f.battle
            .view(Some(Army::French))
            .blocks
            .iter()
            .filter(|b| {
                matches!(
                    b,
                    BlockView::Known {
                        army: Army::AngloDutch,
                        ..
                    }
                )
            })
            .count()
    };
    assert_eq!(british_known(&f), 0);
    // Contact on the British right reveals the block there, and the attacker.
    f.mv("G-INF", at(Defender, Right));
    assert_eq!(british_known(&f), 1);
}

/// 6.2.4: "Blokken die zichtbaar zijn mogen opnieuw verticaal geplaatst worden wanneer ze
/// geplaatst worden in de reserve of in bossen" (visible blocks may stand up again when placed
/// in the reserve or in woods), and its option: "pas zichtbaar [...] van zodra ze vuren of in
/// gevechten verwickeld zijn" (visible from the moment they fire or are in combat). A block
/// seen in combat stays seen when the combat ends and when it steps to another open wing; the
/// reserve hides it again.
#[test]
fn under_the_option_a_block_seen_in_combat_stays_seen_until_the_reserve() {
    let mut f = standard_field_with(BattleOptions {
        reveal_on_contact: true,
        ..BattleOptions::default()
    });
    assert!(!f.seen("G-INF") && !f.seen("AII-2DIV"));
    f.mv("G-INF", at(Defender, Right));
    assert!(f.seen("G-INF") && f.seen("AII-2DIV"), "contact shows both");
    f.done();
    f.done();
    // G-INF disengages to its own open wing: the combat is over, and both stay seen.
    f.mv("G-INF", at(Attacker, Left));
    assert!(
        f.seen("G-INF") && f.seen("AII-2DIV"),
        "seen once, seen after"
    );
    f.done();
    f.done();
    // Into the reserve, G-CAV taking its wing: it may stand up again, and the view hides it;
    // G-CAV, on an open wing out of combat, is not seen. (I-INF1 engages the centre: an
    // attacker idle two turns running ends the battle, 6.7.)
    f.mv("G-CAV", at(Attacker, Left));
    f.mv("G-INF", Place::Reserve);
    assert!(!f.seen("G-INF") && !f.seen("G-CAV"));
    assert!(f.seen("AII-2DIV"));
    f.mv("I-INF1", at(Defender, Centre));
    // Back onto an open wing, out of combat: hidden until it fires or fights again.
    f.done();
    f.done();
    f.mv("G-INF", at(Attacker, Centre));
    assert!(!f.seen("G-INF"));
}

/// 6.2.4 under its option, and woods (6.2.1: "Eenheden op een terrein met een bos die geen
/// gevecht uitvoeren blijven verborgen": units in woods that do not fight stay hidden). G-INF
/// engages the British right in its woods: both are in combat and seen. G-INF disengages to its
/// own open wing, neither the reserve nor woods, so it stays seen ("Blokken die zichtbaar zijn
/// mogen opnieuw verticaal geplaatst worden wanneer ze geplaatst worden in de reserve of in
/// bossen"); AII-2DIV, in its woods and no longer fighting, is hidden again.
#[test]
fn under_the_option_a_block_seen_in_combat_in_woods_stays_seen_on_an_open_wing() {
    let mut f = standard_field_on(
        BattleOptions {
            reveal_on_contact: true,
            ..BattleOptions::default()
        },
        [(Hill, Left), (Woods, Right), (Hill, Left)],
    );
    assert!(!f.seen("G-INF") && !f.seen("AII-2DIV"));
    f.mv("G-INF", at(Defender, Right));
    assert!(f.seen("G-INF") && f.seen("AII-2DIV"), "contact shows both");
    f.done();
    f.done();
    f.mv("G-INF", at(Attacker, Left));
    assert!(f.seen("G-INF"), "seen in the woods' combat, seen after");
    assert!(!f.seen("AII-2DIV"), "in woods, not fighting: hidden");
}

/// Woods once the fight ends (ruling R26). 6.2.1: "Eenheden op een terrein met een bos die
/// geen gevecht uitvoeren blijven verborgen" (units in woods that do not fight stay hidden);
/// 6.2.4: "Blokken die zichtbaar zijn mogen opnieuw verticaal geplaatst worden wanneer ze
/// geplaatst worden in de reserve of in bossen" (shown blocks stand up again when placed in
/// the reserve or woods). II-INF1 engages the British left in its woods: the three British
/// blocks there are seen while in combat. AR-5DIV fires; when II-INF1 disengages, AR-5DIV,
/// which fought, stays seen (it was placed nowhere), and AR-6DIV and Wellington, which never
/// fired, are hidden again.
#[test]
fn in_woods_a_block_that_fired_stays_seen_and_one_only_in_combat_hides_again() {
    let mut f = standard_field_on(
        BattleOptions::default(),
        [(Hill, Right), (Woods, Left), (Hill, Right)],
    );
    let woods = ["AR-5DIV", "AR-6DIV", "WELLINGTON"];
    assert!(woods.iter().all(|b| !f.seen(b)), "in woods: hidden");
    f.mv("II-INF1", at(Defender, Left));
    assert!(woods.iter().all(|b| f.seen(b)), "in combat: seen");
    f.done();
    f.done();
    // The British turn: AR-5DIV fires at the French block in its zone; its volley misses.
    f.done();
    assert_eq!(f.battle.step(), Step::Fight);
    f.fire("AR-5DIV", z(Defender, Left));
    f.act(BattleAction::Hits(0));
    f.done();
    // The French disengage: the combat in the woods is over.
    f.mv("II-INF1", at(Attacker, Right));
    assert!(
        f.seen("AR-5DIV"),
        "fired in woods: seen until placed in the reserve or woods"
    );
    assert!(
        !f.seen("AR-6DIV") && !f.seen("WELLINGTON"),
        "never fought: hidden"
    );
    assert!(f.seen("II-INF1"), "on its open wing");
}

/// 7: "Eenheden die in gevechten verwikkeld zijn tijdens hun terugtrekking zijn onderhevig aan
/// dezelfde verliezen als bij vluchten" (Units in combat that retreat suffer the rout losses.)
/// 7.3: "Eenheden die zich terugtrekken zijn in wanorde" (retreated units are disordered).
#[test]
fn retreating_from_combat_costs_the_rout_loss() {
    let mut f = standard_field();
    f.mv("G-INF", at(Defender, Right));
    f.done();
    let a2 = f.id("AII-2DIV");
    let bru = f.town("BRU");
    let events = f.act(BattleAction::Retreat { block: a2, to: bru });
    assert!(events.contains(&BattleEvent::Hit {
        block: a2,
        strength: 3
    }));
    assert!(events.contains(&BattleEvent::Retreated {
        block: a2,
        side: Defender,
        to: bru
    }));
    // G-INF is now alone on the British right: the British rout.
    assert!(events.contains(&BattleEvent::Rout(Defender)));
}

/// 11: "Twee spelers voeren het bevel over de geallieerden [...] elk [heeft] de ultieme
/// controle over hun respectieve eenheden." (In the three-player game each Allied player
/// commands his own units.) Each Allied army sets up and fights its own blocks, in turn.
#[test]
fn each_allied_army_commands_its_own_blocks() {
    let mut f = Field::waterloo(
        FRENCH,
        &[
            ("AR-5DIV", 4),
            ("AI-1DIV", 4),
            ("PI-INF1", 4),
            ("PI-INF2", 4),
        ],
    );
    f.plain();
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::AngloDutch));
    let p1 = f.id("PI-INF1");
    assert_eq!(
        f.battle.check(&BattleAction::Deploy {
            block: p1,
            to: at(Defender, Right)
        }),
        Err(BattleIllegal::NotYourBlock)
    );
    f.deploy(&[
        ("AR-5DIV", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Centre)),
    ]);
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::Prussian));
    f.deploy(&[
        ("PI-INF1", at(Defender, Right)),
        ("PI-INF2", at(Defender, Right)),
    ]);
    // Before the battle starts nothing is laid flat (6.2.4): the Prussian player sees his
    // ally's blocks only as red blocks on their wings, and the French see nothing either.
    assert!(!f
        .battle
        .view(Some(Army::French))
        .blocks
        .iter()
        .any(|b| matches!(b, BlockView::Known { side: Defender, .. })));
    let view = f.battle.view(Some(Army::Prussian));
    assert!(view.blocks.iter().any(|b| matches!(
        b,
        BlockView::Hidden {
            army: Army::AngloDutch,
            ..
        }
    )));
    f.deploy(&[
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
        ("G-CAV", Place::Reserve),
        ("1CC-CAV", Place::Reserve),
    ]);
    f.mv("II-INF1", at(Defender, Left));
    f.done();
    // The Allied turn: the Anglo-Dutch fight first, then the Prussians; the Prussian player
    // must wait.
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::AngloDutch));
    assert_eq!(
        f.battle.check_as(Army::Prussian, &BattleAction::Done),
        Err(BattleIllegal::NotYourTurn(BattleActor::Army(
            Army::AngloDutch
        )))
    );
    assert_eq!(
        f.battle
            .check_as(Army::Prussian, &BattleAction::Done)
            .map_err(|e| e.to_string()),
        Err("the Anglo-Dutch player acts now: wait".to_string())
    );
    assert_eq!(
        f.battle.check_as(Army::AngloDutch, &BattleAction::Done),
        Ok(())
    );
    f.done();
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::Prussian));
}

/// 8.2: "Leiders zijn zelf niet onderworpen aan een controle op het moreel behalve als zij de
/// enige zijn die zich in een zone bevinden op het slagveld. Dan ook moeten zij die worp +1
/// doen." (A leader alone in a zone checks his morale, with his own +1.) 8.3: "Wanneer de
/// leider geëlimineerd wordt verliest zijn leger de voordelen van de leider" (An eliminated
/// leader's army loses his bonuses.)
#[test]
fn a_lone_leader_checks_with_his_bonus_and_a_fallen_one_gives_none() {
    let mut f = Field::waterloo(
        FRENCH,
        &[
            ("WELLINGTON", 1),
            ("AR-5DIV", 1),
            ("AI-1DIV", 4),
            ("AII-2DIV", 4),
            ("AR-6DIV", 3),
        ],
    );
    f.plain();
    f.deploy(&[
        ("WELLINGTON", at(Defender, Left)),
        ("AR-5DIV", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Right)),
        ("AR-6DIV", Place::Reserve),
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
        ("G-CAV", Place::Reserve),
        ("1CC-CAV", Place::Reserve),
    ]);
    f.mv("II-INF1", at(Defender, Left));
    f.done();
    // British turn: AR-5DIV checks (Wellington with it, +1); Wellington, not alone, does not.
    let (w, a5) = (f.id("WELLINGTON"), f.id("AR-5DIV"));
    assert_eq!(f.battle.chance_outcomes().len(), 6);
    f.act(BattleAction::Die(6));
    assert_eq!(f.battle.step(), Step::Fight);
    f.done();
    // The French fire: one hit, Wellington and AR-5DIV both at 1: the British give it to
    // Wellington, who falls.
    f.fire("II-INF1", z(Defender, Left));
    f.act(BattleAction::Hits(1));
    let events = f.act(BattleAction::TakeHit(w));
    assert!(events.contains(&BattleEvent::Eliminated {
        block: w,
        side: Defender
    }));
    f.done();
    // Now AR-5DIV fails on a 3: no leader's bonus any more.
    let events = f.act(BattleAction::Die(3));
    assert!(events.contains(&BattleEvent::Morale {
        block: a5,
        total: 3,
        held: false
    }));
}

/// 8.2: "Leiders zijn zelf niet onderworpen aan een controle op het moreel behalve als zij de
/// enige zijn die zich in een zone bevinden op het slagveld. Dan ook moeten zij die worp +1
/// doen." (Leaders check no morale unless they are alone in a zone of the battlefield; then
/// they too roll it, +1.) Blücher alone on a wing, engaged, checks his morale with +1.
#[test]
fn a_lone_leader_in_combat_checks_his_own_morale_with_plus_one() {
    let mut f = Field::waterloo(
        FRENCH,
        &[
            ("BLUCHER", 1),
            ("PI-INF1", 4),
            ("PI-INF2", 4),
            ("PI-ART", 3),
        ],
    );
    f.plain();
    f.deploy(&[
        ("BLUCHER", at(Defender, Left)),
        ("PI-INF1", at(Defender, Centre)),
        ("PI-INF2", at(Defender, Right)),
        ("PI-ART", Place::Reserve),
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
        ("G-CAV", Place::Reserve),
        ("1CC-CAV", Place::Reserve),
    ]);
    f.mv("II-INF1", at(Defender, Left));
    f.done();
    let b = f.id("BLUCHER");
    let events = f.act(BattleAction::Die(3));
    assert!(events.contains(&BattleEvent::Morale {
        block: b,
        total: 4,
        held: true
    }));
}

/// 6.2.1: "De eenheid die de hoeve of de heuvel verdedigt kan vrijelijk omgewisseld worden met
/// een andere eenheid die zich in dezelfde locatie bevindt maar niet indien een van de eenheden
/// zich reeds heeft verplaatst of reeds heeft gevuurd tijdens zijn beurt." (The farm's holder
/// may change places with another unit of its position, unless either has moved or fired this
/// turn.) Ruling R8: the change is the incoming unit's action for the turn.
#[test]
fn a_farms_holder_may_hand_it_over_before_acting() {
    let mut f = Field::waterloo(
        &[("G-INF", 4), ("I-INF1", 4), ("II-INF1", 4)],
        &[
            ("AR-5DIV", 4),
            ("AI-1DIV", 4),
            ("AII-2DIV", 4),
            ("AII-4DIV", 3),
        ],
    );
    f.terrain([(Hill, Left), (Farm, Right), (Hill, Left)]);
    f.deploy(&[
        ("AR-5DIV", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Right)),
        ("AII-4DIV", at(Defender, Right)),
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
    ]);
    f.mv("G-INF", at(Defender, Right));
    f.done();
    // AII-2DIV, set up first, holds the farm and fires F3; AII-4DIV takes its place instead.
    let (holder, other) = (f.id("AII-2DIV"), f.id("AII-4DIV"));
    assert!(!f
        .battle
        .legal_actions()
        .contains(&BattleAction::Occupy(holder)));
    f.act(BattleAction::Occupy(other));
    // The newcomer has used its turn; the old holder fires at its printed F2.
    assert!(!f
        .battle
        .legal_actions()
        .iter()
        .any(|a| matches!(a, BattleAction::Fire { block, .. } if *block == other)));
    f.fire("AII-2DIV", z(Defender, Right));
    assert_eq!(f.volley(), (4, 2));
    f.act(BattleAction::Hits(0));
    f.done();
    f.fire("G-INF", z(Defender, Right));
    f.act(BattleAction::Hits(0));
    f.done();
    // Next turn the new holder fires F3; once one has fired, no more swapping.
    f.fire("AII-4DIV", z(Defender, Right));
    assert_eq!(f.volley(), (3, 3));
    f.act(BattleAction::Hits(0));
    assert!(!f
        .battle
        .legal_actions()
        .contains(&BattleAction::Occupy(holder)));
}

/// Ruling R23: 6.2.2 asks "minstens 1 eenheid" on each of the three wings, but a side of
/// artillery alone cannot hold woods (6.2.1). The wings it cannot fill stay empty and it fills
/// the others. On the old code no deployment was legal here and nobody could act.
#[test]
fn a_side_that_cannot_fill_every_wing_fills_those_it_can() {
    let guns: &[(&str, u8)] = &[("AR-ART", 3), ("AII-ART", 3), ("AC-HA", 2)];
    let mut f = Field::waterloo(FRENCH, guns);
    f.terrain([(Hill, Left), (Woods, Left), (Woods, Centre)]);
    assert_eq!(f.battle.step(), Step::Deployment);
    let legal = f.battle.legal_actions();
    assert!(!legal.is_empty(), "the defender must be able to set up");
    // No gun may go into the woods.
    let ar = f.id("AR-ART");
    for to in [at(Defender, Left), at(Defender, Centre)] {
        assert_eq!(
            f.battle.check(&BattleAction::Deploy { block: ar, to }),
            Err(BattleIllegal::CannotGoThere),
            "{to}"
        );
    }
    f.deploy(&[("AII-ART", Place::Reserve), ("AC-HA", Place::Reserve)]);
    // The last gun must hold the open right wing, the one wing this side can fill.
    assert_eq!(
        f.battle.check(&BattleAction::Deploy {
            block: ar,
            to: Place::Reserve
        }),
        Err(BattleIllegal::CannotGoThere)
    );
    f.deploy(&[("AR-ART", at(Defender, Right))]);
    // The attacker sets up as usual: every wing.
    assert_eq!(f.battle.actor(), BattleActor::Army(Army::French));
    f.deploy(&[
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
        ("G-CAV", Place::Reserve),
        ("1CC-CAV", Place::Reserve),
    ]);
    assert_eq!(f.battle.step(), Step::Fight);
}

/// 6.5.1: "Artillerie die op een vierkant formatie vuurt op lange afstand krijgt een +1 bonus
/// (F1 = F2). Artillerie te paard die op korte afstand vuurt op een vierkant formatie zijn F3
/// voor het eerste schot en F2 voor de verdere schoten." (Artillery firing at a square at long
/// range gets +1; horse artillery firing at a square at short range is F3 for the first shot
/// and F2 after.) The control: the same guns fire at the line beside the square at F1.
#[test]
fn artillery_fires_one_higher_at_a_square() {
    let mut f = Field::waterloo(
        &[
            ("G-INF", 4),
            ("G-ART1", 3),
            ("G-ART2", 3),
            ("I-INF1", 4),
            ("II-INF1", 4),
        ],
        &[
            ("AR-5DIV", 4),
            ("AI-1DIV", 4),
            ("AII-2DIV", 4),
            ("AII-4DIV", 3),
        ],
    );
    // No hill under the guns: the French hill on their right, the British on their left and
    // centre, where no artillery stands.
    f.terrain([(Hill, Right), (Hill, Left), (Hill, Centre)]);
    f.deploy(&[
        ("AR-5DIV", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Right)),
        ("AII-4DIV", at(Defender, Right)),
        ("G-INF", at(Attacker, Left)),
        ("G-ART1", at(Attacker, Left)),
        ("G-ART2", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
    ]);
    f.done();
    // The British right, facing the French left, forms a square beside its line.
    let square = f.id("AII-2DIV");
    f.act(BattleAction::FormSquare(square));
    f.done();
    let art = f.id("G-ART1");
    let shoot = |f: &mut Field, block: BlockId, target: Target| {
        f.act(BattleAction::Fire {
            block,
            at: z(Defender, Right),
            target,
        });
        let volley = f.volley();
        f.act(BattleAction::Hits(0));
        volley
    };
    // Long range at the line: F1; at the square: F2.
    assert_eq!(shoot(&mut f, art, Target::Line), (3, 1));
    f.done();
    f.done();
    assert_eq!(shoot(&mut f, art, Target::Square(square)), (3, 2));
    // Horse artillery engages and fires at the square at short range: F3 the first time...
    f.mv("G-ART2", at(Defender, Right));
    let ha = f.id("G-ART2");
    assert_eq!(shoot(&mut f, ha, Target::Square(square)), (3, 3));
    f.done();
    f.done();
    // ...then F2.
    assert_eq!(shoot(&mut f, ha, Target::Square(square)), (3, 2));
    // The line beside it, at short range after its canister: F1.
    f.done();
    f.done();
    assert_eq!(shoot(&mut f, ha, Target::Line), (3, 1));
}

/// 6.2.1, stream: "Eenheden die boven deze drempel zitten omwille van laag moreel worden van
/// het slagveld verwijderd." (Units over the stream's limit because of low morale are removed
/// from the battlefield; ruling R11: eliminated.) Three French blocks of strength 1 fight
/// across the British stream and all lose their morale: two fall back across it, the third
/// is over the limit of 2 and is removed.
#[test]
fn units_falling_back_over_a_full_stream_are_removed() {
    let mut f = Field::waterloo(
        &[
            ("G-INF", 1),
            ("I-INF1", 4),
            ("I-INF2", 1),
            ("II-INF1", 4),
            ("II-INF2", 1),
        ],
        BRITISH,
    );
    // The British lay a stream on their right, which faces the French left.
    f.terrain([(Hill, Right), (Stream, Right), (Hill, Left)]);
    f.deploy(&[
        ("WELLINGTON", at(Defender, Left)),
        ("AR-5DIV", at(Defender, Left)),
        ("AR-6DIV", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Right)),
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
        ("I-INF2", Place::Reserve),
        ("II-INF2", Place::Reserve),
    ]);
    // Two cross a turn: G-INF now, the other two next turn.
    f.mv("I-INF2", at(Attacker, Left));
    f.mv("II-INF2", at(Attacker, Left));
    f.mv("G-INF", at(Defender, Right));
    f.done();
    f.done();
    f.act(BattleAction::Die(6));
    f.mv("I-INF2", at(Defender, Right));
    f.mv("II-INF2", at(Defender, Right));
    f.done();
    f.done();
    // All three fail their morale and must fall back across the stream.
    let mut fell = Vec::new();
    for _ in 0..3 {
        assert_eq!(f.battle.step(), Step::Morale);
        f.act(BattleAction::Die(1));
        let block = f
            .battle
            .legal_actions()
            .iter()
            .find_map(|a| match *a {
                BattleAction::Move { block, to } if to == at(Attacker, Left) => Some(block),
                _ => None,
            })
            .expect("the broken block steps back across the stream");
        let events = f.act(BattleAction::Move {
            block,
            to: at(Attacker, Left),
        });
        let removed = events
            .iter()
            .any(|e| matches!(e, BattleEvent::Eliminated { block: b, .. } if *b == block));
        fell.push(removed);
    }
    assert_eq!(fell, [false, false, true]);
    let left_french: usize = ["G-INF", "I-INF2", "II-INF2"]
        .iter()
        .filter(|n| f.strength(n) > 0)
        .count();
    assert_eq!(left_french, 2);
}

/// 6.2.1: "Spelers mogen een hoeve of heuvel innemen nadat de verdedigende eenheid werd
/// geëlimineerd. Het innemen van een hoeve of een heuvel neemt 1 (slagveld) beurt in beslag"
/// (Players may take a farm or hill once its defending unit is eliminated; taking it takes a
/// battle turn.) The French may not take the British farm while its holder stands; once it
/// falls they take it, fire no more that turn, and fire from it one higher the next.
#[test]
fn a_farm_is_taken_once_its_holder_is_eliminated() {
    let mut f = Field::waterloo(
        &[("G-INF", 4), ("I-INF1", 4), ("II-INF1", 4)],
        &[
            ("AR-5DIV", 4),
            ("AI-1DIV", 4),
            ("AII-2DIV", 1),
            ("AII-4DIV", 1),
        ],
    );
    f.terrain([(Hill, Left), (Farm, Right), (Hill, Left)]);
    f.deploy(&[
        ("AR-5DIV", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Right)),
        ("AII-4DIV", at(Defender, Right)),
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
    ]);
    f.mv("G-INF", at(Defender, Right));
    f.done();
    // The British strength-1 blocks hold their morale.
    f.act(BattleAction::Die(6));
    f.act(BattleAction::Die(6));
    f.done();
    let (g, holder) = (f.id("G-INF"), f.id("AII-2DIV"));
    // The holder stands: the farm is not the French to take.
    assert!(!f.battle.legal_actions().contains(&BattleAction::Occupy(g)));
    f.fire("G-INF", z(Defender, Right));
    assert_eq!(f.volley(), (4, 2));
    f.act(BattleAction::Hits(1));
    // Two equally strong: the British pick the holder.
    f.act(BattleAction::TakeHit(holder));
    assert_eq!(f.strength("AII-2DIV"), 0);
    f.done();
    f.act(BattleAction::Die(6));
    f.done();
    // Next turn G-INF takes the farm; that is its turn.
    f.act(BattleAction::Occupy(g));
    assert!(!f
        .battle
        .legal_actions()
        .iter()
        .any(|a| matches!(a, BattleAction::Fire { block, .. } | BattleAction::Move { block, .. } if *block == g)));
    f.done();
    f.act(BattleAction::Die(6));
    f.done();
    // From the farm it fires one higher.
    f.fire("G-INF", z(Defender, Right));
    assert_eq!(f.volley(), (4, 3));
}

/// 6.5: "Infanterie eenheden kunnen tijdens gevechten vierkant formaties aannemen (dit vergt 1
/// beurt)" (Infantry may form a square during combat; it takes a turn.) A block in combat
/// that could fire forms a square and has no fire or move left that turn; a block that has
/// fired forms none.
#[test]
fn forming_a_square_takes_the_units_turn() {
    let mut f = Field::waterloo(
        FRENCH,
        &[
            ("AR-5DIV", 4),
            ("AI-1DIV", 4),
            ("AII-2DIV", 4),
            ("AII-4DIV", 3),
        ],
    );
    f.plain();
    f.deploy(&[
        ("AR-5DIV", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Right)),
        ("AII-4DIV", at(Defender, Right)),
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
        ("G-CAV", Place::Reserve),
        ("1CC-CAV", Place::Reserve),
    ]);
    f.mv("G-INF", at(Defender, Right));
    f.done();
    let (a2, a4) = (f.id("AII-2DIV"), f.id("AII-4DIV"));
    let acts = |f: &Field, b: BlockId| -> Vec<BattleAction> {
        f.battle
            .legal_actions()
            .into_iter()
            .filter(|a| {
                matches!(a, BattleAction::Fire { block, .. } | BattleAction::Move { block, .. }
                    | BattleAction::FormSquare(block) if *block == b)
            })
            .collect()
    };
    // Before: both may fire, move or form a square.
    for b in [a2, a4] {
        let list = acts(&f, b);
        assert!(list.contains(&BattleAction::FormSquare(b)));
        assert!(list.iter().any(|a| matches!(a, BattleAction::Fire { .. })));
    }
    f.act(BattleAction::FormSquare(a2));
    assert!(acts(&f, a2).is_empty(), "{:?}", acts(&f, a2));
    f.fire("AII-4DIV", z(Defender, Right));
    f.act(BattleAction::Hits(0));
    assert!(!acts(&f, a4).contains(&BattleAction::FormSquare(a4)));
}

/// 6.2.3: "Eens het gevecht is begonnen kan elke eenheid (van gelijk welk korps) geplaatst
/// worden op gelijk welke locatie op het slagveld." (Once the fight has begun any unit, of
/// any corps, may go to any position.) At deployment the 1st cavalry corps may not join the
/// Guard on the French left; in the first battle turn it may.
#[test]
fn any_corps_may_go_anywhere_once_the_fight_has_begun() {
    let mut f = Field::waterloo(FRENCH, BRITISH);
    f.plain();
    f.deploy(&[
        ("WELLINGTON", at(Defender, Left)),
        ("AR-5DIV", at(Defender, Left)),
        ("AR-6DIV", at(Defender, Left)),
        ("AI-1DIV", at(Defender, Centre)),
        ("AII-2DIV", at(Defender, Right)),
        ("G-INF", at(Attacker, Left)),
        ("I-INF1", at(Attacker, Centre)),
        ("II-INF1", at(Attacker, Right)),
    ]);
    let cav = f.id("1CC-CAV");
    assert_eq!(
        f.battle.check(&BattleAction::Deploy {
            block: cav,
            to: at(Attacker, Left)
        }),
        Err(BattleIllegal::CannotGoThere)
    );
    f.deploy(&[("1CC-CAV", Place::Reserve), ("G-CAV", Place::Reserve)]);
    assert_eq!(f.battle.step(), Step::Fight);
    f.mv("1CC-CAV", at(Attacker, Left));
    // The Guard cavalry joins the I corps in the centre; next turn the 1st cavalry corps
    // engages the British II corps with the Guard.
    f.mv("G-CAV", at(Attacker, Centre));
    f.done();
    f.done();
    f.mv("1CC-CAV", at(Defender, Right));
    f.mv("G-INF", at(Defender, Right));
}
