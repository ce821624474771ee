//! Every input of every vector file, truncated and mutated: the decoders must return an
//! error, never panic, and a strict prefix of a valid payload must not decode.
//!
//! For each case of each file under `vectors/` (whatever files are there), every field
//! that holds an input (`msgpack`, `input_msgpack`, `json`, `input_json`, `type_json`,
//! `type_expr`) is
//!
//! - truncated at every byte (for inputs over 256 bytes, at a sample of positions: the
//!   first and last 64 and 64 in between), and
//! - mutated at the same positions: each byte replaced by interesting values (for
//!   MessagePack 0x00, 0xc0 nil, 0xc1 never used, 0xd4 fixext1, 0xdd array32, 0xff, and
//!   the byte with its lowest or highest bit flipped; for text, JSON punctuation, a
//!   backslash, a stray UTF-8 byte), deleted, or preceded by an inserted byte,
//!
//! and each result is decoded with the case's type, with `dynamic`, and with one of a
//! few other types (taken in turn). A decoded value is then encoded as MessagePack and
//! JSON; MessagePack encoding must succeed and decode back to a value that encodes to
//! the same bytes. Implied types, type JSON (alone and inside dynamic wrappers) and type
//! expressions go the same way.
//!
//! Each decode runs under `catch_unwind`, so that a panic is reported with the input and
//! type that caused it rather than stopping the test at the first one.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use ctywire::{json, msgpack, Type};
use serde_json::Value as Json;

/// Positions of `len` bytes to cut and mutate at: all of them for short inputs, a
/// sample for long ones (whose every prefix would take quadratic time to decode): the
/// first and last 16 and 16 in between, or for the longest (the 65,536-element
/// boundary cases) only the first and last 8.
fn positions(len: usize) -> Vec<usize> {
    if len <= 256 {
        return (0..len).collect();
    }
    if len > LONG {
        return (0..8).chain(len - 8..len).collect();
    }
    let mut out: Vec<usize> = (0..16).chain(len - 16..len).collect();
    out.extend((1..=16).map(|i| 16 + i * (len - 32) / 17));
    out.sort_unstable();
    out.dedup();
    out
}

/// Inputs longer than this are cut and mutated at fewer places, decoded only with
/// their own type, and not re-encoded, to keep the test fast in debug builds.
const LONG: usize = 8192;

/// The mutants of `input` at `positions`: at each, three of the `replacements` (taken
/// in turn, so that each is used at every few positions), the byte with one bit
/// flipped (the lowest and the highest in turn), the byte deleted, and one of `inserts`
/// inserted before it.
fn mutants(input: &[u8], positions: &[usize], replacements: &[u8], inserts: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (k, &i) in positions.iter().enumerate() {
        let b = input[i];
        let mut values: Vec<u8> = (0..3)
            .map(|r| replacements[(3 * k + r) % replacements.len()])
            .collect();
        values.push(b ^ if k % 2 == 0 { 0x01 } else { 0x80 });
        for v in values {
            if v != b {
                let mut m = input.to_vec();
                m[i] = v;
                out.push(m);
            }
        }
        let mut m = input.to_vec();
        m.remove(i);
        out.push(m);
        let mut m = input.to_vec();
        m.insert(i, inserts[k % inserts.len()]);
        out.push(m);
    }
    out
}

const MSGPACK_BYTES: &[u8] = &[0x00, 0xc0, 0xc1, 0xd4, 0xdd, 0xff];
const MSGPACK_INSERTS: &[u8] = &[0xc0, 0xdd];
const TEXT_BYTES: &[u8] = b"\x00\"[]{},:\\0e-\xff\xc3\x01";
const TEXT_INSERTS: &[u8] = b"[\"";

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("valid hex"))
        .collect()
}

fn to_hex(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b:02x}")).collect()
}

/// Types every input is also decoded with, one per mutant in turn.
fn extra_types() -> Vec<Type> {
    [
        r#"["list","dynamic"]"#,
        r#"["set",["object",{"a":"dynamic","b":"string"}]]"#,
        r#"["map","number"]"#,
        r#"["object",{"a":"number","b":["list","string"],"c":"dynamic"}]"#,
        r#"["tuple",["string","dynamic",["set","bool"]]]"#,
        r#"["list",["list","string"]]"#,
        r#"["map",["set",["tuple",["dynamic"]]]]"#,
        r#""string""#,
        r#""number""#,
        r#""bool""#,
    ]
    .iter()
    .map(|t| Type::from_json(t).expect("extra type parses"))
    .collect()
}

