//! Pairing as one assignment over all of an RPC's files: messages found by how their
//! values link (Terraform's rules for what it sends), not by the millisecond, then
//! requests and responses assigned where every assignment the constraints allow shows
//! the same values. See the module documentation of [`crate::capture`] for the rules.

use std::collections::{BTreeMap, BTreeSet};

use super::pairing::{self, Message};
use super::{Call, Data, Payload, Resolved, Resolver, Status, Subject};
use crate::schema::{Block, Client, SchemaKind};
use crate::value::Value;

/// The most combinations of files tried around one file before it is left undecided.
const MAX_CANDIDATES: usize = 4096;

/// How many spans before the rest of a request's files its first files may lie, where
/// the rules bind them to the rest and the files near it leave it no whole message (a
/// stall between one message's files: the live runs show some of ten milliseconds).
const STALL: u64 = 32;

/// The most combinations of files tried around one file with a stall before it.
const MAX_STALLED: usize = 256;

/// A file's bytes, whatever their encoding.
pub(super) fn bytes(data: &Data) -> &[u8] {
    match data {
        Data::Msgpack(b) | Data::Json(b) | Data::Private(b) => b,
        Data::Empty => &[],
    }
}

/// What a file's value is under each resource type whose type decodes it.
type Typed<'s> = Vec<(&'s str, &'s Block, Value)>;

/// A value as the links between calls compare it: its bytes, and what each resource
/// type that decodes it makes of it (two encodings of one value are the same value).
#[derive(Clone)]
struct Linked {
    bytes: Vec<u8>,
    typed: Vec<(String, Value)>,
}

impl Linked {
    fn same(&self, other: &Linked) -> bool {
        self.bytes == other.bytes
            || self
                .typed
                .iter()
                .any(|(name, v)| other.typed.iter().any(|(o, w)| o == name && v == w))
    }
}

/// An `ApplyResourceChange` request whose files are decided: Terraform sends the
/// `PlannedState` its plan's response gave, with that plan's `Config` and `PriorState`.
struct Applied {
    /// When it was written by its own files: the first of its `Config` and
    /// `PlannedState` files, whose values tell it (a file of bytes every apply's request
    /// shares, such as a null `PriorState`, may be another's, written earlier).
    first: u64,
    /// The name of its `PlannedState` file.
    file: String,
    config: Linked,
    prior: Linked,
    planned: Linked,
    /// Each of its files' field and bytes: the plan's `PlannedState` and
    /// `PlannedPrivate` come back in the fields of those names.
    carried: Vec<(String, Vec<u8>)>,
}

impl Applied {
    /// Whether `content` (a plan response's fields and bytes) is byte for byte what
    /// this apply carries in those fields: whichever call wrote such a response's
    /// files, it shows the values the plan this apply carries out was answered with.
    fn carries(&self, content: &[(&str, &[u8])]) -> bool {
        !content.is_empty()
            && content.iter().all(|(field, bytes)| {
                self.carried
                    .iter()
                    .any(|(f, b)| f == field && b.as_slice() == *bytes)
            })
    }
}

/// What the calls of one RPC tell the grouping of another's: the decided requests of
/// `ApplyResourceChange` (grouped first), which bind the responses of the plans before
/// them.
#[derive(Default)]
pub(super) struct Links {
    applies: Vec<Applied>,
    /// Every apply request's `PlannedState` file, decided or not: when it was written,
    /// and its value.
    planned: Vec<(u64, Linked)>,
    /// Every apply request's `Config` file, likewise.
    configs: Vec<(u64, Linked)>,
    /// Every apply request's `PriorState` file, likewise.
    priors: Vec<(u64, Linked)>,
    /// Every refresh's `NewState` file (`ReadResource`'s response): the states later
    /// plans of those resources start from.
    refreshed: Vec<(u64, Linked)>,
    /// Every plan request's `ProposedNewState` file: what Terraform made of the
    /// `Config` and `PriorState` it planned from.
    proposed: Vec<(u64, Linked)>,
    /// How far apart, in milliseconds, one message's files are stamped in the
    /// directory ([`super::writer::span`]).
    pub(super) span: u64,
    /// When each provider process was configured (its `ConfigureProvider` request's
    /// millisecond, in order), where the run had one provider configuration
    /// ([`super::Run::one_configuration`]); empty where it may have had more.
    configured: Vec<u64>,
}

impl Links {
    /// Whether a provider process was configured after millisecond `request` and
    /// before millisecond `response`. With one provider configuration, Terraform runs
    /// one process at a time and ends it only once it has answered every call it sent
    /// it, so the process that took a request written before that had written its
    /// answer by then. (Not in the same millisecond: the one check that asks no more
    /// of the clock than the order of the files.)
    fn configured_between(&self, request: u64, response: u64) -> bool {
        let next = self.configured.partition_point(|&c| c <= request);
        self.configured.get(next).is_some_and(|&c| c < response)
    }

    /// What the applies' files tell the plans: read before any RPC is grouped.
    pub(super) fn new(
        by_rpc: &BTreeMap<String, Vec<Payload>>,
        mut resolver: Option<&mut Resolver<'_>>,
        span: u64,
        run: super::Run,
    ) -> Links {
        let mut links = Links {
            span,
            ..Links::default()
        };
        let mut of = |rpc: &str, request: bool, field: &str| -> Vec<(u64, Linked)> {
            let Some(payloads) = by_rpc.get(rpc) else {
                return Vec::new();
            };
            let chosen: Vec<Payload> = payloads
                .iter()
                .filter(|p| p.name.is_request() == request && p.name.field == field)
                .cloned()
                .collect();
            let files = Files::new(rpc, &chosen, resolver.as_deref_mut(), span);
            (0..chosen.len())
                .map(|i| (files.ms(i), files.link(i)))
                .collect()
        };
        links.planned = of("ApplyResourceChange", true, "PlannedState");
        links.configs = of("ApplyResourceChange", true, "Config");
        links.priors = of("ApplyResourceChange", true, "PriorState");
        links.refreshed = of("ReadResource", false, "NewState");
        links.proposed = of("PlanResourceChange", true, "ProposedNewState");
        if run.one_configuration {
            // tfplugin5's captures name the RPC `Configure`.
            links.configured = ["ConfigureProvider", "Configure"]
                .iter()
                .filter_map(|rpc| by_rpc.get(*rpc))
                .flatten()
                .filter(|p| p.name.is_request())
                .map(|p| p.name.unix_millis)
                .collect();
            links.configured.sort_unstable();
        }
        links
    }
}

/// The files of one RPC, with what the checks need of each: the one checker of
/// Terraform's rules for both groupings (this one, and `pairing.rs`'s by milliseconds).
pub(super) struct Files<'p, 's> {
    rpc: &'p str,
    payloads: &'p [Payload],
    /// Each file's values, by resource type (empty without schemas, and for private
    /// data and `ProviderMeta`).
    typed: Vec<Typed<'s>>,
    checked: bool,
    /// The client whose rules the values are checked by.
    pub(super) client: Client,
    /// Each file's index, by its name.
    pub(super) by_name: std::collections::HashMap<&'p str, usize>,
    /// How far apart, in milliseconds, one message's files may be stamped.
    span: u64,
}

impl<'p, 's> Files<'p, 's> {
    pub(super) fn new(
        rpc: &'p str,
        payloads: &'p [Payload],
        resolver: Option<&mut Resolver<'s>>,
        span: u64,
    ) -> Self {
        let checked = resolver.is_some();
        let client = resolver.as_ref().map_or(Client::default(), |r| r.client);
        let typed = match resolver {
            None => vec![Vec::new(); payloads.len()],
            Some(resolver) => payloads
                .iter()
                .map(|p| {
                    if !p.is_value() || p.name.field == "ProviderMeta" {
                        return Vec::new();
                    }
                    let call = Call {
                        rpc: rpc.to_owned(),
                        payloads: vec![p.clone()],
                        status: Status::Complete,
                        explain: Vec::new(),
                        sure_request: true,
                        keeps_prior: false,
                        proposed: false,
                    };
                    let subjects = match resolver.candidates(&call) {
                        Resolved::Found(s) => vec![s],
                        Resolved::Ambiguous(v) => v,
                        _ => Vec::new(),
                    };
                    subjects
                        .into_iter()
                        .filter_map(|s| match s {
                            Subject::Schema {
                                kind: SchemaKind::Resource,
                                schema,
                                name,
                                ..
                            } => {
                                let value = p.decode(&s.type_of(p)?).ok()?;
                                Some((name, &schema.block, value))
                            }
                            _ => None,
                        })
                        .collect()
                })
                .collect(),
        };
        Files {
            rpc,
            payloads,
            typed,
            checked,
            client,
            span,
            by_name: payloads
                .iter()
                .enumerate()
                .map(|(i, p)| (p.file.as_str(), i))
                .collect(),
        }
    }

