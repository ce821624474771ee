//! Logging that Terraform shows: `tracing` events written as go-hclog JSON lines
//! (`@level`, `@message`, `@timestamp`, `@module`, then the fields) on stderr, which
//! go-plugin's host reads and logs with their level and fields, so
//! `TF_LOG=DEBUG` or `TF_LOG_PROVIDER=TRACE` shows them in Terraform's log.
//!
//! [`Server::serve`](crate::Server::serve) installs the [`Hclog`] subscriber (when no
//! other is installed), at the level of `TF_LOG_PROVIDER`, else `TF_LOG` (nothing when
//! neither is set). Each handler runs in a span with the request's context, so its
//! events carry `tf_type_name` (the resource or data source type, or the function) and
//! `tf_operation` (`create`, `read`, `update`, `delete`, `import`, `upgrade`, `call`,
//! `configure`), as terraform-plugin-log's carry theirs:
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use ctywire_provider::log::Hclog;
//!
//! let lines = Arc::new(Mutex::new(Vec::new()));
//! let subscriber = Hclog::new(tracing::Level::DEBUG).writer(lines.clone());
//! tracing::subscriber::with_default(subscriber, || {
//!     let span = tracing::info_span!("call", tf_resource_type = "example_thing");
//!     let _entered = span.enter();
//!     tracing::debug!(attempt = 2, "creating the thing");
//! });
//! let written = String::from_utf8(lines.lock().unwrap().clone()).unwrap();
//! assert!(written.contains(r#""@level":"debug","@message":"creating the thing""#));
//! assert!(written.contains(r#""attempt":2"#));
//! assert!(written.contains(r#""tf_resource_type":"example_thing""#));
//! ```

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value as Json};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

/// A span's fields and how many handles keep it.
struct SpanData {
    parent: Option<u64>,
    fields: Vec<(String, Json)>,
    refs: usize,
}

type Sink = Arc<Mutex<dyn Write + Send>>;

/// A `tracing` subscriber writing go-hclog JSON lines (see the [module](self)).
pub struct Hclog {
    level: Level,
    module: String,
    sink: Option<Sink>,
    spans: Mutex<HashMap<u64, SpanData>>,
    next: AtomicU64,
}

thread_local! {
    /// The spans entered on this thread, innermost last.
    static ENTERED: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

impl Hclog {
    /// Events at `level` and above, to stderr, with `@module` `provider`.
    pub fn new(level: Level) -> Hclog {
        Hclog {
            level,
            module: "provider".to_owned(),
            sink: None,
            spans: Mutex::default(),
            next: AtomicU64::new(1),
        }
    }

    /// The level Terraform asks for: `TF_LOG_PROVIDER`, else `TF_LOG` (`TRACE`,
    /// `DEBUG`, `INFO`, `WARN`, `ERROR`; `JSON` is `TRACE`); `None` when neither is
    /// set (or `OFF`).
    pub fn level_from_env() -> Option<Level> {
        let value = std::env::var("TF_LOG_PROVIDER")
            .ok()
            .filter(|v| !v.is_empty())
            .or_else(|| std::env::var("TF_LOG").ok())?;
        match value.to_ascii_uppercase().as_str() {
            "TRACE" | "JSON" => Some(Level::TRACE),
            "DEBUG" => Some(Level::DEBUG),
            "INFO" => Some(Level::INFO),
            "WARN" => Some(Level::WARN),
            "ERROR" => Some(Level::ERROR),
            _ => None,
        }
    }

    /// Writes to `sink` instead of stderr (for tests).
    #[must_use]
    pub fn writer(mut self, sink: Arc<Mutex<impl Write + Send + 'static>>) -> Hclog {
        self.sink = Some(sink);
        self
    }

    /// The `@module` of every line (`provider` by default; go-plugin's host names the
    /// plugin itself).
    #[must_use]
    pub fn module(mut self, module: impl Into<String>) -> Hclog {
        self.module = module.into();
        self
    }

    /// Installs `self` as the process's subscriber; false when one is installed
    /// already.
    pub fn install(self) -> bool {
        tracing::subscriber::set_global_default(self).is_ok()
    }

    fn line(&self, event: &Event<'_>) -> Vec<u8> {
        let mut fields = Map::new();
        let metadata = event.metadata();
        let level = match *metadata.level() {
            Level::TRACE => "trace",
            Level::DEBUG => "debug",
            Level::INFO => "info",
            Level::WARN => "warn",
            Level::ERROR => "error",
        };
        let mut visitor = Fields(Vec::new());
        event.record(&mut visitor);
        let mut message = String::new();
        let mut own = Vec::new();
        for (name, value) in visitor.0 {
            if name == "message" {
                message = match value {
                    Json::String(s) => s,
                    other => other.to_string(),
                };
            } else {
                own.push((name, value));
            }
        }
        fields.insert("@level".into(), Json::from(level));
        fields.insert("@message".into(), Json::from(message));
        fields.insert("@module".into(), Json::from(self.module.as_str()));
        fields.insert(
            "@timestamp".into(),
            Json::from(timestamp(SystemTime::now())),
        );
        // The spans' fields, outermost first, so the event's own fields win.
        let current = match event.parent() {
            Some(id) => Some(id.into_u64()),
            None if event.is_contextual() => ENTERED.with(|e| e.borrow().last().copied()),
            None => None,
        };
        if let Ok(spans) = self.spans.lock() {
            let mut chain = Vec::new();
            let mut at = current;
            while let Some(id) = at {
                let Some(span) = spans.get(&id) else { break };
                chain.push(&span.fields);
                at = span.parent;
            }
            for span_fields in chain.into_iter().rev() {
                for (name, value) in span_fields {
                    fields.insert(name.clone(), value.clone());
                }
            }
        }
        for (name, value) in own {
            fields.insert(name, value);
        }
        let mut line = serde_json::to_vec(&Json::Object(fields)).unwrap_or_default();
        line.push(b'\n');
        line
    }
}

impl Subscriber for Hclog {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        *metadata.level() <= self.level
    }

    fn max_level_hint(&self) -> Option<tracing::level_filters::LevelFilter> {
        Some(tracing::level_filters::LevelFilter::from_level(self.level))
    }

    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let parent = match span.parent() {
            Some(p) => Some(p.into_u64()),
            None if span.is_contextual() => ENTERED.with(|e| e.borrow().last().copied()),
            None => None,
        };
        let mut visitor = Fields(Vec::new());
        span.record(&mut visitor);
        if let Ok(mut spans) = self.spans.lock() {
            spans.insert(
                id,
                SpanData {
                    parent,
                    fields: visitor.0,
                    refs: 1,
                },
            );
        }
        Id::from_u64(id)
    }

    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut visitor = Fields(Vec::new());
        values.record(&mut visitor);
        if let Ok(mut spans) = self.spans.lock()
            && let Some(data) = spans.get_mut(&span.into_u64())
        {
            data.fields.extend(visitor.0);
        }
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let line = self.line(event);
        // One write per line, so lines from several threads do not interleave.
        match &self.sink {
            Some(sink) => {
                if let Ok(mut sink) = sink.lock() {
                    let _ = sink.write_all(&line);
                }
            }
            None => {
                let _ = std::io::stderr().lock().write_all(&line);
            }
        }
    }

    fn enter(&self, span: &Id) {
        ENTERED.with(|e| e.borrow_mut().push(span.into_u64()));
    }

    fn exit(&self, span: &Id) {
        ENTERED.with(|e| {
            let mut entered = e.borrow_mut();
            if let Some(i) = entered.iter().rposition(|s| *s == span.into_u64()) {
                entered.remove(i);
            }
        });
    }

    fn clone_span(&self, id: &Id) -> Id {
        if let Ok(mut spans) = self.spans.lock()
            && let Some(data) = spans.get_mut(&id.into_u64())
        {
            data.refs += 1;
        }
        id.clone()
    }

    fn try_close(&self, id: Id) -> bool {
        let Ok(mut spans) = self.spans.lock() else {
            return false;
        };
        let key = id.into_u64();
        let closed = match spans.get_mut(&key) {
            Some(data) => {
                data.refs = data.refs.saturating_sub(1);
                data.refs == 0
            }
            None => false,
        };
        if closed {
            spans.remove(&key);
        }
        closed
    }
}

