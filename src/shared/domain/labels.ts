/**
 * A closed list of values written once, each with its French label: `values` in the order written
 * (for `z.enum`, the selects and the lists) and `labels` by value.
 */
export function labelled<const Labels extends Record<string, string>>(labels: Labels) {
  type Value = keyof Labels & string;
  return {
    values: Object.keys(labels) as readonly Value[] as readonly [Value, ...Value[]],
    labels: labels as Readonly<Record<Value, string>>,
  };
}
