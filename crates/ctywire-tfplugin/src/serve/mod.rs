//! Serving a provider as go-plugin's client (Terraform, OpenTofu) expects: the magic
//! cookie, the protocol version, a Unix socket in a directory of its own (TCP on
//! `127.0.0.1` only where the plugin allows it), the handshake line, AutoMTLS, health,
//! the controller's `Shutdown`, signals, and a debug mode that prints
//! `TF_REATTACH_PROVIDERS`.
//!
//! The serving model (threads, panics, signals, the socket, limits) is described in the
//! crate's docs.

mod calls;
mod conn;
mod tls;

use std::convert::Infallible;
use std::fmt;
use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use base64::Engine;
use tokio::net::{TcpListener, UnixListener};
use tokio::runtime::Handle;
use tokio::sync::{mpsc, oneshot, watch, Semaphore};
use tokio_stream::wrappers::ReceiverStream;
use tonic::service::Routes;

use crate::capture::CaptureWriter;
use crate::controller::grpc_controller_server::{GrpcController, GrpcControllerServer};
use crate::controller::Empty;
use crate::{tfplugin5, tfplugin6};
use calls::OnRuntime;
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

/// How long a TLS handshake may take before the connection is dropped (and, without
/// TLS, how long a new connection may stay silent), unless
/// [`Plugin::connection_timeout`] says otherwise.
const TLS_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long the accept loop waits after a failed accept before it tries again.
const ACCEPT_RETRY_DELAY: Duration = Duration::from_millis(50);

/// How long a graceful stop waits for open calls before the server stops anyway.
const GRACEFUL_STOP_TIMEOUT: Duration = Duration::from_secs(5);

/// The most calls one connection may have open at once (HTTP/2's concurrent streams);
/// Terraform runs at most its parallelism (10 by default) at a time.
const MAX_STREAMS_PER_CONNECTION: u32 = 128;

/// The most connections open at once; Terraform opens one per provider instance.
/// Connections past it are closed as they are accepted.
const MAX_CONNECTIONS: usize = 64;

/// How often an open connection is pinged, and how long a ping may go unanswered before
/// the connection is closed (a peer that went away).
const KEEPALIVE: Duration = Duration::from_secs(60);
const KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(20);

/// The threads of the server's own runtime.
const SERVER_THREADS: usize = 2;

