//! The truth log ctywire-tfplugin's capture writer keeps beside a capture directory
//! (`CTYWIRE_CAPTURE_TRUTH`: one JSON object a line for each call the provider served,
//! with the name, length and 64-bit FNV-1a hash of every file it wrote), read, and what
//! [`Capture`] makes of the directory checked against it.
//!
//! The end-to-end suite of the demo provider includes this file too, to check a live run
//! the same way.

use std::collections::{BTreeMap, BTreeSet};

use ctywire::capture::{Capture, Data, Status};

/// One file a call wrote.
#[derive(Clone, Debug)]
pub struct TruthFile {
    /// `Request`, `Response`, ...
    pub message: String,
    /// `Config`, `PlannedState`, ...
    pub field: String,
    /// The file's name.
    pub file: String,
    /// Its length in bytes.
    pub len: u64,
    /// The FNV-1a hash of its bytes.
    pub hash: u64,
}

/// One call the provider served.
#[derive(Clone, Debug)]
pub struct TruthCall {
    /// The provider process's id.
    pub pid: u64,
    /// Its place in that process's order of starts and ends.
    pub start: u64,
    /// Its place in that process's order of starts and ends.
    pub end: u64,
    /// The RPC.
    pub rpc: String,
    /// The resource type (or other subject) the request named.
    pub type_name: String,
    /// The files it wrote, in order.
    pub files: Vec<TruthFile>,
    /// The gRPC status code's name when it failed.
    pub error: Option<String>,
}

/// The 64-bit FNV-1a hash, as the truth log gives it.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Reads a truth log; an error names the line.
pub fn read_truth(text: &str) -> Result<Vec<TruthCall>, String> {
    let mut calls = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let at = |what: &str| format!("truth log line {}: {what}", n + 1);
        let doc: serde_json::Value = serde_json::from_str(line).map_err(|e| at(&e.to_string()))?;
        let number = |key: &str| doc[key].as_u64().ok_or_else(|| at(&format!("no {key}")));
        let text = |v: &serde_json::Value, key: &str| {
            v[key]
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| at(&format!("no {key}")))
        };
        let mut files = Vec::new();
        for f in doc["files"].as_array().ok_or_else(|| at("no files"))? {
            let hash = text(f, "fnv1a64")?;
            files.push(TruthFile {
                message: text(f, "message")?,
                field: text(f, "field")?,
                file: text(f, "file")?,
                len: f["len"].as_u64().ok_or_else(|| at("no len"))?,
                hash: u64::from_str_radix(&hash, 16).map_err(|_| at("a bad fnv1a64"))?,
            });
        }
        calls.push(TruthCall {
            pid: number("pid")?,
            start: number("start")?,
            end: number("end")?,
            rpc: text(&doc, "rpc")?,
            type_name: text(&doc, "type_name")?,
            files,
            error: doc["error"].as_str().map(str::to_owned),
        });
    }
    Ok(calls)
}

/// Checks the log itself: each process's starts and ends are distinct places in one
/// order, each call starts before it ends, and a failed call wrote no response.
pub fn consistent(truth: &[TruthCall]) -> Result<(), String> {
    let mut places: BTreeSet<(u64, u64)> = BTreeSet::new();
    for call in truth {
        if call.start >= call.end
            || !places.insert((call.pid, call.start))
            || !places.insert((call.pid, call.end))
        {
            return Err(format!(
                "{} of process {}: start {}, end {} out of order or repeated",
                call.rpc, call.pid, call.start, call.end
            ));
        }
        if call.error.is_some() && call.files.iter().any(|f| f.message != "Request") {
            return Err(format!("{} failed but wrote a response", call.rpc));
        }
    }
    Ok(())
}

/// Checks the directory against the log as terraform-plugin-go's writing leaves it:
/// every file is one that a call of the log wrote, holding the bytes of one of the calls
/// that wrote its name (the last one's), or torn: a shorter write's bytes over a longer
/// one's tail, when two calls wrote the name at once. Returns how many are torn.
pub fn files_accounted(
    truth: &[TruthCall],
    files: &BTreeMap<String, Vec<u8>>,
) -> Result<usize, String> {
    let mut writers: BTreeMap<&str, Vec<&TruthFile>> = BTreeMap::new();
    for f in truth.iter().flat_map(|c| &c.files) {
        writers.entry(f.file.as_str()).or_default().push(f);
    }
    let mut torn = 0;
    for (name, b) in files {
        let Some(by) = writers.get(name.as_str()) else {
            return Err(format!("{name}: no call of the log wrote it"));
        };
        if by
            .iter()
            .any(|f| f.len == b.len() as u64 && f.hash == fnv1a64(b))
        {
            continue;
        }
        let longer = by.iter().any(|f| f.len == b.len() as u64);
        let shorter_first = by
            .iter()
            .any(|f| f.len < b.len() as u64 && f.hash == fnv1a64(&b[..f.len as usize]));
        if !(longer && shorter_first) {
            return Err(format!(
                "{name}: its bytes are no writer's, nor a torn write"
            ));
        }
        torn += 1;
    }
    Ok(torn)
}

