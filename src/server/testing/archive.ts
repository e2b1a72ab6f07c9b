import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { DATA_FILE, type ExportData } from "../modules/export/export.service";
import { zipContents } from "./files";

/** A data export's answer (GET DATA_EXPORT_URL), checked 200 and opened: the zip's files and its JSON. */
export async function archiveOf(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  const raw = response.rawPayload;
  const entries = await zipContents(raw);
  const json = entries.get(DATA_FILE)?.toString("utf8") ?? "";
  return { response, raw, entries, json, data: JSON.parse(json) as ExportData };
}
