#[derive(ctywire::Object)]
struct Thing {
    #[cty(optional)]
    timeout: std::time::Duration,
}

fn main() {}
