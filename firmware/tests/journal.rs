//! The journal against power cuts, damaged bytes, foreign files and a real file system.
//!
//! The centrepiece: a recorded game's journal cut at every byte offset recovers exactly the
//! complete records before the cut, and every damaged byte is reported at the record it is in.

use std::cell::Cell;
use std::io;
use std::rc::Rc;

use firmware::journal::{
    decode, encode_header, encode_record, Corruption, EncodeError, FileStore, HeaderError,
    JournalError, JournalWriter, MemStore, Quota, Recovered, Store, Tail, FORMAT_VERSION,
    MAX_RECORD_LEN,
};
use serde::{Deserialize, Serialize};

/// What a game fixes at the start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Header {
    game: String,
    variant: u8,
    two_squares_rule: bool,
}

/// A game's records, of varying sizes. Variants only ever grow at the end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
enum Record {
    /// One seat's deployment: (square, rank) pairs.
    Setup {
        seat: u8,
        pieces: Vec<(u8, u8)>,
    },
    Action {
        from: u8,
        to: u8,
    },
    Chance {
        face: u8,
    },
}

fn header() -> Header {
    Header {
        game: "stratego".into(),
        variant: 1,
        two_squares_rule: true,
    }
}

/// A deterministic game: two 40-piece set-ups, then 240 turns of actions with the odd die roll.
fn recorded_game() -> Vec<Record> {
    let mut state = 0x2545_F491_u32;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    let mut records = Vec::new();
    for seat in 0..2u8 {
        let pieces = (0..40u8)
            .map(|i| (seat * 60 + i, (next() % 12) as u8))
            .collect();
        records.push(Record::Setup { seat, pieces });
    }
    for _ in 0..240 {
        let from = (next() % 100) as u8;
        let to = (next() % 100) as u8;
        records.push(Record::Action { from, to });
        if next() % 4 == 0 {
            records.push(Record::Chance {
                face: (next() % 6) as u8,
            });
        }
    }
    records
}

/// The journal bytes of `records`, and where each record ends (the first entry: the header's end).
fn journal_of(records: &[Record]) -> (Vec<u8>, Vec<usize>) {
    let mut journal = JournalWriter::create(MemStore::new(), &header()).expect("create");
    let mut ends = vec![journal.len_bytes()];
    for r in records {
        journal.append(r).expect("append");
        ends.push(journal.len_bytes());
    }
    (journal.into_store().into_bytes(), ends)
}

fn decoded(bytes: &[u8]) -> Result<Recovered<Header, Record>, HeaderError> {
    decode::<Header, Record>(bytes)
}

#[test]
fn round_trip_of_a_whole_game() {
    let records = recorded_game();
    assert!(records.len() > 200);
    let (bytes, ends) = journal_of(&records);
    assert_eq!(ends.last(), Some(&bytes.len()));

    let recovered = decoded(&bytes).expect("decodes");
    assert_eq!(recovered.header, header());
    assert_eq!(recovered.records, records);
    assert_eq!(recovered.tail, Tail::Clean);
    assert_eq!(recovered.valid_len, bytes.len());

    // The pure layer and the writer agree byte for byte.
    let mut by_hand = encode_header(&header()).expect("header");
    for r in &records {
        by_hand.extend(encode_record(r).expect("record"));
    }
    assert_eq!(by_hand, bytes);

    let (journal, resumed) =
        JournalWriter::<_, Record>::resume::<Header>(MemStore::from_bytes(bytes.clone()))
            .expect("resume");
    assert_eq!(resumed, recovered);
    assert_eq!(journal.record_count(), records.len());
    assert_eq!(journal.len_bytes(), bytes.len());
}

