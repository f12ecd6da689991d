//! Rule tests of the campaign, one a rule, each quoting the rulebook (Dutch) with a gloss.

use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

use super::battle::BattleOptions;
use super::game::Phase;
use super::*;
use crate::geometry::roads::TownId;
use crate::sba::Face;
use crate::{Actor, Game, Seat, Status};

fn campaign() -> Campaign {
    Campaign::standard().expect("the default data is valid")
}

fn options(players: Players) -> Options {
    Options::new(campaign(), players)
}

/// A legal set-up far from the front: the Anglo-Dutch in Gent, Aalst, Mechelen and
/// Oudenaarde, the Prussians in Luik, Hoei, Tienen, Hannut and Marche, the French in
/// Valenciennes and Conde.
fn setup() -> Setup {
    let c = campaign();
    let mut allies = Vec::new();
    let mut french = Vec::new();
    let mut counts = [0usize; 3];
    for (_, b) in c.order_of_battle().blocks() {
        let (list, towns, i): (&mut Vec<Placement>, &[&str], usize) = match b.army {
            Army::French => (&mut french, &["VAL", "CON"], 0),
            Army::AngloDutch => (&mut allies, &["GHE", "AAL", "MEC", "OUD"], 1),
            Army::Prussian => (&mut allies, &["LIE", "HUY", "TIE", "HAN", "MAR"], 2),
        };
        let cap = if i == 0 { 12 } else { 4 };
        list.push(Placement::new(&b.name, towns[counts[i] / cap], b.strength));
        counts[i] += 1;
    }
    Setup::Placed { allies, french }
}

/// A game begun on [`setup`], then each `(block, town)` of `moves` put in its town, as a
/// position the rules reach in play.
fn start(players: Players, moves: &[(&str, &str)]) -> Napoleon {
    let mut g = Napoleon::start(options(players), setup()).expect("the test set-up is legal");
    for (name, code) in moves {
        g.town[block(name).index()] = Some(town(code));
    }
    g
}

fn town(code: &str) -> TownId {
    campaign()
        .map()
        .town(code)
        .expect("a town of the default map")
}

fn block(name: &str) -> BlockId {
    campaign()
        .order_of_battle()
        .find(name)
        .expect("a block of the default order of battle")
}

fn go(name: &str, path: &[&str]) -> Action {
    Action::Move {
        block: block(name),
        path: path.iter().map(|c| town(c)).collect(),
    }
}

fn play(g: &mut Napoleon, action: Action) -> Vec<Event> {
    let listed = g.legal_actions().contains(&action);
    match g.play(&action) {
        Ok(events) => {
            assert!(listed, "{action:?} is legal but not listed");
            events
        }
        Err(e) => panic!("{action:?} refused: {e}"),
    }
}

fn refused(g: &Napoleon, action: Action) -> Illegal {
    assert!(!g.legal_actions().contains(&action), "{action:?} is listed");
    g.check(&action).expect_err("refused")
}

/// Plays `EndMoves` until it is `turn`'s movement phase (no moves, so no battles).
fn to_turn(g: &mut Napoleon, turn: u8) {
    while g.turn() < turn {
        play(g, Action::EndMoves);
    }
}

/// "De geallieerden worden eerst geplaatst op de kaart en nadien de Fransen." (4: the Allies
/// set up first, then the French); "De geallieerde eenheden wordt geplaatst op maximale
/// sterkte in steden/gemeenten van hun keuze ten noorden van de Frans/Nederlandse grens.
/// Brits-Nederlandse eenheden worden geplaatst ten westen van de grens (bruine streep) [...]
/// Niet meer dan 4 eenheden kunnen in een gemeente of stad geplaatst worden." (4.1: at full
/// strength, north of the border, each army on its side of the brown line, at most 4 a town);
/// "Franse eenheden worden geplaatst met maximale sterkte in om het even welke Franse stad en
/// met maximaal 12 eenheden per stad." (4.2). Every problem is reported at once.
#[test]
fn a_bad_set_up_reports_every_problem_at_once() {
    let Setup::Placed {
        mut allies,
        mut french,
    } = setup()
    else {
        unreachable!()
    };
    // An Anglo-Dutch block east of the line, a Prussian one in France, one not full strength.
    allies
        .iter_mut()
        .find(|p| p.block == "AR-5DIV")
        .unwrap()
        .town = "LIG".into();
    allies
        .iter_mut()
        .find(|p| p.block == "PI-INF1")
        .unwrap()
        .town = "PHI".into();
    allies
        .iter_mut()
        .find(|p| p.block == "AR-6DIV")
        .unwrap()
        .strength = 2;
    // Seven Anglo-Dutch in one town, thirteen French in one town.
    for p in allies.iter_mut().filter(|p| p.town == "AAL") {
        p.town = "GHE".into();
    }
    for p in french.iter_mut().take(13) {
        p.town = "VAL".into();
    }
    // A French block among the Allies', an unknown block and town, one twice, one missing.
    let napoleon = french.remove(0);
    allies.push(napoleon);
    allies.push(Placement::new("NOBODY", "BRU", 1));
    french.push(Placement::new("G-INF", "ATLANTIS", 4));
    french.push(Placement::new("G-INF", "BEA", 4));
    french.retain(|p| p.block != "4CC-HA");
    let problems = Napoleon::start(options(Players::Two), Setup::Placed { allies, french })
        .expect_err("the set-up is bad")
        .0;
    let has = |p: SetupProblem| assert!(problems.contains(&p), "{p:?} not in {problems:?}");
    has(SetupProblem::WrongArea {
        block: "AR-5DIV".into(),
        town: "LIG".into(),
        army: Army::AngloDutch,
    });
    has(SetupProblem::WrongArea {
        block: "PI-INF1".into(),
        town: "PHI".into(),
        army: Army::Prussian,
    });
    has(SetupProblem::NotFullStrength {
        block: "AR-6DIV".into(),
        strength: 2,
        full: 3,
    });
    has(SetupProblem::TooMany {
        town: "GHE".into(),
        count: 7,
        cap: 4,
    });
    has(SetupProblem::WrongList {
        block: "NAPOLEON".into(),
        army: Army::French,
    });
    has(SetupProblem::UnknownBlock("NOBODY".into()));
    has(SetupProblem::Twice("G-INF".into()));
    has(SetupProblem::Missing("4CC-HA".into()));
    assert!(problems.iter().any(|p| matches!(p,
        SetupProblem::TooMany { town, count, cap: 12 } if town == "VAL" && *count >= 13)));
    let words = Problems(problems).to_string();
    assert!(words.contains("GHE"), "{words}");
}

/// The Problems wrapper, for the words.
use crate::Problems;

/// "De kaarten met slagorde geven de locaties weer waar de verschillende korpsen historisch
/// werden opgesteld [...] Plaats een aantal eenheden in naburige gemeenten om een ophoping van
/// eenheden te vermijden." (4.3: the cards give the historical start towns; spread some units
/// to neighbouring towns). Ruling `historical_exempt_from_caps`: the printed set-up stands as
/// printed (Brussel holds 6 Anglo-Dutch blocks); without the ruling it breaks the cap of 4.
#[test]
fn the_historical_set_up_stands_as_printed_under_the_ruling() {
    let g = Napoleon::start(options(Players::Two), Setup::Historical).expect("historical");
    let c = campaign();
    for (id, b) in c.order_of_battle().blocks() {
        assert_eq!(g.town_of(id), Some(b.start), "{}", b.name);
        assert_eq!(g.strength_of(id), b.strength, "{}", b.name);
    }
    let mut strict = options(Players::Two);
    strict.historical_exempt_from_caps = false;
    let problems = Napoleon::start(strict, Setup::Historical)
        .expect_err("caps")
        .0;
    assert!(problems.contains(&SetupProblem::TooMany {
        town: "BRU".into(),
        count: 6,
        cap: 4
    }));
}

/// "Het spel wordt gespeeld in beurten waarbij de Frans (F) eerst aan zet zijn gevolgd door de
/// geallieerden (A). Zwarte vakken stellen beurten voor tijdens de nacht." (2: the French move
/// first, then the Allies; black boxes are night turns). The game follows the turn track and
/// ends after its last box.
#[test]
fn turns_follow_the_track() {
    let mut g = start(Players::Two, &[]);
    assert_eq!((g.turn(), g.to_act()), (1, Actor::Seat(Seat::FIRST)));
    play(&mut g, Action::EndMoves);
    assert_eq!((g.turn(), g.to_act()), (2, Actor::Seat(Seat::SECOND)));
    play(&mut g, Action::EndMoves);
    assert_eq!(g.turn(), 3);
    assert!(g.view(Seat::FIRST).night, "turn 3 is the first night");
    let last = campaign().turn_track().last_turn();
    to_turn(&mut g, last);
    let events = play(&mut g, Action::EndMoves);
    assert!(events.contains(&Event::Ended(EndReason::TimeRanOut)));
    assert_eq!(g.to_act(), Actor::Nobody);
}

/// "De Fransen mogen 2 groepen verplaatsen per beurt." (5.1: the French move 2 groups a turn);
/// "Alle eenheden in dezelfde stad of gemeente worden beschouwd als een groep. Elke of alle
/// eenheden van een groep mogen zich verplaatsen naar naburige steden" (a group is the units in
/// one town; any or all of them may move to neighbouring towns, not necessarily the same one).
#[test]
fn the_french_move_two_groups() {
    let mut g = start(
        Players::Two,
        &[
            ("I-INF1", "SOL"),
            ("I-INF2", "SOL"),
            ("II-INF1", "BEA"),
            ("IV-INF", "PHI"),
        ],
    );
    play(&mut g, go("I-INF1", &["MAU"]));
    play(&mut g, go("I-INF2", &["BEA"]));
    play(&mut g, go("II-INF1", &["SOL"]));
    assert_eq!(
        refused(&g, go("IV-INF", &["LAN"])),
        Illegal::NoGroupLeft { max: 2 }
    );
    // Each block moves once a turn, even from its new town.
    assert_eq!(refused(&g, go("I-INF1", &["SOL"])), Illegal::AlreadyMoved);
}

