//! Stratego Original and Stratego Duel, one test per rule.
//!
//! Each test quotes the sentence it checks: from the rulebook (*Stratego: Rules of the Game, as
//! told by the Bluecoat Lieutenant*), or names the ruling it checks (the root `README.md`,
//! "Stratego rulings"; `docs/design.md`) or the article of the International Stratego Federation's
//! game rules it follows, in our words. Positions are built from short piece lists (`rM@e4` is a
//! Red Marshal on e4) through `Position::from_diagram`, and every position a test plays through is
//! also checked for agreement between `legal_actions` and `check` on all 10,000 from-to pairs.

use std::collections::{BTreeSet, HashSet};

use boards::stratego::{
    Battle, BattleResult, Deployment, EndReason, EnemyPiece, Illegal, Move, Options, Outcome,
    Piece, Position, Rank, Seen, Setup, SetupProblem, Square, Variant, BLUE, RED,
};
use boards::{Actor, Game, Seat, Status};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// Tournament rules on the classic board: two-squares limit 3, more-squares on.
const ISF: Options = Options::isf(Variant::Classic);

/// Both Flags in their corners with a Sergeant beside each, added by [`game`] so that neither side
/// runs out of moves in a test about something else. Blue's Sergeant on i10 makes Blue's waiting
/// moves (i10-i9, ...); other pieces keep clear of these four squares.
const CORNERS: &str = "rF@a1 r4@b1 bF@j10 b4@i10";

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap_or_else(|| panic!("{s} is not a square"))
}

fn mv(s: &str) -> Move {
    Move::parse(s).unwrap_or_else(|| panic!("{s} is not a move"))
}

fn squares(list: &str) -> BTreeSet<Square> {
    list.split_whitespace().map(sq).collect()
}

fn red(rank: Rank) -> Piece {
    Piece { owner: RED, rank }
}

fn blue(rank: Rank) -> Piece {
    Piece { owner: BLUE, rank }
}

/// A position holding exactly `pieces`, a list like `rM@e4 bB@e5` (owner `r`/`b`, a rank
/// character `F B S 2-9 M`, `@`, a square), written out as a board diagram and read back with
/// `Position::from_diagram`.
fn exact(options: Options, pieces: &str, to_move: Seat) -> Position {
    let mut grid: Vec<Vec<&str>> = (0..10u8)
        .map(|row| {
            (0..10u8)
                .map(|col| match Square::new(col, row) {
                    Some(s) if s.is_lake() => "~~",
                    _ => "..",
                })
                .collect()
        })
        .collect();
    for token in pieces.split_whitespace() {
        let (piece, square) = token
            .split_once('@')
            .unwrap_or_else(|| panic!("'{token}' is not piece@square"));
        let s = sq(square);
        grid[usize::from(s.row())][usize::from(s.col())] = piece;
    }
    let text: String = grid.iter().rev().map(|row| row.join(" ") + "\n").collect();
    let pos = Position::from_diagram(options, &text, to_move)
        .unwrap_or_else(|p| panic!("bad diagram: {p}\n{text}"));
    // `diagram()` writes the format `from_diagram` reads.
    assert_eq!(
        Position::from_diagram(options, &pos.diagram(), to_move).as_ref(),
        Ok(&pos)
    );
    pos
}

/// `pieces` plus [`CORNERS`] under ISF rules, Red to move.
fn game(pieces: &str) -> Position {
    exact(ISF, &format!("{CORNERS} {pieces}"), RED)
}

/// `legal_actions` and `check` agree on every from-to pair, and the list has no duplicates.
fn assert_agree(pos: &Position) {
    let list = pos.legal_actions();
    let legal: HashSet<Move> = list.iter().copied().collect();
    assert_eq!(legal.len(), list.len(), "duplicate legal moves");
    for from in Square::all() {
        for to in Square::all() {
            let m = Move::new(from, to);
            assert_eq!(
                pos.check(&m).is_ok(),
                legal.contains(&m),
                "check and legal_actions disagree on {m}: {:?}\n{}",
                pos.check(&m),
                pos.diagram()
            );
        }
    }
}

/// Plays `m`, which must be legal.
fn play(pos: &mut Position, m: &str) -> Outcome {
    assert_agree(pos);
    let outcome = pos
        .play(&mv(m))
        .unwrap_or_else(|e| panic!("{m} was refused: {e}\n{}", pos.diagram()));
    assert_agree(pos);
    outcome
}

/// Plays each move of a space-separated list.
fn play_all(pos: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        play(pos, m);
    }
}

/// Why `m` is refused; it must not be in the legal list, and refusing leaves the game unchanged.
fn refused(pos: &Position, m: &str) -> Illegal {
    assert_agree(pos);
    let mut copy = pos.clone();
    let err = copy
        .play(&mv(m))
        .expect_err(&format!("{m} should be refused"));
    assert_eq!(&copy, pos, "a refused move changed the game");
    err
}

/// Where the piece on `from` may go.
fn targets(pos: &Position, from: &str) -> BTreeSet<Square> {
    let from = sq(from);
    pos.legal_actions()
        .into_iter()
        .filter(|m| m.from == from)
        .map(|m| m.to)
        .collect()
}

fn at(pos: &Position, s: &str) -> Option<Piece> {
    pos.piece_at(sq(s))
}

fn battle(outcome: Outcome) -> Battle {
    match outcome {
        Outcome::Battle(b) => b,
        Outcome::Moved(m) => panic!("{m} was a plain move, not a battle"),
    }
}

/// The enemy piece on `s` as `seat` sees it.
fn enemy_seen(pos: &Position, seat: Seat, s: &str) -> EnemyPiece {
    match pos.view(seat).at(sq(s)) {
        Seen::Enemy(e) => e,
        other => panic!("{s} holds no enemy of {seat}: {other:?}"),
    }
}

const RED_CLASSIC: &str = "
    2 2 2 2 2 2 2 2 3 3
    3 3 3 4 4 4 4 5 5 5
    5 6 6 6 6 7 7 7 8 8
    9 M S F B B B B B B";

const BLUE_CLASSIC: &str = "
    9 M S F B B B B B B
    5 6 6 6 6 7 7 7 8 8
    3 3 3 4 4 4 4 5 5 5
    2 2 2 2 2 2 2 2 3 3";

const RED_DUEL: &str = "
    . 2 . . 3 . . 3 . 2
    . . . . M 9 . . . .
    . . . B F B . . S .";

const BLUE_DUEL: &str = "
    B F B . . . . . . .
    . . . . 9 M . . . S
    2 . 3 . . 3 . . . 2";

fn classic_setup() -> Setup {
    Setup::parse(Variant::Classic, RED_CLASSIC, BLUE_CLASSIC).expect("the classic set-up parses")
}

fn deployment(variant: Variant, seat: Seat, text: &str) -> Deployment {
    Deployment::parse(variant, seat, text).expect("the deployment parses")
}

fn army_sizes(pos: &Position) -> [usize; 2] {
    [RED, BLUE].map(|seat| pos.pieces().filter(|(_, p)| p.owner == seat).count())
}

// ---------------------------------------------------------------------------------------------
// Set-up
// ---------------------------------------------------------------------------------------------

