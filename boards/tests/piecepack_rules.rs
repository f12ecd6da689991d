//! Piecepack at Waterloo, one test per rule.
//!
//! Each test quotes the sentence it checks from the rules *Piecepack at Waterloo* (or names the
//! ruling in the module docs of `boards::piecepack` it checks). Positions are built from piece
//! lists with `Position::from_pieces`; every position a test passes through is also checked for
//! agreement between `legal_actions` and `check` over the whole action space.

mod support;
use support::action_space;

use std::collections::BTreeSet;

use boards::piecepack::{
    Action, Combat, EndReason, Event, Face, Illegal, Kind, Layout, Options, Outcome, Phase,
    Position, Seen, Setup, SetupProblem, Square, Suit, Tally, Unit, Units, ALLIES, FRENCH,
};
use boards::{Actor, Game, Problems, Seat, Status};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap_or_else(|| panic!("{s} is not a square"))
}

fn squares(list: &str) -> BTreeSet<Square> {
    list.split_whitespace().map(sq).collect()
}

/// Exactly `pieces` on the map, at the start of `side`'s movement phase in `turn`. Napoleon
/// stands on H-10 unless listed (without him the Allies have won).
fn position(options: Options, pieces: &[(Unit, &str)], turn: u8, side: Seat) -> Position {
    let mut pieces: Vec<(Unit, Square)> = pieces.iter().map(|&(u, s)| (u, sq(s))).collect();
    if !pieces.iter().any(|(u, _)| *u == Unit::Napoleon) {
        pieces.push((Unit::Napoleon, sq("H-10")));
    }
    let p = Position::from_pieces(options, &pieces, turn, side)
        .unwrap_or_else(|e| panic!("test position refused: {e}"));
    agree(&p);
    p
}

/// `legal_actions` and `check` agree on the whole action space.
fn agree(p: &Position) {
    let legal: BTreeSet<String> = p.legal_actions().iter().map(|a| format!("{a:?}")).collect();
    for a in action_space() {
        assert_eq!(
            p.check(&a).is_ok(),
            legal.contains(&format!("{a:?}")),
            "check and legal_actions disagree on {a:?} in phase {:?}",
            p.phase()
        );
    }
}

fn play(p: &mut Position, a: Action) -> Outcome {
    let out = p
        .play(&a)
        .unwrap_or_else(|e| panic!("{a} refused in {:?}: {e}", p.phase()));
    agree(p);
    out
}

fn roll(p: &mut Position, faces: &[Face]) -> Vec<Event> {
    let mut events = Vec::new();
    for &f in faces {
        assert_eq!(p.to_act(), Actor::Chance, "a die was expected");
        events.extend(play(p, Action::Roll(f)).0);
    }
    events
}

fn moves_of(p: &Position, unit: Unit) -> BTreeSet<Square> {
    p.legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Move { unit: u, to } if u == unit => Some(to),
            _ => None,
        })
        .collect()
}

fn retreats_of(p: &Position, unit: Unit) -> BTreeSet<Square> {
    p.legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Retreat { unit: u, to } if u == unit => Some(to),
            _ => None,
        })
        .collect()
}

fn combat(p: &Position) -> &Combat {
    p.combat().expect("a combat is being fought")
}

fn units(list: &[Unit]) -> Units {
    list.iter().copied().collect()
}

/// From the start of `side`'s movement phase, straight to its combat designation.
fn to_combat(p: &mut Position) {
    play(p, Action::EndMovement);
    assert_eq!(p.phase(), Phase::Designation);
}

fn designate_all(p: &mut Position, target: &str) {
    for u in p.undesignated().iter() {
        play(
            p,
            Action::Designate {
                unit: u,
                target: sq(target),
            },
        );
    }
}

/// From the start of `side`'s movement phase, every piece that may attack points at `target`,
/// and that combat is resolved first.
fn attack_all(p: &mut Position, target: &str) -> Outcome {
    to_combat(p);
    designate_all(p, target);
    play(p, Action::Resolve { target: sq(target) })
}

