//! Diagnostics: Terraform's summary and detail, and where in which file.

use std::cell::Cell;
use std::fmt;

use unicode_segmentation::UnicodeSegmentation;

/// One problem in a configuration, as Terraform reports it: a summary
/// (`Extraneous JSON object property`), a detail (`No argument or block type is named
/// "nme". Did you mean "name"?`), and where.
///
/// The summary and detail are Terraform's own words (HCL's for syntax-level problems),
/// so that they can be searched for; the position is the file name, a line and a
/// column counted as HCL counts them (one per character, two per tab), and the byte
/// offset.
///
/// It prints as `FILE:LINE,COLUMN: SUMMARY; DETAIL`.
///
/// ```
/// use ctywire::config::Config;
///
/// let err = Config::from_sources([("main.tf.json", r#"{"variable": {"a": {"defualt": 1}}}"#)])
///     .unwrap_err();
/// let first = err.iter().next().unwrap();
/// assert_eq!(first.summary, "Extraneous JSON object property");
/// let at = first.location.as_ref().unwrap();
/// assert_eq!((at.file.as_str(), at.line, at.column, at.offset), ("main.tf.json", 1, 21, 20));
/// assert_eq!(
///     first.to_string(),
///     r#"main.tf.json:1,21: Extraneous JSON object property; No argument or block type is named "defualt". Did you mean "default"?"#,
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Diagnostic {
    /// Terraform's one-line summary.
    pub summary: String,
    /// Terraform's explanation.
    pub detail: String,
    /// Where: `None` for a problem that concerns no one place (a block that is not
    /// there).
    pub location: Option<Location>,
}

/// Where in a file a [`Diagnostic`] points, or a [`Declaration`](super::Declaration)
/// is.
///
/// ```
/// use ctywire::config::Config;
///
/// // The second line starts with a tab, and `é` is two bytes.
/// let main = concat!(
///     "{\n",
///     "\t", r#""locals": {"greeting": "héllo"}, "variable": {"region": {"defualt": "eu"}}"#, "\n",
///     "}",
/// );
/// let err = Config::from_sources([("main.tf.json", main)]).unwrap_err();
/// let at = err.iter().next().unwrap().location.as_ref().unwrap();
/// assert_eq!((at.file.as_str(), at.line), ("main.tf.json", 2));
/// // The column counts the tab as two and `é` as one; the offset counts bytes.
/// assert_eq!((at.column, at.offset), (60, 61));
/// assert_eq!(&main[at.offset..at.offset + 9], r#""defualt""#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Location {
    /// The file's name, as given.
    pub file: String,
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, as HCL counts: one per character (grapheme cluster), two
    /// for a tab.
    pub column: usize,
    /// The byte offset in the file.
    pub offset: usize,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(at) = &self.location {
            write!(f, "{}:{},{}: ", at.file, at.line, at.column)?;
        }
        write!(f, "{}; {}", self.summary, self.detail)
    }
}

/// The diagnostics of a configuration that could not be read or decoded: one or more,
/// in the order they were found.
///
/// It prints one diagnostic a line.
///
/// ```
/// use ctywire::config::Config;
///
/// let files = [
///     ("a.tf.json", r#"{"locals": {"x": 1}}"#),
///     ("b.tf.json", r#"{"locals": {"x": 2}} trailing"#),
/// ];
/// let err = Config::from_sources(files).unwrap_err();
/// assert_eq!(err.len(), 1);
/// assert!(err.to_string().starts_with("b.tf.json:1,22: "), "{err}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// The diagnostics.
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter()
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// A file of the configuration: its name and text.
#[derive(Clone, Debug)]
pub(crate) struct SourceFile {
    pub(crate) name: String,
    pub(crate) text: Vec<u8>,
}

/// An index into the configuration's files.
pub(crate) type FileId = usize;

/// A byte range in one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) file: FileId,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

