//! Grouping one RPC's files into calls: messages from the files of one millisecond
//! (or two within the directory's span, for a message written across milliseconds'
//! ends), then requests paired with responses where only one pairing fits. See the
//! module documentation of
//! [`crate::capture`] for the rules.

use std::collections::BTreeSet;

use super::assign::{rule, Files};
use super::{Call, Payload, Resolver, Status};

/// The files of one message (a request, or a response with its parts) of one call, as
/// far as the names tell.
pub(super) struct Message {
    pub(super) payloads: Vec<Payload>,
    pub(super) first: u64,
    pub(super) last: u64,
    /// Why the message may hold another call's files, or lacks some, when it does.
    pub(super) doubt: Option<String>,
    /// The fields it lacks, as `Request Config`.
    pub(super) missing: Vec<String>,
}

impl Message {
    fn fields(&self) -> BTreeSet<&str> {
        self.payloads
            .iter()
            .filter(|p| counted(p))
            .map(|p| p.name.field.as_str())
            .collect()
    }

    fn files(&self) -> Vec<String> {
        self.payloads.iter().map(|p| p.file.clone()).collect()
    }
}

/// Whether a file is one of the fields every message of its RPC has: not a part of a
/// response (each imported resource), which may repeat or be absent, and not a
/// function's argument, whose count depends on the function.
fn counted(p: &Payload) -> bool {
    !p.name.message.contains('_') && !p.name.field.starts_with("Arguments_")
}

/// The fields the directory shows for one message kind of the RPC.
fn expected(payloads: &[&Payload]) -> BTreeSet<String> {
    payloads
        .iter()
        .filter(|p| counted(p))
        .map(|p| p.name.field.clone())
        .collect()
}

/// Groups one message kind's files (of one RPC, in time order) into messages: the files
/// of each millisecond, and two partial ones next to each other (within `span`
/// milliseconds, how far apart one message's files are stamped) joined when together
/// they have every field and neither could join another. A message lacking fields, or
/// within `span` of one that does, is in doubt.
pub(super) fn messages(
    payloads: Vec<&Payload>,
    kind: &str,
    expected: &BTreeSet<String>,
    span: u64,
) -> Vec<Message> {
    let mut by_ms: Vec<Message> = Vec::new();
    for p in payloads {
        match by_ms.last_mut() {
            Some(m) if m.first == p.name.unix_millis => m.payloads.push(p.clone()),
            _ => by_ms.push(Message {
                payloads: vec![p.clone()],
                first: p.name.unix_millis,
                last: p.name.unix_millis,
                doubt: None,
                missing: Vec::new(),
            }),
        }
    }
    let full = |m: &Message| expected.iter().all(|f| m.fields().contains(f.as_str()));
    let complements = |a: &Message, b: &Message| {
        b.first <= a.last + span
            && !full(a)
            && !full(b)
            && a.fields().is_disjoint(&b.fields())
            && expected
                .iter()
                .all(|f| a.fields().contains(f.as_str()) || b.fields().contains(f.as_str()))
    };
    let mut out: Vec<Message> = Vec::new();
    let mut i = 0;
    while i < by_ms.len() {
        let joins_next = i + 1 < by_ms.len() && complements(&by_ms[i], &by_ms[i + 1]);
        let prev_joins = i > 0 && complements(&by_ms[i - 1], &by_ms[i]);
        let next_joins_on = i + 2 < by_ms.len() && complements(&by_ms[i + 1], &by_ms[i + 2]);
        if joins_next && !prev_joins && !next_joins_on {
            let next = by_ms.remove(i + 1);
            let m = &mut by_ms[i];
            m.payloads.extend(next.payloads);
            m.last = next.last;
        }
        i += 1;
    }
    // A partial message's other files were written in a millisecond next to it, where
    // they may be among another message's.
    let partial: Vec<u64> = by_ms
        .iter()
        .filter(|m| !full(m))
        .flat_map(|m| [m.first, m.last])
        .collect();
    for mut m in by_ms {
        if !full(&m) {
            let missing: Vec<&str> = expected
                .iter()
                .filter(|f| !m.fields().contains(f.as_str()))
                .map(String::as_str)
                .collect();
            m.doubt = Some(format!(
                "the {} lacks files its other calls have: they were written in another \
                 millisecond, or overwritten by another call's",
                kind.to_lowercase()
            ));
            m.missing = missing.iter().map(|f| format!("{kind} {f}")).collect();
        } else if let Some(t) = partial
            .iter()
            .find(|&&t| t + span >= m.first && t <= m.last + span && !(t >= m.first && t <= m.last))
        {
            m.doubt = Some(format!(
                "a call whose other files were written at {t} may have written some of these"
            ));
        }
        out.push(m);
    }
    out
}

