//! The sites: where in the crate some operator can apply, and what each
//! kind of site holds (byte ranges into the original text).

use std::ops::Range;

use super::Literal;
use crate::code::source::{FileId, Location};
use crate::code::{EnclosingStatement, GivenTo};

/// A place in the crate where some operator can apply.
#[derive(Debug, Clone, PartialEq)]
pub struct Site {
    pub file: FileId,
    /// The line (location) whose suspiciousness weighs this site.
    pub line: u32,
    /// Variables in scope at the site.
    pub bound: Vec<String>,
    /// The block statement the site is in.
    pub statement: Option<EnclosingStatement>,
    /// The function it is in (for data: the `const` or `static` item).
    pub function: String,
    /// The line of that function's `fn` (0 for data).
    pub function_line: u32,
    /// What a `return` here returns: the function's return type without
    /// spaces (empty for `()`; `None` in a closure or in data).
    pub returns: Option<String>,
    /// What `self` is here (see `Scope::self_type`).
    pub self_type: Option<String>,
    pub kind: SiteKind,
}

/// The integer methods that panic on overflow (in a debug build) and have
/// `wrapping_`, `saturating_` and `checked_` forms: where a `Method` site
/// is also one of arithmetic.
pub const OVERFLOWING_METHODS: &[&str] = &["abs", "pow"];

