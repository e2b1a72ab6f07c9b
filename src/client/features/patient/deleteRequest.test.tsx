/** Deleting a request from its page: the tab leaves for the list even when the live channel is first. */
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setRealtimeSocketFactory } from "../../lib/realtime";
import { FakeSocket, resetRealtime } from "../../test/fakes";
import { json, makeProfile, renderApp, stubApi, toResponse } from "../../test/renderApp";
import { makeRequestDetail } from "../../test/requests";

const patient = makeProfile();
const ID = "33333333-3333-4333-8333-333333333333";

afterEach(resetRealtime);

describe("supprimer une demande depuis sa page", () => {
  it("mène à la liste même quand le direct annonce la suppression avant la réponse du serveur", async () => {
    setRealtimeSocketFactory(() => new FakeSocket());
    let deleted = false;
    let answer: (response: Response) => void = () => {};
    const fallback = stubApi(patient, {
      [`GET /api/patient/requests/${ID}`]: () =>
        deleted
          ? json(404, {
              error: { code: "NOT_FOUND", message: "Cette demande n'existe pas ou a été supprimée." },
            })
          : json(200, makeRequestDetail(ID, { status: "cancelled" })),
      "GET /api/patient/requests": () => json(200, { items: [], total: 0, page: 1, page_size: 10 }),
    });
    vi.stubGlobal(
      "fetch",
      vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
        init?.method === "DELETE"
          ? // Held until the test lets it through: the live event comes first.
            new Promise<Response>((resolve) => {
              answer = resolve;
            })
          : fallback(input, init),
      ),
    );
    const user = userEvent.setup();
    const { router } = renderApp(`/patient/request/${ID}`);
    await user.click(await screen.findByRole("button", { name: "Supprimer la demande" }));
    const dialog = await screen.findByRole("dialog", { name: /^Supprimer cette demande/ });
    await user.click(within(dialog).getByRole("button", { name: "Supprimer la demande" }));

    // The server deleted it and told this tab's socket before its answer reached the page.
    deleted = true;
    await waitFor(() => expect(FakeSocket.last).not.toBeNull());
    act(() => {
      FakeSocket.last?.push({ type: "ready", user_id: patient.id });
      FakeSocket.last?.push({ type: "request", request_id: ID });
    });
    expect(await screen.findByRole("heading", { level: 1, name: "Demande non trouvée" })).toBeInTheDocument();

    await act(async () =>
      answer(toResponse(json(200, { message: "La demande et ses documents sont supprimés." }))),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe("/patient/requests"));
    expect(await screen.findByText("Demande supprimée")).toBeInTheDocument();
  });
});
