import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { ArchiveX, RotateCcw } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { toast } from "sonner";
import { treatmentLabel } from "../../../shared/domain/treatments";
import { formatListDate } from "../../../shared/format/dates";
import { ofName } from "../../../shared/format/names";
import { countLabel } from "../../../shared/format/plural";
import { DENTIST_MESSAGES, type DentistRequestSummary } from "../../../shared/schemas/dentist";
import { Button } from "../../components/ui/Button";
import { Checkbox } from "../../components/ui/Checkbox";
import type { Column } from "../../components/ui/DataTable";
import { isApiError } from "../../lib/api";
import { cn } from "../../lib/cn";
import { setAsideRequests } from "./api";
import { maySetAside } from "./SetAsideButton";

/*
 * « Écarter la sélection » (ADR 091's addendum): the requests of the list's page he ticks, set aside or
 * put back in one call, with the toast's « Annuler » as for one. The selection is of the page it was
 * made on: another page, filter or search starts empty.
 */

type Row = Pick<
  DentistRequestSummary,
  "id" | "patient_name" | "treatment_type" | "created_at" | "my_status" | "set_aside" | "addressed_to_me"
>;

export interface RequestSelection<R extends Row> {
  /** The page's rows that may be ticked, and those ticked. */
  eligible: R[];
  selected: R[];
  has: (id: string) => boolean;
  toggle: (id: string, on: boolean) => void;
  toggleAll: (on: boolean) => void;
  clear: () => void;
}

/** The ticked rows of this page (`pageKey`: its filters and number; another one starts empty). */
export function useRequestSelection<R extends Row>(rows: readonly R[] | undefined, pageKey: string) {
  const [state, setState] = useState<{ key: string; ids: ReadonlySet<string> }>({
    key: pageKey,
    ids: new Set(),
  });
  const ids = state.key === pageKey ? state.ids : new Set<string>();
  const eligible = (rows ?? []).filter(maySetAside);
  // A row gone from the page (answered, set aside from another tab) leaves the selection with it.
  const selected = eligible.filter((row) => ids.has(row.id));
  const set = (next: Iterable<string>) => setState({ key: pageKey, ids: new Set(next) });
  return {
    eligible,
    selected,
    has: (id: string) => ids.has(id),
    toggle: (id: string, on: boolean) =>
      set(on ? [...ids, id] : [...ids].filter((selectedId) => selectedId !== id)),
    toggleAll: (on: boolean) => set(on ? eligible.map((row) => row.id) : []),
    clear: () => set([]),
  } satisfies RequestSelection<R>;
}

/** The table's first column: a box on each row that may be set aside or put back. */
export function selectionColumn<R extends Row>(selection: RequestSelection<R>): Column<R> {
  return {
    header: "Sélection",
    hideLabelInCard: true,
    className: "w-0",
    cell: (row) => (maySetAside(row) ? <SelectBox row={row} selection={selection} /> : null),
  };
}

function SelectBox<R extends Row>({ row, selection }: { row: R; selection: RequestSelection<R> }) {
  const id = useId();
  return (
    <span className="inline-flex items-center gap-2">
      <Checkbox
        id={id}
        checked={selection.has(row.id)}
        onCheckedChange={(value) => selection.toggle(row.id, value === true)}
        // Its visible word first, then which request (the same word on every row).
        aria-label={`Sélectionner la demande ${ofName(row.patient_name)} (${treatmentLabel(row.treatment_type)}, ${formatListDate(row.created_at)})`}
      />
      <label htmlFor={id} className="text-sm text-slate-700 md:sr-only">
        Sélectionner
      </label>
    </span>
  );
}

/** Sets the requests aside or puts them back, then says so in a toast that offers to undo it. */
async function change(queryClient: QueryClient, ids: readonly string[], aside: boolean): Promise<void> {
  try {
    const { changed, message } = await setAsideRequests(queryClient, ids, aside);
    toast.success(message, {
      id: "set-aside-selection",
      action:
        changed.length > 0
          ? {
              label: "Annuler",
              onClick: (event) => {
                // Kept, to be replaced by the answer (same id), as for one request.
                event.preventDefault();
                void change(queryClient, changed, !aside);
              },
            }
          : undefined,
    });
  } catch (error) {
    toast.error(aside ? DENTIST_MESSAGES.setAsideManyFailed : DENTIST_MESSAGES.putBackManyFailed, {
      id: "set-aside-selection",
      description: isApiError(error) ? error.message : undefined,
    });
  }
}

