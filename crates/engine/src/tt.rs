//! Transposition / refutation table in the style of Chris Moreton's Rival, as Rival's
//! documentation describes it ("Transposition/Refutation Tables",
//! <https://www.redhotpawn.com/rival/programming/transref.php>).
//!
//! Like Rival's table, each slot stores a *lock* to check that the slot really holds the
//! position being searched, the best move known there, the value, a flag saying whether the
//! value is exact or only an upper or lower bound, a staleness marker and the searched depth.
//! A position is written when its slot is empty, when it was searched at least as deep as the
//! stored one (`new depth >= stored depth`), or when the stored entry is stale. Entries go
//! stale after each search; a successful read during a search makes an entry fresh again.
//!
//! # Size and index mapping
//!
//! The user gives the size in bytes (UCI `Hash`, in MB, 1..=65536). The table holds exactly
//! `bytes / size_of::<Entry>()` entries: the count is *not* rounded to a power of two, so every
//! byte the user grants is used. On Linux the table asks for transparent huge pages
//! (`advise_huge_pages`): probes hit random slots, and with 4 KB pages most of them would
//! also miss the TLB.
//!
//! The memory is allocated zeroed (an empty slot is all zero bytes), then every page of it is
//! written once, by several threads for a large table (`touch_pages`), before the table is
//! handed out; [`Tt::clear`] zeroes it in place the same way. This is where the GUI waits
//! (`setoption name Hash`, `ucinewgame`, then `isready`), as Stockfish clears its table, and
//! never during a search: left to be backed on first touch, a table of gigabytes made the
//! search pay a page fault (with transparent huge pages, the zeroing of 2 MB) on almost
//! every probe, and `go wtime 500 btime 500 movestogo 1` with `Hash 4096` fell from about a
//! million nodes per second to about a thousand and took 1.2 s. A size that would not fit in
//! the memory the system reports available is refused ([`check_fits`]) instead of being
//! granted by overcommit and killed when its pages are touched.
//!
//! Rival maps a key to an index by taking the next power of two `P >= n`, drawing the index
//! in `0..P`, and folding the overshoot back with `i >= n ? i - n : i`. With uniform keys, the
//! slots `0..P-n` receive both their own keys and the folded ones: *twice* the probability mass
//! of the others. Those slots are overwritten twice as often, their entries live half as long,
//! and the table behaves as if it were smaller than its memory (for `n = 1000, P = 1024`, slots
//! 0..23 are hit twice as often; for `n = 0.6 P`, two thirds of the slots are doubled).
//!
//! This table uses [`IndexMapping::Multiply`] instead: `index = (key * n) >> 64`, the high half
//! of a 64×64→128-bit product (Lemire's "fast alternative to the modulo reduction"). It needs
//! no division, and for uniform 64-bit keys every slot receives either `floor(2^64 / n)` or
//! `ceil(2^64 / n)` keys: the bias is at most one key in 2^64 / n, nothing measurable. Rival's
//! fold is kept as [`IndexMapping::RivalFold`] so the difference can be measured
//! ([`mapping_bias`], shown by `threefold bench` and checked in the tests).
//!
//! The multiply takes the index from the *high* bits of the key (the product's high half is
//! `key / (2^64 / n)`), so the lock is the *low* 32 bits: the two are independent, and a lock
//! match means the keys agree on the 32 lock bits *and* on the about `log2 n` top bits that
//! chose the slot (21 bits for 16 MB: 53 bits in all). For `RivalFold` the index is drawn from
//! the top `log2 P` bits for the same reason.
//!
//! # Staleness
//!
//! Instead of walking the whole table after each search to set Rival's staleness flags, each
//! entry keeps a 5-bit *generation*; [`Tt::new_search`] increments the table's generation,
//! which makes every entry stale in O(1) ("stale" = generation differs from the current one).
//! A successful probe writes the current generation back (fresh again). After 32 searches a
//! generation number comes round again, so an entry untouched for exactly 32·k searches looks
//! fresh; that only makes it a little harder to replace, never wrong.
//!
//! # Mate scores
//!
//! Mate values are stored relative to the node (distance to mate from the stored position),
//! and converted back to root-relative on reading ([`value_to_tt`], [`value_from_tt`] in
//! [`super::score`]).
//!
//! # Belle's open flag
//!
//! One bit of each entry is the "open" flag of Ken Thompson's Belle, used only when the
//! search detects repetitions that way (UCI `Repetition belle`, see
//! [`crate::chess::repetition::belle`]): [`Tt::open`] sets it when a position is entered,
//! [`Tt::close`] clears it when the position's search returns. An open entry is never
//! overwritten by another position ([`Tt::store`] and [`Tt::open`] leave it alone), and a store
//! for the open position itself keeps the flag. With every other detector no flag is ever set
//! and the table behaves exactly as without it.

