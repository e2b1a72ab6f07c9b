#!/usr/bin/env node
// `npm run build`: builds the web client and pre-renders its public pages.
import { buildClient } from "./lib/client-build.mjs";

process.exit((await buildClient()) ? 0 : 1);
