import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SupportMessage } from "../../../shared/schemas/support";
import { setRealtimeSocketFactory } from "../../lib/realtime";
import { FakeSocket, FakeXhr, fakeFile as file, resetRealtime } from "../../test/fakes";
import { json, makeProfile, renderApp, settled, stubApi, toResponse } from "../../test/renderApp";
import { supportMessage } from "../../test/support";
import { imageProblem } from "./api";

const patient = makeProfile();

const message = (overrides: Partial<SupportMessage>) =>
  supportMessage({ id: "s1", patient_id: patient.id, ...overrides });

const THREAD: SupportMessage[] = [
  message({ id: "s1" }),
  message({
    id: "s2",
    from_team: true,
    author_name: "Claire Morel",
    body: "Depuis « Nouvelle demande ».",
    created_at: "2026-03-12T09:00:00.000Z",
  }),
];

type Answer = { status: number; body?: unknown };

/** The support API; records every call. */
function stubSupportApi(
  routes: {
    list?: () => Answer;
    read?: () => Answer;
    access?: () => Answer;
    config?: () => Answer;
    unread?: () => Answer;
  } = {},
  who = patient,
) {
  const fallback = stubApi(who);
  const calls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), "http://localhost");
      const key = `${init?.method ?? "GET"} ${url.pathname}`;
      calls.push(`${key}${url.search}`);
      let answer: Answer | null = null;
      if (key === "GET /api/support/messages")
        answer = routes.list ? routes.list() : json(200, { items: THREAD, has_more: false });
      else if (key === "POST /api/support/read")
        answer = routes.read ? routes.read() : json(200, { read: 1 });
      else if (key === "GET /api/support/access")
        answer = routes.access ? routes.access() : json(200, accessPage([]));
      else if (key === "GET /api/config" && routes.config) answer = routes.config();
      else if (key === "GET /api/support/unread" && routes.unread) answer = routes.unread();
      if (!answer) return fallback(input, init);
      return toResponse(answer);
    }),
  );
  return { calls };
}

function setup() {
  FakeXhr.sent = [];
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
  return userEvent.setup({ applyAccept: false });
}

afterEach(resetRealtime);

/** A page of GET /api/support/access. */
const accessPage = (items: unknown[], has_more = false, page = 1) => ({
  items,
  page,
  page_size: 20,
  has_more,
});

/** Claire of the team opened the thread. */
const READ_BY_CLAIRE = {
  id: "a9",
  actor_name: "Claire Morel",
  action: "support_thread_view",
  object_name: null,
  created_at: "2026-03-12T09:00:00.000Z",
};

