import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { describe, expect, it, vi } from "vitest";
import { ActPicker, type PickedAct } from "./ActPicker";
import { QuoteLinesEditor, type QuoteLinesEditorProps } from "./QuoteLinesEditor";
import {
  type DraftLine,
  emptyLine,
  fromLineDtos,
  lineErrorsFromFields,
  lineIssuesOf,
  linesRule,
  toLineInputs,
  validateLines,
} from "./quoteLines";
import { ToothChart } from "./ToothChart";

/** A day of the 2026 tariff (HBLD634 capped at 515 €, HBLD038 at 298,70 €, HBLD073 in 100 % Santé). */
const DAY = "2026-11-25";

const line = (patch: Partial<DraftLine>): DraftLine => ({ ...emptyLine(), ...patch });
const crown = (fee: string) =>
  line({
    code: "HBLD634",
    act: "Couronne céramo-métallique (incisive, canine, 1re prémolaire)",
    tooth: 21,
    fee,
  });
const nbsp = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

function EditorHarness({
  initial,
  onLines,
  ...props
}: Partial<QuoteLinesEditorProps> & { initial: DraftLine[]; onLines?: (lines: DraftLine[]) => void }) {
  const [lines, setLines] = useState(initial);
  return (
    <QuoteLinesEditor
      mode="offer"
      day={DAY}
      {...props}
      value={lines}
      onChange={(next) => {
        onLines?.(next);
        setLines(next);
      }}
    />
  );
}

function ChartHarness({ onPick }: { onPick: (tooth: number | null) => void }) {
  const [tooth, setTooth] = useState<number | null>(null);
  return (
    <ToothChart
      value={tooth}
      onChange={(next) => {
        onPick(next);
        setTooth(next);
      }}
    />
  );
}

function PickerHarness({ tooth = null, onPick }: { tooth?: number | null; onPick: (v: PickedAct) => void }) {
  const [value, setValue] = useState<PickedAct>({ code: null, act: "" });
  return (
    <ActPicker
      aria-label="Acte"
      tooth={tooth}
      day="2026-11-28"
      value={value}
      onChange={(next) => {
        onPick(next);
        setValue(next);
      }}
    />
  );
}

function RhfForm({ onSubmit }: { onSubmit: (result: ReturnType<typeof toLineInputs>) => void }) {
  const form = useForm<{ lines: DraftLine[] }>({ defaultValues: { lines: [crown("600")] } });
  return (
    <form onSubmit={form.handleSubmit((values) => onSubmit(toLineInputs(values.lines)))}>
      <Controller
        control={form.control}
        name="lines"
        rules={{ validate: linesRule("offer", DAY) }}
        render={({ field, fieldState, formState }) => (
          <>
            <QuoteLinesEditor
              mode="offer"
              day={DAY}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
              showIncomplete={formState.isSubmitted}
            />
            {fieldState.error ? <p>{fieldState.error.message}</p> : null}
          </>
        )}
      />
      <button type="submit">Envoyer</button>
    </form>
  );
}

describe("ToothChart", () => {
  it("dessine les 32 dents dans l'ordre des dentistes, une seule tabulation", () => {
    render(<ChartHarness onPick={() => {}} />);
    const group = screen.getByRole("group", { name: "Schéma dentaire" });
    const teeth = within(group)
      .getAllByRole("button")
      .filter((b) => b.textContent !== "Sans dent (arcade entière)");
    expect(teeth.map((b) => b.textContent)).toEqual(
      [18, 17, 16, 15, 14, 13, 12, 11, 21, 22, 23, 24, 25, 26, 27, 28]
        .concat([48, 47, 46, 45, 44, 43, 42, 41, 31, 32, 33, 34, 35, 36, 37, 38])
        .map(String),
    );
    expect(teeth.filter((b) => b.tabIndex === 0).map((b) => b.textContent)).toEqual(["11"]);
    expect(screen.getByRole("button", { name: "Dent 36 (molaire)" })).toHaveAttribute(
      "aria-pressed",
      "false",
    );
  });

  it("choisit la dent 36 au clavier", async () => {
    const user = userEvent.setup();
    const onPick = vi.fn();
    render(<ChartHarness onPick={onPick} />);
    await user.tab();
    expect(screen.getByRole("button", { name: "Dent 11 (incisive)" })).toHaveFocus();
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("button", { name: "Dent 41 (incisive)" })).toHaveFocus();
    await user.keyboard("{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}");
    const tooth36 = screen.getByRole("button", { name: "Dent 36 (molaire)" });
    expect(tooth36).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(onPick).toHaveBeenLastCalledWith(36);
    expect(tooth36).toHaveAttribute("aria-pressed", "true");
    // Typing the number jumps to the tooth; Space chooses it.
    await user.keyboard("16 ");
    expect(onPick).toHaveBeenLastCalledWith(16);
    await user.click(screen.getByRole("button", { name: "Sans dent (arcade entière)" }));
    expect(onPick).toHaveBeenLastCalledWith(null);
  });
});

