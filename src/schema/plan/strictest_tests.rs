//! The strictest rules (`Rules::Strictest`): one plan check under them finds nothing
//! exactly when every client's check finds nothing, on the recorded cases of Terraform's
//! and OpenTofu's plan code and on generated plans that reach every rule where the
//! clients differ.

use std::io::Read as _;

use proptest::prelude::*;
use serde_json::Value as Json;

use super::{response, Client, Rules};
use crate::schema::{
    Attribute, AttributeNesting, Block, BlockNesting, NestedBlock, NestedType, ProviderSchemas,
};
use crate::types::Type;
use crate::value::Value;

/// Whether the strictest walk accepts the plan, and whether every client does.
fn verdicts(block: &Block, prior: &Value, config: &Value, planned: &Value) -> (bool, bool) {
    let every = each_client(block, prior, config, planned)
        .iter()
        .all(|accepts| *accepts);
    (strictest(block, prior, config, planned), every)
}

/// Whether each client (in `Client::ALL`'s order) accepts the plan.
fn each_client(block: &Block, prior: &Value, config: &Value, planned: &Value) -> Vec<bool> {
    Client::ALL
        .into_iter()
        .map(|client| {
            block
                .check_plan_for(client, prior, config, planned)
                .is_empty()
        })
        .collect()
}

/// Whether the strictest walk accepts the plan.
fn strictest(block: &Block, prior: &Value, config: &Value, planned: &Value) -> bool {
    response::check_plan(block, prior, config, planned, Rules::Strictest).is_empty()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// The recorded cases (`vectors/plan/objchange/`): where the clients' verdicts differ
/// too, the strictest walk accepts exactly the plans every client accepts.
#[test]
fn the_strictest_walk_accepts_the_recorded_plans_every_client_accepts() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/vectors/plan/objchange");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the recorded cases")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.to_string_lossy().ends_with(".jsonl.gz"))
        .collect();
    files.sort();
    // The first file (2,000 cases) by default; every file with `CTYWIRE_FULL_CASES`
    // (CI sets it).
    let full = std::env::var_os("CTYWIRE_FULL_CASES").is_some();
    files.truncate(if full { files.len() } else { 1 });
    // Each file on a thread of its own: (cases, accepted by every client, refused by
    // some clients only).
    let counts: Vec<(usize, usize, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .iter()
            .map(|path| scope.spawn(move || recorded_verdicts(path)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let cases: usize = counts.iter().map(|c| c.0).sum();
    let accepted: usize = counts.iter().map(|c| c.1).sum();
    let clients_differ: usize = counts.iter().map(|c| c.2).sum();
    // Both verdicts, and plans that only some clients refuse, are among the cases.
    assert!(cases >= if full { 10_000 } else { 2_000 }, "{cases}");
    assert!(accepted > 0 && accepted < cases, "{accepted} of {cases}");
    assert!(clients_differ > 0, "{clients_differ}");
}

/// The strictest walk's verdict against every client's on each case of one file:
/// (cases, accepted by every client, refused by some clients only).
fn recorded_verdicts(path: &std::path::Path) -> (usize, usize, usize) {
    let (mut cases, mut accepted, mut clients_differ) = (0, 0, 0);
    let bytes = std::fs::read(path).expect("a file");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_string(&mut text)
        .expect("gzipped text");
    for line in text.lines() {
        let case: Json = serde_json::from_str(line).expect("a JSON line");
        let doc = serde_json::to_vec(&case["schema"]).expect("JSON");
        let schemas = ProviderSchemas::from_json(&doc).expect("a schema document");
        let block = &schemas
            .resource(case["resource"].as_str().expect("a name"))
            .expect("the resource")
            .block;
        let ty = block.implied_type();
        let v = |name: &str| match case["values"][name].as_str().expect("hex") {
            "" => Value::Null,
            hex => crate::msgpack::decode(&unhex(hex), &ty).expect("a value"),
        };
        let (prior, config, planned) = (v("plan_prior"), v("config"), v("planned"));
        let each = each_client(block, &prior, &config, &planned);
        let every = each.iter().all(|accepts| *accepts);
        let accepted_by_strictest = strictest(block, &prior, &config, &planned);
        assert_eq!(accepted_by_strictest, every, "case {}", case["case"]);
        cases += 1;
        accepted += usize::from(every);
        clients_differ += usize::from(each.contains(&true) && each.contains(&false));
    }
    (cases, accepted, clients_differ)
}

/// A resource with every feature whose rules differ between the clients: write-only
/// and sensitive attributes, nested attribute LISTs and MAPs (the MAP's objects holding
/// a sensitive attribute), and blocks of every nesting.
fn resource() -> Block {
    let object = || Block::new().attribute("size", Attribute::new(Type::String).optional());
    let nested = |nesting, k: Attribute| {
        Attribute::nested(NestedType::new(
            nesting,
            [("v", Attribute::new(Type::String).optional()), ("k", k)],
        ))
        .optional()
    };
    let k = || Attribute::new(Type::String).optional();
    let mut block = Block::new()
        .attribute("name", Attribute::new(Type::String).optional().computed())
        .attribute(
            "secret",
            Attribute::new(Type::String).optional().write_only(),
        )
        .attribute("items", nested(AttributeNesting::List, k()))
        .attribute("tags", nested(AttributeNesting::Map, k().sensitive()));
    for (name, nesting) in [
        ("disk", BlockNesting::List),
        ("rule", BlockNesting::Set),
        ("env", BlockNesting::Map),
        ("one", BlockNesting::Single),
        ("grp", BlockNesting::Group),
    ] {
        block = block.block_type(name, NestedBlock::new(nesting, object()));
    }
    block
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        Just(Value::unknown()),
        Just(Value::from("a")),
        Just(Value::from("b")),
    ]
}

/// An object of the nested attributes, a null or an unknown one now and then.
fn item() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => (leaf(), leaf()).prop_map(|(v, k)| Value::object([("v", v), ("k", k)])),
        1 => Just(Value::Null),
        1 => Just(Value::unknown()),
    ]
}

