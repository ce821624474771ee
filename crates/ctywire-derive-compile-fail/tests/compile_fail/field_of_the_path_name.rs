#[derive(ctywire::Object)]
struct ServerPath {
    #[cty(optional)]
    label: Option<String>,
}

#[derive(ctywire::Object)]
struct Server {
    #[cty(block)]
    path: Option<ServerPath>,
}

fn main() {}
