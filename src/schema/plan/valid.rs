//! Whether a planned state is a valid plan (Terraform's `AssertPlanValid`).

use std::collections::BTreeMap;
use std::sync::LazyLock;

use super::cty::{self, Length, Refined};
use super::{Check, Client, Findings, Inconsistency, Rule, Rules, Step};
use crate::schema::{
    attribute_of, Attribute, AttributeNesting, Block, BlockNesting, NestedBlock, NestedType,
};
use crate::text::go_quote;
use crate::types::Type;
use crate::value::Value;

static NULL: Value = Value::Null;
static UNKNOWN: LazyLock<Value> = LazyLock::new(Value::unknown);

/// Attribute `name` of an object value: unknown when the value is (go-cty's `GetAttr`),
/// null when it has none.
pub(super) fn get<'a>(value: &'a Value, name: &str) -> &'a Value {
    if value.is_unknown() {
        &UNKNOWN
    } else {
        attribute_of(value, name)
    }
}

/// Attribute `name` of `value`, or null when `value` is null.
fn get_or_null<'a>(value: &'a Value, name: &str) -> &'a Value {
    if value.is_null() {
        &NULL
    } else {
        get(value, name)
    }
}

pub(super) fn check_plan(
    block: &Block,
    prior: &Value,
    config: &Value,
    planned: &Value,
    rules: Rules,
) -> Vec<Inconsistency> {
    let ty = block.implied_type();
    let prior = cty::with_pushed_types(prior, &ty);
    let config = cty::with_pushed_types(config, &ty);
    let planned = cty::with_pushed_types(planned, &ty);
    let mut f = Findings::new(Check::Plan, rules);
    plan_block(&mut f, block, &prior, &config, &planned);
    f.into_found()
}

fn plan_block<'a>(
    f: &mut Findings<'a>,
    block: &'a Block,
    prior: &'a Value,
    config: &'a Value,
    planned: &'a Value,
) {
    if absence(f, config, planned) {
        return;
    }
    plan_attributes(f, &block.attributes, prior, config, planned);
    for (name, nested) in block.unshadowed_block_types() {
        let planned_v = get(planned, name);
        let config_v = get(config, name);
        let prior_v = get_or_null(prior, name);
        f.within(Step::Attribute(name), |f| {
            plan_nested_block(f, nested, prior_v, config_v, planned_v)
        });
    }
}

/// The null checks of a block or nested object; true when there is nothing more to
/// check.
fn absence(f: &mut Findings<'_>, config: &Value, planned: &Value) -> bool {
    if planned.is_null() && !config.is_null() {
        f.report(Rule::PlannedAbsent, |_| {
            "planned for absence but config wants existence".into()
        });
        return true;
    }
    if config.is_null() && !planned.is_null() {
        f.report(Rule::PlannedPresent, |_| {
            "planned for existence but config wants absence".into()
        });
        return true;
    }
    planned.is_null()
}

