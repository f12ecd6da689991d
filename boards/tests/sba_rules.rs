//! Sa Belle Alliance, rule by rule: each test quotes the sentence of the rulebook
//! (*Sa Belle Alliance aka Battle of Waterloo*) it checks. The tables are our example card set's
//! (`src/sba/example-cards.toml`), not the publisher's; a few tests change its tracks.

use boards::sba::{
    Action, ActionId, Army, CardId, CardSet, EndReason, Event, Face, Illegal, Mark, Options, Phase,
    RoutHow, SaBelleAlliance, ALLIED, EXAMPLE_CARDS, FRENCH,
};
use boards::{Actor, Game, Status};

mod sba_common;
use sba_common::{card, set_text};

const FRENCH_TRACK: &str = r#"casualties = ["", "", "", "", "", "", "", "", "", "", "RT", "RT", "RT+1", "RT", "RT+2", "B"]"#;
const ALLIED_TRACK: &str =
    r#"casualties = ["", "", "", "", "", "", "", "", "", "RT", "RT", "RT", "RT", "B"]"#;

/// The example set with some of its text replaced (each pattern must be found).
fn example_with(changes: &[(&str, &str)]) -> CardSet {
    let mut text = EXAMPLE_CARDS.to_string();
    for (from, to) in changes {
        assert!(text.contains(from), "{from} not in the example");
        text = text.replacen(from, to, 1);
    }
    CardSet::parse(&text).unwrap_or_else(|p| panic!("{p}"))
}

fn start(cards: CardSet) -> SaBelleAlliance {
    SaBelleAlliance::start(Options::new(cards), ()).expect("no set-up problems")
}

fn example() -> SaBelleAlliance {
    start(CardSet::example())
}

fn id(g: &SaBelleAlliance, name: &str) -> CardId {
    g.options()
        .cards
        .card_id(name)
        .unwrap_or_else(|| panic!("no card {name}"))
}

fn control(g: &SaBelleAlliance, name: &str) -> Option<Army> {
    g.control(g.options().cards.control_id(name).expect("control box"))
}

fn act(g: &mut SaBelleAlliance, card: &str, k: u8, target: Option<&str>) -> Vec<Event> {
    let a = Action::activate(id(g, card), k, target.map(|t| id(g, t)));
    g.play(&a)
        .unwrap_or_else(|e| panic!("{card} action {k}: {e}"))
        .events
}

fn napoleon(g: &mut SaBelleAlliance, card: &str, k: u8, target: &str) -> Vec<Event> {
    let a = Action::Activate {
        card: id(g, card),
        action: ActionId::new(k),
        target: Some(id(g, target)),
        napoleon: true,
    };
    g.play(&a).unwrap_or_else(|e| panic!("{e}")).events
}

fn roll(g: &mut SaBelleAlliance, pips: u8) -> Vec<Event> {
    assert_eq!(g.to_act(), Actor::Chance, "{}", g.summary());
    g.play(&Action::Roll(Face::new(pips).expect("face")))
        .expect("a roll")
        .events
}

/// A French action that does nothing: the Grand Battery's bombardment reads "-" on a 2.
fn french_quiet(g: &mut SaBelleAlliance) {
    act(g, "Grand Battery", 0, Some("I Corps (Orange)"));
    roll(g, 2);
}

/// An Allied action that costs nobody a casualty: Blücher's Prussians march, one division
/// arrives on a 1 (none once all have).
fn allied_quiet(g: &mut SaBelleAlliance) {
    act(g, "Blücher's Prussians", 0, None);
    roll(g, 1);
}

fn refused(g: &SaBelleAlliance, a: Action) -> Illegal {
    let e = g.check(&a).expect_err("refused");
    assert!(!g.legal_actions().contains(&a), "{a} listed but refused");
    e
}

// ---- Set-up ------------------------------------------------------------------------------------

/// "The blue division markers are placed in the French Corps boxes on the battlefield map while
/// the red division markers are placed in the Anglo-Allied boxes. The black division markers
/// are for Blucher's Prussians and are not placed on the battlefield map at this stage."
/// "Place three blue markers in the Grand Battery's boxes and one blue marker in the Plancenoit
/// box", "one red marker in the Hougoumont box and one red marker in the La Haye Sainte box",
/// "a blue marker on the French morale track in the square with the number 10 ... Anglo-Allied
/// morale track to the square number 10", "the white marker on the time track on the Midday box".
#[test]
fn set_up() {
    let g = example();
    let cards = g.options().cards.clone();
    for (c, card) in cards.ids() {
        assert_eq!(g.divisions(c), card.divisions, "{}", card.name);
        assert_eq!(g.waiting(c), card.reserve, "{}", card.name);
    }
    let count = |army: Army| -> u32 {
        cards
            .cards()
            .iter()
            .filter(|c| c.army == army)
            .map(|c| u32::from(c.divisions + c.reserve))
            .sum()
    };
    // 18 French division markers + the Grand Battery's 3, 14 Anglo-Allied, 6 Prussian.
    assert_eq!(
        (
            count(Army::French),
            count(Army::Allied),
            count(Army::Prussian)
        ),
        (21, 14, 6)
    );
    let blucher = id(&g, "Blücher's Prussians");
    assert_eq!((g.divisions(blucher), g.waiting(blucher)), (0, 6));
    assert_eq!(g.divisions(id(&g, "Grand Battery")), 3);
    assert_eq!(control(&g, "Plancenoit"), Some(Army::French));
    assert_eq!(control(&g, "Hougoumont"), Some(Army::Allied));
    assert_eq!(control(&g, "La Haye Sainte"), Some(Army::Allied));
    assert_eq!((g.morale(FRENCH), g.morale(ALLIED)), (10, 10));
    assert_eq!(g.time_name(), "Midday");
    assert!(g.casualties(FRENCH).is_empty() && g.casualties(ALLIED).is_empty());
}

