//! A stored state of an earlier schema version read as a struct: the blocks its version
//! did not have read as no blocks.

use ctywire::schema::{Block, BlockNesting};
use ctywire::Value;

/// `value` (an object of `block`'s type) with each null LIST, SET, MAP or GROUP block
/// made its empty value ([`NestedBlock::empty_value`](ctywire::schema::NestedBlock::empty_value)),
/// in nested blocks too. A state stored before the block was added to the schema leaves
/// it out, which reads as null, and a struct's `Vec` of blocks cannot hold null;
/// Terraform reads such a block as none too. A SINGLE block stays null, and what is not
/// an object is returned as it is.
pub(crate) fn absent_blocks_empty(value: Value, block: &Block) -> Value {
    if value.as_object().is_none() {
        return value;
    }
    let mut out = value.clone();
    for (name, nested) in &block.block_types {
        let Some(current) = value.get(name) else {
            continue;
        };
        let inner = |v: &Value| absent_blocks_empty(v.clone(), &nested.block);
        let filled = match nested.nesting {
            _ if current.is_null() => nested.empty_value(),
            // A dynamic block's elements are a tuple or an object: left as they are.
            _ if nested.is_dynamic() || current.is_unknown() => continue,
            BlockNesting::Single | BlockNesting::Group => inner(current),
            BlockNesting::List => match current.as_slice() {
                Some(elements) => Value::list(elements.iter().map(inner)),
                None => continue,
            },
            BlockNesting::Set => match current.as_slice() {
                Some(elements) => Value::set(elements.iter().map(inner)),
                None => continue,
            },
            BlockNesting::Map => match current.as_map() {
                Some(m) => Value::map(m.iter().map(|(k, v)| (k, inner(v)))),
                None => continue,
            },
        };
        out = match out.with_attribute(name, filled) {
            Ok(o) => o,
            // Not reached: `out` is the object `value` is.
            Err(_) => return value,
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ctywire::schema::{Attribute, NestedBlock};
    use ctywire::Type;

    fn schema() -> Block {
        let port = Block::new().attribute("port", Attribute::new(Type::Number).required());
        let disk = Block::new()
            .attribute("size", Attribute::new(Type::Number).required())
            .block_type("rule", NestedBlock::new(BlockNesting::Set, port.clone()));
        Block::new()
            .attribute("name", Attribute::new(Type::String).optional())
            .block_type("disk", NestedBlock::new(BlockNesting::List, disk))
            .block_type("rule", NestedBlock::new(BlockNesting::Set, port.clone()))
            .block_type("by", NestedBlock::new(BlockNesting::Map, port.clone()))
            .block_type("net", NestedBlock::new(BlockNesting::Single, port))
    }

    #[test]
    fn null_collections_of_blocks_become_empty_at_every_depth() {
        let stored = Value::object([
            ("name", Value::Null),
            (
                "disk",
                Value::list([Value::object([
                    ("size", Value::from(1)),
                    ("rule", Value::Null),
                ])]),
            ),
            ("rule", Value::Null),
            ("by", Value::Null),
            ("net", Value::Null),
        ]);
        let filled = absent_blocks_empty(stored, &schema());
        assert!(filled["name"].is_null(), "an attribute stays null");
        assert!(filled["net"].is_null(), "a SINGLE block stays null");
        assert_eq!(filled["rule"], Value::set([]));
        assert_eq!(filled["by"].len(), Some(0));
        assert_eq!(filled["disk"][0]["rule"], Value::set([]));
        assert_eq!(filled["disk"][0]["size"], Value::from(1));
    }

    #[test]
    fn present_blocks_and_non_objects_are_kept() {
        let rule = Value::set([Value::object([("port", Value::from(22))])]);
        let stored = Value::object([
            ("name", Value::from("a")),
            ("disk", Value::list([])),
            ("rule", rule.clone()),
            (
                "by",
                Value::map([("x", Value::object([("port", Value::from(1))]))]),
            ),
            ("net", Value::object([("port", Value::from(2))])),
        ]);
        assert_eq!(absent_blocks_empty(stored.clone(), &schema()), stored);
        assert!(absent_blocks_empty(Value::Null, &schema()).is_null());
    }
}
