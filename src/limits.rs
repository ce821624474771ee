//! Decoding limits: what hostile input cannot make a decoder do.
//!
//! A provider decodes whatever arrives on its socket, and a debugging tool reads whatever
//! a user pastes. Every decoder in this crate (MessagePack and JSON values, implied
//! types, type JSON, type expressions) returns an error rather than panicking on any
//! input, and keeps within these bounds; input that passes one of the constants below is
//! a [`LimitExceeded`](crate::ErrorKind::LimitExceeded) error.
//!
//! | What | Bound |
//! | --- | --- |
//! | Nesting of values, dynamic wrappers, type JSON, type expressions | [`MAX_DEPTH`] levels |
//! | Nesting of one `.tf.json` string's templates and expressions | [`MAX_EXPRESSION_DEPTH`] levels |
//! | Nesting of a configuration's evaluation, through local values | [`MAX_EVALUATION_DEPTH`] levels |
//! | Template `for` directives of one configuration | [`MAX_TEMPLATE_WORK`] iterations and bytes |
//! | Refinement payload (extension 12) | [`MAX_REFINEMENT_PAYLOAD`] bytes, checked before it is read |
//! | Number text | [`MAX_NUMBER_TEXT`] bytes, as written and in plain decimal form (`1e100000` is refused, not expanded) |
//! | Binary exponent in number text (`1p-4000`) | [`MAX_BINARY_EXPONENT`] in magnitude |
//! | Elements of a collapsed refined unknown list | [`MAX_COLLAPSED_LENGTH`] per list (beyond, it stays unknown) |
//! | Values the input leaves out (JSON attributes left out, collapsed list elements) | [`MAX_IMPLICIT_VALUES`] plus one per input byte, per decode |
//!
//! Allocation is bounded by input size: no decoder reserves room for more elements than
//! the remaining input could hold, whatever a length header claims, and every value a
//! decoder builds is paid for by input bytes or counted against
//! [`MAX_IMPLICIT_VALUES`].
//!
//! Every nesting error has one wording, naming its limit: "value is nested deeper than
//! the limit of 128 levels (ctywire::limits::MAX_DEPTH)".
//!
//! ## Every recursive reader and walker, and its bound
//!
//! | Recursion over | Where | Bound |
//! | --- | --- | --- |
//! | JSON text (validating, skipping) | `json/read.rs` | none: an explicit stack, [`MAX_DEPTH`] |
//! | JSON values, dynamic wrappers | `json/decode.rs` | [`MAX_DEPTH`] |
//! | MessagePack values, skipped items | `msgpack/decode.rs`, `msgpack/read.rs` | [`MAX_DEPTH`] |
//! | Type JSON | `types/json.rs` | [`MAX_DEPTH`] |
//! | Type expressions | `types/expr.rs` | none: an explicit stack, [`MAX_DEPTH`] |
//! | Provider schemas (`providers schema -json`) | `schema/json.rs` | [`MAX_DEPTH`] blocks and nested types |
//! | The serde bridge's readers | `serde/de/` | [`MAX_DEPTH`] |
//! | `show -json` values, unknown and sensitivity trees, module trees | `tfjson/` | [`MAX_DEPTH`] |
//! | Captures | `capture.rs` | flat file lists; payloads through the decoders above |
//! | Strings holding JSON in the plan renderer | `render/diff/model.rs` | [`MAX_DEPTH`] containers; a string nested deeper is shown as the plain string it is |
//! | `.tf.json` documents | `config/document.rs` | [`MAX_DEPTH`] |
//! | Templates and expressions: quoted templates, interpolations, `%{if}` / `%{for}`, parentheses, tuples, objects, calls, conditionals, unary operators, traversal steps (`.a`, `[0]`, splats) | `config/syntax.rs` | [`MAX_EXPRESSION_DEPTH`]; a chain of binary operators is read in a loop into one node (one level at any length) |
//! | Evaluating a configuration: JSON values, expressions, templates, directives, local values referring to local values | `config/eval.rs` | [`MAX_EVALUATION_DEPTH`]; a local value's value at most [`MAX_DEPTH`]; `for` directives [`MAX_TEMPLATE_WORK`] |
//! | Variable types (`type = "list(...)"`) | `config/types.rs` | the expression parser's [`MAX_EXPRESSION_DEPTH`] |
//! | Paths (`.a[0]`, `a.0`) | `path.rs` | flat: a list of steps, parsed in a loop |
//! | Walkers over values and types: encoders, equality, `diff`, `walk`, conversion, conformance, plan rules, the renderers, set hashing | `msgpack/encode.rs`, `json/encode.rs`, `value/`, `diff.rs`, `convert/`, `schema/plan/`, `render/` | the value's own depth: at most [`MAX_DEPTH`] for every decoded value, [`MAX_EVALUATION_DEPTH`] plus [`MAX_DEPTH`] for a configuration's; a value a program builds in code is that program's |
//!
//! Time is bounded too: decoding takes time linear in the input's size, times the
//! logarithm where map keys, set elements or attributes are sorted, and times at most the
//! nesting depth where a value is looked at again: a collection whose element type holds
//! `dynamic` checks that its elements share one concrete type (so nested collections of
//! `dynamic` look at the values below them once per level), and a JSON dynamic wrapper
//! whose `"value"` comes before its `"type"` is scanned once before it is decoded. No
//! input makes the work quadratic: whether a type holds `dynamic` is known without
//! walking it, sets deduplicate by hashing, repeated attribute names in type expressions
//! are dropped by sorting, and a number's text costs at most [`MAX_NUMBER_TEXT`] digits of
//! arithmetic. The plan renderer matches set elements by hashing, checks list reorders by
//! hashing, and pairs list elements along Terraform's longest common subsequence only
//! while its table stays small (two lists of about 2,000 elements); longer lists keep
//! their common ends and show the rest as removed and added.
//!
//! The apply rules ([`Block::check_apply`](crate::schema::Block::check_apply),
//! [`check_value_compatible`](crate::schema::check_value_compatible)) match a set's equal elements by hashing, one check
//! per matched pair; only an element left without an equal partner (one that changed, or
//! holds unknowns) is compared with the other side's elements, as Terraform compares every
//! pair, so a set applied as planned costs time linear in its size, and the pairwise work
//! grows with the number of elements left over times the set's size.

