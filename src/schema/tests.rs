use super::*;
use crate::{msgpack, ErrorKind, Path};

fn ty(expr: &str) -> Type {
    Type::parse_expr(expr).expect("valid type expression")
}

fn attr(expr: &str) -> Attribute {
    Attribute::new(ty(expr)).optional()
}

fn nested(nesting: BlockNesting, block: Block) -> NestedBlock {
    NestedBlock::new(nesting, block)
}

fn messages(violations: &[Violation]) -> Vec<String> {
    violations.iter().map(ToString::to_string).collect()
}

// ---- implied types ----

#[test]
fn implied_type_of_an_empty_block_is_the_empty_object() {
    assert_eq!(Block::new().implied_type(), Type::empty_object());
    assert_eq!(Block::new().implied_type().to_json(), r#"["object",{}]"#);
}

#[test]
fn implied_type_by_nesting() {
    let inner = Block::new().attribute("a", attr("string"));
    let cases = [
        (BlockNesting::Single, "object({a=string})"),
        (BlockNesting::Group, "object({a=string})"),
        (BlockNesting::List, "list(object({a=string}))"),
        (BlockNesting::Set, "set(object({a=string}))"),
        (BlockNesting::Map, "map(object({a=string}))"),
    ];
    for (nesting, expected) in cases {
        let block = Block::new().block_type("b", nested(nesting, inner.clone()));
        assert_eq!(
            block.implied_type(),
            Type::object([("b", ty(expected))]),
            "{nesting:?}"
        );
    }
}

#[test]
fn implied_type_strips_optional_markers_deeply() {
    let block = Block::new().attribute(
        "settings",
        attr("list(object({a=optional(string), b=map(object({c=optional(number)}))}))"),
    );
    assert_eq!(
        block.implied_type().to_json(),
        r#"["object",{"settings":["list",["object",{"a":"string","b":["map",["object",{"c":"number"}]]}]]}]"#
    );
    // The schema keeps the markers.
    assert!(block.attributes["settings"]
        .ty
        .as_ref()
        .unwrap()
        .to_json()
        .contains(r#"["a"]"#));
}

#[test]
fn attribute_wins_a_name_clash() {
    let block = Block::new()
        .attribute("x", attr("string"))
        .block_type("x", nested(BlockNesting::List, Block::new()));
    assert_eq!(block.implied_type(), ty("object({x=string})"));
    assert_eq!(block.empty_value(), Value::object([("x", Value::Null)]));
}

#[test]
fn list_and_map_blocks_with_dynamic_become_dynamic() {
    let dynamic_inside = Block::new()
        .attribute("name", attr("string"))
        .attribute("value", attr("any"));
    for nesting in [BlockNesting::List, BlockNesting::Map] {
        let nb = nested(nesting, dynamic_inside.clone());
        assert_eq!(nb.implied_type(), Type::Dynamic, "{nesting:?}");
        assert!(nb.is_dynamic());
    }
    // SET keeps its element type (validation forbids it); SINGLE and GROUP are objects.
    let set = nested(BlockNesting::Set, dynamic_inside.clone());
    assert_eq!(
        set.implied_type(),
        ty("set(object({name=string,value=any}))")
    );
    assert!(!set.is_dynamic());
    for nesting in [BlockNesting::Single, BlockNesting::Group] {
        let nb = nested(nesting, dynamic_inside.clone());
        assert_eq!(nb.implied_type(), ty("object({name=string,value=any})"));
        assert!(!nb.is_dynamic());
    }
}

#[test]
fn dynamic_propagates_through_deeper_blocks() {
    // terraform issue 34574: a LIST block inside a LIST block, the inner one holding a
    // dynamic attribute: both become dynamic.
    let step = Block::new().attribute("input", attr("any"));
    let stage = Block::new()
        .attribute("name", attr("string"))
        .block_type("step", nested(BlockNesting::List, step.clone()));
    let block = Block::new().block_type("stage", nested(BlockNesting::List, stage));
    assert_eq!(block.implied_type(), ty("object({stage=any})"));

    // Through a SINGLE block, a SET block and a MAP block as well.
    for middle in [BlockNesting::Single, BlockNesting::Set, BlockNesting::Map] {
        let wrapper = Block::new().block_type("inner", nested(middle, step.clone()));
        let outer = nested(BlockNesting::List, wrapper);
        assert_eq!(outer.implied_type(), Type::Dynamic, "{middle:?}");
    }

    // And through a nested attribute type.
    let with_nested_attr = Block::new().attribute(
        "objects",
        Attribute::nested(NestedType::new(
            AttributeNesting::List,
            [("v", attr("any"))],
        ))
        .optional(),
    );
    assert_eq!(
        nested(BlockNesting::Map, with_nested_attr).implied_type(),
        Type::Dynamic
    );

    // A dynamic block does not leak upward beyond its own attribute: the parent object
    // simply has a dynamic attribute.
    let parent = Block::new().block_type(
        "outer",
        nested(
            BlockNesting::Single,
            Block::new().block_type("steps", nested(BlockNesting::List, step)),
        ),
    );
    assert_eq!(
        parent.implied_type(),
        ty("object({outer=object({steps=any})})")
    );
}

#[test]
fn nested_attribute_types() {
    let attrs = [
        ("size", Attribute::new(Type::Number).required()),
        ("kind", Attribute::new(Type::String).optional().computed()),
    ];
    let cases = [
        (
            AttributeNesting::Single,
            "object({kind=string,size=number})",
        ),
        (
            AttributeNesting::List,
            "list(object({kind=string,size=number}))",
        ),
        (
            AttributeNesting::Set,
            "set(object({kind=string,size=number}))",
        ),
        (
            AttributeNesting::Map,
            "map(object({kind=string,size=number}))",
        ),
    ];
    for (nesting, expected) in cases {
        let a = Attribute::nested(NestedType::new(nesting, attrs.clone())).optional();
        assert_eq!(a.implied_type(), ty(expected), "{nesting:?}");
    }
    // Nested in nested, optional markers stripped on the way.
    let inner = NestedType::new(
        AttributeNesting::Map,
        [("opts", attr("object({x=optional(bool)})"))],
    );
    let outer = NestedType::new(
        AttributeNesting::List,
        [("inner", Attribute::nested(inner).optional())],
    );
    assert_eq!(
        outer.implied_type(),
        ty("list(object({inner=map(object({opts=object({x=bool})}))}))")
    );
    // No dynamic fallback for nested attributes.
    let dynamic = NestedType::new(AttributeNesting::List, [("v", attr("any"))]);
    assert_eq!(dynamic.implied_type(), ty("list(object({v=any}))"));
}

#[test]
fn attribute_without_a_type_or_with_both() {
    assert_eq!(Attribute::default().implied_type(), Type::Dynamic);
    let both = Attribute {
        ty: Some(Type::String),
        nested_type: Some(NestedType::new(
            AttributeNesting::Single,
            [("a", attr("bool"))],
        )),
        ..Attribute::default()
    };
    assert_eq!(both.implied_type(), ty("object({a=bool})"));
}

// ---- empty values ----

#[test]
fn empty_value_of_each_nesting() {
    let leaf = Block::new().attribute("a", attr("string"));
    let dynamic_leaf = Block::new().attribute("d", attr("any"));
    let block = Block::new()
        .attribute("id", attr("string"))
        .block_type("single", nested(BlockNesting::Single, leaf.clone()))
        .block_type("list", nested(BlockNesting::List, leaf.clone()))
        .block_type("set", nested(BlockNesting::Set, leaf.clone()))
        .block_type("map", nested(BlockNesting::Map, leaf.clone()))
        .block_type("dlist", nested(BlockNesting::List, dynamic_leaf.clone()))
        .block_type("dmap", nested(BlockNesting::Map, dynamic_leaf))
        .block_type(
            "group",
            nested(
                BlockNesting::Group,
                leaf.block_type("inner", nested(BlockNesting::List, Block::new())),
            ),
        );
    let empty = block.empty_value();
    assert!(empty["id"].is_null());
    assert!(empty["single"].is_null());
    assert_eq!(empty["list"], Value::list([]));
    assert_eq!(empty["set"], Value::set([]));
    assert_eq!(empty["map"], Value::map(Vec::<(&str, Value)>::new()));
    assert_eq!(
        empty["dlist"],
        Value::typed(Type::empty_tuple(), Value::tuple([]))
    );
    assert_eq!(
        empty["dmap"],
        Value::typed(
            Type::empty_object(),
            Value::object(Vec::<(&str, Value)>::new())
        )
    );
    assert!(empty["group"]["a"].is_null());
    assert_eq!(empty["group"]["inner"], Value::list([]));

    // The empty value encodes with the implied type, and decodes back to itself.
    let ty = block.implied_type();
    let bytes = msgpack::encode(&empty, &ty).unwrap();
    assert_eq!(msgpack::decode(&bytes, &ty).unwrap(), empty);
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    // dlist: 92 c4 0c ["tuple",[]] 90; dmap: 92 c4 0d ["object",{}] 80
    assert!(hex.contains(&format!("92c40c{}90", hexs(r#"["tuple",[]]"#))));
    assert!(hex.contains(&format!("92c40d{}80", hexs(r#"["object",{}]"#))));
}

fn hexs(s: &str) -> String {
    s.bytes().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn contains_write_only_looks_everywhere() {
    let wo = Attribute::new(Type::String).optional().write_only();
    assert!(Block::new()
        .attribute("p", wo.clone())
        .contains_write_only());
    let in_nested = Attribute::nested(NestedType::new(
        AttributeNesting::Single,
        [("p", wo.clone())],
    ));
    assert!(Block::new().attribute("n", in_nested).contains_write_only());
    let in_block = Block::new().block_type(
        "b",
        nested(BlockNesting::Single, Block::new().attribute("p", wo)),
    );
    assert!(in_block.contains_write_only());
    assert!(!Block::new()
        .attribute("p", attr("string"))
        .contains_write_only());
}

// ---- labeled items ----

#[test]
fn labeled_items_read_maps_and_dynamic_objects() {
    let leaf = Block::new().attribute("v", attr("any"));
    let nb = nested(BlockNesting::Map, leaf);
    let object = Value::typed(
        ty("object({a=object({v=string}),b=object({v=number})})"),
        Value::object([
            ("b", Value::object([("v", Value::from(1))])),
            ("a", Value::object([("v", Value::from("x"))])),
        ]),
    );
    let items = nb.labeled_items(&object).unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0].0, "a");
    assert_eq!(items[1].1["v"].as_i64(), Some(1));
    let map = Value::map([("k", Value::object([("v", Value::Null)]))]);
    assert_eq!(nb.labeled_items(&map).unwrap()[0].0, "k");
    assert!(nb.labeled_items(&Value::unknown()).is_none());
    assert!(nb.items(&Value::list([])).is_none());
    let list = nested(BlockNesting::List, Block::new());
    assert!(list.labeled_items(&map).is_none());
    assert_eq!(list.items(&Value::list([])).unwrap().len(), 0);
}

// ---- validate ----

#[test]
fn valid_schemas_have_no_violations() {
    let block = Block::new()
        .attribute("req", Attribute::new(Type::String).required())
        .attribute("opt", attr("string"))
        .attribute("comp", Attribute::new(Type::String).computed())
        .attribute("opt_comp", attr("string").computed())
        .attribute("dyn", attr("any"))
        .block_type("single", nested(BlockNesting::Single, Block::new()))
        .block_type(
            "single_required",
            nested(BlockNesting::Single, Block::new())
                .min_items(1)
                .max_items(1),
        )
        .block_type("group", nested(BlockNesting::Group, Block::new()))
        .block_type(
            "list",
            nested(BlockNesting::List, Block::new().attribute("d", attr("any")))
                .min_items(1)
                .max_items(3),
        )
        .block_type(
            "list_unbounded",
            nested(BlockNesting::List, Block::new()).min_items(2),
        )
        .block_type("set", nested(BlockNesting::Set, Block::new()))
        .block_type("map", nested(BlockNesting::Map, Block::new()));
    assert_eq!(messages(&block.validate()), Vec::<String>::new());
}

#[test]
fn attribute_flag_rules() {
    let cases = [
        (
            Attribute::new(Type::String),
            vec!["must set required, optional or computed"],
        ),
        (
            Attribute::new(Type::String).required().optional(),
            vec!["cannot set both optional and required"],
        ),
        (
            Attribute::new(Type::String).required().computed(),
            vec!["cannot set both computed and required"],
        ),
        (
            Attribute::new(Type::String)
                .required()
                .optional()
                .computed(),
            vec![
                "cannot set both optional and required",
                "cannot set both computed and required",
            ],
        ),
        (
            Attribute::default().computed(),
            vec!["either a type or a nested type must be set"],
        ),
        (
            Attribute {
                nested_type: Some(NestedType::default()),
                ..Attribute::new(Type::String).computed()
            },
            vec!["a type and a nested type cannot both be set"],
        ),
    ];
    for (attribute, expected) in cases {
        let block = Block::new().attribute("a", attribute);
        let expected: Vec<String> = expected.iter().map(|m| format!(".a: {m}")).collect();
        assert_eq!(messages(&block.validate()), expected);
    }
}

#[test]
fn attribute_names_are_not_checked_but_block_type_names_are() {
    let block = Block::new()
        .attribute("BadName-ok", attr("string"))
        .block_type("Bad-Name", nested(BlockNesting::Single, Block::new()))
        .block_type("", nested(BlockNesting::Single, Block::new()))
        .block_type("good_name_2", nested(BlockNesting::Single, Block::new()));
    assert_eq!(
        messages(&block.validate()),
        [
            ".: block type name may contain only lowercase letters, digits and underscores",
            ".Bad-Name: block type name may contain only lowercase letters, digits and underscores",
        ]
    );
}

#[test]
fn name_clash_is_reported_once() {
    let block = Block::new()
        .attribute("x", attr("string"))
        .block_type("x", nested(BlockNesting::List, Block::new()));
    assert_eq!(
        messages(&block.validate()),
        [".x: name is both an attribute and a block type"]
    );
}

#[test]
fn item_count_rules_by_nesting() {
    let check = |nb: NestedBlock| messages(&Block::new().block_type("b", nb).validate());
    let e = Block::new;
    assert_eq!(
        check(nested(BlockNesting::Single, e()).min_items(1)),
        [".b: min_items (1) and max_items (0) must match in single mode"]
    );
    assert_eq!(
        check(nested(BlockNesting::Single, e()).min_items(2).max_items(2)),
        [".b: min_items and max_items must be 0 or 1 in single mode, found 2"]
    );
    assert_eq!(
        check(nested(BlockNesting::Group, e()).max_items(1)),
        [".b: min_items and max_items must be 0 in group mode, found 0 and 1"]
    );
    assert_eq!(
        check(nested(BlockNesting::Map, e()).min_items(1)),
        [".b: min_items and max_items must be 0 in map mode, found 1 and 0"]
    );
    assert_eq!(
        check(nested(BlockNesting::List, e()).min_items(3).max_items(2)),
        [".b: min_items (3) must not be greater than max_items (2) in list mode"]
    );
    assert_eq!(
        check(nested(BlockNesting::Set, e()).min_items(3).max_items(2)),
        [".b: min_items (3) must not be greater than max_items (2) in set mode"]
    );
    assert!(check(nested(BlockNesting::List, e()).min_items(3)).is_empty());
    assert!(check(nested(BlockNesting::Set, e()).min_items(2).max_items(2)).is_empty());
}

#[test]
fn computed_block_rules() {
    let check = |block: Block| messages(&block.validate());
    let e = || Block::new().computed();
    // Allowed: a computed LIST, SET, MAP or SINGLE block, computed blocks inside it.
    let fine = Block::new()
        .block_type(
            "l",
            nested(
                BlockNesting::List,
                e().block_type("in", nested(BlockNesting::Set, e())),
            )
            .max_items(2),
        )
        .block_type("m", nested(BlockNesting::Map, e()))
        .block_type(
            "s",
            nested(BlockNesting::Single, e()).min_items(1).max_items(1),
        );
    assert_eq!(check(fine), Vec::<String>::new());
    let bad = Block::new()
        .block_type("g", nested(BlockNesting::Group, e()))
        .block_type("l", nested(BlockNesting::List, e()).min_items(1))
        .block_type(
            "s",
            nested(
                BlockNesting::Set,
                e().block_type("plain", nested(BlockNesting::List, Block::new())),
            ),
        );
    assert_eq!(
        check(bad),
        [
            ".g: group blocks cannot be computed",
            ".l: a computed block type cannot have min_items (1)",
            ".s.plain: block types inside a computed block must be computed too",
        ]
    );
    // A computed top-level block asks the same of its block types.
    assert_eq!(
        check(
            Block::new()
                .computed()
                .block_type("b", nested(BlockNesting::List, Block::new()))
        ),
        [".b: block types inside a computed block must be computed too"]
    );
}

#[test]
fn set_blocks_without_dynamic_or_write_only() {
    let inner = Block::new()
        .attribute("d", attr("list(any)"))
        .attribute("p", attr("string").write_only());
    let block = Block::new().block_type("s", nested(BlockNesting::Set, inner));
    assert_eq!(
        messages(&block.validate()),
        [
            ".s: set blocks may not contain dynamic types",
            ".s: set blocks may not contain write-only attributes",
        ]
    );
    // Deeper down, through a dynamic LIST block and a nested block's write-only
    // attribute.
    let deeper = Block::new().block_type(
        "inner",
        nested(
            BlockNesting::List,
            Block::new()
                .attribute("d", attr("any"))
                .attribute("p", attr("string").write_only()),
        ),
    );
    let block = Block::new().block_type("s", nested(BlockNesting::Set, deeper));
    assert_eq!(
        messages(&block.validate()),
        [
            ".s: set blocks may not contain dynamic types",
            ".s: set blocks may not contain write-only attributes",
        ]
    );
}

#[test]
fn nested_attribute_rules() {
    let set = NestedType::new(
        AttributeNesting::Set,
        [
            ("d", attr("any")),
            ("p", attr("string").write_only()),
            ("bad", Attribute::new(Type::String)),
        ],
    );
    let list = NestedType {
        min_items: 2,
        max_items: 1,
        ..NestedType::new(AttributeNesting::List, [("x", attr("string"))])
    };
    let computed_min = NestedType {
        min_items: 1,
        ..NestedType::new(AttributeNesting::Map, [("x", attr("string"))])
    };
    let block = Block::new()
        .attribute("set", Attribute::nested(set).optional())
        .attribute("list", Attribute::nested(list).optional())
        .attribute("computed_min", Attribute::nested(computed_min).computed());
    assert_eq!(
        messages(&block.validate()),
        [
            ".computed_min: a computed attribute cannot have min_items",
            ".list: min_items (2) must not be greater than max_items (1) in list mode",
            ".set: set nested attributes may not contain dynamic types",
            ".set: set nested attributes may not contain write-only attributes",
            ".set.bad: must set required, optional or computed",
        ]
    );
}

#[test]
fn violations_deep_inside_have_full_paths() {
    let inner = Block::new().attribute("x", Attribute::new(Type::String));
    let middle = Block::new().block_type("inner", nested(BlockNesting::Map, inner));
    let block = Block::new().block_type("outer", nested(BlockNesting::List, middle));
    assert_eq!(
        messages(&block.validate()),
        [".outer.inner.x: must set required, optional or computed"]
    );
    assert_eq!(
        block.validate()[0].path,
        Path::root()
            .attribute("outer")
            .attribute("inner")
            .attribute("x")
    );
}

// ---- checks ----

fn instance_schema() -> Block {
    let disk = Block::new()
        .attribute("size", Attribute::new(Type::Number).required())
        .attribute("id", Attribute::new(Type::String).computed());
    let rule = Block::new().attribute("port", Attribute::new(Type::Number).required());
    let label = Block::new().attribute("value", Attribute::new(Type::String).required());
    let monitoring = Block::new()
        .attribute("interval", Attribute::new(Type::Number).required())
        .block_type(
            "alarm",
            nested(BlockNesting::List, Block::new()).max_items(1),
        );
    let step = Block::new()
        .attribute("input", attr("any"))
        .attribute("name", Attribute::new(Type::String).required());
    let ports = NestedType::new(
        AttributeNesting::List,
        [
            ("port", Attribute::new(Type::Number).required()),
            ("arn", Attribute::new(Type::String).computed()),
        ],
    );
    Block::new()
        .attribute("name", Attribute::new(Type::String).required())
        .attribute("id", Attribute::new(Type::String).computed())
        .attribute("size", attr("number").computed())
        .attribute("password", attr("string").write_only().sensitive())
        .attribute("ports", Attribute::nested(ports).optional())
        .block_type(
            "boot",
            nested(
                BlockNesting::Single,
                Block::new().attribute("image", attr("string")),
            )
            .min_items(1)
            .max_items(1),
        )
        .block_type(
            "disk",
            nested(BlockNesting::List, disk).min_items(1).max_items(2),
        )
        .block_type("rule", nested(BlockNesting::Set, rule).max_items(2))
        .block_type("label", nested(BlockNesting::Map, label))
        .block_type("monitoring", nested(BlockNesting::Group, monitoring))
        .block_type("step", nested(BlockNesting::List, step).min_items(1))
}

/// A configuration with everything right, built from the empty value.
fn good_config(block: &Block) -> Value {
    let mut pairs: Vec<(String, Value)> = block
        .empty_value()
        .as_object()
        .unwrap()
        .iter()
        .map(|(n, v)| (n.to_owned(), v.clone()))
        .collect();
    let set = |pairs: &mut Vec<(String, Value)>, name: &str, v: Value| {
        pairs.iter_mut().find(|(n, _)| n == name).unwrap().1 = v;
    };
    set(&mut pairs, "name", Value::from("web"));
    set(
        &mut pairs,
        "boot",
        Value::object([("image", Value::from("debian"))]),
    );
    set(
        &mut pairs,
        "disk",
        Value::list([Value::object([
            ("size", Value::from(10)),
            ("id", Value::Null),
        ])]),
    );
    set(
        &mut pairs,
        "step",
        Value::typed(
            ty("tuple([object({input=string,name=string})])"),
            Value::tuple([Value::object([
                ("input", Value::from("x")),
                ("name", Value::from("build")),
            ])]),
        ),
    );
    Value::object(pairs)
}

fn with(value: &Value, name: &str, attribute: Value) -> Value {
    let object = value.as_object().unwrap();
    Value::object(object.iter().map(|(n, v)| {
        (
            n,
            if n == name {
                attribute.clone()
            } else {
                v.clone()
            },
        )
    }))
}

#[test]
fn a_good_config_passes_and_encodes() {
    let block = instance_schema();
    assert!(block.validate().is_empty(), "{:?}", block.validate());
    let config = good_config(&block);
    assert_eq!(messages(&block.check_config(&config)), Vec::<String>::new());
    let ty = block.implied_type();
    let bytes = msgpack::encode(&config, &ty).unwrap();
    assert_eq!(msgpack::decode(&bytes, &ty).unwrap(), config);
}

#[test]
fn config_checks_report_each_problem_with_its_path() {
    let block = instance_schema();
    let config = good_config(&block);
    let config = with(&config, "name", Value::Null);
    let config = with(&config, "id", Value::from("i-1"));
    let config = with(&config, "boot", Value::Null);
    let config = with(
        &config,
        "disk",
        Value::list([
            Value::object([("size", Value::Null), ("id", Value::Null)]),
            Value::object([("size", Value::from(1)), ("id", Value::from("d-1"))]),
            Value::object([("size", Value::from(2)), ("id", Value::Null)]),
        ]),
    );
    let config = with(
        &config,
        "ports",
        Value::list([Value::object([
            ("port", Value::Null),
            ("arn", Value::from("arn:x")),
        ])]),
    );
    let config = with(
        &config,
        "label",
        Value::map([("blue", Value::object([("value", Value::Null)]))]),
    );
    let config = with(
        &config,
        "monitoring",
        Value::object([
            ("interval", Value::Null),
            (
                "alarm",
                Value::list([
                    Value::object(Vec::<(&str, Value)>::new()),
                    Value::object(Vec::<(&str, Value)>::new()),
                ]),
            ),
        ]),
    );
    let config = with(
        &config,
        "step",
        Value::typed(Type::empty_tuple(), Value::tuple([])),
    );
    assert_eq!(
        messages(&block.check_config(&config)),
        [
            ".id: computed-only attribute cannot be set in configuration",
            ".name: required attribute is not set",
            ".ports[0].arn: computed-only attribute cannot be set in configuration",
            ".ports[0].port: required attribute is not set",
            ".boot: required block is missing",
            ".disk: expected at most 2 blocks, found 3",
            ".disk[0].size: required attribute is not set",
            ".disk[1].id: computed-only attribute cannot be set in configuration",
            r#".label["blue"].value: required attribute is not set"#,
            ".monitoring.interval: required attribute is not set",
            ".monitoring.alarm: expected at most 1 block, found 2",
            ".step: expected at least 1 block, found 0",
        ]
    );
}

#[test]
fn unknowns_are_never_wrong_and_suspend_counts() {
    let block = instance_schema();
    let config = good_config(&block);
    // Unknown required attribute: may turn out set.
    let c = with(&config, "name", Value::unknown());
    assert!(block.check_config(&c).is_empty());
    // Unknown block collections: dynamic blocks with unknown for_each.
    let c = with(&config, "disk", Value::unknown());
    assert!(block.check_config(&c).is_empty());
    let c = with(&config, "step", Value::unknown());
    assert!(block.check_config(&c).is_empty());
    // Too many blocks, but one holds an unknown: the count is not checked; the blocks
    // still are.
    let c = with(
        &config,
        "disk",
        Value::list([
            Value::object([("size", Value::unknown()), ("id", Value::Null)]),
            Value::object([("size", Value::from(1)), ("id", Value::Null)]),
            Value::object([("size", Value::Null), ("id", Value::Null)]),
        ]),
    );
    assert_eq!(
        messages(&block.check_config(&c)),
        [".disk[2].size: required attribute is not set"]
    );
    // Sets likewise.
    let rule = |p: Value| Value::object([("port", p)]);
    let c = with(
        &config,
        "rule",
        Value::set([
            rule(Value::from(1)),
            rule(Value::from(2)),
            rule(Value::from(3)),
        ]),
    );
    assert_eq!(
        messages(&block.check_config(&c)),
        [".rule: expected at most 2 blocks, found 3"]
    );
    let c = with(
        &config,
        "rule",
        Value::set([
            rule(Value::from(1)),
            rule(Value::from(2)),
            rule(Value::unknown()),
        ]),
    );
    assert!(block.check_config(&c).is_empty());
    // A set element's path step is the element.
    let c = with(&config, "rule", Value::set([rule(Value::Null)]));
    let found = block.check_config(&c);
    assert_eq!(
        messages(&found),
        [".rule[...].port: required attribute is not set"]
    );
    assert_eq!(
        found[0].path.steps()[1],
        PathStep::SetElement(rule(Value::Null))
    );
    // Unknown or null top-level values have nothing to check.
    assert!(block.check_config(&Value::unknown()).is_empty());
    assert!(block.check_config(&Value::Null).is_empty());
}

use crate::path::PathStep;

#[test]
fn an_absent_group_skips_its_required_attributes() {
    let block = instance_schema();
    let config = good_config(&block);
    // good_config holds the group's empty value: its required `interval` is not
    // enforced.
    assert!(block.check_config(&config).is_empty());
    let present = with(
        &config,
        "monitoring",
        Value::object([
            ("interval", Value::Null),
            (
                "alarm",
                Value::list([Value::object(Vec::<(&str, Value)>::new())]),
            ),
        ]),
    );
    assert_eq!(
        messages(&block.check_config(&present)),
        [".monitoring.interval: required attribute is not set"]
    );
    let null = with(&config, "monitoring", Value::Null);
    assert_eq!(
        messages(&block.check_config(&null)),
        [".monitoring: a group block is never null"]
    );
}

#[test]
fn wrong_shapes_are_reported() {
    let block = instance_schema();
    let config = good_config(&block);
    let c = with(&config, "disk", Value::from("x"));
    assert_eq!(
        messages(&block.check_config(&c)),
        [".disk: expected a list of blocks, found string"]
    );
    let c = with(&config, "boot", Value::list([]));
    assert_eq!(
        messages(&block.check_config(&c)),
        [".boot: expected an object, found list"]
    );
    let c = with(&config, "ports", Value::map([("a", Value::Null)]));
    assert_eq!(
        messages(&block.check_config(&c)),
        [".ports: expected a list, found map"]
    );
    assert_eq!(
        messages(&block.check_config(&Value::from(1))),
        ["expected an object, found number"]
    );
}

#[test]
fn state_checks() {
    let block = instance_schema();
    let mut state = good_config(&block);
    state = with(&state, "id", Value::from("i-1"));
    assert!(block.check_state(&state).is_empty());
    // Null collections of blocks, null group.
    for (name, message) in [
        (
            "disk",
            ".disk: expected an empty list for no blocks, found null",
        ),
        (
            "rule",
            ".rule: expected an empty set for no blocks, found null",
        ),
        (
            "label",
            ".label: expected an empty map for no blocks, found null",
        ),
        (
            "step",
            ".step: expected an empty list for no blocks, found null",
        ),
        ("monitoring", ".monitoring: a group block is never null"),
    ] {
        let s = with(&state, name, Value::Null);
        assert_eq!(messages(&block.check_state(&s)), [message]);
    }
    // A null SINGLE block is fine in state.
    assert!(block
        .check_state(&with(&state, "boot", Value::Null))
        .is_empty());
    // Unknown blocks inside a collection; unknown attributes inside are fine.
    let s = with(
        &state,
        "disk",
        Value::list([
            Value::unknown(),
            Value::object([("size", Value::unknown()), ("id", Value::unknown())]),
        ]),
    );
    assert_eq!(
        messages(&block.check_state(&s)),
        [".disk[0]: a block must not be unknown itself; make its attributes unknown instead"]
    );
    let s = with(&state, "label", Value::map([("x", Value::unknown())]));
    assert_eq!(
        messages(&block.check_state(&s)),
        [r#".label["x"]: a block must not be unknown itself; make its attributes unknown instead"#]
    );
    // Write-only attributes are null in state, even unknown is refused.
    for v in [Value::from("secret"), Value::unknown()] {
        let s = with(&state, "password", v);
        assert_eq!(
            messages(&block.check_state(&s)),
            [".password: write-only attribute must be null"]
        );
    }
    // Counts and required attributes are not state matters.
    let s = with(&state, "name", Value::Null);
    let s = with(&s, "disk", Value::list([]));
    assert!(block.check_state(&s).is_empty());
}

#[test]
fn write_only_inside_nested_attributes_and_blocks() {
    let secret = attr("string").write_only();
    let block = Block::new()
        .attribute(
            "creds",
            Attribute::nested(NestedType::new(
                AttributeNesting::Map,
                [("key", secret.clone())],
            ))
            .optional(),
        )
        .block_type(
            "b",
            nested(BlockNesting::List, Block::new().attribute("key", secret)),
        );
    let state = Value::object([
        (
            "creds",
            Value::map([("x", Value::object([("key", Value::from("k"))]))]),
        ),
        (
            "b",
            Value::list([Value::object([("key", Value::from("k"))])]),
        ),
    ]);
    assert_eq!(
        messages(&block.check_state(&state)),
        [
            r#".creds["x"].key: write-only attribute must be null"#,
            ".b[0].key: write-only attribute must be null",
        ]
    );
}

#[test]
fn nested_type_min_items_makes_it_required_in_config() {
    let nt = NestedType {
        min_items: 1,
        ..NestedType::new(AttributeNesting::List, [("x", attr("string"))])
    };
    let block = Block::new().attribute("n", Attribute::nested(nt).optional());
    assert!(block.attributes["n"].is_required_in_config());
    assert_eq!(
        messages(&block.check_config(&Value::object([("n", Value::Null)]))),
        [".n: required attribute is not set"]
    );
}

// ---- loading ----

fn load_err(doc: &str) -> crate::Error {
    ProviderSchemas::from_json(doc.as_bytes()).unwrap_err()
}

fn wrap_block(block: &str) -> String {
    format!(
        r#"{{"format_version":"1.0","provider_schemas":{{"p/q/r":{{"resource_schemas":{{"r_x":{{"version":0,"block":{block}}}}}}}}}}}"#
    )
}

#[test]
fn loading_reads_every_field() {
    let doc = r#"{
      "format_version": "1.0",
      "provider_schemas": {
        "registry.terraform.io/example/cloud": {
          "provider": {"version": 0, "block": {"attributes": {
            "region": {"type": "string", "description": "Region.", "description_kind": "plain", "optional": true}
          }, "description_kind": "plain"}},
          "resource_schemas": {
            "cloud_x": {"version": 3, "block": {
              "attributes": {
                "a": {"type": ["object", {"b": "bool"}, ["b"]], "optional": true, "computed": true,
                      "sensitive": true, "write_only": true, "deprecated": true,
                      "deprecation_message": "use c", "description": "**A**", "description_kind": "markdown"},
                "n": {"nested_type": {"nesting_mode": "set", "min_items": 1, "max_items": 2,
                      "attributes": {"x": {"type": "number", "required": true}}}, "optional": true},
                "r": {"type": "string", "required": true}
              },
              "block_types": {
                "g": {"nesting_mode": "group", "block": {"attributes": {"y": {"type": "string", "optional": true}}}},
                "l": {"nesting_mode": "list", "min_items": 1, "max_items": 5},
                "m": {"nesting_mode": "map", "block": null}
              },
              "description": "An X.", "description_kind": "markdown", "deprecated": true,
              "deprecation_message": "gone soon"
            }}
          },
          "data_source_schemas": {"cloud_y": {"version": 0, "block": {}}},
          "ephemeral_resource_schemas": {"cloud_e": {"version": 0, "block": {}}},
          "list_resource_schemas": {}, "action_schemas": {"z": {"block": {}}},
          "functions": {"f": {"return_type": "string", "parameters": [{"name": "x", "type": "dynamic"}]}},
          "resource_identity_schemas": {"cloud_x": {"version": 0, "attributes": {"id": {"type": "string", "required_for_import": true}}}},
          "some_future_key": [1, 2, {"three": null}]
        }
      },
      "another_future_key": true
    }"#;
    let schemas = ProviderSchemas::from_json(doc.as_bytes()).unwrap();
    assert_eq!(schemas.format_version, "1.0");
    let (address, provider) = schemas.find_provider("cloud").unwrap();
    assert_eq!(address, "registry.terraform.io/example/cloud");
    assert_eq!(
        provider.provider.block.attributes["region"].description,
        "Region."
    );
    let x = schemas.resource("cloud_x").unwrap();
    assert_eq!(x.version, 3);
    let b = &x.block;
    assert_eq!(b.description, "An X.");
    assert_eq!(b.description_kind, DescriptionKind::Markdown);
    assert!(b.deprecated);
    assert_eq!(b.deprecation_message, "gone soon");
    let a = &b.attributes["a"];
    assert_eq!(a.ty, Some(ty("object({b=optional(bool)})")));
    assert!(a.optional && a.computed && a.sensitive && a.write_only && a.deprecated);
    assert!(!a.required);
    assert_eq!(a.deprecation_message, "use c");
    assert_eq!(a.description_kind, DescriptionKind::Markdown);
    let n = b.attributes["n"].nested_type.as_ref().unwrap();
    assert_eq!(n.nesting, AttributeNesting::Set);
    assert_eq!((n.min_items, n.max_items), (1, 2));
    assert!(n.attributes["x"].required);
    assert_eq!(b.block_types["g"].nesting, BlockNesting::Group);
    assert_eq!(b.block_types["l"].nesting, BlockNesting::List);
    assert_eq!(
        (b.block_types["l"].min_items, b.block_types["l"].max_items),
        (1, 5)
    );
    assert_eq!(b.block_types["m"].block, Block::new());
    assert_eq!(
        x.implied_type(),
        ty("object({a=object({b=bool}),g=object({y=string}),l=list(object({})),m=map(object({})),n=set(object({x=number})),r=string})")
    );
    assert_eq!(schemas.data_source("cloud_y").unwrap().block, Block::new());
    // Every other section is kept too, in its own place.
    assert!(schemas.resource("cloud_e").is_err());
    let e = schemas
        .schema(SchemaKind::EphemeralResource, "cloud_e")
        .unwrap();
    assert_eq!(e.implied_type(), Type::empty_object());
    assert!(provider.list_resource_schemas.is_empty());
    assert_eq!(schemas.schema(SchemaKind::Action, "z").unwrap().version, 0);
    let f = &provider.functions["f"];
    assert_eq!(f.return_type, Type::String);
    assert_eq!(f.parameters[0].name, "x");
    assert_eq!(f.parameters[0].ty, Type::Dynamic);
    assert_eq!(f.argument_type(0), Some(&Type::Dynamic));
    assert_eq!(f.argument_type(1), None);
    let identity = schemas.resource_identity("cloud_x").unwrap();
    assert!(identity.attributes["id"].required_for_import);
    assert_eq!(identity.implied_type(), ty("object({id=string})"));
}

#[test]
fn every_section_of_the_schemas_is_read() {
    let doc = br#"{"format_version": "1.0", "provider_schemas": {"p": {
        "state_store_schemas": {"s": {"version": 2, "block": {"attributes": {"v": {"type": "string", "required": true}}}}},
        "list_resource_schemas": {"l": {"version": 0, "block": {"attributes": {"f": {"type": ["map", "string"], "optional": true}}}}},
        "functions": {"join": {
          "summary": "Join", "description": "Joins.", "description_kind": "markdown",
          "deprecation_message": "old", "return_type": "string",
          "parameters": [{"name": "sep", "type": "string", "is_nullable": true, "description": "d"}],
          "variadic_parameter": {"name": "parts", "type": ["list", "string"]}
        }, "nothing": {"return_type": "dynamic", "parameters": null}},
        "resource_identity_schemas": {"r": {"version": 1, "attributes": {
          "id": {"type": "string", "required_for_import": true},
          "region": {"type": "string", "optional_for_import": true, "description": "Where."}}}}
    }}}"#;
    let schemas = ProviderSchemas::from_json(doc).unwrap();
    let p = &schemas.providers["p"];
    assert_eq!(p.state_store_schemas["s"].version, 2);
    assert_eq!(
        schemas
            .schema(SchemaKind::StateStore, "s")
            .unwrap()
            .implied_type(),
        ty("object({v=string})")
    );
    assert_eq!(
        schemas
            .schema(SchemaKind::ListResource, "l")
            .unwrap()
            .implied_type(),
        ty("object({f=map(string)})")
    );
    let join = &p.functions["join"];
    assert_eq!(
        (join.summary.as_str(), join.description.as_str()),
        ("Join", "Joins.")
    );
    assert_eq!(join.description_kind, DescriptionKind::Markdown);
    assert_eq!(join.deprecation_message, "old");
    assert!(join.parameters[0].is_nullable);
    assert_eq!(join.parameters[0].description, "d");
    assert_eq!(join.argument_type(0), Some(&Type::String));
    assert_eq!(join.argument_type(5), Some(&ty("list(string)")));
    assert!(p.functions["nothing"].parameters.is_empty());
    let identity = &p.resource_identity_schemas["r"];
    assert_eq!(identity.version, 1);
    assert!(identity.attributes["region"].optional_for_import);
    assert_eq!(identity.attributes["region"].description, "Where.");
    assert_eq!(
        identity.implied_type(),
        ty("object({id=string,region=string})")
    );
    // Errors in the new sections name their paths.
    let bad = br#"{"format_version": "1.0", "provider_schemas": {"p": {"functions": {"f": {"parameters": [{"type": "strin"}]}}}}}"#;
    let err = ProviderSchemas::from_json(bad).unwrap_err();
    assert_eq!(
        err.path().to_string(),
        r#".provider_schemas["p"].functions["f"].parameters[0].type"#
    );
    let bad = br#"{"format_version": "1.0", "provider_schemas": {"p": {"resource_identity_schemas": {"r": {"attributes": {"id": {"required_for_import": 1}}}}}}}"#;
    let err = ProviderSchemas::from_json(bad).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#".provider_schemas["p"].resource_identity_schemas["r"].attributes["id"].required_for_import: expected a bool, found a number at line 1 column 135"#
    );
}

#[test]
fn loading_errors_name_the_path_and_position() {
    let cases: &[(&str, &str)] = &[
        (
            r#"{"attributes":{"a":{"type":"strin","optional":true}}}"#,
            r#".block.attributes["a"].type: invalid primitive type name "strin""#,
        ),
        (
            r#"{"attributes":{"a":{"type":["list"],"optional":true}}}"#,
            r#".block.attributes["a"].type"#,
        ),
        (
            r#"{"attributes":{"a":{"type":"string","optional":"yes"}}}"#,
            r#".block.attributes["a"].optional: expected a bool, found a string"#,
        ),
        (
            r#"{"attributes":{"a":{"type":"string","optional":truex}}}"#,
            r#".block.attributes["a"]: expected `,` or `}`, found `x`"#,
        ),
        (
            r#"{"attributes":{"a":{"type":"string","optional":tru}}}"#,
            r#".block.attributes["a"].optional: "#,
        ),
        (
            r#"{"attributes":["a"]}"#,
            r#".block.attributes: expected an object, found an array"#,
        ),
        (
            r#"{"block_types":{"b":{"nesting_mode":"lists"}}}"#,
            r#".block.block_types["b"].nesting_mode: invalid nesting mode: expected one of single, group, list, set, map, found "lists""#,
        ),
        (
            r#"{"block_types":{"b":{"block":{}}}}"#,
            r#".block.block_types["b"]: missing nesting_mode"#,
        ),
        (
            r#"{"block_types":{"b":{"nesting_mode":"list","min_items":-1}}}"#,
            r#".block.block_types["b"].min_items: expected a non-negative integer, found `-1`"#,
        ),
        (
            r#"{"block_types":{"b":{"nesting_mode":"list","max_items":1.5}}}"#,
            r#".block.block_types["b"].max_items: expected a non-negative integer, found `1.5`"#,
        ),
        (
            r#"{"attributes":{"a":{"nested_type":{"nesting_mode":"group","attributes":{}}}}}"#,
            r#".block.attributes["a"].nested_type.nesting_mode: invalid nesting mode: expected one of single, list, set, map, found "group""#,
        ),
        (
            r#"{"attributes":{"a":{"nested_type":{"attributes":{}}}}}"#,
            r#".block.attributes["a"].nested_type: missing nesting_mode"#,
        ),
        (
            r#"{"attributes":{"a":{"type":"string"},"a":{"type":"bool"}}}"#,
            r#".block.attributes["a"]: duplicate key"#,
        ),
        (
            r#"{"description_kind":"html"}"#,
            r#".block.description_kind: expected plain or markdown, found "html""#,
        ),
        (
            r#"{"attributes":{"a":{"type":"string"} "b":{}}}"#,
            r#".block.attributes: expected `,` or `}`, found `"`"#,
        ),
    ];
    for (block, expected) in cases {
        let err = load_err(&wrap_block(block));
        let text = err.to_string();
        let prefix = r#".provider_schemas["p/q/r"].resource_schemas["r_x"]"#;
        assert!(
            text.starts_with(&format!("{prefix}{expected}")),
            "{block}\n got: {text}\nwant: {prefix}{expected}"
        );
        assert!(
            matches!(
                err.position(),
                Some(crate::Position::LineColumn { line: 1, .. })
            ),
            "{text}"
        );
    }
}

#[test]
fn repeated_keys_are_errors_and_distinct_keys_are_not() {
    let block = |body: &str| ProviderSchemas::from_json(wrap_block(body).as_bytes());
    let err = |body: &str| block(body).unwrap_err().to_string();
    // A repeated field, a repeated entry.
    assert!(
        err(r#"{"attributes":{"a":{"type":"string","optional":true,"type":"bool"}}}"#)
            .contains(r#".block.attributes["a"].type: duplicate key at line 1 column"#),
    );
    assert!(
        err(r#"{"attributes":{"a":{"type":"string"},"a":{"type":"bool"}}}"#)
            .contains(r#".block.attributes["a"]: duplicate key"#)
    );
    // Long keys that share their first and last eight bytes and their length are
    // told apart; the same long key twice is not.
    let unknown = |a: &str, b: &str| format!(r#"{{"{a}":1,"{b}":2}}"#);
    assert!(block(&unknown("abcdefgh_XXXX_ijklmnop", "abcdefgh_YYYY_ijklmnop")).is_ok());
    assert!(
        err(&unknown("abcdefgh_XXXX_ijklmnop", "abcdefgh_XXXX_ijklmnop"))
            .contains(".block.abcdefgh_XXXX_ijklmnop: duplicate key")
    );
    // Many fields (more than are checked inline), the repeat last.
    let many: Vec<String> = (0..40).map(|i| format!(r#""future_{i}":null"#)).collect();
    assert!(block(&format!("{{{}}}", many.join(","))).is_ok());
    let repeated = format!(r#"{{{},"future_3":1}}"#, many.join(","));
    assert!(err(&repeated).contains(".block.future_3: duplicate key"));
    // Escaped keys are compared by what they say.
    assert!(
        err(r#"{"attributes":{"a":{"type":"string","\u0074ype":"bool"}}}"#)
            .contains(r#".block.attributes["a"].type: duplicate key"#)
    );
}

#[test]
fn document_level_errors() {
    let err = load_err(r#"{"provider_schemas":{}}"#);
    assert_eq!(
        err.to_string(),
        "missing format_version: not a `providers schema -json` document at line 1 column 1"
    );
    let err = load_err(r#"{"format_version":"2.0"}"#);
    assert_eq!(
        err.to_string(),
        r#".format_version: unsupported format_version "2.0": this crate reads 0.x and 1.x at line 1 column 19"#
    );
    let err = load_err("[]");
    assert_eq!(
        err.to_string(),
        "expected an object, found an array at line 1 column 1"
    );
    assert_eq!(err.kind(), ErrorKind::TypeMismatch);
    let err = load_err(r#"{"format_version":"1.0"} x"#);
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    let err = load_err("");
    assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
    // 0.x is read; null members are absent.
    let ok = ProviderSchemas::from_json(
        br#"{"format_version":"0.2","provider_schemas":{"a/b/c":{"provider":null,"resource_schemas":null}}}"#,
    )
    .unwrap();
    assert_eq!(ok.providers["a/b/c"], ProviderSchema::default());
}

#[test]
fn loading_is_depth_limited() {
    let depth = crate::limits::MAX_DEPTH + 1;
    let mut block = String::new();
    for _ in 0..depth {
        block.push_str(r#"{"block_types":{"b":{"nesting_mode":"single","block":"#);
    }
    block.push_str("{}");
    for _ in 0..depth {
        block.push_str("}}}");
    }
    let err = load_err(&wrap_block(&block));
    assert_eq!(err.kind(), ErrorKind::LimitExceeded, "{err}");
    // Nested types count too.
    let mut attr = String::from(r#"{"type":"string","optional":true}"#);
    for _ in 0..depth {
        attr = format!(
            r#"{{"optional":true,"nested_type":{{"nesting_mode":"single","attributes":{{"a":{attr}}}}}}}"#
        );
    }
    let err = load_err(&wrap_block(&format!(r#"{{"attributes":{{"a":{attr}}}}}"#)));
    assert_eq!(err.kind(), ErrorKind::LimitExceeded, "{err}");
}

// ---- lookups ----

fn two_providers() -> ProviderSchemas {
    let schema = |v| Schema {
        version: v,
        block: Block::new(),
    };
    let mut aws = ProviderSchema::default();
    aws.resource_schemas
        .insert("aws_instance".into(), schema(1));
    aws.resource_schemas
        .insert("aws_s3_bucket".into(), schema(0));
    aws.resource_schemas.insert("shared".into(), schema(7));
    aws.data_source_schemas.insert("aws_ami".into(), schema(0));
    let mut fork = ProviderSchema::default();
    fork.resource_schemas.insert("shared".into(), schema(8));
    fork.provider.version = 9;
    let mut s = ProviderSchemas {
        format_version: "1.0".into(),
        ..ProviderSchemas::default()
    };
    s.providers
        .insert("registry.terraform.io/hashicorp/aws".into(), aws);
    s.providers
        .insert("registry.opentofu.org/someone/aws".into(), fork);
    s
}

#[test]
fn lookups() {
    let s = two_providers();
    assert_eq!(s.resource("aws_instance").unwrap().version, 1);
    assert_eq!(s.data_source("aws_ami").unwrap().version, 0);
    let err = s.resource("aws_ami").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotFound);
    assert_eq!(
        err.to_string(),
        r#"no resource type "aws_ami" in the schemas; resource types: aws_instance, aws_s3_bucket, shared"#
    );
    assert_eq!(
        s.resource("aws_instances").unwrap_err().to_string(),
        r#"no resource type "aws_instances" in the schemas; did you mean "aws_instance"?"#
    );
    assert_eq!(
        s.resource("aws").unwrap_err().to_string(),
        r#"no resource type "aws" in the schemas; did you mean one of "aws_instance", "aws_s3_bucket"?"#
    );
    assert_eq!(
        s.data_source("x").unwrap_err().to_string(),
        r#"no data source "x" in the schemas; data sources: aws_ami"#
    );
    // Ambiguous, then qualified.
    assert_eq!(
        s.resource("shared").unwrap_err().to_string(),
        r#"resource type "shared" is defined by 2 providers (registry.opentofu.org/someone/aws, registry.terraform.io/hashicorp/aws); name one as "PROVIDER:shared""#
    );
    assert_eq!(s.resource("hashicorp/aws:shared").unwrap().version, 7);
    assert_eq!(
        s.resource("registry.opentofu.org/someone/aws:shared")
            .unwrap()
            .version,
        8
    );
    assert_eq!(
        s.resource("hashicorp/aws:sharde").unwrap_err().to_string(),
        r#"provider registry.terraform.io/hashicorp/aws has no resource type "sharde"; did you mean "shared"?"#
    );
    // Providers by address, by namespace/type, by type.
    assert_eq!(s.provider("someone/aws").unwrap().version, 9);
    assert_eq!(
        s.provider("registry.opentofu.org/someone/aws")
            .unwrap()
            .version,
        9
    );
    assert_eq!(
        s.provider("aws").unwrap_err().to_string(),
        r#"provider name "aws" matches 2 providers (registry.opentofu.org/someone/aws, registry.terraform.io/hashicorp/aws); give the full address"#
    );
    assert_eq!(
        s.provider("google").unwrap_err().to_string(),
        r#"no provider "google" in the schemas; providers: registry.opentofu.org/someone/aws, registry.terraform.io/hashicorp/aws"#
    );
    assert_eq!(s.resource("aws:x").unwrap_err().kind(), ErrorKind::NotFound);
    assert_eq!(
        ProviderSchemas::default()
            .resource("x")
            .unwrap_err()
            .to_string(),
        r#"no resource type "x" in the schemas; the schemas define no resource types"#
    );
}

#[test]
fn document_provider_names_fall_back_to_the_one_provider_they_can_mean() {
    let mut s = ProviderSchemas::default();
    let with = |name: &str, version| {
        let mut p = ProviderSchema::default();
        p.resource_schemas.insert(
            name.into(),
            Schema {
                version,
                block: Block::new(),
            },
        );
        p
    };
    s.providers.insert("null".into(), with("null_resource", 1));
    s.providers.insert(
        "registry.terraform.io/hashicorp/local".into(),
        with("local_file", 2),
    );
    s.providers.insert(
        "registry.opentofu.org/hashicorp/random".into(),
        with("random_id", 3),
    );
    s.providers
        .insert("registry.terraform.io/a/test".into(), with("t", 4));
    s.providers
        .insert("registry.terraform.io/b/test".into(), with("t", 5));
    let found = |provider: &str| {
        let m = s.find(SchemaKind::Resource, "", Some(provider));
        let m = match m {
            Err(e) if e.message().contains("has no resource type") => s.match_provider(provider),
            Err(e) => Err(e),
            Ok(_) => unreachable!(),
        };
        m.map(|m| (m.address.to_owned(), m.fallback.map(|f| f.to_string())))
            .map_err(|e| e.to_string())
    };
    let taken =
        |address: &str, note: Option<&str>| Ok((address.to_owned(), note.map(str::to_owned)));
    // The address itself.
    assert_eq!(found("null"), taken("null", None));
    assert_eq!(
        found("registry.terraform.io/hashicorp/local"),
        taken("registry.terraform.io/hashicorp/local", None)
    );
    // Terraform 0.12's aliases, and its type names against full addresses.
    assert_eq!(
        found("null.aliased"),
        taken("null", Some(r#"alias "aliased" dropped"#))
    );
    assert_eq!(
        found("local"),
        taken(
            "registry.terraform.io/hashicorp/local",
            Some("by type name alone")
        )
    );
    assert_eq!(
        found("local.other"),
        taken(
            "registry.terraform.io/hashicorp/local",
            Some(r#"alias "other" dropped, by type name alone"#)
        )
    );
    // A 0.13+ address against a 0.12 schema keyed by type name.
    assert_eq!(
        found("registry.terraform.io/hashicorp/null"),
        taken("null", Some("by type name alone"))
    );
    // Another registry host, also when the host is left out (Terraform's registry).
    assert_eq!(
        found("registry.opentofu.org/hashicorp/local"),
        taken(
            "registry.terraform.io/hashicorp/local",
            Some("another registry host")
        )
    );
    assert_eq!(
        found("hashicorp/random"),
        taken(
            "registry.opentofu.org/hashicorp/random",
            Some("another registry host")
        )
    );
    // Another namespace is another provider; two that fit are ambiguous.
    assert_eq!(
        found("registry.terraform.io/hashicorp2/local"),
        Err(r#"no provider "registry.terraform.io/hashicorp2/local" in the schemas; providers: null, registry.opentofu.org/hashicorp/random, registry.terraform.io/a/test, registry.terraform.io/b/test, registry.terraform.io/hashicorp/local"#.to_owned())
    );
    assert_eq!(
        found("registry.opentofu.org/b/test"),
        taken(
            "registry.terraform.io/b/test",
            Some("another registry host")
        )
    );
    assert_eq!(
        found("test"),
        Err(r#"provider "test" may be any of 2 providers of the schemas (registry.terraform.io/a/test, registry.terraform.io/b/test)"#.to_owned())
    );
    // Schemas found through a fallback say so, also when the type is missing.
    let m = s
        .find(
            SchemaKind::Resource,
            "local_file",
            Some("registry.opentofu.org/hashicorp/local"),
        )
        .unwrap();
    assert_eq!(
        (m.schema.version, m.provider),
        (2, "registry.terraform.io/hashicorp/local")
    );
    assert!(m.fallback.unwrap().other_host);
    let err = s
        .find(
            SchemaKind::Resource,
            "local_fil",
            Some("registry.opentofu.org/hashicorp/local"),
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"provider registry.terraform.io/hashicorp/local (taken for "registry.opentofu.org/hashicorp/local": another registry host) has no resource type "local_fil"; did you mean "local_file"?"#
    );
    assert_eq!(
        s.find(SchemaKind::Resource, "random_id", None)
            .unwrap()
            .schema
            .version,
        3
    );
    assert!(s.find(SchemaKind::Resource, "t", None).is_err());
    assert!(s.find_identity("null_resource", Some("null")).is_err());
}

// ---- sensitive paths ----

#[test]
fn sensitive_paths_follow_the_value() {
    let secret = || Attribute::new(Type::String).optional().sensitive();
    let nested_attr = |nesting| {
        Attribute::nested(NestedType::new(
            nesting,
            [("key", secret()), ("id", attr("string"))],
        ))
        .optional()
    };
    let leaf = Block::new()
        .attribute("key", secret())
        .attribute("any", attr("any"));
    let block = Block::new()
        .attribute("token", secret())
        .attribute("plain", attr("string"))
        .attribute("one", nested_attr(AttributeNesting::Single))
        .attribute("list", nested_attr(AttributeNesting::List))
        .attribute("set", nested_attr(AttributeNesting::Set))
        .attribute("map", nested_attr(AttributeNesting::Map))
        .block_type("single", nested(BlockNesting::Single, leaf.clone()))
        .block_type("group", nested(BlockNesting::Group, leaf.clone()))
        .block_type("blocks", nested(BlockNesting::List, leaf.clone()))
        .block_type("labeled", nested(BlockNesting::Map, leaf.clone()))
        .block_type(
            "quiet",
            nested(
                BlockNesting::List,
                Block::new().attribute("x", attr("string")),
            ),
        );
    assert!(block.contains_sensitive());
    let obj = |key: Value| Value::object([("key", key), ("id", Value::Null)]);
    let leaf_value = |key: Value| Value::object([("key", key), ("any", Value::from(1))]);
    let value = Value::object([
        ("token", Value::Null),
        ("plain", Value::from("p")),
        ("one", obj(Value::from("a"))),
        (
            "list",
            Value::list([obj(Value::from("a")), obj(Value::Null)]),
        ),
        (
            "set",
            Value::set([obj(Value::from("b")), obj(Value::from("a"))]),
        ),
        ("map", Value::map([("k", obj(Value::unknown()))])),
        ("single", Value::Null),
        ("group", leaf_value(Value::Null)),
        ("blocks", Value::list([leaf_value(Value::from("s"))])),
        (
            "labeled",
            Value::typed(
                ty("object({x=object({any=number,key=string})})"),
                Value::object([("x", leaf_value(Value::from("s")))]),
            ),
        ),
        (
            "quiet",
            Value::list([Value::object([("x", Value::from("q"))])]),
        ),
    ]);
    let paths: Vec<String> = block
        .sensitive_paths(&value)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        paths,
        [
            ".list[0].key",
            ".list[1].key",
            r#".map["k"].key"#,
            ".one.key",
            ".set[0].key",
            ".set[1].key",
            ".token",
            ".blocks[0].key",
            ".group.key",
            ".labeled.x.key",
        ]
    );
    // Only the top-level attributes when the value itself is null or unknown.
    for v in [Value::Null, Value::unknown()] {
        let paths: Vec<String> = block
            .sensitive_paths(&v)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(paths, [".token"]);
    }
    assert!(!Block::new()
        .attribute("a", attr("string"))
        .contains_sensitive());
}

#[test]
fn names_that_are_not_nfc_find_their_values() {
    // Object types and values hold NFC names; a schema may spell one decomposed.
    let block = Block::new().attribute(
        "cafe\u{301}",
        Attribute::new(Type::String).required().sensitive(),
    );
    let ty = block.implied_type();
    assert_eq!(
        ty.as_object().unwrap().names().as_slice()[0].as_ref(),
        "caf\u{e9}"
    );
    let value = Value::object([("cafe\u{301}", Value::from("x"))]);
    assert!(block.check_config(&value).is_empty());
    assert_eq!(
        messages(&block.check_config(&Value::object([("caf\u{e9}", Value::Null)]))),
        [".cafe\u{301}: required attribute is not set"]
    );
    // Sensitive paths name the value's (NFC) attribute, which is what a renderer walks.
    assert_eq!(
        block.sensitive_paths(&value),
        [Path::root().attribute("caf\u{e9}")]
    );
}
