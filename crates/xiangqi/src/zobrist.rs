//! Zobrist keys for xiangqi positions (Zobrist, "A new hashing method with
//! application for game playing", 1970/1990).
//!
//! One 64-bit key per (piece, point) and one for "Black to move". A
//! position's key is the XOR of the keys of its pieces, XOR the side key when
//! Black is to move; [`crate::Position`] updates it incrementally in
//! `make`/`unmake` and [`crate::Position::compute_key`] recomputes it
//! from scratch (tests check that the two agree along generated games).
//!
//! The keys are generated at compile time by SplitMix64 from a fixed seed, so
//! they are the same in every build.

/// SplitMix64 step (Steele, Lea and Flood), usable in a `const` context.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn build_piece_keys() -> [[u64; 256]; 16] {
    let mut keys = [[0u64; 256]; 16];
    let mut state = 0x7468_7265_6566_6f6c; // "threefol"
    let mut p = 0;
    while p < 16 {
        let mut sq = 0;
        while sq < 256 {
            let (s, k) = splitmix(state);
            state = s;
            keys[p][sq] = k;
            sq += 1;
        }
        p += 1;
    }
    keys
}

/// `PIECE[code][sq]`: the key of piece `code` (see `board::code`) on the
/// padded square `sq`. Codes 0 and 8 (no piece) are never used.
pub(crate) static PIECE: [[u64; 256]; 16] = build_piece_keys();

/// XORed into the key when Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = splitmix(0x5349_4445_544f_4d56).1;