impl Span {
    pub(crate) fn new(file: FileId, start: usize, end: usize) -> Span {
        Span { file, start, end }
    }

    /// The one byte at `at`.
    pub(crate) fn at(file: FileId, at: usize) -> Span {
        Span::new(file, at, at + 1)
    }
}

/// A diagnostic not yet placed: the position is resolved against the files at the end.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Diag {
    pub(crate) summary: String,
    pub(crate) detail: String,
    pub(crate) span: Option<Span>,
}

impl Diag {
    pub(crate) fn new(summary: impl Into<String>, detail: impl Into<String>, span: Span) -> Diag {
        Diag {
            summary: summary.into(),
            detail: detail.into(),
            span: Some(span),
        }
    }

    /// A diagnostic that points nowhere.
    pub(crate) fn nowhere(summary: impl Into<String>, detail: impl Into<String>) -> Diag {
        Diag {
            summary: summary.into(),
            detail: detail.into(),
            span: None,
        }
    }
}

/// The line and column of byte `offset` in `text`, as HCL's JSON scanner counts them:
/// a line feed starts a line, a carriage return takes no column, a tab two, any other
/// character (grapheme cluster) one.
pub(crate) fn line_column(text: &[u8], offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |n| n + 1);
    (line, 1 + width(&before[line_start..]))
}

/// The columns `text` (within one line) takes, as [`line_column`] counts them.
fn width(text: &[u8]) -> usize {
    String::from_utf8_lossy(text)
        .graphemes(true)
        .map(|g| match g {
            "\t" => 2,
            "\r" => 0,
            _ => 1,
        })
        .sum()
}

/// Whether counting columns may resume at byte `at` of `text`: a grapheme cluster
/// surely starts there (an ASCII character after an ASCII character, not a line feed
/// after a carriage return).
fn resumable(text: &[u8], at: usize) -> bool {
    match (at.checked_sub(1).and_then(|i| text.get(i)), text.get(at)) {
        (None, _) => true,
        (Some(&before), Some(&here)) => {
            before.is_ascii() && here.is_ascii() && !(before == b'\r' && here == b'\n')
        }
        (Some(_), None) => false,
    }
}

/// The files a configuration was read from, for placing diagnostics. Locations asked
/// for in increasing order within a file are found by counting on from the last one,
/// so that placing every declaration of a one-line file of megabytes takes linear
/// time rather than a scan from the file's start each.
pub(crate) struct Files<'a> {
    sources: &'a [SourceFile],
    /// The last location found: file, offset, line, column.
    last: Cell<Option<(FileId, usize, usize, usize)>>,
}

impl<'a> Files<'a> {
    pub(crate) fn new(sources: &'a [SourceFile]) -> Files<'a> {
        Files {
            sources,
            last: Cell::new(None),
        }
    }

    pub(crate) fn location(&self, file: FileId, offset: usize) -> Location {
        let source = &self.sources[file];
        let text = &source.text[..];
        let offset_in = offset.min(text.len());
        let (line, column) = match self.last.get() {
            Some((f, at, line, column)) if f == file && at <= offset_in && resumable(text, at) => {
                let between = &text[at..offset_in];
                match between.iter().rposition(|&b| b == b'\n') {
                    Some(n) => (
                        line + between.iter().filter(|&&b| b == b'\n').count(),
                        1 + width(&between[n + 1..]),
                    ),
                    None => (line, column + width(between)),
                }
            }
            _ => line_column(text, offset_in),
        };
        self.last.set(Some((file, offset_in, line, column)));
        Location {
            file: source.name.clone(),
            line,
            column,
            offset,
        }
    }

    /// A range as HCL prints one: `FILE:LINE,COLUMN-COLUMN`, or
    /// `FILE:LINE,COLUMN-LINE,COLUMN` across lines.
    pub(crate) fn range(&self, span: Span) -> String {
        let start = self.location(span.file, span.start);
        let end = self.location(span.file, span.end);
        if start.line == end.line {
            format!(
                "{}:{},{}-{}",
                start.file, start.line, start.column, end.column
            )
        } else {
            format!(
                "{}:{},{}-{},{}",
                start.file, start.line, start.column, end.line, end.column
            )
        }
    }

    pub(crate) fn place(&self, diag: Diag) -> Diagnostic {
        Diagnostic {
            summary: diag.summary,
            detail: self.resolve_ranges(&diag.detail),
            location: diag.span.map(|s| self.location(s.file, s.start)),
        }
    }
}

impl Files<'_> {
    /// `text` with each [`range_marker`] replaced by the range it stands for.
    fn resolve_ranges(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(open) = rest.find('\u{1}') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let Some(close) = after.find('\u{2}') else {
                break;
            };
            let numbers: Vec<usize> = after[..close]
                .split(':')
                .filter_map(|n| n.parse().ok())
                .collect();
            if let [file, start, end] = numbers[..] {
                if file < self.sources.len() {
                    out.push_str(&self.range(Span::new(file, start, end)));
                }
            }
            rest = &after[close + 1..];
        }
        out.push_str(rest);
        out
    }
}

