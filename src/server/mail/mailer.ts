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
  close(): void;
}

/** What a use case needs to e-mail after its commit: the mailer, and a log for a failed sending
 * (an e-mail that cannot go never fails the change). */
export interface MailAfterCommit {
  mailer: Mailer;
  log: { error(obj: object, msg: string): void };
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
        await transport.sendMail({ from, ...message });
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
