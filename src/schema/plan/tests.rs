//! The plan-rule vectors (`vectors/plan/`), run against the rules.

use std::collections::BTreeSet;

use serde_json::Value as Json;

use super::cty::{self, Refined};
use crate::schema::Block;
use crate::types::Type;
use crate::value::{Number, Refinements, Value};
use crate::Path;

/// A value in the vector notation (vectors/README.md, "Plan vectors"), typed by `ty`.
pub(crate) fn value(j: &Json, ty: &Type) -> Value {
    match j {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => Value::Number(n.to_string().parse::<Number>().expect("a number")),
        Json::String(s) => Value::string(s),
        Json::Object(m) if m.contains_key("$unknown") => {
            if *ty == Type::Dynamic {
                return Value::unknown();
            }
            Value::refined_unknown(ty, refinements(&m["$unknown"]))
        }
        Json::Object(m) if m.contains_key("$type") => {
            let t = Type::from_json(&m["$type"].to_string()).expect("a type");
            let inner = value(&m["$value"], &t);
            Value::typed(t, inner)
        }
        Json::Array(items) => match ty {
            Type::List(e) => Value::list(items.iter().map(|i| value(i, e))),
            Type::Set(e) => Value::set(items.iter().map(|i| value(i, e))),
            Type::Tuple(ts) => Value::tuple(items.iter().zip(ts.iter()).map(|(i, t)| value(i, t))),
            t => panic!("an array for type {t}"),
        },
        Json::Object(m) => match ty {
            Type::Map(e) => Value::map(m.iter().map(|(k, v)| (k, value(v, e)))),
            Type::Object(o) => Value::object(
                o.iter()
                    .map(|(name, t, _)| (name, m.get(name).map_or(Value::Null, |v| value(v, t)))),
            ),
            t => panic!("an object for type {t}"),
        },
    }
}

fn refinements(j: &Json) -> Refinements {
    let mut r = Refinements::new();
    let number = |j: &Json| j.to_string().parse::<Number>().expect("a bound");
    if j.get("not_null") == Some(&Json::Bool(true)) {
        r = r.not_null();
    }
    if let Some(p) = j.get("prefix").and_then(Json::as_str) {
        r = r.with_string_prefix(p);
    }
    if let Some(b) = j.get("lower") {
        r = r.with_number_lower_bound(number(&b[0]), b[1] == Json::Bool(true));
    }
    if let Some(b) = j.get("upper") {
        r = r.with_number_upper_bound(number(&b[0]), b[1] == Json::Bool(true));
    }
    if let Some(n) = j.get("length_lower").and_then(Json::as_u64) {
        r = r.with_length_lower_bound(n);
    }
    if let Some(n) = j.get("length_upper").and_then(Json::as_u64) {
        r = r.with_length_upper_bound(n);
    }
    r
}

