//! Where code panics on some values: each indexing, unwrap, division and
//! subtraction in a statement or at a line, with its operands, read from
//! the syntax. The guard operator writes from them the conditions under
//! which a statement panics; the patch choice reads from them what a guard
//! must name to answer a crash.

use std::collections::BTreeSet;

use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{BinOp, Expr};

use crate::code::variables::pattern_bindings;

/// An operation that panics on some values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Panicking {
    /// `v[i]`, `s[a..b]`, `map[&k]`.
    Index,
    /// `.unwrap()`, `.expect(..)`.
    Unwrap,
    /// `/`, `%` and their assignments.
    Division,
    /// `-` and `-=`, below zero when unsigned.
    Subtraction,
}

/// One such operation, with its operands.
#[derive(Debug, Clone, Copy)]
pub enum Operation<'a> {
    /// `base[index]` (`index` may be a range).
    Index { base: &'a Expr, index: &'a Expr },
    /// `receiver.unwrap()`, `receiver.expect(..)`.
    Unwrap { receiver: &'a Expr },
    /// `n / divisor`, `n % divisor`, `n /= divisor`, `n %= divisor`.
    Division { divisor: &'a Expr },
    /// `left - right`, `left -= right`.
    Subtraction { left: &'a Expr, right: &'a Expr },
}

impl<'a> Operation<'a> {
    pub fn kind(&self) -> Panicking {
        match self {
            Operation::Index { .. } => Panicking::Index,
            Operation::Unwrap { .. } => Panicking::Unwrap,
            Operation::Division { .. } => Panicking::Division,
            Operation::Subtraction { .. } => Panicking::Subtraction,
        }
    }

    /// The values it works on: what is indexed and the index, what is
    /// unwrapped, the divisor, both sides of a subtraction.
    pub fn operands(&self) -> Vec<&'a Expr> {
        match *self {
            Operation::Index { base, index } => vec![base, index],
            Operation::Unwrap { receiver } => vec![receiver],
            Operation::Division { divisor } => vec![divisor],
            Operation::Subtraction { left, right } => vec![left, right],
        }
    }
}

/// The operations that run when `statement` does, inner ones first (`v[w[i]]`:
/// `w[i]` first). Those in its blocks, closures and `match` arms are left
/// out: the blocks' statements are statements of their own, and the others
/// run later or with names of their own.
pub fn operations(statement: &syn::Stmt) -> Vec<Operation<'_>> {
    let mut collector = Collector {
        nested: false,
        found: Vec::new(),
    };
    collector.visit_stmt(statement);
    collector.found.into_iter().map(|(_, o)| o).collect()
}

/// The names the operations of `kind` at `line` of `file` work on
/// (`self.pattern[i + 1]`: `pattern`, `i`; `map.get(&k).unwrap()`: `map`,
/// `get`, `k`; `self` left out), with the names the local variables among
/// them were computed from: the value of each one's nearest `let` above
/// `line` in the function (`let iter = chunk[..self.offset - start].chars();`
/// makes `iter` come from `chunk`, `offset`, `start` and `chars`). What
/// panicked at `line` may have been made so a few lines above. Empty when
/// the line has no such operation.
pub fn operand_names(file: &syn::File, line: u32, kind: Panicking) -> BTreeSet<String> {
    let mut collector = Collector {
        nested: true,
        found: Vec::new(),
    };
    collector.visit_file(file);
    let mut names: BTreeSet<String> = collector
        .found
        .iter()
        .filter(|(at, operation)| *at == line && operation.kind() == kind)
        .flat_map(|(_, operation)| operation.operands())
        .flat_map(names_in)
        .collect();
    let made_from = defined_from(file, line, &names);
    names.extend(made_from);
    names
}

/// The operations found, each with the line of its operator (the `[`, the
/// method's name, the `/`).
struct Collector<'a> {
    /// Into blocks, closures and arms too.
    nested: bool,
    found: Vec<(u32, Operation<'a>)>,
}

