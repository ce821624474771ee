//! A counting allocator for ctywire's benches: a wrapper around [`System`] that keeps the
//! bytes allocated and their peak while [`measure`] runs.
//!
//! Implementing [`GlobalAlloc`] takes `unsafe`, which the package denies everywhere (and
//! the library forbids): this module is the one place that allows it. Include it in a
//! bench binary with `mod alloc;` and install it with
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOC: alloc::Counting = alloc::Counting;
//! ```

#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering::Relaxed};

/// The system allocator, counting bytes in use and their peak while [`measure`] runs.
///
/// Outside [`measure`] it adds one relaxed load of a flag per call, so timings taken
/// then are the system allocator's own; counting (two atomic read-modify-writes per
/// call) would add several milliseconds to a decode that allocates 200,000 times.
pub struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static CURRENT: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

fn grew(n: usize) {
    if COUNTING.load(Relaxed) {
        let n = n as isize;
        let now = CURRENT.fetch_add(n, Relaxed) + n;
        PEAK.fetch_max(now, Relaxed);
    }
}

fn shrank(n: usize) {
    if COUNTING.load(Relaxed) {
        CURRENT.fetch_sub(n as isize, Relaxed);
    }
}

// SAFETY: every call is forwarded unchanged to `System`; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc`, passed on unchanged.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc_zeroed`, passed on unchanged.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc`, passed on unchanged.
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract for `realloc`, passed on unchanged.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
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

/// Runs `f` and returns its result with the most bytes it had allocated at once
/// (requested sizes, not the allocator's overhead), its result included and freeing
/// that result not. Bytes allocated before `f` runs are not counted.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, usize) {
    CURRENT.store(0, Relaxed);
    PEAK.store(0, Relaxed);
    COUNTING.store(true, Relaxed);
    let out = f();
    COUNTING.store(false, Relaxed);
    (out, PEAK.load(Relaxed).max(0) as usize)
}
