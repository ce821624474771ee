//! Serving a provider as go-plugin's client (Terraform, OpenTofu) expects: the magic
//! cookie, the protocol version, a Unix socket (TCP on `127.0.0.1` when none can be
//! made), the handshake line, AutoMTLS, health, the controller's `Shutdown`, and a debug
//! mode that prints `TF_REATTACH_PROVIDERS`.

mod conn;
mod tls;

use std::convert::Infallible;
use std::fmt;
use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use tokio::net::{TcpListener, UnixListener};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio_stream::wrappers::ReceiverStream;
use tonic::service::Routes;

use crate::controller::grpc_controller_server::{GrpcController, GrpcControllerServer};
use crate::controller::Empty;
use crate::{tfplugin5, tfplugin6};
use conn::{Conn, Stream};

/// The cookie go-plugin's client sets for Terraform's providers (`TF_PLUGIN_MAGIC_COOKIE`).
pub const MAGIC_COOKIE_KEY: &str = "TF_PLUGIN_MAGIC_COOKIE";
/// The value [`MAGIC_COOKIE_KEY`] must have.
pub const MAGIC_COOKIE_VALUE: &str =
    "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";

/// The largest message the server reads: Terraform sends whole states and plans, and
/// terraform-plugin-go accepts 256 MiB.
const MAX_MESSAGE_BYTES: usize = 256 << 20;

/// HTTP/2 flow-control windows: large enough that a request of a few megabytes of state
/// arrives without waiting for window updates (HTTP/2's default is 64 KiB).
const WINDOW_BYTES: u32 = 16 << 20;

/// The largest HTTP/2 frame the client may send (HTTP/2's default is 16 KiB): fewer
/// frames for a large request, where the client sends larger ones.
const MAX_FRAME_BYTES: u32 = 1 << 20;

/// How long a TLS handshake may take before the connection is dropped.
const TLS_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long the accept loop waits after a failed accept before it tries again.
const ACCEPT_RETRY_DELAY: Duration = Duration::from_millis(50);

/// How long a graceful stop waits for open calls before the server stops anyway.
const GRACEFUL_STOP_TIMEOUT: Duration = Duration::from_secs(5);

/// The message go-plugin prints when a plugin is run by hand (without the cookie).
const NOT_LAUNCHED_BY_TERRAFORM: &str =
    "This binary is a plugin. These are not meant to be executed directly.\n\
Please execute the program that consumes these plugins, which will\n\
load any plugins automatically";

/// The variables go-plugin's client sets for its plugin, read once at start.
///
/// [`PluginEnv::from_process`] reads them from the process environment; tests build one
/// by hand and pass it to [`Plugin::start`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PluginEnv {
    /// `TF_PLUGIN_MAGIC_COOKIE`: must be [`MAGIC_COOKIE_VALUE`].
    pub magic_cookie: Option<String>,
    /// `PLUGIN_PROTOCOL_VERSIONS`: the protocol versions the client speaks, e.g. `"5,6"`.
    pub protocol_versions: Option<String>,
    /// `PLUGIN_CLIENT_CERT`: the client's certificate (PEM) when AutoMTLS is on.
    pub client_cert: Option<String>,
    /// `PLUGIN_UNIX_SOCKET_DIR`: where to make the socket's directory (the system's
    /// temporary directory when unset).
    pub unix_socket_dir: Option<PathBuf>,
    /// `PLUGIN_MIN_PORT` and `PLUGIN_MAX_PORT`: the ports to try, lowest first, when the
    /// plugin serves on TCP (any free port when both are unset), as go-plugin's server
    /// reads them.
    pub min_port: Option<String>,
    /// See [`PluginEnv::min_port`].
    pub max_port: Option<String>,
}

impl PluginEnv {
    /// The variables from the process environment (empty values count as unset).
    pub fn from_process() -> PluginEnv {
        let var = |name| std::env::var(name).ok().filter(|v| !v.is_empty());
        PluginEnv {
            magic_cookie: var(MAGIC_COOKIE_KEY),
            protocol_versions: var("PLUGIN_PROTOCOL_VERSIONS"),
            client_cert: var("PLUGIN_CLIENT_CERT"),
            unix_socket_dir: var("PLUGIN_UNIX_SOCKET_DIR").map(PathBuf::from),
            min_port: var("PLUGIN_MIN_PORT"),
            max_port: var("PLUGIN_MAX_PORT"),
        }
    }

