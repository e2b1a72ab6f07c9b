import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { SubscriptionPage, SubscriptionSummary } from "../../../shared/schemas/billing";
import type { DentistRequestList } from "../../../shared/schemas/dentist";
import { makeDentist, makeDentistRequestDetail } from "../../test/dentist";
import { json, renderApp, stubApi } from "../../test/renderApp";

/*
 * Issue 35: a dentist whose subscription lapsed reads, on the request and offer screens, the limit
 * and the way back ('Réactiver mon abonnement' → /dentist/subscription), never a bare error.
 */

const dentist = makeDentist();
const REQUEST_ID = "44444444-4444-4444-8444-444444444444";
const NOT_FOUND = json(404, {
  error: { code: "NOT_FOUND", message: "Impossible de trouver cette demande." },
});

function summary(limited: boolean): SubscriptionSummary {
  return {
    status: limited ? "canceled" : "active",
    phase: limited ? "limited" : "active",
    limited,
    changes_at: limited ? null : "2026-12-21T09:00:00.000Z",
    trial_ends_at: "2026-10-21T09:00:00.000Z",
    plan: "monthly",
    cancel_at_period_end: false,
    current_period_end: "2026-12-21T09:00:00.000Z",
    has_provider_subscription: !limited,
    next_plan: null,
  };
}
const page = (limited: boolean): SubscriptionPage => ({
  subscription: summary(limited),
  plans: [],
  next_payment_ttc_cents: null,
  first_payment_at: null,
});
const SUBSCRIPTION = "GET /api/dentist/subscription";

const emptyList: DentistRequestList = {
  items: [],
  page: 1,
  page_size: 10,
  has_more: false,
  treatments: [],
  verified: true,
  distance_filter: true,
};

describe("accès limité : liste des demandes", () => {
  it("explique la limite au-dessus de la liste, avec « Réactiver mon abonnement »", async () => {
    stubApi(dentist, {
      [SUBSCRIPTION]: () => json(200, page(true)),
      "GET /api/dentist/requests": () => json(200, emptyList),
    });
    renderApp("/dentist/quote-requests");
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Votre abonnement n'est plus actif");
    expect(alert).toHaveTextContent("ne voyez plus les nouvelles demandes");
    expect(within(alert).getByRole("link", { name: "Réactiver mon abonnement" })).toHaveAttribute(
      "href",
      "/dentist/subscription",
    );
  });

  it("ne dit rien à un dentiste abonné", async () => {
    stubApi(dentist, {
      [SUBSCRIPTION]: () => json(200, page(false)),
      "GET /api/dentist/requests": () => json(200, emptyList),
    });
    renderApp("/dentist/quote-requests");
    expect(await screen.findByText("Aucune demande")).toBeInTheDocument();
    expect(screen.queryByText("Votre abonnement n'est plus actif")).not.toBeInTheDocument();
  });
});

describe("accès limité : une demande qui ne lui est plus montrée", () => {
  for (const path of [`/dentist/patient-submission/${REQUEST_ID}`, `/dentist/quote-request/${REQUEST_ID}`]) {
    it(`${path.split("/")[2]} : « Demande inaccessible », la limite et le chemin du retour`, async () => {
      stubApi(dentist, {
        [SUBSCRIPTION]: () => json(200, page(true)),
        [`GET /api/dentist/requests/${REQUEST_ID}`]: () => NOT_FOUND,
        [`GET /api/dentist/requests/${REQUEST_ID}/offer`]: () => NOT_FOUND,
      });
      renderApp(path);
      expect(
        await screen.findByRole("heading", { level: 1, name: "Demande inaccessible" }),
      ).toBeInTheDocument();
      expect(screen.queryByText("Demande non trouvée")).not.toBeInTheDocument();
      const main = screen.getByRole("main");
      expect(within(main).getByText(/Seules les demandes dont le patient vous a choisi/)).toBeInTheDocument();
      expect(within(main).getByRole("link", { name: "Réactiver mon abonnement" })).toHaveAttribute(
        "href",
        "/dentist/subscription",
      );
      expect(within(main).getByRole("link", { name: "Retour aux demandes" })).toHaveAttribute(
        "href",
        "/dentist/quote-requests",
      );
    });
  }

  it("un dentiste abonné lit toujours « Demande non trouvée »", async () => {
    stubApi(dentist, {
      [SUBSCRIPTION]: () => json(200, page(false)),
      [`GET /api/dentist/requests/${REQUEST_ID}`]: () => NOT_FOUND,
    });
    renderApp(`/dentist/patient-submission/${REQUEST_ID}`);
    expect(await screen.findByRole("heading", { level: 1, name: "Demande non trouvée" })).toBeInTheDocument();
    expect(screen.queryByText("Demande inaccessible")).not.toBeInTheDocument();
  });
});

