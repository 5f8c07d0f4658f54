//! Constant integer expressions: literals, `MAX` constants, same-file `const`
//! items, and `+ - * <<` of those.

use rustc_hash::FxHashMap as HashMap;

/// Value of a constant integer expression: literals, `MAX` constants, same-file
/// `const` items, and `+ - * <<` of those.
pub fn eval_int(e: &syn::Expr, consts: &HashMap<String, u64>) -> Option<u64> {
    match e {
        syn::Expr::Lit(l) => match &l.lit {
            syn::Lit::Int(i) => i.base10_parse::<u64>().ok(),
            _ => None,
        },
        syn::Expr::Paren(p) => eval_int(&p.expr, consts),
        syn::Expr::Group(g) => eval_int(&g.expr, consts),
        syn::Expr::Cast(c) => eval_int(&c.expr, consts),
        syn::Expr::Path(p) => {
            let segs = super::resolve::segments(&p.path);
            match segs.as_slice() {
                [ty, max] if max == "MAX" => match ty.as_str() {
                    "u8" => Some(u8::MAX as u64),
                    "u16" => Some(u16::MAX as u64),
                    "u32" => Some(u32::MAX as u64),
                    "i32" => Some(i32::MAX as u64),
                    "i64" => Some(i64::MAX as u64),
                    "u64" | "usize" => Some(u64::MAX),
                    _ => None,
                },
                [name] => consts.get(name).copied(),
                _ => None,
            }
        }
        syn::Expr::Binary(b) => {
            let l = eval_int(&b.left, consts)?;
            let r = eval_int(&b.right, consts)?;
            match b.op {
                syn::BinOp::Add(_) => l.checked_add(r),
                syn::BinOp::Sub(_) => l.checked_sub(r),
                syn::BinOp::Mul(_) => l.checked_mul(r),
                syn::BinOp::Shl(_) => u32::try_from(r).ok().and_then(|r| l.checked_shl(r)),
                _ => None,
            }
        }
        _ => None,
    }
}
