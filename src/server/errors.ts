import { ERROR_CODES, type ErrorBody, MESSAGES } from "../shared/schemas/common";

/**
 * An expected failure with its HTTP status, stable code and French message; a 429 may say when to try
 * again (`Retry-After`, in seconds).
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    readonly retryAfterSeconds?: number,
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
