// The switch runtime cargo-autofix appends to every crate root of a woven
// scratch copy (mutant schemata). Each region of woven code asks which of
// its variants runs: `crate::__autofix_schema::variant(REGION)`, 0 being the
// original code. CARGO_AUTOFIX_SCHEMA selects them: `region:variant,...`,
// read once per process.
//
// It only `use`s std (no inline `::std` paths) so that it compiles in every
// edition; for `#![no_std]` crates the comment below becomes `extern crate std;`.
//
// Public (hidden) because the dispatch in a function of an exported macro's
// body names it `$crate::__autofix_schema`, also in a test target.
#[doc(hidden)]
#[allow(warnings, clippy::all)]
pub mod __autofix_schema {
    // extern crate std;
    use std::env;
    use std::fmt;
    use std::ops::Deref;
    use std::sync::{LazyLock, OnceLock};
    use std::vec::Vec;

    /// What a woven data item becomes: built by its variant on first read.
    /// Read as `*NAME`; a format string that names it (`"{NAME}"`,
    /// `"{NAME:?}"`) formats the value.
    pub struct Lazy<T>(LazyLock<T>);

    impl<T> Lazy<T> {
        pub const fn new(build: fn() -> T) -> Self {
            Lazy(LazyLock::new(build))
        }
    }

    impl<T> Deref for Lazy<T> {
        type Target = T;
        fn deref(&self) -> &T {
            &self.0
        }
    }

    macro_rules! forward {
        ($($format:ident)*) => {$(
            impl<T: fmt::$format> fmt::$format for Lazy<T> {
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    fmt::$format::fmt(&**self, f)
                }
            }
        )*};
    }
    forward!(Display Debug LowerHex UpperHex Octal Binary LowerExp UpperExp);

    const REGIONS: usize = 1;

    static ACTIVE: OnceLock<Vec<u32>> = OnceLock::new();

    /// The variant of `region` this process runs.
    pub fn variant(region: usize) -> u32 {
        ACTIVE.get_or_init(|| {
            let mut active = Vec::new();
            active.resize(REGIONS, 0);
            if let Some(value) = env::var_os("CARGO_AUTOFIX_SCHEMA") {
                for pair in value.to_string_lossy().split(',') {
                    if let Some((region, variant)) = pair.split_once(':') {
                        if let (Ok(region), Ok(variant)) = (region.parse::<usize>(), variant.parse::<u32>()) {
                            if region < REGIONS {
                                active[region] = variant;
                            }
                        }
                    }
                }
            }
            active
        })[region]
    }
}
