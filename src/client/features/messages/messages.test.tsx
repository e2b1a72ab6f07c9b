// Longer than 250 lines on purpose: every case drives the one fake Messages API and the conversations defined below.
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ERASED_NAME } from "../../../shared/schemas/account";
import type {
  ChatMessage,
  ConversationList,
  ConversationSummary,
  MessagePage,
} from "../../../shared/schemas/conversations";
import { CHAT_MESSAGES } from "../../../shared/schemas/conversations";
import { closeRealtime, setRealtimeSocketFactory } from "../../lib/realtime";
import { FakeSocket, FakeXhr, fakeFile as file } from "../../test/fakes";
import { json, makeProfile, renderApp, stubApi, toResponse } from "../../test/renderApp";
import { spaced } from "../../test/text";
import { onPhone, withMedia } from "../../test/viewport";
import { lastMessagePreview } from "./ConversationList";
import { appendMessage, markRead, threadMessages } from "./cache";
import { attachFiles } from "./files";

const patient = makeProfile();
const dentist = makeProfile({
  id: "00000000-0000-4000-8000-000000000002",
  role: "dentist",
  first_name: "Julien",
  last_name: "Martin",
  full_name: "Julien Martin",
  is_verified: true,
});
const LEROY = "00000000-0000-4000-8000-000000000003";
const C1 = "c1000000-0000-4000-8000-000000000001";
const C2 = "c2000000-0000-4000-8000-000000000002";

/** Thursday 12 March 2026, 15:00 in Paris. */
const NOW = new Date("2026-03-12T14:00:00.000Z");

function conversation(overrides: Partial<ConversationSummary> = {}): ConversationSummary {
  return {
    id: C1,
    request_id: "r1000000-0000-4000-8000-000000000001",
    treatment_type: "implant",
    request_created_at: "2026-03-02T09:00:00.000Z",
    other: { id: dentist.id, full_name: "Julien Martin", avatar_url: null },
    last_message: {
      body: "Bonjour, voici mon devis.",
      created_at: "2026-03-12T08:05:00.000Z",
      from_me: false,
      attachment_count: 0,
    },
    last_message_at: "2026-03-12T08:05:00.000Z",
    unread_count: 2,
    request_visible: true,
    other_status: "active",
    ...overrides,
  };
}

const CONVERSATIONS: ConversationSummary[] = [
  conversation(),
  conversation({
    id: C2,
    treatment_type: "whitening",
    other: { id: LEROY, full_name: "Sophie Leroy", avatar_url: null },
    last_message: { body: "", created_at: "2026-03-11T17:00:00.000Z", from_me: true, attachment_count: 1 },
    last_message_at: "2026-03-11T17:00:00.000Z",
    unread_count: 0,
  }),
];

function message(overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id: "m0000000-0000-4000-8000-000000000001",
    conversation_id: C1,
    sender_id: dentist.id,
    body: "Bonjour, voici mon devis.",
    created_at: "2026-03-12T08:05:00.000Z",
    read_at: null,
    attachments: [],
    ...overrides,
  };
}

const THREAD: ChatMessage[] = [
  message({
    id: "m1",
    sender_id: patient.id,
    body: "Ma première question",
    created_at: "2026-03-11T09:00:00.000Z",
    read_at: "2026-03-11T10:00:00.000Z",
  }),
  message({
    id: "m2",
    body: "Voici la radio et le devis",
    created_at: "2026-03-11T11:00:00.000Z",
    attachments: [
      {
        id: "a1",
        file_name: "radio.png",
        mime_type: "image/png",
        size: 2048,
        kind: "image",
        url: "/api/conversations/attachments/a1",
      },
      {
        id: "a2",
        file_name: "devis.pdf",
        mime_type: "application/pdf",
        size: 1.5 * 1024 * 1024,
        kind: "document",
        url: "/api/conversations/attachments/a2",
      },
    ],
  }),
  message({
    id: "m3",
    sender_id: patient.id,
    body: "Merci, je regarde",
    created_at: "2026-03-12T08:00:00.000Z",
    read_at: null,
  }),
];

type Answer = { status: number; body?: unknown };

interface Routes {
  list?: (url: URL) => Answer;
  thread?: (url: URL, id: string) => Answer;
  read?: (id: string) => Answer;
}

