//! Loading schemas from the JSON that `terraform providers schema -json` and
//! `tofu providers schema -json` print.
//!
//! The document is read with the crate's JSON token reader, so every error carries the
//! path of the offending value in the document
//! (`.provider_schemas["registry.terraform.io/hashicorp/aws"].resource_schemas["aws_instance"].block.attributes["ami"].type`)
//! and its line and column. Every section Terraform 1.14 writes is read (resources,
//! data sources, ephemeral and list resources, actions, state stores, identity schemas,
//! functions); keys this crate does not know are skipped, as the format's compatibility
//! rules ask, and `null` is taken as absent, as Go's decoder does.
//! Like `show -json` documents, a schema file may be UTF-8 (with or without a byte-order
//! mark) or UTF-16.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::{
    Attribute, AttributeNesting, Block, BlockNesting, DescriptionKind, Function, IdentityAttribute,
    IdentitySchema, NestedBlock, NestedType, Parameter, ProviderSchema, ProviderSchemas, Schema,
};
use crate::error::{Error, ErrorKind, Result};
use crate::json::with_line_column;
use crate::limits::MAX_DEPTH;
use crate::path::PathStep;
use crate::text::utf8_document;
use crate::token::json_read::{Kind, Reader};
use crate::types::Type;

impl ProviderSchemas {
    /// Reads the JSON document that `terraform providers schema -json` (or `tofu
    /// providers schema -json`) prints.
    ///
    /// Format versions 0.x and 1.x are read; `format_version` must be present. Errors
    /// name the path into the document, and the line and column:
    ///
    /// ```
    /// use ctywire::schema::ProviderSchemas;
    ///
    /// let doc = br#"{"format_version": "1.0", "provider_schemas": {
    ///   "registry.terraform.io/hashicorp/aws": {"resource_schemas": {"aws_instance": {
    ///     "version": 1,
    ///     "block": {"attributes": {"ami": {"type": "strin", "required": true}}}}}}}}"#;
    /// let err = ProviderSchemas::from_json(doc).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     concat!(
    ///         r#".provider_schemas["registry.terraform.io/hashicorp/aws"]"#,
    ///         r#".resource_schemas["aws_instance"].block.attributes["ami"].type: "#,
    ///         r#"invalid primitive type name "strin" at line 4 column 46"#,
    ///     ),
    /// );
    /// ```
    pub fn from_json(input: &[u8]) -> Result<ProviderSchemas> {
        load(input, |l| l.document())
    }
}

impl Schema {
    /// Reads one schema as it appears in a `providers schema -json` document:
    /// `{"version": 1, "block": {...}}`.
    ///
    /// ```
    /// use ctywire::schema::Schema;
    ///
    /// let schema = Schema::from_json(br#"{"version": 2, "block": {"attributes": {
    ///     "id": {"type": "string", "computed": true}}}}"#)?;
    /// assert_eq!(schema.version, 2);
    /// assert!(schema.block.attributes["id"].computed);
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn from_json(input: &[u8]) -> Result<Schema> {
        load(input, |l| l.schema())
    }
}

impl Block {
    /// Reads one block as it appears in a `providers schema -json` document:
    /// `{"attributes": {...}, "block_types": {...}}`.
    ///
    /// ```
    /// use ctywire::schema::{Block, BlockNesting};
    ///
    /// let block = Block::from_json(br#"{"block_types": {"disk": {
    ///     "nesting_mode": "list", "max_items": 4,
    ///     "block": {"attributes": {"size": {"type": "number", "required": true}}}}}}"#)?;
    /// assert_eq!(block.block_types["disk"].nesting, BlockNesting::List);
    /// assert_eq!(block.implied_type().to_expr(), "object({disk=list(object({size=number}))})");
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn from_json(input: &[u8]) -> Result<Block> {
        load(input, |l| l.block())
    }
}

/// Runs `read` over the whole of `input` (UTF-8, with or without a byte-order mark, or
/// UTF-16: see [`utf8_document`]), turning byte offsets into lines and columns.
fn load<T>(input: &[u8], read: impl for<'a> FnOnce(&mut Loader<'a>) -> Result<T>) -> Result<T> {
    let input = utf8_document(input)?;
    let mut loader = Loader {
        r: Reader::new_checked(&input),
        depth: 0,
    };
    read(&mut loader)
        .and_then(|value| loader.r.finish().map(|()| value))
        .map_err(|e| with_line_column(e, &input))
}