describe("ActPicker", () => {
  /** The picker (with this tooth chosen), a user, its combobox and a spy on what it picks. */
  function renderPicker(tooth: number | null = null) {
    const user = userEvent.setup();
    const onPick = vi.fn();
    render(<PickerHarness tooth={tooth} onPick={onPick} />);
    return { user, onPick, input: screen.getByRole("combobox", { name: "Acte" }) };
  }

  it("trouve les couronnes céramiques sur molaire, pas celle des dents de devant", async () => {
    const { user, input } = renderPicker();
    await user.type(input, "couronne céramique molaire");
    const options = within(screen.getByRole("listbox")).getAllByRole("option");
    const text = options.map((o) => o.textContent ?? "");
    expect(text.some((t) => t.includes("HBLD734"))).toBe(true);
    expect(text.some((t) => t.includes("HBLD073"))).toBe(true);
    expect(text.some((t) => t.includes("HBLD634"))).toBe(false);
    expect(text.at(-1)).toBe("Acte hors liste\u202f: «\u202fcouronne céramique molaire\u202f»");
    expect(nbsp(text[0] ?? "")).toContain("BR 120,00 €");
    expect(text[0]).toContain("Tarifs libres");
  });

  it("se manie au clavier : flèches, Entrée, Échap", async () => {
    const { user, onPick, input } = renderPicker();
    await user.type(input, "hbld634");
    expect(input).toHaveAttribute("aria-expanded", "true");
    await user.keyboard("{ArrowDown}");
    const option = screen.getByRole("option", { name: /HBLD634/ });
    expect(option).toHaveAttribute("aria-selected", "true");
    expect(input).toHaveAttribute("aria-activedescendant", option.id);
    await user.keyboard("{Enter}");
    expect(onPick).toHaveBeenLastCalledWith({
      code: "HBLD634",
      act: "Couronne céramo-métallique (incisive, canine, 1re prémolaire)",
    });
    expect(input).toHaveAttribute("aria-expanded", "false");
    await user.clear(input);
    await user.type(input, "couronne");
    await user.keyboard("{Escape}");
    expect(input).toHaveAttribute("aria-expanded", "false");
  });

  it("garde un texte libre comme acte hors liste", async () => {
    const { user, onPick, input } = renderPicker();
    await user.type(input, "Gouttière de bruxisme");
    await user.click(
      screen.getByRole("option", { name: "Acte hors liste\u202f: «\u202fGouttière de bruxisme\u202f»" }),
    );
    expect(onPick).toHaveBeenLastCalledWith({ code: null, act: "Gouttière de bruxisme" });
  });

  it("garde le code quand on précise le libellé de l'acte choisi", async () => {
    const { user, onPick, input } = renderPicker();
    await user.type(input, "HBLD038");
    await user.click(screen.getByRole("option", { name: /HBLD038/ }));
    await user.type(input, ", molaire");
    await user.tab();
    expect(onPick).toHaveBeenLastCalledWith({
      code: "HBLD038",
      act: "Couronne métallique en alliage non précieux, molaire",
    });
    await user.clear(input);
    await user.type(input, "Couronne provisoire");
    await user.tab();
    expect(onPick).toHaveBeenLastCalledWith({ code: null, act: "Couronne provisoire" });
  });

  it("reconnaît un acte de la liste dont le libellé est tapé en entier, même sans majuscules ni accents", async () => {
    const { user, onPick, input } = renderPicker();
    await user.type(input, "couronne ceramo-metallique (molaire)");
    const options = within(screen.getByRole("listbox")).getAllByRole("option");
    expect(options.map((o) => o.textContent ?? "").some((t) => t.startsWith("Acte hors liste"))).toBe(false);
    await user.tab();
    expect(onPick).toHaveBeenLastCalledWith({ code: "HBLD734", act: "Couronne céramo-métallique (molaire)" });
  });

  it("ne propose avec une dent que les actes qui lui conviennent", async () => {
    const { user, input } = renderPicker(36);
    await user.type(input, "couronne céramo");
    const text = screen.getAllByRole("option").map((o) => o.textContent ?? "");
    expect(text.some((t) => t.includes("HBLD734"))).toBe(true);
    expect(text.some((t) => t.includes("HBLD634"))).toBe(false);
  });
});