fn plan_nested_block<'a>(
    f: &mut Findings<'a>,
    nested: &'a NestedBlock,
    prior: &'a Value,
    config: &'a Value,
    planned: &'a Value,
) {
    let mode = nested.nesting.as_str();
    let null_collection = |f: &mut Findings<'a>| {
        f.report(Rule::NullBlockCollection, |_| {
            format!("attribute representing a {mode} of nested blocks must be empty to indicate no blocks, not null")
        });
    };
    // Terraform 1.16 refuses a null collection of blocks first; the others only after
    // comparing it with the configuration, and a null GROUP block as a block. (Under
    // the strictest rules, 1.16's: past here, a null block is a SINGLE one, which every
    // client takes alike.)
    let as_1_16 = f.rules.any(Client::blocks_as_1_16);
    if as_1_16 && nested.nesting != BlockNesting::Single && planned.is_null() {
        null_collection(f);
        return;
    }
    let ty = nested.implied_type();
    if cty::raw_equal(planned, config, &ty, Refined::Compare) {
        return;
    }
    if config.is_unknown() {
        // (Terraform prints the planned blocks, sensitive values included; not here.)
        let hide = super::marks::blocks_reveal_sensitive(nested, planned);
        f.report(Rule::UnknownDynamicBlockChanged, |p| {
            let shown = if hide {
                "(sensitive value)".to_owned()
            } else {
                p(planned, &ty)
            };
            format!("planned value {shown} for unknown dynamic block")
        });
        return;
    }
    if planned.is_unknown() {
        f.report(Rule::UnknownBlock, |_| {
            if as_1_16 {
                "planned unknown value for non-computed block".into()
            } else {
                "attribute representing nested block must not be unknown itself; set nested attribute values to unknown instead".into()
            }
        });
        return;
    }
    if !as_1_16
        && !matches!(nested.nesting, BlockNesting::Single | BlockNesting::Group)
        && planned.is_null()
    {
        null_collection(f);
        return;
    }
    let block = &nested.block;
    match nested.nesting {
        BlockNesting::Single | BlockNesting::Group => plan_block(f, block, prior, config, planned),
        BlockNesting::List => {
            // A null configuration (from a legacy provider, through ignore_changes) counts
            // as no blocks.
            let config_elements = config.as_slice().unwrap_or(&[]);
            let planned_elements = planned.as_slice().unwrap_or(&[]);
            if planned_elements.len() != config_elements.len() {
                let (p, c) = (planned_elements.len(), config_elements.len());
                f.report(Rule::BlockCount, |_| {
                    format!("block count in plan ({p}) disagrees with count in config ({c})")
                });
                return;
            }
            for (i, (planned_e, config_e)) in
                planned_elements.iter().zip(config_elements).enumerate()
            {
                f.within(Step::Index(i), |f| {
                    if planned_e.is_unknown() {
                        unknown_block_element(f);
                        return;
                    }
                    let prior_e = if prior.is_null() {
                        &NULL
                    } else {
                        prior.get_index(i).unwrap_or(&NULL)
                    };
                    plan_block(f, block, prior_e, config_e, planned_e);
                });
            }
        }
        BlockNesting::Map => plan_block_map(f, block, prior, config, planned),
        BlockNesting::Set => {
            for planned_e in planned.as_slice().unwrap_or(&[]) {
                if planned_e.is_unknown() {
                    f.within(Step::Element(planned_e), unknown_block_element);
                }
            }
        }
    }
}

fn unknown_block_element(f: &mut Findings<'_>) {
    f.report(Rule::UnknownBlockElement, |_| {
        "element representing nested block must not be unknown itself; set nested attribute values to unknown instead".into()
    });
}

/// The entries of a known map, or of an object (the blocks of a `dynamic` MAP block);
/// none for anything else.
fn entries(value: &Value) -> Vec<(&str, &Value)> {
    match value.untyped() {
        Value::Map(m) => m.iter().collect(),
        Value::Object(o) => o.iter().collect(),
        _ => Vec::new(),
    }
}

fn plan_block_map<'a>(
    f: &mut Findings<'a>,
    block: &'a Block,
    prior: &'a Value,
    config: &'a Value,
    planned: &'a Value,
) {
    let planned_entries = entries(planned);
    let config_entries: BTreeMap<&str, &Value> = entries(config).into_iter().collect();
    let prior_entries: BTreeMap<&str, &Value> = entries(prior).into_iter().collect();
    let not_in_config = |f: &mut Findings<'a>, key: &str| {
        f.report(Rule::BlockKeyNotInConfig, |_| {
            format!(
                "block key {} from plan is not present in config",
                go_quote(key)
            )
        })
    };
    // A `dynamic` MAP block is an object: blocks are attributes, and a count mismatch
    // shows as the keys that differ.
    let as_object = matches!(planned.untyped(), Value::Object(_));
    if !as_object && config.is_null() {
        // Every client counts the configuration's blocks without a null check here.
        f.client_panics(
            "a MAP of blocks planned where the configuration's is null",
            "value is null",
        );
        return;
    }
    if !as_object && planned_entries.len() != config_entries.len() {
        let (p, c) = (planned_entries.len(), config_entries.len());
        f.report(Rule::BlockCount, |_| {
            format!("block count in plan ({p}) disagrees with count in config ({c})")
        });
        return;
    }
    for (key, planned_e) in &planned_entries {
        if as_object && !config_entries.contains_key(key) {
            not_in_config(f, key);
            continue;
        }
        let step = if as_object {
            Step::Attribute(key)
        } else {
            Step::Key(key)
        };
        f.within(step, |f| {
            if planned_e.is_unknown() {
                unknown_block_element(f);
                return;
            }
            let Some(config_e) = config_entries.get(key) else {
                not_in_config(f, key);
                return;
            };
            let prior_e = prior_entries.get(key).copied().unwrap_or(&NULL);
            plan_block(f, block, prior_e, config_e, planned_e);
        });
    }
    let planned_keys: BTreeMap<&str, ()> = planned_entries.iter().map(|(k, _)| (*k, ())).collect();
    for key in config_entries
        .keys()
        .filter(|k| !planned_keys.contains_key(*k))
    {
        f.report(Rule::BlockKeyNotInPlan, |_| {
            format!(
                "block key {} from config is not present in plan",
                go_quote(key)
            )
        });
    }
}

