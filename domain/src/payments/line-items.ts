// Checkout line items: each checked with the money rules, the total bounded like any amount.
import { invalid } from '../shared/errors.js';
import type { LineItem } from './events.js';
import { MAX_LINE_ITEM_NAME, MAX_LINE_ITEM_QUANTITY, MAX_LINE_ITEMS } from './limits.js';
import { MAX_AMOUNT_MINOR, requireAmount, requireCurrency, type PaymentCurrency } from './money.js';

/** Validates the items and the currency; answers the total in minor units. */
export function requireLineItems(
  items: readonly { name: unknown; amount: unknown; quantity: unknown }[],
  currency: unknown,
): { items: LineItem[]; amount: number; currency: PaymentCurrency } {
  const c = requireCurrency(currency);
  if (items.length < 1 || items.length > MAX_LINE_ITEMS)
    throw invalid('payments.line_items_invalid', `give 1 to ${MAX_LINE_ITEMS} line items`);
  let total = 0;
  const out: LineItem[] = items.map((item, i) => {
    const { name, quantity } = item;
    if (typeof name !== 'string' || name.trim().length === 0 || name.length > MAX_LINE_ITEM_NAME)
      throw invalid('payments.line_items_invalid', 'each line item needs a name', {
        field: `lineItems.${i}.name`,
      });
    if (
      typeof quantity !== 'number' ||
      !Number.isInteger(quantity) ||
      quantity < 1 ||
      quantity > MAX_LINE_ITEM_QUANTITY
    )
      throw invalid('payments.line_items_invalid', `a quantity is 1 to ${MAX_LINE_ITEM_QUANTITY}`, {
        field: `lineItems.${i}.quantity`,
      });
    const amount = requireAmount(item.amount, `lineItems.${i}.amount`);
    total += amount * quantity;
    return { name, amount, quantity };
  });
  if (total > MAX_AMOUNT_MINOR)
    throw invalid('payments.amount_invalid', `the total is over ${MAX_AMOUNT_MINOR}`, {
      field: 'lineItems',
      max: MAX_AMOUNT_MINOR,
    });
  return { items: out, amount: total, currency: c };
}
