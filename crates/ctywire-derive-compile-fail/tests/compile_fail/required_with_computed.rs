#[derive(ctywire::Object)]
struct Thing {
    #[cty(required, computed)]
    id: String,
}

fn main() {}
