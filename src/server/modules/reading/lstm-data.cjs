"use strict";
// The French trained data we ship (@tesseract.js-data/fra, 4.0.0: 14.2 MB once unzipped) holds the
// models of two engines: the legacy engine's (12.9 MB) and the LSTM engine's (1.2 MB). We run the LSTM
// engine only (OEM 1, tesseract.js's LSTM-only core), which never reads the legacy entries, yet the whole
// file is kept in the OCR worker's in-memory file system and copied into tesseract's memory while it
// starts. Dropping the legacy entries as the file is unzipped lowers the reading's memory (ADR 061); the
// LSTM engine's entries are kept byte for byte, so what is read does not change.

/**
 * Entries of a .traineddata kept: 0 (the language's config, read by both engines) and 17–23 (the LSTM
 * model, its punctuation, word and number dawgs, its unicharset and recoder, the version string).
 * tesseract's tessdata_manager.h numbers them.
 */
const KEPT = (index) => index === 0 || index >= 17;

/**
 * The .traineddata `data` with only the LSTM engine's entries, or `data` itself when it is not a
 * .traineddata (an int32 count of entries, then their int64 offsets, -1 for an absent one, each entry
 * running to the next one present or to the end of the file) or holds nothing to drop.
 */
function lstmOnly(data) {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (bytes.length < 4) return data;
  const count = bytes.readInt32LE(0);
  const header = 4 + 8 * count;
  if (count < 18 || count > 64 || bytes.length < header) return data;
  const offsets = [];
  for (let i = 0; i < count; i += 1) {
    const offset = Number(bytes.readBigInt64LE(4 + 8 * i));
    if (offset !== -1 && (offset < header || offset > bytes.length)) return data;
    offsets.push(offset);
  }
  const entries = offsets.map((offset, i) => {
    if (offset === -1) return null;
    const next = offsets.slice(i + 1).find((o) => o !== -1) ?? bytes.length;
    return next < offset ? undefined : bytes.subarray(offset, next);
  });
  if (entries.includes(undefined)) return data;
  if (entries.every((entry, i) => entry === null || KEPT(i))) return data;
  const kept = entries.map((entry, i) => (entry !== null && KEPT(i) ? entry : null));
  const out = Buffer.alloc(header + kept.reduce((sum, entry) => sum + (entry ? entry.length : 0), 0));
  out.writeInt32LE(count, 0);
  let position = header;
  kept.forEach((entry, i) => {
    out.writeBigInt64LE(BigInt(entry ? position : -1), 4 + 8 * i);
    if (entry) {
      entry.copy(out, position);
      position += entry.length;
    }
  });
  return out;
}

/**
 * Makes tesseract.js's worker script unzip its trained data through lstmOnly: its gunzip module (which
 * it requires when loaded, and uses for the .traineddata.gz alone) is replaced in require's cache.
 * To be called in the OCR worker's thread before the worker script is loaded (ocr-worker.cjs).
 */
function installLstmOnlyData() {
  const gunzipPath = require.resolve("tesseract.js/src/worker-script/node/gunzip.js");
  const gunzip = require(gunzipPath);
  if (gunzip.lstmOnly) return;
  const cached = require.cache[gunzipPath];
  if (!cached) return;
  const unzip = (data) => lstmOnly(gunzip(data));
  unzip.lstmOnly = true;
  cached.exports = unzip;
}

module.exports = { lstmOnly, installLstmOnlyData };