    /// The files of `list` (in time order) stamped within `d` milliseconds of `t`.
    fn near<'l>(&self, list: &'l [usize], t: u64, d: u64) -> &'l [usize] {
        let start = list.partition_point(|&j| self.ms(j) + d < t);
        let end = list.partition_point(|&j| self.ms(j) <= t + d);
        &list[start..end.max(start)]
    }

    fn ms(&self, i: usize) -> u64 {
        self.payloads[i].name.unix_millis
    }

    /// Whether file `i` was written before the span of millisecond `t` (a stall between
    /// it and a file written at `t`, were they one message's).
    fn before_span(&self, i: usize, t: u64) -> bool {
        self.ms(i) + self.span < t
    }

    fn field(&self, i: usize) -> &str {
        &self.payloads[i].name.field
    }

    fn bytes(&self, i: usize) -> &[u8] {
        bytes(&self.payloads[i].data)
    }

    /// Whether files `a` and `b`, of one message kind, can be one message's by the
    /// order terraform-plugin-go writes its fields in ([`super::writer::ordered`]): one
    /// goroutine writes them one after the other, so their milliseconds never go back
    /// along that order (true where the order is not known).
    fn in_order(&self, a: usize, b: usize) -> bool {
        let stamps = [a, b].map(|i| (self.field(i), self.ms(i)));
        super::writer::ordered(self.rpc, &self.payloads[a].name.message, stamps)
    }

    /// File `i`'s value, as the links between calls compare it.
    fn link(&self, i: usize) -> Linked {
        Linked {
            bytes: self.bytes(i).to_vec(),
            typed: self.typed[i]
                .iter()
                .map(|(name, _, v)| ((*name).to_owned(), v.clone()))
                .collect(),
        }
    }

    /// The file of `field` among `files`.
    fn of(&self, files: &[usize], field: &str) -> Option<usize> {
        files.iter().copied().find(|&i| self.field(i) == field)
    }

    /// Why a plan's response may be another call's: an apply written after the request
    /// carries a `PlannedState` that is a valid plan for it, and no apply after it
    /// carries the response's (the plan's own response may have been lost in an
    /// overwrite, and this one be the answer to a request an overwrite hid).
    fn contradicted(&self, request: &[usize], response: &[usize], links: &Links) -> Option<String> {
        let last = request.iter().map(|&i| self.ms(i)).max()?;
        let planned = self.link(self.of(response, "PlannedState")?);
        let after: Vec<&(u64, Linked)> = links.planned.iter().filter(|(t, _)| *t >= last).collect();
        if after.iter().any(|(_, v)| v.same(&planned)) {
            return None;
        }
        let common = self.common(request);
        let fits = |other: &Linked| {
            common.iter().any(|(name, block, values)| {
                let Some((_, v)) = other.typed.iter().find(|(n, _)| n == name) else {
                    return false;
                };
                match (values.get("PriorState"), values.get("Config")) {
                    (Some(prior), Some(config)) if !config.is_null() => {
                        !v.is_null()
                            && block
                                .check_plan_for(self.client, prior, config, v)
                                .is_empty()
                    }
                    _ => false,
                }
            })
        };
        // An apply carries a plan's PlannedState with that plan's PriorState: a value
        // that only decided applies of another PriorState carry (such as the create
        // that replaces this resource) is no answer this request could have had.
        let prior = self.of(request, "PriorState").map(|i| self.link(i));
        let elsewhere = |list: &[(u64, Linked)], of: fn(&Applied) -> &Linked, value: &Linked| {
            let Some(prior) = &prior else {
                return false;
            };
            let files = list
                .iter()
                .filter(|(t, v)| *t >= last && v.same(value))
                .count();
            let applies: Vec<&Applied> = links
                .applies
                .iter()
                .filter(|a| a.first >= last && of(a).same(value))
                .collect();
            applies.len() >= files && applies.iter().all(|a| !a.prior.same(prior))
        };
        if let Some((t, _)) = after
            .iter()
            .find(|(_, other)| fits(other) && !elsewhere(&links.planned, |a| &a.planned, other))
        {
            return Some(format!(
                "an apply at {t} carries a PlannedState that is a valid plan for this \
                 request, and no apply after it carries this response's: the request's own \
                 response may have been lost in an overwrite, and this one answer a request \
                 another overwrite hid"
            ));
        }
        let config = self.link(self.of(request, "Config")?);
        let (t, _) = links.configs.iter().find(|(t, other)| {
            *t >= last
                && !other.bytes.is_empty()
                && other.same(&config)
                && !elsewhere(&links.configs, |a| &a.config, other)
        })?;
        Some(format!(
            "an apply at {t} carries this request's Config, and no apply after it carries this \
             response's PlannedState: the request's own response may have been lost in an \
             overwrite, and this one answer a request another overwrite hid"
        ))
    }

    /// Why a create's plan (a null `PriorState`) may have been given another call's
    /// response: its `PlannedState` is also a valid plan, for the request's `Config`,
    /// from a state a refresh written before the response returned. Terraform refreshes
    /// a resource before it plans an update of it, so that response may answer such an
    /// update whose request an overwrite hid (a create may plan what an update plans,
    /// computed values and all), and this request's own response have been lost.
    fn refreshed_instead(
        &self,
        request: &[usize],
        response: &[usize],
        links: &Links,
    ) -> Option<String> {
        let planned = self.of(response, "PlannedState")?;
        let first = response.iter().map(|&i| self.ms(i)).min()?;
        let common = self.common(&[request, &[planned]].concat());
        let (t, _) = links.refreshed.iter().find(|(t, state)| {
            *t <= first
                && common.iter().any(|(name, block, values)| {
                    let Some((prior, config, planned)) = plan_values(values) else {
                        return false;
                    };
                    let Some((_, state)) = state.typed.iter().find(|(n, _)| n == name) else {
                        return false;
                    };
                    prior.is_null()
                        && !config.is_null()
                        && !state.is_null()
                        && block
                            .check_plan_for(self.client, state, config, planned)
                            .is_empty()
                })
        })?;
        Some(format!(
            "its PlannedState is also a valid plan of its Config from the state a refresh \
             returned at {t}: this create's own response may have been lost in an overwrite, \
             and this one answer an update of that resource whose request another overwrite hid"
        ))
    }

    /// Why an update's plan (a known `PriorState`) may have been given a replacement's
    /// create plan's response: its `PlannedState` is also a valid plan of the request's
    /// `Config` from a null state, and the `ProposedNewState` Terraform makes for that
    /// `Config` from a null state (a create's) was written after this request began and
    /// before the response, whatever other files an overwrite left beside it (another
    /// create's `Config` may have overwritten the create's own). Terraform plans a
    /// replacement's create right after the update plan answered with RequiresReplace,
    /// so that response may answer the create, and this request's own response have been
    /// lost in an overwrite.
    fn created_instead(&self, request: &[usize], response: &[usize]) -> Option<String> {
        let planned = self.of(response, "PlannedState")?;
        let first = response.iter().map(|&i| self.ms(i)).min()?;
        let since = request.iter().map(|&i| self.ms(i)).min()?;
        let common = self.common(&[request, &[planned]].concat());
        // The ProposedNewState a create of this Config sends, by each resource type
        // under which the response is also a valid plan of it from a null state.
        let proposed: Vec<Vec<u8>> = common
            .iter()
            .filter_map(|(_, block, values)| {
                let (prior, config, planned) = plan_values(values)?;
                if prior.is_null()
                    || config.is_null()
                    || !block
                        .check_plan_for(self.client, &Value::Null, config, planned)
                        .is_empty()
                {
                    return None;
                }
                let created = block.proposed_new_for(self.client, &Value::Null, config);
                crate::msgpack::encode(&created, &block.implied_type()).ok()
            })
            .collect();
        if proposed.is_empty() {
            return None;
        }
        let create = (0..self.payloads.len()).find(|&i| {
            self.payloads[i].name.is_request()
                && !request.contains(&i)
                && (since..=first).contains(&self.ms(i))
                && self.field(i) == "ProposedNewState"
                && proposed.iter().any(|p| p.as_slice() == self.bytes(i))
        });
        let Some(create) = create else {
            // An answer that is byte for byte this update's ProposedNewState, where that
            // differs from a create's, holds the replaced object's values (its computed
            // ones) where a create proposes none: that is this update's answer.
            let own = self.of(request, "ProposedNewState").map(|i| self.bytes(i));
            let answer = self.bytes(planned);
            if own == Some(answer) && proposed.iter().all(|p| p.as_slice() != answer) {
                return None;
            }
            return self.create_hidden(request, response, first);
        };
        Some(format!(
            "its PlannedState is also a valid plan of its Config from a null state, and {}, \
             written between this request and this response, is the ProposedNewState of a \
             create of that Config (a replacement's): this response may answer that create, \
             and this update's own response have been lost in an overwrite",
            self.payloads[create].file
        ))
    }

    /// Why an update's plan whose response is also a valid create plan of its `Config`
    /// (as [`Files::created_instead`] found) may have been given the response of a
    /// replacement's create whose request an overwrite hid whole: Terraform plans that
    /// create right after the update's answer, so the create's request was written
    /// between this request's last file and the response (first written at `first`),
    /// and there, within one message's span, every field of the request has a file of
    /// another request that could have been written under the create's names.
    fn create_hidden(&self, request: &[usize], response: &[usize], first: u64) -> Option<String> {
        let last = request.iter().map(|&i| self.ms(i)).max()?;
        let others: Vec<usize> = (0..self.payloads.len())
            .filter(|&i| {
                !request.contains(&i)
                    && !response.contains(&i)
                    && (last..=first).contains(&self.ms(i))
            })
            .collect();
        // Files of every field of `message` (this request's, or this response's) by
        // other calls in the milliseconds `ms`: names another message could have had.
        let covered = |message: &[usize], ms: std::ops::RangeInclusive<u64>| {
            message.iter().all(|&f| {
                others.iter().any(|&i| {
                    self.payloads[i].name.is_request() == self.payloads[f].name.is_request()
                        && self.field(i) == self.field(f)
                        && ms.contains(&self.ms(i))
                })
            })
        };
        // A message is written in one go (its files within the span of each other): the
        // create's request in such a stretch from `m`, and before it the update's own
        // response, overwritten by another call's in its millisecond (or by this
        // response, when all three share this response's millisecond).
        let hid = (last..=first).any(|m| {
            covered(request, m..=(m + self.span).min(first))
                && (m == first || (last..=m).any(|a| covered(response, a..=a)))
        });
        hid.then(|| {
            "its PlannedState is also a valid plan of its Config from a null state, and \
             between this request and this response other requests wrote a file of each of \
             its fields: they may hide a replacement's create of that Config, which this \
             response may answer, and this update's own response have been lost in an \
             overwrite"
                .to_owned()
        })
    }

    /// Why an update's plan (a known `PriorState`) may have been given a replacement's
    /// create plan's response, when no file of that create's request is left: an apply
    /// of a null `PriorState` with this request's `Config` carries the response's
    /// `PlannedState`: a create was answered with it (Terraform plans a replacement's
    /// create twice, in the plan and again in the apply, and applies no update plan of
    /// a replacement).
    fn applied_as_create(
        &self,
        request: &[usize],
        response: &[usize],
        links: &Links,
    ) -> Option<String> {
        let planned = self.of(response, "PlannedState")?;
        let prior = self.of(request, "PriorState")?;
        let config = self.link(self.of(request, "Config")?);
        if self.typed[prior].is_empty() || self.typed[prior].iter().any(|(.., v)| v.is_null()) {
            return None;
        }
        let since = request.iter().map(|&i| self.ms(i)).min()?;
        let value = self.link(planned);
        let null = |v: &Linked| !v.typed.is_empty() && v.typed.iter().all(|(_, v)| v.is_null());
        let decided = links.applies.iter().find(|a| {
            a.first >= since && a.planned.same(&value) && a.config.same(&config) && null(&a.prior)
        });
        let apply = match decided {
            Some(apply) => format!("the apply of {}", apply.file),
            // Undecided files: an apply's PlannedState of these bytes with a null
            // PriorState written within the span of it, unless a decided apply of
            // this request's PriorState carries them.
            None => {
                let own = self.link(prior);
                if links
                    .applies
                    .iter()
                    .any(|a| a.first >= since && a.planned.same(&value) && a.prior.same(&own))
                {
                    return None;
                }
                let (t, _) = links.planned.iter().find(|(t, v)| {
                    *t >= since
                        && v.same(&value)
                        && links
                            .priors
                            .iter()
                            .any(|(u, p)| u + self.span >= *t && *u <= t + self.span && null(p))
                })?;
                format!("an apply at {t}, beside a null PriorState,")
            }
        };
        Some(format!(
            "{} creates with this response's PlannedState and this request's \
             Config: this response may answer that create's plan (a replacement's), whose request \
             an overwrite hid, and this update's own response have been lost in one",
            apply
        ))
    }

    /// The fields Terraform's rules bind to each other in a message of this RPC: what
    /// the checks prove belongs together. Without schemas, none.
    fn linked(&self, request: bool) -> &'static [&'static str] {
        if !self.checked {
            return &[];
        }
        match (self.rpc, request) {
            ("PlanResourceChange", true) => &["Config", "PriorState", "ProposedNewState"],
            ("ApplyResourceChange", true) => &["Config", "PriorState", "PlannedState"],
            _ => &[],
        }
    }

    /// The resource types that type every file of `files`, with each file's value.
    fn common(&self, files: &[usize]) -> Vec<(&'s str, &'s Block, BTreeMap<&str, &Value>)> {
        let mut out: Vec<(&'s str, &'s Block, BTreeMap<&str, &Value>)> = Vec::new();
        let mut first = true;
        for &i in files {
            if self.typed[i].is_empty() {
                continue;
            }
            let field = self.field(i);
            if first {
                out = self.typed[i]
                    .iter()
                    .map(|(s, b, v)| (*s, *b, BTreeMap::from([(field, v)])))
                    .collect();
                first = false;
                continue;
            }
            out.retain_mut(|(name, _, values)| {
                match self.typed[i].iter().find(|(s, ..)| s == name) {
                    Some((.., v)) => {
                        values.insert(field, v);
                        true
                    }
                    None => false,
                }
            });
        }
        out
    }

    /// Whether a request's files can be one call's by Terraform's rules for the values
    /// it sends (always, without schemas).
    pub(super) fn request_fits(&self, files: &[usize]) -> bool {
        if !self.checked || self.linked(true).is_empty() {
            return true;
        }
        let common = self.common(files);
        if common.is_empty() {
            // No resource type types them all: only a mix of calls can be that.
            return files.iter().all(|&i| self.typed[i].is_empty());
        }
        common
            .iter()
            .any(|(_, block, values)| request_rule(self.rpc, self.client, block, values))
    }

    /// Whether `files`, an apply's request, plan values of `PriorState` over `Config`'s
    /// ([`Call`]'s `keeps_prior`): the `PlannedState` is a valid plan for them, but not
    /// for the `Config` alone (from a null state no prior value can be kept).
    fn keeps_prior(&self, files: &[usize]) -> bool {
        if !self.checked || self.rpc != "ApplyResourceChange" {
            return false;
        }
        self.common(files).iter().any(|(_, block, values)| {
            let get = |f: &str| values.get(f).copied().filter(|v| !v.is_null());
            match (get("PriorState"), get("Config"), get("PlannedState")) {
                (Some(_), Some(config), Some(planned)) => !block
                    .check_plan_for(self.client, &Value::Null, config, planned)
                    .is_empty(),
                _ => false,
            }
        })
    }

    /// Whether `files`, an apply's request, hold a `Config` and a `PriorState` from
    /// which Terraform made some plan request's `ProposedNewState` in the directory
    /// ([`Call`]'s `proposed`): it planned from them. (Whichever call wrote that file:
    /// its value takes the configuration's values, and the state's computed ones where
    /// the configuration sets none.)
    fn proposed(&self, files: &[usize], links: &Links) -> bool {
        if !self.checked || self.rpc != "ApplyResourceChange" {
            return false;
        }
        self.common(files).iter().any(|(name, block, values)| {
            let (Some(prior), Some(config)) = (values.get("PriorState"), values.get("Config"))
            else {
                return false;
            };
            if config.is_null() {
                return false;
            }
            let made = block.proposed_new_for(self.client, prior, config);
            links.proposed.iter().any(|(_, linked)| {
                linked
                    .typed
                    .iter()
                    .any(|(n, v)| n.as_str() == *name && *v == made)
            })
        })
    }

    /// Whether a response's values fit a request's by Terraform's rules.
    pub(super) fn answer_fits(&self, request: &[usize], response: &[usize]) -> bool {
        if !self.checked {
            return true;
        }
        let all: Vec<usize> = request.iter().chain(response).copied().collect();
        if all.iter().all(|&i| self.typed[i].is_empty()) {
            return true;
        }
        let common = self.common(&all);
        if common.is_empty() {
            return false;
        }
        common.iter().any(|(_, block, values)| {
            let get = |f: &str| values.get(f).copied();
            match self.rpc {
                "PlanResourceChange" => {
                    match (get("PriorState"), get("Config"), get("PlannedState")) {
                        (Some(prior), Some(config), Some(planned)) if !config.is_null() => block
                            .check_plan_for(self.client, prior, config, planned)
                            .is_empty(),
                        (_, Some(config), Some(planned)) if config.is_null() => planned.is_null(),
                        _ => true,
                    }
                }
                "ApplyResourceChange" => match (get("PlannedState"), get("NewState")) {
                    (Some(planned), Some(new)) if !planned.is_null() => {
                        !new.is_null()
                            && block
                                .check_compatible_for(self.client, planned, new)
                                .is_empty()
                    }
                    (Some(_), Some(new)) => new.is_null(),
                    _ => true,
                },
                _ => true,
            }
        })
    }
}

