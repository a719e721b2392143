import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Deposits recovered from the operations list (spec §4.3, `type=pay_in`) when their callback was
 * lost: stored beside the verified callbacks with `format` = 'operation', and the cursor of that
 * read (`crypto_sync_cursor`). Hand-written.
 */
export class Migration20261125070000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "crypto_callback" drop constraint if exists "crypto_callback_format_check";`);
    this.addSql(`alter table if exists "crypto_callback" add constraint "crypto_callback_format_check" check("format" in ('form', 'json', 'operation'));`);

    this.addSql(`create table if not exists "crypto_sync_cursor" ("id" text not null, "provider_id" text not null, "name" text not null, "position" text not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "crypto_sync_cursor_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_crypto_sync_cursor_deleted_at" ON "crypto_sync_cursor" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_crypto_sync_cursor_provider_id_name_unique" ON "crypto_sync_cursor" ("provider_id", "name") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "crypto_sync_cursor" cascade;`);

    this.addSql(`delete from "crypto_callback" where "format" = 'operation';`);
    this.addSql(`alter table if exists "crypto_callback" drop constraint if exists "crypto_callback_format_check";`);
    this.addSql(`alter table if exists "crypto_callback" add constraint "crypto_callback_format_check" check("format" in ('form', 'json'));`);
  }

}
