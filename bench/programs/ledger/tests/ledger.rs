use ledger::{EntryKind, Ledger, LedgerError, OVERDRAFT_FEE};

fn ledger_with(balances: &[(&str, i64, bool)]) -> (Ledger, Vec<usize>) {
    let mut ledger = Ledger::new();
    let ids = balances
        .iter()
        .map(|&(owner, balance, overdraft)| {
            let id = ledger.open(owner, overdraft);
            if balance > 0 {
                ledger.deposit(id, balance).unwrap();
            }
            id
        })
        .collect();
    (ledger, ids)
}

#[test]
fn deposits_and_withdrawals() {
    let (mut ledger, ids) = ledger_with(&[("ann", 100_00, false)]);
    ledger.withdraw(ids[0], 30_00).unwrap();
    ledger.deposit(ids[0], 5_50).unwrap();
    assert_eq!(ledger.balance(ids[0]).unwrap(), 75_50);
    assert_eq!(ledger.account(ids[0]).unwrap().history().len(), 3);
}

#[test]
fn rejects_bad_amounts_and_accounts() {
    let (mut ledger, ids) = ledger_with(&[("ann", 10_00, false)]);
    assert_eq!(
        ledger.deposit(ids[0], 0),
        Err(LedgerError::InvalidAmount(0))
    );
    assert_eq!(
        ledger.withdraw(ids[0], -5),
        Err(LedgerError::InvalidAmount(-5))
    );
    assert_eq!(ledger.deposit(7, 100), Err(LedgerError::UnknownAccount(7)));
    assert_eq!(
        ledger.withdraw(ids[0], 10_01),
        Err(LedgerError::InsufficientFunds {
            needed: 10_01,
            available: 10_00
        })
    );
    assert_eq!(ledger.balance(ids[0]).unwrap(), 10_00);
}

#[test]
fn overdraft_fee_once_per_dip() {
    let (mut ledger, ids) = ledger_with(&[("bob", 50_00, true)]);
    ledger.withdraw(ids[0], 80_00).unwrap();
    assert_eq!(ledger.balance(ids[0]).unwrap(), -30_00 - OVERDRAFT_FEE);
    ledger.withdraw(ids[0], 10_00).unwrap();
    assert_eq!(ledger.balance(ids[0]).unwrap(), -40_00 - OVERDRAFT_FEE);
    ledger.deposit(ids[0], 100_00).unwrap();
    ledger.withdraw(ids[0], 70_00).unwrap();
    assert_eq!(ledger.balance(ids[0]).unwrap(), -10_00 - 2 * OVERDRAFT_FEE);
}

#[test]
fn overdraft_limit() {
    let (mut ledger, ids) = ledger_with(&[("bob", 0, true)]);
    assert!(ledger.withdraw(ids[0], 500_01).is_err());
    assert!(ledger.withdraw(ids[0], 500_00).is_ok());
}

#[test]
fn transfers_move_money() {
    let (mut ledger, ids) = ledger_with(&[("ann", 100_00, false), ("bob", 20_00, false)]);
    ledger.transfer(ids[0], ids[1], 35_00).unwrap();
    assert_eq!(ledger.balance(ids[0]).unwrap(), 65_00);
    assert_eq!(ledger.balance(ids[1]).unwrap(), 55_00);
    ledger.transfer(ids[1], ids[0], 55_00).unwrap();
    assert_eq!(ledger.balance(ids[1]).unwrap(), 0);
    assert_eq!(ledger.total(), 120_00);
}

#[test]
fn transfers_are_recorded_on_both_sides() {
    let (mut ledger, ids) = ledger_with(&[("ann", 100_00, false), ("bob", 0, false)]);
    ledger.transfer(ids[0], ids[1], 40_00).unwrap();
    let ann = ledger
        .account(ids[0])
        .unwrap()
        .history()
        .last()
        .unwrap()
        .clone();
    let bob = ledger
        .account(ids[1])
        .unwrap()
        .history()
        .last()
        .unwrap()
        .clone();
    assert_eq!(ann.kind, EntryKind::TransferOut(ids[1]));
    assert_eq!((ann.amount, ann.balance), (-40_00, 60_00));
    assert_eq!(bob.kind, EntryKind::TransferIn(ids[0]));
    assert_eq!((bob.amount, bob.balance), (40_00, 40_00));
}

#[test]
fn refused_transfers_change_nothing() {
    let (mut ledger, ids) = ledger_with(&[("ann", 10_00, false), ("bob", 0, false)]);
    assert_eq!(
        ledger.transfer(ids[0], ids[0], 1_00),
        Err(LedgerError::SameAccount)
    );
    assert_eq!(
        ledger.transfer(ids[0], 9, 1_00),
        Err(LedgerError::UnknownAccount(9))
    );
    assert!(ledger.transfer(ids[1], ids[0], 1_00).is_err());
    assert_eq!(ledger.total(), 10_00);
}

#[test]
fn monthly_interest() {
    let (mut ledger, ids) = ledger_with(&[
        ("small", 500_00, false),
        ("medium", 2_000_00, false),
        ("large", 20_000_00, false),
        ("overdrawn", 0, true),
    ]);
    ledger.withdraw(ids[3], 100_00).unwrap();
    let paid = ledger.pay_interest();
    assert_eq!(ledger.balance(ids[0]).unwrap(), 500_25);
    assert_eq!(ledger.balance(ids[1]).unwrap(), 2_002_00);
    assert_eq!(ledger.balance(ids[2]).unwrap(), 20_040_00);
    assert_eq!(paid, 25 + 2_00 + 40_00);
    assert_eq!(ledger.balance(ids[3]).unwrap(), -100_00 - OVERDRAFT_FEE);
}

#[test]
fn statements() {
    let (mut ledger, ids) = ledger_with(&[("ann", 100_00, false), ("bob", 0, false)]);
    ledger.transfer(ids[0], ids[1], 12_50).unwrap();
    ledger.withdraw(ids[0], 7_50).unwrap();
    let statement = ledger.statement(ids[0], 2).unwrap();
    assert_eq!(
        statement,
        "Statement for ann\n\
         transfer to #1            -12.50       87.50\n\
         withdrawal                 -7.50       80.00\n\
         balance                                80.00"
    );
}
