//! The umpire at boot with a newest journal that is empty, torn in its header or damaged: it
//! always starts, says what it found, keeps a byte-identical copy of anything it cuts or moves,
//! and resumes what is intact or starts a new game, as the players choose. Also the journals'
//! file modes and numbering. On the old code every one of these journals stopped
//! `Service::start` (nothing on the OLED; systemd gave up).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::fs;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use boards::stratego::{Deployment, Options, Variant, BLUE, RED};
use boards::Game;
use firmware::drivers::buttons::ButtonEvent;
use firmware::journal::{decode, JournalWriter, MemStore};
use firmware::platform::Scanner;
use firmware::referee::{
    rebuild, GameKind, Header, Record, RefereeConfig, SeededChance, SetupMode, SCHEMA,
};
use firmware::sensing::{Button, ButtonPress, LayoutSetup, Millis, Occupancy, SensorLayout};
use firmware::service::{ButtonSource, Hardware, JournalDir, Service};
use firmware::ui::Screen;

const RED_DUEL: &str = "2 3 9 3 M 2 . . . .\nS B . . . . . . . .\nF B . . . . . . . .";
const BLUE_DUEL: &str = "F . . . . . . . . .\nB B S . . . . . . .\n3 2 9 M 2 3 . . . .";

/// A board with nothing on it: the tests look at the referee's game, not at the hands.
struct EmptyBoard;
impl Scanner for EmptyBoard {
    fn scan(&mut self) -> Result<Occupancy, String> {
        Ok(Occupancy::EMPTY)
    }
}

#[derive(Clone, Default)]
struct Presses(Rc<RefCell<VecDeque<Button>>>);
impl ButtonSource for Presses {
    /// A whole short press in one poll: down, then up (the service hands the referee a press
    /// when the button comes up).
    fn poll(&mut self, now: Millis) -> Result<Vec<ButtonEvent>, String> {
        Ok(self
            .0
            .borrow_mut()
            .pop_front()
            .map(|button| {
                [
                    ButtonEvent::Pressed(ButtonPress { at: now, button }),
                    ButtonEvent::Released {
                        at: now,
                        button,
                        held_ms: 10,
                    },
                ]
            })
            .into_iter()
            .flatten()
            .collect())
    }
}

struct Rig {
    presses: Presses,
    service: Service<SeededChance>,
    now: u64,
}

impl Rig {
    fn start(dir: &JournalDir) -> Rig {
        let presses = Presses::default();
        let hardware = Hardware {
            scanner: Box::new(EmptyBoard),
            buttons: Some(Box::new(presses.clone())),
            tags: None,
            oled: None,
        };
        let service = Service::start(
            SensorLayout::new(LayoutSetup::grid(10, 10)).unwrap(),
            RefereeConfig::default(),
            || SeededChance::new(7),
            dir,
            hardware,
            100,
            Millis(0),
        )
        .expect("the umpire always starts");
        let mut rig = Rig {
            presses,
            service,
            now: 0,
        };
        rig.run(100);
        rig
    }

    fn run(&mut self, ms: u64) {
        for _ in 0..ms / 10 {
            self.now += 10;
            self.service.step(Millis(self.now));
        }
    }

    fn press(&mut self, b: Button) {
        self.presses.0.borrow_mut().push_back(b);
        self.run(50);
    }

    fn screen(&self) -> Screen {
        self.service.pipeline().screen().clone()
    }

    fn ply(&self) -> Option<u32> {
        self.service
            .pipeline()
            .referee()
            .position()
            .map(|p| p.ply())
    }
}

/// A fresh journal folder in the temp directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let path =
            std::env::temp_dir().join(format!("umpire-{name}-{}-{nanos}", std::process::id()));
        TempDir(path)
    }

    fn open(&self) -> JournalDir {
        JournalDir::open(&self.0).unwrap()
    }

    fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn header() -> Header {
    Header {
        schema: SCHEMA,
        game: GameKind::Stratego {
            options: Options::isf(Variant::Duel),
        },
        setup: SetupMode::RankGroups,
    }
}

