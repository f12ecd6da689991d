//! Stratego: Waterloo, rule by rule: each test quotes the sentence of the rulebook
//! (*Stratego: Waterloo, Rules of the game*) it checks.

use boards::geometry::grid::{Cell, Dir};
use boards::waterloo::{
    Action, Army, BattleResult, ChanceAction, Class, DieFace, EndReason, Event, Flank, Illegal,
    Layout, Options, Phase, Seen, Setup, SetupProblem, Unit, Version, Waterloo, ALLIED, FRENCH,
};
use boards::{Actor, Game, Status};

fn c(s: &str) -> Cell {
    Cell::parse(s).expect("square")
}

fn opts(version: Version) -> Options {
    let mut o = Options::new(version);
    o.max_reserve = 200;
    o
}

/// A game with only these pieces on the board (the commanders added in far corners unless
/// given), both lines of retreat drawn as the centre.
fn game_with(options: Options, pieces: &[(&str, Unit)]) -> Waterloo {
    let mut setup = boards::BySeat::<Vec<(Cell, Unit)>>::default();
    let mut all: Vec<(Cell, Unit)> = pieces.iter().map(|(s, u)| (c(s), *u)).collect();
    for (sq, u) in [
        ("l2", Unit::Wellington),
        ("k2", Unit::Uxbridge),
        ("l9", Unit::Napoleon),
        ("k9", Unit::Ney),
    ] {
        if !all.iter().any(|(_, x)| *x == u) {
            all.push((c(sq), u));
        }
    }
    for (cell, u) in all {
        let seat = if u.army() == Army::French {
            FRENCH
        } else {
            ALLIED
        };
        setup[seat].push((cell, u));
    }
    let mut g = Waterloo::from_position(options, &setup, &Default::default())
        .unwrap_or_else(|p| panic!("{p}"));
    if g.to_act() == Actor::Chance {
        retreat(&mut g, Flank::Centre, Flank::Centre);
    }
    g
}

fn basic(pieces: &[(&str, Unit)]) -> Waterloo {
    game_with(opts(Version::Basic), pieces)
}

fn retreat(g: &mut Waterloo, allied: Flank, french: Flank) {
    g.play(&Action::Chance(ChanceAction::Retreat(allied)))
        .expect("allied card");
    g.play(&Action::Chance(ChanceAction::Retreat(french)))
        .expect("french card");
}

fn mv(from: &str, to: &str) -> Action {
    Action::Move {
        from: c(from),
        to: c(to),
    }
}

fn attack(from: &str, to: &str, dir: Dir) -> Action {
    Action::Attack {
        from: c(from),
        to: c(to),
        dir,
    }
}

fn die(face: DieFace) -> Action {
    Action::Chance(ChanceAction::Die(face))
}

fn unit_at(g: &Waterloo, s: &str) -> Option<Unit> {
    g.piece_at(c(s)).map(|p| p.unit)
}

fn end_turns(g: &mut Waterloo, n: usize) {
    for _ in 0..n {
        while g.to_act() == Actor::Chance {
            let a = g.chance_outcomes()[0].0;
            g.play(&a).expect("chance");
        }
        g.play(&Action::EndTurn).expect("end turn");
    }
    while g.to_act() == Actor::Chance {
        let a = g.chance_outcomes()[0].0;
        g.play(&a).expect("chance");
    }
}

// ---- Armies --------------------------------------------------------------------------------

#[test]
fn armies_match_the_piece_pages() {
    // "The French player has at his disposal 47 pieces. The Allied player only has 45 pieces,
    // but after the 12th turn can count on the arrival of the Prussian reinforcements (Black)
    // consisting of 13 pieces."
    assert_eq!(Unit::army_size(Army::French), 47);
    assert_eq!(Unit::army_size(Army::Allied), 45);
    assert_eq!(Unit::army_size(Army::Prussian), 13);
    let count = |army, class| Unit::army_list(army).filter(|u| u.class() == class).count();
    // "5 x Light Infantry • 20 x Line Infantry ... 6 x Light Cavalry • 6 x Heavy Cavalry ...
    // 8 x Cannons"
    assert_eq!(count(Army::French, Class::LightInfantry), 5);
    assert_eq!(count(Army::French, Class::LineInfantry), 20);
    assert_eq!(count(Army::French, Class::LightCavalry), 6);
    assert_eq!(count(Army::French, Class::HeavyCavalry), 6);
    assert_eq!(count(Army::French, Class::Artillery), 8);
    // "5 x Light Infantry • 21 x Line Infantry ... 6 x Light Cavalry • 5 x Heavy Cavalry ...
    // 6 x Cannons"
    assert_eq!(count(Army::Allied, Class::LightInfantry), 5);
    assert_eq!(count(Army::Allied, Class::LineInfantry), 21);
    assert_eq!(count(Army::Allied, Class::LightCavalry), 6);
    assert_eq!(count(Army::Allied, Class::HeavyCavalry), 5);
    assert_eq!(count(Army::Allied, Class::Artillery), 6);
    // "4 x Light Infantry (Landwehr) • 3 x Infantry ... 4 x Light Cavalry (Landwehr) ...
    // 1 x Cannon ... Feldmarschall Von Bulow"
    assert_eq!(count(Army::Prussian, Class::LightInfantry), 4);
    assert_eq!(count(Army::Prussian, Class::LineInfantry), 3);
    assert_eq!(count(Army::Prussian, Class::LightCavalry), 4);
    assert_eq!(count(Army::Prussian, Class::Artillery), 1);
    assert_eq!(count(Army::Prussian, Class::Commander), 1);
    // "Heavy Cavalry pieces have a strength of 4 but if they are elite or Imperial Guard units
    // even 5 or 6."
    assert_eq!(Unit::EmpressDragoons.strength(), 6);
    assert!(Unit::PolishLancers.is_guard());
    // "They have a strength of 5" (the commanders).
    assert_eq!(Unit::VonBulow.strength(), 5);
}

// ---- Layout --------------------------------------------------------------------------------

#[test]
fn the_default_layout_parses_and_bad_files_report_every_line() {
    let l = Layout::parse(boards::waterloo::DEFAULT_LAYOUT).expect("default layout");
    assert_eq!((l.columns, l.rows, l.setup_rows), (12, 10, 4));
    // "Your lines of retreat are located either on your left flank (grids 1, 2, 3 or 4 of the
    // board), your centre (grids 5, 6, 7 or 8 of the board) or on your right flank (grids 9,
    // 10, 11 or 12 of the board)."
    assert_eq!(
        l.retreat[ALLIED][0],
        vec![c("a1"), c("b1"), c("c1"), c("d1")]
    );
    assert_eq!(l.retreat[FRENCH][0][0], c("l10"));
    let err = Layout::parse("columns: 12\nrows 10\nprussian_entry: z99 a5\nfoo: 1\ncolumns: 3\n")
        .expect_err("bad");
    let lines: Vec<usize> = err.as_slice().iter().map(|p| p.line).collect();
    assert_eq!(lines, vec![2, 4, 5, 3], "{err}");
    assert!(err
        .to_string()
        .contains("z99 in prussian_entry is off the 12 x 10 board"));
    assert!(err.to_string().contains("line 2"));
}

/// Every problem of a layout file names its line and says how to fix it; the shipped layout is
/// the compiled-in text itself, with its Prussian entry, lines of retreat and terrain (the old
/// code fell back on a board without them when the text did not parse, and a square listed
/// twice said no fix).
#[test]
fn every_layout_problem_has_its_line_and_a_fix() {
    assert_eq!(
        Layout::standard(),
        Layout::parse(boards::waterloo::DEFAULT_LAYOUT).unwrap()
    );
    let l = Layout::standard();
    assert!(!l.prussian_entry.is_empty() && !l.tiles.is_empty());
    assert!(l.retreat[ALLIED].iter().all(|line| !line.is_empty()));
    let err = Layout::parse("hill.x: a1 b1 a1\nrows: 3\nfacing.french: sideways\n").unwrap_err();
    let got: Vec<String> = err.as_slice().iter().map(|p| p.to_string()).collect();
    assert_eq!(
        got,
        vec![
            "line 1: a1 is listed twice in 'hill.x': list it once",
            "line 2: 'rows' must be a whole number from 4 to 16, not '3'",
            "line 3: 'facing.french' must be up, down, left or right, not 'sideways'",
        ],
        "{err}"
    );
}

/// A layout saved with a byte-order mark and Windows line ends (Notepad's UTF-8) reads as the
/// same file without them, as Napoleon's and Sa Belle Alliance's data files do: the mark was
/// taken for a key, "'\u{feff}' is not a `key: value` line", an invisible character.
#[test]
fn a_layout_with_a_byte_order_mark_and_windows_line_ends_reads_the_same() {
    let plain = Layout::parse(boards::waterloo::DEFAULT_LAYOUT).unwrap();
    let notepad = format!(
        "\u{feff}{}",
        boards::waterloo::DEFAULT_LAYOUT.replace('\n', "\r\n")
    );
    assert_eq!(Layout::parse(&notepad).expect("with a BOM"), plain);
    // The first line is a key too: still read.
    let l = Layout::parse("\u{feff}setup_rows: 3\r\n").expect("a key on the first line");
    assert_eq!(l.setup_rows, 3);
}

// ---- Set-up --------------------------------------------------------------------------------

#[test]
fn set_up_four_home_rows_ten_in_reserve_commanders_on_board() {
    // "each player can place his pieces on any open square on the four bottom rows of their side
    // of the board ... they can keep a maximum of 10 pieces in reserve ... Commanders and
    // Commanders in Chief must ALWAYS be placed on the board!"
    let mut setup = Setup::default();
    setup.placements[ALLIED].push((c("a5"), Unit::BritishFoot));
    setup.placements[ALLIED].push((c("b1"), Unit::Ney));
    let err = Waterloo::start(Options::basic(), setup).expect_err("bad");
    let p = err.as_slice();
    assert!(p.contains(&SetupProblem::OutsideZone {
        seat: ALLIED,
        cell: c("a5")
    }));
    assert!(p.contains(&SetupProblem::WrongArmy {
        seat: ALLIED,
        unit: Unit::Ney
    }));
    assert!(p.contains(&SetupProblem::CommanderOffBoard {
        seat: FRENCH,
        unit: Unit::Napoleon
    }));
    assert!(p
        .iter()
        .any(|x| matches!(x, SetupProblem::TooManyInReserve { max: 10, .. })));
    // A random full set-up is accepted.
    let mut n = 7usize;
    let ok = Setup::random(&Options::basic(), |k| {
        n = n.wrapping_mul(31).wrapping_add(17);
        n % k
    });
    assert!(Waterloo::start(Options::basic(), ok).is_ok());
}

// ---- Lines of retreat ----------------------------------------------------------------------

#[test]
fn lines_of_retreat_are_drawn_secretly_and_two_units_win() {
    // "both players randomly choose a Line of Retreat card ... make sure the opponent doesn't
    // see it."
    let mut g = basic(&[("e7", Unit::Chasseurs), ("f7", Unit::Chasseurs)]);
    assert_eq!(g.view(ALLIED).line_of_retreat(), Some(Flank::Centre));
    // "Two units on your opponent's lines of retreat mean immediate victory."
    g.play(&Action::EndTurn).unwrap();
    g.play(&mv("e7", "e1")).unwrap();
    assert!(g.status().is_ongoing());
    g.play(&mv("f7", "f1")).unwrap();
    assert_eq!(
        g.status(),
        Status::Won {
            winner: FRENCH,
            reason: EndReason::LinesOfRetreat
        }
    );
    assert_eq!(g.to_act(), Actor::Nobody);
}

