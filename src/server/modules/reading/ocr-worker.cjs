"use strict";
// tesseract.js's own worker thread script, with the console silenced first: its engine prints
// diagnostics ("Image too small to scale!!", "Line cannot be recognized!!") that would otherwise reach
// the server's output. Nothing read is ever printed from here.
const noop = () => {};
for (const method of ["log", "info", "warn", "error", "debug", "trace"]) console[method] = noop;
// An error nobody catches in this thread would reach the server as an unhandled 'error' event and stop
// it: end this thread instead (the page waiting for it fails at its time limit, the pool starts another).
process.on("uncaughtException", () => process.exit(1));
process.on("unhandledRejection", () => process.exit(1));
// Only the LSTM engine's part of the trained data is kept in this thread's memory (lstm-data.cjs).
require("./lstm-data.cjs").installLstmOnlyData();
require("tesseract.js/src/worker-script/node/index.js");