/// Maximum nesting depth of a value (collections, structural types and dynamic
/// wrappers each count one level). Terraform values rarely pass 20. At this depth the
/// decoders need well under 1 MiB of stack even in debug builds.
///
/// ```
/// use ctywire::{limits::MAX_DEPTH, msgpack, ErrorKind, Type};
///
/// // MAX_DEPTH lists, one inside the other, around a string: the deepest accepted.
/// let mut ty = Type::String;
/// for _ in 0..MAX_DEPTH {
///     ty = Type::list(ty);
/// }
/// let deep = [vec![0x91; MAX_DEPTH], vec![0xa1, b'x']].concat();
/// assert!(msgpack::decode(&deep, &ty).is_ok());
///
/// let deeper = [&[0x91][..], &deep].concat();
/// let err = msgpack::decode(&deeper, &Type::list(ty)).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::LimitExceeded);
/// ```
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
/// The elements count against [`MAX_IMPLICIT_VALUES`].
pub const MAX_COLLAPSED_LENGTH: u64 = 1 << 16;

/// Values a decoder makes up that its input does not spell out: the null of each
/// attribute a JSON object leaves out (go-cty's leniency), and the unknown elements of a
/// collapsed refined list ([`MAX_COLLAPSED_LENGTH`]). One decode makes at most this many
/// plus one per byte of input; past that it fails with
/// [`LimitExceeded`](crate::ErrorKind::LimitExceeded). Without this bound 3 bytes of
/// JSON (`{},`) could make a whole object's worth of nulls, and 18 bytes of MessagePack
/// 65,536 unknowns, so a 1 MB payload could ask for gigabytes.
pub const MAX_IMPLICIT_VALUES: usize = 1 << 20;

