//! From a change to a tree of diffs, each with its action and how to render it
//! (Terraform's `jsonformat/differ` and `jsondiff`).

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::hash::Hash;

use super::model::{Change, Tree, J, NULL};
use super::ChangeAction::{self, *};
use crate::schema::{Attribute, AttributeNesting, Block, BlockNesting, NestedType};
use crate::token::json_read::Kind as JsonKind;
use crate::types::Type;

/// A computed diff: how to render it, its action, and whether it forces replacement.
pub(super) struct Diff<'a> {
    pub(super) renderer: Renderer<'a>,
    pub(super) action: ChangeAction,
    pub(super) replace: bool,
}

/// The kind of a primitive, for rendering.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Primitive {
    Bool,
    Number,
    String,
    /// JSON null on both sides (a `NilType` primitive).
    Null,
}

/// How a diff renders (one of Terraform's `computed/renderers`).
pub(super) enum Renderer<'a> {
    Primitive {
        before: &'a J,
        after: &'a J,
        kind: Primitive,
    },
    /// An object's attributes; a nested attribute object shows the `-> null` of its
    /// removal, an object value does not.
    Object {
        attributes: BTreeMap<String, Diff<'a>>,
        nested: bool,
    },
    Map {
        elements: BTreeMap<String, Diff<'a>>,
        nested: bool,
    },
    List {
        elements: Vec<Diff<'a>>,
        display_context: bool,
    },
    Set {
        elements: Vec<Diff<'a>>,
        nested: bool,
    },
    Block {
        attributes: BTreeMap<&'a str, Diff<'a>>,
        blocks: BTreeMap<&'a str, BlockGroup<'a>>,
    },
    Sensitive {
        inner_action: ChangeAction,
        before: bool,
        after: bool,
    },
    SensitiveBlock {
        inner_action: ChangeAction,
        before: bool,
        after: bool,
    },
    /// `(known after apply)`, after what the value was, with what its refinements say.
    Unknown {
        before: Option<Box<Diff<'a>>>,
        refinements: Option<&'a str>,
    },
    TypeChange {
        before: Box<Diff<'a>>,
        after: Box<Diff<'a>>,
    },
    WriteOnly {
        sensitive: bool,
    },
}

/// The blocks of one nested block type, and what holds for all of them.
pub(super) struct BlockGroup<'a> {
    pub(super) blocks: Blocks<'a>,
    pub(super) replace: bool,
    pub(super) before_sensitive: bool,
    pub(super) after_sensitive: bool,
    pub(super) unknown: bool,
}