/// The longest path a Unix socket may have: `sun_path` less its terminating NUL.
#[cfg(any(target_os = "linux", target_os = "android"))]
const MAX_SOCKET_PATH: usize = 107;
/// The longest path a Unix socket may have: `sun_path` less its terminating NUL.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
const MAX_SOCKET_PATH: usize = 103;

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
    tcp_fallback: bool,
    /// How long a new connection may take to begin ([`Plugin::connection_timeout`]).
    connection_timeout: Option<Duration>,
    /// The runtime the provider's calls run on: the one that starts the plugin.
    calls: Arc<OnceLock<Handle>>,
    /// Where the protocol 6 provider's calls are captured.
    capture: crate::capture::CaptureSlot,
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

    /// Serves `provider` for protocol 6 (`tfplugin6.Provider`), its calls captured as
    /// [`Plugin::capture`] says.
    pub fn protocol6<P: tfplugin6::provider_server::Provider>(mut self, provider: P) -> Plugin {
        let provider = crate::capture::Capturing {
            inner: provider,
            slot: self.capture.clone(),
        };
        let server = tfplugin6::provider_server::ProviderServer::new(provider)
            .max_decoding_message_size(MAX_MESSAGE_BYTES)
            .max_encoding_message_size(MAX_MESSAGE_BYTES);
        self.v6 = Some(Routes::new(OnRuntime::new(server, self.calls.clone())));
        self
    }

    /// Serves `provider` for protocol 5 (`tfplugin5.Provider`).
    pub fn protocol5<P: tfplugin5::provider_server::Provider>(mut self, provider: P) -> Plugin {
        let server = tfplugin5::provider_server::ProviderServer::new(provider)
            .max_decoding_message_size(MAX_MESSAGE_BYTES)
            .max_encoding_message_size(MAX_MESSAGE_BYTES);
        self.v5 = Some(Routes::new(OnRuntime::new(server, self.calls.clone())));
        self
    }

    /// Lets the plugin serve on TCP at `127.0.0.1` (which go-plugin's client takes as
    /// well) where no Unix socket can be made, and only under AutoMTLS: without a client
    /// certificate to pin, any local user could call the provider. Off by default: then
    /// a socket that cannot be made is an error naming its path, as go-plugin's servers
    /// never fall back to TCP on Unix.
    pub fn tcp_fallback(mut self, allow: bool) -> Plugin {
        self.tcp_fallback = allow;
        self
    }

    /// How long a new connection may take to finish its TLS handshake (under AutoMTLS)
    /// or, without TLS, to send its first byte, before the server closes it: 10 seconds
    /// unless set here. Connections that began are kept however long they stay idle,
    /// as Terraform's are between calls.
    pub fn connection_timeout(mut self, timeout: Duration) -> Plugin {
        self.connection_timeout = Some(timeout);
        self
    }

    /// Captures the protocol 6 provider's calls with `writer`: the values of every
    /// request and response, in the files terraform-plugin-go writes (see
    /// [`capture`](crate::capture)), which `ctywire capture DIR` reads. [`serve`] and
    /// [`serve_debug`] capture into `TF_LOG_SDK_PROTO_DATA_DIR` when it names a
    /// directory and no writer was given, as a Go provider does; a plugin started
    /// otherwise ([`Plugin::start`], e.g. in a test's process) captures only when given
    /// a writer here. (Protocol 5 calls are not captured.)
    ///
    /// ```
    /// use ctywire_tfplugin::capture::CaptureWriter;
    /// use ctywire_tfplugin::tfplugin6::provider_server::Provider;
    /// use ctywire_tfplugin::Plugin;
    ///
    /// struct Demo;
    /// #[tonic::async_trait]
    /// impl Provider for Demo {}
    ///
    /// let dir = std::env::temp_dir().join("ctywire-captures");
    /// let plugin = Plugin::new().protocol6(Demo).capture(CaptureWriter::new(&dir));
    /// assert_eq!(plugin.versions(), [6]);
    /// ```
    pub fn capture(self, writer: CaptureWriter) -> Plugin {
        *self
            .capture
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = writer;
        self
    }

    /// Captures into `TF_LOG_SDK_PROTO_DATA_DIR` unless a writer was given.
    fn capture_from_env(self) -> Plugin {
        let given = self
            .capture
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .dir()
            .is_some();
        if given {
            self
        } else {
            self.capture(CaptureWriter::from_env())
        }
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
    /// picks the version, listens on a new Unix socket (on TCP at `127.0.0.1` where none
    /// can be made only if [`Plugin::tcp_fallback`] allows it and AutoMTLS is on), sets
    /// up AutoMTLS when `env` has a client certificate, and starts the server on a
    /// runtime of its own; the provider's calls run on the runtime that calls `start`.
    /// The caller prints [`Started::handshake`]. Signals are left alone ([`serve`]
    /// handles them).
    pub async fn start(self, env: &PluginEnv) -> Result<Started, ServeError> {
        self.start_with(env, false).await
    }

    async fn start_with(self, env: &PluginEnv, signals: bool) -> Result<Started, ServeError> {
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
        self.start_version(version, env, tls, signals).await
    }

    async fn start_version(
        mut self,
        version: u32,
        env: &PluginEnv,
        tls: Option<(Vec<u8>, Arc<rustls::ServerConfig>)>,
        signals: bool,
    ) -> Result<Started, ServeError> {
        let routes = match version {
            6 => self.v6.take(),
            _ => self.v5.take(),
        }
        .ok_or(ServeError::NothingToServe)?;
        // The provider's calls run here; the server, below, on a runtime of its own.
        let _ = self.calls.set(Handle::current());
        let (listener, dir, unix_socket_error) = match listen_unix(env.unix_socket_dir.as_deref()) {
            Ok((listener, dir)) => (StdListener::Unix(listener), Some(dir), None),
            Err(unix) if self.tcp_fallback && tls.is_some() => {
                let listener = listen_tcp(env.min_port.as_deref(), env.max_port.as_deref())
                    .map_err(|tcp| {
                        std::io::Error::new(
                            tcp.kind(),
                            format!("no Unix socket ({unix}), and no TCP port ({tcp})"),
                        )
                    })?;
                (listener, None, Some(unix.to_string()))
            }
            Err(unix) if self.tcp_fallback => {
                return Err(ServeError::Io(std::io::Error::new(
                    unix.kind(),
                    format!(
                        "{unix}; TCP is not used without AutoMTLS (no PLUGIN_CLIENT_CERT), \
                         where any local user could call the provider"
                    ),
                )))
            }
            Err(unix) => return Err(ServeError::Io(unix)),
        };
        let address = listener.address()?;

        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(SERVER_THREADS)
            .thread_name("plugin-server")
            .enable_all()
            .build()?;
        let (listener, signals) = {
            let _inside = runtime.enter();
            let signals = if signals {
                Some(Signals::register()?)
            } else {
                None
            };
            (listener.into_tokio()?, signals)
        };

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
        let connection_timeout = self.connection_timeout.unwrap_or(TLS_HANDSHAKE_TIMEOUT);
        let terminated = Arc::new(AtomicI32::new(0));
        let server = {
            let stop = stop_tx.clone();
            let terminated = terminated.clone();
            async move {
                let _dir = dir; // the socket's directory (if any) goes when the server does
                let _health = health;
                if let Some(signals) = signals {
                    tokio::spawn(signals.handle(stop, terminated));
                }
                let incoming = accept_loop(listener, acceptor, connection_timeout, stop_rx.clone());
                let mut stopped = stop_rx.clone();
                let serve = tonic::transport::Server::builder()
                    .initial_connection_window_size(Some(WINDOW_BYTES))
                    .initial_stream_window_size(Some(WINDOW_BYTES))
                    .max_frame_size(Some(MAX_FRAME_BYTES))
                    .max_concurrent_streams(MAX_STREAMS_PER_CONNECTION)
                    .http2_keepalive_interval(Some(KEEPALIVE))
                    .http2_keepalive_timeout(Some(KEEPALIVE_TIMEOUT))
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
            }
        };
        let (done_tx, done_rx) = oneshot::channel();
        std::thread::Builder::new()
            .name("plugin-server".into())
            .spawn(move || {
                let result = runtime.block_on(server);
                // Connections still open when the server gave up waiting are dropped.
                runtime.shutdown_timeout(Duration::from_millis(100));
                let _ = done_tx.send(result);
            })?;

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
            server: done_rx,
            terminated,
        })
    }
}

