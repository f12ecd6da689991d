//! The referee's journal schema (header and records, referee::SCHEMA 1), pinned as postcard
//! bytes. postcard is not self-describing: variant order *is* the encoding. If this test fails
//! the schema changed: do not re-bless; grow enums only at the end, or bump `SCHEMA` and record
//! the new schema's golden files beside the old ones.
//!
//! Pinned here: the Stratego records and header; a golden journal of every game and variant
//! (`tests/recorded/schema-1/*.umpj`, each beside the values it decodes to), and a Napoléon
//! journal of a whole battle (`napoleon-battle.umpj`); and one of each variant of every
//! journaled game type (`variants.txt`). Journals of another schema are refused by name.

use boards::stratego::{Deployment, Move, Options, Rank, Square, Variant, BLUE};
use firmware::referee::{GameFile, GameKind, Header, Record, SetupMode, SCHEMA};

fn sq(s: &str) -> Square {
    Square::parse(s).expect("a square")
}

fn cases() -> Vec<(Record, &'static [u8])> {
    let mut d = Deployment::new();
    d.place(sq("a10"), Rank::Flag);
    d.place(sq("b10"), Rank::Bomb);
    vec![
        (
            Record::Deployed {
                seat: BLUE,
                deployment: d,
            },
            &[0x00, 0x01, 0x02, 0x5A, 0x0B, 0x5B, 0x0A],
        ),
        (
            Record::Move(Move::new(sq("e3"), sq("e4"))),
            &[0x01, 0x18, 0x22],
        ),
        (Record::Takeback { to_ply: 300 }, &[0x02, 0xAC, 0x02]),
        (Record::Chance { outcome: 2, of: 6 }, &[0x03, 0x02, 0x06]),
        (
            Record::Files(vec![GameFile {
                key: "layout".to_string(),
                source: "w.txt".to_string(),
                text: "rows: 11\n".to_string(),
            }]),
            &[
                0x08, 0x01, 0x06, b'l', b'a', b'y', b'o', b'u', b't', 0x05, b'w', b'.', b't', b'x',
                b't', 0x09, b'r', b'o', b'w', b's', b':', b' ', b'1', b'1', b'\n',
            ],
        ),
    ]
}

#[test]
fn records_of_schema_1_encode_and_decode_byte_for_byte() {
    assert_eq!(SCHEMA, 1, "a new schema gets its own golden bytes");
    for (record, golden) in cases() {
        let bytes = postcard::to_allocvec(&record).expect("encodes");
        assert_eq!(bytes, golden, "{record:?} wrote {bytes:02X?}");
        let back: Record = postcard::from_bytes(golden).expect("decodes");
        assert_eq!(back, record);
    }
}

/// The two records of data files the builds before `Record::Files` wrote (variants 6 and 7,
/// still in today's journals) read as the one that replaced them, each file under its key.
#[test]
fn records_of_data_files_written_before_files_read_as_files() {
    let file = |key: &str, source: &str, text: &str| GameFile {
        key: key.to_string(),
        source: source.to_string(),
        text: text.to_string(),
    };
    let layout: &[u8] = &[
        0x06, 0x05, b'w', b'.', b't', b'x', b't', 0x09, b'r', b'o', b'w', b's', b':', b' ', b'1',
        b'1', b'\n',
    ];
    let sba: &[u8] = &[0x07, 0x01, b'c', 0x01, b't', 0x01, b'l', 0x01, b'g'];
    assert_eq!(
        postcard::from_bytes::<Record>(layout).expect("decodes"),
        Record::Files(vec![file("layout", "w.txt", "rows: 11\n")])
    );
    assert_eq!(
        postcard::from_bytes::<Record>(sba).expect("decodes"),
        Record::Files(vec![file("cards", "c", "t"), file("layout", "l", "g")])
    );
}

