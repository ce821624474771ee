//! A counting allocator for ctywire's benches: a wrapper around [`System`] that keeps the
//! bytes currently allocated and the peak since the last [`reset_peak`].
//!
//! It lives in its own crate because implementing [`GlobalAlloc`] takes `unsafe`, which
//! the `ctywire` package (benches included) forbids. Install it in a bench binary with
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOC: ctywire_bench_alloc::Counting = ctywire_bench_alloc::Counting;
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system allocator, counting bytes in use and their peak.
pub struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    let now = CURRENT.fetch_add(n, Relaxed) + n;
    PEAK.fetch_max(now, Relaxed);
}

fn shrank(n: usize) {
    CURRENT.fetch_sub(n, Relaxed);
}

// SAFETY: every call is forwarded unchanged to `System`; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            if new_size > layout.size() {
                grew(new_size - layout.size());
            } else {
                shrank(layout.size() - new_size);
            }
        }
        p
    }
}

/// Bytes currently allocated (requested sizes, not counting the allocator's overhead).
pub fn current() -> usize {
    CURRENT.load(Relaxed)
}

/// The most bytes allocated at once since the last [`reset_peak`].
pub fn peak() -> usize {
    PEAK.load(Relaxed)
}

/// Starts a new peak measurement from what is allocated now.
pub fn reset_peak() {
    PEAK.store(CURRENT.load(Relaxed), Relaxed);
}

/// Runs `f` and returns its result with the peak heap it needed above what was
/// allocated before it started (the result's own heap included, freeing it not).
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = current();
    reset_peak();
    let out = f();
    (out, peak().saturating_sub(before))
}
