import "./styles.css";
// zod's messages in French for every form (the server uses the same error map).
import "../shared/schemas/zod-fr";
import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { Providers } from "./app/Providers";
import { AppRoutes } from "./app/routes";

const container = document.getElementById("root");
if (!container) throw new Error("Élément #root introuvable dans index.html");

// useTransitions={false}: navigations are urgent updates, so `flushSync(() => navigate(…))`
// commits the new page at once (the sign-out in app/AppShell.tsx relies on it).
const app = (
  <StrictMode>
    <BrowserRouter useTransitions={false}>
      <Providers>
        <AppRoutes />
      </Providers>
    </BrowserRouter>
  </StrictMode>
);

// Public pages arrive pre-rendered (scripts/lib/client-build.mjs): hydrate them; the rest renders here.
if (container.hasChildNodes()) hydrateRoot(container, app);
else createRoot(container).render(app);
