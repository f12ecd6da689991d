//! The LEDs show only what the OLED may show: over random Stratego Duel games, two tables whose
//! set-ups differ only in the hidden ranks of two Red pieces, played with the same hands, light
//! the same LEDs (decoded from the SPI bitstream the chain would get) at every screen, until a
//! battle would reveal one of the two ranks.
//!
//! The hands include refusals a hidden rank could tell apart (one of the swapped pieces moved
//! two squares: the same "not a legal move" for every rank, and the same LED to put it back on),
//! and every battle between the other pieces (the hand steps light).

use std::collections::BTreeMap;

use boards::stratego::{BattleResult, Move, Rank, Setup, Square, Variant, BLUE, RED};
use boards::Game;
use firmware::drivers::leds::{Brightness, Rgb};
use firmware::guidance::{LedGuidance, LedMap, LedOrder, Meaning, Palette};
use firmware::referee::{Decision, RefereeConfig};
use firmware::sensing::{Button, Millis};
use host::leds::RecordingSink;
use host::sim::{square_place, SimTable, Told};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

const GAMES: u64 = 6;
const MAX_PLIES: u32 = 60;

/// A Duel table with `setup` set out, in play.
fn table_with(setup: &Setup) -> SimTable {
    let mut table = SimTable::new(RefereeConfig::default(), 3, false).expect("table");
    table.press(Button::Die);
    table.press(Button::Ok);
    table.press(Button::Ok);
    for seat in [RED, BLUE] {
        for rank in Rank::ALL
            .iter()
            .rev()
            .filter(|r| Variant::Duel.count(**r) > 0)
        {
            let places: Vec<_> = setup.deployments[seat]
                .placements
                .iter()
                .filter(|(_, r)| r == rank)
                .map(|(s, _)| (square_place(*s), None))
                .collect();
            table.place_many(&places).expect("free squares");
            table.press(Button::Ok);
        }
    }
    assert!(table.referee().in_play(), "{}", table.screen_text());
    table
}

/// One table and what its LEDs showed, screen by screen: the firmware's guidance, as the
/// service runs it, sending to a chain that records what it reads off the wire.
struct Watched {
    table: SimTable,
    guidance: LedGuidance,
    chain: RecordingSink,
    shown: Vec<BTreeMap<usize, Rgb>>,
}

impl Watched {
    fn new(setup: &Setup) -> Watched {
        let chain = RecordingSink::new();
        let table = table_with(setup);
        let map = LedMap::new(table.pipeline().sensing().layout(), LedOrder::Serpentine);
        let mut watched = Watched {
            table,
            guidance: LedGuidance::new(Box::new(chain.clone()), map),
            chain,
            shown: Vec::new(),
        };
        watched.look();
        watched
    }

    /// Feeds the screens shown since the last look to the guidance, and records what the chain
    /// shows for each: the colours decoded back from the SPI frame.
    fn look(&mut self) {
        for told in self.table.take_told() {
            if let Told::Screen(screen) = told {
                // The recorder never fails, so no retry waits: any time will do.
                if let Some(sent) = self.guidance.update(&screen, true, Millis(0)) {
                    sent.expect("the recorder takes every frame");
                }
                self.shown.push(
                    self.chain
                        .colours()
                        .into_iter()
                        .enumerate()
                        .filter(|(_, c)| !c.is_off())
                        .collect(),
                );
            }
        }
    }
}

/// Plays `mv` with the hands on `w`, as the demo does; returns the battle's result if any.
fn play(w: &mut Watched, mv: Move, attack: bool, hold: u64) -> Option<BattleResult> {
    let from = square_place(mv.from);
    let to = square_place(mv.to);
    w.table.lift(from).expect("lift");
    w.look();
    let result = if attack {
        let mut decided = w.table.lift(to).expect("lift the defender");
        decided.extend(w.table.wait(hold));
        let battle = decided.iter().find_map(|d| match d {
            Decision::Battle(b) => Some(b.result),
            _ => None,
        });
        w.look();
        if battle.is_some_and(|r| r != BattleResult::BothRemoved) {
            w.table.place(to, None).expect("place the winner");
        }
        battle
    } else {
        w.table.place(to, None).expect("place");
        None
    };
    w.look();
    result
}

/// A free square two steps straight from `from`, if any (never legal for a non-Scout).
fn two_away(position: &boards::stratego::Position, from: Square) -> Option<Square> {
    [(0i8, 2i8), (0, -2), (2, 0), (-2, 0)]
        .iter()
        .find_map(|(dc, dr)| {
            let col = u8::try_from(i16::from(from.col()) + i16::from(*dc)).ok()?;
            let row = u8::try_from(i16::from(from.row()) + i16::from(*dr)).ok()?;
            let mid = Square::new(
                u8::try_from(i16::from(from.col()) + i16::from(*dc / 2)).ok()?,
                u8::try_from(i16::from(from.row()) + i16::from(*dr / 2)).ok()?,
            )?;
            let to = Square::new(col, row)?;
            (!to.is_lake()
                && !mid.is_lake()
                && position.piece_at(to).is_none()
                && position.piece_at(mid).is_none())
            .then_some(to)
        })
}

