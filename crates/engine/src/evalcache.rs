//! A direct-mapped cache of static evaluations by Zobrist key, for both games' searches.
//!
//! The quiescence search evaluates every node for its stand-pat score, and the same positions
//! come back across the iterations of iterative deepening, through transpositions and in the
//! next search. An evaluation is a function of the position alone, so a hit returns what the
//! evaluation would: the search visits the same nodes with or without the cache. Each slot is
//! one `u64`: the key's high 48 bits and the evaluation in the low 16 bits; the slot index is
//! the key's low bits. A false hit needs 48 key bits to agree.
//!
//! ```text
//!  bit 63                              16 15              0
//!      +----------------------------------+----------------+
//!      |       key bits 63..16            |  eval (i16)    |
//!      +----------------------------------+----------------+
//! ```

/// log2 of the number of slots.
const EVAL_CACHE_BITS: u32 = 15;

/// The slots (see the module documentation): 256 KB.
pub struct EvalSlots {
    slots: Vec<u64>,
}

impl Default for EvalSlots {
    fn default() -> Self {
        EvalSlots::new()
    }
}

impl EvalSlots {
    /// An empty cache.
    pub fn new() -> EvalSlots {
        // An empty slot holds key bits that match only a key of all ones there.
        EvalSlots {
            slots: vec![u64::MAX; 1 << EVAL_CACHE_BITS],
        }
    }

    /// The evaluation of the position whose key is `key`: the cached one, else `evaluate()`
    /// (clamped to an `i16`), stored.
    #[inline(always)]
    pub fn get_or_evaluate(&mut self, key: u64, evaluate: impl FnOnce() -> i32) -> i32 {
        let slot = &mut self.slots[(key & ((1 << EVAL_CACHE_BITS) - 1)) as usize];
        if (*slot ^ key) >> 16 == 0 {
            return i32::from(*slot as u16 as i16);
        }
        let v = evaluate().clamp(i32::from(i16::MIN), i32::from(i16::MAX));
        *slot = (key & !0xffff) | u64::from(v as i16 as u16);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_seen_before_is_answered_from_the_cache() {
        let mut slots = EvalSlots::new();
        assert_eq!(slots.get_or_evaluate(0x1234_5678_9abc_def0, || 42), 42);
        // Same key: the stored value, the evaluation not called.
        assert_eq!(
            slots.get_or_evaluate(0x1234_5678_9abc_def0, || unreachable!()),
            42
        );
        // Same slot, other high bits: evaluated again and stored over the old one.
        assert_eq!(slots.get_or_evaluate(0xffff_5678_9abc_def0, || -7), -7);
        assert_eq!(slots.get_or_evaluate(0x1234_5678_9abc_def0, || 5), 5);
        // Clamped to what a slot holds.
        assert_eq!(
            slots.get_or_evaluate(1 << 20, || 1_000_000),
            i32::from(i16::MAX)
        );
    }
}
