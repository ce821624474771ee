//! The plan a resource gets without writing one: Terraform's proposed new state, the
//! declared defaults where the configuration leaves an attribute null, the computed
//! attributes unknown (with their declared refinements) where the resource changes, the
//! prior value kept where the struct says `use_state_for_unknown`, and the
//! `requires_replace` (or `requires_replace_if`) attributes that change.

use ctywire::object::PlanModifiers;
use ctywire::schema::{AttributeNesting, Block, BlockNesting};
use ctywire::{Path, PathStep, Refinements, Value};

/// The planned state and the paths whose change forces a replacement.
///
/// - a destroy (a null configuration) plans null;
/// - write-only attributes are null (Terraform never plans nor stores their values;
///   create and update read them with [`Context::config`](crate::Context::config));
/// - a `default` fills an optional and computed attribute the configuration leaves
///   null (in list and map elements too; not inside a set's elements, which have no
///   identity to plan one by);
/// - computed attributes the configuration leaves null become unknown on a create, and
///   on an update that changes something ([`Block::mark_computed_unknown`]), with what
///   the struct declares of them (`prefix`, `not_null`);
/// - a `use_state_for_unknown` attribute left unknown takes its prior value back,
///   unless the configuration itself is unknown there (the value then is not known to
///   stay);
/// - each `requires_replace` attribute or block whose planned value differs from its
///   prior one (an unknown counts as a change) is a replacement path, and each
///   `requires_replace_if` one whose function says so (an unknown plan counts without
///   asking it). Inside a list or map each element's attribute is compared by index or
///   key; a set's elements have no identity but their value, so a declaration inside a
///   set compares the whole set.
///
/// `proposed` is planned in place (no copy of it is made unless a declaration needs
/// one). `proposed_is_prior` says the caller knows the two are the same value (Terraform
/// sent the same bytes for both: nothing changes), which spares comparing them.
///
/// # Errors
///
/// When a default does not fit its attribute's type.
pub fn plan(
    block: &Block,
    modifiers: &PlanModifiers,
    prior: &Value,
    config: &Value,
    proposed: Value,
    proposed_is_prior: bool,
) -> ctywire::Result<Planned> {
    if config.is_null() {
        return Ok(Planned {
            value: Value::Null,
            replace: Vec::new(),
            as_proposed: false,
        });
    }
    let mut defaults = Vec::new();
    for (names, value) in &modifiers.defaults {
        let mut found = Vec::new();
        concrete(config, names, Path::root(), &mut found);
        defaults.extend(
            found
                .into_iter()
                .filter(|path| matches(names, path))
                .map(|path| (path, value.clone())),
        );
    }
    let mut planned = proposed;
    // Write-only values first: the configuration's are no change of the object.
    let mut as_proposed = !block.contains_write_only();
    planned = null_write_only(block, planned);
    as_proposed &= !apply_defaults(config, &mut planned, &defaults)?;
    // Block::mark_computed_unknown's test of whether the update changes anything, with
    // the caller's knowledge first.
    let unchanged = !prior.is_null()
        && ((proposed_is_prior && as_proposed)
            || prior.raw_equals(&planned, &block.implied_type()));
    if !planned.is_null() && !unchanged {
        // A null prior: mark_computed_unknown marks without comparing again.
        planned = block.mark_computed_unknown(&Value::Null, config, &planned, |path| {
            modifiers
                .refinements
                .iter()
                .find(|(names, _)| matches(names, path))
                .map_or_else(Refinements::new, |(_, r)| r.clone())
        });
        apply_defaults(config, &mut planned, &defaults)?;
        as_proposed = false;
        // An unchanged plan is the prior state, which holds no unknown to keep.
        if !modifiers.use_state_for_unknown.is_empty() {
            planned = block.keep_prior(prior, &planned, |path| {
                modifiers
                    .use_state_for_unknown
                    .iter()
                    .any(|names| matches(names, path))
                    && !config.at_path(path).is_some_and(Value::is_unknown)
            });
        }
    }
    let mut found = Vec::new();
    for names in &modifiers.requires_replace {
        for value in [prior, &planned] {
            concrete(value, names, Path::root(), &mut found);
        }
    }
    let mut paths: Vec<Path> = Vec::with_capacity(found.len());
    for path in found {
        if !paths.contains(&path) {
            paths.push(path);
        }
    }
    let mut replace = block.requires_replace(prior, &planned, &paths);
    for (names, replace_if) in &modifiers.requires_replace_if {
        let mut found = Vec::new();
        for value in [prior, &planned] {
            concrete(value, names, Path::root(), &mut found);
        }
        for path in block.requires_replace(prior, &planned, &found) {
            let after = planned.at_path(&path).unwrap_or(&Value::Null);
            let before = prior.at_path(&path).unwrap_or(&Value::Null);
            let replaces = !after.is_wholly_known() || replace_if(before, after);
            if replaces && !replace.contains(&path) {
                replace.push(path);
            }
        }
    }
    Ok(Planned {
        value: planned,
        replace,
        as_proposed,
    })
}

