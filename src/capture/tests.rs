use super::*;

fn file(name: &str) -> (String, Vec<u8>) {
    let bytes = match name.rsplit_once('.') {
        Some((_, "msgpack")) => vec![0xc0],
        Some((_, "json")) => b"null".to_vec(),
        Some(_) => Vec::new(),
        None => b"{}".to_vec(),
    };
    (name.to_owned(), bytes)
}

/// The calls of a capture as `RPC [status]: file file ...` lines, each file by its
/// time, message and field.
fn grouped(names: &[&str]) -> Vec<String> {
    let capture = Capture::from_files(names.iter().map(|n| file(n)));
    assert!(capture.problems.is_empty(), "{:?}", capture.problems);
    capture
        .calls
        .iter()
        .map(|c| {
            let files: Vec<String> = c
                .payloads
                .iter()
                .map(|p| {
                    format!(
                        "{}:{}.{}",
                        p.name.unix_millis % 1000,
                        p.name.message,
                        p.name.field
                    )
                })
                .collect();
            let status = match &c.status {
                Status::Complete => "complete".to_owned(),
                Status::Ambiguous { candidates } => format!("ambiguous {}", candidates.len()),
                Status::Incomplete { missing, .. } => {
                    format!("incomplete [{}]", missing.join(", "))
                }
                Status::PossiblyMixed { .. } => "possibly mixed".to_owned(),
            };
            format!("{} [{status}]: {}", c.rpc, files.join(" "))
        })
        .collect()
}

