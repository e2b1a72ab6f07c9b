import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeDentist, makeDentistRequestDetail } from "../test/dentist";
import { json, makeProfile, renderApp, stubApi } from "../test/renderApp";

/** What the browser does before a reload or a closed tab: asks when a listener prevents it. */
function leavingAsks(): boolean {
  const event = new Event("beforeunload", { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

const REQUEST_ID = "22222222-2222-4222-8222-222222222222";
const PROPOSAL = `/dentist/quote-request/${REQUEST_ID}`;

/** A dentist's proposal form on a request, nothing typed yet. */
function openProposal() {
  stubApi(makeDentist(), {
    [`GET /api/dentist/requests/${REQUEST_ID}`]: () => json(200, makeDentistRequestDetail(REQUEST_ID)),
    [`GET /api/dentist/requests/${REQUEST_ID}/offer`]: () =>
      json(200, { offer: null, may_offer: true, patient_age: 42, last_fees: [] }),
  });
  const user = userEvent.setup();
  const { router } = renderApp(PROPOSAL);
  return { user, router };
}

describe("quitter une page avec un formulaire commencé", () => {
  it("la nouvelle demande : rien tant qu'il est vide, le navigateur demande dès qu'on a écrit", async () => {
    stubApi(makeProfile(), { "GET /api/dentists/verified": () => json(200, { items: [] }) });
    const user = userEvent.setup();
    const { unmount } = renderApp("/patient/upload");
    const description = await screen.findByLabelText(/^Description/);
    expect(leavingAsks()).toBe(false);
    await user.type(description, "Couronne sur la 46");
    expect(leavingAsks()).toBe(true);
    await user.clear(description);
    expect(leavingAsks()).toBe(false);
    await user.type(description, "Couronne");
    // Left inside the app: the listener goes with the page.
    unmount();
    expect(leavingAsks()).toBe(false);
  });

  it("la proposition du dentiste : le navigateur demande dès qu'un montant est saisi", async () => {
    const { user } = openProposal();
    const amount = await screen.findByLabelText(/Montant de la proposition/);
    expect(leavingAsks()).toBe(false);
    await user.type(amount, "850");
    expect(leavingAsks()).toBe(true);
  });

  it("un lien de l'application demande aussi : rester garde la saisie, quitter suit le lien", async () => {
    const { user, router } = openProposal();
    const amount = await screen.findByLabelText(/Montant de la proposition/);
    const messagesLink = () =>
      within(screen.getByRole("navigation", { name: /^Espace (patient|dentiste)$/ })).getByRole("link", {
        name: "Messages",
      });
    await user.type(amount, "850");

    await user.click(messagesLink());
    const dialog = await screen.findByRole("dialog", { name: /^Abandonner cette proposition/ });
    expect(router.state.location.pathname).toBe(PROPOSAL);
    await user.click(within(dialog).getByRole("button", { name: "Continuer ma proposition" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(router.state.location.pathname).toBe(PROPOSAL);
    expect(screen.getByLabelText(/Montant de la proposition/)).toHaveValue("850");

    await user.click(messagesLink());
    await user.click(
      within(await screen.findByRole("dialog")).getByRole("button", { name: "Abandonner la proposition" }),
    );
    expect(router.state.location.pathname).toBe("/dentist/messages");
  });

  it("« Retour » de la page demande aussi : rester garde la saisie, quitter revient en arrière", async () => {
    const { user, router } = openProposal();
    const amount = await screen.findByLabelText(/Montant de la proposition/);
    await user.type(amount, "850");
    const back = screen.getByRole("button", { name: "Retour" });

    await user.click(back);
    const dialog = await screen.findByRole("dialog", { name: /^Abandonner cette proposition/ });
    await user.click(within(dialog).getByRole("button", { name: "Continuer ma proposition" }));
    expect(router.state.location.pathname).toBe(PROPOSAL);
    expect(screen.getByLabelText(/Montant de la proposition/)).toHaveValue("850");

    await user.click(back);
    await user.click(
      within(await screen.findByRole("dialog")).getByRole("button", { name: "Abandonner la proposition" }),
    );
    // No history in this test: « Retour » leads to the list of requests.
    expect(router.state.location.pathname).toBe("/dentist/quote-requests");
  });

  it("« Retour » sans rien de saisi ne demande rien", async () => {
    const { user, router } = openProposal();
    await screen.findByLabelText(/Montant de la proposition/);
    await user.click(screen.getByRole("button", { name: "Retour" }));
    expect(router.state.location.pathname).toBe("/dentist/quote-requests");
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  // That the menu then closes is the browser's to show (a journey: patient.spec.ts).
  it("depuis le menu du téléphone aussi : la question, puis le lien suivi", async () => {
    const { user, router } = openProposal();
    await user.type(await screen.findByLabelText(/Montant de la proposition/), "850");
    await user.click(screen.getByRole("button", { name: /Ouvrir le menu/ }));
    const menu = await screen.findByRole("navigation", { name: "Navigation mobile — Espace dentiste" });
    await user.click(within(menu).getByRole("link", { name: "Messages" }));
    const question = await screen.findByRole("dialog", { name: /^Abandonner cette proposition/ });
    await user.click(within(question).getByRole("button", { name: "Abandonner la proposition" }));
    expect(router.state.location.pathname).toBe("/dentist/messages");
    await waitFor(() => expect(screen.queryAllByRole("dialog")).toEqual([]));
  });

  it("un formulaire vide ne retient pas : le lien est suivi sans question", async () => {
    stubApi(makeProfile(), { "GET /api/dentists/verified": () => json(200, { items: [] }) });
    const user = userEvent.setup();
    const { router } = renderApp("/patient/upload");
    await screen.findByLabelText(/^Description/);
    await user.click(
      within(screen.getByRole("navigation", { name: /^Espace (patient|dentiste)$/ })).getByRole("link", {
        name: "Messages",
      }),
    );
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(router.state.location.pathname).toBe("/patient/messages");
  });

  it("la nouvelle demande commencée : le lien demande avec les mots de « Annuler »", async () => {
    stubApi(makeProfile(), { "GET /api/dentists/verified": () => json(200, { items: [] }) });
    const user = userEvent.setup();
    const { router } = renderApp("/patient/upload");
    await user.type(await screen.findByLabelText(/^Description/), "Couronne");
    await user.click(
      within(screen.getByRole("navigation", { name: /^Espace (patient|dentiste)$/ })).getByRole("link", {
        name: "Messages",
      }),
    );
    const dialog = await screen.findByRole("dialog", { name: /^Abandonner cette demande/ });
    await user.click(within(dialog).getByRole("button", { name: "Abandonner la demande" }));
    expect(router.state.location.pathname).toBe("/patient/messages");
  });
});
