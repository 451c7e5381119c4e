// The audit log (docs/decisions/31-audit-log.md): one row per audited write, inserted in the same
// transaction as the write, never updated by a route (privacy erasure alone rewrites erased values).
// No foreign keys on purpose: the history outlives the company, user or row it describes.
import type { Kysely } from 'kysely';
import { nowDefault, timestampType, withId } from './helpers.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('audit_log'))
    .addColumn('at', timestampType(db), (c) => c.notNull().defaultTo(nowDefault(db)))
    .addColumn('actor_user_id', 'integer')
    .addColumn('actor_role', 'text')
    // Null: nobody's company (a failed login for an unknown email, seen by global_admin only).
    .addColumn('company_id', 'integer')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'integer')
    // JSON text {"field": {"old": v, "new": v}}, the same on both dialects (see the decision record).
    .addColumn('changes', 'text')
    .addColumn('ip', 'text')
    .addColumn('request_id', 'text')
    .execute();
  // A company's page, newest first (company_id = ? and id < ? order by id desc).
  await db.schema.createIndex('audit_log_company_id_idx').on('audit_log').columns(['company_id', 'id desc']).execute();
  // One row's history (entity = ? and entity_id = ?), and erasure finding a person's entries.
  await db.schema.createIndex('audit_log_entity_idx').on('audit_log').columns(['entity', 'entity_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
}
