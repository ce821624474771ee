//! Capture directories as a Go provider on terraform-plugin-go leaves them under
//! Terraform's default `-parallelism=10`, generated with the truth of each call kept,
//! and a scorer of what [`Capture`] makes of them.
//!
//! The generator runs a whole life of `RESOURCES` resources: a plan and an apply that
//! create them, a refresh and a plan with changes, and a destroy in Terraform's three
//! walks (a refresh with a normal plan of each resource, the destroy plans, the
//! applies). Each of these phases is one of Terraform's walks, served by a provider
//! process of its own, which writes its `ConfigureProvider` request as it starts (one
//! provider configuration: one process at a time). Each call writes the fields
//! terraform-plugin-go's server writes, in its order. Ten
//! workers take the resources in turn; each call writes its request's files one after
//! the other, some tens of microseconds apart, waits, then writes its response's. Each
//! file is stamped with the millisecond it is written in (`{UnixMilli}_...`, as
//! terraform-plugin-go stamps it), so a message's files may straddle a millisecond's
//! end, and two calls of one RPC writing one field in one millisecond leave one file:
//! the later write's.
//!
//! What the default life leaves out, [`Life`] adds (`CTYWIRE_CAPTURE_LIFE` for
//! [`score_report`]): the changes applied (updates, and replacements: an update plan
//! answered with RequiresReplace, a create plan from a null state, then the destroy's
//! and the create's applies), stalls of milliseconds inside a message and before an
//! answer, and torn files (two writes of one name within microseconds, the shorter over
//! the longer's tail). With all of them a run makes as many calls of each RPC as the
//! real runs of `tests/data/capture-real/go-style-24*`, and straddles milliseconds as
//! often. The default tests run the default life, and some runs with replacements
//! applied, with all of it, and by a slow writer. Over 1,000 runs of each life (2,000
//! with the changes applied), no complete call is wrong (see `score_report`), whether
//! the grouping is told the run had one provider configuration or not.
//!
//! The scorer compares each call [`Capture`] shows with the calls the generator made:
//! a complete call is correct when every file it holds is what one generated call
//! wrote for that field and it holds all of that call's files; otherwise wrong.
//! A generated call "survived" when every one of its files is in the directory with
//! its bytes.

use std::collections::BTreeMap;

use ctywire::capture::{Capture, Data};
use ctywire::schema::{Client, ProviderSchemas};
use ctywire::{msgpack, Value};

pub(crate) const SCHEMA: &str = r#"{"format_version":"1.0","provider_schemas":{"example.com/gen/gen":{
  "provider":{"version":0,"block":{}},
  "resource_schemas":{"gen_thing":{"version":0,"block":{"attributes":{
    "name":{"type":"string","required":true},
    "size":{"type":"number","optional":true},
    "id":{"type":"string","computed":true}}}}}}}}"#;

const RESOURCES: usize = 24;

