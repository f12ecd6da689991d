//! Perft golden file: legal move counts from fixed positions, `boards/tests/data/perft.txt`.
//!
//! Re-bless after a deliberate rules change with
//! `UMPIRE_BLESS=1 cargo test -p umpire-boards --test perft`.

use boards::stratego::{MoveList, Options, Position, Variant, BLUE, RED};
use boards::Game;

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt");

/// Leaves of the legal-move tree `depth` plies deep; a finished game is a leaf.
fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    list.iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            perft(&next, depth - 1)
        })
        .sum()
}

struct Block {
    name: String,
    /// Every line of the block but the `perft` lines, as written.
    header: Vec<String>,
    position: Position,
    depth: u32,
    expected: Vec<(u32, u64)>,
}

fn parse(text: &str) -> (Vec<String>, Vec<Block>) {
    let mut preamble = Vec::new();
    let mut raw: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            raw.push((name.to_string(), vec![line.to_string()]));
        } else if let Some((_, lines)) = raw.last_mut() {
            lines.push(line.to_string());
        } else {
            preamble.push(line.to_string());
        }
    }
    let blocks = raw
        .into_iter()
        .map(|(name, lines)| {
            let field = |key: &str| {
                lines
                    .iter()
                    .find_map(|l| l.strip_prefix(key).map(str::trim))
                    .unwrap_or_else(|| panic!("[{name}]: no `{key}` line"))
                    .to_string()
            };
            let options = field("options:");
            let mut words = options.split_whitespace();
            let rules = words.next().unwrap_or_default();
            let variant = match words.next() {
                Some("classic") => Variant::Classic,
                Some("duel") => Variant::Duel,
                other => panic!("[{name}]: unknown variant {other:?}"),
            };
            let options = match rules {
                "isf" => Options::isf(variant),
                "plain" => Options::plain(variant),
                other => panic!("[{name}]: unknown rules {other:?}"),
            };
            let to_move = match field("to-move:").as_str() {
                "red" => RED,
                "blue" => BLUE,
                other => panic!("[{name}]: unknown seat {other:?}"),
            };
            let depth: u32 = field("depth:").parse().expect("depth is a number");
            let diagram: String = lines
                .iter()
                .filter(|l| l.starts_with(|c: char| c.is_ascii_digit() || c == ' '))
                .map(|l| format!("{l}\n"))
                .collect();
            let position = Position::from_diagram(options, &diagram, to_move)
                .unwrap_or_else(|e| panic!("[{name}]: {e}"));
            let expected = lines
                .iter()
                .filter_map(|l| l.strip_prefix("perft "))
                .map(|l| {
                    let mut it = l
                        .split_whitespace()
                        .map(|w| w.parse::<u64>().expect("number"));
                    let d = it.next().expect("depth") as u32;
                    (d, it.next().expect("count"))
                })
                .collect();
            let header = lines
                .into_iter()
                .filter(|l| !l.starts_with("perft "))
                .collect::<Vec<_>>();
            Block {
                name,
                header,
                position,
                depth,
                expected,
            }
        })
        .collect();
    (preamble, blocks)
}

#[test]
fn perft_counts_match_the_golden_file() {
    let text = std::fs::read_to_string(GOLDEN).expect("golden file readable");
    let (preamble, blocks) = parse(&text);
    assert!(blocks.len() >= 6, "golden file lost its positions");
    let bless = std::env::var_os("UMPIRE_BLESS").is_some();
    let mut out = preamble.join("\n");
    let mut mismatches = Vec::new();
    for block in &blocks {
        let counts: Vec<(u32, u64)> = (1..=block.depth)
            .map(|d| (d, perft(&block.position, d)))
            .collect();
        if counts != block.expected {
            mismatches.push(format!(
                "[{}]: expected {:?}, computed {:?}",
                block.name, block.expected, counts
            ));
        }
        out.push('\n');
        // Drop the blank line that separated this block from the next; it is re-added below.
        let mut header = block.header.clone();
        while header.last().is_some_and(|l| l.trim().is_empty()) {
            header.pop();
        }
        for line in header {
            out.push_str(&line);
            out.push('\n');
        }
        for (d, n) in counts {
            out.push_str(&format!("perft {d} {n}\n"));
        }
    }
    if bless {
        std::fs::write(GOLDEN, out).expect("golden file writable");
    } else {
        assert!(
            mismatches.is_empty(),
            "perft counts changed (re-bless with UMPIRE_BLESS=1 only if the rules change was \
             deliberate):\n{}",
            mismatches.join("\n")
        );
    }
}

#[test]
fn the_repetition_rules_prune_the_endgame_tree() {
    let text = std::fs::read_to_string(GOLDEN).expect("golden file readable");
    let (_, blocks) = parse(&text);
    let count = |name: &str| {
        let b = blocks
            .iter()
            .find(|b| b.name == name)
            .expect("block exists");
        perft(&b.position, b.depth)
    };
    // Same position, same depth: the ISF rules must forbid some sequences the plain rules allow.
    assert!(count("endgame-isf") < count("endgame-plain"));
    // And from a position without history they change nothing in the first plies.
    let b = blocks
        .iter()
        .find(|b| b.name == "endgame-isf")
        .expect("block");
    let p = blocks
        .iter()
        .find(|b| b.name == "endgame-plain")
        .expect("block");
    assert_eq!(perft(&b.position, 3), perft(&p.position, 3));
    assert_eq!(b.position.options(), &Options::isf(Variant::Classic));
}
