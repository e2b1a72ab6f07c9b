import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import { ERROR_CODES } from "../../shared/schemas/common";
import { AppError, validationError } from "../errors";
import type { Storage } from "../storage/storage";
import { multipartField } from "./input-guard";
import { isFileTooLarge, type StoredFile, storeUpload } from "./uploads";

/**
 * A multipart form is read once, at the edge (the route), and services get plain data: the text
 * fields validated by a zod schema and the files already stored (typed by content, size-limited
 * while streaming). Every refusal has the one error shape, in French, naming the field.
 */

export interface FileRules {
  /** The multipart field that carries the files ("files", "file"…); other file parts are skipped. */
  field: string;
  /** Files accepted at most; one more is refused (413) with `tooMany`. */
  max: number;
  /** Extensions (as file-type names them) whose content is accepted. */
  accepted: ReadonlySet<string>;
  /** Stored under `{keyPrefix}/{random}.{ext}`. */
  keyPrefix: string;
  tooLarge(name: string): string;
  badContent(name: string): string;
  tooMany: string;
  /** When the form needs a file: the refusal (400) if none came, checked before the text fields. */
  required?: string;
}

export interface FormRules {
  /** The 415 answered to a body that is not multipart/form-data. */
  notMultipart: string;
  /** Text fields at most. */
  fields: number;
  files?: FileRules;
}

export interface ReadForm {
  /** The text fields as sent (control characters already refused), before validation. */
  raw: Readonly<Record<string, string>>;
  files: readonly StoredFile[];
  /** Removes the stored files: for a form read and then ignored or refused. */
  discard(): Promise<void>;
  /**
   * Validates the text fields with `schema` (400 naming each field) and runs `use` with them and
   * the stored files. If validation or `use` fails, the stored files are removed: a failed form
   * leaves neither a row nor a file behind (`use` writes its rows in one transaction).
   */
  use<S extends z.ZodType, T>(
    schema: S,
    use: (fields: z.output<S>, files: readonly StoredFile[]) => Promise<T>,
  ): Promise<T>;
}

/** Text fields are short: the longest (a devis's lines as JSON) stays well under this. */
const FIELD_SIZE = 20_000;

/**
 * Reads the whole multipart body: text fields kept, files streamed to storage. On any refusal
 * (not multipart, a file too large or of the wrong content, too many files, no file when one is
 * required, a control character) the files stored so far are removed before the error is thrown.
 */
export async function readMultipart(
  request: FastifyRequest,
  storage: Storage,
  rules: FormRules,
): Promise<ReadForm> {
  if (!request.isMultipart()) throw new AppError(415, ERROR_CODES.unsupportedMediaType, rules.notMultipart);
  const raw: Record<string, string> = {};
  const files: StoredFile[] = [];
  const discard = () =>
    Promise.all(files.map((file) => storage.remove(file.key).catch(() => {}))).then(() => {});
  const fileRules = rules.files;
  try {
    const parts = request.parts({
      limits: { files: fileRules?.max ?? 0, fields: rules.fields, fieldSize: FIELD_SIZE },
    });
    for await (const part of parts) {
      if (part.type === "field") {
        raw[part.fieldname] = multipartField(part);
        continue;
      }
      if (
        !fileRules ||
        part.fieldname !== fileRules.field ||
        !part.filename ||
        files.length >= fileRules.max
      ) {
        part.file.resume();
        continue;
      }
      files.push(await storeOne(part, storage, fileRules));
    }
    if (fileRules?.required && files.length === 0) throw refusal(400, fileRules.field, fileRules.required);
  } catch (error) {
    await discard();
    // @fastify/multipart's FilesLimitError: one file more than `max`.
    if (fileRules && (error as { code?: string } | null)?.code === "FST_FILES_LIMIT")
      throw refusal(413, fileRules.field, fileRules.tooMany);
    throw error;
  }
  return {
    raw,
    files,
    discard,
    async use(schema, use) {
      try {
        const parsed = schema.safeParse(raw);
        if (!parsed.success) throw validationError(parsed.error.issues);
        return await use(parsed.data, files);
      } catch (error) {
        await discard();
        throw error;
      }
    },
  };
}

async function storeOne(part: Parameters<typeof storeUpload>[0], storage: Storage, rules: FileRules) {
  const name = part.filename;
  try {
    return await storeUpload(part, storage, {
      accepted: rules.accepted,
      keyPrefix: rules.keyPrefix,
      messages: { tooLarge: rules.tooLarge(name), badContent: rules.badContent(name) },
      field: rules.field,
    });
  } catch (error) {
    if (isFileTooLarge(error)) throw refusal(413, rules.field, rules.tooLarge(name));
    throw error;
  }
}

function refusal(status: 400 | 413, field: string, message: string): AppError {
  const code = status === 413 ? ERROR_CODES.payloadTooLarge : ERROR_CODES.validation;
  return new AppError(status, code, message, { [field]: message });
}
