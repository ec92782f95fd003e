//! The woven code, as pieces of each file: a function's dispatch and
//! copies (or its helper trait), a function woven in place, a data item's
//! lazy static; and the pieces spliced into a file, with the spans of the
//! parts they are.

use std::fmt::Write;
use std::ops::Range;

use super::{Part, Variant, VariantKey};
use crate::code::source::{Edit, FileId, splice};
use crate::evaluate::functions::{Function, Functions, Param, Shape};
use crate::evaluate::in_place::{self, Role};

/// A replacement of the original text: texts, each perhaps a part, and
/// parts within them (ranges of their concatenation).
#[derive(Debug)]
pub(super) struct Piece {
    range: Range<usize>,
    texts: Vec<(String, Option<Part>)>,
    parts: Vec<(Range<usize>, Part)>,
}

impl Piece {
    pub(super) fn insert(at: usize, texts: Vec<(String, Option<VariantKey>)>) -> Piece {
        Piece::replace(at..at, texts)
    }

    fn replace(range: Range<usize>, texts: Vec<(String, Option<VariantKey>)>) -> Piece {
        Piece {
            range,
            texts: texts
                .into_iter()
                .map(|(text, key)| (text, key.map(Part::Variant)))
                .collect(),
            parts: Vec::new(),
        }
    }
}

/// The pieces of function `region` (its index in `Functions`) woven with
/// its `variants` (numbered from 1): the function woven in place, the data
/// item's lazy static, or the dispatch and the copies (with `controls`,
/// also a control copy, see `weave`).
pub(super) fn function_pieces(
    function: &Function,
    text: &str,
    region: usize,
    variants: &[Variant],
    controls: bool,
) -> Vec<Piece> {
    let key = |v: usize| VariantKey {
        function: region,
        text: variants[v - 1].text.clone(),
    };
    if let Shape::Data { ty, keyword } = &function.shape {
        let texts: Vec<String> = variants.iter().map(|v| v.text.clone()).collect();
        return vec![data(function, text, region, ty, *keyword, &texts, &key)];
    }
    if function.not_copyable.is_some() {
        return vec![woven_in_place(function, text, region, variants, &key)];
    }
    let mut pieces = pattern_parameters(function);
    pieces.push(dispatch(function, text, region, variants.len(), &key));
    let mut bodies: Vec<String> = variants.iter().map(|v| v.text.clone()).collect();
    if controls {
        // The control: the unedited body, as the last variant, never dispatched to.
        bodies.push(text[function.body.clone()].to_string());
    }
    let key = |v: usize| VariantKey {
        function: region,
        text: bodies[v - 1].clone(),
    };
    pieces.push(copies(function, text, region, &bodies, &key));
    pieces
}

/// `original`, the text of `file`, with `pieces` in place; where each of
/// their parts lies goes to `spans`.
pub(super) fn splice_pieces(
    file: FileId,
    original: &str,
    mut pieces: Vec<Piece>,
    spans: &mut Vec<(FileId, Range<usize>, Part)>,
) -> String {
    // Stable: pieces at one offset keep their order (the dispatch
    // before the copies of a function ending there, say).
    pieces.sort_by_key(|p| (p.range.start, p.range.end));
    let mut out = String::with_capacity(original.len() * 2);
    let mut cursor = 0;
    for piece in pieces {
        out.push_str(&original[cursor..piece.range.start]);
        let start = out.len();
        for (text, part) in piece.texts {
            let start = out.len();
            out.push_str(&text);
            if let Some(part) = part {
                spans.push((file, start..out.len(), part));
            }
        }
        for (range, part) in piece.parts {
            spans.push((file, start + range.start..start + range.end, part));
        }
        cursor = piece.range.end;
    }
    out.push_str(&original[cursor..]);
    out
}

/// The pieces that drop the `const` of every `const fn` that may lose it
/// (see `Function::constness`).
pub(super) fn dropped_consts(functions: &Functions) -> Vec<(FileId, Piece)> {
    (0..functions.len())
        .map(|index| functions.get(index))
        .filter_map(|f| Some((f.file, Piece::replace(f.constness.clone()?, Vec::new()))))
        .collect()
}

