//! go-cty's `Unify` and `UnifyUnsafe`: the most general type all of some types convert
//! to.

use std::cmp::Ordering;
use std::collections::HashSet;

use crate::types::Type;

use super::rules::available;

/// The type every one of `types` converts to (safely unless `unsafe_`), as go-cty's
/// `unify` chooses it; `None` when there is none (or `types` is empty).
pub(crate) fn unify(types: &[Type], unsafe_: bool) -> Option<Type> {
    let first = types.first()?;
    if types.iter().all(|t| t == first) {
        // What the rules below give for equal types (go-cty's happy path), at once.
        return Some(first.without_optional_attributes());
    }
    let count = |kind: fn(&Type) -> bool| types.iter().filter(|t| kind(t)).count();
    let maps = count(|t| matches!(t, Type::Map(_)));
    let lists = count(|t| matches!(t, Type::List(_)));
    let sets = count(|t| matches!(t, Type::Set(_)));
    let objects = count(|t| matches!(t, Type::Object(_)));
    let tuples = count(|t| matches!(t, Type::Tuple(_)));
    let dynamics = count(|t| *t == Type::Dynamic);
    let n = types.len();
    if maps > 0 && maps + dynamics == n {
        return collections(Type::map, types, unsafe_, dynamics > 0);
    }
    if maps > 0 && maps + objects + dynamics == n {
        if let Some(t) = objects_as_maps(types, unsafe_) {
            return Some(t);
        }
    } else if lists > 0 && lists + dynamics == n {
        return collections(Type::list, types, unsafe_, dynamics > 0);
    } else if lists > 0 && lists + tuples + dynamics == n {
        if let Some(t) = tuples_as_list(types, unsafe_) {
            return Some(t);
        }
    } else if sets > 0 && sets + dynamics == n {
        return collections(Type::set, types, unsafe_, dynamics > 0);
    } else if objects > 0 && objects + dynamics == n {
        return object_types(types, unsafe_, dynamics > 0);
    } else if tuples > 0 && tuples + dynamics == n {
        return tuple_types(types, unsafe_, dynamics > 0);
    } else if objects > 0 && tuples > 0 {
        return None;
    }
    most_general(types, unsafe_)
}

/// Whether every one of `types` converts to `want` (or is `want`).
fn all_convert(types: &[Type], want: &Type, unsafe_: bool) -> bool {
    types
        .iter()
        .all(|t| t == want || available(t, want, unsafe_))
}

/// The first of `types`, in go-cty's order of preference, that all of them convert to.
///
/// go-cty sorts all the types (a quadratic number of comparisons) and tries each in turn;
/// the order only matters when two distinct types qualify, so the sort is done only
/// then.
// A type's interior mutability (the encodings object types cache) takes no part in its
// hash or equality.
#[allow(clippy::mutable_key_type)]
fn most_general(types: &[Type], unsafe_: bool) -> Option<Type> {
    let mut seen = HashSet::new();
    let distinct: Vec<&Type> = types.iter().filter(|t| seen.insert(*t)).collect();
    let qualified: Vec<&Type> = distinct
        .iter()
        .copied()
        .filter(|want| {
            distinct
                .iter()
                .all(|t| t == want || available(t, want, unsafe_))
        })
        .collect();
    match qualified.as_slice() {
        [] => None,
        [one] => Some((*one).clone()),
        _ => sort_types(types)
            .into_iter()
            .map(|i| &types[i])
            .find(|want| qualified.contains(want))
            .cloned(),
    }
}

/// go-cty's `sortTypes`: a topological order of `types` by "more general than", ties
/// in their given order.
fn sort_types(types: &[Type]) -> Vec<usize> {
    let n = types.len();
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..n {
        for j in i + 1..n {
            match compare(&types[i], &types[j]) {
                Ordering::Less => edges[i].push(j),
                Ordering::Greater => edges[j].push(i),
                Ordering::Equal => {}
            }
        }
    }
    let mut in_degree = vec![0usize; n];
    for &j in edges.iter().flatten() {
        in_degree[j] += 1;
    }
    let mut order: Vec<usize> = (0..n).filter(|&i| in_degree[i] == 0).collect();
    let mut next = 0;
    while next < order.len() {
        let i = order[next];
        next += 1;
        for &j in &edges[i] {
            in_degree[j] -= 1;
            if in_degree[j] == 0 {
                order.push(j);
            }
        }
    }
    order
}

