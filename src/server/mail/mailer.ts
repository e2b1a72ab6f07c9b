import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void | Promise<void>;
}

/**
 * The app's mailer: it keeps the sends in flight, so that the app's close waits for them (an e-mail
 * sent after a commit is not lost when the server stops) and a test awaits them (`settled`) instead
 * of polling the outbox.
 */
export interface TrackedMailer extends Mailer {
  /** Resolves once every send started so far (and any started meanwhile) has ended, sent or failed. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/**
 * How long the app's close waits for the e-mails in flight (an SMTP server that hangs): half of the
 * 10 s a stop has in all (server.ts), the rest for the requests and the database.
 */
const CLOSE_WAIT_MS = 5_000;

export function trackSends(mailer: Mailer): TrackedMailer {
  const inFlight = new Set<Promise<unknown>>();
  const settled = async () => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  };
  return {
    send(message) {
      const sending = mailer.send(message);
      const ended: Promise<boolean> = sending.then(
        () => inFlight.delete(ended),
        () => inFlight.delete(ended),
      );
      inFlight.add(ended);
      return sending;
    },
    settled,
    async close() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CLOSE_WAIT_MS);
        timer.unref();
      });
      await Promise.race([settled(), timeout]);
      clearTimeout(timer);
      await mailer.close();
    },
  };
}

/** What a use case needs to e-mail after its commit: the mailer, and a log for a failed sending
 * (an e-mail that cannot go never fails the change). */
export interface MailAfterCommit {
  mailer: Mailer;
  log: { error(obj: object, msg: string): void };
}

/**
 * Sends an e-mail after a commit without waiting for it, and never failing the change: a failed
 * send is logged under `failure` (its error, never the address or the text).
 */
export function mailAfterCommit(deps: MailAfterCommit, message: MailMessage, failure: string): void {
  deps.mailer.send(message).catch((error: unknown) => deps.log.error({ err: loggedError(error) }, failure));
}

/**
 * A mail job's e-mails: one per item, one after another. A failed one is logged under `failure`
 * (its error, never the address or the text) and not tried again, the job having settled its items
 * already. Resolves to the number sent.
 */
export async function sendEach<T>(
  deps: MailAfterCommit,
  items: Iterable<T>,
  mailOf: (item: T) => MailMessage,
  failure: string,
): Promise<number> {
  let sent = 0;
  for (const item of items) {
    try {
      await deps.mailer.send(mailOf(item));
      sent += 1;
    } catch (error) {
      deps.log.error({ err: loggedError(error) }, failure);
    }
  }
  return sent;
}

/**
 * A mail job's rows gathered by whom one e-mail goes to (`keyOf`): each group in the order its first
 * row came, never empty.
 */
export function groupedBy<T>(rows: Iterable<T>, keyOf: (row: T) => string): [T, ...T[]][] {
  const groups = new Map<string, [T, ...T[]]>();
  for (const row of rows) {
    const group = groups.get(keyOf(row));
    if (group) group.push(row);
    else groups.set(keyOf(row), [row]);
  }
  return [...groups.values()];
}

/**
 * What a log keeps of a failed sending: its type, codes and message (an SMTP server's answer comes
 * with its addresses masked, `withoutAddresses`); a rejection that is not an Error, as text. The
 * modules log through redact.ts's `loggableError`, a floor above this one (ADR 031).
 */
function loggedError(error: unknown): {
  type: string;
  message: string;
  code?: unknown;
  responseCode?: unknown;
} {
  if (!(error instanceof Error)) return { type: "Error", message: String(error) };
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  return { type: error.name, code, responseCode, message: error.message };
}

/** An e-mail address as an SMTP server's answer quotes it (`<jeanne@exemple.fr>`, or bare). */
const ADDRESS = /[^\s<>()[\]"',;:]+@[^\s<>()[\]"',;:]+/g;

/**
 * An SMTP failure as the app may keep and log it: nodemailer's error quotes the server's answer,
 * which names the refused recipient ("550 5.1.1 <jeanne@exemple.fr>: Recipient address rejected"),
 * and carries the addresses in `response`, `rejected`, `recipient`. What goes on is the type, the
 * code, the answer's code, the command and the message with every address masked.
 */
function withoutAddresses(error: unknown): Error {
  const text = error instanceof Error ? error.message : String(error);
  const safe = new Error(text.replace(ADDRESS, "[adresse masquée]"));
  if (error instanceof Error) {
    safe.name = error.name;
    const { code, responseCode, command } = error as {
      code?: unknown;
      responseCode?: unknown;
      command?: unknown;
    };
    Object.assign(safe, { code, responseCode, command });
  }
  return safe;
}

interface Logger {
  info(obj: object, msg: string): void;
}

/**
 * SMTP when SMTP_URL is set; otherwise each e-mail becomes an .eml file in DATA_DIR/outbox
 * (ADR 002), so a developer or a test can open the links it carries.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  logger: Logger;
}): Mailer {
  const { from, outboxDir, logger } = options;
  if (options.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        try {
          await transport.sendMail({ from, ...message });
        } catch (error) {
          throw withoutAddresses(error);
        }
        logger.info({ subject: message.subject }, "e-mail envoyé par SMTP");
      },
      close: () => transport.close(),
    };
  }
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(message) {
      const info = await builder.sendMail({ from, ...message });
      // The outbox holds reset links: the service's account only (folder 0700, files 0600).
      await mkdir(outboxDir, { recursive: true, mode: 0o700 });
      const file = path.join(
        outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID()}.eml`,
      );
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      // The file name only: the recipient and the body stay out of the logs.
      logger.info(
        { file: path.basename(file), subject: message.subject },
        "e-mail écrit dans la boîte d'envoi",
      );
    },
    close: () => {},
  };
}