/// The cases of a vector file that are not skipped, with their schema and its type.
pub(crate) fn cases(file: &str) -> Vec<(Json, Block, Type)> {
    let path = format!("{}/vectors/plan/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the vector file");
    let doc: Json = serde_json::from_str(&text).expect("vector JSON");
    doc["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter(|c| c.get("skip").is_none())
        .map(|c| {
            let block = Block::from_json(c["schema"].to_string().as_bytes()).expect("a schema");
            let ty = block.implied_type();
            (c.clone(), block, ty)
        })
        .collect()
}

pub(crate) fn paths(j: Option<&Json>) -> Vec<Path> {
    j.and_then(Json::as_array)
        .map(|ps| {
            ps.iter()
                .map(|p| Path::parse(p.as_str().expect("a path")).expect("a valid path"))
                .collect()
        })
        .unwrap_or_default()
}

fn expected_violations(c: &Json) -> BTreeSet<String> {
    c["violations"]
        .as_array()
        .expect("violations")
        .iter()
        .map(|v| v.as_str().expect("a message").to_owned())
        .collect()
}

/// Compares what a check found with what the case expects, as a set of Terraform's
/// texts (Terraform's tests compare them so).
fn compare(c: &Json, found: &[super::Inconsistency], failures: &mut Vec<String>) {
    let want = expected_violations(c);
    let got: BTreeSet<String> = found.iter().map(|v| v.terraform_text()).collect();
    if want != got {
        failures.push(format!(
            "{}:\n  want: {want:#?}\n  got:  {got:#?}",
            c["name"]
        ));
    }
}

fn finish(what: &str, failures: Vec<String>, ran: usize) {
    assert!(ran > 0, "no {what} cases ran");
    assert!(
        failures.is_empty(),
        "{} of {ran} {what} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn run_proposed_new(file: &str) {
    let mut failures = Vec::new();
    let cases = cases(file);
    for (c, block, ty) in &cases {
        let prior = value(&c["prior"], ty);
        let config = value(&c["config"], ty);
        let want = value(&c["proposed"], ty);
        let got = block.proposed_new_for(super::Client::Terraform1_16, &prior, &config);
        if !cty::raw_equal(&got, &want, ty, Refined::Compare) {
            failures.push(format!(
                "{}:\n  want: {}\n  got:  {}",
                c["name"],
                want.to_go_syntax(ty),
                got.to_go_syntax(ty)
            ));
        }
    }
    finish(file, failures, cases.len());
}

/// Runs a table of `AssertPlanValid` (objchange's own check, without the checks Terraform
/// makes before it).
fn run_plan_valid(file: &str) {
    let mut failures = Vec::new();
    let cases = cases(file);
    for (c, block, ty) in &cases {
        let found = super::valid::check_plan(
            block,
            &value(&c["prior"], ty),
            &value(&c["config"], ty),
            &value(&c["planned"], ty),
            // The tables are those of Terraform 1.16.0-rc2's objchange.
            super::Client::Terraform1_16.into(),
        );
        compare(c, &found, &mut failures);
    }
    finish(file, failures, cases.len());
}

fn run_object_compatible(file: &str) {
    let mut failures = Vec::new();
    let cases = cases(file);
    for (c, block, ty) in &cases {
        let mut sensitive = paths(c.get("planned_sensitive"));
        sensitive.extend(paths(c.get("actual_sensitive")));
        let found = block.check_compatible_sensitive(
            &value(&c["planned"], ty),
            &value(&c["actual"], ty),
            &sensitive,
        );
        compare(c, &found, &mut failures);
    }
    finish(file, failures, cases.len());
}

#[test]
fn terraform_proposed_new() {
    run_proposed_new("terraform-proposed-new.json");
}

#[test]
fn terraform_plan_valid() {
    run_plan_valid("terraform-plan-valid.json");
}

#[test]
fn terraform_object_compatible() {
    run_object_compatible("terraform-object-compatible.json");
}

#[test]
fn ctywire_proposed_new() {
    run_proposed_new("ctywire-proposed-new.json");
}

#[test]
fn ctywire_plan_valid() {
    run_plan_valid("ctywire-plan-valid.json");
}

#[test]
fn ctywire_object_compatible() {
    run_object_compatible("ctywire-object-compatible.json");
}

/// Where Terraform crashes on a null configuration for a MAP block, the verdict says so
/// (and nothing panics); an unknown MAP block after apply cannot be compared.
#[test]
fn where_terraform_crashes() {
    use crate::schema::{Attribute, BlockNesting, NestedBlock};
    let block = Block::new().block_type(
        "m",
        NestedBlock::new(
            BlockNesting::Map,
            Block::new().attribute("c", Attribute::new(Type::String).optional()),
        ),
    );
    let one = Value::map([("a", Value::object([("c", Value::from("x"))]))]);
    let config = Value::object([("m", Value::Null)]);
    let planned = Value::object([("m", one.clone())]);
    let found: Vec<String> = block
        .check_plan(&Value::Null, &config, &planned)
        .iter()
        .map(|v| v.terraform_text())
        .collect();
    assert_eq!(
        found,
        [
            ".m: Terraform 1.15.5 fails on this value: a MAP of blocks planned where the \
          configuration's is null (it panics: value is null)"
        ]
    );
    let planned = Value::object([("m", one)]);
    let actual = Value::object([("m", Value::unknown())]);
    assert!(block.check_compatible(&planned, &actual).is_empty());
}

/// A refined unknown number must become a finite one: go-cty's bounds where none is given
/// are the infinities, exclusive. A plain unknown may become anything.
#[test]
fn refined_unknown_numbers_are_finite() {
    use crate::schema::{check_value_compatible, Rule};
    let refined = Value::Unknown(Refinements::new().not_null());
    let bounded = Value::Unknown(Refinements::new().with_number_lower_bound(Number::from(0), true));
    for (planned, actual, rule) in [
        (&refined, Number::infinity(), Some(Rule::RefinementBroken)),
        (
            &refined,
            Number::neg_infinity(),
            Some(Rule::RefinementBroken),
        ),
        (&bounded, Number::infinity(), Some(Rule::RefinementBroken)),
        (
            &bounded,
            Number::neg_infinity(),
            Some(Rule::RefinementBroken),
        ),
        (&bounded, Number::from(7), None),
        (&Value::unknown(), Number::infinity(), None),
    ] {
        let found = check_value_compatible(planned, &Value::Number(actual.clone()), &Type::Number);
        assert_eq!(
            found.first().map(|v| v.rule),
            rule,
            "{planned:?} -> {actual}"
        );
    }
    let found = check_value_compatible(&refined, &Value::Number(Number::infinity()), &Type::Number);
    assert_eq!(
        found[0].terraform_text(),
        "final value cty.NumberFloatVal(+Inf) does not conform to planning placeholder cty.UnknownVal(cty.Number).RefineNotNull()"
    );
}

/// The checks Terraform makes around objchange's, and its words for each.
mod responses {
    use crate::schema::plan::{Check, Rule};
    use crate::schema::{Attribute, Block, BlockNesting, NestedBlock};
    use crate::{Type, Value};

    const PROVIDER: &str = "example.com/ctywire/demo";

    fn block() -> Block {
        let disk = Block::new()
            .attribute("size", Attribute::new(Type::Number).optional())
            .attribute("key", Attribute::new(Type::String).optional().write_only());
        Block::new()
            .attribute("name", Attribute::new(Type::String).required())
            .attribute(
                "password",
                Attribute::new(Type::String).optional().write_only(),
            )
            .attribute("id", Attribute::new(Type::String).computed())
            .block_type("disk", NestedBlock::new(BlockNesting::Set, disk))
    }

    fn thing(password: Value, id: Value, disks: Vec<(i64, Value)>) -> Value {
        Value::object([
            ("name", Value::from("a")),
            ("password", password),
            ("id", id),
            (
                "disk",
                Value::set(
                    disks.into_iter().map(|(size, key)| {
                        Value::object([("size", Value::from(size)), ("key", key)])
                    }),
                ),
            ),
        ])
    }

    #[test]
    fn write_only_values_are_reported_in_each_phase_with_terraform_words() {
        let b = block();
        let planned = thing(Value::Null, Value::unknown(), vec![(1, Value::Null)]);
        let bad = thing(
            Value::from("x"),
            Value::from("i"),
            vec![(1, Value::from("k"))],
        );
        let found = b.check_apply(&planned, &bad);
        let texts: Vec<String> = found.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            [
                ".password: the provider returned a value for a write-only attribute",
                ".disk[...].key: the provider returned a value for a write-only attribute",
            ]
        );
        assert!(found
            .iter()
            .all(|i| i.rule == Rule::WriteOnlyReturned && i.check == Check::Apply));
        let d = found[1].terraform_diagnostic("demo_thing.x", PROVIDER);
        assert_eq!(d.summary, "Provider produced invalid object");
        assert_eq!(
            d.detail,
            "Provider \"provider[\\\"example.com/ctywire/demo\\\"]\" returned a value for the write-only attribute \
             \"demo_thing.x.disk[...].key\" after apply. Write-only attributes cannot be read back from the \
             provider. This is a bug in the provider, which should be reported in the provider's own issue tracker."
        );
        let plan = b.check_plan(&Value::Null, &planned, &bad);
        assert_eq!(
            plan[0]
                .terraform_diagnostic("demo_thing.x", PROVIDER)
                .summary,
            "Provider produced invalid plan"
        );
        assert!(plan[0]
            .terraform_diagnostic("demo_thing.x", PROVIDER)
            .detail
            .contains("\" during planning. "));
        let read = b.check_read(&bad);
        assert!(read[0]
            .terraform_diagnostic("demo_thing.x", PROVIDER)
            .detail
            .contains("\" during refresh. "));
    }

    #[test]
    fn unknowns_left_after_apply_stop_the_checks_one_problem_each() {
        let b = block();
        let planned = thing(Value::Null, Value::unknown(), vec![(1, Value::Null)]);
        // `name` changed too, but Terraform never gets that far.
        let new = planned
            .clone()
            .with_attribute("name", Value::from("b"))
            .unwrap();
        let found = b.check_apply(&planned, &new);
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].rule, found[0].terraform_path.as_str()),
            (Rule::UnknownAfterApply, ".id")
        );
        let known = planned
            .clone()
            .with_attribute("id", Value::from("i"))
            .unwrap();
        let renamed = known.with_attribute("name", Value::from("b")).unwrap();
        assert_eq!(b.check_apply(&planned, &renamed)[0].rule, Rule::Changed);
    }

    #[test]
    fn a_destroy_must_return_null() {
        let b = block();
        let state = thing(Value::Null, Value::from("i"), vec![]);
        assert!(b.check_apply(&Value::Null, &Value::Null).is_empty());
        let found = b.check_apply(&Value::Null, &state);
        assert_eq!(found[0].rule, Rule::NotNullAfterDestroy);
        let d = found[0].terraform_diagnostic("demo_thing.x", PROVIDER);
        assert_eq!(
            d.summary,
            "Provider returned invalid result object after apply"
        );
        assert!(d.detail.starts_with("After applying a Delete plan, the provider returned a non-null object for demo_thing.x. "));
    }

    #[test]
    fn objchange_problems_are_worded_for_their_check() {
        let b = block();
        let planned = thing(Value::Null, Value::from("i"), vec![]);
        let new = thing(Value::Null, Value::from("j"), vec![]);
        let d = b.check_apply(&planned, &new)[0].terraform_diagnostic("demo_thing.x", PROVIDER);
        assert_eq!(
            d.summary,
            "Provider produced inconsistent result after apply"
        );
        assert_eq!(
            d.detail,
            "When applying changes to demo_thing.x, provider \"provider[\\\"example.com/ctywire/demo\\\"]\" produced \
             an unexpected new value: .id: was cty.StringVal(\"i\"), but now cty.StringVal(\"j\").\n\n\
             This is a bug in the provider, which should be reported in the provider's own issue tracker."
        );
        let config = thing(Value::Null, Value::Null, vec![])
            .with_attribute("name", Value::from("b"))
            .unwrap();
        let d = b.check_plan(&Value::Null, &config, &planned)[0]
            .terraform_diagnostic("demo_thing.x", PROVIDER);
        assert_eq!(
            d.detail,
            "Provider \"example.com/ctywire/demo\" planned an invalid value for demo_thing.x.name: planned value \
             cty.StringVal(\"a\") does not match config value cty.StringVal(\"b\").\n\n\
             This is a bug in the provider, which should be reported in the provider's own issue tracker."
        );
    }
}

