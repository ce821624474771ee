//! The proposed new state (Terraform's `ProposedNew`).

use super::cty::{self, Nested, Next, Refined};
use super::Client;
use crate::path::PathStep;
use crate::schema::NestedType;
use crate::schema::{attribute_of, Attribute, AttributeNesting, Block, BlockNesting, NestedBlock};
use crate::types::Type;
use crate::value::Value;

/// How ProposedNew is computed: the client's rules, and whether the client's crashes
/// are reported (else the value is computed past them, as if the client took the
/// input).
#[derive(Clone, Copy, Debug)]
pub(super) struct Mode {
    pub(super) client: Client,
    pub(super) crashes: bool,
}

impl Mode {
    fn is_opentofu(self) -> bool {
        self.client.is_opentofu()
    }
}

pub(super) fn proposed(
    block: &Block,
    prior: &Value,
    config: &Value,
    client: Mode,
) -> Result<Value, Crash> {
    let ty = block.implied_type();
    let prior = cty::with_pushed_types(prior, &ty);
    let config = cty::with_pushed_types(config, &ty);
    proposed_new(block, &prior, &config, client)
}

/// Where and why the client crashes computing ProposedNew: the steps from the crash up
/// to the root (innermost first), what in the value it cannot take and Go's panic.
#[derive(Debug)]
pub(super) struct Crash {
    pub(super) steps: Vec<PathStep>,
    pub(super) why: &'static str,
    pub(super) panic: &'static str,
}

/// `result` with `step` added to the path of its crash, if it is one.
fn at<T>(step: impl FnOnce() -> PathStep, result: Result<T, Crash>) -> Result<T, Crash> {
    result.map_err(|mut crash| {
        crash.steps.push(step());
        crash
    })
}

/// `ProposedNew`: a null prior stands for the block's empty value, unless the
/// configuration is null too.
fn proposed_new(
    block: &Block,
    prior: &Value,
    config: &Value,
    client: Mode,
) -> Result<Value, Crash> {
    if prior.is_null() {
        if config.is_null() {
            return Ok(prior.clone());
        }
        return proposed_block(block, &block.empty_value(), config, client);
    }
    proposed_block(block, prior, config, client)
}

fn proposed_block(
    block: &Block,
    prior: &Value,
    config: &Value,
    client: Mode,
) -> Result<Value, Crash> {
    if config.is_null() || config.is_unknown() {
        return Ok(prior.clone());
    }
    let mut attributes = proposed_attributes(&block.attributes, prior, config, client)?;
    for (name, nested) in block.unshadowed_block_types() {
        let prior_v = attribute_or_unknown(prior, name);
        let config_v = attribute_of(config, name);
        let new = proposed_nested_block(nested, &prior_v, config_v, client);
        attributes.push((name, at(|| PathStep::Attribute(name.to_owned()), new)?));
    }
    Ok(Value::object(attributes))
}

/// Attribute `name` of `value`: unknown when `value` is (as go-cty's `GetAttr`), of the
/// attribute's type where the unknown object records its type.
fn attribute_or_unknown(value: &Value, name: &str) -> Value {
    if value.is_unknown() {
        match value {
            Value::Typed(t) => match cty::attribute_type(&t.ty, name) {
                Type::Dynamic => Value::unknown(),
                ty => Value::typed(ty, Value::unknown()),
            },
            _ => Value::unknown(),
        }
    } else {
        attribute_of(value, name).clone()
    }
}

fn proposed_nested_block(
    nested: &NestedBlock,
    prior: &Value,
    config: &Value,
    client: Mode,
) -> Result<Value, Crash> {
    if config.is_unknown() {
        return Ok(config.clone());
    }
    let schema = Nested::Block(&nested.block);
    match nested.nesting {
        BlockNesting::Single if config.is_null() => Ok(config.clone()),
        BlockNesting::Single | BlockNesting::Group => {
            proposed_new(&nested.block, prior, config, client)
        }
        // A LIST of blocks that hold `dynamic` types is a tuple of any type: a wholly
        // unknown prior has no element type then.
        BlockNesting::List
            if client.crashes
                && prior.is_unknown()
                && matches!(nested.implied_type(), Type::Dynamic)
                && config.as_slice().is_some_and(|elements| {
                    elements.iter().any(|e| !e.is_null() && !e.is_unknown())
                }) =>
        {
            let at = config
                .as_slice()
                .and_then(|elements| {
                    elements
                        .iter()
                        .position(|e| !e.is_null() && !e.is_unknown())
                })
                .unwrap_or(0);
            Err(Crash {
                steps: vec![PathStep::Index(at as u64)],
                why: "a configured block of a LIST block holding `dynamic` types, where the \
                      prior state is unknown (a value of no type, not an object)",
                panic: "ProposedNew only supports object-typed values",
            })
        }
        BlockNesting::List => proposed_list(schema, prior, config, client),
        BlockNesting::Map => proposed_map(schema, prior, config, client),
        BlockNesting::Set => proposed_set(schema, prior, config, client),
    }
}