/// Each piece of `side`, in the rulebook's order, with its piece name and value.
fn order_of_battle(side: Seat) -> Vec<(Unit, &'static str, Option<Face>)> {
    Unit::ALL
        .into_iter()
        .filter(|u| u.side() == side)
        .map(|u| (u, u.piece_name(), u.value()))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The map
// ---------------------------------------------------------------------------------------------

/// "set up a rectangular grid of 4 by 5 tiles creating a battle map of 8 x 10 squares ... labeled
/// from A to H starting at the Allied player's side ... from 1 to 10, starting from the Allied
/// player's right. So the rightmost square on the Allied side of the map is A-1 and the
/// rightmost square on the French side is H-10."
#[test]
fn the_map_is_eight_rows_by_ten_columns_named_from_the_allied_right() {
    assert_eq!(Square::all().count(), 80);
    let first = Square::all().next().map(|s| s.to_string());
    let last = Square::all().last().map(|s| s.to_string());
    assert_eq!(first.as_deref(), Some("A-1"));
    assert_eq!(last.as_deref(), Some("H-10"));
    assert_eq!(sq("A-1").row(), 0);
    assert_eq!(sq("H-10").row(), 7);
    assert_eq!(sq("H-10").col(), 9);
    assert_eq!(Square::parse("I-1"), None);
    assert_eq!(Square::parse("A-11"), None);
}

/// "Place a coin, heads side up in Square A-3, this represents the village of Mont St. Jean and
/// is a French objective. Place a second coin, heads side up, in square G-7. This represents
/// the village of Plancenoit, and is the Allied objective. Place a coin, tails side up, in
/// square E-4 ... Hougoumont ... also a French objective. Place the fourth coin, tails side up,
/// in square G-3 ... La Haye Saint, also a French objective."
#[test]
fn the_four_objectives_are_layout_data_where_the_text_puts_them() {
    let l = Layout::STANDARD;
    assert_eq!(l.mont_st_jean, sq("A-3"));
    assert_eq!(l.plancenoit, sq("G-7"));
    assert_eq!(l.hougoumont, sq("E-4"));
    assert_eq!(l.la_haye_sainte, sq("G-3"));
    assert_eq!(l.french_objectives(), [sq("A-3"), sq("E-4"), sq("G-3")]);
    assert!(l.is_fortified(sq("E-4")) && l.is_fortified(sq("G-3")));
    assert!(!l.is_fortified(sq("A-3")) && !l.is_fortified(sq("G-7")));
    // A custom layout is validated with every problem at once.
    let mut bad = Layout::STANDARD;
    bad.plancenoit = bad.hougoumont;
    bad.prussian_entry = boards::piecepack::SquareSet::EMPTY;
    bad.turns = 0;
    let problems = bad.validate().expect_err("a broken layout");
    assert_eq!(problems.as_slice().len(), 3);
    assert_eq!(
        problems.to_string(),
        "3 problems: two objectives on E-4: give each its own square; \
         no Prussian entry squares: name at least one edge square; \
         0 turns: the track holds 1 to 16"
    );
}

// ---------------------------------------------------------------------------------------------
// Orders of battle
// ---------------------------------------------------------------------------------------------

/// "Allied armies (12 pieces): Red Pawn: Wellington, Red Star 5: ... (Cooke and Alten), Red Star
/// 4: ... (Picton), Red Star 3: ... (Clinton), Red Star 2: Dutch-Belgians ..., Red Star blank:
/// Cavalry Reserve (Uxbridge), Red Star symbol: Hougoumont garrison, Black Pawn: Blucher, Black
/// Moon 5: IV Prussian Corps (Bulow), Black Moon 4: II Prussian Corps (Pirch), Black Moon 2: I
/// Prussian Corps (Steinmetz), Black Moon blank: Prussian cavalry"
#[test]
fn the_allied_order_of_battle() {
    let allies = order_of_battle(ALLIES);
    use Face::*;
    assert_eq!(
        allies,
        vec![
            (Unit::Wellington, "Red Pawn", None),
            (Unit::Cooke, "Red Star 5", Some(Five)),
            (Unit::Picton, "Red Star 4", Some(Four)),
            (Unit::Clinton, "Red Star 3", Some(Three)),
            (Unit::DutchBelgians, "Red Star 2", Some(Two)),
            (Unit::Uxbridge, "Red Star blank", Some(Blank)),
            (Unit::HougoumontGarrison, "Red Star symbol", Some(Symbol)),
            (Unit::Blucher, "Black Pawn", None),
            (Unit::Bulow, "Black Moon 5", Some(Five)),
            (Unit::Pirch, "Black Moon 4", Some(Four)),
            (Unit::Steinmetz, "Black Moon 2", Some(Two)),
            (Unit::PrussianCavalry, "Black Moon blank", Some(Blank)),
        ]
    );
    assert_eq!(Unit::Wellington.suit(), Suit::RedStar);
    assert_eq!(Unit::Blucher.suit(), Suit::BlackMoon);
}

/// "French Army (11 pieces): Green Pawn: Napoleon, Green crown 5: Old Guard, Green crown 4:
/// Young Guard, Green crown 2: Guard cavalry, Green crown symbol: Guard artillery, Blue Pawn:
/// Ney, Blue fleur 5: I Corps (D'Erlon), Blue fleur 4: VI Corps (Lobau), Blue fleur 3: II Corps
/// (-) (Reille), Blue fleur 2: II Corps, Blue fleur blank: III & IV Cavalry corps"
#[test]
fn the_french_order_of_battle() {
    let french = order_of_battle(FRENCH);
    use Face::*;
    assert_eq!(
        french,
        vec![
            (Unit::Napoleon, "Green Pawn", None),
            (Unit::OldGuard, "Green Crown 5", Some(Five)),
            (Unit::YoungGuard, "Green Crown 4", Some(Four)),
            (Unit::GuardCavalry, "Green Crown 2", Some(Two)),
            (Unit::GuardArtillery, "Green Crown symbol", Some(Symbol)),
            (Unit::Ney, "Blue Pawn", None),
            (Unit::DErlon, "Blue Fleur 5", Some(Five)),
            (Unit::Lobau, "Blue Fleur 4", Some(Four)),
            (Unit::Reille, "Blue Fleur 3", Some(Three)),
            (Unit::IICorps, "Blue Fleur 2", Some(Two)),
            (Unit::FrenchCavalry, "Blue Fleur blank", Some(Blank)),
        ]
    );
    assert_eq!(Unit::OldGuard.name(), "Old Guard");
}

// ---------------------------------------------------------------------------------------------
// Set-up
// ---------------------------------------------------------------------------------------------

/// "Allies deploy first: set aside the five black pieces, they arrive later as reinforcements."
#[test]
fn the_five_black_pieces_are_set_aside() {
    let p = Position::start(Options::STANDARD, Setup::example()).expect("the example deploys");
    agree(&p);
    let waiting: Vec<Unit> = p.waiting().iter().collect();
    assert_eq!(
        waiting,
        [
            Unit::Blucher,
            Unit::Bulow,
            Unit::Pirch,
            Unit::Steinmetz,
            Unit::PrussianCavalry
        ]
    );
    assert!(waiting.iter().all(|u| p.square_of(*u).is_none()));
    // The French see five black pieces waiting, the pawn by colour, the coins by suit only.
    let seen = p.view(FRENCH).waiting().to_vec();
    assert_eq!(seen[0], Seen::EnemyLeader(Unit::Blucher));
    assert!(seen[1..].iter().all(|s| *s
        == Seen::EnemyCoin {
            suit: Suit::BlackMoon,
            unit: None
        }));
}

/// "Place the Red star symbol in Hougoumont. Place the other six red pieces on or next to
/// Hougoumont and La Haye Saint within stacking limits. French deploy second, within two
/// squares of Plancenoit, but NOT next to any Allied piece."
#[test]
fn a_deployment_is_checked_with_every_problem_at_once() {
    let s = sq;
    let setup = Setup {
        allies: vec![
            (Unit::HougoumontGarrison, s("E-5")),
            (Unit::Wellington, s("E-4")),
            (Unit::Cooke, s("E-4")),
            (Unit::Picton, s("E-4")),
            (Unit::Clinton, s("A-1")),
            (Unit::DutchBelgians, s("G-4")),
            (Unit::Bulow, s("G-3")),
            (Unit::Napoleon, s("G-7")),
        ],
        french: vec![
            (Unit::OldGuard, s("G-7")),
            (Unit::YoungGuard, s("G-5")),
            (Unit::GuardCavalry, s("H-10")),
            (Unit::GuardArtillery, s("G-7")),
            (Unit::Ney, s("G-7")),
            (Unit::DErlon, s("F-7")),
            (Unit::DErlon, s("F-8")),
            (Unit::Lobau, s("F-6")),
            (Unit::Reille, s("H-7")),
            (Unit::IICorps, s("G-8")),
        ],
    };
    let problems = Position::start(Options::STANDARD, setup).expect_err("a broken deployment");
    let text = problems.to_string();
    let want = [
        SetupProblem::GarrisonOutside(s("E-5")),
        SetupProblem::FarFromStrongpoints(Unit::Clinton, s("A-1")),
        SetupProblem::PrussianPlaced(Unit::Bulow),
        SetupProblem::WrongSide(Unit::Napoleon),
        SetupProblem::NextToAllies(Unit::YoungGuard, s("G-5")),
        SetupProblem::FarFromPlancenoit(Unit::GuardCavalry, s("H-10")),
        SetupProblem::Twice(Unit::DErlon),
        SetupProblem::Missing(Unit::Uxbridge),
        SetupProblem::Missing(Unit::Napoleon),
        SetupProblem::Missing(Unit::FrenchCavalry),
        SetupProblem::Stacking(
            s("E-4"),
            boards::geometry::stack::StackProblem::TooManyOf {
                category: Kind::Regular,
                count: 2,
                limit: 1,
            },
        ),
        // Napoleon, listed with the Allies, still stands on G-7.
        SetupProblem::Stacking(
            s("G-7"),
            boards::geometry::stack::StackProblem::TooMany {
                count: 4,
                capacity: 3,
            },
        ),
        SetupProblem::Stacking(
            s("G-7"),
            boards::geometry::stack::StackProblem::TooManyOf {
                category: Kind::Leader,
                count: 2,
                limit: 1,
            },
        ),
    ];
    for w in want {
        assert!(problems.as_slice().contains(&w), "missing {w:?} in {text}");
    }
    assert_eq!(problems.as_slice().len(), want.len(), "{text}");
    assert!(
        text.starts_with("13 problems: the Hougoumont garrison is on E-5: place it in Hougoumont")
    );
    // The example deployment keeps every rule.
    assert!(Position::start(Options::STANDARD, Setup::example()).is_ok());
}

// ---------------------------------------------------------------------------------------------
// Sequence of play and the turn marker
// ---------------------------------------------------------------------------------------------

fn phases(out: &Outcome) -> Vec<(Seat, Phase)> {
    out.0
        .iter()
        .filter_map(|e| match e {
            Event::PhaseBegan { side, phase } => Some((*side, *phase)),
            _ => None,
        })
        .collect()
}

/// "Sequence of Play: 1. French move 2. French combat 3. Allied move 4. Allied combat 5. Allied
/// reinforcement 6. Advance turn marker"
#[test]
fn the_sequence_of_play() {
    // Turn 5: the Prussians may come (ruling 1). A French piece next to an Allied one at the
    // French combat; an Allied piece next to a French one at the Allied combat.
    let mut p = position(
        Options::STANDARD,
        &[
            (Unit::Napoleon, "H-9"),
            (Unit::Lobau, "D-5"),
            (Unit::Wellington, "A-1"),
            (Unit::Picton, "C-5"),
        ],
        5,
        FRENCH,
    );
    assert_eq!(
        (p.turn(), p.phase(), p.to_act()),
        (5, Phase::Movement, Actor::Seat(FRENCH))
    );
    // 1 -> 2: French combat.
    let out = play(&mut p, Action::EndMovement);
    assert_eq!(phases(&out), [(FRENCH, Phase::Designation)]);
    play(
        &mut p,
        Action::Designate {
            unit: Unit::Lobau,
            target: sq("C-5"),
        },
    );
    play(&mut p, Action::Resolve { target: sq("C-5") });
    // A stalemate: 4 + die against 4 + die.
    let out = roll(&mut p, &[Face::Two, Face::Two]);
    // 2 -> 3: Allied move.
    assert!(out.contains(&Event::PhaseBegan {
        side: ALLIES,
        phase: Phase::Movement
    }));
    assert_eq!(p.to_act(), Actor::Seat(ALLIES));
    // 3 -> 4: Allied combat.
    let out = play(&mut p, Action::EndMovement);
    assert_eq!(phases(&out), [(ALLIES, Phase::Designation)]);
    play(
        &mut p,
        Action::Designate {
            unit: Unit::Picton,
            target: sq("D-5"),
        },
    );
    play(&mut p, Action::Resolve { target: sq("D-5") });
    let out = roll(&mut p, &[Face::Three, Face::Three]);
    // 4 -> 5: Allied reinforcement.
    assert!(out.contains(&Event::PhaseBegan {
        side: ALLIES,
        phase: Phase::Reinforcement
    }));
    // 5 -> 6 -> next turn's French move.
    let out = play(&mut p, Action::EndReinforcement);
    assert_eq!(out.0[0], Event::TurnBegan(6));
    assert_eq!(phases(&out), [(FRENCH, Phase::Movement)]);
}

/// "Place an unused marker in square G-1 and advance along the G row. The game ends when the
/// marker moves off the map."
#[test]
fn the_turn_marker_runs_along_row_g_and_the_game_ends_off_the_map() {
    let track: Vec<String> = (1..=10)
        .filter_map(|t| Layout::STANDARD.marker(t))
        .map(|s| s.to_string())
        .collect();
    assert_eq!(
        track,
        ["G-1", "G-2", "G-3", "G-4", "G-5", "G-6", "G-7", "G-8", "G-9", "G-10"]
    );
    assert_eq!(Layout::STANDARD.marker(11), None);
    let mut p = Position::start(Options::STANDARD, Setup::example()).expect("deploys");
    let mut turns = vec![p.turn()];
    while p.status().is_ongoing() {
        let a = match p.phase() {
            Phase::Movement => Action::EndMovement,
            Phase::Reinforcement => Action::EndReinforcement,
            other => panic!("nobody is next to an enemy, yet {other:?}"),
        };
        let out = play(&mut p, a);
        turns.extend(out.0.iter().filter_map(|e| match e {
            Event::TurnBegan(t) => Some(*t),
            _ => None,
        }));
    }
    assert_eq!(turns, (1..=10).collect::<Vec<u8>>());
    // "The Allies by ... if the French fail to capture all their objectives in 10 turns."
    assert_eq!(
        p.status(),
        Status::Won {
            winner: ALLIES,
            reason: EndReason::TimeUp
        }
    );
    assert_eq!(p.to_act(), Actor::Nobody);
    assert_eq!(p.check(&Action::EndMovement), Err(Illegal::GameOver));
}

// ---------------------------------------------------------------------------------------------
// Movement
// ---------------------------------------------------------------------------------------------

/// "Leaders (pawns) and cavalry units (French green crown 2, all others blank pieces) can move
/// two squares per turn. All other pieces move 1 square."
#[test]
fn leaders_and_cavalry_move_two_squares_others_one() {
    let p = position(
        Options::STANDARD,
        &[
            (Unit::Napoleon, "D-2"),
            (Unit::GuardCavalry, "D-5"),
            (Unit::FrenchCavalry, "D-8"),
            (Unit::YoungGuard, "A-9"),
            (Unit::Wellington, "H-1"),
        ],
        1,
        FRENCH,
    );
    let two = |c: &str| -> BTreeSet<Square> {
        let c = sq(c);
        Square::all()
            .filter(|s| *s != c && s.distance(c) <= 2)
            .collect()
    };
    assert_eq!(moves_of(&p, Unit::Napoleon), two("D-2"));
    assert_eq!(moves_of(&p, Unit::GuardCavalry), two("D-5"));
    assert_eq!(moves_of(&p, Unit::FrenchCavalry), two("D-8"));
    assert_eq!(moves_of(&p, Unit::YoungGuard), squares("A-8 A-10 B-9"));
    assert_eq!(
        p.check(&Action::Move {
            unit: Unit::YoungGuard,
            to: sq("C-9")
        }),
        Err(Illegal::TooFar(Unit::YoungGuard, sq("C-9")))
    );
    for u in [
        Unit::Wellington,
        Unit::Blucher,
        Unit::Ney,
        Unit::Uxbridge,
        Unit::PrussianCavalry,
    ] {
        assert_eq!(u.allowance(), 2, "{u:?}");
    }
    for u in [
        Unit::OldGuard,
        Unit::Cooke,
        Unit::HougoumontGarrison,
        Unit::GuardArtillery,
    ] {
        assert_eq!(u.allowance(), 1, "{u:?}");
    }
}

/// "Pieces can move through friendly pieces but must stop when moving next to enemy pieces."
#[test]
fn pieces_move_through_friends_and_stop_next_to_an_enemy() {
    // Through a friend: the cavalry passes the Young Guard on D-5.
    let p = position(
        Options::STANDARD,
        &[
            (Unit::FrenchCavalry, "D-4"),
            (Unit::YoungGuard, "D-5"),
            (Unit::Wellington, "A-10"),
        ],
        1,
        FRENCH,
    );
    assert!(moves_of(&p, Unit::FrenchCavalry).contains(&sq("D-6")));
    // Stop next to an enemy: with Allied pieces on C-5 and E-5, D-5 is next to them, so the
    // cavalry stops there and cannot go on to D-6.
    let p = position(
        Options::STANDARD,
        &[
            (Unit::FrenchCavalry, "D-4"),
            (Unit::Picton, "C-5"),
            (Unit::Clinton, "E-5"),
        ],
        1,
        FRENCH,
    );
    assert_eq!(
        moves_of(&p, Unit::FrenchCavalry),
        squares("D-5 D-3 C-4 E-4 D-2 C-3 E-3")
    );
    assert_eq!(
        p.check(&Action::Move {
            unit: Unit::FrenchCavalry,
            to: sq("D-6")
        }),
        Err(Illegal::NoPath(Unit::FrenchCavalry, sq("D-6")))
    );
    let msg = Illegal::NoPath(Unit::FrenchCavalry, sq("D-6")).to_string();
    assert_eq!(
        msg,
        "Blue Fleur blank cannot reach D-6: it must stop next to an enemy and cannot pass enemy squares"
    );
}

/// "Pieces (except leader pawns) that begin a turn next to an enemy piece cannot move."
#[test]
fn pieces_that_begin_next_to_an_enemy_cannot_move() {
    let mut p = position(
        Options::STANDARD,
        &[
            (Unit::Lobau, "D-4"),
            (Unit::Napoleon, "D-4"),
            (Unit::Picton, "D-5"),
        ],
        1,
        FRENCH,
    );
    assert!(p.pinned().contains(Unit::Lobau));
    assert!(moves_of(&p, Unit::Lobau).is_empty());
    let refused = p.check(&Action::Move {
        unit: Unit::Lobau,
        to: sq("C-4"),
    });
    assert_eq!(refused, Err(Illegal::Pinned(Unit::Lobau)));
    assert_eq!(
        refused.map_err(|e| e.to_string()),
        Err(
            "Blue Fleur 4 began the turn next to an enemy and cannot move (only leaders can): \
             move another piece"
                .to_string()
        )
    );
    // Judged when the phase begins (ruling 4): Napoleon leaving does not free Lobau.
    play(
        &mut p,
        Action::Move {
            unit: Unit::Napoleon,
            to: sq("C-4"),
        },
    );
    assert_eq!(
        p.check(&Action::Move {
            unit: Unit::Lobau,
            to: sq("C-4")
        }),
        Err(Illegal::Pinned(Unit::Lobau))
    );
    // Each piece moves once per phase.
    assert_eq!(
        p.check(&Action::Move {
            unit: Unit::Napoleon,
            to: sq("B-4")
        }),
        Err(Illegal::AlreadyMoved(Unit::Napoleon))
    );
}

/// "Leader pawns can move their full allowance even when starting next to an enemy piece and
/// need not stop when moving next to one. They cannot move through an enemy piece's square."
#[test]
fn leaders_move_freely_next_to_enemies_but_never_through_them() {
    let p = position(
        Options::STANDARD,
        &[
            (Unit::Napoleon, "D-4"),
            (Unit::Picton, "C-5"),
            (Unit::Clinton, "E-5"),
            (Unit::Cooke, "D-3"),
        ],
        1,
        FRENCH,
    );
    let reach = moves_of(&p, Unit::Napoleon);
    // Through D-5 (next to both enemies) to D-6; not through D-3 (an enemy square).
    assert!(reach.contains(&sq("D-6")));
    assert!(!reach.contains(&sq("D-2")));
    assert!(!reach.contains(&sq("D-3")));
    assert_eq!(
        p.check(&Action::Move {
            unit: Unit::Napoleon,
            to: sq("D-3")
        }),
        Err(Illegal::EnemySquare(sq("D-3")))
    );
    assert_eq!(reach, squares("D-5 D-6 C-4 B-4 C-3 E-4 F-4 E-3"));
    // A leader starting next to an enemy is not pinned.
    let p = position(
        Options::STANDARD,
        &[(Unit::Ney, "D-4"), (Unit::Picton, "D-5")],
        1,
        FRENCH,
    );
    assert!(!p.pinned().contains(Unit::Ney));
    assert!(moves_of(&p, Unit::Ney).contains(&sq("B-4")));
}

// ---------------------------------------------------------------------------------------------
// Hidden information and stacking
// ---------------------------------------------------------------------------------------------

/// "Pieces are kept symbol side up (number side down) at all times except during combat.
/// Players can examine their own pieces at any time, but can only examine enemy pieces during
/// combat."
#[test]
fn enemy_values_are_hidden_until_combat_reveals_them() {
    let mut p = position(
        Options::STANDARD,
        &[
            (Unit::Lobau, "D-4"),
            (Unit::Picton, "D-5"),
            (Unit::Napoleon, "H-10"),
        ],
        1,
        FRENCH,
    );
    let allied = p.view(ALLIES);
    assert_eq!(
        allied.at(sq("D-4")),
        [Seen::EnemyCoin {
            suit: Suit::BlueFleur,
            unit: None
        }]
    );
    assert_eq!(allied.at(sq("H-10")), [Seen::EnemyLeader(Unit::Napoleon)]);
    assert_eq!(
        allied.at(sq("D-5")),
        [Seen::Own {
            unit: Unit::Picton,
            revealed: false
        }]
    );
    assert!(!format!("{allied:?}").contains("Lobau"));
    to_combat(&mut p);
    play(
        &mut p,
        Action::Designate {
            unit: Unit::Lobau,
            target: sq("D-5"),
        },
    );
    assert!(!format!("{:?}", p.view(ALLIES)).contains("Lobau"));
    play(&mut p, Action::Resolve { target: sq("D-5") });
    // Turned over for the combat: both see both.
    assert_eq!(
        p.view(ALLIES).at(sq("D-4")),
        [Seen::EnemyCoin {
            suit: Suit::BlueFleur,
            unit: Some(Unit::Lobau)
        }]
    );
    assert_eq!(
        p.view(FRENCH).at(sq("D-5")),
        [Seen::EnemyCoin {
            suit: Suit::RedStar,
            unit: Some(Unit::Picton)
        }]
    );
    assert_eq!(
        p.view(FRENCH).at(sq("D-4")),
        [Seen::Own {
            unit: Unit::Lobau,
            revealed: true
        }]
    );
}

/// "Normal stacking is one piece per square. Leader pawns can stack with any non-leader piece,
/// but there can be just one leader per square. Symbol pieces (Hougoumont garrison and French
/// Guard artillery) don't count for stacking. Therefore the maximum number of pieces in a
/// square is three: One regular piece, one symbol piece and one leader pawn."
#[test]
fn one_regular_one_symbol_and_one_leader_per_square() {
    let mut p = position(
        Options::STANDARD,
        &[
            (Unit::OldGuard, "D-4"),
            (Unit::YoungGuard, "D-5"),
            (Unit::Napoleon, "C-4"),
            (Unit::Ney, "E-4"),
            (Unit::GuardArtillery, "D-3"),
            (Unit::Wellington, "A-10"),
        ],
        1,
        FRENCH,
    );
    let no_room = p.check(&Action::Move {
        unit: Unit::YoungGuard,
        to: sq("D-4"),
    });
    assert!(matches!(no_room, Err(Illegal::NoRoom(s, _)) if s == sq("D-4")));
    assert_eq!(
        no_room.map_err(|e| e.to_string()),
        Err(
            "no room on D-4: 2 regular pieces here, at most 1 may share a place; take 1 off"
                .to_string()
        )
    );
    play(
        &mut p,
        Action::Move {
            unit: Unit::Napoleon,
            to: sq("D-4"),
        },
    );
    assert!(matches!(
        p.check(&Action::Move {
            unit: Unit::Ney,
            to: sq("D-4")
        }),
        Err(Illegal::NoRoom(..))
    ));
    play(
        &mut p,
        Action::Move {
            unit: Unit::GuardArtillery,
            to: sq("D-4"),
        },
    );
    let here: Vec<Unit> = p.pieces_on(sq("D-4")).collect();
    assert_eq!(here, [Unit::OldGuard, Unit::Napoleon, Unit::GuardArtillery]);
    // Naming the piece says which piece of the stack moves.
    play(
        &mut p,
        Action::Move {
            unit: Unit::OldGuard,
            to: sq("C-4"),
        },
    );
    let here: Vec<Unit> = p.pieces_on(sq("D-4")).collect();
    assert_eq!(here, [Unit::Napoleon, Unit::GuardArtillery]);
}

// ---------------------------------------------------------------------------------------------
// Combat
// ---------------------------------------------------------------------------------------------

/// "The player who just moved should designate all attacks ... Every piece that starts a
/// combat phase next to an enemy piece must take part in a combat against one of those
/// pieces. More than one piece may attack a single defending piece."
#[test]
fn every_piece_next_to_an_enemy_must_attack() {
    let mut p = position(
        Options::STANDARD,
        &[
            (Unit::Lobau, "D-4"),
            (Unit::Reille, "C-5"),
            (Unit::OldGuard, "H-8"),
            (Unit::Picton, "D-5"),
            (Unit::Clinton, "C-4"),
        ],
        1,
        FRENCH,
    );
    to_combat(&mut p);
    assert_eq!(p.undesignated(), units(&[Unit::Lobau, Unit::Reille]));
    assert_eq!(
        p.check(&Action::Designate {
            unit: Unit::OldGuard,
            target: sq("D-5")
        }),
        Err(Illegal::NotAttacking(Unit::OldGuard))
    );
    assert_eq!(
        p.check(&Action::Designate {
            unit: Unit::Lobau,
            target: sq("C-5")
        }),
        Err(Illegal::NotATarget(Unit::Lobau, sq("C-5")))
    );
    // No resolving before every attacker has its target.
    assert_eq!(
        p.check(&Action::Resolve { target: sq("D-5") }),
        Err(Illegal::WrongPhase(Phase::Designation))
    );
    play(
        &mut p,
        Action::Designate {
            unit: Unit::Lobau,
            target: sq("D-5"),
        },
    );
    assert_eq!(p.phase(), Phase::Designation);
    play(
        &mut p,
        Action::Designate {
            unit: Unit::Reille,
            target: sq("D-5"),
        },
    );
    assert_eq!(p.phase(), Phase::Resolution);
    play(&mut p, Action::Resolve { target: sq("D-5") });
    assert_eq!(combat(&p).attackers, units(&[Unit::Lobau, Unit::Reille]));
    // Two attackers against one square: one combat. Clinton, next to both attackers and not
    // attacked, adds a die for the defender (ruling 7).
    assert_eq!(combat(&p).dice, [1, 2]);
}

/// "After all attacks have been designated, the attacker may resolve the attacks in any order."
#[test]
fn the_attacker_resolves_attacks_in_any_order() {
    let mut p = position(
        Options::STANDARD,
        &[
            (Unit::Lobau, "D-4"),
            (Unit::Reille, "D-7"),
            (Unit::Picton, "D-5"),
            (Unit::Clinton, "D-8"),
        ],
        1,
        FRENCH,
    );
    to_combat(&mut p);
    play(
        &mut p,
        Action::Designate {
            unit: Unit::Lobau,
            target: sq("D-5"),
        },
    );
    play(
        &mut p,
        Action::Designate {
            unit: Unit::Reille,
            target: sq("D-8"),
        },
    );
    assert_eq!(
        p.pending_attacks().iter().collect::<BTreeSet<_>>(),
        squares("D-5 D-8")
    );
    assert_eq!(p.to_act(), Actor::Seat(FRENCH));
    // The later one first.
    play(&mut p, Action::Resolve { target: sq("D-8") });
    assert_eq!(combat(&p).target, sq("D-8"));
    roll(&mut p, &[Face::Blank, Face::Blank]); // 3 against 3: stalemate
    assert_eq!(p.phase(), Phase::Resolution);
    assert_eq!(
        p.check(&Action::Resolve { target: sq("D-8") }),
        Err(Illegal::NoAttack(sq("D-8")))
    );
    play(&mut p, Action::Resolve { target: sq("D-5") });
    assert_eq!(combat(&p).target, sq("D-5"));
}

/// "To resolve an attack turn over the defending piece and all attacking pieces and add up the
/// respective numerical values. Symbol and blanks are considered "0" at this point. Roll one
/// combat die plus additional dice ... Any blanks rolled are considered "0" while each symbol
/// roll allows one numerical result (either a piece value or another die roll at the player's
/// option) to count double. No numerical result can be more than doubled and excess doubles
/// are lost."
#[test]
fn blanks_count_zero_and_each_symbol_doubles_one_result_once() {
    let t = |pieces: &[Unit], dice: &[Face]| Tally::count(units(pieces), dice);
    use Face::*;
    // Symbol and blank pieces count 0; a pawn too.
    assert_eq!(
        t(
            &[Unit::HougoumontGarrison, Unit::Uxbridge, Unit::Wellington],
            &[]
        )
        .total,
        0
    );
    // Blanks rolled: 0.
    assert_eq!(t(&[Unit::Picton], &[Blank, Three]).total, 7);
    // A symbol doubles a piece value or a die; the umpire doubles the largest (ruling 8).
    assert_eq!(t(&[Unit::Picton], &[Symbol, Two]).total, 10);
    assert_eq!(t(&[Unit::DutchBelgians], &[Symbol, Five]).total, 12);
    // Each result at most once; excess doubles are lost.
    assert_eq!(t(&[Unit::Picton], &[Symbol, Symbol, Symbol]).total, 8);
    assert_eq!(t(&[], &[Symbol, Symbol]).total, 0);
    // The highest undoubled numbers are noted.
    let tally = t(&[Unit::OldGuard], &[Four, Two, Symbol]);
    assert_eq!(
        (tally.total, tally.highest_die, tally.highest_result),
        (16, Some(4), Some(5))
    );
    assert_eq!(t(&[], &[Symbol]).highest_die, None);
    assert_eq!(t(&[], &[Blank]).highest_die, Some(0));
}

/// "Attacker: One per eligible leader (Napoleon, Blucher or Ney) taking part in the combat. One
/// per symbol piece taking part in the combat. Defender: One per eligible leader (Napoleon or
/// Wellington) ... One per symbol piece ... One if the defending piece is in Hougoumont or La
/// Haye Saint." — and "Roll one combat die plus additional dice" (ruling 2: the base die).
#[test]
fn extra_dice_for_leaders_symbols_and_the_fortified_objectives() {
    // Allied attack: Blucher gives a die, Wellington does not; French defence in Hougoumont:
    // Napoleon, the Guard artillery and the walls give one each; Ney gives none.
    let mut p = position(
        Options::STANDARD,
        &[
            (Unit::Blucher, "D-4"),
            (Unit::Bulow, "D-4"),
            (Unit::Wellington, "E-3"),
            (Unit::Cooke, "E-3"),
            (Unit::Napoleon, "E-4"),
            (Unit::GuardArtillery, "E-4"),
            (Unit::OldGuard, "E-4"),
            (Unit::Ney, "H-9"),
        ],
        1,
        ALLIES,
    );
    attack_all(&mut p, "E-4");
    assert_eq!(combat(&p).dice, [1 + 1, 1 + 1 + 1 + 1]);
    // Ney attacking gives a die; Wellington defending gives one; La Haye Sainte gives one.
    let mut p = position(
        Options::STANDARD,
        &[
            (Unit::Ney, "G-4"),
            (Unit::DErlon, "G-4"),
            (Unit::Wellington, "G-3"),
            (Unit::Picton, "G-3"),
        ],
        1,
        FRENCH,
    );
    attack_all(&mut p, "G-3");
    assert_eq!(combat(&p).dice, [1 + 1, 1 + 1 + 1]);
    // Without the base die (the worked example's count): only the extras.
    let mut p = position(
        Options::WORKED_EXAMPLE,
        &[(Unit::DErlon, "C-4"), (Unit::Picton, "C-3")],
        1,
        FRENCH,
    );
    let out = attack_all(&mut p, "C-3");
    // No dice at all: decided at once, 5 against 4.
    assert!(out.0.iter().any(|e| matches!(
        e,
        Event::CombatDecided { victor: Some(v), .. } if *v == FRENCH
    )));
}

/// "One per friendly piece not being attacked by any enemy piece that is next to an attacking
/// piece involved in the combat." (ruling 7: each piece once, on a square no attack targets)
#[test]
fn unattacked_friends_next_to_an_attacker_add_dice() {
    let mut p = position(
        Options::STANDARD,
        &[
            (Unit::Lobau, "D-4"),
            (Unit::Reille, "D-6"),
            (Unit::Picton, "D-5"),
            // Next to Lobau, not attacked: two pieces, two dice.
            (Unit::Clinton, "C-4"),
            (Unit::Wellington, "C-4"),
            // Next to Lobau but attacked by Reille: no die.
            (Unit::Cooke, "E-6"),
            // Not next to any attacker in this combat: no die.
            (Unit::DutchBelgians, "A-1"),
        ],
        1,
        FRENCH,
    );
    to_combat(&mut p);
    play(
        &mut p,
        Action::Designate {
            unit: Unit::Lobau,
            target: sq("D-5"),
        },
    );
    // Clinton and Wellington (C-4) are next to Lobau only; Lobau must attack one square.
    let reille_targets: BTreeSet<Square> = p
        .legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Designate {
                unit: Unit::Reille,
                target,
            } => Some(target),
            _ => None,
        })
        .collect();
    assert_eq!(reille_targets, squares("D-5 E-6"));
    play(
        &mut p,
        Action::Designate {
            unit: Unit::Reille,
            target: sq("E-6"),
        },
    );
    play(&mut p, Action::Resolve { target: sq("D-5") });
    assert_eq!(combat(&p).dice, [1, 1 + 2]);
}

