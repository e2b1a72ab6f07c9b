/** D8: a patient may cancel a request that is neither completed nor already cancelled. */
export function mayCancelRequest(status: string): boolean {
  return status === "new" || status === "in_review";
}