use shakmaty::{Move, Role, Square};

use super::score::{value_from_tt, value_to_tt};

/// How a 64-bit key is mapped to a slot index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexMapping {
    /// `(key * n) >> 64` (high half of the 128-bit product): unbiased, no division.
    Multiply,
    /// Rival's scheme: draw an index below the next power of two `P >= n` and subtract `n`
    /// if it is too large. Slots `0..P-n` get twice the hits.
    RivalFold,
}

/// Bound type of a stored value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is exact (a PV node).
    Exact,
    /// The value is a lower bound (fail high / beta cutoff).
    Lower,
    /// The value is an upper bound (fail low).
    Upper,
}

/// One slot: 12 bytes, no padding (`repr(C)`, 4-byte alignment).
///
/// ```text
///  byte  0         4         6         8        10    11    12
///        +---------+---------+---------+---------+-----+-----+
///        |  lock   |  move   |  value  |  eval   |depth|meta |
///        |  u32    |  u16    |  i16    |  i16    | u8  | u8  |
///        +---------+---------+---------+---------+-----+-----+
///  move (u16):  bits 0-5 from square, 6-11 to square, 12-14 promotion role (0 = none),
///               bit 15 = 1 when a move is present (so 0 means "no move").
///               Castling is encoded king square -> rook square (shakmaty's `Move::to`).
///  meta (u8):   bits 0-1 bound (0 = no value: an empty slot, or a Belle placeholder),
///               bit 2 Belle's open flag (the position is on the game or search line),
///               bits 3-7 generation (staleness: stale when != the table's generation).
///  lock:        low 32 bits of the Zobrist key (the index uses the high bits).
///  value:       search value, mate scores relative to this node.
///  eval:        static evaluation of the position (saves an evaluation on a hit).
///  depth:       searched depth (plies) below this position.
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Entry {
    lock: u32,
    mv: u16,
    value: i16,
    eval: i16,
    depth: u8,
    meta: u8,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 12);

/// `Entry::meta`: the bound bits.
const BOUND_MASK: u8 = 0b11;
/// `Entry::meta`: Belle's open flag.
const OPEN: u8 = 0b100;
/// `Entry::meta`: the generation starts at this bit.
const GENERATION_SHIFT: u32 = 3;
/// Generations count modulo this mask + 1.
const GENERATION_MASK: u8 = 0x1f;

/// What [`Tt::open`] found in the slot of a position being entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenSlot {
    /// The slot holds this position (by its lock) and is open already: the position is on
    /// the game or search line, a repetition.
    AlreadyOpen,
    /// The flag is now set: the slot held this position, or was empty, or held another
    /// position that is not open (overwritten: Belle's "always replace").
    Opened,
    /// Another open position holds the slot: this one cannot be marked, and a repetition of
    /// it will not be seen (a shared-slot loss).
    Shared,
}

/// What a probe returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Packed best move ([`pack_move`]); 0 = none.
    pub mv: u16,
    /// Value, already converted back to be relative to the root (see [`value_from_tt`]).
    pub value: i32,
    /// Static evaluation stored with the entry.
    pub eval: i32,
    /// Searched depth.
    pub depth: u32,
    /// Bound type.
    pub bound: Bound,
}

/// The table could not be had: refused because the memory is not there, or the
/// allocation failed.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum TtAllocError {
    /// The table would take more than [`MEMORY_SHARE_PERCENT`] % of the memory the system
    /// reports available ([`available_bytes`]): refused before anything is allocated, since
    /// the kernel would grant the address space and kill the process when the pages are
    /// touched.
    #[error(
        "a {mb} MB transposition table does not fit: {available_mb} MB of memory is available, \
         and the table may take at most {MEMORY_SHARE_PERCENT}% of it"
    )]
    NotEnoughMemory {
        /// Requested size in MB.
        mb: usize,
        /// Memory available when asked, in MB.
        available_mb: u64,
    },
    /// More slots than the largest table (`Hash` [`MAX_HASH_MB`]) holds.
    #[error("{slots} slots are more than the largest table holds ({max} slots, {MAX_HASH_MB} MB)")]
    TooManySlots {
        /// Requested number of slots.
        slots: u64,
        /// The most there may be ([`Tt::slots_for_mb`] of [`MAX_HASH_MB`]).
        max: u64,
    },
    /// The allocator refused (or the size overflows the address space).
    #[error("cannot allocate a {mb} MB transposition table ({entries} entries of 12 bytes)")]
    AllocationFailed {
        /// Requested size in MB.
        mb: usize,
        /// Requested number of entries.
        entries: usize,
    },
}

