//! Serving: the cookie, version negotiation, the handshake line, AutoMTLS with the
//! client certificate pinned, health and the controller's Shutdown, and what a
//! malformed message gets, in-process.

use std::os::unix::fs::PermissionsExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine;
use ctywire_tfplugin::controller::grpc_controller_client::GrpcControllerClient;
use ctywire_tfplugin::tfplugin6::provider_client::ProviderClient;
use ctywire_tfplugin::tfplugin6::provider_server::Provider;
use ctywire_tfplugin::tfplugin6::{
    apply_resource_change, diagnostic, get_provider_schema, read_resource, DynamicValue,
};
use ctywire_tfplugin::{Plugin, PluginAddress, PluginEnv, ServeError, Started};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::SignatureScheme;
use tonic::transport::{Channel, Endpoint};

/// A provider that answers GetProviderSchema with an empty schema.
struct Empty;

#[tonic::async_trait]
impl Provider for Empty {
    async fn get_provider_schema(
        &self,
        _request: tonic::Request<get_provider_schema::Request>,
    ) -> Result<tonic::Response<get_provider_schema::Response>, tonic::Status> {
        Ok(tonic::Response::new(
            get_provider_schema::Response::default(),
        ))
    }
}

/// A client certificate as go-plugin's client makes one: ECDSA P-521, self-signed
/// (recorded in `clients/`, see its README), and its key.
struct ClientIdentity {
    pem: String,
    der: CertificateDer<'static>,
    key: Arc<dyn rustls::sign::SigningKey>,
}

/// The recorded client `name` (`pinned` or `other`).
fn client_identity(name: &str) -> ClientIdentity {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tfplugin/clients");
    let pem = std::fs::read_to_string(dir.join(format!("{name}.pem"))).unwrap();
    let der = CertificateDer::from_pem_slice(pem.as_bytes()).unwrap();
    let hex = std::fs::read_to_string(dir.join(format!("{name}.key"))).unwrap();
    let hex = hex.trim();
    let secret: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|at| u8::from_str_radix(&hex[at..at + 2], 16).unwrap())
        .collect();
    let key = p521::ecdsa::SigningKey::from_slice(&secret).unwrap();
    ClientIdentity {
        pem,
        der,
        key: Arc::new(P521Key(key)),
    }
}

/// A P-521 key that signs the client's CertificateVerify with the `p521` crate: ring,
/// the provider the tests' client runs on (as the server does), has no P-521 signing.
struct P521Key(p521::ecdsa::SigningKey);

impl std::fmt::Debug for P521Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("P521Key")
    }
}

impl rustls::sign::SigningKey for P521Key {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn rustls::sign::Signer>> {
        offered
            .contains(&SignatureScheme::ECDSA_NISTP521_SHA512)
            .then(|| Box::new(P521Signer(self.0.clone())) as Box<dyn rustls::sign::Signer>)
    }

    fn algorithm(&self) -> rustls::SignatureAlgorithm {
        rustls::SignatureAlgorithm::ECDSA
    }
}

struct P521Signer(p521::ecdsa::SigningKey);

impl std::fmt::Debug for P521Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("P521Signer")
    }
}

impl rustls::sign::Signer for P521Signer {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, rustls::Error> {
        use p521::ecdsa::signature::Signer;
        let signature: p521::ecdsa::Signature = self.0.sign(message);
        Ok(signature.to_der().as_bytes().to_vec())
    }

    fn scheme(&self) -> SignatureScheme {
        SignatureScheme::ECDSA_NISTP521_SHA512
    }
}

/// Presents one certificate and its P-521 key whenever the server asks for one.
#[derive(Debug)]
struct ClientCert(Arc<rustls::sign::CertifiedKey>);

impl rustls::client::ResolvesClientCert for ClientCert {
    fn resolve(
        &self,
        _root_hint_subjects: &[&[u8]],
        _schemes: &[SignatureScheme],
    ) -> Option<Arc<rustls::sign::CertifiedKey>> {
        Some(self.0.clone())
    }

    fn has_certs(&self) -> bool {
        true
    }
}

