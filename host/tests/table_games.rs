//! Table games (Stratego: Waterloo, Piecepack at Waterloo) played start to finish on the
//! simulated table from physical events alone, their journals replayed, and cut at every byte.

use std::collections::BTreeMap;

use firmware::journal::{decode, Tail};
use firmware::referee::{games, Header, Record};
use host::replay::{write_replay, ReplayError};
use host::table::{demo, find_game, TablePlayed};

fn play(game: &str, variant: &str, seed: u64, max: u32) -> TablePlayed {
    let entry = find_game(game, Some(variant)).expect("the game is on the menu");
    let mut out = Vec::new();
    demo(&entry, seed, max, true, None, &mut out).unwrap_or_else(|e| {
        panic!(
            "{game} {variant} seed {seed}: {e}\n{}",
            String::from_utf8_lossy(&out)
        )
    })
}

fn replay(bytes: &[u8], reveal: bool, force: bool) -> Result<String, ReplayError> {
    let mut out = Vec::new();
    write_replay(bytes, reveal, force, &mut out)?;
    Ok(String::from_utf8(out).expect("utf-8"))
}

#[test]
fn waterloo_games_play_to_the_end_from_physical_events() {
    // Every version on the menu and the early start, a few seeds each: each game ends with a
    // result the rules give, every action taken by the referee from lifts, placements and
    // buttons (the demo fails on anything the referee does not take).
    let mut ended = 0;
    for variant in [
        "basic",
        "standard",
        "expert",
        "basic-start-the-battle-early",
    ] {
        for seed in 1..=3 {
            let played = play("stratego-waterloo", variant, seed, 3000);
            if played.result.is_some() {
                ended += 1;
            }
            assert!(played.actions > 0);
        }
    }
    assert_eq!(ended, 12, "every game reaches a result within 3000 actions");
}

#[test]
fn piecepack_games_play_to_the_end_from_physical_events() {
    for variant in ["rules-as-written", "extra-dice-only"] {
        for seed in 1..=3 {
            let played = play("piecepack", variant, seed, 5000);
            assert!(
                played.result.is_some(),
                "{variant} seed {seed}: no result after {} actions",
                played.actions
            );
        }
    }
}

#[test]
fn a_piecepack_journal_replays_redacted_until_the_end() {
    let unfinished = play("piecepack", "rules-as-written", 4, 60);
    let text = replay(&unfinished.journal, false, false).expect("replays");
    assert!(text.contains("Secrets: redacted"), "{text}");
    assert!(matches!(
        replay(&unfinished.journal, true, false),
        Err(ReplayError::Unfinished)
    ));
    let forced = replay(&unfinished.journal, true, true).expect("forced");
    assert!(forced.contains("Secrets: revealed"), "{forced}");
}

#[test]
fn a_waterloo_journal_replays_redacted_until_the_end() {
    let unfinished = play("stratego-waterloo", "basic", 2, 40);
    assert!(unfinished.result.is_none());
    let text = replay(&unfinished.journal, false, false).expect("replays");
    assert!(text.contains("Secrets: redacted"), "{text}");
    assert!(text.contains("Unfinished."), "{text}");
    assert!(matches!(
        replay(&unfinished.journal, true, false),
        Err(ReplayError::Unfinished)
    ));
    // Redacted, no action names a line of retreat or a Prussian drawn.
    assert!(!text.contains("line of retreat:"), "{text}");
    assert!(!text.contains("Prussian drawn:"), "{text}");
    let finished = play("stratego-waterloo", "basic", 2, 3000);
    assert!(finished.result.is_some());
    let revealed = replay(&finished.journal, true, false).expect("a finished game reveals");
    assert!(revealed.contains("Secrets: revealed"), "{revealed}");
    assert!(revealed.contains("Result: The "), "{revealed}");
}

#[test]
fn a_waterloo_journal_cut_at_every_byte_recovers_the_complete_records_before_it() {
    cut_everywhere(&play("stratego-waterloo", "standard", 3, 120).journal);
}

#[test]
fn a_piecepack_journal_cut_at_every_byte_recovers_the_complete_records_before_it() {
    cut_everywhere(&play("piecepack", "rules-as-written", 2, 150).journal);
}

#[test]
fn a_napoleon_journal_cut_at_every_byte_recovers_the_complete_records_before_it() {
    let played = play("napoleon", "2-players-historical-set-up", 1, 250);
    // Far enough to hold a battle on the boards, not only the moves.
    assert!(
        played
            .screens
            .iter()
            .any(|s| firmware::referee::screen_text(s).contains("board ")),
        "no battle in the first 250 actions"
    );
    cut_everywhere(&played.journal);
}