/// The army list, one line each in the rulebook: "1x Marshal / 1x General / 2x Colonel /
/// 3x Major / 4x Captain / 5x Miner / 8x Scout / 4x Lieutenant / 4x Sergeant / 1x Spy / 1x Flag /
/// 6x Bomb", and "32 men + 1 spy + 6 bombs + 1 flag = 40 Bluecoats."
#[test]
fn classic_army_has_the_rulebook_counts() {
    use Rank::*;
    let list = [
        (Marshal, 1),
        (General, 1),
        (Colonel, 2),
        (Major, 3),
        (Captain, 4),
        (Miner, 5),
        (Scout, 8),
        (Lieutenant, 4),
        (Sergeant, 4),
        (Spy, 1),
        (Flag, 1),
        (Bomb, 6),
    ];
    for (rank, n) in list {
        assert_eq!(Variant::Classic.count(rank), n, "{rank}");
    }
    let men: u8 = Rank::ALL
        .iter()
        .filter(|r| !matches!(r, Spy | Bomb | Flag))
        .map(|&r| Variant::Classic.count(r))
        .sum();
    assert_eq!(men, 32);
    assert_eq!(Variant::Classic.army_size(), 40);

    let pos = Position::start(ISF, classic_setup()).expect("a full army is playable");
    assert_eq!(army_sizes(&pos), [40, 40]);
    for seat in [RED, BLUE] {
        for (rank, n) in list {
            assert_eq!(pos.alive(seat, rank), n);
        }
    }

    // One Scout too few and one Miner too many is refused, rank by rank.
    let mut red = deployment(Variant::Classic, RED, RED_CLASSIC);
    let scout = red
        .placements
        .iter()
        .position(|&(_, r)| r == Scout)
        .expect("a Scout");
    red.placements[scout].1 = Miner;
    assert_eq!(
        red.validate(Variant::Classic, RED).unwrap_err().0,
        [
            SetupProblem::WrongCount {
                seat: RED,
                rank: Miner,
                placed: 6,
                required: 5
            },
            SetupProblem::WrongCount {
                seat: RED,
                rank: Scout,
                placed: 7,
                required: 8
            },
        ]
    );
}

/// Stratego Duel: "All rules are the same as in Stratego, except each player only plays with
/// these 10 pieces:" then, one line each, "#10 Marshal (1 piece) / #9 General (1 piece) /
/// #3 Miner (2 pieces) / #2 Scout (2 pieces) / Spy (1 piece) / Bomb (2 pieces) / Flag (1 piece)".
#[test]
fn duel_army_has_ten_pieces() {
    use Rank::*;
    let list = [
        (Marshal, 1),
        (General, 1),
        (Colonel, 0),
        (Major, 0),
        (Captain, 0),
        (Lieutenant, 0),
        (Sergeant, 0),
        (Miner, 2),
        (Scout, 2),
        (Spy, 1),
        (Bomb, 2),
        (Flag, 1),
    ];
    for (rank, n) in list {
        assert_eq!(Variant::Duel.count(rank), n, "{rank}");
    }
    assert_eq!(Variant::Duel.army_size(), 10);

    let setup = Setup::parse(Variant::Duel, RED_DUEL, BLUE_DUEL).expect("the Duel set-up parses");
    let pos = Position::start(Options::isf(Variant::Duel), setup).expect("a Duel army is playable");
    assert_eq!(army_sizes(&pos), [10, 10]);

    // A classic rank has no place in a Duel army.
    let mut red = deployment(Variant::Duel, RED, RED_DUEL);
    red.place(sq("a1"), Captain);
    let problems = red.validate(Variant::Duel, RED).unwrap_err();
    assert_eq!(
        problems.0,
        [SetupProblem::WrongCount {
            seat: RED,
            rank: Captain,
            placed: 1,
            required: 0
        }]
    );
    assert_eq!(problems.to_string(), "1 problem: Red: 1 Captain (max 0)");
}

/// "Tomorrow, our formation will be the same as the enemy’s: four lines of ten." and
/// "We will line up over the four lines at the rear."
#[test]
fn classic_set_up_uses_the_four_rear_rows() {
    assert_eq!(Variant::Classic.setup_rows(), 4);
    let red = deployment(Variant::Classic, RED, RED_CLASSIC);
    let blue = deployment(Variant::Classic, BLUE, BLUE_CLASSIC);
    let rows = |d: &Deployment| -> BTreeSet<u8> {
        d.placements.iter().map(|(s, _)| s.row() + 1).collect()
    };
    assert_eq!(rows(&red), BTreeSet::from([1, 2, 3, 4]));
    assert_eq!(rows(&blue), BTreeSet::from([7, 8, 9, 10]));

    // A Red piece moved one row forward (rank 5), or into Blue's rows, is outside its zone.
    for (from, to) in [("a4", "a5"), ("a4", "a7"), ("b4", "b10")] {
        let mut d = red.clone();
        let i = d
            .placements
            .iter()
            .position(|&(s, _)| s == sq(from))
            .expect("a piece there");
        d.placements[i].0 = sq(to);
        assert_eq!(
            d.validate(Variant::Classic, RED).unwrap_err().0,
            [SetupProblem::OutsideZone {
                seat: RED,
                square: sq(to)
            }],
            "{from} -> {to}"
        );
    }
    // Blue likewise may not come forward to rank 6 or back into Red's rows.
    for to in ["e6", "e4", "e1"] {
        let mut d = blue.clone();
        d.placements[0].0 = sq(to);
        assert!(d.validate(Variant::Classic, BLUE).unwrap_err().0.contains(
            &SetupProblem::OutsideZone {
                seat: BLUE,
                square: sq(to)
            }
        ));
    }
}

/// Duel: "Players can set up these 10 pieces anywhere in the 30 squares of their first three
/// rows."
#[test]
fn duel_set_up_is_anywhere_in_the_first_three_rows() {
    assert_eq!(Variant::Duel.setup_rows(), 3);
    let army: Vec<Rank> = deployment(Variant::Duel, RED, RED_DUEL)
        .placements
        .iter()
        .map(|&(_, r)| r)
        .collect();
    // Spread over the three rows with gaps, or all ten on any one of them: each is fine.
    for (seat, text) in [(RED, RED_DUEL), (BLUE, BLUE_DUEL)] {
        assert_eq!(
            deployment(Variant::Duel, seat, text).validate(Variant::Duel, seat),
            Ok(())
        );
    }
    for (seat, rows) in [(RED, [1, 2, 3]), (BLUE, [10, 9, 8])] {
        for rank_row in rows {
            let d = Deployment {
                placements: army
                    .iter()
                    .enumerate()
                    .map(|(col, &r)| (sq(&format!("{}{rank_row}", (b'a' + col as u8) as char)), r))
                    .collect(),
            };
            assert_eq!(d.validate(Variant::Duel, seat), Ok(()), "row {rank_row}");
        }
    }
    // The fourth row, where a classic army would stand, is outside a Duel zone.
    for (seat, text, square) in [(RED, RED_DUEL, "e4"), (BLUE, BLUE_DUEL, "e7")] {
        let mut d = deployment(Variant::Duel, seat, text);
        d.placements[0].0 = sq(square);
        assert!(d.validate(Variant::Duel, seat).unwrap_err().0.contains(
            &SetupProblem::OutsideZone {
                seat,
                square: sq(square)
            }
        ));
    }
}

