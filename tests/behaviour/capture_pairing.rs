//! Capture directories as concurrent calls leave them: a generator takes a set of
//! `PlanResourceChange` and `ApplyResourceChange` calls, gives them times that collide,
//! writes their files in an interleaved order (a message's files in one millisecond or
//! across a millisecond's end), and keeps the last writer's file of each name, as two
//! calls of one RPC in one millisecond leave it. Whatever the interleaving, no call
//! [`Capture`] shows as complete holds files of two different calls: every file of it
//! holds what one generated call wrote for that field.

use std::collections::BTreeMap;

use ctywire::capture::Capture;
use ctywire::schema::ProviderSchemas;
use ctywire::{msgpack, Value};
use proptest::prelude::*;

const SCHEMA: &str = r#"{"format_version":"1.0","provider_schemas":{"example.com/gen/gen":{
  "provider":{"version":0,"block":{}},
  "resource_schemas":{"gen_thing":{"version":0,"block":{"attributes":{
    "name":{"type":"string","required":true},
    "size":{"type":"number","optional":true},
    "id":{"type":"string","computed":true}}}}}}}}"#;

/// One generated call: what it is, when it writes, and in what order.
#[derive(Clone, Debug)]
struct CallSpec {
    apply: bool,
    /// Which of a few resources: calls about the same one write the same values.
    resource: u8,
    start: u64,
    /// How many of the request's files are written in `start`; the rest in the next
    /// millisecond.
    request_split: usize,
    /// Milliseconds from the request's last file to the response's first.
    delay: u64,
    response_split: usize,
    /// Each file's place among the writes of its millisecond.
    order: Vec<u32>,
}

fn call_spec() -> impl Strategy<Value = CallSpec> {
    (
        any::<bool>(),
        0u8..4,
        0u64..8,
        0usize..6,
        0u64..3,
        0usize..3,
        proptest::collection::vec(any::<u32>(), 7),
    )
        .prop_map(
            |(apply, resource, start, request_split, delay, response_split, order)| CallSpec {
                apply,
                resource,
                start,
                request_split,
                delay,
                response_split,
                order,
            },
        )
}

/// A call's files: (message, field, extension, bytes), request first.
fn files_of(
    spec: &CallSpec,
    schemas: &ProviderSchemas,
) -> Vec<(&'static str, &'static str, &'static str, Vec<u8>)> {
    let schema = schemas.resource("gen_thing").unwrap();
    let ty = schema.implied_type();
    let name = format!("r{}", spec.resource);
    let config = Value::object([
        ("name", Value::from(name.as_str())),
        ("size", Value::from(i64::from(spec.resource))),
        ("id", Value::Null),
    ]);
    let proposed = schema.block.proposed_new(&Value::Null, &config);
    let planned = config
        .clone()
        .with_attribute("id", Value::unknown())
        .unwrap();
    let new = config
        .clone()
        .with_attribute("id", Value::from(format!("id-{name}")))
        .unwrap();
    let mp = |v: &Value| msgpack::encode(v, &ty).unwrap();
    if spec.apply {
        vec![
            ("Request", "Config", "msgpack", mp(&config)),
            ("Request", "PlannedState", "msgpack", mp(&planned)),
            ("Request", "PriorState", "msgpack", mp(&Value::Null)),
            ("Request", "ProviderMeta", "empty", vec![]),
            ("Request", "PlannedPrivate", "empty", vec![]),
            ("Response", "NewState", "msgpack", mp(&new)),
            ("Response", "Private", "empty", vec![]),
        ]
    } else {
        vec![
            ("Request", "Config", "msgpack", mp(&config)),
            ("Request", "PriorState", "msgpack", mp(&Value::Null)),
            ("Request", "ProposedNewState", "msgpack", mp(&proposed)),
            ("Request", "ProviderMeta", "empty", vec![]),
            ("Request", "PriorPrivate", "empty", vec![]),
            ("Response", "PlannedState", "msgpack", mp(&planned)),
            ("Response", "PlannedPrivate", "empty", vec![]),
        ]
    }
}

/// What each generated call wrote, by RPC, message and field; and the directory the
/// interleaved writes leave.
type Written = Vec<BTreeMap<(String, String, String), Vec<u8>>>;