#[test]
fn a_cut_at_every_byte_recovers_exactly_the_complete_records_before_it() {
    let records = recorded_game();
    let (bytes, ends) = journal_of(&records);
    let header_len = ends[0];
    let extra = Record::Chance { face: 4 };

    for cut in 0..=bytes.len() {
        let prefix = &bytes[..cut];
        if cut == 0 {
            assert_eq!(decoded(prefix).err(), Some(HeaderError::Empty));
            continue;
        }
        if cut < header_len {
            assert_eq!(
                decoded(prefix).err(),
                Some(HeaderError::Truncated { len: cut }),
                "cut at {cut}"
            );
            continue;
        }
        // `complete` records end at or before the cut.
        let complete = ends.iter().filter(|&&end| end <= cut).count() - 1;
        let last_end = ends[complete];
        let recovered = decoded(prefix).expect("header intact");
        assert_eq!(recovered.header, header());
        assert_eq!(recovered.records, records[..complete], "cut at {cut}");
        assert_eq!(recovered.valid_len, last_end, "cut at {cut}");
        let expected_tail = if cut == last_end {
            Tail::Clean
        } else {
            Tail::Torn {
                offset: last_end,
                len: cut - last_end,
            }
        };
        assert_eq!(recovered.tail, expected_tail, "cut at {cut}");

        // Resuming cuts the torn record off, and the game goes on from there.
        let (mut journal, resumed) =
            JournalWriter::<_, Record>::resume::<Header>(MemStore::from_bytes(prefix.to_vec()))
                .expect("resume");
        assert_eq!(resumed.records, records[..complete]);
        assert_eq!(journal.store().as_bytes(), &bytes[..last_end]);
        journal.append(&extra).expect("append after resume");
        let after = decoded(journal.store().as_bytes()).expect("decodes");
        assert_eq!(after.tail, Tail::Clean, "cut at {cut}");
        assert_eq!(after.records.len(), complete + 1);
        assert_eq!(after.records[..complete], records[..complete]);
        assert_eq!(after.records[complete], extra);
    }
}

#[test]
fn every_damaged_byte_is_reported_at_its_record() {
    let records = recorded_game();
    let (bytes, ends) = journal_of(&records);
    let header_len = ends[0];

    for at in 0..bytes.len() {
        for mask in [0x01u8, 0x80, 0xFF] {
            let mut damaged = bytes.clone();
            damaged[at] ^= mask;
            let result = decoded(&damaged);
            if at < header_len {
                let err = result
                    .err()
                    .unwrap_or_else(|| panic!("header byte {at} ^ {mask:#x}"));
                match at {
                    0..=3 => assert_eq!(err, HeaderError::NotAJournal),
                    4 if damaged[4] == 0 => {
                        assert_eq!(err, HeaderError::UnknownVersion { found: 0 })
                    }
                    4 | 5 => assert!(matches!(err, HeaderError::NewerVersion { .. }), "{err:?}"),
                    _ => assert!(
                        matches!(
                            err,
                            HeaderError::Checksum
                                | HeaderError::TooLarge { .. }
                                | HeaderError::Truncated { .. }
                        ),
                        "header byte {at}: {err:?}"
                    ),
                }
                continue;
            }
            // The record that holds byte `at`.
            let index = ends.iter().filter(|&&end| end <= at).count() - 1;
            let offset = ends[index];
            let recovered = result.expect("header intact");
            assert_eq!(recovered.records, records[..index], "byte {at} ^ {mask:#x}");
            assert_eq!(recovered.valid_len, offset);
            let problem = if at - offset < 8 {
                Corruption::Length
            } else {
                Corruption::Checksum
            };
            assert_eq!(
                recovered.tail,
                Tail::Corrupt {
                    offset,
                    index,
                    problem
                },
                "byte {at} ^ {mask:#x}"
            );
        }
    }
}

#[test]
fn resume_refuses_to_append_after_corruption_unless_told_to_truncate() {
    let records = recorded_game();
    let (bytes, ends) = journal_of(&records);
    let index = 57;
    let mut damaged = bytes.clone();
    damaged[ends[index] + 9] ^= 0x10;

    let err = JournalWriter::<_, Record>::resume::<Header>(MemStore::from_bytes(damaged.clone()))
        .expect_err("must refuse");
    match &err {
        JournalError::Corrupt {
            offset,
            index: i,
            problem,
        } => {
            assert_eq!((*offset, *i), (ends[index], index));
            assert_eq!(problem, &Corruption::Checksum);
        }
        other => panic!("{other:?}"),
    }
    let message = err.to_string();
    assert!(message.contains(&format!("record {index} at byte {}", ends[index])));
    assert!(
        message.contains("resume_truncating_corruption"),
        "{message}"
    );

    let (mut journal, recovered) =
        JournalWriter::<_, Record>::resume_truncating_corruption::<Header>(MemStore::from_bytes(
            damaged,
        ))
        .expect("resume, dropping the damage");
    assert_eq!(recovered.records, records[..index]);
    assert!(matches!(recovered.tail, Tail::Corrupt { index: 57, .. }));
    assert_eq!(journal.store().as_bytes(), &bytes[..ends[index]]);
    journal.append(&records[index]).expect("append");
    let after = decoded(journal.store().as_bytes()).expect("decodes");
    assert_eq!(after.records, records[..=index]);
    assert_eq!(after.tail, Tail::Clean);
}

