import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Decodes a quoted-printable e-mail (as nodemailer writes it) into readable text. */
export function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === "=" && /^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i] ?? "", "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** The e-mails written to DATA_DIR/outbox (the test mail transport), oldest first, decoded. */
export function readOutbox(dataDir: string): string[] {
  const dir = path.join(dataDir, "outbox");
  try {
    return readdirSync(dir)
      .sort()
      .map((f) => decodeQuotedPrintable(readFileSync(path.join(dir, f), "utf8")));
  } catch {
    return [];
  }
}
