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
                    Ok(tonic::Status::internal(format!(
                        "the provider panicked in {method}{about}: {message}"
                    ))
                    .into_http())
                }
                Err(_) => Ok(tonic::Status::cancelled(format!(
                    "the provider's runtime stopped during {method}"
                ))
                .into_http()),
            }
        })
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
        if let Poll::Ready(Some(Ok(frame))) = &polled {
            if let (Some(data), Ok(mut seen)) = (frame.data_ref(), self.seen.lock()) {
                let room = PEEK_BYTES.saturating_sub(seen.len());
                seen.extend_from_slice(&data[..room.min(data.len())]);
            }
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
    use super::first_string;

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