struct Run {
    failures: Vec<String>,
    decodes: usize,
    /// Whether to re-encode what decodes (not for the longest inputs).
    reencode: bool,
}

impl Run {
    /// Runs `f`, recording a panic as a failure named by `what`.
    fn guard<T>(&mut self, what: impl FnOnce() -> String, f: impl FnOnce() -> T) -> Option<T> {
        self.decodes += 1;
        match catch_unwind(AssertUnwindSafe(f)) {
            Ok(v) => Some(v),
            Err(_) => {
                self.failures.push(format!("panic: {}", what()));
                None
            }
        }
    }

    fn fail(&mut self, message: String) {
        self.failures.push(message);
    }

    /// Decodes MessagePack `bytes` with `ty`, and re-encodes what decodes. Returns
    /// whether it decoded.
    fn msgpack(&mut self, bytes: &[u8], ty: &Type) -> bool {
        let what = || format!("msgpack {} as {ty}", to_hex(bytes));
        let Some(decoded) = self.guard(what, || msgpack::decode(bytes, ty)) else {
            return false;
        };
        let Ok(value) = decoded else { return false };
        if !self.reencode {
            return true;
        }
        let result = self.guard(what, || {
            let _ = json::encode(&value, ty);
            let once = msgpack::encode(&value, ty).map_err(|e| format!("encode: {e}"))?;
            let again = msgpack::decode(&once, ty).map_err(|e| format!("re-decode: {e}"))?;
            let twice = msgpack::encode(&again, ty).map_err(|e| format!("re-encode: {e}"))?;
            // A set holding 0 and -0 keeps both, but -0 is written as the integer 0
            // (go-cty does the same; vectors/ctywire/sets.json).
            if twice != once && !has_negative_zero(&value) {
                return Err(format!(
                    "re-encoding is not stable: {} then {}",
                    to_hex(&once),
                    to_hex(&twice)
                ));
            }
            Ok(())
        });
        if let Some(Err(e)) = result {
            self.fail(format!("{}: {e}", what()));
        }
        true
    }

    /// Decodes JSON `text` with `ty`, and re-encodes what decodes. Returns whether it
    /// decoded.
    fn json(&mut self, text: &[u8], ty: &Type) -> bool {
        let what = || format!("json {:?} as {ty}", String::from_utf8_lossy(text));
        let Some(decoded) = self.guard(what, || json::decode(text, ty)) else {
            return false;
        };
        let Ok(value) = decoded else { return false };
        if !self.reencode {
            return true;
        }
        let result = self.guard(what, || {
            msgpack::encode(&value, ty).map_err(|e| format!("msgpack encode: {e}"))?;
            if let Ok(once) = json::encode(&value, ty) {
                json::decode(&once, ty).map_err(|e| format!("re-decode: {e}"))?;
            }
            Ok::<(), String>(())
        });
        if let Some(Err(e)) = result {
            self.fail(format!("{}: {e}", what()));
        }
        true
    }

    fn implied_msgpack(&mut self, bytes: &[u8]) {
        let what = || format!("msgpack implied type of {}", to_hex(bytes));
        if let Some(Ok(ty)) = self.guard(what, || msgpack::implied_type(bytes)) {
            self.msgpack(bytes, &ty);
        }
    }

    fn implied_json(&mut self, text: &[u8]) {
        let what = || format!("json implied type of {:?}", String::from_utf8_lossy(text));
        self.guard(what, || json::decode_implied(text));
    }

    fn type_json(&mut self, text: &[u8]) -> bool {
        let what = || format!("type JSON {:?}", String::from_utf8_lossy(text));
        let parsed = self.guard(what, || Type::from_json_bytes(text));
        // Inside dynamic wrappers, in both formats.
        let mut wrapper = vec![0x92, 0xc6];
        wrapper.extend_from_slice(&(text.len() as u32).to_be_bytes());
        wrapper.extend_from_slice(text);
        wrapper.push(0xc0);
        self.msgpack(&wrapper, &Type::Dynamic);
        let mut wrapper = b"{\"value\":null,\"type\":".to_vec();
        wrapper.extend_from_slice(text);
        wrapper.push(b'}');
        self.json(&wrapper, &Type::Dynamic);
        if let Some(Ok(ty)) = &parsed {
            let what = || format!("type JSON {:?} printed", String::from_utf8_lossy(text));
            self.guard(what, || (ty.to_json(), ty.to_expr()));
        }
        matches!(parsed, Some(Ok(_)))
    }

