//! The public entry points against deep nesting (issue 24), in process: each runs on a
//! thread with a provider worker's stack (2 MiB, tokio's default) on input nested
//! 1,000 times past the limit. Only a bounded reader or walker finishes there; an
//! unbounded one would overflow the stack and abort this binary (the command-line test
//! `crates/ctywire-cli/tests/cli/depth.rs` proves the same of every command in a child
//! process, where an overflow is a failure rather than an abort).

use ctywire::config::{Address, Config};
use ctywire::limits::{MAX_DEPTH, MAX_EXPRESSION_DEPTH};
use ctywire::render::diff::{render_value_diff, DiffOptions};
use ctywire::{msgpack, ErrorKind, ProviderSchemas, Type, Value};

/// A provider's worker thread: tokio's default stack.
const WORKER_STACK: usize = 2 << 20;

/// Far past every limit.
const DEEP: usize = 1000 * MAX_DEPTH;

/// Runs `f` on a thread with [`WORKER_STACK`] of stack.
fn on_worker<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(WORKER_STACK)
        .spawn(f)
        .expect("the worker starts")
        .join()
        .expect("the worker does not panic")
}

fn nest(open: &str, middle: &str, close: &str, depth: usize) -> String {
    format!("{}{middle}{}", open.repeat(depth), close.repeat(depth))
}

#[test]
fn decoders_refuse_deep_values_with_the_limit_named() {
    on_worker(|| {
        let bytes = [vec![0x91; DEEP], vec![0xc0]].concat();
        let mut ty = Type::String;
        for _ in 0..=MAX_DEPTH {
            ty = Type::list(ty);
        }
        let err = msgpack::decode(&bytes, &ty).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::LimitExceeded);
        assert!(
            err.to_string()
                .contains("limit of 128 levels (ctywire::limits::MAX_DEPTH)"),
            "{err}"
        );

        let json = nest("[", "", "]", DEEP);
        let err = ctywire::json::decode(json.as_bytes(), &ty).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::LimitExceeded);

        let err = Type::from_json(&nest("[\"list\",", "\"string\"", "]", DEEP)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::LimitExceeded, "{err}");
        let err = Type::parse_expr(&nest("list(", "string", ")", DEEP)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::LimitExceeded, "{err}");

        let block = nest(
            "{\"block_types\":{\"b\":{\"nesting_mode\":\"list\",\"block\":",
            "{}",
            "}}}",
            DEEP,
        );
        let schema = format!(
            "{{\"format_version\":\"1.0\",\"provider_schemas\":{{\"p\":{{\"resource_schemas\":\
             {{\"r\":{{\"version\":0,\"block\":{block}}}}}}}}}}}"
        );
        let err = ProviderSchemas::from_json(schema.as_bytes()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::LimitExceeded, "{err}");

        let state = format!(
            "{{\"format_version\":\"1.0\",\"values\":{{\"root_module\":{{\"resources\":[\
             {{\"address\":\"t.n\",\"mode\":\"managed\",\"type\":\"t\",\"name\":\"n\",\
             \"provider_name\":\"p\",\"values\":{{\"a\":{}}}}}]}}}}}}",
            nest("[", "", "]", DEEP)
        );
        // The document reads (its values are kept as JSON); reading the value refuses.
        if let Ok(document) = ctywire::tfjson::Document::from_json(state.as_bytes()) {
            let _ = format!("{document:?}");
        }
    });
}

/// The renderer shows a string holding JSON as `jsonencode(...)`; nested deeper than
/// the limit, it is shown as the plain string it is, at once.
#[test]
fn strings_of_deep_json_render_as_strings() {
    on_worker(|| {
        let inner = nest("[", "1", "]", DEEP);
        let before = Value::from(inner.as_str());
        let after = Value::from(inner.replacen('1', "2", 1).as_str());
        let start = std::time::Instant::now();
        let shown = render_value_diff(&before, &after, &Type::String, &DiffOptions::default());
        assert!(!shown.contains("jsonencode"), "{}", &shown[..200]);
        assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());

        let shallow = nest("[", "1", "]", MAX_DEPTH);
        let shown = render_value_diff(
            &Value::from(shallow.as_str()),
            &Value::from(shallow.replacen('1', "2", 1).as_str()),
            &Type::String,
            &DiffOptions::default(),
        );
        assert!(shown.contains("jsonencode"), "{shown}");
    });
}

