//! Set semantics, in one place: which elements are equal, and go-cty's iteration order.
//!
//! go-cty keeps set elements in buckets keyed by a hash of a "set hash string", and
//! iterates by a stable sort of the buckets' contents: known values first, then unknowns
//! in insertion order, then the one null. Known strings sort bytewise, bools false first,
//! numbers numerically, and every other element type by the bytes of its hash string.
//! Ties keep insertion order. This module reproduces that order and cty's equality.

use std::cmp::Ordering;
use std::collections::hash_map::RandomState;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hash, Hasher};

use super::{Number, Value};

/// How the known elements of one set compare, decided by their kind.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    String,
    Bool,
    Number,
    HashString,
}

/// Deduplicates `elements` as cty does (keeping the first of equal elements) and puts
/// them in go-cty's order. Already-canonical input is detected in one pass and returned
/// unchanged.
pub(crate) fn canonicalize(elements: Vec<Value>) -> Vec<Value> {
    canonicalize_by(elements, |v| v)
}

/// [`canonicalize`] for elements that are not `Value`s themselves but have one
/// (`value` gives it): a typed set's elements with their values.
pub(crate) fn canonicalize_by<E>(elements: Vec<E>, value: impl Fn(&E) -> &Value + Copy) -> Vec<E> {
    if elements.len() < 2 || is_canonical(&elements, value) {
        return elements;
    }
    let mut known = Vec::with_capacity(elements.len());
    let mut unknown = Vec::new();
    let mut null = None;
    for e in elements {
        match value(&e).untyped() {
            Value::Null => {
                null.get_or_insert(e);
            }
            Value::Unknown(_) => unknown.push(e),
            _ => known.push(e),
        }
    }
    let known = match known.first().map(|e| order_of(value(e).untyped())) {
        None => known,
        Some(Order::String) if same_kind(&known, value, Order::String) => {
            sort_dedup_by(known, |a, b| str_of(value(a)).cmp(str_of(value(b))))
        }
        Some(Order::Bool) if same_kind(&known, value, Order::Bool) => {
            sort_dedup_by(known, |a, b| bool_of(value(a)).cmp(&bool_of(value(b))))
        }
        Some(Order::Number) if same_kind(&known, value, Order::Number) => {
            sort_numbers(known, value)
        }
        _ => sort_by_hash_string(known, value),
    };
    let mut out = known;
    out.extend(unknown);
    out.extend(null);
    out
}

/// Whether `elements` are all known and strictly in go-cty's order, as every set that
/// go-cty wrote is: then they are also free of duplicates (equal elements are equal in
/// the order's key) and [`canonicalize`] has nothing to do. Checked in one pass with no
/// allocation per element; any doubt gives `false` and the full treatment.
fn is_canonical<E>(elements: &[E], value: impl Fn(&E) -> &Value + Copy) -> bool {
    let known = |e: &E| !matches!(value(e).untyped(), Value::Null | Value::Unknown(_));
    if !elements.iter().all(known) {
        return false;
    }
    let pairs = || {
        elements
            .windows(2)
            .map(|w| (value(&w[0]).untyped(), value(&w[1]).untyped()))
    };
    match value(&elements[0]).untyped() {
        Value::String(_) => pairs().all(|pair| match pair {
            (Value::String(a), Value::String(b)) => strings_in_order(a.as_bytes(), b.as_bytes()),
            _ => false,
        }),
        Value::Bool(_) => {
            pairs().all(|pair| matches!(pair, (Value::Bool(false), Value::Bool(true))))
        }
        // Integers only: equal non-integers need not be neighbours in numeric order.
        Value::Number(_) => pairs().all(|pair| match pair {
            (Value::Number(a), Value::Number(b)) => match (a.to_i64(), b.to_i64()) {
                (Some(a), Some(b)) => a < b,
                _ => false,
            },
            _ => false,
        }),
        _ => {
            let mut previous = Vec::new();
            let mut current = Vec::new();
            hash_string(value(&elements[0]), &mut previous);
            for e in &elements[1..] {
                current.clear();
                hash_string(value(e), &mut current);
                if previous >= current {
                    return false;
                }
                std::mem::swap(&mut previous, &mut current);
            }
            true
        }
    }
}

