//! The shared transposition table: lock-free, `AtomicU64` pairs. Its two `unsafe` lines are
//! hints that read and write nothing: the cache prefetch of [`Tt::prefetch`], and on Linux the
//! request for huge pages of [`advise_huge_pages`] (a 128 MiB table in 4 KiB pages misses the
//! processor's address cache on nearly every probe).
//!
//! [`Tt::new`] writes every word, so the whole table is mapped when it is made and no search
//! waits for a page fault (a fresh 2 MiB page is zeroed and, at worst, compacted by the kernel
//! first). A search on a manager's clock does not wait for that: the searcher makes a large
//! table on another thread ([`crate::search::Searcher::resize_in_background`]), which gives it
//! up within one [`MAKE_STEP_WORDS`] step when told to ([`Tt::new_unless`]).
//!
//! Each entry is two words: `key ^ data` and `data`. A reader accepts an entry only if the
//! XOR of the two words gives back its key, so a torn write by another thread reads as a
//! miss, never as a wrong move or score. Entries sit in clusters of two; a store replaces the
//! same key, else the shallower or older of the two.
//!
//! `data` layout (bits): move 0..15, on-the-PV flag 15, score 16..32 (i16), depth 32..40 (i8), bound 40..42,
//! generation 42..48, static eval 48..64 (i16).

use crate::types::Pos;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::Relaxed};

/// What a stored score bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No information.
    None = 0,
    /// The true score is at most the stored one (fail low).
    Upper = 1,
    /// The true score is at least the stored one (fail high).
    Lower = 2,
    /// Exact score.
    Exact = 3,
}

/// A decoded entry.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    /// Best or refuting move (`Pos::NONE` if none).
    pub mv: Pos,
    /// Score, already mate-adjusted to the node that stored it.
    pub score: i32,
    /// Remaining depth of the search that stored it.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
    /// Static evaluation.
    pub eval: i32,
    /// The node was on the principal variation when stored, or had been before.
    pub pv: bool,
}

/// The table.
pub struct Tt {
    words: Vec<AtomicU64>,
    /// Words skipped at the start of `words` so that every cluster sits in one cache line
    /// (the allocator only promises 8-byte alignment, and a cluster across two lines costs
    /// two memory reads that one prefetch does not cover).
    offset: usize,
    mask: usize,
    generation: AtomicU8,
}

const CLUSTER: usize = 2;
/// Words in a cache line. The clusters start on a line boundary, so a cluster (two 16-byte
/// entries, half a line) never spans two lines.
const LINE_WORDS: usize = 64 / 8;
// The move's index fits below the PV flag's bit.
const _: () = assert!(crate::types::CELLS <= 1 << 15);

/// Words [`Tt::new_unless`] writes between two looks at its give-up flag: one 2 MiB page.
pub const MAKE_STEP_WORDS: usize = (2 << 20) / 8;

/// Asks the kernel to back the 2 MiB-aligned part of `bytes` bytes at `ptr` with huge pages
/// (transparent huge pages in `madvise` mode, most distributions' default; ignored where they
/// are off). Nothing is read or written; a failed request changes nothing.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge_pages(ptr: *const u8, bytes: usize) {
    const HUGE_PAGE: usize = 2 << 20;
    let start = (ptr as usize).next_multiple_of(HUGE_PAGE);
    let end = (ptr as usize).saturating_add(bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > start {
        // SAFETY: `MADV_HUGEPAGE` only tells the kernel how to back pages; it neither reads,
        // writes nor unmaps memory, and the range lies inside the caller's own allocation.
        unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
    }
}

/// Elsewhere the table keeps the system's normal pages.
#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *const u8, _bytes: usize) {}

impl Tt {
    /// A table of at most `bytes` bytes (a power of two number of 16-byte entries, at least
    /// 1024), every page of it mapped (written) before it returns.
    pub fn new(bytes: usize) -> Tt {
        Tt::new_unless(bytes, &AtomicBool::new(false)).expect("a table not given up is made")
    }

