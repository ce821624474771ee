//! Diffs as text, as `terraform plan` prints them (Terraform's
//! `jsonformat/computed/renderers`).

use crate::text::go_quote;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::differ::{self, BlockGroup, Blocks, Diff, Primitive, Renderer};
use super::model::{Change, J};
use super::ChangeAction::{self, *};

/// Terraform's `RenderHumanOpts`.
#[derive(Clone, Copy, Default)]
pub(super) struct Opts {
    pub(super) color: bool,
    pub(super) override_null_suffix: bool,
    pub(super) force_forces_replacement: bool,
    pub(super) forbid_forces_replacement: bool,
    pub(super) show_unchanged_children: bool,
    pub(super) hide_diff_action_symbols: bool,
    /// Show what an unknown's refinements say (`(known after apply, not null)`); off,
    /// every unknown reads `(known after apply)` as Terraform prints it.
    pub(super) show_refinements: bool,
}

impl Opts {
    /// A copy for children: the forces-replacement overrides do not cascade.
    fn child(self) -> Opts {
        Opts {
            force_forces_replacement: false,
            forbid_forces_replacement: false,
            ..self
        }
    }

    /// Terraform's colour markup (`[red]`, `[reset]`, ...) as ANSI codes, or removed.
    pub(super) fn color(self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(open) = rest.find('[') {
            out.push_str(&rest[..open]);
            let after = &rest[open..];
            let code = after.find(']').and_then(|close| {
                let name = &after[1..close];
                ansi(name).map(|code| (code, close))
            });
            match code {
                Some((code, close)) => {
                    if self.color {
                        let _ = write!(out, "\x1b[{code}m");
                    }
                    rest = &after[close + 1..];
                }
                None => {
                    out.push('[');
                    rest = &after[1..];
                }
            }
        }
        out.push_str(rest);
        out
    }
}

/// The ANSI code of a colour name of Terraform's markup.
fn ansi(name: &str) -> Option<&'static str> {
    Some(match name {
        "reset" => "0",
        "bold" => "1",
        "red" => "31",
        "green" => "32",
        "yellow" => "33",
        "cyan" => "36",
        "dark_gray" => "90",
        _ => return None,
    })
}

/// Terraform's `DiffActionSymbol`, in markup.
pub(super) fn action_symbol(action: ChangeAction) -> &'static str {
    match action {
        DeleteThenCreate => "[red]-[reset]/[green]+[reset]",
        CreateThenDelete => "[green]+[reset]/[red]-[reset]",
        Create => "  [green]+[reset]",
        Delete => "  [red]-[reset]",
        Forget => " [red].[reset]",
        CreateThenForget => " [green]+[reset]/[red].[reset]",
        Read => " [cyan]<=[reset]",
        Update => "  [yellow]~[reset]",
        NoOp => "   ",
    }
}

fn symbol(action: ChangeAction, opts: Opts) -> String {
    if opts.hide_diff_action_symbols {
        return String::new();
    }
    format!("{} ", opts.color(action_symbol(action)))
}

fn null_suffix(action: ChangeAction, opts: Opts) -> String {
    if !opts.override_null_suffix && action == Delete {
        opts.color(" [dark_gray]-> null[reset]")
    } else {
        String::new()
    }
}

fn forces_replacement(replace: bool, opts: Opts) -> String {
    if (replace || opts.force_forces_replacement) && !opts.forbid_forces_replacement {
        opts.color(" [red]# forces replacement[reset]")
    } else {
        String::new()
    }
}

fn indent(n: usize) -> String {
    " ".repeat(4 * n)
}

fn unchanged(keyword: &str, count: usize, opts: Opts) -> String {
    let s = if count == 1 { "" } else { "s" };
    opts.color(&format!(
        "[dark_gray]# ({count} unchanged {keyword}{s} hidden)[reset]"
    ))
}

