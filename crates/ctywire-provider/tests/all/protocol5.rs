//! The framework over protocol 5 under real Terraform (run with `TF_ACC=1`): a provider
//! served by `Server::plugin_protocol5` (Terraform picks the highest protocol both sides
//! offer, so `plugin()`, which offers 6 too, is always spoken to in 6). Plan, apply, an
//! empty re-plan, an update, a data source, and destroy; Terraform's trace log names the
//! protocol-5 client for every call.

use ctywire::Known;
use ctywire_provider::{Context, DataSource, Resource, Result, Server};
use ctywire_testing::{Terraform, Workspace};

provider!(Five, "five");

/// A thing with a LIST block, a SINGLE block and a default: what protocol 5 carries as
/// blocks.
#[derive(ctywire::Object)]
struct Thing {
    #[cty(required, requires_replace)]
    name: String,
    #[cty(optional)]
    size: Option<u32>,
    #[cty(optional, computed, default = "small")]
    kind: Known<String>,
    #[cty(computed, prefix = "five-", use_state_for_unknown)]
    id: Known<String>,
    #[cty(block)]
    port: Vec<Port>,
    #[cty(block)]
    owner: Option<Owner>,
}

#[derive(ctywire::Object)]
struct Port {
    #[cty(required)]
    number: u16,
}

#[derive(ctywire::Object)]
struct Owner {
    #[cty(required)]
    team: String,
}

struct Things;

impl Resource<()> for Things {
    const NAME: &'static str = "thing";
    type State = Thing;

    async fn create(&self, _: &Context<()>, mut thing: Thing) -> Result<Thing> {
        thing.id = Known::Known(format!("five-{}", thing.name));
        Ok(thing)
    }

    async fn update(&self, _: &Context<()>, _: Thing, planned: Thing) -> Result<Thing> {
        Ok(planned)
    }

    async fn delete(&self, _: &Context<()>, _: Thing) -> Result<()> {
        Ok(())
    }
}

/// The greeting for a name.
#[derive(ctywire::Object)]
struct Greeting {
    #[cty(required)]
    name: String,
    #[cty(computed)]
    text: Known<String>,
}

struct Greetings;

impl DataSource<()> for Greetings {
    const NAME: &'static str = "greeting";
    type State = Greeting;

    async fn read(&self, _: &Context<()>, mut greeting: Greeting) -> Result<Greeting> {
        greeting.text = Known::Known(format!("hello, {}", greeting.name));
        Ok(greeting)
    }
}

fn server() -> Server<Five> {
    Server::new(Five).resource(Things).data_source(Greetings)
}

fn config(size: u32) -> String {
    format!(
        r#"
resource "five_thing" "x" {{
  name = "a"
  size = {size}
  port {{
    number = 22
  }}
  port {{
    number = 443
  }}
  owner {{
    team = "ops"
  }}
}}

data "five_greeting" "x" {{
  name = five_thing.x.id
}}

output "id" {{
  value = five_thing.x.id
}}

output "kind" {{
  value = five_thing.x.kind
}}

output "greeting" {{
  value = data.five_greeting.x.text
}}
"#
    )
}

/// Terraform's log lines of its protocol-5 (`GRPCProvider: `) and protocol-6
/// (`GRPCProvider.v6: `) clients, counted.
fn clients(log: &str) -> (usize, usize) {
    let v5 = log.matches("GRPCProvider: ").count();
    let v6 = log.matches("GRPCProvider.v6: ").count();
    (v5, v6)
}

