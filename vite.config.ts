import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  root: ".",
  publicDir: "public",
  plugins: [react(), tailwindcss()],
  build: {
    outDir: "dist/client",
    emptyOutDir: true,
    sourcemap: false,
    // No inline modulepreload polyfill script: the server sends `script-src 'self'`.
    modulePreload: { polyfill: false },
  },
  // The password meter's worker loads its dictionaries with dynamic imports: an ES module worker.
  worker: { format: "es" },
  server: {
    port: 5173,
    proxy: {
      "/api": { target: "http://localhost:3000", changeOrigin: false, ws: true },
    },
  },
  preview: {
    proxy: {
      "/api": { target: "http://localhost:3000", changeOrigin: false, ws: true },
    },
  },
});