/// The provider's plan helpers.
mod provider_helpers {
    use crate::schema::{
        Attribute, AttributeNesting, Block, BlockNesting, NestedBlock, NestedType,
    };
    use crate::{Path, Refinements, Type, Value};

    fn block() -> Block {
        let disk = Block::new()
            .attribute("size", Attribute::new(Type::Number).required())
            .attribute("kind", Attribute::new(Type::String).optional().computed());
        let endpoint = NestedType::new(
            AttributeNesting::Map,
            [
                ("host", Attribute::new(Type::String).required()),
                ("ip", Attribute::new(Type::String).computed()),
            ],
        );
        Block::new()
            .attribute("name", Attribute::new(Type::String).required())
            .attribute("id", Attribute::new(Type::String).computed())
            .attribute("endpoint", Attribute::nested(endpoint).optional())
            .block_type("disk", NestedBlock::new(BlockNesting::List, disk.clone()))
            .block_type("rule", NestedBlock::new(BlockNesting::Set, disk))
    }

    fn config() -> Value {
        let disk =
            |size: i64, kind: Value| Value::object([("size", Value::from(size)), ("kind", kind)]);
        Value::object([
            ("name", Value::from("a")),
            ("id", Value::Null),
            (
                "endpoint",
                Value::map([(
                    "e",
                    Value::object([("host", Value::from("h")), ("ip", Value::Null)]),
                )]),
            ),
            (
                "disk",
                Value::list([disk(1, Value::Null), disk(2, Value::from("ssd"))]),
            ),
            ("rule", Value::set([disk(3, Value::Null)])),
        ])
    }