/// The worked example, exactly: "Napoleon, the Old Guard and Guard artillery in one square and
/// Ney and the cavalry in a second square are attacking Hougoumont, which has the garrison,
/// the Dutch-Belgians and Wellington. Next to Ney but not being attacked, is the British
/// Cavalry. The French combat value is "5" (Old Guard) plus the value of three dice (Napoleon,
/// Ney & Guard artillery). The Allied combat value is "2" (DB) plus the value of four dice
/// (Wellington, Hougoumont garrison, Hougoumont chateau and the unattacked British cavalry next
/// to Ney)" ... "Napoleon and his crew roll a "4," a "2" and a symbol on their three dice. The
/// French use the symbol to double the French Guard's "5" so the French total is "16" ...
/// Wellington's defenders roll symbol, symbol, symbol and 5. They use one symbol to double the
/// 5 and the other to double the 2. The third symbol is wasted) The Allied total is a "14" so
/// they lose. ... the French can eliminate the DB @ and force Wellington and the Hougoumont
/// garrison to retreat two squares."
///
/// The example rolls only the extra dice, so it is played with [`Options::WORKED_EXAMPLE`]
/// (ruling 2: no base die).
#[test]
fn the_worked_combat_example_french_16_against_allied_14() {
    let pieces = [
        (Unit::Napoleon, "F-4"),
        (Unit::OldGuard, "F-4"),
        (Unit::GuardArtillery, "F-4"),
        (Unit::Ney, "E-5"),
        (Unit::FrenchCavalry, "E-5"),
        (Unit::HougoumontGarrison, "E-4"),
        (Unit::DutchBelgians, "E-4"),
        (Unit::Wellington, "E-4"),
        (Unit::Uxbridge, "D-5"),
    ];
    let mut p = position(Options::WORKED_EXAMPLE, &pieces, 1, FRENCH);
    let out = attack_all(&mut p, "E-4");
    let c = combat(&p).clone();
    assert_eq!(
        c.attackers,
        units(&[
            Unit::Napoleon,
            Unit::OldGuard,
            Unit::GuardArtillery,
            Unit::Ney,
            Unit::FrenchCavalry
        ])
    );
    assert_eq!(
        c.defenders,
        units(&[
            Unit::HougoumontGarrison,
            Unit::DutchBelgians,
            Unit::Wellington
        ])
    );
    // Three French dice, four Allied.
    assert_eq!(c.dice, [3, 4]);
    assert_eq!(out.0, [Event::CombatBegan(c)]);
    // Before the dice: "5" (Old Guard) against "2" (DB).
    assert_eq!(combat(&p).tallies().map(|t| t.total), [5, 2]);
    use Face::*;
    let events = roll(&mut p, &[Four, Two, Symbol, Symbol, Symbol, Symbol, Five]);
    let decided = events.iter().find_map(|e| match e {
        Event::CombatDecided {
            tallies, victor, ..
        } => Some((tallies.map(|t| t.total), *victor)),
        _ => None,
    });
    assert_eq!(decided, Some(([16, 14], Some(FRENCH))));
    // The French may eliminate the DB (2 <= their highest die, 4); not Wellington or the
    // garrison, who have no numerical value (ruling 9).
    assert_eq!(p.phase(), Phase::Elimination);
    assert_eq!(p.to_act(), Actor::Seat(FRENCH));
    assert_eq!(
        p.legal_actions(),
        [
            Action::Eliminate(Some(Unit::DutchBelgians)),
            Action::Eliminate(None)
        ]
    );
    let out = play(&mut p, Action::Eliminate(Some(Unit::DutchBelgians)));
    assert_eq!(
        out.0,
        [Event::Eliminated {
            unit: Unit::DutchBelgians,
            no_retreat: false
        }]
    );
    // Wellington and the garrison retreat two squares, chosen by the French: never next to a
    // French piece (D-5 and F-3 are), never through one.
    assert_eq!(p.phase(), Phase::Retreat);
    assert_eq!(retreats_of(&p, Unit::Wellington), squares("C-4 D-3 E-2"));
    assert_eq!(
        retreats_of(&p, Unit::HougoumontGarrison),
        squares("C-4 D-3 E-2")
    );
    play(
        &mut p,
        Action::Retreat {
            unit: Unit::Wellington,
            to: sq("C-4"),
        },
    );
    play(
        &mut p,
        Action::Retreat {
            unit: Unit::HougoumontGarrison,
            to: sq("D-3"),
        },
    );
    // "If the winning side is the attacker then one attacking piece can enter the defending
    // piece's square."
    assert_eq!(p.phase(), Phase::Advance);
    play(&mut p, Action::Advance(Some(Unit::OldGuard)));
    assert_eq!(p.pieces_on(sq("E-4")).collect::<Vec<_>>(), [Unit::OldGuard]);
    assert_eq!(p.holdings()[2], Some(FRENCH), "Hougoumont captured");
    // The combat phase is over: the Allies move.
    assert_eq!(
        (p.phase(), p.to_act()),
        (Phase::Movement, Actor::Seat(ALLIES))
    );
    // With the base die (the rules text) the same combat rolls four and five dice.
    let mut q = position(Options::STANDARD, &pieces, 1, FRENCH);
    to_combat(&mut q);
    designate_all(&mut q, "E-4");
    play(&mut q, Action::Resolve { target: sq("E-4") });
    assert_eq!(combat(&q).dice, [4, 5]);
}