/// Ruling (README, "Board"): each side sets up on its four nearest rows, 40 squares; the two
/// middle rows stay empty, so their 12 squares off the lakes may not be used in set-up. No piece
/// may stand on the eight lake squares either.
#[test]
fn lakes_and_middle_rows_are_not_for_set_up() {
    let middle: Vec<Square> = Square::all()
        .filter(|s| s.row() == 4 || s.row() == 5)
        .collect();
    assert_eq!(middle.len(), 20);
    assert_eq!(middle.iter().filter(|s| s.is_lake()).count(), 8);
    for variant in [Variant::Classic, Variant::Duel] {
        for seat in [RED, BLUE] {
            for &square in &middle {
                let d = Deployment {
                    placements: vec![(square, Rank::Scout)],
                };
                assert!(
                    d.validate(variant, seat)
                        .unwrap_err()
                        .0
                        .contains(&SetupProblem::OutsideZone { seat, square }),
                    "{variant} {seat} {square}"
                );
            }
        }
    }
}

/// `docs/design.md`: anything untrusted (a set-up, a layout file) is checked into a playable
/// state with every problem reported at once.
#[test]
fn every_set_up_problem_is_reported_at_once() {
    let mut setup = classic_setup();
    let red = &mut setup.deployments[RED];
    // The Spy from c1 to the middle of the board, and a seventh Bomb on a lake.
    let spy = red
        .placements
        .iter()
        .position(|&p| p == (sq("c1"), Rank::Spy))
        .expect("the Spy on c1");
    red.placements[spy].0 = sq("e5");
    red.place(sq("c5"), Rank::Bomb);
    // Blue: a Scout where the Flag was, and a second piece on a10.
    let blue = &mut setup.deployments[BLUE];
    for p in &mut blue.placements {
        if p.1 == Rank::Flag {
            p.1 = Rank::Scout;
        }
    }
    blue.place(sq("a10"), Rank::Bomb);

    let problems = Position::start(ISF, setup).unwrap_err();
    assert_eq!(
        problems.0,
        [
            SetupProblem::OutsideZone {
                seat: RED,
                square: sq("e5")
            },
            SetupProblem::OutsideZone {
                seat: RED,
                square: sq("c5")
            },
            SetupProblem::WrongCount {
                seat: RED,
                rank: Rank::Bomb,
                placed: 7,
                required: 6
            },
            SetupProblem::SquareTwice {
                seat: BLUE,
                square: sq("a10")
            },
            SetupProblem::WrongCount {
                seat: BLUE,
                rank: Rank::Flag,
                placed: 0,
                required: 1
            },
            SetupProblem::WrongCount {
                seat: BLUE,
                rank: Rank::Bomb,
                placed: 7,
                required: 6
            },
            SetupProblem::WrongCount {
                seat: BLUE,
                rank: Rank::Scout,
                placed: 9,
                required: 8
            },
        ]
    );
    assert_eq!(
        problems.to_string(),
        "7 problems: Red: e5 is outside Red's set-up rows; Red: c5 is outside Red's set-up rows; \
         Red: 7 Bombs (max 6); Blue: two pieces on a10; Blue: no Flag; Blue: 7 Bombs (max 6); \
         Blue: 9 Scouts (max 8)"
    );

    // Unreadable texts: both players' mistakes, each with its line.
    let red_text = RED_CLASSIC.replacen("M", "X", 1);
    let blue_text = BLUE_CLASSIC.replacen("5 6 6 6 6 7 7 7 8 8", "5 6 6", 1);
    let problems = Setup::parse(Variant::Classic, &red_text, &blue_text).unwrap_err();
    assert_eq!(problems.0.len(), 2, "{problems}");
    assert_eq!(problems.0[0].line, 5);
    assert!(problems.0[0].message.contains("'X' is not a rank"));
    assert_eq!(problems.0[1].line, 3);
    assert!(problems.0[1].message.contains("found 3"));
}

/// "The Redcoats will make the first move. I always say: “If red initiates, blue will not
/// capitulate!”"
#[test]
fn red_moves_first() {
    let mut pos = Position::start(ISF, classic_setup()).expect("playable");
    assert_eq!(pos.to_act(), Actor::Seat(RED));
    assert!(pos
        .legal_actions()
        .iter()
        .all(|m| pos.piece_at(m.from).map(|p| p.owner) == Some(RED)));
    assert_eq!(refused(&pos, "a7-a6"), Illegal::NotYours(sq("a7")));
    play(&mut pos, "a4-a5");
    assert_eq!(pos.to_act(), Actor::Seat(BLUE));
    assert_eq!(refused(&pos, "b4-b5"), Illegal::NotYours(sq("b4")));
    play(&mut pos, "a7-a6");
    assert_eq!(pos.to_act(), Actor::Seat(RED));

    // The same in Duel.
    let setup = Setup::parse(Variant::Duel, RED_DUEL, BLUE_DUEL).expect("parses");
    let duel = Position::start(Options::isf(Variant::Duel), setup).expect("playable");
    assert_eq!(duel.to_act(), Actor::Seat(RED));
}

// ---------------------------------------------------------------------------------------------
// Movement
// ---------------------------------------------------------------------------------------------

/// "One of us takes one step: forward, backward, to the left or to the right."
#[test]
fn a_piece_steps_one_square_orthogonally() {
    let mut pos = game("r5@e3");
    assert_eq!(targets(&pos, "e3"), squares("e4 e2 d3 f3"));
    assert_eq!(play(&mut pos, "e3-e4"), Outcome::Moved(mv("e3-e4")));
    assert_eq!(at(&pos, "e4"), Some(red(Rank::Lieutenant)));
    assert_eq!(at(&pos, "e3"), None);
}

/// "Be clear, we cannot march diagonally!" / "We do not march diagonally!" Nor attack so: "Is
/// there a Redcoat standing beside, behind or in front of me? Yes? Then I shall attack!"
#[test]
fn no_diagonal_moves() {
    let pos = game("r5@e3 r2@h2");
    for m in ["e3-f4", "e3-d2", "e3-f5", "h2-j4", "h2-e5"] {
        assert_eq!(refused(&pos, m), Illegal::NotStraight, "{m}");
    }
    // An enemy on the diagonal is out of reach, for a Scout too.
    let pos = game("r5@e3 r2@h2 b4@f4 b4@g3");
    for m in ["e3xf4", "h2xg3"] {
        assert_eq!(refused(&pos, m), Illegal::NotStraight, "{m}");
    }
}

/// "As you can see, it is very risky to attack the enemy. And therefore we should determine for
/// ourselves if we attack or not, when it is our turn." An attack is never forced: a piece beside
/// an enemy may still step away, and another piece may move instead.
#[test]
fn attacking_is_a_choice() {
    let mut pos = game("r5@e4 b9@e5 r4@h2");
    assert_eq!(targets(&pos, "e4"), squares("e5 e3 d4 f4"));
    assert!(pos.legal_actions().contains(&mv("h2-h3")));
    assert_eq!(play(&mut pos, "e4-d4"), Outcome::Moved(mv("e4-d4")));
    assert_eq!(at(&pos, "e5"), Some(blue(Rank::General)));
}

/// "Neither do we jump over troops" and "We will not swim or jump; we must march around."
#[test]
fn no_jumping_over_pieces() {
    let pos = game("r5@e3 r4@e4 r2@e2 b3@g2");
    // A stepping piece never goes two squares, over a piece or not.
    assert_eq!(refused(&pos, "e3-e5"), Illegal::TooFar);
    // A Scout stops at the first piece in its way, its own or the enemy's.
    assert_eq!(refused(&pos, "e2-e5"), Illegal::Blocked(sq("e3")));
    assert_eq!(refused(&pos, "e2-h2"), Illegal::Blocked(sq("g2")));
    assert_eq!(targets(&pos, "e2"), squares("e1 d2 c2 b2 a2 f2 g2"));
}

