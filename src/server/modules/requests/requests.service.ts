import type { FastifyRequest } from "fastify";
import { CONSENT_VERSION, consentText } from "../../../shared/domain/consent";
import { DOCUMENT_TYPES, type DocumentType, MAX_FILES_PER_REQUEST } from "../../../shared/domain/requests";
import { parisToday } from "../../../shared/policies/offers";
import { quoteLineIssues, resolveLine } from "../../../shared/schemas/quotes";
import { requestFieldsSchema, UPLOAD_MESSAGES } from "../../../shared/schemas/requests";
import type { Actor } from "../../access/actor";
import type { Db } from "../../db/index";
import { AppError, validationError } from "../../errors";
import { multipartField } from "../../plugins/input-guard";
import type { Storage } from "../../storage/storage";
import { DOCUMENT_TYPES as CONTENT_TYPES, isFileTooLarge, type StoredFile, storeUpload } from "../../uploads";
import { insertQuoteLines, linesTotal } from "../quotes/quotes.repo";
import { enqueueFirstQuote } from "../reading/reading.service";

interface Deps {
  db: Db;
  storage: Storage;
  /** The brand named in the consent's text. */
  brandName: string;
  clock: () => Date;
}

/**
 * One multipart request creates the request and its documents, or nothing: files are streamed to
 * storage under `{patientId}/{random}.{ext}` (type read from the content, 10 MB each), then the rows
 * are inserted in one transaction; on any failure every stored file is removed.
 */
export async function createRequest(deps: Deps, actor: Actor, request: FastifyRequest): Promise<string> {
  if (!request.isMultipart()) {
    throw new AppError(415, "UNSUPPORTED_MEDIA_TYPE", "La demande doit être envoyée en multipart/form-data.");
  }
  const fields: Record<string, string> = {};
  const stored: StoredFile[] = [];
  try {
    const parts = request.parts({ limits: { files: MAX_FILES_PER_REQUEST, fields: 20, fieldSize: 20_000 } });
    for await (const part of parts) {
      if (part.type === "field") {
        fields[part.fieldname] = multipartField(part);
        continue;
      }
      if (part.fieldname !== "files" || !part.filename) {
        part.file.resume();
        continue;
      }
      const name = part.filename;
      try {
        stored.push(
          await storeUpload(part, deps.storage, {
            accepted: CONTENT_TYPES,
            keyPrefix: actor.userId,
            messages: {
              tooLarge: UPLOAD_MESSAGES.fileTooLarge(name),
              badContent: UPLOAD_MESSAGES.fileContent(name),
            },
          }),
        );
      } catch (error) {
        if (isFileTooLarge(error)) throw tooLarge(name);
        throw error;
      }
    }
    if (stored.length === 0) {
      throw new AppError(400, "VALIDATION_ERROR", UPLOAD_MESSAGES.noFile, { files: UPLOAD_MESSAGES.noFile });
    }
    const parsed = requestFieldsSchema.safeParse(fields);
    if (!parsed.success) throw validationError(parsed.error.issues);
    const input = parsed.data;
    // The patient's own devis: lines above a ceiling are flagged on screen, not refused.
    const day = parisToday(deps.clock());
    const quoteLines = input.quote_lines.map((line) => resolveLine(line, day));
    const lineIssues = quoteLineIssues(quoteLines, { refuseAboveCeiling: false, prefix: ["quote_lines"] });
    if (lineIssues.length > 0) throw validationError(lineIssues);
    const types = stored.map((_, i) => {
      const t = input.document_types[i];
      return (DOCUMENT_TYPES as readonly string[]).includes(t ?? "") ? (t as DocumentType) : "other";
    });

    return await deps.db.transaction().execute(async (trx) => {
      let dentistName: string | null = null;
      if (input.recipient) {
        const dentist = await trx
          .selectFrom("profiles")
          .select(["id", "full_name"])
          .where("id", "=", input.recipient)
          .where("role", "=", "dentist")
          .where("is_verified", "=", true)
          .executeTakeFirst();
        if (!dentist) {
          throw new AppError(400, "VALIDATION_ERROR", UPLOAD_MESSAGES.recipientUnavailable, {
            recipient: UPLOAD_MESSAGES.recipientUnavailable,
          });
        }
        dentistName = dentist.full_name;
      }
      const row = await trx
        .insertInto("requests")
        .values({
          patient_id: actor.userId,
          treatment_type: input.treatment_type,
          description: input.description,
          budget: input.budget,
          quote_amount_cents: quoteLines.length > 0 ? linesTotal(quoteLines) : input.quote_amount,
          urgency: input.urgency,
          recipient_dentist_id: input.recipient,
          // The consent as the form showed it (the same words, from the same function).
          consent_version: CONSENT_VERSION,
          consent_text: consentText({ brand: deps.brandName, dentistName }),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const documents = await trx
        .insertInto("documents")
        .values(
          stored.map((file, i) => ({
            request_id: row.id,
            owner_id: actor.userId,
            storage_key: file.key,
            file_name: file.name,
            size: file.size,
            mime_type: file.mime,
            document_type: types[i] ?? "other",
            position: i,
          })),
        )
        .returning(["id", "document_type", "mime_type", "position"])
        .execute();
      await insertQuoteLines(trx, row.id, quoteLines);
      // No line typed: the devis is read in the background (issue 17), queued with the request's rows.
      await enqueueFirstQuote(trx, row.id, documents, quoteLines.length);
      return row.id;
    });
  } catch (error) {
    await Promise.all(stored.map((file) => deps.storage.remove(file.key).catch(() => {})));
    if (isFilesLimit(error)) {
      const message = UPLOAD_MESSAGES.tooManyFiles(MAX_FILES_PER_REQUEST);
      throw new AppError(413, "PAYLOAD_TOO_LARGE", message, { files: message });
    }
    throw error;
  }
}

function tooLarge(name: string) {
  const message = UPLOAD_MESSAGES.fileTooLarge(name);
  return new AppError(413, "PAYLOAD_TOO_LARGE", message, { files: message });
}

function isFilesLimit(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "FST_FILES_LIMIT_REACHED";
}
