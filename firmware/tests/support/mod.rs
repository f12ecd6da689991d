//! The table the table-game tests play at: the referee fed synthetic board events (lifts,
//! placements, settles, buttons, the clock), 200 ms apart, every decision logged and handed to
//! the game's own checks. Each game's file adds its gestures and its checks.

use std::collections::BTreeSet;

use firmware::journal::{decode, MemStore};
use firmware::referee::table::{Session, TableGame};
use firmware::referee::{screen_text, Chance, Decision, Header, Record, Referee, RefereeConfig};
use firmware::sensing::{
    BoardEvent, Button, Millis, Occupancy, Place, SensedCell, SensorLayout, TagUid,
};
use firmware::ui::Screen;

/// What a game's tests check after every event, beside the referee.
pub trait Checks {
    /// The table game played.
    type Game: TableGame;

    /// Looks at the referee after it handled an event (or a tick) and decided `out`.
    fn after<C: Chance>(&mut self, referee: &Referee<MemStore, C>, out: &[Decision]);
}

/// The referee, the sensors' layout, the clock, every decision so far, and the game's checks.
pub struct Table<C: Chance, K: Checks> {
    pub referee: Referee<MemStore, C>,
    pub layout: SensorLayout,
    pub t: u64,
    pub log: Vec<Decision>,
    pub checks: K,
}

/// The session of `G` the referee plays, if it plays one.
pub fn session<G: TableGame, C: Chance>(referee: &Referee<MemStore, C>) -> Option<&Session<G>> {
    referee
        .table_session()
        .and_then(|s| s.downcast_ref::<Session<G>>())
}

/// The actions `out` played, by their labels.
pub fn acted(out: &[Decision]) -> Vec<String> {
    out.iter()
        .filter_map(|d| match d {
            Decision::Acted { action, .. } => Some(action.clone()),
            _ => None,
        })
        .collect()
}

impl<C: Chance, K: Checks> Table<C, K> {
    /// A referee with the default configuration and a journal in memory, at the game menu.
    pub fn at_the_menu(chance: C, layout: SensorLayout, checks: K) -> Table<C, K> {
        Table {
            referee: Referee::new(RefereeConfig::default(), chance, || Ok(MemStore::new())),
            layout,
            t: 0,
            log: Vec::new(),
            checks,
        }
    }

    /// Chooses the table game `name` from the menu with the buttons, then its `variant`-th
    /// entry: Die down to each, OK.
    pub fn choose_game(&mut self, name: &str, variant: usize) {
        let game = firmware::referee::games::menu()
            .iter()
            .position(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("{name} is on the menu"));
        // Stratego Original and Stratego Duel come first, then the table games.
        for _ in 0..2 + game {
            self.press(Button::Die);
        }
        assert!(
            self.text().contains(&format!("> {name}")),
            "{}",
            self.text()
        );
        self.press(Button::Ok);
        for _ in 0..variant {
            self.press(Button::Die);
        }
        let out = self.press(Button::Ok);
        assert!(
            out.iter()
                .any(|d| matches!(d, Decision::GameChosen { game } if game.starts_with(name))),
            "{out:?}"
        );
    }

    pub fn at(&mut self) -> Millis {
        self.t += 200;
        Millis(self.t)
    }

    pub fn cell(&self, place: Place) -> SensedCell {
        self.layout.cell(place).expect("every place has a sensor")
    }

    pub fn feed(&mut self, event: BoardEvent) -> Vec<Decision> {
        let out = self.referee.handle(&event);
        self.after(&out);
        out
    }

    fn after(&mut self, out: &[Decision]) {
        self.log.extend(out.iter().cloned());
        self.checks.after(&self.referee, out);
    }

    pub fn lift(&mut self, place: Place) -> Vec<Decision> {
        let at = self.at();
        let cell = self.cell(place);
        self.feed(BoardEvent::Lifted { cell, place, at })
    }

    pub fn put(&mut self, place: Place) -> Vec<Decision> {
        self.put_tagged(place, None)
    }

    /// A piece placed on `place`, its tag read (with NFC) as it lands.
    pub fn put_tagged(&mut self, place: Place, tag: Option<TagUid>) -> Vec<Decision> {
        let at = self.at();
        let cell = self.cell(place);
        self.feed(BoardEvent::Placed {
            cell,
            place,
            at,
            tag,
        })
    }

    pub fn settle(&mut self) -> Vec<Decision> {
        let at = self.at();
        self.feed(BoardEvent::Settled {
            at,
            occupancy: Occupancy::EMPTY,
        })
    }

    pub fn press(&mut self, button: Button) -> Vec<Decision> {
        let at = self.at();
        self.feed(BoardEvent::Button { button, at })
    }

    /// `ms` pass without an event.
    pub fn wait(&mut self, ms: u64) -> Vec<Decision> {
        self.t += ms;
        let out = self.referee.tick(Millis(self.t));
        self.after(&out);
        out
    }

