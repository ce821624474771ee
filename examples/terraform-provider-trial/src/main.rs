//! `terraform-provider-trial`: an example provider (type name `trial`) written on
//! ctywire-provider. Its "cloud" is a directory (the provider block's `directory`) with
//! one JSON file per server: `trial_server` (LIST, SINGLE and SET blocks, a map, a
//! dynamic and a sensitive attribute, a computed id, a name that forces replacement,
//! import by id, schema version 1 upgraded from 0), the data source `trial_server` and
//! the function `provider::trial::slug`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use ctywire::{json, Known, Value};
use ctywire_provider::{
    Context, DataSource, Error, Function, FunctionError, Provider, Resource, Result, Server,
    StoredState,
};

/// The provider block.
#[derive(ctywire::Object)]
struct Config {
    /// The directory that holds the servers (created if missing).
    #[cty(required)]
    directory: String,
}

struct Trial;

/// What every handler gets: the provider's directory.
type Ctx = Context<PathBuf>;

impl Provider for Trial {
    const TYPE_NAME: &'static str = "trial";
    type Config = Config;
    type Data = PathBuf;

    async fn configure(&self, config: Config) -> Result<PathBuf> {
        std::fs::create_dir_all(&config.directory)?;
        Ok(PathBuf::from(config.directory))
    }
}

/// A server, kept as `ID.json` in the provider's directory.
#[derive(ctywire::Object, Clone)]
struct Machine {
    /// The server's name; a new name replaces the server.
    #[cty(required, requires_replace)]
    name: String,
    /// Its size, in GB.
    #[cty(optional)]
    size: Option<u16>,
    #[cty(optional)]
    tags: Option<BTreeMap<String, String>>,
    /// Anything kept with the server, of any type.
    #[cty(optional)]
    metadata: Value,
    /// The administrator's password, never shown.
    #[cty(optional, sensitive)]
    password: Option<String>,
    /// `srv-` and the name, set at create.
    #[cty(computed, prefix = "srv-", use_state_for_unknown)]
    id: Known<String>,
    #[cty(block)]
    disk: Vec<Disk>,
    #[cty(block)]
    network: Option<Network>,
    /// The networks it may reach, in no order.
    #[cty(block(set))]
    peer: Vec<Network>,
}

#[derive(ctywire::Object, Clone)]
struct Disk {
    #[cty(required)]
    size: u32,
    /// `standard` unless set.
    #[cty(optional, computed, default = "standard")]
    kind: Known<String>,
}

#[derive(ctywire::Object, Clone)]
struct Network {
    #[cty(required)]
    subnet: String,
}

/// Where the server with `id` is kept.
fn file(ctx: &Ctx, id: &str) -> PathBuf {
    ctx.data().join(format!("{id}.json"))
}

/// The server with `id`, if there is one.
fn load(ctx: &Ctx, id: &str) -> Result<Option<Machine>> {
    match std::fs::read(file(ctx, id)) {
        Ok(bytes) => Ok(Some(json::decode_object(&bytes)?)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// Writes the server as it is now.
fn save(ctx: &Ctx, server: Machine) -> Result<Machine> {
    let id = server.id.as_known().cloned().unwrap_or_default();
    std::fs::write(file(ctx, &id), json::encode_object(&server)?)?;
    Ok(server)
}

struct Servers;

impl Resource<PathBuf> for Servers {
    const NAME: &'static str = "server";
    const VERSION: u64 = 1;
    type State = Machine;

    /// Version 0 kept the id without its `srv-` prefix.
    async fn upgrade(&self, _: &Ctx, stored: StoredState) -> Result<Machine> {
        let mut server: Machine = stored.decode()?;
        server.id = Known::Known(format!("srv-{}", server.name));
        Ok(server)
    }

    async fn create(&self, ctx: &Ctx, mut server: Machine) -> Result<Machine> {
        let id = format!("srv-{}", server.name);
        if load(ctx, &id)?.is_some() {
            let e = Error::new("Server exists", format!("{id} exists"));
            return Err(e.at(Machine::path().name()));
        }
        server.id = Known::Known(id);
        save(ctx, server)
    }

    async fn read(&self, ctx: &Ctx, server: Machine) -> Result<Option<Machine>> {
        load(ctx, server.id.as_known().map_or("", String::as_str))
    }

    async fn update(&self, ctx: &Ctx, _: Machine, planned: Machine) -> Result<Machine> {
        save(ctx, planned)
    }

    async fn delete(&self, ctx: &Ctx, server: Machine) -> Result<()> {
        let id = server.id.unwrap_or_default();
        Ok(std::fs::remove_file(file(ctx, &id))?)
    }

    async fn import(&self, ctx: &Ctx, id: String) -> Result<Machine> {
        load(ctx, &id)?
            .ok_or_else(|| Error::new("Cannot import", format!("no server has the id {id:?}")))
    }
}

/// A server, looked up by name.
#[derive(ctywire::Object)]
struct Lookup {
    #[cty(required)]
    name: String,
    #[cty(computed)]
    id: Known<String>,
    #[cty(computed)]
    size: Known<u16>,
}

struct ServerLookup;

impl DataSource<PathBuf> for ServerLookup {
    const NAME: &'static str = "server";
    type State = Lookup;

    async fn read(&self, ctx: &Ctx, mut lookup: Lookup) -> Result<Lookup> {
        let server = load(ctx, &format!("srv-{}", lookup.name))?;
        let server = server.ok_or_else(|| Error::new("No such server", &*lookup.name))?;
        lookup.id = server.id;
        lookup.size = server.size.into();
        Ok(lookup)
    }
}

struct Slug;

impl Function for Slug {
    const NAME: &'static str = "slug";
    const SUMMARY: &'static str = "A name made of lowercase letters, digits and dashes";
    const PARAMETERS: &'static [&'static str] = &["text"];
    type Arguments = (String,);
    type Output = String;

    async fn call(&self, (text,): (String,)) -> Result<String, FunctionError> {
        let slug = text
            .to_lowercase()
            .replace(|c: char| !c.is_alphanumeric(), "-");
        match slug.trim_matches('-') {
            "" => Err(FunctionError::new("the text has no letters or digits").argument(0)),
            slug => Ok(slug.to_owned()),
        }
    }
}

fn main() {
    Server::new(Trial)
        .resource(Servers)
        .data_source(ServerLookup)
        .function(Slug)
        .run();
}