/// Whether the known NFC strings `a` then `b` are in go-cty's set order, with no
/// duplicate: strictly ascending bytes. (A sequence of strings in which every pair of
/// neighbours is, is a canonical set.)
#[inline]
pub(crate) fn strings_in_order(a: &[u8], b: &[u8]) -> bool {
    a < b
}

fn order_of(v: &Value) -> Order {
    match v {
        Value::String(_) => Order::String,
        Value::Bool(_) => Order::Bool,
        Value::Number(_) => Order::Number,
        _ => Order::HashString,
    }
}

fn same_kind<E>(elements: &[E], value: impl Fn(&E) -> &Value, order: Order) -> bool {
    elements
        .iter()
        .all(|e| order_of(value(e).untyped()) == order)
}

fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

fn bool_of(v: &Value) -> bool {
    v.as_bool().unwrap_or_default()
}

fn number_of(v: &Value) -> &Number {
    match v.untyped() {
        Value::Number(n) => n,
        _ => unreachable!("checked by same_kind"),
    }
}

/// Sorts by a total order in which equal means cty-equal, dropping later duplicates.
fn sort_dedup_by<E>(mut elements: Vec<E>, cmp: impl Fn(&E, &E) -> Ordering) -> Vec<E> {
    if elements.windows(2).all(|w| cmp(&w[0], &w[1]).is_lt()) {
        return elements;
    }
    elements.sort_by(&cmp); // stable: the first of equal elements stays first
    elements.dedup_by(|later, earlier| cmp(earlier, later).is_eq());
    elements
}

/// Numbers: cty-equal numbers need not be neighbours in numeric order (float64 0.1 and
/// decimal 0.1 differ in value but are equal by text), so duplicates are found by hash.
/// go-cty only compares elements whose hash strings match, so 0 and -0 (hashed `0` and
/// `-0`) both stay, the `-0` bucket first.
fn sort_numbers<E>(elements: Vec<E>, value: impl Fn(&E) -> &Value) -> Vec<E> {
    let order = |a: &E, b: &E| {
        let (a, b) = (number_of(value(a)), number_of(value(b)));
        a.cmp_numeric(b)
            .then_with(|| b.is_negative_zero().cmp(&a.is_negative_zero()))
    };
    let mut seen = HashSet::with_capacity(elements.len());
    let mut unique: Vec<E> = elements
        .into_iter()
        .filter(|e| {
            let n = number_of(value(e));
            seen.insert((n.clone(), n.is_negative_zero()))
        })
        .collect();
    if !unique.windows(2).all(|w| order(&w[0], &w[1]).is_lt()) {
        unique.sort_by(order);
    }
    unique
}

/// Composite elements: stable order by hash string; equal elements have equal hash
/// strings, and go-cty compares only elements whose hash strings match, so an element
/// is dropped when an earlier one has its hash string and is [`equivalent`] to it.
fn sort_by_hash_string<E>(elements: Vec<E>, value: impl Fn(&E) -> &Value + Copy) -> Vec<E> {
    let mut keyed: Vec<(Vec<u8>, E)> = elements
        .into_iter()
        .map(|e| {
            let mut h = Vec::new();
            hash_string(value(&e), &mut h);
            (h, e)
        })
        .collect();
    dedup_composite(&mut keyed, value);
    if !keyed.windows(2).all(|w| w[0].0 < w[1].0) {
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
    }
    keyed.into_iter().map(|(_, e)| e).collect()
}