/// Terraform's rules for a request's values: a plan's `ProposedNewState` is the one
/// Terraform makes from `PriorState` and `Config` (null when the configuration is, a
/// destroy); an apply's `PlannedState` is a valid plan for its `PriorState` and
/// `Config` (null for a destroy).
fn request_rule(rpc: &str, client: Client, block: &Block, values: &BTreeMap<&str, &Value>) -> bool {
    let get = |f: &str| values.get(f).copied();
    match rpc {
        "PlanResourceChange" => match (get("PriorState"), get("Config"), get("ProposedNewState")) {
            (Some(_), Some(config), Some(proposed)) if config.is_null() => proposed.is_null(),
            (Some(prior), Some(config), Some(proposed)) => {
                let ty = block.implied_type();
                let encoded = |v: &Value| crate::msgpack::encode(v, &ty).ok();
                encoded(&block.proposed_new_for(client, prior, config)) == encoded(proposed)
            }
            _ => true,
        },
        "ApplyResourceChange" => match (get("PriorState"), get("Config"), get("PlannedState")) {
            // A destroy destroys something: Terraform applies no change of a null state to
            // a null one.
            (Some(prior), Some(config), Some(planned)) if config.is_null() => {
                planned.is_null() && !prior.is_null()
            }
            (Some(prior), Some(config), Some(planned)) => {
                !planned.is_null()
                    && block
                        .check_plan_for(client, prior, config, planned)
                        .is_empty()
            }
            _ => true,
        },
        _ => true,
    }
}

