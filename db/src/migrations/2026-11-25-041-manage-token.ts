// Customer self-service links (docs/decisions/23-self-service.md): each appointment gets a random
// nonce, and the SHA-256 of its link token, which is an HMAC of the nonce under a key derived from
// the server's signing key. The token itself is never stored. Existing appointments get theirs when
// their next email is queued (the key is not known to migrations).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('appointments').addColumn('manage_nonce', 'text').execute();
  await db.schema.alterTable('appointments').addColumn('manage_token_hash', 'text').execute();
  await db.schema.createIndex('appointments_manage_token_hash').unique().on('appointments').column('manage_token_hash').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('appointments_manage_token_hash').execute();
  await db.schema.alterTable('appointments').dropColumn('manage_token_hash').execute();
  await db.schema.alterTable('appointments').dropColumn('manage_nonce').execute();
}
