//! The demo provider as Terraform starts it (a child process with go-plugin's variables),
//! under signals: SIGINT is ignored from the moment the handshake line is out; SIGTERM and
//! SIGHUP end the process with status 128 plus the signal's number and remove the
//! socket's directory, which is the user's alone (mode 0700) even under umask 000.

use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The demo started under `umask` with its socket directory under `parent`: the child
/// and the socket's path from its handshake line (read as soon as it is printed).
fn start(parent: &Path, umask: &str) -> (Child, PathBuf) {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("umask {umask} && exec \"$0\""))
        .arg(env!("CARGO_BIN_EXE_terraform-provider-demo"))
        .env(
            "TF_PLUGIN_MAGIC_COOKIE",
            ctywire_tfplugin::MAGIC_COOKIE_VALUE,
        )
        .env("PLUGIN_PROTOCOL_VERSIONS", "6")
        .env("PLUGIN_UNIX_SOCKET_DIR", parent)
        .env_remove("PLUGIN_CLIENT_CERT")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the demo provider");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the handshake line");
    let parts: Vec<&str> = line.trim_end().split('|').collect();
    assert_eq!(&parts[..3], ["1", "6", "unix"], "{line}");
    (child, PathBuf::from(parts[3]))
}

/// The provider's process, killed if a test fails before it exits.
struct Provider(Child);

impl Drop for Provider {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

fn kill(child: &Child, signal: &str) {
    let status = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
}

/// The child's exit status, waiting at most 10 s.
fn exit_code(child: &mut Child) -> Option<i32> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status.code();
        }
        if Instant::now() > deadline {
            child.kill().expect("kill");
            panic!("the demo provider did not exit");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn parent(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("demo-signals-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    dir
}

/// SIGINT the instant the handshake line is read does not end the provider (ten times
/// over); SIGTERM then does, with status 143, and the socket's directory goes.
#[test]
fn sigint_right_after_the_handshake_is_ignored_and_sigterm_cleans_up() {
    let parent = parent("int");
    for _ in 0..10 {
        let (child, socket) = start(&parent, "022");
        let mut child = Provider(child);
        let child = &mut child.0;
        kill(child, "INT");
        std::thread::sleep(Duration::from_millis(50));
        kill(child, "INT");
        std::thread::sleep(Duration::from_millis(50));
        assert!(child.try_wait().expect("wait").is_none(), "SIGINT ended it");
        assert!(socket.exists());
        kill(child, "TERM");
        assert_eq!(exit_code(child), Some(143));
        assert!(!socket.parent().expect("a directory").exists());
    }
    std::fs::remove_dir_all(&parent).expect("cleaned up");
}

/// Under umask 000 the socket's directory is still 0700; SIGHUP ends the provider with
/// status 129 and removes it.
#[test]
fn the_socket_directory_is_private_under_any_umask_and_sighup_cleans_up() {
    let parent = parent("hup");
    let (child, socket) = start(&parent, "000");
    let mut child = Provider(child);
    let child = &mut child.0;
    let dir = socket.parent().expect("a directory").to_path_buf();
    let mode = std::fs::metadata(&dir)
        .expect("the directory")
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o700, "{mode:o}");
    kill(child, "HUP");
    assert_eq!(exit_code(child), Some(129));
    assert!(!dir.exists());
    std::fs::remove_dir_all(&parent).expect("cleaned up");
}
