import { useQueryClient } from "@tanstack/react-query";
import { flushSync } from "react-dom";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { clearSessionCache, useLogout } from "../../lib/auth";

/** 'Déconnexion': signs out, leaves the protected page, then forgets the session. */
export function useSignOut() {
  const logout = useLogout();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return () =>
    logout.mutate(undefined, {
      onSuccess: () => {
        toast.success("Déconnexion réussie");
        // Leave the protected page first, so its guard never sends the visitor to a login page.
        // flushSync commits "/" before the session is cleared: otherwise both updates could be
        // rendered apart and the protected page could render signed out before "/" is committed.
        // (The router's updates are urgent, see <BrowserRouter useTransitions={false}> in main.tsx.)
        flushSync(() => navigate("/", { replace: true }));
        clearSessionCache(queryClient);
      },
      onError: (error) => toast.error("Erreur de déconnexion", { description: error.message }),
    });
}
