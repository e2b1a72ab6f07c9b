import "@fontsource-variable/inter";
import "./styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter } from "react-router";
// The DOM RouterProvider passes ReactDOM.flushSync, so `navigate(…, { flushSync: true })` works.
import { RouterProvider } from "react-router/dom";
import { Providers } from "./app/Providers";
import { routes } from "./app/routes";
import { createQueryClient } from "./lib/queryClient";

const queryClient = createQueryClient();
const router = createBrowserRouter(routes);

const container = document.getElementById("root");
if (!container) throw new Error("Élément #root introuvable dans index.html");

createRoot(container).render(
  <StrictMode>
    <Providers client={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