fn directory(specs: &[CallSpec], schemas: &ProviderSchemas) -> (Written, Vec<(String, Vec<u8>)>) {
    // (millisecond, place, file name, bytes) of every write.
    let mut writes: Vec<(u64, u64, String, Vec<u8>)> = Vec::new();
    let mut written = Vec::new();
    for spec in specs {
        let rpc = if spec.apply {
            "ApplyResourceChange"
        } else {
            "PlanResourceChange"
        };
        let files = files_of(spec, schemas);
        let requests = files.iter().filter(|f| f.0 == "Request").count();
        let request_end = spec.start + u64::from(spec.request_split < requests);
        let response_start = request_end + spec.delay;
        let mut of_call = BTreeMap::new();
        // A call writes its files in order: within a millisecond, a later file of the
        // call comes after its earlier ones, wherever other calls' writes fall.
        let mut place = 0u64;
        let mut last_ms = 0;
        for (i, (message, field, extension, bytes)) in files.into_iter().enumerate() {
            let ms = if message == "Request" {
                spec.start + u64::from(i >= spec.request_split)
            } else {
                response_start + u64::from(i - requests >= spec.response_split)
            };
            if ms != last_ms {
                place = 0;
                last_ms = ms;
            }
            place = place.max(u64::from(spec.order[i])) + 1;
            let name = format!(
                "{}_{rpc}_{message}_{field}.{extension}",
                1_700_000_000_000 + ms
            );
            of_call.insert(
                (rpc.to_owned(), message.to_owned(), field.to_owned()),
                bytes.clone(),
            );
            writes.push((ms, place, name, bytes));
        }
        written.push(of_call);
    }
    writes.sort_by_key(|w| (w.0, w.1));
    let mut dir: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for (_, _, name, bytes) in writes {
        dir.insert(name, bytes);
    }
    (written, dir.into_iter().collect())
}

proptest! {
    #![proptest_config(crate::behaviour::proptest_config(400))]

    /// No complete call holds files of two calls: each complete call's files are what
    /// one generated call wrote, field for field.
    #[test]
    fn no_complete_call_pairs_files_of_two_calls(specs in proptest::collection::vec(call_spec(), 1..10)) {
        let schemas = ProviderSchemas::from_json(SCHEMA.as_bytes()).unwrap();
        let (written, files) = directory(&specs, &schemas);
        let capture = Capture::from_files_with_schemas(files, &schemas);
        prop_assert!(capture.problems.is_empty());
        for call in capture.calls.iter().filter(|c| c.is_complete()) {
            let one_call = written.iter().any(|of_call| {
                call.payloads.iter().all(|p| {
                    let key = (call.rpc.clone(), p.name.message.clone(), p.name.field.clone());
                    let bytes = match &p.data {
                        ctywire::capture::Data::Msgpack(b) => b.clone(),
                        _ => Vec::new(),
                    };
                    of_call.get(&key) == Some(&bytes)
                }) && call.payloads.len() == 7
            });
            prop_assert!(one_call, "{} at {} holds files of more than one call: {:?}", call.rpc, call.unix_millis(),
                call.payloads.iter().map(|p| &p.file).collect::<Vec<_>>());
        }
    }

    /// Calls that do not overlap in time are all complete, with or without schemas.
    #[test]
    fn calls_one_after_another_are_complete(specs in proptest::collection::vec(call_spec(), 1..6)) {
        let schemas = ProviderSchemas::from_json(SCHEMA.as_bytes()).unwrap();
        let mut at = 0;
        let specs: Vec<CallSpec> = specs.into_iter().map(|mut s| {
            s.start = at;
            at += 8;
            s
        }).collect();
        let (_, files) = directory(&specs, &schemas);
        let checked = Capture::from_files_with_schemas(files.clone(), &schemas);
        prop_assert_eq!(checked.summary().complete, specs.len(), "{:#?}", checked.calls);
        // Without schemas, a message split across a millisecond's end cannot be told
        // from a whole one next to a lost file's: only whole ones are sure.
        let unchecked = Capture::from_files(files);
        let whole = specs.iter().all(|s| s.request_split >= 5 && s.response_split >= 2);
        if whole {
            prop_assert_eq!(unchecked.summary().complete, specs.len());
        }
    }
}
