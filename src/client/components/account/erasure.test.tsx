import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ERASED_MESSAGE_BODY, ERASED_NAME, ERASURE_MESSAGES } from "../../../shared/schemas/account";
import { BILLING_MESSAGES } from "../../../shared/schemas/billing";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";
import { spaced } from "../../test/text";

const patient = makeProfile();
const dentist = makeProfile({ role: "dentist", email: "dr@example.fr", full_name: "Paul Martin" });
const sessions = { "GET /api/account/sessions": () => json(200, { sessions: [] }) };

const calls = (fetchMock: ReturnType<typeof stubApi>, key: string) =>
  fetchMock.mock.calls.filter(([input, init]) => `${init?.method ?? "GET"} ${String(input)}` === key);

/** The 'Supprimer mon compte' card of 'Mes données'. */
async function erasureCard() {
  const heading = await screen.findByRole("heading", { level: 3, name: "Supprimer mon compte" });
  return heading.closest("div.rounded-ui") as HTMLElement;
}

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  const card = await erasureCard();
  await user.click(within(card).getByRole("button", { name: "Supprimer mon compte" }));
  return screen.findByRole("dialog", { name: "Supprimer définitivement votre compte\u202f?" });
}

/** Opens the dialog, types `secret` as the password and confirms. */
async function confirmWith(user: ReturnType<typeof userEvent.setup>, secret: string) {
  const dialog = await openDialog(user);
  const password = within(dialog).getByLabelText(/^Mot de passe/);
  await user.type(password, secret);
  await user.click(within(dialog).getByRole("button", { name: "Supprimer mon compte" }));
  return { dialog, password };
}