#[test]
fn a_record_of_another_schema_is_corruption_not_a_wrong_action() {
    let (mut bytes, ends) = journal_of(&recorded_game()[..5]);
    let end = *ends.last().expect("ends");
    // Variant 7 does not exist.
    bytes.extend(encode_record(&(7u8, 1u8)).expect("encode"));
    let recovered = decoded(&bytes).expect("header intact");
    assert_eq!(recovered.records.len(), 5);
    assert!(matches!(
        recovered.tail,
        Tail::Corrupt {
            offset,
            index: 5,
            problem: Corruption::Undecodable(Some(_)),
        } if offset == end
    ));

    // A valid Chance with a byte left over.
    bytes.truncate(end);
    bytes.extend(encode_record(&(2u8, 3u8, 9u8)).expect("encode"));
    let recovered = decoded(&bytes).expect("header intact");
    assert_eq!(
        recovered.tail,
        Tail::Corrupt {
            offset: end,
            index: 5,
            problem: Corruption::Undecodable(None)
        }
    );
    assert!(recovered.tail.to_string().contains("incompatible build"));
}

#[test]
fn an_absurd_length_is_corruption_and_never_allocated() {
    let (mut bytes, ends) = journal_of(&recorded_game()[..3]);
    let len = 3_000_000_000u32.to_le_bytes();
    bytes.extend_from_slice(&len);
    bytes.extend_from_slice(&crc32(&len).to_le_bytes());
    bytes.extend_from_slice(&[0xAA; 16]);
    let recovered = decoded(&bytes).expect("header intact");
    assert_eq!(recovered.records.len(), 3);
    assert_eq!(
        recovered.tail,
        Tail::Corrupt {
            offset: ends[3],
            index: 3,
            problem: Corruption::TooLarge { len: 3_000_000_000 }
        }
    );
}

#[test]
fn zeros_after_the_last_record_are_a_torn_write() {
    let (mut bytes, ends) = journal_of(&recorded_game()[..3]);
    for zeros in 1..40 {
        bytes.truncate(ends[3]);
        bytes.resize(ends[3] + zeros, 0);
        let recovered = decoded(&bytes).expect("header intact");
        assert_eq!(recovered.records.len(), 3);
        assert_eq!(
            recovered.tail,
            Tail::Torn {
                offset: ends[3],
                len: zeros
            }
        );
    }
}

#[test]
fn bad_headers_say_what_to_do() {
    let (bytes, _) = journal_of(&recorded_game()[..3]);

    let not_ours = b"PK\x03\x04 a zip file, not a journal";
    let err = decoded(not_ours).expect_err("foreign");
    assert_eq!(err, HeaderError::NotAJournal);
    assert!(err.to_string().contains("not an Umpire journal"));
    assert_eq!(
        decoded(b"UM").err(),
        Some(HeaderError::Truncated { len: 2 })
    );
    assert_eq!(decoded(b"UX").err(), Some(HeaderError::NotAJournal));

    let mut newer = bytes.clone();
    newer[4..6].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    let err = decoded(&newer).expect_err("newer");
    assert_eq!(
        err,
        HeaderError::NewerVersion {
            found: FORMAT_VERSION + 1
        }
    );
    assert!(err.to_string().contains("newer Umpire"));
    assert!(err.to_string().contains("update"));

    // A journal of another game: its header does not decode as this one's.
    let other = {
        let mut j = JournalWriter::<_, Record>::create(MemStore::new(), &"no").expect("create");
        j.append(&Record::Chance { face: 1 }).expect("append");
        j.into_store().into_bytes()
    };
    let err = decoded(&other).expect_err("another game");
    assert!(matches!(err, HeaderError::Undecodable(_)), "{err:?}");
    assert!(err.to_string().contains("another game"));

    let resumed = JournalWriter::<_, Record>::resume::<Header>(MemStore::new());
    assert!(matches!(
        resumed,
        Err(JournalError::Header(HeaderError::Empty))
    ));
}

#[test]
fn create_never_overwrites_a_game() {
    let (bytes, _) = journal_of(&recorded_game()[..3]);
    let len = bytes.len();
    let err = JournalWriter::<_, Record>::create(MemStore::from_bytes(bytes), &header())
        .expect_err("must refuse");
    assert!(matches!(err, JournalError::NotEmpty { len: l } if l == len));
}

