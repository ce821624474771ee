#[derive(ctywire::Object)]
struct Thing {
    #[cty(required)]
    kind: String,
    #[cty(optional, rename = "kind")]
    other_kind: Option<String>,
}

fn main() {}
