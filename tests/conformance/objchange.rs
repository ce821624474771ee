//! The differential test of the plan rules: ctywire's `try_proposed_new_for`, `check_plan`
//! and `check_apply` against the recorded answers of Terraform's and OpenTofu's own plan code
//! (`vectors/plan/objchange/`, described in its README) on thousands of generated cases.
//!
//! Every answer of every client is compared: the proposed new state byte for byte (as
//! MessagePack), and the problems of the plan and apply checks as the multiset of
//! (Terraform's path, message) pairs. Where ctywire writes `(sensitive value)` for a
//! value the client prints (one holding a sensitive attribute), the answer counts as the
//! same verdict ([`same_but_hidden`]: the messages equal with each such value masked on
//! both sides), provided each value hidden is at a path whose value holds an attribute
//! the schema marks sensitive ([`hides_only_secrets`]). Any other disagreement fails the
//! test unless it is a documented departure ([`departure`]); a departure for a secret
//! must differ only by ctywire's report of a nested attribute as a sensitive one
//! ([`only_a_sensitive_report`]). The agreement per client and check is printed,
//! also counting the deliberate departures (a value the client prints that the schema
//! marks sensitive, hidden here) as agreement; for Terraform that must reach 99.9%:
//!
//!     cargo test -p ctywire --test suite conformance::objchange -- --nocapture
//!
//! A plain `cargo test` reads the first of the five files (2,000 cases); with
//! `CTYWIRE_FULL_CASES` set (CI sets it) the tests read all 10,000 and check the
//! agreement reached on them ([`REACHED`]).

use std::collections::BTreeMap;
use std::io::Read as _;
use std::sync::OnceLock;

use ctywire::schema::{Block, Client, Inconsistency, ProviderSchemas, Rule};
use ctywire::{msgpack, Type, Value};
use serde_json::Value as Json;

const FILES: [&str; 5] = [
    "cases-seed101.jsonl.gz",
    "cases-seed102.jsonl.gz",
    "cases-seed103.jsonl.gz",
    "cases-seed104.jsonl.gz",
    "cases-seed105.jsonl.gz",
];

/// The clients recorded, by their key in the files, with the rules ctywire applies for
/// each.
const CLIENTS: [(&str, Client); 3] = [
    ("terraform-1.15.5", Client::Terraform1_15),
    ("terraform-1.16.0-rc2", Client::Terraform1_16),
    ("opentofu-1.12.6", Client::OpenTofu1_12),
];

const CHECKS: [&str; 3] = ["proposed", "plan", "apply"];

/// Whether the tests read every file: `CTYWIRE_FULL_CASES` set.
fn full() -> bool {
    std::env::var_os("CTYWIRE_FULL_CASES").is_some()
}

/// The files the tests read: all of them when [`full`], the first otherwise.
fn files() -> &'static [&'static str] {
    if full() {
        &FILES
    } else {
        &FILES[..1]
    }
}

/// The recorded cases of [`files`], read once for the whole test binary (the tests of
/// this module share them; each file is read on a thread of its own).
fn lines() -> &'static [Json] {
    static LINES: OnceLock<Vec<Json>> = OnceLock::new();
    LINES.get_or_init(|| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/vectors/plan/objchange");
        std::thread::scope(|scope| {
            let handles: Vec<_> = files()
                .iter()
                .map(|file| {
                    scope.spawn(move || {
                        let path = format!("{dir}/{file}");
                        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
                        let mut text = String::new();
                        flate2::read::GzDecoder::new(&bytes[..])
                            .read_to_string(&mut text)
                            .unwrap_or_else(|e| panic!("{path}: {e}"));
                        text.lines()
                            .map(|line| serde_json::from_str(line).expect("a JSON line"))
                            .collect::<Vec<Json>>()
                    })
                })
                .collect();
            handles.into_iter().flat_map(joined).collect()
        })
    })
}

