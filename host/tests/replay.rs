//! `umpire-sim replay`: a journal read back as a record, redacted while the game is unfinished.

use boards::stratego::Variant;
use host::demo::{run_with_journal, Demo};
use host::replay::{write_replay, ReplayError};

fn journal(demo: &Demo) -> Vec<u8> {
    run_with_journal(demo, &mut Vec::new())
        .expect("the demo plays")
        .1
}

fn replay(bytes: &[u8], reveal: bool, force: bool) -> Result<String, ReplayError> {
    let mut out = Vec::new();
    write_replay(bytes, reveal, force, &mut out)?;
    Ok(String::from_utf8(out).expect("utf-8"))
}

#[test]
fn an_unfinished_game_stays_redacted_unless_forced() {
    let demo = Demo {
        max_moves: 6,
        ..Demo::new(Variant::Classic, 1)
    };
    let bytes = journal(&demo);
    let text = replay(&bytes, false, false).expect("replays");
    assert!(text.contains("Secrets: redacted"), "{text}");
    assert!(text.contains("Unfinished: Red to move."), "{text}");
    assert!(text.contains("   6. Blue   "), "{text}");
    // The board shows a rank only where the table saw it: exactly the revealed squares.
    let recovered =
        firmware::journal::decode::<firmware::referee::Header, firmware::referee::Record>(&bytes)
            .expect("decodes");
    let rebuilt =
        firmware::referee::rebuild(recovered.header, &recovered.records).expect("rebuilds");
    let position = rebuilt.position().expect("in play");
    let board: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("Board after"))
        .skip(1)
        .take(10)
        .collect();
    for (i, line) in board.iter().enumerate() {
        let tokens: Vec<&str> = line.split_whitespace().skip(1).collect();
        for (col, token) in tokens.iter().enumerate() {
            let square = boards::stratego::Square::new(col as u8, 9 - i as u8).expect("a square");
            if position.piece_at(square).is_some() {
                assert_eq!(
                    token.ends_with('?'),
                    !position.is_revealed(square),
                    "{square}: {token}"
                );
            }
        }
    }
    assert!(!text.contains("rF") && !text.contains("bF"));
    assert!(matches!(
        replay(&bytes, true, false),
        Err(ReplayError::Unfinished)
    ));
    let forced = replay(&bytes, true, true).expect("forced");
    assert!(
        forced.contains("Secrets: revealed") && forced.contains("rF"),
        "{forced}"
    );
}

#[test]
fn a_finished_game_reveals_on_request_and_notes_a_torn_tail() {
    let mut bytes = journal(&Demo::new(Variant::Duel, 2));
    bytes.extend_from_slice(&[30, 0, 0, 0, 1]);
    let text = replay(&bytes, true, false).expect("replays");
    assert!(text.contains("Secrets: revealed"), "{text}");
    assert!(text.contains("Result: "), "{text}");
    assert!(text.contains("half-written record"), "{text}");
    assert!(text.contains("Red placed their army."));
}

/// A payload framed as it is: postcard writes each `u8` of a tuple as one byte.
struct Raw<'a>(&'a [u8]);

impl serde::Serialize for Raw<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTuple;
        let mut t = s.serialize_tuple(self.0.len())?;
        for b in self.0 {
            t.serialize_element(b)?;
        }
        t.end()
    }
}

/// A journal whose header names another record schema (checksums valid) is refused by name,
/// never replayed as something else.
#[test]
fn a_journal_of_another_schema_is_refused_by_name() {
    use firmware::journal::{encode_header, header_payload};
    use firmware::referee::SCHEMA;
    let bytes = journal(&Demo::new(Variant::Duel, 2));
    let mut payload = header_payload(&bytes).expect("a header").to_vec();
    let records = bytes[10 + payload.len() + 4..].to_vec();
    // The schema is the payload's first field, a one-byte varint.
    payload[0] = 9;
    let mut other = encode_header(&Raw(&payload)).expect("frames");
    other.extend_from_slice(&records);
    let Err(ReplayError::Rebuild(e)) = replay(&other, false, false) else {
        panic!("replayed a journal of another schema");
    };
    assert_eq!(
        e.to_string(),
        format!(
            "this journal was written by a build with another record layout (schema 9, this \
             build reads {SCHEMA}): replay it with that build, or start a new game"
        )
    );
}