/// A small deterministic generator of numbers (xorshift), so each run is repeatable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One generated call: its RPC and each file it writes, (message, field, extension,
/// bytes), in the order it writes them.
pub(crate) struct Truth {
    pub rpc: &'static str,
    pub files: Vec<(&'static str, &'static str, &'static str, Vec<u8>)>,
    /// The name each file was written under.
    pub names: Vec<String>,
    /// The phase of the run the call was made in (0: the first plan).
    pub phase: usize,
}

/// A generated capture directory: the calls made, and the files left.
pub(crate) struct Run {
    pub calls: Vec<Truth>,
    pub files: Vec<(String, Vec<u8>)>,
}

fn plan(prior: &Value, config: &Value, schemas: &ProviderSchemas) -> Truth {
    let schema = schemas.resource("gen_thing").unwrap();
    let ty = schema.implied_type();
    let mp = |v: &Value| msgpack::encode(v, &ty).unwrap();
    // A destroy: Terraform proposes null, with a null configuration.
    let proposed = if config.is_null() {
        Value::Null
    } else {
        schema.block.proposed_new(prior, config)
    };
    let planned = if config.is_null() {
        Value::Null
    } else if prior.is_null() {
        proposed
            .clone()
            .with_attribute("id", Value::unknown())
            .unwrap()
    } else {
        proposed.clone()
    };
    Truth {
        rpc: "PlanResourceChange",
        files: vec![
            ("Request", "Config", "msgpack", mp(config)),
            ("Request", "PriorState", "msgpack", mp(prior)),
            ("Request", "ProposedNewState", "msgpack", mp(&proposed)),
            ("Request", "ProviderMeta", "empty", vec![]),
            ("Request", "PriorPrivate", "empty", vec![]),
            ("Response", "PlannedState", "msgpack", mp(&planned)),
            ("Response", "PlannedPrivate", "empty", vec![]),
        ],
        names: Vec::new(),
        phase: 0,
    }
}

fn apply(prior: &Value, config: &Value, schemas: &ProviderSchemas, id: &str) -> (Truth, Value) {
    let schema = schemas.resource("gen_thing").unwrap();
    let ty = schema.implied_type();
    let mp = |v: &Value| msgpack::encode(v, &ty).unwrap();
    let proposed = schema.block.proposed_new(prior, config);
    let (planned, new) = if config.is_null() {
        (Value::Null, Value::Null)
    } else if prior.is_null() {
        (
            proposed
                .clone()
                .with_attribute("id", Value::unknown())
                .unwrap(),
            proposed.with_attribute("id", Value::from(id)).unwrap(),
        )
    } else {
        (proposed.clone(), proposed)
    };
    let truth = Truth {
        rpc: "ApplyResourceChange",
        files: vec![
            ("Request", "Config", "msgpack", mp(config)),
            ("Request", "PlannedState", "msgpack", mp(&planned)),
            ("Request", "PriorState", "msgpack", mp(prior)),
            ("Request", "ProviderMeta", "empty", vec![]),
            ("Request", "PlannedPrivate", "empty", vec![]),
            ("Response", "NewState", "msgpack", mp(&new)),
            ("Response", "Private", "empty", vec![]),
        ],
        names: Vec::new(),
        phase: 0,
    };
    (truth, new)
}

fn read(state: &Value, schemas: &ProviderSchemas) -> Truth {
    let ty = schemas.resource("gen_thing").unwrap().implied_type();
    let mp = |v: &Value| msgpack::encode(v, &ty).unwrap();
    Truth {
        rpc: "ReadResource",
        files: vec![
            ("Request", "CurrentState", "msgpack", mp(state)),
            ("Request", "ProviderMeta", "empty", vec![]),
            ("Request", "Private", "empty", vec![]),
            ("Response", "NewState", "msgpack", mp(state)),
            ("Response", "Private", "empty", vec![]),
        ],
        names: Vec::new(),
        phase: 0,
    }
}

/// Each resource's calls of one phase, made one after the other by one worker.
type Phase = Vec<Vec<Truth>>;

/// A generated run of `resources` resources with `parallelism` workers, from `seed`;
/// with `private`, each resource's private data its own (`r7`), where the provider
/// otherwise keeps none.
pub(crate) fn run_with(seed: u64, parallelism: usize, resources: usize, private: bool) -> Run {
    run_life(seed, parallelism, resources, private, Life::from_env())
}

/// What a generated run holds beyond the default life (the plan with changes not
/// applied, every file written whole, no stalls), as the real runs of
/// `tests/data/capture-real/go-style-24*` show.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Life {
    /// The plan with changes is applied: a third of the resources updated, a third
    /// unchanged, and (with `replacements`) a third replaced.
    pub apply: bool,
    /// A third of the resources replaced in the change (else updated).
    pub replacements: bool,
    /// Stalls of milliseconds between a message's files and before some answers.
    pub stalls: bool,
    /// Two writes of one name within microseconds tear: the later, shorter value over
    /// the earlier one's tail.
    pub tears: bool,
    /// A slow writer: each file's write takes about a millisecond (as the live runs
    /// show on a loaded machine), so a message's files straddle several milliseconds'
    /// ends. Not part of `all` (the committed real runs wrote faster). The grouping
    /// takes the span a message's files straddle from the directory (five or six
    /// milliseconds here).
    pub slow: bool,
}

impl Life {
    /// `CTYWIRE_CAPTURE_LIFE`: any of `apply`, `replace`, `stall`, `tear` (`all`: every
    /// one), and `slow`; none by default.
    fn from_env() -> Life {
        let life = std::env::var("CTYWIRE_CAPTURE_LIFE").unwrap_or_default();
        let has = |word: &str| life.split(',').any(|w| w == word || w == "all");
        Life {
            apply: has("apply") || has("replace"),
            replacements: has("replace"),
            stalls: has("stall"),
            tears: has("tear"),
            slow: life.split(',').any(|w| w == "slow"),
        }
    }
}