/// A message found: its files (indices), and why it is what it is.
#[derive(Clone)]
struct Found {
    files: Vec<usize>,
    /// Why its files are one message.
    why: String,
    /// Why it may hold another call's file, when it may.
    mixed: Option<String>,
}

/// The messages of one kind (requests, or responses) of one RPC.
struct Kind<'f, 'p, 's> {
    files: &'f Files<'p, 's>,
    request: bool,
    /// The fields each message has, and each field's files in time order.
    by_field: BTreeMap<String, Vec<usize>>,
}

impl Kind<'_, '_, '_> {
    fn noun(&self) -> &'static str {
        if self.request {
            "request"
        } else {
            "response"
        }
    }

    /// Whether another file of `i`'s field near it holds the same bytes (then `i`
    /// cannot tell its call from theirs).
    fn unique(&self, i: usize) -> bool {
        let f = self.files;
        f.near(&self.by_field[f.field(i)], f.ms(i), 2 * f.span)
            .iter()
            .all(|&j| j == i || f.bytes(j) != f.bytes(i))
    }

    /// Every set of one file per field around `anchor` (within the span, in the order
    /// the fields are written, [`Files::in_order`]) that the checks allow; `None` when
    /// there are too many to try. With `stalled`, the files of the fields written
    /// before the anchor's may also lie up to [`STALL`] spans before the rest (a stall
    /// between one message's files), but for the files `stalled` marks taken.
    fn candidates(&self, anchor: usize, stalled: Option<&[bool]>) -> Option<Vec<Vec<usize>>> {
        let f = self.files;
        let t = f.ms(anchor);
        let fields: Vec<&Vec<usize>> = self
            .by_field
            .iter()
            .filter(|(field, _)| field.as_str() != f.field(anchor))
            .map(|(_, files)| files)
            .collect();
        let reach = STALL * f.span;
        let mut options: Vec<Vec<usize>> = Vec::new();
        for files in fields {
            let mut near: Vec<usize> = f.near(files, t, f.span).to_vec();
            if let Some(taken) = stalled {
                // Files before the span: only where the write order puts their field
                // before every file near the anchor (`search` checks it).
                let from = files.partition_point(|&j| f.ms(j) + f.span + reach < t);
                let to = files.partition_point(|&j| f.before_span(j, t));
                near.extend(files[from..to].iter().copied().filter(|&j| !taken[j]));
            }
            // Nearest first, so that the first candidate is the tightest.
            near.sort_by_key(|&j| (f.ms(j).abs_diff(t), j));
            if near.is_empty() {
                return Some(Vec::new());
            }
            options.push(near);
        }
        let mut out = Vec::new();
        let mut chosen = vec![anchor];
        let mut budget = match stalled {
            Some(_) => MAX_STALLED,
            None => MAX_CANDIDATES,
        };
        let ok = self.search(&options, &mut chosen, (t, t), t, &mut out, &mut budget);
        ok.then_some(out)
    }

    /// [`Kind::candidates`]' search: `span` the first and last milliseconds of the
    /// chosen files within the span of `t` (the anchor's), files before it (stalled)
    /// left out; false once more sets are tried than `budget` allows.
    fn search(
        &self,
        options: &[Vec<usize>],
        chosen: &mut Vec<usize>,
        span: (u64, u64),
        t: u64,
        out: &mut Vec<Vec<usize>>,
        budget: &mut usize,
    ) -> bool {
        let f = self.files;
        let Some((first, rest)) = options.split_first() else {
            let Some(left) = budget.checked_sub(1) else {
                return false;
            };
            *budget = left;
            if !self.request || f.request_fits(chosen) {
                let mut files = chosen.clone();
                files.sort_by_key(|&i| (f.ms(i), i));
                out.push(files);
            }
            return true;
        };
        for &j in first {
            let span = match f.before_span(j, t) {
                true => span,
                false => (span.0.min(f.ms(j)), span.1.max(f.ms(j))),
            };
            if span.1 - span.0 > f.span || !chosen.iter().all(|&c| f.in_order(c, j)) {
                continue;
            }
            chosen.push(j);
            let ok = self.search(rest, chosen, span, t, out, budget);
            chosen.pop();
            if !ok {
                return false;
            }
        }
        true
    }

    /// What a set of files shows: each field's bytes.
    fn content(&self, files: &[usize]) -> Vec<(&str, &[u8])> {
        let mut c: Vec<(&str, &[u8])> = files
            .iter()
            .map(|&i| (self.files.field(i), self.files.bytes(i)))
            .collect();
        c.sort();
        c
    }

    /// The messages of this kind: those the values decide, and the other files grouped
    /// by their milliseconds (in doubt where they could be another call's).
    fn messages(&self, all: &[usize]) -> (Vec<Found>, Vec<Message>) {
        let f = self.files;
        let linked = f.linked(self.request);
        let mut decided: Vec<Found> = Vec::new();
        // Files that anchor a message (their bytes are theirs alone nearby), and those
        // whose candidates differ: their grouping is open.
        let mut open: BTreeSet<usize> = BTreeSet::new();
        let mut competing: BTreeMap<usize, Vec<Vec<usize>>> = BTreeMap::new();
        let mut in_decided = vec![false; f.payloads.len()];
        // Twice: the second time, for requests whose values the rules bind, a message's
        // first files may lie further back than the span (a stall), among the files
        // the first pass left.
        let passes: &[bool] = match self.request && !linked.is_empty() {
            true => &[false, true],
            false => &[false],
        };
        // Files around which no set of files nearby fits: where a stall may have left a
        // message's first files further back.
        let mut unfit = vec![false; f.payloads.len()];
        for &stall in passes {
            for &a in all {
                // (The second pass starts only from a file the rules bind, and only where
                // nothing nearby fits it.)
                let stalled = unfit[a] && linked.contains(&f.field(a));
                if in_decided[a] || !self.unique(a) || (stall && !stalled) {
                    continue;
                }
                let Some(candidates) = self.candidates(a, stall.then_some(in_decided.as_slice()))
                else {
                    if !stall {
                        open.insert(a);
                    }
                    continue;
                };
                let Some(first) = candidates.first() else {
                    unfit[a] = true;
                    continue;
                };
                let content = self.content(first);
                if candidates.iter().all(|c| self.content(c) == content) {
                    let mut how = match (candidates.len(), linked.is_empty()) {
                        (1, true) => {
                            "the only files of its fields written next to each other".to_owned()
                        }
                        (1, false) => format!(
                            "the only files near {} whose values {}'s rules bind: {}",
                            f.payloads[a].file,
                            f.client.program(),
                            rule(f.rpc, f.client)
                        ),
                        (n, _) => format!(
                            "{n} ways to group the files near {} fit, all with the same bytes",
                            f.payloads[a].file
                        ),
                    };
                    let before: Vec<&str> = first
                        .iter()
                        .filter(|&&i| f.before_span(i, f.ms(a)))
                        .map(|&i| f.payloads[i].file.as_str())
                        .collect();
                    if !before.is_empty() {
                        how.push_str(&format!(
                            ", {} written before the rest (a stall between one message's files)",
                            before.join(" ")
                        ));
                    }
                    for &i in first {
                        in_decided[i] = true;
                    }
                    open.remove(&a);
                    competing.remove(&a);
                    decided.push(Found {
                        files: first.clone(),
                        why: how,
                        mixed: None,
                    });
                } else if !stall {
                    open.insert(a);
                    competing.insert(a, candidates);
                }
            }
        }
        // A message whose field another call's file may stand for: possibly mixed.
        let uniform: BTreeSet<&str> = self
            .by_field
            .iter()
            .filter(|(_, files)| files.windows(2).all(|w| f.bytes(w[0]) == f.bytes(w[1])))
            .map(|(field, _)| field.as_str())
            .collect();
        let decided_files: BTreeSet<usize> = decided.iter().flat_map(|m| m.files.clone()).collect();
        let leftover: Vec<usize> = all
            .iter()
            .copied()
            .filter(|i| !decided_files.contains(i))
            .collect();
        // A mix needs two parts of a message that each say which call they are: the
        // fields the checks bind (one part), and each field nothing binds whose files
        // differ across the directory. With one such part, whichever call's files the
        // message holds, it shows one call's values.
        let free = |field: &str| !linked.contains(&field) && !uniform.contains(field);
        for message in &mut decided {
            let files = message.files.clone();
            let bound = files.iter().any(|&i| linked.contains(&f.field(i)));
            let parts = usize::from(bound) + files.iter().filter(|&&i| free(f.field(i))).count();
            if parts < 2 {
                continue;
            }
            for &u in &files {
                let field = f.field(u);
                if linked.contains(&field) || uniform.contains(field) {
                    continue;
                }
                // Another message's file within the span of it: that message's own file
                // of this field may have been written in its millisecond, under its
                // name (or the file may stand for a call an overwrite hid whole, whose
                // neighbour that message is).
                let other = f
                    .near(all, f.ms(u), f.span)
                    .iter()
                    .copied()
                    .find(|j| !files.contains(j));
                if let Some(j) = other {
                    message.mixed = Some(format!(
                        "its {field}, {}, was written next to another {} of {}, {}, whose \
                         {field} may have been written in the same millisecond under the \
                         same name; nothing binds {field} to the other values",
                        f.payloads[u].file,
                        self.noun(),
                        f.rpc,
                        f.payloads[j].file
                    ));
                    break;
                }
            }
        }
        // The rest, by their milliseconds.
        let payloads: Vec<&Payload> = leftover.iter().map(|&i| &f.payloads[i]).collect();
        let expected: BTreeSet<String> = self.by_field.keys().cloned().collect();
        let kind = if self.request { "Request" } else { "Response" };
        let mut rest = pairing::messages(payloads, kind, &expected, f.span);
        for m in &mut rest {
            let index = |p: &Payload| f.by_name.get(p.file.as_str()).copied();
            let anchors: Vec<usize> = m
                .payloads
                .iter()
                .filter_map(index)
                .filter(|i| open.contains(i))
                .collect();
            if m.doubt.is_none() && !anchors.is_empty() {
                let mut why = format!(
                    "its files fit more than one way with other {}s' files of the same \
                     milliseconds",
                    self.noun()
                );
                if let Some(c) = anchors.iter().find_map(|a| competing.get(a)) {
                    let shown: Vec<String> = c
                        .iter()
                        .take(4)
                        .map(|files| {
                            files
                                .iter()
                                .map(|&i| f.payloads[i].file.clone())
                                .collect::<Vec<_>>()
                                .join(" ")
                        })
                        .collect();
                    why.push_str(&format!("; competing groupings: [{}]", shown.join("] [")));
                }
                m.doubt = Some(why);
            }
            if m.doubt.is_none() && self.request && f.checked {
                let files: Vec<usize> = m.payloads.iter().filter_map(index).collect();
                if !f.request_fits(&files) {
                    m.doubt = Some(format!(
                        "its values break {}'s rules for one call's, {}: the files \
                         are of more than one call",
                        f.client.program(),
                        rule(f.rpc, f.client)
                    ));
                }
            }
        }
        (decided, rest)
    }
}

