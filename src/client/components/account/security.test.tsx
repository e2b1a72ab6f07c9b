import { onlineManager } from "@tanstack/react-query";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { AccountSession } from "../../../shared/schemas/account";
import {
  EMAIL_CHANGE_MESSAGES,
  otherSessionsRevokedMessage,
  SECURITY_ANCHOR,
  SECURITY_MESSAGES,
  securityPath,
} from "../../../shared/schemas/account";
import { TWO_FACTOR_MESSAGES, type TwoFactorSetup } from "../../../shared/schemas/twoFactor";
import { DEFAULT_NETWORK_MESSAGE } from "../../lib/api";
import { failingUntilRecovered, json, makeProfile, renderApp, stubApi } from "../../test/renderApp";
import { spaced } from "../../test/text";

const patient = makeProfile();
const dentist = makeProfile({ role: "dentist", email: "dr@example.fr", full_name: "Paul Martin" });

const session = (overrides: Partial<AccountSession>): AccountSession => ({
  id: "00000000-0000-4000-8000-00000000000a",
  device: "Chrome sur Windows",
  ip: "203.0.113.*",
  created_at: "2026-11-20T09:00:00.000Z",
  last_active_at: "2026-11-21T13:05:00.000Z",
  expires_at: "2026-12-20T09:00:00.000Z",
  current: false,
  ...overrides,
});
const thisPc = session({ current: true });
const phone = session({
  id: "00000000-0000-4000-8000-00000000000b",
  device: "Safari sur iPhone",
  ip: "198.51.100.*",
});

const devicesList = () => screen.findByRole("list", { name: "Appareils connectés" });
const calls = (fetchMock: ReturnType<typeof stubApi>, key: string) =>
  fetchMock.mock.calls.filter(([input, init]) => `${init?.method ?? "GET"} ${String(input)}` === key);

describe("Sécurité : changer mon mot de passe", () => {
  it("montre les erreurs en français à côté des champs avant tout envoi", async () => {
    const fetchMock = stubApi(patient, {
      "GET /api/account/sessions": () => json(200, { sessions: [thisPc] }),
    });
    const user = userEvent.setup();
    renderApp("/patient/profile");
    const form = await screen.findByRole("form", { name: "Changer mon mot de passe" });
    expect(within(form).getByLabelText(/^Mot de passe actuel/)).toHaveAttribute(
      "autocomplete",
      "current-password",
    );

    await user.type(within(form).getByLabelText(/^Nouveau mot de passe/), "123");
    await user.type(within(form).getByLabelText(/^Confirmer le nouveau mot de passe/), "456");
    await user.click(within(form).getByRole("button", { name: "Changer mon mot de passe" }));

    const current = within(form).getByLabelText(/^Mot de passe actuel/);
    await waitFor(() => expect(current).toHaveAttribute("aria-invalid", "true"));
    expect(current).toHaveAccessibleDescription(SECURITY_MESSAGES.currentPasswordRequired);
    expect(within(form).getByLabelText(/^Nouveau mot de passe/)).toHaveAccessibleDescription(
      /Le mot de passe doit contenir au moins 8 caractères/,
    );
    // Said once, under the field: the strength meter does not repeat it.
    expect(within(form).getAllByText("Le mot de passe doit contenir au moins 8 caractères")).toHaveLength(1);
    expect(within(form).getByLabelText(/^Confirmer le nouveau mot de passe/)).toHaveAccessibleDescription(
      "Les mots de passe ne correspondent pas",
    );
    expect(calls(fetchMock, "POST /api/account/password")).toHaveLength(0);
  });

  it("affiche le refus du serveur sous 'Mot de passe actuel', puis réussit, vide le formulaire et le dit", async () => {
    let attempts = 0;
    const fetchMock = stubApi(patient, {
      "GET /api/account/sessions": () => json(200, { sessions: [thisPc] }),
      "POST /api/account/password": () => {
        attempts += 1;
        return attempts === 1
          ? json(400, {
              error: {
                code: "VALIDATION_ERROR",
                message: SECURITY_MESSAGES.currentPasswordWrong,
                fields: { current_password: SECURITY_MESSAGES.currentPasswordWrong },
              },
            })
          : json(200, { message: SECURITY_MESSAGES.passwordChanged });
      },
    });
    const user = userEvent.setup();
    renderApp("/patient/profile");
    const form = await screen.findByRole("form", { name: "Changer mon mot de passe" });
    const current = within(form).getByLabelText(/^Mot de passe actuel/);
    await user.type(current, "pas-le-bon");
    await user.type(within(form).getByLabelText(/^Nouveau mot de passe/), "nouveau-secret");
    await user.type(within(form).getByLabelText(/^Confirmer le nouveau mot de passe/), "nouveau-secret");
    await user.click(within(form).getByRole("button", { name: "Changer mon mot de passe" }));

    await waitFor(() => expect(current).toHaveAccessibleDescription(SECURITY_MESSAGES.currentPasswordWrong));
    expect(current).toHaveFocus();
    const [, init] = calls(fetchMock, "POST /api/account/password")[0] ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({
      current_password: "pas-le-bon",
      new_password: "nouveau-secret",
      new_password_confirmation: "nouveau-secret",
    });

    await user.clear(current);
    await user.type(current, "ancien-secret");
    await user.click(within(form).getByRole("button", { name: "Changer mon mot de passe" }));
    expect(await screen.findByText("Mot de passe modifié")).toBeInTheDocument();
    expect(screen.getByText(spaced(SECURITY_MESSAGES.passwordChanged))).toBeInTheDocument();
    expect(current).toHaveValue("");
    expect(current).not.toHaveAttribute("aria-invalid");
    // The devices list is read again (the other devices are gone).
    await waitFor(() => expect(calls(fetchMock, "GET /api/account/sessions")).toHaveLength(2));
  });
});

