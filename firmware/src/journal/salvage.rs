//! What can still be read after a damaged record: to tell the players how much of their game
//! the damage took ("36 of 37 moves intact"), never to resume from (nothing after damage is
//! trusted).

use serde::de::DeserializeOwned;

use super::crc::crc32;
use super::format::{decode, encode_header, Tail, MAX_RECORD_LEN};

/// The records after the damaged record at byte `damaged_at` of `bytes`: found by looking for
/// the next offset where a frame's checks pass and the journal reads on cleanly from there to
/// its end. `Some(empty)` when the damaged record is the last one; `None` when no clean run to
/// the end is found (the damage spans frames, or what follows is damaged too).
pub fn records_after_damage<R: DeserializeOwned>(
    bytes: &[u8],
    damaged_at: usize,
) -> Option<Vec<R>> {
    // A stand-in header, so that the records after the damage decode on their own.
    let head = encode_header(&()).ok()?;
    let start = damaged_at.checked_add(1)?;
    for p in start..bytes.len() {
        if frame_head_checks(bytes, p) {
            let mut rest = head.clone();
            rest.extend_from_slice(&bytes[p..]);
            if let Ok(found) = decode::<(), R>(&rest) {
                if found.tail == Tail::Clean && !found.records.is_empty() {
                    return Some(found.records);
                }
            }
        }
    }
    // Nothing intact follows: is the damaged record the last, by its own length?
    let len = frame_len(bytes, damaged_at)?;
    (damaged_at + 12 + len == bytes.len()).then(Vec::new)
}

/// Whether a frame's length field at `at` passes its checksum and bound, and the frame fits.
fn frame_head_checks(bytes: &[u8], at: usize) -> bool {
    frame_len(bytes, at).is_some_and(|len| at + 12 + len <= bytes.len())
}

/// The payload length of the frame at `at`, if its length field passes its checksum and bound.
fn frame_len(bytes: &[u8], at: usize) -> Option<usize> {
    let head = bytes.get(at..at.checked_add(8)?)?;
    let (len, crc) = head.split_at(4);
    if crc32(len) != u32::from_le_bytes(crc.try_into().ok()?) {
        return None;
    }
    let len = usize::try_from(u32::from_le_bytes(len.try_into().ok()?)).ok()?;
    (len <= MAX_RECORD_LEN).then_some(len)
}