/** The API of the Messages pages, with the query strings the handlers need; records every call. */
function stubMessagesApi(me = patient, routes: Routes = {}) {
  const fallback = stubApi(me);
  const calls: string[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    const method = init?.method ?? "GET";
    calls.push(`${method} ${url.pathname}${url.search}`);
    let answer: Answer | null = null;
    const thread = url.pathname.match(/^\/api\/conversations\/([^/]+)\/messages$/);
    const read = url.pathname.match(/^\/api\/conversations\/([^/]+)\/read$/);
    if (method === "GET" && url.pathname === "/api/conversations") {
      answer = routes.list
        ? routes.list(url)
        : json(200, { items: CONVERSATIONS, next_cursor: null, unread_total: 2 } satisfies ConversationList);
    } else if (method === "GET" && thread?.[1]) {
      const id = decodeURIComponent(thread[1]);
      answer = routes.thread
        ? routes.thread(url, id)
        : json(200, {
            conversation: CONVERSATIONS.find((c) => c.id === id) ?? conversation({ id }),
            items: THREAD,
            has_more: false,
          } satisfies MessagePage);
    } else if (method === "POST" && read?.[1]) {
      answer = routes.read ? routes.read(read[1]) : json(200, { read: 2, unread_total: 0 });
    }
    if (!answer) return fallback(input, init);
    return toResponse(answer);
  });
  vi.stubGlobal("fetch", fetchMock);
  return { calls };
}

function setup() {
  FakeXhr.sent = [];
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
  // The input's `accept` lets the picker hide other types; the test checks the refusal itself.
  return userEvent.setup({ applyAccept: false });
}

afterEach(() => {
  closeRealtime();
  setRealtimeSocketFactory(undefined);
  vi.useRealTimers();
});

const conversationLink = (name: string) =>
  screen.getByRole("link", { name: new RegExp(`^(?:[A-Z]{1,2} )?(?:Dr )?${name}`) });

async function openThread(path = `/patient/messages?c=${C1}`, me = patient, routes: Routes = {}) {
  const user = setup();
  const api = stubMessagesApi(me, routes);
  const app = renderApp(path);
  const box = await screen.findByRole("textbox", { name: /^Votre message (?:à|au) / });
  return { user, box, ...api, ...app };
}

