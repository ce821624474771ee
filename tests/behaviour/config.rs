//! `.tf.json` configurations decoded with the example provider's schemas
//! (`examples/schema/provider.json`): one test per rule of `ctywire::config`.

use ctywire::config::{Config, Diagnostics};
use ctywire::{msgpack, ProviderSchemas, Refinements, Type, Value};

fn schemas() -> ProviderSchemas {
    let text = std::fs::read("examples/schema/provider.json").expect("example schema");
    ProviderSchemas::from_json(&text).expect("example schema reads")
}

fn config(json: &str) -> Config {
    Config::from_sources([("main.tf.json", json)]).unwrap_or_else(|e| panic!("{e}"))
}

fn value(json: &str, address: &str) -> Value {
    try_value(json, address).unwrap_or_else(|e| panic!("{e}"))
}

fn try_value(json: &str, address: &str) -> Result<Value, Diagnostics> {
    config(json).value(&address.parse().expect("address"), &schemas())
}

/// The diagnostics of a configuration that must fail, one string each.
fn errors(json: &str, address: &str) -> Vec<String> {
    let diags = match Config::from_sources([("main.tf.json", json)]) {
        Err(d) => d,
        Ok(c) => c
            .value(&address.parse().expect("address"), &schemas())
            .expect_err("the configuration should fail"),
    };
    diags.iter().map(|d| d.to_string()).collect()
}

/// A minimal valid `cloud_instance` body with `extra` properties added.
fn instance(extra: &str) -> String {
    let sep = if extra.is_empty() { "" } else { "," };
    format!(
        r#"{{"resource": {{"cloud_instance": {{"web": {{
  "name": "web", "image_id": "img-1", "disk": {{"device_name": "/dev/sda"}}{sep}{extra}
}}}}}}}}"#
    )
}

fn known_string(v: &Value) -> &str {
    v.as_str()
        .unwrap_or_else(|| panic!("expected a known string, found {v:?}"))
}

// ---- file structure ----

#[test]
fn top_level_blocks_are_listed_with_addresses() {
    let c = config(
        r#"{
  "terraform": {"required_version": ">= 1.6"},
  "provider": {"cloud": [{"region": "eu"}, {"alias": "us", "region": "us"}]},
  "variable": {"env": {"default": "prod"}},
  "locals": {"a": 1, "b": 2},
  "resource": {"cloud_instance": {"web": {}, "db": {}}, "cloud_bucket": {"logs": {}}},
  "data": {"cloud_image": {"ubuntu": {}}},
  "output": {"id": {"value": "x"}},
  "module": {"net": {"source": "./net"}},
  "moved": {"from": "a", "to": "b"},
  "check": {"health": {}}
}"#,
    );
    let listed: Vec<String> = c
        .declarations()
        .into_iter()
        .map(|d| format!("{} {}", d.kind, d.address))
        .collect();
    assert_eq!(
        listed,
        [
            "terraform terraform",
            "provider provider.cloud",
            "provider provider.cloud.us",
            "variable var.env",
            "local local.a",
            "local local.b",
            "resource cloud_instance.web",
            "resource cloud_instance.db",
            "resource cloud_bucket.logs",
            "data data.cloud_image.ubuntu",
            "output output.id",
            "module module.net",
            "moved moved",
            "check check.health",
        ]
    );
    let web = &c.declarations()[6];
    assert_eq!((web.location.line, web.location.column), (6, 42));
}

#[test]
fn label_levels_may_be_arrays_and_the_root_an_array() {
    let c = config(
        r#"[{"resource": [{"cloud_bucket": {"a": {}}}, {"cloud_bucket": [{"b": {}}, {"c": {}}]}]},
            {"data": {"cloud_image": {"x": {}}}}]"#,
    );
    let listed: Vec<String> = c.declarations().into_iter().map(|d| d.address).collect();
    assert_eq!(
        listed,
        [
            "cloud_bucket.a",
            "cloud_bucket.b",
            "cloud_bucket.c",
            "data.cloud_image.x"
        ]
    );
}

