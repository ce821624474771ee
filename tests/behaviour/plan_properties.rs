//! Property tests of the plan rules and the plan renderer, on generated schemas and
//! values: a provider that plans exactly the proposed new state is accepted; a new state
//! equal to its plan is accepted; a value's diff with itself changes nothing; and no
//! input, however far from its schema, makes anything panic.

use ctywire::render::diff::{
    render_block_diff, render_resource_change, ChangeAction, DiffOptions, ResourceHeading,
};
use ctywire::schema::{Attribute, AttributeNesting, Block, BlockNesting, NestedBlock, NestedType};
use ctywire::{Number, Refinements, Type, Value};
use proptest::prelude::*;

/// How configuration and the provider may set an attribute.
#[derive(Clone, Copy, Debug)]
enum Flags {
    Required,
    Optional,
    Computed,
    OptionalComputed,
}

fn flags() -> impl Strategy<Value = Flags> {
    prop_oneof![
        Just(Flags::Required),
        Just(Flags::Optional),
        Just(Flags::Computed),
        Just(Flags::OptionalComputed),
    ]
}

fn with_flags(a: Attribute, f: Flags, sensitive: bool) -> Attribute {
    let a = match f {
        Flags::Required => a.required(),
        Flags::Optional => a.optional(),
        Flags::Computed => a.computed(),
        Flags::OptionalComputed => a.optional().computed(),
    };
    if sensitive {
        a.sensitive()
    } else {
        a
    }
}

fn leaf() -> impl Strategy<Value = Type> {
    prop_oneof![Just(Type::Bool), Just(Type::Number), Just(Type::String)]
}

/// Attribute types: primitives and collections of them (no `dynamic`, which makes LIST
/// and MAP blocks `dynamic`; the top-level block gets its own dynamic attribute).
fn attribute_type() -> impl Strategy<Value = Type> {
    prop_oneof![
        3 => leaf(),
        1 => leaf().prop_map(Type::list),
        1 => leaf().prop_map(Type::set),
        1 => leaf().prop_map(Type::map),
    ]
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![Just("id".to_owned()), Just("name".to_owned()), "[a-f]{1,3}"]
}

fn plain_attribute() -> impl Strategy<Value = Attribute> {
    (attribute_type(), flags(), prop::bool::weighted(0.2))
        .prop_map(|(t, f, s)| with_flags(Attribute::new(t), f, s))
}

fn nested_attribute() -> impl Strategy<Value = Attribute> {
    let nesting = prop_oneof![
        Just(AttributeNesting::Single),
        Just(AttributeNesting::List),
        Just(AttributeNesting::Set),
        Just(AttributeNesting::Map),
    ];
    (
        nesting,
        prop::collection::btree_map(name(), plain_attribute(), 1..3),
        flags(),
    )
        .prop_map(|(nesting, attributes, f)| {
            with_flags(
                Attribute::nested(NestedType::new(nesting, attributes)),
                f,
                false,
            )
        })
}

fn attributes() -> impl Strategy<Value = Vec<(String, Attribute)>> {
    prop::collection::vec(
        (
            name(),
            prop_oneof![3 => plain_attribute(), 1 => nested_attribute()],
        ),
        0..4,
    )
}

fn block_nesting() -> impl Strategy<Value = BlockNesting> {
    prop_oneof![
        Just(BlockNesting::Single),
        Just(BlockNesting::Group),
        Just(BlockNesting::List),
        Just(BlockNesting::Set),
        Just(BlockNesting::Map),
    ]
}

fn leaf_block() -> impl Strategy<Value = Block> {
    attributes().prop_map(|attrs| {
        attrs
            .into_iter()
            .fold(Block::new(), |b, (n, a)| b.attribute(n, a))
    })
}

fn block() -> impl Strategy<Value = Block> {
    (
        attributes(),
        prop::collection::vec(("[g-k]{1,2}", block_nesting(), leaf_block()), 0..3),
        prop::bool::weighted(0.3),
    )
        .prop_map(|(attrs, blocks, dynamic)| {
            let mut b = attrs
                .into_iter()
                .fold(Block::new(), |b, (n, a)| b.attribute(n, a));
            for (n, nesting, inner) in blocks {
                if !b.attributes.contains_key(&n) {
                    b = b.block_type(n, NestedBlock::new(nesting, inner));
                }
            }
            if dynamic {
                b = b.attribute("dyn", Attribute::new(Type::Dynamic).optional());
            }
            b
        })
}

