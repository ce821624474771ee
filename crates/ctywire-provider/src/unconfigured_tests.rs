//! Calls Terraform makes before it configures the provider: a `moved` block's
//! MoveResourceState (with the identity of the moved state).

use ctywire::Known;
use ctywire_tfplugin::tfplugin6 as pb;
use ctywire_tfplugin::tfplugin6::provider_server::Provider as Service;
use tonic::Request;

use crate::{Context, IdentifiedResource, MovedState, Provider, Resource, Result, Server};

#[derive(ctywire::Object)]
struct Config {}

struct Cloud;

impl Provider for Cloud {
    const TYPE_NAME: &'static str = "cloud";
    type Config = Config;
    type Data = String;

    async fn configure(&self, _: Config) -> Result<String> {
        Ok("region-1".to_owned())
    }
}

#[derive(ctywire::Object)]
struct Parcel {
    #[cty(required)]
    name: String,
    #[cty(computed)]
    id: Known<String>,
}

#[derive(ctywire::Object)]
struct ParcelIdentity {
    #[cty(required)]
    id: String,
}

/// Moves in from `cloud_crate`; `region` reads the provider's data in its move.
struct Parcels {
    region: bool,
}

impl Resource<String> for Parcels {
    const NAME: &'static str = "box";
    const MOVES_FROM: &'static [&'static str] = &["cloud_crate"];
    type State = Parcel;

    async fn create(&self, _: &Context<String>, planned: Parcel) -> Result<Parcel> {
        Ok(planned)
    }

    async fn update(&self, _: &Context<String>, _: Parcel, planned: Parcel) -> Result<Parcel> {
        Ok(planned)
    }

    async fn delete(&self, _: &Context<String>, _: Parcel) -> Result<()> {
        Ok(())
    }

    async fn move_state(&self, ctx: &Context<String>, moved: MovedState) -> Result<Parcel> {
        let mut moved: Parcel = moved.decode()?;
        if self.region {
            moved.id = Known::Known(format!("{}/{}", ctx.data(), moved.name));
        } else {
            assert!(ctx.try_data().is_none());
            moved.id = Known::Known(moved.name.clone());
        }
        Ok(moved)
    }
}

impl IdentifiedResource<String> for Parcels {
    type Identity = ParcelIdentity;

    fn identity(&self, _: &Context<String>, state: &Parcel) -> ParcelIdentity {
        let id = state.id.as_known().cloned().unwrap_or_default();
        ParcelIdentity { id }
    }
}

async fn moved(region: bool) -> pb::move_resource_state::Response {
    let server = Server::new(Cloud).resource_with_identity(Parcels { region });
    let request = pb::move_resource_state::Request {
        source_provider_address: "example.com/x/cloud".into(),
        source_type_name: "cloud_crate".into(),
        source_state: Some(pb::RawState {
            json: br#"{"name":"b","id":"old"}"#.to_vec(),
            ..Default::default()
        }),
        source_private: b"kept".to_vec(),
        target_type_name: "cloud_box".into(),
        ..Default::default()
    };
    let response = server.move_resource_state(Request::new(request)).await;
    response.unwrap().into_inner()
}

#[tokio::test]
async fn a_move_runs_before_the_provider_is_configured() {
    let response = moved(false).await;
    assert!(
        response.diagnostics.is_empty(),
        "{:?}",
        response.diagnostics
    );
    assert!(response.target_state.is_some());
    assert!(response.target_identity.is_some());
    assert_eq!(response.target_private, b"kept");
}

#[tokio::test]
async fn provider_data_read_in_an_unconfigured_move_is_an_error_diagnostic() {
    let response = moved(true).await;
    assert!(response.target_state.is_none());
    assert_eq!(response.diagnostics.len(), 1, "{:?}", response.diagnostics);
    let error = &response.diagnostics[0];
    assert!(
        error.summary.contains("panicked") && error.summary.contains("cloud_box"),
        "{error:?}"
    );
}