describe("hors ligne", () => {
  it("dit tout de suite que le service est injoignable, sans attendre le retour du réseau, et garde la saisie", async () => {
    const fetchMock = stubApi(patient, {
      "GET /api/account/sessions": () => json(200, { sessions: [thisPc] }),
      "POST /api/account/password": () => {
        throw new TypeError("Failed to fetch");
      },
    });
    const user = userEvent.setup();
    renderApp("/patient/profile");
    const form = await screen.findByRole("form", { name: "Changer mon mot de passe" });
    await user.type(within(form).getByLabelText(/^Mot de passe actuel/), "ancien-secret");
    await user.type(within(form).getByLabelText(/^Nouveau mot de passe/), "nouveau-secret");
    await user.type(within(form).getByLabelText(/^Confirmer le nouveau mot de passe/), "nouveau-secret");
    onlineManager.setOnline(false);
    try {
      await user.click(within(form).getByRole("button", { name: "Changer mon mot de passe" }));
      expect(await screen.findByText(DEFAULT_NETWORK_MESSAGE)).toBeInTheDocument();
    } finally {
      onlineManager.setOnline(true);
    }
    expect(calls(fetchMock, "POST /api/account/password")).toHaveLength(1);
    expect(within(form).getByLabelText(/^Mot de passe actuel/)).toHaveValue("ancien-secret");
    expect(within(form).getByRole("button", { name: "Changer mon mot de passe" })).toBeEnabled();
  });
});