/// A channel to the plugin's socket (or TCP address), over TLS with `identity` when
/// given (trusting the server certificate from the handshake, for `localhost` as
/// go-plugin does).
async fn connect(
    started: &Started,
    identity: Option<&ClientIdentity>,
) -> Result<Channel, tonic::transport::Error> {
    let address = started.address.clone();
    let tls = started.server_cert.as_ref().map(|server_cert| {
        let mut roots = rustls::RootCertStore::empty();
        roots
            .add(CertificateDer::from(server_cert.clone()))
            .unwrap();
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let builder = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_root_certificates(roots);
        let mut config = match identity {
            Some(id) => builder.with_client_cert_resolver(Arc::new(ClientCert(Arc::new(
                rustls::sign::CertifiedKey::new(vec![id.der.clone()], id.key.clone()),
            )))),
            None => builder.with_no_client_auth(),
        };
        config.alpn_protocols = vec![b"h2".to_vec()];
        tokio_rustls::TlsConnector::from(Arc::new(config))
    });
    Endpoint::try_from("http://plugin")
        .unwrap()
        .connect_with_connector(tower::service_fn(move |_| {
            let address = address.clone();
            let tls = tls.clone();
            async move {
                let stream: Box<dyn Io> = match &address {
                    PluginAddress::Unix(socket) => {
                        Box::new(tokio::net::UnixStream::connect(socket).await?)
                    }
                    PluginAddress::Tcp(at) => Box::new(tokio::net::TcpStream::connect(at).await?),
                };
                let io: Box<dyn Io> = match tls {
                    Some(tls) => {
                        let name = ServerName::try_from("localhost").unwrap();
                        Box::new(tls.connect(name, stream).await?)
                    }
                    None => stream,
                };
                Ok::<_, std::io::Error>(hyper_util::rt::TokioIo::new(io))
            }
        }))
        .await
}

trait Io: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + Unpin {}
impl<T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + Unpin> Io for T {}

async fn schema_call(channel: Channel) -> Result<(), tonic::Status> {
    ProviderClient::new(channel)
        .get_provider_schema(get_provider_schema::Request::default())
        .await
        .map(|_| ())
}

#[tokio::test]
async fn automtls_admits_the_pinned_client_and_shutdown_stops_the_server() {
    let client = client_identity("pinned");
    let env = PluginEnv::terraform(Some(client.pem.clone()));
    let started = Plugin::new().protocol6(Empty).start(&env).await.unwrap();

    // The handshake line: version 6, the socket, the server certificate's DER in raw
    // standard base64.
    let parts: Vec<&str> = started.handshake.split('|').collect();
    assert_eq!(parts.len(), 6, "{}", started.handshake);
    assert_eq!(&parts[..3], ["1", "6", "unix"]);
    assert_eq!(parts[3], started.address.to_string());
    assert!(started.unix_socket_error.is_none());
    assert_eq!(parts[4], "grpc");
    assert!(!parts[5].ends_with('='));
    let der = base64::engine::general_purpose::STANDARD_NO_PAD
        .decode(parts[5])
        .unwrap();
    assert_eq!(Some(&der), started.server_cert.as_ref());

    let channel = connect(&started, Some(&client)).await.unwrap();
    schema_call(channel.clone()).await.unwrap();

    let mut health = tonic_health::pb::health_client::HealthClient::new(channel.clone());
    let status = health
        .check(tonic_health::pb::HealthCheckRequest {
            service: "plugin".into(),
        })
        .await
        .unwrap();
    assert_eq!(
        status.into_inner().status,
        tonic_health::pb::health_check_response::ServingStatus::Serving as i32
    );

    let PluginAddress::Unix(socket) = started.address.clone() else {
        panic!("not a Unix socket: {}", started.address)
    };
    GrpcControllerClient::new(channel)
        .shutdown(ctywire_tfplugin::controller::Empty {})
        .await
        .unwrap();
    tokio::time::timeout(std::time::Duration::from_secs(10), started.wait())
        .await
        .expect("the server stops after Shutdown")
        .unwrap();
    assert!(!socket.exists(), "the socket is removed");
}

#[tokio::test]
async fn automtls_refuses_another_client_certificate() {
    let pinned = client_identity("pinned");
    let other = client_identity("other");
    let env = PluginEnv::terraform(Some(pinned.pem.clone()));
    let started = Plugin::new().protocol6(Empty).start(&env).await.unwrap();
    let refused = match connect(&started, Some(&other)).await {
        Err(_) => true,
        Ok(channel) => schema_call(channel).await.is_err(),
    };
    assert!(refused, "a client with another certificate is refused");
    started.stop();
}

