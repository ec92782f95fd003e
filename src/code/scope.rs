//! Where the walk over runnable code is (see `walk`): the current
//! location, the function, statement and decision around it, and the local
//! variables in scope.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::code::macro_body::MacroSite;

/// The block statement around the code being walked.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EnclosingStatement {
    /// The statement's bytes, attributes included.
    pub range: std::ops::Range<usize>,
    /// A `let` statement: its bindings outlive it.
    pub is_let: bool,
}

/// The method call whose argument the closure around the walk is
/// (`opt.map(|v| &v[0])`): the method's name, where that name is, and
/// where the closure's body is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GivenTo {
    pub method: String,
    pub name: std::ops::Range<usize>,
    pub body: std::ops::Range<usize>,
}

/// Where the walk is: the current location and the variables in scope.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// The line of the innermost enclosing location.
    pub location: u32,
    /// The name of the innermost enclosing function.
    pub function: String,
    /// The line of its `fn` (with the file, what tells it from others of
    /// the same name).
    pub function_line: u32,
    /// The innermost enclosing block statement.
    pub statement: Option<EnclosingStatement>,
    /// The location of the `if`, `else if`, loop or `match` whose branch or
    /// body this is (what it is control dependent on); in a closure's body,
    /// the statement that gives the closure.
    pub control: Option<u32>,
    /// The decisions of the last statement before it, in its blocks, that
    /// could have left early instead (`return`, `?`, `break`, `continue`;
    /// see `early_exits`): it only runs because they did not. (Earlier
    /// ones are reached through these, which have them in turn.)
    pub exits: BTreeSet<u32>,
    /// What a `return` here returns: the function's return type without
    /// spaces (empty for `()`), or `None` inside a closure.
    pub returns: Option<String>,
    /// The bytes of the declared return type of the function a `return`
    /// here leaves (`None` for `()`, in a closure or an `async` block).
    pub return_type: Option<std::ops::Range<usize>>,
    /// The method call the innermost closure around it is given to (`None`
    /// outside a closure, or in one that is not a method's argument).
    pub given_to: Option<GivenTo>,
    /// Loops around it in its function or closure (`break`, `continue`).
    pub loops: usize,
    /// The name of the type the `impl` around the function is for (`Hir`
    /// in `impl<'a> fmt::Debug for &'a crate::Hir`, see `type_name`): what
    /// `self` is. `None` outside an `impl`, in a trait's default method and
    /// for a type that is not a path.
    pub self_type: Option<String>,
    /// The last segment of the trait the `impl` around the function
    /// implements (`Debug` in `impl fmt::Debug for X`), if it does.
    pub implements: Option<String>,
    /// The `macro_rules!` transcriber it is in, if any (its code names the
    /// crate `$crate`, and edits must respect its repetitions).
    pub in_macro: Option<Arc<MacroSite>>,
    /// The function's parameters that are mutable references (`out: &mut
    /// [u8]`): what it writes through them, its caller sees.
    pub(super) lent: Vec<String>,
    frames: Vec<Vec<String>>,
}

/// The traits of `std::fmt` whose `fmt` writes a value out.
const FORMATTING_TRAITS: [&str; 9] = [
    "Debug", "Display", "LowerHex", "UpperHex", "Octal", "Binary", "LowerExp", "UpperExp",
    "Pointer",
];

/// Code a failing check runs after checking (see `Scope::after_checks`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterCheck {
    /// The `fmt` of a formatting trait's impl: a failed `assert_eq!`
    /// prints its operands.
    Prints,
    /// `Drop::drop`: the unwinding drops them (but drops run anywhere).
    Drops,
}

impl Scope {
    /// Whether this is code a failing check runs after checking, and how.
    pub fn after_checks(&self) -> Option<AfterCheck> {
        let implements =
            |names: &[&str]| (self.implements.as_deref()).is_some_and(|t| names.contains(&t));
        if self.function == "fmt" && implements(&FORMATTING_TRAITS) {
            Some(AfterCheck::Prints)
        } else if self.function == "drop" && implements(&["Drop"]) {
            Some(AfterCheck::Drops)
        } else {
            None
        }
    }

    /// Local variables (and `self`) visible here, outermost first, without duplicates.
    pub fn bound(&self) -> Vec<String> {
        let mut seen = BTreeSet::new();
        self.frames
            .iter()
            .flatten()
            .filter(|n| seen.insert(n.as_str()))
            .cloned()
            .collect()
    }

    pub fn binds(&self, name: &str) -> bool {
        self.frames.iter().flatten().any(|n| n == name)
    }

    /// The names the innermost frame binds: a closure's parameters or a
    /// match arm's bindings, in an expression body.
    pub fn innermost(&self) -> &[String] {
        self.frames.last().map_or(&[], Vec::as_slice)
    }

    pub(super) fn push(&mut self, names: Vec<String>) {
        self.frames.push(names);
    }

    pub(super) fn pop(&mut self) {
        self.frames.pop();
    }

    pub(super) fn bind(&mut self, names: Vec<String>) {
        if let Some(frame) = self.frames.last_mut() {
            frame.extend(names);
        }
    }

    /// Whether `name` is a parameter of the function, not bound again since.
    pub fn is_parameter(&self, name: &str) -> bool {
        self.frames.split_first().is_some_and(|(parameters, rest)| {
            parameters.iter().any(|n| n == name) && !rest.iter().flatten().any(|n| n == name)
        })
    }

    /// Whether `name` is a parameter of the function that is a mutable
    /// reference (`&mut T`), not bound again since.
    pub fn is_lent_parameter(&self, name: &str) -> bool {
        self.lent.iter().any(|n| n == name) && self.is_parameter(name)
    }
}
