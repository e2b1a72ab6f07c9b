/*
 * The calendar shrinks with its container: on a phone it sits inside two or three nested cards and
 * must not scroll sideways nor widen the page. Seven equal columns (table-fixed), days as circles
 * of at most 40 px (2.5rem), at least ~30 px on a 375 px screen.
 */
export const calendarClasses = {
  root: "w-full overflow-x-auto rounded-ui border border-slate-200 bg-white p-2 sm:p-3",
  months: "flex flex-col",
  month: "grid grid-cols-[auto_1fr_auto] items-center gap-y-2",
  month_caption: "flex h-9 items-center justify-center",
  caption_label: "font-semibold text-slate-900 first-letter:uppercase",
  button_previous:
    "inline-flex size-9 items-center justify-center rounded-ui text-slate-700 hover:bg-slate-100 " +
    "aria-disabled:pointer-events-none aria-disabled:opacity-40",
  button_next:
    "inline-flex size-9 items-center justify-center rounded-ui text-slate-700 hover:bg-slate-100 " +
    "aria-disabled:pointer-events-none aria-disabled:opacity-40",
  chevron: "size-4 fill-current",
  month_grid: "col-span-3 w-full table-fixed border-collapse",
  weekdays: "",
  weekday: "h-8 px-0 text-center text-xs font-medium text-slate-600",
  weeks: "",
  week: "",
  day: "group p-0 py-px text-center",
  day_button:
    "mx-auto flex aspect-square w-full max-w-10 items-center justify-center rounded-full text-sm " +
    "text-slate-900 tabular-nums hover:bg-brand-50 " +
    "focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-700 " +
    "group-data-today:font-bold group-data-today:underline group-data-today:underline-offset-4 " +
    "group-data-selected:bg-brand-700 group-data-selected:text-white group-data-selected:hover:bg-brand-800 " +
    "disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:bg-transparent",
  selected: "",
  today: "",
  disabled: "",
  outside: "",
  hidden: "invisible",
  focused: "",
};
