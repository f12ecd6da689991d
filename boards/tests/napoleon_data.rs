//! Napoléon's data files: the map, the order of battle and the turn track. The defaults parse
//! and hold what the rulebook (*Napoléon*, in Dutch) says of them; broken copies give
//! every problem with its line and never panic.

use boards::geometry::roads::{RoadMap, TownId};
use boards::napoleon::{
    Army, Campaign, DataFile, DataProblem, Firepower, Map, Mover, OrderOfBattle, RoadKind,
    TerrainKind, TownInfo, TurnTrack, UnitType, Width, DEFAULT_MAP, DEFAULT_ORDER_OF_BATTLE,
    DEFAULT_TURN_TRACK,
};
use boards::Problems;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// The problems of a refused file, as the owner reads them; empty if it was accepted.
fn problems<T>(result: Result<T, Problems<DataProblem>>) -> Vec<String> {
    match result {
        Ok(_) => Vec::new(),
        Err(p) => p.0.iter().map(ToString::to_string).collect(),
    }
}

fn standard_map() -> Map {
    match Map::standard() {
        Ok(map) => map,
        Err(p) => panic!("the default map is refused: {p}"),
    }
}

fn town(map: &Map, code: &str) -> TownId {
    map.town(code)
        .unwrap_or_else(|| panic!("{code} is on the map"))
}

fn codes(graph: &RoadMap<RoadKind, TownInfo>, towns: impl Iterator<Item = TownId>) -> Vec<String> {
    let mut out: Vec<String> = towns
        .filter_map(|t| graph.town(t).map(|t| t.info.code.clone()))
        .collect();
    out.sort();
    out
}

fn neighbours(map: &Map, code: &str) -> Vec<String> {
    let graph = map.graph();
    codes(graph, graph.neighbours(town(map, code)).map(|n| n.town))
}

/// `text` with `line` (from 1) replaced by `with` (several lines allowed).
fn replace_line(text: &str, line: usize, with: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    lines[line - 1] = with;
    lines.join("\n")
}

/// The line (from 1) of `text` that starts with `start`.
fn line_of(text: &str, start: &str) -> usize {
    text.lines()
        .position(|l| l.starts_with(start))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("no line starts with {start}"))
}

// ---------------------------------------------------------------------------------------------
// The defaults.

/// "Voorbeeld: met een groep in Brussel mag de speler eenheden verplaatsen naar Aalst, Ninove,
/// Halle, Waterloo, Waver, Leuven en Mechelen." (5.1: from Brussels a group may move to exactly
/// these seven towns.)
#[test]
fn brussels_has_the_seven_neighbours_of_the_rulebook() {
    let map = standard_map();
    assert_eq!(
        neighbours(&map, "BRU"),
        ["AAL", "HAL", "LEU", "MEC", "NIN", "WAT", "WAV"]
    );
    let names: Vec<_> = ["AAL", "NIN", "HAL", "WAT", "WAV", "LEU", "MEC"]
        .iter()
        .map(|c| map.name(town(&map, c)))
        .collect();
    assert_eq!(
        names,
        [
            Some("Aalst"),
            Some("Ninove"),
            Some("Halle"),
            Some("Waterloo"),
            Some("Waver"),
            Some("Leuven"),
            Some("Mechelen")
        ]
    );
}

/// "8 Franse eenheden kunnen zich onder normale omstandigheden verplaatsen via de (brede) weg
/// van Laneffe naar Charleroi. Indien Charleroi echter wordt verdedigd ... dan kunnen enkel 4
/// Franse eenheden Charleroi aanvallen via deze weg." (5.5: the broad road Laneffe-Charleroi
/// crosses a river: 8 may move along it, 4 may attack.) And 5.4, 7.2: narrow roads 6, retreat
/// 2 along a broad road and 1 along a narrow one.
#[test]
fn road_limits_follow_width_and_river() {
    let map = standard_map();
    let graph = map.graph();
    let lan_cha = graph
        .road_between(town(&map, "LAN"), town(&map, "CHA"))
        .expect("Laneffe-Charleroi");
    assert_eq!(
        graph.road(lan_cha).map(|r| r.kind),
        Some(RoadKind {
            width: Width::Broad,
            river: true
        })
    );
    assert_eq!(map.move_limit(lan_cha), Some(8));
    assert_eq!(map.attack_limit(lan_cha), Some(4));
    assert_eq!(map.retreat_limit(lan_cha), Some(2));
    assert_eq!(map.river(lan_cha), Some("Sambre"));

    let wav_wat = graph
        .road_between(town(&map, "WAV"), town(&map, "WAT"))
        .expect("Waver-Waterloo");
    assert_eq!(map.move_limit(wav_wat), Some(6));
    assert_eq!(map.attack_limit(wav_wat), Some(6));
    assert_eq!(map.retreat_limit(wav_wat), Some(1));
    assert_eq!(map.river(wav_wat), None);
    let gem_wav = graph
        .road_between(town(&map, "GEM"), town(&map, "WAV"))
        .expect("Gembloux-Waver");
    assert_eq!(map.attack_limit(gem_wav), Some(3));
}