#[test]
fn the_line_of_retreat_is_a_chance_draw_at_the_start() {
    let mut setup = Setup::default();
    setup.placements[ALLIED] = vec![(c("a1"), Unit::Wellington), (c("b1"), Unit::Uxbridge)];
    setup.placements[FRENCH] = vec![(c("a10"), Unit::Napoleon), (c("b10"), Unit::Ney)];
    let mut g = Waterloo::start(opts(Version::Basic), setup).unwrap();
    assert_eq!(g.to_act(), Actor::Chance);
    assert_eq!(g.phase(), Phase::DrawRetreat(ALLIED));
    assert_eq!(g.chance_outcomes().len(), 3);
    assert_eq!(g.check(&Action::EndTurn), Err(Illegal::AwaitingChance));
    retreat(&mut g, Flank::Left, Flank::Right);
    // The enemy's card never reaches a view.
    assert_eq!(g.view(FRENCH).line_of_retreat(), Some(Flank::Right));
    assert_eq!(g.view(ALLIED).line_of_retreat(), Some(Flank::Left));
}

// ---- Turns and actions ---------------------------------------------------------------------

#[test]
fn allied_start_with_three_actions_a_turn() {
    // "The Allied player starts the battle. In turn, the players may perform three actions."
    let mut g = basic(&[("a2", Unit::BritishFoot), ("a9", Unit::FrenchLineInfantry)]);
    assert_eq!(g.to_act(), Actor::Seat(ALLIED));
    assert_eq!(g.actions(), (3, 3));
    assert_eq!(g.turn(), 1);
    assert_eq!(g.clock_minutes(), 11 * 60);
    g.play(&mv("a2", "a3")).unwrap();
    g.play(&mv("a3", "a4")).unwrap();
    assert_eq!(g.actions(), (3, 1));
    g.play(&mv("a4", "a5")).unwrap();
    assert_eq!(g.to_act(), Actor::Seat(FRENCH));
    assert_eq!(g.turn(), 1);
    g.play(&Action::EndTurn).unwrap();
    assert_eq!(g.turn(), 2);
    assert_eq!(g.clock_minutes(), 11 * 60 + 30);
    // "The timetable shows 11 o'clock when the 1st game turn starts and 16:30 hours when the
    // 12th game turn begins."
    end_turns(&mut g, 20);
    assert_eq!(g.turn(), 12);
    assert_eq!(g.clock_minutes(), 16 * 60 + 30);
    assert_eq!(g.turns_until_prussians(), Some(1));
}

// ---- Movement ------------------------------------------------------------------------------

fn targets(g: &Waterloo, from: &str) -> Vec<Cell> {
    g.legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Move { from: f, to } if f == c(from) => Some(to),
            _ => None,
        })
        .collect()
}

#[test]
fn light_infantry_three_squares_not_necessarily_straight() {
    // "Light Infantry pieces can move three spaces each action. This need not be in a straight
    // line."
    let g = basic(&[("e2", Unit::BrunswickLeib)]);
    let t = targets(&g, "e2");
    assert!(t.contains(&c("e5")) && t.contains(&c("g3")) && t.contains(&c("d4")));
    assert!(!t.contains(&c("e6")) && !t.contains(&c("h3")));
}

#[test]
fn line_infantry_two_squares_not_necessarily_straight() {
    // "Line Infantry pieces can move two spaces each action. This need not be in a straight
    // line."
    let g = basic(&[("e2", Unit::BritishFoot)]);
    let t = targets(&g, "e2");
    assert!(t.contains(&c("e4")) && t.contains(&c("f3")));
    assert!(!t.contains(&c("e5")) && !t.contains(&c("g3")));
}

#[test]
fn cavalry_any_distance_in_one_direction_over_empty_squares() {
    // "Heavy Cavalry pieces can move unrestricted from one end of the board to the other as long
    // as the spaces in between are vacant - though only in one single direction per action."
    let g = basic(&[("e1", Unit::ScotsGreys), ("e6", Unit::BritishFoot)]);
    let t = targets(&g, "e1");
    assert!(t.contains(&c("e5")) && t.contains(&c("a1")));
    assert!(!t.contains(&c("e7")), "no jumping over e6");
    assert!(!t.contains(&c("f2")), "one direction only");
    // "Commanders and Commanders in Chief are considered to belong to the Light Cavalry units."
    let t = targets(&g, "l2");
    assert!(t.contains(&c("l8")));
}

#[test]
fn artillery_moves_one_square() {
    // "Artillery can only move one space each action"
    let g = basic(&[("e2", Unit::BritishArtillery)]);
    let mut t = targets(&g, "e2");
    t.sort();
    assert_eq!(t.len(), 4);
    assert_eq!(
        g.check(&mv("e2", "e4")),
        Err(Illegal::CannotReach {
            from: c("e2"),
            to: c("e4")
        })
    );
}

// ---- Attack --------------------------------------------------------------------------------

#[test]
fn the_lower_strength_is_eliminated_and_the_winner_takes_the_square() {
    // "The unit with the lowest strength is eliminated ... If the attacking unit is victorious
    // it will take the place of the unit that has just been eliminated. If the defending unit
    // wins, it remains firmly on the square."
    let mut g = basic(&[
        ("e4", Unit::Highlanders),
        ("e5", Unit::FrenchLineInfantry),
        ("g4", Unit::BrunswickLeib),
        ("g5", Unit::OldGuard),
    ]);
    let out = g.play(&attack("e4", "e5", Dir::Up)).unwrap();
    assert!(out.events.iter().any(|e| matches!(
        e,
        Event::Battle(b) if b.result == BattleResult::AttackerWon && b.strengths == (5, 3)
    )));
    assert_eq!(unit_at(&g, "e5"), Some(Unit::Highlanders));
    assert_eq!(g.casualties(FRENCH), &[Unit::FrenchLineInfantry]);
    g.play(&attack("g4", "g5", Dir::Up)).unwrap();
    assert_eq!(unit_at(&g, "g5"), Some(Unit::OldGuard));
    assert_eq!(unit_at(&g, "g4"), None);
    // "Both pieces are then revealed."
    let v = g.view(ALLIED);
    assert!(matches!(
        v.at(c("g5")),
        Seen::Enemy {
            unit: Some(Unit::OldGuard),
            ..
        }
    ));
}

#[test]
fn an_attack_ends_the_action_but_may_follow_a_move() {
    // "An attack is always the end of an action! A piece that can move across several fields
    // may therefore not first attack and then continue moving during a single action."
    let mut g = basic(&[("e1", Unit::RoyalHorseGuards), ("e6", Unit::Chasseurs)]);
    let legal = g.legal_actions();
    assert!(legal.contains(&attack("e1", "e6", Dir::Up)));
    assert!(!legal.contains(&mv("e1", "e7")));
    g.play(&attack("e1", "e6", Dir::Up)).unwrap();
    assert_eq!(unit_at(&g, "e6"), Some(Unit::RoyalHorseGuards));
    assert_eq!(g.actions(), (3, 2));
}

#[test]
fn the_battle_die_on_equal_strength() {
    // "If both confronting pieces have the same strength, the attacker will have to roll the
    // Battle die."
    let mut g = basic(&[("e4", Unit::BritishFoot), ("e5", Unit::FrenchLineInfantry)]);
    g.play(&attack("e4", "e5", Dir::Up)).unwrap();
    assert_eq!(g.to_act(), Actor::Chance);
    assert_eq!(g.chance_outcomes().len(), 6);
    // "1. Blue: The Blue piece has emerged victorious and may now take the place of the
    // Red/Black piece which will be eliminated."
    g.play(&die(DieFace::Blue)).unwrap();
    assert_eq!(unit_at(&g, "e4"), Some(Unit::FrenchLineInfantry));
    assert_eq!(unit_at(&g, "e5"), None);
    assert_eq!(g.casualties(ALLIED), &[Unit::BritishFoot]);
    assert_eq!(g.to_act(), Actor::Seat(ALLIED));
}

#[test]
fn red_wins_and_takes_the_place() {
    // "2. Red: The Red/Black piece has gained a victory and may now take the place of the Blue
    // piece which will be eliminated."
    let mut g = basic(&[("e4", Unit::BritishFoot), ("e5", Unit::FrenchLineInfantry)]);
    g.play(&attack("e4", "e5", Dir::Up)).unwrap();
    g.play(&die(DieFace::Red)).unwrap();
    assert_eq!(unit_at(&g, "e5"), Some(Unit::BritishFoot));
    assert_eq!(g.casualties(FRENCH), &[Unit::FrenchLineInfantry]);
}

#[test]
fn frenzy_attacks_the_next_piece_and_rolls_again_on_equal_strength() {
    // "However, the Blue piece will, in wild excitement, attack the next adjacent piece. This
    // will happen from the same direction as the original attack was made" / "If the adjacent
    // field in the same direction is unoccupied or if it's the edge of the board, nothing
    // happens. In the unlikely event the next piece is of the same playing strength, the dice
    // has to be thrown again."
    let mut g = basic(&[
        ("e4", Unit::BritishFoot),
        ("e5", Unit::FrenchLineInfantry),
        ("e6", Unit::FrenchLineInfantry),
    ]);
    g.play(&attack("e4", "e5", Dir::Up)).unwrap();
    let out = g.play(&die(DieFace::RedPlus)).unwrap();
    assert!(out
        .events
        .iter()
        .any(|e| matches!(e, Event::Battle(b) if b.frenzy && b.defender.0 == c("e6"))));
    assert_eq!(unit_at(&g, "e5"), Some(Unit::BritishFoot));
    assert_eq!(
        g.to_act(),
        Actor::Chance,
        "equal strength again: roll again"
    );
    // Blue + : the French on e6 wins, takes e5 and goes on along the line into e4: empty.
    g.play(&die(DieFace::BluePlus)).unwrap();
    assert_eq!(unit_at(&g, "e5"), Some(Unit::FrenchLineInfantry));
    assert_eq!(unit_at(&g, "e6"), None);
    assert_eq!(g.to_act(), Actor::Seat(ALLIED));
    assert_eq!(g.casualties(ALLIED), &[Unit::BritishFoot]);
    assert_eq!(g.casualties(FRENCH), &[Unit::FrenchLineInfantry]);
}

#[test]
fn a_frenzied_defender_goes_on_along_the_line_of_the_attack() {
    // "4. Red '+' The Red/Black piece is victorious and may now take the place of the Blue piece
    // ... However, the Red/Black piece will, in wild excitement, attack the next adjacent piece"
    // (ruling: a winning defender takes the attacker's square and goes on beyond it).
    let mut g = basic(&[
        ("e3", Unit::Chasseurs),
        ("e4", Unit::FrenchLineInfantry),
        ("e5", Unit::BritishFoot),
    ]);
    g.play(&Action::EndTurn).unwrap();
    g.play(&attack("e4", "e5", Dir::Up)).unwrap();
    g.play(&die(DieFace::RedPlus)).unwrap();
    // The British take e4 and charge on into the Chasseurs (2) on e3: they win on strength.
    assert_eq!(unit_at(&g, "e3"), Some(Unit::BritishFoot));
    assert_eq!(g.casualties(FRENCH).len(), 2);
}

#[test]
fn frenzy_even_into_a_friend_and_one_of_equal_friends_is_eliminated() {
    // "... even if the next piece is that of his own or his ally." / "If it's one of the
    // player's own pieces of the same playing strength, one of the two pieces is eliminated from
    // the board."
    let mut g = basic(&[
        ("e2", Unit::BrunswickLeib),
        ("e3", Unit::FrenchLineInfantry),
        ("e4", Unit::BritishFoot),
    ]);
    g.play(&attack("e4", "e3", Dir::Down)).unwrap();
    g.play(&die(DieFace::RedPlus)).unwrap();
    // The British foot (3) took e3 and hit its own Brunswickers (1) on e2.
    assert_eq!(unit_at(&g, "e2"), Some(Unit::BritishFoot));
    assert_eq!(g.casualties(ALLIED), &[Unit::BrunswickLeib]);
    let mut g = basic(&[
        ("e3", Unit::BritishFoot),
        ("e4", Unit::FrenchLineInfantry),
        ("e5", Unit::BritishFoot),
    ]);
    g.play(&attack("e5", "e4", Dir::Down)).unwrap();
    g.play(&die(DieFace::RedPlus)).unwrap();
    assert_eq!(
        g.to_act(),
        Actor::Chance,
        "own piece of equal strength: roll"
    );
    // Ruling: the frenzied piece's colour keeps it; the other colour eliminates it.
    g.play(&die(DieFace::Blue)).unwrap();
    assert_eq!(unit_at(&g, "e4"), None);
    assert_eq!(unit_at(&g, "e3"), Some(Unit::BritishFoot));
    assert_eq!(g.casualties(ALLIED), &[Unit::BritishFoot]);
    assert_eq!(g.casualties(FRENCH), &[Unit::FrenchLineInfantry]);
}