#[test]
fn a_provider_served_on_protocol_5_alone_plans_applies_reads_and_destroys() {
    let Some(terraform) = Terraform::for_acceptance() else {
        return;
    };
    let plugin = || {
        server()
            .plugin_protocol5()
            .expect("protocol 5 carries these schemas")
    };
    let mut ws = Workspace::in_process(&terraform, "example.com/test/five", plugin)
        .unwrap_or_else(|e| panic!("{e}"));
    ws.env("TF_LOG", "trace");

    ws.configure(&config(1));
    let run = ws.terraform(&["plan", "-no-color", "-detailed-exitcode"]);
    run.expect_status(2);
    assert!(
        run.stdout.contains("five_thing.x will be created"),
        "{}",
        run.stdout
    );
    let (v5, v6) = clients(&run.stderr);
    assert!(
        v5 > 0 && v6 == 0,
        "protocol 5 calls: {v5}, protocol 6: {v6}"
    );
    assert!(
        run.stderr.contains("GRPCProvider: PlanResourceChange"),
        "no protocol-5 plan in Terraform's log"
    );

    let run = ws.terraform(&["apply", "-no-color", "-auto-approve"]);
    run.success();
    let (v5, v6) = clients(&run.stderr);
    assert!(
        v5 > 0 && v6 == 0,
        "protocol 5 calls: {v5}, protocol 6: {v6}"
    );
    assert!(
        run.stderr.contains("GRPCProvider: ApplyResourceChange")
            && run.stderr.contains("GRPCProvider: ReadDataSource"),
        "no protocol-5 apply or data source read in Terraform's log"
    );
    let out = ws.terraform(&["output", "-json"]);
    out.success();
    let out = out.json();
    assert_eq!(out["id"]["value"], "five-a");
    assert_eq!(out["kind"]["value"], "small");
    assert_eq!(out["greeting"]["value"], "hello, five-a");

    // The state as Terraform keeps it: both blocks, the default and the id.
    let show = ws.terraform(&["show", "-json"]);
    show.success();
    let doc = show.json();
    let thing = doc["values"]["root_module"]["resources"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["address"] == "five_thing.x"))
        .map(|r| r["values"].clone())
        .unwrap_or_default();
    assert_eq!(thing["port"][1]["number"], 443, "{doc}");
    assert_eq!(thing["owner"]["team"], "ops", "{doc}");

    // An empty re-plan; then an update in place, which keeps the id known.
    ws.terraform(&["plan", "-no-color", "-detailed-exitcode"])
        .expect_status(0);
    ws.configure(&config(2));
    let run = ws.terraform(&["plan", "-no-color", "-detailed-exitcode"]);
    run.expect_status(2);
    let resource_plan = run
        .stdout
        .split("# five_thing.x")
        .nth(1)
        .unwrap_or_default();
    let resource_plan = resource_plan.split("Plan:").next().unwrap_or_default();
    assert!(
        resource_plan.contains("will be updated in-place")
            && !resource_plan.contains("known after apply"),
        "{}",
        run.stdout
    );
    ws.terraform(&["apply", "-no-color", "-auto-approve"])
        .success();
    ws.terraform(&["plan", "-no-color", "-detailed-exitcode"])
        .expect_status(0);

    let run = ws.terraform(&["destroy", "-no-color", "-auto-approve"]);
    run.success();
    assert!(
        run.stdout
            .contains("Destroy complete! Resources: 1 destroyed."),
        "{}",
        run.stdout
    );
    let (v5, v6) = clients(&run.stderr);
    assert!(
        v5 > 0 && v6 == 0,
        "protocol 5 calls: {v5}, protocol 6: {v6}"
    );
}

/// A schema protocol 5 cannot express (a nested attribute) is refused by name, not
/// served as if it could.
#[test]
fn protocol_5_alone_refuses_a_nested_attribute() {
    #[derive(ctywire::Object)]
    struct Nested {
        #[cty(required)]
        name: String,
        #[cty(optional, nested)]
        labels: Option<Vec<Port>>,
    }
    struct WithNested;
    impl Resource<()> for WithNested {
        const NAME: &'static str = "nested";
        type State = Nested;
        async fn create(&self, _: &Context<()>, planned: Nested) -> Result<Nested> {
            Ok(planned)
        }
        async fn update(&self, _: &Context<()>, _: Nested, planned: Nested) -> Result<Nested> {
            Ok(planned)
        }
        async fn delete(&self, _: &Context<()>, _: Nested) -> Result<()> {
            Ok(())
        }
    }
    let Err(e) = Server::new(Five).resource(WithNested).plugin_protocol5() else {
        panic!("protocol 5 served a nested attribute");
    };
    let said = e.to_string();
    assert!(said.contains("five_nested"), "{said}");
    assert!(server().plugin_protocol5().is_ok());
}
