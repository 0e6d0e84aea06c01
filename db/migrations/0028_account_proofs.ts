import type { Knex } from 'knex';

/**
 * A change that gives a new way into an account needs proof, and its old contacts are told (issue #46,
 * docs/security.md "The attack run's holes"):
 *
 * - mobile_codes.purpose 'reauth': a code to the account's own verified mobile, the proof a mobile-only account
 *   (one without a password) gives to change its mobile, e-mail or password.
 * - notices.kind 'mobile_changed', 'email_changed', 'password_changed': the security notices to the number the
 *   account had before the change (notices.params.to), sent whatever the notice settings.
 *
 * The literals are frozen here (db/ never imports api/).
 */
const STATEMENTS = [
  `alter table mobile_codes drop constraint mobile_codes_purpose_check`,
  `alter table mobile_codes add constraint mobile_codes_purpose_check
     check (purpose in ('sign_in', 'add_mobile', 'reset_password', 'reauth'))`,
  `alter table notices drop constraint notices_kind_check`,
  `alter table notices add constraint notices_kind_check
     check (kind in ('order_paid', 'order_shipped', 'order_delivered', 'order_refunded', 'callback_soon',
       'appointment_confirmed', 'appointment_reminder', 'missed_call', 'mobile_changed', 'email_changed',
       'password_changed'))`,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of STATEMENTS) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    `delete from mobile_codes where purpose = 'reauth'`,
    `alter table mobile_codes drop constraint mobile_codes_purpose_check`,
    `alter table mobile_codes add constraint mobile_codes_purpose_check
       check (purpose in ('sign_in', 'add_mobile', 'reset_password'))`,
    `delete from notices where kind in ('mobile_changed', 'email_changed', 'password_changed')`,
    `alter table notices drop constraint notices_kind_check`,
    `alter table notices add constraint notices_kind_check
       check (kind in ('order_paid', 'order_shipped', 'order_delivered', 'order_refunded', 'callback_soon',
         'appointment_confirmed', 'appointment_reminder', 'missed_call'))`,
  ])
    await knex.raw(statement);
}
