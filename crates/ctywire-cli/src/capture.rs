//! `ctywire capture DIR`: the payload files terraform-plugin-go writes with
//! `TF_LOG_SDK_PROTO_DATA_DIR`, shown call by call.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use ctywire::capture::{Call, Capture, Data, Payload, Resolved, Resolver, Run, Status, Subject};
use ctywire::render;
use ctywire::render::diff::{ChangeAction, DiffOptions};
use ctywire::schema::{Client, ProviderSchemas, SchemaKind};
use ctywire::{Type, Value};

use crate::plan_rules::render_change;
use crate::{describe, write_stdout, Failure, Rendering};

/// The arguments of `capture`.
#[derive(Args)]
pub struct CaptureArgs {
    /// The capture directory (the one `TF_LOG_SDK_PROTO_DATA_DIR` named).
    dir: PathBuf,
    /// The provider's schemas (`terraform providers schema -json`): each call's values
    /// are typed by the one schema whose implied type decodes them all. Without it,
    /// values are decoded with the types their bytes imply.
    #[arg(long, value_name = "FILE")]
    schema: Option<PathBuf>,
    /// The client whose rules for plans and applies the grouping checks the values by
    /// (with --schema), and whose program its reasons name: terraform@1.15 (the newest
    /// stable release), terraform@1.16 or opentofu@1.12.
    #[arg(long, value_name = "CLIENT", default_value = "terraform@1.15")]
    client: Client,
    /// The run had one configuration of one provider (no aliases, no other Go provider
    /// writing to the directory), so each ConfigureProvider request starts the process
    /// of Terraform's next walk and no response after it answers a request before it.
    /// The files cannot prove this; with it, more calls are paired. Needs --schema.
    #[arg(long, requires = "schema")]
    one_configuration: bool,
    /// Show each call's change instead of its files, as `ctywire diff` renders one:
    /// PlanResourceChange's prior state to its planned state, ApplyResourceChange's
    /// planned state to its new state, ReadResource's current state to its new state.
    /// Sensitive values are hidden. Other calls, and calls that lack one of the two
    /// files, say so in one line.
    #[arg(long, conflicts_with = "show_sensitive")]
    diff: bool,
    /// Show only the calls about this resource type, data source (or other schema) by
    /// name, e.g. `cloud_instance`; needs --schema.
    #[arg(long, value_name = "TYPE", requires = "schema")]
    resource: Option<String>,
    /// Show only the calls of this RPC, e.g. `PlanResourceChange`.
    #[arg(long, value_name = "NAME")]
    rpc: Option<String>,
    /// Under each call, say why its files were grouped so: how its request and its
    /// response were found, and which other files competed for them.
    #[arg(long)]
    explain: bool,
    /// `text` shows each call's values; `json` gives the grouping alone, for
    /// programs: each call's RPC, status, reason, files, candidates and explanation,
    /// the bad files, and the summary.
    #[arg(long, value_enum, default_value_t = CaptureFormat::Text, conflicts_with = "diff")]
    format: CaptureFormat,
    #[command(flatten)]
    rendering: Rendering,
}

/// What `capture` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CaptureFormat {
    /// Each call's files and values, for people.
    Text,
    /// The grouping as one JSON document.
    Json,
}