/// A known value of a primitive or collection type.
fn known(ty: &Type) -> BoxedStrategy<Value> {
    match ty {
        Type::Bool => any::<bool>().prop_map(Value::from).boxed(),
        Type::Number => prop_oneof![
            (-3i64..4).prop_map(Value::from),
            Just(Value::Number("0.5".parse::<Number>().unwrap())),
        ]
        .boxed(),
        Type::String => prop_oneof![
            Just(""),
            Just("a"),
            Just("b"),
            Just("{\"k\": 1}"),
            Just("x\ny")
        ]
        .prop_map(Value::from)
        .boxed(),
        Type::List(e) => prop::collection::vec(known(e), 0..3)
            .prop_map(Value::list)
            .boxed(),
        Type::Set(e) => prop::collection::vec(known(e), 0..3)
            .prop_map(Value::set)
            .boxed(),
        Type::Map(e) => prop::collection::btree_map("[a-c]", known(e), 0..3)
            .prop_map(Value::map)
            .boxed(),
        Type::Dynamic => prop_oneof![
            known(&Type::String).prop_map(|v| Value::typed(Type::String, v)),
            known(&Type::Number).prop_map(|v| Value::typed(Type::Number, v)),
        ]
        .boxed(),
        _ => Just(Value::Null).boxed(),
    }
}

/// A value for an attribute: known or null, or (where `unknowns`) unknown, refined or not.
fn attribute_value(a: &Attribute, config: bool, unknowns: bool) -> BoxedStrategy<Value> {
    if config && a.is_computed_only() {
        return Just(Value::Null).boxed();
    }
    let ty = a.implied_type();
    let value = match &a.nested_type {
        Some(n) => nested_value(n),
        None => known(&ty),
    };
    let null_weight = if config && a.required { 0 } else { 1 };
    let unknown_weight = if unknowns { 1 } else { 0 };
    let refined = match ty {
        Type::String => Refinements::new().not_null().with_string_prefix("a"),
        Type::Number => Refinements::new().with_number_lower_bound(Number::from(-3), true),
        _ => Refinements::new().not_null(),
    };
    prop_oneof![
        3 => value,
        null_weight => Just(Value::Null),
        unknown_weight => Just(Value::unknown()),
        unknown_weight => Just(Value::Unknown(refined)),
    ]
    .boxed()
}

fn nested_value(n: &NestedType) -> BoxedStrategy<Value> {
    let object = object_of(
        n.attributes
            .iter()
            .map(|(k, a)| (k.clone(), a.clone()))
            .collect(),
        false,
    );
    match n.nesting {
        AttributeNesting::Single => object,
        AttributeNesting::List => prop::collection::vec(object, 0..3)
            .prop_map(Value::list)
            .boxed(),
        AttributeNesting::Set => prop::collection::vec(object, 0..3)
            .prop_map(Value::set)
            .boxed(),
        AttributeNesting::Map => prop::collection::btree_map("[a-c]", object, 0..3)
            .prop_map(Value::map)
            .boxed(),
    }
}

fn object_of(attrs: Vec<(String, Attribute)>, config: bool) -> BoxedStrategy<Value> {
    attrs
        .into_iter()
        .map(|(k, a)| attribute_value(&a, config, false).prop_map(move |v| (k.clone(), v)))
        .collect::<Vec<_>>()
        .prop_map(Value::object)
        .boxed()
}

/// A value of a block: a configuration (computed-only attributes null, required ones
/// set) or a state, with unknowns where `unknowns`.
fn block_value(b: &Block, config: bool, unknowns: bool) -> BoxedStrategy<Value> {
    let mut parts: Vec<BoxedStrategy<(String, Value)>> = Vec::new();
    for (k, a) in &b.attributes {
        let k = k.clone();
        parts.push(
            attribute_value(a, config, unknowns)
                .prop_map(move |v| (k.clone(), v))
                .boxed(),
        );
    }
    for (k, nb) in &b.block_types {
        let k = k.clone();
        let one = block_value(&nb.block, config, unknowns);
        let v = match nb.nesting {
            BlockNesting::Single => prop_oneof![Just(Value::Null), one].boxed(),
            BlockNesting::Group => one,
            BlockNesting::List => prop::collection::vec(one, 0..3)
                .prop_map(Value::list)
                .boxed(),
            BlockNesting::Set => prop::collection::vec(one, 0..3)
                .prop_map(Value::set)
                .boxed(),
            BlockNesting::Map => prop::collection::btree_map("[a-c]", one, 0..3)
                .prop_map(Value::map)
                .boxed(),
        };
        parts.push(v.prop_map(move |v| (k.clone(), v)).boxed());
    }
    parts.prop_map(Value::object).boxed()
}

