import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * The merchant's books (docs/books.md): the invoice's books columns (rate, commission, network
 * fee, transactions, paid at) indexes on (created_at, id) of the tables the accounting export pages through (keyset reads of a period), daily balance snapshots (`crypto_balance_snapshot`), order
 * rules and "protect order status" on the settings row, the settings' audit trail
 * (`crypto_setting_change`), and the attention kind `protected_order`. Hand-written.
 */
export class Migration20261127000000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table if not exists "crypto_balance_snapshot" ("id" text not null, "provider_id" text not null, "day" text not null, "psys_cid" text not null, "currency" text null, "balance" text not null, "fiat_currency" text null, "fiat_value" text null, "taken_at" timestamptz not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "crypto_balance_snapshot_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_balance_snapshot_deleted_at" ON "crypto_balance_snapshot" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_crypto_balance_snapshot_provider_id_day_psys_cid_unique" ON "crypto_balance_snapshot" ("provider_id", "day", "psys_cid") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_balance_snapshot_day" ON "crypto_balance_snapshot" ("day") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "crypto_setting_change" ("id" text not null, "provider_id" text not null, "changed_by" text null, "changes" jsonb not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "crypto_setting_change_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_setting_change_deleted_at" ON "crypto_setting_change" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_setting_change_provider_id" ON "crypto_setting_change" ("provider_id") WHERE deleted_at IS NULL;`);

    this.addSql(`alter table if exists "crypto_invoice" add column if not exists "source_rate" text null, add column if not exists "commission" text null, add column if not exists "network_fee" text null, add column if not exists "tx_ids" text[] null, add column if not exists "paid_at" timestamptz null, add column if not exists "protected_at" timestamptz null;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_invoice_created_at_id" ON "crypto_invoice" ("created_at", "id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_withdrawal_created_at_id" ON "crypto_withdrawal" ("created_at", "id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_exchange_created_at_id" ON "crypto_exchange" ("created_at", "id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_callback_created_at_id" ON "crypto_callback" ("created_at", "id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_attention_created_at_id" ON "crypto_attention" ("created_at", "id") WHERE deleted_at IS NULL;`);

    this.addSql(`alter table if exists "crypto_setting" add column if not exists "order_rules" jsonb null, add column if not exists "protect_order_status" boolean null;`);

    this.addSql(`alter table if exists "crypto_attention" drop constraint if exists "crypto_attention_kind_check";`);
    this.addSql(`alter table if exists "crypto_attention" add constraint "crypto_attention_kind_check" check ("kind" in ('late_payment', 'underpaid', 'overpaid', 'duplicate_invoice_payment', 'abandoned_invoice_payment', 'invoice_error', 'unmatched_pay_in', 'callback_failed', 'protected_order'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "crypto_attention" drop constraint if exists "crypto_attention_kind_check";`);
    this.addSql(`alter table if exists "crypto_attention" add constraint "crypto_attention_kind_check" check ("kind" in ('late_payment', 'underpaid', 'overpaid', 'duplicate_invoice_payment', 'abandoned_invoice_payment', 'invoice_error', 'unmatched_pay_in', 'callback_failed'));`);
    this.addSql(`drop index if exists "IDX_crypto_invoice_created_at_id";`);
    this.addSql(`drop index if exists "IDX_crypto_withdrawal_created_at_id";`);
    this.addSql(`drop index if exists "IDX_crypto_exchange_created_at_id";`);
    this.addSql(`drop index if exists "IDX_crypto_callback_created_at_id";`);
    this.addSql(`drop index if exists "IDX_crypto_attention_created_at_id";`);
    this.addSql(`alter table if exists "crypto_invoice" drop column if exists "source_rate", drop column if exists "commission", drop column if exists "network_fee", drop column if exists "tx_ids", drop column if exists "paid_at", drop column if exists "protected_at";`);
    this.addSql(`alter table if exists "crypto_setting" drop column if exists "order_rules", drop column if exists "protect_order_status";`);
    this.addSql(`drop table if exists "crypto_setting_change" cascade;`);
    this.addSql(`drop table if exists "crypto_balance_snapshot" cascade;`);
  }

}
