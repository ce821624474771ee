//! The provider's calls, run on the caller's runtime rather than the server's: a handler
//! that blocks or spins holds only the threads it runs on, while the server (its
//! connections, health, the controller's `Shutdown`) goes on answering on its own.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, OnceLock};
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::Frame;

use tokio::runtime::Handle;
use tokio::task::JoinHandle;
use tonic::body::Body;
use tonic::codegen::{http, Service};
use tonic::server::NamedService;

/// How much of a panic's message the error status quotes.
const PANIC_EXCERPT_BYTES: usize = 512;

/// How much of a request is kept to name what a panicking call was about: the gRPC
/// frame's header and the start of the message, where its first field (the resource
/// type, function or action name) is.
const PEEK_BYTES: usize = 256;

/// The calls whose request's first field is not the name of what they are about.
const UNNAMED: [&str; 8] = [
    "ConfigureProvider",
    "Configure",
    "MoveResourceState",
    "ValidateProviderConfig",
    "PrepareProviderConfig",
    "ValidateProvisionerConfig",
    "ProvisionResource",
    "GetProviderSchema",
];

/// A gRPC service (the generated provider server) whose calls run as tasks on the
/// runtime in `runtime` (set when the plugin starts; the current one otherwise).
#[derive(Clone)]
pub(super) struct OnRuntime<S> {
    inner: S,
    runtime: Arc<OnceLock<Handle>>,
}

impl<S> OnRuntime<S> {
    pub(super) fn new(inner: S, runtime: Arc<OnceLock<Handle>>) -> OnRuntime<S> {
        OnRuntime { inner, runtime }
    }
}

impl<S: NamedService> NamedService for OnRuntime<S> {
    const NAME: &'static str = S::NAME;
}

/// Aborts the call's task when the call is dropped (the client cancelled it, or the
/// connection went away), as dropping the handler's future did before it was a task.
struct AbortOnDrop<T>(JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl<S> Service<http::Request<Body>> for OnRuntime<S>
where
    S: Service<http::Request<Body>, Response = http::Response<Body>, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
{
    type Response = http::Response<Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<http::Response<Body>, Infallible>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        // The generated servers are always ready; each call gets its own clone.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<Body>) -> Self::Future {
        let mut inner = self.inner.clone();
        let method = request
            .uri()
            .path()
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .to_owned();
        let runtime = self.runtime.get().cloned();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let request = request.map(|body| {
            Body::new(Peek {
                inner: body,
                seen: seen.clone(),
            })
        });
        Box::pin(async move {
            let call = async move { inner.call(request).await };
            let mut task = AbortOnDrop(match runtime {
                Some(runtime) => runtime.spawn(call),
                None => tokio::spawn(call),
            });
            match (&mut task.0).await {
                Ok(response) => response,
                Err(e) if e.is_panic() => {
                    let message = panic_message(e.into_panic().as_ref());
                    let about = if UNNAMED.contains(&method.as_str()) {
                        None
                    } else {
                        seen.lock().ok().and_then(|seen| first_string(&seen))
                    };
                    let about = about.map_or_else(String::new, |name| format!(" for {name:?}"));
                    let summary = format!("the provider panicked in {method}{about}");
                    // A diagnostic in the call's own response where the response has a
                    // place for one; a status otherwise (streams, the controller).
                    Ok(match panic_response(&method, &summary, &message) {
                        Some(response) => response,
                        None => {
                            tonic::Status::internal(format!("{summary}: {message}")).into_http()
                        }
                    })
                }
                Err(_) => Ok(tonic::Status::cancelled(format!(
                    "the provider's runtime stopped during {method}"
                ))
                .into_http()),
            }
        })
    }
}

/// Where a unary call's response (protocol 5 and 6 alike) says what went wrong: the
/// field number of its `repeated Diagnostic diagnostics`, or for the calls without one,
/// how else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ErrorField {
    /// `repeated Diagnostic diagnostics = N`.
    Diagnostics(u32),
    /// CallFunction: `FunctionError error = 2` (its `text` field 1).
    FunctionError,
    /// StopProvider and Stop: `string Error = 1`.
    Text,
}

