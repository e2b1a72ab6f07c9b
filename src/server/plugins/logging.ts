import { type FastifyReply, type FastifyRequest, LogController } from "fastify";

/**
 * What of a request and of an error goes to the logs (architecture.md, "Logs"): nothing a person
 * typed or was sent.
 *
 * - Requests: the method and the PATH only, not the client's address (personal data; the rate limits
 *   keep only its HMAC, plugins/rate-limit-store.ts). Query strings carry reset tokens
 *   (`/reset-password?token=…`), search terms (patients' names), e-mail addresses and cursors; rather
 *   than a list of parameters to redact that a new route could forget, no query value is ever logged.
 *   Paths hold only ids and fixed words. No headers (cookies), no bodies: Fastify logs neither unless
 *   a serializer asks for them, and these do not.
 * - Errors: type, code, message and stack. A database error's message can quote the value it
 *   refused (`invalid input syntax for type uuid: "…"`): the quoted value is masked; its `detail`,
 *   `parameters` or `query` (rows, SQL parameters) are never logged.
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

export const logSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: pathOnly(request.url),
    };
  },
  err: serializeError,
};

/**
 * One log line per request, and only when it tells something (issue 19, ADR 025). Fastify writes two
 * lines per request ("incoming request", "request completed"); this controller drops the first and
 * writes the second, with the request as `logSerializers.req` shows it (method and path):
 * - a failed response (an error, or a 5xx) at `error`, a 4xx at `info`, a request slower than
 *   `slowMs` at `warn`;
 * - any other (a fast success or redirect) at `debug`: written with LOG_LEVEL=debug or trace only.
 * Fastify's other lines (its error handler's, a route not found, a serializer failure) are kept.
 */
export class RequestLogController extends LogController {
  constructor(private readonly slowMs: number) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const status = reply.statusCode;
    const responseTime = reply.elapsedTime;
    const slow = responseTime > this.slowMs;
    const level = error || status >= 500 ? "error" : status >= 400 ? "info" : slow ? "warn" : "debug";
    // Fastify's logger is pino's, which has isLevelEnabled (its base type does not name it).
    if (!(reply.log as unknown as { isLevelEnabled(level: string): boolean }).isLevelEnabled(level)) return;
    reply.log[level](
      { req: request, res: reply, responseTime, ...(error ? { err: error } : {}) },
      error ? "request errored" : slow && status < 400 ? "requête lente" : "request completed",
    );
  }
}