/// "Neither do we jump over troops or swim in the water." / "We will not swim or jump; we must
/// march around."
#[test]
fn lakes_are_impassable() {
    let pos = game("r5@d4 r2@c3 r2@a6");
    assert_eq!(targets(&pos, "d4"), squares("c4 e4 d3"));
    assert_eq!(refused(&pos, "d4-d5"), Illegal::Lake(sq("d5")));
    // A Scout may not cross a lake either: the lake, not a piece, is in its way.
    assert_eq!(refused(&pos, "c3-c7"), Illegal::Lake(sq("c5")));
    assert_eq!(refused(&pos, "c3-c6"), Illegal::Lake(sq("c6")));
    assert_eq!(refused(&pos, "a6-e6"), Illegal::Lake(sq("c6")));
    assert_eq!(
        targets(&pos, "c3"),
        squares("c4 c2 c1 b3 a3 d3 e3 f3 g3 h3 i3 j3")
    );
    assert_eq!(targets(&pos, "a6"), squares("b6 a7 a8 a9 a10 a5 a4 a3 a2"));
}

/// "We only take one step to a position where no one else is standing." (Unless it attacks:
/// "Is there a Redcoat standing beside, behind or in front of me? Yes? Then I shall attack!")
#[test]
fn only_to_an_empty_square_or_an_attack() {
    let mut pos = game("r5@e3 r4@e4 b4@f3");
    assert_eq!(refused(&pos, "e3-e4"), Illegal::OwnPiece(sq("e4")));
    assert_eq!(targets(&pos, "e3"), squares("d3 e2 f3"));
    assert!(matches!(play(&mut pos, "e3xf3"), Outcome::Battle(_)));
}

/// "Under NO circumstance must the flag and the bombs be moved... far too dangerous!" and
/// Bombs "stay in the same place throughout the battle".
#[test]
fn bombs_and_the_flag_never_move() {
    let mut pos = game("rB@e3 b5@e4");
    assert_eq!(refused(&pos, "e3-e2"), Illegal::Immovable(sq("e3")));
    assert_eq!(refused(&pos, "a1-a2"), Illegal::Immovable(sq("a1")));
    // Not even to attack.
    assert_eq!(refused(&pos, "e3xe4"), Illegal::Immovable(sq("e3")));
    assert!(targets(&pos, "e3").is_empty() && targets(&pos, "a1").is_empty());
    play_all(&mut pos, "b1-b2 e4xe3");
    assert_eq!(at(&pos, "e3"), Some(red(Rank::Bomb)));
    assert!(targets(&pos, "e3").is_empty());
    assert_eq!(
        Illegal::Immovable(sq("e3")).to_string(),
        "the piece on e3 cannot move (Bombs and the Flag stay put): move another"
    );
}

/// "Only the Scouts can move forward, backward or sideways for an unlimited number of spaces – as
/// long as there is no one in the way."
#[test]
fn a_scout_moves_any_distance_over_empty_squares() {
    let mut pos = game("r2@e2");
    assert_eq!(
        targets(&pos, "e2"),
        squares("e1 e3 e4 e5 e6 e7 e8 e9 e10 a2 b2 c2 d2 f2 g2 h2 i2 j2")
    );
    assert_eq!(play(&mut pos, "e2-e10"), Outcome::Moved(mv("e2-e10")));
    assert_eq!(at(&pos, "e10"), Some(red(Rank::Scout)));
}

/// "as long as there is no one in the way": a Scout's run ends before a piece of its own and at
/// (attacking) a piece of the enemy's.
#[test]
fn a_scout_is_blocked_by_pieces() {
    let pos = game("r2@e2 r4@e5 b4@h2");
    assert_eq!(
        targets(&pos, "e2"),
        squares("e1 e3 e4 a2 b2 c2 d2 f2 g2 h2")
    );
    assert_eq!(refused(&pos, "e2-e5"), Illegal::OwnPiece(sq("e5")));
    assert_eq!(refused(&pos, "e2-e7"), Illegal::Blocked(sq("e5")));
    assert_eq!(refused(&pos, "e2-i2"), Illegal::Blocked(sq("h2")));
}

/// "On his turn, a Scout can move across several empty spaces to attack an enemy directly." and
/// "Our Scouts can move or attack over an unlimited number of empty places on one turn."
#[test]
fn a_scout_may_attack_at_the_end_of_its_run() {
    let mut pos = game("r2@e2 bS@e9");
    let b = battle(play(&mut pos, "e2xe9"));
    assert_eq!(
        (b.attacker, b.defender, b.result),
        (red(Rank::Scout), blue(Rank::Spy), BattleResult::AttackerWon)
    );
    assert_eq!(at(&pos, "e9"), Some(red(Rank::Scout)));
    assert_eq!(at(&pos, "e2"), None);
}

/// "Only the Scouts can move ... for an unlimited number of spaces": every other piece takes
/// "one step".
#[test]
fn only_a_scout_moves_more_than_one_square() {
    let pos = game("rM@e3 r3@f7");
    for m in ["e3-e5", "e3-h3", "e3-e10", "f7-f9"] {
        assert_eq!(refused(&pos, m), Illegal::TooFar, "{m}");
    }
}

// ---------------------------------------------------------------------------------------------
// Battles
// ---------------------------------------------------------------------------------------------

/// "If I am lucky, the enemy will be lower in rank: a Sergeant (4), Miner (3), Scout (2) or Spy
/// (1). I have no problem defeating them! I remove them from the battlefield and take their
/// place."
#[test]
fn the_higher_rank_wins_and_takes_the_square() {
    let mut pos = game("r5@e4 b4@e5");
    let b = battle(play(&mut pos, "e4xe5"));
    assert_eq!(
        b,
        Battle {
            attacker: red(Rank::Lieutenant),
            defender: blue(Rank::Sergeant),
            mv: mv("e4-e5"),
            result: BattleResult::AttackerWon
        }
    );
    assert_eq!(at(&pos, "e5"), Some(red(Rank::Lieutenant)));
    assert_eq!(at(&pos, "e4"), None);
    assert_eq!(pos.alive(BLUE, Rank::Sergeant), 1);
    assert_eq!(
        b.to_string(),
        "Red Lieutenant attacks Blue Sergeant: the Lieutenant wins and takes e5"
    );
}

/// "However, if I’m unlucky, the enemy will be higher in rank: a Marshal (10), General (9),
/// Colonel (8), Major (7) or Captain (6). These will all defeat me easily and I will have to
/// leave the battlefield. My attacker stays put."
#[test]
fn the_lower_rank_loses_and_the_defender_stays_put() {
    let mut pos = game("r5@e4 b6@e5");
    let b = battle(play(&mut pos, "e4xe5"));
    assert_eq!(b.result, BattleResult::DefenderWon);
    assert_eq!(at(&pos, "e5"), Some(blue(Rank::Captain)));
    assert_eq!(at(&pos, "e4"), None);
    assert_eq!(pos.alive(RED, Rank::Lieutenant), 0);
    assert_eq!(
        b.to_string(),
        "Red Lieutenant attacks Blue Captain: the Captain holds e5, the Lieutenant is removed"
    );
}

/// "If the enemy is of the same rank, such as a Lieutenant in my case, we both have to leave the
/// field of battle."
#[test]
fn equal_ranks_are_both_removed() {
    let mut pos = game("r5@e4 b5@e5");
    let b = battle(play(&mut pos, "e4xe5"));
    assert_eq!(b.result, BattleResult::BothRemoved);
    assert_eq!((at(&pos, "e4"), at(&pos, "e5")), (None, None));
    assert_eq!(
        b.to_string(),
        "Red Lieutenant attacks Blue Lieutenant: equal ranks, both are removed"
    );
}

