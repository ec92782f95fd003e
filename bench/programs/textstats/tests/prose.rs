use textstats::{keyword_in_context, top_words, Stats};

const SIMPLE: &str = "The cat sat on the mat. The dog sat on the log.";

const DENSE: &str = "Institutional considerations necessitate comprehensive \
    evaluation of organizational effectiveness. Administrative \
    responsibilities complicate implementation.";

#[test]
fn simple_text_is_easy() {
    let stats = Stats::of(SIMPLE);
    assert_eq!((stats.words, stats.sentences, stats.syllables), (12, 2, 12));
    let score = stats.reading_ease();
    assert!((score - 116.145).abs() < 0.01, "{score}");
}

#[test]
fn dense_text_is_hard() {
    let stats = Stats::of(DENSE);
    assert_eq!((stats.words, stats.sentences), (12, 2));
    assert!(stats.reading_ease() < 0.0, "{}", stats.reading_ease());
}

#[test]
fn reading_ease_of_a_paragraph() {
    let text = "Reading is fun. Short words help. Long sentences with many \
        complicated words make a text much harder to read for everyone.";
    let score = Stats::of(text).reading_ease();
    assert!((score - 74.844).abs() < 0.01, "{score}");
}

#[test]
fn most_frequent_words() {
    let text = "the rain in spain falls mainly on the plain; rain, rain, go away. \
        Spain is sunny.";
    assert_eq!(
        top_words(text, 3),
        [
            ("rain".to_string(), 3),
            ("spain".to_string(), 2),
            ("away".to_string(), 1)
        ]
    );
}

#[test]
fn ties_are_alphabetical() {
    assert_eq!(
        top_words("pear apple fig apple pear fig", 10),
        [
            ("apple".to_string(), 2),
            ("fig".to_string(), 2),
            ("pear".to_string(), 2)
        ]
    );
}

#[test]
fn keywords_in_context() {
    let text = "A rose is a rose is a rose, said the poet about the rose.";
    assert_eq!(
        keyword_in_context(text, "poet", 2),
        ["said the poet about the"]
    );
    assert_eq!(
        keyword_in_context(text, "Rose", 1),
        ["a rose is", "a rose is", "a rose said", "the rose"]
    );
    assert!(keyword_in_context(text, "tulip", 3).is_empty());
}
