//! The real-world corpus: every plan, state and redacted plan of a directory of documents
//! Terraform, OpenTofu and the tools around them wrote (with `pairings.tsv` naming the
//! schemas that type each), read, typed and written back. The corpus is not committed:
//! `CTYWIRE_REALWORLD` names its directory (CI provides it); without it the test says it
//! skipped.
//!
//! For every value of every document (resource changes' `before` and `after` with
//! their trees, drift, deferred changes, planned values, prior states, states, outputs,
//! output changes, identities, action invocations):
//!
//! - decoded with the type its JSON implies (`dynamic`), it must write back to the
//!   document's own JSON and trees exactly;
//! - decoded with its resource type's schema, it must write back exactly where the
//!   pairing types it exactly (`exact`, or a schema `derived/` or `embedded` for the
//!   document); where the schema is another version of the provider (`approximate`),
//!   what does not decode or differs is counted, not failed.
//!
//! Documents meant to be invalid must be refused with an error that says where. The
//! test is skipped, with a message, where the corpus is absent; the project commits
//! none of its files. `cargo test --test realworld -- --nocapture` prints what it
//! checked; `CTYWIRE_CORPUS_NOTES=1` adds every value an approximate pairing does not
//! type exactly, and why.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path as FsPath, PathBuf};
use std::sync::OnceLock;

use ctywire::schema::{IdentitySchema, ProviderSchemas, Schema, SchemaMatch};
use ctywire::tfjson::{
    self, ActionInvocation, Change, Document, MarkTree, Output, Plan, RawJson, Resource,
    ResourceChange, State, Values,
};
use ctywire::{json, msgpack, Position, Type};
use serde_json::value::RawValue;

/// Values of the corpus that do not read back, each with why: documents Terraform did
/// not write as they are (scanners' fixtures edited by hand) or wrote before 0.12 was
/// released. Each is checked to fail: `(document file, value, reason)`, the value named
/// by the start of its description.
const KNOWN_DIFFERENCES: &[(&str, &str, &str)] = &[
    (
        "checkov__tests__common__runner_registry__plan_with_for_each_for_enrichment__tf_plan.json",
        "prior_state.values data.aws_vpc.sandbox values",
        "checkov's fixture: `values` lacks `tags`, which `sensitive_values` marks (trimmed by hand)",
    ),
    (
        "checkov__tests__terraform__parser__resources__plan_after_unknown__tfplan.json",
        "resource_changes aws_cloudfront_distribution.cloudfront after",
        "checkov's fixture: `after` is null but `after_unknown` marks `logging_config[0].bucket` \
         (written by hand); refused, as reading it would lose the unknown",
    ),
    (
        "checkov__tests__terraform__runner__resources__plan__tf_plan_filtered_rule_fail.json",
        "planned_values aws_s3_bucket_lifecycle_configuration.this values",
        "checkov's fixture: the planned values hold `tag = [\"my_tag\"]` where the change has \
         `[]` (edited by hand), so `sensitive_values` no longer fits",
    ),
    (
        "checkov__tests__terraform__runner__resources__plan_and_tf_combine_graph_with_missing_resources__tfplan.json",
        "",
        "checkov's fixture: values lack `lifecycle_rule`, which the sensitivity trees mark \
         (trimmed by hand)",
    ),
    (
        "checkov__tests__terraform__runner__resources__plan_with_resource_reference__tfplan_graph.json",
        "planned_values aws_s3_bucket.example values",
        "checkov's fixture: values lack `replication_configuration`, which `sensitive_values` \
         marks (trimmed by hand)",
    ),
    (
        "conftest__examples__hcl1__gke-show.json",
        "",
        "Terraform 0.12.0-beta2: `false` for known empty lists in `after_unknown`, `[false]` \
         for a set of two strings (a set, the schema's type, takes it; a tuple, the implied \
         type, does not)",
    ),
];

