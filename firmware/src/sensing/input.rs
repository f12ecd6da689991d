//! What the drivers hand the sensing model: scans, tag reads, button presses.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Millis, Occupancy, SensedCell};

/// One scan of every reed switch: which cells read a piece, and when the scan was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OccupancyFrame {
    /// When the scan was taken.
    pub at: Millis,
    /// The cells whose switch read closed (a magnet above it).
    pub occupied: Occupancy,
}

/// The unique identifier of an NFC tag: 4, 7 (NTAG21x) or 10 bytes for ISO 14443A, 8 for
/// ISO 15693; any length from 1 to 10 is accepted.
///
/// The factory UID is unique, so the umpire keeps a table UID -> piece and never needs to read
/// tag memory.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "Vec<u8>", into = "Vec<u8>")]
pub struct TagUid {
    len: u8,
    bytes: [u8; TagUid::MAX_LEN],
}

impl TagUid {
    /// The longest UID (ISO 14443A triple size).
    pub const MAX_LEN: usize = 10;

    /// The UID made of `bytes`.
    ///
    /// # Errors
    /// `bytes` is empty or longer than [`TagUid::MAX_LEN`].
    pub fn new(bytes: &[u8]) -> Result<TagUid, TagUidError> {
        if bytes.is_empty() {
            return Err(TagUidError::Empty);
        }
        let mut uid = TagUid {
            len: 0,
            bytes: [0; TagUid::MAX_LEN],
        };
        let Some(dest) = uid.bytes.get_mut(..bytes.len()) else {
            return Err(TagUidError::TooLong { len: bytes.len() });
        };
        dest.copy_from_slice(bytes);
        uid.len = bytes.len() as u8;
        Ok(uid)
    }

    /// The UID's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len).min(TagUid::MAX_LEN)]
    }
}

impl TryFrom<Vec<u8>> for TagUid {
    type Error = TagUidError;
    fn try_from(bytes: Vec<u8>) -> Result<TagUid, TagUidError> {
        TagUid::new(&bytes)
    }
}

impl From<TagUid> for Vec<u8> {
    fn from(uid: TagUid) -> Vec<u8> {
        uid.as_bytes().to_vec()
    }
}

/// Colon-separated hex, as tag tools print it: `04:A2:1B:7C:33:5E:80`.
impl fmt::Display for TagUid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, b) in self.as_bytes().iter().enumerate() {
            if i > 0 {
                f.write_str(":")?;
            }
            write!(f, "{b:02X}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for TagUid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TagUid({self})")
    }
}

/// Why bytes are not a [`TagUid`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagUidError {
    /// No bytes at all.
    Empty,
    /// More than [`TagUid::MAX_LEN`] bytes.
    TooLong {
        /// How many bytes were given.
        len: usize,
    },
}

impl fmt::Display for TagUidError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TagUidError::Empty => f.write_str("a tag UID needs at least one byte"),
            TagUidError::TooLong { len } => write!(
                f,
                "a tag UID has at most {} bytes, not {len}: check the reader driver",
                TagUid::MAX_LEN
            ),
        }
    }
}

impl std::error::Error for TagUidError {}

/// Why no identity came back from a tag read. Each says what the players can do about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TagFailure {
    /// No tag answered.
    NoTag,
    /// More than one tag answered (a stack, or a neighbour's tag picked up).
    Collision,
    /// A tag answered but the answer was garbled (CRC or protocol error).
    Garbled,
    /// The reader itself did not respond.
    ReaderFault,
    /// No read result arrived within [`SensingConfig::tag_wait_ms`](super::SensingConfig) of
    /// the piece being placed. Made by the sensing model, not by drivers.
    TimedOut,
    /// Tags answered in a reader's region, but none that was not there before: the piece was
    /// moved within the region, or came back to it unseen. Says nothing of whether a piece
    /// stands there (unlike [`TagFailure::NoTag`]).
    NotNew,
}

impl fmt::Display for TagFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TagFailure::NoTag => {
                "no tag answered: check that the piece has a tag and stands in the middle of \
                 its square"
            }
            TagFailure::Collision => {
                "more than one tag answered: keep one piece per square, centred on it"
            }
            TagFailure::Garbled => "the tag's answer was garbled: lift the piece and put it back",
            TagFailure::ReaderFault => "the tag reader did not respond: check its wiring and power",
            TagFailure::TimedOut => {
                "no tag read came back in time: check that the tag reader is running"
            }
            TagFailure::NotNew => {
                "the reader's region holds no tag it had not seen: lift the piece and put it back"
            }
        })
    }
}

/// The outcome of one NFC read of one cell, as the reader driver reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TagRead {
    /// When the read finished.
    pub at: Millis,
    /// The cell read.
    pub cell: SensedCell,
    /// The tag's UID, or why there is none.
    pub result: Result<TagUid, TagFailure>,
}

/// The umpire's buttons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Button {
    /// Confirm.
    Ok,
    /// Go back, cancel.
    Back,
    /// Roll the battle die.
    Die,
}

/// A button press, already debounced by the button driver
/// ([`crate::drivers::buttons::Buttons`], which wants N equal samples in a row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ButtonPress {
    /// When it was pressed.
    pub at: Millis,
    /// Which button.
    pub button: Button,
}

/// Anything the sensing model is fed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SensorInput {
    /// A scan of the reed switches.
    Frame(OccupancyFrame),
    /// An NFC read.
    Tag(TagRead),
    /// A button press.
    Button(ButtonPress),
}

impl SensorInput {
    /// When the input happened.
    pub fn at(&self) -> Millis {
        match self {
            SensorInput::Frame(f) => f.at,
            SensorInput::Tag(t) => t.at,
            SensorInput::Button(b) => b.at,
        }
    }
}

impl From<OccupancyFrame> for SensorInput {
    fn from(f: OccupancyFrame) -> Self {
        SensorInput::Frame(f)
    }
}

impl From<TagRead> for SensorInput {
    fn from(t: TagRead) -> Self {
        SensorInput::Tag(t)
    }
}

impl From<ButtonPress> for SensorInput {
    fn from(b: ButtonPress) -> Self {
        SensorInput::Button(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uids_of_every_size_display_as_hex() {
        let uid = TagUid::new(&[0x04, 0xA2, 0x1B, 0x7C, 0x33, 0x5E, 0x80]).unwrap();
        assert_eq!(uid.to_string(), "04:A2:1B:7C:33:5E:80");
        assert_eq!(uid.as_bytes().len(), 7);
        assert_eq!(TagUid::new(&[1; 10]).unwrap().as_bytes(), [1; 10]);
        assert_eq!(TagUid::new(&[]), Err(TagUidError::Empty));
        assert_eq!(TagUid::new(&[1; 11]), Err(TagUidError::TooLong { len: 11 }));
    }

    #[test]
    fn uids_convert_through_bytes_as_serde_does() {
        let uid = TagUid::new(&[9, 8, 7, 6]).unwrap();
        let bytes: Vec<u8> = uid.into();
        assert_eq!(TagUid::try_from(bytes), Ok(uid));
        assert_eq!(
            TagUid::try_from(vec![0; 12]),
            Err(TagUidError::TooLong { len: 12 })
        );
    }
}
