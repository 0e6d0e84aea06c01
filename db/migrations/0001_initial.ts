import type { Knex } from 'knex';

/*
 * The value lists of the CHECK constraints, frozen as they were when this migration landed: a migration must
 * keep producing the same schema whatever the code's constants become. A change to a list is a new migration;
 * tests/api/schema-constants.test.ts fails while the database and api/contract/constants.ts disagree.
 */
const USER_ROLES = ['customer', 'seller', 'admin'];
const PRODUCT_CATEGORIES = [
  'anklets',
  'armlets',
  'bangles',
  'bracelets',
  'bridal_sets',
  'chains',
  'earrings',
  'hair_accessories',
  'necklaces',
  'nose_pins',
  'pendants',
  'rings',
  'toe_rings',
  'waist_chains',
];
const PRODUCT_MATERIALS = [
  'artificial',
  'brass',
  'copper',
  'diamond',
  'emerald',
  'gold',
  'kundan',
  'meenakari',
  'pearl',
  'platinum',
  'polki',
  'ruby',
  'sapphire',
  'silver',
  'temple_jewelry',
];
const ORDER_STATUSES = ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled'];
const PAYMENT_METHODS = ['credit_card', 'google_pay', 'cash_on_delivery'];
const PAYMENT_STATUSES = ['pending', 'paid', 'failed', 'refunded'];
const CALL_STATUSES = ['pending', 'ringing', 'active', 'declined', 'ended', 'missed'];
const SIGNAL_KINDS = ['offer', 'answer', 'candidate', 'bye'];

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/** Runs a script one statement at a time (PGlite's driver takes a single statement per query). */
async function exec(knex: Knex, script: string): Promise<void> {
  const statements = script
    .split(/;\s*\n/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
  for (const statement of statements) await knex.raw(statement);
}

/** The whole product's data model: accounts, shops, catalogue, media, carts, orders, calls, push, limits. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create extension if not exists pg_trgm');

  await exec(
    knex,
    `
    create table users (
      id serial primary key,
      email text not null check (email = lower(email) and length(email) between 3 and 254),
      password_hash text not null,
      display_name text not null check (length(display_name) between 1 and 100),
      full_name text,
      role text not null default 'customer' check (role in (${list(USER_ROLES)})),
      avatar_url text,
      phone text check (phone is null or length(phone) between 5 and 20),
      address text check (address is null or length(address) <= 500),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index users_email_lower_key on users (lower(email));
    create index users_role_created_idx on users (role, created_at desc);

    -- Only a hash of the session token is stored, so a database leak does not leak live sessions.
    create table sessions (
      id text primary key,
      user_id integer not null references users(id) on delete cascade,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null,
      user_agent text,
      ip text
    );
    create index sessions_user_idx on sessions (user_id);
    create index sessions_expires_idx on sessions (expires_at);

    create table seller_profiles (
      id serial primary key,
      user_id integer not null unique references users(id) on delete cascade,
      shop_name text not null check (length(shop_name) >= 2),
      description text check (description is null or length(description) <= 500),
      shop_address text not null,
      city text not null,
      state text not null,
      pincode text not null,
      phone text not null,
      whatsapp_number text,
      gst_number text,
      business_license text,
      certifications jsonb not null default '[]'::jsonb,
      video_call_enabled boolean not null default false,
      url_slug text check (url_slug is null or url_slug ~ '^[A-Za-z0-9_-]{3,50}$'),
      established_date date,
      is_approved boolean,
      rating_avg numeric(3,2) not null default 0 check (rating_avg between 0 and 5),
      rating_count integer not null default 0 check (rating_count >= 0),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index seller_profiles_url_slug_key on seller_profiles (lower(url_slug));
    create index seller_profiles_approved_idx on seller_profiles (is_approved, rating_avg desc);
    create index seller_profiles_city_idx on seller_profiles (lower(city));
    create index seller_profiles_state_idx on seller_profiles (lower(state));
    create index seller_profiles_shop_trgm on seller_profiles using gin (shop_name gin_trgm_ops);

    -- Written on every incoming-call poll; kept apart from seller_profiles so hot updates stay small.
    create table seller_presence (
      user_id integer primary key references users(id) on delete cascade,
      last_polled_at timestamptz not null default now()
    );

    create table media (
      key text primary key,
      content_type text not null,
      width integer not null check (width > 0),
      height integer not null check (height > 0),
      byte_size integer not null check (byte_size >= 0),
      data bytea not null,
      created_at timestamptz not null default now()
    );

    create table products (
      id serial primary key,
      seller_id integer not null references users(id) on delete cascade,
      name text not null check (length(name) >= 1),
      description text not null default '',
      price numeric(12,2) not null default 0 check (price >= 0),
      category text not null check (category in (${list(PRODUCT_CATEGORIES)})),
      material text not null check (material in (${list(PRODUCT_MATERIALS)})),
      stock_quantity integer default 1 check (stock_quantity is null or stock_quantity >= 0),
      sku text,
      width_mm numeric(10,2) check (width_mm is null or width_mm > 0),
      height_mm numeric(10,2) check (height_mm is null or height_mm > 0),
      size text,
      purity text,
      weight_g numeric(10,3) check (weight_g is null or weight_g > 0),
      diamonds_total_count integer check (diamonds_total_count is null or diamonds_total_count >= 0),
      diamonds_type text,
      diamonds_total_weight numeric(10,3) check (diamonds_total_weight is null or diamonds_total_weight > 0),
      gemstone_total_count integer check (gemstone_total_count is null or gemstone_total_count >= 1),
      gemstone_type text,
      making_charges numeric(12,2) check (making_charges is null or making_charges >= 0),
      stone_charges numeric(12,2) check (stone_charges is null or stone_charges >= 0),
      discount_amount numeric(12,2) check (discount_amount is null or discount_amount >= 0),
      gst_amount numeric(12,2) check (gst_amount is null or gst_amount >= 0),
      size_available jsonb not null default '[]'::jsonb,
      is_custom_made boolean not null default false,
      rating_avg numeric(3,2) not null default 0 check (rating_avg between 0 and 5),
      rating_count integer not null default 0 check (rating_count >= 0),
      units_sold integer not null default 0 check (units_sold >= 0),
      search_vector tsvector generated always as (
        setweight(to_tsvector('english', coalesce(name, '')), 'A') ||
        setweight(to_tsvector('english', replace(category, '_', ' ')), 'B') ||
        setweight(to_tsvector('english', replace(material, '_', ' ')), 'B') ||
        setweight(to_tsvector('english', coalesce(description, '')), 'C')
      ) stored,
      deleted_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index products_seller_idx on products (seller_id, created_at desc) where deleted_at is null;
    create index products_newest_idx on products (created_at desc, id desc) where deleted_at is null;
    create index products_price_idx on products (price, id) where deleted_at is null;
    create index products_rating_idx on products (rating_avg desc, id desc) where deleted_at is null;
    create index products_popularity_idx on products (units_sold desc, id desc) where deleted_at is null;
    create index products_category_idx on products (category, created_at desc) where deleted_at is null;
    create index products_material_idx on products (material, created_at desc) where deleted_at is null;
    create index products_search_idx on products using gin (search_vector);
    create index products_name_trgm on products using gin (name gin_trgm_ops);

    create table product_images (
      id serial primary key,
      product_id integer not null references products(id) on delete cascade,
      position integer not null check (position >= 0),
      media_key text,
      source_url text,
      card_url text not null,
      detail_url text not null,
      width integer,
      height integer,
      unique (product_id, position)
    );

    create table cart_items (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      product_id integer not null references products(id) on delete cascade,
      quantity integer not null check (quantity > 0),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (user_id, product_id)
    );

    create table orders (
      id serial primary key,
      customer_id integer not null references users(id),
      seller_id integer not null references users(id),
      checkout_ref text not null,
      status text not null default 'pending' check (status in (${list(ORDER_STATUSES)})),
      subtotal numeric(12,2) not null check (subtotal >= 0),
      gst_total numeric(12,2) not null default 0 check (gst_total >= 0),
      shipping_charges numeric(12,2) not null default 0 check (shipping_charges >= 0),
      total_amount numeric(12,2) not null check (total_amount >= 0),
      customer_name text not null,
      customer_phone text not null,
      shipping_address text not null,
      city text not null,
      state text not null,
      pin_code text not null,
      payment_method text not null check (payment_method in (${list(PAYMENT_METHODS)})),
      payment_status text not null default 'pending' check (payment_status in (${list(PAYMENT_STATUSES)})),
      stock_restored boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index orders_customer_idx on orders (customer_id, created_at desc);
    create index orders_seller_idx on orders (seller_id, created_at desc);
    create index orders_checkout_ref_idx on orders (checkout_ref);

    create table order_items (
      id serial primary key,
      order_id integer not null references orders(id) on delete cascade,
      product_id integer not null references products(id),
      product_name text not null,
      image_url text,
      price numeric(12,2) not null check (price >= 0),
      gst_amount numeric(12,2) not null default 0 check (gst_amount >= 0),
      quantity integer not null check (quantity > 0)
    );
    create index order_items_order_idx on order_items (order_id);
    create index order_items_product_idx on order_items (product_id);

    create table product_ratings (
      id serial primary key,
      product_id integer not null references products(id),
      order_id integer not null references orders(id),
      customer_id integer not null references users(id),
      stars integer not null check (stars between 1 and 5),
      review text check (review is null or length(review) <= 500),
      created_at timestamptz not null default now(),
      unique (order_id, product_id)
    );
    create index product_ratings_product_idx on product_ratings (product_id);

    create table calls (
      id serial primary key,
      caller_id integer not null references users(id) on delete cascade,
      seller_id integer not null references users(id) on delete cascade,
      status text not null default 'pending' check (status in (${list(CALL_STATUSES)})),
      provider text not null default 'p2p' check (provider in ('p2p', 'twilio')),
      created_at timestamptz not null default now(),
      ringing_at timestamptz,
      answered_at timestamptz,
      ended_at timestamptz,
      ended_by integer references users(id) on delete set null,
      end_reason text
    );
    -- A customer has at most one live call; a seller is in at most one active call.
    create unique index calls_one_live_per_caller on calls (caller_id) where status in ('pending', 'ringing', 'active');
    create unique index calls_one_active_per_seller on calls (seller_id) where status = 'active';
    create index calls_seller_live_idx on calls (seller_id, created_at) where status in ('pending', 'ringing');
    create index calls_caller_history_idx on calls (caller_id, created_at desc);
    create index calls_seller_history_idx on calls (seller_id, created_at desc);
    create index calls_unanswered_idx on calls (created_at) where status in ('pending', 'ringing');

    -- WebRTC signalling (offer, answer, ICE candidates, bye) relayed through the database so any process can deliver it.
    create table call_signals (
      id bigserial primary key,
      call_id integer not null references calls(id) on delete cascade,
      from_user_id integer not null references users(id) on delete cascade,
      to_user_id integer not null references users(id) on delete cascade,
      kind text not null check (kind in (${list(SIGNAL_KINDS)})),
      payload jsonb not null,
      created_at timestamptz not null default now()
    );
    create index call_signals_inbox_idx on call_signals (call_id, to_user_id, id);

    create table push_subscriptions (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      endpoint text not null unique,
      expiration_time bigint,
      p256dh text not null,
      auth text not null,
      locale text not null default 'en',
      created_at timestamptz not null default now()
    );
    create index push_subscriptions_user_idx on push_subscriptions (user_id);

    create table rate_limits (
      key text primary key,
      count integer not null default 0,
      window_start timestamptz not null default now(),
      locked_until timestamptz
    );

    create table idempotency_keys (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      key text not null check (length(key) between 1 and 200),
      scope text not null,
      request_hash text not null,
      state text not null default 'in_progress' check (state in ('in_progress', 'completed')),
      response_status integer,
      response_body jsonb,
      created_at timestamptz not null default now(),
      unique (user_id, scope, key)
    );

    create table app_settings (
      key text primary key,
      value jsonb not null,
      updated_at timestamptz not null default now()
    );
  `,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table if exists app_settings, idempotency_keys, rate_limits, push_subscriptions, call_signals, calls,
      product_ratings, order_items, orders, cart_items, product_images, products, media, seller_presence,
      seller_profiles, sessions, users cascade;
  `);
}
