//! The function `concat(separator, first, parts...)`: `first` (any value, strings as
//! they are, others as JSON) and the parts, joined by the separator. `first` may be
//! unknown (the result is then unknown too); for the other parameters Terraform waits
//! until the arguments are known.

use ctywire::schema::DescriptionKind;
use ctywire::{json, Refinements, Type, Value};
use ctywire_provider::{Function, FunctionError, Variadic};

/// The function's name (`provider::demo::concat`).
pub const CONCAT: &str = "concat";

/// `provider::demo::concat`.
pub struct Concat;

impl Function for Concat {
    const NAME: &'static str = CONCAT;
    const SUMMARY: &'static str = "Joins values with a separator";
    const DESCRIPTION: &'static str = "Joins the first value (a string as it is, any other value as JSON) and the further strings with the separator.";
    const PARAMETERS: &'static [&'static str] = &["separator", "first", "parts"];
    type Arguments = (String, Value, Variadic<String>);
    /// A string, or an unknown string (not null) while `first` is unknown.
    type Output = Value;

    fn definition(mut f: ctywire::schema::Function) -> ctywire::schema::Function {
        f.description_kind = DescriptionKind::Plain;
        f.return_type = Type::String;
        f.parameters[0].description = "What goes between the parts.".into();
        f.parameters[1].description = "The first part: any value, known or not.".into();
        // Any value, unknown included, but not null.
        f.parameters[1].is_nullable = false;
        if let Some(parts) = &mut f.variadic_parameter {
            parts.description = "The further parts.".into();
        }
        f
    }

    async fn call(
        &self,
        (separator, first, parts): Self::Arguments,
    ) -> Result<Value, FunctionError> {
        if !first.is_wholly_known() {
            // Known to be a string, not null; what it starts with is not known.
            return Ok(Value::Unknown(Refinements::new().not_null()));
        }
        let first = text(&first).map_err(|e| e.argument(1))?;
        Ok(Value::from(
            std::iter::once(first)
                .chain(parts.0)
                .collect::<Vec<_>>()
                .join(&separator),
        ))
    }
}

/// The `dynamic` argument as text: a string as it is, anything else as JSON.
fn text(value: &Value) -> Result<String, FunctionError> {
    match value {
        Value::Typed(typed) => match &typed.value {
            Value::String(s) => Ok(s.to_string()),
            inner => json::encode(inner, &typed.ty)
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                .map_err(FunctionError::from),
        },
        Value::Null => Err(FunctionError::new("the argument is null")),
        other => Err(FunctionError::new(format!(
            "expected a typed value, found {other:?}"
        ))),
    }
}
