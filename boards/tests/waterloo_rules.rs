//! Stratego: Waterloo, rule by rule: each test quotes the sentence of the rulebook
//! (`rules/stratego-waterloo.txt`) it checks.

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
    assert!(err.to_string().contains("line 2"));
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
