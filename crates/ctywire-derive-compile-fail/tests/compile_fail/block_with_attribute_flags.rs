#[derive(ctywire::Object)]
struct Disk {
    #[cty(required)]
    size: u64,
}

#[derive(ctywire::Object)]
struct Thing {
    #[cty(block, optional)]
    disk: Vec<Disk>,
}

fn main() {}