/// Text that only Rust's `Debug` writes: a replay is for players, not for programmers.
fn assert_words(text: &str) {
    for debug in ["{", "}", "Some(", "Cell", "Tray", "Seat(", "Action", "::"] {
        assert!(!text.contains(debug), "`{debug}` in the replay:\n{text}");
    }
}

/// A table game's journal, `max` actions long at most.
fn table_journal(game: &str, variant: &str, seed: u64, max: u32) -> host::table::TablePlayed {
    let entry = host::table::find_game(game, Some(variant)).expect("on the menu");
    host::table::demo(&entry, seed, max, true, None, &mut Vec::new()).expect("the demo plays")
}

/// Every game replays in the players' words, redacted and revealed: seats by name, moves by
/// squares, battles with their results, the die. Fails on the code before: a Waterloo replay
/// printed `WaterlooAction { action: Move { from: Cell { .. } } }` and "seat 1".
#[test]
fn every_game_replays_in_the_players_words() {
    // Stratego Original and Duel: a battle names both ranks and who won.
    for variant in [Variant::Classic, Variant::Duel] {
        let bytes = journal(&Demo::new(variant, 2));
        for text in [
            replay(&bytes, false, false).expect("replays"),
            replay(&bytes, true, false).expect("a finished game reveals"),
        ] {
            assert_words(&text);
            assert!(text.contains("Red placed their army."), "{text}");
            assert!(text.contains("   2. Blue   "), "{text}");
            let battle = text
                .lines()
                .find(|l| l.contains(" attacks ") && l.contains(": Red ") || l.contains(": Blue "))
                .unwrap_or_else(|| panic!("no battle:\n{text}"));
            assert!(
                ["wins", "holds", "removed", "captured", "explodes", "defused"]
                    .iter()
                    .any(|w| battle.contains(w)),
                "{battle}"
            );
        }
    }
    // Every Waterloo version and scenario: seats French and Allied, a battle's result, the
    // battle die's face (in some game: it is rolled only between equal strengths).
    let mut dice = 0;
    for (i, variant) in [
        "basic",
        "standard",
        "expert",
        "standard-start-the-battle-early",
        "expert-where-are-the-prussians",
    ]
    .iter()
    .enumerate()
    {
        let played = table_journal("stratego-waterloo", variant, 3 + i as u64, 250);
        for text in [
            replay(&played.journal, false, false).expect("replays"),
            replay(&played.journal, true, true).expect("reveals"),
        ] {
            assert_words(&text);
            assert!(text.contains("Allied placed their army."), "{text}");
            assert!(text.contains(" French   "), "{text}");
            assert!(!text.contains("seat 1"), "{text}");
            assert!(
                text.lines().any(|l| l.contains(" vs ")
                    && [" wins", " holds", " falls", "eliminated", "equal strength"]
                        .iter()
                        .any(|w| l.contains(w))),
                "no battle result:\n{text}"
            );
            if text.contains("chance   die: ") {
                dice += 1;
            }
        }
        let revealed = replay(&played.journal, true, true).expect("reveals");
        // Every secret named: which piece moved, which line of retreat was drawn.
        assert_eq!(
            revealed.contains("draws a line of retreat (the "),
            revealed.contains("draws a line of retreat"),
            "{revealed}"
        );
        assert!(
            revealed.contains("Allied Duke of Wellington: "),
            "{revealed}"
        );
    }
    assert!(dice > 0, "no battle die rolled in any Waterloo game");
    // Piecepack at Waterloo: seats Allies and French, each combat's dice and result.
    for variant in ["rules-as-written", "extra-dice-only"] {
        let played = table_journal("piecepack", variant, 2, 5000);
        for text in [
            replay(&played.journal, false, false).expect("replays"),
            replay(&played.journal, true, false).expect("a finished game reveals"),
        ] {
            assert_words(&text);
            assert!(text.contains("Allies placed their army."), "{text}");
            assert!(text.contains(" French   "), "{text}");
            assert!(text.contains("combat at "), "{text}");
            assert!(
                text.contains("against Allies") || text.contains("against French"),
                "{text}"
            );
            assert!(text.contains(" die 1 of "), "{text}");
        }
        let revealed = replay(&played.journal, true, false).expect("reveals");
        assert!(revealed.contains("Wellington (Red Pawn): "), "{revealed}");
    }
}

