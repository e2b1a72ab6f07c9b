import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { UPLOAD_MESSAGES } from "../../../shared/schemas/requests";
import { fakeFile as file } from "../../test/fakes";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";
import { spaced } from "../../test/text";

const MB = 1024 * 1024;
const DENTISTS = {
  items: [
    {
      id: "11111111-1111-4111-8111-111111111111",
      full_name: "Paul Martin",
      city: "Paris",
      specialties: [],
    },
  ],
};

async function openUpload(handlers: Parameters<typeof stubApi>[1] = {}) {
  const fetchMock = stubApi(makeProfile(), {
    "GET /api/dentists/verified": () => json(200, DENTISTS),
    ...handlers,
  });
  const user = userEvent.setup({ applyAccept: false });
  const app = renderApp("/patient/upload");
  const input = await screen.findByLabelText("Choisir des fichiers");
  return { user, input, fetchMock, ...app };
}

const typeSelect = (name: string) => screen.getByRole("combobox", { name: `Type de document pour ${name}` });
const fileList = () => screen.getByRole("list", { name: "Fichiers sélectionnés" });

/** Files added together: each one's name, its content type, and the document type guessed for it. */
const GUESSES = [
  ["radio-panoramique.pdf", "application/pdf", "Radiographie"],
  ["devis-dentiste.pdf", "application/pdf", "Devis"],
  ["sourire.jpg", "image/jpeg", "Photo"],
  // Images are photos, whatever else their name says…
  ["radio.png", "image/png", "Photo"],
  // …but a photo of the devis named so is a devis, to be read (issue 34).
  ["devis-dentiste-2026.jpg", "image/jpeg", "Devis"],
  ["notes.pdf", "application/pdf", "Autre"],
  ["video.mp4", "video/mp4", "Autre"],
] as const;

describe("liste des fichiers du téléversement", () => {
  it("devine le type de chaque fichier et annonce les fichiers ajoutés", async () => {
    const { user, input } = await openUpload();
    await user.upload(
      input,
      GUESSES.map(([name, type]) => file(name, type)),
    );
    for (const [name, , guessed] of GUESSES) expect(typeSelect(name)).toHaveTextContent(guessed);
    expect(await screen.findByText("7 fichiers ajoutés")).toBeInTheDocument();
    expect(within(fileList()).getAllByText("< 0,1 Mo")).toHaveLength(7);
  });

  it("laisse changer le type d'un fichier et retirer un fichier", async () => {
    const { user, input } = await openUpload();
    await user.upload(input, [file("scan.pdf", "application/pdf"), file("autre.pdf", "application/pdf")]);
    expect(typeSelect("scan.pdf")).toHaveTextContent("Autre");
    await user.click(typeSelect("scan.pdf"));
    await user.click(await screen.findByRole("option", { name: "Radiographie" }));
    expect(typeSelect("scan.pdf")).toHaveTextContent("Radiographie");
    expect(typeSelect("autre.pdf")).toHaveTextContent("Autre");

    await user.click(screen.getByRole("button", { name: "Retirer autre.pdf" }));
    expect(within(fileList()).queryByText("autre.pdf")).not.toBeInTheDocument();
    expect(within(fileList()).getByText("scan.pdf")).toBeInTheDocument();
    // The focus goes to the file left's « Retirer », then, the last one removed, to the file picker.
    const left = screen.getByRole("button", { name: "Retirer scan.pdf" });
    expect(left).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(screen.queryByRole("list", { name: "Fichiers sélectionnés" })).not.toBeInTheDocument();
    expect(input).toHaveFocus();
  });

  it("refuse un fichier de plus de 10 Mo avec le message d'un seul fichier", async () => {
    const { user, input } = await openUpload();
    // The hint states the rule the refusal applies (every accepted format, videos too), not advice.
    expect(input).toHaveAccessibleDescription(
      "PDF, JPG, PNG ou vidéo (MP4, MOV, AVI, MKV), 10 Mo au plus par fichier.",
    );
    await user.upload(input, file("enorme.pdf", "application/pdf", 11 * MB));
    expect(
      await screen.findAllByText("Le fichier enorme.pdf est trop volumineux (max 10 Mo)"),
    ).not.toHaveLength(0);
    expect(screen.queryByRole("list", { name: "Fichiers sélectionnés" })).not.toBeInTheDocument();
  });

  it("garde les fichiers qui tiennent quand plusieurs sont ajoutés, avec le message de plusieurs fichiers", async () => {
    const { user, input } = await openUpload();
    await user.upload(input, [
      file("gros-1.pdf", "application/pdf", 10 * MB + 1),
      file("devis.pdf", "application/pdf", 3 * MB),
      file("gros-2.mp4", "video/mp4", 50 * MB),
      file("photo.png", "image/png", 10 * MB),
      file("radio.pdf", "application/pdf", 1.4 * MB),
    ]);
    const message = "Fichiers trop volumineux : gros-1.pdf, gros-2.mp4. La taille maximale est de 10 Mo.";
    expect((await screen.findAllByText(message)).length).toBeGreaterThan(0);
    const list = fileList();
    expect(within(list).getByText("devis.pdf")).toBeInTheDocument();
    expect(within(list).getByText("photo.png")).toBeInTheDocument();
    expect(within(list).getByText("10,0 Mo")).toBeInTheDocument();
    expect(within(list).getByText("1,4 Mo")).toBeInTheDocument();
    expect(within(list).queryByText("gros-1.pdf")).not.toBeInTheDocument();
    expect(within(list).queryByText("gros-2.mp4")).not.toBeInTheDocument();
    // sonner keeps earlier tests' toasts: this count is used by no other test of this file.
    expect(await screen.findByText("3 fichiers ajoutés")).toBeInTheDocument();
  });

  it("refuse un type de fichier non accepté", async () => {
    const { user, input } = await openUpload();
    await user.upload(input, [file("notes.txt", "text/plain"), file("devis.pdf", "application/pdf")]);
    expect(
      (await screen.findAllByText("Le type de fichier notes.txt n'est pas accepté")).length,
    ).toBeGreaterThan(0);
    expect(within(fileList()).queryByText("notes.txt")).not.toBeInTheDocument();
    expect(within(fileList()).getByText("devis.pdf")).toBeInTheDocument();
  });

  it("refuse d'un coup, dès le choix, un fichier vide et un fichier qui n'est pas le PDF ou l'image que dit son nom", async () => {
    const { user, input } = await openUpload();
    const empty = file("vide.pdf", "application/pdf", 0);
    const renamed = new File(["Notes de la consultation"], "faux.pdf", { type: "application/pdf" });
    const photo = new File(["%PDF-1.7"], "photo.png", { type: "image/png" });
    await user.upload(input, [empty, renamed, photo, file("devis.pdf", "application/pdf")]);
    const notice = (text: string) => screen.findAllByText(spaced(text));
    expect((await notice(UPLOAD_MESSAGES.fileEmpty("vide.pdf"))).length).toBeGreaterThan(0);
    expect((await notice(UPLOAD_MESSAGES.fileContent("faux.pdf"))).length).toBeGreaterThan(0);
    expect((await notice(UPLOAD_MESSAGES.fileContent("photo.png"))).length).toBeGreaterThan(0);
    expect(
      within(fileList())
        .getAllByRole("listitem")
        .map((li) => within(li).getByText(/\.(pdf|png)$/).textContent),
    ).toEqual(["devis.pdf"]);
  });

  it("n'accepte pas plus de 10 fichiers par demande", async () => {
    const { user, input } = await openUpload();
    await user.upload(
      input,
      Array.from({ length: 12 }, (_, i) => file(`page-${i + 1}.pdf`, "application/pdf")),
    );
    expect((await screen.findAllByText(UPLOAD_MESSAGES.tooManyFiles(10))).length).toBeGreaterThan(0);
    expect(within(fileList()).getAllByRole("listitem")).toHaveLength(10);
  });
});