#[test]
fn withdrawal_off_the_board_and_back_from_the_next_turn() {
    // "5. Blue 'R' The Blue piece has emerged victorious and may now take the place of the
    // Red/Black piece that has suffered enormous losses. The Red/Black piece is not eliminated
    // but withdraws off the board behind the front lines. At the cost of one action, starting
    // next turn, it can be put back on the back row of the game board."
    let mut g = basic(&[("e4", Unit::BritishFoot), ("e5", Unit::FrenchLineInfantry)]);
    g.play(&attack("e4", "e5", Dir::Up)).unwrap();
    g.play(&die(DieFace::BlueR)).unwrap();
    assert_eq!(unit_at(&g, "e4"), Some(Unit::FrenchLineInfantry));
    assert_eq!(
        g.off_board(ALLIED).collect::<Vec<_>>(),
        vec![Unit::BritishFoot]
    );
    let back = Action::Enter {
        unit: Unit::BritishFoot,
        to: c("a1"),
    };
    assert_eq!(g.check(&back), Err(Illegal::NotReady(Unit::BritishFoot)));
    end_turns(&mut g, 2);
    assert_eq!(g.to_act(), Actor::Seat(ALLIED));
    assert_eq!(g.check(&back), Ok(()));
    assert_eq!(
        g.check(&Action::Enter {
            unit: Unit::BritishFoot,
            to: c("a2")
        }),
        Err(Illegal::NotEntrySquare(c("a2")))
    );
    g.play(&back).unwrap();
    assert_eq!(g.actions(), (3, 2));
    // Back on the board it is hidden again (ruling).
    assert!(matches!(
        g.view(FRENCH).at(c("a1")),
        Seen::Enemy { unit: None, .. }
    ));
}

#[test]
fn a_withdrawn_commander_costs_an_action_until_reinstated() {
    // "If a Commander has to temporarily withdraw behind the lines because of this rule, the
    // player loses one action each turn. If the player reinstates the Commander during his/her
    // next turn, he/she will not lose that action. Returning the Commander does however cost an
    // action."
    let mut g = basic(&[("e4", Unit::Uxbridge), ("e5", Unit::MiddleGuard)]);
    g.play(&attack("e4", "e5", Dir::Up)).unwrap();
    g.play(&die(DieFace::BlueR)).unwrap();
    end_turns(&mut g, 2);
    assert_eq!(g.actions(), (2, 2));
    g.play(&Action::Enter {
        unit: Unit::Uxbridge,
        to: c("a1"),
    })
    .unwrap();
    assert_eq!(g.actions(), (3, 2));
}

// ---- Artillery -----------------------------------------------------------------------------

fn fire(from: &str, at: &str) -> Action {
    Action::Fire {
        from: c(from),
        at: c(at),
        tile: false,
    }
}

#[test]
fn artillery_fires_frontally_range_three_with_line_of_sight() {
    // "Artillery can fire frontally up to a distance of 3 spaces IF the spaces in front are
    // empty (Line of Sight)" / "Artillery can destroy ALL pieces – also the opponent's
    // Artillery - except for Light Infantry"
    let mut g = basic(&[
        ("e3", Unit::BritishArtillery),
        ("e6", Unit::FrenchArtillery),
        ("f3", Unit::BritishArtillery),
        ("f7", Unit::OldGuard),
        ("g3", Unit::BritishArtillery),
        ("g4", Unit::FrenchLightInfantry),
        ("h3", Unit::BritishArtillery),
        ("h4", Unit::BritishFoot),
        ("h5", Unit::MiddleGuard),
    ]);
    assert_eq!(
        g.check(&fire("f3", "f7")),
        Err(Illegal::NotInLineOfFire {
            from: c("f3"),
            at: c("f7")
        }),
        "range 3"
    );
    assert_eq!(
        g.check(&fire("g3", "g4")),
        Err(Illegal::ImmuneToFire(c("g4")))
    );
    assert!(g.check(&fire("h3", "h5")).is_err(), "line of sight");
    g.play(&fire("e3", "e6")).unwrap();
    assert_eq!(unit_at(&g, "e6"), None);
    assert_eq!(g.casualties(FRENCH), &[Unit::FrenchArtillery]);
}

#[test]
fn artillery_is_immune_from_the_front() {
    // "If an enemy piece attacks an Artillery unit from the front, the enemy piece in question
    // will be eliminated." / "they can be destroyed by all the other pieces from the flanks and
    // rear."
    let mut g = basic(&[
        ("e3", Unit::BritishArtillery),
        ("e4", Unit::OldGuard),
        ("g3", Unit::BritishArtillery),
        ("h3", Unit::FrenchLightInfantry),
    ]);
    g.play(&Action::EndTurn).unwrap();
    g.play(&attack("e4", "e3", Dir::Down)).unwrap();
    assert_eq!(unit_at(&g, "e3"), Some(Unit::BritishArtillery));
    assert_eq!(g.casualties(FRENCH), &[Unit::OldGuard]);
    g.play(&attack("h3", "g3", Dir::Left)).unwrap();
    assert_eq!(unit_at(&g, "g3"), Some(Unit::FrenchLightInfantry));
}

#[test]
fn commanders_attacking_artillery_frontally_are_destroyed() {
    // "But beware: the commanders and commanders in chief are not immune to grapeshot! If they
    // attack artillery from the front they will be destroyed too."
    let mut g = basic(&[("e3", Unit::BritishArtillery), ("e9", Unit::Napoleon)]);
    g.play(&Action::EndTurn).unwrap();
    g.play(&attack("e9", "e3", Dir::Down)).unwrap();
    assert_eq!(g.casualties(FRENCH), &[Unit::Napoleon]);
    assert_eq!(unit_at(&g, "e3"), Some(Unit::BritishArtillery));
}

#[test]
fn artillery_does_not_charge() {
    let g = basic(&[("e4", Unit::BritishArtillery), ("e5", Unit::Chasseurs)]);
    assert_eq!(
        g.check(&attack("e4", "e5", Dir::Up)),
        Err(Illegal::ArtilleryDoesNotCharge(c("e4")))
    );
}

// ---- Heavy cavalry -------------------------------------------------------------------------

#[test]
fn heavy_cavalry_loses_strength_per_charge_and_regains_it_off_the_board() {
    // "Heavy Cavalry pieces lose 1 strength each time they charge a piece." / "They can only be
    // taken off the board AFTER the opponent has had the opportunity to counter charge at least
    // once!" / "Taking them off the board does not cost an action but putting them back on the
    // board does."
    let mut g = basic(&[("e1", Unit::ScotsGreys), ("e7", Unit::Chasseurs)]);
    g.play(&attack("e1", "e7", Dir::Up)).unwrap();
    assert_eq!(g.piece_at(c("e7")).unwrap().weakened, 1);
    assert_eq!(
        g.check(&Action::TakeOff { from: c("e7") }),
        Err(Illegal::CannotTakeOff(c("e7")))
    );
    g.play(&Action::EndTurn).unwrap();
    g.play(&Action::EndTurn).unwrap();
    g.play(&Action::TakeOff { from: c("e7") }).unwrap();
    assert_eq!(g.actions(), (3, 3));
    // "Heavy Cavalry pieces that have lost strength must be taken off the board for at least one
    // game turn in order to regain all their strength."
    let back = Action::Enter {
        unit: Unit::ScotsGreys,
        to: c("a1"),
    };
    assert!(g.check(&back).is_err());
    end_turns(&mut g, 2);
    g.play(&back).unwrap();
    assert_eq!(g.piece_at(c("a1")).unwrap().weakened, 0);
}

// ---- Commanders ----------------------------------------------------------------------------

#[test]
fn commanders_in_chief_win_every_attack_and_lose_every_defence() {
    // "Napoleon and Wellington have no strength because they can destroy ALL units, but only if
    // they attack. If they are attacked however, whether it's a piece with high strength or low,
    // they will be eliminated"
    let mut g = basic(&[
        ("e4", Unit::Wellington),
        ("e5", Unit::OldGuard),
        ("f5", Unit::BrunswickLeib),
        ("f6", Unit::Napoleon),
    ]);
    g.play(&attack("e4", "e5", Dir::Up)).unwrap();
    assert_eq!(unit_at(&g, "e5"), Some(Unit::Wellington));
    g.play(&attack("f5", "f6", Dir::Up)).unwrap();
    assert_eq!(unit_at(&g, "f6"), Some(Unit::BrunswickLeib));
    assert!(g.casualties(FRENCH).contains(&Unit::Napoleon));
    // Basic game: capturing him does not end the game by itself.
    assert!(g.status().is_ongoing());
}

#[test]
fn losing_the_commanders_costs_actions_and_both_lose_the_game() {
    // "If you lose your commander during the game, you will lose one action in your following
    // turns." / "The loss of Wellington or Napoleon means that you lose two actions." / "the
    // game is also lost if a player loses his commander and commander in chief"
    let mut g = basic(&[
        ("e4", Unit::RoyalFootGuards),
        ("e5", Unit::Ney),
        ("f4", Unit::BritishFoot),
        ("f5", Unit::Napoleon),
    ]);
    g.play(&attack("e4", "e5", Dir::Up)).unwrap();
    g.play(&Action::EndTurn).unwrap();
    assert_eq!(g.actions(), (2, 2));
    g.play(&Action::EndTurn).unwrap();
    g.play(&attack("f4", "f5", Dir::Up)).unwrap();
    g.play(&Action::EndTurn).unwrap();
    assert_eq!(
        g.status(),
        Status::Won {
            winner: ALLIED,
            reason: EndReason::NoCommanders
        }
    );
}

// ---- The Prussians -------------------------------------------------------------------------

#[test]
fn the_prussians_arrive_unseen_from_turn_13_with_a_fourth_action() {
    // "After the 12th turn, the Allied player may take two Prussian pieces without looking at
    // them and position them ... on the Black Prussian flag" / "Staring from the 13th turn, the
    // Prussians join the battle. The Prussians may carry out one action during each turn. Allied
    // players may therefore carry out 4 actions each turn instead of only 3. The Allied player
    // decides how to split the actions, based on the understanding that at least one action must
    // be carried out by the Prussians and one by the Allied forces."
    let mut g = basic(&[("e2", Unit::BritishFoot)]);
    for _ in 0..24 {
        g.play(&Action::EndTurn).unwrap();
    }
    assert_eq!(g.turn(), 13);
    assert_eq!(g.to_act(), Actor::Chance);
    assert_eq!(g.phase(), Phase::PrussianDraw);
    let w: u32 = g.chance_outcomes().iter().map(|(_, w)| *w).sum();
    assert_eq!(w, 13);
    // The French see nothing of the draw but its size.
    assert_eq!(g.view(FRENCH).prussians_undrawn(), 13);
    g.play(&Action::Chance(ChanceAction::Prussian(
        Unit::PrussianInfantry,
    )))
    .unwrap();
    g.play(&Action::Chance(ChanceAction::Prussian(Unit::Landwehr)))
        .unwrap();
    assert_eq!(unit_at(&g, "a5"), Some(Unit::PrussianInfantry));
    assert_eq!(unit_at(&g, "a6"), Some(Unit::Landwehr));
    assert!(matches!(
        g.view(FRENCH).at(c("a5")),
        Seen::Enemy { unit: None, .. }
    ));
    assert!(matches!(g.view(ALLIED).at(c("a5")), Seen::Own(_)));
    assert_eq!(g.actions(), (4, 4));
    g.play(&mv("e2", "e3")).unwrap();
    g.play(&mv("e3", "e4")).unwrap();
    g.play(&mv("e4", "e5")).unwrap();
    assert_eq!(
        g.check(&mv("e5", "e6")),
        Err(Illegal::Split { prussian: false })
    );
    g.play(&mv("a5", "b5")).unwrap();
    assert_eq!(g.to_act(), Actor::Seat(FRENCH));
}