/// Cuts `bytes` at every offset: each cut recovers exactly the complete records before it, each
/// such prefix rebuilds into the game, and none panics; a flipped byte is reported.
fn cut_everywhere(bytes: &[u8]) {
    let full = decode::<Header, Record>(bytes).expect("decodes");
    assert_eq!(full.tail, Tail::Clean);
    // What each cut recovers, and where each record ends (the shortest cut that recovers it).
    let cuts: Vec<Option<usize>> = (0..=bytes.len())
        .map(|cut| {
            decode::<Header, Record>(&bytes[..cut])
                .ok()
                .map(|r| r.records.len())
        })
        .collect();
    let ends: Vec<usize> = (0..=full.records.len())
        .map(|k| {
            cuts.iter()
                .position(|c| c.is_some_and(|n| n >= k))
                .expect("the whole journal recovers every record")
        })
        .collect();
    let mut rebuilt: BTreeMap<usize, usize> = BTreeMap::new();
    for cut in 0..=bytes.len() {
        let Ok(recovered) = decode::<Header, Record>(&bytes[..cut]) else {
            // Only a cut inside the header may fail, and it says so.
            assert!(cut < ends[0], "cut at {cut} lost the header");
            continue;
        };
        let k = recovered.records.len();
        assert_eq!(recovered.records, full.records[..k], "cut at {cut}");
        // Exactly the records that end at or before the cut.
        let complete = ends.iter().filter(|&&e| e <= cut).count() - 1;
        assert_eq!(k, complete, "cut at {cut}");
        assert_eq!(recovered.valid_len, ends[k], "cut at {cut}");
        rebuilt.entry(k).or_insert_with(|| {
            games::record(recovered.header.game, &recovered.records)
                .expect("every prefix of a journal rebuilds")
                .entries
                .len()
        });
    }
    assert_eq!(rebuilt.len(), full.records.len() + 1);
    // A flipped byte inside a record is reported, not trusted.
    let mut damaged = bytes.to_vec();
    let at = ends[full.records.len() / 2] + 3;
    damaged[at] ^= 0x5A;
    let recovered = decode::<Header, Record>(&damaged).expect("the header is intact");
    assert!(recovered.records.len() < full.records.len());
    assert!(
        matches!(recovered.tail, Tail::Corrupt { .. } | Tail::Torn { .. }),
        "{:?}",
        recovered.tail
    );
}

/// Napoléon's block names (the order of battle's first column).
fn napoleon_blocks() -> Vec<String> {
    boards::napoleon::DEFAULT_ORDER_OF_BATTLE
        .lines()
        .filter_map(|l| l.strip_prefix("block "))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// Whether `name` stands in `text` as a word of its own (block names hold `-`).
fn names(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '-';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

#[test]
fn napoleon_campaigns_play_from_physical_events_and_keep_the_blocks_secret() {
    let blocks = napoleon_blocks();
    assert!(blocks.len() > 50, "{blocks:?}");
    let mut battles = 0;
    for (variant, seed) in [
        ("2-players-historical-set-up", 1),
        ("2-players-own-set-up", 2),
        ("3-players-historical-set-up", 3),
    ] {
        let played = play("napoleon", variant, seed, 2000);
        assert!(played.actions > 0);
        assert!(
            played.result.is_some(),
            "{variant} seed {seed}: no result after {} actions",
            played.actions
        );
        for screen in &played.screens {
            let text = firmware::referee::screen_text(screen);
            // Set-up is behind a screen, the block named to its owner.
            if text.contains(" set-up ") {
                continue;
            }
            battles += usize::from(text.contains("blocks shown"));
            // Elsewhere a block is named only beside its battle-board place, revealed there.
            for line in text.split(" / ") {
                for name in &blocks {
                    assert!(
                        !names(line, name) || line.contains("board "),
                        "{variant} seed {seed}: `{name}` named off the battle boards: {text}"
                    );
                }
            }
        }
        let text = replay(&played.journal, false, false).expect("replays");
        assert!(text.contains("Result:"), "{text}");
    }
    assert!(battles > 0, "the demos reach a battle");
}

/// Napoléon's battle words name the zone a volley's hits fall on and the town a battle was won
/// at, even when the same action goes on to the next volley or the next battle: the hits of the
/// defender's skirmish volley were told "1 hit on board 1 defender reserve" (the zone the
/// attacker's answering volley then aimed at) before the attacker's block was turned down, and
/// a battle that ended as the next began was told won "at" the next battle's town.
#[test]
fn napoleon_tells_hits_on_the_zone_fired_at_and_the_win_at_its_own_town() {
    let mut checked = (0, 0);
    for variant in ["2-players-historical-set-up", "2-players-own-set-up"] {
        let played = play("napoleon", variant, 1, 3000);
        let text = replay(&played.journal, true, true).expect("replays");
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let mut target: Option<&str> = None;
        for (i, line) in lines.iter().enumerate() {
            if let Some((_, rest)) = line.split_once(" fires at ") {
                target = rest.split(':').next();
            }
            if let Some((count, rest)) = line.split_once(" on ") {
                let zone = rest.split(':').next().unwrap_or_default();
                if count.ends_with(" hit") || count.ends_with(" hits") {
                    assert_eq!(Some(zone), target, "line {i}: {line}\n{text}");
                    checked.0 += 1;
                }
            }
            if let Some((_, rest)) = line.split_once(" wins at ") {
                let town = rest.split(':').next().unwrap_or_default();
                let over = lines[i + 1..]
                    .iter()
                    .find(|l| l.contains(" is over: the blocks back"))
                    .expect("the battle's end follows its verdict");
                assert!(
                    over.contains(&format!("the battle at {town} is over")),
                    "line {i}: {line} / {over}\n{text}"
                );
                checked.1 += 1;
            }
        }
    }
    assert!(checked.0 > 10 && checked.1 > 3, "{checked:?}");
}
