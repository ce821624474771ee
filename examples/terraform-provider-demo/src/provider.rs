//! The provider as an author writes it: its (empty) configuration, and every resource,
//! data source and function it serves, on ctywire-provider.

use ctywire::Value;
use ctywire_provider::{Context, DataSource, Provider, Result, Server};

use crate::concat::Concat;
use crate::old_thing::OldThings;
use crate::thing::Things;

/// The provider's type name.
pub const TYPE_NAME: &str = "demo";

/// The demo provider takes no configuration.
#[derive(ctywire::Object)]
pub struct ProviderConfig {}

/// The demo provider: its objects live in Terraform's state, so it needs no client.
pub struct Demo;

impl Provider for Demo {
    const TYPE_NAME: &'static str = TYPE_NAME;
    type Config = ProviderConfig;
    type Data = ();

    async fn configure(&self, _: ProviderConfig) -> Result<()> {
        Ok(())
    }
}

// `demo_echo`'s value: the configured `value`, and `result`, which the provider sets to
// it (no doc comment: the block has no description).
#[derive(ctywire::Object, Debug, Clone, PartialEq)]
pub struct Echo {
    #[cty(required)]
    pub value: Value,
    #[cty(computed)]
    pub result: Value,
}

/// `demo_echo`: its `result` is its `value`.
pub struct Echoes;

impl DataSource<()> for Echoes {
    const NAME: &'static str = "echo";
    type State = Echo;

    async fn read(&self, _: &Context<()>, echo: Echo) -> Result<Echo> {
        Ok(Echo {
            result: echo.value.clone(),
            value: echo.value,
        })
    }
}

/// The provider with everything it serves.
pub fn server() -> Server<Demo> {
    Server::new(Demo)
        .resource_with_identity(Things)
        .resource(OldThings)
        .data_source(Echoes)
        .function(Concat)
}
