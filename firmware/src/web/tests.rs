//! The phone pages' server over loopback, and the publisher's latest-wins slot.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::server::{Server, MAX_CONNECTIONS};
use super::*;
use crate::journal::MemStore;
use crate::referee::{RefereeConfig, SeededChance};

fn page(words: &str) -> PublicPage {
    PublicPage {
        screen: vec![words.to_string()],
        hands: Vec::new(),
        announcements: Vec::new(),
        replay: None,
        clock: None,
    }
}

fn seat_page(seat: usize, words: &str) -> SeatPage {
    SeatPage {
        seat,
        seat_names: vec!["Red".into(), "Blue".into()],
        title: "Stratego Duel".into(),
        grid: (10, 10),
        pieces: vec![PiecePage {
            place: Place::Square(boards::geometry::grid::Cell::new(0, 0)),
            place_name: "a1".into(),
            piece: "Red Scout".into(),
            side: Some(0),
        }],
        status: None,
        setup: None,
        result: None,
        secrets: Vec::new(),
        story: Vec::new(),
        public: page(words),
    }
}

fn snapshot(version: u64, words: &str, token: &Token) -> Arc<Snapshot> {
    Arc::new(Snapshot {
        version,
        public: Some(page(words)),
        seats: vec![SeatEntry {
            token: token.clone(),
            page: seat_page(0, words),
        }],
        at: None,
    })
}