    /// The variables Terraform sets for a launch of a protocol-6 (or 5) provider, with
    /// AutoMTLS when `client_cert` is given.
    pub fn terraform(client_cert: Option<String>) -> PluginEnv {
        PluginEnv {
            magic_cookie: Some(MAGIC_COOKIE_VALUE.to_owned()),
            protocol_versions: Some("5,6".to_owned()),
            client_cert,
            unix_socket_dir: None,
            min_port: None,
            max_port: None,
        }
    }
}

/// Why a plugin could not start or serve.
#[derive(Debug)]
#[non_exhaustive]
pub enum ServeError {
    /// The magic cookie is missing or wrong: the binary was not started by Terraform.
    NotLaunchedByTerraform,
    /// No protocol version is both served and asked for.
    NoCommonVersion {
        /// The versions this plugin serves.
        served: Vec<u32>,
        /// The client's `PLUGIN_PROTOCOL_VERSIONS`.
        asked: String,
    },
    /// The plugin serves no protocol version at all.
    NothingToServe,
    /// The socket could not be made or served.
    Io(std::io::Error),
    /// AutoMTLS could not be set up (a bad client certificate, a certificate error).
    Tls(String),
    /// The gRPC server failed.
    Transport(tonic::transport::Error),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::NotLaunchedByTerraform => f.write_str(NOT_LAUNCHED_BY_TERRAFORM),
            ServeError::NoCommonVersion { served, asked } => write!(
                f,
                "no common plugin protocol version: this plugin serves {served:?}, the client asks for {asked:?}"
            ),
            ServeError::NothingToServe => f.write_str("the plugin serves no protocol version"),
            ServeError::Io(e) => write!(f, "plugin socket: {e}"),
            ServeError::Tls(e) => write!(f, "plugin TLS: {e}"),
            ServeError::Transport(e) => write!(f, "plugin server: {e}"),
        }
    }
}

impl std::error::Error for ServeError {}

impl From<std::io::Error> for ServeError {
    fn from(e: std::io::Error) -> Self {
        ServeError::Io(e)
    }
}

/// A provider plugin to serve: its service for protocol 6 and/or protocol 5.
///
/// ```no_run
/// use ctywire_tfplugin::tfplugin6::provider_server::Provider;
/// use ctywire_tfplugin::Plugin;
///
/// struct Demo;
/// #[tonic::async_trait]
/// impl Provider for Demo {} // every call answers Unimplemented until written
///
/// #[tokio::main]
/// async fn main() {
///     ctywire_tfplugin::serve(Plugin::new().protocol6(Demo)).await
/// }
/// ```
#[derive(Default)]
pub struct Plugin {
    v6: Option<Routes>,
    v5: Option<Routes>,
}

impl fmt::Debug for Plugin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Plugin")
            .field("versions", &self.versions())
            .finish()
    }
}

impl Plugin {
    /// A plugin that serves nothing yet.
    pub fn new() -> Plugin {
        Plugin::default()
    }

    /// Serves `provider` for protocol 6 (`tfplugin6.Provider`).
    pub fn protocol6<P: tfplugin6::provider_server::Provider>(mut self, provider: P) -> Plugin {
        let server = tfplugin6::provider_server::ProviderServer::new(provider)
            .max_decoding_message_size(MAX_MESSAGE_BYTES)
            .max_encoding_message_size(usize::MAX);
        self.v6 = Some(Routes::new(server));
        self
    }

    /// Serves `provider` for protocol 5 (`tfplugin5.Provider`).
    pub fn protocol5<P: tfplugin5::provider_server::Provider>(mut self, provider: P) -> Plugin {
        let server = tfplugin5::provider_server::ProviderServer::new(provider)
            .max_decoding_message_size(MAX_MESSAGE_BYTES)
            .max_encoding_message_size(usize::MAX);
        self.v5 = Some(Routes::new(server));
        self
    }

    /// The protocol versions served, highest first.
    pub fn versions(&self) -> Vec<u32> {
        let mut out = Vec::new();
        if self.v6.is_some() {
            out.push(6);
        }
        if self.v5.is_some() {
            out.push(5);
        }
        out
    }

