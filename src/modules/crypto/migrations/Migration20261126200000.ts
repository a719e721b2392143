import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Paying the rest (docs/attention.md#paying-the-rest): a top-up invoice names the invoice whose rest
 * it asks for (`topup_of`) and keeps the gateway's payment details (`topup_details`); an order placed
 * on detection waits for the rest until `rest_until`; an attention
 * item closed by the shopper paying the rest is resolved `paid_rest`. Hand-written.
 */
export class Migration20261126200000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "crypto_invoice" add column if not exists "topup_of" text null, add column if not exists "topup_details" jsonb null, add column if not exists "rest_until" timestamptz null;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_invoice_topup_of" ON "crypto_invoice" ("topup_of") WHERE deleted_at IS NULL;`);
    this.addSql(`alter table if exists "crypto_attention" drop constraint if exists "crypto_attention_resolution_check";`);
    this.addSql(`alter table if exists "crypto_attention" add constraint "crypto_attention_resolution_check" check ("resolution" in ('refunded', 'kept', 'other', 'paid_rest'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "crypto_attention" drop constraint if exists "crypto_attention_resolution_check";`);
    this.addSql(`alter table if exists "crypto_attention" add constraint "crypto_attention_resolution_check" check ("resolution" in ('refunded', 'kept', 'other'));`);
    this.addSql(`drop index if exists "IDX_crypto_invoice_topup_of";`);
    this.addSql(`alter table if exists "crypto_invoice" drop column if exists "topup_of", drop column if exists "topup_details", drop column if exists "rest_until";`);
  }

}
