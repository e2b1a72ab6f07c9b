import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { ERROR_CODES, MESSAGES } from "../../shared/schemas/common";
import { AppError, errorBody, validationError } from "../errors";
import { loggableError } from "../redact";
import { errorPage, isBrowserNavigation } from "./error-page";

/**
 * The error handler of the app (registered by app.ts): every failure answered in the one error
 * shape of errors.ts, in French; 5xx details logged (redact.ts), never sent.
 */

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
  405: "Cette méthode n'est pas acceptée à cette adresse.",
  406: "Le format de réponse demandé n'est pas disponible.",
  408: "La requête a pris trop de temps. Veuillez réessayer.",
  409: "Cette action est en conflit avec l'état actuel. Rechargez la page et réessayez.",
  411: "La taille du contenu envoyé doit être indiquée.",
  413: "Le contenu envoyé est trop volumineux.",
  414: "L'adresse demandée est trop longue.",
  415: "Ce type de contenu n'est pas accepté.",
  422: "La requête est invalide.",
  429: MESSAGES.rateLimited,
  431: "Les en-têtes de la requête sont trop volumineux.",
};

/**
 * Fastify's and its plugins' own client errors (English, their own shape) → our status, code and
 * French message. Others keep their 4xx status with the French text of that status.
 */
const FRAMEWORK_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: ERROR_CODES.validation,
    message: "Le contenu envoyé n'est pas un JSON valide.",
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: ERROR_CODES.validation,
    message: "Le contenu envoyé est vide alors qu'un objet JSON est attendu.",
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: ERROR_CODES.validation,
    message: "La taille annoncée du contenu ne correspond pas au contenu reçu.",
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: ERROR_CODES.unsupportedMediaType,
    message: "Ce type de contenu n'est pas accepté.",
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: ERROR_CODES.payloadTooLarge,
    message: "Le contenu envoyé est trop volumineux.",
  },
  FST_ERR_BAD_URL: { status: 400, code: ERROR_CODES.validation, message: "L'adresse demandée est invalide." },
  // A path parameter longer than any id (maxParamLength, 100) names nothing that exists.
  FST_ERR_MAX_PARAM_LENGTH: { status: 404, code: ERROR_CODES.notFound, message: MESSAGES.notFound },
  FST_ERR_ASYNC_CONSTRAINT: {
    status: 400,
    code: ERROR_CODES.validation,
    message: "La requête est invalide.",
  },
  // @fastify/multipart
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    status: 415,
    code: ERROR_CODES.unsupportedMediaType,
    message: "Le formulaire doit être envoyé en multipart/form-data.",
  },
  FST_INVALID_JSON_FIELD_ERROR: {
    status: 400,
    code: ERROR_CODES.validation,
    message: "Un champ du formulaire n'est pas un JSON valide.",
  },
  FST_PROTO_VIOLATION: {
    status: 400,
    code: ERROR_CODES.validation,
    message: "Un nom de champ du formulaire n'est pas accepté.",
  },
  FST_PARTS_LIMIT: {
    status: 413,
    code: ERROR_CODES.payloadTooLarge,
    message: "Le formulaire contient trop de parties.",
  },
  FST_FILES_LIMIT: {
    status: 413,
    code: ERROR_CODES.payloadTooLarge,
    message: "Le formulaire contient trop de fichiers.",
  },
  FST_FIELDS_LIMIT: {
    status: 413,
    code: ERROR_CODES.payloadTooLarge,
    message: "Le formulaire contient trop de champs.",
  },
  FST_REQ_FILE_TOO_LARGE: {
    status: 413,
    code: ERROR_CODES.payloadTooLarge,
    message: "Un fichier dépasse la taille autorisée.",
  },
};

/**
 * Errors of the multipart parser (busboy) on a malformed form: plain Errors without a status, that
 * a client's bytes cause. Matched by message, since busboy gives them no code.
 */
const MALFORMED_MULTIPART =
  /^(Unexpected end of (form|file)|Malformed (part header|urlencoded form)|Multipart: Boundary not found|Unsupported content type|Missing Content-Type|Part terminated early|Invalid (part|header))/i;

