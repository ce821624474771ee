#[derive(ctywire::Object, serde::Serialize)]
struct Thing {
    #[cty(required, rename = "type")]
    #[serde(rename = "kind")]
    kind: String,
}

fn main() {}