fn line_of(node: &impl Spanned) -> u32 {
    node.span().start().line as u32
}

impl<'ast> Visit<'ast> for Collector<'ast> {
    fn visit_block(&mut self, block: &'ast syn::Block) {
        if self.nested {
            visit::visit_block(self, block);
        }
    }

    fn visit_expr_closure(&mut self, closure: &'ast syn::ExprClosure) {
        if self.nested {
            visit::visit_expr_closure(self, closure);
        }
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        if self.nested {
            visit::visit_arm(self, arm);
        }
    }

    fn visit_expr_index(&mut self, expr: &'ast syn::ExprIndex) {
        visit::visit_expr_index(self, expr);
        let at = expr.bracket_token.span.open().start().line as u32;
        self.found.push((
            at,
            Operation::Index {
                base: &expr.expr,
                index: &expr.index,
            },
        ));
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        visit::visit_expr_method_call(self, call);
        if call.method == "unwrap" || call.method == "expect" {
            let unwrap = Operation::Unwrap {
                receiver: &call.receiver,
            };
            self.found.push((line_of(&call.method), unwrap));
        }
    }

    fn visit_expr_binary(&mut self, expr: &'ast syn::ExprBinary) {
        visit::visit_expr_binary(self, expr);
        let (left, right) = (&*expr.left, &*expr.right);
        let operation = match expr.op {
            BinOp::Div(_) | BinOp::Rem(_) | BinOp::DivAssign(_) | BinOp::RemAssign(_) => {
                Operation::Division { divisor: right }
            }
            BinOp::Sub(_) | BinOp::SubAssign(_) => Operation::Subtraction { left, right },
            _ => return,
        };
        self.found.push((line_of(&expr.op), operation));
    }
}

/// The names written in `expr`: its variables, fields, methods and path
/// segments, `self` and `Self` left out.
fn names_in(expr: &Expr) -> BTreeSet<String> {
    struct Names(BTreeSet<String>);
    impl<'ast> Visit<'ast> for Names {
        fn visit_ident(&mut self, ident: &'ast proc_macro2::Ident) {
            let name = ident.to_string();
            if name != "self" && name != "Self" {
                self.0.insert(name);
            }
        }
    }
    let mut names = Names(BTreeSet::new());
    names.visit_expr(expr);
    names.0
}

/// The names the local variables among `names` are computed from: for
/// each, the names in the value its nearest `let` above `line` binds it
/// to, within the innermost function around `line`.
fn defined_from(file: &syn::File, line: u32, names: &BTreeSet<String>) -> BTreeSet<String> {
    let mut functions = Functions {
        line,
        innermost: None,
    };
    functions.visit_file(file);
    let Some(body) = functions.innermost else {
        return BTreeSet::new();
    };
    let mut lets = Lets {
        line,
        found: Vec::new(),
    };
    lets.visit_block(body);
    let mut found = BTreeSet::new();
    for name in names {
        let nearest = lets
            .found
            .iter()
            .filter(|(_, bound, _)| bound.contains(name))
            .max_by_key(|(at, _, _)| *at);
        if let Some((_, _, value)) = nearest {
            found.extend(names_in(value));
        }
    }
    found
}

/// The body of the innermost function whose body holds `line`.
struct Functions<'a> {
    line: u32,
    innermost: Option<&'a syn::Block>,
}

impl<'a> Functions<'a> {
    fn consider(&mut self, body: &'a syn::Block) {
        let span = body.span();
        if (span.start().line as u32..=span.end().line as u32).contains(&self.line) {
            // Visited outside in: a later match is nested in an earlier one.
            self.innermost = Some(body);
        }
    }
}

impl<'ast> Visit<'ast> for Functions<'ast> {
    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        self.consider(&item.block);
        visit::visit_item_fn(self, item);
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        self.consider(&item.block);
        visit::visit_impl_item_fn(self, item);
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        if let Some(body) = &item.default {
            self.consider(body);
        }
        visit::visit_trait_item_fn(self, item);
    }
}