#[tokio::test]
async fn automtls_refuses_a_client_without_a_certificate() {
    let pinned = client_identity("pinned");
    let env = PluginEnv::terraform(Some(pinned.pem.clone()));
    let started = Plugin::new().protocol6(Empty).start(&env).await.unwrap();
    let refused = match connect(&started, None).await {
        Err(_) => true,
        Ok(channel) => schema_call(channel).await.is_err(),
    };
    assert!(refused, "a client without a certificate is refused");
    started.stop();
}

#[tokio::test]
async fn without_a_client_certificate_the_server_is_plaintext() {
    let started = Plugin::new()
        .protocol6(Empty)
        .start(&PluginEnv::terraform(None))
        .await
        .unwrap();
    assert_eq!(
        started.handshake,
        format!("1|6|unix|{}|grpc", started.address)
    );
    assert!(started.server_cert.is_none());
    let channel = connect(&started, None).await.unwrap();
    schema_call(channel).await.unwrap();
    started.stop();
    started.wait().await.unwrap();
}

#[tokio::test]
async fn a_missing_or_wrong_cookie_is_refused() {
    for cookie in [None, Some("not the cookie".to_owned())] {
        let env = PluginEnv {
            magic_cookie: cookie,
            ..PluginEnv::terraform(None)
        };
        let err = Plugin::new()
            .protocol6(Empty)
            .start(&env)
            .await
            .unwrap_err();
        assert!(matches!(err, ServeError::NotLaunchedByTerraform));
        assert!(err.to_string().starts_with("This binary is a plugin."));
    }
}

#[tokio::test]
async fn a_malformed_client_certificate_is_an_error() {
    let env = PluginEnv::terraform(Some("not PEM".to_owned()));
    let err = Plugin::new()
        .protocol6(Empty)
        .start(&env)
        .await
        .unwrap_err();
    assert!(matches!(err, ServeError::Tls(_)), "{err}");
}

#[test]
fn the_version_is_the_highest_both_sides_speak() {
    let both = Plugin::new().protocol6(Empty).protocol5(Empty5);
    assert_eq!(both.negotiate(Some("5,6")).unwrap(), 6);
    assert_eq!(both.negotiate(Some("5")).unwrap(), 5);
    assert_eq!(both.negotiate(None).unwrap(), 6);
    let six = Plugin::new().protocol6(Empty);
    assert!(matches!(
        six.negotiate(Some("4,5")),
        Err(ServeError::NoCommonVersion { .. })
    ));
    assert!(matches!(
        Plugin::new().negotiate(Some("6")),
        Err(ServeError::NothingToServe)
    ));
}

#[tokio::test]
async fn protocol_5_is_served_when_the_client_asks_for_it() {
    let env = PluginEnv {
        protocol_versions: Some("5".to_owned()),
        ..PluginEnv::terraform(None)
    };
    let started = Plugin::new()
        .protocol6(Empty)
        .protocol5(Empty5)
        .start(&env)
        .await
        .unwrap();
    assert!(started.handshake.starts_with("1|5|unix|"));
    let channel = connect(&started, None).await.unwrap();
    let mut client = ctywire_tfplugin::tfplugin5::provider_client::ProviderClient::new(channel);
    let status = client
        .get_metadata(ctywire_tfplugin::tfplugin5::get_metadata::Request::default())
        .await
        .unwrap_err();
    assert_eq!(status.code(), tonic::Code::Unimplemented);
    started.stop();
}

/// A protocol-5 provider that serves no call.
struct Empty5;

#[tonic::async_trait]
impl ctywire_tfplugin::tfplugin5::provider_server::Provider for Empty5 {}

/// A gRPC codec that sends and receives message bytes as they are, to put bytes on the
/// wire that no protobuf encoder writes.
#[derive(Clone, Copy, Default)]
struct RawCodec;

impl tonic::codec::Codec for RawCodec {
    type Encode = Vec<u8>;
    type Decode = Vec<u8>;
    type Encoder = RawCodec;
    type Decoder = RawCodec;

    fn encoder(&mut self) -> RawCodec {
        RawCodec
    }

    fn decoder(&mut self) -> RawCodec {
        RawCodec
    }
}

impl tonic::codec::Encoder for RawCodec {
    type Item = Vec<u8>;
    type Error = tonic::Status;

