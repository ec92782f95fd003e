use rle::{compress_text, decode, encode, expand_text, runs};

fn sample(len: usize) -> Vec<u8> {
    // Runs of varying lengths, some longer than a pair can hold.
    let mut data = Vec::with_capacity(len);
    let mut seed = 12345u32;
    while data.len() < len {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let byte = (seed >> 16) as u8 % 4;
        let run = 1 + (seed >> 8) as usize % 300;
        data.extend(std::iter::repeat(byte).take(run));
    }
    data.truncate(len);
    data
}

#[test]
fn bytes_round_trip() {
    for len in [0, 1, 2, 17, 255, 256, 1000, 5000] {
        let data = sample(len);
        assert_eq!(decode(&encode(&data)).unwrap(), data, "length {len}");
    }
}

#[test]
fn encoding_has_no_longer_runs_than_needed() {
    let data = sample(5000);
    let pairs = encode(&data).len() / 2;
    let needed: usize = runs(&data).iter().map(|(_, n)| n.div_ceil(255)).sum();
    assert_eq!(pairs, needed);
}

#[test]
fn text_round_trip() {
    for text in [
        "",
        "a",
        "hello",
        "aaaaaaaaaaaaaaab",
        "mississippi",
        "  --==**",
    ] {
        let compressed = compress_text(text).unwrap();
        assert!(compressed.len() <= text.len() * 2);
        assert_eq!(expand_text(&compressed).unwrap(), text);
    }
}

#[test]
fn expands_bitmap_rows() {
    let rows = ["5.2#5.", "12#", ".10#."];
    let expanded: Vec<String> = rows.iter().map(|r| expand_text(r).unwrap()).collect();
    assert_eq!(expanded, [".....##.....", "############", ".##########."]);
}
