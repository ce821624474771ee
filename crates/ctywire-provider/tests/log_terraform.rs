//! Logging under real Terraform (run with `TF_ACC=1`): a handler's `tracing` events,
//! written on stderr as go-hclog JSON lines, are in Terraform's log (`TF_LOG_PATH`) with
//! their level and fields. Terraform reads a provider's stderr only when it starts the
//! provider itself, so this test's binary is the provider too: run by Terraform (through
//! a `dev_overrides` script that sets `CTYWIRE_SERVE_LOG_TEST`), it serves.

#[path = "all/logged.rs"]
mod logged;

use ctywire_provider::Server;
use ctywire_testing::{Terraform, Workspace};
use logged::{Rt, Things};

fn main() {
    if std::env::var_os("CTYWIRE_SERVE_LOG_TEST").is_some() {
        let runtime = tokio::runtime::Runtime::new().expect("a runtime");
        runtime.block_on(Server::new(Rt).resource(Things).serve());
        return;
    }
    // A test runner that lists tests first (nextest) sees this one test.
    if std::env::args().any(|a| a == "--list") {
        println!("terraform_log: test");
        return;
    }
    let Some(terraform) = Terraform::for_acceptance() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("ctywire-log-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let script = dir.join("terraform-provider-rt");
    let me = std::env::current_exe().expect("this test's binary");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nCTYWIRE_SERVE_LOG_TEST=1 exec {:?}\n",
            me.display().to_string()
        ),
    )
    .expect("the provider script");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let log = dir.join("terraform.log");
    let mut ws = Workspace::binary(&terraform, "example.com/test/rt", &script)
        .unwrap_or_else(|e| panic!("{e}"));
    ws.env("TF_LOG_PROVIDER", "DEBUG")
        .env("TF_LOG_PATH", &log.display().to_string());
    ws.configure(r#"resource "rt_thing" "x" { name = "logged" }"#);
    ws.terraform(&["apply", "-no-color", "-auto-approve", "-input=false"])
        .success();
    let text = std::fs::read_to_string(&log).expect("Terraform's log");
    let line = text
        .lines()
        .find(|l| l.contains("creating the thing"))
        .unwrap_or_else(|| panic!("no event in Terraform's log:\n{text}"));
    for part in [
        "[DEBUG] provider.terraform-provider-rt: creating the thing:",
        "@module=provider",
        "tf_type_name=rt_thing",
        "tf_operation=create",
        "name=logged",
        "attempt=3",
    ] {
        assert!(line.contains(part), "{part:?} not in {line}");
    }
    assert!(
        !text.contains("a trace event"),
        "an event below TF_LOG_PROVIDER's level was written"
    );
    let _ = std::fs::remove_dir_all(&dir);
    println!("log_terraform: the handler's event is in Terraform's log: {line}");
}
