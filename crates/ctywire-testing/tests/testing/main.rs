//! The crate's integration tests, one binary: the plan and state checks, and the
//! `TF_ACC` gate (whose cases run this binary again as a child process).

mod checks;
mod gate;