/// The worked example, had the Allies won: "If they had won they could have eliminated either
/// the French Guard or the cavalry because they 5 is equal to or higher than both French
/// pieces."
#[test]
fn the_worked_example_had_the_allies_won() {
    let mut p = position(
        Options::WORKED_EXAMPLE,
        &[
            (Unit::Napoleon, "F-4"),
            (Unit::OldGuard, "F-4"),
            (Unit::GuardArtillery, "F-4"),
            (Unit::Ney, "E-5"),
            (Unit::FrenchCavalry, "E-5"),
            (Unit::HougoumontGarrison, "E-4"),
            (Unit::DutchBelgians, "E-4"),
            (Unit::Wellington, "E-4"),
            (Unit::Uxbridge, "D-5"),
        ],
        1,
        FRENCH,
    );
    attack_all(&mut p, "E-4");
    use Face::*;
    roll(&mut p, &[Blank, Blank, Blank, Symbol, Symbol, Symbol, Five]);
    assert_eq!(p.to_act(), Actor::Seat(ALLIES));
    let choices: BTreeSet<String> = p.legal_actions().iter().map(|a| format!("{a:?}")).collect();
    let want: BTreeSet<String> = [
        Action::Eliminate(Some(Unit::OldGuard)),
        Action::Eliminate(Some(Unit::FrenchCavalry)),
        Action::Eliminate(None),
    ]
    .iter()
    .map(|a| format!("{a:?}"))
    .collect();
    assert_eq!(choices, want);
    assert_eq!(
        p.check(&Action::Eliminate(Some(Unit::Napoleon))),
        Err(Illegal::NotEliminable(Unit::Napoleon))
    );
    // Declined: every French piece in the combat retreats instead; the defender never advances.
    play(&mut p, Action::Eliminate(None));
    assert_eq!(p.phase(), Phase::Retreat);
    let c = combat(&p);
    assert_eq!(c.retreating.len(), 5);
}

