//! The sensitive audit: every surface of the library that writes values into messages
//! (the plan, apply and read checks in both wordings and as Terraform's diagnostics,
//! the plan renderer's diff, decoding errors) is given values that hold secrets in
//! every place a schema can mark sensitive, and no secret may appear in what it writes.

use ctywire::render::diff::{render_block_diff, DiffOptions};
use ctywire::schema::{
    Attribute, AttributeNesting, Block, BlockNesting, Client, NestedBlock, NestedType,
};
use ctywire::{msgpack, Type, Value};

/// Every secret holds this.
const SECRET: &str = "hunter2";

fn secret(n: u32) -> Value {
    Value::from(format!("{SECRET}-{n}"))
}

/// A schema with a sensitive attribute at the root, in every nesting of nested
/// attributes and of blocks, and in a `dynamic` MAP block (an object, where Terraform's
/// marks do not reach).
fn schema() -> Block {
    let inner = || {
        [
            ("s", Attribute::new(Type::String).optional().sensitive()),
            ("x", Attribute::new(Type::String).optional()),
        ]
    };
    let nested = |nesting| Attribute::nested(NestedType::new(nesting, inner())).optional();
    let inner_block = || {
        Block::new()
            .attribute("s", Attribute::new(Type::String).optional().sensitive())
            .attribute("x", Attribute::new(Type::String).optional())
    };
    let mut block = Block::new()
        .attribute("root", Attribute::new(Type::String).optional().sensitive())
        .attribute("ns", nested(AttributeNesting::Single))
        .attribute("nl", nested(AttributeNesting::List))
        .attribute("nt", nested(AttributeNesting::Set))
        .attribute("nm", nested(AttributeNesting::Map));
    for (name, nesting) in [
        ("bs", BlockNesting::Single),
        ("bl", BlockNesting::List),
        ("bt", BlockNesting::Set),
        ("bm", BlockNesting::Map),
    ] {
        block = block.block_type(name, NestedBlock::new(nesting, inner_block()));
    }
    block.block_type(
        "dm",
        NestedBlock::new(
            BlockNesting::Map,
            Block::new()
                .attribute("d", Attribute::new(Type::Dynamic).optional())
                .attribute("c", nested(AttributeNesting::Set)),
        ),
    )
}

/// A value of [`schema`] with a distinct secret in every sensitive place (`n` apart) and
/// `x` beside each.
fn value(n: u32, x: &str) -> Value {
    let object = |k: u32| Value::object([("s", secret(n + k)), ("x", Value::from(x))]);
    let dm_type: Type = r#"object({k=object({d=string, c=set(object({s=string, x=string}))})})"#
        .parse()
        .expect("a type");
    let dm = Value::typed(
        dm_type,
        Value::object([(
            "k",
            Value::object([("d", Value::Null), ("c", Value::set([object(40)]))]),
        )]),
    );
    Value::object([
        ("root", secret(n)),
        ("ns", object(1)),
        ("nl", Value::list([object(2)])),
        ("nt", Value::set([object(3)])),
        ("nm", Value::map([("k", object(4))])),
        ("bs", object(5)),
        ("bl", Value::list([object(6)])),
        ("bt", Value::set([object(7)])),
        ("bm", Value::map([("k", object(8))])),
        ("dm", dm),
    ])
}

fn assert_hidden(surface: &str, text: &str) {
    assert!(
        !text.contains(SECRET),
        "{surface} prints a sensitive value:\n{text}"
    );
}

#[test]
fn no_check_diff_or_error_prints_a_sensitive_value() {
    let block = schema();
    let ty = block.implied_type();
    // Values that differ everywhere, secrets included; and a configuration that the
    // plans do not match.
    let (config, planned, actual) = (value(100, "c"), value(200, "p"), value(300, "a"));
    let mut messages = 0;
    for client in Client::ALL {
        let found = [
            block.check_plan_for(client, &Value::Null, &config, &planned),
            block.check_plan_for(client, &planned, &config, &planned),
            block.check_apply_for(client, &planned, &actual),
            block.check_read_for(client, &actual),
        ];
        for i in found.iter().flatten() {
            messages += 1;
            let surface = format!("{client} {:?}", i.rule);
            assert_hidden(&surface, &i.to_string());
            assert_hidden(&surface, &i.terraform_text());
            let d = i.terraform_diagnostic("t_res.x", "example.com/x/t");
            assert_hidden(&surface, &d.summary);
            assert_hidden(&surface, &d.detail);
        }
        let proposed = block.proposed_new_for(client, &planned, &config);
        let text = render_block_diff(&planned, &proposed, &block, &DiffOptions::default());
        assert_hidden("the diff of a proposed state", &text);
    }
    // The checks found problems with the secrets' attributes and their neighbours.
    assert!(messages > 20, "only {messages} messages");
    let text = render_block_diff(&planned, &actual, &block, &DiffOptions::default());
    assert!(
        text.contains("\"p\""),
        "the diff shows the plain values:\n{text}"
    );
    assert_hidden("the diff", &text);
    // A payload that does not decode: the error names the path, not the value.
    let bytes = msgpack::encode(&actual, &ty).expect("encodes");
    let wrong: Type = r#"object({root=number})"#.parse().expect("a type");
    for ty in [wrong, Type::Bool] {
        let e = msgpack::decode(&bytes, &ty).expect_err("a value of another type");
        assert_hidden("a decoding error", &e.to_string());
    }
    // JSON whose secret is of the wrong type, or not valid at all.
    for text in [
        r#"{"root": ["hunter2-1"]}"#,
        r#"{"root": {"hunter2-2": 1}}"#,
        r#"{"root": "hunter2-3", "ns": {"s": ["hunter2-4"]}}"#,
        r#"{"root": "hunter2-5"#,
    ] {
        let e = ctywire::json::decode(text.as_bytes(), &ty).expect_err("does not decode");
        assert_hidden("a JSON decoding error", &e.to_string());
    }
}
