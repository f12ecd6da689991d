//! The referee's journal schema (header and records, referee::SCHEMA 1), pinned as postcard
//! bytes. postcard is not self-describing: variant order *is* the encoding. If this test fails
//! the schema changed: do not re-bless; grow enums only at the end, or bump `SCHEMA` and keep
//! decoding these bytes.

use boards::stratego::{Deployment, Move, Options, Rank, Square, Variant, BLUE};
use firmware::referee::{GameKind, Header, Record, SetupMode, SCHEMA};

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
