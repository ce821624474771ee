//! How terraform-plugin-go writes a capture: the order of each message's files, and how
//! far apart in time one message's files are stamped in a directory.
//!
//! One goroutine writes a message's files one after the other, each stamped with the
//! millisecond its write starts. On a quiet disk a message's files share a millisecond
//! or straddle one millisecond's end; where each write takes about a millisecond (a
//! loaded machine, a slow disk), a request of five fields spans four or five. The
//! grouping looks for a message's files within [`span`] of each other, and takes a
//! file as contested by another call's message within that reach.

use std::collections::BTreeMap;

use super::Payload;

/// The fields of each RPC's messages in the order terraform-plugin-go's server writes
/// their files (as the truth logs of the real runs in `tests/data/capture-real` list
/// them), or `None` where that order is not known here.
fn written(rpc: &str, message: &str) -> Option<&'static [&'static str]> {
    Some(match (rpc, message) {
        ("ApplyResourceChange", "Request") => &[
            "Config",
            "PlannedState",
            "PriorState",
            "ProviderMeta",
            "PlannedPrivate",
        ],
        ("ApplyResourceChange", "Response") => &["NewState", "Private"],
        ("PlanResourceChange", "Request") => &[
            "Config",
            "PriorState",
            "ProposedNewState",
            "ProviderMeta",
            "PriorPrivate",
        ],
        ("PlanResourceChange", "Response") => &["PlannedState", "PlannedPrivate"],
        ("ReadResource", "Request") => &["CurrentState", "ProviderMeta", "Private"],
        ("ReadResource", "Response") => &["NewState", "Private"],
        _ => return None,
    })
}

/// Whether files of an `rpc`'s `message` with these fields and stamps keep the order
/// terraform-plugin-go writes them in: one goroutine writes a message's fields one
/// after the other, so their milliseconds never go back along that order (true where
/// the order of some field is not known).
pub(super) fn ordered<'f>(
    rpc: &str,
    message: &str,
    stamps: impl IntoIterator<Item = (&'f str, u64)>,
) -> bool {
    let Some(order) = written(rpc, message) else {
        return true;
    };
    let mut at: Vec<(usize, u64)> = Vec::new();
    for (field, t) in stamps {
        let Some(position) = order.iter().position(|f| *f == field) else {
            return true;
        };
        at.push((position, t));
    }
    at.sort_unstable();
    at.windows(2).all(|w| w[0].1 <= w[1].1)
}

/// The most milliseconds one message's files are taken to straddle: beyond it, a file
/// is another message's (a stall between two files of one message leaves it in doubt,
/// but for a request whose first files the rules bind to the rest: `assign.rs` looks
/// further back for those).
const MAX_SPAN: u64 = 8;

/// How far apart, in milliseconds, one message's files are stamped in this directory.
///
/// For each kind of message whose write order is known, the time from each file of its
/// first field to the nearest file of its last field at or after it; the span is one
/// more than all but the slowest fiftieth of those times. Messages of other calls
/// interleave, so the nearest file may be another's, written sooner: the times
/// understate, and the extra millisecond takes in a message written a little slower
/// than most. On a quiet disk that is one or two (a message shares a millisecond or
/// crosses one's end); where each file takes about a millisecond, five or six.
pub(super) fn span(by_rpc: &BTreeMap<String, Vec<Payload>>) -> u64 {
    let mut times: Vec<u64> = Vec::new();
    for (rpc, payloads) in by_rpc {
        for message in ["Request", "Response"] {
            let Some(order) = written(rpc, message) else {
                continue;
            };
            let stamps = |field: &str| -> Vec<u64> {
                let mut t: Vec<u64> = payloads
                    .iter()
                    .filter(|p| p.name.message == message && p.name.field == field)
                    .map(|p| p.name.unix_millis)
                    .collect();
                t.sort_unstable();
                t
            };
            let present: Vec<Vec<u64>> = order
                .iter()
                .map(|f| stamps(f))
                .filter(|t| !t.is_empty())
                .collect();
            let [head, .., tail] = present.as_slice() else {
                continue;
            };
            for &t in head {
                let at = tail.partition_point(|&u| u < t);
                if let Some(&u) = tail.get(at) {
                    times.push(u - t);
                }
            }
        }
    }
    times.sort_unstable();
    let most = times.get(times.len() * 49 / 50).copied().unwrap_or(0);
    (most + 1).min(MAX_SPAN)
}
