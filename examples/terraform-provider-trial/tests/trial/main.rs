//! The trial provider's tests, one binary: its committed documentation, its size, and the
//! provider under the real Terraform.

mod docs;
mod lines;
mod terraform;
