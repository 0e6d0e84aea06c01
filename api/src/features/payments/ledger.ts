import type { Knex } from 'knex';
import {
  PAYMENT_MESSAGES,
  type AdminLedgerResponse,
  type LedgerEntry,
  type PayoutInput,
  type SellerLedgerResponse,
  type ShopLedger,
} from '../../../contract/payments';
import { formatInr } from '../../../contract/money';
import { badRequest, notFound } from '../../http/errors';

type Db = Knex | Knex.Transaction;

/**
 * The platform's commission on an amount, in paise: amount × basis points / 10,000, rounded half up (the rounding
 * rule of docs/product-rules.md §10). Integers only: amounts stay far below 2^53 / 10,000.
 */
export function commissionOf(amountPaise: number, basisPoints: number): number {
  return Math.floor((amountPaise * basisPoints + 5_000) / 10_000);
}

/** Records the sale of a paid order, once (ledger_entries_once): its amount and the commission on it. */
export async function recordSale(
  trx: Knex.Transaction,
  order: { id: number; seller_id: number; amount_paise: number },
  basisPoints: number,
): Promise<void> {
  await trx.raw(
    `insert into ledger_entries (seller_id, order_id, kind, amount_paise, commission_paise)
     values (?, ?, 'sale', ?, ?) on conflict do nothing`,
    [order.seller_id, order.id, order.amount_paise, commissionOf(order.amount_paise, basisPoints)],
  );
}

/** Records the refund of a paid order, once: its whole amount goes back, and so does the commission taken on it. */
export async function recordRefund(trx: Knex.Transaction, orderId: number): Promise<void> {
  await trx.raw(
    `insert into ledger_entries (seller_id, order_id, kind, amount_paise, commission_paise)
     select seller_id, order_id, 'refund', amount_paise, -commission_paise
       from ledger_entries where order_id = ? and kind = 'sale'
     on conflict do nothing`,
    [orderId],
  );
}

interface SummaryRow {
  seller_id: number;
  shop_name: string | null;
  paid: string | number;
  commission: string | number;
  refunds: string | number;
  paid_out: string | number;
  earned: string | number;
}

function present(row: SummaryRow): ShopLedger {
  const paid = Number(row.paid);
  const commission = Number(row.commission);
  const refunds = Number(row.refunds);
  const paidOut = Number(row.paid_out);
  const owed = paid - commission - refunds;
  const earned = Number(row.earned);
  return {
    sellerId: row.seller_id,
    shopName: row.shop_name,
    paidPaise: paid,
    commissionPaise: commission,
    refundsPaise: refunds,
    owedPaise: owed,
    paidOutPaise: paidOut,
    pendingPaise: owed - earned,
    balancePaise: earned - paidOut,
  };
}

/**
 * A shop's money. `earned` is what may be paid out: the sales (less commission, less their refunds) of orders
 * delivered before the cutoff (now less the return window, PAYOUT_RETURN_WINDOW_DAYS). A paid order not yet
 * delivered, or still within its return window, is owed but pending. The balance is earned less paid out, so a
 * refund of an order already paid out (or a payout made before this rule) makes it negative: the next payouts
 * recover it, and nothing is paid out twice. Binding: the cutoff.
 */
const SUMMARY = `
  select sp.user_id as seller_id, sp.shop_name,
         coalesce(sum(le.amount_paise) filter (where le.kind = 'sale'), 0) as paid,
         coalesce(sum(le.commission_paise) filter (where le.kind in ('sale', 'refund')), 0) as commission,
         coalesce(sum(le.amount_paise) filter (where le.kind = 'refund'), 0) as refunds,
         coalesce(sum(le.amount_paise) filter (where le.kind = 'payout'), 0) as paid_out,
         coalesce(sum(case when le.kind = 'sale' then le.amount_paise - le.commission_paise
                           else -(le.amount_paise + le.commission_paise) end)
                    filter (where le.kind in ('sale', 'refund') and o.delivered_at <= ?), 0) as earned
    from seller_profiles sp left join ledger_entries le on le.seller_id = sp.user_id
         left join orders o on o.id = le.order_id`;

/** Payouts may include orders delivered before this moment. */
export interface PayoutRule {
  now: Date;
  returnWindowMs: number;
}
const cutoffOf = (rule: PayoutRule) => new Date(rule.now.getTime() - rule.returnWindowMs);
/** The return window in whole days, as the screens name it. */
const windowDays = (rule: PayoutRule) => Math.round(rule.returnWindowMs / 86_400_000);

