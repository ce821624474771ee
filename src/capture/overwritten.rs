//! Complete calls a field of which another call of their RPC could have overwritten, and
//! the links that prove such a field the call's own.
//!
//! Each file is stamped with its own millisecond, so a message's files may straddle
//! milliseconds' ends, and a call of the same RPC writing its message in a later
//! millisecond writes the same names: the file left is the last writer's. Two calls that
//! each leave their other fields elsewhere then look like two whole messages, one of
//! them holding a field of the other. What shows it is another call of the RPC whose
//! message has a file in that millisecond (for an apply's request, whose fields only
//! the plans before it bind, within the directory's span of it,
//! [`super::writer::span`]: that message may straddle it) while it has no file of that
//! field of its own (or holds the very same file, or one of other bytes that this call
//! could have written: the two may hold each other's): it could have written that field
//! there.
//!
//! A field so contested is still the call's when Terraform's links fix its bytes to the
//! file's, whoever wrote it (byte-identical values show the same either way):
//!
//! - an apply carries out the plan before it: its `Config`, `PriorState` and
//!   `PlannedState` (and `PlannedPrivate`) are one plan call's request `Config` and
//!   `PriorState` and response `PlannedState` (and `PlannedPrivate`), so a complete plan
//!   holding all of them proves them, and a complete apply holding them proves the
//!   plan's; an apply's `Config` and `PriorState` that some plan request holds
//!   together (or whose `ProposedNewState` they make, whoever wrote that file), and its
//!   `PlannedState` that some plan response holds, are proven too (Terraform plans a
//!   resource's configuration only from that resource's state, or a null one);
//! - a destroy's null `Config` and `PlannedState` (each is null exactly when the other
//!   is), and an apply's `NewState` equal to its `PlannedState` (a destroy's null, a
//!   plan wholly known);
//! - a refresh whose `NewState` is its `CurrentState` (no drift).
//!
//! A complete call holding a contested field that nothing proves is
//! [`Status::PossiblyMixed`], with the file and the other call's file in its
//! millisecond (a destroy by its own null `Config` is not, for a field only another
//! destroy could have written: destroys alike but for their `PriorState` show one of
//! the two; nor is a call for a response file another call shares with it, which the
//! pairing does only where either shows the same values). So is an apply, written where the calls around it show an apply an
//! overwrite hid whole, whose `Config` and `PriorState` no plan asked for together
//! (but a destroy beside a hidden destroy, the two alike but for their `PriorState`).

use std::collections::{BTreeMap, BTreeSet};

use super::assign::bytes;
use super::hidden::{extent, hidden_applies, varying};
use super::writer::ordered;
use super::{Call, Payload, Status};

/// A value's bytes for comparing across calls: every null is one (an `.empty` file and
/// a MessagePack `nil` hold the same value).
fn key(p: &Payload) -> Option<&[u8]> {
    (!p.is_null()).then(|| bytes(&p.data))
}

/// The bytes of `message`'s `field` in `call`: `None` when it has no such file, `Some`
/// of [`key`] when it has.
fn field<'c>(call: &'c Call, message: &str, field: &str) -> Option<Option<&'c [u8]>> {
    call.payload(message, field).map(key)
}

/// Whether `call` is a refresh that found no drift: its answer's `NewState` is the
/// `CurrentState` it was given (nothing else binds a refresh's answer to its request).
pub(super) fn unchanged(call: &Call) -> bool {
    let current = field(call, "Request", "CurrentState");
    current.is_some() && current == field(call, "Response", "NewState")
}

