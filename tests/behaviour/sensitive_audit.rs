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
            let d = i.diagnostic_for(client, "t_res.x", "example.com/x/t");
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

/// A provider schema document with one resource, `t_res`: a sensitive attribute at the
/// root and inside a nested attribute, and a plain one beside each.
const CAPTURE_SCHEMA: &str = r#"{"format_version": "1.0", "provider_schemas": {
    "registry.terraform.io/x/t": {"resource_schemas": {"t_res": {"version": 0, "block": {
        "attributes": {
            "root": {"type": "string", "optional": true, "sensitive": true},
            "x": {"type": "string", "optional": true},
            "ns": {"optional": true, "nested_type": {"nesting_mode": "single",
                "attributes": {"s": {"type": "string", "optional": true, "sensitive": true},
                               "x": {"type": "string", "optional": true}}}}}}}}}}}"#;

/// The capture reader and resolver: a directory whose plans and applies break
/// Terraform's rules at the secrets (so the grouping weighs them), whose files do not
/// decode with secrets inside, and whose calls are incomplete or compete: no status,
/// explanation, problem or resolver message shows a secret.
#[test]
fn no_capture_message_prints_a_sensitive_value() {
    use ctywire::capture::{Capture, Resolved, Resolver};
    use ctywire::schema::ProviderSchemas;

    let schemas = ProviderSchemas::from_json(CAPTURE_SCHEMA.as_bytes()).expect("a schema");
    let state = |n: u32, x: &str| {
        format!(
            r#"{{"root": "{SECRET}-{n}", "x": "{x}", "ns": {{"s": "{SECRET}-{}", "x": "{x}"}}}}"#,
            n + 1
        )
        .into_bytes()
    };
    let f = |name: &str, bytes: Vec<u8>| (name.to_owned(), bytes);
    let files = vec![
        // A plan whose planned state changes configured secrets: Terraform refuses it.
        f(
            "1718000000100_PlanResourceChange_Request_Config.json",
            state(10, "a"),
        ),
        f(
            "1718000000100_PlanResourceChange_Request_PriorState.json",
            b"null".to_vec(),
        ),
        f(
            "1718000000100_PlanResourceChange_Request_ProposedNewState.json",
            state(10, "a"),
        ),
        f(
            "1718000000100_PlanResourceChange_Request_PriorPrivate.empty",
            vec![],
        ),
        f(
            "1718000000104_PlanResourceChange_Response_PlannedState.json",
            state(20, "a"),
        ),
        // Two plans in one millisecond whose values differ only in secrets.
        f(
            "1718000000200_PlanResourceChange_Request_Config.json",
            state(30, "b"),
        ),
        f(
            "1718000000200_PlanResourceChange_Request_PriorState.json",
            b"null".to_vec(),
        ),
        f(
            "1718000000200_PlanResourceChange_Request_ProposedNewState.json",
            state(40, "b"),
        ),
        f(
            "1718000000200_PlanResourceChange_Request_PriorPrivate.empty",
            vec![],
        ),
        f(
            "1718000000201_PlanResourceChange_Response_PlannedState.json",
            state(50, "b"),
        ),
        // An apply whose result changes the planned secrets, and one with no request.
        f(
            "1718000000300_ApplyResourceChange_Request_Config.json",
            state(60, "c"),
        ),
        f(
            "1718000000300_ApplyResourceChange_Request_PriorState.json",
            b"null".to_vec(),
        ),
        f(
            "1718000000300_ApplyResourceChange_Request_PlannedState.json",
            state(60, "c"),
        ),
        f(
            "1718000000300_ApplyResourceChange_Request_PlannedPrivate.empty",
            vec![],
        ),
        f(
            "1718000000305_ApplyResourceChange_Response_NewState.json",
            state(70, "c"),
        ),
        f(
            "1718000000400_ApplyResourceChange_Response_NewState.json",
            state(80, "d"),
        ),
        // Files that do not decode, with secrets inside: a secret of the wrong type,
        // broken JSON, and MessagePack of another shape.
        f(
            "1718000000500_ReadResource_Request_CurrentState.json",
            format!(r#"{{"root": ["{SECRET}-90"], "x": "e", "ns": null}}"#).into_bytes(),
        ),
        f(
            "1718000000500_ReadResource_Response_NewState.json",
            format!(r#"{{"root": "{SECRET}-91", "x": "#).into_bytes(),
        ),
        f(
            "1718000000600_ReadResource_Request_CurrentState.msgpack",
            msgpack::encode(&Value::from(format!("{SECRET}-92")), &Type::String).expect("encodes"),
        ),
        f(
            "1718000000600_ReadResource_Response_NewState.msgpack",
            vec![0xa3, b'h', b'u'],
        ),
    ];
    // By every client's rules (the default's are those of `from_files_with_schemas`).
    for client in Client::ALL {
        let capture = Capture::from_files_for(files.clone(), &schemas, client);
        let mut texts = Vec::new();
        let mut resolver = Resolver::for_client(&schemas, client);
        for call in &capture.calls {
            texts.push(call.status.to_string());
            texts.extend(call.explain.iter().cloned());
            match resolver.resolve(call) {
                Resolved::NotFound(why) => texts.push(why),
                Resolved::Found(subject) => texts.push(subject.to_string()),
                Resolved::Ambiguous(subjects) => {
                    texts.extend(subjects.iter().map(|s| s.to_string()))
                }
                _ => {}
            }
        }
        for p in &capture.problems {
            texts.push(format!("{}: {}", p.file, p.error));
        }
        // The grouping has weighed the values: some call is not complete, and a
        // resolver message says why a type does not fit.
        assert!(
            capture.calls.iter().any(|c| !c.is_complete()),
            "{client}: {:#?}",
            capture.calls
        );
        // The surfaces were reached: a refusal by the client's rules and decoding
        // errors.
        let all = texts.join("\n");
        let refusal = format!("break {}'s rules", client.program());
        assert!(all.contains(&refusal), "{client}: {all}");
        assert!(all.contains(".root: expected string, found array"), "{all}");
        for text in &texts {
            assert_hidden(&format!("a capture message ({client})"), text);
        }
    }
}
