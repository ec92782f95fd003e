//! Values that must not fall below a floor: a `let`'s value whose variable
//! the statements after it, in its block, subtract a number from or divide
//! by (`let exp = E;` before `UNITS[exp - 1]`, `n / exp`). When `E` is
//! below it in a case nobody thought of, the fix is often at the `let`
//! (`E.max(1)`), not at each use (bytesize's `exp` of 0 for a size just
//! over a kilobyte).

use std::collections::BTreeMap;

use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{BinOp, Expr, Pat, Stmt};

use crate::code::macro_arguments;

/// Per value given to a `let` (by its bytes), the least value its
/// variable must have for the subtractions and divisions after it not to
/// panic: the largest number subtracted from it, 1 for a divisor. (Not
/// `x -= 1`: a counter's first value is no floor of its later ones.)
pub(super) fn floors(file: &syn::File) -> BTreeMap<(usize, usize), u128> {
    let mut finder = Floors {
        found: BTreeMap::new(),
    };
    finder.visit_file(file);
    finder.found
}

struct Floors {
    found: BTreeMap<(usize, usize), u128>,
}

impl<'ast> Visit<'ast> for Floors {
    fn visit_block(&mut self, block: &'ast syn::Block) {
        for (index, stmt) in block.stmts.iter().enumerate() {
            let Stmt::Local(local) = stmt else { continue };
            let (Some(name), Some(init)) = (bound_name(&local.pat), &local.init) else {
                continue;
            };
            if init.diverge.is_some() {
                continue;
            }
            let mut uses = Uses {
                name: &name,
                floor: None,
            };
            for later in &block.stmts[index + 1..] {
                // Bound again: what follows reads another variable.
                if matches!(later, Stmt::Local(l) if bound_name(&l.pat).as_deref() == Some(&name)) {
                    break;
                }
                uses.visit_stmt(later);
            }
            if let Some(floor) = uses.floor {
                let range = init.expr.span().byte_range();
                self.found.insert((range.start, range.end), floor);
            }
        }
        visit::visit_block(self, block);
    }
}

/// The variable a pattern binds when it binds one alone (`x`, `mut x`,
/// `x: usize`).
fn bound_name(pat: &Pat) -> Option<String> {
    match pat {
        Pat::Ident(p) if p.subpat.is_none() => Some(p.ident.to_string()),
        Pat::Type(t) => bound_name(&t.pat),
        _ => None,
    }
}

/// The floor the uses of `name` ask for.
struct Uses<'n> {
    name: &'n str,
    floor: Option<u128>,
}

impl Uses<'_> {
    /// Whether `expr` reads the variable (through a cast or parentheses).
    fn is_name(&self, expr: &Expr) -> bool {
        match expr {
            Expr::Path(p) => p.path.is_ident(self.name),
            Expr::Cast(c) => self.is_name(&c.expr),
            Expr::Paren(p) => self.is_name(&p.expr),
            _ => false,
        }
    }

    fn ask(&mut self, floor: u128) {
        self.floor = Some(self.floor.map_or(floor, |f| f.max(floor)));
    }
}

impl<'ast> Visit<'ast> for Uses<'_> {
    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        match binary.op {
            BinOp::Sub(_) if self.is_name(&binary.left) => {
                if let Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(int),
                    ..
                }) = &*binary.right
                    && let Ok(value) = int.base10_parse::<u128>()
                    && value > 0
                {
                    self.ask(value);
                }
            }
            BinOp::Div(_) | BinOp::Rem(_) if self.is_name(&binary.right) => {
                self.ask(1);
            }
            _ => {}
        }
        visit::visit_expr_binary(self, binary);
    }

    // `format!("{}", UNITS[exp - 1])`: a macro's arguments are code too.
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        for argument in macro_arguments(mac) {
            self.visit_expr(&argument);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, u128)> {
        let file = syn::parse_file(text).unwrap();
        floors(&file)
            .into_iter()
            .map(|((start, end), floor)| (text[start..end].to_string(), floor))
            .collect()
    }

    #[test]
    fn a_value_whose_variable_is_subtracted_from_or_divides_has_a_floor() {
        let text = "fn f(size: u64, v: &[u8]) -> u8 {\n    let exp = (size as f64).ln() as usize;\n    let d = v.len();\n    let e = exp * 2;\n    v[exp - 1] + (size % d as u64) as u8 + f(format!(\"{}\", v[exp - 2]))\n}\n";
        assert_eq!(
            found(text),
            [
                ("(size as f64).ln() as usize".to_string(), 2),
                ("v.len()".to_string(), 1)
            ]
        );
        // Bound again before the use: the use reads the new one.
        let shadowed =
            "fn f(n: usize) -> usize {\n    let x = n;\n    let x = x + 1;\n    x - 1\n}\n";
        assert_eq!(found(shadowed), [("x + 1".to_string(), 1)]);
        // Something else subtracted from it, or it subtracted: no floor.
        let other =
            "fn f(n: usize, m: usize) -> usize {\n    let x = n;\n    (x - m) + (m - x)\n}\n";
        assert!(found(other).is_empty());
    }
}
