import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DataTable } from "./DataTable";

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
