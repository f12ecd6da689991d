//! The umpire at boot with a newest journal that is empty, torn in its header or damaged: it
//! always starts, says what it found, keeps a byte-identical copy of anything it cuts or moves,
//! and resumes what is intact or starts a new game, as the players choose. Also the journals'
//! file modes and numbering. On the old code every one of these journals stopped
//! `Service::start` (nothing on the OLED; systemd gave up).

use std::cell::RefCell;
use std::collections::{BTreeMap, VecDeque};
use std::fs;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use boards::stratego::{Deployment, Options, Variant, BLUE, RED};
use boards::Game;
use firmware::drivers::buttons::ButtonEvent;
use firmware::inputs::ButtonSource;
use firmware::inputs::Scanner;
use firmware::journal::{decode, JournalWriter, MemStore};
use firmware::referee::{
    rebuild, Decision, GameFile, GameKind, Header, Record, RefereeConfig, SeededChance, SetupMode,
    SCHEMA,
};
use firmware::sensing::{
    Button, ButtonPress, LayoutSetup, Millis, Occupancy, Place, SensedCell, SensingConfig,
    SensorInput, SensorLayout, TagFailure, TagRead, TagUid,
};
use firmware::service::{Hardware, JournalDir, Service, TagSource};
use firmware::ui::Screen;

mod recorded;

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

/// A board whose pieces stand on the cells it holds (a hand may change them between steps).
#[derive(Clone)]
struct StandingBoard(Rc<std::cell::Cell<Occupancy>>);
impl Scanner for StandingBoard {
    fn scan(&mut self) -> Result<Occupancy, String> {
        Ok(self.0.get())
    }
}

/// NFC readers under every square, answering the tag of the piece standing there (or no tag);
/// each cell asked about is noted.
#[derive(Clone, Default)]
struct Readers {
    tags: BTreeMap<SensedCell, TagUid>,
    asked: Rc<RefCell<Vec<SensedCell>>>,
    /// What is wrong with the readers, if anything.
    fault: Option<String>,
}
impl TagSource for Readers {
    fn read(&mut self, cells: &[SensedCell], now: Millis) -> Vec<SensorInput> {
        self.asked.borrow_mut().extend_from_slice(cells);
        cells
            .iter()
            .map(|&cell| {
                let result = self.tags.get(&cell).copied().ok_or(TagFailure::NoTag);
                SensorInput::Tag(TagRead {
                    at: now,
                    cell,
                    result,
                })
            })
            .collect()
    }

    fn fault(&self) -> Option<String> {
        self.fault.clone()
    }
}

/// The board a rig scans: none (empty), or one whose pieces a hand may move.
struct Board(Option<StandingBoard>);
impl From<Occupancy> for Board {
    fn from(occupied: Occupancy) -> Board {
        Board((!occupied.is_empty()).then(|| StandingBoard(Rc::new(occupied.into()))))
    }
}
impl From<StandingBoard> for Board {
    fn from(board: StandingBoard) -> Board {
        Board(Some(board))
    }
}

struct Rig {
    presses: Presses,
    service: Service<SeededChance>,
    now: u64,
    /// The referee's decisions at every step.
    decisions: Vec<Decision>,
}

impl Rig {
    fn start(dir: &JournalDir) -> Rig {
        Rig::start_on(dir, Occupancy::EMPTY, None, RefereeConfig::default())
    }

    /// Starts on a board with pieces standing on `occupied`, with NFC `readers` under every
    /// square if given. No step is taken.
    fn boot(
        dir: &JournalDir,
        occupied: impl Into<Board>,
        readers: Option<Readers>,
        config: RefereeConfig,
    ) -> Rig {
        let Board(board) = occupied.into();
        let presses = Presses::default();
        let mut layout = LayoutSetup::grid(10, 10);
        if readers.is_some() {
            layout = layout.with_tag_readers_everywhere();
        }
        let scanner: Box<dyn Scanner> = match board {
            None => Box::new(EmptyBoard),
            Some(board) => Box::new(board),
        };
        let hardware = Hardware {
            scanner,
            buttons: Some(Box::new(presses.clone())),
            tags: readers.map(|r| Box::new(r) as Box<dyn TagSource>),
            oled: None,
        };
        let service = Service::start(
            SensorLayout::new(layout).unwrap(),
            SensingConfig::default(),
            config,
            || SeededChance::new(7),
            dir,
            hardware,
            100,
            Millis(0),
        )
        .expect("the umpire always starts");
        Rig {
            presses,
            service,
            now: 0,
            decisions: Vec::new(),
        }
    }

