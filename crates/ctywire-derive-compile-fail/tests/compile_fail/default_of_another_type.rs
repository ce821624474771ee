#[derive(ctywire::Object)]
struct Server {
    #[cty(optional, computed, default = "ten")]
    size: ctywire::Known<u32>,
}

fn main() {}