pub(super) enum Blocks<'a> {
    Single(Diff<'a>),
    List(Vec<Diff<'a>>),
    Set(Vec<Diff<'a>>),
    Map(BTreeMap<String, Diff<'a>>),
}

/// Terraform's `CompareActions`: a child's action folded into its parent's.
pub(super) fn compare(current: ChangeAction, next: ChangeAction) -> ChangeAction {
    if next == NoOp {
        current
    } else if current != next {
        Update
    } else {
        current
    }
}

fn as_diff<'a>(change: &Change<'a>, renderer: Renderer<'a>) -> Diff<'a> {
    Diff {
        renderer,
        action: change.action(),
        replace: change.replace.matches(),
    }
}

/// Terraform's `CheckForSensitive`: a sensitive value shows as one sensitive diff, whose
/// action is an update when only its sensitivity changes.
fn sensitive<'a>(
    change: &Change<'a>,
    inner: impl FnOnce(&Change<'a>) -> Diff<'a>,
    block: bool,
) -> Option<Diff<'a>> {
    let (before, after) = (change.is_before_sensitive(), change.is_after_sensitive());
    if !before && !after {
        return None;
    }
    let inner_action = inner(&change.unmarked()).action;
    let null_no_op = change.before == &NULL
        && !change.before_explicit
        && change.after == &NULL
        && !change.after_explicit;
    let action = if inner_action == NoOp && before != after && !null_no_op {
        Update
    } else {
        inner_action
    };
    let renderer = if block {
        Renderer::SensitiveBlock {
            inner_action,
            before,
            after,
        }
    } else {
        Renderer::Sensitive {
            inner_action,
            before,
            after,
        }
    };
    Some(Diff {
        renderer,
        action,
        replace: change.replace.matches(),
    })
}

/// Terraform's `CheckForUnknown`: an unknown value shows as `(known after apply)`, after
/// what it was, if anything (`before_unknown` says which of the old value's children to
/// show as computed).
fn unknown<'a>(
    change: &Change<'a>,
    before_unknown: Tree<'a>,
    inner: impl FnOnce(&Change<'a>) -> Diff<'a>,
) -> Option<Diff<'a>> {
    if !change.is_unknown() {
        return None;
    }
    let mut change = change.clone();
    change.after_explicit = true;
    let refinements = change.unknown.refinements();
    if change.before == &NULL {
        return Some(as_diff(
            &change,
            Renderer::Unknown {
                before: None,
                refinements,
            },
        ));
    }
    let mut before = change.as_delete();
    before.unknown = before_unknown;
    let before = inner(&before);
    Some(as_diff(
        &change,
        Renderer::Unknown {
            before: Some(Box::new(before)),
            refinements,
        },
    ))
}

/// Terraform's `ComputeDiffForBlock`.
pub(super) fn block<'a>(change: &Change<'a>, block: &'a Block) -> Diff<'a> {
    if let Some(d) = sensitive(change, |c| self::block(c, block), true) {
        return d;
    }
    if let Some(d) = unknown(change, Tree::Attributes(&block.attributes), |c| {
        self::block(c, block)
    }) {
        return d;
    }
    let mut change = change.clone();
    change.non_legacy = change.non_legacy || non_legacy(block);
    let mut current = change.default_action();
    let mut attributes = BTreeMap::new();
    for (name, attribute) in &block.attributes {
        if attribute.write_only {
            continue;
        }
        let mut child = change.key(name);
        child.before_explicit = false;
        child.after_explicit = false;
        let diff = self::attribute(&child, attribute);
        if diff.action == NoOp && child.before == &NULL && child.after == &NULL {
            continue;
        }
        current = compare(current, diff.action);
        attributes.insert(name.as_str(), diff);
    }
    let mut blocks = BTreeMap::new();
    for (name, nested) in block.unshadowed_block_types() {
        let child = change.key(name);
        let unknown = child.is_unknown();
        let (group, action) = match nested.nesting {
            BlockNesting::Set => {
                let (diffs, action) = set_of(&child, |c| self::block(c, &nested.block));
                (Blocks::Set(diffs), action)
            }
            BlockNesting::List => {
                let (diffs, action) = nested_list(&child, |c| self::block(c, &nested.block));
                (Blocks::List(diffs), action)
            }
            BlockNesting::Map => {
                let (diffs, action) = map_of(&child, child.explicit_keys(), |c| {
                    self::block(c, &nested.block)
                });
                (Blocks::Map(diffs), action)
            }
            BlockNesting::Single | BlockNesting::Group => {
                let diff = self::block(&child, &nested.block);
                let action = diff.action;
                (Blocks::Single(diff), action)
            }
        };
        if action == NoOp && child.before == &NULL && child.after == &NULL && !unknown {
            continue;
        }
        current = compare(current, action);
        blocks.insert(
            name.as_str(),
            BlockGroup {
                blocks: group,
                replace: child.replace.matches(),
                before_sensitive: child.is_before_sensitive(),
                after_sensitive: child.is_after_sensitive(),
                unknown,
            },
        );
    }
    for (name, attribute) in &block.attributes {
        if attribute.write_only {
            attributes.insert(name.as_str(), write_only(&change, current));
        }
    }
    Diff {
        renderer: Renderer::Block { attributes, blocks },
        action: current,
        replace: change.replace.matches(),
    }
}

/// Whether a block uses what the legacy SDK could not express (MAP and GROUP blocks,
/// nested attributes, `dynamic`, objects and tuples, collections of collections of
/// non-primitives): then empty strings are not read as nulls.
fn non_legacy(block: &Block) -> bool {
    block
        .block_types
        .values()
        .any(|b| matches!(b.nesting, BlockNesting::Map | BlockNesting::Group))
        || block.attributes.values().any(|a| {
            if a.nested_type.is_some() {
                return true;
            }
            let ty = a.implied_type();
            match &ty {
                _ if ty.has_dynamic() => true,
                Type::Tuple(_) | Type::Object(_) => true,
                Type::List(e) | Type::Set(e) | Type::Map(e) => {
                    e.is_collection() && !e.element_type().is_some_and(Type::is_primitive)
                }
                _ => false,
            }
        })
}

/// A write-only attribute: it follows its block's action, except that an update of the
/// block leaves it unchanged.
fn write_only<'a>(change: &Change<'a>, block_action: ChangeAction) -> Diff<'a> {
    Diff {
        renderer: Renderer::WriteOnly {
            sensitive: change.is_before_sensitive() || change.is_after_sensitive(),
        },
        action: if block_action == Update {
            NoOp
        } else {
            block_action
        },
        replace: change.replace.matches(),
    }
}