/// A block of the nested block types, an unknown one now and then.
fn block_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => leaf().prop_map(|size| Value::object([("size", size)])),
        1 => Just(Value::unknown()),
    ]
}

/// A collection, or null or unknown.
fn collection<S: Strategy<Value = Value>>(
    element: S,
    make: fn(Vec<Value>) -> Value,
) -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => prop::collection::vec(element, 0..3).prop_map(make),
        1 => Just(Value::Null),
        1 => Just(Value::unknown()),
    ]
}

fn keyed(values: Vec<Value>) -> Value {
    Value::map(
        values
            .into_iter()
            .enumerate()
            .map(|(i, v)| (["x", "y", "z"][i], v)),
    )
}

/// One attribute's or block's value in each of the three: the configuration's, the
/// planned one (the configuration's, or another value one time in 16) and the prior
/// state's (the configuration's, or another value).
fn triple<S: Strategy<Value = Value>>(
    values: impl Fn() -> S,
) -> impl Strategy<Value = (Value, Value, Value)> {
    (values(), values(), values(), 0..16u8, any::<bool>()).prop_map(
        |(config, other, prior, change, keep)| {
            let planned = if change == 0 { other } else { config.clone() };
            let prior = if keep { config.clone() } else { prior };
            (prior, config, planned)
        },
    )
}

fn plan() -> impl Strategy<Value = (Value, Value, Value)> {
    let fields = (
        triple(leaf),
        triple(|| prop_oneof![3 => Just(Value::Null), 1 => leaf()]),
        triple(|| collection(item(), Value::list)),
        triple(|| collection(item(), keyed)),
        triple(|| collection(block_value(), Value::list)),
        triple(|| collection(block_value(), Value::set)),
        triple(|| collection(block_value(), keyed)),
        triple(|| prop_oneof![4 => block_value(), 1 => Just(Value::Null)]),
        triple(|| prop_oneof![4 => block_value(), 1 => Just(Value::Null)]),
    );
    (fields, 0..16u8).prop_map(|(fields, whole)| {
        let (name, secret, items, tags, disk, rule, env, one, grp) = fields;
        let names = [
            "name", "secret", "items", "tags", "disk", "rule", "env", "one", "grp",
        ];
        let all = [name, secret, items, tags, disk, rule, env, one, grp];
        let object = |pick: fn(&(Value, Value, Value)) -> &Value| {
            Value::object(names.iter().zip(&all).map(|(n, t)| (*n, pick(t).clone())))
        };
        let (prior, config, planned) = (object(|t| &t.0), object(|t| &t.1), object(|t| &t.2));
        // Now and then a create (null prior state) or a null plan.
        match whole {
            0 => (Value::Null, config, planned),
            1 => (prior, config, Value::Null),
            _ => (prior, config, planned),
        }
    })
}

