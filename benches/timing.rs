//! Timing helpers shared by the bench binaries.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Median wall times of `f` and of `g`, `reps` runs each, taken in alternating blocks
/// of [`BLOCK`] runs so that both see the same conditions on a shared machine. Each
/// block starts with one untimed run: a decoder is then timed after freeing its own
/// results, as in a process that uses only it, not after the other decoder's (glibc
/// consolidates the chunks a large tree leaves free at the next large request, a cost
/// that would otherwise land on whichever decoder runs next). Results are dropped
/// untimed.
pub fn median_pair<T, U>(
    reps: usize,
    mut f: impl FnMut() -> T,
    mut g: impl FnMut() -> U,
) -> (Duration, Duration) {
    fn block<O>(n: usize, f: &mut impl FnMut() -> O, times: &mut Vec<Duration>) {
        drop(black_box(f()));
        for _ in 0..n {
            let start = Instant::now();
            let out = black_box(f());
            times.push(start.elapsed());
            drop(out);
        }
    }
    let mut a = Vec::with_capacity(reps);
    let mut b = Vec::with_capacity(reps);
    while a.len() < reps {
        let n = BLOCK.min(reps - a.len());
        block(n, &mut f, &mut a);
        block(n, &mut g, &mut b);
    }
    a.sort();
    b.sort();
    (a[reps / 2], b[reps / 2])
}

/// How many timed runs [`median_pair`] makes of one decoder before switching.
pub const BLOCK: usize = 5;
