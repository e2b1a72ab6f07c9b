import { useState } from "react";

/** A French error on the chosen times, one line per refused time (`slotsFieldError`). */
export function SlotsError({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={id} className="text-sm font-medium whitespace-pre-line text-red-700">
      {error}
    </p>
  );
}

/** The times a person is choosing and the error on them; choosing again clears the error. */
export function useSlotsDraft() {
  const [slots, setSlots] = useState<string[]>([]);
  const [error, setError] = useState<string | undefined>();
  const onSlotsChange = (next: string[]) => {
    setError(undefined);
    setSlots(next);
  };
  return { slots, setSlots, error, setError, onSlotsChange };
}