/// What a thread returned, or its panic, raised again in the test's thread.
fn joined<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// `f` of every case, in their order, the cases shared out among the machine's cores
/// (the checks of thousands of cases, unoptimised, take seconds).
fn on_every_core<T: Send>(cases: &[Json], f: impl Fn(&Json) -> T + Sync) -> Vec<T> {
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let chunk = cases.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = cases
            .chunks(chunk)
            .map(|part| {
                let f = &f;
                scope.spawn(move || part.iter().map(f).collect::<Vec<T>>())
            })
            .collect();
        handles.into_iter().flat_map(joined).collect()
    })
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A recorded value: MessagePack hex typed by `ty`, `""` for null.
fn value(j: &Json, ty: &Type) -> Value {
    let text = j.as_str().expect("a hex string");
    if text.is_empty() {
        return Value::Null;
    }
    msgpack::decode(&unhex(text), ty).expect("a recorded value decodes")
}

/// An answer, in the one form both sides are compared in.
#[derive(Debug, PartialEq, Eq, Clone)]
enum Answer {
    /// ProposedNew's value, as MessagePack hex.
    Out(String),
    /// The problems found (sorted `(path, message)` pairs); empty when accepted.
    Problems(Vec<(String, String)>),
    /// The client fails on the input (a panic, or a refusal before any rule).
    Fails(String),
}

/// What a failure is about, in words both sides' texts hold: a recorded panic names
/// the Go functions it went through, ctywire's verdict says what in the value it is.
fn failure_kind(text: &str) -> String {
    let kinds = [
        ("SensitivePaths", "sensitive"),
        ("hold sensitive attributes", "sensitive"),
        ("writeOnlyPaths", "write-only"),
        ("hold write-only attributes", "write-only"),
    ];
    for (word, kind) in kinds {
        if text.contains(word) {
            return format!("null element ({kind})");
        }
    }
    // A crash inside objchange: Go's panic message, recorded before the functions it
    // went through, written by ctywire after "it panics: ".
    if let Some(panic) = text.split("(it panics: ").nth(1) {
        return format!("panics: {}", panic.strip_suffix(')').unwrap_or(panic));
    }
    if let Some((panic, _)) = text.split_once(" (in ") {
        return format!("panics: {panic}");
    }
    if let Some(step) = text.split("at step ").nth(1) {
        return format!("not a map type at step {}", &step[..1]);
    }
    text.to_owned()
}

fn recorded(j: &Json) -> Answer {
    if let Some(p) = j.get("panic") {
        return Answer::Fails(failure_kind(p.as_str().expect("a panic")));
    }
    if let Some(out) = j.get("out") {
        return Answer::Out(out.as_str().expect("hex").to_owned());
    }
    let mut problems: Vec<(String, String)> = j["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .map(|p| {
            let message = p["message"].as_str().expect("a message");
            if let Some(rest) = message.strip_prefix("Error validating write-only attributes: ") {
                // A refusal of Terraform's own, before any rule: see `ours`.
                return (String::new(), format!("fails: {rest}"));
            }
            (
                p["path"].as_str().expect("a path").to_owned(),
                message.to_owned(),
            )
        })
        .collect();
    if let Some(fail) = problems.iter().find(|(_, m)| m.starts_with("fails: ")) {
        return Answer::Fails(failure_kind(&fail.1));
    }
    problems.sort();
    Answer::Problems(problems)
}

/// ctywire's problems in the recorded form: the checks of Terraform's resource-instance
/// node around objchange's are recorded in the generator's short words (its `check` says
/// which), objchange's in Terraform's own.
fn ours(found: &[Inconsistency]) -> Answer {
    if let Some(fails) = found
        .iter()
        .find(|i| matches!(i.rule, Rule::ClientFails | Rule::ClientRefuses))
    {
        return Answer::Fails(failure_kind(&fails.terraform_message));
    }
    let mut problems: Vec<(String, String)> = found
        .iter()
        .map(|i| {
            let message = match i.rule {
                Rule::WriteOnlyReturned => "write-only attribute has a value".to_owned(),
                Rule::UnknownAfterApply => "unknown value after apply".to_owned(),
                Rule::NotNullAfterDestroy => "non-null object after destroy".to_owned(),
                _ => i.terraform_message.clone(),
            };
            (i.terraform_path.clone(), message)
        })
        .collect();
    problems.sort();
    Answer::Problems(problems)
}

