import type { Knex } from 'knex';

/**
 * The jeweller's photos reach a call's admitted guests (issue #52, docs/product-rules.md §21): a photo item
 * wakes the guests' streams as a piece shown or a chat message does (migration 0034's trigger, which left
 * photos out). The literals are frozen here (db/ never imports api/).
 */
const trigger = (kinds: string) => `
    create trigger call_items_guest_notify after insert on call_items
      for each row when (NEW.kind in (${kinds}))
      execute function nagai_call_item_guests_notify()
  `;

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  await knex.raw('drop trigger if exists call_items_guest_notify on call_items');
  await knex.raw(trigger(`'product', 'message', 'photo'`));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists call_items_guest_notify on call_items');
  await knex.raw(trigger(`'product', 'message'`));
}