/// Puts `s` in as the publisher does: a reader holding the slot this instant (a stream woken
/// by the last snapshot, reading it) makes it try again at its next step, here 1 ms later.
fn put(slot: &Slot, mut s: Arc<Snapshot>) {
    let start = Instant::now();
    loop {
        match slot.try_put(s) {
            Ok(()) => return,
            Err(back) => s = back,
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "a reader held the slot for 5 s"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn server() -> (Server, Arc<Slot>) {
    let slot = Slot::new();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    (Server::start(listener, Arc::clone(&slot)).unwrap(), slot)
}

/// GETs `path`; the whole answer.
fn get(server: &Server, path: &str) -> String {
    let mut s = TcpStream::connect(server.addr()).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: umpire\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

#[test]
fn tokens_are_128_random_bits_in_hex_and_match_only_themselves() {
    let a = Token::fresh().unwrap();
    let b = Token::fresh().unwrap();
    assert_ne!(a, b);
    let hex = a.hex();
    assert_eq!(hex.len(), 32);
    assert!(hex
        .chars()
        .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
    assert!(a.matches(&hex));
    assert!(!a.matches(&b.hex()));
    assert!(!a.matches(&hex[..31]));
    assert!(!a.matches(&format!("{hex}0")));
    assert!(!a.matches(""));
    assert!(!a.matches(&hex.to_uppercase()) || hex.chars().all(|c| c.is_ascii_digit()));
    assert_eq!(format!("{a:?}"), "Token(..)", "a token never reaches a log");
}

#[test]
fn a_wrong_or_old_token_gets_403_and_nothing_else() {
    let (server, slot) = server();
    let old = Token::fresh().unwrap();
    let live = Token::fresh().unwrap();
    put(&slot, snapshot(1, "Red to move", &old));
    assert!(get(&server, &format!("/seat/{}", old.hex())).starts_with("HTTP/1.1 200 OK"));
    // A new game: the old token dies.
    put(&slot, snapshot(2, "Red to move", &live));
    for path in [
        format!("/seat/{}", old.hex()),
        format!("/seat/{}/events", old.hex()),
        "/seat/".to_string(),
        "/seat/00000000000000000000000000000000".to_string(),
        format!("/seat/{}x", live.hex()),
    ] {
        let answer = get(&server, &path);
        assert!(
            answer.starts_with("HTTP/1.1 403 Forbidden\r\n"),
            "{path}: {answer}"
        );
        assert!(answer.contains("Content-Length: 0\r\n"), "{answer}");
        assert!(answer.ends_with("\r\n\r\n"), "an empty body: {answer}");
        assert!(!answer.contains("Red"), "{answer}");
    }
    let page = get(&server, &format!("/seat/{}", live.hex()));
    assert!(page.starts_with("HTTP/1.1 200 OK"), "{page}");
    assert!(page.contains("Red Scout"), "{page}");
    assert!(
        !page.contains(&live.hex()),
        "the page never holds its token"
    );
    let public = get(&server, "/");
    assert!(
        public.contains("Red to move") && !public.contains("Scout"),
        "{public}"
    );
    assert!(get(&server, "/nothing").starts_with("HTTP/1.1 404"));
}

/// The revealed game is served only once it is over: `/replay` is 404 and empty while the
/// snapshot has no replay, and the whole game once it has.
#[test]
fn the_replay_is_refused_until_the_game_is_over() {
    let (server, slot) = server();
    let token = Token::fresh().unwrap();
    put(&slot, snapshot(1, "Red to move", &token));
    let answer = get(&server, "/replay");
    assert!(answer.starts_with("HTTP/1.1 404 Not Found\r\n"), "{answer}");
    assert!(answer.ends_with("\r\n\r\n"), "an empty body: {answer}");
    for path in ["/".to_string(), format!("/seat/{}", token.hex())] {
        assert!(!get(&server, &path).contains("revealed"), "{path}");
    }
    let replay = Arc::new(crate::referee::table::Replay {
        title: "Stratego Duel".into(),
        result: ("Red".into(), "the flag is captured".into()),
        start: vec![("a1".into(), "Blue Bomb".into())],
        actions: vec![(1, "a2-a3 (Red Scout)".into(), vec!["Red wins".into()])],
        end: vec![("a3".into(), "Red Scout".into())],
    });
    let mut over = seat_page(0, "Red wins");
    over.public.replay = Some(Arc::clone(&replay));
    put(
        &slot,
        Arc::new(Snapshot {
            version: 2,
            public: Some(page("Red wins").with_replay(Some(replay))),
            seats: vec![SeatEntry {
                token: token.clone(),
                page: over,
            }],
            at: None,
        }),
    );
    for path in [
        "/replay".to_string(),
        "/".to_string(),
        format!("/seat/{}", token.hex()),
    ] {
        let answer = get(&server, &path);
        assert!(answer.starts_with("HTTP/1.1 200 OK"), "{path}: {answer}");
        for words in [
            "Blue Bomb",
            "a2-a3 (Red Scout); Red wins",
            "the flag is captured",
        ] {
            assert!(answer.contains(words), "{path} lacks {words}: {answer}");
        }
    }
}

#[test]
fn connections_beyond_the_cap_get_503_and_are_closed() {
    let (server, slot) = server();
    put(&slot, snapshot(1, "Red to move", &Token::fresh().unwrap()));
    // Slow phones hold their places: each sends its request a byte at a time, well inside the
    // read timeout, so a loaded machine cannot free a place before the checks below.
    let idle: Vec<TcpStream> = (0..MAX_CONNECTIONS)
        .map(|_| TcpStream::connect(server.addr()).unwrap())
        .collect();
    let trickling = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let trickle = {
        let streams: Vec<TcpStream> = idle.iter().map(|s| s.try_clone().unwrap()).collect();
        let trickling = Arc::clone(&trickling);
        std::thread::spawn(move || {
            let mut streams = streams;
            for s in &mut streams {
                let _ = s.write_all(b"GET / HTTP/1.1\r\nX-Slow: ");
            }
            while trickling.load(std::sync::atomic::Ordering::SeqCst) {
                for s in &mut streams {
                    let _ = s.write_all(b"a");
                }
                std::thread::sleep(Duration::from_millis(250));
            }
        })
    };
    let start = Instant::now();
    while server.active() < MAX_CONNECTIONS && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(server.active(), MAX_CONNECTIONS);
    // Answered before it says anything (a client that wrote first may see the reset instead).
    let mut extra = TcpStream::connect(server.addr()).unwrap();
    extra
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut answer = String::new();
    extra.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert_eq!(
        server.active(),
        MAX_CONNECTIONS,
        "the extra one held no place"
    );
    trickling.store(false, std::sync::atomic::Ordering::SeqCst);
    trickle.join().unwrap();
    drop(idle);
    // Their places come back once they go.
    let start = Instant::now();
    loop {
        let answer = get(&server, "/");
        if answer.starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(5), "{answer}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A phone gone from the Wi-Fi holds no place for long: with every place held by an event
/// stream, a new request gets 503 while they are young, and once the oldest is past the
/// eviction age the request ends that stream alone (its phone would reconnect) and is served;
/// the other streams still hear every change, and the place count comes back to the cap.
/// Fails on the old server (503 however old the streams).
#[test]
fn a_full_server_ends_its_oldest_stream_for_a_new_request() {
    const AGE: Duration = Duration::from_secs(2);
    let slot = Slot::new();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let server = Server::start_evicting(listener, Arc::clone(&slot), AGE).unwrap();
    put(&slot, snapshot(1, "Red to move", &Token::fresh().unwrap()));
    let opened = Instant::now();
    let mut streams: Vec<BufReader<TcpStream>> = (0..MAX_CONNECTIONS)
        .map(|_| {
            let mut s = TcpStream::connect(server.addr()).unwrap();
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            s.write_all(b"GET /events HTTP/1.1\r\n\r\n").unwrap();
            let mut reader = BufReader::new(s);
            until_event(&mut reader, "Red to move");
            reader
        })
        .collect();
    assert_eq!(server.active(), MAX_CONNECTIONS);
    if opened.elapsed() < AGE / 2 {
        // Young streams are never ended (a loaded machine may be too slow to see this): the
        // extra one is answered before it says anything.
        let mut extra = TcpStream::connect(server.addr()).unwrap();
        extra
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let mut answer = String::new();
        extra.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
        assert_eq!(server.evicted(), 0);
    }
    std::thread::sleep(AGE.saturating_sub(opened.elapsed()) + Duration::from_millis(100));
    let answer = get(&server, "/");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert_eq!(server.evicted(), 1);
    // The oldest stream, and it alone, was ended.
    let mut rest = String::new();
    streams[0]
        .read_to_string(&mut rest)
        .expect("the oldest stream ended");
    put(&slot, snapshot(2, "Blue to move", &Token::fresh().unwrap()));
    for reader in &mut streams[1..] {
        until_event(reader, "Blue to move");
    }
    let start = Instant::now();
    while server.active() != MAX_CONNECTIONS - 1 && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(
        server.active(),
        MAX_CONNECTIONS - 1,
        "the ended stream's place came back"
    );
}

#[test]
fn a_request_too_long_or_not_http_is_refused() {
    let (server, slot) = server();
    put(&slot, snapshot(1, "x", &Token::fresh().unwrap()));
    let mut s = TcpStream::connect(server.addr()).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let long = format!("GET /{} HTTP/1.1\r\n", "a".repeat(10_000));
    let _ = s.write_all(long.as_bytes());
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    assert!(out.starts_with("HTTP/1.1 431"), "{out}");
    let mut s = TcpStream::connect(server.addr()).unwrap();
    s.write_all(b"POST / HTTP/1.1\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    assert!(out.starts_with("HTTP/1.1 405"), "{out}");
}

/// Reads events from a stream until one carries `data`; the time it took.
fn until_event(reader: &mut BufReader<TcpStream>, data: &str) -> Duration {
    let start = Instant::now();
    let mut line = String::new();
    loop {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "the stream ended");
        if line.starts_with("data: ") && line.contains(data) {
            return start.elapsed();
        }
    }
}

#[test]
fn a_listening_page_gets_each_new_body_at_once_and_the_stream_ends_with_its_token() {
    let (server, slot) = server();
    let token = Token::fresh().unwrap();
    put(&slot, snapshot(1, "Red to move", &token));
    let mut s = TcpStream::connect(server.addr()).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    write!(s, "GET /seat/{}/events HTTP/1.1\r\n\r\n", token.hex()).unwrap();
    let mut reader = BufReader::new(s);
    let mut status = String::new();
    reader.read_line(&mut status).unwrap();
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    until_event(&mut reader, "Red to move");
    put(&slot, snapshot(2, "e4-e5: Blue to move", &token));
    let delay = until_event(&mut reader, "Blue to move");
    assert!(delay < Duration::from_secs(1), "{delay:?}");
    // A new game: the old token's stream ends.
    put(
        &slot,
        snapshot(3, "Choose a game", &Token::fresh().unwrap()),
    );
    let mut rest = String::new();
    reader.read_to_string(&mut rest).unwrap();
    assert!(!rest.contains("Choose a game"), "{rest}");
}

fn menu_referee() -> Referee<MemStore, SeededChance> {
    Referee::new(RefereeConfig::default(), SeededChance::new(1), || {
        Ok(MemStore::new())
    })
}

/// The scan loop never waits for a reader: with the slot held (a reader mid-copy), publishing
/// returns at once and the snapshot goes in at the next step.
#[test]
fn publishing_never_waits_for_a_reader() {
    let slot = Slot::new();
    let mut publisher = Publisher::new(Arc::clone(&slot));
    let referee = menu_referee();
    let held = slot.current.lock().unwrap();
    let start = Instant::now();
    publisher.update(&referee, referee.screen());
    // A publisher that waited for the held lock would never return (this thread holds it);
    // the bound only catches a slow path, loose enough for a loaded machine or QEMU.
    assert!(start.elapsed() < Duration::from_secs(2));
    assert_eq!(publisher.deferred(), 1);
    drop(held);
    assert_eq!(slot.current().version, 0, "not yet in");
    publisher.update(&referee, referee.screen());
    let now = slot.current();
    assert_eq!(now.version, 1);
    assert!(now.seats.is_empty(), "no game: no seat pages, no tokens");
    assert!(publisher.tokens().is_empty());
    let words = screen_lines(referee.screen());
    assert_eq!(now.public.as_ref().unwrap().screen, words);
    // Nothing changed: nothing new is published.
    publisher.update(&referee, referee.screen());
    assert_eq!(slot.current().version, 1);
}

/// A page built by hand with a piece off its grid (k11 on a 10 x 10 board), for either seat:
/// the board draws the pieces it can place and the others not, without an overflow (the second
/// seat's view flips the columns: `cols - 1 - col` went below zero).
#[test]
fn a_piece_off_the_grid_is_left_out_of_the_board_not_a_panic() {
    for seat in [0, 1] {
        let mut page = seat_page(seat, "Red to move");
        page.pieces.push(PiecePage {
            place: Place::Square(boards::geometry::grid::Cell::new(10, 10)),
            place_name: "k11".into(),
            piece: "Blue Scout".into(),
            side: Some(1),
        });
        let body = html::seat_body(&page);
        assert!(body.contains("<title>a1: Red Scout</title>"), "{body}");
        assert!(!body.contains("<title>k11"), "{body}");
    }
}