/// Drops every element that has the hash string of an earlier kept one and is
/// [`equivalent`] to it, keeping the first, in linear expected time.
///
/// Candidates are found by a hash of the hash string and of the value (consistent with
/// [`equivalent`]), not by the hash string alone: hash strings collide for elements that
/// are not equal (every `[unknown]` is `[?;]`, and numbers are cut to 10 digits), and
/// comparing each element with every other of a run of 100,000 such took minutes. An
/// element with an unknown anywhere inside is never equal to anything, so it is kept
/// without comparing.
fn dedup_composite<E>(keyed: &mut Vec<(Vec<u8>, E)>, value: impl Fn(&E) -> &Value) {
    let state = RandomState::new();
    // The most recent kept element of each hash, and for each kept element the one
    // before it with the same hash.
    let mut latest: HashMap<u64, usize> = HashMap::with_capacity(keyed.len());
    let mut earlier: Vec<Option<usize>> = vec![None; keyed.len()];
    let mut keep = vec![true; keyed.len()];
    for (i, (h, e)) in keyed.iter().enumerate() {
        let v = value(e);
        if !v.is_wholly_known() {
            continue;
        }
        let mut hasher = state.build_hasher();
        h.hash(&mut hasher);
        hash_equivalent(v, &mut hasher);
        let key = hasher.finish();
        let mut candidate = latest.get(&key).copied();
        while let Some(j) = candidate {
            #[cfg(test)]
            tests::COMPARISONS.with(|c| c.set(c.get() + 1));
            if keyed[j].0 == *h && equivalent(value(&keyed[j].1), v) {
                keep[i] = false;
                break;
            }
            candidate = earlier[j];
        }
        if keep[i] {
            earlier[i] = latest.insert(key, i);
        }
    }
    if keep.iter().all(|k| *k) {
        return;
    }
    let mut keep = keep.into_iter();
    keyed.retain(|_| keep.next().unwrap_or(true));
}

/// Feeds a wholly known value to `h` so that [`equivalent`] values hash alike: `Typed`
/// wrappers are looked through, numbers hash as [`Number`] does (by value, as they
/// compare).
fn hash_equivalent(v: &Value, h: &mut impl Hasher) {
    match v.untyped() {
        Value::Null => h.write_u8(0),
        Value::Unknown(_) => h.write_u8(1),
        Value::Bool(b) => {
            h.write_u8(2);
            b.hash(h);
        }
        Value::Number(n) => {
            h.write_u8(3);
            n.hash(h);
        }
        Value::String(s) => {
            h.write_u8(4);
            s.hash(h);
        }
        Value::List(vs) | Value::Tuple(vs) => hash_all(5, vs.iter(), h),
        Value::Set(s) => hash_all(5, s.iter(), h),
        Value::Map(m) => {
            h.write_u8(6);
            h.write_usize(m.len());
            for (k, v) in m.iter() {
                k.hash(h);
                hash_equivalent(v, h);
            }
        }
        Value::Object(o) => {
            h.write_u8(7);
            o.names().hash(h);
            hash_all(7, o.values().iter(), h);
        }
        Value::Typed(_) => unreachable!("untyped() removes wrappers"),
    }
}

/// A hash of `v` under which [`equivalent`] values collide (for matching the elements
/// of two sets by hashing before anything is compared pairwise). Values holding
/// unknowns hash too, but are never [`equivalent`] to anything.
pub(crate) fn equivalence_hash(state: &RandomState, v: &Value) -> u64 {
    let mut h = state.build_hasher();
    hash_equivalent(v, &mut h);
    h.finish()
}

fn hash_all<'v>(tag: u8, values: impl ExactSizeIterator<Item = &'v Value>, h: &mut impl Hasher) {
    h.write_u8(tag);
    h.write_usize(values.len());
    for v in values {
        hash_equivalent(v, h);
    }
}

/// cty's `Equals(a, b) == True`: definitely equal. Unknowns (anywhere) are never equal;
/// nulls are equal to nulls; numbers compare by [`Number`]'s equality.
pub(crate) fn equivalent(a: &Value, b: &Value) -> bool {
    equivalent_by(a, b, &|x, y| x == y)
}

/// Whether `a` and `b` are one element by go-cty's set rules (its `Set.Has`): equal
/// hash strings, and [`equivalent`]. They differ only in numbers that are equal but
/// hash apart: `-0` and `0`.
pub(crate) fn same_element(a: &Value, b: &Value) -> bool {
    equivalent_by(a, b, &|x, y| {
        x == y
            && match (x.to_i64(), y.to_i64()) {
                (Some(_), Some(_)) => x.is_negative_zero() == y.is_negative_zero(),
                _ => x.hash_text() == y.hash_text(),
            }
    })
}