/// Terraform's `ComputeDiffForAttribute`.
fn attribute<'a>(change: &Change<'a>, attribute: &'a Attribute) -> Diff<'a> {
    match &attribute.nested_type {
        Some(nested) => nested_attribute(change, nested, nested.nesting),
        None => of_type(change, &attribute.implied_type()),
    }
}

/// Terraform's `computeDiffForNestedAttribute` (with `nesting` in place of the nested
/// type's own, as Terraform does for the elements of a collection).
fn nested_attribute<'a>(
    change: &Change<'a>,
    nested: &'a NestedType,
    nesting: AttributeNesting,
) -> Diff<'a> {
    if let Some(d) = sensitive(change, |c| nested_attribute(c, nested, nesting), false) {
        return d;
    }
    if let Some(d) = unknown(change, Tree::Attributes(&nested.attributes), |c| {
        nested_attribute(c, nested, nesting)
    }) {
        return d;
    }
    let single = |c: &Change<'a>| nested_attribute(c, nested, AttributeNesting::Single);
    let (renderer, action) = match nesting {
        AttributeNesting::Single => {
            let (attributes, action) = object_attributes(
                change,
                nested.attributes.iter().map(|(n, a)| (n.as_str(), a)),
                |c, a, current| {
                    if a.write_only {
                        write_only(c, current)
                    } else {
                        self::attribute(c, a)
                    }
                },
                |a| a.write_only,
            );
            (
                Renderer::Object {
                    attributes,
                    nested: true,
                },
                action,
            )
        }
        AttributeNesting::Map => {
            let (elements, action) = map_of(change, change.explicit_keys(), single);
            (
                Renderer::Map {
                    elements,
                    nested: true,
                },
                action,
            )
        }
        AttributeNesting::List => {
            let (elements, action) = nested_list(change, single);
            (
                Renderer::List {
                    elements,
                    display_context: false,
                },
                action,
            )
        }
        AttributeNesting::Set => {
            let (elements, action) = set_of(change, single);
            (
                Renderer::Set {
                    elements,
                    nested: true,
                },
                action,
            )
        }
    };
    Diff {
        renderer,
        action,
        replace: change.replace.matches(),
    }
}

