import { describe, expect, it } from "vitest";
import { type Mailer, type MailMessage, mailAfterCommit, trackSends } from "./mailer";

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
