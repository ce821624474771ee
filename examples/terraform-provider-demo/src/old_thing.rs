//! `demo_old_thing`: a resource type whose objects live in Terraform's state only, as
//! `demo_thing`'s do, with the shape `demo_thing` had at schema version 0. A `moved`
//! block moves an object of it into a `demo_thing` (`Things::move_state`). Import by id
//! (`old-NAME`) gives the object an apply of that name makes.

use std::collections::BTreeMap;

use ctywire::Known;
use ctywire_provider::{Context, Error, Resource, Result};

/// The resource type whose objects a `moved` block can move into `demo_thing`s.
pub const OLD_THING: &str = "demo_old_thing";

/// What `id` starts with.
pub const ID_PREFIX: &str = "old-";

/// A thing as it was: `size` is a string. Move one into a `demo_thing` with a `moved` block.
#[derive(ctywire::Object, Debug, Clone, PartialEq)]
pub struct OldThing {
    #[cty(required, requires_replace)]
    pub name: String,
    #[cty(optional)]
    pub size: Option<String>,
    #[cty(optional)]
    pub tags: Option<BTreeMap<String, String>>,
    /// `old-` and the name.
    #[cty(computed, not_null, prefix = "old-", use_state_for_unknown)]
    pub id: Known<String>,
}

/// `demo_old_thing`'s calls: apply makes `id` from the name.
pub struct OldThings;

impl Resource<()> for OldThings {
    const NAME: &'static str = "old_thing";
    type State = OldThing;

    async fn create(&self, _: &Context<()>, old: OldThing) -> Result<OldThing> {
        let id = Known::Known(format!("{ID_PREFIX}{}", old.name));
        Ok(OldThing { id, ..old })
    }

    async fn update(&self, ctx: &Context<()>, _: OldThing, old: OldThing) -> Result<OldThing> {
        self.create(ctx, old).await
    }

    async fn delete(&self, _: &Context<()>, _: OldThing) -> Result<()> {
        Ok(())
    }

    /// The framework's import by id sets `id` alone, which a `name` that cannot be null
    /// refuses: the name is the id without its `old-` prefix.
    async fn import(&self, _: &Context<()>, id: String) -> Result<OldThing> {
        match id.strip_prefix(ID_PREFIX) {
            Some(name) if !name.is_empty() => Ok(OldThing {
                name: name.to_owned(),
                size: None,
                tags: None,
                id: Known::Known(id),
            }),
            _ => Err(Error::new(
                "Cannot import",
                format!("cannot import {id:?}: expected an id \"{ID_PREFIX}NAME\""),
            )),
        }
    }
}
