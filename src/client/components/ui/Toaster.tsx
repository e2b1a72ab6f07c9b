import { Toaster as Sonner } from "sonner";

/** Toast region (sonner), French labels, positioned so it never hides the page's main action. */
export function Toaster() {
  return (
    <Sonner
      position="top-center"
      richColors
      closeButton
      duration={5000}
      containerAriaLabel="Notifications"
      toastOptions={{
        closeButtonAriaLabel: "Fermer la notification",
        classNames: { toast: "font-sans", description: "text-sm" },
      }}
    />
  );
}

export default Toaster;