/// The ranks, "Marshal (10), General (9), Colonel (8), Major (7) or Captain (6)", "Lieutenant,
/// fifth in rank", "a Sergeant (4), Miner (3), Scout (2) or Spy (1)": between fighting ranks the
/// higher number wins and equal numbers both fall, whoever attacks (the Spy's one exception has
/// its own test).
#[test]
fn the_rank_ladder() {
    use Rank::*;
    let ladder = [
        (Marshal, 10),
        (General, 9),
        (Colonel, 8),
        (Major, 7),
        (Captain, 6),
        (Lieutenant, 5),
        (Sergeant, 4),
        (Miner, 3),
        (Scout, 2),
        (Spy, 1),
    ];
    for (a, na) in ladder {
        for (d, nd) in ladder {
            if (a, d) == (Spy, Marshal) {
                continue;
            }
            let expected = match na.cmp(&nd) {
                std::cmp::Ordering::Greater => BattleResult::AttackerWon,
                std::cmp::Ordering::Equal => BattleResult::BothRemoved,
                std::cmp::Ordering::Less => BattleResult::DefenderWon,
            };
            assert_eq!(Battle::resolve(a, d), expected, "{a} attacks {d}");
        }
    }
}

/// "If I tap a bomb... aaargh. I won’t survive! The blast sweeps me clean off the battlefield!"
/// and of the Marshal: "He can stumble upon a bomb just like the rest of us."
#[test]
fn a_bomb_destroys_any_attacker_but_a_miner_and_stays() {
    for rank in Rank::ALL.into_iter().filter(|r| r.is_movable()) {
        let expected = if rank == Rank::Miner {
            BattleResult::AttackerWon
        } else {
            BattleResult::DefenderWon
        };
        assert_eq!(Battle::resolve(rank, Rank::Bomb), expected, "{rank}");
    }
    let mut pos = game("rM@e4 bB@e5");
    let b = battle(play(&mut pos, "e4xe5"));
    assert_eq!(b.result, BattleResult::DefenderWon);
    assert_eq!(at(&pos, "e5"), Some(blue(Rank::Bomb)));
    assert_eq!(at(&pos, "e4"), None);
    assert_eq!(
        b.to_string(),
        "Red Marshal attacks Blue Bomb: the Bomb explodes, the Marshal is removed"
    );
}

/// Bombs "stay in the same place throughout the battle and can explode again and again every
/// time they are touched."
#[test]
fn a_bomb_explodes_again_and_again() {
    let mut pos = game("r5@e4 r6@f5 bB@e5");
    assert_eq!(
        battle(play(&mut pos, "e4xe5")).result,
        BattleResult::DefenderWon
    );
    play(&mut pos, "i10-i9");
    assert_eq!(
        battle(play(&mut pos, "f5xe5")).result,
        BattleResult::DefenderWon
    );
    assert_eq!(at(&pos, "e5"), Some(blue(Rank::Bomb)));
    assert_eq!(pos.alive(BLUE, Rank::Bomb), 1);
    assert_eq!(
        (
            pos.alive(RED, Rank::Lieutenant),
            pos.alive(RED, Rank::Captain)
        ),
        (0, 0)
    );
}

/// "Only a Miner can diffuse a bomb by tapping it. He will remove the bomb from the field of
/// battle and take its place."
#[test]
fn a_miner_defuses_a_bomb_and_takes_its_place() {
    let mut pos = game("r3@e4 bB@e5");
    let b = battle(play(&mut pos, "e4xe5"));
    assert_eq!(b.result, BattleResult::AttackerWon);
    assert_eq!(at(&pos, "e5"), Some(red(Rank::Miner)));
    assert_eq!(at(&pos, "e4"), None);
    assert_eq!(pos.alive(BLUE, Rank::Bomb), 0);
    assert_eq!(
        b.to_string(),
        "Red Miner attacks Blue Bomb: the Bomb is defused, the Miner takes e5"
    );
}

/// "We have hired a Spy... she has only one mission: to eliminate the enemy’s Marshal! She does
/// this by tapping him, as in any conventional attack."
#[test]
fn the_spy_defeats_the_marshal_when_she_attacks() {
    // Blue's Spy, so that both seats are seen attacking.
    let mut pos = exact(ISF, &format!("{CORNERS} rM@e4 bS@e5"), BLUE);
    let b = battle(play(&mut pos, "e5xe4"));
    assert_eq!(
        (b.attacker, b.defender, b.result),
        (
            blue(Rank::Spy),
            red(Rank::Marshal),
            BattleResult::AttackerWon
        )
    );
    assert_eq!(at(&pos, "e4"), Some(blue(Rank::Spy)));
    assert_eq!(pos.alive(RED, Rank::Marshal), 0);
    // Against anyone else she is the weakest rank.
    for rank in [Rank::General, Rank::Scout, Rank::Sergeant] {
        assert_eq!(Battle::resolve(Rank::Spy, rank), BattleResult::DefenderWon);
    }
}

/// "But if he (or anyone else) attacks her, our Mademoiselle Joséphine is lost."
#[test]
fn the_spy_loses_when_attacked() {
    let mut pos = game("rM@e4 bS@e5");
    let b = battle(play(&mut pos, "e4xe5"));
    assert_eq!(b.result, BattleResult::AttackerWon);
    assert_eq!(at(&pos, "e5"), Some(red(Rank::Marshal)));
    for rank in Rank::ALL.into_iter().filter(|r| r.is_movable()) {
        let expected = if rank == Rank::Spy {
            BattleResult::BothRemoved
        } else {
            BattleResult::AttackerWon
        };
        assert_eq!(Battle::resolve(rank, Rank::Spy), expected, "{rank}");
    }
}

/// "We will win the battle if: A. We capture our opponent’s flag" and "Did I reach the flag? We
/// Bluecoats are victorious!"
#[test]
fn capturing_the_flag_wins() {
    for rank in Rank::ALL.into_iter().filter(|r| r.is_movable()) {
        assert_eq!(
            Battle::resolve(rank, Rank::Flag),
            BattleResult::AttackerWon,
            "{rank}"
        );
    }
    let mut pos = game("r2@j2");
    let b = battle(play(&mut pos, "j2xj10"));
    assert_eq!(b.defender, blue(Rank::Flag));
    assert_eq!(
        b.to_string(),
        "Red Scout attacks Blue Flag: the Flag is captured on j10"
    );
    let won = Status::Won {
        winner: RED,
        reason: EndReason::FlagCaptured,
    };
    assert_eq!(pos.status(), won);
    assert_eq!(pos.view(BLUE).status(), won);
    assert_eq!(pos.to_act(), Actor::Nobody);
}

/// After "We capture our opponent’s flag" the battle is won: nobody moves again.
#[test]
fn no_move_is_allowed_after_the_flag_is_captured() {
    let mut pos = game("r2@j2");
    play(&mut pos, "j2xj10");
    assert!(pos.legal_actions().is_empty());
    for m in ["i10-i9", "j10-j9", "b1-b2", "e5-e6"] {
        assert_eq!(refused(&pos, m), Illegal::GameOver, "{m}");
    }
    assert_eq!(Illegal::GameOver.to_string(), "the game is over");
}

// ---------------------------------------------------------------------------------------------
// The end
// ---------------------------------------------------------------------------------------------