    /// Lifts `a`, settles, lifts `b`, settles (an attack, or a join), and holds both up for
    /// the attack hold.
    pub fn lift_two(&mut self, a: Place, b: Place) -> Vec<Decision> {
        let mut out = self.lift(a);
        out.extend(self.settle());
        out.extend(self.lift(b));
        out.extend(self.settle());
        out.extend(self.hold());
        out
    }

    /// The hands make the board the one the umpire expects (its public board): every extra
    /// piece lifted, every missing one put down, then the board settles.
    #[allow(dead_code)] // not every game's suite
    pub fn match_board(&mut self) {
        let expected: BTreeSet<Place> = self.table().board().into_keys().collect();
        let sensed = self.referee.sensed().clone();
        for extra in sensed.difference(&expected) {
            self.lift(*extra);
        }
        for missing in expected.difference(&sensed) {
            self.put(*missing);
        }
        self.settle();
        assert_eq!(self.referee.sensed(), &expected);
    }

    /// The pieces up stay up until the attack hold has passed since the last lift.
    pub fn hold(&mut self) -> Vec<Decision> {
        self.wait(u64::from(RefereeConfig::default().attack_hold_ms))
    }

    pub fn text(&self) -> String {
        screen_text(self.referee.screen())
    }

    pub fn session(&self) -> Option<&Session<K::Game>> {
        session(&self.referee)
    }

    /// The table game in play.
    pub fn table(&self) -> &K::Game {
        self.session()
            .and_then(Session::game)
            .expect("the game is in play")
    }

    /// The actions played so far.
    pub fn actions(&self) -> u32 {
        self.session().and_then(Session::actions).unwrap_or(0)
    }

    /// Picks the entry labelled `label` in the open menu: Die down to it, then OK.
    pub fn pick(&mut self, label: &str) -> Vec<Decision> {
        let Screen::Choice {
            entries, selected, ..
        } = self.referee.screen().clone()
        else {
            panic!("no menu is open: {}", self.text());
        };
        let unique: std::collections::BTreeSet<&String> = entries.iter().collect();
        assert_eq!(
            unique.len(),
            entries.len(),
            "two entries read the same: {entries:?}"
        );
        let index = entries
            .iter()
            .position(|e| e == label)
            .unwrap_or_else(|| panic!("no entry {label:?} in {entries:?}"));
        let mut out = Vec::new();
        for _ in 0..(index + entries.len() - selected) % entries.len() {
            out.extend(self.press(Button::Die));
        }
        out.extend(self.press(Button::Ok));
        out
    }

    /// Opens the OK menu and picks `label`.
    pub fn choose_action(&mut self, label: &str) -> Vec<Decision> {
        let mut out = self.press(Button::Ok);
        out.extend(self.pick(label));
        out
    }

    /// The records journaled so far.
    pub fn records(&self) -> Vec<Record> {
        let bytes = self
            .referee
            .journal()
            .expect("a journal")
            .store()
            .as_bytes();
        decode::<Header, Record>(bytes)
            .expect("the journal decodes")
            .records
    }

    /// The referee a restart makes, at `now`, of this one's journal and the sensed board, and
    /// what it decided on resuming.
    pub fn restarted<D: Chance>(
        &self,
        chance: D,
        now: Millis,
    ) -> (Referee<MemStore, D>, Vec<Decision>) {
        let bytes = self
            .referee
            .journal()
            .expect("a journal")
            .store()
            .as_bytes()
            .to_vec();
        Referee::resume(
            RefereeConfig::default(),
            chance,
            || Ok(MemStore::new()),
            MemStore::from_bytes(bytes),
            self.referee.sensed().iter().copied(),
            now,
        )
        .expect("resumes")
    }
}

/// Runs `job` on every item of `jobs`, spread over the machine's cores, and gives back what
/// each thread's jobs added to its own `A` (from `A::default()`). A thread takes the next item
/// left, so a few long games do not pile up on one core; the caller merges the results, which
/// must not depend on the order the items ran in. A job that panics stops the others taking
/// more, and its panic is the test's.
#[allow(dead_code)] // for the random-game suites
pub fn spread<J: Sync, A: Default + Send>(jobs: &[J], job: impl Fn(&J, &mut A) + Sync) -> Vec<A> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    /// Raises the flag when its thread unwinds.
    struct Stop<'a>(&'a AtomicBool);
    impl Drop for Stop<'_> {
        fn drop(&mut self) {
            if std::thread::panicking() {
                self.0.store(true, Ordering::Relaxed);
            }
        }
    }

    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, jobs.len().max(1));
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let _stop = Stop(&stop);
                    let mut own = A::default();
                    while !stop.load(Ordering::Relaxed) {
                        let Some(item) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) else {
                            break;
                        };
                        job(item, &mut own);
                    }
                    own
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}