/// A function woven in place: its body, each edited site a `match` on its
/// switch (see `in_place`).
fn woven_in_place(
    function: &Function,
    text: &str,
    region: usize,
    variants: &[Variant],
    key: &dyn Fn(usize) -> VariantKey,
) -> Piece {
    let placed: Vec<Vec<(usize, String)>> = variants.iter().map(|v| v.placed.clone()).collect();
    let switch = format!("crate::__autofix_schema::variant({region})");
    let (body, roles) =
        in_place::weave_body(text, &function.body, &function.sites, &placed, &switch);
    let site = |index: usize| function.sites[index].range.clone();
    let mut parts = vec![(0..body.len(), Part::InPlace(region))];
    parts.extend(roles.into_iter().map(|(range, role)| {
        let part = match role {
            Role::Original { site: index } => Part::Original {
                function: region,
                site: site(index),
            },
            Role::Alternative {
                site: index,
                variants,
            } => Part::Alternative {
                function: region,
                site: site(index),
                keys: variants.into_iter().map(key).collect(),
            },
        };
        (range, part)
    }));
    Piece {
        range: function.body.clone(),
        texts: vec![(body, None)],
        parts,
    }
}

/// A data item woven (data has no code to dispatch from): a `static` of
/// the item's type built lazily, on its first read, by the variant the
/// switch selects. Everything but the variants' values is the control's
/// (the item's unedited value), so that an error there stops the item's
/// weaving, not its candidates.
fn data(
    function: &Function,
    text: &str,
    region: usize,
    ty: &str,
    keyword: usize,
    bodies: &[String],
    key: &dyn Fn(usize) -> VariantKey,
) -> Piece {
    let original = &text[function.body.clone()];
    let control = VariantKey {
        function: region,
        text: original.to_string(),
    };
    let lazy = "crate::__autofix_schema::Lazy";
    let mut texts = vec![(
        format!(
            "static {}: {lazy}<{ty}> = {lazy}::new(|| match crate::__autofix_schema::variant({region}) {{",
            function.name
        ),
        Some(control.clone()),
    )];
    for (variant, body) in bodies.iter().enumerate() {
        texts.push((
            format!(" {} => {{ {body} }}", variant + 1),
            Some(key(variant + 1)),
        ));
    }
    texts.push((format!(" _ => {{ {original} }} }});"), Some(control)));
    Piece::replace(keyword..function.item.end, texts)
}

/// The name of copy `variant` of the function of region `region`.
fn copy_name(function: &Function, region: usize, variant: usize) -> String {
    format!("{}__autofix_{region}_{variant}", function.name)
}

fn helper_name(region: usize) -> String {
    format!("__AutofixHelper{region}")
}

/// The original's pattern parameters renamed (`(a, b): T` to `__autofix_p1: T`),
/// so that the dispatch can pass them on; the body binds them again.
fn pattern_parameters(function: &Function) -> Vec<Piece> {
    function
        .params
        .iter()
        .enumerate()
        .filter_map(|(i, param)| match param {
            Param::Pattern { pattern } => Some(Piece::replace(
                pattern.clone(),
                vec![(format!("__autofix_p{i}"), None)],
            )),
            Param::Name(_) => None,
        })
        .collect()
}

/// The dispatch at the start of the original body (on the line of its
/// `{`), then the pattern parameters bound again.
fn dispatch(
    function: &Function,
    text: &str,
    region: usize,
    count: usize,
    key: &dyn Fn(usize) -> VariantKey,
) -> Piece {
    let arguments: Vec<String> = function
        .receiver
        .then(|| "self".to_string())
        .into_iter()
        .chain(function.params.iter().enumerate().map(|(i, p)| match p {
            Param::Name(name) => name.clone(),
            Param::Pattern { .. } => format!("__autofix_p{i}"),
        }))
        .collect();
    let arguments = arguments.join(", ");
    let krate = if function.in_macro { "$crate" } else { "crate" };
    let mut texts = vec![(
        format!(" match {krate}::__autofix_schema::variant({region}) {{"),
        None,
    )];
    for variant in 1..=count {
        let name = copy_name(function, region, variant);
        let turbofish = &function.turbofish;
        let callee = match &function.shape {
            // (Data is never dispatched to: see `data`.)
            Shape::Free | Shape::Data { .. } => format!("{name}{turbofish}"),
            Shape::Inherent { .. } => format!("Self::{name}{turbofish}"),
            Shape::Helper { arguments, .. } => {
                format!(
                    "<Self as {}{arguments}>::{name}{turbofish}",
                    helper_name(region)
                )
            }
        };
        let mut call = format!("{callee}({arguments})");
        if function.is_async {
            call.push_str(".await");
        }
        if function.is_unsafe {
            call = format!("unsafe {{ {call} }}");
        }
        texts.push((format!(" {variant} => return {call},"), Some(key(variant))));
    }
    texts.push((" _ => {} }".to_string(), None));
    if let Some((rebind, _)) = texts.last_mut() {
        for (i, param) in function.params.iter().enumerate() {
            if let Param::Pattern { pattern } = param {
                let _ = write!(rebind, " let {} = __autofix_p{i};", &text[pattern.clone()]);
            }
        }
    }
    Piece::insert(function.body.start + 1, texts)
}

