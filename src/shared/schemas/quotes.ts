import { z } from "zod";
import { actByCode, actFitsTooth, BASKET_LABELS, termsOn } from "../domain/acts";
import { isFdiTooth, OFFER_LIMITS } from "../domain/offers";
import { BASKETS, type Basket, estimateQuote, type MutuelleCover } from "../domain/out-of-pocket";
import { formatEuros } from "../format/money";
import { READING_MESSAGES, readingChoiceSchema } from "./reading";

/**
 * Structured quotes (issue 15): the lines of a patient's original devis and of a dentist's offer — a
 * tooth (FDI), an act (CCAM code from the reference table, or a free line), the fee — and the patient's
 * mutuelle. Basket, BR and ceiling are never taken from the browser for an act of the table: the server
 * fills them in from the table (`resolveLine`), and refuses what the form refuses (`quoteLineIssues`).
 */
export const QUOTE_MESSAGES = {
  codeInvalid: "Code d'acte invalide (4 lettres et 3 chiffres, ex. HBLD634).",
  actRequired: "Veuillez décrire l'acte.",
  actTooLong: "L'intitulé de l'acte ne peut pas dépasser 120 caractères.",
  toothInvalid: "Numéro de dent invalide (notation FDI : 11 à 18, 21 à 28, 31 à 38 ou 41 à 48).",
  toothRequired: "Choisissez la dent concernée par cet acte.",
  toothForArch: "Cet acte porte sur une arcade entière : ne choisissez pas de dent.",
  toothNotFit: (tooth: number) => `Cet acte ne s'applique pas à la dent ${tooth}.`,
  feeInvalid: "Les honoraires doivent être un montant positif en euros.",
  /** A form's "0": an amount, but not fees an act can have. */
  feeZero: "Les honoraires doivent être supérieurs à 0 €.",
  feeDecimals: "Les honoraires ont deux décimales au plus (ex. 650,50).",
  feeTooHigh: "Les honoraires ne peuvent pas dépasser 100 000 €.",
  brInvalid: "La base de remboursement doit être un montant positif ou nul en euros.",
  tooManyLines: "20 actes au maximum.",
  linesInvalid: "Les lignes du devis sont illisibles.",
  aboveCeiling: (basket: Basket, ceilingCents: number) =>
    `Au-dessus du plafond ${BASKET_LABELS[basket]} (${formatEuros(ceilingCents)}) : les honoraires de cet acte ne peuvent pas le dépasser.`,
  aboveCeilingNotice: (basket: Basket, ceilingCents: number) =>
    `au-dessus du plafond ${BASKET_LABELS[basket]} (${formatEuros(ceilingCents)})`,
  saved: "Votre devis a été enregistré",
  cleared: "Les lignes de votre devis ont été effacées",
  notEditable: "Cette demande est terminée ou annulée : son devis ne peut plus être modifié.",
  dateInvalid: "Date du devis invalide : indiquez le jour, le mois et l'année.",
  dateFuture: "La date du devis ne peut pas être dans le futur.",
  dateTooOld: "Un devis de plus de cinq ans n'est plus valable : vérifiez sa date.",
} as const;

/** The date printed on a devis, 'YYYY-MM-DD' (a real calendar day); checked against today by `quoteDateIssue`. */
export const quoteDateSchema = z
  .string({ error: QUOTE_MESSAGES.dateInvalid })
  .regex(/^\d{4}-\d{2}-\d{2}$/, QUOTE_MESSAGES.dateInvalid)
  .refine((v) => {
    const date = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === v;
  }, QUOTE_MESSAGES.dateInvalid);

/** What is wrong with a devis's date on `today` (Paris day): in the future, or over five years old. */
export function quoteDateIssue(day: string, today: string): string | null {
  if (day > today) return QUOTE_MESSAGES.dateFuture;
  const limit = `${Number(today.slice(0, 4)) - 5}${today.slice(4)}`;
  if (day < limit) return QUOTE_MESSAGES.dateTooOld;
  return null;
}

