import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { formatLocalSlot, SLOT_TIMES, SlotPicker, slotsFieldError } from "./SlotPicker";

/** 23:30 UTC on Monday 7 December 2026: already Tuesday 8 December, 00:30, in Paris. */
const LATE_MONDAY_UTC = new Date("2026-12-07T23:30:00.000Z");
/** 14:10 in Paris (winter time, UTC+1) on Tuesday 8 December 2026. */
const TUESDAY_AFTERNOON = new Date("2026-12-08T13:10:00.000Z");

function Harness({
  now = LATE_MONDAY_UTC,
  initial = [],
  error,
  onChange,
}: {
  now?: Date;
  initial?: string[];
  error?: string;
  onChange?: (slots: string[]) => void;
}) {
  const [slots, setSlots] = useState(initial);
  return (
    <SlotPicker
      value={slots}
      onChange={(next) => {
        onChange?.(next);
        setSlots(next);
      }}
      now={now}
      error={error}
    />
  );
}

function setup(props: Parameters<typeof Harness>[0] = {}) {
  const user = userEvent.setup();
  const onChange = vi.fn();
  render(<Harness {...props} onChange={onChange} />);
  return { user, onChange };
}

const day = (name: string | RegExp) => screen.getByRole("button", { name });

async function addSlot(user: ReturnType<typeof userEvent.setup>, dayName: RegExp, time: string) {
  await user.click(day(dayName));
  await user.selectOptions(screen.getByLabelText("Heure"), time);
  await user.click(screen.getByRole("button", { name: "Ajouter ce créneau" }));
}