    fn encode(
        &mut self,
        item: Vec<u8>,
        dst: &mut tonic::codec::EncodeBuf<'_>,
    ) -> Result<(), tonic::Status> {
        prost::bytes::BufMut::put_slice(dst, &item);
        Ok(())
    }
}

impl tonic::codec::Decoder for RawCodec {
    type Item = Vec<u8>;
    type Error = tonic::Status;

    fn decode(
        &mut self,
        src: &mut tonic::codec::DecodeBuf<'_>,
    ) -> Result<Option<Vec<u8>>, tonic::Status> {
        use prost::bytes::Buf;
        Ok(Some(src.copy_to_bytes(src.remaining()).to_vec()))
    }
}

/// Sends `bytes` as the message of a call of `method` on `tfplugin6.Provider`.
async fn raw_call(channel: Channel, method: &str, bytes: &[u8]) -> Result<Vec<u8>, tonic::Status> {
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready()
        .await
        .map_err(|e| tonic::Status::unavailable(e.to_string()))?;
    let path = format!("/tfplugin6.Provider/{method}");
    grpc.unary(
        tonic::Request::new(bytes.to_vec()),
        tonic::codegen::http::uri::PathAndQuery::try_from(path).unwrap(),
        RawCodec,
    )
    .await
    .map(tonic::Response::into_inner)
}

/// Malformed protobuf in a well-formed gRPC frame: a clean error status for that call,
/// and the server, the connection and the next call carry on.
#[tokio::test]
async fn malformed_messages_get_an_error_status_and_the_server_carries_on() {
    let client = client_identity("pinned");
    let started = Plugin::new()
        .protocol6(Empty)
        .start(&PluginEnv::terraform(Some(client.pem.clone())))
        .await
        .unwrap();
    let channel = connect(&started, Some(&client)).await.unwrap();
    let garbage: [(&str, &[u8]); 4] = [
        ("an endless varint", &[0xff; 11]),
        ("wire type 7", &[0x0f]),
        ("a length past the end", &[0x0a, 0x20, 0x01]),
        ("a field number 0", &[0x00, 0x01]),
    ];
    for method in ["GetProviderSchema", "PlanResourceChange", "CallFunction"] {
        for (what, bytes) in garbage {
            let status = raw_call(channel.clone(), method, bytes).await.unwrap_err();
            assert_eq!(
                status.code(),
                tonic::Code::Internal,
                "{method}, {what}: {status:?}"
            );
            assert!(
                status
                    .message()
                    .starts_with("failed to decode Protobuf message"),
                "{method}, {what}: {status:?}"
            );
        }
    }
    // The same connection serves a good call, by the generated client and raw: the
    // empty message is a valid request.
    schema_call(channel.clone()).await.unwrap();
    let response = raw_call(channel, "GetProviderSchema", &[]).await.unwrap();
    assert!(<get_provider_schema::Response as prost::Message>::decode(response.as_slice()).is_ok());
    // And so does a new connection.
    schema_call(connect(&started, Some(&client)).await.unwrap())
        .await
        .unwrap();
    started.stop();
    started.wait().await.unwrap();
}

