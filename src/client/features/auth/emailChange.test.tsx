import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { EMAIL_CHANGE_MESSAGES } from "../../../shared/schemas/account";
import { json, makeProfile, renderApp, settled, stubApi } from "../../test/renderApp";

/** /confirm-email?token=…, the link sent to a new address (ADR 083). */
describe("Nouvelle adresse e-mail : la page du lien", () => {
  it("ne change rien à l'ouverture ; le bouton confirme, sans session, et mène à l'espace", async () => {
    const fetchMock = stubApi(null, {
      "POST /api/account/email/confirm": () => json(200, { message: EMAIL_CHANGE_MESSAGES.done }),
    });
    const user = userEvent.setup();
    renderApp("/confirm-email?token=jeton-du-lien");
    const button = await screen.findByRole("button", { name: "Confirmer ma nouvelle adresse" });
    await settled();
    const posts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === "POST");
    expect(posts()).toHaveLength(0);

    await user.click(button);
    expect(await screen.findByText("Adresse e-mail modifiée")).toBeInTheDocument();
    expect(screen.getByText(EMAIL_CHANGE_MESSAGES.done)).toBeInTheDocument();
    const [input, init] = posts()[0] ?? [];
    expect(String(input)).toContain("/api/account/email/confirm");
    expect(JSON.parse(String(init?.body))).toEqual({ token: "jeton-du-lien" });
    expect(screen.getByRole("link", { name: "Aller à mon espace" })).toHaveAttribute("href", "/index");
  });

  it("met à jour l'adresse de la session ouverte sur cet appareil", async () => {
    let email = "ines@ancienne.fr";
    stubApi(null, {
      "GET /api/me": () => json(200, { profile: makeProfile({ email }) }),
      "POST /api/account/email/confirm": () => {
        email = "ines@nouvelle.fr";
        return json(200, { message: EMAIL_CHANGE_MESSAGES.done });
      },
    });
    const user = userEvent.setup();
    renderApp("/confirm-email?token=jeton");
    await user.click(await screen.findByRole("button", { name: "Confirmer ma nouvelle adresse" }));
    await screen.findByText("Adresse e-mail modifiée");
    await user.click(screen.getByRole("link", { name: "Aller à mon espace" }));
    await user.click(await screen.findByRole("link", { name: "Profil" }));
    await waitFor(() => expect(screen.getByLabelText(/^E-mail/)).toHaveValue("ines@nouvelle.fr"));
  });

  it("dit en français qu'un lien usé ou absent ne sert plus, et qu'une adresse prise entre-temps ne change pas", async () => {
    stubApi(null, {
      "POST /api/account/email/confirm": () =>
        json(400, { error: { code: "INVALID_TOKEN", message: EMAIL_CHANGE_MESSAGES.linkInvalid } }),
    });
    const user = userEvent.setup();
    const first = renderApp("/confirm-email?token=use");
    await user.click(await screen.findByRole("button", { name: "Confirmer ma nouvelle adresse" }));
    expect(await screen.findByText("Lien invalide")).toBeInTheDocument();
    expect(screen.getByText(EMAIL_CHANGE_MESSAGES.linkInvalid)).toBeInTheDocument();
    first.unmount();

    stubApi(null, {});
    const second = renderApp("/confirm-email");
    expect(await screen.findByText("Lien invalide")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Confirmer ma nouvelle adresse" })).not.toBeInTheDocument();
    second.unmount();

    stubApi(null, {
      "POST /api/account/email/confirm": () =>
        json(409, {
          error: {
            code: "EMAIL_TAKEN",
            message: EMAIL_CHANGE_MESSAGES.taken,
            fields: { new_email: EMAIL_CHANGE_MESSAGES.taken },
          },
        }),
    });
    renderApp("/confirm-email?token=prise");
    await user.click(await screen.findByRole("button", { name: "Confirmer ma nouvelle adresse" }));
    expect(await screen.findByText("Adresse non modifiée")).toBeInTheDocument();
    expect(screen.getByText(EMAIL_CHANGE_MESSAGES.taken)).toBeInTheDocument();
  });
});
