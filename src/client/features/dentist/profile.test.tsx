import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";
import { SpecialtiesEditor } from "./SpecialtiesEditor";

function Harness({ initial = [] as string[] }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <SpecialtiesEditor value={value} onChange={setValue} />
      <output data-testid="value">{JSON.stringify(value)}</output>
    </>
  );
}

const value = () => JSON.parse(screen.getByTestId("value").textContent ?? "[]") as string[];
const addButton = () => screen.getByRole("button", { name: "Ajouter" });
const input = () => screen.getByLabelText("Ajouter une spécialité");

describe("éditeur des spécialités", () => {
  it("désactive 'Ajouter' tant que la saisie est vide ou blanche, ajoute la saisie rognée", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(addButton()).toBeDisabled();
    await user.type(input(), "   ");
    expect(addButton()).toBeDisabled();
    await user.clear(input());
    await user.type(input(), "  Occlusodontie ");
    expect(addButton()).toBeEnabled();
    await user.click(addButton());
    expect(value()).toEqual(["Occlusodontie"]);
    expect(input()).toHaveValue("");
    expect(screen.getByRole("button", { name: "Retirer Occlusodontie" })).toBeInTheDocument();
  });

  it("refuse un doublon (casse ignorée) et le dit ; Entrée ajoute sans envoyer de formulaire", async () => {
    const user = userEvent.setup();
    render(<Harness initial={["Implantologie"]} />);
    await user.type(input(), "implantologie{Enter}");
    expect(value()).toEqual(["Implantologie"]);
    expect(screen.getByRole("alert")).toHaveTextContent("Cette spécialité est déjà dans votre liste.");
    await user.clear(input());
    await user.type(input(), "Gérodontologie{Enter}");
    expect(value()).toEqual(["Implantologie", "Gérodontologie"]);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("bascule les spécialités courantes (aria-pressed) et retire une puce", async () => {
    const user = userEvent.setup();
    render(<Harness initial={["Implantologie"]} />);
    const common = screen.getByRole("list", { name: "Spécialités courantes" });
    expect(within(common).getAllByRole("button")).toHaveLength(9);
    expect(screen.getByRole("button", { name: "Implantologie" })).toHaveAttribute("aria-pressed", "true");
    const ortho = screen.getByRole("button", { name: "Orthodontie" });
    expect(ortho).toHaveAttribute("aria-pressed", "false");
    await user.click(ortho);
    expect(ortho).toHaveAttribute("aria-pressed", "true");
    expect(value()).toEqual(["Implantologie", "Orthodontie"]);
    await user.click(ortho);
    expect(ortho).toHaveAttribute("aria-pressed", "false");
    expect(value()).toEqual(["Implantologie"]);
    await user.click(screen.getByRole("button", { name: "Retirer Implantologie" }));
    expect(value()).toEqual([]);
    expect(screen.getByRole("button", { name: "Implantologie" })).toHaveAttribute("aria-pressed", "false");
  });
});

const dentist = makeProfile({
  role: "dentist",
  first_name: "Paul",
  last_name: "Martin",
  full_name: "Paul Martin",
  email: "dr@example.fr",
  // Asked at sign-up: a dentist's profile keeps them.
  city: "Paris",
  phone_number: "01 42 00 00 00",
});

describe("page /dentist/profile", () => {
  it("n'active 'Demander une vérification' qu'avec le RPPS et le cabinet enregistrés ; montre la demande envoyée", async () => {
    let saved = dentist;
    stubApi(dentist, {
      "PATCH /api/me": (body) => {
        saved = { ...saved, ...(body as object) };
        return json(200, { profile: saved });
      },
      "POST /api/me/verification-request": () =>
        json(200, {
          profile: {
            ...saved,
            verification_state: "requested",
            verification_requested_at: "2026-03-05T10:00:00.000Z",
          },
        }),
    });
    const user = userEvent.setup();
    renderApp("/dentist/profile");
    // The first test to load the dentist chunk: give it time on a busy machine.
    expect(await screen.findByRole("heading", { level: 1, name: "Mon profil" })).toBeInTheDocument();
    expect(screen.getByText("En attente de vérification")).toBeInTheDocument();
    const request = screen.getByRole("button", { name: "Demander une vérification" });
    expect(request).toBeDisabled();
    expect(request).toHaveAccessibleDescription(/renseignez et enregistrez votre numéro RPPS/);

    await user.type(screen.getByLabelText("Numéro RPPS"), "10003456785");
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    const rpps = screen.getByLabelText("Numéro RPPS");
    await waitFor(() => expect(rpps).toHaveAttribute("aria-invalid", "true"));
    expect(rpps).toHaveAccessibleDescription(/Le numéro RPPS doit comporter 11 chiffres valides\./);

    await user.clear(screen.getByLabelText("Numéro RPPS"));
    await user.type(screen.getByLabelText("Numéro RPPS"), "10003456786");
    await user.type(screen.getByLabelText("Adresse du cabinet"), "12 rue de la Paix");
    await user.type(screen.getByLabelText("Code postal"), "75002");
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    await screen.findByText("Profil mis à jour avec succès");
    expect(screen.getByRole("button", { name: "Demander une vérification" })).toBeEnabled();

    await user.click(screen.getByRole("button", { name: "Demander une vérification" }));
    expect(
      await screen.findByText(/Votre demande de vérification a été envoyée le 5 mars 2026\./),
    ).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Demander une vérification" })).not.toBeInTheDocument();
  });

  it("dit à un dentiste dont la vérification a été retirée ce qu'il ne voit plus, et le laisse la redemander", async () => {
    stubApi({
      ...dentist,
      rpps: "10003456786",
      practice_address: "12 rue de la Paix",
      practice_postcode: "75002",
      verification_state: "withdrawn",
    });
    renderApp("/dentist/profile");
    expect(await screen.findByText("Vérification retirée")).toBeInTheDocument();
    expect(screen.getByText(/Notre équipe a retiré la vérification de votre compte\./)).toBeInTheDocument();
    expect(screen.queryByText("En attente de vérification")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Demander une vérification" })).toBeEnabled();
  });

  it("montre 'Compte vérifié' à un dentiste vérifié", async () => {
    stubApi({ ...dentist, is_verified: true, verification_state: "verified" });
    renderApp("/dentist/profile");
    expect(await screen.findByText("Compte vérifié")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Demander une vérification" })).not.toBeInTheDocument();
  });

  it("montre à un dentiste vérifié son RPPS et son cabinet en lecture seule, et enregistre le reste (ADR 075)", async () => {
    const practice = {
      rpps: "10003456786",
      practice_address: "12 rue de la Paix",
      practice_postcode: "75002",
    };
    let sent: Record<string, unknown> = {};
    const verified = { ...dentist, ...practice, is_verified: true, verification_state: "verified" as const };
    stubApi(verified, {
      "PATCH /api/me": (body) => {
        sent = body as Record<string, unknown>;
        return json(200, { profile: { ...verified, ...sent } });
      },
    });
    const user = userEvent.setup();
    renderApp("/dentist/profile");
    expect(await screen.findByText("Compte vérifié")).toBeInTheDocument();
    expect(
      screen.getByText(/ont été vérifiés par notre équipe.*écrivez-nous depuis Besoin d'aide\./),
    ).toBeVisible();
    for (const label of ["Numéro RPPS", "Adresse du cabinet", "Code postal"]) {
      const field = screen.getByLabelText(label);
      expect(field, label).toHaveAttribute("readonly");
      await user.type(field, "9");
    }
    expect(screen.getByLabelText("Numéro RPPS")).toHaveValue("10003456786");

    await user.type(screen.getByLabelText("Biographie (optionnelle)"), "Implants depuis 2010.");
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    await screen.findByText("Profil mis à jour avec succès");
    expect(sent).toMatchObject({ ...practice, bio: "Implants depuis 2010." });
  });

  it("refuse de vider la ville ou le téléphone du cabinet, sans rien envoyer ; l'enregistrement réussi remplace l'erreur", async () => {
    const bodies: unknown[] = [];
    stubApi(dentist, {
      "PATCH /api/me": (body) => {
        bodies.push(body);
        return json(200, { profile: { ...dentist, ...(body as object) } });
      },
    });
    const user = userEvent.setup();
    renderApp("/dentist/profile");
    const city = await screen.findByLabelText(/^Ville du cabinet/);
    const phone = screen.getByLabelText(/^Téléphone du cabinet/);
    expect(city).toBeRequired();
    expect(phone).toBeRequired();
    await user.clear(city);
    await user.clear(phone);
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    await waitFor(() => expect(city).toHaveAccessibleDescription("Renseignez la ville de votre cabinet."));
    expect(phone).toHaveAccessibleDescription("Renseignez le téléphone de votre cabinet.");
    expect(await screen.findByText("Erreur de mise à jour du profil")).toBeInTheDocument();
    // The first field in error (the phone comes before the city) takes the focus, its message with it.
    expect(phone).toHaveFocus();
    expect(bodies).toEqual([]);

    await user.type(city, "Lyon");
    await user.type(phone, "04 78 00 00 00");
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    expect(await screen.findByText("Profil mis à jour avec succès")).toBeInTheDocument();
    // One toast per save: the failure's is gone, not left above the success.
    await waitFor(() =>
      expect(screen.queryByText("Erreur de mise à jour du profil")).not.toBeInTheDocument(),
    );
    expect(bodies).toEqual([expect.objectContaining({ city: "Lyon", phone_number: "04 78 00 00 00" })]);
  });

  it("laisse un dentiste non vérifié modifier son RPPS et son cabinet", async () => {
    stubApi(dentist);
    renderApp("/dentist/profile");
    expect(await screen.findByText("En attente de vérification")).toBeInTheDocument();
    for (const label of ["Numéro RPPS", "Adresse du cabinet", "Code postal"])
      expect(screen.getByLabelText(label), label).not.toHaveAttribute("readonly");
    expect(screen.queryByText(/ont été vérifiés par notre équipe/)).not.toBeInTheDocument();
  });
});
