import { Toaster as Sonner, toast } from "sonner";

type ToastKind = "success" | "error" | "info" | "warning" | "message";

/**
 * One toast per message: the same text shown twice (a double click, a retried request, two
 * queries failing alike) updates the toast already on screen instead of piling up a second one.
 * Sonner replaces a toast that has the same id, so each call gets its text as a default id.
 * A success takes away the errors still on screen: « Veuillez remplir tous les champs
 * obligatoires » does not stay beside « Votre message a été envoyé » once the form is sent.
 */
export function dedupeToasts(target: typeof toast = toast): void {
  const marked = target as typeof toast & { __deduped?: boolean };
  if (marked.__deduped) return;
  marked.__deduped = true;
  const errors = new Set<string | number>();
  for (const kind of ["success", "error", "info", "warning", "message"] as const satisfies ToastKind[]) {
    const original = target[kind];
    target[kind] = ((message, data) => {
      if (kind === "success") {
        for (const id of errors) target.dismiss(id);
        errors.clear();
      }
      const id = original(message, {
        ...(typeof message === "string" ? { id: `${kind}:${message}` } : {}),
        ...data,
      });
      if (kind === "error") errors.add(id);
      return id;
    }) as typeof original;
  }
}
dedupeToasts();

/**
 * Toast region (sonner), French labels, bottom right: never over the header and its menu, and
 * away from the page's main action; three at most at once.
 */
export function Toaster() {
  return (
    <Sonner
      position="bottom-right"
      richColors
      closeButton
      duration={5000}
      visibleToasts={3}
      containerAriaLabel="Notifications"
      toastOptions={{
        closeButtonAriaLabel: "Fermer la notification",
        // Its close button 24 px wide at least (sonner's is 20: WCAG 2.5.8).
        classNames: { toast: "font-sans", description: "text-sm", closeButton: "size-6!" },
      }}
    />
  );
}

export default Toaster;
