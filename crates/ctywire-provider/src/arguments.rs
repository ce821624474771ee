//! A function's typed parameters: a tuple of parameter types, one per parameter, the
//! last of which may be [`Variadic`].

use ctywire::object::{self, FieldType, JsonField, MsgpackField};
use ctywire::schema;
use ctywire::{Type, Value};
use ctywire_tfplugin::dynamic;
use ctywire_tfplugin::tfplugin6::DynamicValue;

use crate::error::FunctionError;

/// The type of one parameter of a [`Function`](crate::Function): any field type of a
/// derived struct (`String`, the integers, `bool`, `Vec<T>`, a derived struct,
/// [`ctywire::Value`] for `dynamic`, ...), or [`Variadic`] as the last one.
///
/// What Terraform may pass follows from the type: a type that can hold null
/// (`Option<String>`) takes a null argument (`allow_null_value`), and one that can hold
/// an unknown (`Known<String>`, which holds null too, or `Value`) takes an unknown one
/// during plan (`allow_unknown_values`), checked at its top level; for any other,
/// Terraform refuses a null argument itself and does not call the function while the
/// argument is not wholly known (the result is then unknown). A function that takes
/// unknowns returns an unknown (`Known<T>` as its output) where the result depends on
/// them: Terraform takes a known result during plan as final.
pub trait ParameterType: Sized + Send + 'static {
    /// Whether this is the variadic tail ([`Variadic`]).
    const VARIADIC: bool = false;

    /// The parameter as Terraform sees it, named `name` (the element's, for
    /// [`Variadic`]).
    fn parameter(name: &str) -> schema::Parameter;

    /// The arguments from `index` on that this parameter takes, decoded (one, or every
    /// one left for [`Variadic`]).
    ///
    /// # Errors
    ///
    /// When an argument does not decode, about that argument.
    fn decode(arguments: &[DynamicValue], index: usize) -> Result<Self, FunctionError>;
}

fn parameter_of<T: FieldType + MsgpackField>(name: &str) -> schema::Parameter {
    let mut parameter = schema::Parameter::new(name, T::cty_type());
    parameter.is_nullable = object::from_value::<T>(&Value::Null).is_ok();
    parameter.allow_unknown_values = object::from_value::<T>(&Value::unknown()).is_ok();
    parameter
}

/// Argument `index` decoded; an error names the argument's position in the call when
/// `numbered` (Terraform names the parameter, which a variadic one shares), and the
/// path in it.
fn argument<T: JsonField>(
    arguments: &[DynamicValue],
    index: usize,
    numbered: bool,
) -> Result<T, FunctionError> {
    let Some(argument) = arguments.get(index) else {
        return Err(
            FunctionError::new(format!("argument {} is missing", index + 1)).argument(index),
        );
    };
    dynamic::decode_object(Some(argument)).map_err(|e| {
        let at = e.path().to_string();
        let mut text = if at.is_empty() {
            e.message().to_string()
        } else {
            format!("{at}: {}", e.message())
        };
        if numbered {
            text = format!("argument {}: {text}", index + 1);
        }
        FunctionError::new(text).argument(index)
    })
}

impl<T: FieldType + JsonField + MsgpackField + Send + 'static> ParameterType for T {
    fn parameter(name: &str) -> schema::Parameter {
        parameter_of::<T>(name)
    }

    fn decode(arguments: &[DynamicValue], index: usize) -> Result<T, FunctionError> {
        argument(arguments, index, false)
    }
}

/// The last parameter of a function that takes any number of arguments (zero or more)
/// of type `T`: Terraform's variadic parameter. Each argument is checked on its own,
/// and an error about one names its position in the call.
///
/// ```
/// use ctywire_provider::{Function, FunctionError, Variadic};
///
/// /// `join("-", "a", "b")` is `"a-b"`.
/// struct Join;
///
/// impl Function for Join {
///     const NAME: &'static str = "join";
///     const PARAMETERS: &'static [&'static str] = &["separator", "parts"];
///     type Arguments = (String, Variadic<String>);
///     type Output = String;
///
///     async fn call(&self, (separator, parts): Self::Arguments) -> Result<String, FunctionError> {
///         Ok(parts.0.join(&separator))
///     }
/// }
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variadic<T>(pub Vec<T>);