/// "Each piece on the losing side is retreated two squares in any direction by the victor, but
/// cannot retreat next to an enemy piece (except for a lone leader). If there is no possible
/// retreat path that does not pass next to an enemy piece other than a lone leader then the
/// retreating piece is eliminated."
#[test]
fn retreats_avoid_enemies_except_lone_leaders_or_the_piece_is_eliminated() {
    // Picton loses on D-5 to Lobau (D-4). Ney stands alone on B-6: a lone leader does not bar
    // the squares next to him. Reille on C-3 does.
    let mut p = position(
        Options::STANDARD,
        &[
            (Unit::Lobau, "D-4"),
            (Unit::Reille, "C-3"),
            (Unit::Ney, "B-6"),
            (Unit::Picton, "D-5"),
        ],
        1,
        FRENCH,
    );
    to_combat(&mut p);
    play(
        &mut p,
        Action::Designate {
            unit: Unit::Lobau,
            target: sq("D-5"),
        },
    );
    play(&mut p, Action::Resolve { target: sq("D-5") });
    use Face::*;
    roll(&mut p, &[Symbol, Blank]); // 4 doubled = 8 against 4: Lobau wins, no die to eliminate
    assert_eq!(p.phase(), Phase::Retreat);
    // From D-5: C-5 is free of enemy squares next to it except Ney (lone) — so C-5 then C-6 /
    // B-5 (next to Ney only) / C-4 (next to Reille: no).
    let r = retreats_of(&p, Unit::Picton);
    assert!(
        r.contains(&sq("B-5")),
        "next to a lone leader only: allowed"
    );
    assert!(!r.contains(&sq("C-4")), "next to Reille: barred");
    assert!(!r.contains(&sq("D-3")), "next to Lobau and Reille: barred");
    assert_eq!(r, squares("B-5 C-6 D-7 E-6 F-5"));
    assert_eq!(
        p.check(&Action::Retreat {
            unit: Unit::Picton,
            to: sq("C-4")
        }),
        Err(Illegal::BadRetreat(Unit::Picton, sq("C-4")))
    );
    // Hemmed in: the Allies lose in the corner A-1 and have nowhere to go.
    let mut p = position(
        Options::STANDARD,
        &[
            (Unit::Lobau, "A-2"),
            (Unit::Reille, "B-1"),
            (Unit::Clinton, "A-1"),
        ],
        1,
        FRENCH,
    );
    attack_all(&mut p, "A-1");
    let events = roll(&mut p, &[Symbol, Two]);
    // 4 + 3 + 4 (doubled) = 11 against 5; highest French die none (a symbol): no elimination
    // by choice, but no retreat either.
    assert!(events.contains(&Event::Eliminated {
        unit: Unit::Clinton,
        no_retreat: true
    }));
    assert_eq!(p.phase(), Phase::Advance);
}