fn proposed_nested_type(
    nested: &NestedType,
    prior: &Value,
    config: &Value,
    client: Mode,
) -> Result<Value, Crash> {
    if config.is_unknown() {
        return Ok(config.clone());
    }
    let schema = Nested::Object(nested);
    match nested.nesting {
        AttributeNesting::Single => proposed_object(nested, prior, config, client),
        AttributeNesting::List => proposed_list(schema, prior, config, client),
        AttributeNesting::Map => proposed_map(schema, prior, config, client),
        AttributeNesting::Set => proposed_set(schema, prior, config, client),
    }
}

/// One block or nested object, by its schema.
fn proposed_one(
    schema: Nested<'_>,
    prior: &Value,
    config: &Value,
    client: Mode,
) -> Result<Value, Crash> {
    match schema {
        Nested::Block(block) => proposed_new(block, prior, config, client),
        Nested::Object(object) => proposed_object(object, prior, config, client),
    }
}

fn proposed_object(
    object: &NestedType,
    prior: &Value,
    config: &Value,
    client: Mode,
) -> Result<Value, Crash> {
    if config.is_null() {
        return Ok(config.clone());
    }
    Ok(Value::object(proposed_attributes(
        &object.attributes,
        prior,
        config,
        client,
    )?))
}

/// Elements matched by index. An element with no prior counterpart is taken from the
/// configuration as it is.
fn proposed_list(
    schema: Nested<'_>,
    prior: &Value,
    config: &Value,
    client: Mode,
) -> Result<Value, Crash> {
    let Some(elements) = config.as_slice().filter(|e| !e.is_empty()) else {
        return Ok(config.clone());
    };
    let new = elements
        .iter()
        .enumerate()
        .map(|(i, config_e)| {
            let new = if prior.is_unknown() {
                proposed_one(schema, &Value::unknown(), config_e, client)
            } else {
                match prior.get_index(i) {
                    Some(prior_e) if !prior.is_null() => {
                        proposed_one(schema, prior_e, config_e, client)
                    }
                    _ => Ok(config_e.clone()),
                }
            };
            at(|| PathStep::Index(i as u64), new)
        })
        .collect::<Result<Vec<Value>, Crash>>()?;
    Ok(match config.untyped() {
        Value::Tuple(_) => retyped(config, Value::tuple(new), schema),
        _ => Value::list(new),
    })
}

/// Elements matched by key; a key with no prior counterpart has a null prior (unknown
/// when the whole prior is unknown). OpenTofu takes the configured element (of blocks
/// and nested attributes alike) as it is where the prior has no such key.
fn proposed_map(
    schema: Nested<'_>,
    prior: &Value,
    config: &Value,
    client: Mode,
) -> Result<Value, Crash> {
    let entries: Vec<(&str, &Value)> = match config.untyped() {
        Value::Map(m) => m.iter().collect(),
        Value::Object(o) => o.iter().collect(),
        _ => return Ok(config.clone()),
    };
    if entries.is_empty() {
        return Ok(config.clone());
    }
    let new = entries
        .into_iter()
        .map(|(key, config_e)| {
            let prior_e = if prior.is_unknown() {
                Value::unknown()
            } else {
                prior.get(key).cloned().unwrap_or(Value::Null)
            };
            // OpenTofu takes the configured element as it is where the prior (null,
            // unknown or without the key) has none.
            if client.is_opentofu() && (prior.is_unknown() || prior.get(key).is_none()) {
                return Ok((key, config_e.clone()));
            }
            let new = proposed_one(schema, &prior_e, config_e, client);
            Ok((key, at(|| PathStep::Key(key.to_owned()), new)?))
        })
        .collect::<Result<Vec<(&str, Value)>, Crash>>()?;
    Ok(match config.untyped() {
        Value::Object(_) => retyped(config, Value::object(new), schema),
        _ => Value::map(new),
    })
}

