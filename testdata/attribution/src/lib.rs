pub fn in_thread() -> u32 {
    7
}
pub fn before_panic() -> u32 {
    8
}
pub fn before_exit() -> u32 {
    9
}
pub fn before_abort() -> u32 {
    10
}
pub fn plain() -> u32 {
    11
}
pub fn in_binary() -> u32 {
    12
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spawns_a_thread() {
        let value = std::thread::spawn(in_thread).join().unwrap();
        assert_eq!(value, 7);
    }

    #[test]
    fn panics() {
        before_panic();
        panic!("deliberate");
    }

    #[test]
    fn exits() {
        before_exit();
        std::process::exit(3);
    }

    #[test]
    fn aborts() {
        before_abort();
        std::process::abort();
    }

    #[test]
    fn plain_call() {
        std::thread::sleep(std::time::Duration::from_millis(100));
        assert_eq!(plain(), 11);
    }
}