    /// The version to serve: the highest one served that the client asks for (all
    /// served versions when the client names none), as go-plugin's server picks it.
    pub fn negotiate(&self, asked: Option<&str>) -> Result<u32, ServeError> {
        let served = self.versions();
        let Some(&highest) = served.first() else {
            return Err(ServeError::NothingToServe);
        };
        let Some(asked) = asked else {
            return Ok(highest);
        };
        let wanted: Vec<u32> = asked
            .split(',')
            .filter_map(|v| v.trim().parse().ok())
            .collect();
        served
            .iter()
            .copied()
            .find(|v| wanted.contains(v))
            .ok_or_else(|| ServeError::NoCommonVersion {
                served: served.clone(),
                asked: asked.to_owned(),
            })
    }

    /// Starts serving as `env` asks, without printing anything: checks the cookie,
    /// picks the version, listens on a new Unix socket (or, when no Unix socket can be
    /// made there, on TCP at `127.0.0.1`, which go-plugin's client takes as well), sets
    /// up AutoMTLS when `env` has a client certificate. The caller prints
    /// [`Started::handshake`].
    pub async fn start(self, env: &PluginEnv) -> Result<Started, ServeError> {
        if env.magic_cookie.as_deref() != Some(MAGIC_COOKIE_VALUE) {
            return Err(ServeError::NotLaunchedByTerraform);
        }
        let version = self.negotiate(env.protocol_versions.as_deref())?;
        let tls = match &env.client_cert {
            Some(pem) => {
                let identity = tls::ServerIdentity::generate()?;
                let config = tls::server_config(&identity, pem)?;
                Some((identity.cert.to_vec(), Arc::new(config)))
            }
            None => None,
        };
        self.start_version(version, env, tls).await
    }

    async fn start_version(
        mut self,
        version: u32,
        env: &PluginEnv,
        tls: Option<(Vec<u8>, Arc<rustls::ServerConfig>)>,
    ) -> Result<Started, ServeError> {
        let routes = match version {
            6 => self.v6.take(),
            _ => self.v5.take(),
        }
        .ok_or(ServeError::NothingToServe)?;
        let (listener, dir, unix_socket_error) = match listen_unix(env.unix_socket_dir.as_deref()) {
            Ok((listener, dir)) => (listener, Some(dir), None),
            Err(unix) => {
                let listener = listen_tcp(env.min_port.as_deref(), env.max_port.as_deref())
                    .await
                    .map_err(|tcp| {
                        std::io::Error::new(
                            tcp.kind(),
                            format!("no Unix socket ({unix}), and no TCP port ({tcp})"),
                        )
                    })?;
                (listener, None, Some(unix.to_string()))
            }
        };
        let address = listener.address()?;

        let (stop_tx, stop_rx) = watch::channel(false);
        let (health, health_service) = tonic_health::server::health_reporter();
        health
            .set_service_status("plugin", tonic_health::ServingStatus::Serving)
            .await;
        let controller = GrpcControllerServer::new(Controller {
            stop: stop_tx.clone(),
        });
        let routes = routes.add_service(health_service).add_service(controller);

        let (server_cert, acceptor) = match tls {
            Some((cert, config)) => (Some(cert), Some(tokio_rustls::TlsAcceptor::from(config))),
            None => (None, None),
        };
        let incoming = accept_loop(listener, acceptor, stop_rx.clone());
        let mut stopped = stop_rx.clone();
        let server = tokio::spawn(async move {
            let _dir = dir; // the socket's directory (if any) goes when the server does
            let serve = tonic::transport::Server::builder()
                .initial_connection_window_size(Some(WINDOW_BYTES))
                .initial_stream_window_size(Some(WINDOW_BYTES))
                .max_frame_size(Some(MAX_FRAME_BYTES))
                .add_routes(routes)
                .serve_with_incoming_shutdown(incoming, async move {
                    let _ = stopped.wait_for(|stop| *stop).await;
                });
            let mut stopping = stop_rx;
            tokio::select! {
                result = serve => result.map_err(ServeError::Transport),
                () = async {
                    let _ = stopping.wait_for(|stop| *stop).await;
                    tokio::time::sleep(GRACEFUL_STOP_TIMEOUT).await;
                } => Ok(()),
            }
        });

        let cert_text = server_cert
            .as_deref()
            .map(|der| base64::engine::general_purpose::STANDARD_NO_PAD.encode(der));
        let handshake = handshake_line(version, &address, cert_text.as_deref());
        Ok(Started {
            version,
            address,
            unix_socket_error,
            handshake,
            server_cert,
            stop: stop_tx,
            server,
        })
    }
}

