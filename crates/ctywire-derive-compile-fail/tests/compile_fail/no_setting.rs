#[derive(ctywire::Object)]
struct Thing {
    #[cty(sensitive)]
    secret: String,
}

fn main() {}