/// `body` with what the original has in scope: in an implementation of a
/// trait, that trait's methods (a helper's copy is in another trait's
/// impl), by a `use` first in the body. A trait named by one segment is in
/// scope in the whole module already (and a path from the crate root, as
/// a 2015 crate reads a `use`, would not find it).
fn in_scope(shape: &Shape, body: &str) -> String {
    match shape {
        Shape::Helper { trait_path, .. } if trait_path.contains("::") && body.starts_with('{') => {
            format!(
                "{{ #[allow(unused_imports)] use {trait_path} as _;{}",
                &body[1..]
            )
        }
        _ => body.to_string(),
    }
}

/// The copies of a function, where they go: beside it, in another `impl`
/// block, or in a helper trait.
fn copies(
    function: &Function,
    text: &str,
    region: usize,
    bodies: &[String],
    key: &dyn Fn(usize) -> VariantKey,
) -> Piece {
    let item = &text[function.item.clone()];
    let start = function.item.start;
    let copy = |variant: usize| -> String {
        let mut edits: Vec<Edit> = function
            .dropped
            .iter()
            .map(|r| Edit::replace(r.start - start..r.end - start, ""))
            .collect();
        if let Some(constness) = &function.constness {
            edits.push(Edit::replace(
                constness.start - start..constness.end - start,
                "",
            ));
        }
        edits.push(Edit::replace(
            function.name_range.start - start..function.name_range.end - start,
            copy_name(function, region, variant),
        ));
        edits.push(Edit::replace(
            function.body.start - start..function.body.end - start,
            in_scope(&function.shape, &bodies[variant - 1]),
        ));
        format!(
            "\n{}",
            splice(item, &edits).expect("a copy's edits never overlap")
        )
    };
    let variants = 1..=bodies.len();
    let texts = match &function.shape {
        Shape::Free | Shape::Data { .. } => variants.map(|v| (copy(v), Some(key(v)))).collect(),
        Shape::Inherent { block } => {
            let (open, close) = block.split_once("{}").expect("a block with a hole");
            let mut texts = vec![(open.to_string(), None)];
            texts.extend(variants.map(|v| (copy(v), Some(key(v)))));
            texts.push((close.to_string(), None));
            texts
        }
        Shape::Helper {
            declaration,
            implementation,
            ..
        } => {
            let helper = helper_name(region);
            let mut texts = Vec::new();
            let (open, close) = fill_name(declaration, &helper);
            texts.push((open, None));
            for v in variants.clone() {
                let declared =
                    function
                        .declaration
                        .replacen("{}", &copy_name(function, region, v), 1);
                texts.push((format!(" {declared}"), Some(key(v))));
            }
            texts.push((close, None));
            let (open, close) = fill_name(implementation, &helper);
            texts.push((open, None));
            texts.extend(variants.map(|v| (copy(v), Some(key(v)))));
            texts.push((close, None));
            texts
        }
    };
    Piece::insert(function.insert_at, texts)
}

/// A template's first `{}` filled with `name`; the text before and after
/// its second `{}` (the hole for the items).
fn fill_name(template: &str, name: &str) -> (String, String) {
    let filled = template.replacen("{}", name, 1);
    let (open, close) = filled.split_once("{}").expect("a template with a hole");
    (open.to_string(), close.to_string())
}
