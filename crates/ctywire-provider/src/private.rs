//! Typed private state: a resource's own data kept by Terraform beside the state and
//! never shown, a serde type as JSON in the private bytes.

use std::sync::{Arc, Mutex};

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::Context;

/// A call's private bytes: those Terraform sent, and those the handler wrote.
#[derive(Clone, Default)]
pub(crate) struct Slot(Arc<Mutex<Bytes>>);

#[derive(Default)]
struct Bytes {
    given: Vec<u8>,
    written: Option<Vec<u8>>,
}

impl Slot {
    /// The bytes to answer with: the handler's, else those Terraform sent.
    pub(crate) fn out(&self) -> Vec<u8> {
        match self.0.lock() {
            Ok(b) => b.written.clone().unwrap_or_else(|| b.given.clone()),
            Err(_) => Vec::new(),
        }
    }

    fn give(&self, bytes: Vec<u8>) {
        if let Ok(mut b) = self.0.lock() {
            b.given = bytes;
        }
    }
}

impl<D> Context<D> {
    pub(crate) fn with_private(self, bytes: Vec<u8>) -> Context<D> {
        self.private.give(bytes);
        self
    }

    pub(crate) fn private_slot(&self) -> Slot {
        self.private.clone()
    }

    /// The resource's private state as a `T` (what [`set_private`](Context::set_private)
    /// wrote in an earlier call: create or update for a read, update or delete;
    /// [`modify_plan`](crate::Resource::modify_plan) for the create or update that
    /// applies its plan), or `None` when there is none. Terraform keeps it beside the
    /// state and never shows it.
    ///
    /// ```
    /// # use ctywire_provider::{Context, Result};
    /// #[derive(serde::Serialize, serde::Deserialize)]
    /// struct Etag {
    ///     etag: String,
    /// }
    ///
    /// async fn read_with_etag(ctx: &Context<()>) -> Result<()> {
    ///     let previous: Option<Etag> = ctx.private()?;
    ///     // ... a conditional GET with previous.etag ...
    ///     ctx.set_private(&Etag { etag: "v2".into() })?;
    ///     Ok(())
    /// }
    /// ```
    ///
    /// # Errors
    ///
    /// When the bytes are not a `T` in JSON (an earlier version of the provider wrote
    /// something else): an error naming the type, without the bytes.
    pub fn private<T: DeserializeOwned>(&self) -> Result<Option<T>> {
        let bytes = match self.private.0.lock() {
            Ok(b) => b.written.clone().unwrap_or_else(|| b.given.clone()),
            Err(_) => Vec::new(),
        };
        if bytes.is_empty() {
            return Ok(None);
        }
        serde_json::from_slice(&bytes).map(Some).map_err(|e| {
            // Where, not what: serde's messages quote the values they meet.
            let kind = match e.classify() {
                serde_json::error::Category::Data => "a value of another shape",
                serde_json::error::Category::Eof => "an early end",
                serde_json::error::Category::Syntax | serde_json::error::Category::Io => {
                    "not JSON"
                }
            };
            Error::new(
                "Invalid private state",
                format!(
                    "the private state of this {} object is not a {} in JSON ({} bytes; {kind} at line {} column {}); an earlier version of the provider may have written something else",
                    self.type_name(),
                    std::any::type_name::<T>(),
                    bytes.len(),
                    e.line(),
                    e.column()
                ),
            )
        })
    }

    /// Replaces the resource's private state with `value`, as JSON, for Terraform to
    /// keep and give back in later calls.
    ///
    /// # Errors
    ///
    /// When `value` cannot be written as JSON.
    pub fn set_private<T: Serialize>(&self, value: &T) -> Result<()> {
        let bytes = serde_json::to_vec(value).map_err(|e| {
            Error::new(
                "Invalid private state",
                format!(
                    "{} cannot be written as JSON: {e}",
                    std::any::type_name::<T>()
                ),
            )
        })?;
        if let Ok(mut b) = self.private.0.lock() {
            b.written = Some(bytes);
        }
        Ok(())
    }

    /// Empties the resource's private state.
    pub fn clear_private(&self) {
        if let Ok(mut b) = self.private.0.lock() {
            b.written = Some(Vec::new());
        }
    }
}