/// What [`plan`] planned.
pub struct Planned {
    /// The planned state.
    pub value: Value,
    /// The paths whose change forces a replacement.
    pub replace: Vec<Path>,
    /// Whether the planned state is the proposed one as it came (nothing was written
    /// into it), so that the proposed state's bytes can answer for it.
    pub as_proposed: bool,
}

/// `defaults` written into `planned` where the configuration leaves their attribute
/// null ([`Block::apply_defaults`] in place); whether any was.
fn apply_defaults(
    config: &Value,
    planned: &mut Value,
    defaults: &[(Path, Value)],
) -> ctywire::Result<bool> {
    let mut wrote = false;
    for (path, default) in defaults {
        if config.at_path(path).is_none_or(Value::is_null) {
            planned.set_at_path(path, default.clone())?;
            wrote = true;
        }
    }
    Ok(wrote)
}

/// `value` (of `block`'s type) with each write-only attribute null, in nested
/// attributes and blocks too: what Terraform requires of planned and new states.
///
/// Linear in the value: each attribute that holds a write-only one is taken out of its
/// object, changed and put back, and nothing else is copied.
pub fn null_write_only(block: &Block, mut value: Value) -> Value {
    if block.contains_write_only() {
        null_in_object(block, &mut value);
    }
    value
}

/// [`null_write_only`] in place, for a block known to hold a write-only attribute.
fn null_in_object(block: &Block, value: &mut Value) {
    for (name, attribute) in &block.attributes {
        if !attribute.contains_write_only() {
            continue;
        }
        let Some(slot) = value.at_path_mut(&Path::root().attribute(name.as_str())) else {
            continue;
        };
        if attribute.write_only {
            *slot = Value::Null;
        } else if let Some(nested) = attribute.nested_type.as_ref() {
            let mut objects = Block::new();
            objects.attributes.clone_from(&nested.attributes);
            match nested.nesting {
                AttributeNesting::Single => null_in_object(&objects, slot),
                _ => each_element(slot, |v| null_in_object(&objects, v)),
            }
        }
    }
    for (name, nested) in &block.block_types {
        if !nested.block.contains_write_only() {
            continue;
        }
        let Some(slot) = value.at_path_mut(&Path::root().attribute(name.as_str())) else {
            continue;
        };
        match nested.nesting {
            BlockNesting::Single | BlockNesting::Group => null_in_object(&nested.block, slot),
            _ => each_element(slot, |v| null_in_object(&nested.block, v)),
        }
    }
}

/// A list's, set's or map's elements through `f`, in place (a set is built again, its
/// elements changed); anything else as it is.
fn each_element(value: &mut Value, f: impl Fn(&mut Value)) {
    match value {
        Value::Typed(typed) => each_element(&mut typed.value, f),
        Value::List(elements) => elements.iter_mut().for_each(f),
        Value::Map(map) if !map.is_empty() => {
            let mut pairs = std::mem::take(map).into_vec();
            pairs.iter_mut().for_each(|(_, v)| f(v));
            *value = Value::map(pairs);
        }
        Value::Set(set) if !set.is_empty() => {
            let mut elements = std::mem::take(set).into_vec();
            elements.iter_mut().for_each(f);
            *value = Value::set(elements);
        }
        _ => {}
    }
}

