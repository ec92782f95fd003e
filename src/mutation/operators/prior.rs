//! The value before a step: where a statement steps a place
//! (`self.t += self.step;`) and the statements after it read the place,
//! the value before the step is kept in a new variable and read there
//! instead (`let t = self.t; self.t += self.step; Some(t)`): an iterator
//! that yields from its second value on, a counter read after its
//! increment. The variable is named after the field (`t`), or `old_n`.

use crate::code::source::Edit;
use crate::mutation::patch::Operator;
use crate::mutation::sites::{Site, SiteKind};

use super::{Context, MutationOperator};

/// Keep the value before a step and read it where the step's place is read after it.
pub(super) struct Prior;

impl MutationOperator for Prior {
    fn operator(&self) -> Operator {
        Operator::Prior
    }

    fn name(&self) -> &'static str {
        "prior"
    }

    fn applies(&self, kind: &SiteKind) -> bool {
        matches!(kind, SiteKind::Prior { .. })
    }

    fn edits(&self, site: &Site, cx: &Context) -> Vec<Edit> {
        let SiteKind::Prior {
            range,
            place,
            reads,
            name,
            indent,
        } = &site.kind
        else {
            return Vec::new();
        };
        let mut text = cx.text[range.clone()].to_string();
        // From the last, so that earlier offsets hold.
        for read in reads.iter().rev() {
            text.replace_range(read.start - range.start..read.end - range.start, name);
        }
        vec![Edit::replace(
            range.clone(),
            format!("let {name} = {place};\n{indent}{text}"),
        )]
    }

    fn unusualness(&self, _: &str, _: &str) -> usize {
        2
    }

    fn writes_statements(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::outcomes;
    use crate::mutation::patch::Operator;

    #[test]
    fn the_value_before_a_step_is_read_where_the_step_is_read_after_it() {
        let text = "impl Steps {\n    fn next(&mut self) -> Option<f32> {\n        if self.t >= 1.0 {\n            return None;\n        }\n        self.t += self.step;\n\n        Some(self.t)\n    }\n}\n";
        let made = outcomes(text, Operator::Prior, 6);
        let expected = text.replace(
            "        self.t += self.step;\n\n        Some(self.t)",
            "        let t = self.t;\n        self.t += self.step;\n\n        Some(t)",
        );
        assert_eq!(made.into_iter().collect::<Vec<_>>(), [expected]);
        // A local: a name of its own; the reads stop where it is written
        // again, and a step nothing reads after has no edit.
        let local = "fn f(v: &[u8]) -> u8 {\n    let mut i = 0;\n    i += 1;\n    let a = v[i];\n    i = 5;\n    a + v[i]\n}\n";
        let made = outcomes(local, Operator::Prior, 3);
        let expected = local.replace(
            "    i += 1;\n    let a = v[i];",
            "    let old_i = i;\n    i += 1;\n    let a = v[old_i];",
        );
        assert_eq!(made.into_iter().collect::<Vec<_>>(), [expected]);
        let unread = "fn f(mut n: u8) -> u8 {\n    n += 1;\n    7\n}\n";
        assert!(outcomes(unread, Operator::Prior, 2).is_empty());
    }
}
