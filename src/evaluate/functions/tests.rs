use super::*;

/// The functions of `text`, with a test target and an example that
/// read some of its data.
fn functions(text: &str) -> Vec<Function> {
    let outside = [
        (
            "tests/it.rs",
            "use c::{OPEN, WIDE};\nconst OWN: u8 = 1;\n#[test]\nfn t() {\n    assert_eq!(c::OPEN[0] + OWN, 1);\n    let _: [u8; WIDE] = [0; 2];\n}\n",
        ),
        (
            "examples/e.rs",
            "use other::*;\nfn main() { println!(\"{}\", GLOBBED); }\n",
        ),
    ]
    .map(|(path, text)| (PathBuf::from(path), text.to_string()));
    let sources = CrateSources::of_one_file(text);
    let keep_const = KeepConst::of(&sources);
    Functions::of(&sources, &keep_const, &outside, &["c"]).functions
}

#[test]
fn free_functions_know_their_parameters_and_generics() {
    let text = "pub fn f<'a, T: Clone, const N: usize>(x: &'a T, (a, b): (u8, u8), mut m: u8) -> T where T: Copy { *x }\n";
    let [f] = &functions(text)[..] else { panic!() };
    assert_eq!(f.name, "f");
    assert_eq!(f.shape, Shape::Free);
    assert_eq!(f.turbofish, "::<T, N>");
    assert_eq!(f.params[0], Param::Name("x".into()));
    assert!(
        matches!(&f.params[1], Param::Pattern { pattern } if &text[pattern.clone()] == "(a, b)")
    );
    assert_eq!(f.params[2], Param::Name("m".into()));
    assert_eq!(
        f.declaration,
        "fn {}<'a, T: Clone, const N: usize>(_: &'a T, _: (u8, u8), _: u8) -> T where T: Copy;"
    );
    assert_eq!(&text[f.dropped[0].clone()], "pub");
    assert_eq!(f.insert_at, text.trim_end().len());
    assert_eq!(f.not_copyable, None);
}

#[test]
fn methods_know_their_blocks_and_helpers() {
    let text = "struct C(u32);\nimpl<T> C where T: Copy {\n    /// Doc.\n    #[inline]\n    pub async fn get(&self) -> u32 { self.0 }\n}\nimpl Iterator for C {\n    type Item = u32;\n    fn next(&mut self) -> Option<Self::Item> { None }\n}\ntrait Greet<G> {\n    fn name(&self) -> String;\n    fn hi(&self) -> String { self.name() }\n}\nfn it() -> impl Iterator<Item = u8> { 0..1 }\nconst fn c() -> u8 { 1 }\nconst fn r() -> u8 { 2 }\nfn arr(_: [u8; c() as usize]) {}\n";
    let all = functions(text);
    let names: Vec<&str> = all.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["get", "next", "hi", "it", "c", "r", "arr"]);
    let get = &all[0];
    assert!(get.receiver && get.is_async);
    assert_eq!(
        get.shape,
        Shape::Inherent {
            block: "\nimpl<T> C where T: Copy { {} }".into()
        }
    );
    let dropped: Vec<&str> = get.dropped.iter().map(|r| &text[r.clone()]).collect();
    assert_eq!(dropped, ["/// Doc.", "pub"]);
    let Shape::Helper {
        declaration,
        implementation,
        arguments,
        trait_path,
    } = &all[1].shape
    else {
        panic!("{:?}", all[1].shape)
    };
    assert_eq!(trait_path, "Iterator");
    assert_eq!(
        declaration,
        "\n#[allow(non_camel_case_types)] trait {}: Iterator where Self: Sized { {} }"
    );
    assert_eq!(implementation, "\nimpl {} for C where Self: Sized { {} }");
    assert_eq!(arguments, "");
    let Shape::Helper { implementation, .. } = &all[2].shape else {
        panic!()
    };
    assert_eq!(
        implementation,
        "\nimpl<G, __AutofixSelf: Greet<G> + ?Sized> {}<G> for __AutofixSelf  { {} }"
    );
    assert_eq!(all[3].not_copyable, Some("returning `impl Trait`"));
    // `c` gives an array its length; `r` runs only at run time.
    assert_eq!(all[4].not_copyable, Some("a const fn"));
    assert_eq!(all[4].constness, None);
    assert_eq!(all[5].not_copyable, None);
    let constness = all[5].constness.clone().unwrap();
    assert_eq!(&text[constness], "const ");
}

/// A helper trait says what its impl's header implies: `T: 'a` for a
/// `&'a [T]` there, `Self: Sized` for a type sized by its form.
#[test]
fn helper_traits_say_what_the_impl_header_implies() {
    let text = "struct Name(str);\nstruct Cell<T: ?Sized>(u8, T);\nstruct P(u8);\nimpl<'a, T> PartialEq<&'a [T]> for Name where T: Copy { fn eq(&self, _: &&'a [T]) -> bool { true } }\nimpl<'a, 'b: 'a> Tr<&'a &'b u8> for P { fn f(&self) {} }\nimpl Tr for Cell<str> { fn f(&self) {} }\nimpl<T: ?Sized> Tr for Box<T> { fn f(&self) {} }\n";
    let wheres: Vec<String> = functions(text)
        .into_iter()
        .map(|f| match f.shape {
            Shape::Helper { declaration, .. } => {
                declaration.split_once(" where ").map_or("", |w| w.1).into()
            }
            shape => panic!("{shape:?}"),
        })
        .collect();
    assert_eq!(
        wheres,
        [
            "T: Copy, T: 'a { {} }",
            "'b: 'a, Self: Sized { {} }",
            "",
            "Self: Sized { {} }"
        ]
    );
}