/// The corpus folder, when it is there: `CTYWIRE_REALWORLD`, or where CI keeps it
/// beside the repository.
fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("CTYWIRE_REALWORLD").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/realworld"),
        PathBuf::from,
    );
    dir.join("pairings.tsv").is_file().then_some(dir)
}

/// One line of `pairings.tsv`.
struct Pairing {
    kind: String,
    document: String,
    schemas: Vec<String>,
    quality: String,
}

fn pairings(dir: &FsPath) -> Vec<Pairing> {
    let text = std::fs::read_to_string(dir.join("pairings.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(cols.len(), 4, "pairings.tsv: {line:?}");
            Pairing {
                kind: cols[0].to_owned(),
                document: cols[1].to_owned(),
                schemas: cols[2]
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect(),
                quality: cols[3].to_owned(),
            }
        })
        .collect()
}

/// JSON text in a canonical form for comparing: no whitespace, object keys sorted and
/// unique (the last wins), strings re-escaped one way; numbers keep their exact text.
fn canonical(text: &str) -> String {
    let text = text.trim();
    match text.as_bytes().first() {
        Some(b'{') => {
            let members: BTreeMap<String, &RawValue> = serde_json::from_str(text).unwrap();
            let members: Vec<String> = members
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{}:{}",
                        serde_json::to_string(k).unwrap(),
                        canonical(v.get())
                    )
                })
                .collect();
            format!("{{{}}}", members.join(","))
        }
        Some(b'[') => {
            let elements: Vec<&RawValue> = serde_json::from_str(text).unwrap();
            let elements: Vec<String> = elements.iter().map(|v| canonical(v.get())).collect();
            format!("[{}]", elements.join(","))
        }
        Some(b'"') => {
            serde_json::to_string(&serde_json::from_str::<String>(text).unwrap()).unwrap()
        }
        _ => text.to_owned(),
    }
}

/// A tree without `false` object entries, which Terraform 0.12 wrote and later versions
/// leave out.
fn without_false_entries(tree: &MarkTree) -> MarkTree {
    match tree {
        MarkTree::Bool(b) => MarkTree::Bool(*b),
        MarkTree::Array(items) => {
            MarkTree::Array(items.iter().map(without_false_entries).collect())
        }
        MarkTree::Object(m) => MarkTree::Object(
            m.iter()
                .filter(|(_, t)| **t != MarkTree::Bool(false))
                .map(|(k, t)| (k.clone(), without_false_entries(t)))
                .collect(),
        ),
    }
}

/// How Terraform writes a value's unknown tree, by where the value is.
#[derive(Clone, Copy, PartialEq)]
enum UnknownRule {
    /// A resource change's `after`: `{}` when wholly known.
    Resource,
    /// An output change's `after`: `false` when wholly known.
    Output,
    /// An action's `config_unknown`: the tree as it is.
    Plain,
}

/// What a value the document leaves out is.
#[derive(Clone, Copy, PartialEq)]
enum Absent {
    /// `before`, a state's `values`.
    Null,
    /// `after`, an output's `value` in planned values.
    Unknown,
    /// Planned values' `values`: Terraform leaves out an empty object (every attribute
    /// unknown, so left out).
    EmptyObject,
}

/// One value of a document: its JSON and trees, and how to read them.
struct Site<'d> {
    what: String,
    json: Option<&'d RawJson>,
    unknown: Option<&'d MarkTree>,
    /// Whether `unknown` is the value's own tree (planned values borrow the change's).
    own_unknown_tree: bool,
    sensitive: Option<&'d MarkTree>,
    absent: Absent,
    rule: UnknownRule,
    /// The sensitivity tree is an output's one bool.
    sensitive_is_bool: bool,
}