/// A `cloud_instance.web` of `examples/schema/provider.json` whose `name` is `template`.
fn decode_name(template: &str) -> Result<Value, String> {
    let schemas = std::fs::read("examples/schema/provider.json").expect("the example schema");
    let schemas = ProviderSchemas::from_json(&schemas).expect("the example schema reads");
    let text = format!(
        "{{\"variable\":{{\"v\":{{}}}},\"resource\":{{\"cloud_instance\":{{\"web\":{{\
         \"image_id\":\"i\",\"disk\":[{{\"device_name\":\"d\"}}],\"name\":{}}}}}}}}}",
        serde_json::to_string(template).expect("a string serialises")
    );
    let config =
        Config::from_sources([("main.tf.json", text.into_bytes())]).map_err(|d| d.to_string())?;
    let address: Address = "cloud_instance.web".parse().expect("an address");
    let schema = address.schema(&schemas).expect("the resource's schema");
    config.decode(&address, schema).map_err(|d| d.to_string())
}

#[test]
fn configurations_bound_every_nesting_construct() {
    on_worker(|| {
        for (what, text) in [
            ("if", nest("%{if true}", "x", "%{endif}", DEEP)),
            ("for", nest("%{for x in [1]}", "x", "%{endfor}", DEEP)),
            ("attributes", format!("${{var.v{}}}", ".a".repeat(DEEP))),
            ("indexes", format!("${{var.v{}}}", "[0]".repeat(DEEP))),
            ("parentheses", format!("${{{}}}", nest("(", "1", ")", DEEP))),
            ("tuples", format!("${{{}}}", nest("[", "", "]", DEEP))),
            (
                "conditionals",
                format!("${{{}1}}", "true ? 1 : ".repeat(DEEP)),
            ),
            ("calls", format!("${{{}}}", nest("f(", "", ")", DEEP))),
            ("negations", format!("${{{}1}}", "-".repeat(DEEP))),
            ("templates", nest("${\"", "x", "\"}", DEEP)),
        ] {
            let err = decode_name(&text).expect_err(what);
            assert!(
                err.contains("(ctywire::limits::MAX_EXPRESSION_DEPTH)"),
                "{what}: {err}"
            );
        }
        // A flat chain of operators is no nesting: read without recursion, at any length.
        let chain = format!("${{{}1}}", "1+2*".repeat(DEEP));
        let value = decode_name(&chain).expect("a long operator chain decodes");
        assert!(format!("{value:?}").contains("name"), "{value:?}");
        // Right at the limit still decodes: the template, its interpolation and the
        // quoted string inside are three levels, the parentheses the rest.
        let deep_enough = format!("${{{}}}", nest("(", "\"x\"", ")", MAX_EXPRESSION_DEPTH - 3));
        decode_name(&deep_enough).expect("nesting within the limit decodes");
    });
}

/// Long lists and sets render in bounded time and memory: sets are matched up by
/// hashing, and lists too long for Terraform's longest-common-subsequence table keep
/// their common ends and show the rest as removed and added.
#[test]
fn long_lists_and_sets_render_in_bounded_time_and_memory() {
    on_worker(|| {
        let n = 100_000;
        let strings = |extra: Option<(usize, &str)>| {
            let mut v: Vec<Value> = (0..n)
                .map(|i| Value::from(format!("s{i}").as_str()))
                .collect();
            if let Some((at, s)) = extra {
                v.insert(at, Value::from(s));
            }
            v
        };
        let start = std::time::Instant::now();
        let before = Value::list(strings(None));
        let after = Value::list(strings(Some((n / 2, "inserted"))));
        let shown = render_value_diff(
            &before,
            &after,
            &Type::list(Type::String),
            &DiffOptions::default(),
        );
        assert!(
            shown.contains("+ \"inserted\""),
            "{}",
            &shown[..shown.len().min(400)]
        );

        let before = Value::set(strings(None));
        let after = Value::set(strings(Some((0, "added"))));
        let shown = render_value_diff(
            &before,
            &after,
            &Type::set(Type::String),
            &DiffOptions::default(),
        );
        assert!(
            shown.contains("+ \"added\""),
            "{}",
            &shown[..shown.len().min(400)]
        );
        assert!(start.elapsed().as_secs() < 60, "{:?}", start.elapsed());
    });
}
