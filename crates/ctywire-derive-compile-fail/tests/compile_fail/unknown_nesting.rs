#[derive(ctywire::Object)]
struct Rule {
    #[cty(required)]
    port: u16,
}

#[derive(ctywire::Object)]
struct Thing {
    #[cty(nested(group), optional)]
    rule: Option<Rule>,
}

fn main() {}
