//! Structs that cannot make a schema do not build; the compiler says why
//! (tests/compile_fail/*.stderr hold its messages).

#[test]
fn mismatches_do_not_build() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/compile_fail/*.rs");
}
