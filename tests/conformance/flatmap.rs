//! The legacy flatmap state form: Terraform's own cases for reading a flatmap as a value
//! of a type (its `hcl2shim` tests), as data, plus the edges it leaves to chance.

use std::collections::HashMap;

use ctywire::flatmap::{self, UNKNOWN};
use ctywire::{ErrorKind, Type, Value};

fn flat(entries: &[(&str, &str)]) -> HashMap<String, String> {
    entries
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn ty(expr: &str) -> Type {
    expr.parse().unwrap()
}

fn s(text: &str) -> Value {
    Value::from(text)
}

fn obj(attributes: &[(&str, Value)]) -> Value {
    Value::object(attributes.iter().cloned())
}

#[track_caller]
fn check(entries: &[(&str, &str)], expr: &str, want: Value) {
    let t = ty(expr);
    let got = flatmap::decode(&flat(entries), &t).unwrap_or_else(|e| panic!("{entries:?}: {e}"));
    assert!(
        got.raw_equals(&want, &t),
        "{entries:?} as {expr}\n got: {got:?}\nwant: {want:?}"
    );
}

#[test]
fn terraform_cases() {
    check(&[], "object({})", obj(&[]));
    check(&[("ignored", "foo")], "object({})", obj(&[]));
    check(
        &[
            ("foo", "blah"),
            ("bar", "true"),
            ("baz", "12.5"),
            ("unk", UNKNOWN),
        ],
        "object({foo=string, bar=bool, baz=number, unk=bool})",
        obj(&[
            ("foo", s("blah")),
            ("bar", Value::from(true)),
            ("baz", Value::from(ctywire::Number::parse("12.5").unwrap())),
            ("unk", Value::unknown()),
        ]),
    );
    check(
        &[("foo.#", "0")],
        "object({foo=list(string)})",
        obj(&[("foo", Value::list([]))]),
    );
    check(
        &[("foo.#", UNKNOWN)],
        "object({foo=list(string)})",
        obj(&[("foo", Value::unknown())]),
    );
    check(
        &[("foo.#", "1"), ("foo.0", "hello")],
        "object({foo=list(string)})",
        obj(&[("foo", Value::list([s("hello")]))]),
    );
    check(
        &[
            ("foo.#", "2"),
            ("foo.0", "true"),
            ("foo.1", "false"),
            ("foo.2", "ignored"),
        ],
        "object({foo=list(bool)})",
        obj(&[("foo", Value::list([Value::from(true), Value::from(false)]))]),
    );
    check(
        &[("foo.#", "2"), ("foo.0", "hello")],
        "object({foo=tuple([string, bool])})",
        obj(&[("foo", Value::tuple([s("hello"), Value::Null]))]),
    );
    check(
        &[("foo.#", UNKNOWN)],
        "object({foo=tuple([string, bool])})",
        obj(&[("foo", Value::unknown())]),
    );
    check(
        &[("foo.#", "0")],
        "object({foo=set(string)})",
        obj(&[("foo", Value::set([]))]),
    );
    check(
        &[("foo.#", UNKNOWN)],
        "object({foo=set(string)})",
        obj(&[("foo", Value::unknown())]),
    );
    check(
        &[("foo.#", "1"), ("foo.24534534", "hello")],
        "object({foo=set(string)})",
        obj(&[("foo", Value::set([s("hello")]))]),
    );
    check(
        &[
            ("foo.#", "1"),
            ("foo.24534534", "true"),
            ("foo.95645644", "true"),
            ("foo.34533452", "false"),
        ],
        "object({foo=set(bool)})",
        obj(&[("foo", Value::set([Value::from(true), Value::from(false)]))]),
    );
    check(
        &[("foo.%", "0")],
        "object({foo=map(string)})",
        obj(&[("foo", Value::map::<&str>([]))]),
    );
    check(
        &[
            ("foo.%", "2"),
            ("foo.baz", "true"),
            ("foo.bar.baz", "false"),
        ],
        "object({foo=map(bool)})",
        obj(&[(
            "foo",
            Value::map([("baz", Value::from(true)), ("bar.baz", Value::from(false))]),
        )]),
    );
    check(
        &[("foo.%", UNKNOWN)],
        "object({foo=map(bool)})",
        obj(&[("foo", Value::unknown())]),
    );
    let bar_baz = |bar: &str, baz: bool| obj(&[("bar", s(bar)), ("baz", Value::from(baz))]);
    check(
        &[
            ("foo.#", "2"),
            ("foo.0.bar", "hello"),
            ("foo.0.baz", "1"),
            ("foo.1.bar", "world"),
            ("foo.1.baz", "false"),
        ],
        "object({foo=list(object({bar=string, baz=bool}))})",
        obj(&[(
            "foo",
            Value::list([bar_baz("hello", true), bar_baz("world", false)]),
        )]),
    );
    check(
        &[
            ("foo.#", "2"),
            ("foo.34534534.bar", "hello"),
            ("foo.34534534.baz", "1"),
            ("foo.93453345.bar", "world"),
            ("foo.93453345.baz", "false"),
        ],
        "object({foo=set(object({bar=string, baz=bool}))})",
        obj(&[(
            "foo",
            Value::set([bar_baz("hello", true), bar_baz("world", false)]),
        )]),
    );
    check(
        &[
            ("foo.#", "2"),
            ("foo.0.%", "2"),
            ("foo.0.a", "a"),
            ("foo.0.b", "b"),
            ("foo.1.%", "1"),
            ("foo.1.a", "a"),
        ],
        "object({foo=list(map(string))})",
        obj(&[(
            "foo",
            Value::list([
                Value::map([("a", s("a")), ("b", s("b"))]),
                Value::map([("a", s("a"))]),
            ]),
        )]),
    );
    let value_optional = |v: &str| obj(&[("value", s(v)), ("optional", Value::unknown())]);
    check(
        &[
            ("single.#", "1"),
            ("single.~1.value", "a"),
            ("single.~1.optional", UNKNOWN),
            ("two.#", "2"),
            ("two.~2381914684.value", "a"),
            ("two.~2381914684.optional", UNKNOWN),
            ("two.~2798940671.value", "b"),
            ("two.~2798940671.optional", UNKNOWN),
        ],
        "object({single=set(object({value=string, optional=string})), two=set(object({optional=string, value=string}))})",
        obj(&[
            ("single", Value::set([value_optional("a")])),
            ("two", Value::set([value_optional("a"), value_optional("b")])),
        ]),
    );
    check(
        &[("foo.#", "1")],
        "object({foo=set(object({bar=string}))})",
        obj(&[("foo", Value::set([obj(&[("bar", Value::Null)])]))]),
    );
    check(
        &[
            ("multi.#", "1"),
            ("multi.2.set.#", "1"),
            ("multi.2.set.3.required", "val"),
        ],
        "object({multi=set(object({set=set(object({required=string}))}))})",
        obj(&[(
            "multi",
            Value::set([obj(&[(
                "set",
                Value::set([obj(&[("required", s("val"))])]),
            )])]),
        )]),
    );
}

#[test]
fn a_broken_count_is_an_error_at_its_attribute() {
    for count in ["not-valid", "-1", "", "1.5", "99999999999999999999999"] {
        let err = flatmap::decode(
            &flat(&[("foo.#", count)]),
            &ty("object({foo=list(string)})"),
        )
        .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidValue, "{count:?}");
        assert_eq!(
            err.to_string(),
            format!(".foo: invalid count {count:?} for \"foo.\" in state")
        );
    }
    // Go's strconv.Atoi takes a plus sign and leading zeros.
    let v = flatmap::decode(
        &flat(&[("foo.#", "+01"), ("foo.0", "x")]),
        &ty("object({foo=list(string)})"),
    )
    .unwrap();
    assert_eq!(v["foo"], Value::list([s("x")]));
}