describe("liste des conversations", () => {
  it("montre le message d'attente quand aucune conversation n'est ouverte", async () => {
    setup();
    stubMessagesApi();
    renderApp("/patient/messages");
    // The first test pays for loading the shell's lazy chunk: wait longer than the default second.
    expect(await screen.findByRole("heading", { level: 1, name: "Mes messages" })).toBeInTheDocument();
    expect(screen.getByText("Sélectionnez une conversation pour commencer à discuter")).toBeInTheDocument();
    expect(await screen.findByText("Dr Julien Martin")).toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: /^Votre message/ })).not.toBeInTheDocument();
  });

  it("affiche pour chaque conversation l'interlocuteur, le traitement, le dernier message, l'heure et les non-lus", async () => {
    setup();
    stubMessagesApi();
    renderApp("/patient/messages");
    const martin = await screen.findByRole("link", { name: /Julien Martin/ });
    expect(martin).toHaveAttribute("href", `/patient/messages?c=${C1}`);
    // Which request: two conversations with one dentist about one treatment read apart by its date.
    expect(martin).toHaveTextContent("Implant dentaire · demande du 2 mars 2026");
    expect(martin).toHaveTextContent("Bonjour, voici mon devis.");
    // Today in Paris: the hour.
    expect(within(martin).getByText("09:05")).toBeInTheDocument();
    expect(within(martin).getByText("2")).toBeInTheDocument();
    expect(martin).toHaveTextContent("2 messages non lus");

    const leroy = screen.getByRole("link", { name: /Sophie Leroy/ });
    expect(leroy).toHaveTextContent("Blanchiment");
    expect(leroy).toHaveTextContent("Vous : 📎 Pièce jointe");
    expect(within(leroy).getByText("Hier")).toBeInTheDocument();
    expect(leroy).not.toHaveTextContent("non lu");
  });

  it("étiquette l'heure comme le veut la spec : hh:mm, Hier, le jour, puis jj/mm/aaaa", async () => {
    setup();
    const at = (iso: string, id: string, name: string) =>
      conversation({
        id,
        other: { id, full_name: name, avatar_url: null },
        last_message: { body: "Bonjour", created_at: iso, from_me: false, attachment_count: 0 },
        last_message_at: iso,
        unread_count: 0,
      });
    stubMessagesApi(patient, {
      list: () =>
        json(200, {
          items: [
            at("2026-03-11T23:30:00.000Z", "x1", "Aujourd Hui"), // 00:30 in Paris, today
            at("2026-03-11T22:30:00.000Z", "x2", "Hier Soir"), // 23:30 in Paris, yesterday
            at("2026-03-09T10:00:00.000Z", "x3", "Lundi Matin"),
            at("2026-03-05T10:00:00.000Z", "x4", "Semaine Passee"),
          ],
          next_cursor: null,
          unread_total: 0,
        }),
    });
    renderApp("/patient/messages");
    const label = async (name: string) =>
      within(await screen.findByRole("link", { name: new RegExp(name) })).getByText(
        (_, element) => element?.tagName === "TIME",
      ).textContent;
    expect(await label("Aujourd Hui")).toBe("00:30");
    expect(await label("Hier Soir")).toBe("Hier");
    expect(await label("Lundi Matin")).toBe("lundi");
    expect(await label("Semaine Passee")).toBe("05/03/2026");
  });

  it("cherche côté serveur (après une pause de frappe) et dit quand rien ne correspond", async () => {
    const user = setup();
    const { calls } = stubMessagesApi(patient, {
      list: (url) => {
        const term = (url.searchParams.get("search") ?? "").toLowerCase();
        const items = CONVERSATIONS.filter((c) => c.other.full_name.toLowerCase().includes(term));
        return json(200, { items, next_cursor: null, unread_total: 2 });
      },
    });
    const { router } = renderApp("/patient/messages");
    await screen.findByText("Dr Sophie Leroy");
    const search = screen.getByRole("searchbox", { name: "Rechercher une conversation" });
    expect(search).toHaveAttribute("placeholder", "Rechercher une conversation...");

    await user.type(search, "leroy");
    await waitFor(() => expect(screen.queryByText("Dr Julien Martin")).not.toBeInTheDocument());
    expect(screen.getByText("Dr Sophie Leroy")).toBeInTheDocument();
    expect(calls).toContain("GET /api/conversations?search=leroy");
    // One request for the whole word, not one per letter.
    expect(calls.filter((c) => c.startsWith("GET /api/conversations?search=l"))).toHaveLength(1);
    expect(router.state.location.search).toBe("?q=leroy");
    // Opening a conversation keeps the search.
    expect(conversationLink("Sophie Leroy")).toHaveAttribute("href", `/patient/messages?c=${C2}&q=leroy`);

    await user.clear(search);
    await user.type(search, "personne");
    expect(await screen.findByText("Aucune conversation trouvée.")).toBeInTheDocument();
    expect(calls).toContain("GET /api/conversations?search=personne");
  });

  it("côté dentiste : 'Rechercher un patient...' et 'Aucun patient trouvé.'", async () => {
    setup();
    stubMessagesApi(dentist, { list: () => json(200, { items: [], next_cursor: null, unread_total: 0 }) });
    renderApp("/dentist/messages?q=zzz");
    expect(await screen.findByText("Aucun patient trouvé.")).toBeInTheDocument();
    expect(screen.getByRole("searchbox", { name: "Rechercher un patient" })).toHaveAttribute(
      "placeholder",
      "Rechercher un patient...",
    );
    expect(screen.getByText("Sélectionnez une conversation pour commencer à discuter")).toBeInTheDocument();
  });

  it("charge la suite de la liste avec next_cursor", async () => {
    const user = setup();
    const { calls } = stubMessagesApi(patient, {
      list: (url) =>
        url.searchParams.get("cursor") === "page2"
          ? json(200, { items: [CONVERSATIONS[1]], next_cursor: null, unread_total: 2 })
          : json(200, { items: [CONVERSATIONS[0]], next_cursor: "page2", unread_total: 2 }),
    });
    renderApp("/patient/messages");
    await user.click(await screen.findByRole("button", { name: "Afficher plus de conversations" }));
    expect(await screen.findByText("Dr Sophie Leroy")).toBeInTheDocument();
    expect(calls).toContain("GET /api/conversations?cursor=page2");
    expect(screen.queryByRole("button", { name: "Afficher plus de conversations" })).not.toBeInTheDocument();
  });

  it("montre le total non lu sur l'entrée 'Messages' de la navigation", async () => {
    setup();
    stubMessagesApi();
    renderApp("/patient/dashboard");
    const nav = await screen.findByRole("navigation", { name: "Espace patient" });
    const link = within(nav).getByRole("link", { name: "Messages" });
    await waitFor(() => expect(link).toHaveAccessibleDescription("2 messages non lus"));
    expect(link).toHaveTextContent("Messages2");
  });

  it("nomme « Dentiste (compte supprimé) » un dentiste qui a supprimé son compte, jamais « Dr Compte supprimé »", async () => {
    setup();
    const erased = conversation({ id: C2, other: { id: LEROY, full_name: ERASED_NAME, avatar_url: null } });
    stubMessagesApi(patient, {
      list: () => json(200, { items: [erased], next_cursor: null, unread_total: 0 }),
    });
    renderApp("/patient/messages");
    expect(await screen.findByText("Dentiste (compte supprimé)")).toBeInTheDocument();
    expect(screen.queryByText(/Dr Compte supprimé/)).not.toBeInTheDocument();
  });

  it("propose de réessayer quand la liste ne se charge pas", async () => {
    const user = setup();
    let fail = true;
    stubMessagesApi(patient, {
      list: () =>
        fail
          ? json(500, { error: { code: "INTERNAL", message: "Une erreur est survenue." } })
          : json(200, { items: CONVERSATIONS, next_cursor: null, unread_total: 2 }),
    });
    renderApp("/patient/messages");
    expect(await screen.findByText("Impossible de charger vos conversations")).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole("button", { name: "Réessayer" }));
    expect(await screen.findByText("Dr Julien Martin")).toBeInTheDocument();
  });
});

