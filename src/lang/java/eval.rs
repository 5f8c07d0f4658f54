//! Constant integer expressions: literals, `Integer.MAX_VALUE`, same-class
//! `static final` constants, casts, and `+ - * <<` of those, with Java's
//! arithmetic: `int` operations wrap at 32 bits and `long` ones at 64
//! (`1 << 33` is 2, `1L << 33` is 8,589,934,592), shift distances are masked.

use rustc_hash::FxHashMap as HashMap;

use super::tree::Node;

use super::syntax::{text, NodeExt};

type IntOp = fn(i32, i32) -> i32;
type LongOp = fn(i64, i64) -> i64;

/// A Java integer value with its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum JInt {
    Int(i32),
    Long(i64),
}

impl JInt {
    fn long(self) -> i64 {
        match self {
            JInt::Int(v) => i64::from(v),
            JInt::Long(v) => v,
        }
    }
}

/// The value of a constant expression, when it is known and not negative.
pub fn eval(n: Node, src: &str, consts: &HashMap<String, u64>) -> Option<u64> {
    u64::try_from(eval_typed(n, src, consts, 0)?.long()).ok()
}

/// Deeper expressions are not constants worth knowing (and the walk stays shallow).
const MAX_DEPTH: usize = 64;

fn eval_typed(n: Node, src: &str, consts: &HashMap<String, u64>, depth: usize) -> Option<JInt> {
    if depth > MAX_DEPTH {
        return None;
    }
    let t = text(n, src);
    let long = t.ends_with(['l', 'L']);
    let digits = |s: &str| s.trim_end_matches(['l', 'L']).replace('_', "");
    // Hex and binary `int` literals may use all 32 bits (`0xFFFFFFFF` is -1).
    let radix = |s: &str, r: u32| -> Option<JInt> {
        let v = u64::from_str_radix(&digits(s), r).ok()?;
        if long {
            Some(JInt::Long(v as i64))
        } else {
            Some(JInt::Int(u32::try_from(v).ok()? as i32))
        }
    };
    match n.kind_name() {
        "decimal_integer_literal" => {
            let v: u64 = digits(t).parse().ok()?;
            if long {
                Some(JInt::Long(i64::try_from(v).ok()?))
            } else {
                Some(JInt::Int(i32::try_from(v).ok()?))
            }
        }
        "hex_integer_literal" => radix(t.get(2..)?, 16),
        "binary_integer_literal" => radix(t.get(2..)?, 2),
        "field_access" => match t.split_whitespace().collect::<String>().as_str() {
            "Integer.MAX_VALUE" => Some(JInt::Int(i32::MAX)),
            "Long.MAX_VALUE" => Some(JInt::Long(i64::MAX)),
            _ => None,
        },
        // Constants keep their value, not their type: `int` when it fits.
        "identifier" => consts.get(t).map(|&v| match i32::try_from(v) {
            Ok(i) => JInt::Int(i),
            Err(_) => JInt::Long(v as i64),
        }),
        "parenthesized_expression" => eval_typed(n.named_child(0)?, src, consts, depth + 1),
        "cast_expression" => {
            let v = eval_typed(n.field("value")?, src, consts, depth + 1)?;
            match text(n.field("type")?, src) {
                "int" => Some(JInt::Int(v.long() as i32)),
                "long" => Some(JInt::Long(v.long())),
                _ => Some(v),
            }
        }
        "binary_expression" => {
            let l = eval_typed(n.field("left")?, src, consts, depth + 1)?;
            let r = eval_typed(n.field("right")?, src, consts, depth + 1)?;
            let op = text(n.field("operator")?, src);
            if op == "<<" {
                // The left operand's type; the distance is masked to its width.
                return Some(match l {
                    JInt::Int(a) => JInt::Int(a.wrapping_shl((r.long() & 31) as u32)),
                    JInt::Long(a) => JInt::Long(a.wrapping_shl((r.long() & 63) as u32)),
                });
            }
            let (f32, f64): (IntOp, LongOp) = match op {
                "+" => (i32::wrapping_add, i64::wrapping_add),
                "-" => (i32::wrapping_sub, i64::wrapping_sub),
                "*" => (i32::wrapping_mul, i64::wrapping_mul),
                _ => return None,
            };
            Some(match (l, r) {
                (JInt::Int(a), JInt::Int(b)) => JInt::Int(f32(a, b)),
                _ => JInt::Long(f64(l.long(), r.long())),
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(expr: &str) -> Option<u64> {
        let src = format!("class C {{ long x = {expr}; }}");
        let mut p = tree_sitter::Parser::new();
        p.set_language(&tree_sitter_java::LANGUAGE.into()).unwrap();
        let tree = p.parse(&src, None).unwrap();
        let arena = crate::lang::java::tree::Arena::new(&tree, &src);
        let start = src.find(expr).unwrap();
        let node = arena
            .root()
            .descendant_for_byte_range(start, start + expr.len())
            .unwrap();
        eval(node, &src, &HashMap::default())
    }

    #[test]
    fn java_int_and_long_arithmetic() {
        assert_eq!(value("1 << 33"), Some(2));
        assert_eq!(value("1L << 33"), Some(8_589_934_592));
        assert_eq!(value("(long) 1 << 33"), Some(8_589_934_592));
        assert_eq!(value("Integer.MAX_VALUE + 1"), None); // -2147483648
        assert_eq!(value("Integer.MAX_VALUE + 1L"), Some(2_147_483_648));
        assert_eq!(value("65536 * 65536"), Some(0));
        assert_eq!(value("65536L * 65536"), Some(4_294_967_296));
        assert_eq!(value("0x7fffffff"), Some(i32::MAX as u64));
        assert_eq!(value("0xFFFFFFFF"), None); // -1
        assert_eq!(value("1_000 * 100"), Some(100_000));
        assert_eq!(value("3000000000"), None); // not an int literal
    }
}