#[test]
fn the_leds_never_depend_on_a_hidden_rank() {
    let hold = u64::from(RefereeConfig::default().attack_hold_ms);
    let mut lit_steps = 0;
    let mut hand_steps = 0;
    for seed in 0..GAMES {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let setup = Setup::shuffled(Variant::Duel, |n| rng.random_range(0..n));
        // Two of Red's movable non-Scouts of different ranks trade places in the twin set-up.
        let red = &setup.deployments[RED].placements;
        let movable: Vec<usize> = (0..red.len())
            .filter(|&i| red[i].1.is_movable() && red[i].1 != Rank::Scout)
            .collect();
        let a = movable[0];
        let b = *movable[1..]
            .iter()
            .find(|&&i| red[i].1 != red[a].1)
            .expect("two ranks");
        let mut twin = setup.clone();
        let (ra, rb) = (red[a].1, red[b].1);
        twin.deployments[RED].placements[a].1 = rb;
        twin.deployments[RED].placements[b].1 = ra;
        let mut secret = [red[a].0, red[b].0];

        let mut one = Watched::new(&setup);
        let mut two = Watched::new(&twin);
        for _ in 0..MAX_PLIES {
            let Some(position) = one.table.referee().position().cloned() else {
                break;
            };
            let twin_position = two.table.referee().position().cloned().expect("twin");
            // The swap is real: the same squares hold different hidden ranks.
            assert_ne!(
                position.piece_at(secret[0]).map(|p| p.rank),
                twin_position.piece_at(secret[0]).map(|p| p.rank)
            );
            if !position.status().is_ongoing() {
                break;
            }
            // Now and then a swapped piece is pushed two squares: refused alike for any rank.
            if position.to_move() == RED && rng.random_range(0..6) == 0 {
                let from = secret[rng.random_range(0..2)];
                if let Some(to) = two_away(&position, from) {
                    for w in [&mut one, &mut two] {
                        w.table.lift(square_place(from)).expect("lift");
                        w.table.place(square_place(to), None).expect("place");
                        w.look();
                        w.table.lift(square_place(to)).expect("lift back");
                        w.table.place(square_place(from), None).expect("put back");
                        w.look();
                    }
                }
            }
            // A move that reveals neither swapped rank: no battle of a swapped piece.
            let legal: Vec<Move> = position
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| {
                    let attack = position.piece_at(m.to).is_some();
                    !(attack && (secret.contains(&m.from) || secret.contains(&m.to)))
                })
                .collect();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.random_range(0..legal.len())];
            let attack = position.piece_at(mv.to).is_some();
            let r1 = play(&mut one, mv, attack, hold);
            let r2 = play(&mut two, mv, attack, hold);
            assert_eq!(r1, r2, "game {seed}: a battle of unswapped pieces");
            for s in &mut secret {
                if *s == mv.from {
                    *s = mv.to;
                }
            }
            assert_eq!(
                one.shown, two.shown,
                "game {seed}: the LEDs differ after {mv} between set-ups that differ only in \
                 hidden ranks"
            );
        }
        assert_eq!(one.shown, two.shown, "game {seed}");
        lit_steps += one.shown.iter().filter(|s| !s.is_empty()).count();
        let blue = Palette::default().colour(Meaning::HandStep);
        hand_steps += one
            .shown
            .iter()
            .filter(|s| {
                s.values()
                    .any(|c| *c == Rgb::new(blue.r, blue.g, blue.b).scaled(Brightness::MAX))
            })
            .count();
    }
    // Not vacuous: the LEDs lit, hand steps among them.
    assert!(lit_steps > 50, "only {lit_steps} screens lit any LED");
    assert!(hand_steps > 0, "no hand step ever lit");
}

/// `umpire-sim play` draws the LEDs after each line: off at the start, the last move marked
/// after a move, the differing square after a mismatch.
#[test]
fn play_draws_the_leds_under_the_oled() {
    let mut out = Vec::new();
    let input = "setup\nmove a2 a3\nlift c4\nplace c6\nwait 4000\n";
    // Seed 1 sets a Red piece on a2 with a3 free, and c4 free for the stray piece.
    host::play::run(Variant::Duel, 1, input.as_bytes(), &mut out).expect("plays");
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("LEDs: all off"), "{text}");
    let (_, after_move) = text.split_once("a2-a3").expect("the move was accepted");
    let grid: Vec<&str> = after_move
        .lines()
        .skip_while(|l| l.trim() != "LEDs:")
        .collect();
    assert!(
        grid.iter().any(|l| l.trim() == "3 + . . . . . . . . ."),
        "{after_move}"
    );
    assert!(
        grid.iter().any(|l| l.trim() == "2 + . . . . . . . . ."),
        "{after_move}"
    );
    assert!(text.contains("+ last move"), "{text}");
    assert!(text.contains("! differs from the expected board"), "{text}");
}

/// `demo --frames` writes what the LEDs light beside each screen's frames: a grid with the hand
/// steps of the battles and the last moves marked.
#[test]
fn demo_frames_carry_the_leds() {
    let dir = std::env::temp_dir().join(format!("umpire-led-frames-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let demo = host::demo::Demo {
        quiet: true,
        max_moves: 40,
        ..host::demo::Demo::new(Variant::Duel, 2)
    };
    let played = host::demo::run_with_frames(&demo, Some(&dir), &mut std::io::sink()).unwrap();
    let texts: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".leds.txt"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(!texts.is_empty() && texts.len() <= played.frames as usize);
    assert!(texts
        .iter()
        .any(|t| t.contains("* a hand must still change it")));
    assert!(texts.iter().any(|t| t.contains("+ last move")));
    assert!(texts.iter().any(|t| t.trim() == "LEDs: all off"));
}