/// go-cty's `compareTypes`: `Less` when `a` is preferred to `b` for unification.
fn compare(a: &Type, b: &Type) -> Ordering {
    use Ordering::{Equal, Greater, Less};
    match (a == &Type::Dynamic, b == &Type::Dynamic) {
        (true, true) => return Equal,
        (false, true) => return Less,
        (true, false) => return Greater,
        (false, false) => {}
    }
    if a.is_primitive() && b.is_primitive() {
        match (a == &Type::String, b == &Type::String) {
            (true, true) => return Equal,
            (false, true) => return Greater,
            (true, false) => return Less,
            (false, false) => {}
        }
    }
    match (a, b) {
        (Type::List(x), Type::List(y))
        | (Type::Set(x), Type::Set(y))
        | (Type::Map(x), Type::Map(y)) => return compare(x, y),
        _ => {}
    }
    let swap = matches!(
        (a, b),
        (Type::Tuple(_), Type::List(_))
            | (Type::Object(_), Type::Map(_))
            | (Type::Set(_), Type::Tuple(_))
            | (Type::Set(_), Type::List(_))
    );
    let (a, b) = if swap { (b, a) } else { (a, b) };
    let signed = |o: Ordering| if swap { o.reverse() } else { o };
    match (a, b) {
        (Type::Tuple(_) | Type::List(_), Type::Set(_))
        | (Type::List(_), Type::Tuple(_))
        | (Type::Map(_), Type::Object(_)) => signed(Less),
        (Type::Object(x), Type::Object(y)) => {
            if x.len() != y.len() {
                return Equal;
            }
            let mut pairs = Vec::with_capacity(x.len());
            for (name, xt, _) in x.iter() {
                let Some(yt) = y.attribute(name) else {
                    return Equal;
                };
                pairs.push((xt, yt));
            }
            signed(supertype(pairs))
        }
        (Type::Tuple(x), Type::Tuple(y)) if x.len() == y.len() => {
            signed(supertype(x.iter().zip(y.iter())))
        }
        _ => Equal,
    }
}

/// Which side is the supertype, comparing member by member: `Less` when only `a`'s
/// members are ever preferred, `Greater` when only `b`'s, `Equal` otherwise.
fn supertype<'t>(pairs: impl IntoIterator<Item = (&'t Type, &'t Type)>) -> Ordering {
    let (mut a_super, mut b_super) = (false, false);
    for (x, y) in pairs {
        match compare(x, y) {
            Ordering::Less => a_super = true,
            Ordering::Greater => b_super = true,
            Ordering::Equal => {}
        }
    }
    match (a_super, b_super) {
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => Ordering::Equal,
    }
}

/// go-cty's `unifyCollectionTypes`: collections of one kind unify to that kind of the
/// unified element types.
fn collections(
    kind: fn(Type) -> Type,
    types: &[Type],
    unsafe_: bool,
    has_dynamic: bool,
) -> Option<Type> {
    if has_dynamic {
        return Some(Type::Dynamic);
    }
    let elements: Vec<Type> = types
        .iter()
        .filter_map(|t| t.element_type().cloned())
        .collect();
    let unified = kind(unify(&elements, unsafe_)?);
    all_convert(types, &unified, unsafe_).then_some(unified)
}

