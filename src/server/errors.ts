import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { ERROR_CODES, type ErrorBody, MESSAGES } from "../shared/schemas/common";

/** An expected failure with its HTTP status, stable code and French message. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const notFound = (message: string = MESSAGES.notFound) =>
  new AppError(404, ERROR_CODES.notFound, message);
export const unauthenticated = () => new AppError(401, ERROR_CODES.unauthenticated, MESSAGES.unauthenticated);
export const forbidden = (message: string = MESSAGES.forbidden) =>
  new AppError(403, ERROR_CODES.forbidden, message);

export function errorBody(code: string, message: string, fields?: Record<string, string>): ErrorBody {
  return { error: fields ? { code, message, fields } : { code, message } };
}

/** Turns a list of zod-like issues into the first message and a field → message map. */
export function validationError(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
) {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "_";
    fields[key] ??= issue.message;
  }
  return new AppError(400, ERROR_CODES.validation, issues[0]?.message ?? MESSAGES.validation, fields);
}

const STATUS_CODES: Record<number, string> = {
  400: ERROR_CODES.validation,
  401: ERROR_CODES.unauthenticated,
  403: ERROR_CODES.forbidden,
  404: ERROR_CODES.notFound,
  409: ERROR_CODES.conflict,
  413: ERROR_CODES.payloadTooLarge,
  415: ERROR_CODES.unsupportedMediaType,
  429: ERROR_CODES.rateLimited,
};

const STATUS_MESSAGES: Record<number, string> = {
  400: "La requête est invalide.",
  401: MESSAGES.unauthenticated,
  403: MESSAGES.forbidden,
  404: MESSAGES.notFound,
  413: "Le contenu envoyé est trop volumineux.",
  415: "Ce type de contenu n'est pas accepté.",
  429: MESSAGES.rateLimited,
};

/**
 * What of an unexpected error goes to the logs: its type, code, message and stack, never the SQL
 * parameters or details a database error carries (they may hold patients' data).
 */
export function loggableError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code } = error as { code?: unknown };
  return { type: error.name, code, message: error.message, stack: error.stack };
}

/** One error shape for every API failure; 5xx details are logged, never sent. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send(errorBody(error.code, error.message, error.fields));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: v.instancePath.split("/").filter(Boolean),
        message: v.message ?? MESSAGES.validation,
      }));
      const appError = validationError(issues);
      return reply.status(400).send(errorBody(appError.code, appError.message, appError.fields));
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply
        .status(status)
        .send(
          errorBody(
            STATUS_CODES[status] ?? ERROR_CODES.validation,
            STATUS_MESSAGES[status] ?? "La requête est invalide.",
          ),
        );
    }
    request.log.error({ err: loggableError(error) }, "erreur serveur");
    return reply.status(500).send(errorBody(ERROR_CODES.internal, MESSAGES.internal));
  });
}
