import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261124024832 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "crypto_exchange" drop constraint if exists "crypto_exchange_idempotency_key_unique";`);
    this.addSql(`create table if not exists "crypto_exchange" ("id" text not null, "idempotency_key" text not null, "provider_id" text not null, "from_currency" text not null, "to_currency" text not null, "from_amount" text null, "to_amount" text null, "amount_currency" text null, "to_address" text not null, "status" text check ("status" in ('requested', 'sending', 'created', 'completed', 'error', 'rejected', 'outcome_unknown', 'not_sent')) not null default 'requested', "exchange_id" text null, "gateway_status" text null, "result" jsonb null, "error_code" text null, "error_message" text null, "requested_by" text null, "requested_at" timestamptz not null, "sent_at" timestamptz null, "resolved_at" timestamptz null, "resolution" text check ("resolution" in ('exchange', 'not_sent')) null, "resolved_by" text null, "resolution_note" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "crypto_exchange_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_exchange_deleted_at" ON "crypto_exchange" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_crypto_exchange_idempotency_key_unique" ON "crypto_exchange" ("idempotency_key") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_exchange_status" ON "crypto_exchange" ("status") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_exchange_exchange_id" ON "crypto_exchange" ("exchange_id") WHERE deleted_at IS NULL;`);

    this.addSql(`alter table if exists "crypto_withdrawal" drop constraint if exists "crypto_withdrawal_status_check";`);

    this.addSql(`alter table if exists "crypto_callback" add column if not exists "deposit_uid" text null;`);
    // pay_in callbacks recorded before the column: their uid from the stored verified fields.
    this.addSql(`update "crypto_callback" set "deposit_uid" = "fields"->>'deposit_uid' where "ipn_type" = 'pay_in' and "deposit_uid" is null;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_callback_deposit_uid" ON "crypto_callback" ("deposit_uid") WHERE deleted_at IS NULL;`);

    this.addSql(`alter table if exists "crypto_withdrawal" add column if not exists "resolution" text check ("resolution" in ('operation', 'not_sent')) null, add column if not exists "resolved_by" text null, add column if not exists "resolution_note" text null;`);
    this.addSql(`alter table if exists "crypto_withdrawal" add constraint "crypto_withdrawal_status_check" check("status" in ('requested', 'sending', 'completed', 'error', 'rejected', 'outcome_unknown', 'not_found', 'not_sent'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "crypto_exchange" cascade;`);

    this.addSql(`alter table if exists "crypto_withdrawal" drop constraint if exists "crypto_withdrawal_status_check";`);

    this.addSql(`drop index if exists "IDX_crypto_callback_deposit_uid";`);
    this.addSql(`alter table if exists "crypto_callback" drop column if exists "deposit_uid";`);

    this.addSql(`alter table if exists "crypto_withdrawal" drop column if exists "resolution", drop column if exists "resolved_by", drop column if exists "resolution_note";`);

    this.addSql(`alter table if exists "crypto_withdrawal" add constraint "crypto_withdrawal_status_check" check("status" in ('requested', 'sending', 'completed', 'error', 'rejected', 'outcome_unknown', 'not_found'));`);
  }

}