/// "De geallieerden mogen 1 Engelse en 1 Pruisische groep verplaatsen per beurt. [...] De
/// geallieerde speler kan geen Brits-Nederlandse verplaatsing ruilen voor een Pruisische
/// verplaatsing (of omgekeerd)." (5.1: the Allies move one Anglo-Dutch and one Prussian group,
/// and cannot trade one for the other); "indien beide geallieerden zich in dezelfde stad
/// bevinden worden de twee beurten opgebruikt" (both armies in one town use both moves).
#[test]
fn the_allies_move_one_group_of_each_army() {
    let mut g = start(
        Players::Two,
        &[
            ("AI-2NL", "NIV"),
            ("AI-3NL", "MON"),
            ("PI-INF1", "CHA"),
            ("PI-INF2", "NAM"),
        ],
    );
    play(&mut g, Action::EndMoves);
    play(&mut g, go("AI-2NL", &["QB"]));
    assert_eq!(
        refused(&g, go("AI-3NL", &["BLC"])),
        Illegal::NoGroupLeft { max: 1 }
    );
    play(&mut g, go("PI-INF1", &["LIG"]));
    assert_eq!(
        refused(&g, go("PI-INF2", &["GEM"])),
        Illegal::NoGroupLeft { max: 1 }
    );
}

/// "Eenheden mogen zich verplaatsen doorheen locaties met bevriende eenheden maar moeten
/// stoppen en slag leveren in locaties waar zich vijandelijke eenheden bevinden. Dergelijke
/// verplaatsing is een aanval." (5: units pass through friends but stop and fight where the
/// enemy stands: that move is an attack); "Leiders, cavalerie en artillerie te paard kunnen
/// zich twee steden en/of gemeenten verplaatsen" (5.3: cavalry moves two towns).
#[test]
fn units_pass_through_friends_and_stop_on_enemies() {
    let mut g = start(
        Players::Two,
        &[
            ("G-CAV", "BEA"),
            ("G-INF", "CHA"),
            ("PI-INF1", "QB"),
            ("PI-INF2", "THU"),
        ],
    );
    // Through the Guard in Charleroi to Ligny.
    play(&mut g, go("G-CAV", &["CHA", "LIG"]));
    // Through Thuin, where the Prussians stand, is not allowed.
    let mut h = start(
        Players::Two,
        &[("G-CAV", "BEA"), ("PI-INF2", "THU"), ("PI-INF1", "QB")],
    );
    assert_eq!(
        refused(&h, go("G-CAV", &["THU", "BIN"])),
        Illegal::ThroughEnemy
    );
    // Into Thuin is an attack.
    let events = play(&mut h, go("G-CAV", &["THU"]));
    assert!(matches!(
        events[0],
        Event::Moved {
            attack: true,
            forced: false,
            ..
        }
    ));
}

/// "Infanterie en artillerie kunnen zich enkel verplaatsen naar de naastliggende steden of
/// gemeenten. Leiders, cavalerie en artillerie te paard kunnen zich twee steden en/of gemeenten
/// verplaatsen" (5.3: infantry and artillery one town, leaders, cavalry and horse artillery
/// two); "Infanterie en artillerie kunnen dan twee steden verder worden verplaatst en leiders,
/// cavalerie en artillerie te paard drie steden." (5.6: by forced march two and three).
#[test]
fn distances_depend_on_the_type() {
    let mut g = start(
        Players::Two,
        &[
            ("G-INF", "BEA"),
            ("G-CAV", "BEA"),
            ("G-ART1", "BEA"),
            ("G-ART2", "BEA"),
        ],
    );
    let walk = |g: &mut Napoleon, name: &str, path: &[&str], forced: bool| {
        let events = play(g, go(name, path));
        assert!(
            matches!(events[0], Event::Moved { forced: f, .. } if f == forced),
            "{name} {path:?}: {events:?}"
        );
    };
    assert_eq!(
        refused(&g, go("G-INF", &["CHA", "QB", "WAT"])),
        Illegal::TooFar { max: 2 }
    );
    assert_eq!(
        refused(&g, go("G-CAV", &["CHA", "QB", "WAT", "BRU"])),
        Illegal::TooFar { max: 3 }
    );
    // A path wrong for a reason the table sees is refused for it whatever the block's reach:
    // the refusal never tells a slow block from a fast one.
    for name in ["G-INF", "G-CAV"] {
        assert_eq!(
            refused(&g, go(name, &["CHA", "QB", "CHA"])),
            Illegal::Revisits,
            "{name}"
        );
    }
    walk(&mut g, "G-INF", &["CHA"], false);
    walk(&mut g, "G-ART1", &["CHA", "QB"], true);
    walk(&mut g, "G-CAV", &["CHA", "QB"], false);
    walk(&mut g, "G-ART2", &["CHA", "QB", "NIV"], true);
}

/// "Brede weg: 8 / Smalle weg: 6 / Eens het maximale aantal eenheden zich via een weg heeft
/// verplaatst kan deze weg niet meer gebruikt worden" (5.4: 8 units a turn along a broad road,
/// 6 along a narrow one; then the road is closed to moves).
#[test]
fn roads_carry_eight_or_six_a_turn() {
    let french: Vec<(&str, &str)> = [
        "G-INF", "III-INF1", "III-INF2", "III-ART", "VI-INF", "VI-ART", "G-ART1", "1CC-HA",
        "I-INF1",
    ]
    .into_iter()
    .map(|n| (n, "BEA"))
    .collect();
    let mut g = start(Players::Two, &french);
    // Beaumont-Charleroi is broad (8), across the Sambre, but no one defends Charleroi.
    for (name, _) in &french[..8] {
        play(&mut g, go(name, &["CHA"]));
    }
    assert_eq!(
        refused(&g, go("I-INF1", &["CHA"])),
        Illegal::RoadFull { limit: 8 }
    );
    // Beaumont-Solre is narrow (6).
    let mut h = start(Players::Two, &french);
    for (name, _) in &french[..6] {
        play(&mut h, go(name, &["SOL"]));
    }
    assert_eq!(
        refused(&h, go("G-ART1", &["SOL"])),
        Illegal::RoadFull { limit: 6 }
    );
}

/// "Wanneer men aanvalt over een rivier dan wordt het maximaal aantal eenheden dat zich kan
/// verplaatsen gehalveerd (4 voor een brede weg en 3 voor een smalle weg). Voorbeeld: 8 Franse
/// eenheden kunnen zich onder normale omstandigheden verplaatsen via de (brede) weg van Laneffe
/// naar Charleroi. Indien Charleroi echter wordt verdedigd door een Pruisische eenheid dan
/// kunnen enkel 4 Franse eenheden Charleroi aanvallen via deze weg." (5.5, the rulebook's own
/// example); "Eenheden worden enkel beperkt door de rivier van de laatste weg die men gebruikt
/// voor de aanval." (only the last road's river counts).
#[test]
fn attacking_across_a_river_halves_the_road() {
    let french: Vec<(&str, &str)> = ["IV-INF", "IV-ART", "2CC-CAV", "3CC-CAV", "4CC-CAV"]
        .into_iter()
        .map(|n| (n, "LAN"))
        .chain([("PI-INF1", "CHA"), ("G-CAV", "PHI")])
        .collect();
    let mut g = start(Players::Two, &french);
    for name in ["IV-INF", "IV-ART", "2CC-CAV", "3CC-CAV"] {
        play(&mut g, go(name, &["CHA"]));
    }
    assert_eq!(
        refused(&g, go("4CC-CAV", &["CHA"])),
        Illegal::RiverLimit { limit: 4 }
    );
    // Without a defender, the same road carries all of them (5.4).
    let mut h = start(
        Players::Two,
        &french
            .iter()
            .copied()
            .filter(|(n, _)| *n != "PI-INF1")
            .collect::<Vec<_>>(),
    );
    for name in ["IV-INF", "IV-ART", "2CC-CAV", "3CC-CAV", "4CC-CAV"] {
        play(&mut h, go(name, &["CHA"]));
    }
    // The last road counts: Philippeville-Laneffe-Charleroi ends on the river road, so the
    // Guard cavalry would be the fifth attacker along it.
    assert_eq!(
        refused(&g, go("G-CAV", &["LAN", "CHA"])),
        Illegal::RiverLimit { limit: 4 }
    );
}

/// "Twee groepen mogen niet dezelfde groep aanvallen behalve wanneer beide groepen zich naast
/// de verdedigende groep bevinden en met elkaar direct verbonden zijn via een weg." (5.2: two
/// groups may attack the same group only if both are next to it and joined to each other by a
/// road). The rulebook's examples: the French in Nijvel and Quatre Bras may attack Waterloo
/// together; the French in Waver may not join either; the Allies in Waterloo and Ligny may not
/// attack Quatre Bras together.
#[test]
fn command_control_limits_joint_attacks() {
    let mut g = start(
        Players::Two,
        &[
            ("I-INF1", "NIV"),
            ("II-INF1", "QB"),
            ("IV-INF", "WAV"),
            ("AR-5DIV", "WAT"),
            ("AR-6DIV", "WAT"),
            ("AR-BK", "WAT"),
        ],
    );
    play(&mut g, go("I-INF1", &["WAT"]));
    play(&mut g, go("II-INF1", &["WAT"]));
    let mut h = start(
        Players::Two,
        &[
            ("I-INF1", "NIV"),
            ("IV-INF", "WAV"),
            ("AR-5DIV", "WAT"),
            ("AR-6DIV", "WAT"),
        ],
    );
    play(&mut h, go("I-INF1", &["WAT"]));
    assert_eq!(refused(&h, go("IV-INF", &["WAT"])), Illegal::CommandControl);

    let mut a = start(
        Players::Two,
        &[
            ("I-INF1", "QB"),
            ("AR-5DIV", "WAT"),
            ("PI-INF1", "LIG"),
            ("I-INF2", "BEA"),
        ],
    );
    play(&mut a, Action::EndMoves);
    play(&mut a, go("AR-5DIV", &["QB"]));
    assert_eq!(refused(&a, go("PI-INF1", &["QB"])), Illegal::CommandControl);
}