/// The rule that binds a request's values, in words.
pub(super) fn rule(rpc: &str, client: Client) -> String {
    match rpc {
        "PlanResourceChange" => format!(
            "ProposedNewState is the one {} makes from PriorState and Config",
            client.program()
        ),
        "ApplyResourceChange" => {
            "PlannedState is a valid plan for PriorState and Config".to_owned()
        }
        _ => "none".to_owned(),
    }
}

/// One message ready to pair: its files, in time order, and what is known of it.
struct Side {
    files: Vec<usize>,
    first: u64,
    last: u64,
    why: String,
    doubt: Option<String>,
    mixed: Option<String>,
    missing: Vec<String>,
}

fn sides(files: &Files<'_, '_>, decided: Vec<Found>, rest: Vec<Message>) -> Vec<Side> {
    let mut out: Vec<Side> = decided
        .into_iter()
        .map(|m| Side {
            first: m.files.iter().map(|&i| files.ms(i)).min().unwrap_or(0),
            last: m.files.iter().map(|&i| files.ms(i)).max().unwrap_or(0),
            files: m.files,
            why: m.why,
            doubt: None,
            mixed: m.mixed,
            missing: Vec::new(),
        })
        .collect();
    for m in rest {
        let idx: Vec<usize> = m
            .payloads
            .iter()
            .filter_map(|p| files.by_name.get(p.file.as_str()).copied())
            .collect();
        out.push(Side {
            first: m.first,
            last: m.last,
            files: idx,
            why: "grouped by its milliseconds".to_owned(),
            doubt: m.doubt,
            mixed: None,
            missing: m.missing,
        });
    }
    out.sort_by_key(|s| (s.first, s.files.first().copied()));
    out
}

/// The plan requests (by index) that an apply after them carries out: for each decided
/// apply, the last request written before it with the same `Config` and `PriorState`.
/// A request that applies of different `PlannedState`s claim is bound to none.
fn planned_by_applies<'l>(
    files: &Files<'_, '_>,
    requests: &[Side],
    links: &'l Links,
) -> BTreeMap<usize, &'l Applied> {
    let mut bound: BTreeMap<usize, &Applied> = BTreeMap::new();
    let mut conflicting = BTreeSet::new();
    let values: Vec<Option<(Linked, Linked)>> = requests
        .iter()
        .map(|q| {
            let get = |field| files.of(&q.files, field).map(|i| files.link(i));
            Some((get("Config")?, get("PriorState")?))
        })
        .collect();
    for applied in &links.applies {
        let Some(q) = (0..requests.len()).rev().find(|&q| {
            requests[q].last <= applied.first
                && values[q].as_ref().is_some_and(|(config, prior)| {
                    config.same(&applied.config) && prior.same(&applied.prior)
                })
        }) else {
            continue;
        };
        match bound.get(&q) {
            Some(other) if !other.planned.same(&applied.planned) => {
                conflicting.insert(q);
            }
            _ => {
                bound.insert(q, applied);
            }
        }
    }
    for q in conflicting {
        bound.remove(&q);
    }
    bound
}

