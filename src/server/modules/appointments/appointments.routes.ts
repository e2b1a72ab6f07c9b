import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  APPOINTMENT_MESSAGES,
  APPOINTMENT_PAGE_SIZE,
  appointmentListSchema,
  appointmentQuerySchema,
  appointmentResultSchema,
  confirmAppointmentSchema,
  proposeTimesSchema,
} from "../../../shared/schemas/appointments";
import { errorBodySchema } from "../../../shared/schemas/common";
import { OFFER_MESSAGES } from "../../../shared/schemas/offers";
import { actorOf, requireArea } from "../../access/actor";
import { requireVisible } from "../../access/guards";
import { notFound } from "../../errors";
import { sendPrivateFile } from "../../http/files";
import { appointmentsRepo } from "./appointments.repo";
import {
  appointmentCalendar,
  bookAppointment,
  cancelAppointment,
  confirmAppointment,
  proposeTimes,
} from "./appointments.service";

const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const changeErrors = { ...errors, 400: errorBodySchema, 409: errorBodySchema };

/** Booking on an accepted offer (ADR 011): the patient asks, either side answers, moves or cancels. */
export async function appointmentRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = requireArea("signed-in");
  const params = z.object({ id: z.string() });
  const isUuid = (id: string) => z.uuid().safeParse(id).success;
  const deps = (request: FastifyRequest) => ({
    db: app.db,
    mailer: app.mailer,
    config: app.config,
    clock: app.clock,
    bus: app.bus,
    log: request.log,
  });
  const appointmentId = (id: string) => {
    if (!isUuid(id)) throw notFound(APPOINTMENT_MESSAGES.notFound);
    return id;
  };

  r.post(
    "/api/patient/offers/:id/appointment",
    {
      schema: {
        tags: ["appointments"],
        summary: "Demander un rendez-vous sur ma proposition acceptée (un créneau proposé ou jusqu'à trois)",
        params,
        body: proposeTimesSchema,
        response: { 201: appointmentResultSchema, ...changeErrors },
      },
      onRequest: requireArea("patient"),
      preValidation: requireVisible("patientOffer", OFFER_MESSAGES.notFound),
    },
    async (request, reply) => {
      const actor = await actorOf(request, reply);
      if (!isUuid(request.params.id)) throw notFound(OFFER_MESSAGES.notFound);
      const appointment = await bookAppointment(deps(request), actor, request.params.id, request.body.slots);
      return reply.status(201).send({ appointment, message: APPOINTMENT_MESSAGES.requested });
    },
  );

  r.get(
    "/api/appointments",
    {
      schema: {
        tags: ["appointments"],
        summary: "Mes rendez-vous à venir (ou tous ceux d'une demande avec ?request=)",
        querystring: appointmentQuerySchema,
        response: { 200: appointmentListSchema, 400: errorBodySchema, ...errors },
      },
      onRequest: signedIn,
    },
    async (request, reply) => {
      const repo = appointmentsRepo(app.db, await actorOf(request, reply));
      const { request: requestId, page } = request.query;
      const now = app.clock();
      const { items, hasMore } = requestId
        ? await repo.onRequest(requestId, page, now)
        : await repo.upcoming(page, now);
      return { items, page, page_size: APPOINTMENT_PAGE_SIZE, has_more: hasMore };
    },
  );

  r.post(
    "/api/appointments/:id/confirm",
    {
      schema: {
        tags: ["appointments"],
        summary: "Confirmer l'un des créneaux proposés par l'autre partie",
        params,
        body: confirmAppointmentSchema,
        response: { 200: appointmentResultSchema, ...changeErrors },
      },
      onRequest: signedIn,
      preValidation: requireVisible("appointment", APPOINTMENT_MESSAGES.notFound),
    },
    async (request, reply) => {
      const actor = await actorOf(request, reply);
      const id = appointmentId(request.params.id);
      const appointment = await confirmAppointment(deps(request), actor, id, request.body.starts_at);
      return { appointment, message: APPOINTMENT_MESSAGES.confirmed };
    },
  );

  r.post(
    "/api/appointments/:id/propose",
    {
      schema: {
        tags: ["appointments"],
        summary: "Proposer d'autres créneaux (ou déplacer un rendez-vous confirmé)",
        params,
        body: proposeTimesSchema,
        response: { 200: appointmentResultSchema, ...changeErrors },
      },
      onRequest: signedIn,
      preValidation: requireVisible("appointment", APPOINTMENT_MESSAGES.notFound),
    },
    async (request, reply) => {
      const actor = await actorOf(request, reply);
      const id = appointmentId(request.params.id);
      const appointment = await proposeTimes(deps(request), actor, id, request.body.slots);
      return { appointment, message: APPOINTMENT_MESSAGES.proposed };
    },
  );

  r.post(
    "/api/appointments/:id/cancel",
    {
      schema: {
        tags: ["appointments"],
        summary: "Annuler un rendez-vous (ou une demande de rendez-vous en cours)",
        params,
        response: { 200: appointmentResultSchema, ...changeErrors },
      },
      onRequest: signedIn,
    },
    async (request, reply) => {
      const actor = await actorOf(request, reply);
      const id = appointmentId(request.params.id);
      const appointment = await cancelAppointment(deps(request), actor, id);
      return { appointment, message: APPOINTMENT_MESSAGES.cancelled };
    },
  );

  r.get(
    "/api/appointments/:id/calendar.ics",
    {
      schema: {
        tags: ["appointments"],
        summary: "Le rendez-vous confirmé au format iCalendar (.ics)",
        params,
        response: { 200: z.string(), ...errors },
      },
      onRequest: signedIn,
    },
    async (request, reply) => {
      const actor = await actorOf(request, reply);
      const id = appointmentId(request.params.id);
      const ics = await appointmentCalendar({ db: app.db, config: app.config, clock: app.clock }, actor, id);
      return sendPrivateFile(reply, ics, {
        type: "text/calendar; charset=utf-8",
        name: "rendez-vous.ics",
        disposition: "attachment",
      });
    },
  );
}
