import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261121061354 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "crypto_rate_cache" drop constraint if exists "crypto_rate_cache_fiat_unique";`);
    this.addSql(`alter table if exists "crypto_invoice" drop constraint if exists "crypto_invoice_order_number_unique";`);
    this.addSql(`alter table if exists "crypto_callback" drop constraint if exists "crypto_callback_content_hash_unique";`);
    this.addSql(`create table if not exists "crypto_callback" ("id" text not null, "provider_id" text not null, "content_hash" text not null, "format" text check ("format" in ('form', 'json')) not null, "ipn_type" text null, "txn_id" text null, "order_number" text null, "switch_id" text null, "status" text null, "fields" jsonb not null, "delivery_count" integer not null default 1, "processed_at" timestamptz null, "outcome" text null, "last_error" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "crypto_callback_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_callback_deleted_at" ON "crypto_callback" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_crypto_callback_content_hash_unique" ON "crypto_callback" ("content_hash") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_callback_order_number" ON "crypto_callback" ("order_number") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_callback_txn_id" ON "crypto_callback" ("txn_id") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "crypto_invoice" ("id" text not null, "provider_id" text not null, "order_number" text not null, "attempt" integer not null default 1, "cart_id" text null, "payment_collection_id" text not null, "session_id" text not null, "source_currency" text not null, "source_amount" text not null, "txn_id" text null, "active_txn_id" text null, "invoice_url" text null, "psys_cid" text null, "currency" text null, "expected_amount" text null, "received_amount" text null, "overpaid_amount" text null, "refund_due_amount" text null, "gateway_status" text null, "session_status" text not null default 'pending', "order_id" text null, "last_synced_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "crypto_invoice_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_invoice_deleted_at" ON "crypto_invoice" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_crypto_invoice_order_number_unique" ON "crypto_invoice" ("order_number") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_invoice_cart_id" ON "crypto_invoice" ("cart_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_invoice_session_id" ON "crypto_invoice" ("session_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_invoice_txn_id" ON "crypto_invoice" ("txn_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_invoice_session_status" ON "crypto_invoice" ("session_status") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "crypto_rate_cache" ("id" text not null, "fiat" text not null, "entries" jsonb not null, "fetched_at" timestamptz not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "crypto_rate_cache_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_rate_cache_deleted_at" ON "crypto_rate_cache" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_crypto_rate_cache_fiat_unique" ON "crypto_rate_cache" ("fiat") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "crypto_callback" cascade;`);

    this.addSql(`drop table if exists "crypto_invoice" cascade;`);

    this.addSql(`drop table if exists "crypto_rate_cache" cascade;`);
  }

}
