//! Careless hands and faulty switches through raw sensor frames: a Stratego Duel played on the
//! simulated reed board (`firmware::sim::SimBoard`, with its stuck-closed and dead switch
//! faults) through the sensing model and the referee exactly as the `umpire` service runs them
//! (`Pipeline`, a scan every 10 ms). A ghost is a switch that reads a piece nobody put there.

use boards::stratego::{Deployment, Rank, Square, Variant, BLUE, RED};
use firmware::journal::{decode, MemStore};
use firmware::pipeline::Pipeline;
use firmware::referee::{
    screen_text, Decision, Header, Record, Referee, RefereeConfig, SeededChance,
};
use firmware::sensing::{Button, LayoutSetup, Millis, Place, Sensing, SensingConfig};
use firmware::sim::{SimBoard, SwitchFault};

const RED_DUEL: &str = "2 3 9 3 M 2 . . . .\nS B . . . . . . . .\nF B . . . . . . . .";
const BLUE_DUEL: &str = "F . . . . . . . . .\nB B S . . . . . . .\n3 2 9 M 2 3 . . . .";
const RANK_WORDS: [&str; 12] = [
    "Flag",
    "Spy",
    "Scout",
    "Miner",
    "Sergeant",
    "Lieutenant",
    "Captain",
    "Major",
    "Colonel",
    "General",
    "Marshal",
    "Bomb",
];

/// The reed board, the pipeline, the clock and everything decided and shown.
struct Rig {
    board: SimBoard,
    pipeline: Pipeline<MemStore, SeededChance>,
    now: u64,
    log: Vec<Decision>,
    screens: Vec<String>,
}

impl Rig {
    /// A Duel in play (Red to move), set up rank group by rank group through the switches.
    fn duel() -> Rig {
        let layout = LayoutSetup::grid(10, 10).validate().expect("a 10x10 grid");
        let sensing = Sensing::new(layout, SensingConfig::default());
        let referee = Referee::new(RefereeConfig::default(), SeededChance::new(1), || {
            Ok(MemStore::new())
        });
        let mut rig = Rig {
            board: SimBoard::new(10, 10),
            pipeline: Pipeline::new(sensing, referee),
            now: 0,
            log: Vec::new(),
            screens: Vec::new(),
        };
        rig.scan(100);
        rig.press(Button::Die); // Stratego Duel
        rig.press(Button::Ok);
        rig.press(Button::Ok); // by rank groups
        for (seat, text) in [(RED, RED_DUEL), (BLUE, BLUE_DUEL)] {
            let deployment = Deployment::parse(Variant::Duel, seat, text).expect("an army");
            for rank in Rank::ALL
                .iter()
                .rev()
                .filter(|r| Variant::Duel.count(**r) > 0)
            {
                for &(s, r) in &deployment.placements {
                    if r == *rank {
                        rig.set(&s.to_string(), true);
                    }
                }
                rig.scan(300);
                rig.press(Button::Ok);
            }
        }
        assert!(rig.log.contains(&Decision::GameStarted), "{:?}", rig.log);
        rig.screens.clear();
        rig
    }

    /// Scans every 10 ms for `ms`.
    fn scan(&mut self, ms: u64) -> Vec<Decision> {
        let mut out = Vec::new();
        for _ in 0..ms / 10 {
            self.now += 10;
            let occupied = self.board.read();
            out.extend(
                self.pipeline
                    .scan(Millis(self.now), occupied, |_| Vec::new()),
            );
            if let Some(screen) = self.pipeline.new_screen() {
                self.screens.push(screen_text(screen));
            }
        }
        self.log.extend(out.iter().cloned());
        out
    }

    fn press(&mut self, button: Button) {
        let out = self.pipeline.press(Millis(self.now), button);
        self.log.extend(out);
        self.scan(50);
    }

    fn cell(&self, square: &str) -> firmware::sensing::SensedCell {
        let square = Square::parse(square).expect("a square");
        self.pipeline
            .sensing()
            .layout()
            .cell(Place::Square(square.cell()))
            .expect("a sensed square")
    }

    /// A piece put on (or lifted from) `square`, or a ghost's switch closing (or opening).
    fn set(&mut self, square: &str, present: bool) {
        let cell = self.cell(square);
        self.board.set_piece(cell, present);
    }

    /// `square`'s switch fails from now on.
    fn fail(&mut self, fault: impl Fn(firmware::sensing::SensedCell) -> SwitchFault, square: &str) {
        let cell = self.cell(square);
        self.board = self.board.clone().with_fault(fault(cell));
    }

    fn records(&self) -> Vec<Record> {
        let journal = self.pipeline.referee().journal().expect("a journal");
        decode::<Header, Record>(journal.store().as_bytes())
            .expect("a whole journal")
            .records
    }

    fn text(&self) -> String {
        screen_text(self.pipeline.screen())
    }

    fn battles(&self) -> usize {
        self.log
            .iter()
            .filter(|d| matches!(d, Decision::Battle(_)))
            .count()
    }

    /// The screens shown since play began that name a rank.
    fn ranks_shown(&self) -> Vec<&String> {
        self.screens
            .iter()
            .filter(|s| RANK_WORDS.iter().any(|w| s.contains(w)))
            .collect()
    }
}

