import type { Migration } from "kysely/migration";
import * as m001 from "./001_accounts";

/** Every migration, in order. Same list on PGlite and PostgreSQL. */
export const migrations: Record<string, Migration> = {
  "001_accounts": m001,
};
