//! Test vectors in ctywire's format: check a file of cases against the `ctywire` library.
//!
//! The runner behind the library's vector suite and the `ctywire vectors check`
//! command; a crate of its own so that the library's API holds no test runner.
//!
//! The format is described in `vectors/README.md`: a file is
//! `{"description": ..., "cases": [...]}`, and each case gives a type and MessagePack
//! bytes (hex) or JSON text, and says what must come of them: the same bytes again, the
//! other format's bytes, an error of some kind at some path, a type. [`check`] runs every
//! check a case's fields call for and reports each failure with the expected and actual
//! bytes.
//!
//! ```
//! let file = r#"{"description": "strings", "cases": [
//!     {"name": "hello", "type": "string", "msgpack": "a568656c6c6f", "json": "\"hello\""},
//!     {"name": "wrong", "type": "string", "msgpack": "a3616263", "json": "\"abd\""}
//! ]}"#;
//! let report = ctywire_vectors::check(file)?;
//! assert_eq!(report.cases, 2);
//! assert_eq!(report.failures.len(), 2); // msgpack -> JSON, and JSON -> msgpack
//! assert_eq!(report.failures[0].case, "wrong");
//! # Ok::<(), ctywire::Error>(())
//! ```
//!
//! A file of the repository's vectors:
//!
//! ```
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../vectors/ctywire/sets.json");
//! let report = ctywire_vectors::check(&std::fs::read_to_string(path)?)?;
//! assert_eq!((report.cases, report.checks), (38, 134));
//! assert!(report.failures.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

use ctywire::{json, msgpack, Error, ErrorKind, Position, Type, Value};
use serde_json::Value as Json;

/// The outcome of checking one vector file.
///
/// ```
/// let file = r#"{"cases": [
///     {"name": "set", "type": ["set", "string"], "msgpack": "92a161a162", "json": "[\"a\",\"b\"]"},
///     {"name": "skipped", "skip": "not yet", "type": "string", "msgpack": "a0"}
/// ]}"#;
/// let report = ctywire_vectors::check(file)?;
/// assert_eq!((report.cases, report.skipped), (2, 1));
/// assert!(report.checks >= 2);
/// assert!(report.failures.is_empty(), "{:?}", report.failures);
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Report {
    /// The number of cases in the file.
    pub cases: usize,
    /// The number of checks made.
    pub checks: usize,
    /// Cases marked `skip`.
    pub skipped: usize,
    /// The checks that failed.
    pub failures: Vec<Failure>,
}

/// One failed check.
///
/// ```
/// // 256 is `cd 01 00`; the case says `d1 01 00` (int16), which decodes but does not
/// // come back.
/// let file = r#"{"cases": [{"name": "bad", "type": "number", "msgpack": "d10100"}]}"#;
/// let report = ctywire_vectors::check(file)?;
/// let failure = &report.failures[0];
/// assert_eq!(failure.case, "bad");
/// assert_eq!(failure.message, "msgpack -> msgpack: bytes differ");
/// assert_eq!(failure.expected.as_deref(), Some(&[0xd1, 0x01, 0x00][..]));
/// assert_eq!(failure.actual.as_deref(), Some(&[0xcd, 0x01, 0x00][..]));
/// # Ok::<(), ctywire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Failure {
    /// The case's `name`.
    pub case: String,
    /// What was checked and what went wrong, e.g. `msgpack -> json: bytes differ`.
    pub message: String,
    /// The expected bytes, where the check compares bytes.
    pub expected: Option<Vec<u8>>,
    /// The bytes produced.
    pub actual: Option<Vec<u8>>,
}

/// Checks every case of a vector file's text.
///
/// Fails only when the text is not a vector file; failed checks are in the report.
///
/// ```
/// use ctywire_vectors::check;
///
/// let report = check(r#"{"cases": [{"name": "t", "type": "bool", "msgpack": "c3", "json": "true"}]}"#)?;
/// assert_eq!((report.cases, report.failures.len()), (1, 0));
/// assert_eq!(check("[]").unwrap_err().to_string(), r#"not a vector file: no "cases" array"#);
/// # Ok::<(), ctywire::Error>(())
/// ```
pub fn check(text: &str) -> Result<Report, Error> {
    let doc: Json = serde_json::from_str(text)
        .map_err(|e| Error::new(ErrorKind::Syntax, format!("not JSON: {e}")))?;
    let cases = doc.get("cases").and_then(Json::as_array).ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidValue,
            "not a vector file: no \"cases\" array",
        )
    })?;
    let mut run = Run::default();
    for (i, case) in cases.iter().enumerate() {
        run.report.cases += 1;
        run.case = case
            .get("name")
            .and_then(Json::as_str)
            .map_or_else(|| format!("#{i}"), str::to_owned);
        run.run(case);
    }
    Ok(run.report)
}