/// The RPCs whose requests and responses both hold values: a message of one without
/// the other is no whole call. Of other RPCs, a message is expected when the directory
/// shows one.
const ANSWERED: &[&str] = &[
    "ReadResource",
    "PlanResourceChange",
    "ApplyResourceChange",
    "ReadDataSource",
    "CallFunction",
    "OpenEphemeralResource",
];

/// The calls of one RPC's files (in time order): as one assignment by how their
/// values link ([`super::assign`]) for the RPCs whose requests and responses both hold
/// values and whose files are all fields of their message; by the milliseconds for the
/// rest.
pub(super) fn calls(
    rpc: &str,
    payloads: Vec<Payload>,
    resolver: Option<&mut Resolver<'_>>,
    links: &mut super::assign::Links,
) -> Vec<Call> {
    if ANSWERED.contains(&rpc) && payloads.iter().all(counted) {
        return super::assign::calls(rpc, payloads, resolver, links);
    }
    by_millisecond(rpc, payloads, resolver, links.span)
}

/// The calls of one RPC's files (in time order), messages grouped by millisecond.
fn by_millisecond(
    rpc: &str,
    payloads: Vec<Payload>,
    resolver: Option<&mut Resolver<'_>>,
    span: u64,
) -> Vec<Call> {
    let (requests, responses): (Vec<&Payload>, Vec<&Payload>) =
        payloads.iter().partition(|p| p.name.is_request());
    let (request_fields, response_fields) = (expected(&requests), expected(&responses));
    let both = ANSWERED.contains(&rpc);
    let has_requests = both || !requests.is_empty();
    let has_responses = both || !responses.is_empty();
    let mut requests = messages(requests, "Request", &request_fields, span);
    let responses = messages(responses, "Response", &response_fields, span);
    let mut out = Vec::new();
    let call = |payloads: Vec<Payload>, status, sure_request| Call {
        rpc: rpc.to_owned(),
        payloads,
        status,
        explain: vec![
            "grouped by milliseconds: the files of one millisecond (or two \
                       partial ones next to each other), paired where only one pairing fits"
                .to_owned(),
        ],
        sure_request,
        keeps_prior: false,
        proposed: false,
    };
    let missing = |kind: &str, fields: &BTreeSet<String>| -> Vec<String> {
        match fields.is_empty() {
            true => vec![kind.to_owned()],
            false => fields.iter().map(|f| format!("{kind} {f}")).collect(),
        }
    };
    // The values are checked as the assignment checks them (Terraform's rules for a
    // plan's and an apply's values).
    let files = Files::new(rpc, &payloads, resolver, span);
    let program = files.client.program();
    let indices = |m: &Message| -> Vec<usize> {
        m.payloads
            .iter()
            .filter_map(|p| files.by_name.get(p.file.as_str()).copied())
            .collect()
    };
    for r in &mut requests {
        if r.doubt.is_none() && !files.request_fits(&indices(r)) {
            r.doubt = Some(format!(
                "its values break {}'s rules for one call's, {}: the files are of \
                 more than one call",
                files.client.program(),
                rule(rpc, files.client)
            ));
        }
    }
    // One side only (the RPC's other message has no values): each message is a call.
    if !has_responses || !has_requests {
        for m in requests.into_iter().chain(responses) {
            let sure = m.doubt.is_none() && m.payloads.iter().all(|p| p.name.is_request());
            let status = match m.doubt {
                None => Status::Complete,
                Some(reason) => Status::Incomplete {
                    missing: m.missing,
                    reason,
                },
            };
            out.push(call(m.payloads, status, sure));
        }
        return out;
    }
    // written[q]: the responses written after request q; fitting[q]: those of them
    // whose values fit q's by the checks.
    let written: Vec<Vec<usize>> = requests
        .iter()
        .map(|q| {
            (0..responses.len())
                .filter(|&p| responses[p].first >= q.last)
                .collect()
        })
        .collect();
    let fitting: Vec<Vec<usize>> = requests
        .iter()
        .zip(&written)
        .map(|(q, ps)| {
            ps.iter()
                .copied()
                .filter(|&p| files.answer_fits(&indices(q), &indices(&responses[p])))
                .collect()
        })
        .collect();
    let mut request_open = vec![true; requests.len()];
    let mut response_open = vec![true; responses.len()];
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    // A response that only one open request fits is that request's answer (every
    // response answers a request the directory shows); then no other response is.
    // First by the checks; then, for what they leave, by the times alone (a response
    // that breaks Terraform's rules still answers the one request it can).
    for candidates in [&fitting, &written] {
        loop {
            let mut claims: Vec<(usize, usize)> = Vec::new();
            for p in (0..responses.len()).filter(|&p| response_open[p]) {
                let of: Vec<usize> = (0..requests.len())
                    .filter(|&q| request_open[q] && candidates[q].contains(&p))
                    .collect();
                if let [q] = of[..] {
                    claims.push((q, p));
                }
            }
            let mut progress = false;
            for &(q, p) in &claims {
                if claims.iter().filter(|(other, _)| *other == q).count() == 1 {
                    pairs.push((q, p));
                    request_open[q] = false;
                    response_open[p] = false;
                    progress = true;
                }
            }
            if !progress {
                break;
            }
        }
    }
    // What each open message could still pair with: what fits by the checks, else
    // what was written after it.
    let candidates: Vec<Vec<usize>> = (0..requests.len())
        .map(|q| {
            let open = |c: &Vec<usize>| -> Vec<usize> {
                c.iter().copied().filter(|&p| response_open[p]).collect()
            };
            let fit = open(&fitting[q]);
            if fit.is_empty() {
                open(&written[q])
            } else {
                fit
            }
        })
        .collect();
    let mut responses_out: Vec<Option<Message>> = responses.into_iter().map(Some).collect();
    let mut requests_out: Vec<Option<Message>> = Vec::new();
    let candidate_files = |ps: &[usize], out: &[Option<Message>]| -> Vec<Vec<String>> {
        ps.iter()
            .filter_map(|&p| out[p].as_ref().map(Message::files))
            .collect()
    };
    for (q, request) in requests.into_iter().enumerate() {
        if let Some(&(_, p)) = pairs.iter().find(|(pq, _)| *pq == q) {
            let response = responses_out[p].take().expect("paired once");
            let mut files = request.payloads;
            files.extend(response.payloads);
            let mut missing = request.missing;
            missing.extend(response.missing);
            let broken = (!fitting[q].contains(&p)).then(|| {
                format!(
                    "the only request this response can answer by the times, but its values \
                     break {}'s rules for it: the provider broke them, or this answers a \
                     request whose files another call's overwrote",
                    program
                )
            });
            let sure = request.doubt.is_none();
            let status = match request.doubt.or(response.doubt).or(broken) {
                None => Status::Complete,
                Some(reason) => Status::Incomplete { missing, reason },
            };
            out.push(call(files, status, sure));
            requests_out.push(None);
        } else {
            requests_out.push(Some(request));
        }
    }
    // What is left: requests and responses that no pairing decides.
    let open_responses: Vec<usize> = (0..responses_out.len())
        .filter(|&p| responses_out[p].is_some())
        .collect();
    for (q, request) in requests_out.iter().enumerate() {
        let Some(request) = request else { continue };
        let fit: Vec<usize> = candidates[q]
            .iter()
            .copied()
            .filter(|p| open_responses.contains(p))
            .collect();
        let status = match fit.len() {
            _ if request.doubt.is_some() || fit.is_empty() => Status::Incomplete {
                missing: [
                    request.missing.clone(),
                    missing("Response", &response_fields),
                ]
                .concat(),
                reason: request
                    .doubt
                    .clone()
                    .unwrap_or_else(|| "no response in the directory fits this request".to_owned()),
            },
            _ => Status::Ambiguous {
                candidates: candidate_files(&fit, &responses_out),
            },
        };
        out.push(call(
            request.payloads.clone(),
            status,
            request.doubt.is_none(),
        ));
    }
    for p in open_responses {
        let response = responses_out[p].take().expect("open");
        let fit: Vec<usize> = (0..requests_out.len())
            .filter(|&q| requests_out[q].is_some() && candidates[q].contains(&p))
            .collect();
        let status = match fit.len() {
            _ if response.doubt.is_some() || fit.is_empty() => Status::Incomplete {
                missing: [
                    missing("Request", &request_fields),
                    response.missing.clone(),
                ]
                .concat(),
                reason: response
                    .doubt
                    .clone()
                    .unwrap_or_else(|| "no request in the directory fits this response".to_owned()),
            },
            _ => Status::Ambiguous {
                candidates: fit
                    .iter()
                    .filter_map(|&q| requests_out[q].as_ref().map(Message::files))
                    .collect(),
            },
        };
        out.push(call(response.payloads, status, false));
    }
    out
}