/// Where no Unix socket can be made and the plugin allows it, the plugin serves on TCP at
/// 127.0.0.1 (go-plugin's `tcp` network), AutoMTLS and all, within PLUGIN_MIN_PORT and
/// PLUGIN_MAX_PORT.
#[tokio::test]
async fn without_a_unix_socket_the_plugin_serves_on_tcp() {
    let client = client_identity("pinned");
    let no_dir = std::env::temp_dir().join(format!("ctywire-no-such-dir-{}", std::process::id()));
    let env = PluginEnv {
        unix_socket_dir: Some(no_dir.join("below")),
        ..PluginEnv::terraform(Some(client.pem.clone()))
    };
    let started = Plugin::new()
        .protocol6(Empty)
        .tcp_fallback(true)
        .start(&env)
        .await
        .unwrap();
    let PluginAddress::Tcp(at) = started.address else {
        panic!("{}", started.address)
    };
    assert!(at.ip().is_loopback());
    let parts: Vec<&str> = started.handshake.split('|').collect();
    assert_eq!(&parts[..5], ["1", "6", "tcp", &at.to_string(), "grpc"]);
    assert_eq!(
        parts.len(),
        6,
        "the server certificate: {}",
        started.handshake
    );
    assert!(started.unix_socket_error.is_some());
    schema_call(connect(&started, Some(&client)).await.unwrap())
        .await
        .unwrap();
    // Another client certificate is refused on TCP as on the socket.
    let other = client_identity("other");
    assert!(match connect(&started, Some(&other)).await {
        Ok(channel) => schema_call(channel).await.is_err(),
        Err(_) => true,
    });
    started.stop();
    started.wait().await.unwrap();

    // The port range: a free port found first, then asked for alone.
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = free.local_addr().unwrap().port();
    drop(free);
    let ranged = PluginEnv {
        min_port: Some(port.to_string()),
        max_port: Some(port.to_string()),
        ..env.clone()
    };
    let started = Plugin::new()
        .protocol6(Empty)
        .tcp_fallback(true)
        .start(&ranged)
        .await
        .unwrap();
    assert_eq!(
        started.address,
        PluginAddress::Tcp(([127, 0, 0, 1], port).into())
    );
    started.stop();
    started.wait().await.unwrap();

    // A range that cannot be served: the error says why neither network was.
    for (min, max) in [("9", "8"), ("x", "8")] {
        let bad = PluginEnv {
            min_port: Some(min.into()),
            max_port: Some(max.into()),
            ..env.clone()
        };
        let err = Plugin::new()
            .protocol6(Empty)
            .tcp_fallback(true)
            .start(&bad)
            .await
            .unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("no Unix socket") && text.contains("PLUGIN_MIN_PORT"),
            "{text}"
        );
    }
}

/// Where no Unix socket can be made, starting fails naming the path (and, for a path too
/// long, the limit) rather than serving on TCP; a plugin that allows TCP still gets no
/// TCP without AutoMTLS.
#[tokio::test]
async fn a_socket_that_cannot_be_made_is_an_error_naming_its_path() {
    let no_dir = std::env::temp_dir()
        .join(format!("ctywire-no-such-dir-{}", std::process::id()))
        .join("below");
    let env = PluginEnv {
        unix_socket_dir: Some(no_dir.clone()),
        ..PluginEnv::terraform(Some(client_identity("pinned").pem))
    };
    let err = Plugin::new()
        .protocol6(Empty)
        .start(&env)
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(text.contains(&no_dir.display().to_string()), "{text}");

    let long = tempfile_dir("long");
    let deep = long.join("d".repeat(120));
    std::fs::create_dir_all(&deep).unwrap();
    let env = PluginEnv {
        unix_socket_dir: Some(deep.clone()),
        ..PluginEnv::terraform(None)
    };
    let err = Plugin::new()
        .protocol6(Empty)
        .start(&env)
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains(&deep.display().to_string()) && text.contains("longer than the 10"),
        "{text}"
    );
    // The directory made for the socket is gone again.
    assert_eq!(std::fs::read_dir(&deep).unwrap().count(), 0);

    let err = Plugin::new()
        .protocol6(Empty)
        .tcp_fallback(true)
        .start(&env)
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("TCP is not used without AutoMTLS"), "{text}");
    std::fs::remove_dir_all(&long).unwrap();
}

/// A new directory under the temporary directory, for one test.
fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ctywire-serve-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The socket's directory has mode 0700 (the umask can only take bits away, and the
/// plugin sets them back), and goes when the server stops.
#[tokio::test]
async fn the_socket_directory_is_the_users_alone_and_goes_with_the_server() {
    let parent = tempfile_dir("mode");
    let env = PluginEnv {
        unix_socket_dir: Some(parent.clone()),
        ..PluginEnv::terraform(None)
    };
    let started = Plugin::new().protocol6(Empty).start(&env).await.unwrap();
    let PluginAddress::Unix(socket) = &started.address else {
        panic!("{}", started.address)
    };
    let dir = socket.parent().unwrap().to_path_buf();
    let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700, "{mode:o}");
    schema_call(connect(&started, None).await.unwrap())
        .await
        .unwrap();
    started.stop();
    started.wait().await.unwrap();
    assert!(!dir.exists());
    std::fs::remove_dir_all(&parent).unwrap();
}

/// A provider whose GetProviderSchema spins (holding its thread) until released, or
/// panics.
struct Stuck {
    entered: Arc<AtomicBool>,
    release: Arc<AtomicBool>,
    panic: bool,
}

