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