    /// [`Tt::new`], given up (`None`, what was written freed) as soon as `give_up` is set:
    /// it is read before each [`MAKE_STEP_WORDS`] words are written. A searcher that no longer
    /// wants a table being made on another thread (a new size, a dropped engine) sets it, so
    /// that no abandoned maker goes on writing hundreds of MiB.
    pub fn new_unless(bytes: usize, give_up: &AtomicBool) -> Option<Tt> {
        let entries = Tt::bytes_for(bytes) / 16;
        let len = entries * 2 + LINE_WORDS - 1;
        let mut words: Vec<AtomicU64> = Vec::with_capacity(len);
        // Before the first write: each page the zeroing below touches gets its size then.
        advise_huge_pages(
            words.as_ptr().cast(),
            len * std::mem::size_of::<AtomicU64>(),
        );
        while words.len() < len {
            if give_up.load(Relaxed) {
                return None;
            }
            let step = MAKE_STEP_WORDS.min(len - words.len());
            words.extend(std::iter::repeat_with(|| AtomicU64::new(0)).take(step));
        }
        let misalign = words.as_ptr() as usize / 8 % LINE_WORDS;
        Some(Tt {
            offset: (LINE_WORDS - misalign) % LINE_WORDS,
            words,
            mask: entries / CLUSTER - 1,
            generation: AtomicU8::new(0),
        })
    }

    /// The size a table asked for `bytes` really has.
    pub fn bytes_for(bytes: usize) -> usize {
        let entries = (bytes / 16).max(1024);
        (1usize << (usize::BITS - 1 - entries.leading_zeros())) * 16
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        (self.words.len() + 1 - LINE_WORDS) * 8
    }

    /// Forgets everything (new game, bench).
    pub fn clear(&mut self) {
        for w in &mut self.words {
            *w.get_mut() = 0;
        }
        *self.generation.get_mut() = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Relaxed);
        self.generation.store((g + 1) & 63, Relaxed);
    }

    #[inline]
    fn cluster(&self, key: u64) -> usize {
        self.offset + ((key >> 20) as usize & self.mask) * CLUSTER * 2
    }

    /// Asks the processor to bring the cluster of `key` into the cache, so that a probe soon
    /// after does not wait for memory (a hint: nothing is read or written).
    #[inline]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let ptr = self
                .words
                .as_ptr()
                .wrapping_add(self.cluster(key))
                .cast::<i8>();
            // SAFETY: a prefetch never faults and never changes memory, whatever the address;
            // this one points into `words` in any case (`cluster` stays below its length).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let base = self.cluster(key);
        for slot in 0..CLUSTER {
            let i = base + slot * 2;
            let data = self.words[i + 1].load(Relaxed);
            if data != 0 && self.words[i].load(Relaxed) ^ data == key {
                return Some(decode(data));
            }
        }
        None
    }

    /// Stores a result for `key`; `pv`: the node is or was on the principal variation.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: Pos,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let gen = u64::from(self.generation.load(Relaxed));
        let base = self.cluster(key);
        let mut victim = base;
        let mut victim_worth = i32::MAX;
        for slot in 0..CLUSTER {
            let i = base + slot * 2;
            let data = self.words[i + 1].load(Relaxed);
            if data == 0 || self.words[i].load(Relaxed) ^ data == key {
                victim = i;
                // Keep a result of the same position more than 2 plies deeper unless ours is
                // exact (the horizon stores at depth 0 would otherwise wipe inner results).
                if data != 0 {
                    let old = decode(data);
                    if old.depth > depth + 2 && bound != Bound::Exact {
                        return;
                    }
                }
                break;
            }
            let old = decode(data);
            let age = ((gen + 64 - ((data >> 42) & 63)) & 63) as i32;
            let worth = old.depth - 4 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let mv = if mv.is_none() {
            self.probe(key).map_or(Pos::NONE, |e| e.mv)
        } else {
            mv
        };
        let data = (mv.index() as u64)
            | (u64::from(pv) << 15)
            | (u64::from(score.clamp(-32767, 32767) as i16 as u16) << 16)
            | (u64::from(depth.clamp(-100, 127) as i8 as u8) << 32)
            | ((bound as u64) << 40)
            | (gen << 42)
            | (u64::from(eval.clamp(-32767, 32767) as i16 as u16) << 48);
        self.words[victim].store(key ^ data, Relaxed);
        self.words[victim + 1].store(data, Relaxed);
    }
}