describe("fil de la conversation", () => {
  it("aligne mes messages, montre les accusés de lecture, les images et les documents", async () => {
    await openThread();
    const log = screen.getByRole("region", { name: "Messages avec Dr Julien Martin" });
    const items = within(log)
      .getAllByRole("listitem")
      .filter((li) => li.parentElement?.tagName === "OL");
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent("Vous :Ma première question");
    expect(items[0]).toHaveTextContent("Lu");
    expect(items[0]?.className).toContain("justify-end");
    expect(items[1]).toHaveTextContent("Julien Martin :Voici la radio et le devis");
    expect(items[1]?.className).toContain("justify-start");
    expect(items[2]).toHaveTextContent("Envoyé");
    expect(items[2]).toHaveTextContent("09:00");
    expect(items[1]).toHaveTextContent("Hier, 12:00");

    const image = within(log).getByRole("img", { name: "radio.png" });
    expect(image).toHaveAttribute("loading", "lazy");
    expect(image).toHaveAttribute("src", "/api/conversations/attachments/a1");
    const pdf = within(log).getByRole("link", { name: /devis\.pdf/ });
    expect(pdf).toHaveAttribute("href", "/api/conversations/attachments/a2");
    expect(pdf).toHaveTextContent("1,5 Mo");
    // A patient reads the dentist's title (glossary: "Dr" before a dentist's name).
    expect(screen.getByRole("heading", { level: 2, name: "Dr Julien Martin" })).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Votre message au Dr Julien Martin" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voir la demande" })).toHaveAttribute(
      "href",
      "/patient/request/r1000000-0000-4000-8000-000000000001",
    );
    expect(screen.getByRole("link", { name: /Julien Martin/, current: "page" })).toBeInTheDocument();
  });

  it("met dans l'avatar de l'en-tête les initiales du nom, sans « Dr », comme la liste", async () => {
    await openThread();
    const heading = screen.getByRole("heading", { level: 2, name: "Dr Julien Martin" });
    const header = heading.parentElement?.parentElement as HTMLElement;
    expect(within(header).getByText("JM")).toBeInTheDocument();
    expect(within(header).queryByText("DM")).not.toBeInTheDocument();
    const listEntry = screen.getByRole("link", { name: /Julien Martin/, current: "page" });
    expect(within(listEntry).getByText("JM")).toBeInTheDocument();
  });

  it("marque la conversation comme lue à l'ouverture", async () => {
    const { calls } = await openThread();
    await waitFor(() => expect(calls).toContain(`POST /api/conversations/${C1}/read`));
    // The list's count disappears with it.
    await waitFor(() => expect(conversationLink("Julien Martin")).not.toHaveTextContent("non lu"));
  });

  it("ne marque rien quand tout est déjà lu", async () => {
    const { calls } = await openThread(`/patient/messages?c=${C2}`, patient, {
      thread: () =>
        json(200, {
          conversation: CONVERSATIONS[1],
          items: [message({ conversation_id: C2, read_at: "2026-03-12T09:00:00.000Z" })],
          has_more: false,
        }),
    });
    await screen.findByText("Bonjour, voici mon devis.", { selector: "p" });
    expect(calls.filter((c) => c.endsWith("/read"))).toEqual([]);
  });

  it("charge les messages plus anciens avant le premier", async () => {
    const older = message({
      id: "m0",
      body: "Le tout premier message",
      created_at: "2026-03-01T09:00:00.000Z",
    });
    const { user, calls } = await openThread(`/patient/messages?c=${C1}`, patient, {
      thread: (url) =>
        url.searchParams.get("before") === "m1"
          ? json(200, { conversation: CONVERSATIONS[0], items: [older], has_more: false })
          : json(200, { conversation: CONVERSATIONS[0], items: THREAD, has_more: true }),
    });
    await user.click(screen.getByRole("button", { name: "Afficher les messages précédents" }));
    expect(await screen.findByText("Le tout premier message")).toBeInTheDocument();
    expect(calls).toContain(`GET /api/conversations/${C1}/messages?before=m1`);
    const bodies = screen
      .getAllByRole("listitem")
      .filter((li) => li.parentElement?.tagName === "OL")
      .map((li) => li.textContent);
    expect(bodies[0]).toContain("Le tout premier message");
    expect(screen.getByText("Début de la conversation")).toBeInTheDocument();
  });

  it("dit qu'une conversation inconnue est introuvable (dentiste, /dentist/messages/{id})", async () => {
    setup();
    stubMessagesApi(dentist, {
      thread: () => json(404, { error: { code: "NOT_FOUND", message: "Conversation introuvable." } }),
    });
    renderApp("/dentist/messages/inconnue");
    expect(await screen.findByText("Conversation introuvable.")).toBeInTheDocument();
    for (const link of screen.getAllByRole("link", { name: "Retour aux conversations" }))
      expect(link).toHaveAttribute("href", "/dentist/messages");
    expect(screen.queryByRole("textbox", { name: /^Votre message/ })).not.toBeInTheDocument();
  });

  it("dit à un dentiste non vérifié (en attente ou vérification retirée) pourquoi il ne lit aucune conversation", async () => {
    setup();
    const { calls } = stubMessagesApi({ ...dentist, is_verified: false });
    renderApp(`/dentist/messages/${C1}`);
    expect(await screen.findByRole("heading", { name: "En attente de vérification" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Compléter mon profil" })).toHaveAttribute(
      "href",
      "/dentist/profile",
    );
    expect(screen.queryByRole("searchbox")).not.toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: /^Votre message/ })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.includes(C1))).toEqual([]);
  });

  it("dit à un dentiste dont la vérification a été retirée que ses conversations reviendront", async () => {
    setup();
    stubMessagesApi({ ...dentist, is_verified: false, verification_state: "withdrawn" });
    renderApp("/dentist/messages");
    expect(await screen.findByRole("heading", { name: "Vérification retirée" })).toBeInTheDocument();
    expect(
      screen.getByText(
        /vos conversations et vos rendez-vous avec eux et les avis à votre sujet vous seront de nouveau montrés/,
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voir mon profil" })).toHaveAttribute("href", "/dentist/profile");
    expect(screen.queryByRole("heading", { name: "En attente de vérification" })).not.toBeInTheDocument();
  });

  it("ouvre /dentist/messages/{id} avec la conversation et son lien vers la demande", async () => {
    await openThread(`/dentist/messages/${C1}`, dentist, {
      list: () =>
        json(200, {
          items: [conversation({ other: { id: patient.id, full_name: "Marie Curie", avatar_url: null } })],
          next_cursor: null,
          unread_total: 0,
        }),
      thread: () =>
        json(200, {
          conversation: conversation({
            other: { id: patient.id, full_name: "Marie Curie", avatar_url: null },
          }),
          items: [message({ sender_id: patient.id, body: "Bonjour docteur" })],
          has_more: false,
        }),
    });
    // A dentist reads the patient's name as it is.
    expect(screen.getByRole("heading", { level: 2, name: "Marie Curie" })).toBeInTheDocument();
    expect(screen.getByText("Bonjour docteur")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voir la demande" })).toHaveAttribute(
      "href",
      "/dentist/patient-submission/r1000000-0000-4000-8000-000000000001",
    );
    expect(screen.getByRole("link", { name: "Retour aux conversations" })).toHaveAttribute(
      "href",
      "/dentist/messages",
    );
  });
});

