import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { addDays, parisLocalToDate, parisToday } from "../../../shared/format/paris";
import { ERASURE_MESSAGES } from "../../../shared/schemas/account";
import {
  ADMIN_MESSAGES,
  type AdminStats,
  type AdminUser,
  type VerificationRequest,
} from "../../../shared/schemas/admin";
import type { SupportMessage, SupportThread } from "../../../shared/schemas/support";
import { setRealtimeSocketFactory } from "../../lib/realtime";
import { FakeSocket, resetRealtime } from "../../test/fakes";
import {
  failingUntilRecovered,
  json,
  makeProfile,
  renderApp,
  stubApi,
  toResponse,
} from "../../test/renderApp";
import { supportMessage } from "../../test/support";
import { spaced } from "../../test/text";

const admin = makeProfile({
  id: "00000000-0000-4000-8000-0000000000ad",
  email: "admin@sourio.fr",
  first_name: "Claire",
  last_name: "Morel",
  full_name: "Claire Morel",
  is_admin: true,
});

const STATS: AdminStats = {
  patients: 12,
  dentists: 3,
  verification_requests: 1,
  unread_support: 2,
  unhandled_contact: 4,
};

/** « Vérifier » Thomas Bernard as the screens send it: with the RPPS number and practice they showed. */
const BERNARD_VERIFIED = {
  decision: "verify",
  reason: "",
  checked: { rpps: "10001234565", practice_address: "12 rue de la République", practice_postcode: "13001" },
};

function user(overrides: Partial<AdminUser>): AdminUser {
  return {
    id: "u1",
    full_name: "Julien Martin",
    email: "dr.martin@example.fr",
    role: "dentist",
    is_verified: true,
    verification_state: "verified",
    rpps: "10003456787",
    practice_address: "8 avenue Foch",
    practice_postcode: "69006",
    created_at: "2026-03-05T10:00:00.000Z",
    suspended_at: null,
    suspension_reason: null,
    suspension_ends_at: null,
    two_factor_enabled: false,
    ...overrides,
  };
}

const DENTISTS: AdminUser[] = [
  user({ id: "d1" }),
  user({
    id: "d2",
    full_name: "Thomas Bernard",
    email: "dr.bernard@example.fr",
    is_verified: false,
    verification_state: "requested",
    rpps: "10001234565",
    practice_address: "12 rue de la République",
    practice_postcode: "13001",
    created_at: "2026-02-01T10:00:00.000Z",
  }),
];
const PATIENTS: AdminUser[] = [
  user({
    id: "p1",
    full_name: "Marie Dupont",
    email: "marie@example.fr",
    role: "patient",
    is_verified: false,
    verification_state: "none",
  }),
  user({
    id: "p2",
    full_name: "Lina Aide",
    email: "lina@example.fr",
    role: "patient",
    is_verified: false,
    verification_state: "none",
  }),
];

/** Marie Dupont, suspended by the team (ADR 092). */
const SUSPENDED_DUPONT: AdminUser = {
  ...(PATIENTS[0] as AdminUser),
  suspended_at: "2026-12-03T09:00:00.000Z",
  suspension_reason: "Faux devis déposés à plusieurs reprises.",
};

const P1 = "a0000000-0000-4000-8000-000000000001";
const P2 = "a0000000-0000-4000-8000-000000000002";

const THREADS: SupportThread[] = [
  {
    patient_id: P1,
    role: "patient",
    patient_name: "Marie Dupont",
    patient_email: "marie@example.fr",
    last_message: "Comment joindre mon devis ?",
    last_message_at: "2026-03-12T08:00:00.000Z",
    unread: 2,
  },
  {
    patient_id: P2,
    role: "dentist",
    patient_name: "Lina Aide",
    patient_email: "lina@example.fr",
    last_message: "Merci !",
    last_message_at: "2026-03-10T08:00:00.000Z",
    unread: 0,
  },
];

const message = (overrides: Partial<SupportMessage>) => supportMessage({ patient_id: P1, ...overrides });

const THREAD: SupportMessage[] = [
  message({
    id: "m1",
    body: "Voici une capture",
    image: { url: "/api/support/messages/m1/image", name: "capture.png" },
  }),
  message({ id: "m2", body: "Comment joindre mon devis ?" }),
];

type Answer = { status: number; body?: unknown };
type Handler = (url: URL, body: unknown) => Answer | undefined;

/** The admin API: handlers by "METHOD /path" get the URL (query string) and the JSON body. */
function stubAdminApi(handlers: Record<string, Handler> = {}) {
  const fallback = stubApi(admin);
  const calls: { key: string; url: URL; body: unknown }[] = [];
  const read = new Set<string>();
  const defaults: Record<string, Handler> = {
    "GET /api/admin/stats": () => json(200, STATS),
    "GET /api/admin/users": (url) => {
      const role = url.searchParams.get("role");
      const term = (url.searchParams.get("search") ?? "").toLowerCase();
      const items = (role === "dentist" ? DENTISTS : PATIENTS).filter(
        (u) => u.full_name.toLowerCase().includes(term) || u.email.includes(term),
      );
      return json(200, {
        items,
        page: Number(url.searchParams.get("page") ?? 1),
        page_size: 10,
        has_more: false,
      });
    },
    "GET /api/admin/support/threads": () =>
      json(200, {
        items: THREADS.map((t) => (read.has(t.patient_id) ? { ...t, unread: 0 } : t)),
        page: 1,
        page_size: 10,
        has_more: false,
      }),
    [`GET /api/admin/support/threads/${P1}/messages`]: () => json(200, { items: THREAD, has_more: false }),
    [`POST /api/admin/support/threads/${P1}/read`]: () => {
      read.add(P1);
      return json(200, { read: 2 });
    },
  };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    const key = `${init?.method ?? "GET"} ${url.pathname}`;
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ key, url, body });
    const handler = handlers[key] ?? defaults[key];
    const answer = handler?.(url, body);
    if (!answer) return fallback(input, init);
    return toResponse(answer);
  });
  vi.stubGlobal("fetch", fetchMock);
  return { calls };
}

afterEach(resetRealtime);

/**
 * The patients' table, in which `patient` reads `once` (suspended) after a suspension is posted for
 * him; the calls made.
 */
function stubPatientSuspension(patient: AdminUser, once: Partial<AdminUser>) {
  let suspended = false;
  return stubAdminApi({
    "GET /api/admin/users": (url) =>
      url.searchParams.get("role") === "patient"
        ? json(200, {
            items: PATIENTS.map((p) => (suspended && p.id === patient.id ? { ...p, ...once } : p)),
            page: 1,
            page_size: 10,
            has_more: false,
          })
        : undefined,
    [`POST /api/admin/users/${patient.id}/suspension`]: () => {
      suspended = true;
      return json(200, { changed: true, renewal: null, message: ADMIN_MESSAGES.suspended });
    },
  });
}

/** « 6 janvier 2027 »: a calendar day as the screens write it, by the browser's own formatter. */
const writtenDay = (day: string) =>
  new Intl.DateTimeFormat("fr-FR", {
    timeZone: "Europe/Paris",
    day: "numeric",
    month: "long",
    year: "numeric",
  }).format(new Date(`${day}T12:00:00Z`));

/** The admin dashboard, « Suspendre » pressed on this patient's row: the table, the button, the dialog. */
async function openSuspension(person: ReturnType<typeof userEvent.setup>, name: string) {
  renderApp("/admin/dashboard");
  const patients = await screen.findByRole("table", { name: "Patients inscrits" });
  const opener = (
    await within(patients).findAllByRole("button", { name: `Suspendre le compte de ${name}` })
  )[0] as HTMLElement;
  await person.click(opener);
  const dialog = await screen.findByRole("dialog", { name: `Suspendre le compte de ${name}\u202f?` });
  return { patients, dialog };
}