fn hex(s: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if digits.len() % 2 != 0 {
        return Err(format!("odd number of hex digits in {s:?}"));
    }
    digits
        .chunks(2)
        .map(|pair| {
            std::str::from_utf8(pair)
                .ok()
                .and_then(|p| u8::from_str_radix(p, 16).ok())
                .ok_or_else(|| format!("invalid hex in {s:?}"))
        })
        .collect()
}

fn str_field<'a>(case: &'a Json, field: &str) -> Option<&'a str> {
    case.get(field).and_then(Json::as_str)
}

fn type_of(json: &Json) -> Result<Type, String> {
    Type::from_json(&json.to_string()).map_err(|e| format!("type {json} does not parse: {e}"))
}

/// An input to decode.
enum Input {
    Msgpack(Vec<u8>),
    Json(Vec<u8>),
}

impl Input {
    fn decode(&self, ty: &Type) -> ctywire::Result<Value> {
        match self {
            Input::Msgpack(b) => msgpack::decode(b, ty),
            Input::Json(b) => json::decode(b, ty),
        }
    }
}

#[derive(Default)]
struct Run {
    report: Report,
    case: String,
}

impl Run {
    fn fail(&mut self, message: String) {
        self.report.checks += 1;
        self.report.failures.push(Failure {
            case: self.case.clone(),
            message,
            expected: None,
            actual: None,
        });
    }

    fn check(&mut self, ok: bool, message: impl FnOnce() -> String) {
        if ok {
            self.report.checks += 1;
        } else {
            self.fail(message());
        }
    }

    fn check_bytes(&mut self, what: &str, actual: Vec<u8>, expected: &[u8]) {
        self.report.checks += 1;
        if actual != expected {
            self.report.failures.push(Failure {
                case: self.case.clone(),
                message: format!("{what}: bytes differ"),
                expected: Some(expected.to_vec()),
                actual: Some(actual),
            });
        }
    }

    /// Compares an error with `{"kind", "path", "offset"?, "message"?}`.
    fn check_error(&mut self, what: &str, err: &Error, want: &Json) {
        if let Some(kind) = str_field(want, "kind") {
            self.check(format!("{:?}", err.kind()) == kind, || {
                format!("{what}: error kind {:?}, want {kind} ({err})", err.kind())
            });
        }
        if let Some(path) = str_field(want, "path") {
            self.check(err.path().to_string() == path, || {
                format!(
                    "{what}: error path {:?}, want {path:?} ({err})",
                    err.path().to_string()
                )
            });
        }
        if let Some(message) = str_field(want, "message") {
            self.check(err.message().contains(message), || {
                format!(
                    "{what}: error message {:?} lacks {message:?}",
                    err.message()
                )
            });
        }
        if let Some(offset) = want.get("offset").and_then(Json::as_u64) {
            self.check(
                err.position() == Some(Position::Offset(offset as usize)),
                || {
                    format!(
                        "{what}: error position {:?}, want byte {offset} ({err})",
                        err.position()
                    )
                },
            );
        }
    }

    fn run(&mut self, case: &Json) {
        if case.get("skip").is_some() {
            self.report.skipped += 1;
            return;
        }
        if let Err(message) = self.run_case(case) {
            self.fail(message);
        }
    }

    fn run_case(&mut self, case: &Json) -> Result<(), String> {
        if let Some(text) = str_field(case, "type_json") {
            self.type_json(case, text);
            return Ok(());
        }
        if let Some(expr) = str_field(case, "type_expr") {
            return self.type_expr(case, expr);
        }
        let ty = if let Some(want) = case.get("implied_type").or(case.get("implied_type_error")) {
            match self.implied_type(case, want)? {
                // The input is decoded with the implied type only where the case says
                // what that must give.
                Some(ty) if case.get("json").is_some() || case.get("msgpack").is_some() => ty,
                _ => return Ok(()),
            }
        } else {
            type_of(case.get("type").ok_or("no type")?)?
        };
        self.values(case, &ty)
    }

    fn type_json(&mut self, case: &Json, text: &str) {
        let parsed = Type::from_json(text);
        match (parsed, case.get("type_json_error")) {
            (Ok(t), Some(_)) => self.fail(format!("type JSON {text} parsed as {t}, want an error")),
            (Err(e), Some(want)) => self.check_error("type JSON", &e, want),
            (Ok(t), None) => {
                let want = str_field(case, "type_json_canonical").unwrap_or(text);
                self.check_bytes("type JSON", t.to_json().into_bytes(), want.as_bytes());
            }
            (Err(e), None) => self.fail(format!("type JSON {text} does not parse: {e}")),
        }
    }

