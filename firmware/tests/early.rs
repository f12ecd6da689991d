//! Deciding early: a landing the board makes unmistakable is decided at the scan that believes
//! it, through the whole pipeline (raw scans every 10 ms, debounce, settle, referee), while a
//! slide, a lift-and-replace and a brushed enemy are still read as the hands meant them.
//!
//! Each test plays a Stratego Duel from raw switch readings. The tests that time a decision
//! fail on the code before early decisions (`SensingConfig::decide_early: false` shows it:
//! 170 ms after touch-down).

use boards::stratego::{Deployment, Rank, Variant, BLUE, RED};
use firmware::journal::MemStore;
use firmware::pipeline::Pipeline;
use firmware::referee::{screen_text, Decision, Referee, RefereeConfig, SeededChance};
use firmware::sensing::{
    Button, LayoutSetup, Millis, Occupancy, Place, Sensing, SensingConfig, SensorLayout,
};

/// Red: Scouts on a3 and f3, the Marshal on e3.
const RED_DUEL: &str = "2 3 9 3 M 2 . . . .\nS B . . . . . . . .\nF B . . . . . . . .";
/// Blue: front row a8-f8 `3 2 9 M 2 3`.
const BLUE_DUEL: &str = "F . . . . . . . . .\nB B S . . . . . . .\n3 2 9 M 2 3 . . . .";

/// A Duel board under the pipeline, scanned every 10 ms, every decision kept with its time.
struct Rig {
    pipeline: Pipeline<MemStore, SeededChance>,
    layout: SensorLayout,
    t: u64,
    occupied: Occupancy,
    log: Vec<(u64, Decision)>,
}

impl Rig {
    /// A Duel in play, set up rank group by rank group through the pipeline.
    fn duel(sensing: SensingConfig) -> Rig {
        let layout = LayoutSetup::grid(10, 10).validate().unwrap();
        let referee = Referee::new(RefereeConfig::default(), SeededChance::new(3), || {
            Ok(MemStore::new())
        });
        let mut rig = Rig {
            pipeline: Pipeline::new(Sensing::new(layout.clone(), sensing), referee),
            layout,
            t: 0,
            occupied: Occupancy::EMPTY,
            log: Vec::new(),
        };
        rig.press(Button::Die);
        rig.press(Button::Ok);
        rig.press(Button::Ok);
        for (seat, text) in [(RED, RED_DUEL), (BLUE, BLUE_DUEL)] {
            let d = Deployment::parse(Variant::Duel, seat, text).unwrap();
            for rank in Rank::ALL.iter().rev() {
                for (s, _) in d.placements.iter().filter(|(_, r)| r == rank) {
                    rig.set(&s.to_string(), true);
                }
                rig.scan(300);
                rig.press(Button::Ok);
            }
        }
        assert!(
            rig.decided(|d| d == &Decision::GameStarted),
            "{:?}",
            rig.log
        );
        rig.log.clear();
        rig
    }

    fn place(&self, s: &str) -> Place {
        Place::Square(boards::stratego::Square::parse(s).unwrap().cell())
    }

    /// The hands put a piece on `s` (`on`) or take it off.
    fn set(&mut self, s: &str, on: bool) {
        let cell = self.layout.cell(self.place(s)).unwrap();
        self.occupied.set(cell, on);
    }

    /// Scans every 10 ms for `ms`.
    fn scan(&mut self, ms: u64) {
        for _ in 0..ms / 10 {
            self.t += 10;
            let out = self
                .pipeline
                .scan(Millis(self.t), self.occupied, |_| Vec::new());
            self.log.extend(out.into_iter().map(|d| (self.t, d)));
        }
    }

    fn press(&mut self, button: Button) {
        self.t += 10;
        let out = self.pipeline.press(Millis(self.t), button);
        self.log.extend(out.into_iter().map(|d| (self.t, d)));
        self.scan(50);
    }

    fn decided(&self, f: impl Fn(&Decision) -> bool) -> bool {
        self.log.iter().any(|(_, d)| f(d))
    }

    /// When the first decision `f` accepts came, if one did.
    fn when(&self, f: impl Fn(&Decision) -> bool) -> Option<u64> {
        self.log.iter().find(|(_, d)| f(d)).map(|(t, _)| *t)
    }

    fn ply(&self) -> u32 {
        self.pipeline.referee().position().unwrap().ply()
    }

    fn text(&self) -> String {
        screen_text(self.pipeline.screen())
    }

