import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { FakeXhr, fakeFile as file } from "../../test/fakes";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";

async function fillForm() {
  stubApi(makeProfile(), {
    "GET /api/dentists/verified": () => json(200, { items: [] }),
    // The dashboard reached after sending lists the upcoming appointments.
    "GET /api/appointments": () => json(200, { items: [], page: 1, page_size: 10, has_more: false }),
  });
  FakeXhr.last = null;
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
  const user = userEvent.setup();
  const app = renderApp("/patient/upload");
  await user.upload(await screen.findByLabelText("Choisir des fichiers"), [
    file("devis.pdf", "application/pdf", 4000),
    file("photo.png", "image/png", 4000),
  ]);
  await user.click(screen.getByRole("combobox", { name: /Type de traitement/ }));
  await user.click(await screen.findByRole("option", { name: "Couronne" }));
  await user.type(screen.getByLabelText("Budget"), "2 000 €");
  await user.click(screen.getByRole("checkbox", { name: /J'accepte que mes documents/ }));
  await user.click(screen.getByRole("button", { name: "Envoyer ma demande" }));
  await waitFor(() => expect(FakeXhr.last).not.toBeNull());
  return { user, xhr: FakeXhr.last as unknown as FakeXhr, ...app };
}

const bar = (name: string) => screen.getByRole("progressbar", { name: `Envoi de ${name}` });

describe("envoi d'une demande", () => {
  it("envoie les champs puis les fichiers, suit la progression de chaque fichier, puis redirige", async () => {
    const { xhr, router } = await fillForm();
    expect(xhr.method).toBe("POST");
    expect(xhr.url).toBe("/api/patient/requests");
    const entries = [...(xhr.body?.entries() ?? [])];
    expect(entries.map(([name]) => name)).toEqual([
      "treatment_type",
      "description",
      "budget",
      "quote_amount",
      "urgency",
      "recipient",
      "consent",
      "document_types",
      "submission_id",
      "files",
      "files",
    ]);
    const fields = Object.fromEntries(entries.filter(([name]) => name !== "files"));
    expect(fields).toMatchObject({
      treatment_type: "crown",
      budget: "2 000 €",
      urgency: "medium",
      recipient: "all",
      consent: "true",
      document_types: JSON.stringify(["quote", "photo"]),
    });
    expect(screen.getByRole("button", { name: "Traitement en cours..." })).toBeDisabled();

    act(() => xhr.progress(0.4));
    const first = Number(bar("devis.pdf").getAttribute("aria-valuenow"));
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(100);
    expect(bar("photo.png")).toHaveAttribute("aria-valuenow", "0");
    act(() => xhr.progress(1));
    expect(bar("devis.pdf")).toHaveAttribute("aria-valuenow", "100");
    expect(bar("photo.png")).toHaveAttribute("aria-valuenow", "100");

    act(() => xhr.answer(201, { id: "r1", message: "Documents envoyés avec succès\u202f!" }));
    expect(await screen.findByText("Documents téléversés avec succès !")).toBeInTheDocument();
    expect(await screen.findByText("Documents envoyés avec succès !")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voir toutes mes demandes" })).toHaveAttribute(
      "href",
      "/patient/requests",
    );
    await waitFor(() => expect(router.state.location.pathname).toBe("/patient/dashboard"));
  });

  it("garde le formulaire rempli et montre le message du serveur en cas d'échec", async () => {
    const { xhr } = await fillForm();
    const message =
      "Le contenu du fichier devis.pdf ne correspond pas à un format accepté (PDF, JPG, PNG, MP4, MOV, AVI, MKV).";
    act(() => xhr.answer(415, { error: { code: "UNSUPPORTED_MEDIA_TYPE", message } }));
    expect(
      await screen.findByText("Une erreur est survenue lors de l'envoi des documents."),
    ).toBeInTheDocument();
    expect(screen.getAllByText(message).length).toBeGreaterThan(0);
    // The keyboard and the page go to the files, where the refused file is named.
    await waitFor(() =>
      expect(document.activeElement).toHaveAccessibleDescription(expect.stringContaining(message)),
    );
    expect(document.activeElement).toHaveAttribute("aria-invalid", "true");
    const list = screen.getByRole("list", { name: "Fichiers sélectionnés" });
    expect(within(list).getByText("devis.pdf")).toBeInTheDocument();
    expect(within(list).getByText("photo.png")).toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: /Type de traitement/ })).toHaveTextContent("Couronne");
    expect(screen.getByLabelText("Budget")).toHaveValue("2 000 €");
    expect(screen.getByRole("button", { name: "Envoyer ma demande" })).toBeEnabled();
  });

  it("renvoie le même identifiant d'envoi après une coupure : le serveur ne l'enregistre qu'une fois (ADR 101)", async () => {
    const { user, xhr } = await fillForm();
    const first = xhr.body?.get("submission_id");
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The connection drops: no answer reaches the page.
    act(() => xhr.onerror?.());
    expect(
      await screen.findByText("Une erreur est survenue lors de l'envoi des documents."),
    ).toBeInTheDocument();
    FakeXhr.last = null;
    await user.click(screen.getByRole("button", { name: "Envoyer ma demande" }));
    await waitFor(() => expect(FakeXhr.last).not.toBeNull());
    const retry = FakeXhr.last as unknown as FakeXhr;
    expect(retry).not.toBe(xhr);
    expect(retry.body?.get("submission_id")).toBe(first);
  });

  it("une autre demande, une autre visite du formulaire : un autre identifiant", async () => {
    const { xhr, unmount } = await fillForm();
    const first = xhr.body?.get("submission_id");
    unmount();
    const again = await fillForm();
    expect(again.xhr.body?.get("submission_id")).not.toBe(first);
  });
});

describe("annuler une demande commencée", () => {
  function openUpload() {
    stubApi(makeProfile(), {
      "GET /api/dentists/verified": () => json(200, { items: [] }),
      "GET /api/patient/dashboard": () =>
        json(200, { counts: { active: 0, completed: 0, latest_at: null, support_unread: 0 }, recent: [] }),
      "GET /api/appointments": () => json(200, { items: [], page: 1, page_size: 10, has_more: false }),
    });
    return { user: userEvent.setup(), ...renderApp("/patient/upload") };
  }

  it("quitte tout de suite quand rien n'est choisi ni saisi", async () => {
    const { user, router } = openUpload();
    await user.click(await screen.findByRole("button", { name: "Annuler" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/patient/dashboard"));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("demande confirmation quand quelque chose est saisi, et garde tout si la patiente continue", async () => {
    const { user, router } = openUpload();
    await user.type(await screen.findByLabelText("Budget"), "2 000 €");
    await user.click(screen.getByRole("button", { name: "Annuler" }));
    let dialog = await screen.findByRole("dialog", { name: "Abandonner cette demande\u202f?" });
    await user.click(within(dialog).getByRole("button", { name: "Continuer ma demande" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe("/patient/upload");
    expect(screen.getByLabelText("Budget")).toHaveValue("2 000 €");

    await user.click(screen.getByRole("button", { name: "Annuler" }));
    dialog = await screen.findByRole("dialog", { name: "Abandonner cette demande\u202f?" });
    await user.click(within(dialog).getByRole("button", { name: "Abandonner la demande" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/patient/dashboard"));
  });
});
