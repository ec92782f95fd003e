//! A small bank ledger. Amounts are in cents.

use std::fmt::Write;

pub type AccountId = usize;

/// How far below zero an account with an overdraft may go.
pub const OVERDRAFT_LIMIT: i64 = 500_00;

/// Charged once each time a withdrawal takes the balance below zero.
pub const OVERDRAFT_FEE: i64 = 25_00;

/// Monthly interest in basis points, by the balance it applies from.
const INTEREST_TIERS: [(i64, i64); 4] = [
    (0, 5),           // 0.05%
    (1_000_00, 10),   // 0.10% from $1,000
    (10_000_00, 20),  // 0.20% from $10,000
    (100_000_00, 25), // 0.25% from $100,000
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryKind {
    Deposit,
    Withdrawal,
    TransferIn(AccountId),
    TransferOut(AccountId),
    Fee,
    Interest,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub kind: EntryKind,
    /// Positive for money in, negative for money out.
    pub amount: i64,
    /// The balance after the entry.
    pub balance: i64,
}

#[derive(Debug, Clone)]
pub struct Account {
    pub owner: String,
    pub overdraft: bool,
    balance: i64,
    history: Vec<Entry>,
}

impl Account {
    pub fn balance(&self) -> i64 {
        self.balance
    }

    pub fn history(&self) -> &[Entry] {
        &self.history
    }

    /// What can be withdrawn.
    pub fn available(&self) -> i64 {
        if self.overdraft {
            self.balance + OVERDRAFT_LIMIT
        } else {
            self.balance
        }
    }

    fn record(&mut self, kind: EntryKind, amount: i64) {
        self.balance += amount;
        self.history.push(Entry {
            kind,
            amount,
            balance: self.balance,
        });
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LedgerError {
    UnknownAccount(AccountId),
    InvalidAmount(i64),
    InsufficientFunds { needed: i64, available: i64 },
    SameAccount,
}

#[derive(Debug, Default)]
pub struct Ledger {
    accounts: Vec<Account>,
}

/// Two distinct accounts, mutably.
fn pair_mut(accounts: &mut [Account], a: usize, b: usize) -> (&mut Account, &mut Account) {
    if a < b {
        let (left, right) = accounts.split_at_mut(b);
        (&mut left[a], &mut right[0])
    } else {
        let (left, right) = accounts.split_at_mut(a);
        (&mut right[0], &mut left[b])
    }
}

/// The monthly rate that applies to `balance`, in basis points.
pub fn interest_rate(balance: i64) -> i64 {
    INTEREST_TIERS
        .iter()
        .rev()
        .find(|(from, _)| balance >= *from)
        .map_or(0, |(_, rate)| *rate)
}

impl Ledger {
    pub fn new() -> Ledger {
        Ledger::default()
    }

    pub fn open(&mut self, owner: &str, overdraft: bool) -> AccountId {
        self.accounts.push(Account {
            owner: owner.to_string(),
            overdraft,
            balance: 0,
            history: Vec::new(),
        });
        self.accounts.len() - 1
    }

    pub fn account(&self, id: AccountId) -> Result<&Account, LedgerError> {
        self.accounts.get(id).ok_or(LedgerError::UnknownAccount(id))
    }

    fn account_mut(&mut self, id: AccountId) -> Result<&mut Account, LedgerError> {
        self.accounts
            .get_mut(id)
            .ok_or(LedgerError::UnknownAccount(id))
    }

    pub fn balance(&self, id: AccountId) -> Result<i64, LedgerError> {
        Ok(self.account(id)?.balance)
    }

    pub fn deposit(&mut self, id: AccountId, amount: i64) -> Result<(), LedgerError> {
        if amount <= 0 {
            return Err(LedgerError::InvalidAmount(amount));
        }
        self.account_mut(id)?.record(EntryKind::Deposit, amount);
        Ok(())
    }

    pub fn withdraw(&mut self, id: AccountId, amount: i64) -> Result<(), LedgerError> {
        if amount <= 0 {
            return Err(LedgerError::InvalidAmount(amount));
        }
        let account = self.account_mut(id)?;
        if amount > account.available() {
            return Err(LedgerError::InsufficientFunds {
                needed: amount,
                available: account.available(),
            });
        }
        let was_overdrawn = account.balance < 0;
        account.record(EntryKind::Withdrawal, -amount);
        if account.balance < 0 && !was_overdrawn {
            account.record(EntryKind::Fee, -OVERDRAFT_FEE);
        }
        Ok(())
    }

    pub fn transfer(
        &mut self,
        from: AccountId,
        to: AccountId,
        amount: i64,
    ) -> Result<(), LedgerError> {
        if amount <= 0 {
            return Err(LedgerError::InvalidAmount(amount));
        }
        if from == to {
            return Err(LedgerError::SameAccount);
        }
        self.account(to)?;
        let available = self.account(from)?.available();
        if amount > available {
            return Err(LedgerError::InsufficientFunds {
                needed: amount,
                available,
            });
        }
        let (source, target) = pair_mut(&mut self.accounts, from, to);
        source.record(EntryKind::TransferOut(to), -amount);
        target.record(EntryKind::TransferIn(from), amount);
        Ok(())
    }

    /// Pays each account with a positive balance its monthly interest,
    /// rounded down to the cent; returns the total paid.
    pub fn pay_interest(&mut self) -> i64 {
        let mut total = 0;
        for account in &mut self.accounts {
            if account.balance <= 0 {
                continue;
            }
            let interest = account.balance * interest_rate(account.balance) / 10_000;
            if interest > 0 {
                account.record(EntryKind::Interest, interest);
                total += interest;
            }
        }
        total
    }

    /// The sum of every balance.
    pub fn total(&self) -> i64 {
        self.accounts.iter().map(|a| a.balance).sum()
    }

    /// A printable statement of an account's last `count` entries.
    pub fn statement(&self, id: AccountId, count: usize) -> Result<String, LedgerError> {
        let account = self.account(id)?;
        let mut out = format!("Statement for {}\n", account.owner);
        let start = account.history.len().saturating_sub(count);
        for entry in &account.history[start..] {
            let label = match &entry.kind {
                EntryKind::Deposit => "deposit".to_string(),
                EntryKind::Withdrawal => "withdrawal".to_string(),
                EntryKind::TransferIn(from) => format!("transfer from #{from}"),
                EntryKind::TransferOut(to) => format!("transfer to #{to}"),
                EntryKind::Fee => "overdraft fee".to_string(),
                EntryKind::Interest => "interest".to_string(),
            };
            writeln!(
                out,
                "{label:<20}{:>12}{:>12}",
                cents(entry.amount),
                cents(entry.balance)
            )
            .unwrap();
        }
        write!(out, "{:<20}{:>24}", "balance", cents(account.balance)).unwrap();
        Ok(out)
    }
}

/// Formats cents as dollars: `-1234` is `-12.34`.
pub fn cents(amount: i64) -> String {
    let sign = if amount < 0 { "-" } else { "" };
    let amount = amount.abs();
    format!("{sign}{}.{:02}", amount / 100, amount % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_cents() {
        assert_eq!(cents(0), "0.00");
        assert_eq!(cents(1234), "12.34");
        assert_eq!(cents(-5), "-0.05");
    }

    #[test]
    fn interest_tiers() {
        assert_eq!(interest_rate(-100), 0);
        assert_eq!(interest_rate(50_00), 5);
        assert_eq!(interest_rate(1_000_00), 10);
        assert_eq!(interest_rate(50_000_00), 20);
        assert_eq!(interest_rate(200_000_00), 25);
    }

    #[test]
    fn pairs_in_either_order() {
        let mut ledger = Ledger::new();
        let a = ledger.open("a", false);
        let b = ledger.open("b", false);
        let (first, second) = pair_mut(&mut ledger.accounts, b, a);
        assert_eq!((first.owner.as_str(), second.owner.as_str()), ("b", "a"));
    }
}
