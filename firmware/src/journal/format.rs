//! The pure layer: journal bytes in, header and records out, and back. No I/O.

use core::fmt;

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::crc::crc32;

/// The first four bytes of every journal.
pub const MAGIC: [u8; 4] = *b"UMPJ";

/// The framing format this build writes, and the newest it reads.
///
/// Bump it (and keep reading every older version, with its golden bytes kept in the tests) when
/// the framing changes. The payloads' own schemas are the game's business: their enums only grow
/// at the end, and a game that must break its schema says so in its header type.
pub const FORMAT_VERSION: u16 = 1;

/// The most bytes a header payload may encode to.
pub const MAX_HEADER_LEN: usize = 64 * 1024;

/// The most bytes one record payload may encode to. A whole set-up of a board game is a few
/// hundred bytes; anything larger is a damaged length field or a bug.
pub const MAX_RECORD_LEN: usize = 64 * 1024;

/// Magic, version and payload length: the fixed part of the header before the payload.
const HEADER_FIXED: usize = 4 + 2 + 4;
/// Length and the CRC of the length: the fixed part of a record before its payload.
const FRAME_HEAD: usize = 4 + 4;
/// The CRC after a header or record payload.
const CRC_LEN: usize = 4;

/// A header or record could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EncodeError {
    /// postcard refused the value (for example a sequence of unknown length). This is a bug in the
    /// game's header or record type: give it a plain serde derive.
    Postcard(postcard::Error),
    /// The header encodes to more than [`MAX_HEADER_LEN`] bytes; keep large data out of it.
    HeaderTooLarge {
        /// Bytes it encodes to.
        len: usize,
    },
    /// A record encodes to more than [`MAX_RECORD_LEN`] bytes; split it into several records.
    RecordTooLarge {
        /// Bytes it encodes to.
        len: usize,
    },
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Postcard(e) => write!(
                f,
                "postcard cannot encode this value ({e}); this is a bug in the game's journal \
                 types: give them a plain serde derive"
            ),
            Self::HeaderTooLarge { len } => write!(
                f,
                "the journal header encodes to {len} bytes, more than the {MAX_HEADER_LEN} allowed; \
                 keep large data out of the header"
            ),
            Self::RecordTooLarge { len } => write!(
                f,
                "a journal record encodes to {len} bytes, more than the {MAX_RECORD_LEN} allowed; \
                 split it into several records"
            ),
        }
    }
}

impl std::error::Error for EncodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Postcard(e) => Some(e),
            _ => None,
        }
    }
}

/// Why the header at the start of the journal cannot be trusted. Nothing can be recovered from a
/// journal with a bad header: it names the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeaderError {
    /// Zero bytes: the power went before the new game's header reached the card.
    Empty,
    /// The bytes stop inside the header: the power went while the game was being created.
    Truncated {
        /// Bytes present.
        len: usize,
    },
    /// The file does not start with [`MAGIC`].
    NotAJournal,
    /// The format version is newer than [`FORMAT_VERSION`].
    NewerVersion {
        /// The version in the file.
        found: u16,
    },
    /// The format version is one no Umpire ever wrote (zero).
    UnknownVersion {
        /// The version in the file.
        found: u16,
    },
    /// The header claims a payload larger than [`MAX_HEADER_LEN`].
    TooLarge {
        /// The claimed length.
        len: usize,
    },
    /// The header's CRC does not match its bytes.
    Checksum,
    /// The header checks out but does not decode as this game's header type.
    Undecodable(postcard::Error),
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str(
                "the journal is empty: the power went before the game was created; \
                 delete it and start a new game",
            ),
            Self::Truncated { len } => write!(
                f,
                "the journal stops inside its header after {len} bytes: the power went while the \
                 game was being created, so no action was ever recorded; delete it and start a \
                 new game"
            ),
            Self::NotAJournal => f.write_str(
                "this file is not an Umpire journal (it does not start with \"UMPJ\"); \
                 check the path",
            ),
            Self::NewerVersion { found } => write!(
                f,
                "this journal was written by a newer Umpire (format version {found}; this build \
                 reads up to {FORMAT_VERSION}); update the umpire to resume it"
            ),
            Self::UnknownVersion { found } => write!(
                f,
                "the journal claims format version {found}, which no Umpire ever wrote: the file \
                 is damaged and cannot be resumed"
            ),
            Self::TooLarge { len } => write!(
                f,
                "the journal header claims {len} bytes, more than the {MAX_HEADER_LEN} allowed: \
                 the file is damaged and cannot be resumed"
            ),
            Self::Checksum => f.write_str(
                "the journal header fails its checksum: the file is damaged and cannot be resumed",
            ),
            // The header's types refuse an unknown value as they decode (a set-up flag or an
            // option this build does not know): postcard keeps no words of it.
            Self::Undecodable(postcard::Error::SerdeDeCustom) => write!(
                f,
                "the journal header holds a setting this build does not know ({OUT_OF_RANGE}, \
                 or a game option added by a newer Umpire): the file is kept; an updated \
                 umpire can resume it"
            ),
            Self::Undecodable(e) => write!(
                f,
                "the journal header does not decode as this game's header ({e}): the journal \
                 belongs to another game or to an incompatible Umpire build"
            ),
        }
    }
}