/// A Duel journal with both set-ups and `moves` quiet moves (no attack), and the byte offset
/// where each record starts (set-ups first).
fn journal(moves: usize) -> (Vec<u8>, Vec<usize>) {
    let mut records = Vec::new();
    for (seat, text) in [(RED, RED_DUEL), (BLUE, BLUE_DUEL)] {
        records.push(Record::Deployed {
            seat,
            deployment: Deployment::parse(Variant::Duel, seat, text).unwrap(),
        });
    }
    let mut position = rebuild(header(), &records)
        .unwrap()
        .position()
        .unwrap()
        .clone();
    for n in 0..moves {
        let legal = position.legal_moves();
        let quiet: Vec<_> = legal
            .iter()
            .filter(|m| position.piece_at(m.to).is_none())
            .collect();
        let mv = *quiet[n * 7 % quiet.len()];
        position.play(&mv).unwrap();
        records.push(Record::Move(mv));
    }
    let mut writer = JournalWriter::create(MemStore::new(), &header()).unwrap();
    let mut starts = Vec::new();
    for r in &records {
        starts.push(writer.len_bytes());
        writer.append(r).unwrap();
    }
    (writer.into_store().into_bytes(), starts)
}

fn header_len() -> usize {
    journal(0).1[0]
}

/// An empty newest journal (the power went between creating the file and writing its header):
/// the umpire says so, moves it aside (kept, not deleted) and offers a new game, whose file
/// takes the next number.
#[test]
fn an_empty_newest_journal_is_kept_aside_and_a_new_game_offered() {
    let tmp = TempDir::new("boot-empty");
    let dir = tmp.open();
    fs::write(tmp.file("game-0001.umpj"), b"").unwrap();
    let mut rig = Rig::start(&dir);
    let Screen::Recovery {
        found,
        detail,
        entries,
        ..
    } = rig.screen()
    else {
        panic!("{:?}", rig.screen())
    };
    assert!(found.contains("never begun"), "{found}");
    assert_eq!(detail, "Kept as game-0001.umpj.damaged-1");
    assert_eq!(entries, ["New game"]);
    assert_eq!(tmp.names(), ["game-0001.umpj.damaged-1"]);
    rig.press(Button::Ok);
    assert!(
        matches!(rig.screen(), Screen::Choice { .. }),
        "{:?}",
        rig.screen()
    );
    // Stratego Duel, by rank groups: a new journal, numbered after the one kept aside.
    rig.press(Button::Die);
    rig.press(Button::Ok);
    rig.press(Button::Ok);
    assert!(
        matches!(rig.screen(), Screen::Setup { .. }),
        "{:?}",
        rig.screen()
    );
    assert_eq!(tmp.names(), ["game-0001.umpj.damaged-1", "game-0002.umpj"]);
}

/// Found in review: a newest journal that could not be read (here a folder in its place; on a
/// Pi a passing I/O error) was moved aside like a damaged one, and the live game was never
/// resumed again. It is left where it is, and the umpire still starts.
#[test]
fn a_journal_that_cannot_be_read_is_left_in_place() {
    let tmp = TempDir::new("boot-unreadable");
    let dir = tmp.open();
    fs::create_dir(tmp.file("game-0001.umpj")).unwrap();
    let rig = Rig::start(&dir);
    let Screen::Recovery {
        detail, entries, ..
    } = rig.screen()
    else {
        panic!("{:?}", rig.screen())
    };
    assert_eq!(
        detail,
        "game-0001.umpj left in place: the next start tries it again"
    );
    assert_eq!(entries, ["New game"]);
    assert_eq!(tmp.names(), ["game-0001.umpj"]);
}