/// An attribute name as it is, or quoted when it is no HCL identifier.
pub(super) fn attribute_name(name: &str) -> String {
    if crate::text::is_identifier(name) {
        name.to_owned()
    } else {
        go_quote(name)
    }
}

/// `key` padded as Go's `%-*s` pads it: to `width` counted in bytes by the caller, in
/// characters by the padding.
pub(super) fn padded(key: &str, width: usize) -> String {
    let n = key.chars().count();
    format!("{key}{}", " ".repeat(width.saturating_sub(n)))
}

/// `(known after apply)`, with what an unknown's refinements say
/// (`(known after apply, not null)`).
fn known_after_apply(refinements: Option<&str>) -> String {
    match refinements {
        Some(r) => format!("(known after apply, {r})"),
        None => "(known after apply)".to_owned(),
    }
}

/// Writes a diff's warnings, one line each at `level`.
fn write_warnings(out: &mut String, diff: &Diff<'_>, level: usize, opts: Opts) {
    for w in diff.warnings(level, opts) {
        let _ = writeln!(out, "{}{w}", indent(level));
    }
}

/// Writes one line at `level`: the action's symbol, then `text`.
fn write_line(out: &mut String, level: usize, action: ChangeAction, opts: Opts, text: &str) {
    let _ = writeln!(out, "{}{}{text}", indent(level), symbol(action, opts));
}

/// Writes `# (N unchanged KEYWORDs hidden)` at `level`, when there are any.
fn write_unchanged(out: &mut String, keyword: &str, count: usize, level: usize, opts: Opts) {
    if count > 0 {
        write_line(out, level, NoOp, opts, &unchanged(keyword, count, opts));
    }
}

/// The attributes Terraform always shows, changed or not.
fn important(name: &str) -> bool {
    matches!(name, "id" | "name" | "tags")
}

