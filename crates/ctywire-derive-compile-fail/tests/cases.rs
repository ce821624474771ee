//! Structs that cannot make a schema do not build; the compiler says why
//! (tests/compile_fail/*.stderr hold its messages). What must build is tested in
//! `crates/ctywire-derive-tests` (`path_names`), not as a trybuild case: a trybuild pass
//! case builds the library and its dependencies once more, in full.

#[test]
fn mismatches_do_not_build() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/compile_fail/*.rs");
}
