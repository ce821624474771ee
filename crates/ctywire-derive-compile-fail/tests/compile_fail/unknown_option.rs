#[derive(ctywire::Object)]
struct Thing {
    #[cty(requird)]
    name: String,
}

fn main() {}
