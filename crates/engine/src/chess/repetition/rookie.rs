//! The dedicated repetition table of Marcel van Kervinck's Rookie 2.0 (his thesis "The
//! design and implementation of the Rookie 2.0 Chess Playing Program", 2002), a trick he
//! credits to Ronald de Man, quoted in the chessprogramming wiki's page "Repetitions"
//! (<https://www.chessprogramming.org/Repetitions>, section "Dedicated Hash Table"):
//!
//! > This table has 2^14 one-byte entries that are initially zero (totaling 16KB). When
//! > entering a new position, the low 14 bits of the hash-key are used to index the table
//! > and bump up its value by one. The value is restored after unmaking the move. When
//! > entering a node and its value is found to be non-zero already, we know there could be a
//! > cycle, which we verify by tracing back the actual variation.
//!
//! The table is a counting Bloom filter with one hash function: a zero counter proves that
//! no position of the game or the line has the same low 14 bits, so the position is new and
//! no back-trace is needed. A non-zero counter is a *hit*; the back-trace (Zarkov's scan over
//! the list of keys, [`crate::search::keys::KeyHistory::back_trace`]) then verifies it. A
//! hit the back-trace rejects is a *false hit*: another position sharing the 14 bits, or an
//! earlier occurrence beyond the last irreversible move (the counters know nothing of
//! irreversible moves). [`Counters`] counts both.
//!
//! The counter saturates at 255 instead of wrapping to 0 (which would hide a position), and
//! the old value is kept on a stack and written back on exit, so the table returns exactly to
//! its former state.

/// Entries of the table.
pub const SIZE: usize = 1 << 14;

/// The 2^14 one-byte counters and the stack of values to restore.
#[derive(Clone, Debug)]
pub struct Counters {
    table: Box<[u8; SIZE]>,
    /// `(index, value before the bump)` of every position entered.
    saved: Vec<(u16, u8)>,
}

impl Default for Counters {
    fn default() -> Counters {
        Counters::new()
    }
}

/// The table index of a key: its low 14 bits.
#[inline(always)]
pub fn index(key: u64) -> usize {
    (key as usize) & (SIZE - 1)
}

impl Counters {
    /// All counters zero.
    pub fn new() -> Counters {
        Counters {
            table: Box::new([0; SIZE]),
            saved: Vec::with_capacity(1024),
        }
    }

    /// Zeroes the table (only the counters in use are touched).
    pub fn clear(&mut self) {
        while !self.saved.is_empty() {
            self.pop();
        }
    }

    /// Enters the position `key`: bumps its counter.
    #[inline(always)]
    pub fn push(&mut self, key: u64) {
        let i = index(key);
        let old = self.table[i];
        self.table[i] = old.saturating_add(1);
        self.saved.push((i as u16, old));
    }

    /// Leaves the last position entered: restores its counter.
    #[inline(always)]
    pub fn pop(&mut self) {
        if let Some((i, old)) = self.saved.pop() {
            self.table[i as usize] = old;
        }
    }

    /// Whether the counter of the last position entered was non-zero before its bump.
    #[inline(always)]
    pub fn hit(&self) -> bool {
        self.saved.last().is_some_and(|&(_, old)| old != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_bump_and_restore() {
        let mut c = Counters::new();
        c.push(5);
        assert!(!c.hit());
        c.push(5 + SIZE as u64);
        assert!(c.hit(), "same low 14 bits: a hit");
        c.push(6);
        assert!(!c.hit());
        c.pop();
        c.pop();
        assert!(!c.hit());
        c.pop();
        assert!(c.table.iter().all(|&v| v == 0));
        for _ in 0..300 {
            c.push(7);
        }
        assert_eq!(c.table[7], 255, "saturates");
        c.clear();
        assert_eq!(c.table[7], 0);
    }
}