impl<T: FieldType + JsonField + MsgpackField + Send + 'static> ParameterType for Variadic<T> {
    const VARIADIC: bool = true;

    fn parameter(name: &str) -> schema::Parameter {
        parameter_of::<T>(name)
    }

    fn decode(arguments: &[DynamicValue], index: usize) -> Result<Variadic<T>, FunctionError> {
        (index..arguments.len())
            .map(|i| argument(arguments, i, true))
            .collect::<Result<Vec<T>, _>>()
            .map(Variadic)
    }
}

/// A function's parameters as a tuple: `(String,)`, `(String, u32)`, ... (up to six),
/// each element a [`ParameterType`], the last one possibly [`Variadic`]. Terraform
/// checks each argument against the parameter's type before the call; an argument the
/// Rust type cannot hold (a fraction for a `u32`) is an error about that argument.
pub trait Arguments: Sized + Send + 'static {
    /// How many parameters, the variadic one included.
    const COUNT: usize;

    /// The parameters' cty types, in order (the variadic one's element type last).
    fn types() -> Vec<Type> {
        let (mut parameters, variadic) = Self::parameters(&[]);
        parameters.extend(variadic);
        parameters.into_iter().map(|p| p.ty).collect()
    }

    /// The parameters as Terraform sees them, named by `names` in order (unnamed past
    /// its end): the positional ones, and the variadic one.
    ///
    /// # Panics
    ///
    /// When a [`Variadic`] parameter is not the last.
    fn parameters(names: &[&str]) -> (Vec<schema::Parameter>, Option<schema::Parameter>);

    /// The arguments of a call.
    ///
    /// # Errors
    ///
    /// When there are not as many as the parameters take, or one does not decode.
    fn decode(arguments: &[DynamicValue]) -> Result<Self, FunctionError>;
}

macro_rules! tuple_arguments {
    ($count:expr; $($t:ident $i:tt),*) => {
        impl<$($t: ParameterType),*> Arguments for ($($t,)*) {
            const COUNT: usize = $count;

            #[allow(unused_mut, unused_variables)]
            fn parameters(names: &[&str]) -> (Vec<schema::Parameter>, Option<schema::Parameter>) {
                let mut positional = Vec::new();
                let mut variadic = None;
                $(
                    let parameter = $t::parameter(names.get($i).copied().unwrap_or_default());
                    if $t::VARIADIC {
                        assert!($i + 1 == $count, "a Variadic parameter is the last one");
                        variadic = Some(parameter);
                    } else {
                        positional.push(parameter);
                    }
                )*
                (positional, variadic)
            }

            #[allow(unused_variables)]
            fn decode(arguments: &[DynamicValue]) -> Result<Self, FunctionError> {
                let variadic = false $(|| $t::VARIADIC)*;
                let positional = if variadic { $count - 1 } else { $count };
                if arguments.len() < positional || (!variadic && arguments.len() > positional) {
                    return Err(FunctionError::new(format!(
                        "expected {}{positional} arguments, got {}",
                        if variadic { "at least " } else { "" },
                        arguments.len()
                    )));
                }
                Ok(($($t::decode(arguments, $i)?,)*))
            }
        }
    };
}

tuple_arguments!(0;);
tuple_arguments!(1; A 0);
tuple_arguments!(2; A 0, B 1);
tuple_arguments!(3; A 0, B 1, C 2);
tuple_arguments!(4; A 0, B 1, C 2, D 3);
tuple_arguments!(5; A 0, B 1, C 2, D 3, E 4);
tuple_arguments!(6; A 0, B 1, C 2, D 3, E 4, F 5);