impl std::error::Error for HeaderError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Undecodable(e) => Some(e),
            _ => None,
        }
    }
}

/// What a payload that postcard refused with a custom error holds: the journaled types refuse
/// only out-of-range values that way (they validate as they decode).
pub(crate) const OUT_OF_RANGE: &str =
    "a value in it is out of range for its type (a square off the board, a seat no game has)";

/// What is wrong with a complete record frame that cannot be trusted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Corruption {
    /// The length field fails its own CRC.
    Length,
    /// The length field checks out but exceeds [`MAX_RECORD_LEN`]; no build writes such a record.
    TooLarge {
        /// The claimed length.
        len: usize,
    },
    /// The record's CRC does not match its bytes.
    Checksum,
    /// The record checks out but does not decode as this game's record type, or leaves bytes over.
    Undecodable(Option<postcard::Error>),
}

impl fmt::Display for Corruption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Length => f.write_str("its length field fails its checksum"),
            Self::TooLarge { len } => write!(
                f,
                "it claims {len} bytes, more than the {MAX_RECORD_LEN} a record may hold"
            ),
            Self::Checksum => f.write_str("its checksum does not match its bytes"),
            Self::Undecodable(Some(postcard::Error::SerdeDeCustom)) => write!(
                f,
                "{OUT_OF_RANGE}; the bytes are damaged or were written by an incompatible build"
            ),
            Self::Undecodable(Some(e)) => write!(
                f,
                "it does not decode as a record of this game ({e}); it was written by an \
                 incompatible build"
            ),
            Self::Undecodable(None) => f.write_str(
                "it decodes with bytes left over; it was written by an incompatible build",
            ),
        }
    }
}

/// How the journal ends after its last trusted record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tail {
    /// The last record is complete and the bytes end right after it.
    Clean,
    /// The last record is incomplete: a power cut while it was being written, expected and
    /// harmless. Its action was never confirmed to the players; it is ignored.
    Torn {
        /// Byte offset where the incomplete record starts.
        offset: usize,
        /// Bytes of it present (up to the end of the journal).
        len: usize,
    },
    /// A complete record is damaged. It and everything after it is not trusted.
    Corrupt {
        /// Byte offset where the damaged record starts.
        offset: usize,
        /// Its index among the records (the number of trusted records before it).
        index: usize,
        /// What is wrong with it.
        problem: Corruption,
    },
}

impl fmt::Display for Tail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Clean => f.write_str("the journal ends cleanly after its last record"),
            Self::Torn { offset, len } => write!(
                f,
                "the last record (at byte {offset}, {len} bytes present) was cut short by a power \
                 loss and is ignored; its action was never confirmed to the players"
            ),
            Self::Corrupt {
                offset,
                index,
                problem,
            } => write!(
                f,
                "record {index} at byte {offset} is damaged: {problem}; it and everything after \
                 it is not trusted"
            ),
        }
    }
}

