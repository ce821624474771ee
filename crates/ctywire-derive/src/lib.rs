//! `#[derive(ctywire::Object)]`: a struct's cty object type and provider schema block,
//! declared once. Use it through the `ctywire` crate's `derive` feature, which re-exports
//! it as `ctywire::Object`; the trait it implements is `ctywire::object::Object`.
//!
//! On a struct with named fields, each field is an attribute or a nested block:
//!
//! | `#[cty(...)]` | meaning |
//! |---|---|
//! | `required`, `optional`, `computed` | how configuration and the provider set the attribute (one of them, or `optional, computed`) |
//! | `sensitive`, `write_only` | the attribute's flags |
//! | `deprecated = "why"` (or `deprecated`) | a deprecated attribute or block |
//! | `markdown` | the description (the doc comment) is Markdown |
//! | `rename = "name"` | the attribute's name (a `#[serde(rename = "...")]` is read too, and must agree) |
//! | `block`, `block(list, min_items = 1, max_items = 3)` | a nested block: `single`, `group`, `list`, `set` or `map`; by default from the field's type |
//! | `nested`, `nested(set)` | a protocol-6 nested attribute: `single`, `list`, `set` or `map`; by default from the field's type |
//! | `requires_replace` | a change of the attribute or block forces the resource's replacement (`ctywire::object::PlanModifiers`) |
//! | `requires_replace_if = function` | a change forces the replacement when `function(&prior, &planned) -> bool` (of the field's type) says so; an unknown plan without asking |
//! | `use_state_for_unknown` | a computed attribute keeps its prior value where the plan would make it unknown (never where the configuration is unknown) |
//! | `default = "standard"` (a string, number or bool) | an `optional, computed` attribute's value where the configuration leaves it null |
//! | `prefix = "srv-"`, `not_null` | what is known of a computed attribute's planned unknown (refinements) |
//! | `length(min = 1, max = 63)` | a string's length in characters (either bound may go) |
//! | `regex = "^[a-z]+$"` | a string matches the regular expression (checked when the struct builds) |
//! | `one_of("a", "b")` | the value is one of these (strings, numbers or bools) |
//! | `range(min = 1, max = 65535)` | a number within inclusive bounds |
//! | `size(min = 1, max = 3)` | a list's, set's or map's number of elements |
//! | `conflicts_with(other, ..)` | not set together with these fields of the same struct |
//! | `exactly_one_of(other, ..)`, `at_least_one_of(other, ..)` | of this field and these, exactly one / at least one set |
//! | `also_requires(other, ..)` | when set, these fields are set too |
//! | `validate = function` | `function(&value) -> Result<(), String>` (of the field's type) on each known, non-null value |
//!
//! The validation options are data (`ctywire::object::Validators`) that a provider
//! framework applies to configurations (`ctywire-provider` does at every
//! `Validate*Config`): unknown values are not checked, and each refusal is at its
//! attribute's path. The fields the sibling rules name are Rust field names, checked when
//! the struct builds.
//!
//! The derive also writes typed paths: `Name::path()` returns a builder
//! (`<Name as ctywire::object::Addressable>::Path`, a struct `NamePath` in a scope of its
//! own, so a type of that name beside it does not clash) with
//! one method per field (a misspelled one does not compile), through `index`, `key`,
//! `element` or `any` of collections (`Server::path().disk().any().kind()`; a nesting the
//! field names, as `block(set)` on a `Vec`, gives that nesting's steps); each is a
//! `ctywire::object::PathExpression` and converts into a `ctywire::Path`. And
//! `ctywire::object::FieldType::check_value` for the struct: what each field's Rust type
//! cannot hold (`22.5` for a `u16`), value by value.
//!
//! On the struct: its doc comment is the block's description, `#[cty(markdown)]` and
//! `#[cty(deprecated = "...")]` apply to the block.
//!
//! A field's doc comment is its description. The field's type gives the attribute's
//! cty type (`ctywire::object::FieldType`) and a block's nesting when the field does not
//! name it (`ctywire::object::BlockField`: `Vec<T>` LIST, `BTreeSet<T>` SET,
//! `BTreeMap<String, T>` MAP, `Option<T>` SINGLE, the struct itself GROUP; an `Option` or
//! `Known` of a collection keeps the collection's nesting, for a nested attribute that may
//! be null or unknown). What cannot
//! make a schema does not build: an unknown option, `required` with `optional` or
//! `computed`, an attribute with none of the three, a `default` on an attribute that is
//! not `optional, computed` (or of another type than its field), `use_state_for_unknown`,
//! `prefix` or `not_null` on one that
//! is not computed, a rule naming a field the struct does not have, a block of a type that cannot be a
//! block, a nested attribute whose struct has blocks, two fields with one attribute name.
//!
//! The derive also writes the struct's typed MessagePack codec,
//! `ctywire::object::MsgpackField`, which `ctywire::msgpack::decode_object` and
//! `encode_object` use: the attributes sorted as go-cty sorts them (bytewise), their keys
//! as the encoder writes them (header and name) as constants, each field read and written
//! by its type's own codec. A block whose wire type is not its Rust type's (a nesting the
//! field names, as `block(set)` on a `Vec`; a LIST or MAP block holding `dynamic`) is
//! read and written as that type (`ctywire::object::MsgpackField::encode_wire`): a `Vec`
//! holding a set in go-cty's set order, other shapes through a `ctywire::Value`,
//! converted.
//!
//! And its typed JSON codec, `ctywire::object::JsonField`, which
//! `ctywire::json::decode_object` and `encode_object` use: the attributes in the same
//! order, their names as the JSON encoder writes them (made once per struct by
//! `ctywire::object::json_keys`), each field by its type's own codec; an attribute the
//! input leaves out takes its type's `JsonField::left_out` (null), as JSON reads it.

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::{quote, quote_spanned};
use syn::parse::Parse;
use syn::spanned::Spanned;
use syn::{Attribute, Data, DeriveInput, Fields, LitInt, LitStr};

/// Derives `ctywire::object::Object` (and the traits that let the struct be a field of
/// another derived struct). See the crate documentation for the `#[cty(...)]` options.
#[proc_macro_derive(Object, attributes(cty))]
pub fn derive_object(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as DeriveInput);
    expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// How the block's nested blocks or attributes nest, as the field says.
#[derive(Clone, Copy)]
enum Nesting {
    Single,
    Group,
    List,
    Set,
    Map,
}

impl Nesting {
    fn parse(ident: &syn::Ident, group_allowed: bool) -> syn::Result<Nesting> {
        Ok(match ident.to_string().as_str() {
            "single" => Nesting::Single,
            "group" if group_allowed => Nesting::Group,
            "list" => Nesting::List,
            "set" => Nesting::Set,
            "map" => Nesting::Map,
            _ => {
                let expected = if group_allowed {
                    "single, group, list, set or map"
                } else {
                    "single, list, set or map"
                };
                return Err(syn::Error::new(
                    ident.span(),
                    format!("unknown nesting `{ident}`; expected {expected}"),
                ));
            }
        })
    }

