/** An empty cell: a dash on screen, words for screen readers. */
export function None({ label = "Non précisé" }: { label?: string }) {
  return (
    <>
      <span aria-hidden="true" className="text-slate-600">
        —
      </span>
      <span className="sr-only">{label}</span>
    </>
  );
}
