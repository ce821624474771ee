//! The differential test of the plan rules: ctywire's `try_proposed_new_for`, `check_plan`
//! and `check_apply` against the recorded answers of Terraform's and OpenTofu's own plan code
//! (`vectors/plan/objchange/`, described in its README) on thousands of generated cases.
//!
//! Every answer of every client is compared: the proposed new state byte for byte (as
//! MessagePack), and the problems of the plan and apply checks as the multiset of
//! (Terraform's path, message) pairs. Where ctywire writes `(sensitive value)` for a
//! value the client prints (one holding a sensitive attribute), the answer counts as the
//! same verdict ([`same_but_hidden`]). Any other disagreement fails the test unless it is
//! a documented departure ([`departure`]). The agreement per client and check is printed,
//! also counting the deliberate departures (a value the client prints that the schema
//! marks sensitive, hidden here) as agreement; for Terraform that must reach 99.9%:
//!
//!     cargo test -p ctywire --test suite conformance::objchange -- --nocapture

use std::collections::BTreeMap;
use std::io::Read as _;

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

fn lines() -> Vec<Json> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/vectors/plan/objchange");
    let mut out = Vec::new();
    for file in FILES {
        let path = format!("{dir}/{file}");
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut text = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut text)
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        for line in text.lines() {
            out.push(serde_json::from_str(line).expect("a JSON line"));
        }
    }
    out
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
/// a printed value: text starting `cty.` (a value in cty's Go syntax).
fn same_but_hidden(theirs: &Answer, ours: &Answer) -> bool {
    let (Answer::Problems(theirs), Answer::Problems(ours)) = (theirs, ours) else {
        return false;
    };
    if theirs.len() != ours.len() {
        return false;
    }
    let mut left: Vec<&(String, String)> = theirs.iter().collect();
    for (path, message) in ours {
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

/// Whether `ours` is `theirs` with some values (each a whole `cty.` value in Go syntax)
/// replaced by `(sensitive value)`.
fn hides(theirs: &str, ours: &str) -> bool {
    const HIDDEN: &str = "(sensitive value)";
    let parts: Vec<&str> = ours.split(HIDDEN).collect();
    if parts.len() == 1 {
        return theirs == ours;
    }
    let mut rest = theirs;
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            let Some(r) = rest.strip_prefix(part) else {
                return false;
            };
            rest = r;
            continue;
        }
        // A hidden value: cty's Go syntax up to the next literal part.
        if !rest.starts_with("cty.") {
            return false;
        }
        let next = if i + 1 == parts.len() {
            rest.strip_suffix(part).map(|v| v.len())
        } else {
            rest.find(part)
        };
        let Some(end) = next.filter(|e| *e > 0) else {
            return false;
        };
        rest = &rest[end + part.len()..];
    }
    rest.is_empty()
}

/// One comparison: a case, a client and a check.
struct Outcome {
    case: String,
    client: &'static str,
    check: &'static str,
    want: Answer,
    got: Answer,
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
    ("102:737", "opentofu-1.12.6", "apply", SECRET_HIDDEN),
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
    ("opentofu-1.12.6", "apply", 9845, 9927),
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
    assert_eq!(cases.len(), 10_000);
    // (client, check) -> (agree, departures, total, agree but for a hidden value)
    let mut table: BTreeMap<(&str, &str), (usize, usize, usize, usize)> = BTreeMap::new();
    // (client, check) -> the departures that are deliberate (a secret hidden)
    let mut deliberate: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut by_reason: BTreeMap<&str, usize> = BTreeMap::new();
    let mut used = std::collections::BTreeSet::new();
    let mut study = String::new();
    for case in &cases {
        for o in run(case) {
            let row = table.entry((o.client, o.check)).or_default();
            row.2 += 1;
            if o.want == o.got {
                row.0 += 1;
                continue;
            }
            let kind = if same_but_hidden(&o.want, &o.got) {
                row.3 += 1;
                "hidden"
            } else if let Some((key, reason)) = departure(&o) {
                used.insert(key);
                row.1 += 1;
                if reason == SECRET_HIDDEN {
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
            if kind == "FAILURE" {
                failures.push(o);
            }
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
    let stale: Vec<String> = DEPARTURES
        .iter()
        .filter(|(case, client, check, _)| !used.contains(&(*case, *client, *check)))
        .map(|(case, client, check, _)| format!("{case} {client} {check}"))
        .collect();
    assert!(
        stale.is_empty(),
        "listed departures that now agree (remove them):\n{}",
        stale.join("\n")
    );
    let mut below = Vec::new();
    for (client, check, same, verdict) in REACHED {
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
    let (mut shortcut, mut refused) = (0, 0);
    for case in &lines() {
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
        if block.block_types.is_empty()
            && block
                .attributes
                .values()
                .all(|a| a.nested_type.is_none() && !a.write_only)
        {
            shortcut += 1;
        }
        let any_refuses = CLIENTS.iter().any(|(key, _)| {
            recorded(&case["clients"][*key]["plan"]) != Answer::Problems(Vec::new())
        });
        if any_refuses {
            refused += 1;
            assert!(!each.is_empty(), "case {}", case["case"]);
        }
    }
    assert!(shortcut > 0 && refused > 0, "{shortcut} {refused}");
}