#[test]
fn destroyed_prussians_never_return() {
    // "Obviously, the Prussian units that have been destroyed by the French don't return to the
    // battlefield."
    let mut g = basic(&[("b5", Unit::OldGuard)]);
    for _ in 0..24 {
        g.play(&Action::EndTurn).unwrap();
    }
    g.play(&Action::Chance(ChanceAction::Prussian(
        Unit::PrussianInfantry,
    )))
    .unwrap();
    g.play(&Action::Chance(ChanceAction::Prussian(Unit::Landwehr)))
        .unwrap();
    g.play(&Action::EndTurn).unwrap();
    g.play(&attack("b5", "a5", Dir::Left)).unwrap();
    assert_eq!(g.casualties(ALLIED), &[Unit::PrussianInfantry]);
    assert_eq!(g.prussian_pool().len(), 11);
    assert!(g.reserve(ALLIED).iter().all(|u| u.army() != Army::Prussian));
}

// ---- Standard game -------------------------------------------------------------------------

use boards::waterloo::{Card, CardPlay};

/// Plays the draft so that each seat keeps the cards wanted (in order), discarding others.
fn draft(g: &mut Waterloo, allied: &[Card], french: &[Card]) {
    let mut want = [allied.to_vec(), french.to_vec()];
    let mut keep = true;
    while let Phase::Draft(seat) = g.phase() {
        let (stack, _) = g.card_piles();
        let stack = stack.to_vec();
        let mine = &mut want[seat.index()];
        let card = if keep {
            match mine.first().copied().filter(|c| stack.contains(c)) {
                Some(c) => {
                    mine.remove(0);
                    c
                }
                // Nobody holds Fighting spirit unless a test asks for it.
                None => *stack
                    .iter()
                    .find(|c| **c != Card::FightingSpirit)
                    .unwrap_or(&stack[0]),
            }
        } else {
            let needed = |c: &Card| want.iter().flatten().filter(|w| *w == c).count();
            let have = |c: &Card| stack.iter().filter(|s| *s == c).count();
            // Discard Fighting spirit first unless a test asks for it.
            *stack
                .iter()
                .find(|c| **c == Card::FightingSpirit && have(c) > needed(c))
                .or_else(|| stack.iter().find(|c| have(c) > needed(c)))
                .unwrap_or(&stack[0])
        };
        let before = g.hand(seat).len();
        g.play(&Action::Draft(card)).unwrap();
        let kept = g.hand(seat).len() > before;
        keep = !kept || g.card_piles().0.is_empty();
    }
}

fn standard(pieces: &[(&str, Unit)]) -> Waterloo {
    with_cards(pieces, &[], &[])
}

/// A game with only these pieces, past the card draft.
fn drafted(options: Options, pieces: &[(&str, Unit)]) -> Waterloo {
    let mut g = game_with(options, pieces);
    draft(&mut g, &[], &[]);
    g
}

/// A standard game with only these pieces, drafted so that each side holds the cards named.
fn with_cards(pieces: &[(&str, Unit)], allied: &[Card], french: &[Card]) -> Waterloo {
    let mut g = game_with(opts(Version::Standard), pieces);
    draft(&mut g, allied, french);
    g
}

#[test]
fn standard_capturing_a_commander_in_chief_wins() {
    // "If the Napoleon or Wellington piece is captured, the game will automatically end,
    // resulting in a decisive victory for the player who still possesses his Commander in
    // Chief!"
    let mut g = standard(&[("e4", Unit::BrunswickLeib), ("e5", Unit::Napoleon)]);
    g.play(&attack("e4", "e5", Dir::Up)).unwrap();
    assert_eq!(
        g.status(),
        Status::Won {
            winner: ALLIED,
            reason: EndReason::CommanderInChief
        }
    );
}

#[test]
fn buildings_bar_cavalry_and_fortify_infantry_only_when_full() {
    // "Cavalry pieces cannot enter nor attack a building tile, this includes Commanders." /
    // "A building is only considered fortified when ALL the four spaces of the building have
    // been occupied." / "Infantry pieces gain +1 strength when fortified in a building."
    // Hougoumont (default layout): i5 j5 i6 j6.
    let mut g = standard(&[
        ("i4", Unit::ScotsGreys),
        ("i5", Unit::FrenchLineInfantry),
        ("j4", Unit::BritishFoot),
    ]);
    assert_eq!(
        g.check(&attack("i4", "i5", Dir::Up)),
        Err(Illegal::Building(c("i5")))
    );
    assert_eq!(g.check(&mv("i4", "h4")), Ok(()));
    let g2 = standard(&[("h5", Unit::ScotsGreys)]);
    assert!(!targets(&g2, "h5").contains(&c("i5")));
    // One French infantry alone in Hougoumont: not fortified, strength 3 against 3: the die.
    g.play(&mv("j4", "j5")).unwrap();
    g.play(&attack("j5", "i5", Dir::Left)).unwrap();
    assert_eq!(g.phase(), Phase::BattleDie);
    // All four squares held by the French: fortified, +1.
    let mut g = standard(&[
        ("i5", Unit::FrenchLineInfantry),
        ("j5", Unit::FrenchLineInfantry),
        ("i6", Unit::FrenchLineInfantry),
        ("j6", Unit::FrenchLineInfantry),
        ("i4", Unit::Highlanders),
        ("h5", Unit::BritishFoot),
    ]);
    // "Once conquered, an Ownership flag with the flag of the owner, is placed on the building."
    assert_eq!(g.view(ALLIED).tile_owner()[0], Some(FRENCH));
    let out = g.play(&attack("h5", "i5", Dir::Right)).unwrap();
    assert!(out.events.iter().any(
        |e| matches!(e, Event::Battle(b) if b.strengths == (3, 4) && b.result == BattleResult::DefenderWon)
    ));
    let out = g.play(&attack("i4", "i5", Dir::Up)).unwrap();
    assert!(out
        .events
        .iter()
        .any(|e| matches!(e, Event::Battle(b) if b.strengths == (5, 4))));
}

#[test]
fn artillery_bombards_buildings_first_strength_four() {
    // "Artillery cannot fire on units within a building, they will always fire ON the building
    // first." / "A building has a strength of 4. If it is fired on four times it will be
    // completely destroyed and taken off the board."
    let mut g = standard(&[
        ("i3", Unit::BritishArtillery),
        ("i6", Unit::FrenchLineInfantry),
    ]);
    let at_unit = fire("i3", "i6");
    let at_tile = Action::Fire {
        from: c("i3"),
        at: c("i5"),
        tile: true,
    };
    assert!(g.check(&at_unit).is_err());
    for left in [3u8, 2, 1, 0] {
        let out = g.play(&at_tile).unwrap();
        assert!(out
            .events
            .iter()
            .any(|e| matches!(e, Event::TileHit { left: l, .. } if *l == left)));
        if g.to_act() == Actor::Seat(FRENCH) {
            g.play(&Action::EndTurn).unwrap();
        }
    }
    // The building is gone; the unit can now be hit.
    g.play(&at_unit).unwrap();
    assert_eq!(unit_at(&g, "i6"), None);
}

#[test]
fn hill_artillery_range_four_front_and_sides_over_pieces_and_immune_to_ground_guns() {
    // "Artillery on a hill has a +1 range (thus 4 spaces) but it does not only fire straight
    // ahead, it is now also possible to fire on enemy pieces in the rows to the right and left
    // of the piece. An added benefit is that it now can also fire over other pieces" /
    // "Artillery on a hill CANNOT be destroyed by Artillery on the ground!"
    // Mont St Jean (default layout): f2 g2 f3 g3.
    let mut g = standard(&[
        ("f3", Unit::BritishArtillery),
        ("f4", Unit::BritishFoot),
        ("f7", Unit::FrenchLineInfantry),
        ("b3", Unit::FrenchLineInfantry),
        ("g6", Unit::FrenchArtillery),
    ]);
    assert_eq!(g.check(&fire("f3", "f7")), Ok(()), "range 4, over f4");
    assert_eq!(g.check(&fire("f3", "b3")), Ok(()), "to the side");
    g.play(&Action::EndTurn).unwrap();
    let _ = g.play(&mv("g6", "g5"));
    assert!(g.check(&fire("g5", "g3")).is_err());
    assert!(g.check(&fire("g5", "g2")).is_err());
}

#[test]
fn hill_adds_one_against_attacks_from_the_ground_capped_at_six() {
    // "Infantry pieces and Cavalry pieces on a hill get a +1 strength when attacked by pieces
    // on the ground." / "Pieces can NEVER be upgraded to more than 6 strength!"
    let mut g = standard(&[
        ("f3", Unit::BritishFoot),
        ("f4", Unit::FrenchLineInfantry),
        ("g3", Unit::RoyalFootGuards),
        ("g4", Unit::OldGuard),
    ]);
    g.play(&Action::EndTurn).unwrap();
    let out = g.play(&attack("f4", "f3", Dir::Down)).unwrap();
    assert!(out
        .events
        .iter()
        .any(|e| matches!(e, Event::Battle(b) if b.strengths == (3, 4))));
    let out = g.play(&attack("g4", "g3", Dir::Down)).unwrap();
    assert!(out
        .events
        .iter()
        .any(|e| matches!(e, Event::Battle(b) if b.strengths == (6, 6))));
}

/// The strengths (attacker, defender) of one battle in a game of `version` with only these two
/// pieces (and the commanders not given, in far corners), fought by the attacker's side.
fn battle_strengths(
    version: Version,
    (from, attacker): (&str, Unit),
    (to, defender): (&str, Unit),
    dir: Dir,
) -> (u8, u8) {
    let mut options = opts(version);
    if attacker.army() == Army::Prussian {
        // The Prussians act only once they have arrived.
        options.prussian_turn = 1;
    }
    let mut g = drafted(options, &[(from, attacker), (to, defender)]);
    if attacker.army() == Army::French {
        g.play(&Action::EndTurn).unwrap();
    }
    // The Prussians' arrival: their draw, then the Allied cards from the discard pile.
    loop {
        let a = if g.phase() == Phase::PrussianCards {
            Action::Draft(g.card_piles().1[0])
        } else if g.to_act() == Actor::Chance {
            g.chance_outcomes()[0].0
        } else {
            break;
        };
        g.play(&a).expect("arrival");
    }
    let out = g.play(&attack(from, to, dir)).unwrap();
    out.events
        .iter()
        .find_map(|e| match e {
            Event::Battle(b) => Some(b.strengths),
            _ => None,
        })
        .expect("a battle")
}

/// The hill bonus `unit` gets in each place a battle can put it on or beside Mont St Jean
/// (f2 g2 f3 g3), against a line infantry of the other side: defending on the hill against an
/// attack from the ground, defending on the hill against an attack from the hill, attacking
/// from the hill, and the same with no terrain (the Basic game).
fn hill_bonuses(unit: Unit) -> [u8; 4] {
    let enemy = if unit.army() == Army::French {
        Unit::BritishFoot
    } else {
        Unit::FrenchLineInfantry
    };
    let printed = unit.strength();
    let bonus_defending = |version, from| {
        let (_, d) = battle_strengths(version, (from, enemy), ("f2", unit), Dir::Up);
        d - printed
    };
    let from_the_hill = {
        let (_, d) = battle_strengths(Version::Standard, ("g2", enemy), ("f2", unit), Dir::Left);
        d - printed
    };
    let attacking = {
        let (a, _) = battle_strengths(Version::Standard, ("f2", unit), ("f1", enemy), Dir::Down);
        a - printed
    };
    [
        bonus_defending(Version::Standard, "f1"),
        from_the_hill,
        attacking,
        bonus_defending(Version::Basic, "f1"),
    ]
}

