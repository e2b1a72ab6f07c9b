import type { FastifyInstance } from "fastify";
import { ERROR_CODES, MESSAGES } from "../../shared/schemas/common";
import { AppError } from "../errors";

/**
 * Control characters never reach a query. NUL makes PostgreSQL fail ("invalid byte sequence",
 * a 500 before this guard) and the other C0 controls (and DEL) have no place in text a person typed:
 * they are refused (400 naming the field) rather than silently stripped. Tab, line feed and carriage
 * return are text.
 *
 * One rule in two places: a `preHandler` hook for what Fastify parsed and validated (JSON bodies,
 * query strings, path parameters) — after the `onRequest` guards (cross-site, sign-in, area:
 * 401/403) and the routes' `preValidation` visibility guards (404), so a stranger never gets a 400,
 * and before any handler queries — and `multipartField` for the multipart reader beside it
 * (http/multipart.ts), which reads the fields of a form itself.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export function hasControlCharacters(text: string): boolean {
  return CONTROL.test(text);
}

function refused(field: string): AppError {
  return new AppError(400, ERROR_CODES.validation, MESSAGES.controlCharacters, {
    [field]: MESSAGES.controlCharacters,
  });
}

/** The path ("a.b.0") of the first string (value or key) holding a control character, or null. */
function findControlCharacter(value: unknown, path: string[] = [], depth = 0): string | null {
  if (typeof value === "string") return CONTROL.test(value) ? path.join(".") || "_" : null;
  if (value === null || typeof value !== "object" || depth > 32) return null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findControlCharacter(item, [...path, String(index)], depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    if (CONTROL.test(key)) return path.join(".") || "_";
    const found = findControlCharacter(item, [...path, key], depth + 1);
    if (found !== null) return found;
  }
  return null;
}

export function registerInputGuard(app: FastifyInstance): void {
  app.addHook("preHandler", async (request) => {
    // API routes only (by the matched route, not the raw URL): the app's pages keep their own 404s.
    if (!request.routeOptions.url?.startsWith("/api/")) return;
    for (const part of [request.params, request.query, request.body]) {
      const field = findControlCharacter(part);
      if (field !== null) throw refused(field);
    }
  });
}

/** A multipart text field's value, refused (400 naming the field) if it holds a control character. */
export function multipartField(part: { fieldname: string; value?: unknown }): string {
  const value = String(part.value ?? "");
  if (CONTROL.test(part.fieldname)) throw refused("_");
  if (CONTROL.test(value)) throw refused(part.fieldname);
  return value;
}
