//! The capture writer writes terraform-plugin-go's file names, which the library's
//! capture reader groups into calls.

use ctywire::capture::Capture;
use ctywire_tfplugin::capture::CaptureWriter;
use ctywire_tfplugin::tfplugin6::{
    apply_resource_change, call_function, import_resource_state, plan_resource_change, DynamicValue,
};

fn msgpack(bytes: &[u8]) -> Option<DynamicValue> {
    Some(DynamicValue {
        msgpack: bytes.to_vec().into(),
        json: Default::default(),
    })
}

fn names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            // Without the time: `{UnixMilli}_` is all digits.
            let (millis, rest) = name.split_once('_').unwrap();
            assert!(
                millis.len() >= 13 && millis.bytes().all(|b| b.is_ascii_digit()),
                "{name}"
            );
            rest.to_owned()
        })
        .collect();
    names.sort();
    names
}

#[test]
fn every_value_of_a_call_under_terraform_plugin_go_names() {
    let dir = std::env::temp_dir().join(format!("ctywire-tfplugin-capture-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let capture = CaptureWriter::new(&dir);
    capture.request(&plan_resource_change::Request {
        type_name: "demo_thing".into(),
        config: msgpack(b"\x81\xa4name\xa1a"),
        prior_state: None,
        proposed_new_state: Some(DynamicValue {
            msgpack: Default::default(),
            json: br#"{"name":"a"}"#.to_vec().into(),
        }),
        prior_private: vec![],
        ..Default::default()
    });
    capture.response(&plan_resource_change::Response {
        planned_state: msgpack(b"\x81\xa4name\xa1a"),
        planned_private: b"{}".to_vec(),
        ..Default::default()
    });
    capture.response(&import_resource_state::Response {
        imported_resources: vec![import_resource_state::ImportedResource {
            type_name: "demo_thing".into(),
            state: msgpack(b"\xc0"),
            ..Default::default()
        }],
        ..Default::default()
    });
    capture.request(&call_function::Request {
        name: "concat".into(),
        arguments: vec![DynamicValue::default(), msgpack(b"\xa1x").unwrap()],
    });
    assert_eq!(
        names(&dir),
        [
            "CallFunction_Request_Arguments_0.empty",
            "CallFunction_Request_Arguments_1.msgpack",
            "ImportResourceState_Response_ImportedResource_Private.empty",
            "ImportResourceState_Response_ImportedResource_State.msgpack",
            "PlanResourceChange_Request_Config.msgpack",
            "PlanResourceChange_Request_PriorPrivate.empty",
            "PlanResourceChange_Request_PriorState.empty",
            "PlanResourceChange_Request_ProposedNewState.json",
            "PlanResourceChange_Request_ProviderMeta.empty",
            "PlanResourceChange_Response_PlannedPrivate",
            "PlanResourceChange_Response_PlannedState.msgpack",
        ]
    );
    let read = Capture::read_dir(&dir).unwrap();
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    let rpcs: Vec<&str> = read.calls.iter().map(|c| c.rpc.as_str()).collect();
    assert!(rpcs.contains(&"PlanResourceChange"), "{rpcs:?}");
    let plan = read
        .calls
        .iter()
        .find(|c| c.rpc == "PlanResourceChange")
        .unwrap();
    assert!(plan.change().is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_disabled_writer_writes_nothing() {
    let capture = CaptureWriter::disabled();
    assert!(capture.dir().is_none());
    capture.request(&apply_resource_change::Request::default());
}

/// The files of one message carry one millisecond, however long writing them takes
/// (terraform-plugin-go stamps each file by itself): writing 16 MB takes several.
#[test]
fn one_message_is_stamped_with_one_millisecond() {
    let dir = std::env::temp_dir().join(format!(
        "ctywire-tfplugin-capture-stamp-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let big = || {
        let mut bytes = vec![0xc6, 0x00, 0x40, 0x00, 0x00];
        bytes.resize(5 + (4 << 20), 0x61);
        msgpack(&bytes)
    };
    CaptureWriter::new(&dir).request(&plan_resource_change::Request {
        type_name: "demo_thing".into(),
        config: big(),
        prior_state: big(),
        proposed_new_state: big(),
        provider_meta: big(),
        ..Default::default()
    });
    let stamps: std::collections::BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.split('_').next().unwrap().to_owned()
        })
        .collect();
    assert_eq!(stamps.len(), 1, "{stamps:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Calls in the same millisecond write the same file names: each file is one call's
/// value whole (the last writer's), never two writes torn together, and no staging file
/// is left behind.
#[test]
fn concurrent_writes_of_one_name_leave_one_whole_value() {
    let dir = std::env::temp_dir().join(format!("ctywire-capture-race-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let writer = std::sync::Arc::new(ctywire_tfplugin::capture::CaptureWriter::new(&dir));
    let values: Vec<Vec<u8>> = (1..=8u8)
        .map(|n| vec![0xa0 + n; usize::from(n) * 3000])
        .collect();
    for _ in 0..20 {
        std::thread::scope(|scope| {
            for bytes in &values {
                let writer = writer.clone();
                scope.spawn(move || {
                    for _ in 0..5 {
                        writer.response(&ctywire_tfplugin::tfplugin6::call_function::Response {
                            result: Some(ctywire_tfplugin::tfplugin6::DynamicValue {
                                msgpack: bytes.clone().into(),
                                json: Default::default(),
                            }),
                            error: None,
                        });
                    }
                });
            }
        });
    }
    for entry in std::fs::read_dir(&dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        assert!(!name.starts_with('.'), "a staging file is left: {name}");
        let bytes = std::fs::read(entry.path()).unwrap();
        assert!(
            values.contains(&bytes),
            "{name} holds {} torn bytes",
            bytes.len()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