#[test]
fn an_unknown_top_level_property_is_extraneous() {
    assert_eq!(
        errors(r#"{"resources": {}}"#, "cloud_bucket.a"),
        [
            r#"main.tf.json:1,2: Extraneous JSON object property; No argument or block type is named "resources". Did you mean "resource"?"#
        ]
    );
}

#[test]
fn tofu_json_replaces_tf_json_of_the_same_name() {
    let c = Config::from_sources([
        (
            "dir/main.tf.json",
            r#"{"resource": {"cloud_bucket": {"tf": {}}}}"#,
        ),
        (
            "dir/main.tofu.json",
            r#"{"resource": {"cloud_bucket": {"tofu": {}}}}"#,
        ),
        (
            "dir/other.tf.json",
            r#"{"resource": {"cloud_bucket": {"other": {}}}}"#,
        ),
    ])
    .unwrap();
    let listed: Vec<String> = c.declarations().into_iter().map(|d| d.address).collect();
    assert_eq!(listed, ["cloud_bucket.tofu", "cloud_bucket.other"]);
}

#[test]
fn other_files_are_refused() {
    let err = Config::from_sources([("main.tf", "x"), ("override.tf.json", "{}")]).unwrap_err();
    let messages: Vec<String> = err.iter().map(|d| d.summary.clone()).collect();
    assert_eq!(
        messages,
        [
            "Unsupported configuration file",
            "Unsupported override file"
        ]
    );
}

#[test]
fn json_syntax_errors_have_a_position() {
    assert_eq!(
        errors("{\n  \"resource\": [1,]\n}", "cloud_bucket.a"),
        ["main.tf.json:2,18: Invalid JSON; expected a JSON value, found `]`"]
    );
}

#[test]
fn duplicate_declarations() {
    let errs = errors(
        r#"{"resource": {"cloud_bucket": {"a": [{}, {}]}},
            "variable": {"v": [{}, {}]},
            "provider": {"cloud": [{}, {}]}}"#,
        "cloud_bucket.a",
    );
    assert_eq!(errs.len(), 3);
    // Blocks in one array share the array's bracket as their definition range.
    assert!(errs[0].starts_with("main.tf.json:1,37: Duplicate resource \"cloud_bucket\" configuration; A cloud_bucket resource named \"a\" was already declared at main.tf.json:1,37-38."), "{errs:?}");
    assert!(errs[1].contains("Duplicate variable declaration"));
    assert!(errs[2].contains("Duplicate provider configuration; A default (non-aliased) provider configuration for \"cloud\""));
}

// ---- bodies: comments, attributes, meta-arguments ----