export async function shopLedger(db: Db, sellerId: number, rule: PayoutRule): Promise<ShopLedger> {
  const rows = (
    (await db.raw(`${SUMMARY} where sp.user_id = ? group by sp.user_id, sp.shop_name`, [
      cutoffOf(rule),
      sellerId,
    ])) as {
      rows: SummaryRow[];
    }
  ).rows;
  if (!rows[0]) throw notFound(PAYMENT_MESSAGES.shopNotFound, 'seller_profile_not_found');
  return present(rows[0]);
}

export async function sellerLedger(
  db: Knex,
  sellerId: number,
  basisPoints: number,
  rule: PayoutRule,
): Promise<SellerLedgerResponse> {
  const ledger = await shopLedger(db, sellerId, rule);
  const entries = (await db('ledger_entries as le')
    .where({ 'le.seller_id': sellerId })
    .orderBy([
      { column: 'le.created_at', order: 'desc' },
      { column: 'le.id', order: 'desc' },
    ])
    .limit(20)
    .select(
      'le.id',
      'le.kind',
      'le.order_id',
      'le.amount_paise',
      'le.commission_paise',
      'le.reference',
      'le.created_at',
      // A refund of a sale that a payout made since may have included: the next payouts recover it.
      db.raw(`le.kind = 'refund' and exists (
                select 1 from ledger_entries s join ledger_entries p on p.seller_id = s.seller_id and p.kind = 'payout'
                 where s.order_id = le.order_id and s.kind = 'sale' and p.created_at >= s.created_at
                   and p.created_at <= le.created_at) as after_payout`),
    )) as {
    id: number;
    kind: LedgerEntry['kind'];
    order_id: number | null;
    amount_paise: string | number;
    commission_paise: string | number;
    reference: string | null;
    created_at: Date | string;
    after_payout: boolean;
  }[];
  return {
    ledger,
    entries: entries.map((e) => ({
      id: e.id,
      kind: e.kind,
      orderId: e.order_id,
      amountPaise: Number(e.amount_paise),
      commissionPaise: Number(e.commission_paise),
      reference: e.reference,
      recoveredFromPayouts: e.after_payout === true,
      createdAt: new Date(e.created_at).toISOString(),
    })),
    commissionPercent: basisPoints / 100,
    returnWindowDays: windowDays(rule),
  };
}

/** Every shop with money in the ledger, and the totals. */
export async function adminLedger(
  db: Knex,
  basisPoints: number,
  rule: PayoutRule,
): Promise<AdminLedgerResponse> {
  const rows = (
    (await db.raw(
      `${SUMMARY} group by sp.user_id, sp.shop_name
      having count(le.id) > 0 order by sp.shop_name, sp.user_id`,
      [cutoffOf(rule)],
    )) as { rows: SummaryRow[] }
  ).rows;
  const shops = rows.map(present);
  const sum = (f: (s: ShopLedger) => number) => shops.reduce((n, s) => n + f(s), 0);
  return {
    shops,
    totals: {
      paidPaise: sum((s) => s.paidPaise),
      commissionPaise: sum((s) => s.commissionPaise),
      refundsPaise: sum((s) => s.refundsPaise),
      owedPaise: sum((s) => s.owedPaise),
      paidOutPaise: sum((s) => s.paidOutPaise),
      pendingPaise: sum((s) => s.pendingPaise),
      balancePaise: sum((s) => s.balancePaise),
    },
    commissionPercent: basisPoints / 100,
    returnWindowDays: windowDays(rule),
  };
}

/**
 * The admin records a payout made to a shop (with the bank's reference), of at most its balance: what was earned
 * (delivered and past the return window) less what was paid out before. Payouts to one shop are serialised on
 * its profile row, so two at once cannot both pass the balance check.
 */
export async function recordPayout(
  db: Knex,
  adminId: number,
  input: PayoutInput,
  rule: PayoutRule,
): Promise<ShopLedger> {
  return db.transaction(async (trx) => {
    const shop = await trx.raw('select user_id from seller_profiles where user_id = ? for update', [
      input.sellerId,
    ]);
    if (!(shop as { rows: unknown[] }).rows.length) {
      throw notFound(PAYMENT_MESSAGES.shopNotFound, 'seller_profile_not_found');
    }
    const before = await shopLedger(trx, input.sellerId, rule);
    if (input.amountPaise > before.balancePaise) {
      throw badRequest(
        PAYMENT_MESSAGES.payoutTooLarge.replace('{owed}', formatInr(before.balancePaise / 100)),
        'payout_too_large',
      );
    }
    await trx('ledger_entries').insert({
      seller_id: input.sellerId,
      kind: 'payout',
      amount_paise: input.amountPaise,
      reference: input.reference,
      created_by: adminId,
    });
    return shopLedger(trx, input.sellerId, rule);
  });
}
