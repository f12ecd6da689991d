//! `umpire-sim demo --serve --frames`: the OLED hands each seat its phone code once the game
//! is chosen, and the frames show it. Each frame is read back as a picture and its QR code
//! decoded (rqrr); each seat's code opens that seat's page on the running server, and only
//! that seat's. Fails before the hand-out existed (no frame held a code).

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::Arc;

use boards::stratego::Variant;
use firmware::web::handout::Handout;
use firmware::web::link::{Address, Origin};
use firmware::web::server::Server;
use firmware::web::{Publisher, Slot};
use host::demo::{run_served, Demo, Serve};

/// The QR codes in the PNG frame at `path`, decoded (the frame put on dark glass).
fn codes_in(path: &Path) -> Vec<String> {
    let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let (w, h) = (info.width as usize, info.height as usize);
    let border = 16;
    let (bw, bh) = (w + 2 * border, h + 2 * border);
    let mut image = rqrr::PreparedImage::prepare_from_greyscale(bw, bh, |x, y| {
        if (border..border + w).contains(&x) && (border..border + h).contains(&y) {
            buf[(y - border) * w + (x - border)]
        } else {
            0
        }
    });
    image
        .detect_grids()
        .into_iter()
        .filter_map(|g| g.decode().ok().map(|(_, t)| t))
        .collect()
}

fn get(server: &Server, path: &str) -> String {
    let mut s = std::net::TcpStream::connect(server.addr()).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\n\r\n").unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    answer
}

#[test]
fn the_demos_frames_show_each_seats_code_and_it_opens_that_seats_page() {
    let frames = std::env::temp_dir().join(format!("umpire-phone-frames-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&frames);
    std::fs::create_dir_all(&frames).unwrap();
    let slot = Slot::new();
    let server = Server::start(
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
        Arc::clone(&slot),
    )
    .unwrap();
    let origin = Origin::parse(&format!("http://{}", server.addr())).unwrap();
    let serve = Serve {
        publisher: Publisher::new(Arc::clone(&slot)),
        address: server.addr().to_string(),
        pace: std::time::Duration::ZERO,
        handout: Some(Handout::new(Address::Fixed(origin.clone()))),
    };
    let demo = Demo {
        quiet: true,
        max_moves: 4,
        ..Demo::new(Variant::Duel, 2)
    };
    let mut out = Vec::new();
    run_served(&demo, Some(&frames), serve, &mut out).unwrap();

    let mut names: Vec<_> = std::fs::read_dir(&frames)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "png") && !p.to_string_lossy().contains("leds")
        })
        .collect();
    names.sort();
    let mut found: Vec<(usize, String)> = Vec::new();
    for (i, path) in names.iter().enumerate() {
        for code in codes_in(path) {
            found.push((i, code));
        }
    }
    // Two codes, one after the other, early in the game (before the set-up's frames).
    let distinct: BTreeSet<&String> = found.iter().map(|(_, c)| c).collect();
    assert_eq!(distinct.len(), 2, "{found:?}");
    assert!(found.iter().all(|(i, _)| *i < 10), "{found:?}");
    for code in distinct {
        let path = code
            .strip_prefix(&origin.to_string())
            .expect("the code holds the configured address");
        assert!(path.starts_with("/S/"), "{path}");
        // The game is over but its tokens live until the next: each code opens a seat's page.
        let page = get(&server, path);
        assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    }
    // The first code shown is Red's, the second Blue's.
    let path = |i: usize| {
        found[i]
            .1
            .strip_prefix(&origin.to_string())
            .unwrap()
            .to_string()
    };
    let red = path(0);
    let blue = path(found.len() - 1);
    assert!(
        get(&server, &red).contains("<title>Umpire: Red"),
        "the first code is Red's"
    );
    assert!(
        get(&server, &blue).contains("<title>Umpire: Blue"),
        "the last code is Blue's"
    );
    // A code with one character changed opens nothing.
    let mut wrong = red.clone();
    let last = wrong.pop().unwrap();
    wrong.push(if last == 'A' { 'B' } else { 'A' });
    assert!(get(&server, &wrong).starts_with("HTTP/1.1 403"));
    std::fs::remove_dir_all(&frames).ok();
}
