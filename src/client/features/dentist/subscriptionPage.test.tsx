import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { DEFAULT_PLAN_PRICES_HT_CENTS } from "../../../shared/domain/subscription";
import {
  BILLING_MESSAGES,
  planPriceDtos,
  type SubscriptionPage,
  type SubscriptionSummary,
} from "../../../shared/schemas/billing";
import { makeDentist } from "../../test/dentist";
import { json, renderApp, stubApi } from "../../test/renderApp";
import { spaced } from "../../test/text";

/*
 * Issue 35: back from the provider's page (« ?paiement=accepte »), the page says « actif » only once
 * the server knows the subscription; until then it says the payment is being confirmed, asks again,
 * and offers no second « S'abonner ».
 */

const dentist = makeDentist();

const trial: SubscriptionSummary = {
  status: "trialing",
  phase: "trial",
  limited: false,
  changes_at: "2026-12-21T09:00:00.000Z",
  trial_ends_at: "2026-12-21T09:00:00.000Z",
  plan: null,
  cancel_at_period_end: false,
  current_period_end: null,
  has_provider_subscription: false,
  next_plan: null,
};
const active: SubscriptionSummary = {
  ...trial,
  status: "active",
  phase: "active",
  plan: "monthly",
  current_period_end: "2026-12-28T09:00:00.000Z",
  changes_at: "2026-12-28T09:00:00.000Z",
  has_provider_subscription: true,
};
const page = (subscription: SubscriptionSummary): SubscriptionPage => ({
  subscription,
  plans: planPriceDtos(DEFAULT_PLAN_PRICES_HT_CENTS, "Sourio"),
  next_payment_ttc_cents: subscription.has_provider_subscription ? 10680 : null,
  first_payment_at: null,
});

describe("retour du paiement", () => {
  it("attend la confirmation sans proposer de nouveau « S'abonner », puis dit l'abonnement actif", async () => {
    let answers = 0;
    const fetchMock = stubApi(dentist, {
      // The first two answers before the payment's confirmation reached the server, then active.
      "GET /api/dentist/subscription": () => json(200, page(++answers <= 2 ? trial : active)),
      "GET /api/dentist/billing-profile": () => json(200, { profile: null, suggestion: null }),
      "GET /api/dentist/invoices": () => json(200, { items: [], page: 1, page_size: 10, has_more: false }),
    });
    renderApp("/dentist/subscription?paiement=accepte");
    expect(await screen.findByText("Paiement en cours de confirmation")).toBeInTheDocument();
    expect(screen.queryByText(/Votre abonnement est actif/)).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "S'abonner" })).not.toBeInTheDocument();

    expect(
      await screen.findByText(/Merci\s! Votre abonnement est actif\./, {}, { timeout: 8000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Résilier" })).toBeInTheDocument();
    const invoiceCalls = () =>
      fetchMock.mock.calls.filter(([url]) => String(url).includes("/api/dentist/invoices")).length;
    // The invoice list is asked again once the payment is confirmed (its invoice came with it).
    await waitFor(() => expect(invoiceCalls()).toBeGreaterThanOrEqual(2));
    const asked = answers;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(answers).toBe(asked);
  }, 20_000);

  it("sans retour de paiement, « S'abonner » pendant l'essai", async () => {
    stubApi(dentist, {
      "GET /api/dentist/subscription": () => json(200, page(trial)),
      "GET /api/dentist/billing-profile": () => json(200, { profile: null, suggestion: null }),
      "GET /api/dentist/invoices": () => json(200, { items: [], page: 1, page_size: 10, has_more: false }),
    });
    renderApp("/dentist/subscription");
    expect(await screen.findByRole("button", { name: "S'abonner" })).toBeInTheDocument();
    expect(screen.queryByText("Paiement en cours de confirmation")).not.toBeInTheDocument();
  });
});

