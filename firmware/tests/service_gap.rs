//! The scan loop keeps its rate while the OLED, the journal and the NFC readers are slow: a
//! game's set-up and moves played through the service, in real time, over mock buses as slow as
//! real ones can be (an SSD1306 whose every I2C write takes 5 ms per 32 bytes, an SD card whose
//! sync takes 80 ms, NFC reads of 30 ms each), with the worst gap between two scans measured;
//! and again with the phone pages on and ten phones on loopback.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use boards::stratego::{Deployment, Rank, Square, Variant, BLUE, RED};
use embedded_hal::i2c::{ErrorType, I2c, Operation, SevenBitAddress};
use firmware::display::Display;
use firmware::drivers::buttons::ButtonEvent;
use firmware::drivers::reed_matrix::OccupancyScanner;
use firmware::inputs::ButtonSource;
use firmware::inputs::Scanner;
use firmware::referee::{Decision, RefereeConfig, SeededChance};
use firmware::scan_thread::ScanThread;
use firmware::sensing::{
    Button, ButtonPress, LayoutSetup, Millis, Occupancy, SensedCell, SensingConfig, SensorInput,
    SensorLayout, TagFailure, TagRead,
};
use firmware::service::{Hardware, JournalDir, Service, TagSource};
use firmware::sim::SimBoard;
use firmware::ui::Screen;
use firmware::web::server::Server;
use firmware::web::{Publisher, Slot};

/// The scan rate the test runs at (the configuration's default).
const HZ: u32 = 200;
/// One scan period at [`HZ`], in ms.
const PERIOD_MS: u64 = 1000 / HZ as u64;
/// What the worst gap may exceed a period by: the scan thread's wake-up on a loaded machine
/// (measured up to 24 ms on 2 cores shared with builds at a load of 6). Under QEMU (the ARM
/// targets' test runs) every instruction is emulated, so it gets twice the room, still under
/// one journal sync. A slow step costs 80-190 ms on the buses below, so the old loop misses it
/// by far.
const SLACK_MS: u64 = if cfg!(target_arch = "x86_64") { 35 } else { 70 };

/// One journal sync on the slow buses below, in ms: the old loop cannot scan while it lasts.
const SYNC_MS: u64 = 80;

/// The board, shared with the scan thread, noting when each scan read it.
#[derive(Clone)]
struct TimedBoard {
    board: Arc<Mutex<SimBoard>>,
    scans: Arc<Mutex<Vec<Instant>>>,
}
impl Scanner for TimedBoard {
    fn scan(&mut self) -> Result<Occupancy, String> {
        self.scans.lock().unwrap().push(Instant::now());
        self.board
            .lock()
            .unwrap()
            .read_occupancy()
            .map_err(|e| e.to_string())
    }
}

/// Buttons playing a script of acts, one per poll.
#[derive(Clone, Default)]
struct Presses(Arc<Mutex<VecDeque<(bool, Button)>>>);
impl ButtonSource for Presses {
    fn poll(&mut self, now: Millis) -> Result<Vec<ButtonEvent>, String> {
        let act = self.0.lock().unwrap().pop_front();
        Ok(act
            .map(|(down, button)| {
                if down {
                    ButtonEvent::Pressed(ButtonPress { at: now, button })
                } else {
                    ButtonEvent::Released {
                        at: now,
                        button,
                        held_ms: 10,
                    }
                }
            })
            .into_iter()
            .collect())
    }
}