/// Whether `ours` is `theirs` with values written `(sensitive value)`: the same
/// problems at the same paths, worded alike, where ctywire hides what the client
/// prints (a value holding a sensitive attribute). Each `(sensitive value)` stands for
/// one whole printed value in cty's Go syntax ([`hides`]): the messages are compared
/// with that value masked on both sides.
fn same_but_hidden(theirs: &Answer, ours: &Answer) -> bool {
    let (Answer::Problems(theirs), Answer::Problems(ours)) = (theirs, ours) else {
        return false;
    };
    if theirs.len() != ours.len() {
        return false;
    }
    // The problems alike first, so that a hidden one is not matched with a problem
    // that ctywire prints as the client does.
    let mut left: Vec<&(String, String)> = theirs.iter().collect();
    let mut hidden = Vec::new();
    for problem in ours {
        match left.iter().position(|p| *p == problem) {
            Some(at) => {
                left.remove(at);
            }
            None => hidden.push(problem),
        }
    }
    for (path, message) in hidden {
        let Some(at) = left
            .iter()
            .position(|(p, m)| p == path && hides(m, message))
        else {
            return false;
        };
        left.remove(at);
    }
    true
}

/// What ctywire writes in place of a value that shows a sensitive attribute.
const HIDDEN: &str = "(sensitive value)";

/// ctywire's report of a nested attribute whose difference would show a sensitive value.
const SENSITIVE_CHANGED: &str = "inconsistent values for sensitive attribute";

/// Whether `ours` is `theirs` with some values masked: `theirs`, with the one whole value
/// in cty's Go syntax that starts at each place where `ours` writes `(sensitive value)`
/// masked the same way, is `ours` exactly.
fn hides(theirs: &str, ours: &str) -> bool {
    let parts: Vec<&str> = ours.split(HIDDEN).collect();
    let mut rest = theirs;
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            let Some(n) = go_value_len(rest) else {
                return false;
            };
            rest = &rest[n..];
        }
        let Some(r) = rest.strip_prefix(part) else {
            return false;
        };
        rest = r;
    }
    rest.is_empty()
}

