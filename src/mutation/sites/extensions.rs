//! The operands a function writes extended: a variable or a field of one
//! as the receiver of a method call with plain arguments (`ptr.offset(8)`,
//! `m.max(2)`) or as an operand of arithmetic with a plain other side
//! (`offset + closing_pos`). Where the same function gives that operand
//! bare, the extension may be meant: nine reads of `ptr.offset(8)` and one
//! of `ptr` where the ninth was meant (see the `extend` operator).

use quote::ToTokens;
use syn::spanned::Spanned as _;
use syn::{BinOp, Expr, ExprBinary, ExprLit, ExprMethodCall, Lit};

use super::collector::Collector;
use super::expressions::binding;
use super::space::Extension;
use crate::code::{Scope, free_variables, text_without_spaces};

/// Methods whose call gives another kind of value than its receiver (a
/// length, an iterator, a view, a test) or only a copy of it: a receiver
/// given bare is not one of them left out.
const NOT_EXTENSIONS: &[&str] = &[
    "len",
    "is_empty",
    "iter",
    "iter_mut",
    "into_iter",
    "clone",
    "to_owned",
    "to_string",
    "as_ref",
    "as_mut",
    "borrow",
    "borrow_mut",
    "unwrap",
    "expect",
    "as_ptr",
    "as_mut_ptr",
    "as_slice",
    "as_str",
    "as_bytes",
    "is_some",
    "is_none",
    "is_ok",
    "is_err",
    "ok",
    "err",
    "into",
    "get",
    "contains",
    "push",
    "insert",
    "remove",
];

/// The longest extension kept: a long one is code of its own, not an
/// operand's extension.
const LONGEST: usize = 60;

impl Collector<'_> {
    /// Notes `call` when its receiver is a bare operand and its arguments
    /// are plain.
    pub(super) fn method_extension(&mut self, call: &ExprMethodCall, scope: &Scope) {
        let name = call.method.to_string();
        if NOT_EXTENSIONS.contains(&name.as_str()) || !call.args.iter().all(plain) {
            return;
        }
        self.extension(&call.receiver, call, false, scope);
    }

    /// Notes `binary` when it is arithmetic with a bare operand on one
    /// side and a plain value other than `1` on the other (`e ± 1` is the
    /// `offset` operator's).
    pub(super) fn binary_extension(&mut self, binary: &ExprBinary, scope: &Scope) {
        // The operators that regroup (see `binding`), the logical ones
        // aside.
        let token = binary.op.to_token_stream().to_string();
        let logical = matches!(binary.op, BinOp::And(_) | BinOp::Or(_));
        if logical || binding(&token).is_none() {
            return;
        }
        for (operand, other) in [(&binary.left, &binary.right), (&binary.right, &binary.left)] {
            let one = matches!(&**other, Expr::Lit(ExprLit { lit: Lit::Int(int), .. }) if int.base10_digits() == "1");
            if plain(other) && !one {
                self.extension(operand, binary, true, scope);
            }
        }
    }

    /// Notes `whole` as an extension of `operand` if that is bare.
    fn extension(&mut self, operand: &Expr, whole: &impl ToTokens, binary: bool, scope: &Scope) {
        if !bare(operand) {
            return;
        }
        let whole_range = whole.span().byte_range();
        let text = self.text_of(&whole_range).to_string();
        if text.len() > LONGEST || text.contains('\n') {
            return;
        }
        let range = operand.span().byte_range();
        let own = text_without_spaces(self.text_of(&range));
        let root = own.split('.').next().unwrap_or_default().to_string();
        let mut reads = free_variables(whole);
        reads.remove(&root);
        let extension = Extension {
            operand: own,
            text,
            at: range.start - whole_range.start,
            binary,
            reads,
        };
        let key = (self.file, scope.function.clone(), scope.function_line);
        let known = self.space.extended.entry(key).or_default();
        if !known
            .iter()
            .any(|k| k.operand == extension.operand && k.text == extension.text)
        {
            known.push(extension);
        }
    }
}

/// A variable or a field of one (`ptr`, `self.len`, `size.width`).
fn bare(expr: &Expr) -> bool {
    match expr {
        Expr::Path(path) => path.qself.is_none() && path.path.get_ident().is_some(),
        Expr::Field(field) => bare(&field.base),
        _ => false,
    }
}

/// A value made of literals, names, fields, casts and operators: no call,
/// closure, block or macro.
fn plain(expr: &Expr) -> bool {
    match expr {
        Expr::Lit(_) | Expr::Path(_) => true,
        Expr::Field(field) => plain(&field.base),
        Expr::Unary(unary) => plain(&unary.expr),
        Expr::Cast(cast) => plain(&cast.expr),
        Expr::Paren(paren) => plain(&paren.expr),
        Expr::Reference(reference) => plain(&reference.expr),
        Expr::Binary(binary) => plain(&binary.left) && plain(&binary.right),
        _ => false,
    }
}