/// [`run_with`] with the life `life`.
pub(crate) fn run_life(
    seed: u64,
    parallelism: usize,
    resources: usize,
    private: bool,
    life: Life,
) -> Run {
    let schemas = ProviderSchemas::from_json(SCHEMA.as_bytes()).unwrap();
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let config = |r: usize, size: i64| {
        Value::object([
            ("name", Value::from(format!("thing-{r}"))),
            ("size", Value::from(size)),
            ("id", Value::Null),
        ])
    };
    let config_named = |r: usize, size: i64| {
        Value::object([
            ("name", Value::from(format!("thing-{r}-b"))),
            ("size", Value::from(size)),
            ("id", Value::Null),
        ])
    };
    let mut phases: Vec<Phase> = Vec::new();
    // Plan, then apply (which plans again), creating each resource.
    phases.push(
        (0..resources)
            .map(|r| vec![plan(&Value::Null, &config(r, 1), &schemas)])
            .collect(),
    );
    let mut states = Vec::new();
    phases.push(
        (0..resources)
            .map(|r| {
                let (applied, new) =
                    apply(&Value::Null, &config(r, 1), &schemas, &format!("id-{r}"));
                states.push(new);
                vec![plan(&Value::Null, &config(r, 1), &schemas), applied]
            })
            .collect(),
    );
    // A third of the resources change size (an update), a third their name (a
    // replacement: Terraform plans an update the provider answers with RequiresReplace,
    // then a create from a null state), a third nothing.
    // Without `apply`, every other resource changes size (an update), as before.
    let change = |r: usize| match r % 3 {
        _ if !life.apply => 2 * (r % 2),
        1 if !life.replacements => 0,
        c => c,
    };
    let changed = |r: usize| match change(r) {
        0 => config(r, 2),
        1 => config_named(r, 1),
        _ => config(r, 1),
    };
    // Refresh, and the plan with the changes.
    phases.push(
        (0..resources)
            .map(|r| {
                let mut chain = vec![
                    read(&states[r], &schemas),
                    plan(&states[r], &changed(r), &schemas),
                ];
                if change(r) == 1 {
                    chain.push(plan(&Value::Null, &changed(r), &schemas));
                }
                chain
            })
            .collect(),
    );
    // The apply of that plan: an update plans again and applies; a replacement applies
    // the destroy, then plans and applies the create; an unchanged resource has no call.
    if life.apply {
        phases.push(
            (0..resources)
                .map(|r| match change(r) {
                    0 => {
                        let (applied, new) = apply(&states[r], &changed(r), &schemas, "");
                        let chain = vec![plan(&states[r], &changed(r), &schemas), applied];
                        states[r] = new;
                        chain
                    }
                    1 => {
                        let destroyed = apply(&states[r], &Value::Null, &schemas, "").0;
                        let (created, new) =
                            apply(&Value::Null, &changed(r), &schemas, &format!("id-{r}-b"));
                        states[r] = new;
                        vec![
                            destroyed,
                            plan(&Value::Null, &changed(r), &schemas),
                            created,
                        ]
                    }
                    _ => Vec::new(),
                })
                .collect(),
        );
    }
    // Destroy, in Terraform's three walks: a refresh that plans as a normal plan does
    // (each resource refreshed, then planned against the configuration: no changes
    // now), the destroy plan (null), then the applies.
    phases.push(
        (0..resources)
            .map(|r| {
                vec![
                    read(&states[r], &schemas),
                    plan(&states[r], &changed(r), &schemas),
                ]
            })
            .collect(),
    );
    phases.push(
        (0..resources)
            .map(|r| vec![plan(&states[r], &Value::Null, &schemas)])
            .collect(),
    );
    phases.push(
        (0..resources)
            .map(|r| vec![apply(&states[r], &Value::Null, &schemas, "").0])
            .collect(),
    );
    if private {
        for phase in &mut phases {
            for (r, chain) in phase.iter_mut().enumerate() {
                for truth in chain {
                    for file in &mut truth.files {
                        if file.1.ends_with("Private") {
                            file.2 = "";
                            file.3 = format!("r{r}").into_bytes();
                        }
                    }
                }
            }
        }
    }
    // Writes: (microsecond, call, file index).
    let mut writes: Vec<(u64, usize, usize)> = Vec::new();
    let mut calls: Vec<Truth> = Vec::new();
    let mut now = 1_700_000_000_000_000u64 + rng.below(1000);
    // Each phase is one of Terraform's walks, served by a process of its own,
    // configured as it starts (one provider configuration: one process at a time).
    let mut configured = Vec::new();
    for (number, phase) in phases.into_iter().enumerate() {
        configured.push(now / 1000);
        let mut free = vec![now; parallelism];
        // Terraform hands the provider one call at a time, at about one a millisecond
        // (as the real runs of `tests/data/capture-real` show): a worker starts its
        // resource no sooner than that after the last one started.
        let mut dispatched = now;
        for chain in phase {
            // The worker free first takes the next resource.
            let w = (0..parallelism).min_by_key(|&w| free[w]).unwrap();
            let mut t = free[w].max(dispatched) + 20 + rng.below(400);
            dispatched = t + 300 + rng.below(1000);
            for mut truth in chain {
                truth.phase = number;
                let index = calls.len();
                let requests = truth.files.iter().filter(|f| f.0 == "Request").count();
                for i in 0..truth.files.len() {
                    if i == requests {
                        // The provider's work between request and response; now and
                        // then some milliseconds (in the real runs one answer in ten
                        // comes 2 to 9 ms after its request's last file).
                        t += 100 + rng.below(1500);
                        if life.stalls && rng.below(25) == 0 {
                            t += 1000 + rng.below(8000);
                        }
                    } else if life.stalls && i > 0 && rng.below(100) == 0 {
                        // A stall between two files of one message: the real runs'
                        // messages straddle two or more milliseconds' ends now and then
                        // (a few in a hundred).
                        t += 1000 + rng.below(5000);
                    }
                    writes.push((t, index, i));
                    t += match life.slow {
                        true => 700 + rng.below(600),
                        false => 10 + rng.below(120),
                    };
                }
                calls.push(truth);
                // Terraform's work between one resource's calls.
                t += 50 + rng.below(800);
            }
            free[w] = t;
        }
        now = free.into_iter().max().unwrap() + 1000;
    }
    writes.sort();
    let mut dir: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    // When each name was last written: a write of one name that starts while the last
    // is still under way (within `TEAR` microseconds) writes in place over it, and a
    // shorter value leaves the longer one's tail (a torn file, as the real runs show).
    const TEAR: u64 = 25;
    let mut written: BTreeMap<String, u64> = BTreeMap::new();
    for (us, call, i) in writes {
        let truth = &mut calls[call];
        let (message, field, extension, bytes) = &truth.files[i];
        let dot = if extension.is_empty() { "" } else { "." };
        let name = format!(
            "{}_{}_{message}_{field}{dot}{extension}",
            us / 1000,
            truth.rpc
        );
        let mut bytes = bytes.clone();
        if let (true, Some(&last), Some(earlier)) = (life.tears, written.get(&name), dir.get(&name))
        {
            if us - last < TEAR && bytes.len() < earlier.len() {
                bytes.extend_from_slice(&earlier[bytes.len()..]);
            }
        }
        written.insert(name.clone(), us);
        dir.insert(name.clone(), bytes);
        truth.names.push(name);
    }
    for ms in configured {
        dir.insert(
            format!("{ms}_ConfigureProvider_Request_Config.msgpack"),
            vec![0x80],
        );
    }
    Run {
        calls,
        files: dir.into_iter().collect(),
    }
}

