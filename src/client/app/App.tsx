// zod's messages in French for every form (the server uses the same error map).
import "../../shared/schemas/zod-fr";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { Providers } from "./Providers";
import { AppRoutes } from "./routes";

/**
 * The whole app, rendered in the browser: sign-in pages, the areas, the 404 page. Loaded by
 * main.tsx only for pages that are not pre-rendered (ADR 027).
 */
export function renderApp(container: HTMLElement): void {
  // useTransitions={false}: navigations are urgent updates, so `flushSync(() => navigate(…))`
  // commits the new page at once (the sign-out in app/AppShell.tsx relies on it).
  createRoot(container).render(
    <StrictMode>
      <BrowserRouter useTransitions={false}>
        <Providers>
          <AppRoutes />
        </Providers>
      </BrowserRouter>
    </StrictMode>,
  );
}