/// The [`ErrorField`] of `method`'s response; `None` for streams and other services.
fn error_field(method: &str) -> Option<ErrorField> {
    use ErrorField::{Diagnostics, FunctionError, Text};
    Some(match method {
        "ValidateResourceConfig"
        | "ValidateDataResourceConfig"
        | "ValidateResourceTypeConfig"
        | "ValidateDataSourceConfig"
        | "ConfigureProvider"
        | "Configure"
        | "ValidateEphemeralResourceConfig"
        | "OpenEphemeralResource"
        | "RenewEphemeralResource"
        | "CloseEphemeralResource"
        | "ValidateListResourceConfig"
        | "ValidateStateStoreConfig"
        | "ConfigureStateStore"
        | "WriteStateBytes"
        | "UnlockState"
        | "DeleteState"
        | "PlanAction"
        | "ValidateActionConfig"
        | "ValidateProvisionerConfig" => Diagnostics(1),
        "GetMetadata"
        | "ValidateProviderConfig"
        | "PrepareProviderConfig"
        | "UpgradeResourceState"
        | "GetResourceIdentitySchemas"
        | "UpgradeResourceIdentity"
        | "ReadResource"
        | "ImportResourceState"
        | "MoveResourceState"
        | "ReadDataSource"
        | "GenerateResourceConfig"
        | "GetFunctions"
        | "LockState"
        | "GetStates" => Diagnostics(2),
        "ApplyResourceChange" => Diagnostics(3),
        "GetProviderSchema" | "GetSchema" | "PlanResourceChange" => Diagnostics(4),
        "CallFunction" => FunctionError,
        "StopProvider" | "Stop" => Text,
        _ => return None,
    })
}

/// A protobuf length-delimited field.
fn field(number: u32, bytes: &[u8], into: &mut Vec<u8>) {
    let varint = |mut v: u64, into: &mut Vec<u8>| loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            into.push(byte);
            break;
        }
        into.push(byte | 0x80);
    };
    varint(u64::from(number) << 3 | 2, into);
    varint(bytes.len() as u64, into);
    into.extend_from_slice(bytes);
}

/// The message of `method`'s response that carries one error: `summary` and `detail`.
fn error_message(method: &str, summary: &str, detail: &str) -> Option<Vec<u8>> {
    let mut message = Vec::new();
    match error_field(method)? {
        ErrorField::Diagnostics(number) => {
            // Diagnostic: severity ERROR (1) = 1, summary = 2, detail = 3.
            let mut diagnostic = vec![0x08, 0x01];
            field(2, summary.as_bytes(), &mut diagnostic);
            field(3, detail.as_bytes(), &mut diagnostic);
            field(number, &diagnostic, &mut message);
        }
        ErrorField::FunctionError => {
            let mut error = Vec::new();
            field(1, format!("{summary}: {detail}").as_bytes(), &mut error);
            field(2, &error, &mut message);
        }
        ErrorField::Text => field(1, format!("{summary}: {detail}").as_bytes(), &mut message),
    }
    Some(message)
}

/// A successful gRPC response to `method` whose message is its error: what a panic in
/// a unary call's handler becomes.
fn panic_response(method: &str, summary: &str, detail: &str) -> Option<http::Response<Body>> {
    let message = error_message(method, summary, detail)?;
    let mut frame = Vec::with_capacity(5 + message.len());
    frame.push(0); // not compressed
    frame.extend_from_slice(&u32::try_from(message.len()).ok()?.to_be_bytes());
    frame.extend_from_slice(&message);
    let mut trailers = http::HeaderMap::new();
    trailers.insert("grpc-status", http::HeaderValue::from_static("0"));
    http::Response::builder()
        .header("content-type", "application/grpc")
        .body(Body::new(Once {
            data: Some(Bytes::from(frame)),
            trailers: Some(trailers),
        }))
        .ok()
}

/// A body of one data frame, then trailers.
struct Once {
    data: Option<Bytes>,
    trailers: Option<http::HeaderMap>,
}

