//! `demo_old_thing`: a resource type whose objects live in Terraform's state only, as
//! `demo_thing`'s do, with the shape `demo_thing` had at schema version 0. A `moved`
//! block moves an object of it into a `demo_thing` (`Things::move_state`).

use std::collections::BTreeMap;

use ctywire::Known;
use ctywire_provider::{Context, Resource, Result};

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
}
