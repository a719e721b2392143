import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Approvals of the money-out policy (docs/money-out.md#money-out-policy): a withdrawal above the
 * approval threshold waits (`awaiting_approval`) until another admin approves it (`approved_by`,
 * `approved_at`) or rejects it (resolution `rejected`); its value in the store currency when asked
 * (`value_amount`, `value_currency`); the audit's approval actions and `refund_refused` (a refund
 * beyond what its order received). Hand-written.
 */
export class Migration20261128010000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "crypto_withdrawal" add column if not exists "approved_by" text null, add column if not exists "approved_at" timestamptz null, add column if not exists "value_amount" text null, add column if not exists "value_currency" text null;`);
    this.addSql(`alter table if exists "crypto_withdrawal" drop constraint if exists "crypto_withdrawal_status_check";`);
    this.addSql(`alter table if exists "crypto_withdrawal" add constraint "crypto_withdrawal_status_check" check ("status" in ('awaiting_approval', 'requested', 'sending', 'completed', 'error', 'rejected', 'outcome_unknown', 'not_found', 'not_sent'));`);
    this.addSql(`alter table if exists "crypto_withdrawal" drop constraint if exists "crypto_withdrawal_resolution_check";`);
    this.addSql(`alter table if exists "crypto_withdrawal" add constraint "crypto_withdrawal_resolution_check" check ("resolution" in ('operation', 'not_sent', 'failed', 'rejected'));`);
    this.addSql(`alter table if exists "crypto_money_out_audit" drop constraint if exists "crypto_money_out_audit_action_check";`);
    this.addSql(`alter table if exists "crypto_money_out_audit" add constraint "crypto_money_out_audit_action_check" check ("action" in ('address_added', 'address_removed', 'policy_changed', 'policy_change_scheduled', 'withdrawal_allowed', 'withdrawal_refused', 'withdrawal_awaiting_approval', 'withdrawal_approved', 'withdrawal_rejected', 'exchange_allowed', 'exchange_refused', 'refund_refused'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "crypto_money_out_audit" drop constraint if exists "crypto_money_out_audit_action_check";`);
    this.addSql(`alter table if exists "crypto_money_out_audit" add constraint "crypto_money_out_audit_action_check" check ("action" in ('address_added', 'address_removed', 'policy_changed', 'policy_change_scheduled', 'withdrawal_allowed', 'withdrawal_refused', 'exchange_allowed', 'exchange_refused'));`);
    this.addSql(`alter table if exists "crypto_withdrawal" drop constraint if exists "crypto_withdrawal_resolution_check";`);
    this.addSql(`alter table if exists "crypto_withdrawal" add constraint "crypto_withdrawal_resolution_check" check ("resolution" in ('operation', 'not_sent', 'failed'));`);
    this.addSql(`alter table if exists "crypto_withdrawal" drop constraint if exists "crypto_withdrawal_status_check";`);
    this.addSql(`alter table if exists "crypto_withdrawal" add constraint "crypto_withdrawal_status_check" check ("status" in ('requested', 'sending', 'completed', 'error', 'rejected', 'outcome_unknown', 'not_found', 'not_sent'));`);
    this.addSql(`alter table if exists "crypto_withdrawal" drop column if exists "approved_by", drop column if exists "approved_at", drop column if exists "value_amount", drop column if exists "value_currency";`);
  }

}