fn plan_attributes<'a>(
    f: &mut Findings<'a>,
    attributes: &'a BTreeMap<String, Attribute>,
    prior: &'a Value,
    config: &'a Value,
    planned: &'a Value,
) {
    for (name, attribute) in attributes {
        let config_v = get_or_null(config, name);
        let prior_v = get_or_null(prior, name);
        let planned_v = get_or_null(planned, name);
        f.within(Step::Attribute(name), |f| {
            plan_value(f, attribute, prior_v, config_v, planned_v)
        });
    }
}

fn plan_value<'a>(
    f: &mut Findings<'a>,
    attribute: &'a Attribute,
    prior: &'a Value,
    config: &'a Value,
    planned: &'a Value,
) {
    let ty = attribute.implied_type();
    if cty::raw_equal(planned, config, &ty, Refined::Ignore) {
        return;
    }
    // The provider may keep the prior value in place of an equivalent configured one.
    if cty::raw_equal(planned, prior, &ty, Refined::Ignore) && !prior.is_null() && !config.is_null()
    {
        return;
    }
    // Every client accepts a null planned write-only attribute. Terraform refuses any
    // other; OpenTofu checks it as an attribute like the rest.
    if attribute.write_only {
        if planned.is_null() {
            return;
        }
        if f.rules.any(|client| !client.is_opentofu()) {
            f.report(Rule::WriteOnlyNotNull, |_| {
                "planned value for write-only attribute is not null".into()
            });
            return;
        }
    }
    if attribute.computed && (!attribute.optional || config.is_null()) {
        return;
    }
    let sensitive = attribute.sensitive;
    if config.is_null() && !planned.is_null() {
        // Terraform prints a nested attribute's value with the sensitive attributes in
        // it; this crate writes `(sensitive value)` where printing would show one.
        let hide = super::marks::attribute_reveals_sensitive(attribute, planned);
        f.report(Rule::NonComputedSet, |p| {
            if sensitive {
                "sensitive planned value for a non-computed attribute".into()
            } else {
                let shown = if hide {
                    "(sensitive value)".to_owned()
                } else {
                    p(planned, &ty)
                };
                format!("planned value {shown} for a non-computed attribute")
            }
        });
        return;
    }
    if let Some(nested) = &attribute.nested_type {
        plan_object(f, nested, prior, config, planned);
        return;
    }
    if prior.is_null() {
        f.report(Rule::ConfigMismatch, |p| {
            if sensitive {
                "sensitive planned value does not match config value".into()
            } else {
                format!(
                    "planned value {} does not match config value {}",
                    p(planned, &ty),
                    p(config, &ty)
                )
            }
        });
    } else {
        f.report(Rule::ConfigAndPriorMismatch, |p| {
            if sensitive {
                "sensitive planned value does not match config value nor prior value".into()
            } else {
                format!(
                    "planned value {} does not match config value {} nor prior value {}",
                    p(planned, &ty),
                    p(config, &ty),
                    p(prior, &ty)
                )
            }
        });
    }
}