describe("QuoteLinesEditor", () => {
  it("« Ajouter un acte » puis la dent : l'acte encore vide n'est pas une erreur avant l'envoi", async () => {
    const user = userEvent.setup();
    render(<EditorHarness initial={[]} />);
    await user.click(screen.getByRole("button", { name: "Ajouter un acte" }));
    const row = screen.getByRole("group", { name: "Acte 1" });
    const act = within(row).getByRole("combobox", { name: /Acte/ });
    expect(act).toHaveFocus();
    await user.click(within(row).getByRole("button", { name: "Dent Sans dent" }));
    expect(act).not.toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByText("Veuillez décrire l'acte.")).toBeNull();
    // Something typed, then left: its problem is said at once.
    await user.type(within(row).getByRole("textbox", { name: /Honoraires/ }), "abc");
    await user.tab();
    expect(within(row).getByRole("textbox", { name: /Honoraires/ })).toHaveAttribute("aria-invalid", "true");
  });

  it("compose une ligne : dent au schéma, acte, honoraires, remboursement et total", async () => {
    const user = userEvent.setup();
    const onLines = vi.fn();
    render(<EditorHarness initial={[emptyLine()]} onLines={onLines} />);
    const row = screen.getByRole("group", { name: "Acte 1" });
    await user.click(within(row).getByRole("button", { name: "Dent Sans dent" }));
    await user.click(within(row).getByRole("button", { name: "Dent 36 (molaire)" }));
    expect(within(row).getByRole("button", { name: "Dent 36 · molaire" })).toHaveFocus();
    await user.type(within(row).getByRole("combobox", { name: /Acte/ }), "HBLD073");
    await user.click(screen.getByRole("option", { name: /HBLD073/ }));
    await user.type(within(row).getByRole("textbox", { name: /Honoraires/ }), "400");
    const figures = nbsp(
      within(row).getByRole("list", { name: "Acte 1\u202f: remboursement" }).textContent ?? "",
    );
    expect(figures).toContain("100 % Santé");
    expect(figures).toContain("BR 120,00 €");
    expect(figures).toContain("Assurance Maladie 60 % : 72,00 €");
    expect(figures).toContain("Plafond 100 % Santé : 453,20 €");
    expect(onLines).toHaveBeenLastCalledWith([
      expect.objectContaining({ code: "HBLD073", tooth: 36, fee: "400" }),
    ]);
    await user.click(screen.getByRole("button", { name: "Ajouter un acte" }));
    expect(screen.getAllByRole("combobox")[1]).toHaveFocus();
    await user.type(screen.getAllByRole("textbox", { name: /Honoraires/ })[1] as HTMLElement, "150,50");
    expect(nbsp(screen.getByText("Total des actes").nextElementSibling?.textContent ?? "")).toBe("550,50 €");
  });

  it("une ligne libre garde son texte et peut avoir une base de remboursement (devis du patient)", async () => {
    const user = userEvent.setup();
    const onLines = vi.fn();
    render(<EditorHarness mode="patient" initial={[emptyLine()]} onLines={onLines} />);
    await user.type(screen.getByRole("combobox", { name: /Acte/ }), "Gouttière");
    await user.tab();
    await user.type(screen.getByRole("textbox", { name: /Honoraires/ }), "200");
    await user.type(screen.getByRole("textbox", { name: /Base de remboursement/ }), "0");
    const lines = onLines.mock.lastCall?.[0] as DraftLine[];
    expect(lines[0]).toMatchObject({ code: null, act: "Gouttière", fee: "200", br: "0" });
    expect(toLineInputs(lines)).toEqual({
      ok: true,
      lines: [{ code: null, act: "Gouttière", tooth: null, fee_cents: 200_00, br_cents: 0 }],
    });
    expect(screen.getByText("Tarifs libres")).toBeInTheDocument();
  });

  it("sur une proposition, une ligne libre n'a pas de base de remboursement à saisir : non remboursée", async () => {
    const user = userEvent.setup();
    render(<EditorHarness mode="offer" initial={[emptyLine()]} />);
    await user.type(screen.getByRole("combobox", { name: /Acte/ }), "Bridge céramique 100 % Santé");
    await user.tab();
    await user.type(screen.getByRole("textbox", { name: /Honoraires/ }), "3000");
    expect(screen.queryByRole("textbox", { name: /Base de remboursement/ })).toBeNull();
    const refund = screen.getByRole("list", { name: /^Acte 1\s:\sremboursement$/ });
    expect(refund).toHaveTextContent("BR non remboursé");
    expect(refund).toHaveTextContent(/Assurance Maladie 60 % : 0,00\s€/);
  });

  it("sur une proposition, un acte hors table reprend la BR que le devis du patient indique pour lui (ADR 038)", () => {
    // Her devis: HBLD036 on 36 with a BR of 120 € printed on it; the offer: the same act at 550 €, as
    // « Reprendre les actes du devis » gives it (the code outside the table in the free line's text).
    const devis = [
      {
        code: null,
        act: "HBLD036 · Acte du devis",
        tooth: 36,
        fee_cents: 650_00,
        basket: "libre" as const,
        br_cents: 120_00,
        ceiling_cents: null,
      },
    ];
    const offered = fromLineDtos(devis).map((draft) => ({ ...draft, br: "", fee: "550" }))[0] as DraftLine;
    expect(offered).toMatchObject({ code: null, act: "HBLD036 · Acte du devis" });
    const { unmount } = render(<EditorHarness mode="offer" initial={[offered]} devis={devis} />);
    const refund = screen.getByRole("list", { name: /^Acte 1\s:\sremboursement$/ });
    expect(refund).toHaveTextContent(/BR 120,00\s€ \(selon le devis du patient\)/);
    // 60 % of 120 € = 72 €, as on her devis (was 0 €: « BR non remboursé »).
    expect(refund).toHaveTextContent(/Assurance Maladie 60 % : 72,00\s€/);
    unmount();
    // Another code than her devis's: no base.
    render(
      <EditorHarness mode="offer" initial={[{ ...offered, act: "HBLD037 · Acte du devis" }]} devis={devis} />,
    );
    expect(screen.getByRole("list", { name: /^Acte 1\s:\sremboursement$/ })).toHaveTextContent(
      "BR non remboursé",
    );
  });

  it("au-dessus du plafond : une remarque sur le devis du patient", () => {
    render(<EditorHarness mode="patient" initial={[crown("600")]} />);
    expect(nbsp(screen.getByText(/au-dessus du plafond/).textContent ?? "")).toContain(
      "au-dessus du plafond 100 % Santé (515,00 €)",
    );
    expect(screen.getByRole("textbox", { name: /Honoraires/ })).not.toHaveAttribute("aria-invalid");
  });

  it("au-dessus du plafond : une erreur sur une proposition", () => {
    render(<EditorHarness mode="offer" initial={[crown("600")]} />);
    const fee = screen.getByRole("textbox", { name: /Honoraires/ });
    expect(fee).toHaveAttribute("aria-invalid", "true");
    expect(fee).toHaveAccessibleDescription(
      /^Au-dessus du plafond 100\s% Santé \(515,00\s€\)\s: les honoraires de cet acte ne peuvent pas le dépasser\.$/,
    );
    expect(screen.queryByText(/^au-dessus du plafond/)).toBeNull();
  });

  it("propose l'alternative 100 % Santé d'un acte à reste à charge, et l'ajoute", async () => {
    const user = userEvent.setup();
    const onLines = vi.fn();
    render(
      <EditorHarness
        initial={[
          line({ code: "HBLD734", act: "Couronne céramo-métallique (molaire)", tooth: 36, fee: "700" }),
        ]}
        onLines={onLines}
      />,
    );
    expect(nbsp(screen.getByText(/Alternative 100 % Santé/).textContent ?? "")).toBe(
      "Alternative 100 % Santé pour la dent 36 : Couronne céramique monolithique zircone (molaire) (HBLD073), plafond 453,20 €",
    );
    await user.click(
      screen.getByRole("button", { name: /^Ajouter cet acte \(HBLD\d{3}\) en plus de l'acte 1$/ }),
    );
    expect(onLines.mock.lastCall?.[0]).toEqual([
      expect.objectContaining({ code: "HBLD734", tooth: 36 }),
      expect.objectContaining({
        code: "HBLD073",
        act: "Couronne céramique monolithique zircone (molaire)",
        tooth: 36,
        fee: "",
      }),
    ]);
    expect(screen.queryByText(/Alternative 100 % Santé/)).not.toBeInTheDocument();
  });

  it("pas d'alternative sur le devis du patient", () => {
    render(
      <EditorHarness
        mode="patient"
        initial={[
          line({ code: "HBLD734", act: "Couronne céramo-métallique (molaire)", tooth: 36, fee: "700" }),
        ]}
      />,
    );
    expect(screen.queryByText(/Alternative 100 % Santé/)).not.toBeInTheDocument();
  });

  it("montre l'erreur du serveur sur sa ligne, jusqu'à ce qu'on la corrige", async () => {
    const user = userEvent.setup();
    const errors = lineErrorsFromFields({ "lines.1.fee_cents": "Trop cher selon le serveur.", comment: "x" });
    expect(errors).toEqual({ "1.fee_cents": "Trop cher selon le serveur." });
    render(<EditorHarness initial={[crown("300"), crown("310")]} errors={errors} />);
    const second = screen.getByRole("group", { name: "Acte 2" });
    expect(within(second).getByText("Trop cher selon le serveur.")).toBeInTheDocument();
    expect(within(screen.getByRole("group", { name: "Acte 1" })).queryByText(/serveur/)).toBeNull();
    await user.type(within(second).getByRole("textbox", { name: /Honoraires/ }), "0");
    expect(screen.queryByText("Trop cher selon le serveur.")).toBeNull();
  });

  it("montre les champs manquants après une tentative d'envoi", () => {
    render(<EditorHarness initial={[emptyLine()]} showIncomplete />);
    expect(screen.getByText("Veuillez décrire l'acte.")).toBeInTheDocument();
    expect(screen.getByText("Les honoraires doivent être un montant positif en euros.")).toBeInTheDocument();
  });

  it("fonctionne dans react-hook-form avec Controller", async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<RhfForm onSubmit={onSubmit} />);
    await user.click(screen.getByRole("button", { name: "Envoyer" }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(nbsp(screen.getByText(/^Acte 1 : Au-dessus/).textContent ?? "")).toContain("515,00 €");
    expect(screen.getByRole("textbox", { name: /Honoraires/ })).toHaveFocus();
    await user.clear(screen.getByRole("textbox", { name: /Honoraires/ }));
    await user.type(screen.getByRole("textbox", { name: /Honoraires/ }), "500");
    await user.click(screen.getByRole("button", { name: "Envoyer" }));
    expect(onSubmit).toHaveBeenCalledWith({
      ok: true,
      lines: [
        {
          code: "HBLD634",
          act: "Couronne céramo-métallique (incisive, canine, 1re prémolaire)",
          tooth: 21,
          fee_cents: 500_00,
          br_cents: null,
        },
      ],
    });
  });
});

describe("quoteLines helpers", () => {
  it("refuse ce que le serveur refuse", () => {
    const drafts = [
      line({ code: "HBLD634", act: "Couronne", tooth: 36, fee: "300" }),
      line({ code: "HBLD031", act: "Prothèse", tooth: 11, fee: "900" }),
      line({ code: "HBLD038", act: "Couronne métallique", tooth: null, fee: "200" }),
    ];
    expect(lineIssuesOf(drafts, "offer", DAY)).toEqual({
      "0.tooth": "Cet acte ne s'applique pas à la dent 36.",
      "1.tooth": "Cet acte porte sur une arcade entière\u202f: ne choisissez pas de dent.",
      "2.tooth": "Choisissez la dent concernée par cet acte.",
    });
    expect(validateLines([line({ act: "", fee: "abc" })], "offer", DAY)).toEqual({
      ok: false,
      errors: {
        "0.act": "Veuillez décrire l'acte.",
        "0.fee_cents": "Les honoraires doivent être un montant positif en euros.",
      },
    });
  });

  it("reprend les lignes d'un devis", () => {
    const drafts = fromLineDtos([
      {
        code: "HBLD634",
        act: "Couronne céramo-métallique",
        tooth: 21,
        fee_cents: 1_234_50,
        basket: "100_sante",
        br_cents: 120_00,
        ceiling_cents: 515_00,
      },
      {
        code: null,
        act: "Détartrage",
        tooth: null,
        fee_cents: 50_00,
        basket: "libre",
        br_cents: 28_92,
        ceiling_cents: null,
      },
    ]);
    expect(drafts.map(({ id: _id, ...rest }) => rest)).toEqual([
      { code: "HBLD634", act: "Couronne céramo-métallique", tooth: 21, fee: "1 234,50", br: "" },
      { code: null, act: "Détartrage", tooth: null, fee: "50,00", br: "28,92" },
    ]);
    expect(toLineInputs(drafts)).toMatchObject({
      ok: true,
      lines: [{ fee_cents: 1_234_50 }, { br_cents: 28_92 }],
    });
  });
});
