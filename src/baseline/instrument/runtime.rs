// The coverage runtime cargo-autofix appends to every crate root of an
// instrumented scratch copy. Probes call `crate::__autofix_rt::hit(ID)`.
//
// The first hit of each probe in a process appends its id to the file named
// by CARGO_AUTOFIX_COVERAGE with one unbuffered write, so the record survives
// a panic, `process::exit` and `abort`, and a child process (the crate's
// binary run by an integration test) appends to the same file.
//
// Event probes (see `baseline::events`) call `branch(SITE, condition)`,
// which returns the condition unchanged, and `(&value).__autofix_observe(SITE)`:
// `ObserveValue` for integers (sign), `Option` and `Result` (variant), and
// `ObserveOther` for every other type (nothing). The first time a site sees
// an outcome in a process, `e` and its slot (SITE * OUTCOMES + outcome) go
// to the same file, at most EVENT_CAPACITY of them.
//
// With CARGO_AUTOFIX_TRACE set to a path, every hit is also kept, the last
// TRACE_CAPACITY of them, and written to that path followed by `.ROOT`, this
// crate root's number (one hit a line, `nanoseconds id`, oldest first) when
// the process panics: the trace of a failing test, for dependencies. The
// clock orders the hits of the crates one process links (a workspace
// member's library and the package's own crates each have a runtime).
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
    use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
    use std::sync::{Mutex, OnceLock};
    use std::time::{SystemTime, UNIX_EPOCH};

    const PROBES: usize = 1;

    const UNHIT: AtomicBool = AtomicBool::new(false);

    const EVENTS: usize = 1;
    const OUTCOMES: usize = 9;
    const EVENT_CAPACITY: usize = 10_000;
    static SEEN: [AtomicBool; EVENTS * OUTCOMES] = [UNHIT; EVENTS * OUTCOMES];
    static EVENTS_RECORDED: AtomicUsize = AtomicUsize::new(0);
    static SINK: OnceLock<Option<File>> = OnceLock::new();

    const TRACE_CAPACITY: usize = 100_000;
    const ROOT: usize = 0;
    static TRACE: OnceLock<Option<Mutex<VecDeque<(u64, u32)>>>> = OnceLock::new();

    // What a probe has seen: nothing yet, a hit (the common case: the probe
    // returns after one load), a hit while tracing (every hit is kept).
    const UNSEEN: u8 = 0;
    const SEEN_ONCE: u8 = 1;
    const SEEN_TRACING: u8 = 2;
    const NEVER: AtomicU8 = AtomicU8::new(UNSEEN);
    static HIT: [AtomicU8; PROBES] = [NEVER; PROBES];

    // Called, not inlined: a probe on every line copied this body into
    // every function, and rustc took half again as long (winnow's build
    // 25 s instead of 15.5 s, with the tests running no slower). In the
    // unoptimized builds tests run in, an atomic load is most of a probe's
    // cost (about 4 of 6 ns a hit, where checking the flag and the trace
    // took 10): a probe already hit returns after one load.
    #[inline(never)]
    pub fn hit(probe: usize) {
        if HIT[probe].load(Ordering::Relaxed) != SEEN_ONCE {
            hit_again(probe);
        }
    }

    /// A probe's first hit, or any hit while tracing.
    #[cold]
    #[inline(never)]
    fn hit_again(probe: usize) {
        let tracing = TRACE.get_or_init(start_trace);
        let seen = if tracing.is_some() {
            SEEN_TRACING
        } else {
            SEEN_ONCE
        };
        if HIT[probe].swap(seen, Ordering::Relaxed) == UNSEEN {
            record(probe);
        }
        if let Some(trace) = tracing {
            if let Ok(mut trace) = trace.lock() {
                if trace.len() == TRACE_CAPACITY {
                    trace.pop_front();
                }
                trace.push_back((now(), probe as u32));
            }
        }
    }

    /// A condition's outcome (0 false, 1 true), returned unchanged.
    #[inline(always)]
    pub fn branch(site: usize, value: bool) -> bool {
        event(site, value as usize);
        value
    }

    // Called, not inlined, as `hit`.
    #[inline(never)]
    fn event(site: usize, outcome: usize) {
        let slot = site * OUTCOMES + outcome;
        if !SEEN[slot].load(Ordering::Relaxed) && !SEEN[slot].swap(true, Ordering::Relaxed) {
            record_event(slot);
        }
    }

    /// Values whose outcome is recorded: 2, 3, 4 for an integer's sign,
    /// 5, 6 for `None`, `Some`, 7, 8 for `Err`, `Ok`.
    pub trait ObserveValue {
        fn __autofix_observe(&self, site: usize);
    }

    /// Every other value (through `&&T`: tried after `ObserveValue`).
    pub trait ObserveOther {
        fn __autofix_observe(&self, site: usize);
    }

    impl<T: ?Sized> ObserveOther for &T {
        #[inline(always)]
        fn __autofix_observe(&self, _site: usize) {}
    }

    macro_rules! __autofix_integers {
        ($($t:ty)*) => {$(
            impl ObserveValue for $t {
                #[inline(always)]
                fn __autofix_observe(&self, site: usize) {
                    let value = *self;
                    event(site, if value < (0 as $t) { 2 } else if value == (0 as $t) { 3 } else { 4 });
                }
            }
        )*};
    }
    __autofix_integers!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize);

    impl<T> ObserveValue for Option<T> {
        #[inline(always)]
        fn __autofix_observe(&self, site: usize) {
            event(site, if self.is_some() { 6 } else { 5 });
        }
    }

    impl<T, E> ObserveValue for Result<T, E> {
        #[inline(always)]
        fn __autofix_observe(&self, site: usize) {
            event(site, if self.is_ok() { 8 } else { 7 });
        }
    }

    /// Nanoseconds since the Unix epoch: one clock for every crate's trace.
    fn now() -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    }

    /// Starts tracing if asked to: the trace is written when a panic happens.
    #[cold]
    fn start_trace() -> Option<Mutex<VecDeque<(u64, u32)>>> {
        let mut path = env::var_os("CARGO_AUTOFIX_TRACE")?;
        path.push(".");
        path.push(ROOT.to_string());
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if let Some(Some(trace)) = TRACE.get() {
                if let Ok(trace) = trace.lock() {
                    let mut text = String::new();
                    for (time, probe) in trace.iter() {
                        text.push_str(&time.to_string());
                        text.push(' ');
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
        write_line(b"", probe);
    }

    #[cold]
    #[inline(never)]
    fn record_event(slot: usize) {
        if EVENTS_RECORDED.fetch_add(1, Ordering::Relaxed) < EVENT_CAPACITY {
            write_line(b"e", slot);
        }
    }

    /// `prefix`, the digits of `number` and a newline, written with one call.
    fn write_line(prefix: &[u8], number: usize) {
        let sink = SINK.get_or_init(|| {
            let path = env::var_os("CARGO_AUTOFIX_COVERAGE")?;
            OpenOptions::new().create(true).append(true).open(path).ok()
        });
        if let Some(mut file) = sink.as_ref() {
            let mut buffer = [0u8; 24];
            let mut at = buffer.len() - 1;
            buffer[at] = b'\n';
            let mut rest = number;
            loop {
                at -= 1;
                buffer[at] = b'0' + (rest % 10) as u8;
                rest /= 10;
                if rest == 0 {
                    break;
                }
            }
            for &byte in prefix.iter().rev() {
                at -= 1;
                buffer[at] = byte;
            }
            let _ = file.write_all(&buffer[at..]);
        }
    }
}
