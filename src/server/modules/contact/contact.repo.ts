import type { Db } from "../../db/index";
import type { StoredFile } from "../../http/uploads";

export interface NewContactSubmission {
  name: string;
  email: string;
  treatment_type: string | null;
  message: string;
  file: StoredFile | undefined;
}

/** Public write: anyone may send a message. Reading them is the admins' (admin module). */
export async function insertContactSubmission(db: Db, input: NewContactSubmission): Promise<string> {
  const row = await db
    .insertInto("contact_submissions")
    .values({
      name: input.name,
      email: input.email,
      treatment_type: input.treatment_type,
      message: input.message,
      file_key: input.file?.key ?? null,
      file_name: input.file?.name ?? null,
      file_size: input.file?.size ?? null,
      file_type: input.file?.mime ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
