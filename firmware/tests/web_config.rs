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
            port: DEFAULT_WEB_PORT
        })
    );
    assert_eq!(
        Config::parse(&shipped_with("[web]\nenabled = true\nport = 9000\n"))
            .unwrap()
            .web,
        Some(WebConfig { port: 9000 })
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