/// Where a plugin serves: go-plugin's network (`unix` or `tcp`) and address.
///
/// ```
/// use ctywire_tfplugin::PluginAddress;
///
/// let unix = PluginAddress::Unix("/tmp/plugin1/plugin.sock".into());
/// assert_eq!((unix.network(), unix.to_string().as_str()), ("unix", "/tmp/plugin1/plugin.sock"));
/// let tcp = PluginAddress::Tcp("127.0.0.1:10000".parse().unwrap());
/// assert_eq!((tcp.network(), tcp.to_string().as_str()), ("tcp", "127.0.0.1:10000"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PluginAddress {
    /// A Unix socket's path.
    Unix(PathBuf),
    /// A TCP address (on `127.0.0.1`).
    Tcp(SocketAddr),
}

impl PluginAddress {
    /// go-plugin's name for the network: `unix` or `tcp`.
    pub fn network(&self) -> &'static str {
        match self {
            PluginAddress::Unix(_) => "unix",
            PluginAddress::Tcp(_) => "tcp",
        }
    }
}

impl fmt::Display for PluginAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PluginAddress::Unix(path) => write!(f, "{}", path.display()),
            PluginAddress::Tcp(address) => write!(f, "{address}"),
        }
    }
}

/// The handshake line go-plugin's client reads from the plugin's stdout:
/// `CORE-VERSION|APP-VERSION|NETWORK|ADDRESS|PROTOCOL[|SERVER-CERT]`, the certificate as
/// raw (unpadded) standard base64 of its DER.
///
/// ```
/// use ctywire_tfplugin::{handshake_line, PluginAddress};
///
/// let socket = PluginAddress::Unix("/tmp/plugin1/plugin.sock".into());
/// assert_eq!(handshake_line(6, &socket, None), "1|6|unix|/tmp/plugin1/plugin.sock|grpc");
/// assert_eq!(handshake_line(6, &socket, Some("MIIB")), "1|6|unix|/tmp/plugin1/plugin.sock|grpc|MIIB");
/// let tcp = PluginAddress::Tcp("127.0.0.1:10000".parse().unwrap());
/// assert_eq!(handshake_line(5, &tcp, None), "1|5|tcp|127.0.0.1:10000|grpc");
/// ```
pub fn handshake_line(version: u32, address: &PluginAddress, server_cert: Option<&str>) -> String {
    let mut line = format!("1|{version}|{}|{address}|grpc", address.network());
    if let Some(cert) = server_cert {
        line.push('|');
        line.push_str(cert);
    }
    line
}

/// A running plugin server.
#[derive(Debug)]
pub struct Started {
    /// The protocol version served.
    pub version: u32,
    /// Where the server listens: its Unix socket, or its TCP address when no Unix
    /// socket could be made.
    pub address: PluginAddress,
    /// Why the server listens on TCP: the error making the Unix socket (`None` on a
    /// Unix socket).
    pub unix_socket_error: Option<String>,
    /// The handshake line to print (without its newline).
    pub handshake: String,
    /// The server's certificate (DER) under AutoMTLS.
    pub server_cert: Option<Vec<u8>>,
    stop: watch::Sender<bool>,
    server: JoinHandle<Result<(), ServeError>>,
}

impl Started {
    /// Asks the server to stop (as the controller's `Shutdown` does).
    pub fn stop(&self) {
        let _ = self.stop.send(true);
    }

    /// Waits until the server has stopped (after [`Started::stop`] or `Shutdown`).
    pub async fn wait(self) -> Result<(), ServeError> {
        match self.server.await {
            Ok(result) => result,
            Err(e) => Err(ServeError::Io(std::io::Error::other(e))),
        }
    }
}