/// "The winning side is entitled to eliminate one enemy piece on the losing side whose
/// numerical value is equal to or less than the highest number rolled among the winning dice."
#[test]
fn the_victor_may_eliminate_one_piece_up_to_its_highest_die() {
    // The defender wins: the attackers lose, and a 3 rolled reaches Reille (3), not Lobau (4).
    let mut p = position(
        Options::STANDARD,
        &[
            (Unit::Lobau, "D-4"),
            (Unit::Reille, "C-5"),
            (Unit::Cooke, "D-5"),
        ],
        1,
        FRENCH,
    );
    attack_all(&mut p, "D-5");
    use Face::*;
    roll(&mut p, &[Blank, Three]); // 7 against 5 + 3 = 8
    assert_eq!(p.to_act(), Actor::Seat(ALLIES));
    assert_eq!(
        p.legal_actions(),
        [
            Action::Eliminate(Some(Unit::Reille)),
            Action::Eliminate(None)
        ]
    );
    play(&mut p, Action::Eliminate(Some(Unit::Reille)));
    assert!(p.eliminated().contains(Unit::Reille));
    // Lobau retreats, chosen by the Allies; the defender does not advance.
    assert_eq!(p.phase(), Phase::Retreat);
    let to = *retreats_of(&p, Unit::Lobau)
        .iter()
        .next()
        .expect("a retreat");
    play(
        &mut p,
        Action::Retreat {
            unit: Unit::Lobau,
            to,
        },
    );
    assert_eq!(p.phase(), Phase::Movement);
    // Ruling 9: the highest undoubled result instead, as an option.
    let mut o = Options::STANDARD;
    o.elimination_limit = boards::piecepack::EliminationLimit::HighestResult;
    let mut p = position(
        o,
        &[
            (Unit::Lobau, "D-4"),
            (Unit::Reille, "C-5"),
            (Unit::Cooke, "D-5"),
        ],
        1,
        FRENCH,
    );
    attack_all(&mut p, "D-5");
    roll(&mut p, &[Blank, Three]);
    assert_eq!(
        p.legal_actions(),
        [
            Action::Eliminate(Some(Unit::Lobau)),
            Action::Eliminate(Some(Unit::Reille)),
            Action::Eliminate(None)
        ]
    );
}

