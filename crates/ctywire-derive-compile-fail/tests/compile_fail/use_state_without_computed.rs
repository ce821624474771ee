#[derive(ctywire::Object)]
struct Server {
    #[cty(optional, use_state_for_unknown)]
    size: Option<u32>,
}

fn main() {}
