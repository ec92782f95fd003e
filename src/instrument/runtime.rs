// The coverage runtime cargo-autofix appends to every crate root of an
// instrumented scratch copy. Probes call `crate::__autofix_rt::hit(ID)`.
//
// The first hit of each probe in a process appends its id to the file named
// by CARGO_AUTOFIX_COVERAGE with one unbuffered write, so the record survives
// a panic, `process::exit` and `abort`, and a child process (the crate's
// binary run by an integration test) appends to the same file.
//
// It only `use`s std (no inline `::std` paths) so that it compiles in every
// edition; for `#![no_std]` crates the comment below becomes `extern crate std;`.
#[doc(hidden)]
#[allow(warnings, clippy::all)]
pub(crate) mod __autofix_rt {
    // extern crate std;
    use std::fs::{File, OpenOptions};
    use std::io::Write;
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicBool, Ordering};

    const PROBES: usize = 1;

    const UNHIT: AtomicBool = AtomicBool::new(false);
    static HIT: [AtomicBool; PROBES] = [UNHIT; PROBES];
    static SINK: OnceLock<Option<File>> = OnceLock::new();

    #[inline(always)]
    pub fn hit(probe: usize) {
        if !HIT[probe].load(Ordering::Relaxed) && !HIT[probe].swap(true, Ordering::Relaxed) {
            record(probe);
        }
    }

    #[cold]
    #[inline(never)]
    fn record(probe: usize) {
        let sink = SINK.get_or_init(|| {
            let path = std::env::var_os("CARGO_AUTOFIX_COVERAGE")?;
            OpenOptions::new().create(true).append(true).open(path).ok()
        });
        if let Some(mut file) = sink.as_ref() {
            // Digits and newline in one buffer, written with one call.
            let mut buffer = [0u8; 24];
            let mut at = buffer.len() - 1;
            buffer[at] = b'\n';
            let mut rest = probe;
            loop {
                at -= 1;
                buffer[at] = b'0' + (rest % 10) as u8;
                rest /= 10;
                if rest == 0 {
                    break;
                }
            }
            let _ = file.write_all(&buffer[at..]);
        }
    }
}