/// A brushed enemy piece (off its switch for 400 ms, then back) while Red's Scout is in hand
/// reveals nothing; the same two pieces held up for two seconds are the attack. Before the
/// attack hold, the brush was an attack the moment the board settled, both ranks shown.
#[test]
fn a_brush_reveals_nothing_and_a_held_attack_is_fought() {
    let mut rig = Rig::duel();
    let journaled = rig.records().len();
    rig.set("a3", false);
    rig.scan(500);
    rig.set("a8", false);
    rig.scan(400);
    assert!(rig.text().contains("a3 and a8 up"), "{}", rig.text());
    rig.set("a8", true);
    rig.scan(5000);
    assert_eq!(rig.battles(), 0, "{:?}", rig.log);
    assert_eq!(rig.records().len(), journaled);
    assert!(rig.ranks_shown().is_empty(), "{:?}", rig.ranks_shown());
    // Deliberate: both up and held.
    rig.set("a8", false);
    rig.scan(2000);
    assert_eq!(rig.battles(), 1, "{:?}", rig.log);
    assert!(
        rig.text().contains("Red Scout x Blue Miner"),
        "{}",
        rig.text()
    );
}

/// A switch stuck closed on a square the Scout could reach, before it is lifted: the lift plays
/// nothing and names the square. Before: the move a3-a4 at once.
#[test]
fn a_switch_stuck_closed_before_the_lift_plays_nothing() {
    let mut rig = Rig::duel();
    let journaled = rig.records().len();
    rig.fail(SwitchFault::StuckClosed, "a4");
    rig.scan(500);
    rig.set("a3", false);
    rig.scan(500);
    assert!(
        rig.log.contains(&Decision::Ghost {
            place: "a4".to_string(),
            undone: None,
        }),
        "{:?}",
        rig.log
    );
    assert!(!rig.log.iter().any(|d| matches!(d, Decision::Moved { .. })));
    assert_eq!(rig.records().len(), journaled);
    assert!(rig.text().contains("a4 reads a piece"), "{}", rig.text());
}

/// A dead switch under Blue's a8 (its piece still there) is named as missing; Red's Scout lifted
/// and held next to it long after is no attack. Before: a battle at once, both ranks revealed.
#[test]
fn a_dead_enemy_switch_is_no_attack() {
    let mut rig = Rig::duel();
    let journaled = rig.records().len();
    rig.fail(SwitchFault::Dead, "a8");
    rig.scan(4000);
    assert!(rig.text().contains("a8 -> Blue piece"), "{}", rig.text());
    rig.set("a3", false);
    rig.scan(5000);
    assert_eq!(rig.battles(), 0, "{:?}", rig.log);
    assert_eq!(rig.records().len(), journaled);
    assert!(rig.ranks_shown().is_empty(), "{:?}", rig.ranks_shown());
}

/// A switch stuck closed under Blue's a8: its piece lifted is never seen to leave, so Red's
/// Scout lifted and held up long after makes no attack, and nothing is revealed or journaled.
#[test]
fn a_stuck_closed_enemy_switch_is_no_attack() {
    let mut rig = Rig::duel();
    let journaled = rig.records().len();
    rig.fail(SwitchFault::StuckClosed, "a8");
    rig.scan(500);
    rig.set("a3", false);
    rig.scan(500);
    rig.set("a8", false); // Blue's piece taken up; the switch still reads it
    rig.scan(5000);
    assert_eq!(rig.battles(), 0, "{:?}", rig.log);
    assert_eq!(rig.records().len(), journaled);
    assert!(rig.ranks_shown().is_empty(), "{:?}", rig.ranks_shown());
    rig.set("a8", true);
    rig.set("a3", true);
    rig.scan(500);
    assert_eq!(rig.battles(), 0, "{:?}", rig.log);
    assert_eq!(rig.records().len(), journaled);
}

/// A ghost that lights a4 while the Scout is in hand and stays lit: read as the move, then taken
/// back (journaled) when the Scout goes back on a3, and a4 named. Before: the move stood and the
/// mismatch screen told Red to take the Scout off a3. A dead destination switch (a5) never sees
/// the Scout put there: nothing is played.
#[test]
fn a_lasting_ghost_is_taken_back_and_a_dead_destination_plays_nothing() {
    let mut rig = Rig::duel();
    rig.set("a3", false);
    rig.scan(500);
    rig.set("a4", true); // the ghost
    rig.scan(500);
    assert!(rig.log.iter().any(|d| matches!(d, Decision::Moved { .. })));
    rig.set("a3", true); // the Scout back home
                         // After the hold (another hand sliding a piece onto a3 would light it for a moment too).
    rig.scan(2000);
    assert!(
        rig.log.contains(&Decision::Ghost {
            place: "a4".to_string(),
            undone: Some("a3-a4".to_string()),
        }),
        "{:?}",
        rig.log
    );
    assert!(matches!(
        rig.records().last(),
        Some(Record::Takeback { to_ply: 0 })
    ));
    rig.scan(5000);
    assert!(rig.text().contains("a4 reads a piece"), "{}", rig.text());
    rig.set("a4", false); // the ghost goes dark
    rig.scan(500);
    assert!(rig.log.contains(&Decision::BoardMatches), "{:?}", rig.log);

    // a5's switch is dead: the Scout put there is never seen.
    let journaled = rig.records().len();
    rig.fail(SwitchFault::Dead, "a5");
    rig.set("a3", false);
    rig.scan(300);
    rig.set("a5", true);
    rig.scan(10_000);
    assert_eq!(rig.records().len(), journaled);
    assert!(rig.text().contains("a3 lifted"), "{}", rig.text());
}