#[test]
fn the_header_of_schema_1_is_pinned() {
    let header = Header {
        schema: SCHEMA,
        game: GameKind::Stratego {
            options: Options::isf(Variant::Duel),
        },
        setup: SetupMode::Tags,
    };
    let golden: &[u8] = &[0x01, 0x00, 0x01, 0x01, 0x03, 0x01, 0x01];
    let bytes = postcard::to_allocvec(&header).expect("encodes");
    assert_eq!(bytes, golden, "wrote {bytes:02X?}");
    let back: Header = postcard::from_bytes(golden).expect("decodes");
    assert_eq!(back, header);
}

/// A Napoléon header: the choice's second byte, the `historical` bool of the builds before
/// 6.2.4's option, holds the option in bit 1 and, in bit 2, that every army's leader is asked
/// whether he shows himself (`every_leader_asked`, set in every game begun since). A header
/// written before either (0 or 1 there) decodes with both off, so its game resumes as it was
/// played; one without them writes the bytes it always did.
#[test]
fn a_napoleon_header_keeps_its_options_in_its_set_up_byte() {
    use boards::napoleon::Players;
    use firmware::referee::games::napoleon::{NapoleonChoice, NapoleonSet};
    let header = |historical: bool, reveal_on_contact: bool, every_leader_asked: bool| Header {
        schema: SCHEMA,
        game: GameKind::Napoleon {
            choice: NapoleonChoice {
                players: Players::Three,
                historical,
                set: NapoleonSet::shipped(),
                tags: false,
                reveal_on_contact,
                every_leader_asked,
            },
        },
        setup: SetupMode::RankGroups,
    };
    for (historical, reveal, every, golden) in [
        (false, false, false, [0x01, 0x04, 0x01, 0x00, 0x00]),
        (true, false, false, [0x01, 0x04, 0x01, 0x01, 0x00]),
        (false, true, false, [0x01, 0x04, 0x01, 0x02, 0x00]),
        (true, true, false, [0x01, 0x04, 0x01, 0x03, 0x00]),
        (false, false, true, [0x01, 0x04, 0x01, 0x04, 0x00]),
        (true, true, true, [0x01, 0x04, 0x01, 0x07, 0x00]),
    ] {
        let h = header(historical, reveal, every);
        let bytes = postcard::to_allocvec(&h).expect("encodes");
        assert_eq!(bytes, golden, "{h:?} wrote {bytes:02X?}");
        assert_eq!(postcard::from_bytes::<Header>(&golden).expect("decodes"), h);
    }
    // Every game begun from the menu asks every leader.
    for (_, choice) in firmware::referee::games::napoleon::variants() {
        assert!(choice.every_leader_asked, "{choice:?}");
    }
    // A bit this build does not know is refused, never read as another set-up, and the
    // journal's refusal says so and what to do.
    assert!(postcard::from_bytes::<Header>(&[0x01, 0x04, 0x01, 0x08, 0x00]).is_err());
    // The same bytes as a newer build's journal header (sealed by its checksum): refused in
    // words that say what and what to do, not as a file of another game.
    let newer = encode_header(&(0x01u8, 0x04u8, 0x01u8, 0x08u8, 0x00u8)).expect("encodes");
    let Err(refused) = decode::<Header, Record>(&newer) else {
        panic!("a header with an unknown set-up bit decoded");
    };
    let why = refused.to_string();
    assert!(
        why.contains("a setting this build does not know") && why.contains("updated umpire"),
        "{why}"
    );
}

mod recorded;

use std::fmt::Write as _;
use std::path::PathBuf;

use firmware::journal::{decode, encode_header, encode_record, MemStore, Tail};
use firmware::referee::games::napoleon::NapoleonTable;
use firmware::referee::games::piecepack::PiecepackTable;
use firmware::referee::games::sba::SbaTable;
use firmware::referee::games::WaterlooTable;
use firmware::referee::table::TableGame;
use firmware::referee::{check_schema, RebuildError, Referee, RefereeConfig, ResumeError};
use firmware::referee::{journal_schema, SeededChance};
use firmware::sensing::Millis;

