/** The signed-in shell's phone menu and its 'Besoin d'aide ?' entries, in each area. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { json, makeAdmin, makeProfile, renderApp, settled, stubApi } from "../../test/renderApp";

const HELP = "Besoin d'aide\u202f?";

const AREAS = [
  {
    area: "Espace patient",
    who: makeProfile(),
    path: "/patient/dashboard",
    first: "Accueil",
    help: "/patient/help" as string | null,
  },
  {
    area: "Espace dentiste",
    who: makeProfile({ id: "d0000000-0000-4000-8000-000000000001", role: "dentist" }),
    path: "/dentist/dashboard",
    first: "Accueil",
    help: "/dentist/help" as string | null,
  },
  { area: "Administration", who: makeAdmin(), path: "/admin/dashboard", first: "Administration", help: null },
];

function signIn(who: ReturnType<typeof makeProfile>) {
  stubApi(who, {
    "GET /api/patient/dashboard": () =>
      json(200, { counts: { active: 0, completed: 0, latest_at: null, support_unread: 0 }, recent: [] }),
  });
}

describe("the phone menu of each area", () => {
  it.each(AREAS)(
    "$area: opened from the keyboard, the focus is on its first link, $first",
    async ({ area, who, path, first }) => {
      const user = userEvent.setup();
      signIn(who);
      renderApp(path);
      const trigger = await screen.findByRole("button", { name: "Ouvrir le menu" });
      trigger.focus();
      await user.keyboard("{Enter}");
      const drawer = await screen.findByRole("dialog", { name: area });
      const link = within(drawer).getByRole("link", { name: first });
      await waitFor(() => expect(link).toHaveFocus());
      // Not its last entry: one more Enter would have signed the person out.
      expect(within(drawer).getByRole("button", { name: "Déconnexion" })).not.toHaveFocus();
    },
  );
});

describe("the phone menu's links", () => {
  const patient = makeProfile();

  it("leave the focus on the new page's main content, not on the menu's button", async () => {
    const user = userEvent.setup();
    signIn(patient);
    const { router } = renderApp("/patient/dashboard");
    const trigger = await screen.findByRole("button", { name: "Ouvrir le menu" });
    await user.click(trigger);
    const drawer = await screen.findByRole("dialog", { name: "Espace patient" });
    await user.click(within(drawer).getByRole("link", { name: "Mes demandes" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/patient/requests"));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    // After Radix's own return of the focus (a timer).
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByRole("main")).toHaveFocus();
    expect(trigger).not.toHaveFocus();
  });

  it("closed with Escape, the focus goes back to the menu's button", async () => {
    const user = userEvent.setup();
    signIn(patient);
    renderApp("/patient/dashboard");
    const trigger = await screen.findByRole("button", { name: "Ouvrir le menu" });
    await user.click(trigger);
    await screen.findByRole("dialog", { name: "Espace patient" });
    await user.keyboard("{Escape}");
    await waitFor(() => expect(trigger).toHaveFocus());
  });
});

describe("the phone menu's button", () => {
  const dentist = makeProfile({ id: "d0000000-0000-4000-8000-000000000001", role: "dentist" });

  /** The menu's button in the dentist's shell, once the three counts it sums have come in. */
  async function menuButtonWith(requests: number, unread: number, support = 0) {
    const fetchMock = stubApi(dentist, {
      "GET /api/dentist/todo-count": () => json(200, { requests, appointments: 0 }),
      "GET /api/conversations": () => json(200, { items: [], next_cursor: null, unread_total: unread }),
      "GET /api/support/unread": () => json(200, { unread: support }),
    });
    renderApp("/dentist/dashboard");
    const trigger = await screen.findByRole("button", { name: "Ouvrir le menu" });
    const asked = (path: string) => fetchMock.mock.calls.some(([url]) => String(url).includes(path));
    await waitFor(() =>
      expect(["/api/dentist/todo-count", "/api/conversations", "/api/support/unread"].every(asked)).toBe(
        true,
      ),
    );
    await settled();
    return trigger;
  }

  it("shows a dot, and says it, when requests or messages wait inside", async () => {
    const trigger = await menuButtonWith(3, 2);
    await waitFor(() => expect(trigger).toHaveAccessibleDescription("5 éléments en attente"));
    expect(within(trigger).getByTestId("menu-pending-dot")).toBeInTheDocument();
  });

  it("counts the team's unread answers too, shown beside 'Besoin d'aide ?' inside", async () => {
    const user = userEvent.setup();
    const trigger = await menuButtonWith(0, 0, 2);
    await waitFor(() => expect(trigger).toHaveAccessibleDescription("2 éléments en attente"));
    await user.click(trigger);
    const drawer = await screen.findByRole("dialog", { name: "Espace dentiste" });
    expect(
      within(drawer).getByRole("link", { name: /^Besoin d'aide\u202f\?, 2 réponses non lues$/ }),
    ).toHaveAttribute("href", "/dentist/help");
  });

  it("shows none when nothing waits", async () => {
    const trigger = await menuButtonWith(0, 0);
    expect(trigger).not.toHaveAccessibleDescription();
    expect(within(trigger).queryByTestId("menu-pending-dot")).not.toBeInTheDocument();
  });
});

describe("'Besoin d'aide ?'", () => {
  it.each(AREAS.filter((entry) => entry.help))(
    "$area: in the header, the account menu and the phone menu, to $help",
    async ({ area, who, path, help }) => {
      const user = userEvent.setup();
      signIn(who);
      renderApp(path);
      const banner = await screen.findByRole("banner");
      expect(await within(banner).findByRole("link", { name: HELP })).toHaveAttribute("href", help);

      await user.click(within(banner).getByRole("button", { name: /^Mon compte/ }));
      expect(await screen.findByRole("menuitem", { name: HELP })).toHaveAttribute("href", help);
      await user.keyboard("{Escape}");

      await user.click(within(banner).getByRole("button", { name: "Ouvrir le menu" }));
      const drawer = await screen.findByRole("dialog", { name: area });
      expect(within(drawer).getByRole("link", { name: HELP })).toHaveAttribute("href", help);
    },
  );

  it("an administrator has none (the admins are the support team; 'Support' is their inbox)", async () => {
    const user = userEvent.setup();
    signIn(makeAdmin());
    renderApp("/admin/dashboard");
    const banner = await screen.findByRole("banner");
    expect(await within(banner).findByRole("button", { name: /^Mon compte/ })).toBeInTheDocument();
    expect(within(banner).queryByRole("link", { name: HELP })).not.toBeInTheDocument();
    expect(within(banner).getAllByRole("link", { name: "Support" })[0]).toHaveAttribute(
      "href",
      "/admin/chat-messages",
    );

    await user.click(within(banner).getByRole("button", { name: /^Mon compte/ }));
    expect(await screen.findByRole("menuitem", { name: "Déconnexion" })).toBeInTheDocument();
    expect(screen.queryByRole("menuitem", { name: HELP })).not.toBeInTheDocument();
    await user.keyboard("{Escape}");

    await user.click(within(banner).getByRole("button", { name: "Ouvrir le menu" }));
    const drawer = await screen.findByRole("dialog", { name: "Administration" });
    expect(within(drawer).getByRole("link", { name: "Support" })).toBeInTheDocument();
    expect(within(drawer).queryByRole("link", { name: HELP })).not.toBeInTheDocument();
  });
});
