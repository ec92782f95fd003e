//! Methods replaced: by a sibling (`min` for `max`, `starts_with` for
//! `ends_with`...), the likelier mistake, then by another method the crate
//! calls with as many arguments on a receiver written the same way (most
//! likely of the same type: any method of the crate seldom compiles); a
//! function called by path after one of the crate's types
//! (`UniCase::unicode(s)`) by another associated function of that type with
//! as many arguments and the same return type (`UniCase::new(s)`: the wrong
//! constructor); then by another method of a type of the crate that
//! declares this one, with as many arguments and the same return type
//! (`matches_all` for `is_match`). Where the call is a statement of its own
//! (`self.pop();`), not by a method of the crate that takes `&self`: that
//! only drops the call's effect, which is `delete`'s edit.

use std::collections::BTreeSet;

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind, method_siblings};

use super::{Context, MutationOperator, receiver_text};

/// Replace a method by a sibling (`min`/`max`...) or another method of the crate.
pub(super) struct Method;

impl MutationOperator for Method {
    fn operator(&self) -> Operator {
        Operator::Method
    }

    fn name(&self) -> &'static str {
        "method"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Method { .. })
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        let SiteKind::Method {
            range,
            name,
            arguments,
            receiver,
            owner,
            expression,
            ..
        } = &site.kind
        else {
            return Vec::new();
        };
        // Siblings first: they are the likelier mistake. A function
        // called by path (`cmp::max`) has only its siblings.
        let siblings = method_siblings(name).map(str::to_string);
        let receiver_text = receiver_text(range, expression, cx.text).filter(|_| *receiver);
        let from_crate = receiver_text
            .into_iter()
            .flat_map(|text| cx.space.called_on(text, *arguments))
            .cloned();
        let associated = owner
            .iter()
            .flat_map(|owner| cx.space.associated(owner, name, *arguments));
        let beside = receiver_text
            .into_iter()
            .flat_map(|_| cx.space.methods_beside(name, *arguments));
        let mut seen = BTreeSet::from([name.clone()]);
        // A call made for its effect (its value thrown away) is not made a
        // call of a `&self` method: that only drops the effect (`delete`).
        let for_effect = site.is_statement(expression, cx.text);
        siblings
            .chain(from_crate)
            .chain(associated)
            .chain(beside)
            .filter(|m| !(for_effect && cx.space.reads_only(m)))
            .filter(|m| seen.insert(m.clone()))
            .map(|m| Edit::replace(range.clone(), m))
            .collect()
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        0
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::super::tests::lines_made;
    use crate::mutation::patch::Operator;

    #[test]
    fn a_method_becomes_another_its_type_declares_though_never_called_there() {
        let text = "pub enum Strategy { A, B }\nimpl Strategy {\n    pub fn is_match(&self, path: &str) -> bool { path.is_empty() }\n    pub fn matches_all(&self, path: &str) -> bool { !path.is_empty() }\n    pub fn count(&self, path: &str) -> usize { path.len() }\n}\npub fn all(strats: &[Strategy], path: &str) -> bool {\n    for strat in strats {\n        if !strat.is_match(path) {\n            return false;\n        }\n    }\n    true\n}\n";
        // Not `count`: it returns another type.
        assert_eq!(
            lines_made(text, Operator::Method, 9),
            BTreeSet::from(["if !strat.matches_all(path) {".to_string()])
        );
    }
}