/// Where the golden journals of `schema` live: one `.umpj` per game and variant, and beside it
/// a `.txt` of what it decodes to.
fn golden_dir(schema: u16) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/recorded")
        .join(format!("schema-{schema}"))
}

/// `bytes` decoded as `T` using all of them, and encoded back to the same bytes.
fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned + std::fmt::Debug>(
    bytes: &[u8],
) -> Result<String, String> {
    let value: T = match postcard::take_from_bytes::<T>(bytes) {
        Ok((v, [])) => v,
        Ok((_, rest)) => return Err(format!("{} bytes left over", rest.len())),
        Err(e) => return Err(e.to_string()),
    };
    let again = postcard::to_allocvec(&value).map_err(|e| e.to_string())?;
    if again != bytes {
        return Err(format!(
            "{value:?} encodes to {again:02X?}, not {bytes:02X?}"
        ));
    }
    Ok(format!("{value:?}"))
}

/// What a journal decodes to, one line per record, a table game's armies and actions decoded
/// as the game's own types; or why it does not decode byte for byte.
fn describe(bytes: &[u8]) -> Result<String, String> {
    check_schema(bytes).map_err(|e| e.to_string())?;
    let recovered = decode::<Header, Record>(bytes).map_err(|e| e.to_string())?;
    if recovered.tail != Tail::Clean {
        return Err(recovered.tail.to_string());
    }
    let mut again = encode_header(&recovered.header).map_err(|e| e.to_string())?;
    let mut out = format!("{:?}\n", recovered.header);
    for (i, record) in recovered.records.iter().enumerate() {
        again.extend(encode_record(record).map_err(|e| e.to_string())?);
        let inner = |bytes: &[u8]| match recovered.header.game {
            GameKind::Waterloo { .. } => match record {
                Record::Army { .. } => round_trip::<<WaterlooTable as TableGame>::Army>(bytes),
                _ => round_trip::<<WaterlooTable as TableGame>::Action>(bytes),
            },
            GameKind::Piecepack { .. } => match record {
                Record::Army { .. } => round_trip::<<PiecepackTable as TableGame>::Army>(bytes),
                _ => round_trip::<<PiecepackTable as TableGame>::Action>(bytes),
            },
            GameKind::Sba { .. } => match record {
                Record::Army { .. } => round_trip::<<SbaTable as TableGame>::Army>(bytes),
                _ => round_trip::<<SbaTable as TableGame>::Action>(bytes),
            },
            GameKind::Napoleon { .. } => match record {
                Record::Army { .. } => round_trip::<<NapoleonTable as TableGame>::Army>(bytes),
                _ => round_trip::<<NapoleonTable as TableGame>::Action>(bytes),
            },
            GameKind::Stratego { .. } => Err("a table game's record in Stratego".into()),
        };
        let line = match record {
            Record::Army { seat, army } => format!("Army {seat:?} {}", inner(army)?),
            Record::Action(action) => format!("Action {}", inner(action)?),
            other => format!("{other:?}"),
        };
        writeln!(out, "{i}: {line}").expect("a string");
    }
    if again != bytes {
        return Err("the records encode to other bytes".into());
    }
    Ok(out)
}

fn resume(bytes: &[u8]) -> Result<(), ResumeError> {
    Referee::resume(
        RefereeConfig::default(),
        SeededChance::new(3),
        || Ok(MemStore::new()),
        MemStore::from_bytes(bytes.to_vec()),
        [],
        Millis(0),
    )
    .map(|_| ())
}