#[test]
fn an_oversized_record_is_refused_and_the_journal_stays_usable() {
    let mut journal = JournalWriter::create(MemStore::new(), &header()).expect("create");
    let huge = Record::Setup {
        seat: 0,
        pieces: vec![(1, 2); MAX_RECORD_LEN],
    };
    let err = journal.append(&huge).expect_err("too large");
    assert!(matches!(
        err,
        JournalError::Encode(EncodeError::RecordTooLarge { .. })
    ));
    journal.append(&Record::Chance { face: 2 }).expect("usable");
    let recovered = decoded(journal.store().as_bytes()).expect("decodes");
    assert_eq!(recovered.records, [Record::Chance { face: 2 }]);
}

/// A memory store whose sync fails on demand, as an SD card pulled mid-game might.
#[derive(Debug, Default)]
struct FlakyStore {
    inner: MemStore,
    /// Shared, so a test can mend the card while a writer holds the store.
    fail_sync: Rc<Cell<bool>>,
}

impl Store for FlakyStore {
    fn append(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.inner.append(bytes)
    }
    fn sync(&mut self) -> io::Result<()> {
        if self.fail_sync.get() {
            return Err(io::Error::other("card removed"));
        }
        self.inner.sync()
    }
    fn read_all(&mut self) -> io::Result<Vec<u8>> {
        self.inner.read_all()
    }
    fn truncate(&mut self, len: usize) -> io::Result<()> {
        self.inner.truncate(len)
    }
}

/// After a failed sync the writer cuts off what may have reached the store and takes the record
/// again; the old writer refused every append until the process restarted.
#[test]
fn after_a_failed_sync_the_writer_cuts_the_partial_frame_and_appends_again() {
    let mut journal =
        JournalWriter::<_, Record>::create(FlakyStore::default(), &header()).expect("create");
    journal.append(&Record::Chance { face: 1 }).expect("append");
    let good_len = journal.len_bytes();
    let store = journal.into_store();
    let fail_sync = store.fail_sync.clone();
    fail_sync.set(true);
    let (mut journal, _) = JournalWriter::<_, Record>::resume::<Header>(store).expect("resume");

    let err = journal
        .append(&Record::Chance { face: 2 })
        .expect_err("sync fails");
    assert!(matches!(err, JournalError::Io { doing: "sync", .. }));
    assert!(err.to_string().contains("SD card"));
    assert!(journal.is_dirty());
    assert!(
        journal.store().inner.as_bytes().len() > good_len,
        "the frame went in unsynced"
    );

    // The card comes back: the same record is written once, nothing doubled, nothing lost.
    fail_sync.set(false);
    journal
        .append(&Record::Chance { face: 2 })
        .expect("retried");
    journal
        .append(&Record::Chance { face: 3 })
        .expect("goes on");
    assert!(!journal.is_dirty());
    let recovered = decoded(journal.store().inner.as_bytes()).expect("decodes");
    assert_eq!(
        recovered.records,
        [
            Record::Chance { face: 1 },
            Record::Chance { face: 2 },
            Record::Chance { face: 3 }
        ]
    );
    assert_eq!(recovered.tail, Tail::Clean);
}

/// A full card: every append past the quota fails as storage full and leaves part of a frame;
/// once space is freed the journal goes on, and decodes to every record exactly once.
#[test]
fn a_full_card_loses_nothing_once_space_is_freed() {
    let game = recorded_game();
    let quota = Quota::new(60);
    let store = MemStore::on_card(quota.clone());
    let mut journal = JournalWriter::<_, Record>::create(store, &header()).expect("create");
    let mut failures = 0;
    for record in &game {
        while let Err(e) = journal.append(record) {
            assert!(e.is_storage_full(), "{e}");
            assert!(!e.is_read_only());
            failures += 1;
            quota.set(quota.get() + 7);
        }
    }
    assert!(failures > 3, "the quota bit {failures} times");
    let recovered = decoded(journal.store().as_bytes()).expect("decodes");
    assert_eq!(recovered.records, game);
    assert_eq!(recovered.tail, Tail::Clean);
}

/// A file in the temp directory, removed when dropped (even if the test fails).
struct TempPath(std::path::PathBuf);

impl TempPath {
    fn new(name: &str) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        Self(std::env::temp_dir().join(format!(
            "umpire-{name}-{}-{nanos}.journal",
            std::process::id()
        )))
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn file_store_round_trip_with_a_torn_write() {
    let path = TempPath::new("file-store");
    let records = recorded_game();
    let (expected_bytes, ends) = journal_of(&records);

    let mut journal = JournalWriter::create(FileStore::create(&path.0).expect("create"), &header())
        .expect("journal");
    for r in &records {
        journal.append(r).expect("append");
    }
    drop(journal);
    assert_eq!(std::fs::read(&path.0).expect("read"), expected_bytes);

    let err = FileStore::create(&path.0).expect_err("never overwrites");
    assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);

