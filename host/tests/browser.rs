//! The phone pages in a real browser: headless Chromium (Debian's `chromium`) opens Red's page
//! of a simulated Duel table, a move is played while the page connects to its stream, and the
//! page the browser built shows the move (its script put in the body the stream pushed), and
//! the browser's screenshots of the seat's and the public page are pictures of them.
//!
//! A second test opens a seat's page and the public page of every game (Stratego Original and
//! Duel, Stratego: Waterloo, Piecepack at Waterloo, Sa Belle Alliance) a few bot moves in, and
//! checks the DOM Chromium built and its screenshot; with `UMPIRE_WEB_SHOTS=<folder>` the
//! screenshots are kept there (how the README's pictures in `docs/` are made).
//!
//! Without Chromium the tests say so loudly and pass, except on CI (`CI` set and not
//! "false", as `scripts/test` reads it), where it fails: `.ci/run` installs it.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use boards::stratego::{Rank, Setup, Variant, BLUE, RED};
use firmware::referee::RefereeConfig;
use firmware::sensing::Button;
use firmware::web::server::Server;
use firmware::web::{Publisher, Slot};
use host::sim::{square_place, SimTable};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// One test drives Chromium at a time: two headless browsers at once fail on a loaded machine.
static ONE_BROWSER: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The browser, if installed.
fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser"].iter().find_map(|name| {
        let found = Command::new(name).arg("--version").output().ok()?;
        found.status.success().then(|| PathBuf::from(name))
    })
}