    fn block_tokens(self) -> TokenStream2 {
        match self {
            Nesting::Single => quote!(::ctywire::schema::BlockNesting::Single),
            Nesting::Group => quote!(::ctywire::schema::BlockNesting::Group),
            Nesting::List => quote!(::ctywire::schema::BlockNesting::List),
            Nesting::Set => quote!(::ctywire::schema::BlockNesting::Set),
            Nesting::Map => quote!(::ctywire::schema::BlockNesting::Map),
        }
    }

    fn attribute_tokens(self) -> TokenStream2 {
        match self {
            Nesting::Single | Nesting::Group => {
                quote!(::ctywire::schema::AttributeNesting::Single)
            }
            Nesting::List => quote!(::ctywire::schema::AttributeNesting::List),
            Nesting::Set => quote!(::ctywire::schema::AttributeNesting::Set),
            Nesting::Map => quote!(::ctywire::schema::AttributeNesting::Map),
        }
    }
}

/// What a field is when it is not a plain attribute.
enum Kind {
    Block {
        nesting: Option<Nesting>,
        min_items: Option<LitInt>,
        max_items: Option<LitInt>,
    },
    Nested {
        nesting: Option<Nesting>,
    },
}

/// A field's `#[cty(...)]` options.
#[derive(Default)]
struct Options {
    required: Option<Span>,
    optional: Option<Span>,
    computed: Option<Span>,
    sensitive: Option<Span>,
    write_only: Option<Span>,
    markdown: bool,
    deprecated: Option<String>,
    rename: Option<LitStr>,
    block: Option<(Span, Kind)>,
    requires_replace: bool,
    use_state_for_unknown: Option<Span>,
    /// `default = literal`.
    default: Option<(Span, syn::Lit)>,
    /// `prefix = "..."`.
    prefix: Option<(Span, LitStr)>,
    not_null: Option<Span>,
    requires_replace_if: Option<syn::Path>,
    /// The validation rules, as tokens of `ctywire::object::Rule`.
    rules: Vec<TokenStream2>,
    /// The other fields a rule names (checked once all fields are known), with the
    /// rule's name: `conflicts_with(port)`.
    siblings: Vec<(&'static str, Vec<syn::Ident>)>,
    /// `validate = function`.
    validate: Option<syn::Path>,
}

/// `(min = 1, max = 3)`: either bound may be left out; numbers as written.
fn parse_bounds(
    meta: &syn::meta::ParseNestedMeta<'_>,
) -> syn::Result<(Option<syn::Expr>, Option<syn::Expr>)> {
    let (mut min, mut max) = (None, None);
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("min") {
            min = Some(inner.value()?.parse()?);
        } else if inner.path.is_ident("max") {
            max = Some(inner.value()?.parse()?);
        } else {
            return Err(inner.error("expected `min = ...` or `max = ...`"));
        }
        Ok(())
    })?;
    if min.is_none() && max.is_none() {
        return Err(meta.error("give a bound: `min = ...`, `max = ...` or both"));
    }
    Ok((min, max))
}