/// "If the results are exactly tied, after all modifiers, then the battle is a stalemate and
/// there is no result."
#[test]
fn a_tie_is_a_stalemate() {
    let mut p = position(
        Options::STANDARD,
        &[(Unit::Lobau, "D-4"), (Unit::Picton, "D-5")],
        1,
        FRENCH,
    );
    to_combat(&mut p);
    designate_all(&mut p, "D-5");
    let before = p.eliminated();
    play(&mut p, Action::Resolve { target: sq("D-5") });
    let events = roll(&mut p, &[Face::Symbol, Face::Four]); // 4 doubled = 8 against 4 + 4
    assert!(events.iter().any(|e| matches!(
        e,
        Event::CombatDecided { victor: None, tallies, .. } if tallies[0].total == 8 && tallies[1].total == 8
    )));
    assert_eq!(p.square_of(Unit::Lobau), Some(sq("D-4")));
    assert_eq!(p.square_of(Unit::Picton), Some(sq("D-5")));
    assert_eq!(p.eliminated(), before);
    assert_eq!(p.phase(), Phase::Movement);
}

// ---------------------------------------------------------------------------------------------
// Victory
// ---------------------------------------------------------------------------------------------

/// "How to win: The French by capturing all three objectives."
#[test]
fn the_french_win_by_capturing_all_three_objectives() {
    let mut p = position(
        Options::STANDARD,
        &[
            (Unit::DErlon, "A-3"),
            (Unit::Lobau, "G-3"),
            (Unit::Reille, "E-5"),
            (Unit::Wellington, "A-10"),
        ],
        3,
        FRENCH,
    );
    assert_eq!(
        p.holdings(),
        [Some(FRENCH), Some(FRENCH), Some(ALLIES), Some(FRENCH)]
    );
    let out = play(
        &mut p,
        Action::Move {
            unit: Unit::Reille,
            to: sq("E-4"),
        },
    );
    assert!(out.0.contains(&Event::ObjectiveTaken {
        square: sq("E-4"),
        by: Some(FRENCH)
    }));
    assert_eq!(
        p.status(),
        Status::Won {
            winner: FRENCH,
            reason: EndReason::ObjectivesCaptured
        }
    );
    // Captured objectives stay captured when left (ruling 11).
    let mut p = position(
        Options::STANDARD,
        &[(Unit::DErlon, "A-3"), (Unit::Wellington, "H-1")],
        3,
        FRENCH,
    );
    play(
        &mut p,
        Action::Move {
            unit: Unit::DErlon,
            to: sq("A-4"),
        },
    );
    assert_eq!(p.holdings()[0], Some(FRENCH));
}

/// "The Allies by capturing their objective, eliminating Napoleon or if the French fail to
/// capture all their objectives in 10 turns." (the third way: see the turn-marker test)
#[test]
fn the_allies_win_by_plancenoit_or_by_eliminating_napoleon() {
    let mut p = position(
        Options::STANDARD,
        &[(Unit::Uxbridge, "E-7"), (Unit::Napoleon, "A-1")],
        2,
        ALLIES,
    );
    play(
        &mut p,
        Action::Move {
            unit: Unit::Uxbridge,
            to: sq("G-7"),
        },
    );
    assert_eq!(
        p.status(),
        Status::Won {
            winner: ALLIES,
            reason: EndReason::PlancenoitCaptured
        }
    );
    // Napoleon alone in the corner H-1, beaten, with no retreat.
    let mut p = position(
        Options::STANDARD,
        &[
            (Unit::Napoleon, "H-1"),
            (Unit::Picton, "G-1"),
            (Unit::Cooke, "H-2"),
        ],
        2,
        ALLIES,
    );
    attack_all(&mut p, "H-1");
    assert_eq!(combat(&p).dice, [1, 2]);
    let events = roll(&mut p, &[Face::Five, Face::Blank, Face::Blank]);
    assert!(events.contains(&Event::Eliminated {
        unit: Unit::Napoleon,
        no_retreat: true
    }));
    assert_eq!(
        p.status(),
        Status::Won {
            winner: ALLIES,
            reason: EndReason::NapoleonEliminated
        }
    );
    assert_eq!(p.to_act(), Actor::Nobody);
}

