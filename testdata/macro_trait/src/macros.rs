/// Writes the items it is given, one token tree at a time.
macro_rules! trait_items {
    ([$($stack:tt)*]) => {
        $($stack)*
    };
    ([$($stack:tt)*] $t:tt $($tail:tt)*) => {
        trait_items!([$($stack)* $t] $($tail)*);
    };
}
