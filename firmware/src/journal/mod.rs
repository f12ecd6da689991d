//! The journal: every game as a versioned, append-only file of its set-up, every action and every
//! chance outcome, each record synced before the players are told the result, so a power cut at
//! any byte resumes at the last complete record.
//!
//! Generic over the game: a header type `H` (game, options, anything fixed at the start) and a
//! record type `R` (set-up, action, chance outcome...), both plain serde types encoded with
//! postcard.
//!
//! # Layers
//! - Pure bytes: [`encode_header`], [`encode_record`] and [`decode`], which returns the header,
//!   every intact record, and how the journal ends ([`Tail`]). `decode` never panics.
//! - Storage: the [`Store`] trait (append, sync, read all, truncate) with [`MemStore`] for tests
//!   and the simulator and [`FileStore`] for the SD card (`fdatasync` on every sync).
//! - [`JournalWriter`]: `create` a journal, `append` records (written *and synced* before it
//!   returns), `resume` one after a restart.
//! - Salvage: [`records_after_damage`] reads on past a damaged record, only to say how much of
//!   the game the damage took; [`keep_copy`] and [`set_aside`] keep a damaged journal beside
//!   itself (`game-0007.umpj.damaged-1`) before it is cut or left.
//!
//! Journal files are created owner-only (mode 0600, [`FileStore::create`], [`write_private`])
//! in an owner-only folder: a journal holds both secret set-ups.
//!
//! # On-disk format, version 1
//! All integers little-endian. CRC is CRC-32/ISO-HDLC (the zlib/PNG CRC).
//!
//! Header, at offset 0:
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 4 | magic `b"UMPJ"` ([`MAGIC`]) |
//! | 4 | 2 | format version, `u16` ([`FORMAT_VERSION`] = 1) |
//! | 6 | 4 | header payload length `L`, `u32`, at most [`MAX_HEADER_LEN`] |
//! | 10 | `L` | header payload: postcard of `H` |
//! | 10+`L` | 4 | CRC of bytes `0 .. 10+L` |
//!
//! Then records, back to back, each framed:
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 4 | payload length `N`, `u32`, at most [`MAX_RECORD_LEN`] |
//! | 4 | 4 | CRC of the 4 length bytes |
//! | 8 | `N` | record payload: postcard of `R` |
//! | 8+`N` | 4 | CRC of frame bytes `0 .. 8+N` (length, its CRC, payload) |
//!
//! A record thus costs 12 bytes plus its payload.
//!
//! # Recovery
//! Appends only ever add bytes at the end, so a power cut leaves a prefix of what was written.
//! [`decode`] reads records until the first one it cannot trust and reports why in [`Tail`]:
//! - [`Tail::Clean`]: the bytes end exactly after a record.
//! - [`Tail::Torn`] at offset *n*: fewer bytes remain than the frame needs. This is the expected
//!   result of a power cut mid-write; that record's action was never confirmed to the players, and
//!   [`JournalWriter::resume`] cuts it off. A tail of nothing but zero bytes is also torn (some
//!   filesystems grow a file before its data lands; no frame is all zeros).
//! - [`Tail::Corrupt`] at offset *n*: a *complete* frame fails a check (length CRC, size bound,
//!   record CRC, or postcard decoding). Nothing from *n* on is trusted, and `resume` refuses to
//!   append after it unless told to with [`JournalWriter::resume_truncating_corruption`].
//!
//! The length has its own CRC so that a damaged length is reported as corruption where it is,
//! rather than pointing past the end of the file and passing for a torn tail, which `resume` would
//! silently cut off along with every later record.
//!
//! A bad header ([`HeaderError`]) recovers nothing: empty, truncated (the power went while the
//! game was being created), not a journal, a newer format version, or damaged.
//!
//! ## At boot
//! The umpire never refuses to start over its newest journal (`Service::start` in
//! [`crate::service`]):
//! - torn tail: cut off silently (that action was never announced), the game resumes;
//! - a damaged record: the OLED says how much is intact, in the players' unit ("36 of 37 moves
//!   intact", counted with [`records_after_damage`]), and offers *Resume* (first a
//!   byte-identical copy is kept beside the file, then
//!   [`JournalWriter::resume_truncating_corruption`] cuts the damage off) or *New game* (the file
//!   is left as it is; the new game gets the next number);
//! - nothing to resume (empty, header torn, not a journal, newer, unreadable): the OLED says so,
//!   the file is moved aside with [`set_aside`] (never deleted), and OK opens the game menu.
//!
//! Numbers of new game files are one past the highest present, copies included (`u64`; past
//! `u64::MAX`, the lowest free number), so a new game never reuses a kept file's number.
//!
//! ## Write errors
//! A failed append (a full or read-only card, an I/O error) leaves the writer usable: it knows
//! where its last good record ends and, before the next append or on
//! [`JournalWriter::heal`], truncates whatever part of the failed frame reached the store. The
//! referee announces nothing it could not journal; it keeps the step that failed and runs it
//! again when the players press OK, or by itself after a back-off (2 s, doubling to a minute)
//! (a button step that journaled part of its work is finished, not pressed again),
//! and the OLED says what happened ("the SD card is full: free space on it, then press OK;
//! nothing is lost yet"). [`MemStore::on_card`] with a [`Quota`] simulates a card that fills.
//!
//! # Versions
//! [`FORMAT_VERSION`] covers this framing; a build reads every version up to its own and refuses
//! newer ones ("update the umpire"). postcard is not self-describing, so the payload types are a
//! schema too: enum variants only ever grow at the end, and golden bytes of old journals are kept
//! in the tests. A game that must break its payload schema carries its own version in `H`, as
//! the header's first field, which it reads from [`header_payload`] before decoding the rest
//! (the referee's `check_schema`): a journal of another layout is refused by name, never
//! misread.
//!
//! A checksum only proves the bytes are the ones written. Payload types with a range or an
//! invariant (squares, seats, cells, sets) validate as they decode, so bytes that pass every
//! checksum but hold an out-of-range value are [`Corruption::Undecodable`], not a value the
//! rules would index with.
//!
//! # Example
//! ```
//! use firmware::journal::{decode, JournalWriter, MemStore, Tail};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Debug, PartialEq, Serialize, Deserialize)]
//! enum Record {
//!     Action { from: u8, to: u8 },
//!     Chance { face: u8 },
//! }
//!
//! let mut journal = JournalWriter::create(MemStore::new(), &"stratego")?;
//! journal.append(&Record::Action { from: 12, to: 22 })?;
//! journal.append(&Record::Chance { face: 3 })?;
//! // Only now tell the players.
//!
//! // The power goes halfway through the next record.
//! let mut bytes = journal.into_store().into_bytes();
//! bytes.extend_from_slice(&[2, 0, 0, 0, 0xAB]);
//!
//! let (mut journal, recovered) =
//!     JournalWriter::<_, Record>::resume::<String>(MemStore::from_bytes(bytes))?;
//! assert_eq!(recovered.header, "stratego");
//! assert_eq!(recovered.records.len(), 2);
//! assert!(matches!(recovered.tail, Tail::Torn { .. }));
//!
//! journal.append(&Record::Chance { face: 5 })?;
//! let again = decode::<String, Record>(journal.store().as_bytes())?;
//! assert_eq!(again.records.last(), Some(&Record::Chance { face: 5 }));
//! assert_eq!(again.tail, Tail::Clean);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod crc;
mod format;
mod salvage;
mod store;
mod writer;

pub(crate) use format::OUT_OF_RANGE;
pub use format::{decode, encode_header, encode_record, header_payload};
pub use format::{Corruption, EncodeError, HeaderError, Recovered, Tail};
pub use format::{FORMAT_VERSION, MAGIC, MAX_HEADER_LEN, MAX_RECORD_LEN};
pub use salvage::records_after_damage;
pub use store::{keep_copy, set_aside, write_private, FileStore, MemStore, Quota, Store};
pub use writer::{JournalError, JournalWriter};
