//! The simulated table runs on the firmware's own `Pipeline`: time, scans, tag reads, buttons
//! and power cuts all reach the referee through it, as in the `umpire` service, and what the
//! table records is exactly what the pipeline was fed.

use boards::stratego::{Rank, Setup, Square, Variant, BLUE, RED};
use firmware::journal::MemStore;
use firmware::pipeline::Pipeline;
use firmware::referee::{Referee, RefereeConfig, SeededChance};
use firmware::sensing::{Button, Millis, Place, Sensing, SensingConfig};
use host::scenario::decision_kind;
use host::sim::{feed_recorded, square_place, Sensed, SimTable, SCAN_MS};

/// A Duel table in play: chosen on the menu, both armies set out rank group by rank group.
fn duel_in_play(record: bool) -> SimTable {
    let mut table = SimTable::new(RefereeConfig::default(), 7, false).expect("table");
    if record {
        table.board.record();
    }
    let mut next = 11_u64;
    let setup = Setup::shuffled(Variant::Duel, |n| {
        next = next.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        usize::try_from(next >> 33).expect("fits") % n
    });
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
    assert!(
        table.referee().in_play(),
        "the Duel started: {}",
        table.screen_text()
    );
    table
}

/// The places the pipeline's sensing model reports occupied.
fn reported(table: &SimTable) -> Vec<Place> {
    let sensing = table.pipeline().sensing();
    let occupied = sensing.reported();
    sensing
        .layout()
        .iter()
        .filter(|(cell, _)| occupied.contains(*cell))
        .map(|(_, place)| place)
        .collect()
}

/// A fresh pipeline of the table's layout, fed `inputs`.
fn replayed(table: &SimTable, inputs: &[Sensed]) -> Pipeline<MemStore, SeededChance> {
    let referee = Referee::new(RefereeConfig::default(), SeededChance::new(7), || {
        Ok(MemStore::new())
    });
    let layout = table.board.layout().clone();
    let mut pipeline = Pipeline::new(Sensing::new(layout, SensingConfig::default()), referee);
    feed_recorded(&mut pipeline, inputs, |_| {});
    pipeline
}

/// Quiet time reaches the pipeline as idle ticks, one per scan period, and the referee's
/// clock runs on them: a piece lifted on the wrong turn is named only after the settle time,
/// with no scan in between.
#[test]
fn time_passes_through_the_pipeline() {
    let mut table = duel_in_play(false);
    let start = table.board.now();
    assert_eq!(table.pipeline().sensing().now(), start);
    let blue = table
        .referee()
        .position()
        .and_then(|p| {
            p.pieces()
                .find(|(_, piece)| piece.owner == BLUE)
                .map(|(s, _)| s)
        })
        .expect("Blue has pieces");
    table.board.record();
    let lifted = table.lift(square_place(blue)).expect("a piece to lift");
    assert!(lifted.is_empty(), "nothing yet: {lifted:?}");
    let inputs = table.board.take_recording();
    let frames = inputs
        .iter()
        .filter(|i| matches!(i, Sensed::Frame(_)))
        .count();
    assert_eq!(frames, 4, "scans around the change only: {inputs:?}");
    let waited = table.wait(3000);
    assert!(
        waited.iter().any(|d| decision_kind(d) == "mismatch"),
        "the settle time ran out: {waited:?}"
    );
    let inputs = table.board.take_recording();
    assert_eq!(inputs.len(), 300, "one idle tick per scan period");
    let mut at = table.board.now().0 - 3000;
    for input in &inputs {
        at += SCAN_MS;
        assert_eq!(input, &Sensed::Tick(Millis(at)), "quiet time is idle ticks");
    }
    assert_eq!(table.pipeline().sensing().now(), table.board.now());
    assert!(table.screen_text().starts_with("Fix the board"));
    assert_eq!(
        table.screen_text(),
        firmware::referee::screen_text(table.pipeline().screen())
    );
}