// ---- The turn ----------------------------------------------------------------------------------

/// "1. French player's phase 2. Allied player's phase 3. Time phase"
#[test]
fn a_turn_is_the_french_phase_the_allied_phase_then_time() {
    let mut g = example();
    assert_eq!((g.turn(), g.to_act()), (1, Actor::Seat(FRENCH)));
    french_quiet(&mut g);
    assert_eq!((g.turn(), g.to_act()), (1, Actor::Seat(ALLIED)));
    allied_quiet(&mut g);
    assert_eq!((g.turn(), g.to_act()), (2, Actor::Seat(FRENCH)));
}

// ---- Actions -----------------------------------------------------------------------------------

/// "The French player can either choose one of their six Corps cards or the card representing
/// the Grand Battery. ... The Anglo-Allied player can choose to make activate one of his four
/// Corps or activate Blücher's Prussians."
#[test]
fn each_player_activates_only_their_own_cards() {
    let mut g = example();
    let cards = g.options().cards.clone();
    let french: Vec<CardId> = g
        .legal_actions()
        .iter()
        .map(|a| match a {
            Action::Activate { card, .. } => *card,
            other => panic!("{other}"),
        })
        .collect();
    assert!(french
        .iter()
        .all(|&c| cards.card(c).map(|c| c.army) == Some(Army::French)));
    assert_eq!(
        refused(
            &g,
            Action::activate(
                id(&g, "Reserve (Picton)"),
                0,
                Some(id(&g, "Imperial Guard"))
            )
        ),
        Illegal::NotYourCard("Reserve (Picton)".into())
    );
    french_quiet(&mut g);
    // Blücher's Prussians can be activated with all their divisions still waiting.
    let blucher = id(&g, "Blücher's Prussians");
    assert!(g
        .legal_actions()
        .contains(&Action::activate(blucher, 0, None)));
}

/// "The player can choose to make repeated actions with the same Corps even if that Corps was
/// chosen in the previous turn. But a Corps cannot be activated if it has no division markers
/// left."
#[test]
fn a_corps_acts_again_but_not_once_empty() {
    let mut g = example();
    let guard = id(&g, "Imperial Guard");
    french_quiet(&mut g);
    // Orange holds the ridge against the Guard: FC2 on a 6, FC1 FM1 on a 5.
    act(&mut g, "I Corps (Orange)", 0, Some("Imperial Guard"));
    roll(&mut g, 6);
    assert_eq!(g.divisions(guard), 1);
    french_quiet(&mut g);
    act(&mut g, "I Corps (Orange)", 0, Some("Imperial Guard"));
    roll(&mut g, 5);
    assert_eq!(g.divisions(guard), 0);
    let advance = Action::activate(guard, 0, Some(id(&g, "I Corps (Orange)")));
    assert_eq!(
        refused(&g, advance),
        Illegal::NoMarkers("Imperial Guard".into())
    );
}

/// "Nor can the Grand Battery be activated if it has no markers left."
#[test]
fn the_grand_battery_is_silent_with_no_markers() {
    let mut g = example();
    french_quiet(&mut g);
    // Uxbridge's heavy brigades charge the Grand Battery: FC2 on a 6, FC1 on a 4.
    act(&mut g, "Cavalry (Uxbridge)", 0, Some("Grand Battery"));
    roll(&mut g, 6);
    act(&mut g, "I Corps (d'Erlon)", 0, Some("I Corps (Orange)"));
    roll(&mut g, 4);
    act(&mut g, "Cavalry (Uxbridge)", 0, Some("Grand Battery"));
    let events = roll(&mut g, 4);
    let gb = id(&g, "Grand Battery");
    assert_eq!(g.divisions(gb), 0);
    // "If the Corps (or Grand Battery) loses its last marker, then one extra morale loss is
    // caused for the owning player."
    assert!(events.contains(&Event::LastMarker(gb)));
    assert_eq!(g.morale(FRENCH), 9);
    assert_eq!(g.casualties(FRENCH), [gb, gb, gb]);
    assert_eq!(
        refused(&g, Action::activate(gb, 0, Some(id(&g, "II Corps (Hill)")))),
        Illegal::NoMarkers("Grand Battery".into())
    );
}