/// The rulebook's map examples, 5.2, 5.3 and 7.5: "de geallieerden in Waterloo en Ligny
/// [kunnen] niet gelijktijdig de Fransen in Quatre Bras aanvallen" (Waterloo and Ligny are both
/// next to Quatre Bras but not joined); "Beide Franse groepen in Nijvel en Quatre Bras kunnen wel
/// gelijktijdig ... Waterloo aanvallen" (Nijvel, Quatre Bras and Waterloo are joined two by
/// two); "De twee Franse eenheden in Waver kunnen Waterloo niet aanvallen samen met ... Nijvel
/// of Quatre Bras" (Waver is next to Waterloo, not to Nijvel or Quatre Bras); "De Pruisen hebben
/// zich teruggetrokken naar Gembloux en Namen" (from Ligny); "2 eenheden van Ligny ... in Quatre
/// Bras (het maximale aantal voor deze brede weg)".
#[test]
fn the_rulebook_examples_hold_on_the_default_map() {
    let map = standard_map();
    let graph = map.graph();
    let joined = |a: &str, b: &str| graph.road_between(town(&map, a), town(&map, b));
    for (a, b) in [
        ("WAT", "QB"),
        ("LIG", "QB"),
        ("NIV", "QB"),
        ("NIV", "WAT"),
        ("WAV", "WAT"),
        ("LIG", "GEM"),
        ("LIG", "NAM"),
    ] {
        assert!(joined(a, b).is_some(), "{a}-{b} is a road");
    }
    for (a, b) in [("WAT", "LIG"), ("WAV", "NIV"), ("WAV", "QB")] {
        assert!(joined(a, b).is_none(), "{a}-{b} is no road");
    }
    let lig_qb = joined("LIG", "QB").expect("Ligny-Quatre Bras");
    assert_eq!(map.retreat_limit(lig_qb), Some(2));
    // "van Waterloo naar Quatre Bras en dan direct naar ... Ligny of Nijvel": two steps.
    let reach = graph.within(town(&map, "WAT"), 2, |_| true);
    for code in ["QB", "LIG", "NIV"] {
        assert!(
            reach.contains(&town(&map, code)),
            "{code} within two of Waterloo"
        );
    }
}

/// "Gent: Brits-Nederlands leger -1 eenheid; Brussel: Brits-Nederlands leger -1 eenheid; Luik:
/// Pruisisch leger -2 eenheden." (9) And the three cities of section 1, the French towns the
/// French set up in (4.2), the Allied areas either side of the brown line (4.1), and the twelve
/// terrain blocks (3.1: "58 + 12 terrein").
#[test]
fn supply_areas_and_terrain_of_the_default_map() {
    let map = standard_map();
    let graph = map.graph();
    let supply: Vec<_> = map
        .supply_cities()
        .iter()
        .map(|s| (map.code(s.town), s.army, s.loss))
        .collect();
    assert_eq!(
        supply,
        [
            (Some("GHE"), Army::AngloDutch, 1),
            (Some("BRU"), Army::AngloDutch, 1),
            (Some("LIE"), Army::Prussian, 2)
        ]
    );
    assert_eq!(map.supply_city(town(&map, "LIE")).map(|s| s.loss), Some(2));
    assert_eq!(map.supply_city(town(&map, "NAM")), None);
    let cities = codes(
        graph,
        graph.towns().filter(|(_, t)| t.info.city).map(|(id, _)| id),
    );
    assert_eq!(cities, ["BRU", "GHE", "LIE"]);
    assert_eq!(
        codes(graph, map.set_up_area(Army::French)),
        ["BEA", "CON", "GIV", "LAN", "MAU", "PHI", "SOL", "VAL"]
    );
    let ad = codes(graph, map.set_up_area(Army::AngloDutch));
    let pr = codes(graph, map.set_up_area(Army::Prussian));
    for code in ["BRU", "GHE", "QB", "WAT", "NIV", "MON", "ATH", "HAL"] {
        assert!(ad.contains(&code.to_string()), "{code} is Anglo-Dutch");
    }
    for code in ["LIE", "LIG", "CHA", "NAM", "CIN", "WAV"] {
        assert!(pr.contains(&code.to_string()), "{code} is Prussian");
    }
    assert_eq!(graph.town_count(), 39);
    assert_eq!(ad.len() + pr.len() + 8, 39);
    assert_eq!(map.terrain().total(), 12);
    for kind in TerrainKind::ALL {
        assert_eq!(map.terrain().count(kind), 3);
    }
    // The whole map is one network: every town reaches Brussels.
    let from_brussels = graph.within(town(&map, "BRU"), u16::MAX, |_| true);
    assert_eq!(from_brussels.len() + 1, graph.town_count());
}

