//! Structs that cannot make a schema do not build; the compiler says why
//! (tests/compile_fail/*.stderr hold its messages). What must build does
//! (tests/compile_pass: a user type named as a derived struct's typed path struct).

#[test]
fn mismatches_do_not_build() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/compile_fail/*.rs");
}

#[test]
fn what_must_build_builds() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/compile_pass/*.rs");
}