/// A call's values as the check compares them: RPC, and each file's message, field,
/// length and hash, sorted.
type Key = (String, Vec<(String, String, u64, u64)>);

fn truth_key(call: &TruthCall) -> Key {
    let mut files: Vec<_> = call
        .files
        .iter()
        .map(|f| (f.message.clone(), f.field.clone(), f.len, f.hash))
        .collect();
    files.sort();
    (call.rpc.clone(), files)
}

fn bytes(data: &Data) -> &[u8] {
    match data {
        Data::Msgpack(b) | Data::Json(b) | Data::Private(b) => b,
        Data::Empty => &[],
    }
}

/// What the check found.
#[derive(Debug, Default)]
pub struct Report {
    /// Calls that wrote files.
    pub calls: usize,
    /// Of them, those whose every file is in the directory with its bytes.
    pub survived: usize,
    /// Of those, the ones no other call wrote a file of the same name for: nothing in
    /// the directory hides or mixes them.
    pub alone: usize,
    /// Calls [`Capture`] shows as complete.
    pub complete: usize,
    /// Of them, those whose values are one call's of the truth log (each truth call
    /// counted once).
    pub correct: usize,
    /// The complete calls whose values are no call's: their files, with the calls that
    /// wrote each name.
    pub wrong: Vec<String>,
    /// Of them, those that hold a torn file: bytes that are no writer's, left by two
    /// calls writing one name at once (the later write's bytes over the earlier's tail).
    pub wrong_torn: usize,
    /// The calls [`Capture`] shows, by RPC and status.
    pub statuses: BTreeMap<String, usize>,
    /// Calls that survived, shown as no complete call: what holds their first file
    /// and why, and whether they were alone.
    pub missed: Vec<String>,
    /// Calls that were alone and are not shown complete.
    pub alone_missed: usize,
    /// Calls that survived and that no other call of their RPC wrote a file within a
    /// millisecond of (before or after): the names alone group them.
    pub isolated: usize,
    /// Isolated calls not shown complete with exactly their files.
    pub isolated_missed: Vec<String>,
    /// By RPC: (survived, shown complete and correct).
    pub by_rpc: BTreeMap<String, (usize, usize)>,
}

impl Report {
    /// The share of the calls that survived shown complete and correct.
    pub fn fraction(&self) -> f64 {
        self.correct as f64 / self.survived.max(1) as f64
    }
}