describe("Sécurité : appareils connectés", () => {
  it("marque 'Cet appareil', propose de déconnecter les autres après confirmation, puis relit la liste", async () => {
    let sessions = [phone, thisPc];
    const fetchMock = stubApi(patient, {
      "GET /api/account/sessions": () => json(200, { sessions }),
      [`DELETE /api/account/sessions/${phone.id}`]: () => {
        sessions = [thisPc];
        return json(200, { message: SECURITY_MESSAGES.sessionRevoked, signed_out: false });
      },
    });
    const user = userEvent.setup();
    renderApp("/patient/profile");
    const list = await devicesList();
    const items = within(list).getAllByRole("listitem");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent("Safari sur iPhone");
    expect(items[0]).toHaveTextContent("Adresse IP : 198.51.100.*");
    // One format on the line: both dates written out, with the time.
    expect(items[0]).toHaveTextContent(
      "Connecté le 20 novembre 2026 à 10:00 · dernière activité le 21 novembre 2026 à 14:05",
    );
    expect(within(items[1] as HTMLElement).getByText("Cet appareil")).toBeInTheDocument();
    expect(within(items[1] as HTMLElement).queryByRole("button")).not.toBeInTheDocument();

    const button = within(items[0] as HTMLElement).getByRole("button", {
      name: "Se déconnecter de cet appareil",
    });
    expect(button).toHaveAccessibleDescription("Safari sur iPhone");
    await user.click(button);
    const dialog = await screen.findByRole("dialog", { name: "Déconnecter cet appareil\u202f?" });
    expect(dialog).toHaveTextContent("Safari sur iPhone n'aura plus accès à votre compte");
    // Cancelling sends nothing.
    await user.click(within(dialog).getByRole("button", { name: "Annuler" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(calls(fetchMock, `DELETE /api/account/sessions/${phone.id}`)).toHaveLength(0);

    await user.click(button);
    await user.click(
      within(await screen.findByRole("dialog")).getByRole("button", { name: "Déconnecter l'appareil" }),
    );
    expect(await screen.findByText("Appareil déconnecté")).toBeInTheDocument();
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(1));
    expect(within(list).queryByText("Safari sur iPhone")).not.toBeInTheDocument();
    expect(calls(fetchMock, `DELETE /api/account/sessions/${phone.id}`)).toHaveLength(1);
  });

  it("déconnecte d'un coup les autres appareils, à partir de deux, après confirmation", async () => {
    const tablet = session({ id: "00000000-0000-4000-8000-00000000000c", device: "Chrome sur Android" });
    let sessions = [tablet, phone, thisPc];
    const fetchMock = stubApi(patient, {
      "GET /api/account/sessions": () => json(200, { sessions }),
      "DELETE /api/account/sessions": () => {
        sessions = [thisPc];
        return json(200, { message: otherSessionsRevokedMessage(2), revoked: 2 });
      },
    });
    const user = userEvent.setup();
    renderApp("/patient/profile");
    const list = await devicesList();
    const button = await screen.findByRole("button", { name: "Déconnecter les autres appareils" });
    await user.click(button);
    const dialog = await screen.findByRole("dialog", { name: "Déconnecter vos autres appareils\u202f?" });
    expect(dialog).toHaveTextContent(
      spaced("Les 2 autres appareils n'auront plus accès à votre compte : il faudra s'y reconnecter"),
    );
    expect(dialog).toHaveTextContent("Cet appareil reste connecté.");
    // Cancelling sends nothing.
    await user.click(within(dialog).getByRole("button", { name: "Annuler" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(calls(fetchMock, "DELETE /api/account/sessions")).toHaveLength(0);

    await user.click(button);
    await user.click(
      within(await screen.findByRole("dialog")).getByRole("button", {
        name: "Déconnecter les autres appareils",
      }),
    );
    expect(await screen.findByText("Appareils déconnectés")).toBeInTheDocument();
    expect(
      screen.getByText("Les 2 autres appareils ont été déconnectés de votre compte."),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(1));
    expect(calls(fetchMock, "DELETE /api/account/sessions")).toHaveLength(1);
    // Nothing else to sign out: the button is gone.
    expect(
      screen.queryByRole("button", { name: "Déconnecter les autres appareils" }),
    ).not.toBeInTheDocument();
  });

  it("ne propose pas de tout déconnecter pour un seul autre appareil (son bouton suffit)", async () => {
    stubApi(patient, { "GET /api/account/sessions": () => json(200, { sessions: [phone, thisPc] }) });
    renderApp("/patient/profile");
    const list = await devicesList();
    expect(within(list).getAllByRole("listitem")).toHaveLength(2);
    expect(
      screen.queryByRole("button", { name: "Déconnecter les autres appareils" }),
    ).not.toBeInTheDocument();
  });

  it("dit quand la liste ne se charge pas et permet de réessayer", async () => {
    const sessions = failingUntilRecovered(() => json(200, { sessions: [thisPc] }));
    stubApi(patient, {
      "GET /api/account/sessions": sessions.respond,
      // The profile's other cards load (here 'Ma mutuelle'): only the devices' list fails.
      "GET /api/patient/cover": () => json(200, { cover: null }),
    });
    const user = userEvent.setup();
    renderApp("/patient/profile");
    expect(await screen.findByText("Impossible d'afficher vos appareils.")).toBeInTheDocument();
    sessions.recover();
    await user.click(screen.getByRole("button", { name: "Réessayer" }));
    const list = await devicesList();
    expect(within(list).getByText("Cet appareil")).toBeInTheDocument();
  });

  it("apparaît aussi sur le profil du dentiste", async () => {
    stubApi(dentist, { "GET /api/account/sessions": () => json(200, { sessions: [thisPc] }) });
    renderApp("/dentist/profile");
    expect(await screen.findByRole("heading", { level: 2, name: "Sécurité" })).toBeInTheDocument();
    expect(screen.getByRole("form", { name: "Changer mon mot de passe" })).toBeInTheDocument();
    expect(within(await devicesList()).getByText("Cet appareil")).toBeInTheDocument();
  });

  it("est la section où mène l'e-mail d'une nouvelle connexion, dans chaque espace", async () => {
    const admin = makeProfile({ is_admin: true, email: "admin@example.fr", full_name: "Claire Admin" });
    for (const who of [patient, dentist, admin]) {
      stubApi(who, { "GET /api/account/sessions": () => json(200, { sessions: [thisPc] }) });
      const { unmount } = renderApp(securityPath(who));
      const heading = await screen.findByRole("heading", { level: 2, name: "Sécurité" });
      expect(heading.closest("section")).toHaveAttribute("id", SECURITY_ANCHOR);
      unmount();
    }
  });
});

describe("Sécurité : changer mon adresse e-mail (ADR 083)", () => {
  it("envoie la nouvelle adresse et le mot de passe, montre le refus sous le champ, puis dit où est le lien", async () => {
    let attempts = 0;
    const fetchMock = stubApi(patient, {
      "GET /api/account/sessions": () => json(200, { sessions: [thisPc] }),
      "POST /api/account/email": () => {
        attempts += 1;
        return attempts === 1
          ? json(400, {
              error: {
                code: "VALIDATION_ERROR",
                message: EMAIL_CHANGE_MESSAGES.same,
                fields: { new_email: EMAIL_CHANGE_MESSAGES.same },
              },
            })
          : json(200, { message: EMAIL_CHANGE_MESSAGES.sent("ines@nouvelle.fr") });
      },
    });
    const user = userEvent.setup();
    renderApp("/patient/profile");
    const form = await screen.findByRole("form", { name: "Changer d'adresse" });
    expect(within(form).getByText(patient.email)).toBeInTheDocument();
    const address = within(form).getByLabelText(/^Nouvelle adresse/);
    await user.click(within(form).getByRole("button", { name: "Recevoir le lien de confirmation" }));
    // Checked before anything is sent.
    expect(address).toHaveAccessibleDescription(EMAIL_CHANGE_MESSAGES.newEmailRequired);
    expect(calls(fetchMock, "POST /api/account/email")).toHaveLength(0);

    await user.type(address, "ines@exemple.fr");
    await user.type(within(form).getByLabelText(/^Mot de passe actuel/), "mon-secret");
    await user.click(within(form).getByRole("button", { name: "Recevoir le lien de confirmation" }));
    await waitFor(() => expect(address).toHaveAccessibleDescription(EMAIL_CHANGE_MESSAGES.same));
    expect(address).toHaveFocus();
    const [, init] = calls(fetchMock, "POST /api/account/email")[0] ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({
      new_email: "ines@exemple.fr",
      current_password: "mon-secret",
    });

    await user.clear(address);
    await user.type(address, "ines@nouvelle.fr");
    await user.type(within(form).getByLabelText(/^Mot de passe actuel/), "mon-secret");
    await user.click(within(form).getByRole("button", { name: "Recevoir le lien de confirmation" }));
    expect(await within(form).findByText(EMAIL_CHANGE_MESSAGES.sent("ines@nouvelle.fr"))).toBeInTheDocument();
    expect(address).toHaveValue("");
  });

  it("n'est pas proposé à un administrateur (son adresse est celle du serveur)", async () => {
    const admin = makeProfile({ is_admin: true, email: "admin@example.fr", full_name: "Claire Admin" });
    stubApi(admin, { "GET /api/account/sessions": () => json(200, { sessions: [thisPc] }) });
    renderApp("/admin/account");
    expect(await screen.findByRole("form", { name: "Changer mon mot de passe" })).toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "Changer d'adresse" })).not.toBeInTheDocument();
  });
});

describe("Sécurité : double authentification (ADR 098)", () => {
  const CODES = Array.from({ length: 10 }, (_, i) => `K${i}B7Q-4XW2${i}`);
  const NEW_CODES = Array.from({ length: 10 }, (_, i) => `N${i}EW7-C0DE${i}`);
  const SETUP: TwoFactorSetup = {
    totp_uri: "otpauth://totp/Sourio:marie.curie%40example.fr?secret=JBSWY3DPEHPK3PXPJBSWY3DP&issuer=Sourio",
    secret: "JBSW Y3DP EHPK 3PXP JBSW Y3DP",
    backup_codes: CODES,
  };
  const refused = (status: number, message: string, fields?: Record<string, string>) =>
    json(status, { error: { code: "REFUSED", message, ...(fields ? { fields } : {}) } });
  /** A profile page whose two-step sign-in is `enabled`, then what the handlers make of it. */
  const stubTwoFactor = (enabled: boolean, handlers: Parameters<typeof stubApi>[1] = {}) => {
    const state = { enabled, remembered: 0 };
    const fetchMock = stubApi(patient, {
      "GET /api/account/sessions": () => json(200, { sessions: [thisPc] }),
      "GET /api/account/two-factor": () =>
        json(200, { enabled: state.enabled, remembered_devices: state.remembered }),
      ...handlers,
    });
    return { state, fetchMock };
  };
  const bodies = (fetchMock: ReturnType<typeof stubApi>, key: string) =>
    calls(fetchMock, key).map(([, init]) => JSON.parse(String(init?.body)));

  it("s'active en trois étapes : mot de passe, QR code ou clé puis premier code, codes de secours", async () => {
    const { state, fetchMock } = stubTwoFactor(false, {
      "POST /api/account/two-factor/setup": (body) =>
        (body as { password: string }).password === "pas-le-bon"
          ? refused(400, TWO_FACTOR_MESSAGES.passwordWrong, { password: TWO_FACTOR_MESSAGES.passwordWrong })
          : json(200, SETUP),
      "POST /api/account/two-factor/confirm": (body) => {
        if ((body as { code: string }).code === "000000")
          return refused(400, TWO_FACTOR_MESSAGES.codeWrong, { code: TWO_FACTOR_MESSAGES.codeWrong });
        state.enabled = true;
        return json(200, { message: TWO_FACTOR_MESSAGES.enabled });
      },
    });
    const user = userEvent.setup();
    renderApp("/patient/profile");
    expect(await screen.findByText("Désactivée")).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 3, name: "Double authentification" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Activer la double authentification" }));

    // 1. The password: a wrong one is said under the field.
    const dialog = await screen.findByRole("dialog", { name: "Activer la double authentification" });
    expect(
      within(dialog).getByRole("heading", { name: "Étape 1 sur 3\u202f: votre mot de passe" }),
    ).toBeVisible();
    const password = within(dialog).getByLabelText(/^Mot de passe/);
    await waitFor(() => expect(password).toHaveFocus());
    await user.type(password, "pas-le-bon");
    await user.click(within(dialog).getByRole("button", { name: "Continuer" }));
    await waitFor(() => expect(password).toHaveAccessibleDescription(TWO_FACTOR_MESSAGES.passwordWrong));
    await user.clear(password);
    await user.type(password, "mon-secret");
    await user.click(within(dialog).getByRole("button", { name: "Continuer" }));

    // 2. The app: the QR code, the key in groups of four, the link for a phone, then its first code.
    expect(
      await within(dialog).findByRole("heading", { name: "Étape 2 sur 3\u202f: votre application" }),
    ).toBeVisible();
    const qr = await within(dialog).findByRole("img", {
      name: "QR code à scanner avec votre application d'authentification",
    });
    expect(decodeURIComponent(qr.getAttribute("src") ?? "")).toMatch(/^data:image\/svg\+xml;utf8,<svg /);
    expect(within(dialog).getByText("JBSW Y3DP EHPK 3PXP JBSW Y3DP")).toBeInTheDocument();
    expect(within(dialog).getByRole("link", { name: "Ouvrir dans mon application" })).toHaveAttribute(
      "href",
      SETUP.totp_uri,
    );
    const code = within(dialog).getByLabelText(/^Code affiché par l'application/);
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute("autocomplete", "one-time-code");
    await user.type(code, "000000");
    await user.click(within(dialog).getByRole("button", { name: "Activer" }));
    await waitFor(() => expect(code).toHaveAccessibleDescription(TWO_FACTOR_MESSAGES.codeWrong));
    expect(screen.getByText("Désactivée")).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, "123 456");
    await user.click(within(dialog).getByRole("button", { name: "Activer" }));

    // 3. The recovery codes of the setup, shown once; « Terminer » waits for the box.
    expect(
      await within(dialog).findByRole("heading", { name: "Étape 3 sur 3\u202f: vos codes de secours" }),
    ).toBeVisible();
    expect(await screen.findByText(spaced(TWO_FACTOR_MESSAGES.enabled))).toBeInTheDocument();
    const list = within(dialog).getByRole("list", { name: "Codes de secours" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(within(dialog).getByRole("button", { name: "Copier les codes" })).toHaveFocus();
    const finish = within(dialog).getByRole("button", { name: "Terminer" });
    expect(finish).toBeDisabled();
    await user.click(within(dialog).getByRole("checkbox", { name: "J'ai mis ces codes en lieu sûr" }));
    expect(finish).toBeEnabled();
    await user.click(finish);

    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.getByText("Activée")).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Nouveaux codes de secours" })).toHaveFocus(),
    );
    expect(bodies(fetchMock, "POST /api/account/two-factor/setup")).toEqual([
      { password: "pas-le-bon" },
      { password: "mon-secret" },
    ]);
    expect(bodies(fetchMock, "POST /api/account/two-factor/confirm")).toEqual([
      { code: "000000" },
      { code: "123456" },
    ]);
  });

  it("se désactive avec le mot de passe, après l'avertissement", async () => {
    const { state, fetchMock } = stubTwoFactor(true, {
      "POST /api/account/two-factor/disable": () => {
        state.enabled = false;
        return json(200, { message: TWO_FACTOR_MESSAGES.disabled });
      },
    });
    const user = userEvent.setup();
    renderApp("/patient/profile");
    expect(await screen.findByText("Activée")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Désactiver" }));
    const dialog = await screen.findByRole("dialog", {
      name: "Désactiver la double authentification\u202f?",
    });
    expect(dialog).toHaveAccessibleDescription(
      "Votre compte ne sera plus protégé que par votre mot de passe.",
    );
    const password = within(dialog).getByLabelText(/^Mot de passe/);
    await user.click(within(dialog).getByRole("button", { name: "Désactiver" }));
    await waitFor(() => expect(password).toHaveAccessibleDescription(TWO_FACTOR_MESSAGES.passwordRequired));
    expect(calls(fetchMock, "POST /api/account/two-factor/disable")).toHaveLength(0);

    await user.type(password, "mon-secret");
    await user.click(within(dialog).getByRole("button", { name: "Désactiver" }));
    expect(await screen.findByText(spaced(TWO_FACTOR_MESSAGES.disabled))).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.getByText("Désactivée")).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Activer la double authentification" })).toHaveFocus(),
    );
    expect(bodies(fetchMock, "POST /api/account/two-factor/disable")).toEqual([{ password: "mon-secret" }]);
  });

  it("redemande le code sur les appareils mémorisés, après confirmation, puis relit leur nombre", async () => {
    const { state, fetchMock } = stubTwoFactor(true, {
      "DELETE /api/account/two-factor/remembered-devices": () => {
        state.remembered = 0;
        return json(200, { message: TWO_FACTOR_MESSAGES.devicesForgotten });
      },
    });
    state.remembered = 2;
    const user = userEvent.setup();
    renderApp("/patient/profile");
    expect(await screen.findByText(/^2 appareils ne vous demandent plus de code/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Redemander le code sur ces appareils" }));
    const dialog = await screen.findByRole("dialog", { name: "Redemander le code sur ces appareils\u202f?" });
    // Cancelling sends nothing.
    await user.click(within(dialog).getByRole("button", { name: "Annuler" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(calls(fetchMock, "DELETE /api/account/two-factor/remembered-devices")).toHaveLength(0);

    await user.click(screen.getByRole("button", { name: "Redemander le code sur ces appareils" }));
    const again = await screen.findByRole("dialog", { name: "Redemander le code sur ces appareils\u202f?" });
    await user.click(within(again).getByRole("button", { name: "Redemander le code" }));
    expect(await screen.findByText(TWO_FACTOR_MESSAGES.devicesForgotten)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(calls(fetchMock, "DELETE /api/account/two-factor/remembered-devices")).toHaveLength(1);
    // Read again: none left, the line goes.
    await waitFor(() =>
      expect(screen.queryByText(/ne vous demandent? plus de code/)).not.toBeInTheDocument(),
    );
    expect(screen.getByText("Activée")).toBeInTheDocument();
  });

  it("ne parle pas d'appareils mémorisés quand il n'y en a pas", async () => {
    stubTwoFactor(true);
    renderApp("/patient/profile");
    expect(await screen.findByText("Activée")).toBeInTheDocument();
    expect(
      screen.queryByRole("button", { name: "Redemander le code sur ces appareils" }),
    ).not.toBeInTheDocument();
  });

  it("donne de nouveaux codes de secours après le mot de passe, à copier ou télécharger", async () => {
    let tries = 0;
    const { fetchMock } = stubTwoFactor(true, {
      "POST /api/account/two-factor/backup-codes": () => {
        tries += 1;
        return tries === 1
          ? refused(429, TWO_FACTOR_MESSAGES.tooManyPasswords)
          : json(200, { backup_codes: NEW_CODES, message: TWO_FACTOR_MESSAGES.codesRenewed });
      },
    });
    const created = vi.fn((_blob: Blob) => "blob:codes");
    Object.defineProperty(URL, "createObjectURL", { configurable: true, value: created });
    Object.defineProperty(URL, "revokeObjectURL", { configurable: true, value: vi.fn() });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(`${this.download} ${this.href}`);
    });
    const user = userEvent.setup();
    renderApp("/patient/profile");
    await user.click(await screen.findByRole("button", { name: "Nouveaux codes de secours" }));
    const dialog = await screen.findByRole("dialog", { name: "Nouveaux codes de secours" });
    const password = within(dialog).getByLabelText(/^Mot de passe/);
    await user.type(password, "mon-secret");
    await user.click(within(dialog).getByRole("button", { name: "Créer de nouveaux codes" }));
    // A refusal that names no field is said in the dialog.
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      spaced(TWO_FACTOR_MESSAGES.tooManyPasswords),
    );
    await user.click(within(dialog).getByRole("button", { name: "Créer de nouveaux codes" }));

    const list = await within(dialog).findByRole("list", { name: "Codes de secours" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(NEW_CODES);
    expect(await screen.findByText(spaced(TWO_FACTOR_MESSAGES.codesRenewed))).toBeInTheDocument();
    expect(bodies(fetchMock, "POST /api/account/two-factor/backup-codes")).toEqual([
      { password: "mon-secret" },
      { password: "mon-secret" },
    ]);

    await user.click(within(dialog).getByRole("button", { name: "Copier les codes" }));
    expect(await screen.findByText("Codes de secours copiés")).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(NEW_CODES.join("\n"));

    await user.click(within(dialog).getByRole("button", { name: "Télécharger (.txt)" }));
    expect(saved).toEqual(["sourio-codes-de-secours.txt blob:codes"]);
    const text = (await created.mock.calls[0]?.[0].text()) ?? "";
    expect(text).toMatch(/^Codes de secours de votre compte Sourio \(marie\.curie@example\.fr\), créés le /);
    for (const code of NEW_CODES) expect(text).toContain(`\n${code}`);

    const finish = within(dialog).getByRole("button", { name: "Terminer" });
    expect(finish).toBeDisabled();
    await user.click(within(dialog).getByRole("checkbox", { name: "J'ai mis ces codes en lieu sûr" }));
    await user.click(finish);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.getByText("Activée")).toBeInTheDocument();
  });

  it("dit quand son état ne se charge pas et permet de réessayer", async () => {
    const status = failingUntilRecovered(() => json(200, { enabled: false, remembered_devices: 0 }));
    stubTwoFactor(false, {
      "GET /api/account/two-factor": status.respond,
      // The profile's other cards load (here 'Ma mutuelle'): only this card's state fails.
      "GET /api/patient/cover": () => json(200, { cover: null }),
    });
    const user = userEvent.setup();
    renderApp("/patient/profile");
    expect(
      await screen.findByText("Impossible d'afficher l'état de la double authentification."),
    ).toBeInTheDocument();
    status.recover();
    await user.click(screen.getByRole("button", { name: "Réessayer" }));
    expect(await screen.findByText("Désactivée")).toBeInTheDocument();
  });
});