    fn plain(_: &Path) -> Refinements {
        Refinements::new()
    }

    #[test]
    fn a_create_makes_every_unset_computed_attribute_unknown_at_any_depth() {
        let b = block();
        let config = config();
        let proposed = b.proposed_new(&Value::Null, &config);
        let planned = b.mark_computed_unknown(&Value::Null, &config, &proposed, plain);
        let unknown: Vec<String> = planned
            .unknown_paths(&b.implied_type())
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            unknown,
            [
                ".disk[0].kind",
                ".endpoint[\"e\"].ip",
                ".id",
                ".rule[0].kind"
            ]
        );
        assert_eq!(planned["disk"][1]["kind"].as_str(), Some("ssd"));
        assert!(b.check_plan(&Value::Null, &config, &planned).is_empty());
        assert_eq!(
            b.mark_computed_unknown(&Value::Null, &config, &Value::Null, plain),
            Value::Null
        );
    }

    #[test]
    fn an_update_changes_nothing_when_nothing_changes_and_keeps_what_it_is_told_to() {
        let b = block();
        let config = config();
        let created = b.proposed_new(&Value::Null, &config);
        let mut prior = created.clone();
        for (path, v) in [
            (Path::root().attribute("id"), "i-1"),
            (
                Path::root().attribute("disk").index(0).attribute("kind"),
                "std",
            ),
            (
                Path::root().attribute("endpoint").key("e").attribute("ip"),
                "10.0.0.1",
            ),
        ] {
            prior.set_at_path(&path, Value::from(v)).unwrap();
        }
        let proposed = b.proposed_new(&prior, &config);
        assert_eq!(
            b.mark_computed_unknown(&prior, &config, &proposed, plain),
            proposed
        );

        let renamed = config
            .clone()
            .with_attribute("name", Value::from("b"))
            .unwrap();
        let proposed = b.proposed_new(&prior, &renamed);
        let planned = b.mark_computed_unknown(&prior, &renamed, &proposed, plain);
        assert!(planned["id"].is_unknown() && planned["disk"][0]["kind"].is_unknown());
        let id = Path::root().attribute("id");
        let kept = b.keep_prior(&prior, &planned, |p| *p == id);
        assert_eq!(kept["id"].as_str(), Some("i-1"));
        // Set elements have no position to find their prior selves by: kept unknown.
        let rule =
            |kind: Value| Value::set([Value::object([("size", Value::from(3)), ("kind", kind)])]);
        let prior = prior
            .with_attribute("rule", rule(Value::from("r")))
            .unwrap();
        let planned = planned
            .with_attribute("rule", rule(Value::unknown()))
            .unwrap();
        let every = b.keep_prior(&prior, &planned, |_| true);
        assert_eq!(every["disk"][0]["kind"].as_str(), Some("std"));
        assert!(every["rule"][0]["kind"].is_unknown());
        assert!(kept["disk"][0]["kind"].is_unknown());
        assert!(b.check_plan(&prior, &renamed, &kept).is_empty());
        let name = Path::root().attribute("name");
        assert_eq!(
            b.requires_replace(&prior, &kept, &[name.clone(), id]),
            [name]
        );
        assert!(b
            .requires_replace(&Value::Null, &kept, &[Path::root().attribute("name")])
            .is_empty());
    }

    #[test]
    fn defaults_fill_only_what_the_configuration_leaves_null() {
        let b = block();
        let config = config();
        let kind0 = Path::root().attribute("disk").index(0).attribute("kind");
        let kind1 = Path::root().attribute("disk").index(1).attribute("kind");
        let planned = b
            .apply_defaults(
                &config,
                &config,
                &[(kind0, Value::from("std")), (kind1, Value::from("std"))],
            )
            .unwrap();
        assert_eq!(planned["disk"][0]["kind"].as_str(), Some("std"));
        assert_eq!(planned["disk"][1]["kind"].as_str(), Some("ssd"));
        let nowhere = Path::root().attribute("disk").index(7).attribute("kind");
        assert!(b
            .apply_defaults(&config, &config, &[(nowhere, Value::from("x"))])
            .is_err());
    }
}