/// Terraform's `ComputeDiffForType`.
pub(super) fn of_type<'a>(change: &Change<'a>, ty: &Type) -> Diff<'a> {
    let mut change = change.clone();
    if !change.non_legacy {
        // The legacy SDK cannot always tell null from the empty string.
        if matches!(change.before, J::String(s) if s.is_empty()) {
            change.before = &NULL;
        }
        if matches!(change.after, J::String(s) if s.is_empty()) {
            change.after = &NULL;
        }
    }
    let change = &change;
    if let Some(d) = sensitive(change, |c| of_type(c, ty), false) {
        return d;
    }
    if let Some(d) = unknown(change, Tree::FALSE, |c| of_type(c, ty)) {
        return d;
    }
    let replace = change.replace.matches();
    let (renderer, action) = match ty {
        Type::Dynamic => return json(change),
        Type::Bool => return as_diff(change, primitive(change, Primitive::Bool)),
        Type::Number => return as_diff(change, primitive(change, Primitive::Number)),
        Type::String => return as_diff(change, primitive(change, Primitive::String)),
        Type::Object(o) => {
            let (attributes, action) = object_attributes(
                change,
                o.iter().map(|(n, t, _)| (n, t)),
                |c, t, _| of_type(c, t),
                |_| false,
            );
            (
                Renderer::Object {
                    attributes,
                    nested: false,
                },
                action,
            )
        }
        Type::Map(e) => {
            let (elements, action) = map_of(change, change.all_keys(), |c| of_type(c, e));
            (
                Renderer::Map {
                    elements,
                    nested: false,
                },
                action,
            )
        }
        Type::List(e) => {
            let is_object = matches!(**e, Type::Object(_));
            let (before, after) = change.slices();
            let (elements, action) = transform_slice(
                before,
                after,
                |b, a| of_type(&change.index(b, a), e),
                |_| is_object,
            );
            (
                Renderer::List {
                    elements,
                    display_context: true,
                },
                action,
            )
        }
        Type::Tuple(ts) => {
            let mut current = change.default_action();
            let elements: Vec<Diff<'a>> = ts
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let d = of_type(&change.index(i, i), t);
                    current = compare(current, d.action);
                    d
                })
                .collect();
            (
                Renderer::List {
                    elements,
                    display_context: true,
                },
                current,
            )
        }
        Type::Set(e) => {
            let (elements, action) = set_of(change, |c| of_type(c, e));
            (
                Renderer::Set {
                    elements,
                    nested: false,
                },
                action,
            )
        }
    };
    Diff {
        renderer,
        action,
        replace,
    }
}

fn primitive<'a>(change: &Change<'a>, kind: Primitive) -> Renderer<'a> {
    Renderer::Primitive {
        before: change.before,
        after: change.after,
        kind,
    }
}

