//! The `concat` function: one DynamicValue per argument, each variadic argument its own,
//! the `dynamic` parameter's argument wrapped with its type; an unknown where the
//! parameter allows one makes the result unknown.

use ctywire::schema::{Function, Parameter};
use ctywire::{json, Error, ErrorKind, Refinements, Value};
use ctywire_tfplugin::dynamic;
use ctywire_tfplugin::tfplugin6::DynamicValue;

/// The result of `concat` for `arguments` (a string, or an unknown string when an
/// argument that may be unknown is), or the index of the argument at fault (when one is)
/// and the error.
pub fn call(
    function: &Function,
    arguments: &[DynamicValue],
) -> Result<Value, (Option<usize>, Error)> {
    if arguments.len() < function.parameters.len() {
        let message = format!(
            "expected at least {} arguments, found {}",
            function.parameters.len(),
            arguments.len()
        );
        return Err((None, Error::new(ErrorKind::InvalidValue, message)));
    }
    let mut values = Vec::with_capacity(arguments.len());
    let mut unknown = false;
    for (i, argument) in arguments.iter().enumerate() {
        let Some(parameter) = parameter(function, i) else {
            return Err((
                Some(i),
                Error::new(ErrorKind::InvalidValue, "too many arguments"),
            ));
        };
        let value = dynamic::decode(Some(argument), &parameter.ty).map_err(|e| (Some(i), e))?;
        if !value.is_wholly_known() {
            if !parameter.allow_unknown_values {
                let message = format!("{} must be known", parameter.name);
                return Err((Some(i), Error::new(ErrorKind::InvalidValue, message)));
            }
            unknown = true;
        }
        values.push(value);
    }
    if unknown {
        // Known to be a string, not null; what it starts with is not known when `first`
        // is the unknown part.
        return Ok(Value::Unknown(Refinements::new().not_null()));
    }
    let separator = text(&values[0]).map_err(|e| (Some(0), e))?;
    let mut parts = Vec::with_capacity(values.len() - 1);
    for (i, value) in values.iter().enumerate().skip(1) {
        parts.push(text(value).map_err(|e| (Some(i), e))?);
    }
    Ok(Value::from(parts.join(&separator)))
}

/// The parameter that takes argument `index`: a positional one, then the variadic one.
fn parameter(function: &Function, index: usize) -> Option<&Parameter> {
    function
        .parameters
        .get(index)
        .or(function.variadic_parameter.as_ref())
}

/// A value as text: a string as it is, a number in its text form, anything else (the
/// `dynamic` argument's value) as JSON.
fn text(value: &Value) -> Result<String, Error> {
    match value {
        Value::Null => Err(Error::new(ErrorKind::InvalidValue, "the argument is null")),
        Value::Unknown(_) => Err(Error::new(
            ErrorKind::InvalidValue,
            "the argument is unknown",
        )),
        Value::String(s) => Ok(s.to_string()),
        Value::Typed(typed) => match &typed.value {
            Value::String(s) => Ok(s.to_string()),
            inner => json::encode(inner, &typed.ty)
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
        },
        other => Err(Error::new(
            ErrorKind::TypeMismatch,
            format!("expected a string, found {other:?}"),
        )),
    }
}