#[tonic::async_trait]
impl Provider for Stuck {
    async fn get_provider_schema(
        &self,
        _request: tonic::Request<get_provider_schema::Request>,
    ) -> Result<tonic::Response<get_provider_schema::Response>, tonic::Status> {
        if self.panic {
            panic!("the demo handler gave up on {}", "x".repeat(10_000));
        }
        self.entered.store(true, Ordering::SeqCst);
        let deadline = Instant::now() + Duration::from_secs(30);
        while !self.release.load(Ordering::SeqCst) && Instant::now() < deadline {
            std::hint::spin_loop();
        }
        Ok(tonic::Response::new(
            get_provider_schema::Response::default(),
        ))
    }

    async fn apply_resource_change(
        &self,
        _request: tonic::Request<apply_resource_change::Request>,
    ) -> Result<tonic::Response<apply_resource_change::Response>, tonic::Status> {
        panic!("no apply today");
    }
}

/// While a handler spins on the only thread of the runtime that started the plugin,
/// health and `Shutdown` still answer within 100 ms (the server runs on its own
/// threads), and the server stops once the call in flight has ended.
#[test]
fn a_spinning_handler_holds_neither_health_nor_shutdown() {
    let provider_runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let (entered, release) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(AtomicBool::new(false)),
    );
    let stuck = Stuck {
        entered: entered.clone(),
        release: release.clone(),
        panic: false,
    };
    let started = provider_runtime
        .block_on(
            Plugin::new()
                .protocol6(stuck)
                .start(&PluginEnv::terraform(None)),
        )
        .unwrap();
    let client_runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    client_runtime.block_on(async {
        let channel = connect(&started, None).await.unwrap();
        let spinning = tokio::spawn(schema_call(channel.clone()));
        while !entered.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let mut health = tonic_health::pb::health_client::HealthClient::new(channel.clone());
        for _ in 0..5 {
            let asked = Instant::now();
            let answer = health
                .check(tonic_health::pb::HealthCheckRequest {
                    service: "plugin".into(),
                })
                .await
                .unwrap();
            assert_eq!(answer.into_inner().status, 1, "SERVING");
            let took = asked.elapsed();
            assert!(took < Duration::from_millis(100), "health took {took:?}");
        }
        // A new connection is served too.
        let other = connect(&started, None).await.unwrap();
        let asked = Instant::now();
        GrpcControllerClient::new(other)
            .shutdown(ctywire_tfplugin::controller::Empty {})
            .await
            .unwrap();
        let took = asked.elapsed();
        assert!(took < Duration::from_millis(100), "Shutdown took {took:?}");
        // The call in flight finishes, then the server stops.
        release.store(true, Ordering::SeqCst);
        spinning.await.unwrap().unwrap();
        started.wait().await.unwrap();
    });
}

/// A handler that panics ends its own call with an error diagnostic in the call's own
/// response (not a gRPC error), naming the call and what it was about and quoting the
/// start of the panic's message; the server answers the next call.
#[tokio::test]
async fn a_panicking_handler_is_an_error_diagnostic_for_its_call_alone() {
    let panicking = Stuck {
        entered: Arc::default(),
        release: Arc::default(),
        panic: true,
    };
    let started = Plugin::new()
        .protocol6(panicking)
        .start(&PluginEnv::terraform(None))
        .await
        .unwrap();
    let channel = connect(&started, None).await.unwrap();
    for _ in 0..2 {
        let response = ProviderClient::new(channel.clone())
            .get_provider_schema(get_provider_schema::Request::default())
            .await
            .expect("an answer, not a gRPC error")
            .into_inner();
        let [d] = response.diagnostics.as_slice() else {
            panic!("{:?}", response.diagnostics)
        };
        assert_eq!(d.severity, diagnostic::Severity::Error as i32);
        assert_eq!(d.summary, "the provider panicked in GetProviderSchema");
        assert!(
            d.detail.starts_with("the demo handler gave up on xxx"),
            "{}",
            d.detail
        );
        assert!(d.detail.len() < 1024, "{}", d.detail.len());
    }
    // The resource type the call was about is named.
    let response = ProviderClient::new(channel.clone())
        .apply_resource_change(apply_resource_change::Request {
            type_name: "demo_thing".into(),
            ..Default::default()
        })
        .await
        .expect("an answer, not a gRPC error")
        .into_inner();
    let summaries: Vec<(&str, &str)> = response
        .diagnostics
        .iter()
        .map(|d| (d.summary.as_str(), d.detail.as_str()))
        .collect();
    assert_eq!(
        summaries,
        [(
            r#"the provider panicked in ApplyResourceChange for "demo_thing""#,
            "no apply today"
        )]
    );
    assert!(response.new_state.is_none());
    schema_call(channel.clone()).await.unwrap();
    started.stop();
    started.wait().await.unwrap();
}