/// The largest share of the available memory (see [`available_bytes`]) a table may take.
pub const MEMORY_SHARE_PERCENT: u64 = 90;

/// The memory this process can still use without swapping or being killed, in bytes, if the
/// platform says: Linux's `MemAvailable` (/proc/meminfo), lowered to what the control group's
/// memory limit leaves (cgroup v2 `memory.max` − `memory.current`, or v1
/// `memory.limit_in_bytes` − `memory.usage_in_bytes`). `None` elsewhere: then only the
/// allocator decides.
pub fn available_bytes() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
        let mut avail = parse_meminfo_available(&meminfo)?;
        let read_u64 =
            |p: &str| -> Option<u64> { std::fs::read_to_string(p).ok()?.trim().parse().ok() };
        for (limit, usage) in [
            ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
            (
                "/sys/fs/cgroup/memory/memory.limit_in_bytes",
                "/sys/fs/cgroup/memory/memory.usage_in_bytes",
            ),
        ] {
            // "max" (v2) does not parse and means no limit; v1 writes a huge number.
            if let (Some(l), Some(u)) = (read_u64(limit), read_u64(usage)) {
                avail = avail.min(l.saturating_sub(u));
            }
        }
        Some(avail)
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// `MemAvailable` from the text of /proc/meminfo, in bytes.
pub fn parse_meminfo_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut words = line.split_whitespace().skip(1);
    let n: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => Some(n.saturating_mul(1024)),
        None => Some(n),
        Some(_) => None,
    }
}

/// Refuses a table of `mb` megabytes when `available` bytes are known and the table would
/// take more than [`MEMORY_SHARE_PERCENT`] % of them.
pub fn check_fits(mb: usize, available: Option<u64>) -> Result<(), TtAllocError> {
    let Some(available) = available else {
        return Ok(());
    };
    let bytes = (mb.max(1) as u64).saturating_mul(1 << 20);
    if bytes > available / 100 * MEMORY_SHARE_PERCENT {
        return Err(TtAllocError::NotEnoughMemory {
            mb,
            available_mb: available >> 20,
        });
    }
    Ok(())
}

/// Refuses a table of `slots` slots that is larger than the largest `Hash` ([`MAX_HASH_MB`])
/// or does not fit in the available memory ([`check_fits`], the rule of UCI `Hash`); else
/// the count as a `usize`.
pub fn check_slots(slots: u64) -> Result<usize, TtAllocError> {
    let max = Tt::slots_for_mb(MAX_HASH_MB) as u64;
    if slots > max {
        return Err(TtAllocError::TooManySlots { slots, max });
    }
    let bytes = slots.saturating_mul(std::mem::size_of::<Entry>() as u64);
    let mb = bytes.div_ceil(1 << 20) as usize;
    check_fits(mb, available_bytes())?;
    Ok(slots as usize)
}

/// `n` entries of zero bytes (= empty slots), from `alloc_zeroed`: for large tables the
/// allocator maps fresh pages, which the kernel backs with memory only when a probe first
/// touches them, so even a table of gigabytes is ready at once. `None` when the allocator
/// refuses.
fn zeroed_entries(n: usize) -> Option<Vec<Entry>> {
    let n = n.max(1);
    let layout = std::alloc::Layout::array::<Entry>(n).ok()?;
    // SAFETY: the layout has a non-zero size (n >= 1, entries are 12 bytes).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Entry>();
    if ptr.is_null() {
        return None;
    }
    advise_huge_pages(ptr.cast(), layout.size());
    // SAFETY: `ptr` was allocated by the global allocator with the layout of `[Entry; n]`,
    // which is the layout `Vec<Entry>` with capacity `n` frees; all-zero bytes are a valid
    // `Entry` (only integers), so all `n` elements are initialised.
    Some(unsafe { Vec::from_raw_parts(ptr, n, n) })
}

/// Bytes a thread zeroes or touches at least, so a small table is done by the calling
/// thread alone (starting threads costs more than zeroing a few megabytes).
const BYTES_PER_THREAD: usize = 64 << 20;

/// Most threads used to touch or zero a table.
const MAX_TOUCH_THREADS: usize = 8;

/// Splits `entries` into one run per thread (as many threads as the machine has, at most
/// [`MAX_TOUCH_THREADS`], none for less than [`BYTES_PER_THREAD`]) and calls `work` on each
/// run, in parallel. The calling thread takes runs too, so a thread that cannot be started
/// only makes it slower.
fn in_parallel(entries: &mut [Entry], work: fn(&mut [Entry])) {
    let bytes = std::mem::size_of_val(entries);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = cores
        .min(MAX_TOUCH_THREADS)
        .min(bytes / BYTES_PER_THREAD)
        .max(1);
    if threads == 1 {
        work(entries);
        return;
    }
    let runs = std::sync::Mutex::new(entries.chunks_mut(entries.len().div_ceil(threads)));
    let take = || runs.lock().unwrap_or_else(|e| e.into_inner()).next();
    let worker = || {
        while let Some(r) = take() {
            work(r);
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            let _ = std::thread::Builder::new()
                .name("tt-touch".into())
                .spawn_scoped(scope, worker);
        }
        worker();
    });
}