/// "Voor iedere eenheid die een geforceerde mars uitvoert moet er wel met een dobbelsteen
/// worden geworpen. 1-3: de eenheid voert de geforceerde mars uit maar verliest 1 sterkte door
/// achterblijvers. Eliminatie van deze eenheid is mogelijk. 4-6: [...] zonder negatieve
/// effecten. Belangrijk: voer alle geforceerde marsen uit vooraleer te werpen" (5.6: a die for
/// each forced march, 1-3 loses a strength step, perhaps eliminating the unit; all forced
/// marches are made before the dice).
#[test]
fn forced_marches_roll_after_all_moves() {
    let mut g = start(
        Players::Two,
        &[("I-INF1", "SOL"), ("I-ART", "SOL"), ("NAPOLEON", "VAL")],
    );
    play(&mut g, go("I-INF1", &["BEA", "PHI"]));
    play(&mut g, go("I-ART", &["BEA", "PHI"]));
    assert_eq!(
        g.to_act(),
        Actor::Seat(Seat::FIRST),
        "no die before the moves end"
    );
    play(&mut g, Action::EndMoves);
    // Napoleon, away in Valenciennes, is asked all the same (see
    // `whether_a_leader_is_asked_tells_nothing_of_where_he_stands`).
    assert_eq!(g.phase, Phase::ShowLeader(Army::French));
    play(&mut g, Action::ShowLeader(false));
    assert_eq!(g.to_act(), Actor::Chance);
    let faces: Vec<(Action, u32)> = Face::ALL.into_iter().map(|f| (Action::Die(f), 1)).collect();
    assert_eq!(g.chance_outcomes(), faces);
    rolls_a_bare_3(&mut g, "I-INF1");
    assert_eq!(g.strength_of(block("I-INF1")), 3);
    // I-ART (strength 2) survives a 4.
    play(&mut g, Action::Die(Face::new(4).unwrap()));
    assert_eq!(g.strength_of(block("I-ART")), 2);
    assert_eq!(g.turn(), 2);

    // A strength-1 block is eliminated by stragglers, and counts as lost (10).
    let mut h = start(Players::Two, &[("WELLINGTON", "OUD")]);
    play(&mut h, Action::EndMoves);
    play(&mut h, go("WELLINGTON", &["GHE", "AAL", "BRU"]));
    play(&mut h, Action::EndMoves);
    assert_eq!(h.phase, Phase::ShowLeader(Army::AngloDutch));
    play(&mut h, Action::ShowLeader(false));
    let events = play(&mut h, Action::Die(Face::new(1).unwrap()));
    assert!(events.contains(&Event::Eliminated {
        block: block("WELLINGTON"),
        army: Army::AngloDutch
    }));
    assert_eq!(h.eliminated(Army::AngloDutch), 1);
}

/// "Een leider die zich bekend maakt mag +1 toevoegen aan de worp van alle eenheden die zich in
/// dezelfde stad of gemeente bevinden" (8.1: a leader who shows himself adds +1 for the units in
/// his town), and "Dit voorkomt dat de spelers de type en sterkte van de vijandelijke eenheden
/// zien" (3.2: the players do not see the type and strength of enemy units): the owner of an
/// army with a forced marcher is asked whether its leader shows himself wherever he stands, so
/// the question tells the enemy nothing; shown away from the forced marchers, he helps none.
#[test]
fn whether_a_leader_is_asked_tells_nothing_of_where_he_stands() {
    let after_the_moves = |napoleon: &str| {
        let mut g = start(Players::Two, &[("NAPOLEON", napoleon), ("I-INF1", "BEA")]);
        play(&mut g, go("I-INF1", &["PHI", "LAN"]));
        play(&mut g, Action::EndMoves);
        g
    };
    let with = after_the_moves("LAN");
    let away = after_the_moves("VAL");
    for g in [&with, &away] {
        assert_eq!(g.phase, Phase::ShowLeader(Army::French));
        assert_eq!(
            g.legal_actions(),
            vec![Action::ShowLeader(true), Action::ShowLeader(false)]
        );
    }
    // Shown in Valenciennes, away from the forced marcher: no +1 on its die.
    let mut g = away;
    let events = play(&mut g, Action::ShowLeader(true));
    assert!(events.contains(&Event::LeaderShown {
        army: Army::French,
        town: town("VAL")
    }));
    rolls_a_bare_3(&mut g, "I-INF1");
    // Napoleon fallen (unseen, say by a forced march's last step): asked all the same, and
    // showing him helps nobody.
    let mut f = start(Players::Two, &[("NAPOLEON", "LAN"), ("I-INF1", "BEA")]);
    let mut fell = Vec::new();
    f.eliminate(block("NAPOLEON"), &mut fell);
    play(&mut f, go("I-INF1", &["PHI", "LAN"]));
    play(&mut f, Action::EndMoves);
    assert_eq!(f.phase, Phase::ShowLeader(Army::French));
    let events = play(&mut f, Action::ShowLeader(true));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::LeaderShown { .. })),
        "{events:?}"
    );
    rolls_a_bare_3(&mut f, "I-INF1");
    // An army with no forced marcher is not asked.
    let mut h = start(Players::Two, &[("NAPOLEON", "LAN"), ("I-INF1", "BEA")]);
    play(&mut h, go("I-INF1", &["PHI"]));
    play(&mut h, Action::EndMoves);
    assert!(!matches!(h.phase, Phase::ShowLeader(_)), "{:?}", h.phase);
}

/// "Een leider die zich bekend maakt mag +1 toevoegen aan de worp van alle eenheden die zich in
/// dezelfde stad of gemeente bevinden. Ook aan zichzelf" (8.1: a leader who shows himself adds
/// +1 to the forced-march die of every unit in his town, himself included); "Blücher kan enkel
/// Pruisische eenheden bevelen en Wellington enkel Brits-Nederlandse eenheden." (8: each
/// commands only his own army).
#[test]
fn a_shown_leader_helps_his_own_army_only() {
    let mut g = start(Players::Two, &[("NAPOLEON", "SOL"), ("I-INF1", "BEA")]);
    play(&mut g, go("NAPOLEON", &["BEA", "PHI", "LAN"]));
    play(&mut g, go("I-INF1", &["PHI", "LAN"]));
    play(&mut g, Action::EndMoves);
    assert_eq!(g.to_act(), Actor::Seat(Seat::FIRST));
    let events = play(&mut g, Action::ShowLeader(true));
    assert!(events.contains(&Event::LeaderShown {
        army: Army::French,
        town: town("LAN")
    }));
    // 3 + 1 = 4: no loss, for the leader and the infantry alike.
    for name in ["NAPOLEON", "I-INF1"] {
        let events = play(&mut g, Action::Die(Face::new(3).unwrap()));
        assert!(
            events.contains(&Event::ForcedMarch {
                block: block(name),
                face: Face::new(3).unwrap(),
                bonus: true,
                lost: false
            }),
            "{events:?}"
        );
    }
    // Wellington cannot help a Prussian: only Blücher, away, is asked (the Anglo-Dutch have no
    // forced marcher), and the Prussian rolls bare.
    let mut h = start(Players::Two, &[("WELLINGTON", "NIV"), ("PI-CAV", "BIN")]);
    play(&mut h, Action::EndMoves);
    play(&mut h, go("PI-CAV", &["NIV", "BLC", "HAL"]));
    play(&mut h, go("WELLINGTON", &["BLC", "HAL"]));
    play(&mut h, Action::EndMoves);
    assert_eq!(h.phase, Phase::ShowLeader(Army::Prussian));
    play(&mut h, Action::ShowLeader(false));
    assert_eq!(h.to_act(), Actor::Chance, "no leader choice for Wellington");
    let events = play(&mut h, Action::Die(Face::new(3).unwrap()));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::ForcedMarch {
            bonus: false,
            lost: true,
            ..
        }
    )));
}

/// "Spelers kunnen elke normale verplaatsing uitvoeren [...] maar kunnen niet aanvallen of een
/// geforceerde mars uitvoeren." (5.7: at night, normal moves only: no attack, no forced march).
#[test]
fn night_turns_allow_no_attack_and_no_forced_march() {
    let mut g = start(
        Players::Two,
        &[("G-CAV", "BEA"), ("G-INF", "SOL"), ("PI-INF1", "THU")],
    );
    to_turn(&mut g, 3);
    assert!(g.view(Seat::FIRST).night);
    assert_eq!(refused(&g, go("G-CAV", &["THU"])), Illegal::NoAttackAtNight);
    assert_eq!(
        refused(&g, go("G-INF", &["BEA", "PHI"])),
        Illegal::TooFar { max: 1 }
    );
    assert_eq!(
        refused(&g, go("G-CAV", &["CHA", "QB", "NIV"])),
        Illegal::TooFar { max: 2 }
    );
    play(&mut g, go("G-CAV", &["CHA", "QB"]));
}

/// "Een veldslag vindt plaats wanneer een speler eenheden verplaatst naar een stad of gemeente
/// waar zich vijandelijke eenheden bevinden. [...] Noot: indien ofwel de aanvaller of de
/// verdediger minder dan 3 eenheden heeft op het slagveld dan volgt een schermutseling" (6.1: a
/// move into enemies starts a battle, a skirmish when either side has fewer than 3 units);
/// "Alle schermutselingen worden beslecht alvorens er een veldslag plaatsvindt en dat in een
/// volgorde bepaald door de aanvaller." (6.6: skirmishes first, in the attacker's order).
#[test]
fn moving_into_enemies_starts_a_battle_or_a_skirmish() {
    let mut g = start(
        Players::Two,
        &[
            ("G-INF", "BEA"),
            ("G-CAV", "BEA"),
            ("G-ART1", "BEA"),
            ("IV-INF", "PHI"),
            ("PI-INF1", "CHA"),
            ("PI-INF2", "CHA"),
            ("PI-ART", "CHA"),
            ("PIII-INF2", "DIN"),
        ],
    );
    for name in ["G-INF", "G-CAV", "G-ART1"] {
        play(&mut g, go(name, &["CHA"]));
    }
    play(&mut g, go("IV-INF", &["DIN"]));
    let events = play(&mut g, Action::EndMoves);
    assert!(events.contains(&Event::BattlePending {
        town: town("CHA"),
        skirmish: false
    }));
    assert!(events.contains(&Event::BattlePending {
        town: town("DIN"),
        skirmish: true
    }));
    // The skirmish is fought first.
    assert!(events.contains(&Event::BattleBegan {
        town: town("DIN"),
        skirmish: true
    }));
    assert_eq!(g.pending_battles(), &[town("CHA")]);
}

