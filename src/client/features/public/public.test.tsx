import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_FILE_SIZE } from "../../../shared/domain/limits";
import { TRIAL_DAYS } from "../../../shared/domain/subscription";
import { planPriceDtos } from "../../../shared/schemas/billing";
import {
  CONTACT_MESSAGE_MAX_LENGTH,
  CONTACT_MESSAGES,
  CONTACT_NAME_MAX_LENGTH,
} from "../../../shared/schemas/contact";
import {
  PATIENTS_FIGURE_MINIMUM,
  PUBLIC_FIGURE_METHODS,
  PUBLIC_FIGURE_MIN_SAMPLE,
} from "../../../shared/schemas/publicStats";
import { PlanPrices } from "../../components/subscription/PlanPrices";
import { FAQ } from "../../content/faq";
import { FIGURES, TESTIMONIALS_SECTION } from "../../content/landing";
import { FakeXhr } from "../../test/fakes";
import { json, renderApp, stubApi } from "../../test/renderApp";
import { spaced } from "../../test/text";
import { ContactForm } from "./ContactForm";
import { FAQ_ITEMS, FaqAccordion } from "./faqItems";
import { startVideo } from "./HeroVideo";
import { LandingPage } from "./LandingPage";
import { resetPublicStatsStore } from "./publicStats";
import { TESTIMONIALS, TestimonialsCarousel } from "./Testimonials";

// No public-page test may log an error (jsdom has no media playback: play() is stubbed).
let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  consoleError = vi.spyOn(console, "error");
  vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(() => Promise.resolve());
  vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => {});
});
afterEach(() => {
  expect(consoleError).not.toHaveBeenCalled();
  vi.restoreAllMocks();
});

describe("hero video", () => {
  it("starts playing whatever play() returns: a promise, nothing, or a throw", async () => {
    const video = document.createElement("video");
    const refused = vi.fn();
    vi.mocked(HTMLMediaElement.prototype.play).mockReturnValueOnce(undefined as unknown as Promise<void>);
    expect(() => startVideo(video, refused)).not.toThrow();
    vi.mocked(HTMLMediaElement.prototype.play).mockImplementationOnce(() => {
      throw new Error("NotSupportedError");
    });
    startVideo(video, refused);
    expect(refused).toHaveBeenCalledTimes(1);
    vi.mocked(HTMLMediaElement.prototype.play).mockReturnValueOnce(Promise.reject(new Error("NotAllowed")));
    startVideo(video, refused);
    await waitFor(() => expect(refused).toHaveBeenCalledTimes(2));
  });
});

function authorsShown() {
  return screen.getAllByText(/, [A-Z][a-z]+$/).map((node) => node.textContent);
}