/**
 * While `stuck` (the bar sticks under the header), what the keyboard focuses scrolls into sight below
 * both, not under them: the page's scroll padding (the header's, styles.css) grows by the bar's height.
 */
function useKeptInSightUnder(bar: { current: HTMLElement | null }, stuck: boolean) {
  useEffect(() => {
    const element = bar.current;
    if (!stuck || !element) return;
    const root = document.documentElement;
    const pad = () => {
      root.style.scrollPaddingTop = `calc(5rem + ${element.offsetHeight}px)`;
    };
    pad();
    // Its buttons wrap onto more lines on a narrow screen.
    const observer = typeof ResizeObserver === "undefined" ? undefined : new ResizeObserver(pad);
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      root.style.scrollPaddingTop = "";
    };
  }, [bar, stuck]);
}

/**
 * Above the list: « Tout sélectionner sur cette page », how many are ticked, and « Écarter la
 * sélection » / « Remettre la sélection » for those of the ticked rows each applies to. Nothing when
 * no row of the page may be ticked.
 */
export function SelectionBar<R extends Row>({ selection }: { selection: RequestSelection<R> }) {
  const queryClient = useQueryClient();
  const allId = useId();
  const all = useRef<HTMLButtonElement>(null);
  const mutation = useMutation({
    mutationFn: ({ ids, aside }: { ids: string[]; aside: boolean }) => change(queryClient, ids, aside),
    onSettled: () => {
      selection.clear();
      // The buttons leave with the selection: the focus stays in the bar.
      all.current?.focus();
    },
  });
  const count = selection.selected.length;
  const bar = useRef<HTMLDivElement>(null);
  useKeptInSightUnder(bar, count > 0);
  if (selection.eligible.length === 0) return null;
  const toSetAside = selection.selected.filter((row) => !row.set_aside);
  const toPutBack = selection.selected.filter((row) => row.set_aside);
  const run = (rows: R[], aside: boolean) => mutation.mutate({ ids: rows.map((row) => row.id), aside });
  return (
    // biome-ignore lint/a11y/useSemanticElements: a toolbar of related controls, not a form's fieldset.
    <div
      ref={bar}
      role="group"
      aria-label="Sélection de demandes"
      className={cn(
        "mb-3 flex flex-wrap items-center gap-x-4 gap-y-2 rounded-ui border border-slate-200 bg-white px-3 py-2 shadow-sm",
        // While rows are ticked, its buttons stay in sight under the app's header as the list scrolls.
        count > 0 && "sticky top-16 z-30",
      )}
    >
      <span className="inline-flex items-center gap-2">
        <Checkbox
          ref={all}
          id={allId}
          checked={count > 0 && count === selection.eligible.length}
          onCheckedChange={(value) => selection.toggleAll(value === true)}
        />
        <label htmlFor={allId} className="text-sm font-medium text-slate-900">
          Tout sélectionner sur cette page
        </label>
      </span>
      <p className="text-sm text-slate-700" aria-live="polite">
        {count === 0
          ? "Aucune demande sélectionnée"
          : countLabel(count, "demande sélectionnée", "demandes sélectionnées")}
      </p>
      {toSetAside.length > 0 || toPutBack.length > 0 ? (
        <span className="flex flex-wrap gap-2">
          {(
            [
              [toSetAside, true, ArchiveX, "Écarter la sélection"],
              [toPutBack, false, RotateCcw, "Remettre la sélection"],
            ] as const
          ).map(([rows, aside, Icon, label]) =>
            rows.length > 0 ? (
              <Button
                key={label}
                size="sm"
                variant="outline"
                loading={mutation.isPending && mutation.variables?.aside === aside}
                disabled={mutation.isPending}
                onClick={() => run(rows, aside)}
              >
                <Icon aria-hidden="true" />
                {`${label} (${rows.length})`}
              </Button>
            ) : null,
          )}
        </span>
      ) : null}
    </div>
  );
}
