import type { FastifyInstance } from "fastify";
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
import type { Actor } from "../../access/actor";
import { pathId, requireVisible } from "../../access/guards";
import { guardedRoutes } from "../../access/route";
import { useCaseDeps } from "../../http/deps";
import { sendPrivateFile } from "../../http/files";
import { appointmentsRepo } from "./appointments.repo";
import {
  appointmentCalendar,
  bookAppointment,
  cancelAppointment,
  confirmAppointment,
  type Deps,
  proposeTimes,
} from "./appointments.service";

const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const changeErrors = { 400: errorBodySchema, 409: errorBodySchema };

/** Booking on an accepted offer (ADR 011): the patient asks, either side answers, moves or cancels. */
export async function appointmentRoutes(app: FastifyInstance): Promise<void> {
  const module = { tags: ["appointments"], errors };
  const patient = guardedRoutes(app, "patient", module);
  const signedIn = guardedRoutes(app, "signed-in", module);
  const params = z.object({ id: z.string() });
  const appointmentId = (id: string) => pathId(id, APPOINTMENT_MESSAGES.notFound);

  patient.post("/api/patient/offers/:id/appointment", {
    summary: "Demander un rendez-vous sur ma proposition acceptée (un créneau proposé ou jusqu'à trois)",
    params,
    body: proposeTimesSchema,
    response: { 201: appointmentResultSchema, ...changeErrors },
    preValidation: requireVisible("patientOffer", OFFER_MESSAGES.notFound),
    handler: async (request, reply, actor) => {
      const offerId = pathId(request.params.id, OFFER_MESSAGES.notFound);
      const appointment = await bookAppointment(useCaseDeps(request), actor, offerId, request.body.slots);
      return reply.status(201).send({ appointment, message: APPOINTMENT_MESSAGES.requested });
    },
  });

  signedIn.get("/api/appointments", {
    summary: "Mes rendez-vous à venir, ou passés (?when=past), ou tous ceux d'une demande (?request=)",
    querystring: appointmentQuerySchema,
    response: { 200: appointmentListSchema, 400: errorBodySchema },
    handler: async (request, _reply, actor) => {
      const repo = appointmentsRepo(app.db, actor);
      const { request: requestId, when, page } = request.query;
      const now = app.clock();
      const { items, hasMore } = requestId
        ? await repo.onRequest(requestId, page, now)
        : when === "past"
          ? await repo.past(page, now)
          : await repo.upcoming(page, now);
      return { items, page, page_size: APPOINTMENT_PAGE_SIZE, has_more: hasMore };
    },
  });

  /** Confirming a slot and proposing others: the same answer to an appointment visible to the actor. */
  const answerRoute = <Body extends z.ZodType>(
    action: "confirm" | "propose",
    summary: string,
    body: Body,
    answer: (
      deps: Deps,
      actor: Actor,
      id: string,
      body: z.output<Body>,
    ) => ReturnType<typeof confirmAppointment>,
    message: string,
  ) =>
    signedIn.post(`/api/appointments/:id/${action}`, {
      summary,
      params,
      body,
      response: { 200: appointmentResultSchema, ...changeErrors },
      preValidation: requireVisible("appointment", APPOINTMENT_MESSAGES.notFound),
      handler: async (request, _reply, actor) => {
        const id = appointmentId(request.params.id);
        // the type provider cannot narrow a generic schema: `body` was validated by it above
        const appointment = await answer(useCaseDeps(request), actor, id, request.body as z.output<Body>);
        return { appointment, message };
      },
    });

  answerRoute(
    "confirm",
    "Confirmer l'un des créneaux proposés par l'autre partie",
    confirmAppointmentSchema,
    (deps, actor, id, body) => confirmAppointment(deps, actor, id, body.starts_at),
    APPOINTMENT_MESSAGES.confirmed,
  );
  answerRoute(
    "propose",
    "Proposer d'autres créneaux (ou déplacer un rendez-vous confirmé)",
    proposeTimesSchema,
    (deps, actor, id, body) => proposeTimes(deps, actor, id, body.slots),
    APPOINTMENT_MESSAGES.proposed,
  );

  signedIn.post("/api/appointments/:id/cancel", {
    summary: "Annuler un rendez-vous (ou une demande de rendez-vous en cours)",
    params,
    response: { 200: appointmentResultSchema, ...changeErrors },
    handler: async (request, _reply, actor) => {
      const id = appointmentId(request.params.id);
      const appointment = await cancelAppointment(useCaseDeps(request), actor, id);
      return { appointment, message: APPOINTMENT_MESSAGES.cancelled };
    },
  });

  signedIn.get("/api/appointments/:id/calendar.ics", {
    summary: "Le rendez-vous confirmé au format iCalendar (.ics)",
    params,
    response: { 200: z.string() },
    handler: async (request, reply, actor) => {
      const id = appointmentId(request.params.id);
      const ics = await appointmentCalendar({ db: app.db, config: app.config, clock: app.clock }, actor, id);
      return sendPrivateFile(reply, ics, {
        type: "text/calendar; charset=utf-8",
        name: "rendez-vous.ics",
        disposition: "attachment",
      });
    },
  });
}