describe("état de l'abonnement", () => {
  const stubs = (subscription: SubscriptionSummary, nextTtc: number | null, who = dentist) =>
    stubApi(who, {
      "GET /api/dentist/subscription": () =>
        json(200, { ...page(subscription), next_payment_ttc_cents: nextTtc }),
      "GET /api/dentist/billing-profile": () => json(200, { profile: null, suggestion: null }),
      "GET /api/dentist/invoices": () => json(200, { items: [], page: 1, page_size: 10, has_more: false }),
    });

  it("un abonnement actif se renouvelle : jamais « jusqu'au », même sans montant connu", async () => {
    stubs({ ...active, plan: null }, null);
    renderApp("/dentist/subscription");
    expect(await screen.findByText("Prochain renouvellement le 28 décembre 2026.")).toBeInTheDocument();
    expect(screen.queryByText(/jusqu'au/)).not.toBeInTheDocument();
  });

  it("la boîte de résiliation dit « Garder mon abonnement » pour se raviser, pas « Annuler »", async () => {
    const fetchMock = stubs(active, 10680);
    const user = userEvent.setup();
    renderApp("/dentist/subscription");
    await user.click(await screen.findByRole("button", { name: "Résilier" }));
    const dialog = await screen.findByRole("dialog", { name: /^Résilier votre abonnement\s\?$/ });
    // The day it ends, not only « la fin de la période payée ».
    expect(dialog).toHaveAccessibleDescription(
      /^Votre abonnement reste actif jusqu'à la fin de la période payée, le 28 décembre 2026\s; vous pourrez/,
    );
    expect(within(dialog).getByRole("button", { name: "Résilier" })).toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Annuler" })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Garder mon abonnement" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(
      fetchMock.mock.calls
        .filter(([, init]) => (init?.method ?? "GET") !== "GET")
        .map(([url]) => String(url)),
    ).toEqual([]);
  });

  it("« jusqu'au » pour l'abonnement résilié à la fin de la période payée", async () => {
    stubs({ ...active, phase: "ending", cancel_at_period_end: true }, null);
    renderApp("/dentist/subscription");
    expect(
      await screen.findByText(/^Résilié\s: votre abonnement reste actif jusqu'au 28 décembre 2026\.$/),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Réactiver" })).toBeInTheDocument();
  });

  it("vérification retirée : ni « Réactiver » ni « S'abonner », que le serveur refuse ; dit quand il le pourra (ADR 093)", async () => {
    const withdrawn = makeDentist({ is_verified: false });
    stubs({ ...active, phase: "ending", cancel_at_period_end: true }, null, withdrawn);
    const { unmount } = renderApp("/dentist/subscription");
    const why = await screen.findByText(
      /^Votre compte n'est plus vérifié pour le moment\s: vous pourrez réactiver votre abonnement/,
    );
    expect(why).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Réactiver" })).not.toBeInTheDocument();
    // Stopping what he pays stays his: the provider's portal.
    expect(screen.getByRole("button", { name: "Gérer mon moyen de paiement" })).toBeInTheDocument();
    unmount();

    stubs(
      { ...active, status: "canceled", phase: "limited", limited: true, has_provider_subscription: false },
      null,
      withdrawn,
    );
    renderApp("/dentist/subscription");
    expect(await screen.findByText(/^Votre compte n'est plus vérifié pour le moment/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "S'abonner" })).not.toBeInTheDocument();
  });

  it("la formule cochée est celle de l'abonnement en cours, pas la première de la liste", async () => {
    stubs({ ...active, plan: "yearly" }, 106800);
    renderApp("/dentist/subscription");
    expect(await screen.findByRole("radio", { name: /annuel/ })).toBeChecked();
    expect(screen.getByRole("radio", { name: /mensuel/ })).not.toBeChecked();
    // The other plan: changed by the dentist himself, at the end of the paid period (ADR 096).
    expect(screen.getByRole("button", { name: "Passer à la formule mensuelle" })).toBeInTheDocument();
  });

  it("abonné pendant l'essai : l'essai continue, le premier paiement à sa fin (ADR 085)", async () => {
    stubs({ ...trial, plan: "monthly", has_provider_subscription: true }, 10680);
    renderApp("/dentist/subscription");
    expect(
      await screen.findByText(
        /^Essai gratuit jusqu'au 21 décembre 2026, puis votre abonnement prend le relais\s: premier paiement le 21 décembre 2026\s: 106,80\s€ TTC\.$/,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "S'abonner" })).not.toBeInTheDocument();
    // Cancelling says what it means during the trial: nothing taken, the trial runs to its end.
    await userEvent.setup().click(screen.getByRole("button", { name: "Résilier" }));
    expect(await screen.findByRole("dialog")).toHaveTextContent(
      /Rien ne sera prélevé\s: votre essai continue jusqu'au 21 décembre 2026/,
    );
  });

  it("pendant l'essai, « S'abonner » dit quand a lieu le premier paiement", async () => {
    stubApi(dentist, {
      "GET /api/dentist/subscription": () =>
        json(200, { ...page(trial), first_payment_at: "2026-12-21T09:00:00.000Z" }),
      "GET /api/dentist/billing-profile": () => json(200, { profile: null, suggestion: null }),
      "GET /api/dentist/invoices": () => json(200, { items: [], page: 1, page_size: 10, has_more: false }),
    });
    renderApp("/dentist/subscription");
    expect(
      await screen.findByText(
        /^Rien n'est prélevé aujourd'hui\s: votre essai continue, et le premier paiement a lieu à sa fin, le 21 décembre 2026\.$/,
      ),
    ).toBeInTheDocument();
  });
});

describe("essai terminé sans abonnement", () => {
  it("« S'abonner » dit que l'essai est terminé, pas qu'il se termine", async () => {
    const ended: SubscriptionSummary = { ...trial, phase: "limited", limited: true, changes_at: null };
    stubApi(dentist, {
      "GET /api/dentist/subscription": () => json(200, page(ended)),
      "GET /api/dentist/billing-profile": () => json(200, { profile: null, suggestion: null }),
      "GET /api/dentist/invoices": () => json(200, { items: [], page: 1, page_size: 10, has_more: false }),
    });
    renderApp("/dentist/subscription");
    expect(
      await screen.findByText(
        /^Votre essai est terminé\s: le premier paiement est prélevé dès votre abonnement\.$/,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/moins de deux jours/)).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "S'abonner" })).toBeInTheDocument();
  });
});

describe("paiement en retard", () => {
  const stubbed = (subscription: SubscriptionSummary) =>
    stubApi(dentist, {
      "GET /api/dentist/subscription": () => json(200, page(subscription)),
      "GET /api/dentist/billing-profile": () => json(200, { profile: null, suggestion: null }),
      "GET /api/dentist/invoices": () => json(200, { items: [], page: 1, page_size: 10, has_more: false }),
    });
  const overdue: SubscriptionSummary = {
    ...active,
    status: "past_due",
    phase: "past_due",
    changes_at: "2026-12-12T09:00:00.000Z",
  };

  it("dit quoi faire pendant le délai, puis une fois l'accès limité", async () => {
    stubbed(overdue);
    const first = renderApp("/dentist/subscription");
    expect(
      await screen.findByText(
        /^Le dernier paiement a échoué\s: réglez-le avec «\sGérer mon moyen de paiement\s»\. Votre accès reste complet jusqu'au 12 décembre 2026\.$/,
      ),
    ).toBeInTheDocument();
    first.unmount();

    stubbed({ ...overdue, phase: "limited", limited: true, changes_at: null });
    renderApp("/dentist/subscription");
    expect(
      await screen.findByText(
        /^Le dernier paiement a échoué\s: réglez-le avec «\sGérer mon moyen de paiement\s» pour retrouver un accès complet\. Accès limité/,
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Gérer mon moyen de paiement" })).toBeInTheDocument();
  });

  it("« Résilier » ne promet pas une période payée qui ne l'est pas", async () => {
    stubbed(overdue);
    renderApp("/dentist/subscription");
    await userEvent.setup().click(await screen.findByRole("button", { name: "Résilier" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent(
      /Le dernier paiement n'a pas abouti\s: votre abonnement ne sera plus renouvelé et prendra fin avec la période en cours, le 28 décembre 2026\./,
    );
    expect(dialog).not.toHaveTextContent(/période payée/);
  });
});

describe("changement de formule (ADR 096)", () => {
  const planned: SubscriptionSummary = {
    ...active,
    next_plan: { plan: "yearly", starts_at: "2026-12-28T09:00:00.000Z" },
  };
  const scheduled = BILLING_MESSAGES.planChangeScheduled("annuelle", "28 décembre 2026");
  /** The page's endpoints: GET answers `current()`, the others as given. */
  const stubs = (current: () => SubscriptionSummary, more: Parameters<typeof stubApi>[1] = {}) =>
    stubApi(dentist, {
      "GET /api/dentist/subscription": () => json(200, page(current())),
      "GET /api/dentist/billing-profile": () => json(200, { profile: null, suggestion: null }),
      "GET /api/dentist/invoices": () => json(200, { items: [], page: 1, page_size: 10, has_more: false }),
      ...more,
    });
  const calls = (fetchMock: ReturnType<typeof stubApi>, method: string, path: string) =>
    fetchMock.mock.calls.filter(([url, init]) => String(url) === path && (init?.method ?? "GET") === method);

  it("mensuel → annuel : le dialogue dit la date, le montant prélevé alors et l'économie ; la page dit ensuite le passage prévu", async () => {
    let current = active;
    const bodies: unknown[] = [];
    const fetchMock = stubs(() => current, {
      "POST /api/dentist/subscription/plan": (body) => {
        bodies.push(body);
        current = planned;
        return json(200, { subscription: planned, message: scheduled });
      },
    });
    const user = userEvent.setup();
    renderApp("/dentist/subscription");
    // « Prochain paiement » stays the server's.
    expect(
      await screen.findByText(/^Prochain paiement le 28 décembre 2026\s: 106,80\s€ TTC\.$/),
    ).toBeInTheDocument();
    expect(screen.queryByText(/écrivez-nous/)).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Passer à la formule annuelle" }));

    const dialog = await screen.findByRole("dialog", { name: /^Passer à la formule annuelle\s\?$/ });
    // 12 × 106,80 € = 1 281,60 € against 1 068,00 €: 213,60 € a year.
    expect(dialog).toHaveTextContent(
      spaced(
        "Votre formule mensuelle continue jusqu'au 28 décembre 2026. À cette date, la formule annuelle commence\u202f: 1\u202f068,00\u00a0€ TTC prélevés alors, puis chaque année, soit 213,60\u00a0€ d'économie sur un an par rapport à 12 mois en formule mensuelle. Rien n'est prélevé d'ici là, et vous pouvez annuler ce changement jusqu'à cette date.",
      ),
    );
    await user.click(within(dialog).getByRole("button", { name: "Passer à la formule annuelle" }));

    expect(await screen.findByText(spaced(scheduled))).toBeInTheDocument();
    expect(bodies).toEqual([{ plan: "yearly" }]);
    expect(calls(fetchMock, "POST", "/api/dentist/subscription/plan")).toHaveLength(1);
    expect(
      await screen.findByText(
        /^Passage à la formule annuelle le 28 décembre 2026 \(1\s068,00\s€ TTC par an\)\.$/,
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Annuler le changement" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Passer à la formule/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    // Cancelling the subscription now says it drops the change too.
    await user.click(screen.getByRole("button", { name: "Résilier" }));
    expect(await screen.findByRole("dialog")).toHaveTextContent(
      "Le changement de formule prévu sera annulé.",
    );
  });

  it("annuel → mensuel : le montant mensuel prélevé alors, sans économie annoncée", async () => {
    stubs(() => ({ ...active, plan: "yearly" }));
    const user = userEvent.setup();
    renderApp("/dentist/subscription");
    await user.click(await screen.findByRole("button", { name: "Passer à la formule mensuelle" }));
    const dialog = await screen.findByRole("dialog", { name: /^Passer à la formule mensuelle\s\?$/ });
    expect(dialog).toHaveTextContent(
      /Votre formule annuelle continue jusqu'au 28 décembre 2026\. À cette date, la formule mensuelle commence\s: 106,80\s€ TTC prélevés alors, puis chaque mois\. Rien n'est prélevé d'ici là/,
    );
    expect(dialog).not.toHaveTextContent(/économie/);
  });

  it("pendant l'essai gardé (ADR 085) : l'essai continue, le premier paiement est celui de la nouvelle formule", async () => {
    const keptTrial: SubscriptionSummary = {
      ...trial,
      plan: "monthly",
      has_provider_subscription: true,
      current_period_end: trial.changes_at,
    };
    const inTrial = BILLING_MESSAGES.planChangeScheduled("annuelle", "21 décembre 2026", true);
    let current = keptTrial;
    stubs(() => current, {
      "POST /api/dentist/subscription/plan": () => {
        current = { ...keptTrial, next_plan: { plan: "yearly", starts_at: trial.changes_at as string } };
        return json(200, { subscription: current, message: inTrial });
      },
    });
    const user = userEvent.setup();
    renderApp("/dentist/subscription");
    await user.click(await screen.findByRole("button", { name: "Passer à la formule annuelle" }));
    const dialog = await screen.findByRole("dialog", { name: /^Passer à la formule annuelle\s\?$/ });
    expect(dialog).toHaveTextContent(
      spaced(
        "Votre essai gratuit continue jusqu'au 21 décembre 2026. À cette date, votre abonnement commence en formule annuelle : 1 068,00\u00a0€ TTC prélevés alors, puis chaque année, soit 213,60\u00a0€ d'économie sur un an par rapport à 12 mois en formule mensuelle. Rien n'est prélevé d'ici là, et vous pouvez annuler ce changement jusqu'à cette date.",
      ),
    );
    await user.click(within(dialog).getByRole("button", { name: "Passer à la formule annuelle" }));
    expect(await screen.findByText(spaced(inTrial))).toBeInTheDocument();
    expect(
      await screen.findByText(
        /^Passage à la formule annuelle le 21 décembre 2026 \(1\s068,00\s€ TTC par an\)\.$/,
      ),
    ).toBeInTheDocument();
    // Dropping it keeps the plan chosen at checkout for the trial's end.
    await user.click(screen.getByRole("button", { name: "Annuler le changement" }));
    expect(
      await screen.findByRole("dialog", { name: /^Annuler le changement de formule\s\?$/ }),
    ).toHaveTextContent(
      "Votre abonnement commencera en formule mensuelle à la fin de votre essai, comme choisi lors de votre abonnement.",
    );
  });

  it("« Annuler le changement » : confirmé, DELETE, le message du serveur, et « Passer à … » revient", async () => {
    let current = planned;
    const fetchMock = stubs(() => current, {
      "DELETE /api/dentist/subscription/plan": () => {
        current = active;
        return json(200, { subscription: active, message: BILLING_MESSAGES.planChangeCancelled });
      },
    });
    const user = userEvent.setup();
    renderApp("/dentist/subscription");
    expect(await screen.findByText(/^Passage à la formule annuelle le 28 décembre 2026/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Passer à la formule/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Annuler le changement" }));

    const dialog = await screen.findByRole("dialog", { name: /^Annuler le changement de formule\s\?$/ });
    expect(dialog).toHaveTextContent("Votre formule mensuelle continuera d'être renouvelée chaque mois.");
    await user.click(within(dialog).getByRole("button", { name: "Annuler le changement" }));

    expect(await screen.findByText(spaced(BILLING_MESSAGES.planChangeCancelled))).toBeInTheDocument();
    expect(calls(fetchMock, "DELETE", "/api/dentist/subscription/plan")).toHaveLength(1);
    expect(await screen.findByRole("button", { name: "Passer à la formule annuelle" })).toBeInTheDocument();
    expect(screen.queryByText(/^Passage à la formule/)).not.toBeInTheDocument();
  });

  it("un refus (409) dit le message du serveur et n'annonce aucun changement", async () => {
    stubs(() => active, {
      "POST /api/dentist/subscription/plan": () =>
        json(409, { error: { code: "CONFLICT", message: BILLING_MESSAGES.planChangeUnavailable } }),
    });
    const user = userEvent.setup();
    renderApp("/dentist/subscription");
    await user.click(await screen.findByRole("button", { name: "Passer à la formule annuelle" }));
    const dialog = await screen.findByRole("dialog");
    await user.click(within(dialog).getByRole("button", { name: "Passer à la formule annuelle" }));

    expect(await screen.findByText(spaced(BILLING_MESSAGES.planChangeUnavailable))).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.queryByText(/^Passage à la formule/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Changement de formule enregistré/)).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Annuler le changement" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Passer à la formule annuelle" })).toBeInTheDocument();
  });

  it("ni pendant un essai résilié, ni une fois résilié, ni en impayé, ni sans vérification : pas de « Passer à … »", async () => {
    // The same page for a paid subscription that renews offers it: the query below is the right one.
    stubs(() => active);
    const first = renderApp("/dentist/subscription");
    expect(await screen.findByRole("button", { name: /^Passer à la formule/ })).toBeInTheDocument();
    first.unmount();

    const cases: SubscriptionSummary[] = [
      // Subscribed during the trial, then cancelled: nothing will be charged, nothing to change.
      { ...trial, plan: "monthly", has_provider_subscription: true, cancel_at_period_end: true },
      { ...active, phase: "ending", cancel_at_period_end: true },
      { ...active, status: "past_due", phase: "past_due" },
    ];
    for (const subscription of cases) {
      stubs(() => subscription);
      const { unmount } = renderApp("/dentist/subscription");
      expect(await screen.findByRole("button", { name: "Gérer mon moyen de paiement" })).toBeInTheDocument();
      expect(screen.queryByRole("button", { name: /^Passer à la formule/ })).not.toBeInTheDocument();
      expect(screen.queryByRole("button", { name: "Annuler le changement" })).not.toBeInTheDocument();
      unmount();
    }
    // His verification withdrawn (ADR 093): the server refuses a change as a new subscription.
    stubApi(makeDentist({ is_verified: false }), {
      "GET /api/dentist/subscription": () => json(200, page(active)),
      "GET /api/dentist/billing-profile": () => json(200, { profile: null, suggestion: null }),
      "GET /api/dentist/invoices": () => json(200, { items: [], page: 1, page_size: 10, has_more: false }),
    });
    renderApp("/dentist/subscription");
    expect(await screen.findByRole("button", { name: "Résilier" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Passer à la formule/ })).not.toBeInTheDocument();
  });
});