/// A number's binary exponent (`p`, as in `"3p-2"`: go-cty's number parser accepts
/// them) is at most this in magnitude; beyond it the number is refused. `1p-4000` is 7
/// bytes of text but an exact decimal of 2,796 significant digits, and every later
/// comparison or hash of it costs as much as a decimal text 400 times longer: 1 MB of
/// such numbers took seconds to decode into a set. go-cty never writes `p` exponents.
pub const MAX_BINARY_EXPONENT: i64 = 128;

/// Maximum nesting of one `.tf.json` string's template and expression syntax: quoted
/// templates, interpolations and `%{if}` / `%{for}` directives, parentheses, tuples,
/// objects, function calls, conditionals, unary operators and the steps of one traversal
/// (`var.v.a[0]` is three) each count one level. Lower than [`MAX_DEPTH`] because each
/// level costs the parser and the evaluator several frames of stack. A chain of binary
/// operators (`1 + 2 * 3 - ...`) is read without recursion and counts one level however
/// long it is.
///
/// ```
/// use ctywire::limits::MAX_EXPRESSION_DEPTH;
/// assert_eq!(MAX_EXPRESSION_DEPTH, 64);
/// ```
pub const MAX_EXPRESSION_DEPTH: usize = 64;

/// Maximum nesting of the evaluation of a `.tf.json` configuration: JSON arrays and
/// objects, expressions, templates and `%{if}` / `%{for}` directives, counted through the
/// local values an expression refers to (whose own JSON and expressions count too).
/// Room for a document at [`MAX_DEPTH`] holding strings at [`MAX_EXPRESSION_DEPTH`].
/// The value of each local value nests at most [`MAX_DEPTH`] levels.
pub const MAX_EVALUATION_DEPTH: usize = MAX_DEPTH + 2 * MAX_EXPRESSION_DEPTH;

/// Work a configuration's template `for` directives may do: each iteration counts one,
/// and each byte it writes one more (nested directives count their text at each level).
/// `%{for}` over two elements nested 40 deep would otherwise write a terabyte.
pub const MAX_TEMPLATE_WORK: usize = 1 << 20;

/// The one wording of every nesting error: `what` names what is nested (`"value"`,
/// `"type"`, `"JSON"`, ...), `limit` is the bound and `name` the constant that holds it.
#[cold]
pub(crate) fn nesting_message(what: &str, limit: usize, name: &str) -> String {
    format!("{what} is nested deeper than the limit of {limit} levels (ctywire::limits::{name})")
}

/// The [`LimitExceeded`](crate::ErrorKind::LimitExceeded) error for `what` nested deeper
/// than [`MAX_DEPTH`]; the caller adds the offset or path.
#[cold]
pub(crate) fn depth_exceeded(what: &str) -> crate::Error {
    crate::Error::new(
        crate::ErrorKind::LimitExceeded,
        nesting_message(what, MAX_DEPTH, "MAX_DEPTH"),
    )
}

/// The depth guard of every recursive reader and walker over input-controlled
/// structure: `Ok` while `depth` (the number of levels entered, the outermost being 1 or
/// 0 as the caller counts) is at most [`MAX_DEPTH`], else [`depth_exceeded`].
#[inline]
pub(crate) fn check_depth(depth: usize, what: &str) -> crate::Result<()> {
    if depth > MAX_DEPTH {
        Err(depth_exceeded(what))
    } else {
        Ok(())
    }
}

/// The number of implicit values one decode of `input_len` bytes may make: see
/// [`MAX_IMPLICIT_VALUES`].
pub(crate) fn implicit_value_budget(input_len: usize) -> usize {
    MAX_IMPLICIT_VALUES.saturating_add(input_len)
}

/// The error for a decode that would make more than its [`implicit_value_budget`].
#[cold]
pub(crate) fn implicit_values_error() -> crate::Error {
    crate::Error::new(
        crate::ErrorKind::LimitExceeded,
        format!(
            "the input leaves out more values than the limit of {MAX_IMPLICIT_VALUES} plus \
             one per input byte (missing object attributes, collapsed unknown list elements)"
        ),
    )
}