/// A whole, non-negative bound as `Option<u64>` tokens.
fn count_tokens(bound: &Option<syn::Expr>) -> syn::Result<TokenStream2> {
    match bound {
        None => Ok(quote!(::std::option::Option::None)),
        Some(e) => {
            let n: u64 = number_text(e)?
                .parse()
                .map_err(|_| syn::Error::new(e.span(), "a count: a whole number, 0 or more"))?;
            Ok(quote!(::std::option::Option::Some(#n)))
        }
    }
}

/// The text of a number literal, with its sign.
fn number_text(e: &syn::Expr) -> syn::Result<String> {
    match e {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => Ok(i.base10_digits().to_owned()),
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Float(f),
            ..
        }) => Ok(f.base10_digits().to_owned()),
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => Ok(format!("-{}", number_text(expr)?)),
        _ => Err(syn::Error::new(e.span(), "expected a number literal")),
    }
}

/// A number bound as `Option<ctywire::Number>` tokens.
fn number_tokens(bound: &Option<syn::Expr>) -> syn::Result<TokenStream2> {
    match bound {
        None => Ok(quote!(::std::option::Option::None)),
        Some(e) => {
            let text = number_text(e)?;
            Ok(quote!(::ctywire::Number::parse(#text).ok()))
        }
    }
}

/// A literal as `ctywire::Value` tokens: a string, a number or a bool.
fn value_tokens(lit: &syn::Lit) -> syn::Result<TokenStream2> {
    Ok(match lit {
        syn::Lit::Str(s) => quote!(::ctywire::Value::from(#s)),
        syn::Lit::Bool(b) => quote!(::ctywire::Value::from(#b)),
        syn::Lit::Int(i) => {
            let text = i.base10_digits();
            quote!(::ctywire::Value::from(::ctywire::Number::parse(#text).expect("a number literal")))
        }
        syn::Lit::Float(f) => {
            let text = f.base10_digits();
            quote!(::ctywire::Value::from(::ctywire::Number::parse(#text).expect("a number literal")))
        }
        _ => {
            return Err(syn::Error::new(
                lit.span(),
                "expected a string, number or bool literal",
            ))
        }
    })
}

/// A check, when the struct builds, that `lit` is a value of the field type `ty`.
fn literal_check(ty: &syn::Type, lit: &syn::Lit) -> TokenStream2 {
    let kind = match lit {
        syn::Lit::Str(_) => quote!(::ctywire::object::StringLiteral),
        syn::Lit::Bool(_) => quote!(::ctywire::object::BoolLiteral),
        _ => quote!(::ctywire::object::NumberLiteral),
    };
    quote_spanned! {lit.span()=>
        const _: fn() = || {
            fn literal_of<T: ?::std::marker::Sized + ::ctywire::object::TakesLiteral<L>, L>() {}
            literal_of::<#ty, #kind>();
        };
    }
}

fn idents(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<Vec<syn::Ident>> {
    let mut out = Vec::new();
    meta.parse_nested_meta(|inner| {
        match inner.path.get_ident() {
            Some(ident) => out.push(ident.clone()),
            None => return Err(inner.error("expected the name of another field")),
        }
        Ok(())
    })?;
    if out.is_empty() {
        return Err(meta.error("name at least one other field"));
    }
    Ok(out)
}

fn parse_options(attrs: &[Attribute], on_struct: bool) -> syn::Result<Options> {
    let mut o = Options::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("cty")) {
        attr.parse_nested_meta(|meta| {
            let name = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            let span = meta.path.span();
            let struct_refuses = |o: &str| {
                meta.error(format!(
                    "`{o}` applies to fields; on the struct, #[cty(...)] takes markdown and deprecated"
                ))
            };
            match name.as_str() {
                "markdown" => o.markdown = true,
                "deprecated" => {
                    o.deprecated = Some(if meta.input.peek(syn::Token![=]) {
                        meta.value()?.parse::<LitStr>()?.value()
                    } else {
                        String::new()
                    });
                }
                _ if on_struct => return Err(struct_refuses(&name)),
                "required" => o.required = Some(span),
                "optional" => o.optional = Some(span),
                "computed" => o.computed = Some(span),
                "sensitive" => o.sensitive = Some(span),
                "write_only" => o.write_only = Some(span),
                "requires_replace" => o.requires_replace = true,
                "use_state_for_unknown" => o.use_state_for_unknown = Some(span),
                "default" => o.default = Some((span, meta.value()?.parse()?)),
                "prefix" => o.prefix = Some((span, meta.value()?.parse()?)),
                "not_null" => o.not_null = Some(span),
                "requires_replace_if" => o.requires_replace_if = Some(meta.value()?.parse()?),
                "validate" => o.validate = Some(meta.value()?.parse()?),
                "length" | "size" => {
                    let (min, max) = parse_bounds(&meta)?;
                    let (min, max) = (count_tokens(&min)?, count_tokens(&max)?);
                    o.rules.push(if name == "length" {
                        quote!(::ctywire::object::Rule::Length { min: #min, max: #max })
                    } else {
                        quote!(::ctywire::object::Rule::Size { min: #min, max: #max })
                    });
                }
                "range" => {
                    let (min, max) = parse_bounds(&meta)?;
                    let (min, max) = (number_tokens(&min)?, number_tokens(&max)?);
                    o.rules.push(quote!(::ctywire::object::Rule::Range { min: #min, max: #max }));
                }
                "regex" => {
                    let pattern: LitStr = meta.value()?.parse()?;
                    if let Err(e) = regex_syntax::Parser::new().parse(&pattern.value()) {
                        return Err(syn::Error::new(pattern.span(), format!("not a regular expression: {e}")));
                    }
                    o.rules.push(quote!(::ctywire::object::Rule::Pattern(#pattern)));
                }
                "one_of" => {
                    let content;
                    syn::parenthesized!(content in meta.input);
                    let lits = content.parse_terminated(syn::Lit::parse, syn::Token![,])?;
                    if lits.is_empty() {
                        return Err(meta.error("list the values: one_of(\"a\", \"b\")"));
                    }
                    let values = lits.iter().map(value_tokens).collect::<syn::Result<Vec<_>>>()?;
                    o.rules.push(quote!(::ctywire::object::Rule::OneOf(::std::vec![#(#values),*])));
                }
                "conflicts_with" => o.siblings.push(("ConflictsWith", idents(&meta)?)),
                "exactly_one_of" => o.siblings.push(("ExactlyOneOf", idents(&meta)?)),
                "at_least_one_of" => o.siblings.push(("AtLeastOneOf", idents(&meta)?)),
                "also_requires" => o.siblings.push(("AlsoRequires", idents(&meta)?)),
                "rename" => o.rename = Some(meta.value()?.parse()?),
                "block" => {
                    let (mut nesting, mut min_items, mut max_items) = (None, None, None);
                    if meta.input.peek(syn::token::Paren) {
                        meta.parse_nested_meta(|inner| {
                            if inner.path.is_ident("min_items") {
                                min_items = Some(inner.value()?.parse()?);
                            } else if inner.path.is_ident("max_items") {
                                max_items = Some(inner.value()?.parse()?);
                            } else if let Some(ident) = inner.path.get_ident() {
                                nesting = Some(Nesting::parse(ident, true)?);
                            } else {
                                return Err(inner.error("expected a nesting, min_items or max_items"));
                            }
                            Ok(())
                        })?;
                    }
                    set_kind(&mut o, span, Kind::Block { nesting, min_items, max_items })?;
                }
                "nested" => {
                    let mut nesting = None;
                    if meta.input.peek(syn::token::Paren) {
                        meta.parse_nested_meta(|inner| {
                            match inner.path.get_ident() {
                                Some(ident) => nesting = Some(Nesting::parse(ident, false)?),
                                None => return Err(inner.error("expected single, list, set or map")),
                            }
                            Ok(())
                        })?;
                    }
                    set_kind(&mut o, span, Kind::Nested { nesting })?;
                }
                _ => {
                    return Err(meta.error(format!(
                        "unknown #[cty] option `{}`; expected required, optional, computed, sensitive, write_only, deprecated, markdown, rename, block, nested, requires_replace, requires_replace_if, use_state_for_unknown, default, prefix, not_null, length, regex, one_of, range, size, conflicts_with, exactly_one_of, at_least_one_of, also_requires or validate",
                        meta.path.get_ident().map(ToString::to_string).unwrap_or_else(|| "?".into())
                    )))
                }
            }
            Ok(())
        })?;
    }
    Ok(o)
}

fn set_kind(o: &mut Options, span: Span, kind: Kind) -> syn::Result<()> {
    if o.block.is_some() {
        return Err(syn::Error::new(
            span,
            "a field is one block or one nested attribute: `block` and `nested` go once and not together",
        ));
    }
    o.block = Some((span, kind));
    Ok(())
}

/// The field's name as serde has it (`#[serde(rename = "...")]`), if given; a container's
/// `rename_all` is refused, since the names would no longer be the fields'.
fn serde_rename(attrs: &[Attribute], on_struct: bool) -> syn::Result<Option<LitStr>> {
    let mut rename = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") && meta.input.peek(syn::Token![=]) {
                rename = Some(meta.value()?.parse::<LitStr>()?);
            } else if on_struct && meta.path.is_ident("rename_all") {
                return Err(meta.error(
                    "#[derive(ctywire::Object)] does not follow serde's rename_all: rename each field (#[cty(rename = \"...\")] and #[serde(rename = \"...\")])",
                ));
            } else if meta.input.peek(syn::Token![=]) {
                meta.value()?.parse::<syn::Expr>()?;
            } else if meta.input.peek(syn::token::Paren) {
                meta.input.parse::<proc_macro2::Group>()?;
            }
            Ok(())
        })?;
    }
    Ok(rename)
}

/// Whether the type `ty` names `ident` anywhere (`ident`, `Vec<ident>`, `a::ident`).
fn mentions(ty: &syn::Type, ident: &syn::Ident) -> bool {
    fn walk(tokens: TokenStream2, ident: &syn::Ident) -> bool {
        tokens.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => i == *ident,
            proc_macro2::TokenTree::Group(g) => walk(g.stream(), ident),
            _ => false,
        })
    }
    walk(quote!(#ty), ident)
}

/// The doc comment's text: lines joined, one leading space off each, trimmed.
fn doc_text(attrs: &[Attribute]) -> String {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .map(|line| line.strip_prefix(' ').unwrap_or(&line).to_owned())
        .collect();
    lines.join("\n").trim().to_owned()
}

fn description_tokens(target: TokenStream2, doc: &str, markdown: bool) -> TokenStream2 {
    let mut out = TokenStream2::new();
    if !doc.is_empty() {
        out.extend(quote!(#target.description = ::std::string::String::from(#doc);));
    }
    if markdown {
        out.extend(
            quote!(#target.description_kind = ::ctywire::schema::DescriptionKind::Markdown;),
        );
    }
    out
}

fn deprecation_tokens(target: TokenStream2, deprecated: &Option<String>) -> TokenStream2 {
    match deprecated {
        Some(message) => quote! {
            #target.deprecated = true;
            #target.deprecation_message = ::std::string::String::from(#message);
        },
        None => TokenStream2::new(),
    }
}

fn expand(input: &DeriveInput) -> syn::Result<TokenStream2> {
    let name = &input.ident;
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new(
            input.generics.span(),
            "#[derive(ctywire::Object)] takes a struct without generic parameters",
        ));
    }
    let fields = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(f) => &f.named,
            _ => {
                return Err(syn::Error::new(
                    name.span(),
                    "#[derive(ctywire::Object)] takes a struct with named fields",
                ))
            }
        },
        _ => {
            return Err(syn::Error::new(
                name.span(),
                "#[derive(ctywire::Object)] takes a struct with named fields",
            ))
        }
    };
    let container = parse_options(&input.attrs, true)?;
    serde_rename(&input.attrs, true)?;

    let mut body = description_tokens(quote!(block), &doc_text(&input.attrs), container.markdown);
    body.extend(deprecation_tokens(quote!(block), &container.deprecated));
    let mut has_blocks = false;
    let mut checks = TokenStream2::new();
    let mut modifiers = TokenStream2::new();
    let mut codec_fields: Vec<CodecField> = Vec::new();
    let mut validators = TokenStream2::new();
    let mut path_methods = TokenStream2::new();
    let mut value_checks = TokenStream2::new();
    // Each field's attribute name, for the rules that name other fields.
    let mut all_names: Vec<(syn::Ident, String)> = Vec::new();
    for field in fields {
        let ident = field.ident.clone().expect("named fields have names");
        let plain = ident.to_string();
        let plain = plain.strip_prefix("r#").unwrap_or(&plain).to_owned();
        let cty = parse_options(&field.attrs, false)
            .ok()
            .and_then(|o| o.rename)
            .map(|n| n.value());
        let serde = serde_rename(&field.attrs, false)
            .ok()
            .flatten()
            .map(|n| n.value());
        all_names.push((ident, cty.or(serde).unwrap_or(plain)));
    }

    for field in fields {
        let o = parse_options(&field.attrs, false)?;
        let ident = field.ident.as_ref().expect("named fields have names");
        let ty = &field.ty;
        let field_name = ident.to_string();
        let field_name = field_name.strip_prefix("r#").unwrap_or(&field_name);
        let serde_name = serde_rename(&field.attrs, false)?;
        let attribute_name = match (&o.rename, &serde_name) {
            (Some(cty), Some(serde)) if cty.value() != serde.value() => {
                return Err(syn::Error::new(
                    cty.span(),
                    format!(
                        "#[cty(rename = {:?})] and #[serde(rename = {:?})] disagree: the attribute has one name",
                        cty.value(),
                        serde.value()
                    ),
                ));
            }
            (Some(n), _) | (None, Some(n)) => n.value(),
            (None, None) => field_name.to_owned(),
        };
        let doc = doc_text(&field.attrs);
        if let Some(other) = codec_fields.iter().find(|f| f.name == attribute_name) {
            return Err(syn::Error::new(
                ident.span(),
                format!(
                    "the attribute name `{attribute_name}` is taken by the field `{}` too",
                    other.ident
                ),
            ));
        }
        codec_fields.push(CodecField {
            ident: ident.clone(),
            ty: ty.clone(),
            name: attribute_name.clone(),
            through_wire: o.block.is_some(),
        });
        if o.requires_replace {
            modifiers.extend(quote! {
                modifiers.requires_replace.push(::std::vec![::std::string::String::from(#attribute_name)]);
            });
        }
        let names = quote!(::std::vec![::std::string::String::from(#attribute_name)]);
        let computed_only = |at: Span, option: &str| {
            if o.computed.is_none() || o.block.is_some() {
                return Err(syn::Error::new(
                    at,
                    format!("`{option}` is for computed attributes, which the provider plans unknown: add `computed` (or `optional, computed`) to this attribute, or drop `{option}`"),
                ));
            }
            Ok(())
        };
        if let Some((at, lit)) = &o.default {
            if o.computed.is_none() || o.optional.is_none() || o.block.is_some() {
                return Err(syn::Error::new(
                    *at,
                    "`default` is for attributes that are `optional, computed`: the provider plans the default where the configuration leaves the attribute null, which Terraform accepts only from a computed attribute; write #[cty(optional, computed, default = ...)] (a required attribute has no default)",
                ));
            }
            let value = value_tokens(lit)?;
            modifiers.extend(quote! {
                modifiers.defaults.push((#names, #value));
            });
            checks.extend(literal_check(ty, lit));
        }
        if o.prefix.is_some() || o.not_null.is_some() {
            let at = o
                .prefix
                .as_ref()
                .map(|p| p.0)
                .or(o.not_null)
                .unwrap_or_else(Span::call_site);
            computed_only(
                at,
                if o.prefix.is_some() {
                    "prefix"
                } else {
                    "not_null"
                },
            )?;
            if let Some((_, p)) = &o.prefix {
                checks.extend(literal_check(ty, &syn::Lit::Str(p.clone())));
            }
            let prefix = o
                .prefix
                .iter()
                .map(|(_, p)| quote!(.with_string_prefix(#p)));
            let not_null = o.not_null.iter().map(|_| quote!(.not_null()));
            modifiers.extend(quote! {
                modifiers.refinements.push((#names, ::ctywire::Refinements::new() #(#not_null)* #(#prefix)*));
            });
        }
        if let Some(f) = &o.requires_replace_if {
            let check = quote_spanned! {f.span()=>
                {
                    let check: ::ctywire::object::ReplaceIf = |prior, planned| {
                        match (
                            ::ctywire::object::from_value::<#ty>(prior),
                            ::ctywire::object::from_value::<#ty>(planned),
                        ) {
                            (::std::result::Result::Ok(prior), ::std::result::Result::Ok(planned)) => #f(&prior, &planned),
                            _ => true,
                        }
                    };
                    check
                }
            };
            modifiers.extend(quote! {
                modifiers.requires_replace_if.push((#names, #check));
            });
        }
        let sensitive = o.sensitive.is_some();
        let mut rules = o.rules.clone();
        if let Some(f) = &o.validate {
            rules.push(quote_spanned! {f.span()=>
                ::ctywire::object::Rule::Custom({
                    let check: ::ctywire::object::CustomCheck = |value| {
                        match ::ctywire::object::from_value::<#ty>(value) {
                            ::std::result::Result::Ok(value) => #f(&value),
                            // What the type cannot hold is refused by the type's check.
                            ::std::result::Result::Err(_) => ::std::result::Result::Ok(()),
                        }
                    };
                    check
                })
            });
        }
        for (rule, others) in &o.siblings {
            let mut named = Vec::new();
            for other in others {
                match all_names.iter().find(|(i, _)| i == other) {
                    Some((_, n)) if other == ident => {
                        return Err(syn::Error::new(
                            other.span(),
                            format!(
                                "`{n}` names the field it is written on: name the other fields"
                            ),
                        ));
                    }
                    Some((_, n)) => named.push(n.clone()),
                    None => {
                        let fields = all_names
                            .iter()
                            .map(|(i, _)| i.to_string())
                            .collect::<Vec<_>>()
                            .join(", ");
                        return Err(syn::Error::new(
                            other.span(),
                            format!(
                                "`{name}` has no field `{other}`; name one of its fields: {fields}"
                            ),
                        ));
                    }
                }
            }
            let rule = syn::Ident::new(rule, Span::call_site());
            rules.push(quote!(::ctywire::object::Rule::#rule(::std::vec![#(::std::string::String::from(#named)),*])));
        }
        if !rules.is_empty() && o.block.is_some() {
            if let Some((span, Kind::Block { .. })) = &o.block {
                return Err(syn::Error::new(*span, "validation rules are for attributes; for a block's number of elements, use block(min_items = .., max_items = ..)"));
            }
        }
        for rule in rules {
            validators.extend(quote! {
                validators.0.push(::ctywire::object::Validator {
                    names: #names,
                    rule: #rule,
                    sensitive: #sensitive,
                });
            });
        }
        if o.block.is_some() {
            validators.extend(quote! {
                validators.extend_under(#attribute_name, <#ty as ::ctywire::object::BlockField>::validators());
            });
        }
        value_checks.extend(quote! {
            ::ctywire::object::check_attribute(value, #attribute_name, at, out, <#ty as ::ctywire::object::FieldType>::check_value);
        });
        let method_doc = format!("The path to `{attribute_name}`.");
        // A nesting the field names is the path's, whatever the Rust collection.
        let named = match &o.block {
            Some((
                _,
                Kind::Block {
                    nesting: Some(n), ..
                }
                | Kind::Nested { nesting: Some(n) },
            )) => match n {
                Nesting::List => Some(quote!(ListPath)),
                Nesting::Set => Some(quote!(SetPath)),
                Nesting::Map => Some(quote!(MapPath)),
                Nesting::Single | Nesting::Group => None,
            },
            _ => None,
        };
        let path_type = match named {
            Some(builder) => quote! {
                ::ctywire::object::#builder<
                    <<#ty as ::ctywire::object::Elements>::Element as ::ctywire::object::Addressable>::Path,
                >
            },
            None => quote_spanned!(ty.span()=> <#ty as ::ctywire::object::Addressable>::Path),
        };
        path_methods.extend(quote_spanned! {ident.span()=>
            #[doc = #method_doc]
            pub fn #ident(self) -> #path_type {
                ::ctywire::object::PathBuilder::from_expression(self.0.attribute(#attribute_name))
            }
        });
        if let Some(at) = o.use_state_for_unknown {
            computed_only(at, "use_state_for_unknown")?;
            modifiers.extend(quote! {
                modifiers.use_state_for_unknown.push(::std::vec![::std::string::String::from(#attribute_name)]);
            });
        }
        if o.block.is_some() {
            modifiers.extend(quote! {
                modifiers.extend_under(#attribute_name, <#ty as ::ctywire::object::BlockField>::plan_modifiers());
            });
        }
        let flags = [
            ("required", o.required),
            ("optional", o.optional),
            ("computed", o.computed),
            ("sensitive", o.sensitive),
            ("write_only", o.write_only),
        ];

        if let Some((
            span,
            Kind::Block {
                nesting,
                min_items,
                max_items,
            },
        )) = &o.block
        {
            if let Some((flag, Some(at))) = flags.iter().find(|(_, s)| s.is_some()) {
                return Err(syn::Error::new(
                    *at,
                    format!(
                        "`{flag}` is for attributes; a block's attributes say how they are set"
                    ),
                ));
            }
            let nesting = match nesting {
                Some(n) => n.block_tokens(),
                None => quote!(<#ty as ::ctywire::object::BlockField>::NESTING),
            };
            let element = quote_spanned!(*span=> <#ty as ::ctywire::object::BlockField>::block());
            let described = description_tokens(quote!(inner), &doc, o.markdown);
            let deprecated = deprecation_tokens(quote!(inner), &o.deprecated);
            let min = min_items.iter().map(|n| quote!(.min_items(#n)));
            let max = max_items.iter().map(|n| quote!(.max_items(#n)));
            body.extend(quote! {
                {
                    #[allow(unused_mut)]
                    let mut inner = #element;
                    #described
                    #deprecated
                    block.block_types.insert(
                        ::std::string::String::from(#attribute_name),
                        ::ctywire::schema::NestedBlock::new(#nesting, inner) #(#min)* #(#max)*,
                    );
                }
            });
            has_blocks = true;
            continue;
        }

        // An attribute: plain or nested.
        if o.required.is_none() && o.optional.is_none() && o.computed.is_none() {
            return Err(syn::Error::new(
                ident.span(),
                "an attribute says how it is set: #[cty(required)], #[cty(optional)], #[cty(computed)] or #[cty(optional, computed)] (or it is a #[cty(block)])",
            ));
        }
        if let (Some(at), true) = (o.required, o.optional.is_some() || o.computed.is_some()) {
            return Err(syn::Error::new(
                at,
                "`required` goes alone: an attribute is required, optional, computed, or optional and computed",
            ));
        }
        let attribute = match &o.block {
            Some((span, Kind::Nested { nesting })) => {
                let nesting = match nesting {
                    Some(n) => n.attribute_tokens(),
                    None => quote!(<#ty as ::ctywire::object::BlockField>::ATTRIBUTE_NESTING),
                };
                let message = format!(
                    "the nested attribute `{attribute_name}` holds a struct with nested blocks; a nested attribute has attributes only"
                );
                checks.extend(quote_spanned! {*span=>
                    const _: () = ::std::assert!(
                        !<#ty as ::ctywire::object::BlockField>::HAS_BLOCKS,
                        #message
                    );
                });
                quote_spanned! {*span=>
                    ::ctywire::schema::Attribute::nested(::ctywire::schema::NestedType::new(
                        #nesting,
                        <#ty as ::ctywire::object::BlockField>::block().attributes,
                    ))
                }
            }
            _ => quote_spanned! {ty.span()=>
                ::ctywire::schema::Attribute::new(<#ty as ::ctywire::object::FieldType>::cty_type())
            },
        };
        let set_flags = flags
            .iter()
            .filter(|(_, s)| s.is_some())
            .map(|(flag, _)| syn::Ident::new(flag, Span::call_site()))
            .map(|flag| quote!(attribute.#flag = true;));
        let described = description_tokens(quote!(attribute), &doc, o.markdown);
        let deprecated = deprecation_tokens(quote!(attribute), &o.deprecated);
        body.extend(quote! {
            {
                let mut attribute = #attribute;
                #(#set_flags)*
                #described
                #deprecated
                block.attributes.insert(::std::string::String::from(#attribute_name), attribute);
            }
        });
    }

    let codec = codec_tokens(name, codec_fields);
    let vis = &input.vis;
    let path_name = syn::Ident::new(&format!("{name}Path"), name.span());
    // The path struct lives in an anonymous `const` block, where its name shadows any
    // type of the same name only within the block: only a field whose type names it
    // could be confused, and that is refused here.
    for field in fields {
        if mentions(&field.ty, &path_name) {
            return Err(syn::Error::new(
                field.ty.span(),
                format!(
                    "#[derive(ctywire::Object)] names {name}'s typed path struct `{path_name}`, and this field's type names another `{path_name}`: rename that type, or import it under another name (`use ... as ...`)"
                ),
            ));
        }
    }
    let path_doc = format!("Typed paths into a [`{name}`]: one method for each attribute and block (made by `#[derive(ctywire::Object)]`; named as `<{name} as ctywire::object::Addressable>::Path`).");
    let root_doc =
        format!("The path to a whole [`{name}`]; its methods lead to its attributes and blocks.");
    Ok(quote! {
        const _: () = {
            #[doc = #path_doc]
            #[derive(Clone, Debug, PartialEq)]
            #[allow(dead_code)]
            #vis struct #path_name(::ctywire::object::PathExpression);

            impl ::ctywire::object::PathBuilder for #path_name {
                fn from_expression(expression: ::ctywire::object::PathExpression) -> Self {
                    #path_name(expression)
                }
                fn expression(&self) -> &::ctywire::object::PathExpression {
                    &self.0
                }
                fn into_expression(self) -> ::ctywire::object::PathExpression {
                    self.0
                }
            }

            impl ::std::convert::From<#path_name> for ::ctywire::object::PathExpression {
                fn from(builder: #path_name) -> ::ctywire::object::PathExpression {
                    builder.0
                }
            }

            impl ::std::convert::From<#path_name> for ::ctywire::Path {
                fn from(builder: #path_name) -> ::ctywire::Path {
                    ::ctywire::Path::from(builder.0)
                }
            }

            #[allow(dead_code, clippy::wrong_self_convention)]
            impl #path_name {
                #path_methods
            }

            impl ::ctywire::object::Addressable for #name {
                type Path = #path_name;
            }

            #[allow(dead_code)]
            impl #name {
                #[doc = #root_doc]
                pub fn path() -> <#name as ::ctywire::object::Addressable>::Path {
                    #path_name(::ctywire::object::PathExpression::root())
                }
            }
        };

        impl ::ctywire::object::Object for #name {
            fn schema_block() -> ::ctywire::schema::Block {
                #[allow(unused_mut)]
                let mut block = ::ctywire::schema::Block::new();
                #body
                block
            }

            const HAS_BLOCKS: bool = #has_blocks;

            fn plan_modifiers() -> ::ctywire::object::PlanModifiers {
                #[allow(unused_mut)]
                let mut modifiers = ::ctywire::object::PlanModifiers::default();
                #modifiers
                modifiers
            }

            fn validators() -> ::ctywire::object::Validators {
                #[allow(unused_mut)]
                let mut validators = ::ctywire::object::Validators::default();
                #validators
                validators
            }
        }

        impl ::ctywire::object::FieldType for #name {
            fn cty_type() -> ::ctywire::Type {
                <Self as ::ctywire::object::Object>::cty_type()
            }

            #[allow(unused_variables)]
            fn check_value(
                value: &::ctywire::Value,
                at: &::ctywire::Path,
                out: &mut ::std::vec::Vec<::ctywire::object::Invalid>,
            ) {
                #value_checks
            }
        }

        impl ::ctywire::object::BlockField for #name {
            const NESTING: ::ctywire::schema::BlockNesting = ::ctywire::schema::BlockNesting::Group;
            const ATTRIBUTE_NESTING: ::ctywire::schema::AttributeNesting =
                ::ctywire::schema::AttributeNesting::Single;
            const HAS_BLOCKS: bool = #has_blocks;
            fn block() -> ::ctywire::schema::Block {
                <Self as ::ctywire::object::Object>::schema_block()
            }
            fn plan_modifiers() -> ::ctywire::object::PlanModifiers {
                <Self as ::ctywire::object::Object>::plan_modifiers()
            }
            fn validators() -> ::ctywire::object::Validators {
                <Self as ::ctywire::object::Object>::validators()
            }
        }

        #checks

        #codec
    })
}

/// A field as the typed codec sees it.
struct CodecField {
    ident: syn::Ident,
    ty: syn::Type,
    /// The attribute's name.
    name: String,
    /// Whether the field is a block or nested attribute, whose wire type may differ
    /// from its Rust type's own (a nesting the field names, a LIST block holding
    /// `dynamic`): checked once, at run time, and read and written through a `Value`
    /// when it does.
    through_wire: bool,
}

/// The MessagePack key of an attribute as the encoder writes it: the str header and the
/// name's bytes.
fn msgpack_key(name: &str) -> Vec<u8> {
    let n = name.len();
    let mut out = Vec::with_capacity(n + 5);
    if n < 32 {
        out.push(0xa0 | n as u8);
    } else if n <= 0xff {
        out.extend_from_slice(&[0xd9, n as u8]);
    } else if n <= 0xffff {
        out.push(0xda);
        out.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        out.push(0xdb);
        out.extend_from_slice(&(n as u32).to_be_bytes());
    }
    out.extend_from_slice(name.as_bytes());
    out
}

/// The `JsonField` and `MsgpackField` impls: the typed codecs, with the attributes in go-cty's order
/// (bytewise by name) and their keys as constants.
fn codec_tokens(name: &syn::Ident, mut fields: Vec<CodecField>) -> TokenStream2 {
    fields.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    let n = fields.len();
    let keys = fields
        .iter()
        .map(|f| syn::LitByteStr::new(&msgpack_key(&f.name), Span::call_site()))
        .collect::<Vec<_>>();
    let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    let tys: Vec<&syn::Type> = fields.iter().map(|f| &f.ty).collect();
    let idents: Vec<&syn::Ident> = fields.iter().map(|f| &f.ident).collect();
    let vars: Vec<syn::Ident> = (0..n)
        .map(|i| syn::Ident::new(&format!("field_{i}"), Span::call_site()))
        .collect();
    let indexes: Vec<usize> = (0..n).collect();
    let any_wire = fields.iter().any(|f| f.through_wire);
    let field = quote!(::ctywire::object::MsgpackField);
    let result = quote!(::std::result::Result);
    let error = quote!(::ctywire::Error);
    // The wire types of the fields that may differ, made once.
    let wire_entries = fields.iter().map(|f| {
        let (ty, name) = (&f.ty, &f.name);
        if f.through_wire {
            quote!(::ctywire::object::wire_type_of::<#ty>(&ty, #name))
        } else {
            quote!(::std::option::Option::None)
        }
    });
    let wire_fn = if any_wire {
        quote! {
            fn wire() -> &'static [::std::option::Option<::ctywire::Type>] {
                static WIRE: ::std::sync::OnceLock<::std::vec::Vec<::std::option::Option<::ctywire::Type>>> =
                    ::std::sync::OnceLock::new();
                WIRE.get_or_init(|| {
                    let ty = <#name as ::ctywire::object::Object>::cty_type();
                    ::std::vec![#(#wire_entries),*]
                })
            }
        }
    } else {
        TokenStream2::new()
    };
    let per_field = |plain: &dyn Fn(&CodecField) -> TokenStream2,
                     via: &dyn Fn(&CodecField) -> TokenStream2|
     -> Vec<TokenStream2> {
        fields
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let plain = plain(f);
                if f.through_wire {
                    let via = via(f);
                    quote! {
                        match &wire()[#i] {
                            ::std::option::Option::Some(wire) => #via,
                            ::std::option::Option::None => #plain,
                        }
                    }
                } else {
                    plain
                }
            })
            .collect()
    };
    let decodes = per_field(
        &|f| {
            let ty = &f.ty;
            quote!(<#ty as #field>::decode_msgpack(r, depth + 1))
        },
        &|f| {
            let ty = &f.ty;
            quote!(::ctywire::object::decode_via::<#ty>(r, depth + 1, wire))
        },
    );
    let encodes = per_field(
        &|f| {
            let (ty, ident) = (&f.ty, &f.ident);
            quote!(<#ty as #field>::encode_msgpack(&self.#ident, out))
        },
        &|f| {
            let (ty, ident) = (&f.ty, &f.ident);
            quote!(::ctywire::object::encode_via::<#ty>(&self.#ident, wire, out))
        },
    );
    let hashes = per_field(
        &|f| {
            let (ty, ident) = (&f.ty, &f.ident);
            quote!(<#ty as #field>::set_hash_string(&self.#ident, out))
        },
        &|f| {
            let (ty, ident) = (&f.ty, &f.ident);
            quote!(::ctywire::object::set_hash_string_via::<#ty>(&self.#ident, wire, out))
        },
    );
    let cmps = per_field(
        &|f| {
            let (ty, ident) = (&f.ty, &f.ident);
            quote!(<#ty as #field>::cmp_set_hash(&self.#ident, &other.#ident, scratch))
        },
        &|f| {
            let (ty, ident) = (&f.ty, &f.ident);
            quote!(::ctywire::object::cmp_set_hash_via::<#ty>(&self.#ident, &other.#ident, wire, scratch))
        },
    );
    let concretes = per_field(
        &|f| {
            let (ty, ident) = (&f.ty, &f.ident);
            quote!(<#ty as #field>::concrete_type(&self.#ident))
        },
        &|f| {
            let (ty, ident) = (&f.ty, &f.ident);
            quote!(::ctywire::object::concrete_type_via::<#ty>(&self.#ident, wire))
        },
    );
    let has_concrete = fields.iter().enumerate().map(|(i, f)| {
        let (ty, ident) = (&f.ty, &f.ident);
        let plain = quote!(<#ty as #field>::has_concrete_type(&self.#ident, &types[#i]));
        let check = if f.through_wire {
            quote! {
                match &wire()[#i] {
                    ::std::option::Option::Some(wire) => ::ctywire::object::concrete_type_via::<#ty>(&self.#ident, wire)
                        .is_ok_and(|t| t == types[#i]),
                    ::std::option::Option::None => #plain,
                }
            }
        } else {
            plain
        };
        quote!((!<#ty as #field>::HAS_DYNAMIC || #check))
    });
    let json = quote!(::ctywire::object::JsonField);
    let json_decodes = per_field(
        &|f| {
            let ty = &f.ty;
            quote!(<#ty as #json>::decode_json(r, depth + 1))
        },
        &|f| {
            let ty = &f.ty;
            quote!(::ctywire::object::decode_json_via::<#ty>(r, depth + 1, wire))
        },
    );
    // The type the value decoder reads each attribute with.
    let json_types = fields.iter().enumerate().map(|(i, f)| {
        let ty = &f.ty;
        if f.through_wire {
            quote!(wire()[#i].clone().unwrap_or_else(<#ty as ::ctywire::object::FieldType>::cty_type))
        } else {
            quote!(<#ty as ::ctywire::object::FieldType>::cty_type())
        }
    });
    let refused: Vec<syn::Ident> = (0..n)
        .map(|i| syn::Ident::new(&format!("refused_{i}"), Span::call_site()))
        .collect();
    let json_encodes = per_field(
        &|f| {
            let (ty, ident) = (&f.ty, &f.ident);
            quote!(<#ty as #json>::encode_json(&self.#ident, out))
        },
        &|f| {
            let (ty, ident) = (&f.ty, &f.ident);
            quote!(::ctywire::object::encode_json_via::<#ty>(&self.#ident, wire, out))
        },
    );
    quote! {
        impl #json for #name {
            #[allow(unused_mut, unused_variables, clippy::single_match)]
            fn decode_json(
                r: &mut ::ctywire::object::JsonReader<'_>,
                depth: usize,
            ) -> #result<Self, #error> {
                const NAMES: [&str; #n] = [#(#names),*];
                #wire_fn
                let at = r.begin_object(depth)?;
                let mut next = 0usize;
                let mut given = 0usize;
                #(let mut #vars: ::std::option::Option<#tys> = ::std::option::Option::None;)*
                // What the Rust type could not hold, unless a repeated attribute replaces it.
                #(let mut #refused: ::std::option::Option<#error> = ::std::option::Option::None;)*
                while let ::std::option::Option::Some(i) = r.attribute(&NAMES, &mut next)? {
                    match i {
                        #(#indexes => {
                            let read = ::ctywire::object::in_attribute(
                                r.replaceable(depth + 1, |r| #json_decodes, || #json_types),
                                NAMES[#indexes],
                            )?;
                            match read {
                                #result::Ok(v) => {
                                    #vars = ::std::option::Option::Some(v);
                                    #refused = ::std::option::Option::None;
                                }
                                #result::Err(e) => {
                                    #vars = ::std::option::Option::None;
                                    #refused = ::std::option::Option::Some(e);
                                }
                            }
                        })*
                        _ => {}
                    }
                    given += 1;
                }
                r.end_object(#n, given, at)?;
                #(
                    if let ::std::option::Option::Some(e) = #refused {
                        return ::ctywire::object::in_attribute(#result::Err(e), NAMES[#indexes]);
                    }
                )*
                #result::Ok(#name {
                    #(#idents: match #vars {
                        ::std::option::Option::Some(v) => v,
                        ::std::option::Option::None => ::ctywire::object::attribute_left_out::<#tys>(NAMES[#indexes], at)?,
                    },)*
                })
            }

            #[allow(unused_variables)]
            fn encode_json(&self, out: &mut ::std::vec::Vec<u8>) -> #result<(), #error> {
                const NAMES: [&str; #n] = [#(#names),*];
                static KEYS: ::std::sync::OnceLock<::std::vec::Vec<::std::boxed::Box<[u8]>>> =
                    ::std::sync::OnceLock::new();
                let keys = KEYS.get_or_init(|| ::ctywire::object::json_keys(&NAMES));
                #wire_fn
                out.push(b'{');
                #(
                    out.extend_from_slice(&keys[#indexes]);
                    ::ctywire::object::in_attribute(#json_encodes, NAMES[#indexes])?;
                )*
                out.push(b'}');
                #result::Ok(())
            }
        }

        impl #field for #name {
            const HAS_DYNAMIC: bool = false #(|| <#tys as #field>::HAS_DYNAMIC)*;

            #[allow(unused_mut, unused_variables, clippy::single_match, clippy::reversed_empty_ranges, unused_labels)]
            fn decode_msgpack(
                r: &mut ::ctywire::object::MsgpackReader<'_>,
                depth: usize,
            ) -> #result<Self, #error> {
                const KEYS: [&[u8]; #n] = [#(#keys),*];
                const NAMES: [&str; #n] = [#(#names),*];
                #wire_fn
                r.object_header(#n, depth, <#name as ::ctywire::object::Object>::cty_type)?;
                let mut next = 0usize;
                let mut seen = [false; #n];
                #(let mut #vars: ::std::option::Option<#tys> = ::std::option::Option::None;)*
                // go-cty writes the attributes in name order: read them so, one after
                // the other without a loop or a jump on the index, while the keys come
                // as expected; from the first that does not, the loop below reads on.
                'in_order: {
                    #(
                        if !r.next_attribute_is(KEYS[#indexes]) {
                            break 'in_order;
                        }
                        #vars = ::std::option::Option::Some(
                            ::ctywire::object::in_attribute(#decodes, NAMES[#indexes])?,
                        );
                        seen[#indexes] = true;
                        next += 1;
                    )*
                }
                for _ in next..#n {
                    match r.attribute(&KEYS, &NAMES, &mut next, &mut seen)? {
                        #(#indexes => {
                            #vars = ::std::option::Option::Some(
                                ::ctywire::object::in_attribute(#decodes, NAMES[#indexes])?,
                            );
                        })*
                        _ => {}
                    }
                }
                #result::Ok(#name {
                    #(#idents: match #vars {
                        ::std::option::Option::Some(v) => v,
                        ::std::option::Option::None => {
                            return #result::Err(::ctywire::object::missing_attribute(NAMES[#indexes]))
                        }
                    },)*
                })
            }

            #[allow(unused_variables)]
            fn encode_msgpack(&self, out: &mut ::std::vec::Vec<u8>) -> #result<(), #error> {
                const KEYS: [&[u8]; #n] = [#(#keys),*];
                const NAMES: [&str; #n] = [#(#names),*];
                #wire_fn
                ::ctywire::object::write_object_header(#n, out);
                #(
                    out.extend_from_slice(KEYS[#indexes]);
                    ::ctywire::object::in_attribute(#encodes, NAMES[#indexes])?;
                )*
                #result::Ok(())
            }

            #[allow(unused_variables)]
            fn set_hash_string(&self, out: &mut ::std::vec::Vec<u8>) -> #result<(), #error> {
                #wire_fn
                out.push(b'<');
                #(
                    #hashes?;
                    out.push(b';');
                )*
                out.push(b'>');
                #result::Ok(())
            }

            // Attribute by attribute in go-cty's order: the first whose hash strings
            // differ decides, as no attribute's hash string followed by `;` starts
            // another's (strings are quoted, composites bracketed, and numbers, bools,
            // null and unknown hold no `;`).
            #[allow(unused_variables)]
            fn cmp_set_hash(
                &self,
                other: &Self,
                scratch: &mut ::ctywire::object::HashScratch,
            ) -> #result<::std::cmp::Ordering, #error> {
                #wire_fn
                #(
                    match #cmps? {
                        ::std::cmp::Ordering::Equal => {}
                        decided => return #result::Ok(decided),
                    }
                )*
                #result::Ok(::std::cmp::Ordering::Equal)
            }

            #[allow(unused_variables)]
            fn concrete_type(&self) -> #result<::ctywire::Type, #error> {
                if !<Self as #field>::HAS_DYNAMIC {
                    return #result::Ok(<#name as ::ctywire::object::Object>::cty_type());
                }
                const NAMES: [&str; #n] = [#(#names),*];
                #wire_fn
                let types: [(&str, ::ctywire::Type); #n] = [
                    #((NAMES[#indexes], ::ctywire::object::in_attribute(#concretes, NAMES[#indexes])?),)*
                ];
                #result::Ok(::ctywire::Type::object(types))
            }

            #[allow(unused_variables)]
            fn has_concrete_type(&self, ty: &::ctywire::Type) -> bool {
                // Another value of this struct's concrete type: the attributes that do not
                // hold `dynamic` have their own types there.
                let ::ctywire::Type::Object(o) = ty else { return false };
                let types = o.types();
                if types.len() != #n {
                    return false;
                }
                #wire_fn
                true #(&& #has_concrete)*
            }
        }
    }
}