/// The `let`s with a value that start above `line`: their line, the names
/// they bind and the value.
struct Lets<'a> {
    line: u32,
    found: Vec<(u32, Vec<String>, &'a Expr)>,
}

impl<'ast> Visit<'ast> for Lets<'ast> {
    fn visit_local(&mut self, local: &'ast syn::Local) {
        let at = line_of(local);
        if at < self.line
            && let Some(init) = &local.init
        {
            self.found
                .push((at, pattern_bindings(&local.pat), &init.expr));
        }
        visit::visit_local(self, local);
    }

    // A nested function's `let`s are its own.
    fn visit_item_fn(&mut self, _: &'ast syn::ItemFn) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str, line: u32, kind: Panicking) -> Vec<String> {
        let file = syn::parse_file(text).unwrap();
        operand_names(&file, line, kind).into_iter().collect()
    }

    fn in_fn(body: &str) -> String {
        format!("fn f(&self) {{\n{body}\n}}\n")
    }

    #[test]
    fn the_operands_of_what_panics_at_a_line_are_named() {
        let text = in_fn("    if self.pattern[pattern_idx].next_char.is_none() { return; }");
        assert_eq!(
            names(&text, 2, Panicking::Index),
            ["pattern", "pattern_idx"]
        );
        let text = in_fn("    let x = bytes[i + 1] + v[0];\n    let a = [0u8; 4];");
        assert_eq!(names(&text, 2, Panicking::Index), ["bytes", "i", "v"]);
        assert!(names(&text, 3, Panicking::Index).is_empty());
        let text = in_fn("    let e = map.get(&key).unwrap();");
        assert_eq!(names(&text, 2, Panicking::Unwrap), ["get", "key", "map"]);
        assert!(names(&text, 2, Panicking::Index).is_empty());
        let text = in_fn("    let r = total / (self.count - skipped) + x % n;");
        assert_eq!(
            names(&text, 2, Panicking::Division),
            ["count", "n", "skipped"]
        );
        let text = in_fn("    avg /= self.len();");
        assert_eq!(names(&text, 2, Panicking::Division), ["len"]);
    }

    #[test]
    fn a_local_is_defined_from_the_names_of_its_value() {
        let text = "fn other() {\n    let iter = nothing;\n}\nfn prev(&mut self, chunk: &str, start: usize) {\n    let mut iter = chunk[..self.offset - start]\n        .chars().rev();\n    let n = 3;\n    let mut ch = iter.next().unwrap();\n}\n";
        assert_eq!(
            names(text, 8, Panicking::Unwrap),
            ["chars", "chunk", "iter", "next", "offset", "rev", "start"]
        );
        // Not from another function: `other`'s `iter` is not this one.
        let text = "fn other() {\n    let iter = nothing;\n}\nfn prev(iter: I) {\n    let ch = iter.next().unwrap();\n}\n";
        assert_eq!(names(text, 5, Panicking::Unwrap), ["iter", "next"]);
    }

    #[test]
    fn a_statement_runs_the_operations_outside_its_blocks_closures_and_arms() {
        let kinds = |text: &str| -> Vec<Panicking> {
            let statement: syn::Stmt = syn::parse_str(text).unwrap();
            operations(&statement).iter().map(Operation::kind).collect()
        };
        assert_eq!(kinds("if v[i] > 0 { let y = w[j]; }"), [Panicking::Index]);
        assert_eq!(
            kinds("let x = v[w[i]] / n - 1;"),
            [
                Panicking::Index,
                Panicking::Index,
                Panicking::Division,
                Panicking::Subtraction
            ]
        );
        assert!(kinds("let f = |i: usize| v[i];").is_empty());
        assert!(kinds("match k { Some(i) => v[i].unwrap(), None => 0 };").is_empty());
    }
}