/// Whether `path` leads to the attribute `names` names (its attribute steps are the
/// names, and it ends at the attribute).
fn matches(names: &[String], path: &Path) -> bool {
    if !matches!(path.steps().last(), Some(PathStep::Attribute(_))) {
        return false;
    }
    let mut attributes = path.steps().iter().filter_map(|s| match s {
        PathStep::Attribute(name) => Some(name.as_str()),
        _ => None,
    });
    names.iter().all(|n| attributes.next() == Some(n.as_str())) && attributes.next().is_none()
}

/// The paths in `value` of the attribute `names` names, from `at`: through each
/// element of a list or map, to a set as a whole.
fn concrete(value: &Value, names: &[String], at: Path, out: &mut Vec<Path>) {
    let Some((name, rest)) = names.split_first() else {
        out.push(at);
        return;
    };
    let at = at.attribute(name.as_str());
    let inner = value.get(name);
    if rest.is_empty() {
        out.push(at);
        return;
    }
    match inner.map(Value::untyped) {
        Some(Value::List(elements)) => {
            for (i, element) in elements.iter().enumerate() {
                concrete(element, rest, at.clone().index(i as u64), out);
            }
        }
        Some(Value::Map(map)) => {
            for (key, element) in map.iter() {
                concrete(element, rest, at.clone().key(key), out);
            }
        }
        Some(object @ Value::Object(_)) => concrete(object, rest, at, out),
        // A set as a whole; a null or unknown collection as it is.
        _ => out.push(at),
    }
}

#[cfg(test)]
mod tests {
    /// The framework's plan check refuses what any client refuses: a null LIST of blocks
    /// for a null configuration passes Terraform 1.15 and OpenTofu 1.12, not 1.16.
    #[test]
    fn the_strictest_check_refuses_what_any_client_refuses() {
        use ctywire::schema::{Attribute, NestedBlock, Rule};
        use ctywire::Type;
        let block = Block::new()
            .attribute("name", Attribute::new(Type::String).required())
            .block_type(
                "b",
                NestedBlock::new(
                    BlockNesting::List,
                    Block::new().attribute("x", Attribute::new(Type::String).optional()),
                ),
            );
        let null_blocks = Value::object([("name", Value::from("a")), ("b", Value::Null)]);
        assert!(block
            .check_plan(&Value::Null, &null_blocks, &null_blocks)
            .is_empty());
        let found = block.check_plan_strictest(&Value::Null, &null_blocks, &null_blocks);
        assert_eq!(
            found.iter().map(|i| i.rule).collect::<Vec<_>>(),
            [Rule::NullBlockCollection]
        );
        // What every client accepts passes; what Terraform 1.15 refuses is in its words.
        let empty = Value::object([("name", Value::from("a")), ("b", Value::list([]))]);
        assert!(block
            .check_plan_strictest(&Value::Null, &empty, &empty)
            .is_empty());
        let renamed = Value::object([("name", Value::from("z")), ("b", Value::list([]))]);
        let found = block.check_plan_strictest(&Value::Null, &empty, &renamed);
        assert_eq!(found, block.check_plan(&Value::Null, &empty, &renamed));
        assert_eq!(found[0].rule, Rule::ConfigMismatch);
    }

    use super::*;
    use ctywire::object::Object;
    use ctywire::Known;

    #[derive(ctywire::Object)]
    struct Server {
        #[cty(required, requires_replace)]
        name: String,
        #[cty(optional)]
        size: Option<u32>,
        #[cty(computed, use_state_for_unknown)]
        id: Known<String>,
        #[cty(optional, computed, use_state_for_unknown)]
        zone: Known<String>,
        #[cty(computed)]
        etag: Known<String>,
        #[cty(block)]
        disk: Vec<Disk>,
    }

    #[derive(ctywire::Object)]
    struct Disk {
        #[cty(required, requires_replace)]
        size: u32,
        #[cty(optional)]
        label: Option<String>,
    }

    fn disk(size: i64, label: Option<&str>) -> Value {
        Value::object([
            ("size", Value::from(size)),
            ("label", label.map_or(Value::Null, Value::from)),
        ])
    }

