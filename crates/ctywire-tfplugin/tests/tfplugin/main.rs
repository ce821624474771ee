//! The crate's integration tests, one binary (each links tonic, tokio and rustls once):
//! the capture writer, serving in-process, and the conversions between the protocol's
//! messages and ctywire's model.

mod capture;
mod conversions;
mod serve;
