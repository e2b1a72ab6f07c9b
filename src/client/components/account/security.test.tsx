import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { AccountSession } from "../../../shared/schemas/account";
import {
  EMAIL_CHANGE_MESSAGES,
  SECURITY_ANCHOR,
  SECURITY_MESSAGES,
  securityPath,
} from "../../../shared/schemas/account";
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
    expect(items[0]).toHaveTextContent("Connecté le 20/11/2026");
    expect(items[0]).toHaveTextContent("dernière activité le 21 novembre 2026 à 14:05");
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
