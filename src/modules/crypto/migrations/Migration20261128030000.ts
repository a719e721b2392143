import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Order rules per outcome (docs/books.md#order-rules): what an expired unpaid, underpaid, overpaid
 * or `error` invoice does to its order, on the settings row (`order_outcomes`, null = today's
 * behaviour), and the attention kind `order_waiting` (an order the merchant's rule keeps waiting
 * for a decision). Hand-written.
 */
export class Migration20261128030000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "crypto_setting" add column if not exists "order_outcomes" jsonb null;`);
    this.addSql(`alter table if exists "crypto_attention" drop constraint if exists "crypto_attention_kind_check";`);
    this.addSql(`alter table if exists "crypto_attention" add constraint "crypto_attention_kind_check" check ("kind" in ('late_payment', 'underpaid', 'overpaid', 'duplicate_invoice_payment', 'abandoned_invoice_payment', 'invoice_error', 'unmatched_pay_in', 'callback_failed', 'protected_order', 'order_waiting'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "crypto_attention" where "kind" = 'order_waiting';`);
    this.addSql(`alter table if exists "crypto_attention" drop constraint if exists "crypto_attention_kind_check";`);
    this.addSql(`alter table if exists "crypto_attention" add constraint "crypto_attention_kind_check" check ("kind" in ('late_payment', 'underpaid', 'overpaid', 'duplicate_invoice_payment', 'abandoned_invoice_payment', 'invoice_error', 'unmatched_pay_in', 'callback_failed', 'protected_order'));`);
    this.addSql(`alter table if exists "crypto_setting" drop column if exists "order_outcomes";`);
  }

}
