fn main() {
    println!("{}", attribution::in_binary());
}
