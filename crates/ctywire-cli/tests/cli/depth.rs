//! Every surface against deep nesting (issue 24): each command is fed input nested at 1x,
//! 10x and 1,000x the depth limit (and, for a few formats, about 100 MB of nesting) and
//! must exit with a status of its own (no signal: a stack overflow aborts the child, not
//! this runner), within a bounded time, and when it refuses the input, say which limit.
//!
//! The time bound is a hang detector, not a performance assertion: a child still running
//! after [`HANG`] is killed and the case fails.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ctywire::limits::MAX_DEPTH;

use crate::common::repo;

/// How long one run may take before it counts as a hang.
const HANG: Duration = Duration::from_secs(60);

/// The longest single argument Linux passes to a program (`MAX_ARG_STRLEN`, 128 KiB),
/// with room to spare: cases whose nesting is written on the command line stop here.
const MAX_ARGUMENT: usize = 100_000;

/// One run of the binary: its arguments, standard input, and the files it reads.
struct Case {
    name: String,
    args: Vec<String>,
    stdin: Vec<u8>,
}

/// Cases whose input is long but flat (a path's steps are a list, not a nesting): they
/// may fail for another reason than a limit.
fn flat(case: &Case) -> bool {
    case.name.starts_with("get ")
}

/// What one run did.
struct Ran {
    code: i32,
    stderr: String,
    elapsed: Duration,
}

/// Runs `case` from the repository's root, killing it after [`HANG`].
fn run(case: &Case) -> Result<Ran, String> {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ctywire"))
        .args(&case.args)
        .current_dir(repo("."))
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: the binary does not start: {e}", case.name))?;
    let stdin = child.stdin.take().expect("stdin is piped");
    let input = case.stdin.clone();
    // Written from a thread: the child may exit (or stop reading) before it takes it all.
    let writer = std::thread::spawn(move || {
        let mut stdin = stdin;
        let _ = stdin.write_all(&input);
    });
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut text);
        text
    });
    // Polled from 1 ms up to 20 ms: most runs end within milliseconds.
    let mut interval = Duration::from_millis(1);
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("{}: still running after {HANG:?}", case.name));
        }
        std::thread::sleep(interval);
        interval = (interval * 2).min(Duration::from_millis(20));
    };
    let elapsed = start.elapsed();
    let _ = writer.join();
    let stderr = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
    let Some(code) = status.code() else {
        return Err(format!(
            "{}: killed by a signal ({status}); standard error ends: {}",
            case.name,
            tail(&stderr)
        ));
    };
    Ok(Ran {
        code,
        stderr,
        elapsed,
    })
}

fn tail(text: &str) -> &str {
    let start = text.len().saturating_sub(400);
    let start = (start..=text.len())
        .find(|i| text.is_char_boundary(*i))
        .unwrap_or(text.len());
    &text[start..]
}

/// A scratch directory of this test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("ctywire-depth-{}", std::process::id()))
        .join(name);
    std::fs::create_dir_all(&dir).expect("the scratch directory is made");
    dir
}

fn write(dir: &Path, name: &str, contents: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("the scratch file is written");
    path.to_str().expect("the scratch path is UTF-8").to_owned()
}

/// `open` `depth` times, then `middle`, then `close` `depth` times.
/// (`str::repeat` copies in doubling blocks: a hundred megabytes of nesting is made in
/// milliseconds by this unoptimised test build, where pushing each piece took seconds.)
fn nest(open: &str, middle: &str, close: &str, depth: usize) -> String {
    let mut text = String::with_capacity((open.len() + close.len()) * depth + middle.len());
    text.push_str(&open.repeat(depth));
    text.push_str(middle);
    text.push_str(&close.repeat(depth));
    text
}

