//! What a provider writes in every `PlanResourceChange`, driven by the schema: computed
//! attributes made unknown, prior values kept where the provider knows they stay
//! (terraform-plugin-framework's `UseStateForUnknown`), defaults, and the paths whose
//! change forces a replacement.

use crate::path::Path;
use crate::schema::{Attribute, AttributeNesting, Block, BlockNesting};
use crate::value::{Refinements, Value};
use crate::Result;

impl Block {
    /// The plan for the computed attributes: Terraform's proposed new state with every
    /// computed attribute that the configuration leaves null made unknown, refined by
    /// `refine` (which gets the attribute's path; return [`Refinements::new`] for a plain
    /// unknown), as terraform-plugin-framework plans them:
    ///
    /// - a destroy (`proposed` null) plans null;
    /// - a create (`prior` null) makes them unknown;
    /// - an update makes them unknown only when something changes (`proposed` is not
    ///   raw-equal to `prior`); when nothing changes, the proposed state (which holds
    ///   the prior values) is the plan.
    ///
    /// Blocks and nested attribute objects are walked with the configuration beside
    /// them (LIST by index, MAP by key, SINGLE and GROUP as they are). The elements of a
    /// SET have nothing to correlate them with their configuration by, so within them
    /// an attribute counts as left unset where the proposed element holds null. Keep
    /// what is known not to change with [`keep_prior`](Block::keep_prior).
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block};
    /// use ctywire::{Path, Refinements, Type, Value};
    ///
    /// let block = Block::new()
    ///     .attribute("name", Attribute::new(Type::String).required())
    ///     .attribute("id", Attribute::new(Type::String).computed());
    /// let config = Value::object([("name", Value::from("a")), ("id", Value::Null)]);
    /// let proposed = block.proposed_new(&Value::Null, &config);
    ///
    /// let planned = block.mark_computed_unknown(&Value::Null, &config, &proposed, |path| {
    ///     if *path == Path::root().attribute("id") {
    ///         Refinements::new().not_null().with_string_prefix("thing-")
    ///     } else {
    ///         Refinements::new()
    ///     }
    /// });
    /// assert_eq!(planned["id"].refinements().and_then(|r| r.string_prefix()), Some("thing-"));
    /// assert!(block.check_plan(&Value::Null, &config, &planned).is_empty());
    /// ```
    pub fn mark_computed_unknown(
        &self,
        prior: &Value,
        config: &Value,
        proposed: &Value,
        refine: impl Fn(&Path) -> Refinements,
    ) -> Value {
        if proposed.is_null() {
            return Value::Null;
        }
        if !prior.is_null() && prior.raw_equals(proposed, &self.implied_type()) {
            return proposed.clone();
        }
        let mut planned = proposed.clone();
        let mut path = Path::root();
        block_unknowns(self, config, &mut planned, &mut path, &refine);
        planned
    }

    /// `planned` with the prior value put back wherever `planned` is unknown and `keep`
    /// says the value does not change (terraform-plugin-framework's
    /// `UseStateForUnknown`): an id assigned at create, a creation time. Nothing is put
    /// back on a create (no prior) or a destroy (null plan), nor where the prior value
    /// is null or itself unknown, nor inside a set's elements (which have no position to
    /// find their prior selves by).
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block};
    /// use ctywire::{Path, Refinements, Type, Value};
    ///
    /// let block = Block::new()
    ///     .attribute("size", Attribute::new(Type::Number).optional())
    ///     .attribute("id", Attribute::new(Type::String).computed())
    ///     .attribute("etag", Attribute::new(Type::String).computed());
    /// let prior = Value::object([("size", Value::from(1)), ("id", Value::from("i-1")), ("etag", Value::from("e1"))]);
    /// let config = Value::object([("size", Value::from(2)), ("id", Value::Null), ("etag", Value::Null)]);
    /// let proposed = block.proposed_new(&prior, &config);
    /// let planned = block.mark_computed_unknown(&prior, &config, &proposed, |_| Refinements::new());
    /// assert!(planned["id"].is_unknown() && planned["etag"].is_unknown());
    ///
    /// let id = Path::root().attribute("id");
    /// let planned = block.keep_prior(&prior, &planned, |path| *path == id);
    /// assert_eq!(planned["id"].as_str(), Some("i-1"));
    /// assert!(planned["etag"].is_unknown());
    /// ```
    pub fn keep_prior(
        &self,
        prior: &Value,
        planned: &Value,
        keep: impl Fn(&Path) -> bool,
    ) -> Value {
        if prior.is_null() || planned.is_null() {
            return planned.clone();
        }
        let mut out = planned.clone();
        for path in planned.unknown_paths(&self.implied_type()) {
            if !keep(&path) || passes_through_a_set(planned, &path) {
                continue;
            }
            if let Some(before) = prior
                .at_path(&path)
                .filter(|v| !v.is_null() && !v.is_unknown())
            {
                // The path leads to an unknown in `out`, so setting it cannot fail.
                let _ = out.set_at_path(&path, before.clone());
            }
        }
        out
    }

    /// `planned` with `defaults` filled in wherever the configuration leaves the
    /// attribute null (an optional and computed attribute's default, which the provider
    /// plans). A default at a path `planned` does not have is an error.
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block};
    /// use ctywire::{Path, Type, Value};
    ///
    /// let block = Block::new().attribute("tier", Attribute::new(Type::String).optional().computed());
    /// let config = Value::object([("tier", Value::Null)]);
    /// let tier = Path::root().attribute("tier");
    /// let planned = block.apply_defaults(&config, &config, &[(tier, Value::from("standard"))])?;
    /// assert_eq!(planned["tier"].as_str(), Some("standard"));
    /// assert!(block.check_plan(&Value::Null, &config, &planned).is_empty());
    /// # Ok::<(), ctywire::Error>(())
    /// ```
    pub fn apply_defaults(
        &self,
        config: &Value,
        planned: &Value,
        defaults: &[(Path, Value)],
    ) -> Result<Value> {
        let mut out = planned.clone();
        for (path, default) in defaults {
            if config.at_path(path).is_none_or(Value::is_null) {
                out.set_at_path(path, default.clone())?;
            }
        }
        Ok(out)
    }

    /// Which of `paths` change from `prior` to `planned`, for the response's
    /// `RequiresReplace`: none on a create or a destroy; a path changes where the two
    /// values differ (an unknown plan counts as a change, as in
    /// terraform-plugin-framework's `RequiresReplace`).
    ///
    /// ```
    /// use ctywire::schema::{Attribute, Block};
    /// use ctywire::{Path, Type, Value};
    ///
    /// let block = Block::new()
    ///     .attribute("name", Attribute::new(Type::String).required())
    ///     .attribute("size", Attribute::new(Type::Number).optional());
    /// let prior = Value::object([("name", Value::from("a")), ("size", Value::from(1))]);
    /// let planned = Value::object([("name", Value::from("b")), ("size", Value::from(1))]);
    /// let name = Path::root().attribute("name");
    /// let size = Path::root().attribute("size");
    /// assert_eq!(block.requires_replace(&prior, &planned, &[name.clone(), size]), [name]);
    /// ```
    pub fn requires_replace(&self, prior: &Value, planned: &Value, paths: &[Path]) -> Vec<Path> {
        if prior.is_null() || planned.is_null() {
            return Vec::new();
        }
        paths
            .iter()
            .filter(|path| prior.at_path(path) != planned.at_path(path))
            .cloned()
            .collect()
    }
}