    /// Where the piece of `s` stands now, as the referee knows it.
    fn holds(&self, s: &str) -> bool {
        let pos = self.pipeline.referee().position().unwrap();
        pos.piece_at(boards::stratego::Square::parse(s).unwrap())
            .is_some()
    }
}

fn moved(d: &Decision) -> bool {
    matches!(d, Decision::Moved { .. })
}

fn battle(d: &Decision) -> bool {
    matches!(d, Decision::Battle(_))
}

/// A plain move (the Marshal lifted, held up, put down a square on) is decided at the scan that
/// believes the landing: 20 ms after the first scan that saw it, well within 60 ms. With the
/// old timing (`decide_early: false`) it waited out the settle window: 170 ms.
#[test]
fn a_plain_move_is_decided_within_60_ms_of_touch_down() {
    for (early, want) in [(true, 20), (false, 170)] {
        let mut rig = Rig::duel(SensingConfig {
            decide_early: early,
            ..SensingConfig::default()
        });
        rig.set("e3", false);
        rig.scan(300);
        assert!(
            !rig.decided(moved),
            "nothing decided in hand: {:?}",
            rig.log
        );
        rig.set("e4", true);
        let touch = rig.t + 10;
        rig.scan(300);
        let at = rig.when(moved).expect("the move is decided");
        assert_eq!(at - touch, want, "decide_early {early}: {:?}", rig.log);
        assert_eq!(rig.ply(), 1);
        assert!(rig.holds("e4") && !rig.holds("e3"));
    }
    // A quick hand: lifted and put down 80 ms later, before the lift was even reported.
    let mut rig = Rig::duel(SensingConfig::default());
    rig.set("e3", false);
    rig.scan(80);
    rig.set("e4", true);
    let touch = rig.t + 10;
    rig.scan(300);
    let at = rig.when(moved).expect("the move is decided");
    assert!(at - touch <= 60, "{} ms: {:?}", at - touch, rig.log);
    assert_eq!(rig.ply(), 1);
}

/// A slide whose magnet closes the next square's switch 30 ms before it leaves its own: the
/// landing alone is no move (nothing was lifted), the lift that follows completes it, and the
/// move is decided at the scan that believes the lift, within 60 ms of the touch-down.
#[test]
fn a_slide_that_closes_the_next_square_first_is_decided_at_once() {
    let mut rig = Rig::duel(SensingConfig::default());
    rig.set("e4", true);
    let touch = rig.t + 10;
    rig.scan(30);
    rig.set("e3", false);
    rig.scan(300);
    let at = rig.when(moved).expect("the move is decided");
    assert_eq!(at - touch, 50, "{:?}", rig.log);
    assert_eq!(rig.ply(), 1);
}

/// A slow slide across two squares (the Scout rests 120 ms on f4, long enough to be decided
/// there, then goes on to f5) is one move, f3-f5: read as f3-f4 when it crossed f4, then
/// corrected (journaled as a takeback and f3-f5) when it landed on f5, itself decided within
/// 60 ms of touching f5. No battle, one ply.
#[test]
fn a_slow_slide_across_two_squares_is_one_move() {
    let mut rig = Rig::duel(SensingConfig::default());
    rig.set("f3", false);
    rig.scan(40);
    rig.set("f4", true);
    rig.scan(120);
    rig.set("f4", false);
    rig.scan(20);
    rig.set("f5", true);
    let touch = rig.t + 10;
    rig.scan(500);
    let corrected = |d: &Decision| matches!(d, Decision::MoveCorrected { was, now } if was == "f3-f4" && now == "f3-f5");
    let at = rig.when(corrected).expect("the slide is corrected");
    assert!(at - touch <= 60, "{} ms: {:?}", at - touch, rig.log);
    assert_eq!(rig.ply(), 1, "{:?}", rig.log);
    assert!(rig.holds("f5") && !rig.holds("f4") && !rig.holds("f3"));
    assert!(!rig.decided(battle));
    assert!(rig.text().contains("Blue"), "Blue to move: {}", rig.text());
}

