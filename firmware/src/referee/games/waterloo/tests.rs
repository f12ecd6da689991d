//! The adapter alone: set-up groups, the board with its trays, gestures, labels, refusals and
//! announcements, on positions built with `Waterloo::from_position`.

use boards::geometry::grid::{Cell, Dir};
use boards::waterloo::{Action, ChanceAction, DieFace, Flank, Unit, Version, Waterloo};
use boards::{Actor, BySeat, Game};

use super::*;
use crate::referee::games::WaterlooChoice;
use crate::referee::table::{Gesture, TableGame};
use crate::sensing::{Place, TrayKind};
use crate::ui::Screen;

fn c(s: &str) -> Cell {
    Cell::parse(s).unwrap()
}

fn sq(s: &str) -> Place {
    Place::Square(c(s))
}

fn choice(version: Version) -> WaterlooChoice {
    WaterlooChoice {
        version,
        early_start: false,
        prussians_uncertain: false,
        mud: false,
        layout: Default::default(),
    }
}

fn reserve(seat: boards::Seat, slot: u8) -> Place {
    Place::Tray {
        tray: TrayKind::Reserve,
        seat,
        slot,
    }
}

fn withdrawn(seat: boards::Seat, slot: u8) -> Place {
    Place::Tray {
        tray: TrayKind::Withdrawn,
        seat,
        slot,
    }
}

/// A game of `version` from a position: both commanders and commanders-in-chief on their back
/// rows (a1 b1, a10 b10) plus `allied` and `french`, `reserve` off the board; nothing drawn.
fn from_position(
    version: Version,
    allied: &[(&str, Unit)],
    french: &[(&str, Unit)],
    reserve: [Vec<Unit>; 2],
) -> WaterlooTable {
    let mut a = vec![(c("a1"), Unit::Wellington), (c("b1"), Unit::Uxbridge)];
    a.extend(allied.iter().map(|(s, u)| (c(s), *u)));
    let mut f = vec![(c("a10"), Unit::Napoleon), (c("b10"), Unit::Ney)];
    f.extend(french.iter().map(|(s, u)| (c(s), *u)));
    let choice = choice(version);
    let game = Waterloo::from_position(options(choice), &BySeat([a, f]), &BySeat(reserve)).unwrap();
    WaterlooTable::from_game(choice, game)
}

/// A Basic game [`from_position`], both lines of retreat on the left flank.
fn position(
    allied: &[(&str, Unit)],
    french: &[(&str, Unit)],
    reserve: [Vec<Unit>; 2],
) -> WaterlooTable {
    let mut t = from_position(Version::Basic, allied, french, reserve);
    for _ in 0..2 {
        t.play(&WaterlooAction::rules(Action::Chance(
            ChanceAction::Retreat(Flank::Left),
        )));
    }
    assert_eq!(t.to_act(), Actor::Seat(ALLIED));
    t
}

/// A Standard game [`from_position`], nothing in reserve, the umpire's first draws made.
fn standard(allied: &[(&str, Unit)], french: &[(&str, Unit)]) -> WaterlooTable {
    let mut t = from_position(Version::Standard, allied, french, Default::default());
    while t.to_act() == Actor::Chance {
        let a = t.chance()[0].0;
        t.play(&a);
    }
    t
}

/// What a `Told` screen says: its title and lines.
fn told(screen: Screen) -> (String, Vec<String>) {
    match screen {
        Screen::Told { title, lines, .. } => (title, lines),
        other => panic!("{other:?}"),
    }
}

fn gesture_of(t: &WaterlooTable, action: Action) -> Vec<Gesture> {
    t.gestures()
        .into_iter()
        .filter(|(_, a)| a.action == action)
        .map(|(g, _)| g)
        .collect()
}

fn end_turn(t: &mut WaterlooTable) {
    t.play(&WaterlooAction::rules(Action::EndTurn));
}

#[test]
fn the_layout_holds_the_board_and_every_tray() {
    let layout = WaterlooTable::layout(choice(Version::Standard))
        .validate()
        .unwrap();
    assert_eq!(
        layout.cell_count(),
        120 + 10 + 24 + 13 + 20 + 20,
        "12 x 10 squares, reserves (10 and 10 + 14 held back), 13 Prussians, withdrawn"
    );
    for place in [
        sq("l10"),
        reserve(ALLIED, 9),
        reserve(FRENCH, 23),
        withdrawn(FRENCH, 19),
        Place::Tray {
            tray: TrayKind::PrussianStaging,
            seat: ALLIED,
            slot: 12,
        },
    ] {
        assert!(layout.cell(place).is_some(), "{place}");
    }
    assert_eq!(
        WaterlooTable::place_words(&reserve(FRENCH, 2)),
        "French reserve slot 3"
    );
    assert_eq!(WaterlooTable::place_words(&sq("c5")), "c5");
}