describe("sur un téléphone (la liste, puis le fil)", () => {
  it("ouvrir une conversation met le focus dans le fil, « Retour aux conversations » le rend à son lien", async () => {
    await onPhone(async () => {
      const user = setup();
      stubMessagesApi();
      renderApp("/patient/messages");
      await screen.findByText("Dr Julien Martin");
      conversationLink("Julien Martin").focus();
      await user.keyboard("{Enter}");
      const thread = await screen.findByRole("region", { name: "Dr Julien Martin" });
      await waitFor(() => expect(thread).toHaveFocus());

      await user.click(within(thread).getByRole("link", { name: "Retour aux conversations" }));
      await waitFor(() => expect(screen.queryByRole("region", { name: "Dr Julien Martin" })).toBeNull());
      await waitFor(() => expect(conversationLink("Julien Martin")).toHaveFocus());
    });
  });
});

describe("un message commencé", () => {
  it("est gardé quand on revient à la liste puis à la conversation, pour elle seule, et oublié une fois envoyé", async () => {
    await onPhone(async () => {
      const user = setup();
      stubMessagesApi();
      renderApp("/patient/messages");
      await screen.findByText("Dr Julien Martin");
      await user.click(conversationLink("Julien Martin"));
      const thread = await screen.findByRole("region", { name: "Dr Julien Martin" });
      await user.type(
        within(thread).getByRole("textbox", { name: /^Votre message/ }),
        "Pouvez-vous m'envoyer",
      );
      await user.click(within(thread).getByRole("link", { name: "Retour aux conversations" }));
      await waitFor(() => expect(screen.queryByRole("region", { name: "Dr Julien Martin" })).toBeNull());

      // Another conversation starts empty.
      await user.click(conversationLink("Sophie Leroy"));
      const other = await screen.findByRole("region", { name: "Dr Sophie Leroy" });
      expect(within(other).getByRole("textbox", { name: /^Votre message/ })).toHaveValue("");
      await user.click(within(other).getByRole("link", { name: "Retour aux conversations" }));

      await user.click(await screen.findByRole("link", { name: /^(?:[A-Z]{1,2} )?Dr Julien Martin/ }));
      const again = await screen.findByRole("region", { name: "Dr Julien Martin" });
      const box = within(again).getByRole("textbox", { name: /^Votre message/ });
      expect(box).toHaveValue("Pouvez-vous m'envoyer");

      await user.type(box, " la radio ?{Enter}");
      const xhr = FakeXhr.sent[0] as FakeXhr;
      expect(xhr.body?.get("body")).toBe("Pouvez-vous m'envoyer la radio ?");
      await act(async () =>
        xhr.answer(
          201,
          message({ id: "m9", sender_id: patient.id, body: "Pouvez-vous m'envoyer la radio ?" }),
        ),
      );
      await waitFor(() => expect(box).toHaveValue(""));
      await user.click(within(again).getByRole("link", { name: "Retour aux conversations" }));
      await user.click(await screen.findByRole("link", { name: /^(?:[A-Z]{1,2} )?Dr Julien Martin/ }));
      const last = await screen.findByRole("region", { name: "Dr Julien Martin" });
      expect(within(last).getByRole("textbox", { name: /^Votre message/ })).toHaveValue("");
    });
  });
});

