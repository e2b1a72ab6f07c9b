import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";

/**
 * Browser tests only (TEST_CLOCK=true, refused in production by the configuration): sets how far
 * ahead of real time the server's clock runs, then runs what the payment stand-in and the e-mails have
 * due at that time, so a journey
 * sees a reminder without sleeping (the app gives the jobs' runner). 0 puts the clock back.
 * Registered only with a movable clock.
 */
export async function testClockRoutes(
  app: FastifyInstance,
  options: { setOffset: (ms: number) => void; runMailJobs: () => Promise<unknown> },
) {
  app.withTypeProvider<ZodTypeProvider>().post(
    "/api/test/clock",
    {
      schema: {
        hide: true,
        body: z.object({
          offset_ms: z
            .number()
            .int()
            .min(0)
            .max(400 * 24 * 60 * 60 * 1000),
        }),
        response: { 200: z.object({ now: z.string() }) },
      },
    },
    async (request) => {
      options.setOffset(request.body.offset_ms);
      // What the payment stand-in's clock made due (a trial's first payment, a renewal), then the e-mails.
      await app.billing.tickStandIn();
      await options.runMailJobs();
      return { now: app.clock().toISOString() };
    },
  );
}
