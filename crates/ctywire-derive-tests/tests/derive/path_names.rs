//! A type of the name the derive gives its typed path struct (`ServerPath`), beside the
//! derived struct, in a module and in a function: no clash, and both work. The items
//! stand at this module's top level as a user's would at a crate's: if the derive's
//! typed path struct clashed with them, this test binary would not build.

/// The user's own `ServerPath`.
#[derive(Debug, PartialEq)]
struct ServerPath(&'static str);

#[derive(ctywire::Object)]
struct Server {
    #[cty(required)]
    size: u16,
}

mod other {
    pub struct DiskPath;
}
use other::*;

#[derive(ctywire::Object)]
struct Disk {
    #[cty(optional)]
    kind: Option<String>,
}

#[test]
fn a_user_type_of_the_typed_path_struct_s_name_builds_beside_the_derive() {
    assert_eq!(ServerPath("mine"), ServerPath("mine"));
    let path: ctywire::Path = Server::path().size().into();
    assert_eq!(path, ctywire::Path::root().attribute("size"));
    let _: DiskPath = DiskPath;
    let _ = ctywire::Path::from(Disk::path().kind());

    #[derive(ctywire::Object)]
    struct Local {
        #[cty(optional)]
        label: Option<String>,
    }
    struct LocalPath;
    let _ = LocalPath;
    let _ = ctywire::Path::from(Local::path().label());
}