/// Whether `path` goes into an element of a set in `value`.
fn passes_through_a_set(value: &Value, path: &Path) -> bool {
    let mut prefix = Path::root();
    path.steps().iter().any(|step| {
        let in_set = matches!(
            value.at_path(&prefix).map(Value::untyped),
            Some(Value::Set(_))
        );
        prefix.push(step.clone());
        in_set
    })
}

/// Marks the computed attributes of `block` that `config` leaves null unknown in
/// `planned`, at `path`, and goes into its blocks and nested attribute objects.
fn block_unknowns(
    block: &Block,
    config: &Value,
    planned: &mut Value,
    path: &mut Path,
    refine: &dyn Fn(&Path) -> Refinements,
) {
    let Value::Object(object) = planned.untyped_mut() else {
        return;
    };
    for (name, attribute) in &block.attributes {
        let configured = config.get(name).unwrap_or(&Value::Null);
        let Some(slot) = object.get_mut(name) else {
            continue;
        };
        path.push(crate::path::PathStep::Attribute(name.clone()));
        attribute_unknowns(attribute, configured, slot, path, refine);
        path.pop();
    }
    for (name, nested) in &block.block_types {
        let configured = config.get(name).unwrap_or(&Value::Null);
        let Some(slot) = object.get_mut(name) else {
            continue;
        };
        path.push(crate::path::PathStep::Attribute(name.clone()));
        match nested.nesting {
            BlockNesting::Single | BlockNesting::Group => {
                block_unknowns(&nested.block, configured, slot, path, refine);
            }
            _ => elements(configured, slot, path, &mut |c, p, path| {
                block_unknowns(&nested.block, c, p, path, refine)
            }),
        }
        path.pop();
    }
}

fn attribute_unknowns(
    attribute: &Attribute,
    configured: &Value,
    slot: &mut Value,
    path: &mut Path,
    refine: &dyn Fn(&Path) -> Refinements,
) {
    if attribute.computed && configured.is_null() {
        *slot = Value::Unknown(refine(path));
        return;
    }
    let Some(nested) = &attribute.nested_type else {
        return;
    };
    let mut object = |c: &Value, p: &mut Value, path: &mut Path| {
        let Value::Object(o) = p.untyped_mut() else {
            return;
        };
        for (name, a) in &nested.attributes {
            let configured = c.get(name).unwrap_or(&Value::Null);
            if let Some(slot) = o.get_mut(name) {
                path.push(crate::path::PathStep::Attribute(name.clone()));
                attribute_unknowns(a, configured, slot, path, refine);
                path.pop();
            }
        }
    };
    match nested.nesting {
        AttributeNesting::Single => object(configured, slot, path),
        _ => elements(configured, slot, path, &mut object),
    }
}

/// Runs `each` on the elements of a list, map or set in `planned`, each with its
/// configuration (by index or key; a set element with itself) and its path.
fn elements(
    config: &Value,
    planned: &mut Value,
    path: &mut Path,
    each: &mut dyn FnMut(&Value, &mut Value, &mut Path),
) {
    match planned.untyped_mut() {
        Value::List(items) | Value::Tuple(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                let c = config.get_index(i).cloned().unwrap_or(Value::Null);
                path.push(crate::path::PathStep::Index(i as u64));
                each(&c, item, path);
                path.pop();
            }
        }
        Value::Map(map) => {
            let keys: Vec<String> = map.keys().map(str::to_owned).collect();
            for key in keys {
                let c = config.get(&key).cloned().unwrap_or(Value::Null);
                if let Some(item) = map.get_mut(&key) {
                    path.push(crate::path::PathStep::Key(key));
                    each(&c, item, path);
                    path.pop();
                }
            }
        }
        Value::Set(set) => {
            let mut items = std::mem::take(set).into_vec();
            for item in &mut items {
                let c = item.clone();
                path.push(crate::path::PathStep::SetElement(c.clone()));
                each(&c, item, path);
                path.pop();
            }
            *set = crate::value::Set::new(items);
        }
        _ => {}
    }
}