    fn server(
        name: &str,
        size: i64,
        computed: Option<(&str, &str, &str)>,
        disks: Vec<Value>,
    ) -> Value {
        let (id, zone, etag) = match computed {
            Some((a, b, c)) => (Value::from(a), Value::from(b), Value::from(c)),
            None => (Value::Null, Value::Null, Value::Null),
        };
        Value::object([
            ("name", Value::from(name)),
            ("size", Value::from(size)),
            ("id", id),
            ("zone", zone),
            ("etag", etag),
            ("disk", Value::list(disks)),
        ])
    }

    fn run(prior: &Value, config: &Value) -> (Value, Vec<Path>) {
        let block = Server::schema_block();
        let proposed = block.proposed_new(prior, config);
        let Planned {
            value: planned,
            replace,
            ..
        } = plan(
            &block,
            &Server::plan_modifiers(),
            prior,
            config,
            proposed,
            false,
        )
        .unwrap();
        let found = block.check_plan(prior, config, &planned);
        assert!(found.is_empty(), "{found:?}");
        (planned, replace)
    }

    #[test]
    fn create_leaves_computed_unknown() {
        let config = server("a", 1, None, vec![disk(10, None)]);
        let (planned, replace) = run(&Value::Null, &config);
        assert!(
            planned["id"].is_unknown()
                && planned["zone"].is_unknown()
                && planned["etag"].is_unknown()
        );
        assert!(replace.is_empty());
    }

    #[test]
    fn update_keeps_declared_state_and_replaces_declared_changes() {
        let prior = server("a", 1, Some(("srv-a", "z1", "e1")), vec![disk(10, None)]);
        // Size changes: id and zone keep their values, etag is unknown, no replacement.
        let config = server("a", 2, None, vec![disk(10, Some("x"))]);
        let (planned, replace) = run(&prior, &config);
        assert_eq!(planned["id"].as_str(), Some("srv-a"));
        assert_eq!(planned["zone"].as_str(), Some("z1"));
        assert!(planned["etag"].is_unknown());
        assert!(replace.is_empty(), "{replace:?}");
        // The name and a disk's size change: both replace.
        let config = server("b", 1, None, vec![disk(20, None)]);
        let (_, replace) = run(&prior, &config);
        let want = [
            Path::root().attribute("name"),
            Path::root().attribute("disk").index(0).attribute("size"),
        ];
        assert_eq!(replace, want);
        // A new disk is a new size too.
        let config = server("a", 1, None, vec![disk(10, None), disk(5, None)]);
        let (_, replace) = run(&prior, &config);
        assert_eq!(
            replace,
            [Path::root().attribute("disk").index(1).attribute("size")]
        );
    }

    #[test]
    fn an_unknown_configuration_is_not_replaced_by_the_state() {
        let prior = server("a", 1, Some(("srv-a", "z1", "e1")), vec![]);
        let config = server("a", 2, None, vec![])
            .with_attribute("zone", Value::unknown())
            .unwrap();
        let (planned, _) = run(&prior, &config);
        assert!(planned["zone"].is_unknown());
        assert_eq!(planned["id"].as_str(), Some("srv-a"));
        // An unknown name may be a change: replace.
        let config = server("a", 1, None, vec![])
            .with_attribute("name", Value::unknown())
            .unwrap();
        let (_, replace) = run(&prior, &config);
        assert_eq!(replace, [Path::root().attribute("name")]);
    }

    #[test]
    fn nothing_changes_nothing_planned() {
        let prior = server("a", 1, Some(("srv-a", "z1", "e1")), vec![disk(10, None)]);
        let config = server("a", 1, None, vec![disk(10, None)]);
        let (planned, replace) = run(&prior, &config);
        assert_eq!(planned, prior);
        assert!(replace.is_empty());
        let (planned, replace) = run(&prior, &Value::Null);
        assert!(planned.is_null() && replace.is_empty());
    }

    #[test]
    fn paths_match_by_attribute_names() {
        let names = ["disk".to_string(), "size".to_string()];
        assert!(matches(
            &names,
            &Path::root().attribute("disk").index(3).attribute("size")
        ));
        assert!(!matches(&names, &Path::root().attribute("disk").index(3)));
        assert!(!matches(&names, &Path::root().attribute("size")));
        assert!(!matches(
            &names[..1],
            &Path::root().attribute("disk").index(0).attribute("size")
        ));
    }

