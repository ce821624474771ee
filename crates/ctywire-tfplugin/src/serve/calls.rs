//! The provider's calls, run on the caller's runtime rather than the server's: a handler
//! that blocks or spins holds only the threads it runs on, while the server (its
//! connections, health, the controller's `Shutdown`) goes on answering on its own.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};

use tokio::runtime::Handle;
use tokio::task::JoinHandle;
use tonic::body::Body;
use tonic::codegen::{http, Service};
use tonic::server::NamedService;

/// How much of a panic's message the error status quotes.
const PANIC_EXCERPT_BYTES: usize = 512;

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
                    Ok(tonic::Status::internal(format!(
                        "the provider panicked in {method}: {message}"
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

/// A panic's message (a `&str` or `String` payload), at most [`PANIC_EXCERPT_BYTES`]
/// of it.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(a panic without a message)");
    excerpt(text, PANIC_EXCERPT_BYTES)
}

/// `text` cut to at most `max` bytes (at a character boundary), with `...` where cut.
pub(super) fn excerpt(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::excerpt;

    #[test]
    fn excerpts_cut_at_character_boundaries() {
        assert_eq!(excerpt("short", 10), "short");
        assert_eq!(excerpt("abcdef", 3), "abc...");
        assert_eq!(excerpt("aé", 2), "a...");
    }
}