describe("testimonials carousel", () => {
  it("shows two testimonials per page, with stars out of 5 and the slide position", () => {
    render(<TestimonialsCarousel testimonials={TESTIMONIALS} />);
    const region = screen.getByRole("region", { name: "Témoignages" });
    expect(region).toHaveAttribute("aria-roledescription", "carrousel");
    const slide = screen.getByRole("group", { name: "1 sur 2" });
    expect(slide).toHaveAttribute("aria-roledescription", "diapositive");
    expect(authorsShown()).toEqual(["Sophie L., Lyon", "Karim B., Toulouse"]);
    expect(screen.getAllByRole("img", { name: "Note\u202f: 5 sur 5" })).toHaveLength(2);
  });

  it("moves one page with next and previous, and wraps both ways", async () => {
    const user = userEvent.setup();
    render(<TestimonialsCarousel testimonials={TESTIMONIALS} />);
    await user.click(screen.getByRole("button", { name: "Page suivante" }));
    expect(screen.getByRole("group", { name: "2 sur 2" })).toBeInTheDocument();
    expect(authorsShown()).toEqual(["Monique R., Nantes", "Julien M., Bordeaux"]);
    expect(screen.getByRole("img", { name: "Note\u202f: 4 sur 5" })).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Page suivante" }));
    expect(screen.getByRole("group", { name: "1 sur 2" })).toBeInTheDocument();
    expect(authorsShown()).toEqual(["Sophie L., Lyon", "Karim B., Toulouse"]);

    await user.click(screen.getByRole("button", { name: "Page précédente" }));
    expect(screen.getByRole("group", { name: "2 sur 2" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Page précédente" }));
    expect(screen.getByRole("group", { name: "1 sur 2" })).toBeInTheDocument();
  });

  it("jumps to a page with its numbered button, which is marked current", async () => {
    const user = userEvent.setup();
    render(<TestimonialsCarousel testimonials={TESTIMONIALS} />);
    expect(screen.getByRole("button", { name: "Page 1" })).toHaveAttribute("aria-current", "true");
    await user.click(screen.getByRole("button", { name: "Page 2" }));
    expect(screen.getByRole("group", { name: "2 sur 2" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Page 2" })).toHaveAttribute("aria-current", "true");
    expect(screen.getByRole("button", { name: "Page 1" })).not.toHaveAttribute("aria-current");
    await user.click(screen.getByRole("button", { name: "Page 1" }));
    expect(authorsShown()).toEqual(["Sophie L., Lyon", "Karim B., Toulouse"]);
  });

  it("works without JavaScript: the server HTML has every page in a scroll-snap strip, reached by links", () => {
    const html = renderToStaticMarkup(<TestimonialsCarousel testimonials={TESTIMONIALS} />);
    expect(html).toContain('id="temoignages-page-1"');
    expect(html).toContain('id="temoignages-page-2"');
    expect(html).toMatch(/<a href="#temoignages-page-2"[^>]*aria-label="Page suivante"/);
    expect(html).toMatch(/<a href="#temoignages-page-2"[^>]*aria-label="Page précédente"/);
    expect(html).toMatch(/<a href="#temoignages-page-1"[^>]*aria-label="Page 1"/);
    expect(html).toContain("snap-x");
    expect(html).not.toContain("<button");
    for (const author of ["Sophie L., Lyon", "Julien M., Bordeaux"]) expect(html).toContain(author);
  });

  it("has the four testimonials: three patients rated 5, one dentist rated 4", () => {
    expect(TESTIMONIALS.map((t) => [t.role === "Dentiste" ? "dentist" : "patient", t.rating])).toEqual([
      ["patient", 5],
      ["patient", 5],
      ["patient", 5],
      ["dentist", 4],
    ]);
  });
});

describe("FAQ accordion", () => {
  const renderFaq = () =>
    render(
      <MemoryRouter>
        <FaqAccordion />
      </MemoryRouter>,
    );
  const all = (container: HTMLElement) => [...container.querySelectorAll("details")];

  it("is native <details> sharing one name: one question open at a time, each closes again", async () => {
    const user = userEvent.setup();
    const { container } = renderFaq();
    const [first, second] = all(container);
    if (!first || !second) throw new Error("FAQ vide");
    expect(container.querySelectorAll("details > summary")).toHaveLength(FAQ_ITEMS.length);
    expect(new Set(all(container).map((d) => d.getAttribute("name")))).toEqual(new Set(["faq"]));
    expect(all(container).some((d) => d.open)).toBe(false);
    // Questions stay headings (h3 under a section) inside their summary.
    expect(first.querySelector("summary > h3")?.textContent).toBe(FAQ_ITEMS[0]?.question);

    await user.click(first.querySelector("summary") as HTMLElement);
    expect(first.open).toBe(true);
    await user.click(second.querySelector("summary") as HTMLElement);
    expect(second.open).toBe(true);
    await user.click(second.querySelector("summary") as HTMLElement);
    expect(second.open).toBe(false);
  });

  it("needs no JavaScript: the server HTML is <details>/<summary> with the answer inside", () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <FaqAccordion headingLevel={2} />
      </MemoryRouter>,
    );
    const [first] = FAQ_ITEMS;
    expect(html.match(/<details name="faq"/g)).toHaveLength(6);
    expect(html).toContain("<summary");
    expect(html).toMatch(/<h2[^>]*>[^<]*<\/h2>/);
    expect(html).not.toContain("<button");
    const answer = first?.answer[0]?.[0];
    expect(typeof answer === "string" && html.includes(answer.replaceAll("'", "&#x27;"))).toBe(true);
  });
});

describe("contact form", () => {
  it("asks for the required fields without sending anything", async () => {
    const xhrOpen = vi.spyOn(XMLHttpRequest.prototype, "open");
    const user = userEvent.setup();
    render(<ContactForm />);
    await user.type(screen.getByLabelText("Message"), "Bonjour");
    await user.click(screen.getByRole("button", { name: "Envoyer le message" }));
    expect(screen.getAllByText(CONTACT_MESSAGES.required)).toHaveLength(2);
    expect(screen.getByLabelText(/^Nom/)).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText(/^E-mail/)).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText("Message")).toHaveValue("Bonjour");
    expect(xhrOpen).not.toHaveBeenCalled();
  });

  it("refuses a message over 5 000 characters before sending, counted trimmed as the server counts", async () => {
    const xhrOpen = vi.spyOn(XMLHttpRequest.prototype, "open");
    const xhrSend = vi.spyOn(XMLHttpRequest.prototype, "send").mockImplementation(() => {});
    const user = userEvent.setup();
    render(<ContactForm />);
    await user.type(screen.getByLabelText(/^Nom/), "Jeanne Martin");
    await user.type(screen.getByLabelText(/^E-mail/), "jeanne@example.fr");
    const message = screen.getByLabelText("Message");
    await user.click(message);
    await user.paste("a".repeat(CONTACT_MESSAGE_MAX_LENGTH + 1));
    await user.click(screen.getByRole("button", { name: "Envoyer le message" }));
    expect(screen.getAllByText(CONTACT_MESSAGES.messageTooLong).length).toBeGreaterThan(0);
    expect(message).toHaveAttribute("aria-invalid", "true");
    expect(message).toHaveValue("a".repeat(CONTACT_MESSAGE_MAX_LENGTH + 1));
    expect(xhrOpen).not.toHaveBeenCalled();

    // At the limit once trimmed, it goes.
    await user.clear(message);
    await user.paste(`  ${"a".repeat(CONTACT_MESSAGE_MAX_LENGTH)}  `);
    await user.click(screen.getByRole("button", { name: "Envoyer le message" }));
    await waitFor(() => expect(xhrOpen).toHaveBeenCalledTimes(1));
    expect(xhrSend).toHaveBeenCalledTimes(1);
  });

  it("focuses Nom, the first invalid field as the form shows them, after an empty submit", async () => {
    const xhrOpen = vi.spyOn(XMLHttpRequest.prototype, "open");
    const user = userEvent.setup();
    render(<ContactForm />);
    const send = screen.getByRole("button", { name: "Envoyer le message" });
    await user.click(send);
    expect(screen.getByLabelText(/^Nom/)).toHaveFocus();
    expect(send).not.toHaveFocus();
    expect(xhrOpen).not.toHaveBeenCalled();

    // The next refusal focuses its own first field: here the e-mail.
    await user.type(screen.getByLabelText(/^Nom/), "Jeanne Martin");
    await user.type(screen.getByLabelText("Message"), "Bonjour");
    await user.click(send);
    expect(screen.getByLabelText(/^E-mail/)).toHaveFocus();
  });

  it("says the name's limit before sending, without cutting a pasted name", async () => {
    const xhrOpen = vi.spyOn(XMLHttpRequest.prototype, "open");
    const user = userEvent.setup();
    render(<ContactForm />);
    const name = screen.getByLabelText(/^Nom/);
    await user.click(name);
    await user.paste("a".repeat(400));
    await user.type(screen.getByLabelText(/^E-mail/), "jeanne@example.fr");
    await user.type(screen.getByLabelText("Message"), "Bonjour");
    await user.click(screen.getByRole("button", { name: "Envoyer le message" }));
    expect(screen.getByText("Le nom ne peut pas dépasser 200 caractères")).toBeInTheDocument();
    expect(screen.queryByText(CONTACT_MESSAGES.required)).not.toBeInTheDocument();
    expect(name).toHaveAttribute("aria-invalid", "true");
    expect(name).toHaveValue("a".repeat(400));
    expect(name).toHaveFocus();
    expect(xhrOpen).not.toHaveBeenCalled();
  });

  it("asks for a message or a file before sending, and sends a file alone", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    FakeXhr.last = null;
    const user = userEvent.setup();
    render(<ContactForm />);
    await user.type(screen.getByLabelText(/^Nom/), "Jeanne Martin");
    await user.type(screen.getByLabelText(/^E-mail/), "jeanne@example.fr");
    await user.type(screen.getByLabelText("Message"), "   ");
    await user.click(screen.getByRole("button", { name: "Envoyer le message" }));
    const message = screen.getByLabelText("Message");
    expect(screen.getByText("Veuillez écrire un message ou joindre un fichier")).toBeInTheDocument();
    expect(message).toHaveAttribute("aria-invalid", "true");
    expect(message).toHaveFocus();
    expect(FakeXhr.last).toBeNull();

    await user.upload(
      screen.getByLabelText(/^Pièce jointe/),
      new File(["%PDF-1.4"], "devis.pdf", { type: "application/pdf" }),
    );
    expect(screen.queryByText(CONTACT_MESSAGES.messageOrFile)).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Envoyer le message" }));
    await waitFor(() => expect(FakeXhr.last).not.toBeNull());
    const sent = (FakeXhr.last as FakeXhr | null)?.body;
    expect(sent?.get("file")).toHaveProperty("name", "devis.pdf");
    expect(sent?.get("message")).toBe("   ");
  });

  it("shows the server's refusal beside its field and focuses it", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    FakeXhr.last = null;
    const user = userEvent.setup();
    render(<ContactForm />);
    // At the limit: the browser lets it go, the server has the last word.
    await user.click(screen.getByLabelText(/^Nom/));
    await user.paste("a".repeat(CONTACT_NAME_MAX_LENGTH));
    await user.type(screen.getByLabelText(/^E-mail/), "jeanne@example.fr");
    await user.type(screen.getByLabelText("Message"), "Bonjour");
    await user.click(screen.getByRole("button", { name: "Envoyer le message" }));
    await waitFor(() => expect(FakeXhr.last).not.toBeNull());
    act(() =>
      FakeXhr.last?.answer(400, {
        error: {
          code: "VALIDATION_ERROR",
          message: CONTACT_MESSAGES.messageOrFile,
          fields: { message: CONTACT_MESSAGES.messageOrFile },
        },
      }),
    );
    expect(await screen.findByText(CONTACT_MESSAGES.messageOrFile)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText("Message")).toHaveFocus());
  });

  it("refuses a file over 10 MB as soon as it is chosen", async () => {
    const user = userEvent.setup();
    render(<ContactForm />);
    const input = screen.getByLabelText(/^Pièce jointe/) as HTMLInputElement;
    expect(input).toHaveAttribute("accept", expect.stringContaining(".pdf"));
    const big = new File(["x"], "radio.pdf", { type: "application/pdf" });
    Object.defineProperty(big, "size", { value: MAX_FILE_SIZE + 1 });
    await user.upload(input, big);
    expect(await screen.findByText(CONTACT_MESSAGES.fileTooLarge)).toBeInTheDocument();
    expect(input).toHaveAttribute("aria-invalid", "true");
    expect(input.value).toBe("");

    // A text file named « .pdf »: its content is refused as soon as it is chosen.
    await user.upload(input, new File(["Bonjour"], "devis.pdf", { type: "application/pdf" }));
    expect(await screen.findByText(CONTACT_MESSAGES.fileContent)).toBeInTheDocument();
    expect(input.value).toBe("");

    const small = new File(["%PDF-1.4"], "devis.pdf", { type: "application/pdf" });
    await user.upload(input, small);
    await waitFor(() => expect(screen.queryByText(CONTACT_MESSAGES.fileTooLarge)).not.toBeInTheDocument());
    expect(screen.getByText("devis.pdf")).toBeInTheDocument();
  });
});

