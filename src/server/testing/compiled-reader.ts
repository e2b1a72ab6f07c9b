import { setCompiledReaderChild } from "../modules/reading/sandbox";
import { compiledEntries } from "./compiled-entries";

// The `unit` and `alone` projects' setup (vitest.config.ts), run before each test file: the reading's
// own process (sandbox.ts) is forked from the server's sources compiled once per worker (compiled-entries.ts,
// `npm run build`'s transform), with plain node, as the compiled server forks it in production. Under
// tsx, its module hooks cost each child about 0.3 CPU-s to start and 1 CPU-s more to read a PDF
// (pdf.js and the OCR are imported on the first task): a whole-suite cost, since every app that reads
// or previews a devis forks its children (ADR 054). The tsx path stays run by `npm start`'s servers
// (the browser journeys); the hostile files fork compiled too since ADR 054's addendum of 01/12.
const entry = await compiledEntries();
setCompiledReaderChild(entry("src/server/modules/reading/reader-child.ts"));
