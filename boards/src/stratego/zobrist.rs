//! Position keys for the more-squares rule: one 64-bit key per (square, piece) and for the side
//! to move, fixed at compile time so hashes are the same on every machine and every run.

use super::square::PAD_CELLS;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Keys indexed by padded square and piece identity (owner * 16 + rank code).
pub(crate) static PIECE_KEYS: [[u64; 32]; PAD_CELLS] = {
    let mut keys = [[0u64; 32]; PAD_CELLS];
    let mut state = 0x5354_5241_5445_474F; // "STRATEGO"
    let mut sq = 0;
    while sq < PAD_CELLS {
        let mut p = 0;
        while p < 32 {
            let (s, k) = splitmix(state);
            state = s;
            keys[sq][p] = k;
            p += 1;
        }
        sq += 1;
    }
    keys
};

/// Toggled whenever the side to move changes.
pub(crate) const SIDE_KEY: u64 = splitmix(0x5349_4445).1;