/// The value a response case gives for `name`: its JSON notation, or its MessagePack
/// payload (`<name>_msgpack`, hex), decoded with the schema's type.
fn response_value(c: &Json, name: &str, ty: &Type) -> Result<Value, crate::Error> {
    match c.get(format!("{name}_msgpack")).and_then(Json::as_str) {
        Some(hex) => {
            let bytes: Vec<u8> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
                .collect();
            crate::msgpack::decode(&bytes, ty)
        }
        None => Ok(value(&c[name], ty)),
    }
}

/// Runs one case of `ctywire-responses.json`: the check it names on its values, compared
/// field by field with what it expects (or the decoding error it expects).
fn run_response_case(
    c: &Json,
    block: &Block,
    ty: &Type,
    address: &str,
    provider: &str,
) -> Result<(), String> {
    let names: &[&str] = match c["check"].as_str() {
        Some("plan") => &["prior", "config", "planned"],
        Some("apply") => &["planned", "new"],
        Some("read") => &["new"],
        Some("requires_replace") => &["prior", "planned"],
        other => return Err(format!("unknown check {other:?}")),
    };
    let mut values = Vec::new();
    for name in names {
        match (response_value(c, name, ty), c.get("decode_error")) {
            (Ok(v), _) => values.push(v),
            (Err(e), Some(want)) if want["value"] == *name => {
                let got = serde_json::json!({
                    "kind": format!("{:?}", e.kind()),
                    "path": e.path().to_string(),
                });
                return if got["kind"] == want["kind"] && got["path"] == want["path"] {
                    Ok(())
                } else {
                    Err(format!("decoding {name}: want {want}, got {got} ({e})"))
                };
            }
            (Err(e), _) => return Err(format!("{name} does not decode: {e}")),
        }
    }
    if let Some(want) = c.get("decode_error") {
        return Err(format!(
            "want the decoding error {want}, but every value decodes"
        ));
    }
    let found = match (c["check"].as_str(), values.as_slice()) {
        (Some("plan"), [prior, config, planned]) => block.check_plan(prior, config, planned),
        (Some("apply"), [planned, new]) => block.check_apply(planned, new),
        (Some("read"), [new]) => block.check_read(new),
        (_, [prior, planned]) => {
            block.check_requires_replace(prior, planned, &paths(c.get("requires_replace")))
        }
        _ => unreachable!("one arm per check"),
    };
    let want = c["found"].as_array().expect("found");
    if want.len() != found.len() {
        return Err(format!(
            "want {} problems, got {}: {found:#?}",
            want.len(),
            found.len()
        ));
    }
    for (w, got) in want.iter().zip(&found) {
        let d = got.terraform_diagnostic(address, provider);
        let mut fields = vec![
            ("rule", Some(got.rule.name().to_owned())),
            ("summary", Some(d.summary)),
            ("detail", Some(d.detail)),
        ];
        if w.get("path").is_some() {
            let path = Path::parse(w["path"].as_str().expect("a path")).expect("a valid path");
            fields.push(("path", (path == got.path).then(|| w["path"].to_string())));
        }
        if w.get("terraform_text").is_some() {
            fields.push(("terraform_text", Some(got.terraform_text())));
        }
        for (field, got_text) in fields {
            let want_text = match field {
                "path" => Some(w["path"].to_string()),
                _ => w[field].as_str().map(str::to_owned),
            };
            if got_text != want_text {
                return Err(format!(
                    "{field}:\n  want: {want_text:?}\n  got:  {got_text:?} ({got:?})"
                ));
            }
        }
    }
    Ok(())
}

