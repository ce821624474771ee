//! Decoding limits: what hostile input cannot make a decoder do.
//!
//! Every decoder in this crate checks these bounds and returns an
//! [`ErrorKind::LimitExceeded`](crate::ErrorKind::LimitExceeded) error when input passes
//! them. Allocation is also bounded by input size: no decoder reserves room for more
//! elements than the remaining input could hold, whatever a length header claims.

/// Maximum nesting depth of a value (collections, structural types and dynamic
/// wrappers each count one level). Terraform values rarely pass 20. At this depth the
/// decoders need well under 1 MiB of stack even in debug builds.
pub const MAX_DEPTH: usize = 128;

/// Maximum payload length, in bytes, of an unknown value's refinement extension, as in
/// go-cty.
pub const MAX_REFINEMENT_PAYLOAD: usize = 1024;

/// Maximum length of a number's text, in bytes, on input and in its plain decimal form
/// (so `1e100000` is refused rather than expanded to 100,001 digits). The longest
/// float64 in plain decimal is about 770 bytes.
pub const MAX_NUMBER_TEXT: usize = 4096;

/// A refined unknown list that is not null and has exactly n elements collapses to a
/// known list of n unknowns (as in go-cty) only while n is at most this; beyond it the
/// value stays an unknown list rather than allocating what a 9-byte refinement asks.
pub const MAX_COLLAPSED_LENGTH: u64 = 1 << 16;

/// A number's binary exponent (`p`, as in `"3p-2"`: go-cty's number parser accepts
/// them) is at most this in magnitude; beyond it the number is refused. `1p-4000` is 7
/// bytes of text but an exact decimal of 2,796 significant digits, and every later
/// comparison or hash of it costs as much as a decimal text 400 times longer: 1 MB of
/// such numbers took seconds to decode into a set. go-cty never writes `p` exponents.
pub const MAX_BINARY_EXPONENT: i64 = 128;