/// The golden journals of this schema, one per game and variant, pin the encoding of every
/// journaled type: each must decode to the values in its `.txt`, encode back byte for byte,
/// and resume. If this fails, a journaled type's encoding changed: do not edit the golden
/// files; bump `SCHEMA` in `referee/record.rs` and record the new schema's journals with
/// `UMPIRE_BLESS=1 cargo test -p umpire-firmware --test referee_schema` (the old ones stay,
/// and are then refused by name).
#[test]
fn golden_journals_of_this_schema_pin_every_games_encoding() {
    let dir = golden_dir(SCHEMA);
    let bless = std::env::var_os("UMPIRE_BLESS").is_some();
    let mut problems = Vec::new();
    for (i, (name, kind)) in recorded::games().into_iter().enumerate() {
        let bin = dir.join(format!("{name}.umpj"));
        let txt = dir.join(format!("{name}.txt"));
        if !bin.exists() {
            if !bless {
                problems.push(format!(
                    "{name}: no golden journal of schema {SCHEMA}; record them with \
                     UMPIRE_BLESS=1 cargo test -p umpire-firmware --test referee_schema"
                ));
                continue;
            }
            let bytes = recorded::record(&name, kind, 1815 + i as u64, 30).bytes();
            let text = describe(&bytes).expect("this build reads what it writes");
            std::fs::create_dir_all(&dir).expect("mkdir");
            std::fs::write(&bin, &bytes).expect("write");
            std::fs::write(&txt, text).expect("write");
        }
        let bytes = std::fs::read(&bin).expect("read");
        let want = std::fs::read_to_string(&txt).expect("read");
        match describe(&bytes) {
            Ok(got) if got == want => {}
            Ok(got) => problems.push(format!(
                "{name}: the golden bytes now decode to other values (first difference at \
                 line {}): a journaled type's encoding changed; bump SCHEMA",
                got.lines()
                    .zip(want.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(got.lines().count().min(want.lines().count()))
                    + 1
            )),
            Err(e) => problems.push(format!(
                "{name}: the golden bytes no longer decode byte for byte ({e}): a journaled \
                 type's encoding changed; bump SCHEMA"
            )),
        }
        if let Err(e) = resume(&bytes) {
            problems.push(format!("{name}: the golden journal does not resume: {e}"));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

/// A Napoléon journal of this schema holding a whole battle (terrain, deployment, volleys, hits
/// placed at once on the one strongest block, a hit between equals placed by their owner, 6.4),
/// recorded by the build before a hit among blocks hidden from the firer was asked of its
/// owner (ruling R25 of the battle's rules): it resumes, and replays, as it did. Its battle was
/// fought, as every battle at the table was then, without 6.2.4's option, where every block a hit
/// may fall on is in combat or on an open wing and so seen: the owner is asked exactly when he
/// was before, and a journal of that build never meets the new wait.
#[test]
fn a_napoleon_battle_journaled_before_hidden_hits_were_asked_still_resumes() {
    use boards::napoleon::battle::BattleAction;
    use boards::napoleon::Action;
    use firmware::referee::games::napoleon::NapoleonAction;
    let path = golden_dir(SCHEMA).join("napoleon-battle.umpj");
    if !path.exists() && std::env::var_os("UMPIRE_BLESS").is_some() {
        let (name, kind) = recorded::games()
            .into_iter()
            .find(|(name, _)| name == "napoleon-2-players-historical-set-up")
            .expect("on the menu");
        let GameKind::Napoleon { choice } = kind else {
            panic!("{name} is Napoleon");
        };
        let game = recorded::napoleon_battles("napoleon-battle", choice, 176, 190);
        std::fs::write(&path, game.bytes()).expect("write");
    }
    let bytes = std::fs::read(&path).unwrap_or_else(|_| {
        panic!(
            "no {}: it is recorded once, by the build it pins; do not re-record it",
            path.display()
        )
    });
    let recovered = decode::<Header, Record>(&bytes).expect("decodes");
    assert_eq!(recovered.tail, Tail::Clean);
    assert!(matches!(recovered.header.game, GameKind::Napoleon { .. }));
    let actions: Vec<BattleAction> = recovered
        .records
        .iter()
        .filter_map(|r| match r {
            Record::Action(bytes) => postcard::from_bytes::<NapoleonAction>(bytes).ok(),
            _ => None,
        })
        .filter_map(|a| match a.action {
            Action::Battle(b) => Some(b),
            _ => None,
        })
        .collect();
    let count = |f: fn(&BattleAction) -> bool| actions.iter().filter(|a| f(a)).count();
    let hits: usize = actions
        .iter()
        .map(|a| match a {
            BattleAction::Hits(n) => usize::from(*n),
            _ => 0,
        })
        .sum();
    let takes = count(|a| matches!(a, BattleAction::TakeHit(_)));
    // A battle, not a skirmish (its blocks deploy, 6.2.2), with many volleys; hits placed by
    // their owner and hits placed at once.
    assert!(count(|a| matches!(a, BattleAction::Deploy { .. })) > 0);
    assert!(count(|a| matches!(a, BattleAction::Fire { .. })) >= 10);
    assert!(
        takes > 0 && hits > takes,
        "{hits} hits, {takes} placed by their owner"
    );
    resume(&bytes).expect("resumes");
    firmware::referee::games::record(recovered.header.game, &recovered.records).expect("replays");
}

/// Journals written before a Waterloo game's layout was journaled (the golden ones) hold no
/// [`Record::Files`]: they still resume, on the umpire's layout, and replay, on the layout
/// given, as they always did.
#[test]
fn waterloo_journals_without_a_layout_record_still_resume_and_replay() {
    let dir = golden_dir(SCHEMA);
    let mut seen = 0;
    for (name, kind) in recorded::games() {
        if !matches!(kind, GameKind::Waterloo { .. }) {
            continue;
        }
        let bytes = std::fs::read(dir.join(format!("{name}.umpj"))).expect("golden journal");
        let recovered = decode::<Header, Record>(&bytes).expect("decodes");
        assert!(
            !recovered
                .records
                .iter()
                .any(|r| matches!(r, Record::Files(_))),
            "{name}"
        );
        resume(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        firmware::referee::games::record(recovered.header.game, &recovered.records)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        seen += 1;
    }
    assert!(seen >= 7, "every Waterloo variant: {seen}");
}

/// Journals written before `Record::Files` (their first record a `Layout` or `SbaFiles`)
/// resume on the same files, are refused on files that read otherwise, and replay on the files
/// they recorded.
#[test]
fn journals_with_the_data_file_records_before_files_resume_and_replay() {
    use firmware::referee::games::sba::{SbaFile, SbaSet, DEFAULT_LAYOUT};
    use firmware::referee::games::{BoardLayout, LayoutSource};
    let config = |kind: GameKind| match kind {
        GameKind::Waterloo { choice } => RefereeConfig {
            waterloo_layout: choice.layout,
            ..RefereeConfig::default()
        },
        GameKind::Sba { choice } => RefereeConfig {
            sba_set: choice.set,
            ..RefereeConfig::default()
        },
        _ => RefereeConfig::default(),
    };
    let resume = |bytes: &[u8], kind: GameKind| {
        Referee::resume(
            config(kind),
            SeededChance::new(3),
            || Ok(MemStore::new()),
            MemStore::from_bytes(bytes.to_vec()),
            [],
            Millis(0),
        )
        .map(|_| ())
        .map_err(|e| e.to_string())
    };
    let games = recorded::games();
    let find = |name: &str| {
        let (name, kind) = games.iter().find(|(n, _)| n == name).expect("on the menu");
        recorded::record(name, *kind, 1815, 20)
    };
    // A Waterloo game on its layout file (the shipped board, with a comment).
    let game = find("waterloo-basic");
    let text = format!("# ours\n{}", boards::waterloo::DEFAULT_LAYOUT);
    let bytes = game.bytes_after(&recorded::LegacyFiles::Layout {
        source: "w.txt".to_string(),
        text: text.clone(),
    });
    let file = |text: &str| BoardLayout::read(text, LayoutSource::File("w.txt".into())).unwrap();
    let on = |layout| game.header.game.on_layout(layout);
    assert_eq!(resume(&bytes, on(file(&text))), Ok(()));
    let other = file("rows: 11\n");
    assert_eq!(
        resume(&bytes, on(other)),
        Err(
            "w.txt was changed since this game began on it: put it back as it was, or start a \
             new game"
                .to_string()
        )
    );
    let recovered = decode::<Header, Record>(&bytes).expect("decodes");
    let replayed = firmware::referee::games::record(on(other), &recovered.records)
        .expect("replays on the recorded layout, not the one given");
    let plain = firmware::referee::games::record(game.header.game, &game.records).expect("plays");
    assert_eq!(replayed, plain, "the recorded layout is the shipped board");
    // A Sa Belle Alliance game on its own card file (the example cards, with a comment).
    let game = find("sba-card-set-and-map");
    let cards = format!("# ours\n{}", boards::sba::EXAMPLE_CARDS);
    let bytes = game.bytes_after(&recorded::LegacyFiles::SbaFiles {
        cards_source: "c.toml".to_string(),
        cards: cards.clone(),
        layout_source: "the shipped layout".to_string(),
        layout: DEFAULT_LAYOUT.to_string(),
    });
    let set = |cards: &str| {
        let file = |source: &str, text: &str| SbaFile {
            source: source.to_string(),
            text: text.to_string(),
        };
        let set = SbaSet::read(
            file("c.toml", cards),
            file("the shipped layout", DEFAULT_LAYOUT),
        );
        game.header.game.on_sba(set.expect("the files read"))
    };
    assert_eq!(resume(&bytes, set(&cards)), Ok(()));
    let edited = boards::sba::EXAMPLE_CARDS.replace("napoleon = 2", "napoleon = 3");
    assert_eq!(
        resume(&bytes, set(&edited)),
        Err(
            "c.toml was changed since this game began on it: put it back as it was, or start a \
             new game"
                .to_string()
        )
    );
    let recovered = decode::<Header, Record>(&bytes).expect("decodes");
    let replayed = firmware::referee::games::record(set(&edited), &recovered.records)
        .expect("replays on the recorded cards");
    let plain = firmware::referee::games::record(game.header.game, &game.records).expect("plays");
    assert_eq!(replayed, plain, "the recorded cards are the example ones");
}

/// Every older schema's golden journals are refused by name, never misread.
#[test]
fn golden_journals_of_other_schemas_are_refused_by_name() {
    for schema in (1..SCHEMA).filter(|s| golden_dir(*s).exists()) {
        for entry in std::fs::read_dir(golden_dir(schema)).expect("read dir") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "umpj") {
                let bytes = std::fs::read(&path).expect("read");
                assert!(
                    matches!(
                        resume(&bytes),
                        Err(ResumeError::Rebuild(RebuildError::OtherSchema { found })) if found == schema
                    ),
                    "{}",
                    path.display()
                );
            }
        }
    }
}

/// A journal whose header names another schema, its checksums valid: refused with what to do,
/// before a single record is decoded (they would mean something else to this build).
#[test]
fn a_journal_of_another_schema_is_refused_with_what_to_do() {
    let bytes = std::fs::read(golden_dir(SCHEMA).join("classic.umpj")).expect("golden classic");
    assert_eq!(journal_schema(&bytes), Some(SCHEMA));
    // The header payload starts at byte 10 with the schema (a one-byte varint below 128).
    let header_len = u32::from_le_bytes(bytes[6..10].try_into().unwrap()) as usize;
    let mut payload = bytes[10..10 + header_len].to_vec();
    let records = &bytes[10 + header_len + 4..];
    for other in [0u8, SCHEMA as u8 + 1, 127] {
        payload[0] = other;
        // Re-frame with a valid checksum: the header bytes are fine, only their meaning differs.
        let mut journal = firmware::journal::encode_header(&RawPayload(&payload)).unwrap();
        journal.extend_from_slice(records);
        assert_eq!(journal_schema(&journal), Some(u16::from(other)));
        let err = resume(&journal).expect_err("another schema");
        assert!(
            matches!(err, ResumeError::Rebuild(RebuildError::OtherSchema { found }) if found == u16::from(other)),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            format!(
                "this journal was written by a build with another record layout (schema {other}, \
                 this build reads {SCHEMA}): replay it with that build, or start a new game"
            )
        );
        // Decoding it directly never misreads it either.
        assert!(decode::<Header, Record>(&journal).is_err());
    }
}

/// A payload framed as it is (postcard writes each `u8` of a tuple as one byte).
struct RawPayload<'a>(&'a [u8]);

impl serde::Serialize for RawPayload<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTuple;
        let mut t = s.serialize_tuple(self.0.len())?;
        for b in self.0 {
            t.serialize_element(b)?;
        }
        t.end()
    }
}