    // The power goes halfway through the next record.
    {
        use std::io::Write;
        let torn = encode_record(&Record::Action { from: 1, to: 2 }).expect("encode");
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path.0)
            .expect("open");
        file.write_all(&torn[..7]).expect("write");
    }

    let store = FileStore::open(&path.0).expect("open");
    assert_eq!(store.path(), path.0);
    let (mut journal, recovered) =
        JournalWriter::<_, Record>::resume::<Header>(store).expect("resume");
    assert_eq!(recovered.records, records);
    assert_eq!(
        recovered.tail,
        Tail::Torn {
            offset: expected_bytes.len(),
            len: 7
        }
    );
    assert_eq!(
        std::fs::metadata(&path.0).expect("metadata").len(),
        *ends.last().expect("ends") as u64
    );
    journal
        .append(&Record::Action { from: 3, to: 4 })
        .expect("append after resume");
    drop(journal);

    let recovered = decoded(&std::fs::read(&path.0).expect("read")).expect("decodes");
    assert_eq!(recovered.tail, Tail::Clean);
    assert_eq!(recovered.records[..records.len()], records);
    assert_eq!(
        recovered.records[records.len()..],
        [Record::Action { from: 3, to: 4 }]
    );
}

/// Format version 1, pinned. postcard is not self-describing, so these bytes are the schema: if
/// this test fails, the framing or a payload encoding changed. Do not re-bless: bump
/// `FORMAT_VERSION`, keep decoding these bytes, and add the new version's golden bytes beside them.
#[rustfmt::skip]
const GOLDEN_V1: &[u8] = &[
    // Header: magic, version 1, payload length 11.
    b'U', b'M', b'P', b'J', 0x01, 0x00, 0x0B, 0x00, 0x00, 0x00,
    // Header { game: "stratego", variant: 1, two_squares_rule: true }
    0x08, b's', b't', b'r', b'a', b't', b'e', b'g', b'o', 0x01, 0x01,
    // Header CRC (of everything above).
    0x59, 0xDD, 0xDA, 0xDC,
    // Record 0: length 7, CRC of the length; Setup { seat: 1, pieces: [(60, 11), (61, 3)] }; CRC.
    0x07, 0x00, 0x00, 0x00, 0xA5, 0xE7, 0x93, 0xBC,
    0x00, 0x01, 0x02, 0x3C, 0x0B, 0x3D, 0x03,
    0xD5, 0x80, 0x52, 0x9F,
    // Record 1: Action { from: 12, to: 22 }.
    0x03, 0x00, 0x00, 0x00, 0xF2, 0x70, 0xF1, 0x33,
    0x01, 0x0C, 0x16,
    0x14, 0x4F, 0xCF, 0xC4,
    // Record 2: Chance { face: 5 }.
    0x02, 0x00, 0x00, 0x00, 0x97, 0x17, 0x4D, 0x8B,
    0x02, 0x05,
    0xAE, 0x37, 0x9E, 0xF3,
];

fn golden_records() -> Vec<Record> {
    vec![
        Record::Setup {
            seat: 1,
            pieces: vec![(60, 11), (61, 3)],
        },
        Record::Action { from: 12, to: 22 },
        Record::Chance { face: 5 },
    ]
}

#[test]
fn golden_bytes_of_format_version_1_still_decode() {
    let recovered = decoded(GOLDEN_V1).expect("decodes");
    assert_eq!(recovered.header, header());
    assert_eq!(recovered.records, golden_records());
    assert_eq!(recovered.tail, Tail::Clean);
}

#[test]
fn this_build_writes_format_version_1_byte_for_byte() {
    assert_eq!(FORMAT_VERSION, 1, "a new version gets its own golden bytes");
    let (bytes, _) = journal_of(&golden_records());
    assert_eq!(bytes, GOLDEN_V1, "\nwritten: {bytes:02X?}");
}

/// CRC-32/ISO-HDLC, bit by bit: an independent check of the journal's table-driven one.
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = 0xFFFF_FFFFu32;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                (c >> 1) ^ 0xEDB8_8320
            } else {
                c >> 1
            };
        }
    }
    !c
}

#[test]
fn the_frame_crcs_are_crc32_iso_hdlc() {
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    let header_end = GOLDEN_V1.len() - (8 + 7 + 4) - (8 + 3 + 4) - (8 + 2 + 4);
    let header = &GOLDEN_V1[..header_end];
    let (body, crc) = header.split_at(header.len() - 4);
    assert_eq!(crc32(body).to_le_bytes(), crc);
}