export const COVER_MESSAGES = {
  percentInvalid: "Indiquez un pourcentage de la base de remboursement entre 100 % et 500 %.",
  amountInvalid: "Indiquez un montant positif en euros, ou laissez vide.",
  saved: "Votre mutuelle a été enregistrée",
  removed: "Votre mutuelle a été retirée : les estimations ne comptent plus que l'Assurance Maladie",
} as const;

const CODE = /^[A-Za-z]{4}\d{3}$/;

/** One line as typed: the basket, BR and ceiling of a known code come from the table, not from here. */
export const quoteLineInputSchema = z.object({
  code: z
    .string({ error: QUOTE_MESSAGES.codeInvalid })
    .trim()
    .transform((v) => v.toUpperCase())
    .refine((v) => v === "" || CODE.test(v), QUOTE_MESSAGES.codeInvalid)
    .transform((v) => v || null)
    .nullable()
    .default(null),
  act: z
    .string({ error: QUOTE_MESSAGES.actRequired })
    .trim()
    .min(1, QUOTE_MESSAGES.actRequired)
    .max(OFFER_LIMITS.actMax, QUOTE_MESSAGES.actTooLong),
  tooth: z
    .number({ error: QUOTE_MESSAGES.toothInvalid })
    .refine(isFdiTooth, QUOTE_MESSAGES.toothInvalid)
    .nullable()
    .default(null),
  fee_cents: z
    .number({ error: QUOTE_MESSAGES.feeInvalid })
    .int(QUOTE_MESSAGES.feeInvalid)
    .positive(QUOTE_MESSAGES.feeInvalid)
    .max(OFFER_LIMITS.maxAmountCents, QUOTE_MESSAGES.feeTooHigh),
  /** Only for a free line (a code outside the table): its BR when the devis gives one. */
  br_cents: z
    .number({ error: QUOTE_MESSAGES.brInvalid })
    .int(QUOTE_MESSAGES.brInvalid)
    .min(0, QUOTE_MESSAGES.brInvalid)
    .max(OFFER_LIMITS.maxAmountCents, QUOTE_MESSAGES.brInvalid)
    .nullable()
    .default(null),
});
export type QuoteLineInput = z.input<typeof quoteLineInputSchema>;
export type QuoteLineValues = z.output<typeof quoteLineInputSchema>;

export const quoteLinesSchema = z
  .array(quoteLineInputSchema)
  .max(OFFER_LIMITS.maxLines, QUOTE_MESSAGES.tooManyLines);

/** The fields of a stored line: the same for an offer's lines and the patient's devis. */
export const QUOTE_LINE_FIELDS = [
  "code",
  "act",
  "tooth",
  "fee_cents",
  "basket",
  "br_cents",
  "ceiling_cents",
] as const;

/** A stored line, as every screen and the API see it. */
export const quoteLineDtoSchema = z.object({
  /** null: a free line (no code, or a code outside the reference table). */
  code: z.string().nullable(),
  act: z.string(),
  tooth: z.number().nullable(),
  fee_cents: z.number(),
  basket: z.enum(BASKETS),
  br_cents: z.number(),
  /** The "honoraire limite de facturation" on the day the line was written; null for 'libre'. */
  ceiling_cents: z.number().nullable(),
});
export type QuoteLineDto = z.infer<typeof quoteLineDtoSchema>;

/**
 * A typed line made whole from the reference table on `day` (Paris calendar day: the devis's date, or
 * today for an offer): a known code gets its basket, BR and ceiling for that day and tooth; anything else
 * is a free line ('libre', BR as given or 0, no ceiling).
 */
export function resolveLine(line: QuoteLineValues, day: string): QuoteLineDto {
  const known = line.code ? actByCode(line.code) : undefined;
  const terms = known ? termsOn(known.code, day, line.tooth) : undefined;
  if (!known || !terms)
    return {
      code: line.code,
      act: line.act,
      tooth: line.tooth,
      fee_cents: line.fee_cents,
      basket: "libre",
      br_cents: line.br_cents ?? 0,
      ceiling_cents: null,
    };
  return {
    code: known.code,
    act: line.act,
    tooth: line.tooth,
    fee_cents: line.fee_cents,
    basket: terms.basket,
    br_cents: terms.brCents,
    ceiling_cents: terms.ceilingCents,
  };
}