    /// The caller's "Terraform sent the same bytes" plans what comparing the values
    /// plans, and only a plan nothing was written into is the proposed state as it came.
    #[test]
    fn proposed_is_prior_plans_as_comparing_does() {
        let block = Server::schema_block();
        let modifiers = Server::plan_modifiers();
        let prior = server("a", 1, Some(("srv-a", "z1", "e1")), vec![disk(10, None)]);
        let config = server("a", 1, None, vec![disk(10, None)]);
        let proposed = block.proposed_new(&prior, &config);
        assert_eq!(proposed, prior);
        let known = plan(&block, &modifiers, &prior, &config, proposed.clone(), true).unwrap();
        let compared = plan(&block, &modifiers, &prior, &config, proposed, false).unwrap();
        assert_eq!(known.value, compared.value);
        assert_eq!(known.value, prior);
        assert!(known.as_proposed && compared.as_proposed);
        // A change marks the computed attributes: written into.
        let config = server("a", 2, None, vec![disk(10, None)]);
        let proposed = block.proposed_new(&prior, &config);
        let changed = plan(&block, &modifiers, &prior, &config, proposed, false).unwrap();
        assert!(changed.value["etag"].is_unknown());
        assert!(!changed.as_proposed);
        // A default filled in: written into, and compared as filled in.
        let block = Machine::schema_block();
        let modifiers = Machine::plan_modifiers();
        let prior = machine(
            Value::from(1),
            Value::from("gold"),
            Value::from("srv-1"),
            vec![],
        );
        let config = machine(Value::from(1), Value::Null, Value::Null, vec![]);
        let proposed = block.proposed_new(&prior, &config);
        assert_eq!(proposed, prior);
        let planned = plan(&block, &modifiers, &prior, &config, proposed, true).unwrap();
        assert!(!planned.as_proposed);
        assert_eq!(planned.value["tier"].as_str(), Some("standard"));
        assert!(planned.value["id"].is_unknown());
    }

    /// Declarations of the planning options beside each other.
    #[derive(ctywire::Object)]
    struct Machine {
        #[cty(required, requires_replace_if = grows_only)]
        size: u32,
        #[cty(optional, computed, default = "standard")]
        tier: Known<String>,
        #[cty(computed, prefix = "srv-", not_null)]
        id: Known<String>,
        #[cty(block)]
        disk: Vec<Slot>,
    }

    #[derive(ctywire::Object)]
    struct Slot {
        #[cty(optional, computed, default = 10)]
        gb: Known<u32>,
    }

    /// A smaller size replaces; a larger one is an update.
    fn grows_only(prior: &u32, planned: &u32) -> bool {
        planned < prior
    }

    fn machine(size: Value, tier: Value, id: Value, gbs: Vec<Value>) -> Value {
        let disks = gbs.into_iter().map(|gb| Value::object([("gb", gb)]));
        Value::object([
            ("size", size),
            ("tier", tier),
            ("id", id),
            ("disk", Value::list(disks.collect::<Vec<_>>())),
        ])
    }

    fn run_machine(prior: &Value, config: &Value) -> (Value, Vec<Path>) {
        let block = Machine::schema_block();
        let proposed = block.proposed_new(prior, config);
        let Planned {
            value: planned,
            replace,
            ..
        } = plan(
            &block,
            &Machine::plan_modifiers(),
            prior,
            config,
            proposed,
            false,
        )
        .unwrap();
        let found = block.check_plan(prior, config, &planned);
        assert!(found.is_empty(), "{found:?}");
        (planned, replace)
    }

    #[test]
    fn defaults_fill_what_the_configuration_leaves_null() {
        let config = machine(
            Value::from(1),
            Value::Null,
            Value::Null,
            vec![Value::Null, Value::from(5)],
        );
        let (planned, _) = run_machine(&Value::Null, &config);
        assert_eq!(planned["tier"].as_str(), Some("standard"));
        let gb = |i: u64| planned.at_path(&Path::root().attribute("disk").index(i).attribute("gb"));
        assert_eq!(gb(0), Some(&Value::from(10)));
        assert_eq!(gb(1), Some(&Value::from(5)));
        // Set in the configuration: the configuration's value.
        let config = machine(Value::from(1), Value::from("gold"), Value::Null, vec![]);
        let (planned, _) = run_machine(&Value::Null, &config);
        assert_eq!(planned["tier"].as_str(), Some("gold"));
        // Taken out of the configuration again: the default, not the prior value.
        let prior = machine(
            Value::from(1),
            Value::from("gold"),
            Value::from("srv-1"),
            vec![],
        );
        let config = machine(Value::from(1), Value::Null, Value::Null, vec![]);
        let (planned, _) = run_machine(&prior, &config);
        assert_eq!(planned["tier"].as_str(), Some("standard"));
    }

