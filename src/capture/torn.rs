//! Torn files: a value file whose bytes are not exactly one value.
//!
//! terraform-plugin-go writes each file in place; two calls that write a file of one
//! name at once can leave the later, shorter value over the earlier, longer one's tail.
//! Such a file holds one whole value and bytes after it: two calls' bytes under one
//! name. A call holding one is never [`Status::Complete`].

use super::{Call, Data, Payload, Status};

impl Payload {
    /// Why this file's bytes are not exactly one value of its encoding, naming the file:
    /// a torn file (two in-place writes of one name overlapped) or one cut short. `None`
    /// for a file that is one whole value, and for files that hold no value (`.empty`
    /// files, private data). A call holding such a file is never complete.
    ///
    /// ```
    /// use ctywire::capture::Payload;
    ///
    /// let name = "1718000000100_UpgradeResourceState_Response_UpgradedState.msgpack";
    /// // `"ab"`, then the last byte of a longer value written before it.
    /// let torn = Payload::new(name.to_owned(), vec![0xa2, b'a', b'b', b'c'])?;
    /// assert!(torn.torn().unwrap().contains("a 3-byte MessagePack value and 1 bytes after it"));
    /// let whole = Payload::new(name.to_owned(), vec![0xa2, b'a', b'b'])?;
    /// assert_eq!(whole.torn(), None);
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn torn(&self) -> Option<String> {
        torn(self)
    }
}

/// [`Payload::torn`].
fn torn(payload: &Payload) -> Option<String> {
    let (encoding, bytes, end) = match &payload.data {
        Data::Msgpack(bytes) => {
            let mut r = crate::token::msgpack_read::Reader::new(bytes);
            ("MessagePack", bytes, r.skip(0).map(|()| r.offset()))
        }
        Data::Json(bytes) => {
            let mut r = crate::token::json_read::Reader::new(bytes);
            let end = r.skip_value().map(|()| r.offset());
            let whole = end.is_ok() && r.at_end();
            if whole {
                return None;
            }
            ("JSON", bytes, end)
        }
        Data::Empty | Data::Private(_) => return None,
    };
    let file = &payload.file;
    match end {
        Ok(end) if end == bytes.len() => None,
        Ok(end) => Some(format!(
            "{file} holds a {end}-byte {encoding} value and {} bytes after it: two writes of \
             one name overlapped, the later, shorter value over the earlier one's tail, so \
             the file holds two calls' bytes",
            bytes.len() - end
        )),
        Err(e) => Some(format!(
            "{file} is no whole {encoding} value, {e}: its write was cut short, or two writes \
             of one name overlapped"
        )),
    }
}

/// Marks each call holding a torn file: a complete (or possibly mixed) call becomes
/// [`Status::Incomplete`] with the reason, an incomplete one has it first in its
/// reason; every such call, ambiguous ones too, says why in its explanation.
pub(super) fn mark(calls: &mut [Call]) {
    for call in calls {
        // Each torn file's reason, and whether it is a request's.
        let found: Vec<(String, bool)> = call
            .payloads
            .iter()
            .filter_map(|p| torn(p).map(|why| (why, p.name.is_request())))
            .collect();
        if found.is_empty() {
            continue;
        }
        // A torn request file holds two calls' bytes: the request is no one call's.
        call.sure_request &= !found.iter().any(|&(_, request)| request);
        let reasons: Vec<String> = found.into_iter().map(|(why, _)| why).collect();
        let reason = reasons.join("; ");
        call.explain.push(format!("torn: {reason}"));
        call.status = match std::mem::replace(&mut call.status, Status::Complete) {
            Status::Complete => Status::Incomplete {
                missing: Vec::new(),
                reason,
            },
            Status::PossiblyMixed { reason: mixed } => {
                call.explain
                    .push(format!("possibly mixed before the torn check: {mixed}"));
                Status::Incomplete {
                    missing: Vec::new(),
                    reason,
                }
            }
            Status::Incomplete {
                missing,
                reason: before,
            } => Status::Incomplete {
                missing,
                reason: format!("{reason}; {before}"),
            },
            ambiguous @ Status::Ambiguous { .. } => ambiguous,
        };
    }
}
