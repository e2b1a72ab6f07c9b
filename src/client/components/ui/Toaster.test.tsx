import { act, render, screen } from "@testing-library/react";
import { toast } from "sonner";
import { describe, expect, it } from "vitest";
import { PageSkeleton } from "./PageSkeleton";
import { Toaster } from "./Toaster";

describe("Toaster", () => {
  it("shows the same message once, however many times it is raised, and different ones apart", async () => {
    render(<Toaster />);
    act(() => {
      toast.error("Impossible d'envoyer le message");
      toast.error("Impossible d'envoyer le message");
      toast.error("Impossible d'envoyer le message", { description: "Réessayez." });
      toast.success("Message envoyé");
    });
    expect(await screen.findByText("Message envoyé")).toBeInTheDocument();
    expect(screen.getAllByText("Impossible d'envoyer le message")).toHaveLength(1);
    expect(screen.getByRole("region", { name: /Notifications/ })).toBeInTheDocument();
    expect(document.querySelector("[data-sonner-toaster]")?.getAttribute("data-y-position")).toBe("bottom");
    expect(document.querySelector("[data-sonner-toaster]")?.getAttribute("data-x-position")).toBe("right");
  });
});

describe("PageSkeleton", () => {
  it("announces the loading once and shows placeholders, not a bare 'Chargement...'", () => {
    render(<PageSkeleton />);
    expect(screen.getByRole("status")).toHaveTextContent("Chargement de la page…");
    expect(screen.queryByText("Chargement...")).not.toBeInTheDocument();
  });
});
