//! Every screen of random games of every game, checked on what the OLED draws (the layout that
//! paints the pixels), not on the long text behind it:
//! - nothing is cut: no line ends in an ellipsis, and every word of the screen's texts is drawn
//!   on one of its pages;
//! - every line lies on the 128x64 panel, and no two lines of a page overlap;
//! - the words a player needs first (the verdict, what to press, the first hand step) are drawn
//!   whole on page 1;
//! - a menu's entries are drawn whole and differ from one another.
//!
//! The games: Stratego Original and Duel, and every variant of every table game, played by the
//! seeded bots; the table games also with careless hands (a piece put down where the umpire does
//! not expect it, then put back), which brings the refusals and the mismatch screens; every odd
//! seed of Napoléon with rule 6.2.4's option (`[napoleon] reveal_on_contact`), whose note the
//! set-up screens carry. The number of games per variant is `UMPIRE_SCREEN_GAMES` (default 2;
//! the README records a run of thousands).

use std::collections::BTreeSet;

use boards::stratego::Variant;
use firmware::referee::games;
use firmware::screens::text::ELLIPSIS;
use firmware::screens::{layout, Drawn, Layout};
use firmware::sensing::Place;
use firmware::ui::Screen;
use host::demo::{run_with_frames, Demo};
use host::sim::{SimTable, Told};
use host::table::{bot_step, choose_game, find_game, set_up, view};
use rand::{Rng, SeedableRng};

