//! Advisory file locks (`flock`), held for as long as a [`Lock`] lives and
//! released by the kernel when the process dies, however it dies. Two
//! uses: one run at a time builds in a target dir's `autofix/`, and every
//! scratch dir carries a lock that tells a later run whether its owner is
//! still alive.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::Path;
use std::thread;
use std::time::Duration;

use crate::exit::{Context, Result};
use crate::system::{Budget, process};

/// A held lock on a file.
#[derive(Debug)]
pub struct Lock {
    file: File,
}

impl Drop for Lock {
    /// Unlocks at once: closing the file alone would leave the lock held
    /// while a child forked meanwhile (by another thread, before its
    /// `exec`) still shares the open file.
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

impl Lock {
    /// The lock on `path` (created if need be), or `None` if another
    /// process holds it.
    pub fn try_acquire(path: &Path) -> Result<Option<Lock>> {
        let file = open(path)?;
        match file.try_lock() {
            Ok(()) => Ok(Some(Lock { file })),
            Err(TryLockError::WouldBlock) => Ok(None),
            Err(TryLockError::Error(error)) => {
                Err(error).with_context(|| format!("cannot lock {}", path.display()))
            }
        }
    }

    /// The lock on `path`, waiting for it if another process holds it
    /// (`on_wait` is called once, before waiting). A signal or the end of
    /// `budget` ends the wait.
    pub fn wait(path: &Path, budget: Budget, on_wait: impl FnOnce()) -> Result<Lock> {
        if let Some(lock) = Lock::try_acquire(path)? {
            return Ok(lock);
        }
        on_wait();
        loop {
            process::check_interrupted(budget)?;
            thread::sleep(Duration::from_millis(100));
            if let Some(lock) = Lock::try_acquire(path)? {
                return Ok(lock);
            }
        }
    }

    /// Creates `path` already locked: the file is made and locked under
    /// another name, then renamed, so that nobody sees it unlocked.
    pub fn create(path: &Path) -> Result<Lock> {
        let mut fresh = path.as_os_str().to_owned();
        fresh.push(".new");
        let fresh = Path::new(&fresh);
        let lock = Lock::try_acquire(fresh)?
            .with_context(|| format!("{} is locked by another process", fresh.display()))?;
        std::fs::rename(fresh, path)
            .with_context(|| format!("cannot rename {}", fresh.display()))?;
        Ok(lock)
    }
}

fn open(path: &Path) -> Result<File> {
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_is_refused_until_released() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lock");
        let held = Lock::try_acquire(&path).unwrap().expect("free at first");
        // flock locks belong to the open file description: a second open
        // in the same process contends like another process would.
        assert!(Lock::try_acquire(&path).unwrap().is_none());
        drop(held);
        assert!(Lock::try_acquire(&path).unwrap().is_some());
    }

    #[test]
    fn a_created_lock_is_held_from_the_start() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.lock");
        let _held = Lock::create(&path).unwrap();
        assert!(path.is_file());
        assert!(!dir.path().join("run.lock.new").exists());
        assert!(Lock::try_acquire(&path).unwrap().is_none());
    }
}