/**
 * The name of an offer line whose code the table knows: the table's label first, the dentist's words
 * after it (as the act picker keeps them: « Couronne … (molaire), teinte A2 »); a name the label starts
 * with (« Couronne métallique ») gives the label. Any other name is put after the label, so a code's basket and BR never stand under another act's name — a 100 % Santé
 * code's 0 € of reste à charge under « Bridge zircone », say.
 */
export function offerActName(label: string, act: string): string {
  const words = act.trim();
  const [said, table] = [words.toLocaleLowerCase("fr"), label.toLocaleLowerCase("fr")];
  if (said.startsWith(table)) return words;
  // Nothing, or the label's beginning (« Couronne métallique »): the table's label says it whole.
  if (table.startsWith(said)) return label;
  return `${label} — ${words}`.slice(0, OFFER_LIMITS.actMax);
}

/**
 * An offer line bound to the act table (issue 32, ADR 038): a BR is never the dentist's to set, nor a
 * coded act's name. A line whose code the table knows keeps the table's basket, BR and ceiling, under
 * a name that starts with the table's label (`offerActName`); any other line (no code, or a code
 * outside the table) is 'libre' with a BR of 0, whatever was sent or stored. The one place offers take
 * their BR and their coded names from, stored rows included.
 */
export function tableBound(line: QuoteLineDto): QuoteLineDto {
  const known = line.code ? actByCode(line.code) : undefined;
  return known
    ? { ...line, act: offerActName(known.label, line.act) }
    : { ...line, basket: "libre", br_cents: 0, ceiling_cents: null };
}

/**
 * An offer's lines with the BR of the patient's own devis for the acts the table does not know (ADR 038,
 * addendum of 07/12/2026). `tableBound` gives such a line a BR of 0 (never the dentist's to set), while
 * the patient's devis keeps the base printed on it: the same act then seemed reimbursed on her devis and
 * not in the offer, which overstated the offer's reste à charge. A free offer line whose code a free line
 * of the devis names takes the BR the devis states for that code — on the same tooth first, else the one
 * base all the devis's lines of that code agree on (none when they differ). Her document, not the
 * dentist's word: a line without a code, or with a code her devis does not name, keeps its BR of 0.
 * The screens keep a code outside the table in the free line's text (« HBMD038 · Restauration »,
 * `fromLineDtos`, the reading): that code counts (`freeLineCode`).
 */
export function withDevisBases(
  lines: readonly QuoteLineDto[],
  devis: readonly QuoteLineDto[],
): QuoteLineDto[] {
  const stated = devis.flatMap((line) => {
    const code = line.basket === "libre" && line.br_cents > 0 ? freeLineCode(line) : null;
    return code ? [{ ...line, code }] : [];
  });
  if (stated.length === 0) return [...lines];
  return lines.map((line) => {
    const code = line.basket === "libre" ? freeLineCode(line) : null;
    if (code === null) return line;
    const named = stated.filter((d) => d.code === code);
    const sameTooth = named.filter((d) => d.tooth === line.tooth);
    const bases = new Set((sameTooth.length > 0 ? sameTooth : named).map((d) => d.br_cents));
    const [base] = bases;
    return bases.size === 1 && base !== undefined ? { ...line, br_cents: base } : line;
  });
}

/**
 * The act code of a free line, in capitals: its `code`, else the code its text starts with, as the
 * screens keep a code outside the table (« HBMD038 · Restauration 2 faces ») or as one types it.
 */
export function freeLineCode(line: Pick<QuoteLineDto, "code" | "act">): string | null {
  if (line.code) return line.code.toUpperCase();
  const typed = /^([A-Za-z]{4}\d{3})(?=$|[\s·:,-])/.exec(line.act.trim());
  return typed?.[1] ? typed[1].toUpperCase() : null;
}

/** A dentist's offer line made whole from the table on `day`: as `resolveLine`, bound by `tableBound`. */
export function resolveOfferLine(line: QuoteLineValues, day: string): QuoteLineDto {
  return tableBound(resolveLine(line, day));
}

export interface LineIssue {
  path: (string | number)[];
  message: string;
}