/// What the scorer counts.
#[derive(Debug, Default)]
pub(crate) struct Score {
    /// Generated calls whose every file is in the directory.
    pub survived: usize,
    /// Of those, how many a complete call shows rightly; and of those of the RPCs that
    /// need pairing (plan, apply, read: all of the generated ones).
    pub correct: usize,
    /// Complete calls that are no one generated call.
    pub wrong: usize,
    /// Calls shown as ambiguous.
    pub ambiguous: usize,
    /// Calls shown as incomplete.
    pub incomplete: usize,
    /// Calls shown as possibly mixed.
    pub mixed: usize,
    /// The files of each complete call that is wrong.
    pub wrong_calls: Vec<Vec<String>>,
    /// By RPC: calls that survived, and complete calls that are correct.
    pub by_rpc: BTreeMap<&'static str, (usize, usize)>,
}

fn bytes(data: &Data) -> &[u8] {
    match data {
        Data::Msgpack(b) | Data::Json(b) | Data::Private(b) => b,
        Data::Empty => &[],
    }
}

/// What a call shows: each file's message, field and bytes, sorted.
type Fields = Vec<(String, String, Vec<u8>)>;

/// Scores what `capture` makes of `run`.
pub(crate) fn score(run: &Run, capture: &Capture) -> Score {
    let dir: BTreeMap<&str, &[u8]> = run
        .files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let mut score = Score::default();
    // The generated calls whose files all survived, by their files' names: a complete
    // call with exactly these names and bytes, or with the bytes of one such call, is
    // correct. Values are what a call shows, so a call whose files carry another's
    // identical bytes shows the right values.
    let fields = |t: &Truth| -> Fields {
        let mut v: Vec<_> = t
            .files
            .iter()
            .map(|(m, f, _, b)| (m.to_string(), f.to_string(), b.clone()))
            .collect();
        v.sort();
        v
    };
    let mut generated: Vec<(&'static str, Fields)> = Vec::new();
    for truth in &run.calls {
        let names = truth
            .files
            .iter()
            .zip(&truth.names)
            .all(|((.., b), name)| dir.get(name.as_str()) == Some(&b.as_slice()));
        if names {
            score.survived += 1;
            score.by_rpc.entry(truth.rpc).or_default().0 += 1;
        }
        generated.push((truth.rpc, fields(truth)));
    }
    // Each generated call's value set, with how many of them there are: a complete
    // call rightly shows one, and as many complete calls may show it as there were.
    let mut left: BTreeMap<(&str, Fields), usize> = BTreeMap::new();
    for s in generated {
        *left.entry(s).or_default() += 1;
    }
    // (The walks' `ConfigureProvider` calls are no generated call's.)
    for call in capture
        .calls
        .iter()
        .filter(|c| c.rpc != "ConfigureProvider")
    {
        match &call.status {
            ctywire::capture::Status::Complete => {
                let mut got: Fields = call
                    .payloads
                    .iter()
                    .map(|p| {
                        (
                            p.name.message.clone(),
                            p.name.field.clone(),
                            bytes(&p.data).to_vec(),
                        )
                    })
                    .collect();
                got.sort();
                let rpc: &'static str = match call.rpc.as_str() {
                    "PlanResourceChange" => "PlanResourceChange",
                    "ApplyResourceChange" => "ApplyResourceChange",
                    _ => "ReadResource",
                };
                match left.get_mut(&(rpc, got)) {
                    Some(n) if *n > 0 => {
                        *n -= 1;
                        score.correct += 1;
                        score.by_rpc.entry(rpc).or_default().1 += 1;
                    }
                    _ => {
                        score.wrong += 1;
                        score.wrong_calls.push(
                            call.payloads
                                .iter()
                                .map(|p| p.file.clone())
                                .chain(call.explain.iter().cloned())
                                .collect(),
                        );
                    }
                }
            }
            ctywire::capture::Status::Ambiguous { .. } => score.ambiguous += 1,
            ctywire::capture::Status::PossiblyMixed { .. } => score.mixed += 1,
            _ => score.incomplete += 1,
        }
    }
    score
}

