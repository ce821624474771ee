//! A function's typed parameters: a tuple of field types, one per parameter.

use ctywire::object::{FieldType, JsonField};
use ctywire::Type;
use ctywire_tfplugin::dynamic;
use ctywire_tfplugin::tfplugin6::DynamicValue;

use crate::error::FunctionError;

/// A function's parameters as a tuple: `(String,)`, `(String, u32)`, ... (up to six),
/// each element any field type of a derived struct (`String`, the integers, `bool`,
/// `Vec<T>`, a derived struct, [`ctywire::Value`] for `dynamic`, ...). Terraform checks
/// each argument against the parameter's type before the call; an argument the Rust
/// type cannot hold (a fraction for a `u32`) is an error about that argument.
pub trait Arguments: Sized + Send + 'static {
    /// How many parameters.
    const COUNT: usize;

    /// The parameters' cty types, in order.
    fn types() -> Vec<Type>;

    /// The arguments of a call.
    ///
    /// # Errors
    ///
    /// When there are not [`COUNT`](Arguments::COUNT) of them, or one does not decode.
    fn decode(arguments: &[DynamicValue]) -> Result<Self, FunctionError>;
}

fn argument<T: JsonField>(arguments: &[DynamicValue], index: usize) -> Result<T, FunctionError> {
    dynamic::decode_object(arguments.get(index)).map_err(|e| {
        let at = e.path().to_string();
        let text = if at.is_empty() {
            e.to_string()
        } else {
            format!("argument {}: {e}", index + 1)
        };
        FunctionError::new(text).argument(index)
    })
}

macro_rules! tuple_arguments {
    ($count:expr; $($t:ident $i:tt),*) => {
        impl<$($t: FieldType + JsonField + Send + 'static),*> Arguments for ($($t,)*) {
            const COUNT: usize = $count;

            fn types() -> Vec<Type> {
                vec![$(<$t as FieldType>::cty_type()),*]
            }

            #[allow(unused_variables)]
            fn decode(arguments: &[DynamicValue]) -> Result<Self, FunctionError> {
                if arguments.len() != $count {
                    return Err(FunctionError::new(format!(
                        "expected {} arguments, got {}",
                        $count,
                        arguments.len()
                    )));
                }
                Ok(($(argument::<$t>(arguments, $i)?,)*))
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