/**
 * What is wrong with resolved lines, field by field (`prefix` is the lines' path in the body). On an
 * offer a fee above the ceiling of a 100 % Santé or maîtrisé act is refused; on the patient's own quote
 * it is only flagged (it is their dentist's quote: see `aboveCeiling` in the estimate).
 */
export function quoteLineIssues(
  lines: readonly QuoteLineDto[],
  options: { refuseAboveCeiling: boolean; prefix: (string | number)[] },
): LineIssue[] {
  const issues: LineIssue[] = [];
  lines.forEach((line, i) => {
    const at = (field: string) => [...options.prefix, i, field];
    const act = line.code ? actByCode(line.code) : undefined;
    if (act) {
      if (act.teeth === "arch" && line.tooth !== null)
        issues.push({ path: at("tooth"), message: QUOTE_MESSAGES.toothForArch });
      else if (act.teeth !== "arch" && line.tooth === null)
        issues.push({ path: at("tooth"), message: QUOTE_MESSAGES.toothRequired });
      else if (!actFitsTooth(act, line.tooth))
        issues.push({ path: at("tooth"), message: QUOTE_MESSAGES.toothNotFit(line.tooth as number) });
    }
    if (options.refuseAboveCeiling && line.ceiling_cents !== null && line.fee_cents > line.ceiling_cents)
      issues.push({
        path: at("fee_cents"),
        message: QUOTE_MESSAGES.aboveCeiling(line.basket, line.ceiling_cents),
      });
  });
  return issues;
}

/** An optional yearly amount of the cover, in cents. */
const optionalAmount = () =>
  z
    .number({ error: COVER_MESSAGES.amountInvalid })
    .int(COVER_MESSAGES.amountInvalid)
    .positive(COVER_MESSAGES.amountInvalid)
    .max(OFFER_LIMITS.maxAmountCents, COVER_MESSAGES.amountInvalid)
    .nullable()
    .default(null);

/** The patient's mutuelle ('Ma mutuelle'), as the API takes and returns it. */
export const coverSchema = z.object({
  percent_of_br: z
    .number({ error: COVER_MESSAGES.percentInvalid })
    .int(COVER_MESSAGES.percentInvalid)
    .min(100, COVER_MESSAGES.percentInvalid)
    .max(500, COVER_MESSAGES.percentInvalid),
  ro_included: z.boolean().default(true),
  annual_ceiling_cents: optionalAmount(),
  implant_allowance_cents: optionalAmount(),
  responsible: z.boolean().default(true),
});
export type CoverInput = z.input<typeof coverSchema>;
/** The fields of 'Ma mutuelle' (its row's columns), in the schema's order. */
export const COVER_FIELDS = coverSchema.keyof().options;
export type Cover = z.output<typeof coverSchema>;
export const coverResponseSchema = z.object({ cover: coverSchema.nullable() });
export const coverSavedSchema = z.object({ cover: coverSchema.nullable(), message: z.string() });

export function toMutuelleCover(cover: Cover | null): MutuelleCover | null {
  if (!cover) return null;
  return {
    percentOfBr: cover.percent_of_br,
    roIncluded: cover.ro_included,
    annualCeilingCents: cover.annual_ceiling_cents,
    implantAllowanceCents: cover.implant_allowance_cents,
    responsible: cover.responsible,
  };
}

/**
 * Replacing the lines of the patient's original quote (request page). `reading_id`: the lines come
 * from that reading of the devis (issue 17), which is marked confirmed with them.
 */
export const quoteUpdateSchema = z.object({
  lines: quoteLinesSchema,
  /** The date printed on the devis; today when not given. Its lines are estimated with that day's tariffs. */
  quote_date: quoteDateSchema.nullish(),
  reading_id: z.uuid({ error: READING_MESSAGES.readingNotFound }).nullish(),
  /** With `reading_id`: the patient's choice, read or table, for each figure that contradicted the table (issue 34). */
  reading_choices: z.array(readingChoiceSchema).max(120, "Trop de choix pour cette lecture.").nullish(),
});
export const quoteSavedSchema = z.object({
  lines: z.array(quoteLineDtoSchema),
  quote_date: z.string().nullable(),
  quote_amount_cents: z.number().nullable(),
  message: z.string(),
});

