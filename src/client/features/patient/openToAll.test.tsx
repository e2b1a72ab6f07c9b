import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { consentText } from "../../../shared/domain/consent";
import type { RequestDetail } from "../../../shared/schemas/requests";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";
import { makeRequestDetail } from "../../test/requests";

/*
 * A request addressed to one dentist sent to every verified dentist (ADR 073): urged when he no
 * longer receives requests, offered beside him otherwise, with the new consent in the dialog.
 */

const REQUEST_ID = "99999999-9999-4999-8999-999999999999";
const BASE = `/api/patient/requests/${REQUEST_ID}`;
const ANNE = { id: "00000000-0000-4000-8000-00000000000a", full_name: "Anne Martin", city: "Lyon" };

function stub(first: RequestDetail, afterPost?: RequestDetail) {
  let current = first;
  return stubApi(makeProfile(), {
    [`GET ${BASE}`]: () => json(200, current),
    [`GET ${BASE}/comparison`]: () => json(200, { cover: null, original: null, offers: [], rows: [] }),
    [`POST ${BASE}/open-to-all`]: () => {
      current = afterPost ?? current;
      return json(200, {
        id: REQUEST_ID,
        message: "Votre demande est envoyée à tous les dentistes vérifiés.",
      });
    },
  });
}

describe("envoyer à tous une demande adressée à un dentiste", () => {
  it("prévient quand le dentiste choisi ne reçoit plus de demandes, et l'envoie à tous avec le nouveau consentement", async () => {
    const calls = stub(
      makeRequestDetail(REQUEST_ID, { recipient: { ...ANNE, taking_requests: false } }),
      makeRequestDetail(REQUEST_ID, { recipient: null }),
    );
    const user = userEvent.setup();
    renderApp(`/patient/request/${REQUEST_ID}`);
    const heading = await screen.findByRole("heading", {
      name: "Le Dr Anne Martin ne reçoit plus de nouvelles demandes",
    });
    expect(screen.getByText(/Aucun dentiste ne voit votre demande pour le moment/)).toBeInTheDocument();
    // The inline button is not offered twice.
    expect(screen.queryByRole("button", { name: "Envoyer aussi à tous les dentistes vérifiés" })).toBeNull();

    await user.click(screen.getByRole("button", { name: "Envoyer à tous les dentistes vérifiés" }));
    const dialog = await screen.findByRole("dialog", {
      name: /^Envoyer votre demande à tous les dentistes vérifiés\s\?$/,
    });
    expect(dialog).toHaveTextContent(consentText({ brand: "Sourio", dentistName: null }));
    await user.click(within(dialog).getByRole("button", { name: "J'accepte et j'envoie" }));

    expect(
      await screen.findByText("Votre demande est envoyée à tous les dentistes vérifiés."),
    ).toBeInTheDocument();
    const posts = calls.mock.calls.filter(
      ([url, init]) => String(url).endsWith("/open-to-all") && init?.method === "POST",
    );
    expect(posts.map(([, init]) => JSON.parse(String(init?.body)))).toEqual([{ consent: true }]);
    await waitFor(() => expect(heading).not.toBeInTheDocument());
    expect(screen.getByText("Tous les dentistes vérifiés")).toBeInTheDocument();
  });

  it("propose, sans alerte, d'envoyer aussi à tous quand le dentiste choisi reçoit toujours des demandes", async () => {
    stub(makeRequestDetail(REQUEST_ID, { recipient: { ...ANNE, taking_requests: true } }));
    renderApp(`/patient/request/${REQUEST_ID}`);
    expect(
      await screen.findByRole("button", { name: "Envoyer aussi à tous les dentistes vérifiés" }),
    ).toBeInTheDocument();
    expect(screen.getByText("Anne Martin — Lyon")).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: /ne reçoit plus de nouvelles demandes/ })).toBeNull();
  });

  it("ne propose rien sur une demande annulée", async () => {
    stub(
      makeRequestDetail(REQUEST_ID, { status: "cancelled", recipient: { ...ANNE, taking_requests: false } }),
    );
    renderApp(`/patient/request/${REQUEST_ID}`);
    expect(await screen.findByText("Anne Martin — Lyon")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Envoyer .*à tous les dentistes vérifiés/ })).toBeNull();
    expect(screen.queryByRole("heading", { name: /ne reçoit plus de nouvelles demandes/ })).toBeNull();
  });
});