/// Whether the apply `apply` carries out the plan `plan`: each field the apply and the
/// plan both have of Terraform's links is of the same bytes in both, and the three
/// value fields are there.
fn carries(apply: &Call, plan: &Call) -> bool {
    let links = [
        (("Request", "Config"), ("Request", "Config")),
        (("Request", "PriorState"), ("Request", "PriorState")),
        (("Request", "PlannedState"), ("Response", "PlannedState")),
    ];
    let values = links.iter().all(|&((am, af), (pm, pf))| {
        matches!((field(apply, am, af), field(plan, pm, pf)), (Some(a), Some(p)) if a == p)
    });
    let private = match (
        apply.payload("Request", "PlannedPrivate"),
        plan.payload("Response", "PlannedPrivate"),
    ) {
        (Some(a), Some(p)) => bytes(&a.data) == bytes(&p.data),
        _ => true,
    };
    values && private
}

/// Whether `call` is an apply whose `Config` and `PlannedState` are both null: a
/// destroy, whose rules fix both (Terraform sends a null `Config` exactly when it
/// plans null), so either file shows the call's value whoever wrote it.
fn destroy(call: &Call) -> bool {
    call.payload("Request", "Config")
        .is_some_and(Payload::is_null)
        && call
            .payload("Request", "PlannedState")
            .is_some_and(Payload::is_null)
}

/// Whether an apply's files show a destroy: a null `Config` or `PlannedState`, and
/// neither of them not null (Terraform applies a null configuration, and plans null,
/// only to destroy).
fn shows_destroy(call: &Call) -> bool {
    let fields = ["Config", "PlannedState"].map(|f| call.payload("Request", f));
    call.rpc == "ApplyResourceChange"
        && fields.iter().any(Option::is_some)
        && fields.iter().flatten().all(|p| p.is_null())
}

/// A value's bytes as [`key`] gives them (`None`: null).
type Bytes<'c> = Option<&'c [u8]>;

/// The values Terraform planned with, whatever call holds them: each plan request's
/// (`Config`, `PriorState`) whose grouping nothing put in doubt (files of two calls
/// grouped as one request ask for nothing), each plan response's `PlannedState`.
struct Plans<'c> {
    requests: BTreeSet<(Bytes<'c>, Bytes<'c>)>,
    responses: BTreeSet<Bytes<'c>>,
}