proptest! {
    #![proptest_config(crate::proptest_config(crate::test_cases(3000)))]

    #[test]
    fn the_strictest_walk_accepts_what_every_client_accepts((prior, config, planned) in plan()) {
        let block = resource();
        let (by_strictest, by_every) = verdicts(&block, &prior, &config, &planned);
        prop_assert_eq!(by_strictest, by_every);
    }
}

/// The generated plans reach both verdicts, and plans that only some clients refuse
/// for each rule where they differ (else the property above could not fail).
#[test]
fn the_generated_plans_reach_the_rules_where_the_clients_differ() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};
    let block = resource();
    let mut runner = TestRunner::new_with_rng(
        crate::proptest_config(1),
        TestRng::deterministic_rng(RngAlgorithm::XorShift),
    );
    let (mut accepted, mut refused, mut differ) = (0, 0, std::collections::BTreeSet::new());
    for _ in 0..3000 {
        let (prior, config, planned) = plan().new_tree(&mut runner).expect("a plan").current();
        let each: Vec<bool> = Client::ALL
            .into_iter()
            .map(|c| {
                block
                    .check_plan_for(c, &prior, &config, &planned)
                    .is_empty()
            })
            .collect();
        if each.iter().all(|a| *a) {
            accepted += 1;
        } else {
            refused += 1;
        }
        if each.contains(&true) && each.contains(&false) {
            differ.insert(each);
        }
    }
    assert!(
        accepted > 300 && refused > 300,
        "{accepted} {refused} {differ:?}"
    );
    // Terraform 1.16 alone refusing (a null collection of blocks), Terraform alone (a
    // write-only value).
    assert!(differ.contains(&vec![true, false, true]), "{differ:?}");
    assert!(differ.contains(&vec![false, false, true]), "{differ:?}");
}

/// Each rule where the clients differ, on a plan that only some clients refuse: the
/// strictest walk refuses it, and `check_plan_strictest` gives the first refusing
/// client's problems.
#[test]
fn the_strictest_walk_refuses_what_one_client_refuses() {
    let block = resource();
    let base = |changes: &[(&str, Value)]| {
        let mut fields: Vec<(String, Value)> = [
            ("name", Value::from("a")),
            ("secret", Value::Null),
            ("items", Value::list([])),
            ("tags", Value::map::<&str>([])),
            ("disk", Value::list([])),
            ("rule", Value::set([])),
            ("env", Value::map::<&str>([])),
            ("one", Value::Null),
            ("grp", Value::object([("size", Value::Null)])),
        ]
        .into_iter()
        .map(|(n, v)| (n.to_owned(), v))
        .collect();
        for (name, value) in changes {
            let at = fields.iter().position(|(n, _)| n == name).expect("a field");
            fields[at].1 = value.clone();
        }
        Value::object(fields)
    };
    let config = base(&[]);
    assert_eq!(
        verdicts(&block, &Value::Null, &config, &config),
        (true, true)
    );
    let empty = Value::object([("v", Value::Null), ("k", Value::Null)]);
    let cases = [
        // A null LIST of blocks for a null configuration: Terraform 1.16.
        (
            base(&[("disk", Value::Null)]),
            base(&[("disk", Value::Null)]),
            [true, false, true],
        ),
        // A write-only value planned: Terraform.
        (
            base(&[("secret", Value::from("s"))]),
            base(&[("secret", Value::from("s"))]),
            [false, false, true],
        ),
        // A null element of a nested attribute LIST: OpenTofu crashes.
        (
            base(&[("items", Value::list([empty]))]),
            base(&[("items", Value::list([Value::Null]))]),
            [true, true, false],
        ),
    ];
    for (config, planned, each) in cases {
        let found: Vec<bool> = Client::ALL
            .into_iter()
            .map(|c| {
                block
                    .check_plan_for(c, &Value::Null, &config, &planned)
                    .is_empty()
            })
            .collect();
        assert_eq!(found, each, "{planned:?}");
        assert_eq!(
            verdicts(&block, &Value::Null, &config, &planned),
            (false, false)
        );
        let first = each.iter().position(|accepts| !accepts).expect("a refusal");
        assert_eq!(
            block.check_plan_strictest(&Value::Null, &config, &planned),
            block.check_plan_for(Client::ALL[first], &Value::Null, &config, &planned)
        );
    }
}