/// "Het spel bevat 58 blokken" (3.1); "Elk leger heeft een leider" (3.6.1); "Leiders zijn
/// eenheden met een kracht van 1" (8); "Zware cavalerie wordt aangeduid met F3 terwijl lichte
/// cavalerie aangeduid wordt met F2" (3.6.3). And the note's section 5: French 24 blocks of 66
/// strength with the exact strengths by type, Prussians 18 of 58, Anglo-Dutch 16 of 49; each
/// block starts in its army's set-up area.
#[test]
fn the_default_order_of_battle() {
    let map = standard_map();
    let oob = match OrderOfBattle::standard(&map) {
        Ok(oob) => oob,
        Err(p) => panic!("the default order of battle is refused: {p}"),
    };
    assert_eq!(oob.len(), 58);
    for (army, blocks, strength) in [
        (Army::French, 24, 66),
        (Army::Prussian, 18, 58),
        (Army::AngloDutch, 16, 49),
    ] {
        assert_eq!(oob.army(army).count(), blocks, "{army} blocks");
        let total: u32 = oob.army(army).map(|(_, b)| u32::from(b.strength)).sum();
        assert_eq!(total, strength, "{army} strength");
        let leaders: Vec<_> = oob
            .army(army)
            .filter(|(_, b)| b.kind == UnitType::Leader)
            .collect();
        assert_eq!(leaders.len(), 1, "{army} has one leader");
        assert_eq!(leaders[0].1.strength, 1);
        assert_eq!(leaders[0].1.corps, None);
        for (_, b) in oob.army(army) {
            assert_eq!(map.info(b.start).map(|i| i.area), Some(army), "{}", b.name);
            match b.kind {
                UnitType::HeavyCavalry => assert_eq!(b.firepower, Firepower::F3),
                UnitType::LightCavalry => assert_eq!(b.firepower, Firepower::F2),
                UnitType::Leader => {}
                _ => assert!(b.corps.is_some(), "{} has a corps", b.name),
            }
        }
    }
    let names: Vec<_> = Army::ALL
        .iter()
        .filter_map(|&a| oob.leader(a).map(|b| b.name.as_str()))
        .collect();
    assert_eq!(names, ["NAPOLEON", "WELLINGTON", "BLUCHER"]);
    // The French by type (note section 5.1): strengths of each type, largest first.
    let french = |keep: &dyn Fn(&boards::napoleon::Block) -> bool| {
        let mut s: Vec<u8> = oob
            .army(Army::French)
            .filter(|(_, b)| keep(b))
            .map(|(_, b)| b.strength)
            .collect();
        s.sort_unstable_by(|a, b| b.cmp(a));
        s
    };
    let guard = |b: &boards::napoleon::Block| {
        b.corps
            .and_then(|c| oob.corps(c))
            .is_some_and(|c| c.name == "Garde")
    };
    assert_eq!(
        french(&|b| b.kind == UnitType::Infantry && !guard(b)),
        [4, 4, 3, 3, 3, 3, 3, 2]
    );
    assert_eq!(french(&|b| b.kind.is_cavalry() && !guard(b)), [3, 3, 2, 2]);
    assert_eq!(
        french(&|b| b.kind == UnitType::FootArtillery && !guard(b)),
        [3, 3, 3, 2, 2]
    );
    assert_eq!(
        french(&|b| b.kind == UnitType::HorseArtillery && !guard(b)),
        [2, 2]
    );
    assert_eq!(french(&guard), [4, 3, 3, 3]);
    // Corps are per army: the French I Corps is not the Anglo-Dutch one.
    let fr_i = oob
        .find("I-INF1")
        .and_then(|id| oob.block(id))
        .and_then(|b| b.corps);
    let ad_i = oob
        .find("AI-1DIV")
        .and_then(|id| oob.block(id))
        .and_then(|b| b.corps);
    assert!(fr_i.is_some() && ad_i.is_some() && fr_i != ad_i);
    // The historical set-up (note 5.1): the French at Solre 6, Beaumont 12, Philippeville 6.
    for (code, count) in [("SOL", 6), ("BEA", 12), ("PHI", 6)] {
        let here = oob
            .army(Army::French)
            .filter(|(_, b)| b.start == town(&map, code))
            .count();
        assert_eq!(here, count, "French at {code}");
    }
}