/// Terraform's `processObject`: the attributes of an object, each compared, those null
/// on both sides left out; write-only ones (`is_write_only`) are always there and do not
/// count towards the object's action.
fn object_attributes<'a, 'n, S: Copy>(
    change: &Change<'a>,
    attributes: impl Iterator<Item = (&'n str, S)> + Clone,
    diff: impl Fn(&Change<'a>, S, ChangeAction) -> Diff<'a>,
    is_write_only: impl Fn(S) -> bool,
) -> (BTreeMap<String, Diff<'a>>, ChangeAction) {
    let mut current = change.default_action();
    let mut out = BTreeMap::new();
    for (name, schema) in attributes.clone().filter(|(_, s)| !is_write_only(*s)) {
        let mut child = change.key(name);
        child.before_explicit = false;
        child.after_explicit = false;
        let d = diff(&child, schema, current);
        if d.action == NoOp && child.before == &NULL && child.after == &NULL {
            continue;
        }
        current = compare(current, d.action);
        out.insert(name.to_owned(), d);
    }
    for (name, schema) in attributes.filter(|(_, s)| is_write_only(*s)) {
        let mut child = change.key(name);
        child.before_explicit = false;
        child.after_explicit = false;
        out.insert(name.to_owned(), diff(&child, schema, current));
    }
    (out, current)
}

/// Terraform's `TransformMap`: elements by key.
fn map_of<'a>(
    change: &Change<'a>,
    keys: Vec<&'a str>,
    diff: impl Fn(&Change<'a>) -> Diff<'a>,
) -> (BTreeMap<String, Diff<'a>>, ChangeAction) {
    let (before, after) = change.maps();
    let mut current = match (before.is_some(), after.is_some()) {
        (true, false) => Delete,
        (false, true) => Create,
        _ => NoOp,
    };
    let mut out = BTreeMap::new();
    for key in keys {
        let d = diff(&change.key(key));
        current = compare(current, d.action);
        out.insert(key.to_owned(), d);
    }
    (out, current)
}

/// Terraform's `processNestedList`: elements by index.
fn nested_list<'a>(
    change: &Change<'a>,
    diff: impl Fn(&Change<'a>) -> Diff<'a>,
) -> (Vec<Diff<'a>>, ChangeAction) {
    let (before, after) = change.slices();
    let n = before
        .map_or(0, <[J]>::len)
        .max(after.map_or(0, <[J]>::len));
    let mut current = change.default_action();
    let out = (0..n)
        .map(|i| {
            let d = diff(&change.index(i, i));
            current = compare(current, d.action);
            d
        })
        .collect();
    (out, current)
}

/// Terraform's `processSet`: each element before is matched with an equal one after
/// (same sensitivity, not unknown); the rest are removed or added.
fn set_of<'a>(
    change: &Change<'a>,
    diff: impl Fn(&Change<'a>) -> Diff<'a>,
) -> (Vec<Diff<'a>>, ChangeAction) {
    let (before, after) = change.slices();
    let (nb, na) = (before.map_or(0, <[J]>::len), after.map_or(0, <[J]>::len));
    let mut found_before: Vec<Option<usize>> = vec![None; nb];
    let mut found_after: Vec<bool> = vec![false; na];
    // Terraform pairs each element before with the first one after (not yet taken) that
    // is equal, equally sensitive and known, comparing every pair. The same pairing in
    // linear time: the elements after, by value, in order; each candidate list is
    // consumed from the front, so no element is looked at twice once taken.
    let mut by_value: HashMap<&J, VecDeque<usize>> = HashMap::new();
    for (a, element) in after.unwrap_or(&[]).iter().enumerate() {
        by_value.entry(element).or_default().push_back(a);
    }
    for (b, found) in found_before.iter_mut().enumerate() {
        let Some(element) = before.and_then(|s| s.get(b)) else {
            continue;
        };
        let Some(candidates) = by_value.get_mut(element) else {
            continue;
        };
        let mut skipped = Vec::new();
        while let Some(a) = candidates.pop_front() {
            let child = change.index(b, a);
            if child.is_before_sensitive() == child.is_after_sensitive() && !child.is_unknown() {
                *found = Some(a);
                found_after[a] = true;
                break;
            }
            skipped.push(a);
        }
        // Candidates this element could not take stay, in order, for the next ones.
        for a in skipped.into_iter().rev() {
            candidates.push_front(a);
        }
    }
    let mut current = change.default_action();
    let mut out = Vec::new();
    let mut push = |d: Diff<'a>| {
        current = compare(current, d.action);
        out.push(d);
    };
    for (b, found) in found_before.iter().enumerate() {
        push(diff(&change.index(b, found.unwrap_or(na))));
    }
    for (a, taken) in found_after.iter().enumerate() {
        if !taken {
            push(diff(&change.index(nb, a)));
        }
    }
    (out, current)
}

/// Terraform's `TransformSlice`: elements of lists paired by `process_slice`.
pub(super) fn transform_slice<'a>(
    before: Option<&'a [J]>,
    after: Option<&'a [J]>,
    diff: impl Fn(usize, usize) -> Diff<'a>,
    is_object: impl Fn(&J) -> bool,
) -> (Vec<Diff<'a>>, ChangeAction) {
    let mut current = match (before.is_some(), after.is_some()) {
        (true, false) => Delete,
        (false, true) => Create,
        _ => NoOp,
    };
    let mut out = Vec::new();
    process_slice(
        before.unwrap_or(&[]),
        after.unwrap_or(&[]),
        |b, a| {
            let d = diff(b, a);
            current = compare(current, d.action);
            out.push(d);
        },
        is_object,
    );
    (out, current)
}

