import type { Knex } from 'knex';

/**
 * Mobile sign-in, password reset by code and notices off the app (issue #37, docs/product-rules.md
 * "Mobile sign-in and notices"):
 *
 * - users.mobile: a verified Indian mobile number in E.164 (+91 and ten digits starting 6-9), one account per
 *   number; users.notice_locale and users.time_zone: how and when notices reach the person.
 * - users.notices: whether the person currently wants notices by SMS/WhatsApp; notice_consents keeps every
 *   grant and withdrawal with its time, wording and source (the profile switch, sign-up, an SMS "STOP").
 * - mobile_codes: each one-time code sent (the code itself is held by the provider): its number, purpose,
 *   expiry, wrong tries and state; a correct code for a new number carries the hashed ticket of its
 *   display-name step.
 * - notices: one row per message to send (unique per person, kind and subject, so a transition seen twice
 *   queues one message), sent by a job of kind 'notice' of the job table.
 *
 * The literals are frozen here (db/ never imports api/).
 */
const STATEMENTS = [
  `alter table users add column mobile text check (mobile ~ '^[+]91[6-9][0-9]{9}$')`,
  `create unique index users_mobile_key on users (mobile) where mobile is not null`,
  `alter table users add column mobile_verified_at timestamptz`,
  `alter table users add column notices boolean not null default false`,
  `alter table users add column notice_locale text not null default 'en' check (notice_locale in ('en', 'ta'))`,
  `alter table users add column time_zone text not null default 'Asia/Kolkata'
     check (char_length(time_zone) between 1 and 64)`,
  `
    create table notice_consents (
      id bigserial primary key,
      user_id integer not null references users(id) on delete cascade,
      granted boolean not null,
      wording text not null,
      source text not null check (source in ('profile', 'sign_up', 'sms_stop', 'sms_start')),
      created_at timestamptz not null default now()
    )
  `,
  `create index notice_consents_user_idx on notice_consents (user_id, created_at desc)`,
  `
    create table mobile_codes (
      id bigserial primary key,
      mobile text not null,
      purpose text not null check (purpose in ('sign_in', 'add_mobile', 'reset_password')),
      user_id integer references users(id) on delete cascade,
      channel text not null check (channel in ('sms', 'whatsapp')),
      verification_sid text,
      state text not null default 'pending' check (state in ('pending', 'approved', 'used', 'failed')),
      wrong_tries integer not null default 0,
      ticket_hash text,
      ip text,
      created_at timestamptz not null,
      expires_at timestamptz not null
    )
  `,
  `create index mobile_codes_mobile_idx on mobile_codes (mobile, purpose, created_at desc)`,
  `create unique index mobile_codes_ticket_key on mobile_codes (ticket_hash) where ticket_hash is not null`,
  `
    create table notices (
      id bigserial primary key,
      user_id integer not null references users(id) on delete cascade,
      kind text not null check (kind in ('order_paid', 'order_shipped', 'order_delivered', 'order_refunded',
        'callback_soon', 'appointment_confirmed', 'appointment_reminder', 'missed_call')),
      subject text not null,
      params jsonb not null default '{}'::jsonb,
      state text not null default 'pending' check (state in ('pending', 'sending', 'sent', 'skipped', 'failed')),
      attempts integer not null default 0,
      provider_sid text,
      template_id text,
      skipped_reason text,
      last_error text,
      created_at timestamptz not null,
      sent_at timestamptz,
      unique (user_id, kind, subject)
    )
  `,
  `create index notices_user_sent_idx on notices (user_id, sent_at) where state = 'sent'`,
  `alter table jobs add column notice_id bigint references notices(id) on delete cascade`,
  `alter table jobs drop constraint jobs_kind_check`,
  `alter table jobs add constraint jobs_kind_check
     check (kind in ('appointment_reminder', 'appointment_start', 'appointment_expire', 'notice'))`,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of STATEMENTS) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    `delete from jobs where kind = 'notice'`,
    'alter table jobs drop constraint jobs_kind_check',
    `alter table jobs add constraint jobs_kind_check
       check (kind in ('appointment_reminder', 'appointment_start', 'appointment_expire'))`,
    'alter table jobs drop column if exists notice_id',
    'drop table if exists notices',
    'drop table if exists mobile_codes',
    'drop table if exists notice_consents',
    'alter table users drop column if exists time_zone',
    'alter table users drop column if exists notice_locale',
    'alter table users drop column if exists notices',
    'alter table users drop column if exists mobile_verified_at',
    'drop index if exists users_mobile_key',
    'alter table users drop column if exists mobile',
  ])
    await knex.raw(statement);
}
