//! Configurations Terraform refuses, and HCL's diagnostics for them
//! (`vectors/config/errors.json`, written by `vectors/gen/schema/config_errors.go` with
//! HCL 2.14.1): this crate gives the same summaries, details and positions.
//!
//! Compared as sets: HCL reports a problem of a body once for each time the body is read
//! (twice for an array element that is not an object), and in the random order of Go's
//! maps where a spec is a map. One difference is a matter of versions: go-cty 1.12.1
//! says `number required` where the go-cty of current Terraform (>= 1.14) says
//! `number required, but have bool`; the test removes `, but have T` from this crate's
//! details before comparing.

use std::collections::BTreeSet;

use ctywire::config::Config;
use ctywire::ProviderSchemas;

fn schemas() -> ProviderSchemas {
    ProviderSchemas::from_json(&std::fs::read("examples/schema/provider.json").unwrap()).unwrap()
}

/// `text` without go-cty >= 1.14's `, but have TYPE` after `required`.
fn as_gocty_1_12(text: &str) -> String {
    let mut out = text.to_owned();
    while let Some(i) = out.find(" required, but have ") {
        let start = i + " required".len();
        let end = out[start + ", but have ".len()..]
            .find(['.', ';'])
            .map_or(out.len(), |e| start + ", but have ".len() + e);
        out.replace_range(start..end, "");
    }
    out
}

#[test]
fn diagnostics_match_hcls() {
    let text = std::fs::read_to_string("vectors/config/errors.json").unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
    let schemas = schemas();
    let mut failures = Vec::new();
    let cases = manifest["cases"].as_array().unwrap();
    assert!(cases.len() >= 29);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let want: BTreeSet<String> = case["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                format!(
                    "{}:{} {}; {}",
                    d["line"],
                    d["column"],
                    d["summary"].as_str().unwrap(),
                    d["detail"].as_str().unwrap()
                )
            })
            .collect();
        let config = case["config"].as_str().unwrap();
        let result = Config::from_sources([("main.tf.json", config)]).and_then(|c| {
            c.value(
                &case["address"].as_str().unwrap().parse().unwrap(),
                &schemas,
            )
        });
        let got: BTreeSet<String> = match result {
            Ok(_) => BTreeSet::new(),
            Err(diags) => diags
                .iter()
                .map(|d| {
                    let at = d.location.as_ref().map_or((0, 0), |l| (l.line, l.column));
                    format!(
                        "{}:{} {}; {}",
                        at.0,
                        at.1,
                        d.summary,
                        as_gocty_1_12(&d.detail)
                    )
                })
                .collect(),
        };
        if got != want {
            failures.push(format!("{name}:\n  want {want:?}\n  got  {got:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