/// [`equivalent`], numbers compared by `numbers`.
fn equivalent_by(a: &Value, b: &Value, numbers: &impl Fn(&Number, &Number) -> bool) -> bool {
    let all = |x: &[Value], y: &[Value]| {
        x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equivalent_by(a, b, numbers))
    };
    match (a.untyped(), b.untyped()) {
        (Value::Unknown(_), _) | (_, Value::Unknown(_)) => return false,
        // Nulls are equal whatever their types.
        (Value::Null, Value::Null) => return true,
        _ => {}
    }
    if let (Value::Typed(x), Value::Typed(y)) = (a, b) {
        if x.ty != y.ty {
            return false;
        }
    }
    match (a.untyped(), b.untyped()) {
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => numbers(x, y),
        (Value::String(x), Value::String(y)) => x == y,
        (Value::List(x), Value::List(y)) | (Value::Tuple(x), Value::Tuple(y)) => all(x, y),
        (Value::Set(x), Value::Set(y)) => all(x.as_slice(), y.as_slice()),
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((kx, vx), (ky, vy))| kx == ky && equivalent_by(vx, vy, numbers))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.names() == y.names() && all(x.values(), y.values())
        }
        _ => false,
    }
}

/// Whether two sets (each free of duplicates, as every [`Set`](super::Set) is) have the
/// same members by go-cty's set rules: every element of each is found in the other by
/// [`same_element`]. An element with an unknown anywhere in it is found nowhere, so a
/// set holding one equals no set (go-cty's `Equals` says false for it too).
///
/// Linear in expected time: elements in the same place are compared first, and the
/// others found by a hash consistent with [`same_element`].
pub(crate) fn same_members(a: &[Value], b: &[Value]) -> bool {
    if a.len() != b.len() || !a.iter().chain(b).all(Value::is_wholly_known) {
        return false;
    }
    if a.iter().zip(b).all(|(x, y)| same_element(x, y)) {
        return true;
    }
    // Both sets are free of duplicates and `same_element` is an equivalence, so every
    // element of `a` found in `b` (a set of the same size) means the sets are equal.
    let state = RandomState::new();
    let key = |v: &Value| {
        let mut h = Vec::new();
        hash_string(v, &mut h);
        let mut hasher = state.build_hasher();
        h.hash(&mut hasher);
        hash_equivalent(v, &mut hasher);
        hasher.finish()
    };
    let mut by_key: HashMap<u64, Vec<&Value>> = HashMap::with_capacity(b.len());
    for y in b {
        by_key.entry(key(y)).or_default().push(y);
    }
    a.iter().all(|x| {
        by_key
            .get(&key(x))
            .is_some_and(|ys| ys.iter().any(|y| same_element(x, y)))
    })
}

/// Appends go-cty's set hash string of `v` to `out`.
pub(crate) fn hash_string(v: &Value, out: &mut Vec<u8>) {
    match v.untyped() {
        Value::Unknown(_) => out.push(b'?'),
        Value::Null => out.push(b'~'),
        Value::Bool(b) => out.push(if *b { b'T' } else { b'F' }),
        Value::Number(n) => n.write_hash_text(out),
        Value::String(s) => crate::text::go_quote_into(s, out),
        Value::Map(m) => {
            out.push(b'{');
            for (k, v) in m.iter() {
                crate::text::go_quote_into(k, out);
                out.push(b':');
                hash_string(v, out);
                out.push(b';');
            }
            out.push(b'}');
        }
        Value::List(vs) => hash_sequence(b'[', vs, b']', out),
        Value::Set(s) => hash_sequence(b'[', s.as_slice(), b']', out),
        Value::Tuple(vs) => hash_sequence(b'<', vs, b'>', out),
        Value::Object(o) => hash_sequence(b'<', o.values(), b'>', out),
        Value::Typed(_) => unreachable!("untyped() removes wrappers"),
    }
}