/// A header torn at every offset: never a reason not to start; the torn bytes are kept aside
/// byte for byte, and a new game is offered.
#[test]
fn a_header_torn_at_every_offset_is_kept_aside_and_the_umpire_starts() {
    let (bytes, _) = journal(0);
    for cut in 0..header_len() {
        let tmp = TempDir::new("boot-torn");
        let dir = tmp.open();
        fs::write(tmp.file("game-0003.umpj"), &bytes[..cut]).unwrap();
        let rig = Rig::start(&dir);
        let Screen::Recovery { found, entries, .. } = rig.screen() else {
            panic!("cut at {cut}: {:?}", rig.screen())
        };
        assert!(found.contains("never begun"), "cut at {cut}: {found}");
        assert_eq!(entries, ["New game"], "cut at {cut}");
        assert_eq!(
            fs::read(tmp.file("game-0003.umpj.damaged-1")).unwrap(),
            &bytes[..cut],
            "cut at {cut}"
        );
        assert!(dir.games().unwrap().is_empty(), "cut at {cut}");
    }
}

/// Boots on a journal of 37 moves with one byte flipped in record `damaged` (an index among
/// all records, set-ups first); returns the rig, the folder and the journal's bytes.
fn boot_damaged(name: &str, damaged: usize) -> (Rig, TempDir, Vec<u8>) {
    let (mut bytes, starts) = journal(37);
    // A byte in the record's payload.
    bytes[starts[damaged] + 9] ^= 0x40;
    let tmp = TempDir::new(name);
    let dir = tmp.open();
    fs::write(tmp.file("game-0007.umpj"), &bytes).unwrap();
    let rig = Rig::start(&dir);
    (rig, tmp, bytes)
}

fn recovery(rig: &Rig) -> (String, Vec<String>, usize) {
    let Screen::Recovery {
        found,
        entries,
        selected,
        ..
    } = rig.screen()
    else {
        panic!("{:?}", rig.screen())
    };
    (found, entries, selected)
}

/// A damaged move in the middle: "19 of 37 moves intact"; Resume keeps a byte-identical copy,
/// cuts the damage off, and plays on from move 19 in the same file.
#[test]
fn a_damaged_move_in_the_middle_resumes_what_is_intact_after_keeping_a_copy() {
    let (mut rig, tmp, bytes) = boot_damaged("boot-middle", 2 + 19);
    let (found, entries, selected) = recovery(&rig);
    assert_eq!(found, "19 of 37 moves intact");
    assert_eq!(entries, ["Resume 19 moves", "New game"]);
    assert_eq!(selected, 0);
    assert_eq!(
        rig.ply(),
        None,
        "nothing is resumed before the players choose"
    );
    assert_eq!(
        fs::read(tmp.file("game-0007.umpj")).unwrap(),
        bytes,
        "nothing touched yet"
    );
    rig.press(Button::Back);
    assert!(matches!(rig.screen(), Screen::Recovery { .. }));
    rig.press(Button::Ok);
    assert_eq!(rig.ply(), Some(19), "{:?}", rig.screen());
    assert_eq!(
        fs::read(tmp.file("game-0007.umpj.damaged-1")).unwrap(),
        bytes,
        "the copy is byte-identical"
    );
    let cut = fs::read(tmp.file("game-0007.umpj")).unwrap();
    let recovered = decode::<Header, Record>(&cut).unwrap();
    assert_eq!(recovered.records.len(), 2 + 19);
    assert_eq!(cut[..], bytes[..cut.len()], "the intact part is unchanged");
    let rebuilt = rebuild(header(), &recovered.records).unwrap();
    assert_eq!(
        rebuilt.position(),
        rig.service.pipeline().referee().position(),
        "the intact game"
    );
    assert_eq!(tmp.names(), ["game-0007.umpj", "game-0007.umpj.damaged-1"]);
}

