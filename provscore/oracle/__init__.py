"""Stage 5: the oracle dir's inputs, validated: contract, fixture lock, flake and freeze
ledgers, removal approvals. Read from the oracle dir, never from the patched tree, and
never written by scoring (``provscore ledger record`` appends to the flake ledger)."""
