import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GEO_MESSAGES } from "../../../shared/domain/geo";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";

afterEach(() => vi.unstubAllGlobals());

describe("code postal (profil patient, ADR 019)", () => {
  it("envoie le code postal et montre à côté du champ le refus du serveur", async () => {
    const bodies: { postal_code?: string }[] = [];
    stubApi(makeProfile({ postal_code: "75001" }), {
      "PATCH /api/me": (body) => {
        bodies.push(body as { postal_code?: string });
        return (body as { postal_code?: string }).postal_code === "99999"
          ? json(400, {
              error: {
                code: "VALIDATION_ERROR",
                message: GEO_MESSAGES.postalCodeUnknown,
                fields: { postal_code: GEO_MESSAGES.postalCodeUnknown },
              },
            })
          : json(200, { profile: makeProfile({ postal_code: "69003" }) });
      },
    });
    const user = userEvent.setup();
    renderApp("/patient/profile");
    const field = await screen.findByLabelText("Code postal (optionnel)");
    expect(field).toHaveValue("75001");

    await user.clear(field);
    await user.type(field, "99999");
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    expect(await screen.findAllByText(GEO_MESSAGES.postalCodeUnknown)).not.toHaveLength(0);
    expect(field).toHaveAttribute("aria-invalid", "true");

    await user.clear(field);
    await user.type(field, "69003");
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    await screen.findByText("Profil mis à jour avec succès");
    expect(bodies.map((b) => b.postal_code)).toEqual(["99999", "69003"]);
  });

  it("refuse sans appeler le serveur un code qui n'a pas 5 chiffres", async () => {
    const patch = vi.fn(() => json(200, { profile: makeProfile() }));
    stubApi(makeProfile(), { "PATCH /api/me": patch });
    const user = userEvent.setup();
    renderApp("/patient/profile");
    const field = await screen.findByLabelText("Code postal (optionnel)");
    await user.type(field, "690");
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    expect(await screen.findAllByText(GEO_MESSAGES.postalCodeInvalid)).not.toHaveLength(0);
    expect(patch).not.toHaveBeenCalled();
  });
});