    #[test]
    fn refinements_are_written_into_the_planned_unknowns() {
        let config = machine(Value::from(1), Value::Null, Value::Null, vec![]);
        let (planned, _) = run_machine(&Value::Null, &config);
        let refinements = planned["id"].refinements().unwrap();
        assert_eq!(refinements.string_prefix(), Some("srv-"));
        assert!(refinements.is_not_null());
    }

    #[test]
    fn requires_replace_if_asks_its_function() {
        let prior = machine(
            Value::from(4),
            Value::from("standard"),
            Value::from("srv-1"),
            vec![],
        );
        let grow = machine(Value::from(8), Value::Null, Value::Null, vec![]);
        let (_, replace) = run_machine(&prior, &grow);
        assert!(replace.is_empty(), "{replace:?}");
        let shrink = machine(Value::from(2), Value::Null, Value::Null, vec![]);
        let (_, replace) = run_machine(&prior, &shrink);
        assert_eq!(replace, [Path::root().attribute("size")]);
        // Unknown: a change, without asking.
        let unknown = machine(Value::unknown(), Value::Null, Value::Null, vec![]);
        let (_, replace) = run_machine(&prior, &unknown);
        assert_eq!(replace, [Path::root().attribute("size")]);
        // Nothing on a create.
        let (_, replace) = run_machine(&Value::Null, &shrink);
        assert!(replace.is_empty());
    }

    /// The footgun: keeping the prior value "always" put it back where the
    /// configuration was unknown, and the replacement came one run later.
    #[test]
    fn use_state_for_unknown_never_keeps_where_the_configuration_is_unknown() {
        let prior = server("a", 1, Some(("srv-a", "z1", "e1")), vec![]);
        let config = server("a", 1, None, vec![])
            .with_attribute("zone", Value::unknown())
            .unwrap();
        let block = Server::schema_block();
        let proposed = block.proposed_new(&prior, &config);
        // What the hand-written plan did: keep_prior(.., |_| true).
        let naive = block.keep_prior(
            &prior,
            &block.mark_computed_unknown(&prior, &config, &proposed, |_| Refinements::new()),
            |_| true,
        );
        assert_eq!(naive["zone"].as_str(), Some("z1"), "the footgun is real");
        let (planned, _) = run(&prior, &config);
        assert!(planned["zone"].is_unknown());
    }

    #[derive(ctywire::Object)]
    struct Account {
        #[cty(required)]
        name: String,
        #[cty(optional, write_only)]
        password: Option<String>,
        #[cty(computed)]
        etag: Known<String>,
        #[cty(block)]
        key: Vec<Key>,
    }

    #[derive(ctywire::Object)]
    struct Key {
        #[cty(optional, write_only)]
        secret: Option<String>,
        #[cty(optional)]
        label: Option<String>,
    }

