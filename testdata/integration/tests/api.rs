use integration::word_count;

#[test]
fn empty_text_has_no_words() {
    assert_eq!(word_count(""), 0);
}

#[test]
fn one_word() {
    assert_eq!(word_count("hello"), 1);
}

#[test]
fn two_words() {
    assert_eq!(word_count("hello world"), 2);
}