#[test]
fn every_piece_is_asked_for_unit_by_unit() {
    // "The French player takes his 47 pieces and the Allied player takes his 45 pieces";
    // "Take the 13 Prussian pieces ... put them on the side of the board".
    let ch = choice(Version::Basic);
    let allied = WaterlooTable::groups(ch, ALLIED);
    let french = WaterlooTable::groups(ch, FRENCH);
    let sum = |g: &[Group]| g.iter().map(|g| usize::from(g.count)).sum::<usize>();
    assert_eq!(sum(&allied), 45 + 13);
    assert_eq!(sum(&french), 47);
    assert!(allied.iter().all(|g| g.min == g.count));
    assert_eq!(allied[0].label, "1 Wellington (rows 1-4)");
    assert_eq!(
        allied
            .iter()
            .find(|g| g.label.contains("British Foot"))
            .unwrap()
            .label,
        "18 British Foot (rows 1-4 or reserve slots)"
    );
    assert_eq!(
        allied.last().unwrap().label,
        "1 Pr. Artillery on Prussian staging slots"
    );
    assert_eq!(
        french
            .iter()
            .find(|g| g.label.contains("Old Guard"))
            .unwrap()
            .label,
        "1 Old Guard (rows 7-10 or reserve slots)"
    );
    // "The following 14 blue pieces will remain off the board during the army set-up".
    let early = WaterlooChoice {
        early_start: true,
        ..ch
    };
    let label = WaterlooTable::groups(early, FRENCH)
        .into_iter()
        .find(|g| g.label.contains("Line Inf"))
        .unwrap()
        .label;
    assert_eq!(
        label,
        "15 Fr. Line Inf (rows 7-10 or reserve slots; 5 held back on reserve slots)"
    );
    let held: u8 = HELD_BACK.iter().map(|(_, n)| n).sum();
    assert_eq!(held, 14);
}

#[test]
fn the_held_back_list_is_the_rules_list() {
    // The table's copy of "Start the battle early!"'s 14 pieces agrees with the rules'.
    let mut opts = options(choice(Version::Basic));
    opts.early_start = true;
    let mut seed = 3usize;
    let setup = Setup::random(&opts, |n| {
        seed = seed.wrapping_mul(48271).wrapping_add(11);
        seed % n
    });
    let game = Waterloo::start(opts, setup).unwrap();
    let mut from_rules = game.held_back().to_vec();
    from_rules.sort();
    let mut ours: Vec<Unit> = HELD_BACK
        .iter()
        .flat_map(|(u, n)| std::iter::repeat_n(*u, usize::from(*n)))
        .collect();
    ours.sort();
    assert_eq!(ours, from_rules);
}

