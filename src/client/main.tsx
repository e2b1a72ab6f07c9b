import "./styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { Providers } from "./app/Providers";
import { AppRoutes } from "./app/routes";

const container = document.getElementById("root");
if (!container) throw new Error("Élément #root introuvable dans index.html");

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