#[derive(Debug, Clone, PartialEq)]
pub enum SiteKind {
    Statement(StatementSite),
    /// An `if`/`while` condition, or a comparison or conjunction used as
    /// a value.
    Condition {
        range: Range<usize>,
        atomic: bool,
        /// Its negation: `x` for `!x`, else `!x` or `!(x)`.
        negation: String,
        /// The `<`, `<=`, `>`, `>=` tokens of its comparisons, those it
        /// joins with `&&`, `||` and `!` (the ends of a range check).
        bounds: Vec<Range<usize>>,
    },
    /// The operator token of a binary expression (`expression`), and its operands.
    BinaryOperator {
        range: Range<usize>,
        operator: String,
        expression: Range<usize>,
        left: Range<usize>,
        right: Range<usize>,
    },
    /// A binary expression one of whose operands is another, with or
    /// without its parentheses (`a && b || c`, `(a - b) * c`): the middle
    /// operand `b` could belong to the other operator (a slip of
    /// precedence, parentheses missing or misplaced).
    Grouping {
        expression: Range<usize>,
        /// The inner binary expression, its parentheses included.
        inner: Range<usize>,
        /// The inner expression's operands.
        first: Range<usize>,
        second: Range<usize>,
        /// Whether the inner expression is the left operand.
        left: bool,
        /// Whether the inner operator binds more loosely than the outer
        /// one (the regrouped whole, joined by it, then keeps its place in
        /// what holds it by parentheses).
        loosens: bool,
    },
    /// A unary minus, `-x` (`expression`), on anything but a literal
    /// (`operand`): it overflows at the type's least value.
    Negation {
        expression: Range<usize>,
        operand: Range<usize>,
    },
    /// A literal; `data`: in a `const` or `static` item; `operand`: where
    /// an [`SiteKind::Operand`] would be (a call argument, a comparison's
    /// side, a value given to a `let`...), not in a pattern or inside
    /// arithmetic.
    Literal {
        range: Range<usize>,
        literal: Literal,
        data: bool,
        operand: bool,
    },
    /// A use of a local variable.
    Variable {
        range: Range<usize>,
        name: String,
    },
    /// A use of a module-level `const` or `static` of the site's file that
    /// has siblings of its type (`HEX_CHARS_UPPER` for `HEX_CHARS_LOWER`).
    Item {
        range: Range<usize>,
        name: String,
    },
    /// A unit variant of one of the crate's enums as a value (`Token::Eq`,
    /// `Self::Closed`): `range` its name's bytes, `owner` the enum's name.
    UnitVariant {
        range: Range<usize>,
        owner: String,
        name: String,
    },
    /// The name of a field access (`x.name`).
    Field {
        range: Range<usize>,
        name: String,
        /// The whole field access (`self.year`).
        expression: Range<usize>,
    },
    /// The method name of a method call (`expression`), or the function
    /// name of a call by path (`cmp::max(a, b)`, `Self::new(x)`: no
    /// receiver).
    Method {
        range: Range<usize>,
        name: String,
        arguments: usize,
        receiver: bool,
        /// For a call by path, the segment before the function's name
        /// (`cmp`, `Self`, a type).
        owner: Option<String>,
        expression: Range<usize>,
        /// With one argument: the receiver and the argument (`a` and `&b`
        /// in `a.cmp(&b)`), and whether the argument, its `&` taken away,
        /// can be a receiver without parentheses.
        operands: Option<(Range<usize>, Range<usize>, bool)>,
    },
    /// The `..` or `..=` of a range with an end (`expression`).
    RangeLimits {
        range: Range<usize>,
        inclusive: bool,
        expression: Range<usize>,
    },
    /// The arguments of a call or method call with two or more.
    Call {
        arguments: Vec<Range<usize>>,
    },
    /// An expression that is likely an integer: an index, a range bound, a
    /// call argument, a side of a comparison, a value given to a `let`, an
    /// assignment (`=`, `+=` and the like) or a function's result, or a
    /// branch's value there (not a literal). `integer`: the syntax says so
    /// (an index, a range bound, a `len()`).
    Operand {
        range: Range<usize>,
        atomic: bool,
        integer: bool,
        /// A `let`'s value whose variable is later subtracted from or
        /// divides: the least value those uses need (see `floors`).
        floor: Option<u128>,
    },
    /// `receiver.unwrap()` or `.expect(..)`: `call` runs from the method name
    /// to the end of the call.
    Unwrap {
        call: Range<usize>,
        receiver: Range<usize>,
    },
    /// An element read by index, `base[index]` (`expression`), not a slice;
    /// `closure`, the method call the closure around it is given to, when
    /// it is in one (`opt.map(|v| &v[0])`).
    Index {
        expression: Range<usize>,
        base: Range<usize>,
        index: Range<usize>,
        closure: Option<GivenTo>,
    },
    /// The iterable of a `for` loop.
    Iterable {
        range: Range<usize>,
        atomic: bool,
    },
    /// A pattern of a match arm or of `matches!` whose alternatives are
    /// variants of one of the crate's enums (`ItemBody::Paragraph |
    /// ItemBody::List(..)`): `owner` the enum's name as written before the
    /// variants, `variants` theirs, in order, with each one's bytes.
    Pattern {
        range: Range<usize>,
        owner: String,
        variants: Vec<(String, Range<usize>)>,
        /// Whether an alternative binds a name (then none can be added).
        binds: bool,
        /// In a `match` no arm of which takes the rest (`_`, a name): an
        /// alternative left out or replaced would leave a variant to no
        /// arm, which does not compile.
        exhaustive: bool,
    },
    /// A pattern of literals alone (`' '`, `b'\r' | b'\n'`) of a `match`
    /// arm or of `matches!`, where another literal can join it (see
    /// `arms`): `range` its bytes, `literals` its own, `taken` every
    /// literal the match's patterns write.
    Alternatives {
        range: Range<usize>,
        literals: Vec<String>,
        taken: Vec<String>,
    },
    /// A step (`self.t += self.step;`) whose place the statements after
    /// it in its block read (see `prior`): `range` from the step through
    /// the last read, `place` as written, `reads` each read's bytes,
    /// `name` a name free there for the value before the step, `indent`
    /// the step's.
    Prior {
        range: Range<usize>,
        place: String,
        reads: Vec<Range<usize>>,
        name: String,
        indent: String,
    },
    /// An unguarded `match` arm whose pattern is one literal (see `arms`):
    /// `arm` its bytes, its comma included, `pattern` its literal's,
    /// `uses` where its body writes that literal again, `others` the
    /// literals of its kind the match writes that no arm takes, and
    /// `comma` whether a copy put before it needs a comma of its own.
    Arm {
        arm: Range<usize>,
        pattern: Range<usize>,
        uses: Vec<Range<usize>>,
        others: Vec<String>,
        comma: bool,
    },
    /// The end of the pattern of a `match` arm with no guard, before an
    /// arm that takes the rest, in a `match` where other arms have guards
    /// (`guards`, as written): it may lack one as they have (`0xf =>`
    /// beside `0 if self.is_nil() =>`).
    Unguarded {
        at: usize,
        guards: Vec<String>,
    },
    /// The start of the first block of an `if`, `while`, `for` or `loop`,
    /// or of a match arm's block (just after its `{`), where a statement
    /// can go first: the site's `bound` has the names the header or the
    /// arm's pattern binds (`names`), such as `name` in `if let
    /// Some(name) = target {`. A match arm's is at the line of the block's
    /// first statement.
    BlockStart {
        at: usize,
        /// The indentation of the block's statements.
        indent: String,
        names: Vec<String>,
        /// Whether the block has no statement.
        empty: bool,
        /// Whether it is a match arm's block.
        arm: bool,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct StatementSite {
    /// The statement's bytes, attributes included.
    pub range: Range<usize>,
    /// The whole lines the statement fills, when nothing else is on them
    /// (from the line start through the newline): deleting these leaves no
    /// blank line behind.
    pub whole_lines: Option<Range<usize>>,
    /// The indentation of the statement's first line.
    pub indent: String,
    /// The last statement of its block, without a semicolon: the block's
    /// value (an `if`/`match` too). Code is inserted before it, and a
    /// statement swapped in keeps being a value.
    pub tail: bool,
    /// `return`, `break` or `continue`: code inserted goes before it.
    pub jumps: bool,
    /// The blocks of a compound statement (`if`/`else`, loop bodies), any one
    /// of which can replace it when its header is deleted.
    pub branches: Vec<Range<usize>>,
    /// Names the statement binds (a `let`), in scope after it.
    pub binds: Vec<String>,
    /// What a `return` in front of it returns (see `Scope::returns`).
    pub returns: Option<String>,
    /// Whether it is in a loop (of its function or closure).
    pub in_loop: bool,
    /// A block's value that surely is not `()` (a tuple, a call, an
    /// arithmetic expression...): only a valued statement may replace it.
    pub valued: bool,
    /// An `if` with no `else` (not `if let`): its condition's negation,
    /// its block's statements, whether more statements of its block follow
    /// (see [`LoneIf`]).
    pub lone_if: Option<LoneIf>,
    /// Of an `if` chain that gives no value, the `else` of each `else if`
    /// (through the space before its `if`): without it, that `if` is a
    /// statement of its own, asked also when an earlier branch ran.
    pub else_ifs: Vec<Range<usize>>,
}

/// `if c { a }` with no `else`: what `jump` needs to make it a guard that
/// leaves (`if !c { continue; } a`), so that the statements after it run
/// only when `c` does too, or to give it an `else` that leaves.
#[derive(Debug, Clone, PartialEq)]
pub struct LoneIf {
    /// The negation of its condition.
    pub negation: String,
    /// Its block's statements, from the first's start to the last's end.
    pub body: Range<usize>,
    /// More statements of its block follow it.
    pub followed: bool,
}

impl Site {
    pub fn location(&self) -> Location {
        Location::new(self.file, self.line)
    }

    /// Whether the expression at `expression` of `text` is its statement,
    /// with its `;`: its value is thrown away (a call made for its effect).
    pub fn is_statement(&self, expression: &Range<usize>, text: &str) -> bool {
        self.statement.as_ref().is_some_and(|statement| {
            text[statement.range.clone()]
                .trim()
                .strip_suffix(';')
                .is_some_and(|rest| rest.trim_end() == &text[expression.clone()])
        })
    }
}

impl SiteKind {
    /// Every byte range an edit at this site may replace (or insert at).
    pub(super) fn ranges(&self) -> Vec<Range<usize>> {
        match self {
            SiteKind::Statement(s) => {
                let mut ranges = vec![s.range.clone()];
                ranges.extend(s.whole_lines.clone());
                ranges.extend(s.branches.iter().cloned());
                ranges
            }
            SiteKind::Condition { range, .. }
            | SiteKind::Literal { range, .. }
            | SiteKind::Variable { range, .. }
            | SiteKind::Item { range, .. }
            | SiteKind::UnitVariant { range, .. }
            | SiteKind::Operand { range, .. }
            | SiteKind::Iterable { range, .. }
            | SiteKind::Alternatives { range, .. }
            | SiteKind::Prior { range, .. } => vec![range.clone()],
            SiteKind::BlockStart { at, .. } | SiteKind::Unguarded { at, .. } => vec![Range {
                start: *at,
                end: *at,
            }],
            SiteKind::Field {
                range, expression, ..
            } => vec![range.clone(), expression.clone()],
            SiteKind::BinaryOperator {
                range,
                expression,
                left,
                right,
                ..
            } => vec![
                range.clone(),
                expression.clone(),
                left.clone(),
                right.clone(),
            ],
            SiteKind::Method {
                range,
                expression,
                operands,
                ..
            } => [range.clone(), expression.clone()]
                .into_iter()
                .chain(operands.iter().flat_map(|(r, a, _)| [r.clone(), a.clone()]))
                .collect(),
            SiteKind::RangeLimits {
                range, expression, ..
            } => vec![range.clone(), expression.clone()],
            SiteKind::Negation {
                expression,
                operand,
            } => vec![expression.clone(), operand.clone()],
            SiteKind::Grouping { expression, .. } => vec![expression.clone()],
            SiteKind::Call { arguments } => arguments.clone(),
            SiteKind::Unwrap { call, receiver } => vec![call.clone(), receiver.clone()],
            SiteKind::Index {
                expression,
                base,
                index,
                closure,
            } => {
                let mut ranges = vec![expression.clone(), base.clone(), index.clone()];
                ranges.extend(closure.iter().map(|c| c.name.start..c.body.end));
                ranges
            }
            SiteKind::Arm { arm, .. } => vec![arm.start..arm.start, arm.clone()],
            SiteKind::Pattern {
                range, variants, ..
            } => std::iter::once(range.clone())
                .chain(variants.iter().map(|(_, r)| r.clone()))
                .collect(),
        }
    }
}