/// "de Frans (F) eerst aan zet" (2); "De zwarte vakken stellen nachtelijke verplaatsingen voor"
/// (1); the game ends "na de Franse beurt van 22 juni" (10.2). The note's section 4: 23 boxes,
/// 12 F and 11 A, 7 nights, the third box of each day.
#[test]
fn the_default_turn_track() {
    let track = match TurnTrack::standard() {
        Ok(t) => t,
        Err(p) => panic!("the default turn track is refused: {p}"),
    };
    assert_eq!(track.len(), 23);
    assert_eq!(track.last_turn(), 23);
    let count =
        |f: &dyn Fn(&boards::napoleon::Turn) -> bool| track.turns().iter().filter(|t| f(t)).count();
    assert_eq!(count(&|t| t.mover == Mover::French), 12);
    assert_eq!(count(&|t| t.mover == Mover::Allies), 11);
    assert_eq!(count(&|t| t.night), 7);
    assert_eq!(
        track.turn(1).map(|t| (t.day, t.mover, t.night)),
        Some((15, Mover::French, false))
    );
    assert_eq!(track.turn(3).map(|t| (t.day, t.night)), Some((15, true)));
    assert_eq!(
        track.turn(4).map(|t| (t.day, t.mover)),
        Some((16, Mover::Allies))
    );
    assert_eq!(
        track.turn(23).map(|t| (t.day, t.mover, t.night)),
        Some((22, Mover::French, false))
    );
    assert_eq!(track.turn(0), None);
    assert_eq!(track.turn(24), None);
    for (i, t) in track.turns().iter().enumerate() {
        assert_eq!(t.night, i % 3 == 2, "box {} is night", i + 1);
        assert_eq!(t.day as usize, 15 + i / 3);
    }
}

// ---------------------------------------------------------------------------------------------
// Broken copies: every problem, each with its line.

#[test]
fn a_broken_map_gives_every_problem_with_its_line() {
    let text = "\
width broad 8 4 2
width narrow 6 3 1
width wide 5 2 1
town BRU ad city Brussel
town WAT ad town Waterloo
town LIG pr town Ligny
town BRU ad town Brussel Noord
town QB ad village Quatre Bras
town NIV west town Nijvel
town GEN ad town waterloo
road BRU WAT broad
road WAT BRU narrow
road MON ATH broad
road BRU WAT2 wide
road WAT WAT broad
road BRU LIE broad ferry
road QB BRU narrow
supply LIG ad 1
supply XXX pr 2
supply BRU french 1
supply BRU ad 1
supply WAT ad 0
terrain woods 2
terrain swamp 1
terrain woods 1
bogus line here
town
";
    assert_eq!(
        problems(Map::parse(text)),
        [
            "no town in the French set-up area: mark its towns `french` (4.1, 4.2)",
            "the terrain pool holds 2 block(s); a battle draws 3 (6.2.1): add `terrain` lines",
            "line 3: width wide: unknown road kind 'wide': write broad or narrow",
            "line 6: town LIG: no road; add a road or remove the town",
            "line 7: town BRU is listed twice (first on line 4): remove one or change its code",
            "line 8: town QB: unknown kind 'village': write city or town",
            "line 9: town NIV: unknown area 'west': write french (south of the border), ad \
             (west of the brown line) or pr (east of it)",
            "line 10: town GEN: the name \"waterloo\" is already used on line 5: rename one",
            "line 12: road WAT-BRU: these towns are already joined by the road on line 11: \
             remove one",
            "line 13: road MON-ATH: no town MON; add the town or fix the code",
            "line 13: road MON-ATH: no town ATH; add the town or fix the code",
            "line 14: road BRU-WAT2: unknown road kind 'wide': write broad or narrow",
            "line 14: road BRU-WAT2: no town WAT2; add the town or fix the code",
            "line 15: road WAT-WAT joins a town to itself: change one end",
            "line 16: road BRU-LIE: after the width write `river <name>` (one word) or \
             nothing, not 'ferry'",
            "line 16: road BRU-LIE: no town LIE; add the town or fix the code",
            "line 18: supply LIG: LIG is a town, not a city; supply cities are cities (9): \
             mark it `city` or supply another",
            "line 19: supply XXX: no town XXX; name a city from the town lines",
            "line 20: supply BRU: the French have no supply cities (9): write ad or pr",
            "line 21: supply BRU is listed twice (first on line 20): keep one",
            "line 22: supply WAT: the loss must be a whole number from 1 to 9, not '0'",
            "line 22: supply WAT: WAT is a town, not a city; supply cities are cities (9): \
             mark it `city` or supply another",
            "line 24: terrain swamp: unknown terrain 'swamp': write woods, farm, stream or hill",
            "line 25: terrain woods is given twice (first on line 23): keep one",
            "line 26: 'bogus' is not an entry: start the line with width, town, road, supply \
             or terrain (or # for a comment)",
            "line 27: a town needs a code, an area, a kind and a name: `town BRU ad city \
             Brussel`",
        ]
    );
}

