import { expect } from "vitest";

/** Awaits what must fail: an error of this class, with exactly this message. */
export async function expectError(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => Error,
  message: string,
): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  expect((error as Error).message).toBe(message);
}
