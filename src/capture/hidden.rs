//! Calls an overwrite hid whole, found by the calls Terraform makes around them, and
//! the calls they could have mixed with.
//!
//! Two calls of one RPC whose requests share their milliseconds and whose responses
//! share theirs leave one request and one response under the same names: each file the
//! later writer's. Where the values Terraform's rules bind are all one call's, the call
//! looks whole, but a field nothing binds (private data that differs across the
//! directory) may be the other call's, and the names show no trace of it. What does
//! show it is the calls Terraform makes around each one:
//!
//! - a refresh (`ReadResource`) in a plan is followed by the plan of that resource
//!   (`PlanResourceChange`, from the state the refresh returned and a configuration)
//!   before the resource is refreshed again: a refresh with none hides a plan;
//! - a plan of a resource that has a state is preceded by its refresh since its last
//!   plan: a plan with none hides a refresh;
//! - a state an apply returned is the state a later refresh starts from: the first
//!   refresh of a state that no apply before it returned, in a directory with applies
//!   before it, hides an apply;
//! - a destroy plan is carried out by an apply of a null `PlannedState` from its state
//!   when the directory holds applies after it: one with none hides an apply.
//!
//! Each such trace gives the times between which the hidden call was written; a
//! complete call of that RPC within them whose values have two parts nothing binds to
//! each other is [`Status::PossiblyMixed`]. (A refresh-only run, or a plan without
//! refresh, looks the same: its calls are then possibly mixed too, never wrong.)
//! Where a hidden call leaves no trace (the plans of a `terraform plan` that creates
//! resources, nothing before or after them), nothing tells it.

use std::collections::{BTreeMap, BTreeSet};

use super::assign::bytes;
use super::overwritten::unchanged;
use super::{Call, Payload, Status};

/// The fields whose values Terraform's rules bind to each other within `call` (a
/// plan's and an apply's checks, a refresh that found no drift): one part of a call.
/// Every other field is a part of its own, and so is each state of a refresh that
/// found drift (nothing binds what it returns to what it was given).
fn bound(call: &Call) -> &'static [&'static str] {
    match call.rpc.as_str() {
        "PlanResourceChange" => &["Config", "PriorState", "ProposedNewState", "PlannedState"],
        "ApplyResourceChange" => &["Config", "PriorState", "PlannedState", "NewState"],
        "ReadResource" if unchanged(call) => &["CurrentState", "NewState"],
        _ => &[],
    }
}

/// A window in which a hidden call of an RPC was written, and what shows it.
struct Window {
    from: u64,
    to: u64,
    why: String,
    /// The hidden call is a destroy's apply (what shows it is a destroy plan).
    destroy: bool,
}

/// A value file's time and bytes, when it holds a value that is not null.
fn state(p: &Payload) -> Option<(u64, &[u8])> {
    (!p.is_null()).then(|| (p.name.unix_millis, bytes(&p.data)))
}

/// Every file of `rpc`'s `message` `field` in the calls, as (time, bytes), not null.
fn files<'c>(calls: &'c [Call], rpc: &str, message: &str, field: &str) -> Vec<(u64, &'c [u8])> {
    let mut out: Vec<(u64, &[u8])> = calls
        .iter()
        .filter(|c| c.rpc == rpc)
        .flat_map(|c| c.payloads.iter())
        .filter(|p| p.name.message == message && p.name.field == field)
        .filter_map(state)
        .collect();
    out.sort();
    out
}

/// The plans of the calls, by whether their configuration is null (a destroy): each
/// request's `PriorState` (not null) with its time. A request without a `Config` file
/// is counted as neither.
fn plans(calls: &[Call], destroy: bool) -> Vec<(u64, &[u8])> {
    let mut out: Vec<(u64, &[u8])> = calls
        .iter()
        .filter(|c| c.rpc == "PlanResourceChange")
        .filter(|c| {
            c.payload("Request", "Config")
                .is_some_and(|p| p.is_null() == destroy)
        })
        .filter_map(|c| c.payload("Request", "PriorState").and_then(state))
        .collect();
    out.sort();
    out
}