/// "Indien de Fransen een dergelijke stad met minstens 1 eenheid bezetten wordt het geallieerde
/// leger verminderd als volgt: Gent: Brits-Nederlands leger -1 eenheid / Brussel:
/// Brits-Nederlands leger -1 eenheid / Luik: Pruisisch leger -2 eenheden. De eenheden die in
/// mindering gebracht worden, worden bepaald door de geallieerde speler op het einde van elke
/// Franse beurt" (9: a supply city held by at least one French unit costs its army units,
/// chosen by the Allied player, at the end of each French turn); not in Allied turns (2.3).
#[test]
fn french_in_a_supply_city_cost_the_allies_units() {
    let mut g = start(Players::Three, &[("G-CAV", "HAL")]);
    play(&mut g, go("G-CAV", &["BRU"]));
    let events = play(&mut g, Action::EndMoves);
    assert!(events.contains(&Event::SupplyCut {
        city: town("BRU"),
        army: Army::AngloDutch,
        loss: 1
    }));
    assert_eq!(
        g.to_act(),
        Actor::Seat(Seat::SECOND),
        "the Anglo-Dutch player chooses"
    );
    assert_eq!(
        g.check(&Action::SupplyLoss(block("PI-INF1"))),
        Err(Illegal::NotOwingArmy)
    );
    let events = play(&mut g, Action::SupplyLoss(block("AR-NAS")));
    assert!(events.contains(&Event::Eliminated {
        block: block("AR-NAS"),
        army: Army::AngloDutch
    }));
    assert_eq!(g.eliminated(Army::AngloDutch), 1);
    // The Allied turn costs nothing.
    assert_eq!(g.turn(), 2);
    play(&mut g, Action::EndMoves);
    let events = play(&mut g, Action::EndMoves);
    assert!(!events.iter().any(|e| matches!(e, Event::SupplyCut { .. })));
    // The next French turn costs again, as long as the French stay.
    assert_eq!(g.turn(), 3);
    play(&mut g, Action::EndMoves);
    assert!(matches!(
        g.phase,
        Phase::Supply {
            army: Army::AngloDutch,
            owed: 1
        }
    ));
}

/// 9: "Luik: Pruisisch leger -2 eenheden. De eenheden die in mindering gebracht worden,
/// worden bepaald door de geallieerde speler" (Luik costs the Prussian army 2 units, chosen
/// by the Allied player). With three players the Prussian seat picks both, one at a time.
#[test]
fn luik_costs_the_prussians_two_units() {
    let mut g = start(Players::Three, &[("G-CAV", "HUY")]);
    let (lie, huy) = (town("LIE"), town("HUY"));
    // The Prussians of Luik stand in Hoei instead; the French cavalry rides into Luik.
    let in_luik: Vec<BlockId> = g.blocks_in(lie).collect();
    for b in &in_luik {
        g.town[b.index()] = Some(huy);
    }
    g.town[block("G-CAV").index()] = Some(town("HAN"));
    for b in g.blocks_in(town("HAN")).collect::<Vec<_>>() {
        if g.army_of(b) == Some(Army::Prussian) {
            g.town[b.index()] = Some(town("TIE"));
        }
    }
    play(&mut g, go("G-CAV", &["LIE"]));
    let events = play(&mut g, Action::EndMoves);
    assert!(events.contains(&Event::SupplyCut {
        city: lie,
        army: Army::Prussian,
        loss: 2
    }));
    assert!(matches!(
        g.phase,
        Phase::Supply {
            army: Army::Prussian,
            owed: 2
        }
    ));
    assert_eq!(
        g.to_act(),
        Actor::Seat(Seat::THIRD),
        "the Prussian player chooses"
    );
    play(&mut g, Action::SupplyLoss(in_luik[0]));
    assert_eq!(g.to_act(), Actor::Seat(Seat::THIRD), "one more to choose");
    play(&mut g, Action::SupplyLoss(in_luik[1]));
    assert_eq!(g.eliminated(Army::Prussian), 2);
    assert_eq!(g.eliminated(Army::AngloDutch), 0);
    assert_eq!(g.turn(), 2);
}

/// 9: "De bezetting van zo'n bevoorradingsstad moet gehandhaafd worden door minstens één (1)
/// Franse eenheid om effectief te blijven. Indien de bevoorradingsstad heroverd wordt door de
/// geallieerden, stoppen de verliezen." (The occupation must be kept by at least one French
/// unit; if the Allies recapture the city, the losses stop.) The French cavalry in Brussel
/// costs a unit; the Anglo-Dutch throw it out in their turn; the next French turn costs
/// nothing.
#[test]
fn a_recaptured_supply_city_costs_no_more() {
    let mut g = start(Players::Three, &[("G-CAV", "HAL")]);
    let bru = town("BRU");
    play(&mut g, go("G-CAV", &["BRU"]));
    let events = play(&mut g, Action::EndMoves);
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::SupplyCut { city, .. } if *city == bru)));
    let oud = g
        .blocks_in(town("OUD"))
        .next()
        .expect("a block in Oudenaarde");
    play(&mut g, Action::SupplyLoss(oud));
    // The Allied turn: the Anglo-Dutch of Aalst attack Brussel, a skirmish (6.6) the lone
    // French block loses.
    assert_eq!(g.turn(), 2);
    for b in g.blocks_in(town("AAL")).collect::<Vec<_>>() {
        play(
            &mut g,
            Action::Move {
                block: b,
                path: vec![bru],
            },
        );
    }
    play(&mut g, Action::EndMoves);
    play(&mut g, Action::EndMoves);
    for _ in 0..500 {
        if g.turn() == 3 {
            break;
        }
        let legal = g.legal_actions();
        let done = Action::Battle(battle::BattleAction::Done);
        let action = match g.to_act() {
            Actor::Chance => g.chance_outcomes()[0].0.clone(),
            _ if legal.contains(&done) => done,
            _ => legal[0].clone(),
        };
        play(&mut g, action);
    }
    assert_eq!(g.turn(), 3);
    assert!(g
        .blocks_in(bru)
        .all(|b| g.army_of(b) == Some(Army::AngloDutch)));
    assert_eq!(g.eliminated(Army::AngloDutch), 1);
    // The French turn ends with Brussel Allied: no loss.
    let events = play(&mut g, Action::EndMoves);
    assert!(!events.iter().any(|e| matches!(e, Event::SupplyCut { .. })));
    assert!(!matches!(g.phase, Phase::Supply { .. }));
    assert_eq!(g.eliminated(Army::AngloDutch), 1);
}

/// 9: "Indien de Fransen een dergelijke stad met minstens 1 eenheid bezetten wordt het
/// geallieerde leger verminderd als volgt: Gent: Brits-Nederlands leger -1 eenheid" (while the
/// French hold such a city with at least one unit, the Allied army is reduced: Gent, the
/// Anglo-Dutch army -1 unit). "Eenheid" is a unit; the ruling `supply_loss: Steps` reads it as
/// one strength step instead of a whole block.
#[test]
fn the_supply_loss_ruling_can_take_steps() {
    let mut o = options(Players::Two);
    o.supply_loss = SupplyLoss::Steps;
    let mut g = Napoleon::start(o, setup()).expect("legal");
    g.town[block("G-CAV").index()] = Some(town("HAL"));
    play(&mut g, go("G-CAV", &["BRU"]));
    play(&mut g, Action::EndMoves);
    play(&mut g, Action::SupplyLoss(block("AR-5DIV")));
    assert_eq!(g.strength_of(block("AR-5DIV")), 3);
    assert_eq!(g.eliminated(Army::AngloDutch), 0);
}

/// The next forced-march die is a 3 for `name`, with no leader's +1: it loses a step.
fn rolls_a_bare_3(g: &mut Napoleon, name: &str) {
    let events = play(g, Action::Die(Face::new(3).unwrap()));
    assert!(
        events.contains(&Event::ForcedMarch {
            block: block(name),
            face: Face::new(3).unwrap(),
            bonus: false,
            lost: true
        }),
        "{events:?}"
    );
}

/// Plays the end of the moves (or the first legal action) until the game ends; its events.
fn play_until_ended(g: &mut Napoleon) -> Vec<Event> {
    let mut events = Vec::new();
    for _ in 0..100 {
        if g.status() != Status::Ongoing {
            return events;
        }
        let legal = g.legal_actions();
        let action = legal
            .iter()
            .find(|a| **a == Action::EndMoves)
            .or(legal.first())
            .cloned()
            .expect("a legal action while the game goes on");
        events.extend(play(g, action));
    }
    panic!("no end in 100 actions: {:?}", g.status());
}

/// Eliminates `n` blocks of `army` through the game's own elimination.
fn lose(g: &mut Napoleon, army: Army, n: usize) {
    let ids: Vec<BlockId> = g
        .on_map()
        .filter(|&(_, a, _)| a == army)
        .map(|(id, _, _)| id)
        .take(n)
        .collect();
    let mut events = Vec::new();
    for id in ids {
        g.eliminate(id, &mut events);
    }
}

/// "Het Brits-Nederlandse leger is verslagen wanneer acht (8) of meer eenheden werden
/// vernietigd. Het Pruisische leger is verslagen wanneer negen (9) of meer eenheden werden
/// vernietigd." / "De Fransen winnen indien ze beide geallieerde legers verslaan" / "Alle
/// resterende eenheden van een verslagen leger worden geëlimineerd." (10.1, 10: the French win
/// by defeating both Allied armies, 8 Anglo-Dutch or 9 Prussian units lost; a defeated army's
/// remaining units are eliminated). Defeats are found at the end of the turn.
#[test]
fn the_french_win_by_defeating_both_allied_armies() {
    let mut g = start(Players::Three, &[]);
    lose(&mut g, Army::AngloDutch, 8);
    lose(&mut g, Army::Prussian, 8);
    assert!(
        g.status().is_ongoing(),
        "defeats are found at the end of the turn"
    );
    let events = play(&mut g, Action::EndMoves);
    assert!(events.contains(&Event::Defeated(Army::AngloDutch)));
    assert!(!events.contains(&Event::Defeated(Army::Prussian)));
    assert!(!g.on_map().any(|(_, a, _)| a == Army::AngloDutch));
    // The Prussians move alone in the Allied turn; their ninth loss ends the game.
    assert_eq!(g.to_act(), Actor::Seat(Seat::THIRD));
    lose(&mut g, Army::Prussian, 1);
    let events = play(&mut g, Action::EndMoves);
    assert!(events.contains(&Event::Ended(EndReason::AlliesDefeated)));
    assert_eq!(
        g.status(),
        Status::Won {
            winner: Seat::FIRST,
            reason: EndReason::AlliesDefeated
        }
    );
    assert_eq!(g.winners(), [Seat::FIRST]);
    assert!(!EndReason::AlliesDefeated.allies_won());
}