impl<'d> Site<'d> {
    fn new(what: String, json: Option<&'d RawJson>) -> Site<'d> {
        Site {
            what,
            json,
            unknown: None,
            own_unknown_tree: true,
            sensitive: None,
            absent: Absent::Null,
            rule: UnknownRule::Plain,
            sensitive_is_bool: false,
        }
    }

    /// Decodes the value with `ty` and writes it back; the first difference from the
    /// document is the error. With `dynamic`, a sensitivity tree is compared by the
    /// values it marks: the shape Terraform gives an unknown collection (`[]` or `{}`)
    /// comes from a type the JSON does not imply.
    fn round_trip(&self, ty: &Type) -> Result<(), String> {
        let text = match (self.json, self.absent) {
            (Some(json), _) => Some(json.as_str()),
            (None, Absent::Null) => Some("null"),
            (None, Absent::Unknown) => None,
            (None, Absent::EmptyObject) => Some("{}"),
        };
        let value =
            tfjson::from_json_value(text, self.unknown, ty).map_err(|e| format!("decode: {e}"))?;
        let written = tfjson::to_json_value(&value, ty).map_err(|e| format!("encode: {e}"))?;
        if let Ok(bytes) = msgpack::encode(&value, ty) {
            // MessagePack to JSON straight through writes what the two steps write.
            let two_steps = msgpack::decode(&bytes, ty).and_then(|v| json::encode(&v, ty));
            let streamed = ctywire::transcode::msgpack_to_json(&bytes, ty);
            if streamed.as_ref().map_err(ToString::to_string)
                != two_steps.as_ref().map_err(ToString::to_string)
            {
                return Err(format!(
                    "transcoded MessagePack differs: {streamed:?} against {two_steps:?}"
                ));
            }
        }
        let written = written.map(|j| canonical(j.as_str()));
        let want = text.map(canonical);
        if written != want {
            return Err(format!(
                "the value differs:\n    wrote    {written:?}\n    document {want:?}"
            ));
        }
        if let Some(tree) = self.unknown.filter(|_| self.own_unknown_tree) {
            let ours = match self.rule {
                UnknownRule::Resource if value.is_wholly_known() => {
                    MarkTree::Object(BTreeMap::new())
                }
                UnknownRule::Output if value.is_wholly_known() => MarkTree::Bool(false),
                _ => tfjson::unknown_tree(&value),
            };
            let theirs = without_false_entries(tree);
            if ours != theirs {
                return Err(format!(
                    "the unknown tree differs: wrote {ours}, document {tree}"
                ));
            }
        }
        if let Some(tree) = self.sensitive {
            let ours = if self.sensitive_is_bool {
                MarkTree::Bool(tree.is_true())
            } else {
                tfjson::check_sensitive_tree(tree, &value, ty)
                    .map_err(|e| format!("sensitivity: {e}"))?;
                tfjson::sensitive_tree(&tfjson::sensitive_paths(tree, ty), &value, ty)
            };
            let same = if *ty == Type::Dynamic {
                tfjson::sensitive_paths(&ours, ty) == tfjson::sensitive_paths(tree, ty)
            } else {
                ours == without_false_entries(tree)
            };
            if !same {
                return Err(format!(
                    "the sensitivity tree differs: wrote {ours}, document {tree}"
                ));
            }
        }
        Ok(())
    }
}

/// Where a value's type comes from.
enum Typing<'s> {
    /// The schemas found one; `exact` when the pairing types the document exactly.
    Schema { ty: Type, exact: bool },
    /// The schemas do not have it (or the pairing names none).
    Missing(String),
    /// The value has no schema: outputs, whose type is their own.
    Own(Option<&'s Type>),
}

/// What the corpus run found.
#[derive(Default)]
struct Report {
    documents: usize,
    values: usize,
    implied_exact: usize,
    typed_exact: usize,
    typed_approximate: usize,
    approximate_differ: usize,
    untyped: usize,
    failures: Vec<String>,
    /// Failures [`KNOWN_DIFFERENCES`] explains, by entry.
    known: Vec<(usize, String)>,
    notes: Vec<String>,
}

/// The schemas a pairing names, merged, with the providers they type exactly.
struct PairedSchemas<'s> {
    schemas: &'s ProviderSchemas,
    exact: BTreeSet<String>,
}