/// Terraform's `ProcessSlice`: pairs the elements of two sequences for display: index by
/// index when the lengths agree and it is not a reordering, else along their longest
/// common subsequence (unmatched objects facing each other are paired as updates).
/// `process(b, a)` gets an index past the end for a side that has no element.
pub(super) fn process_slice<T: Eq + Hash>(
    before: &[T],
    after: &[T],
    mut process: impl FnMut(usize, usize),
    is_object: impl Fn(&T) -> bool,
) {
    if before.len() == after.len() && !is_reorder(before, after) {
        for i in 0..before.len() {
            process(i, i);
        }
        return;
    }
    let lcs = longest_common_subsequence(before, after);
    let (mut b, mut a, mut l) = (0, 0, 0);
    while b < before.len() || a < after.len() || l < lcs.len() {
        while b < before.len() && (l >= lcs.len() || before[b] != *lcs[l]) {
            let object_diff = is_object(&before[b])
                && a < after.len()
                && is_object(&after[a])
                && (l >= lcs.len() || after[a] != *lcs[l]);
            if object_diff {
                process(b, a);
                b += 1;
                a += 1;
                continue;
            }
            process(b, after.len());
            b += 1;
        }
        while a < after.len() && (l >= lcs.len() || after[a] != *lcs[l]) {
            process(before.len(), a);
            a += 1;
        }
        if l < lcs.len() {
            process(b, a);
            b += 1;
            a += 1;
            l += 1;
        }
    }
}

/// Whether every element of `before` is somewhere in `after` (of the same length).
fn is_reorder<T: Eq + Hash>(before: &[T], after: &[T]) -> bool {
    if before.len() != after.len() {
        return false;
    }
    let present: HashSet<&T> = after.iter().collect();
    before.iter().all(|b| present.contains(b))
}

/// The most cells of the table [`lcs_table`] fills (each a `usize` and a `bool`): two
/// lists of 2,048 elements, about 40 MB.
const MAX_LCS_CELLS: usize = 1 << 22;

