import { type Kysely, sql } from "kysely";
import { searchFoldSql } from "../search-fold";

/**
 * Names found without their accents: « ines » finds « Inès Blanc », « Guerin » finds « Marc Guérin »,
 * « Nguyen » finds « Nguyễn » (the dentist's requests, the conversations, the admin's lists).
 * `search_fold(text)` is the fold of db/search-fold.ts (`foldName`, which folds what was typed):
 * lower case, accented Latin letters to their base letter, combining accents removed, ligatures spelled
 * out. It is immutable, so the trigram index of the patient-name search (migration 008) is rebuilt on
 * it. Changing that fold takes a new migration replacing the function and rebuilding the index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create function search_fold(text) returns text language sql immutable strict parallel safe as $$
    select ${sql.raw(searchFoldSql())}
  $$`.execute(db);
  await sql`drop index if exists profiles_full_name_trgm_idx`.execute(db);
  // fastupdate off, as the index it replaces (migration 008): PGlite has no autovacuum.
  await sql`create index profiles_full_name_fold_trgm_idx on profiles using gin (search_fold(full_name) gin_trgm_ops) with (fastupdate = off)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists profiles_full_name_fold_trgm_idx`.execute(db);
  await sql`create index profiles_full_name_trgm_idx on profiles using gin (full_name gin_trgm_ops) with (fastupdate = off)`.execute(
    db,
  );
  await sql`drop function if exists search_fold(text)`.execute(db);
}