/// Every schema file the pairings name, read once for the whole test binary (both tests
/// of this module use them; the largest dumps are megabytes), on every core.
fn schema_files(dir: &FsPath) -> &'static BTreeMap<String, ProviderSchemas> {
    static FILES: OnceLock<BTreeMap<String, ProviderSchemas>> = OnceLock::new();
    FILES.get_or_init(|| {
        let files: Vec<String> = pairings(dir)
            .into_iter()
            .flat_map(|p| p.schemas)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let files = &files;
                    scope.spawn(move || {
                        files
                            .iter()
                            .skip(t)
                            .step_by(threads)
                            .map(|file| {
                                let bytes = std::fs::read(dir.join(file)).unwrap();
                                let read = ProviderSchemas::from_json(&bytes)
                                    .unwrap_or_else(|e| panic!("{file}: {e}"));
                                (file.clone(), read)
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("a schema file reads"))
                .collect()
        })
    })
}

/// The schemas of each pairing's list of files: a single file's as read, several merged
/// once per list (cloning a provider's schemas for each document cost most of the
/// test's time).
struct Corpus {
    files: &'static BTreeMap<String, ProviderSchemas>,
    merged: BTreeMap<Vec<String>, ProviderSchemas>,
}

impl Corpus {
    fn schemas(&mut self, pairing: &Pairing) -> PairedSchemas<'_> {
        let files = self.files;
        let schemas = match &pairing.schemas[..] {
            [one] => &files[one],
            _ => self
                .merged
                .entry(pairing.schemas.clone())
                .or_insert_with(|| {
                    let mut merged = ProviderSchemas::default();
                    for file in &pairing.schemas {
                        for (address, provider) in &files[file].providers {
                            merged.providers.insert(address.clone(), provider.clone());
                        }
                    }
                    merged
                }),
        };
        let mut exact = BTreeSet::new();
        for file in &pairing.schemas {
            let is_exact = match pairing.quality.as_str() {
                "exact" => true,
                "derived" | "embedded" => file.starts_with("derived/"),
                _ => false,
            };
            if is_exact {
                exact.extend(files[file].providers.keys().cloned());
            }
        }
        PairedSchemas { schemas, exact }
    }
}

/// Checks the values of one document.
struct Checker<'r> {
    document: String,
    schemas: PairedSchemas<'r>,
    report: &'r mut Report,
}

