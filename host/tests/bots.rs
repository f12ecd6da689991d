//! The bot: always legal, and blind to everything its seat's view does not show.

use boards::game::replay;
use boards::stratego::{Move, Options, Position, Rank, Seen, Setup, Square, Variant, RED};
use boards::{BySeat, Game, Seat};
use host::bots::Bot;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn sq(s: &str) -> Square {
    Square::parse(s).expect("a square")
}

fn shuffled(variant: Variant, seed: u64) -> Setup {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    Setup::shuffled(variant, |n| rng.random_range(0..n))
}

/// Plays up to `limit` moves between two bots, checking every choice; returns the moves.
fn play_checked(options: Options, setup: Setup, seed: u64, limit: u32) -> Vec<Move> {
    let mut position = Position::start(options, setup).expect("a valid set-up");
    let mut bots = BySeat::from_fn(|s| Bot::new(seed * 2 + s.index() as u64));
    let mut moves = Vec::new();
    while position.status().is_ongoing() && position.ply() < limit {
        let seat = position.to_move();
        let legal = position.legal_moves();
        let mv = bots[seat]
            .choose(&position.view(seat), &legal)
            .expect("a move while the game goes on");
        assert!(legal.contains(&mv), "{mv} is not in the legal list");
        assert_eq!(position.check(&mv), Ok(()), "{mv} was refused");
        position.play_unchecked(&mv);
        moves.push(mv);
    }
    moves
}

#[test]
fn the_bot_only_picks_legal_moves() {
    for variant in [Variant::Classic, Variant::Duel] {
        for options in [Options::isf(variant), Options::plain(variant)] {
            for seed in 0..8 {
                play_checked(options, shuffled(variant, seed), seed, 600);
            }
        }
    }
}

#[test]
fn no_legal_move_means_no_choice() {
    let position =
        Position::start(Options::default(), shuffled(Variant::Classic, 0)).expect("a valid set-up");
    assert_eq!(Bot::new(0).choose(&position.view(RED), &[]), None);
}