/// A marker for `span` to put in a diagnostic's detail, where HCL writes a range
/// (`main.tf.json:3,5-9`): the files are known only when the diagnostic is placed.
pub(crate) fn range_marker(span: Span) -> String {
    format!("\u{1}{}:{}:{}\u{2}", span.file, span.start, span.end)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Locations found by counting on from the last one are those a scan from the
    /// start finds, whatever the order they are asked in.
    #[test]
    fn locations_counted_on_agree_with_a_scan() {
        let text = "{\n\t\"e\u{301}x\": 1,\r\n \"\u{1F600}\": [\"a\tb\", \"c\"]\n}".as_bytes();
        let sources = [SourceFile {
            name: "f.tf.json".into(),
            text: text.to_vec(),
        }];
        let boundaries: Vec<usize> = (0..=text.len())
            .filter(|&i| std::str::from_utf8(&text[..i]).is_ok())
            .collect();
        let mut orders = vec![boundaries.clone()];
        orders.push(boundaries.iter().rev().copied().collect());
        orders.push(
            boundaries
                .iter()
                .step_by(3)
                .chain(boundaries.iter().step_by(2))
                .copied()
                .collect(),
        );
        for order in orders {
            let files = Files::new(&sources);
            for &offset in &order {
                let found = files.location(0, offset);
                assert_eq!(
                    (found.line, found.column),
                    line_column(text, offset),
                    "{offset}"
                );
            }
        }
    }

    #[test]
    fn columns_as_hcl_counts_them() {
        let text = "{\n\t\"é\u{301}x\": 1\r\n}".as_bytes();
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 2), (2, 1));
        // The tab counts two; `"`, `é` + combining accent (one cluster), `x`, `"`.
        let colon = text.iter().position(|&b| b == b':').unwrap();
        assert_eq!(line_column(text, colon), (2, 7));
        let close = text.len() - 1;
        assert_eq!(line_column(text, close), (3, 1));
    }

    #[test]
    fn displays() {
        let files = [SourceFile {
            name: "main.tf.json".into(),
            text: b"{\n  \"a\": 1\n}".to_vec(),
        }];
        let files = Files::new(&files);
        let d = files.place(Diag::new("Summary", "Detail.", Span::new(0, 4, 7)));
        assert_eq!(d.to_string(), "main.tf.json:2,3: Summary; Detail.");
        assert_eq!(files.range(Span::new(0, 4, 7)), "main.tf.json:2,3-6");
        assert_eq!(files.range(Span::new(0, 0, 12)), "main.tf.json:1,1-3,2");
        let marked = format!("set at {}.", range_marker(Span::new(0, 4, 7)));
        assert_eq!(files.resolve_ranges(&marked), "set at main.tf.json:2,3-6.");
    }
}
