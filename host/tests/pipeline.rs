//! The firmware's `Pipeline` (sensing model + referee, as the `umpire` service runs them) fed the
//! inputs a simulated demo game recorded plays exactly the same game: the same journal, byte for
//! byte, and the same last screen.

use boards::stratego::Variant;
use firmware::journal::MemStore;
use firmware::pipeline::Pipeline;
use firmware::referee::{Referee, RefereeConfig, SeededChance};
use firmware::sensing::{Sensing, SensingConfig};
use host::demo::{run_with_frames, Demo};
use host::sim::{feed_recorded, SimBoard};

/// Feeds `inputs` to a fresh pipeline on `layout` with the umpire's chance seeded `seed`:
/// returns the pipeline and how many screens it showed.
fn feed(
    layout: firmware::sensing::SensorLayout,
    seed: u64,
    inputs: &[host::sim::Sensed],
) -> (Pipeline<MemStore, SeededChance>, usize) {
    let referee = Referee::new(RefereeConfig::default(), SeededChance::new(seed), || {
        Ok(MemStore::new())
    });
    let mut pipeline = Pipeline::new(Sensing::new(layout, SensingConfig::default()), referee);
    let mut screens = 0;
    feed_recorded(&mut pipeline, inputs, |p| {
        if p.new_screen().is_some() {
            screens += 1;
        }
    });
    (pipeline, screens)
}

/// The journal the pipeline wrote.
fn journal(pipeline: &Pipeline<MemStore, SeededChance>) -> Vec<u8> {
    pipeline
        .referee()
        .journal()
        .expect("a game was journaled")
        .store()
        .as_bytes()
        .to_vec()
}

fn replay(seed: u64, variant: Variant) {
    let demo = Demo::new(variant, seed);
    let played = run_with_frames(&demo, None, &mut Vec::new()).expect("demo plays");
    assert!(played.inputs.len() > 1000, "a whole game was recorded");
    let layout = SimBoard::stratego(false).expect("layout").layout().clone();
    let (pipeline, screens) = feed(layout, seed, &played.inputs);
    assert_eq!(
        journal(&pipeline),
        played.journal,
        "seed {seed}: same journal"
    );
    assert!(pipeline.referee().is_over(), "seed {seed}: the game ended");
    assert!(screens > 100, "seed {seed}: {screens} screens");
}

#[test]
fn the_pipeline_plays_recorded_classic_games_exactly() {
    for seed in 1..=3 {
        replay(seed, Variant::Classic);
    }
}

#[test]
fn the_pipeline_plays_a_recorded_duel_exactly() {
    replay(4, Variant::Duel);
}

/// A table game's recorded inputs through a fresh pipeline on the game's layout: the same
/// journal, byte for byte.
fn replay_table(game: &str, variant: &str, seed: u64) {
    let entry = host::table::find_game(game, Some(variant)).expect("on the menu");
    let played =
        host::table::demo(&entry, seed, 3000, true, None, &mut Vec::new()).expect("demo plays");
    assert!(
        played.result.is_some(),
        "{game} seed {seed}: the game ended"
    );
    let layout = entry.layout().validate().expect("valid");
    let (pipeline, _) = feed(layout, seed, &played.inputs);
    let journal = journal(&pipeline);
    assert_eq!(journal, played.journal, "{game} seed {seed}: same journal");
    assert!(pipeline.referee().is_over(), "{game} seed {seed}: over");
}

#[test]
fn the_pipeline_plays_recorded_table_games_exactly() {
    replay_table("stratego-waterloo", "basic", 1);
    replay_table("stratego-waterloo", "standard", 3);
    replay_table("piecepack", "rules-as-written", 1);
}