/// What the table records is what its pipeline was fed: a fresh pipeline fed the recording
/// from the menu ends on the same screen, board belief and journal, after a whole set-up and
/// a move, button presses and a held button among them.
#[test]
fn the_recording_is_what_the_pipeline_was_fed() {
    let mut table = duel_in_play(true);
    let position = table.referee().position().cloned().expect("in play");
    let legal = position.legal_moves();
    let mv = legal
        .iter()
        .find(|m| position.piece_at(m.to).is_none())
        .copied()
        .expect("a quiet move");
    table.lift(square_place(mv.from)).expect("lift");
    let placed = table.place(square_place(mv.to), None).expect("place");
    assert!(
        placed.iter().any(|d| decision_kind(d) == "moved"),
        "{placed:?}"
    );
    // Back held (not pressed) with nothing offered: the referee hears it as Back.
    table.hold(Button::Back);
    let inputs = table.board.take_recording();
    assert!(
        inputs.iter().any(|i| matches!(i, Sensed::Hold(_))),
        "the held button is recorded"
    );
    let pipeline = replayed(&table, &inputs);
    assert_eq!(pipeline.screen(), table.pipeline().screen());
    assert_eq!(
        pipeline.sensing().reported(),
        table.pipeline().sensing().reported()
    );
    assert_eq!(pipeline.sensing().now(), table.board.now());
    assert_eq!(pipeline.referee().position(), table.referee().position());
    let journal = |p: &Pipeline<MemStore, SeededChance>| {
        p.referee().journal().map(|j| j.store().as_bytes().to_vec())
    };
    assert_eq!(journal(&pipeline), journal(table.pipeline()));
}

/// Holding Back over a takeback offer confirms it, where a press declines (see
/// `12-takeback-cancelled.scn`): the hold goes through [`Pipeline::hold`] after the
/// long-press time.
#[test]
fn a_held_back_confirms_a_takeback() {
    let mut table = duel_in_play(false);
    let position = table.referee().position().cloned().expect("in play");
    let mv = position
        .legal_moves()
        .iter()
        .find(|m| position.piece_at(m.to).is_none())
        .copied()
        .expect("a quiet move");
    table.lift(square_place(mv.from)).expect("lift");
    table.place(square_place(mv.to), None).expect("place");
    table.lift(square_place(mv.to)).expect("lift");
    let offered = table.place(square_place(mv.from), None).expect("place");
    assert!(
        offered
            .iter()
            .any(|d| decision_kind(d) == "takeback-offered"),
        "{offered:?}"
    );
    let before = table.board.now();
    let held = table.hold(Button::Back);
    assert!(
        held.iter().any(|d| decision_kind(d) == "took-back"),
        "{held:?}"
    );
    assert!(
        table.board.now().since(before) >= 1500,
        "held for the long-press time"
    );
    assert_eq!(table.referee().position().map(|p| p.ply()), Some(0));
}

/// A power cut puts a new pipeline in: its sensing model has booted on the board as it stands
/// (the piece knocked off in the dark is not believed), its referee resumed from the journal
/// (the torn record dropped) and names the difference, and play goes on through it.
#[test]
fn a_power_cut_resumes_into_a_new_pipeline() {
    let mut table = duel_in_play(true);
    let journal = table.journal_bytes();
    table.board.take_recording();
    table.power_off();
    let knocked: Square = table
        .referee()
        .position()
        .and_then(|p| {
            p.pieces()
                .find(|(_, piece)| piece.owner == RED)
                .map(|(s, _)| s)
        })
        .expect("a Red piece");
    table.lift(square_place(knocked)).expect("lift");
    table.wait(5000);
    assert!(
        table.board.take_recording().is_empty(),
        "nothing is sensed in the dark"
    );
    assert!(
        reported(&table).contains(&square_place(knocked)),
        "the old pipeline saw nothing"
    );
    let off_at = table.board.now();
    table.power_on(&[40, 0, 0, 0, 7, 7, 7]).expect("resumes");
    assert_eq!(
        table.screen_text(),
        format!("Fix the board (1) / - {knocked} -> Red piece"),
        "the resumed referee names the difference"
    );
    assert_eq!(
        reported(&table),
        table.board.occupied_places(),
        "booted on the board"
    );
    assert!(!reported(&table).contains(&square_place(knocked)));
    assert!(
        table.pipeline().sensing().now() > off_at,
        "the boot took its scans"
    );
    assert_eq!(table.pipeline().sensing().now(), table.board.now());
    assert_eq!(table.journal_bytes(), journal, "the torn record is dropped");
    assert_eq!(
        table
            .referee()
            .differences()
            .iter()
            .map(|d| d.place.clone())
            .collect::<Vec<_>>(),
        vec![knocked.to_string()]
    );
    // Put right through the new pipeline's scans.
    let matched = table.place(square_place(knocked), None).expect("place");
    assert!(
        matched.iter().any(|d| decision_kind(d) == "board-matches"),
        "{matched:?}"
    );
    assert!(table.referee().differences().is_empty());
    assert!(
        table
            .board
            .take_recording()
            .iter()
            .any(|i| matches!(i, Sensed::Frame(_))),
        "the resumed pipeline's scans are recorded"
    );
}
