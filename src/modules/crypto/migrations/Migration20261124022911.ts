import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261124022911 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "crypto_attention" drop constraint if exists "crypto_attention_kind_subject_id_unique";`);
    this.addSql(`create table if not exists "crypto_attention" ("id" text not null, "kind" text check ("kind" in ('late_payment', 'underpaid', 'overpaid', 'duplicate_invoice_payment', 'abandoned_invoice_payment', 'invoice_error', 'unmatched_pay_in', 'callback_failed')) not null, "provider_id" text not null, "subject_id" text not null, "order_id" text null, "cart_id" text null, "psys_cid" text null, "currency" text null, "amount" text null, "evidence" jsonb not null, "status" text check ("status" in ('open', 'resolved')) not null default 'open', "resolution" text check ("resolution" in ('refunded', 'kept', 'other')) null, "resolution_note" text null, "resolved_by" text null, "resolved_at" timestamptz null, "withdrawal_id" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "crypto_attention_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_attention_deleted_at" ON "crypto_attention" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_crypto_attention_kind_subject_id_unique" ON "crypto_attention" ("kind", "subject_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_attention_status" ON "crypto_attention" ("status") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_attention_order_id" ON "crypto_attention" ("order_id") WHERE deleted_at IS NULL;`);

    this.addSql(`alter table if exists "crypto_withdrawal" drop constraint if exists "crypto_withdrawal_purpose_check";`);

    this.addSql(`alter table if exists "crypto_callback" add column if not exists "failure_count" integer not null default 0;`);

    this.addSql(`alter table if exists "crypto_invoice" add column if not exists "underpaid_amount" text null, add column if not exists "errored_at" timestamptz null, add column if not exists "superseded_by" text null;`);

    this.addSql(`alter table if exists "crypto_withdrawal" add constraint "crypto_withdrawal_purpose_check" check("purpose" in ('withdrawal', 'refund', 'overpayment', 'underpayment', 'late_payment', 'unexplained'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "crypto_attention" cascade;`);

    this.addSql(`alter table if exists "crypto_withdrawal" drop constraint if exists "crypto_withdrawal_purpose_check";`);

    this.addSql(`alter table if exists "crypto_callback" drop column if exists "failure_count";`);

    this.addSql(`alter table if exists "crypto_invoice" drop column if exists "underpaid_amount", drop column if exists "errored_at", drop column if exists "superseded_by";`);

    this.addSql(`alter table if exists "crypto_withdrawal" add constraint "crypto_withdrawal_purpose_check" check("purpose" in ('withdrawal', 'refund', 'overpayment', 'underpayment'));`);
  }

}