/// Runs `capture`: every call shown (or those the filters keep), with how sure the
/// grouping is of it, then a summary line; every bad file reported on standard error
/// (exit status 1 when there is one), none stopping the rest.
pub fn run(args: &CaptureArgs) -> Result<(), Failure> {
    let dir = args.dir.display().to_string();
    let schemas = match &args.schema {
        Some(path) => {
            let in_file =
                |e: &dyn std::fmt::Display| Failure::input(format!("{}: {e}", path.display()));
            let text = std::fs::read(path).map_err(|e| in_file(&e))?;
            Some(ProviderSchemas::from_json(&text).map_err(|e| in_file(&e))?)
        }
        None => None,
    };
    let capture = match &schemas {
        Some(schemas) => {
            let run = if args.one_configuration {
                Run::of_one_configuration()
            } else {
                Run::default()
            };
            Capture::read_dir_for_run(&args.dir, schemas, args.client, run)
        }
        None => Capture::read_dir(&args.dir),
    }
    .map_err(|e| Failure::input(format!("{dir}: {e}")))?;
    if capture.calls.is_empty() && capture.problems.is_empty() {
        return Err(Failure::input(format!(
            "{dir}: no files: a provider writes its captures there when \
             TF_LOG_SDK_PROTO_DATA_DIR names that directory in its environment"
        )));
    }
    if schemas.is_none() {
        say!("note: no --schema given; values decoded with the types their bytes imply");
    }
    // Where the schemas mark values sensitive, a call that no one schema types could
    // hold them: its values, typed by their bytes, are not shown (--show-sensitive
    // shows them).
    let withhold = !args.rendering.show_sensitive
        && schemas.as_ref().is_some_and(|schemas| {
            schemas.providers.values().any(|p| {
                p.provider.block.contains_sensitive()
                    || SchemaKind::ALL
                        .into_iter()
                        .flat_map(|kind| kind.schemas(p).values())
                        .any(|s| s.block.contains_sensitive())
            })
        });
    let mut resolver = schemas
        .as_ref()
        .map(|schemas| Resolver::for_client(schemas, args.client));
    let hint = match schemas {
        Some(_) => "",
        None => " (the bytes imply no type; --schema would give one)",
    };
    let mut errors: Vec<String> = capture
        .problems
        .iter()
        .map(|p| format!("{dir}/{}: {}", p.file, p.error))
        .collect();
    if args.format == CaptureFormat::Json {
        return json(args, &dir, &capture, resolver.as_mut());
    }
    let mut out = String::new();
    let mut shown_calls = 0;
    for call in &capture.calls {
        if args.rpc.as_ref().is_some_and(|rpc| *rpc != call.rpc) {
            continue;
        }
        let resolved = resolver.as_mut().map(|r| r.resolve(call));
        let subject = match &resolved {
            Some(Resolved::Found(subject)) => Some(*subject),
            _ => None,
        };
        if let Some(resource) = &args.resource {
            if subject.as_ref().and_then(subject_name) != Some(resource.as_str()) {
                continue;
            }
        }
        if shown_calls > 0 {
            out.push('\n');
        }
        shown_calls += 1;
        out.push_str(&format!("# {}: {}\n", call.rpc, heading(resolved.as_ref())));
        out.push_str(&status(&call.status));
        if args.explain {
            for line in &call.explain {
                out.push_str(&format!("- why: {line}\n"));
            }
        }
        // The values of a call that no one schema types, where they could hold values
        // the schemas mark sensitive, are not shown (a file that does not decode is
        // still reported).
        let withheld = withhold && subject.is_none();
        if args.diff && withheld && call.change_fields().is_some() {
            out.push_str(WITHHELD);
            continue;
        }
        if args.diff {
            let options = DiffOptions::new()
                .color(args.rendering.color.enabled())
                .show_refinements(args.rendering.show_refinements);
            match change(call, subject.as_ref(), &options, hint) {
                Ok(text) => out.push_str(&text),
                Err(e) => {
                    out.push_str("(not diffed: see the error)\n");
                    errors.push(format!("{dir}/{e}"));
                }
            }
            continue;
        }
        for payload in &call.payloads {
            let name = &payload.name;
            out.push_str(&format!(
                "## {} {} ({})\n",
                name.message, name.field, payload.file
            ));
            match shown(payload, subject.as_ref(), &args.rendering, hint, withheld) {
                Ok(text) => out.push_str(&text),
                Err(e) => {
                    out.push_str("(not decoded: see the error)");
                    errors.push(format!("{dir}/{}: {e}", payload.file));
                }
            }
            out.push('\n');
        }
    }
    if shown_calls > 0 {
        out.push('\n');
    }
    let filtered = args.rpc.is_some() || args.resource.is_some();
    out.push_str(&format!(
        "{dir}: {}{}\n",
        capture.summary(),
        if filtered {
            format!(" ({shown_calls} shown)")
        } else {
            String::new()
        }
    ));
    write_stdout(out.as_bytes())?;
    for e in &errors {
        say!("error: {e}");
    }
    match errors.len() {
        0 => Ok(()),
        1 => Err(Failure::input("1 file could not be read")),
        n => Err(Failure::input(format!("{n} files could not be read"))),
    }
}