/// Runs a file of Terraform's checks around objchange's (`ctywire-responses.json`).
fn run_responses(file: &str) {
    let path = format!("{}/vectors/plan/{file}", env!("CARGO_MANIFEST_DIR"));
    let doc: Json = serde_json::from_str(&std::fs::read_to_string(path).expect("the file"))
        .expect("vector JSON");
    let (address, provider) = (
        doc["address"].as_str().expect("address"),
        doc["provider"].as_str().expect("provider"),
    );
    let mut failures = Vec::new();
    let cases = cases(file);
    for (c, block, ty) in &cases {
        if let Err(e) = run_response_case(c, block, ty, address, provider) {
            failures.push(format!("{}: {e}", c["name"]));
        }
    }
    finish(file, failures, cases.len());
}

#[test]
fn ctywire_responses() {
    run_responses("ctywire-responses.json");
}

/// `ctywire-clients.json`: each case with each client's rules.
#[test]
fn ctywire_clients() {
    let mut failures = Vec::new();
    let cases = cases("ctywire-clients.json");
    let mut ran = 0;
    for (c, block, ty) in &cases {
        let v = |name: &str| value(&c[name], ty);
        for (client, want) in c["expect"].as_object().expect("expect") {
            let client: super::Client = client.parse().expect("a client");
            ran += 1;
            let found = match c["check"].as_str() {
                Some("proposed") => {
                    let got = block.try_proposed_new_for(client, &v("prior"), &v("config"));
                    let got = match (got, want.get("fails")) {
                        (Err(fails), Some(f)) => {
                            let (path, panic) = (f["path"].as_str(), f["panic"].as_str());
                            let expected = format!("{} fails on this value: ", client.release());
                            if Some(fails.terraform_path.as_str()) != path
                                || !fails.message.starts_with(&expected)
                                || !fails
                                    .message
                                    .ends_with(&format!("(it panics: {})", panic.expect("panic")))
                            {
                                failures.push(format!("{} ({client}): {fails}", c["name"]));
                            }
                            continue;
                        }
                        (Ok(got), None) => got,
                        (got, _) => {
                            failures.push(format!("{} ({client}): got {got:?}", c["name"]));
                            continue;
                        }
                    };
                    let want = value(&want["proposed"], ty);
                    if !cty::raw_equal(&got, &want, ty, Refined::Compare) {
                        failures.push(format!(
                            "{} ({client}):\n  want: {}\n  got:  {}",
                            c["name"],
                            want.to_go_syntax(ty),
                            got.to_go_syntax(ty)
                        ));
                    }
                    continue;
                }
                Some("plan") => {
                    block.check_plan_for(client, &v("prior"), &v("config"), &v("planned"))
                }
                Some("apply") => block.check_apply_for(client, &v("planned"), &v("actual")),
                other => panic!("check {other:?}"),
            };
            let mut case = c.clone();
            case["name"] = Json::String(format!("{} ({client})", c["name"]));
            case["violations"] = want["violations"].clone();
            compare(&case, &found, &mut failures);
            // The diagnostics' details as the client writes them, in order.
            if let Some(details) = want.get("details") {
                let got: Vec<String> = found
                    .iter()
                    .map(|i| {
                        i.diagnostic_for(client, "demo_thing.x", "example.com/ctywire/demo")
                            .detail
                    })
                    .collect();
                let want: Vec<&str> = details
                    .as_array()
                    .expect("details")
                    .iter()
                    .map(|d| d.as_str().expect("a detail"))
                    .collect();
                if got != want {
                    failures.push(format!(
                        "{} details:\n  want: {want:#?}\n  got:  {got:#?}",
                        case["name"]
                    ));
                }
            }
        }
    }
    finish("ctywire-clients.json", failures, ran);
}