/// Serves `plugin` for Terraform from the process environment: on a missing cookie or
/// another failure to start, prints go-plugin's message to stderr and exits with status
/// 1; otherwise prints the handshake line, ignores interrupts (Terraform stops its
/// plugins itself), and returns when the client calls `Shutdown`.
pub async fn serve(plugin: Plugin) {
    let started = match plugin.start(&PluginEnv::from_process()).await {
        Ok(started) => started,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut stdout = std::io::stdout().lock();
    if writeln!(stdout, "{}", started.handshake)
        .and_then(|()| stdout.flush())
        .is_err()
    {
        std::process::exit(1);
    }
    drop(stdout);
    if let Some(e) = &started.unix_socket_error {
        // go-plugin's client logs the plugin's stderr.
        eprintln!("plugin socket: {e}; serving on {} instead", started.address);
    }
    tokio::spawn(async {
        // go-plugin's servers ignore interrupts: the client stops them with Shutdown.
        while tokio::signal::ctrl_c().await.is_ok() {}
    });
    if let Err(e) = started.wait().await {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

/// Serves `plugin` in debug mode, for a provider started by hand (e.g. under a
/// debugger): no cookie, no TLS, protocol `version` (6 when served); prints the
/// `TF_REATTACH_PROVIDERS` value for Terraform to attach to `address` (e.g.
/// `registry.terraform.io/example/demo`), and serves until interrupted.
pub async fn serve_debug(plugin: Plugin, address: &str) -> Result<(), ServeError> {
    let version = plugin.negotiate(None)?;
    let started = plugin
        .start_version(version, &PluginEnv::from_process(), None)
        .await?;
    println!(
        "Provider started. To attach Terraform, set TF_REATTACH_PROVIDERS:\n\n\tTF_REATTACH_PROVIDERS='{}'\n",
        reattach_json(address, version, &started.address, std::process::id())
    );
    let stop = started.stop.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            let _ = stop.send(true);
        }
    });
    started.wait().await
}

/// The `TF_REATTACH_PROVIDERS` value for one provider at `at`.
///
/// ```
/// use ctywire_tfplugin::{reattach_json, PluginAddress};
///
/// let socket = PluginAddress::Unix("/tmp/p/plugin.sock".into());
/// assert_eq!(
///     reattach_json("example.com/ctywire/demo", 6, &socket, 42),
///     r#"{"example.com/ctywire/demo":{"Addr":{"Network":"unix","String":"/tmp/p/plugin.sock"},"Pid":42,"Protocol":"grpc","ProtocolVersion":6,"Test":true}}"#,
/// );
/// ```
pub fn reattach_json(address: &str, version: u32, at: &PluginAddress, pid: u32) -> String {
    let provider = serde_json::json!({
        "Protocol": "grpc",
        "ProtocolVersion": version,
        "Pid": pid,
        "Test": true,
        "Addr": {"Network": at.network(), "String": at.to_string()},
    });
    let mut root = serde_json::Map::new();
    root.insert(address.to_owned(), provider);
    serde_json::Value::Object(root).to_string()
}

/// The controller: `Shutdown` stops the server gracefully.
struct Controller {
    stop: watch::Sender<bool>,
}

#[tonic::async_trait]
impl GrpcController for Controller {
    async fn shutdown(
        &self,
        _request: tonic::Request<Empty>,
    ) -> Result<tonic::Response<Empty>, tonic::Status> {
        let _ = self.stop.send(true);
        Ok(tonic::Response::new(Empty {}))
    }
}

/// Accepts connections until the stop signal, wrapping each in TLS when `acceptor` is
/// given; connections whose TLS handshake fails (a client without the pinned
/// certificate) are dropped.
fn accept_loop(
    listener: Listener,
    acceptor: Option<tokio_rustls::TlsAcceptor>,
    mut stop: watch::Receiver<bool>,
) -> ReceiverStream<Result<Conn, Infallible>> {
    let (tx, rx) = mpsc::channel(16);
    tokio::spawn(async move {
        loop {
            let accepted = tokio::select! {
                accepted = listener.accept() => Some(accepted),
                _ = stop.wait_for(|stop| *stop) => None,
            };
            let stream = match accepted {
                None => break,
                Some(Ok(stream)) => stream,
                Some(Err(_)) => {
                    // Out of file descriptors or the like: wait rather than spin.
                    tokio::time::sleep(ACCEPT_RETRY_DELAY).await;
                    continue;
                }
            };
            let tx = tx.clone();
            match &acceptor {
                None => {
                    if tx.send(Ok(Conn::Plain(stream))).await.is_err() {
                        break;
                    }
                }
                Some(acceptor) => {
                    let acceptor = acceptor.clone();
                    tokio::spawn(async move {
                        let handshake =
                            tokio::time::timeout(TLS_HANDSHAKE_TIMEOUT, acceptor.accept(stream));
                        if let Ok(Ok(tls)) = handshake.await {
                            let _ = tx.send(Ok(Conn::Tls(Box::new(tls)))).await;
                        }
                    });
                }
            }
        }
    });
    ReceiverStream::new(rx)
}