/// "Once per game the French player may also use Napoleon to make an action more effective."
#[test]
fn napoleon_adds_his_modifier_once_a_game() {
    let mut g = example();
    let orange = id(&g, "I Corps (Orange)");
    // Advance of the Guard reads results 2 to 7; Napoleon adds 2: a 5 reads 7, AC3 AM2.
    let events = napoleon(&mut g, "Imperial Guard", 0, "I Corps (Orange)");
    assert!(matches!(events[0], Event::Activated { napoleon: true, .. }));
    let events = roll(&mut g, 5);
    assert_eq!(
        events[0],
        Event::Rolled {
            face: Face::new(5).unwrap(),
            modifier: 2,
            result: 7
        }
    );
    assert_eq!(g.divisions(orange), 1);
    assert_eq!(g.morale(ALLIED), 8);
    assert!(g.napoleon_used());
    let again = Action::Activate {
        card: id(&g, "II Corps (Hill)"),
        action: ActionId::new(1),
        target: Some(id(&g, "II Corps (Reille)")),
        napoleon: true,
    };
    assert_eq!(refused(&g, again), Illegal::NapoleonIsFrench);
    allied_quiet(&mut g);
    let again = Action::Activate {
        card: id(&g, "Imperial Guard"),
        action: ActionId::new(0),
        target: Some(orange),
        napoleon: true,
    };
    assert_eq!(refused(&g, again), Illegal::NapoleonUsed);
}

/// "Once per game the Anglo-Allied player may choose to use Wellington to give a general
/// advance order, which is counted as an action."
#[test]
fn wellington_orders_one_general_advance() {
    let mut g = example();
    let wellington = id(&g, "Wellington");
    french_quiet(&mut g);
    act(&mut g, "Wellington", 0, Some("Imperial Guard"));
    roll(&mut g, 3);
    assert_eq!(g.divisions(id(&g, "Imperial Guard")), 1, "FC2 on a 3");
    assert!(g.used(wellington));
    french_quiet(&mut g);
    let again = Action::activate(wellington, 0, Some(id(&g, "Imperial Guard")));
    assert_eq!(refused(&g, again), Illegal::UsedOnce("Wellington".into()));
}

/// "... or activate Blücher's Prussians. The latter simulates the arrival of the Prussian
/// troops", and the time marker moves "When Prussians get their 5th division marker onto the
/// battlefield" ("only once per reason").
#[test]
fn blucher_brings_the_prussians_and_the_fifth_moves_the_time() {
    let mut g = example();
    let blucher = id(&g, "Blücher's Prussians");
    for (pips, arrived) in [(4, 2), (4, 4), (1, 5), (1, 6)] {
        french_quiet(&mut g);
        let (turn, before) = (g.turn(), g.divisions(blucher));
        act(&mut g, "Blücher's Prussians", 0, None);
        let events = roll(&mut g, pips);
        assert!(events.contains(&Event::Arrived {
            card: blucher,
            count: arrived - before
        }));
        assert_eq!(
            (g.divisions(blucher), g.waiting(blucher)),
            (arrived, 6 - arrived)
        );
        assert_eq!(g.turn(), turn + 1);
        let moved = events
            .iter()
            .any(|e| matches!(e, Event::TimeAdvanced { .. }));
        assert_eq!(moved, arrived == 5, "after {arrived} arrived");
    }
    assert_eq!(g.time_name(), "3 pm");
    // None waiting, all on the map: still activated, the roll brings none.
    french_quiet(&mut g);
    act(&mut g, "Blücher's Prussians", 0, None);
    let events = roll(&mut g, 4);
    assert!(!events.iter().any(|e| matches!(e, Event::Arrived { .. })));
}

/// "Some Corps can make counter attacks ... It is played as an action (instead of the normal
/// action), but can only be chosen if the opponent's last action was undertaken by the target
/// of the counter attack. Counter attacks must therefore be immediate."
#[test]
fn a_counter_attack_only_answers_the_targets_last_action() {
    let mut g = example();
    let hill = id(&g, "II Corps (Hill)");
    let reille = id(&g, "II Corps (Reille)");
    let counter = Action::activate(hill, 0, Some(reille));
    french_quiet(&mut g);
    // The Grand Battery acted, not Reille.
    assert!(matches!(refused(&g, counter), Illegal::NotImmediate { .. }));
    allied_quiet(&mut g);
    act(&mut g, "II Corps (Reille)", 0, Some("II Corps (Hill)"));
    roll(&mut g, 4);
    assert_eq!(g.last_action(), Some((FRENCH, reille)));
    assert_eq!(g.check(&counter), Ok(()));
    assert!(g.legal_actions().contains(&counter));
    // Not immediate any more one turn later.
    allied_quiet(&mut g);
    french_quiet(&mut g);
    assert!(matches!(refused(&g, counter), Illegal::NotImmediate { .. }));
}

// ---- Die rolls ---------------------------------------------------------------------------------

/// "In some cases modifiers are added to the die roll results. These are noted on the Corps
/// cards." (And, ruling: a result beyond the table reads its first or last row.)
#[test]
fn the_cards_modifiers_are_added_to_the_roll() {
    let mut g = example();
    // Reille takes Hougoumont: AC1 CAP on a 5.
    act(&mut g, "II Corps (Reille)", 0, Some("II Corps (Hill)"));
    roll(&mut g, 5);
    assert_eq!(control(&g, "Hougoumont"), Some(Army::French));
    // Hill's "Hold the right" has -1 while the Allies do not hold Hougoumont.
    act(&mut g, "II Corps (Hill)", 1, Some("II Corps (Reille)"));
    let events = roll(&mut g, 1);
    assert_eq!(
        events[0],
        Event::Rolled {
            face: Face::new(1).unwrap(),
            modifier: -1,
            result: 0
        }
    );
    // d'Erlon's assault has +1 while the French hold Hougoumont: a 6 reads 7, past the table's
    // last row (6: AC2 AM1 CAP).
    act(&mut g, "I Corps (d'Erlon)", 0, Some("I Corps (Orange)"));
    let events = roll(&mut g, 6);
    assert_eq!(
        events[0],
        Event::Rolled {
            face: Face::new(6).unwrap(),
            modifier: 1,
            result: 7
        }
    );
    assert_eq!(g.divisions(id(&g, "I Corps (Orange)")), 2);
    assert_eq!(control(&g, "La Haye Sainte"), Some(Army::French));
}