describe("accès limité pendant qu'il écrit : l'envoi refusé est expliqué", () => {
  it("proposition : le serveur refuse (la limite a commencé), le formulaire laisse place à la limite", async () => {
    let limited = false;
    let sent = 0;
    stubApi(dentist, {
      [SUBSCRIPTION]: () => json(200, page(limited)),
      [`GET /api/dentist/requests/${REQUEST_ID}`]: () => json(200, makeDentistRequestDetail(REQUEST_ID)),
      [`GET /api/dentist/requests/${REQUEST_ID}/offer`]: () =>
        json(200, { offer: null, may_offer: true, patient_age: 40, last_fees: [] }),
      [`POST /api/dentist/requests/${REQUEST_ID}/offers`]: () => {
        sent += 1;
        limited = true;
        return NOT_FOUND;
      },
    });
    const user = userEvent.setup();
    renderApp(`/dentist/quote-request/${REQUEST_ID}`);
    await user.type(await screen.findByLabelText(/Montant de la proposition/), "900");
    await user.click(screen.getByRole("button", { name: "Envoyer la proposition" }));
    await waitFor(() => expect(sent).toBe(1));
    const form = await screen.findByText("Votre abonnement n'est plus actif");
    const alert = form.closest('[role="alert"]') as HTMLElement;
    expect(within(alert).getByRole("link", { name: "Réactiver mon abonnement" })).toHaveAttribute(
      "href",
      "/dentist/subscription",
    );
    expect(screen.queryByRole("form", { name: "Proposition au patient" })).not.toBeInTheDocument();
    // No bare error in a toast.
    expect(screen.queryByText("Impossible de trouver cette demande.")).not.toBeInTheDocument();
  });

  it("réponse : un 403 d'abonnement expiré donne la limite, pas un message d'échec", async () => {
    let limited = false;
    stubApi(dentist, {
      [SUBSCRIPTION]: () => json(200, page(limited)),
      [`GET /api/dentist/requests/${REQUEST_ID}`]: () => json(200, makeDentistRequestDetail(REQUEST_ID)),
      [`POST /api/dentist/requests/${REQUEST_ID}/reply`]: () => {
        limited = true;
        return json(403, { error: { code: "FORBIDDEN", message: "Votre abonnement n'est plus actif." } });
      },
    });
    const user = userEvent.setup();
    renderApp(`/dentist/patient-submission/${REQUEST_ID}`);
    await user.type(await screen.findByLabelText("Votre réponse au patient"), "Bonjour");
    await user.click(screen.getByRole("button", { name: "Envoyer la réponse" }));
    const title = await screen.findByText("Votre abonnement n'est plus actif");
    const alert = title.closest('[role="alert"]') as HTMLElement;
    expect(within(alert).getByRole("link", { name: "Réactiver mon abonnement" })).toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "Réponse au patient" })).not.toBeInTheDocument();
  });

  it("un refus qui n'a rien à voir avec l'abonnement reste un message d'échec", async () => {
    stubApi(dentist, {
      [SUBSCRIPTION]: () => json(200, page(false)),
      [`GET /api/dentist/requests/${REQUEST_ID}`]: () => json(200, makeDentistRequestDetail(REQUEST_ID)),
      [`POST /api/dentist/requests/${REQUEST_ID}/reply`]: () =>
        json(403, { error: { code: "FORBIDDEN", message: "Action non autorisée." } }),
    });
    const user = userEvent.setup();
    renderApp(`/dentist/patient-submission/${REQUEST_ID}`);
    await user.type(await screen.findByLabelText("Votre réponse au patient"), "Bonjour");
    await user.click(screen.getByRole("button", { name: "Envoyer la réponse" }));
    expect(await screen.findByText("Action non autorisée.")).toBeInTheDocument();
    expect(screen.getByRole("form", { name: "Réponse au patient" })).toBeInTheDocument();
  });
});
