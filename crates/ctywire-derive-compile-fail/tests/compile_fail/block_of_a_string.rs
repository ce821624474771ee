#[derive(ctywire::Object)]
struct Thing {
    #[cty(block)]
    name: String,
}

fn main() {}