/// The windows of the hidden calls the directory shows, by RPC.
fn windows(calls: &[Call]) -> BTreeMap<&'static str, Vec<Window>> {
    let mut out: BTreeMap<&'static str, Vec<Window>> = BTreeMap::new();
    let refreshed = files(calls, "ReadResource", "Response", "NewState");
    let current = files(calls, "ReadResource", "Request", "CurrentState");
    let planned = plans(calls, false);
    let destroyed = plans(calls, true);
    let applied = files(calls, "ApplyResourceChange", "Response", "NewState");
    let apply_times: Vec<u64> = calls
        .iter()
        .filter(|c| c.rpc == "ApplyResourceChange")
        .flat_map(|c| c.payloads.iter().map(|p| p.name.unix_millis))
        .collect();
    // A refresh is followed by its plan before the next refresh of its state.
    for (n, &(t, s)) in refreshed.iter().enumerate() {
        let next = refreshed[n + 1..]
            .iter()
            .find(|(_, o)| *o == s)
            .map_or(u64::MAX, |(t, _)| *t);
        if !planned.iter().any(|&(p, o)| o == s && p >= t && p < next) {
            out.entry("PlanResourceChange").or_default().push(Window {
                from: t,
                to: next,
                why: format!(
                    "the refresh that returned a state at {t} is followed by no plan from \
                     that state before it is refreshed again"
                ),
                destroy: false,
            });
        }
    }
    // A plan from a state is preceded by its refresh since the last plan from it.
    for (n, &(t, s)) in planned.iter().enumerate() {
        let previous = planned[..n]
            .iter()
            .rev()
            .find(|(_, o)| *o == s)
            .map_or(0, |(t, _)| *t);
        if !refreshed
            .iter()
            .any(|&(r, o)| o == s && r >= previous && r <= t)
        {
            out.entry("ReadResource").or_default().push(Window {
                from: previous,
                to: t,
                why: format!(
                    "the plan at {t} starts from a state that no refresh returned since the \
                     last plan from it"
                ),
                destroy: false,
            });
        }
    }
    // The first refresh of a state that no apply before it returned, with applies
    // before it.
    let mut seen: BTreeSet<&[u8]> = BTreeSet::new();
    for &(t, s) in &current {
        if !seen.insert(s) {
            continue;
        }
        if apply_times.iter().any(|&a| a <= t) && !applied.iter().any(|&(a, o)| o == s && a <= t) {
            out.entry("ApplyResourceChange").or_default().push(Window {
                from: 0,
                to: t,
                why: format!(
                    "the refresh at {t} starts from a state that no apply before it \
                     returned, with applies before it"
                ),
                destroy: false,
            });
        }
    }
    // A destroy plan is carried out by an apply from its state, when applies follow.
    let destroys: Vec<(u64, &[u8])> = calls
        .iter()
        .filter(|c| c.rpc == "ApplyResourceChange")
        .filter(|c| {
            c.payload("Request", "PlannedState")
                .is_some_and(Payload::is_null)
        })
        .filter_map(|c| c.payload("Request", "PriorState").and_then(state))
        .collect();
    for &(t, s) in &destroyed {
        if apply_times.iter().any(|&a| a >= t) && !destroys.iter().any(|&(a, o)| o == s && a >= t) {
            out.entry("ApplyResourceChange").or_default().push(Window {
                from: t,
                to: u64::MAX,
                why: format!(
                    "the destroy plan at {t} is carried out by no apply from its state, with \
                     applies after it"
                ),
                destroy: true,
            });
        }
    }
    out
}

/// The first and the last millisecond of a call's files (`None` without files).
pub(super) fn extent(call: &Call) -> Option<(u64, u64)> {
    let times = call.payloads.iter().map(|p| p.name.unix_millis);
    Some((times.clone().min()?, times.max()?))
}

/// The windows (first and last millisecond) in which the calls around them show an
/// apply an overwrite hid whole, each with whether that apply is a destroy's.
pub(super) fn hidden_applies(calls: &[Call]) -> Vec<(u64, u64, bool)> {
    windows(calls)
        .remove("ApplyResourceChange")
        .unwrap_or_default()
        .iter()
        .map(|w| (w.from, w.to, w.destroy))
        .collect()
}

/// The fields whose files differ across the directory, as (RPC, message, field): a
/// field whose every file holds the same bytes shows the same values whoever wrote it.
pub(super) fn varying(calls: &[Call]) -> BTreeSet<(String, String, String)> {
    let mut seen: BTreeMap<(String, String, String), Option<&[u8]>> = BTreeMap::new();
    for p in calls.iter().flat_map(|c| c.payloads.iter()) {
        let key = (
            p.name.rpc.clone(),
            p.name.message.clone(),
            p.name.field.clone(),
        );
        let b = bytes(&p.data);
        let entry = seen.entry(key).or_insert(Some(b));
        if *entry != Some(b) {
            *entry = None;
        }
    }
    seen.into_iter()
        .filter_map(|(k, v)| v.is_none().then_some(k))
        .collect()
}

/// Marks possibly mixed each complete call that a call an overwrite hid whole (as the
/// calls around it show) could have mixed with: one written within the hidden call's
/// window, whose values have two parts nothing binds to each other.
pub(super) fn mark(calls: &mut [Call]) {
    let windows = windows(calls);
    if windows.is_empty() {
        return;
    }
    let varies = varying(calls);
    let varies = |p: &Payload| {
        varies.contains(&(
            p.name.rpc.clone(),
            p.name.message.clone(),
            p.name.field.clone(),
        ))
    };
    for call in calls.iter_mut().filter(|c| c.is_complete()) {
        let Some(windows) = windows.get(call.rpc.as_str()) else {
            continue;
        };
        let Some((first, last)) = extent(call) else {
            continue;
        };
        let Some(window) = windows.iter().find(|w| w.from <= last && first <= w.to) else {
            continue;
        };
        let rules = bound(call);
        let varying: Vec<&Payload> = call.payloads.iter().filter(|p| varies(p)).collect();
        let free: Vec<&Payload> = varying
            .iter()
            .copied()
            .filter(|p| !rules.contains(&p.name.field.as_str()))
            .collect();
        let parts = usize::from(varying.len() > free.len()) + free.len();
        let Some(file) = free.first() else { continue };
        if parts < 2 {
            continue;
        }
        call.status = Status::PossiblyMixed {
            reason: format!(
                "an overwrite hid a whole call of {} written between {} and {} ({}): it \
                 may have shared this call's milliseconds and names, and nothing binds {} \
                 to the other values",
                call.rpc,
                if window.from == 0 {
                    "the start".to_owned()
                } else {
                    window.from.to_string()
                },
                if window.to == u64::MAX {
                    "the end".to_owned()
                } else {
                    window.to.to_string()
                },
                window.why,
                file.file
            ),
        };
        call.explain.push(format!(
            "possibly mixed: {}",
            match &call.status {
                Status::PossiblyMixed { reason } => reason.as_str(),
                _ => "",
            }
        ));
    }
}
