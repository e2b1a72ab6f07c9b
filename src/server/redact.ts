/**
 * What of a request's URL and of an error may be written to the logs (plugins/logging.ts tells
 * when): the path without its query, and an error's type, code, message and stack with the values a
 * database message quotes masked. Kept apart from the logging plugin so that the error handler and the
 * modules' own logs serialize errors the same way, from the base layer.
 */

export function pathOnly(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/** A database or library message with the values it quotes masked. */
export function maskQuotedValues(message: string): string {
  // PostgreSQL quotes the refused value after a colon: `…: "value"`, `… (value)=(…)`.
  return message.replace(/: ".*"$/s, ': "[masqué]"').replace(/\)=\(.*?\)/gs, ")=([masqué])");
}

export interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

export function serializeError(error: unknown): LoggedError {
  if (error instanceof Error) {
    const message = maskQuotedValues(error.message);
    return {
      type: error.name,
      code: (error as { code?: unknown }).code,
      message,
      stack: (error.stack ?? "").replace(error.message, message),
    };
  }
  if (error && typeof error === "object") {
    const { type, code, message, stack } = error as Record<string, unknown>;
    return {
      type: typeof type === "string" ? type : "Error",
      code,
      message: maskQuotedValues(typeof message === "string" ? message : ""),
      stack: typeof stack === "string" ? stack : "",
    };
  }
  return { type: typeof error, message: maskQuotedValues(String(error)), stack: "" };
}

/**
 * What of an unexpected error goes to the logs: its type, code, message and stack, never the SQL
 * parameters or details a database error carries (they may hold patients' data); a value the
 * message quotes is masked (redact.ts).
 */
export function loggableError(error: unknown): Record<string, unknown> {
  return serializeError(error);
}