impl Checker<'_> {
    fn fail(&mut self, what: &str, message: String) {
        let message = format!("{}: {what}: {message}", self.document);
        let known = KNOWN_DIFFERENCES
            .iter()
            .position(|(doc, value, _)| self.document.ends_with(doc) && what.starts_with(value));
        match known {
            Some(i) => self.report.known.push((i, message)),
            None => self.report.failures.push(message),
        }
    }

    fn check(&mut self, site: &Site<'_>, typing: Typing<'_>) {
        self.report.values += 1;
        match site.round_trip(&Type::Dynamic) {
            Ok(()) => self.report.implied_exact += 1,
            Err(e) => self.fail(&site.what, format!("with the implied type: {e}")),
        }
        match typing {
            Typing::Schema { ty, exact: true } => match site.round_trip(&ty) {
                Ok(()) => self.report.typed_exact += 1,
                Err(e) => self.fail(&site.what, e),
            },
            Typing::Schema { ty, exact: false } => {
                self.report.typed_approximate += 1;
                if let Err(e) = site.round_trip(&ty) {
                    self.report.approximate_differ += 1;
                    let first = e.lines().next().unwrap_or_default().to_owned();
                    self.report
                        .notes
                        .push(format!("{}: {}: {first}", self.document, site.what));
                }
            }
            Typing::Own(Some(ty)) => match site.round_trip(ty) {
                Ok(()) => self.report.typed_exact += 1,
                Err(e) => self.fail(&site.what, format!("with its own type: {e}")),
            },
            Typing::Own(None) => {}
            Typing::Missing(why) => {
                self.report.untyped += 1;
                if !self.schemas.schemas.providers.is_empty() {
                    self.report
                        .notes
                        .push(format!("{}: {}: untyped: {why}", self.document, site.what));
                }
            }
        }
    }

    /// The typing a schema lookup gives: the schema's implied type, exact when the
    /// pairing types the provider exactly.
    fn typing<T>(
        &self,
        found: ctywire::Result<SchemaMatch<'_, T>>,
        implied_type: fn(&T) -> Type,
    ) -> Typing<'static> {
        match found {
            Ok(found) => Typing::Schema {
                ty: implied_type(found.schema),
                exact: self.schemas.exact.contains(found.provider),
            },
            Err(e) => Typing::Missing(e.to_string()),
        }
    }

    fn plan(&mut self, plan: &Plan) {
        let changes = plan
            .resource_changes
            .iter()
            .map(|c| ("resource_changes", c))
            .chain(plan.resource_drift.iter().map(|c| ("resource_drift", c)))
            .chain(
                plan.deferred_changes
                    .iter()
                    .map(|d| ("deferred_changes", &d.resource_change)),
            );
        for (list, rc) in changes {
            self.resource_change(list, rc);
        }
        if let Some(values) = &plan.planned_values {
            self.values("planned_values", values, Some(plan));
        }
        for (name, change) in &plan.output_changes {
            self.output_change(name, change);
        }
        if let Some(state) = &plan.prior_state {
            self.state("prior_state.", state);
        }
        for action in plan.action_invocations.iter().chain(
            plan.deferred_action_invocations
                .iter()
                .map(|d| &d.action_invocation),
        ) {
            self.action(action);
        }
    }

    fn resource_change(&mut self, list: &str, rc: &ResourceChange) {
        let at = match &rc.deposed {
            Some(key) => format!("{list} {} (deposed {key})", rc.address),
            None => format!("{list} {}", rc.address),
        };
        let c: &Change = &rc.change;
        let mut before = Site::new(format!("{at} before"), c.before.as_ref());
        before.sensitive = c.before_sensitive.as_ref();
        let mut after = Site::new(format!("{at} after"), c.after.as_ref());
        after.unknown = c.after_unknown.as_ref();
        after.sensitive = c.after_sensitive.as_ref();
        after.absent = Absent::Unknown;
        after.rule = UnknownRule::Resource;
        for site in [before, after] {
            let typing = self.typing(rc.find_schema(self.schemas.schemas), Schema::implied_type);
            self.check(&site, typing);
        }
        let identities = [
            ("before_identity", c.before_identity.as_ref()),
            ("after_identity", c.after_identity.as_ref()),
            (
                "importing.identity",
                c.importing.as_ref().and_then(|i| i.identity.as_ref()),
            ),
        ];
        for (name, json) in identities {
            if json.is_some() {
                let typing = self.typing(
                    rc.find_identity_schema(self.schemas.schemas),
                    IdentitySchema::implied_type,
                );
                self.check(&Site::new(format!("{at} {name}"), json), typing);
            }
        }
    }

    /// A values representation: resources (with the plan's unknown trees for planned
    /// values) and outputs.
    fn values(&mut self, prefix: &str, values: &Values, plan: Option<&Plan>) {
        for r in values.resources() {
            self.resource(prefix, r, plan);
        }
        for (name, output) in &values.outputs {
            self.output(&format!("{prefix} output {name}"), output);
        }
    }

    fn resource(&mut self, prefix: &str, r: &Resource, plan: Option<&Plan>) {
        let at = match &r.deposed_key {
            Some(key) => format!("{prefix} {} (deposed {key})", r.address),
            None => format!("{prefix} {}", r.address),
        };
        let mut site = Site::new(format!("{at} values"), r.values.as_ref());
        site.sensitive = r.sensitive_values.as_ref();
        // Planned values leave unknowns out as `after` does: read them with the change's
        // unknown tree.
        if let Some(change) = plan.and_then(|p| p.resource_change(&r.address)) {
            site.unknown = change.change.after_unknown.as_ref();
            site.own_unknown_tree = false;
            site.absent = Absent::EmptyObject;
        }
        let typing = self.typing(r.find_schema(self.schemas.schemas), Schema::implied_type);
        self.check(&site, typing);
        if r.identity.is_some() {
            let typing = self.typing(
                r.find_identity_schema(self.schemas.schemas),
                IdentitySchema::implied_type,
            );
            self.check(
                &Site::new(format!("{at} identity"), r.identity.as_ref()),
                typing,
            );
        }
    }

    fn output(&mut self, what: &str, output: &Output) {
        let mut site = Site::new(what.to_owned(), output.value.as_ref());
        site.absent = Absent::Unknown;
        self.check(&site, Typing::Own(output.ty.as_ref()));
    }

    fn output_change(&mut self, name: &str, c: &Change) {
        let mut before = Site::new(format!("output_changes {name} before"), c.before.as_ref());
        before.sensitive = c.before_sensitive.as_ref();
        before.sensitive_is_bool = true;
        let mut after = Site::new(format!("output_changes {name} after"), c.after.as_ref());
        after.unknown = c.after_unknown.as_ref();
        after.sensitive = c.after_sensitive.as_ref();
        after.sensitive_is_bool = true;
        after.absent = Absent::Unknown;
        after.rule = UnknownRule::Output;
        for site in [before, after] {
            self.check(&site, Typing::Own(None));
        }
    }

    fn state(&mut self, prefix: &str, state: &State) {
        if let Some(values) = &state.values {
            self.values(&format!("{prefix}values"), values, None);
        }
    }

    fn action(&mut self, action: &ActionInvocation) {
        let mut site = Site::new(
            format!("action {} config_values", action.address),
            action.config_values.as_ref(),
        );
        site.unknown = action.config_unknown.as_ref();
        site.sensitive = action.config_sensitive.as_ref();
        let typing = self.typing(
            action.find_schema(self.schemas.schemas),
            Schema::implied_type,
        );
        self.check(&site, typing);
    }
}