fn decode(data: u64) -> TtEntry {
    TtEntry {
        mv: Pos::from_index((data & 0x7fff) as usize),
        score: i32::from((data >> 16) as u16 as i16),
        depth: i32::from((data >> 32) as u8 as i8),
        bound: match (data >> 40) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        },
        eval: i32::from((data >> 48) as u16 as i16),
        pv: (data >> 15) & 1 == 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = Tt::new(1 << 16);
        let key = 0x1234_5678_9abc_def0;
        assert!(tt.probe(key).is_none());
        tt.store(key, Pos::new(3, 4), -1234, 56, 7, Bound::Lower, true);
        let e = tt.probe(key).expect("stored");
        assert_eq!(e.mv, Pos::new(3, 4));
        assert_eq!(
            (e.score, e.eval, e.depth, e.bound, e.pv),
            (-1234, 56, 7, Bound::Lower, true)
        );
        tt.store(key, Pos::NONE, 9, 56, 8, Bound::Upper, false);
        let e = tt.probe(key).expect("stored");
        assert_eq!((e.mv, e.score, e.pv), (Pos::new(3, 4), 9, false));
        assert!(tt.probe(key ^ 1).is_none());
    }

    #[test]
    fn a_table_given_up_is_not_made() {
        assert!(Tt::new_unless(8 << 20, &AtomicBool::new(true)).is_none());
        // Several steps, the last one short.
        let bytes = 3 * MAKE_STEP_WORDS * 8;
        let tt = Tt::new_unless(bytes, &AtomicBool::new(false)).expect("not given up");
        assert_eq!(tt.bytes(), Tt::bytes_for(bytes));
        assert!(tt.words.iter().all(|w| w.load(Relaxed) == 0));
    }

    #[test]
    fn a_new_table_is_all_zero_and_keeps_what_is_stored() {
        for bytes in [8 << 20, 1 << 16] {
            let tt = Tt::new(bytes);
            assert!(tt.words.iter().all(|w| w.load(Relaxed) == 0));
            let keys: Vec<u64> = (1..=64u64)
                .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
                .collect();
            assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
            for (i, &k) in keys.iter().enumerate() {
                let (mv, score) = (Pos::new(i % 15, i / 15), i as i32);
                tt.store(k, mv, score, 0, 1, Bound::Exact, false);
            }
            for (i, &k) in keys.iter().enumerate() {
                // These keys fall at most two to a cluster, so none is replaced.
                let e = tt.probe(k).expect("stored");
                assert_eq!((e.mv, e.score), (Pos::new(i % 15, i / 15), i as i32));
            }
        }
    }

    #[test]
    fn clusters_sit_in_one_cache_line_and_the_size_is_as_asked() {
        for bytes in [1 << 16, 3 << 20, 1 << 22] {
            let tt = Tt::new(bytes);
            assert_eq!(tt.bytes(), Tt::bytes_for(bytes));
            for key in [0u64, 1 << 20, 0xdead_beef_1234_5678, u64::MAX] {
                let start = tt.words[tt.cluster(key)..].as_ptr() as usize;
                let end = start + CLUSTER * 16 - 1;
                assert_eq!(start / 64, end / 64, "cluster of {key:#x} at {start:#x}");
                assert!(tt.cluster(key) + CLUSTER * 2 <= tt.words.len());
            }
        }
    }
}
