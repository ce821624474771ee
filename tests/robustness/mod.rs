//! Robustness: hostile input. Deep nesting, huge length headers and budgets
//! (`hostile`), every vector input truncated and mutated at every position
//! (`mutations`). The fuzz targets' seeds and regression inputs are replayed on stable
//! by a test binary of their own, `tests/fuzz_regressions.rs` (it includes the fuzz
//! workspace's code, which the published package leaves out).
//!
//! Each module is one way of attacking the library.

mod depth;
mod hostile;
mod mutations;