/// An error a user can act on: it says where (a line and column, or a byte), in this
/// crate's style (lowercase, no final period).
fn is_clear(e: &ctywire::Error) -> bool {
    let message = e.message();
    e.position()
        .is_some_and(|p| matches!(p, Position::LineColumn { .. } | Position::Offset(_)))
        && message.chars().next().is_some_and(|c| !c.is_uppercase())
        && !message.ends_with('.')
}

#[test]
fn every_document_of_the_corpus_reads_types_and_writes_back() {
    let Some(dir) = corpus() else {
        skipped("no real-world corpus (not committed; CTYWIRE_REALWORLD names its directory)");
        return;
    };
    let mut corpus = Corpus {
        files: schema_files(&dir),
        merged: BTreeMap::new(),
    };
    let mut report = Report::default();
    let mut by_quality: BTreeMap<String, usize> = BTreeMap::new();
    for pairing in pairings(&dir) {
        report.documents += 1;
        *by_quality
            .entry(format!("{} {}", pairing.kind, pairing.quality))
            .or_default() += 1;
        let bytes = std::fs::read(dir.join(&pairing.document)).unwrap();
        let parsed = Document::from_json(&bytes);
        if pairing.kind == "invalid" {
            match parsed {
                Ok(_) => report.failures.push(format!(
                    "{}: an invalid document was read",
                    pairing.document
                )),
                Err(e) if !is_clear(&e) => report
                    .failures
                    .push(format!("{}: unclear error: {e}", pairing.document)),
                Err(e) => report
                    .notes
                    .push(format!("{}: refused: {e}", pairing.document)),
            }
            continue;
        }
        let document = match parsed {
            Ok(d) => d,
            Err(e) => {
                report.failures.push(format!("{}: {e}", pairing.document));
                continue;
            }
        };
        let mut schemas = corpus.schemas(&pairing);
        if let Document::Plan(Plan {
            provider_schemas: Some(embedded),
            ..
        }) = &document
        {
            // A redacted plan's own schemas: the same as their re-wrapped copy.
            if !schemas.schemas.providers.is_empty()
                && embedded.providers != schemas.schemas.providers
            {
                report.failures.push(format!(
                    "{}: the embedded schemas differ from {:?}",
                    pairing.document, pairing.schemas
                ));
            }
            schemas.exact = embedded.providers.keys().cloned().collect();
            schemas.schemas = embedded;
        }
        let mut checker = Checker {
            document: pairing.document.clone(),
            schemas,
            report: &mut report,
        };
        match &document {
            Document::Plan(plan) => checker.plan(plan),
            Document::State(state) => checker.state("", state),
        }
    }
    eprintln!(
        "corpus: {} documents ({}); {} values: {} written back exactly with their implied types, {} with exactly paired schemas; {} typed by another version of their provider's schema ({} of them differ or do not decode), {} without a schema",
        report.documents,
        by_quality.iter().map(|(k, n)| format!("{n} {k}")).collect::<Vec<_>>().join(", "),
        report.values,
        report.implied_exact,
        report.typed_exact,
        report.typed_approximate,
        report.approximate_differ,
        report.untyped,
    );
    for (i, (document, value, reason)) in KNOWN_DIFFERENCES.iter().enumerate() {
        let found: Vec<&String> = report
            .known
            .iter()
            .filter(|(k, _)| *k == i)
            .map(|(_, m)| m)
            .collect();
        if found.is_empty() {
            report.failures.push(format!(
                "{document}: {value}: expected to differ ({reason}), but reads back"
            ));
        }
        eprintln!("known: {document} ({} values): {reason}", found.len());
        for message in found {
            eprintln!("    {}", message.lines().next().unwrap_or_default());
        }
    }
    if std::env::var_os("CTYWIRE_CORPUS_NOTES").is_some() {
        for note in &report.notes {
            eprintln!("note: {note}");
        }
    }
    assert!(
        report.failures.is_empty(),
        "{} failures:\n{}",
        report.failures.len(),
        report.failures.join("\n")
    );
}