describe("landing figures (content + GET /api/public/stats)", () => {
  const renderLanding = () =>
    render(
      <MemoryRouter>
        <LandingPage />
      </MemoryRouter>,
    );
  const figure = (id: string) => document.querySelector(`[data-figure="${id}"]`)?.textContent ?? "";
  const MEASURED = {
    patients: 1230,
    first_offer_hours: { median: 16.5, sample: 32 },
    saving: { median_percent: 16, median_cents: 16_000, sample: 31 },
    verified_dentists: 42,
    rating: { average: 4.5, sample: 31 },
    // As the server writes them (public-stats.service.ts, its worked examples in public-stats.test.ts).
    text: {
      patients: "+ de 1\u202f230",
      first_offer_hours: "17\u00a0h",
      saving: "16\u00a0% (160,00\u00a0€)",
      verified_dentists: "42",
      rating: "4,5/5",
    },
  };

  it("writes no figure that is not measured: a dash in the pre-rendered page", () => {
    expect(FIGURES.every((f) => f.value === null)).toBe(true);
    resetPublicStatsStore();
    stubApi(null, { "GET /api/public/stats": () => json(200, MEASURED) });
    renderLanding();
    // Before the answer arrives (as in the pre-rendered HTML).
    for (const f of FIGURES) expect(figure(f.id)).toContain("—");
  });

  it("shows each figure measured by the database as the server writes it, with how it is computed and /avis beside the rating", async () => {
    resetPublicStatsStore();
    stubApi(null, { "GET /api/public/stats": () => json(200, MEASURED) });
    renderLanding();
    // Digits grouped the French way (U+202F), which the text matcher reads as a space.
    expect(await screen.findByText("+ de 1 230")).toBeInTheDocument();
    expect(figure("first_offer_hours")).toBe("17\u00a0h");
    expect(figure("saving")).toBe("16\u00a0% (160,00\u00a0€)");
    expect(figure("verified_dentists")).toBe("42");
    expect(figure("rating")).toBe("4,5/5");
    expect(screen.getByText(PUBLIC_FIGURE_METHODS.saving)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Avis vérifiés" })).toHaveAttribute("href", "/avis");
  });

  it("shows a dash for a figure measured on too few cases, or when the call fails", async () => {
    resetPublicStatsStore();
    stubApi(null, {
      "GET /api/public/stats": () =>
        json(200, {
          ...MEASURED,
          patients: 0,
          saving: null,
          rating: null,
          first_offer_hours: null,
          text: { ...MEASURED.text, patients: null, saving: null, rating: null, first_offer_hours: null },
        }),
    });
    const first = renderLanding();
    expect(await screen.findByText("42")).toBeInTheDocument();
    expect(figure("saving")).toContain("—");
    expect(figure("patients")).toContain("—");
    // The medians: fewer than 30 cases; the average: fewer than 30 reviews; the patients: fewer than 10.
    expect(PUBLIC_FIGURE_MIN_SAMPLE).toBe(30);
    expect(PATIENTS_FIGURE_MINIMUM).toBe(10);
    expect(
      screen.getAllByText("Pas encore assez de données pour ce chiffre (30 cas au moins)."),
    ).toHaveLength(2);
    expect(screen.getByText("Pas encore assez d'avis pour ce chiffre (30 au moins).")).toBeInTheDocument();
    expect(
      screen.getByText("Pas encore assez de patients pour ce chiffre (10 au moins)."),
    ).toBeInTheDocument();
    expect(screen.getByText(PUBLIC_FIGURE_METHODS.verified_dentists)).toBeInTheDocument();
    first.unmount();

    // No dentist verified yet: that, not a number of cases.
    resetPublicStatsStore();
    stubApi(null, {
      "GET /api/public/stats": () =>
        json(200, { ...MEASURED, verified_dentists: 0, text: { ...MEASURED.text, verified_dentists: null } }),
    });
    const second = renderLanding();
    expect(
      await screen.findByText("Aucun dentiste n'a encore été vérifié par l'équipe."),
    ).toBeInTheDocument();
    expect(figure("verified_dentists")).toContain("—");
    expect(screen.getByText("+ de 1 230")).toBeInTheDocument();
    expect(screen.queryByText(/Pas encore assez/)).not.toBeInTheDocument();
    second.unmount();

    resetPublicStatsStore();
    stubApi(null, {
      "GET /api/public/stats": () => json(429, { error: { code: "RATE_LIMITED", message: "x" } }),
    });
    renderLanding();
    await waitFor(() => expect(figure("rating")).toContain("—"));
  });

  it("keeps the written figures when the answer has no texts (an older server's, kept by a cache)", async () => {
    resetPublicStatsStore();
    const { text: _text, ...numbersOnly } = MEASURED;
    let answered: () => void = () => {};
    const answer = new Promise<void>((resolve) => {
      answered = resolve;
    });
    stubApi(null, {
      "GET /api/public/stats": () => {
        answered();
        return json(200, numbersOnly);
      },
    });
    renderLanding();
    await answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const f of FIGURES) expect(figure(f.id)).toContain("—");
    expect(screen.queryByText(/Pas encore assez de données/)).not.toBeInTheDocument();
  });

  it("says the testimonials are illustrative while they are", () => {
    expect(TESTIMONIALS_SECTION.illustrative).toBe(true);
    render(<TestimonialsCarousel testimonials={TESTIMONIALS} illustrative />);
    expect(screen.getAllByText(/\(exemple\)/)).toHaveLength(2);
  });
});

