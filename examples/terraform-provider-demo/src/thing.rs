//! `demo_thing`: its declaration (one struct per block, which gives the schema, the cty
//! type and the typed codec) and its value logic: plan, apply, import and state upgrade.
//! The "cloud" is Terraform's state: apply makes `id` from the name and gives disks
//! their default kind.

use std::collections::{BTreeMap, BTreeSet};

use ctywire::schema::Block;
use ctywire::{Error, ErrorKind, Known, Number, Path, PathStep, Refinements, Value};

use crate::old_thing::OldThing;

/// What `id` starts with.
pub const ID_PREFIX: &str = "thing-";

/// The kind a disk gets when its configuration leaves it out.
pub const DEFAULT_DISK_KIND: &str = "standard";

/// A thing, kept in Terraform's state only.
#[derive(ctywire::Object, Debug, Clone, PartialEq)]
pub struct Thing {
    /// The thing's name; changing it replaces the thing.
    #[cty(required)]
    pub name: String,
    #[cty(optional)]
    pub size: Option<Number>,
    #[cty(optional)]
    pub tags: Option<BTreeMap<String, String>>,
    /// `thing-` and the name.
    #[cty(computed)]
    pub id: Known<String>,
    #[cty(optional, sensitive)]
    pub secret: Option<String>,
    // `dynamic`: the value keeps its concrete type.
    #[cty(optional)]
    pub extra: Value,
    #[cty(optional)]
    pub labels: Option<BTreeSet<String>>,
    #[cty(nested, optional)]
    pub endpoint: Option<Endpoint>,
    #[cty(block)]
    pub disk: Vec<Disk>,
    #[cty(block)]
    pub network: BTreeSet<Network>,
    #[cty(block)]
    pub settings: Option<Settings>,
    #[cty(block)]
    pub rule: BTreeMap<String, Rule>,
    #[cty(block)]
    pub group: Group,
}

// The nested structs have no doc comments: their blocks have no descriptions.

#[derive(ctywire::Object, Debug, Clone, PartialEq)]
pub struct Endpoint {
    #[cty(required)]
    pub host: String,
    #[cty(optional)]
    pub port: Option<Number>,
}

#[derive(ctywire::Object, Debug, Clone, PartialEq)]
pub struct Disk {
    #[cty(required)]
    pub size: Number,
    /// The disk's kind; `standard` when not set.
    #[cty(optional, computed, markdown)]
    pub kind: Known<String>,
}

#[derive(ctywire::Object, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Network {
    #[cty(required)]
    pub name: String,
}

#[derive(ctywire::Object, Debug, Clone, PartialEq)]
pub struct Settings {
    #[cty(optional)]
    pub mode: Option<String>,
}

#[derive(ctywire::Object, Debug, Clone, PartialEq)]
pub struct Rule {
    #[cty(optional)]
    pub action: Option<String>,
}

#[derive(ctywire::Object, Debug, Clone, PartialEq)]
pub struct Group {
    #[cty(optional)]
    pub note: Option<String>,
}

impl Thing {
    /// A thing with `name` and nothing else set, as import and upgrade begin.
    pub fn named(name: &str) -> Thing {
        Thing {
            name: name.to_owned(),
            size: None,
            tags: None,
            id: Known::Known(format!("{ID_PREFIX}{name}")),
            secret: None,
            extra: Value::Null,
            labels: None,
            endpoint: None,
            disk: Vec::new(),
            network: BTreeSet::new(),
            settings: None,
            rule: BTreeMap::new(),
            group: Group { note: None },
        }
    }

    /// The `id`, once it is known.
    pub fn known_id(&self) -> Option<&str> {
        self.id.as_known().map(String::as_str)
    }

    /// The thing as apply leaves it: `id` from the name, disks without a kind given the
    /// default.
    pub fn applied(mut self) -> Thing {
        self.id = Known::Known(format!("{ID_PREFIX}{}", self.name));
        for disk in &mut self.disk {
            if !disk.kind.is_known() {
                disk.kind = Known::Known(DEFAULT_DISK_KIND.to_owned());
            }
        }
        self
    }
}

/// The planned state: Terraform's proposed new state, with what only apply knows
/// unknown (the schema's helpers do it): on create `id` (not null, starting with
/// `thing-`) and the kind of each disk that has none (not null); on update the id and
/// the disks' kinds stay as they were. Returns the planned value and the paths whose
/// change needs a replacement (`name`). A plan works on [`Value`]s: the configuration
/// may leave any attribute unknown, which the struct's fields cannot all hold.
pub fn plan(block: &Block, prior: &Value, config: &Value, proposed: &Value) -> (Value, Vec<Path>) {
    let id = Path::root().attribute("id");
    let is_kind = |path: &Path| path.steps().last() == Some(&PathStep::Attribute("kind".into()));
    let planned = block.mark_computed_unknown(prior, config, proposed, |path| {
        if *path == id {
            Refinements::new().not_null().with_string_prefix(ID_PREFIX)
        } else if is_kind(path) {
            Refinements::new().not_null()
        } else {
            Refinements::new()
        }
    });
    let planned = block.keep_prior(prior, &planned, |path| *path == id || is_kind(path));
    let replace = block.requires_replace(prior, &planned, &[Path::root().attribute("name")]);
    (planned, replace)
}

/// The state a thing imported by `id` has: the name is the id without its `thing-`
/// prefix (or the whole id).
pub fn imported(id: &str) -> Result<Thing, Error> {
    let name = id.strip_prefix(ID_PREFIX).unwrap_or(id);
    if name.is_empty() {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!("cannot import {id:?}: expected an id \"{ID_PREFIX}NAME\" or a name"),
        ));
    }
    Ok(Thing::named(name))
}

/// A version-0 state (`demo_old_thing`'s shape) as a current one: `size` parsed as a
/// number, the id made anew from the name.
pub fn from_v0(old: OldThing) -> Result<Thing, Error> {
    let mut thing = Thing::named(&old.name);
    thing.tags = old.tags;
    thing.size = match old.size {
        None => None,
        Some(text) => Some(Number::parse(text.trim()).map_err(|_| {
            Error::new(
                ErrorKind::InvalidValue,
                format!("version 0 size {text:?} is not a number"),
            )
            .at(&Path::root().attribute("size"))
        })?),
    };
    Ok(thing)
}
