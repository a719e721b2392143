import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Settlement (docs/money-out.md#settlement): the attention kinds `settlement_failed` (a conversion
 * or sweep the merchant's rules asked for that could not be made) and `exchange_failed` (an exchange
 * that ended in error at the gateway, or bought less than quoted beyond the rule's difference).
 * The rules themselves are money-out policy changes (`crypto_policy_change`, field `settlement`).
 * Hand-written.
 */
export class Migration20261128040000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "crypto_attention" drop constraint if exists "crypto_attention_kind_check";`);
    this.addSql(`alter table if exists "crypto_attention" add constraint "crypto_attention_kind_check" check ("kind" in ('late_payment', 'underpaid', 'overpaid', 'duplicate_invoice_payment', 'abandoned_invoice_payment', 'invoice_error', 'unmatched_pay_in', 'callback_failed', 'protected_order', 'order_waiting', 'settlement_failed', 'exchange_failed'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "crypto_attention" where "kind" in ('settlement_failed', 'exchange_failed');`);
    this.addSql(`alter table if exists "crypto_attention" drop constraint if exists "crypto_attention_kind_check";`);
    this.addSql(`alter table if exists "crypto_attention" add constraint "crypto_attention_kind_check" check ("kind" in ('late_payment', 'underpaid', 'overpaid', 'duplicate_invoice_payment', 'abandoned_invoice_payment', 'invoice_error', 'unmatched_pay_in', 'callback_failed', 'protected_order', 'order_waiting'));`);
  }

}
