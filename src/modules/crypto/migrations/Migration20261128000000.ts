import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * The money-out policy (docs/money-out.md#money-out-policy): the address book (`crypto_address`),
 * the policy's saved changes (`crypto_policy_change`) and the audit of its decisions
 * (`crypto_money_out_audit`). Hand-written.
 */
export class Migration20261128000000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table if not exists "crypto_address" ("id" text not null, "provider_id" text not null, "psys_cid" text not null, "address" text not null, "label" text null, "added_by" text null, "added_at" timestamptz not null, "usable_from" timestamptz not null, "removed_at" timestamptz null, "removed_by" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "crypto_address_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_address_deleted_at" ON "crypto_address" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_crypto_address_provider_id_psys_cid_address_unique" ON "crypto_address" ("provider_id", "psys_cid", "address") WHERE removed_at IS NULL AND deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_address_provider_id_psys_cid" ON "crypto_address" ("provider_id", "psys_cid") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "crypto_policy_change" ("id" text not null, "provider_id" text not null, "field" text not null, "change" jsonb not null, "loosens" boolean not null, "requested_by" text null, "effective_at" timestamptz not null, "cancelled_at" timestamptz null, "cancelled_by" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "crypto_policy_change_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_policy_change_deleted_at" ON "crypto_policy_change" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_policy_change_provider_id_field" ON "crypto_policy_change" ("provider_id", "field") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "crypto_money_out_audit" ("id" text not null, "provider_id" text not null, "action" text check ("action" in ('address_added', 'address_removed', 'policy_changed', 'policy_change_scheduled', 'withdrawal_allowed', 'withdrawal_refused', 'exchange_allowed', 'exchange_refused')) not null, "actor" text null, "subject_id" text null, "rule" text null, "address_ids" text[] null, "details" jsonb null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "crypto_money_out_audit_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_money_out_audit_deleted_at" ON "crypto_money_out_audit" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_money_out_audit_provider_id_created_at" ON "crypto_money_out_audit" ("provider_id", "created_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_money_out_audit_subject_id" ON "crypto_money_out_audit" ("subject_id") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "crypto_money_out_audit" cascade;`);
    this.addSql(`drop table if exists "crypto_policy_change" cascade;`);
    this.addSql(`drop table if exists "crypto_address" cascade;`);
  }

}