/// A board from tokens like `("e4", "rM")`; everything else empty.
fn board(pieces: &[(&str, &str)]) -> String {
    let mut grid = [[".."; 10]; 10];
    for s in Square::all().filter(|s| s.is_lake()) {
        grid[usize::from(s.row())][usize::from(s.col())] = "~~";
    }
    for &(s, token) in pieces {
        let s = sq(s);
        grid[usize::from(s.row())][usize::from(s.col())] = token;
    }
    grid.iter()
        .rev()
        .map(|row| row.join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

fn position(pieces: &[(&str, &str)]) -> Position {
    Position::from_diagram(Options::isf(Variant::Classic), &board(pieces), RED)
        .expect("a valid diagram")
}

#[test]
fn hidden_enemy_ranks_do_not_change_the_choice() {
    // Red's pieces face unknown Blue pieces; the twins differ only in what those really are.
    let red = [
        ("e4", "rM"),
        ("f4", "r3"),
        ("a4", "r2"),
        ("b4", "r4"),
        ("j4", "r9"),
        ("a1", "rF"),
        ("b1", "rB"),
    ];
    let blue_a = [
        ("e5", "b2"),
        ("f5", "bB"),
        ("a5", "bF"),
        ("b5", "bS"),
        ("j5", "bM"),
        ("a10", "b3"),
    ];
    // The same ranks in other places: the lost-piece counts, which are public, agree.
    let blue_b = [
        ("e5", "bB"),
        ("f5", "bM"),
        ("a5", "b3"),
        ("b5", "bF"),
        ("j5", "b2"),
        ("a10", "bS"),
    ];
    let a = position(&[&red[..], &blue_a[..]].concat());
    let b = position(&[&red[..], &blue_b[..]].concat());
    assert_ne!(a, b);
    assert_eq!(a.view(RED), b.view(RED), "the twins look the same to Red");
    assert_eq!(a.legal_moves().to_vec(), b.legal_moves().to_vec());
    for seed in 0..200 {
        let pick = |p: &Position| Bot::new(seed).choose(&p.view(RED), &p.legal_moves());
        assert_eq!(pick(&a), pick(&b), "seed {seed}");
    }
}

/// `setup` with the ranks of `seat`'s pieces on `squares` shuffled among those squares.
fn permute(setup: &Setup, seat: Seat, squares: &[Square], rng: &mut Pcg64Mcg) -> Setup {
    let mut twin = setup.clone();
    let placements = &mut twin.deployments[seat].placements;
    let slots: Vec<usize> = (0..placements.len())
        .filter(|&i| squares.contains(&placements[i].0))
        .collect();
    let mut ranks: Vec<Rank> = slots.iter().map(|&i| placements[i].1).collect();
    for i in (1..ranks.len()).rev() {
        ranks.swap(i, rng.random_range(0..=i));
    }
    for (&i, r) in slots.iter().zip(ranks) {
        placements[i].1 = r;
    }
    twin
}

#[test]
fn mid_game_twins_get_the_same_move() {
    // Play a game, stop at several points, and build a twin game whose unrevealed, unmoved enemy
    // pieces (the Flag and Bombs among them) are shuffled: the same moves replay, the seat to
    // move sees the same view, and the bot must choose the same move.
    let mut differed = 0;
    for variant in [Variant::Classic, Variant::Duel] {
        let options = Options::isf(variant);
        for seed in 0..6 {
            let setup = shuffled(variant, 100 + seed);
            let moves = play_checked(options, setup.clone(), seed, 400);
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            for stop in (0..moves.len()).step_by(7) {
                let game = replay::<Position>(options, setup.clone(), &moves[..stop])
                    .expect("the moves replay");
                if !game.status().is_ongoing() {
                    continue;
                }
                let seat = game.to_move();
                let view = game.view(seat);
                let hidden: Vec<Square> = view
                    .squares()
                    .filter(|(_, seen)| {
                        matches!(seen, Seen::Enemy(e) if e.rank.is_none() && !e.has_moved)
                    })
                    .map(|(s, _)| s)
                    .collect();
                let twin_setup = permute(&setup, seat.opponent(), &hidden, &mut rng);
                let twin = replay::<Position>(options, twin_setup, &moves[..stop])
                    .expect("the twin replays the same moves");
                assert_eq!(twin.view(seat), view, "the twin looks the same");
                if twin != game {
                    differed += 1;
                }
                let legal = game.legal_moves();
                assert_eq!(twin.legal_moves().to_vec(), legal.to_vec());
                let bot_seed = seed * 31 + stop as u64;
                let here = Bot::new(bot_seed).choose(&view, &legal);
                let there = Bot::new(bot_seed).choose(&twin.view(seat), &twin.legal_moves());
                assert_eq!(here, there, "seed {seed}, move {stop}");
            }
        }
    }
    assert!(differed > 20, "the twins really hid different ranks");
}

#[test]
fn the_bot_takes_a_revealed_weaker_piece() {
    // A Blue Scout dashes from e9 to e5, revealing itself next to Red's Marshal.
    let mut p = position(&[
        ("e4", "rM"),
        ("a2", "r3"),
        ("a1", "rF"),
        ("e9", "b2"),
        ("j10", "bF"),
        ("j9", "b5"),
    ]);
    p.play(&Move::new(sq("a2"), sq("a3"))).expect("legal");
    p.play(&Move::new(sq("e9"), sq("e5"))).expect("legal");
    for seed in 0..50 {
        let mv = Bot::new(seed).choose(&p.view(RED), &p.legal_moves());
        assert_eq!(mv, Some(Move::new(sq("e4"), sq("e5"))), "seed {seed}");
    }
}

#[test]
fn the_bot_does_not_attack_a_revealed_stronger_piece() {
    // Blue's General takes a Red Scout on e5 and stands revealed next to Red's Lieutenant.
    let mut p = position(&[
        ("e4", "r5"),
        ("e5", "r2"),
        ("a2", "r3"),
        ("a1", "rF"),
        ("e6", "b9"),
        ("j10", "bF"),
    ]);
    p.play(&Move::new(sq("a2"), sq("a3"))).expect("legal");
    p.play(&Move::new(sq("e6"), sq("e5")))
        .expect("the General attacks");
    let general = boards::stratego::EnemyPiece {
        rank: Some(Rank::General),
        has_moved: true,
    };
    assert_eq!(p.view(RED).at(sq("e5")), Seen::Enemy(general));
    for seed in 0..50 {
        let mv = Bot::new(seed)
            .choose(&p.view(RED), &p.legal_moves())
            .expect("a move");
        assert_ne!(
            mv.to,
            sq("e5"),
            "seed {seed}: attacked the revealed General"
        );
        assert_eq!(
            mv.from,
            sq("e4"),
            "seed {seed}: the threatened Lieutenant steps away"
        );
    }
}