describe("lien « Voir la demande » de l'en-tête", () => {
  it("n'est pas montré au dentiste quand la demande ne s'ouvre plus pour lui (non choisi, annulée)", async () => {
    const closed = conversation({
      other: { id: patient.id, full_name: "Marie Curie", avatar_url: null },
      request_visible: false,
    });
    await openThread(`/dentist/messages/${C1}`, dentist, {
      list: () => json(200, { items: [closed], next_cursor: null, unread_total: 0 }),
      thread: () =>
        json(200, {
          conversation: closed,
          items: [message({ sender_id: patient.id, body: "Bonjour docteur" })],
          has_more: false,
        }),
    });
    // The conversation stays readable, without a link to a page that would answer 404.
    expect(screen.getByRole("heading", { level: 2, name: "Marie Curie" })).toBeInTheDocument();
    expect(screen.getByText("Bonjour docteur")).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Voir la demande" })).not.toBeInTheDocument();
  });
});

describe("écrire un message", () => {
  it.each([
    ["unverified", CHAT_MESSAGES.otherUnverified],
    ["erased", CHAT_MESSAGES.otherErased],
    ["suspended", CHAT_MESSAGES.otherSuspended],
  ] as const)(
    "dit pourquoi on ne peut plus écrire quand le message ne serait pas lu (%s)",
    async (status, text) => {
      setup();
      stubMessagesApi(patient, {
        thread: (_url, id) =>
          json(200, {
            conversation: conversation({ id, other_status: status }),
            items: THREAD,
            has_more: false,
          } satisfies MessagePage),
      });
      renderApp(`/patient/messages?c=${C1}`);
      expect(await screen.findByText((_, element) => element?.textContent === text)).toBeInTheDocument();
      // The thread stays readable; nothing to type into.
      const thread = screen.getByRole("region", { name: /^Messages avec / });
      expect(within(thread).getAllByRole("listitem").length).toBeGreaterThanOrEqual(THREAD.length);
      expect(screen.queryByRole("textbox", { name: /^Votre message/ })).not.toBeInTheDocument();
    },
  );

  it("sur un écran tactile, la touche Entrée va à la ligne : seul le bouton envoie", async () => {
    await withMedia("(pointer: coarse)", async () => {
      const { user, box } = await openThread();
      expect(box).not.toHaveAccessibleDescription(/Entrée pour envoyer/);
      await user.type(box, "Première ligne{Enter}seconde ligne");
      expect(box).toHaveValue("Première ligne\nseconde ligne");
      expect(FakeXhr.sent).toHaveLength(0);
      await user.click(screen.getByRole("button", { name: "Envoyer" }));
      expect(FakeXhr.sent).toHaveLength(1);
      expect((FakeXhr.sent[0] as FakeXhr).body?.get("body")).toBe("Première ligne\nseconde ligne");
    });
  });

  it("Entrée envoie, Maj+Entrée va à la ligne", async () => {
    const { user, box } = await openThread();
    await user.type(box, "Première ligne{Shift>}{Enter}{/Shift}seconde ligne");
    expect(box).toHaveValue("Première ligne\nseconde ligne");
    expect(FakeXhr.sent).toHaveLength(0);

    await user.type(box, "{Enter}");
    expect(FakeXhr.sent).toHaveLength(1);
    const xhr = FakeXhr.sent[0] as FakeXhr;
    expect(xhr.method).toBe("POST");
    expect(xhr.url).toBe(`/api/conversations/${C1}/messages`);
    expect(xhr.body?.get("body")).toBe("Première ligne\nseconde ligne");
    expect(screen.getByRole("button", { name: "Envoyer" })).toBeDisabled();

    await act(async () =>
      xhr.answer(
        201,
        message({
          id: "m4",
          sender_id: patient.id,
          body: "Première ligne\nseconde ligne",
          created_at: NOW.toISOString(),
        }),
      ),
    );
    await waitFor(() => expect(box).toHaveValue(""));
    expect(screen.getByText(/seconde ligne/, { selector: "p" })).toBeInTheDocument();
    expect(box).toHaveFocus();
  });

  it("n'envoie pas un message vide (espaces compris) sans pièce jointe", async () => {
    const { user, box } = await openThread();
    const send = screen.getByRole("button", { name: "Envoyer" });
    expect(send).toBeDisabled();
    await user.type(box, "   {Enter}");
    expect(FakeXhr.sent).toHaveLength(0);
    expect(send).toBeDisabled();
    await user.type(box, "a");
    expect(send).toBeEnabled();
  });

  it("envoie une pièce jointe seule, retirable avant l'envoi", async () => {
    const { user } = await openThread();
    const input = screen.getByLabelText("Fichiers à joindre");
    await user.upload(input, [file("photo.png", "image/png"), file("devis.pdf", "application/pdf")]);
    const chips = screen.getByRole("list", { name: "Fichiers joints" });
    expect(within(chips).getByText("photo.png")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Retirer devis.pdf" }));
    expect(within(chips).queryByText("devis.pdf")).not.toBeInTheDocument();

    const send = screen.getByRole("button", { name: "Envoyer" });
    expect(send).toBeEnabled();
    await user.click(send);
    const body = FakeXhr.sent[0]?.body;
    expect(body?.get("body")).toBe("");
    expect((body?.getAll("files") as File[] | undefined)?.map((f) => f.name)).toEqual(["photo.png"]);
  });

  it("refuse un fichier de plus de 10 Mo, un type non accepté et un sixième fichier", async () => {
    const { user } = await openThread();
    const input = screen.getByLabelText("Fichiers à joindre");
    await user.upload(input, file("enorme.pdf", "application/pdf", 11 * 1024 * 1024));
    expect(
      await screen.findByText("Le fichier enorme.pdf est trop volumineux (max 10 Mo)"),
    ).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "Fichiers joints" })).not.toBeInTheDocument();

    await user.upload(input, file("notes.txt", "text/plain"));
    expect(await screen.findByText("Le type de fichier notes.txt n'est pas accepté")).toBeInTheDocument();

    await user.upload(
      input,
      ["a", "b", "c", "d", "e", "f"].map((n) => file(`${n}.pdf`, "application/pdf")),
    );
    expect(await screen.findByText("5 fichiers au plus par message.")).toBeInTheDocument();
    expect(
      within(screen.getByRole("list", { name: "Fichiers joints" })).getAllByRole("listitem"),
    ).toHaveLength(5);
  });

  it("refuse dès le choix un fichier vide et un fichier qui n'est pas le PDF, JPG ou PNG que dit son nom", async () => {
    const { user } = await openThread();
    const input = screen.getByLabelText("Fichiers à joindre");
    await user.upload(input, [
      new File([], "vide.pdf", { type: "application/pdf" }),
      new File(["Bonjour, ceci est du texte"], "radio.png", { type: "image/png" }),
      file("photo.png", "image/png"),
    ]);
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent(
      spaced("Le fichier vide.pdf est vide : choisissez-en une copie complète."),
    );
    expect(alert).toHaveTextContent("Le type de fichier radio.png n'est pas accepté");
    // The good one is kept.
    const chips = screen.getByRole("list", { name: "Fichiers joints" });
    expect(
      within(chips)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining("photo.png")]);
  });

  it("garde le texte et l'annonce quand l'envoi échoue", async () => {
    const { user, box } = await openThread();
    await user.type(box, "Un message important{Enter}");
    await act(async () =>
      FakeXhr.sent[0]?.answer(500, { error: { code: "INTERNAL", message: "Une erreur est survenue." } }),
    );
    expect(await screen.findByText("Impossible d'envoyer le message")).toBeInTheDocument();
    expect(box).toHaveValue("Un message important");
    expect(screen.getByRole("button", { name: "Envoyer" })).toBeEnabled();
  });
});

