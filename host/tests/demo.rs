//! The demo game: deterministic for a seed, plays to a result, tells the battles.

use boards::stratego::Variant;
use boards::Status;
use host::demo::{self, Demo, Rules, Summary};

fn play(demo: &Demo) -> (String, Summary) {
    let mut out = Vec::new();
    let summary = demo::run(demo, &mut out).expect("the demo plays to the end");
    (
        String::from_utf8(out).expect("the demo writes UTF-8"),
        summary,
    )
}

#[test]
fn the_same_seed_prints_the_same_game() {
    for variant in [Variant::Classic, Variant::Duel] {
        let demo = Demo::new(variant, 1);
        let (first, a) = play(&demo);
        let (second, b) = play(&demo);
        assert_eq!(first, second, "{variant}");
        assert_eq!(a, b);
        let (other, _) = play(&Demo::new(variant, 2));
        assert_ne!(first, other, "another seed plays another game");
    }
}

#[test]
fn games_end_with_a_result_line() {
    for variant in [Variant::Classic, Variant::Duel] {
        for seed in 1..=6 {
            let (text, summary) = play(&Demo::new(variant, seed));
            assert!(
                !summary.status.is_ongoing(),
                "{variant} seed {seed} ran out of moves"
            );
            let last = text.lines().last().unwrap_or_default();
            assert!(last.starts_with("Result: "), "{last}");
            assert!(
                last.contains(" wins: ") || last.contains("a draw"),
                "{last}"
            );
            assert!(last.contains(&format!("after {} moves", summary.moves)));
        }
    }
}

#[test]
fn the_report_shows_header_moves_battles_and_boards() {
    let (text, summary) = play(&Demo::new(Variant::Classic, 1));
    assert!(text.starts_with("Umpire demo: Stratego Original (classic), seed 1\n"));
    assert!(text.contains("Rules: ISF"));
    assert!(text.contains("Starting deployments (the umpire's eyes):"));
    assert!(text.contains("   1. Red    "), "one line per move");
    assert!(text.contains("   2. Blue   "));
    assert!(summary.battles > 0);
    // Move lines only: the OLED lines (`OLED| ...`) show the battles too.
    let battles = text
        .lines()
        .filter(|l| l.contains(" attacks ") && !l.contains("OLED|"))
        .count();
    assert_eq!(battles, summary.battles as usize);
    assert!(text.contains("Final board after"));
    if summary.moves > 50 {
        assert!(text.contains("Board after move 50 (the umpire's eyes):"));
    }
    // The umpire's boards show every rank: both Flags are on the starting board.
    assert!(text.contains("rF") && text.contains("bF"));
}

#[test]
fn quiet_prints_only_battles_and_the_result() {
    let demo = Demo {
        quiet: true,
        ..Demo::new(Variant::Classic, 3)
    };
    let (text, summary) = play(&demo);
    let (loud, _) = play(&Demo::new(Variant::Classic, 3));
    let body: Vec<&str> = text.lines().skip_while(|l| !l.starts_with(' ')).collect();
    let (last, moves) = body.split_last().expect("a result line");
    assert!(last.starts_with("Result: "));
    for line in moves.iter().filter(|l| !l.starts_with("Pieces left")) {
        assert!(line.contains(" attacks "), "not a battle: {line}");
        assert!(loud.contains(line), "the quiet game is the same game");
    }
    assert_eq!(moves.len(), summary.battles as usize + 1);
    assert!(!text.contains("Board"));
}

#[test]
fn a_seat_view_hides_the_enemy_ranks() {
    let demo = Demo {
        eyes: Some(boards::stratego::RED),
        ..Demo::new(Variant::Classic, 1)
    };
    let (text, _) = play(&demo);
    let start: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("Starting deployments"))
        .take(11)
        .collect();
    assert!(start[0].contains("as Red sees it"));
    let board = start.join("\n");
    assert!(board.contains("rF"), "Red sees its own Flag");
    assert!(!board.contains("bF") && board.contains("b?"), "{board}");
}

#[test]
fn the_move_limit_stops_the_demo_without_a_result() {
    let demo = Demo {
        max_moves: 10,
        rules: Rules::Plain,
        ..Demo::new(Variant::Classic, 2)
    };
    let (text, summary) = play(&demo);
    assert_eq!(summary.moves, 10);
    assert_eq!(summary.status, Status::Ongoing);
    let last = text.lines().last().unwrap_or_default();
    assert!(last.contains("stopped at its limit of 10 moves"), "{last}");
}

#[test]
fn the_game_is_refereed_through_the_simulated_sensors() {
    let (text, summary) = play(&Demo::new(Variant::Duel, 1));
    // The players chose the game and set up rank group by rank group on the umpire's screen.
    assert!(text.contains("OLED| Game / > Stratego Original"), "{text}");
    assert!(text.contains("OLED| Red set-up 0/1 / Red: place 1 Flag, then press OK"));
    assert!(text.contains("OLED| Blue set-up 0/2 / Blue: place 2 Scouts, then press OK"));
    // Every move was accepted on the OLED; every battle told the hands what to do.
    let played = text
        .lines()
        .filter(|l| l.contains("OLED|") && l.contains(" / Accepted / "))
        .count();
    assert_eq!(played as u32, summary.moves - summary.battles);
    // Each battle goes up on the OLED once (it is redrawn only as the hands' steps, listed live,
    // are done), and every step it lists says where to put which piece.
    let oled: Vec<&str> = text.lines().filter(|l| l.contains("OLED|")).collect();
    let battle = |l: &str| l.contains(" x ");
    let shown = oled
        .windows(2)
        .filter(|w| battle(w[1]) && !battle(w[0]))
        .count();
    assert_eq!(shown as u32, summary.battles, "{oled:?}");
    let steps: Vec<&&str> = oled
        .iter()
        .filter(|l| battle(l) && l.contains(" - "))
        .collect();
    assert!(!steps.is_empty(), "no battle left the hands anything to do");
    assert!(steps.iter().all(|l| l.contains(": put the ")), "{steps:?}");
    assert!(text.contains("OLED| Game over"), "the end is on the screen");
    // The OLED never shows a rank outside a battle or the end.
    let in_play: Vec<&str> = text.lines().filter(|l| l.contains("OLED| Turn ")).collect();
    assert!(
        in_play.len() > 10,
        "the in-play screens start with the turn"
    );
    for line in in_play {
        for rank in [
            "Marshal", "General", "Miner", "Scout", "Spy", "Bomb", "Flag",
        ] {
            assert!(!line.contains(rank), "{line}");
        }
    }
}
