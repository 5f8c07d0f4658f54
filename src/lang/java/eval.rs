//! Constant integer expressions: literals, `Integer.MAX_VALUE`, same-class
//! `static final` constants, and `+ - * <<` of those.

use rustc_hash::FxHashMap as HashMap;

use tree_sitter::Node;

use super::syntax::{text, NodeExt};

pub fn eval(n: Node, src: &str, consts: &HashMap<String, u64>) -> Option<u64> {
    let t = text(n, src);
    let digits = |s: &str| s.trim_end_matches(['l', 'L']).replace('_', "");
    match n.kind() {
        "decimal_integer_literal" => digits(t).parse().ok(),
        "hex_integer_literal" => u64::from_str_radix(&digits(&t[2..]), 16).ok(),
        "binary_integer_literal" => u64::from_str_radix(&digits(&t[2..]), 2).ok(),
        "field_access" => match t.split_whitespace().collect::<String>().as_str() {
            "Integer.MAX_VALUE" => Some(i32::MAX as u64),
            "Long.MAX_VALUE" => Some(i64::MAX as u64),
            _ => None,
        },
        "identifier" => consts.get(t).copied(),
        "parenthesized_expression" => eval(n.named_child(0)?, src, consts),
        "cast_expression" => eval(n.field("value")?, src, consts),
        "binary_expression" => {
            let l = eval(n.field("left")?, src, consts)?;
            let r = eval(n.field("right")?, src, consts)?;
            match text(n.field("operator")?, src) {
                "+" => l.checked_add(r),
                "-" => l.checked_sub(r),
                "*" => l.checked_mul(r),
                "<<" => u32::try_from(r).ok().and_then(|r| l.checked_shl(r)),
                _ => None,
            }
        }
        _ => None,
    }
}
