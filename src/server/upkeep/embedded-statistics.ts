import { sql } from "kysely";
import type { Db } from "../db/index";

/**
 * PostgreSQL's autovacuum defaults (`autovacuum_analyze_threshold` and `_scale_factor`,
 * `autovacuum_vacuum_threshold` and `_scale_factor`): a table is analysed once more than 50 rows
 * plus a tenth of it changed since its last analysis, vacuumed once more than 50 plus a fifth of it
 * are dead rows.
 */
const ANALYZE_BASE = 50;
const ANALYZE_SCALE = 0.1;
const VACUUM_BASE = 50;
const VACUUM_SCALE = 0.2;
/** A table grown by more than a tenth of its pages, and a page, since its last analysis. */
const GROWTH_SCALE = 1.1;
const GROWTH_PAGES = 1;

export interface TableUpkeep {
  table: string;
  analyze: boolean;
  vacuum: boolean;
}

/**
 * The tables of the embedded database whose planner statistics are out of date or whose dead rows
 * should be reclaimed (ADR 095). PGlite runs no autovacuum: without this, its statistics are those
 * of the last `analyze` anyone ran (none at all on a database filled by use) and dead rows are never
 * reclaimed. Its activity counters (`pg_stat_user_tables`) are not kept across a restart, so a table
 * also counts as changed when it holds more pages than at its last analysis (`pg_class.relpages`,
 * kept in the catalogue): rows added before a restart are seen after it.
 */
export async function tablesDue(db: Db): Promise<TableUpkeep[]> {
  const { rows } = await sql<TableUpkeep>`
    select c.relname as "table",
           (c.reltuples < 0 and pg_relation_size(c.oid) > 0)
           or coalesce(s.n_mod_since_analyze, 0) > ${sql.lit(ANALYZE_BASE)} + ${sql.lit(ANALYZE_SCALE)} * greatest(c.reltuples, 0)
           or pg_relation_size(c.oid) / current_setting('block_size')::int
              > ${sql.lit(GROWTH_SCALE)} * c.relpages + ${sql.lit(GROWTH_PAGES)} as analyze,
           coalesce(s.n_dead_tup, 0) > ${sql.lit(VACUUM_BASE)} + ${sql.lit(VACUUM_SCALE)} * greatest(c.reltuples, 0) as vacuum
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_stat_user_tables s on s.relid = c.oid
    where n.nspname = 'public' and c.relkind = 'r'
    order by c.relname
  `.execute(db);
  return rows.filter((row) => row.analyze || row.vacuum);
}

/**
 * Does what autovacuum would for the tables due: `vacuum (analyze)` or `analyze`, one table per
 * statement, so that requests waiting for the embedded database run between two tables (an
 * `analyze` of 100 000 requests costs about 0.2 s). Returns what it did.
 */
export async function maintainEmbeddedStatistics(db: Db): Promise<TableUpkeep[]> {
  const due = await tablesDue(db);
  for (const { table, analyze, vacuum } of due) {
    const command = vacuum ? (analyze ? "vacuum (analyze)" : "vacuum") : "analyze";
    await sql`${sql.raw(command)} ${sql.table(table)}`.execute(db);
  }
  return due;
}