/// At most 64 connections are open at once: the next is closed as it is accepted, and
/// once one of the open ones goes, a new one is served again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_past_the_limit_are_closed() {
    let started = Plugin::new()
        .protocol6(Empty)
        .start(&PluginEnv::terraform(None))
        .await
        .unwrap();
    let mut open = Vec::new();
    for _ in 0..64 {
        let channel = connect(&started, None).await.unwrap();
        schema_call(channel.clone()).await.unwrap();
        open.push(channel);
    }
    let refused = match connect(&started, None).await {
        Ok(channel) => schema_call(channel).await.is_err(),
        Err(_) => true,
    };
    assert!(refused, "a 65th connection was served");
    drop(open.pop());
    // The dropped connection's slot comes back once the server sees it closed.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let served = match connect(&started, None).await {
            Ok(channel) => schema_call(channel).await.is_ok(),
            Err(_) => false,
        };
        if served {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no connection served after one closed"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Those still open go on being served.
    schema_call(open[0].clone()).await.unwrap();
    started.stop();
    drop(open);
    started.wait().await.unwrap();
}

/// A provider whose GetProviderSchema waits (without holding a thread) until released,
/// counting the calls inside it.
struct Gate {
    inside: Arc<std::sync::atomic::AtomicUsize>,
    most: Arc<std::sync::atomic::AtomicUsize>,
    release: Arc<AtomicBool>,
}

#[tonic::async_trait]
impl Provider for Gate {
    async fn get_provider_schema(
        &self,
        _request: tonic::Request<get_provider_schema::Request>,
    ) -> Result<tonic::Response<get_provider_schema::Response>, tonic::Status> {
        let now = self.inside.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(now, Ordering::SeqCst);
        while !self.release.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        self.inside.fetch_sub(1, Ordering::SeqCst);
        Ok(tonic::Response::new(
            get_provider_schema::Response::default(),
        ))
    }
}

/// One connection carries at most 128 calls at once (the server's HTTP/2
/// SETTINGS_MAX_CONCURRENT_STREAMS): of 200 calls made together on one connection, no
/// more than 128 are ever in the handler, and all 200 are answered once it lets go.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_connection_carries_at_most_128_calls_at_once() {
    let gate = Gate {
        inside: Arc::default(),
        most: Arc::default(),
        release: Arc::default(),
    };
    let (inside, most, release) = (gate.inside.clone(), gate.most.clone(), gate.release.clone());
    let started = Plugin::new()
        .protocol6(gate)
        .start(&PluginEnv::terraform(None))
        .await
        .unwrap();
    let channel = connect(&started, None).await.unwrap();
    let calls: Vec<_> = (0..200)
        .map(|_| tokio::spawn(schema_call(channel.clone())))
        .collect();
    // Until the count inside has stood still for a while.
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut last = (0, Instant::now());
    loop {
        let now = inside.load(Ordering::SeqCst);
        if now != last.0 {
            last = (now, Instant::now());
        } else if now > 0 && last.1.elapsed() > Duration::from_millis(500) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the calls never settled ({now} inside)"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(most.load(Ordering::SeqCst), 128);
    release.store(true, Ordering::SeqCst);
    for call in calls {
        call.await.unwrap().unwrap();
    }
    assert_eq!(most.load(Ordering::SeqCst), 128);
    started.stop();
    started.wait().await.unwrap();
}

/// A provider whose ReadResource answers with a new state of `bytes` bytes of
/// MessagePack (its GetProviderSchema answers as [`Empty`]'s does).
struct Huge {
    bytes: usize,
}