/// One of each variant of every journaled game type (a table game's armies and actions, the
/// header's game kinds), as `Debug => postcard hex`: what the golden journals' random games may
/// not reach.
fn every_variant() -> Vec<String> {
    use boards::geometry::grid::{Cell, Dir};
    use boards::piecepack as pp;
    use boards::waterloo::{self as wl, CardPlay, ChanceAction, DieFace, Flank};
    use boards::Seat;
    use firmware::referee::games::piecepack::Army as PiecepackArmy;
    use firmware::referee::games::{WaterlooAction, WaterlooArmy, WaterlooChoice};
    use firmware::sensing::{Place, TagUid, TrayKind};

    /// The value and its bytes, which decode back to it.
    fn line<T>(v: &T) -> String
    where
        T: serde::Serialize + serde::de::DeserializeOwned + std::fmt::Debug + PartialEq,
    {
        let bytes = postcard::to_allocvec(v).expect("encodes");
        assert_eq!(&postcard::from_bytes::<T>(&bytes).expect("decodes"), v);
        let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
        format!("{v:?} => {}", hex.join(" "))
    }
    let c = |s: &str| Cell::parse(s).expect("a cell");
    let tray = Place::Tray {
        tray: TrayKind::PrussianStaging,
        seat: Seat::SECOND,
        slot: 3,
    };
    let mut out = Vec::new();
    for kind in [
        GameKind::Stratego {
            options: Options::plain(Variant::Classic),
        },
        GameKind::Waterloo {
            choice: WaterlooChoice {
                version: wl::Version::Expert,
                early_start: true,
                prussians_uncertain: false,
                mud: true,
                layout: Default::default(),
            },
        },
        GameKind::Piecepack {
            options: pp::Options::WORKED_EXAMPLE,
        },
    ] {
        out.push(line(&kind));
    }
    let waterloo = [
        wl::Action::Move {
            from: c("a1"),
            to: c("l10"),
        },
        wl::Action::Attack {
            from: c("c4"),
            to: c("c5"),
            dir: Dir::Up,
        },
        wl::Action::Fire {
            from: c("b2"),
            at: c("b4"),
            tile: true,
        },
        wl::Action::Enter {
            unit: wl::Unit::VonBulow,
            to: c("l7"),
        },
        wl::Action::TakeOff { from: c("d3") },
        wl::Action::EndTurn,
        wl::Action::Pursue {
            cavalry: wl::Unit::ScotsGreys,
            target: c("e6"),
        },
        wl::Action::Charge {
            cavalry: wl::Unit::Cuirassiers,
            target: wl::Unit::ScotsGreys,
        },
        wl::Action::Save { from: c("f2") },
        wl::Action::Chance(ChanceAction::Die(DieFace::RedR)),
        wl::Action::Chance(ChanceAction::Retreat(Flank::Centre)),
        wl::Action::Chance(ChanceAction::Prussian(wl::Unit::VonBulow)),
        wl::Action::PlayCard(CardPlay::Reconnaissance { at: c("g5") }),
        wl::Action::PlayCard(CardPlay::Initiative),
        wl::Action::PlayCard(CardPlay::CombinedAttack),
        wl::Action::PlayCard(CardPlay::FightingSpirit { on: c("h4") }),
        wl::Action::PlayCard(CardPlay::GrandBattery { at: c("i3") }),
        wl::Action::Draft(wl::Card::GrandBattery),
        wl::Action::Decline,
        wl::Action::Frenzy { at: c("j2") },
    ];
    for (i, action) in waterloo.into_iter().enumerate() {
        out.push(line(&WaterlooAction {
            action,
            slot: (i % 2 == 1).then_some(tray),
        }));
    }
    out.push(line(&WaterlooArmy {
        placements: vec![
            (c("a1"), wl::Unit::Wellington),
            (c("l4"), wl::Unit::Napoleon),
        ],
        trays: vec![(tray, wl::Unit::VonBulow)],
    }));
    let sq = |s: &str| pp::Square::parse(s).expect("a square");
    for action in [
        pp::Action::Move {
            unit: pp::Unit::Ney,
            to: sq("H-10"),
        },
        pp::Action::EndMovement,
        pp::Action::Designate {
            unit: pp::Unit::Picton,
            target: sq("D-4"),
        },
        pp::Action::Resolve { target: sq("D-4") },
        pp::Action::Roll(pp::Face::Symbol),
        pp::Action::Eliminate(Some(pp::Unit::Cooke)),
        pp::Action::Eliminate(None),
        pp::Action::Retreat {
            unit: pp::Unit::Lobau,
            to: sq("F-6"),
        },
        pp::Action::Advance(Some(pp::Unit::Reille)),
        pp::Action::Advance(None),
        pp::Action::Enter {
            unit: pp::Unit::Blucher,
            at: sq("A-10"),
        },
        pp::Action::EndReinforcement,
    ] {
        out.push(line(&action));
    }
    out.push(line(&PiecepackArmy {
        placed: vec![(pp::Unit::Wellington, sq("A-3"))],
        staged: vec![(pp::Unit::Pirch, 2)],
        tags: vec![(
            pp::Unit::Wellington,
            TagUid::new(&[0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]).expect("a uid"),
        )],
    }));
    out
}