#[test]
fn file_names() {
    let ok = |name: &str, millis, rpc: &str, message: &str, field: &str, ext| {
        let parsed = FileName::parse(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            parsed,
            FileName {
                unix_millis: millis,
                rpc: rpc.into(),
                message: message.into(),
                field: field.into(),
                extension: ext,
            },
            "{name}"
        );
    };
    ok(
        "1_PlanResourceChange_Request_Config.msgpack",
        1,
        "PlanResourceChange",
        "Request",
        "Config",
        Extension::Msgpack,
    );
    ok(
        "17_ReadResource_Response_NewState.json",
        17,
        "ReadResource",
        "Response",
        "NewState",
        Extension::Json,
    );
    ok(
        "17_ReadResource_Request_ProviderMeta.empty",
        17,
        "ReadResource",
        "Request",
        "ProviderMeta",
        Extension::Empty,
    );
    ok(
        "17_ReadResource_Request_Private",
        17,
        "ReadResource",
        "Request",
        "Private",
        Extension::None,
    );
    ok(
        "17_ReadResource_Request_Private.empty",
        17,
        "ReadResource",
        "Request",
        "Private",
        Extension::Empty,
    );
    ok(
        "17_ImportResourceState_Response_ImportedResource_Private",
        17,
        "ImportResourceState",
        "Response_ImportedResource",
        "Private",
        Extension::None,
    );
    ok(
        "17_CallFunction_Request_Arguments_10.msgpack",
        17,
        "CallFunction",
        "Request",
        "Arguments_10",
        Extension::Msgpack,
    );
    ok(
        "17_UpgradeResourceIdentity_Response_UpgradedResourceIdentity.msgpack",
        17,
        "UpgradeResourceIdentity",
        "Response",
        "UpgradedResourceIdentity",
        Extension::Msgpack,
    );
    for bad in [
        "",
        "README.md",
        "x_PlanResourceChange_Request_Config.msgpack",
        "17_PlanResourceChange_Request.msgpack",
        "17_PlanResourceChange_Config.msgpack",
        "17_PlanResourceChange_Reply_Config.msgpack",
        "17__Request_Config.msgpack",
        "17_Plan-Resource_Request_Config.msgpack",
        "17_PlanResourceChange_Request_Config.txt",
        "17_PlanResourceChange_Request_.msgpack",
        "17_CallFunction_Request_0.msgpack",
        "-1_PlanResourceChange_Request_Config.msgpack",
    ] {
        assert!(FileName::parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn files_become_payloads_as_their_names_say() {
    let p = Payload::new(
        "1_ReadResource_Request_Private".into(),
        b"{\"a\":1}".to_vec(),
    )
    .unwrap();
    assert!(!p.is_value());
    assert_eq!(p.data, Data::Private(b"{\"a\":1}".to_vec()));
    assert_eq!(
        p.decode(&Type::String).unwrap_err().to_string(),
        "private data is not a value"
    );
    let p = Payload::new("1_ReadResource_Request_Private.empty".into(), vec![]).unwrap();
    assert_eq!(p.data, Data::Empty);
    assert!(p.decode(&Type::String).is_err());
    let p = Payload::new("1_ReadResource_Request_CurrentState.empty".into(), vec![]).unwrap();
    assert!(p.decode(&Type::String).unwrap().is_null());
    assert_eq!(p.implied_type().unwrap(), Type::Dynamic);
    let err = Payload::new(
        "1_ReadResource_Request_CurrentState.empty".into(),
        vec![0xc0],
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "expected an empty file, found 1 bytes");
    let p = Payload::new(
        "1_ReadResource_Response_NewState.json".into(),
        br#"{"a":"x"}"#.to_vec(),
    )
    .unwrap();
    assert_eq!(p.implied_type().unwrap().to_expr(), "object({a=string})");
    assert_eq!(
        p.decode(&"map(string)".parse().unwrap()).unwrap()["a"].as_str(),
        Some("x")
    );
}

#[test]
fn files_group_into_calls() {
    // Sequential calls, requests before responses in the same millisecond, private
    // data and empty values included; a response only the earlier request fits
    // answers it, and the later one is left the later response.
    assert_eq!(
        grouped(&[
            "100_PlanResourceChange_Request_Config.msgpack",
            "100_PlanResourceChange_Request_PriorState.msgpack",
            "100_PlanResourceChange_Request_PriorPrivate.empty",
            "101_PlanResourceChange_Response_PlannedState.msgpack",
            "101_PlanResourceChange_Response_PlannedPrivate",
            "103_PlanResourceChange_Request_Config.msgpack",
            "103_PlanResourceChange_Request_PriorState.msgpack",
            "103_PlanResourceChange_Request_PriorPrivate.empty",
            "105_PlanResourceChange_Response_PlannedState.msgpack",
            "105_PlanResourceChange_Response_PlannedPrivate",
            "104_ReadDataSource_Response_State.msgpack",
            "104_ReadDataSource_Request_Config.msgpack",
        ]),
        [
            "PlanResourceChange [complete]: 100:Request.Config 100:Request.PriorPrivate 100:Request.PriorState 101:Response.PlannedPrivate 101:Response.PlannedState",
            "PlanResourceChange [complete]: 103:Request.Config 103:Request.PriorPrivate 103:Request.PriorState 105:Response.PlannedPrivate 105:Response.PlannedState",
            "ReadDataSource [complete]: 104:Request.Config 104:Response.State",
        ]
    );
    // Two calls at once: either response may answer either request, but both hold
    // the same bytes, so either pairing shows the same values.
    assert_eq!(
        grouped(&[
            "200_ApplyResourceChange_Request_Config.msgpack",
            "201_ApplyResourceChange_Request_Config.msgpack",
            "202_ApplyResourceChange_Response_NewState.msgpack",
            "203_ApplyResourceChange_Response_NewState.msgpack",
        ]),
        [
            "ApplyResourceChange [complete]: 200:Request.Config 202:Response.NewState",
            "ApplyResourceChange [complete]: 201:Request.Config 203:Response.NewState",
        ]
    );
    // With different bytes, they cannot be told apart: ambiguous.
    let differing = |name: &str, byte: u8| (name.to_owned(), vec![0x81, 0xa1, b'a', byte]);
    let capture = Capture::from_files([
        differing("200_ApplyResourceChange_Request_Config.msgpack", 1),
        differing("201_ApplyResourceChange_Request_Config.msgpack", 2),
        differing("202_ApplyResourceChange_Response_NewState.msgpack", 1),
        differing("203_ApplyResourceChange_Response_NewState.msgpack", 2),
    ]);
    let statuses: Vec<String> = capture.calls.iter().map(|c| c.status.to_string()).collect();
    assert_eq!(statuses, ["ambiguous: 2 candidates"; 4]);
    // A message written across a millisecond's end is joined; a message lacking a
    // field is incomplete, and may be the start of any call: the response after both
    // requests may answer either (the whole request's one candidate is no proof).
    assert_eq!(
        grouped(&[
            "300_ReadResource_Request_CurrentState.msgpack",
            "301_ReadResource_Request_Private",
            "302_ReadResource_Response_NewState.msgpack",
            "302_ReadResource_Response_Private",
            "400_ReadResource_Request_CurrentState.msgpack",
            "400_ReadResource_Request_Private",
            "401_ReadResource_Request_CurrentState.msgpack",
            "402_ReadResource_Response_NewState.msgpack",
            "402_ReadResource_Response_Private",
        ]),
        [
            "ReadResource [complete]: 300:Request.CurrentState 301:Request.Private 302:Response.NewState 302:Response.Private",
            "ReadResource [ambiguous 1]: 400:Request.CurrentState 400:Request.Private",
            "ReadResource [incomplete [Request Private, Response NewState, Response Private]]: 401:Request.CurrentState",
            "ReadResource [ambiguous 2]: 402:Response.NewState 402:Response.Private",
        ]
    );
    // Parts of a response repeat; a response that no request fits is incomplete.
    assert_eq!(
        grouped(&[
            "300_ImportResourceState_Response_ImportedResource_State.msgpack",
            "300_ImportResourceState_Response_ImportedResource_Private",
            "300_ImportResourceState_Response_ImportedResource_State.msgpack",
            "301_CallFunction_Request_Arguments_0.msgpack",
            "301_CallFunction_Request_Arguments_1.msgpack",
            "302_CallFunction_Response_Result.msgpack",
            "299_CallFunction_Response_Result.msgpack",
        ]),
        [
            "CallFunction [incomplete [Request]]: 299:Response.Result",
            "ImportResourceState [complete]: 300:Response_ImportedResource.Private 300:Response_ImportedResource.State 300:Response_ImportedResource.State",
            "CallFunction [complete]: 301:Request.Arguments_0 301:Request.Arguments_1 302:Response.Result",
        ]
    );
}

#[test]
fn resolving_calls() {
    use crate::schema::{Attribute, Block, ProviderSchema};
    let schema = |attribute: &str| Schema {
        version: 0,
        block: Block::new().attribute(attribute, Attribute::new(Type::String).optional()),
    };
    let mut schemas = ProviderSchemas::default();
    for (address, resource) in [("a/x", "x_thing"), ("b/y", "y_thing")] {
        let mut p = ProviderSchema::default();
        p.resource_schemas.insert(resource.into(), schema("name"));
        p.data_source_schemas
            .insert(resource.into(), schema(resource));
        schemas.providers.insert(address.into(), p);
    }
    let mut resolver = Resolver::new(&schemas);
    let call = |files: &[(&str, &[u8])]| {
        let capture = Capture::from_files(files.iter().map(|(n, b)| (n.to_string(), b.to_vec())));
        assert!(capture.problems.is_empty());
        capture.calls.into_iter().next().unwrap()
    };
    let describe = |r: Resolved<'_>| match r {
        Resolved::Found(s) => format!("found {s} of {}", s.provider()),
        Resolved::Ambiguous(all) => format!(
            "ambiguous: {}",
            all.iter()
                .map(|s| format!("{s} of {}", s.provider()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Resolved::OnlyNulls => "only nulls".to_owned(),
        Resolved::NotFound(why) => format!("not found: {why}"),
        Resolved::Untyped => "untyped".to_owned(),
    };
    // The same type in two providers: ambiguous.
    let both = call(&[(
        "1_ReadResource_Request_CurrentState.json",
        br#"{"name":"n"}"#,
    )]);
    assert_eq!(
        describe(resolver.resolve(&both)),
        "ambiguous: resource type x_thing of a/x, resource type y_thing of b/y"
    );
    let one = call(&[(
        "1_ReadDataSource_Request_Config.json",
        br#"{"y_thing":"n"}"#,
    )]);
    assert_eq!(
        describe(resolver.resolve(&one)),
        "found data source y_thing of b/y"
    );
    let none = call(&[("1_ReadDataSource_Request_Config.json", br#"{"z":"n"}"#)]);
    assert_eq!(
        describe(resolver.resolve(&none)),
        "not found: no data source of the schemas decodes every value of the call; data source x_thing comes nearest, but 1_ReadDataSource_Request_Config.json: .z: unsupported attribute"
    );
    // Private data only, ProviderMeta only, an RPC this crate does not know.
    for files in [
        &[("1_CloseEphemeralResource_Request_Private", &b"x"[..])][..],
        &[("1_ReadResource_Request_ProviderMeta.empty", &b""[..])],
        &[("1_SomeFutureRpc_Request_Config.json", &b"{}"[..])],
    ] {
        assert_eq!(describe(resolver.resolve(&call(files))), "untyped");
    }
    // Values that are all null (a destroy's new state left alone, a null in JSON): a
    // null fits every type, so they tell none; with one value that is not null, that
    // value tells.
    for files in [
        &[
            (
                "1_ApplyResourceChange_Response_NewState.msgpack",
                &b"\xc0"[..],
            ),
            ("1_ApplyResourceChange_Response_Private.empty", &b""[..]),
        ][..],
        &[("1_ReadResource_Request_CurrentState.json", &b" null "[..])],
        &[(
            "1_UpgradeResourceState_Response_UpgradedState.empty",
            &b""[..],
        )],
    ] {
        assert_eq!(describe(resolver.resolve(&call(files))), "only nulls");
    }
    let half = call(&[
        (
            "1_ReadResource_Request_CurrentState.json",
            &br#"{"name":"n"}"#[..],
        ),
        ("1_ReadResource_Response_NewState.empty", &b""[..]),
    ]);
    assert!(describe(resolver.resolve(&half)).starts_with("ambiguous: "));
    // Functions are typed by parameter and return type; no function, none found.
    let f = call(&[("1_CallFunction_Request_Arguments_0.json", b"1")]);
    assert_eq!(
        describe(resolver.resolve(&f)),
        "not found: the schemas define no function"
    );
    assert!(f.change().is_none());
}

#[test]
fn bad_names_are_problems_and_the_rest_is_read() {
    let capture = Capture::from_files([
        file("1_ReadResource_Request_CurrentState.msgpack"),
        ("notes.txt".to_owned(), b"hello".to_vec()),
        (
            "2_ReadResource_Request_Private.empty".to_owned(),
            b"x".to_vec(),
        ),
    ]);
    assert_eq!(capture.calls.len(), 1);
    let problems: Vec<String> = capture
        .problems
        .iter()
        .map(|p| format!("{}: {}", p.file, p.error))
        .collect();
    assert_eq!(
        problems,
        [
            "notes.txt: not a protocol data file name: expected {UnixMilli}_{RPC}_{Message}_{Field}[.msgpack|.json|.empty], found \"notes.txt\"",
            "2_ReadResource_Request_Private.empty: expected an empty file, found 1 bytes",
        ]
    );
}

/// What two in-place writes of one name leave when they overlap: the later, shorter
/// value over the earlier, longer one's tail.
fn torn_bytes(later: &[u8], earlier: &[u8]) -> Vec<u8> {
    assert!(later.len() < earlier.len());
    [later, &earlier[later.len()..]].concat()
}

/// Each call as `RPC status`, and the explanation lines that begin with `torn:`.
fn torn_report(capture: &Capture) -> (Vec<String>, Vec<String>) {
    let statuses = capture
        .calls
        .iter()
        .map(|c| format!("{} {}", c.rpc, c.status))
        .collect();
    let explained = capture
        .calls
        .iter()
        .flat_map(|c| c.explain.iter().filter(|l| l.starts_with("torn:")).cloned())
        .collect();
    (statuses, explained)
}

#[test]
fn a_call_holding_a_torn_msgpack_file_is_never_complete() {
    // {"a": "xy"} over {"a": "xyzw"}: a 6-byte value and the other's last 2 bytes.
    let short = b"\x81\xa1a\xa2xy".to_vec();
    let long = b"\x81\xa1a\xa4xyzw".to_vec();
    let torn = torn_bytes(&short, &long);
    let dir = std::env::temp_dir().join(format!("ctywire-torn-msgpack-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let files: [(&str, &[u8]); 5] = [
        (
            "1000_UpgradeResourceState_Response_UpgradedState.msgpack",
            &torn,
        ),
        (
            "1100_UpgradeResourceState_Response_UpgradedState.msgpack",
            &long,
        ),
        ("1200_ReadResource_Request_CurrentState.msgpack", &long),
        ("1203_ReadResource_Response_NewState.msgpack", &torn),
        // Cut short: an array of two items holding one.
        (
            "1300_ValidateResourceConfig_Request_Config.msgpack",
            b"\x92\xa1x",
        ),
    ];
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let capture = Capture::read_dir(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    let capture = capture.unwrap();
    assert!(capture.problems.is_empty(), "{:?}", capture.problems);
    let overlapped = |file: &str| {
        format!(
            "{file} holds a 6-byte MessagePack value and 2 bytes after it: two writes of one \
             name overlapped, the later, shorter value over the earlier one's tail, so the \
             file holds two calls' bytes"
        )
    };
    let upgraded = overlapped("1000_UpgradeResourceState_Response_UpgradedState.msgpack");
    let refreshed = overlapped("1203_ReadResource_Response_NewState.msgpack");
    let cut = "1300_ValidateResourceConfig_Request_Config.msgpack is no whole MessagePack \
               value, expected a value, found end of input at byte 3: its write was cut \
               short, or two writes of one name overlapped";
    let (statuses, explained) = torn_report(&capture);
    assert_eq!(
        statuses,
        [
            format!("UpgradeResourceState incomplete: {upgraded}"),
            "UpgradeResourceState complete".to_owned(),
            format!("ReadResource incomplete: {refreshed}"),
            format!("ValidateResourceConfig incomplete: {cut}"),
        ]
    );
    assert_eq!(
        explained,
        [
            format!("torn: {upgraded}"),
            format!("torn: {refreshed}"),
            format!("torn: {cut}"),
        ]
    );
    // Nothing is dropped: the torn files are in their calls.
    let files: Vec<usize> = capture.calls.iter().map(|c| c.payloads.len()).collect();
    assert_eq!(files, [1, 1, 2, 1]);
    // Decoding a torn file refuses the bytes after its value.
    let ty = Type::object([("a", Type::String)]);
    let err = capture.calls[0].payloads[0].decode(&ty).unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected end of input, found 2 more bytes after the value at byte 6"
    );
    assert_eq!(
        capture.calls[1].payloads[0].decode(&ty).unwrap()["a"].as_str(),
        Some("xyzw")
    );
}

#[test]
fn a_call_holding_a_torn_json_file_is_never_complete() {
    let short = br#"{"a":"xy"}"#.to_vec();
    let long = br#"{"a":"xyzw"}"#.to_vec();
    let capture = Capture::from_files([
        (
            "1200_ReadResource_Request_CurrentState.json".to_owned(),
            long.clone(),
        ),
        (
            "1203_ReadResource_Response_NewState.json".to_owned(),
            torn_bytes(&short, &long),
        ),
        // Whitespace after the value is no second value.
        (
            "1300_UpgradeResourceState_Response_UpgradedState.json".to_owned(),
            b"{\"a\":\"xy\"}\n".to_vec(),
        ),
    ]);
    let (statuses, explained) = torn_report(&capture);
    let reason = "1203_ReadResource_Response_NewState.json holds a 10-byte JSON value and 2 \
                  bytes after it: two writes of one name overlapped, the later, shorter value \
                  over the earlier one's tail, so the file holds two calls' bytes";
    assert_eq!(
        statuses,
        [
            format!("ReadResource incomplete: {reason}"),
            "UpgradeResourceState complete".to_owned()
        ]
    );
    assert_eq!(explained, [format!("torn: {reason}")]);
    let ty = Type::object([("a", Type::String)]);
    let err = capture.calls[0].payloads[1].decode(&ty).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("unexpected data after the JSON value"),
        "{err}"
    );
}

/// A plan call whose twin an overwrite hid whole (seed 62 of the generated runs with
/// each resource's own private data, reduced): the plan of `a` wrote its request in the
/// same millisecond as `b`'s and its response in the same millisecond as `b`'s, so the
/// names show one call, whose `PlannedPrivate` is `a`'s. Only the refresh of `a`, which
/// no plan from its state follows, shows the hidden call: the call is possibly mixed.
/// The schema of the generated runs (`tests/behaviour/capture_runs.rs`).
fn gen_schemas() -> ProviderSchemas {
    ProviderSchemas::from_json(
        br#"{"format_version":"1.0","provider_schemas":{"example.com/gen/gen":{
          "provider":{"version":0,"block":{}},
          "resource_schemas":{"gen_thing":{"version":0,"block":{"attributes":{
            "name":{"type":"string","required":true},
            "size":{"type":"number","optional":true},
            "id":{"type":"string","computed":true}}}}}}}}"#,
    )
    .unwrap()
}

/// A call's status without its reason: `complete`, `possibly mixed`, ...
fn status_word(call: &Call) -> String {
    let status = call.status.to_string();
    status.split(':').next().unwrap_or_default().to_owned()
}

/// A call as the tests list it: its first millisecond's last three digits, its RPC and
/// [`status_word`] (`110 PlanResourceChange complete`).
fn shown_call(call: &Call) -> String {
    format!(
        "{} {} {}",
        call.unix_millis() % 1000,
        call.rpc,
        status_word(call)
    )
}

/// Each call [`Capture`] makes of `files` with `schemas`, as [`shown_call`] lists it
/// (the files all read).
fn shown_calls(files: Vec<(String, Vec<u8>)>, schemas: &ProviderSchemas) -> Vec<String> {
    let capture = Capture::from_files_with_schemas(files, schemas);
    assert!(capture.problems.is_empty(), "{:?}", capture.problems);
    capture.calls.iter().map(shown_call).collect()
}

/// A `gen_thing` of [`gen_schemas`] (`name`, `size`, `id`) as MessagePack.
fn gen_thing(name: &str, size: i64, id: Value) -> Vec<u8> {
    let ty = gen_schemas().resource("gen_thing").unwrap().implied_type();
    let v = Value::object([
        ("name", Value::from(name)),
        ("size", Value::from(size)),
        ("id", id),
    ]);
    crate::msgpack::encode(&v, &ty).unwrap()
}

#[test]
fn a_call_hidden_whole_leaves_its_twin_possibly_mixed() {
    let schemas = gen_schemas();
    let state = |r: &str| gen_thing(r, 1, Value::from(format!("id-{r}")));
    let config = |r: &str| gen_thing(r, 1, Value::Null);
    let refresh = |t: u64, r: &str| {
        vec![
            (
                format!("{t}_ReadResource_Request_CurrentState.msgpack"),
                state(r),
            ),
            (
                format!("{t}_ReadResource_Request_Private"),
                format!("r{r}").into_bytes(),
            ),
            (
                format!("{}_ReadResource_Response_NewState.msgpack", t + 1),
                state(r),
            ),
            (
                format!("{}_ReadResource_Response_Private", t + 1),
                format!("r{r}").into_bytes(),
            ),
        ]
    };
    // A plan of `r` from its state, to no change; its response's private data `answer`'s.
    let plan = |t: u64, r: &str, answer: &str| {
        vec![
            (
                format!("{t}_PlanResourceChange_Request_Config.msgpack"),
                config(r),
            ),
            (
                format!("{t}_PlanResourceChange_Request_PriorState.msgpack"),
                state(r),
            ),
            (
                format!("{t}_PlanResourceChange_Request_ProposedNewState.msgpack"),
                state(r),
            ),
            (
                format!("{t}_PlanResourceChange_Request_PriorPrivate"),
                format!("r{r}").into_bytes(),
            ),
            (
                format!("{}_PlanResourceChange_Response_PlannedState.msgpack", t + 1),
                state(r),
            ),
            (
                format!("{}_PlanResourceChange_Response_PlannedPrivate", t + 1),
                format!("r{answer}").into_bytes(),
            ),
        ]
    };
    let statuses = |files: Vec<(String, Vec<u8>)>| -> Vec<String> {
        let capture = Capture::from_files_with_schemas(files, &schemas);
        assert!(capture.problems.is_empty(), "{:?}", capture.problems);
        capture
            .calls
            .iter()
            .map(|c| {
                let status = match &c.status {
                    Status::PossiblyMixed { reason } => {
                        assert!(reason.contains("an overwrite hid a whole call"), "{reason}");
                        "possibly mixed".to_owned()
                    }
                    other => other.to_string(),
                };
                format!("{} {} {status}", c.unix_millis() % 1000, c.rpc)
            })
            .collect()
    };
    let others = [refresh(102, "b"), refresh(110, "c"), plan(114, "c", "c")].concat();
    let mixed = [refresh(100, "a"), others.clone(), plan(106, "b", "a")].concat();
    assert_eq!(
        statuses(mixed),
        [
            "100 ReadResource complete",
            "102 ReadResource complete",
            "106 PlanResourceChange possibly mixed",
            "110 ReadResource complete",
            // The hidden plan of `a` may be any after its refresh.
            "114 PlanResourceChange possibly mixed",
        ]
    );
    // Without the refresh of `a`, nothing shows a hidden call: the plan is complete.
    let whole = [others, plan(106, "b", "b")].concat();
    assert_eq!(
        statuses(whole),
        [
            "102 ReadResource complete",
            "106 PlanResourceChange complete",
            "110 ReadResource complete",
            "114 PlanResourceChange complete",
        ]
    );
}

/// Three destroy plans whose responses straddle milliseconds' ends: the files at 301
/// may be either of two calls', but every one of them holds what the rules fix for a
/// destroy's answer (a null `PlannedState`, and private data the same throughout), so
/// each request is answered, complete, whichever files it shows.
#[test]
fn a_destroy_answered_by_a_response_in_doubt_is_complete() {
    let schemas = gen_schemas();
    let state = |r: &str| gen_thing(r, 1, Value::from(format!("id-{r}")));
    let request = |t: u64, r: &str| {
        vec![
            (
                format!("{t}_PlanResourceChange_Request_Config.msgpack"),
                vec![0xc0],
            ),
            (
                format!("{t}_PlanResourceChange_Request_PriorState.msgpack"),
                state(r),
            ),
            (
                format!("{t}_PlanResourceChange_Request_ProposedNewState.msgpack"),
                vec![0xc0],
            ),
            (
                format!("{t}_PlanResourceChange_Request_PriorPrivate.empty"),
                vec![],
            ),
        ]
    };
    let response = |t: u64| {
        vec![
            (
                format!("{t}_PlanResourceChange_Response_PlannedState.msgpack"),
                vec![0xc0],
            ),
            (
                format!("{t}_PlanResourceChange_Response_PlannedPrivate.empty"),
                vec![],
            ),
        ]
    };
    let files = [
        request(296, "a"),
        request(297, "b"),
        request(298, "c"),
        // The first response's PlannedState alone: its PlannedPrivate was written at
        // 301, under the second's.
        vec![(
            "300_PlanResourceChange_Response_PlannedState.msgpack".to_owned(),
            vec![0xc0],
        )],
        response(301),
        response(302),
    ]
    .concat();
    let capture = Capture::from_files_with_schemas(files, &schemas);
    let shown: Vec<String> = capture
        .calls
        .iter()
        .map(|c| format!("{} {}", c.unix_millis(), c.status))
        .collect();
    assert_eq!(capture.summary().complete, 3, "{shown:?}");
    assert!(capture.calls.iter().filter(|c| c.is_complete()).all(|c| {
        c.payload("Response", "PlannedState")
            .is_some_and(Payload::is_null)
            && c.payload("Request", "Config").is_some_and(Payload::is_null)
    }));
}

/// An apply whose request's `ProviderMeta` shares its bytes with every other apply's:
/// grouped with another apply's, written a millisecond before its own files, it does
/// not make the apply start before the plan's response that it carries out.
#[test]
fn an_apply_starts_at_its_own_files() {
    let schemas = gen_schemas();
    let value = |r: &str, id: Value| gen_thing(r, 1, id);
    let config = |r: &str| value(r, Value::Null);
    let planned = |r: &str| value(r, Value::unknown());
    let apply = |t: u64, meta: u64, r: &str| {
        vec![
            (
                format!("{t}_ApplyResourceChange_Request_Config.msgpack"),
                config(r),
            ),
            (
                format!("{t}_ApplyResourceChange_Request_PlannedState.msgpack"),
                planned(r),
            ),
            (
                format!("{t}_ApplyResourceChange_Request_PriorState.msgpack"),
                vec![0xc0],
            ),
            (
                format!("{meta}_ApplyResourceChange_Request_ProviderMeta.empty"),
                vec![],
            ),
            (
                format!("{}_ApplyResourceChange_Response_NewState.msgpack", t + 5),
                value(r, Value::from("i")),
            ),
        ]
    };
    let files = [
        vec![
            (
                "42_PlanResourceChange_Request_Config.msgpack".to_owned(),
                config("x"),
            ),
            (
                "42_PlanResourceChange_Request_PriorState.msgpack".to_owned(),
                vec![0xc0],
            ),
            (
                "42_PlanResourceChange_Request_ProposedNewState.msgpack".to_owned(),
                config("x"),
            ),
            (
                "45_PlanResourceChange_Response_PlannedState.msgpack".to_owned(),
                planned("x"),
            ),
        ],
        // Another resource's apply, whose ProviderMeta is written at 44.
        apply(44, 44, "y"),
        apply(45, 46, "x"),
    ]
    .concat();
    let capture = Capture::from_files_with_schemas(files, &schemas);
    let shown: Vec<String> = capture
        .calls
        .iter()
        .map(|c| format!("{} {} {}", c.unix_millis(), c.rpc, c.status))
        .collect();
    assert!(
        shown.contains(&"42 PlanResourceChange complete".to_owned()),
        "{shown:?}"
    );
}

/// A replacement as Terraform makes it: an update plan of `a` to a new name (answered
/// with `RequiresReplace`), a create plan of the new name from a null state, and the
/// create's apply carrying that create plan's `PlannedState`. The apply carries the
/// update's `Config` and a `PlannedState` that would be a valid plan for the update
/// too, but it starts from a null `PriorState`, so it carries out no plan of `a`'s
/// state: every call is complete. With the apply's `PriorState` lost, nothing shows
/// which plan the apply carries out, and the update plan's own answer may have been
/// lost in an overwrite: it is possibly mixed.
#[test]
fn a_replacement_leaves_its_update_plan_complete() {
    let schemas = gen_schemas();
    let value = |name: &str, id: Value| gen_thing(name, 1, id);
    let state = value("a", Value::from("id-a"));
    let config = value("a2", Value::Null);
    let proposed = value("a2", Value::from("id-a"));
    let created = value("a2", Value::unknown());
    let f = |name: &str, bytes: &[u8]| (name.to_owned(), bytes.to_vec());
    let files = |apply_prior: bool| {
        let mut files = vec![
            f("110_PlanResourceChange_Request_Config.msgpack", &config),
            f("110_PlanResourceChange_Request_PriorState.msgpack", &state),
            f(
                "110_PlanResourceChange_Request_ProposedNewState.msgpack",
                &proposed,
            ),
            f(
                "111_PlanResourceChange_Response_PlannedState.msgpack",
                &proposed,
            ),
            f("120_PlanResourceChange_Request_Config.msgpack", &config),
            f("120_PlanResourceChange_Request_PriorState.msgpack", &[0xc0]),
            f(
                "120_PlanResourceChange_Request_ProposedNewState.msgpack",
                &config,
            ),
            f(
                "121_PlanResourceChange_Response_PlannedState.msgpack",
                &created,
            ),
            f("200_ApplyResourceChange_Request_Config.msgpack", &config),
            f(
                "200_ApplyResourceChange_Request_PlannedState.msgpack",
                &created,
            ),
            f(
                "201_ApplyResourceChange_Response_NewState.msgpack",
                &value("a2", Value::from("id-a2")),
            ),
        ];
        if apply_prior {
            files.push(f(
                "200_ApplyResourceChange_Request_PriorState.msgpack",
                &[0xc0],
            ));
        }
        files
    };
    let shown = |files| shown_calls(files, &schemas);
    assert_eq!(
        shown(files(true)),
        [
            "110 PlanResourceChange complete",
            "120 PlanResourceChange complete",
            "200 ApplyResourceChange complete",
        ]
    );
    let lost = shown(files(false));
    assert!(
        lost.contains(&"110 PlanResourceChange possibly mixed".to_owned()),
        "{lost:?}"
    );
}

/// A create plan whose response a request in doubt may claim too (a fragment of a
/// create of the same `Config`, its `ProposedNewState` lost): an apply after both, of a
/// null `PriorState` and that `Config`, carries out the last such plan and carries its
/// answer's bytes, so a response of exactly those bytes shows the plan's answer,
/// whichever request's files it was. Without the apply, the plan is not complete.
#[test]
fn a_plan_an_apply_carries_out_takes_a_response_of_its_bytes() {
    let schemas = gen_schemas();
    let value = |name: &str, id: Value| gen_thing(name, 1, id);
    let config = value("x", Value::Null);
    let planned = value("x", Value::unknown());
    let f = |name: &str, bytes: &[u8]| (name.to_owned(), bytes.to_vec());
    let plan = vec![
        // The fragment: a create of the same Config whose other files are lost.
        f("100_PlanResourceChange_Request_Config.msgpack", &config),
        f("100_PlanResourceChange_Request_PriorState.msgpack", &[0xc0]),
        f("110_PlanResourceChange_Request_Config.msgpack", &config),
        f("110_PlanResourceChange_Request_PriorState.msgpack", &[0xc0]),
        f(
            "110_PlanResourceChange_Request_ProposedNewState.msgpack",
            &config,
        ),
        f("110_PlanResourceChange_Request_PriorPrivate.empty", &[]),
        f(
            "111_PlanResourceChange_Response_PlannedState.msgpack",
            &planned,
        ),
        f("111_PlanResourceChange_Response_PlannedPrivate.empty", &[]),
    ];
    let apply = vec![
        f("200_ApplyResourceChange_Request_Config.msgpack", &config),
        f(
            "200_ApplyResourceChange_Request_PlannedState.msgpack",
            &planned,
        ),
        f(
            "200_ApplyResourceChange_Request_PriorState.msgpack",
            &[0xc0],
        ),
        f("200_ApplyResourceChange_Request_PlannedPrivate.empty", &[]),
        f(
            "201_ApplyResourceChange_Response_NewState.msgpack",
            &value("x", Value::from("id-x")),
        ),
        f("201_ApplyResourceChange_Response_Private.empty", &[]),
    ];
    let plan_status = |files: Vec<(String, Vec<u8>)>| -> String {
        let capture = Capture::from_files_with_schemas(files, &schemas);
        assert!(capture.problems.is_empty(), "{:?}", capture.problems);
        let shown: Vec<String> = capture
            .calls
            .iter()
            .map(|c| format!("{} {} {}", c.unix_millis() % 1000, c.rpc, c.status))
            .collect();
        let call = capture
            .calls
            .iter()
            .find(|c| c.unix_millis() % 1000 == 110)
            .unwrap_or_else(|| panic!("{shown:?}"));
        format!("{}", call.status)
    };
    assert_eq!(plan_status([plan.clone(), apply].concat()), "complete");
    assert_ne!(plan_status(plan), "complete");
}

/// Two updates' applies (the real run's mispair, made by hand): `a`'s request writes its
/// `Config` and `PlannedState` at 717 and its `PriorState` at 718, where `b`'s whole
/// request overwrites it with `b`'s. Every value of both looks whole, and `a`'s checks
/// pass with `b`'s prior state (an `id` the plan may set), but the plan `a` carries out
/// was from `a`'s own state: `a` is possibly mixed. `b`'s fields are all its plan's, so it
/// stays complete; with `b` written elsewhere, `a` is complete.
#[test]
fn an_apply_whose_field_another_overwrote_is_possibly_mixed() {
    let schemas = gen_schemas();
    let value = |r: &str, size: i64, id: Option<&str>| {
        gen_thing(r, size, id.map_or(Value::Null, Value::from))
    };
    let file = |t: u64, rpc: &str, message: &str, field: &str, bytes: Vec<u8>| {
        (format!("{t}_{rpc}_{message}_{field}.msgpack"), bytes)
    };
    // `r`'s plan at `t` from size 1 to 2, answered at `t + 1`.
    let plan = |t: u64, r: &str| {
        let rpc = "PlanResourceChange";
        let id = format!("id-{r}");
        vec![
            file(t, rpc, "Request", "Config", value(r, 2, None)),
            file(t, rpc, "Request", "PriorState", value(r, 1, Some(&id))),
            file(
                t,
                rpc,
                "Request",
                "ProposedNewState",
                value(r, 2, Some(&id)),
            ),
            file(
                t + 1,
                rpc,
                "Response",
                "PlannedState",
                value(r, 2, Some(&id)),
            ),
        ]
    };
    // `r`'s apply of that plan: `Config` and `PlannedState` at `t`, `PriorState` at
    // `prior` (unless `None`: overwritten), the answer at `answer`.
    let apply = |t: u64, prior: Option<u64>, answer: u64, r: &str| {
        let rpc = "ApplyResourceChange";
        let id = format!("id-{r}");
        let mut files = vec![
            file(t, rpc, "Request", "Config", value(r, 2, None)),
            file(t, rpc, "Request", "PlannedState", value(r, 2, Some(&id))),
            file(answer, rpc, "Response", "NewState", value(r, 2, Some(&id))),
        ];
        if let Some(p) = prior {
            files.push(file(
                p,
                rpc,
                "Request",
                "PriorState",
                value(r, 1, Some(&id)),
            ));
        }
        files
    };
    let statuses = |files: Vec<(String, Vec<u8>)>| -> Vec<String> {
        let capture = Capture::from_files_with_schemas(files, &schemas);
        assert!(capture.problems.is_empty(), "{:?}", capture.problems);
        capture
            .calls
            .iter()
            .map(|c| {
                let status = match &c.status {
                    Status::PossiblyMixed { reason } => {
                        assert!(
                            // `a`'s `Config` too: `b`'s at 718 is one `a` could
                            // have written.
                            reason.contains(
                                "718_ApplyResourceChange_Request_Config.msgpack in the \
                                 millisecond of 718_ApplyResourceChange_Request_PriorState"
                            ) || reason.contains(
                                "718_ApplyResourceChange_Request_Config.msgpack 1 ms \
                                 from 717_ApplyResourceChange_Request_Config"
                            ),
                            "{reason}"
                        );
                        "possibly mixed".to_owned()
                    }
                    other => other.to_string(),
                };
                format!("{} {} {status}", c.unix_millis(), c.rpc)
            })
            .collect()
    };
    // A third resource's plan and apply: the field's files differ across the directory
    // (a field whose every file holds the same bytes shows the same values either way).
    let plans = [
        plan(100, "a"),
        plan(103, "b"),
        plan(106, "c"),
        apply(750, Some(750), 751, "c"),
    ]
    .concat();
    let mixed = [
        plans.clone(),
        apply(717, None, 720, "a"),
        apply(718, Some(718), 719, "b"),
    ]
    .concat();
    assert_eq!(
        statuses(mixed),
        [
            "100 PlanResourceChange complete",
            "103 PlanResourceChange complete",
            "106 PlanResourceChange complete",
            "717 ApplyResourceChange possibly mixed",
            "718 ApplyResourceChange complete",
            "750 ApplyResourceChange complete",
        ]
    );
    let apart = [
        plans,
        apply(717, Some(718), 720, "a"),
        apply(730, Some(730), 731, "b"),
    ]
    .concat();
    assert_eq!(
        statuses(apart),
        [
            "100 PlanResourceChange complete",
            "103 PlanResourceChange complete",
            "106 PlanResourceChange complete",
            "717 ApplyResourceChange complete",
            "730 ApplyResourceChange complete",
            "750 ApplyResourceChange complete",
        ]
    );
}

/// A replacement whose update plan's own answer an overwrite lost: the update plan of
/// `a` to a new name at 110, and the only answer after it at 113, a create plan's of
/// that name (an unknown `id`), which is also a valid plan for the update. The create
/// plan's request at 111 left only its `ProposedNewState` (another create's `Config`
/// and `PriorState` overwrote the rest): the update plan is not complete. Or it left
/// nothing at all, and the create's apply carries that answer from a null
/// `PriorState`: the answer may be the create's, and the update plan is possibly mixed.
#[test]
fn an_update_plan_answered_as_its_replacements_create_is_possibly_mixed() {
    let schemas = gen_schemas();
    let value = |name: &str, id: Value| gen_thing(name, 1, id);
    let state = value("a", Value::from("id-a"));
    let config = value("a2", Value::Null);
    let proposed = value("a2", Value::from("id-a"));
    let created = value("a2", Value::unknown());
    let f = |name: &str, bytes: &[u8]| (name.to_owned(), bytes.to_vec());
    let update = vec![
        f("110_PlanResourceChange_Request_Config.msgpack", &config),
        f("110_PlanResourceChange_Request_PriorState.msgpack", &state),
        f(
            "110_PlanResourceChange_Request_ProposedNewState.msgpack",
            &proposed,
        ),
        f(
            "113_PlanResourceChange_Response_PlannedState.msgpack",
            &created,
        ),
    ];
    let shown = |files| shown_calls(files, &schemas);
    // The create's request: its ProposedNewState, beside another create's Config and
    // null PriorState.
    let mut fragment = update.clone();
    fragment.extend([
        f(
            "111_PlanResourceChange_Request_Config.msgpack",
            &value("b2", Value::Null),
        ),
        f("111_PlanResourceChange_Request_PriorState.msgpack", &[0xc0]),
        f(
            "111_PlanResourceChange_Request_ProposedNewState.msgpack",
            &config,
        ),
    ]);
    let got = shown(fragment);
    assert!(
        !got.contains(&"110 PlanResourceChange complete".to_owned()),
        "{got:?}"
    );
    // No file of the create's request: its apply carries the answer.
    let mut applied = update;
    applied.extend([
        f("200_ApplyResourceChange_Request_Config.msgpack", &config),
        f(
            "200_ApplyResourceChange_Request_PriorState.msgpack",
            &[0xc0],
        ),
        f(
            "200_ApplyResourceChange_Request_PlannedState.msgpack",
            &created,
        ),
        f(
            "201_ApplyResourceChange_Response_NewState.msgpack",
            &value("a2", Value::from("id-a2")),
        ),
    ]);
    let got = shown(applied);
    assert!(
        got.contains(&"110 PlanResourceChange possibly mixed".to_owned()),
        "{got:?}"
    );
}

// Wrong plans (stop 45)

/// A replacement whose create's request an overwrite hid whole: the update plan of `a`
/// to a new name at 110, whose own answer `b`'s answer at 111 overwrote, then the
/// create plan of that name, hidden at 112 behind `c`'s whole request, answered at 113
/// (an unknown `id`: also a valid plan for the update). No file of the create is left,
/// but another request wrote every field's name between the update and the answer: the
/// update plan is possibly mixed. With nothing written there that could hide a request,
/// the answer is the update's; and an answer that is the update's own
/// `ProposedNewState` (the replaced object's `id`, which a create proposes null) is too.
#[test]
fn an_update_plan_whose_replacements_create_an_overwrite_hid_is_possibly_mixed() {
    let schemas = gen_schemas();
    let value = |name: &str, id: Value| gen_thing(name, 1, id);
    let f = |name: String, bytes: &[u8]| (name, bytes.to_vec());
    // A create of `name`: its request at `at`, its answer at `answer`.
    let create = |name: &str, at: u64, answer: u64| {
        vec![
            f(
                format!("{at}_PlanResourceChange_Request_Config.msgpack"),
                &value(name, Value::Null),
            ),
            f(
                format!("{at}_PlanResourceChange_Request_PriorState.msgpack"),
                &[0xc0],
            ),
            f(
                format!("{at}_PlanResourceChange_Request_ProposedNewState.msgpack"),
                &value(name, Value::Null),
            ),
            f(
                format!("{answer}_PlanResourceChange_Response_PlannedState.msgpack"),
                &value(name, Value::unknown()),
            ),
        ]
    };
    let update = |answer: &[u8]| {
        vec![
            f(
                "110_PlanResourceChange_Request_Config.msgpack".to_owned(),
                &value("a2", Value::Null),
            ),
            f(
                "110_PlanResourceChange_Request_PriorState.msgpack".to_owned(),
                &value("a", Value::from("id-a")),
            ),
            f(
                "110_PlanResourceChange_Request_ProposedNewState.msgpack".to_owned(),
                &value("a2", Value::from("id-a")),
            ),
            f(
                "113_PlanResourceChange_Response_PlannedState.msgpack".to_owned(),
                answer,
            ),
        ]
    };
    let shown = |files| shown_calls(files, &schemas);
    let created = value("a2", Value::unknown());
    let run = |c: u64, answer: &[u8]| {
        let mut files = update(answer);
        files.extend(create("b", 109, 111));
        files.extend(create("c", c, c + 2));
        shown(files)
    };
    let got = run(112, &created);
    assert!(
        got.contains(&"110 PlanResourceChange possibly mixed".to_owned()),
        "{got:?}"
    );
    let got = run(120, &created);
    assert!(
        got.contains(&"110 PlanResourceChange complete".to_owned()),
        "{got:?}"
    );
    let got = run(112, &value("a2", Value::from("id-a")));
    assert!(
        got.contains(&"110 PlanResourceChange complete".to_owned()),
        "{got:?}"
    );
}

// Wrong applies (stop 45)

/// The generated runs' values for the wrong-apply tests: `r`'s `gen_thing` of `size`
/// and `id` (`None`: null; `Some(None)`: unknown), as MessagePack.
fn gen_value(r: &str, size: i64, id: Option<Option<&str>>) -> Vec<u8> {
    let id = match id {
        None => Value::Null,
        Some(None) => Value::unknown(),
        Some(Some(id)) => Value::from(id),
    };
    gen_thing(r, size, id)
}

/// A complete call of `rpc` made of `files` (time, message, field, bytes).
fn whole_call(rpc: &str, files: &[(u64, &str, &str, Vec<u8>)]) -> Call {
    Call {
        rpc: rpc.to_owned(),
        payloads: rpc_files(rpc, files.to_vec())
            .into_iter()
            .map(|(name, bytes)| Payload::new(name, bytes).unwrap())
            .collect(),
        status: Status::Complete,
        explain: Vec::new(),
        sure_request: true,
        keeps_prior: false,
        proposed: false,
    }
}

/// Two updates' applies whose requests lie in milliseconds next to each other, `a`'s
/// at 108 and `b`'s at 109, grouped with each other's `Config` (as the generated run of
/// seed 25 showed, a third apply's overwritten file having drawn the grouping apart):
/// each call holds a `Config` file of its own, but one the other could have written,
/// so each is possibly mixed (no plan asked for `b`'s configuration from `a`'s state).
/// Grouped rightly, both are complete; and two destroys alike in every field but
/// `PriorState` stay complete grouped either way (each shows a destroy of one state).
#[test]
fn applies_holding_each_others_field_are_possibly_mixed() {
    let update = |r: &str, t: u64, config_t: u64, config_of: &str| {
        let id = format!("id-{r}");
        let rpc = "ApplyResourceChange";
        whole_call(
            rpc,
            &[
                (config_t, "Request", "Config", gen_value(config_of, 2, None)),
                (
                    t,
                    "Request",
                    "PlannedState",
                    gen_value(r, 2, Some(Some(&id))),
                ),
                (t, "Request", "PriorState", gen_value(r, 1, Some(Some(&id)))),
                (
                    110,
                    "Response",
                    "NewState",
                    gen_value(r, 2, Some(Some(&id))),
                ),
            ],
        )
    };
    let plan = |r: &str, t: u64| {
        let id = format!("id-{r}");
        whole_call(
            "PlanResourceChange",
            &[
                (t, "Request", "Config", gen_value(r, 2, None)),
                (t, "Request", "PriorState", gen_value(r, 1, Some(Some(&id)))),
                (
                    t,
                    "Request",
                    "ProposedNewState",
                    gen_value(r, 2, Some(Some(&id))),
                ),
                (
                    t + 1,
                    "Response",
                    "PlannedState",
                    gen_value(r, 2, Some(Some(&id))),
                ),
            ],
        )
    };
    let statuses = |calls: &mut Vec<Call>| -> Vec<String> {
        super::overwritten::mark(calls, true, 1);
        calls.iter().map(shown_call).collect()
    };
    let mut swapped = vec![
        plan("a", 100),
        plan("b", 103),
        update("a", 108, 109, "b"),
        update("b", 109, 108, "a"),
    ];
    assert_eq!(
        statuses(&mut swapped),
        [
            "100 PlanResourceChange complete",
            "103 PlanResourceChange complete",
            "109 ApplyResourceChange possibly mixed",
            "108 ApplyResourceChange possibly mixed",
        ]
    );
    let reason = swapped[2].status.to_string();
    assert!(
        reason.contains("108_ApplyResourceChange_Request_Config.msgpack 1 ms from 109_ApplyResourceChange_Request_Config.msgpack"),
        "{reason}"
    );
    let mut right = vec![
        plan("a", 100),
        plan("b", 103),
        update("a", 108, 108, "a"),
        update("b", 109, 109, "b"),
    ];
    assert_eq!(
        statuses(&mut right),
        [
            "100 PlanResourceChange complete",
            "103 PlanResourceChange complete",
            "108 ApplyResourceChange complete",
            "109 ApplyResourceChange complete",
        ]
    );
    let destroy = |t: u64, prior_t: u64, prior_of: &str| {
        let id = format!("id-{prior_of}");
        whole_call(
            "ApplyResourceChange",
            &[
                (t, "Request", "Config", vec![0xc0]),
                (t, "Request", "PlannedState", vec![0xc0]),
                (
                    prior_t,
                    "Request",
                    "PriorState",
                    gen_value(prior_of, 1, Some(Some(&id))),
                ),
                (t + 2, "Response", "NewState", vec![0xc0]),
            ],
        )
    };
    let mut destroys = vec![destroy(108, 109, "b"), destroy(109, 108, "a")];
    assert_eq!(
        statuses(&mut destroys),
        [
            "108 ApplyResourceChange complete",
            "109 ApplyResourceChange complete",
        ]
    );
}

/// Two updates' applies written wholly in the same milliseconds (requests at 83,
/// responses at 84), `b`'s `Config`, `PlannedState` and `NewState` over `a`'s and `a`'s
/// `PriorState` over `b`'s (as the generated run of seed 41 showed): the names show one
/// call, whose checks pass (the plan may set `id`). The refresh of `a`'s new state,
/// which no apply before it returned, shows an apply hidden; and no plan asked for
/// `b`'s configuration from `a`'s state: the call is possibly mixed. Without the
/// refresh nothing shows the hidden apply; with `a`'s own prior state the call is
/// what `b`'s plan asked for, and complete.
#[test]
fn an_apply_no_plan_asked_for_beside_a_hidden_one_is_possibly_mixed() {
    let schemas = gen_schemas();
    let f = |name: &str, bytes: Vec<u8>| (name.to_owned(), bytes);
    let plan = |t: u64, r: &str| {
        let id = format!("id-{r}");
        let rpc = "PlanResourceChange";
        vec![
            f(
                &format!("{t}_{rpc}_Request_Config.msgpack"),
                gen_value(r, 2, None),
            ),
            f(
                &format!("{t}_{rpc}_Request_PriorState.msgpack"),
                gen_value(r, 1, Some(Some(&id))),
            ),
            f(
                &format!("{t}_{rpc}_Request_ProposedNewState.msgpack"),
                gen_value(r, 2, Some(Some(&id))),
            ),
            f(
                &format!("{}_{rpc}_Response_PlannedState.msgpack", t + 1),
                gen_value(r, 2, Some(Some(&id))),
            ),
        ]
    };
    let apply = |prior: &str| {
        let rpc = "ApplyResourceChange";
        vec![
            f(
                &format!("83_{rpc}_Request_Config.msgpack"),
                gen_value("b", 2, None),
            ),
            f(
                &format!("83_{rpc}_Request_PlannedState.msgpack"),
                gen_value("b", 2, Some(Some("id-b"))),
            ),
            f(
                &format!("83_{rpc}_Request_PriorState.msgpack"),
                gen_value(prior, 1, Some(Some(&format!("id-{prior}")))),
            ),
            f(
                &format!("84_{rpc}_Response_NewState.msgpack"),
                gen_value("b", 2, Some(Some("id-b"))),
            ),
        ]
    };
    let refresh = vec![
        f(
            "300_ReadResource_Request_CurrentState.msgpack",
            gen_value("a", 2, Some(Some("id-a"))),
        ),
        f(
            "301_ReadResource_Response_NewState.msgpack",
            gen_value("a", 2, Some(Some("id-a"))),
        ),
    ];
    let apply_status = |files: Vec<(String, Vec<u8>)>| -> String {
        let capture = Capture::from_files_with_schemas(files, &schemas);
        assert!(capture.problems.is_empty(), "{:?}", capture.problems);
        let apply = capture
            .calls
            .iter()
            .find(|c| c.rpc == "ApplyResourceChange")
            .unwrap();
        apply.status.to_string()
    };
    let mixed = apply_status([plan(10, "a"), plan(13, "b"), apply("a"), refresh.clone()].concat());
    assert!(
        mixed.starts_with("possibly mixed: no plan in the directory asked for this apply's"),
        "{mixed}"
    );
    let traceless = apply_status([plan(10, "a"), plan(13, "b"), apply("a")].concat());
    assert_eq!(traceless, "complete");
    let own = apply_status([plan(10, "a"), plan(13, "b"), apply("b"), refresh].concat());
    assert_eq!(own, "complete");
}

// Wrong calls over 1,000 runs (stop 46)

/// Two applies written in the same milliseconds (as the generated run of seed 184 with
/// replacements showed): an update of `b` and a destroy of `c` (a replacement) write
/// their `Config` and `PlannedState` at 102 under the same names, the destroy's null
/// ones last, and the update's `PriorState` stays at 102 beside them. The names show a
/// destroy of `b` and one of `c`, sharing the two null files. Terraform planned
/// replacing `c` (an update plan answered with RequiresReplace, then a create plan of
/// its configuration from a null state), never destroying `b`. A plan request grouped
/// from two calls' files (in doubt: here `a`'s configuration beside `b`'s state) asks
/// for nothing, so it cannot make `b`'s destroy look planned as a replacement with
/// `a`'s create plan: that destroy is possibly mixed, `c`'s complete. Were that request
/// sure, `b`'s destroy would show complete, and wrong.
#[test]
fn a_plan_request_in_doubt_plans_nothing() {
    let plan = |t: u64, config: Vec<u8>, prior: Vec<u8>, sure: bool| {
        let mut call = whole_call(
            "PlanResourceChange",
            &[
                (t, "Request", "Config", config),
                (t, "Request", "PriorState", prior),
            ],
        );
        if !sure {
            call.status = Status::Incomplete {
                missing: vec!["Response PlannedState".to_owned()],
                reason: "its values break Terraform's rules for one call's".to_owned(),
            };
            call.sure_request = false;
        }
        call
    };
    let destroy = |prior_t: u64, r: &str, answer_t: u64| {
        whole_call(
            "ApplyResourceChange",
            &[
                (102, "Request", "Config", vec![0xc0]),
                (102, "Request", "PlannedState", vec![0xc0]),
                (
                    prior_t,
                    "Request",
                    "PriorState",
                    gen_value(r, 1, Some(Some(&format!("id-{r}")))),
                ),
                (answer_t, "Response", "NewState", vec![0xc0]),
            ],
        )
    };
    // `a`'s create: an apply whose request fields differ from the destroys'.
    let create = whole_call(
        "ApplyResourceChange",
        &[
            (20, "Request", "Config", gen_value("a", 1, None)),
            (20, "Request", "PlannedState", gen_value("a", 1, Some(None))),
            (20, "Request", "PriorState", vec![0xc0]),
            (
                21,
                "Response",
                "NewState",
                gen_value("a", 1, Some(Some("id-a"))),
            ),
        ],
    );
    let calls = |sure: bool| {
        let mut calls = vec![
            plan(10, gen_value("a", 1, None), vec![0xc0], true),
            plan(
                60,
                gen_value("c-b", 1, None),
                gen_value("c", 1, Some(Some("id-c"))),
                true,
            ),
            plan(62, gen_value("c-b", 1, None), vec![0xc0], true),
            plan(
                74,
                gen_value("a", 1, None),
                gen_value("b", 1, Some(Some("id-b"))),
                sure,
            ),
            destroy(102, "b", 104),
            destroy(103, "c", 105),
            create.clone(),
        ];
        super::overwritten::mark(&mut calls, true, 1);
        calls[4..6].iter().map(status_word).collect::<Vec<_>>()
    };
    assert_eq!(calls(false), ["possibly mixed", "complete"]);
    assert_eq!(calls(true), ["complete", "complete"]);
}

/// Two refreshes written in the same milliseconds (as the generated run of seed 547
/// showed): `b`'s request over `a`'s at 56, `a`'s answer over `b`'s at 57. The names
/// show one refresh, of `b`'s state answered with `a`'s, which looks like drift. The
/// plan from `b`'s state, with no refresh since that returned it, shows a refresh an
/// overwrite hid; and a refresh that found drift binds nothing of its answer to its
/// request: the call is possibly mixed. A refresh that found no drift shows one
/// call's values whichever wrote its files, and is complete.
#[test]
fn a_refresh_with_drift_beside_a_hidden_one_is_possibly_mixed() {
    let schemas = gen_schemas();
    let state = |r: &str| gen_value(r, 1, Some(Some(&format!("id-{r}"))));
    let plan = |t: u64, r: &str| {
        let rpc = "PlanResourceChange";
        vec![
            (
                format!("{t}_{rpc}_Request_Config.msgpack"),
                gen_value(r, 1, None),
            ),
            (format!("{t}_{rpc}_Request_PriorState.msgpack"), state(r)),
            (
                format!("{t}_{rpc}_Request_ProposedNewState.msgpack"),
                state(r),
            ),
            (
                format!("{}_{rpc}_Response_PlannedState.msgpack", t + 1),
                state(r),
            ),
        ]
    };
    let refresh_status = |answer: &str| -> String {
        let files = [
            vec![
                (
                    "56_ReadResource_Request_CurrentState.msgpack".to_owned(),
                    state("b"),
                ),
                (
                    "57_ReadResource_Response_NewState.msgpack".to_owned(),
                    state(answer),
                ),
                (
                    "57_ReadResource_Response_Private.empty".to_owned(),
                    Vec::new(),
                ),
            ],
            plan(80, "b"),
            plan(82, "a"),
            // Another resource's refresh and plan: states differ across the directory.
            // (Its answer straddles two milliseconds: no overwrite could leave it whole,
            // so it could hide no answer of the refresh at 56.)
            vec![
                (
                    "90_ReadResource_Request_CurrentState.msgpack".to_owned(),
                    state("c"),
                ),
                (
                    "91_ReadResource_Response_NewState.msgpack".to_owned(),
                    state("c"),
                ),
                (
                    "92_ReadResource_Response_Private.empty".to_owned(),
                    Vec::new(),
                ),
            ],
            plan(94, "c"),
        ]
        .concat();
        let capture = Capture::from_files_with_schemas(files, &schemas);
        assert!(capture.problems.is_empty(), "{:?}", capture.problems);
        let refresh = capture
            .calls
            .iter()
            .find(|c| c.rpc == "ReadResource")
            .unwrap();
        refresh.status.to_string()
    };
    let mixed = refresh_status("a");
    assert!(
        mixed.starts_with("possibly mixed: an overwrite hid a whole call of ReadResource"),
        "{mixed}"
    );
    assert_eq!(refresh_status("b"), "complete");
}

// A slow writer (stop 47)

/// The files of a directory as the grouping reads them: each RPC's, parsed.
fn by_rpc(files: &[(String, Vec<u8>)]) -> BTreeMap<String, Vec<Payload>> {
    let mut out: BTreeMap<String, Vec<Payload>> = BTreeMap::new();
    for (name, bytes) in files {
        let p = Payload::new(name.clone(), bytes.clone()).unwrap();
        out.entry(p.name.rpc.clone()).or_default().push(p);
    }
    out
}

/// Files of `rpc` of `(time, message, field, bytes)`, named as terraform-plugin-go
/// names them.
fn rpc_files(rpc: &str, files: Vec<(u64, &str, &str, Vec<u8>)>) -> Vec<(String, Vec<u8>)> {
    files
        .into_iter()
        .map(|(t, message, field, bytes)| (format!("{t}_{rpc}_{message}_{field}.msgpack"), bytes))
        .collect()
}

/// Plan files, as [`rpc_files`] names them.
fn plan_files(files: Vec<(u64, &str, &str, Vec<u8>)>) -> Vec<(String, Vec<u8>)> {
    rpc_files("PlanResourceChange", files)
}

/// Creates' plans written by a slow writer, a millisecond a file: each request's
/// `Config` at `t`, its `PriorState` at `t + 1`, its `ProposedNewState` at `t + 2`.
fn slow_creates(from: u64) -> Vec<(u64, &'static str, &'static str, Vec<u8>)> {
    let mut files = Vec::new();
    for (k, r) in ["s0", "s1", "s2", "s3"].into_iter().enumerate() {
        let t = from + 20 * k as u64;
        files.extend([
            (t, "Request", "Config", gen_value(r, 1, None)),
            (t + 1, "Request", "PriorState", vec![0xc0]),
            (
                t + 2,
                "Request",
                "ProposedNewState",
                gen_value(r, 1, Some(None)),
            ),
            (
                t + 4,
                "Response",
                "PlannedState",
                gen_value(r, 1, Some(None)),
            ),
        ]);
    }
    files
}

/// The span follows the writer: a directory whose messages each share a millisecond
/// is grouped within two (a message may cross one millisecond's end); one whose
/// requests take two milliseconds from first file to last, within three.
#[test]
fn the_span_follows_how_fast_the_files_were_written() {
    let quiet: Vec<(u64, &str, &str, Vec<u8>)> = slow_creates(300)
        .into_iter()
        .map(|(t, message, field, bytes)| (t - t % 10, message, field, bytes))
        .collect();
    assert_eq!(super::writer::span(&by_rpc(&plan_files(quiet))), 1);
    assert_eq!(
        super::writer::span(&by_rpc(&plan_files(slow_creates(300)))),
        3
    );
    // No message of a known write order: a message within one millisecond's end.
    assert_eq!(super::writer::span(&BTreeMap::new()), 1);
}

/// A message's files keep the order terraform-plugin-go writes them in (as the
/// generated run of seed 25 at a span of five showed). At 100, `x`'s update plan left
/// only its `PriorState`: other calls overwrote its `Config` and `ProposedNewState`. At
/// 102, `w`'s destroy plan wrote a null `Config` and `ProposedNewState`, which fit any
/// `PriorState` by Terraform's rules. Within a slow writer's span, `x`'s state with
/// `w`'s nulls is the only grouping that fits, a destroy of `x` that never happened;
/// but a `Config` is written before its message's `PriorState`, so `w`'s cannot be
/// `x`'s. `x`'s request is left incomplete; `w`'s destroy is complete.
#[test]
fn a_message_keeps_the_order_its_files_are_written_in() {
    let mut files = slow_creates(300);
    files.extend([
        (100, "Request", "Config", gen_value("y", 1, None)),
        (100, "Request", "PriorState", known("x", 1)),
        (
            100,
            "Request",
            "ProposedNewState",
            gen_value("z", 1, Some(None)),
        ),
        (102, "Request", "Config", vec![0xc0]),
        (102, "Request", "PriorState", known("w", 1)),
        (102, "Request", "ProposedNewState", vec![0xc0]),
        (104, "Response", "PlannedState", vec![0xc0]),
    ]);
    let files = plan_files(files);
    assert_eq!(super::writer::span(&by_rpc(&files)), 3);
    let capture = Capture::from_files_with_schemas(files, &gen_schemas());
    let shown = |name: &str| {
        let call = holding(&capture, name);
        (call.payloads.len(), status_word(call))
    };
    assert_eq!(
        shown("100_PlanResourceChange_Request_PriorState.msgpack").1,
        "incomplete"
    );
    assert_eq!(
        shown("102_PlanResourceChange_Request_PriorState.msgpack"),
        (4, "complete".to_owned())
    );
}

// Wrong applies over 1,000 runs (stop 47)

/// Apply files, as [`rpc_files`] names them.
fn apply_files(files: Vec<(u64, &str, &str, Vec<u8>)>) -> Vec<(String, Vec<u8>)> {
    rpc_files("ApplyResourceChange", files)
}

/// `r`'s `gen_thing` of `size` with its `id` known (`id-r`), as MessagePack.
fn known(r: &str, size: i64) -> Vec<u8> {
    gen_value(r, size, Some(Some(&format!("id-{r}"))))
}

/// The plans of updates of `a` and `b` (size 1 to 2), at 10 and 12: each request's
/// `Config`, `PriorState` and `ProposedNewState`, each response's `PlannedState`.
fn two_update_plans() -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for (t, r) in [(10, "a"), (12, "b")] {
        files.extend([
            (t, "Request", "Config", gen_value(r, 2, None)),
            (t, "Request", "PriorState", known(r, 1)),
            (t, "Request", "ProposedNewState", known(r, 2)),
            (t + 1, "Response", "PlannedState", known(r, 2)),
        ]);
    }
    plan_files(files)
}

/// The call of `capture` holding `file`.
fn holding<'c>(capture: &'c Capture, file: &str) -> &'c Call {
    capture
        .calls
        .iter()
        .find(|c| c.payloads.iter().any(|p| p.file == file))
        .unwrap()
}

/// The status of the call holding `file`, with its reason.
fn status_of(capture: &Capture, file: &str) -> String {
    holding(capture, file).status.to_string()
}

/// The status, with its reason, of the call holding `file` among the calls
/// [`Capture`] makes of `files` with [`gen_schemas`].
fn status_in(files: Vec<(String, Vec<u8>)>, file: &str) -> String {
    status_of(
        &Capture::from_files_with_schemas(files, &gen_schemas()),
        file,
    )
}

/// Two updates' applies written in one millisecond (as the generated run of seed 334
/// with the changes applied showed): `a`'s `Config` over `b`'s, `b`'s `PlannedState`
/// and `PriorState` over `a`'s, both answers' files lost but one. `b`'s plan keeps
/// `b`'s name where the `Config` says `a`: Terraform allows a plan to keep a prior value
/// over the configuration's, so the call keeps every rule. No plan asked for `a`'s
/// configuration from `b`'s state: the call is possibly mixed. Where one did (a
/// provider that keeps the prior name, as a suppressed diff does), it is complete.
#[test]
fn an_apply_keeping_prior_values_no_plan_asked_for_is_possibly_mixed() {
    let apply = apply_files(vec![
        (20, "Request", "Config", gen_value("a", 2, None)),
        (20, "Request", "PlannedState", known("b", 2)),
        (20, "Request", "PriorState", known("b", 1)),
        (21, "Response", "NewState", known("b", 2)),
    ]);
    let file = "20_ApplyResourceChange_Request_Config.msgpack";
    let files = [two_update_plans(), apply.clone()].concat();
    let status = status_in(files, file);
    assert!(
        status.starts_with("possibly mixed: its PlannedState keeps PriorState's values"),
        "{status}"
    );
    // A plan of `a`'s configuration from `b`'s state, answered with `b`'s name kept.
    let asked = plan_files(vec![
        (14, "Request", "Config", gen_value("a", 2, None)),
        (14, "Request", "PriorState", known("b", 1)),
        (
            14,
            "Request",
            "ProposedNewState",
            gen_value("a", 2, Some(Some("id-b"))),
        ),
        (15, "Response", "PlannedState", known("b", 2)),
    ]);
    let files = [two_update_plans(), asked, apply].concat();
    assert_eq!(status_in(files, file), "complete");
}

/// Two updates' applies written in one millisecond, interleaved (as the generated run
/// of seed 733 with the changes applied showed): `a`'s `Config` and `PlannedState`,
/// `b`'s `PriorState`. The call keeps every rule (a computed `id` may be planned
/// anew). `b`'s answer at 88 is left with no request that fits it: an apply whose
/// request overwrites hid, written before it. No plan asked for `a`'s configuration
/// from `b`'s state, so the apply before that answer is possibly mixed. Without the
/// stray answer, nothing shows an apply hidden, and the call is complete.
#[test]
fn an_apply_before_an_answer_no_request_fits_is_possibly_mixed() {
    let apply = apply_files(vec![
        (86, "Request", "Config", gen_value("a", 2, None)),
        (86, "Request", "PlannedState", known("a", 2)),
        (86, "Request", "PriorState", known("b", 1)),
        (87, "Response", "NewState", known("a", 2)),
    ]);
    let stray = apply_files(vec![(88, "Response", "NewState", known("b", 2))]);
    let file = "86_ApplyResourceChange_Request_Config.msgpack";
    let files = [two_update_plans(), apply.clone(), stray].concat();
    let status = status_in(files, file);
    assert!(
        status.starts_with("possibly mixed: no plan in the directory asked for"),
        "{status}"
    );
    assert_eq!(
        status_in([two_update_plans(), apply].concat(), file),
        "complete"
    );
}

/// An apply whose plan request overwrites left in doubt (its `Config` and `PriorState`
/// files another plan's, at 10) but whose `ProposedNewState` is left: Terraform makes
/// that value from the apply's `Config` and `PriorState` (the configuration's values,
/// the state's computed `id`), so it planned from them, whoever wrote the file. The
/// apply before an answer no request fits is complete; without that file it is
/// possibly mixed, no plan having asked for it.
#[test]
fn an_apply_whose_proposal_is_left_was_asked_for() {
    let plans = |proposal: bool| {
        let mut files = vec![
            (10, "Request", "Config", gen_value("c", 2, None)),
            (10, "Request", "PriorState", known("c", 1)),
            (12, "Request", "Config", gen_value("b", 2, None)),
            (12, "Request", "PriorState", known("b", 1)),
            (12, "Request", "ProposedNewState", known("b", 2)),
            (13, "Response", "PlannedState", known("b", 2)),
        ];
        let proposed = match proposal {
            true => known("a", 2),
            false => gen_value("c", 2, Some(Some("id-x"))),
        };
        files.push((10, "Request", "ProposedNewState", proposed));
        plan_files(files)
    };
    let apply = apply_files(vec![
        (86, "Request", "Config", gen_value("a", 2, None)),
        (86, "Request", "PlannedState", known("a", 2)),
        (86, "Request", "PriorState", known("a", 1)),
        (87, "Response", "NewState", known("a", 2)),
        (88, "Response", "NewState", known("b", 2)),
    ]);
    let file = "86_ApplyResourceChange_Request_Config.msgpack";
    let status = |proposal: bool| {
        let files = [plans(proposal), apply.clone()].concat();
        status_in(files, file)
    };
    assert_eq!(status(true), "complete");
    assert!(
        status(false).starts_with("possibly mixed: no plan in the directory asked for"),
        "{}",
        status(false)
    );
}

// Calls held open for want of a hidden request (stop 48)

/// Creates' plans of `r` from a null state: the request's `Config`, `PriorState` and
/// `ProposedNewState` at `request`, the answer's `PlannedState` at `answer`.
fn create_plan(r: &str, request: u64, answer: u64) -> Vec<(u64, &str, &str, Vec<u8>)> {
    vec![
        (request, "Request", "Config", gen_value(r, 1, None)),
        (request, "Request", "PriorState", vec![0xc0]),
        (
            request,
            "Request",
            "ProposedNewState",
            gen_value(r, 1, None),
        ),
        (
            answer,
            "Response",
            "PlannedState",
            gen_value(r, 1, Some(None)),
        ),
    ]
}

/// `c` is planned twice, with answers of the same bytes (as the live runs' plans and
/// their applies' plans again are). The first request is hidden behind `b`'s names at
/// 10 (its answer at 11 is left); the second, at 30, is whole, and an answer no request
/// fits at 32 leaves the times nothing to pair. Two answers of `c`'s bytes and one
/// request that fits them: a request is hidden. The answer at 11, written before the
/// only request that fits it, is the hidden one's, so the one at 31 is the request's at
/// 30, and the call is complete. Where the second answer of those bytes comes after
/// the request instead, either could be the hidden request's, written behind this
/// one's names: the request is left ambiguous.
#[test]
fn an_answer_written_before_every_request_it_fits_is_the_hidden_ones() {
    let status = |stray: u64| {
        let mut files = create_plan("b", 10, 13);
        files.extend(create_plan("c", 30, 31));
        // An answer no request fits, after the request: the times pair nothing.
        files.push((
            32,
            "Response",
            "PlannedState",
            gen_value("z", 1, Some(None)),
        ));
        files.push((
            stray,
            "Response",
            "PlannedState",
            gen_value("c", 1, Some(None)),
        ));
        let capture = Capture::from_files_with_schemas(plan_files(files), &gen_schemas());
        status_word(holding(
            &capture,
            "30_PlanResourceChange_Request_Config.msgpack",
        ))
    };
    assert_eq!(status(11), "complete");
    assert_eq!(status(33), "ambiguous");
}

/// A destroy run: `w`'s destroy plan at 10 is carried out by no apply (an overwrite hid
/// it), and `v`'s destroy at 20 has no plan left (an overwrite took it). A hidden
/// destroy's request differs from `v`'s only in its `PriorState` (every other field of
/// the destroys holds the same bytes), so files of both show one of the two destroys:
/// `v`'s is complete. Beside an answer of a state no request fits (an update or a
/// create hidden), it is possibly mixed.
#[test]
fn a_destroy_beside_a_hidden_destroy_is_complete() {
    let plan = plan_files(vec![
        (10, "Request", "Config", vec![0xc0]),
        (10, "Request", "PriorState", known("w", 1)),
        (10, "Request", "ProposedNewState", vec![0xc0]),
        (11, "Response", "PlannedState", vec![0xc0]),
    ]);
    let apply = apply_files(vec![
        (20, "Request", "Config", vec![0xc0]),
        (20, "Request", "PlannedState", vec![0xc0]),
        (20, "Request", "PriorState", known("v", 1)),
        (21, "Response", "NewState", vec![0xc0]),
    ]);
    let file = "20_ApplyResourceChange_Request_PriorState.msgpack";
    assert_eq!(
        status_in([plan.clone(), apply.clone()].concat(), file),
        "complete"
    );
    let stray = apply_files(vec![(22, "Response", "NewState", known("x", 2))]);
    let status = status_in([plan, apply, stray].concat(), file);
    assert!(
        status.starts_with("possibly mixed: no plan in the directory asked for"),
        "{status}"
    );
}

/// Two create plans wrote their request at 20 at once, tearing its `Config` (as live
/// run 10 showed): the files there are two calls', whose values nothing tells, so they
/// fit any answer. They claim none: `c`'s request at 30 is answered by the only
/// response that fits it, where the torn one held it ambiguous.
#[test]
fn a_torn_request_claims_no_answer() {
    let mut files = create_plan("a", 20, 25);
    files[0].3 = torn_bytes(&gen_value("a", 1, None), &gen_value("a-longer", 1, None));
    files.pop();
    files.extend(create_plan("c", 30, 31));
    let capture = Capture::from_files_with_schemas(plan_files(files), &gen_schemas());
    let torn = status_of(&capture, "20_PlanResourceChange_Request_Config.msgpack");
    assert!(
        torn.starts_with(
            "incomplete: no Response PlannedState; \
             20_PlanResourceChange_Request_Config.msgpack holds"
        ),
        "{torn}"
    );
    assert!(
        torn.ends_with("; a request of two calls is paired with no response"),
        "{torn}"
    );
    assert_eq!(
        status_of(&capture, "30_PlanResourceChange_Request_Config.msgpack"),
        "complete"
    );
}

/// `a`'s update is planned at 10 and answered at 11; the plan again before its apply
/// left only its answer, at 30 (an overwrite hid its request). Two answers of those
/// bytes and one request: a request is hidden, perhaps behind this one's names. But the
/// apply at 40 carries out a plan of this request's `Config` and `PriorState` and
/// carries the answer's bytes: whichever of the two plans these files are, the call
/// shows what that plan was asked and answered, so it is complete. Without the apply,
/// it is ambiguous.
#[test]
fn a_plan_an_apply_carries_out_is_complete_beside_an_answer_no_request_explains() {
    let plan = plan_files(vec![
        (10, "Request", "Config", gen_value("a", 2, None)),
        (10, "Request", "PriorState", known("a", 1)),
        (10, "Request", "ProposedNewState", known("a", 2)),
        (11, "Response", "PlannedState", known("a", 2)),
        (30, "Response", "PlannedState", known("a", 2)),
    ]);
    let apply = apply_files(vec![
        (40, "Request", "Config", gen_value("a", 2, None)),
        (40, "Request", "PlannedState", known("a", 2)),
        (40, "Request", "PriorState", known("a", 1)),
        (41, "Response", "NewState", known("a", 2)),
    ]);
    let file = "10_PlanResourceChange_Request_Config.msgpack";
    let capture = Capture::from_files_with_schemas(plan.clone(), &gen_schemas());
    assert_eq!(status_word(holding(&capture, file)), "ambiguous");
    assert_eq!(status_in([plan, apply].concat(), file), "complete");
}

/// Two destroys written in one millisecond (as live run 1 showed): `v`'s `Config` at
/// 63, then `w`'s request at 64 over `v`'s `PlannedState` and `PriorState`. `v`'s
/// message near 64 could have written the `PriorState` `w`'s call holds, and nothing
/// links it. But that call's null `Config` is its own (no other call could have
/// written it), so it is a destroy; and two destroys differ only in their
/// `PriorState` (every other field of the destroys holds the same bytes): files of both
/// show one of the two, and the call is complete. Beside an update's request, it is
/// possibly mixed. (An update at 300 makes the `Config` and `PlannedState` differ
/// across the directory, as they do in a run's life.)
#[test]
fn a_destroy_holding_a_field_another_destroy_could_have_written_is_complete() {
    let destroys = apply_files(vec![
        (63, "Request", "Config", vec![0xc0]),
        (64, "Request", "Config", vec![0xc0]),
        (64, "Request", "PlannedState", vec![0xc0]),
        (64, "Request", "PriorState", known("w", 1)),
        (64, "Response", "NewState", vec![0xc0]),
        (73, "Response", "NewState", vec![0xc0]),
        (200, "Request", "Config", vec![0xc0]),
        (200, "Request", "PlannedState", vec![0xc0]),
        (200, "Request", "PriorState", known("x", 1)),
        (201, "Response", "NewState", vec![0xc0]),
        (300, "Request", "Config", gen_value("a", 2, None)),
        (300, "Request", "PlannedState", known("a", 2)),
        (300, "Request", "PriorState", known("a", 1)),
        (301, "Response", "NewState", known("a", 2)),
    ]);
    let file = "64_ApplyResourceChange_Request_PriorState.msgpack";
    assert_eq!(status_in(destroys.clone(), file), "complete");
    let mut update = destroys;
    update[0] = apply_files(vec![(63, "Request", "Config", gen_value("v", 2, None))]).remove(0);
    let status = status_in(update, file);
    assert!(
        status.starts_with("possibly mixed: another call of ApplyResourceChange wrote"),
        "{status}"
    );
}

/// Two destroys' answers, and one at 74 torn by two calls (as live run 2 showed): the
/// torn file holds two calls' bytes, which fit any request, so it answers none. The
/// destroy at 60 is answered by the null state its rules fix, which every other
/// response holds too, and is complete; the torn one stays incomplete.
#[test]
fn a_torn_response_answers_no_request() {
    let torn = torn_bytes(&known("a", 1), &known("a-longer", 1));
    let files = apply_files(vec![
        (60, "Request", "Config", vec![0xc0]),
        (60, "Request", "PlannedState", vec![0xc0]),
        (60, "Request", "PriorState", known("d", 1)),
        (61, "Response", "NewState", vec![0xc0]),
        (70, "Request", "Config", vec![0xc0]),
        (70, "Request", "PlannedState", vec![0xc0]),
        (70, "Request", "PriorState", known("e", 1)),
        (71, "Response", "NewState", vec![0xc0]),
        (74, "Response", "NewState", torn),
    ]);
    let capture = Capture::from_files_with_schemas(files, &gen_schemas());
    assert_eq!(
        status_of(&capture, "60_ApplyResourceChange_Request_Config.msgpack"),
        "complete"
    );
    assert!(
        status_of(&capture, "74_ApplyResourceChange_Response_NewState.msgpack")
            .starts_with("incomplete: no Request")
    );
}

/// Two requests of the same bytes (a plan, and the plan again before its apply) share
/// one response (as live run 1 showed: the pairing gives twins' answers to either, since
/// either shows the same values). The other call holding that very file could have
/// written it, but shares it: each call is complete. A call of other bytes with a file
/// in its millisecond still contests it.
#[test]
fn twins_sharing_an_answer_do_not_contest_it() {
    let plan = |t: u64, answer: u64, r: &str| {
        whole_call(
            "PlanResourceChange",
            &[
                (t, "Request", "Config", gen_value(r, 2, None)),
                (t, "Request", "PriorState", known(r, 1)),
                (t, "Request", "ProposedNewState", known(r, 2)),
                (answer, "Response", "PlannedState", known(r, 2)),
            ],
        )
    };
    // `b`'s plan makes the `PlannedState` differ across the directory.
    let statuses = |extra: Vec<Call>| {
        let mut calls = vec![plan(10, 40, "a"), plan(38, 40, "a"), plan(60, 61, "b")];
        calls.extend(extra);
        super::overwritten::mark(&mut calls, true, 1);
        calls.iter().map(status_word).collect::<Vec<_>>()
    };
    assert_eq!(statuses(Vec::new()), ["complete"; 3]);
    // `c`'s request, and its answer's `PlannedPrivate` in the shared answer's
    // millisecond (its `PlannedState` lost there).
    let mut other = plan(39, 40, "c");
    other.payloads.retain(|p| p.name.is_request());
    other.payloads.push(
        Payload::new(
            "40_PlanResourceChange_Response_PlannedPrivate.empty".to_owned(),
            Vec::new(),
        )
        .unwrap(),
    );
    let shown = statuses(vec![other]);
    assert_eq!(
        shown[..2],
        ["possibly mixed", "possibly mixed"],
        "{shown:?}"
    );
}

/// A slow writer's apply of `a` (its `Config` at 121) beside another apply's files that
/// lack a `Config`, within the span (four milliseconds): that apply's `PlannedPrivate`
/// at 117. terraform-plugin-go writes an apply's `Config` first and its
/// `PlannedPrivate` last, so that apply wrote its `Config` by 117 and could not have
/// written the one at 121: `a`'s apply is complete. With that `PlannedPrivate` at 122,
/// it could have, and `a`'s apply is possibly mixed.
#[test]
fn a_field_another_call_would_have_written_out_of_order_is_not_contested() {
    let statuses = |private_at: u64| {
        let update = |r: &str, t: u64| {
            whole_call(
                "ApplyResourceChange",
                &[
                    (t, "Request", "Config", gen_value(r, 2, None)),
                    (t, "Request", "PlannedState", known(r, 2)),
                    (t + 1, "Request", "PriorState", known(r, 1)),
                    (t + 3, "Request", "PlannedPrivate", Vec::new()),
                    (t + 4, "Response", "NewState", known(r, 2)),
                ],
            )
        };
        let mut other = whole_call(
            "ApplyResourceChange",
            &[(private_at, "Request", "PlannedPrivate", Vec::new())],
        );
        other.status = Status::Incomplete {
            missing: vec!["Request Config".to_owned()],
            reason: "the request lacks files".to_owned(),
        };
        let mut calls = vec![update("a", 121), other, update("b", 300)];
        super::overwritten::mark(&mut calls, true, 4);
        status_word(&calls[0])
    };
    assert_eq!(statuses(117), "complete");
    assert_eq!(statuses(122), "possibly mixed");
}

// One provider configuration (stop 49)

/// `c`'s create is planned in a plan walk (request at 10, answer at 11), and planned
/// again in the apply walk, whose request was lost (only its answer, at 61, is left).
/// The request at 10 fits both answers. Where the run had one provider configuration
/// and the apply walk's process was configured at 50, the process that took the
/// request at 10 had answered it by then: the call is complete. Without that
/// knowledge, or where no process was configured between the two answers, it is not.
#[test]
fn with_one_configuration_no_answer_after_the_next_process_is_configured_is_a_requests_before() {
    let configure = |t: u64| {
        (
            format!("{t}_ConfigureProvider_Request_Config.msgpack"),
            vec![0x80],
        )
    };
    let files = |configured: &[u64]| {
        let mut files = plan_files(create_plan("c", 10, 11));
        files.extend(plan_files(vec![(
            61,
            "Response",
            "PlannedState",
            gen_value("c", 1, Some(None)),
        )]));
        files.extend(configured.iter().map(|&t| configure(t)));
        files
    };
    let file = "10_PlanResourceChange_Request_Config.msgpack";
    let status = |configured: &[u64], run: Run| {
        let capture =
            Capture::from_files_for_run(files(configured), &gen_schemas(), Client::default(), run);
        status_of(&capture, file)
    };
    let one = Run::of_one_configuration();
    assert_eq!(status(&[5, 50], one), "complete");
    assert_ne!(status(&[5, 50], Run::default()), "complete");
    assert_ne!(status(&[5], one), "complete");
    assert_ne!(status(&[5, 70], one), "complete");
}

/// Refreshes of `a` and `b` in one millisecond (as the generated run of seed 4 showed):
/// `b`'s request over `a`'s at 79, `a`'s answer at 80, and `b`'s answer lost under
/// `c`'s at 81 (`c`'s request at 80: a refresh without drift, which binds it). The
/// request at 79 and the answer at 80 are each other's only match by the times, but
/// they are two calls' halves: `b`'s request may hide `a`'s behind its own names, and
/// its own answer be lost behind any answer written whole in one millisecond after it.
/// Possibly mixed; where `c`'s answer straddles two milliseconds (so no overwrite can
/// have left it whole), complete.
#[test]
fn a_pair_by_the_times_may_hide_its_request_behind_its_own_names() {
    let state = |s: &str| vec![0xa1, s.as_bytes()[0]];
    let files = |c_private: u64| {
        vec![
            (
                "79_ReadResource_Request_CurrentState.msgpack".to_owned(),
                state("b"),
            ),
            ("79_ReadResource_Request_Private.empty".to_owned(), vec![]),
            (
                "80_ReadResource_Response_NewState.msgpack".to_owned(),
                state("a"),
            ),
            ("80_ReadResource_Response_Private.empty".to_owned(), vec![]),
            (
                "80_ReadResource_Request_CurrentState.msgpack".to_owned(),
                state("c"),
            ),
            ("80_ReadResource_Request_Private.empty".to_owned(), vec![]),
            (
                "81_ReadResource_Response_NewState.msgpack".to_owned(),
                state("c"),
            ),
            (
                format!("{c_private}_ReadResource_Response_Private.empty"),
                vec![],
            ),
        ]
    };
    let file = "79_ReadResource_Request_CurrentState.msgpack";
    let mixed = status_of(&Capture::from_files(files(81)), file);
    assert!(
        mixed.starts_with("possibly mixed: paired by the times alone")
            && mixed.contains("this request's own names"),
        "{mixed}"
    );
    assert_eq!(status_of(&Capture::from_files(files(82)), file), "complete");
}

// A stall between one message's files (stop 49)

/// Sixty creates' plans written quickly (each request in one millisecond, its answer
/// in the next: the span is one or two), and one whose `Config` was written `stall`
/// milliseconds before the rest of its request (the live runs show stalls of ten).
/// The rules bind that `Config` to the rest (its `ProposedNewState` is what Terraform
/// makes of it from a null state), and no file of its field near the rest fits: the
/// `Config` before them is the message's, and the call is complete. Beyond the reach
/// of a stall (32 spans), it is not: the request is left without its `Config`.
#[test]
fn a_request_whose_first_file_was_written_before_a_stall_is_whole() {
    let status = |stall: u64| {
        let mut files = Vec::new();
        for k in 0..60u64 {
            let name = format!("n{k}");
            files.extend(plan_files(create_plan(&name, 1000 + 3 * k, 1001 + 3 * k)));
        }
        let mut stalled = create_plan("s", 700, 701);
        stalled[0].0 = 700 - stall;
        files.extend(plan_files(stalled));
        let capture = Capture::from_files_with_schemas(files, &gen_schemas());
        let call = holding(
            &capture,
            "700_PlanResourceChange_Request_PriorState.msgpack",
        );
        (call.status.to_string(), call.explain.join("; "))
    };
    let (status_10, explain) = status(10);
    assert_eq!(status_10, "complete", "{explain}");
    assert!(
        explain.contains(
            "690_PlanResourceChange_Request_Config.msgpack written before the rest (a stall"
        ),
        "{explain}"
    );
    assert_ne!(status(200).0, "complete");
}
