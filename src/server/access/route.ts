import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";
import type { Area } from "../../shared/policies/redirects";
import { type Actor, actorOf, requireArea } from "./actor";

type Part = z.ZodType | undefined;
type Responses = Record<number, z.ZodType>;

/** The schema a declaration's parts make, which types its request and reply. */
type SchemaOf<P extends Part, Q extends Part, B extends Part, R extends Responses> = {
  params: P;
  querystring: Q;
  body: B;
  response: R;
};

/** A guard of its own (an onRequest hook that throws 401 or 403), where an area does not say who. */
export type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * A route's declaration: its summary, what it reads, the answers that are its own, the hooks or
 * options of its own (a preValidation guard, compress) and its use case, which gets the request
 * and reply typed by those schemas, and the actor.
 */
export interface RouteSpec<P extends Part, Q extends Part, B extends Part, R extends Responses> {
  summary: string;
  description?: string;
  tags?: string[];
  consumes?: string[];
  params?: P;
  querystring?: Q;
  body?: B;
  response?: R;
  preValidation?: Guard;
  compress?: RouteShorthandOptions["compress"];
  handler: UseCase<SchemaOf<P, Q, B, R>>;
}

/** The request and reply as Fastify and the zod type provider type them for the schema S. */
export type RouteRequest<S extends FastifySchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  S,
  ZodTypeProvider
>;
export type RouteReply<S extends FastifySchema> = FastifyReply<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  ContextConfigDefault,
  S,
  ZodTypeProvider
>;
type Returns<S extends FastifySchema> = ReturnType<
  RouteHandlerMethod<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    RouteGenericInterface,
    ContextConfigDefault,
    S,
    ZodTypeProvider
  >
>;

/** The use case of a route: its request and reply, typed by its schema, and the signed-in actor. */
export type UseCase<S extends FastifySchema> = (
  request: RouteRequest<S>,
  reply: RouteReply<S>,
  actor: Actor,
) => Returns<S>;

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Declare = <
  P extends Part = undefined,
  Q extends Part = undefined,
  B extends Part = undefined,
  R extends Responses = Record<never, never>,
>(
  url: string,
  spec: RouteSpec<P, Q, B, R>,
) => void;

/**
 * The routes of a module that `who` may call (ADR 034): an area (checked in onRequest, before the
 * body is read) or a guard of the module's own. `tags` and `errors` are the module's OpenAPI tags
 * and the error answers every one of its routes may give (401, 403, 404...); each declaration says
 * only what is its own, and its use case gets the request's actor.
 */
export function guardedRoutes(
  app: FastifyInstance,
  who: Area | "signed-in" | Guard,
  module: { tags: string[]; errors: Record<number, z.ZodType> },
): Record<"get" | "post" | "put" | "patch" | "delete", Declare> {
  const declare =
    (method: Method): Declare =>
    (url, { handler, preValidation, compress, tags = module.tags, ...own }) => {
      const schema: FastifySchema = { tags, ...own, response: { ...own.response, ...module.errors } };
      app.route({
        method,
        url,
        schema,
        onRequest: typeof who === "function" ? who : requireArea(who),
        ...(preValidation && { preValidation }),
        ...(compress !== undefined && { compress }),
        // the use case was typed against its schema by the declaration's type
        handler: async (request, reply) =>
          handler(request as never, reply as never, await actorOf(request, reply)),
      });
    };
  return {
    get: declare("GET"),
    post: declare("POST"),
    put: declare("PUT"),
    patch: declare("PATCH"),
    delete: declare("DELETE"),
  };
}
