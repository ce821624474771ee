//! `demo_thing`: its declaration (one struct per block, which gives the schema, the cty
//! type, the plan's behaviour and the validation) and its calls. The "cloud" is
//! Terraform's state: apply makes `id` from the name and gives disks their default kind.

use std::collections::{BTreeMap, BTreeSet};

use ctywire::{Known, Number, Value};
use ctywire_provider::{
    Context, Error, IdentifiedResource, MovedState, Resource, Result, StoredState,
};

use crate::old_thing::{OldThing, OLD_THING};

/// The managed resource's type name.
pub const THING: &str = "demo_thing";

/// What `id` starts with.
pub const ID_PREFIX: &str = "thing-";

/// The kind a disk gets when its configuration leaves it out.
pub const DEFAULT_DISK_KIND: &str = "standard";

/// A thing, kept in Terraform's state only.
#[derive(ctywire::Object, Debug, Clone, PartialEq)]
pub struct Thing {
    /// The thing's name; changing it replaces the thing.
    #[cty(required, requires_replace)]
    pub name: String,
    #[cty(optional, validate = not_negative)]
    pub size: Option<Number>,
    #[cty(optional)]
    pub tags: Option<BTreeMap<String, String>>,
    /// `thing-` and the name.
    #[cty(computed, not_null, prefix = "thing-", use_state_for_unknown)]
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

/// `size` must not be negative.
fn not_negative(size: &Option<Number>) -> std::result::Result<(), String> {
    if size.as_ref().is_some_and(Number::is_negative) {
        Err("size must not be negative".to_owned())
    } else {
        Ok(())
    }
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
    #[cty(optional, computed, markdown, not_null, use_state_for_unknown)]
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

/// `demo_thing`'s identity: its `id`, which import may give instead of an import id.
#[derive(ctywire::Object, Debug, Clone, PartialEq)]
pub struct ThingIdentity {
    /// `thing-` and the name.
    #[cty(required)]
    pub id: String,
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

/// The state a thing imported by `id` has: the name is the id without its `thing-`
/// prefix (or the whole id).
pub fn imported(id: &str) -> Result<Thing> {
    let name = id.strip_prefix(ID_PREFIX).unwrap_or(id);
    if name.is_empty() {
        return Err(Error::new(
            "Cannot import",
            format!("cannot import {id:?}: expected an id \"{ID_PREFIX}NAME\" or a name"),
        ));
    }
    Ok(Thing::named(name))
}

/// A version-0 state (`demo_old_thing`'s shape) as a current one: `size` parsed as a
/// number, the id made anew from the name.
pub fn from_v0(old: OldThing) -> Result<Thing> {
    let mut thing = Thing::named(&old.name);
    thing.tags = old.tags;
    thing.size = match old.size {
        None => None,
        Some(text) => Some(Number::parse(text.trim()).map_err(|_| {
            Error::new(
                "Invalid version 0 state",
                format!("version 0 size {text:?} is not a number"),
            )
            .at(Thing::path().size())
        })?),
    };
    Ok(thing)
}

/// `demo_thing`'s calls.
pub struct Things;

impl Resource<()> for Things {
    const NAME: &'static str = "thing";
    /// Version 0 had `size` as a string ([`OldThing`]'s shape).
    const VERSION: u64 = 1;
    const MOVES_FROM: &'static [&'static str] = &[OLD_THING];
    type State = Thing;

    async fn create(&self, _: &Context<()>, planned: Thing) -> Result<Thing> {
        Ok(planned.applied())
    }

    async fn update(&self, _: &Context<()>, _: Thing, planned: Thing) -> Result<Thing> {
        Ok(planned.applied())
    }

    /// The thing goes with its state.
    async fn delete(&self, _: &Context<()>, _: Thing) -> Result<()> {
        Ok(())
    }

    async fn import(&self, _: &Context<()>, id: String) -> Result<Thing> {
        imported(&id)
    }

    async fn upgrade(&self, _: &Context<()>, stored: StoredState) -> Result<Thing> {
        from_v0(stored.decode()?)
    }

    /// A `moved` block from a `demo_old_thing` of this provider.
    async fn move_state(&self, _: &Context<()>, moved: MovedState) -> Result<Thing> {
        if moved.source_provider() != crate::ADDRESS || moved.version() != 0 {
            return Err(Error::new(
                "Unsupported move",
                format!(
                    "{THING} takes objects of {OLD_THING} (schema version 0) of {}, not of {} (version {}) of {}",
                    crate::ADDRESS,
                    moved.source_type(),
                    moved.version(),
                    moved.source_provider()
                ),
            ));
        }
        from_v0(moved.decode()?)
    }
}

impl IdentifiedResource<()> for Things {
    type Identity = ThingIdentity;

    fn identity(&self, _: &Context<()>, thing: &Thing) -> ThingIdentity {
        let id = thing.id.as_known().cloned().unwrap_or_default();
        ThingIdentity { id }
    }

    async fn import_identity(&self, _: &Context<()>, identity: ThingIdentity) -> Result<Thing> {
        imported(&identity.id)
    }
}