describe("formulaire de téléversement", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("affiche les messages de validation sans rien envoyer", async () => {
    const { user, fetchMock } = await openUpload();
    await user.type(screen.getByLabelText("Montant de votre devis actuel (optionnel)"), "douze euros");
    await user.click(screen.getByRole("button", { name: "Envoyer ma demande" }));

    expect(screen.getAllByText(UPLOAD_MESSAGES.noFile).length).toBeGreaterThan(0);
    expect(screen.getByText(UPLOAD_MESSAGES.treatmentRequired)).toBeInTheDocument();
    expect(screen.getByText(UPLOAD_MESSAGES.quoteAmountInvalid)).toBeInTheDocument();
    expect(screen.getByText(UPLOAD_MESSAGES.consentRequired)).toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: /Type de traitement/ })).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    expect(screen.getByRole("checkbox", { name: /J'accepte que mes documents/ })).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith("/api/patient/requests"))).toBe(false);
  });

  it("propose tous les dentistes vérifiés par défaut, ou un dentiste « Dr Nom — Ville »", async () => {
    const { user } = await openUpload();
    const recipient = screen.getByRole("combobox", { name: "Dentiste destinataire" });
    expect(recipient).toHaveTextContent("Tous les dentistes vérifiés");
    expect(screen.getByRole("combobox", { name: "Urgence" })).toHaveTextContent("Normal (1 à 4 semaines)");
    await user.click(recipient);
    await user.click(await screen.findByRole("option", { name: "Dr Paul Martin — Paris" }));
    expect(recipient).toHaveTextContent("Dr Paul Martin — Paris");
    expect(
      screen.getByRole("checkbox", { name: /le dentiste choisi \(Dr Paul Martin\)/ }),
    ).toBeInTheDocument();
  });

  it("dit quand la liste des dentistes ne peut pas être chargée", async () => {
    await openUpload({
      "GET /api/dentists/verified": () => json(500, { error: { code: "INTERNAL", message: "Erreur" } }),
    });
    const message = "Impossible de charger la liste des dentistes. Veuillez réessayer plus tard.";
    await waitFor(() => expect(screen.getAllByText(message).length).toBeGreaterThan(0));
  });

  it("dit quand aucun dentiste vérifié n'est disponible", async () => {
    await openUpload({ "GET /api/dentists/verified": () => json(200, { items: [] }) });
    expect(
      await screen.findByText("Aucun dentiste vérifié n'est disponible pour le moment"),
    ).toBeInTheDocument();
  });
});
