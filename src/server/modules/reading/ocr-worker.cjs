"use strict";
// tesseract.js's own worker thread script, with the console silenced first: its engine prints
// diagnostics ("Image too small to scale!!", "Line cannot be recognized!!") that would otherwise reach
// the server's output. Nothing read is ever printed from here.
const noop = () => {};
for (const method of ["log", "info", "warn", "error", "debug", "trace"]) console[method] = noop;
require("tesseract.js/src/worker-script/node/index.js");