    /// Every nesting a write-only attribute can sit in (nested attribute types single,
    /// list, map and set; blocks single, list and set) is nulled, and nothing else moves.
    #[test]
    fn write_only_values_are_nulled_at_every_nesting() {
        use ctywire::schema::{Attribute, NestedBlock, NestedType};
        let attribute = |write_only: bool| {
            let mut a = Attribute::new("string".parse().unwrap());
            a.optional = true;
            a.write_only = write_only;
            a
        };
        let inner = || [("secret", attribute(true)), ("label", attribute(false))];
        let mut block = Block::new();
        block.attributes.insert("password".into(), attribute(true));
        block.attributes.insert("name".into(), attribute(false));
        let nestings = [
            ("one", AttributeNesting::Single),
            ("many", AttributeNesting::List),
            ("keyed", AttributeNesting::Map),
            ("bag", AttributeNesting::Set),
        ];
        for (name, nesting) in nestings {
            let nested = Attribute::nested(NestedType::new(nesting, inner()));
            block.attributes.insert(name.into(), nested);
        }
        let mut keys = Block::new();
        keys.attributes
            .extend(inner().map(|(n, a)| (n.to_string(), a)));
        for (name, nesting) in [
            ("key", BlockNesting::Single),
            ("keys", BlockNesting::List),
            ("key_set", BlockNesting::Set),
        ] {
            let nested = NestedBlock::new(nesting, keys.clone());
            block.block_types.insert(name.into(), nested);
        }
        let element = |secret: Value, label: &str| {
            Value::object([("secret", secret), ("label", Value::from(label))])
        };
        let value = |secret: fn(&str) -> Value| {
            Value::object([
                ("password", secret("pw")),
                ("name", Value::from("n")),
                ("one", element(secret("s1"), "a")),
                (
                    "many",
                    Value::list([element(secret("s2"), "b"), element(secret("s3"), "c")]),
                ),
                ("keyed", Value::map([("k", element(secret("s4"), "d"))])),
                // Two elements that differ only in their secrets: one once nulled.
                (
                    "bag",
                    Value::set([element(secret("s5"), "e"), element(secret("s6"), "e")]),
                ),
                ("key", element(secret("s7"), "f")),
                ("keys", Value::list([element(secret("s8"), "g")])),
                ("key_set", Value::set([element(secret("s9"), "h")])),
            ])
        };
        let given: fn(&str) -> Value = |s| Value::from(s);
        let nulled = null_write_only(&block, value(given));
        let want = value(|_| Value::Null);
        assert_eq!(nulled, want);
        assert_eq!(nulled["bag"].as_slice().map(<[Value]>::len), Some(1));
        // Null and unknown nestings and a null object stay as they are.
        let partly = value(given)
            .with_attribute("many", Value::Null)
            .and_then(|v| v.with_attribute("keyed", Value::unknown()))
            .unwrap();
        let nulled = null_write_only(&block, partly);
        assert!(nulled["many"].is_null() && nulled["keyed"].is_unknown());
        assert!(nulled["one"]["secret"].is_null() && nulled["password"].is_null());
        assert!(null_write_only(&block, Value::Null).is_null());
        // A block with no write-only attribute: the value as it came.
        let plain = Server::schema_block();
        let prior = server("a", 1, Some(("srv-a", "z1", "e1")), vec![disk(10, None)]);
        assert_eq!(null_write_only(&plain, prior.clone()), prior);
    }

    /// Terraform refuses a plan holding a write-only value, and the configuration's
    /// write-only values are no change of the object.
    #[test]
    fn write_only_attributes_are_planned_null_and_change_nothing() {
        let key = |secret: &str| {
            Value::object([("secret", Value::from(secret)), ("label", Value::from("k"))])
        };
        let account = |password: Value, etag: Value, keys: Vec<Value>| {
            Value::object([
                ("name", Value::from("a")),
                ("password", password),
                ("etag", etag),
                ("key", Value::list(keys)),
            ])
        };
        let block = Account::schema_block();
        let config = account(Value::from("pw"), Value::Null, vec![key("s")]);
        let proposed = block.proposed_new(&Value::Null, &config);
        let planned = plan(
            &block,
            &Account::plan_modifiers(),
            &Value::Null,
            &config,
            proposed,
            false,
        )
        .unwrap()
        .value;
        assert!(block.check_plan(&Value::Null, &config, &planned).is_empty());
        assert!(planned["password"].is_null());
        let secret = Path::root().attribute("key").index(0).attribute("secret");
        assert!(planned.at_path(&secret).is_some_and(Value::is_null));
        let label = Path::root().attribute("key").index(0).attribute("label");
        assert_eq!(planned.at_path(&label), Some(&Value::from("k")));
        // Applied: a new password alone leaves the computed etag as it was.
        let prior = account(Value::Null, Value::from("e1"), vec![key("s")]);
        let prior = null_write_only(&block, prior);
        let config = account(Value::from("new"), Value::Null, vec![key("t")]);
        let proposed = block.proposed_new(&prior, &config);
        let planned = plan(
            &block,
            &Account::plan_modifiers(),
            &prior,
            &config,
            proposed,
            false,
        )
        .unwrap()
        .value;
        assert_eq!(planned, prior);
    }
}
