#[derive(ctywire::Object)]
struct Server {
    #[cty(optional, conflicts_with(szie))]
    port: Option<u16>,
    #[cty(optional)]
    size: Option<u16>,
}

fn main() {}
