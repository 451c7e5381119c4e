// Calendar feeds keep no usable secret in the database (docs/decisions/24-calendar-feeds.md): a feed
// row holds a random nonce and the SHA-256 of its URL token; the token itself is an HMAC of the nonce
// under the server's key, so it can be shown again to its owner but not rebuilt from a database copy.
// No route ever wrote calendar_feeds before this migration, so the table is recreated in its new shape.
import { sql, type Kysely } from 'kysely';
import { nowDefault, timestampType, withId } from './helpers.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('calendar_feeds').execute();
  await withId(db, db.schema.createTable('calendar_feeds'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', timestampType(db), (c) => c.notNull().defaultTo(nowDefault(db)))
    .execute();
  // One feed per staff member and one per company (user_id null): a second concurrent first GET fails
  // on these and reads the winner's row.
  await db.schema
    .createIndex('calendar_feeds_user_idx')
    .on('calendar_feeds')
    .columns(['company_id', 'user_id'])
    .unique()
    .where(sql.ref('user_id'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('calendar_feeds_company_idx')
    .on('calendar_feeds')
    .column('company_id')
    .unique()
    .where(sql.ref('user_id'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('calendar_feeds').execute();
  await withId(db, db.schema.createTable('calendar_feeds'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', timestampType(db), (c) => c.notNull().defaultTo(nowDefault(db)))
    .execute();
}