/// Reads a `provider_schemas` object (provider addresses to their schemas) at `r`, as
/// HCP Terraform's redacted plans embed it.
pub(crate) fn provider_schemas(r: &mut Reader<'_>) -> Result<BTreeMap<String, ProviderSchema>> {
    let mut loader = Loader {
        r: r.clone(),
        depth: 0,
    };
    let mut providers = BTreeMap::new();
    loader.entries(&mut providers, Loader::provider)?;
    *r = loader.r;
    Ok(providers)
}

/// A reader over a schema document, and how deep in nested blocks and types it is.
struct Loader<'a> {
    r: Reader<'a>,
    depth: usize,
}

/// The digests of the keys of an object read so far: inline for the few keys objects of
/// schema JSON have, in a hash set beyond that (so that no object costs more than
/// linear time).
#[derive(Default)]
struct Seen {
    few: [u64; Seen::FEW],
    len: usize,
    many: Option<std::collections::HashSet<u64>>,
}

impl Seen {
    const FEW: usize = 16;

    /// Adds `digest`; whether it was there already.
    #[inline]
    fn insert(&mut self, digest: u64) -> bool {
        match self.few.get_mut(self.len) {
            Some(slot) => {
                *slot = digest;
                self.len += 1;
                self.few[..self.len - 1].contains(&digest)
            }
            None => self.insert_many(digest),
        }
    }

    /// [`insert`](Self::insert) beyond the first few keys.
    #[cold]
    #[inline(never)]
    fn insert_many(&mut self, digest: u64) -> bool {
        let few = self.few;
        !self
            .many
            .get_or_insert_with(|| few.into_iter().collect())
            .insert(digest)
    }
}

/// A digest of a key, for finding repeated keys: its length and its first and last
/// eight bytes (so keys of at most 16 bytes have distinct digests), mixed.
fn digest(key: &str) -> u64 {
    let bytes = key.as_bytes();
    let n = bytes.len();
    let (first, last) = match (bytes.get(..8), bytes.get(n.saturating_sub(8)..)) {
        (Some(head), Some(tail)) if n >= 8 => (word(head), word(tail)),
        _ => (bytes.iter().fold(0, |w, &b| w << 8 | u64::from(b)), 0),
    };
    (first ^ (n as u64).rotate_left(56))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .rotate_left(29)
        ^ last.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
}

/// Eight bytes as a word.
fn word(bytes: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&bytes[..8]);
    u64::from_le_bytes(w)
}

/// Whether an object's keys are fixed field names (path steps `.name`) or names chosen
/// by the provider (path steps `["name"]`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keys {
    Fields,
    Entries,
}

fn invalid(message: String, at: usize) -> Error {
    Error::new(ErrorKind::InvalidValue, message).at_offset(at)
}

impl<'a> Loader<'a> {
    /// Reads `null` if it comes next.
    #[inline]
    fn null(&mut self) -> Result<bool> {
        Ok(self.r.eat(b"null"))
    }

    /// Fails unless the next value is of `kind`.
    fn expect(&mut self, kind: Kind, expected: &str) -> Result<()> {
        let found = self.r.peek_kind()?;
        if found == kind {
            Ok(())
        } else {
            Err(Error::mismatch(expected, found.described()).at_offset(self.r.offset()))
        }
    }

    /// A string, as descriptions are: often long and holding escapes, so read in one
    /// go by the general path rather than tried as plain first.
    fn string(&mut self) -> Result<String> {
        self.expect(Kind::String, "a string")?;
        Ok(self.r.read_string()?.into_owned())
    }

