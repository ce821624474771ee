#[derive(ctywire::Object)]
struct Server {
    #[cty(required, default = "standard")]
    tier: String,
}

fn main() {}