/// What the checks' messages may print: a value shows a sensitive attribute unless it
/// is null or an unknown without refinements, at any depth, inside sets holding
/// unknowns too.
#[test]
fn what_reveals_a_sensitive_attribute() {
    use crate::schema::{Attribute, BlockNesting, NestedBlock};
    let inner = Block::new()
        .attribute("s", Attribute::new(Type::String).optional().sensitive())
        .attribute("x", Attribute::new(Type::String).optional());
    let element = |s: Value, x: Value| Value::object([("s", s), ("x", x)]);
    let reveals =
        |s: Value| super::marks::block_reveals_sensitive(&inner, &element(s, Value::from("a")));
    assert!(reveals(Value::from("hunter2")));
    assert!(!reveals(Value::Null));
    assert!(!reveals(Value::unknown()));
    assert!(!reveals(Value::Unknown(Refinements::new().not_null())));
    assert!(reveals(Value::Unknown(
        Refinements::new().with_string_prefix("hunt")
    )));
    // In a set of blocks whose other element holds an unknown (Terraform's marks take
    // everything below it as unknown; the secret is still there).
    let outer = NestedBlock::new(BlockNesting::Set, inner.clone());
    let set = Value::set([
        element(Value::from("hunter2"), Value::unknown()),
        element(Value::Null, Value::from("b")),
    ]);
    assert!(super::marks::blocks_reveal_sensitive(&outer, &set));
    let set = Value::set([element(Value::Null, Value::unknown())]);
    assert!(!super::marks::blocks_reveal_sensitive(&outer, &set));
    assert!(!super::marks::blocks_reveal_sensitive(&outer, &Value::Null));
}
