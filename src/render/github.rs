//! GitHub Actions workflow commands (`--format github`): a `::warning` per
//! top suspect, and after a repair a `::notice` carrying the patch, which
//! the Actions runner turns into annotations on the lines.

use std::fmt::Write;
use std::path::Path;

use super::{Ranking, format_score};
use crate::code::first_change;
use crate::repair::{Confidence, Level};

/// GitHub shows at most ten warning annotations per step.
pub const MOST: usize = 10;

/// One `::warning` line per suspect of the top `top` (at most [`MOST`])
/// with a positive score: a line no failing test executed is no finding.
/// `prefix` leads from the repository root to the workspace root (the
/// paths of annotations are relative to the repository).
pub fn ranking(ranking: &Ranking, top: Option<usize>, prefix: &Path) -> String {
    let mut out = String::new();
    let totals = &ranking.baseline;
    let failing = totals.failing().count();
    let passing = totals.passing().count();
    let scored = ranking.suspects.iter().filter(|s| s.score > 0.0);
    for suspect in scored.take(top.unwrap_or(MOST).min(MOST)) {
        let file = path(
            prefix,
            &ranking.baseline.sources.get(suspect.location.file).path,
        );
        let message = format!(
            "suspicious line, rank {} ({} {}): executed by {} of {failing} failing and {} of {passing} passing tests{}{}",
            suspect.rank,
            ranking.metric.name(),
            format_score(suspect.score),
            suspect.counts.failed,
            suspect.counts.passed,
            match (suspect.critical, suspect.in_slice) {
                (true, _) => "; flipping this condition makes a failing test pass",
                (false, true) => "; in the dynamic slice of every failing test",
                (false, false) => "",
            },
            if suspect.in_diff {
                "; changed by the diff"
            } else {
                ""
            }
        );
        let _ = writeln!(
            out,
            "::warning file={},line={},title={}::{}",
            property(&file),
            suspect.location.line,
            property("cargo autofix"),
            data(&message)
        );
    }
    out
}

/// One `::notice` on the first line the patch changes, holding the patch.
pub fn patch(diff: &str, confidence: Option<&Confidence>, prefix: &Path) -> String {
    let (file, line) = first_change(diff).unwrap_or_default();
    let file = path(prefix, Path::new(&file));
    let (title, message) = match confidence {
        Some(c) if c.level == Level::Likely => (
            "cargo autofix: a patch that passes every test, likely the fix",
            format!("{}\n{diff}", c.summary()),
        ),
        Some(c) => (
            "cargo autofix: a patch that passes every test, only plausible (review it before applying)",
            format!("{}\n{diff}", c.summary()),
        ),
        None => (
            "cargo autofix: a patch that passes every test (review it before applying)",
            diff.to_string(),
        ),
    };
    format!(
        "::notice file={},line={line},title={}::{}\n",
        property(&file),
        property(title),
        data(&message)
    )
}

fn path(prefix: &Path, relative: &Path) -> String {
    prefix.join(relative).to_string_lossy().replace('\\', "/")
}

/// A command's message, escaped as the runner reads it.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A command's property value (`file=`, `title=`), escaped.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::Reason;

    #[test]
    fn messages_and_properties_are_escaped() {
        assert_eq!(data("50%\nnext"), "50%25%0Anext");
        assert_eq!(property("a:b,c"), "a%3Ab%2Cc");
    }

    #[test]
    fn the_patch_is_annotated_on_its_first_changed_line() {
        let diff = "diff --git a/src/lib.rs b/src/lib.rs\n--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -3,7 +3,7 @@\n         if x < y {\n             return y;\n         } else if x < z {\n-            return y;\n+            return x;\n         }\n";
        assert_eq!(first_change(diff), Some(("src/lib.rs".to_string(), 6)));
        let notice = patch(diff, None, Path::new("crates/middle"));
        assert!(
            notice.starts_with(
                "::notice file=crates/middle/src/lib.rs,line=6,title=cargo autofix%3A "
            ),
            "{notice}"
        );
        assert!(notice.contains("%0A-            return y;%0A+            return x;%0A"));
        assert_eq!(notice.lines().count(), 1);

        let plausible = Confidence {
            level: Level::Plausible,
            reasons: vec![Reason {
                supports: false,
                text: "the edited line ranks 9th".into(),
            }],
        };
        let notice = patch(diff, Some(&plausible), Path::new("."));
        assert!(notice.contains("only plausible (review it"), "{notice}");
        assert!(
            notice.contains("::only plausible: the edited line ranks 9th%0Adiff --git"),
            "{notice}"
        );
    }
}