#[test]
fn data_is_woven_only_where_a_rewrite_reaches_every_read() {
    let text = "const TABLE: [u8; 3] = [1, 2, 3];\nstatic NAMES: &[&str] = &[\"a\"];\nconst MAX: u8 = 9;\npub const OPEN: [u8; 1] = [0];\npub const CAP: u8 = 7;\nconst HALF: [u8; 1] = [1];\nconst LEN: usize = HALF.len();\nconst SIZED: [u8; 2] = [0, 0];\nstatic mut COUNT: u8 = 0;\nconst SHOWN: [u8; 1] = [4];\nconst WIDTH: usize = 3;\npub const WIDE: usize = 2;\npub const OWN: u8 = 0;\npub const GLOBBED: u8 = 5;\nfn f(i: usize) -> u8 {\n    let n = NAMES.len() as u8 + TABLE[i] + SIZED.iter().sum::<u8>();\n    let _ = [0u8; SIZED.len()];\n    println!(\"{SHOWN:?} {n:WIDTH$}\");\n    if n > MAX { MAX } else { TABLE.iter().copied().max().unwrap_or(0) + OPEN[0] + CAP }\n}\nimpl S { const K: u8 = 1; }\n";
    let functions = functions(text);
    let data: Vec<(&str, Option<&str>)> = functions
        .iter()
        .filter(|f| matches!(f.shape, Shape::Data { .. }))
        .map(|f| (f.name.as_str(), f.not_copyable))
        .collect();
    let value = Some("read where no rewrite reaches (a `const` context, a pattern)");
    let own = Some("whose name a test or example of the package gives to something of its own");
    assert_eq!(
        data,
        [
            // Methods and indexes only, in a function body.
            ("TABLE", None),
            ("NAMES", None),
            // Compared and returned as a value: rewritten as `(*MAX)`.
            ("MAX", None),
            // Public, read by a test and an example in code that runs.
            ("OPEN", None),
            // Public, named in the crate's code alone.
            ("CAP", None),
            // Read by another `const`.
            ("HALF", value),
            ("LEN", None),
            // An array length is a `const` context.
            ("SIZED", value),
            ("COUNT", Some("that is a `static mut`")),
            // Formatted by a format string, through the lazy static.
            ("SHOWN", None),
            // A format string's width.
            ("WIDTH", value),
            // Public, an array length in a test.
            ("WIDE", value),
            // A test's own `const` has the name.
            ("OWN", own),
            // An example may read another crate's by its glob import.
            ("GLOBBED", own),
        ]
    );
    let table = &functions[0];
    assert_eq!(&text[table.body.clone()], "[1, 2, 3]");
    assert_eq!(
        table.shape,
        Shape::Data {
            ty: "[u8; 3]".to_string(),
            keyword: 0
        }
    );
    // Its value's first token is inside it.
    let one = text.find('1').unwrap();
    assert_eq!(
        Functions {
            functions: functions.clone()
        }
        .around(FileId::new(0), &(one..one + 1)),
        Some(0)
    );
}

#[test]
fn nested_functions_belong_to_the_outermost() {
    let text = "fn outer() -> u8 {\n    fn inner() -> u8 { 1 }\n    inner()\n}\n";
    let table = Functions::of(
        &CrateSources::of_one_file(text),
        &KeepConst::Every,
        &[],
        &[],
    );
    assert_eq!(table.functions.len(), 1);
    let one = text.find("1 }").unwrap();
    assert_eq!(table.around(FileId::new(0), &(one..one + 1)), Some(0));
    assert_eq!(table.around(FileId::new(0), &(0..2)), None);
}

#[test]
fn functions_know_whether_they_are_generic_and_define_types() {
    let text = "fn plain(x: u8) -> u8 { x }\n\
                fn generic<T: Copy>(x: T) -> T { x }\n\
                fn takes(f: impl Fn(u8) -> u8) -> u8 { f(1) }\n\
                fn closure(v: &[u8]) -> usize { v.iter().filter(|&&x| x > 1).count() }\n\
                struct S<T>(T);\n\
                impl<T> S<T> { fn get(&self) -> &T { &self.0 } }\n\
                struct U;\n\
                impl U { fn run(&self) { let _ = async { 1 }; } }\n\
                trait Tr { fn d(&self) -> u8 { 1 } }\n";
    let flags: Vec<(String, bool, bool)> = functions(text)
        .into_iter()
        .map(|f| (f.name, f.generic, f.makes_types))
        .collect();
    let expected = [
        ("plain", false, false),
        ("generic", true, false),
        ("takes", true, false),
        ("closure", false, true),
        ("get", true, false),
        ("run", false, true),
        ("d", true, false),
    ]
    .map(|(name, generic, makes)| (name.to_string(), generic, makes));
    assert_eq!(flags, expected);
}