/// 10.2: "De geallieerden winnen wanneer ze twaalf (12) of meer Franse eenheden vernietigen."
/// (The Allies win when they destroy 12 or more French units.) With three players (11: "Twee
/// spelers voeren het bevel over de geallieerden: een Pruisische en een Britse") the Allies are
/// two seats, and an Allied win is both seats' win, not the Anglo-Dutch seat's alone. The old
/// code named only seat 1 (`Status::Won`'s one seat) and had no way to say the side.
#[test]
fn an_allied_win_names_both_allied_seats_with_three_players() {
    let mut g = start(Players::Three, &[]);
    assert_eq!(g.winners(), [], "no winner while the game goes on");
    lose(&mut g, Army::French, 12);
    play(&mut g, Action::EndMoves);
    assert!(!g.status().is_ongoing());
    assert_eq!(g.winners(), [Seat::SECOND, Seat::THIRD]);
    assert!(EndReason::FrenchDefeated.allies_won());
    assert_eq!(
        EndReason::TimeRanOut.winning_armies(),
        [Army::AngloDutch, Army::Prussian]
    );
    // The French alone win theirs, with three players too.
    let mut h = start(Players::Three, &[]);
    lose(&mut h, Army::AngloDutch, 8);
    lose(&mut h, Army::Prussian, 9);
    play(&mut h, Action::EndMoves);
    assert_eq!(h.winners(), [Seat::FIRST]);
    assert_eq!(EndReason::AlliesDefeated.winning_armies(), [Army::French]);
}

/// "De geallieerden winnen wanneer ze twaalf (12) of meer Franse eenheden vernietigen."
/// (10.2: the Allies win by eliminating 12 French units); "De Fransen winnen ook indien alle
/// drie legers gelijktijdig zouden worden verslagen." (10.1: the French win if all three are
/// defeated at once).
#[test]
fn the_allies_win_by_defeating_the_french_unless_all_fall_together() {
    let mut g = start(Players::Two, &[]);
    lose(&mut g, Army::French, 12);
    play(&mut g, Action::EndMoves);
    assert_eq!(
        g.status(),
        Status::Won {
            winner: Seat::SECOND,
            reason: EndReason::FrenchDefeated
        }
    );
    // One Allied player: the win is his seat's.
    assert_eq!(g.winners(), [Seat::SECOND]);
    let mut h = start(Players::Two, &[]);
    lose(&mut h, Army::French, 12);
    lose(&mut h, Army::AngloDutch, 8);
    lose(&mut h, Army::Prussian, 9);
    let events = play(&mut h, Action::EndMoves);
    // Its own ending: the French win although the Allies destroyed 12 French units.
    assert!(events.contains(&Event::Ended(EndReason::AllDefeated)));
    assert_eq!(
        h.status(),
        Status::Won {
            winner: Seat::FIRST,
            reason: EndReason::AllDefeated
        }
    );
    assert_eq!(h.winners(), [Seat::FIRST]);
    assert!(!EndReason::AllDefeated.allies_won());
    assert_eq!(EndReason::AllDefeated.winning_armies(), [Army::French]);
    // Not at once: the Anglo-Dutch fell a turn before the Prussians and the French fell
    // together. The French win by ruling, and the words do not say "at once".
    let mut k = start(Players::Two, &[]);
    lose(&mut k, Army::AngloDutch, 8);
    let events = play(&mut k, Action::EndMoves);
    assert!(events.contains(&Event::Defeated(Army::AngloDutch)));
    assert_eq!(k.status(), Status::Ongoing);
    lose(&mut k, Army::French, 12);
    lose(&mut k, Army::Prussian, 9);
    let reason = EndReason::LastAllyFellWithTheFrench;
    let events = play_until_ended(&mut k);
    assert!(events.contains(&Event::Ended(reason)), "{events:?}");
    assert_eq!(
        k.status(),
        Status::Won {
            winner: Seat::FIRST,
            reason
        }
    );
    assert!(!reason.to_string().contains("at once"));
}

/// "De Fransen kunnen ook winnen als ze ongeslagen zijn en twee geallieerde
/// bevoorradingssteden (Gent, Brussel, Luik) bezetten achter de beurt van Frankrijk van 22 juni
/// 1815." (10.1: undefeated French holding two supply cities after the French turn of 22 June
/// win); "De Fransen verliezen als ze geen eindzege halen voordat de toegestane tijd is
/// verstreken" (10.2: otherwise they lose when time runs out).
#[test]
fn two_supply_cities_after_the_last_french_turn_win() {
    let last = campaign().turn_track().last_turn();
    let gent: Vec<BlockId> = campaign()
        .order_of_battle()
        .army(Army::AngloDutch)
        .map(|(id, _)| id)
        .take(4)
        .collect();
    for (cities, reason) in [
        (&["BRU", "GHE"][..], EndReason::SupplyCitiesHeld),
        (&["BRU"][..], EndReason::TimeRanOut),
    ] {
        let mut g = start(Players::Two, &[]);
        to_turn(&mut g, last);
        // Gent's Anglo-Dutch have gone to Nijvel; French cavalry stand in the cities.
        for &id in &gent {
            g.town[id.index()] = Some(town("NIV"));
        }
        for (code, name) in cities.iter().zip(["G-CAV", "1CC-CAV"]) {
            g.town[block(name).index()] = Some(town(code));
        }
        play(&mut g, Action::EndMoves);
        // Each city costs the Anglo-Dutch a unit first (9).
        for _ in cities {
            let Phase::Supply { .. } = g.phase else {
                panic!("{:?}", g.phase)
            };
            let id = g.legal_actions()[0].clone();
            play(&mut g, id);
        }
        let winner = Seat::new(u8::from(reason == EndReason::TimeRanOut));
        assert_eq!(g.status(), Status::Won { winner, reason });
    }
}

/// "De blokken staan verticaal met het symbool naar de eigen speler gericht. Dit voorkomt dat
/// de spelers de type en sterkte van de vijandelijke eenheden zien." (3.2: blocks face their
/// owner, so no player sees the type and strength of enemy blocks); "elk de ultieme controle
/// heeft over hun respectieve eenheden" (11: with three players, each Allied player commands
/// only his own army, and sees only his own blocks' faces).
#[test]
fn views_show_only_own_faces() {
    let g = start(Players::Three, &[("G-CAV", "BEA")]);
    let french = g.view(Seat::FIRST);
    assert_eq!(french.own.len(), 24);
    assert!(french.own.iter().all(|b| b.army == Army::French));
    let hidden: usize = french.others.iter().map(|h| usize::from(h.count)).sum();
    assert_eq!(hidden, 34);
    let ad = g.view(Seat::SECOND);
    assert_eq!(ad.own.len(), 16);
    assert!(ad.others.iter().any(|h| h.army == Army::Prussian));
    assert!(ad.others.contains(&HiddenBlocks {
        town: town("BEA"),
        army: Army::French,
        count: 1
    }));
    let two = start(Players::Two, &[]);
    assert_eq!(two.view(Seat::SECOND).own.len(), 34);
}

/// "Twee spelers voeren het bevel over de geallieerden: een Pruisische en een Britse." (11:
/// two players command the Allies). Ruling: in an Allied turn the Anglo-Dutch player moves
/// first, then the Prussian; each moves only his own army's group.
#[test]
fn with_three_players_each_allied_seat_moves_its_own_army() {
    let mut g = start(Players::Three, &[]);
    play(&mut g, Action::EndMoves);
    assert_eq!(g.to_act(), Actor::Seat(Seat::SECOND));
    assert_eq!(refused(&g, go("PI-INF1", &["NAM"])), Illegal::NotYourBlock);
    play(&mut g, Action::EndMoves);
    assert_eq!(g.to_act(), Actor::Seat(Seat::THIRD));
    assert_eq!(refused(&g, go("AR-5DIV", &["AAL"])), Illegal::NotYourBlock);
    play(&mut g, Action::EndMoves);
    assert_eq!((g.turn(), g.to_act()), (3, Actor::Seat(Seat::FIRST)));
}

/// "Wanneer de leider geëlimineerd wordt verliest zijn leger de voordelen van de leider en de
/// eenheid van de leider wordt geteld als een verloren eenheid" (8.3: an eliminated leader's
/// army loses his bonus, and he counts as a lost unit).
#[test]
fn an_eliminated_leader_counts_and_helps_no_more() {
    let mut g = start(Players::Two, &[("I-INF1", "SOL")]);
    let mut events = Vec::new();
    g.eliminate(block("NAPOLEON"), &mut events);
    assert_eq!(g.eliminated(Army::French), 1);
    play(&mut g, go("I-INF1", &["BEA", "PHI"]));
    play(&mut g, Action::EndMoves);
    // Asked all the same (his fall may be hidden: see
    // `whether_a_leader_is_asked_tells_nothing_of_where_he_stands`); shown, he helps nobody.
    let events = play(&mut g, Action::ShowLeader(true));
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::LeaderShown { .. })));
    assert_eq!(g.to_act(), Actor::Chance);
    rolls_a_bare_3(&mut g, "I-INF1");
}