/// "These are noted on the Corps cards": a modifier from a time on (the Guard's +1 from 6 pm in
/// our example) counts once the time marker has got there.
#[test]
fn a_modifier_from_a_time_on() {
    let mut g = start(example_with(&[("start = \"Midday\"", "start = \"6 pm\"")]));
    act(&mut g, "Imperial Guard", 0, Some("II Corps (Hill)"));
    let events = roll(&mut g, 1);
    assert_eq!(
        events[0],
        Event::Rolled {
            face: Face::new(1).unwrap(),
            modifier: 1,
            result: 2
        }
    );
    // 2 is the table's first row: FC2 FM2.
    assert_eq!(g.morale(FRENCH), 8);
}

/// "Plancenoit initially contains a French marker, but if the Prussians capture it then
/// replace the French marker with Prussian marker." (The storm may be made from 3 pm on, at -2
/// while the Prussian box is empty: our example card.)
#[test]
fn the_prussians_capture_plancenoit() {
    let mut g = example();
    let storm = Action::activate(
        id(&g, "Blücher's Prussians"),
        1,
        Some(id(&g, "VI Corps (Lobau)")),
    );
    french_quiet(&mut g);
    assert!(matches!(refused(&g, storm), Illegal::TooEarly { .. }));
    let mut g = start(example_with(&[("start = \"Midday\"", "start = \"3 pm\"")]));
    french_quiet(&mut g);
    g.play(&storm).expect("from 3 pm");
    let events = roll(&mut g, 6);
    assert_eq!(
        events[0],
        Event::Rolled {
            face: Face::new(6).unwrap(),
            modifier: -2,
            result: 4
        }
    );
    // 4: FC1 CAP.
    assert_eq!(control(&g, "Plancenoit"), Some(Army::Prussian));
    assert_eq!(g.divisions(id(&g, "VI Corps (Lobau)")), 1);
}

/// "At the beginning of the game Hougoumont has an Anglo-Allied marker, but the French 2nd
/// Corps (Reille) can capture it" and "La Haye Sainte has an Anglo-Allied marker, but the French
/// 1st Corps (d'Erlon) can capture it in which case change the marker to a French one."
#[test]
fn reille_takes_hougoumont_and_derlon_la_haye_sainte() {
    let mut g = example();
    act(&mut g, "I Corps (d'Erlon)", 0, Some("I Corps (Orange)"));
    let events = roll(&mut g, 5);
    let lhs = g.options().cards.control_id("La Haye Sainte").unwrap();
    assert!(events.contains(&Event::Captured {
        control: lhs,
        by: Army::French
    }));
    assert_eq!(control(&g, "Hougoumont"), Some(Army::Allied));
    allied_quiet(&mut g);
    act(&mut g, "II Corps (Reille)", 0, Some("II Corps (Hill)"));
    roll(&mut g, 6);
    assert_eq!(control(&g, "Hougoumont"), Some(Army::French));
}

// ---- Outcomes ----------------------------------------------------------------------------------

/// "If the army suffers a morale loss, expressed as a number, 1, 2, 3 etc., move the marker
/// along the morale track an equal number of squares to this number. Similarly, for each
/// casualty suffered, the army must remove one division marker from the battlefield map and
/// place it on the casualty track. Fill the track from top to bottom.The division must be taken
/// from the Corps which was targeted by the action."
#[test]
fn casualties_come_from_the_target_and_fill_the_track_from_the_top() {
    let mut g = example();
    let (derlon, orange) = (id(&g, "I Corps (d'Erlon)"), id(&g, "I Corps (Orange)"));
    act(&mut g, "I Corps (d'Erlon)", 0, Some("I Corps (Orange)"));
    // 6: AC2 AM1 CAP.
    let events = roll(&mut g, 6);
    assert!(events.contains(&Event::Casualty {
        seat: ALLIED,
        from: orange,
        index: 0,
        mark: Mark::Plain
    }));
    assert!(events.contains(&Event::Casualty {
        seat: ALLIED,
        from: orange,
        index: 1,
        mark: Mark::Plain
    }));
    assert!(events.contains(&Event::MoraleLost {
        seat: ALLIED,
        by: 1,
        to: 9
    }));
    assert_eq!(g.casualties(ALLIED), [orange, orange]);
    allied_quiet(&mut g);
    // 1: FC1 FM1 from the acting corps itself.
    act(&mut g, "I Corps (d'Erlon)", 0, Some("I Corps (Orange)"));
    roll(&mut g, 1);
    assert_eq!(g.casualties(FRENCH), [derlon]);
    assert_eq!((g.divisions(derlon), g.morale(FRENCH)), (3, 9));
}