/// Runs headless Chromium on `url` with `args`; its standard output.
fn browse(chromium: &Path, url: &str, args: &[&str]) -> String {
    let profile = tempdir("profile");
    let out = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .output()
        .expect("chromium runs");
    let _ = std::fs::remove_dir_all(&profile);
    assert!(out.status.success(), "chromium failed: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn tempdir(what: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("browser-{what}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A table in play, published, and its server.
type Served = (SimTable, Server);

/// Makes one game's served table.
type MakeTable = fn() -> Served;

/// A Duel table in play, published, and its server.
fn served_table() -> Served {
    served_stratego(Variant::Duel)
}

/// A Stratego table of `variant` in play, published, and its server.
fn served_stratego(variant: Variant) -> (SimTable, Server) {
    let mut rng = Pcg64Mcg::seed_from_u64(1);
    let setup = Setup::shuffled(variant, |n| rng.random_range(0..n));
    let mut table = SimTable::new(RefereeConfig::default(), 1, false).expect("table");
    let slot = Slot::new();
    table.set_web(Some(Publisher::new(Arc::clone(&slot))));
    // The menu: Stratego Original first, Stratego Duel second (Die moves down).
    if variant == Variant::Duel {
        table.press(Button::Die);
    }
    table.press(Button::Ok);
    table.press(Button::Ok);
    for seat in [RED, BLUE] {
        for rank in Rank::ALL.iter().rev().filter(|r| variant.count(**r) > 0) {
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
    assert!(table.referee().in_play());
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    (table, Server::start(listener, slot).unwrap())
}

/// A gate in front of `upstream`, so the browser's timing is the test's: pages pass through;
/// the first event stream waits until the test has played (it says so on `asked` and waits
/// on `go`), then passes its first event and ends (so the headless browser's clock can run
/// out); a stream asked again gets 204, which tells the page's `EventSource` to stop.
fn gate(upstream: std::net::SocketAddr) -> (u16, mpsc::Receiver<()>, mpsc::Sender<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (asked_tx, asked) = mpsc::channel();
    let (go, go_rx) = mpsc::channel::<()>();
    thread::spawn(move || {
        let mut go_rx = Some(go_rx);
        for client in listener.incoming() {
            let Ok(mut client) = client else { continue };
            let mut head = [0u8; 4096];
            let n = client.read(&mut head).unwrap_or(0);
            let request = &head[..n];
            let events = String::from_utf8_lossy(request).contains("/events ");
            if events && go_rx.is_none() {
                let _ = client.write_all(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n");
                continue;
            }
            let Ok(mut server) = TcpStream::connect(upstream) else {
                continue;
            };
            if events {
                let _ = asked_tx.send(());
                let _ = go_rx
                    .take()
                    .map(|go| go.recv_timeout(Duration::from_secs(10)));
                let _ = server.write_all(request);
                // The head and the first event, then the end.
                let mut got = Vec::new();
                let mut buf = [0u8; 4096];
                while !String::from_utf8_lossy(&got).contains("data: ") || !got.ends_with(b"\n\n") {
                    match server.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(k) => got.extend_from_slice(&buf[..k]),
                    }
                }
                let _ = client.write_all(&got);
                continue;
            }
            let _ = server.write_all(request);
            let _ = std::io::copy(&mut server, &mut client);
        }
    });
    (port, asked, go)
}

#[test]
fn a_seats_page_in_chromium_shows_the_move_its_stream_pushed() {
    let Some(chromium) = chromium() else {
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false");
        assert!(
            !ci,
            "chromium is not installed, and CI must run the browser test: install it \
             (apt-get install chromium)"
        );
        eprintln!(
            "\n\n*** SKIPPED: the browser test needs Debian's `chromium` (apt-get install \
             chromium); the phone pages were NOT tested in a browser ***\n\n"
        );
        return;
    };
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let (mut table, server) = served_table();
    let token = table.web().unwrap().tokens()[0].hex();
    // Red's first legal move, played by the hands.
    let position = table.referee().position().cloned().unwrap();
    let mv = *position
        .legal_moves()
        .iter()
        .find(|m| position.piece_at(m.to).is_none())
        .expect("a quiet move");
    let words = format!("{}-{}", mv.from, mv.to);
    let before = get(server.addr(), &format!("/seat/{token}"));
    assert!(before.starts_with("HTTP/1.1 200"), "{before}");
    assert!(!before.contains(&words), "the move is not on the page yet");

    let (port, asked, go) = gate(server.addr());
    let url = format!("http://127.0.0.1:{port}/seat/{token}");
    let browser = {
        let chromium = chromium.clone();
        let url = url.clone();
        thread::spawn(move || {
            browse(
                &chromium,
                &url,
                &["--virtual-time-budget=3000", "--dump-dom"],
            )
        })
    };
    asked
        .recv_timeout(Duration::from_secs(20))
        .expect("the page opened its event stream");
    table.lift(square_place(mv.from)).unwrap();
    table.place(square_place(mv.to), None).unwrap();
    go.send(()).unwrap();
    let dom = browser.join().expect("the browser ran");
    assert!(
        dom.contains("data-version="),
        "the script took an event: {dom}"
    );
    assert!(
        dom.contains(&words),
        "the page shows the move {words}: {dom}"
    );
    assert!(
        !dom.contains("Blue Flag"),
        "Red's page names no Blue rank: {dom}"
    );

    // Screenshots of the seat's and the public page.
    let shots = tempdir("shots");
    for (name, url) in [
        ("seat", format!("http://{}/seat/{token}", server.addr())),
        ("public", format!("http://{}/", server.addr())),
    ] {
        let png = shots.join(format!("web-{name}.png"));
        browse(
            &chromium,
            &url,
            &[
                &format!("--screenshot={}", png.display()),
                "--window-size=480,1000",
                "--hide-scrollbars",
            ],
        );
        let bytes = std::fs::read(&png).expect("a screenshot");
        assert!(bytes.starts_with(b"\x89PNG"), "{name}: a PNG");
        assert!(
            bytes.len() > 5_000,
            "{name}: a picture, not a blank ({} bytes)",
            bytes.len()
        );
    }
}

/// `moves` quiet Stratego moves of the seeded bot, played by the hands.
fn quiet_moves(table: &mut SimTable, moves: u32) {
    let mut rng = Pcg64Mcg::seed_from_u64(2);
    for _ in 0..moves {
        let position = table.referee().position().cloned().expect("in play");
        let quiet: Vec<_> = position
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| position.piece_at(m.to).is_none())
            .collect();
        let Some(mv) = quiet.get(rng.random_range(0..quiet.len().max(1))) else {
            return;
        };
        table.lift(square_place(mv.from)).unwrap();
        table.place(square_place(mv.to), None).unwrap();
    }
}

/// A table of the table game `name`, `variant`, served, `steps` seeded bot steps in.
fn served_game(name: &str, variant: &str, steps: u32) -> (SimTable, Server) {
    use host::table::{bot_step, choose_game, find_game, set_up};
    let entry = find_game(name, Some(variant)).expect("on the menu");
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    let mut table =
        SimTable::with_layout(RefereeConfig::default(), 3, entry.layout()).expect("layout");
    let slot = Slot::new();
    table.set_web(Some(Publisher::new(Arc::clone(&slot))));
    choose_game(&mut table, &entry).expect("chosen");
    set_up(&mut table, &mut rng).expect("set up");
    for _ in 0..steps {
        if !matches!(bot_step(&mut table, &mut rng), Ok(Some(_))) {
            break;
        }
    }
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    (table, Server::start(listener, slot).unwrap())
}

/// Every game's seat page and public page, a few moves in, as Chromium builds and draws them:
/// the seat's page has its board with its own pieces marked, its secrets' heading and its
/// story; the public page the
/// OLED's words; each screenshot is a picture. With `UMPIRE_WEB_SHOTS` set, they are kept
/// there as `web-<game>-seat.png` and `web-<game>-public.png`.
#[test]
fn every_games_pages_in_chromium() {
    let Some(chromium) = chromium() else {
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false");
        assert!(
            !ci,
            "chromium is not installed, and CI must run the browser test"
        );
        eprintln!("\n\n*** SKIPPED: every game's pages need Debian's `chromium` ***\n\n");
        return;
    };
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let shots = tempdir("games");
    let games: [(&str, MakeTable); 5] = [
        ("original", || {
            let (mut table, server) = served_stratego(Variant::Classic);
            quiet_moves(&mut table, 6);
            (table, server)
        }),
        ("duel", || {
            let (mut table, server) = served_stratego(Variant::Duel);
            quiet_moves(&mut table, 6);
            (table, server)
        }),
        ("waterloo", || served_game("stratego-waterloo", "basic", 40)),
        ("piecepack", || {
            served_game("piecepack", "rules-as-written", 30)
        }),
        ("sba", || {
            served_game("sa-belle-alliance", "card-set-and-map", 8)
        }),
    ];
    for (game, make) in games {
        let (table, server) = make();
        let token = table.web().unwrap().tokens()[0].hex();
        let title = table
            .referee()
            .seat_view(boards::Seat::FIRST)
            .unwrap()
            .title;
        for (page, path) in [("seat", format!("/seat/{token}")), ("public", "/".into())] {
            let png = shots.join(format!("web-{game}-{page}.png"));
            let dom = browse(
                &chromium,
                &format!("http://{}{path}", server.addr()),
                &[
                    &format!("--screenshot={}", png.display()),
                    "--dump-dom",
                    "--window-size=400,760",
                    "--hide-scrollbars",
                ],
            );
            if page == "seat" {
                let own = "<g class=\"own\">";
                for words in [
                    title.as_str(),
                    "<svg",
                    "Your secrets",
                    "The story so far",
                    own,
                ] {
                    assert!(
                        dom.contains(words),
                        "{game}: {words} on the seat page: {dom}"
                    );
                }
            } else {
                assert!(dom.contains("The table"), "{game}: {dom}");
            }
            assert!(!dom.contains("The whole game revealed"), "{game}: {dom}");
            let bytes = std::fs::read(&png).expect("a screenshot");
            assert!(bytes.starts_with(b"\x89PNG"), "{game} {page}: a PNG");
            assert!(bytes.len() > 5_000, "{game} {page}: a picture, not a blank");
            if let Some(dir) = std::env::var_os("UMPIRE_WEB_SHOTS") {
                std::fs::copy(&png, Path::new(&dir).join(format!("web-{game}-{page}.png")))
                    .unwrap();
            }
        }
    }
}

/// GETs `path` from `addr`: the whole answer.
fn get(addr: std::net::SocketAddr, path: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}
