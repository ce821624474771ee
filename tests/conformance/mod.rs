//! Conformance: ctywire against reference data. go-cty's and terraform-plugin-go's test
//! tables and this project's vectors (`vectors/`), payloads written by go-cty and HCL,
//! Terraform's own rule tables, `show -json` documents, and the real-world corpus when
//! it is present.
//!
//! Each module is one source of reference data.

mod config_errors;
mod config_examples;
mod convert;
mod equality;
mod flatmap;
mod implied;
mod objchange;
mod realworld;
mod schema;
mod serde_payloads;
mod tfjson;
mod tfstate;
