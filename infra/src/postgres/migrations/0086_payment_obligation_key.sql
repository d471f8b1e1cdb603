-- The key a seller gave an obligation, when the obligation is recorded under an id derived from it:
-- another seller held the key first (docs/payments.md#checkout), and the wallet shows the seller's own
-- key. Null: the obligation's id is the key.
ALTER TABLE rm_payment_obligations ADD COLUMN IF NOT EXISTS key text;