/// The signals [`serve`] handles, registered on the server's runtime before the
/// handshake line is printed.
struct Signals {
    interrupt: tokio::signal::unix::Signal,
    terminate: tokio::signal::unix::Signal,
    hangup: tokio::signal::unix::Signal,
}

impl Signals {
    /// Registers the handlers at once (the signals are caught from here on, whether or
    /// not anything waits for them yet).
    fn register() -> std::io::Result<Signals> {
        use tokio::signal::unix::{signal, SignalKind};
        Ok(Signals {
            interrupt: signal(SignalKind::interrupt())?,
            terminate: signal(SignalKind::terminate())?,
            hangup: signal(SignalKind::hangup())?,
        })
    }

    /// Ignores SIGINT (go-plugin's servers do: the client stops them with `Shutdown`);
    /// on SIGTERM or SIGHUP records the signal in `terminated` and stops the server.
    async fn handle(mut self, stop: watch::Sender<bool>, terminated: Arc<AtomicI32>) {
        let Signals {
            interrupt,
            terminate,
            hangup,
        } = &mut self;
        let number = loop {
            tokio::select! {
                Some(()) = interrupt.recv() => {}
                Some(()) = terminate.recv() => break 15,
                Some(()) = hangup.recv() => break 1,
                else => return,
            }
        };
        terminated.store(number, Ordering::SeqCst);
        let _ = stop.send(true);
        // Keep ignoring SIGINT while the server stops.
        while interrupt.recv().await.is_some() {}
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
    server: oneshot::Receiver<Result<(), ServeError>>,
    /// The signal that stopped the server (SIGTERM, SIGHUP), 0 for none.
    terminated: Arc<AtomicI32>,
}

impl Started {
    /// Asks the server to stop (as the controller's `Shutdown` does).
    pub fn stop(&self) {
        let _ = self.stop.send(true);
    }