/// The server's listener: the Unix socket, or TCP when no Unix socket could be made.
enum Listener {
    Unix(UnixListener),
    Tcp(TcpListener),
}

impl Listener {
    async fn accept(&self) -> std::io::Result<Stream> {
        match self {
            Listener::Unix(l) => l.accept().await.map(|(s, _)| Stream::Unix(s)),
            Listener::Tcp(l) => {
                let (s, _) = l.accept().await?;
                // Small calls go out at once rather than waiting for more to send.
                s.set_nodelay(true)?;
                Ok(Stream::Tcp(s))
            }
        }
    }

    fn address(&self) -> std::io::Result<PluginAddress> {
        Ok(match self {
            Listener::Unix(l) => {
                let path = l.local_addr()?.as_pathname().map(Path::to_path_buf);
                PluginAddress::Unix(
                    path.ok_or_else(|| {
                        std::io::Error::other("the plugin's Unix socket has no path")
                    })?,
                )
            }
            Listener::Tcp(l) => PluginAddress::Tcp(l.local_addr()?),
        })
    }
}

/// A Unix socket, `plugin.sock`, in a new directory under `parent` (the temporary
/// directory when `None`).
fn listen_unix(parent: Option<&Path>) -> std::io::Result<(Listener, SocketDir)> {
    let dir = SocketDir::create(parent)?;
    let listener = UnixListener::bind(dir.path.join("plugin.sock"))?;
    Ok((Listener::Unix(listener), dir))
}

/// A TCP listener on `127.0.0.1` at the first free port from `min` to `max` (go-plugin's
/// `PLUGIN_MIN_PORT` and `PLUGIN_MAX_PORT`; unset is 0, and port 0 is any free port).
async fn listen_tcp(min: Option<&str>, max: Option<&str>) -> std::io::Result<Listener> {
    let port = |name: &str, value: Option<&str>| -> std::io::Result<u16> {
        value.map_or(Ok(0), |v| {
            v.trim().parse().map_err(|e| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!("{name} is not a port ({v:?}: {e})"),
                )
            })
        })
    };
    let (min, max) = (port("PLUGIN_MIN_PORT", min)?, port("PLUGIN_MAX_PORT", max)?);
    if min > max {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("PLUGIN_MIN_PORT ({min}) is greater than PLUGIN_MAX_PORT ({max})"),
        ));
    }
    let mut last_error = None;
    for port in min..=max {
        match TcpListener::bind((Ipv4Addr::LOCALHOST, port)).await {
            Ok(listener) => return Ok(Listener::Tcp(listener)),
            Err(e) => last_error = Some(e),
        }
    }
    Err(last_error.unwrap_or_else(|| std::io::Error::other("no TCP port to try")))
}

/// A directory of its own for the socket, removed with it.
struct SocketDir {
    path: PathBuf,
}

impl SocketDir {
    fn create(parent: Option<&Path>) -> std::io::Result<SocketDir> {
        let parent = parent.map_or_else(std::env::temp_dir, Path::to_path_buf);
        let pid = std::process::id();
        let mut last_error = None;
        for attempt in 0..100u32 {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos());
            let path = parent.join(format!("plugin-{pid}-{nanos:x}-{attempt}"));
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(SocketDir { path }),
                Err(e) => last_error = Some(e),
            }
        }
        Err(last_error.unwrap_or_else(|| std::io::Error::other("no socket directory")))
    }
}

impl Drop for SocketDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}