describe("en direct", () => {
  it("ajoute un message reçu au fil ouvert, l'annonce et met à jour les accusés de lecture", async () => {
    setRealtimeSocketFactory(() => new FakeSocket());
    const { calls } = await openThread();
    const socket = FakeSocket.last as FakeSocket;
    act(() => socket.push({ type: "ready", user_id: patient.id }));
    await waitFor(() => expect(calls).toContain(`POST /api/conversations/${C1}/read`));
    const reads = () => calls.filter((c) => c.endsWith("/read")).length;
    const readsBefore = reads();

    act(() =>
      socket.push({
        type: "message",
        conversation_id: C1,
        message: message({ id: "m9", body: "Une nouvelle question ?", created_at: NOW.toISOString() }),
      }),
    );
    expect(await screen.findByText("Une nouvelle question ?", { selector: "p" })).toBeInTheDocument();
    expect(
      screen.getByText("Nouveau message du Dr Julien Martin : Une nouvelle question ?"),
    ).toBeInTheDocument();
    // Received while open and visible: read at once.
    await waitFor(() => expect(reads()).toBeGreaterThan(readsBefore));

    // The same message again (another tab, a resend) is shown once.
    act(() =>
      socket.push({
        type: "message",
        conversation_id: C1,
        message: message({ id: "m9", body: "Une nouvelle question ?", created_at: NOW.toISOString() }),
      }),
    );
    expect(screen.getAllByText("Une nouvelle question ?", { selector: "p" })).toHaveLength(1);

    // The dentist reads: my last message goes from 'Envoyé' to 'Lu'.
    const mine = () => screen.getByText("Merci, je regarde").closest("li") as HTMLElement;
    expect(mine()).toHaveTextContent("Envoyé");
    act(() =>
      socket.push({ type: "read", conversation_id: C1, reader_id: dentist.id, read_at: NOW.toISOString() }),
    );
    await waitFor(() => expect(mine()).toHaveTextContent("Lu"));

    // The unread total reaches the navigation badge.
    act(() => socket.push({ type: "unread", total: 7 }));
    const nav = screen.getByRole("navigation", { name: "Espace patient" });
    await waitFor(() =>
      expect(within(nav).getByRole("link", { name: "Messages" })).toHaveAccessibleDescription(
        "7 messages non lus",
      ),
    );
  });
});

