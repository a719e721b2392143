import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261121062532 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "crypto_withdrawal" drop constraint if exists "crypto_withdrawal_active_fingerprint_unique";`);
    this.addSql(`alter table if exists "crypto_withdrawal" drop constraint if exists "crypto_withdrawal_idempotency_key_unique";`);
    this.addSql(`alter table if exists "crypto_setting" drop constraint if exists "crypto_setting_provider_id_unique";`);
    this.addSql(`create table if not exists "crypto_setting" ("id" text not null, "provider_id" text not null, "accepted_coins" text[] null, "default_coin" text null, "invoice_lifetime_minutes" integer null, "order_on_detection" boolean null, "underpaid_tolerance_percent" text null, "updated_by" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "crypto_setting_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_setting_deleted_at" ON "crypto_setting" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_crypto_setting_provider_id_unique" ON "crypto_setting" ("provider_id") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "crypto_withdrawal" ("id" text not null, "idempotency_key" text not null, "active_fingerprint" text null, "fingerprint" text not null, "provider_id" text not null, "type" text check ("type" in ('cash_out', 'mass_cash_out')) not null, "psys_cid" text not null, "fee_plan" text check ("fee_plan" in ('normal', 'priority')) not null default 'normal', "recipients" jsonb not null, "total_amount" text not null, "status" text check ("status" in ('requested', 'sending', 'completed', 'error', 'rejected', 'outcome_unknown', 'not_found')) not null default 'requested', "operation_id" text null, "gateway_status" text null, "tx_urls" text[] null, "fee" text null, "error_code" text null, "error_message" text null, "error_field" text null, "requested_by" text null, "requested_at" timestamptz not null, "sent_at" timestamptz null, "resolved_at" timestamptz null, "purpose" text check ("purpose" in ('withdrawal', 'refund', 'overpayment', 'underpayment')) not null default 'withdrawal', "order_id" text null, "payment_id" text null, "invoice_id" text null, "refund_id" text null, "source_currency" text null, "source_amount" text null, "source_rate" text null, "note" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "crypto_withdrawal_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_withdrawal_deleted_at" ON "crypto_withdrawal" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_crypto_withdrawal_idempotency_key_unique" ON "crypto_withdrawal" ("idempotency_key") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_crypto_withdrawal_active_fingerprint_unique" ON "crypto_withdrawal" ("active_fingerprint") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_withdrawal_status" ON "crypto_withdrawal" ("status") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_withdrawal_order_id" ON "crypto_withdrawal" ("order_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_withdrawal_operation_id" ON "crypto_withdrawal" ("operation_id") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "crypto_setting" cascade;`);

    this.addSql(`drop table if exists "crypto_withdrawal" cascade;`);
  }

}