fn games_per_variant() -> u64 {
    std::env::var("UMPIRE_SCREEN_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2)
}

/// Words of `text`, as wrapping sees them.
fn words(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

/// Whether `needle`'s words appear in order (not necessarily together) in `hay`.
fn in_order(hay: &[&str], needle: &[&str]) -> bool {
    let mut it = hay.iter();
    needle.iter().all(|w| it.any(|h| h == w))
}

/// The texts of a screen a player reads, and which of them must be whole on page 1.
fn texts(screen: &Screen) -> (Vec<String>, Vec<String>) {
    let mut all: Vec<String> = Vec::new();
    let mut first: Vec<String> = Vec::new();
    match screen {
        Screen::Boot { detail, .. } => first.push(detail.clone()),
        Screen::Choice {
            title,
            entries,
            selected,
            ..
        } => {
            // The entries off the screen scroll in with the Die button.
            all.push(title.clone());
            if let Some(e) = entries.get(*selected) {
                first.push(e.clone());
            }
        }
        Screen::Setup { instruction, .. } => first.push(instruction.clone()),
        Screen::Problems { problems, .. } => {
            all.extend(problems.iter().cloned());
            first.extend(problems.first().cloned());
        }
        Screen::Play { prompt, .. } => first.push(prompt.clone()),
        Screen::MoveAccepted { mv, .. } => first.push(mv.clone()),
        Screen::Illegal { reason, fix, .. } => {
            all.push(reason.clone());
            first.push(fix.clone());
        }
        Screen::Battle {
            attacker,
            defender,
            result,
            after,
            hands,
            ..
        } => {
            all.extend([attacker.clone(), defender.clone()]);
            all.extend(hands.iter().cloned());
            all.extend(after.iter().cloned());
            first.push(result.clone());
            first.extend(hands.first().cloned());
        }
        Screen::Told {
            title,
            lines,
            hands,
            ..
        } => {
            all.extend(lines.iter().cloned());
            all.extend(hands.iter().cloned());
            first.push(title.clone());
            match hands.first() {
                Some(hand) => first.push(hand.clone()),
                None => first.extend(lines.first().cloned()),
            }
        }
        Screen::DieRoll { face, meaning } => first.extend([face.clone(), meaning.clone()]),
        Screen::Mismatch { differences } => {
            let items: Vec<String> = differences
                .iter()
                .map(|d| format!("{} -> {}", d.place, d.belongs))
                .collect();
            first.extend(items.first().cloned());
            all.extend(items);
        }
        Screen::Takeback {
            moves_back,
            to_move_number,
        } => first.extend([
            format!("Take back {moves_back}"),
            format!("to turn {to_move_number}?"),
            "OK = take back".into(),
            "Back = keep".into(),
        ]),
        Screen::GameOver { result, reason } => {
            first.extend([result.clone(), reason.clone(), "OK: new game".into()]);
        }
        Screen::Error { message, fix } => {
            all.push(message.clone());
            first.push(fix.clone());
        }
        Screen::Calibrate { .. } => {}
        // The phone codes: what to press, whole on page 1 (the code's own pixels are decoded in
        // firmware/tests/phone_code.rs).
        Screen::PhoneAsk { seat, .. } => {
            first.push(format!(
                "{seat}: press OK to show your code (others look away)"
            ));
        }
        Screen::PhoneCode { seat, .. } => first.extend([seat.clone(), "OK: hide".into()]),
        Screen::Recovery {
            found,
            detail,
            entries,
            selected,
        } => {
            all.push(detail.clone());
            first.push(found.clone());
            first.extend(entries.get(*selected).cloned());
        }
        Screen::Fault {
            part, problem, fix, ..
        } => {
            all.extend([part.clone(), problem.clone()]);
            first.push(fix.clone());
        }
    }
    all.extend(first.iter().cloned());
    (all, first)
}

/// Everything wrong with how `screen` is drawn.
fn problems(screen: &Screen) -> Vec<String> {
    let laid: Layout = layout(screen);
    let mut out = Vec::new();
    for (n, page) in laid.pages.iter().enumerate() {
        let lines: Vec<&Drawn> = page.texts().collect();
        for d in &lines {
            if d.text.contains(ELLIPSIS) {
                out.push(format!("page {}: `{}` is cut", n + 1, d.text));
            }
            let b = d.bounds();
            // A bar's bold title is raised one row out of it (the font's empty top row).
            let (x0, y0, x1, y1) = match d.clip {
                Some(c) => (
                    c.top_left.x,
                    c.top_left.y - 1,
                    c.top_left.x + c.size.width as i32,
                    c.top_left.y + c.size.height as i32,
                ),
                None => (0, 0, 128, 64),
            };
            let (bx1, by1) = (
                b.top_left.x + b.size.width as i32,
                b.top_left.y + b.size.height as i32,
            );
            if b.top_left.x < x0.max(0)
                || b.top_left.y < y0.max(-1)
                || bx1 > x1.min(128)
                || by1 > y1.min(64)
            {
                out.push(format!(
                    "page {}: `{}` is drawn off its area ({b:?})",
                    n + 1,
                    d.text
                ));
            }
        }
        for (i, a) in lines.iter().enumerate() {
            for b in &lines[i + 1..] {
                let (ra, rb) = (a.bounds(), b.bounds());
                if ra.intersection(&rb).size.width > 0 && ra.intersection(&rb).size.height > 0 {
                    out.push(format!(
                        "page {}: `{}` and `{}` overlap",
                        n + 1,
                        a.text,
                        b.text
                    ));
                }
            }
        }
    }
    let (all, first) = texts(screen);
    let drawn = laid.lines().join(" ");
    let drawn_words = words(&drawn);
    for text in &all {
        if !in_order(&drawn_words, &words(text)) {
            out.push(format!("`{text}` is not drawn whole on any page"));
        }
    }
    let page_one: Vec<String> = laid.pages[0].lines();
    for text in &first {
        let want = words(text).join(" ");
        if !want.is_empty() && !page_one.iter().any(|l| words(l).join(" ").contains(&want)) {
            out.push(format!("`{text}` is not whole on page 1"));
        }
    }
    if let Screen::Choice { entries, .. } = screen {
        let distinct: BTreeSet<&String> = entries.iter().collect();
        if distinct.len() != entries.len() {
            out.push(format!("the menu offers the same entry twice: {entries:?}"));
        }
    }
    out
}

/// Checks each screen once, keeping every bad one.
#[derive(Default)]
struct Checked {
    seen: BTreeSet<String>,
    bad: Vec<String>,
    /// Games played, for the summary line.
    games: usize,
}

impl Checked {
    fn check(&mut self, game: &str, screen: &Screen) {
        if !self.seen.insert(format!("{screen:?}")) {
            return;
        }
        let found = problems(screen);
        if found.is_empty() {
            return;
        }
        let kind = format!("{screen:?}");
        let kind = kind
            .split([' ', '{', '('])
            .next()
            .unwrap_or_default()
            .to_string();
        self.bad.push(format!(
            "{game} ({kind}):\n  {}\n  drawn: {:?}",
            found.join("\n  "),
            layout(screen).lines()
        ));
    }

    /// Prints how much was checked; panics listing the bad screens (the first 40, or
    /// `UMPIRE_SCREEN_SHOW`), if any.
    fn verdict(&self) {
        println!(
            "{} games, {} distinct screens, {} bad",
            self.games,
            self.seen.len(),
            self.bad.len()
        );
        let show = std::env::var("UMPIRE_SCREEN_SHOW")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(40);
        assert!(
            self.bad.is_empty(),
            "{} of {} screens do not fit the OLED:\n{}",
            self.bad.len(),
            self.seen.len(),
            self.bad
                .iter()
                .take(show)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

#[test]
fn every_stratego_screen_fits_the_oled() {
    let mut checked = Checked::default();
    for variant in [Variant::Classic, Variant::Duel] {
        for seed in 0..games_per_variant() {
            let demo = Demo {
                quiet: true,
                max_moves: 400,
                ..Demo::new(variant, seed)
            };
            let played = run_with_frames(&demo, None, &mut std::io::sink())
                .unwrap_or_else(|e| panic!("{variant} seed {seed}: {e}"));
            checked.games += 1;
            for screen in &played.screens {
                checked.check(&format!("{variant} seed {seed}"), screen);
            }
        }
    }
    assert!(
        checked.seen.len() > 50,
        "only {} screens",
        checked.seen.len()
    );
    checked.verdict();
}

/// A careless hand: a piece of the board put down on another place the game uses, the screen
/// checked, then put back.
fn careless(table: &mut SimTable, rng: &mut impl Rng, places: &[Place]) -> Vec<Screen> {
    let occupied = table.board.occupied_places();
    let empty: Vec<&Place> = places.iter().filter(|p| !occupied.contains(p)).collect();
    if occupied.is_empty() || empty.is_empty() {
        return Vec::new();
    }
    let from = occupied[rng.random_range(0..occupied.len())];
    let to = *empty[rng.random_range(0..empty.len())];
    let tag = table.board.tag_at(from);
    let mut shown = Vec::new();
    let mut keep = |table: &mut SimTable| {
        for t in table.take_told() {
            if let Told::Screen(s) = t {
                shown.push(s);
            }
        }
    };
    if table.lift(from).is_ok() && table.place(to, tag).is_ok() {
        table.wait(2_000);
        keep(table);
        let _ = table.lift(to);
        let _ = table.place(from, tag);
        table.wait(2_000);
        keep(table);
    }
    shown
}

#[test]
fn every_table_game_screen_fits_the_oled() {
    let mut checked = Checked::default();
    for (name, variants) in games::menu() {
        for (label, kind) in variants {
            let menu_entry = find_game(name, Some(&label)).expect("on the menu");
            let places: Vec<Place> = games::layout(kind).places.iter().map(|(_, p)| *p).collect();
            for seed in 0..games_per_variant() {
                // Every odd seed of Napoléon with 6.2.4's option: its note on every set-up
                // screen, and the battles it changes.
                let option = seed % 2 == 1;
                let mut entry = menu_entry.clone();
                entry.kind = entry.kind.on_napoleon_reveal_on_contact(option);
                let game = if entry.kind == menu_entry.kind {
                    format!("{name} {label} seed {seed}")
                } else {
                    format!("{name} {label}, option 6.2.4, seed {seed}")
                };
                let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
                let mut table = SimTable::with_layout(entry.referee_config(), seed, entry.layout())
                    .expect("the game's layout");
                let mut shown: Vec<Screen> = Vec::new();
                choose_game(&mut table, &entry).expect("chosen");
                set_up(&mut table, &mut rng).expect("set up");
                for step in 0..300u32 {
                    for t in table.take_told() {
                        if let Told::Screen(s) = t {
                            shown.push(s);
                        }
                    }
                    if step % 7 == 3 {
                        shown.extend(careless(&mut table, &mut rng, &places));
                    }
                    match bot_step(&mut table, &mut rng) {
                        Ok(Some(_)) => {}
                        Ok(None) => break,
                        Err(e) => panic!("{game}: {e}"),
                    }
                    if view(&table).is_ok_and(|v| v.result().is_some()) {
                        break;
                    }
                }
                for t in table.take_told() {
                    if let Told::Screen(s) = t {
                        shown.push(s);
                    }
                }
                checked.games += 1;
                for screen in &shown {
                    checked.check(&game, screen);
                }
            }
        }
    }
    assert!(
        checked.seen.len() > 100,
        "only {} screens",
        checked.seen.len()
    );
    checked.verdict();
}

/// The screens no bot game brings: the umpire's own faults and errors, the boot, its recovery
/// choice and a takeback offer, with the longest words the code gives them.
#[test]
fn the_screens_outside_play_fit_the_oled() {
    let fault = |part: &str, problem: &str, fix: &str, more: u16| Screen::Fault {
        part: part.into(),
        problem: problem.into(),
        fix: fix.into(),
        more,
    };
    let screens = [
        fault(
            "Sensors",
            "/dev/spidev0.0: No such file or directory (os error 2)",
            "enable SPI: sudo umpire setup",
            2,
        ),
        fault(
            "Sensors",
            "the sensor chain did not answer: row expander 0x20 on /dev/i2c-1: read failed \
             (Remote I/O error)",
            "check the sensor cable and power; `umpire doctor` names the part",
            0,
        ),
        fault(
            "Config line 12",
            "unknown setting `adress` in [oled]: the settings there are address and bus",
            "edit /etc/umpire/umpire.toml line 12 and save it: the umpire tries again by itself",
            1,
        ),
        Screen::Error {
            message: "a4 and i4: the same tag was read on both".into(),
            fix: "lift the pieces on a4 and i4 and put them back to read their tags again".into(),
        },
        Screen::Recovery {
            found: "36 of 37 moves intact".into(),
            detail: "Resume cuts the damage off (a copy is kept)".into(),
            entries: vec!["Resume 36 moves".into(), "New game".into()],
            selected: 1,
        },
        Screen::Recovery {
            found: "the set-up is damaged: 1 of 2 armies intact".into(),
            detail: "the journal was moved aside to game-0012.umpj.damaged".into(),
            entries: vec!["New game".into()],
            selected: 0,
        },
        Screen::Takeback {
            moves_back: 12,
            to_move_number: 123,
        },
        Screen::Boot {
            version: "0.1.0".into(),
            detail: "resuming game 12 of Stratego: Waterloo".into(),
        },
    ];
    let mut checked = Checked::default();
    for screen in &screens {
        checked.check("outside play", screen);
    }
    assert_eq!(checked.seen.len(), screens.len());
    checked.verdict();
}