/// `--format json`: the calls the filters keep, each with its status, reason, files,
/// candidates and explanation; the bad files; the summary. Exit status 1 when a file
/// is bad, as for text.
fn json(
    args: &CaptureArgs,
    dir: &str,
    capture: &Capture,
    mut resolver: Option<&mut Resolver<'_>>,
) -> Result<(), Failure> {
    use serde_json::json;
    let mut calls = Vec::new();
    for call in &capture.calls {
        if args.rpc.as_ref().is_some_and(|rpc| *rpc != call.rpc) {
            continue;
        }
        let subject = match resolver.as_deref_mut().map(|r| r.resolve(call)) {
            Some(Resolved::Found(subject)) => Some(subject),
            _ => None,
        };
        if let Some(resource) = &args.resource {
            if subject.as_ref().and_then(subject_name) != Some(resource.as_str()) {
                continue;
            }
        }
        let (status, reason, missing, candidates) = match &call.status {
            Status::Complete => ("complete", None, Vec::new(), Vec::new()),
            Status::Ambiguous { candidates } => ("ambiguous", None, Vec::new(), candidates.clone()),
            Status::Incomplete { missing, reason } => (
                "incomplete",
                Some(reason.clone()),
                missing.clone(),
                Vec::new(),
            ),
            Status::PossiblyMixed { reason } => (
                "possibly mixed",
                Some(reason.clone()),
                Vec::new(),
                Vec::new(),
            ),
            _ => (
                "unknown",
                Some(call.status.to_string()),
                Vec::new(),
                Vec::new(),
            ),
        };
        calls.push(json!({
            "rpc": call.rpc,
            "subject": subject.map(|s| s.to_string()),
            "status": status,
            "reason": reason,
            "missing": missing,
            "candidates": candidates,
            "files": call.payloads.iter().map(|p| p.file.clone()).collect::<Vec<_>>(),
            "explain": call.explain,
        }));
    }
    let summary = capture.summary();
    let problems: Vec<serde_json::Value> = capture
        .problems
        .iter()
        .map(|p| json!({"file": p.file, "error": p.error.to_string()}))
        .collect();
    let document = json!({
        "directory": dir,
        "calls": calls,
        "problems": problems,
        "summary": {
            "calls": summary.calls,
            "complete": summary.complete,
            "ambiguous": summary.ambiguous,
            "incomplete": summary.incomplete,
            "possibly_mixed": summary.possibly_mixed,
            "text": summary.to_string(),
        },
    });
    let mut text = serde_json::to_string_pretty(&document)
        .map_err(|e| Failure::input(format!("{dir}: {e}")))?;
    text.push('\n');
    write_stdout(text.as_bytes())?;
    for p in &capture.problems {
        eprintln!("error: {dir}/{}: {}", p.file, p.error);
    }
    match capture.problems.len() {
        0 => Ok(()),
        1 => Err(Failure::input("1 file could not be read")),
        n => Err(Failure::input(format!("{n} files could not be read"))),
    }
}

/// The name of a subject `--resource` matches: a resource type's, data source's (any
/// schema's), identity's or function's name.
fn subject_name<'s>(subject: &Subject<'s>) -> Option<&'s str> {
    match subject {
        Subject::Schema { name, .. }
        | Subject::Identity { name, .. }
        | Subject::Function { name, .. } => Some(name),
        _ => None,
    }
}

/// The lines under a call's heading saying how sure its grouping is: none for a
/// complete call.
fn status(status: &Status) -> String {
    match status {
        Status::Complete => String::new(),
        Status::Ambiguous { candidates } => {
            let n = candidates.len();
            let mut text = format!(
                "(ambiguous: these files are one message of a call; {n} candidate{} could \
                 complete it, none for sure)\n",
                if n == 1 { "" } else { "s" }
            );
            for (i, files) in candidates.iter().enumerate() {
                text.push_str(&format!("- candidate {}: {}\n", i + 1, files.join(" ")));
            }
            text
        }
        _ => format!("({status})\n"),
    }
}

/// What is shown in place of the values of a call that no one schema types, where the
/// schemas mark values sensitive.
const WITHHELD: &str = "(values not shown: no one schema types this call, and the schemas \
    mark values sensitive; --show-sensitive shows them)\n";

/// What a call's heading says of its type.
fn heading(resolved: Option<&Resolved<'_>>) -> String {
    match resolved {
        None => "values typed by their bytes".to_owned(),
        Some(Resolved::Found(subject @ Subject::Provider { .. })) => subject.to_string(),
        Some(Resolved::Found(subject)) => format!("{subject} ({})", subject.provider()),
        Some(Resolved::Ambiguous(subjects)) => {
            let names: Vec<String> = subjects.iter().map(ToString::to_string).collect();
            format!(
                "several types fit ({}); values typed by their bytes",
                names.join(", ")
            )
        }
        Some(Resolved::OnlyNulls) => "only nulls, which fit every type: no type is told".to_owned(),
        Some(Resolved::NotFound(why)) => format!("{why}; values typed by their bytes"),
        Some(Resolved::Untyped) => {
            "no schema types these values; values typed by their bytes".to_owned()
        }
    }
}