/// Problems about the file as a whole have no line: what is missing, and a map in pieces.
#[test]
fn a_map_missing_its_parts_or_in_pieces_says_so() {
    assert_eq!(
        problems(Map::parse("# nothing but a comment\n\n")),
        [
            "no `width broad` line: add one, e.g. `width broad 8 4 2` (rulebook 5.4, 5.5, 7.2)",
            "no `width narrow` line: add one, e.g. `width narrow 6 3 1` (rulebook 5.4, 5.5, 7.2)",
            "the map has no towns: add `town` lines",
            "no supply cities: add `supply` lines (9: Gent and Brussel for the Anglo-Dutch, \
             Luik for the Prussians)",
            "the terrain pool holds 0 block(s); a battle draws 3 (6.2.1): add `terrain` lines",
        ]
    );
    // Remove the two roads out of Gent's corner (Gent-Aalst, Aalst-Brussel... ): cut it off.
    let mut text = DEFAULT_MAP.to_string();
    for road in [
        "road GHE AAL broad",
        "road BRU AAL broad",
        "road AAL NIN narrow",
    ] {
        let line = line_of(&text, road);
        text = replace_line(&text, line, "");
    }
    let aal = line_of(&text, "town AAL");
    let ghe = line_of(&text, "town GHE");
    assert_eq!(
        problems(Map::parse(&text)),
        [
            format!(
                "line {ghe}: towns GHE, OUD are cut off from the rest of the map: add a road \
                 joining them"
            ),
            format!("line {aal}: town AAL: no road; add a road or remove the town"),
        ]
    );
    // One town line mistyped: that line alone is named. Oudenaarde, whose one road goes to
    // Gent, still has its road, and Gent's corner is not cut off.
    let ghe = line_of(DEFAULT_MAP, "town GHE");
    let text = replace_line(
        DEFAULT_MAP,
        ghe,
        "town GHE  ad     ctiy  Gent                      # A/A/A  Ghent / Gand",
    );
    let got = problems(Map::parse(&text));
    assert_eq!(got.len(), 1, "{got:#?}");
    assert!(got[0].starts_with(&format!("line {ghe}: ")), "{got:#?}");
    let limits = replace_line(
        DEFAULT_MAP,
        line_of(DEFAULT_MAP, "width narrow"),
        "width narrow 6 7 x",
    );
    let line = line_of(DEFAULT_MAP, "width narrow");
    assert_eq!(
        problems(Map::parse(&limits)),
        [format!(
            "line {line}: width narrow: the retreat limit must be a whole number from 1 to 99, \
             not 'x'"
        )]
    );
    let mut one_city = DEFAULT_MAP.to_string();
    for start in ["supply GHE", "supply BRU"] {
        let line = line_of(&one_city, start);
        one_city = replace_line(&one_city, line, "");
    }
    assert_eq!(
        problems(Map::parse(&one_city)),
        [
            "only one supply city: the French win by holding two (10.1), so list at least two \
          `supply` lines"
        ]
    );
    let over = replace_line(DEFAULT_MAP, line, "width narrow 6 7 1");
    assert_eq!(
        problems(Map::parse(&over)),
        [format!(
            "line {line}: width narrow: the limits across a river (7) and to retreat (1) may \
             not exceed the move limit (6)"
        )]
    );
}

/// Several bad lines in a copy of the default map: each is reported on its own line, the rest of
/// the file is still checked, and nothing cascades from a town whose line is wrong.
#[test]
fn several_problems_in_a_copy_of_the_default_map() {
    let mut text = DEFAULT_MAP.to_string();
    let edits = [
        ("town LIG", "town LIG pr hamlet Ligny"),
        ("road BRU WAT", "road BRU WTA broad"),
        ("road QB  LIG", "road QB  LIG wide"),
        ("supply LIE", "supply NAM pr 2"),
        ("terrain hill", "terrain hills 3"),
    ];
    let mut lines = Vec::new();
    for (start, with) in edits {
        let line = line_of(&text, start);
        text = replace_line(&text, line, with);
        lines.push(line);
    }
    assert_eq!(
        problems(Map::parse(&text)),
        [
            format!(
                "line {}: town LIG: unknown kind 'hamlet': write city or town",
                lines[0]
            ),
            format!(
                "line {}: road BRU-WTA: no town WTA; add the town or fix the code",
                lines[1]
            ),
            format!(
                "line {}: road QB-LIG: unknown road kind 'wide': write broad or narrow",
                lines[2]
            ),
            format!(
                "line {}: supply NAM: NAM is a town, not a city; supply cities are cities (9): \
                 mark it `city` or supply another",
                lines[3]
            ),
            format!(
                "line {}: terrain hills: unknown terrain 'hills': write woods, farm, stream or \
                 hill",
                lines[4]
            ),
        ]
    );
}