fn schema_and_values() -> impl Strategy<Value = (Block, Value, Value)> {
    block().prop_flat_map(|b| {
        let prior = prop_oneof![1 => Just(Value::Null), 3 => block_value(&b, false, false)];
        let config = block_value(&b, true, true);
        (Just(b), prior, config)
    })
}

proptest! {
    #![proptest_config(crate::behaviour::proptest_config(300))]

    /// A provider that returns the proposed new state unchanged makes a valid plan.
    #[test]
    fn the_proposed_new_state_is_a_valid_plan((block, prior, config) in schema_and_values()) {
        let proposed = block.proposed_new(&prior, &config);
        let found = block.check_plan(&prior, &config, &proposed);
        prop_assert!(found.is_empty(), "{:?}\nproposed: {:?}", found.iter().map(|v| v.terraform_text()).collect::<Vec<_>>(), proposed);
    }

    /// A new state equal to its plan, unknowns and all, is compatible with it.
    #[test]
    fn a_plan_is_compatible_with_itself((block, _prior, planned) in schema_and_values()) {
        let found = block.check_compatible(&planned, &planned);
        prop_assert!(found.is_empty(), "{:?}", found.iter().map(|v| v.terraform_text()).collect::<Vec<_>>());
    }

    /// Applying a plan by returning it is accepted exactly when it holds no unknowns (and
    /// no write-only values); each unknown left is one problem, at its path.
    #[test]
    fn returning_the_plan_is_accepted_when_wholly_known((block, _prior, planned) in schema_and_values()) {
        prop_assume!(!block.contains_write_only());
        let found = block.check_apply(&planned, &planned);
        let unknowns = planned.unknown_paths(&block.implied_type()).len();
        prop_assert_eq!(found.len(), unknowns);
        prop_assert!(found.iter().all(|i| i.rule == ctywire::schema::Rule::UnknownAfterApply));
    }

    /// A read state equal to a wholly known value is accepted.
    #[test]
    fn a_known_state_reads_back((block, prior, _config) in schema_and_values()) {
        prop_assume!(!block.contains_write_only() && prior.is_wholly_known());
        let found = block.check_read(&prior);
        prop_assert!(found.is_empty(), "{:?}", found.iter().map(|v| v.terraform_text()).collect::<Vec<_>>());
    }

    /// A wholly known value diffed with itself changes nothing: no line shows an action.
    #[test]
    fn a_value_diffed_with_itself_changes_nothing((block, prior, _config) in schema_and_values()) {
        prop_assume!(!prior.is_null());
        let out = render_block_diff(&prior, &prior, &block, &DiffOptions::default());
        for line in out.lines() {
            let t = line.trim_start();
            prop_assert!(!(t.starts_with("+ ") || t.starts_with("- ") || t.starts_with("~ ")), "{out}");
        }
        prop_assert_eq!(ChangeAction::between(&prior, &prior, true), ChangeAction::NoOp);
    }

    /// Creating and destroying show every non-null value with `+` and `-`.
    #[test]
    fn creates_and_destroys_render((block, prior, _config) in schema_and_values()) {
        prop_assume!(!prior.is_null());
        let create = ResourceHeading::new("x_y.z", ChangeAction::Create);
        let out = render_resource_change(&create, &Value::Null, &prior, &block, &DiffOptions::default());
        prop_assert!(out.starts_with("  # x_y.z will be created\n  + resource \"x_y\" \"z\" {"), "{out}");
        let delete = ResourceHeading::new("x_y.z", ChangeAction::Delete);
        let out = render_resource_change(&delete, &prior, &Value::Null, &block, &DiffOptions::default());
        prop_assert!(!out.contains("+ "), "{out}");
    }

    /// Values that do not fit the schema at all (another schema's) never make the rules
    /// or the renderer panic.
    #[test]
    fn mismatched_values_never_panic(
        (block, _, _) in schema_and_values(),
        (_, a, b) in schema_and_values(),
    ) {
        let _ = block.proposed_new(&a, &b);
        let _ = block.check_plan(&a, &b, &a);
        let _ = block.check_apply(&a, &b);
        let _ = block.check_compatible(&a, &b);
        let _ = block.check_read(&a);
        let _ = render_block_diff(&a, &b, &block, &DiffOptions::default());
    }
}