impl Diff<'_> {
    /// Terraform's `RenderHuman`: the first line has no indent; later lines are indented
    /// by `level`.
    pub(super) fn render(&self, level: usize, opts: Opts) -> String {
        match &self.renderer {
            Renderer::Primitive {
                before,
                after,
                kind,
            } => self.primitive(before, after, *kind, level, opts),
            Renderer::Object { attributes, nested } => {
                self.object(attributes, *nested, level, opts)
            }
            Renderer::Map { elements, nested } => self.map(elements, *nested, level, opts),
            Renderer::List {
                elements,
                display_context,
            } => self.list(elements, *display_context, level, opts),
            Renderer::Set { elements, nested } => self.set(elements, *nested, level, opts),
            Renderer::Block { attributes, blocks } => self.block(attributes, blocks, level, opts),
            Renderer::Sensitive { .. } => format!(
                "(sensitive value){}{}",
                null_suffix(self.action, opts),
                forces_replacement(self.replace, opts)
            ),
            Renderer::SensitiveBlock { .. } => {
                let prefix = format!("{}{}", indent(level), symbol(NoOp, opts));
                format!(
                    "{{{}\n{prefix}  # At least one attribute in this block is (or was) sensitive,\n{prefix}  # so its contents will not be displayed.\n{prefix}}}",
                    forces_replacement(self.replace, opts)
                )
            }
            Renderer::Unknown {
                before,
                refinements,
            } => match before {
                Some(before) if self.action != Create => {
                    let mut before_opts = opts.child();
                    before_opts.override_null_suffix = true;
                    if self.replace {
                        before_opts.forbid_forces_replacement = true;
                    }
                    format!(
                        "{} -> {}{}",
                        before.render(level, before_opts),
                        known_after_apply(refinements.filter(|_| opts.show_refinements)),
                        forces_replacement(self.replace, opts)
                    )
                }
                _ => format!(
                    "{}{}",
                    known_after_apply(refinements.filter(|_| opts.show_refinements)),
                    forces_replacement(self.replace, opts)
                ),
            },
            Renderer::TypeChange { before, after } => {
                let mut opts = opts;
                opts.override_null_suffix = true;
                format!(
                    "{} {} {}",
                    before.render(level, opts),
                    opts.color("[yellow]->[reset]"),
                    after.render(level, opts)
                )
            }
            Renderer::WriteOnly { sensitive } => format!(
                "{}{}{}",
                if *sensitive {
                    "(sensitive, write-only attribute)"
                } else {
                    "(write-only attribute)"
                },
                null_suffix(self.action, opts),
                forces_replacement(self.replace, opts)
            ),
        }
    }

    /// The closing line of a structure rendered at `level`: its bracket, and `-> null`
    /// when it is removed.
    fn close(&self, out: &mut String, bracket: char, level: usize, opts: Opts) {
        let _ = write!(
            out,
            "{}{}{bracket}{}",
            indent(level),
            symbol(NoOp, opts),
            null_suffix(self.action, opts)
        );
    }

    /// Terraform's `WarningsHuman`: the notes printed above a value whose sensitivity
    /// changes.
    fn warnings(&self, level: usize, opts: Opts) -> Vec<String> {
        let (inner_action, before, after, what) = match &self.renderer {
            Renderer::Sensitive {
                inner_action,
                before,
                after,
            } => (*inner_action, *before, *after, "attribute value"),
            Renderer::SensitiveBlock {
                inner_action,
                before,
                after,
            } => (*inner_action, *before, *after, "block"),
            _ => return Vec::new(),
        };
        if before == after || inner_action == Create || inner_action == Delete {
            return Vec::new();
        }
        let warning = if before {
            opts.color(&format!(
                "  # [yellow]Warning[reset]: this {what} will no longer be marked as sensitive\n{}  # after applying this change.",
                indent(level)
            ))
        } else {
            opts.color(&format!(
                "  # [yellow]Warning[reset]: this {what} will be marked as sensitive and will not\n{}  # display in UI output after applying this change.",
                indent(level)
            ))
        };
        if inner_action == NoOp && what == "attribute value" {
            return vec![format!("{warning} The value is unchanged.")];
        }
        vec![warning]
    }

    fn primitive(
        &self,
        before: &J,
        after: &J,
        kind: Primitive,
        level: usize,
        opts: Opts,
    ) -> String {
        if kind == Primitive::String {
            return self.string(before, after, level, opts);
        }
        let value = |j: &J| match j {
            J::Bool(b) => b.to_string(),
            J::Number(n) => n.clone(),
            _ => opts.color("[dark_gray]null[reset]"),
        };
        let replace = forces_replacement(self.replace, opts);
        match self.action {
            Create => format!("{}{replace}", value(after)),
            Delete => format!(
                "{}{}{replace}",
                value(before),
                null_suffix(self.action, opts)
            ),
            NoOp => format!("{}{replace}", value(before)),
            _ => format!(
                "{} {} {}{replace}",
                value(before),
                opts.color("[yellow]->[reset]"),
                value(after)
            ),
        }
    }

    fn string(&self, before: &J, after: &J, level: usize, opts: Opts) -> String {
        let replace = forces_replacement(self.replace, opts);
        let heredoc_line = |text: &str, action: ChangeAction| {
            format!("{}{}{text}", indent(level + 1), symbol(action, opts))
        };
        let lines: Vec<String> = match self.action {
            Create | NoOp => {
                let s = Str::of(after, opts);
                if let Some(json) = &s.json {
                    return if self.action == NoOp {
                        self.string_as_json(Some(json), Some(json), level, opts)
                    } else {
                        self.string_as_json(None, Some(json), level, opts)
                    };
                }
                if !s.multiline {
                    return format!("{}{replace}", s.simple());
                }
                s.text.split('\n').map(|l| heredoc_line(l, NoOp)).collect()
            }
            Delete => {
                let s = Str::of(before, opts);
                if s.null {
                    return format!("{}{replace}", s.simple());
                }
                if let Some(json) = &s.json {
                    return self.string_as_json(Some(json), None, level, opts);
                }
                if !s.multiline {
                    return format!("{}{}{replace}", s.simple(), null_suffix(self.action, opts));
                }
                s.text.split('\n').map(|l| heredoc_line(l, NoOp)).collect()
            }
            _ => {
                let (b, a) = (Str::of(before, opts), Str::of(after, opts));
                if let (Some(bj), Some(aj)) = (&b.json, &a.json) {
                    return self.string_as_json(Some(bj), Some(aj), level, opts);
                }
                if b.json.is_some() || a.json.is_some() {
                    // One side is JSON, the other not: shown as a type change.
                    let removed = Diff {
                        renderer: Renderer::Primitive {
                            before,
                            after: &super::model::NULL,
                            kind: Primitive::String,
                        },
                        action: Delete,
                        replace: false,
                    };
                    let added = Diff {
                        renderer: Renderer::Primitive {
                            before: &super::model::NULL,
                            after,
                            kind: Primitive::String,
                        },
                        action: Create,
                        replace: false,
                    };
                    let change = Diff {
                        renderer: Renderer::TypeChange {
                            before: Box::new(removed),
                            after: Box::new(added),
                        },
                        action: self.action,
                        replace: self.replace,
                    };
                    return change.render(level, opts);
                }
                if !b.multiline && !a.multiline {
                    return format!(
                        "{} {} {}{replace}",
                        b.simple(),
                        opts.color("[yellow]->[reset]"),
                        a.simple()
                    );
                }
                let before_lines: Vec<&str> = b.text.split('\n').collect();
                let after_lines: Vec<&str> = a.text.split('\n').collect();
                let mut lines = Vec::new();
                differ::process_slice(
                    &before_lines,
                    &after_lines,
                    |bi, ai| match (before_lines.get(bi), after_lines.get(ai)) {
                        (None, Some(a)) => lines.push(heredoc_line(a, Create)),
                        (Some(b), None) => lines.push(heredoc_line(b, Delete)),
                        (Some(b), Some(a)) if b != a => {
                            lines.push(heredoc_line(b, Delete));
                            lines.push(heredoc_line(a, Create));
                        }
                        (Some(b), _) => lines.push(heredoc_line(b, NoOp)),
                        (None, None) => {}
                    },
                    |_| false,
                );
                lines
            }
        };
        format!(
            "<<-EOT{replace}\n{}\n{}{}EOT{}",
            lines.join("\n"),
            indent(level),
            symbol(NoOp, opts),
            null_suffix(self.action, opts)
        )
    }

    /// A string holding JSON, shown as `jsonencode(...)` with a diff of the JSON.
    fn string_as_json(
        &self,
        before: Option<&J>,
        after: Option<&J>,
        level: usize,
        opts: Opts,
    ) -> String {
        let null = J::Null;
        let change = Change::with_values(
            before.unwrap_or(&null),
            after.unwrap_or(&null),
            self.action != Create,
            self.action != Delete,
        );
        let json_diff = differ::json(&change);
        let mut json_opts = opts.child();
        json_opts.override_null_suffix = true;
        let mut action = self.action;
        let (mut whitespace, mut replace) = ("", String::new());
        if json_diff.action == NoOp && self.action == Update {
            // Only whitespace differs: the JSON diff shows nothing, so say so.
            whitespace = if self.replace {
                " # whitespace changes force replacement"
            } else {
                " # whitespace changes"
            };
            json_opts.show_unchanged_children = true;
            action = NoOp;
        } else {
            replace = forces_replacement(self.replace, opts);
        }
        let rendered = json_diff.render(level + 1, json_opts);
        if self.action == Create || self.action == Delete {
            action = NoOp;
        }
        if rendered.contains('\n') {
            format!(
                "jsonencode({whitespace}\n{}{}{rendered}{replace}\n{}{}){}",
                indent(level + 1),
                symbol(action, opts),
                indent(level),
                symbol(NoOp, opts),
                null_suffix(self.action, opts)
            )
        } else {
            format!("jsonencode({rendered}){whitespace}{replace}")
        }
    }

    fn object(
        &self,
        attributes: &BTreeMap<String, Diff<'_>>,
        nested: bool,
        level: usize,
        opts: Opts,
    ) -> String {
        if attributes.is_empty() {
            return format!(
                "{{}}{}{}",
                null_suffix(self.action, opts),
                forces_replacement(self.replace, opts)
            );
        }
        let mut attribute_opts = opts.child();
        attribute_opts.override_null_suffix = !nested;
        let width = attributes
            .keys()
            .map(|k| attribute_name(k).len())
            .max()
            .unwrap_or(0);
        let mut hidden = 0;
        let mut out = format!("{{{}\n", forces_replacement(self.replace, opts));
        for (key, attribute) in attributes {
            let (line_opts, warning_opts) = if important(key) {
                let mut o = attribute_opts.child();
                o.show_unchanged_children = true;
                (o, o)
            } else if attribute.action == NoOp && !opts.show_unchanged_children {
                hidden += 1;
                continue;
            } else {
                (attribute_opts, opts)
            };
            write_warnings(&mut out, attribute, level + 1, warning_opts);
            let text = format!(
                "{} = {}",
                padded(&attribute_name(key), width),
                attribute.render(level + 1, line_opts)
            );
            write_line(&mut out, level + 1, attribute.action, line_opts, &text);
        }
        write_unchanged(&mut out, "attribute", hidden, level + 1, opts);
        self.close(&mut out, '}', level, opts);
        out
    }

    /// A map: a map attribute aligns its keys; a MAP nested attribute does not, leaves
    /// `-> null` out and marks its elements rather than itself as forcing replacement.
    fn map(
        &self,
        elements: &BTreeMap<String, Diff<'_>>,
        nested: bool,
        level: usize,
        opts: Opts,
    ) -> String {
        let replace_self = self.replace && !nested;
        if elements.is_empty() {
            return format!(
                "{{}}{}{}",
                null_suffix(self.action, opts),
                forces_replacement(replace_self, opts)
            );
        }
        let width = elements
            .keys()
            .map(|k| go_quote(k).len())
            .max()
            .unwrap_or(0);
        let mut element_opts = opts.child();
        element_opts.override_null_suffix = self.action == Delete || nested;
        element_opts.force_forces_replacement = self.replace && nested;
        let mut hidden = 0;
        let mut out = format!("{{{}\n", forces_replacement(replace_self, opts));
        for (key, element) in elements {
            if element.action == NoOp && !opts.show_unchanged_children {
                hidden += 1;
                continue;
            }
            write_warnings(&mut out, element, level + 1, opts);
            // Only objects get a comma.
            let comma = if matches!(element.renderer, Renderer::Object { .. }) {
                ","
            } else {
                ""
            };
            let key = if nested {
                go_quote(key)
            } else {
                padded(&go_quote(key), width)
            };
            let text = format!("{key} = {}{comma}", element.render(level + 1, element_opts));
            write_line(&mut out, level + 1, element.action, element_opts, &text);
        }
        write_unchanged(&mut out, "element", hidden, level + 1, opts);
        self.close(&mut out, '}', level, opts);
        out
    }

    /// A list: with `display_context`, the unchanged element before and after each change
    /// is shown too.
    fn list(
        &self,
        elements: &[Diff<'_>],
        display_context: bool,
        level: usize,
        opts: Opts,
    ) -> String {
        if elements.is_empty() {
            return format!(
                "[]{}{}",
                null_suffix(self.action, opts),
                forces_replacement(self.replace, opts)
            );
        }
        let mut element_opts = opts.child();
        element_opts.override_null_suffix = true;
        let mut unchanged_opts = opts.child();
        unchanged_opts.show_unchanged_children = true;
        let mut hidden: Vec<&Diff<'_>> = Vec::new();
        let mut render_next = false;
        let mut out = format!("[{}\n", forces_replacement(self.replace, opts));
        for element in elements {
            if element.action == NoOp && !render_next && !opts.show_unchanged_children {
                hidden.push(element);
                continue;
            }
            render_next = false;
            let mut this_opts = element_opts;
            if display_context {
                write_unchanged(
                    &mut out,
                    "element",
                    hidden.len().saturating_sub(1),
                    level + 1,
                    this_opts,
                );
                if let Some(last) = hidden.last() {
                    let text = format!("{},", last.render(level + 1, unchanged_opts));
                    write_line(&mut out, level + 1, last.action, unchanged_opts, &text);
                }
                hidden.clear();
                if element.action == NoOp {
                    this_opts = unchanged_opts;
                } else {
                    render_next = true;
                }
            }
            write_warnings(&mut out, element, level + 1, this_opts);
            let text = format!("{},", element.render(level + 1, this_opts));
            write_line(&mut out, level + 1, element.action, this_opts, &text);
        }
        write_unchanged(&mut out, "element", hidden.len(), level + 1, opts);
        self.close(&mut out, ']', level, opts);
        out
    }

    /// A set: a SET nested attribute marks its elements rather than itself as forcing
    /// replacement.
    fn set(&self, elements: &[Diff<'_>], nested: bool, level: usize, opts: Opts) -> String {
        let replace_self = self.replace && !nested;
        if elements.is_empty() {
            return format!(
                "[]{}{}",
                null_suffix(self.action, opts),
                forces_replacement(replace_self, opts)
            );
        }
        let mut element_opts = opts.child();
        element_opts.override_null_suffix = true;
        element_opts.force_forces_replacement = self.replace && nested;
        let mut hidden = 0;
        let mut out = format!("[{}\n", forces_replacement(replace_self, opts));
        for element in elements {
            if element.action == NoOp && !opts.show_unchanged_children {
                hidden += 1;
                continue;
            }
            write_warnings(&mut out, element, level + 1, opts);
            let text = format!("{},", element.render(level + 1, element_opts));
            write_line(&mut out, level + 1, element.action, element_opts, &text);
        }
        write_unchanged(&mut out, "element", hidden, level + 1, opts);
        self.close(&mut out, ']', level, opts);
        out
    }

    /// A block: attributes (aligned; `id`, `name` and `tags` always shown), then each
    /// nested block after a blank line, then the count of unchanged blocks.
    fn block(
        &self,
        attributes: &BTreeMap<&str, Diff<'_>>,
        blocks: &BTreeMap<&str, BlockGroup<'_>>,
        level: usize,
        opts: Opts,
    ) -> String {
        if attributes.is_empty() && blocks.is_empty() {
            return format!("{{}}{}", forces_replacement(self.replace, opts));
        }
        let width = attributes
            .keys()
            .map(|k| attribute_name(k).len())
            .max()
            .unwrap_or(0);
        let mut important_opts = opts.child();
        important_opts.show_unchanged_children = true;
        let mut hidden = 0;
        let mut out = format!("{{{}\n", forces_replacement(self.replace, opts));
        for (key, attribute) in attributes {
            let (line_opts, name) = if important(key) {
                // Terraform writes these names unescaped.
                (important_opts, (*key).to_owned())
            } else if attribute.action == NoOp && !opts.show_unchanged_children {
                hidden += 1;
                continue;
            } else {
                (opts.child(), attribute_name(key))
            };
            write_warnings(
                &mut out,
                attribute,
                level + 1,
                if important(key) { important_opts } else { opts },
            );
            let text = format!(
                "{} = {}",
                padded(&name, width),
                attribute.render(level + 1, line_opts)
            );
            write_line(&mut out, level + 1, attribute.action, line_opts, &text);
        }
        write_unchanged(&mut out, "attribute", hidden, level + 1, opts);
        let mut hidden_blocks = 0;
        for (key, group) in blocks {
            let mut blank_line_written = false;
            let mut render_one = |diff: &Diff<'_>, label: &str, out: &mut String| {
                let sensitive = match diff.action {
                    Create => group.after_sensitive,
                    Delete => group.before_sensitive,
                    Update | NoOp => group.after_sensitive || group.before_sensitive,
                    _ => false,
                };
                let wrapped;
                let diff = if sensitive {
                    // The whole group of blocks is (or was) sensitive.
                    let mut action = diff.action;
                    if action == NoOp && group.before_sensitive != group.after_sensitive {
                        action = Update;
                    }
                    wrapped = Diff {
                        renderer: Renderer::SensitiveBlock {
                            inner_action: diff.action,
                            before: group.before_sensitive,
                            after: group.after_sensitive,
                        },
                        action,
                        replace: diff.replace,
                    };
                    &wrapped
                } else {
                    diff
                };
                if diff.action == NoOp && !opts.show_unchanged_children {
                    hidden_blocks += 1;
                    return;
                }
                if !blank_line_written && !attributes.is_empty() {
                    out.push('\n');
                    blank_line_written = true;
                }
                let mut block_opts = opts.child();
                block_opts.force_forces_replacement = group.replace;
                write_warnings(out, diff, level + 1, block_opts);
                let text = format!(
                    "{}{label} {}",
                    attribute_name(key),
                    diff.render(level + 1, block_opts)
                );
                write_line(out, level + 1, diff.action, block_opts, &text);
            };
            let unknown = Diff {
                renderer: Renderer::Unknown {
                    before: None,
                    refinements: None,
                },
                action: self.action,
                replace: false,
            };
            match &group.blocks {
                Blocks::Single(diff) => render_one(diff, "", &mut out),
                Blocks::Map(diffs) => {
                    if group.unknown {
                        render_one(&unknown, "", &mut out);
                    }
                    for (label, diff) in diffs {
                        render_one(diff, &format!(" {}", go_quote(label)), &mut out);
                    }
                }
                Blocks::Set(diffs) | Blocks::List(diffs) => {
                    if group.unknown {
                        render_one(&unknown, "", &mut out);
                    }
                    for diff in diffs {
                        render_one(diff, "", &mut out);
                    }
                }
            }
        }
        if hidden_blocks > 0 {
            out.push('\n');
            write_unchanged(&mut out, "block", hidden_blocks, level + 1, opts);
        }
        let _ = write!(out, "{}{}}}", indent(level), symbol(NoOp, opts));
        out
    }
}

/// A string as Terraform's renderer sees it: null, JSON, multi-line or plain.
struct Str {
    text: String,
    json: Option<J>,
    multiline: bool,
    null: bool,
}

impl Str {
    fn of(j: &J, opts: Opts) -> Str {
        let s = match j {
            J::String(s) => s,
            _ => {
                return Str {
                    text: opts.color("[dark_gray]null[reset]"),
                    json: None,
                    multiline: false,
                    null: true,
                }
            }
        };
        if s.starts_with('{') || s.starts_with('[') {
            if let Some(json) = J::parse(s) {
                return Str {
                    text: s.clone(),
                    json: Some(json),
                    multiline: false,
                    null: false,
                };
            }
        }
        if s.contains('\n') {
            return Str {
                text: s.trim().to_owned(),
                json: None,
                multiline: true,
                null: false,
            };
        }
        Str {
            text: s.clone(),
            json: None,
            multiline: false,
            null: false,
        }
    }

    fn simple(&self) -> String {
        if self.null {
            self.text.clone()
        } else {
            go_quote(&self.text)
        }
    }
}
