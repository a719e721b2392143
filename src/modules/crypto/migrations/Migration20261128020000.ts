import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Books that reconcile (docs/books.md#fiat-values): an exchange keeps both legs' value in the store
 * currency at the moment the gateway answered (`fiat_currency`, `from_rate`, `to_rate`: fiat per
 * coin, decimal strings; `rate_source`). Existing exchanges keep nulls (listed without a fiat
 * value). Hand-written.
 */
export class Migration20261128020000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "crypto_exchange" add column if not exists "fiat_currency" text null, add column if not exists "from_rate" text null, add column if not exists "to_rate" text null, add column if not exists "rate_source" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "crypto_exchange" drop column if exists "fiat_currency", drop column if exists "from_rate", drop column if exists "to_rate", drop column if exists "rate_source";`);
  }

}
