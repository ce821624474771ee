//! The `concat` function: one DynamicValue per argument, each variadic argument its own,
//! the `dynamic` parameter's argument wrapped with its type.

use ctywire::schema::Function;
use ctywire::{json, Error, ErrorKind, Value};
use ctywire_tfplugin::dynamic;
use ctywire_tfplugin::tfplugin6::DynamicValue;

/// The result of `concat` for `arguments`, or the index of the argument at fault (when
/// one is) and the error.
pub fn call(
    function: &Function,
    arguments: &[DynamicValue],
) -> Result<String, (Option<usize>, Error)> {
    if arguments.len() < function.parameters.len() {
        let message = format!(
            "expected at least {} arguments, found {}",
            function.parameters.len(),
            arguments.len()
        );
        return Err((None, Error::new(ErrorKind::InvalidValue, message)));
    }
    let mut values = Vec::with_capacity(arguments.len());
    for (i, argument) in arguments.iter().enumerate() {
        let Some(ty) = function.argument_type(i) else {
            return Err((
                Some(i),
                Error::new(ErrorKind::InvalidValue, "too many arguments"),
            ));
        };
        let value = dynamic::decode(Some(argument), ty).map_err(|e| (Some(i), e))?;
        values.push(value);
    }
    let separator = text(&values[0]).map_err(|e| (Some(0), e))?;
    let mut parts = Vec::with_capacity(values.len() - 1);
    for (i, value) in values.iter().enumerate().skip(1) {
        parts.push(text(value).map_err(|e| (Some(i), e))?);
    }
    Ok(parts.join(&separator))
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