/// A redacted replay of an unfinished Stratego game names a rank only where a battle showed
/// it to the table; the forced reveal names the rest.
#[test]
fn a_redacted_stratego_replay_names_only_ranks_seen_in_battle() {
    use boards::stratego::{seat_name, Rank, BLUE, RED};
    let mut hidden_named = 0;
    for seed in 1..=8 {
        let bytes = journal(&Demo {
            max_moves: 40,
            ..Demo::new(Variant::Classic, seed)
        });
        let recovered = firmware::journal::decode::<
            firmware::referee::Header,
            firmware::referee::Record,
        >(&bytes)
        .expect("decodes");
        let rebuilt =
            firmware::referee::rebuild(recovered.header, &recovered.records).expect("rebuilds");
        let mut seen = std::collections::BTreeSet::new();
        for entry in &rebuilt.entries {
            if let firmware::referee::Decision::Battle(b) = entry.decision {
                seen.insert((b.attacker.owner, b.attacker.rank));
                seen.insert((b.defender.owner, b.defender.rank));
            }
        }
        let text = replay(&bytes, false, false).expect("replays");
        let forced = replay(&bytes, true, true).expect("forced");
        for seat in [RED, BLUE] {
            for rank in Rank::ALL {
                let name = format!("{} {rank}", seat_name(seat));
                if !seen.contains(&(seat, rank)) {
                    assert!(!text.contains(&name), "seed {seed}: {name} told:\n{text}");
                    if forced.contains(&name) {
                        hidden_named += 1;
                    }
                }
            }
        }
    }
    assert!(hidden_named > 0, "the reveal names the hidden ranks");
}

/// A redacted replay of an unfinished Waterloo game names a unit only once some seat's view
/// (or a battle, an elimination, the Pursuit, all public) has shown it: never a unit still
/// behind its back; the forced reveal names such units.
#[test]
fn a_redacted_waterloo_replay_names_only_units_a_view_has_seen() {
    use boards::waterloo::{Event, PursuitEvent, Seen, Unit, ALLIED, FRENCH};
    use boards::Game;
    use firmware::referee::games::WaterlooTable;
    use firmware::referee::table::{rebuild_table, Journaled, TableGame};
    use firmware::referee::GameKind;
    let full = |u: Unit| {
        let army = u.army().to_string();
        if u.name().starts_with(&army) {
            u.name().to_string()
        } else {
            format!("{army} {}", u.name())
        }
    };
    let mut hidden_named = 0;
    for (seed, variant) in [(1, "basic"), (2, "standard"), (3, "expert"), (4, "basic")] {
        let played = table_journal("stratego-waterloo", variant, seed, 90);
        let recovered = firmware::journal::decode::<
            firmware::referee::Header,
            firmware::referee::Record,
        >(&played.journal)
        .expect("decodes");
        let GameKind::Waterloo { choice } = recovered.header.game else {
            panic!("a Waterloo journal");
        };
        let rebuilt = rebuild_table::<WaterlooTable>(choice, &recovered.records).expect("rebuilds");
        let actions: Vec<_> = recovered
            .records
            .iter()
            .filter_map(|r| match WaterlooTable::read_record(r) {
                Ok(Journaled::Action(a)) => Some(a),
                _ => None,
            })
            .collect();
        let mut seen = std::collections::BTreeSet::new();
        for (k, state) in rebuilt.history.iter().enumerate() {
            let game = state.game();
            for seat in [FRENCH, ALLIED] {
                let view = game.view(seat);
                for (cell, _) in game.pieces() {
                    if let Seen::Enemy { unit: Some(u), .. } = view.at(cell) {
                        seen.insert(u);
                    }
                }
            }
            let Some(action) = actions.get(k) else {
                continue;
            };
            let mut next = game.clone();
            for event in next.play_unchecked(&action.action).events {
                match event {
                    Event::Battle(r) => {
                        seen.insert(r.attacker.1);
                        seen.insert(r.defender.1);
                    }
                    Event::Eliminated { unit, .. }
                    | Event::Withdrawn { unit, .. }
                    | Event::Pursuit(PursuitEvent::CutDown { unit, .. }) => {
                        seen.insert(unit);
                    }
                    Event::Pursuit(PursuitEvent::Charge {
                        attacker, defender, ..
                    }) => {
                        seen.insert(attacker);
                        seen.insert(defender);
                    }
                    _ => {}
                }
            }
            if let boards::waterloo::Action::Pursue { cavalry, .. }
            | boards::waterloo::Action::Charge { cavalry, .. } = action.action
            {
                // Set aside face up for the Pursuit.
                seen.insert(cavalry);
            }
        }
        let text = replay(&played.journal, false, false).expect("replays");
        let forced = replay(&played.journal, true, true).expect("forced");
        let known: Vec<String> = seen.iter().map(|&u| full(u)).collect();
        for &unit in Unit::ALL {
            let name = full(unit);
            if seen.contains(&unit) || known.iter().any(|k| k.contains(&name)) {
                continue;
            }
            assert!(
                !text.contains(&name),
                "{variant} seed {seed}: {name} told:\n{text}"
            );
            if forced.contains(&name) {
                hidden_named += 1;
            }
        }
    }
    assert!(hidden_named > 0, "the reveal names the hidden units");
}