describe("qui a lu le fil (issue 14)", () => {
  it("liste chaque ouverture du fil et de ses images par l'équipe, ou dit que personne ne l'a lu", async () => {
    stubSupportApi({
      access: () =>
        json(
          200,
          accessPage([
            {
              id: "a2",
              actor_name: "Claire Morel",
              action: "support_image_view",
              object_name: "capture.png",
              created_at: "2026-03-12T10:00:00.000Z",
            },
            {
              id: "a1",
              actor_name: "Claire Morel",
              action: "support_thread_view",
              object_name: null,
              created_at: "2026-03-12T09:00:00.000Z",
            },
          ]),
        ),
    });
    renderApp("/patient/help");
    const list = await screen.findByRole("list", { name: "Lectures de mon fil par l'équipe" });
    const rows = within(list)
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(rows[0]).toContain("A ouvert une image de votre fil avec l'équipe (capture.png)");
    expect(rows[1]).toContain("A ouvert votre fil de discussion avec l'équipe");
    expect(rows[1]).toContain("Claire Morel");
    expect(screen.queryByRole("navigation", { name: "Pagination" })).not.toBeInTheDocument();
  });

  it("montre les lectures plus anciennes page par page, sans en couper aucune", async () => {
    const read = (n: number) => ({
      id: `a${n}`,
      actor_name: n > 20 ? "Marc Dubois" : "Claire Morel",
      action: "support_thread_view",
      object_name: null,
      created_at: new Date(Date.UTC(2026, 2, 12, 10) - n * 60_000).toISOString(),
    });
    const { calls } = stubSupportApi({
      access: () =>
        calls.at(-1)?.endsWith("?page=2")
          ? json(200, accessPage([read(21)], false, 2))
          : json(
              200,
              accessPage(
                Array.from({ length: 20 }, (_, i) => read(i + 1)),
                true,
              ),
            ),
    });
    const user = setup();
    renderApp("/patient/help");
    const list = await screen.findByRole("list", { name: "Lectures de mon fil par l'équipe" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(20);
    await user.click(
      within(screen.getByRole("navigation", { name: "Pagination" })).getByRole("button", { name: "Suivant" }),
    );
    expect(await screen.findByText("Marc Dubois")).toBeInTheDocument();
    expect(
      within(screen.getByRole("list", { name: "Lectures de mon fil par l'équipe" })).getAllByRole("listitem"),
    ).toHaveLength(1);
    expect(calls).toContain("GET /api/support/access?page=2");
  });
});
const box = () => screen.findByRole("textbox", { name: "Votre message à l'équipe" });

describe("/patient/help 'Besoin d'aide ?'", () => {
  it("montre l'échange avec l'équipe et marque ses réponses lues à l'ouverture", async () => {
    setup();
    const { calls } = stubSupportApi();
    renderApp("/patient/help");
    expect(
      await screen.findByRole("heading", { level: 1, name: "Besoin d'aide\u202f?" }),
    ).toBeInTheDocument();
    const thread = await screen.findByRole("list", { name: "Messages" });
    expect(within(thread).getByText("Comment joindre mon devis ?")).toBeInTheDocument();
    expect(within(thread).getByText("Depuis « Nouvelle demande ».")).toBeInTheDocument();
    expect(within(thread).getByText("L'équipe Sourio")).toBeInTheDocument();
    expect(within(thread).getByText("Vous")).toBeInTheDocument();
    await waitFor(() => expect(calls).toContain("POST /api/support/read"));
    // Once: the replies are then read.
    await settled();
    expect(calls.filter((c) => c === "POST /api/support/read")).toHaveLength(1);
  });

  it("nomme la marque configurée (BRAND_NAME), jamais « Sourio » écrit en dur", async () => {
    setup();
    stubSupportApi({
      config: () => json(200, { brand_name: "Dentalia", contact_email: "aide@dentalia.fr" }),
    });
    renderApp("/patient/help");
    expect(
      await screen.findByRole("region", { name: "Conversation avec l'équipe Dentalia" }),
    ).toBeInTheDocument();
    expect(screen.getByText(/^Une question sur Dentalia, une demande ou un devis/)).toBeInTheDocument();
    expect(await screen.findByText("L'équipe Dentalia")).toBeInTheDocument();
    expect(document.body.textContent).not.toContain("Sourio");
  });

  it("ne marque rien quand aucune réponse n'est à lire, et invite à écrire quand le fil est vide", async () => {
    setup();
    const { calls } = stubSupportApi({ list: () => json(200, { items: [], has_more: false }) });
    renderApp("/patient/help");
    expect(await screen.findByRole("heading", { name: "Posez votre question" })).toBeInTheDocument();
    expect(calls).not.toContain("POST /api/support/read");
  });

  it("Entrée envoie (texte sans espaces autour), Maj+Entrée va à la ligne ; le message s'ajoute et un toast le confirme", async () => {
    const user = setup();
    stubSupportApi();
    renderApp("/patient/help");
    const input = await box();
    const send = screen.getByRole("button", { name: "Envoyer" });
    expect(send).toBeDisabled();
    await user.type(input, "  Bonjour{Shift>}{Enter}{/Shift}ma question  ");
    expect(FakeXhr.sent).toHaveLength(0);
    expect(input).toHaveValue("  Bonjour\nma question  ");
    await user.type(input, "{Enter}");
    expect(FakeXhr.sent).toHaveLength(1);
    const xhr = FakeXhr.sent[0] as FakeXhr;
    expect(xhr.method).toBe("POST");
    expect(xhr.url).toBe("/api/support/messages");
    expect(xhr.body?.get("body")).toBe("Bonjour\nma question");
    expect(xhr.body?.get("image")).toBeNull();
    await waitFor(() => expect(send).toBeDisabled());
    act(() =>
      xhr.answer(
        201,
        message({ id: "s3", body: "Bonjour\nma question", created_at: "2026-03-12T10:00:00.000Z" }),
      ),
    );
    expect(await screen.findByText("Votre message a été envoyé à l'équipe")).toBeInTheDocument();
    expect(input).toHaveValue("");
    expect(
      within(screen.getByRole("list", { name: "Messages" })).getByText(/ma question/),
    ).toBeInTheDocument();
  });

  it("joint une image JPG ou PNG de 10 Mo au plus (aperçu retirable), et l'envoie seule", async () => {
    const user = setup();
    stubSupportApi();
    renderApp("/patient/help");
    await box();
    const picker = screen.getByLabelText("Image à joindre");

    await user.upload(picker, file("scan.pdf", "application/pdf"));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Seules les images JPG ou PNG peuvent être jointes.",
    );
    await user.upload(picker, file("photo.png", "image/png", 11 * 1024 * 1024));
    expect(screen.getByRole("alert")).toHaveTextContent("L'image est trop volumineuse (max 10 Mo)");
    // A text file renamed « .png »: refused when chosen, as the server would.
    await user.upload(picker, new File(["pas une image"], "capture.png", { type: "image/png" }));
    await waitFor(() =>
      expect(screen.getByRole("alert")).toHaveTextContent(
        "Seules les images JPG ou PNG peuvent être jointes.",
      ),
    );
    expect(screen.queryByRole("button", { name: "Retirer capture.png" })).not.toBeInTheDocument();

    await user.upload(picker, file("photo.png", "image/png"));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Retirer photo.png" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Retirer photo.png" }));
    expect(screen.queryByRole("button", { name: "Retirer photo.png" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Envoyer" })).toBeDisabled();

    await user.upload(picker, file("photo.png", "image/png"));
    await user.click(screen.getByRole("button", { name: "Envoyer" }));
    const xhr = FakeXhr.sent[0] as FakeXhr;
    expect(xhr.body?.get("body")).toBeNull();
    expect((xhr.body?.get("image") as File | undefined)?.name).toBe("photo.png");
  });

  it("dit l'échec d'un envoi en français et garde le message", async () => {
    const user = setup();
    stubSupportApi();
    renderApp("/patient/help");
    const input = await box();
    await user.type(input, "Bonjour{Enter}");
    act(() =>
      (FakeXhr.sent[0] as FakeXhr).answer(415, {
        error: {
          code: "UNSUPPORTED_MEDIA_TYPE",
          message: "Seules les images JPG ou PNG peuvent être jointes.",
        },
      }),
    );
    expect(await screen.findByText("Impossible d'envoyer le message")).toBeInTheDocument();
    expect(screen.getByText("Seules les images JPG ou PNG peuvent être jointes.")).toBeInTheDocument();
    expect(input).toHaveValue("Bonjour");
  });

  it("dit 'Impossible de charger les messages' quand le fil ne se charge pas", async () => {
    setup();
    stubSupportApi({ list: () => json(500, { error: { code: "INTERNAL", message: "Erreur" } }) });
    renderApp("/patient/help");
    expect((await screen.findAllByText("Impossible de charger les messages")).length).toBeGreaterThan(0);
  });

  it("en direct : la réponse de l'équipe apparaît sans recharger, et elle est marquée lue", async () => {
    setup();
    setRealtimeSocketFactory(() => new FakeSocket());
    let opened: (typeof READ_BY_CLAIRE)[] = [];
    const { calls } = stubSupportApi({
      list: () => json(200, { items: [THREAD[0]], has_more: false }),
      access: () => json(200, accessPage(opened)),
    });
    renderApp("/patient/help");
    await screen.findByText("Comment joindre mon devis ?");
    expect(await screen.findByText("Personne de l'équipe n'a encore ouvert ce fil.")).toBeInTheDocument();
    // Claire opens the thread, then answers.
    opened = [READ_BY_CLAIRE];
    await waitFor(() => expect(FakeSocket.last).not.toBeNull());
    expect(calls).not.toContain("POST /api/support/read");
    act(() => {
      FakeSocket.last?.push({ type: "ready", user_id: patient.id });
      FakeSocket.last?.push({
        type: "support",
        message: message({
          id: "s7",
          from_team: true,
          author_name: "Claire Morel",
          body: "Voici la marche à suivre.",
        }),
      });
    });
    expect(await screen.findByText("Voici la marche à suivre.")).toBeInTheDocument();
    await waitFor(() => expect(calls).toContain("POST /api/support/read"));
    // « Qui a lu ce fil » follows: her reply says she opened it.
    const reads = await screen.findByRole("list", { name: "Lectures de mon fil par l'équipe" });
    expect(reads).toHaveTextContent("Claire Morel (équipe)");
    expect(screen.queryByText("Personne de l'équipe n'a encore ouvert ce fil.")).not.toBeInTheDocument();
  });

  it("l'en-tête compte les réponses de l'équipe non lues, en direct, jusqu'à l'ouverture de la page", async () => {
    const user = setup();
    setRealtimeSocketFactory(() => new FakeSocket());
    let unread = 1;
    const { calls } = stubSupportApi({
      unread: () => json(200, { unread }),
      read: () => {
        unread = 0;
        return json(200, { read: 2 });
      },
    });
    renderApp("/patient/dashboard");
    const banner = await screen.findByRole("banner");
    const help = await within(banner).findByRole("link", {
      name: /^Besoin d'aide\u202f\?, 1 réponse non lue$/,
    });
    expect(help).toHaveTextContent("1");
    await waitFor(() => expect(FakeSocket.last).not.toBeNull());
    act(() => {
      FakeSocket.last?.push({ type: "ready", user_id: patient.id });
      FakeSocket.last?.push({
        type: "support",
        message: message({ id: "s8", from_team: true, author_name: "Claire Morel", body: "Autre chose ?" }),
      });
      // Her own message (sent from another tab) is no answer to read.
      FakeSocket.last?.push({ type: "support", message: message({ id: "s9", body: "Non, merci." }) });
    });
    await waitFor(() => expect(help).toHaveAccessibleName("Besoin d'aide\u202f?, 2 réponses non lues"));
    // Counted from the notice, not asked again.
    expect(calls.filter((c) => c === "GET /api/support/unread")).toHaveLength(1);

    // Read in another tab of hers: the badge goes.
    act(() => FakeSocket.last?.push({ type: "support_read" }));
    await waitFor(() => expect(help).toHaveAccessibleName("Besoin d'aide\u202f?"));
    act(() =>
      FakeSocket.last?.push({
        type: "support",
        message: message({
          id: "s10",
          from_team: true,
          author_name: "Claire Morel",
          body: "Et encore ceci.",
        }),
      }),
    );
    await waitFor(() => expect(help).toHaveAccessibleName("Besoin d'aide\u202f?, 1 réponse non lue"));

    await user.click(help);
    await waitFor(() => expect(calls).toContain("POST /api/support/read"));
    await waitFor(() =>
      expect(within(banner).getByRole("link", { name: /^Besoin d'aide/ })).toHaveAccessibleName(
        "Besoin d'aide\u202f?",
      ),
    );
  });

  it("le tableau de bord et le menu du compte mènent à la page d'aide", async () => {
    const user = setup();
    stubSupportApi();
    renderApp("/patient/dashboard");
    expect(await screen.findByRole("link", { name: "Écrire à l'équipe" })).toHaveAttribute(
      "href",
      "/patient/help",
    );
    await user.click(screen.getByRole("button", { name: /^Mon compte/ }));
    expect(await screen.findByRole("menuitem", { name: "Besoin d'aide\u202f?" })).toHaveAttribute(
      "href",
      "/patient/help",
    );
  });
});

describe("'Besoin d'aide ?' pour tous (issue 16)", () => {
  const REQUEST = "b0000000-0000-4000-8000-000000000001";

  it("ouverte depuis une demande, le premier message la nomme, puis plus aucun", async () => {
    const user = setup();
    stubSupportApi({ list: () => json(200, { items: [], has_more: false }) });
    renderApp(`/patient/help?request=${REQUEST}`);
    const input = await box();
    expect(screen.getByText("À propos de votre demande")).toBeInTheDocument();
    await user.type(input, "Une question sur cette demande{Enter}");
    const first = FakeXhr.sent[0] as FakeXhr;
    expect(first.body?.get("request_id")).toBe(REQUEST);
    act(() =>
      first.answer(
        201,
        message({
          id: "s8",
          body: "Une question sur cette demande",
          request: { id: REQUEST, label: "Couronne du 12/03/2026" },
        }),
      ),
    );
    expect(await screen.findByText("À propos de la demande Couronne du 12/03/2026")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText("À propos de votre demande")).not.toBeInTheDocument());
    await user.type(input, "Et autre chose{Enter}");
    expect((FakeXhr.sent[1] as FakeXhr).body?.get("request_id")).toBeNull();
  });

  it("on peut retirer la demande avant d'écrire", async () => {
    const user = setup();
    stubSupportApi({ list: () => json(200, { items: [], has_more: false }) });
    renderApp(`/patient/help?request=${REQUEST}`);
    const input = await box();
    await user.click(screen.getByRole("button", { name: "Ne pas joindre la demande à ce message" }));
    expect(screen.queryByText("À propos de votre demande")).not.toBeInTheDocument();
    await user.type(input, "Question générale{Enter}");
    expect((FakeXhr.sent[0] as FakeXhr).body?.get("request_id")).toBeNull();
  });

  it("un dentiste, même en attente de vérification, a sa page /dentist/help", async () => {
    const user = setup();
    const dentist = makeProfile({ id: "d0000000-0000-4000-8000-000000000001", role: "dentist" });
    stubSupportApi({ list: () => json(200, { items: [], has_more: false }) }, dentist);
    renderApp("/dentist/help");
    expect(
      await screen.findByRole("heading", { level: 1, name: "Besoin d'aide\u202f?" }),
    ).toBeInTheDocument();
    expect(screen.getByText(/la vérification de votre compte/)).toBeInTheDocument();
    await user.type(await box(), "Où en est ma vérification ?{Enter}");
    const sent = FakeXhr.sent[0] as FakeXhr;
    expect(sent.url).toBe("/api/support/messages");
    expect(sent.body?.get("body")).toBe("Où en est ma vérification ?");
  });
});

describe("imageProblem", () => {
  it("accepte JPG et PNG jusqu'à 10 Mo", () => {
    expect(imageProblem(file("a.jpg", "image/jpeg"))).toBeNull();
    expect(imageProblem(file("a.png", "image/png", 10 * 1024 * 1024))).toBeNull();
    expect(imageProblem(file("a.png", ""))).toBeNull();
    expect(imageProblem(file("a.gif", "image/gif"))).toBe(
      "Seules les images JPG ou PNG peuvent être jointes.",
    );
    expect(imageProblem(file("a.png", "image/png", 10 * 1024 * 1024 + 1))).toBe(
      "L'image est trop volumineuse (max 10 Mo)",
    );
  });
});
