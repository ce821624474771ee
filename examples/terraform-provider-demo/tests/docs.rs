//! The committed documentation (`docs/`) is what `ctywire_provider::docs` makes from the
//! demo's schema (`schema_json`, as `terraform providers schema -json` prints it) and
//! `examples/`. After a change to either, write the pages again with
//! `CTYWIRE_WRITE_DOCS=1 cargo test -p terraform-provider-demo --test docs`.

use std::path::Path;

use ctywire_provider::docs::Docs;

#[test]
fn the_committed_docs_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let docs = Docs::from_json(terraform_provider_demo::schema_json().as_bytes())
        .unwrap()
        .examples(root.join("examples"));
    assert_eq!(docs.name(), "demo");
    if std::env::var_os("CTYWIRE_WRITE_DOCS").is_some() {
        docs.write(&root.join("docs")).unwrap();
    }
    if let Err(e) = docs.check(&root.join("docs")) {
        panic!("{e}\n(write them with CTYWIRE_WRITE_DOCS=1 cargo test -p terraform-provider-demo --test docs)");
    }
}