/** The client-side answer for a non-AppError, or null when it is a server error (5xx). */
function clientError(error: FastifyError | Error): AppError | null {
  const code = (error as FastifyError).code;
  const known = code ? FRAMEWORK_ERRORS[code] : undefined;
  if (known) return new AppError(known.status, known.code, known.message);
  const status = (error as FastifyError).statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return new AppError(
      status,
      STATUS_CODES[status] ?? ERROR_CODES.validation,
      STATUS_MESSAGES[status] ?? "La requête est invalide.",
    );
  }
  if (status === undefined && MALFORMED_MULTIPART.test(error.message)) {
    return new AppError(400, ERROR_CODES.validation, "Le formulaire envoyé est mal formé.");
  }
  return null;
}

/**
 * One error shape for every API failure; 5xx details are logged, never sent. A 4xx always carries a
 * French message: ours (AppError, zod with the French error map), or the French text of Fastify's
 * error code or of the status.
 */
export function registerErrorHandler(app: FastifyInstance, brandName: string): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) reply.header("retry-after", String(error.retryAfterSeconds));
      return reply.status(error.statusCode).send(errorBody(error.code, error.message, error.fields));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: v.instancePath.split("/").filter(Boolean),
        message: v.message ?? MESSAGES.validation,
      }));
      // A path that does not validate (an id that is not a uuid…) names nothing that exists: 404.
      if ((error as FastifyError).validationContext === "params") {
        return reply
          .status(404)
          .send(errorBody(ERROR_CODES.notFound, issues[0]?.message ?? MESSAGES.notFound));
      }
      const appError = validationError(issues);
      return reply.status(400).send(errorBody(appError.code, appError.message, appError.fields));
    }
    const client = clientError(error);
    if (client) return reply.status(client.statusCode).send(errorBody(client.code, client.message));
    request.log.error({ err: loggableError(error) }, "erreur serveur");
    return reply.status(500).send(errorBody(ERROR_CODES.internal, MESSAGES.internal));
  });

  // The last word on an API error answered without throwing, by a library whose response is passed
  // on (Better Auth's `{"code":"UNAUTHORIZED","message":"Unauthorized"}` on /api/auth/*): an error
  // message that is not in our shape becomes our shape, with the French text of its status. Other
  // bodies (the health check's 503) are left alone.
  app.addHook("onSend", async (request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== "string" || !request.url.startsWith("/api/")) {
      return payload;
    }
    if (!isForeignErrorBody(payload)) return payload;
    const status = reply.statusCode;
    const body =
      status >= 500
        ? errorBody(ERROR_CODES.internal, MESSAGES.internal)
        : errorBody(
            STATUS_CODES[status] ?? ERROR_CODES.validation,
            STATUS_MESSAGES[status] ?? "La requête est invalide.",
          );
    reply.removeHeader("content-length");
    reply.type("application/json; charset=utf-8");
    return JSON.stringify(body);
  });

  // Registered after the hook above: an API address the browser opened as a page (a document's
  // « Ouvrir » in a new tab) gets its error in French as a page, with a way back (plugins/error-page.ts).
  app.addHook("onSend", async (request, reply, payload) => {
    if (
      reply.statusCode < 400 ||
      request.method !== "GET" ||
      typeof payload !== "string" ||
      !request.url.startsWith("/api/") ||
      !isBrowserNavigation(request.headers)
    ) {
      return payload;
    }
    const message = ourErrorMessage(payload);
    if (message === null) return payload;
    reply.removeHeader("content-length");
    reply.type("text/html; charset=utf-8");
    return errorPage(brandName, reply.statusCode, message);
  });
}

/** The French message of a body in our error shape, or null. */
function ourErrorMessage(payload: string): string | null {
  try {
    const body = JSON.parse(payload) as { error?: { message?: unknown } } | null;
    return typeof body?.error?.message === "string" ? body.error.message : null;
  } catch {
    return null;
  }
}

/** A JSON error with a `message` (a library's), not in our `{ error: { code, message } }` shape. */
function isForeignErrorBody(payload: string): boolean {
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return false;
  }
  if (!body || typeof body !== "object") return false;
  const { error, message } = body as { error?: { code?: unknown; message?: unknown }; message?: unknown };
  const ours = typeof error?.code === "string" && typeof error.message === "string";
  return !ours && (typeof message === "string" || typeof error === "string");
}

/**
 * Fastify's `frameworkErrors`: errors met before any route is found (a malformed URL, a path
 * parameter over maxParamLength), answered in our shape and in French instead of Fastify's own.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const client = clientError(error) ?? new AppError(400, ERROR_CODES.validation, STATUS_MESSAGES[400] ?? "");
  void reply.status(client.statusCode).send(errorBody(client.code, client.message));
}
