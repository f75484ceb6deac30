//! Repetitions found with the transposition table, as Ken Thompson did in Belle (told to
//! Bruce Moreland, "Repetition Detection", quoted in the chessprogramming wiki's page
//! "Repetitions", <https://www.chessprogramming.org/Repetitions>, section "Transposition
//! Table"):
//!
//! > The idea is to set an "open" flag in the position's transposition table element when the
//! > hash table is probed. This flag stays set until the position is no longer being searched,
//! > meaning when the search function returns a value for that position. [...] if the hash
//! > table probe encounters an open node, it must be because the current position has occurred
//! > somewhere before.
//!
//! The flag is a bit of the Rival table's entry ([`crate::tt`]). Entering a position
//! ([`Marks::push`]) calls [`Tt::open`]:
//! - the slot holds the position and it is open: a repetition;
//! - otherwise the flag is set. The entry must exist while the position is searched, so a
//!   slot held by another position that is not open is overwritten ("an always replace
//!   scheme must be used"): Belle's table loses more entries than Rival's own replacement
//!   rule would;
//! - the slot holds *another open* position. The source: "If two open nodes want to share the
//!   same hash element, it's not immediately obvious what to do, other than not detect
//!   repetitions on the second one." That is what happens here: the open entry is kept (an open
//!   entry is never overwritten, [`Tt::store`] refuses too), the second position is not
//!   marked, and a repetition of it goes unseen. [`Marks`] counts these *shared-slot losses*.
//!
//! Leaving the position ([`Marks::pop`]) clears the flag if this position set it. The
//! positions of the game stay open for the whole search (they are pushed before it starts).
//! The flag carries no count and no ply, so Belle cannot apply Zarkov's rule (a single
//! earlier occurrence before the root is no draw in the first two plies): an open entry is
//! a draw wherever it is found. Nor does it know of null moves: a position after a null move
//! that matches one before it is a "repetition" to Belle (Zarkov's scan stops at a null move).
//! A 32-bit lock that matches by chance in the same slot is taken for the position (a false
//! repetition); with 21 index bits as well that is one chance in 2^53.

use crate::tt::{OpenSlot, Tt};

/// The open marks set by the game and the search line.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// Every position entered: its key and what [`Tt::open`] said.
    stack: Vec<(u64, OpenSlot)>,
    /// Positions that could not be marked: their slot was held by another open position.
    /// Only measurements read it (`threefold bench --repetition belle`), but it stays here
    /// rather than in a probe: it costs one add where the slot was compared anyway, only
    /// with Belle chosen, and it counts the game's positions too, which no probe sees.
    pub shared_slot_losses: u64,
}

impl Marks {
    /// No marks.
    pub fn new() -> Marks {
        Marks {
            stack: Vec::with_capacity(1024),
            shared_slot_losses: 0,
        }
    }

    /// Enters the position `key`.
    #[inline(always)]
    pub fn push(&mut self, tt: &mut Tt, key: u64) {
        let slot = tt.open(key);
        if slot == OpenSlot::Shared {
            self.shared_slot_losses += 1;
        }
        self.stack.push((key, slot));
    }

    /// Leaves the last position entered.
    #[inline(always)]
    pub fn pop(&mut self, tt: &mut Tt) {
        if let Some((key, OpenSlot::Opened)) = self.stack.pop() {
            tt.close(key);
        }
    }

    /// Closes every mark (before the next game record is pushed).
    pub fn clear(&mut self, tt: &mut Tt) {
        while !self.stack.is_empty() {
            self.pop(tt);
        }
    }

    /// What the table said when the last position was entered.
    #[inline(always)]
    pub fn last(&self) -> Option<OpenSlot> {
        self.stack.last().map(|&(_, s)| s)
    }

    /// Belle's answer: the last position's entry was open already.
    #[inline(always)]
    pub fn found(&self) -> bool {
        self.last() == Some(OpenSlot::AlreadyOpen)
    }

    /// The position that holds the slot of the last one, when it was a shared-slot loss:
    /// its index in the stack (0 = the first position entered).
    pub fn holder_of_last(&self, tt: &Tt) -> Option<usize> {
        let &(key, OpenSlot::Shared) = self.stack.last()? else {
            return None;
        };
        let slot = tt.index(key);
        self.stack
            .iter()
            .position(|&(k, s)| s == OpenSlot::Opened && tt.index(k) == slot)
    }
}