    /// As [`Rig::boot`], then 100 ms of steps.
    fn start_on(
        dir: &JournalDir,
        occupied: impl Into<Board>,
        readers: Option<Readers>,
        config: RefereeConfig,
    ) -> Rig {
        let mut rig = Rig::boot(dir, occupied, readers, config);
        rig.run(100);
        rig
    }

    fn run(&mut self, ms: u64) {
        for _ in 0..ms / 10 {
            self.now += 10;
            let step = self.service.step(Millis(self.now));
            self.decisions.extend(step.decisions);
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

// ----- the board standing at boot ---------------------------------------------------------------

/// The board of the game journaled in `bytes` (its intact records): the cells its pieces
/// stand on, and a tag per piece registered in the referee's config.
fn standing(bytes: &[u8]) -> (Occupancy, BTreeMap<SensedCell, TagUid>, RefereeConfig) {
    let recovered = decode::<Header, Record>(bytes).unwrap();
    let rebuilt = rebuild(recovered.header, &recovered.records).unwrap();
    let position = rebuilt.position().unwrap();
    let mut config = RefereeConfig::default();
    let mut occupied = Occupancy::EMPTY;
    let mut tags = BTreeMap::new();
    for (square, piece) in position.pieces() {
        let cell = SensedCell::new(square.index() as u16);
        let uid = TagUid::new(&[0x04, 0xA0, 0x01, square.index() as u8]).unwrap();
        occupied.set(cell, true);
        tags.insert(cell, uid);
        config.tags.register(uid, piece);
    }
    (occupied, tags, config)
}

fn places(occupied: Occupancy) -> std::collections::BTreeSet<Place> {
    let layout = SensorLayout::new(LayoutSetup::grid(10, 10)).unwrap();
    layout.places_in(&occupied).map(|(_, p)| p).collect()
}

/// A quiet move the side to move may make in the game journaled in `bytes`.
fn quiet_move(bytes: &[u8]) -> (SensedCell, SensedCell) {
    let recovered = decode::<Header, Record>(bytes).unwrap();
    let rebuilt = rebuild(recovered.header, &recovered.records).unwrap();
    let position = rebuilt.position().unwrap();
    let legal = position.legal_moves();
    let mv = legal
        .iter()
        .find(|m| position.piece_at(m.to).is_none())
        .unwrap();
    let cell = |s: boards::stratego::Square| SensedCell::new(s.index() as u16);
    (cell(mv.from), cell(mv.to))
}

/// After a restart, the sensing model starts on the board as it stands, so the resumed referee
/// hears no standing piece placed anew, and a piece lifted at once is heard lifted. On the old
/// code the service started an empty sensing model beside the resumed referee: the lift came
/// before the model had reported the piece placed, was dropped as undone, and the referee
/// believed the piece stood there until it was put back.
#[test]
fn after_a_restart_a_piece_lifted_at_once_is_heard_lifted() {
    let (bytes, _) = journal(5);
    let (occupied, _, _) = standing(&bytes);
    let (from, _) = quiet_move(&bytes);
    let tmp = TempDir::new("boot-lift");
    let dir = tmp.open();
    fs::write(tmp.file("game-0001.umpj"), &bytes).unwrap();
    let board = StandingBoard(Rc::new(occupied.into()));
    let mut rig = Rig::boot(&dir, board.clone(), None, RefereeConfig::default());
    assert_eq!(rig.ply(), Some(5));
    assert_eq!(rig.service.pipeline().sensing().reported(), occupied);
    assert_eq!(*rig.service.pipeline().referee().sensed(), places(occupied));
    let Screen::Play { prompt, .. } = rig.screen() else {
        panic!("the game, the board matching: {:?}", rig.screen())
    };
    assert_eq!(prompt, "Blue to move");
    // The side to move lifts a piece 10 ms after the start.
    rig.run(10);
    let mut lifted = occupied;
    lifted.set(from, false);
    board.0.set(lifted);
    rig.run(500);
    assert_eq!(
        *rig.service.pipeline().referee().sensed(),
        places(lifted),
        "the lift was heard"
    );
    assert!(
        !rig.decisions
            .iter()
            .any(|d| matches!(d, Decision::Moved { .. } | Decision::Refused { .. })),
        "{:?}",
        rig.decisions
    );
}

/// With NFC readers, the tags of the pieces standing at a restart are read once, while the
/// service starts, and never again while they stand; the resumed referee hears them as reads,
/// so it knows the pieces carry tags: a square that then closes with no tag is a ghost, not
/// the landing of the piece in hand. On the old code no tag was read at the start: the first
/// scans asked for every standing piece's tag, as newly placed.
#[test]
fn with_nfc_the_standing_pieces_tags_are_read_once_at_boot() {
    let (bytes, _) = journal(5);
    let (occupied, tags, config) = standing(&bytes);
    let (from, to) = quiet_move(&bytes);
    let tmp = TempDir::new("boot-nfc");
    let dir = tmp.open();
    fs::write(tmp.file("game-0001.umpj"), &bytes).unwrap();
    let readers = Readers {
        tags,
        ..Readers::default()
    };
    let asked = readers.asked.clone();
    let board = StandingBoard(Rc::new(occupied.into()));
    let mut rig = Rig::boot(&dir, board.clone(), Some(readers), config);
    let standing_cells: Vec<SensedCell> = occupied.iter().collect();
    assert_eq!(
        *asked.borrow(),
        standing_cells,
        "each read once, at the start"
    );
    rig.run(1000);
    assert_eq!(*asked.borrow(), standing_cells, "and never again");
    assert_eq!(rig.decisions, []);
    let Screen::Play { prompt, .. } = rig.screen() else {
        panic!("{:?}", rig.screen())
    };
    assert_eq!(prompt, "Blue to move");
    // The piece in hand; a square it may move to closes, but its reader finds no tag.
    let mut ghost = occupied;
    ghost.set(from, false);
    board.0.set(ghost);
    rig.run(300);
    ghost.set(to, true);
    board.0.set(ghost);
    rig.run(600);
    assert!(
        rig.decisions
            .iter()
            .any(|d| matches!(d, Decision::Ghost { .. })),
        "{:?}",
        rig.decisions
    );
    assert!(
        !rig.decisions
            .iter()
            .any(|d| matches!(d, Decision::Moved { .. })),
        "{:?}",
        rig.decisions
    );
    assert_eq!(rig.ply(), Some(5));
}

/// A damaged journal at a restart: the board standing (the intact game's) is read once at the
/// start, tags and all, and resuming the intact part shows the game, the board matching, with
/// no tag read again. On the old code the tags were read by the first scans instead.
#[test]
fn resuming_a_damaged_journal_plays_on_the_board_read_at_boot() {
    let (mut bytes, starts) = journal(37);
    bytes[starts[2 + 19] + 9] ^= 0x40;
    let (occupied, tags, config) = standing(&bytes);
    let tmp = TempDir::new("boot-nfc-damaged");
    let dir = tmp.open();
    fs::write(tmp.file("game-0007.umpj"), &bytes).unwrap();
    let readers = Readers {
        tags,
        ..Readers::default()
    };
    let asked = readers.asked.clone();
    let mut rig = Rig::boot(&dir, occupied, Some(readers), config);
    let standing_cells: Vec<SensedCell> = occupied.iter().collect();
    assert_eq!(*asked.borrow(), standing_cells);
    let (found, _, _) = recovery(&rig);
    assert_eq!(found, "19 of 37 moves intact");
    rig.press(Button::Ok);
    assert_eq!(rig.ply(), Some(19));
    assert!(
        matches!(rig.screen(), Screen::Play { .. }),
        "the board matches: {:?}",
        rig.screen()
    );
    rig.run(1000);
    assert_eq!(*asked.borrow(), standing_cells, "no tag read again");
    assert_eq!(rig.service.pipeline().sensing().reported(), occupied);
}

/// Nothing to resume (the newest journal is empty) with pieces on the board: the referee,
/// starting afresh, knows the board from the start (it hears each standing piece placed once,
/// its tag read once), and the menu follows. On the old code it knew nothing of the board
/// until the first scans had settled.
#[test]
fn with_nothing_to_resume_the_fresh_referee_knows_the_board_at_once() {
    let (bytes, _) = journal(5);
    let (occupied, tags, config) = standing(&bytes);
    let tmp = TempDir::new("boot-nothing");
    let dir = tmp.open();
    fs::write(tmp.file("game-0001.umpj"), b"").unwrap();
    let readers = Readers {
        tags,
        ..Readers::default()
    };
    let asked = readers.asked.clone();
    let mut rig = Rig::boot(&dir, occupied, Some(readers), config);
    assert_eq!(*rig.service.pipeline().referee().sensed(), places(occupied));
    let (found, _, _) = recovery(&rig);
    assert!(found.contains("never begun"), "{found}");
    rig.run(1000);
    assert_eq!(asked.borrow().len(), occupied.iter().count(), "read once");
    rig.press(Button::Ok);
    assert!(
        matches!(rig.screen(), Screen::Choice { .. }),
        "{:?}",
        rig.screen()
    );
}

/// A tag reader that fails while the standing pieces' tags are read at boot is logged with the
/// first step, once, as it would be from a scan's reads.
#[test]
fn a_reader_failing_at_boot_is_logged_with_the_first_step() {
    let (bytes, _) = journal(5);
    let (occupied, _, config) = standing(&bytes);
    let tmp = TempDir::new("boot-nfc-fault");
    let dir = tmp.open();
    fs::write(tmp.file("game-0001.umpj"), &bytes).unwrap();
    let readers = Readers {
        fault: Some("the reader at 0x28 did not answer".to_string()),
        ..Readers::default()
    };
    let mut rig = Rig::boot(&dir, occupied, Some(readers), config);
    let first = rig.service.step(Millis(0));
    assert_eq!(first.trouble.len(), 1, "{:?}", first.trouble);
    assert!(
        first.trouble[0].contains("the reader at 0x28 did not answer"),
        "{:?}",
        first.trouble
    );
    rig.run(500);
    assert!(
        matches!(rig.screen(), Screen::Play { .. }),
        "{:?}",
        rig.screen()
    );
}

/// A Waterloo game begun on a layout file that was edited before the restart: the umpire says
/// what to do (put the file back as it was, or start a new game), never resumes it on another
/// board, and leaves the journal in place, so the next start on its layout resumes it. Fails on
/// the code before: the game resumed on the edited board without a word.
#[test]
fn a_game_begun_on_another_layout_waits_for_its_layout() {
    use firmware::referee::games::{BoardLayout, LayoutSource};
    let path = "/etc/umpire/waterloo-layout.txt";
    let (name, kind) = recorded::games()
        .into_iter()
        .find(|(name, _)| name == "waterloo-basic")
        .expect("a Waterloo game");
    let game = recorded::record(&name, kind, 1815, 12);
    // Its layout as today's journals hold it (the record the builds before `Record::Files`
    // wrote): the game is kept waiting for its layout all the same.
    let layout = recorded::LegacyFiles::Layout {
        source: path.to_string(),
        text: boards::waterloo::DEFAULT_LAYOUT.to_string(),
    };
    let tmp = TempDir::new("boot-other-layout");
    let dir = tmp.open();
    fs::write(tmp.file("game-0001.umpj"), game.bytes_after(&layout)).unwrap();
    let on = |text: &str| RefereeConfig {
        waterloo_layout: BoardLayout::read(text, LayoutSource::File(path.into())).unwrap(),
        ..RefereeConfig::default()
    };
    let edited = on("# our edition\nsetup_rows: 3\n");
    let rig = Rig::start_on(&dir, Occupancy::EMPTY, None, edited);
    let Screen::Recovery {
        found,
        detail,
        entries,
        ..
    } = rig.screen()
    else {
        panic!("{:?}", rig.screen())
    };
    assert_eq!(
        found,
        "cannot be resumed: /etc/umpire/waterloo-layout.txt was changed since this game began \
         on it: put it back as it was, or start a new game"
    );
    assert_eq!(
        detail,
        "game-0001.umpj left in place: the next start on its layout resumes it"
    );
    assert_eq!(entries, ["New game"]);
    assert!(!rig.service.pipeline().referee().in_play());
    assert_eq!(tmp.names(), ["game-0001.umpj"]);
    drop(rig);
    // The file put back as it was: the game resumes.
    let rig = Rig::start_on(
        &dir,
        Occupancy::EMPTY,
        None,
        on(boards::waterloo::DEFAULT_LAYOUT),
    );
    assert!(
        rig.service.pipeline().referee().in_play(),
        "{:?}",
        rig.screen()
    );
}

/// A Sa Belle Alliance game begun on a card file that was edited before the restart: the
/// umpire says what to do (put the file back as it was, or start a new game), never resumes it
/// with other cards, and leaves the journal in place, so the next start on its cards resumes
/// it. Fails on the code before: the game resumed on the edited cards without a word.
#[test]
fn a_sba_game_begun_on_other_cards_waits_for_its_cards() {
    use firmware::referee::games::sba::{SbaFile, SbaSet, DEFAULT_LAYOUT};
    let path = "/etc/umpire/sba-cards.toml";
    let (name, kind) = recorded::games()
        .into_iter()
        .find(|(_, kind)| matches!(kind, GameKind::Sba { .. }))
        .expect("a Sa Belle Alliance game");
    let mut game = recorded::record(&name, kind, 1815, 12);
    game.records.insert(
        0,
        Record::Files(vec![
            GameFile {
                key: "cards".to_string(),
                source: path.to_string(),
                text: boards::sba::EXAMPLE_CARDS.to_string(),
            },
            GameFile {
                key: "layout".to_string(),
                source: "the shipped layout".to_string(),
                text: DEFAULT_LAYOUT.to_string(),
            },
        ]),
    );
    let tmp = TempDir::new("boot-other-cards");
    let dir = tmp.open();
    fs::write(tmp.file("game-0001.umpj"), game.bytes()).unwrap();
    let on = |cards: &str| RefereeConfig {
        sba_set: SbaSet::read(
            SbaFile {
                source: path.to_string(),
                text: cards.to_string(),
            },
            SbaFile {
                source: "the shipped layout".to_string(),
                text: DEFAULT_LAYOUT.to_string(),
            },
        )
        .unwrap(),
        ..RefereeConfig::default()
    };
    let edited = on(&boards::sba::EXAMPLE_CARDS.replace("napoleon = 2", "napoleon = 3"));
    let rig = Rig::start_on(&dir, Occupancy::EMPTY, None, edited);
    let Screen::Recovery {
        found,
        detail,
        entries,
        ..
    } = rig.screen()
    else {
        panic!("{:?}", rig.screen())
    };
    assert_eq!(
        found,
        "cannot be resumed: /etc/umpire/sba-cards.toml was changed since this game began on \
         it: put it back as it was, or start a new game"
    );
    assert_eq!(
        detail,
        "game-0001.umpj left in place: the next start on its cards resumes it"
    );
    assert_eq!(entries, ["New game"]);
    assert!(!rig.service.pipeline().referee().in_play());
    assert_eq!(tmp.names(), ["game-0001.umpj"]);
    drop(rig);
    // The file put back as it was: the game resumes.
    let rig = Rig::start_on(&dir, Occupancy::EMPTY, None, on(boards::sba::EXAMPLE_CARDS));
    assert!(
        rig.service.pipeline().referee().in_play(),
        "{:?}",
        rig.screen()
    );
}
