//! `umpire-sim play`: typed physical events drive the simulated table; the board and the OLED
//! are drawn after each line.

use boards::stratego::Variant;

fn session(input: &str) -> String {
    let mut out = Vec::new();
    host::play::run(Variant::Duel, 3, input.as_bytes(), &mut out).expect("plays");
    String::from_utf8(out).expect("utf-8")
}

#[test]
fn typed_events_reach_the_umpire_and_the_screen_is_drawn() {
    let text = session("setup\nlift e9\nwait 3000\nplace e9\nquit\nlift a1\n");
    assert!(text.contains("| Move 1 | Red to act"), "{text}");
    assert!(text.contains("umpire: mismatch e9: Blue piece"), "{text}");
    assert!(text.contains("| e9: Blue piece"), "{text}");
    assert!(text.contains("umpire: board-matches"), "{text}");
    // The table's view shows owners only, and the lifted piece as expected-but-lifted.
    assert!(text.contains("(b"), "{text}");
    assert!(!text.contains("bF") && !text.contains("rF"), "{text}");
    // Nothing after quit runs.
    assert_eq!(text.matches("Board (").count(), 4);
}

#[test]
fn a_bad_line_is_explained_and_play_goes_on() {
    let text = session("fly a1\nlift a1\nshow umpire\n");
    assert!(text.contains("! unknown command `fly`"), "{text}");
    assert!(text.contains("! there is no piece on a1 to lift"), "{text}");
    assert!(text.contains("the umpire's eyes"), "{text}");
}