describe("what a dentist pays, said the same way everywhere", () => {
  it("names both plans and the free trial on « Avantages » and in the terms, and both plans in the FAQ", async () => {
    renderApp("/dentist/benefits");
    expect(
      await screen.findByText(
        new RegExp(
          `abonnement, mensuel ou annuel, après ${TRIAL_DAYS} jours d'essai gratuit dès votre vérification`,
        ),
      ),
    ).toBeInTheDocument();
    cleanup();
    renderApp("/terms");
    expect(
      await screen.findByText(
        new RegExp(`mensuel ou annuel, après un essai gratuit de ${TRIAL_DAYS} jours à compter`),
      ),
    ).toBeInTheDocument();
    const free = FAQ.find((entry) => entry.id === "gratuit");
    expect(free?.answer.flat().join(" ")).toMatch(/un abonnement, mensuel ou annuel,/);
  });

  it("shows the prices the server charges on « Avantages » and in the terms, never written in the page", async () => {
    // Prices other than the defaults (PRICE_MONTHLY_HT=99,50, PRICE_YEARLY_HT=990): 99,50 € + 20 %
    // (19,90 €) = 119,40 € TTC a month; 990,00 € + 198,00 € = 1 188,00 € TTC a year, 82,50 € HT a month.
    const config = json(200, {
      brand_name: "Sourio",
      contact_email: "contact@sourio.fr",
      plans: planPriceDtos({ monthly: 9950, yearly: 99000 }, "Sourio"),
    });
    stubApi(null, { "GET /api/config": () => config });
    renderApp("/dentist/benefits");
    const tarifs = within(
      (await screen.findByRole("heading", { level: 2, name: "Tarifs" })).closest("section") as HTMLElement,
    );
    const monthly = (await tarifs.findByRole("heading", { name: "Mensuel" })).closest("li") as HTMLElement;
    const yearly = tarifs.getByRole("heading", { name: "Annuel" }).closest("li") as HTMLElement;
    expect(monthly).toHaveTextContent(spaced("119,40 € TTC par mois"));
    expect(monthly).toHaveTextContent(spaced("99,50 € HT + 19,90 € de TVA (20 %)"));
    expect(monthly).not.toHaveTextContent("soit");
    expect(yearly).toHaveTextContent(spaced("1 188,00 € TTC par an"));
    expect(yearly).toHaveTextContent(
      spaced("990,00 € HT + 198,00 € de TVA (20 %), soit 82,50 € HT par mois"),
    );
    expect(
      tarifs.getByText(new RegExp(`${TRIAL_DAYS} jours d'essai gratuit dès votre vérification`)),
    ).toHaveTextContent(/pendant l'essai sans l'écourter, le premier paiement a lieu à sa fin\./);
    cleanup();
    renderApp("/terms");
    expect(
      await screen.findByText(
        spaced(
          "Tarifs en vigueur : Mensuel : 99,50 € HT par mois (119,40 € TTC) ; Annuel : 990,00 € HT par an (1 188,00 € TTC).",
        ),
      ),
    ).toBeInTheDocument();
  });

  it("says the prices are loading, then where to ask when they cannot be read", async () => {
    stubApi(null, {
      "GET /api/config": () =>
        json(503, { error: { code: "UNAVAILABLE", message: "Service indisponible." } }),
    });
    renderApp("/dentist/benefits");
    expect(await screen.findByText(/Les tarifs n'ont pas pu être chargés/)).toHaveTextContent(
      "contact@sourio.fr",
    );
    expect(screen.queryByText(/€/)).not.toBeInTheDocument();
    // The pre-rendered page (no answer yet): a line that says so, no amount.
    const html = renderToStaticMarkup(<PlanPrices />);
    expect(html).toContain("Chargement des tarifs");
    expect(html).not.toContain("€");
  });
});