/// A slide that brushes an enemy on its way: the Scout leaves f3 (which may attack f8 down the
/// open file), the hand knocks the Blue piece on f8 off its switch for 100 ms while the Scout
/// crosses f4, and the Scout lands on f5. Never an attack on f8 (no battle, no rank shown):
/// the lifted enemy keeps the board ambiguous, so nothing is decided until it is back; then the
/// move f3-f5 is decided at once.
#[test]
fn a_slide_brushing_an_enemy_is_never_an_attack() {
    let mut rig = Rig::duel(SensingConfig::default());
    rig.set("f3", false);
    rig.scan(40);
    rig.set("f4", true);
    rig.set("f8", false);
    rig.scan(100);
    rig.set("f8", true);
    rig.scan(20);
    rig.set("f4", false);
    rig.scan(20);
    rig.set("f5", true);
    let touch = rig.t + 10;
    rig.scan(2000);
    assert!(!rig.decided(battle), "{:?}", rig.log);
    let moved_to = |d: &Decision| {
        matches!(d, Decision::Moved { mv, .. } if mv.to.to_string() == "f5")
            || matches!(d, Decision::MoveCorrected { now, .. } if now == "f3-f5")
    };
    let at = rig.when(moved_to).expect("the move is decided");
    assert!(at - touch <= 60, "{} ms: {:?}", at - touch, rig.log);
    assert_eq!(rig.ply(), 1);
    assert!(rig.holds("f5") && rig.holds("f8"));
}

/// A brush over an enemy while a piece is in hand (the Scout up, the Blue piece it could attack
/// knocked off for 100 ms, then for 400 ms) is not an attack: nothing is revealed or decided,
/// and the Scout put down afterwards is a move, decided at once.
#[test]
fn a_brushed_enemy_is_not_an_attack() {
    let mut rig = Rig::duel(SensingConfig::default());
    rig.set("f3", false);
    rig.scan(300);
    for up in [100, 400] {
        rig.set("f8", false);
        rig.scan(up);
        rig.set("f8", true);
        rig.scan(300);
        assert!(
            rig.log.iter().all(|(_, d)| !battle(d) && !moved(d)),
            "{:?}",
            rig.log
        );
        assert!(
            !rig.text().contains("Scout"),
            "no rank shown: {}",
            rig.text()
        );
    }
    rig.set("f6", true);
    let touch = rig.t + 10;
    rig.scan(2000);
    let at = rig.when(moved).expect("the move is decided");
    assert!(at - touch <= 60, "{} ms: {:?}", at - touch, rig.log);
    assert!(!rig.decided(battle), "{:?}", rig.log);
    assert_eq!(rig.ply(), 1);
}

/// A lift-and-replace is still a select, not a move: the Marshal held up 300 ms and put back
/// on e3 plays nothing and leaves Red to move; a nudge (40 ms up) reports nothing at all; the
/// move that follows is decided at once.
#[test]
fn a_lift_and_replace_is_still_a_select() {
    let mut rig = Rig::duel(SensingConfig::default());
    let before = rig.text();
    rig.set("e3", false);
    rig.scan(300);
    rig.set("e3", true);
    rig.scan(300);
    rig.set("e3", false);
    rig.scan(40);
    rig.set("e3", true);
    rig.scan(300);
    assert!(!rig.decided(moved), "{:?}", rig.log);
    assert_eq!(rig.ply(), 0);
    assert_eq!(rig.text(), before, "back to Red's turn");
    rig.set("e3", false);
    rig.scan(300);
    rig.set("e4", true);
    let touch = rig.t + 10;
    rig.scan(300);
    assert_eq!(
        rig.when(moved).map(|at| at - touch),
        Some(20),
        "{:?}",
        rig.log
    );
}

/// The sensing model reports nothing early by itself: with `decide_early` off, or with no one
/// asking, a landing waits out the settle window; [`Sensing::settle_now`] reports the waiting
/// changes, oldest first, then the board settled.
#[test]
fn settle_now_reports_what_waits_then_settles() {
    let layout = LayoutSetup::grid(5, 1).validate().unwrap();
    let frame = |at, marks| firmware::sensing::OccupancyFrame {
        at: Millis(at),
        occupied: Occupancy::from_marks(marks).unwrap(),
    };
    let mut sensing = Sensing::new(layout.clone(), SensingConfig::default());
    for t in (0..=200).step_by(10) {
        sensing.feed(frame(t, "X...."));
    }
    assert!(!sensing.early_ready());
    let mut out = Vec::new();
    for t in (210..=230).step_by(10) {
        out.extend(sensing.feed(frame(t, ".X...")));
    }
    assert_eq!(out, []);
    assert!(sensing.early_ready(), "a landing believed at this scan");
    let waiting = sensing.waiting();
    assert_eq!(waiting.len(), 2);
    assert!(waiting.iter().all(|&(_, _, at)| at == Millis(230)));
    let out = sensing.settle_now();
    assert!(
        matches!(
            out[..],
            [
                firmware::sensing::BoardEvent::Lifted { .. },
                firmware::sensing::BoardEvent::Placed { .. },
                firmware::sensing::BoardEvent::Settled {
                    at: Millis(230),
                    ..
                },
            ]
        ),
        "{out:?}"
    );
    assert_eq!(sensing.waiting(), []);
    assert!(!sensing.early_ready());
    // Nothing more comes when the window would have ended.
    assert_eq!(sensing.feed(frame(400, ".X...")), []);
    // Off: never ready.
    let mut slow = Sensing::new(
        layout,
        SensingConfig {
            decide_early: false,
            ..SensingConfig::default()
        },
    );
    for t in (0..=30).step_by(10) {
        slow.feed(frame(t, "X...."));
    }
    assert!(!slow.early_ready());
}