/// The calls of one RPC whose requests and responses both hold values and whose every
/// file is one of its message's fields (in time order).
pub(super) fn calls(
    rpc: &str,
    payloads: Vec<Payload>,
    resolver: Option<&mut Resolver<'_>>,
    links: &mut Links,
) -> Vec<Call> {
    let files = Files::new(rpc, &payloads, resolver, links.span);
    let kinds = [true, false].map(|request| {
        let all: Vec<usize> = (0..payloads.len())
            .filter(|&i| payloads[i].name.is_request() == request)
            .collect();
        let mut by_field: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for &i in &all {
            by_field
                .entry(files.field(i).to_owned())
                .or_default()
                .push(i);
        }
        let kind = Kind {
            files: &files,
            request,
            by_field,
        };
        let (decided, rest) = kind.messages(&all);
        (
            sides(&files, decided, rest),
            kind.by_field.keys().cloned().collect::<Vec<_>>(),
        )
    });
    let [(mut requests, request_fields), (responses, response_fields)] = kinds;
    // A message holding a torn file is two calls' (both wrote that name at once), whose
    // values fit anything: a request claims no response for either, and a response
    // answers no request (the torn file's own reason comes first in the call's, from
    // `torn.rs`).
    let torn: Vec<bool> = payloads.iter().map(|p| p.torn().is_some()).collect();
    let holds_torn = |s: &Side| s.files.iter().any(|&i| torn[i]);
    for q in requests.iter_mut().filter(|q| q.doubt.is_none()) {
        if holds_torn(q) {
            q.doubt = Some("a request of two calls is paired with no response".to_owned());
        }
    }
    let content = |s: &Side| -> Vec<(&str, &[u8])> {
        let mut c: Vec<(&str, &[u8])> = s
            .files
            .iter()
            .map(|&i| (files.field(i), files.bytes(i)))
            .collect();
        c.sort();
        c
    };
    // written[q]: the responses written after request q (and, with one provider
    // configuration, before the next process was configured); fitting[q]: those whose
    // values fit q's (all of them, for a request in doubt: its values may be another
    // call's, and it may be the one a response answers).
    let written: Vec<Vec<usize>> = requests
        .iter()
        .map(|q| {
            (0..responses.len())
                .filter(|&p| responses[p].first >= q.last)
                .filter(|&p| !links.configured_between(q.last, responses[p].first))
                .collect()
        })
        .collect();
    if rpc == "ApplyResourceChange" {
        links.applies = requests
            .iter()
            .filter(|q| q.doubt.is_none())
            .filter_map(|q| {
                let get = |field| files.of(&q.files, field).map(|i| files.link(i));
                let own = ["Config", "PlannedState"]
                    .iter()
                    .filter_map(|field| files.of(&q.files, field))
                    .map(|i| files.ms(i))
                    .min();
                Some(Applied {
                    first: own.unwrap_or(q.first),
                    file: payloads[files.of(&q.files, "PlannedState")?].file.clone(),
                    config: get("Config")?,
                    prior: get("PriorState")?,
                    planned: get("PlannedState")?,
                    carried: q
                        .files
                        .iter()
                        .map(|&i| (files.field(i).to_owned(), files.bytes(i).to_vec()))
                        .collect(),
                })
            })
            .collect();
    }
    // The plan each apply carries out: the last plan before it of the same Config and
    // PriorState (Terraform plans a resource again just before it applies it), whose
    // response's PlannedState is the apply's.
    let bound = if rpc == "PlanResourceChange" {
        planned_by_applies(&files, &requests, links)
    } else {
        BTreeMap::new()
    };
    let fitting: Vec<Vec<usize>> = requests
        .iter()
        .zip(&written)
        .enumerate()
        .map(|(n, (q, ps))| {
            ps.iter()
                .copied()
                .filter(|&p| files.answer_fits(&q.files, &responses[p].files))
                .filter(|&p| match bound.get(&n) {
                    None => true,
                    Some(applied) => {
                        responses[p].first <= applied.first
                            && files
                                .of(&responses[p].files, "PlannedState")
                                .is_some_and(|i| files.link(i).same(&applied.planned))
                    }
                })
                .collect()
        })
        .collect();
    // A refresh that found no drift answers with the state it was given: a response
    // whose NewState is byte for byte one request's CurrentState, and no other's,
    // answers that request.
    let unchanged = |q: usize, p: usize| -> bool {
        rpc == "ReadResource" && {
            let get = |s: &Side, field: &str| {
                s.files
                    .iter()
                    .find(|&&i| files.field(i) == field)
                    .map(|&i| files.bytes(i))
            };
            let state = get(&responses[p], "NewState");
            state.is_some()
                && state == get(&requests[q], "CurrentState")
                && requests
                    .iter()
                    .enumerate()
                    .filter(|&(o, _)| o != q && written[o].contains(&p))
                    .all(|(_, o)| {
                        get(o, "CurrentState") != state || content(o) == content(&requests[q])
                    })
        }
    };
    // The edges of the assignment: what each request's answer can be. A fragment
    // (a response lacking files) is no answer the values can check, nor is a response
    // holding a torn file; a refresh that found no drift answers with the state it was
    // given.
    let answer: Vec<bool> = responses
        .iter()
        .map(|r| r.missing.is_empty() && !holds_torn(r))
        .collect();
    let mut edges: Vec<Vec<usize>> = fitting
        .iter()
        .map(|ps| ps.iter().copied().filter(|&p| answer[p]).collect())
        .collect();
    let pins: Vec<(usize, usize)> = (0..requests.len())
        .filter_map(|q| {
            edges[q]
                .iter()
                .copied()
                .find(|&p| unchanged(q, p))
                .map(|p| (q, p))
        })
        .collect();
    let mut pinned = vec![false; requests.len()];
    for &(q, p) in &pins {
        // Requests that claim one such response hold the same bytes (`unchanged` allows
        // no other): whichever of them it answers, the call shows the same values, so
        // the last of them takes it and the others are left open.
        let last = pins.iter().filter(|&&(_, o)| o == p).map(|&(r, _)| r).max();
        if last == Some(q) {
            for (o, e) in edges.iter_mut().enumerate() {
                if o == q {
                    e.retain(|&x| x == p);
                } else {
                    e.retain(|&x| x != p);
                }
            }
            pinned[q] = true;
        }
    }
    let mut classes: Vec<Vec<(&str, &[u8])>> = Vec::new();
    let class: Vec<usize> = responses
        .iter()
        .map(|r| {
            let c = content(r);
            match classes.iter().position(|k| *k == c) {
                Some(i) => i,
                None => {
                    classes.push(c);
                    classes.len() - 1
                }
            }
        })
        .collect();
    let mut request_open = vec![true; requests.len()];
    let mut response_open = vec![true; responses.len()];
    let mut pairs: BTreeMap<usize, (usize, String)> = BTreeMap::new();
    // The classes each whole request's answer can be of: the bytes of the responses
    // that fit it. A class that as many other whole requests need alone as there are
    // responses of it is theirs: it leaves the others' lists (repeated while that
    // decides more).
    let supply = |c: usize| class.iter().filter(|&&k| k == c).count();
    let mut options: Vec<BTreeSet<usize>> = edges
        .iter()
        .map(|e| e.iter().map(|&p| class[p]).collect())
        .collect();
    // A refresh's answer is bound to its request by nothing but the times: only one
    // that found no drift is decided.
    if rpc == "ReadResource" {
        for (q, o) in options.iter_mut().enumerate() {
            if !pinned[q] {
                o.clear();
            }
        }
    }
    let whole: Vec<usize> = (0..requests.len())
        .filter(|&q| requests[q].doubt.is_none())
        .collect();
    // Who may need a response of a class: whole requests, and requests in doubt that
    // hold the values a response's check reads (one without them is bound to no
    // response, and is left out).
    let binding: &[&str] = match rpc {
        "PlanResourceChange" => &["PriorState", "Config"],
        "ApplyResourceChange" => &["PlannedState"],
        _ => &[],
    };
    let needs: Vec<usize> = (0..requests.len())
        .filter(|&q| {
            requests[q].doubt.is_none()
                || (!binding.is_empty()
                    && binding.iter().all(|f| {
                        requests[q]
                            .files
                            .iter()
                            .any(|&i| files.field(i) == *f && !files.typed[i].is_empty())
                    }))
        })
        .collect();
    let mut taken_by_others: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); requests.len()];
    // Each request has one answer, and each response answers one request: the kinds of
    // response a request can have are those some assignment answering as many requests
    // as any can gives it.
    let mut claims: Vec<BTreeSet<usize>> = (0..requests.len())
        .map(|o| match requests[o].doubt {
            None => options[o].clone(),
            Some(_) => edges[o].iter().map(|&x| class[x]).collect(),
        })
        .collect();
    if rpc != "ReadResource" {
        let supplies: Vec<usize> = (0..classes.len()).map(supply).collect();
        let sets: Vec<BTreeSet<usize>> = needs.iter().map(|&o| claims[o].clone()).collect();
        for (&o, usable) in needs.iter().zip(assignable(&sets, &supplies)) {
            let Some(usable) = usable else { continue };
            if requests[o].doubt.is_none() {
                taken_by_others[o].extend(options[o].difference(&usable).copied());
                options[o] = usable.clone();
            }
            claims[o] = usable;
        }
    }
    loop {
        let mut progress = false;
        for &q in &whole {
            let removable: Vec<usize> = options[q]
                .iter()
                .copied()
                .filter(|&c| {
                    options[q].len() > 1
                        && whole
                            .iter()
                            .filter(|&&o| {
                                o != q && options[o].len() == 1 && options[o].contains(&c)
                            })
                            .count()
                            >= supply(c)
                })
                .collect();
            for c in removable {
                options[q].remove(&c);
                taken_by_others[q].insert(c);
                progress = true;
            }
        }
        if !progress {
            break;
        }
    }
    // Responses of bytes that more calls wrote than the requests the directory shows
    // can explain: some request was hidden by an overwrite (its twin's names).
    // A request in doubt that holds none of the values a response's check reads, but
    // whose every file holds the bytes of a whole request's file of its field (a twin
    // whose other files an overwrite took): it may own a response of the twin's kinds.
    let partial_twins: Vec<usize> = (0..requests.len())
        .filter(|&o| requests[o].doubt.is_some() && !needs.contains(&o))
        .filter_map(|o| {
            let files_of = &requests[o].files;
            let values = files_of.iter().any(|&i| {
                ["Config", "PriorState", "ProposedNewState", "PlannedState"]
                    .contains(&files.field(i))
            });
            if !values {
                return None;
            }
            whole.iter().copied().find(|&w| {
                files_of.iter().all(|&i| {
                    files
                        .of(&requests[w].files, files.field(i))
                        .is_some_and(|j| files.bytes(j) == files.bytes(i))
                })
            })
        })
        .collect();
    // A whole response that no such request was written before is a hidden request's
    // answer for certain; the others of its bytes are in excess only while the requests
    // they fit are fewer than they are.
    let unclaimed: Vec<bool> = (0..responses.len())
        .map(|p| {
            answer[p]
                && !needs
                    .iter()
                    .chain(&partial_twins)
                    .any(|&q| fitting[q].contains(&p))
        })
        .collect();
    let mut hidden_for_certain = vec![0; classes.len()];
    for p in (0..responses.len()).filter(|&p| unclaimed[p]) {
        hidden_for_certain[class[p]] += 1;
    }
    let orphans: Vec<usize> = (0..responses.len())
        .filter(|&p| {
            let fit = needs
                .iter()
                .chain(&partial_twins)
                .filter(|&&q| fitting[q].iter().any(|&x| class[x] == class[p]))
                .count();
            answer[p] && (unclaimed[p] || fit + hidden_for_certain[class[p]] < supply(class[p]))
        })
        .collect();
    let mut hidden: BTreeMap<usize, usize> = BTreeMap::new();
    // Requests whose answer the rules fix: a destroy (a plan of a null Config, an apply
    // of a null PlannedState) is answered with null, and each other field of the
    // responses holds the same bytes in every file of the directory. Any response of
    // those bytes shows the values the request's own answer holds, even one another
    // request's answer shows too.
    let uniform: BTreeSet<&str> = {
        let mut seen: BTreeMap<&str, Option<&[u8]>> = BTreeMap::new();
        for r in &responses {
            for &i in &r.files {
                let entry = seen.entry(files.field(i)).or_insert(Some(files.bytes(i)));
                if *entry != Some(files.bytes(i)) {
                    *entry = None;
                }
            }
        }
        seen.into_iter().filter_map(|(f, b)| b.map(|_| f)).collect()
    };
    let null =
        |i: usize| !files.typed[i].is_empty() && files.typed[i].iter().all(|(_, _, v)| v.is_null());
    let (destroy_in, destroy_out) = match rpc {
        "PlanResourceChange" => ("Config", "PlannedState"),
        "ApplyResourceChange" => ("PlannedState", "NewState"),
        _ => ("", ""),
    };
    let forced: BTreeSet<usize> = whole
        .iter()
        .copied()
        .filter(|&q| {
            !destroy_in.is_empty()
                && files.of(&requests[q].files, destroy_in).is_some_and(null)
                && response_fields
                    .iter()
                    .all(|f| f == destroy_out || uniform.contains(f.as_str()))
                && !edges[q].is_empty()
                && edges[q].iter().all(|&p| {
                    class[p] == class[edges[q][0]]
                        && responses[p].missing.is_empty()
                        && files.of(&responses[p].files, destroy_out).is_some_and(null)
                })
        })
        .collect();
    for &q in &whole {
        if forced.contains(&q) {
            let p = edges[q]
                .iter()
                .copied()
                .find(|&p| response_open[p])
                .unwrap_or(edges[q][0]);
            pairs.insert(
                q,
                (
                    p,
                    format!(
                        "a destroy: its answer's {destroy_out} is null by {}'s rules, \
                         and every other field of the responses holds the same bytes in every \
                         file, so any response of these bytes shows its answer's values",
                        files.client.program()
                    ),
                ),
            );
            request_open[q] = false;
            response_open[p] = false;
            continue;
        }
        let [c] = options[q].iter().copied().collect::<Vec<_>>()[..] else {
            continue;
        };
        let claimants: Vec<usize> = needs
            .iter()
            .copied()
            .filter(|&o| {
                if requests[o].doubt.is_none() {
                    options[o].contains(&c)
                } else {
                    claims[o].contains(&c)
                }
            })
            .collect();
        // Whole requests of this one's bytes are interchangeable with it: as many of
        // them as there are responses of the class take one each (either pairing shows
        // the same values); the others are left open.
        let twins = claimants
            .iter()
            .filter(|&&o| {
                o != q
                    && requests[o].doubt.is_none()
                    && content(&requests[o]) == content(&requests[q])
            })
            .count();
        let shared = claimants.len() > supply(c);
        // A plan an apply carries out (bound to it by its Config and PriorState) was
        // answered with the bytes the apply carries: a response of exactly those bytes
        // shows its answer's values, whichever request's answer its files were.
        let carried = bound
            .get(&q)
            .is_some_and(|applied| applied.carries(&classes[c]));
        if shared && claimants.len() - twins > supply(c) && !carried {
            continue;
        }
        // The earliest response of the class after it that is still open (one that
        // another request took shows the same bytes, when none is, unless twins share
        // the class).
        let of_class: Vec<usize> = edges[q]
            .iter()
            .copied()
            .filter(|&p| class[p] == c)
            .collect();
        let open_one = of_class.iter().find(|&&p| response_open[p]);
        let Some(&p) = (if shared && !carried {
            open_one
        } else {
            open_one.or(of_class.first())
        }) else {
            continue;
        };
        // A whole response between it and this one that no request fits is another
        // call's whose request an overwrite hid, perhaps behind this one's names: this
        // request may be two calls', and its own response that orphan's twin.
        // Applies: Terraform applies each resource instance once a run, and an apply's
        // NewState must be compatible with its PlannedState, so an orphan of other bytes
        // is a hidden request's own answer (each request has one) and none of this one's.
        // Others: an orphan whose values do not fit this request's answers no request
        // of these values, so these files are not the hidden one's.
        // A plan an apply carries out shows the values that plan was asked and answered
        // with, whichever of the two requests its files are.
        let orphan = orphans.iter().copied().find(|&o| {
            (if rpc == "ApplyResourceChange" {
                class[o] == c
            } else {
                fitting[q].contains(&o)
            }) && responses[o].first >= requests[q].last
                && responses[o].first <= responses[p].first
        });
        if let (Some(o), false) = (orphan, carried) {
            hidden.insert(q, o);
            continue;
        }
        let others = edges[q].len() - of_class.len();
        let why = if carried && (shared || orphan.is_some()) {
            "an apply after it carries this response's bytes, and binds this request by its \
             Config and PriorState: other requests (or one an overwrite hid) may claim these \
             files, but any response of these bytes shows this plan's answer"
                .to_owned()
        } else if pinned[q] {
            "the response after it whose NewState is byte for byte its CurrentState and no \
             other request's but ones of the same bytes (the last of which takes it): a \
             refresh that found no drift"
                .to_owned()
        } else if edges[q].len() == 1 {
            "the only whole response written after it that fits it, and no other request \
             needs one with its bytes"
                .to_owned()
        } else if others == 0 {
            format!(
                "{} responses after it fit, all with the same bytes: either shows the same values",
                of_class.len()
            )
        } else {
            format!(
                "{others} other responses fit it by the times and values, but the {} other \
                 kinds of bytes among them are the only ones other requests can have",
                taken_by_others[q].len()
            )
        };
        pairs.insert(q, (p, why));
        request_open[q] = false;
        response_open[p] = false;
    }
    // What is left: a request and a response that only each other can be by the
    // times (no other open request was written before the response, no other open
    // response after the request). Where the values break Terraform's rules, the pair
    // is shown, incomplete, saying so.
    let mut broken: BTreeMap<usize, String> = BTreeMap::new();
    let mut by_times: BTreeSet<usize> = BTreeSet::new();
    for q in 0..requests.len() {
        if !request_open[q] {
            continue;
        }
        let open: Vec<usize> = written[q]
            .iter()
            .copied()
            .filter(|&p| response_open[p])
            .collect();
        let [p] = open[..] else { continue };
        if (0..requests.len()).any(|o| o != q && request_open[o] && written[o].contains(&p)) {
            continue;
        }
        if !fitting[q].contains(&p) {
            let applied = bound
                .get(&q)
                .filter(|_| files.answer_fits(&requests[q].files, &responses[p].files));
            let why = match applied {
                // Its values keep the rules: what refuses it is the apply that carries
                // out this request's plan.
                Some(applied) if responses[p].first > applied.first => format!(
                    "the only request this response can answer by the times, and a valid \
                     plan for it, but written after the apply that carries out this \
                     request's plan ({}): this request's own response was lost, or this \
                     one answers a request whose files another call's overwrote",
                    applied.file
                ),
                Some(applied) => format!(
                    "the only request this response can answer by the times, and a valid \
                     plan for it, but the apply that carries out this request's plan ({}) \
                     holds another PlannedState: {} applies the PlannedState the \
                     plan returned, so this response answers another request (its files \
                     hidden by an overwrite), or the apply's files are another call's",
                    applied.file,
                    files.client.program()
                ),
                None => format!(
                    "the only request this response can answer by the times, but its \
                     values break {}'s rules for it: the provider broke them, or this \
                     answers a request whose files another call's overwrote",
                    files.client.program()
                ),
            };
            broken.insert(q, why);
        }
        by_times.insert(q);
        pairs.insert(
            q,
            (p, "the only open response written after it, and it the only open request written before that response".to_owned()),
        );
        request_open[q] = false;
        response_open[p] = false;
    }
    let names =
        |fs: &[usize]| -> Vec<String> { fs.iter().map(|&i| payloads[i].file.clone()).collect() };
    let missing_all = |kind: &str, fields: &[String]| -> Vec<String> {
        match fields.is_empty() {
            true => vec![kind.to_owned()],
            false => fields.iter().map(|f| format!("{kind} {f}")).collect(),
        }
    };
    // Why a pair may be two calls' halves: its request's own response lost in an
    // overwrite (another response of the RPC written in the same millisecond, under the
    // same names), and the response another request's that an overwrite hid. Where a
    // link proves the pair (a refresh that found no drift, an apply carrying this plan's
    // PlannedState), any such halves show the same values.
    let single = |s: &Side| s.first == s.last && s.missing.is_empty() && s.doubt.is_none();
    let overwritten = |q: usize, p: usize| -> Option<String> {
        let (request, response) = (&requests[q], &responses[p]);
        if pinned[q] || bound.contains_key(&q) || forced.contains(&q) {
            return None;
        }
        if rpc == "PlanResourceChange" {
            if let Some(planned) = files.of(&response.files, "PlannedState") {
                let own = files
                    .of(&request.files, "ProposedNewState")
                    .map(|i| files.bytes(i));
                let other = requests.iter().enumerate().find(|&(o, other)| {
                    o != q
                        && other.doubt.is_some()
                        && other.last <= response.first
                        && files.of(&other.files, "ProposedNewState").is_some_and(|i| {
                            Some(files.bytes(i)) != own && files.link(i).same(&files.link(planned))
                        })
                });
                if let Some((_, other)) = other {
                    return Some(format!(
                        "its PlannedState is the ProposedNewState of other request files, {}, \
                         which an overwrite left in doubt: this response may answer them, and \
                         this request's own response have been lost in an overwrite",
                        names(&other.files).join(" ")
                    ));
                }
            }
            if let Some(why) = files.refreshed_instead(&request.files, &response.files, links) {
                return Some(why);
            }
            if let Some(why) = files.created_instead(&request.files, &response.files) {
                return Some(why);
            }
            if let Some(why) = files.applied_as_create(&request.files, &response.files, links) {
                return Some(why);
            }
            if let Some(why) = files.contradicted(&request.files, &response.files, links) {
                return Some(why);
            }
        }
        if !by_times.contains(&q) {
            return None;
        }
        // Paired by the times alone: any message written whole in one millisecond may
        // hide another of its names. This request's own response may be lost behind any
        // such response it could have had, and the request this response answers hidden
        // behind any such request before it, this one's own names included.
        let lost = written[q]
            .iter()
            .map(|&o| (o, &responses[o]))
            .find(|&(o, w)| o != p && single(w))?;
        let hid = std::iter::once(q)
            .chain(0..requests.len())
            .map(|o| (o, &requests[o]))
            .find(|&(_, v)| single(v) && v.first >= request.first && v.first <= response.first)?;
        let hider = match hid.0 == q {
            true => "this request's own names, written in one millisecond,".to_owned(),
            false => format!(
                "{}, written in one millisecond before this response,",
                names(&hid.1.files).join(" ")
            ),
        };
        Some(format!(
            "paired by the times alone, which an overwrite can fake: {}, written in one \
             millisecond after this request, may hide its own response, and {hider} the \
             request this response answers",
            names(&lost.1.files).join(" "),
        ))
    };
    let mut out = Vec::new();
    let mut answered = vec![false; responses.len()];
    for (q, request) in requests.iter().enumerate() {
        let mut explain = vec![format!("request: {}", request.why)];
        let (mut file_list, status) = match pairs.get(&q) {
            Some((p, why)) => {
                answered[*p] = true;
                let response = &responses[*p];
                explain.push(format!("response: {}", response.why));
                explain.push(format!("paired: {why}"));
                let competed: Vec<String> = written[q]
                    .iter()
                    .filter(|&&o| o != *p)
                    .map(|&o| names(&responses[o].files).join(" "))
                    .take(6)
                    .collect();
                if !competed.is_empty() {
                    explain.push(format!(
                        "other responses written after it: [{}]",
                        competed.join("] [")
                    ));
                }
                let mut missing = request.missing.clone();
                missing.extend(response.missing.clone());
                let broke = broken.get(&q).cloned();
                let swapped = overwritten(q, *p);
                // A destroy's answer shows what the rules fix, whichever calls wrote its
                // files (each of them holds those bytes): its grouping cannot be in doubt.
                let (response_doubt, response_mixed) = match forced.contains(&q) {
                    true => (None, None),
                    false => (response.doubt.clone(), response.mixed.clone()),
                };
                let status = match (
                    request.doubt.clone().or(response_doubt).or(broke),
                    request.mixed.clone().or(response_mixed).or(swapped),
                ) {
                    (Some(reason), _) => Status::Incomplete { missing, reason },
                    (None, Some(reason)) => Status::PossiblyMixed { reason },
                    (None, None) => Status::Complete,
                };
                (
                    request
                        .files
                        .iter()
                        .chain(&response.files)
                        .copied()
                        .collect::<Vec<_>>(),
                    status,
                )
            }
            None => {
                if let Some(&o) = hidden.get(&q) {
                    explain.push(format!(
                        "one response fits it, but {} lies between them: more calls wrote \
                         its bytes than requests explain, so a request may be hidden behind \
                         this one's names and this one's own response lost",
                        names(&responses[o].files).join(" ")
                    ));
                }
                let open: Vec<usize> = fitting[q]
                    .iter()
                    .copied()
                    .filter(|&p| response_open[p])
                    .collect();
                let status = if request.doubt.is_some() || open.is_empty() {
                    Status::Incomplete {
                        missing: [
                            request.missing.clone(),
                            missing_all("Response", &response_fields),
                        ]
                        .concat(),
                        reason: request.doubt.clone().unwrap_or_else(|| {
                            "no response in the directory fits this request".to_owned()
                        }),
                    }
                } else {
                    Status::Ambiguous {
                        candidates: open.iter().map(|&p| names(&responses[p].files)).collect(),
                    }
                };
                (request.files.clone(), status)
            }
        };
        file_list.sort_by_key(|&i| {
            (
                !payloads[i].name.is_request(),
                payloads[i].name.unix_millis,
                i,
            )
        });
        out.push(Call {
            rpc: rpc.to_owned(),
            payloads: file_list.iter().map(|&i| payloads[i].clone()).collect(),
            status,
            explain,
            sure_request: request.doubt.is_none(),
            keeps_prior: files.keeps_prior(&request.files),
            proposed: files.proposed(&request.files, links),
        });
    }
    for (p, response) in responses.iter().enumerate() {
        if answered[p] {
            continue;
        }
        let fit: Vec<usize> = (0..requests.len())
            .filter(|&q| request_open[q] && fitting[q].contains(&p))
            .collect();
        let status = if response.doubt.is_some() || fit.is_empty() {
            Status::Incomplete {
                missing: [
                    missing_all("Request", &request_fields),
                    response.missing.clone(),
                ]
                .concat(),
                reason: response
                    .doubt
                    .clone()
                    .unwrap_or_else(|| "no request in the directory fits this response".to_owned()),
            }
        } else {
            Status::Ambiguous {
                candidates: fit.iter().map(|&q| names(&requests[q].files)).collect(),
            }
        };
        out.push(Call {
            rpc: rpc.to_owned(),
            payloads: response
                .files
                .iter()
                .map(|&i| payloads[i].clone())
                .collect(),
            status,
            explain: vec![format!("response: {}", response.why)],
            sure_request: false,
            keeps_prior: false,
            proposed: false,
        });
    }
    out
}

