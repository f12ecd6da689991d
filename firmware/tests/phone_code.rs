//! The phone code on the OLED is a QR code a phone can read: each screen is rendered into the
//! OLED's framebuffer as the display driver sends it ([`screens::render_page`]), surrounded
//! by the panel's dark glass, and decoded from those pixels by an independent decoder (rqrr);
//! it must give back exactly the seat's address. Fails on the code before the phone codes
//! existed (no [`Screen::PhoneCode`], nothing drawn).

use std::net::Ipv4Addr;

use firmware::screens::{self, Frame, HEIGHT, WIDTH};
use firmware::ui::{Screen, SeatUrl};
use firmware::web::link::Origin;
use firmware::web::Token;

/// The frame as a grey image (lit pixels light, as the panel shows them), with `border` dark
/// pixels of glass all round and each pixel `scale` times: a camera's view of the panel.
fn photo(frame: &Frame, border: usize, scale: usize) -> (usize, usize, Vec<u8>) {
    let (w, h) = ((WIDTH + 2 * border) * scale, (HEIGHT + 2 * border) * scale);
    let mut grey = vec![0u8; w * h];
    for y in 0..h {
        for x in 0..w {
            let (fx, fy) = (x / scale, y / scale);
            if (border..border + WIDTH).contains(&fx)
                && (border..border + HEIGHT).contains(&fy)
                && frame.pixel(fx - border, fy - border)
            {
                grey[y * w + x] = 255;
            }
        }
    }
    (w, h, grey)
}

/// Every QR code found in the frame's pixels, decoded.
fn decode(frame: &Frame) -> Vec<String> {
    let (w, h, grey) = photo(frame, 8, 3);
    let mut image = rqrr::PreparedImage::prepare_from_greyscale(w, h, |x, y| grey[y * w + x]);
    image
        .detect_grids()
        .into_iter()
        .filter_map(|g| g.decode().ok().map(|(_, text)| text))
        .collect()
}

fn code_screen(url: &str) -> Screen {
    Screen::PhoneCode {
        seat: "Red".into(),
        url: SeatUrl(url.into()),
    }
}

#[test]
fn the_drawn_code_decodes_to_exactly_the_seats_address() {
    let origins = [
        Origin::lan(Ipv4Addr::new(192, 168, 1, 23), 8080),
        Origin::lan(Ipv4Addr::new(255, 255, 255, 255), 65535),
        Origin::lan(Ipv4Addr::new(10, 0, 0, 2), 1024),
        Origin::parse("http://umpire.local:8080").unwrap(),
    ];
    for origin in &origins {
        for _ in 0..4 {
            let token = Token::fresh().unwrap();
            let url = origin.seat_url(&token);
            let frame = screens::render_page(&code_screen(&url), 0);
            assert_eq!(decode(&frame), std::slice::from_ref(&url), "{origin}");
            // The address the phone opens holds the seat's own token.
            let path = url.rsplit('/').next().unwrap();
            assert!(token.matches(path));
        }
    }
}

/// The code is drawn as a phone needs it: dark modules on a lit square, 2 pixels a module,
/// with a lit quiet zone round it; the seat and the address in text beside it.
#[test]
fn the_code_is_dark_on_lit_two_pixels_a_module_with_the_address_beside() {
    let token = Token::fresh().unwrap();
    let url = Origin::lan(Ipv4Addr::new(192, 168, 100, 200), 8080).seat_url(&token);
    let screen = code_screen(&url);
    let frame = screens::render_page(&screen, 0);
    // The quiet zone: the top 3 rows and the left 6 columns of the code's square are lit.
    for x in 0..64 {
        for y in 0..3 {
            assert!(frame.pixel(x, y), "({x}, {y}) unlit");
            assert!(frame.pixel(x, HEIGHT - 1 - y), "({x}, bottom {y}) unlit");
        }
    }
    for y in 0..HEIGHT {
        for x in 0..6 {
            assert!(frame.pixel(x, y), "({x}, {y}) unlit");
        }
    }
    // The finder pattern's top-left module: dark, 2x2 pixels, at (6, 3).
    for (x, y) in [(6, 3), (7, 3), (6, 4), (7, 4)] {
        assert!(!frame.pixel(x, y), "({x}, {y}) lit");
    }
    let words = screens::screen_lines(&screen);
    assert_eq!(words[0], "Red");
    let lower = format!("192.168.100.200:8080/s/{}", token.base32());
    assert_eq!(words[1], lower);
    assert_eq!(words.last().unwrap(), "OK: hide");
    assert_eq!(screens::page_count(&screen), 1);
}

/// The question screen holds no code at all: nothing to decode, no token in its words.
#[test]
fn the_question_holds_no_code() {
    let screen = Screen::PhoneAsk {
        seat: "Red".into(),
        more: true,
    };
    let frame = screens::render_page(&screen, 0);
    assert_eq!(decode(&frame), Vec::<String>::new());
    assert_eq!(
        screens::screen_lines(&screen),
        [
            "Phone code",
            "Red: press OK to show your code (others look away)",
            "Die: next seat, Back: close"
        ]
    );
    assert_eq!(screens::page_count(&screen), 1);
}
