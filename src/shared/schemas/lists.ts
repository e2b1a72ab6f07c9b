import { z } from "zod";

/**
 * The pieces every list of the API is made of, one rule each, for the routes (validation, OpenAPI)
 * and the screens alike: the query parameters of a page, and the page answered.
 */

/** `page`: 1 to 10 000, the first page when absent. */
export const pageParam = () => z.coerce.number().int().min(1).max(10_000).optional().default(1);

/** `page` and `page_size` (1 to 50, `defaultSize` when absent). */
export const pageQuery = (defaultSize: number) =>
  z.object({
    page: pageParam(),
    page_size: z.coerce.number().int().min(1).max(50).optional().default(defaultSize),
  });

/** A search text: trimmed, at most 100 characters, empty when absent. */
export const searchParam = () => z.string().trim().max(100).optional().default("");

/** `limit`: how many items, 1 to `max`, `defaultLimit` when absent. */
export const limitParam = (max: number, defaultLimit: number) =>
  z.coerce.number().int().min(1).max(max).optional().default(defaultLimit);

/** Items older than the one with id `before` (loading on scroll), `limit` at a time (at most 100). */
export const olderThanQuery = (defaultLimit: number) =>
  z.object({ before: z.uuid().optional(), limit: limitParam(100, defaultLimit) });

/** One numbered page of a list: its items, where it stands, and whether a next page exists. */
export const pagedList = <Item extends z.ZodType>(item: Item) =>
  z.object({
    items: z.array(item),
    page: z.number(),
    page_size: z.number(),
    has_more: z.boolean(),
  });