// ——— The estimate and the comparison (one pure function, server and screens alike) ———

/** Who pays what of a fee, a line's or the total's: the Assurance Maladie, the mutuelle, the patient. */
const whoPays = { amo_cents: z.number(), mutuelle_cents: z.number(), rest_cents: z.number() };

export const estimatedLineSchema = quoteLineDtoSchema.extend({ ...whoPays, above_ceiling: z.boolean() });
export type EstimatedLine = z.infer<typeof estimatedLineSchema>;

export const estimateTotalSchema = z.object({ fee_cents: z.number(), br_cents: z.number(), ...whoPays });

export const quoteEstimateSchema = z.object({
  lines: z.array(estimatedLineSchema),
  total: estimateTotalSchema,
  /** The day whose tariffs (baskets, BR, ceilings) the lines carry: the devis's date, or the offer's day. */
  tariff_day: z.string().nullable(),
  /** Every line in the 100 % Santé basket (the offer's badge). */
  all_sante: z.boolean(),
});
export type QuoteEstimateDto = z.infer<typeof quoteEstimateSchema>;

/** Lines with their estimate for this cover (null: the Assurance Maladie only). */
export function estimateLines(
  lines: readonly QuoteLineDto[],
  cover: Cover | null,
  tariffDay: string | null = null,
): QuoteEstimateDto {
  const estimate = estimateQuote(
    lines.map((line) => ({
      feeCents: line.fee_cents,
      brCents: line.br_cents,
      basket: line.basket,
      ceilingCents: line.ceiling_cents,
      implant: line.code !== null && actByCode(line.code)?.category === "implant",
    })),
    toMutuelleCover(cover),
  );
  const t = estimate.total;
  return {
    lines: estimate.lines.map((e, i) => {
      const line = lines[i] as QuoteLineDto;
      return {
        ...line,
        amo_cents: e.amoCents,
        mutuelle_cents: e.mutuelleCents,
        rest_cents: e.restCents,
        above_ceiling: e.aboveCeiling,
      };
    }),
    total: {
      fee_cents: t.feeCents,
      br_cents: t.brCents,
      amo_cents: t.amoCents,
      mutuelle_cents: t.mutuelleCents,
      rest_cents: t.restCents,
    },
    all_sante: lines.length > 0 && lines.every((line) => line.basket === "100_sante"),
    tariff_day: tariffDay,
  };
}

export const ALIGNMENT_FLAGS = {
  same: "",
  different_material: "matériau différent",
  different_act: "acte différent",
  missing: "dent non traitée dans cette proposition",
  extra: "dent en plus du devis initial",
} as const;
export type AlignmentFlag = keyof typeof ALIGNMENT_FLAGS;

export const alignmentRowSchema = z.object({
  /** null: the lines without a tooth (an arch, or a free line). */
  tooth: z.number().nullable(),
  original: z.array(z.string()),
  offers: z.array(
    z.object({
      offer_id: z.string(),
      acts: z.array(z.string()),
      rest_cents: z.number(),
      flag: z.enum(Object.keys(ALIGNMENT_FLAGS) as [AlignmentFlag, ...AlignmentFlag[]]),
    }),
  ),
});
export type AlignmentRow = z.infer<typeof alignmentRowSchema>;

export const comparisonSchema = z.object({
  cover: coverSchema.nullable(),
  original: quoteEstimateSchema.nullable(),
  /**
   * Sorted by reste à charge, lowest first (neutral: no paid ranking), then by date; the partial offers
   * (treating only part of the devis) after the others, sorted the same way.
   */
  offers: z.array(
    z.object({
      offer_id: z.string(),
      estimate: quoteEstimateSchema,
      /**
       * The devis's reste à charge on what this offer treats (`original_rest_cents`) minus this offer's;
       * null without a structured original quote or offer, or when the offer treats nothing of the devis.
       */
      saving_cents: z.number().nullable(),
      /**
       * What the saving is counted against: the devis's reste à charge on the teeth (and arch acts) this
       * offer treats, estimated on its own; the devis's total unless the offer is partial. Null with no saving.
       */
      original_rest_cents: z.number().nullable(),
      /** The offer has no structured line: its amount only (a free-text offer of before). */
      structured: z.boolean(),
      /** The devis's teeth on which this (structured) offer treats nothing, ascending. */
      untreated_teeth: z.array(z.number()),
      /**
       * The devis's other acts this offer leaves: those without a tooth (arch acts, by code), and those
       * on a tooth it otherwise treats, with no line of their kind there (« HBLD734 · … (dent 36) »).
       */
      untreated_acts: z.array(z.string()),
      /** Leaves devis teeth or arch acts untreated: ranked after the offers that treat the whole devis. */
      partial: z.boolean(),
    }),
  ),
  rows: z.array(alignmentRowSchema),
});
export type Comparison = z.infer<typeof comparisonSchema>;