/// A redacted replay of an unfinished Piecepack game names a coin's value only once combat
/// revealed it; the forced reveal names the rest.
#[test]
fn a_redacted_piecepack_replay_names_only_values_combat_revealed() {
    use boards::piecepack::Unit;
    use firmware::referee::games::piecepack::PiecepackTable;
    use firmware::referee::table::rebuild_table;
    use firmware::referee::GameKind;
    let mut hidden_named = 0;
    for seed in 1..=6 {
        let played = table_journal("piecepack", "rules-as-written", seed, 70);
        let recovered = firmware::journal::decode::<
            firmware::referee::Header,
            firmware::referee::Record,
        >(&played.journal)
        .expect("decodes");
        let GameKind::Piecepack { options } = recovered.header.game else {
            panic!("a Piecepack journal");
        };
        let rebuilt =
            rebuild_table::<PiecepackTable>(options, &recovered.records).expect("rebuilds");
        let mut seen = std::collections::BTreeSet::new();
        for state in &rebuilt.history {
            seen.extend(state.position().revealed().iter());
        }
        let text = replay(&played.journal, false, false).expect("replays");
        let forced = replay(&played.journal, true, true).expect("forced");
        for unit in Unit::ALL {
            if unit.is_leader() || seen.contains(&unit) {
                continue;
            }
            let name = unit.piece_name();
            assert!(!text.contains(name), "seed {seed}: {name} told:\n{text}");
            if forced.contains(name) {
                hidden_named += 1;
            }
        }
    }
    assert!(hidden_named > 0, "the reveal names the hidden values");
}

