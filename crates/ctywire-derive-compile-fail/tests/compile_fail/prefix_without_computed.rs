#[derive(ctywire::Object)]
struct Server {
    #[cty(optional, prefix = "srv-")]
    id: Option<String>,
}

fn main() {}