/// A Scout run that ends in an attack, slid slowly enough that each square it crosses is
/// believed on the way (f3 over f4, f5, f6 and f7, then the defender on f8 lifted and the Scout
/// put in its place): one attack f3xf8, not a move to a crossed square left standing. The
/// crossed squares are decided early and carried on; the attack itself waits for the enemy
/// piece in hand, as an attack always did.
#[test]
fn a_scout_run_ending_in_an_attack_is_one_attack() {
    let mut rig = Rig::duel(SensingConfig::default());
    rig.set("f3", false);
    rig.scan(40);
    let mut at = "f3";
    for next in ["f4", "f5", "f6", "f7"] {
        rig.set(next, true);
        rig.scan(60);
        rig.set(next, false);
        rig.scan(20);
        at = next;
    }
    assert_eq!(at, "f7");
    rig.set("f8", false);
    rig.scan(200);
    rig.set("f8", true);
    rig.scan(600);
    assert!(rig.decided(battle), "{:?}", rig.log);
    let battles = rig.log.iter().filter(|(_, d)| battle(d)).count();
    assert_eq!(battles, 1, "{:?}", rig.log);
    assert_eq!(rig.ply(), 1, "one ply: {:?}", rig.log);
    for crossed in ["f3", "f4", "f5", "f6", "f7"] {
        assert!(!rig.holds(crossed), "{crossed}: {:?}", rig.log);
    }
}

/// The same Scout run on a board whose builder set a longer settle window (300 ms): the hand
/// rests on f7 long enough for the crossing to be decided there, then lifts the Scout on
/// 230 ms after that decision (past the default 150 ms window, within this board's) and attacks
/// f8 with both pieces held up. One attack f3xf8 by Red, as on the default board with a quicker
/// hand. The old code's carry window was a constant 150 ms, whatever the settle window: it
/// read the Scout as left on f7 and the lifts as Blue's Miner attacking it, a second ply.
#[test]
fn a_scout_run_ending_in_an_attack_follows_the_settle_window() {
    let settle_ms = 300;
    let mut rig = Rig::duel(SensingConfig {
        settle_ms,
        ..SensingConfig::default()
    });
    rig.set("f3", false);
    rig.scan(40);
    for next in ["f4", "f5", "f6"] {
        rig.set(next, true);
        rig.scan(60);
        rig.set(next, false);
        rig.scan(20);
    }
    rig.set("f7", true);
    rig.scan(250);
    let to_f7 = |d: &Decision| matches!(d, Decision::MoveCorrected { now, .. } if now == "f3-f7");
    let decided = rig.when(to_f7).expect("the crossing of f7 is decided");
    rig.set("f7", false);
    let lifted = rig.t + 10;
    let carried = lifted - decided;
    assert!(
        carried > 150 && carried < u64::from(settle_ms),
        "lifted {carried} ms after the decision"
    );
    rig.scan(20);
    rig.set("f8", false);
    rig.scan(1600);
    rig.set("f8", true);
    rig.scan(600);
    let battles: Vec<&Decision> = rig
        .log
        .iter()
        .filter(|(_, d)| battle(d))
        .map(|(_, d)| d)
        .collect();
    assert_eq!(battles.len(), 1, "{:?}", rig.log);
    assert_eq!(rig.ply(), 1, "one ply: {:?}", rig.log);
    assert!(
        rig.text().contains("Red Scout x Blue Miner"),
        "{}",
        rig.text()
    );
    for crossed in ["f3", "f4", "f5", "f6", "f7"] {
        assert!(!rig.holds(crossed), "{crossed}: {:?}", rig.log);
    }
}
