import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { DataTable, ListPagination } from "./DataTable";

describe("DataTable", () => {
  it("makes its sideways-scrolling table a named region the keyboard reaches (axe: scrollable-region-focusable)", () => {
    render(
      <DataTable
        caption="Vos factures"
        columns={[{ header: "Numéro", cell: (row: { id: string }) => row.id }]}
        rows={[{ id: "F-2026-0001" }]}
        rowKey={(row) => row.id}
      />,
    );
    const region = screen.getByRole("region", { name: "Vos factures" });
    expect(region).toHaveAttribute("tabindex", "0");
    expect(region.querySelector("table")).not.toBeNull();
  });
});

/** Two pages: « Suivant » is disabled on the second, « Précédent » on the first. */
function TwoPages() {
  const [page, setPage] = useState(1);
  return <ListPagination page={page} hasMore={page < 2} onPageChange={setPage} />;
}

describe("Pagination from the keyboard", () => {
  it("moves the focus to the other button when the pressed one is disabled on the first or last page", async () => {
    const user = userEvent.setup();
    render(<TwoPages />);
    screen.getByRole("button", { name: "Suivant" }).focus();
    await user.keyboard("{Enter}");
    expect(screen.getByText("Page 2")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Suivant" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Précédent" })).toHaveFocus();

    await user.keyboard("{Enter}");
    expect(screen.getByText("Page 1")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Suivant" })).toHaveFocus();
  });
});