/// Each configured element with the first prior element not yet taken that could have
/// come from it ([`valid_prior_from_config`]), or a null prior.
fn proposed_set(
    schema: Nested<'_>,
    prior: &Value,
    config: &Value,
    client: Mode,
) -> Result<Value, Crash> {
    let Some(elements) = config.as_slice().filter(|e| !e.is_empty()) else {
        return Ok(config.clone());
    };
    if !matches!(config.untyped(), Value::Set(_)) {
        return Ok(config.clone());
    }
    let priors: &[Value] = if prior.is_unknown() {
        &[]
    } else {
        prior.as_slice().unwrap_or(&[])
    };
    let mut used = vec![false; priors.len()];
    let object_type = schema.object_type();
    let new = elements.iter().map(|config_e| {
        let found = priors.iter().enumerate().find(|(i, prior_e)| {
            !used[*i] && valid_prior_from_config(schema, prior_e, config_e, &object_type)
        });
        let new = match found {
            Some((i, prior_e)) => {
                used[i] = true;
                proposed_one(schema, prior_e, config_e, client)
            }
            None => proposed_one(schema, &Value::Null, config_e, client),
        };
        at(|| PathStep::SetElement(config_e.clone()), new)
    });
    Ok(Value::set(new.collect::<Result<Vec<_>, Crash>>()?))
}

/// The tuple or object of blocks (of a `dynamic` LIST or MAP block) `value`, with its
/// concrete type recorded when `like`, the configuration, had one: the type each block's
/// schema gives, with what the values say where it is `dynamic`.
fn retyped(like: &Value, value: Value, schema: Nested<'_>) -> Value {
    if !matches!(like, Value::Typed(_)) {
        return value;
    }
    let element = schema.object_type();
    let structural = match &value {
        Value::Tuple(vs) => Type::tuple(vs.iter().map(|_| element.clone())),
        Value::Object(o) => Type::object(o.names().iter().map(|n| (n, element.clone()))),
        _ => return value,
    };
    match crate::value::conform::concrete_type(&value, &structural) {
        Ok(ty) => Value::typed(ty, value),
        Err(_) => value,
    }
}

fn proposed_attributes<'s>(
    attributes: &'s std::collections::BTreeMap<String, Attribute>,
    prior: &Value,
    config: &Value,
    client: Mode,
) -> Result<Vec<(&'s str, Value)>, Crash> {
    attributes
        .iter()
        .map(|(name, attribute)| {
            let prior_v = if prior.is_null() {
                Value::Null
            } else {
                attribute_or_unknown(prior, name)
            };
            // An unknown object (an unknown element of a nested attribute collection)
            // has every attribute unknown, as go-cty's `GetAttr` gives them.
            let config_v = &attribute_or_unknown(config, name);
            let new = if attribute.computed && config_v.is_null() {
                if optional_value_not_computable(attribute, &prior_v) {
                    config_v.clone()
                } else {
                    prior_v
                }
            } else if let Some(nested) = &attribute.nested_type {
                let new = proposed_nested_type(nested, &prior_v, config_v, client);
                at(|| PathStep::Attribute(name.clone()), new)?
            } else {
                config_v.clone()
            };
            Ok((name.as_str(), new))
        })
        .collect()
}

/// Whether the prior value of an optional nested attribute holds a non-null attribute
/// that is not computed, so that it must have come from configuration: then a null
/// configuration means "remove it", not "keep the computed value".
fn optional_value_not_computable(attribute: &Attribute, value: &Value) -> bool {
    let Some(nested) = attribute
        .nested_type
        .as_ref()
        .filter(|_| attribute.optional)
    else {
        return false;
    };
    let mut found = false;
    cty::walk(
        value,
        &nested.implied_type(),
        &mut Vec::new(),
        &mut |path, v, _| {
            if v.is_null() {
                return Next::Descend;
            }
            match Nested::Object(nested).attribute_by_path(path) {
                Some(a) if !a.computed => {
                    found = true;
                    Next::Stop
                }
                _ => Next::Descend,
            }
        },
    );
    found
}

/// Terraform's `validPriorFromConfig`: whether the prior element could have been made
/// from the configured one: equal (refinements aside), or differing only in computed
/// attributes that the configuration leaves null, never inside a nested set.
fn valid_prior_from_config(schema: Nested<'_>, prior: &Value, config: &Value, ty: &Type) -> bool {
    if cty::raw_equal(config, prior, ty, Refined::Ignore) {
        return true;
    }
    let mut valid = true;
    cty::walk(prior, ty, &mut Vec::new(), &mut |path, prior_v, t| {
        let Some((config_v, _)) = cty::apply(config, ty, path) else {
            valid = false;
            return Next::Stop;
        };
        if cty::raw_equal(&config_v, prior_v, t, Refined::Ignore) {
            return Next::Skip;
        }
        if cty::is_set(&config_v, t) {
            valid = false;
            return Next::Stop;
        }
        let Some(attribute) = schema.attribute_by_path(path) else {
            return Next::Descend;
        };
        if attribute.nested_type.is_some() {
            return Next::Descend;
        }
        if !attribute.computed || !config_v.is_null() {
            valid = false;
            return Next::Stop;
        }
        Next::Skip
    });
    valid
}