describe("/admin/dashboard 'Administration'", () => {
  it("dit que les chiffres clés n'ont pas pu être chargés, et les recharge", async () => {
    let fail = true;
    stubAdminApi({
      "GET /api/admin/stats": () =>
        fail ? json(500, { error: { code: "INTERNAL", message: "Erreur interne." } }) : json(200, STATS),
    });
    const user = userEvent.setup();
    renderApp("/admin/dashboard");
    expect(await screen.findByText("Impossible de charger les chiffres clés")).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole("button", { name: "Réessayer" }));
    const counters = screen.getByRole("region", { name: "Chiffres clés" });
    await waitFor(() => expect(within(counters).getByText("12")).toBeInTheDocument());
    expect(screen.queryByText("Impossible de charger les chiffres clés")).not.toBeInTheDocument();
  });

  it("montre les compteurs, les dentistes (vérification, date jj/mm/aaaa) et les patients", async () => {
    stubAdminApi();
    renderApp("/admin/dashboard");
    expect(await screen.findByRole("heading", { level: 1, name: "Administration" })).toBeInTheDocument();
    const counters = await screen.findByRole("region", { name: "Chiffres clés" });
    await waitFor(() => expect(within(counters).getByText("12")).toBeInTheDocument());
    expect(within(counters).getByText("Patients")).toBeInTheDocument();
    expect(within(counters).getByText("3")).toBeInTheDocument();
    expect(within(counters).getByRole("link", { name: /Demandes de vérification/ })).toHaveAttribute(
      "href",
      "/admin/verifications",
    );
    expect(within(counters).getByRole("link", { name: /Messages non lus/ })).toHaveAttribute(
      "href",
      "/admin/chat-messages",
    );
    expect(within(counters).getByRole("link", { name: /Contacts à traiter/ })).toHaveAttribute(
      "href",
      "/admin/contact",
    );

    const dentists = await screen.findByRole("table", { name: "Dentistes inscrits" });
    const martin = within(dentists).getByRole("row", { name: /Julien Martin/ });
    expect(martin).toHaveTextContent("dr.martin@example.fr");
    // A narrow column breaks the address after its « @ », never mid-word (no break-all).
    const address = within(martin).getByText(
      (_, el) => el?.tagName === "SPAN" && el.textContent === "dr.martin@example.fr",
    );
    expect(address.innerHTML).toBe("dr.martin@<wbr>example.fr");
    expect(address).not.toHaveClass("break-all");
    expect(martin).toHaveTextContent("Vérifié");
    expect(martin).toHaveTextContent("05/03/2026");
    expect(
      within(martin).getByRole("button", { name: "Retirer la vérification de Julien Martin" }),
    ).toBeVisible();
    const bernard = within(dentists).getByRole("row", { name: /Thomas Bernard/ });
    expect(bernard).toHaveTextContent("Demande en attente");
    expect(within(bernard).getByRole("button", { name: "Vérifier Thomas Bernard" })).toBeVisible();

    const patients = await screen.findByRole("table", { name: "Patients inscrits" });
    expect(within(patients).getAllByRole("row")).toHaveLength(3);
    // Patients have no verification, only 'Suspendre' and 'Supprimer le compte'.
    const dupont = within(patients).getByRole("row", { name: /Marie Dupont/ });
    expect(
      within(dupont)
        .getAllByRole("button")
        .map((b) => b.getAttribute("aria-label")),
    ).toEqual(["Suspendre le compte de Marie Dupont", "Supprimer le compte de Marie Dupont"]);
    expect(dupont).not.toHaveTextContent("Suspendu");
    expect(
      within(martin).getByRole("button", { name: "Supprimer le compte de Julien Martin" }),
    ).toBeVisible();
    expect(within(patients).getByRole("columnheader", { name: "Inscription" })).toBeInTheDocument();
  });

  it("en direct : une demande de vérification ou un message de contact recharge les compteurs et la liste des dentistes", async () => {
    setRealtimeSocketFactory(() => new FakeSocket());
    let stats = STATS;
    const { calls } = stubAdminApi({ "GET /api/admin/stats": () => json(200, stats) });
    renderApp("/admin/dashboard");
    const counters = await screen.findByRole("region", { name: "Chiffres clés" });
    const tile = (name: RegExp) => within(counters).getByRole("link", { name });
    await waitFor(() => expect(tile(/Demandes de vérification/)).toHaveTextContent("1"));
    await waitFor(() => expect(FakeSocket.last).not.toBeNull());
    const dentistLists = () =>
      calls.filter((c) => c.key === "GET /api/admin/users" && c.url.searchParams.get("role") === "dentist")
        .length;
    const before = dentistLists();
    // A dentist asks for his verification, a visitor writes: the team's event, without ids.
    stats = { ...STATS, verification_requests: 2, unhandled_contact: 5 };
    act(() => {
      FakeSocket.last?.push({ type: "ready", user_id: admin.id });
      FakeSocket.last?.push({ type: "team" });
    });
    await waitFor(() => expect(tile(/Demandes de vérification/)).toHaveTextContent("2"));
    expect(tile(/Contacts à traiter/)).toHaveTextContent("5");
    await waitFor(() => expect(dentistLists()).toBeGreaterThan(before));
  });

  it("cherche côté serveur après une pause de frappe, et dit 'Aucun résultat'", async () => {
    const person = userEvent.setup();
    const { calls } = stubAdminApi();
    renderApp("/admin/dashboard");
    const patients = await screen.findByRole("table", { name: "Patients inscrits" });
    await person.type(screen.getByLabelText("Rechercher un patient"), "lina");
    await waitFor(() => expect(within(patients).queryByText("Marie Dupont")).not.toBeInTheDocument());
    expect(within(patients).getByText("Lina Aide")).toBeInTheDocument();
    const searches = calls.filter(
      (c) =>
        c.key === "GET /api/admin/users" &&
        c.url.searchParams.get("role") === "patient" &&
        c.url.searchParams.has("search"),
    );
    // One request for the whole word, not one per letter.
    expect(searches.map((c) => c.url.searchParams.get("search"))).toEqual(["lina"]);
    expect(searches[0]?.url.searchParams.get("page")).toBe("1");

    await person.type(screen.getByLabelText("Rechercher un patient"), "zzz");
    expect(await screen.findByRole("heading", { name: "Aucun résultat" })).toBeInTheDocument();
  });

  it("pages de 10 : Suivant demande la page 2, Précédent revient", async () => {
    const person = userEvent.setup();
    const { calls } = stubAdminApi({
      "GET /api/admin/users": (url) => {
        if (url.searchParams.get("role") !== "patient") return undefined;
        const page = Number(url.searchParams.get("page") ?? 1);
        const items = Array.from({ length: page === 1 ? 10 : 2 }, (_, i) =>
          user({
            id: `p${page}-${i}`,
            full_name: `Patient ${page}-${i}`,
            role: "patient",
            email: `p${page}${i}@x.fr`,
          }),
        );
        return json(200, { items, page, page_size: 10, has_more: page === 1 });
      },
    });
    renderApp("/admin/dashboard");
    const section = await screen.findByRole("region", { name: "Patients" });
    expect(await within(within(section).getByRole("table")).findByText("Patient 1-0")).toBeInTheDocument();
    expect(within(section).getByRole("button", { name: "Précédent" })).toBeDisabled();
    await person.click(within(section).getByRole("button", { name: "Suivant" }));
    expect(await within(within(section).getByRole("table")).findByText("Patient 2-1")).toBeInTheDocument();
    expect(within(section).getByText("Page 2")).toBeInTheDocument();
    expect(within(section).getByRole("button", { name: "Suivant" })).toBeDisabled();
    expect(
      calls.some(
        (c) => c.url.searchParams.get("role") === "patient" && c.url.searchParams.get("page") === "2",
      ),
    ).toBe(true);
    await person.click(within(section).getByRole("button", { name: "Précédent" }));
    expect(await within(within(section).getByRole("table")).findByText("Patient 1-0")).toBeInTheDocument();
  });

  it("vérifie un dentiste après confirmation, en montrant puis en renvoyant son RPPS et son cabinet", async () => {
    const person = userEvent.setup();
    const { calls } = stubAdminApi({
      "POST /api/admin/dentists/d2/verification": () =>
        json(200, { changed: true, is_verified: true, message: "Dentiste vérifié" }),
    });
    renderApp("/admin/dashboard");
    await person.click(
      (await screen.findAllByRole("button", { name: "Vérifier Thomas Bernard" }))[0] as HTMLElement,
    );
    const dialog = await screen.findByRole("dialog", { name: "Vérifier ce dentiste\u202f?" });
    expect(dialog).toHaveTextContent(spaced("Numéro RPPS\u202f: 10001234565"));
    expect(dialog).toHaveTextContent(spaced("Cabinet\u202f: 12 rue de la République, 13001"));
    await person.click(within(dialog).getByRole("button", { name: "Vérifier" }));
    expect(await screen.findByText("Dentiste vérifié")).toBeInTheDocument();
    expect(calls.find((c) => c.key === "POST /api/admin/dentists/d2/verification")?.body).toEqual(
      BERNARD_VERIFIED,
    );
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    // The table is asked again.
    expect(
      calls.filter((c) => c.key === "GET /api/admin/users" && c.url.searchParams.get("role") === "dentist")
        .length,
    ).toBeGreaterThan(1);
  });

  it("ne propose pas « Vérifier » pour un dentiste qui n'a pas donné son RPPS et son cabinet : il dit ce qui manque", async () => {
    const noe = user({
      id: "d3",
      full_name: "Noé Petit",
      email: "noe@example.fr",
      is_verified: false,
      verification_state: "none",
      rpps: null,
      practice_address: "2 rue Neuve",
      practice_postcode: null,
    });
    stubAdminApi({
      "GET /api/admin/users": (url) =>
        json(200, {
          items: url.searchParams.get("role") === "dentist" ? [...DENTISTS, noe] : [],
          page: 1,
          page_size: 10,
          has_more: false,
        }),
    });
    renderApp("/admin/dashboard");
    const section = await screen.findByRole("region", { name: "Dentistes" });
    const row = (await within(section).findAllByText("Noé Petit"))[0]?.closest("tr, li") as HTMLElement;
    expect(row).toHaveTextContent(
      spaced("Dossier incomplet\u202f: numéro RPPS et code postal à renseigner par le dentiste"),
    );
    expect(within(row).queryByRole("button", { name: /^Vérifier/ })).not.toBeInTheDocument();
    // The others keep theirs.
    expect(
      within(section).getAllByRole("button", { name: "Vérifier Thomas Bernard" }).length,
    ).toBeGreaterThan(0);
  });

  it("retire la vérification ('Dentiste non vérifié') ; une erreur est dite en français", async () => {
    const person = userEvent.setup();
    const verification = failingUntilRecovered(() =>
      json(200, { changed: true, is_verified: false, renewal: null, message: "Dentiste non vérifié" }),
    );
    const { calls } = stubAdminApi({ "POST /api/admin/dentists/d1/verification": verification.respond });
    const sent = () => calls.filter((c) => c.key === "POST /api/admin/dentists/d1/verification");
    renderApp("/admin/dashboard");
    await person.click(
      (
        await screen.findAllByRole("button", { name: "Retirer la vérification de Julien Martin" })
      )[0] as HTMLElement,
    );
    const dialog = await screen.findByRole("dialog", { name: "Retirer la vérification\u202f?" });
    // What follows, said before: the server hides his work and refuses his patients' acceptances.
    expect(dialog).toHaveTextContent(
      spaced(
        "Julien Martin ne verra plus les demandes des patients, ses conversations ni ses rendez-vous, dès maintenant\u202f; les patients ne pourront plus accepter ses propositions ni prendre rendez-vous dans son cabinet. Son abonnement, s'il en a un, n'est plus renouvelé\u202f: il prend fin avec la période payée. Un e-mail lui dira la raison.",
      ),
    );
    // The reason he reads is asked first, as the server asks it: nothing is sent without it.
    await person.click(within(dialog).getByRole("button", { name: "Retirer la vérification" }));
    const reason = within(dialog).getByRole("textbox", { name: /Raison du retrait/ });
    expect(reason).toHaveAccessibleDescription(ADMIN_MESSAGES.withdrawalReasonRequired);
    expect(sent()).toEqual([]);
    await person.type(reason, "Numéro RPPS inactif au répertoire");
    await person.click(within(dialog).getByRole("button", { name: "Retirer la vérification" }));
    expect(
      await screen.findByText("Erreur lors de la mise à jour du statut de vérification"),
    ).toBeInTheDocument();
    expect(sent()[0]?.body).toEqual({ decision: "unverify", reason: "Numéro RPPS inactif au répertoire" });
    // The dialog stays open to try again.
    verification.recover();
    await person.click(within(dialog).getByRole("button", { name: "Retirer la vérification" }));
    expect(await screen.findByText("Dentiste non vérifié")).toBeInTheDocument();
  });

  it("supprime le compte d'un patient à sa demande après confirmation, puis relit la liste", async () => {
    const person = userEvent.setup();
    let erased = false;
    let attempts = 0;
    const { calls } = stubAdminApi({
      "GET /api/admin/users": (url) =>
        url.searchParams.get("role") === "patient"
          ? json(200, {
              items: PATIENTS.filter((p) => !(erased && p.id === "p1")),
              page: 1,
              page_size: 10,
              has_more: false,
            })
          : undefined,
      "POST /api/admin/users/p1/erase": () => {
        attempts += 1;
        if (attempts === 1)
          return json(409, {
            error: { code: "CONFLICT", message: ERASURE_MESSAGES.upcomingAppointments(false) },
          });
        erased = true;
        return json(200, { message: ERASURE_MESSAGES.erasedByAdmin });
      },
    });
    renderApp("/admin/dashboard");
    const patients = await screen.findByRole("table", { name: "Patients inscrits" });
    const opener = (
      await within(patients).findAllByRole("button", { name: "Supprimer le compte de Marie Dupont" })
    )[0] as HTMLElement;

    // Cancelling sends nothing.
    await person.click(opener);
    let dialog = await screen.findByRole("dialog", { name: "Supprimer le compte de Marie Dupont\u202f?" });
    await person.click(within(dialog).getByRole("button", { name: "Annuler" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(opener).toHaveFocus();
    expect(calls.filter((c) => c.key === "POST /api/admin/users/p1/erase")).toHaveLength(0);

    await person.click(opener);
    dialog = await screen.findByRole("dialog", { name: "Supprimer le compte de Marie Dupont\u202f?" });
    expect(dialog).toHaveTextContent("à la demande de la personne (marie@example.fr)");
    expect(dialog).toHaveTextContent("inscrite au journal d'audit");
    const usersReads = () =>
      calls.filter((c) => c.key === "GET /api/admin/users" && c.url.searchParams.get("role") === "patient")
        .length;

    // An appointment to come: the server's reason stays in the dialog.
    await person.click(within(dialog).getByRole("button", { name: "Supprimer le compte" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      spaced(ERASURE_MESSAGES.upcomingAppointments(false)),
    );
    const readsBefore = usersReads();

    await person.click(within(dialog).getByRole("button", { name: "Supprimer le compte" }));
    expect(await screen.findByText(ERASURE_MESSAGES.erasedByAdmin)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    const posts = calls.filter((c) => c.key === "POST /api/admin/users/p1/erase");
    expect(posts).toHaveLength(2);
    expect(posts[1]?.body).toBeUndefined();
    // The list is asked again and the person is gone from it.
    await waitFor(() => expect(within(patients).queryByText("Marie Dupont")).not.toBeInTheDocument());
    expect(usersReads()).toBeGreaterThan(readsBefore);
    expect(within(patients).getByText("Lina Aide")).toBeInTheDocument();
  });

  it("montre un patient suspendu : badge « Suspendu », date et raison, « Rétablir » au lieu de « Suspendre », « Date de fin »", async () => {
    stubAdminApi({
      "GET /api/admin/users": (url) =>
        url.searchParams.get("role") === "patient"
          ? json(200, { items: [SUSPENDED_DUPONT, PATIENTS[1]], page: 1, page_size: 10, has_more: false })
          : undefined,
    });
    renderApp("/admin/dashboard");
    const patients = await screen.findByRole("table", { name: "Patients inscrits" });
    const dupont = await within(patients).findByRole("row", { name: /Marie Dupont/ });
    expect(within(dupont).getByText("Suspendu")).toBeInTheDocument();
    expect(dupont).toHaveTextContent("Suspendu le 3 décembre 2026");
    expect(dupont).toHaveTextContent("Raison : Faux devis déposés à plusieurs reprises.");
    expect(
      within(dupont)
        .getAllByRole("button")
        .map((b) => b.getAttribute("aria-label")),
    ).toEqual([
      "Rétablir le compte de Marie Dupont",
      "Changer la date de fin de la suspension de Marie Dupont",
      "Supprimer le compte de Marie Dupont",
    ]);
    // The others are not suspended.
    const lina = within(patients).getByRole("row", { name: /Lina Aide/ });
    expect(within(lina).queryByText("Suspendu")).not.toBeInTheDocument();
    expect(within(lina).getByRole("button", { name: "Suspendre le compte de Lina Aide" })).toBeVisible();
  });

  it("« Comptes suspendus seulement » demande les seuls comptes suspendus, et dit quand il n'y en a pas", async () => {
    let suspendedOnes: AdminUser[] = [SUSPENDED_DUPONT];
    const { calls } = stubAdminApi({
      "GET /api/admin/users": (url) =>
        url.searchParams.get("role") !== "patient"
          ? undefined
          : json(200, {
              items: url.searchParams.get("suspended") === "1" ? suspendedOnes : PATIENTS,
              page: 1,
              page_size: 10,
              has_more: false,
            }),
    });
    const person = userEvent.setup();
    renderApp("/admin/dashboard");
    const section = await screen.findByRole("region", { name: "Patients" });
    const patients = within(section).getByRole("table", { name: "Patients inscrits" });
    expect(await within(patients).findByText("Lina Aide")).toBeInTheDocument();
    const filter = within(section).getByRole("checkbox", { name: "Comptes suspendus seulement" });
    expect(filter).not.toBeChecked();

    await person.click(filter);
    await waitFor(() => expect(within(patients).queryByText("Lina Aide")).not.toBeInTheDocument());
    expect(within(patients).getByRole("row", { name: /Marie Dupont/ })).toHaveTextContent("Suspendu");
    const asked = calls.filter(
      (c) => c.key === "GET /api/admin/users" && c.url.searchParams.get("role") === "patient",
    );
    expect(asked.at(-1)?.url.searchParams.get("suspended")).toBe("1");
    expect(asked.at(-1)?.url.searchParams.get("page")).toBe("1");
    // The dentists' table keeps its own filter, unchecked.
    const dentists = await screen.findByRole("region", { name: "Dentistes" });
    expect(within(dentists).getByRole("checkbox", { name: "Comptes suspendus seulement" })).not.toBeChecked();

    // None left: said as such, not « Aucun résultat ».
    suspendedOnes = [];
    await person.click(within(section).getByRole("button", { name: "Actualiser la liste des patients" }));
    expect(
      await within(section).findByRole("heading", { name: "Aucun compte suspendu" }),
    ).toBeInTheDocument();

    // Unchecked: every patient again (the table is drawn anew after the empty state).
    await person.click(filter);
    const again = await within(section).findByRole("table", { name: "Patients inscrits" });
    expect(await within(again).findByText("Lina Aide")).toBeInTheDocument();
  });

  it("suspend un patient : une raison vide est refusée sans rien envoyer, puis la raison est envoyée et la liste relue", async () => {
    const person = userEvent.setup();
    const { calls } = stubPatientSuspension(PATIENTS[1] as AdminUser, {
      suspended_at: "2026-12-03T09:00:00.000Z",
      suspension_reason: "Usage frauduleux",
    });
    const { patients, dialog } = await openSuspension(person, "Lina Aide");
    expect(dialog).toHaveTextContent("Lina Aide ne pourra plus se connecter");
    expect(dialog).toHaveTextContent("Ses demandes nouvelles ou en cours sont annulées");
    expect(dialog).not.toHaveTextContent("abonnement");
    expect(dialog).toHaveTextContent("inscrite au journal d'audit à votre nom");
    const suspensions = () => calls.filter((c) => c.key === "POST /api/admin/users/p2/suspension");

    // Nothing written (spaces only): the field says why, nothing is sent.
    const reason = within(dialog).getByRole("textbox", {
      name: /^Raison de la suspension \(la personne la lira\)/,
    });
    await person.type(reason, "   ");
    await person.click(within(dialog).getByRole("button", { name: "Suspendre le compte" }));
    expect(
      await within(dialog).findByText(spaced(ADMIN_MESSAGES.suspensionReasonRequired)),
    ).toBeInTheDocument();
    expect(reason).toHaveAttribute("aria-invalid", "true");
    expect(suspensions()).toHaveLength(0);

    await person.clear(reason);
    await person.type(reason, "  Usage frauduleux  ");
    expect(reason).not.toHaveAttribute("aria-invalid");
    await person.click(within(dialog).getByRole("button", { name: "Suspendre le compte" }));
    expect(await screen.findByText("Compte suspendu")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(suspensions()).toHaveLength(1);
    expect(suspensions()[0]?.body).toEqual({ reason: "Usage frauduleux" });
    // The list is read again: the row now says so, and offers « Rétablir » (the focus is back on it).
    const lina = within(patients).getByRole("row", { name: /Lina Aide/ });
    await waitFor(() => expect(lina).toHaveTextContent("Suspendu le 3 décembre 2026"));
    const reinstate = within(lina).getByRole("button", { name: "Rétablir le compte de Lina Aide" });
    expect(reinstate).toHaveFocus();
    expect(within(lina).queryByRole("button", { name: /^Suspendre/ })).not.toBeInTheDocument();
  });

  it("suspend jusqu'à un jour choisi : un jour passé ou à plus d'un an est refusé sous le champ, le jour est envoyé et la ligne le dit", async () => {
    const person = userEvent.setup();
    const today = parisToday(new Date());
    const endsOn = addDays(today, 10);
    const { calls } = stubPatientSuspension(PATIENTS[0] as AdminUser, {
      suspended_at: "2026-12-03T09:00:00.000Z",
      suspension_reason: "Usage frauduleux",
      // 0:00 in Paris (winter time) on the chosen day.
      suspension_ends_at: `${addDays(endsOn, -1)}T23:00:00.000Z`,
    });
    const { patients, dialog } = await openSuspension(person, "Marie Dupont");
    expect(dialog).toHaveTextContent("si vous choisissez un jour de fin, elle est levée ce jour-là");
    await person.type(
      within(dialog).getByRole("textbox", { name: /^Raison de la suspension/ }),
      "Usage frauduleux",
    );
    const day = within(dialog).getByLabelText("Rétablir automatiquement le (facultatif)");
    expect(day).toHaveAttribute("type", "date");
    expect(day).toHaveAttribute("min", addDays(today, 1));
    expect(day).toHaveAttribute("max", addDays(today, 365));
    expect(day).toHaveAccessibleDescription(/rétabli ce jour-là à 0 h, heure de Paris/);
    const suspensions = () => calls.filter((c) => c.key === "POST /api/admin/users/p1/suspension");

    // Today: refused under the field, nothing sent.
    fireEvent.change(day, { target: { value: today } });
    await person.click(within(dialog).getByRole("button", { name: "Suspendre le compte" }));
    expect(await within(dialog).findByText(spaced(ADMIN_MESSAGES.suspensionEndPast))).toBeInTheDocument();
    expect(day).toHaveAttribute("aria-invalid", "true");
    // More than a year away: refused too.
    fireEvent.change(day, { target: { value: addDays(today, 366) } });
    expect(day).not.toHaveAttribute("aria-invalid");
    await person.click(within(dialog).getByRole("button", { name: "Suspendre le compte" }));
    expect(await within(dialog).findByText(spaced(ADMIN_MESSAGES.suspensionEndTooFar))).toBeInTheDocument();
    expect(suspensions()).toHaveLength(0);

    fireEvent.change(day, { target: { value: endsOn } });
    await person.click(within(dialog).getByRole("button", { name: "Suspendre le compte" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(suspensions().map((c) => c.body)).toEqual([{ reason: "Usage frauduleux", ends_on: endsOn }]);
    const dupont = within(patients).getByRole("row", { name: /Marie Dupont/ });
    const written = writtenDay(endsOn);
    await waitFor(() => expect(dupont).toHaveTextContent(`Rétabli automatiquement le ${written}`));
  });

  it("change la date de fin d'une suspension : le jour actuel proposé, un jour passé refusé sous le champ, un autre envoyé, le champ vidé la retire, un refus du serveur reste dans la fenêtre", async () => {
    const person = userEvent.setup();
    const today = parisToday(new Date());
    const endsOn = addDays(today, 10);
    const later = addDays(today, 20);
    const replies = [
      json(200, { changed: true, renewal: null, message: ADMIN_MESSAGES.suspensionEndSet }),
      json(200, { changed: true, renewal: null, message: ADMIN_MESSAGES.suspensionEndRemoved }),
      json(409, { error: { code: "CONFLICT", message: ADMIN_MESSAGES.notSuspended } }),
    ];
    const { calls } = stubAdminApi({
      "GET /api/admin/users": (url) =>
        url.searchParams.get("role") === "patient"
          ? json(200, {
              items: [
                {
                  ...SUSPENDED_DUPONT,
                  suspension_ends_at: parisLocalToDate(`${endsOn}T00:00`).toISOString(),
                },
              ],
              page: 1,
              page_size: 10,
              has_more: false,
            })
          : undefined,
      "PATCH /api/admin/users/p1/suspension": () => replies.shift(),
    });
    const changes = () =>
      calls.filter((c) => c.key === "PATCH /api/admin/users/p1/suspension").map((c) => c.body);
    renderApp("/admin/dashboard");
    const patients = await screen.findByRole("table", { name: "Patients inscrits" });
    const open = async () => {
      await person.click(
        await within(patients).findByRole("button", {
          name: "Changer la date de fin de la suspension de Marie Dupont",
        }),
      );
      return screen.findByRole("dialog", { name: "Fin de la suspension du compte de Marie Dupont" });
    };

    let dialog = await open();
    const written = writtenDay(endsOn);
    expect(dialog).toHaveTextContent(`Le compte de Marie Dupont sera rétabli le ${written}.`);
    let day = within(dialog).getByLabelText("Rétablir automatiquement le (facultatif)");
    expect(day).toHaveValue(endsOn);
    fireEvent.change(day, { target: { value: today } });
    await person.click(within(dialog).getByRole("button", { name: "Enregistrer" }));
    expect(await within(dialog).findByText(spaced(ADMIN_MESSAGES.suspensionEndPast))).toBeInTheDocument();
    expect(changes()).toHaveLength(0);
    fireEvent.change(day, { target: { value: later } });
    await person.click(within(dialog).getByRole("button", { name: "Enregistrer" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(await screen.findByText(ADMIN_MESSAGES.suspensionEndSet)).toBeInTheDocument();

    // Emptied: no end any more.
    dialog = await open();
    day = within(dialog).getByLabelText("Rétablir automatiquement le (facultatif)");
    fireEvent.change(day, { target: { value: "" } });
    await person.click(within(dialog).getByRole("button", { name: "Enregistrer" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    // Lifted meanwhile: the server's refusal stays in the dialog.
    dialog = await open();
    await person.click(within(dialog).getByRole("button", { name: "Enregistrer" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(spaced(ADMIN_MESSAGES.notSuspended));
    expect(changes()).toEqual([{ ends_on: later }, { ends_on: null }, { ends_on: endsOn }]);
  });

  it("suspendre : un refus du serveur sur le jour de fin s'affiche sous le champ", async () => {
    const person = userEvent.setup();
    stubAdminApi({
      "POST /api/admin/users/p1/suspension": () =>
        json(400, {
          error: {
            code: "VALIDATION_ERROR",
            message: ADMIN_MESSAGES.suspensionEndPast,
            fields: { ends_on: ADMIN_MESSAGES.suspensionEndPast },
          },
        }),
    });
    const { dialog } = await openSuspension(person, "Marie Dupont");
    await person.type(
      within(dialog).getByRole("textbox", { name: /^Raison de la suspension/ }),
      "Usage frauduleux",
    );
    const day = within(dialog).getByLabelText("Rétablir automatiquement le (facultatif)");
    fireEvent.change(day, { target: { value: addDays(parisToday(new Date()), 2) } });
    await person.click(within(dialog).getByRole("button", { name: "Suspendre le compte" }));
    expect(await within(dialog).findByText(spaced(ADMIN_MESSAGES.suspensionEndPast))).toBeInTheDocument();
    expect(day).toHaveAttribute("aria-invalid", "true");
    expect(within(dialog).queryByRole("alert")).not.toBeInTheDocument();
  });

  it("suspendre un dentiste : dit qu'il perd sa vérification ; un refus du serveur (409) reste dans la fenêtre", async () => {
    const person = userEvent.setup();
    const { calls } = stubAdminApi({
      "POST /api/admin/users/d1/suspension": () =>
        json(409, { error: { code: "CONFLICT", message: ADMIN_MESSAGES.notSuspendable } }),
    });
    renderApp("/admin/dashboard");
    await person.click(
      (
        await screen.findAllByRole("button", { name: "Suspendre le compte de Julien Martin" })
      )[0] as HTMLElement,
    );
    const dialog = await screen.findByRole("dialog", { name: "Suspendre le compte de Julien Martin\u202f?" });
    expect(dialog).toHaveTextContent("Sa vérification lui est retirée");
    expect(dialog).not.toHaveTextContent("Ses demandes nouvelles ou en cours");
    await person.type(within(dialog).getByRole("textbox", { name: /^Raison de la suspension/ }), "Faux RPPS");
    await person.click(within(dialog).getByRole("button", { name: "Suspendre le compte" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(spaced(ADMIN_MESSAGES.notSuspendable));
    expect(screen.getByRole("dialog", { name: "Suspendre le compte de Julien Martin\u202f?" })).toBeVisible();
    const posts = calls.filter((c) => c.key === "POST /api/admin/users/d1/suspension");
    expect(posts).toHaveLength(1);
    expect(posts[0]?.body).toEqual({ reason: "Faux RPPS" });
    expect(screen.queryByText("Compte suspendu")).not.toBeInTheDocument();
  });

  it("suspendre un dentiste abonné : dit que son abonnement n'est plus renouvelé ; un échec du prestataire reste affiché en avertissement", async () => {
    const person = userEvent.setup();
    stubAdminApi({
      "POST /api/admin/users/d1/suspension": () =>
        json(200, { changed: true, renewal: "failed", message: ADMIN_MESSAGES.suspendedRenewalFailed }),
    });
    renderApp("/admin/dashboard");
    await person.click(
      (
        await screen.findAllByRole("button", { name: "Suspendre le compte de Julien Martin" })
      )[0] as HTMLElement,
    );
    const dialog = await screen.findByRole("dialog", { name: "Suspendre le compte de Julien Martin\u202f?" });
    expect(dialog).toHaveTextContent("Son abonnement, s'il en a un, n'est plus renouvelé");
    await person.type(within(dialog).getByRole("textbox", { name: /^Raison de la suspension/ }), "Faux RPPS");
    await person.click(within(dialog).getByRole("button", { name: "Suspendre le compte" }));
    const warning = await screen.findByText(spaced(ADMIN_MESSAGES.suspendedRenewalFailed));
    expect(warning.closest("[data-sonner-toast]")).toHaveAttribute("data-type", "warning");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("retirer la vérification d'un dentiste abonné : un échec du prestataire reste affiché en avertissement", async () => {
    const person = userEvent.setup();
    stubAdminApi({
      "POST /api/admin/dentists/d1/verification": () =>
        json(200, {
          changed: true,
          is_verified: false,
          renewal: "failed",
          message: ADMIN_MESSAGES.unverifiedRenewalFailed,
        }),
    });
    renderApp("/admin/dashboard");
    await person.click(
      (
        await screen.findAllByRole("button", { name: "Retirer la vérification de Julien Martin" })
      )[0] as HTMLElement,
    );
    const dialog = await screen.findByRole("dialog", { name: "Retirer la vérification\u202f?" });
    await person.type(
      within(dialog).getByRole("textbox", { name: /Raison du retrait/ }),
      "Numéro RPPS inactif",
    );
    await person.click(within(dialog).getByRole("button", { name: "Retirer la vérification" }));
    const warning = await screen.findByText(spaced(ADMIN_MESSAGES.unverifiedRenewalFailed));
    expect(warning.closest("[data-sonner-toast]")).toHaveAttribute("data-type", "warning");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("n'offre pas « Vérifier » sur un dentiste suspendu : « Rétablir » d'abord", async () => {
    stubAdminApi({
      "GET /api/admin/users": (url) =>
        url.searchParams.get("role") === "dentist"
          ? json(200, {
              items: [
                {
                  // His file complete (a valid RPPS number): only the suspension keeps « Vérifier » away.
                  ...(DENTISTS[1] as AdminUser),
                  full_name: "Julien Martin",
                  verification_state: "withdrawn",
                  suspended_at: "2026-12-03T09:00:00.000Z",
                  suspension_reason: "Faux RPPS",
                },
              ],
              page: 1,
              page_size: 10,
              has_more: false,
            })
          : undefined,
    });
    renderApp("/admin/dashboard");
    const dentists = await screen.findByRole("table", { name: "Dentistes inscrits" });
    const row = await within(dentists).findByRole("row", { name: /Julien Martin/ });
    expect(
      within(row).getByRole("button", { name: "Rétablir le compte de Julien Martin" }),
    ).toBeInTheDocument();
    expect(within(row).queryByRole("button", { name: /^Vérifier/ })).not.toBeInTheDocument();
  });

  it("rétablit un compte suspendu après confirmation (DELETE) ; une erreur est dite en français", async () => {
    const person = userEvent.setup();
    const reinstatement = failingUntilRecovered(() =>
      json(200, { changed: true, renewal: null, message: ADMIN_MESSAGES.reinstated }),
    );
    const { calls } = stubAdminApi({
      "GET /api/admin/users": (url) =>
        url.searchParams.get("role") === "patient"
          ? json(200, { items: [SUSPENDED_DUPONT], page: 1, page_size: 10, has_more: false })
          : undefined,
      "DELETE /api/admin/users/p1/suspension": reinstatement.respond,
    });
    renderApp("/admin/dashboard");
    await person.click(
      (
        await screen.findAllByRole("button", { name: "Rétablir le compte de Marie Dupont" })
      )[0] as HTMLElement,
    );
    const dialog = await screen.findByRole("dialog", { name: "Rétablir le compte de Marie Dupont\u202f?" });
    expect(dialog).toHaveTextContent("Marie Dupont pourra de nouveau se connecter");
    expect(dialog).toHaveTextContent("Ses demandes annulées par la suspension restent annulées.");
    expect(dialog).toHaveTextContent("Raison de la suspension : Faux devis déposés à plusieurs reprises.");
    await person.click(within(dialog).getByRole("button", { name: "Rétablir le compte" }));
    expect(await screen.findByText(ADMIN_MESSAGES.suspensionFailed)).toBeInTheDocument();
    // The dialog stays open to try again.
    reinstatement.recover();
    await person.click(within(dialog).getByRole("button", { name: "Rétablir le compte" }));
    expect(await screen.findByText("Compte rétabli")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    const deletes = calls.filter((c) => c.key === "DELETE /api/admin/users/p1/suspension");
    expect(deletes).toHaveLength(2);
    expect(deletes[1]?.body).toBeUndefined();
    expect(calls.some((c) => c.key === "POST /api/admin/users/p1/suspension")).toBe(false);
  });

  it("retire la double authentification d'un patient qui l'a, après confirmation (DELETE) ; pas de bouton sans elle", async () => {
    const person = userEvent.setup();
    const removal = failingUntilRecovered(() => json(200, { message: ADMIN_MESSAGES.twoFactorRemoved }));
    const { calls } = stubAdminApi({
      "GET /api/admin/users": (url) =>
        url.searchParams.get("role") === "patient"
          ? json(200, {
              items: [{ ...(PATIENTS[0] as AdminUser), two_factor_enabled: true }, PATIENTS[1]],
              page: 1,
              page_size: 10,
              has_more: false,
            })
          : undefined,
      "DELETE /api/admin/users/p1/two-factor": removal.respond,
    });
    renderApp("/admin/dashboard");
    const buttons = await screen.findAllByRole("button", {
      name: "Retirer la double authentification de Marie Dupont",
    });
    // Only the patient who has it (the other row has no such button), with its badge by her name.
    expect(screen.queryAllByRole("button", { name: /^Retirer la double authentification/ })).toHaveLength(
      buttons.length,
    );
    expect(screen.getAllByText("Double authentification").length).toBeGreaterThan(0);
    await person.click(buttons[0] as HTMLElement);
    const dialog = await screen.findByRole("dialog", {
      name: "Retirer la double authentification de Marie Dupont\u202f?",
    });
    expect(dialog).toHaveTextContent("après avoir vérifié que c'est bien elle");
    expect(dialog).toHaveTextContent("Ses appareils seront déconnectés");
    await person.click(within(dialog).getByRole("button", { name: "Retirer la double authentification" }));
    expect(await screen.findByText(ADMIN_MESSAGES.twoFactorFailed)).toBeInTheDocument();
    // The dialog stays open to try again.
    removal.recover();
    await person.click(within(dialog).getByRole("button", { name: "Retirer la double authentification" }));
    expect(await screen.findByText(spaced(ADMIN_MESSAGES.twoFactorRemoved))).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(calls.filter((c) => c.key === "DELETE /api/admin/users/p1/two-factor")).toHaveLength(2);
  });

  it("dit 'Impossible de charger les utilisateurs' et propose de réessayer", async () => {
    stubAdminApi({
      "GET /api/admin/users": () => json(500, { error: { code: "INTERNAL", message: "Erreur" } }),
    });
    renderApp("/admin/dashboard");
    expect((await screen.findAllByText("Impossible de charger les utilisateurs")).length).toBeGreaterThan(0);
    await waitFor(() => expect(screen.getAllByRole("button", { name: "Réessayer" })).toHaveLength(2));
  });
});

describe("/admin/verifications", () => {
  const REQUEST: VerificationRequest = {
    id: "d2",
    full_name: "Thomas Bernard",
    email: "dr.bernard@example.fr",
    city: "Marseille",
    rpps: "10001234565",
    practice_address: "12 rue de la République",
    practice_postcode: "13001",
    requested_at: "2026-03-10T09:00:00.000Z",
    previous_refusal: "Le numéro RPPS ne correspondait pas.",
    same_rpps: [],
  };

  it("montre la demande (RPPS, cabinet, date, refus précédent) ; un refus sans raison est dit sous le champ, sans rien envoyer", async () => {
    const person = userEvent.setup();
    const { calls } = stubAdminApi({
      "GET /api/admin/verification-requests": () =>
        json(200, { items: [REQUEST], page: 1, page_size: 10, has_more: false }),
      "POST /api/admin/dentists/d2/verification": (_url, body) =>
        (body as { reason: string }).reason.trim()
          ? json(200, { changed: true, is_verified: false, message: "Demande de vérification refusée" })
          : json(400, {
              error: {
                code: "VALIDATION_ERROR",
                message: "Certains champs sont invalides.",
                fields: { reason: "Indiquez la raison du refus : le dentiste la lira." },
              },
            }),
    });
    renderApp("/admin/verifications");
    const card = within(await screen.findByRole("list", { name: "Demandes de vérification" })).getByRole(
      "listitem",
    );
    expect(card).toHaveTextContent("10001234565");
    expect(card).toHaveTextContent("12 rue de la République");
    expect(card).toHaveTextContent("13001");
    expect(card).toHaveTextContent("Marseille");
    expect(card).toHaveTextContent("10 mars 2026");
    expect(card).toHaveTextContent("Refus précédent");
    expect(card).toHaveTextContent("Le numéro RPPS ne correspondait pas.");
    expect(within(card).queryByRole("note", { name: "Même numéro RPPS" })).not.toBeInTheDocument();

    await person.click(within(card).getByRole("button", { name: "Refuser la demande de Thomas Bernard" }));
    const dialog = await screen.findByRole("dialog", { name: "Refuser la demande de vérification" });
    await person.click(within(dialog).getByRole("button", { name: "Refuser la demande" }));
    const reason = within(dialog).getByLabelText(/^Raison du refus/);
    expect(
      await within(dialog).findByText("Indiquez la raison du refus : le dentiste la lira."),
    ).toBeInTheDocument();
    expect(reason).toHaveAttribute("aria-invalid", "true");
    // The field takes the focus: its error is read with it, not shown in silence.
    expect(reason).toHaveFocus();

    // Too short to be read as the team's explanation: said, nothing sent.
    await person.type(reason, "ab");
    await person.click(within(dialog).getByRole("button", { name: "Refuser la demande" }));
    expect(await within(dialog).findByText(spaced(ADMIN_MESSAGES.reasonTooShort))).toBeInTheDocument();
    await person.clear(reason);

    await person.type(reason, "Diplôme illisible");
    await person.click(within(dialog).getByRole("button", { name: "Refuser la demande" }));
    expect(await screen.findByText("Demande de vérification refusée")).toBeInTheDocument();
    // The empty reason was refused before sending: one request, with the reason.
    expect(
      calls.filter((c) => c.key === "POST /api/admin/dentists/d2/verification").map((c) => c.body),
    ).toEqual([{ decision: "refuse", reason: "Diplôme illisible" }]);
  });

  it("un double clic sur « Refuser la demande » ou « Vérifier » n'envoie qu'une décision", async () => {
    const person = userEvent.setup();
    const { calls } = stubAdminApi({
      "GET /api/admin/verification-requests": () =>
        json(200, { items: [REQUEST], page: 1, page_size: 10, has_more: false }),
      "POST /api/admin/dentists/d2/verification": () =>
        json(200, { changed: true, is_verified: false, message: "Demande de vérification refusée" }),
    });
    renderApp("/admin/verifications");
    const card = within(await screen.findByRole("list", { name: "Demandes de vérification" })).getByRole(
      "listitem",
    );
    const posts = () => calls.filter((c) => c.key === "POST /api/admin/dentists/d2/verification");
    await person.click(within(card).getByRole("button", { name: "Refuser la demande de Thomas Bernard" }));
    const refusal = await screen.findByRole("dialog", { name: "Refuser la demande de vérification" });
    await person.type(within(refusal).getByLabelText(/^Raison du refus/), "Diplôme illisible");
    // Two clicks in a row, before the mutation's pending state (a task later) disables the button.
    const refuse = within(refusal).getByRole("button", { name: "Refuser la demande" });
    fireEvent.click(refuse);
    fireEvent.click(refuse);
    expect(await screen.findByText("Demande de vérification refusée")).toBeInTheDocument();
    expect(posts()).toHaveLength(1);

    await person.click(within(card).getByRole("button", { name: "Vérifier Thomas Bernard" }));
    const verifying = await screen.findByRole("dialog", { name: /^Vérifier ce dentiste/ });
    const verify = within(verifying).getByRole("button", { name: "Vérifier" });
    fireEvent.click(verify);
    fireEvent.click(verify);
    await waitFor(() => expect(posts()).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posts().map((c) => (c.body as { decision: string }).decision)).toEqual(["refuse", "verify"]);
  });

  it("vérifie la demande avec le RPPS et le cabinet qu'elle montre ; s'ils ont changé, le refus du serveur est dit", async () => {
    const person = userEvent.setup();
    let changed = true;
    const { calls } = stubAdminApi({
      "GET /api/admin/verification-requests": () =>
        json(200, { items: [REQUEST], page: 1, page_size: 10, has_more: false }),
      "POST /api/admin/dentists/d2/verification": () =>
        changed
          ? json(409, { error: { code: "CONFLICT", message: ADMIN_MESSAGES.changedSinceRead } })
          : json(200, { changed: true, is_verified: true, message: "Dentiste vérifié" }),
    });
    renderApp("/admin/verifications");
    const card = within(await screen.findByRole("list", { name: "Demandes de vérification" })).getByRole(
      "listitem",
    );
    await person.click(within(card).getByRole("button", { name: "Vérifier Thomas Bernard" }));
    let dialog = await screen.findByRole("dialog", { name: "Vérifier ce dentiste\u202f?" });
    await person.click(within(dialog).getByRole("button", { name: "Vérifier" }));
    expect(await screen.findByText(ADMIN_MESSAGES.changedSinceRead)).toBeInTheDocument();
    expect(calls.filter((c) => c.key === "POST /api/admin/dentists/d2/verification").at(-1)?.body).toEqual(
      BERNARD_VERIFIED,
    );
    // The dialog closes on the request read again: the admin decides on what it now shows.
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    changed = false;
    await person.click(within(card).getByRole("button", { name: "Vérifier Thomas Bernard" }));
    dialog = await screen.findByRole("dialog", { name: "Vérifier ce dentiste\u202f?" });
    await person.click(within(dialog).getByRole("button", { name: "Vérifier" }));
    expect(await screen.findByText("Dentiste vérifié")).toBeInTheDocument();
  });

  it("signale les autres comptes qui donnent le même numéro RPPS (ADR 075)", async () => {
    const same_rpps = [
      { id: "d7", full_name: "Thomas Bernard", email: "t.bernard@cabinet.fr", is_verified: true },
      { id: "d9", full_name: "T. Bernard", email: "tb@example.fr", is_verified: false },
    ];
    stubAdminApi({
      "GET /api/admin/verification-requests": () =>
        json(200, { items: [{ ...REQUEST, same_rpps }], page: 1, page_size: 10, has_more: false }),
    });
    renderApp("/admin/verifications");
    const list = await screen.findByRole("list", { name: "Demandes de vérification" });
    const note = within(list).getByRole("note", { name: "Même numéro RPPS" });
    expect(note).toHaveTextContent("Ce numéro RPPS est aussi donné par un autre compte");
    const others = within(note).getAllByRole("listitem");
    expect(others.map((o) => o.textContent)).toEqual([
      "Thomas Bernard (t.bernard@cabinet.fr) — vérifié",
      "T. Bernard (tb@example.fr) — non vérifié",
    ]);
  });

  it("rend le focus au bouton « Refuser » de la demande quand sa boîte de dialogue se ferme (Échap, Annuler)", async () => {
    const person = userEvent.setup();
    stubAdminApi({
      "GET /api/admin/verification-requests": () =>
        json(200, { items: [REQUEST], page: 1, page_size: 10, has_more: false }),
    });
    renderApp("/admin/verifications");
    const refuse = await screen.findByRole("button", { name: "Refuser la demande de Thomas Bernard" });
    refuse.focus();
    await person.keyboard("{Enter}");
    await screen.findByRole("dialog", { name: "Refuser la demande de vérification" });
    await person.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(refuse).toHaveFocus();

    await person.keyboard("{Enter}");
    const dialog = await screen.findByRole("dialog", { name: "Refuser la demande de vérification" });
    await person.click(within(dialog).getByRole("button", { name: "Annuler" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(refuse).toHaveFocus();
  });

  it("dit quand la file est vide", async () => {
    stubAdminApi({
      "GET /api/admin/verification-requests": () =>
        json(200, { items: [], page: 1, page_size: 10, has_more: false }),
    });
    renderApp("/admin/verifications");
    expect(await screen.findByRole("heading", { name: "Aucune demande en attente" })).toBeInTheDocument();
  });
});

describe("/admin/chat-messages 'Support'", () => {
  it("liste les conversations (point rouge lisible 'non lu') et attend une sélection", async () => {
    stubAdminApi();
    renderApp("/admin/chat-messages");
    expect(
      await screen.findByRole("heading", { name: "Aucune conversation sélectionnée" }),
    ).toBeInTheDocument();
    const marie = await screen.findByRole("link", { name: /Marie Dupont/ });
    expect(marie).toHaveAttribute("href", `/admin/chat-messages?p=${P1}`);
    expect(marie).toHaveTextContent("2 messages non lus");
    expect(marie).toHaveTextContent("Comment joindre mon devis ?");
    const lina = screen.getByRole("link", { name: /Lina Aide/ });
    expect(lina).not.toHaveTextContent("non lu");
    // Latest first.
    const links = screen.getAllByRole("link", { name: /Marie Dupont|Lina Aide/ });
    expect(links.map((l) => l.textContent?.slice(0, 5))).toEqual(["Marie", "Lina "]);
  });

  it("patients et dentistes dans une boîte : le rôle affiché, filtres Tous / Patients / Dentistes et non lus", async () => {
    const person = userEvent.setup();
    const { calls } = stubAdminApi({
      "GET /api/admin/support/threads": (url) => {
        const role = url.searchParams.get("role");
        const unreadOnly = url.searchParams.get("unread") === "1";
        const items = THREADS.filter((t) => (!role || t.role === role) && (!unreadOnly || t.unread > 0));
        return json(200, { items, page: 1, page_size: 10, has_more: false });
      },
    });
    renderApp("/admin/chat-messages");
    expect(await screen.findByRole("heading", { level: 1, name: "Support" })).toBeInTheDocument();
    const marie = await screen.findByRole("link", { name: /Marie Dupont/ });
    expect(marie).toHaveTextContent("Patient");
    expect(screen.getByRole("link", { name: /Lina Aide/ })).toHaveTextContent("Dentiste");
    const lastList = () => calls.filter((c) => c.key === "GET /api/admin/support/threads").at(-1)?.url;

    await person.click(screen.getByRole("button", { name: "Dentistes" }));
    expect(screen.getByRole("button", { name: "Dentistes" })).toHaveAttribute("aria-pressed", "true");
    await waitFor(() => expect(screen.queryByRole("link", { name: /Marie Dupont/ })).not.toBeInTheDocument());
    expect(screen.getByRole("link", { name: /Lina Aide/ })).toBeInTheDocument();
    expect(lastList()?.searchParams.get("role")).toBe("dentist");

    await person.click(screen.getByRole("checkbox", { name: "Non lus seulement" }));
    expect(await screen.findByText("Aucun message non lu.")).toBeInTheDocument();
    expect(lastList()?.searchParams.get("unread")).toBe("1");

    await person.click(screen.getByRole("button", { name: "Tous" }));
    expect(await screen.findByRole("link", { name: /Marie Dupont/ })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: /Lina Aide/ })).not.toBeInTheDocument();
    expect(lastList()?.searchParams.has("role")).toBe(false);
  });

  it("montre la demande dont parle un message : « À propos de la demande … »", async () => {
    stubAdminApi({
      [`GET /api/admin/support/threads/${P1}/messages`]: () =>
        json(200, {
          items: [
            message({
              id: "m5",
              body: "Une question sur cette demande",
              request: { id: "r1", label: "Couronne du 12/03/2026" },
            }),
          ],
          has_more: false,
        }),
    });
    renderApp(`/admin/chat-messages?p=${P1}`);
    const thread = await screen.findByRole("region", { name: "Conversation avec Marie Dupont" });
    expect(
      await within(thread).findByText("À propos de la demande Couronne du 12/03/2026"),
    ).toBeInTheDocument();
  });

  it("ouvrir une conversation la marque lue (le point disparaît) et montre texte et image", async () => {
    const person = userEvent.setup();
    const { calls } = stubAdminApi();
    renderApp("/admin/chat-messages");
    await person.click(await screen.findByRole("link", { name: /Marie Dupont/ }));
    const thread = await screen.findByRole("region", { name: "Conversation avec Marie Dupont" });
    expect(await within(thread).findByText("Voici une capture")).toBeInTheDocument();
    expect(within(thread).getByRole("img", { name: "capture.png" })).toHaveAttribute(
      "src",
      "/api/support/messages/m1/image",
    );
    await waitFor(() =>
      expect(calls.some((c) => c.key === `POST /api/admin/support/threads/${P1}/read`)).toBe(true),
    );
    await waitFor(() =>
      expect(screen.getByRole("link", { name: /Marie Dupont/ })).not.toHaveTextContent("non lu"),
    );
    expect(screen.queryByText("Aucune conversation sélectionnée")).not.toBeInTheDocument();
  });

  it("un échec du marquage comme lu est seulement journalisé", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    stubAdminApi({
      [`POST /api/admin/support/threads/${P1}/read`]: () =>
        json(500, { error: { code: "INTERNAL", message: "Erreur" } }),
    });
    renderApp(`/admin/chat-messages?p=${P1}`);
    await screen.findByText("Voici une capture");
    await waitFor(() => expect(logged).toHaveBeenCalled());
    expect(screen.queryByText("Impossible de charger les messages")).not.toBeInTheDocument();
  });

  it("répond : texte sans espaces autour, bouton désactivé à vide et pendant l'envoi, 'Réponse envoyée'", async () => {
    const person = userEvent.setup();
    let release: (() => void) | null = null;
    const { calls } = stubAdminApi();
    const original = globalThis.fetch;
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(String(input), "http://localhost");
        if (init?.method === "POST" && url.pathname === `/api/admin/support/threads/${P1}/messages`) {
          calls.push({ key: "POST reply", url, body: JSON.parse(String(init.body)) });
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          const reply = message({
            id: "m3",
            from_team: true,
            author_name: "Claire Morel",
            body: "Cliquez sur Nouvelle demande.",
            created_at: "2026-03-12T09:00:00.000Z",
          });
          return new Response(JSON.stringify(reply), {
            status: 201,
            headers: { "Content-Type": "application/json" },
          });
        }
        return original(input, init);
      }),
    );
    renderApp(`/admin/chat-messages?p=${P1}`);
    const box = await screen.findByRole("textbox", { name: "Votre réponse à Marie Dupont" });
    const send = screen.getByRole("button", { name: "Envoyer" });
    expect(send).toBeDisabled();
    await person.type(box, "   ");
    expect(send).toBeDisabled();
    await person.clear(box);
    await person.type(box, "  Cliquez sur Nouvelle demande.  ");
    expect(send).toBeEnabled();
    await person.click(send);
    await waitFor(() => expect(send).toBeDisabled());
    expect(calls.find((c) => c.key === "POST reply")?.body).toEqual({
      body: "Cliquez sur Nouvelle demande.",
    });
    await act(async () => release?.());
    expect(await screen.findByText("Réponse envoyée")).toBeInTheDocument();
    const thread = screen.getByRole("region", { name: "Conversation avec Marie Dupont" });
    expect(within(thread).getByText("Cliquez sur Nouvelle demande.")).toBeInTheDocument();
    expect(within(thread).getByText("Claire Morel")).toBeInTheDocument();
    expect(box).toHaveValue("");
  });

  it("un échec d'envoi garde le texte et dit 'Impossible d'envoyer la réponse'", async () => {
    const person = userEvent.setup();
    stubAdminApi({
      [`POST /api/admin/support/threads/${P1}/messages`]: () =>
        json(404, { error: { code: "NOT_FOUND", message: "Conversation introuvable." } }),
    });
    renderApp(`/admin/chat-messages?p=${P1}`);
    const box = await screen.findByRole("textbox", { name: "Votre réponse à Marie Dupont" });
    await person.type(box, "Bonjour{Enter}");
    expect(await screen.findByText("Impossible d'envoyer la réponse")).toBeInTheDocument();
    expect(screen.getByText("Conversation introuvable.")).toBeInTheDocument();
    expect(box).toHaveValue("Bonjour");
  });

  it("dit 'Impossible de charger les messages' quand la liste échoue", async () => {
    stubAdminApi({
      "GET /api/admin/support/threads": () => json(500, { error: { code: "INTERNAL", message: "Erreur" } }),
    });
    renderApp("/admin/chat-messages");
    expect((await screen.findAllByText("Impossible de charger les messages")).length).toBeGreaterThan(0);
  });

  it("en direct : un nouveau message du patient apparaît dans la conversation ouverte et la liste est redemandée", async () => {
    setRealtimeSocketFactory(() => new FakeSocket());
    const { calls } = stubAdminApi();
    renderApp(`/admin/chat-messages?p=${P1}`);
    await screen.findByText("Voici une capture");
    await waitFor(() => expect(FakeSocket.last).not.toBeNull());
    const listCalls = () => calls.filter((c) => c.key === "GET /api/admin/support/threads").length;
    const before = listCalls();
    act(() => {
      FakeSocket.last?.push({ type: "ready", user_id: admin.id });
      FakeSocket.last?.push({
        type: "support",
        message: message({ id: "m9", body: "Une autre question", created_at: "2026-03-12T10:00:00.000Z" }),
      });
    });
    expect(await screen.findByText("Une autre question")).toBeInTheDocument();
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));
  });
});

describe("/admin/retention", () => {
  it("lists what the next retention run will erase, from the server's counts", async () => {
    stubApi(admin, {
      "GET /api/admin/stats": () => json(200, STATS),
      "GET /api/admin/retention": () =>
        json(200, {
          next_run_on: "2026-11-25",
          last_run_at: "2026-11-24T03:00:00.000Z",
          items: [
            {
              kind: "contact",
              label: "Messages du formulaire de contact (et leurs fichiers)",
              count: 3,
              before: "2025-11-24T10:00:00.000Z",
            },
            {
              kind: "cancelled_documents",
              label: "Documents de demandes annulées",
              count: 7,
              before: "2026-10-25T10:00:00.000Z",
            },
            {
              kind: "access_log",
              label: "Lignes du journal des accès aux données de santé",
              count: 0,
              before: "2025-11-24T10:00:00.000Z",
            },
            {
              kind: "audit_log",
              label: "Lignes du journal d'administration",
              count: 12,
              before: "2025-11-24T10:00:00.000Z",
            },
            {
              kind: "inactivity_warning",
              label: "Comptes inactifs à prévenir par e-mail",
              count: 1,
              before: "2023-12-24T10:00:00.000Z",
            },
          ],
        }),
    });
    renderApp("/admin/retention");
    expect(
      await screen.findByRole("heading", { level: 1, name: "Conservation des données" }),
    ).toBeInTheDocument();
    // The table stands while the counts load (placeholder rows): wait for the row the data makes.
    const table = await screen.findByRole("table", { name: "Ce que le prochain passage effacera" });
    const documents = await within(table).findByRole("row", { name: /Documents de demandes annulées/ });
    expect(documents).toHaveTextContent("25 octobre 2026");
    expect(documents).toHaveTextContent("7");
    expect(within(table).getAllByRole("row")).toHaveLength(6);
    expect(screen.getByText(/Prochain passage/)).toHaveTextContent("25 novembre 2026");
    expect(screen.getByRole("link", { name: "Conservation" })).toHaveAttribute("aria-current", "page");
  });

  it("says so when the counts cannot be loaded", async () => {
    stubApi(admin, {
      "GET /api/admin/retention": () => json(500, { error: { code: "INTERNAL", message: "Erreur" } }),
    });
    renderApp("/admin/retention");
    // A 5xx is tried once more (queryClient.ts) before the page says so.
    expect(await screen.findByText("Impossible de charger les durées de conservation")).toBeInTheDocument();
  });
});

describe("/admin/contact", () => {
  it("écrit « Traité le » comme « Reçu le » : date en toutes lettres et heure", async () => {
    const item = {
      id: "c1",
      name: "Jeanne Petit",
      email: "jeanne@example.fr",
      treatment_type: null,
      message: "Bonjour",
      file_name: null,
      file_size: null,
      created_at: "2026-12-07T02:08:00.000Z",
      handled_at: "2026-12-07T09:30:00.000Z",
    };
    stubAdminApi({
      "GET /api/admin/contact": () => json(200, { items: [item], page: 1, page_size: 10, has_more: false }),
    });
    renderApp("/admin/contact");
    expect(await screen.findByRole("heading", { level: 2, name: "Jeanne Petit" })).toBeInTheDocument();
    expect(screen.getByText(/^Traité le/)).toHaveTextContent(/^Traité le 7 décembre 2026 à 10:30$/);
    expect(screen.getByText(/^Reçu le/)).toHaveTextContent(/^Reçu le 7 décembre 2026 à 03:08$/);
    expect(screen.queryByText(/07\/12\/2026/)).not.toBeInTheDocument();
  });
});