/// The fields of an event or span, as JSON.
struct Fields(Vec<(String, Json)>);

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0
            .push((field.name().to_owned(), Json::from(format!("{value:?}"))));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.push((field.name().to_owned(), Json::from(value)));
    }
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.0.push((field.name().to_owned(), Json::from(value)));
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.0.push((field.name().to_owned(), Json::from(value)));
    }
    fn record_f64(&mut self, field: &Field, value: f64) {
        self.0.push((field.name().to_owned(), Json::from(value)));
    }
    fn record_bool(&mut self, field: &Field, value: bool) {
        self.0.push((field.name().to_owned(), Json::from(value)));
    }
}

/// go-hclog's JSON time: `2006-01-02T15:04:05.000000Z` (UTC, microseconds).
fn timestamp(now: SystemTime) -> String {
    let since = now.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (days, of_day) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = i64::try_from(days).unwrap_or(0) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:06}Z",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60,
        since.subsec_micros()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_as_go_hclog_writes_them() {
        let at = |secs: u64, micros: u64| {
            timestamp(UNIX_EPOCH + Duration::from_secs(secs) + Duration::from_micros(micros))
        };
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000000Z");
        // 2000-02-29 (a leap day) 12:34:56.789012.
        assert_eq!(at(951_827_696, 789_012), "2000-02-29T12:34:56.789012Z");
        assert_eq!(at(1_798_761_599, 0), "2026-12-31T23:59:59.000000Z");
    }

    #[test]
    fn events_carry_their_spans_fields_and_only_their_level_and_above() {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let subscriber = Hclog::new(Level::INFO).writer(Arc::clone(&lines));
        tracing::subscriber::with_default(subscriber, || {
            let outer = tracing::info_span!("rpc", tf_rpc = "ApplyResourceChange", n = 1);
            let _o = outer.enter();
            let inner = tracing::info_span!("handler", tf_resource_type = "x_y", n = 2);
            let _i = inner.enter();
            tracing::info!(size = 3u64, ok = true, "made \"it\"");
            tracing::debug!("not written");
        });
        let written = String::from_utf8(lines.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = written.lines().collect();
        assert_eq!(lines.len(), 1, "{written}");
        let line: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
        assert_eq!(line["@level"], "info");
        assert_eq!(line["@message"], "made \"it\"");
        assert_eq!(line["@module"], "provider");
        assert_eq!(line["tf_rpc"], "ApplyResourceChange");
        assert_eq!(line["tf_resource_type"], "x_y");
        assert_eq!(line["n"], 2); // the inner span's
        assert_eq!(line["size"], 3);
        assert_eq!(line["ok"], true);
        assert!(line["@timestamp"].as_str().unwrap().ends_with('Z'));
    }
}
