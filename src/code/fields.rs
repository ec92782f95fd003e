//! Which private fields of a file's types its code reads and which it only
//! writes: a patch that takes away the last read of a field the code keeps
//! setting (`if self.eos` made `if buf.is_empty()`, libflate: the flag is
//! still set at the end of the stream, and nothing asks it any more) drops
//! a check the code was written to make. The compiler does not say so for
//! a field of a public type.
//!
//! Read from the syntax of one file: a private field can only be read in
//! its module. A field read on another value than `self` (its type not
//! known here), named in a macro's tokens or in a pattern counts as read
//! wherever it is.

use std::collections::BTreeSet;

use syn::visit::{self, Visit};
use syn::{Expr, Member};

use crate::code::tokens::{identifiers_in, is_compound_assignment};
use crate::code::walk::type_name;

/// The first private field, as `Type::field`, that `original` reads in
/// its type's impls and `patched` still writes there but no longer reads.
pub fn made_unread(original: &str, patched: &str) -> Option<String> {
    let before = Uses::of(original)?;
    let after = Uses::of(patched)?;
    after
        .private
        .iter()
        .filter(|key| before.reads.contains(*key) && !after.reads.contains(*key))
        .filter(|key| after.writes.contains(*key))
        .find(|(_, field)| !after.named_elsewhere.contains(field))
        .map(|(ty, field)| format!("{ty}::{field}"))
}

/// A type's field: the type's name and the field's.
type Field = (String, String);

#[derive(Default)]
struct Uses {
    /// Fields declared without `pub` in the file's structs.
    private: BTreeSet<Field>,
    /// `self.field` read in an impl of the type.
    reads: BTreeSet<Field>,
    /// `self.field` assigned (`=`, `+=`...) in an impl of the type.
    writes: BTreeSet<Field>,
    /// Field names read on another value, in a pattern or in a macro.
    named_elsewhere: BTreeSet<String>,
    /// The self type of the impl being read.
    impl_of: Option<String>,
}

impl Uses {
    fn of(text: &str) -> Option<Uses> {
        let file = syn::parse_file(text).ok()?;
        let mut uses = Uses::default();
        uses.visit_file(&file);
        Some(uses)
    }

    /// The field of `self` that `field` is, in the impl being read.
    fn own_field(&self, field: &syn::ExprField) -> Option<Field> {
        let ty = self.impl_of.as_ref()?;
        match (&*field.base, &field.member) {
            (Expr::Path(base), Member::Named(name)) if base.path.is_ident("self") => {
                Some((ty.clone(), name.to_string()))
            }
            _ => None,
        }
    }

    /// An assignment to `target` (its right side visited apart).
    fn assigned(&mut self, target: &Expr) {
        match target {
            Expr::Field(field) if let Some(own) = self.own_field(field) => {
                self.writes.insert(own);
            }
            _ => self.visit_expr(target),
        }
    }
}

impl<'ast> Visit<'ast> for Uses {
    fn visit_item_struct(&mut self, item: &'ast syn::ItemStruct) {
        for field in &item.fields {
            if let (syn::Visibility::Inherited, Some(name)) = (&field.vis, &field.ident) {
                self.private
                    .insert((item.ident.to_string(), name.to_string()));
            }
        }
        visit::visit_item_struct(self, item);
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        let outer = std::mem::replace(&mut self.impl_of, type_name(&item.self_ty));
        visit::visit_item_impl(self, item);
        self.impl_of = outer;
    }

    fn visit_expr_assign(&mut self, assign: &'ast syn::ExprAssign) {
        self.assigned(&assign.left);
        self.visit_expr(&assign.right);
    }

    fn visit_expr_binary(&mut self, binary: &'ast syn::ExprBinary) {
        if !is_compound_assignment(&binary.op) {
            return visit::visit_expr_binary(self, binary);
        }
        self.assigned(&binary.left);
        self.visit_expr(&binary.right);
    }

    fn visit_expr_field(&mut self, field: &'ast syn::ExprField) {
        match self.own_field(field) {
            Some(own) => {
                self.reads.insert(own);
            }
            None => {
                if let Member::Named(name) = &field.member {
                    self.named_elsewhere.insert(name.to_string());
                }
            }
        }
        visit::visit_expr_field(self, field);
    }

    fn visit_field_pat(&mut self, pat: &'ast syn::FieldPat) {
        if let Member::Named(name) = &pat.member {
            self.named_elsewhere.insert(name.to_string());
        }
        visit::visit_field_pat(self, pat);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        identifiers_in(mac.tokens.clone(), &mut self.named_elsewhere);
    }
}

#[cfg(test)]
mod tests {
    use super::made_unread;

    const DECODER: &str = "pub struct Decoder {\n    eos: bool,\n    pub done: bool,\n}\nimpl Decoder {\n    fn read(&mut self, buf: &mut [u8]) -> usize {\n        if self.eos {\n            0\n        } else {\n            self.eos = buf.len() > 3;\n            self.done = true;\n            1\n        }\n    }\n}\npub struct Other {\n    eos: bool,\n}\nimpl Other {\n    fn at_end(&self) -> bool {\n        self.eos\n    }\n}\n";

    #[test]
    fn a_flag_still_set_but_no_longer_asked_is_made_unread() {
        let patched = DECODER.replace("if self.eos {", "if buf.is_empty() {");
        assert_eq!(
            made_unread(DECODER, &patched),
            Some("Decoder::eos".to_string()),
            "another type's field of the same name does not count"
        );
        // Kept beside the new check, or read elsewhere: still read.
        let kept = DECODER.replace("if self.eos {", "if buf.is_empty() || self.eos {");
        assert_eq!(made_unread(DECODER, &kept), None);
        let printed = patched.replace("self.done = true;", "println!(\"{}\", self.eos);");
        assert_eq!(made_unread(DECODER, &printed), None);
        let elsewhere = format!("{patched}fn peek(d: &Decoder) -> bool {{ d.eos }}\n");
        assert_eq!(made_unread(DECODER, &elsewhere), None);
        // A public field may be read outside the file; one no longer set
        // is gone whole.
        let public = DECODER.replace("    eos: bool,\n    pub", "    pub eos: bool,\n    pub");
        let patched = public.replace("if self.eos {", "if buf.is_empty() {");
        assert_eq!(made_unread(&public, &patched), None);
        let unset = DECODER
            .replace("if self.eos {", "if buf.is_empty() {")
            .replace("self.eos = buf.len() > 3;", "");
        assert_eq!(made_unread(DECODER, &unset), None);
        // A compound assignment is a write.
        let counted = DECODER.replace("self.eos = buf.len() > 3;", "self.eos |= buf.len() > 3;");
        let patched = counted.replace("if self.eos {", "if buf.is_empty() {");
        assert_eq!(
            made_unread(&counted, &patched),
            Some("Decoder::eos".to_string())
        );
    }
}