/// "We will win the battle if: ... B. Our opponent can no longer move any of their troops on
/// their next turn." (Ruling, README "End of the game": a player with no legal move or attack on
/// their turn loses.)
#[test]
fn a_player_who_cannot_move_loses() {
    let lost = |winner| Status::Won {
        winner,
        reason: EndReason::NoMovesLeft,
    };
    // Red takes Blue's last movable piece.
    let mut pos = exact(ISF, "rF@a1 r6@e4 bF@j10 bB@i10 bB@j9 b4@e5", RED);
    play(&mut pos, "e4xe5");
    assert_eq!(pos.status(), lost(RED));
    assert_eq!(pos.to_act(), Actor::Nobody);
    assert!(pos.legal_actions().is_empty());

    // Blue still has a Sergeant, but it is walled in by its own Bombs: no move, no attack.
    let pos = exact(ISF, "rF@a1 r6@e4 bF@a10 bB@i10 bB@j9 b4@j10", BLUE);
    assert_eq!(pos.status(), lost(RED));

    // "on their next turn": Red's last movable piece dies on a Bomb; Blue moves; then Red loses.
    let mut pos = exact(ISF, "rF@a1 r6@e4 bF@j10 bB@e5 b4@h9", RED);
    play(&mut pos, "e4xe5");
    assert_eq!(pos.status(), Status::Ongoing);
    play(&mut pos, "h9-h8");
    assert_eq!(pos.status(), lost(BLUE));
    assert_eq!(
        EndReason::NoMovesLeft.to_string(),
        "the other player cannot move"
    );
}

/// Once a player cannot move the game is over, so any move is refused as `GameOver` (not with a
/// reason that asks for a move nobody can make).
#[test]
fn no_move_is_allowed_once_a_player_cannot_move() {
    let mut pos = exact(ISF, "rF@a1 r6@e4 bF@j10 bB@i10 bB@j9 b4@e5", RED);
    play(&mut pos, "e4xe5");
    for m in ["j9-j8", "j10-i9", "e5-e6", "e6-e7"] {
        assert_eq!(refused(&pos, m), Illegal::GameOver, "{m}");
    }
}

/// Ruling (README, "End of the game"; as the ISF rules have it): a player blocked only by the
/// two-squares or more-squares rule must move another piece, and with none, loses.
#[test]
fn a_player_stopped_only_by_the_two_squares_rule_with_no_other_piece_loses() {
    // Red's Captain can only shuttle a1-a2 between its own Bombs.
    let mut pos = exact(ISF, "rF@e1 r6@a1 rB@b1 rB@b2 rB@a3 bF@j10 b2@e8", RED);
    let moves = "a1-a2 e8-f8 a2-a1 f8-g8 a1-a2 g8-e8";
    play_all(&mut pos, moves);
    assert!(pos.legal_actions().is_empty());
    assert_eq!(refused(&pos, "a2-a1"), Illegal::GameOver);
    assert_eq!(
        pos.status(),
        Status::Won {
            winner: BLUE,
            reason: EndReason::NoMovesLeft
        }
    );
    // Only the two-squares rule stops it: without the rule the shuttle goes on.
    let plain = Options::plain(Variant::Classic);
    let mut pos = exact(plain, "rF@e1 r6@a1 rB@b1 rB@b2 rB@a3 bF@j10 b2@e8", RED);
    play_all(&mut pos, moves);
    assert_eq!(targets(&pos, "a2"), squares("a1"));
    assert_eq!(pos.status(), Status::Ongoing);
}

/// Ruling (README, "End of the game"): a player with no legal move loses; if neither can move
/// (say the last two movable pieces are of equal rank and destroy each other), it is a draw.
#[test]
fn neither_player_can_move_is_a_draw() {
    let mut pos = exact(ISF, "rF@a1 rB@b1 r6@e4 bF@j10 b6@e5", RED);
    assert_eq!(
        battle(play(&mut pos, "e4xe5")).result,
        BattleResult::BothRemoved
    );
    let drawn = Status::Drawn {
        reason: EndReason::NeitherCanMove,
    };
    assert_eq!(pos.status(), drawn);
    assert_eq!(pos.view(RED).status(), drawn);
    assert_eq!(pos.to_act(), Actor::Nobody);
    assert_eq!(refused(&pos, "j10-j9"), Illegal::GameOver);
    assert_eq!(
        EndReason::NeitherCanMove.to_string(),
        "neither player can move"
    );

    // Only Flags and Bombs on the board: a draw from the start.
    let pos = exact(ISF, "rF@a1 rB@b1 bF@j10 bB@i10", RED);
    assert_eq!(pos.status(), drawn);
}

// ---------------------------------------------------------------------------------------------
// Two-squares rule
// ---------------------------------------------------------------------------------------------

/// The code of conduct (its lines are interleaved in our copy of the rulebook; read back in
/// order): "What’s more, I always tell my men that they cannot travel more than three times back
/// and forth between the same two places." and "For example, we do not chase endlessly after the
/// same enemy once he has decided to run away." Both are rules of the book, not only of the ISF:
/// a game started with the default options keeps both, with the limit the book gives (three),
/// in Duel too ("All rules are the same as in Stratego").
#[test]
fn the_rulebook_forbids_shuttling_and_endless_chases_by_default() {
    for (variant, options) in [
        (Variant::Classic, Options::default()),
        (Variant::Classic, Options::isf(Variant::Classic)),
        (Variant::Duel, Options::isf(Variant::Duel)),
    ] {
        assert_eq!(options.variant, variant);
        assert_eq!(options.two_squares, Some(3), "{variant}");
        assert!(options.more_squares, "{variant}");
    }
    // Played with the default options: three moves between e3 and e4, not a fourth ...
    let mut pos = exact(Options::default(), &format!("{CORNERS} r5@e3"), RED);
    play_all(&mut pos, "e3-e4 i10-i9 e4-e3 i9-i8 e3-e4 i8-i7");
    assert_eq!(refused(&pos, "e4-e3"), Illegal::TwoSquares(3));
    // ... and no endless chase round the ring.
    let mut pos = exact(Options::default(), &format!("{CORNERS} {RING_CHASE}"), BLUE);
    chase_round_the_ring(&mut pos, 8);
    play(&mut pos, "f2-g2");
    assert_eq!(refused(&pos, "e2-f2"), Illegal::MoreSquares);
}

/// "they cannot travel more than three times back and forth between the same two places" (the
/// code of conduct). Ruling (README, "Two-squares rule", ISF article 10) on how to count: no more
/// than three moves in a row between the same two squares, attacks included: moves 1-3 are
/// legal, the 4th is not.
#[test]
fn two_squares_rule_allows_three_moves_and_refuses_the_fourth() {
    let mut pos = game("r5@e3");
    play_all(&mut pos, "e3-e4 i10-i9 e4-e3 i9-i8 e3-e4 i8-i7");
    assert_eq!(refused(&pos, "e4-e3"), Illegal::TwoSquares(3));
    assert!(!targets(&pos, "e4").contains(&sq("e3")));
    assert_eq!(
        Illegal::TwoSquares(3).to_string(),
        "two-squares rule: no more than 3 moves in a row between the same two squares; \
         move another piece or to another square"
    );
    // The same piece may go anywhere else.
    assert_eq!(targets(&pos, "e4"), squares("e5 d4 f4"));
    play(&mut pos, "e4-e5");
}