    /// A string, borrowed from the input unless it holds escapes.
    fn str(&mut self) -> Result<Cow<'a, str>> {
        if let Some(text) = self.r.plain_string() {
            return Ok(Cow::Borrowed(text));
        }
        self.expect(Kind::String, "a string")?;
        self.r.read_string()
    }

    fn bool(&mut self) -> Result<bool> {
        // Nearly always `true` (Terraform leaves false flags out): matched as bytes.
        // What follows is the object's to check, as after the general path's `true`.
        if self.r.eat(b"true") {
            return Ok(true);
        }
        self.expect(Kind::Bool, "a bool")?;
        self.r.read_bool()
    }

    /// A non-negative integer, as Go reads a `uint64`.
    fn count(&mut self) -> Result<u64> {
        self.expect(Kind::Number, "a non-negative integer")?;
        let at = self.r.offset();
        let text = self.r.read_number()?;
        text.parse().map_err(|_| {
            Error::mismatch("a non-negative integer", format!("`{text}`")).at_offset(at)
        })
    }

    /// Reads an object (or `null`, as an empty one), calling `member` with each key whose
    /// value is not `null` (a `null` member is absent) and the key's offset; the member
    /// reads the value. Errors from a member get the key as a path step. A repeated
    /// field is an error here; a repeated entry is the member's to find (the map it
    /// fills finds it for free).
    fn object(
        &mut self,
        keys: Keys,
        mut member: impl FnMut(&mut Self, &str, usize) -> Result<()>,
    ) -> Result<()> {
        if self.null()? {
            return Ok(());
        }
        self.expect(Kind::Object, "an object")?;
        let start = self.r.offset();
        self.r.begin_object()?;
        let step = |key: &str| match keys {
            Keys::Fields => PathStep::Attribute(key.to_owned()),
            Keys::Entries => PathStep::Key(key.to_owned()),
        };
        let mut seen = Seen::default();
        loop {
            if self.r.end_object() {
                return Ok(());
            }
            // Keys written plainly (nearly all) are read without the general path's
            // bookkeeping.
            let escaped;
            let (key, at) = match self.r.plain_key() {
                Some(plain) => plain,
                None => match self.r.next_key_at()? {
                    Some((key, at)) => {
                        escaped = key;
                        (&*escaped, at)
                    }
                    None => return Ok(()),
                },
            };
            if keys == Keys::Fields && seen.insert(digest(key)) && self.key_before(start, at, key) {
                return Err(invalid("duplicate key".to_owned(), at).in_step(step(key)));
            }
            if !self.null()? {
                member(self, key, at).map_err(|e| e.in_step(step(key)))?;
            }
        }
    }

    /// Whether the object at `start` has `key` before offset `at`: reads its keys again
    /// (only when two keys' digests are equal, so nearly never for distinct keys).
    fn key_before(&self, start: usize, at: usize, key: &str) -> bool {
        let mut r = Reader::new(self.r.input());
        r.seek(start);
        let found = (|| -> Result<bool> {
            r.begin_object()?;
            while let Some((k, k_at)) = r.next_key_at()? {
                if k_at >= at {
                    return Ok(false);
                }
                if k == key {
                    return Ok(true);
                }
                r.skip_value()?;
            }
            Ok(false)
        })();
        found.unwrap_or(false)
    }

    /// A map of names to values read by `read`; a repeated name is an error.
    fn entries<T>(
        &mut self,
        into: &mut BTreeMap<String, T>,
        mut read: impl FnMut(&mut Self) -> Result<T>,
    ) -> Result<()> {
        self.object(Keys::Entries, |l, name, at| {
            let value = read(l)?;
            match into.insert(name.to_owned(), value) {
                None => Ok(()),
                Some(_) => Err(invalid("duplicate key".to_owned(), at)),
            }
        })
    }

    /// Counts one more level of nesting, failing past [`MAX_DEPTH`].
    fn descend(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(crate::limits::depth_exceeded("schema").at_offset(self.r.offset()));
        }
        Ok(())
    }

    fn document(&mut self) -> Result<ProviderSchemas> {
        self.expect(Kind::Object, "an object")?;
        let start = self.r.offset();
        let mut doc = ProviderSchemas::default();
        let mut has_version = false;
        self.object(Keys::Fields, |l, key, _| {
            match key {
                "format_version" => {
                    let at = l.r.offset();
                    doc.format_version = l.string()?;
                    check_format_version(&doc.format_version, at)?;
                    has_version = true;
                }
                "provider_schemas" => l.entries(&mut doc.providers, Loader::provider)?,
                _ => l.r.skip_value()?,
            }
            Ok(())
        })?;
        if !has_version {
            return Err(invalid(
                "missing format_version: not a `providers schema -json` document".to_owned(),
                start,
            ));
        }
        Ok(doc)
    }

    fn provider(&mut self) -> Result<ProviderSchema> {
        let mut provider = ProviderSchema::default();
        self.object(Keys::Fields, |l, key, _| {
            match key {
                "provider" => provider.provider = l.schema()?,
                "resource_schemas" => l.entries(&mut provider.resource_schemas, Loader::schema)?,
                "data_source_schemas" => {
                    l.entries(&mut provider.data_source_schemas, Loader::schema)?
                }
                "ephemeral_resource_schemas" => {
                    l.entries(&mut provider.ephemeral_resource_schemas, Loader::schema)?
                }
                "list_resource_schemas" => {
                    l.entries(&mut provider.list_resource_schemas, Loader::schema)?
                }
                "action_schemas" => l.entries(&mut provider.action_schemas, Loader::schema)?,
                "state_store_schemas" => {
                    l.entries(&mut provider.state_store_schemas, Loader::schema)?
                }
                "resource_identity_schemas" => l.entries(
                    &mut provider.resource_identity_schemas,
                    Loader::identity_schema,
                )?,
                "functions" => l.entries(&mut provider.functions, Loader::function)?,
                _ => l.r.skip_value()?,
            }
            Ok(())
        })?;
        Ok(provider)
    }

    fn schema(&mut self) -> Result<Schema> {
        let mut schema = Schema::default();
        self.object(Keys::Fields, |l, key, _| {
            match key {
                "version" => schema.version = l.count()?,
                "block" => schema.block = l.block()?,
                _ => l.r.skip_value()?,
            }
            Ok(())
        })?;
        Ok(schema)
    }

    fn identity_schema(&mut self) -> Result<IdentitySchema> {
        let mut schema = IdentitySchema::default();
        self.object(Keys::Fields, |l, key, _| {
            match key {
                "version" => schema.version = l.count()?,
                "attributes" => l.entries(&mut schema.attributes, Loader::identity_attribute)?,
                _ => l.r.skip_value()?,
            }
            Ok(())
        })?;
        Ok(schema)
    }

    fn identity_attribute(&mut self) -> Result<IdentityAttribute> {
        let mut a = IdentityAttribute {
            ty: Type::Dynamic,
            description: String::new(),
            required_for_import: false,
            optional_for_import: false,
        };
        self.object(Keys::Fields, |l, key, _| {
            match key {
                "type" => a.ty = crate::types::parse_type(&mut l.r)?,
                "description" => a.description = l.string()?,
                "required_for_import" => a.required_for_import = l.bool()?,
                "optional_for_import" => a.optional_for_import = l.bool()?,
                _ => l.r.skip_value()?,
            }
            Ok(())
        })?;
        Ok(a)
    }

    fn function(&mut self) -> Result<Function> {
        let mut f = Function {
            summary: String::new(),
            description: String::new(),
            description_kind: DescriptionKind::Plain,
            deprecation_message: String::new(),
            return_type: Type::Dynamic,
            parameters: Vec::new(),
            variadic_parameter: None,
        };
        self.object(Keys::Fields, |l, key, _| {
            match key {
                "summary" => f.summary = l.string()?,
                "description" => f.description = l.string()?,
                "description_kind" => f.description_kind = l.description_kind()?,
                "deprecation_message" => f.deprecation_message = l.string()?,
                "return_type" => f.return_type = crate::types::parse_type(&mut l.r)?,
                "parameters" => f.parameters = l.list(Loader::parameter)?,
                "variadic_parameter" => f.variadic_parameter = Some(l.parameter()?),
                _ => l.r.skip_value()?,
            }
            Ok(())
        })?;
        Ok(f)
    }

    fn parameter(&mut self) -> Result<Parameter> {
        let mut p = Parameter::new("", Type::Dynamic);
        self.object(Keys::Fields, |l, key, _| {
            match key {
                "name" => p.name = l.string()?,
                "description" => p.description = l.string()?,
                "description_kind" => p.description_kind = l.description_kind()?,
                "is_nullable" => p.is_nullable = l.bool()?,
                "type" => p.ty = crate::types::parse_type(&mut l.r)?,
                _ => l.r.skip_value()?,
            }
            Ok(())
        })?;
        Ok(p)
    }

    /// An array (or `null`, as an empty one) of values read by `read`; errors get the
    /// index as a path step.
    fn list<T>(&mut self, mut read: impl FnMut(&mut Self) -> Result<T>) -> Result<Vec<T>> {
        let mut out = Vec::new();
        if self.null()? {
            return Ok(out);
        }
        self.expect(Kind::Array, "an array")?;
        self.r.begin_array()?;
        while self.r.next_element()? {
            let i = out.len();
            out.push(read(self).map_err(|e| e.in_index(i))?);
        }
        Ok(out)
    }

    fn block(&mut self) -> Result<Block> {
        self.descend()?;
        let mut block = Block::default();
        self.object(Keys::Fields, |l, key, _| {
            match key {
                "attributes" => l.entries(&mut block.attributes, Loader::attribute)?,
                "block_types" => l.entries(&mut block.block_types, Loader::nested_block)?,
                "description" => block.description = l.string()?,
                "description_kind" => block.description_kind = l.description_kind()?,
                "deprecated" => block.deprecated = l.bool()?,
                "deprecation_message" => block.deprecation_message = l.string()?,
                _ => l.r.skip_value()?,
            }
            Ok(())
        })?;
        self.depth -= 1;
        Ok(block)
    }

    fn attribute(&mut self) -> Result<Attribute> {
        let mut a = Attribute::default();
        self.object(Keys::Fields, |l, key, _| {
            match key {
                "type" => a.ty = Some(crate::types::parse_type(&mut l.r)?),
                "nested_type" => a.nested_type = Some(l.nested_type()?),
                "description" => a.description = l.string()?,
                "description_kind" => a.description_kind = l.description_kind()?,
                "required" => a.required = l.bool()?,
                "optional" => a.optional = l.bool()?,
                "computed" => a.computed = l.bool()?,
                "sensitive" => a.sensitive = l.bool()?,
                "write_only" => a.write_only = l.bool()?,
                "deprecated" => a.deprecated = l.bool()?,
                "deprecation_message" => a.deprecation_message = l.string()?,
                _ => l.r.skip_value()?,
            }
            Ok(())
        })?;
        Ok(a)
    }

    fn nested_type(&mut self) -> Result<NestedType> {
        self.descend()?;
        let start = self.r.offset();
        let mut nested = NestedType::default();
        let mut nesting = None;
        self.object(Keys::Fields, |l, key, _| {
            match key {
                "nesting_mode" => {
                    nesting = Some(l.nesting(&ATTRIBUTE_NESTINGS, AttributeNesting::as_str)?)
                }
                "attributes" => l.entries(&mut nested.attributes, Loader::attribute)?,
                "min_items" => nested.min_items = l.count()?,
                "max_items" => nested.max_items = l.count()?,
                _ => l.r.skip_value()?,
            }
            Ok(())
        })?;
        nested.nesting = nesting.ok_or_else(|| missing_nesting(start))?;
        self.depth -= 1;
        Ok(nested)
    }

    fn nested_block(&mut self) -> Result<NestedBlock> {
        let start = self.r.offset();
        let mut nested = NestedBlock::default();
        let mut nesting = None;
        self.object(Keys::Fields, |l, key, _| {
            match key {
                "nesting_mode" => nesting = Some(l.nesting(&BLOCK_NESTINGS, BlockNesting::as_str)?),
                "block" => nested.block = l.block()?,
                "min_items" => nested.min_items = l.count()?,
                "max_items" => nested.max_items = l.count()?,
                _ => l.r.skip_value()?,
            }
            Ok(())
        })?;
        nested.nesting = nesting.ok_or_else(|| missing_nesting(start))?;
        Ok(nested)
    }

    /// A nesting mode: one of `modes`, by its name in schema JSON.
    fn nesting<T: Copy>(&mut self, modes: &[T], name: fn(T) -> &'static str) -> Result<T> {
        let at = self.r.offset();
        let found = self.str()?;
        modes
            .iter()
            .copied()
            .find(|&mode| name(mode) == found)
            .ok_or_else(|| {
                let names: Vec<&str> = modes.iter().map(|&mode| name(mode)).collect();
                invalid(
                    format!(
                        "invalid nesting mode: expected one of {}, found {found:?}",
                        names.join(", ")
                    ),
                    at,
                )
            })
    }

    fn description_kind(&mut self) -> Result<DescriptionKind> {
        if self.r.eat(b"\"plain\"") {
            return Ok(DescriptionKind::Plain);
        }
        let at = self.r.offset();
        match &*self.str()? {
            "plain" => Ok(DescriptionKind::Plain),
            "markdown" => Ok(DescriptionKind::Markdown),
            other => Err(invalid(
                format!("expected plain or markdown, found {other:?}"),
                at,
            )),
        }
    }
}

const ATTRIBUTE_NESTINGS: [AttributeNesting; 4] = [
    AttributeNesting::Single,
    AttributeNesting::List,
    AttributeNesting::Set,
    AttributeNesting::Map,
];

const BLOCK_NESTINGS: [BlockNesting; 5] = [
    BlockNesting::Single,
    BlockNesting::Group,
    BlockNesting::List,
    BlockNesting::Set,
    BlockNesting::Map,
];

fn missing_nesting(object_at: usize) -> Error {
    invalid("missing nesting_mode".to_owned(), object_at)
}

/// Accepts format versions 0.x and 1.x, as the format's rules ask: a new major version
/// is not compatible.
fn check_format_version(version: &str, at: usize) -> Result<()> {
    let major = version.split('.').next().unwrap_or_default();
    if matches!(major, "0" | "1") {
        Ok(())
    } else {
        Err(invalid(
            format!("unsupported format_version {version:?}: this crate reads 0.x and 1.x"),
            at,
        ))
    }
}