#[test]
fn commanders_on_a_hill_get_the_bonus_exactly_as_light_cavalry() {
    // "Infantry pieces and Cavalry pieces on a hill get a +1 strength when attacked by pieces
    // on the ground." / "Commanders and Commanders in Chief are considered to belong to the
    // Light Cavalry units." / "Commanders are considered to be light Cavalry units"
    // Fails on the code before the fix, which gave commanders no hill bonus.
    for (commander, light_cavalry) in [
        (Unit::Uxbridge, Unit::KglHussars),
        (Unit::Ney, Unit::Chasseurs),
        (Unit::VonBulow, Unit::SilesianLandwehr),
    ] {
        let expected = hill_bonuses(light_cavalry);
        assert_eq!(expected, [1, 0, 0, 0], "{light_cavalry:?}");
        assert_eq!(
            hill_bonuses(commander),
            expected,
            "{commander:?} as {light_cavalry:?}"
        );
    }
    // So Uxbridge (5) on the ridge stands at 6 against the Empress Dragoons (6) from below: the
    // die decides, where on the flat the Dragoons win outright.
    let mut g = standard(&[("f2", Unit::Uxbridge), ("f1", Unit::EmpressDragoons)]);
    g.play(&Action::EndTurn).unwrap();
    let out = g.play(&attack("f1", "f2", Dir::Up)).unwrap();
    assert!(out.events.iter().any(|e| matches!(e,
        Event::Battle(b) if b.strengths == (6, 6) && b.result == BattleResult::Die)));
    // "Pieces can NEVER be upgraded to more than 6 strength!"
    assert_eq!(
        battle_strengths(
            Version::Standard,
            ("f1", Unit::EmpressDragoons),
            ("f2", Unit::Uxbridge),
            Dir::Up
        ),
        (6, 6)
    );
}

#[test]
fn a_commander_in_chief_on_a_hill_still_loses_every_defence() {
    // "If they are attacked however, whether it's a piece with high strength or low, they will
    // be eliminated": he has no strength for the hill to raise.
    let mut g = standard(&[("f2", Unit::Wellington), ("f1", Unit::FrenchLightInfantry)]);
    g.play(&Action::EndTurn).unwrap();
    let out = g.play(&attack("f1", "f2", Dir::Up)).unwrap();
    assert!(out.events.iter().any(|e| matches!(e,
        Event::Battle(b) if b.result == BattleResult::AttackerWon)));
    assert_eq!(unit_at(&g, "f2"), Some(Unit::FrenchLightInfantry));
}

#[test]
fn the_card_draft_alternates_keep_and_discard() {
    // "The Allied player is allowed to choose a card which he wants to keep, and one for the
    // discarded pile. After he has chosen, the Allied player offers the remainder of the
    // Manoeuvre cards to his opponent ... until both players have 4 cards in their
    // possession."
    let mut g = game_with(opts(Version::Standard), &[]);
    assert_eq!(g.phase(), Phase::Draft(ALLIED));
    assert_eq!(g.card_piles().0.len(), 15);
    g.play(&Action::Draft(Card::Initiative)).unwrap();
    assert_eq!(g.hand(ALLIED), &[Card::Initiative]);
    assert_eq!(g.phase(), Phase::Draft(ALLIED));
    g.play(&Action::Draft(Card::GrandBattery)).unwrap();
    assert_eq!(g.card_piles().1, &[Card::GrandBattery]);
    assert_eq!(g.phase(), Phase::Draft(FRENCH));
    draft(&mut g, &[], &[]);
    assert_eq!((g.hand(ALLIED).len(), g.hand(FRENCH).len()), (4, 4));
    assert_eq!(g.to_act(), Actor::Seat(ALLIED));
}

#[test]
fn cards_at_the_start_of_a_turn_one_a_turn_for_an_action() {
    // "The cards, with the exception of 'Fighting spirit', must be played out at the start of a
    // player's turn and only one card may be played each turn. Playing and carrying out the
    // action of a card counts as one action."
    let mut g = with_cards(
        &[
            ("a2", Unit::BritishFoot),
            ("b2", Unit::BritishFoot),
            ("c2", Unit::BritishFoot),
            ("d2", Unit::BritishFoot),
        ],
        &[Card::Initiative, Card::Initiative],
        &[],
    );
    let play = Action::PlayCard(CardPlay::Initiative);
    g.play(&mv("d2", "d3")).unwrap();
    assert_eq!(g.check(&play), Err(Illegal::Card(Card::Initiative)));
    end_turns(&mut g, 2);
    // "Initiative: This card allows the player to move three of his pieces in one single
    // action."
    g.play(&play).unwrap();
    assert_eq!(g.actions(), (3, 2));
    g.play(&mv("a2", "a3")).unwrap();
    assert!(
        g.check(&mv("a3", "a4")).is_ok(),
        "a normal action still may follow"
    );
    g.play(&mv("b2", "b3")).unwrap();
    g.play(&mv("c2", "c3")).unwrap();
    assert_eq!(g.actions(), (3, 2));
    assert_eq!(g.check(&play), Err(Illegal::Card(Card::Initiative)));
}

#[test]
fn reconnaissance_shows_four_pieces_to_one_player_only() {
    // "Reconnaissance: This card allows the player to look at four adjoining pieces of his
    // choice on the opponent's side of the board."
    let mut g = with_cards(
        &[
            ("e7", Unit::OldGuard),
            ("f7", Unit::FrenchArtillery),
            ("e8", Unit::Cuirassiers),
            ("f8", Unit::Chasseurs),
        ],
        &[Card::Reconnaissance],
        &[],
    );
    g.play(&Action::PlayCard(CardPlay::Reconnaissance { at: c("e7") }))
        .unwrap();
    let v = g.view(ALLIED);
    for (sq, u) in [
        ("e7", Unit::OldGuard),
        ("f7", Unit::FrenchArtillery),
        ("e8", Unit::Cuirassiers),
        ("f8", Unit::Chasseurs),
    ] {
        assert!(
            matches!(v.at(c(sq)), Seen::Enemy { unit: Some(x), .. } if x == u),
            "{sq}"
        );
    }
    assert_eq!(g.actions(), (3, 2));
}

#[test]
fn fighting_spirit_also_in_defence() {
    // "Fighting spirit: When this card is played the player is allowed to add 1 strength to one
    // of his pieces. Exceptionally, this card can also be played as a defensive move when one of
    // his pieces is being attacked anytime during the game!"
    let mut g = with_cards(
        &[("e4", Unit::BritishFoot), ("e5", Unit::FrenchLineInfantry)],
        &[],
        &[Card::FightingSpirit],
    );
    g.play(&attack("e4", "e5", Dir::Up)).unwrap();
    assert_eq!(g.to_act(), Actor::Seat(FRENCH));
    assert_eq!(g.phase(), Phase::Defence(FRENCH));
    let out = g
        .play(&Action::PlayCard(CardPlay::FightingSpirit { on: c("e5") }))
        .unwrap();
    assert!(out
        .events
        .iter()
        .any(|e| matches!(e, Event::Battle(b) if b.strengths == (3, 4))));
    assert_eq!(unit_at(&g, "e5"), Some(Unit::FrenchLineInfantry));
    assert_eq!(g.to_act(), Actor::Seat(ALLIED));
}

#[test]
fn grand_battery_fires_all_adjoining_artillery_in_one_action() {
    // "Grand battery: When this card is played all adjoining Artillery may fire once in a single
    // action."
    let mut g = with_cards(
        &[
            ("a3", Unit::BritishArtillery),
            ("b3", Unit::BritishArtillery),
            ("a5", Unit::FrenchLineInfantry),
            ("b6", Unit::FrenchLineInfantry),
        ],
        &[Card::GrandBattery],
        &[],
    );
    g.play(&Action::PlayCard(CardPlay::GrandBattery { at: c("a3") }))
        .unwrap();
    g.play(&fire("a3", "a5")).unwrap();
    g.play(&fire("b3", "b6")).unwrap();
    assert_eq!(g.actions(), (3, 2));
    assert_eq!(g.casualties(FRENCH).len(), 2);
}

#[test]
fn combined_attack_one_infantry_one_cavalry_one_artillery() {
    // "Combined attack: When playing this card, the player will be allowed to attack with three
    // of his pieces - one Infantry, one Cavalry and one Artillery - in one single action."
    let mut g = with_cards(
        &[
            ("a4", Unit::Highlanders),
            ("a5", Unit::FrenchLineInfantry),
            ("b1", Unit::RoyalHorseGuards),
            ("b7", Unit::Chasseurs),
            ("e3", Unit::BritishArtillery),
            ("e5", Unit::FrenchLineInfantry),
        ],
        &[Card::CombinedAttack],
        &[],
    );
    g.play(&Action::PlayCard(CardPlay::CombinedAttack)).unwrap();
    g.play(&attack("a4", "a5", Dir::Up)).unwrap();
    g.play(&attack("b1", "b7", Dir::Up)).unwrap();
    g.play(&fire("e3", "e5")).unwrap();
    assert_eq!(g.actions(), (3, 2));
    assert_eq!(g.casualties(FRENCH).len(), 3);
}

#[test]
fn the_allied_take_two_discarded_cards_when_the_prussians_arrive() {
    // "When the Prussians arrive on the 13th game turn the Allied player may also choose 2
    // cards from the discard deck."
    let mut g = standard(&[]);
    let discarded = g.card_piles().1.len();
    for _ in 0..24 {
        g.play(&Action::EndTurn).unwrap();
    }
    while g.phase() == Phase::PrussianDraw {
        let a = g.chance_outcomes()[0].0;
        g.play(&a).unwrap();
    }
    assert_eq!(g.phase(), Phase::PrussianCards);
    let card = g.card_piles().1[0];
    g.play(&Action::Draft(card)).unwrap();
    let card = g.card_piles().1[0];
    g.play(&Action::Draft(card)).unwrap();
    assert_eq!(g.hand(ALLIED).len(), 6);
    assert_eq!(g.card_piles().1.len(), discarded - 2);
    assert_eq!(g.phase(), Phase::Act);
}

// ---- Expert game ---------------------------------------------------------------------------

fn expert(pieces: &[(&str, Unit)]) -> Waterloo {
    drafted(opts(Version::Expert), pieces)
}

#[test]
fn expert_napoleon_falling_ends_it_wellington_costs_two_actions() {
    // "If Napoleon falls in battle, the game immediately ends. In this case the Allies will
    // have achieved a decisive victory! If Wellington falls in battle, the game continues, but
    // the Allied player will have two actions less."
    let mut g = expert(&[("e4", Unit::Wellington), ("e5", Unit::Chasseurs)]);
    g.play(&Action::EndTurn).unwrap();
    g.play(&attack("e5", "e4", Dir::Down)).unwrap();
    assert!(g.status().is_ongoing());
    g.play(&Action::EndTurn).unwrap();
    assert_eq!(g.actions(), (1, 1));
    let mut g = expert(&[("e4", Unit::BrunswickLeib), ("e5", Unit::Napoleon)]);
    g.play(&attack("e4", "e5", Dir::Up)).unwrap();
    assert_eq!(
        g.status(),
        Status::Won {
            winner: ALLIED,
            reason: EndReason::CommanderInChief
        }
    );
}

#[test]
fn expert_no_retreat_cards_and_the_allied_centre_decides() {
    // "The Lines of Retreat cards are not used." / "Wellington's lines of retreat are located on
    // the Allied centre. If the French manage to occupy it with at least two units, the game
    // will immediately end."
    let mut g = game_with(
        opts(Version::Expert),
        &[("e7", Unit::Chasseurs), ("f7", Unit::Chasseurs)],
    );
    assert_eq!(g.phase(), Phase::Draft(ALLIED));
    draft(&mut g, &[], &[]);
    g.play(&Action::EndTurn).unwrap();
    g.play(&mv("e7", "e1")).unwrap();
    g.play(&mv("f7", "f1")).unwrap();
    assert_eq!(
        g.status(),
        Status::Won {
            winner: FRENCH,
            reason: EndReason::LinesOfRetreat
        }
    );
}