/// Writes one entry in every 4 KB of `entries`, so the kernel backs every page now and not
/// at a probe during a search (see the module doc). The entries written are empty ones
/// written over empty ones: the content does not change.
fn touch_pages(entries: &mut [Entry]) {
    // 341 entries are 4092 bytes: every 4096-byte page holds at least one written entry.
    const STEP: usize = 4096 / std::mem::size_of::<Entry>();
    for e in entries.iter_mut().step_by(STEP) {
        *e = Entry::default();
    }
    if let Some(last) = entries.last_mut() {
        *last = Entry::default();
    }
}

/// Zeroes `entries` (every slot empty).
fn zero(entries: &mut [Entry]) {
    entries.fill(Entry::default());
}

/// The transposition table.
pub struct Tt {
    entries: Vec<Entry>,
    /// The size asked for, in MB.
    mb: usize,
    mapping: IndexMapping,
    /// Rival: the next power of two >= len, as a shift (index = key >> shift).
    fold_shift: u32,
    generation: u8,
}

/// Asks the kernel to back the (not yet touched) memory at `ptr..ptr + bytes` with huge
/// pages where it can (Linux transparent huge pages, which distributions commonly enable in
/// `madvise` mode only). Probes land on random slots, so with 4 KB pages almost every probe
/// also misses the TLB: a 16 MB table spans 4096 small pages but only 8 huge ones. Only the
/// 2 MB-aligned part of the range is advised; the advice is a hint, and a refusal changes
/// nothing but speed.
fn advise_huge_pages(ptr: *mut u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = (ptr as usize).next_multiple_of(HUGE);
        let end = (ptr as usize + bytes) / HUGE * HUGE;
        if end > start {
            // SAFETY: the range lies inside an allocation we own, and MADV_HUGEPAGE changes
            // neither its contents nor its validity.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, bytes);
}

/// Smallest table size in MB (UCI `Hash`, `--hash` on the command line).
pub const MIN_HASH_MB: usize = 1;

/// Maximum table size in MB offered by the UCI `Hash` option (larger values are attempted
/// by [`Tt::new`] too, and are refused cleanly when memory is short).
pub const MAX_HASH_MB: usize = 65536;

impl Tt {
    /// A table of `mb` megabytes (1 MB = 2^20 bytes) with the unbiased mapping.
    pub fn new(mb: usize) -> Result<Tt, TtAllocError> {
        Tt::with_mapping(mb, IndexMapping::Multiply)
    }

    /// Number of slots of a table of `mb` megabytes (at least one megabyte).
    pub fn slots_for_mb(mb: usize) -> usize {
        mb.max(1).saturating_mul(1 << 20) / std::mem::size_of::<Entry>()
    }

    /// A table of `mb` megabytes using the given index mapping. Refused, before anything
    /// is allocated, when it would not fit in the available memory ([`check_fits`]); the
    /// memory is allocated zeroed (`zeroed_entries`) and every page of it touched before
    /// it is returned (`touch_pages`, in parallel for a large table).
    pub fn with_mapping(mb: usize, mapping: IndexMapping) -> Result<Tt, TtAllocError> {
        check_fits(mb, available_bytes())?;
        let n = Tt::slots_for_mb(mb);
        let mut entries =
            zeroed_entries(n).ok_or(TtAllocError::AllocationFailed { mb, entries: n })?;
        in_parallel(&mut entries, touch_pages);
        let mut t = Tt::from_entries(entries, mapping);
        t.mb = mb.max(1);
        Ok(t)
    }

    /// A table of exactly `slots` entries that are backed by memory only when first touched
    /// (not `touch_pages`): for tables a replay probes in a few places, Belle's flags in
    /// `threefold detectors`, where a million slots should cost what a few cost. Refused by
    /// [`check_slots`] like a `Hash` that does not fit.
    pub fn lazy_with_entries(slots: u64, mapping: IndexMapping) -> Result<Tt, TtAllocError> {
        let n = check_slots(slots)?;
        let entries = zeroed_entries(n).ok_or(TtAllocError::AllocationFailed {
            mb: (slots.saturating_mul(12) >> 20) as usize,
            entries: n,
        })?;
        Ok(Tt::from_entries(entries, mapping))
    }

    /// A table with exactly `n` entries (tests and measurements).
    pub fn with_entries(n: usize, mapping: IndexMapping) -> Tt {
        Tt::from_entries(vec![Entry::default(); n.max(1)], mapping)
    }

    fn from_entries(entries: Vec<Entry>, mapping: IndexMapping) -> Tt {
        let p = entries.len().next_power_of_two();
        let bits = p.trailing_zeros();
        Tt {
            mb: ((entries.len() * std::mem::size_of::<Entry>()) >> 20).max(1),
            entries,
            mapping,
            fold_shift: 64 - bits.max(1),
            generation: 0,
        }
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Always false (a table has at least one slot); for clippy's sake.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The index mapping in use.
    pub fn mapping(&self) -> IndexMapping {
        self.mapping
    }

    /// Slot index of a key.
    #[inline(always)]
    pub fn index(&self, key: u64) -> usize {
        map_index(self.mapping, key, self.entries.len(), self.fold_shift)
    }

    /// Hints the CPU to load the slot of `key` into the cache (the probe follows soon).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.entries.as_ptr().wrapping_add(self.index(key));
            // SAFETY: a prefetch is only a hint; it never faults, even for invalid addresses,
            // and the pointer is inside the table anyway.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    p.cast::<i8>(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The size asked for, in MB (1 MB = 2^20 bytes).
    pub fn mb(&self) -> usize {
        self.mb
    }

    /// Size of the table in bytes.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    /// Empties the table (new game): zeroed in place, in parallel for a large table, so
    /// every page stays backed for the next search (see the module doc).
    pub fn clear(&mut self) {
        in_parallel(&mut self.entries, zero);
        self.generation = 0;
    }

    /// Makes every entry stale (called at the start of each search). O(1).
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & GENERATION_MASK;
    }

    /// Looks `key` up. On a hit the entry is made fresh again (Rival: "during a search, if a
    /// successful read is done on a hash index, its staleness flag is turned off").
    #[inline]
    pub fn probe(&mut self, key: u64, ply: u32) -> Option<Probe> {
        let idx = self.index(key);
        let gen_bits = self.generation << GENERATION_SHIFT;
        // SAFETY-free: idx < len by construction of map_index.
        let e = &mut self.entries[idx];
        let bound = match e.meta & BOUND_MASK {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        if e.lock != key as u32 {
            return None;
        }
        e.meta = (e.meta & (BOUND_MASK | OPEN)) | gen_bits;
        Some(Probe {
            mv: e.mv,
            value: value_from_tt(e.value as i32, ply),
            eval: e.eval as i32,
            depth: e.depth as u32,
            bound,
        })
    }

    /// Looks `key` up without touching the entry (measurements: what a store left there).
    pub fn peek(&self, key: u64, ply: u32) -> Option<Probe> {
        let e = &self.entries[self.index(key)];
        let bound = match e.meta & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        (e.lock == key as u32).then(|| Probe {
            mv: e.mv,
            value: value_from_tt(e.value as i32, ply),
            eval: e.eval as i32,
            depth: e.depth as u32,
            bound,
        })
    }

    /// Stores a result, following Rival's replacement rule: the slot is written if it is empty,
    /// if `depth >= stored depth`, or if the stored entry is stale. When the same position is
    /// stored again without a move, the old move is kept.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        ply: u32,
        mv: u16,
        value: i32,
        eval: i32,
        depth: u32,
        bound: Bound,
    ) {
        let idx = self.index(key);
        let generation = self.generation;
        let e = &mut self.entries[idx];
        let lock = key as u32;
        let open = e.meta & OPEN;
        // Belle: another position's open entry is never overwritten.
        if open != 0 && e.lock != lock {
            return;
        }
        let empty = e.meta & BOUND_MASK == 0;
        let stale = (e.meta >> GENERATION_SHIFT) != generation;
        let depth8 = depth.min(255) as u8;
        if !(empty || stale || depth8 >= e.depth) {
            return;
        }
        let mv = if mv == 0 && !empty && e.lock == lock {
            e.mv
        } else {
            mv
        };
        let b = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        *e = Entry {
            lock,
            mv,
            value: value_to_tt(value, ply) as i16,
            eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth8,
            meta: b | open | (generation << GENERATION_SHIFT),
        };
    }

    /// Belle: marks the position `key` open when it is entered (see [`OpenSlot`]). A slot
    /// held by another position that is not open is taken over, its content lost: the
    /// entry must exist while the position is searched, so Belle's table replaces always.
    #[inline]
    pub fn open(&mut self, key: u64) -> OpenSlot {
        let idx = self.index(key);
        let generation = self.generation;
        let e = &mut self.entries[idx];
        let lock = key as u32;
        let mine = e.lock == lock && e.meta & (BOUND_MASK | OPEN) != 0;
        match (mine, e.meta & OPEN != 0) {
            (true, true) => OpenSlot::AlreadyOpen,
            (false, true) => OpenSlot::Shared,
            (true, false) => {
                e.meta |= OPEN;
                OpenSlot::Opened
            }
            (false, false) => {
                *e = Entry {
                    lock,
                    meta: OPEN | (generation << GENERATION_SHIFT),
                    ..Entry::default()
                };
                OpenSlot::Opened
            }
        }
    }

    /// Belle: clears the open flag of `key`, set by [`Tt::open`] when it answered
    /// [`OpenSlot::Opened`] (its search has returned). The entry keeps its value, if one was
    /// stored meanwhile; a placeholder that never got one becomes an empty slot again.
    #[inline]
    pub fn close(&mut self, key: u64) {
        let idx = self.index(key);
        let e = &mut self.entries[idx];
        if e.lock == key as u32 {
            e.meta &= !OPEN;
        }
    }

    /// Per-mille of the first 1000 slots that hold an entry written or read in this search.
    pub fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(1000);
        let used = self.entries[..n]
            .iter()
            .filter(|e| e.meta & BOUND_MASK != 0 && (e.meta >> GENERATION_SHIFT) == self.generation)
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[inline(always)]
fn map_index(mapping: IndexMapping, key: u64, n: usize, fold_shift: u32) -> usize {
    match mapping {
        IndexMapping::Multiply => ((key as u128 * n as u128) >> 64) as usize,
        IndexMapping::RivalFold => {
            let i = (key >> fold_shift) as usize;
            let i = if n == 1 { 0 } else { i };
            if i >= n { i - n } else { i }
        }
    }
}

/// Packs a move into 16 bits (see the layout on [`Entry`]).
pub fn pack_move(m: &Move) -> u16 {
    let from = m.from().map_or(0, |s| s as u16);
    let to = m.to() as u16;
    let promo = m.promotion().map_or(0, |r| r as u16);
    0x8000 | from | (to << 6) | (promo << 12)
}

/// Does `m` match the packed move `p`?
#[inline]
pub fn same_move(p: u16, m: &Move) -> bool {
    p != 0 && pack_move(m) == p
}

/// From-square of a packed move.
pub fn packed_from(p: u16) -> Square {
    Square::new((p & 63) as u32)
}

/// Promotion role of a packed move.
pub fn packed_promotion(p: u16) -> Option<Role> {
    match (p >> 12) & 7 {
        2 => Some(Role::Knight),
        3 => Some(Role::Bishop),
        4 => Some(Role::Rook),
        5 => Some(Role::Queen),
        _ => None,
    }
}

/// Bias of an index mapping, measured by hashing `samples` pseudo-random keys into `n` slots.
#[derive(Clone, Copy, Debug)]
pub struct BiasStats {
    /// Number of slots.
    pub slots: usize,
    /// Keys drawn.
    pub samples: u64,
    /// Fewest hits on one slot.
    pub min: u64,
    /// Most hits on one slot.
    pub max: u64,
    /// Pearson chi-square statistic against the uniform distribution (≈ slots-1 when unbiased).
    pub chi2: f64,
    /// Mean hits of the slots `0..P-n` (the ones Rival's fold doubles) divided by the mean of
    /// the other slots (1.0 when unbiased, 2.0 for Rival's fold).
    pub low_high_ratio: f64,
}

/// SplitMix64: a small, good, deterministic generator for measurements and tests.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Histogram of slot hits for `samples` random keys into `n` slots with `mapping`.
pub fn mapping_bias(mapping: IndexMapping, n: usize, samples: u64, seed: u64) -> BiasStats {
    let t = Tt::with_entries(n, mapping);
    let n = t.len();
    let mut hits = vec![0u64; n];
    let mut s = seed;
    for _ in 0..samples {
        hits[t.index(splitmix64(&mut s))] += 1;
    }
    let expected = samples as f64 / n as f64;
    let chi2 = hits
        .iter()
        .map(|&h| {
            let d = h as f64 - expected;
            d * d / expected
        })
        .sum();
    let folded = n.next_power_of_two() - n;
    let mean = |xs: &[u64]| {
        if xs.is_empty() {
            0.0
        } else {
            xs.iter().sum::<u64>() as f64 / xs.len() as f64
        }
    };
    let low_high_ratio = if folded == 0 {
        1.0
    } else {
        mean(&hits[..folded]) / mean(&hits[folded..])
    };
    BiasStats {
        slots: n,
        samples,
        min: *hits.iter().min().unwrap_or(&0),
        max: *hits.iter().max().unwrap_or(&0),
        chi2,
        low_high_ratio,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_count_is_bytes_over_entry_size() {
        let t = Tt::new(1).unwrap();
        assert_eq!(t.len(), (1 << 20) / 12);
        assert!(!t.len().is_power_of_two());
        let t = Tt::new(3).unwrap();
        assert_eq!(t.len(), 3 * (1 << 20) / 12);
    }

    #[test]
    fn indices_in_range() {
        for &m in &[IndexMapping::Multiply, IndexMapping::RivalFold] {
            for n in [1usize, 2, 3, 1000, 1023, 1024, 1025, 87381] {
                let t = Tt::with_entries(n, m);
                let mut s = 7;
                for _ in 0..2000 {
                    assert!(t.index(splitmix64(&mut s)) < n);
                }
                assert!(t.index(u64::MAX) < n);
                assert!(t.index(0) < n);
            }
        }
    }

    /// The measurement the module docs talk about: 1000 slots (P = 1024), 4 million keys.
    /// Multiply: chi-square near 999 (uniform); Rival's fold: slots 0..23 get ~2x the hits.
    #[test]
    fn multiply_is_unbiased_rival_fold_is_not() {
        let n = 1000;
        let samples = 4_000_000;
        let mul = mapping_bias(IndexMapping::Multiply, n, samples, 1);
        let fold = mapping_bias(IndexMapping::RivalFold, n, samples, 1);
        // chi2 with 999 dof: mean 999, sd ~45.
        assert!(mul.chi2 < 1300.0, "{mul:?}");
        assert!((mul.low_high_ratio - 1.0).abs() < 0.05, "{mul:?}");
        assert!((mul.max as f64) < 1.25 * (mul.min as f64), "{mul:?}");
        assert!(fold.chi2 > 10.0 * mul.chi2, "{fold:?}");
        assert!((fold.low_high_ratio - 2.0).abs() < 0.1, "{fold:?}");
        assert!(fold.max as f64 > 1.7 * fold.min as f64, "{fold:?}");
    }

    #[test]
    fn replacement_follows_rival() {
        let mut t = Tt::with_entries(1, IndexMapping::Multiply);
        let (a, b) = (0x1111_0000_0000_0001u64, 0x2222_0000_0000_0002u64);
        t.store(a, 0, 0, 10, 0, 5, Bound::Exact);
        // Shallower, fresh entry: not replaced.
        t.store(b, 0, 0, 20, 0, 4, Bound::Exact);
        assert_eq!(t.probe(a, 0).unwrap().value, 10);
        assert!(t.probe(b, 0).is_none());
        // Equal depth replaces.
        t.store(b, 0, 0, 20, 0, 5, Bound::Lower);
        assert_eq!(t.probe(b, 0).unwrap().bound, Bound::Lower);
        // Stale after a search: a shallower entry replaces it.
        t.new_search();
        t.store(a, 0, 0, 30, 0, 1, Bound::Upper);
        assert_eq!(t.probe(a, 0).unwrap().value, 30);
        // A read makes an entry fresh again: then the shallower one cannot replace it.
        t.new_search();
        assert!(t.probe(a, 0).is_some());
        t.store(b, 0, 0, 40, 0, 0, Bound::Exact);
        assert_eq!(t.probe(a, 0).unwrap().value, 30);
    }

    #[test]
    fn belle_open_entries_are_never_overwritten_by_another_position() {
        let mut t = Tt::with_entries(1, IndexMapping::Multiply);
        let (a, b) = (0x1111_0000_0000_0001u64, 0x2222_0000_0000_0002u64);
        t.store(b, 0, 0, 50, 0, 9, Bound::Exact);
        // Belle replaces always: b's deeper entry goes, a is open.
        assert_eq!(t.open(a), OpenSlot::Opened);
        assert!(t.probe(b, 0).is_none());
        assert!(t.probe(a, 0).is_none(), "a placeholder has no value");
        assert_eq!(t.open(a), OpenSlot::AlreadyOpen);
        // b cannot take the slot, neither by opening nor by storing.
        assert_eq!(t.open(b), OpenSlot::Shared);
        t.store(b, 0, 0, 60, 0, 20, Bound::Exact);
        assert!(t.probe(b, 0).is_none());
        // a's own result is stored and keeps the flag until a is closed.
        t.store(a, 0, 0, 10, 0, 3, Bound::Lower);
        assert_eq!(t.open(a), OpenSlot::AlreadyOpen);
        t.close(a);
        assert_eq!(t.probe(a, 0).unwrap().value, 10);
        assert_eq!(t.open(a), OpenSlot::Opened, "closed, then opened again");
        t.close(a);
        // Closed: b may replace it under Rival's rule again.
        t.store(b, 0, 0, 60, 0, 20, Bound::Exact);
        assert_eq!(t.probe(b, 0).unwrap().value, 60);
        // A placeholder that never got a value is an empty slot once closed.
        let mut t = Tt::with_entries(1, IndexMapping::Multiply);
        t.open(a);
        t.close(a);
        t.store(b, 0, 0, 1, 0, 0, Bound::Exact);
        assert_eq!(t.probe(b, 0).unwrap().value, 1);
    }

    #[test]
    fn mate_scores_are_node_relative() {
        let mut t = Tt::with_entries(16, IndexMapping::Multiply);
        let mate_in_3_from_root_at_ply_5 = 32000 - 8;
        t.store(42, 5, 0, mate_in_3_from_root_at_ply_5, 0, 3, Bound::Exact);
        // Read at ply 1: the mate is 3 plies from that node -> 32000 - 4.
        assert_eq!(t.probe(42, 1).unwrap().value, 32000 - 4);
    }

    #[test]
    fn huge_table_fails_cleanly() {
        // More than the address space allows: refused, not an abort.
        let r = Tt::with_mapping(usize::MAX >> 20, IndexMapping::Multiply);
        assert!(r.is_err());
        assert!(zeroed_entries(usize::MAX / 12).is_none());
    }

    #[test]
    fn sizes_beyond_the_available_memory_are_refused() {
        let gib = 1u64 << 30;
        assert_eq!(check_fits(4096, None), Ok(()));
        assert_eq!(check_fits(4096, Some(8 * gib)), Ok(()));
        // 90 % of 4 GiB is 3686 MiB.
        assert_eq!(check_fits(3686, Some(4 * gib)), Ok(()));
        assert_eq!(
            check_fits(3687, Some(4 * gib)),
            Err(TtAllocError::NotEnoughMemory {
                mb: 3687,
                available_mb: 4096
            })
        );
        let e = check_fits(usize::MAX, Some(gib)).unwrap_err();
        assert!(
            e.to_string().contains("1024 MB of memory is available"),
            "{e}"
        );
        let info = "MemTotal:       24683656 kB\nMemFree: 1 kB\nMemAvailable:   24187804 kB\n";
        assert_eq!(parse_meminfo_available(info), Some(24187804 * 1024));
        assert_eq!(parse_meminfo_available("MemFree: 1 kB\n"), None);
        #[cfg(target_os = "linux")]
        assert!(available_bytes().is_some());
    }

    #[test]
    fn slot_counts_follow_the_rule_of_hash() {
        let max = Tt::slots_for_mb(MAX_HASH_MB) as u64;
        assert_eq!(
            check_slots(max + 1),
            Err(TtAllocError::TooManySlots {
                slots: max + 1,
                max
            })
        );
        assert_eq!(check_slots(1), Ok(1));
        // What the memory check says of the same bytes as a Hash, it says of the slots.
        let slots = 1u64 << 32;
        let mb = (slots * 12).div_ceil(1 << 20) as usize;
        match check_fits(mb, available_bytes()) {
            Ok(()) => assert_eq!(check_slots(slots), Ok(slots as usize)),
            Err(e) => assert_eq!(check_slots(slots), Err(e)),
        }
        let t = Tt::lazy_with_entries(1000, IndexMapping::Multiply).unwrap();
        assert_eq!(t.len(), 1000);
        assert!(t.entries.iter().all(|e| *e == Entry::default()));
    }

    #[test]
    fn tables_start_empty_and_clear_to_empty() {
        // Large enough to be touched and cleared by several threads (64 MB each).
        let mut t = Tt::new(256).unwrap();
        assert!(
            t.entries
                .iter()
                .step_by(4099)
                .all(|e| *e == Entry::default())
        );
        let mut s = 11;
        let keys: Vec<u64> = (0..1000).map(|_| splitmix64(&mut s)).collect();
        for &k in &keys {
            t.store(k, 0, 0, 7, 0, 3, Bound::Exact);
        }
        assert!(keys.iter().filter(|&&k| t.probe(k, 0).is_some()).count() > 900);
        t.clear();
        assert!(keys.iter().all(|&k| t.probe(k, 0).is_none()));
        let mut small = Tt::with_entries(100, IndexMapping::Multiply);
        small.store(keys[0], 0, 0, 7, 0, 3, Bound::Exact);
        small.clear();
        assert!(small.probe(keys[0], 0).is_none());
    }

    #[test]
    fn hashfull_counts_fresh_entries() {
        let mut t = Tt::with_entries(2000, IndexMapping::Multiply);
        assert_eq!(t.hashfull(), 0);
        let mut s = 3;
        for _ in 0..20000 {
            t.store(splitmix64(&mut s), 0, 0, 0, 0, 1, Bound::Exact);
        }
        assert!(t.hashfull() > 900);
        t.new_search();
        assert_eq!(t.hashfull(), 0);
    }
}