    fn type_expr(&mut self, text: &[u8]) -> bool {
        let text = String::from_utf8_lossy(text);
        let what = || format!("type expression {text:?}");
        let parsed = self.guard(what, || (Type::parse_expr(&text), text.parse::<Type>()));
        matches!(parsed, Some((Ok(_), _)))
    }
}

/// The index just past the last non-whitespace byte.
fn trimmed_len(text: &[u8]) -> usize {
    text.iter()
        .rposition(|b| !b" \t\r\n".contains(b))
        .map_or(0, |i| i + 1)
}

/// Whether every strict prefix of this JSON text (short of its last non-space byte)
/// must fail: text whose value ends with a closing delimiter.
fn json_prefixes_must_fail(text: &[u8]) -> bool {
    let first = text.iter().find(|b| !b" \t\r\n".contains(b));
    matches!(first, Some(b'{' | b'[' | b'"'))
}

fn vector_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            vector_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "json") {
            out.push(path);
        }
    }
}

/// The case's type: `type`, or `implied_type` for implied-type cases.
fn case_type(case: &Json) -> Option<Type> {
    let t = case.get("type").or(case.get("implied_type"))?;
    Type::from_json(&t.to_string()).ok()
}

#[test]
fn every_vector_truncated_and_mutated() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("vectors");
    let mut files = Vec::new();
    vector_files(&root, &mut files);
    files.sort();
    let extras = extra_types();
    // The files shared out among the machine's cores (the last test of the suite to
    // finish, where it ran alone): each thread's run and counts, merged below.
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let parts: Vec<(Run, usize, usize, usize)> =
        std::thread::scope(|scope| {
            let handles: Vec<_> =
                (0..threads)
                    .map(|t| {
                        let (files, extras, root) = (&files, &extras, &root);
                        scope.spawn(move || {
    let mut run = Run {
        failures: Vec::new(),
        decodes: 0,
        reencode: true,
    };
    let (mut vector_files_read, mut cases, mut inputs) = (0, 0, 0);
    for file in files.iter().skip(t).step_by(threads) {
        let text = std::fs::read_to_string(file).unwrap();
        let Ok(doc) = serde_json::from_str::<Json>(&text) else {
            continue;
        };
        // Only vector files: `{"cases": [...]}`.
        let Some(list) = doc.get("cases").and_then(Json::as_array) else {
            continue;
        };
        vector_files_read += 1;
        let name = file
            .strip_prefix(root)
            .unwrap_or(file)
            .display()
            .to_string();
        for case in list {
            if case.get("skip").is_some() {
                continue;
            }
            cases += 1;
            let id = format!("{name}:{}", case["name"].as_str().unwrap_or("?"));
            let ty = case_type(case).unwrap_or(Type::Dynamic);
            for field in ["msgpack", "input_msgpack"] {
                let Some(h) = case.get(field).and_then(Json::as_str) else {
                    continue;
                };
                inputs += 1;
                let bytes = hex(h);
                let long = bytes.len() > LONG;
                run.reencode = !long;
                let valid = run.msgpack(&bytes, &ty);
                run.msgpack(&bytes, &Type::Dynamic);
                run.implied_msgpack(&bytes);
                let at = positions(bytes.len());
                for &n in &at {
                    let prefix = &bytes[..n];
                    // A strict prefix of a valid MessagePack value is never one.
                    if run.msgpack(prefix, &ty) && valid {
                        run.fail(format!("{id}: {field} cut to {n} bytes decodes as {ty}"));
                    }
                    if n % 4 == 0 {
                        run.msgpack(prefix, &Type::Dynamic);
                    }
                }
                for (j, m) in mutants(&bytes, &at, MSGPACK_BYTES, MSGPACK_INSERTS)
                    .iter()
                    .enumerate()
                {
                    run.msgpack(m, &ty);
                    match j % 4 {
                        _ if long => {}
                        0 => run.implied_msgpack(m),
                        1 => drop(run.msgpack(m, &Type::Dynamic)),
                        _ => drop(run.msgpack(m, &extras[j / 4 % extras.len()])),
                    }
                }
            }
            for field in ["json", "input_json"] {
                let Some(text) = case.get(field).and_then(Json::as_str) else {
                    continue;
                };
                inputs += 1;
                let text = text.as_bytes();
                let long = text.len() > LONG;
                run.reencode = !long;
                let valid = run.json(text, &ty) && json_prefixes_must_fail(text);
                run.json(text, &Type::Dynamic);
                run.implied_json(text);
                let at = positions(text.len());
                for &n in &at {
                    let prefix = &text[..n];
                    if run.json(prefix, &ty) && valid && n < trimmed_len(text) {
                        run.fail(format!(
                            "{id}: {field} cut to {n} bytes ({:?}) decodes as {ty}",
                            String::from_utf8_lossy(prefix)
                        ));
                    }
                    if n % 4 == 0 {
                        run.implied_json(prefix);
                    }
                }
                for (j, m) in mutants(text, &at, TEXT_BYTES, TEXT_INSERTS)
                    .iter()
                    .enumerate()
                {
                    run.json(m, &ty);
                    match j % 4 {
                        _ if long => {}
                        0 => run.implied_json(m),
                        1 => drop(run.json(m, &Type::Dynamic)),
                        _ => drop(run.json(m, &extras[j / 4 % extras.len()])),
                    }
                }
            }
            run.reencode = true;
            if let Some(text) = case.get("type_json").and_then(Json::as_str) {
                inputs += 1;
                let text = text.as_bytes();
                let valid = run.type_json(text);
                let at = positions(text.len());
                for &n in &at {
                    if run.type_json(&text[..n]) && valid && n < trimmed_len(text) {
                        run.fail(format!("{id}: type JSON cut to {n} bytes parses"));
                    }
                }
                for m in mutants(text, &at, TEXT_BYTES, TEXT_INSERTS) {
                    run.type_json(&m);
                }
            }
            if let Some(text) = case.get("type_expr").and_then(Json::as_str) {
                inputs += 1;
                let text = text.as_bytes();
                let valid = run.type_expr(text);
                // Comments can end a valid expression early; otherwise a strict prefix
                // of a valid expression is never one.
                let plain = !text.contains(&b'#') && !text.contains(&b'/');
                let at = positions(text.len());
                for &n in &at {
                    if run.type_expr(&text[..n]) && valid && plain && n < trimmed_len(text) {
                        run.fail(format!(
                            "{id}: type expression cut to {n} bytes ({:?}) parses",
                            String::from_utf8_lossy(&text[..n])
                        ));
                    }
                }
                for m in mutants(text, &at, TEXT_BYTES, TEXT_INSERTS) {
                    run.type_expr(&m);
                }
            }
        }
    }
    (run, vector_files_read, cases, inputs)
                })
                    })
                    .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
    let mut run = Run {
        failures: Vec::new(),
        decodes: 0,
        reencode: true,
    };
    let (mut vector_files_read, mut cases, mut inputs) = (0, 0, 0);
    for (part, files_read, part_cases, part_inputs) in parts {
        run.failures.extend(part.failures);
        run.decodes += part.decodes;
        vector_files_read += files_read;
        cases += part_cases;
        inputs += part_inputs;
    }
    eprintln!(
        "{vector_files_read} vector files, {cases} cases, {inputs} inputs, {} decodes, {} failures",
        run.decodes,
        run.failures.len()
    );
    assert!(
        inputs > 0,
        "no vector inputs found under {}",
        root.display()
    );
    assert!(
        run.failures.is_empty(),
        "{} failures, the first ones:\n{}",
        run.failures.len(),
        run.failures
            .iter()
            .take(30)
            .map(|f| f.chars().take(600).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Whether a float64 -0 appears anywhere in `v`.
fn has_negative_zero(v: &ctywire::Value) -> bool {
    use ctywire::Value;
    match v.untyped() {
        Value::Number(n) => n.is_negative_zero(),
        Value::List(vs) | Value::Tuple(vs) => vs.iter().any(has_negative_zero),
        Value::Set(s) => s.iter().any(has_negative_zero),
        Value::Map(m) => m.values().any(has_negative_zero),
        Value::Object(o) => o.values().iter().any(has_negative_zero),
        _ => false,
    }
}
