//! Runs every vector file under `vectors/` (format: `vectors/README.md`).
//!
//! Each case is checked in every direction its fields allow: decode and re-encode in the
//! same format, cross-encode between MessagePack and JSON, decode errors, JSON encode
//! errors, type JSON, type expressions and implied types. All failures are collected and
//! reported together.

use std::path::{Path, PathBuf};

use ctywire::{json, msgpack, ErrorKind, Type};
use serde_json::Value as Json;

struct Run {
    failures: Vec<String>,
    checks: usize,
    skipped: usize,
}

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    assert!(s.len() % 2 == 0, "odd hex length");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("valid hex"))
        .collect()
}

fn to_hex(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b:02x}")).collect()
}

fn kind_name(k: ErrorKind) -> String {
    format!("{k:?}")
}

fn str_field<'a>(case: &'a Json, field: &str) -> Option<&'a str> {
    case.get(field).and_then(Json::as_str)
}

impl Run {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.checks += 1;
        if !ok {
            self.failures.push(what());
        }
    }

    fn fail(&mut self, what: String) {
        self.checks += 1;
        self.failures.push(what);
    }

    /// Compares an error against `{"kind", "path", "offset"?, "message"?}`.
    fn check_error(&mut self, id: &str, what: &str, err: &ctywire::Error, want: &Json) {
        if let Some(kind) = want.get("kind").and_then(Json::as_str) {
            self.check(kind_name(err.kind()) == kind, || {
                format!("{id}: {what}: kind {:?}, want {kind} ({err})", err.kind())
            });
        }
        if let Some(path) = want.get("path").and_then(Json::as_str) {
            self.check(err.path().to_string() == path, || {
                format!(
                    "{id}: {what}: path {:?}, want {path:?} ({err})",
                    err.path().to_string()
                )
            });
        }
        if let Some(message) = want.get("message").and_then(Json::as_str) {
            self.check(err.message().contains(message), || {
                format!(
                    "{id}: {what}: message {:?} does not contain {message:?}",
                    err.message()
                )
            });
        }
        if let Some(offset) = want.get("offset").and_then(Json::as_u64) {
            self.check(
                err.position() == Some(ctywire::Position::Offset(offset as usize)),
                || {
                    format!(
                        "{id}: {what}: position {:?}, want offset {offset} ({err})",
                        err.position()
                    )
                },
            );
        }
    }

    fn case(&mut self, id: &str, case: &Json) {
        if case.get("skip").is_some() {
            self.skipped += 1;
            return;
        }
        if let Some(text) = str_field(case, "type_json") {
            return self.type_json(id, case, text);
        }
        if let Some(expr) = str_field(case, "type_expr") {
            return self.type_expr(id, case, expr);
        }
        let ty = if let Some(want) = case.get("implied_type").or(case.get("implied_type_error")) {
            match self.implied_type(id, case, want) {
                // The input is decoded with the implied type only where the case says
                // what that must give.
                Some(ty) if case.get("json").is_some() || case.get("msgpack").is_some() => ty,
                _ => return,
            }
        } else {
            let Some(t) = case.get("type") else {
                return self.fail(format!("{id}: no type"));
            };
            match Type::from_json(&t.to_string()) {
                Ok(ty) => ty,
                Err(e) => return self.fail(format!("{id}: type {t} does not parse: {e}")),
            }
        };
        self.values(id, case, &ty);
    }

    fn type_json(&mut self, id: &str, case: &Json, text: &str) {
        let parsed = Type::from_json(text);
        if let Some(want) = case.get("type_json_error") {
            return match parsed {
                Ok(t) => self.fail(format!(
                    "{id}: type JSON {text} parsed as {t}, want an error"
                )),
                Err(e) => self.check_error(id, "type JSON", &e, want),
            };
        }
        match parsed {
            Ok(t) => {
                let want = str_field(case, "type_json_canonical").unwrap_or(text);
                let got = t.to_json();
                self.check(got == want, || {
                    format!("{id}: type JSON prints {got}, want {want}")
                });
            }
            Err(e) => self.fail(format!("{id}: type JSON {text} does not parse: {e}")),
        }
    }

    fn type_expr(&mut self, id: &str, case: &Json, expr: &str) {
        let parsed = Type::parse_expr(expr);
        if let Some(want) = case.get("type_expr_error") {
            return match parsed {
                Ok(t) => self.fail(format!(
                    "{id}: type expression {expr} parsed as {t}, want an error"
                )),
                Err(e) => self.check_error(id, "type expression", &e, want),
            };
        }
        let want = Type::from_json(&case["type"].to_string()).expect("expected type parses");
        match parsed {
            Ok(t) => {
                self.check(t == want, || {
                    format!("{id}: {expr} parsed as {t}, want {want}")
                });
                let back = Type::parse_expr(&t.to_expr());
                self.check(back.as_ref() == Ok(&t), || {
                    format!("{id}: {} does not parse back: {back:?}", t.to_expr())
                });
            }
            Err(e) => self.fail(format!("{id}: type expression {expr} does not parse: {e}")),
        }
    }

    fn implied_type(&mut self, id: &str, case: &Json, want: &Json) -> Option<Type> {
        let got = if let Some(h) = str_field(case, "input_msgpack") {
            msgpack::implied_type(&hex(h))
        } else if let Some(j) = str_field(case, "input_json") {
            json::implied_type(j.as_bytes())
        } else {
            self.fail(format!("{id}: implied-type case without input"));
            return None;
        };
        if case.get("implied_type_error").is_some() {
            match got {
                Ok(t) => self.fail(format!("{id}: implied {t}, want an error")),
                Err(e) => self.check_error(id, "implied type", &e, want),
            }
            return None;
        }
        let want_ty = Type::from_json(&want.to_string()).expect("implied type parses");
        match got {
            Ok(t) => {
                self.check(t == want_ty, || {
                    format!("{id}: implied {t}, want {want_ty}")
                });
                Some(t)
            }
            Err(e) => {
                self.fail(format!("{id}: implied type failed: {e}"));
                None
            }
        }
    }

    fn values(&mut self, id: &str, case: &Json, ty: &Type) {
        let mp = str_field(case, "msgpack").map(hex);
        let js = str_field(case, "json");
        let error = case.get("error");
        let inputs = [
            (
                "input_msgpack",
                str_field(case, "input_msgpack")
                    .map(hex)
                    .map(Input::Msgpack),
            ),
            (
                "input_json",
                str_field(case, "input_json").map(|s| Input::Json(s.as_bytes().to_vec())),
            ),
        ];
        for (field, input) in inputs {
            let Some(input) = input else { continue };
            let decoded = input.decode(ty);
            match (decoded, error) {
                (Ok(v), Some(_)) => {
                    self.fail(format!("{id}: {field} decoded to {v:?}, want an error"))
                }
                (Err(e), Some(want)) => self.check_error(id, field, &e, want),
                (Err(e), None) => self.fail(format!("{id}: {field} does not decode: {e}")),
                (Ok(v), None) => self.outputs(id, field, &v, ty, mp.as_deref(), js, case),
            }
        }
        if mp.is_none() && js.is_none() {
            return;
        }
        if let Some(bytes) = &mp {
            if str_field(case, "input_msgpack").is_none() || error.is_some() {
                match msgpack::decode(bytes, ty) {
                    Ok(v) => self.outputs(id, "msgpack", &v, ty, Some(bytes), js, case),
                    Err(e) => self.fail(format!("{id}: msgpack does not decode: {e}")),
                }
            }
        }
        if let Some(text) = js {
            if str_field(case, "input_json").is_none() || error.is_some() {
                match json::decode(text.as_bytes(), ty) {
                    Ok(v) => {
                        let want_mp = str_field(case, "msgpack_from_json").map(hex).or(mp.clone());
                        self.outputs(id, "json", &v, ty, want_mp.as_deref(), Some(text), case)
                    }
                    Err(e) => self.fail(format!("{id}: json does not decode: {e}")),
                }
            }
        }
    }

    /// Encodes a decoded value in both formats and compares with the expectations.
    #[allow(clippy::too_many_arguments)]
    fn outputs(
        &mut self,
        id: &str,
        from: &str,
        v: &ctywire::Value,
        ty: &Type,
        want_mp: Option<&[u8]>,
        want_js: Option<&str>,
        case: &Json,
    ) {
        if let Some(want) = want_mp {
            match msgpack::encode(v, ty) {
                Ok(got) => self.check(got == want, || {
                    format!(
                        "{id}: {from} -> msgpack gives {}, want {}",
                        to_hex(&got),
                        to_hex(want)
                    )
                }),
                Err(e) => self.fail(format!("{id}: {from} -> msgpack fails: {e}")),
            }
        }
        let got = json::encode(v, ty);
        match (got, want_js, case.get("json_encode_error")) {
            (Ok(got), Some(want), _) => {
                let got = String::from_utf8(got).expect("JSON output is UTF-8");
                self.check(got == want, || {
                    format!("{id}: {from} -> json gives {got}, want {want}")
                });
            }
            (Err(e), _, Some(want)) => {
                self.check(
                    e.message() == want["message"].as_str().unwrap_or_default(),
                    || {
                        format!(
                            "{id}: {from} -> json error {:?}, want {}",
                            e.message(),
                            want["message"]
                        )
                    },
                );
                self.check(
                    e.path().to_string() == want["path"].as_str().unwrap_or_default(),
                    || {
                        format!(
                            "{id}: {from} -> json error path {:?}, want {}",
                            e.path().to_string(),
                            want["path"]
                        )
                    },
                );
            }
            (Ok(got), None, Some(_)) => self.fail(format!(
                "{id}: {from} -> json gives {}, want an error",
                String::from_utf8_lossy(&got)
            )),
            (Err(e), Some(_), None) => self.fail(format!("{id}: {from} -> json fails: {e}")),
            (_, None, None) => {}
        }
    }
}