/// "Wanneer een veldslag (geen schermutseling) beëindigd is mag de overwinnaar zich
/// hergroeperen. [...] Hergroeperen is wel onderhevig aan de beperkingen opgelegd door wegen
/// (brede wegen 2, smalle wegen 1). Voorbeeld: de Fransen hebben een veldslag gewonnen in
/// Ligny. De Pruisen hebben zich teruggetrokken naar Gembloux en Namen. De Fransen bezetten
/// eveneens Quatre Bras met vier eenheden. De Fransen hebben de optie om 2 eenheden van Ligny
/// te hergroeperen in Quatre Bras (het maximale aantal voor deze brede weg)." (7.5: after a
/// battle, not a skirmish, the winner regroups within 2 a broad road, 1 a narrow one; the
/// rulebook's own example).
#[test]
fn the_winner_regroups_within_the_road_limits() {
    let mut g = start(
        Players::Two,
        &[
            ("IV-INF", "LIG"),
            ("IV-ART", "LIG"),
            ("2CC-CAV", "LIG"),
            ("I-INF1", "QB"),
            ("I-INF2", "QB"),
            ("I-ART", "QB"),
            ("II-INF1", "QB"),
            ("PII-INF1", "GEM"),
            ("PII-INF2", "NAM"),
        ],
    );
    let mut events = Vec::new();
    g.phase = Phase::Battle {
        town: town("LIG"),
        skirmish: false,
    };
    g.after_battle(town("LIG"), Some(false), false, &mut events);
    assert_eq!(
        g.phase,
        Phase::Regroup {
            town: town("LIG"),
            army: Army::French
        }
    );
    let to = |name: &str, code: &str| Action::Regroup {
        block: block(name),
        to: town(code),
    };
    // Not to the towns the Prussians hold.
    assert_eq!(refused(&g, to("IV-INF", "GEM")), Illegal::CannotRegroup);
    play(&mut g, to("IV-INF", "QB"));
    play(&mut g, to("IV-ART", "QB"));
    assert_eq!(refused(&g, to("2CC-CAV", "QB")), Illegal::CannotRegroup);
    // The broad road is full both ways: Quatre Bras cannot send a third into Ligny.
    assert_eq!(refused(&g, to("I-INF1", "LIG")), Illegal::CannotRegroup);
    play(&mut g, Action::EndRegroup);
    assert_eq!(g.turn(), 2);

    // No regrouping after a skirmish (6.6).
    let mut h = start(Players::Two, &[("IV-INF", "LIG"), ("I-INF1", "QB")]);
    h.phase = Phase::Battle {
        town: town("LIG"),
        skirmish: true,
    };
    h.after_battle(town("LIG"), Some(false), true, &mut events);
    assert_eq!(h.turn(), 2, "straight on to the next turn");
}

/// "Een veldslag vindt plaats [...] De actieve speler is de aanvaller en de vijand is de
/// verdediger." (6.1: the active player attacks); a battle's result puts the blocks back on the
/// map: "Eenheden die zich terugtrekken zijn in wanorde [...] kunnen niet dienen als
/// versterking" (7.3: retreated blocks are disordered and reinforce no battle that turn).
#[test]
fn a_battle_is_fought_through_the_campaign_and_its_result_applied() {
    use rand::{Rng, SeedableRng};
    let mut g = start(
        Players::Two,
        &[
            ("G-INF", "BEA"),
            ("III-INF1", "BEA"),
            ("III-INF2", "BEA"),
            ("PI-INF1", "THU"),
            ("PI-INF2", "THU"),
            ("PI-ART", "THU"),
        ],
    );
    for name in ["G-INF", "III-INF1", "III-INF2"] {
        play(&mut g, go(name, &["THU"]));
    }
    let events = play(&mut g, Action::EndMoves);
    assert!(events.contains(&Event::BattleBegan {
        town: town("THU"),
        skirmish: false
    }));
    let view = g.view(Seat::FIRST);
    let battle = view.battle.expect("the French see the battle");
    assert_eq!(battle.town, town("THU"));
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(6);
    let mut n = 0;
    while g.battle.is_some() {
        let action = match g.to_act() {
            Actor::Chance => {
                let outs = g.chance_outcomes();
                outs[rng.random_range(0..outs.len())].0.clone()
            }
            _ => {
                let legal = g.legal_actions();
                legal[rng.random_range(0..legal.len())].clone()
            }
        };
        assert!(matches!(action, Action::Battle(_)), "{action:?}");
        play(&mut g, action);
        n += 1;
        assert!(n < 20_000, "the battle ends");
    }
    // Thuin is one side's now, or empty; nobody left in it from the loser's side.
    let thuin: Vec<Army> = g
        .blocks_in(town("THU"))
        .filter_map(|b| g.army_of(b))
        .collect();
    assert!(
        thuin.iter().all(|a| a.is_allied()) || thuin.iter().all(|a| !a.is_allied()),
        "{thuin:?}"
    );
    // Every block that retreated stands, disordered, next to Thuin.
    let graph = campaign().map().graph().clone();
    for (id, _, t) in g.on_map() {
        if g.disordered[id.index()] {
            assert!(
                graph.road_between(t, town("THU")).is_some(),
                "{id:?} in {t:?}"
            );
        }
    }
}

/// The campaign's battle options (6.2.4's "Optie" of revealing on contact, the turn limit of
/// ruling R1, the hill's reading of ruling R20) are the ones every battle of the campaign is
/// fought with.
#[test]
fn a_campaigns_battles_follow_its_battle_options() {
    let battle = BattleOptions {
        reveal_on_contact: true,
        turn_limit: 3,
        hill_for_defenders_only: true,
    };
    let mut g = Napoleon::start(
        Options {
            battle,
            ..options(Players::Two)
        },
        setup(),
    )
    .expect("the test set-up is legal");
    for (name, code) in [
        ("G-INF", "BEA"),
        ("III-INF1", "BEA"),
        ("III-INF2", "BEA"),
        ("PI-INF1", "THU"),
        ("PI-INF2", "THU"),
        ("PI-ART", "THU"),
    ] {
        g.town[block(name).index()] = Some(town(code));
    }
    for name in ["G-INF", "III-INF1", "III-INF2"] {
        play(&mut g, go(name, &["THU"]));
    }
    play(&mut g, Action::EndMoves);
    let fought = g.battle.as_ref().expect("the battle at Thuin is under way");
    assert_eq!(*fought.options(), battle);
    assert_ne!(battle, BattleOptions::default());
}

/// "Verschillende veldslagen kunnen zich tegelijkertijd voordoen. De verschillende veldslagen
/// worden gelijktijdig uitgevochten in een sequentie bepaald door de aanvaller." (6.1: several
/// battles are fought in an order the attacker chooses).
#[test]
fn the_attacker_chooses_the_order_of_battles() {
    let mut g = start(
        Players::Two,
        &[
            ("G-INF", "BEA"),
            ("III-INF1", "BEA"),
            ("III-INF2", "BEA"),
            ("III-ART", "BEA"),
            ("VI-INF", "BEA"),
            ("VI-ART", "BEA"),
            ("PI-INF1", "THU"),
            ("PI-INF2", "THU"),
            ("PI-ART", "THU"),
            ("PII-INF1", "CHA"),
            ("PII-INF2", "CHA"),
            ("PII-ART", "CHA"),
        ],
    );
    for name in ["G-INF", "III-INF1", "III-INF2"] {
        play(&mut g, go(name, &["THU"]));
    }
    for name in ["III-ART", "VI-INF", "VI-ART"] {
        play(&mut g, go(name, &["CHA"]));
    }
    play(&mut g, Action::EndMoves);
    assert_eq!(g.to_act(), Actor::Seat(Seat::FIRST));
    let mut legal = g.legal_actions();
    legal.sort_by_key(|a| match a {
        Action::Fight(t) => t.index(),
        _ => usize::MAX,
    });
    let mut both = vec![Action::Fight(town("THU")), Action::Fight(town("CHA"))];
    both.sort_by_key(|a| match a {
        Action::Fight(t) => t.index(),
        _ => usize::MAX,
    });
    assert_eq!(legal, both);
    assert_eq!(
        g.check(&Action::Fight(town("LIG"))),
        Err(Illegal::NotAPendingBattle)
    );
    let events = play(&mut g, Action::Fight(town("CHA")));
    assert!(events.contains(&Event::BattleBegan {
        town: town("CHA"),
        skirmish: false
    }));
    assert_eq!(g.pending_battles(), &[town("THU")]);
}

/// 6.1: "De verschillende veldslagen worden gelijktijdig uitgevochten in een sequentie bepaald
/// door de aanvaller." The attacker fixes the whole sequence before any battle begins: with
/// three battles, choosing the first begins none, choosing the second begins the first, and
/// the battles then begin in the order chosen, never asking again. Failed on the old code,
/// which began the first battle at once and asked for the next after its first battle turns
/// (so the attacker chose knowing the first battle's terrain and volleys).
#[test]
fn the_attacker_fixes_the_whole_order_of_battles_before_the_first_begins() {
    let mut g = start(
        Players::Two,
        &[
            ("G-INF", "BEA"),
            ("III-INF1", "BEA"),
            ("III-INF2", "BEA"),
            ("III-ART", "BEA"),
            ("VI-INF", "BEA"),
            ("VI-ART", "BEA"),
            ("I-INF1", "BEA"),
            ("I-INF2", "BEA"),
            ("I-ART", "BEA"),
            ("PI-INF1", "THU"),
            ("PI-INF2", "THU"),
            ("PI-ART", "THU"),
            ("PII-INF1", "CHA"),
            ("PII-INF2", "CHA"),
            ("PII-ART", "CHA"),
            ("PIII-INF1", "SOL"),
            ("PIII-INF2", "SOL"),
            ("PIII-ART", "SOL"),
        ],
    );
    for name in ["G-INF", "III-INF1", "III-INF2"] {
        play(&mut g, go(name, &["THU"]));
    }
    for name in ["III-ART", "VI-INF", "VI-ART"] {
        play(&mut g, go(name, &["CHA"]));
    }
    for name in ["I-INF1", "I-INF2", "I-ART"] {
        play(&mut g, go(name, &["SOL"]));
    }
    play(&mut g, Action::EndMoves);
    let (cha, thu, sol) = (town("CHA"), town("THU"), town("SOL"));
    let events = play(&mut g, Action::Fight(sol));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::BattleBegan { .. })),
        "{events:?}"
    );
    assert!(g.battle.is_none());
    assert_eq!(g.phase, Phase::ChooseBattle);
    let mut legal = g.legal_actions();
    legal.sort_by_key(|a| match a {
        Action::Fight(t) => t.index(),
        _ => usize::MAX,
    });
    let mut rest = vec![Action::Fight(thu), Action::Fight(cha)];
    rest.sort_by_key(|a| match a {
        Action::Fight(t) => t.index(),
        _ => usize::MAX,
    });
    assert_eq!(legal, rest);
    assert_eq!(refused(&g, Action::Fight(sol)), Illegal::NotAPendingBattle);
    let events = play(&mut g, Action::Fight(cha));
    assert!(events.contains(&Event::BattleBegan {
        town: sol,
        skirmish: false
    }));
    assert_eq!(g.pending_battles(), &[cha, thu]);
    // Play on: the battles begin in the order chosen and the attacker is never asked again.
    let mut began = vec![sol];
    for _ in 0..2_000 {
        if g.battle.is_none() && g.live.is_empty() {
            break;
        }
        assert_ne!(g.phase, Phase::ChooseBattle);
        let legal = g.legal_actions();
        let done = Action::Battle(battle::BattleAction::Done);
        let action = match g.to_act() {
            Actor::Chance => g.chance_outcomes()[0].0.clone(),
            _ if legal.contains(&done) => done,
            _ => legal[0].clone(),
        };
        for e in play(&mut g, action) {
            if let Event::BattleBegan { town, .. } = e {
                began.push(town);
            }
        }
    }
    assert_eq!(began, [sol, cha, thu]);
}