/// The length of the one whole value in cty's Go syntax at the start of `text`: `cty.`,
/// a name, each call's parentheses balanced (strings skipped), chained calls such as
/// `.RefineNotNull()` included. `None` where no whole value starts there.
fn go_value_len(text: &str) -> Option<usize> {
    if !text.starts_with("cty.") {
        return None;
    }
    let b = text.as_bytes();
    let mut i = 0;
    loop {
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'_') {
            i += 1;
        }
        if i == start {
            return None;
        }
        if b.get(i) != Some(&b'(') {
            // A value without a call (`cty.True`, `cty.DynamicVal`).
            return Some(i);
        }
        let mut depth = 0usize;
        loop {
            match b.get(i)? {
                b'"' => {
                    i += 1;
                    while *b.get(i)? != b'"' {
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'(' | b'{' | b'[' => depth += 1,
                b')' | b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        if b.get(i) != Some(&b'.') {
            return Some(i);
        }
    }
}

/// The steps of a path as Terraform prints it: `.name` and `[...]` (a key, an index or
/// a set element).
fn path_steps(path: &str) -> Option<Vec<(bool, &str)>> {
    let b = path.as_bytes();
    let mut steps = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        match b[i] {
            b'.' => {
                i += 1;
                while i < b.len() && b[i] != b'.' && b[i] != b'[' {
                    i += 1;
                }
                steps.push((true, &path[start + 1..i]));
            }
            b'[' => {
                let mut depth = 0usize;
                loop {
                    match *b.get(i)? {
                        b'"' => {
                            i += 1;
                            while *b.get(i)? != b'"' {
                                i += if b[i] == b'\\' { 2 } else { 1 };
                            }
                        }
                        b'[' => depth += 1,
                        b']' => {
                            depth -= 1;
                            if depth == 0 {
                                i += 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                steps.push((false, &path[start..i]));
            }
            _ => return None,
        }
    }
    Some(steps)
}

/// Whether the value at `path` (as Terraform prints it) holds an attribute the schema
/// marks sensitive: is one, is inside one, or has one below it. A key of a MAP (printed
/// `["k"]`, or `.k` where Terraform names it as an attribute) and an index or a set
/// element lead into a collection's element. `false` for a path the schema lacks.
fn holds_sensitive(block: &Block, path: &str) -> bool {
    use ctywire::schema::{Attribute, AttributeNesting, BlockNesting};
    use std::collections::BTreeMap;
    #[derive(Clone, Copy)]
    enum Node<'a> {
        Block(&'a Block),
        Blocks(&'a Block),
        Object(&'a BTreeMap<String, Attribute>),
        Objects(&'a BTreeMap<String, Attribute>),
        Leaf,
    }
    let Some(steps) = path_steps(path) else {
        return false;
    };
    let mut inside_sensitive = false;
    let mut node = Node::Block(block);
    fn attribute<'a>(a: &'a Attribute, inside: &mut bool) -> Node<'a> {
        *inside |= a.sensitive;
        match &a.nested_type {
            None => Node::Leaf,
            Some(n) if matches!(n.nesting, AttributeNesting::Single) => Node::Object(&n.attributes),
            Some(n) => Node::Objects(&n.attributes),
        }
    }
    for (named, step) in steps {
        node = match (node, named) {
            (Node::Block(b), true) => {
                if let Some(a) = b.attributes.get(step) {
                    attribute(a, &mut inside_sensitive)
                } else if let Some(nb) = b.block_types.get(step) {
                    match nb.nesting {
                        BlockNesting::Single | BlockNesting::Group => Node::Block(&nb.block),
                        _ => Node::Blocks(&nb.block),
                    }
                } else {
                    return false;
                }
            }
            (Node::Object(attributes), true) => match attributes.get(step) {
                Some(a) => attribute(a, &mut inside_sensitive),
                None => return false,
            },
            (Node::Blocks(b), _) => Node::Block(b),
            (Node::Objects(attributes), _) => Node::Object(attributes),
            (Node::Leaf, _) => Node::Leaf,
            (Node::Block(_) | Node::Object(_), false) => return false,
        };
    }
    inside_sensitive
        || match node {
            Node::Block(b) | Node::Blocks(b) => b.contains_sensitive(),
            Node::Object(a) | Node::Objects(a) => a.values().any(Attribute::contains_sensitive),
            Node::Leaf => false,
        }
}

/// Whether ctywire's problems hide only what holds a sensitive attribute: each problem
/// that writes `(sensitive value)`, or reports a nested attribute as a sensitive one, is
/// at a path whose value holds one.
fn hides_only_secrets(block: &Block, ours: &Answer) -> bool {
    let Answer::Problems(ours) = ours else {
        return true;
    };
    ours.iter()
        .filter(|(_, m)| m.contains(HIDDEN) || m == SENSITIVE_CHANGED)
        .all(|(path, _)| holds_sensitive(block, path))
}

/// Whether a departure differs from the client's answer only where ctywire reports a
/// nested attribute as a sensitive one: each problem of the client's that ctywire lacks
/// is at or below one of ctywire's sensitive reports, and each problem ctywire adds is
/// such a report.
fn only_a_sensitive_report(theirs: &Answer, ours: &Answer) -> bool {
    let (Answer::Problems(theirs), Answer::Problems(ours)) = (theirs, ours) else {
        return false;
    };
    let reports: Vec<&str> = ours
        .iter()
        .filter(|(_, m)| m == SENSITIVE_CHANGED)
        .map(|(p, _)| p.as_str())
        .collect();
    let below = |path: &str| {
        reports.iter().any(|r| {
            path.strip_prefix(r)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
        })
    };
    !reports.is_empty()
        && theirs
            .iter()
            .filter(|p| !ours.contains(p))
            .all(|(path, _)| below(path))
        && ours
            .iter()
            .filter(|p| !theirs.contains(p))
            .all(|(_, m)| m == SENSITIVE_CHANGED)
}

/// One comparison: a case, a client and a check.
struct Outcome {
    case: String,
    client: &'static str,
    check: &'static str,
    want: Answer,
    got: Answer,
    /// [`hides_only_secrets`] of `got`.
    hides_only_secrets: bool,
}

fn run(case: &Json) -> Vec<Outcome> {
    let doc = serde_json::to_vec(&case["schema"]).expect("JSON");
    let schemas = ProviderSchemas::from_json(&doc).expect("a schema document");
    let block: &Block = &schemas
        .resource(case["resource"].as_str().expect("a name"))
        .expect("the resource")
        .block;
    let ty = block.implied_type();
    let v = |name: &str| value(&case["values"][name], &ty);
    let (prior, plan_prior, config, planned, actual) = (
        v("prior"),
        v("plan_prior"),
        v("config"),
        v("planned"),
        v("actual"),
    );
    let mut out = Vec::new();
    for (key, client) in CLIENTS {
        let answers = &case["clients"][key];
        for check in CHECKS {
            let got = match check {
                "proposed" => match block.try_proposed_new_for(client, &prior, &config) {
                    Ok(p) => Answer::Out(hex(&msgpack::encode(&p, &ty).expect("encodes"))),
                    Err(fails) => Answer::Fails(failure_kind(&fails.message)),
                },
                "plan" => ours(&block.check_plan_for(client, &plan_prior, &config, &planned)),
                _ => ours(&block.check_apply_for(client, &planned, &actual)),
            };
            out.push(Outcome {
                case: case["case"].as_str().expect("an id").to_owned(),
                client: key,
                check,
                want: recorded(&answers[check]),
                hides_only_secrets: hides_only_secrets(block, &got),
                got,
            });
        }
    }
    out
}

/// Deliberate: the client prints what differs inside a nested attribute that holds
/// sensitive attributes (OpenTofu after apply, Terraform below a `dynamic` MAP block,
/// every client in a plan's messages), a set element of blocks holding a sensitive
/// value, or the planned blocks of an unknown `dynamic` block holding sensitive
/// attributes, values included; where that shows a sensitive value ctywire reports the
/// nested attribute as a sensitive attribute (as Terraform's apply check does) and writes
/// `(sensitive value)` for the others, so that no message prints a sensitive value.
const SECRET_HIDDEN: &str = "deliberate: no message prints a sensitive value; the client \
    prints values that the schema marks sensitive";

/// Every known disagreement: (case, client, check, reason).
const DEPARTURES: &[(&str, &str, &str, &str)] = &[
    ("104:659", "terraform-1.15.5", "apply", SECRET_HIDDEN),
    ("104:659", "terraform-1.16.0-rc2", "apply", SECRET_HIDDEN),
    ("101:52", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("101:154", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("101:248", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("101:358", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("101:458", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("101:508", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("101:566", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("101:887", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("101:1192", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("101:1221", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("101:1276", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("101:1298", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("101:1338", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("101:1410", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("101:1511", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("101:1544", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("101:1694", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("102:136", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("102:290", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("102:544", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("102:579", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("102:649", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("102:665", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("102:698", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("102:913", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("102:1155", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("102:1209", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("102:1258", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("102:1415", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("102:1661", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("102:1728", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("102:1756", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("102:1782", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("102:1902", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("103:500", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("103:711", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("103:726", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("103:777", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("103:804", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("103:1646", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("103:1702", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("103:1916", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("103:1956", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("104:67", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("104:115", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("104:138", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("104:223", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("104:291", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("104:451", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("104:659", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("104:694", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("104:865", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("104:869", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("104:896", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("104:1248", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("104:1607", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("104:1673", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("104:1806", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("104:1979", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("105:91", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("105:145", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("105:183", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("105:192", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("105:330", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("105:461", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("105:765", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("105:1463", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("105:1600", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("105:1673", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("105:1748", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("105:1877", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
    ("103:1853", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
];

/// The disagreements that are documented, each with its key in [`DEPARTURES`] and its
/// reason; `None` for any other.
fn departure(o: &Outcome) -> Option<((&'static str, &'static str, &'static str), &'static str)> {
    DEPARTURES
        .iter()
        .find(|(case, client, check, _)| {
            *case == o.case && *client == o.client && *check == o.check
        })
        .map(|(case, client, check, reason)| ((*case, *client, *check), *reason))
}

/// The agreement reached, per client and check, out of the 10,000 cases: (client,
/// check, same answer, same verdict). Same verdict counts the answers that differ
/// only by a value hidden as `(sensitive value)`. A change that agrees on fewer
/// fails the test; one that agrees on more raises these.
const REACHED: &[(&str, &str, usize, usize)] = &[
    ("opentofu-1.12.6", "apply", 9845, 9928),
    ("opentofu-1.12.6", "plan", 9990, 10000),
    ("opentofu-1.12.6", "proposed", 10000, 10000),
    ("terraform-1.15.5", "apply", 9950, 9999),
    ("terraform-1.15.5", "plan", 9994, 10000),
    ("terraform-1.15.5", "proposed", 10000, 10000),
    ("terraform-1.16.0-rc2", "apply", 9950, 9999),
    ("terraform-1.16.0-rc2", "plan", 9994, 10000),
    ("terraform-1.16.0-rc2", "proposed", 10000, 10000),
];

#[test]
fn the_plan_rules_agree_with_each_clients_recorded_answers() {
    let cases = lines();
    assert_eq!(cases.len(), 2_000 * files().len());
    // (client, check) -> (agree, departures, total, agree but for a hidden value)
    let mut table: BTreeMap<(&str, &str), (usize, usize, usize, usize)> = BTreeMap::new();
    // (client, check) -> the departures that are deliberate (a secret hidden)
    let mut deliberate: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut by_reason: BTreeMap<&str, usize> = BTreeMap::new();
    let mut used = std::collections::BTreeSet::new();
    let mut study = String::new();
    for o in on_every_core(cases, run).into_iter().flatten() {
        let row = table.entry((o.client, o.check)).or_default();
        row.2 += 1;
        if o.want == o.got {
            row.0 += 1;
            continue;
        }
        let kind = if !o.hides_only_secrets {
            "FAILURE: hides a value that holds nothing sensitive"
        } else if same_but_hidden(&o.want, &o.got) {
            row.3 += 1;
            "hidden"
        } else if let Some((key, reason)) = departure(&o) {
            used.insert(key);
            row.1 += 1;
            if reason == SECRET_HIDDEN {
                // Deliberate only where it differs by a sensitive report alone.
                if !only_a_sensitive_report(&o.want, &o.got) {
                    failures.push(o);
                    continue;
                }
                *deliberate.entry((o.client, o.check)).or_default() += 1;
            }
            *by_reason.entry(reason).or_default() += 1;
            reason
        } else {
            "FAILURE"
        };
        study.push_str(&format!(
            "{}\t{}\t{}\t{}\t{:?}\t{:?}\n",
            kind, o.case, o.client, o.check, o.want, o.got
        ));
        if kind.starts_with("FAILURE") {
            failures.push(o);
        }
    }
    println!("| client | check | same answer | same but a sensitive value hidden | departures | cases | same answer | same verdict | same or deliberate |");
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut short = Vec::new();
    for ((client, check), (agree, dep, total, hidden)) in &table {
        // Agreement, counting a deliberate departure (a secret the client prints,
        // hidden here) as agreement: every such answer is a hidden value.
        let settled = agree + hidden + deliberate.get(&(*client, *check)).copied().unwrap_or(0);
        let share = |n: usize| 100.0 * n as f64 / *total as f64;
        println!(
            "| {client} | {check} | {agree} | {hidden} | {dep} | {total} | {:.2}% | {:.2}% | {:.2}% |",
            share(*agree),
            share(agree + hidden),
            share(settled)
        );
        // Terraform: at least 99.9% the same answer or a deliberate departure.
        if client.starts_with("terraform-") && settled * 1000 < total * 999 {
            short.push(format!("{client} {check}: {settled} of {total}"));
        }
    }
    assert!(
        short.is_empty(),
        "Terraform below 99.9% (same answer or deliberate):\n{}",
        short.join("\n")
    );
    for (reason, n) in &by_reason {
        println!("departure ({n}): {reason}");
    }
    if let Ok(path) = std::env::var("CTYWIRE_OBJCHANGE_DUMP") {
        // Every difference, one per line with its kind, for study.
        std::fs::write(path, &study).expect("the dump");
    }
    let shown: Vec<String> = failures
        .iter()
        .take(40)
        .map(|o| {
            format!(
                "{} {} {}:\n  want: {:?}\n  got:  {:?}",
                o.case, o.client, o.check, o.want, o.got
            )
        })
        .collect();
    // A departure that no longer disagrees must leave the list.
    let read = |case: &str| {
        let seed = case.split(':').next().unwrap_or_default();
        files().contains(&format!("cases-seed{seed}.jsonl.gz").as_str())
    };
    let stale: Vec<String> = DEPARTURES
        .iter()
        .filter(|(case, client, check, _)| read(case) && !used.contains(&(*case, *client, *check)))
        .map(|(case, client, check, _)| format!("{case} {client} {check}"))
        .collect();
    assert!(
        stale.is_empty(),
        "listed departures that now agree (remove them):\n{}",
        stale.join("\n")
    );
    let mut below = Vec::new();
    // The figures are of all 10,000 cases.
    for (client, check, same, verdict) in REACHED.iter().filter(|_| full()) {
        let (agree, _, _, hidden) = table[&(*client, *check)];
        if agree < *same || agree + hidden < *verdict {
            below.push(format!(
                "{client} {check}: same answer {agree} (was {same}), same verdict {} (was {verdict})",
                agree + hidden
            ));
        }
    }
    assert_eq!(
        table.len(),
        REACHED.len(),
        "a figure for each client and check"
    );
    assert!(
        below.is_empty(),
        "the agreement fell:\n{}",
        below.join("\n")
    );
    assert!(
        failures.is_empty(),
        "{} disagreements; the first:\n{}",
        failures.len(),
        shown.join("\n")
    );
}

/// `check_plan_strictest` is the first refusing client's check on every recorded case,
/// its shortcut (one check where the clients cannot differ) included, and refuses
/// wherever any client's recorded answer refuses.
#[test]
fn the_strictest_plan_check_is_the_first_refusing_client_s() {
    // (one check where the clients cannot differ, some client refuses) for each case
    let each_case = on_every_core(lines(), |case| {
        let doc = serde_json::to_vec(&case["schema"]).expect("JSON");
        let schemas = ProviderSchemas::from_json(&doc).expect("a schema document");
        let block: &Block = &schemas
            .resource(case["resource"].as_str().expect("a name"))
            .expect("the resource")
            .block;
        let ty = block.implied_type();
        let v = |name: &str| value(&case["values"][name], &ty);
        let (prior, config, planned) = (v("plan_prior"), v("config"), v("planned"));
        let each = Client::ALL
            .into_iter()
            .map(|client| block.check_plan_for(client, &prior, &config, &planned))
            .find(|found| !found.is_empty())
            .unwrap_or_default();
        assert_eq!(
            block.check_plan_strictest(&prior, &config, &planned),
            each,
            "case {}",
            case["case"]
        );
        let shortcut = block.block_types.is_empty()
            && block
                .attributes
                .values()
                .all(|a| a.nested_type.is_none() && !a.write_only);
        let any_refuses = CLIENTS.iter().any(|(key, _)| {
            recorded(&case["clients"][*key]["plan"]) != Answer::Problems(Vec::new())
        });
        if any_refuses {
            assert!(!each.is_empty(), "case {}", case["case"]);
        }
        (shortcut, any_refuses)
    });
    let shortcut = each_case.iter().filter(|(s, _)| *s).count();
    let refused = each_case.iter().filter(|(_, r)| *r).count();
    assert!(shortcut > 0 && refused > 0, "{shortcut} {refused}");
}

/// The comparison's own rules refuse what they must: a mask over more or less than one
/// whole value, a value hidden where the schema marks nothing sensitive, a departure
/// that differs by more than a sensitive report.
#[test]
fn the_comparison_masks_one_whole_value_and_only_secrets() {
    let theirs = r#"planned set element cty.ObjectVal(map[string]cty.Value{"s":cty.StringVal("a)b")}) does not correlate with any element in actual"#;
    let ours =
        "planned set element (sensitive value) does not correlate with any element in actual";
    assert!(hides(theirs, ours));
    assert!(!hides(
        theirs,
        "planned set element (sensitive value) with any element in actual"
    ));
    assert!(!hides(
        theirs,
        "planned set element (sensitive value)}) does not correlate with any element in actual"
    ));
    assert!(!hides(
        theirs,
        "planned (sensitive value) does not correlate with any element in actual"
    ));
    assert!(hides(
        "was cty.UnknownVal(cty.String).RefineNotNull(), but now cty.True",
        "was (sensitive value), but now (sensitive value)"
    ));
    assert!(!hides(
        "was null, but now cty.True",
        "was (sensitive value), but now cty.True"
    ));

    let doc = br#"{"format_version": "1.0", "provider_schemas": {"x/y": {"resource_schemas": {"t": {"block": {
        "attributes": {
            "n": {"optional": true, "nested_type": {"nesting_mode": "map", "attributes": {
                "s": {"type": "string", "optional": true, "sensitive": true},
                "x": {"type": "string", "optional": true}}}},
            "p": {"type": "string", "optional": true}},
        "block_types": {"b": {"nesting_mode": "set", "block": {"attributes": {
            "x": {"type": "string", "optional": true}}}}}}}}}}}"#;
    let schemas = ProviderSchemas::from_json(doc).expect("a schema");
    let block = &schemas.resource("t").expect("t").block;
    for (path, holds) in [
        (".n", true),
        (".n[\"k\"]", true),
        (".n.k", true),
        (".n[\"k\"].s", true),
        (".n[\"k\"].x", false),
        (".p", false),
        (".b", false),
        (".b[cty.ObjectVal(...)].x", false),
        (".missing", false),
    ] {
        assert_eq!(holds_sensitive(block, path), holds, "{path}");
    }
    let problems = |ps: &[(&str, &str)]| {
        Answer::Problems(
            ps.iter()
                .map(|(p, m)| (p.to_string(), m.to_string()))
                .collect(),
        )
    };
    assert!(hides_only_secrets(
        block,
        &problems(&[(".n", SENSITIVE_CHANGED)])
    ));
    assert!(!hides_only_secrets(
        block,
        &problems(&[(".p", SENSITIVE_CHANGED)])
    ));
    assert!(!hides_only_secrets(
        block,
        &problems(&[(
            ".b",
            "planned set element (sensitive value) does not correlate"
        )])
    ));
    let theirs = problems(&[(
        ".n.k.s",
        "was cty.StringVal(\"a\"), but now cty.StringVal(\"b\")",
    )]);
    assert!(only_a_sensitive_report(
        &theirs,
        &problems(&[(".n", SENSITIVE_CHANGED)])
    ));
    assert!(!only_a_sensitive_report(
        &theirs,
        &problems(&[(".p", SENSITIVE_CHANGED)])
    ));
    assert!(!only_a_sensitive_report(
        &theirs,
        &problems(&[
            (".n", SENSITIVE_CHANGED),
            (".p", "was null, but now cty.True")
        ])
    ));
}