enum Input {
    Msgpack(Vec<u8>),
    Json(Vec<u8>),
}

impl Input {
    fn decode(&self, ty: &Type) -> ctywire::Result<ctywire::Value> {
        match self {
            Input::Msgpack(b) => msgpack::decode(b, ty),
            Input::Json(b) => json::decode(b, ty),
        }
    }
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    out.sort();
    out
}

fn run_dir(dir: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("vectors")
        .join(dir);
    let mut run = Run {
        failures: Vec::new(),
        checks: 0,
        skipped: 0,
    };
    let mut cases = 0;
    for file in files(&root) {
        let text = std::fs::read_to_string(&file).unwrap();
        let doc: Json =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        for case in doc["cases"].as_array().expect("cases array") {
            cases += 1;
            let id = format!("{name}:{}", case["name"].as_str().unwrap_or("?"));
            run.case(&id, case);
        }
    }
    eprintln!(
        "vectors/{dir}: {cases} cases, {} checks, {} skipped, {} failures",
        run.checks,
        run.skipped,
        run.failures.len()
    );
    assert!(run.checks > 0, "no checks ran");
    assert!(
        run.failures.is_empty(),
        "{} failures:\n{}",
        run.failures.len(),
        run.failures.join("\n")
    );
}

#[test]
fn go_cty_tables() {
    run_dir("go-cty");
}

#[test]
fn ctywire_cases() {
    run_dir("ctywire");
}
