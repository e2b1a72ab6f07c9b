/** The quote lines' pure helpers live in `src/shared/forms/quoteLines.ts`, beside the schemas they serve. */
export * from "../../../shared/forms/quoteLines";
