import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ERASED_NAME } from "../../../shared/schemas/account";
import type { DocumentAccessDto } from "../../../shared/schemas/requests";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";
import { makeRequestDetail } from "../../test/requests";

/*
 * « Qui a consulté mes documents » by pages: the request's detail holds the 20 newest reads, the
 * older ones come from GET /api/patient/requests/:id/access-log?page= (nothing is cut off).
 */

const REQUEST_ID = "99999999-9999-4999-8999-999999999999";
const BASE = `/api/patient/requests/${REQUEST_ID}`;

const read = (
  n: number,
  actor_name: string,
  actor_kind: DocumentAccessDto["actor_kind"] = "dentist",
): DocumentAccessDto => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
  document_id: null,
  document_name: null,
  actor_name,
  actor_kind,
  action: "request_view",
  created_at: new Date(Date.UTC(2026, 10, 20, 10, 0) - n * 60_000).toISOString(),
});

const newest = [...Array.from({ length: 19 }, (_, i) => read(i, "Sophie Leroy")), read(19, ERASED_NAME)];
const older = [read(20, "Claire Petit", "admin"), read(21, "Claire Petit", "admin")];

const table = () => screen.findByRole("table", { name: "Consultations de mes documents" });
/** The table's rows without its header. */
const bodyRows = (scope: HTMLElement) => within(scope).getAllByRole("row").slice(1);

describe("'Qui a consulté mes documents', par pages", () => {
  it("montre les 20 plus récentes, puis les plus anciennes demandées au serveur, et revient en arrière", async () => {
    const calls = stubApi(makeProfile(), {
      [`GET ${BASE}`]: () =>
        json(200, makeRequestDetail(REQUEST_ID, { access_log: newest, access_log_has_more: true })),
      [`GET ${BASE}/comparison`]: () => json(200, { cover: null, original: null, offers: [], rows: [] }),
      [`GET ${BASE}/access-log`]: () => json(200, { items: older, page: 2, page_size: 20, has_more: false }),
    });
    const user = userEvent.setup();
    renderApp(`/patient/request/${REQUEST_ID}`);
    const first = await table();
    expect(bodyRows(first)).toHaveLength(20);
    // A dentist with his title; one whose account was erased, without a title before his pseudonym.
    expect(bodyRows(first)[0]).toHaveTextContent(/^Dr Sophie LeroyDentisteA ouvert la demande/);
    expect(bodyRows(first)[19]).toHaveTextContent(/^Dentiste \(compte supprimé\)Dentiste/);
    expect(within(first).queryByText("Claire Petit")).not.toBeInTheDocument();
    const logCalls = () =>
      calls.mock.calls.map(([url]) => String(url)).filter((url) => url.includes("access-log"));
    expect(logCalls()).toEqual([]);

    // The pagination is drawn again while a page loads: asked for each time.
    const pages = () => screen.getByRole("navigation", { name: "Pagination" });
    await user.click(within(pages()).getByRole("button", { name: "Suivant" }));
    await waitFor(async () => expect(bodyRows(await table())).toHaveLength(2));
    expect(within(await table()).getAllByText("Claire Petit")).toHaveLength(2);
    expect(logCalls()).toEqual([`${BASE}/access-log?page=2`]);
    expect(within(pages()).getByRole("button", { name: "Suivant" })).toBeDisabled();

    await user.click(within(pages()).getByRole("button", { name: "Précédent" }));
    await waitFor(async () => expect(bodyRows(await table())).toHaveLength(20));
    expect(logCalls()).toHaveLength(1);
  });

  it("ne montre pas de pagination quand tout tient sur une page", async () => {
    stubApi(makeProfile(), {
      [`GET ${BASE}`]: () => json(200, makeRequestDetail(REQUEST_ID, { access_log: older })),
      [`GET ${BASE}/comparison`]: () => json(200, { cover: null, original: null, offers: [], rows: [] }),
    });
    renderApp(`/patient/request/${REQUEST_ID}`);
    expect(bodyRows(await table())).toHaveLength(2);
    expect(screen.queryByRole("navigation", { name: "Pagination" })).not.toBeInTheDocument();
  });

  it("dit qu'une page n'a pas pu être chargée et la redemande", async () => {
    let fail = true;
    stubApi(makeProfile(), {
      [`GET ${BASE}`]: () =>
        json(200, makeRequestDetail(REQUEST_ID, { access_log: newest, access_log_has_more: true })),
      [`GET ${BASE}/comparison`]: () => json(200, { cover: null, original: null, offers: [], rows: [] }),
      [`GET ${BASE}/access-log`]: () =>
        fail
          ? json(500, { error: { code: "INTERNAL", message: "Erreur interne." } })
          : json(200, { items: older, page: 2, page_size: 20, has_more: false }),
    });
    const user = userEvent.setup();
    renderApp(`/patient/request/${REQUEST_ID}`);
    await table();
    await user.click(screen.getByRole("button", { name: "Suivant" }));
    expect(await screen.findByText("Ces consultations n'ont pas pu être chargées.")).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole("button", { name: "Réessayer" }));
    await waitFor(async () => expect(within(await table()).getAllByText("Claire Petit")).toHaveLength(2));
  });
});
