//! go-cty's `MismatchMessage`: why a type cannot be converted to another, in words.

use crate::types::Type;

use super::rules::available;

pub(super) use crate::text::go_quote as quoted;

/// Why `got` does not convert to `want`: go-cty's `MismatchMessage`, word for word.
pub(crate) fn mismatch_message(got: &Type, want: &Type) -> String {
    let dynamic_element = want.element_type() == Some(&Type::Dynamic);
    match (got, want) {
        (Type::Object(_), Type::Object(_)) => objects(got, want),
        (Type::Tuple(_), Type::List(_)) if dynamic_element => {
            "all list elements must have the same type".to_owned()
        }
        (Type::Tuple(_), Type::Set(_)) if dynamic_element => {
            "all set elements must have the same type".to_owned()
        }
        (Type::Object(_), Type::Map(_)) if dynamic_element => {
            "all map elements must have the same type".to_owned()
        }
        (Type::Tuple(_) | Type::Object(_), _) if want.is_collection() => {
            collection_from_structural(got, want)
        }
        _ if got.is_collection() && want.is_collection() => collection_from_collection(got, want),
        _ if !likely_to_confuse(got, want) => format!(
            "{} required, but have {}",
            want.friendly_name(),
            got.friendly_name()
        ),
        _ => required(want),
    }
}

/// "`want` required", naming `want` as a constraint.
fn required(want: &Type) -> String {
    format!("{} required", want.friendly_name_for_constraint())
}

fn objects(got: &Type, want: &Type) -> String {
    let (Type::Object(g), Type::Object(w)) = (got, want) else {
        return required(want);
    };
    let mut missing = Vec::new();
    let mut unsafe_mismatch = None;
    let mut safe_mismatch = None;
    for (name, wt, optional) in w.iter() {
        let Some(gt) = g.attribute(name) else {
            if !optional {
                missing.push(quoted(name));
            }
            continue;
        };
        if gt == wt {
            continue;
        }
        if unsafe_mismatch.is_some() {
            continue;
        }
        let message = || format!("attribute {}: {}", quoted(name), mismatch_message(gt, wt));
        if !available(gt, wt, true) {
            unsafe_mismatch = Some(message());
        }
        if safe_mismatch.is_none() && !available(gt, wt, false) {
            safe_mismatch = Some(message());
        }
    }
    match missing.len() {
        0 => {}
        1 => return format!("attribute {} is required", missing[0]),
        2 => return format!("attributes {} and {} are required", missing[0], missing[1]),
        n => {
            let first = missing[..n - 1].join(", ");
            return format!("attributes {first}, and {} are required", missing[n - 1]);
        }
    }
    unsafe_mismatch
        .or(safe_mismatch)
        .unwrap_or_else(|| "incorrect object attributes".to_owned())
}

fn collection_from_structural(got: &Type, want: &Type) -> String {
    let want_element = want.element_type().unwrap_or(&Type::Dynamic);
    match (got, want) {
        (Type::Tuple(ts), Type::List(_) | Type::Set(_)) => {
            for (i, t) in ts.iter().enumerate() {
                if t != want_element && !available(t, want_element, true) {
                    return format!("element {i}: {}", mismatch_message(t, want_element));
                }
            }
        }
        (Type::Object(o), Type::Map(_)) => {
            for (name, t, _) in o.iter() {
                if t != want_element && !available(t, want_element, true) {
                    return format!(
                        "element {}: {}",
                        quoted(name),
                        mismatch_message(t, want_element)
                    );
                }
            }
        }
        _ => return required(want),
    }
    format!(
        "all elements must be {}",
        want_element.friendly_name_for_constraint()
    )
}

fn collection_from_collection(got: &Type, want: &Type) -> String {
    let (noun, kinds_match) = match want {
        Type::List(_) => ("list", matches!(got, Type::List(_) | Type::Set(_))),
        Type::Set(_) => ("set", matches!(got, Type::List(_) | Type::Set(_))),
        _ => ("map", matches!(got, Type::Map(_))),
    };
    match (got.element_type(), want.element_type()) {
        (Some(ge), Some(we)) if kinds_match => format!(
            "incorrect {noun} element type: {}",
            mismatch_message(ge, we)
        ),
        _ => required(want),
    }
}

/// go-cty's `typesAreLikelyToCauseConfusion`: whether naming both types would mislead
/// (then only the wanted type is named).
fn likely_to_confuse(got: &Type, want: &Type) -> bool {
    if got.is_primitive() != want.is_primitive() || *want == Type::String {
        return false;
    }
    if matches!(
        (got, want),
        (Type::Number, Type::Bool) | (Type::Bool, Type::Number)
    ) {
        return false;
    }
    if let (Some(ge), Some(we)) = (got.element_type(), want.element_type()) {
        if !ge.has_dynamic() && we.has_dynamic() {
            return false;
        }
    }
    // go-cty's last test reads `got is tuple and want is object, or got is object and
    // got is tuple`: the second half is never true.
    !matches!((got, want), (Type::Tuple(_), Type::Object(_)))
}