const category = (line: QuoteLineDto) => {
  const act = line.code ? actByCode(line.code) : undefined;
  return act ? act.category : null;
};

/** How an offer's lines on a tooth differ from the original quote's lines on it. */
function flagFor(original: readonly QuoteLineDto[], offered: readonly QuoteLineDto[]): AlignmentFlag {
  if (original.length === 0) return "extra";
  if (offered.length === 0) return "missing";
  const codes = (lines: readonly QuoteLineDto[]) =>
    lines
      .map((l) => l.code ?? l.act.toLowerCase())
      .sort()
      .join("|");
  if (codes(original) === codes(offered)) return "same";
  const kinds = (lines: readonly QuoteLineDto[]) => [...new Set(lines.map(category))].sort().join("|");
  return kinds(original) === kinds(offered) && !original.some((l) => category(l) === null)
    ? "different_material"
    : "different_act";
}

/** The label of a line in the comparison's rows: "HBLD634 · Couronne céramo-métallique". */
export const lineLabel = (line: QuoteLineDto) => (line.code ? `${line.code} · ${line.act}` : line.act);

/** A line without a tooth (an arch act, a free line) is matched by its code, else its act's wording. */
const archKey = (line: QuoteLineDto) => line.code ?? line.act.toLowerCase();

/**
 * What of the devis an offer treats: its lines on a tooth where the offer has a line of the same kind
 * (category of the act table: a crown for a crown, an inlay-core for an inlay-core; a line without a
 * known code matches any line of that tooth), and its lines without a tooth whose code the offer also
 * has; the rest is untreated — whole teeth, and the acts left on teeth otherwise treated.
 */
function coverage(original: readonly QuoteLineDto[], offered: readonly QuoteLineDto[]) {
  const arch = new Set(offered.filter((line) => line.tooth === null).map(archKey));
  const treats = (line: QuoteLineDto) =>
    line.tooth === null
      ? arch.has(archKey(line))
      : offered.some(
          (o) =>
            o.tooth === line.tooth &&
            (category(o) === null || category(line) === null || category(o) === category(line)),
        );
  const treated = original.filter(treats);
  const untreated = original.filter((line) => !treats(line));
  const teethTreated = new Set(treated.map((line) => line.tooth));
  const untreatedTeeth = [
    ...new Set(
      untreated.map((line) => line.tooth).filter((tooth) => tooth !== null && !teethTreated.has(tooth)),
    ),
  ].sort((a, b) => (a as number) - (b as number)) as number[];
  return {
    treated,
    untreatedTeeth,
    untreatedActs: untreated
      .filter((line) => line.tooth === null || teethTreated.has(line.tooth))
      .map((line) => (line.tooth === null ? lineLabel(line) : `${lineLabel(line)} (dent ${line.tooth})`)),
  };
}

/**
 * The devis's price an offer's is compared with, like with like (the public median saving, ADR 046
 * addendum of 03/12/2026): the fees of the devis lines the offer treats (`coverage`). Null when the
 * devis or the offer has no lines (what it treats is unknown) or when it treats none of them.
 */
export function comparedQuoteCents(
  original: readonly QuoteLineDto[],
  offered: readonly QuoteLineDto[],
): number | null {
  if (original.length === 0 || offered.length === 0) return null;
  const cents = coverage(original, offered).treated.reduce((sum, line) => sum + line.fee_cents, 0);
  return cents > 0 ? cents : null;
}