/// Ruling (README): the two-squares rule is an option, and its limit a number (ISF: 3; some
/// editions allow five).
#[test]
fn two_squares_rule_is_switchable() {
    let shuttle = "e3-e4 i10-i9 e4-e3 i9-i10 e3-e4 i10-i9 e4-e3 i9-i10 e3-e4 i10-i9 e4-e3";
    let plain = Options::plain(Variant::Classic);
    assert_eq!(plain.two_squares, None);
    let mut pos = exact(plain, &format!("{CORNERS} r5@e3"), RED);
    play_all(&mut pos, shuttle);

    let five = Options {
        two_squares: Some(5),
        ..ISF
    };
    let mut pos = exact(five, &format!("{CORNERS} r5@e3 b5@j9"), RED);
    // Blue waits with two pieces in turn, so Blue's own shuttles stay short.
    play_all(
        &mut pos,
        "e3-e4 i10-i9 e4-e3 j9-j8 e3-e4 i9-i10 e4-e3 j8-j9 e3-e4 i10-i9",
    );
    assert_eq!(refused(&pos, "e4-e3"), Illegal::TwoSquares(5));
}

/// The limit is on moves "in a row" (README, "Two-squares rule"; ISF 10.1): a move with another
/// piece breaks the run. (The opponent's moves, "whatever the opponent does",
/// do not.)
#[test]
fn moving_another_piece_breaks_the_run() {
    let mut pos = game("r5@e3 r4@h2");
    play_all(&mut pos, "e3-e4 i10-i9 e4-e3 i9-i8 e3-e4 i8-i7");
    assert_eq!(refused(&pos, "e4-e3"), Illegal::TwoSquares(3));
    play_all(&mut pos, "h2-h3 i7-i6");
    play_all(&mut pos, "e4-e3 i6-i7 e3-e4 i7-i8 e4-e3 i8-i9");
    assert_eq!(refused(&pos, "e3-e4"), Illegal::TwoSquares(3));
}

/// ISF 10.1, in our words: a move to an empty square and an attack count the same, so once the
/// limit is reached even attacking a piece that has stepped onto the target square is illegal
/// if it would break the rule.
#[test]
fn an_attack_counts_toward_the_two_squares_rule() {
    // A Blue piece steps onto the square Red's shuttle would return to.
    let mut pos = game("r5@e3 b4@d3");
    play_all(&mut pos, "e3-e4 i10-i9 e4-e3 i9-i10 e3-e4 d3-e3");
    assert_eq!(refused(&pos, "e4xe3"), Illegal::TwoSquares(3));

    // An attack is one of the three moves.
    let mut pos = game("r5@e3 b2@e4");
    play_all(&mut pos, "e3xe4 i10-i9 e4-e3 i9-i8 e3-e4 i8-i7");
    assert_eq!(refused(&pos, "e4-e3"), Illegal::TwoSquares(3));
}

// ---------------------------------------------------------------------------------------------
// More-squares rule
// ---------------------------------------------------------------------------------------------

/// Red's Marshal chases Blue's Captain around Red's Bomb on f3, one step behind it. Blue moves
/// first; the eight squares round f3 in order are e2 f2 g2 g3 g4 f4 e4 e3.
const RING_CHASE: &str = "rM@e2 rB@f3 b6@f2";
const RING: [&str; 8] = ["e2", "f2", "g2", "g3", "g4", "f4", "e4", "e3"];

/// Plays `red_moves` turns of the chase: Blue flees one square round the ring, Red follows onto
/// the square Blue left. Every eight turns the pieces are back where they started.
fn chase_round_the_ring(pos: &mut Position, red_moves: usize) {
    for k in 0..red_moves {
        let blue_from = RING[(k + 1) % 8];
        let blue_to = RING[(k + 2) % 8];
        play(pos, &format!("{blue_from}-{blue_to}"));
        play(pos, &format!("{}-{blue_from}", RING[k % 8]));
    }
}

/// "we do not chase endlessly after the same enemy once he has decided to run away" (the code of
/// conduct). Ruling (README, "More-squares rule", ISF article 11) on what that forbids: a
/// continuous chaser may not make a chasing move that would recreate a position already seen
/// during the chase.
#[test]
fn a_chaser_may_not_recreate_a_position_of_the_chase() {
    let mut pos = exact(ISF, &format!("{CORNERS} {RING_CHASE}"), BLUE);
    // Eight chasing moves bring Red round to where it started; none recreates a position of the
    // chase (the start came before the chase).
    chase_round_the_ring(&mut pos, 8);
    play(&mut pos, "f2-g2");
    // The ninth would recreate the position after the first.
    assert_eq!(refused(&pos, "e2-f2"), Illegal::MoreSquares);
    assert_eq!(
        Illegal::MoreSquares.to_string(),
        "more-squares rule: this chasing move repeats a position of the chase; make another move"
    );
    // A move that does not chase (it does not end next to the piece that just moved) is fine.
    for m in ["e2-d2", "e2-e3", "b1-b2"] {
        assert_eq!(pos.check(&mv(m)), Ok(()), "{m}");
    }
}

/// Ruling (README): both repetition rules are options.
#[test]
fn the_more_squares_rule_is_switchable() {
    for options in [
        Options::plain(Variant::Classic),
        Options {
            more_squares: false,
            ..ISF
        },
    ] {
        let mut pos = exact(options, &format!("{CORNERS} {RING_CHASE}"), BLUE);
        chase_round_the_ring(&mut pos, 17);
    }
}

/// ISF 11, in our words: the chased side may repeat positions freely, only the chaser is
/// restricted, and positions may repeat as long as the chase is not continuous.
#[test]
fn a_non_chasing_move_is_unaffected_by_the_more_squares_rule() {
    // Both sides shuttle far apart (two-squares off): every position comes back, nobody chases.
    let options = Options {
        two_squares: None,
        ..ISF
    };
    let mut pos = exact(options, &format!("{CORNERS} r4@e2 b4@e9"), RED);
    for _ in 0..4 {
        play_all(&mut pos, "e2-e3 e9-e8 e3-e2 e8-e9");
    }
    // The chased Captain comes back to positions it made before without hindrance: its 9th move
    // round the ring, f2-g2, recreates the position its 1st made.
    let mut pos = exact(ISF, &format!("{CORNERS} {RING_CHASE}"), BLUE);
    chase_round_the_ring(&mut pos, 8);
    play(&mut pos, "f2-g2");
}

// ---------------------------------------------------------------------------------------------
// Hidden information
// ---------------------------------------------------------------------------------------------

/// "The enemy cannot see who we are and neither can we see their formation because our men are
/// positioned with their backs to each other!"
#[test]
fn a_view_never_shows_an_unrevealed_enemy_rank() {
    let pos = Position::start(ISF, classic_setup()).expect("playable");
    for seat in [RED, BLUE] {
        let view = pos.view(seat);
        for (s, seen) in view.squares() {
            let expected = match pos.piece_at(s) {
                None if s.is_lake() => Seen::Lake,
                None => Seen::Empty,
                Some(p) if p.owner == seat => Seen::Own {
                    rank: p.rank,
                    revealed: false,
                },
                Some(_) => Seen::Enemy(EnemyPiece {
                    rank: None,
                    has_moved: false,
                }),
            };
            assert_eq!(seen, expected, "{s}");
        }
        let enemy_tag = if seat == RED { "b?" } else { "r?" };
        assert_eq!(view.diagram().matches(enemy_tag).count(), 40);
    }
}