#[test]
fn comments_are_ignored_in_bodies_only() {
    let v = value(
        &instance(r#""//": "a comment", "metadata": {"//": "an attribute"}"#),
        "cloud_instance.web",
    );
    let metadata = &v["metadata"];
    assert_eq!(
        metadata.recorded_type().unwrap().to_expr(),
        r#"object({"//"=string})"#
    );
    assert_eq!(metadata["//"].as_str(), Some("an attribute"));
}

#[test]
fn absent_attributes_are_null_and_absent_blocks_per_nesting() {
    let v = value(&instance(""), "cloud_instance.web");
    for name in ["arn", "tags", "boot_disk", "ports", "volumes", "metadata"] {
        assert!(v[name].is_null(), "{name}");
    }
    assert!(v["timeouts"].is_null(), "SINGLE: null");
    assert_eq!(v["ingress"], Value::set([]), "SET: empty");
    assert_eq!(
        v["label"],
        Value::map(Vec::<(&str, Value)>::new()),
        "MAP: empty"
    );
    let monitoring = &v["monitoring"];
    assert!(monitoring["enabled"].is_null(), "GROUP: an object of nulls");
    assert_eq!(monitoring["alarm"], Value::list([]));
    let ty = schemas().resource("cloud_instance").unwrap().implied_type();
    let bytes = msgpack::encode(&v, &ty).unwrap();
    // The dynamic LIST block `extension` is an empty tuple, the dynamic MAP block
    // `plugin` an empty object, each in the dynamic wrapper.
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    assert!(hex.contains(&format!(
        "a9{}92c40c{}90",
        hexs("extension"),
        hexs(r#"["tuple",[]]"#)
    )));
    assert!(hex.contains(&format!(
        "a6{}92c40d{}80",
        hexs("plugin"),
        hexs(r#"["object",{}]"#)
    )));
}

fn hexs(s: &str) -> String {
    s.bytes().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn meta_arguments_are_left_out() {
    let v = value(
        &instance(
            r#""count": 1, "provider": "cloud.us", "depends_on": ["x.y"],
               "lifecycle": {"create_before_destroy": true, "ignore_changes": ["tags"]},
               "connection": {"host": "h"}, "provisioner": {"local-exec": {"command": "c"}}"#,
        ),
        "cloud_instance.web[0]",
    );
    assert_eq!(v["name"].as_str(), Some("web"));
}

#[test]
fn the_escaping_block_puts_meta_argument_names_back() {
    // `_` merges its body into the configuration; the schema has no `count`, so the
    // name reaches the schema and is extraneous there.
    let errs = errors(&instance(r#""_": {"count": 3}"#), "cloud_instance.web");
    assert_eq!(errs.len(), 1);
    assert!(
        errs[0].contains(r#"No argument or block type is named "count"."#),
        "{errs:?}"
    );
}

#[test]
fn provider_blocks_with_aliases() {
    let json = r#"{"provider": {"cloud": [
        {"region": "eu-west-1", "assume_role": {"role_arn": "arn:r"}},
        {"alias": "us", "region": "us-east-1", "max_retries": 3}
    ]}}"#;
    let default = value(json, "provider.cloud");
    assert_eq!(default["region"].as_str(), Some("eu-west-1"));
    assert_eq!(
        default["assume_role"][0]["role_arn"].as_str(),
        Some("arn:r")
    );
    let us = value(json, "provider.cloud.us");
    assert_eq!(us["max_retries"].as_i64(), Some(3));
    assert_eq!(us["assume_role"], Value::list([]));
    assert!(us.get("alias").is_none());
}

// ---- blocks by nesting ----

#[test]
fn blocks_as_object_or_array_of_objects() {
    let v = value(
        &instance(
            r#""disk": {"device_name": "b", "encryption": {"kms_key_id": "k"}},
               "ingress": {"from_port": 1, "to_port": 2, "protocol": "tcp"},
               "label": {"env": {"value": "prod"}, "team": [{"value": "ops", "propagate": true}]},
               "timeouts": {"create": "5m"},
               "monitoring": {"enabled": true, "alarm": [{"name": "cpu"}]}"#,
        ),
        "cloud_instance.web",
    );
    // The base body's `disk` and this one: two blocks, in order.
    assert_eq!(v["disk"].len(), Some(2));
    assert_eq!(v["disk"][1]["encryption"]["kms_key_id"].as_str(), Some("k"));
    assert!(v["disk"][0]["encryption"].is_null());
    assert_eq!(v["ingress"].len(), Some(1));
    assert_eq!(v["label"]["team"]["propagate"].as_bool(), Some(true));
    assert_eq!(v["timeouts"]["create"].as_str(), Some("5m"));
    assert_eq!(v["monitoring"]["alarm"][0]["name"].as_str(), Some("cpu"));
}

#[test]
fn a_dynamic_list_block_is_a_tuple_keeping_each_blocks_types() {
    let v = value(
        &instance(
            r#""extension": [{"name": "a", "settings": {"x": 1}}, {"name": "b", "settings": "s"}]"#,
        ),
        "cloud_instance.web",
    );
    assert_eq!(
        v["extension"].recorded_type().unwrap().to_expr(),
        "tuple([object({name=string,settings=object({x=number}),version=string}),object({name=string,settings=string,version=string})])"
    );
}

#[test]
fn block_counts_are_checked() {
    let too_few = errors(
        r#"{"resource": {"cloud_instance": {"web": {"name": "w", "image_id": "i"}}}}"#,
        "cloud_instance.web",
    );
    assert_eq!(
        too_few,
        [r#"main.tf.json:1,70: Insufficient disk blocks; At least 1 "disk" blocks are required."#]
    );
    let too_many = errors(
        &instance(
            r#""disk": [{"device_name": "a"}, {"device_name": "b"}, {"device_name": "c"}, {"device_name": "d"}, {"device_name": "e"}]"#,
        ),
        "cloud_instance.web",
    );
    assert_eq!(too_many.len(), 1);
    assert!(
        too_many[0].contains(r#"Too many disk blocks; No more than 4 "disk" blocks are allowed"#)
    );
    let two_single = errors(&instance(r#""timeouts": [{}, {}]"#), "cloud_instance.web");
    assert!(two_single[0].contains("Duplicate timeouts block; Only one block of type \"timeouts\" is allowed. Previous definition was at main.tf.json:"));
    let same_label = errors(
        &instance(r#""label": {"a": [{"value": "x"}, {"value": "y"}]}"#),
        "cloud_instance.web",
    );
    assert!(same_label[0].contains(r#"Duplicate label block; A block for label "a" was already defined. The label labels must be unique."#));
    let required_step = errors(
        &instance(r#""pipeline": {"name": "p"}"#),
        "cloud_instance.web",
    );
    assert!(required_step[0].contains(r#"Insufficient step blocks"#));
}

#[test]
fn a_map_block_needs_its_label() {
    let errs = errors(&instance(r#""label": {}"#), "cloud_instance.web");
    assert!(errs[0].contains("Missing block label; At least one object property is required, whose name represents the label block's key."), "{errs:?}");
    let errs = errors(&instance(r#""timeouts": "5m""#), "cloud_instance.web");
    assert!(errs[0].contains(r#"Incorrect JSON value type; Either a JSON object or a JSON array is required, representing the contents of one or more "timeouts" blocks."#), "{errs:?}");
}

// ---- attributes and errors ----

#[test]
fn argument_errors_as_terraform_words_them() {
    let errs = errors(&instance(r#""nmae": "x""#), "cloud_instance.web");
    assert_eq!(
        errs,
        // No "Did you mean "name"?": HCL suggests only arguments not set already.
        [
            r#"main.tf.json:2,75: Extraneous JSON object property; No argument or block type is named "nmae"."#
        ]
    );
    let errs = errors(
        r#"{"resource": {"cloud_instance": {"web": {"image_id": "i", "disk": {"device_name": "d"}}}}}"#,
        "cloud_instance.web",
    );
    assert_eq!(
        errs,
        [
            r#"main.tf.json:1,87: Missing required argument; The argument "name" is required, but no definition was found."#
        ]
    );
    let errs = errors(&instance(r#""image_id": "again""#), "cloud_instance.web");
    assert_eq!(
        errs,
        [
            r#"main.tf.json:2,75: Duplicate argument; The argument "image_id" was already set at main.tf.json:2,18-37."#
        ]
    );
    let errs = errors(&instance(r#""cpu_count": true"#), "cloud_instance.web");
    assert_eq!(
        errs,
        [
            r#"main.tf.json:2,88: Incorrect attribute value type; Inappropriate value for attribute "cpu_count": number required, but have bool."#
        ]
    );
}

#[test]
fn every_diagnostic_is_reported() {
    let errs = errors(
        &instance(r#""a": 1, "b": 2, "cpu_count": "${undeclared.x}""#),
        "cloud_instance.web",
    );
    assert_eq!(errs.len(), 2, "{errs:?}");
}

// ---- templates and references ----

#[test]
fn literal_text_and_escapes() {
    let v = value(
        &instance(r#""user_data": "echo $${HOME} %%{x} $ % 100%""#),
        "cloud_instance.web",
    );
    assert_eq!(known_string(&v["user_data"]), "echo ${HOME} %{x} $ % 100%");
}

#[test]
fn a_single_interpolation_is_the_value_unconverted() {
    let json = r#"{"variable": {"n": {"default": 3}, "s": {"default": "s"}, "o": {"default": {"a": [true]}}},
        "resource": {"cloud_instance": {"web": {
          "name": "w", "image_id": "i", "disk": {"device_name": "d"},
          "metadata": "${var.o}",
          "extension": [{"name": "a", "settings": "${var.n}"}, {"name": "b", "settings": "${ var.s }x"}]
        }}}}"#;
    let v = value(json, "cloud_instance.web");
    assert_eq!(
        v["metadata"].recorded_type().unwrap().to_expr(),
        "object({a=tuple([bool])})"
    );
    let types = v["extension"].recorded_type().unwrap().to_expr();
    assert!(types.contains("settings=number"), "{types}");
    assert_eq!(v["extension"][1]["settings"].as_str(), Some("sx"));
}

#[test]
fn variables_with_defaults_and_locals_are_evaluated() {
    let json = r#"{
      "variable": {
        "env": {"type": "string", "default": "prod"},
        "size": {"type": "number", "default": 100},
        "settings": {"type": "object({mode=string, spot=optional(bool, true)})", "default": {"mode": "fast"}},
        "unset": {"type": "string"}
      },
      "locals": {"prefix": "web-${var.env}", "both": "${local.prefix}/${var.env}"},
      "resource": {"cloud_instance": {"web": {
        "name": "${local.both}", "image_id": "${var.unset}",
        "disk": {"device_name": "d", "size_gb": "${var.size}"},
        "instance_type": "${var.settings.mode}",
        "metadata": "${var.settings}"
      }}}}"#;
    let v = value(json, "cloud_instance.web");
    assert_eq!(known_string(&v["name"]), "web-prod/prod");
    assert_eq!(v["disk"][0]["size_gb"].as_i64(), Some(100));
    assert_eq!(known_string(&v["instance_type"]), "fast");
    assert_eq!(
        v["metadata"]["spot"].as_bool(),
        Some(true),
        "optional() default filled in"
    );
    assert_eq!(
        v["image_id"],
        Value::unknown(),
        "a variable without a default"
    );
}

#[test]
fn unknown_parts_make_a_refined_unknown_string() {
    let v = value(
        &instance(
            r#""hostname": "arn:aws:s3:::${aws_s3_bucket.b.id}/x",
               "instance_type": "${upper(aws_thing.x.name)}-1",
               "user_data": "${data.cloud_image.u.id}""#,
        ),
        "cloud_instance.web",
    );
    assert_eq!(
        v["hostname"],
        Value::Unknown(
            Refinements::new()
                .not_null()
                .with_string_prefix("arn:aws:s3:::")
        )
    );
    // No known prefix: not null only.
    assert_eq!(
        v["instance_type"],
        Value::Unknown(Refinements::new().not_null())
    );
    // A single interpolation of an unknown: a plain unknown.
    assert_eq!(v["user_data"], Value::unknown());
    // The prefix drops a last character that could still change; 128 bytes at most.
    let long = "a".repeat(200);
    let v = value(
        &instance(&format!(
            r#""hostname": "web1${{x.y.z}}", "user_data": "{long}-${{x.y.z}}""#
        )),
        "cloud_instance.web",
    );
    assert_eq!(
        v["hostname"].refinements().unwrap().string_prefix(),
        Some("web")
    );
    assert_eq!(
        v["user_data"].refinements().unwrap().string_prefix(),
        Some(&long[..127])
    );
    // On the wire: extension 12 (fixext 8) with not-null and the prefix.
    let ty = schemas().resource("cloud_instance").unwrap().implied_type();
    let bytes = msgpack::encode(
        &value(
            &instance(r#""hostname": "ab-${x.y}""#),
            "cloud_instance.web",
        ),
        &ty,
    )
    .unwrap();
    assert!(hexs_of(&bytes).contains("a8686f73746e616d65d70c8201c202a361622d"));
}

fn hexs_of(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn directives_with_known_conditions_and_collections() {
    let json = r#"{"variable": {"on": {"default": true}, "xs": {"default": ["a", "b"]}},
      "resource": {"cloud_instance": {"web": {"name": "%{ if var.on }on%{ else }off%{ endif }:%{ for x in var.xs }${x},%{ endfor }",
        "image_id": "%{ if aws.x.y }a%{ endif }", "disk": {"device_name": "d"}}}}}"#;
    let v = value(json, "cloud_instance.web");
    assert_eq!(known_string(&v["name"]), "on:a,b,");
    assert_eq!(v["image_id"], Value::Unknown(Refinements::new().not_null()));
}

#[test]
fn reference_errors() {
    let errs = errors(
        &instance(r#""user_data": "${var.nope}""#),
        "cloud_instance.web",
    );
    assert!(errs[0].contains(r#"Reference to undeclared input variable; An input variable with the name "nope" has not been declared."#), "{errs:?}");
    let errs = errors(
        &instance(r#""user_data": "${local.nope}""#),
        "cloud_instance.web",
    );
    assert!(errs[0].contains(r#"Reference to undeclared local value"#));
    let errs = errors(
        &instance(r#""user_data": "${count.index}""#),
        "cloud_instance.web",
    );
    assert!(errs[0].contains(r#"Reference to "count" in non-counted context"#));
    let errs = errors(
        &instance(r#""user_data": "a${null}""#),
        "cloud_instance.web",
    );
    assert!(
        errs[0].contains("Invalid template interpolation value; The expression result is null.")
    );
    let errs = errors(
        &instance(r#""user_data": "${ x y }""#),
        "cloud_instance.web",
    );
    assert!(
        errs[0].contains("Extra characters after interpolation expression"),
        "{errs:?}"
    );
    let errs = errors(
        r#"{"locals": {"a": "${local.b}", "b": "${local.a}"}, "resource": {"cloud_bucket": {"x": {"name": "${local.a}"}}}}"#,
        "cloud_bucket.x",
    );
    assert!(errs[0].contains("Cycle in local values"), "{errs:?}");
}

// ---- count, for_each, dynamic ----

#[test]
fn instance_keys_give_count_and_each() {
    let json = r#"{"resource": {"cloud_instance": {
        "n": {"count": 3, "name": "n", "image_id": "i", "disk": {"device_name": "d"}, "metadata": "${count.index}"}
      }, "cloud_bucket": {
        "m": {"for_each": {"a": "x", "b": "y"}, "name": "${each.key}=${each.value}"}
      }}}"#;
    assert_eq!(
        value(json, "cloud_instance.n[2]")["metadata"],
        Value::typed(Type::Number, Value::from(2))
    );
    assert_eq!(
        known_string(&value(json, r#"cloud_bucket.m["b"]"#)["name"]),
        "b=y"
    );
    // Without a key, as `terraform validate` sees it.
    assert_eq!(
        value(json, "cloud_instance.n")["metadata"],
        Value::typed(Type::Number, Value::unknown())
    );
    assert_eq!(
        value(json, "cloud_bucket.m")["name"],
        Value::Unknown(Refinements::new().not_null())
    );
    let errs = errors(json, "cloud_instance.n[3]");
    assert!(errs[0].contains("there is no instance [3]"), "{errs:?}");
    let errs = errors(json, r#"cloud_bucket.m["c"]"#);
    assert!(errs[0].contains(r#"no instance ["c"]"#), "{errs:?}");
}

#[test]
fn dynamic_blocks_with_literal_for_each() {
    let v = value(
        &instance(
            r#""dynamic": {
                 "ingress": {"for_each": [22, 443], "iterator": "port",
                   "content": {"from_port": "${port.value}", "to_port": "${port.value}", "protocol": "tcp"}},
                 "label": {"for_each": {"env": "prod", "team": "ops"}, "labels": ["${label.key}"],
                   "content": {"value": "${label.value}"}},
                 "disk": {"for_each": ["b", "c"], "content": {"device_name": "/dev/sd${disk.value}"}}
               }"#,
        ),
        "cloud_instance.web",
    );
    assert_eq!(v["ingress"].len(), Some(2));
    assert_eq!(v["label"]["team"]["value"].as_str(), Some("ops"));
    // Literal and generated blocks in the order written.
    let disks: Vec<&str> = (0..3)
        .map(|i| known_string(&v["disk"][i]["device_name"]))
        .collect();
    assert_eq!(disks, ["/dev/sda", "/dev/sdb", "/dev/sdc"]);
}

#[test]
fn dynamic_blocks_with_unknown_for_each() {
    let v = value(
        &instance(
            r#""dynamic": {
                 "ingress": {"for_each": "${var.rules}", "content": {"from_port": 1, "to_port": 2, "protocol": "${ingress.value}"}},
                 "timeouts": {"for_each": "${aws.x.y}", "content": {"create": "1m"}}
               }"#,
        )
        .replace(r#"{"resource""#, r#"{"variable": {"rules": {}}, "resource""#),
        "cloud_instance.web",
    );
    assert_eq!(v["ingress"], Value::unknown(), "the whole SET is unknown");
    assert_eq!(
        v["timeouts"]["create"],
        Value::unknown(),
        "a SINGLE block's attributes are"
    );
    assert!(v["timeouts"]["delete"].is_null());
}

#[test]
fn dynamic_block_errors() {
    let errs = errors(
        &instance(r#""dynamic": {"nope": {"for_each": [], "content": {}}}"#),
        "cloud_instance.web",
    );
    assert!(
        errs[0].contains(r#"Unsupported block type; Blocks of type "nope" are not expected here."#)
    );
    let errs = errors(
        &instance(r#""dynamic": {"ingress": {"for_each": []}}"#),
        "cloud_instance.web",
    );
    assert!(
        errs[0].contains("Missing dynamic content block"),
        "{errs:?}"
    );
    let errs = errors(
        &instance(r#""dynamic": {"ingress": {"for_each": 1, "content": {}}}"#),
        "cloud_instance.web",
    );
    assert!(errs[0]
        .contains("Cannot use a number value in for_each. An iterable collection is required."));
    let errs = errors(
        &instance(r#""dynamic": {"label": {"for_each": [1], "content": {}}}"#),
        "cloud_instance.web",
    );
    assert!(
        errs[0].contains(r#"Missing required argument; The argument "labels" is required"#),
        "{errs:?}"
    );
}

// ---- conversion to the schema's types ----

#[test]
fn attributes_convert_to_their_types() {
    let v = value(
        &instance(
            r#""cpu_count": "4", "tags": {"a": 1, "b": true}, "security_group_ids": ["b", "a", "b"],
               "launch_settings": {"mode": "m"}, "hostname": "port-${8080}""#,
        ),
        "cloud_instance.web",
    );
    assert_eq!(v["cpu_count"].as_i64(), Some(4));
    assert_eq!(
        v["tags"],
        Value::map([("a", Value::from("1")), ("b", Value::from("true"))])
    );
    assert_eq!(
        v["security_group_ids"],
        Value::set([Value::from("a"), Value::from("b")])
    );
    // Optional attributes of the attribute's object type are null when absent.
    assert!(v["launch_settings"]["spot"].is_null());
    assert_eq!(known_string(&v["hostname"]), "port-8080");
}

#[test]
fn nested_attributes_fill_optional_and_computed_attributes_with_null() {
    let v = value(
        &instance(
            r#""boot_disk": {"size_gb": 50},
               "network_interfaces": [{"subnet_id": "s-1"}],
               "ports": [{"port": 80}, {"port": 80}],
               "volumes": {"data": {"size_gb": "10"}}"#,
        ),
        "cloud_instance.web",
    );
    assert_eq!(v["boot_disk"]["size_gb"].as_i64(), Some(50));
    assert!(v["boot_disk"]["type"].is_null(), "optional and computed");
    assert!(
        v["network_interfaces"][0]["public_ip"].is_null(),
        "computed only"
    );
    assert_eq!(v["ports"].len(), Some(1), "a set: equal objects are one");
    assert_eq!(v["volumes"]["data"]["size_gb"].as_i64(), Some(10));
    let errs = errors(
        &instance(r#""boot_disk": {"encrypted": true}"#),
        "cloud_instance.web",
    );
    assert_eq!(errs.len(), 1);
    assert!(
        errs[0].contains(r#"Incorrect attribute value type; Inappropriate value for attribute "boot_disk": attribute "size_gb" is required."#),
        "{errs:?}"
    );
}

#[test]
fn values_that_cannot_convert() {
    let errs = errors(
        &instance(r#""cpu_count": "four", "tags": ["a"]"#),
        "cloud_instance.web",
    );
    assert_eq!(errs.len(), 2, "{errs:?}");
    assert!(errs
        .iter()
        .any(|e| e.contains(r#"Inappropriate value for attribute "cpu_count""#)));
    assert!(
        errs.iter()
            .any(|e| e
                .contains(r#"Inappropriate value for attribute "tags": map of string required"#)),
        "{errs:?}"
    );
}

// ---- where this crate departs from Terraform ----

#[test]
fn invalid_utf8_is_refused() {
    let err = Config::from_sources([("main.tf.json", &b"{\"locals\": {\"a\": \"\xff\"}}"[..])])
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "main.tf.json:1,19: Invalid JSON; invalid UTF-8 in string"
    );
}

#[test]
fn heredocs_inside_interpolations_are_refused() {
    let errs = errors(
        &instance(r#""user_data": "${<<EOT\nx\nEOT\n}""#),
        "cloud_instance.web",
    );
    assert!(errs[0].contains("Unsupported heredoc template"), "{errs:?}");
}

#[test]
fn legacy_list_of_object_attributes_are_not_blocks() {
    use ctywire::schema::{Attribute, Block, Schema};
    // Terraform's blocktoattr would let a legacy provider's list(object) attribute be
    // given by `dynamic` blocks; here it is an unsupported block type.
    let schema = Schema::new(Block::new().attribute(
        "rule",
        Attribute::new(Type::list(Type::object([("port", Type::Number)]))).optional(),
    ));
    let c = config(
        r#"{"resource": {"legacy": {"x": {"dynamic": {"rule": {"for_each": [1], "content": {"port": 1}}}}}}}"#,
    );
    let err = c.decode(&"legacy.x".parse().unwrap(), &schema).unwrap_err();
    assert!(
        err.to_string()
            .contains(r#"Unsupported block type; Blocks of type "rule" are not expected here."#),
        "{err}"
    );
    // Written as an attribute, it is one.
    let c = config(r#"{"resource": {"legacy": {"x": {"rule": null}}}}"#);
    assert!(c.decode(&"legacy.x".parse().unwrap(), &schema).unwrap()["rule"].is_null());
}

/// A value given for a resource that references cannot take it (one with `count`, an
/// instance key, an undeclared resource) is an error, not a value silently unused.
#[test]
fn a_resource_value_references_cannot_take_is_an_error() {
    let json = r#"{"resource": {"cloud_bucket": {
      "logs": {"count": 2, "name": "l"},
      "copy": {"name": "c"}
    }}}"#;
    for given in [
        "cloud_bucket.logs",
        "cloud_bucket.copy[0]",
        "cloud_bucket.nope",
    ] {
        let diags = config(json)
            .with_resource_value(&given.parse().unwrap(), Value::Null)
            .value(&"cloud_bucket.copy".parse().unwrap(), &schemas())
            .expect_err(given);
        let text = diags.to_string();
        assert!(
            text.contains("Resource value not usable") && text.contains(given),
            "{given}: {text}"
        );
    }
    let ok = config(json)
        .with_resource_value(&"cloud_bucket.copy".parse().unwrap(), Value::Null)
        .value(&"cloud_bucket.copy".parse().unwrap(), &schemas());
    assert!(ok.is_ok(), "{ok:?}");
}