#[test]
fn expert_a_flank_occupation_forces_a_retreat_and_the_pursuit() {
    // "If the French player manages to put two units on the Allied left flank or Allied right
    // flank, this will lead to an Allied retreat. In that case, a Pursuit will determine
    // whether the battle was indecisive, a minor victory or a major victory"
    let mut g = expert(&[
        ("a7", Unit::Chasseurs),
        ("b7", Unit::Cuirassiers),
        ("e2", Unit::BritishFoot),
        ("f2", Unit::BritishArtillery),
        ("g3", Unit::KglHussars),
    ]);
    g.play(&Action::EndTurn).unwrap();
    g.play(&mv("a7", "a1")).unwrap();
    g.play(&mv("b7", "b1")).unwrap();
    // "Both players take their remaining cavalry units off the board and set them aside"
    assert_eq!(g.pursuit_victor(), Some(FRENCH));
    assert_eq!(g.to_act(), Actor::Seat(FRENCH));
    assert_eq!(unit_at(&g, "a1"), None);
    assert!(g.set_aside(FRENCH).contains(&Unit::Napoleon));
    // The cavalry is set aside "off the board", not turned face up: each seat's view holds its
    // own by unit, the enemy's by back (and 'weakened' blocks), and the enemy's other pieces
    // set aside by count.
    let allied = g.view(ALLIED);
    assert_eq!(allied.pursuit_cavalry(), g.pursuit_cavalry(ALLIED));
    let backs: Vec<_> = g
        .pursuit_cavalry(FRENCH)
        .iter()
        .map(|&(u, w)| (u.back(), w))
        .collect();
    assert!(backs.contains(&(Unit::Cuirassiers.back(), 0)), "{backs:?}");
    assert_eq!(allied.enemy_pursuit_cavalry(), backs.as_slice());
    assert_eq!(allied.enemy_set_aside(), g.set_aside(FRENCH).len());
    assert_eq!(g.view(FRENCH).set_aside(), g.set_aside(FRENCH));
    // "The remaining commanders in chief and commanders determine the number of actions"
    assert_eq!(g.actions(), (3, 3));
    // "you choose one of your pieces of cavalry, point to the enemy pieces and they disappear
    // from the board."
    g.play(&Action::Pursue {
        cavalry: Unit::Chasseurs,
        target: c("e2"),
    })
    .unwrap();
    assert_eq!(unit_at(&g, "e2"), None);
    // "If there's a draw, the cavalry of the victorious player always wins": Chasseurs 2 vs
    // Hussars 2.
    g.play(&Action::Charge {
        cavalry: Unit::Chasseurs,
        target: Unit::KglHussars,
    })
    .unwrap();
    assert!(g.casualties(ALLIED).contains(&Unit::KglHussars));
    g.play(&Action::EndTurn).unwrap();
    // "He simply takes the pieces off the board and sets them aside. These pieces have been
    // 'saved'"
    assert_eq!(g.to_act(), Actor::Seat(ALLIED));
    g.play(&Action::Save { from: c("f2") }).unwrap();
    g.play(&Action::EndTurn).unwrap();
    // "Once the victorious player no longer has or wishes to use any more cavalry pieces to
    // continue the pursuit, the casualties on both sides are counted": 2 against 0, indecisive.
    if g.status().is_ongoing() {
        g.play(&Action::EndTurn).unwrap();
    }
    assert_eq!(
        g.status(),
        Status::Drawn {
            reason: EndReason::Indecisive
        }
    );
}

#[test]
fn expert_pursuit_margins_minor_and_major() {
    // "If there is a difference between 4 and a maximum of 9 pieces between both armies, the
    // victorious player has achieved a Minor victory" / "a difference of 10 pieces or more ...
    // a Major victory"
    for (lost, reason) in [
        (5usize, EndReason::MinorVictory),
        (12, EndReason::MajorVictory),
    ] {
        let mut placements = boards::BySeat::<Vec<(Cell, Unit)>>::default();
        placements[FRENCH] = vec![
            (c("a7"), Unit::Chasseurs),
            (c("b7"), Unit::Chasseurs),
            (c("l9"), Unit::Napoleon),
            (c("k9"), Unit::Ney),
        ];
        placements[ALLIED] = vec![
            (c("l2"), Unit::Wellington),
            (c("k2"), Unit::Uxbridge),
            (c("e2"), Unit::BritishFoot),
        ];
        // Every other Allied piece is in reserve but `lost` infantry, counted as lost earlier.
        let mut rest: Vec<Unit> = Unit::army_list(Army::Allied)
            .filter(|u| !matches!(u, Unit::Wellington | Unit::Uxbridge))
            .collect();
        if let Some(k) = rest.iter().position(|u| *u == Unit::BritishFoot) {
            rest.remove(k);
        }
        for _ in 0..lost {
            if let Some(k) = rest.iter().position(|u| u.class().is_infantry()) {
                rest.remove(k);
            }
        }
        let mut reserve = boards::BySeat::<Vec<Unit>>::default();
        reserve[ALLIED] = rest;
        let mut french: Vec<Unit> = Unit::army_list(Army::French)
            .filter(|u| !matches!(u, Unit::Napoleon | Unit::Ney))
            .collect();
        for _ in 0..2 {
            if let Some(k) = french.iter().position(|u| *u == Unit::Chasseurs) {
                french.remove(k);
            }
        }
        reserve[FRENCH] = french;
        let mut g = Waterloo::from_position(opts(Version::Expert), &placements, &reserve).unwrap();
        draft(&mut g, &[], &[]);
        g.play(&Action::EndTurn).unwrap();
        g.play(&mv("a7", "a1")).unwrap();
        g.play(&mv("b7", "b1")).unwrap();
        assert_eq!(g.pursuit_victor(), Some(FRENCH));
        g.play(&Action::Pursue {
            cavalry: Unit::Chasseurs,
            target: c("e2"),
        })
        .unwrap();
        while g.status().is_ongoing() {
            g.play(&Action::EndTurn).unwrap();
        }
        let diff = g.dead(ALLIED).len() - g.dead(FRENCH).len();
        let expect = if diff >= 10 {
            EndReason::MajorVictory
        } else if diff >= 4 {
            EndReason::MinorVictory
        } else {
            EndReason::Indecisive
        };
        assert_eq!(expect, reason, "difference {diff}");
        assert_eq!(
            g.status(),
            Status::Won {
                winner: FRENCH,
                reason
            }
        );
    }
}

#[test]
fn expert_hougoumont_is_garrisoned_by_two_allied_infantry() {
    // "The Terrain tile Hougemont in the middle of the board on the Allied right flank is
    // occupied by two Allied Infantry pieces at the start of the game!"
    let o = Options::new(Version::Expert);
    let mut n = 3usize;
    let setup = Setup::random(&o, |k| {
        n = n.wrapping_mul(48271).wrapping_add(11);
        n % k
    });
    assert!(Waterloo::start(o.clone(), setup.clone()).is_ok());
    let mut bad = setup;
    bad.placements[ALLIED].retain(|(cell, _)| cell.row < 4);
    let err = Waterloo::start(o, bad).expect_err("no garrison");
    assert!(err
        .as_slice()
        .contains(&SetupProblem::HougoumontGarrison { infantry: 0 }));
}

#[test]
fn expert_plancenoit_helps_infantry_lets_others_cross_and_can_be_fired_on() {
    // "Plancenoit will provide all and any Infantry piece on the tile with +1 strength." /
    // "Cavalry, Commanders, Commanders in Chief and Artillery can cross the Plancenoit tile
    // unhindered, but they do not gain any benefits." / "with Plancenoit, the players have the
    // choice to direct their Artillery fire on the units OR the village."
    // Plancenoit (default layout): b8 c8 b9 c9.
    let mut g = expert(&[
        ("b8", Unit::FrenchLineInfantry),
        ("b7", Unit::BritishFoot),
        ("c7", Unit::BritishArtillery),
        ("c8", Unit::Chasseurs),
        ("a1", Unit::KglHussars),
    ]);
    assert!(targets(&g, "a1").contains(&c("a10")));
    let out = g.play(&attack("b7", "b8", Dir::Up)).unwrap();
    assert!(out
        .events
        .iter()
        .any(|e| matches!(e, Event::Battle(b) if b.strengths == (3, 4))));
    assert_eq!(g.check(&fire("c7", "c8")), Ok(()));
    assert_eq!(
        g.check(&Action::Fire {
            from: c("c7"),
            at: c("c8"),
            tile: true
        }),
        Ok(())
    );
}

// ---- Extra scenarios -----------------------------------------------------------------------

#[test]
fn early_start_at_half_past_nine_french_first_fourteen_held_back() {
    // "the French player has the option to start the battle three turns earlier, thus at 9:30
    // am! It is also the French player who will move first." / "The following 14 blue pieces
    // will remain off the board during the army set-up"
    let mut o = Options::new(Version::Expert);
    o.early_start = true;
    let mut n = 5usize;
    let setup = Setup::random(&o, |k| {
        n = n.wrapping_mul(48271).wrapping_add(7);
        n % k
    });
    assert!(
        !setup.placements[FRENCH]
            .iter()
            .any(|(_, u)| *u == Unit::OldGuard),
        "the Old Guard is held back"
    );
    let mut g = Waterloo::start(o, setup).unwrap();
    draft(&mut g, &[], &[]);
    assert_eq!(g.held_back().len(), 14);
    assert_eq!(g.to_act(), Actor::Seat(FRENCH));
    assert_eq!(g.clock_minutes(), 9 * 60 + 30);
    end_turns(&mut g, 6);
    // 11:00: the held-back pieces join the reserve (ruling).
    assert_eq!(g.clock_minutes(), 11 * 60);
    assert!(g.held_back().is_empty());
    assert_eq!(g.turns_until_prussians(), Some(12));
}

#[test]
fn where_are_the_prussians_the_die_at_turn_nine() {
    // "the Allied player will be allowed to roll the Battle die at game turn 9 (3 o'clock) in
    // order to find out if the Prussians will arrive on the battlefield or not." / "If the French
    // side is rolled, Marshal Grouchy will have succeeded in intercepting the Prussians."
    let mut o = opts(Version::Expert);
    o.prussians_uncertain = true;
    let mut g = drafted(o, &[]);
    for _ in 0..16 {
        g.play(&Action::EndTurn).unwrap();
    }
    assert_eq!(g.turn(), 9);
    assert_eq!(g.phase(), Phase::PrussianDie);
    g.play(&die(DieFace::BlueR)).unwrap();
    assert_eq!(g.turns_until_prussians(), None);
    for _ in 0..10 {
        g.play(&Action::EndTurn).unwrap();
    }
    assert!(g.turn() >= 13);
    assert_eq!(g.prussian_pool().len(), 13);
    assert_eq!(g.actions().0, 3);
}

#[test]
fn mud_slows_all_but_light_infantry_and_stops_artillery() {
    // "When these pieces move through the mud, they will only be allowed to move one space
    // ahead, to the left or right for every action." / "Light Infantry pieces don't experience
    // any restrictions when passing through the mud." / "Artillery can't move onto a mud tile!"
    let mut o = opts(Version::Standard);
    o.mud = true;
    o.layout = Layout::parse("mud.field: e4 f4 e5 f5\n").unwrap();
    let g = drafted(
        o,
        &[
            ("e4", Unit::ScotsGreys),
            ("f3", Unit::BritishArtillery),
            ("d3", Unit::Rifles95th),
            ("f5", Unit::BritishFoot),
        ],
    );
    let t = targets(&g, "e4");
    assert!(t.contains(&c("d4")) && !t.contains(&c("e3")));
    assert!(!t.contains(&c("c4")));
    assert_eq!(g.check(&mv("f3", "f4")), Err(Illegal::Mud(c("f4"))));
    assert!(targets(&g, "d3").contains(&c("d6")));
    let t = targets(&g, "f5");
    assert_eq!(t.len(), 3, "one square ahead, left or right: {t:?}");
    assert!(!t.contains(&c("f4")), "not backwards");
}

#[test]
fn a_custom_battlefield_places_terrain_anywhere() {
    // "'Stratego:Waterloo' offers the players the unique possibility to create their own
    // fictional battles, with their own Terrain tiles"
    let l = Layout::parse("hill.ridge: a5 b5\nbuilding.farm: k5 l5 k6 l6\n").unwrap();
    assert_eq!(l.tiles.len(), 2);
    let err = Layout::parse("hill.ridge: a5 b5\nbuilding.farm: b5 c5\n").expect_err("overlap");
    assert_eq!(err.as_slice()[0].line, 2);
}