/// Everything that can be trusted in a journal, and how it ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recovered<H, R> {
    /// The game's header.
    pub header: H,
    /// Every complete, intact record, in order, up to the first one that is not.
    pub records: Vec<R>,
    /// How the journal ends after `records`.
    pub tail: Tail,
    /// Bytes of header plus trusted records: where appending may resume.
    pub valid_len: usize,
}

/// The journal header for `header`: magic, [`FORMAT_VERSION`], the postcard payload and its CRC.
///
/// # Errors
/// [`EncodeError`] if postcard refuses the value or it exceeds [`MAX_HEADER_LEN`].
pub fn encode_header<H: Serialize>(header: &H) -> Result<Vec<u8>, EncodeError> {
    let payload = postcard::to_allocvec(header).map_err(EncodeError::Postcard)?;
    let len = payload.len();
    let len32 = checked_len(len, MAX_HEADER_LEN).ok_or(EncodeError::HeaderTooLarge { len })?;
    let mut out = Vec::with_capacity(HEADER_FIXED + len + CRC_LEN);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&len32.to_le_bytes());
    out.extend_from_slice(&payload);
    let crc = crc32(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    Ok(out)
}

/// One framed record for `record`: length, CRC of the length, the postcard payload, CRC of all.
///
/// # Errors
/// [`EncodeError`] if postcard refuses the value or it exceeds [`MAX_RECORD_LEN`].
pub fn encode_record<R: Serialize>(record: &R) -> Result<Vec<u8>, EncodeError> {
    let payload = postcard::to_allocvec(record).map_err(EncodeError::Postcard)?;
    let len = payload.len();
    let len32 = checked_len(len, MAX_RECORD_LEN).ok_or(EncodeError::RecordTooLarge { len })?;
    let len_bytes = len32.to_le_bytes();
    let mut out = Vec::with_capacity(FRAME_HEAD + len + CRC_LEN);
    out.extend_from_slice(&len_bytes);
    out.extend_from_slice(&crc32(&len_bytes).to_le_bytes());
    out.extend_from_slice(&payload);
    let crc = crc32(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    Ok(out)
}

/// Everything trustworthy in `bytes`: the header, the intact records in order, and how the
/// journal ends. Never panics, whatever the bytes.
///
/// # Errors
/// [`HeaderError`] if the header is missing, truncated, foreign, newer, or damaged; a damaged
/// *record* is not an error but [`Tail::Corrupt`], with the records before it recovered.
pub fn decode<H, R>(bytes: &[u8]) -> Result<Recovered<H, R>, HeaderError>
where
    H: DeserializeOwned,
    R: DeserializeOwned,
{
    let (header, mut pos) = decode_header(bytes)?;
    let mut records = Vec::new();
    let tail = loop {
        match decode_frame(bytes, pos) {
            Frame::End => break Tail::Clean,
            Frame::Torn => {
                break Tail::Torn {
                    offset: pos,
                    len: bytes.len() - pos,
                }
            }
            Frame::Bad(problem) => {
                break Tail::Corrupt {
                    offset: pos,
                    index: records.len(),
                    problem,
                }
            }
            Frame::Record { payload, next } => match postcard::take_from_bytes::<R>(payload) {
                Ok((record, [])) => {
                    records.push(record);
                    pos = next;
                }
                Ok((_, _left_over)) => {
                    break Tail::Corrupt {
                        offset: pos,
                        index: records.len(),
                        problem: Corruption::Undecodable(None),
                    }
                }
                Err(e) => {
                    break Tail::Corrupt {
                        offset: pos,
                        index: records.len(),
                        problem: Corruption::Undecodable(Some(e)),
                    }
                }
            },
        }
    };
    Ok(Recovered {
        header,
        records,
        tail,
        valid_len: pos,
    })
}

/// The header's payload, its framing and checksum checked but not decoded: for a game to read
/// the version of its own header type before decoding the rest (see `referee::check_schema`).
///
/// # Errors
/// [`HeaderError`] as [`decode`] reports it for the framing; never
/// [`HeaderError::Undecodable`].
pub fn header_payload(bytes: &[u8]) -> Result<&[u8], HeaderError> {
    header_frame(bytes).map(|(payload, _)| payload)
}

/// The header and the offset of the first record.
fn decode_header<H: DeserializeOwned>(bytes: &[u8]) -> Result<(H, usize), HeaderError> {
    let (payload, next) = header_frame(bytes)?;
    match postcard::take_from_bytes::<H>(payload) {
        Ok((header, [])) => Ok((header, next)),
        Ok((_, _left_over)) => Err(HeaderError::Undecodable(
            postcard::Error::DeserializeBadEncoding,
        )),
        Err(e) => Err(HeaderError::Undecodable(e)),
    }
}

/// The header's checked payload and the offset of the first record.
fn header_frame(bytes: &[u8]) -> Result<(&[u8], usize), HeaderError> {
    if bytes.is_empty() {
        return Err(HeaderError::Empty);
    }
    let magic_part = &bytes[..bytes.len().min(MAGIC.len())];
    if magic_part != &MAGIC[..magic_part.len()] {
        return Err(HeaderError::NotAJournal);
    }
    let truncated = HeaderError::Truncated { len: bytes.len() };
    let version = read_u16(bytes, 4).ok_or(truncated.clone())?;
    if version > FORMAT_VERSION {
        return Err(HeaderError::NewerVersion { found: version });
    }
    if version == 0 {
        return Err(HeaderError::UnknownVersion { found: version });
    }
    let len = read_len(bytes, 6).ok_or(truncated.clone())?;
    if len > MAX_HEADER_LEN {
        return Err(HeaderError::TooLarge { len });
    }
    let end = HEADER_FIXED + len;
    let stored_crc = read_u32(bytes, end).ok_or(truncated.clone())?;
    let checked = bytes.get(..end).ok_or(truncated)?;
    if crc32(checked) != stored_crc {
        return Err(HeaderError::Checksum);
    }
    Ok((&checked[HEADER_FIXED..], end + CRC_LEN))
}

/// One step of reading records.
enum Frame<'a> {
    /// No bytes left at this offset.
    End,
    /// Some bytes left, but not a whole frame.
    Torn,
    /// A whole frame that cannot be trusted.
    Bad(Corruption),
    /// A whole, intact frame.
    Record { payload: &'a [u8], next: usize },
}

fn decode_frame(bytes: &[u8], pos: usize) -> Frame<'_> {
    let rest = bytes.get(pos..).unwrap_or_default();
    if rest.is_empty() {
        return Frame::End;
    }
    let (Some(len_bytes), Some(len_crc)) = (rest.get(..4), read_u32(rest, 4)) else {
        return Frame::Torn;
    };
    if crc32(len_bytes) != len_crc {
        // Some filesystems extend a file before its data lands, leaving zeros after a power cut.
        // No frame is all zeros (the CRC of a zero length is 0x2144DF1C), so zeros to the end
        // are a torn write, not damage.
        return if rest.iter().all(|&b| b == 0) {
            Frame::Torn
        } else {
            Frame::Bad(Corruption::Length)
        };
    }
    let Some(len) = read_len(rest, 0) else {
        return Frame::Torn;
    };
    if len > MAX_RECORD_LEN {
        return Frame::Bad(Corruption::TooLarge { len });
    }
    let end = FRAME_HEAD + len;
    let Some(stored_crc) = read_u32(rest, end) else {
        return Frame::Torn;
    };
    let Some(checked) = rest.get(..end) else {
        return Frame::Torn;
    };
    if crc32(checked) != stored_crc {
        return Frame::Bad(Corruption::Checksum);
    }
    Frame::Record {
        payload: &checked[FRAME_HEAD..],
        next: pos + end + CRC_LEN,
    }
}

/// `len` as a `u32` if it is at most `max`.
fn checked_len(len: usize, max: usize) -> Option<u32> {
    if len > max {
        return None;
    }
    u32::try_from(len).ok()
}

fn read_u16(bytes: &[u8], at: usize) -> Option<u16> {
    let b = bytes.get(at..at.checked_add(2)?)?;
    Some(u16::from_le_bytes([b[0], b[1]]))
}

fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// A little-endian `u32` length as a `usize` (saturating on a 16-bit target, where any real
/// length is far below the maximum anyway).
fn read_len(bytes: &[u8], at: usize) -> Option<usize> {
    read_u32(bytes, at).map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}