#[test]
fn a_broken_order_of_battle_gives_every_problem_with_its_line() {
    let map = standard_map();
    let text = "\
block NAPOLEON french - leader 2 F1 BEA
block NAPOLEON french Garde infantry 4 F2 BEA
block G-CAV french Garde heavy-cavalry 3 F2 BEA
block LC french 1CC light-cavalry 3 F3 BEA
block X1 french I infantry 5 F4 PARIS
block X2 swiss I infantry 3 F2 BEA
block X3 french I musketeer 3 F2 BEA
block X4 french I infantry 3 F2 BRU
block X5 french - infantry 3 F2 BEA
block NAP2 french - leader 1 F1 SOL
block W1 ad Res infantry 3 F2 LIE
block W2 ad Res infantry 3 F2
regiment X ad
block P1 pr I infantry 4 F2 LIE
";
    assert_eq!(
        problems(OrderOfBattle::parse(text, &map)),
        [
            "the Anglo-Dutch army has no leader: add one block of type leader (3.6.1)",
            "the Prussian army has no leader: add one block of type leader (3.6.1)",
            "line 1: block NAPOLEON: a leader has strength 1 (8), not 2",
            "line 2: block NAPOLEON is listed twice (first on line 1): rename one",
            "line 3: block G-CAV: heavy cavalry is F3 (3.6.3), not F2: fix the firepower or \
             make it light-cavalry",
            "line 4: block LC: light cavalry is F2, or F1 as in 6.3.3's example (3.6.3), not F3: \
             fix the firepower or make it heavy-cavalry",
            "line 5: block X1: the strength must be a whole number from 1 to 4, not '5'",
            "line 5: block X1: unknown firepower 'F4': write F1, F2 or F3",
            "line 5: block X1: no town PARIS on the map; use a town code from the map file",
            "line 6: block X2: unknown army 'swiss': write french, ad or pr",
            "line 7: block X3: unknown type 'musketeer': write leader, infantry, \
             heavy-cavalry, light-cavalry, foot-artillery or horse-artillery",
            "line 8: block X4: BRU is in the Anglo-Dutch area (west of the brown line), but \
             French units set up in the French area (south of the border) (4.1, 4.2): choose \
             another start town",
            "line 9: block X5: every unit but a leader belongs to a corps (6.2.3): give its \
             corps instead of `-`",
            "line 10: a second French leader: each army has one leader (3.6.1); remove one",
            "line 11: block W1: LIE is in the Prussian area (east of the brown line), but \
             Anglo-Dutch units set up in the Anglo-Dutch area (west of the brown line) (4.1, \
             4.2): choose another start town",
            "line 12: a block needs a name, army, corps, type, strength, firepower and start \
             town: `block G-INF french Garde infantry 4 F2 BEA`",
            "line 13: 'regiment' is not an entry: start the line with block (or # for a \
             comment)",
        ]
    );
}

/// The order of battle is checked against the map it is used with: a start town the owner
/// removed from the map is reported on the block's line.
#[test]
fn the_order_of_battle_follows_the_map() {
    let mut text = DEFAULT_MAP.to_string();
    // Take Thuin off the map, with its three roads.
    for start in ["town THU", "road BEA THU", "road THU CHA", "road THU BIN"] {
        let line = line_of(&text, start);
        text = replace_line(&text, line, "");
    }
    let map = match Map::parse(&text) {
        Ok(m) => m,
        Err(p) => panic!("the map without Thuin is valid: {p}"),
    };
    let line = line_of(DEFAULT_ORDER_OF_BATTLE, "block PI-INF3");
    assert_eq!(
        problems(OrderOfBattle::standard(&map)),
        [format!(
            "line {line}: block PI-INF3: no town THU on the map; use a town code from the map file"
        )]
    );
}

#[test]
fn a_broken_turn_track_gives_every_problem_with_its_line() {
    let text = "\
turn 15 A
turn 15 F night
turn 14 F
turn 32 A
turn 16 X
turn 16 F dusk
round 17 F
turn 17 A night
";
    assert_eq!(
        problems(TurnTrack::parse(text)),
        [
            "line 1: turn 1: the French move first (2): make it an F turn",
            "line 3: turn 3: day 14 comes after day 15 (line 2): list the boxes in the order \
             they are played",
            "line 4: turn 4: the day of June must be a whole number from 1 to 30, not '32'",
            "line 5: turn 5: 'X' is not a side: write F (French) or A (Allies)",
            "line 6: a turn is `turn <day> <F|A>`, with `night` after it for a black box: \
             `turn 15 F night`",
            "line 7: 'round' is not an entry: start the line with turn (or # for a comment)",
            "line 8: turn 7: the game ends after a French turn (10.2: \"na de Franse beurt\"): \
             end the track on an F turn",
        ]
    );
    assert_eq!(
        problems(TurnTrack::parse("\n# empty\n")),
        ["the track has no turns: add `turn` lines"]
    );
    // The older 24-box track with its last Allied night: refused, on that line.
    let longer = format!("{DEFAULT_TURN_TRACK}\nturn 22 A night\n");
    let line = longer.lines().count();
    assert_eq!(
        problems(TurnTrack::parse(&longer)),
        [format!(
            "line {line}: turn 24: the game ends after a French turn (10.2: \"na de Franse \
             beurt\"): end the track on an F turn"
        )]
    );
}

