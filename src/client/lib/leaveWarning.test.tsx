import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeDentist, makeDentistRequestDetail } from "../test/dentist";
import { json, makeProfile, renderApp, stubApi } from "../test/renderApp";

/** What the browser does before a reload or a closed tab: asks when a listener prevents it. */
function leavingAsks(): boolean {
  const event = new Event("beforeunload", { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe("quitter une page avec un formulaire commencé", () => {
  it("la nouvelle demande : rien tant qu'il est vide, le navigateur demande dès qu'on a écrit", async () => {
    stubApi(makeProfile(), { "GET /api/dentists/verified": () => json(200, { items: [] }) });
    const user = userEvent.setup();
    const { unmount } = renderApp("/patient/upload");
    const description = await screen.findByLabelText(/^Description/);
    expect(leavingAsks()).toBe(false);
    await user.type(description, "Couronne sur la 46");
    expect(leavingAsks()).toBe(true);
    await user.clear(description);
    expect(leavingAsks()).toBe(false);
    await user.type(description, "Couronne");
    // Left inside the app: the listener goes with the page.
    unmount();
    expect(leavingAsks()).toBe(false);
  });

  it("la proposition du dentiste : le navigateur demande dès qu'un montant est saisi", async () => {
    const id = "22222222-2222-4222-8222-222222222222";
    stubApi(makeDentist(), {
      [`GET /api/dentist/requests/${id}`]: () => json(200, makeDentistRequestDetail(id)),
      [`GET /api/dentist/requests/${id}/offer`]: () =>
        json(200, { offer: null, may_offer: true, patient_age: 42, last_fees: [] }),
    });
    const user = userEvent.setup();
    renderApp(`/dentist/quote-request/${id}`);
    const amount = await screen.findByLabelText(/Montant de la proposition/);
    expect(leavingAsks()).toBe(false);
    await user.type(amount, "850");
    expect(leavingAsks()).toBe(true);
  });
});