// ---------------------------------------------------------------------------------------------
// Reinforcements (ruling 1)
// ---------------------------------------------------------------------------------------------

/// "5. Allied reinforcement" and "set aside the five black pieces, they arrive later as
/// reinforcements" — ruling 1: from turn 5 (an option), on the entry squares A-10 to D-10
/// (layout data), any of them, free of French pieces, within stacking limits.
#[test]
fn the_prussians_enter_from_turn_five_on_the_allied_left_edge() {
    // Turn 4: no reinforcement phase; the marker advances.
    let mut p = position(
        Options::STANDARD,
        &[
            (Unit::Wellington, "A-1"),
            (Unit::OldGuard, "C-10"),
            (Unit::Napoleon, "H-5"),
        ],
        4,
        ALLIES,
    );
    let out = play(&mut p, Action::EndMovement);
    assert!(out.0.contains(&Event::TurnBegan(5)));
    assert!(p.waiting().len() == 5);
    // Turn 5: the Allies may bring them on.
    let mut p = position(
        Options::STANDARD,
        &[
            (Unit::Wellington, "A-1"),
            (Unit::OldGuard, "C-10"),
            (Unit::Napoleon, "H-5"),
        ],
        5,
        ALLIES,
    );
    play(&mut p, Action::EndMovement);
    assert_eq!(
        (p.phase(), p.to_act()),
        (Phase::Reinforcement, Actor::Seat(ALLIES))
    );
    let entries: BTreeSet<Square> = p
        .legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Enter {
                unit: Unit::Bulow,
                at,
            } => Some(at),
            _ => None,
        })
        .collect();
    assert_eq!(
        entries,
        squares("A-10 B-10 D-10"),
        "C-10 holds a French piece"
    );
    assert_eq!(
        p.check(&Action::Enter {
            unit: Unit::Bulow,
            at: sq("C-10")
        }),
        Err(Illegal::EnemySquare(sq("C-10")))
    );
    assert_eq!(
        p.check(&Action::Enter {
            unit: Unit::Bulow,
            at: sq("E-10")
        }),
        Err(Illegal::NotEntry(sq("E-10")))
    );
    play(
        &mut p,
        Action::Enter {
            unit: Unit::Bulow,
            at: sq("A-10"),
        },
    );
    play(
        &mut p,
        Action::Enter {
            unit: Unit::Blucher,
            at: sq("A-10"),
        },
    );
    assert!(matches!(
        p.check(&Action::Enter {
            unit: Unit::Pirch,
            at: sq("A-10")
        }),
        Err(Illegal::NoRoom(..))
    ));
    // The French see a black coin and Blucher arrive, not which coin.
    assert_eq!(
        p.view(FRENCH).at(sq("A-10")),
        [
            Seen::EnemyCoin {
                suit: Suit::BlackMoon,
                unit: None
            },
            Seen::EnemyLeader(Unit::Blucher)
        ]
    );
    // The rest may be held back.
    let out = play(&mut p, Action::EndReinforcement);
    assert!(out.0.contains(&Event::TurnBegan(6)));
    assert_eq!(p.waiting().len(), 3);
    // The arrival turn is an option.
    let mut o = Options::STANDARD;
    o.prussians_from_turn = 11;
    assert_eq!(
        Position::start(o, Setup::example()).map(|_| ()),
        Err(Problems(vec![SetupProblem::PrussianTurn(11)]))
    );
}

/// Dice are chance actions: six faces, one each (our ruling, `docs/design.md`: the faces are
/// blank, ace, 2, 3, 4 and 5); dice read off physical piecepack dice are entered as the same
/// actions.
#[test]
fn dice_are_six_equally_likely_chance_outcomes() {
    let mut p = position(
        Options::STANDARD,
        &[(Unit::Lobau, "D-4"), (Unit::Picton, "D-5")],
        1,
        FRENCH,
    );
    assert!(p.chance_outcomes().is_empty());
    attack_all(&mut p, "D-5");
    assert_eq!(p.to_act(), Actor::Chance);
    let outcomes = p.chance_outcomes();
    assert_eq!(outcomes, Face::ALL.map(|f| (Action::Roll(f), 1)).to_vec());
    let out = play(&mut p, Action::Roll(Face::Three));
    assert_eq!(
        out.0,
        [Event::Rolled {
            side: FRENCH,
            face: Face::Three
        }]
    );
    assert_eq!(
        p.check(&Action::EndMovement),
        Err(Illegal::WrongPhase(Phase::Rolling))
    );
}

// ---------------------------------------------------------------------------------------------
// Rulings that are options
// ---------------------------------------------------------------------------------------------

/// Ruling 3: "next to" means sharing a side; `Options::diagonals` counts corners too, for
/// pinning, stopping, combat and set-up alike.
#[test]
fn next_to_is_orthogonal_unless_diagonals_are_chosen() {
    let pieces = [(Unit::Lobau, "D-4"), (Unit::Picton, "E-5")];
    let p = position(Options::STANDARD, &pieces, 1, FRENCH);
    assert!(!p.pinned().contains(Unit::Lobau));
    assert_eq!(moves_of(&p, Unit::Lobau), squares("C-4 E-4 D-3 D-5"));
    let mut o = Options::STANDARD;
    o.diagonals = true;
    let mut p = position(o, &pieces, 1, FRENCH);
    assert!(p.pinned().contains(Unit::Lobau));
    to_combat(&mut p);
    assert_eq!(p.undesignated(), units(&[Unit::Lobau]));
    play(
        &mut p,
        Action::Designate {
            unit: Unit::Lobau,
            target: sq("E-5"),
        },
    );
}

/// Ruling 11: a captured objective stays captured until the enemy enters it;
/// `Holding::Occupied` holds it only while a piece stands on it.
#[test]
fn objectives_held_while_occupied_under_that_option() {
    let mut o = Options::STANDARD;
    o.holding = boards::piecepack::Holding::Occupied;
    let mut p = position(
        o,
        &[(Unit::DErlon, "A-3"), (Unit::Wellington, "H-1")],
        3,
        FRENCH,
    );
    assert_eq!(p.holdings(), [Some(FRENCH), None, None, None]);
    let out = play(
        &mut p,
        Action::Move {
            unit: Unit::DErlon,
            to: sq("A-4"),
        },
    );
    assert!(out.0.contains(&Event::ObjectiveTaken {
        square: sq("A-3"),
        by: None
    }));
    assert_eq!(p.holdings()[0], None);
}

/// A seat's diagram shows its own values and the enemy's only as `?` until revealed.
#[test]
fn the_diagram_keeps_enemy_values_hidden() {
    let p = position(
        Options::STANDARD,
        &[
            (Unit::OldGuard, "G-7"),
            (Unit::GuardArtillery, "G-7"),
            (Unit::Picton, "A-1"),
            (Unit::Wellington, "A-1"),
        ],
        1,
        FRENCH,
    );
    let french = p.view(FRENCH).diagram();
    let allied = p.view(ALLIES).diagram();
    let row = |d: &str, r: char| -> String {
        d.lines()
            .find(|l| l.starts_with(r))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    };
    assert_eq!(row(&french, 'G'), "G . . . . . . 5* . . .");
    assert_eq!(row(&allied, 'G'), "G . . . . . . ?? . . .");
    assert_eq!(row(&french, 'A'), "A ?L . . . . . . . . .");
    assert_eq!(row(&allied, 'A'), "A 4L . . . . . . . . .");
    assert!(!allied.contains('5'));
}
