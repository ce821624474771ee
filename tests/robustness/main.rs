//! Robustness: hostile input. Deep nesting, huge length headers and budgets
//! (`hostile`), every vector input truncated and mutated at every position
//! (`mutations`), and the fuzz targets' seeds and regression inputs replayed on stable
//! (`fuzz_regressions`).
//!
//! One test binary; each module is one way of attacking the library.

mod depth;
mod fuzz_regressions;
mod hostile;
mod mutations;