/// A battle that cannot be brought up to date between its turns (a fault of the program: here
/// a Prussian fighting in Charleroi is also put in Ligny, next to it) says so with its own
/// event, which names no block, and goes on with the towns it last knew. Failed on the old
/// code, which reported it as a `BattleRefused` (a battle not fought) whose words named the
/// block's number and strength.
#[test]
fn a_battle_not_brought_up_to_date_says_so_without_naming_blocks() {
    let mut g = start(
        Players::Two,
        &[
            ("III-ART", "BEA"),
            ("VI-INF", "BEA"),
            ("VI-ART", "BEA"),
            ("PII-INF1", "CHA"),
            ("PII-INF2", "CHA"),
            ("PII-ART", "CHA"),
        ],
    );
    for name in ["III-ART", "VI-INF", "VI-ART"] {
        play(&mut g, go(name, &["CHA"]));
    }
    play(&mut g, Action::EndMoves);
    let cha = town("CHA");
    assert_eq!(
        g.phase,
        Phase::Battle {
            town: cha,
            skirmish: false
        }
    );
    // The fault: a block of the battle stands, for the campaign, in Ligny too.
    g.town[block("PII-INF1").index()] = Some(town("LIG"));
    let mut seen = Vec::new();
    for _ in 0..200 {
        let legal = g.legal_actions();
        let done = Action::Battle(battle::BattleAction::Done);
        let action = match g.to_act() {
            Actor::Chance => g.chance_outcomes()[0].0.clone(),
            _ if legal.contains(&done) => done,
            _ => legal[0].clone(),
        };
        let events = play(&mut g, action);
        let resumed = events.contains(&Event::Battle(battle::BattleEvent::TurnBegan {
            side: battle::Side::Attacker,
            turn: 2,
        }));
        seen.extend(events);
        if resumed {
            break;
        }
    }
    assert!(
        seen.contains(&Event::BattleNotUpdated { town: cha }),
        "{seen:?}"
    );
    assert!(
        !seen
            .iter()
            .any(|e| matches!(e, Event::BattleRefused { .. })),
        "{seen:?}"
    );
    // It went on: the battle's second turn began, in Charleroi.
    assert_eq!(g.battle.as_ref().map(|b| b.town()), Some(cha));
}

/// 6.1: "De verschillende veldslagen worden gelijktijdig uitgevochten in een sequentie bepaald
/// door de aanvaller. Beide spelers beëindigen hun beurt in een veldslag en gaan dan naar een
/// andere veldslag. Herhaal dit tot alle hangende veldslagen werden beslecht." (The battles are
/// fought simultaneously in a sequence the attacker decides: both players end their turn in one
/// battle, then go on to another, until every pending battle is settled.) With 6.3.4: units
/// "die daar niet betrokken zijn bij een (andere) veldslag" reinforce (units not in another
/// battle), so a town's blocks join a neighbouring battle once their own battle is over.
///
/// The French attack Charleroi and Thuin, next to each other; the attacker starts Charleroi,
/// then the battles alternate turn by turn: Charleroi 1, Thuin 1, Charleroi 2, Thuin 2. Nobody
/// fires and the French engage only at Thuin, so Charleroi ends in stalemate at the end of its
/// second French turn (6.7) and the Prussians keep it; in Thuin's second turn those Prussians may reinforce, in its first they
/// could not. Failed on the old code, which fought Charleroi to its end before Thuin began.
#[test]
fn simultaneous_battles_alternate_turn_by_turn_in_the_attackers_order() {
    let mut g = start(
        Players::Two,
        &[
            ("G-INF", "BEA"),
            ("III-INF1", "BEA"),
            ("III-INF2", "BEA"),
            ("III-ART", "BEA"),
            ("VI-INF", "BEA"),
            ("VI-ART", "BEA"),
            ("PI-INF1", "THU"),
            ("PI-INF2", "THU"),
            ("PI-ART", "THU"),
            ("PII-INF1", "CHA"),
            ("PII-INF2", "CHA"),
            ("PII-ART", "CHA"),
        ],
    );
    for name in ["G-INF", "III-INF1", "III-INF2"] {
        play(&mut g, go(name, &["THU"]));
    }
    for name in ["III-ART", "VI-INF", "VI-ART"] {
        play(&mut g, go(name, &["CHA"]));
    }
    play(&mut g, Action::EndMoves);
    let (cha, thu) = (town("CHA"), town("THU"));
    let mut events = play(&mut g, Action::Fight(cha));
    let mut thuin_began = false;
    // Each battle turn begun, with its battle's town, in the order played.
    let mut turns: Vec<(TownId, battle::Side, u16)> = Vec::new();
    let mut at = cha;
    let mut thuin_waiting: Vec<Vec<BlockId>> = Vec::new();
    let mut engaged = false;
    let mut retreat_to_cha: Vec<(u16, bool)> = Vec::new();
    use battle::Side::{Attacker, Defender};
    for _ in 0..2_000 {
        for e in &events {
            match e {
                Event::BattleBegan { town, .. } => at = *town,
                Event::Battle(battle::BattleEvent::TurnBegan { side, turn }) => {
                    let town = g.battle.as_ref().map_or(at, |b| b.town());
                    turns.push((town, *side, *turn));
                }
                _ => {}
            }
        }
        let Some(b) = g.battle.as_ref() else {
            break;
        };
        if b.town() == thu && b.turn() <= 1 {
            // Charleroi has played its first battle turns and waits while Thuin is fought.
            assert_eq!(g.battles_under_way(), [cha]);
            assert_eq!(g.view(Seat::SECOND).under_way, [cha]);
            thuin_began = true;
        }
        if b.town() == thu
            && b.step() == battle::Step::Fight
            && b.actor() == battle::BattleActor::Army(Army::Prussian)
        {
            let to_cha = g.legal_actions().iter().any(|a| {
                matches!(a, Action::Battle(battle::BattleAction::Retreat { to, .. }) if *to == cha)
            });
            retreat_to_cha.push((b.turn(), to_cha));
        }
        if b.town() == thu && b.step() == battle::Step::Reinforcement {
            let waiting = b.view(Some(Army::Prussian)).waiting;
            thuin_waiting.push(waiting.iter().map(|w| w.0).collect());
        }
        if thuin_waiting.last().is_some_and(|w| !w.is_empty()) {
            break;
        }
        let legal = g.legal_actions();
        let done = Action::Battle(battle::BattleAction::Done);
        // At Thuin the French engage once, so that battle is not stalemated too.
        let engage = legal.iter().find(|a| {
            matches!(a, Action::Battle(battle::BattleAction::Move {
                to: battle::Place::Zone(z), ..
            }) if z.half == Defender)
        });
        let action = match (g.to_act(), engage) {
            (Actor::Chance, _) => g.chance_outcomes()[0].0.clone(),
            (_, Some(engage)) if b.town() == thu && !engaged => {
                engaged = true;
                engage.clone()
            }
            _ if legal.contains(&done) => done,
            _ => legal[0].clone(),
        };
        events = play(&mut g, action);
    }
    assert!(thuin_began);
    assert_eq!(
        turns.get(..6),
        Some(
            &[
                (cha, Attacker, 1),
                (cha, Defender, 1),
                (thu, Attacker, 1),
                (thu, Defender, 1),
                (cha, Attacker, 2),
                (thu, Attacker, 2),
            ][..]
        ),
        "{turns:?}"
    );
    // Charleroi's second French turn ended it in stalemate; the Prussians hold it.
    assert!(g
        .blocks_in(cha)
        .all(|b| g.army_of(b) == Some(Army::Prussian)));
    // In Thuin's second turn Charleroi's Prussians wait to reinforce it.
    let waiting = thuin_waiting.last().expect("Thuin's Prussians reinforce");
    let mut from_cha: Vec<BlockId> = g.blocks_in(cha).collect();
    from_cha.sort_by_key(|b| b.index());
    let mut waiting = waiting.clone();
    waiting.sort_by_key(|b| b.index());
    assert_eq!(waiting, from_cha);
    let b = g.battle.as_ref().expect("Thuin is fought");
    assert_eq!(b.turn(), 2);
    // 7.1: "Geen enkele speler kan terugtrekken naar een ander slagveld." (No one retreats to
    // another battlefield.) Charleroi is closed to Thuin's Prussians while its battle goes on,
    // open once it is over and theirs.
    retreat_to_cha.dedup();
    assert_eq!(retreat_to_cha, [(1, false), (2, true)]);
    let pii = block("PII-INF1");
    assert!(g
        .legal_actions()
        .contains(&Action::Battle(battle::BattleAction::Reinforce(pii))));
}