impl http_body::Body for Once {
    type Data = Bytes;
    type Error = tonic::Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, tonic::Status>>> {
        if let Some(data) = self.data.take() {
            return Poll::Ready(Some(Ok(Frame::data(data))));
        }
        Poll::Ready(self.trailers.take().map(|t| Ok(Frame::trailers(t))))
    }

    fn is_end_stream(&self) -> bool {
        self.data.is_none() && self.trailers.is_none()
    }
}

/// A request body that keeps the first [`PEEK_BYTES`] that pass through it.
struct Peek {
    inner: Body,
    seen: Arc<Mutex<Vec<u8>>>,
}

impl http_body::Body for Peek {
    type Data = Bytes;
    type Error = tonic::Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, tonic::Status>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        if let Poll::Ready(Some(Ok(frame))) = &polled
            && let (Some(data), Ok(mut seen)) = (frame.data_ref(), self.seen.lock())
        {
            let room = PEEK_BYTES.saturating_sub(seen.len());
            seen.extend_from_slice(&data[..room.min(data.len())]);
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// The first field of the first message in `grpc` (an uncompressed gRPC frame's start)
/// when it is a string: the name of the resource type, function or action a call is
/// about. At most 128 bytes of it.
fn first_string(grpc: &[u8]) -> Option<String> {
    let (&compressed, rest) = grpc.split_first()?;
    let message = rest.get(4..).filter(|_| compressed == 0)?;
    // Field 1, length-delimited.
    let (&tag, mut rest) = message.split_first()?;
    if tag != 0x0a {
        return None;
    }
    let mut length = 0usize;
    for shift in (0..35).step_by(7) {
        let (&byte, tail) = rest.split_first()?;
        rest = tail;
        length |= usize::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            break;
        }
    }
    if length == 0 || length > 128 {
        return None;
    }
    let name = std::str::from_utf8(rest.get(..length)?).ok()?;
    Some(name.to_owned())
}

/// A panic's message (a `&str` or `String` payload), at most [`PANIC_EXCERPT_BYTES`]
/// of it.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(a panic without a message)");
    crate::diagnostic::excerpt(text.to_owned(), PANIC_EXCERPT_BYTES)
}

#[cfg(test)]
mod tests {
    use super::{error_message, first_string};
    use prost::Message;