/// "I shall tap the enemy and call out my rank": after a battle both ranks are known, and the
/// piece left standing stays known to its opponent.
#[test]
fn the_survivor_of_a_battle_is_revealed() {
    // The attacker wins.
    let mut pos = game("r5@e4 b4@e5");
    let lost_before = pos.view(RED).lost(BLUE, Rank::Sergeant);
    assert_eq!(enemy_seen(&pos, BLUE, "e4").rank, None);
    play(&mut pos, "e4xe5");
    assert_eq!(
        enemy_seen(&pos, BLUE, "e5"),
        EnemyPiece {
            rank: Some(Rank::Lieutenant),
            has_moved: true
        }
    );
    assert_eq!(
        pos.view(RED).at(sq("e5")),
        Seen::Own {
            rank: Rank::Lieutenant,
            revealed: true
        }
    );
    assert_eq!(pos.view(RED).lost(BLUE, Rank::Sergeant), lost_before + 1);
    // It stays known after it moves on.
    play_all(&mut pos, "i10-i9 e5-e6");
    assert_eq!(enemy_seen(&pos, BLUE, "e6").rank, Some(Rank::Lieutenant));

    // The defender wins: it stays where it is, known, and still has not moved.
    let mut pos = game("r5@e4 b6@e5");
    play(&mut pos, "e4xe5");
    assert_eq!(
        enemy_seen(&pos, RED, "e5"),
        EnemyPiece {
            rank: Some(Rank::Captain),
            has_moved: false
        }
    );
    assert_eq!(
        pos.view(BLUE).at(sq("e5")),
        Seen::Own {
            rank: Rank::Captain,
            revealed: true
        }
    );
}

/// "The enemy will have no difficulty spotting our Scouts right away." Only a Scout moves more
/// than one square, so one that does is known to be a Scout.
#[test]
fn a_scout_that_moves_more_than_one_square_is_revealed() {
    let mut pos = game("r2@e2");
    play(&mut pos, "e2-e6");
    assert_eq!(
        enemy_seen(&pos, BLUE, "e6"),
        EnemyPiece {
            rank: Some(Rank::Scout),
            has_moved: true
        }
    );
    assert!(pos.view(BLUE).diagram().contains("r2"));
}

/// "To confuse the enemy, our men can choose to only take one step at a time!" A Scout that steps
/// one square is seen only to have moved (so it is no Bomb or Flag), like any other piece.
#[test]
fn a_scout_that_steps_one_square_stays_hidden() {
    let mut pos = game("r2@e2 r5@f2");
    play_all(&mut pos, "e2-e3 i10-i9 f2-f3");
    for s in ["e3", "f3"] {
        assert_eq!(
            enemy_seen(&pos, BLUE, s),
            EnemyPiece {
                rank: None,
                has_moved: true
            },
            "{s}"
        );
    }
    assert_eq!(pos.view(BLUE).diagram().matches("r*").count(), 2);
}

/// The views against an independent model over random games: an enemy rank is shown exactly
/// when a battle or a Scout's long move revealed it ("I shall tap the enemy and call out my
/// rank"; "The enemy will have no difficulty spotting our Scouts right away"), and `has_moved`
/// exactly when the piece has moved. `check` and `legal_actions` agree on every position.
#[test]
fn views_reveal_exactly_what_the_rules_reveal() {
    for seed in 0..3u64 {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let options = if seed == 2 {
            Options::isf(Variant::Duel)
        } else {
            ISF
        };
        let setup = Setup::shuffled(options.variant, |n| rng.random_range(0..n));
        let mut pos = Position::start(options, setup).expect("a shuffled set-up is valid");
        let mut known: BTreeSet<Square> = BTreeSet::new();
        let mut moved: BTreeSet<Square> = BTreeSet::new();
        for _ in 0..150 {
            assert_agree(&pos);
            let legal = pos.legal_actions();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.random_range(0..legal.len())];
            let mover = pos.piece_at(m.from).expect("a piece moves");
            let defender = pos.piece_at(m.to);
            let was_known = known.remove(&m.from);
            moved.remove(&m.from);
            match pos.play(&m).expect("a legal move plays") {
                Outcome::Moved(_) => {
                    assert_eq!(defender, None);
                    let far = !m.from.is_adjacent(m.to);
                    if far {
                        assert_eq!(mover.rank, Rank::Scout);
                    }
                    if was_known || far {
                        known.insert(m.to);
                    }
                    moved.insert(m.to);
                }
                Outcome::Battle(b) => {
                    assert_eq!((b.attacker, Some(b.defender)), (mover, defender));
                    match b.result {
                        BattleResult::AttackerWon => {
                            known.insert(m.to);
                            moved.insert(m.to);
                        }
                        BattleResult::DefenderWon => {
                            known.insert(m.to);
                        }
                        BattleResult::BothRemoved => {
                            known.remove(&m.to);
                            moved.remove(&m.to);
                        }
                    }
                }
            }
            for seat in [RED, BLUE] {
                let view = pos.view(seat);
                for (s, seen) in view.squares() {
                    match (pos.piece_at(s), seen) {
                        (None, Seen::Empty | Seen::Lake) => {}
                        (Some(p), Seen::Own { rank, revealed }) if p.owner == seat => {
                            assert_eq!((rank, revealed), (p.rank, known.contains(&s)), "{s}");
                        }
                        (Some(p), Seen::Enemy(e)) if p.owner != seat => {
                            assert_eq!(
                                e,
                                EnemyPiece {
                                    rank: known.contains(&s).then_some(p.rank),
                                    has_moved: moved.contains(&s),
                                },
                                "{s} as {seat} sees it"
                            );
                        }
                        (truth, seen) => panic!("{s}: {truth:?} seen as {seen:?}"),
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Illegal moves: typed reasons whose message says how to fix them
// ---------------------------------------------------------------------------------------------

/// `docs/design.md`: a wrong move is caught at once and the fix is said plainly. Each refusal has a
/// typed reason, and its message names the square and what to do instead.
#[test]
fn every_illegal_move_has_a_typed_reason_and_says_how_to_fix_it() {
    let pos = game("r5@e3 rB@e2 r5@d4 r2@a3 b4@a7");
    let cases = [
        (
            "e6-e7",
            Illegal::Empty(sq("e6")),
            "there is no piece on e6: move one of your pieces",
        ),
        (
            "i10-i9",
            Illegal::NotYours(sq("i10")),
            "the piece on i10 is not yours: move one of your own",
        ),
        (
            "e2-f2",
            Illegal::Immovable(sq("e2")),
            "the piece on e2 cannot move (Bombs and the Flag stay put): move another",
        ),
        (
            "e3-e3",
            Illegal::SameSquare(sq("e3")),
            "the piece on e3 must move to another square",
        ),
        (
            "d4-d5",
            Illegal::Lake(sq("d5")),
            "d5 is a lake: go around it",
        ),
        (
            "e3-e2",
            Illegal::OwnPiece(sq("e2")),
            "your own piece stands on e2: move to an empty square or onto an enemy",
        ),
        (
            "e3-f4",
            Illegal::NotStraight,
            "pieces move straight, never diagonally",
        ),
        (
            "e3-e5",
            Illegal::TooFar,
            "only a Scout moves more than one square: move one square",
        ),
        (
            "a3-a9",
            Illegal::Blocked(sq("a7")),
            "a7 is in the way: pieces never jump",
        ),
    ];
    for (m, reason, message) in cases {
        assert_eq!(refused(&pos, m), reason, "{m}");
        assert_eq!(reason.to_string(), message, "{m}");
    }
}
