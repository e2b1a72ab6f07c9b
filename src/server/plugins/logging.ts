import { type FastifyReply, type FastifyRequest, LogController } from "fastify";
import { pathOnly, serializeError } from "../redact";

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
