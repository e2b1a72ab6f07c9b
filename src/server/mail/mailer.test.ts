import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  createMailer,
  groupedBy,
  type Mailer,
  type MailMessage,
  mailAfterCommit,
  sendEach,
  trackSends,
} from "./mailer";

/** A mailer whose sends end when the test says so. */
function heldMailer() {
  const held: { message: MailMessage; end: (error?: Error) => void }[] = [];
  let closed = false;
  const mailer: Mailer = {
    send: (message) =>
      new Promise<void>((resolve, reject) => {
        held.push({ message, end: (error) => (error ? reject(error) : resolve()) });
      }),
    close: () => {
      closed = true;
    },
  };
  return { mailer, held, closed: () => closed };
}

const message = (to: string): MailMessage => ({ to, subject: "Sujet", text: "Texte" });

/** Whether a promise has settled once pending callbacks have run. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("the app's mailer keeps its sends in flight", () => {
  it("settles once every send started, and any started meanwhile, has ended, sent or failed", async () => {
    const { mailer, held } = heldMailer();
    const tracked = trackSends(mailer);
    expect(await isSettled(tracked.settled())).toBe(true);

    const log: { obj: object; msg: string }[] = [];
    mailAfterCommit(
      { mailer: tracked, log: { error: (obj, msg) => log.push({ obj, msg }) } },
      message("a@x.fr"),
      "raté",
    );
    const failing = tracked.send(message("b@x.fr")).catch((error: Error) => error.message);
    const settled = tracked.settled();
    expect(await isSettled(settled)).toBe(false);

    held[0]?.end();
    // A send started while waiting is waited for too.
    tracked.send(message("c@x.fr"));
    expect(await isSettled(settled)).toBe(false);
    held[1]?.end(new Error("SMTP indisponible"));
    expect(await isSettled(settled)).toBe(false);
    held[2]?.end();
    expect(await isSettled(settled)).toBe(true);
    expect(await failing).toBe("SMTP indisponible");
    expect(log).toEqual([]);
    expect(held.map((h) => h.message.to)).toEqual(["a@x.fr", "b@x.fr", "c@x.fr"]);
  });

  it("logs a failed e-mail after a commit by its message, never its address, and the change stands", async () => {
    const { mailer, held } = heldMailer();
    const tracked = trackSends(mailer);
    const log: { obj: object; msg: string }[] = [];
    expect(
      mailAfterCommit(
        { mailer: tracked, log: { error: (obj, msg) => log.push({ obj, msg }) } },
        message("p@x.fr"),
        "e-mail non envoyé",
      ),
    ).toBeUndefined();
    held[0]?.end(new Error("connexion refusée"));
    await tracked.settled();
    expect(log).toHaveLength(1);
    expect(log[0]?.msg).toBe("e-mail non envoyé");
    expect(log[0]?.obj).toMatchObject({ err: { type: "Error", message: "connexion refusée" } });
    expect(JSON.stringify(log)).not.toContain("p@x.fr");
  });

  it("sends a mail job's e-mails one after another, logs a failed one without its address and goes on", async () => {
    const sent: string[] = [];
    const log: { obj: object; msg: string }[] = [];
    const mailer: Mailer = {
      send: async (m) => {
        if (m.to === "b@x.fr")
          throw Object.assign(new Error("refusé"), { code: "EENVELOPE", responseCode: 550 });
        sent.push(m.to);
      },
      close: () => {},
    };
    const count = await sendEach(
      { mailer, log: { error: (obj, msg) => log.push({ obj, msg }) } },
      new Set(["a", "b", "c"]),
      (name) => message(`${name}@x.fr`),
      "e-mail du job non envoyé",
    );
    expect(count).toBe(2);
    expect(sent).toEqual(["a@x.fr", "c@x.fr"]);
    expect(log).toEqual([
      {
        msg: "e-mail du job non envoyé",
        obj: { err: { type: "Error", code: "EENVELOPE", responseCode: 550, message: "refusé" } },
      },
    ]);
    expect(JSON.stringify(log)).not.toContain("b@x.fr");
  });

  it("gathers a mail job's rows by whom each e-mail goes to, in the order they came", () => {
    const rows = [
      { to: "b", id: 1 },
      { to: "a", id: 2 },
      { to: "b", id: 3 },
    ];
    expect(groupedBy(rows, (row) => row.to)).toEqual([
      [
        { to: "b", id: 1 },
        { to: "b", id: 3 },
      ],
      [{ to: "a", id: 2 }],
    ]);
    expect(groupedBy([], String)).toEqual([]);
  });

  it("closes only once the e-mails in flight have gone (a server that stops loses none)", async () => {
    const { mailer, held, closed } = heldMailer();
    const tracked = trackSends(mailer);
    tracked.send(message("a@x.fr"));
    const closing = tracked.close();
    expect(await isSettled(closing)).toBe(false);
    expect(closed()).toBe(false);
    held[0]?.end();
    await closing;
    expect(closed()).toBe(true);
  });
});

/**
 * An SMTP server that refuses every recipient, quoting the address as real servers do: the SMTP
 * server is outside the product, this stand-in speaks just enough of the protocol for nodemailer.
 */
function refusingSmtp(): Promise<{ server: Server; url: string }> {
  const server = createServer((socket) => {
    socket.write("220 refus.test ESMTP\r\n");
    let pending = "";
    socket.on("data", (chunk) => {
      pending += chunk.toString();
      for (let end = pending.indexOf("\r\n"); end !== -1; end = pending.indexOf("\r\n")) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 2);
        const rcpt = /^RCPT TO:<([^>]*)>/i.exec(line);
        if (/^EHLO/i.test(line)) socket.write("250 refus.test\r\n");
        else if (rcpt) socket.write(`550 5.1.1 <${rcpt[1]}>: Recipient address rejected: User unknown\r\n`);
        else if (/^QUIT/i.test(line)) socket.end("221 bye\r\n");
        else socket.write("250 OK\r\n");
      }
    });
    socket.on("error", () => {});
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `smtp://127.0.0.1:${port}` });
    }),
  );
}

describe("an SMTP refusal", () => {
  let smtp: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve())));

  it("fails the send with the server's code and answer, the refused address masked, and logs no address", async () => {
    const refusing = await refusingSmtp();
    smtp = refusing.server;
    const mailer = createMailer({
      smtpUrl: refusing.url,
      from: "Sourio <contact@sourio.test>",
      outboxDir: "/nonexistent",
      logger: { info: () => {} },
    });
    const to = "jeanne.patiente@exemple.fr";
    const error = (await mailer.send(message(to)).catch((e: unknown) => e)) as Error &
      Record<string, unknown>;
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: "EENVELOPE", responseCode: 550, command: "RCPT TO" });
    expect(error.message).toContain("550 5.1.1 <[adresse masquée]>: Recipient address rejected");
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain("jeanne");

    const log: { obj: object; msg: string }[] = [];
    const tracked = trackSends(mailer);
    mailAfterCommit(
      { mailer: tracked, log: { error: (obj, msg) => log.push({ obj, msg }) } },
      message(to),
      "raté",
    );
    await tracked.settled();
    expect(log).toHaveLength(1);
    expect(JSON.stringify(log)).toContain("Recipient address rejected");
    expect(JSON.stringify(log)).not.toContain("jeanne");
    await tracked.close();
  });
});
