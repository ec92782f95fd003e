// The coverage runtime cargo-autofix appends to every crate root of an
// instrumented scratch copy. Probes call `crate::__autofix_rt::hit(ID)`.
//
// The first hit of each probe in a process appends its id to the file named
// by CARGO_AUTOFIX_COVERAGE with one unbuffered write, so the record survives
// a panic, `process::exit` and `abort`, and a child process (the crate's
// binary run by an integration test) appends to the same file.
//
// With CARGO_AUTOFIX_TRACE set to a file, every hit is also kept, the last
// TRACE_CAPACITY of them, and written there (one id a line, oldest first)
// when the process panics: the trace of a failing test, for dependencies.
//
// It only `use`s std (no inline `::std` paths) so that it compiles in every
// edition; for `#![no_std]` crates the comment below becomes `extern crate std;`.
//
// Public (hidden) because probes in the body of an exported macro name it
// `$crate::__autofix_rt`, also where a test target expands that macro.
#[doc(hidden)]
#[allow(warnings, clippy::all)]
pub mod __autofix_rt {
    // extern crate std;
    use std::boxed::Box;
    use std::collections::VecDeque;
    use std::env;
    use std::fs::{self, File, OpenOptions};
    use std::io::Write;
    use std::panic;
    use std::string::{String, ToString};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Mutex, OnceLock};

    const PROBES: usize = 1;

    const UNHIT: AtomicBool = AtomicBool::new(false);
    static HIT: [AtomicBool; PROBES] = [UNHIT; PROBES];
    static SINK: OnceLock<Option<File>> = OnceLock::new();

    const TRACE_CAPACITY: usize = 100_000;
    static TRACE: OnceLock<Option<Mutex<VecDeque<u32>>>> = OnceLock::new();

    #[inline(always)]
    pub fn hit(probe: usize) {
        if !HIT[probe].load(Ordering::Relaxed) && !HIT[probe].swap(true, Ordering::Relaxed) {
            record(probe);
        }
        if let Some(trace) = TRACE.get_or_init(start_trace) {
            if let Ok(mut trace) = trace.lock() {
                if trace.len() == TRACE_CAPACITY {
                    trace.pop_front();
                }
                trace.push_back(probe as u32);
            }
        }
    }

    /// Starts tracing if asked to: the trace is written when a panic happens.
    #[cold]
    fn start_trace() -> Option<Mutex<VecDeque<u32>>> {
        let path = env::var_os("CARGO_AUTOFIX_TRACE")?;
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if let Some(Some(trace)) = TRACE.get() {
                if let Ok(trace) = trace.lock() {
                    let mut text = String::new();
                    for probe in trace.iter() {
                        text.push_str(&probe.to_string());
                        text.push('\n');
                    }
                    let _ = fs::write(&path, text);
                }
            }
            previous(info);
        }));
        Some(Mutex::new(VecDeque::new()))
    }

    #[cold]
    #[inline(never)]
    fn record(probe: usize) {
        let sink = SINK.get_or_init(|| {
            let path = env::var_os("CARGO_AUTOFIX_COVERAGE")?;
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
