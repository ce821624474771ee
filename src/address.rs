//! What Terraform's resource addresses and `show -json` documents share: the key of a
//! resource instance.

use std::fmt;

/// The key of one instance of a resource: an index under `count`, a string under
/// `for_each` (Terraform's `IntKey` and `StringKey`). Displayed as in an address: `[0]`,
/// `["a"]`.
///
/// Configuration addresses ([`config::Address`](crate::config::Address)) and
/// `show -json` documents ([`tfjson::ResourceChange::index`](crate::tfjson::ResourceChange),
/// [`tfjson::Resource::index`](crate::tfjson::Resource)) use this one type.
///
/// ```
/// use ctywire::config::Address;
/// use ctywire::InstanceKey;
///
/// let Address::Resource { key, .. } = r#"cloud_bucket.logs["us"]"#.parse()? else { unreachable!() };
/// assert_eq!(key, Some(InstanceKey::String("us".into())));
/// assert_eq!(InstanceKey::Int(1).to_string(), "[1]");
/// assert_eq!(InstanceKey::String("a\"b".into()).to_string(), r#"["a\"b"]"#);
///
/// // In a plan.
/// use ctywire::tfjson::Plan;
/// let plan = Plan::from_json(&std::fs::read("examples/plan/plan.json")?)?;
/// let web = plan.resource_change("aws_instance.web[1]").unwrap();
/// assert_eq!(web.index, Some(InstanceKey::Int(1)));
/// let subnet = plan.resource_change(r#"module.network.aws_subnet.private["a"]"#).unwrap();
/// let key = subnet.index.as_ref().unwrap();
/// assert_eq!(format!("{}.{}{key}", subnet.type_name, subnet.name), r#"aws_subnet.private["a"]"#);
/// assert!(plan.resource_change("aws_db_instance.main").unwrap().index.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum InstanceKey {
    /// `[N]`, an index under `count`.
    Int(i64),
    /// `["KEY"]`, a key under `for_each`.
    String(String),
}

impl fmt::Display for InstanceKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstanceKey::Int(i) => write!(f, "[{i}]"),
            InstanceKey::String(s) => {
                let mut quoted = Vec::new();
                crate::text::go_quote_into(s, &mut quoted);
                write!(f, "[{}]", String::from_utf8_lossy(&quoted))
            }
        }
    }
}