/// Windows line ends and a byte-order mark, as a text editor may save them, read the same.
#[test]
fn crlf_and_a_byte_order_mark_are_read() {
    let crlf = format!("\u{feff}{}", DEFAULT_MAP.replace('\n', "\r\n"));
    assert_eq!(Map::parse(&crlf).ok(), Map::standard().ok());
    let track = format!("\u{feff}{}", DEFAULT_TURN_TRACK.replace('\n', "\r\n"));
    assert_eq!(TurnTrack::parse(&track).ok(), TurnTrack::standard().ok());
}

// ---------------------------------------------------------------------------------------------
// Random damage never panics.

/// The start and end (past its newline) of the line of `bytes` holding `at`.
fn line_around(bytes: &[u8], at: usize) -> (usize, usize) {
    let start = bytes[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let end = bytes[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| at + i + 1);
    (start, end)
}

/// `text` with a few random byte edits: bytes replaced (often by a character the files give
/// meaning to), inserted or deleted, lines duplicated or dropped.
fn damage(text: &str, rng: &mut Pcg64) -> String {
    const MEANINGFUL: &[u8] = b" \n#-0123456789FAX_abcdefghijklmnopqrstuvwxyzBRUWATLIG\r\t";
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..rng.random_range(1..=6) {
        if bytes.is_empty() {
            break;
        }
        let at = rng.random_range(0..bytes.len());
        let byte = if rng.random_bool(0.8) {
            MEANINGFUL[rng.random_range(0..MEANINGFUL.len())]
        } else {
            rng.random()
        };
        match rng.random_range(0..5) {
            0 => bytes[at] = byte,
            1 => bytes.insert(at, byte),
            2 => {
                bytes.remove(at);
            }
            3 => {
                // Duplicate the line holding `at`.
                let (start, end) = line_around(&bytes, at);
                let copy = bytes[start..end].to_vec();
                bytes.splice(end..end, copy);
            }
            _ => {
                // Drop the line holding `at`.
                let (start, end) = line_around(&bytes, at);
                bytes.drain(start..end);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Every problem names a line of the file (or none), and says something.
fn check_lines(text: &str, result: &Result<impl Sized, Problems<DataProblem>>) {
    if let Err(p) = result {
        assert!(!p.0.is_empty(), "a refusal holds at least one problem");
        let lines = text.lines().count();
        for problem in &p.0 {
            assert!(
                problem.line <= lines,
                "{problem} is past the end ({lines} lines) of:\n{text}"
            );
            assert!(!problem.message.is_empty());
        }
    }
}

/// 600 damaged copies of each default file (bounded: under a second) are read, alone and
/// together, without a panic; every refusal names lines inside its file, and what is accepted
/// is still sound.
#[test]
fn random_damage_never_panics() {
    let mut rng = Pcg64::seed_from_u64(1815);
    let map = standard_map();
    let mut accepted = 0;
    for _ in 0..600 {
        let map_text = damage(DEFAULT_MAP, &mut rng);
        let text = &map_text;
        let parsed = Map::parse(text);
        check_lines(text, &parsed);
        if let Ok(damaged) = &parsed {
            accepted += 1;
            let graph = damaged.graph();
            for (id, _) in graph.towns() {
                assert!(graph.neighbours(id).count() > 0);
            }
            for s in damaged.supply_cities() {
                let info = damaged
                    .info(s.town)
                    .expect("a supply city is a town of its map");
                assert!(info.city && info.area != Army::French);
            }
            assert!(damaged.terrain().total() >= 3);
            assert!(damaged.supply_cities().len() >= 2);
            for army in Army::ALL {
                assert!(damaged.set_up_area(army).next().is_some());
            }
            // The default order of battle against the damaged map.
            let oob = OrderOfBattle::standard(damaged);
            check_lines(DEFAULT_ORDER_OF_BATTLE, &oob);
        }

        let oob_text = damage(DEFAULT_ORDER_OF_BATTLE, &mut rng);
        let text = &oob_text;
        let oob = OrderOfBattle::parse(text, &map);
        check_lines(text, &oob);
        if let Ok(oob) = &oob {
            for (_, b) in oob.blocks() {
                assert!((1..=4).contains(&b.strength));
                assert!(map.info(b.start).is_some_and(|i| i.area == b.army));
            }
        }

        let turns_text = damage(DEFAULT_TURN_TRACK, &mut rng);
        let track = TurnTrack::parse(&turns_text);
        check_lines(&turns_text, &track);
        if let Ok(track) = &track {
            assert_eq!(track.turns().first().map(|t| t.mover), Some(Mover::French));
            assert_eq!(track.turns().last().map(|t| t.mover), Some(Mover::French));
        }

        // The three together (the order of battle read without a map when the map is bad).
        if let Err(found) = Campaign::parse(&map_text, &oob_text, &turns_text) {
            for p in &found.0 {
                let text = match p.file {
                    DataFile::Map => &map_text,
                    DataFile::OrderOfBattle => &oob_text,
                    DataFile::TurnTrack => &turns_text,
                };
                assert!(p.problem.line <= text.lines().count(), "{p}");
            }
        }
    }
    // Some damage is harmless (inside a comment): those copies were checked as maps too.
    assert!(accepted > 0);
}

/// The candidate roads in the default map are ready to uncomment; a candidate town uncommented
/// without a road is reported until the owner gives it one.
#[test]
fn the_candidates_of_the_default_map_can_be_uncommented() {
    let roads = DEFAULT_MAP.replace("\n# road ", "\nroad ");
    let map = match Map::parse(&roads) {
        Ok(map) => map,
        Err(p) => panic!("the candidate roads fit the map: {p}"),
    };
    assert_eq!(
        map.graph().road_count(),
        standard_map().graph().road_count() + 15
    );
    let towns = DEFAULT_MAP.replace("\n# town ", "\ntown ");
    let problems = problems(Map::parse(&towns));
    assert_eq!(problems.len(), 10);
    let soi = line_of(&towns, "town SOI");
    assert_eq!(
        problems[0],
        format!("line {soi}: town SOI: no road; add a road or remove the town")
    );
}

/// The three files read together: every problem of all three at once, each with its file and
/// line. A broken map still lets the order of battle be checked, all but its start towns.
#[test]
fn a_campaign_reports_the_problems_of_all_three_files() {
    let campaign = match Campaign::standard() {
        Ok(c) => c,
        Err(p) => panic!("the defaults are refused together: {p}"),
    };
    assert_eq!(campaign.map().graph().town_count(), 39);
    assert_eq!(campaign.order_of_battle().len(), 58);
    assert_eq!(campaign.turn_track().last_turn(), 23);

    let map = format!("{DEFAULT_MAP}\nroad BRU XYZ broad\n");
    let map_line = map.lines().count();
    let oob = replace_line(
        DEFAULT_ORDER_OF_BATTLE,
        line_of(DEFAULT_ORDER_OF_BATTLE, "block G-INF"),
        "block G-INF french Garde infantry 5 F2 NOWHERE",
    );
    let oob_line = line_of(DEFAULT_ORDER_OF_BATTLE, "block G-INF");
    let turns = replace_line(
        DEFAULT_TURN_TRACK,
        line_of(DEFAULT_TURN_TRACK, "turn 15 F night"),
        "turn 15 N",
    );
    let turn_line = line_of(DEFAULT_TURN_TRACK, "turn 15 F night");
    let Err(found) = Campaign::parse(&map, &oob, &turns) else {
        panic!("three broken files are refused");
    };
    let files: Vec<_> = found.0.iter().map(|p| (p.file, p.problem.line)).collect();
    assert_eq!(
        files,
        [
            (DataFile::Map, map_line),
            (DataFile::OrderOfBattle, oob_line),
            (DataFile::TurnTrack, turn_line),
        ]
    );
    assert_eq!(
        found.to_string(),
        format!(
            "3 problems: map, line {map_line}: road BRU-XYZ: no town XYZ; add the town or fix \
             the code; order of battle, line {oob_line}: block G-INF: the strength must be a \
             whole number from 1 to 4, not '5'; turn track, line {turn_line}: turn 3: 'N' is \
             not a side: write F (French) or A (Allies)"
        )
    );
    // With a sound map the unknown start town is reported too.
    let Err(found) = Campaign::parse(DEFAULT_MAP, &oob, DEFAULT_TURN_TRACK) else {
        panic!("a broken order of battle is refused");
    };
    let messages: Vec<_> = found.0.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        [
            format!(
                "order of battle, line {oob_line}: block G-INF: the strength must be a whole \
                 number from 1 to 4, not '5'"
            ),
            format!(
                "order of battle, line {oob_line}: block G-INF: no town NOWHERE on the map; use \
                 a town code from the map file"
            ),
        ]
    );
}