/// `text` as a JSON string literal.
fn json_string(text: &str) -> String {
    serde_json::to_string(text).expect("a string serialises")
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

/// A `.tf.json` configuration of one `cloud_instance.web` (examples/schema/provider.json)
/// whose `name` is `name` (JSON text) and `metadata` (dynamic) is `metadata`, with
/// `extra` top-level members.
fn configuration(name: &str, metadata: &str, extra: &str) -> String {
    format!(
        "{{{extra}\"resource\":{{\"cloud_instance\":{{\"web\":{{\"image_id\":\"i\",\
         \"disk\":[{{\"device_name\":\"d\"}}],\"name\":{name},\"metadata\":{metadata}}}}}}}}}"
    )
}

fn config_case(dir: &Path, name: &str, text: String) -> Case {
    let file = write(dir, &format!("{name}.tf.json"), text);
    Case {
        name: format!("config {name}"),
        args: vec![
            "config".into(),
            file,
            "--schema".into(),
            "examples/schema/provider.json".into(),
            "--address".into(),
            "cloud_instance.web".into(),
        ],
        stdin: Vec::new(),
    }
}

/// A template expression nested `depth` levels, for each construct that nests.
fn template_constructs(depth: usize) -> Vec<(&'static str, String)> {
    vec![
        ("if", nest("%{if true}", "x", "%{endif}", depth)),
        ("for", nest("%{for x in [1]}", "x", "%{endfor}", depth)),
        ("plus", format!("${{{}1}}", "1+".repeat(depth))),
        ("mixed-operators", format!("${{{}1}}", "1+2*".repeat(depth))),
        ("or", format!("${{{}true}}", "false||".repeat(depth))),
        ("attributes", format!("${{var.v{}}}", ".a".repeat(depth))),
        ("indexes", format!("${{var.v{}}}", "[0]".repeat(depth))),
        ("splat", format!("${{var.v{}}}", "[*].a".repeat(depth))),
        (
            "parentheses",
            nest("${", &nest("(", "1", ")", depth), "}", 1),
        ),
        ("tuples", nest("${", &nest("[", "", "]", depth), "}", 1)),
        ("objects", nest("${", &nest("{a=", "1", "}", depth), "}", 1)),
        (
            "conditionals",
            format!("${{{}1}}", "true ? 1 : ".repeat(depth)),
        ),
        ("calls", nest("${", &nest("f(", "", ")", depth), "}", 1)),
        ("negations", format!("${{{}1}}", "-".repeat(depth))),
        ("nots", format!("${{{}true}}", "!".repeat(depth))),
        (
            "for-expressions",
            nest("${", &nest("[for x in ", "[]", ": x]", depth), "}", 1),
        ),
        ("templates", nest("${\"", "x", "\"}", depth)),
    ]
}

/// Every case at `depth` levels of nesting, files written under `dir`.
fn cases(dir: &Path, depth: usize) -> Vec<Case> {
    let mut cases = Vec::new();
    let arrays = nest("[", "", "]", depth);
    let objects = nest("{\"a\":", "1", "}", depth);
    let msgpack: Vec<u8> = [vec![0x91; depth], vec![0xc0]].concat();
    let list_type_json = nest("[\"list\",", "\"string\"", "]", depth);
    let list_type_expr = nest("list(", "string", ")", depth);

    // Values: JSON and MessagePack readers, implied types, type JSON.
    cases.push(Case {
        name: "show --from json (implied type)".into(),
        args: args(&["show", "--from", "json"]),
        stdin: arrays.clone().into_bytes(),
    });
    cases.push(Case {
        name: "show msgpack (implied type)".into(),
        args: args(&["show", "--input", "raw"]),
        stdin: msgpack.clone(),
    });
    let wrapper = format!("{{\"value\":{arrays},\"type\":{list_type_json}}}");
    cases.push(Case {
        name: "convert dynamic JSON".into(),
        args: args(&[
            "convert", "--type", "any", "--from", "json", "--to", "msgpack",
        ]),
        stdin: wrapper.clone().into_bytes(),
    });
    cases.push(Case {
        name: "convert --to-type from dynamic".into(),
        args: args(&[
            "convert",
            "--type",
            "any",
            "--to-type",
            "string",
            "--from",
            "json",
            "--to",
            "json",
        ]),
        stdin: wrapper.clone().into_bytes(),
    });
    let wrapper_file = write(dir, "wrapper.json", &wrapper);
    cases.push(Case {
        name: "diff dynamic JSON".into(),
        args: vec![
            "diff".into(),
            "--type".into(),
            "any".into(),
            "--from".into(),
            "json".into(),
            "-".into(),
            wrapper_file.clone(),
        ],
        stdin: Vec::new(),
    });
    for (what, ty) in [
        ("type JSON", &list_type_json),
        ("type expression", &list_type_expr),
    ] {
        if ty.len() <= MAX_ARGUMENT {
            cases.push(Case {
                name: format!("type ({what})"),
                args: vec!["type".into(), ty.clone()],
                stdin: Vec::new(),
            });
            cases.push(Case {
                name: format!("show --type ({what})"),
                args: vec![
                    "show".into(),
                    "--type".into(),
                    ty.clone(),
                    "--from".into(),
                    "json".into(),
                ],
                stdin: b"[]".to_vec(),
            });
        }
    }
    for (what, path) in [
        ("attributes", ".a".repeat(depth)),
        ("indexes", "[0]".repeat(depth)),
        ("dotted", vec!["a"; depth].join(".")),
    ] {
        if path.len() <= MAX_ARGUMENT {
            cases.push(Case {
                name: format!("get ({what})"),
                args: vec![
                    "get".into(),
                    path,
                    "--type".into(),
                    "object({a=number})".into(),
                    "--from".into(),
                    "json".into(),
                ],
                stdin: b"{\"a\":1}".to_vec(),
            });
        }
    }

    // Strings holding JSON: the renderer pretty-prints them.
    for (what, inner) in [("arrays", &arrays), ("objects", &objects)] {
        let before = json_string(inner);
        let after = json_string(&inner.replacen('1', "2", 1).replacen("[]", "[1]", 1));
        let before_file = write(dir, &format!("string-{what}-before.json"), &before);
        let after_file = write(dir, &format!("string-{what}-after.json"), &after);
        cases.push(Case {
            name: format!("show a string of JSON {what}"),
            args: args(&["show", "--type", "string", "--from", "json"]),
            stdin: before.clone().into_bytes(),
        });
        for (side, other) in [("-", &after_file), (&before_file, &after_file)] {
            cases.push(Case {
                name: format!("diff strings of JSON {what} ({side})"),
                args: vec![
                    "diff".into(),
                    "--type".into(),
                    "string".into(),
                    "--from".into(),
                    "json".into(),
                    side.to_owned(),
                    other.clone(),
                ],
                stdin: Vec::new(),
            });
        }
    }

    // Planned and applied states: the plan rules walk both values.
    let dynamic_schema = write(
        dir,
        "dynamic-schema.json",
        "{\"format_version\":\"1.0\",\"provider_schemas\":{\"p\":{\"resource_schemas\":\
         {\"r\":{\"version\":0,\"block\":{\"attributes\":{\"a\":{\"type\":\"dynamic\",\
         \"optional\":true}}}}}}}}",
    );
    let object = format!("{{\"a\":{wrapper}}}");
    let config_file = write(dir, "config.json", &object);
    let planned_file = write(dir, "planned.json", &object);
    for command in ["check-plan", "check-apply"] {
        let mut list = vec![
            command.to_owned(),
            "--schema".into(),
            dynamic_schema.clone(),
            "--resource".into(),
            "r".into(),
            "--from".into(),
            "json".into(),
        ];
        if command == "check-plan" {
            list.extend(args(&["--prior", "-", "--config"]));
            list.push(config_file.clone());
            list.push("--planned".into());
            list.push(planned_file.clone());
        } else {
            list.push("--planned".into());
            list.push(config_file.clone());
            list.push("--new".into());
            list.push(planned_file.clone());
        }
        cases.push(Case {
            name: format!("{command} dynamic JSON"),
            args: list,
            stdin: Vec::new(),
        });
    }

    // Schemas: nested blocks and nested attribute types.
    let schema_block = nest(
        "{\"block_types\":{\"b\":{\"nesting_mode\":\"list\",\"block\":",
        "{}",
        "}}}",
        depth,
    );
    let schema = format!(
        "{{\"format_version\":\"1.0\",\"provider_schemas\":{{\"p\":{{\"resource_schemas\":\
         {{\"r\":{{\"version\":0,\"block\":{schema_block}}}}}}}}}}}"
    );
    let schema_file = write(dir, "schema.json", schema);
    cases.push(Case {
        name: "show --schema (nested blocks)".into(),
        args: vec![
            "show".into(),
            "--schema".into(),
            schema_file,
            "--resource".into(),
            "r".into(),
            "--from".into(),
            "json".into(),
        ],
        stdin: b"{}".to_vec(),
    });

    // Configurations: the JSON document, and each nesting template construct.
    cases.push(config_case(
        dir,
        "json-arrays",
        configuration("\"n\"", &arrays, ""),
    ));
    for (what, text) in template_constructs(depth) {
        let extra = "\"variable\":{\"v\":{}},";
        cases.push(config_case(
            dir,
            &format!("template-{what}"),
            configuration(&json_string(&text), "null", extra),
        ));
        cases.push(config_case(
            dir,
            &format!("key-{what}"),
            configuration("\"n\"", &format!("{{{}:1}}", json_string(&text)), extra),
        ));
    }
    let locals: Vec<String> = (0..depth)
        .map(|i| format!("\"l{i}\":[\"${{local.l{}}}\"]", i + 1))
        .chain(std::iter::once(format!("\"l{depth}\":1")))
        .collect();
    cases.push(config_case(
        dir,
        "locals-chain",
        configuration(
            "\"n\"",
            "\"${local.l0}\"",
            &format!("\"locals\":{{{}}},", locals.join(",")),
        ),
    ));
    cases.push(config_case(
        dir,
        "variable-type",
        configuration(
            "\"n\"",
            "\"${var.v}\"",
            &format!(
                "\"variable\":{{\"v\":{{\"type\":{},\"default\":{arrays}}}}},",
                json_string(&list_type_expr)
            ),
        ),
    ));

    // Documents (`terraform show -json`): values, module trees, strings of JSON.
    // Made as one string (wrapping it `depth` times, each copying the whole, was
    // quadratic: seconds at 1,000x the limit).
    let modules = nest("{\"child_modules\":[", "{\"resources\":[]}", "]}", depth);
    let resource = |values: &str| {
        format!(
            "{{\"address\":\"t.n\",\"mode\":\"managed\",\"type\":\"t\",\"name\":\"n\",\
             \"provider_name\":\"p\",\"schema_version\":0,\"values\":{values}}}"
        )
    };
    let string_of_json = json_string(&arrays);
    for (what, root) in [
        (
            "value",
            format!(
                "{{\"resources\":[{}]}}",
                resource(&format!("{{\"a\":{arrays}}}"))
            ),
        ),
        (
            "string of JSON",
            format!(
                "{{\"resources\":[{}]}}",
                resource(&format!("{{\"a\":{string_of_json}}}"))
            ),
        ),
        ("child modules", modules),
    ] {
        let state = format!(
            "{{\"format_version\":\"1.0\",\"terraform_version\":\"1.9.5\",\"values\":{{\"root_module\":{root}}}}}"
        );
        let file = write(
            dir,
            &format!("state-{}.json", what.replace(' ', "-")),
            state,
        );
        for address in [None, Some("t.n")] {
            let mut list = vec!["document".to_owned(), file.clone()];
            if let Some(address) = address {
                list.extend(args(&["--address", address]));
            }
            cases.push(Case {
                name: format!("document state ({what}, {address:?})"),
                args: list,
                stdin: Vec::new(),
            });
        }
    }
    let change = format!(
        "{{\"actions\":[\"update\"],\"before\":{{\"a\":{string_of_json}}},\"after\":{{\"a\":{arrays}}},\
         \"after_unknown\":{{\"a\":{arrays}}},\"before_sensitive\":{{\"a\":{arrays}}},\
         \"after_sensitive\":{{\"a\":{arrays}}}}}"
    );
    let plan = format!(
        "{{\"format_version\":\"1.2\",\"terraform_version\":\"1.9.5\",\"resource_changes\":[\
         {{\"address\":\"t.n\",\"mode\":\"managed\",\"type\":\"t\",\"name\":\"n\",\
         \"provider_name\":\"p\",\"change\":{change}}}]}}"
    );
    let plan_file = write(dir, "plan.json", plan);
    for extra in [
        &[][..],
        &["--address", "t.n"],
        &["--address", "t.n", "--before"],
    ] {
        let mut list = vec!["document".to_owned(), plan_file.clone()];
        list.extend(args(extra));
        cases.push(Case {
            name: format!("document plan {extra:?}"),
            args: list,
            stdin: Vec::new(),
        });
    }

    // Captures: the payload files of each call, shown and diffed.
    let capture = dir.join("capture");
    std::fs::create_dir_all(&capture).expect("the capture directory is made");
    write(&capture, "1_ConfigureProvider_Request_Config.json", &arrays);
    write(
        &capture,
        "2_ReadResource_Request_CurrentState.msgpack",
        &msgpack,
    );
    write(
        &capture,
        "3_PlanResourceChange_Request_PriorState.json",
        json_string(&arrays),
    );
    write(
        &capture,
        "3_PlanResourceChange_Response_PlannedState.json",
        json_string(&arrays.replacen("[]", "[1]", 1)),
    );
    let capture = capture.to_str().expect("UTF-8").to_owned();
    for extra in [&[][..], &["--diff"]] {
        let mut list = vec!["capture".to_owned(), capture.clone()];
        list.extend(args(extra));
        cases.push(Case {
            name: format!("capture {extra:?}"),
            args: list,
            stdin: Vec::new(),
        });
    }
    cases
}

/// Runs every case at `multiple` times the depth limit: none may crash or hang, and one
/// that fails must say which limit (from `multiple` 10 on, where the input is past
/// every limit).
fn every_surface_at(multiple: usize) {
    let depth = MAX_DEPTH * multiple;
    let dir = scratch(&format!("x{multiple}"));
    let mut failures = Vec::new();
    let mut slowest = (Duration::ZERO, String::new());
    for case in cases(&dir, depth) {
        match run(&case) {
            Err(failure) => failures.push(failure),
            Ok(ran) => {
                if ran.elapsed > slowest.0 {
                    slowest = (ran.elapsed, case.name.clone());
                }
                if !matches!(ran.code, 0..=2) {
                    failures.push(format!("{}: exit status {}", case.name, ran.code));
                } else if multiple >= 10
                    && ran.code != 0
                    && !flat(&case)
                    && !ran.stderr.contains("limit")
                {
                    failures.push(format!(
                        "{}: failed without naming a limit: {}",
                        case.name,
                        tail(&ran.stderr)
                    ));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "{multiple}x the limit: slowest {:?} ({})",
        slowest.0, slowest.1
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_surface_at_the_depth_limit() {
    every_surface_at(1);
}

#[test]
fn every_surface_at_ten_times_the_depth_limit() {
    every_surface_at(10);
}

#[test]
fn every_surface_at_a_thousand_times_the_depth_limit() {
    every_surface_at(1000);
}

/// About 100 MB of nesting, for the formats whose readers meet it first: JSON and
/// MessagePack values, a `.tf.json` document, and a template.
#[test]
fn a_hundred_megabytes_of_nesting() {
    const SIZE: usize = 100 << 20;
    let dir = scratch("100mb");
    let arrays = nest("[", "", "]", SIZE / 2);
    let msgpack = vec![0x91; SIZE];
    let tuples = nest("${", &arrays, "}", 1);
    let cases = vec![
        // `--input raw`: the bytes as they are, not sniffed for hex or base64 first
        // (linear, but a debug build takes a minute over 100 MB).
        Case {
            name: "show --from json".into(),
            args: args(&["show", "--from", "json", "--input", "raw"]),
            stdin: arrays.clone().into_bytes(),
        },
        Case {
            name: "show msgpack".into(),
            args: args(&["show", "--input", "raw"]),
            stdin: msgpack,
        },
        config_case(&dir, "arrays", configuration("\"n\"", &arrays, "")),
        config_case(
            &dir,
            "tuples",
            // `${`, `[`, `]` and `}` need no escaping in a JSON string: quoted as they
            // are (serde_json's escaping, unoptimised here, took seconds over 100 MB).
            configuration(&format!("\"{tuples}\""), "null", ""),
        ),
    ];
    drop(arrays);
    let mut failures = Vec::new();
    for case in &cases {
        match run(case) {
            Err(failure) => failures.push(failure),
            Ok(ran) if ran.code != 0 && !ran.stderr.contains("limit") => failures.push(format!(
                "{}: failed without naming a limit: {}",
                case.name,
                tail(&ran.stderr)
            )),
            Ok(_) => {}
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
