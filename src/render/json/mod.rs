//! The ranking as one JSON object, and the JSON Schemas of the ranking and
//! of the repair's report, derived from their types (checked in as
//! `src/render/schemas/*.schema.json`; a test keeps the files and the types
//! in step).

mod ranking;

use serde_json::Value;

use super::Ranking;
use crate::localize::Localization;

/// The version of the JSON of the ranking and of the repair report: it
/// changes when a field changes meaning or goes away (new fields do not
/// change it). The schemas are in `src/render/schemas/`.
pub const VERSION: u32 = 1;

/// The JSON Schema of [`localization`]'s object, derived from its types
/// (the test below checks the file against them).
pub const RANKING_SCHEMA: &str = include_str!("../schemas/ranking.schema.json");

/// The JSON Schema of the repair's report (`--report`), derived from
/// `RepairReport` (the test below checks the file against it).
pub const REPORT_SCHEMA: &str = include_str!("../schemas/report.schema.json");

/// The whole localization: the overall ranking, and one per failure group.
pub fn localization(ranking: &Ranking, localization: &Localization) -> Value {
    serde_json::to_value(ranking::RankingJson::of(ranking, localization))
        .expect("the ranking serializes")
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use schemars::generate::SchemaSettings;
    use schemars::transform::RecursiveTransform;
    use schemars::{JsonSchema, Schema};

    use super::*;
    use crate::repair::RepairReport;

    /// `T`'s schema (JSON Schema 2020-12) as it serializes,
    /// pretty-printed, with a final newline.
    fn schema<T: JsonSchema>() -> String {
        let schema = SchemaSettings::draft2020_12()
            .for_serialize()
            .with_transform(RecursiveTransform(tidy))
            .into_generator()
            .into_root_schema_for::<T>();
        let text = serde_json::to_string_pretty(&schema).expect("a schema serializes");
        format!("{text}\n")
    }

    /// A description as one paragraph (a doc comment's lines joined),
    /// and no `default`: what serde fills in when it reads an old report
    /// says nothing of what is written.
    fn tidy(schema: &mut Schema) {
        if let Some(Value::String(text)) = schema.get_mut("description") {
            *text = text
                .split('\n')
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(" ");
        }
        schema.remove("default");
    }

    /// Each checked-in schema file, and the schema its type derives.
    fn schemas() -> [(&'static str, String); 2] {
        [
            (
                "src/render/schemas/ranking.schema.json",
                schema::<ranking::RankingJson>(),
            ),
            (
                "src/render/schemas/report.schema.json",
                schema::<RepairReport>(),
            ),
        ]
    }

    /// The checked-in schemas are those the types derive: run with
    /// `AUTOFIX_BLESS=1` to rewrite the files from the types.
    #[test]
    fn the_checked_in_schemas_are_derived_from_the_types() {
        let bless = std::env::var_os("AUTOFIX_BLESS").is_some();
        let mut stale = Vec::new();
        for (file, derived) in schemas() {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
            let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
            if checked_in == derived {
                continue;
            }
            if bless {
                std::fs::write(&path, &derived).unwrap();
                continue;
            }
            let diff = similar::TextDiff::from_lines(&checked_in, &derived);
            stale.push(format!(
                "{file} is not the schema its types derive:\n{}",
                diff.unified_diff().header(file, "derived")
            ));
        }
        assert!(
            stale.is_empty(),
            "{}\nrewrite the files from the types with `AUTOFIX_BLESS=1 cargo test --lib schemas`, and review the diff",
            stale.join("\n")
        );
    }

    /// The validator the tests check outputs with accepts the schemas
    /// (their draft, their keywords).
    #[test]
    fn the_derived_schemas_are_valid_json_schemas() {
        for (file, text) in schemas() {
            let schema: Value = serde_json::from_str(&text).unwrap();
            if let Err(e) = jsonschema::meta::validate(&schema) {
                panic!("{file}: {e}");
            }
            if let Err(e) = jsonschema::validator_for(&schema) {
                panic!("{file}: {e}");
            }
        }
    }
}
