import { act, render, screen, waitFor } from "@testing-library/react";
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
      toast.info("Brouillon gardé");
      toast.info("Brouillon gardé");
    });
    expect(await screen.findByText("Brouillon gardé")).toBeInTheDocument();
    expect(screen.getAllByText("Brouillon gardé")).toHaveLength(1);
    expect(screen.getAllByText("Impossible d'envoyer le message")).toHaveLength(1);
    expect(screen.getByRole("region", { name: /Notifications/ })).toBeInTheDocument();
    expect(document.querySelector("[data-sonner-toaster]")?.getAttribute("data-y-position")).toBe("bottom");
    expect(document.querySelector("[data-sonner-toaster]")?.getAttribute("data-x-position")).toBe("right");
  });
});

describe("Toaster after a success", () => {
  it("takes away the errors still on screen, not the other toasts", async () => {
    render(<Toaster />);
    act(() => {
      toast.error("Veuillez remplir tous les champs obligatoires");
      toast.error("Le fichier est trop volumineux (max 10MB)", { id: "fichier" });
      toast.info("Reprise de votre brouillon");
    });
    expect(await screen.findByText("Veuillez remplir tous les champs obligatoires")).toBeInTheDocument();
    expect(screen.getByText("Le fichier est trop volumineux (max 10MB)")).toBeInTheDocument();
    act(() => {
      toast.success("Votre message a été envoyé avec succès !");
    });
    expect(await screen.findByText("Votre message a été envoyé avec succès !")).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByText("Veuillez remplir tous les champs obligatoires")).not.toBeInTheDocument(),
    );
    expect(screen.queryByText("Le fichier est trop volumineux (max 10MB)")).not.toBeInTheDocument();
    expect(screen.getByText("Reprise de votre brouillon")).toBeInTheDocument();
  });
});

describe("PageSkeleton", () => {
  it("announces the loading once and shows placeholders, not a bare 'Chargement...'", () => {
    render(<PageSkeleton />);
    expect(screen.getByRole("status")).toHaveTextContent("Chargement de la page…");
    expect(screen.queryByText("Chargement...")).not.toBeInTheDocument();
  });
});