/// "If the target Corps has no remaining division markers, the owning player can choose
/// another Corps to take the casualty." and "If the Corps (or Grand Battery) loses its last
/// marker, then one extra morale loss is caused for the owning player."
#[test]
fn an_empty_target_lets_the_owner_choose_and_the_last_marker_costs_morale() {
    let mut g = example();
    let orange = id(&g, "I Corps (Orange)");
    napoleon(&mut g, "Imperial Guard", 0, "I Corps (Orange)");
    roll(&mut g, 5); // AC3 AM2: Orange 1 left, morale 8.
    allied_quiet(&mut g); // Orange untouched: one Prussian division arrives.
    act(&mut g, "I Corps (d'Erlon)", 0, Some("I Corps (Orange)"));
    let events = roll(&mut g, 4); // AC1: Orange's last.
    assert!(events.contains(&Event::LastMarker(orange)));
    assert!(events.contains(&Event::MoraleLost {
        seat: ALLIED,
        by: 1,
        to: 7
    }));
    assert_eq!(g.morale(ALLIED), 7);
    allied_quiet(&mut g);
    act(&mut g, "I Corps (d'Erlon)", 0, Some("I Corps (Orange)"));
    roll(&mut g, 4); // AC1 again, Orange empty: the Allied player chooses.
    assert_eq!(g.phase(), Phase::TakeFrom(ALLIED));
    assert_eq!(g.to_act(), Actor::Seat(ALLIED));
    let picton = id(&g, "Reserve (Picton)");
    let choices = g.legal_actions();
    assert!(choices.contains(&Action::TakeFrom(picton)));
    assert!(
        choices.contains(&Action::TakeFrom(id(&g, "Blücher's Prussians"))),
        "arrived"
    );
    assert!(!choices.contains(&Action::TakeFrom(orange)), "empty");
    assert!(matches!(
        refused(&g, Action::TakeFrom(orange)),
        Illegal::CannotTakeFrom(_)
    ));
    assert!(matches!(
        refused(&g, Action::TakeFrom(id(&g, "Imperial Guard"))),
        Illegal::CannotTakeFrom(_)
    ));
    g.play(&Action::TakeFrom(picton)).expect("chosen");
    assert_eq!(g.divisions(picton), 3);
    assert_eq!(g.casualties(ALLIED).last(), Some(&picton));
    assert_eq!(g.to_act(), Actor::Seat(ALLIED), "on to the Allied phase");
}

// ---- Rout tests --------------------------------------------------------------------------------

/// Tracks that reach RT at once: French "RT, RT+1, RT+2, B" after `french_plain` plain boxes,
/// Anglo-Allied "RT, RT, B" after `allied_plain`.
fn rt_tracks(french_plain: usize, allied_plain: usize, allied_morale: u8) -> CardSet {
    let f = format!(
        "casualties = [{}\"RT\", \"RT+1\", \"RT+2\", \"RT\", \"B\"]",
        "\"\", ".repeat(french_plain)
    );
    let a = format!(
        "casualties = [{}\"RT\", \"RT\", \"B\"]",
        "\"\", ".repeat(allied_plain)
    );
    example_with(&[
        (FRENCH_TRACK, &f),
        (ALLIED_TRACK, &a),
        (
            "[allied]\nmorale = 10",
            &format!("[allied]\nmorale = {allied_morale}"),
        ),
    ])
}

/// "If the army suffers a casualty and the casualty track is filled to the extent that this
/// casualty has to be placed in the box with letters "RT" then the army must make a rout test.
/// ... To execute a rout test the player must roll a d6. If the result is higher than the
/// current army morale level ... then the army routs and the routing player loses the game
/// which ends immediately."
#[test]
fn a_casualty_in_an_rt_box_calls_a_rout_test() {
    let mut g = start(rt_tracks(3, 0, 5));
    act(&mut g, "I Corps (d'Erlon)", 0, Some("I Corps (Orange)"));
    let events = roll(&mut g, 4); // AC1 into RT.
    assert!(events.contains(&Event::Casualty {
        seat: ALLIED,
        from: id(&g, "I Corps (Orange)"),
        index: 0,
        mark: Mark::RoutTest(0)
    }));
    assert_eq!(g.phase(), Phase::RoutTest(ALLIED));
    assert_eq!(g.to_act(), Actor::Chance);
    assert_eq!(g.chance_outcomes().len(), 6);
    // 5 is not higher than morale 5: passed.
    let events = roll(&mut g, 5);
    assert!(events.contains(&Event::RoutTest {
        seat: ALLIED,
        face: Face::new(5).unwrap(),
        modifier: 0,
        morale: 5,
        routed: false
    }));
    assert_eq!(g.to_act(), Actor::Seat(ALLIED));
    // Again, and a 6 routs.
    allied_quiet(&mut g);
    act(&mut g, "I Corps (d'Erlon)", 0, Some("I Corps (Orange)"));
    roll(&mut g, 4);
    let events = roll(&mut g, 6);
    assert!(events.contains(&Event::Routed {
        seat: ALLIED,
        how: RoutHow::Test
    }));
    assert_eq!(
        g.status(),
        Status::Won {
            winner: FRENCH,
            reason: EndReason::Routed(RoutHow::Test)
        }
    );
    // "The game continues until either army routs."
    assert_eq!(g.to_act(), Actor::Nobody);
    assert!(g.legal_actions().is_empty() && g.chance_outcomes().is_empty());
    assert_eq!(g.check(&Action::Pass), Err(Illegal::GameOver));
}