    /// Waits until the server has stopped (after [`Started::stop`] or `Shutdown`): the
    /// calls in flight have ended (or a few seconds have passed) and the socket's
    /// directory is gone.
    pub async fn wait(self) -> Result<(), ServeError> {
        match self.server.await {
            Ok(result) => result,
            Err(_) => Err(ServeError::Io(std::io::Error::other(
                "the plugin's server thread ended without an answer",
            ))),
        }
    }
}

/// Serves `plugin` for Terraform from the process environment (its calls captured into
/// `TF_LOG_SDK_PROTO_DATA_DIR` when that names a directory; see [`Plugin::capture`]): on a missing cookie or
/// another failure to start, prints go-plugin's message to stderr and exits with status
/// 1; otherwise ignores SIGINT from before it prints the handshake line (Terraform sends
/// Ctrl-C to the whole process group, then stops its plugins itself), and returns when
/// the client calls `Shutdown`. On SIGTERM or SIGHUP it stops serving, lets the calls in
/// flight finish (for a few seconds at most), removes the socket's directory and exits
/// with status 128 plus the signal's number.
pub async fn serve(plugin: Plugin) {
    let plugin = plugin.capture_from_env();
    let started = match plugin.start_with(&PluginEnv::from_process(), true).await {
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
    let terminated = started.terminated.clone();
    let result = started.wait().await;
    let signal = terminated.load(Ordering::SeqCst);
    if signal != 0 {
        std::process::exit(128 + signal);
    }
    if let Err(e) = result {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

/// Serves `plugin` in debug mode, for a provider started by hand (e.g. under a
/// debugger): no cookie, no TLS, protocol `version` (6 when served); prints the
/// `TF_REATTACH_PROVIDERS` value for Terraform to attach to `address` (e.g.
/// `registry.terraform.io/example/demo`), and serves until interrupted.
pub async fn serve_debug(plugin: Plugin, address: &str) -> Result<(), ServeError> {
    let plugin = plugin.capture_from_env();
    let version = plugin.negotiate(None)?;
    let started = plugin
        .start_version(version, &PluginEnv::from_process(), None, false)
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
/// certificate) or does not end within `timeout`, and connections that send nothing
/// within it, are dropped.
fn accept_loop(
    listener: Listener,
    acceptor: Option<tokio_rustls::TlsAcceptor>,
    timeout: Duration,
    mut stop: watch::Receiver<bool>,
) -> ReceiverStream<Result<Conn, Infallible>> {
    let (tx, rx) = mpsc::channel(16);
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    tokio::spawn(async move {
        loop {
            let accepted = tokio::select! {
                accepted = listener.accept(&slots) => Some(accepted),
                _ = stop.wait_for(|stop| *stop) => None,
            };
            let stream = match accepted {
                None => break,
                Some(Ok(Some(stream))) => stream,
                // Past MAX_CONNECTIONS: the connection was closed.
                Some(Ok(None)) => continue,
                Some(Err(_)) => {
                    // Out of file descriptors or the like: wait rather than spin.
                    tokio::time::sleep(ACCEPT_RETRY_DELAY).await;
                    continue;
                }
            };
            let tx = tx.clone();
            match &acceptor {
                None => {
                    // A connection that sends nothing is closed, as one whose TLS
                    // handshake does not end is, so that silent connections cannot keep
                    // the connections' slots.
                    tokio::spawn(async move {
                        let first = tokio::time::timeout(timeout, stream.readable());
                        if let Ok(Ok(())) = first.await {
                            let _ = tx.send(Ok(Conn::Plain(stream))).await;
                        }
                    });
                }
                Some(acceptor) => {
                    let acceptor = acceptor.clone();
                    tokio::spawn(async move {
                        let handshake = tokio::time::timeout(timeout, acceptor.accept(stream));
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

/// The server's listener, made before the server's runtime: the Unix socket, or TCP.
enum StdListener {
    Unix(std::os::unix::net::UnixListener),
    Tcp(std::net::TcpListener),
}

impl StdListener {
    fn address(&self) -> std::io::Result<PluginAddress> {
        Ok(match self {
            StdListener::Unix(l) => {
                let path = l.local_addr()?.as_pathname().map(Path::to_path_buf);
                PluginAddress::Unix(
                    path.ok_or_else(|| {
                        std::io::Error::other("the plugin's Unix socket has no path")
                    })?,
                )
            }
            StdListener::Tcp(l) => PluginAddress::Tcp(l.local_addr()?),
        })
    }

    /// The listener on the runtime entered.
    fn into_tokio(self) -> std::io::Result<Listener> {
        Ok(match self {
            StdListener::Unix(l) => {
                l.set_nonblocking(true)?;
                Listener::Unix(UnixListener::from_std(l)?)
            }
            StdListener::Tcp(l) => {
                l.set_nonblocking(true)?;
                Listener::Tcp(TcpListener::from_std(l)?)
            }
        })
    }
}

/// The server's listener: the Unix socket, or TCP.
enum Listener {
    Unix(UnixListener),
    Tcp(TcpListener),
}

impl Listener {
    /// The next connection, holding one of `slots`; `None` where none was left (the
    /// connection is closed at once).
    async fn accept(&self, slots: &Arc<Semaphore>) -> std::io::Result<Option<Stream>> {
        let stream = match self {
            Listener::Unix(l) => {
                let (s, _) = l.accept().await?;
                let Ok(slot) = slots.clone().try_acquire_owned() else {
                    return Ok(None);
                };
                Stream::Unix(s, slot)
            }
            Listener::Tcp(l) => {
                let (s, _) = l.accept().await?;
                let Ok(slot) = slots.clone().try_acquire_owned() else {
                    return Ok(None);
                };
                // Small calls go out at once rather than waiting for more to send.
                s.set_nodelay(true)?;
                Stream::Tcp(s, slot)
            }
        };
        Ok(Some(stream))
    }
}

/// A Unix socket, `plugin.sock`, in a new directory under `parent` (the temporary
/// directory when `None`); the error names the path, and for a path too long the limit.
fn listen_unix(
    parent: Option<&Path>,
) -> std::io::Result<(std::os::unix::net::UnixListener, SocketDir)> {
    let parent = parent.map_or_else(std::env::temp_dir, Path::to_path_buf);
    let dir = SocketDir::create(&parent).map_err(|e| {
        std::io::Error::new(
            e.kind(),
            format!(
                "cannot make the plugin's socket directory in {}: {e}",
                parent.display()
            ),
        )
    })?;
    let socket = dir.path.join("plugin.sock");
    let length = socket.as_os_str().len();
    if length > MAX_SOCKET_PATH {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "the plugin's socket path {} is {length} bytes, longer than the \
                 {MAX_SOCKET_PATH} a Unix socket's path may have (set \
                 PLUGIN_UNIX_SOCKET_DIR or TMPDIR to a shorter directory)",
                socket.display()
            ),
        ));
    }
    let listener = std::os::unix::net::UnixListener::bind(&socket).map_err(|e| {
        std::io::Error::new(
            e.kind(),
            format!("cannot make the plugin's socket {}: {e}", socket.display()),
        )
    })?;
    Ok((listener, dir))
}

/// A TCP listener on `127.0.0.1` at the first free port from `min` to `max` (go-plugin's
/// `PLUGIN_MIN_PORT` and `PLUGIN_MAX_PORT`; unset is 0, and port 0 is any free port).
fn listen_tcp(min: Option<&str>, max: Option<&str>) -> std::io::Result<StdListener> {
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
        match std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, port)) {
            Ok(listener) => return Ok(StdListener::Tcp(listener)),
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
    /// A new directory under `parent`, mode 0700 whatever the umask (only the plugin's
    /// user may reach the socket).
    fn create(parent: &Path) -> std::io::Result<SocketDir> {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        let pid = std::process::id();
        let mut last_error = None;
        for attempt in 0..100u32 {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos());
            let path = parent.join(format!("plugin-{pid}-{nanos:x}-{attempt}"));
            match std::fs::DirBuilder::new().mode(0o700).create(&path) {
                Ok(()) => {
                    let dir = SocketDir { path };
                    // The umask may have taken bits away; it cannot have added any.
                    std::fs::set_permissions(&dir.path, std::fs::Permissions::from_mode(0o700))?;
                    return Ok(dir);
                }
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