/// OpenTofu reads the attributes of an element of a nested attribute LIST or MAP,
/// planned and configured, without a null check, and crashes on a null one: reports
/// that crash and says whether it did.
fn opentofu_null_element(
    f: &mut Findings<'_>,
    attributes: &BTreeMap<String, Attribute>,
    config: &Value,
    planned: &Value,
) -> bool {
    let null = planned.is_null() || config.is_null();
    if !f.rules.any(Client::is_opentofu) || attributes.is_empty() || !null {
        return false;
    }
    f.client_panics(
        "a null element of a nested attribute LIST or MAP, planned or configured",
        "interface conversion: interface {} is nil, not map[string]interface {}",
    );
    true
}

fn plan_object<'a>(
    f: &mut Findings<'a>,
    nested: &'a NestedType,
    prior: &'a Value,
    config: &'a Value,
    planned: &'a Value,
) {
    if planned.is_null() && !config.is_null() {
        f.report(Rule::PlannedAbsent, |_| {
            "planned for absence but config wants existence".into()
        });
        return;
    }
    if config.is_null() && !planned.is_null() {
        f.report(Rule::PlannedPresent, |_| {
            "planned for existence but config wants absence".into()
        });
        return;
    }
    if !config.is_null() && planned.is_unknown() {
        f.report(Rule::UnknownNestedObject, |_| {
            "planned unknown for configured value".into()
        });
        return;
    }
    if planned.is_null() {
        return;
    }
    let ty = nested.implied_type();
    let attributes = &nested.attributes;
    let (planned_len, config_len) = (Length::of(planned, &ty), Length::of(config, &ty));
    let count_mismatch = |f: &mut Findings<'a>| {
        f.report(Rule::NestedCount, |p| {
            format!(
                "count in plan ({}) disagrees with count in config ({})",
                p(&planned_len.to_value(), &Type::Number),
                p(&config_len.to_value(), &Type::Number)
            )
        })
    };
    match nested.nesting {
        AttributeNesting::Single => plan_attributes(f, attributes, prior, config, planned),
        AttributeNesting::List => {
            if planned_len.equals(config_len) != Some(true) {
                count_mismatch(f);
                return;
            }
            for (i, planned_e) in planned.as_slice().unwrap_or(&[]).iter().enumerate() {
                let Some(config_e) = config.get_index(i) else {
                    continue;
                };
                let prior_e = if prior.is_null() {
                    &NULL
                } else {
                    prior.get_index(i).unwrap_or(&NULL)
                };
                f.within(Step::Index(i), |f| {
                    if opentofu_null_element(f, attributes, config_e, planned_e) {
                        return;
                    }
                    plan_attributes(f, attributes, prior_e, config_e, planned_e)
                });
            }
        }
        AttributeNesting::Map => {
            if planned_len.equals(config_len) != Some(true) {
                count_mismatch(f);
                return;
            }
            let planned_entries = entries(planned);
            let config_entries: BTreeMap<&str, &Value> = entries(config).into_iter().collect();
            let prior_entries: BTreeMap<&str, &Value> = entries(prior).into_iter().collect();
            for (key, planned_e) in &planned_entries {
                let Some(config_e) = config_entries.get(key) else {
                    f.report(Rule::MapKeyNotInConfig, |_| {
                        format!(
                            "map key {} from plan is not present in config",
                            go_quote(key)
                        )
                    });
                    continue;
                };
                let prior_e = prior_entries.get(key).copied().unwrap_or(&NULL);
                f.within(Step::KeyAsAttribute(key), |f| {
                    if opentofu_null_element(f, attributes, config_e, planned_e) {
                        return;
                    }
                    plan_attributes(f, attributes, prior_e, config_e, planned_e)
                });
            }
            let planned_keys: BTreeMap<&str, ()> =
                planned_entries.iter().map(|(k, _)| (*k, ())).collect();
            for key in config_entries
                .keys()
                .filter(|k| !planned_keys.contains_key(*k))
            {
                f.report(Rule::MapKeyNotInPlan, |_| {
                    format!(
                        "map key {} from config is not present in plan",
                        go_quote(key)
                    )
                });
            }
        }
        AttributeNesting::Set => {
            // Set elements cannot be matched with their configuration, so only the count
            // is checked.
            if !planned_len.may_include(config_len) {
                count_mismatch(f);
            }
        }
    }
}
