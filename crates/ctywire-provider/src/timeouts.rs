//! Timeouts by declaration: a resource whose struct has a `timeouts` block of
//! [`Timeouts`] lets the configuration bound each operation, in Terraform's duration
//! syntax (`"30s"`, `"10m"`, `"1h30m"`), with the resource's defaults
//! ([`Resource::TIMEOUTS`](crate::Resource::TIMEOUTS)) where it says nothing.
//!
//! At the deadline the handler's [`Context`](crate::Context) is cancelled, as
//! StopProvider cancels it, and the call ends with an error naming the operation and the
//! duration; the handler is not dropped mid-write: what it returns (the state of what it
//! made) is still given to Terraform, which keeps it (tainted, after a create).
//!
//! ```
//! use std::time::Duration;
//! use ctywire::Known;
//! use ctywire_provider::timeouts::{Defaults, Timeouts};
//! use ctywire_provider::{Context, Resource, Result};
//!
//! #[derive(ctywire::Object)]
//! struct Server {
//!     #[cty(required)]
//!     name: String,
//!     #[cty(computed)]
//!     id: Known<String>,
//!     /// `timeouts { create = "20m" }`
//!     #[cty(block)]
//!     timeouts: Option<Timeouts>,
//! }
//!
//! struct Servers;
//!
//! impl Resource<()> for Servers {
//!     const NAME: &'static str = "server";
//!     const TIMEOUTS: Defaults = Defaults::NONE.create(Duration::from_secs(600));
//!     type State = Server;
//!
//!     async fn create(&self, ctx: &Context<()>, mut server: Server) -> Result<Server> {
//!         // Boots for as long as it takes, or until the deadline (or a Ctrl-C).
//!         tokio::select! {
//!             () = tokio::time::sleep(Duration::from_millis(1)) => {}
//!             () = ctx.cancelled() => {}
//!         }
//!         server.id = Known::Known(server.name.clone());
//!         Ok(server)
//!     }
//! #   async fn update(&self, _: &Context<()>, _: Server, planned: Server) -> Result<Server> { Ok(planned) }
//! #   async fn delete(&self, _: &Context<()>, _: Server) -> Result<()> { Ok(()) }
//! }
//! ```

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ctywire::{Path, Value};
use tokio_util::sync::CancellationToken;

use crate::error::{Diagnostic, Error, Result};

/// The `timeouts` block: one optional duration per operation, in Terraform's syntax.
/// A resource declares it as a field, `#[cty(block)] timeouts: Option<Timeouts>`; the operations a
/// resource does not bound simply take no time limit from it.
#[derive(ctywire::Object, Clone, Debug, Default, PartialEq, Eq)]
pub struct Timeouts {
    /// How long creating may take (`"30s"`, `"10m"`, `"1h30m"`).
    #[cty(optional)]
    pub create: Option<String>,
    /// How long reading may take.
    #[cty(optional)]
    pub read: Option<String>,
    /// How long updating may take.
    #[cty(optional)]
    pub update: Option<String>,
    /// How long deleting may take.
    #[cty(optional)]
    pub delete: Option<String>,
}

/// A resource's time limits where its configuration sets none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Defaults {
    /// For `create`.
    pub create: Option<Duration>,
    /// For `read`.
    pub read: Option<Duration>,
    /// For `update`.
    pub update: Option<Duration>,
    /// For `delete`.
    pub delete: Option<Duration>,
}

impl Defaults {
    /// No limit on any operation.
    pub const NONE: Defaults = Defaults {
        create: None,
        read: None,
        update: None,
        delete: None,
    };

    /// With a limit on `create`.
    #[must_use]
    pub const fn create(mut self, limit: Duration) -> Defaults {
        self.create = Some(limit);
        self
    }

    /// With a limit on `read`.
    #[must_use]
    pub const fn read(mut self, limit: Duration) -> Defaults {
        self.read = Some(limit);
        self
    }

    /// With a limit on `update`.
    #[must_use]
    pub const fn update(mut self, limit: Duration) -> Defaults {
        self.update = Some(limit);
        self
    }

    /// With a limit on `delete`.
    #[must_use]
    pub const fn delete(mut self, limit: Duration) -> Defaults {
        self.delete = Some(limit);
        self
    }

    fn of(&self, operation: &str) -> Option<Duration> {
        match operation {
            "create" => self.create,
            "read" => self.read,
            "update" => self.update,
            "delete" => self.delete,
            _ => None,
        }
    }
}

