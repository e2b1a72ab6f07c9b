import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { DENTIST_MESSAGES } from "../../../../shared/schemas/dentist";
import { makeDentist, makeDentistRequestDetail } from "../../../test/dentist";
import { json, renderApp, stubApi } from "../../../test/renderApp";

const REQUEST_ID = "11111111-1111-4111-8111-111111111111";

describe("demande d'un patient (dentiste)", () => {
  it("« S'assigner cette demande » remplacé, le focus passe à « Proposer un devis »", async () => {
    stubApi(makeDentist(), {
      [`GET /api/dentist/requests/${REQUEST_ID}`]: () =>
        json(200, makeDentistRequestDetail(REQUEST_ID, { assigned: false })),
      [`POST /api/dentist/requests/${REQUEST_ID}/assign`]: () =>
        json(200, { message: DENTIST_MESSAGES.assigned }),
    });
    const user = userEvent.setup();
    renderApp(`/dentist/patient-submission/${REQUEST_ID}`);
    (await screen.findByRole("button", { name: "S'assigner cette demande" })).focus();
    await user.keyboard("{Enter}");
    expect(await screen.findByText("Vous suivez cette demande")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "S'assigner cette demande" })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("link", { name: "Proposer un devis" })).toHaveFocus());
  });
});