/// The change a call makes ([`Call::change_fields`]) under a heading naming its two
/// files, rendered as `diff` renders a change; one line saying why when the call has
/// none. An error names the file it is in.
fn change(
    call: &Call,
    subject: Option<&Subject<'_>>,
    options: &DiffOptions,
    hint: &str,
) -> Result<String, String> {
    let Some(fields) = call.change_fields() else {
        return Ok(format!(
            "(no change to show: {} changes no state)\n",
            call.rpc
        ));
    };
    let [before, after] = fields.map(|(message, field)| {
        call.payload(message, field).ok_or(format!(
            "(no change to show: the call has no {message} {field} file)\n"
        ))
    });
    let (before, after) = match (before, after) {
        (Ok(before), Ok(after)) => (before, after),
        (Err(missing), _) | (_, Err(missing)) => return Ok(missing),
    };
    let in_file = |p: &Payload, e: &ctywire::Error| format!("{}: {}", p.file, describe(e));
    let ty = match subject.and_then(|s| s.type_of(after)) {
        Some(ty) => ty,
        None => {
            // A null value implies `dynamic`: the other value's bytes give the type.
            let implied = |p: &Payload| {
                p.implied_type()
                    .map_err(|e| format!("{}{}", in_file(p, &e), hint_for(p, hint)))
            };
            match (implied(before)?, implied(after)?) {
                (Type::Dynamic, ty) | (ty, Type::Dynamic) => ty,
                (a, b) if a == b => a,
                _ => {
                    return Ok(
                        "(no change to show: the two values' bytes imply different types; --schema would give one)\n"
                            .to_owned(),
                    )
                }
            }
        }
    };
    let [before_value, after_value] =
        [before, after].map(|p| p.decode(&ty).map_err(|e| in_file(p, &e)));
    let (before_value, after_value) = (before_value?, after_value?);
    let heading = format!(
        "## {} {} ({}) -> {} {} ({})\n",
        before.name.message,
        before.name.field,
        before.file,
        after.name.message,
        after.name.field,
        after.file
    );
    let body = if ChangeAction::between(&before_value, &after_value, false) == ChangeAction::NoOp {
        "No changes.".to_owned()
    } else {
        let block = subject.and_then(Subject::block_schema).map(|s| &s.block);
        render_change(&before_value, &after_value, &ty, block, options)
    };
    Ok(format!("{heading}{body}\n"))
}

/// One file of a call, rendered: a value (typed by the call's subject, else by its
/// bytes; [`WITHHELD`] in its place where `withheld` and it is not null), or private
/// data. `hint` follows an error of a value its bytes do not type.
fn shown(
    payload: &Payload,
    subject: Option<&Subject<'_>>,
    rendering: &Rendering,
    hint: &str,
    withheld: bool,
) -> Result<String, String> {
    if !payload.is_value() {
        return Ok(private(&payload.data));
    }
    let ty = match subject.and_then(|s| s.type_of(payload)) {
        Some(ty) => ty,
        None => payload
            .implied_type()
            .map_err(|e| format!("{}{}", describe(&e), hint_for(payload, hint)))?,
    };
    let value = payload.decode(&ty).map_err(|e| describe(&e))?;
    if withheld && !value.is_null() {
        return Ok(WITHHELD.trim_end().to_owned());
    }
    let block = subject
        .and_then(Subject::block_schema)
        .filter(|_| !matches!(value, Value::Null));
    let options = rendering.options().sensitive(
        block
            .map(|s| s.block.sensitive_paths(&value))
            .unwrap_or_default(),
    );
    Ok(match block {
        Some(schema) => render::render_block(&value, &schema.block, &options),
        None => render::render(&value, &ty, &options),
    })
}

/// Private data: its size, and its text when it is printable UTF-8 (SDKv2 and the
/// framework write JSON), else its bytes in hex.
fn private(data: &Data) -> String {
    let bytes = match data {
        Data::Private(bytes) => bytes,
        _ => return "(no private data)".to_owned(),
    };
    let shown = match std::str::from_utf8(bytes) {
        Ok(text) if !text.chars().any(char::is_control) => text.to_owned(),
        _ => bytes.iter().map(|b| format!("{b:02x}")).collect(),
    };
    format!("(private data, {} bytes) {shown}", bytes.len())
}

/// The hint after an error of a value its bytes do not type: none for a torn or cut-short
/// file (no schema types two calls' bytes; its call's reason says what the file holds).
fn hint_for<'a>(payload: &Payload, hint: &'a str) -> &'a str {
    if payload.torn().is_some() {
        ""
    } else {
        hint
    }
}