/// Every schema dump of the corpus, written back as `providers schema -json` writes it,
/// reads back as the same schemas.
#[test]
fn every_schema_dump_writes_back_as_it_was_read() {
    let Some(dir) = corpus() else {
        skipped("no real-world corpus (not committed; CTYWIRE_REALWORLD names its directory)");
        return;
    };
    let files: Vec<_> = schema_files(&dir).iter().collect();
    assert!(!files.is_empty());
    // On every core: each dump is written and read again on its own.
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let files = &files;
                scope.spawn(move || {
                    let mut failures = Vec::new();
                    for (file, read) in files.iter().skip(t).step_by(threads) {
                        match ProviderSchemas::from_json(&read.to_json()) {
                            Err(e) => failures.push(format!("{file} written back: {e}")),
                            Ok(again) if again != **read => failures
                                .push(format!("{file}: the schemas written back read differently")),
                            Ok(_) => {}
                        }
                    }
                    failures
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a schema dump is written back"))
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{} schema dumps written back", files.len());
}

/// Says on the terminal that this test skipped, and why: written to the process's
/// standard error past the test harness's capture, so `cargo test` shows it beside the
/// test's `ok` instead of hiding it.
pub fn skipped(why: &str) {
    use std::io::Write;
    let test = std::thread::current().name().unwrap_or("a test").to_owned();
    let _ = writeln!(std::io::stderr().lock(), "{test}: skipped: {why}");
}