    fn type_expr(&mut self, case: &Json, expr: &str) -> Result<(), String> {
        let parsed = Type::parse_expr(expr);
        if let Some(want) = case.get("type_expr_error") {
            match parsed {
                Ok(t) => self.fail(format!(
                    "type expression {expr} parsed as {t}, want an error"
                )),
                Err(e) => self.check_error("type expression", &e, want),
            }
            return Ok(());
        }
        let want = type_of(case.get("type").ok_or("no type")?)?;
        match parsed {
            Ok(t) => {
                self.check(t == want, || format!("{expr} parsed as {t}, want {want}"));
                let back = Type::parse_expr(&t.to_expr());
                self.check(back.as_ref() == Ok(&t), || {
                    format!("{} does not parse back: {back:?}", t.to_expr())
                });
            }
            Err(e) => self.fail(format!("type expression {expr} does not parse: {e}")),
        }
        Ok(())
    }

    fn implied_type(&mut self, case: &Json, want: &Json) -> Result<Option<Type>, String> {
        let got = if let Some(h) = str_field(case, "input_msgpack") {
            msgpack::implied_type(&hex(h)?)
        } else if let Some(j) = str_field(case, "input_json") {
            json::implied_type(j.as_bytes())
        } else {
            return Err("implied-type case without input".into());
        };
        if case.get("implied_type_error").is_some() {
            match got {
                Ok(t) => self.fail(format!("implied {t}, want an error")),
                Err(e) => self.check_error("implied type", &e, want),
            }
            return Ok(None);
        }
        let want = type_of(want)?;
        match got {
            Ok(t) => {
                self.check(t == want, || format!("implied {t}, want {want}"));
                Ok(Some(t))
            }
            Err(e) => {
                self.fail(format!("implied type failed: {e}"));
                Ok(None)
            }
        }
    }

    fn values(&mut self, case: &Json, ty: &Type) -> Result<(), String> {
        let mp = str_field(case, "msgpack").map(hex).transpose()?;
        let js = str_field(case, "json");
        let error = case.get("error");
        let inputs = [
            (
                "input_msgpack",
                str_field(case, "input_msgpack")
                    .map(hex)
                    .transpose()?
                    .map(Input::Msgpack),
            ),
            (
                "input_json",
                str_field(case, "input_json").map(|s| Input::Json(s.as_bytes().to_vec())),
            ),
        ];
        for (field, input) in inputs {
            let Some(input) = input else { continue };
            match (input.decode(ty), error) {
                (Ok(v), Some(_)) => self.fail(format!("{field} decoded to {v:?}, want an error")),
                (Err(e), Some(want)) => self.check_error(field, &e, want),
                (Err(e), None) => self.fail(format!("{field} does not decode: {e}")),
                (Ok(v), None) => self.outputs(field, &v, ty, mp.as_deref(), js, case),
            }
        }
        if let Some(bytes) = &mp {
            if str_field(case, "input_msgpack").is_none() || error.is_some() {
                match msgpack::decode(bytes, ty) {
                    Ok(v) => self.outputs("msgpack", &v, ty, Some(bytes), js, case),
                    Err(e) => self.fail(format!("msgpack does not decode: {e}")),
                }
            }
        }
        if let Some(text) = js {
            if str_field(case, "input_json").is_none() || error.is_some() {
                match json::decode(text.as_bytes(), ty) {
                    Ok(v) => {
                        let want_mp = match str_field(case, "msgpack_from_json") {
                            Some(h) => Some(hex(h)?),
                            None => mp.clone(),
                        };
                        self.outputs("json", &v, ty, want_mp.as_deref(), Some(text), case)
                    }
                    Err(e) => self.fail(format!("json does not decode: {e}")),
                }
            }
        }
        Ok(())
    }

    /// Encodes a decoded value in both formats and compares with the expectations.
    fn outputs(
        &mut self,
        from: &str,
        v: &Value,
        ty: &Type,
        want_mp: Option<&[u8]>,
        want_js: Option<&str>,
        case: &Json,
    ) {
        if let Some(want) = want_mp {
            match msgpack::encode(v, ty) {
                Ok(got) => self.check_bytes(&format!("{from} -> msgpack"), got, want),
                Err(e) => self.fail(format!("{from} -> msgpack fails: {e}")),
            }
        }
        match (json::encode(v, ty), want_js, case.get("json_encode_error")) {
            (Ok(got), Some(want), _) => {
                self.check_bytes(&format!("{from} -> json"), got, want.as_bytes())
            }
            (Err(e), _, Some(want)) => {
                let message = str_field(want, "message").unwrap_or_default();
                let path = str_field(want, "path").unwrap_or_default();
                self.check(
                    e.message() == message && e.path().to_string() == path,
                    || format!("{from} -> json: error {e:?}, want {message:?} at {path:?}"),
                );
            }
            (Ok(got), None, Some(_)) => self.fail(format!(
                "{from} -> json gives {}, want an error",
                String::from_utf8_lossy(&got)
            )),
            (Err(e), Some(_), None) => self.fail(format!("{from} -> json fails: {e}")),
            (_, None, None) => {}
        }
    }
}