/// The classes each request's answer can be in an assignment that answers as many
/// requests as any can: requests `options[i]` (the classes of the responses that fit
/// request `i`), `supply[c]` responses of class `c`, each answering one request. `None`
/// for a request that the assignment found leaves unanswered.
///
/// One assignment is found by augmenting paths; another class is open to a request when
/// moving it there can be made up by moves along the others (the class and the request
/// lie in one strongly connected part of what the assignment leaves free: a class with
/// answers to spare, a request left unanswered, or a chain of requests each moving to
/// the next one's class).
fn assignable(options: &[BTreeSet<usize>], supply: &[usize]) -> Vec<Option<BTreeSet<usize>>> {
    let n = options.len();
    let k = supply.len();
    let opts: Vec<Vec<usize>> = options
        .iter()
        .map(|o| o.iter().copied().collect())
        .collect();
    let mut matched: Vec<Option<usize>> = vec![None; n];
    let mut holders: Vec<Vec<usize>> = vec![Vec::new(); k];
    // One augmenting path from request `start`, depth first, each class tried once.
    fn augment(
        i: usize,
        opts: &[Vec<usize>],
        supply: &[usize],
        seen: &mut [bool],
        matched: &mut [Option<usize>],
        holders: &mut [Vec<usize>],
    ) -> bool {
        for &c in &opts[i] {
            if seen[c] {
                continue;
            }
            seen[c] = true;
            if holders[c].len() < supply[c] {
                holders[c].push(i);
                matched[i] = Some(c);
                return true;
            }
            for h in 0..holders[c].len() {
                let r = holders[c][h];
                if augment(r, opts, supply, seen, matched, holders) {
                    holders[c][h] = i;
                    matched[i] = Some(c);
                    return true;
                }
            }
        }
        false
    }
    let mut seen = vec![false; k];
    for i in 0..n {
        seen.iter_mut().for_each(|s| *s = false);
        augment(i, &opts, supply, &mut seen, &mut matched, &mut holders);
    }
    // What the assignment leaves free: a request to each class it may move to, a class
    // back to the requests it answers, a class with answers to spare to the sink, and
    // the sink to each class that answers some request.
    let sink = n + k;
    let mut out_edges: Vec<Vec<usize>> = vec![Vec::new(); n + k + 1];
    // Parts of the directory: requests linked through the classes they share. Where a
    // part has a request left unanswered (a response lost), counting proves nothing.
    let mut parent: Vec<usize> = (0..n + k).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for (i, o) in opts.iter().enumerate() {
        for &c in o {
            let (a, b) = (root(&mut parent, i), root(&mut parent, n + c));
            parent[a] = b;
        }
    }
    let mut short = vec![false; n + k];
    for i in (0..n).filter(|&i| matched[i].is_none()) {
        let r = root(&mut parent, i);
        short[r] = true;
    }
    for (i, o) in opts.iter().enumerate() {
        for &c in o {
            if matched[i] != Some(c) {
                out_edges[i].push(n + c);
            }
        }
    }
    for c in 0..k {
        for &r in &holders[c] {
            out_edges[n + c].push(r);
        }
        if holders[c].len() < supply[c] {
            out_edges[n + c].push(sink);
        }
        if !holders[c].is_empty() {
            out_edges[sink].push(n + c);
        }
    }
    let component = strongly_connected(&out_edges);
    (0..n)
        .map(|i| {
            if short[root(&mut parent, i)] {
                return None;
            }
            let mine = matched[i]?;
            Some(
                opts[i]
                    .iter()
                    .copied()
                    .filter(|&c| c == mine || component[n + c] == component[i])
                    .collect(),
            )
        })
        .collect()
}