#[tonic::async_trait]
impl Provider for Huge {
    async fn get_provider_schema(
        &self,
        _request: tonic::Request<get_provider_schema::Request>,
    ) -> Result<tonic::Response<get_provider_schema::Response>, tonic::Status> {
        Ok(tonic::Response::new(
            get_provider_schema::Response::default(),
        ))
    }

    async fn read_resource(
        &self,
        _request: tonic::Request<read_resource::Request>,
    ) -> Result<tonic::Response<read_resource::Response>, tonic::Status> {
        Ok(tonic::Response::new(read_resource::Response {
            new_state: Some(DynamicValue {
                msgpack: vec![0xc0; self.bytes].into(),
                json: Default::default(),
            }),
            ..Default::default()
        }))
    }
}

/// A response past 256 MiB is not sent: its call ends with an error status saying the
/// message is too large (the client here would take a message of any size), and the
/// server answers the next calls, on the same connection and a new one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_response_past_256_mib_is_an_error_for_its_call_alone() {
    let started = Plugin::new()
        .protocol6(Huge {
            bytes: (256 << 20) + 1,
        })
        .start(&PluginEnv::terraform(None))
        .await
        .unwrap();
    let channel = connect(&started, None).await.unwrap();
    let mut client = ProviderClient::new(channel.clone()).max_decoding_message_size(usize::MAX);
    let status = client
        .read_resource(read_resource::Request {
            type_name: "demo_thing".into(),
            ..Default::default()
        })
        .await
        .map(|r| r.into_inner().new_state.map(|s| s.msgpack.len()))
        .expect_err("a response past the limit was sent");
    assert_eq!(status.code(), tonic::Code::OutOfRange, "{status:?}");
    assert!(
        status.message().contains("too large"),
        "{}",
        status.message()
    );
    assert!(status.message().len() < 1024, "{}", status.message().len());
    schema_call(channel).await.unwrap();
    schema_call(connect(&started, None).await.unwrap())
        .await
        .unwrap();
    started.stop();
    started.wait().await.unwrap();
}

/// A response just under the limit is sent whole (the limit is the message's, not
/// smaller).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_response_under_256_mib_is_sent() {
    // The DynamicValue's field tag and length, and the response's, take 12 bytes.
    let bytes = (256 << 20) - 12;
    let started = Plugin::new()
        .protocol6(Huge { bytes })
        .start(&PluginEnv::terraform(None))
        .await
        .unwrap();
    let channel = connect(&started, None).await.unwrap();
    let mut client = ProviderClient::new(channel).max_decoding_message_size(usize::MAX);
    let state = client
        .read_resource(read_resource::Request::default())
        .await
        .unwrap()
        .into_inner()
        .new_state
        .unwrap();
    assert_eq!(state.msgpack.len(), bytes);
    started.stop();
    started.wait().await.unwrap();
}

/// A connection that never sends a byte (a client stuck before its handshake, or one
/// holding a slot on purpose) is closed by the server, while connections in use, idle
/// between calls as Terraform's is, are kept and served. (The server's limit for a
/// first byte set to one second here, a tenth of its default.)
#[tokio::test]
async fn a_connection_that_never_speaks_is_closed_and_one_in_use_is_kept() {
    use tokio::io::AsyncReadExt;

    let started = Plugin::new()
        .protocol6(Empty)
        .connection_timeout(Duration::from_secs(1))
        .start(&PluginEnv::terraform(None))
        .await
        .unwrap();
    let PluginAddress::Unix(socket) = started.address.clone() else {
        panic!(
            "the plugin serves on {}, not a Unix socket",
            started.address
        )
    };
    let in_use = connect(&started, None).await.unwrap();
    schema_call(in_use.clone()).await.unwrap();
    let mut silent = tokio::net::UnixStream::connect(&socket).await.unwrap();
    let mut byte = [0u8; 1];
    // Far past the server's limit for a first byte: the read ends, at the end of the
    // stream or with the connection reset, never with data and never by this timeout.
    let read = tokio::time::timeout(Duration::from_secs(60), silent.read(&mut byte)).await;
    match read {
        Ok(Ok(0)) | Ok(Err(_)) => {}
        Ok(Ok(n)) => panic!("the server sent {n} bytes to a silent connection"),
        Err(_) => panic!("a silent connection was kept open for 60 s"),
    }
    // The connection in use, idle all that time, is still served.
    schema_call(in_use).await.unwrap();
    started.stop();
    started.wait().await.unwrap();
}
