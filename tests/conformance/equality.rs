//! `cty_equals` and `raw_equals` against go-cty's `Equals` and `RawEquals` on the pairs
//! of `vectors/equality/go-cty.json` (written by `vectors/gen/equality/main.go` with
//! go-cty 1.14.4), and `diff` against `raw_equals` on the same pairs.

use ctywire::{diff, msgpack, Type, Value};
use serde_json::Value as Json;

fn decode(case: &Json, field: &str, ty: &Type) -> Value {
    let bytes: Vec<u8> = (0..case[field].as_str().unwrap().len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&case[field].as_str().unwrap()[i..i + 2], 16).unwrap())
        .collect();
    msgpack::decode(&bytes, ty).unwrap_or_else(|e| panic!("{}: {field}: {e}", case["name"]))
}

#[test]
fn go_cty_equals_and_raw_equals() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/vectors/equality/go-cty.json");
    let doc: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    let mut failures = Vec::new();
    let mut varying = 0;
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let ty = Type::from_json(&case["type"].to_string()).unwrap();
        let (a, b) = (decode(case, "a", &ty), decode(case, "b", &ty));
        // go-cty's answers: one, or those Go's map order gives.
        let answer = |j: &Json| j.as_bool();
        let allowed: Vec<Option<bool>> = match &case["equals"] {
            Json::Array(answers) => {
                varying += 1;
                answers.iter().map(answer).collect()
            }
            one => vec![answer(one)],
        };
        for (x, y) in [(&a, &b), (&b, &a)] {
            let got = x.cty_equals(y, &ty);
            if !allowed.contains(&got) {
                failures.push(format!(
                    "{name}: {x:?} cty_equals {y:?} is {got:?}, go-cty says {allowed:?}"
                ));
            }
            let raw = x.raw_equals(y, &ty);
            if raw != case["raw_equals"].as_bool().unwrap() {
                failures.push(format!("{name}: {x:?} raw_equals {y:?} is {raw}"));
            }
            if diff(x, y, &ty).is_empty() != raw {
                failures.push(format!("{name}: diff and raw_equals disagree"));
            }
        }
    }
    eprintln!(
        "{} cases ({varying} where go-cty's answer varies with Go's map order), {} failures",
        cases.len(),
        failures.len()
    );
    assert!(cases.len() > 500, "too few cases");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
