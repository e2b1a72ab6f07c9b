/** A session that ends while a page is open: the password again over the page, nothing lost. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ACCOUNT_MESSAGES } from "../../../shared/schemas/account";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";
import { spaced } from "../../test/text";
import { SESSION_ENDED } from "./SessionEnded";

afterEach(() => vi.unstubAllGlobals());

const patient = makeProfile();
const signedOut = () =>
  json(401, { error: { code: "UNAUTHENTICATED", message: "Veuillez vous connecter pour continuer." } });
const TITLE = "Votre session a pris fin";

/** The profile page whose save is refused once as signed out, then accepted; the logins it got. */
type Answer = { status: number; body?: unknown };
function profilePage(login: (body: unknown) => Answer, more: Record<string, (body: unknown) => Answer> = {}) {
  const saves: unknown[] = [];
  const logins: unknown[] = [];
  let refused = false;
  const fetchMock = stubApi(patient, {
    "PATCH /api/me": (body) => {
      if (!refused) {
        refused = true;
        return signedOut();
      }
      saves.push(body);
      return json(200, { profile: patient });
    },
    "POST /api/account/login": (body) => {
      logins.push(body);
      return login(body);
    },
    ...more,
  });
  return { saves, logins, fetchMock };
}

describe("une session qui prend fin pendant qu'une page est ouverte", () => {
  it("demande le mot de passe du même compte par-dessus la page, puis garde ce qui était saisi", async () => {
    const user = userEvent.setup();
    const { saves, logins } = profilePage((body) =>
      (body as { password: string }).password === "bon-mot-de-passe"
        ? json(200, { profile: patient })
        : json(401, { error: { code: "INVALID_CREDENTIALS", message: "E-mail ou mot de passe incorrect" } }),
    );
    renderApp("/patient/profile");
    const phone = await screen.findByLabelText("Téléphone (optionnel)");
    await user.type(phone, "06 12 34 56 78");
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));

    const dialog = await screen.findByRole("dialog", { name: TITLE });
    expect(within(dialog).getByText(spaced(SESSION_ENDED.description))).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^E-mail/)).toHaveValue(patient.email);
    const password = within(dialog).getByLabelText(/^Mot de passe/);
    await waitFor(() => expect(password).toHaveFocus());

    await user.type(password, "mauvais");
    await user.click(within(dialog).getByRole("button", { name: "Se reconnecter" }));
    expect(await within(dialog).findByText(SESSION_ENDED.wrongPassword)).toBeInTheDocument();
    expect(password).toHaveFocus();

    await user.clear(password);
    await user.type(password, "bon-mot-de-passe");
    await user.click(within(dialog).getByRole("button", { name: "Se reconnecter" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(await screen.findByText(SESSION_ENDED.back)).toBeInTheDocument();
    expect(logins).toEqual([
      { email: patient.email, password: "mauvais", remember_me: false },
      { email: patient.email, password: "bon-mot-de-passe", remember_me: false },
    ]);

    // The page and what was typed in it are still there: saving works now.
    expect(screen.getByLabelText("Téléphone (optionnel)")).toHaveValue("06 12 34 56 78");
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    await screen.findByText("Profil mis à jour avec succès");
    expect(saves).toEqual([expect.objectContaining({ phone_number: "06 12 34 56 78" })]);
  });

  it("lit à nouveau ce qui avait échoué une fois reconnecté", async () => {
    const user = userEvent.setup();
    let signedIn = false;
    const fetchMock = stubApi(patient, {
      "GET /api/patient/dashboard": () =>
        signedIn
          ? json(200, { counts: { active: 2, completed: 0, latest_at: null, support_unread: 0 }, recent: [] })
          : signedOut(),
      "POST /api/account/login": () => {
        signedIn = true;
        return json(200, { profile: patient });
      },
    });
    renderApp("/patient/dashboard");
    const dialog = await screen.findByRole("dialog", { name: TITLE });
    await user.type(within(dialog).getByLabelText(/^Mot de passe/), "bon-mot-de-passe");
    await user.click(within(dialog).getByRole("button", { name: "Se reconnecter" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const reads = () =>
      fetchMock.mock.calls.filter(
        ([url]) => new URL(String(url), "http://localhost").pathname === "/api/patient/dashboard",
      );
    await waitFor(() => expect(reads().length).toBeGreaterThanOrEqual(2));
  });

  it("avec la connexion en deux étapes, demande aussi le code de l'application", async () => {
    const user = userEvent.setup();
    const codes: unknown[] = [];
    profilePage(() => json(202, { second_factor: true }), {
      "POST /api/account/login/code": (body) => {
        codes.push(body);
        return json(200, { profile: patient });
      },
    });
    renderApp("/patient/profile");
    await user.type(await screen.findByLabelText("Téléphone (optionnel)"), "06 12 34 56 78");
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    const dialog = await screen.findByRole("dialog", { name: TITLE });
    await user.type(within(dialog).getByLabelText(/^Mot de passe/), "bon-mot-de-passe");
    await user.click(within(dialog).getByRole("button", { name: "Se reconnecter" }));
    await user.type(await within(dialog).findByLabelText(/^Code de vérification/), "123456");
    await user.click(within(dialog).getByRole("button", { name: "Valider" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(await screen.findByText(SESSION_ENDED.back)).toBeInTheDocument();
    expect(codes).toEqual([{ code: "123456", trust_device: false }]);
    expect(screen.getByLabelText("Téléphone (optionnel)")).toHaveValue("06 12 34 56 78");
  });

  it("un compte suspendu entre-temps : le dit dans la fenêtre, avec le formulaire de contact", async () => {
    const user = userEvent.setup();
    profilePage(() =>
      json(403, { error: { code: "ACCOUNT_SUSPENDED", message: ACCOUNT_MESSAGES.suspended } }),
    );
    renderApp("/patient/profile");
    await screen.findByLabelText("Téléphone (optionnel)");
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    const dialog = await screen.findByRole("dialog", { name: TITLE });
    await user.type(within(dialog).getByLabelText(/^Mot de passe/), "bon-mot-de-passe");
    await user.click(within(dialog).getByRole("button", { name: "Se reconnecter" }));
    const alert = await within(dialog).findByRole("alert");
    expect(alert).toHaveTextContent(/Ce compte est suspendu\s:/);
    expect(within(alert).getByRole("link", { name: "Ouvrir le formulaire de contact" })).toHaveAttribute(
      "href",
      "/contact",
    );
  });

  it("fermée, elle revient au refus suivant", async () => {
    const user = userEvent.setup();
    stubApi(patient, { "PATCH /api/me": signedOut });
    renderApp("/patient/profile");
    await screen.findByLabelText("Téléphone (optionnel)");
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    await screen.findByRole("dialog", { name: TITLE });
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    expect(await screen.findByRole("dialog", { name: TITLE })).toBeInTheDocument();
  });

  it("« Se connecter avec un autre compte » oublie cette session et mène à la connexion, avec retour à la page", async () => {
    const user = userEvent.setup();
    stubApi(patient, { "PATCH /api/me": signedOut });
    const { router } = renderApp("/patient/profile");
    await screen.findByLabelText("Téléphone (optionnel)");
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    const dialog = await screen.findByRole("dialog", { name: TITLE });
    await user.click(within(dialog).getByRole("button", { name: SESSION_ENDED.otherAccount }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent("/patient/profile")}`);
  });

  it("un 401 d'une autre nature (identifiants refusés) ne l'ouvre pas", async () => {
    const user = userEvent.setup();
    stubApi(patient, {
      "PATCH /api/me": () =>
        json(401, { error: { code: "INVALID_CREDENTIALS", message: "E-mail ou mot de passe incorrect" } }),
    });
    renderApp("/patient/profile");
    await screen.findByLabelText("Téléphone (optionnel)");
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    await screen.findByText(/E-mail ou mot de passe incorrect/);
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});
