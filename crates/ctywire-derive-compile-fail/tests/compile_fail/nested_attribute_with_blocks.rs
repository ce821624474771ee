#[derive(ctywire::Object)]
struct Rule {
    #[cty(required)]
    port: u16,
}

#[derive(ctywire::Object)]
struct Firewall {
    #[cty(block)]
    rule: Vec<Rule>,
}

#[derive(ctywire::Object)]
struct Thing {
    #[cty(nested, optional)]
    firewall: Option<Firewall>,
}

fn main() {}