#[test]
fn bad_values_name_their_key_and_path() {
    let t = ty("object({disk=list(object({size=number}))})");
    let err = flatmap::decode(&flat(&[("disk.#", "1"), ("disk.0.size", "big")]), &t).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    assert_eq!(
        err.to_string(),
        r#".disk[0].size: invalid value for "disk.0.size" in state: a number is required"#
    );

    let err = flatmap::decode(
        &flat(&[("pair.#", "3")]),
        &ty("object({pair=tuple([string, bool])})"),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#".pair: wrong number of values for "pair." in state: got 3, but tuple([string,bool]) needs 2"#
    );

    let err = flatmap::decode(&flat(&[]), &ty("object({x=any})")).unwrap_err();
    assert_eq!(err.to_string(), ".x: cannot decode dynamic from flatmap");
    assert!(flatmap::decode(&flat(&[]), &Type::String).is_err());
}

#[test]
fn counts_cannot_ask_for_unbounded_elements() {
    let t = ty("object({foo=list(list(string))})");
    let err = flatmap::decode(&flat(&[("foo.#", "4000000000")]), &t).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
    assert!(err.to_string().starts_with(".foo: "), "{err}");
    // Within the limit, missing elements are null, as in Terraform.
    let v = flatmap::decode(&flat(&[("foo.#", "2")]), &t).unwrap();
    assert_eq!(v["foo"], Value::list([Value::Null, Value::Null]));
}

#[test]
fn set_elements_group_by_key_whatever_the_key_order() {
    // "a.1-x" sorts between "a.1" and "a.1.x": the element keys still group.
    let t = ty("object({a=set(object({x=string, y=string}))})");
    let v = flatmap::decode(
        &flat(&[
            ("a.#", "2"),
            ("a.1.x", "p"),
            ("a.1.y", "q"),
            ("a.1-", ""),
            ("a.1-.x", "r"),
        ]),
        &t,
    )
    .unwrap();
    let want = Value::set([
        obj(&[("x", s("p")), ("y", s("q"))]),
        obj(&[("x", s("r")), ("y", Value::Null)]),
    ]);
    assert!(
        v["a"].raw_equals(&want, &ty("set(object({x=string, y=string}))")),
        "{v:?}"
    );
}