/// Terraform's `LongestCommonSubsequence`, with its tie-breaking, for sequences whose
/// table fits [`MAX_LCS_CELLS`]. Longer ones (Terraform's table would take
/// gigabytes) keep their common prefix and suffix and take the table's subsequence of
/// the rest only if that fits, otherwise none: the change then shows the middle as
/// removed and added.
fn longest_common_subsequence<'t, T: PartialEq>(xs: &'t [T], ys: &'t [T]) -> Vec<&'t T> {
    if xs.len().saturating_mul(ys.len()) <= MAX_LCS_CELLS {
        return lcs_table(xs, ys);
    }
    let prefix = xs.iter().zip(ys).take_while(|(x, y)| x == y).count();
    let suffix = xs[prefix..]
        .iter()
        .rev()
        .zip(ys[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (middle_x, middle_y) = (
        &xs[prefix..xs.len() - suffix],
        &ys[prefix..ys.len() - suffix],
    );
    let middle = if middle_x.len().saturating_mul(middle_y.len()) <= MAX_LCS_CELLS {
        lcs_table(middle_x, middle_y)
    } else {
        Vec::new()
    };
    xs[..prefix]
        .iter()
        .chain(middle)
        .chain(&xs[xs.len() - suffix..])
        .collect()
}

/// The dynamic-programming table of [`longest_common_subsequence`], as Terraform's.
fn lcs_table<'t, T: PartialEq>(xs: &'t [T], ys: &'t [T]) -> Vec<&'t T> {
    if xs.is_empty() || ys.is_empty() {
        return Vec::new();
    }
    let w = xs.len();
    let mut c = vec![0usize; xs.len() * ys.len()];
    let mut eqs = vec![false; xs.len() * ys.len()];
    for y in 0..ys.len() {
        for x in 0..xs.len() {
            if xs[x] == ys[y] {
                eqs[w * y + x] = true;
                c[w * y + x] = if x == 0 || y == 0 {
                    1
                } else {
                    c[w * (y - 1) + (x - 1)] + 1
                };
            } else {
                let l = if x > 0 { c[w * y + (x - 1)] } else { 0 };
                let u = if y > 0 { c[w * (y - 1) + x] } else { 0 };
                c[w * y + x] = l.max(u);
            }
        }
    }
    let mut seq = Vec::with_capacity(c[c.len() - 1]);
    let (mut x, mut y) = (xs.len() as isize - 1, ys.len() as isize - 1);
    while x > -1 && y > -1 {
        let (ux, uy) = (x as usize, y as usize);
        if eqs[w * uy + ux] {
            seq.push(&xs[ux]);
            x -= 1;
            y -= 1;
        } else {
            let l = if x > 0 { c[w * uy + (ux - 1)] } else { 0 };
            let u = if y > 0 { c[w * (uy - 1) + ux] } else { 0 };
            if l > u {
                x -= 1;
            } else {
                y -= 1;
            }
        }
    }
    seq.reverse();
    seq
}

/// Terraform's `jsondiff` `Transform` (also `ComputeDiffForOutput`): a value whose type
/// is not known (a `dynamic` attribute, a string holding JSON) compared as plain JSON.
pub(super) fn json<'a>(change: &Change<'a>) -> Diff<'a> {
    let no_replace = |mut d: Diff<'a>| {
        d.replace = false;
        d
    };
    if let Some(d) = sensitive(change, json, false) {
        return no_replace(d);
    }
    if change.is_unknown() {
        let mut c = change.clone();
        c.after_explicit = true;
        let refinements = change.unknown.refinements();
        if c.before == &NULL {
            return Diff {
                renderer: Renderer::Unknown {
                    before: None,
                    refinements,
                },
                action: Create,
                replace: false,
            };
        }
        let mut before = c.as_delete();
        before.unknown = Tree::FALSE;
        return Diff {
            renderer: Renderer::Unknown {
                before: Some(Box::new(json(&before))),
                refinements,
            },
            action: Update,
            replace: false,
        };
    }
    let (bt, at) = (json_kind(change.before), json_kind(change.after));
    let deleted = at == JsonKind::Null && !change.after_explicit;
    let created = bt == JsonKind::Null && !change.before_explicit;
    if bt == at || created || deleted {
        let kind = if bt == JsonKind::Null { at } else { bt };
        return json_update(change, kind);
    }
    Diff {
        renderer: Renderer::TypeChange {
            before: Box::new(json_update(&change.as_delete(), bt)),
            after: Box::new(json_update(&change.as_create(), at)),
        },
        action: Update,
        replace: false,
    }
}

fn json_kind(j: &J) -> JsonKind {
    match j {
        J::Null => JsonKind::Null,
        J::Bool(_) => JsonKind::Bool,
        J::Number(_) => JsonKind::Number,
        J::String(_) => JsonKind::String,
        J::Array(_) => JsonKind::Array,
        J::Object(_) => JsonKind::Object,
    }
}

fn json_update<'a>(change: &Change<'a>, kind: JsonKind) -> Diff<'a> {
    let (renderer, action) = match kind {
        JsonKind::Object => {
            let (elements, action) = map_of(change, change.all_keys(), json);
            (
                Renderer::Object {
                    attributes: elements,
                    nested: false,
                },
                action,
            )
        }
        JsonKind::Array => {
            let (before, after) = change.slices();
            let (elements, action) = transform_slice(
                before,
                after,
                |b, a| json(&change.index(b, a)),
                |j| matches!(j, J::Object(_)),
            );
            (
                Renderer::List {
                    elements,
                    display_context: true,
                },
                action,
            )
        }
        primitive_kind => {
            let before_missing = change.before == &NULL && !change.before_explicit;
            let after_missing = change.after == &NULL && !change.after_explicit;
            let action = match (before_missing, after_missing) {
                (true, false) => Create,
                (false, true) => Delete,
                _ if change.before == change.after => NoOp,
                _ => Update,
            };
            let kind = match primitive_kind {
                JsonKind::Bool => Primitive::Bool,
                JsonKind::Number => Primitive::Number,
                JsonKind::String => Primitive::String,
                _ => Primitive::Null,
            };
            (primitive(change, kind), action)
        }
    };
    Diff {
        renderer,
        action,
        replace: false,
    }
}
