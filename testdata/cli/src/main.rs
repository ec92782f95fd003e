use std::env;

fn greeting(name: &str, shout: bool) -> String {
    let text = format!("hello, {name}");
    if shout {
        text.to_lowercase()
    } else {
        text
    }
}

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    let shout = args.iter().any(|a| a == "--shout");
    let name = args.iter().find(|a| !a.starts_with("--")).cloned().unwrap_or_else(|| "world".to_string());
    println!("{}", greeting(&name, shout));
}