#[test]
fn a_frenzy_in_a_building_chooses_its_target() {
    // "When a Battle die is rolled IN a building and a '+' (frenzy) has been rolled, the
    // victorious unit may choose which piece to attack in the building."
    let mut g = standard(&[
        ("i4", Unit::BritishFoot),
        ("i5", Unit::FrenchLineInfantry),
        ("j5", Unit::FrenchLightInfantry),
        ("i6", Unit::MiddleGuard),
    ]);
    g.play(&attack("i4", "i5", Dir::Up)).unwrap();
    g.play(&die(DieFace::RedPlus)).unwrap();
    assert_eq!(g.phase(), Phase::FrenzyChoice(ALLIED));
    let mut choices = g.legal_actions();
    choices.sort_by_key(|a| format!("{a}"));
    assert_eq!(
        choices,
        vec![
            Action::Frenzy { at: c("i6") },
            Action::Frenzy { at: c("j5") }
        ]
    );
    g.play(&Action::Frenzy { at: c("j5") }).unwrap();
    assert_eq!(unit_at(&g, "j5"), Some(Unit::BritishFoot));
    assert_eq!(unit_at(&g, "i6"), Some(Unit::MiddleGuard));
}

#[test]
fn a_cavalry_winner_of_the_die_does_not_enter_a_building() {
    // "Cavalry pieces cannot enter nor attack a building tile, this includes Commanders." / "2.
    // Red: The Red/Black piece has gained a victory and may now take the place of the Blue
    // piece": infantry attacks out of Hougoumont (i5) into cavalry on h5 and loses the die. The
    // cavalry may not take i5: it stays on h5, and with a '+' its frenzy finds i5 empty ("If
    // the adjacent field in the same direction is unoccupied ... nothing happens").
    for (cavalry, infantry) in [
        (Unit::DutchCarabiniers, Unit::YoungGuard),
        (Unit::Uxbridge, Unit::MiddleGuard),
    ] {
        for face in [DieFace::Red, DieFace::RedPlus] {
            let mut g = standard(&[("i5", infantry), ("h5", cavalry), ("g5", Unit::Chasseurs)]);
            g.play(&Action::EndTurn).unwrap();
            g.play(&attack("i5", "h5", Dir::Left)).unwrap();
            assert_eq!(
                g.phase(),
                Phase::BattleDie,
                "{cavalry:?} against {infantry:?}"
            );
            g.play(&die(face)).unwrap();
            assert_eq!(unit_at(&g, "h5"), Some(cavalry), "{face:?}");
            assert_eq!(unit_at(&g, "i5"), None, "{face:?}");
            // Nor does its frenzy turn back along the attack's line, into the French Chasseurs
            // behind it on g5.
            assert_eq!(unit_at(&g, "g5"), Some(Unit::Chasseurs), "{face:?}");
            assert_eq!(g.casualties(FRENCH), &[infantry]);
            assert_eq!(g.phase(), Phase::Act);
        }
    }
}

#[test]
fn a_defender_that_won_its_way_out_of_a_building_chooses_no_target_in_it() {
    // "When a Battle die is rolled IN a building and a '+' (frenzy) has been rolled, the
    // victorious unit may choose which piece to attack in the building" / "the Red/Black piece
    // will, in wild excitement, attack the next adjacent piece". The Highlanders on i5 beat the
    // Middle Guard attacking from h5 and take h5 (ruling 8); from there j5 and i6 are no
    // adjacent pieces, so the frenzy goes on along the line, into the French on g5.
    let mut g = standard(&[
        ("i5", Unit::Highlanders),
        ("j5", Unit::FrenchLightInfantry),
        ("i6", Unit::FrenchLineInfantry),
        ("h5", Unit::MiddleGuard),
        ("g5", Unit::FrenchLineInfantry),
    ]);
    g.play(&Action::EndTurn).unwrap();
    g.play(&attack("h5", "i5", Dir::Right)).unwrap();
    g.play(&die(DieFace::RedPlus)).unwrap();
    assert_eq!(g.phase(), Phase::Act);
    assert_eq!(unit_at(&g, "g5"), Some(Unit::Highlanders));
    assert_eq!(unit_at(&g, "j5"), Some(Unit::FrenchLightInfantry));
    assert_eq!(unit_at(&g, "i6"), Some(Unit::FrenchLineInfantry));
    assert_eq!(
        g.casualties(FRENCH),
        &[Unit::MiddleGuard, Unit::FrenchLineInfantry]
    );
}

#[test]
fn reserves_come_onto_the_bottom_row_for_an_action() {
    // "Move a unit in reserve or a regenerated piece onto the board: this unit will always be
    // placed on the bottom row. This costs 1 action."
    let mut placements = boards::BySeat::<Vec<(Cell, Unit)>>::default();
    placements[ALLIED] = vec![(c("l2"), Unit::Wellington), (c("k2"), Unit::Uxbridge)];
    placements[FRENCH] = vec![(c("l9"), Unit::Napoleon), (c("k9"), Unit::Ney)];
    let mut reserve = boards::BySeat::<Vec<Unit>>::default();
    reserve[ALLIED] = vec![Unit::Highlanders];
    reserve[FRENCH] = vec![Unit::OldGuard];
    let mut g = Waterloo::from_position(opts(Version::Basic), &placements, &reserve).unwrap();
    retreat(&mut g, Flank::Left, Flank::Left);
    let enter = |to: &str| Action::Enter {
        unit: Unit::Highlanders,
        to: c(to),
    };
    assert_eq!(g.check(&enter("c2")), Err(Illegal::NotEntrySquare(c("c2"))));
    assert_eq!(
        g.check(&Action::Enter {
            unit: Unit::OldGuard,
            to: c("c1")
        }),
        Err(Illegal::NotReady(Unit::OldGuard))
    );
    g.play(&enter("c1")).unwrap();
    assert_eq!(unit_at(&g, "c1"), Some(Unit::Highlanders));
    assert_eq!(g.actions(), (3, 2));
    assert!(g.reserve(ALLIED).is_empty());
    // The French see a hidden piece; they know how many the Allied hold back.
    assert!(matches!(
        g.view(FRENCH).at(c("c1")),
        Seen::Enemy { unit: None, .. }
    ));
    assert_eq!(g.view(ALLIED).enemy_reserve(), 1);
    g.play(&Action::EndTurn).unwrap();
    g.play(&Action::Enter {
        unit: Unit::OldGuard,
        to: c("a10"),
    })
    .unwrap();
}

#[test]
fn commanders_are_light_cavalry_of_strength_five_and_do_not_weaken() {
    // "Commanders are considered to be light Cavalry units and thus don't lose strength after a
    // charge. They have a strength of 5"
    let mut g = basic(&[("e1", Unit::Uxbridge), ("e8", Unit::Cuirassiers)]);
    let out = g.play(&attack("e1", "e8", Dir::Up)).unwrap();
    assert!(out
        .events
        .iter()
        .any(|e| matches!(e, Event::Battle(b) if b.strengths == (5, 4))));
    assert_eq!(g.piece_at(c("e8")).unwrap().weakened, 0);
}

/// Every move and attack the piece on `from` may make.
fn moves_and_attacks(g: &Waterloo, from: &str) -> Vec<Action> {
    g.legal_actions()
        .into_iter()
        .filter(|a| matches!(a, Action::Move { from: f, .. } | Action::Attack { from: f, .. } if *f == c(from)))
        .collect()
}

#[test]
fn commanders_move_and_meet_terrain_as_light_cavalry_do() {
    // "Commanders and Commanders in Chief are considered to belong to the Light Cavalry units." /
    // "Cavalry pieces cannot enter nor attack a building tile, this includes Commanders." /
    // "Cavalry, Commanders, Commanders in Chief and Artillery can cross the Plancenoit tile
    // unhindered" / "Mud on the battlefield will break the momentum of your Infantry, Cavalry
    // and Commander pieces."
    // An Expert game with mud (e4 f4 e5 f5) besides the default terrain: La Haye c5 d5 c6 d6
    // (a French piece in it on c5), Mont St Jean f2 g2 f3 g3, Plancenoit b8 c8 b9 c9. From the
    // flat, the hill, the mud, below the building and on the village, a commander and a
    // commander-in-chief may do exactly what light cavalry may.
    let mut o = opts(Version::Expert);
    o.mud = true;
    o.layout = Layout::parse("mud.field: e4 f4 e5 f5\n").unwrap();
    let enemies = [
        ("c5", Unit::FrenchLineInfantry),
        ("h7", Unit::FrenchLineInfantry),
        ("e7", Unit::FrenchLineInfantry),
        ("f8", Unit::FrenchLineInfantry),
        ("a8", Unit::FrenchLineInfantry),
    ];
    for from in ["h3", "f3", "e4", "c4", "b8"] {
        let options = |unit| {
            let mut pieces = enemies.to_vec();
            pieces.push((from, unit));
            let g = drafted(o.clone(), &pieces);
            moves_and_attacks(&g, from)
        };
        let cavalry = options(Unit::KglHussars);
        assert!(!cavalry.is_empty(), "{from}");
        for leader in [Unit::Uxbridge, Unit::Wellington] {
            assert_eq!(options(leader), cavalry, "{leader:?} on {from}");
        }
    }
}

#[test]
fn a_commander_is_the_cavalry_of_a_combined_attack() {
    // "the player will be allowed to attack with three of his pieces - one Infantry, one
    // Cavalry and one Artillery - in one single action." / "Commanders are considered to be
    // light Cavalry units" / "Like the Commanders, Commanders in Chief are considered light
    // Cavalry pieces"
    for leader in [Unit::Uxbridge, Unit::Wellington] {
        let mut g = with_cards(
            &[
                ("a4", Unit::Highlanders),
                ("a5", Unit::FrenchLineInfantry),
                ("b1", leader),
                ("b7", Unit::Chasseurs),
                ("e3", Unit::BritishArtillery),
                ("e5", Unit::FrenchLineInfantry),
            ],
            &[Card::CombinedAttack],
            &[],
        );
        g.play(&Action::PlayCard(CardPlay::CombinedAttack)).unwrap();
        g.play(&attack("a4", "a5", Dir::Up)).unwrap();
        g.play(&attack("b1", "b7", Dir::Up)).unwrap();
        g.play(&fire("e3", "e5")).unwrap();
        assert_eq!(
            g.actions(),
            (3, 2),
            "{leader:?}: the card was the only action spent"
        );
    }
}

#[test]
fn commanders_take_part_in_the_pursuit_commanders_in_chief_do_not() {
    // "Napoleon and Wellington are taken off the board and set aside from the players. ... But
    // they do not take part in the pursuit. Only the commanders take part in the pursuit."
    let mut g = expert(&[
        ("a7", Unit::Chasseurs),
        ("b7", Unit::Cuirassiers),
        ("e2", Unit::BritishFoot),
        ("h2", Unit::BritishFoot),
        ("g3", Unit::KglHussars),
    ]);
    g.play(&Action::EndTurn).unwrap();
    g.play(&mv("a7", "a1")).unwrap();
    g.play(&mv("b7", "b1")).unwrap();
    assert_eq!(g.pursuit_victor(), Some(FRENCH));
    let pursue = |cavalry| Action::Pursue {
        cavalry,
        target: c("e2"),
    };
    assert!(g.check(&pursue(Unit::Napoleon)).is_err());
    g.play(&pursue(Unit::Ney)).unwrap();
    assert_eq!(unit_at(&g, "e2"), None);
    // Ney (5) charges the Hussars (2) as light cavalry would, and pursues on.
    g.play(&Action::Charge {
        cavalry: Unit::Ney,
        target: Unit::KglHussars,
    })
    .unwrap();
    assert!(g.casualties(ALLIED).contains(&Unit::KglHussars));
    g.play(&Action::Pursue {
        cavalry: Unit::Ney,
        target: c("h2"),
    })
    .unwrap();
    assert_eq!(unit_at(&g, "h2"), None);
}

