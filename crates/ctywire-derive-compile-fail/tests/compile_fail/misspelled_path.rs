#[derive(ctywire::Object)]
struct Server {
    #[cty(required)]
    size: u16,
    #[cty(block)]
    disk: Vec<Disk>,
}

#[derive(ctywire::Object)]
struct Disk {
    #[cty(optional)]
    kind: Option<String>,
}

fn main() {
    let _ = Server::path().disk().any().kind();
    let _ = Server::path().szie();
}