/// A duration in Terraform's syntax (Go's `time.ParseDuration`): a sequence of decimal
/// numbers, each with an optional fraction and a unit (`ns`, `us`, `µs`, `ms`, `s`,
/// `m`, `h`), as `"1h30m"` or `"1.5s"`; `"0"` alone is zero. Negative durations are
/// refused: a time limit is not negative.
///
/// ```
/// use std::time::Duration;
/// use ctywire_provider::timeouts::parse_duration;
///
/// assert_eq!(parse_duration("1h30m"), Ok(Duration::from_secs(5400)));
/// assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
/// assert!(parse_duration("10 minutes").is_err());
/// ```
///
/// # Errors
///
/// A message saying what is wrong with `text`.
pub fn parse_duration(text: &str) -> std::result::Result<Duration, String> {
    let invalid =
        || format!("{text:?} is not a duration (write it as \"30s\", \"10m\" or \"1h30m\")");
    let rest = text.strip_prefix('+').unwrap_or(text);
    if rest.starts_with('-') {
        return Err(format!(
            "{text:?} is negative; a time limit is a positive duration"
        ));
    }
    if rest == "0" {
        return Ok(Duration::ZERO);
    }
    if rest.is_empty() {
        return Err(invalid());
    }
    let mut total: u128 = 0; // nanoseconds
    let mut rest = rest;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .ok_or_else(invalid)?;
        let (number, after) = rest.split_at(digits);
        let unit_len = after
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(after.len());
        let (unit, after) = after.split_at(unit_len);
        let nanos_per: u128 = match unit {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return Err(invalid()),
        };
        let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
        if (whole.is_empty() && fraction.is_empty()) || fraction.contains('.') {
            return Err(invalid());
        }
        let whole: u128 = if whole.is_empty() {
            0
        } else {
            whole.parse().map_err(|_| invalid())?
        };
        let mut part = whole.checked_mul(nanos_per).ok_or_else(invalid)?;
        // The fraction's digits beyond nanoseconds do not count (as in Go).
        let mut scale = nanos_per;
        for digit in fraction.bytes() {
            scale /= 10;
            part += u128::from(digit - b'0') * scale;
        }
        total = total.checked_add(part).ok_or_else(invalid)?;
        rest = after;
    }
    let secs = u64::try_from(total / 1_000_000_000).map_err(|_| invalid())?;
    // Below 10^9: fits.
    let nanos = u32::try_from(total % 1_000_000_000).unwrap_or(0);
    Ok(Duration::new(secs, nanos))
}

/// A duration as Terraform's users write it: `"1h30m0s"` for 5,400 seconds.
pub(crate) fn show(limit: Duration) -> String {
    let secs = limit.as_secs();
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    let millis = limit.subsec_millis();
    let seconds = if millis == 0 {
        format!("{s}s")
    } else {
        format!("{s}.{millis:03}s")
    };
    match (h, m) {
        (0, 0) => seconds,
        (0, m) => format!("{m}m{seconds}"),
        (h, m) => format!("{h}h{m}m{seconds}"),
    }
}

/// The limit on `operation` for an object whose value is `value`: its `timeouts`
/// block's, or the default.
///
/// # Errors
///
/// When the block's duration for `operation` is not a duration, at its path.
pub(crate) fn limit(
    value: &Value,
    operation: &str,
    defaults: &Defaults,
) -> Result<Option<Duration>> {
    let written = value
        .get("timeouts")
        .and_then(|t| t.get(operation))
        .and_then(Value::as_str);
    match written {
        Some(text) => parse_duration(text).map(Some).map_err(|why| {
            Error::new("Invalid timeout", why)
                .at(Path::root().attribute("timeouts").attribute(operation))
        }),
        None => Ok(defaults.of(operation)),
    }
}

/// The configuration's `timeouts` block checked: each known duration must parse.
pub(crate) fn validate(config: &Value) -> Vec<Diagnostic> {
    let Some(block) = config.get("timeouts").and_then(Value::as_object) else {
        return Vec::new();
    };
    block
        .iter()
        .filter_map(|(operation, v)| {
            let why = parse_duration(v.as_str()?).err()?;
            Some(
                Diagnostic::error("Invalid timeout", why)
                    .at(Path::root().attribute("timeouts").attribute(operation)),
            )
        })
        .collect()
}

/// Runs `handler` within `limit`: past it, `token` is cancelled and an error naming
/// `operation` of `type_name` and the limit goes into `diagnostics`, and the handler is
/// still awaited for what it returns.
pub(crate) async fn within<T>(
    limit: Option<Duration>,
    token: CancellationToken,
    diagnostics: Arc<Mutex<Vec<Diagnostic>>>,
    type_name: String,
    operation: &'static str,
    handler: impl Future<Output = Result<T>>,
) -> Result<T> {
    let Some(limit) = limit else {
        return handler.await;
    };
    tokio::pin!(handler);
    tokio::select! {
        outcome = &mut handler => outcome,
        () = tokio::time::sleep(limit) => {
            token.cancel();
            let overrun = Diagnostic::error(
                format!("Timeout in {operation} of {type_name}"),
                format!("{operation} of {type_name} did not finish within its time limit of {} (the resource's `timeouts` block, or its default); the provider asked it to stop", show(limit)),
            );
            if let Ok(mut d) = diagnostics.lock() {
                d.push(overrun);
            }
            handler.await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_in_terraforms_syntax() {
        let ok = |text: &str, expected: Duration| {
            assert_eq!(parse_duration(text), Ok(expected), "{text}")
        };
        ok("30s", Duration::from_secs(30));
        ok("10m", Duration::from_secs(600));
        ok("1h30m", Duration::from_secs(5400));
        ok("1h0m0s", Duration::from_secs(3600));
        ok("0", Duration::ZERO);
        ok("+2h", Duration::from_secs(7200));
        ok("1.5h", Duration::from_secs(5400));
        ok(".5s", Duration::from_millis(500));
        ok("250ms", Duration::from_millis(250));
        ok("3us", Duration::from_micros(3));
        ok("3µs", Duration::from_micros(3));
        ok("7ns", Duration::from_nanos(7));
        ok("1m1.000000001s", Duration::new(61, 1));
        for bad in [
            "",
            "10",
            "1d",
            "h",
            "1.2.3s",
            "10 m",
            "m10",
            "1h-5m",
            ".s",
            "99999999999999999999999h",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad:?}");
        }
        assert!(parse_duration("-1s").unwrap_err().contains("negative"));
    }

    #[test]
    fn durations_are_shown_as_users_write_them() {
        assert_eq!(show(Duration::from_secs(5400)), "1h30m0s");
        assert_eq!(show(Duration::from_secs(600)), "10m0s");
        assert_eq!(show(Duration::from_millis(1500)), "1.500s");
        assert_eq!(show(Duration::from_secs(30)), "30s");
    }
}
