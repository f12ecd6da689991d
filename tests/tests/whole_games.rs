//! Whole games end to end: the simulator's printed record of a game is read back by a separate
//! parser and replayed through the rules' checked path. Every printed move must be legal, every
//! printed battle must be exactly the battle the rules resolve, the final board and the result
//! must match. So the demo is a faithful, replayable record, and the rules agree with it. The
//! referee's journal of the same game must rebuild into exactly the same final position.

use boards::stratego::{Move, Options, Outcome, Position, Variant, BLUE, RED};
use boards::{Game, Status};
use firmware::journal::decode;
use firmware::referee::{rebuild, Header, Record};
use host::demo::{run_with_journal, Demo};

/// The lines of the diagram that follows the line starting with `title`.
fn diagram_after(report: &str, title: &str) -> String {
    report
        .lines()
        .skip_while(|l| !l.starts_with(title))
        .skip(1)
        .take(11)
        .map(|l| format!("{}\n", l.trim()))
        .collect()
}

/// A move line: `  12. Red    b4-b5    <battle text>`.
fn parse_move_line(line: &str) -> Option<(u32, &str, Move, &str)> {
    let (number, rest) = line.trim_start().split_once(". ")?;
    let number: u32 = number.parse().ok()?;
    let rest = rest.trim_start();
    let (seat, rest) = rest.split_once(' ')?;
    let rest = rest.trim_start();
    let (mv, battle) = rest.split_once(' ').unwrap_or((rest, ""));
    Some((number, seat, Move::parse(mv)?, battle.trim()))
}

fn check_game(variant: Variant, seed: u64) {
    let demo = Demo::new(variant, seed);
    let mut out = Vec::new();
    let (summary, journal) = run_with_journal(&demo, &mut out).expect("the demo plays");
    let report = String::from_utf8(out).expect("utf-8");
    let ctx = format!("{variant:?} seed {seed}");

    assert!(report.contains("two-squares rule on"), "{ctx}: ISF rules");
    let start = diagram_after(&report, "Starting deployments");
    let mut pos = Position::from_diagram(Options::isf(variant), &start, RED)
        .unwrap_or_else(|e| panic!("{ctx}: printed deployment unreadable: {e}"));
    for seat in [RED, BLUE] {
        let army: usize = pos.pieces().filter(|(_, p)| p.owner == seat).count();
        assert_eq!(
            army,
            usize::from(variant.army_size()),
            "{ctx}: whole army printed"
        );
    }

    let mut moves = 0;
    let mut battles = 0;
    for line in report.lines() {
        let Some((number, seat, mv, battle_text)) = parse_move_line(line) else {
            continue;
        };
        moves += 1;
        assert_eq!(number, moves, "{ctx}: moves numbered in order");
        let expected_seat = if pos.to_move() == RED { "Red" } else { "Blue" };
        assert_eq!(
            seat, expected_seat,
            "{ctx}: move {number} by the seat to move"
        );
        let outcome = pos
            .play(&mv)
            .unwrap_or_else(|e| panic!("{ctx}: printed move {number} {mv} is illegal: {e}"));
        match outcome {
            Outcome::Battle(b) => {
                battles += 1;
                assert_eq!(battle_text, b.to_string(), "{ctx}: move {number}");
            }
            Outcome::Moved(_) => assert_eq!(battle_text, "", "{ctx}: move {number}"),
        }
    }
    assert_eq!(moves, summary.moves, "{ctx}: every move printed");
    assert_eq!(battles, summary.battles, "{ctx}: every battle printed");

    let status = pos.status();
    assert_eq!(status, summary.status, "{ctx}: the rules agree on the end");
    let result = report
        .lines()
        .find(|l| l.starts_with("Result:"))
        .unwrap_or_else(|| panic!("{ctx}: no result line"));
    match status {
        Status::Won { winner, .. } => {
            let name = if winner == RED { "Red" } else { "Blue" };
            assert!(
                result.starts_with(&format!("Result: {name} wins")),
                "{ctx}: {result}"
            );
        }
        Status::Drawn { .. } => assert!(result.contains("draw"), "{ctx}: {result}"),
        Status::Ongoing => panic!("{ctx}: the demo game did not finish"),
    }

    let printed_final = diagram_after(&report, "Final board");
    let replayed_final: String = pos
        .diagram()
        .lines()
        .map(|l| format!("{}\n", l.trim()))
        .collect();
    assert_eq!(printed_final, replayed_final, "{ctx}: final board");

    // The referee's journal holds the same game: both set-ups, every move, nothing else.
    let recovered = decode::<Header, Record>(&journal).expect("the journal reads back");
    let moves_journaled = recovered
        .records
        .iter()
        .filter(|r| matches!(r, Record::Move(_)))
        .count();
    assert_eq!(moves_journaled as u32, moves, "{ctx}: every move journaled");
    let rebuilt = rebuild(recovered.header, &recovered.records).expect("the journal rebuilds");
    assert_eq!(
        rebuilt.position(),
        Some(&pos),
        "{ctx}: the journal's game is the printed one"
    );
}

#[test]
fn classic_demo_games_replay_exactly() {
    for seed in 1..=12 {
        check_game(Variant::Classic, seed);
    }
}

#[test]
fn duel_demo_games_replay_exactly() {
    for seed in 1..=12 {
        check_game(Variant::Duel, seed);
    }
}
