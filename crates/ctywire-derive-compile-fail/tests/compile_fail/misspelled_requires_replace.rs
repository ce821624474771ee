#[derive(ctywire::Object)]
struct Server {
    #[cty(required, requires_replce)]
    name: String,
}

fn main() {}