describe("SlotPicker", () => {
  it("montre un calendrier français dont les semaines commencent le lundi", () => {
    setup();
    const grid = screen.getByRole("grid", { name: "décembre 2026" });
    // The header row is hidden from screen readers (each day button says its weekday).
    const headers = within(grid).getAllByRole("columnheader", { hidden: true });
    expect(headers.map((h) => h.textContent)).toEqual([
      "lun.",
      "mar.",
      "mer.",
      "jeu.",
      "ven.",
      "sam.",
      "dim.",
    ]);
    expect(headers[0]).toHaveAttribute("aria-label", "lundi");
    // 1 December 2026 is a Tuesday: the first row starts with an empty Monday.
    const firstRow = within(grid).getAllByRole("row")[0] as HTMLElement;
    const cells = within(firstRow).getAllByRole("gridcell");
    expect(cells[0]).toBeEmptyDOMElement();
    expect(cells[1]).toHaveTextContent("1");
  });

  it("désactive les jours passés, selon le jour de Paris et non celui de l'ordinateur", () => {
    // The test machine runs in UTC (still Monday 7): in Paris it is already Tuesday 8.
    setup({ now: LATE_MONDAY_UTC });
    expect(day("lundi 7 décembre 2026")).toBeDisabled();
    expect(day("dimanche 6 décembre 2026")).toBeDisabled();
    expect(day("Aujourd'hui, mardi 8 décembre 2026")).toBeEnabled();
    expect(day("mercredi 9 décembre 2026")).toBeEnabled();
    // No going back before this month.
    expect(screen.getByRole("button", { name: "Aller au mois précédent" })).toHaveAttribute(
      "aria-disabled",
      "true",
    );
  });

  it("propose les heures de 08:00 à 19:30 par quart d'heure, et désactive celles déjà passées aujourd'hui", async () => {
    expect(SLOT_TIMES[0]).toBe("08:00");
    expect(SLOT_TIMES.at(-1)).toBe("19:30");
    expect(SLOT_TIMES).toHaveLength(47);
    expect(SLOT_TIMES).toContain("12:45");

    const { user } = setup({ now: TUESDAY_AFTERNOON });
    const select = screen.getByLabelText("Heure");
    const option = (time: string) => within(select).getByRole("option", { name: time });
    await user.click(day("Aujourd'hui, mardi 8 décembre 2026"));
    expect(option("08:00")).toBeDisabled();
    expect(option("14:00")).toBeDisabled();
    expect(option("14:15")).toBeEnabled();
    await user.click(day("mercredi 9 décembre 2026"));
    expect(option("08:00")).toBeEnabled();
  });

  it("ajoute des heures de Paris 'YYYY-MM-DDTHH:mm', triées, et les retire", async () => {
    const { user, onChange } = setup();
    await addSlot(user, /jeudi 10 décembre 2026/, "14:30");
    expect(onChange).toHaveBeenLastCalledWith(["2026-12-10T14:30"]);
    await addSlot(user, /Aujourd'hui, mardi 8 décembre 2026/, "08:00");
    // 08:00 in Paris is 07:00 UTC: the value stays Paris wall-clock time.
    expect(onChange).toHaveBeenLastCalledWith(["2026-12-08T08:00", "2026-12-10T14:30"]);

    const chips = screen.getByRole("list", { name: "Créneaux choisis" });
    expect(
      within(chips)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["mardi 8 décembre 2026 à 08:00", "jeudi 10 décembre 2026 à 14:30"]);
    expect(screen.getByText("2 créneaux choisis sur 3 au maximum.")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Retirer le créneau du jeudi 10 décembre à 14:30" }));
    expect(onChange).toHaveBeenLastCalledWith(["2026-12-08T08:00"]);
    expect(screen.queryByText("jeudi 10 décembre 2026 à 14:30")).not.toBeInTheDocument();
  });

  it("refuse un créneau sans heure, en double ou au-delà de trois", async () => {
    const { user, onChange } = setup();
    await user.click(screen.getByRole("button", { name: "Ajouter ce créneau" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Choisissez d'abord une date dans le calendrier.");
    await user.click(day(/jeudi 10 décembre 2026/));
    await user.click(screen.getByRole("button", { name: "Ajouter ce créneau" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Choisissez une heure.");
    expect(onChange).not.toHaveBeenCalled();

    await addSlot(user, /jeudi 10 décembre 2026/, "09:00");
    await addSlot(user, /jeudi 10 décembre 2026/, "09:00");
    expect(screen.getByRole("alert")).toHaveTextContent("Vous avez déjà choisi ce créneau.");
    await addSlot(user, /vendredi 11 décembre 2026/, "10:15");
    await addSlot(user, /samedi 12 décembre 2026/, "11:45");
    expect(onChange).toHaveBeenCalledTimes(3);
    expect(onChange).toHaveBeenLastCalledWith(["2026-12-10T09:00", "2026-12-11T10:15", "2026-12-12T11:45"]);

    await addSlot(user, /lundi 14 décembre 2026/, "16:00");
    expect(screen.getByRole("alert")).toHaveTextContent("Vous pouvez proposer trois créneaux au maximum.");
    expect(onChange).toHaveBeenCalledTimes(3);
    expect(
      within(screen.getByRole("list", { name: "Créneaux choisis" })).getAllByRole("listitem"),
    ).toHaveLength(3);
  });

  it("se manie au clavier", async () => {
    const { user } = setup();
    await user.click(day(/jeudi 10 décembre 2026/));
    expect(screen.getByText("jeudi 10 décembre 2026")).toBeInTheDocument();
    await user.keyboard("{ArrowRight}");
    expect(day(/vendredi 11 décembre 2026/)).toHaveFocus();
    await user.keyboard("{ArrowDown}{Enter}");
    expect(screen.getByText("vendredi 18 décembre 2026")).toBeInTheDocument();
  });

  it("montre l'erreur du serveur, reliée au groupe et au choix de l'heure", () => {
    setup({ error: "Ce créneau est déjà passé : choisissez une date à venir." });
    const group = screen.getByRole("group", { name: "Vos disponibilités" });
    expect(group).toHaveAccessibleDescription(/Ce créneau est déjà passé : choisissez une date à venir\./);
    expect(screen.getByLabelText("Heure")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText("Heure")).toHaveAccessibleDescription(/Ce créneau est déjà passé/);
  });

  it("met en phrases les erreurs de champ du serveur", () => {
    expect(slotsFieldError({})).toBeUndefined();
    expect(slotsFieldError({ "slots.0": "Ce créneau est invalide." }, ["2026-12-10T14:30"])).toBe(
      "jeudi 10 décembre 2026 à 14:30 : Ce créneau est invalide.",
    );
    expect(slotsFieldError({ "slots.1": "Déjà passé." }, [])).toBe("Déjà passé.");
    expect(slotsFieldError({ starts_at: "Hors des créneaux proposés." })).toBe("Hors des créneaux proposés.");
    expect(formatLocalSlot("2026-12-07T14:30", { year: false })).toBe("lundi 7 décembre à 14:30");
    expect(formatLocalSlot("2026-12-01T09:00")).toBe("mardi 1er décembre 2026 à 09:00");
    expect(formatLocalSlot("2027-01-01T09:00", { year: false })).toBe("vendredi 1er janvier à 09:00");
  });
});