/// "If the outcome of an action was that casualties were caused to both armies pushing both
/// armies into the RT zone at the same time, the non-phasing player must make the first test
/// with the phasing player only testing if the non-phasing player passes their rout test."
#[test]
fn both_armies_in_rt_the_non_phasing_tests_first() {
    let mut g = start(rt_tracks(0, 0, 5));
    act(&mut g, "I Corps (d'Erlon)", 0, Some("I Corps (Orange)"));
    roll(&mut g, 3); // FC1 AC1: both into RT.
    assert_eq!(
        g.phase(),
        Phase::RoutTest(ALLIED),
        "the non-phasing player first"
    );
    roll(&mut g, 1);
    assert_eq!(
        g.phase(),
        Phase::RoutTest(FRENCH),
        "then the phasing player"
    );
    roll(&mut g, 1);
    assert_eq!(g.to_act(), Actor::Seat(ALLIED));
    // When the non-phasing army routs, the phasing player does not test.
    let mut g = start(rt_tracks(0, 0, 5));
    act(&mut g, "I Corps (d'Erlon)", 0, Some("I Corps (Orange)"));
    roll(&mut g, 3);
    let events = roll(&mut g, 6);
    assert!(events.contains(&Event::Routed {
        seat: ALLIED,
        how: RoutHow::Test
    }));
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::RoutTest { seat, .. } if *seat == FRENCH)));
    assert_eq!(g.to_act(), Actor::Nobody);
}

/// "The French casualty track (only) also contains boxes marked 'RT+1' and 'RT+2'. If either or
/// both of these boxes contain casualties the highest modifier is added to the rout test die
/// roll." "The die roll value can be adjusted above 6."
#[test]
fn rt_plus_boxes_add_their_highest_modifier() {
    let mut g = start(rt_tracks(0, 5, 10));
    french_quiet(&mut g);
    // Orange holds the ridge against d'Erlon: FC2 on a 6, into RT and RT+1.
    act(&mut g, "I Corps (Orange)", 0, Some("I Corps (d'Erlon)"));
    roll(&mut g, 6);
    assert_eq!(g.rout_modifier(FRENCH), 1);
    assert_eq!(g.phase(), Phase::RoutTest(FRENCH));
    let events = roll(&mut g, 6);
    assert!(events.contains(&Event::RoutTest {
        seat: FRENCH,
        face: Face::new(6).unwrap(),
        modifier: 1,
        morale: 10,
        routed: false
    }));
    french_quiet(&mut g);
    // One more: into RT+2; the highest, 2, is added: 6 + 2 = 8 against morale 10.
    act(&mut g, "I Corps (Orange)", 0, Some("I Corps (d'Erlon)"));
    roll(&mut g, 3);
    assert_eq!(g.rout_modifier(FRENCH), 2);
    let events = roll(&mut g, 6);
    assert!(events.contains(&Event::RoutTest {
        seat: FRENCH,
        face: Face::new(6).unwrap(),
        modifier: 2,
        morale: 10,
        routed: false
    }));
}