describe("Mes données : supprimer mon compte", () => {
  it("explique ce qui est effacé et conservé, et demande le mot de passe avant tout envoi", async () => {
    const fetchMock = stubApi(patient, sessions);
    const user = userEvent.setup();
    renderApp("/patient/profile");
    const card = await erasureCard();
    expect(card).toHaveTextContent("Ce qui est effacé");
    expect(card).toHaveTextContent(`« ${ERASED_MESSAGE_BODY} »`);
    expect(card).toHaveTextContent(`« ${ERASED_NAME} »`);
    expect(card).toHaveTextContent("le montant accepté reste dans la comptabilité du dentiste");
    expect(card).not.toHaveTextContent("Vos factures et avoirs Sourio");
    expect(card).not.toHaveTextContent("abonnement");
    expect(card).toHaveTextContent("Pensez à télécharger vos données avant.");
    expect(within(card).getByRole("button", { name: "Supprimer mon compte" })).toHaveAccessibleDescription(
      /Cette action est définitive/,
    );

    const dialog = await openDialog(user);
    const password = within(dialog).getByLabelText(/^Mot de passe/);
    expect(password).toHaveAttribute("autocomplete", "current-password");
    expect(password).toHaveAttribute("type", "password");
    await user.click(within(dialog).getByRole("button", { name: "Supprimer mon compte" }));
    await waitFor(() => expect(password).toHaveAccessibleDescription(ERASURE_MESSAGES.passwordRequired));
    expect(calls(fetchMock, "POST /api/account/delete")).toHaveLength(0);

    // 'Garder mon compte' closes the dialog; nothing was sent.
    await user.click(within(dialog).getByRole("button", { name: "Garder mon compte" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(calls(fetchMock, "POST /api/account/delete")).toHaveLength(0);
  });

  it("affiche le refus du mot de passe sous le champ", async () => {
    const fetchMock = stubApi(patient, {
      ...sessions,
      "POST /api/account/delete": () =>
        json(400, {
          error: {
            code: "VALIDATION_ERROR",
            message: ERASURE_MESSAGES.passwordWrong,
            fields: { password: ERASURE_MESSAGES.passwordWrong },
          },
        }),
    });
    const user = userEvent.setup();
    const { router } = renderApp("/patient/profile");
    const { dialog, password } = await confirmWith(user, "pas-le-bon");

    await waitFor(() => expect(password).toHaveAccessibleDescription(ERASURE_MESSAGES.passwordWrong));
    expect(password).toHaveAttribute("aria-invalid", "true");
    expect(password).toHaveFocus();
    expect(within(dialog).queryByRole("alert")).not.toBeInTheDocument();
    const [, init] = calls(fetchMock, "POST /api/account/delete")[0] ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({ password: "pas-le-bon" });
    expect(router.state.location.pathname).toBe("/patient/profile");
  });

  it.each([
    [409, ERASURE_MESSAGES.upcomingAppointments(false), "CONFLICT"],
    [429, ERASURE_MESSAGES.tooManyAttempts, "RATE_LIMITED"],
  ])("montre la réponse %i dans une alerte du dialogue", async (status, message, code) => {
    stubApi(patient, {
      ...sessions,
      "POST /api/account/delete": () => json(status, { error: { code, message } }),
    });
    const user = userEvent.setup();
    const { router } = renderApp("/patient/profile");
    const { dialog, password } = await confirmWith(user, "mon-secret");

    expect(await within(dialog).findByRole("alert")).toHaveTextContent(spaced(message));
    expect(password).not.toHaveAttribute("aria-invalid");
    expect(password).toBeEnabled();
    expect(router.state.location.pathname).toBe("/patient/profile");
  });

  it("supprime le compte, déconnecte, mène à l'accueil et le dit", async () => {
    // The home page's hero video autoplays (jsdom has no media playback).
    vi.spyOn(HTMLMediaElement.prototype, "play").mockResolvedValue(undefined);
    let erased = false;
    const fetchMock = stubApi(patient, {
      ...sessions,
      "GET /api/me": () =>
        erased
          ? json(401, {
              error: { code: "UNAUTHENTICATED", message: "Veuillez vous connecter pour continuer." },
            })
          : json(200, { profile: patient }),
      "POST /api/account/delete": () => {
        erased = true;
        return json(200, { message: ERASURE_MESSAGES.erased });
      },
    });
    const user = userEvent.setup();
    const { router, client } = renderApp("/patient/profile");
    await confirmWith(user, "mon-secret");

    expect(await screen.findByText(ERASURE_MESSAGES.erased)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    // Signed out: the public top bar offers 'Connexion', not 'Mon espace'.
    expect((await screen.findAllByRole("link", { name: "Connexion" }))[0]).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Mon espace" })).not.toBeInTheDocument();
    // Nothing of the erased account stays in the cache.
    expect(client.getQueryCache().findAll({ queryKey: ["account"] })).toHaveLength(0);
    expect(calls(fetchMock, "POST /api/account/delete")).toHaveLength(1);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("adapte l'explication au dentiste", async () => {
    stubApi(dentist, sessions);
    renderApp("/dentist/profile");
    const card = await erasureCard();
    expect(card).toHaveTextContent("les propositions que des patients ont acceptées");
    expect(card).not.toHaveTextContent("comptabilité du dentiste");
    // Sourio's invoices outlive the account, as the law requires (issue 35).
    expect(card).toHaveTextContent(
      "Vos factures et avoirs Sourio sont conservés 10 ans tels qu'ils ont été émis",
    );
    // A live subscription is cancelled at the provider before the erasure (issue 35).
    expect(card).toHaveTextContent(
      /Votre abonnement Sourio, s'il est en cours, est résilié immédiatement auprès de notre prestataire de paiement, avant la suppression\s: plus aucun paiement ne sera prélevé\./,
    );
  });

  it("un dentiste abonné : la suppression dit que l'abonnement est résilié ; l'échec du prestataire est montré", async () => {
    vi.spyOn(HTMLMediaElement.prototype, "play").mockResolvedValue(undefined);
    let providerUp = false;
    stubApi(dentist, {
      ...sessions,
      "POST /api/account/delete": () =>
        providerUp
          ? json(200, { message: ERASURE_MESSAGES.erasedWithSubscription })
          : json(503, {
              error: { code: "SERVICE_UNAVAILABLE", message: BILLING_MESSAGES.erasureCancelFailed },
            }),
    });
    const user = userEvent.setup();
    const { router } = renderApp("/dentist/profile");
    const { dialog } = await confirmWith(user, "mon-secret");
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "votre compte n'a donc pas été supprimé",
    );
    expect(router.state.location.pathname).toBe("/dentist/profile");
    providerUp = true;
    await user.click(within(dialog).getByRole("button", { name: "Supprimer mon compte" }));
    expect(
      await screen.findByText(
        /Vos données ont été effacées et votre abonnement est résilié\s: plus aucun paiement/,
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
  });

  it("ne propose pas la suppression à un administrateur", async () => {
    stubApi(makeProfile({ is_admin: true }), sessions);
    renderApp("/patient/profile");
    const card = await erasureCard();
    expect(card).toHaveTextContent(spaced(ERASURE_MESSAGES.adminAccount));
    expect(within(card).queryByRole("button", { name: "Supprimer mon compte" })).not.toBeInTheDocument();
  });
});
