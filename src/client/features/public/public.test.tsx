import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { MAX_FILE_SIZE } from "../../../shared/domain/limits";
import { CONTACT_MESSAGES } from "../../../shared/schemas/contact";
import { FIGURES, TESTIMONIALS_SECTION } from "../../content/landing";
import { json, stubApi } from "../../test/renderApp";
import { ContactForm } from "./ContactForm";
import { FAQ_ITEMS, FaqAccordion } from "./faqItems";
import { LandingPage } from "./LandingPage";
import { resetPublicStatsStore } from "./publicStats";
import { TESTIMONIALS, TestimonialsCarousel } from "./Testimonials";

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

  it("has the four testimonials of the spec: three patients rated 5, one dentist rated 4", () => {
    expect(TESTIMONIALS.map((t) => [t.role === "Dentiste" ? "dentist" : "patient", t.rating])).toEqual([
      ["patient", 5],
      ["patient", 5],
      ["patient", 5],
      ["dentist", 4],
    ]);
  });
});

describe("FAQ accordion", () => {
  it("opens one item at a time and closes the open one when clicked again", async () => {
    const user = userEvent.setup();
    render(
      <MemoryRouter>
        <FaqAccordion />
      </MemoryRouter>,
    );
    const [first, second] = FAQ_ITEMS;
    const firstButton = screen.getByRole("button", { name: first?.question });
    const secondButton = screen.getByRole("button", { name: second?.question });
    expect(screen.getAllByRole("button")).toHaveLength(6);
    expect(firstButton).toHaveAttribute("aria-expanded", "false");

    await user.click(firstButton);
    expect(firstButton).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByRole("region", { name: first?.question })).toBeVisible();

    await user.click(secondButton);
    expect(secondButton).toHaveAttribute("aria-expanded", "true");
    expect(firstButton).toHaveAttribute("aria-expanded", "false");

    await user.click(secondButton);
    expect(secondButton).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("region")).not.toBeInTheDocument();
  });

  it("is usable with the keyboard (Enter opens, arrows move between questions)", async () => {
    const user = userEvent.setup();
    render(
      <MemoryRouter>
        <FaqAccordion />
      </MemoryRouter>,
    );
    const buttons = screen.getAllByRole("button");
    buttons[0]?.focus();
    await user.keyboard("{Enter}");
    expect(buttons[0]).toHaveAttribute("aria-expanded", "true");
    await user.keyboard("{ArrowDown}");
    expect(buttons[1]).toHaveFocus();
    await user.keyboard(" ");
    expect(buttons[1]).toHaveAttribute("aria-expanded", "true");
    expect(buttons[0]).toHaveAttribute("aria-expanded", "false");
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

    const small = new File(["%PDF-1.4"], "devis.pdf", { type: "application/pdf" });
    await user.upload(input, small);
    await waitFor(() => expect(screen.queryByText(CONTACT_MESSAGES.fileTooLarge)).not.toBeInTheDocument());
    expect(screen.getByText("devis.pdf")).toBeInTheDocument();
  });
});

describe("landing figures (content + GET /api/public/stats)", () => {
  const written = FIGURES.find((figure) => figure.id === "patients")?.value ?? "";
  const renderLanding = () =>
    render(
      <MemoryRouter>
        <LandingPage />
      </MemoryRouter>,
    );

  it("replaces the written 'patients accompagnés' figure by the database's count once loaded", async () => {
    resetPublicStatsStore();
    stubApi(null, { "GET /api/public/stats": () => json(200, { patients: 1230 }) });
    renderLanding();
    // Digits grouped the French way (U+202F), which the text matcher reads as a space.
    expect(await screen.findByText("+ de 1 230")).toBeInTheDocument();
    expect(screen.queryByText(written)).not.toBeInTheDocument();
    expect(screen.getByText("patients accompagnés")).toBeInTheDocument();
  });

  it("keeps the written figure when the count is too small or the call fails", async () => {
    resetPublicStatsStore();
    const small = stubApi(null, { "GET /api/public/stats": () => json(200, { patients: 0 }) });
    const first = renderLanding();
    await waitFor(() =>
      expect(small.mock.calls.some(([input]) => String(input).includes("/api/public/stats"))).toBe(true),
    );
    expect(screen.getByText(written)).toBeInTheDocument();
    first.unmount();

    resetPublicStatsStore();
    stubApi(null, {
      "GET /api/public/stats": () => json(429, { error: { code: "RATE_LIMITED", message: "x" } }),
    });
    renderLanding();
    expect(await screen.findByText(written)).toBeInTheDocument();
  });

  it("says the testimonials are illustrative while they are", () => {
    expect(TESTIMONIALS_SECTION.illustrative).toBe(true);
    render(<TestimonialsCarousel testimonials={TESTIMONIALS} illustrative />);
    expect(screen.getAllByText(/\(exemple\)/)).toHaveLength(2);
  });
});