/**
 * The comparison of a request's offers for the patient's cover: each offer's estimate and saving (like
 * with like: against the devis's reste à charge on what the offer treats), sorted by reste à charge with
 * the partial offers after the others and the offers without lines (not estimated) last, and the lines
 * aligned by tooth against the original quote.
 */
export function compareQuotes(
  original: readonly QuoteLineDto[],
  offers: readonly {
    id: string;
    amount_cents: number;
    lines: readonly QuoteLineDto[];
    /** The offer's tariff day (its lines were resolved that day). */
    tariff_day?: string | null;
  }[],
  cover: Cover | null,
  originalDay: string | null = null,
): Comparison {
  const originalEstimate = original.length > 0 ? estimateLines(original, cover, originalDay) : null;
  const estimated = offers.map((offer, order) => {
    // A free-text offer of before: one line of its amount, outside the table.
    const lines: QuoteLineDto[] =
      offer.lines.length > 0
        ? withDevisBases(offer.lines, original)
        : [
            {
              code: null,
              act: "Proposition globale",
              tooth: null,
              fee_cents: offer.amount_cents,
              basket: "libre",
              br_cents: 0,
              ceiling_cents: null,
            },
          ];
    const structured = offer.lines.length > 0;
    const estimate = estimateLines(lines, cover, structured ? (offer.tariff_day ?? null) : null);
    // A free-text offer has no BR: its "reste à charge" is its price, not an estimate to save against,
    // and what it treats is unknown (not said partial).
    const covered = originalEstimate && structured ? coverage(original, offer.lines) : null;
    const partial = covered !== null && covered.treated.length < original.length;
    // Like with like: the devis's reste à charge on the teeth the offer treats, estimated on their own (the
    // mutuelle's ceilings as if only they were done); a tooth the offer adds is paid, so it counts as before.
    const originalRest =
      covered === null || covered.treated.length === 0
        ? null
        : partial
          ? estimateLines(covered.treated, cover, originalDay).total.rest_cents
          : (originalEstimate as QuoteEstimateDto).total.rest_cents;
    return {
      order,
      offer_id: offer.id,
      estimate,
      saving_cents: originalRest === null ? null : originalRest - estimate.total.rest_cents,
      original_rest_cents: originalRest,
      structured,
      untreated_teeth: covered?.untreatedTeeth ?? [],
      untreated_acts: covered?.untreatedActs ?? [],
      partial,
    };
  });
  // Estimated offers treating the whole devis first, then the partial ones, then the offers without
  // lines: their "reste à charge" is their price, no estimate to rank against the others'.
  const rank = (offer: (typeof estimated)[number]) => (!offer.structured ? 2 : offer.partial ? 1 : 0);
  estimated.sort(
    (a, b) =>
      rank(a) - rank(b) || a.estimate.total.rest_cents - b.estimate.total.rest_cents || a.order - b.order,
  );

  const teeth = new Set<number | null>();
  for (const line of original) teeth.add(line.tooth);
  for (const offer of estimated) for (const line of offer.estimate.lines) teeth.add(line.tooth);
  const ordered = [...teeth].sort((a, b) => (a ?? 99) - (b ?? 99));
  const rows = ordered.map((tooth) => {
    const mine = original.filter((line) => line.tooth === tooth);
    return {
      tooth,
      original: mine.map(lineLabel),
      offers: estimated.map((offer) => {
        const theirs = offer.estimate.lines.filter((line) => line.tooth === tooth);
        // An offer without lines says nothing of the teeth: none is « non traitée » by it.
        const flag: AlignmentFlag =
          !offer.structured ||
          original.length === 0 ||
          (tooth === null && (mine.length === 0 || theirs.length === 0))
            ? "same"
            : flagFor(mine, theirs);
        return {
          offer_id: offer.offer_id,
          acts: theirs.map(lineLabel),
          rest_cents: theirs.reduce((sum, line) => sum + line.rest_cents, 0),
          flag: theirs.length === 0 && mine.length === 0 ? "same" : flag,
        };
      }),
    };
  });
  return {
    cover,
    original: originalEstimate,
    offers: estimated.map(({ order: _order, ...offer }) => offer),
    rows,
  };
}