/// [`score`], asserting that no complete call is wrong (`what` names the run).
fn score_none_wrong(run: &Run, capture: &Capture, what: std::fmt::Arguments<'_>) -> Score {
    let score = score(run, capture);
    assert_eq!(score.wrong, 0, "{what}: {:?}", score.wrong_calls);
    score
}

/// What [`Capture`] makes of a generated run's files, with `schemas`: knowing the run
/// had one provider configuration ([`Run::one_configuration`]) where
/// `CTYWIRE_CAPTURE_ONE_CONFIGURATION` is set.
fn grouped(run: &Run, schemas: &ProviderSchemas) -> Capture {
    let known = match std::env::var_os("CTYWIRE_CAPTURE_ONE_CONFIGURATION") {
        Some(_) => ctywire::capture::Run::of_one_configuration(),
        None => ctywire::capture::Run::default(),
    };
    Capture::from_files_for_run(run.files.clone(), schemas, Client::default(), known)
}

/// Scores `seeds` generated runs at `parallelism`: (calls whose files survived, of
/// them complete and correct, complete calls that are wrong).
fn score_runs(seeds: u64, parallelism: usize) -> (usize, usize, usize) {
    let (survived, correct, wrong, _) = score_runs_with(1..=seeds, parallelism, false);
    (survived, correct, wrong)
}

/// [`score_runs`], with each resource's own private data when `private`; and how many
/// calls are possibly mixed.
fn score_runs_with(
    seeds: impl IntoIterator<Item = u64>,
    parallelism: usize,
    private: bool,
) -> (usize, usize, usize, usize) {
    let schemas = ProviderSchemas::from_json(SCHEMA.as_bytes()).unwrap();
    let (mut survived, mut correct, mut wrong, mut mixed) = (0, 0, 0, 0);
    for seed in seeds {
        let run = run_with(seed, parallelism, RESOURCES, private);
        let capture = grouped(&run, &schemas);
        assert!(capture.problems.is_empty());
        let score = score(&run, &capture);
        assert_eq!(
            score.correct + score.wrong + score.ambiguous + score.incomplete + score.mixed,
            capture
                .calls
                .iter()
                .filter(|c| c.rpc != "ConfigureProvider")
                .count(),
            "seed {seed}: every call shown once"
        );
        survived += score.survived;
        correct += score.correct;
        wrong += score.wrong;
        mixed += capture.summary().possibly_mixed;
    }
    (survived, correct, wrong, mixed)
}

/// One call at a time (`-parallelism=1`): every call whose files survived is complete
/// and correct but for a few whose messages straddle a millisecond next to another's,
/// and none is wrong.
#[test]
fn calls_one_at_a_time_are_paired_right() {
    let (survived, correct, wrong) = score_runs(20, 1);
    assert!(survived > 3000, "{survived}");
    assert_eq!(wrong, 0);
    assert!(correct * 100 >= survived * 99, "{correct} of {survived}");
}