/// go-cty's `unifyObjectTypes`: objects with the same attribute names unify attribute by
/// attribute; others as a map.
fn object_types(types: &[Type], unsafe_: bool, has_dynamic: bool) -> Option<Type> {
    if has_dynamic {
        return Some(Type::Dynamic);
    }
    let objects: Vec<_> = types.iter().filter_map(Type::as_object).collect();
    let first = objects.first()?;
    if objects[1..].iter().any(|o| o.names() != first.names()) {
        return objects_to_map(types, unsafe_);
    }
    let mut attributes = Vec::with_capacity(first.len());
    for (i, name) in first.names().iter().enumerate() {
        let across: Vec<Type> = objects.iter().map(|o| o.types()[i].clone()).collect();
        attributes.push((name, unify(&across, unsafe_)?));
    }
    let unified = Type::object(attributes);
    if all_convert(types, &unified, unsafe_) {
        Some(unified)
    } else {
        objects_to_map(types, unsafe_)
    }
}

/// go-cty's `unifyObjectTypesToMap`: a map of the unification of every attribute type.
fn objects_to_map(types: &[Type], unsafe_: bool) -> Option<Type> {
    let attributes: Vec<Type> = types
        .iter()
        .filter_map(Type::as_object)
        .flat_map(|o| o.types().iter().cloned())
        .collect();
    let unified = Type::map(unify(&attributes, unsafe_)?);
    all_convert(types, &unified, unsafe_).then_some(unified)
}

/// go-cty's `unifyTupleTypes`: tuples of one length unify element by element; others as
/// a list.
fn tuple_types(types: &[Type], unsafe_: bool, has_dynamic: bool) -> Option<Type> {
    if has_dynamic {
        return Some(Type::Dynamic);
    }
    let tuples: Vec<&[Type]> = types
        .iter()
        .filter_map(|t| match t {
            Type::Tuple(ts) => Some(&ts[..]),
            _ => None,
        })
        .collect();
    let first = tuples.first()?;
    if tuples[1..].iter().any(|t| t.len() != first.len()) {
        return tuples_to_list(types, unsafe_);
    }
    let mut elements = Vec::with_capacity(first.len());
    for i in 0..first.len() {
        let across: Vec<Type> = tuples.iter().map(|t| t[i].clone()).collect();
        elements.push(unify(&across, unsafe_)?);
    }
    let unified = Type::tuple(elements);
    if all_convert(types, &unified, unsafe_) {
        Some(unified)
    } else {
        tuples_to_list(types, unsafe_)
    }
}

/// go-cty's `unifyTupleTypesToList`: a list of the unification of every element type.
fn tuples_to_list(types: &[Type], unsafe_: bool) -> Option<Type> {
    let elements: Vec<Type> = types
        .iter()
        .filter_map(|t| match t {
            Type::Tuple(ts) => Some(ts.iter().cloned()),
            _ => None,
        })
        .flatten()
        .collect();
    let unified = Type::list(unify(&elements, unsafe_)?);
    all_convert(types, &unified, unsafe_).then_some(unified)
}

/// go-cty's `unifyTuplesAsList`: the tuples among lists unify to a list, which then
/// unifies with the lists.
fn tuples_as_list(types: &[Type], unsafe_: bool) -> Option<Type> {
    let tuples: Vec<Type> = types
        .iter()
        .filter(|t| matches!(t, Type::Tuple(_)))
        .cloned()
        .collect();
    let list = tuples_to_list(&tuples, unsafe_)?;
    let listed: Vec<Type> = types
        .iter()
        .map(|t| match t {
            Type::Tuple(_) => list.clone(),
            t => t.clone(),
        })
        .collect();
    unify(&listed, unsafe_).filter(|t| matches!(t, Type::List(_)))
}

/// go-cty's `unifyObjectsAsMaps`: the objects among maps unify to a map, which then
/// unifies with the maps.
fn objects_as_maps(types: &[Type], unsafe_: bool) -> Option<Type> {
    let objects: Vec<Type> = types
        .iter()
        .filter(|t| matches!(t, Type::Object(_)))
        .cloned()
        .collect();
    let map = objects_to_map(&objects, unsafe_)?;
    let mapped: Vec<Type> = types
        .iter()
        .map(|t| match t {
            Type::Object(_) => map.clone(),
            t => t.clone(),
        })
        .collect();
    unify(&mapped, unsafe_).filter(|t| matches!(t, Type::Map(_)))
}