#[test]
fn the_die_and_the_cards_are_configurable() {
    // Ruling (`docs/design.md`, the Waterloo README's options): six faces, one each; 15
    // manoeuvre cards, 3 of each of the 5 kinds; all configurable.
    let mut o = opts(Version::Standard);
    o.die_weights = [1, 1, 0, 0, 0, 0];
    o.cards_per_kind = [1, 1, 1, 1, 1];
    let mut g = game_with(
        o,
        &[("e4", Unit::BritishFoot), ("e5", Unit::FrenchLineInfantry)],
    );
    assert_eq!(g.card_piles().0.len(), 5);
    draft(&mut g, &[], &[]);
    g.play(&attack("e4", "e5", Dir::Up)).unwrap();
    while g.phase() == Phase::Defence(FRENCH) {
        g.play(&Action::Decline).unwrap();
    }
    assert_eq!(g.chance_outcomes().len(), 2);
    assert_eq!(g.check(&die(DieFace::RedR)), Err(Illegal::ImpossibleChance));
}

#[test]
fn a_layout_file_reports_every_problem_with_its_line() {
    let text = "\
# my board
columns: 10
setup_rows: 6
facing.french: sideways
hill.x: a1 a1
lake.y: b2
prussian_entry:
";
    let err = Layout::parse(text).expect_err("bad layout");
    let got: Vec<(usize, String)> = err
        .as_slice()
        .iter()
        .map(|p| (p.line, p.message.clone()))
        .collect();
    let lines: Vec<usize> = got.iter().map(|(l, _)| *l).collect();
    for line in [4, 5, 6, 7, 3] {
        assert!(lines.contains(&line), "line {line} missing: {got:?}");
    }
    // The defaults that no longer fit a 10-column board are named as defaults.
    assert!(got
        .iter()
        .any(|(l, m)| *l == 0 && m.contains("k1") && m.contains("a default")));
    assert!(err
        .to_string()
        .starts_with(&format!("{} problems: ", got.len())));
}

#[test]
fn red_r_withdraws_the_blue_piece_to_its_own_back_row() {
    // "6. Red 'R' The Red/Black piece has emerged victorious and may now take the place of the
    // Blue piece that has suffered enormous losses. The Blue piece is not eliminated but
    // withdraws off the board behind the front lines. At the cost of one action, starting next
    // turn, it can be put back on the back row of the game board."
    let mut g = basic(&[("e4", Unit::BritishFoot), ("e5", Unit::FrenchLineInfantry)]);
    g.play(&attack("e4", "e5", Dir::Up)).unwrap();
    g.play(&die(DieFace::RedR)).unwrap();
    assert_eq!(unit_at(&g, "e5"), Some(Unit::BritishFoot));
    assert_eq!(
        g.off_board(FRENCH).collect::<Vec<_>>(),
        vec![Unit::FrenchLineInfantry]
    );
    assert!(g.casualties(FRENCH).is_empty());
    g.play(&Action::EndTurn).unwrap();
    // The French piece withdrew during the Allied turn: the French turn that follows is "next
    // turn" for it.
    g.play(&Action::Enter {
        unit: Unit::FrenchLineInfantry,
        to: c("e10"),
    })
    .unwrap();
    assert_eq!(unit_at(&g, "e10"), Some(Unit::FrenchLineInfantry));
}

#[test]
fn commanders_may_not_enter_or_attack_a_building() {
    // "Cavalry pieces cannot enter nor attack a building tile, this includes Commanders." /
    // "Artillery pieces cannot enter a building tile, but they can bombard it!"
    let g = standard(&[
        ("i4", Unit::Uxbridge),
        ("j4", Unit::BritishArtillery),
        ("j6", Unit::FrenchLineInfantry),
    ]);
    assert!(!targets(&g, "i4").contains(&c("i5")));
    assert_eq!(g.check(&mv("i4", "i5")), Err(Illegal::Building(c("i5"))));
    assert_eq!(g.check(&mv("j4", "j5")), Err(Illegal::Building(c("j5"))));
    assert_eq!(
        g.check(&Action::Fire {
            from: c("j4"),
            at: c("j5"),
            tile: true
        }),
        Ok(())
    );
}

// ---- Audit -----------------------------------------------------------------------------------

/// "The cards, with the exception of 'Fighting spirit', must be played out at the start of a
/// player's turn and only one card may be played each turn." Fighting spirit is the exception:
/// it may be played later in the turn, not only as the first action.
#[test]
fn fighting_spirit_may_be_played_after_the_start_of_the_turn() {
    let mut g = with_cards(
        &[("a2", Unit::BritishFoot), ("e4", Unit::BritishFoot)],
        &[Card::FightingSpirit],
        &[],
    );
    g.play(&mv("a2", "a3")).unwrap();
    let play = Action::PlayCard(CardPlay::FightingSpirit { on: c("e4") });
    assert_eq!(g.check(&play), Ok(()));
    assert!(g.legal_actions().contains(&play));
    g.play(&play).unwrap();
    assert_eq!(g.actions(), (3, 1));
    // The other cards still only at the start of the turn, and still one card a turn.
    assert!(!g
        .legal_actions()
        .iter()
        .any(|a| matches!(a, Action::PlayCard(_))));
}

/// "the game is also lost if a player loses his commander and commander in chief" / "The
/// Red/Black piece has emerged victorious ... The Blue piece is not eliminated but withdraws off
/// the board behind the front lines." / "If the player reinstates the Commander during his/her
/// next turn, he/she will not lose that action. Returning the Commander does however cost an
/// action." A withdrawn commander is not lost: without the commander-in-chief the player may
/// still reinstate him, and the game goes on.
#[test]
fn a_withdrawn_commander_is_not_lost_even_without_the_commander_in_chief() {
    let mut g = basic(&[
        ("f4", Unit::BritishFoot),
        ("f5", Unit::Napoleon),
        ("e4", Unit::Highlanders),
        ("e5", Unit::Ney),
    ]);
    g.play(&attack("f4", "f5", Dir::Up)).unwrap();
    assert!(g.casualties(FRENCH).contains(&Unit::Napoleon));
    g.play(&attack("e4", "e5", Dir::Up)).unwrap();
    g.play(&die(DieFace::RedR)).unwrap();
    assert_eq!(g.off_board(FRENCH).collect::<Vec<_>>(), [Unit::Ney]);
    g.play(&Action::EndTurn).unwrap();
    assert!(g.status().is_ongoing(), "{:?}", g.status());
    assert_eq!(g.to_act(), Actor::Seat(FRENCH));
    let back = Action::Enter {
        unit: Unit::Ney,
        to: c("a10"),
    };
    assert_eq!(g.check(&back), Ok(()));
    g.play(&back).unwrap();
    assert_eq!(unit_at(&g, "a10"), Some(Unit::Ney));
    // Returning him cost the action he is worth; from the next turn he is worth it again.
    assert_eq!(g.to_act(), Actor::Seat(ALLIED));
    g.play(&Action::EndTurn).unwrap();
    assert_eq!(g.actions(), (1, 1));
    assert!(g.status().is_ongoing());
}

/// "Obviously, the game is also lost if a player loses his commander and commander in chief,
/// because he will not be able to perform any actions anymore." The Prussian action ("The
/// Prussians may carry out one action during each turn") does not save an Allied player who has
/// lost Uxbridge and Wellington.
#[test]
fn the_prussian_action_does_not_save_an_allied_player_without_commanders() {
    let mut g = basic(&[
        ("e5", Unit::Wellington),
        ("f5", Unit::Uxbridge),
        ("e6", Unit::OldGuard),
        ("f6", Unit::EmpressDragoons),
    ]);
    end_turns(&mut g, 24);
    assert_eq!((g.turn(), g.current()), (13, ALLIED));
    assert_eq!(g.actions(), (4, 4));
    g.play(&Action::EndTurn).unwrap();
    g.play(&attack("e6", "e5", Dir::Down)).unwrap();
    g.play(&attack("f6", "f5", Dir::Down)).unwrap();
    assert!(g.casualties(ALLIED).contains(&Unit::Wellington));
    assert!(g.casualties(ALLIED).contains(&Unit::Uxbridge));
    g.play(&Action::EndTurn).unwrap();
    while g.to_act() == Actor::Chance {
        let a = g.chance_outcomes()[0].0;
        g.play(&a).unwrap();
    }
    assert_eq!(
        g.status(),
        Status::Won {
            winner: FRENCH,
            reason: EndReason::NoCommanders
        }
    );
}

/// "5. Blue 'R' ... The Red/Black piece is not eliminated but withdraws off the board behind
/// the front lines. At the cost of one action, starting next turn, it can be put back on the
/// back row of the game board." / "Move a unit in reserve or a regenerated piece onto the
/// board: this unit will always be placed on the bottom row." A withdrawn Prussian (Black)
/// comes back on the back row, the Allied player's, not on the Prussian flag.
#[test]
fn a_withdrawn_prussian_comes_back_on_the_back_row() {
    let mut g = basic(&[("b5", Unit::FrenchLineInfantry)]);
    for _ in 0..24 {
        g.play(&Action::EndTurn).unwrap();
    }
    g.play(&Action::Chance(ChanceAction::Prussian(
        Unit::PrussianInfantry,
    )))
    .unwrap();
    g.play(&Action::Chance(ChanceAction::Prussian(Unit::Landwehr)))
        .unwrap();
    g.play(&Action::EndTurn).unwrap();
    g.play(&attack("b5", "a5", Dir::Left)).unwrap();
    g.play(&die(DieFace::BlueR)).unwrap();
    assert_eq!(
        g.off_board(ALLIED).collect::<Vec<_>>(),
        [Unit::PrussianInfantry]
    );
    g.play(&Action::EndTurn).unwrap();
    // Both Prussian squares are taken (a5 by the French, a6 by the Landwehr): no draw now.
    assert_eq!(g.to_act(), Actor::Seat(ALLIED));
    let back = Action::Enter {
        unit: Unit::PrussianInfantry,
        to: c("e1"),
    };
    assert_eq!(g.check(&back), Ok(()));
    g.play(&back).unwrap();
    assert_eq!(unit_at(&g, "e1"), Some(Unit::PrussianInfantry));
}

/// "If a Commander has to temporarily withdraw behind the lines because of this rule, the
/// player loses one action each turn. If the player reinstates the Commander during his/her next
/// turn, he/she will not lose that action. Returning the Commander does however cost an action."
/// Reinstating him need not come first: after the two other actions it is still open.
#[test]
fn a_withdrawn_commander_may_be_reinstated_after_the_other_actions() {
    let mut g = basic(&[
        ("e4", Unit::Highlanders),
        ("e5", Unit::Ney),
        ("a8", Unit::FrenchLineInfantry),
    ]);
    g.play(&attack("e4", "e5", Dir::Up)).unwrap();
    g.play(&die(DieFace::RedR)).unwrap();
    g.play(&Action::EndTurn).unwrap();
    assert_eq!((g.current(), g.actions()), (FRENCH, (2, 2)));
    g.play(&mv("a8", "a7")).unwrap();
    g.play(&mv("a7", "a6")).unwrap();
    assert_eq!(g.to_act(), Actor::Seat(FRENCH), "the turn is not over");
    g.play(&Action::Enter {
        unit: Unit::Ney,
        to: c("a10"),
    })
    .unwrap();
    assert_eq!(unit_at(&g, "a10"), Some(Unit::Ney));
    assert_eq!(g.to_act(), Actor::Seat(ALLIED));
}

/// A layout file with no `key: value` line (empty, only comments, a copy cut short) is
/// refused: read over the defaults it would silently be the shipped board.
#[test]
fn an_empty_layout_file_is_refused_not_the_shipped_board() {
    for text in ["", "\n\n", "# my board\n# (to do)\n", "\u{feff}"] {
        let problems = Layout::parse(text).expect_err("an empty layout").0;
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].line, 0);
        assert!(
            problems[0].message.contains("no `key: value` line"),
            "{}",
            problems[0]
        );
    }
    assert!(Layout::parse("rows: 10\n").is_ok());
}
