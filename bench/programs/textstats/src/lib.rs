//! Statistics of English prose: counts, a syllable estimate, the Flesch
//! reading-ease score, the most frequent words and keywords in context.

use std::collections::HashMap;

/// Flesch reading ease: BASE - SENTENCE_WEIGHT * words per sentence
/// - SYLLABLE_WEIGHT * syllables per word.
const FLESCH_BASE: f64 = 206.835;
const FLESCH_SENTENCE_WEIGHT: f64 = 1.015;
const FLESCH_SYLLABLE_WEIGHT: f64 = 84.6;

/// Words too common to count as keywords.
const STOP_WORDS: [&str; 12] = [
    "a", "an", "and", "in", "is", "it", "of", "on", "the", "to", "was", "with",
];

#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    pub words: usize,
    pub sentences: usize,
    pub syllables: usize,
    pub letters: usize,
}

impl Stats {
    pub fn of(text: &str) -> Stats {
        let words = words(text);
        Stats {
            words: words.len(),
            sentences: sentences(text),
            syllables: words.iter().map(|w| syllables(w)).sum(),
            letters: words
                .iter()
                .map(|w| w.chars().filter(|c| c.is_alphabetic()).count())
                .sum(),
        }
    }

    pub fn average_word_length(&self) -> f64 {
        if self.words == 0 {
            return 0.0;
        }
        self.letters as f64 / self.words as f64
    }

    /// The Flesch reading-ease score: about 90-100 for simple text, 0-30
    /// for dense academic prose.
    pub fn reading_ease(&self) -> f64 {
        if self.words == 0 || self.sentences == 0 {
            return 0.0;
        }
        let words_per_sentence = self.words as f64 / self.sentences as f64;
        let syllables_per_word = self.syllables as f64 / self.words as f64;
        FLESCH_BASE
            - FLESCH_SENTENCE_WEIGHT * words_per_sentence
            - FLESCH_SYLLABLE_WEIGHT * syllables_per_word
    }
}

/// The words of `text`, lowercase; apostrophes stay inside words.
pub fn words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() || (c == '\'' && !word.is_empty()) {
            word.extend(c.to_lowercase());
        } else if !word.is_empty() {
            words.push(word.trim_end_matches('\'').to_string());
            word.clear();
        }
    }
    if !word.is_empty() {
        words.push(word.trim_end_matches('\'').to_string());
    }
    words
}

/// Sentences end with `.`, `!` or `?`; a run of them ("?!", "...") ends one
/// sentence. Text after the last one counts as a sentence too.
pub fn sentences(text: &str) -> usize {
    let mut count = 0;
    let mut in_sentence = false;
    for c in text.chars() {
        if matches!(c, '.' | '!' | '?') {
            if in_sentence {
                count += 1;
            }
            in_sentence = false;
        } else if c.is_alphanumeric() {
            in_sentence = true;
        }
    }
    if in_sentence {
        count += 1;
    }
    count
}

fn is_vowel(c: char) -> bool {
    matches!(c, 'a' | 'e' | 'i' | 'o' | 'u' | 'y')
}

/// Estimates the syllables of a lowercase word: groups of vowels, less a
/// silent final "e", at least one.
pub fn syllables(word: &str) -> usize {
    let chars: Vec<char> = word.chars().filter(|c| c.is_alphabetic()).collect();
    if chars.is_empty() {
        return 0;
    }
    let mut count = 0;
    let mut previous_vowel = false;
    for &c in &chars {
        let vowel = is_vowel(c);
        if vowel && !previous_vowel {
            count += 1;
        }
        previous_vowel = vowel;
    }
    let n = chars.len();
    if n > 2 && chars[n - 1] == 'e' && !is_vowel(chars[n - 2]) && chars[n - 2] != 'l' {
        count -= 1;
    }
    count.max(1)
}

/// The `k` most frequent words that are not stop words, most frequent
/// first, ties in alphabetical order.
pub fn top_words(text: &str, k: usize) -> Vec<(String, usize)> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for word in words(text) {
        if !STOP_WORDS.contains(&word.as_str()) {
            *counts.entry(word).or_insert(0) += 1;
        }
    }
    let mut entries: Vec<(String, usize)> = counts.into_iter().collect();
    entries.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    entries.truncate(k);
    entries
}

/// Every occurrence of `keyword` with up to `radius` words on each side.
pub fn keyword_in_context(text: &str, keyword: &str, radius: usize) -> Vec<String> {
    let words = words(text);
    let keyword = keyword.to_lowercase();
    let mut lines = Vec::new();
    for (index, word) in words.iter().enumerate() {
        if *word != keyword {
            continue;
        }
        let start = index.saturating_sub(radius);
        let end = (index + radius + 1).min(words.len());
        lines.push(words[start..end].join(" "));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_words() {
        assert_eq!(words("Hello, world!"), ["hello", "world"]);
        assert_eq!(words("It's Bob's dog"), ["it's", "bob's", "dog"]);
        assert_eq!(words("  'quoted'  "), ["quoted"]);
        assert!(words(" ... ").is_empty());
    }

    #[test]
    fn counts_sentences() {
        assert_eq!(sentences("One. Two! Three?"), 3);
        assert_eq!(sentences("Wait... what?!"), 2);
        assert_eq!(sentences("No end"), 1);
        assert_eq!(sentences(""), 0);
    }

    #[test]
    fn estimates_syllables() {
        assert_eq!(syllables("cat"), 1);
        assert_eq!(syllables("water"), 2);
        assert_eq!(syllables("make"), 1);
        assert_eq!(syllables("table"), 2);
        assert_eq!(syllables("beautiful"), 3);
        assert_eq!(syllables("the"), 1);
        assert_eq!(syllables("see"), 1);
    }

    #[test]
    fn average_word_length() {
        let stats = Stats::of("I am here.");
        assert_eq!(stats.words, 3);
        assert!((stats.average_word_length() - 7.0 / 3.0).abs() < 1e-9);
        assert_eq!(Stats::of("").average_word_length(), 0.0);
    }
}