/// Each node's strongly connected part (Kosaraju's two passes, without recursion).
fn strongly_connected(edges: &[Vec<usize>]) -> Vec<usize> {
    let n = edges.len();
    let mut order = Vec::with_capacity(n);
    let mut visited = vec![false; n];
    for s in 0..n {
        if visited[s] {
            continue;
        }
        visited[s] = true;
        let mut stack = vec![(s, 0usize)];
        while let Some((v, next)) = stack.last_mut() {
            if let Some(&w) = edges[*v].get(*next) {
                *next += 1;
                if !visited[w] {
                    visited[w] = true;
                    stack.push((w, 0));
                }
            } else {
                order.push(*v);
                stack.pop();
            }
        }
    }
    let mut reverse: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (v, out) in edges.iter().enumerate() {
        for &w in out {
            reverse[w].push(v);
        }
    }
    let mut component = vec![usize::MAX; n];
    let mut count = 0;
    for &s in order.iter().rev() {
        if component[s] != usize::MAX {
            continue;
        }
        let mut stack = vec![s];
        component[s] = count;
        while let Some(v) = stack.pop() {
            for &w in &reverse[v] {
                if component[w] == usize::MAX {
                    component[w] = count;
                    stack.push(w);
                }
            }
        }
        count += 1;
    }
    component
}

/// A plan's `PriorState`, `Config` and `PlannedState` among one resource type's typed
/// values of a request and its response, when all three are there.
fn plan_values<'v>(
    values: &BTreeMap<&str, &'v Value>,
) -> Option<(&'v Value, &'v Value, &'v Value)> {
    Some((
        *values.get("PriorState")?,
        *values.get("Config")?,
        *values.get("PlannedState")?,
    ))
}
