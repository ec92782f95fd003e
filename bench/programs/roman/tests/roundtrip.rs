use roman::{parse_list, Error, Roman, MAX};

#[test]
fn every_number_round_trips() {
    for n in 1..=MAX {
        let numeral = Roman::new(n).unwrap().to_string();
        assert_eq!(numeral.parse::<Roman>().unwrap().value(), n, "{numeral}");
    }
}

#[test]
fn numerals_sort_like_numbers() {
    let mut numerals: Vec<Roman> = ["XL", "IX", "MC", "CM", "V"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    numerals.sort();
    let names: Vec<String> = numerals.iter().map(Roman::to_string).collect();
    assert_eq!(names, ["V", "IX", "XL", "CM", "MC"]);
}

#[test]
fn chapter_list() {
    assert_eq!(parse_list("I, II, III.").unwrap(), vec![1, 2, 3]);
    assert_eq!(parse_list("  xiv   xv ").unwrap(), vec![14, 15]);
    assert_eq!(parse_list("").unwrap(), Vec::<u32>::new());
    assert_eq!(parse_list("X Y"), Err(Error::InvalidSymbol('Y')));
}

#[test]
fn try_from_integers() {
    assert_eq!(Roman::try_from(49).unwrap().to_string(), "XLIX");
    assert!(Roman::try_from(0).is_err());
}
