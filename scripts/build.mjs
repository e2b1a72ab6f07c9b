#!/usr/bin/env node
// `npm run build`: builds the web client and pre-renders its public pages, then compiles the server to
// plain JavaScript (dist/server, run by `NODE_ENV=production npm start`).
import { buildClient } from "./lib/client-build.mjs";
import { buildServer } from "./lib/server-build.mjs";

process.exit((await buildClient()) && (await buildServer()) ? 0 : 1);