/// The places of `seat`'s groups for a simple set-up: every piece on the set-up rows in order,
/// the last `in_reserve` of the line infantry on reserve slots, the Prussians on staging.
fn filled(ch: WaterlooChoice, seat: boards::Seat, in_reserve: usize) -> Vec<Vec<Place>> {
    let rows: Vec<u8> = if seat == ALLIED {
        vec![0, 1, 2, 3]
    } else {
        vec![9, 8, 7, 6]
    };
    let mut squares = rows
        .iter()
        .flat_map(|&r| (0..12).map(move |col| Place::Square(Cell::new(col, r))));
    let mut slot = 0u8;
    let mut staging = 0u8;
    WaterlooTable::groups(ch, seat)
        .iter()
        .map(|g| {
            (0..g.count)
                .map(|i| {
                    if g.label.contains("staging") {
                        staging += 1;
                        Place::Tray {
                            tray: TrayKind::PrussianStaging,
                            seat: ALLIED,
                            slot: staging - 1,
                        }
                    } else if (g.label.contains("British Foot") || g.label.contains(" Line Inf ("))
                        && usize::from(g.count - i) <= in_reserve
                    {
                        slot += 1;
                        reserve(seat, slot - 1)
                    } else {
                        squares.next().unwrap()
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn an_army_is_read_from_squares_and_reserve_slots() {
    let ch = choice(Version::Basic);
    let army = WaterlooTable::army(ch, ALLIED, &filled(ch, ALLIED, 3)).unwrap();
    assert_eq!(army.placements.len(), 42);
    assert_eq!(army.trays.len(), 3 + 13);
    assert!(army
        .trays
        .contains(&(reserve(ALLIED, 0), Unit::BritishFoot)));
    let french = WaterlooTable::army(ch, FRENCH, &filled(ch, FRENCH, 0)).unwrap();
    let t = WaterlooTable::start(ch, &BySeat([army, french])).unwrap();
    assert_eq!(t.game().reserve(ALLIED), &[Unit::BritishFoot; 3]);
    assert_eq!(t.trays().len(), 3 + 13);
    // The board the umpire expects: 42 + 47 squares, 3 reserve slots, 13 staging slots.
    assert_eq!(t.board().len(), 42 + 47 + 3 + 13);
    assert_eq!(t.board()[&reserve(ALLIED, 1)], "Allied piece");
}

#[test]
fn set_up_problems_name_each_fix_without_placing_a_hidden_unit() {
    // "Commanders and Commanders in Chief must ALWAYS be placed on the board!"
    let ch = choice(Version::Basic);
    let mut groups = filled(ch, ALLIED, 0);
    let wellington = groups[0][0];
    groups[0][0] = reserve(ALLIED, 9);
    // A Prussian on a reserve slot, a Hussar on the French reserve tray, a piece on row 5.
    let last = groups.len() - 1;
    groups[last][0] = reserve(ALLIED, 8);
    let hussars = WaterlooTable::groups(ch, ALLIED)
        .iter()
        .position(|g| g.label.contains("KGL Hussars"))
        .unwrap();
    groups[hussars][0] = reserve(FRENCH, 0);
    groups[hussars][1] = sq("e5");
    let problems = WaterlooTable::army(ch, ALLIED, &groups).unwrap_err();
    assert_eq!(
        problems,
        [
            "Allied: Duke of Wellington must always be placed on the board: move it from \
             Allied reserve slot 10 to your set-up rows",
            "Allied: French reserve slot 1 is not one of your reserve slots: move the piece to \
             your set-up rows or a reserve slot",
            "Allied: the Prussians wait on the Prussian staging slots: move the piece on Allied \
             reserve slot 9 to one",
            "Allied: e5 is outside your four set-up rows: move the piece back",
            "Allied: Duke of Wellington must always be placed on the board: move it to your \
             set-up rows",
        ]
    );
    assert_ne!(wellington, reserve(ALLIED, 9));
    // The rules' maximum: "they can keep a maximum of 10 pieces in reserve".
    let french = filled(ch, FRENCH, 11);
    let problems = WaterlooTable::army(ch, FRENCH, &french).unwrap_err();
    assert_eq!(
        problems,
        ["French: 11 pieces in reserve (max 10): put more on your set-up rows"]
    );
}

#[test]
fn the_board_shows_backs_until_a_battle_reveals_them() {
    // "On the back of the pieces - to the opponent - they are recognisable by the following
    // symbols: INFANTRY • CAVALRY • ARTILLERY"; line infantry and heavy cavalry by "an
    // asterisk (*)". "Both pieces are then revealed."
    let mut t = position(
        &[("e4", Unit::BritishFoot), ("g4", Unit::ScotsGreys)],
        &[("e6", Unit::FrenchLineInfantry), ("g7", Unit::Chasseurs)],
        [vec![Unit::KglHussars], vec![Unit::OldGuard]],
    );
    let board = t.board();
    assert_eq!(board[&sq("e4")], "Allied infantry*");
    assert_eq!(board[&sq("g4")], "Allied cavalry*");
    assert_eq!(
        board[&sq("a1")],
        "Allied cavalry",
        "commanders show plain cavalry"
    );
    assert_eq!(board[&sq("e6")], "French infantry*");
    assert_eq!(board[&reserve(ALLIED, 0)], "Allied piece");
    assert_eq!(board[&reserve(FRENCH, 0)], "French piece");
    // Scots Greys (5) charge the Chasseurs (2): both revealed, the winner stays named.
    let attack = Action::Attack {
        from: c("g4"),
        to: c("g7"),
        dir: Dir::Up,
    };
    t.play(&WaterlooAction::rules(attack));
    assert_eq!(t.board()[&sq("g7")], "Scots Greys");
    assert_eq!(t.board()[&sq("e6")], "French infantry*");
}

#[test]
fn each_action_kind_has_its_gesture() {
    let t = position(
        &[
            ("e4", Unit::Rifles95th),
            ("c3", Unit::BritishArtillery),
            ("h2", Unit::BritishFoot),
        ],
        &[("e5", Unit::FrenchLineInfantry), ("c6", Unit::Cuirassiers)],
        [vec![Unit::BritishFoot], Vec::new()],
    );
    // Move = lift A, place B.
    assert_eq!(
        gesture_of(
            &t,
            Action::Move {
                from: c("h2"),
                to: c("h4")
            }
        ),
        [Gesture::slide(sq("h2"), sq("h4"))]
    );
    // Attack = lift both; light infantry may reach e5 from three sides ("This need not be in
    // a straight line"), one gesture for three actions, told apart by a menu.
    let attacks: Vec<WaterlooAction> = t
        .gestures()
        .into_iter()
        .filter(|(g, _)| *g == Gesture::lift_two(sq("e5"), sq("e4")))
        .map(|(_, a)| a)
        .collect();
    let labels: Vec<String> = attacks.iter().map(|a| t.label(a)).collect();
    assert_eq!(
        labels,
        [
            "e4 attacks e5 from south",
            "e4 attacks e5 from west",
            "e4 attacks e5 from east",
        ]
    );
    // Fire = lift and put back the artillery, then lift the target ("Artillery can fire
    // frontally up to a distance of 3 spaces IF the spaces in front are empty").
    assert_eq!(
        gesture_of(
            &t,
            Action::Fire {
                from: c("c3"),
                at: c("c6"),
                tile: false
            }
        ),
        [Gesture::select_then_lift(sq("c3"), sq("c6"))]
    );
    // Entry = a move from the reserve slot to the back row ("this unit will always be placed
    // on the bottom row").
    let entry = gesture_of(
        &t,
        Action::Enter {
            unit: Unit::BritishFoot,
            to: c("d1"),
        },
    );
    assert_eq!(entry, [Gesture::slide(reserve(ALLIED, 0), sq("d1"))]);
    assert!(gesture_of(
        &t,
        Action::Enter {
            unit: Unit::BritishFoot,
            to: c("d2"),
        }
    )
    .is_empty());
    // Nothing made by the hands is also a menu entry, but the end of the turn is.
    let choices = t.choices();
    assert_eq!(choices[0].0, "end the Allied turn (3 actions unused)");
    assert!(choices
        .iter()
        .all(|(_, a)| !matches!(a.action, Action::Move { .. } | Action::Attack { .. })));
}

#[test]
fn an_entry_takes_the_slot_the_hands_emptied() {
    let mut t = position(
        &[],
        &[("e7", Unit::FrenchLineInfantry)],
        [
            vec![Unit::BritishFoot, Unit::Highlanders, Unit::BritishFoot],
            Vec::new(),
        ],
    );
    assert_eq!(t.trays()[&reserve(ALLIED, 1)], Unit::BritishFoot);
    assert_eq!(t.trays()[&reserve(ALLIED, 2)], Unit::Highlanders);
    let gestures = gesture_of(
        &t,
        Action::Enter {
            unit: Unit::BritishFoot,
            to: c("e1"),
        },
    );
    assert_eq!(gestures.len(), 2, "either British Foot may come on");
    let action = WaterlooAction {
        action: Action::Enter {
            unit: Unit::BritishFoot,
            to: c("e1"),
        },
        slot: Some(reserve(ALLIED, 1)),
    };
    assert_eq!(t.label(&action), "entry on e1 from Allied reserve slot 2");
    let screen = t.play(&action);
    assert!(matches!(screen, Screen::Told { .. }), "{screen:?}");
    assert!(!t.trays().contains_key(&reserve(ALLIED, 1)));
    assert_eq!(t.trays()[&reserve(ALLIED, 0)], Unit::BritishFoot);
    assert_eq!(t.trays()[&reserve(ALLIED, 2)], Unit::Highlanders);
    assert_eq!(t.board()[&sq("e1")], "Allied infantry*");
    // The slot is checked: an empty one, or the French tray, is refused in words.
    let wrong = WaterlooAction {
        slot: Some(reserve(ALLIED, 1)),
        ..action
    };
    assert_eq!(
        t.check(&wrong),
        Err("Allied reserve slot 2 does not hold that piece: take the piece from its slot".into())
    );
}

#[test]
fn a_withdrawn_piece_waits_on_a_withdrawn_slot_and_comes_back() {
    // Die "Red R": "The Blue piece is not eliminated but withdraws off the board behind the
    // front lines. At the cost of one action, starting next turn, it can be put back on the
    // back row of the game board."
    let mut t = position(
        &[("e4", Unit::BritishFoot)],
        &[("e5", Unit::FrenchLineInfantry)],
        [Vec::new(), Vec::new()],
    );
    let attack = WaterlooAction::rules(Action::Attack {
        from: c("e4"),
        to: c("e5"),
        dir: Dir::Up,
    });
    let screen = t.play(&attack);
    assert_eq!(
        screen,
        Screen::Battle {
            attacker: "British Foot (3)".into(),
            defender: "Fr. Line Inf (3)".into(),
            result: "equal strength: press Die to roll the battle die".into(),
            after: Vec::new(),
            hands: Vec::new(),
            places: Default::default(),
        }
    );
    assert!(t.die_button(), "the battle die is rolled in the open");
    let screen = t.play(&WaterlooAction::rules(Action::Chance(ChanceAction::Die(
        DieFace::RedR,
    ))));
    assert_eq!(
        screen,
        Screen::DieRoll {
            face: "Red R".into(),
            meaning: "Fr. Line Inf on e5 withdraws off the board (R)".into(),
        }
    );
    let slot = withdrawn(FRENCH, 0);
    assert_eq!(t.trays()[&slot], Unit::FrenchLineInfantry);
    assert_eq!(t.board()[&slot], "French piece");
    assert_eq!(t.board()[&sq("e5")], "British Foot");
    end_turn(&mut t);
    // The French turn: back on the back row from the withdrawn slot, for one action.
    let back = Action::Enter {
        unit: Unit::FrenchLineInfantry,
        to: c("e10"),
    };
    assert_eq!(gesture_of(&t, back), [Gesture::slide(slot, sq("e10"))]);
    t.play(&WaterlooAction {
        action: back,
        slot: Some(slot),
    });
    assert!(!t.trays().contains_key(&slot));
    // "a piece that leaves the board comes back hidden" (ruling 6).
    assert_eq!(t.board()[&sq("e10")], "French infantry*");
}

/// Rulebook 8: "If a Commander has to temporarily withdraw behind the lines because of this
/// rule, the player loses one action each turn. If the player reinstates the Commander during
/// his/her next turn, he/she will not lose that action." With the turn's two actions used, the
/// turn waits: the prompt says the commander may still come back, and bringing him back from
/// his withdrawn slot ends the turn.
#[test]
fn the_turn_waits_for_a_withdrawn_commander_and_says_so() {
    let mut t = position(
        &[("b9", Unit::Highlanders)],
        &[("e8", Unit::FrenchLineInfantry)],
        [Vec::new(), Vec::new()],
    );
    t.play(&WaterlooAction::rules(Action::Attack {
        from: c("b9"),
        to: c("b10"),
        dir: Dir::Up,
    }));
    t.play(&WaterlooAction::rules(Action::Chance(ChanceAction::Die(
        DieFace::RedR,
    ))));
    let slot = withdrawn(FRENCH, 0);
    assert_eq!(t.trays()[&slot], Unit::Ney);
    end_turn(&mut t);
    assert_eq!(t.to_act(), Actor::Seat(FRENCH));
    assert!(
        t.prompt().contains("move, attack, fire or enter"),
        "{}",
        t.prompt()
    );
    for (from, to) in [("e8", "e7"), ("e7", "e6")] {
        t.play(&WaterlooAction::rules(Action::Move {
            from: c(from),
            to: c(to),
        }));
    }
    assert_eq!(t.to_act(), Actor::Seat(FRENCH), "the turn waits");
    assert_eq!(
        t.prompt(),
        "French: no action left; the commander may come back; OK: menu"
    );
    let back = Action::Enter {
        unit: Unit::Ney,
        to: c("c10"),
    };
    assert_eq!(gesture_of(&t, back), [Gesture::slide(slot, sq("c10"))]);
    t.play(&WaterlooAction {
        action: back,
        slot: Some(slot),
    });
    assert_eq!(t.to_act(), Actor::Seat(ALLIED));
}

#[test]
fn weakened_cavalry_is_taken_off_onto_a_free_slot() {
    // "Heavy Cavalry pieces lose 1 strength each time they charge a piece"; "Taking them off
    // the board does not cost an action"; "only ... AFTER the opponent has had the
    // opportunity to counter charge at least once!"
    let mut t = position(
        &[("g4", Unit::ScotsGreys)],
        &[("g7", Unit::Chasseurs)],
        [Vec::new(), Vec::new()],
    );
    t.play(&WaterlooAction::rules(Action::Attack {
        from: c("g4"),
        to: c("g7"),
        dir: Dir::Up,
    }));
    let take_off = Action::TakeOff { from: c("g7") };
    assert!(
        gesture_of(&t, take_off).is_empty(),
        "not before a counter-charge"
    );
    end_turn(&mut t);
    end_turn(&mut t);
    let gestures = gesture_of(&t, take_off);
    assert_eq!(gestures[0], Gesture::slide(sq("g7"), withdrawn(ALLIED, 0)));
    assert_eq!(
        gestures.len(),
        20 + 10,
        "any free withdrawn or reserve slot"
    );
    let menu: Vec<String> = t.choices().into_iter().map(|(l, _)| l).collect();
    assert!(menu.contains(&"take g7 off to regain strength".into()));
    t.play(&WaterlooAction {
        action: take_off,
        slot: Some(withdrawn(ALLIED, 4)),
    });
    assert_eq!(t.trays()[&withdrawn(ALLIED, 4)], Unit::ScotsGreys);
    assert_eq!(t.game().actions().1, 3, "no action spent");
}

#[test]
fn fire_is_told_and_a_building_is_a_menu_choice() {
    // Standard: "Artillery cannot fire on units within a building, they will always fire ON
    // the building first." Hougoumont is i5 j5 i6 j6 by default.
    let mut t = standard(
        &[
            ("i3", Unit::BritishArtillery),
            ("d2", Unit::BritishArtillery),
        ],
        &[("d5", Unit::Cuirassiers)],
    );
    // The draft of the Standard game first: every pick is a menu entry.
    while t.game().phase() != boards::waterloo::Phase::Act {
        let (label, a) = t.choices()[0].clone();
        assert!(
            label.starts_with("keep ") || label.starts_with("discard "),
            "{label}"
        );
        t.play(&a);
    }
    let choices: Vec<String> = t.choices().into_iter().map(|(l, _)| l).collect();
    assert!(
        choices.contains(&"i3 fires at Hougoumont (i5)".to_string()),
        "{choices:?}"
    );
    // d5 is in La Haye (c5 d5 c6 d6): fire at the Cuirassiers hits the building.
    let fire = Action::Fire {
        from: c("d2"),
        at: c("d5"),
        tile: true,
    };
    assert_eq!(
        gesture_of(&t, fire),
        [Gesture::select_then_lift(sq("d2"), sq("d5"))]
    );
    let (title, lines) = told(t.play(&WaterlooAction::rules(fire)));
    assert_eq!(title, "d2 fires at La Haye (d5)");
    assert_eq!(lines, ["La Haye is hit: strength 3 left"]);
}

#[test]
fn refusals_never_name_a_hidden_piece() {
    // "Each turn, a player may only move three pieces", and a withdrawn piece comes back only
    // "starting next turn": the rules' reason names the unit, the table's does not.
    let mut t = position(
        &[("e4", Unit::BritishFoot)],
        &[("e5", Unit::FrenchLineInfantry)],
        [Vec::new(), Vec::new()],
    );
    t.play(&WaterlooAction::rules(Action::Attack {
        from: c("e4"),
        to: c("e5"),
        dir: Dir::Up,
    }));
    t.play(&WaterlooAction::rules(Action::Chance(ChanceAction::Die(
        DieFace::BlueR,
    ))));
    let slot = withdrawn(ALLIED, 0);
    assert_eq!(t.trays()[&slot], Unit::BritishFoot);
    let back = t.shaped(&Gesture::slide(slot, sq("e1")));
    assert_eq!(back.len(), 1);
    let reason = t.check(&back[0]).unwrap_err();
    assert!(!reason.contains("British"), "{reason}");
    assert!(reason.starts_with("that piece cannot come onto the board now"));
    // A line infantry piece cannot go three squares ("can move two spaces each action").
    // The French piece won and took e4 ("may now take the place of the Red/Black piece").
    let far = t.shaped(&Gesture::slide(sq("e4"), sq("e8")));
    assert_eq!(
        t.check(&far[0]),
        Err("the piece on e4 is not yours: use your own".to_string())
    );
    let far = t.shaped(&Gesture::slide(sq("a1"), sq("c2")));
    assert!(t.check(&far[0]).unwrap_err().contains("cannot reach c2"));
}

#[test]
fn draws_nobody_sees_are_never_named() {
    // "After having seen what card has been pulled, they must lay the card face down".
    let mut t = from_position(Version::Basic, &[], &[], Default::default());
    assert!(!t.die_button());
    let draw = WaterlooAction::rules(Action::Chance(ChanceAction::Retreat(Flank::Right)));
    assert_eq!(t.label(&draw), "Allied draws a line of retreat");
    let screen = t.play(&draw);
    let text = format!("{screen:?}");
    assert!(!text.contains("ight"), "{text}");
    assert!(text.contains("Allied line of retreat drawn (secret)"));
    let (title, lines) = told(t.play(&WaterlooAction::rules(Action::Chance(
        ChanceAction::Retreat(Flank::Centre),
    ))));
    assert_eq!(title, "Lines of retreat");
    assert_eq!(
        lines,
        [
            "Allied line of retreat drawn (secret)",
            "French line of retreat drawn (secret)",
            "Allied turn: 3 actions"
        ]
    );
}

/// Each seat's page lists its own line of retreat, never the enemy's: nothing before the draw.
#[test]
fn each_seat_is_told_its_own_line_of_retreat_alone() {
    let mut t = from_position(Version::Basic, &[], &[], Default::default());
    assert!(t.seat_secrets(ALLIED).is_empty(), "nothing drawn yet");
    t.play(&WaterlooAction::rules(Action::Chance(
        ChanceAction::Retreat(Flank::Right),
    )));
    t.play(&WaterlooAction::rules(Action::Chance(
        ChanceAction::Retreat(Flank::Centre),
    )));
    let allied = t.seat_secrets(ALLIED).join(" ");
    let french = t.seat_secrets(FRENCH).join(" ");
    assert!(allied.contains("your right flank (grids 9-12)"), "{allied}");
    assert!(!allied.contains("centre"), "{allied}");
    assert!(french.contains("your centre (grids 5-8)"), "{french}");
    assert!(!french.contains("right"), "{french}");
}

#[test]
fn the_prussians_come_from_staging_onto_their_entry_squares() {
    // "After the 12th turn, the Allied player may take two Prussian pieces without looking at
    // them and position them ... on the Black Prussian flag".
    let mut t = position(&[], &[], [Vec::new(), Vec::new()]);
    assert_eq!(t.trays().len(), 13);
    assert_eq!(t.status_line().reinforcements_in, Some(12));
    while t.to_act() != Actor::Chance {
        end_turn(&mut t);
    }
    assert_eq!(t.game().turn(), 13);
    assert!(!t.die_button(), "the Prussian draw is secret");
    let drawn = t.chance();
    assert_eq!(drawn.iter().map(|(_, w)| w).sum::<u32>(), 13);
    let landwehr = WaterlooAction::rules(Action::Chance(ChanceAction::Prussian(Unit::Landwehr)));
    assert_eq!(t.label(&landwehr), "a Prussian is drawn");
    let first = t.play(&landwehr);
    let second = t.play(&WaterlooAction::rules(Action::Chance(
        ChanceAction::Prussian(Unit::VonBulow),
    )));
    for screen in [&first, &second] {
        let text = format!("{screen:?}");
        assert!(
            !text.contains("Landwehr") && !text.contains("Bulow"),
            "{text}"
        );
    }
    let (_, lines) = told(second);
    assert!(lines.contains(&"a Prussian arrives on a5".to_string()));
    assert!(lines.contains(&"a Prussian arrives on a6".to_string()));
    assert_eq!(t.trays().len(), 11);
    let board = t.board();
    assert_eq!(board[&sq("a5")], "Prussian infantry");
    assert_eq!(board[&sq("a6")], "Prussian cavalry");
    // Von Bulow sat on staging slot 1, the first Landwehr on slot 5.
    for slot in [0, 4] {
        assert!(!board.contains_key(&Place::Tray {
            tray: TrayKind::PrussianStaging,
            seat: ALLIED,
            slot,
        }));
    }
    assert_eq!(t.game().actions(), (4, 4), "the Prussian action");
}

#[test]
fn cards_are_menu_entries_with_public_labels() {
    let mut t = standard(
        &[("e4", Unit::BritishFoot)],
        &[("e5", Unit::FrenchLineInfantry)],
    );
    // The open draft: the Allied player keeps Fighting spirit, then discards.
    let pick = |t: &WaterlooTable, want: &str| {
        t.choices()
            .into_iter()
            .find(|(l, _)| l == want)
            .map(|(_, a)| a)
            .unwrap_or_else(|| panic!("{want}: {:?}", t.choices()))
    };
    let keep = pick(&t, "keep Fighting spirit");
    let screen = t.play(&keep);
    assert_eq!(t.prompt(), "Allied: choose a card to discard (OK)");
    // The draft's next step is said with each card taken: nothing else tells the table.
    match screen {
        Screen::Told { title, lines, .. } => {
            assert_eq!(title, "keep Fighting spirit");
            assert_eq!(
                lines,
                [
                    "Allied keeps Fighting spirit",
                    "Allied: choose a card to discard (OK)"
                ]
            );
        }
        other => panic!("{other:?}"),
    }
    while t.game().phase() != boards::waterloo::Phase::Act {
        let a = t.choices()[0].1;
        t.play(&a);
    }
    assert!(t
        .game()
        .hand(ALLIED)
        .contains(&boards::waterloo::Card::FightingSpirit));
    let labels: Vec<String> = t.choices().into_iter().map(|(l, _)| l).collect();
    assert!(
        labels.contains(&"play Fighting spirit on e4".to_string()),
        "{labels:?}"
    );
    // "Exceptionally, this card can also be played as a defensive move when one of his
    // pieces is being attacked": offered when the French attack.
    end_turn(&mut t);
    let (title, lines) = told(t.play(&WaterlooAction::rules(Action::Attack {
        from: c("e5"),
        to: c("e4"),
        dir: Dir::Down,
    })));
    assert_eq!(title, "e5 attacks e4 from north");
    assert_eq!(lines, ["Allied: play Fighting spirit in defence? (OK)"]);
    let labels: Vec<String> = t.choices().into_iter().map(|(l, _)| l).collect();
    assert_eq!(
        labels,
        [
            "play Fighting spirit on e4 in defence",
            "decline Fighting spirit"
        ]
    );
    let spirit = t.choices()[0].1;
    let screen = t.play(&spirit);
    match screen {
        Screen::Battle {
            attacker,
            defender,
            result,
            ..
        } => {
            assert_eq!(attacker, "Fr. Line Inf (3)");
            assert_eq!(defender, "British Foot (4)");
            assert_eq!(result, "British Foot holds");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_fortified_building_asks_for_its_flag() {
    // "A building is only considered fortified when ALL the four spaces of the building have
    // been occupied." "Once conquered, an Ownership flag with the flag of the owner, is placed
    // on the building."
    let mut t = from_position(
        Version::Standard,
        &[
            ("i5", Unit::BritishFoot),
            ("j5", Unit::BritishFoot),
            ("i6", Unit::Highlanders),
            ("k6", Unit::BrunswickLeib),
        ],
        &[],
        Default::default(),
    );
    while t.game().phase() != boards::waterloo::Phase::Act {
        let next = match t.to_act() {
            Actor::Chance => t.chance()[0].0,
            _ => t.choices()[0].1,
        };
        t.play(&next);
    }
    assert_eq!(t.to_act(), Actor::Seat(ALLIED));
    let (title, lines) = told(t.play(&WaterlooAction::rules(Action::Move {
        from: c("k6"),
        to: c("j6"),
    })));
    assert_eq!(title, "k6-j6");
    assert_eq!(
        lines,
        ["Hougoumont is fortified: put the Allied flag on it"]
    );
}

/// "They can keep a maximum of 10 pieces in reserve": the eleventh piece put on a reserve slot
/// is refused as it goes down, with the fix, not after the last group (it failed on the code
/// that judged each piece alone). The held-back pieces of "Start the battle early!" wait on
/// reserve slots without counting.
#[test]
fn the_piece_too_many_in_reserve_is_refused_as_it_goes_down() {
    let units = group_units(FRENCH);
    let infantry = units
        .iter()
        .position(|(u, _)| u.count() >= 11)
        .or_else(|| units.iter().position(|(u, _)| u.count() >= 2))
        .expect("a unit of several pieces");
    let slot = |n: u8| Place::Tray {
        tray: TrayKind::Reserve,
        seat: FRENCH,
        slot: n,
    };
    // Ten pieces of the army (any groups) already on reserve slots 1-10.
    let mut earlier: Vec<(usize, Place)> = Vec::new();
    let mut n = 0u8;
    'fill: for (g, (unit, goes)) in units.iter().enumerate() {
        if *goes != Goes::Board || is_commander(*unit) {
            continue;
        }
        for _ in 0..unit.count() {
            if n == 10 {
                break 'fill;
            }
            earlier.push((g, slot(n)));
            n += 1;
        }
    }
    let armies: BySeat<Option<WaterlooArmy>> = BySeat::default();
    let at = |place: &Place, earlier: &[(usize, Place)]| {
        WaterlooTable::may_place_among(
            choice(Version::Basic),
            &Placing {
                seat: FRENCH,
                group: infantry,
                place,
                earlier,
                armies: &armies,
            },
        )
    };
    let eleventh = slot(10);
    let why = at(&eleventh, &earlier).expect_err("an eleventh piece in reserve");
    assert!(
        why.contains("11 pieces in reserve (max 10)") && why.contains("set-up rows"),
        "{why}"
    );
    // The tenth was fine, and so is the eleventh piece put on the set-up rows.
    assert_eq!(at(&slot(9), &earlier[..9]), Ok(()));
    assert_eq!(at(&sq("a10"), &earlier), Ok(()));
}

/// "Start the battle early!": the held-back pieces "remain off the board during the army
/// set-up": one put on a square is refused as it goes down, the fix a reserve slot; on a
/// reserve slot it does not count against the ten.
#[test]
fn a_held_back_piece_put_on_the_board_is_refused_as_it_goes_down() {
    let early = WaterlooChoice {
        early_start: true,
        ..choice(Version::Expert)
    };
    let units = group_units(FRENCH);
    let (group, unit) = units
        .iter()
        .enumerate()
        .find(|(_, (u, _))| held_back(early, *u) == u.count())
        .map(|(g, (u, _))| (g, *u))
        .expect("a unit held back whole");
    let armies: BySeat<Option<WaterlooArmy>> = BySeat::default();
    let placing = |place: &Place| {
        WaterlooTable::may_place_among(
            early,
            &Placing {
                seat: FRENCH,
                group,
                place,
                earlier: &[],
                armies: &armies,
            },
        )
    };
    let why = placing(&sq("a10")).expect_err("held back");
    assert!(
        why.contains(unit.short()) && why.contains("(max 0)") && why.contains("reserve slot"),
        "{why}"
    );
    let reserve = Place::Tray {
        tray: TrayKind::Reserve,
        seat: FRENCH,
        slot: 0,
    };
    assert_eq!(placing(&reserve), Ok(()));
}