/// A Waterloo game played on a layout file of its own replays on that board on a machine
/// without the file: the journal holds the layout's text. Fails on the code before: the
/// layout was not journaled, so the replay rebuilt the game on the shipped board (here: the
/// French army's eleventh row is off it, and the replay was refused).
#[test]
fn a_waterloo_game_on_its_own_layout_replays_without_the_file() {
    use firmware::referee::games::{BoardLayout, LayoutSource};
    use firmware::referee::{GameFile, GameKind, Header, Record};
    let layout = BoardLayout::read(
        "rows: 11\n# our edition's board\n",
        LayoutSource::File("my-board.txt".into()),
    )
    .expect("the layout reads");
    let mut entry =
        host::table::find_game("stratego-waterloo", Some("basic")).expect("on the menu");
    entry.kind = entry.kind.on_layout(layout);
    let played =
        host::table::demo(&entry, 4, 40, true, None, &mut Vec::new()).expect("the demo plays");
    let recovered =
        firmware::journal::decode::<Header, Record>(&played.journal).expect("the journal reads");
    assert!(
        matches!(recovered.header.game, GameKind::Waterloo { choice } if choice.layout == BoardLayout::shipped()),
        "the header is as before: no layout in it"
    );
    assert_eq!(
        recovered.records.first(),
        Some(&Record::Files(vec![GameFile {
            key: "layout".to_string(),
            source: "my-board.txt".to_string(),
            text: "rows: 11\n# our edition's board\n".to_string(),
        }]))
    );
    let text = replay(&played.journal, false, false).expect("replays on the journal's board");
    assert!(text.contains("Game: Waterloo Basic"), "{text}");
    assert!(
        text.contains(
            "Board: the layout of my-board.txt, as the journal recorded it when the game began."
        ),
        "{text}"
    );
    assert!(text.contains("11"), "the board's eleventh row: {text}");
    let record = firmware::referee::games::record(recovered.header.game, &recovered.records)
        .expect("rebuilds");
    assert_eq!(record.entries.len() as u32, played.actions);
    // Without the recorded layout (the old journal), the shipped board refuses the armies.
    assert!(
        firmware::referee::games::record(recovered.header.game, &recovered.records[1..]).is_err()
    );
}

/// A Sa Belle Alliance game played on card and map files of its own replays with them on a
/// machine without the files: the journal holds both texts. Fails on the code before: the
/// files were not journaled, so the replay rebuilt the game on the example cards.
#[test]
fn a_sba_game_on_its_own_cards_replays_without_the_files() {
    use firmware::referee::games::sba::{SbaFile, SbaSet, DEFAULT_LAYOUT};
    use firmware::referee::{GameFile, GameKind, Header, Record};
    // Our own numbers: every French casualty of the example set is two.
    let cards = boards::sba::EXAMPLE_CARDS.replace("FC1", "FC2");
    let set = SbaSet::read(
        SbaFile {
            source: "my-cards.toml".to_string(),
            text: cards.clone(),
        },
        SbaFile {
            source: "the shipped layout".to_string(),
            text: DEFAULT_LAYOUT.to_string(),
        },
    )
    .expect("the files read");
    let mut entry = host::table::find_game("sa-belle-alliance", None).expect("on the menu");
    entry.kind = entry.kind.on_sba(set);
    let played =
        host::table::demo(&entry, 4, 60, true, None, &mut Vec::new()).expect("the demo plays");
    let recovered =
        firmware::journal::decode::<Header, Record>(&played.journal).expect("the journal reads");
    assert!(
        matches!(recovered.header.game, GameKind::Sba { choice } if choice.set == SbaSet::shipped()),
        "the header is as before: no files in it"
    );
    assert_eq!(
        recovered.records.first(),
        Some(&Record::Files(vec![
            GameFile {
                key: "cards".to_string(),
                source: "my-cards.toml".to_string(),
                text: cards,
            },
            GameFile {
                key: "layout".to_string(),
                source: "the shipped layout".to_string(),
                text: DEFAULT_LAYOUT.to_string(),
            },
        ]))
    );
    let text = replay(&played.journal, false, false).expect("replays on the journal's cards");
    assert!(
        text.contains(
            "Cards and map: my-cards.toml on the shipped layout, as the journal recorded them \
             when the game began."
        ),
        "{text}"
    );
    let record = firmware::referee::games::record(recovered.header.game, &recovered.records)
        .expect("rebuilds");
    assert_eq!(record.entries.len() as u32, played.actions);
    // Without the recorded files (the old journal), the example cards tell another game, or
    // refuse it.
    let other = firmware::referee::games::record(recovered.header.game, &recovered.records[1..]);
    assert_ne!(other, Ok(record));
}