/// Checks what `capture` makes of `files` (the directory's names and bytes) against
/// `truth`.
pub fn check(truth: &[TruthCall], files: &BTreeMap<String, Vec<u8>>, capture: &Capture) -> Report {
    let mut report = Report::default();
    let mut writers: BTreeMap<&str, usize> = BTreeMap::new();
    for call in truth {
        for f in &call.files {
            *writers.entry(f.file.as_str()).or_default() += 1;
        }
    }
    let present = |f: &TruthFile| {
        files
            .get(&f.file)
            .is_some_and(|b| b.len() as u64 == f.len && fnv1a64(b) == f.hash)
    };
    // Which calls of each RPC wrote a file in each millisecond.
    let millis = |f: &TruthFile| -> u64 {
        f.file
            .split('_')
            .next()
            .and_then(|m| m.parse().ok())
            .unwrap_or_default()
    };
    let mut writing: BTreeMap<(&str, u64), BTreeSet<usize>> = BTreeMap::new();
    for (n, call) in truth.iter().enumerate() {
        for f in &call.files {
            writing
                .entry((call.rpc.as_str(), millis(f)))
                .or_default()
                .insert(n);
        }
    }
    let isolated = |n: usize, call: &TruthCall| {
        call.files.iter().all(|f| {
            let m = millis(f);
            (m.saturating_sub(1)..=m + 1).all(|m| {
                writing
                    .get(&(call.rpc.as_str(), m))
                    .is_none_or(|w| w.iter().all(|&o| o == n))
            })
        })
    };
    let mut left: BTreeMap<Key, usize> = BTreeMap::new();
    let mut survivors = Vec::new();
    for (n, call) in truth
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.files.is_empty())
    {
        report.calls += 1;
        *left.entry(truth_key(call)).or_default() += 1;
        if call.files.iter().all(present) {
            report.survived += 1;
            report.by_rpc.entry(call.rpc.clone()).or_default().0 += 1;
            let alone = call.files.iter().all(|f| writers[f.file.as_str()] == 1);
            report.alone += usize::from(alone);
            let isolated = isolated(n, call);
            report.isolated += usize::from(isolated);
            survivors.push((call, alone, isolated));
        }
    }
    // The complete calls, by the truth calls they show, and the names of their files.
    let mut shown: BTreeMap<Key, usize> = BTreeMap::new();
    let mut shown_names: BTreeSet<Vec<String>> = BTreeSet::new();
    for call in &capture.calls {
        let status = match &call.status {
            Status::Complete => "complete",
            Status::Ambiguous { .. } => "ambiguous",
            Status::Incomplete { .. } => "incomplete",
            Status::PossiblyMixed { .. } => "possibly mixed",
            #[allow(unreachable_patterns)]
            _ => "other",
        };
        *report
            .statuses
            .entry(format!("{} {status}", call.rpc))
            .or_default() += 1;
        if !call.is_complete() {
            continue;
        }
        report.complete += 1;
        let mut values: Vec<_> = call
            .payloads
            .iter()
            .map(|p| {
                let b = bytes(&p.data);
                (
                    p.name.message.clone(),
                    p.name.field.clone(),
                    b.len() as u64,
                    fnv1a64(b),
                )
            })
            .collect();
        values.sort();
        let key = (call.rpc.clone(), values);
        match left.get_mut(&key) {
            Some(n) if *n > 0 => {
                *n -= 1;
                report.correct += 1;
                *shown.entry(key).or_default() += 1;
                let mut names: Vec<String> = call.payloads.iter().map(|p| p.file.clone()).collect();
                names.sort();
                shown_names.insert(names);
            }
            _ => {
                // Each file, with the calls that wrote its name (by their place in the
                // log) and which of them its bytes are.
                let files: Vec<String> = call
                    .payloads
                    .iter()
                    .map(|p| {
                        let b = bytes(&p.data);
                        let by: Vec<String> = truth
                            .iter()
                            .enumerate()
                            .flat_map(|(n, t)| {
                                t.files.iter().filter(|f| f.file == p.file).map(move |f| {
                                    let mine = f.len == b.len() as u64 && f.hash == fnv1a64(b);
                                    format!("{n}{}", if mine { " (its bytes)" } else { "" })
                                })
                            })
                            .collect();
                        format!("{} written by {}", p.file, by.join(", "))
                    })
                    .collect();
                let torn = call.payloads.iter().any(|p| {
                    let b = bytes(&p.data);
                    let writers: Vec<&TruthFile> = truth
                        .iter()
                        .flat_map(|t| t.files.iter().filter(|f| f.file == p.file))
                        .collect();
                    writers.len() > 1
                        && !writers
                            .iter()
                            .any(|f| f.len == b.len() as u64 && f.hash == fnv1a64(b))
                });
                report.wrong_torn += usize::from(torn);
                report.wrong.push(format!(
                    "{}{}: {}",
                    call.rpc,
                    if torn { " (a torn file)" } else { "" },
                    files.join("; ")
                ));
            }
        }
    }
    // Each survivor is shown when a complete call holds its files, or else shows its
    // values (calls of equal values are interchangeable).
    let names_of = |call: &TruthCall| {
        let mut names: Vec<String> = call.files.iter().map(|f| f.file.clone()).collect();
        names.sort();
        names
    };
    let mut rest = Vec::new();
    for (call, alone, isolated) in survivors {
        // (Two calls of the same bytes under the same names: one complete call shows
        // the one that survived.)
        if shown_names.remove(&names_of(call)) {
            if let Some(n) = shown.get_mut(&truth_key(call)) {
                *n = n.saturating_sub(1);
            }
            report.by_rpc.entry(call.rpc.clone()).or_default().1 += 1;
        } else {
            rest.push((call, alone, isolated));
        }
    }
    for (call, alone, isolated) in rest {
        if isolated {
            report
                .isolated_missed
                .push(format!("{} {:?}", call.rpc, names_of(call)));
        }
        match shown.get_mut(&truth_key(call)) {
            Some(n) if *n > 0 => {
                *n -= 1;
                report.by_rpc.entry(call.rpc.clone()).or_default().1 += 1;
            }
            _ => {
                report.alone_missed += usize::from(alone);
                let first = &call.files[0].file;
                let holder = capture
                    .calls
                    .iter()
                    .find(|c| c.payloads.iter().any(|p| &p.file == first));
                let why = match holder {
                    Some(h) => format!("{}; {}", h.status, h.explain.join("; ")),
                    None => "its first file is in no call".to_owned(),
                };
                report.missed.push(format!(
                    "{} of {}{} ({}): {why}",
                    call.rpc,
                    call.type_name,
                    if alone { ", alone" } else { "" },
                    call.files
                        .iter()
                        .map(|f| f.file.as_str())
                        .collect::<BTreeSet<_>>()
                        .into_iter()
                        .collect::<Vec<_>>()
                        .join(" "),
                ));
            }
        }
    }
    report
}