/// Every variant of every journaled game type, pinned as bytes (the random games of the golden
/// journals may not reach them all). If this fails, do not re-bless: bump `SCHEMA`.
#[test]
fn every_variant_of_every_journaled_game_type_is_pinned() {
    let path = golden_dir(SCHEMA).join("variants.txt");
    let got = every_variant().join("\n") + "\n";
    if !path.exists() && std::env::var_os("UMPIRE_BLESS").is_some() {
        std::fs::write(&path, &got).expect("write");
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "no {}: record it with UMPIRE_BLESS=1 cargo test -p umpire-firmware --test \
             referee_schema",
            path.display()
        )
    });
    for (g, w) in got.lines().zip(want.lines()) {
        assert_eq!(
            g, w,
            "a journaled type's encoding (or its Debug) changed: bump SCHEMA, keep this file"
        );
    }
    assert_eq!(got.lines().count(), want.lines().count());
}

/// Stratego journals written before Stratego moved onto the generic table referee (the golden
/// `classic` and `duel` journals of schema 1) resume into the same game the replay rebuilds:
/// the same position, every rank in place, the same side to move.
#[test]
fn golden_stratego_journals_resume_into_the_game_the_replay_rebuilds() {
    let dir = golden_dir(SCHEMA);
    for name in ["classic", "duel"] {
        let bytes = std::fs::read(dir.join(format!("{name}.umpj"))).expect("read");
        let recovered = decode::<Header, Record>(&bytes).expect("decodes");
        let rebuilt = firmware::referee::rebuild(recovered.header, &recovered.records)
            .expect("the replay rebuilds it");
        let (referee, _) = Referee::resume(
            RefereeConfig::default(),
            SeededChance::new(3),
            || Ok(MemStore::new()),
            MemStore::from_bytes(bytes.clone()),
            [],
            Millis(0),
        )
        .expect("resumes");
        let resumed = referee.position().expect("in play");
        let replayed = rebuilt.position().expect("in play");
        assert_eq!(resumed.diagram(), replayed.diagram(), "{name}");
        assert_eq!(resumed.ply(), replayed.ply(), "{name}");
        assert_eq!(resumed.to_move(), replayed.to_move(), "{name}");
    }
}
