//! `[web]` in umpire.toml: off by default, a port the service user may bind; every mistake
//! named with its line and the fix.

use std::path::Path;

use firmware::config::{Config, WebConfig, DEFAULT_WEB_PORT};

/// The shipped configuration with its `[web]` section (the last) replaced by `web`.
fn shipped_with(web: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("debian/umpire.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let start = text.find("\n[web]").expect("the shipped file has [web]");
    format!("{}\n{web}", &text[..start])
}

fn problems(text: &str) -> Vec<(usize, String)> {
    match Config::parse(text) {
        Ok(c) => panic!("expected problems, got {:?}", c.web),
        Err(p) => p.0.into_iter().map(|p| (p.line, p.message)).collect(),
    }
}

#[test]
fn the_pages_are_off_unless_enabled() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("debian/umpire.toml");
    let shipped = std::fs::read_to_string(path).unwrap();
    assert_eq!(Config::parse(&shipped).unwrap().web, None, "shipped off");
    assert_eq!(Config::parse(&shipped_with("")).unwrap().web, None);
    assert_eq!(
        Config::parse(&shipped_with("[web]\nport = 9000\n"))
            .unwrap()
            .web,
        None
    );
    assert_eq!(
        Config::parse(&shipped_with("[web]\nenabled = true\n"))
            .unwrap()
            .web,
        Some(WebConfig {
            port: DEFAULT_WEB_PORT,
            url: None,
        })
    );
    assert_eq!(
        Config::parse(&shipped_with("[web]\nenabled = true\nport = 9000\n"))
            .unwrap()
            .web,
        Some(WebConfig {
            port: 9000,
            url: None,
        })
    );
}

#[test]
fn a_wrong_port_or_setting_is_named_with_the_fix() {
    let text = shipped_with("[web]\nenabled = true\nport = 80\n");
    let line = text.lines().count();
    let p = problems(&text);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].0, line, "{p:?}");
    assert!(
        p[0].1.contains("[web] port = 80: use 1024 to 65535"),
        "{p:?}"
    );
    assert!(p[0].1.contains("port = 8080"), "{p:?}");

    let p = problems(&shipped_with("[web]\nenabled = true\nport = 70000\n"));
    assert!(p[0].1.contains("out of range"), "{p:?}");
    let p = problems(&shipped_with("[web]\nenabled = \"yes\"\n"));
    assert!(p[0].1.contains("[web] enabled"), "{p:?}");
    let p = problems(&shipped_with("[web]\nenabled = true\nhost = \"x\"\n"));
    assert!(p[0].1.contains("host"), "{p:?}");
}

/// `[web] url` gives the address the OLED's codes hold; a wrong one is named with its line
/// and what to write.
#[test]
fn the_url_for_the_codes_is_checked_with_its_line() {
    let web = Config::parse(&shipped_with(
        "[web]\nenabled = true\nurl = \"http://Umpire.local:8080\"\n",
    ))
    .unwrap()
    .web
    .unwrap();
    assert_eq!(
        web.url.as_ref().map(ToString::to_string).as_deref(),
        Some("HTTP://UMPIRE.LOCAL:8080")
    );
    assert_eq!(
        web.address(),
        firmware::web::link::Address::Fixed(web.url.clone().unwrap())
    );
    let detect = Config::parse(&shipped_with("[web]\nenabled = true\nport = 9000\n"))
        .unwrap()
        .web
        .unwrap();
    assert_eq!(
        detect.address(),
        firmware::web::link::Address::Detect { port: 9000 }
    );
    for (url, says) in [
        ("https://pi:8080", "begin it with http://"),
        ("http://pi:8080/umpire", "remove \"/umpire\""),
        ("http://pi_1:8080", "not a host name"),
        ("http://pi:99999", "from 1 to 65535"),
        (
            "http://a-very-long-name-for-a-raspberry-pi-at-the-table.example.org:8080",
            "too long for the code the OLED shows",
        ),
    ] {
        let text = shipped_with(&format!("[web]\nenabled = true\nurl = \"{url}\"\n"));
        let line = text.lines().count();
        let p = problems(&text);
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].0, line, "{url}: {p:?}");
        assert!(p[0].1.contains("[web] url"), "{p:?}");
        assert!(p[0].1.contains(says), "{url}: {p:?}");
    }
    let p = problems(&shipped_with("[web]\nenabled = true\nurl = 8080\n"));
    assert!(p[0].1.contains("[web] url"), "{p:?}");
}
