import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DATA_EXPORT_URL } from "../../../shared/schemas/account";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";

const patient = makeProfile();
const dentist = makeProfile({ role: "dentist", email: "dr@example.fr", full_name: "Paul Martin" });

describe("Mes données : télécharger mes données", () => {
  it.each([
    ["patient", patient, "/patient/profile"],
    ["dentiste", dentist, "/dentist/profile"],
  ] as const)(
    "offre l'archive sur le profil du %s, avec ce qu'elle contient",
    async (_who, profile, path) => {
      stubApi(profile, { "GET /api/account/sessions": () => json(200, { sessions: [] }) });
      renderApp(path);
      const heading = await screen.findByRole("heading", { level: 2, name: "Mes données" });
      const section = heading.closest("section") as HTMLElement;
      const link = within(section).getByRole("link", { name: "Télécharger mes données" });
      expect(link).toHaveAttribute("href", DATA_EXPORT_URL);
      expect(link).toHaveAttribute("download");
      expect(link).toHaveAccessibleDescription(/archive zip .* fichiers que vous avez envoyés/);
    },
  );
});