/// An I2C bus to the OLED at 5 ms per 32 bytes written (a slow, stretched 400 kHz bus).
struct SlowI2c;
impl ErrorType for SlowI2c {
    type Error = Infallible;
}
impl I2c<SevenBitAddress> for SlowI2c {
    fn transaction(
        &mut self,
        _address: u8,
        operations: &mut [Operation<'_>],
    ) -> Result<(), Self::Error> {
        let bytes: usize = operations
            .iter()
            .map(|op| match op {
                Operation::Write(b) => b.len(),
                Operation::Read(b) => b.len(),
            })
            .sum();
        std::thread::sleep(Duration::from_micros(bytes as u64 * 5_000 / 32));
        Ok(())
    }
}

/// NFC readers under every square taking 30 ms a read, finding no tag (pieces untagged).
struct SlowReaders;
impl TagSource for SlowReaders {
    fn read(&mut self, cells: &[SensedCell], now: Millis) -> Vec<SensorInput> {
        cells
            .iter()
            .map(|&cell| {
                std::thread::sleep(Duration::from_millis(30));
                SensorInput::Tag(TagRead {
                    at: now,
                    cell,
                    result: Err(TagFailure::NoTag),
                })
            })
            .collect()
    }
}

/// A service over the slow buses, on the real clock.
struct Rig {
    board: Arc<Mutex<SimBoard>>,
    scans: Arc<Mutex<Vec<Instant>>>,
    presses: Presses,
    service: Service<SeededChance>,
    epoch: Instant,
    decisions: Vec<Decision>,
    trouble: Vec<String>,
    _tmp: TempDir,
}

struct TempDir(std::path::PathBuf);
impl Drop for TempDir {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

impl Rig {
    /// Starts the service; with `threaded`, the switches and buttons are read by a
    /// [`ScanThread`] (as `umpire run` does), else on the step's own thread (the old loop).
    fn start(name: &str, threaded: bool) -> Rig {
        let tmp = std::env::temp_dir().join(format!("umpire-gap-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        let dir = JournalDir::open(&tmp)
            .unwrap()
            .with_slow_sync(Duration::from_millis(SYNC_MS));
        let board = Arc::new(Mutex::new(SimBoard::new(10, 10)));
        let scans = Arc::new(Mutex::new(Vec::new()));
        let presses = Presses::default();
        let timed = TimedBoard {
            board: board.clone(),
            scans: scans.clone(),
        };
        let epoch = Instant::now();
        let (scanner, buttons): (Box<dyn Scanner>, Option<Box<dyn ButtonSource>>) = if threaded {
            let thread =
                ScanThread::spawn(Box::new(timed), Some(Box::new(presses.clone())), HZ, epoch)
                    .unwrap();
            (Box::new(thread), None)
        } else {
            (Box::new(timed), Some(Box::new(presses.clone())))
        };
        let hardware = Hardware {
            scanner,
            buttons,
            tags: Some(Box::new(SlowReaders)),
            oled: Some(Box::new(Display::new(SlowI2c))),
        };
        let layout =
            SensorLayout::new(LayoutSetup::grid(10, 10).with_tag_readers_everywhere()).unwrap();
        let service = Service::start(
            layout,
            SensingConfig::default(),
            RefereeConfig::default(),
            || SeededChance::new(7),
            &dir,
            hardware,
            HZ,
            Millis(0),
        )
        .unwrap();
        Rig {
            board,
            scans,
            presses,
            service,
            epoch,
            decisions: Vec::new(),
            trouble: Vec::new(),
            _tmp: TempDir(tmp),
        }
    }

    fn now(&self) -> Millis {
        Millis(self.epoch.elapsed().as_millis() as u64)
    }

    /// Runs the loop as `umpire run` does for `ms` of real time.
    fn run(&mut self, ms: u64) {
        let until = Instant::now() + Duration::from_millis(ms);
        while Instant::now() < until {
            let step = self.service.step(self.now());
            self.decisions.extend(step.decisions);
            self.trouble.extend(step.trouble);
            let slot = self.epoch + Duration::from_millis(self.service.next_scan().0);
            let wait = slot.saturating_duration_since(Instant::now());
            std::thread::sleep(wait.clamp(Duration::from_micros(100), Duration::from_millis(10)));
        }
    }

    /// Runs the loop until `done` holds of the decisions, at most `ms` of real time.
    fn run_until(&mut self, ms: u64, done: impl Fn(&[Decision]) -> bool) {
        let until = Instant::now() + Duration::from_millis(ms);
        while Instant::now() < until && !done(&self.decisions) {
            self.run(10);
        }
    }

    fn press(&self, button: Button) {
        self.presses
            .0
            .lock()
            .unwrap()
            .extend([(true, button), (false, button)]);
    }

    fn set(&self, s: &str, on: bool) {
        let cell = SensedCell::new(Square::parse(s).unwrap().index() as u16);
        self.board.lock().unwrap().set_piece(cell, on);
    }

    /// The times between two scans so far, in µs, shortest first.
    fn gaps(&self) -> Vec<u64> {
        let scans = self.scans.lock().unwrap();
        let mut gaps: Vec<u64> = scans
            .windows(2)
            .map(|w| w[1].duration_since(w[0]).as_micros() as u64)
            .collect();
        gaps.sort_unstable();
        gaps
    }

    /// The longest time between two scans so far, in ms (rounded up).
    fn worst_gap(&self) -> u64 {
        self.gaps().last().map_or(0, |us| us.div_ceil(1000))
    }
}

/// Duel's two set-ups, by rank groups, as the hands make them: each group put down at once,
/// OK pressed 200 ms later (past the settle window), without waiting for the (slow) OLED.
fn set_up(rig: &mut Rig) {
    let red = Deployment::parse(
        Variant::Duel,
        RED,
        "2 3 9 3 M 2 . . . .\nS B . . . . . . . .\nF B . . . . . . . .",
    )
    .unwrap();
    let blue = Deployment::parse(
        Variant::Duel,
        BLUE,
        "F . . . . . . . . .\nB B S . . . . . . .\n3 2 9 M 2 3 . . . .",
    )
    .unwrap();
    for deployment in [&red, &blue] {
        let mut ranks: Vec<Rank> = Vec::new();
        for &(_, r) in &deployment.placements {
            if !ranks.contains(&r) {
                ranks.push(r);
            }
        }
        for _group in 0..ranks.len() {
            // The referee names the group to place; wait for its screen (it lags the hands by
            // what the buses cost, but scanning does not).
            let until = Instant::now() + Duration::from_secs(10);
            let rank = loop {
                let screen = rig.service.pipeline().screen().clone();
                let found = match &screen {
                    Screen::Setup { instruction, .. } => Rank::ALL.into_iter().find(|r| {
                        instruction.contains(r.name()) || instruction.contains(r.plural())
                    }),
                    _ => None,
                };
                match found {
                    Some(rank) => break rank,
                    None if Instant::now() < until => rig.run(10),
                    None => panic!("set-up expected: {screen:?}"),
                }
            };
            for &(s, r) in &deployment.placements {
                if r == rank {
                    rig.set(&s.to_string(), true);
                }
            }
            rig.run(200);
            let before = rig.service.pipeline().screen().clone();
            rig.press(Button::Ok);
            let until = Instant::now() + Duration::from_secs(10);
            while *rig.service.pipeline().screen() == before && Instant::now() < until {
                rig.run(10);
            }
        }
    }
}

/// The menu chosen (Duel by rank groups), both set-ups, and two moves, over the slow buses:
/// the worst gap between two scans stays within one period (5 ms at 200 Hz) plus 35 ms, while
/// each journaled step costs at least 80 ms of sync and a screen change up to ~180 ms of I2C.
///
/// Fails on the old loop (every scan on the step's thread, which the service still does for a
/// plain scanner): there the first screen push alone keeps the loop from scanning for over
/// 100 ms; [`a_scan_on_the_steps_thread_waits_for_the_buses`] pins that.
#[test]
fn the_scan_thread_keeps_its_rate_while_the_buses_are_slow() {
    let mut rig = Rig::start("thread", true);
    rig.run(300);
    choose_duel(&mut rig);
    play_duel(&mut rig);
    assert_gaps(&rig, "scan thread");
}

/// The menu: Duel, by rank groups.
fn choose_duel(rig: &mut Rig) {
    for button in [Button::Die, Button::Ok, Button::Ok] {
        rig.press(button);
        rig.run(150);
    }
}

/// Both set-ups and two moves, each lifted and placed by a hand, 200 ms apart.
fn play_duel(rig: &mut Rig) {
    set_up(rig);
    rig.run_until(10_000, |d| d.contains(&Decision::GameStarted));
    assert!(
        rig.decisions.contains(&Decision::GameStarted),
        "{:?} {:?}",
        rig.decisions,
        rig.service.pipeline().screen()
    );
    // Red's Scout a3-a5, Blue's 2 a8-a7... each lifted and placed by a hand, 200 ms apart.
    for (from, to) in [("a3", "a5"), ("c8", "c7")] {
        rig.set(from, false);
        rig.run(200);
        rig.set(to, true);
        rig.run(200);
    }
    rig.run_until(10_000, |d| {
        d.iter()
            .filter(|d| matches!(d, Decision::Moved { .. }))
            .count()
            >= 2
    });
    let moves = rig
        .decisions
        .iter()
        .filter(|d| matches!(d, Decision::Moved { .. }))
        .count();
    assert_eq!(moves, 2, "both moves played: {:?}", rig.decisions);
    assert!(rig.trouble.is_empty(), "{:?}", rig.trouble);
}

/// Prints the gaps between scans and holds them to the bounds: the 99th percentile within one
/// period plus [`SLACK_MS`], the worst under one journal sync. The worst gap, in ms.
fn assert_gaps(rig: &Rig, label: &str) -> u64 {
    let gaps = rig.gaps();
    let worst = rig.worst_gap();
    let p99 = gaps[gaps.len() * 99 / 100] as f64 / 1000.0;
    println!(
        "{label}: {} scans, worst gap {worst} ms, 99th percentile {p99:.1} ms (period \
         {PERIOD_MS} ms)",
        gaps.len() + 1
    );
    // The 99th percentile holds the tight bound; the single worst gap only stays under one
    // journal sync (the old loop's is 188 ms and more), so one preemption of a loaded machine
    // does not fail it.
    let p99_ms = gaps[gaps.len() * 99 / 100].div_ceil(1000);
    assert!(
        p99_ms <= PERIOD_MS + SLACK_MS,
        "{label}: 99th percentile gap {p99_ms} ms, over {PERIOD_MS} + {SLACK_MS} ms"
    );
    assert!(
        worst < SYNC_MS,
        "{label}: worst gap between two scans {worst} ms, not under one sync ({SYNC_MS} ms)"
    );
    worst
}

/// A phone listening to `path`'s event stream until `stop`: how many events it got.
fn listening_phone(addr: SocketAddr, path: String, stop: Arc<AtomicBool>) -> u32 {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    s.write_all(format!("GET {path} HTTP/1.1\r\n\r\n").as_bytes())
        .unwrap();
    let mut reader = BufReader::new(s);
    let (mut line, mut events) = (String::new(), 0);
    while !stop.load(Ordering::SeqCst) {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) => break,
            Ok(_) => events += u32::from(line.starts_with("id: ")),
            Err(_) => {}
        }
    }
    events
}

/// A phone asking for whole pages again and again until `stop`: how many were answered.
fn flooding_phone(addr: SocketAddr, paths: Vec<String>, stop: Arc<AtomicBool>) -> u32 {
    let mut answered = 0;
    while !stop.load(Ordering::SeqCst) {
        let Ok(mut s) = TcpStream::connect(addr) else {
            continue;
        };
        let path = &paths[answered as usize % paths.len()];
        if s.write_all(format!("GET {path} HTTP/1.1\r\n\r\n").as_bytes())
            .is_ok()
        {
            let mut out = Vec::new();
            let _ = s.read_to_end(&mut out);
            answered += u32::from(out.starts_with(b"HTTP/1.1 "));
        }
    }
    answered
}

/// The same Duel over the same slow buses with the phone pages on and ten phones on loopback
/// from the moment the game is chosen: six listening to both seats' streams and the table's,
/// four flooding both seats' pages, the table's page and `/replay`. The scan thread keeps the
/// same bounds as without them (the publish never waits for a phone, and the server's threads
/// are not the scan thread); the worst gap is printed (the README's figure).
#[test]
fn ten_phones_on_the_pages_leave_the_scan_threads_rate_alone() {
    let mut rig = Rig::start("phones", true);
    let slot = Slot::new();
    rig.service.set_web(Some(Publisher::new(Arc::clone(&slot))));
    let server = Server::start(TcpListener::bind("127.0.0.1:0").unwrap(), slot.clone()).unwrap();
    rig.run(300);
    choose_duel(&mut rig);
    let seats: Vec<String> = rig
        .service
        .web()
        .expect("served")
        .tokens()
        .iter()
        .map(|t| format!("/seat/{}", t.hex()))
        .collect();
    assert_eq!(seats.len(), 2, "the Duel's two seats have tokens");
    let stop = Arc::new(AtomicBool::new(false));
    let streams = [
        format!("{}/events", seats[0]),
        format!("{}/events", seats[1]),
        "/events".to_string(),
    ];
    let mut listeners = Vec::new();
    for path in streams.iter().cycle().take(6) {
        let (addr, path, stop) = (server.addr(), path.clone(), Arc::clone(&stop));
        listeners.push(std::thread::spawn(move || {
            listening_phone(addr, path, stop)
        }));
    }
    let mut flooders = Vec::new();
    for _ in 0..4 {
        let mut paths = seats.clone();
        paths.extend(["/".to_string(), "/replay".to_string()]);
        let (addr, stop) = (server.addr(), Arc::clone(&stop));
        flooders.push(std::thread::spawn(move || {
            flooding_phone(addr, paths, stop)
        }));
    }
    rig.run(200);
    let phones = server.active();
    play_duel(&mut rig);
    stop.store(true, Ordering::SeqCst);
    let events: Vec<u32> = listeners.into_iter().map(|p| p.join().unwrap()).collect();
    let answered: u32 = flooders.into_iter().map(|p| p.join().unwrap()).sum();
    let worst = assert_gaps(&rig, "scan thread, ten phones on the pages");
    println!(
        "ten phones: worst scan gap {worst} ms; {phones} connections open at the set-up's \
         start; events per listening phone {events:?}; {answered} flood requests answered; \
         {} publishes deferred",
        rig.service.web().map_or(0, Publisher::deferred)
    );
    assert!(phones >= 6, "the listening phones were connected: {phones}");
    // Every listening phone followed the game: the set-up's groups and both moves at least.
    assert!(events.iter().all(|&n| n >= 10), "{events:?}");
    assert!(answered > 20, "the flood was real: {answered}");
}

/// What the scan thread is for: on the step's own thread (the loop before it), a scan waits
/// for the OLED push, the journal's sync and the NFC reads of the step before, so the worst gap
/// is well over the bound the threaded loop keeps.
#[test]
fn a_scan_on_the_steps_thread_waits_for_the_buses() {
    let mut rig = Rig::start("inline", false);
    rig.run(300);
    for button in [Button::Die, Button::Ok, Button::Ok] {
        rig.press(button);
        rig.run(150);
    }
    let worst = rig.worst_gap();
    println!("one thread: worst gap {worst} ms");
    assert!(
        worst > SYNC_MS.max(PERIOD_MS + SLACK_MS),
        "the old loop's worst gap {worst} ms"
    );
}

/// A sensor failing on the scan thread is reported as on one thread: one line when it starts,
/// the fault on the OLED meanwhile, one line when it clears (the thread stamps the error with
/// its scan; the service sets the fault when it takes that scan).
#[test]
fn a_sensor_fault_on_the_scan_thread_is_reported_once_and_cleared_once() {
    /// A board whose scans fail while `failing` is set.
    struct Flaky(TimedBoard, Arc<AtomicBool>);
    impl Scanner for Flaky {
        fn scan(&mut self) -> Result<Occupancy, String> {
            if self.1.load(Ordering::Relaxed) {
                return Err("the 74HC165 chain reads all ones: check the cable".into());
            }
            self.0.scan()
        }
    }

    let tmp = std::env::temp_dir().join(format!("umpire-gap-fault-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let _cleanup = TempDir(tmp.clone());
    let dir = JournalDir::open(&tmp).unwrap();
    let failing = Arc::new(AtomicBool::new(false));
    let board = TimedBoard {
        board: Arc::new(Mutex::new(SimBoard::new(10, 10))),
        scans: Arc::new(Mutex::new(Vec::new())),
    };
    let epoch = Instant::now();
    let thread =
        ScanThread::spawn(Box::new(Flaky(board, failing.clone())), None, HZ, epoch).unwrap();
    let hardware = Hardware {
        scanner: Box::new(thread),
        buttons: None,
        tags: None,
        oled: None,
    };
    let mut service = Service::start(
        SensorLayout::new(LayoutSetup::grid(10, 10)).unwrap(),
        SensingConfig::default(),
        RefereeConfig::default(),
        || SeededChance::new(7),
        &dir,
        hardware,
        HZ,
        Millis(0),
    )
    .unwrap();
    let mut run = |ms: u64, trouble: &mut Vec<String>| {
        let until = Instant::now() + Duration::from_millis(ms);
        while Instant::now() < until {
            let now = Millis(epoch.elapsed().as_millis() as u64);
            trouble.extend(service.step(now).trouble);
            std::thread::sleep(Duration::from_millis(5));
        }
    };
    let mut trouble = Vec::new();
    run(100, &mut trouble);
    assert!(trouble.is_empty(), "{trouble:?}");
    failing.store(true, Ordering::Relaxed);
    // Until the fault is said (5 s at most: a loaded machine or QEMU may be slow to step).
    for _ in 0..50 {
        run(100, &mut trouble);
        if !trouble.is_empty() {
            break;
        }
    }
    run(100, &mut trouble);
    assert_eq!(trouble.len(), 1, "{trouble:?}");
    assert!(
        trouble[0].contains("sensors") && trouble[0].contains("check the cable"),
        "{trouble:?}"
    );
    failing.store(false, Ordering::Relaxed);
    for _ in 0..50 {
        run(100, &mut trouble);
        if trouble.len() > 1 {
            break;
        }
    }
    assert_eq!(trouble.len(), 2, "{trouble:?}");
    assert!(trouble[1].contains("works again"), "{trouble:?}");
}
