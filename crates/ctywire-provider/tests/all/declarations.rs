//! Validation and planning by declaration under real Terraform (acceptance tests:
//! `TF_ACC=1`, Terraform found as ctywire-testing says): each refusal at the attribute
//! Terraform points at in the configuration, a default, a prefix refinement Terraform
//! plans with, `requires_replace_if`, and a `modify_plan` that sets a value at plan time.

use ctywire::Known;
use ctywire_provider::{Context, Plan, Resource, Result, Server};
use ctywire_testing::{Expect, PlanCheck, ResourceAction, StateCheck, Step, Test};

provider!(Decl, "decl");

/// A server kept in Terraform's state alone.
#[derive(ctywire::Object)]
struct Machine {
    #[cty(required, length(min = 3, max = 20))]
    name: String,
    /// In GB; a smaller size replaces the server, a larger one grows it in place.
    #[cty(optional, range(min = 1, max = 64), requires_replace_if = shrinks)]
    size: Option<u16>,
    #[cty(optional, computed, default = "standard", one_of("standard", "ssd"))]
    tier: Known<String>,
    #[cty(computed, prefix = "srv-", not_null, use_state_for_unknown)]
    id: Known<String>,
    /// Set by modify_plan.
    #[cty(computed)]
    note: Known<String>,
    #[cty(optional, conflicts_with(socket))]
    port: Option<u16>,
    #[cty(optional)]
    socket: Option<String>,
    #[cty(block)]
    disk: Vec<Disk>,
}

#[derive(ctywire::Object)]
struct Disk {
    #[cty(required, range(min = 1))]
    size: u32,
}

fn shrinks(prior: &Option<u16>, planned: &Option<u16>) -> bool {
    planned < prior
}

struct Machines;

impl Resource<()> for Machines {
    const NAME: &'static str = "server";
    type State = Machine;

    async fn modify_plan(&self, _: &Context<()>, plan: &mut Plan<Machine>) -> Result<()> {
        let mut planned = plan.planned()?;
        planned.note = Known::Known(format!("{} GB", planned.size.unwrap_or(1)));
        plan.set_planned(&planned)
    }

    async fn create(&self, _: &Context<()>, mut server: Machine) -> Result<Machine> {
        server.id = Known::Known(format!("srv-{}", server.name));
        Ok(server)
    }

    async fn update(&self, _: &Context<()>, _: Machine, planned: Machine) -> Result<Machine> {
        Ok(planned)
    }

    async fn delete(&self, _: &Context<()>, _: Machine) -> Result<()> {
        Ok(())
    }
}

fn test() -> Test {
    Test::new("example.com/ctywire/decl", || {
        Server::new(Decl).resource(Machines).plugin()
    })
}

/// `x` with `body` inside.
fn server(body: &str) -> String {
    format!("resource \"decl_server\" \"x\" {{\n{body}\n}}\n")
}

#[test]
fn refusals_are_at_the_attribute_terraform_shows() {
    test()
        .step(
            Step::config(server("  name = \"web\"\n  size = 22.5")).expect_error(
                r#"Invalid configuration with decl_server\.x, on main\.tf line 3, in resource "decl_server" "x": 3: size = 22\.5 expected u16 \(an integer from 0 to 65535\), found a fraction"#,
            ),
        )
        .step(
            Step::config(server("  name = \"web\"\n  tier = \"gold\"")).expect_error(
                r#"line 3, in resource "decl_server" "x": 3: tier = "gold" The value must be one of "standard", "ssd"\."#,
            ),
        )
        .step(
            Step::config(server(
                "  name = \"web\"\n  disk {\n    size = 5\n  }\n  disk {\n    size = 0\n  }",
            ))
            .expect_error(r#"line 7, in resource "decl_server" "x": 7: size = 0 The number must be at least 1\."#),
        )
        .step(
            Step::config(server("  name = \"web\"\n  port = 22\n  socket = \"/run/s\"")).expect_error(
                r#"line 3, in resource "decl_server" "x": 3: port = 22 `port` cannot be set together with `socket`\."#,
            ),
        )
        .run();
}

#[test]
fn defaults_refinements_replace_if_and_modify_plan() {
    // `y` is planned from what Terraform knows of `x.id` before it exists: with the
    // prefix refinement, `startswith` is known at plan time.
    let config = |size: u16| {
        format!(
            "{}resource \"decl_server\" \"y\" {{\n  name = startswith(decl_server.x.id, \"srv-\") && decl_server.x.id != null ? \"known\" : \"unknown\"\n}}\n",
            server(&format!("  name = \"web\"\n  size = {size}"))
        )
    };
    test()
        .step(
            Step::config(config(8))
                .plan_check(PlanCheck::resource_action(
                    "decl_server.x",
                    ResourceAction::Create,
                ))
                .plan_check(PlanCheck::known_value(
                    "decl_server.y",
                    "name",
                    Expect::string("known"),
                ))
                .plan_check(PlanCheck::known_value(
                    "decl_server.x",
                    "note",
                    Expect::string("8 GB"),
                ))
                .plan_check(PlanCheck::known_value(
                    "decl_server.x",
                    "tier",
                    Expect::string("standard"),
                ))
                .state_check(StateCheck::known_value(
                    "decl_server.x",
                    "id",
                    Expect::string("srv-web"),
                ))
                .state_check(StateCheck::known_value(
                    "decl_server.x",
                    "tier",
                    Expect::string("standard"),
                )),
        )
        .step(
            Step::config(config(16))
                .plan_check(PlanCheck::resource_action(
                    "decl_server.x",
                    ResourceAction::Update,
                ))
                .plan_check(PlanCheck::known_value(
                    "decl_server.x",
                    "note",
                    Expect::string("16 GB"),
                )),
        )
        .step(
            Step::config(config(4)).plan_check(PlanCheck::resource_action(
                "decl_server.x",
                ResourceAction::Replace,
            )),
        )
        .run();
}
