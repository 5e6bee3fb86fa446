//! Zobrist keys, generated at compile time with splitmix64 from a fixed seed, so hashes are
//! the same on every platform and in every run.

use crate::types::{Color, Pos, CELLS};

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn generate() -> [[u64; CELLS]; 2] {
    let mut keys = [[0u64; CELLS]; 2];
    let mut state = 0x4C69_616E_7A68_7521; // "Lianzhu!"
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            let (s, k) = splitmix64(state);
            state = s;
            keys[c][i] = k;
            i += 1;
        }
        c += 1;
    }
    keys
}

static KEYS: [[u64; CELLS]; 2] = generate();

/// XORed into the hash when white is to move.
pub const SIDE: u64 = splitmix64(0x5349_4445).1;

/// The key of a stone of `color` at `p`.
#[inline]
pub fn stone(color: Color, p: Pos) -> u64 {
    KEYS[color.index()][p.index()]
}
