import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PHONE_MESSAGES } from "../../../shared/domain/phone";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";

afterEach(() => vi.unstubAllGlobals());

describe("téléphone (profil patient)", () => {
  it("refuse sans appeler le serveur un numéro qui n'en est pas un, et enregistre un numéro français", async () => {
    const bodies: { phone_number?: string }[] = [];
    stubApi(makeProfile(), {
      "PATCH /api/me": (body) => {
        bodies.push(body as { phone_number?: string });
        return json(200, { profile: makeProfile({ phone_number: "06 12 34 56 78" }) });
      },
    });
    const user = userEvent.setup();
    renderApp("/patient/profile");
    const field = await screen.findByLabelText("Téléphone (optionnel)");

    await user.type(field, "abc");
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    expect(await screen.findAllByText(PHONE_MESSAGES.invalid)).not.toHaveLength(0);
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(field).toHaveAccessibleDescription(PHONE_MESSAGES.invalid);
    // Not left on « Enregistrer »: the field in error, its message read with it.
    expect(field).toHaveFocus();
    expect(screen.queryByText("Profil mis à jour avec succès")).not.toBeInTheDocument();
    expect(bodies).toEqual([]);

    await user.clear(field);
    await user.type(field, "06 12 34 56 78");
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    await screen.findByText("Profil mis à jour avec succès");
    expect(bodies.map((b) => b.phone_number)).toEqual(["06 12 34 56 78"]);
  });

  it("reste facultatif : un champ vide est enregistré", async () => {
    const patch = vi.fn(() => json(200, { profile: makeProfile() }));
    stubApi(makeProfile(), { "PATCH /api/me": patch });
    const user = userEvent.setup();
    renderApp("/patient/profile");
    await screen.findByLabelText("Téléphone (optionnel)");
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    await screen.findByText("Profil mis à jour avec succès");
    expect(patch).toHaveBeenCalledTimes(1);
  });
});
