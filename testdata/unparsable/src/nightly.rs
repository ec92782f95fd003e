// Syntax only a future compiler would accept.
pub fn future() -> i32 {
    become 42 ++
}