/// Terraform's default `-parallelism=10`: more than nine in ten of the calls whose files
/// survived are complete and correct (97.6% over 1,000 runs), and no complete call is
/// wrong. Two calls whose
/// every file of a message shares its millisecond and its names leave no trace of the
/// hidden one; a request whose own response such an overwrite lost, paired with the
/// response of a request another overwrite hid, is possibly mixed: an apply after it
/// carries another plan for it, request files in doubt proposed what the response
/// plans, or only the times paired them.
///
/// 50 runs by default (97.6%); CI runs 200 (`CTYWIRE_CAPTURE_SEEDS=200` in `.ci/run`,
/// 97.5%). One in twelve of them (5 by default) runs again with the changes applied and
/// replacements (`CTYWIRE_CAPTURE_LIFE=replace`), again with all of the real runs' life
/// (`CTYWIRE_CAPTURE_LIFE=all`: stalls and torn files too), and again by a slow writer
/// (`CTYWIRE_CAPTURE_LIFE=slow`: a millisecond a file, so a request's files span four
/// or five).
#[test]
fn parallel_calls_are_mostly_paired_and_never_wrong() {
    let seeds = std::env::var("CTYWIRE_CAPTURE_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(50);
    let (survived, correct, wrong) = score_runs(seeds, 10);
    assert!(survived as u64 > seeds * 100, "{survived} of {seeds} runs");
    assert!(correct * 100 >= survived * 96, "{correct} of {survived}");
    assert_eq!(wrong, 0, "{wrong} wrong, {correct} correct");
    // The changes applied, with replacements, on one run in twelve (the first ones):
    // fewer calls complete (86.1% on the default 5 runs; 86.7% over 1,000), none wrong;
    // with stalls and torn files too, 85.6% (86.9% over 1,000 runs); by a slow writer,
    // 93.0% (94.4% over 1,000 runs).
    let replace = Life {
        apply: true,
        replacements: true,
        ..Life::default()
    };
    let all = Life {
        stalls: true,
        tears: true,
        ..replace
    };
    let slow = Life {
        slow: true,
        ..Life::default()
    };
    let schemas = ProviderSchemas::from_json(SCHEMA.as_bytes()).unwrap();
    for (life, floor) in [(replace, 83), (all, 81), (slow, 90)] {
        let (mut survived, mut correct) = (0, 0);
        for seed in 1..=seeds.div_ceil(12) {
            let run = run_life(seed, 10, RESOURCES, false, life);
            let capture = Capture::from_files_with_schemas(run.files.clone(), &schemas);
            let score = score_none_wrong(&run, &capture, format_args!("{life:?} seed {seed}"));
            survived += score.survived;
            correct += score.correct;
        }
        assert!(
            correct * 100 >= survived * floor,
            "{life:?}: {correct} of {survived}"
        );
    }
}

/// Told that the run had one provider configuration (each of the generator's phases is
/// a walk with a process of its own, configured as it starts), the grouping pairs no
/// request with an answer written after the next process was configured: more calls
/// are complete (98.9% over the 30 runs here, 99.0% over 1,000 runs of the default
/// life, where it is 97.6% untold; with the changes applied 95.8%, replacements 88.0%,
/// all of the real runs' life 88.1%, a slow writer 95.6%), and none is wrong.
#[test]
fn one_configuration_pairs_more_calls_and_never_wrongly() {
    let schemas = ProviderSchemas::from_json(SCHEMA.as_bytes()).unwrap();
    let one = ctywire::capture::Run::of_one_configuration();
    let replace = Life {
        apply: true,
        replacements: true,
        ..Life::default()
    };
    for (life, seeds, floor) in [(Life::default(), 1..=30, 98), (replace, 1..=5, 85)] {
        let (mut survived, mut correct, mut untold) = (0, 0, 0);
        for seed in seeds {
            let run = run_life(seed, 10, RESOURCES, false, life);
            let told =
                Capture::from_files_for_run(run.files.clone(), &schemas, Client::default(), one);
            let score_told = score_none_wrong(&run, &told, format_args!("{life:?} seed {seed}"));
            survived += score_told.survived;
            correct += score_told.correct;
            untold += score(
                &run,
                &Capture::from_files_with_schemas(run.files.clone(), &schemas),
            )
            .correct;
        }
        assert!(
            correct > untold,
            "{life:?}: {correct} told, {untold} untold"
        );
        assert!(
            correct * 100 >= survived * floor,
            "{life:?}: {correct} of {survived}"
        );
    }
}

/// The generator with every part of the life the real runs show
/// (`tests/data/capture-real/go-style-24*`: 24 resources, the changes applied with 8
/// updates and 8 replacements): as many calls of each RPC as those runs' truth logs
/// hold, messages that straddle two milliseconds' ends, answers some milliseconds after
/// their requests, and torn files.
#[test]
fn the_generator_makes_what_real_runs_show() {
    let life = Life {
        apply: true,
        replacements: true,
        stalls: true,
        tears: true,
        slow: false,
    };
    let (mut straddled, mut late, mut torn) = (0, 0, 0);
    for seed in 1..=20 {
        let run = run_life(seed, 10, RESOURCES, false, life);
        let mut by_rpc: BTreeMap<&str, usize> = BTreeMap::new();
        for truth in &run.calls {
            *by_rpc.entry(truth.rpc).or_default() += 1;
            let ms = |message: &str| -> Vec<u64> {
                truth
                    .files
                    .iter()
                    .zip(&truth.names)
                    .filter(|(f, _)| f.0 == message)
                    .map(|(_, n)| n.split('_').next().unwrap().parse().unwrap())
                    .collect()
            };
            let (request, response) = (ms("Request"), ms("Response"));
            let first = request.iter().min().unwrap();
            let last = request.iter().max().unwrap();
            straddled += usize::from(last - first >= 2);
            late += usize::from(response.iter().max().unwrap() - last >= 4);
        }
        assert_eq!(
            by_rpc,
            BTreeMap::from([
                ("ApplyResourceChange", 72),
                ("PlanResourceChange", 144),
                ("ReadResource", 48),
            ])
        );
        torn += run
            .files
            .iter()
            .filter(|(name, bytes)| {
                ctywire::capture::Payload::new(name.clone(), bytes.clone())
                    .unwrap()
                    .torn()
                    .is_some()
            })
            .count();
    }
    // 20 runs of 264 calls: a few in a hundred straddle two milliseconds' ends (as in
    // the real runs; a message written without a stall spans at most one), some answers
    // come 4 ms or more after their request (only a stall makes that), and some runs
    // have a torn file.
    assert!((80..300).contains(&straddled), "{straddled}");
    assert!((40..400).contains(&late), "{late}");
    assert!(torn > 0, "{torn}");
}

/// Private data of each resource's own (bound to no other value): calls whose private
/// data was written within the span of another call's message of the RPC are possibly
/// mixed, not complete, and no complete call is wrong. (At `-parallelism=10` the calls
/// are then left open, none of 2,363 over 20 runs complete: the private files near a
/// message cannot be told apart.)
#[test]
fn private_data_that_differs_makes_calls_possibly_mixed() {
    let (_, _, wrong, mixed) = score_runs_with(1..=20, 10, true);
    assert!(mixed > 0, "{mixed}");
    assert_eq!(wrong, 0);
    // Seed 62 hides a plan whole behind another's names, in both its messages'
    // milliseconds, and that one's response shows the hidden one's private data: only
    // the refresh before the hidden plan shows it, and the call is possibly mixed.
    // Seeds 109 and 145 do the same to an apply and a plan.
    let (_, _, wrong, mixed) = score_runs_with([62, 109, 145], 10, true);
    assert!(mixed > 0, "{mixed}");
    assert_eq!(wrong, 0);
    // One call at a time: Terraform sends the next call about a millisecond after the
    // last answer, within the span (two milliseconds on this quick writer), so a call
    // whose private data differs is possibly mixed where the next one of its RPC
    // starts that soon (a third of them; fewer than one in ten with the one millisecond
    // the grouping took before the span followed the writer). About half are
    // complete and correct (49.8% of 1,078 calls; 50.2% over 300 runs), none wrong.
    let (survived, correct, wrong, mixed) = score_runs_with(1..=5, 1, true);
    assert_eq!(wrong, 0);
    assert!(mixed * 2 < survived, "{mixed} of {survived}");
    assert!(correct * 100 >= survived * 45, "{correct} of {survived}");
}

/// The scorer's figures, for measuring a change of the grouping (not run by default):
/// `CTYWIRE_CAPTURE_SEEDS=1000 cargo test --test suite behaviour::capture_runs::score_report
/// -- --ignored --nocapture` prints, at `-parallelism=10` (or
/// `CTYWIRE_CAPTURE_PARALLELISM`; each resource's own private data with
/// `CTYWIRE_CAPTURE_PRIVATE`), the calls that survived, how many are complete and
/// correct, and each complete call that is wrong (and fails if there is one).
/// `CTYWIRE_CAPTURE_LIFE` adds parts of a real run's life ([`Life`]: `apply`,
/// `replace`, `stall`, `tear`, or `all`, comma-separated; `slow` a slow writer).
/// `CTYWIRE_CAPTURE_ONE_CONFIGURATION` groups knowing the run had one provider
/// configuration. `CTYWIRE_CAPTURE_FROM` names the first seed; `CTYWIRE_CAPTURE_DUMP` a directory to
/// write the first run's files into (for `ctywire capture --explain`), and
/// `CTYWIRE_CAPTURE_EXPLAIN` prints why each of its calls that is not complete is not.
#[test]
#[ignore]
fn score_report() {
    let number = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    };
    let seeds = number("CTYWIRE_CAPTURE_SEEDS", 100);
    let from = number("CTYWIRE_CAPTURE_FROM", 1);
    let parallelism = number("CTYWIRE_CAPTURE_PARALLELISM", 10) as usize;
    let private = std::env::var_os("CTYWIRE_CAPTURE_PRIVATE").is_some();
    let schemas = ProviderSchemas::from_json(SCHEMA.as_bytes()).unwrap();
    let mut total = Score::default();
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut torn = 0;
    for seed in from..from + seeds {
        let run = run_with(seed, parallelism, RESOURCES, private);
        if let (Some(dir), true) = (std::env::var_os("CTYWIRE_CAPTURE_DUMP"), seed == from) {
            let dir = std::path::PathBuf::from(dir);
            std::fs::create_dir_all(&dir).unwrap();
            for (name, bytes) in &run.files {
                std::fs::write(dir.join(name), bytes).unwrap();
            }
        }
        torn += run
            .files
            .iter()
            .filter_map(|(name, bytes)| {
                ctywire::capture::Payload::new(name.clone(), bytes.clone()).ok()
            })
            .filter(|p| p.torn().is_some())
            .count();
        let capture = grouped(&run, &schemas);
        for call in &capture.calls {
            let side = match call.payloads.iter().all(|p| p.name.is_request()) {
                true => "request only",
                false if call.payloads.iter().all(|p| !p.name.is_request()) => "response only",
                false => "paired",
            };
            let (status, reason) = match &call.status {
                ctywire::capture::Status::Complete => ("complete", String::new()),
                ctywire::capture::Status::Ambiguous { candidates } => (
                    "ambiguous",
                    format!("{} candidates", candidates.len().min(3)),
                ),
                ctywire::capture::Status::PossiblyMixed { reason } => {
                    ("possibly mixed", reason.chars().take(60).collect())
                }
                ctywire::capture::Status::Incomplete { reason, .. } => {
                    ("incomplete", reason.chars().take(60).collect())
                }
                _ => ("other", String::new()),
            };
            *kinds
                .entry(format!("{} {side} {status}: {reason}", call.rpc))
                .or_default() += 1;
        }
        if seed == from && std::env::var_os("CTYWIRE_CAPTURE_EXPLAIN").is_some() {
            for call in capture.calls.iter().filter(|c| !c.is_complete()) {
                eprintln!(
                    "{} {}: {:?}",
                    call.rpc,
                    call.status,
                    call.payloads.iter().map(|p| &p.file).collect::<Vec<_>>()
                );
                for line in &call.explain {
                    eprintln!("    {line}");
                }
            }
            for (n, truth) in run.calls.iter().enumerate() {
                eprintln!("truth {n} {}: {:?}", truth.rpc, truth.names);
            }
        }
        // Each survived call that no complete call shows by its names: what the call
        // holding its first request file is.
        let dir: BTreeMap<&str, &[u8]> = run
            .files
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice()))
            .collect();
        for truth in &run.calls {
            let phase = truth.phase;
            let survived = truth
                .files
                .iter()
                .zip(&truth.names)
                .all(|((.., b), name)| dir.get(name.as_str()) == Some(&b.as_slice()));
            if !survived {
                continue;
            }
            let holder = capture
                .calls
                .iter()
                .find(|c| c.payloads.iter().any(|p| p.file == truth.names[0]));
            let Some(holder) = holder else { continue };
            let mut mine = truth.names.clone();
            mine.sort();
            let mut held: Vec<String> = holder.payloads.iter().map(|p| p.file.clone()).collect();
            held.sort();
            if holder.is_complete() && held == mine {
                continue;
            }
            if seed == from && std::env::var_os("CTYWIRE_CAPTURE_LOST").is_some() {
                eprintln!("lost (phase {phase}) {:?}: {}", truth.names, holder.status);
                for line in &holder.explain {
                    eprintln!("    {line}");
                }
            }
            let what = match &holder.status {
                ctywire::capture::Status::Complete => "complete with other files".to_owned(),
                other => other.to_string().chars().take(70).collect(),
            };
            *kinds
                .entry(format!(
                    "LOST {} (phase {phase}) {} files: {what}",
                    truth.rpc,
                    held.len()
                ))
                .or_default() += 1;
        }
        let score = score(&run, &capture);
        for files in &score.wrong_calls {
            eprintln!("seed {seed}: wrong {files:?}");
        }
        total.survived += score.survived;
        total.correct += score.correct;
        total.wrong += score.wrong;
        total.ambiguous += score.ambiguous;
        total.incomplete += score.incomplete;
        total.mixed += score.mixed;
        for (rpc, (s, c)) in score.by_rpc {
            let e = total.by_rpc.entry(rpc).or_default();
            e.0 += s;
            e.1 += c;
        }
    }
    eprintln!("by RPC (survived, correct): {:?}", total.by_rpc);
    eprintln!(
        "{seeds} runs at parallelism {parallelism}: {} calls survived, {} complete and \
         correct ({:.1}%), {} wrong; shown ambiguous {}, incomplete {}, possibly mixed {}; \
         {torn} torn files",
        total.survived,
        total.correct,
        total.correct as f64 * 100.0 / total.survived.max(1) as f64,
        total.wrong,
        total.ambiguous,
        total.incomplete,
        total.mixed
    );
    for (kind, n) in &kinds {
        eprintln!("{n:>7} {kind}");
    }
    assert_eq!(total.wrong, 0);
}
