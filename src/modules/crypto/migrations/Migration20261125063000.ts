import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * A withdrawal the gateway answered with status `error` keeps its duplicate guard and stores what
 * reading its operation back showed (`gateway_evidence`); the merchant's `failed` resolution
 * releases the guard (docs/money-out.md#failed-at-the-gateway). Written by hand.
 */
export class Migration20261125063000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "crypto_withdrawal" add column if not exists "gateway_evidence" jsonb null;`);
    this.addSql(`alter table if exists "crypto_withdrawal" drop constraint if exists "crypto_withdrawal_resolution_check";`);
    this.addSql(`alter table if exists "crypto_withdrawal" add constraint "crypto_withdrawal_resolution_check" check("resolution" in ('operation', 'not_sent', 'failed'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "crypto_withdrawal" drop constraint if exists "crypto_withdrawal_resolution_check";`);
    this.addSql(`update "crypto_withdrawal" set "resolution" = null where "resolution" = 'failed';`);
    this.addSql(`alter table if exists "crypto_withdrawal" add constraint "crypto_withdrawal_resolution_check" check("resolution" in ('operation', 'not_sent'));`);
    this.addSql(`alter table if exists "crypto_withdrawal" drop column if exists "gateway_evidence";`);
  }

}