fn hash_sequence(open: u8, values: &[Value], close: u8, out: &mut Vec<u8>) {
    out.push(open);
    for v in values {
        hash_string(v, out);
        out.push(b';');
    }
    out.push(close);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Type;
    use std::cell::Cell;

    thread_local! {
        /// How many candidate duplicates [`dedup_composite`] compared on this thread.
        pub(super) static COMPARISONS: Cell<usize> = const { Cell::new(0) };
    }

    /// [`canonicalize`] and the number of candidate comparisons it made.
    fn counted(elements: Vec<Value>) -> (Vec<Value>, usize) {
        COMPARISONS.with(|c| c.set(0));
        let out = canonicalize(elements);
        (out, COMPARISONS.with(Cell::get))
    }

    fn strings(ss: &[&str]) -> Vec<Value> {
        ss.iter().map(|s| Value::from(*s)).collect()
    }

    #[test]
    fn string_sets_sort_bytewise_and_dedup() {
        let got = canonicalize(strings(&["z", "b", "é", "a", "B", "aa", "b"]));
        assert_eq!(got, strings(&["B", "a", "aa", "b", "z", "é"]));
    }

    #[test]
    fn unknowns_then_null_last() {
        let got = canonicalize(vec![
            Value::Null,
            Value::unknown(),
            Value::from("b"),
            Value::Null,
            Value::from("a"),
            Value::unknown(),
        ]);
        assert_eq!(
            got,
            vec![
                Value::from("a"),
                Value::from("b"),
                Value::unknown(),
                Value::unknown(),
                Value::Null
            ]
        );
    }

    #[test]
    fn objects_order_by_hash_string() {
        let obj = |s: &str| Value::object([("s", Value::from(s))]);
        let got = canonicalize(["a", "a!", "a ", "a\n", "ab"].map(obj).to_vec());
        assert_eq!(got, ["a ", "a!", "a", "a\n", "ab"].map(obj).to_vec());
    }

    /// Every `[unknown]` has the hash string `[?;]`: they were all compared with each
    /// other (quadratic). Elements holding an unknown equal nothing: none is compared.
    #[test]
    fn elements_holding_unknowns_are_never_compared() {
        let n = 10_000;
        let (got, comparisons) = counted(vec![Value::list([Value::unknown()]); n]);
        assert_eq!(got.len(), n);
        assert_eq!(comparisons, 0);
    }

    /// Numbers are cut to 10 digits in hash strings: `[1.0000000000001]` and
    /// `[1.0000000000002]` share one. Only real duplicates are compared, and dropped.
    #[test]
    fn equal_hash_strings_compare_only_candidates() {
        let n = 10_000;
        let element = |i: usize| {
            let text = format!("1.{:013}", i + 1);
            Value::list([Value::Number(text.parse().unwrap())])
        };
        let elements: Vec<Value> = (0..n).chain(0..n).map(element).collect();
        let (got, comparisons) = counted(elements);
        assert_eq!(got.len(), n, "the second round duplicates the first");
        let got: HashSet<String> = got.iter().map(|v| format!("{v:?}")).collect();
        assert!((0..n).all(|i| got.contains(&format!("{:?}", element(i)))));
        // One per duplicate, give or take a hash collision.
        assert!(comparisons <= n + 10, "{comparisons} comparisons");
    }

    /// Duplicates go, the first of equal elements stays; elements that cty calls equal
    /// but whose hash strings differ (`[0]` and `[-0]`) both stay, as in go-cty.
    #[test]
    fn composite_duplicates_keep_the_first() {
        let list = |v: Value| Value::list([v]);
        let float = |f: f64| Value::Number(Number::from_f64(f).unwrap());
        let a = list(Value::from("a"));
        // The first `a` stays: `Typed` wrappers are looked through to compare.
        let typed_a = list(Value::typed(Type::String, Value::from("a")));
        let got = canonicalize(vec![
            typed_a.clone(),
            list(Value::from("b")),
            a.clone(),
            list(float(0.0)),
            list(float(-0.0)),
            list(Value::from(0)),
            list(Value::Null),
            list(Value::Null),
            list(Value::unknown()),
            list(Value::unknown()),
        ]);
        assert_eq!(
            got,
            vec![
                typed_a,
                list(Value::from("b")),
                list(float(-0.0)),
                list(float(0.0)),
                list(Value::unknown()),
                list(Value::unknown()),
                list(Value::Null),
            ]
        );
    }
}
