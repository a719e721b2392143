import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Refunds the shopper claims with their own address (`crypto_refund_claim`,
 * docs/money-out.md#refunds-the-shopper-claims). Hand-written.
 */
export class Migration20261126210000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table if not exists "crypto_refund_claim" ("id" text not null, "provider_id" text not null, "order_id" text not null, "kind" text check ("kind" in ('refund', 'overpayment', 'underpayment')) not null, "params" jsonb not null, "psys_cid" text not null, "currency" text null, "amount" text not null, "token_hash" text not null, "expires_at" timestamptz not null, "status" text check ("status" in ('waiting', 'claimed', 'revoked')) not null default 'waiting', "address" text null, "claimed_at" timestamptz null, "withdrawal_id" text null, "error" text null, "created_by" text null, "revoked_by" text null, "revoked_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "crypto_refund_claim_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_refund_claim_deleted_at" ON "crypto_refund_claim" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_crypto_refund_claim_token_hash_unique" ON "crypto_refund_claim" ("token_hash") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_refund_claim_order_id" ON "crypto_refund_claim" ("order_id") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "crypto_refund_claim" cascade;`);
  }

}