/// "Verschillende veldslagen kunnen zich tegelijkertijd voordoen. De verschillende veldslagen
/// worden gelijktijdig uitgevochten" (6.1: several battles are fought at the same time) and
/// "Vooraleer er eenheden op het slagveld worden geplaatst schudt je de terreinblokken" (6.2.1:
/// before a battle the terrain blocks are shuffled and drawn). The terrain lying on a battle
/// board under way is not in the pool: Charleroi's three woods leave Thuin's draw without woods,
/// each other kind still weighing its three blocks.
#[test]
fn a_battle_under_way_keeps_its_terrain_out_of_the_next_draw() {
    let mut g = start(
        Players::Two,
        &[
            ("G-INF", "BEA"),
            ("III-INF1", "BEA"),
            ("III-INF2", "BEA"),
            ("III-ART", "BEA"),
            ("VI-INF", "BEA"),
            ("VI-ART", "BEA"),
            ("PI-INF1", "THU"),
            ("PI-INF2", "THU"),
            ("PI-ART", "THU"),
            ("PII-INF1", "CHA"),
            ("PII-INF2", "CHA"),
            ("PII-ART", "CHA"),
        ],
    );
    for name in ["G-INF", "III-INF1", "III-INF2"] {
        play(&mut g, go(name, &["THU"]));
    }
    for name in ["III-ART", "VI-INF", "VI-ART"] {
        play(&mut g, go(name, &["CHA"]));
    }
    play(&mut g, Action::EndMoves);
    let (cha, thu) = (town("CHA"), town("THU"));
    play(&mut g, Action::Fight(cha));
    let woods = Action::Battle(battle::BattleAction::DrawTerrain(TerrainKind::Woods));
    let mut thuin_draws = None;
    for _ in 0..2_000 {
        let Some(b) = g.battle.as_ref() else {
            break;
        };
        if b.town() == thu && b.step() == battle::Step::Terrain && g.to_act() == Actor::Chance {
            thuin_draws = Some(g.chance_outcomes());
            break;
        }
        let legal = g.legal_actions();
        let done = Action::Battle(battle::BattleAction::Done);
        let action = match g.to_act() {
            // Charleroi draws every woods block of the pool.
            Actor::Chance if legal.contains(&woods) => woods.clone(),
            Actor::Chance => g.chance_outcomes()[0].0.clone(),
            _ if legal.contains(&done) => done,
            _ => legal[0].clone(),
        };
        play(&mut g, action);
    }
    assert_eq!(g.battles_under_way(), [cha]);
    assert_eq!(g.live[0].terrain_held(), [TerrainKind::Woods; 3]);
    let draw = |kind| Action::Battle(battle::BattleAction::DrawTerrain(kind));
    assert_eq!(
        thuin_draws.expect("Thuin draws its terrain"),
        [
            (draw(TerrainKind::Farm), 3),
            (draw(TerrainKind::Stream), 3),
            (draw(TerrainKind::Hill), 3),
        ]
    );
}

/// "Na de initiële plaatsing van de eenheden is er geen beperking op het aantal eenheden dat men
/// in een stad of gemeente kan plaatsen. De grenzen spelen nadien geen rol meer." (4: after the
/// set-up there is no limit to the units in a town, and the borders play no further part.)
/// Five Anglo-Dutch blocks, more than the set-up's 4 a town (4.1), march from Brussel into
/// Waver, east of the brown line.
#[test]
fn after_the_set_up_towns_hold_any_number_and_borders_do_not_count() {
    let names = ["AR-5DIV", "AR-6DIV", "AR-BK", "AR-NAS", "AR-ART"];
    let moves: Vec<(&str, &str)> = names.iter().map(|&n| (n, "BRU")).collect();
    let mut g = start(Players::Two, &moves);
    play(&mut g, Action::EndMoves);
    for name in names {
        play(&mut g, go(name, &["WAV"]));
    }
    assert_eq!(
        campaign().map().info(town("WAV")).map(|i| i.area),
        Some(Army::Prussian)
    );
    assert_eq!(g.blocks_in(town("WAV")).count(), 5);
}

/// "Eenheden die zich terugtrekken zijn in wanorde [...] Eenheden in wanorde kunnen niet dienen
/// als versterking voor slagvelden tijdens die beurt. Na die speler zijn beurt zal de orde in
/// die eenheid zich herstellen." (7.3: retreating units are disordered and reinforce no battle
/// that turn; after that turn their order is restored.)
#[test]
fn disorder_lasts_until_the_turn_ends() {
    let mut g = start(Players::Two, &[("PI-INF1", "GEM")]);
    let id = block("PI-INF1");
    g.disordered[id.index()] = true;
    // A battle next door this turn does not count the disordered block.
    let reinforcing = |g: &Napoleon| {
        g.battle_setup(town("LIG"))
            .approaches
            .iter()
            .any(|a| a.reinforcements.iter().any(|u| u.block == id))
    };
    assert!(!reinforcing(&g));
    play(&mut g, Action::EndMoves);
    assert!(
        !g.disordered[id.index()],
        "order is restored after the turn"
    );
    assert!(reinforcing(&g));
}

/// 5.4: "Eens het maximale aantal eenheden zich via een weg heeft verplaatst kan deze weg niet
/// meer gebruikt worden behalve voor terugtrekken, versterkingen en hergroeperingen." (Once a
/// road has carried its limit it cannot be used again, except for retreats, reinforcements and
/// regrouping.) Ligny-Gembloux has carried its moves this turn; Gembloux's Prussians still
/// reinforce a battle at Ligny along it, and a winner at Ligny still regroups along it.
#[test]
fn a_full_road_still_carries_reinforcements_and_regroups() {
    let mut g = start(
        Players::Two,
        &[("PI-INF1", "GEM"), ("PI-INF2", "LIG"), ("PI-ART", "GEM")],
    );
    let map = campaign().map().clone();
    let road = map
        .graph()
        .road_between(town("LIG"), town("GEM"))
        .expect("Ligny-Gembloux");
    let limit = map.move_limit(road).expect("a road's limit");
    // The Allied turn, the road full.
    play(&mut g, Action::EndMoves);
    assert!(g.legal_actions().contains(&go("PI-ART", &["LIG"])));
    g.traffic[road.index()] = limit;
    assert!(!g.legal_actions().contains(&go("PI-ART", &["LIG"])));
    assert!(g.check(&go("PI-ART", &["LIG"])).is_err());
    // Reinforcements and regrouping along it are not.
    let reinforcements: Vec<BlockId> = g
        .battle_setup(town("LIG"))
        .approaches
        .iter()
        .filter(|a| a.town == town("GEM"))
        .flat_map(|a| a.reinforcements.iter().map(|u| u.block))
        .collect();
    assert!(reinforcements.contains(&block("PI-INF1")));
    assert_eq!(
        g.regroup_road(town("LIG"), Army::Prussian, block("PI-INF2"), town("GEM")),
        Some(road)
    );
}

/// 5.4: "[...] kan deze weg niet meer gebruikt worden behalve voor terugtrekken" (a full road
/// may still be used to retreat). The French attack Ligny while Ligny-Gembloux has carried its
/// limit this turn: no more moves along it, but the Prussians of Ligny may still retreat along
/// it to Gembloux in the battle.
#[test]
fn a_full_road_still_carries_retreats() {
    let mut g = start(
        Players::Two,
        &[
            ("PI-INF1", "GEM"),
            ("PI-ART", "GEM"),
            ("PI-INF2", "LIG"),
            ("PII-INF1", "LIG"),
            ("PII-INF2", "LIG"),
            ("G-INF", "CHA"),
            ("III-INF1", "CHA"),
            ("III-INF2", "CHA"),
        ],
    );
    let (lig, gem) = (town("LIG"), town("GEM"));
    let map = campaign().map().clone();
    let road = map.graph().road_between(lig, gem).expect("Ligny-Gembloux");
    let limit = map.move_limit(road).expect("a road's limit");
    g.traffic[road.index()] = limit;
    for name in ["G-INF", "III-INF1", "III-INF2"] {
        play(&mut g, go(name, &["LIG"]));
    }
    let mut events = play(&mut g, Action::EndMoves);
    let retreat = Action::Battle(battle::BattleAction::Retreat {
        block: block("PI-INF2"),
        to: gem,
    });
    let mut offered = false;
    for _ in 0..500 {
        if events
            .iter()
            .any(|e| matches!(e, Event::BattleEnded { .. }))
        {
            break;
        }
        let legal = g.legal_actions();
        if legal.contains(&retreat) {
            // The road is still full (5.4).
            assert_eq!(g.traffic[road.index()], limit);
            offered = true;
            events = play(&mut g, retreat.clone());
            break;
        }
        let done = Action::Battle(battle::BattleAction::Done);
        let action = match g.to_act() {
            Actor::Chance => g.chance_outcomes()[0].0.clone(),
            _ if legal.contains(&done) => done,
            _ => legal[0].clone(),
        };
        events = play(&mut g, action);
    }
    assert!(offered, "the retreat along the full road is offered");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Battle(battle::BattleEvent::Retreated { block: b, to, .. })
            if *b == block("PI-INF2") && *to == gem
    )));
}

/// 6.6: "Alle schermutselingen worden beslecht alvorens er een veldslag plaatsvindt [...]
/// Eenheden die een schermutseling winnen kunnen gebruikt worden als versterking voor een
/// nabijgelegen veldslag." (Every skirmish is settled before any battle; units that win a
/// skirmish may reinforce a nearby battle.) The French skirmish at Charleroi, two against one,
/// and fight a battle at Thuin next door: Charleroi is fought first, and its winners wait to
/// reinforce Thuin.
#[test]
fn a_skirmishs_winners_reinforce_a_nearby_battle() {
    let mut g = start(
        Players::Two,
        &[
            ("G-INF", "BEA"),
            ("III-INF1", "BEA"),
            ("III-INF2", "BEA"),
            ("I-INF1", "BEA"),
            ("I-INF2", "BEA"),
            ("PI-INF1", "THU"),
            ("PI-INF2", "THU"),
            ("PI-ART", "THU"),
            ("PII-ART", "CHA"),
        ],
    );
    for name in ["G-INF", "III-INF1", "III-INF2"] {
        play(&mut g, go(name, &["THU"]));
    }
    for name in ["I-INF1", "I-INF2"] {
        play(&mut g, go(name, &["CHA"]));
    }
    let events = play(&mut g, Action::EndMoves);
    let (cha, thu) = (town("CHA"), town("THU"));
    // The skirmish is fought first, without asking.
    assert!(events.contains(&Event::BattleBegan {
        town: cha,
        skirmish: true
    }));
    for _ in 0..200 {
        if g.battle.as_ref().is_some_and(|b| b.town() == thu) {
            break;
        }
        let legal = g.legal_actions();
        let done = Action::Battle(battle::BattleAction::Done);
        let action = match g.to_act() {
            Actor::Chance => g.chance_outcomes()[0].0.clone(),
            _ if legal.contains(&done) => done,
            _ => legal[0].clone(),
        };
        play(&mut g, action);
    }
    // The French won Charleroi and hold it; the battle of Thuin has begun.
    assert!(g.blocks_in(cha).all(|b| g.army_of(b) == Some(Army::French)));
    let b = g.battle.as_ref().expect("Thuin is fought");
    assert_eq!(b.town(), thu);
    let mut waiting: Vec<(BlockId, TownId)> = b.view(Some(Army::French)).waiting;
    waiting.sort_by_key(|w| w.0.index());
    let mut winners: Vec<(BlockId, TownId)> = [block("I-INF1"), block("I-INF2")]
        .map(|b| (b, cha))
        .to_vec();
    winners.sort_by_key(|w| w.0.index());
    assert_eq!(waiting, winners);
}