describe("cache des conversations", () => {
  const page = (items: ChatMessage[], has_more = false): MessagePage => ({
    conversation: conversation(),
    items,
    has_more,
  });

  it("met les pages dans l'ordre (les plus anciennes d'abord) et ajoute un message une seule fois", () => {
    const data = { pages: [page(THREAD.slice(1)), page(THREAD.slice(0, 1))], pageParams: ["", "m2"] };
    expect(threadMessages(data).map((m) => m.id)).toEqual(["m1", "m2", "m3"]);
    const added = appendMessage(data, message({ id: "m4", created_at: NOW.toISOString() }));
    expect(threadMessages(added).map((m) => m.id)).toEqual(["m1", "m2", "m3", "m4"]);
    expect(appendMessage(added, message({ id: "m4", created_at: NOW.toISOString() }))).toBe(added);
  });

  it("un accusé de lecture marque les messages de l'autre partie envoyés jusque-là", () => {
    const data = { pages: [page(THREAD)], pageParams: [""] };
    const read = markRead(data, dentist.id, "2026-03-12T09:00:00.000Z", patient.id);
    expect(threadMessages(read).map((m) => m.read_at)).toEqual([
      "2026-03-11T10:00:00.000Z",
      null,
      "2026-03-12T09:00:00.000Z",
    ]);
    const early = markRead(data, dentist.id, "2026-03-12T07:00:00.000Z", patient.id);
    expect(threadMessages(early)[2]?.read_at).toBeNull();
  });

  it("résume le dernier message", () => {
    expect(lastMessagePreview(conversation())).toBe("Bonjour, voici mon devis.");
    expect(
      lastMessagePreview(
        conversation({
          last_message: { body: "", created_at: NOW.toISOString(), from_me: false, attachment_count: 3 },
        }),
      ),
    ).toBe("📎 3 pièces jointes");
    expect(
      lastMessagePreview(
        conversation({
          last_message: {
            body: "Proposition de devis : 820,00 €\nValable jusqu'au 6 janvier 2027",
            created_at: NOW.toISOString(),
            from_me: false,
            attachment_count: 0,
          },
        }),
      ),
    ).toBe("Proposition de devis : 820,00 € · Valable jusqu'au 6 janvier 2027");
    expect(lastMessagePreview(conversation({ last_message: null }))).toBe("Aucun message");
  });

  it("n'ajoute pas deux fois le même fichier", () => {
    const a = file("a.pdf", "application/pdf");
    const first = attachFiles([], [a]);
    expect(attachFiles(first.files, [a]).files).toHaveLength(1);
  });
});