    /// Each response's error, decoded by the generated message type: the field numbers
    /// of the table are the protocol's.
    #[test]
    fn a_panic_fits_each_unary_calls_response() {
        macro_rules! diagnosed {
            ($($p:ident :: $m:ident => $method:literal),* $(,)?) => {$(
                let bytes = error_message($method, "s", "d").expect($method);
                let r = crate::$p::$m::Response::decode(bytes.as_slice()).expect($method);
                assert_eq!(r.diagnostics.len(), 1, "{}", $method);
                assert_eq!((r.diagnostics[0].summary.as_str(), r.diagnostics[0].detail.as_str(), r.diagnostics[0].severity), ("s", "d", 1), "{}", $method);
            )*};
        }
        diagnosed!(
            tfplugin6::get_metadata => "GetMetadata",
            tfplugin6::get_provider_schema => "GetProviderSchema",
            tfplugin6::validate_provider_config => "ValidateProviderConfig",
            tfplugin6::validate_resource_config => "ValidateResourceConfig",
            tfplugin6::validate_data_resource_config => "ValidateDataResourceConfig",
            tfplugin6::upgrade_resource_state => "UpgradeResourceState",
            tfplugin6::get_resource_identity_schemas => "GetResourceIdentitySchemas",
            tfplugin6::upgrade_resource_identity => "UpgradeResourceIdentity",
            tfplugin6::configure_provider => "ConfigureProvider",
            tfplugin6::read_resource => "ReadResource",
            tfplugin6::plan_resource_change => "PlanResourceChange",
            tfplugin6::apply_resource_change => "ApplyResourceChange",
            tfplugin6::import_resource_state => "ImportResourceState",
            tfplugin6::move_resource_state => "MoveResourceState",
            tfplugin6::read_data_source => "ReadDataSource",
            tfplugin6::generate_resource_config => "GenerateResourceConfig",
            tfplugin6::validate_ephemeral_resource_config => "ValidateEphemeralResourceConfig",
            tfplugin6::open_ephemeral_resource => "OpenEphemeralResource",
            tfplugin6::renew_ephemeral_resource => "RenewEphemeralResource",
            tfplugin6::close_ephemeral_resource => "CloseEphemeralResource",
            tfplugin6::validate_list_resource_config => "ValidateListResourceConfig",
            tfplugin6::get_functions => "GetFunctions",
            tfplugin6::validate_state_store => "ValidateStateStoreConfig",
            tfplugin6::configure_state_store => "ConfigureStateStore",
            tfplugin6::write_state_bytes => "WriteStateBytes",
            tfplugin6::lock_state => "LockState",
            tfplugin6::unlock_state => "UnlockState",
            tfplugin6::get_states => "GetStates",
            tfplugin6::delete_state => "DeleteState",
            tfplugin6::plan_action => "PlanAction",
            tfplugin6::validate_action_config => "ValidateActionConfig",
            tfplugin5::get_provider_schema => "GetSchema",
            tfplugin5::prepare_provider_config => "PrepareProviderConfig",
            tfplugin5::validate_resource_type_config => "ValidateResourceTypeConfig",
            tfplugin5::validate_data_source_config => "ValidateDataSourceConfig",
            tfplugin5::configure => "Configure",
            tfplugin5::apply_resource_change => "ApplyResourceChange",
            tfplugin5::plan_resource_change => "PlanResourceChange",
            tfplugin5::validate_provisioner_config => "ValidateProvisionerConfig",
            tfplugin5::get_metadata => "GetMetadata",
            tfplugin5::upgrade_resource_state => "UpgradeResourceState",
            tfplugin5::read_resource => "ReadResource",
            tfplugin5::import_resource_state => "ImportResourceState",
            tfplugin5::move_resource_state => "MoveResourceState",
            tfplugin5::read_data_source => "ReadDataSource",
            tfplugin5::get_functions => "GetFunctions",
            tfplugin5::open_ephemeral_resource => "OpenEphemeralResource",
            tfplugin5::plan_action => "PlanAction",
        );
        let bytes = error_message("Stop", "s", "d").unwrap();
        let r = crate::tfplugin5::stop::Response::decode(bytes.as_slice()).unwrap();
        assert_eq!(r.error, "s: d");
        let bytes = error_message("CallFunction", "s", "d").unwrap();
        let r = crate::tfplugin6::call_function::Response::decode(bytes.as_slice()).unwrap();
        assert_eq!(r.error.unwrap().text, "s: d");
        let bytes = error_message("StopProvider", "s", "d").unwrap();
        let r = crate::tfplugin6::stop_provider::Response::decode(bytes.as_slice()).unwrap();
        assert_eq!(r.error, "s: d");
        assert_eq!(error_message("ListResource", "s", "d"), None);
        assert_eq!(error_message("Shutdown", "s", "d"), None);
    }

    #[test]
    fn the_first_string_field_names_the_call() {
        let frame = |message: &[u8]| {
            let mut f = vec![0, 0, 0, 0, message.len() as u8];
            f.extend_from_slice(message);
            f
        };
        assert_eq!(
            first_string(&frame(b"\x0a\x0ademo_thing\x12\x00")).as_deref(),
            Some("demo_thing")
        );
        // Another field first, a compressed frame, a truncated or too long name.
        assert_eq!(first_string(&frame(b"\x12\x01a")), None);
        let mut compressed = frame(b"\x0a\x01a");
        compressed[0] = 1;
        assert_eq!(first_string(&compressed), None);
        assert_eq!(first_string(&frame(b"\x0a\x05ab")), None);
        assert_eq!(first_string(&frame(b"\x0a\xc8\x01abc")), None);
        assert_eq!(first_string(&[]), None);
    }
}