/// The last move damaged: "36 of 37 moves intact"; New game leaves the journal as it was and
/// numbers a fresh file.
#[test]
fn a_damaged_last_move_can_be_left_for_a_new_game() {
    let (mut rig, tmp, bytes) = boot_damaged("boot-end", 2 + 36);
    let (found, entries, _) = recovery(&rig);
    assert_eq!(found, "36 of 37 moves intact");
    assert_eq!(entries, ["Resume 36 moves", "New game"]);
    rig.press(Button::Die);
    assert_eq!(recovery(&rig).2, 1);
    rig.press(Button::Ok);
    assert!(
        matches!(rig.screen(), Screen::Choice { .. }),
        "{:?}",
        rig.screen()
    );
    rig.press(Button::Die);
    rig.press(Button::Ok);
    rig.press(Button::Ok);
    assert!(
        matches!(rig.screen(), Screen::Setup { .. }),
        "{:?}",
        rig.screen()
    );
    assert_eq!(tmp.names(), ["game-0007.umpj", "game-0008.umpj"]);
    assert_eq!(
        fs::read(tmp.file("game-0007.umpj")).unwrap(),
        bytes,
        "left as it was"
    );
}

/// The last move damaged, resumed: 36 moves, the copy kept.
#[test]
fn a_damaged_last_move_resumes_the_36_before_it() {
    let (mut rig, tmp, bytes) = boot_damaged("boot-end-resume", 2 + 36);
    rig.press(Button::Ok);
    assert_eq!(rig.ply(), Some(36), "{:?}", rig.screen());
    assert_eq!(
        fs::read(tmp.file("game-0007.umpj.damaged-1")).unwrap(),
        bytes
    );
}

/// A damaged set-up: nothing of play can be trusted; the screen says the set-up is damaged.
#[test]
fn a_damaged_set_up_says_so() {
    let (rig, _tmp, _) = boot_damaged("boot-setup", 1);
    let (found, entries, _) = recovery(&rig);
    assert_eq!(found, "the set-up is damaged: 1 of 2 armies intact");
    assert_eq!(entries, ["Resume the set-up", "New game"]);
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// Journals hold both secret set-ups: the folder (and any parent it creates) is 0700, a new
/// journal and every copy kept beside one 0600. On the old code: 0755 and 0644.
#[cfg(unix)]
#[test]
fn journals_and_their_folder_are_private_to_the_umpire() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = TempDir::new("modes");
    let nested = tmp.0.join("journals");
    let dir = JournalDir::open(&nested).unwrap();
    assert_eq!(mode(&tmp.0), 0o700);
    assert_eq!(mode(&nested), 0o700);
    let mut make = dir.maker();
    let store = make().unwrap();
    assert_eq!(mode(store.path()), 0o600);
    let copy = firmware::journal::keep_copy(store.path()).unwrap();
    assert_eq!(mode(&copy), 0o600);
    let aside = firmware::journal::set_aside(store.path()).unwrap();
    assert_eq!(mode(&aside), 0o600);
    // An existing folder open to others is closed.
    fs::set_permissions(&nested, fs::Permissions::from_mode(0o755)).unwrap();
    JournalDir::open(&nested).unwrap();
    assert_eq!(mode(&nested), 0o700);
}

/// A `game-4294967295.umpj` in the folder: the next game is 4294967296 (numbers are u64; the old
/// u32 overflowed); past u64, the lowest free number.
#[test]
fn game_numbers_do_not_overflow() {
    let tmp = TempDir::new("numbers");
    let dir = tmp.open();
    fs::write(tmp.file("game-4294967295.umpj"), journal(0).0).unwrap();
    let store = dir.maker()().unwrap();
    assert_eq!(store.path().file_name().unwrap(), "game-4294967296.umpj");
    fs::write(tmp.file("game-18446744073709551615.umpj"), journal(0).0).unwrap();
    let store = dir.maker()().unwrap();
    assert_eq!(store.path().file_name().unwrap(), "game-0001.umpj");
    let games = dir.games().unwrap();
    assert_eq!(
        games.last().unwrap().file_name().unwrap(),
        "game-18446744073709551615.umpj",
        "the newest is the highest number"
    );
}
