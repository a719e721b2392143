import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * The sync's gateway reading kept on the invoice row (`gateway_reading`), so the provider's
 * authorize and capture on any instance take it instead of a second gateway read
 * (docs/architecture.md#one-gateway-read-per-callback). Hand-written.
 */
export class Migration20261125073000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "crypto_invoice" add column if not exists "gateway_reading" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "crypto_invoice" drop column if exists "gateway_reading";`);
  }

}
