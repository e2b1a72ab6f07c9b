import type { AnnounceDeps } from "./bus";

/**
 * The team's work changed — a verification asked for or decided, a contact message received or
 * marked (un)handled: every admin connected reloads the dashboard's counters and these queues. No
 * ids and no content; best effort, after the commit (a failed publish is only logged, as the bus's
 * own failures are: its message only).
 */
export function announceTeamWork(deps: AnnounceDeps): void {
  deps.bus
    .publish({ kind: "team" })
    .catch((error: Error) =>
      deps.log.error({ err: { message: error.message } }, "changement du travail de l'équipe non diffusé"),
    );
}
