//! The provider both logging tests serve: `log` in-process, `log_terraform` under real
//! Terraform (which includes this file by path). Its events are what they assert on.

use ctywire::Known;
use ctywire_provider::{Context, Provider, Resource, Result};

#[derive(ctywire::Object)]
pub struct Config {}

/// The provider `rt`: one info event when configured.
pub struct Rt;

impl Provider for Rt {
    const TYPE_NAME: &'static str = "rt";
    type Config = Config;
    type Data = ();
    async fn configure(&self, _: Config) -> Result<()> {
        tracing::info!("configured");
        Ok(())
    }
}

#[derive(ctywire::Object)]
pub struct Thing {
    #[cty(required)]
    pub name: String,
    #[cty(computed)]
    pub id: Known<String>,
}

/// `rt_thing`: its create logs one debug event with two fields, and one trace event that
/// a debug level leaves out.
pub struct Things;

impl Resource<()> for Things {
    const NAME: &'static str = "thing";
    type State = Thing;

    async fn create(&self, _: &Context<()>, mut thing: Thing) -> Result<Thing> {
        tracing::debug!(name = %thing.name, attempt = 3u64, "creating the thing");
        tracing::trace!("a trace event, below the level asked for");
        thing.id = Known::Known("1".into());
        Ok(thing)
    }

    async fn update(&self, _: &Context<()>, _: Thing, planned: Thing) -> Result<Thing> {
        Ok(planned)
    }

    async fn delete(&self, _: &Context<()>, _: Thing) -> Result<()> {
        Ok(())
    }
}