impl<'c> Plans<'c> {
    fn new(calls: &'c [Call]) -> Plans<'c> {
        let plans = calls.iter().filter(|c| c.rpc == "PlanResourceChange");
        Plans {
            requests: plans
                .clone()
                .filter(|c| c.sure_request)
                .filter_map(|c| {
                    Some((
                        field(c, "Request", "Config")?,
                        field(c, "Request", "PriorState")?,
                    ))
                })
                .collect(),
            responses: plans
                .filter_map(|c| field(c, "Response", "PlannedState"))
                .collect(),
        }
    }
}

/// Whether Terraform planned an apply's values: some plan request has its `Config`
/// and `PriorState` and some plan response its `PlannedState`. An apply's request that
/// holds another's `PriorState` (or `Config`) is a pair no plan asked for: Terraform
/// plans one resource's configuration from that resource's state only (a replacement
/// plans its configuration from a null state too, and applies it as a create).
fn planned(call: &Call, plans: &Plans<'_>) -> bool {
    asked(call, plans)
        && field(call, "Request", "PlannedState")
            .is_some_and(|planned| plans.responses.contains(&planned))
}

/// Whether some plan request holds an apply's `Config` and `PriorState` together, or
/// proposed what they make ([`Call`]'s `proposed`).
fn asked(call: &Call, plans: &Plans<'_>) -> bool {
    call.proposed
        || match (
            field(call, "Request", "Config"),
            field(call, "Request", "PriorState"),
        ) {
            (Some(config), Some(prior)) => plans.requests.contains(&(config, prior)),
            _ => false,
        }
}

/// Whether Terraform planned destroying a destroy's `PriorState`: a plan request of a
/// null `Config` from it, or a replacement of it (a plan request from it whose `Config`
/// another plan request plans from a null state). Another call's null `Config` and
/// `PlannedState` over an update's own make that update look like a destroy of its
/// `PriorState`, which Terraform never planned.
fn destroyed(call: &Call, plans: &Plans<'_>) -> bool {
    let Some(prior) = field(call, "Request", "PriorState") else {
        return false;
    };
    prior.is_some()
        && (plans.requests.contains(&(None, prior))
            || plans.requests.iter().any(|&(config, from)| {
                from == prior && config.is_some() && plans.requests.contains(&(config, None))
            }))
}

/// Whether the links prove `p`, a file of `call`, the call's own bytes (`others`: the
/// complete calls before this check, to link to; `plans`: every plan request's and
/// response's values; `checked`: the pairing checked Terraform's rules, with schemas).
fn proven(call: &Call, p: &Payload, others: &[&Call], plans: &Plans<'_>, checked: bool) -> bool {
    let (message, name) = (p.name.message.as_str(), p.name.field.as_str());
    match (call.rpc.as_str(), message, name) {
        ("ApplyResourceChange", "Response", "NewState") => {
            matches!(field(call, "Request", "PlannedState"), Some(planned) if planned == key(p))
        }
        ("ApplyResourceChange", "Request", "Config" | "PlannedState")
            if destroy(call) && destroyed(call, plans) =>
        {
            true
        }
        (
            "ApplyResourceChange",
            "Request",
            "Config" | "PriorState" | "PlannedState" | "PlannedPrivate",
        ) => {
            others
                .iter()
                .any(|o| o.rpc == "PlanResourceChange" && carries(call, o))
                || planned(call, plans)
        }
        // The `ProposedNewState` is Terraform's of the `PriorState` and `Config` (the
        // pairing checks it, with schemas): made from this call's two, it is theirs.
        ("PlanResourceChange", "Request", "ProposedNewState") if checked => true,
        // The configuration sets every attribute it does not leave to the provider,
        // and the proposal holds those: another resource's that proposes the same is
        // the same configuration.
        ("PlanResourceChange", "Request", "Config") if checked => true,
        // The proposal keeps what the configuration leaves to the provider from the
        // prior state (a computed `id`): where it is not the configuration, the prior
        // state gave it that, and another resource's state gives its own.
        ("PlanResourceChange", "Request", "PriorState")
            if checked
                && (p.is_null()
                    || field(call, "Request", "ProposedNewState").is_some_and(|proposed| {
                        proposed != field(call, "Request", "Config").flatten()
                    })) =>
        {
            true
        }
        ("PlanResourceChange", "Request", "Config" | "PriorState" | "ProposedNewState")
        | ("PlanResourceChange", "Response", "PlannedState" | "PlannedPrivate") => {
            // An apply carries out the plan: it binds all of them.
            others
                .iter()
                .any(|o| o.rpc == "ApplyResourceChange" && carries(o, call))
        }
        ("ReadResource", _, "CurrentState" | "NewState") => unchanged(call),
        _ => false,
    }
}

/// Whether `call` and `other` could hold each other's file of a field, `theirs` being
/// `other`'s: `call` has a file of that message within `reach` milliseconds of it (the
/// grouping that gave each call its file is what is in doubt), and the two calls
/// differ in some other field (two calls alike in every other field show the same
/// values whichever holds which: two destroys' null `Config`, `PlannedState` and
/// `NewState`).
///
/// And each call holding the other's file keeps its message's files in the order
/// terraform-plugin-go writes them ([`ordered`]): one goroutine writes a message's
/// fields one after the other, so their milliseconds never go back along that order.
fn swappable(call: &Call, other: &Call, theirs: &Payload, reach: u64) -> bool {
    let near = call.payloads.iter().any(|o| {
        o.name.message == theirs.name.message
            && o.name.unix_millis.abs_diff(theirs.name.unix_millis) <= reach
    });
    let differ = call.payloads.iter().any(|q| {
        (q.name.message != theirs.name.message || q.name.field != theirs.name.field)
            && field(other, &q.name.message, &q.name.field) != Some(key(q))
    });
    let ours = call.payload(&theirs.name.message, &theirs.name.field);
    let ordered = ours.is_none_or(|ours| {
        in_order(call, theirs, theirs.name.unix_millis)
            && in_order(other, ours, ours.name.unix_millis)
    });
    near && differ && ordered
}

/// Whether `call`'s files of `file`'s message, with that field written at `ms` (in
/// place of the call's own file of it, or beside the others where it has none), keep
/// the order terraform-plugin-go writes them in (true where the order is not known).
fn in_order(call: &Call, file: &Payload, ms: u64) -> bool {
    let others = call
        .payloads
        .iter()
        .filter(|p| p.name.message == file.name.message && p.name.field != file.name.field)
        .map(|p| (p.name.field.as_str(), p.name.unix_millis));
    let stamps = others.chain([(file.name.field.as_str(), ms)]);
    ordered(&call.rpc, &file.name.message, stamps)
}

/// The complete applies written where the calls around them show an apply an
/// overwrite hid whole ([`hidden_applies`]), or before an apply's answer no request
/// fits (written after this apply's request and within `span` of its answer: the
/// answer of an apply whose request overwrites hid, maybe behind this one's names),
/// that no plan in the directory asked for, with why. An apply hidden behind another's
/// names in the same milliseconds leaves no other call to contest a field, and the
/// apply left may hold some of its files.
/// Terraform plans a resource's configuration from that resource's state before it
/// applies it, so where the directory holds plans, an apply whose `Config` and
/// `PriorState` no plan request holds together or proposed from (nor, for a destroy, a
/// destroy or a replacement of that state) holds values of two calls. (Each of two
/// applies so mixed had its `PlannedState` planned: that a plan response holds it shows
/// nothing. An apply of a saved plan, its plans in another directory, holds no plan:
/// its applies are left as they are. A plan's request an overwrite mixed asks for
/// nothing: the apply of that plan is possibly mixed then, never wrong.) A destroy is
/// left as it is where what shows the hidden apply shows a destroy (a destroy plan no
/// apply carries out, an answer of a null state) and the destroys' requests differ
/// only in their `PriorState`: files of two such destroys show one of them.
fn unplanned(
    calls: &[Call],
    complete: &[&Call],
    plans: &Plans<'_>,
    span: u64,
) -> Vec<(usize, String)> {
    if plans.requests.is_empty() {
        return Vec::new();
    }
    let windows = hidden_applies(calls);
    // Each answer no request fits, with whether it is a destroy's (a null `NewState`).
    let stray_answers: Vec<(u64, bool)> = calls
        .iter()
        .filter(|c| {
            c.rpc == "ApplyResourceChange" && !c.payloads.iter().any(|p| p.name.is_request())
        })
        .filter_map(|c| {
            let destroyed = c
                .payload("Response", "NewState")
                .is_some_and(Payload::is_null);
            Some((extent(c)?.0, destroyed))
        })
        .collect();
    // Two destroys' requests differ only in their `PriorState` where every other field
    // holds the same bytes in each destroy: files of both show one of the two, and a
    // hidden destroy mixes nothing into a destroy.
    let alike = destroys_alike(calls);
    let hidden = |c: &Call| {
        let harmless = |hidden_destroy: bool| hidden_destroy && alike && destroy(c);
        extent(c).is_some_and(|(first, last)| {
            windows
                .iter()
                .any(|&(from, to, d)| from <= last && first <= to && !harmless(d))
                || stray_answers
                    .iter()
                    .any(|&(t, d)| first <= t && t <= last + span && !harmless(d))
        })
    };
    calls
        .iter()
        .enumerate()
        .filter(|(_, c)| c.is_complete() && c.rpc == "ApplyResourceChange" && hidden(c))
        .filter(|(_, c)| {
            !(asked(c, plans)
                || (destroy(c) && destroyed(c, plans))
                || complete
                    .iter()
                    .any(|o| o.rpc == "PlanResourceChange" && carries(c, o)))
        })
        .map(|(i, _)| {
            (
                i,
                "no plan in the directory asked for this apply's Config from its \
                 PriorState: an overwrite may have hidden another apply whose files it \
                 holds"
                    .to_owned(),
            )
        })
        .collect()
}

/// Whether the destroys' apply requests (null `Config` and `PlannedState`) hold the
/// same bytes in each field but their `PriorState`, in every file of that field.
fn destroys_alike(calls: &[Call]) -> bool {
    let mut seen: BTreeMap<&str, Option<&[u8]>> = BTreeMap::new();
    calls
        .iter()
        .filter(|c| c.rpc == "ApplyResourceChange" && destroy(c))
        .flat_map(|c| c.payloads.iter())
        .filter(|p| p.name.is_request() && p.name.field != "PriorState")
        .all(|p| *seen.entry(p.name.field.as_str()).or_insert(key(p)) == key(p))
}

/// The complete applies whose `PlannedState` keeps values of their `PriorState` over
/// their `Config`'s ([`Call`]'s `keeps_prior`) that no plan in the directory asked
/// for, with why. Terraform allows such a plan (a provider may keep a prior value over
/// an equivalent configuration's), but an apply's `Config` written over another's in
/// one millisecond, the rest of that apply's request hidden, makes the same picture,
/// and the rules cannot tell the two apart: only a plan request of this `Config` from
/// this `PriorState` shows Terraform asked for it.
fn kept_prior(calls: &[Call], plans: &Plans<'_>) -> Vec<(usize, String)> {
    calls
        .iter()
        .enumerate()
        .filter(|(_, c)| c.is_complete() && c.keeps_prior && !asked(c, plans))
        .map(|(i, _)| {
            (
                i,
                "its PlannedState keeps PriorState's values where its Config's differ \
                 (Terraform allows it), and no plan in the directory asked for this Config \
                 from this PriorState: another apply's Config, written over this apply's \
                 in its millisecond, would look the same"
                    .to_owned(),
            )
        })
        .collect()
}

/// A file's RPC, message and field.
fn key_of(p: &Payload) -> (String, String, String) {
    (
        p.name.rpc.clone(),
        p.name.message.clone(),
        p.name.field.clone(),
    )
}

/// Marks possibly mixed each complete call holding a field another call of its RPC
/// could have overwritten (its message has a file in that field's millisecond, or for
/// an apply's request within the span of it, no other file of that field, and its files
/// keep terraform-plugin-go's write order with that field written there) that
/// Terraform's links do not prove the call's own.
pub(super) fn mark(calls: &mut [Call], checked: bool, span: u64) {
    let varies = varying(calls);
    // The calls of each RPC and message with a file in each millisecond.
    let mut at: BTreeMap<(&str, &str, u64), BTreeSet<usize>> = BTreeMap::new();
    for (i, c) in calls.iter().enumerate() {
        for p in &c.payloads {
            at.entry((&c.rpc, &p.name.message, p.name.unix_millis))
                .or_default()
                .insert(i);
        }
    }
    let complete: Vec<&Call> = calls.iter().filter(|c| c.is_complete()).collect();
    let plans = Plans::new(calls);
    let alike = destroys_alike(calls);
    let mut mixed: Vec<(usize, String)> = Vec::new();
    for (i, call) in calls.iter().enumerate().filter(|(_, c)| c.is_complete()) {
        // The file of `p`'s field another call could have written, and that call's file
        // near it; `destroys`: but not a destroy's, this call being a destroy (two
        // destroys alike but for their `PriorState` show one of the two).
        let contest = |k: usize, destroys: bool| -> Option<(usize, usize)> {
            let p = &call.payloads[k];
            if !varies.contains(&key_of(p)) {
                return None;
            }
            // A message's files straddle milliseconds' ends: another call's message
            // with a file within the span before or after could have written the
            // field it lacks in this one.
            // (A message of one field that differs across the directory is one call's
            // whichever wrote it: only its pairing is in question, which the pairing
            // decides. A plan's request fields are bound by its proposal; an apply's
            // only by the plans before it.)
            let t = p.name.unix_millis;
            let fields = call
                .payloads
                .iter()
                .filter(|o| o.name.message == p.name.message && varies.contains(&key_of(o)))
                .count();
            let reach = match fields > 1 && call.rpc == "ApplyResourceChange" {
                true => span,
                false => 0,
            };
            let near = (t.saturating_sub(reach)..=t.saturating_add(reach)).flat_map(|ms| {
                at.get(&(call.rpc.as_str(), p.name.message.as_str(), ms))
                    .into_iter()
                    .flatten()
            });
            let other = near.filter(|&&j| j != i).find_map(|&j| {
                let other = &calls[j];
                // A call holding this very response file shares it with this one (the
                // pairing shares a response only where either call shows the same
                // values: twins' answers, destroys' fixed by the rules).
                let shared =
                    !p.name.is_request() && other.payloads.iter().any(|o| o.file == p.file);
                if shared || (destroys && shows_destroy(other)) {
                    return None;
                }
                // Its message with this file's field written at `t` keeps the order
                // terraform-plugin-go writes a message's fields in.
                if !in_order(other, p, t) {
                    return None;
                }
                let own = other.payload(&p.name.message, &p.name.field);
                // Its own file of the field, unless the two may hold each other's
                // (of the same bytes, either shows the same value).
                if own.is_some_and(|o| {
                    o.file != p.file && (key(o) == key(p) || !swappable(call, other, o, reach))
                }) {
                    return None;
                }
                other
                    .payloads
                    .iter()
                    .position(|o| {
                        o.name.message == p.name.message && o.name.unix_millis.abs_diff(t) <= reach
                    })
                    .map(|m| (j, m))
            })?;
            (!proven(call, p, &complete, &plans, checked)).then_some(other)
        };
        // A destroy by its own `Config`: a null one, of a field whose files differ, that
        // no other call could have written (Terraform sends a null configuration only to
        // destroy).
        let config = call
            .payloads
            .iter()
            .position(|p| p.name.is_request() && p.name.field == "Config");
        let config_contest = config.and_then(|k| contest(k, false));
        let destroys = alike
            && destroy(call)
            && config.is_some_and(|k| varies.contains(&key_of(&call.payloads[k])))
            && config_contest.is_none();
        let contested = (0..call.payloads.len()).find_map(|k| {
            let other = match Some(k) == config {
                true => config_contest,
                false => contest(k, destroys),
            };
            other.map(|(j, m)| (&call.payloads[k], &calls[j].payloads[m]))
        });
        if let Some((p, other)) = contested {
            let near = match other.name.unix_millis.abs_diff(p.name.unix_millis) {
                0 => "in the millisecond of".to_owned(),
                ms => format!("{ms} ms from"),
            };
            mixed.push((
                i,
                format!(
                    "another call of {} wrote {} {near} {} and holds no other {} {} (or \
                     one this call could have written, the two otherwise unlike): it could \
                     have written that name there, and no link proves the file this call's",
                    call.rpc, other.file, p.file, p.name.message, p.name.field
                ),
            ));
        }
    }
    for more in [
        unplanned(calls, &complete, &plans, span),
        kept_prior(calls, &plans),
    ] {
        let marked: BTreeSet<usize> = mixed.iter().map(|&(i, _)| i).collect();
        mixed.extend(more.into_iter().filter(|(i, _)| !marked.contains(i)));
    }
    for (i, reason) in mixed {
        let call = &mut calls[i];
        call.explain.push(format!("possibly mixed: {reason}"));
        call.status = Status::PossiblyMixed { reason };
    }
}