/// "If either army reach a box marked with "B" in the morale or casualty track, that army
/// immediately routs without a rout test." (Casualty track.)
#[test]
fn a_casualty_in_the_b_box_routs_at_once() {
    let set = example_with(&[(ALLIED_TRACK, r#"casualties = ["", "B"]"#)]);
    let mut g = start(set);
    act(&mut g, "I Corps (d'Erlon)", 0, Some("I Corps (Orange)"));
    let events = roll(&mut g, 6); // AC2 AM1.
    assert!(events.contains(&Event::Routed {
        seat: ALLIED,
        how: RoutHow::CasualtyTrack
    }));
    assert!(!events.iter().any(|e| matches!(e, Event::RoutTest { .. })));
    assert_eq!(
        g.status(),
        Status::Won {
            winner: FRENCH,
            reason: EndReason::Routed(RoutHow::CasualtyTrack)
        }
    );
}

/// "If either army reach a box marked with "B" in the morale or casualty track, that army
/// immediately routs without a rout test." (Morale track.)
#[test]
fn morale_at_b_routs_at_once() {
    let mut g = start(example_with(&[(
        "[allied]\nmorale = 10",
        "[allied]\nmorale = 2",
    )]));
    napoleon(&mut g, "Imperial Guard", 0, "I Corps (Orange)");
    let events = roll(&mut g, 5); // AC3 AM2.
    assert!(events.contains(&Event::MoraleLost {
        seat: ALLIED,
        by: 2,
        to: 0
    }));
    assert!(events.contains(&Event::Routed {
        seat: ALLIED,
        how: RoutHow::Morale
    }));
    assert_eq!(g.to_act(), Actor::Nobody);
}

/// Ruling (`rout_test_per_casualty`): by default an army tests once per action however many of
/// its casualties land in RT boxes; with the option, once per such casualty.
#[test]
fn one_rout_test_per_action_unless_the_option_says_per_casualty() {
    for (per_casualty, tests) in [(false, 1), (true, 2)] {
        let mut options = Options::new(rt_tracks(0, 0, 10));
        options.rout_test_per_casualty = per_casualty;
        let mut g = SaBelleAlliance::start(options, ()).unwrap();
        act(&mut g, "I Corps (d'Erlon)", 0, Some("I Corps (Orange)"));
        roll(&mut g, 6); // AC2 AM1, both into RT.
        let mut n = 0;
        while g.phase() == Phase::RoutTest(ALLIED) {
            roll(&mut g, 1);
            n += 1;
        }
        assert_eq!(n, tests, "per casualty: {per_casualty}");
    }
}

// ---- Time --------------------------------------------------------------------------------------

/// "When the French and Anglo-Allied armies together have 10 or more division markers on the
/// casualty tracks" the time marker moves one square forward, "only once per reason"; the move
/// happens in the time phase, the third of the turn.
#[test]
fn ten_casualties_move_the_time_once() {
    let mut g = example();
    let allied = [
        "I Corps (Orange)",
        "II Corps (Hill)",
        "Reserve (Picton)",
        "Cavalry (Uxbridge)",
    ];
    let french = [
        "I Corps (d'Erlon)",
        "Imperial Guard",
        "III Cavalry Corps (Kellermann)",
    ];
    let mut moves = 0;
    for turn in 0..7 {
        // The Grand Battery on a 4: AC1; Picton's charge on a 3: FC1.
        act(&mut g, "Grand Battery", 0, Some(allied[turn % 4]));
        let mut events = roll(&mut g, 4);
        act(&mut g, "Reserve (Picton)", 0, Some(french[turn % 3]));
        events.extend(roll(&mut g, 3));
        let total = g.casualties(FRENCH).len() + g.casualties(ALLIED).len();
        assert_eq!(total, 2 * turn + 2);
        let moved = events
            .iter()
            .filter(|e| matches!(e, Event::TimeAdvanced { .. }))
            .count();
        assert_eq!(moved, usize::from(total == 10), "after {total} casualties");
        moves += moved;
    }
    assert_eq!(moves, 1);
    assert_eq!(g.time_name(), "3 pm");
}

// ---- Rulings -----------------------------------------------------------------------------------

/// A small card set with the given cards (for rulings the example cannot reach).
fn tiny(cards: &[String]) -> CardSet {
    let text = set_text(10, r#""", "RT", "B""#, r#""", "RT", "B""#, 10, cards);
    CardSet::parse(&text).unwrap_or_else(|p| panic!("{p}"))
}

/// Ney, a once-a-game French card whose one action does nothing.
fn ney_card() -> String {
    card("Ney", "french", "once = true", "Charge", None, r#""-""#)
}

/// Wellington, a once-a-game Allied card whose one action does nothing.
fn wellington_card() -> String {
    card(
        "Wellington",
        "allied",
        "once = true",
        "Advance",
        None,
        r#""-""#,
    )
}

/// Orange, an Allied card with one division and one action that does nothing.
fn orange_card() -> String {
    card("Orange", "allied", "divisions = 1", "Hold", None, r#""-""#)
}

/// Ruling: a player who can activate no card passes (and only then); when neither can, the
/// game ends drawn. The rulebook foresees neither.
#[test]
fn passing_only_when_nothing_can_act_and_a_stalemate_draws() {
    let set = tiny(&[ney_card(), orange_card(), wellington_card()]);
    let mut g = start(set);
    assert_eq!(g.check(&Action::Pass), Err(Illegal::MustAct));
    let ney = id(&g, "Ney");
    // A single-row table is read without a die.
    g.play(&Action::activate(ney, 0, None)).unwrap();
    assert_eq!(g.to_act(), Actor::Seat(ALLIED));
    assert_eq!(g.check(&Action::Pass), Err(Illegal::MustAct));
    act(&mut g, "Wellington", 0, None);
    assert_eq!(g.legal_actions(), [Action::Pass]);
    let events = g.play(&Action::Pass).unwrap().events;
    assert_eq!(events, [Event::Passed(FRENCH)]);
    act(&mut g, "Orange", 0, None);
    assert_eq!(g.legal_actions(), [Action::Pass]);
    assert!(g.status().is_ongoing(), "the Allied player can still act");
    // Once neither side can activate anything, the game is drawn.
    let set = tiny(&[ney_card(), wellington_card()]);
    let mut g = start(set);
    act(&mut g, "Ney", 0, None);
    act(&mut g, "Wellington", 0, None);
    assert_eq!(
        g.status(),
        Status::Drawn {
            reason: EndReason::Stalemate
        }
    );
    assert_eq!(g.to_act(), Actor::Nobody);
}

/// Ruling: when no box of the army has a marker left, a casualty cannot be taken and is not.
#[test]
fn a_casualty_with_no_marker_left_is_not_taken() {
    let set = tiny(&[
        card("Ney", "french", "", "Charge", None, r#""AC2""#),
        orange_card(),
    ]);
    let mut g = start(set);
    let events = act(&mut g, "Ney", 0, None);
    assert!(events.contains(&Event::LastMarker(id(&g, "Orange"))));
    assert!(events.contains(&Event::NoMarkerLeft(ALLIED)));
    assert_eq!(g.casualties(ALLIED).len(), 1);
}

// ---- Decoding and views ------------------------------------------------------------------------

/// A journaled action decodes only into values in range: a card below 32, an action below 8, a
/// die face 1 to 6.
#[test]
fn journaled_actions_decode_only_in_range() {
    let a = Action::Activate {
        card: CardId::new(3),
        action: ActionId::new(1),
        target: Some(CardId::new(9)),
        napoleon: true,
    };
    let bytes = postcard::to_allocvec(&a).unwrap();
    assert_eq!(postcard::from_bytes::<Action>(&bytes), Ok(a));
    for (at, bad) in [(1, 32), (2, 8), (4, 200)] {
        let mut b = bytes.clone();
        b[at] = bad;
        assert!(
            postcard::from_bytes::<Action>(&b).is_err(),
            "byte {at} = {bad}"
        );
    }
    assert_eq!(
        postcard::from_bytes::<Action>(&[1, 6]),
        Ok(Action::Roll(Face::new(6).unwrap()))
    );
    assert!(postcard::from_bytes::<Action>(&[1, 0]).is_err());
    assert!(postcard::from_bytes::<Action>(&[1, 7]).is_err());
    assert!(postcard::from_bytes::<Action>(&[4]).is_err());
    // A card beyond this set's cards is refused by check, not by a panic.
    let g = example();
    assert_eq!(
        g.check(&Action::activate(CardId::new(31), 0, None)),
        Err(Illegal::NoSuchCard(CardId::new(31)))
    );
    let mut h = g.clone();
    h.play_unchecked(&Action::activate(CardId::new(31), 7, None));
    assert_eq!(h, g);
}

/// Nothing is secret in this game: each seat's view is the table as it stands.
#[test]
fn each_seat_sees_the_whole_table() {
    let mut g = example();
    act(&mut g, "I Corps (d'Erlon)", 0, Some("I Corps (Orange)"));
    roll(&mut g, 6);
    for seat in [FRENCH, ALLIED] {
        let v = g.view(seat);
        assert_eq!(v.seat(), seat);
        assert_eq!(v.casualties(ALLIED), g.casualties(ALLIED));
        assert_eq!(v.morale(ALLIED), 9);
        assert_eq!(v.time(), (0, "Midday"));
        assert_eq!(v.last_action(), Some((FRENCH, id(&g, "I Corps (d'Erlon)"))));
        let lhs = g.options().cards.control_id("La Haye Sainte").unwrap();
        assert_eq!(v.control(lhs), Some(Army::French));
    }
}

/// A refusal says what to do instead.
#[test]
fn refusals_say_how_to_fix_them() {
    let g = example();
    let e = refused(&g, Action::activate(id(&g, "I Corps (d'Erlon)"), 0, None));
    assert_eq!(
        e.to_string(),
        "\"Assault La Haye Sainte\" needs a target: choose one of the enemy corps it names"
    );
    let e = refused(&g, Action::activate(id(&g, "I Corps (d'Erlon)"), 5, None));
    assert_eq!(
        e.to_string(),
        "I Corps (d'Erlon) has no action 6: choose one printed on the card"
    );
    let e = refused(
        &g,
        Action::activate(
            id(&g, "I Corps (d'Erlon)"),
            0,
            Some(id(&g, "II Corps (Hill)")),
        ),
    );
    assert!(e.to_string().contains("not a target"), "{e}");
    assert_eq!(
        refused(&g, Action::Roll(Face::new(3).unwrap())),
        Illegal::NotChance
    );
    assert_eq!(
        refused(&g, Action::TakeFrom(id(&g, "Imperial Guard"))),
        Illegal::NotNow
    );
}

/// Every event reads in words with the names from the card set, for the table.
#[test]
fn events_are_announced_in_words() {
    let mut g = start(rt_tracks(3, 0, 5));
    let mut said: Vec<String> = Vec::new();
    let events = napoleon(&mut g, "I Corps (d'Erlon)", 0, "I Corps (Orange)");
    said.extend(events.iter().map(|e| g.announce(e)));
    let events = roll(&mut g, 4); // 4 + 2 = 6: AC2 AM1 CAP
    said.extend(events.iter().map(|e| g.announce(e)));
    let events = roll(&mut g, 6);
    said.extend(events.iter().map(|e| g.announce(e)));
    assert_eq!(
        said,
        [
            "French: I Corps (d'Erlon) Assault La Haye Sainte against I Corps (Orange), with Napoleon",
            "rolled 4, +2: 6",
            "the card reads AC2 AM1 CAP",
            "I Corps (Orange): one division to Anglo-Allied casualty box 1 (RT)",
            "I Corps (Orange): one division to Anglo-Allied casualty box 2 (RT)",
            "Anglo-Allied morale down 1 to 4",
            "La Haye Sainte is taken: a French marker in it",
            "Anglo-Allied rout test: 6 against morale 4: the army routs",
            "the Anglo-Allied army failed its rout test and routs: French victory",
        ]
    );
}

/// "If the Corps (or Grand Battery) loses its last marker, then one extra morale loss is caused
/// for the owning player": Blücher's Prussians with divisions still waiting to arrive have not
/// lost their last marker when the one on the map is knocked off (the same markers that let the
/// corps be activated). Fails on the code that counted only the map.
#[test]
fn the_prussians_lose_no_extra_morale_while_divisions_wait() {
    let mut g = example();
    let blucher = id(&g, "Blücher's Prussians");
    french_quiet(&mut g);
    allied_quiet(&mut g); // One Prussian division arrives: one on the map, five waiting.
    assert_eq!((g.divisions(blucher), g.waiting(blucher)), (1, 5));
    act(&mut g, "VI Corps (Lobau)", 0, Some("Blücher's Prussians"));
    let events = roll(&mut g, 3); // AC1: the Prussian on the map to the casualty track.
    assert_eq!((g.divisions(blucher), g.waiting(blucher)), (0, 5));
    assert!(!events.contains(&Event::LastMarker(blucher)), "{events:?}");
    assert_eq!(g.morale(ALLIED), 10);
}
